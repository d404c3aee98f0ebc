//! Requests as debugging tools capture them, read back into method, URL, headers and body: a
//! `curl` command line as browsers and Postman copy it, a raw HTTP/1.1 request as proxies
//! (mitmproxy, Burp, Charles) dump it, and the entries of a HAR file. What the `oauth1`
//! command line's `--curl`, `--http` and `--har` read, so that a mismatched signature can be
//! explained from what the other side actually sent.

// docs.rs builds with `--cfg docsrs`: every item a feature gates says which.
#![cfg_attr(docsrs, feature(doc_cfg))]

use std::fmt;

mod curl;
mod har;
mod http;
mod protocol;
mod shown;

pub use curl::data_urlencode;
pub use protocol::Protocol;
pub use shown::{key_shape, shown, HIDDEN_SIGNATURE};

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
            .is_some_and(oauth1_signer::target::is_form)
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

/// Why a capture cannot be read: what is wrong and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureError(String);

impl fmt::Display for CaptureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CaptureError {}

pub(crate) fn error(message: impl Into<String>) -> CaptureError {
    CaptureError(message.into())
}

/// The error of a quote opened at byte `at` and never closed.
pub(crate) fn unclosed(quote: char, at: usize) -> CaptureError {
    error(format!(
        "the {quote} quote at byte {at} is not closed: add the closing {quote}"
    ))
}
