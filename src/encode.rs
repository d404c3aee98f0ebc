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

/// Uppercase hex digits.
const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// The unreserved set of RFC 3986 §2.3, `A-Z a-z 0-9 - . _ ~`: the one definition of it in
/// this crate. Written as unsigned range tests combined without short-circuiting, so that a
/// loop over a fixed-size chunk compiles to vector instructions; single bytes are answered by
/// the tables derived from it.
#[inline]
#[allow(clippy::needless_bitwise_bool)] // short-circuiting would stop the vectorizing
const fn in_unreserved_ranges(byte: u8) -> bool {
    let letter = (byte | 0x20).wrapping_sub(b'a') < 26;
    let digit = byte.wrapping_sub(b'0') < 10;
    let dash_or_dot = byte.wrapping_sub(b'-') < 2;
    letter | digit | dash_or_dot | (byte == b'_') | (byte == b'~')
}

/// Whether `byte` is unreserved (RFC 3986 §2.3: `A-Z a-z 0-9 - . _ ~`) and so stands for
/// itself in encoded output.
#[must_use]
#[inline]
pub const fn is_unreserved(byte: u8) -> bool {
    ONCE[byte as usize][3] == 1
}

/// The number of escaped bytes in a 16-byte chunk, in vector instructions. Kept out of line:
/// inlined into a loop, the compiler no longer vectorizes it.
#[inline(never)]
fn chunk_escapes(chunk: &[u8; 16]) -> u8 {
    chunk
        .iter()
        .fold(0u8, |n, &b| n + u8::from(!in_unreserved_ranges(b)))
}

/// Whether every byte of `bytes` is unreserved.
#[inline]
fn all_unreserved(bytes: &[u8]) -> bool {
    let (chunks, rest) = bytes.as_chunks::<16>();
    chunks.iter().all(|c| chunk_escapes(c) == 0) && rest.iter().all(|&b| is_unreserved(b))
}

/// [`ONCE`] in static memory, so that the iterator can hand out escapes as `&'static str`.
static ONCE_STATIC: [[u8; 4]; 256] = ONCE;

/// The `%XX` escape of a byte that is not unreserved.
#[inline]
fn escape(byte: u8) -> &'static str {
    ascii(&ONCE_STATIC[usize::from(byte)][..3])
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
    bytes.len() + 2 * escaped_count(bytes)
}

/// The number of bytes that are not unreserved.
#[inline]
fn escaped_count(bytes: &[u8]) -> usize {
    let (chunks, rest) = bytes.as_chunks::<16>();
    let bulk: usize = chunks.iter().map(|c| usize::from(chunk_escapes(c))).sum();
    bulk + rest.iter().filter(|&&b| !is_unreserved(b)).count()
}

/// Bytes encoded per block by [`encode_blocks`].
const BLOCK: usize = 64;

/// For every byte, its encoding (`enc(b)` when `W` is 4, `enc(enc(b))` when `W` is 8) padded to
/// `W - 1` bytes, then the encoding's length in the last byte.
const fn encodings<const W: usize>() -> [[u8; W]; 256] {
    let mut table = [[0u8; W]; 256];
    let mut i = 0;
    while i < 256 {
        #[allow(clippy::cast_possible_truncation)] // i < 256
        let b = i as u8;
        let e = &mut table[i];
        if in_unreserved_ranges(b) {
            e[0] = b;
            e[W - 1] = 1;
        } else if W == 4 {
            (e[0], e[1], e[2], e[3]) = (b'%', HEX[i >> 4], HEX[i & 0xF], 3);
        } else {
            (e[0], e[1], e[2], e[3], e[4]) = (b'%', b'2', b'5', HEX[i >> 4], HEX[i & 0xF]);
            e[W - 1] = 5;
        }
        i += 1;
    }
    table
}

const ONCE: [[u8; 4]; 256] = encodings::<4>();
const TWICE: [[u8; 8]; 256] = encodings::<8>();

/// Percent-encodes `bytes` with `table` ([`ONCE`] or [`TWICE`]) onto the end of `out`.
/// Blocks of unreserved bytes are copied as they are; in any other block each byte appends its
/// whole table entry and trims it to the encoding's length, without branching on the byte.
/// Needs `W - 1` bytes of spare capacity past the output to avoid growing `out` at the end.
fn encode_into_vec<const W: usize>(bytes: &[u8], table: &[[u8; W]; 256], out: &mut Vec<u8>) {
    for block in bytes.chunks(BLOCK) {
        if all_unreserved(block) {
            out.extend_from_slice(block);
            continue;
        }
        for &b in block {
            let entry = &table[usize::from(b)];
            out.extend_from_slice(entry);
            out.truncate(out.len() - W + usize::from(entry[W - 1]));
        }
    }
}

