//! The fast paths of percent-encoding: tests over whole blocks of bytes at a time, written so
//! that the compiler turns them into vector instructions (comparisons folded without stopping
//! early, over fixed-size arrays), each beside the plain byte-by-byte function it must agree
//! with; and the block encoder, which writes a whole table entry a byte without branching on
//! it. The RFC's rules are in the module above; these only answer the same questions faster.
//! The run of unreserved bytes a header's parser asks for is found a 16-byte chunk at a time,
//! the chunk's stopping bytes gathered as bits. The decoders are here too: pairs with nothing
//! to decode split a chunk at a time, eight bytes at a time as a word for short runs, and a
//! block of bytes at a time for long values, every byte decoded as if it began an escape.
//!
//! The tests (`kernels/tests.rs`) hold each scanning kernel to its twin at every length past
//! several blocks, with a byte that stops it at every position (the unreserved scan with every
//! byte value at every position of a chunk); the encoder's tests hold every encoder to a
//! byte-by-byte one across block boundaries; and the pair decoder is held to the
//! strict reference decoder at every length across its switch-over, with escapes and malformed
//! escapes at every position, and on plain pairs with separators at every position of a chunk,
//! followed anywhere by bytes to decode.

use super::rules::{
    escape_error, is_letter, is_unreserved, is_unreserved_lookup, DecodeError, HEX, HEX_VALUE,
};

/// Bytes examined and encoded at a time.
pub(super) const ENCODE_BLOCK: usize = 64;

/// The number of bytes of a block for which `counted` is true; the compiler turns it into
/// vector instructions when `counted` is made of comparisons.
#[inline]
fn count_in_block(block: &[u8; ENCODE_BLOCK], counted: impl Fn(u8) -> bool) -> usize {
    // At most 64: the count fits the byte lanes.
    usize::from(block.iter().fold(0u8, |n, &b| n + u8::from(counted(b))))
}

/// The number of bytes for which `counted` is true, a block at a time, the last bytes padded
/// to a block with `filler`, for which it must be false.
#[inline]
pub(super) fn count_where(bytes: &[u8], filler: u8, counted: impl Fn(u8) -> bool + Copy) -> usize {
    let (blocks, rest) = bytes.as_chunks::<ENCODE_BLOCK>();
    let mut padded = [filler; ENCODE_BLOCK];
    padded[..rest.len()].copy_from_slice(rest);
    let whole: usize = blocks.iter().map(|b| count_in_block(b, counted)).sum();
    whole + count_in_block(&padded, counted)
}

/// Whether a block has nothing to escape: an OR over the block, cheaper than counting; first
/// with the two range tests of letters and digits alone (keys, tokens, nonces, words), then,
/// only if that fails, with the whole set.
#[inline]
fn block_is_clean(block: &[u8; ENCODE_BLOCK]) -> bool {
    all_in(block, is_alphanumeric) || all_in(block, is_unreserved)
}

/// Whether every byte of `block` passes `test`, without stopping early, so that it compiles
/// to vector instructions.
#[inline]
pub(super) fn all_in<const N: usize>(block: &[u8; N], test: impl Fn(u8) -> bool) -> bool {
    block
        .iter()
        .fold(0u8, |dirty, &b| dirty | u8::from(!test(b)))
        == 0
}

/// `A-Z a-z 0-9`, in two range tests.
#[inline]
#[allow(clippy::needless_bitwise_bool)] // short-circuiting would stop the vectorizing
fn is_alphanumeric(byte: u8) -> bool {
    is_letter(byte) | (byte.wrapping_sub(b'0') < 10)
}

/// The length of the longest prefix of `bytes` made of whole blocks of unreserved bytes.
#[inline(never)]
pub(super) fn clean_blocks(bytes: &[u8]) -> usize {
    let (blocks, _) = bytes.as_chunks::<ENCODE_BLOCK>();
    blocks.iter().take_while(|b| block_is_clean(b)).count() * ENCODE_BLOCK
}

/// Bytes examined at a time by the tests on names, values and header text, which are mostly
/// short.
const CHUNK: usize = 16;

