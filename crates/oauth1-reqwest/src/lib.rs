//! OAuth 1.0a for `reqwest` clients, on the `oauth1-signer` core: a middleware for `reqwest-middleware`, an
//! extension trait for a plain [`reqwest::Request`] (or, with the feature `blocking`, a
//! `reqwest::blocking::Request`), and the three-legged flow over HTTP ([`Session`],
//! [`Provider`]).
//!
//! - **Get a user's token credentials**: [`Session`] runs the three-legged flow (the
//!   authorization URL, the callback URL whole) and then hands a client that signs as the user.
//! - **Sign every request of a client**: [`OAuth1Middleware`], below; one client serves many
//!   users with [`SignAs`] on each request.
//! - **Sign one built request**: [`SignExt`].
//! - **Upload a file**: a multipart body is signed without being read (see the end).
//!
//! Features: `blocking`, `SignExt` for `reqwest::blocking::Request` and the blocking helpers of
//! [`Provider`]. `reqwest` is used without its default features: turn on its TLS feature
//! (`rustls` or `native-tls`) in your own `Cargo.toml` to reach `https` servers.
//!
//! # The middleware
//!
//! The middleware signs every request it sends with a fresh nonce and timestamp, so a retry
//! (by a retry middleware added before it) is signed again, never sent with a replayed
//! header. It follows redirects itself, signing each hop again; a redirect to another origin
//! (scheme, host and port) is followed without the signature, the `Cookie` and the
//! `Proxy-Authorization` headers, so credentials never reach another host. For that, the
//! `reqwest::Client` under it must not follow redirects itself:
//!
//! ```no_run
//! use oauth1_reqwest::OAuth1Middleware;
//! use oauth1_signer::{Consumer, Signer, Token};
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let signer = Signer::new(Consumer::new("consumer key", "consumer secret"))
//!     .with_token(Token::new("token", "token secret"));
//! let client = reqwest_middleware::ClientBuilder::new(
//!     reqwest::Client::builder()
//!         .redirect(reqwest::redirect::Policy::none())
//!         .build()?,
//! )
//! .with(OAuth1Middleware::new(signer))
//! .build();
//!
//! let response = client
//!     .post("https://api.example.com/1.1/statuses/update.json")
//!     .header("content-type", "application/x-www-form-urlencoded")
//!     .body("status=Hello%20Ladies%20%2B%20Gentlemen")
//!     .send()
//!     .await?;
//! # let _ = response;
//! # Ok(())
//! # }
//! ```
//!
//! Without the middleware stack, sign a built request with [`SignExt`]:
//!
//! ```
//! use oauth1_reqwest::SignExt;
//! use oauth1_signer::{Consumer, Signer};
//!
//! let signer = Signer::new(Consumer::new("consumer key", "consumer secret"));
//! let mut request = reqwest::Client::new()
//!     .get("https://api.example.com/photos?size=original")
//!     .build()?;
//! request.sign_oauth1(&signer)?;
//! assert!(request.headers()["authorization"].to_str()?.starts_with("OAuth "));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A body given as a stream (a multipart upload, a file) is signed without being read: RFC 5849
//! signs only a form body's parameters. A form body, the Body Hash extension and the form body
//! transport need the bytes, so with a streamed body they are an error
//! ([`SignError::StreamingBody`]) that says to give the body as bytes. The middleware sends a
//! streamed body once: it cannot send it again to follow a redirect.

// docs.rs builds with `--cfg docsrs`: every item a feature gates says which.
#![cfg_attr(docsrs, feature(doc_cfg))]

/// The README's example, run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

use ::http::header::{
    HeaderValue, AUTHORIZATION, CONTENT_LENGTH, CONTENT_TYPE, COOKIE, LOCATION, PROXY_AUTHORIZATION,
};
use ::http::{Extensions, Method, StatusCode};
use reqwest_middleware::Next;
use url::Url;

use oauth1_signer::http::{sign_url, sign_url_as, Transport, Written, FORM};
use oauth1_signer::profile::{BodyHashRule, Profile};
use oauth1_signer::{BodyHash, Nonce, Signed, Signer, Timestamp};

mod error;
pub mod probe;
mod provider;
mod session;
pub use error::SignError;
pub use provider::{FetchError, Provider, EXCERPT_CHARS, MAX_ANSWER_BYTES};
pub use session::Session;

