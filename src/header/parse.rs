//! The strict parsing of the `Authorization` header, for servers: it reads back exactly what
//! `build` writes, and refuses what a lenient parser would guess at.

use std::fmt;

use crate::encode::{self, DecodeError, Unreserved, Value};
use crate::grammar::{is_control, is_ows, is_tchar, skip_ows};

/// Limits on what a server reads before anything is authenticated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Limits {
    /// The longest `Authorization` header value read, in bytes. Default: 8192.
    pub max_header_len: usize,
    /// The most parameters read from the header, the query and the form body together.
    /// Default: 1024.
    pub max_parameters: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_header_len: 8192,
            max_parameters: 1024,
        }
    }
}

impl Limits {
    /// Limits with the given header length and parameter count.
    #[must_use]
    pub const fn new(max_header_len: usize, max_parameters: usize) -> Self {
        Limits {
            max_header_len,
            max_parameters,
        }
    }
}

/// Why an `Authorization` header could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HeaderError {
    /// The header is longer than [`Limits::max_header_len`].
    #[non_exhaustive]
    TooLong {
        /// Its length in bytes.
        len: usize,
        /// The limit.
        limit: usize,
    },
    /// The header has more parameters than [`Limits::max_parameters`].
    #[non_exhaustive]
    TooManyParameters {
        /// The limit.
        limit: usize,
    },
    /// The scheme is not `OAuth`.
    #[non_exhaustive]
    NotOAuth {
        /// The scheme found (at most 32 characters of it).
        scheme: String,
    },
    /// The text does not follow `OAuth name="value", …`.
    #[non_exhaustive]
    Syntax {
        /// The byte offset in the header value where it goes wrong.
        offset: usize,
        /// What was expected there.
        expected: &'static str,
    },
    /// A value that is not a quoted string.
    #[non_exhaustive]
    Unquoted {
        /// The parameter's name.
        name: String,
    },
    /// A quoted value without its closing quote.
    #[non_exhaustive]
    Unterminated {
        /// The parameter's name.
        name: String,
    },
    /// `realm` given twice.
    #[non_exhaustive]
    DuplicateRealm,
    /// A value with a malformed percent-escape.
    #[non_exhaustive]
    InvalidPercentEncoding {
        /// The parameter's name.
        name: String,
        /// Where in the value, and what.
        source: DecodeError,
    },
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderError::TooLong { len, limit } => write!(
                f,
                "the Authorization header is {len} bytes long; at most {limit} are accepted"
            ),
            HeaderError::TooManyParameters { limit } => write!(
                f,
                "the Authorization header has more than {limit} parameters"
            ),
            HeaderError::NotOAuth { scheme } => write!(
                f,
                "the Authorization header's scheme is \"{}\", not \"OAuth\"",
                scheme.escape_default()
            ),
            HeaderError::Syntax { offset, expected } => write!(
                f,
                "malformed Authorization header at byte {offset}: expected {expected}"
            ),
            HeaderError::Unquoted { name } => write!(
                f,
                "the Authorization header's {name} is not quoted: write {name}=\"value\""
            ),
            HeaderError::Unterminated { name } => {
                write!(f, "the Authorization header's {name} has no closing quote")
            }
            HeaderError::DuplicateRealm => {
                f.write_str("the Authorization header has more than one realm")
            }
            HeaderError::InvalidPercentEncoding { name, source } => {
                write!(f, "the Authorization header's {name} has an {source}")
            }
        }
    }
}

impl std::error::Error for HeaderError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            HeaderError::InvalidPercentEncoding { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// A parsed `Authorization: OAuth …` header: the realm, and the other parameters with their
/// values percent-decoded, in the order written. `Debug` leaves out the value of
/// `oauth_signature` (a PLAINTEXT signature is the key).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Authorization {
    realm: Option<String>,
    /// The names one after the other, and the decoded values one after the other (two
    /// allocations for any number of parameters).
    names: String,
    values: Vec<u8>,
    /// Where each parameter's name and value end in `names` and `values`.
    ends: Vec<(usize, usize)>,
}

impl fmt::Debug for Authorization {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_list();
        for (name, value) in self.parameters() {
            if name == "oauth_signature" {
                list.entry(&(name, ".."));
            } else {
                list.entry(&(name, value.escape_ascii().to_string()));
            }
        }
        list.finish()?;
        if let Some(realm) = &self.realm {
            write!(f, " realm={realm:?}")?;
        }
        Ok(())
    }
}

