//! Percent-encoding of RFC 5849 §3.6 (RFC 3986 §2.1 with the unreserved set of §2.3), and the
//! strict decoding of query strings and form bodies (§3.4.1.3.1).
//!
//! Encoding works on bytes: every byte outside `A-Z a-z 0-9 - . _ ~` becomes `%XX` with
//! uppercase hex digits. There is no `+` for space and no exception for `!*'()`.
//!
//! ```
//! use oauth1_signer::encode::encode;
//!
//! assert_eq!(encode(b"Ladies + Gentlemen").to_string(), "Ladies%20%2B%20Gentlemen");
//! assert_eq!(encode("☃".as_bytes()).to_string(), "%E2%98%83");
//! ```
//!
//! Decoding is strict: a `%` not followed by two hex digits is an error that says where it is,
//! never a byte kept as it was.
//!
//! ```
//! use oauth1_signer::encode::decode_form;
//!
//! assert_eq!(decode_form(b"a+b%21").unwrap(), &b"a b!"[..]);
//! let err = decode_form(b"100%zz").unwrap_err();
//! assert_eq!(err.to_string(), "invalid percent-encoding at byte 3 (\"%zz\"): '%' must be followed by two hex digits");
//! ```

use std::borrow::Cow;
use std::fmt;

/// Whether each byte is in the RFC 3986 §2.3 unreserved set: `A-Z a-z 0-9 - . _ ~`.
/// The one definition of the set in this crate.
const UNRESERVED: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        #[allow(clippy::cast_possible_truncation)] // b < 256
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_' | b'~');
        b += 1;
    }
    table
};

/// `"%XX"` for every byte, uppercase hex, as one string of 768 bytes.
const ESCAPES: &str = {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    const BYTES: [u8; 768] = {
        let mut out = [0u8; 768];
        let mut b = 0;
        while b < 256 {
            out[3 * b] = b'%';
            out[3 * b + 1] = HEX[b >> 4];
            out[3 * b + 2] = HEX[b & 0xF];
            b += 1;
        }
        out
    };
    match std::str::from_utf8(&BYTES) {
        Ok(s) => s,
        Err(_) => panic!("the escape table is ASCII"),
    }
};

/// Whether `byte` is unreserved (RFC 3986 §2.3) and so stands for itself in encoded output.
#[must_use]
#[inline]
pub const fn is_unreserved(byte: u8) -> bool {
    UNRESERVED[byte as usize]
}

/// The `%XX` escape of one byte, uppercase hex.
#[inline]
fn escape(byte: u8) -> &'static str {
    let at = 3 * usize::from(byte);
    // In bounds and on character boundaries: the table is 768 ASCII bytes.
    ESCAPES.get(at..at + 3).unwrap_or("%??")
}

/// Length of the leading run of unreserved bytes.
#[inline]
fn unreserved_prefix(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| !is_unreserved(b))
        .unwrap_or(bytes.len())
}

/// A run of unreserved bytes as text. Unreserved bytes are ASCII, so this never falls back.
#[inline]
fn ascii(run: &[u8]) -> &str {
    std::str::from_utf8(run).unwrap_or_default()
}

/// Percent-encodes `bytes` lazily, allocating nothing until asked.
///
/// The result is [`Display`](fmt::Display), an [`Iterator`] of `&str` pieces, and can become a
/// [`Cow<str>`] that borrows when nothing needed encoding, be appended to a `String`, or be
/// written to any [`fmt::Write`].
///
/// ```
/// use std::borrow::Cow;
/// use oauth1_signer::encode::encode;
///
/// assert!(matches!(Cow::from(encode(b"plain-text_1.0~")), Cow::Borrowed("plain-text_1.0~")));
///
/// let mut header = String::from("oauth_callback=\"");
/// encode(b"http://printer.example.com/ready").append_to(&mut header);
/// header.push('"');
/// assert_eq!(header, "oauth_callback=\"http%3A%2F%2Fprinter.example.com%2Fready\"");
/// ```
pub fn encode(bytes: &[u8]) -> Encode<'_> {
    Encode { rest: bytes }
}

/// The number of bytes `encode(bytes)` produces.
#[must_use]
pub fn encoded_len(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .map(|&b| if is_unreserved(b) { 1 } else { 3 })
        .sum()
}

/// Percent-encodes `bytes` onto the end of `out`. The byte-level core that the signing pipeline
/// uses to build the base string without allocating per parameter.
pub(crate) fn encode_to_vec(bytes: &[u8], out: &mut Vec<u8>) {
    let mut rest = bytes;
    while !rest.is_empty() {
        let run = unreserved_prefix(rest);
        out.extend_from_slice(&rest[..run]);
        if let Some((&b, tail)) = rest[run..].split_first() {
            out.extend_from_slice(escape(b).as_bytes());
            rest = tail;
        } else {
            break;
        }
    }
}

