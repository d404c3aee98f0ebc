//! The request-case format (`../shared/request-cases.md`) for the tests: reading fixture files
//! and comparing Authorization headers as sets of parameters.

#![allow(dead_code)] // each test crate uses part of it

use std::path::{Path, PathBuf};

use oauth1_signer::{
    BodyHash, Consumer, Error, Realm, Request, SignatureMethod, Signer, Token, Version,
};
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
    /// Explain lines: what the other side produced.
    #[serde(default)]
    pub observed: Option<Observed>,
    pub expected: Expected,
}

/// The `observed` object of an explain line.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Observed {
    #[serde(default)]
    pub signature: Option<String>,
    #[serde(default)]
    pub base_string: Option<String>,
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
    /// Explain lines: `match`, `explained` or `unexplained`.
    #[serde(default)]
    pub verdict: Option<String>,
    /// Explain lines: the cause ids.
    #[serde(default)]
    pub causes: Vec<String>,
    /// Explain lines: the RFC 5849 base string of the request.
    #[serde(default)]
    pub reference_base_string: Option<String>,
}

/// The signer a case describes, with the library's public API.
pub fn signer(case: &Case) -> Result<Signer, Error> {
    let method: SignatureMethod = case
        .signature_method
        .as_deref()
        .unwrap_or("HMAC-SHA1")
        .parse()?;
    let mut signer = Signer::new(Consumer::new(
        case.consumer_key.as_str(),
        case.consumer_secret.as_str(),
    ))
    .with_method(method);
    if let Some(token) = &case.token {
        signer = signer.with_token(Token::new(
            token.as_str(),
            case.token_secret.as_deref().unwrap_or(""),
        ));
    }
    if let Some(realm) = &case.realm {
        signer = signer.with_realm(Realm::new(realm.as_str())?);
    }
    match &case.version {
        VersionField::Absent => {}
        VersionField::Null => signer = signer.with_version(Version::Omit),
        VersionField::Value(v) => signer = signer.with_version(v.parse()?),
    }
    if case.body_hash {
        signer = signer.with_body_hash(BodyHash::Send);
    }
    if let Some(pem) = &case.private_key_pem {
        #[cfg(feature = "rsa")]
        {
            signer = signer.with_private_key(oauth1_signer::PrivateKey::from_pem(pem)?);
        }
        #[cfg(not(feature = "rsa"))]
        let _ = pem;
    }
    Ok(signer)
}

/// The request a case describes.
pub fn request(case: &Case) -> Result<Request<'_>, Error> {
    let mut request = Request::new(&case.method, &case.url)?.with_body(
        case.content_type.as_deref().unwrap_or(""),
        case.body.as_deref().unwrap_or("").as_bytes(),
    );
    if let Some(callback) = &case.callback {
        request = request.with_callback(callback);
    }
    if let Some(verifier) = &case.verifier {
        request = request.with_verifier(verifier);
    }
    Ok(request)
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
        // The percent-encoding table, the bad-input catalogue, the verify lines and the
        // explain lines have formats of their own.
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                n != "percent-encoding.json"
                    && n != "bad-input.json"
                    && !n.starts_with("verify")
                    && !n.starts_with("explain")
            })
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
