//! The fixtures in the request-case format (read with the tools' own definition,
//! `oauth1_cases`), comparing Authorization headers as sets of parameters, and a verifier at a
//! given time. Shared by the tests of every package.

#![allow(dead_code, unused_imports)] // each test crate and module uses part of it

use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};

use oauth1_cases::{self as cases, Expected};
use oauth1_server::{CredentialStore, Issuer, NonceStore, TemporaryStore, TokenStore, Verifier};
use oauth1_signer::{Error, Request, Timestamp};
use serde::Deserialize;

pub use oauth1_cases::signer_of as signer;

/// A fixture's case with what it expects, every field of `expected` known (a misspelt field is
/// an error, not a check skipped).
pub struct Case {
    case: cases::Case,
    pub expected: Expected,
}

impl<'de> Deserialize<'de> for Case {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let case = cases::Case::deserialize(d)?;
        let expected = case.expected().map_err(serde::de::Error::custom)?;
        Ok(Case { case, expected })
    }
}

impl Deref for Case {
    type Target = cases::Case;
    fn deref(&self) -> &cases::Case {
        &self.case
    }
}

impl DerefMut for Case {
    fn deref_mut(&mut self) -> &mut cases::Case {
        &mut self.case
    }
}

/// A verifier or a provider with its clock set to `now`: the tests check each request at the
/// time they name (`verifier.at(now).blocking().verify(…)`).
pub trait At {
    fn at(&self, now: Timestamp) -> &Self;
}

impl<C: CredentialStore, N: NonceStore> At for Verifier<C, N> {
    fn at(&self, now: Timestamp) -> &Self {
        self.clock().set(now);
        self
    }
}

impl<C, N, T> At for Issuer<C, N, T>
where
    C: CredentialStore + TokenStore + Sync,
    N: NonceStore + Sync,
    T: TemporaryStore + Sync,
{
    fn at(&self, now: Timestamp) -> &Self {
        self.verifier().clock().set(now);
        self
    }
}

/// The request a case describes, with its body.
pub fn request(case: &cases::Case) -> Result<Request<'_>, Error> {
    cases::request_of(case, case.body.as_deref().unwrap_or("").as_bytes())
}

/// The repository's `fixtures/`, from the core's tests or from a crate under `crates/`.
pub fn fixtures_dir() -> PathBuf {
    repository().join("fixtures")
}

/// The repository's root, from the package of any test crate that shares this file: the first
/// folder up from the package that holds `fixtures/` and `docs/`.
pub fn repository() -> PathBuf {
    let package = Path::new(env!("CARGO_MANIFEST_DIR"));
    package
        .ancestors()
        .find(|dir| dir.join("fixtures").is_dir() && dir.join("docs").is_dir())
        .expect("the repository holds fixtures/ and docs/")
        .to_path_buf()
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

/// The output of a future that must be ready at once, as the memory stores' are.
///
/// # Panics
///
/// If the future is pending: a memory store that waited would be a bug.
pub fn at_once<F: std::future::Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    match future
        .as_mut()
        .poll(&mut std::task::Context::from_waker(std::task::Waker::noop()))
    {
        std::task::Poll::Ready(output) => output,
        std::task::Poll::Pending => panic!("the future is pending; a memory store answers at once"),
    }
}

/// The Authorization header the client of an explain line sent: its protocol parameters and
/// the signature it computed.
pub fn header_of(line: &serde_json::Value, signature: &str) -> String {
    let text = |name: &str| line.get(name).and_then(serde_json::Value::as_str);
    let method = text("signature_method").unwrap_or("HMAC-SHA1");
    let mut params: Vec<(&str, String)> = vec![
        (
            "oauth_consumer_key",
            text("consumer_key").unwrap().to_owned(),
        ),
        ("oauth_signature_method", method.to_owned()),
        ("oauth_timestamp", text("timestamp").unwrap().to_owned()),
        ("oauth_nonce", text("nonce").unwrap().to_owned()),
    ];
    // `"version": null` leaves it out; absent, it is 1.0.
    match line.get("version") {
        None => params.push(("oauth_version", "1.0".to_owned())),
        Some(serde_json::Value::String(version)) => params.push(("oauth_version", version.clone())),
        Some(_) => {}
    }
    for (field, name) in [
        ("token", "oauth_token"),
        ("callback", "oauth_callback"),
        ("verifier", "oauth_verifier"),
    ] {
        if let Some(value) = text(field) {
            params.push((name, value.to_owned()));
        }
    }
    if line.get("body_hash").and_then(serde_json::Value::as_bool) == Some(true) {
        let method: oauth1_signer::SignatureMethod = method.parse().unwrap();
        let body = text("body").unwrap_or("");
        params.push((
            "oauth_body_hash",
            oauth1_signer::sign::body_hash(method, body.as_bytes()),
        ));
    }
    params.push(("oauth_signature", signature.to_owned()));
    let mut header = String::from("OAuth ");
    if let Some(realm) = text("realm") {
        header.push_str("realm=\"");
        header.push_str(realm);
        header.push_str("\", ");
    }
    let joined: Vec<String> = params
        .iter()
        .map(|(n, v)| format!("{n}=\"{}\"", oauth1_signer::encode::encode(v.as_bytes())))
        .collect();
    header.push_str(&joined.join(", "));
    header
}

/// A request that every reading of the diagnosis's search must read whole, inside a
/// verifier's default limits: 255 query parameters full of escapes, and a form body of 700
/// fields, about 0.93 MB. The URL is `origin` followed by `/photos?…`.
pub fn large_request(origin: &str) -> (String, Vec<u8>) {
    use std::fmt::Write;

    let mut url = format!("{origin}/photos?");
    for i in 0..255 {
        if i > 0 {
            url.push('&');
        }
        write!(url, "q%20{i}=a+b%20c%2f~!*()/:@,;$%c3%a9=z").unwrap();
    }
    let value = "x%20".repeat(332);
    let body: Vec<String> = (0..700).map(|i| format!("f{i}={value}")).collect();
    (url, body.join("&").into_bytes())
}
