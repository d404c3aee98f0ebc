//! Signing an [`http::Request`] (feature `http`).
//!
//! What is signed is read from the request itself: its method, its URI (which must be
//! absolute, as a client sends it), its `Content-Type` header and its body. The signature then
//! goes back into the same request, in the [`Transport`] asked for (RFC 5849 §3.5): the
//! `Authorization` header by default, or the query, or the form body.
//!
//! ```
//! use oauth1_signer::{http::{self, Transport}, Consumer, Nonce, Signer, Timestamp, Token};
//!
//! let signer = Signer::new(Consumer::new("dpf43f3p2l4k3l03", "kd94hf93k423kf44"))
//!     .with_token(Token::new("nnch734d00sl2jdk", "pfkkdhi9sl3r4s00"));
//! let mut request = ::http::Request::get("http://photos.example.net/photos?file=vacation.jpg&size=original")
//!     .body(Vec::new())?;
//!
//! // RFC 5849 §3.1's example, with its nonce and timestamp; a client calls
//! // `http::sign(&signer, &mut request)`, which draws a fresh nonce and reads the clock.
//! let signed = http::sign_with(
//!     &signer,
//!     &mut request,
//!     Transport::Header,
//!     &Nonce::new("kllo9940pd9333jh")?,
//!     Timestamp::new(1191242096),
//! )?;
//! assert_eq!(signed.signature().as_str(), "tR3+Ty81lMeYAr/Fid0kMTYa/WM=");
//! assert!(request.headers()["authorization"].to_str()?.starts_with("OAuth oauth_consumer_key="));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use ::http::header::{HeaderMap, HeaderValue, AUTHORIZATION, CONTENT_TYPE};
use ::http::{Request as HttpRequest, Uri};

use crate::credentials::{Nonce, Timestamp};

use crate::error::Error;

use crate::profile::Profile;
use crate::request::{Request, Signed, Signer};

pub use crate::transport::Transport;

/// Signs `request` with a fresh nonce and the system clock's time, and sets its
/// `Authorization` header.
///
/// # Errors
///
/// Those of [`Signer::sign`], [`Nonce::generate`] and [`Timestamp::now`];
/// [`SignError::RelativeUri`] when the URI is not absolute; [`Error::AmbiguousPath`] when its path
/// has a dot segment, a backslash or a character the URL parser percent-encodes (`{`, `é`, …),
/// since the URI is sent as it is and the signature would cover another path.
pub fn sign<B: AsRef<[u8]>>(
    signer: &Signer,
    request: &mut HttpRequest<B>,
) -> Result<Signed, SignError> {
    let nonce = Nonce::generate()?;
    let timestamp = Timestamp::now()?;
    let (done, written) = sign_request(signer, request, Transport::Header, &nonce, timestamp)?;
    written.apply(request)?;
    Ok(done)
}

/// Signs `request` with the given nonce and timestamp and writes the signature in `transport`.
///
/// # Errors
///
/// Those of [`Signer::sign`]; [`SignError::RelativeUri`] when the URI is not absolute;
/// [`Error::AmbiguousPath`] as [`sign`] says;
/// [`SignError::FormTransportWithoutForm`] when [`Transport::FormBody`] is asked of a request whose
/// body is not a form.
pub fn sign_with<B>(
    signer: &Signer,
    request: &mut HttpRequest<B>,
    transport: Transport,
    nonce: &Nonce,
    timestamp: Timestamp,
) -> Result<Signed, SignError>
where
    B: AsRef<[u8]> + From<Vec<u8>>,
{
    let (done, written) = sign_request(signer, request, transport, nonce, timestamp)?;
    if let Some(body) = written.apply(request)? {
        *request.body_mut() = B::from(body);
    }
    Ok(done)
}

/// Signs an `http` request and returns what to write back into it.
fn sign_request<B: AsRef<[u8]>>(
    signer: &Signer,
    request: &HttpRequest<B>,
    transport: Transport,
    nonce: &Nonce,
    timestamp: Timestamp,
) -> Result<(Signed, Written), SignError> {
    let uri = request.uri();
    if uri.scheme().is_none() || uri.authority().is_none() {
        return Err(SignError::RelativeUri {
            uri: uri.to_string(),
        });
    }
    sign_url(
        signer,
        request.method().as_str(),
        &uri.to_string(),
        request.headers(),
        request.body().as_ref(),
        transport,
        nonce,
        timestamp,
    )
}

/// What signing changes in a request ([`sign_url`]), for the HTTP client to write back.
#[derive(Debug)]
#[non_exhaustive]
pub enum Written {
    /// The new `Authorization` header (marked sensitive).
    Header(HeaderValue),
    /// The new URL: the text signed, the protocol parameters appended to its query.
    Query(String),
    /// The new form body, the protocol parameters appended to it; send it with the
    /// `Content-Type` [`FORM`].
    Body(Vec<u8>),
}

pub use crate::target::FORM;

