//! `oauth1 verify`: a received request checked as a server checks it.

use oauth1_signer::verify::{
    ConsumerCredential, CredentialStore, MemoryNonceStore, Policy, StoreError, Verified, Verifier,
    VerifyError,
};
use oauth1_signer::{Request, Secret, Timestamp};
use serde::{Deserialize, Serialize};

use super::VerifyArgs;

/// A verify line of the request-case format: the request as received and what the server
/// knows.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Received {
    #[serde(rename = "name")]
    _name: String,
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
    /// This tool's extension: the consumer's RSA public key, for the RSA methods.
    #[serde(default)]
    public_key_pem: Option<String>,
    now: u64,
    #[serde(default)]
    timestamp_window: Option<u64>,
    #[serde(default, rename = "source")]
    _source: Option<serde::de::IgnoredAny>,
    #[serde(default, rename = "expected")]
    _expected: Option<serde::de::IgnoredAny>,
}

/// What the server holds, and only that: the consumer key the request presents has the given
/// shared secret and public key (either may be absent, not both), and a token it presents
/// exists only if a token secret is given.
struct Held {
    consumer: Option<ConsumerCredential>,
    token_secret: Option<Secret>,
}

impl Held {
    fn new(
        consumer_secret: Option<&str>,
        token_secret: Option<&str>,
        public_key_pem: Option<&str>,
    ) -> Result<Held, String> {
        let mut consumer = consumer_secret.map(ConsumerCredential::from_secret);
        if let Some(pem) = public_key_pem {
            #[cfg(feature = "rsa")]
            {
                let key = oauth1_signer::PublicKey::from_pem(pem).map_err(|e| e.to_string())?;
                consumer = Some(
                    match consumer {
                        Some(consumer) => consumer.with_public_key(key),
                        None => ConsumerCredential::from_public_key(key),
                    }
                    .map_err(|e| e.to_string())?,
                );
            }
            #[cfg(not(feature = "rsa"))]
            {
                let _ = (pem, &mut consumer);
                return Err(
                    "a public key needs the rsa feature: cargo install oauth1-signer --features cli,rsa"
                        .to_owned(),
                );
            }
        }
        Ok(Held {
            consumer,
            token_secret: token_secret.map(Secret::from),
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

#[derive(Serialize)]
struct VerdictLine<'a> {
    name: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    valid: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// Verifies one received request against one nonce store.
fn check(
    received: &Received,
    body: &[u8],
    policy: Policy,
    nonces: &MemoryNonceStore,
    now: Timestamp,
) -> Result<Result<Verified, VerifyError>, String> {
    let held = Held::new(
        received.consumer_secret.as_deref(),
        received.token_secret.as_deref(),
        received.public_key_pem.as_deref(),
    )?;
    let request = Request::new(&received.method, &received.url)
        .map_err(|e| e.to_string())?
        .with_body(received.content_type.as_deref().unwrap_or(""), body);
    let verifier = Verifier::new(held, nonces).with_policy(policy);
    Ok(verifier.verify_at(&request, received.authorization.as_deref(), now))
}

fn answer(line: &str, nonces: &MemoryNonceStore) -> String {
    let value = match oauth1_signer::cases::json_object(line) {
        Ok(value) => value,
        Err(message) => return error_line(None, message),
    };
    let name = value.get("name").and_then(serde_json::Value::as_str);
    let received = match Received::deserialize(&value) {
        Ok(received) => received,
        Err(e) => return error_line(name, format!("invalid verify line: {e}")),
    };
    // The command line stands for a server that accepts every method, PLAINTEXT included.
    let mut policy = Policy::default().allow_plaintext(true);
    if let Some(window) = received.timestamp_window {
        policy = policy.with_timestamp_window(window);
    }
    let body = received.body.as_deref().unwrap_or("").as_bytes();
    let verdict = match check(
        &received,
        body,
        policy,
        nonces,
        Timestamp::new(received.now),
    ) {
        Ok(verdict) => verdict,
        Err(message) => return error_line(name, message),
    };
    let line = match verdict {
        Ok(_) => VerdictLine {
            name,
            valid: Some(true),
            reason: None,
            detail: None,
            error: None,
        },
        Err(e) => VerdictLine {
            name,
            valid: Some(false),
            reason: Some(e.reason().as_str()),
            detail: Some(e.to_string()),
            error: None,
        },
    };
    serde_json::to_string(&line).unwrap_or_default()
}

fn error_line(name: Option<&str>, message: String) -> String {
    serde_json::to_string(&VerdictLine {
        name,
        valid: None,
        reason: None,
        detail: None,
        error: Some(message),
    })
    .unwrap_or_default()
}

pub(crate) fn jsonl() -> Result<(), String> {
    let nonces = MemoryNonceStore::new();
    super::each_line(|line| answer(line, &nonces))
}

pub(crate) fn one(args: VerifyArgs) -> Result<(), String> {
    let public_key_pem = super::read_text(args.public_key_file.as_ref(), "the public key file")?;
    // No consumer secret means none is held: an RSA-only consumer.
    let consumer_secret = args.consumer_secret;
    if consumer_secret.is_none() && public_key_pem.is_none() {
        return Err(super::NO_CONSUMER_SECRET.to_owned());
    }
    let body = args.request.read_body()?;
    let now = match args.now {
        Some(now) => Timestamp::new(now),
        None => Timestamp::now().map_err(|e| e.to_string())?,
    };
    let received = Received {
        _name: String::new(),
        method: args.request.method,
        url: args.request.url.unwrap_or_default(),
        body: None,
        content_type: args.request.content_type,
        authorization: args.authorization,
        consumer_secret,
        token_secret: args.token_secret,
        public_key_pem,
        now: now.as_secs(),
        timestamp_window: Some(args.timestamp_window),
        _source: None,
        _expected: None,
    };
    let policy = Policy::default()
        .allow_plaintext(true)
        .with_timestamp_window(args.timestamp_window)
        .allow_plaintext_over_http(args.allow_plaintext_over_http);
    match check(&received, &body, policy, &MemoryNonceStore::new(), now)? {
        Ok(verified) => {
            println!("valid");
            println!("consumer key:  {}", verified.consumer_key());
            if let Some(token) = verified.token() {
                println!("token:         {token}");
            }
            println!("method:        {}", verified.signature_method());
            println!("parameters:    {}", verified.parameters());
            Ok(())
        }
        Err(e) => {
            println!("invalid: {}", e.reason());
            println!("detail:        {e}");
            if let VerifyError::BadSignature { base_string, .. } = &e {
                println!("base string:   {base_string}");
            }
            if let Some(problem) = e.problem() {
                println!(
                    "answer:        {} {}",
                    problem.status(),
                    problem.to_urlencoded()
                );
            }
            Err(format!("the request does not verify ({})", e.reason()))
        }
    }
}