/// The length of the leading run of bytes for which `stop` is false, found a chunk at a time
/// while whole chunks pass (with vector instructions when `stop` is made of comparisons), then
/// byte by byte.
#[inline]
pub(super) fn run_until(bytes: &[u8], stop: impl Fn(u8) -> bool + Copy) -> usize {
    let (chunks, _) = bytes.as_chunks::<CHUNK>();
    let run = chunks
        .iter()
        .take_while(|c| all_in(c, |b| !stop(b)))
        .count()
        * CHUNK;
    run + bytes[run..]
        .iter()
        .position(|&b| stop(b))
        .unwrap_or(bytes.len() - run)
}

/// Whether every byte of `bytes` is unreserved: a string shorter than a chunk byte by byte, a
/// longer one a chunk at a time, the last chunk overlapping the one before.
#[inline]
pub(crate) fn is_clean(bytes: &[u8]) -> bool {
    if bytes.len() < CHUNK {
        return bytes.iter().all(|&b| is_unreserved_lookup(b));
    }
    let (chunks, rest) = bytes.as_chunks::<CHUNK>();
    if !chunks.iter().all(|c| all_in(c, is_unreserved)) {
        return false;
    }
    rest.is_empty() || (bytes.last_chunk::<CHUNK>()).is_some_and(|last| all_in(last, is_unreserved))
}

/// The length of the leading run of unreserved bytes, a chunk at a time: each chunk's bytes
/// to stop at as a word with a bit in each such byte (vector comparisons), the run ending at
/// the first bit set. The last bytes are read as the chunk that ends the input, overlapping
/// the chunk before; only input shorter than a chunk is read byte by byte. Header names and
/// values are mostly unreserved and a few chunks long.
#[inline]
pub(super) fn unreserved_len(bytes: &[u8]) -> usize {
    let mut i = 0;
    while let Some(chunk) = bytes.get(i..).and_then(<[u8]>::first_chunk::<CHUNK>) {
        let stops = reserved_mask(chunk);
        if stops != 0 {
            return i + stops.trailing_zeros() as usize / 8;
        }
        i += CHUNK;
    }
    match bytes.last_chunk::<CHUNK>() {
        // The bytes before `i` in the last chunk are unreserved already: shifted out (all
        // sixteen of them at most, which `checked_shr` turns into none left).
        Some(last) => {
            let seen = i - (bytes.len() - CHUNK);
            #[allow(clippy::cast_possible_truncation)] // at most 8 x 16
            let stops = reserved_mask(last)
                .checked_shr(8 * seen as u32)
                .unwrap_or(0);
            if stops == 0 {
                bytes.len()
            } else {
                i + stops.trailing_zeros() as usize / 8
            }
        }
        None => bytes
            .iter()
            .position(|&b| !is_unreserved_lookup(b))
            .unwrap_or(bytes.len()),
    }
}

/// The bytes of `chunk` that are not unreserved, as the lowest bit of each byte of a word (bit
/// `8k` for byte `k`), computed without branching so that the compiler turns it into vector
/// comparisons (plain Rust: no `unsafe` intrinsics, no dependency).
#[inline]
fn reserved_mask(chunk: &[u8; CHUNK]) -> u128 {
    u128::from_le_bytes(chunk.map(|b| u8::from(!is_unreserved(b))))
}

/// The number of times `byte` occurs in `bytes`.
pub(crate) fn count_byte(bytes: &[u8], byte: u8) -> usize {
    count_where(bytes, byte.wrapping_add(1), |b| b == byte)
}

/// The length of the leading run of a quoted string's content that needs no care: no `"`,
/// no `\\`, no control byte (`crate::grammar::is_control`). Eight bytes at a time as a word,
/// the stops found by exact arithmetic on it.
pub(crate) fn plain_quoted_len(bytes: &[u8]) -> usize {
    let stops = |word: u64| {
        bytes_equal(word, b'"')
            | bytes_equal(word, b'\\')
            | (bytes_below(word, 0x20) & !bytes_equal(word, b'\t'))
            | bytes_equal(word, 0x7f)
    };
    let mut i = 0;
    while let Some(word) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let found = stops(u64::from_le_bytes(*word));
        if found != 0 {
            return i + found.trailing_zeros() as usize / 8;
        }
        i += 8;
    }
    // The tail, padded with a byte that stops nothing.
    let rest = &bytes[i..];
    let mut word = [b'a'; 8];
    word[..rest.len()].copy_from_slice(rest);
    let found = stops(u64::from_le_bytes(word));
    (i + found.trailing_zeros() as usize / 8).min(bytes.len())
}

