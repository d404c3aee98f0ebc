//! A [`tower`](https://docs.rs/tower) layer that verifies incoming requests (feature `tower`).
//!
//! [`VerifyLayer`] wraps a service of `http::Request`s (an `axum` router, a `hyper` service, …)
//! with a [`Verifier`]. For each request it
//!
//! 1. rebuilds the public URL the client signed: the server sees only the path and query, so
//!    the application says where it is reachable ([`VerifyLayer::new`] takes the public
//!    origin; [`VerifyLayer::with_public_url`] takes a function of the request, for a proxy's
//!    forwarded headers);
//! 2. refuses a `Content-Type` that starts like `application/x-www-form-urlencoded` but is
//!    not it (`application/x-www-form-urlencodedX`): the verifier would not sign its
//!    parameters, and some frameworks' form extractors would still read them;
//! 3. reads the body only when it is signed: a form body, whose parameters are, or a body
//!    that `oauth_body_hash` covers (sent, or required by the policy). Then the protocol
//!    parameters of the header or query are checked first, and the body is read up to a
//!    limit (1 MiB unless [`VerifyLayer::with_body_limit`] says otherwise). Any other body
//!    is handed on unread: it is not authenticated (RFC 5849 §3.4.1.3.1), unless the policy
//!    requires the Body Hash extension ([`Policy::require_body_hash`]);
//! 4. verifies the request, and then either
//!    - hands it on, the body unchanged and the [`Verified`](crate::Verified) identity in the
//!      request's extensions, or
//!    - answers for the service: 400 or 401 (with `WWW-Authenticate: OAuth realm="…"` on 401)
//!      and the OAuth Problem Reporting body (`oauth_problem=…&oauth_problem_advice=…`,
//!      `application/x-www-form-urlencoded`); 413 for a body over the limit; 503 with a fixed
//!      body when a store fails, whose error goes to the log (`tracing`, target
//!      `oauth1_server::tower`), never to the client.
//!
//! The verifier's stores are awaited on the task serving the request: a store that waits on
//! the network (a database, `RedisNonceStore`) holds no worker thread meanwhile, and the
//! memory stores answer at once.
//!
//! [`Policy::require_body_hash`]: crate::Policy::require_body_hash
//!
//! ```
//! use oauth1_server::tower::VerifyLayer;
//! use oauth1_server::{MemoryCredentials, MemoryNonceStore, Verified, Verifier};
//! use tower::{service_fn, Layer};
//!
//! let mut credentials = MemoryCredentials::new();
//! credentials.add_consumer("dpf43f3p2l4k3l03", "kd94hf93k423kf44");
//! let verifier = Verifier::new(credentials, MemoryNonceStore::new());
//! let layer = VerifyLayer::new(verifier, "https://photos.example.net")?;
//!
//! let service = layer.layer(service_fn(|request: http::Request<String>| async move {
//!     let who = request.extensions().get::<Verified>().map(|v| v.consumer_key().to_owned());
//!     Ok::<_, std::convert::Infallible>(http::Response::new(format!("hello {who:?}")))
//! }));
//! # let _ = service;
//! # Ok::<(), oauth1_server::ConfigError>(())
//! ```

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use ::http::header::{HeaderValue, AUTHORIZATION, CONTENT_TYPE, WWW_AUTHENTICATE};
use ::http::request::Parts;
use ::http::{Request as HttpRequest, Response, StatusCode};
use bytes::{Buf, BufMut, Bytes, BytesMut};
use http_body::Body;
use http_body_util::{BodyExt, LengthLimitError, Limited};
use tower_layer::Layer;
use tower_service::Service;
use url::Url;

use crate::config::ConfigError;

use crate::error::VerifyError;

use crate::origin::{other_origins, PublicOrigin};

use crate::store::{CredentialStore, NonceStore};

use crate::protocol::Expect;
use crate::verifier::{BeforeBody, Verifier};
use oauth1_signer::{Realm, Request};

type PublicUrl = dyn Fn(&Parts) -> Option<Url> + Send + Sync;

