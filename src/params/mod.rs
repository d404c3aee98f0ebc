//! Request parameters: their sources (RFC 5849 §3.4.1.3.1) and their normalization
//! (§3.4.1.3.2).
//!
//! [`Parameters`] collects decoded names and values, each with its [`Source`], duplicates kept,
//! in one buffer (no allocation per parameter). [`Parameters::normalize`] sorts them by encoded
//! name, then encoded value, bytewise, giving the [`Normalized`] parameters whose `Display` is
//! the normalized parameter string.
//!
//! ```
//! use oauth1_signer::params::{Parameters, Source};
//!
//! let mut params = Parameters::new();
//! params.extend_urlencoded(Source::Query, b"b5=%3D%253D&a3=a&c%40=&a2=r%20b")?;
//! params.extend_urlencoded(Source::FormBody, b"c2&a3=2+q")?;
//! params.push(Source::Protocol, b"oauth_nonce", b"7d8f3e4a");
//! assert_eq!(
//!     params.normalize().to_string(),
//!     "a2=r%20b&a3=2%20q&a3=a&b5=%3D%253D&c%40=&c2=&oauth_nonce=7d8f3e4a"
//! );
//! # Ok::<(), oauth1_signer::encode::DecodeError>(())
//! ```

use std::fmt;

use crate::encode::{self, DecodeError, Unreserved, Value};

mod normalize;
pub use normalize::Normalized;
#[cfg(test)]
use normalize::{cmp_encoded, ENCODED_ORDER};

/// Where a parameter came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Source {
    /// The query of the request URL.
    Query,
    /// A form body (`application/x-www-form-urlencoded`), as `http::Transport::FormBody` names
    /// it.
    FormBody,
    /// The protocol parameters (`oauth_*`) that the signer adds.
    Protocol,
    /// The parameters of a received `Authorization` header, as a server reads them.
    Header,
}

impl Source {
    /// Where it is, as a phrase: "the query", "the form body", "the protocol parameters",
    /// "the Authorization header".
    #[must_use]
    pub fn place(self) -> &'static str {
        match self {
            Source::Query => "the query",
            Source::FormBody => "the form body",
            Source::Protocol => "the protocol parameters",
            Source::Header => "the Authorization header",
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Source::Query => "query",
            Source::FormBody => "body",
            Source::Protocol => "oauth",
            Source::Header => "header",
        })
    }
}

/// One decoded parameter, borrowed from [`Parameters`] or [`Normalized`].
#[derive(Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Parameter<'a> {
    /// Where it came from.
    pub source: Source,
    /// The decoded name.
    pub name: &'a [u8],
    /// The decoded value (empty for a name without `=`).
    pub value: &'a [u8],
}

impl fmt::Debug for Parameter<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: \"{}\" = \"{}\"",
            self.source,
            self.name.escape_ascii(),
            self.value.escape_ascii()
        )
    }
}

/// Where a parameter's value lies in its [`Parameters`] ([`Parameters::with_value_spans`]).
/// It holds through [`Parameters::retain`] (for the parameters kept) and
/// [`Parameters::normalize`], so that a verifier finds the protocol parameters once, in the
/// order they were collected, and reads them after sorting. Read in another collection, a span
/// gives that collection's bytes there, or none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span(std::ops::Range<usize>);

#[derive(Clone, Copy, Debug)]
struct Entry {
    source: Source,
    /// Name and value are all unreserved bytes, so each is its own encoding: the base string
    /// and the header copy them, and the sort compares them as they are.
    clean: bool,
    /// The name alone is all unreserved bytes (its own encoding), whatever the value.
    name_clean: bool,
    /// [`encode::sort_key`] of the name, which decides most comparisons in the sort.
    key: u64,
    name_start: usize,
    name_end: usize,
    value_end: usize,
}

