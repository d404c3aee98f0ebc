//! The front door: a [`Request`] and a [`Signer`] (credentials and options) give a [`Signed`]
//! request, with every stage of RFC 5849 §3.4 kept for inspection.
//!
//! ```
//! use oauth1_signer::{Consumer, Nonce, Request, Signer, Timestamp, Token};
//!
//! let signer = Signer::new(Consumer::new("dpf43f3p2l4k3l03", "kd94hf93k423kf44"))
//!     .with_token(Token::new("nnch734d00sl2jdk", "pfkkdhi9sl3r4s00"));
//! let request = Request::new("GET", "http://photos.example.net/photos?file=vacation.jpg&size=original")?;
//! let signed = signer.sign(&request, &Nonce::new("kllo9940pd9333jh")?, Timestamp::new(1191242096))?;
//! assert_eq!(signed.signature().as_str(), "tR3+Ty81lMeYAr/Fid0kMTYa/WM=");
//! # Ok::<(), oauth1_signer::Error>(())
//! ```

use std::borrow::Cow;

use url::Url;

use crate::base_string::{self, BaseString, BaseUri};
use crate::credentials::{BodyHash, Consumer, Nonce, Timestamp, Token, Version};
use crate::encode::{Counted, Unreserved, Value};
use crate::header::{self, Realm};
use crate::params::{self, name, Collect, Normalized, Protocol, Source, Sources};
use crate::sign::{self, KeyedMac, PrivateKey, Signature, SignatureMethod, SigningKey};
use crate::{Error, Secret};

/// The HTTP request to sign: method, URL (query included), and body; plus the protocol
/// parameters that belong to one step of the three-legged flow (`oauth_callback`,
/// `oauth_verifier`).
#[derive(Clone, Debug)]
pub struct Request<'a> {
    method: &'a str,
    url: Cow<'a, Url>,
    content_type: &'a str,
    /// Whether `content_type` is a form, decided once.
    form: bool,
    body: &'a [u8],
    callback: Option<&'a str>,
    verifier: Option<&'a str>,
}

impl<'a> Request<'a> {
    /// A request for an absolute `http` or `https` URL as sent on the wire (query included,
    /// already percent-encoded).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidMethod`], [`Error::InvalidUrl`], [`Error::UnsupportedScheme`].
    pub fn new(method: &'a str, url: &str) -> Result<Self, Error> {
        let parsed = Url::parse(url).map_err(|source| Error::InvalidUrl { source })?;
        let request = Request::with_url(method, Cow::Owned(parsed))?;
        check_authority(url)?;
        Ok(request)
    }

    /// A request for an already parsed URL, which it borrows.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidMethod`], [`Error::UnsupportedScheme`].
    pub fn from_url(method: &'a str, url: &'a Url) -> Result<Self, Error> {
        Request::with_url(method, Cow::Borrowed(url))
    }

    fn with_url(method: &'a str, url: Cow<'a, Url>) -> Result<Self, Error> {
        check_method(method)?;
        base_string::check_scheme(&url)?;
        Ok(Request {
            method,
            url,
            content_type: "",
            form: false,
            body: &[],
            callback: None,
            verifier: None,
        })
    }

    /// The body and its Content-Type (empty when the request has none). Its parameters are
    /// signed only when the type is `application/x-www-form-urlencoded` (any letter case,
    /// parameters such as `; charset=utf-8` allowed).
    #[must_use]
    pub fn with_body(mut self, content_type: &'a str, body: &'a [u8]) -> Self {
        self.content_type = content_type;
        self.form = is_form(content_type);
        self.body = body;
        self
    }

    /// A form body, with Content-Type `application/x-www-form-urlencoded`.
    #[must_use]
    pub fn with_form_body(self, body: &'a [u8]) -> Self {
        self.with_body(FORM, body)
    }

    /// `oauth_callback` (§2.1, temporary credentials request); `oob` for out of band.
    #[must_use]
    pub fn with_callback(mut self, callback: &'a str) -> Self {
        self.callback = Some(callback);
        self
    }