impl Written {
    /// Writes the header or the URI into `request`; a new body is returned for the caller to
    /// write (its type is the caller's), and the `Content-Type` set to a form.
    pub(crate) fn apply<B>(
        self,
        request: &mut HttpRequest<B>,
    ) -> Result<Option<Vec<u8>>, SignError> {
        match self {
            Written::Header(value) => {
                request.headers_mut().insert(AUTHORIZATION, value);
                Ok(None)
            }
            Written::Query(url) => {
                *request.uri_mut() = Uri::try_from(url).map_err(|e| SignError::WriteBack {
                    reason: e.to_string(),
                })?;
                Ok(None)
            }
            Written::Body(body) => {
                request
                    .headers_mut()
                    .insert(CONTENT_TYPE, HeaderValue::from_static(FORM));
                Ok(Some(body))
            }
        }
    }
}

/// Signs a request given as its method, its URL as the text that is sent, its headers and its
/// body, with the given nonce and timestamp, and says what to write back ([`Written`]): the
/// way for an HTTP client other than `http::Request` (the reqwest integration uses it). A new
/// URL is the text with the parameters appended, so that nothing else of what is sent changes.
///
/// ```
/// use oauth1_signer::http::{sign_url, Transport, Written};
/// use oauth1_signer::{Consumer, Nonce, Signer, Timestamp};
///
/// let signer = Signer::new(Consumer::new("key", "secret"));
/// let headers = http::HeaderMap::new();
/// let (signed, written) = sign_url(
///     &signer,
///     "GET",
///     "https://api.example.com/1/photos?size=original",
///     &headers,
///     b"",
///     Transport::Header,
///     &Nonce::new("n0nce")?,
///     Timestamp::new(1_700_000_000),
/// )?;
/// assert!(matches!(written, Written::Header(_)));
/// assert!(signed.authorization().starts_with("OAuth oauth_consumer_key=\"key\""));
/// # Ok::<(), oauth1_signer::http::SignError>(())
/// ```
///
/// # Errors
///
/// Those of [`sign_with`].
#[allow(clippy::too_many_arguments)]
pub fn sign_url(
    signer: &Signer,
    method: &str,
    url: &str,
    headers: &HeaderMap,
    body: &[u8],
    transport: Transport,
    nonce: &Nonce,
    timestamp: Timestamp,
) -> Result<(Signed, Written), SignError> {
    let content_type = sent_content_type(headers, body, transport);
    let form_transport_without_form = || SignError::FormTransportWithoutForm {
        content_type: content_type.to_owned(),
    };
    let done = if let Some((base, query)) = crate::base_string::plain_url(url) {
        // A plain URL is read as the URL parser would read it, without it, and its path is
        // sent as the parser would write it.
        crate::target::check_method(method)?;
        if transport == Transport::FormBody && !crate::target::is_form(content_type) {
            return Err(form_transport_without_form());
        }
        signer.sign_read_url(
            method,
            (&base, query.unwrap_or("")),
            (content_type, body),
            nonce,
            timestamp,
        )?
    } else {
        let request = sent_request(method, url, (content_type, body), transport)?;
        signer.sign(&request, nonce, timestamp)?
    };
    let written = write_back(&done, url, body, transport)?;
    Ok((done, written))
}

/// [`sign_url`] as a provider's server computes ([`Profile::sign`]): the request signed by the
/// profile's rules and deviations, the protocol parameters written in `transport` (the
/// profile's own is [`Profile::transport`]).
///
/// ```
/// use oauth1_signer::http::{sign_url_as, Written};
/// use oauth1_signer::profile::Profile;
/// use oauth1_signer::{Consumer, Nonce, Timestamp};
///
/// let woocommerce = Profile::named("woocommerce").unwrap();
/// let signer = woocommerce.signer(Consumer::new("ck_1", "cs_1"));
/// let (_, written) = sign_url_as(
///     woocommerce,
///     &signer,
///     "GET",
///     "http://shop.example/wp-json/wc/v3/products?include[]=12&include[]=34",
///     &http::HeaderMap::new(),
///     b"",
///     woocommerce.transport(),
///     &Nonce::new("n0nce")?,
///     Timestamp::new(1_700_000_000),
/// )?;
/// assert!(matches!(&written, Written::Query(url) if url.contains("&oauth_signature_method=HMAC-SHA256&")));
/// # Ok::<(), oauth1_signer::http::SignError>(())
/// ```
///
/// # Errors
///
/// Those of [`sign_url`], and [`Error::RefusedByProfile`].
#[allow(clippy::too_many_arguments)]
pub fn sign_url_as(
    profile: &Profile,
    signer: &Signer,
    method: &str,
    url: &str,
    headers: &HeaderMap,
    body: &[u8],
    transport: Transport,
    nonce: &Nonce,
    timestamp: Timestamp,
) -> Result<(Signed, Written), SignError> {
    let content_type = sent_content_type(headers, body, transport);
    let request = sent_request(method, url, (content_type, body), transport)?;
    let done = profile.sign(signer, &request, nonce, timestamp)?;
    let written = write_back(&done, url, body, transport)?;
    Ok((done, written))
}

