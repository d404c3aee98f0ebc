//! fixtures/verify-published.json and fixtures/verify.json (requests signed by the published
//! examples and by oauthlib, and broken copies of them), through the library and through
//! `oauth1 verify --jsonl`.

use std::path::PathBuf;

use oauth1_signer::verify::{
    ConsumerCredential, CredentialStore, MemoryNonceStore, Policy, StoreError, Verifier,
};
use oauth1_signer::{Request, Secret, Timestamp};
use serde::Deserialize;

#[derive(Deserialize)]
#[allow(dead_code)] // `source` documents the line
struct Line {
    name: String,
    source: String,
    method: String,
    url: String,
    #[serde(default)]
    body: Option<String>,
    #[serde(default)]
    content_type: Option<String>,
    #[serde(default)]
    authorization: Option<String>,
    #[serde(default)]
    consumer_secret: Option<String>,
    #[serde(default)]
    token_secret: Option<String>,
    #[serde(default)]
    public_key_pem: Option<String>,
    now: u64,
    #[serde(default)]
    timestamp_window: Option<u64>,
    expected: Expected,
}

#[derive(Deserialize, PartialEq, Eq, Debug, Default)]
struct Expected {
    #[serde(default)]
    valid: Option<bool>,
    #[serde(default)]
    reason: Option<String>,
    /// A line the server cannot take (a public key under 2048 bits).
    #[serde(default)]
    error: Option<String>,
}

fn path(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(file)
}

fn lines(file: &str) -> Vec<Line> {
    serde_json::from_str(&std::fs::read_to_string(path(file)).unwrap()).unwrap()
}

/// The server holds exactly what the line gives, for whatever key and token the request
/// presents: no `token_secret`, no token; no `consumer_secret`, no shared secret.
struct Held {
    consumer: Option<ConsumerCredential>,
    token_secret: Option<Secret>,
}

impl Held {
    #[cfg_attr(not(feature = "rsa"), allow(unused_mut, clippy::unnecessary_wraps))]
    fn new(line: &Line) -> Result<Held, String> {
        let mut consumer = line
            .consumer_secret
            .as_deref()
            .map(ConsumerCredential::from_secret);
        #[cfg(feature = "rsa")]
        if let Some(pem) = &line.public_key_pem {
            let key = oauth1_signer::PublicKey::from_pem(pem).map_err(|e| e.to_string())?;
            consumer = Some(
                match consumer {
                    Some(c) => c.with_public_key(key),
                    None => ConsumerCredential::from_public_key(key),
                }
                .map_err(|e| e.to_string())?,
            );
        }
        Ok(Held {
            consumer,
            token_secret: line.token_secret.as_deref().map(Secret::from),
        })
    }
}

impl CredentialStore for Held {
    fn consumer(&self, _: &str) -> Result<Option<ConsumerCredential>, StoreError> {
        Ok(self.consumer.clone())
    }
    fn token_secret(&self, _: &str, _: &str) -> Result<Option<Secret>, StoreError> {
        Ok(self.token_secret.clone())
    }
}

fn verdict(line: &Line, nonces: &MemoryNonceStore) -> Expected {
    let request = Request::new(&line.method, &line.url).unwrap().with_body(
        line.content_type.as_deref().unwrap_or(""),
        line.body.as_deref().unwrap_or("").as_bytes(),
    );
    let held = match Held::new(line) {
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
    match Verifier::new(held, nonces).with_policy(policy).verify_at(
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

/// Without the `rsa` feature, the RSA methods are not accepted.
fn expected(line: &Line) -> Expected {
    let rsa = line
        .authorization
        .as_deref()
        .unwrap_or(&line.url)
        .contains("RSA-SHA")
        || line.body.as_deref().unwrap_or("").contains("RSA-SHA");
    if cfg!(not(feature = "rsa")) && rsa {
        return Expected {
            valid: Some(false),
            reason: Some("unsupported-signature-method".to_owned()),
            error: None,
        };
    }
    Expected {
        valid: line.expected.valid,
        reason: line.expected.reason.clone(),
        error: line.expected.error.clone(),
    }
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
