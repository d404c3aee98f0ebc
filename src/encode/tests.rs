//! The encoder's and decoders' tests.

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
    vec.reserve(encoded_len(input));
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
            vec.reserve(encoded_len(&input));
            let capacity = vec.capacity();
            encode_to_vec(&input, &mut vec);
            assert_eq!(&vec[6..], want.as_bytes(), "len {len}");
            assert_eq!(vec.capacity(), capacity, "grew");

            for room in [encoded_twice_len(&input), 0] {
                let mut writer = Writer::with_len(room + 2);
                writer.raw(b"x&");
                writer.twice(&input, &mut Some(Scratch::new()));
                let twice = writer.finish();
                assert_eq!(&twice[2..], want_twice.as_bytes(), "len {len}");
                if room > 0 {
                    assert_eq!(twice.capacity(), room + 2 + buffer::SLACK, "grew");
                }
                let mut writer = Writer::with_len(room);
                writer.once(&input);
                assert_eq!(writer.finish(), want.as_bytes(), "len {len}");
            }

            let mut appended = String::from("x");
            encode(&input).append_to(&mut appended);
            assert_eq!(appended[1..], want);
            assert_eq!(encode(&input).to_string(), want);
            assert_eq!(encode(&input).collect::<String>(), want);
            assert_eq!(Cow::from(encode(&input)), want);
            assert_eq!(encoded_len(&input), want.len());
            assert_eq!(is_clean(&input), want.len() == input.len());
            checked += 1;
        }
    }
    assert_eq!(checked, 4 * 205);
}

#[test]
fn escapes_are_counted_at_every_length_and_position() {
    // A dirty byte at every position of every length up to past four chunks, and none.
    for len in 0..=70 {
        for dirty_at in (0..len).map(Some).chain([None]) {
            for dirty in [b'%', b' ', 0xff, b'&'] {
                let mut bytes = vec![b'a'; len];
                if let Some(at) = dirty_at {
                    bytes[at] = dirty;
                }
                // The scanning kernels have their own test beside them.
                let escapes = bytes.iter().filter(|&&b| !is_unreserved(b)).count();
                assert_eq!(escaped_count(&bytes), escapes, "{len} {dirty_at:?}");
            }
        }
    }
}

#[test]
fn encoding_twice_in_one_pass_equals_encoding_the_encoding() {
    let input = b"a b%\xff~=&";
    let mut once = Vec::new();
    encode_to_vec(input, &mut once);
    let mut twice = Vec::new();
    encode_to_vec(&once, &mut twice);
    let mut writer = Writer::with_len(0);
    writer.twice(input, &mut None);
    let fused = writer.finish();
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
