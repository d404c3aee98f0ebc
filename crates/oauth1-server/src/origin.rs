//! The public URL of a request received behind a reverse proxy: what the client signed.

use url::Url;

use crate::diagnose::OtherOrigin;
use crate::error::VerifyError;
use oauth1_signer::server::{is_tchar, skip_ows};

/// Rebuilds the public URL of a request seen behind proxies: where the client sent it, which
/// is what it signed.
///
/// Forwarding headers are the client's to write unless the proxy overwrites them, so only the
/// headers the application names are read, and only from the proxy it trusts: that proxy must
/// set them on every request (replacing or appending to what the client sent) and strip the
/// other family, which is then ignored here.
///
/// ```
/// use oauth1_server::{ProxyHeaders, PublicOrigin};
/// use url::Url;
///
/// let fixed = PublicOrigin::Fixed(Url::parse("https://api.example.com")?);
/// let url = fixed.url("/1/photos?size=original", [("X-Forwarded-Host", "evil.example")])?;
/// assert_eq!(url.as_str(), "https://api.example.com/1/photos?size=original");
///
/// let proxied = PublicOrigin::TrustedProxy {
///     origin: Url::parse("http://localhost:8080")?,
///     headers: ProxyHeaders::Forwarded,
/// };
/// let forwarded = "for=192.0.2.60;proto=https;host=api.example.com";
/// let url = proxied.url("/1/photos", [("Forwarded", forwarded), ("X-Forwarded-Host", "evil")])?;
/// assert_eq!(url.as_str(), "https://api.example.com/1/photos");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PublicOrigin {
    /// The configured scheme, host and port; forwarding headers are ignored. The safe choice.
    Fixed(Url),
    /// Behind exactly one reverse proxy that the application trusts to set `headers`; what
    /// they do not say is taken from `origin`.
    TrustedProxy {
        /// The scheme, host and port used where the proxy's headers say nothing.
        origin: Url,
        /// The one family of headers the proxy sets.
        headers: ProxyHeaders,
    },
}

/// The forwarding headers a trusted proxy sets; every other one is ignored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProxyHeaders {
    /// `Forwarded` (RFC 7239): `proto` and `host` of its last element, which the proxy
    /// appends. Quoted strings and several elements and header lines are read as the RFC says.
    Forwarded,
    /// `X-Forwarded-Proto` alone (the last value); the host is the origin's. For proxies that
    /// pass the client's `Host` on and do not set `X-Forwarded-Host`.
    XForwardedProto,
    /// `X-Forwarded-Proto` and `X-Forwarded-Host` (the last value of each); the proxy must
    /// set both.
    XForwardedProtoAndHost,
}

impl PublicOrigin {
    /// The public URL for `path_and_query` (the request target, starting with `/`) given the
    /// request's headers as (name, value) pairs.
    ///
    /// # Errors
    ///
    /// [`VerifyError::Malformed`] for a target that does not start with `/`, a `Forwarded`
    /// header that does not follow RFC 7239, or forwarding headers naming a scheme other than
    /// http or https or a malformed host; [`VerifyError::AmbiguousPath`] for a path that is not
    /// in the form the URL parser writes it (a dot segment, a backslash, a character it
    /// percent-encodes), which the URL would not sign as the router routes it.
    pub fn url<'h>(
        &self,
        path_and_query: &str,
        headers: impl IntoIterator<Item = (&'h str, &'h str)>,
    ) -> Result<Url, VerifyError> {
        if !path_and_query.starts_with('/') {
            return Err(VerifyError::malformed(format!(
                "the request target \"{}\" does not start with '/'",
                path_and_query.escape_default()
            )));
        }
        let path = &path_and_query[..path_and_query
            .find(['?', '#'])
            .unwrap_or(path_and_query.len())];
        let url = self.url_of(path_and_query, headers)?;
        // The path signed is the path routed, byte for byte.
        oauth1_signer::server::check_received(path, url.path())
            .map_err(|problem| VerifyError::AmbiguousPath { problem })?;
        Ok(url)
    }

    fn url_of<'h>(
        &self,
        path_and_query: &str,
        headers: impl IntoIterator<Item = (&'h str, &'h str)>,
    ) -> Result<Url, VerifyError> {
        let (origin, proto, host) = match self {
            PublicOrigin::Fixed(origin) => (origin, None, None),
            PublicOrigin::TrustedProxy {
                origin,
                headers: family,
            } => {
                let (proto, host) = forwarded(*family, headers)?;
                (origin, proto, host)
            }
        };
        if proto.is_none() && host.is_none() {
            // The origin's own scheme and authority, parsed once already.
            return Ok(with_target(origin, "", path_and_query));
        }
        let scheme = proto.unwrap_or_else(|| origin.scheme().to_owned());
        if scheme != "http" && scheme != "https" {
            return Err(VerifyError::malformed(format!(
                "the forwarded scheme \"{}\" is not http or https",
                scheme.escape_default()
            )));
        }
        let authority = if let Some(host) = host {
            if host.is_empty()
                || host
                    .bytes()
                    .any(|b| b <= b' ' || b"/?#@\\\"".contains(&b) || b >= 0x7f)
            {
                return Err(VerifyError::malformed(format!(
                    "the forwarded host \"{}\" is not a host",
                    host.escape_default()
                )));
            }
            host
        } else {
            let host = origin.host_str().unwrap_or_default();
            match origin.port() {
                Some(port) => format!("{host}:{port}"),
                None => host.to_owned(),
            }
        };
        Url::parse(&format!("{scheme}://{authority}{path_and_query}"))
            .map_err(|e| VerifyError::malformed(format!("the public URL cannot be built: {e}")))
    }
}

