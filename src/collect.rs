//! Collecting a request's parameters (RFC 5849 §3.4.1.3.1): the query's, a form body's, and
//! the protocol parameters, each once. Signing and verifying collect here, and so does the
//! diagnosis, which hands other [`Sources`] to reproduce other implementations' mistakes.

use crate::encode::{Unreserved, Value};
use crate::error::Error;
use crate::params::{Parameters, Source};

/// The protocol parameters (every `oauth_*` except `oauth_signature`) as `(name, value)` in
/// sorted order, `None` for one this request does not send. A value known beforehand to need
/// no escaping carries the proof ([`Value::Unreserved`]) and is not examined again.
pub(crate) type Protocol<'a> = [(Unreserved<'static>, Option<Value<'a>>); 9];

/// The `oauth_*` names, checked when the program is compiled.
pub(crate) mod name {
    use crate::encode::Unreserved;

    pub(crate) const BODY_HASH: Unreserved<'static> = Unreserved::literal("oauth_body_hash");
    pub(crate) const CALLBACK: Unreserved<'static> = Unreserved::literal("oauth_callback");
    pub(crate) const CONSUMER_KEY: Unreserved<'static> = Unreserved::literal("oauth_consumer_key");
    pub(crate) const NONCE: Unreserved<'static> = Unreserved::literal("oauth_nonce");
    pub(crate) const SIGNATURE_METHOD: Unreserved<'static> =
        Unreserved::literal("oauth_signature_method");
    pub(crate) const TIMESTAMP: Unreserved<'static> = Unreserved::literal("oauth_timestamp");
    pub(crate) const TOKEN: Unreserved<'static> = Unreserved::literal("oauth_token");
    pub(crate) const VERIFIER: Unreserved<'static> = Unreserved::literal("oauth_verifier");
    pub(crate) const VERSION: Unreserved<'static> = Unreserved::literal("oauth_version");
}

/// Where a request's parameters come from: its query, and its body with whether that is a
/// form, whose parameters alone are collected.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sources<'a> {
    /// The URL's query, without the `?`.
    pub(crate) query: &'a [u8],
    /// The body.
    pub(crate) body: &'a [u8],
    /// Whether the body is `application/x-www-form-urlencoded`.
    pub(crate) form: bool,
}

/// The query's and form body's parameters and then the protocol parameters.
pub(crate) fn collect_all(
    sources: Sources<'_>,
    protocol: &Protocol<'_>,
) -> Result<Parameters, Error> {
    let protocol_len: usize = protocol
        .iter()
        .map(|(name, value)| value.map_or(0, |v| name.as_bytes().len() + v.as_bytes().len()))
        .sum();
    let count = count_parameters(sources) + protocol.len();
    let mut params = collect_parameters(sources, count, protocol_len)?;
    check_no_protocol_parameters(&params, protocol)?;
    for &(name, value) in protocol {
        if let Some(value) = value {
            params.push_protocol(name, value);
        }
    }
    Ok(params)
}

/// Parameters already decoded (a request given by its parts), then the protocol parameters.
pub(crate) fn collect_from(
    given: &Parameters,
    protocol: &Protocol<'_>,
) -> Result<Parameters, Error> {
    check_no_protocol_parameters(given, protocol)?;
    let protocol_len: usize = protocol
        .iter()
        .map(|(name, value)| value.map_or(0, |v| name.as_bytes().len() + v.as_bytes().len()))
        .sum();
    let mut params = given.copy_with_room(protocol.len(), protocol_len);
    for &(name, value) in protocol {
        if let Some(value) = value {
            params.push_protocol(name, value);
        }
    }
    Ok(params)
}

/// The query and the form body (empty when the body is not a form).
fn parameter_texts(sources: Sources<'_>) -> (&[u8], &[u8]) {
    let form = if sources.form { sources.body } else { &[] };
    (sources.query, form)
}

/// How many parameters [`collect_parameters`] would find, counted without decoding them.
pub(crate) fn count_parameters(sources: Sources<'_>) -> usize {
    let (query, form) = parameter_texts(sources);
    count_pairs(query) + count_pairs(form)
}

/// The query's parameters and, for a form body, the body's, decoded, with room for `count`
/// parameters in all ([`count_parameters`] and those to be added) and `extra_bytes` more
/// bytes.
pub(crate) fn collect_parameters(
    sources: Sources<'_>,
    count: usize,
    extra_bytes: usize,
) -> Result<Parameters, Error> {
    let (query, form) = parameter_texts(sources);
    let mut params = Parameters::with_capacity(count, query.len() + form.len() + extra_bytes);
    collect_into(&mut params, sources)?;
    Ok(params)
}

/// The bytes [`collect_parameters`] would decode: the most they decode to.
pub(crate) fn text_len(sources: Sources<'_>) -> usize {
    let (query, form) = parameter_texts(sources);
    query.len() + form.len()
}

/// [`collect_parameters`], added to `params`; on an error, everything `params` holds is
/// wiped.
pub(crate) fn collect_into(params: &mut Parameters, sources: Sources<'_>) -> Result<(), Error> {
    let (query, form) = parameter_texts(sources);
    let result = params
        .extend_urlencoded(Source::Query, query)
        .map_err(|source| Error::InvalidPercentEncoding {
            location: Source::Query,
            source,
        })
        .and_then(|()| {
            params
                .extend_urlencoded(Source::FormBody, form)
                .map_err(|source| Error::InvalidPercentEncoding {
                    location: Source::FormBody,
                    source,
                })
        });
    if result.is_err() {
        // What was collected before may hold a PLAINTEXT signature.
        params.wipe();
    }
    result
}

/// An upper bound of the number of `&`-separated pairs in a query or form body.
fn count_pairs(text: &[u8]) -> usize {
    crate::encode::count_byte(text, b'&') + usize::from(!text.is_empty())
}

/// Refuses query and body parameters named like a protocol parameter this request sends, and
/// `oauth_signature`, which a server would leave out of the base string.
fn check_no_protocol_parameters(params: &Parameters, protocol: &Protocol<'_>) -> Result<(), Error> {
    for p in params.iter().filter(|p| p.name.starts_with(b"oauth_")) {
        let sent = protocol
            .iter()
            .any(|(name, value)| value.is_some() && name.as_bytes() == p.name);
        if sent || p.name == b"oauth_signature" {
            return Err(Error::ProtocolParameterInRequest {
                location: if p.source == Source::FormBody {
                    Source::FormBody
                } else {
                    Source::Query
                },
                name: String::from_utf8_lossy(p.name).into_owned(),
            });
        }
    }
    Ok(())
}
