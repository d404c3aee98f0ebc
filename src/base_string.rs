//! The base string URI (RFC 5849 §3.4.1.2) and the signature base string (§3.4.1.1).
//!
//! ```
//! use oauth1_signer::base_string::{BaseString, BaseUri};
//! use oauth1_signer::params::{Parameters, Source};
//!
//! let url = url::Url::parse("http://EXAMPLE.COM:80/r%20v/X?id=123").unwrap();
//! let uri = BaseUri::new(&url)?;
//! assert_eq!(uri.as_str(), "http://example.com/r%20v/X");
//!
//! let mut params = Parameters::new();
//! params.extend_urlencoded(Source::Query, url.query().unwrap_or("").as_bytes()).unwrap();
//! let base = BaseString::new("get", &uri, &params.normalize());
//! assert_eq!(base.as_str(), "GET&http%3A%2F%2Fexample.com%2Fr%2520v%2FX&id%3D123");
//! assert_eq!(base.method(), "GET");
//! # Ok::<(), oauth1_signer::Error>(())
//! ```

use std::borrow::Cow;
use std::fmt;

use url::{Position, Url};

use crate::encode;
use crate::error::Error;
use crate::params::Normalized;

/// The base string URI: scheme and host in lower case, the port only when it is not the
/// scheme's default, the path (`/` when empty); no user information, query or fragment.
///
/// Made from a parsed [`Url`], which has already lowercased the scheme and host, dropped a
/// default port and resolved the path; so the base URI usually borrows the URL's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseUri<'a>(Cow<'a, str>);

impl<'a> BaseUri<'a> {
    /// The base string URI of `url`.
    ///
    /// # Errors
    ///
    /// [`Error::UnsupportedScheme`] unless the scheme is `http` or `https`.
    pub fn new(url: &'a Url) -> Result<Self, Error> {
        check_scheme(url)?;
        if url.username().is_empty() && url.password().is_none() {
            Ok(BaseUri(Cow::Borrowed(&url[..Position::AfterPath])))
        } else {
            let scheme = &url[..Position::BeforeUsername];
            let host_to_path = &url[Position::BeforeHost..Position::AfterPath];
            Ok(BaseUri(Cow::Owned(format!("{scheme}{host_to_path}"))))
        }
    }

    /// A base string URI made some other way (the diagnosis's deliberately wrong URI rules).
    pub(crate) fn from_text(text: String) -> BaseUri<'static> {
        BaseUri(Cow::Owned(text))
    }

    /// The base string URI as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for BaseUri<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Accepts only `http` and `https` URLs.
///
/// # Errors
///
/// [`Error::UnsupportedScheme`] for any other scheme.
pub fn check_scheme(url: &Url) -> Result<(), Error> {
    match url.scheme() {
        "http" | "https" => Ok(()),
        other => Err(Error::UnsupportedScheme {
            scheme: other.to_owned(),
        }),
    }
}

/// The signature base string: the uppercased method, the encoded base string URI and the
/// encoded normalized parameters, joined by `&`. Each part can be read back.
///
/// Every byte is ASCII, by construction, and checked once to be text when the base string is
/// made; the signature methods sign its bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct BaseString {
    text: String,
    method_end: usize,
    uri_end: usize,
}

impl BaseString {
    /// Builds the base string. The method is uppercased (ASCII letters only) and
    /// percent-encoded, as §3.4.1.1 asks of custom methods: `GET` and `M-SEARCH` stay as they
    /// are, a method with a reserved character such as `&` cannot split the base string.
    #[must_use]
    pub fn new(method: &str, uri: &BaseUri<'_>, params: &Normalized) -> Self {
        let uri = uri.as_str().as_bytes();
        let mut out = encode::Writer::with_len(
            encode::encoded_len(method.as_bytes())
                + encode::encoded_len(uri)
                + params.encoded_twice_len()
                + 2,
        );
        let mut upper = [0u8; 16];
        match upper.get_mut(..method.len()) {
            // The common case: a short method, encoded in one go.
            Some(upper) => {
                upper.copy_from_slice(method.as_bytes());
                upper.make_ascii_uppercase();
                out.once(upper);
            }
            None => out.once(method.to_ascii_uppercase().as_bytes()),
        }
        let method_end = out.len();
        out.raw(b"&");
        out.once(uri);
        let uri_end = out.len();
        out.raw(b"&");
        params.write_twice(&mut out);
        // Every byte is ASCII: each is an unreserved byte or part of an escape. Checked, so
        // that the text shown is always the bytes signed.
        BaseString {
            text: into_text(out.finish()),
            method_end,
            uri_end,
        }
    }