/// The public URL of a received request written out whole
/// (`https://api.example.com/1/photos?size=original`, as a log, a capture or the command line
/// gives it), held to the rule [`PublicOrigin::url`] holds a request target to: its path must
/// be written as the URL parser writes it, so that the path verified is the path routed.
///
/// ```
/// use oauth1_server::received_url;
///
/// let url = received_url("https://api.example.com/1/photos?size=original")?;
/// assert_eq!(url.path(), "/1/photos");
///
/// let refused = received_url("https://api.example.com/b/%2e%2e/a").unwrap_err();
/// assert_eq!(refused.reason().as_str(), "ambiguous-path");
/// assert_eq!(refused.status(), 400);
/// # Ok::<(), oauth1_server::VerifyError>(())
/// ```
///
/// # Errors
///
/// [`VerifyError::Malformed`] for text that is not an absolute `http` or `https` URL with a
/// host; [`VerifyError::AmbiguousPath`] for a path with a dot segment, a backslash, or a
/// character the URL parser percent-encodes.
pub fn received_url(url: &str) -> Result<Url, VerifyError> {
    let parsed =
        Url::parse(url).map_err(|e| VerifyError::malformed(format!("invalid URL: {e}")))?;
    oauth1_signer::base_string::check_scheme(&parsed).map_err(VerifyError::malformed_by)?;
    oauth1_signer::server::check_authority(url).map_err(VerifyError::malformed_by)?;
    oauth1_signer::server::check_received(oauth1_signer::server::path_of(url), parsed.path())
        .map_err(|problem| VerifyError::AmbiguousPath { problem })?;
    Ok(parsed)
}

/// The URL that parsing `origin`'s scheme and authority, then `prefix` and `path_and_query`
/// (a request target, which starts with `/`), would give, made without parsing the scheme and
/// host again: `origin` with its path and query replaced, through the same parser.
pub(crate) fn with_target(origin: &Url, prefix: &str, path_and_query: &str) -> Url {
    // The parser trims control characters and spaces at the end of a whole URL.
    let path_and_query = path_and_query.trim_end_matches(|c: char| c <= ' ');
    let (target, fragment) = match path_and_query.split_once('#') {
        Some((target, fragment)) => (target, Some(fragment)),
        None => (path_and_query, None),
    };
    let (path, query) = match target.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (target, None),
    };
    let mut url = origin.clone();
    if prefix.is_empty() {
        url.set_path(path);
    } else {
        url.set_path(&format!("{prefix}{path}"));
    }
    url.set_query(query);
    url.set_fragment(fragment);
    url
}