    /// `oauth_verifier` (§2.3, token request).
    #[must_use]
    pub fn with_verifier(mut self, verifier: &'a str) -> Self {
        self.verifier = Some(verifier);
        self
    }

    /// The method as given (the base string uppercases it).
    #[must_use]
    pub fn method(&self) -> &str {
        self.method
    }

    /// The URL.
    #[must_use]
    pub fn url(&self) -> &Url {
        &self.url
    }

    /// The body.
    #[must_use]
    pub fn body(&self) -> &[u8] {
        self.body
    }

    /// The Content-Type, empty when there is none.
    #[must_use]
    pub fn content_type(&self) -> &str {
        self.content_type
    }

    /// Whether the body is a form whose parameters are signed.
    #[must_use]
    pub fn has_form_body(&self) -> bool {
        self.form
    }

    /// Where the parameters come from (§3.4.1.3.1).
    pub(crate) fn sources(&self) -> Sources<'_> {
        Sources {
            query: self.url.query().unwrap_or("").as_bytes(),
            body: self.body,
            form: self.form,
        }
    }
}

/// Requires `scheme://` and a host in the text itself: the URL parser would otherwise take
/// `http:example.com` or `https:///path` as naming a host.
fn check_authority(url: &str) -> Result<(), Error> {
    let after_scheme = url
        .trim_start_matches(|c: char| c <= ' ')
        .split_once(':')
        .map_or("", |(_, rest)| rest);
    match after_scheme.strip_prefix("//") {
        Some(authority)
            if !authority.is_empty() && !authority.starts_with(['/', '\\', '?', '#']) =>
        {
            Ok(())
        }
        _ => Err(Error::UrlWithoutHost),
    }
}

pub(crate) const FORM: &str = "application/x-www-form-urlencoded";

/// Whether a Content-Type is `application/x-www-form-urlencoded`.
pub(crate) fn is_form(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or("").trim();
    essence.eq_ignore_ascii_case(FORM)
}

/// A method is an RFC 9110 token.
fn check_method(method: &str) -> Result<(), Error> {
    if method.is_empty() || !method.bytes().all(header::is_tchar) {
        return Err(Error::InvalidMethod {
            method: method.to_owned(),
        });
    }
    Ok(())
}

/// Signs requests with one set of credentials and options.
///
/// Built once and reused: the signing key (§3.4.2) is computed when the credentials are set.
#[derive(Clone, Debug)]
pub struct Signer {
    consumer: Consumer,
    token: Option<Token>,
    key: SigningKey,
    /// The HMAC keyed with `key`, for the HMAC methods: keyed once, not per request.
    mac: Option<KeyedMac>,
    method: SignatureMethod,
    private_key: Option<PrivateKey>,
    realm: Option<Realm>,
    version: Version,
    body_hash: BodyHash,
}

impl Signer {
    /// A signer with client credentials only, HMAC-SHA1, `oauth_version="1.0"`, no realm and
    /// no body hash.
    #[must_use]
    pub fn new(consumer: Consumer) -> Self {
        let key = SigningKey::new(consumer.secret(), &Secret::default());
        let method = SignatureMethod::default();
        Signer {
            consumer,
            token: None,
            mac: KeyedMac::new(method, key.expose()),
            key,
            method,
            private_key: None,
            realm: None,
            version: Version::default(),
            body_hash: BodyHash::default(),
        }
    }

    /// Adds token (or temporary) credentials: `oauth_token` is sent and the token secret
    /// joins the signing key.
    #[must_use]
    pub fn with_token(mut self, token: Token) -> Self {
        self.key = SigningKey::new(self.consumer.secret(), token.secret());
        self.mac = KeyedMac::new(self.method, self.key.expose());
        self.token = Some(token);
        self
    }

    /// The signature method.
    #[must_use]
    pub fn with_method(mut self, method: SignatureMethod) -> Self {
        self.method = method;
        self.mac = KeyedMac::new(method, self.key.expose());
        self
    }

