//! The engine of the OAuth 1.0a debugging page (`web/` in the repository): a pasted request
//! explained as `oauth1 explain` explains it, by the same code, compiled to WebAssembly.
//!
//! The page hands [`explain`] one JSON object, [`Input`], and shows the JSON it answers,
//! [`Answer`]: the verdict, the causes with their fixes, every signing stage, and where the
//! two base strings first differ. Nothing here touches the network or storage; the secrets
//! live only in the call.
//!
//! ```
//! let input = serde_json::json!({
//!     "capture": "curl 'https://api.example.com/x?a=1' -H 'Authorization: OAuth oauth_consumer_key=\"k\", oauth_signature_method=\"HMAC-SHA1\", oauth_timestamp=\"1\", oauth_nonce=\"n\", oauth_version=\"1.0\", oauth_signature=\"wrong\"'",
//!     "consumer_secret": "s",
//! });
//! let answer: serde_json::Value =
//!     serde_json::from_str(&oauth1_web::explain(&input.to_string())).unwrap();
//! assert_eq!(answer["verdict"], "unexplained");
//! assert_eq!(answer["kind"], "curl");
//! ```

// docs.rs builds with `--cfg docsrs`: every item a feature gates says which.
#![cfg_attr(docsrs, feature(doc_cfg))]

use oauth1_capture::{key_shape, shown, Capture, Protocol};
use oauth1_signer::base_string::BaseUri;
use oauth1_signer::encode::encode;
use oauth1_signer::explain::{find_base_string, Explainer, Explanation, Observed, Verdict};
use oauth1_signer::{Nonce, PrivateKey, Signed, Timestamp};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::wasm_bindgen;

/// What the page sends: the pasted capture, the fields typed beside it, and the secrets.
#[derive(Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Input {
    /// A curl command, a raw HTTP request, a HAR file's JSON, or an `Authorization` header.
    pub capture: String,
    /// With a header alone: the request's method (`GET` when empty).
    pub method: String,
    /// With a header alone: the URL as sent, query included.
    pub url: String,
    /// With a header alone: the body as sent.
    pub body: String,
    /// With a header alone: the body's `Content-Type`.
    pub content_type: String,
    /// The consumer secret.
    pub consumer_secret: String,
    /// The token secret (empty without a token).
    pub token_secret: String,
    /// The RSA private key (PEM), for the RSA methods.
    pub private_key_pem: String,
    /// The server's 401 body, in which many servers echo their base string; may be empty.
    pub server_response: String,
    /// With a HAR file: the entry (numbered from 1 over the file), the first with OAuth when
    /// none.
    pub entry: Option<usize>,
    /// With a raw HTTP request whose target is a path: its scheme (`https` when empty).
    pub scheme: String,
}

/// What the page shows.
#[derive(Debug, Default, Serialize)]
pub struct Answer {
    /// `match`, `explained`, `unexplained`, or `error`.
    pub verdict: &'static str,
    /// What was pasted: `curl`, `http`, `har`, `authorization`, or empty.
    pub kind: &'static str,
    /// The causes, in the vocabulary's order.
    pub causes: Vec<CauseAnswer>,
    /// Whether the causes act together (a pair), rather than each alone.
    pub pair: bool,
    /// For a match or no explanation: what was compared and what to try next.
    pub detail: String,
    /// For an error: what is wrong and what to do.
    pub error: String,
    /// Every stage of signing the request as RFC 5849 says; none for an error.
    pub stages: Option<Stages>,
    /// The RFC 5849 base string of the request.
    pub reference_base_string: String,
    /// The other side's base string: `observed` (from its response) or `reproduced` (the one
    /// that gives its signature); empty when neither.
    pub their_base_string: String,
    /// `observed`, `reproduced`, or empty.
    pub their_label: &'static str,
    /// Where the two base strings first differ, if they do.
    pub difference: Option<DifferenceAnswer>,
    /// With a HAR file: its entries that carry OAuth.
    pub entries: Vec<EntryAnswer>,
    /// With a HAR file: the entry explained.
    pub entry: Option<usize>,
}

/// A cause, as the command line prints it.
#[derive(Debug, Serialize)]
pub struct CauseAnswer {
    /// The cause's id in the mismatch vocabulary.
    pub id: &'static str,
    /// What the other side did.
    pub what: &'static str,
    /// How to fix it.
    pub fix: &'static str,
}

/// The first difference between the reference and the other side's base string.
#[derive(Debug, Serialize)]
pub struct DifferenceAnswer {
    /// Its byte offset, the same in both.
    pub offset: usize,
    /// The same offset in UTF-16 code units, as JavaScript indexes strings.
    pub offset_utf16: usize,
    /// The part: `method`, `URI`, `parameters` or `shape`.
    pub part: String,
    /// What differs, in words.
    pub summary: String,
}

