//! Runs every case of every fixture file through the library, and checks the percent-encoding
//! table. A failure names the case, its file and its source.

use crate::common;

use common::{case_files, fixtures_dir, header_parts, read_cases, Case};
use oauth1_cases::sign_case;
use oauth1_signer::encode::{decode, encode};
use oauth1_signer::Error;

/// What is wrong with a case's outcome, if anything.
fn check(case: &Case) -> Option<String> {
    let expected = &case.expected;
    let outcome = match sign_case(case, case.body.as_deref().unwrap_or("").as_bytes()) {
        Err(err) if expected.error => {
            return match &expected.error_message {
                Some(message) if *message != err.to_string() => Some(format!(
                    "error message\n  expected: {message}\n  actual:   {err}"
                )),
                _ => None,
            };
        }
        Err(err) if !oauth1_cases::RSA && matches!(err, Error::MissingPrivateKey { .. }) => {
            // Without RSA keys read, an RSA case must fail with exactly this error.
            return None;
        }
        Err(err) => return Some(format!("unexpected error: {err}")),
        Ok(_) if expected.error => return Some("signed, but an error was expected".to_owned()),
        Ok(outcome) => outcome,
    };
    let mut problems = Vec::new();
    if let Some(base) = &expected.base_string {
        if *base != outcome.base_string {
            problems.push(format!(
                "base string\n  expected: {base}\n  actual:   {}",
                outcome.base_string
            ));
        }
    }
    if let Some(signature) = &expected.signature {
        if *signature != outcome.signature {
            problems.push(format!(
                "signature\n  expected: {signature}\n  actual:   {}",
                outcome.signature
            ));
        }
    }
    if let Some(authorization) = &expected.authorization {
        let want = header_parts(authorization);
        let got = header_parts(&outcome.authorization);
        if want.is_err() || want != got {
            problems.push(format!(
                "authorization (compared as a set of parameters)\n  expected: {authorization}\n  actual:   {}",
                outcome.authorization
            ));
        }
    }
    (!problems.is_empty()).then(|| problems.join("\n"))
}

#[test]
fn every_fixture_case_signs_as_expected() {
    let files = case_files();
    assert!(
        files.len() >= 2,
        "expected the published and edge-case files in fixtures/"
    );
    let mut failures = Vec::new();
    let mut count = 0;
    for file in &files {
        let cases = read_cases(file);
        assert!(!cases.is_empty(), "{} has no cases", file.display());
        for case in &cases {
            count += 1;
            if let Some(problem) = check(case) {
                failures.push(format!(
                    "case {} ({})\n  source: {}\n{problem}",
                    case.name,
                    file.file_name().unwrap_or_default().to_string_lossy(),
                    case.source.as_deref().unwrap_or("-"),
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} cases failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn case_names_are_unique() {
    let mut names: Vec<String> = case_files()
        .iter()
        .flat_map(|f| read_cases(f))
        .map(|c| c.name.clone())
        .collect();
    let total = names.len();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), total, "duplicate case names");
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct EncodingRow {
    input: Option<String>,
    input_hex: String,
    encoded: String,
}

fn hex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex"))
        .collect()
}

#[test]
fn percent_encoding_table() {
    let text = std::fs::read_to_string(fixtures_dir().join("percent-encoding.json")).unwrap();
    let rows: Vec<EncodingRow> = serde_json::from_str(&text).unwrap();
    let mut single_bytes = [false; 256];
    for row in &rows {
        let bytes = hex(&row.input_hex);
        if let Some(input) = &row.input {
            assert_eq!(
                input.as_bytes(),
                bytes,
                "row {:?}: input and input_hex disagree",
                row.input_hex
            );
        }
        if let [b] = bytes[..] {
            single_bytes[usize::from(b)] = true;
        }
        assert_eq!(
            encode(&bytes).to_string(),
            row.encoded,
            "encoding {:?}",
            row.input_hex
        );
        assert_eq!(
            decode(row.encoded.as_bytes()).unwrap(),
            bytes,
            "decoding {:?}",
            row.encoded
        );
    }
    let missing: Vec<usize> = (0..256).filter(|&b| !single_bytes[b]).collect();
    assert!(
        missing.is_empty(),
        "the table lacks single-byte rows for {missing:?}"
    );
}

/// `docs/request-cases.md` is the request-case format shared with the other tools, copied so
/// that the repository explains itself.
#[test]
fn the_request_case_format_is_in_docs() {
    let root = crate::common::repository();
    let ours = std::fs::read_to_string(root.join("docs/request-cases.md")).unwrap();
    assert!(ours.starts_with("# Request cases"));
}