/// Verifies every request before the service it wraps sees it; see the
/// [module documentation](self).
pub struct VerifyLayer<C, N> {
    shared: Shared<C, N>,
}

/// What a layer and its services share.
struct Shared<C, N> {
    verifier: Arc<Verifier<C, N>>,
    public_url: Arc<PublicUrl>,
    /// The fixed origin's text (no `/` at its end) when the layer was made with
    /// [`VerifyLayer::new`]: a plain target is read with it in one pass, without the URL
    /// parser; anything else goes through `public_url`.
    plain_origin: Option<Arc<str>>,
    realm: Realm,
    body_limit: usize,
}

impl<C, N> Clone for Shared<C, N> {
    fn clone(&self) -> Self {
        Shared {
            verifier: Arc::clone(&self.verifier),
            public_url: Arc::clone(&self.public_url),
            plain_origin: self.plain_origin.clone(),
            realm: self.realm.clone(),
            body_limit: self.body_limit,
        }
    }
}

impl<C, N> Clone for VerifyLayer<C, N> {
    fn clone(&self) -> Self {
        VerifyLayer {
            shared: self.shared.clone(),
        }
    }
}

impl<C: fmt::Debug, N: fmt::Debug> fmt::Debug for VerifyLayer<C, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VerifyLayer")
            .field("verifier", &self.shared.verifier)
            .field("realm", &self.shared.realm)
            .field("body_limit", &self.shared.body_limit)
            .finish_non_exhaustive()
    }
}

/// The body limit unless [`VerifyLayer::with_body_limit`] sets another: 1 MiB.
pub const DEFAULT_BODY_LIMIT: usize = 1 << 20;

impl<C, N> VerifyLayer<C, N> {
    /// A layer for a service reachable at `origin` (`https://api.example.com`, or with a path
    /// prefix that a proxy strips, `https://example.com/api`): the public URL of a request is
    /// the origin followed by the request's path and query. The realm of `WWW-Authenticate`
    /// is the origin.
    ///
    /// # Errors
    ///
    /// [`ConfigError::Signer`] with [`Error::InvalidUrl`], [`Error::UrlWithoutHost`] or
    /// [`Error::UnsupportedScheme`] for an origin that is not an `http` or `https` URL;
    /// [`ConfigError::InvalidOrigin`] for one with a query or a fragment.
    ///
    /// [`Error::InvalidUrl`]: oauth1_signer::Error::InvalidUrl
    /// [`Error::UrlWithoutHost`]: oauth1_signer::Error::UrlWithoutHost
    /// [`Error::UnsupportedScheme`]: oauth1_signer::Error::UnsupportedScheme
    pub fn new(verifier: Verifier<C, N>, origin: &str) -> Result<Self, ConfigError> {
        let checked = Request::new("GET", origin)?;
        let base = checked.url();
        if base.query().is_some() || base.fragment().is_some() {
            return Err(ConfigError::InvalidOrigin {
                origin: origin.to_owned(),
            });
        }
        let realm = Realm::new(base.origin().ascii_serialization())?;
        let text = base.as_str().trim_end_matches('/').to_owned();
        let prefix = base.path().trim_end_matches('/').to_owned();
        let origin = base.clone();
        let plain_origin = Arc::from(text.as_str());
        let mut layer = Self::with_public_url(verifier, move |parts: &Parts| {
            let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
            if !path.starts_with('/') {
                // Not a path (`*`, say): what the whole text parses to, if anything.
                return Url::parse(&format!("{text}{path}")).ok();
            }
            Some(crate::origin::with_target(&origin, &prefix, path))
        })
        .with_realm(realm);
        layer.shared.plain_origin = Some(plain_origin);
        Ok(layer)
    }

