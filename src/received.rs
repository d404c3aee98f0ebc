//! A received request's parameters, collected as a server must collect them (RFC 5849
//! §3.4.1.3.1): the query's, the form body's, then the `Authorization` header's (the realm
//! aside), within a server's [`Limits`]. The query and form parameters are counted before
//! anything is decoded or allocated, so that a request with a hundred thousand of them is
//! refused at the cost of reading it once.
//!
//! Public as [`server::collect`](crate::server::collect), with its example.

use std::fmt;

use crate::collect::{collect_into, count_parameters, text_len};
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
    let sources = request.sources();
    let too_many = || CollectError::TooManyParameters {
        limit: limits.max_parameters,
    };
    // Counted before anything is decoded or allocated. A header that does not parse is still
    // the first thing said.
    let count = count_parameters(sources);
    if count > limits.max_parameters {
        if let Some(header) = authorization {
            Authorization::parse_with(header, limits).map_err(CollectError::Header)?;
        }
        return Err(too_many());
    }
    let mut params = Parameters::with_capacity(
        count + 8,
        text_len(sources) + authorization.map_or(0, str::len),
    );
    // The header's parameters are decoded straight into `params` first, then listed after the
    // query's and the body's, where they are collected.
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
    let header_count = params.len();
    if count + header_count > limits.max_parameters {
        params.wipe();
        return Err(too_many());
    }
    collect_into(&mut params, sources).map_err(CollectError::Parameters)?;
    params.move_first_to_end(header_count);
    Ok((params, realm))
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
