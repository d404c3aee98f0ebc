//! How a variant's parameter string and base string are put together: the names and values
//! encoded by the encoding causes' rules, sorted by the sorting causes, and the whole encoded
//! again (or not, or as JavaScript's `encodeURIComponent` does).

use super::{Cause, Switches};
use crate::base_string::BaseString;
use crate::explain::wrong::{self, Rules};
use crate::params::{Parameter, Parameters, Source};

/// The normalized parameter string as the encoding and sorting switches make it.
pub(super) fn parameter_string(
    params: &Parameters,
    switches: Switches,
    query_as_sent: bool,
) -> Vec<u8> {
    let rules = Rules {
        space_as_plus: switches.has(Cause::PlusForSpace),
        sub_delims_literal: switches.has(Cause::UnencodedSubDelims),
        tilde_escaped: switches.has(Cause::TildeEncoded),
        lowercase_hex: switches.has(Cause::LowercaseHex),
        reserved_literal: switches.has(Cause::ReservedUnencoded),
        slash_literal: switches.has(Cause::SlashUnencoded),
    };
    let latin1 = switches.has(Cause::Latin1NotUtf8);
    let times = if switches.has(Cause::ParametersNotEncoded) {
        Times::None
    } else if switches.has(Cause::ParametersEncodedTwice) {
        Times::Twice
    } else {
        Times::Once
    };
    let protocol_raw = switches.has(Cause::ProtocolValuesEncodedOnce);
    let names_raw = switches.has(Cause::NamesNotEncoded);
    // Mastercard's Python signer writes the space that `+` decoded to back as `+`.
    let plus_back = switches.has(Cause::UnescapedQueryEncodedOnce);
    let as_sent_text = |text: &[u8], out: &mut Vec<u8>| {
        if plus_back {
            out.extend(text.iter().map(|&b| if b == b' ' { b'+' } else { b }));
        } else {
            out.extend_from_slice(text);
        }
    };
    let mut pairs: Vec<(Parameter<'_>, Vec<u8>, usize)> = params
        .iter()
        .map(|p| {
            // The protocol parameters, which the signer writes itself, are encoded whatever the
            // request's own parameters are not ([`Cause::ProtocolValuesEncodedOnce`] leaves
            // their values alone).
            let times = if p.source == Source::Protocol && times == Times::None {
                Times::Once
            } else {
                times
            };
            let mut encoded = Vec::new();
            // The query as sent: its names and values are the bytes on the wire already.
            let as_sent = query_as_sent && p.source == Source::Query;
            if as_sent {
                as_sent_text(p.name, &mut encoded);
            } else if names_raw {
                encoded.extend_from_slice(p.name);
            } else {
                encode_text(p.name, rules, latin1, times, &mut encoded);
            }
            let name_len = encoded.len();
            encoded.push(b'=');
            if as_sent {
                as_sent_text(p.value, &mut encoded);
            } else if protocol_raw && p.source == Source::Protocol {
                encoded.extend_from_slice(p.value);
            } else {
                encode_text(p.value, rules, latin1, times, &mut encoded);
            }
            (p, encoded, name_len)
        })
        .collect();
    let by_encoded = |a: &(Parameter<'_>, Vec<u8>, usize), b: &(Parameter<'_>, Vec<u8>, usize)| {
        a.1[..a.2]
            .cmp(&b.1[..b.2])
            .then_with(|| a.1[a.2 + 1..].cmp(&b.1[b.2 + 1..]))
    };
    if switches.has(Cause::SortedBeforeEncoding) {
        pairs.sort_by(|a, b| {
            a.0.name
                .cmp(b.0.name)
                .then_with(|| a.0.value.cmp(b.0.value))
        });
    } else if switches.has(Cause::SortedAsStrings) {
        pairs.sort_by(|a, b| a.1.cmp(&b.1));
    } else if switches.has(Cause::SortedByNameOnly) {
        // By encoded name alone: a repeated name's values stay in the order collected, the
        // query's before the body's (a stable sort).
        pairs.sort_by(|a, b| {
            a.1[..a.2]
                .cmp(&b.1[..b.2])
                .then_with(|| source_rank(&a.0).cmp(&source_rank(&b.0)))
        });
    } else if switches.has(Cause::NotSorted) {
        // Query, then body, in the order collected; the protocol parameters sorted after them.
        let rank = source_rank;
        pairs.sort_by(|a, b| {
            rank(&a.0).cmp(&rank(&b.0)).then_with(|| {
                if rank(&a.0) == 2 {
                    by_encoded(a, b)
                } else {
                    std::cmp::Ordering::Equal
                }
            })
        });
    } else {
        pairs.sort_by(by_encoded);
    }
    let mut out = Vec::new();
    for (i, (_, encoded, _)) in pairs.iter().enumerate() {
        if i > 0 {
            out.push(b'&');
        }
        out.extend_from_slice(encoded);
    }
    out
}

/// Where a parameter was collected, in the order a collector reads the sources: the query,
/// the body, then the protocol parameters.
fn source_rank(p: &Parameter<'_>) -> u8 {
    match p.source {
        Source::Query => 0,
        Source::FormBody => 1,
        _ => 2,
    }
}

/// How many times names and values are encoded before they are joined.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Times {
    None,
    Once,
    Twice,
}