/// Decoded parameters in the order they were collected, duplicates kept. `Debug` lists them.
#[derive(Clone, Default)]
pub struct Parameters {
    bytes: Vec<u8>,
    entries: Vec<Entry>,
}

impl fmt::Debug for Parameters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The bytes a parameter buffer first makes room for, when it was not sized in advance.
const FIRST_ROOM: usize = 128;

impl Parameters {
    /// No parameters.
    #[must_use]
    pub fn new() -> Self {
        Parameters::default()
    }

    /// Room for `count` parameters holding `bytes` bytes in all, so that collecting allocates
    /// once per buffer.
    #[must_use]
    pub fn with_capacity(count: usize, bytes: usize) -> Self {
        Parameters {
            bytes: Vec::with_capacity(bytes),
            entries: Vec::with_capacity(count),
        }
    }

    /// A copy with room for `count` more parameters and `bytes` more bytes.
    pub(crate) fn copy_with_room(&self, count: usize, bytes: usize) -> Parameters {
        let mut copy =
            Parameters::with_capacity(self.entries.len() + count, self.bytes.len() + bytes);
        copy.bytes.extend_from_slice(&self.bytes);
        copy.entries.extend_from_slice(&self.entries);
        copy
    }

    /// Room for `count` more parameters and `bytes` more bytes. A byte buffer without that
    /// room is copied into one with it and wiped, never left behind in freed memory (it may
    /// hold a PLAINTEXT signature).
    pub(crate) fn make_room(&mut self, count: usize, bytes: usize) {
        if self.bytes.capacity() - self.bytes.len() < bytes {
            let grown = self.copy_with_room(count, bytes);
            self.wipe();
            *self = grown;
        } else {
            self.entries.reserve(count);
        }
    }

    /// Adds one decoded parameter.
    pub fn push(&mut self, source: Source, name: &[u8], value: &[u8]) {
        // Room for the name and value at once; a buffer's first room is for a few parameters,
        // so that a request given one by one does not grow it at every one.
        let additional = name.len() + value.len();
        if self.bytes.capacity() == 0 {
            self.bytes.reserve(additional.max(FIRST_ROOM));
        } else {
            self.bytes.reserve(additional);
        }
        let name_clean = encode::is_clean(name);
        let clean = name_clean && encode::is_clean(value);
        let key = name_key(name, name_clean);
        self.push_checked(source, name, value, (clean, name_clean), key);
    }

    /// Adds decoded parameters from `source` in order, with room for the entries made once.
    pub(crate) fn extend<N, V>(&mut self, source: Source, pairs: impl IntoIterator<Item = (N, V)>)
    where
        N: AsRef<[u8]>,
        V: AsRef<[u8]>,
    {
        let pairs = pairs.into_iter();
        self.entries.reserve(pairs.size_hint().0);
        for (name, value) in pairs {
            self.push(source, name.as_ref(), value.as_ref());
        }
    }

    /// Adds a protocol parameter: an unreserved `oauth_*` name, whose sort key is its first 8
    /// bytes when it has 8, and a value checked for bytes to escape unless it comes with the
    /// proof that it has none.
    pub(crate) fn push_protocol(&mut self, name: Unreserved<'static>, value: Value<'_>) {
        let name = name.as_bytes();
        let key = (name.first_chunk::<8>())
            .map_or_else(|| encode::sort_key(name), |head| u64::from_be_bytes(*head));
        self.push_checked(
            Source::Protocol,
            name,
            value.as_bytes(),
            (value.is_clean(), true),
            key,
        );
    }

    /// Adds one decoded parameter whose name and value are known to be clean or not, and its
    /// name alone (`(clean, name_clean)`), with its name's sort key.
    fn push_checked(
        &mut self,
        source: Source,
        name: &[u8],
        value: &[u8],
        (clean, name_clean): (bool, bool),
        key: u64,
    ) {
        let name_start = self.bytes.len();
        self.bytes.extend_from_slice(name);
        let name_end = self.bytes.len();
        self.bytes.extend_from_slice(value);
        self.entries.push(Entry {
            source,
            clean,
            name_clean,
            key,
            name_start,
            name_end,
            value_end: self.bytes.len(),
        });
    }

