//! The middleware never shows the signer's secrets in `Debug`.

use oauth1_signer::{Consumer, SignatureMethod, Signer, Token};

#[test]
fn the_reqwest_middleware_never_shows_a_secret() {
    let (cs, ts) = ("CONSUMERsecret1", "TOKENsecret2");
    let signer = Signer::new(Consumer::new("ck", cs))
        .with_token(Token::new("tk", ts))
        .with_method(SignatureMethod::Plaintext);
    let middleware = oauth1_reqwest::OAuth1Middleware::new(signer);
    for shown in [format!("{middleware:?}"), format!("{middleware:#?}")] {
        assert!(!shown.contains(cs) && !shown.contains(ts), "{shown}");
    }
}
