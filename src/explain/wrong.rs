//! Other implementations' mistakes written out, for the diagnosis alone: an encoder with
//! their rules, and the texts their decoders read. The signing stages know only the RFC's
//! rules; the diagnosis reproduces a mistake by handing them what the mistaken code would
//! have seen, or by encoding here.

use std::borrow::Cow;

use crate::encode;

/// An encoder's rules for parameter names and values. [`Rules::RFC`] is §3.6; each other
/// switch is a mistake seen in other implementations.
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
    /// `/` left as it is (Python's `urllib.parse.quote`, whose `safe` is `/` by default).
    pub(crate) slash_literal: bool,
}

impl Rules {
    /// RFC 5849 §3.6: every switch off.
    pub(crate) const RFC: Rules = Rules {
        space_as_plus: false,
        sub_delims_literal: false,
        tilde_escaped: false,
        lowercase_hex: false,
        reserved_literal: false,
        slash_literal: false,
    };
}

/// Percent-encodes `bytes` by `rules` onto the end of `out`; with [`Rules::RFC`], the signing
/// code's encoder itself.
pub(crate) fn encode_by(bytes: &[u8], rules: Rules, out: &mut Vec<u8>) {
    const UPPER: &[u8; 16] = b"0123456789ABCDEF";
    const LOWER: &[u8; 16] = b"0123456789abcdef";
    if rules == Rules::RFC {
        out.reserve(encode::encoded_len(bytes));
        return encode::encode_to_vec(bytes, out);
    }
    let hex = if rules.lowercase_hex { LOWER } else { UPPER };
    for &b in bytes {
        let literal = match b {
            b'~' => !rules.tilde_escaped,
            b' ' if rules.space_as_plus => {
                out.push(b'+');
                continue;
            }
            b'!' | b'*' | b'\'' | b'(' | b')' => rules.sub_delims_literal,
            b'/' => rules.reserved_literal || rules.slash_literal,
            b'?' | b':' | b'@' | b',' | b';' | b'=' | b'+' | b'$' | b'[' | b']' => {
                rules.reserved_literal
            }
            _ => encode::is_unreserved(b),
        };
        if literal {
            out.push(b);
        } else {
            out.extend_from_slice(&[b'%', hex[usize::from(b >> 4)], hex[usize::from(b & 15)]]);
        }
    }
}

/// What the RFC's decoder must read to decode a query or form body as a decoder that keeps `+`
/// as a plus (`%XX` decoded): every `+` escaped.
pub(crate) fn plus_kept(text: &[u8]) -> Cow<'_, [u8]> {
    escaped(text, b"+")
}

/// What the RFC's decoder must read to leave a query or form body undecoded (the bytes as on
/// the wire, split into pairs): every `%` and `+` escaped.
pub(crate) fn undecoded(text: &[u8]) -> Cow<'_, [u8]> {
    escaped(text, b"%+")
}

/// A query with each value cut at the second `=` of its pair, as a parser that splits a pair
/// at every `=` and keeps the first two pieces reads it.
pub(crate) fn cut_at_second_equals(text: &[u8]) -> Cow<'_, [u8]> {
    let cut = |pair: &[u8]| pair.splitn(3, |&b| b == b'=').nth(2).is_some();
    if !text.split(|&b| b == b'&').any(cut) {
        return Cow::Borrowed(text);
    }
    let mut out = Vec::with_capacity(text.len());
    for (i, pair) in text.split(|&b| b == b'&').enumerate() {
        if i > 0 {
            out.push(b'&');
        }
        let mut pieces = pair.splitn(3, |&b| b == b'=');
        out.extend_from_slice(pieces.next().unwrap_or_default());
        if let Some(value) = pieces.next() {
            out.push(b'=');
            out.extend_from_slice(value);
        }
    }
    Cow::Owned(out)
}

/// What the RFC's decoder must read to leave the names of a query undecoded and decode its
/// values: every `%` and `+` of a name escaped.
pub(crate) fn names_undecoded(text: &[u8]) -> Cow<'_, [u8]> {
    let mut in_name = true;
    if !text.iter().any(|&b| b == b'%' || b == b'+') {
        return Cow::Borrowed(text);
    }
    let mut out = Vec::with_capacity(text.len() + 8);
    for &b in text {
        match b {
            b'&' => in_name = true,
            b'=' => in_name = false,
            _ => {}
        }
        match b {
            b'%' if in_name => out.extend_from_slice(b"%25"),
            b'+' if in_name => out.extend_from_slice(b"%2B"),
            _ => out.push(b),
        }
    }
    Cow::Owned(out)
}

/// What the RFC's decoder must read to decode a query as `Net::OAuth` does: each decoded byte
/// from 0x80 up taken as an ISO-8859-1 character and encoded as UTF-8 again (`%C3%A9`, é, read
/// as `%C3%83%C2%A9`). Only those escapes and raw bytes change; a malformed escape is left for
/// the decoder to report.
pub(crate) fn utf8_twice(text: &[u8]) -> Cow<'_, [u8]> {
    let high = |at: usize| match text[at] {
        b'%' => encode::decode_escape(text, at).ok().filter(|&b| b >= 0x80),
        b => Some(b).filter(|&b| b >= 0x80),
    };
    if !(0..text.len()).any(|at| high(at).is_some()) {
        return Cow::Borrowed(text);
    }
    let mut out = Vec::with_capacity(text.len() * 2);
    let mut at = 0;
    while at < text.len() {
        if let Some(b) = high(at) {
            encode_by(&[0xC0 | b >> 6, 0x80 | (b & 0x3F)], Rules::RFC, &mut out);
            at += if text[at] == b'%' { 3 } else { 1 };
        } else {
            out.push(text[at]);
            at += 1;
        }
    }
    Cow::Owned(out)
}

