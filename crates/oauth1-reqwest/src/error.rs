//! Why a reqwest request could not be signed.

use std::fmt;

/// Why a request could not be signed: the signing core's refusal, or what only a reqwest
/// request can cause (a streamed body, a signed URL reqwest refuses).
#[derive(Debug)]
#[non_exhaustive]
pub enum SignError {
    /// The signing core refused the request: its URL, its parameters, the credentials.
    Sign(oauth1_signer::Error),
    /// The request cannot be signed as it is sent: the form body transport asked of a body
    /// that is not a form (from the core's `http` integration).
    Http(oauth1_signer::http::SignError),
    /// A request body given as a stream, which cannot be read before it is sent, where the
    /// signature needs its bytes: a form body (its parameters are signed), the Body Hash
    /// extension, or the form body transport; or a request the middleware must send again to
    /// follow a redirect. Other streamed bodies (multipart uploads, files) are signed without
    /// being read, as RFC 5849 leaves them out of the signature.
    #[non_exhaustive]
    StreamingBody {
        /// Why the bytes are needed, as a phrase.
        needed_for: &'static str,
    },
    /// The signed request could not be written back (its new URL or header was refused).
    #[non_exhaustive]
    WriteBack {
        /// What was refused.
        reason: String,
    },
}

impl fmt::Display for SignError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SignError::Sign(e) => e.fmt(f),
            SignError::Http(e) => e.fmt(f),
            SignError::StreamingBody { needed_for } => write!(
                f,
                "the request body is a stream, which cannot be read before it is sent, but {needed_for}: give the body as bytes"
            ),
            SignError::WriteBack { reason } => {
                write!(f, "the signed request cannot be written back: {reason}")
            }
        }
    }
}

impl std::error::Error for SignError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            // Their messages are this one's.
            SignError::Sign(e) => e.source(),
            SignError::Http(e) => e.source(),
            _ => None,
        }
    }
}

impl From<oauth1_signer::Error> for SignError {
    fn from(e: oauth1_signer::Error) -> Self {
        SignError::Sign(e)
    }
}

impl From<oauth1_signer::http::SignError> for SignError {
    fn from(e: oauth1_signer::http::SignError) -> Self {
        match e {
            oauth1_signer::http::SignError::Sign(e) => SignError::Sign(e),
            other => SignError::Http(other),
        }
    }
}