/// An entry of a HAR file that carries OAuth.
#[derive(Debug, Serialize)]
pub struct EntryAnswer {
    /// Its number, from 1 over all the file's entries.
    pub number: usize,
    /// Its method and URL.
    pub label: String,
}

/// The stages of `oauth1 sign --verbose`.
#[derive(Debug, Serialize)]
pub struct Stages {
    /// The parameters in normalized order.
    pub parameters: Vec<ParameterAnswer>,
    /// The normalized parameter string.
    pub normalized: String,
    /// The base string URI.
    pub base_uri: String,
    /// The signature base string.
    pub base_string: String,
    /// The signature (not shown for PLAINTEXT, which is the key itself).
    pub signature: String,
    /// The `Authorization` header value.
    pub authorization: String,
    /// The key's shape: the secrets' lengths, never their bytes.
    pub key: String,
}

/// A parameter, decoded and encoded.
#[derive(Debug, Serialize)]
pub struct ParameterAnswer {
    /// Where it came from: `query`, `body` or `oauth`.
    pub source: String,
    /// The decoded name.
    pub name: String,
    /// The decoded value.
    pub value: String,
    /// `name=value`, encoded.
    pub encoded: String,
}

/// Explains a pasted request: `input` is an [`Input`] as JSON, the answer an [`Answer`] as
/// JSON. An input that is not an [`Input`] is answered with the `error` verdict.
#[wasm_bindgen]
#[must_use]
pub fn explain(input: &str) -> String {
    let answer = match serde_json::from_str::<Input>(input) {
        Ok(input) => answer(&input),
        Err(e) => failed(
            "",
            format!("the page sent what the engine cannot read: {e}"),
        ),
    };
    serde_json::to_string(&answer).unwrap_or_default()
}

fn failed(kind: &'static str, error: String) -> Answer {
    Answer {
        verdict: "error",
        kind,
        error,
        ..Answer::default()
    }
}

/// What was pasted.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Curl,
    Http,
    Har,
    Authorization,
}

impl Kind {
    fn of(text: &str) -> Kind {
        let text = text.trim_start();
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
        } else {
            Kind::Http
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Kind::Curl => "curl",
            Kind::Http => "http",
            Kind::Har => "har",
            Kind::Authorization => "authorization",
        }
    }

    fn what(self) -> &'static str {
        match self {
            Kind::Curl => "the curl command",
            Kind::Http => "the HTTP request",
            Kind::Har => "the HAR file",
            Kind::Authorization => "the Authorization header",
        }
    }
}

fn answer(input: &Input) -> Answer {
    if input.capture.trim().is_empty() {
        return failed(
            "",
            "nothing pasted: paste a curl command, a raw HTTP request, a HAR file or an Authorization header".to_owned(),
        );
    }
    let kind = Kind::of(&input.capture);
    let mut har = Har::default();
    let mut answer = match read(kind, input, &mut har) {
        Ok((capture, protocol)) => explained(kind, input, &capture, &protocol),
        Err(e) => failed(kind.as_str(), e),
    };
    answer.entries = har.entries;
    answer.entry = har.entry;
    answer
}

/// A HAR file's entries with OAuth, and the one explained.
#[derive(Default)]
struct Har {
    entries: Vec<EntryAnswer>,
    entry: Option<usize>,
}

/// The request pasted and its protocol parameters, or what is wrong with the paste.
fn read(kind: Kind, input: &Input, har: &mut Har) -> Result<(Capture, Protocol), String> {
    let what = |e: oauth1_capture::CaptureError| format!("{}: {e}", kind.what());
    let capture = match kind {
        Kind::Curl => Capture::from_curl(&input.capture).map_err(what)?,
        Kind::Http => {
            let scheme = if input.scheme.is_empty() {
                "https"
            } else {
                &input.scheme
            };
            Capture::from_http(input.capture.as_bytes(), scheme).map_err(what)?
        }
        Kind::Har => {
            let all = Capture::from_har(&input.capture, None).map_err(what)?;
            har.entries = all
                .iter()
                .map(|(number, c)| EntryAnswer {
                    number: *number,
                    label: format!("{} {}", c.method, c.url),
                })
                .collect();
            let (number, capture) = match input.entry {
                Some(n) => all.into_iter().find(|(number, _)| *number == n),
                None => all.into_iter().next(),
            }
            .ok_or_else(|| {
                format!(
                    "the HAR file has no entry {} with OAuth: choose one of those listed",
                    input.entry.unwrap_or_default()
                )
            })?;
            har.entry = Some(number);
            capture
        }
        Kind::Authorization => {
            let text = input.capture.trim();
            let header = match text.split_once(':') {
                Some((name, value)) if name.eq_ignore_ascii_case("authorization") => value.trim(),
                _ => text,
            };
            let protocol = Protocol::from_authorization(header).map_err(what)?;
            let mut headers = Vec::new();
            if !input.content_type.is_empty() {
                headers.push(("Content-Type".to_owned(), input.content_type.clone()));
            }
            let method = if input.method.is_empty() {
                "GET"
            } else {
                &input.method
            };
            let capture = Capture {
                method: method.to_owned(),
                url: input.url.trim().to_owned(),
                headers,
                body: input.body.clone().into_bytes(),
            };
            return Ok((capture, protocol));
        }
    };
    capture.protocol().map_err(what)
}

