//! The protocol parameters a captured request carries (RFC 5849 §3.5): what the client signed
//! with, but the secrets, which never travel; and the signer and request they describe once
//! the secrets are typed. What `oauth1 explain`, `oauth1 sign` and the web page all read a
//! capture with, so that they agree by construction.

use std::collections::HashMap;
use std::fmt;

use oauth1_signer::encode::decode_form;
use oauth1_signer::header::Authorization;
use oauth1_signer::{
    BodyHash, Consumer, Error, Nonce, Realm, Request, SignatureMethod, Signer, Timestamp, Token,
    Version,
};

use crate::capture::{error, Capture, CaptureError};

/// The protocol parameters of a request, decoded: from its `Authorization` header, its query or
/// its form body, or typed one by one.
///
/// `Debug` shows the signature's length only: a PLAINTEXT signature is the secrets themselves.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Protocol {
    /// `oauth_consumer_key`.
    pub consumer_key: String,
    /// `oauth_signature_method`, as written (`HMAC-SHA1`, `RSA-SHA256`, …).
    pub signature_method: String,
    /// `oauth_nonce`; none when it is still to be made.
    pub nonce: Option<String>,
    /// `oauth_timestamp`, as written; none when the clock is to give it.
    pub timestamp: Option<String>,
    /// `oauth_token`; none for a temporary-credentials request.
    pub token: Option<String>,
    /// `oauth_callback` (temporary-credentials request).
    pub callback: Option<String>,
    /// `oauth_verifier` (token request).
    pub verifier: Option<String>,
    /// The `realm` of the `Authorization` header.
    pub realm: Option<String>,
    /// Whether `oauth_version="1.0"` was sent (it is optional).
    pub version: bool,
    /// Whether `oauth_body_hash` was sent.
    pub body_hash: bool,
    /// `oauth_signature`, decoded: what the client computed.
    pub signature: Option<String>,
    /// The `Authorization` header these were read from, as sent. A verifier collects every
    /// parameter of it but the realm, a request parameter a client wrote into it too: the
    /// explanation's reference is computed with them
    /// (`Explainer::with_authorization_header`). Shown by `Debug` by its length only: it
    /// carries the signature.
    pub authorization: Option<String>,
}

impl fmt::Debug for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Protocol")
            .field("consumer_key", &self.consumer_key)
            .field("signature_method", &self.signature_method)
            .field("nonce", &self.nonce)
            .field("timestamp", &self.timestamp)
            .field("token", &self.token)
            .field("callback", &self.callback)
            .field("verifier", &self.verifier)
            .field("realm", &self.realm)
            .field("version", &self.version)
            .field("body_hash", &self.body_hash)
            .field(
                "signature",
                &self
                    .signature
                    .as_ref()
                    .map(|s| format!("<{} bytes>", s.len())),
            )
            .field(
                "authorization",
                &self
                    .authorization
                    .as_ref()
                    .map(|s| format!("<{} bytes>", s.len())),
            )
            .finish()
    }
}

impl Protocol {
    /// The protocol parameters of an `Authorization: OAuth …` header value, as a client sent
    /// it.
    ///
    /// # Errors
    ///
    /// A [`CaptureError`] naming what is wrong: a header that does not parse, a required
    /// parameter missing (`oauth_consumer_key`, `oauth_signature_method`, `oauth_nonce`,
    /// `oauth_timestamp`), a value that is not UTF-8, an `oauth_version` other than `1.0`.
    pub fn from_authorization(header: &str) -> Result<Protocol, CaptureError> {
        let parsed = Authorization::parse(header).map_err(|e| error(e.to_string()))?;
        Protocol::of_header(header, &parsed, "the header")
    }

    fn of_header(
        text: &str,
        header: &Authorization,
        place: &str,
    ) -> Result<Protocol, CaptureError> {
        let mut protocol = Protocol::found(place, |name| header.get(name).map(<[u8]>::to_vec))?;
        protocol.realm = header.realm().map(str::to_owned);
        protocol.authorization = Some(text.to_owned());
        Ok(protocol)
    }