    /// Assembles a base string from parts made some other way, as the diagnosis does to
    /// reproduce another implementation: `method` as given (percent-encoded), the base URI's
    /// text, and the
    /// parameter string, percent-encoded once more when `encode_params` (the reference) or put
    /// in as it is.
    pub(crate) fn assemble(method: &str, uri: &str, params: &[u8], encode_params: bool) -> Self {
        let mut bytes = Vec::with_capacity(
            encode::encoded_len(method.as_bytes())
                + encode::encoded_len(uri.as_bytes())
                + 3 * params.len()
                + 2,
        );
        encode::encode_to_vec(method.as_bytes(), &mut bytes);
        let method_end = bytes.len();
        bytes.push(b'&');
        encode::encode_to_vec(uri.as_bytes(), &mut bytes);
        let uri_end = bytes.len();
        bytes.push(b'&');
        if encode_params {
            encode::encode_to_vec(params, &mut bytes);
        } else {
            bytes.extend_from_slice(params);
        }
        // Text in any case: a parameter string put in as it is may hold any bytes.
        BaseString {
            text: into_text(bytes),
            method_end,
            uri_end,
        }
    }

    /// The base string as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The base string's bytes, which the signature methods sign.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        self.text.as_bytes()
    }

    /// The first part: the uppercased HTTP method, percent-encoded.
    #[must_use]
    pub fn method(&self) -> &str {
        &self.as_str()[..self.method_end]
    }

    /// The second part as it stands in the base string: the percent-encoded base string URI.
    #[must_use]
    pub fn encoded_uri(&self) -> &str {
        &self.as_str()[self.method_end + 1..self.uri_end]
    }

    /// The third part as it stands in the base string: the percent-encoded normalized
    /// parameter string.
    #[must_use]
    pub fn encoded_parameters(&self) -> &str {
        &self.as_str()[self.uri_end + 1..]
    }

    /// The base string, consumed into its text.
    #[must_use]
    pub fn into_string(self) -> String {
        self.text
    }
}

/// The bytes as text, each byte that is not part of a UTF-8 character replaced.
fn into_text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

impl fmt::Display for BaseString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for BaseString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("BaseString").field(&self.as_str()).finish()
    }
}

impl AsRef<str> for BaseString {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{Parameters, Source};

    fn base_uri(url: &str) -> Result<String, Error> {
        let url = Url::parse(url).map_err(|source| Error::InvalidUrl { source })?;
        BaseUri::new(&url).map(|u| u.as_str().to_owned())
    }

    #[test]
    fn base_uri_normalization() {
        let cases = [
            (
                "http://EXAMPLE.COM:80/r%20v/X?id=123",
                "http://example.com/r%20v/X",
            ),
            (
                "https://www.example.net:8080/?q=1",
                "https://www.example.net:8080/",
            ),
            ("HTTPS://Example.com:443", "https://example.com/"),
            ("http://example.com:443/", "http://example.com:443/"),
            ("https://example.com:80/", "https://example.com:80/"),
            ("http://example.com?n=v", "http://example.com/"),
            (
                "http://user:pa%20ss@Example.com:8000/p?q#frag",
                "http://example.com:8000/p",
            ),
            ("http://user@example.com/p", "http://example.com/p"),
            ("http://[::1]:80/p", "http://[::1]/p"),
            ("https://[2001:DB8::1]:8443/", "https://[2001:db8::1]:8443/"),
            ("http://example.com/a/b/#frag", "http://example.com/a/b/"),
            (
                "http://example.com/%7Efoo/%2f",
                "http://example.com/%7Efoo/%2f",
            ),
        ];
        for (url, expected) in cases {
            assert_eq!(base_uri(url).unwrap(), expected, "{url}");
        }
    }

    #[test]
    fn base_uri_refuses_other_schemes() {
        let err = base_uri("ftp://example.com/file").unwrap_err();
        assert_eq!(
            err.to_string(),
            "unsupported URL scheme \"ftp\": only http and https requests can be signed"
        );
    }

    #[test]
    fn base_string_parts_read_back() {
        let url = Url::parse("https://api.example.com/1/x.json?a=%20").unwrap();
        let uri = BaseUri::new(&url).unwrap();
        let mut params = Parameters::new();
        params.extend_urlencoded(Source::Query, b"a=%20").unwrap();
        let base = BaseString::new("post", &uri, &params.normalize());
        assert_eq!(base.method(), "POST");
        assert_eq!(
            base.encoded_uri(),
            "https%3A%2F%2Fapi.example.com%2F1%2Fx.json"
        );
        assert_eq!(base.encoded_parameters(), "a%3D%2520");
        assert_eq!(
            base.to_string(),
            "POST&https%3A%2F%2Fapi.example.com%2F1%2Fx.json&a%3D%2520"
        );
        // Built in one allocation, never grown: the computed length and the writer's room for
        // one more table entry.
        let text = base.into_string();
        assert_eq!(text.capacity(), text.len() + 8);
    }
}