/// The scheme (lowercased) and host the trusted proxy forwarded, from the named family only.
fn forwarded<'h>(
    family: ProxyHeaders,
    headers: impl IntoIterator<Item = (&'h str, &'h str)>,
) -> Result<(Option<String>, Option<String>), VerifyError> {
    match family {
        ProxyHeaders::Forwarded => {
            // Several header lines are one list, in order (RFC 9110 §5.3).
            let mut last = None;
            let values = (headers.into_iter()).filter_map(|(name, value)| {
                name.eq_ignore_ascii_case("forwarded").then_some(value)
            });
            for value in values {
                if let Some(element) = parse_forwarded(value)?.pop() {
                    last = Some(element);
                }
            }
            Ok(last.map_or((None, None), |e| {
                (e.proto.map(|p| p.to_ascii_lowercase()), e.host)
            }))
        }
        ProxyHeaders::XForwardedProto | ProxyHeaders::XForwardedProtoAndHost => {
            let (mut proto, mut host) = (None, None);
            for (name, value) in headers {
                if name.eq_ignore_ascii_case("x-forwarded-proto") {
                    proto = Some(last_value(value).to_ascii_lowercase());
                } else if name.eq_ignore_ascii_case("x-forwarded-host")
                    && family == ProxyHeaders::XForwardedProtoAndHost
                {
                    host = Some(last_value(value).to_owned());
                }
            }
            Ok((proto, host))
        }
    }
}

/// The origins a client could have signed `url` (the request's public URL, as verified) for,
/// other than its own, given the request's headers: the `Host` it sent, with either scheme;
/// `X-Forwarded-Host` and `-Proto`, and `Forwarded`, whether or not they are trusted for
/// verification; the origin without its port; `localhost` for a loopback address and the
/// loopback address for `localhost`. Most likely first, each once; a header that does not
/// parse adds nothing. For the diagnosis of a bad signature only: none is trusted.
pub(crate) fn other_origins(url: &Url, headers: &[(&str, &str)]) -> Vec<OtherOrigin> {
    let scheme = url.scheme();
    let other_scheme = if scheme == "https" { "http" } else { "https" };
    let mut tried: Vec<(String, String, &'static str)> = Vec::new();
    let mut add = |scheme: &str, authority: &str, from: &'static str| {
        tried.push((scheme.to_owned(), authority.to_owned(), from));
    };
    let header = |wanted: &str| {
        headers
            .iter()
            .rev()
            .find(|(name, _)| name.eq_ignore_ascii_case(wanted))
            .map(|&(_, value)| value)
    };
    if let Some(host) = header("host") {
        let host = host.trim();
        add(scheme, host, "the Host header it sent");
        add(
            other_scheme,
            host,
            with_the_other_scheme(url, other_scheme, host),
        );
    }
    if let Ok((proto, Some(host))) = forwarded(
        ProxyHeaders::XForwardedProtoAndHost,
        headers.iter().copied(),
    ) {
        add(
            proto.as_deref().unwrap_or(scheme),
            &host,
            "X-Forwarded-Host and X-Forwarded-Proto, which this server does not trust",
        );
    } else if let Ok((Some(proto), None)) =
        forwarded(ProxyHeaders::XForwardedProto, headers.iter().copied())
    {
        let authority = url[url::Position::BeforeHost..url::Position::AfterPort].to_owned();
        add(
            &proto,
            &authority,
            "X-Forwarded-Proto, which this server does not trust",
        );
    }
    if let Ok((proto, host)) = forwarded(ProxyHeaders::Forwarded, headers.iter().copied()) {
        if proto.is_some() || host.is_some() {
            let authority = host.unwrap_or_else(|| {
                url[url::Position::BeforeHost..url::Position::AfterPort].to_owned()
            });
            add(
                proto.as_deref().unwrap_or(scheme),
                &authority,
                "the Forwarded header, which this server does not trust",
            );
        }
    }
    let host = url.host_str().unwrap_or_default();
    if url.port().is_some() {
        add(scheme, host, "this server's origin without its port");
    }
    let port = url.port().map_or(String::new(), |p| format!(":{p}"));
    let loopback = host == "127.0.0.1" || host == "[::1]";
    if loopback {
        add(
            scheme,
            &format!("localhost{port}"),
            "localhost, the name of this loopback address",
        );
    } else if host.eq_ignore_ascii_case("localhost") {
        add(
            scheme,
            &format!("127.0.0.1{port}"),
            "127.0.0.1, the address localhost names",
        );
    }
    let mut found: Vec<OtherOrigin> = Vec::new();
    for (scheme, authority, from) in tried {
        let Some(other) = with_origin(url, &scheme, &authority) else {
            continue;
        };
        if other != *url && !found.iter().any(|f| f.url == other) {
            found.push(OtherOrigin { url: other, from });
        }
    }
    found
}

