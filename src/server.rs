//! What a server's verifier is built from, and nothing a client needs. The package
//! `oauth1-server` (the verifier with its policy and stores, the provider that issues tokens,
//! the `tower` layer) is built on these; reach for them only to write another verifier.
//!
//! - [`collect`]: a received request's parameters, collected as a server must (RFC 5849
//!   §3.4.1.3.1): the query's, the form body's, then the `Authorization` header's (the realm
//!   aside), within a server's [`Limits`](crate::header::Limits), counted before anything is
//!   decoded or allocated; [`collect_before_body`] and [`collect_body`]: the same in two
//!   steps, the header's and the query's before the body is read, then the form body's;
//! - [`check_received`], [`parsed_path`], [`path_of`]: the rule that the path signed is the
//!   path routed. A URL parser removes dot segments, reads `\` as `/` and escapes characters
//!   such as `{`; a router routes the path as received. A received path is taken only in the
//!   exact form a URL parser writes it ([`AmbiguousPath`](crate::AmbiguousPath) otherwise), so
//!   that the base string URI holds the bytes the router routes;
//! - [`plain_request`]: the request for a received URL plain enough to need no URL parser,
//!   whose path is then the parser's by construction;
//! - [`check_authority`], [`is_form`], [`FORM`]: a URL's text names a host; whether a body's
//!   parameters are signed;
//! - [`is_tchar`], [`skip_ows`], [`is_ows`], [`is_control`]: the RFC 9110 rules a header
//!   parser reads;
//! - [`Span`]: where a parameter's bytes are in the collection it was read from;
//! - [`KeyedMac`]: an HMAC keyed once and cloned per request, kept between requests;
//! - `rsa_verify` (feature `rsa`): an RSA signature checked with a public key.
//!
//! ```
//! use oauth1_signer::header::Limits;
//! use oauth1_signer::{server, Request};
//!
//! let request = Request::new("GET", "https://photos.example.net/photos?size=original")?;
//! let header = r#"OAuth realm="Photos", oauth_consumer_key="dpf43f3p2l4k3l03""#;
//! let (params, realm) = server::collect(&request, Some(header), &Limits::default())?;
//! let names: Vec<&[u8]> = params.iter().map(|p| p.name).collect();
//! assert_eq!(names, [&b"size"[..], b"oauth_consumer_key"]);
//! assert_eq!(realm.as_deref(), Some("Photos"));
//!
//! // The path the router routes must be the path a URL parser writes.
//! assert!(server::check_received("/photos/../admin", "/admin").is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub use crate::grammar::{is_control, is_ows, is_tchar, skip_ows};
pub use crate::params::Span;
pub use crate::path::{check_received, parsed_path, path_of};
pub use crate::received::{collect, collect_before_body, collect_body, CollectError};
#[cfg(feature = "rsa")]
pub use crate::sign::rsa_verify;
pub use crate::sign::KeyedMac;
pub use crate::target::{check_authority, is_form, FORM};

/// The request for `url` when it is plain enough to be read without the URL parser (lower-case
/// `http`/`https` and host, no user information, a path and query of characters the parser
/// leaves as they are, no dot segment): read in one pass as the parser would read it, so its
/// path is the parser's and the received path it ends with needs no other check. `None` for
/// any other URL, which the caller parses and checks as [`check_received`] says. The request
/// keeps the URL's text: a `String` given is kept as it is, a `&str` is copied.
///
/// ```
/// use oauth1_signer::server::plain_request;
///
/// let request = plain_request("GET", "https://api.example.com/photos?size=original")
///     .expect("a plain URL")?;
/// assert_eq!(request.base_uri()?.as_str(), "https://api.example.com/photos");
/// assert_eq!(request.query(), "size=original");
/// assert!(plain_request("GET", "https://api.example.com/a/../b").is_none());
/// assert!(plain_request("GET", "https://API.example.com/a").is_none());
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::InvalidMethod`](crate::Error::InvalidMethod) inside the `Some`.
#[must_use]
pub fn plain_request(
    method: &str,
    url: impl AsRef<str> + Into<Box<str>>,
) -> Option<Result<crate::Request<'_>, crate::Error>> {
    crate::Request::plain(method, url)
}
