//! The character-level rules of percent-encoding that every encoder and decoder here reads:
//! the unreserved set (RFC 3986 §2.3), the hex digits, how a query or form body is decoded,
//! and a malformed escape. Below the kernels, which answer the same questions faster.

use std::fmt;

/// Uppercase hex digits.
pub(super) const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Whether `byte` is unreserved (RFC 3986 §2.3: `A-Z a-z 0-9 - . _ ~`) and so stands for
/// itself in encoded output: the one definition of the set in this crate.
///
/// Written as unsigned range tests combined without short-circuiting, so that a loop over a
/// fixed-size chunk compiles to vector instructions; the lookup table and the encoding tables
/// are derived from it.
#[must_use]
#[inline]
#[allow(clippy::needless_bitwise_bool)] // short-circuiting would stop the vectorizing
pub const fn is_unreserved(byte: u8) -> bool {
    // `-` `.` `/` `0`…`9` are adjacent: one range test, and `/` taken out.
    let dash_dot_digit = (byte.wrapping_sub(b'-') < 13) & (byte != b'/');
    is_letter(byte) | dash_dot_digit | (byte == b'_') | (byte == b'~')
}

/// `A-Z a-z`, in one range test.
#[inline]
pub(super) const fn is_letter(byte: u8) -> bool {
    (byte | 0x20).wrapping_sub(b'a') < 26
}

/// [`is_unreserved`] as a table in static memory, for loops that look at one byte at a time.
static UNRESERVED: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < 256 {
        #[allow(clippy::cast_possible_truncation)] // i < 256
        let byte = i as u8;
        table[i] = is_unreserved(byte);
        i += 1;
    }
    table
};

/// [`is_unreserved`] by table lookup: faster for a byte at a time, where the range tests only
/// pay off over a whole chunk.
#[inline]
pub(crate) fn is_unreserved_lookup(byte: u8) -> bool {
    UNRESERVED[usize::from(byte)]
}

/// A malformed percent-escape found by [`decode`](super::decode) or [`decode_form`](super::decode_form).
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

/// The value of every byte as a hex digit, or 0xFF.
#[allow(clippy::cast_possible_truncation)] // i < 16
pub(crate) static HEX_VALUE: [u8; 256] = {
    let mut table = [0xFF; 256];
    let mut i = 0;
    while i < 16 {
        table[HEX[i] as usize] = i as u8;
        table[HEX[i].to_ascii_lowercase() as usize] = i as u8;
        i += 1;
    }
    table
};

/// The byte of the escape `%XX` at `input[at]`, or the error naming it.
#[inline]
pub(crate) fn decode_escape(input: &[u8], at: usize) -> Result<u8, DecodeError> {
    if let Some(&[_, hi, lo]) = input.get(at..at + 3) {
        let (hi, lo) = (HEX_VALUE[usize::from(hi)], HEX_VALUE[usize::from(lo)]);
        if (hi | lo) < 16 {
            return Ok(hi << 4 | lo);
        }
    }
    Err(escape_error(input, at))
}

/// The error for a malformed escape at `input[at]`.
#[cold]
pub(crate) fn escape_error(input: &[u8], at: usize) -> DecodeError {
    DecodeError {
        offset: at,
        found: input[at..input.len().min(at + 3)].to_vec(),
    }
}