/// For every byte, its encoding (`enc(b)` when `W` is 4, `enc(enc(b))` when `W` is 8) padded to
/// `W - 1` bytes, then the encoding's length in the last byte.
const fn encodings<const W: usize>() -> [[u8; W]; 256] {
    let mut table = [[0u8; W]; 256];
    let mut i = 0;
    while i < 256 {
        #[allow(clippy::cast_possible_truncation)] // i < 256
        let b = i as u8;
        let e = &mut table[i];
        if is_unreserved(b) {
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

// Statics, not constants: a constant table indexed at run time can be copied onto the stack
// where it is used. The iterator also hands out escapes from `ONCE` as `&'static str`.
pub(super) static ONCE: [[u8; 4]; 256] = encodings::<4>();
pub(super) static TWICE: [[u8; 8]; 256] = encodings::<8>();

/// Room for a block encoded with either table (at most 5 bytes a byte), and a whole table
/// entry past it.
pub(super) const BUFFER: usize = 5 * ENCODE_BLOCK + 8;

/// The table writer, the one loop that encodes with a table: each byte of `block` writes its
/// whole table entry into `out` and moves on by the encoding's length, without branching on
/// the byte. Returns the bytes written and the bytes of `block` done: all of them, unless a
/// whole entry no longer fits.
///
/// With `ROOMY` the caller has made room for the block at its longest and a whole entry more,
/// so every entry fits: the index is then held within `out` with `min`, which changes nothing
/// and spares a bounds check a byte (faster for the blocks of a long value; the checked write
/// is faster for a short value's only block).
#[inline]
pub(super) fn write_entries<const W: usize, const ROOMY: bool>(
    block: &[u8],
    table: &[[u8; W]; 256],
    out: &mut [u8],
) -> (usize, usize) {
    let mut n = 0;
    for (done, &b) in block.iter().enumerate() {
        let entry = &table[usize::from(b)];
        if ROOMY {
            let at = n.min(out.len().saturating_sub(W));
            if let Some(slot) = out.get_mut(at..at + W) {
                slot.copy_from_slice(entry);
            }
        } else {
            let Some(slot) = out.get_mut(n..n + W) else {
                return (n, done);
            };
            slot.copy_from_slice(entry);
        }
        n += usize::from(entry[W - 1]);
    }
    (n, block.len())
}

/// Percent-encodes `bytes` with `table` ([`ONCE`] or [`TWICE`]), handing `sink` the encoded
/// pieces, all ASCII: whole blocks of unreserved bytes as they are, the other blocks through a
/// stack buffer.
pub(super) fn encode_pieces<const W: usize, E>(
    bytes: &[u8],
    table: &[[u8; W]; 256],
    buf: &mut [u8; BUFFER],
    mut sink: impl FnMut(&[u8]) -> Result<(), E>,
) -> Result<(), E> {
    let mut rest = bytes;
    while !rest.is_empty() {
        let clean = clean_blocks(rest);
        if clean > 0 {
            sink(&rest[..clean])?;
        }
        let (block, tail) = rest[clean..].split_at((rest.len() - clean).min(ENCODE_BLOCK));
        if tail.is_empty() && block.iter().all(|&b| is_unreserved_lookup(b)) {
            // The short end, or a short name or value, often has nothing to escape.
            sink(block)?;
        } else {
            // `buf` has room for any block (at most 5 bytes a byte) and an entry more.
            let (n, _) = if tail.is_empty() {
                write_entries::<W, false>(block, table, buf)
            } else {
                write_entries::<W, true>(block, table, buf)
            };
            sink(&buf[..n])?;
        }
        rest = tail;
    }
    Ok(())
}

/// One pair decoded by [`decode_pairs`]: where its name and value are in the output, and
/// whether both are unreserved bytes copied as they came, and so their own decoding and their
/// own encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DecodedPair {
    pub(crate) name_start: usize,
    pub(crate) name_end: usize,
    pub(crate) value_end: usize,
    pub(crate) clean: bool,
}

/// The part of a value [`decode_run`] decodes; the rest of a longer one goes to
/// [`decode_long`] when it fills a block, else on to [`decode_run`].
const LONG_VALUE: usize = 48;

/// Decodes the `name=value` pairs of a query or form body (joined by `&`, the name up to the
/// first `=`, empty pairs skipped, `%XX` decoded and `+` a space, §3.4.1.3.1) into `out`,
/// which is at least as long as `text` (decoding never lengthens), handing each pair and its
/// decoded name to `each`; returns the decoded length, or the first malformed escape.
///
/// The pairs at the start that have nothing to decode are split by [`split_plain`]; the
/// rest, from the first pair that may have, one pair at a time.
pub(crate) fn decode_pairs(
    text: &[u8],
    out: &mut [u8],
    mut each: impl FnMut(DecodedPair, &[u8]),
) -> Result<usize, DecodeError> {
    let error = |at| escape_error(text, at);
    let (mut i, mut n) = split_plain(text, out, &mut each);
    while i < text.len() {
        if text[i] == b'&' {
            i += 1; // an empty pair
            continue;
        }
        let (name_start, pair_start) = (n, i);
        (i, n) = decode_run::<true>(text, i, text.len(), out, n).map_err(error)?;
        let name_end = n;
        let has_value = text.get(i) == Some(&b'=');
        if has_value {
            let limit = (i + 1 + LONG_VALUE).min(text.len());
            (i, n) = decode_run::<false>(text, i + 1, limit, out, n).map_err(error)?;
            if i >= limit && text.get(i).is_some_and(|&b| b != b'&') {
                // A long value: the rest of it a block at a time if it fills one.
                let end = i + run_until(&text[i..], |b| b == b'&');
                if end - i >= DECODE_BLOCK {
                    n += decode_long(&text[i..end], &mut out[n..]).map_err(|at| error(i + at))?;
                    i = end;
                } else {
                    (i, n) = decode_run::<false>(text, i, end, out, n).map_err(error)?;
                }
            }
        }
        // Unreserved bytes only, and as many as were written (no escape, `=` aside).
        let written = i - pair_start - usize::from(has_value);
        let pair = DecodedPair {
            name_start,
            name_end,
            value_end: n,
            clean: written == n - name_start && is_clean(&out[name_start..n]),
        };
        each(pair, &out[name_start..name_end]);
    }
    Ok(n)
}

/// Whether `byte` may be in a query or form body that [`split_plain`] splits: unreserved, or
/// one of the separators `&` and `=`.
#[inline]
#[allow(clippy::needless_bitwise_bool)] // short-circuiting would stop the vectorizing
fn is_plain_pair_byte(byte: u8) -> bool {
    is_unreserved(byte) | (byte == b'&') | (byte == b'=')
}

/// The pairs of `text` from its start as [`decode_pairs`] decodes them, for as long as they
/// have nothing to decode (every byte unreserved, `&` or `=`, as the pairs of a plain query
/// are): each name and value copied as it is, a pair clean unless its value has an `=`. Returns
/// where it stopped in `text` and in `out`: at the end, or at the start of the pair in which
/// (or past which, in the same chunk) a byte that may need decoding was seen.
///
/// A chunk of sixteen bytes at a time: whether all are plain, as one vector test; then,
/// unless the chunk has no separator (another vector test), the separators found in each of
/// its two words by exact arithmetic, a bit each. A name or value is copied sixteen bytes at a
/// time ([`copy_piece`]). Cheaper than the per-pair decoder on such pairs: two comparisons a
/// word where it makes four (`%` and `+` cannot occur), no call for each name and value, and
/// no second pass over the pair to tell whether it is clean.
#[inline]
#[allow(clippy::needless_bitwise_bool)] // short-circuiting would stop the vectorizing
fn split_plain(
    text: &[u8],
    out: &mut [u8],
    each: &mut impl FnMut(DecodedPair, &[u8]),
) -> (usize, usize) {
    let separator = |b: u8| (b == b'&') | (b == b'=');
    // The pair being read: where it starts, where its first `=` is, whether it has another.
    let (mut start, mut equals, mut clean) = (0, None, true);
    let mut n = 0;
    let mut at = 0;
    while at < text.len() {
        let mut padded = [b'a'; CHUNK];
        let chunk = if let Some(chunk) = text[at..].first_chunk::<CHUNK>() {
            chunk
        } else {
            // The end, padded with a byte that is plain and no separator.
            padded[..text.len() - at].copy_from_slice(&text[at..]);
            &padded
        };
        if !all_in(chunk, is_plain_pair_byte) {
            return (start, n);
        }
        if !all_in(chunk, |b| !separator(b)) {
            let (words, _) = chunk.as_chunks::<8>();
            for (k, word) in words.iter().enumerate() {
                let word = u64::from_le_bytes(*word);
                let amps = bytes_equal(word, b'&');
                let mut stops = amps | bytes_equal(word, b'=');
                while stops != 0 {
                    let bit = stops & stops.wrapping_neg();
                    stops ^= bit;
                    let i = at + 8 * k + bit.trailing_zeros() as usize / 8;
                    if amps & bit == 0 {
                        // An `=`: the pair's first ends its name; another is in its value.
                        clean &= equals.is_none();
                        equals = equals.or(Some(i));
                    } else {
                        n = emit_plain(text, (start, equals, i), clean, out, n, each);
                        (start, equals, clean) = (i + 1, None, true);
                    }
                }
            }
        }
        at += CHUNK;
    }
    n = emit_plain(text, (start, equals, text.len()), clean, out, n, each);
    (text.len(), n)
}

/// Copies the plain pair `text[start..end]` (its first `=` at `equals`) to `out` at `n` as
/// its name and value, hands it to `each` unless it is empty, and returns the output's new
/// length.
#[inline]
fn emit_plain(
    text: &[u8],
    (start, equals, end): (usize, Option<usize>, usize),
    clean: bool,
    out: &mut [u8],
    n: usize,
    each: &mut impl FnMut(DecodedPair, &[u8]),
) -> usize {
    if start == end {
        return n; // an empty pair
    }
    let name_end = n + equals.unwrap_or(end) - start;
    copy_piece(text, start..equals.unwrap_or(end), out, n);
    let value_end = match equals {
        Some(equals) => {
            copy_piece(text, equals + 1..end, out, name_end);
            name_end + end - equals - 1
        }
        None => name_end,
    };
    let pair = DecodedPair {
        name_start: n,
        name_end,
        value_end,
        clean,
    };
    each(pair, &out[n..name_end]);
    value_end
}

/// Copies `text[piece]` to `out` at `n` (which is no further than the piece's start: `out` is
/// at least as long as `text`), sixteen bytes at a time while `text` has sixteen to read: up to
/// fifteen bytes past the piece's copy are written too, which the next piece writes over, or
/// which lie past what is kept.
#[inline]
fn copy_piece(text: &[u8], piece: std::ops::Range<usize>, out: &mut [u8], n: usize) {
    let (mut i, mut j) = (piece.start, n);
    while i < piece.end {
        let from = text.get(i..).and_then(<[u8]>::first_chunk::<CHUNK>);
        let to = out.get_mut(j..).and_then(<[u8]>::first_chunk_mut::<CHUNK>);
        if let (Some(from), Some(to)) = (from, to) {
            *to = *from;
        } else {
            out[j..j + piece.end - i].copy_from_slice(&text[i..piece.end]);
            return;
        }
        (i, j) = (i + CHUNK, j + CHUNK);
    }
}

/// Decodes `text` from `i` into `out` from `n` until `&`, `=` for a `NAME`, the end, or
/// `limit`; returns where it stopped in both, or the offset of a malformed escape.
///
/// Eight bytes at a time as a word: a word is copied whole, `+` turned into spaces in it, and
/// the copy moves on to the first byte that stops it (`%`, `&`, `=`), found by arithmetic on
/// the word, so a run of literals costs a few instructions however it is made up. An escape is
/// then decoded on its own.
#[inline]
fn decode_run<const NAME: bool>(
    text: &[u8],
    mut i: usize,
    limit: usize,
    out: &mut [u8],
    mut n: usize,
) -> Result<(usize, usize), usize> {
    let hex = |j: usize| HEX_VALUE[usize::from(text.get(j).copied().unwrap_or(0))];
    // Bytes start no further than `limit`; an escape's hex digits may lie past it.
    let limit = limit.min(text.len());
    while i < limit {
        let mut word = [0u8; 8];
        match text.get(i..).and_then(<[u8]>::first_chunk::<8>) {
            Some(whole) => word = *whole,
            None => word[..text.len() - i].copy_from_slice(&text[i..]),
        }
        let word = u64::from_le_bytes(word);
        let mut stops = bytes_equal(word, b'&');
        if NAME {
            stops |= bytes_equal(word, b'=');
        }
        stops |= bytes_equal(word, b'%');
        // Zero-padded bytes past the end stop nothing; `limit` stops the run there.
        let run = (stops.trailing_zeros() as usize / 8).min(limit - i);
        // `+` (0x2B) to a space (0x20): 0x0B flipped in each byte that is one.
        let word = word ^ ((bytes_equal(word, b'+') >> 7) * 0x0B);
        let word = word.to_le_bytes();
        match out.get_mut(n..n + 8) {
            Some(slot) => slot.copy_from_slice(&word),
            None => out[n..n + run].copy_from_slice(&word[..run]),
        }
        (i, n) = (i + run, n + run);
        if run == 8 {
            continue;
        }
        if i >= limit || text[i] != b'%' {
            break; // `&`, `=` or the limit
        }
        // Escapes in a row (the bytes of a character beyond ASCII, say) one after another.
        while i < limit && text[i] == b'%' {
            let (hi, lo) = (hex(i + 1), hex(i + 2));
            if (hi | lo) > 15 {
                return Err(i);
            }
            out[n] = hi << 4 | lo;
            (i, n) = (i + 3, n + 1);
        }
    }
    Ok((i, n))
}

/// The high bit of each byte of `word` that equals `byte`, and no other bit: exact, with no
/// carry from one byte into the next.
#[inline]
const fn bytes_equal(word: u64, byte: u8) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let x = word ^ (byte as u64 * 0x0101_0101_0101_0101);
    // The high bit of each byte of `x` that is not zero, then flipped.
    !(((x & LOW7) + LOW7) | x) & !LOW7
}

/// The high bit of each byte of `word` below `limit` (at most 0x80), and no other bit: exact,
/// with no carry from one byte into the next.
#[inline]
const fn bytes_below(word: u64, limit: u8) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    // The high bit of each byte whose low 7 bits are at least `limit`.
    let at_least = (word & LOW7) + (0x80 - limit as u64) * 0x0101_0101_0101_0101;
    !(at_least | word) & !LOW7
}

