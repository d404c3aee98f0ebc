//! The one rule for a request path: a received path is taken only in the exact form a URL
//! parser writes it (see [`server`](crate::server), which hands these on). Below the errors of
//! building a request, which name an [`AmbiguousPath`].

use std::borrow::Cow;
use std::fmt;

/// What follows `scheme://` in a URL's text, leading spaces and control characters aside.
pub(crate) fn after_slashes(url: &str) -> Option<&str> {
    url.trim_start_matches(|c: char| c <= ' ')
        .split_once(':')
        .and_then(|(_, rest)| rest.strip_prefix("//"))
}

/// The path of an absolute `http` or `https` URL's text as sent, which [`check_authority`](crate::target::check_authority)
/// has accepted: from the end of the authority (`/`, or `\\`, which a URL parser takes for
/// `/`) to the query or fragment; `/` when that is empty, as RFC 9112 §3.2.1 sends it.
#[must_use]
pub fn path_of(url: &str) -> &str {
    let after = after_slashes(url).unwrap_or("");
    let path = &after[after.find(['/', '\\', '?', '#']).unwrap_or(after.len())..];
    match &path[..path.find(['?', '#']).unwrap_or(path.len())] {
        "" => "/",
        path => path,
    }
}

/// Refuses a path with a dot segment (`.` or `..`, written out or percent-encoded in any
/// letter case) or a backslash, which a URL parser resolves or turns into `/`. Tabs and line
/// breaks, which the parser drops, are dropped first, as it does.
pub(crate) fn check_segments(path: &str) -> Result<(), AmbiguousPath> {
    let seen: Cow<'_, str> = if path.contains(['\t', '\n', '\r']) {
        Cow::Owned(path.replace(['\t', '\n', '\r'], ""))
    } else {
        Cow::Borrowed(path)
    };
    let mut start = 0;
    let ends = seen.match_indices(['/', '\\']).chain([(seen.len(), "")]);
    for (end, separator) in ends {
        let segment = &seen[start..end];
        if is_dot_segment(segment) {
            return Err(AmbiguousPath::DotSegment {
                path: path.to_owned(),
                segment: segment.to_owned(),
            });
        }
        if separator == "\\" {
            return Err(AmbiguousPath::Backslash {
                path: path.to_owned(),
            });
        }
        start = end + 1;
    }
    Ok(())
}

/// `.` or `..`, each dot written out or as `%2e` (WHATWG URL's single- and double-dot
/// segments).
fn is_dot_segment(segment: &str) -> bool {
    [".", "%2e", "..", ".%2e", "%2e.", "%2e%2e"]
        .iter()
        .any(|dots| segment.eq_ignore_ascii_case(dots))
}

/// Refuses a received path (`path`, as the router routes it) unless the public URL's path
/// (`public`, what is signed) ends with exactly it: the verifier's rule.
///
/// ```
/// use oauth1_signer::{server::check_received, AmbiguousPath};
///
/// assert!(check_received("/a", "/api/a").is_ok());
/// assert!(matches!(
///     check_received("/b/../a", "/a"),
///     Err(AmbiguousPath::DotSegment { .. })
/// ));
/// ```
///
/// # Errors
///
/// The [`AmbiguousPath`] that says how the router's path and the signed one could differ.
pub fn check_received(path: &str, public: &str) -> Result<(), AmbiguousPath> {
    // A URL's path has no dot segment or backslash, and `path` starts at a segment boundary
    // of it: every segment of `path` is one of the public path's.
    if path.starts_with('/') && public.ends_with(path) {
        return Ok(());
    }
    check_segments(path)?;
    let parsed = parsed_path(path);
    let mut rest = parsed.as_str();
    for c in path.chars() {
        match rest.strip_prefix(c) {
            Some(after) => rest = after,
            None => {
                return Err(AmbiguousPath::NotEncoded {
                    path: path.to_owned(),
                    character: c,
                })
            }
        }
    }
    Err(AmbiguousPath::Rewritten {
        path: path.to_owned(),
        public: public.to_owned(),
    })
}

/// The path a URL parser makes of `path` in an `http` URL.
#[must_use]
pub fn parsed_path(path: &str) -> String {
    url::Url::parse("http://h/")
        .map(|mut url| {
            url.set_path(path);
            url.path().to_owned()
        })
        .unwrap_or_default()
}