    /// The RSA private key for `RSA-SHA1` and `RSA-SHA256`.
    #[cfg(feature = "rsa")]
    #[must_use]
    pub fn with_private_key(mut self, key: PrivateKey) -> Self {
        self.private_key = Some(key);
        self
    }

    /// The realm of the Authorization header.
    #[must_use]
    pub fn with_realm(mut self, realm: Realm) -> Self {
        self.realm = Some(realm);
        self
    }

    /// Whether `oauth_version` is sent.
    #[must_use]
    pub fn with_version(mut self, version: Version) -> Self {
        self.version = version;
        self
    }

    /// Whether `oauth_body_hash` is sent.
    #[must_use]
    pub fn with_body_hash(mut self, body_hash: BodyHash) -> Self {
        self.body_hash = body_hash;
        self
    }

    /// The client credentials.
    #[must_use]
    pub fn consumer(&self) -> &Consumer {
        &self.consumer
    }

    /// The token credentials, if any.
    #[must_use]
    pub fn token(&self) -> Option<&Token> {
        self.token.as_ref()
    }

    /// The signature method.
    #[must_use]
    pub fn method(&self) -> SignatureMethod {
        self.method
    }

    /// The signing key of the HMAC and PLAINTEXT methods.
    #[must_use]
    pub fn key(&self) -> &SigningKey {
        &self.key
    }

    /// Signs `request` with a fresh nonce and the system clock's time.
    ///
    /// # Errors
    ///
    /// Those of [`Signer::sign`], [`Nonce::generate`] and [`Timestamp::now`].
    pub fn sign_now(&self, request: &Request<'_>) -> Result<Signed, Error> {
        self.sign(request, &Nonce::generate()?, Timestamp::now()?)
    }

    /// Signs `request` with the given nonce and timestamp: the same inputs always give the
    /// same base string and, for every method but RSA with a new key, the same signature.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidPercentEncoding`] in the query or form body,
    /// [`Error::ProtocolParameterInRequest`], [`Error::BodyHashOnFormBody`],
    /// [`Error::TokenSecretWithoutToken`], [`Error::MissingPrivateKey`], [`Error::Signing`].
    pub fn sign(
        &self,
        request: &Request<'_>,
        nonce: &Nonce,
        timestamp: Timestamp,
    ) -> Result<Signed, Error> {
        if self
            .token
            .as_ref()
            .is_some_and(|t| t.key().is_empty() && !t.secret().is_empty())
        {
            return Err(Error::TokenSecretWithoutToken);
        }
        let body_hash = self.body_hash_of(request)?;
        let mut timestamp_buf = [0u8; 20];
        let protocol = self.protocol_parameters(
            request,
            nonce,
            timestamp.digits(&mut timestamp_buf),
            body_hash.as_deref(),
        );
        let params = params::collect_all(request.sources(), &protocol, Collect::RFC)?;
        let params = params.normalize();
        let base_string = BaseString::new(request.method, &BaseUri::new(request.url())?, &params);
        let signature = sign::sign_keyed(
            self.method,
            &self.key,
            self.mac.as_ref(),
            self.private_key.as_ref(),
            base_string.as_bytes(),
        )?;
        Ok(Signed {
            params,
            base_string,
            signature,
            realm: self.realm.clone(),
        })
    }
}

impl Signer {
    /// The `oauth_body_hash` value this signer sends for `request`, if any.
    pub(crate) fn body_hash_of(&self, request: &Request<'_>) -> Result<Option<String>, Error> {
        match (self.body_hash, request.has_form_body()) {
            (BodyHash::Omit, _) => Ok(None),
            (BodyHash::Send, true) => Err(Error::BodyHashOnFormBody),
            (BodyHash::Send, false) => Ok(Some(sign::body_hash(self.method, request.body))),
        }
    }

