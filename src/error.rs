//! The errors of building and signing a request.
//!
//! Every message says what is wrong and where, in lower case without a trailing period, and
//! never contains a secret: not the consumer or token secret, not a private key, not a PLAINTEXT
//! signature.

use std::fmt;

use crate::encode::DecodeError;
use crate::params::Source;

/// Why a request could not be signed.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The URL could not be parsed.
    #[non_exhaustive]
    InvalidUrl {
        /// What the URL parser found.
        source: url::ParseError,
    },
    /// The URL does not start with `http://` or `https://` followed by a host.
    #[non_exhaustive]
    UrlWithoutHost,
    /// The URL's path has a form that clients and servers read differently (a dot segment or
    /// a backslash), or is not sent as it was signed.
    #[non_exhaustive]
    AmbiguousPath {
        /// Which form, where.
        problem: crate::path::AmbiguousPath,
    },
    /// The URL's scheme is neither `http` nor `https`.
    #[non_exhaustive]
    UnsupportedScheme {
        /// The scheme found.
        scheme: String,
    },
    /// The HTTP method is empty or holds a character that a method token cannot have.
    #[non_exhaustive]
    InvalidMethod {
        /// The method as given.
        method: String,
    },
    /// A malformed percent-escape in the query or the form body.
    #[non_exhaustive]
    InvalidPercentEncoding {
        /// Where the escape is: [`Source::Query`] or [`Source::FormBody`].
        location: Source,
        /// The escape and its offset in that part of the request.
        source: DecodeError,
    },
    /// The query or the form body already carries a protocol parameter that the signer adds.
    #[non_exhaustive]
    ProtocolParameterInRequest {
        /// Where the parameter is: [`Source::Query`] or [`Source::FormBody`].
        location: Source,
        /// Its name, such as `oauth_nonce`.
        name: String,
    },
    /// `oauth_body_hash` was asked for on a form body, which the Body Hash extension forbids.
    #[non_exhaustive]
    BodyHashOnFormBody,
    /// A signature method name this crate does not know.
    #[non_exhaustive]
    UnknownSignatureMethod {
        /// The name as given.
        name: String,
    },
    /// An RSA signature method without an RSA private key (or without the `rsa` feature).
    #[non_exhaustive]
    MissingPrivateKey {
        /// The method that needs the key.
        method: crate::method::SignatureMethod,
    },
    /// An RSA private key that could not be read or used.
    #[non_exhaustive]
    InvalidPrivateKey {
        /// What went wrong, without any of the key's contents.
        reason: String,
    },
    /// An RSA public key that could not be read.
    #[non_exhaustive]
    InvalidPublicKey {
        /// What went wrong.
        reason: String,
    },
    /// The signature could not be computed (an RSA operation failed).
    #[non_exhaustive]
    Signing {
        /// What went wrong, without any secret.
        reason: String,
    },
    /// A timestamp that is not a decimal number of seconds.
    #[non_exhaustive]
    InvalidTimestamp {
        /// The text as given.
        text: String,
    },
    /// An empty nonce.
    #[non_exhaustive]
    EmptyNonce,
    /// The token is empty but its secret is not: no server could verify the signature.
    #[non_exhaustive]
    TokenSecretWithoutToken,
    /// A provider profile cannot sign the request as given: its provider would refuse it, or
    /// read another request than the one sent.
    #[non_exhaustive]
    RefusedByProfile {
        /// The profile's name.
        profile: &'static str,
        /// Why, and what to do.
        reason: String,
    },
    /// A realm that cannot be written as a quoted string.
    #[non_exhaustive]
    InvalidRealm,
    /// An `oauth_version` other than `1.0`.
    #[non_exhaustive]
    UnsupportedVersion {
        /// The version as given.
        version: String,
    },
    /// The system clock reads a time before 1970.
    #[non_exhaustive]
    ClockBeforeEpoch,
    /// There is no clock to read: `wasm32-unknown-unknown` without the `js` feature.
    #[non_exhaustive]
    ClockUnavailable,
    /// The `Authorization` header a request was received with, whose parameters are
    /// collected with the request's, could not be read.
    #[non_exhaustive]
    InvalidHeader {
        /// Why, as the header's parser says it.
        detail: String,
    },
    /// The operating system's random number generator failed.
    #[non_exhaustive]
    Random {
        /// What the generator reported.
        source: rand::rngs::SysError,
    },
}

