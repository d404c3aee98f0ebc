//! A raw HTTP request whose target is a path (origin-form, as servers log it) does not say its
//! scheme. `fixtures/explain-origin-form.json` (written by `fixtures/explain_cases.py`, independently
//! of the crates) holds requests signed for https and for http, with and without each mistake
//! of the vocabulary, and the answer its definitions give when the scheme is unknown: the
//! reading that needs no scheme cause. The command line, the library and the page's engine
//! must each give it.

use std::fmt::Write as _;

use oauth1_capture::Capture;
use oauth1_signer::explain::{take_scheme, Explainer, Observed};
use oauth1_signer::Timestamp;
use serde_json::Value;

use crate::cli_capture::{fixtures, run, web_with};

/// The request of a line as a raw HTTP/1.1 request in origin-form: its target and its `Host`,
/// its `Authorization` header with `signature`, its body.
fn origin_form(line: &Value, signature: &str) -> String {
    let text = |name: &str| line.get(name).and_then(Value::as_str);
    let rest = text("url").unwrap().split_once("://").unwrap().1;
    let split = rest.find(['/', '?']).unwrap_or(rest.len());
    let (host, target) = rest.split_at(split);
    let target = if target.starts_with('?') || target.is_empty() {
        format!("/{target}")
    } else {
        target.to_owned()
    };
    let mut raw = format!(
        "{} {target} HTTP/1.1\r\nHost: {host}\r\nAuthorization: {}\r\n",
        text("method").unwrap(),
        crate::common::header_of(line, signature)
    );
    let body = text("body").unwrap_or("");
    if let Some(content_type) = text("content_type") {
        write!(raw, "Content-Type: {content_type}\r\n").unwrap();
    }
    if !body.is_empty() || text("content_type").is_some() {
        write!(raw, "Content-Length: {}\r\n", body.len()).unwrap();
    }
    raw.push_str("\r\n");
    raw.push_str(body);
    raw
}

fn lines() -> Vec<Value> {
    serde_json::from_str(
        &std::fs::read_to_string(fixtures().join("explain-origin-form.json")).unwrap(),
    )
    .unwrap()
}

/// What an answer says: the verdict, the causes, the alternatives and the scheme taken.
fn said(answer: &Value) -> (Value, Value, Value, Value, Value) {
    (
        answer["verdict"].clone(),
        answer["causes"].clone(),
        answer["alternatives"].clone(),
        answer["scheme"]["taken"].clone(),
        answer["scheme"]["reason"].clone(),
    )
}

#[test]
fn an_origin_form_capture_is_explained_with_the_scheme_its_signature_needs() {
    let lines = lines();
    let mut counts = std::collections::BTreeMap::<(String, String), usize>::new();
    for line in &lines {
        let name = line["name"].as_str().unwrap();
        let want = &line["expected_origin_form"];
        let want = (
            want["verdict"].clone(),
            want["causes"].clone(),
            want["alternatives"].clone(),
            want["scheme"].clone(),
            want["scheme_reason"].clone(),
        );
        let signature = line["observed"]["signature"].as_str().unwrap();
        let raw = origin_form(line, signature);
        let secrets = (
            line["consumer_secret"].as_str(),
            line["token_secret"].as_str(),
        );

        // The command line.
        let (_, out, err) = run(&["explain", "--json", "--http", "-"], secrets, &raw);
        let answer: Value = serde_json::from_str(out.trim())
            .unwrap_or_else(|e| panic!("{name}: {e}: {out} {err}\n{raw}"));
        assert_eq!(said(&answer), want, "the command line, {name}:\n{raw}");

        // The page's engine, the scheme left unknown as the page leaves it by default.
        let web = web_with(&serde_json::json!({
            "capture": raw,
            "consumer_secret": secrets.0.unwrap_or(""),
            "token_secret": secrets.1.unwrap_or(""),
        }));
        assert_eq!(said(&web), want, "the page, {name}:\n{raw}");

        // The library, as a program reading such captures would use it.
        let read = Capture::from_http_scheme_unknown(raw.as_bytes()).unwrap();
        assert!(!read.scheme_stated);
        let explain = |capture: &Capture| {
            let (capture, protocol) = capture.protocol().unwrap();
            let signer = protocol.signer(secrets.0.unwrap(), secrets.1).unwrap();
            let request = protocol.request(&capture).unwrap();
            let nonce = protocol.nonce().unwrap();
            let timestamp: Timestamp = protocol.timestamp().unwrap();
            Explainer::new(&signer, &request, &nonce, timestamp)
                .with_url_as_written(&capture.url)
                .explain(&Observed::signature(protocol.signature.as_deref().unwrap()))
                .unwrap()
        };
        let (explanation, taken) = take_scheme(
            explain(&read.capture),
            explain(&read.capture.with_scheme("http")),
        );
        let ids = |causes: &[oauth1_signer::explain::Cause]| {
            Value::Array(causes.iter().map(|c| Value::from(c.id())).collect())
        };
        assert_eq!(
            (
                Value::from(explanation.verdict().as_str()),
                ids(explanation.causes()),
                ids(explanation.alternatives()),
                Value::from(taken.scheme()),
                Value::from(taken.reason().as_str())
            ),
            want,
            "the library, {name}"
        );
        let signed_for = line["url"].as_str().unwrap().split(':').next().unwrap();
        *counts
            .entry((signed_for.to_owned(), want.4.as_str().unwrap().to_owned()))
            .or_default() += 1;
    }
    // Requests signed for http as many as for https, most with a mistake of the vocabulary,
    // each explained by it alone and not by an invented scheme-changed.
    assert_eq!(lines.len(), 266);
    assert_eq!(
        counts[&("http".to_owned(), "explained-without".to_owned())],
        125
    );
    assert_eq!(
        counts[&("https".to_owned(), "explained-without".to_owned())],
        125
    );
}

#[test]
fn the_scheme_given_is_taken_as_it_is() {
    let line = lines()
        .into_iter()
        .find(|l| l["name"] == "plus-for-space-2-http")
        .unwrap();
    let raw = origin_form(&line, line["observed"]["signature"].as_str().unwrap());
    let secrets = (
        line["consumer_secret"].as_str(),
        line["token_secret"].as_str(),
    );
    // Read as https, it needs a scheme cause as well; said as it is, with no scheme line.
    let (_, out, _) = run(
        &["explain", "--json", "--http", "-", "--scheme", "https"],
        secrets,
        &raw,
    );
    let answer: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        answer["causes"],
        serde_json::json!(["plus-for-space", "scheme-changed"])
    );
    assert!(answer.get("scheme").is_none(), "{answer}");
    // The text says which scheme it took and why.
    let (_, out, _) = run(&["explain", "--http", "-"], secrets, &raw);
    assert!(
        out.starts_with("scheme:     http: the signature is explained with it as it is, and with https only if the scheme changed too (the request's target does not say it; --scheme gives it)\nverdict:    explained\ncause:      plus-for-space"),
        "{out}"
    );
    // An absolute-form target says its scheme: nothing is tried.
    let absolute = raw.replacen(
        " /",
        &format!(" {}", &line["url"].as_str().unwrap()[..23]),
        1,
    );
    let (_, out, _) = run(&["explain", "--json", "--http", "-"], secrets, &absolute);
    let answer: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        answer["causes"],
        serde_json::json!(["plus-for-space"]),
        "{absolute}"
    );
    assert!(answer.get("scheme").is_none(), "{answer}");
}