    /// A layer for a service behind `origin`: fixed, or a trusted proxy's forwarding headers
    /// (the family the proxy sets; see [`PublicOrigin`]). The realm is the origin's.
    ///
    /// # Errors
    ///
    /// [`ConfigError::Signer`] with
    /// [`Error::InvalidRealm`](oauth1_signer::Error::InvalidRealm) if the origin's
    /// serialization cannot be a realm (it always can for an `http` or `https` URL).
    pub fn with_origin(
        verifier: Verifier<C, N>,
        origin: PublicOrigin,
    ) -> Result<Self, ConfigError> {
        let base = match &origin {
            PublicOrigin::Fixed(url) | PublicOrigin::TrustedProxy { origin: url, .. } => url,
        };
        let realm = Realm::new(base.origin().ascii_serialization())?;
        Ok(Self::with_public_url(verifier, move |parts: &Parts| {
            let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
            let mut headers = Vec::new();
            for (name, value) in &parts.headers {
                let name = name.as_str();
                if name == "forwarded" || name.starts_with("x-forwarded-") {
                    // A forwarding header that is not text cannot be read: no URL.
                    headers.push((name, value.to_str().ok()?));
                }
            }
            origin.url(path, headers).ok()
        })
        .with_realm(realm))
    }

    /// A layer whose public URL of a request is what `public_url` makes of its parts (method,
    /// URI, headers), such as the origin from a proxy's `Forwarded` header, which the
    /// application trusts. `None` answers 400. The realm is empty until
    /// [`with_realm`](Self::with_realm).
    pub fn with_public_url(
        verifier: Verifier<C, N>,
        public_url: impl Fn(&Parts) -> Option<Url> + Send + Sync + 'static,
    ) -> Self {
        VerifyLayer {
            shared: Shared {
                verifier: Arc::new(verifier),
                public_url: Arc::new(public_url),
                plain_origin: None,
                realm: Realm::default(),
                body_limit: DEFAULT_BODY_LIMIT,
            },
        }
    }

    /// The realm of `WWW-Authenticate` in 401 answers.
    #[must_use]
    pub fn with_realm(mut self, realm: Realm) -> Self {
        self.shared.realm = realm;
        self
    }

    /// The largest body read, in bytes; a longer one is answered with 413.
    #[must_use]
    pub fn with_body_limit(mut self, bytes: usize) -> Self {
        self.shared.body_limit = bytes;
        self
    }

    /// The verifier.
    #[must_use]
    pub fn verifier(&self) -> &Verifier<C, N> {
        &self.shared.verifier
    }
}

impl<S, C, N> Layer<S> for VerifyLayer<C, N> {
    type Service = VerifyService<S, C, N>;

    fn layer(&self, inner: S) -> Self::Service {
        VerifyService {
            inner,
            shared: Arc::new(self.shared.clone()),
        }
    }
}

/// The service of a [`VerifyLayer`].
pub struct VerifyService<S, C, N> {
    inner: S,
    shared: Arc<Shared<C, N>>,
}

impl<S: Clone, C, N> Clone for VerifyService<S, C, N> {
    fn clone(&self) -> Self {
        VerifyService {
            inner: self.inner.clone(),
            shared: Arc::clone(&self.shared),
        }
    }
}

impl<S: fmt::Debug, C: fmt::Debug, N: fmt::Debug> fmt::Debug for VerifyService<S, C, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VerifyService")
            .field("inner", &self.inner)
            .field("verifier", &self.shared.verifier)
            .finish_non_exhaustive()
    }
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

