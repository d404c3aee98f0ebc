//! Two base strings compared part by part: method, URI, parameters.

use std::collections::BTreeMap;
use std::fmt;

use crate::encode;

/// A part of a base string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Part {
    /// The first part, the HTTP method.
    Method,
    /// The second part, the encoded base string URI.
    Uri,
    /// The third part, the encoded normalized parameters.
    Parameters,
    /// The text is not a base string (not three parts joined by `&`).
    Shape,
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Part::Method => "method",
            Part::Uri => "URI",
            Part::Parameters => "parameters",
            Part::Shape => "shape",
        })
    }
}

/// Where and how an observed base string first differs from the reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    part: Part,
    offset: usize,
    summary: String,
}

impl Difference {
    /// The part in which they first differ.
    #[must_use]
    pub fn part(&self) -> Part {
        self.part
    }

    /// The byte offset of the first difference (in both strings: they agree before it).
    #[must_use]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What differs, in words: which parameters are missing or extra, the same parameters in
    /// another order, or the same decoded values encoded differently.
    #[must_use]
    pub fn summary(&self) -> &str {
        &self.summary
    }
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "first difference at byte {}, in the {}: {}",
            self.offset, self.part, self.summary
        )
    }
}

/// Compares the other side's base string (`observed`, or one reproduced from its signature)
/// with the `reference` one; `None` when they are equal. The summary names the other side's
/// as such, whichever it is.
///
/// ```
/// use oauth1_signer::explain::{compare, Part};
///
/// let reference = "GET&https%3A%2F%2Fapi.example.com%2Fx&a%3D1%26b%3D%2520";
/// let observed = "GET&https%3A%2F%2Fapi.example.com%2Fx&a%3D1%26b%3D%252B";
/// let difference = compare(reference, observed).unwrap();
/// assert_eq!(difference.part(), Part::Parameters);
/// assert_eq!(difference.offset(), 54);
/// assert_eq!(
///     difference.summary(),
///     "the value of \"b\" differs: \" \" in the reference, \"+\" in the other side's"
/// );
/// ```
#[must_use]
pub fn compare(reference: &str, observed: &str) -> Option<Difference> {
    if reference == observed {
        return None;
    }
    let offset = reference
        .bytes()
        .zip(observed.bytes())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| reference.len().min(observed.len()));
    let ours: Vec<&str> = reference.splitn(3, '&').collect();
    let theirs: Vec<&str> = observed.splitn(3, '&').collect();
    let (part, summary) = if ours.len() < 3 || theirs.len() < 3 {
        let (which, parts) = if ours.len() < 3 {
            ("reference", ours.len())
        } else {
            ("observed", theirs.len())
        };
        (
            Part::Shape,
            format!(
                "the {which} text is not a base string: it has {parts} part(s) joined by '&' where a base string has 3 (method, URI, parameters)"
            ),
        )
    } else if ours[0] != theirs[0] {
        (
            Part::Method,
            format!(
                "the methods differ: {:?} in the reference, {:?} in the other side's",
                ours[0], theirs[0]
            ),
        )
    } else if ours[1] != theirs[1] {
        (
            Part::Uri,
            format!(
                "the base string URIs differ: {:?} in the reference, {:?} in the other side's",
                lossy(&decode(ours[1])),
                lossy(&decode(theirs[1]))
            ),
        )
    } else {
        (Part::Parameters, parameters(ours[2], theirs[2]))
    };
    Some(Difference {
        part,
        offset,
        summary,
    })
}

/// One parameter of a normalized parameter string: as encoded there, and decoded.
struct Pair {
    encoded: String,
    name: Vec<u8>,
    value: Vec<u8>,
}

fn pairs(third_part: &str) -> Vec<Pair> {
    let normalized = lossy(&decode(third_part));
    normalized
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (name, value) = p.split_once('=').unwrap_or((p, ""));
            Pair {
                encoded: p.to_owned(),
                name: decode(name),
                value: decode(value),
            }
        })
        .collect()
}

fn parameters(reference: &str, observed: &str) -> String {
    let (ours, theirs) = (pairs(reference), pairs(observed));
    let mut names: BTreeMap<&[u8], i64> = BTreeMap::new();
    for p in &ours {
        *names.entry(&p.name).or_default() += 1;
    }
    for p in &theirs {
        *names.entry(&p.name).or_default() -= 1;
    }
    let list = |sign: i64| {
        names
            .iter()
            .filter(|&(_, &n)| n.signum() == sign)
            .map(|(name, &n)| {
                let times = if n.abs() > 1 {
                    format!(" ({} times)", n.abs())
                } else {
                    String::new()
                };
                format!("{:?}{times}", lossy(name))
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (missing, extra) = (list(1), list(-1));
    if !missing.is_empty() || !extra.is_empty() {
        let mut parts = Vec::new();
        if !missing.is_empty() {
            parts.push(format!("missing from the other side's: {missing}"));
        }
        if !extra.is_empty() {
            parts.push(format!("only in the other side's: {extra}"));
        }
        return format!("the parameters differ by name; {}", parts.join("; "));
    }
    if ours.is_empty() && theirs.is_empty() {
        return format!(
            "the parameter parts differ: {reference:?} in the reference, {observed:?} in the other side's"
        );
    }
    if decoded(&ours) != decoded(&theirs) {
        let (a, b) = ours
            .iter()
            .zip(&theirs)
            .find(|(a, b)| a.name == b.name && a.value != b.value)
            .or_else(|| ours.iter().zip(&theirs).find(|(a, b)| a.value != b.value))
            .unwrap_or((&ours[0], &theirs[0]));
        return format!(
            "the value of {:?} differs: {:?} in the reference, {:?} in the other side's",
            lossy(&a.name),
            lossy(&a.value),
            lossy(&b.value)
        );
    }
    let (a, b) = ours
        .iter()
        .zip(&theirs)
        .find(|(a, b)| a.encoded != b.encoded)
        .unwrap_or((&ours[0], &theirs[0]));
    if encoded(&ours) == encoded(&theirs) {
        format!(
            "the same parameters in another order: {:?} comes first in the reference, {:?} in the other side's",
            a.encoded, b.encoded
        )
    } else {
        let twin = theirs
            .iter()
            .find(|t| t.name == a.name && t.value == a.value && t.encoded != a.encoded)
            .unwrap_or(b);
        format!(
            "the same decoded names and values, encoded differently: {:?} in the reference, {:?} in the other side's",
            a.encoded, twin.encoded
        )
    }
}

/// The decoded (name, value) pairs, sorted.
fn decoded(ps: &[Pair]) -> Vec<(&[u8], &[u8])> {
    let mut all: Vec<(&[u8], &[u8])> = ps
        .iter()
        .map(|p| (p.name.as_slice(), p.value.as_slice()))
        .collect();
    all.sort_unstable();
    all
}

/// The encoded `name=value` pairs, sorted.
fn encoded(ps: &[Pair]) -> Vec<&str> {
    let mut all: Vec<&str> = ps.iter().map(|p| p.encoded.as_str()).collect();
    all.sort_unstable();
    all
}

/// Percent-decodes `text` once, keeping any malformed escape as it is.
fn decode(text: &str) -> Vec<u8> {
    encode::decode(text.as_bytes())
        .map_or_else(|_| text.as_bytes().to_vec(), std::borrow::Cow::into_owned)
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