/// Percent-encodes `bytes` in [`BLOCK`]s through a stack buffer, handing `sink` each encoded
/// piece, all ASCII: for outputs that are text (`String`, `fmt::Write`) rather than bytes.
/// Consecutive unreserved blocks are handed over as one borrowed piece.
fn encode_blocks<E>(bytes: &[u8], mut sink: impl FnMut(&[u8]) -> Result<(), E>) -> Result<(), E> {
    let mut run_start = 0;
    for (i, block) in bytes.chunks(BLOCK).enumerate() {
        if all_unreserved(block) {
            continue;
        }
        let start = i * BLOCK;
        if run_start < start {
            sink(&bytes[run_start..start])?;
        }
        run_start = start + block.len();
        let mut out = [0u8; 3 * BLOCK + 4];
        let mut n = 0;
        for &b in block {
            let entry = &ONCE[usize::from(b)];
            let Some(slot) = out.get_mut(n..n + 4) else {
                break; // cannot happen: the buffer holds a block of escapes
            };
            slot.copy_from_slice(entry);
            n += usize::from(entry[3]);
        }
        sink(&out[..n])?;
    }
    if run_start < bytes.len() {
        sink(&bytes[run_start..])?;
    }
    Ok(())
}

/// Spare capacity that [`encode_to_vec`] and [`encode_twice_to_vec`] may write past their output
/// (then trim): a buffer built with them needs this much room beyond its final length, or it
/// grows, and a grown buffer leaves a copy of its old contents behind in freed memory.
pub(crate) const SPARE: usize = 7;

/// Percent-encodes `bytes` onto the end of `out`. The caller reserves the room, [`SPARE`] bytes
/// more than the output.
pub(crate) fn encode_to_vec(bytes: &[u8], out: &mut Vec<u8>) {
    encode_into_vec(bytes, &ONCE, out);
}

/// Percent-encodes the percent-encoding of `bytes` onto the end of `out`: `enc(enc(bytes))` in
/// one pass, as the base string needs for parameter names and values (§3.4.1.1 over §3.4.1.3.2).
/// The caller reserves the room, [`SPARE`] bytes more than the output.
pub(crate) fn encode_twice_to_vec(bytes: &[u8], out: &mut Vec<u8>) {
    encode_into_vec(bytes, &TWICE, out);
}

/// The length of `enc(enc(bytes))`.
pub(crate) fn encoded_twice_len(bytes: &[u8]) -> usize {
    bytes.len() + 4 * escaped_count(bytes)
}

/// An encoder's rules for parameter names and values. [`Rules::RFC`] is §3.6; each other switch
/// is a mistake seen in other implementations, which the diagnosis reproduces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // independent switches, any combination
pub(crate) struct Rules {
    /// Space as `+` (form encoding).
    pub(crate) space_as_plus: bool,
    /// `! * ' ( )` left as they are (JavaScript `encodeURIComponent`).
    pub(crate) sub_delims_literal: bool,
    /// `~` escaped as `%7E`.
    pub(crate) tilde_escaped: bool,
    /// Lowercase hex digits in escapes.
    pub(crate) lowercase_hex: bool,
    /// `/ ? : @ , ; = + $ [ ]` left as they are (a generic URL encoder).
    pub(crate) reserved_literal: bool,
}

impl Rules {
    /// RFC 5849 §3.6: every switch off.
    pub(crate) const RFC: Rules = Rules {
        space_as_plus: false,
        sub_delims_literal: false,
        tilde_escaped: false,
        lowercase_hex: false,
        reserved_literal: false,
    };
}

