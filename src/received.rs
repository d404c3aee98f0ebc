//! A received request's parameters, collected as a server must collect them (RFC 5849
//! §3.4.1.3.1): the query's, the form body's, then the `Authorization` header's (the realm
//! aside), within a server's [`Limits`]. The query and form parameters are counted before
//! anything is decoded or allocated, so that a request with a hundred thousand of them is
//! refused at the cost of reading it once.
//!
//! Public as [`server::collect`](crate::server::collect), with its example.

use std::fmt;

use crate::collect::{collect_into, count_parameters, text_len, Sources};
use crate::error::Error;
use crate::header::{parse_parts, Authorization, HeaderError, Limits};
use crate::params::Parameters;
use crate::request::Request;

/// Collects `request`'s parameters and those of its `authorization` header (if it has one):
/// the query's and the form body's in the order sent, then the header's, each decoded; and the
/// header's realm. At most [`Limits::max_parameters`] in all.
///
/// # Errors
///
/// [`CollectError::Header`] for a header that does not parse (said first, even when the
/// request also has too many parameters), [`CollectError::TooManyParameters`] past the limit,
/// [`CollectError::Parameters`] for a query or form body that does not decode.
pub fn collect(
    request: &Request<'_>,
    authorization: Option<&str>,
    limits: &Limits,
) -> Result<(Parameters, Option<String>), CollectError> {
    collect_before_body(request, authorization, limits, 0)
}

/// [`collect`] of a request given before its body is read, with room made for `body_len`
/// bytes of a form body: [`collect_body`] then adds the body's parameters (if they fit, with
/// a few more parameters than the request has) without copying what was collected into a
/// larger buffer. A server passes the body's announced length (`Content-Length`); a wrong
/// length costs a copy, never a wrong result, and room is made for at most 64 KiB (a longer
/// body is added with one copy, small beside decoding it).
///
/// ```
/// use oauth1_signer::header::Limits;
/// use oauth1_signer::{server, Request};
///
/// let url = "https://photos.example.net/photos?size=original";
/// let header = r#"OAuth oauth_consumer_key="dpf43f3p2l4k3l03""#;
/// let body = b"file=vacation.jpg";
/// let limits = Limits::default();
/// let before = Request::new("POST", url)?;
/// let (mut params, _) = server::collect_before_body(&before, Some(header), &limits, body.len())?;
/// let whole = Request::new("POST", url)?.with_form_body(body);
/// server::collect_body(&mut params, &whole, &limits)?;
/// let names: Vec<&[u8]> = params.iter().map(|p| p.name).collect();
/// assert_eq!(names, [&b"size"[..], b"oauth_consumer_key", b"file"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// Those of [`collect`].
pub fn collect_before_body(
    request: &Request<'_>,
    authorization: Option<&str>,
    limits: &Limits,
    body_len: usize,
) -> Result<(Parameters, Option<String>), CollectError> {
    let sources = request.sources();
    let too_many = || CollectError::TooManyParameters {
        limit: limits.max_parameters,
    };
    // Counted before anything is decoded or allocated. A header that does not parse is still
    // the first thing said.
    let count = count_parameters(sources);
    if count > limits.max_parameters {
        return Err(first_fault(authorization, limits, count, too_many()));
    }
    let mut params = Parameters::with_capacity(
        count + 8,
        text_len(sources) + authorization.map_or(0, str::len) + body_len.min(BODY_ROOM_MAX),
    );
    // The query's and the body's parameters first, then the header's, decoded straight into
    // `params` after them: in the order they are collected, with nothing to move.
    if let Err(e) = collect_into(&mut params, sources) {
        let fault = CollectError::Parameters(e);
        return Err(first_fault(authorization, limits, count, fault));
    }
    let collected = params.len();
    let mut realm = None;
    if let Some(header) = authorization {
        realm = parse_parts(header, limits, |part| {
            params.push_header(part.name, part.clean_name, part.content)
        })
        .map_err(|e| {
            params.wipe();
            CollectError::Header(e)
        })?;
    }
    if count + (params.len() - collected) > limits.max_parameters {
        params.wipe();
        return Err(too_many());
    }
    Ok((params, realm))
}

/// The most room [`collect_before_body`] makes for a body.
const BODY_ROOM_MAX: usize = 64 * 1024;

