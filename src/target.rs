//! What a request's method and URL must be for the signer and the verifier to agree with the
//! server's router: the checks [`Request`](crate::request::Request) and
//! [`RequestParts`](crate::parts::RequestParts) share, and the one rule for a request path.
//!
//! # One path, signed and routed
//!
//! A URL parser rewrites some paths before they are signed: it removes dot segments (`/b/../a`
//! becomes `/a`, and so does `/b/%2e%2e/a`), reads a backslash as `/`, and percent-encodes
//! characters such as `{`, `"` or `é`. A router (axum's, and most others) routes the path as it
//! was received, byte for byte. If the verifier signed the parser's path while the application
//! routed the received one, a request signed for `/a` could be sent as `/b/../a` and reach
//! whatever serves `/b/…`. So:
//!
//! - the verifier, the `tower` layer and `PublicOrigin` (package `oauth1-server`) take a
//!   received path only in the exact form a URL parser writes it ([`AmbiguousPath`]
//!   otherwise, answered `400` with `oauth_problem=parameter_rejected`): the base string URI
//!   then holds exactly the bytes the router routes;
//! - the signer refuses dot segments and backslashes in a URL's path (clients disagree on
//!   whether to resolve them before sending: reqwest and curl do, `curl --path-as-is` and
//!   oauthlib do not), and signs other characters percent-encoded, as the URL parser writes
//!   them and as reqwest sends them.
//!
//! Kept as they are, since router and signature read them alike: `//` (an empty segment),
//! `%2F` inside a segment (axum routes it as part of the segment and decodes it only into a
//! path parameter), other escapes in the case they were sent (`%2f`, `%7e`), and a `?` with
//! nothing after it (an empty query, outside the path).

use crate::error::Error;
use crate::grammar::is_tchar;
use crate::path::after_slashes;
pub(crate) use crate::path::check_segments;
pub(crate) use crate::path::path_of;
use std::borrow::Cow;

/// The `Content-Type` whose body's parameters are signed.
pub const FORM: &str = "application/x-www-form-urlencoded";

/// Whether a `Content-Type` is [`FORM`] (any letter case, parameters such as
/// `; charset=utf-8` allowed): the one test of whether a body's parameters are signed.
#[must_use]
pub fn is_form(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or("").trim();
    essence.eq_ignore_ascii_case(FORM)
}

/// The request method kept without a copy when it is one of the common ones.
pub(crate) fn kept_method(method: &str) -> Cow<'static, str> {
    match ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
        .into_iter()
        .find(|known| *known == method)
    {
        Some(known) => Cow::Borrowed(known),
        None => Cow::Owned(method.to_owned()),
    }
}

/// A method is an RFC 9110 token.
pub(crate) fn check_method(method: &str) -> Result<(), Error> {
    if method.is_empty() || !method.bytes().all(is_tchar) {
        return Err(Error::InvalidMethod {
            method: method.to_owned(),
        });
    }
    Ok(())
}

/// Requires `scheme://` and a host in the text itself: the URL parser would otherwise take
/// `http:example.com` or `https:///path` as naming a host.
///
/// # Errors
///
/// [`Error::UrlWithoutHost`] for a URL whose text has no `//` and host after its scheme.
pub fn check_authority(url: &str) -> Result<(), Error> {
    match after_slashes(url) {
        Some(authority)
            if !authority.is_empty() && !authority.starts_with(['/', '\\', '?', '#']) =>
        {
            Ok(())
        }
        _ => Err(Error::UrlWithoutHost),
    }
}

/// Refuses dot segments and backslashes in the path of an absolute `http` or `https` URL's
/// text, which [`check_authority`] has accepted: the signer's rule.
pub(crate) fn check_url_path(url: &str) -> Result<(), Error> {
    check_segments(path_of(url)).map_err(|problem| Error::AmbiguousPath { problem })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_of_a_url_text_is_read_as_sent() {
        for (url, path) in [
            ("https://h", "/"),
            ("https://h?x=1", "/"),
            ("https://h:8080/a/b?x=/c", "/a/b"),
            ("https://h\\a/b", "\\a/b"),
            (" https://u@h/a#/b", "/a"),
        ] {
            assert_eq!(path_of(url), path, "{url}");
        }
        for (url, ok) in [
            ("https://h/b/../a", false),
            ("https://h/b/%2E%2e/a?x=1", false),
            ("  https://h/a\\b", false),
            ("https://h\\a/../b", false),
            ("https://h/a?q=/../b", true),
            ("https://h/a#/../b", true),
            ("https://h?/../b", true),
            ("https://h/a/b", true),
        ] {
            assert_eq!(check_url_path(url).is_ok(), ok, "{url}");
        }
    }
}