/// Percent-encodes `bytes` by `rules` onto the end of `out`; with [`Rules::RFC`], exactly
/// [`encode_to_vec`].
pub(crate) fn encode_by(bytes: &[u8], rules: Rules, out: &mut Vec<u8>) {
    const LOWER: &[u8; 16] = b"0123456789abcdef";
    if rules == Rules::RFC {
        out.reserve(encoded_len(bytes) + SPARE);
        return encode_to_vec(bytes, out);
    }
    let hex = if rules.lowercase_hex { LOWER } else { HEX };
    for &b in bytes {
        let literal = match b {
            b'~' => !rules.tilde_escaped,
            b' ' if rules.space_as_plus => {
                out.push(b'+');
                continue;
            }
            b'!' | b'*' | b'\'' | b'(' | b')' => rules.sub_delims_literal,
            b'/' | b'?' | b':' | b'@' | b',' | b';' | b'=' | b'+' | b'$' | b'[' | b']' => {
                rules.reserved_literal
            }
            _ => is_unreserved(b),
        };
        if literal {
            out.push(b);
        } else {
            out.extend_from_slice(&[b'%', hex[usize::from(b >> 4)], hex[usize::from(b & 15)]]);
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
        let _ = encode_blocks::<()>(self.rest, |piece| {
            out.push_str(ascii(piece));
            Ok(())
        });
    }

    /// Writes the encoded text to `out`, returning its error if it fails.
    ///
    /// # Errors
    ///
    /// Whatever `out` returns.
    pub fn write_to<W: fmt::Write>(self, out: &mut W) -> fmt::Result {
        encode_blocks::<fmt::Error>(self.rest, |piece| out.write_str(ascii(piece)))
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
        if all_unreserved(encode.rest) {
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
    #[test]
    fn rules_rfc_is_the_encoder_and_each_switch_changes_only_its_bytes() {
        let all: Vec<u8> = (0..=255).collect();
        let mut out = Vec::new();
        encode_by(&all, Rules::RFC, &mut out);
        assert_eq!(out, encode(&all).to_string().into_bytes());
        let cases: [(Rules, &[u8], &str); 6] = [
            (
                Rules {
                    space_as_plus: true,
                    ..Rules::RFC
                },
                b"a b+",
                "a+b%2B",
            ),
            (
                Rules {
                    sub_delims_literal: true,
                    ..Rules::RFC
                },
                b"!*'()&",
                "!*'()%26",
            ),
            (
                Rules {
                    tilde_escaped: true,
                    ..Rules::RFC
                },
                b"~a",
                "%7Ea",
            ),
            (
                Rules {
                    lowercase_hex: true,
                    ..Rules::RFC
                },
                b"/\xc3\xa9",
                "%2f%c3%a9",
            ),
            (
                Rules {
                    reserved_literal: true,
                    ..Rules::RFC
                },
                b"/?:@,;=+$[]&!",
                "/?:@,;=+$[]%26%21",
            ),
            (
                Rules {
                    space_as_plus: true,
                    reserved_literal: true,
                    ..Rules::RFC
                },
                b"a b+c",
                "a+b+c",
            ),
        ];
        for (rules, input, expected) in cases {
            let mut out = Vec::new();
            encode_by(input, rules, &mut out);
            assert_eq!(String::from_utf8(out).unwrap(), expected, "{rules:?}");
        }
    }

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
        vec.reserve(encoded_len(input) + SPARE);
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

    /// The naive encoder, byte by byte, as the oracle for the block encoders.
    fn naive(bytes: &[u8]) -> String {
        bytes
            .iter()
            .map(|&b| {
                if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                    char::from(b).to_string()
                } else {
                    format!("%{b:02X}")
                }
            })
            .collect()
    }

    #[test]
    fn every_encoder_agrees_with_the_naive_one_across_block_boundaries() {
        // Inputs of every length up to three blocks and more, from all-unreserved to
        // all-escaped, with escapes placed on and around block boundaries.
        let mixes: [&[u8]; 4] = [b"abcXYZ019-._~", b"a b/c\xff%+~", b"\x00\x7f\x80 ", b"ab%"];
        let mut checked = 0;
        for mix in mixes {
            for len in (0..=200).chain([255, 256, 1000, 4099]) {
                let input: Vec<u8> = (0..len)
                    .map(|i| mix[(i * 7 + i / 64) % mix.len()])
                    .collect();
                let want = naive(&input);
                let want_twice = naive(want.as_bytes());

                let mut vec = b"prefix".to_vec();
                vec.reserve(encoded_len(&input) + SPARE);
                let capacity = vec.capacity();
                encode_to_vec(&input, &mut vec);
                assert_eq!(&vec[6..], want.as_bytes(), "len {len}");
                assert_eq!(vec.capacity(), capacity, "grew");

                let mut twice = Vec::with_capacity(encoded_twice_len(&input) + SPARE);
                let capacity = twice.capacity();
                encode_twice_to_vec(&input, &mut twice);
                assert_eq!(twice, want_twice.as_bytes(), "len {len}");
                assert_eq!(twice.capacity(), capacity, "grew");

                let mut appended = String::from("x");
                encode(&input).append_to(&mut appended);
                assert_eq!(appended[1..], want);
                assert_eq!(encode(&input).to_string(), want);
                assert_eq!(encode(&input).collect::<String>(), want);
                assert_eq!(Cow::from(encode(&input)), want);
                assert_eq!(encoded_len(&input), want.len());
                assert_eq!(all_unreserved(&input), want.len() == input.len());
                checked += 1;
            }
        }
        assert_eq!(checked, 4 * 205);
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