/// Input bytes [`decode_long`] decodes at a time.
const DECODE_BLOCK: usize = 32;

/// A block with the two bytes before it (to tell the hex digits of an escape) and the two
/// after it (an escape's digits).
const WINDOW: usize = DECODE_BLOCK + 4;

/// Decodes the rest of a long value (no `&`) into `out`, which is at least as long, returning
/// the decoded length, or the offset of the first malformed escape.
///
/// A block of bytes at a time, in two steps. First each byte is decoded as if it began a `%XX`
/// or a literal, and marked to keep unless it lies one or two bytes after a `%` (the hex digits
/// of a well-formed escape are never `%`; a malformed one fails the whole value). That step
/// works on every byte alike, with arithmetic in place of tables, so the compiler does it for
/// many bytes per instruction. Then the kept bytes are packed, one add per byte.
#[allow(clippy::needless_bitwise_bool)] // no branch per byte
fn decode_long(text: &[u8], out: &mut [u8]) -> Result<usize, usize> {
    let (mut n, mut i, mut malformed) = (0, 0, false);
    while i < text.len() {
        let len = (text.len() - i).min(DECODE_BLOCK);
        // A block of literals (no `%`, and not the hex digits of an escape begun before it)
        // is copied a word at a time, each `+` made a space on the way.
        let block = &text[i..i + len];
        let escape_before = text[i.saturating_sub(2)..i].contains(&b'%');
        if !escape_before && escapes_ahead(block) {
            // A run of escapes (the bytes of characters beyond ASCII, say) an escape at a time:
            // one branch an escape, which the run makes predictable, where the block decoder
            // spends its work on every byte. A malformed escape ends the run; the block
            // decoder then finds it (at once, if the run begins with it).
            let start = i;
            while let Some(&[b'%', hi, lo]) = text.get(i..i + 3) {
                let (hi, lo) = (HEX_VALUE[usize::from(hi)], HEX_VALUE[usize::from(lo)]);
                if (hi | lo) > 15 {
                    break;
                }
                out[n] = hi << 4 | lo;
                (i, n) = (i + 3, n + 1);
            }
            if i > start {
                continue;
            }
        }
        if !escape_before && copy_literals(block, &mut out[n..n + len]) {
            n += len;
            i += len;
            continue;
        }
        let (mut decoded, mut keep) = ([0u8; DECODE_BLOCK], [0u8; DECODE_BLOCK]);
        // Read in place but at the ends, where a copy pads the window with zeros.
        let copy;
        let window = (i.checked_sub(2).and_then(|from| text.get(from..)))
            .and_then(<[u8]>::first_chunk::<WINDOW>);
        let window = if let Some(window) = window {
            window
        } else {
            copy = padded_window(text, i);
            &copy
        };
        malformed |= decode_block(window, &mut decoded, &mut keep);
        if len < DECODE_BLOCK {
            keep[len..].fill(0);
        }
        // Where each byte goes: the number of bytes kept before it.
        let mut packed = [0u8; DECODE_BLOCK];
        let mut k = 0;
        for j in 0..DECODE_BLOCK {
            // `k` never passes `j`, so the mask never wraps; it only spares a bounds check.
            packed[k % DECODE_BLOCK] = decoded[j];
            k += usize::from(keep[j]);
        }
        if let Some(slot) = out.get_mut(n..n + k) {
            slot.copy_from_slice(&packed[..k]);
        }
        n += k;
        i += DECODE_BLOCK;
    }
    if malformed {
        // The first malformed escape, found again (what was written is dropped).
        let hex = |j: usize| HEX_VALUE[usize::from(text.get(j).copied().unwrap_or(0))];
        let bad = |j: usize| text[j] == b'%' && (hex(j + 1) | hex(j + 2)) > 15;
        return Err((0..text.len()).find(|&j| bad(j)).unwrap_or_default());
    }
    Ok(n)
}