impl fmt::Display for Error {
    #[allow(clippy::too_many_lines)] // one message a variant
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidUrl {
                source: url::ParseError::RelativeUrlWithoutBase,
            } => f.write_str(
                "invalid URL: relative URL without a base: give the whole URL, with its scheme and host, such as https://host/path",
            ),
            Error::InvalidUrl { source } => write!(f, "invalid URL: {source}"),
            Error::UrlWithoutHost => f.write_str(
                "invalid URL: no host after the scheme: write it as http://host/path or https://host/path",
            ),
            Error::AmbiguousPath { problem } => problem.fmt(f),
            Error::UnsupportedScheme { scheme } => write!(
                f,
                "unsupported URL scheme \"{}\": only http and https requests can be signed",
                scheme.escape_debug()
            ),
            Error::InvalidMethod { method } => write!(
                f,
                "invalid HTTP method \"{}\": a method is one or more letters, digits or !#$%&'*+-.^_`|~",
                method.escape_debug()
            ),
            Error::InvalidPercentEncoding { location, source } => write!(
                f,
                "invalid percent-encoding in {} at byte {} (\"{}\"): '%' must be followed by two hex digits",
                location.place(),
                source.offset(),
                source.found().escape_ascii()
            ),
            Error::ProtocolParameterInRequest { location, name } => write!(
                f,
                "{} already has the protocol parameter \"{}\": remove it, the signer adds it",
                location.place(),
                name.escape_debug()
            ),
            Error::BodyHashOnFormBody => f.write_str(
                "oauth_body_hash cannot be sent with a form body (application/x-www-form-urlencoded): its parameters are signed instead",
            ),
            Error::UnknownSignatureMethod { name } => write!(
                f,
                "unknown signature method \"{}\": expected HMAC-SHA1, HMAC-SHA256, HMAC-SHA512, PLAINTEXT, RSA-SHA1 or RSA-SHA256",
                name.escape_debug()
            ),
            Error::MissingPrivateKey { method } => {
                if cfg!(feature = "rsa") {
                    write!(f, "{method} needs an RSA private key")
                } else {
                    write!(
                        f,
                        "{method} needs an RSA private key and the \"rsa\" feature of oauth1-signer"
                    )
                }
            }
            Error::InvalidPrivateKey { reason } => write!(f, "invalid RSA private key: {reason}"),
            Error::InvalidPublicKey { reason } => write!(f, "invalid RSA public key: {reason}"),
            Error::Signing { reason } => write!(f, "signing failed: {reason}"),
            Error::InvalidTimestamp { text } => write!(
                f,
                "invalid timestamp \"{}\": expected a whole number of seconds since 1970, in decimal without leading zeros",
                text.escape_debug()
            ),
            Error::EmptyNonce => f.write_str(
                "the nonce is empty: use a random string unique to the request, such as Nonce::generate makes",
            ),
            Error::TokenSecretWithoutToken => f.write_str(
                "the token is empty but its secret is not: a request without a token is signed with an empty token secret, so give the token, or leave out both",
            ),
            Error::RefusedByProfile { profile, reason } => {
                write!(f, "the {profile} profile cannot sign this request: {reason}")
            }
            Error::InvalidRealm => f.write_str(
                "invalid realm: a realm cannot contain control characters such as line breaks",
            ),
            Error::UnsupportedVersion { version } => write!(
                f,
                "unsupported oauth_version \"{}\": the only version is 1.0",
                version.escape_debug()
            ),
            Error::ClockBeforeEpoch => {
                f.write_str("the system clock reads a time before 1970: set the clock")
            }
            Error::ClockUnavailable => f.write_str(
                "this target has no clock to read (wasm32-unknown-unknown): in a browser or Node.js, turn on oauth1-signer's `js` feature; elsewhere, give the timestamp with Timestamp::new",
            ),
            Error::InvalidHeader { detail } => f.write_str(detail),
            Error::Random { source } => write!(
                f,
                "the operating system's random number generator failed: {source}"
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::InvalidUrl { source } => Some(source),
            Error::InvalidPercentEncoding { source, .. } => Some(source),
            _ => None,
        }
    }
}
