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
use std::fmt;
use std::sync::{Arc, OnceLock};

use url::Url;

use crate::base_string::{self, BaseString, BaseUri};
use crate::collect::{self, name, Protocol, Sources};
use crate::credentials::{BodyHash, Consumer, Nonce, Timestamp, Token, Version};
use crate::encode::{Counted, Unreserved, Value};
use crate::error::Error;
use crate::header::{self, Realm};
use crate::params::{Normalized, Parameters, Source};
use crate::parts::RequestParts;
use crate::secret::Secret;
use crate::sign::{self, KeyedMac, PrivateKey, Signature, SignatureMethod, SigningKey};
use crate::target::{check_authority, check_method, check_url_path, is_form, kept_method, FORM};
use plain::Target;

/// The HTTP request to sign: method, URL (query included), and body; plus the protocol
/// parameters that belong to one step of the three-legged flow (`oauth_callback`,
/// `oauth_verifier`).
#[derive(Clone, Debug)]
pub struct Request<'a> {
    method: &'a str,
    target: Target<'a>,
    content_type: &'a str,
    /// Whether `content_type` is a form, decided once.
    form: bool,
    body: &'a [u8],
    callback: Option<&'a str>,
    verifier: Option<&'a str>,
    /// The URL as the application wrote it, when a profile needs its text.
    written: Option<&'a str>,
}

impl<'a> Request<'a> {
    /// A request for an absolute `http` or `https` URL as sent on the wire (query included,
    /// already percent-encoded). A character that must be percent-encoded in the path (a
    /// space, `{`, `é`, …) is signed encoded, as the URL parser writes it and as reqwest sends
    /// it; a path with a dot segment (`/b/../a`, `/b/%2e%2e/a`) or a backslash is refused,
    /// since some clients resolve those before sending and others do not (see
    /// [`server`](crate::server)): write the path the server routes.
    ///
    /// ```
    /// use oauth1_signer::Request;
    ///
    /// let error = Request::new("GET", "https://api.example.com/b/../a").unwrap_err();
    /// assert!(error.to_string().starts_with("the path \"/b/../a\" has the dot segment \"..\""));
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::InvalidMethod`], [`Error::InvalidUrl`], [`Error::UrlWithoutHost`],
    /// [`Error::UnsupportedScheme`], [`Error::AmbiguousPath`].
    pub fn new(method: &'a str, url: &str) -> Result<Self, Error> {
        if let Some(request) = Request::plain(method, url) {
            return request;
        }
        let parsed = Url::parse(url).map_err(|source| Error::InvalidUrl { source })?;
        let request = Request::with_url(method, Cow::Owned(parsed))?;
        check_authority(url)?;
        check_url_path(url)?;
        Ok(request)
    }

    /// [`Request::new`] for a URL plain enough to be read without the URL parser, read as the
    /// parser would read it (parsed only if asked for); `None` for any other URL. The text is
    /// kept: an owned `String` as it is, a `&str` copied.
    pub(crate) fn plain<T>(method: &'a str, url: T) -> Option<Result<Self, Error>>
    where
        T: AsRef<str> + Into<Box<str>>,
    {
        let target = Target::plain(url)?;
        Some(check_method(method).map(|()| Request::with_target(method, target)))
    }

    /// A request for an already parsed URL, which it borrows. Its path is the parser's (dot
    /// segments resolved, characters percent-encoded): what reqwest sends for it. A server
    /// builds the URL of a received request with
    /// `oauth1_server::PublicOrigin::url`, which refuses a path the parser
    /// would rewrite, so that the path verified is the path routed.
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
        Ok(Request::with_target(method, Target::Parsed(url)))
    }

    fn with_target(method: &'a str, target: Target<'a>) -> Self {
        Request {
            method,
            target,
            content_type: "",
            form: false,
            body: &[],
            callback: None,
            verifier: None,
            written: None,
        }
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

    /// The URL as the application wrote it, where the URL parser rewrites it (a `'` in the
    /// query escaped as `%27`, a raw `é` as `%C3%A9`): the request is signed as before, but a
    /// [`Profile`](crate::profile::Profile) whose provider reads the written text computes
    /// from it (Mastercard's Python signer encodes a query once when the query as written has
    /// no percent-escape).
    #[must_use]
    pub fn with_url_as_written(mut self, url: &'a str) -> Self {
        self.written = Some(url);
        self
    }