/// Whether `block` begins with four escapes in a row (`%XX%XX%XX%XX`, the digits unchecked).
#[inline]
fn escapes_ahead(block: &[u8]) -> bool {
    matches!(block, [b'%', _, _, b'%', _, _, b'%', _, _, b'%', ..])
}

/// Decodes `block` into `out` (as long) when it has no `%`: its bytes as they are, each `+` a
/// space; whether it did (with a `%`, `out` is left to the byte-wise decoder).
#[inline]
fn copy_literals(block: &[u8], out: &mut [u8]) -> bool {
    let (words, rest) = block.as_chunks::<8>();
    let mut plus = 0;
    for word in words {
        let word = u64::from_le_bytes(*word);
        // Mixed text has a `%` in most blocks: the first one found ends the look.
        if bytes_equal(word, b'%') != 0 {
            return false;
        }
        plus |= bytes_equal(word, b'+');
    }
    if rest.contains(&b'%') {
        return false;
    }
    if plus == 0 && !rest.contains(&b'+') {
        out.copy_from_slice(block);
        return true;
    }
    let (slots, rest_out) = out.as_chunks_mut::<8>();
    for (word, slot) in words.iter().zip(slots) {
        let word = u64::from_le_bytes(*word);
        // `+` (0x2B) to a space (0x20): 0x0B flipped in each byte that is one.
        *slot = (word ^ ((bytes_equal(word, b'+') >> 7) * 0x0B)).to_le_bytes();
    }
    for (&b, slot) in rest.iter().zip(rest_out) {
        *slot = if b == b'+' { b' ' } else { b };
    }
    true
}

