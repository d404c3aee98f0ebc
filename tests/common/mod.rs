//! The request-case format (`../shared/request-cases.md`) for the tests: reading fixture files
//! and comparing Authorization headers as sets of parameters.

#![allow(dead_code)] // each test crate uses part of it

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// A case object. Unknown fields are an error, so a misspelt field cannot pass unnoticed.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub name: String,
    #[serde(default)]
    pub source: Option<String>,
    pub method: String,
    pub url: String,
    #[serde(default)]
    pub body: Option<String>,
    #[serde(default)]
    pub content_type: Option<String>,
    pub consumer_key: String,
    pub consumer_secret: String,
    #[serde(default)]
    pub token: Option<String>,
    #[serde(default)]
    pub token_secret: Option<String>,
    #[serde(default)]
    pub signature_method: Option<String>,
    #[serde(default)]
    pub private_key_pem: Option<String>,
    pub nonce: String,
    pub timestamp: String,
    #[serde(default)]
    pub version: VersionField,
    #[serde(default)]
    pub callback: Option<String>,
    #[serde(default)]
    pub verifier: Option<String>,
    #[serde(default)]
    pub realm: Option<String>,
    #[serde(default)]
    pub body_hash: bool,
    pub expected: Expected,
}

/// The case's `version`: absent (send `1.0`), `null` (omit it), or a string.
#[derive(Debug, Default)]
pub enum VersionField {
    #[default]
    Absent,
    Null,
    Value(String),
}

impl<'de> Deserialize<'de> for VersionField {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Option::<String>::deserialize(d).map(|v| v.map_or(VersionField::Null, VersionField::Value))
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    #[serde(default)]
    pub base_string: Option<String>,
    #[serde(default)]
    pub signature: Option<String>,
    #[serde(default)]
    pub authorization: Option<String>,
    #[serde(default)]
    pub error: bool,
    /// This project's extension: the exact message of an expected error.
    #[serde(default)]
    pub error_message: Option<String>,
}

pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Every case file in `fixtures/` (all `*.json` but the percent-encoding table), sorted.
pub fn case_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixtures_dir())
        .expect("fixtures/ is readable")
        .map(|e| e.expect("fixtures/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        // The percent-encoding table and the verify lines have formats of their own.
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n != "percent-encoding.json" && !n.starts_with("verify"))
        })
        .collect();
    files.sort();
    files
}

pub fn read_cases(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).expect("fixture file is readable");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// An Authorization header as its realm and its sorted `name="value"` pairs, values kept as
/// written (percent-encoded), so that two headers compare as sets whatever their order.
pub fn header_parts(header: &str) -> Result<Vec<(String, String)>, String> {
    let rest = header
        .strip_prefix("OAuth ")
        .ok_or_else(|| format!("no \"OAuth \" scheme in {header:?}"))?;
    let mut parts = Vec::new();
    let mut chars = rest.trim().chars().peekable();
    loop {
        let name: String = chars.by_ref().take_while(|&c| c != '=').collect();
        if chars.next() != Some('"') {
            return Err(format!("unquoted value after {name:?} in {header:?}"));
        }
        let mut value = String::new();
        loop {
            match chars.next() {
                Some('"') => break,
                Some('\\') => value.extend(chars.next()),
                Some(c) => value.push(c),
                None => return Err(format!("unterminated value in {header:?}")),
            }
        }
        parts.push((name.trim().to_owned(), value));
        match chars.next() {
            None => break,
            Some(',') => {
                while chars.peek() == Some(&' ') {
                    chars.next();
                }
            }
            Some(c) => return Err(format!("unexpected {c:?} in {header:?}")),
        }
    }
    parts.sort();
    Ok(parts)
}
