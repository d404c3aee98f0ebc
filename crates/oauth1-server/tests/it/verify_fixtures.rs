//! fixtures/verify-published.json and fixtures/verify.json (requests signed by the published
//! examples and by oauthlib, and broken copies of them), through the library (the command
//! line's `oauth1 verify --jsonl` is tested in crates/oauth1-cli).

use std::path::PathBuf;

use crate::common::At;
use oauth1_cases::{VerifyExpected as Expected, VerifyLine as Line};
use oauth1_server::{MemoryNonceStore, Policy, Verifier};
use oauth1_signer::Timestamp;

fn path(file: &str) -> PathBuf {
    crate::common::fixtures_dir().join(file)
}

fn lines(file: &str) -> Vec<Line> {
    serde_json::from_str(&std::fs::read_to_string(path(file)).unwrap()).unwrap()
}

/// The verdict of the library on a line; the server holds exactly what the line gives, for
/// whatever key and token the request presents.
fn verdict(line: &Line, nonces: &MemoryNonceStore) -> Expected {
    let body = line.body.as_deref().unwrap_or("").as_bytes();
    let request = line.request(body).unwrap();
    let held = match line.held() {
        Ok(held) => held,
        Err(error) => {
            return Expected {
                error: Some(error),
                ..Expected::default()
            }
        }
    };
    // The server of the fixtures accepts every method, PLAINTEXT included.
    let mut policy = Policy::default().allow_plaintext(true);
    if let Some(window) = line.timestamp_window {
        policy = policy.with_timestamp_window(window);
    }
    match Verifier::new(held, nonces)
        .with_policy(policy)
        .at(Timestamp::new(line.now))
        .blocking()
        .verify(&request, line.authorization.as_deref())
    {
        Ok(_) => Expected {
            valid: Some(true),
            ..Expected::default()
        },
        Err(e) => Expected {
            valid: Some(false),
            reason: Some(e.reason().as_str().to_owned()),
            error: None,
        },
    }
}

/// The line's expected verdict; without the `rsa` feature, a public key cannot be held.
fn expected(line: &Line) -> Expected {
    if cfg!(not(feature = "rsa")) && line.public_key_pem.is_some() {
        return Expected {
            error: Some(oauth1_cases::NO_RSA.to_owned()),
            ..Expected::default()
        };
    }
    line.expected()
        .unwrap_or_else(|e| panic!("{}: expected: {e}", line.name))
}

#[test]
fn published_requests_verify_each_in_its_own_stream() {
    let lines = lines("verify-published.json");
    assert!(lines.len() >= 20);
    for line in &lines {
        let got = verdict(line, &MemoryNonceStore::new());
        assert_eq!(got, expected(line), "{}", line.name);
    }
}

#[test]
fn the_verify_stream_gives_every_expected_verdict() {
    let lines = lines("verify.json");
    let nonces = MemoryNonceStore::new();
    let mut reasons = std::collections::BTreeSet::new();
    for line in &lines {
        let got = verdict(line, &nonces);
        assert_eq!(got, expected(line), "{}", line.name);
        reasons.extend(got.reason);
    }
    // Every failed check the format names is exercised.
    assert_eq!(
        reasons.into_iter().collect::<Vec<_>>(),
        [
            "bad-body-hash",
            "bad-signature",
            "bad-version",
            "duplicate-parameter",
            "insecure-transport",
            "malformed-request",
            "missing-parameter",
            "replayed-nonce",
            "stale-timestamp",
            "unsupported-signature-method",
        ]
    );
}
