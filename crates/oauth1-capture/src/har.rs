//! The entries of a HAR 1.2 file, as browsers save a page's traffic.

use oauth1_signer::encode;

use crate::capture::{error, Capture, CaptureError};

/// A HAR entry's request, as much of it as is read.
#[derive(serde::Deserialize)]
struct HarRequest {
    method: String,
    url: String,
    #[serde(default)]
    headers: Vec<HarPair>,
    #[serde(default, rename = "postData")]
    post_data: Option<HarPostData>,
}

#[derive(serde::Deserialize)]
struct HarPair {
    name: String,
    value: String,
}

#[derive(serde::Deserialize)]
struct HarPostData {
    #[serde(default, rename = "mimeType")]
    mime_type: Option<String>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    params: Vec<HarPair>,
}

impl Capture {
    /// Reads the entries of a HAR 1.2 file (a browser's "Save all as HAR") that carry OAuth:
    /// an `Authorization: OAuth …` header, or `oauth_signature` in the query or a form body.
    /// Each comes with its number, counted from 1 over all the file's entries; `entry` picks
    /// one (which must carry OAuth). HTTP/2 pseudo-headers (`:authority`, …) are left out; a
    /// body is `postData.text`, or its `params` joined as a form when there is no text.
    ///
    /// # Errors
    ///
    /// A [`CaptureError`]: not JSON (with the line and column), no `log.entries`, an entry
    /// that is not a request, no such entry, no entry (or not the one asked for) with OAuth.
    pub fn from_har(
        json: &str,
        entry: Option<usize>,
    ) -> Result<Vec<(usize, Capture)>, CaptureError> {
        let value: serde_json::Value = serde_json::from_str(json)
            .map_err(|e| error(format!("the HAR file is not JSON: {e}")))?;
        let entries = value
            .get("log")
            .and_then(|log| log.get("entries"))
            .and_then(serde_json::Value::as_array)
            .ok_or_else(|| {
                error("the HAR file has no log.entries: export it again with \"Save all as HAR\"")
            })?;
        if let Some(n) = entry {
            if n == 0 || n > entries.len() {
                return Err(error(format!(
                    "the HAR file has {} entries: there is no entry {n} (they are counted from 1)",
                    entries.len()
                )));
            }
        }
        let mut found = Vec::new();
        for (i, item) in entries.iter().enumerate() {
            let n = i + 1;
            if entry.is_some_and(|wanted| wanted != n) {
                continue;
            }
            let request: HarRequest = item
                .get("request")
                .ok_or_else(|| error(format!("entry {n} of the HAR file has no request")))
                .and_then(|r| {
                    serde_json::from_value(r.clone()).map_err(|e| {
                        error(format!("entry {n} of the HAR file is not a request: {e}"))
                    })
                })?;
            let capture = har_capture(request);
            if capture.carries_oauth() {
                found.push((n, capture));
            } else if entry.is_some() {
                return Err(error(format!(
                    "entry {n} of the HAR file carries no OAuth parameters: no \"Authorization: OAuth …\" header, and no oauth_signature in its query or form body"
                )));
            }
        }
        if found.is_empty() {
            return Err(error(format!(
                "none of the HAR file's {} entries carries OAuth parameters (an \"Authorization: OAuth …\" header, or oauth_signature in the query or a form body)",
                entries.len()
            )));
        }
        Ok(found)
    }

    /// Whether the request carries OAuth as a client sent it: an `Authorization: OAuth …`
    /// header, or `oauth_signature` in its query or form body.
    ///
    /// ```
    /// use oauth1_capture::Capture;
    ///
    /// let sent = Capture::typed("GET", "http://shop.example/wp-json/wc/v3/orders?oauth_consumer_key=ck&oauth_signature=x", None, vec![]);
    /// assert!(sent.carries_oauth());
    /// assert!(!Capture::typed("GET", "http://shop.example/wp-json/wc/v3/orders?page=2", None, vec![]).carries_oauth());
    /// ```
    #[must_use]
    pub fn carries_oauth(&self) -> bool {
        let has_signature = |pairs: &str| {
            pairs.split('&').any(|pair| {
                let name = pair.split('=').next().unwrap_or_default();
                encode::decode_form(name.as_bytes()).is_ok_and(|n| *n == *b"oauth_signature")
            })
        };
        let query = self
            .url
            .split('#')
            .next()
            .and_then(|u| u.split_once('?'))
            .map(|(_, q)| q);
        self.oauth_authorization().is_some()
            || query.is_some_and(has_signature)
            || (self.has_form_body() && std::str::from_utf8(&self.body).is_ok_and(has_signature))
    }
}

fn har_capture(request: HarRequest) -> Capture {
    let mut headers: Vec<(String, String)> = request
        .headers
        .into_iter()
        .filter(|h| !h.name.starts_with(':'))
        .map(|h| (h.name, h.value))
        .collect();
    let mut body = Vec::new();
    if let Some(post) = request.post_data {
        body = match post.text {
            Some(text) => text.into_bytes(),
            None => post
                .params
                .iter()
                .map(|p| format!("{}={}", p.name, p.value))
                .collect::<Vec<_>>()
                .join("&")
                .into_bytes(),
        };
        let has_content_type = headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("content-type"));
        if let (false, Some(mime)) = (has_content_type, post.mime_type) {
            headers.push(("Content-Type".to_owned(), mime));
        }
    }
    Capture {
        method: request.method,
        url: request.url,
        headers,
        body,
    }
}
