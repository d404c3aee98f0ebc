//! The page's engine held to published values: every signing vector of
//! `fixtures/published.json` (RFC 5849, OAuth Core 1.0 and 1.0a, the oauth.net wiki, the X API)
//! signed from its fields as the page's Sign tab sends them.

use serde_json::{json, Value};

fn fixture(name: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn sign(input: &Value) -> Value {
    serde_json::from_str(&oauth1_web::sign(&input.to_string())).unwrap()
}

/// The page's Sign fields for a request case: absent fields empty, a `null` version omitted.
fn fields_of(case: &Value) -> Value {
    let text = |name: &str| case.get(name).and_then(Value::as_str).unwrap_or("");
    json!({
        "method": text("method"),
        "url": text("url"),
        "body": text("body"),
        "content_type": text("content_type"),
        "consumer_key": text("consumer_key"),
        "consumer_secret": text("consumer_secret"),
        "token": text("token"),
        "token_secret": text("token_secret"),
        "signature_method": text("signature_method"),
        "private_key_pem": text("private_key_pem"),
        "nonce": text("nonce"),
        "timestamp": text("timestamp"),
        "realm": text("realm"),
        "callback": text("callback"),
        "verifier": text("verifier"),
        "omit_version": case.get("version").is_some_and(Value::is_null),
    })
}

/// A header's parameters, in order: publications list them in orders of their own, which
/// RFC 5849 leaves free.
fn parts(header: &str) -> Vec<String> {
    let mut parts: Vec<String> = header
        .strip_prefix("OAuth ")
        .unwrap()
        .split(", ")
        .map(str::to_owned)
        .collect();
    parts.sort();
    parts
}

#[test]
fn every_published_vector_signs_to_its_published_values() {
    let cases = fixture("published.json");
    let cases = cases.as_array().unwrap();
    for case in cases {
        let name = &case["name"];
        let expected = &case["expected"];
        let answer = sign(&fields_of(case));
        assert_eq!(answer["error"], "", "{name}");
        let stages = &answer["stages"];
        if !expected["base_string"].is_null() {
            assert_eq!(stages["base_string"], expected["base_string"], "{name}");
        }
        if case["signature_method"] == "PLAINTEXT" {
            // The key itself: never shown, in the signature or in the header.
            let hidden = oauth1_capture::HIDDEN_SIGNATURE;
            assert_eq!(stages["signature"], hidden, "{name}");
            if let Some(header) = expected["authorization"].as_str() {
                let sent = expected["signature"].as_str().unwrap();
                let encoded = oauth1_signer::encode::encode(sent.as_bytes()).to_string();
                assert_eq!(
                    parts(stages["authorization"].as_str().unwrap()),
                    parts(&header.replace(&encoded, hidden)),
                    "{name}"
                );
            }
        } else {
            if !expected["signature"].is_null() {
                assert_eq!(stages["signature"], expected["signature"], "{name}");
            }
            if let Some(header) = expected["authorization"].as_str() {
                assert_eq!(
                    parts(stages["authorization"].as_str().unwrap()),
                    parts(header),
                    "{name}"
                );
            }
        }
    }
    assert_eq!(cases.len(), 23);
}

#[test]
fn a_fresh_nonce_and_the_clock_when_left_empty() {
    let answer = sign(&json!({
        "url": "https://api.example.com/x",
        "consumer_key": "k",
        "consumer_secret": "s",
    }));
    assert_eq!(answer["error"], "");
    let header = answer["stages"]["authorization"].as_str().unwrap();
    assert!(header.contains("oauth_nonce=\""), "{header}");
    let timestamp: u64 = header
        .split("oauth_timestamp=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap()
        .parse()
        .unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    assert!(now.abs_diff(timestamp) < 60, "{timestamp} vs {now}");
}

#[test]
fn what_cannot_be_signed_is_said() {
    let answer = sign(&json!({
        "url": "api.example.com/x",
        "consumer_key": "k",
        "consumer_secret": "s",
    }));
    assert!(answer["stages"].is_null());
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("api.example.com/x"),
        "{answer}"
    );
    let answer = sign(&json!({
        "url": "https://api.example.com/x",
        "signature_method": "HMAC-MD5",
    }));
    assert!(
        answer["error"].as_str().unwrap().contains("HMAC-MD5"),
        "{answer}"
    );
}
