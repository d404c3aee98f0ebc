//! A received request checked as a server checks it: `oauth1 verify` in the page.

use oauth1_cases::Held;
use oauth1_server::{received_url, MemoryNonceStore, Policy, Reason, Verified, VerifyError};
use oauth1_signer::{Request, Timestamp};
use serde::{Deserialize, Serialize};

use crate::pasted::{EntryAnswer, Har, Pasted, NOTHING};

/// What the page sends to verify: the paste, what the server holds, and its clock.
#[derive(Default, Deserialize)]
#[serde(default)]
pub struct VerifyInput {
    /// The received request, as pasted, and the fields beside a header alone.
    #[serde(flatten)]
    pub pasted: Pasted,
    /// The consumer secret the server holds; empty with a public key alone (RSA only).
    pub consumer_secret: String,
    /// The token secret the server holds; empty when it holds no token.
    pub token_secret: String,
    /// The consumer's RSA public key (PEM), for the RSA methods.
    pub public_key_pem: String,
    /// The server's clock, in unix seconds.
    pub now: u64,
    /// Seconds either side of the clock that `oauth_timestamp` may be (300 when none).
    pub timestamp_window: Option<u64>,
    /// Accept PLAINTEXT over plain http.
    pub allow_plaintext_over_http: bool,
}

/// What the page shows of a verification, as `oauth1 verify` prints it.
#[derive(Debug, Default, Serialize)]
pub struct VerifyAnswer {
    /// `valid`, `invalid`, or `error` (the request cannot be read).
    pub verdict: &'static str,
    /// For `error`: what is wrong.
    pub error: String,
    /// For `invalid`: the reason's id (`bad-signature`, `stale-timestamp`, …).
    pub reason: &'static str,
    /// For `invalid`: what is wrong, in words.
    pub detail: String,
    /// For a bad signature: the base string the server built.
    pub base_string: String,
    /// For `invalid`: the status and body a server answers with.
    pub answer: String,
    /// For `invalid`: what the client should do.
    pub advice: String,
    /// For `valid`: the consumer key.
    pub consumer_key: String,
    /// For `valid`: the token, if any.
    pub token: String,
    /// For `valid`: the signature method.
    pub signature_method: String,
    /// For `valid`: the normalized parameters.
    pub parameters: String,
    /// With a HAR file: its entries that carry OAuth.
    pub entries: Vec<EntryAnswer>,
    /// With a HAR file: the entry verified.
    pub entry: Option<usize>,
}

fn failed(error: String) -> VerifyAnswer {
    VerifyAnswer {
        verdict: "error",
        error,
        ..VerifyAnswer::default()
    }
}

/// Verifies a paste.
pub(crate) fn answer(input: &VerifyInput) -> VerifyAnswer {
    if input.pasted.capture.trim().is_empty() {
        return failed(NOTHING.to_owned());
    }
    let kind = input.pasted.kind();
    let mut har = Har::default();
    let mut answer = match input.pasted.read(kind, &mut har) {
        Err(e) => failed(e),
        Ok(read) => {
            let authorization = read
                .header
                .clone()
                .or_else(|| read.capture.header("authorization").map(str::to_owned));
            match verified(input, &read.capture, authorization.as_deref()) {
                Ok(Ok(verified)) => VerifyAnswer {
                    verdict: "valid",
                    consumer_key: verified.consumer_key().to_owned(),
                    token: verified.token().unwrap_or_default().to_owned(),
                    signature_method: verified.signature_method().to_string(),
                    parameters: verified.parameters().to_string(),
                    ..VerifyAnswer::default()
                },
                Ok(Err(e)) => invalid(&e),
                Err(error) => failed(error),
            }
        }
    };
    answer.entries = har.entries;
    answer.entry = har.entry;
    answer
}

/// What `oauth1 verify` prints of a request that does not verify.
fn invalid(e: &VerifyError) -> VerifyAnswer {
    let mut answer = VerifyAnswer {
        verdict: "invalid",
        reason: e.reason().as_str(),
        detail: e.to_string(),
        ..VerifyAnswer::default()
    };
    if let VerifyError::BadSignature { base_string, .. } = e {
        answer.base_string.clone_from(base_string);
    }
    if let Some(problem) = e.problem() {
        answer.answer = format!("{} {}", problem.status(), problem.to_urlencoded());
        problem.advice().clone_into(&mut answer.advice);
    }
    answer
}

/// The verifier's answer, or what stops it from answering (the outer error).
fn verified(
    input: &VerifyInput,
    capture: &oauth1_capture::Capture,
    authorization: Option<&str>,
) -> Result<Result<Verified, VerifyError>, String> {
    let public_key =
        (!input.public_key_pem.trim().is_empty()).then_some(input.public_key_pem.as_str());
    // An empty consumer secret beside a public key is none held: an RSA-only consumer.
    let consumer_secret = (public_key.is_none() || !input.consumer_secret.is_empty())
        .then_some(input.consumer_secret.as_str());
    let token_secret = (!input.token_secret.is_empty()).then_some(input.token_secret.as_str());
    let held = Held::new(consumer_secret, token_secret, public_key)?;
    // The URL as received: a path a router and the signature would read differently is
    // refused, as a server refuses it.
    // What is wrong with the URL itself is said with it; the rules of a received path follow.
    oauth1_capture::check_url(&capture.url).map_err(|e| e.to_string())?;
    let url = match received_url(&capture.url) {
        Ok(url) => url,
        Err(e) if e.reason() == Reason::AmbiguousPath => return Ok(Err(e)),
        Err(e) => return Err(e.to_string()),
    };
    let request = Request::from_url(&capture.method, &url)
        .map_err(|e| e.to_string())?
        .with_body(capture.header("content-type").unwrap_or(""), &capture.body);
    let policy = Policy::default()
        .allow_plaintext(true)
        .with_timestamp_window(input.timestamp_window.unwrap_or(300))
        .allow_plaintext_over_http(input.allow_plaintext_over_http);
    // As `oauth1 verify` checks a line: a fresh nonce store, the line's clock, diagnosed.
    Ok(oauth1_cases::check(
        held,
        &request,
        authorization,
        policy,
        &MemoryNonceStore::new(),
        Timestamp::new(input.now),
        true,
    ))
}
