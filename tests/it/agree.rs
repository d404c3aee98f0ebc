//! Whether `oauth1 explain` and `oauth1 verify` tell one truth about a captured request: the
//! explanation answers `match` exactly when the verifier accepts the signature, the clock and
//! the nonce aside. Each side is read as its command reads it (`Capture::protocol` and
//! `oauth1_cases::explain`; `received_url` and `oauth1_cases::check`). Shared by the fixture
//! test (`it/one_truth.rs`) and the fuzz target `agree`.

use oauth1_capture::Capture;
use oauth1_cases::{check, explain_within, Held, ObservedField};
use oauth1_server::{received_url, MemoryNonceStore, Policy};
use oauth1_signer::explain::{Budget, Verdict};
use oauth1_signer::Request;

/// What the two commands answered for one capture.
#[derive(Debug)]
pub struct Answers {
    /// `Some(true)` for `match`, `Some(false)` for another verdict, `None` when explain
    /// cannot read or sign the request.
    pub explain: Option<bool>,
    /// Whether the verifier accepts it, or why not.
    pub verify: Result<(), String>,
}

impl Answers {
    /// Whether the verifier accepts the signature: it accepts the request, or refuses only
    /// its body hash, which it checks after the signature.
    pub fn signature_accepted(&self) -> bool {
        match &self.verify {
            Ok(()) => true,
            Err(reason) => reason.starts_with("bad-body-hash:"),
        }
    }

    /// Whether they agree: `match` exactly when the signature is accepted; a request explain
    /// cannot read or compare is one the verifier refuses.
    pub fn agree(&self) -> bool {
        match self.explain {
            Some(matched) => matched == self.signature_accepted(),
            None => !self.signature_accepted(),
        }
    }
}

/// The two answers for `capture`, with the consumer's and the token's secrets. The verifier's
/// clock reads the request's own timestamp and its nonce store is new: only the signature and
/// the request's form decide.
pub fn answers(capture: &Capture, consumer_secret: &str, token_secret: &str) -> Answers {
    Answers {
        explain: explained(capture, consumer_secret, token_secret),
        verify: verified(capture, consumer_secret, token_secret),
    }
}

fn explained(capture: &Capture, consumer_secret: &str, token_secret: &str) -> Option<bool> {
    let (as_signed, protocol) = capture.protocol().ok()?;
    let signer = protocol.signer(consumer_secret, Some(token_secret)).ok()?;
    let request = protocol.request(&as_signed).ok()?;
    let nonce = protocol.nonce().ok()?;
    let timestamp = protocol.timestamp().ok()?;
    let observed = ObservedField {
        signature: protocol.signature.clone(),
        base_string: None,
    };
    // `match` is decided before any search for a mistake: none is made.
    let explanation = explain_within(
        Budget::of_bytes(0),
        &signer,
        &request,
        (&nonce, timestamp),
        (&as_signed.url, protocol.authorization.as_deref()),
        &observed,
    )
    .ok()?;
    Some(explanation.verdict() == Verdict::Match)
}

fn verified(capture: &Capture, consumer_secret: &str, token_secret: &str) -> Result<(), String> {
    let text = |e: &dyn std::fmt::Display| e.to_string();
    let url = received_url(&capture.url).map_err(|e| text(&e))?;
    let request = Request::from_url(&capture.method, &url)
        .map_err(|e| text(&e))?
        .with_body(capture.header("content-type").unwrap_or(""), &capture.body);
    let held = Held::new(Some(consumer_secret), Some(token_secret), None)?;
    let authorization = capture.oauth_authorization();
    // The request's own timestamp, wherever it travels.
    let now = capture
        .protocol()
        .ok()
        .and_then(|(_, protocol)| protocol.timestamp().ok())
        .unwrap_or(oauth1_signer::Timestamp::new(0));
    let policy = Policy::default()
        .allow_plaintext(true)
        .allow_plaintext_over_http(true);
    check(
        held,
        &request,
        authorization,
        policy,
        &MemoryNonceStore::new(),
        now,
        false,
    )
    .map(|_| ())
    .map_err(|e| format!("{}: {e}", e.reason()))
}