/// What is said of a request whose `count` query and body parameters could not all be
/// collected, `fault` being why: a header that does not parse first, then a count past the
/// limit with the header's parameters, then `fault`. The header is parsed on its own for it.
fn first_fault(
    authorization: Option<&str>,
    limits: &Limits,
    count: usize,
    fault: CollectError,
) -> CollectError {
    let header = authorization.map(|header| Authorization::parse_with(header, limits));
    match header {
        Some(Err(e)) => CollectError::Header(e),
        Some(Ok(parsed)) if count + parsed.parameters().len() > limits.max_parameters => {
            CollectError::TooManyParameters {
                limit: limits.max_parameters,
            }
        }
        _ => fault,
    }
}

/// Adds `request`'s form body parameters to `params`, which [`collect`] (or
/// [`collect_before_body`]) gave for the same request before its body was read (given without
/// it): together they are the parameters
/// `collect` gives for the whole request (the body's after the header's here), and an error
/// here is the one `collect` would give for it. A server that checked the header before
/// reading the body so parses it once.
///
/// ```
/// use oauth1_signer::header::Limits;
/// use oauth1_signer::{server, Request};
///
/// let url = "https://photos.example.net/photos?size=original";
/// let header = r#"OAuth oauth_consumer_key="dpf43f3p2l4k3l03""#;
/// let limits = Limits::default();
/// let (mut params, _) = server::collect(&Request::new("POST", url)?, Some(header), &limits)?;
/// let whole = Request::new("POST", url)?.with_form_body(b"file=vacation.jpg");
/// server::collect_body(&mut params, &whole, &limits)?;
/// let names: Vec<&[u8]> = params.iter().map(|p| p.name).collect();
/// assert_eq!(names, [&b"size"[..], b"oauth_consumer_key", b"file"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`CollectError::TooManyParameters`] when the body's parameters take those collected past
/// [`Limits::max_parameters`]; [`CollectError::Parameters`] for a form body that does not
/// decode. Either way `params` is wiped.
pub fn collect_body(
    params: &mut Parameters,
    request: &Request<'_>,
    limits: &Limits,
) -> Result<(), CollectError> {
    let sources = request.sources();
    let body = Sources {
        query: &[],
        body: sources.body,
        form: sources.form,
    };
    let count = count_parameters(body);
    if params.len() + count > limits.max_parameters {
        params.wipe();
        return Err(CollectError::TooManyParameters {
            limit: limits.max_parameters,
        });
    }
    params.make_room(count, text_len(body));
    collect_into(params, body).map_err(CollectError::Parameters)
}

/// Why a received request's parameters could not be collected.
#[derive(Debug)]
#[non_exhaustive]
pub enum CollectError {
    /// More parameters than [`Limits::max_parameters`] in the header, query and form body
    /// together.
    #[non_exhaustive]
    TooManyParameters {
        /// The limit.
        limit: usize,
    },
    /// The `Authorization` header does not parse.
    Header(HeaderError),
    /// The query or the form body does not decode.
    Parameters(Error),
}