/// A request path in a form that a URL parser rewrites and a router does not, so that the
/// path signed and the path routed could differ (see the [`server`](crate::server) module).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AmbiguousPath {
    /// A `.` or `..` segment, written out or percent-encoded (`%2e`, `.%2E`, …), which URL
    /// parsers remove.
    #[non_exhaustive]
    DotSegment {
        /// The path as given.
        path: String,
        /// The segment.
        segment: String,
    },
    /// A backslash, which URL parsers read as `/` in an `http` or `https` URL.
    #[non_exhaustive]
    Backslash {
        /// The path as given.
        path: String,
    },
    /// A character that URL parsers percent-encode in a path (`"`, `{`, `}`, `^`, non-ASCII,
    /// …), received as it is.
    #[non_exhaustive]
    NotEncoded {
        /// The path as received.
        path: String,
        /// The first such character.
        character: char,
    },
    /// The server's public URL for the request has a path that does not end with the
    /// received one: its public URL function rewrote the path.
    #[non_exhaustive]
    Rewritten {
        /// The path as received.
        path: String,
        /// The public URL's path.
        public: String,
    },
}

impl fmt::Display for AmbiguousPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const DIFFER: &str = "so the path signed and the path routed could differ";
        match self {
            AmbiguousPath::DotSegment { path, segment } => write!(
                f,
                "the path \"{}\" has the dot segment \"{}\", which URL parsers remove and routers do not, {DIFFER}: send the path with its dot segments resolved",
                path.escape_debug(),
                segment.escape_debug()
            ),
            AmbiguousPath::Backslash { path } => write!(
                f,
                "the path \"{}\" has a backslash, which URL parsers read as '/' and routers do not, {DIFFER}: send '/' or %5C instead",
                path.escape_debug()
            ),
            AmbiguousPath::NotEncoded { path, character } => {
                write!(
                    f,
                    "the path \"{}\" has '{}' unencoded, which URL parsers percent-encode and routers do not, {DIFFER}: send it as ",
                    path.escape_debug(),
                    character.escape_debug()
                )?;
                for byte in character.to_string().bytes() {
                    write!(f, "%{byte:02X}")?;
                }
                Ok(())
            }
            AmbiguousPath::Rewritten { path, public } => write!(
                f,
                "the public URL's path \"{}\" does not end with the path routed, \"{}\": the server's public URL must keep the request's path as it is",
                public.escape_debug(),
                path.escape_debug()
            ),
        }
    }
}

impl std::error::Error for AmbiguousPath {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_segments_in_every_spelling_are_found() {
        for (path, segment) in [
            ("/b/../a", ".."),
            ("/b/%2e%2e/a", "%2e%2e"),
            ("/b/%2E%2E/a", "%2E%2E"),
            ("/b/.%2E/a", ".%2E"),
            ("/b/%2e./a", "%2e."),
            ("/a/.", "."),
            ("/a/%2e", "%2e"),
            ("/./a", "."),
            ("/a/..", ".."),
            ("/a/.\t./b", ".."),
        ] {
            assert_eq!(
                check_segments(path),
                Err(AmbiguousPath::DotSegment {
                    path: path.to_owned(),
                    segment: segment.to_owned()
                }),
                "{path:?}"
            );
        }
        for fine in [
            "/", "//a", "/a%2Fb", "/a%2eb", "/.a", "/a.", "/.../b", "/..%2f/b", "/a%2e%2e",
        ] {
            assert_eq!(check_segments(fine), Ok(()), "{fine:?}");
        }
    }

    #[test]
    fn a_backslash_is_found_after_the_segment_before_it() {
        assert_eq!(
            check_segments("/a\\b"),
            Err(AmbiguousPath::Backslash {
                path: "/a\\b".to_owned()
            })
        );
        assert!(matches!(
            check_segments("/a/..\\b"),
            Err(AmbiguousPath::DotSegment { .. })
        ));
    }

    #[test]
    fn a_received_path_must_be_the_parsed_one() {
        assert_eq!(check_received("/a%2Fb", "/api/a%2Fb"), Ok(()));
        assert_eq!(check_received("//a", "//a"), Ok(()));
        assert_eq!(
            check_received("/x/{y}", "/x/%7By%7D"),
            Err(AmbiguousPath::NotEncoded {
                path: "/x/{y}".to_owned(),
                character: '{'
            })
        );
        assert_eq!(
            check_received("/caf\u{e9}", "/caf%C3%A9").unwrap_err().to_string(),
            "the path \"/caf\u{e9}\" has '\u{e9}' unencoded, which URL parsers percent-encode and routers do not, so the path signed and the path routed could differ: send it as %C3%A9"
        );
        assert_eq!(
            check_received("/b/../a", "/a").unwrap_err().to_string(),
            "the path \"/b/../a\" has the dot segment \"..\", which URL parsers remove and routers do not, so the path signed and the path routed could differ: send the path with its dot segments resolved"
        );
        assert_eq!(
            check_received("/a", "/A"),
            Err(AmbiguousPath::Rewritten {
                path: "/a".to_owned(),
                public: "/A".to_owned()
            })
        );
        // A suffix that is not a whole path is no match.
        assert!(check_received("", "/a").is_err());
        assert!(check_received("*", "/a").is_err());
    }
}
