//! What a debugging tool shows of a signing, and what it never shows: the key's shape in place
//! of the secrets, and a PLAINTEXT signature (which is the key itself) hidden.

use oauth1_signer::encode::encode;
use oauth1_signer::{SignatureMethod, Signed, Signer, Transport};

/// What a PLAINTEXT signature is shown as.
pub const HIDDEN_SIGNATURE: &str = "<not shown: a PLAINTEXT signature is the key itself>";

/// The signature and the `Authorization` header of `signed` as a tool shows them: a PLAINTEXT
/// signature, the secrets themselves, is replaced by [`HIDDEN_SIGNATURE`] in both.
#[must_use]
pub fn shown(signed: &Signed) -> (String, String) {
    let signature = signed.signature().as_str();
    let authorization = signed.authorization();
    if signed.signature().method() != SignatureMethod::Plaintext {
        return (signature.to_owned(), authorization);
    }
    let sent = format!("oauth_signature=\"{}\"", encode(signature.as_bytes()));
    (
        HIDDEN_SIGNATURE.to_owned(),
        authorization.replace(&sent, &format!("oauth_signature=\"{HIDDEN_SIGNATURE}\"")),
    )
}

/// The protocol parameters of `signed` as `name=value&…`, percent-encoded, as the query or
/// form-body transport sends them ([`Signed::to_urlencoded`]), a PLAINTEXT signature replaced
/// by [`HIDDEN_SIGNATURE`].
#[must_use]
pub fn urlencoded_shown(signed: &Signed) -> String {
    let params = signed.to_urlencoded();
    if signed.signature().method() != SignatureMethod::Plaintext {
        return params;
    }
    let sent = format!(
        "oauth_signature={}",
        encode(signed.signature().as_str().as_bytes())
    );
    params.replace(
        &sent,
        &format!("oauth_signature={}", encode(HIDDEN_SIGNATURE.as_bytes())),
    )
}

/// What carries `signed`'s protocol parameters in the query or form-body transport: the URL
/// as written (its fragment dropped) or the body, with [`urlencoded_shown`] appended after
/// `?` or `&`; `None` for the header, which [`shown`] gives.
#[must_use]
pub fn sent_shown(signed: &Signed, url: &str, body: &[u8], transport: Transport) -> Option<String> {
    let params = urlencoded_shown(signed);
    match transport {
        Transport::Query => {
            let url = url.trim();
            let url = url.split_once('#').map_or(url, |(before, _)| before);
            let joiner = match url.split_once('?') {
                None => "?",
                Some((_, "")) => "",
                Some(_) => "&",
            };
            Some(format!("{url}{joiner}{params}"))
        }
        Transport::FormBody => {
            let body = String::from_utf8_lossy(body);
            let joiner = if body.is_empty() { "" } else { "&" };
            Some(format!("{body}{joiner}{params}"))
        }
        _ => None,
    }
}

/// The normalized parameter string `signed`'s base string carries, decoded once: the RFC's
/// normalization for a request signed as RFC 5849 says, a profile's for one signed as a
/// provider computes ([`Signed::parameters`] lists the parameters collected, not how a profile
/// put them together).
#[must_use]
pub fn signed_parameter_string(signed: &Signed) -> String {
    let encoded = signed.base_string().encoded_parameters();
    oauth1_signer::encode::decode(encoded.as_bytes()).map_or_else(
        |_| encoded.to_owned(),
        |bytes| String::from_utf8_lossy(&bytes).into_owned(),
    )
}

/// The key as the lengths of its parts, never their bytes.
#[must_use]
pub fn key_shape(signer: &Signer) -> String {
    if signer.method().is_rsa() {
        return "the RSA private key (not shown)".to_owned();
    }
    let consumer = signer.consumer().secret().len();
    match signer.token() {
        Some(token) if !token.secret().is_empty() => format!(
            "<consumer secret, {consumer} bytes>&<token secret, {} bytes>",
            token.secret().len()
        ),
        _ => format!("<consumer secret, {consumer} bytes>& (no token secret)"),
    }
}
