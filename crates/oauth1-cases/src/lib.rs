//! The request-case format of the `oauth1-signer` tools (`docs/request-cases.md` in its
//! repository), defined once: request cases, verify lines and what the fixtures expect of
//! them, and the answer to one line of `oauth1 sign --jsonl` ([`answer`]), `oauth1 explain
//! --jsonl` ([`explain_answer`]) and `oauth1 verify --jsonl` ([`verify_answer`]). The command
//! line, the debugging page's engine (and the npm package), the tests, the benchmarks and the
//! fuzz targets all read it from here.

// docs.rs builds with `--cfg docsrs`: every item a feature gates says which.
#![cfg_attr(docsrs, feature(doc_cfg))]

/// The README's example, run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod explain;
mod verify;

pub use explain::{explain, explain_answer, explain_within, ExplainLine, ProfileLine, SchemeLine};
pub use verify::{check, verify_answer};

use oauth1_server::{ConsumerCredential, CredentialStore, StoreError, TokenCredential};
use oauth1_signer::{
    BodyHash, Consumer, Error, Nonce, Realm, Request, Secret, SignatureMethod, Signer, Token,
    Version,
};
use serde::{Deserialize, Serialize};

/// A request case (`request-cases.md`): a fixture's case, a `sign --jsonl` line, or an
/// explain line (with `observed`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Case {
    // Required by the format; the result line takes the name from the raw JSON, so that a
    // line that is not a valid case is still answered with its name.
    /// The line's name, echoed in its answer.
    pub name: String,
    /// The HTTP method.
    pub method: String,
    /// The absolute URL, query included, as sent.
    pub url: String,
    /// The body, as text; none when absent.
    #[serde(default)]
    pub body: Option<String>,
    /// The body's `Content-Type`; its parameters are signed only for a form.
    #[serde(default)]
    pub content_type: Option<String>,
    /// `oauth_consumer_key`.
    pub consumer_key: String,
    /// The consumer secret.
    pub consumer_secret: String,
    /// `oauth_token`, if any.
    #[serde(default)]
    pub token: Option<String>,
    /// The token secret, if any.
    #[serde(default)]
    pub token_secret: Option<String>,
    /// `oauth_signature_method`; `HMAC-SHA1` when absent.
    #[serde(default)]
    pub signature_method: Option<String>,
    /// The RSA private key (PEM) of the RSA methods.
    #[serde(default)]
    pub private_key_pem: Option<String>,
    /// `oauth_nonce`.
    pub nonce: String,
    /// `oauth_timestamp`, as text.
    pub timestamp: String,
    /// `oauth_version`: sent as `1.0` when absent, left out when `null`.
    #[serde(default)]
    pub version: VersionField,
    /// `oauth_callback`, for a temporary credential request.
    #[serde(default)]
    pub callback: Option<String>,
    /// `oauth_verifier`, for a token request.
    #[serde(default)]
    pub verifier: Option<String>,
    /// The `realm` of the Authorization header.
    #[serde(default)]
    pub realm: Option<String>,
    /// Whether `oauth_body_hash` is sent.
    #[serde(default)]
    pub body_hash: bool,
    /// Explain lines: what the other side produced.
    #[serde(default)]
    pub observed: Option<ObservedField>,
    /// Where the expected values come from; not used to sign.
    #[serde(default)]
    pub source: Option<String>,
    /// What the fixtures expect, kept as JSON: the tools answer a line whatever it expects,
    /// and the tests read it with [`Case::expected`].
    #[serde(default)]
    pub expected: Option<serde_json::Value>,
}

impl Case {
    /// The case's `expected`, every field known (a misspelt one is an error); empty when
    /// absent.
    ///
    /// # Errors
    ///
    /// serde's, for an `expected` that is not of the format.
    pub fn expected(&self) -> Result<Expected, serde_json::Error> {
        self.expected
            .as_ref()
            .map_or(Ok(Expected::default()), Expected::deserialize)
    }
}

/// What a case expects (`request-cases.md`, `expected`), with this project's extensions.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Expected {
    /// The signature base string.
    #[serde(default)]
    pub base_string: Option<String>,
    /// The signature (`oauth_signature` before percent-encoding).
    #[serde(default)]
    pub signature: Option<String>,
    /// The `Authorization` header value.
    #[serde(default)]
    pub authorization: Option<String>,
    /// Whether signing must fail.
    #[serde(default)]
    pub error: bool,
    /// The exact message of an expected error.
    #[serde(default)]
    pub error_message: Option<String>,
    /// Explain lines: `match`, `explained` or `unexplained`.
    #[serde(default)]
    pub verdict: Option<String>,
    /// Explain lines: the cause ids of the explanation (one, or the two or three that act together).
    #[serde(default)]
    pub causes: Vec<String>,
    /// Explain lines: the ids of the other causes that reproduce the observed value as well,
    /// each alone.
    #[serde(default)]
    pub alternatives: Vec<String>,
    /// Explain lines: the RFC 5849 base string of the request.
    #[serde(default)]
    pub reference_base_string: Option<String>,
    /// Explain lines explained by `parameter-not-signed`: the name of the parameter sent
    /// unsigned.
    #[serde(default)]
    pub unsigned_parameter: Option<String>,
    /// Explain lines explained by `query-start-not-signed`: the names of the query's first
    /// parameters, sent unsigned.
    #[serde(default)]
    pub unsigned_parameters: Option<Vec<String>>,
}

