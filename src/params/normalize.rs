//! Normalization (RFC 5849 §3.4.1.3.2): the parameters sorted by encoded name, then encoded
//! value, bytewise, without encoding them to sort, and the normalized parameter string written
//! once or twice encoded.

use std::cmp::Ordering;
use std::fmt;

use super::{Entry, Parameter, Parameters, Source, Span};
use crate::encode::{self, is_unreserved, Counted};

impl Parameters {
    /// Sorts the parameters by encoded name, then encoded value (§3.4.1.3.2), in place.
    #[must_use]
    pub fn normalize(mut self) -> Normalized {
        let bytes = &self.bytes;
        // A merge sort, which finds the runs already in order (the protocol parameters, which
        // come sorted; a query its client wrote in order) and merges them, where a quicksort
        // would sort them again.
        // The keys decide most comparisons: that test alone is inlined into the sort.
        self.entries.sort_by(|a, b| match a.key.cmp(&b.key) {
            Ordering::Equal => tie(bytes, a, b),
            decided => decided,
        });
        Normalized(self)
    }
}

/// The order of two entries whose sort keys are equal: by encoded name, then encoded value.
#[inline(never)]
fn tie(bytes: &[u8], a: &Entry, b: &Entry) -> Ordering {
    if a.clean && b.clean {
        // Unreserved bytes are their own encodings.
        return bytes[a.name_start..a.name_end]
            .cmp(&bytes[b.name_start..b.name_end])
            .then_with(|| bytes[a.name_end..a.value_end].cmp(&bytes[b.name_end..b.value_end]));
    }
    cmp_encoded(
        &bytes[a.name_start..a.name_end],
        &bytes[b.name_start..b.name_end],
    )
    .then_with(|| {
        cmp_encoded(
            &bytes[a.name_end..a.value_end],
            &bytes[b.name_end..b.value_end],
        )
    })
}

/// Parameters sorted as §3.4.1.3.2 says; `Display` writes the normalized parameter string
/// (`name=value` pairs, each encoded, joined by `&`).
#[derive(Clone, Debug)]
pub struct Normalized(Parameters);

impl Normalized {
    /// The parameters in normalized order.
    #[must_use]
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Parameter<'_>> + Clone + '_ {
        self.0.iter()
    }

    /// The parameters from `source` in normalized order, their names and values counted (with
    /// no pass over a clean pair's bytes).
    pub(crate) fn counted_from(
        &self,
        source: Source,
    ) -> impl Iterator<Item = (Counted<'_>, Counted<'_>)> + Clone + '_ {
        (self.0.entries.iter())
            .filter(move |e| e.source == source)
            .map(|e| {
                let p = self.0.parameter(e);
                let clean = |bytes| Counted { bytes, escapes: 0 };
                match (e.clean, e.name_clean) {
                    (true, _) => (clean(p.name), clean(p.value)),
                    (false, true) => (clean(p.name), Counted::new(p.value)),
                    (false, false) => (Counted::new(p.name), Counted::new(p.value)),
                }
            })
    }

    /// The bytes at `span` (from [`Parameters::with_value_spans`] before normalizing); none
    /// for no span.
    #[must_use]
    pub fn at(&self, span: Option<&Span>) -> &[u8] {
        self.0.at(span)
    }

    /// The number of parameters.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no parameters.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The length of the normalized parameter string.
    #[must_use]
    pub fn encoded_len(&self) -> usize {
        self.iter()
            .map(|p| encode::encoded_len(p.name) + encode::encoded_len(p.value) + 2)
            .sum::<usize>()
            .saturating_sub(1)
    }

    /// The length of the normalized parameter string percent-encoded once more.
    pub(crate) fn encoded_twice_len(&self) -> usize {
        // Each pair adds "%3D" and, but for the last, "%26". Only pairs that are not clean
        // have escapes: they are counted one by one, unless they make up most of the buffer,
        // which then is counted in one pass if it holds nothing else (after `retain` it also
        // holds the zeroed bytes of the pairs taken out).
        let Parameters { bytes, entries } = &self.0;
        let (live, dirty) = entries.iter().fold((0, 0), |(live, dirty), e| {
            let len = e.value_end - e.name_start;
            (live + len, dirty + if e.clean { 0 } else { len })
        });
        let escapes = if live == bytes.len() && 2 * dirty > live {
            encode::escaped_count(bytes)
        } else {
            (entries.iter())
                .filter(|e| !e.clean)
                .map(|e| encode::escaped_count(&bytes[e.name_start..e.value_end]))
                .sum()
        };
        (live + 4 * escapes + 6 * entries.len()).saturating_sub(3)
    }

    /// Writes the normalized parameter string, percent-encoded once more, as the third part of
    /// the base string (§3.4.1.1) needs it.
    pub(crate) fn write_twice(&self, out: &mut impl encode::Text) {
        // Made (zeroed) only when a name or value needs escapes, by a writer that uses one.
        let mut scratch = None;
        for (i, e) in self.0.entries.iter().enumerate() {
            if i > 0 {
                out.raw(b"%26");
            }
            let p = self.0.parameter(e);
            if e.clean {
                out.raw(p.name);
                out.raw(b"%3D");
                out.raw(p.value);
            } else {
                if e.name_clean {
                    out.raw(p.name);
                } else {
                    out.twice(p.name, &mut scratch);
                }
                out.raw(b"%3D");
                out.twice(p.value, &mut scratch);
            }
        }
    }
}

impl fmt::Display for Normalized {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.iter().enumerate() {
            if i > 0 {
                f.write_str("&")?;
            }
            encode::encode(p.name).write_to(f)?;
            f.write_str("=")?;
            encode::encode(p.value).write_to(f)?;
        }
        Ok(())
    }
}

/// For each byte, its rank in the order of encoded text: every escaped byte (whose encoding
/// starts with `%`, 0x25) ranks below every unreserved byte (all of which are above 0x25);
/// escapes compare by their hex digits, which in uppercase order like the bytes they stand for;
/// unreserved bytes compare as themselves. So comparing ranks byte by byte orders decoded
/// strings exactly as comparing their encodings would, without encoding them.
pub(super) static ENCODED_ORDER: [u8; 256] = {
    let mut rank = [0u8; 256];
    let mut next = 0u8;
    let mut pass = 0;
    while pass < 2 {
        let mut b = 0usize;
        while b < 256 {
            #[allow(clippy::cast_possible_truncation)] // b < 256
            let unreserved = is_unreserved(b as u8);
            if unreserved == (pass == 1) {
                rank[b] = next;
                next = next.wrapping_add(1);
            }
            b += 1;
        }
        pass += 1;
    }
    rank
};

/// Compares two decoded byte strings in the order of their percent-encodings.
pub(super) fn cmp_encoded(a: &[u8], b: &[u8]) -> Ordering {
    let common = a.len().min(b.len());
    for i in 0..common {
        if a[i] != b[i] {
            return ENCODED_ORDER[usize::from(a[i])].cmp(&ENCODED_ORDER[usize::from(b[i])]);
        }
    }
    a.len().cmp(&b.len())
}
