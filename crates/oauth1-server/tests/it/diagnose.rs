//! The verifier's diagnosis of bad signatures: named causes for requests signed with known
//! mistakes (the explain fixtures, whose expected causes come from `fixtures/explain_cases.py`),
//! and a budget that holds under a burst.

use crate::common::At;
use oauth1_cases::{request_of, Case, Held};
use oauth1_server::{Diagnosis, MemoryNonceStore, Policy, Reason, Verifier, VerifyError};
use oauth1_signer::Timestamp;
use serde::Deserialize;
use serde_json::Value;

fn lines() -> Vec<Value> {
    let path = crate::common::fixtures_dir().join("explain.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Verifies an explain line's request as its client sent it (the header with the signature
/// the client computed), with a verifier that diagnoses `per_second` bad signatures.
fn verify(line: &Value, verifier: &Verifier<Held, MemoryNonceStore>) -> Result<(), VerifyError> {
    let case = Case::deserialize(line).unwrap();
    let body = case.body.as_deref().unwrap_or("").as_bytes();
    // The request without its protocol parameters, which travel in the header.
    let mut plain = Case::deserialize(line).unwrap();
    plain.callback = None;
    plain.verifier = None;
    let request = request_of(&plain, body).unwrap();
    let signature = line["observed"]["signature"].as_str().unwrap();
    let header = crate::common::header_of(line, signature);
    verifier
        .at(Timestamp::new(case.timestamp.parse().unwrap()))
        .blocking()
        .verify(&request, Some(&header))
        .map(|_| ())
}

fn verifier_for(line: &Value, per_second: u32) -> Verifier<Held, MemoryNonceStore> {
    let held = Held::new(
        line["consumer_secret"].as_str(),
        line["token_secret"].as_str(),
        None,
    )
    .unwrap();
    Verifier::new(held, MemoryNonceStore::new())
        .with_policy(
            Policy::default()
                .allow_plaintext(true)
                .allow_plaintext_over_http(true),
        )
        .with_diagnosis(per_second)
        // Time enough for a debug build on a busy machine: these tests are about what is named.
        .with_diagnosis_cost(64 << 20, std::time::Duration::from_secs(60))
}

/// Causes found only from the URL as the client wrote it, which a server never sees.
const NEED_THE_WRITTEN_URL: [&str; 2] = ["host-not-lowercased", "default-port-kept"];

/// Whether the fixture's cause depends on the query having no percent-escape as written, and
/// its query has a `'`, which the server's URL parser escapes (`%27`): the server cannot tell
/// it from one sent escaped.
fn needs_the_written_query(expected: &[&str], url: &str) -> bool {
    expected.contains(&"unescaped-query-encoded-once") && url.contains('\'')
}

/// An explain line's expected cause ids: the explanation, then what reproduces it as well.
fn expected_ids(line: &Value) -> Vec<&str> {
    ["causes", "alternatives"]
        .iter()
        .filter_map(|field| line["expected"][field].as_array())
        .flatten()
        .map(|c| c.as_str().unwrap())
        .collect()
}

#[test]
fn a_bad_signature_is_diagnosed_with_the_mistake_that_made_it() {
    let mut diagnosed = 0;
    let mut ids = std::collections::BTreeSet::new();
    for line in lines() {
        let observed = &line["observed"];
        // The fixtures whose expected answer comes from the signature alone.
        if observed.get("base_string").is_some() || observed.get("signature").is_none() {
            continue;
        }
        // The explanation, then what reproduces it as well: the diagnosis names them all.
        let expected = expected_ids(&line);
        if expected.iter().any(|c| NEED_THE_WRITTEN_URL.contains(c))
            || needs_the_written_query(&expected, line["url"].as_str().unwrap())
        {
            continue;
        }
        let result = verify(&line, &verifier_for(&line, 100));
        match line["expected"]["verdict"].as_str().unwrap() {
            "match" => assert!(result.is_ok(), "{}: {result:?}", line["name"]),
            verdict => {
                let err = result.unwrap_err();
                assert_eq!(err.reason(), Reason::BadSignature, "{}", line["name"]);
                let diagnosis = err.diagnosis().unwrap();
                if verdict == "explained" {
                    assert_eq!(
                        diagnosis.cause_ids(),
                        expected,
                        "{}: {diagnosis}",
                        line["name"]
                    );
                    ids.extend(expected.iter().map(|c| (*c).to_owned()));
                    diagnosed += 1;
                } else {
                    assert_eq!(diagnosis, &Diagnosis::NotFound, "{}", line["name"]);
                }
            }
        }
    }
    assert!(diagnosed >= 30, "{diagnosed}");
    assert!(ids.len() >= 20, "{ids:?}");
}

/// The fixtures that need the query as the client wrote it, sent through the tower layer as
/// their clients sent them: the layer gives the diagnosis the target as sent, beside the
/// parsed URL (which escapes `'` as `%27`), so their cause is named.
#[cfg(feature = "tower")]
#[test]
fn the_tower_layer_diagnoses_from_the_query_as_sent() {
    use bytes::Bytes;
    use http_body_util::{BodyExt, Full};
    use oauth1_server::tower::VerifyLayer;
    use oauth1_server::Clock;
    use tower::{service_fn, Layer, ServiceExt};

    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let mut sent = 0;
    for line in lines() {
        let expected = expected_ids(&line);
        let url = line["url"].as_str().unwrap();
        if !needs_the_written_query(&expected, url) {
            continue;
        }
        let case = Case::deserialize(&line).unwrap();
        let timestamp = Timestamp::new(case.timestamp.parse().unwrap());
        let verifier = verifier_for(&line, 100).with_clock(Clock::fixed(timestamp));
        let (origin, target) = url.split_at(url.find("/x").unwrap());
        let layer = VerifyLayer::new(verifier, origin).unwrap();
        let service = layer.layer(service_fn(|_: http::Request<Full<Bytes>>| async {
            Ok::<_, std::convert::Infallible>(http::Response::new(Full::new(Bytes::new())))
        }));
        let header =
            crate::common::header_of(&line, line["observed"]["signature"].as_str().unwrap());
        let mut request = http::Request::builder()
            .method(line["method"].as_str().unwrap())
            .uri(target)
            .header("authorization", header);
        if let Some(content_type) = line["content_type"].as_str() {
            request = request.header("content-type", content_type);
        }
        let body = line["body"].as_str().unwrap_or("").to_owned();
        let request = request.body(Full::new(Bytes::from(body))).unwrap();
        let advice = runtime.block_on(async {
            let response = service.oneshot(request).await.unwrap();
            assert_eq!(response.status().as_u16(), 401, "{}", line["name"]);
            let body = response.into_body().collect().await.unwrap().to_bytes();
            let (_, advice) = url::form_urlencoded::parse(&body)
                .find(|(name, _)| name == "oauth_problem_advice")
                .unwrap();
            advice.into_owned()
        });
        assert!(
            advice.contains("signed with unescaped-query-encoded-once"),
            "{}: {advice}",
            line["name"]
        );
        sent += 1;
    }
    assert_eq!(sent, 2);
}

#[test]
fn the_diagnosis_is_in_the_problem_report_and_never_a_secret() {
    let line = lines()
        .into_iter()
        .find(|l| l["name"] == "plus-for-space-2")
        .unwrap();
    let err = verify(&line, &verifier_for(&line, 1)).unwrap_err();
    let advice = err.to_string();
    assert_eq!(
        advice,
        "the signature does not match: compare the client's base string with the server's, and check the consumer secret and token secret (an unknown consumer key or token fails this way too). Diagnosis: the client's signature matches this request signed with plus-for-space: it encoded a space as \"+\" instead of \"%20\" in parameter names and values (form encoding), so \"%2B\" stands where \"%2520\" should. To fix: Encode parameter names and values with RFC 3986 percent-encoding (space as %20), not with a form or query-string encoder."
    );
    let report = err.problem().unwrap().to_urlencoded();
    assert!(report.contains("plus-for-space"), "{report}");
    for secret in ["kd94hf93k423kf44", "pfkkdhi9sl3r4s00"] {
        assert!(!advice.contains(secret) && !report.contains(secret));
    }
}

/// A burst of bad signatures in one second: the budget's worth are diagnosed, the rest
/// refused all the same, their errors saying the diagnosis was skipped.
#[test]
fn the_budget_holds_under_a_burst() {
    let line = lines()
        .into_iter()
        .find(|l| l["name"] == "plus-for-space-2")
        .unwrap();
    let verifier = verifier_for(&line, 3);
    let mut found = 0;
    for i in 0..20 {
        let mut burst = line.clone();
        burst["nonce"] = Value::from(format!("burst-{i}"));
        let err = verify(&burst, &verifier).unwrap_err();
        assert_eq!(err.reason(), Reason::BadSignature);
        match err.diagnosis().unwrap() {
            // A new nonce changes what the mistake signs, so the signature is no longer
            // reproduced: "not found", but diagnosed.
            Diagnosis::NotFound | Diagnosis::Found { .. } => found += 1,
            Diagnosis::Skipped(why) => assert_eq!(
                why,
                "the server diagnoses at most 3 bad signatures a second, and this second's are spent"
            ),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(found, 3);
    // Off by default.
    let held = Held::new(Some("kd94hf93k423kf44"), Some("pfkkdhi9sl3r4s00"), None).unwrap();
    let quiet = Verifier::new(held, MemoryNonceStore::new());
    let err = verify(&line, &quiet).unwrap_err();
    assert!(err.diagnosis().is_none());
}