/// The answer for a request read, or the error that stops it.
fn explained(kind: Kind, input: &Input, capture: &Capture, protocol: &Protocol) -> Answer {
    match explain_read(input, capture, protocol) {
        Ok((explanation, stages, observed)) => {
            let (label, theirs) = match (&observed, explanation.reproduced_base_string()) {
                (Some(observed), _) => ("observed", observed.clone()),
                (None, Some(reproduced)) => ("reproduced", reproduced.to_string()),
                (None, None) => ("", String::new()),
            };
            let reference = explanation.reference_base_string().to_string();
            let difference = explanation.difference().map(|d| DifferenceAnswer {
                offset: d.offset(),
                offset_utf16: reference
                    .get(..d.offset())
                    .map_or(0, |s| s.encode_utf16().count()),
                part: d.part().to_string(),
                summary: d.summary().to_owned(),
            });
            Answer {
                verdict: explanation.verdict().as_str(),
                kind: kind.as_str(),
                causes: explanation
                    .causes()
                    .iter()
                    .map(|c| CauseAnswer {
                        id: c.id(),
                        what: c.what(),
                        fix: c.fix(),
                    })
                    .collect(),
                pair: explanation.is_pair(),
                detail: if explanation.verdict() == Verdict::Explained {
                    String::new()
                } else {
                    explanation.detail()
                },
                error: String::new(),
                stages: Some(stages),
                reference_base_string: reference,
                their_base_string: theirs,
                their_label: label,
                difference,
                entries: Vec::new(),
                entry: None,
            }
        }
        Err(e) => failed(kind.as_str(), e),
    }
}

/// Signs the request with the typed secrets and explains it against what the other side
/// produced: the signature the request carries, and the base string its response echoed.
fn explain_read(
    input: &Input,
    capture: &Capture,
    protocol: &Protocol,
) -> Result<(Explanation, Stages, Option<String>), String> {
    let text = |e: oauth1_signer::Error| e.to_string();
    let observed_base_string = if input.server_response.trim().is_empty() {
        None
    } else {
        Some(find_base_string(&input.server_response).ok_or(
            "no base string found in the server's response: expected one such as \"GET&https%3A%2F%2F…&…\", or leave the response empty",
        )?)
    };
    let mut signer = protocol
        .signer(&input.consumer_secret, Some(&input.token_secret))
        .map_err(text)?;
    if !input.private_key_pem.trim().is_empty() {
        signer =
            signer.with_private_key(PrivateKey::from_pem(&input.private_key_pem).map_err(text)?);
    }
    let request = protocol.request(capture).map_err(text)?;
    let nonce = Nonce::new(protocol.nonce.clone().unwrap_or_default()).map_err(text)?;
    let timestamp: Timestamp = protocol
        .timestamp
        .as_deref()
        .unwrap_or_default()
        .parse()
        .map_err(text)?;
    let done = signer.sign(&request, &nonce, timestamp).map_err(text)?;
    let stages = stages(&done, &BaseUri::new(request.url()).map_err(text)?, &signer);

    let mut given = Observed::default();
    if let Some(signature) = &protocol.signature {
        given = given.with_signature(signature);
    }
    if let Some(base_string) = &observed_base_string {
        given = given.with_base_string(base_string);
    }
    let explanation = Explainer::new(&signer, &request, &nonce, timestamp)
        .with_url_as_written(&capture.url)
        .explain(&given)
        .map_err(|e| e.to_string())?;
    Ok((explanation, stages, observed_base_string))
}

fn stages(done: &Signed, base_uri: &BaseUri, signer: &oauth1_signer::Signer) -> Stages {
    let lossy = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let parameters = done
        .parameters()
        .iter()
        .map(|p| ParameterAnswer {
            source: p.source.to_string(),
            name: lossy(p.name),
            value: lossy(p.value),
            encoded: format!("{}={}", encode(p.name), encode(p.value)),
        })
        .collect();
    let (signature, authorization) = shown(done);
    Stages {
        parameters,
        normalized: done.parameters().to_string(),
        base_uri: base_uri.to_string(),
        base_string: done.base_string().to_string(),
        signature,
        authorization,
        key: key_shape(signer),
    }
}
