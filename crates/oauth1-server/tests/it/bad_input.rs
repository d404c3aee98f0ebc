//! fixtures/bad-input.json: malformed input of every kind (URLs, percent escapes, protocol
//! parameters given twice, methods, signature methods, timestamps, realms, Authorization
//! headers, received requests, RSA keys, `oauth1 sign --jsonl` lines), each refused with
//! exactly the message expected. `{text*N}` in a string stands for `text` repeated N times.

use crate::common;

use crate::common::At;
use oauth1_server::{
    MemoryCredentials, MemoryNonceStore, Policy, ProxyHeaders, PublicOrigin, Verifier,
};
use oauth1_signer::header::Authorization;
use oauth1_signer::{Nonce, Request, SignatureMethod, Timestamp};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
enum Entry {
    Sign {
        name: String,
        /// A request case (`request-cases.md`).
        case: serde_json::Value,
        error: String,
    },
    Header {
        name: String,
        header: String,
        error: String,
    },
    Verify {
        name: String,
        /// What the server holds; absent: consumer `ck` with secret `cs`, its token `tk`
        /// with secret `ts`, and every method accepted.
        #[serde(default)]
        held: Option<Held>,
        request: Received,
        reason: String,
        error: String,
    },
    Decode {
        name: String,
        input: String,
        error: String,
    },
    PrivateKey {
        name: String,
        #[cfg_attr(not(feature = "rsa"), allow(dead_code))]
        pem: String,
        error: String,
    },
    /// A public key a verifier is given for a consumer.
    PublicKey {
        name: String,
        #[cfg_attr(not(feature = "rsa"), allow(dead_code))]
        pem: String,
        error: String,
    },
    /// A provider's temporary-credentials answer.
    FlowAnswer {
        name: String,
        input: String,
        error: String,
    },
    /// Forwarding headers behind a proxy that appends to `Forwarded`.
    Forwarded {
        name: String,
        headers: Vec<(String, String)>,
        error: String,
    },
    /// A pasted curl command the capture reader refuses (read by the command line's test,
    /// crates/oauth1-cli, and the web page's).
    Curl {
        name: String,
        #[allow(dead_code)]
        command: String,
        #[allow(dead_code)]
        file: String,
        error: String,
    },
    SignLine {
        name: String,
        // Read by the command line's test (crates/oauth1-cli).
        #[serde(default)]
        #[allow(dead_code)]
        line: Option<String>,
        #[serde(default)]
        #[allow(dead_code)]
        line_hex: Option<String>,
        error: String,
    },
}

/// What a server holds for consumer `ck`: a shared secret, a public key, or both, and tokens
/// by consumer; `default_policy` for the library's default policy.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Held {
    #[serde(default)]
    consumer_secret: Option<String>,
    #[serde(default)]
    public_key_pem: Option<String>,
    #[serde(default)]
    tokens: std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>>,
    #[serde(default)]
    default_policy: bool,
}