/// The bytes of `text` from `i - 2` to `i + DECODE_BLOCK + 2`, zeros where they fall outside it.
fn padded_window(text: &[u8], i: usize) -> [u8; WINDOW] {
    let from = i.saturating_sub(2);
    let to = (i + DECODE_BLOCK + 2).min(text.len());
    let at = 2 - (i - from);
    let mut window = [0u8; WINDOW];
    window[at..at + (to - from)].copy_from_slice(&text[from..to]);
    window
}

/// Writes each byte of the block in `window` decoded as if it began an escape or a literal, and
/// which of them to keep; returns whether an escape in it is malformed.
#[allow(clippy::needless_bitwise_bool)] // no branch per byte
#[inline]
fn decode_block(
    window: &[u8; WINDOW],
    decoded: &mut [u8; DECODE_BLOCK],
    keep: &mut [u8; DECODE_BLOCK],
) -> bool {
    let percent = |c: u8| u8::from(c == b'%');
    // Each byte reads the window at its own offsets: the arithmetic is done again for each
    // offset rather than kept in arrays, whose wide reads at odd offsets would wait on the
    // narrow writes that made them.
    let mut bad = 0u8;
    for j in 0..DECODE_BLOCK {
        let b = window[j + 2];
        let escape = percent(b);
        let ((hi, hi_ok), (lo, lo_ok)) = (hex_digit(window[j + 3]), hex_digit(window[j + 4]));
        bad |= escape & !(hi_ok & lo_ok);
        let literal = if b == b'+' { b' ' } else { b };
        // All ones for an escape: the decoded byte, else the literal.
        let mask = 0u8.wrapping_sub(escape);
        decoded[j] = ((hi << 4 | lo) & mask) | (literal & !mask);
        keep[j] = 1 ^ (percent(window[j + 1]) | percent(window[j]));
    }
    bad != 0
}