    /// Adds a parameter of the Authorization header: `name`, and `value` strictly
    /// percent-decoded (`+` stays `+`), straight into the buffer.
    ///
    /// # Errors
    ///
    /// A malformed percent-escape, with its offset in `value`. Nothing is added then, and the
    /// bytes decoded before it are wiped.
    pub(crate) fn push_header(
        &mut self,
        name: &str,
        clean_name: Option<Unreserved<'_>>,
        value: Value<'_>,
    ) -> Result<(), DecodeError> {
        let name_start = self.bytes.len();
        self.bytes.extend_from_slice(name.as_bytes());
        let name_end = self.bytes.len();
        // Unreserved bytes (what signers send but for the signature) have no escape to decode:
        // they are copied as they are.
        let clean_value = value.is_clean();
        let value = value.as_bytes();
        if clean_value {
            self.bytes.extend_from_slice(value);
        } else if let Err(e) = encode::decode_to_vec(value, false, &mut self.bytes) {
            // What was decoded may be part of a PLAINTEXT signature, which is a key.
            zeroize::Zeroize::zeroize(&mut self.bytes[name_start..]);
            self.bytes.truncate(name_start);
            return Err(e);
        }
        let name = &self.bytes[name_start..name_end];
        let name_clean = clean_name.is_some() || encode::is_clean(name);
        let clean = name_clean && (clean_value || encode::is_clean(&self.bytes[name_end..]));
        self.entries.push(Entry {
            source: Source::Header,
            clean,
            name_clean,
            key: name_key(name, name_clean),
            name_start,
            name_end,
            value_end: self.bytes.len(),
        });
        Ok(())
    }

    /// Adds the parameters of a query string or form body (`name=value` pairs joined by `&`),
    /// strictly decoding each name and value (`+` is a space). A name without `=` has an empty
    /// value; empty pairs (`a=1&&b=2`) are skipped.
    ///
    /// # Errors
    ///
    /// A malformed percent-escape, with its offset in `text`. Nothing is added then.
    pub fn extend_urlencoded(&mut self, source: Source, text: &[u8]) -> Result<(), DecodeError> {
        let (bytes_before, entries_before) = (self.bytes.len(), self.entries.len());
        let result = self.try_extend_urlencoded(source, text);
        if result.is_err() {
            // What was decoded may hold a PLAINTEXT signature, which is a key.
            zeroize::Zeroize::zeroize(&mut self.bytes[bytes_before..]);
            self.bytes.truncate(bytes_before);
            self.entries.truncate(entries_before);
        }
        result
    }

    fn try_extend_urlencoded(&mut self, source: Source, text: &[u8]) -> Result<(), DecodeError> {
        // Decoded into room made up front (decoding never lengthens), then trimmed.
        let base = self.bytes.len();
        self.bytes.resize(base + text.len(), 0);
        let (bytes, entries) = (&mut self.bytes, &mut self.entries);
        let n = encode::decode_pairs(text, &mut bytes[base..], |pair, name| {
            let name_clean = pair.clean || encode::is_clean(name);
            entries.push(Entry {
                source,
                clean: pair.clean,
                name_clean,
                key: name_key(name, name_clean),
                name_start: base + pair.name_start,
                name_end: base + pair.name_end,
                value_end: base + pair.value_end,
            });
        })?;
        self.bytes.truncate(base + n);
        Ok(())
    }