    /// The protocol parameters that `lookup` finds (decoded); `place` names where in errors.
    fn found(
        place: &str,
        lookup: impl Fn(&str) -> Option<Vec<u8>>,
    ) -> Result<Protocol, CaptureError> {
        let text = |name: &str| -> Result<Option<String>, CaptureError> {
            lookup(name)
                .map(|v| {
                    String::from_utf8(v)
                        .map_err(|_| error(format!("{name} is not UTF-8 once decoded")))
                })
                .transpose()
        };
        let required = |name: &str| -> Result<String, CaptureError> {
            text(name)?.ok_or_else(|| error(format!("{place} has no {name}")))
        };
        let consumer_key = required("oauth_consumer_key")?;
        let signature_method = required("oauth_signature_method")?;
        let nonce = Some(required("oauth_nonce")?);
        let timestamp = Some(required("oauth_timestamp")?);
        let token = text("oauth_token")?;
        let callback = text("oauth_callback")?;
        let verifier = text("oauth_verifier")?;
        let body_hash = lookup("oauth_body_hash").is_some();
        let version = match text("oauth_version")?.as_deref() {
            None => false,
            Some("1.0") => true,
            Some(other) => {
                return Err(error(format!(
                    "oauth_version is {other:?}: RFC 5849 knows only 1.0"
                )))
            }
        };
        let signature = lookup("oauth_signature").map(|v| String::from_utf8_lossy(&v).into_owned());
        Ok(Protocol {
            consumer_key,
            signature_method,
            nonce,
            timestamp,
            token,
            callback,
            verifier,
            realm: None,
            version,
            body_hash,
            signature,
            authorization: None,
        })
    }

    /// The signer these parameters describe, with the secrets the other side holds; an RSA
    /// method's private key is the caller's to add
    /// (`Signer::with_private_key`, with the feature `rsa` of `oauth1-signer`).
    ///
    /// # Errors
    ///
    /// The library's, for a signature method it does not know or a realm a header cannot
    /// carry.
    pub fn signer(
        &self,
        consumer_secret: &str,
        token_secret: Option<&str>,
    ) -> Result<Signer, Error> {
        let method: SignatureMethod = self.signature_method.parse()?;
        let mut signer = Signer::new(Consumer::new(self.consumer_key.as_str(), consumer_secret))
            .with_method(method);
        if let Some(realm) = &self.realm {
            signer = signer.with_realm(Realm::new(realm.as_str())?);
        }
        if let Some(token) = &self.token {
            signer = signer.with_token(Token::new(token.as_str(), token_secret.unwrap_or("")));
        }
        if !self.version {
            signer = signer.with_version(Version::Omit);
        }
        if self.body_hash {
            signer = signer.with_body_hash(BodyHash::Send);
        }
        Ok(signer)
    }

    /// The nonce given, or a fresh random one when none is.
    ///
    /// # Errors
    ///
    /// The library's, for a nonce a header cannot carry, or no random source.
    pub fn nonce(&self) -> Result<Nonce, Error> {
        match &self.nonce {
            Some(nonce) => Nonce::new(nonce.as_str()),
            None => Nonce::generate(),
        }
    }

    /// The timestamp given, or the clock's when none is.
    ///
    /// # Errors
    ///
    /// The library's, for a timestamp that is not a number of seconds, or no clock.
    pub fn timestamp(&self) -> Result<Timestamp, Error> {
        match &self.timestamp {
            Some(timestamp) => timestamp.parse(),
            None => Timestamp::now(),
        }
    }

    /// The request of `capture` (its method, URL as written, `Content-Type` and body) with
    /// these parameters' callback and verifier.
    ///
    /// # Errors
    ///
    /// The library's, for a method or URL it cannot sign.
    pub fn request<'a>(&'a self, capture: &'a Capture) -> Result<Request<'a>, Error> {
        let mut request = Request::new(&capture.method, &capture.url)?
            .with_body(capture.header("content-type").unwrap_or(""), &capture.body)
            .with_url_as_written(&capture.url);
        if let Some(callback) = &self.callback {
            request = request.with_callback(callback);
        }
        if let Some(verifier) = &self.verifier {
            request = request.with_verifier(verifier);
        }
        Ok(request)
    }
}

impl Capture {
    /// The request as signed and the protocol parameters it carries: from its
    /// `Authorization: OAuth …` header, or else from its query, or else from its form body.
    /// Parameters found in the query or the body are taken out of it (the others are left as
    /// written), so that the request signs as the header would carry them: the same base
    /// string.
    ///
    /// # Errors
    ///
    /// A [`CaptureError`]: an `Authorization` header that does not parse, a form body that is
    /// not UTF-8, no protocol parameters anywhere, or what [`Protocol::from_authorization`]
    /// refuses.
    pub fn protocol(&self) -> Result<(Capture, Protocol), CaptureError> {
        if let Some(header) = self.oauth_authorization() {
            let parsed = Authorization::parse(header)
                .map_err(|e| error(format!("the Authorization header: {e}")))?;
            let protocol = Protocol::of_header(header, &parsed, "the Authorization header")?;
            return Ok((self.clone(), protocol));
        }
        let (query_protocol, url) = take_protocol(&self.url, true);
        let (found, url, body) = if query_protocol.is_empty() && self.has_form_body() {
            let body =
                std::str::from_utf8(&self.body).map_err(|_| error("the form body is not UTF-8"))?;
            let (form_protocol, body) = take_protocol(body, false);
            (form_protocol, url, body.into_bytes())
        } else {
            (query_protocol, url, self.body.clone())
        };
        if found.is_empty() {
            return Err(error(
                "the request carries no OAuth parameters: no \"Authorization: OAuth …\" header, and no oauth_ parameters in its query or form body",
            ));
        }
        let protocol = Protocol::found("the request", |name| found.get(name).cloned())?;
        let capture = Capture {
            method: self.method.clone(),
            url,
            headers: self.headers.clone(),
            body,
        };
        Ok((capture, protocol))
    }
}

