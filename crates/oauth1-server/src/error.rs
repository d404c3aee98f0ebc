//! Why a request was not verified, and the OAuth Problem Reporting answer that says so.

use std::fmt;

use crate::diagnose::Diagnosis;

use oauth1_signer::encode;
use oauth1_signer::sign::SignatureMethod;

/// An error of the application's credential or nonce store (a database that cannot be
/// reached, say). It is never taken as a verdict on the request.
#[derive(Debug)]
pub struct StoreError(Box<dyn std::error::Error + Send + Sync>);

impl StoreError {
    /// Wraps the store's own error.
    pub fn new(error: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        StoreError(error.into())
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.0)
    }
}

/// The failed check, as the `reason` ids of the request-case format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reason {
    /// The header, query or body cannot be parsed, or exceeds a limit.
    MalformedRequest,
    /// The request's path has a form that a URL parser rewrites and a router does not, so
    /// that the path signed and the path routed could differ
    /// ([`AmbiguousPath`](oauth1_signer::AmbiguousPath)).
    AmbiguousPath,
    /// A required protocol parameter is absent.
    MissingParameter,
    /// A protocol parameter is given twice.
    DuplicateParameter,
    /// The signature method is unknown or not accepted.
    UnsupportedSignatureMethod,
    /// `oauth_version` is not `1.0`.
    BadVersion,
    /// The timestamp is outside the window.
    StaleTimestamp,
    /// The nonce was used before.
    ReplayedNonce,
    /// The signature does not match (or the consumer key or token is unknown).
    BadSignature,
    /// `oauth_body_hash` does not match the body.
    BadBodyHash,
    /// PLAINTEXT over plain http.
    InsecureTransport,
    /// A store failed; no verdict on the request.
    StoreFailure,
    /// The server itself failed (its clock, or computing the signature); no verdict on the
    /// request.
    ServerFailure,
    /// The token is of the wrong kind for the request: temporary credentials on a resource
    /// request, token credentials on a token request, any token on a temporary credential
    /// request.
    TokenRejected,
    /// The token request exchanges temporary credentials the resource owner has not approved
    /// (yet).
    TokenNotAuthorized,
    /// The temporary credentials expired before the token request.
    TokenExpired,
    /// `oauth_verifier` is not the one issued for the temporary credentials.
    VerifierInvalid,
    /// `oauth_callback` is not one the consumer registered
    /// ([`Callbacks`](super::Callbacks)).
    CallbackRejected,
}

