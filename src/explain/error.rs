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
    /// A mismatch cause id that is not one of [`Cause`](super::Cause)'s.
    #[non_exhaustive]
    UnknownCause {
        /// The id as given.
        id: String,
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
            ExplainError::UnknownCause { id } => {
                write!(f, "unknown mismatch cause \"{}\"", id.escape_debug())
            }
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