/// The `oauth_*` parameters of a query (in `text`, a URL, when `in_url`) or a form body,
/// decoded, and what is left without them, the other parameters as they were written.
fn take_protocol(text: &str, in_url: bool) -> (HashMap<String, Vec<u8>>, String) {
    let (head, pairs) = if in_url {
        let without_fragment = text.split('#').next().unwrap_or_default();
        match without_fragment.split_once('?') {
            Some((head, query)) => (head, query),
            None => return (HashMap::new(), text.to_owned()),
        }
    } else {
        ("", text)
    };
    let mut protocol = HashMap::new();
    let mut kept = Vec::new();
    for pair in pairs.split('&') {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        match decode_form(name.as_bytes()) {
            Ok(n) if n.starts_with(b"oauth_") => {
                let name = String::from_utf8_lossy(&n).into_owned();
                let value = decode_form(value.as_bytes())
                    .map_or_else(|_| value.as_bytes().to_vec(), std::borrow::Cow::into_owned);
                protocol.insert(name, value);
            }
            _ => kept.push(pair),
        }
    }
    if protocol.is_empty() {
        return (protocol, text.to_owned());
    }
    let rest = kept.join("&");
    let text = match (in_url, rest.is_empty()) {
        (true, true) => head.to_owned(),
        (true, false) => format!("{head}?{rest}"),
        (false, _) => rest,
    };
    (protocol, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 5849 §3.5.1's example header.
    const HEADER: &str = r#"OAuth realm="Example", oauth_consumer_key="0685bd9184jfhq22", oauth_token="ad180jjd733klru7", oauth_signature_method="HMAC-SHA1", oauth_signature="wOJIO9A2W5mFwDgiDvZbTSMK%2FPY%3D", oauth_timestamp="137131200", oauth_nonce="4572616e48616d6d65724c61686176", oauth_version="1.0""#;

    #[test]
    fn the_rfc_header_gives_its_parameters_decoded() {
        let p = Protocol::from_authorization(HEADER).unwrap();
        assert_eq!(p.consumer_key, "0685bd9184jfhq22");
        assert_eq!(p.token.as_deref(), Some("ad180jjd733klru7"));
        assert_eq!(p.signature_method, "HMAC-SHA1");
        assert_eq!(p.signature.as_deref(), Some("wOJIO9A2W5mFwDgiDvZbTSMK/PY="));
        assert_eq!(p.timestamp.as_deref(), Some("137131200"));
        assert_eq!(p.nonce.as_deref(), Some("4572616e48616d6d65724c61686176"));
        assert_eq!(p.realm.as_deref(), Some("Example"));
        assert!(p.version);
        assert!(!p.body_hash);
        // The signature's bytes stay out of Debug (a PLAINTEXT one is the secrets).
        assert!(!format!("{p:?}").contains("wOJIO9A2W5mFwDgiDvZbTSMK"));
    }

    #[test]
    fn query_parameters_are_taken_out_of_the_url() {
        let capture = Capture {
            method: "GET".into(),
            url: "https://h/p?b=2&oauth_consumer_key=k&oauth_signature_method=PLAINTEXT&oauth_nonce=n&oauth_timestamp=1&oauth_signature=a%26b&a=1".into(),
            ..Capture::default()
        };
        let (request, p) = capture.protocol().unwrap();
        assert_eq!(request.url, "https://h/p?b=2&a=1");
        assert_eq!(p.signature.as_deref(), Some("a&b"));
        assert!(!p.version);
    }

    #[test]
    fn what_is_missing_is_named() {
        let e = Protocol::from_authorization(r#"OAuth oauth_consumer_key="k""#).unwrap_err();
        assert_eq!(e.to_string(), "the header has no oauth_signature_method");
        let e = Capture::default().protocol().unwrap_err();
        assert!(e
            .to_string()
            .starts_with("the request carries no OAuth parameters"));
    }
}