impl<S, C, N, ReqBody, ResBody> Service<HttpRequest<ReqBody>> for VerifyService<S, C, N>
where
    S: Service<HttpRequest<ReqBody>, Response = Response<ResBody>> + Clone + Send + 'static,
    S::Future: Send,
    C: CredentialStore + Send + Sync + 'static,
    N: NonceStore + Send + Sync + 'static,
    ReqBody: Body + From<Bytes> + Send + 'static,
    ReqBody::Data: Send,
    ReqBody::Error: Into<BoxError>,
    ResBody: From<String> + Send + 'static,
{
    type Response = Response<ResBody>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: HttpRequest<ReqBody>) -> Self::Future {
        // The clone that was made ready is the one to call; a fresh clone takes its place.
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        let shared = Arc::clone(&self.shared);
        let (mut parts, body) = request.into_parts();
        Box::pin(async move {
            // Each step's values live in a block of their own: a value borrowed before an
            // await is held in this (boxed) future until its block ends, beside what later
            // awaits hold.
            let mut kept = Kept::Unread(body);
            let (authorization, verified) = {
                let mut parsed = None;
                let (authorization, request, read) = {
                    let received = match shared.received(&parts) {
                        Ok(received) => received,
                        Err(e) => return Ok(refuse(&e, None, &shared.realm)),
                    };
                    let authorization = received.authorization;
                    let mut before = None;
                    // Unless signed, the body is left unread and unchanged.
                    if received.body_signed {
                        before = match shared.check_before_body(&received, kept.announced()) {
                            Ok(before) => before,
                            Err(e) => return Ok(refuse(&e, authorization, &shared.realm)),
                        };
                        kept = match kept.read(shared.body_limit).await {
                            Ok(read) => read,
                            Err(e) => return Ok(body_error(&e, shared.body_limit)),
                        };
                    }
                    let request = match received.into_request(kept.bytes(), &mut parsed) {
                        Ok(request) => request,
                        Err(e) => return Ok(refuse(&e, authorization, &shared.realm)),
                    };
                    match shared.verifier.read_now(&request, authorization, before) {
                        // The diagnosis of a bad signature tries the origins the client could
                        // have signed for: those the request's headers name.
                        Ok(read) if shared.verifier.diagnoses() && authorization.is_some() => {
                            let headers: Vec<(&str, &str)> = (parts.headers.iter())
                                .filter_map(|(n, v)| Some((n.as_str(), v.to_str().ok()?)))
                                .collect();
                            let others = other_origins(request.url(), &headers);
                            (authorization, request, read.with_other_origins(others))
                        }
                        Ok(read) => (authorization, request, read),
                        Err(e) => return Ok(refuse(&e, authorization, &shared.realm)),
                    }
                };
                let verifying =
                    shared
                        .verifier
                        .verify_read(&request, authorization, Expect::Resource, read);
                (authorization, verifying.await)
            };
            match verified {
                Ok((verified, _)) => {
                    parts.extensions.insert(verified);
                    let body = match kept {
                        Kept::Unread(body) => body,
                        Kept::Read(bytes) => ReqBody::from(bytes),
                    };
                    inner.call(HttpRequest::from_parts(parts, body)).await
                }
                Err(e) => Ok(refuse(&e, authorization, &shared.realm)),
            }
        })
    }
}

/// A request's body: unread (nothing signed covers it), or read to be verified.
enum Kept<B> {
    Unread(B),
    Read(Bytes),
}

impl<B> Kept<B>
where
    B: Body,
    B::Error: Into<BoxError>,
{
    /// The body read, at most `limit` bytes of it (trailers ignored). A body that comes in
    /// one chunk, as most do, is kept as it came; later chunks are joined in a copy. (What
    /// `BodyExt::collect` gives, without its queue of chunks and its allocation.)
    async fn read(self, limit: usize) -> Result<Self, BoxError> {
        let body = match self {
            Kept::Unread(body) => body,
            read @ Kept::Read(_) => return Ok(read),
        };
        let mut body = std::pin::pin!(Limited::new(body, limit));
        let mut first = Bytes::new();
        let mut joined: Option<BytesMut> = None;
        while let Some(frame) = body.frame().await {
            let Ok(mut data) = frame?.into_data() else {
                continue;
            };
            if let Some(joined) = &mut joined {
                joined.put(data);
            } else if first.is_empty() {
                first = data.copy_to_bytes(data.remaining());
            } else {
                let mut both = BytesMut::with_capacity(first.len() + data.remaining());
                both.extend_from_slice(&first);
                both.put(data);
                joined = Some(both);
            }
        }
        Ok(Kept::Read(joined.map_or(first, BytesMut::freeze)))
    }

    /// The length an unread body announces (its `Content-Length`), or its least.
    fn announced(&self) -> u64 {
        match self {
            Kept::Unread(body) => {
                let hint = body.size_hint();
                hint.upper().unwrap_or(hint.lower())
            }
            Kept::Read(bytes) => bytes.len() as u64,
        }
    }

    /// The bytes verified: none when the body was not read.
    fn bytes(&self) -> &[u8] {
        match self {
            Kept::Unread(_) => &[],
            Kept::Read(bytes) => bytes,
        }
    }
}