impl Reason {
    /// The id: `malformed-request`, `ambiguous-path`, `missing-parameter`, `duplicate-parameter`,
    /// `unsupported-signature-method`, `bad-version`, `stale-timestamp`, `replayed-nonce`,
    /// `bad-signature`, `bad-body-hash`, `insecure-transport`, `store-failure`,
    /// `server-failure`, `token-rejected`, `token-not-authorized`, `token-expired`,
    /// `verifier-invalid`, or `callback-rejected`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::MalformedRequest => "malformed-request",
            Reason::AmbiguousPath => "ambiguous-path",
            Reason::MissingParameter => "missing-parameter",
            Reason::DuplicateParameter => "duplicate-parameter",
            Reason::UnsupportedSignatureMethod => "unsupported-signature-method",
            Reason::BadVersion => "bad-version",
            Reason::StaleTimestamp => "stale-timestamp",
            Reason::ReplayedNonce => "replayed-nonce",
            Reason::BadSignature => "bad-signature",
            Reason::BadBodyHash => "bad-body-hash",
            Reason::InsecureTransport => "insecure-transport",
            Reason::StoreFailure => "store-failure",
            Reason::ServerFailure => "server-failure",
            Reason::TokenRejected => "token-rejected",
            Reason::TokenNotAuthorized => "token-not-authorized",
            Reason::TokenExpired => "token-expired",
            Reason::VerifierInvalid => "verifier-invalid",
            Reason::CallbackRejected => "callback-rejected",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// Why a request was not verified. The message says what the client must change; it never
/// contains a secret or the expected signature.
#[derive(Debug)]
#[non_exhaustive]
pub enum VerifyError {
    /// The header, query or body cannot be parsed, or exceeds a limit.
    #[non_exhaustive]
    Malformed {
        /// What is wrong: the message, and the advice of the problem report.
        detail: String,
        /// The typed error behind it, when there is one (the core's
        /// [`CollectError`](oauth1_signer::server::CollectError) or
        /// [`HeaderError`](oauth1_signer::header::HeaderError), a URL's error, …), as
        /// [`source`](std::error::Error::source) gives it; `detail` is its message.
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    },
    /// The request's path has a form that a URL parser rewrites and a router does not.
    #[non_exhaustive]
    AmbiguousPath {
        /// Which form, where.
        problem: oauth1_signer::AmbiguousPath,
    },
    /// Required protocol parameters are absent.
    #[non_exhaustive]
    MissingParameters {
        /// Their names.
        names: Vec<&'static str>,
        /// Whether the request carries no protocol parameter at all: it is not an OAuth request
        /// yet, so it is answered 401 with a challenge (RFC 7235 §3.1), where one missing some
        /// of them is malformed, 400 (RFC 5849 §3.2).
        unauthenticated: bool,
        /// Whether the request is signed with PLAINTEXT and lacks only `oauth_timestamp` or
        /// `oauth_nonce`, which RFC 5849 §3.1 lets PLAINTEXT leave out: refused all the same,
        /// since nothing would stop a replay, and the message says so.
        plaintext: bool,
    },
    /// A protocol parameter is given twice.
    #[non_exhaustive]
    DuplicateParameter {
        /// Its name.
        name: String,
    },
    /// The signature method is unknown or not accepted.
    #[non_exhaustive]
    UnsupportedSignatureMethod {
        /// The method as sent.
        method: String,
        /// The accepted methods.
        accepted: Vec<SignatureMethod>,
    },
    /// `oauth_version` is not `1.0`.
    #[non_exhaustive]
    BadVersion {
        /// The version as sent.
        version: String,
    },
    /// PLAINTEXT over plain http.
    InsecureTransport,
    /// The timestamp is outside the window.
    #[non_exhaustive]
    StaleTimestamp {
        /// `oauth_timestamp`.
        timestamp: u64,
        /// The server's clock.
        now: u64,
        /// The window, in seconds either side.
        window: u64,
    },
    /// The signature does not match (or the consumer key or token is unknown: the two fail
    /// alike, in the same time).
    #[non_exhaustive]
    BadSignature {
        /// The base string the server built, which a client may compare with its own.
        base_string: String,
        /// Why, when the verifier diagnoses bad signatures
        /// ([`Verifier::with_diagnosis`](super::Verifier::with_diagnosis)).
        diagnosis: Option<Diagnosis>,
    },
    /// `oauth_body_hash` does not match the body, or is sent with a form body.
    #[non_exhaustive]
    BadBodyHash {
        /// What is wrong.
        detail: &'static str,
    },
    /// The nonce was used before with this consumer key, token and timestamp.
    ReplayedNonce,
    /// A store failed.
    Store(StoreError),
    /// The server's clock cannot be read (it is set before 1970).
    #[non_exhaustive]
    Clock {
        /// What the clock said.
        detail: String,
    },
    /// The server cannot compute the signature it expects (an HMAC method without its HMAC).
    #[non_exhaustive]
    Signing {
        /// What failed, without any secret.
        detail: String,
    },
    /// The token is of the wrong kind for the request.
    #[non_exhaustive]
    TokenRejected {
        /// Which kind was used where.
        detail: &'static str,
    },
    /// The token request exchanges temporary credentials not approved (yet).
    TokenNotAuthorized,
    /// The temporary credentials expired.
    TokenExpired,
    /// `oauth_verifier` is not the one issued.
    VerifierInvalid,
    /// `oauth_callback` is not one the consumer registered.
    #[non_exhaustive]
    CallbackRejected {
        /// The callback as sent.
        callback: String,
        /// What the consumer may use instead.
        advice: String,
    },
}

impl VerifyError {
    /// [`VerifyError::Malformed`] saying `detail`.
    pub(crate) fn malformed(detail: impl Into<String>) -> Self {
        VerifyError::Malformed {
            detail: detail.into(),
            source: None,
        }
    }

