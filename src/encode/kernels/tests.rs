//! Each kernel held to its byte-by-byte twin.

use super::*;

/// Every length up to past four blocks of the widest kernel, with no stopping byte and
/// with one of several at every position.
fn inputs() -> impl Iterator<Item = Vec<u8>> {
    (0..=4 * ENCODE_BLOCK + 3).flat_map(|len| {
        (0..len).map(Some).chain([None]).flat_map(move |dirty_at| {
            [b'%', b' ', 0xff, b'&', b'/']
                .into_iter()
                .map(move |dirty| {
                    let mut bytes: Vec<u8> = (0..len).map(|i| b"aZ09-._~"[i % 8]).collect();
                    if let Some(at) = dirty_at {
                        bytes[at] = dirty;
                    }
                    bytes
                })
        })
    })
}

#[test]
fn every_kernel_agrees_with_its_byte_by_byte_twin() {
    let amp = |b: u8| b == b'&';
    let mut checked = 0;
    for bytes in inputs() {
        assert_eq!(is_clean(&bytes), naive::is_clean(&bytes), "{bytes:?}");
        assert_eq!(
            unreserved_len(&bytes),
            naive::unreserved_len(&bytes),
            "{bytes:?}"
        );
        assert_eq!(
            run_until(&bytes, amp),
            naive::run_until(&bytes, amp),
            "{bytes:?}"
        );
        assert_eq!(
            count_where(&bytes, 0, amp),
            naive::count_where(&bytes, amp),
            "{bytes:?}"
        );
        assert_eq!(
            clean_blocks(&bytes),
            naive::clean_blocks(&bytes),
            "{bytes:?}"
        );
        assert_eq!(
            count_byte(&bytes, b'&'),
            naive::count_byte(&bytes, b'&'),
            "{bytes:?}"
        );
        checked += 1;
    }
    assert!(checked > 5 * 250 * 250 / 2, "{checked}");
}

#[test]
fn values_long_and_short_decode_as_the_reference_does_and_fail_at_the_same_byte() {
    // Every length across the switch to the long loop, from clean to all escapes, with
    // the pattern shifted so that escapes fall on every position and across the switch;
    // and malformed escapes placed anywhere, including at the end.
    let patterns: [&[u8]; 6] = [
        b"abc",
        b"a%20b+",
        b"%41%7e%FF",
        b"%2",
        b"x%zz%41",
        b"+%2B=%3d",
    ];
    let mut long = 0;
    for pattern in patterns {
        for len in (0..=140).chain([255, 256, 600]) {
            for shift in 0..pattern.len() {
                let value: Vec<u8> = pattern
                    .iter()
                    .cycle()
                    .skip(shift)
                    .take(len)
                    .copied()
                    .collect();
                let text = [&b"n=v&name="[..], &value, b"&z=1"].concat();
                let (got, pairs) = decoded(&text, |pair, out| {
                    out[pair.name_end..pair.value_end].to_vec()
                });
                let got = got.map_err(|at| at - 9);
                let want = super::super::decode_form(&value)
                    .map(|d| Some(d.into_owned()))
                    .map_err(|e| e.offset());
                let shown = value.escape_ascii().to_string();
                assert_eq!(got, want, "{shown:?}");
                if got.is_ok() {
                    assert_eq!(pairs, 3, "{shown:?}");
                }
                // The same bytes as a name, which stops at `=` where a value does not.
                if value.contains(&b'=') {
                    continue;
                }
                let text = [&b"n=v&"[..], &value, b"=x&z=1"].concat();
                let (got_name, _) = decoded(&text, |pair, out| {
                    out[pair.name_start..pair.name_end].to_vec()
                });
                let got_name = got_name.map_err(|at| at - 4);
                let want_name = if value.is_empty() {
                    Ok(Some(Vec::new())) // `=x`: an empty name
                } else {
                    want
                };
                assert_eq!(got_name, want_name, "name {shown:?}");
                long += usize::from(len >= LONG_VALUE + DECODE_BLOCK);
            }
        }
    }
    assert!(long > 100);
}