/// A PLAINTEXT `oauth_signature` is the key: its value is zeroized when the header is
/// dropped, as secrets are (the other values are not secret); so is whatever a parse that
/// failed had decoded of the value it stopped in, which may be that signature.
impl Drop for Authorization {
    fn drop(&mut self) {
        self.wipe_secrets();
    }
}

impl Authorization {
    fn wipe_secrets(&mut self) {
        use zeroize::Zeroize;
        let mut start = 0;
        for (i, &(_, end)) in self.ends.iter().enumerate() {
            if self.name(i) == "oauth_signature" {
                self.values[start..end].zeroize();
            }
            start = end;
        }
        self.values[start..].zeroize();
    }
}

impl Authorization {
    /// Parses a header value with the default [`Limits`].
    ///
    /// # Errors
    ///
    /// See [`Authorization::parse_with`].
    pub fn parse(value: &str) -> Result<Self, HeaderError> {
        Authorization::parse_with(value, &Limits::default())
    }

    /// Parses a header value: the scheme `OAuth` in any letter case, then `name="value"`
    /// parameters separated by commas, with optional spaces or tabs around `=` and `,`. Every
    /// value is a quoted string (backslash escapes allowed) and, but for `realm`, is strictly
    /// percent-decoded (`+` stays `+`).
    ///
    /// # Errors
    ///
    /// A [`HeaderError`] saying what is wrong and where.
    pub fn parse_with(value: &str, limits: &Limits) -> Result<Self, HeaderError> {
        // Decoded values are never longer than the header: `values` does not move.
        let mut header = Authorization {
            realm: None,
            names: String::with_capacity(value.len().min(256)),
            values: Vec::with_capacity(value.len()),
            ends: Vec::with_capacity(8),
        };
        // On an error, `header` is dropped with what it decoded: wiped.
        header.realm = parse_parts(value, limits, |part| {
            encode::decode_to_vec(part.content.as_bytes(), false, &mut header.values)?;
            header.names.push_str(part.name);
            header.ends.push((header.names.len(), header.values.len()));
            Ok(())
        })?;
        Ok(header)
    }

    /// The realm, if given.
    #[must_use]
    pub fn realm(&self) -> Option<&str> {
        self.realm.as_deref()
    }

    /// The parameters other than `realm`, decoded, in the order written.
    #[must_use]
    pub fn parameters(&self) -> impl ExactSizeIterator<Item = (&str, &[u8])> + Clone + '_ {
        (0..self.ends.len()).map(|i| (self.name(i), self.value(i)))
    }

    fn starts(&self, i: usize) -> (usize, usize) {
        i.checked_sub(1).map_or((0, 0), |before| self.ends[before])
    }

    fn name(&self, i: usize) -> &str {
        &self.names[self.starts(i).0..self.ends[i].0]
    }

    fn value(&self, i: usize) -> &[u8] {
        &self.values[self.starts(i).1..self.ends[i].1]
    }

    /// The first value of the parameter `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&[u8]> {
        self.parameters().find(|(n, _)| *n == name).map(|(_, v)| v)
    }
}

/// A parameter of the header as written: its name, and its quoted content with the escapes
/// resolved, not percent-decoded. Each comes with the proof that it is unreserved when the
/// parser found it so while reading it (what signers send, but for the signature), so that
/// nothing scans it again for that.
pub(crate) struct Part<'a> {
    /// The name, a token.
    pub(crate) name: &'a str,
    /// The name's proof, when every byte of it is unreserved.
    pub(crate) clean_name: Option<Unreserved<'a>>,
    /// The content.
    pub(crate) content: Value<'a>,
}