    /// [`VerifyError::Malformed`] caused by `source`, saying what it says.
    pub(crate) fn malformed_by(source: impl std::error::Error + Send + Sync + 'static) -> Self {
        VerifyError::Malformed {
            detail: source.to_string(),
            source: Some(Box::new(source)),
        }
    }

    /// The diagnosis of a bad signature, when the verifier makes one.
    #[must_use]
    pub fn diagnosis(&self) -> Option<&Diagnosis> {
        match self {
            VerifyError::BadSignature { diagnosis, .. } => diagnosis.as_ref(),
            _ => None,
        }
    }

    /// The failed check.
    #[must_use]
    pub fn reason(&self) -> Reason {
        match self {
            VerifyError::Malformed { .. } => Reason::MalformedRequest,
            VerifyError::AmbiguousPath { .. } => Reason::AmbiguousPath,
            VerifyError::MissingParameters { .. } => Reason::MissingParameter,
            VerifyError::DuplicateParameter { .. } => Reason::DuplicateParameter,
            VerifyError::UnsupportedSignatureMethod { .. } => Reason::UnsupportedSignatureMethod,
            VerifyError::BadVersion { .. } => Reason::BadVersion,
            VerifyError::InsecureTransport => Reason::InsecureTransport,
            VerifyError::StaleTimestamp { .. } => Reason::StaleTimestamp,
            VerifyError::BadSignature { .. } => Reason::BadSignature,
            VerifyError::BadBodyHash { .. } => Reason::BadBodyHash,
            VerifyError::ReplayedNonce => Reason::ReplayedNonce,
            VerifyError::Store(_) => Reason::StoreFailure,
            VerifyError::Clock { .. } | VerifyError::Signing { .. } => Reason::ServerFailure,
            VerifyError::TokenRejected { .. } => Reason::TokenRejected,
            VerifyError::TokenNotAuthorized => Reason::TokenNotAuthorized,
            VerifyError::TokenExpired => Reason::TokenExpired,
            VerifyError::VerifierInvalid => Reason::VerifierInvalid,
            VerifyError::CallbackRejected { .. } => Reason::CallbackRejected,
        }
    }

    /// The HTTP status to answer with (RFC 5849 §3.2): 400 for a request that is malformed
    /// or uses what the server does not support, 401 for one that is not authentic, or that
    /// carries no protocol parameter at all (RFC 7235 §3.1: an unauthenticated request is
    /// challenged), 503 when a store failed, 500 when the server itself did.
    #[must_use]
    pub fn status(&self) -> u16 {
        if let VerifyError::MissingParameters {
            unauthenticated: true,
            ..
        } = self
        {
            return 401;
        }
        match self.reason() {
            Reason::MalformedRequest
            | Reason::AmbiguousPath
            | Reason::MissingParameter
            | Reason::DuplicateParameter
            | Reason::UnsupportedSignatureMethod
            | Reason::BadVersion
            | Reason::InsecureTransport
            | Reason::CallbackRejected => 400,
            Reason::StoreFailure => 503,
            Reason::ServerFailure => 500,
            _ => 401,
        }
    }

