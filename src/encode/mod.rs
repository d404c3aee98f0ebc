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

mod buffer;
mod kernels;
mod rules;
#[cfg(test)]
use buffer::Scratch;
pub(crate) use buffer::{Chunks, Counted, Text, Writer};
pub(crate) use kernels::escaped_count;
use kernels::run_until;
use kernels::{
    all_in, encode_pieces, short_and_clean, unreserved_len, write_entries, BUFFER, ONCE,
};
pub(crate) use kernels::{count_byte, decode_pairs, is_clean, plain_quoted_len};
pub(crate) use rules::{decode_escape, is_unreserved_lookup};
pub use rules::{is_unreserved, DecodeError};

/// Bytes every one of which is unreserved (RFC 3986 §2.3), so that they are their own
/// percent-encoding: the proof that lets the writers copy them unexamined. Only this module
/// makes one (a literal checked at compile time, or [`CheckedText`] once checked), so a wrong
/// one cannot be written elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Unreserved<'a>(&'a [u8]);

impl<'a> Unreserved<'a> {
    /// A literal, checked when the program is compiled (in a `const`).
    ///
    /// # Panics
    ///
    /// At compile time, for a literal with a byte to escape.
    pub(crate) const fn literal(text: &'static str) -> Unreserved<'static> {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            assert!(is_unreserved(bytes[i]), "a byte to escape");
            i += 1;
        }
        Unreserved(bytes)
    }

    /// The bytes.
    pub(crate) fn as_bytes(self) -> &'a [u8] {
        self.0
    }
}

/// The longest unreserved prefix of `bytes`, with its proof, and the bytes after it: a
/// parser that scans a token or a quoted value this way learns whether it is clean on the way.
pub(crate) fn split_unreserved(bytes: &[u8]) -> (Unreserved<'_>, &[u8]) {
    let (clean, rest) = bytes.split_at(unreserved_len(bytes));
    (Unreserved(clean), rest)
}

/// A protocol parameter's value: proved unreserved, or bytes still to be checked.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Value<'a> {
    /// Known to be its own encoding.
    Unreserved(Unreserved<'a>),
    /// Not examined yet.
    Unchecked(&'a [u8]),
}

impl<'a> Value<'a> {
    /// The bytes.
    pub(crate) fn as_bytes(self) -> &'a [u8] {
        match self {
            Value::Unreserved(u) => u.as_bytes(),
            Value::Unchecked(bytes) => bytes,
        }
    }

    /// Whether every byte is unreserved: from the proof, or found now.
    pub(crate) fn is_clean(self) -> bool {
        match self {
            Value::Unreserved(_) => true,
            Value::Unchecked(bytes) => is_clean(bytes),
        }
    }
}

/// Text checked once, when made, for bytes to escape: a key or a nonce sent with every
/// request is not examined again each time.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct CheckedText {
    text: String,
    clean: bool,
}

impl CheckedText {
    /// `text`, checked.
    pub(crate) fn new(text: String) -> Self {
        let clean = is_clean(text.as_bytes());
        CheckedText { text, clean }
    }

    /// The text.
    pub(crate) fn as_str(&self) -> &str {
        &self.text
    }

    /// The text as a protocol value, with the proof if the check found one.
    pub(crate) fn value(&self) -> Value<'_> {
        if self.clean {
            Value::Unreserved(Unreserved(self.text.as_bytes()))
        } else {
            Value::Unchecked(self.text.as_bytes())
        }
    }
}

/// The `%XX` escape of a byte that is not unreserved.
#[inline]
fn escape(byte: u8) -> &'static str {
    ascii(&ONCE[usize::from(byte)][..3])
}

/// Length of the leading run of unreserved bytes.
#[inline]
fn unreserved_prefix(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| !is_unreserved_lookup(b))
        .unwrap_or(bytes.len())
}

