//! The explain line (`request-cases.md`): a request, what the other side produced, and why
//! the two differ, as `oauth1 explain --jsonl` answers it.

use oauth1_server::{
    received_url, MemoryCredentials, MemoryNonceStore, Policy, Verifier, VerifyError,
};
use oauth1_signer::explain::{
    Budget, Cause, ExplainError, Explainer, Explanation, Observed, SchemeTaken,
};
use oauth1_signer::header::Limits;
use oauth1_signer::{Nonce, Request, SignatureMethod, Signer, Timestamp};
use serde::{Deserialize, Serialize};

use crate::{json_object, request_of, signer_of, Case, ObservedField};

/// The answer to an explain line, or to `oauth1 explain --json`: a verdict and its causes, or
/// an error. Fields that do not apply are left out of the JSON.
#[derive(Default, Serialize)]
#[non_exhaustive]
pub struct ExplainLine<'a> {
    /// The line's name (`null` when it has none).
    pub name: Option<&'a str>,
    /// `match`, `explained` or `unexplained`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<&'static str>,
    /// The explanation: one cause, or the two or three that act together.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub causes: Option<Vec<&'static str>>,
    /// Other single causes that reproduce the other side's value as well.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alternatives: Option<Vec<&'static str>>,
    /// With `parameter-not-signed`: the parameter sent unsigned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unsigned_parameter: Option<String>,
    /// With `query-start-not-signed`: the query's first parameters, sent unsigned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unsigned_parameters: Option<Vec<String>>,
    /// The RFC 5849 base string of the request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_base_string: Option<String>,
    /// A sentence a person can act on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The provider profile the answer names (`oauth1 explain --json`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<ProfileLine>,
    /// For a raw request whose target does not say its scheme: the scheme taken, and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheme: Option<SchemeLine>,
    /// What is wrong with the line, and what to do.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl<'a> ExplainLine<'a> {
    /// An explanation as the explain line of the request-case format.
    #[must_use]
    pub fn of(name: Option<&'a str>, explanation: &Explanation) -> Self {
        ExplainLine {
            name,
            verdict: Some(explanation.verdict().as_str()),
            causes: Some(explanation.causes().iter().map(|c| c.id()).collect()),
            alternatives: Some(explanation.alternatives().iter().map(|c| c.id()).collect()),
            unsigned_parameter: explanation.unsigned_parameter().map(str::to_owned),
            unsigned_parameters: explanation
                .causes()
                .contains(&Cause::QueryStartNotSigned)
                .then(|| explanation.unsigned_parameters().to_vec()),
            reference_base_string: Some(explanation.reference_base_string().to_string()),
            detail: Some(explanation.detail()),
            ..ExplainLine::default()
        }
    }

    /// The answer to a line that cannot be explained: `message` says why.
    #[must_use]
    pub fn error(name: Option<&'a str>, message: String) -> Self {
        ExplainLine {
            name,
            error: Some(message),
            ..ExplainLine::default()
        }
    }

    /// The line as JSON (serializing strings into JSON cannot fail).
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The scheme taken for a raw request whose target does not say it, and why.
#[derive(Serialize)]
#[non_exhaustive]
pub struct SchemeLine {
    /// `http` or `https`.
    pub taken: &'static str,
    /// `matches`, `explained-without` or `assumed`.
    pub reason: &'static str,
    /// Why, in words.
    pub detail: String,
}

impl From<SchemeTaken> for SchemeLine {
    fn from(taken: SchemeTaken) -> Self {
        SchemeLine {
            taken: taken.scheme(),
            reason: taken.reason().as_str(),
            detail: taken.why(),
        }
    }
}

/// The provider profile an answer names, and whether the other side computes as it does.
#[derive(Serialize)]
#[non_exhaustive]
pub struct ProfileLine {
    /// The profile's name.
    pub name: &'static str,
    /// Whether the profile reproduces the other side's value.
    pub reproduces: bool,
    /// What `oauth1 explain` prints of it.
    #[serde(skip)]
    pub text: String,
}

impl ProfileLine {
    /// A profile line.
    #[must_use]
    pub fn new(name: &'static str, reproduces: bool, text: String) -> Self {
        ProfileLine {
            name,
            reproduces,
            text,
        }
    }
}