/// Parses a header value as [`Authorization::parse_with`] says, handing `each` every parameter
/// but the realm, in the order written; returns the realm. `each` percent-decodes the content;
/// its error stops the parse, named by the parameter. Both the parsed header and the verifier,
/// which decodes straight into its parameters, parse here.
pub(crate) fn parse_parts(
    value: &str,
    limits: &Limits,
    mut each: impl FnMut(Part<'_>) -> Result<(), DecodeError>,
) -> Result<Option<String>, HeaderError> {
    if value.len() > limits.max_header_len {
        return Err(HeaderError::TooLong {
            len: value.len(),
            limit: limits.max_header_len,
        });
    }
    let b = value.as_bytes();
    let mut i = after_scheme(value)?;
    let mut realm = None;
    let mut count = 0;
    // Only escaped values pass through here; one may be a PLAINTEXT signature.
    let mut raw = zeroize::Zeroizing::new(Vec::new());
    loop {
        i = skip_ows(b, i);
        if i == b.len() {
            return Ok(realm);
        }
        if b[i] == b',' {
            i += 1;
            continue;
        }
        let name_start = i;
        // A name is mostly unreserved bytes, which are all `tchar`s.
        let (clean, _) = encode::split_unreserved(&b[i..]);
        i += clean.as_bytes().len();
        let clean_end = i;
        while i < b.len() && is_tchar(b[i]) {
            i += 1;
        }
        let clean_name = (i == clean_end).then_some(clean);
        if i == name_start {
            return Err(HeaderError::Syntax {
                offset: i,
                expected: "a parameter name",
            });
        }
        let name = &value[name_start..i];
        i = skip_ows(b, i);
        if b.get(i) != Some(&b'=') {
            return Err(HeaderError::Syntax {
                offset: i,
                expected: "'=' after the parameter name",
            });
        }
        i = skip_ows(b, i + 1);
        if b.get(i) != Some(&b'"') {
            return Err(HeaderError::Unquoted {
                name: name.to_owned(),
            });
        }
        let start = i + 1;
        let (end, quoted) = read_quoted(b, start, name, &mut raw)?;
        let content = match quoted {
            Quoted::Clean(clean) => Value::Unreserved(clean),
            Quoted::Plain => Value::Unchecked(&b[start..end]),
            Quoted::Escaped => Value::Unchecked(&raw[..]),
        };
        i = end;
        i = skip_ows(b, i + 1);
        if i < b.len() {
            if b[i] != b',' {
                return Err(HeaderError::Syntax {
                    offset: i,
                    expected: "',' between parameters",
                });
            }
            i += 1;
        }

        if count >= limits.max_parameters {
            return Err(HeaderError::TooManyParameters {
                limit: limits.max_parameters,
            });
        }
        count += 1;
        if name.eq_ignore_ascii_case("realm") {
            if realm.is_some() {
                return Err(HeaderError::DuplicateRealm);
            }
            // The bytes between quotes of a `&str`, cut at ASCII quotes: still UTF-8.
            realm = Some(String::from_utf8_lossy(content.as_bytes()).into_owned());
        } else {
            let part = Part {
                name,
                clean_name,
                content,
            };
            each(part).map_err(|source| HeaderError::InvalidPercentEncoding {
                name: name.to_owned(),
                source,
            })?;
        }
    }
}

/// Checks that the header's scheme is `OAuth` followed by a space (or nothing); returns the
/// offset after the scheme.
fn after_scheme(value: &str) -> Result<usize, HeaderError> {
    let b = value.as_bytes();
    let start = skip_ows(b, 0);
    let mut i = start;
    while i < b.len() && is_tchar(b[i]) {
        i += 1;
    }
    if !value[start..i].eq_ignore_ascii_case("OAuth") {
        let end = value[start..]
            .find([' ', '\t'])
            .map_or(value.len(), |n| start + n);
        return Err(HeaderError::NotOAuth {
            scheme: value[start..end].chars().take(32).collect(),
        });
    }
    if i < b.len() && !is_ows(b[i]) {
        return Err(HeaderError::Syntax {
            offset: i,
            expected: "a space after \"OAuth\"",
        });
    }
    Ok(i)
}

/// What a quoted string holds.
enum Quoted<'b> {
    /// Unreserved bytes alone (what signers send but for the signature): the bytes up to the
    /// closing quote.
    Clean(Unreserved<'b>),
    /// No escapes: the bytes up to the closing quote.
    Plain,
    /// Escapes, resolved into `raw`.
    Escaped,
}

/// Reads a quoted string from just after its opening quote; returns the offset of the closing
/// quote, and what the content holds.
fn read_quoted<'b>(
    b: &'b [u8],
    start: usize,
    name: &str,
    raw: &mut Vec<u8>,
) -> Result<(usize, Quoted<'b>), HeaderError> {
    // Without escapes (what signers send), the content is a slice of the header; an unreserved
    // byte is neither a quote, an escape nor a control character.
    let (clean, rest) = encode::split_unreserved(&b[start..]);
    let clean_len = clean.as_bytes().len();
    if rest.first() == Some(&b'"') {
        return Ok((start + clean_len, Quoted::Clean(clean)));
    }
    let n = clean_len + encode::plain_quoted_len(rest);
    if b.get(start + n) == Some(&b'"') {
        return Ok((start + n, Quoted::Plain));
    }
    raw.clear();
    let mut i = start;
    loop {
        let c = match b.get(i) {
            Some(b'"') => return Ok((i, Quoted::Escaped)),
            Some(b'\\') => {
                i += 1;
                b.get(i)
            }
            c => c,
        };
        let Some(&c) = c else {
            return Err(HeaderError::Unterminated {
                name: name.to_owned(),
            });
        };
        if is_control(c) {
            return Err(HeaderError::Syntax {
                offset: i,
                expected: "no control characters in a quoted value",
            });
        }
        raw.push(c);
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::counted;
    use super::super::{build, Realm};
    use super::*;

    fn params(h: &Authorization) -> Vec<(String, String)> {
        h.parameters()
            .map(|(n, v)| (n.to_owned(), String::from_utf8(v.to_vec()).unwrap()))
            .collect()
    }

    #[test]
    fn the_parser_proves_clean_exactly_the_unreserved_names_and_values() {
        // Names and values across the parser's chunks, clean or with one byte that is not
        // unreserved (but legal where it stands) at every position; the expected cleanness
        // is the RFC's set, byte by byte.
        let unreserved = |bytes: &[u8]| {
            bytes
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(b))
        };
        let mut checked = 0;
        for len in 1..=40 {
            for (dirty_name, dirty_value) in
                [(b'!', b'%'), (b'#', b' '), (b'*', b'/'), (b'|', b'+')]
            {
                for at in (0..len).map(Some).chain([None]) {
                    let text = |dirty: u8| -> String {
                        (0..len)
                            .map(|i| {
                                if Some(i) == at {
                                    dirty
                                } else {
                                    b"aZ09-._~"[i % 8]
                                }
                            })
                            .map(char::from)
                            .collect()
                    };
                    let (name, value) = (text(dirty_name), text(dirty_value));
                    let header = format!(r#"OAuth {name}="{value}", x="\"y""#);
                    let mut parts = Vec::new();
                    parse_parts(&header, &Limits::default(), |part| {
                        let content = part.content.as_bytes().to_vec();
                        let proved = matches!(part.content, Value::Unreserved(_));
                        parts.push((
                            part.name.to_owned(),
                            part.clean_name.is_some(),
                            content,
                            proved,
                        ));
                        Ok(())
                    })
                    .unwrap();
                    assert_eq!(parts.len(), 2, "{header}");
                    let (n, name_proved, v, value_proved) = &parts[0];
                    assert_eq!(
                        (n.as_str(), v.as_slice()),
                        (name.as_str(), value.as_bytes())
                    );
                    assert_eq!(*name_proved, unreserved(name.as_bytes()), "{header}");
                    assert_eq!(*value_proved, unreserved(value.as_bytes()), "{header}");
                    // The escaped value is never proved clean.
                    assert_eq!((parts[1].2.as_slice(), parts[1].3), (&b"\"y"[..], false));
                    checked += 1;
                }
            }
        }
        assert!(checked > 3000, "{checked}");
    }

    #[test]
    fn parses_the_rfc_example_header() {
        // RFC 5849 §3.5.1, its line breaks joined with a space.
        let h = Authorization::parse(concat!(
            "OAuth realm=\"Example\", ",
            "oauth_consumer_key=\"0685bd9184jfhq22\", ",
            "oauth_token=\"ad180jjd733klru7\", ",
            "oauth_signature_method=\"HMAC-SHA1\", ",
            "oauth_signature=\"wOJIO9A2W5mFwDgiDvZbTSMK%2FPY%3D\", ",
            "oauth_timestamp=\"137131200\", ",
            "oauth_nonce=\"4572616e48616d6d65724c61686176\", ",
            "oauth_version=\"1.0\""
        ))
        .unwrap();
        assert_eq!(h.realm(), Some("Example"));
        assert_eq!(
            h.get("oauth_signature"),
            Some(&b"wOJIO9A2W5mFwDgiDvZbTSMK/PY="[..])
        );
        assert_eq!(h.parameters().len(), 7);
        assert_eq!(
            params(&h)[0],
            ("oauth_consumer_key".into(), "0685bd9184jfhq22".into())
        );
    }

    #[test]
    fn accepts_scheme_case_whitespace_empty_elements_and_escapes() {
        let h = Authorization::parse(
            "oauth\toauth_nonce = \"a%20b+c\" ,, realm=\"say \\\"hi\\\"\",x=\"\"  ",
        )
        .unwrap();
        assert_eq!(h.realm(), Some("say \"hi\""));
        assert_eq!(
            params(&h),
            [
                ("oauth_nonce".into(), "a b+c".into()),
                ("x".into(), String::new())
            ]
        );
        assert_eq!(
            Authorization::parse("OAuth").unwrap(),
            Authorization::default()
        );
    }

    #[test]
    fn build_then_parse_round_trips() {
        let realm = Realm::new("Photos \"A\\B\" é").unwrap();
        let params: [(&[u8], &[u8]); 3] = [
            (
                b"oauth_callback",
                b"http://printer.example.com/ready?a=1&b=%",
            ),
            (b"oauth_nonce", "ü \"\\,=".as_bytes()),
            (b"oauth_signature", b"74KNZJeDHnMBp0EMJ9ZHt/XKycU="),
        ];
        let h = Authorization::parse(&build(Some(&realm), counted(&params))).unwrap();
        assert_eq!(h.realm(), Some(realm.as_str()));
        let got: Vec<(&[u8], &[u8])> = h.parameters().map(|(n, v)| (n.as_bytes(), v)).collect();
        assert_eq!(got, params);
    }

    #[test]
    fn malformed_headers_say_what_is_wrong() {
        let cases = [
            ("Bearer abc", "the Authorization header's scheme is \"Bearer\", not \"OAuth\""),
            ("", "the Authorization header's scheme is \"\", not \"OAuth\""),
            ("OAuth,a=\"1\"", "malformed Authorization header at byte 5: expected a space after \"OAuth\""),
            ("OAuth a=1", "the Authorization header's a is not quoted: write a=\"value\""),
            ("OAuth a=\"1", "the Authorization header's a has no closing quote"),
            ("OAuth a=\"1\\", "the Authorization header's a has no closing quote"),
            ("OAuth a", "malformed Authorization header at byte 7: expected '=' after the parameter name"),
            ("OAuth =\"1\"", "malformed Authorization header at byte 6: expected a parameter name"),
            ("OAuth a=\"1\" b=\"2\"", "malformed Authorization header at byte 12: expected ',' between parameters"),
            ("OAuth a=\"1\0\"", "malformed Authorization header at byte 10: expected no control characters in a quoted value"),
            ("OAuth a=\"x\ny\"", "malformed Authorization header at byte 10: expected no control characters in a quoted value"),
            ("OAuth realm=\"a\", Realm=\"b\"", "the Authorization header has more than one realm"),
            ("OAuth oauth_nonce=\"%zz\"", "the Authorization header's oauth_nonce has an invalid percent-encoding at byte 0 (\"%zz\"): '%' must be followed by two hex digits"),
        ];
        for (header, message) in cases {
            assert_eq!(
                Authorization::parse(header).unwrap_err().to_string(),
                message,
                "{header:?}"
            );
        }
    }

    #[test]
    fn limits_hold_at_and_past_the_edge() {
        let limits = Limits::new(40, 3);
        let at = "OAuth a=\"1\", b=\"2\", c=\"3\"";
        assert!(Authorization::parse_with(at, &limits).is_ok());
        assert_eq!(
            Authorization::parse_with("OAuth a=\"1\", b=\"2\", c=\"3\", d=\"4\"", &limits)
                .unwrap_err(),
            HeaderError::TooManyParameters { limit: 3 }
        );
        let long = format!("OAuth a=\"{}\"", "x".repeat(30));
        assert_eq!(long.len(), 40);
        assert!(Authorization::parse_with(&long, &limits).is_ok());
        let longer = format!("OAuth a=\"{}\"", "x".repeat(31));
        assert_eq!(
            Authorization::parse_with(&longer, &limits)
                .unwrap_err()
                .to_string(),
            "the Authorization header is 41 bytes long; at most 40 are accepted"
        );
    }

    #[test]
    fn debug_hides_the_signature() {
        let h = Authorization::parse(
            "OAuth oauth_signature=\"kd94hf93k423kf44%26\", oauth_nonce=\"n\"",
        )
        .unwrap();
        let debug = format!("{h:?}");
        assert!(!debug.contains("kd94hf93k423kf44"), "{debug}");
        assert!(debug.contains("oauth_nonce"), "{debug}");
    }

    /// What a parse that failed had decoded is wiped with the signature: a bad escape late in
    /// a PLAINTEXT signature leaves the key's first bytes decoded.
    #[test]
    fn a_half_decoded_value_is_wiped_with_the_signature() {
        let mut header = Authorization::parse(
            "OAuth oauth_nonce=\"n\", oauth_signature=\"cs%26ts\", oauth_token=\"t\"",
        )
        .unwrap();
        assert!(
            encode::decode_to_vec(b"consumer-secret%26tok%zz", false, &mut header.values).is_err()
        );
        header.wipe_secrets();
        let values = String::from_utf8_lossy(&header.values).into_owned();
        assert_eq!(values, "n\0\0\0\0\0t".to_owned() + &"\0".repeat(19));
    }
}
