//! The `Authorization` header of RFC 5849 §3.5.1:
//! `OAuth realm="…", oauth_…="…", …`, realm first, every `oauth_*` value percent-encoded and
//! quoted; and its strict parsing, for servers (`parse.rs`). Both directions are one module,
//! the parser reading back exactly what the builder writes.
//!
//! ```
//! use oauth1_signer::header::Authorization;
//!
//! let header = Authorization::parse(r#"OAuth realm="Photos", oauth_consumer_key="dpf43f3p2l4k3l03", oauth_signature="74KNZJeDHnMBp0EMJ9ZHt%2FXKycU%3D""#)?;
//! assert_eq!(header.realm(), Some("Photos"));
//! assert_eq!(header.get("oauth_signature"), Some(&b"74KNZJeDHnMBp0EMJ9ZHt/XKycU="[..]));
//! # Ok::<(), oauth1_signer::header::HeaderError>(())
//! ```

use std::fmt;

use crate::encode::{self, Counted};
use crate::error::Error;

mod parse;
pub(crate) use parse::parse_parts;
pub use parse::{Authorization, HeaderError, Limits};

/// The `realm` of the Authorization header (RFC 2617 §1.2), written as a quoted string. It is
/// never part of the base string.
///
/// ```
/// use oauth1_signer::Realm;
///
/// assert!(Realm::new("Photos").is_ok());
/// assert!(Realm::new("line\nbreak").is_err());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Realm(String);

impl Realm {
    /// A realm. Quotes and backslashes are escaped when the header is written.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidRealm`] for control characters (line breaks among them), which a header
    /// cannot carry.
    pub fn new(realm: impl Into<String>) -> Result<Self, Error> {
        let realm = realm.into();
        if realm.chars().any(char::is_control) {
            return Err(Error::InvalidRealm);
        }
        Ok(Realm(realm))
    }

    /// The realm as given.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Realm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Writes `realm="…"` as an RFC 7230 quoted string.
fn push_realm(out: &mut encode::Writer, realm: &Realm) {
    out.raw(b"realm=\"");
    for b in realm.0.bytes() {
        if matches!(b, b'"' | b'\\') {
            out.raw(b"\\");
        }
        out.raw(&[b]);
    }
    out.raw(b"\"");
}

/// The `WWW-Authenticate` value of a 401 answer: `OAuth realm="…"` (RFC 5849 §3.2).
///
/// ```
/// use oauth1_signer::header::www_authenticate;
/// use oauth1_signer::Realm;
///
/// let realm = Realm::new("https://photos.example.net/")?;
/// assert_eq!(www_authenticate(&realm), r#"OAuth realm="https://photos.example.net/""#);
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
#[must_use]
pub fn www_authenticate(realm: &Realm) -> String {
    build(Some(realm), std::iter::empty())
}

/// Builds the header value from the realm and the `oauth_*` parameters (names and decoded
/// values, counted), in the order given.
pub(crate) fn build<'p>(
    realm: Option<&Realm>,
    params: impl Iterator<Item = (Counted<'p>, Counted<'p>)> + Clone,
) -> String {
    let len = 6
        + realm.map_or(0, |r| r.0.len() * 2 + 10)
        + params
            .clone()
            .map(|(n, v)| n.encoded_len() + v.encoded_len() + 5)
            .sum::<usize>();
    let mut out = encode::Writer::with_len(len);
    out.raw(b"OAuth ");
    let mut first = true;
    if let Some(realm) = realm {
        push_realm(&mut out, realm);
        first = false;
    }
    for (name, value) in params {
        if !first {
            out.raw(b", ");
        }
        first = false;
        out.once_counted(name);
        out.raw(b"=\"");
        out.once_counted(value);
        out.raw(b"\"");
    }
    // Every byte is an encoder's ASCII, or the realm's, which is a `String`'s UTF-8.
    String::from_utf8(out.finish()).expect("a header is ASCII and the realm's UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn counted<'p>(
        params: &'p [(&'p [u8], &'p [u8])],
    ) -> impl Iterator<Item = (Counted<'p>, Counted<'p>)> + Clone {
        params
            .iter()
            .map(|&(n, v)| (Counted::new(n), Counted::new(v)))
    }

    #[test]
    fn realm_first_values_encoded_and_quoted() {
        let realm = Realm::new("Photos \"A\\B\"").unwrap();
        let params: [(&[u8], &[u8]); 2] = [
            (b"oauth_callback", b"http://printer.example.com/ready"),
            (b"oauth_signature", b"74KNZJeDHnMBp0EMJ9ZHt/XKycU="),
        ];
        assert_eq!(
            build(Some(&realm), counted(&params)),
            "OAuth realm=\"Photos \\\"A\\\\B\\\"\", oauth_callback=\"http%3A%2F%2Fprinter.example.com%2Fready\", oauth_signature=\"74KNZJeDHnMBp0EMJ9ZHt%2FXKycU%3D\""
        );
        assert_eq!(
            build(None, counted(&params[1..])),
            "OAuth oauth_signature=\"74KNZJeDHnMBp0EMJ9ZHt%2FXKycU%3D\""
        );
    }

    #[test]
    fn realms_with_control_characters_are_refused() {
        for bad in ["a\r\nX-Injected: 1", "tab\there", "\u{7f}"] {
            assert_eq!(
                Realm::new(bad).unwrap_err().to_string(),
                "invalid realm: a realm cannot contain control characters such as line breaks"
            );
        }
    }
}