/// Where the origin of the `Host` header `host` with the other scheme comes from, saying
/// what else differs from `url` (the request's public URL): only the scheme, or also the
/// port (left out, or another), or the host itself. A client that reached the server at
/// another host than its public origin and signed for it is told it signed for another host,
/// not for the other scheme.
fn with_the_other_scheme(url: &Url, other_scheme: &str, host: &str) -> &'static str {
    match with_origin(url, other_scheme, host) {
        Some(other) if other.host() != url.host() => {
            "the Host header it sent, another host than this server's, with the other scheme"
        }
        Some(other) if other.port() == url.port() => {
            "the Host header it sent, with the other scheme"
        }
        Some(other) if other.port().is_none() => {
            "the Host header it sent, without this server's port, with the other scheme"
        }
        _ => "the Host header it sent, another port than this server's, with the other scheme",
    }
}

/// `url` with the scheme `scheme` and the authority `authority` (host, and port if any), if
/// that makes a URL.
#[cfg_attr(not(feature = "tower"), allow(dead_code))] // the tower layer's
fn with_origin(url: &Url, scheme: &str, authority: &str) -> Option<Url> {
    if (scheme != "http" && scheme != "https")
        || authority.is_empty()
        || authority
            .bytes()
            .any(|b| b <= b' ' || b"/?#@\\\"".contains(&b) || b >= 0x7f)
    {
        return None;
    }
    let rest = &url[url::Position::BeforePath..];
    Url::parse(&format!("{scheme}://{authority}{rest}")).ok()
}

/// The last of a comma-separated list of values.
fn last_value(value: &str) -> &str {
    value.rsplit(',').next().unwrap_or("").trim()
}

/// One element of a `Forwarded` header: the parameters this crate reads.
#[derive(Debug, Default, PartialEq, Eq)]
struct Element {
    proto: Option<String>,
    host: Option<String>,
}

/// Parses a `Forwarded` header value (RFC 7239 §4):
///
/// ```text
/// Forwarded         = 1#forwarded-element
/// forwarded-element = [ forwarded-pair ] *( ";" [ forwarded-pair ] )
/// forwarded-pair    = token "=" value
/// value             = token / quoted-string
/// ```
///
/// with optional whitespace around `,` and `;`. A parameter given twice in one element is an
/// error (§4: "MUST NOT occur more than once"), as is anything that is not this syntax.
fn parse_forwarded(value: &str) -> Result<Vec<Element>, VerifyError> {
    let b = value.as_bytes();
    let error = |at: usize, expected: &str| {
        VerifyError::malformed(format!(
            "the Forwarded header \"{}\" is not RFC 7239 syntax: expected {expected} at byte {at}",
            value.escape_default()
        ))
    };
    let skip_ows = |i: usize| skip_ows(b, i);
    let mut elements = vec![Element::default()];
    let mut seen: Vec<String> = Vec::new();
    let mut i = skip_ows(0);
    while i < b.len() {
        match b[i] {
            b',' => {
                // An empty element (`a=1,,b=2`) is no element (RFC 9110 §5.6.1).
                if !seen.is_empty() {
                    elements.push(Element::default());
                    seen.clear();
                }
                i = skip_ows(i + 1);
                continue;
            }
            b';' => {
                i = skip_ows(i + 1);
                continue;
            }
            _ => {}
        }
        let start = i;
        while i < b.len() && is_tchar(b[i]) {
            i += 1;
        }
        if i == start {
            return Err(error(i, "a parameter name"));
        }
        let name = value[start..i].to_ascii_lowercase();
        if b.get(i) != Some(&b'=') {
            return Err(error(i, "'=' after the parameter name"));
        }
        let parameter_value;
        (parameter_value, i) =
            read_value(b, i + 1).map_err(|(at, expected)| error(at, expected))?;
        if seen.contains(&name) {
            return Err(VerifyError::malformed(format!(
                "the Forwarded header \"{}\" gives {name} twice in one element",
                value.escape_default()
            )));
        }
        let element = elements.last_mut().expect("one element at least");
        match name.as_str() {
            "proto" => element.proto = Some(parameter_value),
            "host" => element.host = Some(parameter_value),
            _ => {}
        }
        seen.push(name);
        i = skip_ows(i);
        if i < b.len() && b[i] != b',' && b[i] != b';' {
            return Err(error(i, "';' or ','"));
        }
    }
    if seen.is_empty() && elements.len() > 1 {
        elements.pop();
    }
    Ok(elements)
}