impl Held {
    /// The credentials and the policy; `None` where they need the `rsa` feature.
    fn verifier(&self) -> Option<Verifier<MemoryCredentials, MemoryNonceStore>> {
        let mut credentials = MemoryCredentials::new();
        if let Some(secret) = &self.consumer_secret {
            credentials.add_consumer("ck", secret.as_str());
        }
        if let Some(pem) = &self.public_key_pem {
            #[cfg(feature = "rsa")]
            credentials
                .add_public_key("ck", oauth1_signer::PublicKey::from_pem(pem).unwrap())
                .unwrap();
            #[cfg(not(feature = "rsa"))]
            {
                let _ = pem;
                return None;
            }
        }
        for (consumer, tokens) in &self.tokens {
            for (token, secret) in tokens {
                credentials.add_token(consumer.as_str(), token.as_str(), secret.as_str());
            }
        }
        let policy = if self.default_policy {
            if cfg!(not(feature = "rsa")) {
                return None;
            }
            Policy::default()
        } else {
            Policy::default().allow_plaintext(true)
        };
        Some(Verifier::new(credentials, MemoryNonceStore::new()).with_policy(policy))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Received {
    method: String,
    url: String,
    #[serde(default)]
    body: String,
    #[serde(default)]
    content_type: String,
    #[serde(default)]
    authorization: Option<String>,
}

fn entries() -> Vec<Entry> {
    let path = common::fixtures_dir().join("bad-input.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Expands `{text*N}` into `text` repeated N times.
fn expand(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(open) = rest.find('{') {
        let template = rest[open + 1..].find('}').and_then(|close| {
            let inner = &rest[open + 1..open + 1 + close];
            let (text, count) = inner.rsplit_once('*')?;
            Some((text.repeat(count.parse().ok()?), open + close + 2))
        });
        if let Some((expanded, end)) = template {
            out.push_str(&rest[..open]);
            out.push_str(&expanded);
            rest = &rest[end..];
        } else {
            out.push_str(&rest[..=open]);
            rest = &rest[open + 1..];
        }
    }
    out + rest
}

const NOW: u64 = 1_700_000_000;

/// What the library says of an entry, or `None` when the entry's kind is checked elsewhere.
fn refusal(entry: &Entry) -> Option<Result<String, String>> {
    let refused = |e: &dyn std::fmt::Display| Ok(e.to_string());
    Some(match entry {
        Entry::Sign { case, .. } => {
            let mut case = case.clone();
            case["expected"] = serde_json::json!({"error": true});
            let mut case: common::Case = serde_json::from_value(case).unwrap();
            case.url = expand(&case.url);
            let signed = common::signer(&case).and_then(|signer| {
                let nonce = Nonce::new(case.nonce.as_str())?;
                signer.sign(&common::request(&case)?, &nonce, case.timestamp.parse()?)
            });
            match signed {
                Ok(_) => Err("signed".to_owned()),
                Err(e) => refused(&e),
            }
        }
        Entry::Header { header, .. } => match Authorization::parse(&expand(header)) {
            Ok(_) => Err("parsed".to_owned()),
            Err(e) => refused(&e),
        },
        Entry::Verify {
            request: r, held, ..
        } => {
            // The URL as received: a path the URL parser would rewrite is refused first.
            let url = match oauth1_server::received_url(&expand(&r.url)) {
                Ok(url) => url,
                Err(e) => return Some(Ok(format!("{}: {e}", e.reason()))),
            };
            let request = Request::from_url(&r.method, &url)
                .unwrap()
                .with_body(&r.content_type, r.body.as_bytes());
            let header = r.authorization.as_deref().map(expand);
            let verifier = if let Some(held) = held {
                held.verifier()?
            } else {
                let mut credentials = MemoryCredentials::new();
                credentials.add_consumer("ck", "cs");
                credentials.add_token("ck", "tk", "ts");
                let policy = Policy::default().with_methods(&[
                    SignatureMethod::HmacSha1,
                    SignatureMethod::HmacSha256,
                    SignatureMethod::HmacSha512,
                    SignatureMethod::Plaintext,
                ]);
                Verifier::new(credentials, MemoryNonceStore::new()).with_policy(policy)
            };
            match verifier
                .at(Timestamp::new(NOW))
                .blocking()
                .verify(&request, header.as_deref())
            {
                Ok(_) => Err("verified".to_owned()),
                Err(e) => Ok(format!("{}: {e}", e.reason())),
            }
        }
        Entry::Decode { input, .. } => match oauth1_signer::encode::decode(input.as_bytes()) {
            Ok(_) => Err("decoded".to_owned()),
            Err(e) => refused(&e),
        },
        #[cfg(feature = "rsa")]
        Entry::PrivateKey { pem, .. } => match oauth1_signer::PrivateKey::from_pem(pem) {
            Ok(_) => Err("read".to_owned()),
            Err(e) => refused(&e),
        },
        #[cfg(not(feature = "rsa"))]
        Entry::PrivateKey { .. } => return None,
        #[cfg(feature = "rsa")]
        Entry::PublicKey { pem, .. } => match oauth1_signer::PublicKey::from_pem(pem)
            .map_err(oauth1_server::ConfigError::from)
            .and_then(oauth1_server::ConsumerCredential::from_public_key)
        {
            Ok(_) => Err("accepted".to_owned()),
            Err(e) => refused(&e),
        },
        #[cfg(not(feature = "rsa"))]
        Entry::PublicKey { .. } => return None,
        Entry::FlowAnswer { input, .. } => {
            match oauth1_signer::flow::TemporaryCredentials::parse(expand(input).as_bytes()) {
                Ok(_) => Err("read".to_owned()),
                Err(e) => refused(&e),
            }
        }
        Entry::Forwarded { headers, .. } => {
            let origin = PublicOrigin::TrustedProxy {
                origin: url::Url::parse("http://api.example.com").unwrap(),
                headers: ProxyHeaders::Forwarded,
            };
            let headers = headers.iter().map(|(n, v)| (n.as_str(), v.as_str()));
            match origin.url("/p", headers) {
                Ok(url) => Err(format!("made {url}")),
                Err(e) => refused(&e),
            }
        }
        Entry::SignLine { .. } | Entry::Curl { .. } => return None,
    })
}

fn expected(entry: &Entry) -> (&str, String) {
    match entry {
        Entry::Sign { name, error, .. }
        | Entry::Header { name, error, .. }
        | Entry::Decode { name, error, .. }
        | Entry::PrivateKey { name, error, .. }
        | Entry::PublicKey { name, error, .. }
        | Entry::FlowAnswer { name, error, .. }
        | Entry::Forwarded { name, error, .. }
        | Entry::SignLine { name, error, .. }
        | Entry::Curl { name, error, .. } => (name, error.clone()),
        Entry::Verify {
            name,
            reason,
            error,
            ..
        } => (name, format!("{reason}: {error}")),
    }
}

#[test]
fn every_bad_input_is_refused_with_its_exact_message() {
    let entries = entries();
    assert!(entries.len() >= 40, "{} entries", entries.len());
    let mut failures = Vec::new();
    for entry in &entries {
        let Some(got) = refusal(entry) else { continue };
        let (name, want) = expected(entry);
        match got {
            Ok(message) if message == want => {}
            Ok(message) => failures.push(format!(
                "{name}:\n  expected: {want}\n  actual:   {message}"
            )),
            Err(what) => failures.push(format!("{name}: {what}, but must be refused")),
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn every_kind_and_every_name_once() {
    let entries = entries();
    let mut names = std::collections::BTreeSet::new();
    for entry in &entries {
        assert!(names.insert(expected(entry).0.to_owned()), "duplicate name");
    }
    let kinds = |f: fn(&Entry) -> bool| entries.iter().filter(|e| f(e)).count();
    assert!(kinds(|e| matches!(e, Entry::Sign { .. })) >= 20);
    assert!(kinds(|e| matches!(e, Entry::Header { .. })) >= 10);
    assert!(kinds(|e| matches!(e, Entry::Verify { .. })) >= 10);
    assert!(kinds(|e| matches!(e, Entry::Decode { .. })) >= 3);
    assert!(kinds(|e| matches!(e, Entry::PrivateKey { .. })) >= 3);
    assert!(kinds(|e| matches!(e, Entry::SignLine { .. })) >= 3);
    assert!(kinds(|e| matches!(e, Entry::PublicKey { .. })) >= 1);
    assert!(kinds(|e| matches!(e, Entry::FlowAnswer { .. })) >= 2);
    assert!(kinds(|e| matches!(e, Entry::Forwarded { .. })) >= 3);
    assert!(kinds(|e| matches!(e, Entry::Curl { .. })) >= 4);
}
