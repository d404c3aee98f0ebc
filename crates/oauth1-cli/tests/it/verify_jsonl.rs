//! `oauth1 verify --jsonl` on `fixtures/verify-published.json` and `fixtures/verify.json`: the
//! verdicts the library gives (`tests/it/verify_fixtures.rs` at the repository's root), in
//! order, the stream surviving bad lines.

use std::path::PathBuf;

use oauth1_cases::VerifyLine as Line;

fn path(file: &str) -> PathBuf {
    crate::common::fixtures_dir().join(file)
}

fn lines(file: &str) -> Vec<Line> {
    serde_json::from_str(&std::fs::read_to_string(path(file)).unwrap()).unwrap()
}

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
    serde_json::from_str(&std::fs::read_to_string(path(file)).unwrap()).unwrap()
}

fn check(answer: &Value, line: &Line) {
    let expected = line
        .expected()
        .unwrap_or_else(|e| panic!("{}: expected: {e}", line.name));
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
    let lines = lines("verify.json");
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
        .zip(lines("verify-published.json"))
    {
        let answers = verify_jsonl(&format!("{value}\n"));
        check(&answers[0], &line);
    }
}
