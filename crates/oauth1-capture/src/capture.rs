//! A captured request, and why one cannot be read.

use std::fmt;

/// A captured request: what a server received, before any OAuth processing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Capture {
    /// The method, as sent.
    pub method: String,
    /// The absolute URL, query included, as sent.
    pub url: String,
    /// The headers, in order, names as sent.
    pub headers: Vec<(String, String)>,
    /// The body, byte for byte.
    pub body: Vec<u8>,
}

impl Capture {
    /// A request typed field by field rather than captured: the method, the URL as sent, its
    /// `Content-Type` if any, and the body.
    ///
    /// ```
    /// let typed = oauth1_capture::Capture::typed("POST", "https://h/x", Some("text/plain"), b"hi".to_vec());
    /// assert_eq!(typed.header("content-type"), Some("text/plain"));
    /// assert!(!typed.has_form_body());
    /// ```
    #[must_use]
    pub fn typed(method: &str, url: &str, content_type: Option<&str>, body: Vec<u8>) -> Capture {
        Capture {
            method: method.to_owned(),
            url: url.to_owned(),
            headers: content_type
                .map(|ct| ("Content-Type".to_owned(), ct.to_owned()))
                .into_iter()
                .collect(),
            body,
        }
    }

    /// The first header named `name` (compared without case).
    #[must_use]
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Whether the body is a form (`application/x-www-form-urlencoded`), whose parameters are
    /// signed.
    #[must_use]
    pub fn has_form_body(&self) -> bool {
        self.header("content-type")
            .is_some_and(oauth1_signer::server::is_form)
    }

    /// The `Authorization` header if it is an OAuth one.
    #[must_use]
    pub fn oauth_authorization(&self) -> Option<&str> {
        self.header("authorization").filter(|v| {
            v.trim_start()
                .get(..6)
                .is_some_and(|s| s.eq_ignore_ascii_case("oauth "))
        })
    }
}

/// Checks a URL as a user typed or a tool captured it: absolute, `http` or `https`; what is
/// wrong is said with the URL itself, and what to write instead.
///
/// ```
/// let e = oauth1_capture::check_url("api.example.com/x").unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "the URL \"api.example.com/x\" has no scheme: write it whole, such as https://api.example.com/x"
/// );
/// assert!(oauth1_capture::check_url("https://api.example.com/x?a=1").is_ok());
/// ```
///
/// # Errors
///
/// A [`CaptureError`]: no scheme (or no scheme and no host), another scheme, or the reason the
/// URL parser gives.
pub fn check_url(text: &str) -> Result<(), CaptureError> {
    use url::{ParseError, Url};
    match Url::parse(text) {
        Ok(url) if matches!(url.scheme(), "http" | "https") => Ok(()),
        Ok(url) => Err(error(format!(
            "the URL {text:?} has the scheme {:?}: give an http or https URL",
            url.scheme()
        ))),
        Err(ParseError::RelativeUrlWithoutBase) if text.starts_with('/') => Err(error(format!(
            "the URL {text:?} has no scheme and no host: write it whole, such as https://host{text}"
        ))),
        Err(ParseError::RelativeUrlWithoutBase) => Err(error(format!(
            "the URL {text:?} has no scheme: write it whole, such as https://{text}"
        ))),
        Err(e) => Err(error(format!("the URL {text:?} is not valid: {e}"))),
    }
}

/// Why a capture cannot be read: what is wrong and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureError {
    message: String,
    file: Option<String>,
}

impl CaptureError {
    /// The file a pasted `curl` command would have read its data from (`-d @FILE`,
    /// `--data-binary @FILE`, `--json @FILE`, `--data-urlencode name@FILE`), when that is why
    /// it was refused: a capture is data, and the files it names are never read. A tool says
    /// how its user gives the body instead.
    #[must_use]
    pub fn file(&self) -> Option<&str> {
        self.file.as_deref()
    }
}

impl fmt::Display for CaptureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CaptureError {}

pub(crate) fn error(message: impl Into<String>) -> CaptureError {
    CaptureError {
        message: message.into(),
        file: None,
    }
}

/// The error of a pasted command that names a file to read its data from.
pub(crate) fn file_named(flag: &str, value: &str, path: &str) -> CaptureError {
    CaptureError {
        message: format!(
            "the curl command reads its data from a file ({flag} {value:?}), and a pasted command's files are not read"
        ),
        file: Some(path.to_owned()),
    }
}

/// The error of a quote opened at byte `at` and never closed.
pub(crate) fn unclosed(quote: char, at: usize) -> CaptureError {
    error(format!(
        "the {quote} quote at byte {at} is not closed: add the closing {quote}"
    ))
}