/// The value of a hex digit (either case) and 1, or anything and 0 for another byte.
#[allow(clippy::needless_bitwise_bool)] // no branch per byte
#[inline]
fn hex_digit(c: u8) -> (u8, u8) {
    let digit = c.wrapping_sub(b'0');
    let letter = (c | 0x20).wrapping_sub(b'a');
    let value = if digit < 10 {
        digit
    } else {
        letter.wrapping_add(10)
    };
    (value, u8::from((digit < 10) | (letter < 6)))
}

/// The number of bytes that are not unreserved, counted a block at a time with vector
/// instructions.
pub(crate) fn escaped_count(bytes: &[u8]) -> usize {
    count_where(bytes, b'a', |b| !is_unreserved(b))
}

/// Whether `bytes` is short and needs no escape, so that it is its own encoding: the common
/// case of names and values, which then skips the stack buffer (zeroing it costs more than
/// encoding them).
pub(super) fn short_and_clean(bytes: &[u8]) -> bool {
    bytes.len() <= ENCODE_BLOCK && is_clean(bytes)
}

/// The byte-by-byte twins of the kernels: what each must answer.
#[cfg(test)]
pub(super) mod naive {
    use super::super::is_unreserved;

    /// [`super::count_where`], one byte at a time.
    pub(in super::super) fn count_where(bytes: &[u8], counted: impl Fn(u8) -> bool) -> usize {
        bytes.iter().filter(|&&b| counted(b)).count()
    }