/// A run of unreserved bytes, or of an escape's, as text: the callers pass only those, which
/// are ASCII.
#[inline]
fn ascii(run: &[u8]) -> &str {
    std::str::from_utf8(run).expect("unreserved bytes and escapes are ASCII")
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

/// Percent-encodes `bytes` with `table` onto the end of `out`, through `buf`.
fn encode_into_vec<const W: usize>(
    bytes: &[u8],
    table: &[[u8; W]; 256],
    buf: &mut [u8; BUFFER],
    out: &mut Vec<u8>,
) {
    let _ = encode_pieces::<W, ()>(bytes, table, buf, |piece| {
        out.extend_from_slice(piece);
        Ok(())
    });
}

/// Percent-encodes `bytes` in pieces for outputs that are text (`String`, `fmt::Write`).
fn encode_blocks<E>(bytes: &[u8], mut sink: impl FnMut(&[u8]) -> Result<(), E>) -> Result<(), E> {
    if short_and_clean(bytes) {
        return if bytes.is_empty() {
            Ok(())
        } else {
            sink(bytes)
        };
    }
    encode_pieces(bytes, &ONCE, &mut [0u8; BUFFER], sink)
}

/// Percent-encodes `bytes` onto the end of `out`, which grows only if it has less room than
/// [`encoded_len`] more bytes.
pub(crate) fn encode_to_vec(bytes: &[u8], out: &mut Vec<u8>) {
    if short_and_clean(bytes) {
        out.extend_from_slice(bytes);
    } else {
        encode_into_vec(bytes, &ONCE, &mut [0u8; BUFFER], out);
    }
}

/// [`encode_to_vec`] for a secret: the stack buffer its escapes pass through is wiped after.
pub(crate) fn encode_secret_to_vec(bytes: &[u8], out: &mut Vec<u8>) {
    encode_secret(bytes, |piece| out.extend_from_slice(piece));
}

/// Percent-encodes a secret, handing `sink` the encoded pieces: a secret of unreserved bytes
/// (the common one, letters and digits) whole, without passing through the stack buffer,
/// which then needs neither zeroing nor wiping; any other through that buffer, wiped after.
pub(crate) fn encode_secret(bytes: &[u8], mut sink: impl FnMut(&[u8])) {
    if is_clean(bytes) {
        sink(bytes);
        return;
    }
    let mut buf = zeroize::Zeroizing::new([0u8; BUFFER]);
    let _ = encode_pieces::<4, ()>(bytes, &ONCE, &mut buf, |piece| {
        sink(piece);
        Ok(())
    });
}

/// The first 8 bytes of `enc(bytes)` as a big-endian number, zeros after a shorter encoding:
/// two encodings that differ there compare as their keys do, since encodings have no zero
/// byte.
pub(crate) fn sort_key(bytes: &[u8]) -> u64 {
    if let Some(head) = bytes.first_chunk::<8>() {
        if all_in(head, is_unreserved) {
            return u64::from_be_bytes(*head);
        }
    }
    // The first 8 bytes encoded; what lies past the encoded bytes is masked off.
    let mut buf = [0u8; 8 * 4];
    let (n, _) = write_entries::<4, false>(&bytes[..bytes.len().min(8)], &ONCE, &mut buf);
    let head = buf.first_chunk::<8>().copied().unwrap_or_default();
    let mask = u64::MAX
        .checked_shr(8 * u32::try_from(n).unwrap_or(u32::MAX))
        .unwrap_or(0);
    u64::from_be_bytes(head) & !mask
}

/// [`sort_key`] of bytes known to be all unreserved, which are their own encoding: their
/// first 8 bytes, zeros after fewer.
pub(crate) fn sort_key_of_clean(bytes: &[u8]) -> u64 {
    if let Some(head) = bytes.first_chunk::<8>() {
        return u64::from_be_bytes(*head);
    }
    // A shorter name shifted in a byte at a time: copied to the stack and read back as one
    // word, it would stall the read behind the copy's narrower writes.
    let shift = 8 * (8 - u32::try_from(bytes.len()).unwrap_or(8));
    bytes
        .iter()
        .fold(0u64, |key, &b| (key << 8) | u64::from(b))
        .checked_shl(shift)
        .unwrap_or(0)
}

/// The length of `enc(enc(bytes))`.
#[cfg(test)]
fn encoded_twice_len(bytes: &[u8]) -> usize {
    bytes.len() + 4 * escaped_count(bytes)
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
        // At least this much; counting the escapes first would cost more than growing.
        out.reserve(self.rest.len());
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
        if is_unreserved_lookup(first) {
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
        if is_clean(encode.rest) {
            Cow::Borrowed(ascii(encode.rest))
        } else {
            let mut out = String::new();
            encode.append_to(&mut out);
            Cow::Owned(out)
        }
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
        i += if plus_is_space {
            run_until(&input[i..], |b| b == b'%' || b == b'+')
        } else {
            run_until(&input[i..], |b| b == b'%')
        };
        out.extend_from_slice(&input[start..i]);
        match input.get(i) {
            Some(b'+') => {
                out.push(b' ');
                i += 1;
            }
            Some(_) => {
                out.push(decode_escape(input, i)?);
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
mod tests;