    /// The protocol parameters this signer sends with `request`.
    pub(crate) fn protocol_parameters<'a>(
        &'a self,
        request: &'a Request<'_>,
        nonce: &'a Nonce,
        timestamp: &'a [u8],
        body_hash: Option<&'a str>,
    ) -> Protocol<'a> {
        // Method names and the version are literals; keys and the nonce were checked once.
        let unchecked = |v: &'a [u8]| Value::Unchecked(v);
        [
            (name::BODY_HASH, body_hash.map(|h| unchecked(h.as_bytes()))),
            (
                name::CALLBACK,
                request.callback.map(|c| unchecked(c.as_bytes())),
            ),
            (name::CONSUMER_KEY, Some(self.consumer.key_value())),
            (name::NONCE, Some(nonce.value())),
            (
                name::SIGNATURE_METHOD,
                Some(Value::Unreserved(self.method.unreserved_name())),
            ),
            (name::TIMESTAMP, Some(unchecked(timestamp))),
            (name::TOKEN, self.token.as_ref().map(Token::key_value)),
            (
                name::VERIFIER,
                request.verifier.map(|v| unchecked(v.as_bytes())),
            ),
            (
                name::VERSION,
                (self.version == Version::Send)
                    .then_some(Value::Unreserved(const { Unreserved::literal("1.0") })),
            ),
        ]
    }

    /// The realm, if any.
    pub(crate) fn realm(&self) -> Option<&Realm> {
        self.realm.as_ref()
    }

    /// The RSA private key, if any.
    #[cfg(feature = "rsa")]
    pub(crate) fn private_key(&self) -> Option<&PrivateKey> {
        self.private_key.as_ref()
    }
}

/// A signed request: every stage of the signature, and the ways to send it.
#[derive(Clone, Debug)]
pub struct Signed {
    params: Normalized,
    base_string: BaseString,
    signature: Signature,
    realm: Option<Realm>,
}

impl Signed {
    /// All the signed parameters (query, form body and protocol), each with its source, in
    /// normalized order.
    #[must_use]
    pub fn parameters(&self) -> &Normalized {
        &self.params
    }

    /// The signature base string (§3.4.1.1).
    #[must_use]
    pub fn base_string(&self) -> &BaseString {
        &self.base_string
    }

    /// The signature (§3.4.2–§3.4.4), before percent-encoding.
    #[must_use]
    pub fn signature(&self) -> &Signature {
        &self.signature
    }