/// A received request's public URL: read in one pass into its request, or parsed.
enum Target<'a> {
    Plain(Request<'a>),
    Parsed(Url),
}

impl Target<'_> {
    /// The query, without its `?`; empty when there is none.
    fn query(&self) -> &str {
        match self {
            Target::Plain(request) => request.query(),
            Target::Parsed(url) => url.query().unwrap_or(""),
        }
    }
}

impl<'a> Received<'a> {
    /// The request received, with `body`; a parsed URL kept in `parsed` with the URL as the
    /// client wrote it, which the request borrows (boxed: the layer's future holds the slot,
    /// and most requests leave it empty).
    fn into_request<'b>(
        self,
        body: &'b [u8],
        parsed: &'b mut Option<Box<Parsed>>,
    ) -> Result<Request<'b>, VerifyError>
    where
        'a: 'b,
    {
        let request = match self.target {
            Target::Plain(request) => request,
            Target::Parsed(url) => {
                // The parser rewrites some bytes of the target (a `'` in the query as
                // `%27`): the diagnosis reads the query as it was sent.
                let written = format!("{}{}", url.origin().ascii_serialization(), self.target_sent);
                let parsed = parsed.insert(Box::new(Parsed { url, written }));
                Request::from_url(self.method, &parsed.url)
                    .map_err(VerifyError::malformed_by)?
                    .with_url_as_written(&parsed.written)
            }
        };
        Ok(request.with_body(self.content_type, body))
    }
}

/// A public URL parsed, and the URL as the client wrote it (the public origin and the
/// request target as sent).
struct Parsed {
    url: Url,
    written: String,
}

/// What the layer reads of a request before its body.
struct Received<'a> {
    method: &'a str,
    target: Target<'a>,
    /// The request target (path and query) as sent.
    target_sent: &'a str,
    authorization: Option<&'a str>,
    content_type: &'a str,
    /// Whether the body is signed: a form, or covered by `oauth_body_hash`.
    body_signed: bool,
}