/// Explains a request against what the other side produced; `url` as the user wrote it, and
/// `authorization` the `Authorization` header it was sent with, if any, whose parameters a
/// verifier collects too ([`Explainer::with_authorization_header`]).
///
/// # Errors
///
/// The library's, for a request it cannot explain.
pub fn explain(
    signer: &Signer,
    request: &Request<'_>,
    (nonce, timestamp): (&Nonce, Timestamp),
    (url, authorization): (&str, Option<&str>),
    observed: &ObservedField,
) -> Result<Explanation, ExplainError> {
    explain_within(
        Budget::default(),
        signer,
        request,
        (nonce, timestamp),
        (url, authorization),
        observed,
    )
}

/// [`explain`] within `budget`: [`Budget::of_bytes`]`(0)` decides `match` alone, without
/// searching for a mistake.
///
/// # Errors
///
/// The library's, for a request it cannot explain.
pub fn explain_within(
    budget: Budget,
    signer: &Signer,
    request: &Request<'_>,
    (nonce, timestamp): (&Nonce, Timestamp),
    (url, authorization): (&str, Option<&str>),
    observed: &ObservedField,
) -> Result<Explanation, ExplainError> {
    let mut explainer = Explainer::new(signer, request, nonce, timestamp)
        .with_url_as_written(url)
        .with_budget(budget);
    if let Some(header) = authorization {
        // A header given without its signature (compared with one given apart, or with a base
        // string) is no request a verifier received: only its parameters are read.
        let carries_signature = oauth1_signer::header::Authorization::parse_with(
            header,
            &Limits::new(usize::MAX, usize::MAX),
        )
        .is_ok_and(|h| h.get("oauth_signature").is_some());
        if carries_signature {
            refused_before_signature(url, request, header)?;
        }
        explainer = explainer.with_authorization_header(header);
    }
    explainer.explain(&observed.given())
}

/// What a verifier says of `request` received at `url` with the `Authorization` header
/// `header` before it computes a signature, if it refuses it then: as `oauth1 verify` checks it
/// (its URL as a server reads it; every method, PLAINTEXT over http too), with no limit on its
/// size, so that only its form decides.
fn refused_before_signature(
    url: &str,
    request: &Request<'_>,
    header: &str,
) -> Result<(), ExplainError> {
    let refused =
        |e: VerifyError| ExplainError::refused_before_signature(format!("{}: {e}", e.reason()));
    received_url(url).map_err(refused)?;
    let policy = Policy::default()
        .with_methods(&SignatureMethod::ALL)
        .allow_plaintext(true)
        .allow_plaintext_over_http(true)
        .with_limits(Limits::new(usize::MAX, usize::MAX));
    Verifier::new(MemoryCredentials::new(), MemoryNonceStore::new())
        .with_policy(policy)
        .check_before_signature(request, Some(header))
        .map_err(refused)
}

impl ObservedField {
    /// What the other side produced, as the explainer takes it.
    #[must_use]
    pub fn given(&self) -> Observed<'_> {
        let mut given = Observed::default();
        if let Some(signature) = &self.signature {
            given = given.with_signature(signature);
        }
        if let Some(base_string) = &self.base_string {
            given = given.with_base_string(base_string);
        }
        given
    }
}

/// Explains a case against what the other side produced.
fn explain_case(
    case: &Case,
    body: &[u8],
    observed: &ObservedField,
) -> Result<Explanation, ExplainError> {
    let signer = signer_of(case)?;
    let request = request_of(case, body)?;
    let nonce = Nonce::new(case.nonce.as_str())?;
    explain(
        &signer,
        &request,
        (&nonce, case.timestamp.parse()?),
        (&case.url, None),
        observed,
    )
}

/// Answers one explain line (`oauth1 explain --jsonl`): its verdict and causes, or an error
/// that names what to fix.
#[must_use]
pub fn explain_answer(line: &str) -> String {
    let value = match json_object(line) {
        Ok(value) => value,
        Err(message) => return ExplainLine::error(None, message).to_json(),
    };
    let name = value.get("name").and_then(serde_json::Value::as_str);
    let answer = match Case::deserialize(&value) {
        Err(e) => ExplainLine::error(name, format!("invalid explain line: {e}")),
        Ok(case) => match &case.observed {
            None => ExplainLine::error(
                name,
                "no \"observed\": give observed.signature, observed.base_string, or both"
                    .to_owned(),
            ),
            Some(observed) => {
                let body = case.body.as_deref().unwrap_or("").as_bytes();
                match explain_case(&case, body, observed) {
                    Ok(explanation) => ExplainLine::of(name, &explanation),
                    Err(e) => ExplainLine::error(name, e.to_string()),
                }
            }
        },
    };
    answer.to_json()
}