/// The value at `i`, a token or a quoted string (RFC 9110 §5.6.4; visible ASCII only), and
/// where it ends; or where and what was expected.
fn read_value(b: &[u8], mut i: usize) -> Result<(String, usize), (usize, &'static str)> {
    if b.get(i) != Some(&b'"') {
        let start = i;
        while i < b.len() && is_tchar(b[i]) {
            i += 1;
        }
        if i == start {
            return Err((i, "a token or a quoted string"));
        }
        return Ok((String::from_utf8_lossy(&b[start..i]).into_owned(), i));
    }
    let visible = |c: u8| c == b'\t' || (b' '..0x7f).contains(&c);
    let mut text = String::new();
    i += 1;
    loop {
        match b.get(i) {
            None => return Err((i, "a closing quote")),
            Some(b'"') => return Ok((text, i + 1)),
            Some(b'\\') => match b.get(i + 1) {
                None => return Err((i + 1, "a character after '\\'")),
                Some(&c) if !visible(c) => {
                    return Err((i + 1, "a visible character after '\\'"));
                }
                Some(&c) => {
                    text.push(char::from(c));
                    i += 2;
                }
            },
            Some(&c) if !visible(c) => return Err((i, "a visible ASCII character or '\"'")),
            Some(&c) => {
                text.push(char::from(c));
                i += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn others(url: &str, headers: &[(&str, &str)]) -> Vec<(String, &'static str)> {
        other_origins(&Url::parse(url).unwrap(), headers)
            .into_iter()
            .map(|o| (o.url.to_string(), o.from))
            .collect()
    }

    #[test]
    fn the_origins_a_client_could_have_signed_for_each_once_the_likeliest_first() {
        let found = others(
            "http://127.0.0.1:8080/photos?size=original",
            &[("Host", "localhost:8080")],
        );
        let urls: Vec<&str> = found.iter().map(|(u, _)| u.as_str()).collect();
        assert_eq!(
            urls,
            [
                "http://localhost:8080/photos?size=original",
                "https://localhost:8080/photos?size=original",
                "http://127.0.0.1/photos?size=original",
            ]
        );
        // The server's own origin is not among them, however it is named.
        let found = others("https://api.example.com/x", &[("host", "api.example.com")]);
        assert_eq!(
            found,
            [(
                "http://api.example.com/x".to_owned(),
                "the Host header it sent, with the other scheme"
            )]
        );
        // A Host that names another host than the server's origin is said to be one, with the
        // other scheme; one that names another port, or none, is said to.
        let found = others("https://api.test/x", &[("host", "127.0.0.1:8080")]);
        assert_eq!(
            found,
            [
                (
                    "https://127.0.0.1:8080/x".to_owned(),
                    "the Host header it sent"
                ),
                (
                    "http://127.0.0.1:8080/x".to_owned(),
                    "the Host header it sent, another host than this server's, with the other scheme"
                ),
            ]
        );
        let found = others("https://api.test:8443/x", &[("host", "api.test")]);
        assert_eq!(
            found[1],
            (
                "http://api.test/x".to_owned(),
                "the Host header it sent, without this server's port, with the other scheme"
            )
        );
        let found = others("https://api.test/x", &[("host", "api.test:8443")]);
        assert_eq!(
            found[1],
            (
                "http://api.test:8443/x".to_owned(),
                "the Host header it sent, another port than this server's, with the other scheme"
            )
        );
        // localhost for a loopback address, and the address for localhost.
        let found = others("http://[::1]:3000/x", &[]);
        assert_eq!(found[1].0, "http://localhost:3000/x");
        let found = others("http://localhost:3000/x", &[]);
        assert_eq!(found[1].0, "http://127.0.0.1:3000/x");
        // A header that names no host adds nothing; nor does a scheme that is not http(s).
        let found = others(
            "https://api.example.com/x",
            &[
                ("host", "evil.example/x"),
                ("x-forwarded-proto", "gopher"),
                ("x-forwarded-host", "a b"),
                ("forwarded", "for=1;host=\"\""),
            ],
        );
        assert!(found.is_empty(), "{found:?}");
    }

    /// The cases the property below first found: a fragment, and a space at the end, which
    /// parsing the whole text trims.
    #[test]
    fn a_fragment_and_a_trailing_space_come_out_as_parsing_gives_them() {
        let origin = Url::parse("https://api.example.com").unwrap();
        for target in ["/#", "/ ", "/a?b#c?d", "/a \t"] {
            let expected = Url::parse(&format!("https://api.example.com{target}")).unwrap();
            assert_eq!(with_target(&origin, "", target).as_str(), expected.as_str());
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            failure_persistence: None,
            ..proptest::prelude::ProptestConfig::default()
        })]

        /// Replacing the path and query of a parsed origin gives the URL that parsing the
        /// whole text gives, whatever the target holds (dot segments, escapes, backslashes,
        /// a second `?`, `//` that could read as an authority, text to escape).
        #[test]
        fn a_target_put_in_a_parsed_origin_is_the_parsed_url(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "/", "a", "Z9", ".", "..", "%2e", "%2F", "%", "%zz", "?", "&", "=", "#",
                    "\\", ";", "@", ":", "é", " ", "\t", "|", "{", "'", "//", "~", "+",
                ]),
                0..12,
            ),
            origin in proptest::sample::select(vec![
                ("https://api.example.com", ""),
                ("http://127.0.0.1:8080", ""),
                ("http://[::1]:3000", ""),
                ("HTTPS://Example.COM:443", ""),
                ("https://example.com/api", "/api"),
            ]),
        ) {
            let target = format!("/{}", parts.concat());
            let (text, prefix) = origin;
            let parsed = Url::parse(text).unwrap();
            let expected = Url::parse(&format!("{}{target}", text.trim_end_matches('/')));
            let expected = expected.unwrap();
            let built = with_target(&parsed, prefix, &target);
            proptest::prop_assert_eq!(built.as_str(), expected.as_str());
        }
    }

    fn element(proto: Option<&str>, host: Option<&str>) -> Element {
        Element {
            proto: proto.map(str::to_owned),
            host: host.map(str::to_owned),
        }
    }

    /// The examples of RFC 7239 §4 and §7.1, and quoted strings holding the separators.
    #[test]
    fn forwarded_follows_rfc_7239() {
        for (value, expected) in [
            ("for=\"_gazonk\"", vec![element(None, None)]),
            (
                "For=\"[2001:db8:cafe::17]:4711\"",
                vec![element(None, None)],
            ),
            (
                "for=192.0.2.60;proto=http;by=203.0.113.43",
                vec![element(Some("http"), None)],
            ),
            (
                "for=192.0.2.43, for=198.51.100.17",
                vec![element(None, None), element(None, None)],
            ),
            (
                "for=192.0.2.43,for=\"[2001:db8:cafe::17]\";proto=https",
                vec![element(None, None), element(Some("https"), None)],
            ),
            (
                "host=\"a.example, proto=http\";proto=https",
                vec![element(Some("https"), Some("a.example, proto=http"))],
            ),
            (
                "host=\"a\\\"b\" ; PROTO=https ,  for=x",
                vec![element(Some("https"), Some("a\"b")), element(None, None)],
            ),
            (
                ", proto=http,,proto=https;;,",
                vec![element(Some("http"), None), element(Some("https"), None)],
            ),
        ] {
            assert_eq!(parse_forwarded(value).unwrap(), expected, "{value}");
        }
    }

    #[test]
    fn malformed_forwarded_headers_are_refused() {
        for (value, message) in [
            ("host=\"a", "expected a closing quote at byte 7"),
            ("host", "expected '=' after the parameter name at byte 4"),
            ("host=a b", "expected ';' or ',' at byte 7"),
            ("=a", "expected a parameter name at byte 0"),
            ("host=", "expected a token or a quoted string at byte 5"),
            ("host=\"a\\", "expected a character after '\\' at byte 8"),
        ] {
            let err = parse_forwarded(value).unwrap_err().to_string();
            assert!(err.ends_with(message), "{value}: {err}");
        }
        assert_eq!(
            parse_forwarded("host=a;Host=b").unwrap_err().to_string(),
            "the Forwarded header \"host=a;Host=b\" gives host twice in one element"
        );
    }
}