impl<C: CredentialStore, N: NonceStore> Shared<C, N> {
    /// Reads the public URL and the headers, and decides whether the body must be read.
    fn received<'a>(&self, parts: &'a Parts) -> Result<Received<'a>, VerifyError> {
        let malformed = VerifyError::malformed;
        let ambiguous = |problem| VerifyError::AmbiguousPath { problem };
        let path = parts.uri.path();
        let target = match self.plain(parts) {
            Some(request) => {
                let request = request.map_err(VerifyError::malformed_by)?;
                // Plain, the public path is the parser's: the routed path ends it.
                let base = request.base_uri().map_err(VerifyError::malformed_by)?;
                oauth1_signer::server::check_received(path, base.as_str()).map_err(ambiguous)?;
                Target::Plain(request)
            }
            None => Target::Parsed(self.parsed(parts)?),
        };
        let query = target.query();
        let mut headers = parts.headers.get_all(AUTHORIZATION).iter();
        let authorization =
            match (headers.next(), headers.next()) {
                (None, _) => None,
                (Some(value), None) => Some(value.to_str().map_err(|_| {
                    malformed("the Authorization header is not ASCII text".to_owned())
                })?),
                (Some(_), Some(_)) => {
                    return Err(malformed(
                        "the request has more than one Authorization header: send one".to_owned(),
                    ))
                }
            };
        // A header of another scheme is not OAuth's: as if absent.
        let authorization = crate::protocol::oauth_header(authorization);
        let content_type = oauth1_signer::http::content_type(&parts.headers);
        let form = oauth1_signer::server::is_form(content_type);
        let trimmed = content_type.trim_start();
        if !form
            && trimmed
                .get(..oauth1_signer::server::FORM.len())
                .is_some_and(|start| start.eq_ignore_ascii_case(oauth1_signer::server::FORM))
        {
            return Err(malformed(format!(
                "the Content-Type \"{}\" is not application/x-www-form-urlencoded, whose parameters are signed: send that type exactly (parameters after ';' allowed) or another",
                content_type.escape_default()
            )));
        }
        // Any name that decodes to oauth_body_hash counts, however it is escaped.
        let query_has_body_hash =
            query_has_name(query, "oauth_body_hash", |name| name == "oauth_body_hash");
        let body_signed = form
            || self.verifier.policy().require_body_hash
            || query_has_body_hash
            || authorization.is_some_and(|h| h.contains("oauth_body_hash"));
        Ok(Received {
            method: parts.method.as_str(),
            target,
            target_sent: parts.uri.path_and_query().map_or("/", |p| p.as_str()),
            authorization,
            content_type,
            body_signed,
        })
    }

    /// The checks that need no body (the protocol parameters, their values, the timestamp),
    /// when the header or the query carries the protocol parameters, and what they read, for
    /// the verification; a form body that carries them is read first.
    fn check_before_body(
        &self,
        received: &Received<'_>,
        body_len: u64,
    ) -> Result<Option<BeforeBody>, VerifyError> {
        let parsed;
        let request = match &received.target {
            Target::Plain(request) => request,
            Target::Parsed(url) => {
                parsed =
                    Request::from_url(received.method, url).map_err(VerifyError::malformed_by)?;
                &parsed
            }
        };
        let in_query = query_has_name(request.query(), "oauth_", |name| name.starts_with("oauth_"));
        if received.authorization.is_none() && !in_query {
            return Ok(None);
        }
        self.verifier
            .checked_before_body(
                request,
                received.authorization,
                usize::try_from(body_len.min(self.body_limit as u64)).unwrap_or(0),
            )
            .map(Some)
    }

    /// The request of a target read with the plain origin (`None` when the layer has none,
    /// or the URL is not plain).
    fn plain<'a>(&self, parts: &'a Parts) -> Option<Result<Request<'a>, oauth1_signer::Error>> {
        let origin = self.plain_origin.as_deref()?;
        let target = parts.uri.path_and_query()?.as_str();
        if !target.starts_with('/') {
            return None;
        }
        let mut text = String::with_capacity(origin.len() + target.len());
        text.push_str(origin);
        text.push_str(target);
        oauth1_signer::server::plain_request(parts.method.as_str(), text)
    }

    /// The public URL `public_url` makes of a request, its path checked against the routed one.
    fn parsed(&self, parts: &Parts) -> Result<Url, VerifyError> {
        let malformed = VerifyError::malformed;
        let ambiguous = |problem| VerifyError::AmbiguousPath { problem };
        let path = parts.uri.path();
        let Some(url) = (self.public_url)(parts) else {
            // `PublicOrigin::url` makes no URL of a path the URL parser would rewrite: say so.
            oauth1_signer::server::check_received(path, &oauth1_signer::server::parsed_path(path))
                .map_err(ambiguous)?;
            return Err(malformed(format!(
                "the request URI \"{}\" does not make a public URL",
                parts.uri
            )));
        };
        // The path signed is the path routed, byte for byte.
        oauth1_signer::server::check_received(path, url.path()).map_err(ambiguous)?;
        Ok(url)
    }
}

/// Whether a parameter of `query` has a decoded name that passes `test`, which only a name
/// holding `needle` (or, escaped, a `%`) can: most queries are answered by a search for
/// those, without decoding.
fn query_has_name(query: &str, needle: &str, test: impl Fn(&str) -> bool) -> bool {
    (query.contains(needle) || query.contains('%'))
        && url::form_urlencoded::parse(query.as_bytes()).any(|(name, _)| test(&name))
}