    /// The URL given to [`Request::with_url_as_written`], if any.
    pub(crate) fn url_as_written(&self) -> Option<&'a str> {
        self.written
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

    /// The URL, as the `url` crate parses it (a plain URL given to [`Request::new`] is parsed
    /// when first asked for: signing does not need it).
    #[must_use]
    pub fn url(&self) -> &Url {
        match &self.target {
            Target::Parsed(url) => url,
            Target::Plain(plain) => plain.url(),
        }
    }

    /// Whether the URL was read without the parser.
    #[cfg(test)]
    pub(crate) fn is_plain(&self) -> bool {
        matches!(self.target, Target::Plain(_))
    }

    /// The URL's query, without its `?`; empty when it has none.
    ///
    /// ```
    /// use oauth1_signer::Request;
    ///
    /// let request = Request::new("GET", "https://api.example.com/a?b=1&c=%20")?;
    /// assert_eq!(request.query(), "b=1&c=%20");
    /// # Ok::<(), oauth1_signer::Error>(())
    /// ```
    #[must_use]
    pub fn query(&self) -> &str {
        match &self.target {
            Target::Parsed(url) => url.query().unwrap_or(""),
            Target::Plain(plain) => plain.query(),
        }
    }

    /// The base string URI (§3.4.1.2), read from the URL without parsing it again.
    ///
    /// ```
    /// use oauth1_signer::Request;
    ///
    /// let request = Request::new("GET", "https://Api.Example.com:443/a/b?c=1")?;
    /// assert_eq!(request.base_uri()?.as_str(), "https://api.example.com/a/b");
    /// # Ok::<(), oauth1_signer::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::UnsupportedScheme`], which a request's URL was checked for when it was made.
    pub fn base_uri(&self) -> Result<BaseUri<'_>, Error> {
        match &self.target {
            Target::Parsed(url) => BaseUri::new(url),
            Target::Plain(plain) => Ok(BaseUri::normalized(plain.base())),
        }
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

    /// `oauth_callback` and `oauth_verifier`, if given.
    pub(crate) fn step(&self) -> (Option<&'a str>, Option<&'a str>) {
        (self.callback, self.verifier)
    }

    /// Where the parameters come from (§3.4.1.3.1).
    pub(crate) fn sources(&self) -> Sources<'_> {
        Sources {
            query: self.query().as_bytes(),
            body: self.body,
            form: self.form,
        }
    }
}

/// Signs requests with one set of credentials and options.
///
/// Built once and reused: the HMAC is keyed with the signing key (§3.4.2) when it first signs,
/// once for all the requests it signs; the key itself is kept only if asked for
/// ([`Signer::key`]) or needed (PLAINTEXT).
#[derive(Clone, Debug)]
pub struct Signer {
    consumer: Consumer,
    token: Option<Token>,
    /// The signing key of `consumer` and `token`: made when first needed, not again by each
    /// builder method that changes the credentials.
    key: OnceLock<SigningKey>,
    /// The HMAC keyed with `key`, for the HMAC methods: keyed at the first signature, not per
    /// request, and not again by each builder method that changes the key or the method.
    mac: OnceLock<Option<KeyedMac>>,
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
        Signer {
            consumer,
            token: None,
            mac: OnceLock::new(),
            key: OnceLock::new(),
            method: SignatureMethod::default(),
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
        self.key = OnceLock::new();
        self.mac = OnceLock::new();
        self.token = Some(token);
        self
    }

    /// This signer without token credentials: the consumer alone, as the temporary-credentials
    /// request (§2.1) is signed.
    #[must_use]
    pub fn without_token(&self) -> Self {
        let mut signer = self.clone();
        signer.key = OnceLock::new();
        signer.mac = OnceLock::new();
        signer.token = None;
        signer
    }