    /// The OAuth Problem Reporting answer (`oauth_problem=…`), or `None` for a store or
    /// server failure, which is the server's problem.
    #[must_use]
    pub fn problem(&self) -> Option<Problem> {
        let (problem, extra) = match self {
            VerifyError::Malformed { .. } | VerifyError::AmbiguousPath { .. } => {
                ("parameter_rejected", None)
            }
            VerifyError::MissingParameters { names, .. } => (
                "parameter_absent",
                Some(("oauth_parameters_absent", names.join("&"))),
            ),
            VerifyError::DuplicateParameter { name } => (
                "parameter_rejected",
                Some(("oauth_parameters_rejected", name.clone())),
            ),
            VerifyError::UnsupportedSignatureMethod { .. } | VerifyError::InsecureTransport => {
                ("signature_method_rejected", None)
            }
            VerifyError::BadVersion { .. } => (
                "version_rejected",
                Some(("oauth_acceptable_versions", "1.0-1.0".to_owned())),
            ),
            VerifyError::StaleTimestamp { now, window, .. } => (
                "timestamp_refused",
                Some((
                    "oauth_acceptable_timestamps",
                    format!(
                        "{}-{}",
                        now.saturating_sub(*window),
                        now.saturating_add(*window)
                    ),
                )),
            ),
            VerifyError::BadSignature { .. } | VerifyError::BadBodyHash { .. } => {
                ("signature_invalid", None)
            }
            VerifyError::ReplayedNonce => ("nonce_used", None),
            VerifyError::TokenRejected { .. } => ("token_rejected", None),
            VerifyError::TokenNotAuthorized => ("permission_unknown", None),
            VerifyError::TokenExpired => ("token_expired", None),
            VerifyError::VerifierInvalid => ("verifier_invalid", None),
            VerifyError::CallbackRejected { .. } => (
                "parameter_rejected",
                Some(("oauth_parameters_rejected", "oauth_callback".to_owned())),
            ),
            VerifyError::Store(_) | VerifyError::Clock { .. } | VerifyError::Signing { .. } => {
                return None
            }
        };
        Some(Problem {
            status: self.status(),
            name: problem,
            extra,
            advice: self.to_string(),
        })
    }
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Malformed { detail, .. } => f.write_str(detail),
            VerifyError::AmbiguousPath { problem } => problem.fmt(f),
            VerifyError::MissingParameters {
                names,
                plaintext: true,
                ..
            } => write!(
                f,
                "missing {}: RFC 5849 §3.1 lets PLAINTEXT leave out oauth_timestamp and oauth_nonce, but without them nothing tells a replayed request from a new one, so this server requires them with every method: send both",
                names.join(", ")
            ),
            VerifyError::MissingParameters {
                names,
                unauthenticated: true,
                ..
            } => write!(
                f,
                "the request carries no OAuth protocol parameter (missing {}): sign it with OAuth 1.0a, in an Authorization header that starts with \"OAuth \" (a header of another scheme is not read), the query or a form body",
                names.join(", ")
            ),
            VerifyError::MissingParameters { names, .. } => {
                write!(f, "missing {}", names.join(", "))
            }
            VerifyError::DuplicateParameter { name } => write!(
                f,
                "{} is given more than once; send each protocol parameter once",
                name.escape_default()
            ),
            VerifyError::UnsupportedSignatureMethod { method, accepted } => {
                write!(
                    f,
                    "signature method \"{}\" is not accepted; use ",
                    method.escape_default()
                )?;
                for (i, m) in accepted.iter().enumerate() {
                    if i > 0 {
                        f.write_str(if i + 1 == accepted.len() { " or " } else { ", " })?;
                    }
                    f.write_str(m.as_str())?;
                }
                Ok(())
            }
            VerifyError::BadVersion { version } => write!(
                f,
                "oauth_version \"{}\" is not supported: send 1.0 or leave it out",
                version.escape_default()
            ),
            VerifyError::InsecureTransport => f.write_str(
                "PLAINTEXT sends the secrets and is refused over plain http: use https or an HMAC method",
            ),
            VerifyError::StaleTimestamp {
                timestamp,
                now,
                window,
            } => write!(
                f,
                "oauth_timestamp {timestamp} is {} seconds {} the server's clock ({now}); at most {window} are accepted: check the client's clock",
                timestamp.abs_diff(*now),
                if timestamp < now { "behind" } else { "ahead of" }
            ),
            VerifyError::BadSignature { diagnosis, .. } => {
                f.write_str(
                    "the signature does not match: compare the client's base string with the server's, and check the consumer secret and token secret (an unknown consumer key or token fails this way too)",
                )?;
                match diagnosis {
                    Some(diagnosis) => write!(f, ". Diagnosis: {diagnosis}"),
                    None => Ok(()),
                }
            }
            VerifyError::BadBodyHash { detail } | VerifyError::TokenRejected { detail } => {
                f.write_str(detail)
            }
            VerifyError::ReplayedNonce => f.write_str(
                "this nonce was already used with this consumer key, token and timestamp: sign every request with a fresh nonce",
            ),
            VerifyError::Store(e) => write!(f, "the server's credential or nonce store failed: {e}"),
            VerifyError::Clock { detail } => write!(f, "the server's clock cannot be read: {detail}"),
            VerifyError::Signing { detail } => {
                write!(f, "the server cannot compute the signature: {detail}")
            }
            VerifyError::TokenNotAuthorized => f.write_str(
                "the resource owner has not approved these temporary credentials (yet): send the user to the authorization URL and wait for the callback's oauth_verifier",
            ),
            VerifyError::TokenExpired => f.write_str(
                "the temporary credentials expired: ask for new ones and have the user approve them again",
            ),
            VerifyError::VerifierInvalid => f.write_str(
                "oauth_verifier is not the one issued for these temporary credentials, which are now void: start again with new temporary credentials",
            ),
            VerifyError::CallbackRejected { callback, advice } => write!(
                f,
                "oauth_callback \"{}\" is not registered for this consumer, which {advice}",
                callback.escape_default()
            ),
        }
    }
}

