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
#[derive(Clone)]
pub struct BaseUri<'a> {
    text: Cow<'a, str>,
    /// `enc(text)` when it was made beforehand (an [`Endpoint`](crate::parts::Endpoint)'s),
    /// so that the base string copies it instead of encoding the URI again.
    encoded: Option<&'a str>,
}

impl PartialEq for BaseUri<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for BaseUri<'_> {}

impl fmt::Debug for BaseUri<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("BaseUri").field(&self.text).finish()
    }
}

impl<'a> BaseUri<'a> {
    /// The base string URI of `url`.
    ///
    /// # Errors
    ///
    /// [`Error::UnsupportedScheme`] unless the scheme is `http` or `https`.
    pub fn new(url: &'a Url) -> Result<Self, Error> {
        check_scheme(url)?;
        let text = if url.username().is_empty() && url.password().is_none() {
            Cow::Borrowed(&url[..Position::AfterPath])
        } else {
            let scheme = &url[..Position::BeforeUsername];
            let host_to_path = &url[Position::BeforeHost..Position::AfterPath];
            Cow::Owned(format!("{scheme}{host_to_path}"))
        };
        Ok(BaseUri {
            text,
            encoded: None,
        })
    }

    /// A base string URI already normalized: by [`plain_url`], or by [`BaseUri::new`] earlier.
    pub(crate) fn normalized(text: &'a str) -> Self {
        BaseUri {
            text: Cow::Borrowed(text),
            encoded: None,
        }
    }

    /// A base string URI already normalized, with its encoding made beforehand: `encoded` is
    /// `enc(text)`, which the base string then copies.
    pub(crate) fn normalized_and_encoded(text: &'a str, encoded: &'a str) -> Self {
        BaseUri {
            text: Cow::Borrowed(text),
            encoded: Some(encoded),
        }
    }

    /// A base string URI made some other way (the diagnosis's deliberately wrong URI rules).
    pub(crate) fn from_text(text: String) -> BaseUri<'static> {
        BaseUri {
            text: Cow::Owned(text),
            encoded: None,
        }
    }

    /// The base string URI as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for BaseUri<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A URL's text read without the URL parser, when it is plain enough that the parser would
