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
        let url = if target.contains("://") {
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
        Ok(Capture {
            url,
            body,
            ..capture
        })
    }
}