/// Percent-encodes the percent-encoding of `bytes` onto the end of `out`: `enc(enc(bytes))` in
/// one pass, as the base string needs for parameter names and values (§3.4.1.1 over §3.4.1.3.2).
pub(crate) fn encode_twice_to_vec(bytes: &[u8], out: &mut Vec<u8>) {
    let mut rest = bytes;
    while !rest.is_empty() {
        let run = unreserved_prefix(rest);
        out.extend_from_slice(&rest[..run]);
        if let Some((&b, tail)) = rest[run..].split_first() {
            // enc("%XY") = "%25XY"
            out.extend_from_slice(b"%25");
            out.extend_from_slice(&escape(b).as_bytes()[1..]);
            rest = tail;
        } else {
            break;
        }
    }
}

/// A lazy percent-encoding of a byte slice, made by [`encode`].
///
/// As an iterator it yields the encoded text in pieces: runs of unreserved bytes, and `%XX`
/// escapes.
#[derive(Clone, Debug)]
#[must_use]
pub struct Encode<'a> {
    rest: &'a [u8],
}

impl Encode<'_> {
    /// Appends the encoded text to `out`.
    pub fn append_to(self, out: &mut String) {
        out.reserve(encoded_len(self.rest));
        for piece in self {
            out.push_str(piece);
        }
    }

    /// Writes the encoded text to `out`, returning its error if it fails.
    ///
    /// # Errors
    ///
    /// Whatever `out` returns.
    pub fn write_to<W: fmt::Write>(self, out: &mut W) -> fmt::Result {
        for piece in self {
            out.write_str(piece)?;
        }
        Ok(())
    }
}

impl<'a> Iterator for Encode<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let (&first, tail) = self.rest.split_first()?;
        if is_unreserved(first) {
            let run = unreserved_prefix(self.rest);
            let (head, rest) = self.rest.split_at(run);
            self.rest = rest;
            Some(ascii(head))
        } else {
            self.rest = tail;
            Some(escape(first))
        }
    }
}

impl fmt::Display for Encode<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.clone().write_to(f)
    }
}

impl<'a> From<Encode<'a>> for Cow<'a, str> {
    fn from(encode: Encode<'a>) -> Self {
        if unreserved_prefix(encode.rest) == encode.rest.len() {
            Cow::Borrowed(ascii(encode.rest))
        } else {
            let mut out = String::new();
            encode.append_to(&mut out);
            Cow::Owned(out)
        }
    }
}

/// A malformed percent-escape found by [`decode`] or [`decode_form`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    offset: usize,
    found: Vec<u8>,
}

impl DecodeError {
    /// The byte offset (counted from 0) of the `%` that starts the malformed escape.
    #[must_use]
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The malformed escape: the `%` and up to two bytes after it.
    #[must_use]
    pub fn found(&self) -> &[u8] {
        &self.found
    }

    /// The same error with its offset moved `by` bytes further, for input decoded in parts.
    pub(crate) fn shifted(mut self, by: usize) -> Self {
        self.offset += by;
        self
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid percent-encoding at byte {} (\"{}\"): '%' must be followed by two hex digits",
            self.offset,
            self.found.escape_ascii()
        )
    }
}

impl std::error::Error for DecodeError {}

/// The value of an ASCII hex digit.
#[inline]
fn hex_value(digit: u8) -> Option<u8> {
    match digit {
        b'0'..=b'9' => Some(digit - b'0'),
        b'A'..=b'F' => Some(digit - b'A' + 10),
        b'a'..=b'f' => Some(digit - b'a' + 10),
        _ => None,
    }
}

/// Decodes `input` onto the end of `out`; with `plus_is_space`, `+` becomes a space.
pub(crate) fn decode_to_vec(
    input: &[u8],
    plus_is_space: bool,
    out: &mut Vec<u8>,
) -> Result<(), DecodeError> {
    let mut i = 0;
    while i < input.len() {
        let start = i;
        while i < input.len() && input[i] != b'%' && !(plus_is_space && input[i] == b'+') {
            i += 1;
        }
        out.extend_from_slice(&input[start..i]);
        match input.get(i) {
            Some(b'+') => {
                out.push(b' ');
                i += 1;
            }
            Some(_) => {
                let pair = (input.get(i + 1).copied(), input.get(i + 2).copied());
                let (Some(hi), Some(lo)) = (pair.0.and_then(hex_value), pair.1.and_then(hex_value))
                else {
                    return Err(DecodeError {
                        offset: i,
                        found: input[i..input.len().min(i + 3)].to_vec(),
                    });
                };
                out.push(hi << 4 | lo);
                i += 3;
            }
            None => {}
        }
    }
    Ok(())
}

fn decode_with(input: &[u8], plus_is_space: bool) -> Result<Cow<'_, [u8]>, DecodeError> {
    if !input
        .iter()
        .any(|&b| b == b'%' || (plus_is_space && b == b'+'))
    {
        return Ok(Cow::Borrowed(input));
    }
    let mut out = Vec::with_capacity(input.len());
    decode_to_vec(input, plus_is_space, &mut out)?;
    Ok(Cow::Owned(out))
}

