//! The answer to a verify line (`request-cases.md`), as `oauth1 verify --jsonl` gives it.

use oauth1_server::{
    received_url, Clock, MemoryNonceStore, Policy, Reason, Verified, Verifier, VerifyError,
};
use oauth1_signer::{Request, Timestamp};
use serde::{Deserialize, Serialize};

use crate::{json_object, Held, VerifyLine};

#[derive(Serialize)]
struct VerdictLine<'a> {
    name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    valid: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// Verifies one received request against one nonce store, as a server that accepts every
/// signature method would; with `diagnose`, a bad signature is diagnosed within the budget of
/// [`Explainer`](oauth1_signer::explain::Explainer)'s search.
///
/// # Errors
///
/// The check that fails, as the verifier says it.
pub fn check(
    held: Held,
    request: &Request<'_>,
    authorization: Option<&str>,
    policy: Policy,
    nonces: &MemoryNonceStore,
    now: Timestamp,
    diagnose: bool,
) -> Result<Verified, VerifyError> {
    let mut verifier = Verifier::new(held, nonces)
        .with_policy(policy)
        .with_clock(Clock::fixed(now));
    if diagnose {
        // The budget `oauth1 explain` searches within, and no deadline that a slower machine
        // would reach first: the same request gets the same diagnosis wherever it is checked.
        verifier = verifier.with_diagnosis(1).with_diagnosis_cost(
            oauth1_signer::explain::Budget::DEFAULT_BYTES,
            std::time::Duration::from_secs(3_600),
        );
    }
    verifier.blocking().verify(request, authorization)
}

/// Answers one verify line (`oauth1 verify --jsonl`): whether the request verifies and, when
/// it does not, the check that fails; or an error that names what to fix. `nonces` is the
/// stream's nonce store: a line that repeats an earlier line's nonce is a replay.
#[must_use]
pub fn verify_answer(line: &str, nonces: &MemoryNonceStore) -> String {
    let value = match json_object(line) {
        Ok(value) => value,
        Err(message) => return error_line(None, message),
    };
    let name = value.get("name").and_then(serde_json::Value::as_str);
    let received = match VerifyLine::deserialize(&value) {
        Ok(received) => received,
        Err(e) => return error_line(name, format!("invalid verify line: {e}")),
    };
    // The command line stands for a server that accepts every method, PLAINTEXT included.
    let mut policy = Policy::default().allow_plaintext(true);
    if let Some(window) = received.timestamp_window {
        policy = policy.with_timestamp_window(window);
    }
    let held = match received.held() {
        Ok(held) => held,
        Err(message) => return error_line(name, message),
    };
    let body = received.body.as_deref().unwrap_or("").as_bytes();
    let verdict = match received_url(&received.url) {
        Ok(url) => {
            let request = match Request::from_url(&received.method, &url) {
                Ok(request) => request,
                Err(e) => return error_line(name, e.to_string()),
            };
            let request = request.with_body(received.content_type.as_deref().unwrap_or(""), body);
            check(
                held,
                &request,
                received.authorization.as_deref(),
                policy,
                nonces,
                Timestamp::new(received.now),
                false,
            )
        }
        Err(e) if e.reason() == Reason::AmbiguousPath => Err(e),
        Err(e) => return error_line(name, e.to_string()),
    };
    let line = match verdict {
        Ok(_) => VerdictLine {
            name,
            valid: Some(true),
            reason: None,
            detail: None,
            error: None,
        },
        Err(e) => VerdictLine {
            name,
            valid: Some(false),
            reason: Some(e.reason().as_str()),
            detail: Some(e.to_string()),
            error: None,
        },
    };
    serde_json::to_string(&line).unwrap_or_default()
}

fn error_line(name: Option<&str>, message: String) -> String {
    serde_json::to_string(&VerdictLine {
        name,
        valid: None,
        reason: None,
        detail: None,
        error: Some(message),
    })
    .unwrap_or_default()
}
