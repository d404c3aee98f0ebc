//! A raw HTTP/1.1 request as proxies (mitmproxy, Burp, Charles) dump it.

use crate::capture::{error, Capture, CaptureError};

impl Capture {
    /// Reads a raw HTTP/1.1 request as proxies dump it: the request line, the headers, a blank
    /// line and the body (CRLF or LF line ends). The URL is the absolute-form target, or
    /// `scheme://Host` followed by the origin-form target. A `Content-Length` body is cut to
    /// its length.
    ///
    /// # Errors
    ///
    /// A [`CaptureError`]: not an HTTP request, no `Host` header for an origin-form target, a
    /// body shorter than its `Content-Length`, a chunked body.
    pub fn from_http(raw: &[u8], scheme: &str) -> Result<Capture, CaptureError> {
        Capture::from_http_read(raw, scheme).map(|(capture, _)| capture)
    }

    /// Reads a raw HTTP/1.1 request as [`from_http`](Self::from_http) does when nothing but
    /// the request says its scheme: an absolute-form target (`GET https://host/path HTTP/1.1`)
    /// states it; an origin-form target (`GET /path HTTP/1.1`, as servers log and most proxies
    /// dump it) does not, and the capture is read with https, the other reading as likely
    /// ([`with_scheme`](Self::with_scheme)).
    ///
    /// ```
    /// use oauth1_capture::Capture;
    ///
    /// let raw = b"GET /1/search?q=a HTTP/1.1\r\nHost: api.example.com\r\n\r\n";
    /// let read = Capture::from_http_scheme_unknown(raw)?;
    /// assert!(!read.scheme_stated);
    /// assert_eq!(read.capture.url, "https://api.example.com/1/search?q=a");
    /// assert_eq!(read.capture.with_scheme("http").url, "http://api.example.com/1/search?q=a");
    ///
    /// let raw = b"GET http://api.example.com/1/search?q=a HTTP/1.1\r\n\r\n";
    /// assert!(Capture::from_http_scheme_unknown(raw)?.scheme_stated);
    ///
    /// // A path is origin-form, whatever its query holds.
    /// let raw = b"GET /login?next=http://app.example/ HTTP/1.1\r\nHost: h\r\n\r\n";
    /// let read = Capture::from_http_scheme_unknown(raw)?;
    /// assert!(!read.scheme_stated);
    /// assert_eq!(read.capture.url, "https://h/login?next=http://app.example/");
    /// # Ok::<(), oauth1_capture::CaptureError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`from_http`](Self::from_http).
    pub fn from_http_scheme_unknown(raw: &[u8]) -> Result<HttpRead, CaptureError> {
        Capture::from_http_read(raw, "https").map(|(capture, scheme_stated)| HttpRead {
            capture,
            scheme_stated,
        })
    }

    /// The same request at the same URL with another scheme (`http` or `https`): the other
    /// reading of a raw request whose target does not say it.
    #[must_use]
    pub fn with_scheme(&self, scheme: &str) -> Capture {
        let rest = self
            .url
            .split_once("://")
            .map_or(self.url.as_str(), |(_, rest)| rest);
        Capture {
            url: format!("{scheme}://{rest}"),
            ..self.clone()
        }
    }

    /// The capture, and whether its target stated the scheme.
    fn from_http_read(raw: &[u8], scheme: &str) -> Result<(Capture, bool), CaptureError> {
        let mut storage = [httparse::EMPTY_HEADER; 128];
        let mut request = httparse::Request::new(&mut storage);
        let head = match request.parse(raw) {
            Ok(httparse::Status::Complete(length)) => length,
            Ok(httparse::Status::Partial) => {
                return Err(error(
                    "the HTTP request ends inside its head: it needs a blank line after the headers",
                ))
            }
            Err(e) => {
                return Err(error(format!(
                    "the HTTP request cannot be read: {e} (expected a request line such as \"POST /path HTTP/1.1\", then headers)"
                )))
            }
        };
        let method = request.method.unwrap_or_default().to_owned();
        let target = request.path.unwrap_or_default();
        let mut headers = Vec::new();
        for header in request.headers.iter() {
            let value = std::str::from_utf8(header.value)
                .map_err(|_| error(format!("the header {} is not UTF-8", header.name)))?;
            headers.push((header.name.to_owned(), value.trim().to_owned()));
        }
        let capture = Capture {
            method,
            url: String::new(),
            headers,
            body: Vec::new(),
        };
        // An origin-form target starts with `/`, whatever its query holds (`?next=https://…`).
        let stated = !target.starts_with('/') && target.contains("://");
        let url = if stated {
            target.to_owned()
        } else if target.starts_with('/') {
            let host = capture.header("host").ok_or_else(|| {
                error("the HTTP request has no Host header: add it, or give the target in absolute form (GET https://host/path HTTP/1.1)")
            })?;
            format!("{scheme}://{host}{target}")
        } else {
            return Err(error(format!(
                "the request target {target:?} is neither a path nor an absolute URL"
            )));
        };
        if capture
            .header("transfer-encoding")
            .is_some_and(|v| v.to_ascii_lowercase().contains("chunked"))
        {
            return Err(error(
                "the body is chunked (Transfer-Encoding: chunked): save the request with its body decoded",
            ));
        }
        let mut body = raw[head..].to_vec();
        if let Some(length) = capture.header("content-length") {
            let length: usize = length
                .parse()
                .map_err(|_| error(format!("the Content-Length {length:?} is not a number")))?;
            if body.len() < length {
                return Err(error(format!(
                    "the body has {} bytes and Content-Length says {length}: the capture is cut short",
                    body.len()
                )));
            }
            body.truncate(length);
        }
        Ok((
            Capture {
                url,
                body,
                ..capture
            },
            stated,
        ))
    }
}

/// A raw HTTP request read by [`Capture::from_http_scheme_unknown`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpRead {
    /// The request; with https when its target does not say the scheme.
    pub capture: Capture,
    /// Whether its target says the scheme (absolute-form); when not, http is as likely.
    pub scheme_stated: bool,
}