/// The case's `version`: absent (send `1.0`), `null` (omit it), or a string.
#[derive(Default)]
pub enum VersionField {
    /// Absent: `1.0` is sent.
    #[default]
    Absent,
    /// `null`: left out.
    Null,
    /// This text is sent.
    Value(String),
}

impl<'de> Deserialize<'de> for VersionField {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Option::<String>::deserialize(d).map(|v| v.map_or(VersionField::Null, VersionField::Value))
    }
}

/// What signing a case gives.
#[derive(Serialize)]
#[non_exhaustive]
pub struct Outcome {
    /// The signature base string.
    pub base_string: String,
    /// The signature.
    pub signature: String,
    /// The `Authorization` header value.
    pub authorization: String,
}

/// Signs a case with the library's public API.
///
/// # Errors
///
/// The library's, for what it cannot sign.
pub fn sign_case(case: &Case, body: &[u8]) -> Result<Outcome, Error> {
    let done = signer_of(case)?.sign(
        &request_of(case, body)?,
        &Nonce::new(case.nonce.as_str())?,
        case.timestamp.parse()?,
    )?;
    Ok(Outcome {
        base_string: done.base_string().to_string(),
        signature: done.signature().as_str().to_owned(),
        authorization: done.authorization(),
    })
}

/// The signer a case describes.
///
/// # Errors
///
/// The library's, for a signature method or a private key it cannot take.
pub fn signer_of(case: &Case) -> Result<Signer, Error> {
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
        let secret = case.token_secret.as_deref().unwrap_or("");
        signer = signer.with_token(Token::new(token.as_str(), secret));
    }
    if let Some(realm) = &case.realm {
        signer = signer.with_realm(Realm::new(realm.as_str())?);
    }
    signer = match &case.version {
        VersionField::Absent => signer,
        VersionField::Null => signer.with_version(Version::Omit),
        VersionField::Value(version) => signer.with_version(version.parse()?),
    };
    if case.body_hash {
        signer = signer.with_body_hash(BodyHash::Send);
    }
    if let Some(pem) = &case.private_key_pem {
        // Without the `rsa` feature, signing with an RSA method fails with the error that
        // names the missing feature.
        #[cfg(feature = "rsa")]
        {
            signer = signer.with_private_key(oauth1_signer::PrivateKey::from_pem(pem)?);
        }
        #[cfg(not(feature = "rsa"))]
        let _ = pem;
    }
    Ok(signer)
}

/// The request a case describes, with `body`.
///
/// # Errors
///
/// The library's, for a method or URL it cannot take.
pub fn request_of<'a>(case: &'a Case, body: &'a [u8]) -> Result<Request<'a>, Error> {
    let mut request = Request::new(&case.method, &case.url)?
        .with_body(case.content_type.as_deref().unwrap_or(""), body);
    if let Some(callback) = &case.callback {
        request = request.with_callback(callback);
    }
    if let Some(verifier) = &case.verifier {
        request = request.with_verifier(verifier);
    }
    Ok(request)
}

#[derive(Serialize)]
struct ResultLine<'a> {
    name: Option<&'a str>,
    #[serde(flatten)]
    outcome: Option<Outcome>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// Reads one line of a JSON Lines stream, which must be a JSON object; the error is the
/// message to answer the line with.
///
/// # Errors
///
/// That message, for a line that is not JSON or not an object.
pub fn json_object(line: &str) -> Result<serde_json::Value, String> {
    let value: serde_json::Value =
        serde_json::from_str(line).map_err(|e| format!("invalid JSON: {e}"))?;
    if value.is_object() {
        Ok(value)
    } else {
        Err("invalid line: a line is one JSON object, such as {\"name\": \"…\", …}".to_owned())
    }
}

/// Answers one JSON line: its result, or an error that names what to fix.
pub fn answer(line: &str) -> String {
    let value = match json_object(line) {
        Ok(value) => value,
        Err(message) => return error_line(None, &message),
    };
    let name = value.get("name").and_then(serde_json::Value::as_str);
    let case = match Case::deserialize(&value) {
        Ok(case) => case,
        Err(e) => return error_line(name, &format!("invalid case: {e}")),
    };
    let body = case.body.as_deref().unwrap_or("").as_bytes();
    match sign_case(&case, body) {
        Ok(outcome) => to_json(&ResultLine {
            name,
            outcome: Some(outcome),
            error: None,
        }),
        Err(e) => error_line(name, &e.to_string()),
    }
}