mod sealed {
    use ::http::{HeaderMap, Method};
    use url::Url;

    /// What signing reads and writes, alike for both kinds of request.
    pub trait Sealed {
        /// Method, URL, headers and the body's bytes (empty when there is no body, `None`
        /// when it is a stream).
        fn parts(&self) -> (&Method, &Url, &HeaderMap, Option<&[u8]>);
        fn set_url(&mut self, url: Url);
        fn headers(&mut self) -> &mut HeaderMap;
        fn set_body(&mut self, body: Vec<u8>);
    }

    macro_rules! sealed {
        ($request:ty) => {
            impl Sealed for $request {
                fn parts(&self) -> (&Method, &Url, &HeaderMap, Option<&[u8]>) {
                    let body = match self.body() {
                        None => Some(&[][..]),
                        Some(body) => body.as_bytes(),
                    };
                    (self.method(), self.url(), self.headers(), body)
                }
                fn set_url(&mut self, url: Url) {
                    *self.url_mut() = url;
                }
                fn headers(&mut self) -> &mut HeaderMap {
                    self.headers_mut()
                }
                fn set_body(&mut self, body: Vec<u8>) {
                    *self.body_mut() = Some(body.into());
                }
            }
        };
    }
    sealed!(reqwest::Request);
    #[cfg(feature = "blocking")]
    sealed!(reqwest::blocking::Request);
}

/// Signs a built `reqwest` request in place: a [`reqwest::Request`] or, with the feature
/// `blocking`, a `reqwest::blocking::Request`.
pub trait SignExt: sealed::Sealed {
    /// Signs with a fresh nonce and the system clock's time, and sets the `Authorization`
    /// header.
    ///
    /// # Errors
    ///
    /// Those of [`Signer::sign`], [`Nonce::generate`] and [`Timestamp::now`], as
    /// [`SignError::Sign`]; [`SignError::StreamingBody`].
    fn sign_oauth1(&mut self, signer: &Signer) -> Result<Signed, SignError> {
        self.sign_oauth1_with(
            signer,
            Transport::Header,
            &Nonce::generate()?,
            Timestamp::now()?,
        )
    }

    /// Signs with the given nonce and timestamp, and writes the signature in `transport`.
    ///
    /// # Errors
    ///
    /// Those of [`Signer::sign`], as [`SignError::Sign`];
    /// [`FormTransportWithoutForm`](oauth1_signer::http::SignError::FormTransportWithoutForm),
    /// as [`SignError::Http`]; [`SignError::StreamingBody`].
    fn sign_oauth1_with(
        &mut self,
        signer: &Signer,
        transport: Transport,
        nonce: &Nonce,
        timestamp: Timestamp,
    ) -> Result<Signed, SignError> {
        sign_in_place(self, None, signer, transport, (nonce, timestamp))
    }

    /// Signs as a provider's server computes ([`Profile::sign`]) with the given nonce and
    /// timestamp, and writes the signature in `transport` (the profile's own is
    /// [`Profile::transport`]).
    ///
    /// # Errors
    ///
    /// Those of [`SignExt::sign_oauth1_with`], and the profile's refusal
    /// ([`oauth1_signer::Error::RefusedByProfile`]) as [`SignError::Sign`].
    fn sign_oauth1_as(
        &mut self,
        profile: &Profile,
        signer: &Signer,
        transport: Transport,
        nonce: &Nonce,
        timestamp: Timestamp,
    ) -> Result<Signed, SignError> {
        sign_in_place(self, Some(profile), signer, transport, (nonce, timestamp))
    }
}

/// Signs `request` (as `profile` computes, when given) and writes the signature back in
/// `transport`.
fn sign_in_place<R: sealed::Sealed + ?Sized>(
    request: &mut R,
    profile: Option<&Profile>,
    signer: &Signer,
    transport: Transport,
    (nonce, timestamp): (&Nonce, Timestamp),
) -> Result<Signed, SignError> {
    let (method, url, headers, body) = request.parts();
    let body = if let Some(body) = body {
        body
    } else {
        check_streamed(signer, headers, transport)?;
        if profile.is_some_and(|p| p.body_hash() != BodyHashRule::Signer) {
            return Err(SignError::StreamingBody {
                needed_for: "the profile sends oauth_body_hash, a digest of it",
            });
        }
        &[]
    };
    let (method, url) = (method.as_str(), url.as_str());
    let (done, written) = match profile {
        Some(profile) => sign_url_as(
            profile, signer, method, url, headers, body, transport, nonce, timestamp,
        )?,
        None => sign_url(
            signer, method, url, headers, body, transport, nonce, timestamp,
        )?,
    };
    apply(request, written)?;
    Ok(done)
}