    /// The protocol parameters to send, `oauth_signature` last, as decoded name and value.
    pub fn protocol_parameters(&self) -> impl Iterator<Item = (&[u8], &[u8])> + Clone + '_ {
        self.params
            .iter()
            .filter(|p| p.source == Source::Protocol)
            .map(|p| (p.name, p.value))
            .chain(std::iter::once((
                &b"oauth_signature"[..],
                self.signature.as_str().as_bytes(),
            )))
    }

    /// The `Authorization` header value (§3.5.1): `OAuth realm="…", oauth_consumer_key="…", …`.
    #[must_use]
    pub fn authorization(&self) -> String {
        let signature = Counted::new(self.signature.as_str().as_bytes());
        let protocol = (self.params.counted_from(Source::Protocol))
            .chain([(Counted::new(b"oauth_signature"), signature)]);
        header::build(self.realm.as_ref(), protocol)
    }

    /// The protocol parameters as `name=value&…`, percent-encoded, to send in the query
    /// (§3.5.3, appended to the URL's query with `&`, or after `?` when it has none) or in a
    /// form body (§3.5.2, appended with `&`). The base string is the same for every transport.
    #[must_use]
    pub fn to_urlencoded(&self) -> String {
        let mut out = String::new();
        for (i, (name, value)) in self.protocol_parameters().enumerate() {
            if i > 0 {
                out.push('&');
            }
            crate::encode::encode(name).append_to(&mut out);
            out.push('=');
            crate::encode::encode(value).append_to(&mut out);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Parameters;

    #[test]
    fn timestamps_parse_strictly_and_print_back() {
        for good in ["0", "1", "137131200", "18446744073709551615"] {
            let t: Timestamp = good.parse().unwrap();
            assert_eq!(t.to_string(), good);
            let mut buf = [0u8; 20];
            assert_eq!(t.digits(&mut buf), good.as_bytes());
        }
        for bad in [
            "",
            "01",
            "-1",
            "+1",
            "1.5",
            " 1",
            "18446744073709551616",
            "１",
        ] {
            let err = bad.parse::<Timestamp>().unwrap_err();
            assert!(
                err.to_string()
                    .starts_with(&format!("invalid timestamp \"{bad}\"")),
                "{err}"
            );
        }
    }

    #[test]
    fn generated_nonces_are_32_alphanumerics_and_differ() {
        let a = Nonce::generate().unwrap();
        let b = Nonce::generate().unwrap();
        assert_eq!(a.as_str().len(), 32);
        assert!(a.as_str().bytes().all(|c| c.is_ascii_alphanumeric()));
        assert_ne!(a, b);
        assert_eq!(
            Nonce::new("").unwrap_err().to_string(),
            "the nonce is empty: use a random string unique to the request, such as Nonce::generate makes"
        );
    }

    #[test]
    fn form_content_types() {
        for form in [
            "application/x-www-form-urlencoded",
            "Application/X-WWW-Form-URLEncoded",
            "application/x-www-form-urlencoded; charset=utf-8",
            " application/x-www-form-urlencoded ;charset=UTF-8",
        ] {
            assert!(is_form(form), "{form}");
        }
        for other in [
            "",
            "application/json",
            "multipart/form-data",
            "application/x-www-form-urlencodedx",
            "text/plain; application/x-www-form-urlencoded",
        ] {
            assert!(!is_form(other), "{other}");
        }
    }

    #[test]
    fn methods_are_tokens() {
        for good in ["GET", "post", "M-SEARCH", "PROPFIND"] {
            assert!(check_method(good).is_ok());
        }
        for bad in ["", "GE T", "GET\r\n", "GÉT", "a/b"] {
            assert!(check_method(bad).is_err(), "{bad:?}");
        }
    }

    /// The X API sample ("Creating a signature"), whose published values the tests check.
    fn x_sample(url: &Url) -> (Signer, Request<'_>) {
        let signer = Signer::new(Consumer::new(
            "xvz1evFS4wEEPTGEFPHBog",
            "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
        ))
        .with_token(Token::new(
            "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
            "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
        ));
        let request = Request::from_url("POST", url).unwrap().with_form_body(
            b"status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21",
        );
        (signer, request)
    }

    fn x_url() -> Url {
        Url::parse("https://api.twitter.com/1.1/statuses/update.json?include_entities=true")
            .unwrap()
    }

    fn x_nonce() -> Nonce {
        Nonce::new("kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg").unwrap()
    }

    #[test]
    fn a_borrowed_url_signs_like_a_parsed_one() {
        let url = x_url();
        let (signer, request) = x_sample(&url);
        let sample = signer
            .sign(&request, &x_nonce(), Timestamp::new(1_318_622_958))
            .unwrap();
        assert_eq!(sample.signature().as_str(), "hCtSmYh+iHYCEqBWrE7C7hYmtUk=");
    }

    #[test]
    fn query_and_form_transport_carry_the_published_protocol_parameters() {
        let url = x_url();
        let (signer, request) = x_sample(&url);
        let sample = signer
            .sign(&request, &x_nonce(), Timestamp::new(1_318_622_958))
            .unwrap();
        let mut pairs: Vec<&str> = Vec::new();
        let urlencoded = sample.to_urlencoded();
        pairs.extend(urlencoded.split('&'));
        pairs.sort_unstable();
        // The published Authorization header's parameters, as name=value.
        assert_eq!(
            pairs,
            [
                "oauth_consumer_key=xvz1evFS4wEEPTGEFPHBog",
                "oauth_nonce=kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg",
                "oauth_signature=hCtSmYh%2BiHYCEqBWrE7C7hYmtUk%3D",
                "oauth_signature_method=HMAC-SHA1",
                "oauth_timestamp=1318622958",
                "oauth_token=370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
                "oauth_version=1.0",
            ]
        );
        // Sent in the query, the parameters decode to what was signed: a server that collects
        // them from there rebuilds the same base string.
        let mut resent = url.clone();
        resent.set_query(Some(&format!("include_entities=true&{urlencoded}")));
        let mut params = Parameters::new();
        params
            .extend_urlencoded(Source::Query, resent.query().unwrap_or("").as_bytes())
            .unwrap();
        let sent: Vec<(&[u8], &[u8])> = params
            .iter()
            .filter(|p| p.name.starts_with(b"oauth_"))
            .map(|p| (p.name, p.value))
            .collect();
        let signed_params: Vec<(&[u8], &[u8])> = sample.protocol_parameters().collect();
        assert_eq!(sent, signed_params);
    }

    #[test]
    fn sign_now_uses_a_fresh_nonce_and_the_clock() {
        let url = x_url();
        let (signer, request) = x_sample(&url);
        let before = Timestamp::now().unwrap();
        let a = signer.sign_now(&request).unwrap();
        let b = signer.sign_now(&request).unwrap();
        let value = |signed: &Signed, name: &[u8]| -> Vec<u8> {
            signed
                .protocol_parameters()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_vec())
                .unwrap()
        };
        assert_ne!(value(&a, b"oauth_nonce"), value(&b, b"oauth_nonce"));
        let timestamp: Timestamp = String::from_utf8(value(&a, b"oauth_timestamp"))
            .unwrap()
            .parse()
            .unwrap();
        assert!(timestamp >= before && timestamp <= Timestamp::now().unwrap());
    }

    #[test]
    fn keys_and_nonces_to_escape_are_escaped_however_they_were_made() {
        // enc(enc(b)) of each: a space is %2520, a slash %252F.
        let signer = Signer::new(Consumer::new("k y", "cs")).with_token(Token::new("t/k", "ts"));
        let request = Request::new("GET", "https://example.com/").unwrap();
        for nonce in [Nonce::new("n/1").unwrap(), Nonce::new("n1").unwrap()] {
            let result = signer.sign(&request, &nonce, Timestamp::new(1)).unwrap();
            let base = result.base_string().as_str();
            for part in [
                "oauth_consumer_key%3Dk%2520y%26",
                "oauth_token%3Dt%252Fk%26",
            ] {
                assert!(base.contains(part), "{base}");
            }
            let want = if nonce.as_str() == "n1" {
                "n1"
            } else {
                "n%252F1"
            };
            assert!(base.contains(&format!("oauth_nonce%3D{want}%26")), "{base}");
        }
        // The same names, all unreserved, and a generated nonce.
        let signer = Signer::new(Consumer::new("ky", "cs")).with_token(Token::new("tk", "ts"));
        let nonce = Nonce::generate().unwrap();
        let result = signer.sign(&request, &nonce, Timestamp::new(1)).unwrap();
        let base = result.base_string().as_str();
        assert!(base.contains("oauth_consumer_key%3Dky%26"), "{base}");
        assert!(base.contains(&format!("oauth_nonce%3D{}%26", nonce.as_str())));
    }

    #[test]
    fn secrets_stay_out_of_debug() {
        let signer = Signer::new(Consumer::new("ck", "consumer-secret-1"))
            .with_token(Token::new("tk", "token-secret-2"))
            .with_method(SignatureMethod::Plaintext);
        let request = Request::new("GET", "https://example.com/").unwrap();
        let result = signer
            .sign(&request, &Nonce::new("n").unwrap(), Timestamp::new(1))
            .unwrap();
        for text in [format!("{signer:?}"), format!("{result:?}")] {
            assert!(!text.contains("consumer-secret-1"), "{text}");
            assert!(!text.contains("token-secret-2"), "{text}");
        }
    }
}