impl std::error::Error for VerifyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            VerifyError::Store(e) => Some(e),
            VerifyError::Malformed {
                source: Some(e), ..
            } => Some(&**e),
            _ => None,
        }
    }
}

impl From<StoreError> for VerifyError {
    fn from(e: StoreError) -> Self {
        VerifyError::Store(e)
    }
}

/// An OAuth Problem Reporting answer: the HTTP status and the `oauth_problem` body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    status: u16,
    name: &'static str,
    extra: Option<(&'static str, String)>,
    advice: String,
}

impl Problem {
    /// The HTTP status, 400 or 401.
    #[must_use]
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The `oauth_problem` value: `parameter_absent`, `parameter_rejected`,
    /// `signature_method_rejected`, `version_rejected`, `timestamp_refused`,
    /// `signature_invalid`, `nonce_used`, `token_rejected`, `permission_unknown`,
    /// `token_expired` or `verifier_invalid`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// `oauth_problem_advice`, as text: what the client should change.
    #[must_use]
    pub fn advice(&self) -> &str {
        &self.advice
    }

    /// The body, `application/x-www-form-urlencoded`: `oauth_problem`, the parameter the
    /// problem defines when it has one (`oauth_parameters_absent`,
    /// `oauth_acceptable_timestamps`, …) and `oauth_problem_advice`.
    #[must_use]
    pub fn to_urlencoded(&self) -> String {
        let mut out = format!("oauth_problem={}", self.name);
        if let Some((name, value)) = &self.extra {
            out.push('&');
            out.push_str(name);
            out.push('=');
            encode::encode(value.as_bytes()).append_to(&mut out);
        }
        out.push_str("&oauth_problem_advice=");
        encode::encode(self.advice.as_bytes()).append_to(&mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The server's own failures are not the store's, nor the client's: 500, no problem
    /// report for the client to act on.
    #[test]
    fn server_failures_are_their_own() {
        let clock = VerifyError::Clock {
            detail: "the clock reads before 1970".to_owned(),
        };
        let signing = VerifyError::Signing {
            detail: "PLAINTEXT is not an HMAC method".to_owned(),
        };
        for (error, text) in [
            (
                &clock,
                "the server's clock cannot be read: the clock reads before 1970",
            ),
            (
                &signing,
                "the server cannot compute the signature: PLAINTEXT is not an HMAC method",
            ),
        ] {
            assert_eq!(error.reason(), Reason::ServerFailure);
            assert_eq!(error.reason().as_str(), "server-failure");
            assert_eq!(error.status(), 500);
            assert!(error.problem().is_none());
            assert_eq!(error.to_string(), text);
        }
        let store = VerifyError::Store(StoreError::new("down"));
        assert_eq!(
            (store.reason(), store.status()),
            (Reason::StoreFailure, 503)
        );
    }
}
