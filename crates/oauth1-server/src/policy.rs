//! What a verifier accepts: the signature methods, the timestamp window, the transport rules
//! and the limits on unauthenticated input.

use oauth1_signer::sign::SignatureMethod;

pub use oauth1_signer::header::Limits;

/// What a [`Verifier`](super::Verifier) accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Policy {
    /// How far, in seconds, `oauth_timestamp` may be from the server's clock, either side.
    /// Default: 300.
    pub timestamp_window: u64,
    /// The signature methods accepted. Default: the HMAC methods, and the RSA methods with the
    /// `rsa` feature; PLAINTEXT only when the application asks for it
    /// ([`Policy::allow_plaintext`]). Each verifies only for a consumer that holds the
    /// credential it needs ([`ConsumerCredential`](super::ConsumerCredential)).
    pub methods: Vec<SignatureMethod>,
    /// Whether PLAINTEXT, which sends the secrets, is accepted over plain `http`.
    /// Default: no.
    pub plaintext_over_http: bool,
    /// Whether a request with a body that is not a form must carry `oauth_body_hash`.
    /// Default: no.
    pub require_body_hash: bool,
    /// Which digest of the body `oauth_body_hash` may be. Default: the signature method's or
    /// SHA-1 ([`BodyHashDigest::OfMethodOrSha1`]), so that what oauthlib's clients send
    /// verifies.
    pub body_hash_digest: BodyHashDigest,
    /// Limits on the unauthenticated input.
    pub limits: Limits,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            timestamp_window: 300,
            methods: SignatureMethod::ALL
                .into_iter()
                .filter(|&m| m != SignatureMethod::Plaintext)
                .filter(|m| cfg!(feature = "rsa") || !m.is_rsa())
                .collect(),
            plaintext_over_http: false,
            require_body_hash: false,
            body_hash_digest: BodyHashDigest::default(),
            limits: Limits::default(),
        }
    }
}

impl Policy {
    /// The timestamp window, in seconds either side of the server's clock.
    #[must_use]
    pub fn with_timestamp_window(mut self, seconds: u64) -> Self {
        self.timestamp_window = seconds;
        self
    }

    /// The accepted signature methods.
    #[must_use]
    pub fn with_methods(mut self, methods: &[SignatureMethod]) -> Self {
        self.methods = methods.to_vec();
        self
    }

    /// Accept PLAINTEXT (or stop accepting it), which sends the secrets themselves and so is
    /// refused by default; over plain `http` it needs
    /// [`allow_plaintext_over_http`](Self::allow_plaintext_over_http) too.
    #[must_use]
    pub fn allow_plaintext(mut self, allow: bool) -> Self {
        let accepted = |m: SignatureMethod| {
            if m == SignatureMethod::Plaintext {
                allow
            } else {
                self.methods.contains(&m)
            }
        };
        self.methods = SignatureMethod::ALL
            .into_iter()
            .filter(|&m| accepted(m))
            .collect();
        self
    }

    /// Accept PLAINTEXT over plain `http` (for tests on loopback; never on a network).
    #[must_use]
    pub fn allow_plaintext_over_http(mut self, allow: bool) -> Self {
        self.plaintext_over_http = allow;
        self
    }

    /// Require `oauth_body_hash` on requests whose body is not a form.
    #[must_use]
    pub fn require_body_hash(mut self, require: bool) -> Self {
        self.require_body_hash = require;
        self
    }

    /// Which digest of the body `oauth_body_hash` may be.
    #[must_use]
    pub fn with_body_hash_digest(mut self, digest: BodyHashDigest) -> Self {
        self.body_hash_digest = digest;
        self
    }

    /// The limits on unauthenticated input.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }
}

/// Which digest of the body a verifier takes as `oauth_body_hash` (the OAuth Request Body Hash
/// extension), base64-encoded either way.
///
/// The extension's draft defines the body hash for the SHA-1 methods only (SHA-1), and says a
/// method's own digest is the one to use; this crate's signer hashes with the method's digest
/// (SHA-256 for the `*-SHA256` methods, SHA-512 for `HMAC-SHA512`). oauthlib, and so
/// requests-oauthlib (with `force_include_body`, as NetSuite's guides use it), sends SHA-1
/// whatever the method. So a verifier takes either by default
/// ([`OfMethodOrSha1`](Self::OfMethodOrSha1)): the hash is inside the signed base string, and
/// its digest changes nothing in what the signature covers. A server that must hold its
/// clients to one digest chooses [`OfMethod`](Self::OfMethod) or [`Sha1`](Self::Sha1).
///
/// ```
/// use oauth1_server::{BodyHashDigest, Policy};
///
/// assert_eq!(Policy::default().body_hash_digest, BodyHashDigest::OfMethodOrSha1);
/// let strict = Policy::default().with_body_hash_digest(BodyHashDigest::OfMethod);
/// assert_eq!(strict.body_hash_digest, BodyHashDigest::OfMethod);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum BodyHashDigest {
    /// The signature method's digest only: SHA-256 for `HMAC-SHA256` and `RSA-SHA256`, SHA-512
    /// for `HMAC-SHA512`, SHA-1 for the others.
    OfMethod,
    /// SHA-1 only, whatever the method: what oauthlib's clients send.
    Sha1,
    /// Either the method's digest or SHA-1. The default.
    #[default]
    OfMethodOrSha1,
}
