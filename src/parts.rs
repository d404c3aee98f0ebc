//! A request given by its parts: the method, the URL without its query, and the query's and the
//! form body's parameters as decoded names and values (text or bytes). Signing it
//! ([`Signer::sign_parts`](crate::Signer::sign_parts)) reads the parameters as they are, with
//! nothing encoded and decoded again; what to send is encoded from the same bytes with the same
//! encoder (RFC 3986, §3.6), so it is exactly what was signed.
//!
//! ```
//! use oauth1_signer::RequestParts;
//!
//! let request = RequestParts::new("GET", "https://api.example.com/1/search?lang=en")?
//!     .query("q", "café & crème")
//!     .query("page", "2");
//! assert_eq!(
//!     request.url(),
//!     "https://api.example.com/1/search?lang=en&q=caf%C3%A9%20%26%20cr%C3%A8me&page=2",
//! );
//! assert_eq!(request.form_body(), None);
//! # Ok::<(), oauth1_signer::Error>(())
//! ```

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use url::Url;

use crate::base_string::{plain_url, BaseUri};
use crate::encode::encode;
use crate::error::Error;
use crate::params::{Parameter, Parameters, Source};
use crate::target::{check_authority, check_method, check_url_path, kept_method, FORM};

/// A request given by its parts, to sign with
/// [`Signer::sign_parts`](crate::Signer::sign_parts).
///
/// The query's parameters are kept in the order given (a query in the URL first), and so are
/// the form body's. A parameter may be given twice; both are signed and sent.
#[derive(Clone)]
pub struct RequestParts {
    /// The method as given; the common ones without an allocation.
    method: Cow<'static, str>,
    /// The URL to send, without query and fragment.
    base: Base,
    /// The query's parameters ([`Source::Query`]) and the form body's ([`Source::FormBody`]),
    /// decoded.
    params: Parameters,
    form: bool,
    callback: Option<String>,
    verifier: Option<String>,
}

/// The URL of a request, without query and fragment: read for it, or an endpoint's.
#[derive(Clone)]
enum Base {
    Own(ReadBase),
    Endpoint(Endpoint),
}

impl Base {
    /// The URL as read, the request's own or its endpoint's.
    fn read(&self) -> &ReadBase {
        match self {
            Base::Own(base) => base,
            Base::Endpoint(endpoint) => &endpoint.0.base,
        }
    }
}

/// A URL without query and fragment, read by [`read_url`].
#[derive(Clone)]
struct ReadBase {
    /// The URL to send, as the URL parser writes it.
    url: Arc<str>,
    /// The base string URI, when it is not `url` (`url` holds user information).
    base_uri: Option<Arc<str>>,
}

impl ReadBase {
    /// The base string URI, shared: a signed request keeps it without a copy.
    fn base_uri(&self) -> &Arc<str> {
        self.base_uri.as_ref().unwrap_or(&self.url)
    }
}

/// An endpoint: a URL read and checked once, for the many requests a client sends to it
/// ([`RequestParts::at`]); each request then reads no URL, and its base string copies the
/// endpoint's base string URI encoded once. Clones share it.
///
/// ```
/// use oauth1_signer::parts::Endpoint;
/// use oauth1_signer::RequestParts;
///
/// let timeline = Endpoint::new("https://api.example.com/1.1/statuses/home_timeline.json")?;
/// for page in ["1", "2"] {
///     let request = RequestParts::at("GET", &timeline)?.query("page", page);
///     assert_eq!(
///         request.url(),
///         format!("https://api.example.com/1.1/statuses/home_timeline.json?page={page}"),
///     );
/// }
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
#[derive(Clone)]
pub struct Endpoint(Arc<EndpointUrl>);

struct EndpointUrl {
    base: ReadBase,
    /// `enc(base string URI)`, the second part of every base string to this endpoint.
    encoded_uri: String,
    /// The URL's query, decoded: the first parameters of every request to it.
    query: Parameters,
}

impl Endpoint {
    /// The endpoint at an absolute `http` or `https` URL, read as [`RequestParts::new`] reads
    /// it: a query in `url` is decoded into parameters that every request to it carries
    /// first; the fragment is dropped.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidUrl`], [`Error::UrlWithoutHost`], [`Error::UnsupportedScheme`],
    /// [`Error::AmbiguousPath`], [`Error::InvalidPercentEncoding`] in the URL's query.
    pub fn new(url: &str) -> Result<Self, Error> {
        let (base, query) = read_url(url)?;
        let encoded_uri = encode(base.base_uri().as_bytes()).to_string();
        Ok(Endpoint(Arc::new(EndpointUrl {
            base,
            encoded_uri,
            query,
        })))
    }

    /// The URL to send without its query, as [`RequestParts::base_url`].
    #[must_use]
    pub fn base_url(&self) -> &str {
        &self.0.base.url
    }
}

impl fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The query's values are left out, as a request's are.
        f.debug_struct("Endpoint")
            .field("url", &self.base_url())
            .field("parameters", &self.0.query.len())
            .finish()
    }
}