    /// [`super::run_until`], one byte at a time.
    pub(in super::super) fn run_until(bytes: &[u8], stop: impl Fn(u8) -> bool) -> usize {
        bytes.iter().position(|&b| stop(b)).unwrap_or(bytes.len())
    }

    /// [`super::unreserved_len`], one byte at a time.
    pub(in super::super) fn unreserved_len(bytes: &[u8]) -> usize {
        bytes
            .iter()
            .position(|&b| !is_unreserved(b))
            .unwrap_or(bytes.len())
    }

    /// [`super::is_clean`], one byte at a time.
    pub(in super::super) fn is_clean(bytes: &[u8]) -> bool {
        bytes.iter().all(|&b| is_unreserved(b))
    }

    /// [`super::count_byte`], one byte at a time.
    #[allow(clippy::naive_bytecount)] // the naive twin, on purpose
    pub(in super::super) fn count_byte(bytes: &[u8], byte: u8) -> usize {
        bytes.iter().filter(|&&b| b == byte).count()
    }

    /// [`super::plain_quoted_len`], one byte at a time.
    pub(in super::super) fn plain_quoted_len(bytes: &[u8]) -> usize {
        bytes
            .iter()
            .position(|&c| c == b'"' || c == b'\\' || crate::grammar::is_control(c))
            .unwrap_or(bytes.len())
    }

    /// [`super::clean_blocks`], one byte at a time.
    pub(in super::super) fn clean_blocks(bytes: &[u8]) -> usize {
        let clean = bytes.iter().take_while(|&&b| is_unreserved(b)).count();
        clean - clean % super::ENCODE_BLOCK
    }
}

#[cfg(test)]
mod tests;