/// Writes what signing gives back into `request`: the header, the URL, or the form body.
fn apply<R: sealed::Sealed + ?Sized>(request: &mut R, written: Written) -> Result<(), SignError> {
    match written {
        Written::Header(value) => {
            request.headers().insert(AUTHORIZATION, value);
        }
        Written::Query(url) => {
            let url = Url::parse(&url).map_err(|e| SignError::WriteBack {
                reason: e.to_string(),
            })?;
            request.set_url(url);
        }
        Written::Body(body) => {
            request
                .headers()
                .insert(CONTENT_TYPE, HeaderValue::from_static(FORM));
            request.set_body(body);
        }
        _ => {
            return Err(SignError::WriteBack {
                reason: "the core signed for a transport this version cannot write back: update oauth1-reqwest with oauth1-signer".to_owned(),
            })
        }
    }
    Ok(())
}

/// A streamed body is signed unread, unless the signature needs its bytes.
fn check_streamed(
    signer: &Signer,
    headers: &::http::HeaderMap,
    transport: Transport,
) -> Result<(), SignError> {
    let needed_for = if oauth1_signer::http::is_form(headers) {
        "its Content-Type is application/x-www-form-urlencoded, whose parameters are signed"
    } else if signer.body_hash() == BodyHash::Send {
        "oauth_body_hash is a digest of it (or sign without the body hash)"
    } else if transport == Transport::FormBody {
        "the form body transport adds the parameters to it"
    } else {
        return Ok(());
    };
    Err(SignError::StreamingBody { needed_for })
}

impl SignExt for reqwest::Request {}
#[cfg(feature = "blocking")]
impl SignExt for reqwest::blocking::Request {}

/// Credentials for one request in place of the middleware's own, so that one client serves
/// many users: put it on the request with `with_extension`.
///
/// ```no_run
/// use oauth1_reqwest::{OAuth1Middleware, SignAs};
/// use oauth1_signer::{Consumer, Signer, Token};
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// // The middleware follows redirects itself, signing each hop anew: the client under it
/// // must not.
/// let http = reqwest::Client::builder()
///     .redirect(reqwest::redirect::Policy::none())
///     .build()?;
/// let client = reqwest_middleware::ClientBuilder::new(http)
///     .with(OAuth1Middleware::new(Signer::new(Consumer::new("app key", "app secret"))))
///     .build();
/// let alice = Token::new("alice's token", "alice's token secret");
/// let response = client
///     .get("https://api.example.com/1.1/account/verify_credentials.json")
///     .with_extension(SignAs::token(alice))
///     .send()
///     .await?;
/// # let _ = response;
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct SignAs(As);

#[derive(Clone, Debug)]
enum As {
    Token(oauth1_signer::Token),
    Signer(Box<Signer>),
}

impl SignAs {
    /// The middleware's signer (its consumer and options) with this token in place of its
    /// own, if any.
    #[must_use]
    pub fn token(token: oauth1_signer::Token) -> Self {
        SignAs(As::Token(token))
    }

    /// Another signer altogether: its consumer, token and options.
    #[must_use]
    pub fn signer(signer: Signer) -> Self {
        SignAs(As::Signer(Box::new(signer)))
    }
}

/// A `reqwest-middleware` middleware that signs every request it sends, each with a fresh
/// nonce and timestamp, and follows redirects itself; see the [module documentation](self).
#[derive(Clone, Debug)]
pub struct OAuth1Middleware {
    signer: Signer,
    transport: Transport,
    max_redirects: usize,
}

impl OAuth1Middleware {
    /// A middleware signing in the `Authorization` header, following up to 10 redirects.
    #[must_use]
    pub fn new(signer: Signer) -> Self {
        OAuth1Middleware {
            signer,
            transport: Transport::Header,
            max_redirects: 10,
        }
    }