/// Encodes a name or value by `rules` (`times` over), first as ISO-8859-1 when `latin1`
/// (characters outside it as `?`; bytes that are not UTF-8 stay as they are).
fn encode_text(bytes: &[u8], rules: Rules, latin1: bool, times: Times, out: &mut Vec<u8>) {
    let transcoded: Vec<u8>;
    let bytes = match std::str::from_utf8(bytes) {
        Ok(text) if latin1 => {
            transcoded = text
                .chars()
                .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
                .collect();
            &transcoded[..]
        }
        _ => bytes,
    };
    match times {
        Times::None => out.extend_from_slice(bytes),
        Times::Once => wrong::encode_by(bytes, rules, out),
        Times::Twice => {
            let mut once = Vec::with_capacity(bytes.len() * 3);
            wrong::encode_by(bytes, rules, &mut once);
            wrong::encode_by(&once, rules, out);
        }
    }
}

/// The base string of [`Cause::QueryAsSentEncodedOnce`]: the URI and the parameter string
/// encoded as JavaScript's `encodeURIComponent` does (`! * ' ( )` left alone), then
/// `replace('*', '%2A')` on the parameter part and `replace(/!/, '%21')` on the whole, each of
/// which replaces the first occurrence only.
pub(super) fn encoded_once_by_javascript(method: &str, uri: &str, normalized: &[u8]) -> BaseString {
    let javascript = Rules {
        sub_delims_literal: true,
        ..Rules::RFC
    };
    let mut method_part = Vec::new();
    wrong::encode_by(method.as_bytes(), Rules::RFC, &mut method_part);
    let mut uri_part = Vec::new();
    wrong::encode_by(uri.as_bytes(), javascript, &mut uri_part);
    let mut params_part = Vec::new();
    wrong::encode_by(normalized, javascript, &mut params_part);
    replace_first(&mut params_part, b'*', b"%2A");
    // The first ! of the base string, in whichever part it is.
    let _ = replace_first(&mut method_part, b'!', b"%21")
        || replace_first(&mut uri_part, b'!', b"%21")
        || replace_first(&mut params_part, b'!', b"%21");
    BaseString::assemble_encoded(&method_part, &uri_part, &params_part)
}

/// Replaces the first `byte` of `text` by `with`; whether there was one.
fn replace_first(text: &mut Vec<u8>, byte: u8, with: &[u8]) -> bool {
    match text.iter().position(|&b| b == byte) {
        Some(at) => {
            text.splice(at..=at, with.iter().copied());
            true
        }
        None => false,
    }
}