/// What the RFC's decoder must read to decode each name and value of a query or form body
/// twice: once as a form (`+` a space, `%XX` a byte), then `%XX` once more, a `%` without two
/// hex digits left as it is (`%2541` read as `A`). Each name and value is decoded so here and
/// escaped whole, so that the decoder's one pass gives those bytes.
pub(crate) fn decoded_twice(text: &[u8]) -> Cow<'_, [u8]> {
    // Without a `%`, the first decoding leaves none for the second.
    if !text.contains(&b'%') {
        return Cow::Borrowed(text);
    }
    let decode = |piece: &[u8], plus: bool| {
        let mut out = Vec::with_capacity(piece.len());
        let mut at = 0;
        while at < piece.len() {
            match piece[at] {
                b'%' => match encode::decode_escape(piece, at) {
                    Ok(b) => {
                        out.push(b);
                        at += 3;
                        continue;
                    }
                    Err(_) => out.push(b'%'),
                },
                b'+' if plus => out.push(b' '),
                b => out.push(b),
            }
            at += 1;
        }
        out
    };
    let twice = |piece: &[u8], out: &mut Vec<u8>| {
        encode_by(&decode(&decode(piece, true), false), Rules::RFC, out);
    };
    let mut out = Vec::with_capacity(text.len() * 2);
    for (i, pair) in text.split(|&b| b == b'&').enumerate() {
        if i > 0 {
            out.push(b'&');
        }
        match pair.iter().position(|&b| b == b'=') {
            Some(at) => {
                twice(&pair[..at], &mut out);
                out.push(b'=');
                twice(&pair[at + 1..], &mut out);
            }
            None => twice(pair, &mut out),
        }
    }
    Cow::Owned(out)
}

/// `text` with each byte of `these` written as its escape.
fn escaped<'a>(text: &'a [u8], these: &[u8]) -> Cow<'a, [u8]> {
    if !text.iter().any(|b| these.contains(b)) {
        return Cow::Borrowed(text);
    }
    let mut out = Vec::with_capacity(text.len() + 8);
    for &b in text {
        if these.contains(&b) {
            out.extend_from_slice(if b == b'%' { b"%25" } else { b"%2B" });
        } else {
            out.push(b);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{Parameters, Source};

    /// The pairs a text decodes to, by the RFC's decoder.
    fn pairs(text: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
        let mut params = Parameters::new();
        params.extend_urlencoded(Source::Query, text).unwrap();
        params
            .iter()
            .map(|p| (p.name.to_vec(), p.value.to_vec()))
            .collect()
    }

    #[test]
    fn cut_at_second_equals_keeps_what_lies_between_the_first_two() {
        let b = |s: &str| s.as_bytes().to_vec();
        assert_eq!(
            pairs(&cut_at_second_equals(b"next=a=b&q=1&r==x&s")),
            [
                (b("next"), b("a")),
                (b("q"), b("1")),
                (b("r"), b("")),
                (b("s"), b(""))
            ]
        );
        assert!(matches!(cut_at_second_equals(b"a=b&c=d"), Cow::Borrowed(_)));
    }

    #[test]
    fn names_undecoded_leaves_the_names_as_on_the_wire_and_decodes_the_values() {
        let text = b"a%20b=c%20d&e+f=g+h&i=j%3Dk=l";
        let b = |s: &str| s.as_bytes().to_vec();
        assert_eq!(
            pairs(&names_undecoded(text)),
            [
                (b("a%20b"), b("c d")),
                (b("e+f"), b("g h")),
                (b("i"), b("j=k=l")),
            ]
        );
        assert!(matches!(names_undecoded(b"a=%20"), Cow::Owned(_)));
        assert!(matches!(names_undecoded(b"a=b"), Cow::Borrowed(_)));
    }

    /// The pairs of `text` split on `&` and the first `=`, each side mapped by `f`.
    fn split(text: &[u8], f: impl Fn(&[u8]) -> Vec<u8>) -> Vec<(Vec<u8>, Vec<u8>)> {
        text.split(|&b| b == b'&')
            .filter(|pair| !pair.is_empty())
            .map(|pair| match pair.iter().position(|&b| b == b'=') {
                Some(eq) => (f(&pair[..eq]), f(&pair[eq + 1..])),
                None => (f(pair), Vec::new()),
            })
            .collect()
    }

    #[test]
    fn the_transformed_texts_decode_as_the_mistaken_decoders_do() {
        for text in [
            &b"a=1+2&b=%41%2b&c"[..],
            b"status=Hello+Ladies+%2B+Gentlemen&x=%zz",
            b"%25=%2525&&+=+",
            b"plain",
            b"",
        ] {
            // Undecoded: the bytes as on the wire, malformed escapes and all.
            assert_eq!(pairs(&undecoded(text)), split(text, <[u8]>::to_vec));
            // `+` kept, `%XX` decoded: what `encode::decode` (not the form decoder) gives.
            if !text.windows(3).any(|w| w == b"%zz") {
                let decode = |t: &[u8]| encode::decode(t).unwrap().into_owned();
                assert_eq!(pairs(&plus_kept(text)), split(text, decode), "{text:?}");
            }
        }
    }

    #[test]
    fn rules_rfc_is_the_encoder_and_each_switch_changes_only_its_bytes() {
        let all: Vec<u8> = (0..=255).collect();
        let mut out = Vec::new();
        encode_by(&all, Rules::RFC, &mut out);
        assert_eq!(out, encode::encode(&all).to_string().into_bytes());
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
}