impl RequestParts {
    /// A request for an absolute `http` or `https` URL. A query in `url` is decoded into
    /// parameters, as a form decodes it (`+` is a space), and sent re-encoded by RFC 3986; the
    /// fragment is dropped.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidMethod`], [`Error::InvalidUrl`], [`Error::UrlWithoutHost`],
    /// [`Error::UnsupportedScheme`], [`Error::AmbiguousPath`] (a dot segment or a backslash in
    /// the path, as [`Request::new`](crate::Request::new)), [`Error::InvalidPercentEncoding`]
    /// in the URL's query.
    pub fn new(method: &str, url: &str) -> Result<Self, Error> {
        check_method(method)?;
        let (base, params) = read_url(url)?;
        Ok(RequestParts::with_base(method, Base::Own(base), params))
    }

    /// A request to an [`Endpoint`], whose URL was read once for all its requests: nothing is
    /// read again, and the endpoint's query's parameters come first.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidMethod`].
    pub fn at(method: &str, endpoint: &Endpoint) -> Result<Self, Error> {
        check_method(method)?;
        let params = endpoint.0.query.clone();
        Ok(RequestParts::with_base(
            method,
            Base::Endpoint(endpoint.clone()),
            params,
        ))
    }

    fn with_base(method: &str, base: Base, params: Parameters) -> Self {
        RequestParts {
            method: kept_method(method),
            base,
            params,
            form: false,
            callback: None,
            verifier: None,
        }
    }

    /// Adds a query parameter: its name and value decoded, as text or bytes.
    #[must_use]
    pub fn query(mut self, name: impl AsRef<[u8]>, value: impl AsRef<[u8]>) -> Self {
        self.params
            .push(Source::Query, name.as_ref(), value.as_ref());
        self
    }

    /// Adds a form body parameter (`application/x-www-form-urlencoded`): its name and value
    /// decoded, as text or bytes. The request then has a form body, whose parameters are
    /// signed.
    #[must_use]
    pub fn form(mut self, name: impl AsRef<[u8]>, value: impl AsRef<[u8]>) -> Self {
        self.params
            .push(Source::FormBody, name.as_ref(), value.as_ref());
        self.form = true;
        self
    }

    /// Adds query parameters in order, each pair's name and value decoded, as
    /// [`query`](Self::query) adds one: for many parameters, one call, so that the request
    /// moves once and its buffers grow once.
    ///
    /// ```
    /// use oauth1_signer::RequestParts;
    ///
    /// let pairs = vec![("q".to_owned(), "café".to_owned()), ("page".to_owned(), "2".to_owned())];
    /// let request = RequestParts::new("GET", "https://api.example.com/1/search")?
    ///     .extend_query(pairs.iter().map(|(n, v)| (n, v)));
    /// assert_eq!(request.url(), "https://api.example.com/1/search?q=caf%C3%A9&page=2");
    /// # Ok::<(), oauth1_signer::Error>(())
    /// ```
    #[must_use]
    pub fn extend_query<N, V>(mut self, pairs: impl IntoIterator<Item = (N, V)>) -> Self
    where
        N: AsRef<[u8]>,
        V: AsRef<[u8]>,
    {
        self.params.extend(Source::Query, pairs);
        self
    }

    /// Adds form body parameters in order, as [`form`](Self::form) adds one; the request then
    /// has a form body, even if `pairs` is empty.
    #[must_use]
    pub fn extend_form<N, V>(mut self, pairs: impl IntoIterator<Item = (N, V)>) -> Self
    where
        N: AsRef<[u8]>,
        V: AsRef<[u8]>,
    {
        self.params.extend(Source::FormBody, pairs);
        self.form = true;
        self
    }

    /// Gives the request a form body even with no parameters: an empty body sent as
    /// `application/x-www-form-urlencoded`.
    #[must_use]
    pub fn with_empty_form(mut self) -> Self {
        self.form = true;
        self
    }

    /// `oauth_callback` (§2.1, temporary credentials request); `oob` for out of band.
    #[must_use]
    pub fn with_callback(mut self, callback: impl Into<String>) -> Self {
        self.callback = Some(callback.into());
        self
    }

    /// `oauth_verifier` (§2.3, token request).
    #[must_use]
    pub fn with_verifier(mut self, verifier: impl Into<String>) -> Self {
        self.verifier = Some(verifier.into());
        self
    }

    /// The method as given (the base string uppercases it).
    #[must_use]
    pub fn method(&self) -> &str {
        &self.method
    }

    /// The URL to send without its query, as the URL parser writes it (the scheme and host
    /// in lower case, no default port, `/` for an empty path).
    ///
    /// ```
    /// use oauth1_signer::RequestParts;
    ///
    /// let plain = RequestParts::new("GET", "https://api.example.com:443?a=1")?;
    /// assert_eq!(plain.base_url(), "https://api.example.com/");
    /// assert_eq!(plain.base_uri().as_str(), "https://api.example.com/");
    /// let with_user = RequestParts::new("GET", "https://me:pw@API.example.com:8443/x")?;
    /// assert_eq!(with_user.base_url(), "https://me:pw@api.example.com:8443/x");
    /// assert_eq!(with_user.base_uri().as_str(), "https://api.example.com:8443/x");
    /// # Ok::<(), oauth1_signer::Error>(())
    /// ```
    #[must_use]
    pub fn base_url(&self) -> &str {
        &self.base.read().url
    }