fn error_line(name: Option<&str>, message: &str) -> String {
    to_json(&ResultLine {
        name,
        outcome: None,
        error: Some(message.to_owned()),
    })
}

/// A result line as JSON; serializing strings into JSON cannot fail.
fn to_json(line: &ResultLine<'_>) -> String {
    serde_json::to_string(line).unwrap_or_default()
}

/// The `observed` object of an explain line.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObservedField {
    /// The signature the other side computed.
    #[serde(default)]
    pub signature: Option<String>,
    /// The base string the other side built (many servers echo theirs in a 401).
    #[serde(default)]
    pub base_string: Option<String>,
}

/// A verify line (`request-cases.md`): the request as the server received it, and what the
/// server holds.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct VerifyLine {
    /// The line's name, echoed in its answer.
    pub name: String,
    /// The HTTP method.
    pub method: String,
    /// The absolute URL, query included, as sent.
    pub url: String,
    /// The body, as text; none when absent.
    #[serde(default)]
    pub body: Option<String>,
    /// The body's `Content-Type`; its parameters are signed only for a form.
    #[serde(default)]
    pub content_type: Option<String>,
    /// The received `Authorization` header, if any.
    #[serde(default)]
    pub authorization: Option<String>,
    /// The consumer secret.
    #[serde(default)]
    pub consumer_secret: Option<String>,
    /// The token secret, if any.
    #[serde(default)]
    pub token_secret: Option<String>,
    /// This project's extension: the consumer's RSA public key, for the RSA methods.
    #[serde(default)]
    pub public_key_pem: Option<String>,
    /// The server's clock, in seconds since 1970.
    pub now: u64,
    /// The timestamp window, seconds either side of `now`; the library's default when absent.
    #[serde(default)]
    pub timestamp_window: Option<u64>,
    /// Where the expected verdict comes from.
    #[serde(default)]
    pub source: Option<String>,
    /// What the fixtures expect, kept as JSON (see [`VerifyLine::expected`]).
    #[serde(default)]
    pub expected: Option<serde_json::Value>,
}

impl VerifyLine {
    /// The line's `expected`, every field known; empty when absent.
    ///
    /// # Errors
    ///
    /// serde's, for an `expected` that is not of the format.
    pub fn expected(&self) -> Result<VerifyExpected, serde_json::Error> {
        self.expected
            .as_ref()
            .map_or(Ok(VerifyExpected::default()), VerifyExpected::deserialize)
    }

    /// What the server holds for this line.
    ///
    /// # Errors
    ///
    /// The message for a public key that cannot be read or held.
    pub fn held(&self) -> Result<Held, String> {
        Held::new(
            self.consumer_secret.as_deref(),
            self.token_secret.as_deref(),
            self.public_key_pem.as_deref(),
        )
    }

    /// The received request, with `body`.
    ///
    /// # Errors
    ///
    /// The library's, for a method or URL it cannot take.
    pub fn request<'a>(&'a self, body: &'a [u8]) -> Result<Request<'a>, Error> {
        Ok(Request::new(&self.method, &self.url)?
            .with_body(self.content_type.as_deref().unwrap_or(""), body))
    }
}

/// What a verify line expects: a verdict, or an error for a line the server cannot take.
#[derive(Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerifyExpected {
    /// Whether the request verifies.
    #[serde(default)]
    pub valid: Option<bool>,
    /// The failed check's reason id, when it does not.
    #[serde(default)]
    pub reason: Option<String>,
    /// A line the server cannot take (a public key under 2048 bits), and the message.
    #[serde(default)]
    pub error: Option<String>,
}

/// What the server holds, and only that, for whatever consumer key and token a request
/// presents: the consumer has the given shared secret and public key (either may be absent),
/// and a token exists only if a token secret is given.
pub struct Held {
    consumer: Option<ConsumerCredential>,
    token_secret: Option<Secret>,
}

impl Held {
    /// The credentials of a verify line or of `oauth1 verify`'s flags.
    ///
    /// # Errors
    ///
    /// The message for a public key that cannot be read or held, or without the `rsa`
    /// feature.
    pub fn new(
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
                return Err(NO_RSA.to_owned());
            }
        }
        Ok(Held {
            consumer,
            token_secret: token_secret.map(Secret::from),
        })
    }
}

/// Whether cases with RSA keys are read (the feature `rsa`): without it, a case's private key
/// is left out, and signing it fails with the error that names the missing feature.
pub const RSA: bool = cfg!(feature = "rsa");

/// The answer to a public key without the `rsa` feature.
pub const NO_RSA: &str = "a public key needs the rsa feature: cargo install oauth1-cli";

impl CredentialStore for Held {
    async fn consumer(&self, _: &str) -> Result<Option<ConsumerCredential>, StoreError> {
        Ok(self.consumer.clone())
    }

    async fn token(&self, _: &str, _: &str) -> Result<Option<TokenCredential>, StoreError> {
        Ok(self.token_secret.clone().map(TokenCredential::access))
    }
}