    /// Where the signature is sent.
    #[must_use]
    pub fn with_transport(mut self, transport: Transport) -> Self {
        self.transport = transport;
        self
    }

    /// The most redirects followed; the response after the last is returned as it is. With
    /// 0, every redirect response is returned to the caller.
    #[must_use]
    pub fn with_max_redirects(mut self, max: usize) -> Self {
        self.max_redirects = max;
        self
    }

    /// The signer of a request: the middleware's, unless the request names its own.
    fn signer_for(&self, extensions: &Extensions) -> std::borrow::Cow<'_, Signer> {
        use std::borrow::Cow;
        match extensions.get::<SignAs>() {
            None => Cow::Borrowed(&self.signer),
            Some(SignAs(As::Token(token))) => {
                Cow::Owned(self.signer.clone().with_token(token.clone()))
            }
            Some(SignAs(As::Signer(signer))) => Cow::Owned(Signer::clone(signer)),
        }
    }

    /// Signs a copy of `request` if it goes to `origin`, with a fresh nonce and timestamp.
    fn signed_copy(
        &self,
        signer: &Signer,
        request: &reqwest::Request,
        origin: &url::Origin,
    ) -> Result<reqwest::Request, SignError> {
        let mut copy = request.try_clone().ok_or(SignError::StreamingBody {
            needed_for: "it is sent again",
        })?;
        if copy.url().origin() == *origin {
            copy.sign_oauth1_with(
                signer,
                self.transport,
                &Nonce::generate()?,
                Timestamp::now()?,
            )?;
        }
        Ok(copy)
    }
}

#[async_trait::async_trait]
impl reqwest_middleware::Middleware for OAuth1Middleware {
    async fn handle(
        &self,
        request: reqwest::Request,
        extensions: &mut Extensions,
        next: Next<'_>,
    ) -> reqwest_middleware::Result<reqwest::Response> {
        let signer = self.signer_for(extensions);
        if request.try_clone().is_none() {
            // A streamed body is sent once, signed in place: it cannot be sent again for a
            // redirect.
            let mut request = request;
            request
                .sign_oauth1_with(
                    &signer,
                    self.transport,
                    &Nonce::generate().map_err(reqwest_middleware::Error::middleware)?,
                    Timestamp::now().map_err(reqwest_middleware::Error::middleware)?,
                )
                .map_err(reqwest_middleware::Error::middleware)?;
            return next.run(request, extensions).await;
        }
        let origin = request.url().origin();
        let mut unsigned = request;
        let mut redirects = 0;
        loop {
            let sending = self
                .signed_copy(&signer, &unsigned, &origin)
                .map_err(reqwest_middleware::Error::middleware)?;
            let response = next.clone().run(sending, extensions).await?;
            if redirects == self.max_redirects {
                return Ok(response);
            }
            match redirect(unsigned, &response, &origin) {
                Some(hop) => unsigned = hop,
                None => return Ok(response),
            }
            redirects += 1;
        }
    }
}

/// The request a redirect response asks for, unsigned, or `None` if `response` is not a
/// redirect that can be followed. A hop away from `origin` loses the credentials it carries.
fn redirect(
    mut request: reqwest::Request,
    response: &reqwest::Response,
    origin: &url::Origin,
) -> Option<reqwest::Request> {
    let status = response.status();
    let keeps_method = match status {
        StatusCode::TEMPORARY_REDIRECT | StatusCode::PERMANENT_REDIRECT => true,
        StatusCode::MOVED_PERMANENTLY | StatusCode::FOUND => *request.method() != Method::POST,
        StatusCode::SEE_OTHER => *request.method() == Method::HEAD,
        _ => return None,
    };
    let location = response.headers().get(LOCATION)?.to_str().ok()?;
    let url = request.url().join(location).ok()?;
    if !matches!(url.scheme(), "http" | "https") {
        return None;
    }
    if !keeps_method {
        *request.method_mut() = Method::GET;
        *request.body_mut() = None;
        request.headers_mut().remove(CONTENT_TYPE);
        request.headers_mut().remove(CONTENT_LENGTH);
    }
    if url.origin() != *origin {
        for name in [AUTHORIZATION, COOKIE, PROXY_AUTHORIZATION] {
            request.headers_mut().remove(name);
        }
    }
    *request.url_mut() = url;
    Some(request)
}
