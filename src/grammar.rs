//! The few RFC 9110 grammar rules that several stages read: a token's characters (`tchar`),
//! optional whitespace (`OWS`), and the control characters a quoted string may not hold. Below
//! both percent-encoding's kernels and the header parser, so that neither reaches into the
//! other.

/// A control character, which a quoted value may not hold (a tab it may).
#[allow(clippy::needless_bitwise_bool)] // no branches, so that a chunk's test is vectorized
#[must_use]
pub fn is_control(c: u8) -> bool {
    ((c < 0x20) & (c != b'\t')) | (c == 0x7f)
}

/// Optional whitespace (`OWS`): a space or a tab.
#[must_use]
pub fn is_ows(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// The index of the first byte at or after `i` that is not `OWS`.
#[must_use]
pub fn skip_ows(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && is_ows(b[i]) {
        i += 1;
    }
    i
}

/// An RFC 9110 `tchar`: the characters of a token (a method, a header parameter's name).
#[must_use]
pub fn is_tchar(b: u8) -> bool {
    TCHAR[usize::from(b)]
}

static TCHAR: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < 256 {
        #[allow(clippy::cast_possible_truncation)] // i < 256
        let b = i as u8;
        table[i] = b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'!' | b'#'
                    | b'$'
                    | b'%'
                    | b'&'
                    | b'\''
                    | b'*'
                    | b'+'
                    | b'-'
                    | b'.'
                    | b'^'
                    | b'_'
                    | b'`'
                    | b'|'
                    | b'~'
            );
        i += 1;
    }
    table
};
