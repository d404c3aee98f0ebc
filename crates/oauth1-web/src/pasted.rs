//! What was pasted: a curl command, a raw HTTP request, a HAR file (one entry chosen), an
//! `Authorization` header with the request typed beside it, or a URL that carries its
//! protocol parameters (in its query, or in the form body typed beside it); read with the
//! command line's readers (`oauth1_capture`).

use oauth1_capture::{Capture, CaptureError};
use serde::{Deserialize, Serialize};

/// The paste and the request fields typed beside it.
#[derive(Default, Deserialize)]
#[serde(default)]
pub struct Pasted {
    /// A curl command, a raw HTTP request, a HAR file's JSON, an `Authorization` header, or a
    /// URL.
    pub capture: String,
    /// With a header or a URL alone: the request's method (`GET` when empty).
    pub method: String,
    /// With a header alone: the URL as sent, query included.
    pub url: String,
    /// With a header or a URL alone: the body as sent.
    pub body: String,
    /// With a header or a URL alone: the body's `Content-Type`.
    pub content_type: String,
    /// With a HAR file: the entry (numbered from 1 over the file), the first with OAuth when
    /// none.
    pub entry: Option<usize>,
    /// With a raw HTTP request whose target is a path: its scheme. Empty when nothing says it:
    /// the explanation then tries both and keeps the one that needs no scheme cause; the
    /// verification takes `https`.
    pub scheme: String,
}

/// An entry of a HAR file that carries OAuth.
#[derive(Debug, Serialize)]
pub struct EntryAnswer {
    /// Its number, from 1 over all the file's entries.
    pub number: usize,
    /// Its method and URL.
    pub label: String,
}

/// A HAR file's entries with OAuth, and the one taken.
#[derive(Default)]
pub(crate) struct Har {
    pub(crate) entries: Vec<EntryAnswer>,
    pub(crate) entry: Option<usize>,
}

/// What kind of paste it is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Curl,
    Http,
    Har,
    Authorization,
    /// A URL as the client sent it, `oauth_signature` in its query (or in the form body typed
    /// beside it), as `oauth1 explain --url` reads one.
    Url,
}

impl Kind {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Kind::Curl => "curl",
            Kind::Http => "http",
            Kind::Har => "har",
            Kind::Authorization => "authorization",
            Kind::Url => "url",
        }
    }

    /// The paste, in words, before what is wrong with it.
    pub(crate) fn what(self) -> &'static str {
        match self {
            Kind::Curl => "the curl command",
            Kind::Http => "the HTTP request",
            Kind::Har => "the HAR file",
            Kind::Authorization => "the Authorization header",
            Kind::Url => "the URL",
        }
    }
}

/// A paste read: the request, and with a header alone, the header's value (kept out of the
/// request's headers).
pub(crate) struct Read {
    pub(crate) capture: Capture,
    pub(crate) header: Option<String>,
    /// A raw HTTP request whose target is a path, with no scheme given: read with https, and
    /// as likely http.
    pub(crate) scheme_unknown: bool,
}

/// The message when nothing is pasted.
pub(crate) const NOTHING: &str = "nothing pasted: paste a curl command, a raw HTTP request, a HAR file or an Authorization header";

impl Pasted {
    /// What kind of paste this is, by its first characters.
    pub(crate) fn kind(&self) -> Kind {
        let text = self.capture.trim_start();
        let starts = |prefix: &str| {
            text.get(..prefix.len())
                .is_some_and(|s| s.eq_ignore_ascii_case(prefix))
        };
        if text.starts_with("curl ") || text.starts_with("curl\t") || text.starts_with("curl\\") {
            Kind::Curl
        } else if text.starts_with('{') {
            Kind::Har
        } else if starts("oauth ") || starts("authorization:") {
            Kind::Authorization
        } else if (starts("http://") || starts("https://"))
            && !text.trim().contains(char::is_whitespace)
        {
            Kind::Url
        } else {
            Kind::Http
        }
    }

    /// Reads the paste; a HAR file's entries go to `har`.
    pub(crate) fn read(&self, kind: Kind, har: &mut Har) -> Result<Read, String> {
        // A file a pasted command names is never read (nor could the page read it).
        let what = |e: CaptureError| match e.file() {
            Some(_) => format!(
                "{}: {e}: put the body into the command with --data-raw '…'",
                kind.what()
            ),
            None => format!("{}: {e}", kind.what()),
        };
        let capture = match kind {
            Kind::Curl => Capture::from_curl(&self.capture).map_err(what)?,
            Kind::Http if self.scheme.is_empty() => {
                let read =
                    Capture::from_http_scheme_unknown(self.capture.as_bytes()).map_err(what)?;
                return Ok(Read {
                    capture: read.capture,
                    header: None,
                    scheme_unknown: !read.scheme_stated,
                });
            }
            Kind::Http => {
                Capture::from_http(self.capture.as_bytes(), &self.scheme).map_err(what)?
            }
            Kind::Har => {
                let all = Capture::from_har(&self.capture, None).map_err(what)?;
                har.entries = all
                    .iter()
                    .map(|(number, c)| EntryAnswer {
                        number: *number,
                        label: format!("{} {}", c.method, c.url),
                    })
                    .collect();
                let (number, capture) = match self.entry {
                    Some(n) => all.into_iter().find(|(number, _)| *number == n),
                    None => all.into_iter().next(),
                }
                .ok_or_else(|| {
                    format!(
                        "the HAR file has no entry {} with OAuth: choose one of those listed",
                        self.entry.unwrap_or_default()
                    )
                })?;
                har.entry = Some(number);
                capture
            }
            Kind::Url => self.typed(self.capture.trim()),
            Kind::Authorization => {
                let text = self.capture.trim();
                let header = match text.split_once(':') {
                    Some((name, value)) if name.eq_ignore_ascii_case("authorization") => {
                        value.trim()
                    }
                    _ => text,
                };
                // The request typed beside the header.
                return Ok(Read {
                    capture: self.typed(self.url.trim()),
                    header: Some(header.to_owned()),
                    scheme_unknown: false,
                });
            }
        };
        Ok(Read {
            capture,
            header: None,
            scheme_unknown: false,
        })
    }

    /// The request at `url` with the method, `Content-Type` and body typed beside the paste.
    fn typed(&self, url: &str) -> Capture {
        let method = if self.method.is_empty() {
            "GET"
        } else {
            &self.method
        };
        let content_type = (!self.content_type.is_empty()).then_some(self.content_type.as_str());
        Capture::typed(method, url, content_type, self.body.clone().into_bytes())
    }
}