#[test]
fn a_long_literal_value_with_one_escape_anywhere_decodes_as_the_reference_does() {
    // Blocks of literals are copied whole; one escape (or `+`, or a malformed escape) at every
    // position, across block boundaries and split by one, makes its block and the next decode
    // byte by byte.
    // Runs of four escapes and more are decoded an escape at a time: a run at every position,
    // one cut short by a malformed escape (after its start, or first), and one cut by the end.
    for insert in [
        &b"%41"[..],
        b"+",
        b"%e2%9c%93",
        b"%4",
        b"%zz",
        b"%e4%b8%ad%e6%96%87%2B",
        b"%41%42%43%4g%44%45",
        b"%41%42%43%44%z1",
        b"%41%42%43%44%4",
        b"%zz%41%42%43%44",
    ] {
        for len in [LONG_VALUE + DECODE_BLOCK, LONG_VALUE + 3 * DECODE_BLOCK + 5] {
            for at in 0..=len {
                let mut value = vec![b'a'; len];
                value.splice(at..at, insert.iter().copied());
                let text = [&b"n=v&name="[..], &value, b"&z=1"].concat();
                let (got, _) = decoded(&text, |pair, out| {
                    out[pair.name_end..pair.value_end].to_vec()
                });
                let want = super::super::decode_form(&value)
                    .map(|d| Some(d.into_owned()))
                    .map_err(|e| e.offset());
                assert_eq!(got.map_err(|at| at - 9), want, "{}", value.escape_ascii());
            }
        }
    }
}

/// The second pair of `text` decoded by [`decode_pairs`], as `part` takes it, and the
/// number of pairs; or the offset of the malformed escape.
fn decoded(
    text: &[u8],
    part: impl Fn(DecodedPair, &[u8]) -> Vec<u8>,
) -> (Result<Option<Vec<u8>>, usize>, usize) {
    let mut out = vec![0; text.len()];
    let mut pairs = Vec::new();
    let result = decode_pairs(text, &mut out, |pair, _| pairs.push(pair));
    let count = pairs.len();
    let got = result
        .map(|_| pairs.get(1).map(|&pair| part(pair, &out)))
        .map_err(|e| e.offset());
    (got, count)
}

#[test]
fn the_quoted_string_kernel_agrees_with_its_twin() {
    // Every length past several chunks, with each byte that ends the plain run (and a tab,
    // which does not) at every position.
    for len in 0..=4 * CHUNK + 3 {
        for at in 0..=len {
            for dirty in [b'"', b'\\', 0x00, 0x01, 0x1f, 0x7f, b'\t', 0x80, b' '] {
                let mut bytes: Vec<u8> = (0..len).map(|i| b"aZ09 ,=/"[i % 8]).collect();
                if at < len {
                    bytes[at] = dirty;
                }
                assert_eq!(
                    plain_quoted_len(&bytes),
                    naive::plain_quoted_len(&bytes),
                    "{bytes:?}"
                );
            }
        }
    }
}

#[test]
fn bytes_equal_marks_exactly_the_equal_bytes() {
    // Every byte value at every position, among neighbours that could carry or borrow.
    for target in [b'&', b'%', b'+', b'='] {
        for fill in [0x00, 0xFF, 0x80, 0x7F, target, target ^ 1] {
            for at in 0..8 {
                for b in 0..=255u8 {
                    let mut word = [fill; 8];
                    word[at] = b;
                    let want = word.iter().enumerate().fold(0u64, |m, (k, &x)| {
                        m | (u64::from(x == target) << (8 * k + 7))
                    });
                    let got = bytes_equal(u64::from_le_bytes(word), target);
                    assert_eq!(got, want, "{word:?} {target}");
                }
            }
        }
    }
}

#[test]
fn hex_digits_by_arithmetic_agree_with_the_table() {
    for c in 0..=255u8 {
        let (value, digit) = hex_digit(c);
        let want = super::super::rules::HEX_VALUE[usize::from(c)];
        assert_eq!(digit == 1, want <= 15, "{c:#04x}");
        if want <= 15 {
            assert_eq!(value, want, "{c:#04x}");
        }
    }
}