/// Strictly percent-decodes `input` (RFC 3986 §2.1); `+` stays a plus, as in the values of an
/// Authorization header. Borrows when there is nothing to decode.
///
/// ```
/// use oauth1_signer::encode::decode;
///
/// assert_eq!(decode(b"a+b%2B%ff").unwrap(), &b"a+b+\xff"[..]);
/// assert!(decode(b"%4").is_err());
/// ```
///
/// # Errors
///
/// A `%` not followed by two hex digits.
pub fn decode(input: &[u8]) -> Result<Cow<'_, [u8]>, DecodeError> {
    decode_with(input, false)
}

/// Strictly decodes a name or value of a query string or form body
/// (`application/x-www-form-urlencoded`): `+` is a space and `%XX` a byte. Borrows when there
/// is nothing to decode.
///
/// # Errors
///
/// A `%` not followed by two hex digits.
pub fn decode_form(input: &[u8]) -> Result<Cow<'_, [u8]>, DecodeError> {
    decode_with(input, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreserved_table_is_exactly_the_rfc_3986_set() {
        let expected: Vec<u8> = (b'A'..=b'Z')
            .chain(b'a'..=b'z')
            .chain(b'0'..=b'9')
            .chain(*b"-._~")
            .collect();
        let actual: Vec<u8> = (0..=255u8).filter(|&b| is_unreserved(b)).collect();
        let mut expected_sorted = expected.clone();
        expected_sorted.sort_unstable();
        assert_eq!(actual, expected_sorted);
    }

    #[test]
    fn every_byte_encodes_to_itself_or_an_uppercase_escape() {
        for b in 0..=255u8 {
            let got = encode(&[b]).to_string();
            let want = if is_unreserved(b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            };
            assert_eq!(got, want, "byte {b:#04x}");
        }
    }

    #[test]
    fn all_forms_of_the_encoder_agree() {
        let input = "Hello Ladies + Gentlemen, a signed OAuth request! ☃ ~-._ %".as_bytes();
        let display = encode(input).to_string();
        let mut appended = String::from("x");
        encode(input).append_to(&mut appended);
        let mut vec = b"x".to_vec();
        encode_to_vec(input, &mut vec);
        let cow: Cow<str> = encode(input).into();
        assert_eq!(appended, format!("x{display}"));
        assert_eq!(vec, appended.as_bytes());
        assert_eq!(cow, display);
        assert_eq!(encoded_len(input), display.len());
        assert_eq!(
            display,
            "Hello%20Ladies%20%2B%20Gentlemen%2C%20a%20signed%20OAuth%20request%21%20%E2%98%83%20~-._%20%25"
        );
    }

    #[test]
    fn encoding_twice_in_one_pass_equals_encoding_the_encoding() {
        let input = b"a b%\xff~=&";
        let mut once = Vec::new();
        encode_to_vec(input, &mut once);
        let mut twice = Vec::new();
        encode_to_vec(&once, &mut twice);
        let mut fused = Vec::new();
        encode_twice_to_vec(input, &mut fused);
        assert_eq!(fused, twice);
        assert_eq!(fused, b"a%2520b%2525%25FF~%253D%2526");
    }

    #[test]
    fn decoding_is_strict_and_says_where() {
        let cases: [(&[u8], &str); 5] = [
            (b"%zz", "invalid percent-encoding at byte 0 (\"%zz\"): '%' must be followed by two hex digits"),
            (b"ab%4", "invalid percent-encoding at byte 2 (\"%4\"): '%' must be followed by two hex digits"),
            (b"abc%", "invalid percent-encoding at byte 3 (\"%\"): '%' must be followed by two hex digits"),
            (b"%4g", "invalid percent-encoding at byte 0 (\"%4g\"): '%' must be followed by two hex digits"),
            (b"ok%20%\xff1", "invalid percent-encoding at byte 5 (\"%\\xff1\"): '%' must be followed by two hex digits"),
        ];
        for (input, message) in cases {
            assert_eq!(decode_form(input).unwrap_err().to_string(), message);
            assert_eq!(decode(input).unwrap_err().to_string(), message);
        }
    }

    #[test]
    fn decoding_keeps_bytes_and_treats_plus_by_context() {
        assert_eq!(decode_form(b"%FF%fe+%2B").unwrap(), &b"\xff\xfe +"[..]);
        assert_eq!(decode(b"%FF%fe+%2B").unwrap(), &b"\xff\xfe++"[..]);
        assert!(matches!(decode_form(b"plain"), Ok(Cow::Borrowed(b"plain"))));
        assert!(matches!(decode(b"a+b"), Ok(Cow::Borrowed(b"a+b"))));
    }

    #[test]
    fn decode_inverts_encode_on_every_byte_pair() {
        for a in 0..=255u8 {
            for b in [0u8, b'%', b'+', b'a', 0x7f, 0xff] {
                let input = [a, b];
                let encoded = encode(&input).to_string();
                assert_eq!(decode(encoded.as_bytes()).unwrap(), &input[..]);
                assert_eq!(decode_form(encoded.as_bytes()).unwrap(), &input[..]);
            }
        }
    }
}