    /// Keeps only the parameters for which `keep` is true (a server leaves `oauth_signature`
    /// out of the base string this way). The bytes of the others are overwritten with zeros, by
    /// volatile writes that the compiler keeps: a PLAINTEXT signature is a key.
    pub fn retain(&mut self, mut keep: impl FnMut(Parameter<'_>) -> bool) {
        let bytes = &mut self.bytes;
        self.entries.retain(|e| {
            let kept = keep(Parameter {
                source: e.source,
                name: &bytes[e.name_start..e.name_end],
                value: &bytes[e.name_end..e.value_end],
            });
            if !kept {
                zeroize::Zeroize::zeroize(&mut bytes[e.name_start..e.value_end]);
            }
            kept
        });
    }

    /// Overwrites every byte held with zeros and holds nothing more: for parameters given up
    /// on, which may hold a PLAINTEXT signature.
    pub(crate) fn wipe(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.bytes[..]);
        self.bytes.clear();
        self.entries.clear();
    }

    /// The number of parameters.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no parameters.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The parameters in the order they were collected.
    #[must_use]
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Parameter<'_>> + Clone + '_ {
        self.entries.iter().map(|e| self.parameter(e))
    }

    /// The parameters in the order they were collected, each with where its value lies in the
    /// buffer, which stays put through [`Parameters::normalize`], and through
    /// [`Parameters::retain`] for the parameters it keeps.
    pub fn with_value_spans(&self) -> impl Iterator<Item = (Parameter<'_>, Span)> + '_ {
        (self.entries.iter()).map(|e| (self.parameter(e), Span(e.name_end..e.value_end)))
    }

    /// The bytes at `span` (from [`Parameters::with_value_spans`]); none for no span.
    #[must_use]
    pub fn at(&self, span: Option<&Span>) -> &[u8] {
        span.and_then(|span| self.bytes.get(span.0.clone()))
            .unwrap_or_default()
    }

    fn parameter(&self, entry: &Entry) -> Parameter<'_> {
        Parameter {
            source: entry.source,
            name: &self.bytes[entry.name_start..entry.name_end],
            value: &self.bytes[entry.name_end..entry.value_end],
        }
    }
}