/// The unreserved scan classifies every byte value as the rules do, at every position of a
/// chunk, of the overlapping last chunk and of input shorter than a chunk.
#[test]
fn the_unreserved_scan_stops_at_every_byte_the_rules_reserve() {
    for len in [1, 7, 15, 16, 17, 31, 32, 33] {
        for at in 0..len {
            for byte in 0..=u8::MAX {
                let mut bytes = vec![b'~'; len];
                bytes[at] = byte;
                assert_eq!(
                    unreserved_len(&bytes),
                    naive::unreserved_len(&bytes),
                    "{byte:#04x} at {at} of {len}"
                );
            }
        }
    }
}

/// `text`'s pairs as [`decode_pairs`] must give them, one pair at a time with the strict
/// reference decoder: each pair's decoded name and value and whether it is clean (its name
/// and value unreserved as written), and the bytes written; or the first malformed escape.
#[allow(clippy::type_complexity)]
fn pairs_by_reference(text: &[u8]) -> Result<(Vec<(Vec<u8>, Vec<u8>, bool)>, usize), usize> {
    let mut pairs = Vec::new();
    let mut offset = 0;
    let mut written = 0;
    for pair in text.split(|&b| b == b'&') {
        let (name, value) = match pair.iter().position(|&b| b == b'=') {
            Some(i) => (&pair[..i], &pair[i + 1..]),
            None => (pair, &[][..]),
        };
        let decode = |part: &[u8], at: usize| {
            super::super::decode_form(part)
                .map(std::borrow::Cow::into_owned)
                .map_err(|e| at + e.offset())
        };
        if !pair.is_empty() {
            let name_at = offset;
            let value_at = offset + name.len() + 1;
            let (name, value, clean) = (
                decode(name, name_at)?,
                decode(value, value_at)?,
                naive::is_clean(name) && naive::is_clean(value),
            );
            written += name.len() + value.len();
            pairs.push((name, value, clean));
        }
        offset += pair.len() + 1;
    }
    Ok((pairs, written))
}

/// Queries and bodies of plain pairs (the pairs [`split_plain`] splits), with separators at
/// every position of a chunk, empty pairs and names, `=` in values, pairs long and short;
/// alone and followed, at every position, by bytes to decode (where the pair decoder takes
/// over) or a malformed escape: decoded as the reference decodes them, pair by pair.
#[test]
fn plain_pairs_and_what_follows_them_decode_as_the_reference_does() {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |below: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        usize::try_from(state >> 33).unwrap() % below
    };
    let pieces: [&[u8]; 10] = [
        b"a",
        b"Z9",
        b"-._~",
        b"&",
        b"=",
        b"&&",
        b"x=y",
        b"==",
        b"abcdefghijklmnopq",
        b"0123456789abcdef0123456789abcdef0123456789",
    ];
    let tails: [&[u8]; 7] = [
        b"",
        b"%41",
        b"+",
        b"%e2%9c%93&b=c",
        b"%4",
        b"%zz=1",
        b"q=%20+%2B",
    ];
    for round in 0..6000 {
        let mut text = Vec::new();
        while text.len() < round % 150 {
            text.extend_from_slice(pieces[next(pieces.len())]);
        }
        let tail = tails[round % tails.len()];
        let at = if text.is_empty() {
            0
        } else {
            next(text.len() + 1)
        };
        text.splice(at..at, tail.iter().copied());
        let mut out = vec![0xAA; text.len()];
        let mut got = Vec::new();
        let result = decode_pairs(&text, &mut out, |pair, name| {
            got.push((pair, name.to_vec()));
        });
        let want = pairs_by_reference(&text);
        let shown = text.escape_ascii().to_string();
        match (result, want) {
            (Ok(n), Ok((want, written))) => {
                assert_eq!(n, written, "{shown}");
                let got: Vec<_> = got
                    .iter()
                    .map(|(p, name)| {
                        // The name handed over is the one written, where it was written.
                        assert_eq!(name[..], out[p.name_start..p.name_end], "{shown}");
                        (
                            out[p.name_start..p.name_end].to_vec(),
                            out[p.name_end..p.value_end].to_vec(),
                            p.clean,
                        )
                    })
                    .collect();
                assert_eq!(got, want, "{shown}");
            }
            (Err(e), Err(at)) => assert_eq!(e.offset(), at, "{shown}"),
            (got, want) => panic!("{shown}: {got:?} against {want:?}"),
        }
    }
}