/// give the same base string URI and query: `http://` or `https://` in lower case; a host of
/// lower-case letters, digits, `-` and `.` whose last label starts with a letter (so that it
/// is no IPv4 address) and with no `xn--` label (no IDNA), or an IPv4 address as the parser
/// writes it (four decimal numbers up to 255, no leading zero); no user information; a port
/// without leading zeros; a path and query of characters the parser leaves as they are (RFC
/// 3986 unreserved, sub-delimiters, `:`, `@`, `/`, `%`, and `?` in the query; no `'` there);
/// no dot segment. The fragment is dropped. `None` for anything else, which the caller parses.
///
/// Its twin, and oracle, is `Url::parse` then [`BaseUri::new`] and `Url::query`: the tests
/// hold the two equal on every URL this accepts, over generated URLs built from the
/// characters where they could part.
pub(crate) fn plain_url(url: &str) -> Option<(Cow<'_, str>, Option<&str>)> {
    let b = url.as_bytes();
    let (mut i, default_port): (usize, &[u8]) = if b.starts_with(b"https://") {
        (8, b"443")
    } else if b.starts_with(b"http://") {
        (7, b"80")
    } else {
        return None;
    };
    let host_start = i;
    let mut label_start = i;
    while let Some(&c) = b.get(i) {
        match c {
            c if url_class(c) & IN_HOST != 0 => {}
            b'.' if plain_label(&b[label_start..i]) => label_start = i + 1,
            b'.' => return None,
            _ => break,
        }
        i += 1;
    }
    // The last label starts with a letter: the parser reads a host ending in a number as an
    // IPv4 address, which it writes as it was written only in the canonical form.
    let last = &b[label_start..i];
    if !plain_label(last) || !(last[0].is_ascii_lowercase() || canonical_ipv4(&b[host_start..i])) {
        return None;
    }
    let host_end = i;
    let mut port = None;
    if b.get(i) == Some(&b':') {
        let start = i + 1;
        i = start;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        let digits = &b[start..i];
        if digits.first().is_none_or(|&d| d == b'0')
            || digits.len() > 5
            || (digits.len() == 5 && digits > b"65535".as_slice())
        {
            return None;
        }
        port = Some(digits);
    }
    if !matches!(b.get(i), None | Some(b'/' | b'?' | b'#')) {
        return None;
    }
    let mut segment_start = i;
    while let Some(&c) = b.get(i) {
        match c {
            b'?' | b'#' => break,
            b'/' if dot_segment(&b[segment_start..i]) => return None,
            b'/' => segment_start = i + 1,
            c if url_class(c) & IN_PATH != 0 => {}
            _ => return None,
        }
        i += 1;
    }
    if dot_segment(&b[segment_start..i]) {
        return None;
    }
    let path_end = i;
    let query = if b.get(i) == Some(&b'?') {
        let start = i + 1;
        i = start;
        // Sixteen bytes at a time while all are plain (no branch per byte); then, from the
        // block with the end, a `#` or a byte to refuse, one at a time.
        while let Some(block) = b.get(i..).and_then(<[u8]>::first_chunk::<QUERY_BLOCK>) {
            if block.iter().fold(IN_QUERY, |all, &c| all & url_class(c)) == 0 {
                break;
            }
            i += QUERY_BLOCK;
        }
        while let Some(&c) = b.get(i) {
            match c {
                b'#' => break,
                c if url_class(c) & IN_QUERY != 0 => i += 1,
                _ => return None,
            }
        }
        Some(&url[start..i])
    } else {
        None
    };
    let path = &url[host_end + port.map_or(0, |p| p.len() + 1)..path_end];
    let base = if port == Some(default_port) || path.is_empty() {
        let host = &url[host_start..host_end];
        let port = match port {
            Some(port) if port != default_port => &url[host_end..host_end + 1 + port.len()],
            _ => "",
        };
        let path = if path.is_empty() { "/" } else { path };
        Cow::Owned(format!("{}{host}{port}{path}", &url[..host_start]))
    } else {
        Cow::Borrowed(&url[..path_end])
    };
    Some((base, query))
}

/// A label of a plain host (its bytes already checked): not empty, and not `xn--` (IDNA).
fn plain_label(label: &[u8]) -> bool {
    !label.is_empty() && !label.starts_with(b"xn--")
}

/// An IPv4 address the URL parser writes back as it is: four decimal numbers from 0 to 255,
/// none with a leading zero.
fn canonical_ipv4(host: &[u8]) -> bool {
    let mut parts = 0;
    host.split(|&c| c == b'.').all(|part| {
        parts += 1;
        parts <= 4
            && matches!(part.len(), 1..=3)
            && part.iter().all(u8::is_ascii_digit)
            && (part.len() == 1 || part[0] != b'0')
            && part
                .iter()
                .fold(0u16, |value, &d| value * 10 + u16::from(d - b'0'))
                <= 255
    }) && parts == 4
}

/// A segment the URL parser resolves: `.` or `..`, written out or percent-encoded.
fn dot_segment(segment: &[u8]) -> bool {
    match segment.len() {
        1 => segment == b".",
        2 => segment == b"..",
        3 => segment.eq_ignore_ascii_case(b"%2e"),
        4 => segment.eq_ignore_ascii_case(b".%2e") || segment.eq_ignore_ascii_case(b"%2e."),
        6 => segment.eq_ignore_ascii_case(b"%2e%2e"),
        _ => false,
    }
}

/// A byte of a plain host: a lower-case letter, a digit or `-` (`.` is read apart).
const IN_HOST: u8 = 1;
/// A byte of a plain path: a [`plain_byte`] or `'`.
const IN_PATH: u8 = 2;
/// A byte of a plain query: a [`plain_byte`] or `?`.
const IN_QUERY: u8 = 4;