/// The `Content-Type` the request is signed with: a form when the parameters go into an empty
/// body without one, as it is then sent.
fn sent_content_type<'h>(headers: &'h HeaderMap, body: &[u8], transport: Transport) -> &'h str {
    let content_type = content_type(headers);
    if transport == Transport::FormBody && body.is_empty() && content_type.is_empty() {
        FORM
    } else {
        content_type
    }
}

/// The request whose URL is the text sent, checked: its path is the one signed, and a form
/// when the parameters go into its body.
fn sent_request<'a>(
    method: &'a str,
    url: &str,
    (content_type, body): (&'a str, &'a [u8]),
    transport: Transport,
) -> Result<Request<'a>, SignError> {
    let request = Request::new(method, url)?.with_body(content_type, body);
    // The text is sent as it is: its path must be the one signed, which the URL parser
    // wrote (a `{` or `é` sent unencoded would be signed encoded).
    crate::path::check_received(crate::path::path_of(url), request.url().path())
        .map_err(|problem| Error::AmbiguousPath { problem })?;
    if transport == Transport::FormBody && !request.has_form_body() {
        return Err(SignError::FormTransportWithoutForm {
            content_type: content_type.to_owned(),
        });
    }
    Ok(request)
}

/// What to write back for `done` sent in `transport`: the header, the URL text with the
/// parameters appended, or the body with them.
fn write_back(
    done: &Signed,
    url: &str,
    body: &[u8],
    transport: Transport,
) -> Result<Written, SignError> {
    Ok(match transport {
        Transport::Header => {
            let header = done.authorization();
            // The header is ASCII apart from a realm's UTF-8, which HTTP carries as obs-text.
            // The value takes the string's allocation: no copy.
            let value = HeaderValue::try_from(header).map_err(|_| Error::InvalidRealm)?;
            Written::Header(sensitive(value))
        }
        Transport::Query => {
            let (before_fragment, _) = url.split_once('#').unwrap_or((url, ""));
            let mut new = String::with_capacity(before_fragment.len() + 256);
            new.push_str(before_fragment);
            match before_fragment.split_once('?') {
                None => new.push('?'),
                Some((_, "")) => {}
                Some(_) => new.push('&'),
            }
            new.push_str(&done.to_urlencoded());
            Written::Query(new)
        }
        Transport::FormBody => {
            let params = done.to_urlencoded();
            let mut new = Vec::with_capacity(body.len() + 1 + params.len());
            new.extend_from_slice(body);
            if !body.is_empty() {
                new.push(b'&');
            }
            new.extend_from_slice(params.as_bytes());
            Written::Body(new)
        }
    })
}

/// Whether `headers` say the body is a form ([`crate::target::is_form`] of its
/// `Content-Type`), whose parameters are signed.
#[must_use]
pub fn is_form(headers: &HeaderMap) -> bool {
    crate::target::is_form(content_type(headers))
}

/// The `Content-Type` header, or `""` when it is absent or not text.
#[must_use]
pub fn content_type(headers: &HeaderMap) -> &str {
    headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

/// Marks a header value that carries a signature as sensitive, so that `http` redacts it in
/// `Debug` and HTTP/2 never indexes it (a PLAINTEXT signature is the signing key).
fn sensitive(mut value: HeaderValue) -> HeaderValue {
    value.set_sensitive(true);
    value
}

/// Why an `http` request, or a request an HTTP client integration holds, could not be signed:
/// the signing core's refusal, or what only a request on the wire can cause.
#[derive(Debug)]
#[non_exhaustive]
pub enum SignError {
    /// The signing core refused the request: its URL, its parameters, the credentials, the
    /// nonce or the clock.
    Sign(Error),
    /// An `http` request whose URI is not absolute (`/path` instead of `https://host/path`):
    /// a client request must name its scheme and host, which are signed.
    #[non_exhaustive]
    RelativeUri {
        /// The URI as given.
        uri: String,
    },
    /// The form body transport was asked for a request whose body is not a form.
    #[non_exhaustive]
    FormTransportWithoutForm {
        /// The request's `Content-Type`.
        content_type: String,
    },
    /// The signed request could not be written back (its new URI was refused).
    #[non_exhaustive]
    WriteBack {
        /// What was refused.
        reason: String,
    },
}

impl fmt::Display for SignError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SignError::Sign(e) => e.fmt(f),
            SignError::RelativeUri { uri } => write!(
                f,
                "the request's URI \"{}\" is not absolute: build the request with the whole URL, such as https://host/path, whose scheme and host are signed",
                uri.escape_debug()
            ),
            SignError::FormTransportWithoutForm { content_type } => write!(
                f,
                "the form body transport needs a form body, but the Content-Type is \"{}\": send the parameters in the header or the query, or send an application/x-www-form-urlencoded body",
                content_type.escape_debug()
            ),
            SignError::WriteBack { reason } => {
                write!(f, "the signed request cannot be written back: {reason}")
            }
        }
    }
}

impl std::error::Error for SignError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            // Its message is this one's.
            SignError::Sign(e) => e.source(),
            _ => None,
        }
    }
}

impl From<Error> for SignError {
    fn from(e: Error) -> Self {
        SignError::Sign(e)
    }
}
