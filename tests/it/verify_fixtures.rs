//! fixtures/verify-published.json and fixtures/verify.json (requests signed by the published
//! examples and by oauthlib, and broken copies of them), through the library and through
//! `oauth1 verify --jsonl`.

use std::path::PathBuf;

use oauth1_signer::cases::{VerifyExpected as Expected, VerifyLine as Line};
use oauth1_signer::verify::{MemoryNonceStore, Policy, Verifier};
use oauth1_signer::Timestamp;

fn path(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(file)
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
        .verify_at_blocking(
            &request,
            line.authorization.as_deref(),
            Timestamp::new(line.now),
        ) {
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
            error: Some(oauth1_signer::cases::NO_RSA.to_owned()),
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

#[cfg(feature = "cli")]
mod cli {
    use std::io::Write;
    use std::process::{Command, Stdio};

    use serde_json::Value;

    fn verify_jsonl(input: &str) -> Vec<Value> {
        let mut child = Command::new(env!("CARGO_BIN_EXE_oauth1"))
            .args(["verify", "--jsonl"])
            .env_remove("OAUTH1_CONSUMER_SECRET")
            .env_remove("OAUTH1_TOKEN_SECRET")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    fn raw(file: &str) -> Vec<Value> {
        serde_json::from_str(&std::fs::read_to_string(super::path(file)).unwrap()).unwrap()
    }

    fn check(answer: &Value, line: &super::Line) {
        let expected = super::expected(line);
        assert_eq!(answer["name"], line.name.as_str());
        assert_eq!(
            answer["valid"].as_bool(),
            expected.valid,
            "{}: {answer}",
            line.name
        );
        match expected.reason {
            Some(reason) => {
                assert_eq!(answer["reason"], reason.as_str(), "{}", line.name);
                assert!(answer["detail"].as_str().is_some_and(|d| !d.is_empty()));
            }
            None => assert!(answer.get("reason").is_none()),
        }
        assert_eq!(
            answer.get("error").and_then(Value::as_str),
            expected.error.as_deref(),
            "{}",
            line.name
        );
    }

    #[test]
    fn verify_jsonl_answers_the_stream_in_order_and_survives_bad_lines() {
        let lines = super::lines("verify.json");
        let mut input = String::new();
        for value in raw("verify.json") {
            input.push_str(&value.to_string());
            input.push('\n');
            input.push_str("{not json\n");
        }
        input.push_str(
            r#"{"name":"no-now","method":"GET","url":"https://a.example/","consumer_secret":"s"}"#,
        );
        input.push('\n');
        let answers = verify_jsonl(&input);
        assert_eq!(answers.len(), lines.len() * 2 + 1);
        for (pair, line) in answers.chunks(2).zip(&lines) {
            check(&pair[0], line);
            assert_eq!(pair[1]["name"], Value::Null);
            assert!(pair[1]["error"]
                .as_str()
                .unwrap()
                .starts_with("invalid JSON"));
        }
        assert_eq!(
            answers.last().unwrap(),
            &serde_json::json!({"name": "no-now", "error": "invalid verify line: missing field `now`"})
        );
    }

    #[test]
    fn verify_jsonl_answers_each_published_request() {
        for (value, line) in raw("verify-published.json")
            .iter()
            .zip(super::lines("verify-published.json"))
        {
            let answers = verify_jsonl(&format!("{value}\n"));
            check(&answers[0], &line);
        }
    }
}