/// [`encode::sort_key`] of a name, taken without the encoder when the name is known to be
/// clean (`name_clean`).
fn name_key(name: &[u8], name_clean: bool) -> u64 {
    if name_clean {
        encode::sort_key_of_clean(name)
    } else {
        encode::sort_key(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(bytes: &[u8]) -> String {
        encode::encode(bytes).to_string()
    }

    #[test]
    fn rank_order_equals_encoded_order() {
        let alphabet: Vec<u8> = vec![
            0, b' ', b'%', b'+', b'-', b'.', b'/', b'0', b'9', b'=', b'A', b'Z', b'_', b'a', b'z',
            b'~', 0x7f, 0xc3, 0xff,
        ];
        let mut strings: Vec<Vec<u8>> = vec![Vec::new()];
        for &a in &alphabet {
            strings.push(vec![a]);
            for &b in &alphabet {
                strings.push(vec![a, b]);
            }
        }
        for x in &strings {
            for y in &strings {
                assert_eq!(cmp_encoded(x, y), enc(x).cmp(&enc(y)), "{x:?} vs {y:?}");
            }
        }
    }

    #[test]
    fn sort_keys_agree_with_the_encoded_order() {
        let alphabet = b"\0 %+-./09=AZ_az~\x7f\xc3\xff";
        let mut strings: Vec<Vec<u8>> = vec![Vec::new()];
        for prefix in [&b""[..], b"abcdefg", b"oauth_", b"\xc3\xa9"] {
            for &a in alphabet {
                strings.push([prefix, &[a]].concat());
                for &b in alphabet {
                    strings.push([prefix, &[a, b]].concat());
                }
            }
        }
        let mut decided = 0;
        for x in &strings {
            for y in &strings {
                let (kx, ky) = (encode::sort_key(x), encode::sort_key(y));
                let (ex, ey) = (enc(x), enc(y));
                if kx == ky {
                    let head = |e: &str| e.as_bytes()[..e.len().min(8)].to_vec();
                    assert_eq!(head(&ex), head(&ey), "{x:?} vs {y:?}");
                } else {
                    assert_eq!(kx.cmp(&ky), ex.cmp(&ey), "{x:?} vs {y:?}");
                    decided += 1;
                }
            }
        }
        assert!(decided > strings.len() * strings.len() / 2);
        // The key of a clean name, taken as it is, is the key its encoding gives.
        for x in strings.iter().filter(|x| encode::is_clean(x)) {
            assert_eq!(encode::sort_key_of_clean(x), encode::sort_key(x), "{x:?}");
        }
    }

    #[test]
    fn entries_know_whether_they_are_clean_and_their_sort_keys_however_they_came() {
        let mut params = Parameters::new();
        let text = b"a=1&b%20c=d+e&oauth_x=%7E~&%C3%A9=%25&n=a%3Db=c&&plain&=v&q=x%2b&t=%41";
        params.extend_urlencoded(Source::Query, text).unwrap();
        params.push(Source::Protocol, b"oauth_nonce", b"abc");
        params.push(Source::Protocol, b"x y", b"\xff");
        assert_eq!(params.len(), 11);
        for e in &params.entries {
            let p = params.parameter(e);
            let escapes = encode::escaped_count(p.name) + encode::escaped_count(p.value);
            // Clean means nothing to escape; a decoded escape makes a pair count as unclean
            // even when it stands for an unreserved byte (`%41`, `%7E`).
            assert!(!e.clean || escapes == 0, "{p:?}");
            let clean = !text_had_escape(p) && escapes == 0;
            assert_eq!(e.clean, clean, "{p:?}");
            assert_eq!(e.name_clean, encode::escaped_count(p.name) == 0, "{p:?}");
            assert_eq!(e.key, encode::sort_key(p.name), "{p:?}");
        }
        let normalized = params.clone().normalize();
        let string = normalized.to_string();
        assert_eq!(normalized.encoded_twice_len(), enc(string.as_bytes()).len());
        params.retain(|p| p.name != b"a");
        let normalized = params.normalize();
        let string = normalized.to_string();
        assert_eq!(normalized.encoded_twice_len(), enc(string.as_bytes()).len());
    }

    #[test]
    fn header_parameters_are_decoded_in_place_and_know_whether_they_are_clean() {
        let mut params = Parameters::new();
        params.extend_urlencoded(Source::Query, b"q=1").unwrap();
        let sent: [(&str, &[u8], &[u8]); 5] = [
            ("oauth_nonce", b"abc", b"abc"),
            ("oauth_token", b"a%7Eb", b"a~b"),
            ("oauth_signature", b"%2Fx%3D", b"/x="),
            ("a!b", b"v", b"v"),
            ("oauth_callback", b"x+y", b"x+y"),
        ];
        // With the proofs of cleanness a parser finds on its way, as the header's gives them.
        let proved = |bytes: &'static [u8]| {
            let (clean, rest) = encode::split_unreserved(bytes);
            rest.is_empty().then_some(clean)
        };
        for (name, value, _) in sent {
            let value = proved(value).map_or(Value::Unchecked(value), Value::Unreserved);
            params
                .push_header(name, proved(name.as_bytes()), value)
                .unwrap();
        }
        // A bad escape adds nothing and leaves no byte of what it decoded.
        let held = params.bytes.len();
        let error = params
            .push_header("oauth_verifier", None, Value::Unchecked(b"ab%4"))
            .unwrap_err();
        assert_eq!(error.offset(), 2);
        assert_eq!(params.bytes.len(), held);
        assert_eq!(params.len(), 6);
        for (e, (name, _, decoded)) in params.entries[1..].iter().zip(sent) {
            let p = params.parameter(e);
            assert_eq!(
                (p.source, p.name, p.value),
                (Source::Header, name.as_bytes(), decoded)
            );
            let escapes = encode::escaped_count(p.name) + encode::escaped_count(p.value);
            assert_eq!(e.clean, escapes == 0, "{p:?}");
            assert_eq!(e.name_clean, encode::escaped_count(p.name) == 0, "{p:?}");
            assert_eq!(e.key, encode::sort_key(p.name), "{p:?}");
        }
    }

    /// Whether the pair came from the text above through a decoded escape.
    fn text_had_escape(p: Parameter<'_>) -> bool {
        matches!(p.name, b"oauth_x" | b"t")
    }

    #[test]
    fn rank_is_a_permutation() {
        let mut seen = [false; 256];
        for r in ENCODED_ORDER {
            seen[usize::from(r)] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn collects_with_sources_duplicates_and_empty_values() {
        let mut params = Parameters::new();
        params
            .extend_urlencoded(Source::Query, b"a=1&&a=1&name&=v&x=%FF+")
            .unwrap();
        let got: Vec<(Source, &[u8], &[u8])> =
            params.iter().map(|p| (p.source, p.name, p.value)).collect();
        let q = Source::Query;
        assert_eq!(
            got,
            [
                (q, &b"a"[..], &b"1"[..]),
                (q, b"a", b"1"),
                (q, b"name", b""),
                (q, b"", b"v"),
                (q, b"x", b"\xff "),
            ]
        );
    }

    #[test]
    fn a_bad_escape_adds_nothing_and_says_where() {
        let mut params = Parameters::new();
        params.push(Source::Protocol, b"oauth_nonce", b"n");
        let err = params
            .extend_urlencoded(Source::FormBody, b"ok=1&a=%2x")
            .unwrap_err();
        assert_eq!(err.offset(), 7);
        assert_eq!(params.len(), 1);
        let err = params
            .extend_urlencoded(Source::FormBody, b"ok=1&a%=1")
            .unwrap_err();
        assert_eq!(err.offset(), 6);
    }

    #[test]
    fn normalizes_by_encoded_name_then_encoded_value() {
        // The oauth.net wiki "Normalize Request Parameters" rows.
        let rows: [(&[u8], &str); 5] = [
            (b"name", "name="),
            (b"a=b", "a=b"),
            (b"a=b&c=d", "a=b&c=d"),
            (b"a=x!y&a=x+y", "a=x%20y&a=x%21y"),
            (b"x!y=a&x=a", "x=a&x%21y=a"),
        ];
        for (input, expected) in rows {
            let mut params = Parameters::new();
            params.extend_urlencoded(Source::Query, input).unwrap();
            assert_eq!(params.normalize().to_string(), expected);
        }
    }

    #[test]
    fn encoded_twice_is_the_encoding_of_the_normalized_string() {
        // Mostly escapes; mostly clean with one pair to escape; and either after `retain`.
        let texts: [&[u8]; 2] = [
            b"b*=%E2%98%83&a=x+y&a=x%21y&c",
            b"include_entities=true&oauth_consumer_key=abcdefghijklmnopqrstuvwxyz&s+t=a+b!",
        ];
        for text in texts {
            for retain in [false, true] {
                let mut params = Parameters::new();
                params.extend_urlencoded(Source::Query, text).unwrap();
                if retain {
                    params.retain(|p| p.name != b"c" && p.name != b"include_entities");
                }
                let normalized = params.normalize();
                let mut writer = encode::Writer::with_len(normalized.encoded_twice_len());
                normalized.write_twice(&mut writer);
                let twice = writer.finish();
                assert_eq!(twice.len(), normalized.encoded_twice_len());
                assert_eq!(twice.capacity(), normalized.encoded_twice_len() + 8, "grew");
                let string = normalized.to_string();
                assert_eq!(String::from_utf8(twice).unwrap(), enc(string.as_bytes()));
                assert_eq!(normalized.encoded_len(), string.len());
            }
        }
    }
}
