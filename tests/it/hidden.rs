//! What the secrets tests of every package check with: secrets that need no percent-encoding
//! (so an encoded copy would show them as well), and the checks that text shows none of them.

use std::fmt::Debug;

use oauth1_signer::{Consumer, SignatureMethod, Signer, Token};

pub const CS: &str = "CONSUMERsecret1";
pub const TS: &str = "TOKENsecret2";
pub const SERVER: &str = "SERVERsecret3";
pub const NOW: u64 = 1_700_000_000;

pub fn assert_hidden(what: &str, text: &str) {
    for secret in [CS, TS, SERVER] {
        assert!(!text.contains(secret), "{what} shows {secret}: {text}");
    }
}

/// `{:?}` and `{:#?}`.
pub fn debug(what: &str, value: &impl Debug) {
    assert_hidden(what, &format!("{value:?}"));
    assert_hidden(what, &format!("{value:#?}"));
}

/// Display and both Debug forms of an error.
pub fn error(what: &str, value: &(impl Debug + std::fmt::Display)) {
    assert_hidden(what, &value.to_string());
    debug(what, value);
}

pub fn signer(method: SignatureMethod) -> Signer {
    Signer::new(Consumer::new("ck", CS))
        .with_token(Token::new("tk", TS))
        .with_method(method)
}