    /// The signature method.
    #[must_use]
    pub fn with_method(mut self, method: SignatureMethod) -> Self {
        self.method = method;
        self.mac = OnceLock::new();
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

    /// Whether `oauth_body_hash` is sent.
    #[must_use]
    pub fn body_hash(&self) -> BodyHash {
        self.body_hash
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
        self.key.get_or_init(|| {
            let token_secret = self.token.as_ref().map(Token::secret);
            SigningKey::new(
                self.consumer.secret(),
                token_secret.unwrap_or(&Secret::default()),
            )
        })
    }

    /// Signs `request` with a fresh nonce and the system clock's time.
    ///
    /// # Errors
    ///
    /// Those of [`Signer::sign`], [`Nonce::generate`] and [`Timestamp::now`].
    pub fn sign_now(&self, request: &Request<'_>) -> Result<Signed, Error> {
        self.sign(request, &Nonce::generate()?, Timestamp::now()?)
    }

    /// Signs a request given by its parts with a fresh nonce and the system clock's time, as
    /// [`sign_now`](Self::sign_now) signs a [`Request`].
    ///
    /// ```
    /// use oauth1_signer::{Consumer, RequestParts, Signer};
    ///
    /// let request = RequestParts::new("GET", "https://api.example.com/1/photos")?.query("size", "large");
    /// let signed = Signer::new(Consumer::new("key", "secret")).sign_parts_now(&request)?;
    /// assert!(signed.authorization().contains("oauth_nonce=\""));
    /// # Ok::<(), oauth1_signer::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`Signer::sign_parts`], [`Nonce::generate`] and [`Timestamp::now`].
    pub fn sign_parts_now(&self, request: &RequestParts) -> Result<Signed, Error> {
        self.sign_parts(request, &Nonce::generate()?, Timestamp::now()?)
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
        // The URL's scheme was checked when the request was made: this does not fail.
        let uri = request.base_uri()?;
        self.sign_sources(
            (request.method, &uri),
            request.step(),
            request.sources(),
            nonce,
            timestamp,
        )
    }

    /// Signs a request read as its method and base string URI, the step's protocol
    /// parameters (`oauth_callback`, `oauth_verifier`), and its query and body still encoded.
    fn sign_sources(
        &self,
        (method, uri): (&str, &BaseUri<'_>),
        step: (Option<&str>, Option<&str>),
        sources: Sources<'_>,
        nonce: &Nonce,
        timestamp: Timestamp,
    ) -> Result<Signed, Error> {
        self.check_token()?;
        let body_hash = self.body_hash_for(sources.form, sources.body)?;
        let mut timestamp_buf = [0u8; 20];
        let protocol = self.protocol_parameters(
            step,
            nonce,
            timestamp.digits(&mut timestamp_buf),
            body_hash.as_deref(),
        );
        let params = collect::collect_all(sources, &protocol)?;
        self.finish(method, uri, None, params)
    }

    /// Signs a request given by its parts (decoded query and form parameters), with the
    /// given nonce and timestamp; nothing is encoded and decoded again on the way. Send
    /// [`RequestParts::url`] and [`RequestParts::form_body`], which are encoded exactly as
    /// signed, with the result's [`Signed::authorization`].
    ///
    /// ```
    /// use oauth1_signer::{Consumer, Nonce, RequestParts, Signer, Timestamp, Token};
    ///
    /// // The X API's "Creating a signature" example.
    /// let signer = Signer::new(Consumer::new(
    ///     "xvz1evFS4wEEPTGEFPHBog",
    ///     "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
    /// ))
    /// .with_token(Token::new(
    ///     "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
    ///     "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
    /// ));
    /// let request = RequestParts::new("POST", "https://api.twitter.com/1.1/statuses/update.json")?
    ///     .query("include_entities", "true")
    ///     .form("status", "Hello Ladies + Gentlemen, a signed OAuth request!");
    /// let nonce = Nonce::new("kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg")?;
    /// let signed = signer.sign_parts(&request, &nonce, Timestamp::new(1318622958))?;
    /// assert_eq!(signed.signature().as_str(), "hCtSmYh+iHYCEqBWrE7C7hYmtUk=");
    ///
    /// assert_eq!(request.url(), "https://api.twitter.com/1.1/statuses/update.json?include_entities=true");
    /// assert_eq!(
    ///     request.form_body().unwrap(),
    ///     b"status=Hello%20Ladies%20%2B%20Gentlemen%2C%20a%20signed%20OAuth%20request%21",
    /// );
    /// # Ok::<(), oauth1_signer::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::ProtocolParameterInRequest`], [`Error::BodyHashOnFormBody`],
    /// [`Error::TokenSecretWithoutToken`], [`Error::MissingPrivateKey`], [`Error::Signing`].
    pub fn sign_parts(
        &self,
        request: &RequestParts,
        nonce: &Nonce,
        timestamp: Timestamp,
    ) -> Result<Signed, Error> {
        self.check_token()?;
        let body_hash = self.body_hash_for(request.has_form_body(), b"")?;
        let mut timestamp_buf = [0u8; 20];
        let protocol = self.protocol_parameters(
            (request.callback(), request.verifier()),
            nonce,
            timestamp.digits(&mut timestamp_buf),
            body_hash.as_deref(),
        );
        let params = collect::collect_from(request.params(), &protocol)?;
        let shared = request.shared_base_uri();
        self.finish(request.method(), &request.base_uri(), Some(shared), params)
    }

    /// [`Signer::sign`] of a request whose URL was read without the URL parser by
    /// `base_string::plain_url` (which reads it as the parser would): its base string URI
    /// `base` and its `query`, with its body and the body's Content-Type. The same signature
    /// as `Request::new(method, url)?.with_body(content_type, body)` gives, without parsing the
    /// URL.
    #[cfg(feature = "http")]
    pub(crate) fn sign_read_url(
        &self,
        method: &str,
        (base, query): (&str, &str),
        (content_type, body): (&str, &[u8]),
        nonce: &Nonce,
        timestamp: Timestamp,
    ) -> Result<Signed, Error> {
        check_method(method)?;
        let sources = Sources {
            query: query.as_bytes(),
            body,
            form: is_form(content_type),
        };
        let uri = BaseUri::normalized(base);
        self.sign_sources((method, &uri), (None, None), sources, nonce, timestamp)
    }

    /// A token secret without a token is a mistake, not an empty token.
    fn check_token(&self) -> Result<(), Error> {
        if self
            .token
            .as_ref()
            .is_some_and(|t| t.key().is_empty() && !t.secret().is_empty())
        {
            return Err(Error::TokenSecretWithoutToken);
        }
        Ok(())
    }

    /// The HMAC keyed with the signing key, keyed now if it is not yet; none for the methods
    /// that are not HMAC's.
    fn keyed_mac(&self) -> Option<&KeyedMac> {
        self.mac
            .get_or_init(|| match self.key.get() {
                Some(key) => KeyedMac::new(self.method, key.expose()),
                // Keyed from the key made on the stack: a signer that signs with an HMAC
                // keeps no copy of the key, only the HMAC's state.
                None => SigningKey::with_reference(
                    self.consumer.secret().expose(),
                    self.token.as_ref().map_or(&[], |t| t.secret().expose()),
                    |key| KeyedMac::new(self.method, key),
                ),
            })
            .as_ref()
    }

    /// Normalizes the collected parameters and signs their base string: an HMAC hashes it as
    /// it is written, and it is built only if asked for; the other methods build it.
    ///
    /// `shared` is the base string URI's text when the request holds it shared: the signed
    /// request keeps it without a copy.
    fn finish(
        &self,
        method: &str,
        uri: &BaseUri<'_>,
        shared: Option<Arc<str>>,
        params: Parameters,
    ) -> Result<Signed, Error> {
        let params = params.normalize();
        let (signature, base_string) = if let Some(mac) = self.keyed_mac() {
            let digest = mac.digest_base_string(method, uri, &params);
            (sign::hmac_signature(self.method, &digest)?, OnceLock::new())
        } else {
            let base_string = BaseString::new(method, uri, &params);
            let signature = sign::sign_keyed(
                self.method,
                || self.key(),
                None,
                self.private_key.as_ref(),
                base_string.as_bytes(),
            )?;
            (signature, OnceLock::from(base_string))
        };
        Ok(Signed {
            params,
            method: kept_method(method),
            uri: shared.unwrap_or_else(|| Arc::from(uri.as_str())),
            base_string,
            signature,
            realm: self.realm.clone(),
        })
    }
}

impl Signer {
    /// The `oauth_body_hash` value this signer sends for `request`, if any.
    pub(crate) fn body_hash_of(&self, request: &Request<'_>) -> Result<Option<String>, Error> {
        self.body_hash_for(request.has_form_body(), request.body)
    }

    /// The `oauth_body_hash` value this signer sends for a body (a form body, whose
    /// parameters are signed, takes none), if any.
    fn body_hash_for(&self, form: bool, body: &[u8]) -> Result<Option<String>, Error> {
        match (self.body_hash, form) {
            (BodyHash::Omit, _) => Ok(None),
            (BodyHash::Send, true) => Err(Error::BodyHashOnFormBody),
            (BodyHash::Send, false) => Ok(Some(sign::body_hash(self.method, body))),
        }
    }

    /// The protocol parameters this signer sends with `request`.
    pub(crate) fn protocol_parameters<'a>(
        &'a self,
        (callback, verifier): (Option<&'a str>, Option<&'a str>),
        nonce: &'a Nonce,
        timestamp: &'a [u8],
        body_hash: Option<&'a str>,
    ) -> Protocol<'a> {
        // Method names and the version are literals; keys and the nonce were checked once.
        let unchecked = |v: &'a [u8]| Value::Unchecked(v);
        [
            (name::BODY_HASH, body_hash.map(|h| unchecked(h.as_bytes()))),
            (name::CALLBACK, callback.map(|c| unchecked(c.as_bytes()))),
            (name::CONSUMER_KEY, Some(self.consumer.key_value())),
            (name::NONCE, Some(nonce.value())),
            (
                name::SIGNATURE_METHOD,
                Some(Value::Unreserved(self.method.as_unreserved())),
            ),
            (name::TIMESTAMP, Some(unchecked(timestamp))),
            (name::TOKEN, self.token.as_ref().map(Token::key_value)),
            (name::VERIFIER, verifier.map(|v| unchecked(v.as_bytes()))),
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
#[derive(Clone)]
pub struct Signed {
    params: Normalized,
    /// The method and the base string URI, from which with `params` the base string is
    /// made when asked for.
    method: Cow<'static, str>,
    uri: Arc<str>,
    /// Made when first asked for, unless the signature needed it whole (RSA, PLAINTEXT).
    base_string: OnceLock<BaseString>,
    signature: Signature,
    realm: Option<Realm>,
}

/// The parameters, the base string (made now if it was not), the signature and the realm;
/// the method and URI are in the base string.
impl fmt::Debug for Signed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Signed")
            .field("params", &self.params)
            .field("base_string", self.base_string())
            .field("signature", &self.signature)
            .field("realm", &self.realm)
            .finish_non_exhaustive()
    }
}

impl Signed {
    /// A request signed over `base_string`, which is not the RFC 5849 base string of `params`:
    /// a provider profile's.
    pub(crate) fn of_variant(
        method: &str,
        uri: &str,
        params: Normalized,
        base_string: BaseString,
        signature: Signature,
        realm: Option<Realm>,
    ) -> Signed {
        Signed {
            params,
            method: Cow::Owned(method.to_owned()),
            uri: Arc::from(uri),
            base_string: OnceLock::from(base_string),
            signature,
            realm,
        }
    }
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
        self.base_string.get_or_init(|| {
            BaseString::new(&self.method, &BaseUri::normalized(&self.uri), &self.params)
        })
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
                self.signature.as_bytes(),
            )))
    }

    /// The `Authorization` header value (§3.5.1): `OAuth realm="…", oauth_consumer_key="…", …`.
    #[must_use]
    pub fn authorization(&self) -> String {
        let signature = Counted::new(self.signature.as_bytes());
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

mod plain;
#[cfg(test)]
mod tests;
