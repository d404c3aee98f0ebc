//! The `Authorization` header of RFC 5849 §3.5.1:
//! `OAuth realm="…", oauth_…="…", …`, realm first, every `oauth_*` value percent-encoded and
//! quoted.

use std::fmt;

use crate::encode;
use crate::Error;

/// The `realm` of the Authorization header (RFC 2617 §1.2), written as a quoted string. It is
/// never part of the base string.
///
/// ```
/// use oauth1_signer::Realm;
///
/// assert!(Realm::new("Photos").is_ok());
/// assert!(Realm::new("line\nbreak").is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
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
fn push_realm(out: &mut String, realm: &Realm) {
    out.push_str("realm=\"");
    for c in realm.0.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
}

/// Builds the header value from the realm and the `oauth_*` parameters (names and decoded
/// values), in the order given.
pub(crate) fn build<'p>(
    realm: Option<&Realm>,
    params: impl Iterator<Item = (&'p [u8], &'p [u8])> + Clone,
) -> String {
    let len = 6
        + realm.map_or(0, |r| r.0.len() * 2 + 10)
        + params
            .clone()
            .map(|(n, v)| encode::encoded_len(n) + encode::encoded_len(v) + 5)
            .sum::<usize>();
    let mut out = String::with_capacity(len);
    out.push_str("OAuth ");
    let mut first = true;
    if let Some(realm) = realm {
        push_realm(&mut out, realm);
        first = false;
    }
    for (name, value) in params {
        if !first {
            out.push_str(", ");
        }
        first = false;
        encode::encode(name).append_to(&mut out);
        out.push_str("=\"");
        encode::encode(value).append_to(&mut out);
        out.push('"');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn realm_first_values_encoded_and_quoted() {
        let realm = Realm::new("Photos \"A\\B\"").unwrap();
        let params: [(&[u8], &[u8]); 2] = [
            (b"oauth_callback", b"http://printer.example.com/ready"),
            (b"oauth_signature", b"74KNZJeDHnMBp0EMJ9ZHt/XKycU="),
        ];
        assert_eq!(
            build(Some(&realm), params.iter().copied()),
            "OAuth realm=\"Photos \\\"A\\\\B\\\"\", oauth_callback=\"http%3A%2F%2Fprinter.example.com%2Fready\", oauth_signature=\"74KNZJeDHnMBp0EMJ9ZHt%2FXKycU%3D\""
        );
        assert_eq!(
            build(None, params[1..].iter().copied()),
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