    /// The base string URI (§3.4.1.2): [`base_url`](Self::base_url) without user
    /// information.
    #[must_use]
    pub fn base_uri(&self) -> BaseUri<'_> {
        let text = self.base.read().base_uri();
        match &self.base {
            Base::Own(_) => BaseUri::normalized(text),
            Base::Endpoint(endpoint) => {
                BaseUri::normalized_and_encoded(text, &endpoint.0.encoded_uri)
            }
        }
    }

    /// The base string URI, shared, for a signed request to keep.
    pub(crate) fn shared_base_uri(&self) -> Arc<str> {
        Arc::clone(self.base.read().base_uri())
    }

    /// The query's and the form body's parameters, in the order given.
    #[must_use]
    pub fn parameters(&self) -> impl ExactSizeIterator<Item = Parameter<'_>> + Clone + '_ {
        self.params.iter()
    }

    /// The URL to send: the base URL and the query's parameters, each name and value
    /// percent-encoded (§3.6) and joined by `&`.
    #[must_use]
    pub fn url(&self) -> String {
        let mut out = self.base_url().to_owned();
        let mut first = true;
        for p in self.params.iter().filter(|p| p.source == Source::Query) {
            out.push(if first { '?' } else { '&' });
            first = false;
            push_pair(&mut out, p);
        }
        out
    }

    /// Whether the request has a form body.
    #[must_use]
    pub fn has_form_body(&self) -> bool {
        self.form
    }

    /// The form body to send, when the request has one: the form's parameters, each name and
    /// value percent-encoded (§3.6) and joined by `&`; its Content-Type is
    /// [`RequestParts::content_type`].
    #[must_use]
    pub fn form_body(&self) -> Option<Vec<u8>> {
        if !self.form {
            return None;
        }
        let mut out = String::new();
        for p in self.params.iter().filter(|p| p.source == Source::FormBody) {
            if !out.is_empty() {
                out.push('&');
            }
            push_pair(&mut out, p);
        }
        Some(out.into_bytes())
    }

    /// `application/x-www-form-urlencoded` when the request has a form body.
    #[must_use]
    pub fn content_type(&self) -> Option<&'static str> {
        self.form.then_some(FORM)
    }

    pub(crate) fn params(&self) -> &Parameters {
        &self.params
    }

    pub(crate) fn callback(&self) -> Option<&str> {
        self.callback.as_deref()
    }

    pub(crate) fn verifier(&self) -> Option<&str> {
        self.verifier.as_deref()
    }
}

/// Reads an absolute URL for a request or an endpoint: the URL without query and fragment,
/// and the query's parameters decoded.
fn read_url(url: &str) -> Result<(ReadBase, Parameters), Error> {
    // A plain URL is read as the URL parser would read it, without it; any other is parsed.
    // The two agree on every URL the first takes (`base_string::plain_url`), which has a host
    // after `//` and no dot segment or backslash in its path: the checks of the text below
    // pass for it.
    let (base, query) = match plain_url(url) {
        Some((base, query)) => (
            ReadBase {
                url: Arc::from(&*base),
                base_uri: None,
            },
            query.map(Cow::Borrowed),
        ),
        None => parsed(url)?,
    };
    let mut params = Parameters::new();
    if let Some(query) = query {
        params
            .extend_urlencoded(Source::Query, query.as_bytes())
            .map_err(|source| Error::InvalidPercentEncoding {
                location: Source::Query,
                source,
            })?;
    }
    Ok((base, params))
}

/// A URL that is not plain, read by the URL parser: the URL without query and fragment, and
/// the query as the parser keeps it.
fn parsed(url: &str) -> Result<(ReadBase, Option<Cow<'static, str>>), Error> {
    let mut parsed = Url::parse(url).map_err(|source| Error::InvalidUrl { source })?;
    crate::base_string::check_scheme(&parsed)?;
    check_authority(url)?;
    check_url_path(url)?;
    let query = parsed.query().map(|q| Cow::Owned(q.to_owned()));
    parsed.set_query(None);
    parsed.set_fragment(None);
    let base_uri = BaseUri::new(&parsed)?.as_str().to_owned();
    let url = String::from(parsed);
    let base_uri = (base_uri != url).then(|| Arc::from(base_uri));
    Ok((
        ReadBase {
            url: Arc::from(url),
            base_uri,
        },
        query,
    ))
}

/// `name=value`, each percent-encoded.
fn push_pair(out: &mut String, p: Parameter<'_>) {
    encode(p.name).append_to(out);
    out.push('=');
    encode(p.value).append_to(out);
}

impl fmt::Debug for RequestParts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The parameters' values are left out: a request may carry a secret in one.
        f.debug_struct("RequestParts")
            .field("method", &self.method)
            .field("url", &self.base_url())
            .field("parameters", &self.params.len())
            .field("form", &self.form)
            .finish_non_exhaustive()
    }
}