/// The bytes of a query [`plain_url`] checks at a time.
const QUERY_BLOCK: usize = 16;

/// For each byte, the parts of a plain URL it may be in ([`IN_HOST`], [`IN_PATH`],
/// [`IN_QUERY`]): one load a byte where the tests are a dozen comparisons.
static URL_CLASS: [u8; 256] = {
    let mut class = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        #[allow(clippy::cast_possible_truncation)] // i < 256
        let b = i as u8;
        let host = matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'-');
        let plain = plain_byte(b);
        class[i] = (if host { IN_HOST } else { 0 })
            | (if plain || b == b'\'' { IN_PATH } else { 0 })
            | (if plain || b == b'?' { IN_QUERY } else { 0 });
        i += 1;
    }
    class
};

#[inline]
fn url_class(b: u8) -> u8 {
    URL_CLASS[usize::from(b)]
}

/// A byte the URL parser leaves as it is in a path and in a query: RFC 3986 unreserved,
/// sub-delimiters but `'` (which it escapes in the query of an http URL), `:`, `@`, `/` and
/// `%`.
const fn plain_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'-' | b'.'
                | b'_'
                | b'~'
                | b'!'
                | b'$'
                | b'&'
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'@'
                | b'/'
                | b'%'
        )
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
        let mut out = encode::Writer::with_len(
            encode::encoded_len(method.as_bytes())
                + uri
                    .encoded
                    .map_or_else(|| encode::encoded_len(uri.as_str().as_bytes()), str::len)
                + params.encoded_twice_len()
                + 2,
        );
        let (method_end, uri_end) = write(method, uri, params, &mut out);
        // Every byte is ASCII: each is an unreserved byte or part of an escape. Checked, so
        // that the text shown is always the bytes signed.
        BaseString {
            text: into_text(out.finish()),
            method_end,
            uri_end,
        }
    }

    /// The bytes [`BaseString::new`] would make of the same parts, handed to `sink` a few
    /// hundred at a time, never built whole: what an HMAC reads.
    pub(crate) fn stream(
        method: &str,
        uri: &BaseUri<'_>,
        params: &Normalized,
        sink: &mut dyn FnMut(&[u8]),
    ) {
        let mut out = encode::Chunks::new(sink);
        write(method, uri, params, &mut out);
        out.finish();
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

    /// Assembles a base string from its three parts, each encoded already some other way, as
    /// the diagnosis does to reproduce an encoder that is not RFC 5849's.
    pub(crate) fn assemble_encoded(method: &[u8], uri: &[u8], params: &[u8]) -> Self {
        let mut bytes = Vec::with_capacity(method.len() + uri.len() + params.len() + 2);
        bytes.extend_from_slice(method);
        let method_end = bytes.len();
        bytes.push(b'&');
        bytes.extend_from_slice(uri);
        let uri_end = bytes.len();
        bytes.push(b'&');
        bytes.extend_from_slice(params);
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
/// Writes the base string of the parts into `out`; returns where the method and the URI end.
/// The method is uppercased (ASCII letters only) and percent-encoded.
fn write(
    method: &str,
    uri: &BaseUri<'_>,
    params: &Normalized,
    out: &mut impl encode::Text,
) -> (usize, usize) {
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
    match uri.encoded {
        Some(encoded) => out.raw(encoded.as_bytes()),
        None => out.once(uri.as_str().as_bytes()),
    }
    let uri_end = out.len();
    out.raw(b"&");
    params.write_twice(out);
    (method_end, uri_end)
}

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

    /// What the URL parser gives for `url`: its base string URI and query, for an http or
    /// https URL it parses; the oracle of [`plain_url`].
    fn parsed(url: &str) -> Option<(String, Option<String>)> {
        let parsed = Url::parse(url).ok()?;
        let base = BaseUri::new(&parsed).ok()?.as_str().to_owned();
        Some((base, parsed.query().map(str::to_owned)))
    }

    /// Checks `plain_url` against the parser on `url`; whether it took the URL.
    fn agrees(url: &str) -> bool {
        let Some((base, query)) = plain_url(url) else {
            return false;
        };
        assert_eq!(
            Some((base.into_owned(), query.map(str::to_owned))),
            parsed(url),
            "{url:?}"
        );
        // `Request::new` takes it without the parser, reads it as the parser does, and parses
        // it to the same URL when asked.
        let request = crate::Request::new("GET", url).expect("a plain URL makes a request");
        assert!(request.is_plain(), "{url:?}");
        let (base, query) = parsed(url).unwrap();
        assert_eq!(request.base_uri().unwrap().as_str(), base, "{url:?}");
        let query = query.unwrap_or_default();
        assert_eq!(request.sources().query, query.as_bytes(), "{url:?}");
        assert_eq!(request.url(), &Url::parse(url).unwrap(), "{url:?}");
        true
    }

    /// A small deterministic generator (xorshift), so that the test needs no dependency.
    struct Picks(u64);

    impl Picks {
        fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            from[usize::try_from(self.0 % from.len() as u64).unwrap()]
        }
    }

    /// No query (a third of the time), or `?` and up to eight pairs joined by `&`.
    fn query(picks: &mut Picks, pairs: &[&str]) -> String {
        let count = picks.0 % 12;
        if count < 4 {
            return String::new();
        }
        let pairs: Vec<&str> = (4..count).map(|_| picks.pick(pairs)).collect();
        format!("?{}", pairs.join("&"))
    }

    #[test]
    fn plain_urls_read_as_the_parser_reads_them() {
        // The common shapes are taken.
        for url in [
            "https://api.twitter.com/1.1/statuses/update.json",
            "https://api.twitter.com/1.1/statuses/update.json?include_entities=true",
            "http://photos.example.net/photos?file=vacation.jpg&size=original",
            "https://api.example.com",
            "https://api.example.com:443/x",
            "http://example.com:8080/a%20b/?q=%7E#frag",
        ] {
            assert!(agrees(url), "{url}");
        }
        // Pieces where the parser rewrites, fails or reads otherwise, mixed at random.
        // Each list, `|`-separated, holds plain pieces several times, so that whole URLs are
        // often plain.
        let list = |text: &'static str| -> Vec<&'static str> { text.split('|').collect() };
        let schemes = list("http://|https://|http://|https://|http://|https://|HTTP://|Https://|ftp://|http:/|http:");
        let users = list("||||||||u@|u:p@|@");
        let hosts = list(concat!(
            "example.com|api.example.com|a.example.com|b-c.example.com|x9.example.com|",
            "example.com|api.example.com|a.example.com|b-c.example.com|x9.example.com|",
            "example.com|api.example.com|a.example.com|b-c.example.com|x9.example.com|",
            "Example.com|a.b-c.d|h|h1|1h|-a.com|ab--cd.com|a_b.com|127.0.0.1|1.2.3|0x7f.1|",
            "1.2.3.4.|example.com.|a..b|.a|xn--caf-dma.com|xn--a.com|xn--.com|a.xn--99zz|",
            "café.com|ex ample.com|[::1]|[::A]|a%41.com|e\u{0}x.com|ex\tample.com|0.0.0.0x|a.0x|a.1e|",
            "127.0.0.1|10.0.0.255|255.255.255.255|0.0.0.0|192.168.1.20|1.2.3.256|01.2.3.4|",
            "1.2.3.04|1.2.3.4.5|1.2.3|1.2.3.00|1.2.3.-1|1.2.3.1a|999.1.1.1|0x1.2.3.4|1.2.3.4:|",
        ));
        let ports = list("||||||:80|:443|:80|:443|:8080|:0|:080|:65535|:65536|:99999|:|:x|:1.5");
        let segments = list(concat!(
            "a|A|b-c|x.json|1.1|a|A|b-c|x.json|1.1|a|A|b-c|x.json|1.1|a|A|b-c|x.json|1.1|",
            "|%7e|%7E|%zz|%|a b|a'b|a^b|a{b}|a`b|a\"b|a<b>|é|.|..|%2e|%2E|.%2e|%2E.|%2e%2E|",
            "a\\b|a\tb|!$&()*+,;=:@|~|a?b|a#b",
        ));
        // A query is up to eight of these joined by `&`, so that it is often longer than the
        // blocks `plain_url` checks at a time, with a byte to refuse anywhere in a block.
        let query_pairs = list(concat!(
            "a=1|a=1|b=2|b=2|x=%20|x=%20|include_entities=true|status=Hello%20Ladies|",
            "a='|a=b c|a=%zz|q=?x|a=é|a=<|a=%20+%2B|=|&|a=\"|a=`|a={}|a=^|a=\\|a=\u{7f}",
        ));
        let fragments = list("||||||||#|#f|#a b|#é|#?x|#a#b");
        let mut picks = Picks(0x2545_f491_4f6c_dd1d);
        let mut taken = 0;
        for _ in 0..300_000 {
            let mut path = String::new();
            for _ in 0..usize::try_from(picks.0 % 4).unwrap() {
                path.push('/');
                path.push_str(picks.pick(&segments));
            }
            let url = format!(
                "{}{}{}{}{path}{}{}",
                picks.pick(&schemes),
                picks.pick(&users),
                picks.pick(&hosts),
                picks.pick(&ports),
                query(&mut picks, &query_pairs),
                picks.pick(&fragments),
            );
            taken += usize::from(agrees(&url));
        }
        // The generator reaches both sides: many taken, and many left to the parser.
        assert!(taken > 10_000, "{taken}");
        assert!(taken < 285_000, "{taken}");
    }

    #[test]
    fn base_uri_refuses_other_schemes() {
        let err = base_uri("ftp://example.com/file").unwrap_err();
        assert_eq!(
            err.to_string(),
            "unsupported URL scheme \"ftp\": only http and https requests can be signed"
        );
    }

    /// The streamed base string is the built one, byte for byte, whatever the lengths of
    /// its pieces around the stream's buffer (values to escape or not, of every length up to
    /// several buffers, an encoded URI given or not).
    #[test]
    fn the_streamed_base_string_is_the_built_one() {
        let url = Url::parse("https://api.example.com/a%20b/c:d").unwrap();
        let uri = BaseUri::new(&url).unwrap();
        let encoded = crate::encode::encode(uri.as_str().as_bytes()).to_string();
        let given = BaseUri::normalized_and_encoded(uri.as_str(), &encoded);
        let alphabets: [&[u8]; 3] = [b"abcXYZ019-._~", b"a b&c=d%e+\xc3\xa9/", b"%%%   &&&"];
        let mut checked = 0;
        for alphabet in alphabets {
            for len in (0..70).chain([200, 511, 512, 513, 700, 1500, 3000]) {
                let value: Vec<u8> = (0..len)
                    .map(|i| alphabet[(i * 7) % alphabet.len()])
                    .collect();
                let mut params = Parameters::new();
                params.push(Source::Query, b"q", &value);
                params.push(Source::FormBody, &value[..len / 3], b"x");
                params.push(Source::Protocol, b"oauth_nonce", b"n");
                let params = params.normalize();
                for (method, uri) in [("get", &uri), ("M-SEARCH", &given)] {
                    let built = BaseString::new(method, uri, &params);
                    let mut streamed = Vec::new();
                    let mut pieces = 0;
                    BaseString::stream(method, uri, &params, &mut |piece| {
                        streamed.extend_from_slice(piece);
                        pieces += 1;
                    });
                    assert_eq!(streamed, built.as_bytes(), "{len} {alphabet:?}");
                    // A few hundred bytes at a time, not a piece each.
                    assert!(pieces <= streamed.len() / 128 + 2, "{pieces} pieces");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 3 * 77 * 2);
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