impl fmt::Display for CollectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CollectError::TooManyParameters { limit } => {
                write!(f, "the request has more than {limit} parameters")
            }
            CollectError::Header(e) => e.fmt(f),
            CollectError::Parameters(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CollectError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CollectError::TooManyParameters { .. } => None,
            CollectError::Header(e) => e.source(),
            CollectError::Parameters(e) => e.source(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `collect` gave, as a sorted list (the order differs), or the error's kind.
    fn outcome(result: Result<Parameters, CollectError>) -> Result<Vec<String>, String> {
        match result {
            Ok(params) => {
                let mut all: Vec<String> = params
                    .iter()
                    .map(|p| format!("{:?} {:?}={:?}", p.source, p.name, p.value))
                    .collect();
                all.sort();
                Ok(all)
            }
            Err(CollectError::TooManyParameters { limit }) => Err(format!("too many {limit}")),
            Err(CollectError::Header(e)) => Err(format!("header {e}")),
            Err(CollectError::Parameters(e)) => Err(format!("parameters {e}")),
        }
    }

    /// The body added after collecting without it gives what collecting the whole request
    /// gives: the same parameters, or the same error.
    #[test]
    fn the_body_added_later_is_the_whole_request_collected() {
        let header = r#"OAuth realm="r", oauth_consumer_key="k", oauth_signature="a%2Bb""#;
        let bodies: [&[u8]; 8] = [
            b"",
            b"a=1",
            b"status=Hello%20Ladies%20%2b%20Gentlemen&b",
            b"a=1&a=1&c=%zz",
            b"x=1&y=2&z=3",
            b"x=1&y=2&z=3&w=4",
            b"oauth_nonce=n&q=%E2%98%83",
            b"&&=&",
        ];
        let mut compared = 0;
        for limit in [3, 5, 6, 7, 100] {
            let limits = Limits::new(1024, limit);
            for query in ["", "?b=2", "?b=2&c", "?b=%2"] {
                let url = format!("https://api.example.com/a{query}");
                for body in bodies {
                    for content_type in ["application/x-www-form-urlencoded", "text/plain"] {
                        let whole = Request::new("POST", &url)
                            .unwrap()
                            .with_body(content_type, body);
                        let expected = outcome(
                            collect(&whole, Some(header), &limits).map(|(params, _)| params),
                        );
                        let before = Request::new("POST", &url).unwrap();
                        let Ok((mut params, _)) = collect(&before, Some(header), &limits) else {
                            continue;
                        };
                        let added = collect_body(&mut params, &whole, &limits).map(|()| params);
                        assert_eq!(outcome(added), expected, "{url} {body:?} {limit}");
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 150, "{compared}");
    }

    /// Of several faults the first said is the header's (it does not parse), then the count
    /// (query, body and header past the limit), then the query's or the body's (a malformed
    /// escape); and the parameters come in the order of their sources, the header's last.
    #[test]
    fn faults_are_said_header_first_then_the_count_then_the_decoding() {
        let good = r#"OAuth realm="r", oauth_consumer_key="k", oauth_nonce="n""#;
        let bad = r#"OAuth oauth_consumer_key="k", oauth_nonce"#;
        let said = |query: &str, body: &[u8], header: &str, limit: usize| {
            let url = format!("https://api.example.com/a{query}");
            let request = Request::new("POST", &url).unwrap().with_form_body(body);
            match collect(&request, Some(header), &Limits::new(1024, limit)) {
                Ok((params, realm)) => {
                    let names: Vec<String> = (params.iter())
                        .map(|p| format!("{} {}", p.source, p.name.escape_ascii()))
                        .collect();
                    format!("{} {realm:?}", names.join(", "))
                }
                Err(CollectError::TooManyParameters { .. }) => "too many".to_owned(),
                Err(CollectError::Header(_)) => "header".to_owned(),
                Err(CollectError::Parameters(Error::InvalidPercentEncoding {
                    location, ..
                })) => {
                    format!("decoding {location}")
                }
                Err(CollectError::Parameters(e)) => format!("{e}"),
            }
        };
        for (query, body) in [("?a=%zz", &b"b=1"[..]), ("?a=1", b"b=%zz")] {
            assert_eq!(said(query, body, bad, 100), "header");
            assert_eq!(said(query, body, good, 3), "too many");
            assert_eq!(said(query, body, good, 4), said(query, body, good, 100));
            assert!(said(query, body, good, 4).starts_with("decoding "));
        }
        assert_eq!(said("?a=1", b"b=1", bad, 100), "header");
        assert_eq!(said("?a=1", b"b=1", good, 3), "too many");
        assert_eq!(
            said("?a=1", b"b=1", good, 4),
            "query a, body b, header oauth_consumer_key, header oauth_nonce Some(\"r\")"
        );
    }

    /// An error wipes what was collected before (a PLAINTEXT signature, say).
    #[test]
    fn an_error_in_the_body_wipes_what_was_collected() {
        let limits = Limits::default();
        let header = r#"OAuth oauth_signature="secret%26token""#;
        let url = "https://api.example.com/a";
        let (mut params, _) =
            collect(&Request::new("POST", url).unwrap(), Some(header), &limits).unwrap();
        let whole = Request::new("POST", url).unwrap().with_form_body(b"a=%zz");
        assert!(collect_body(&mut params, &whole, &limits).is_err());
        assert_eq!(params.len(), 0);
    }
}