/// Logs a refused request (a `tracing` event at level INFO, target `oauth1_server::tower`:
/// the reason, the consumer key the header names, and the diagnosis when the verifier makes
/// one; never a secret, a signature or the header), then answers it.
fn refuse<B: From<String>>(
    error: &VerifyError,
    authorization: Option<&str>,
    realm: &Realm,
) -> Response<B> {
    if error.problem().is_some() {
        let consumer_key = authorization
            .and_then(|h| oauth1_signer::header::Authorization::parse(h).ok())
            .and_then(|h| {
                h.get("oauth_consumer_key")
                    .map(|k| String::from_utf8_lossy(k).into_owned())
            });
        let diagnosis = error.diagnosis().map(ToString::to_string);
        tracing::info!(
            reason = %error.reason(),
            consumer_key = consumer_key.as_deref().unwrap_or(""),
            diagnosis = diagnosis.as_deref().unwrap_or(""),
            "OAuth request refused"
        );
    }
    rejection(error, realm)
}

/// The answer to a request that did not verify, as the layer gives it: 400 or 401 (with
/// `WWW-Authenticate: OAuth realm="…"` on 401) and the OAuth Problem Reporting body, or a
/// `503`/`500` with a fixed body whose error goes to the log. For the endpoints an
/// application answers itself, such as a provider's token endpoints
/// ([`Issuer`](crate::Issuer)).
pub fn rejection<B: From<String>>(error: &VerifyError, realm: &Realm) -> Response<B> {
    let status = StatusCode::from_u16(error.status()).unwrap_or(StatusCode::UNAUTHORIZED);
    let (content_type, body) = if let Some(problem) = error.problem() {
        ("application/x-www-form-urlencoded", problem.to_urlencoded())
    } else {
        // A store's error may name hosts and users: the log has it, the client does not.
        tracing::error!(reason = %error.reason(), error = %error, "OAuth verification could not be completed");
        (
            "text/plain; charset=utf-8",
            "the server could not check the request's credentials; try again later".to_owned(),
        )
    };
    let mut response = Response::new(B::from(body));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    if status == StatusCode::UNAUTHORIZED {
        if let Ok(value) = HeaderValue::from_bytes(crate::www_authenticate(realm).as_bytes()) {
            headers.insert(WWW_AUTHENTICATE, value);
        }
    }
    response
}

/// The answer to a body that could not be read: 413 over the limit, 400 otherwise.
fn body_error<B: From<String>>(error: &BoxError, limit: usize) -> Response<B> {
    let (status, text) = if error.is::<LengthLimitError>() {
        (
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the body is longer than {limit} bytes, the most this server reads"),
        )
    } else {
        (
            StatusCode::BAD_REQUEST,
            format!("the body could not be read: {error}"),
        )
    };
    let mut response = Response::new(B::from(text));
    *response.status_mut() = status;
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search before decoding answers as decoding every name would, escaped names
    /// included.
    #[test]
    fn a_query_name_is_found_however_it_is_escaped() {
        let body_hash = |query: &str| {
            query_has_name(query, "oauth_body_hash", |name| name == "oauth_body_hash")
        };
        for (query, found) in [
            ("a=1", false),
            ("oauth_body_hash=x", true),
            ("a=1&oauth_body_hash", true),
            ("oauth%5Fbody_hash=x", true),
            ("%6Fauth_body_hash=x", true),
            ("x=oauth_body_hash", false),
            ("oauth_body_hashes=1", false),
            ("oauth+body_hash=1", false),
            ("a=%20", false),
        ] {
            assert_eq!(body_hash(query), found, "{query}");
        }
        assert!(!query_has_name("", "oauth_", |_| true));
        let prefixed =
            |query: &str| query_has_name(query, "oauth_", |name| name.starts_with("oauth_"));
        assert!(prefixed("b=2&oauth_nonce=n"));
        assert!(prefixed("oauth%5Fnonce=n"));
        assert!(!prefixed("b=oauth_nonce"));
    }
}
