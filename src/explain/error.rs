//! Why a diagnosis could not be made.

use std::fmt;

use crate::error::Error;

/// Why a mismatch could not be explained: the request itself cannot be signed (the reference
/// the other side is compared with), there is nothing to compare, or a cause id is not one of
/// the vocabulary's.
#[derive(Debug)]
#[non_exhaustive]
pub enum ExplainError {
    /// The request cannot be signed, so there is no reference to compare with.
    Sign(Error),
    /// Nothing observed to explain: neither a signature nor a base string.
    NothingObserved,
    /// A probe of a method other than `GET` and `HEAD` that was not allowed: repeating it may
    /// change what the server holds.
    #[non_exhaustive]
    MethodNotProbed {
        /// The method.
        method: String,
    },
    /// A probe of an `http` URL signed with PLAINTEXT, whose signature is the consumer secret
    /// and the token secret themselves: each request would send them in clear.
    #[non_exhaustive]
    PlaintextOverHttp {
        /// Where the requests would go: the URL's scheme, host and port.
        origin: String,
    },
    /// A mismatch cause id that is not one of [`Cause`](super::Cause)'s.
    #[non_exhaustive]
    UnknownCause {
        /// The id as given.
        id: String,
    },
    /// A verifier refuses the request as it was received before it computes a signature
    /// (its protocol parameters sent in two places or twice, a version or method it does not
    /// know, ...): whatever the signature, no server accepts it, so none is compared.
    #[non_exhaustive]
    RefusedBeforeSignature {
        /// The verifier's reason, and what to do.
        detail: String,
    },
}

impl fmt::Display for ExplainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExplainError::Sign(e) => e.fmt(f),
            ExplainError::NothingObserved => f.write_str(
                "nothing to explain: give the other side's signature, its base string, or both",
            ),
            ExplainError::MethodNotProbed { method } => write!(
                f,
                "a probe sends the request many times, so only GET and HEAD are probed: allow {} explicitly (--allow-method {0}) if repeating it is harmless",
                method.escape_debug()
            ),
            ExplainError::PlaintextOverHttp { origin } => write!(
                f,
                "the request is signed with PLAINTEXT, whose signature is the consumer secret and the token secret themselves, and its URL is plain http: every request would send them in clear to {}. Probe its https URL, or sign with an HMAC method; for a test server on this machine, allow it explicitly (--allow-plaintext-over-http)",
                origin.escape_debug()
            ),
            ExplainError::UnknownCause { id } => {
                write!(f, "unknown mismatch cause \"{}\"", id.escape_debug())
            }
            ExplainError::RefusedBeforeSignature { detail } => write!(
                f,
                "a verifier refuses this request before it computes a signature, whatever the signature: {detail}"
            ),
        }
    }
}

impl ExplainError {
    /// [`ExplainError::RefusedBeforeSignature`], with the verifier's reason: for the code that
    /// asks a verifier before explaining (a crate of this library's, such as the one behind
    /// `oauth1 explain`).
    #[must_use]
    pub fn refused_before_signature(detail: impl Into<String>) -> Self {
        ExplainError::RefusedBeforeSignature {
            detail: detail.into(),
        }
    }
}

impl std::error::Error for ExplainError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            // Its message is this one's.
            ExplainError::Sign(e) => e.source(),
            _ => None,
        }
    }
}

impl From<Error> for ExplainError {
    fn from(e: Error) -> Self {
        ExplainError::Sign(e)
    }
}
