//! Server side: verifying a signed request (RFC 5849 §3.2).
//!
//! A [`Verifier`] holds the application's [`CredentialStore`] (consumer and token secrets), a
//! [`NonceStore`] and a [`Policy`]. It reads the protocol parameters from exactly one
//! transport (the `Authorization` header, the query or a form body), then checks, in this
//! order, and stops at the first failure:
//!
//! 1. the required parameters are present, none twice;
//! 2. `oauth_version`, if given, is `1.0`;
//! 3. the signature method is allowed (PLAINTEXT only when the policy asks for it, and then
//!    only over https unless the policy says otherwise);
//! 4. the timestamp is within the policy's window around the server's clock;
//! 5. the signature, over the base string rebuilt by the same code that signs, compared in
//!    constant time, with the credential the method needs ([`ConsumerCredential`]: a shared
//!    secret for HMAC and PLAINTEXT, a public key for RSA); a token the request names must
//!    have been issued to the consumer, whatever the method. An unknown consumer key or
//!    token, or a consumer without the credential the method needs, is checked against a
//!    dummy of the same kind, so it costs about the same time and fails the same way as a
//!    wrong signature;
//! 6. `oauth_body_hash` against the raw body, when present (or required by the policy);
//! 7. only then, the nonce is recorded; a nonce seen before with the same consumer key, token
//!    and timestamp is a replay. A request that fails an earlier check records nothing.
//!
//! ```
//! use oauth1_signer::verify::{MemoryCredentials, MemoryNonceStore, Verifier};
//! use oauth1_signer::{Consumer, Nonce, Request, Signer, Timestamp, Token};
//!
//! // The server knows the client's secrets.
//! let mut credentials = MemoryCredentials::new();
//! credentials.add_consumer("dpf43f3p2l4k3l03", "kd94hf93k423kf44");
//! credentials.add_token("dpf43f3p2l4k3l03", "nnch734d00sl2jdk", "pfkkdhi9sl3r4s00");
//! let verifier = Verifier::new(credentials, MemoryNonceStore::new());
//!
//! // A client signs a request (RFC 5849 §3.1's example)…
//! let request = Request::new("GET", "http://photos.example.net/photos?file=vacation.jpg&size=original")?;
//! let signed = Signer::new(Consumer::new("dpf43f3p2l4k3l03", "kd94hf93k423kf44"))
//!     .with_token(Token::new("nnch734d00sl2jdk", "pfkkdhi9sl3r4s00"))
//!     .sign(&request, &Nonce::new("kllo9940pd9333jh")?, Timestamp::new(1191242096))?;
//! let header = signed.authorization();
//!
//! // …and the server verifies it, at a time within the window.
//! let now = Timestamp::new(1191242100);
//! let verified = verifier.verify_at(&request, Some(&header), now).unwrap();
//! assert_eq!(verified.consumer_key(), "dpf43f3p2l4k3l03");
//! assert_eq!(verified.token(), Some("nnch734d00sl2jdk"));
//!
//! // The same request again is a replay.
//! let replay = verifier.verify_at(&request, Some(&header), now).unwrap_err();
//! assert_eq!(replay.reason().as_str(), "replayed-nonce");
//! # Ok::<(), oauth1_signer::Error>(())
//! ```

use std::collections::hash_map::{Entry, RandomState};
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasher, BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex};

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use subtle::ConstantTimeEq;

use crate::encode;
use crate::header::Authorization;
pub use crate::header::Limits;
use crate::params::{Normalized, Parameters, Source, Span};
use crate::request::{self, Request};
use crate::sign::{self, SignatureMethod, SigningKey};
use crate::{Secret, Timestamp};

/// What a [`Verifier`] accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Policy {
    /// How far, in seconds, `oauth_timestamp` may be from the server's clock, either side.
    /// Default: 300.
    pub timestamp_window: u64,
    /// The signature methods accepted. Default: the HMAC methods, and the RSA methods with the
    /// `rsa` feature; PLAINTEXT only when the application asks for it
    /// ([`Policy::allow_plaintext`]). Each verifies only for a consumer that holds the
    /// credential it needs ([`ConsumerCredential`]).
    pub methods: Vec<SignatureMethod>,
    /// Whether PLAINTEXT, which sends the secrets, is accepted over plain `http`.
    /// Default: no.
    pub plaintext_over_http: bool,
    /// Whether a request with a body that is not a form must carry `oauth_body_hash`.
    /// Default: no.
    pub require_body_hash: bool,
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

    /// The limits on unauthenticated input.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }
}

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

/// What the server holds for a consumer: a shared secret (for HMAC and PLAINTEXT), an RSA
/// public key (for `RSA-SHA1` and `RSA-SHA256`, feature `rsa`), or both. A signature method
/// verifies only with the credential it needs: a consumer registered with a public key alone
/// is never checked against an empty secret, which anyone could sign with.
///
/// An empty shared secret is still a shared secret (some published examples use one); a
/// consumer should not be registered with one, since then only the token secret is secret.
///
/// ```
/// use oauth1_signer::verify::ConsumerCredential;
///
/// let consumer = ConsumerCredential::from_secret("kd94hf93k423kf44");
/// assert_eq!(consumer.secret().map(|s| s.expose()), Some(&b"kd94hf93k423kf44"[..]));
/// ```
#[derive(Clone)]
pub struct ConsumerCredential {
    secret: Option<Secret>,
    #[cfg(feature = "rsa")]
    public_key: Option<crate::PublicKey>,
}

impl fmt::Debug for ConsumerCredential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("ConsumerCredential");
        s.field("secret", &self.secret);
        #[cfg(feature = "rsa")]
        s.field(
            "public_key",
            &self.public_key.as_ref().map(crate::PublicKey::bits),
        );
        s.finish()
    }
}

/// The fewest bits of an RSA public key a verifier accepts.
#[cfg(feature = "rsa")]
pub const MIN_RSA_BITS: usize = 2048;

impl ConsumerCredential {
    /// A consumer holding a shared secret.
    pub fn from_secret(secret: impl Into<Secret>) -> Self {
        ConsumerCredential {
            secret: Some(secret.into()),
            #[cfg(feature = "rsa")]
            public_key: None,
        }
    }

    /// A consumer holding an RSA public key and no shared secret.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidPublicKey`](crate::Error::InvalidPublicKey) for a key of fewer than
    /// [`MIN_RSA_BITS`] bits, which can be factored.
    #[cfg(feature = "rsa")]
    pub fn from_public_key(key: crate::PublicKey) -> Result<Self, crate::Error> {
        ConsumerCredential {
            secret: None,
            public_key: None,
        }
        .with_public_key(key)
    }

    /// This consumer with an RSA public key as well (or instead of the one it had).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidPublicKey`](crate::Error::InvalidPublicKey) for a key of fewer than
    /// [`MIN_RSA_BITS`] bits.
    #[cfg(feature = "rsa")]
    pub fn with_public_key(mut self, key: crate::PublicKey) -> Result<Self, crate::Error> {
        if key.bits() < MIN_RSA_BITS {
            return Err(crate::Error::InvalidPublicKey {
                reason: format!(
                    "the key has {} bits; a verifier accepts keys of {MIN_RSA_BITS} bits or more",
                    key.bits()
                ),
            });
        }
        self.public_key = Some(key);
        Ok(self)
    }

    /// This consumer with a shared secret as well (or instead of the one it had).
    #[must_use]
    pub fn with_secret(mut self, secret: impl Into<Secret>) -> Self {
        self.secret = Some(secret.into());
        self
    }

    /// The shared secret, for HMAC and PLAINTEXT, if the consumer has one.
    #[must_use]
    pub fn secret(&self) -> Option<&Secret> {
        self.secret.as_ref()
    }

    /// The RSA public key, for `RSA-SHA1` and `RSA-SHA256`, if the consumer has one.
    #[cfg(feature = "rsa")]
    #[must_use]
    pub fn public_key(&self) -> Option<&crate::PublicKey> {
        self.public_key.as_ref()
    }
}

/// Where the application keeps the credentials of its clients.
pub trait CredentialStore {
    /// What is held for `consumer_key`, or `None` if the key is unknown.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] if the store cannot answer.
    fn consumer(&self, consumer_key: &str) -> Result<Option<ConsumerCredential>, StoreError>;

    /// The secret of `token`, or `None` unless such a token was issued to `consumer_key`.
    /// Every signature method asks: a token that is unknown or another consumer's is refused
    /// whatever the method, RSA included.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] if the store cannot answer.
    fn token_secret(&self, consumer_key: &str, token: &str) -> Result<Option<Secret>, StoreError>;
}

impl<T: CredentialStore + ?Sized> CredentialStore for &T {
    fn consumer(&self, consumer_key: &str) -> Result<Option<ConsumerCredential>, StoreError> {
        (**self).consumer(consumer_key)
    }
    fn token_secret(&self, consumer_key: &str, token: &str) -> Result<Option<Secret>, StoreError> {
        (**self).token_secret(consumer_key, token)
    }
}

impl<T: CredentialStore + ?Sized> CredentialStore for Arc<T> {
    fn consumer(&self, consumer_key: &str) -> Result<Option<ConsumerCredential>, StoreError> {
        (**self).consumer(consumer_key)
    }
    fn token_secret(&self, consumer_key: &str, token: &str) -> Result<Option<Secret>, StoreError> {
        (**self).token_secret(consumer_key, token)
    }
}

/// Credentials held in memory: for tests, tools and small deployments.
#[derive(Clone, Debug, Default)]
pub struct MemoryCredentials {
    consumers: HashMap<String, ConsumerCredential>,
    /// Token secrets by consumer key, then token: looked up without making a key.
    tokens: HashMap<String, HashMap<String, Secret>>,
}

impl MemoryCredentials {
    /// No credentials.
    #[must_use]
    pub fn new() -> Self {
        MemoryCredentials::default()
    }

    /// Gives `consumer_key` a shared secret (replacing the one it had, keeping its public
    /// key).
    pub fn add_consumer(&mut self, consumer_key: impl Into<String>, secret: impl Into<Secret>) {
        let secret = secret.into();
        match self.consumers.entry(consumer_key.into()) {
            Entry::Occupied(mut held) => held.get_mut().secret = Some(secret),
            Entry::Vacant(slot) => {
                slot.insert(ConsumerCredential::from_secret(secret));
            }
        }
    }

    /// Adds (or replaces) a token issued to `consumer_key`.
    pub fn add_token(
        &mut self,
        consumer_key: impl Into<String>,
        token: impl Into<String>,
        secret: impl Into<Secret>,
    ) {
        self.tokens
            .entry(consumer_key.into())
            .or_default()
            .insert(token.into(), secret.into());
    }

    /// Gives `consumer_key` an RSA public key (replacing the one it had, keeping its shared
    /// secret); a consumer added this way alone has no shared secret, so HMAC and PLAINTEXT
    /// never verify for it.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidPublicKey`](crate::Error::InvalidPublicKey) for a key of fewer than
    /// [`MIN_RSA_BITS`] bits.
    #[cfg(feature = "rsa")]
    pub fn add_public_key(
        &mut self,
        consumer_key: impl Into<String>,
        key: crate::PublicKey,
    ) -> Result<(), crate::Error> {
        let checked = ConsumerCredential::from_public_key(key)?;
        match self.consumers.entry(consumer_key.into()) {
            Entry::Occupied(mut held) => held.get_mut().public_key = checked.public_key,
            Entry::Vacant(slot) => {
                slot.insert(checked);
            }
        }
        Ok(())
    }
}

impl CredentialStore for MemoryCredentials {
    fn consumer(&self, consumer_key: &str) -> Result<Option<ConsumerCredential>, StoreError> {
        Ok(self.consumers.get(consumer_key).cloned())
    }

    fn token_secret(&self, consumer_key: &str, token: &str) -> Result<Option<Secret>, StoreError> {
        Ok(self
            .tokens
            .get(consumer_key)
            .and_then(|tokens| tokens.get(token))
            .cloned())
    }
}

/// The scope of a nonce (§3.3): unique per consumer key, token and timestamp.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NonceKey<'a> {
    /// `oauth_consumer_key`.
    pub consumer_key: &'a str,
    /// `oauth_token`, if any.
    pub token: Option<&'a str>,
    /// `oauth_timestamp`.
    pub timestamp: Timestamp,
    /// `oauth_nonce`, decoded.
    pub nonce: &'a [u8],
}

impl NonceKey<'_> {
    /// One string for the whole scope: `enc(consumer_key)&enc(token)&timestamp&enc(nonce)`,
    /// unambiguous because no encoded part contains `&`: a key for a store shared by several
    /// servers (`RedisNonceStore` uses it). The memory store keeps a fingerprint instead.
    #[must_use]
    pub fn to_key_string(&self) -> String {
        let mut key = String::with_capacity(
            self.consumer_key.len() + self.nonce.len() + self.token.map_or(0, str::len) + 24,
        );
        encode::encode(self.consumer_key.as_bytes()).append_to(&mut key);
        key.push('&');
        encode::encode(self.token.unwrap_or("").as_bytes()).append_to(&mut key);
        key.push('&');
        for &digit in self.timestamp.digits(&mut [0; 20]) {
            key.push(char::from(digit));
        }
        key.push('&');
        encode::encode(self.nonce).append_to(&mut key);
        key
    }
}

/// Where verified nonces are recorded, to refuse replays.
///
/// An entry must be kept until `expires_at` and may be dropped after it. The verifier sets
/// `expires_at` to `oauth_timestamp` plus twice the window plus one second: this server
/// accepts the timestamp up to the end of the second `oauth_timestamp + window` by its clock,
/// and the second window covers other instances sharing the store whose clocks differ from
/// this one's by up to the window. A store that counts expiry in whole seconds from the
/// moment it writes (`now` is the clock's reading rounded down) keeps the entry at least that
/// long.
pub trait NonceStore {
    /// Records `nonce` if it is new, atomically; returns `true` if it was new, `false` if it
    /// was already recorded (a replay).
    ///
    /// # Errors
    ///
    /// A [`StoreError`] if the store cannot answer; the verification then fails with it and
    /// never passes.
    fn insert(
        &self,
        nonce: &NonceKey<'_>,
        now: Timestamp,
        expires_at: Timestamp,
    ) -> Result<bool, StoreError>;
}

impl<T: NonceStore + ?Sized> NonceStore for &T {
    fn insert(
        &self,
        nonce: &NonceKey<'_>,
        now: Timestamp,
        expires_at: Timestamp,
    ) -> Result<bool, StoreError> {
        (**self).insert(nonce, now, expires_at)
    }
}

impl<T: NonceStore + ?Sized> NonceStore for Arc<T> {
    fn insert(
        &self,
        nonce: &NonceKey<'_>,
        now: Timestamp,
        expires_at: Timestamp,
    ) -> Result<bool, StoreError> {
        (**self).insert(nonce, now, expires_at)
    }
}

/// A nonce store in this process's memory, for one server instance. Expired entries are
/// dropped as time passes. Several instances need a shared store, such as
/// `RedisNonceStore` (feature `redis`).
///
/// Each nonce is held as a 128-bit fingerprint of its scope (consumer key, token, timestamp
/// and nonce) with its expiry, 32 bytes in all, rather than as a string: the standard
/// library's keyed hash (`RandomState`, SipHash-1-3 today) with a random key drawn for the
/// store, twice with a different first byte, computed before the store is locked. Two scopes
/// share a fingerprint (and the second is refused as a replay) with a chance of about
/// n² / 2¹²⁹ for n nonces held, about 10⁻²¹ for a billion; one who does not know the key
/// cannot do better, nor choose nonces that crowd the table.
#[derive(Debug, Default)]
pub struct MemoryNonceStore {
    /// The key of the fingerprints.
    keys: RandomState,
    state: Mutex<MemoryState>,
}

#[derive(Debug, Default)]
struct MemoryState {
    /// Expiry by fingerprint; the fingerprint is already a keyed hash, so the table uses it as
    /// it is.
    expires: HashMap<u128, u64, BuildHasherDefault<Fingerprinted>>,
    next_purge: u64,
}

/// The hasher of fingerprints, which are already keyed hashes: their low 64 bits.
#[derive(Debug, Default)]
struct Fingerprinted(u64);

impl Hasher for Fingerprinted {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `u128`s are hashed; any other bytes are folded in all the same.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    #[allow(clippy::cast_possible_truncation)] // the low 64 bits, on purpose
    fn write_u128(&mut self, fingerprint: u128) {
        self.0 = fingerprint as u64;
    }
}

impl MemoryNonceStore {
    /// An empty store.
    #[must_use]
    pub fn new() -> Self {
        MemoryNonceStore::default()
    }

    /// The number of nonces held (expired ones included until the next purge).
    ///
    /// # Panics
    ///
    /// Never: a poisoned lock is read through.
    #[must_use]
    pub fn len(&self) -> usize {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .expires
            .len()
    }

    /// Whether the store holds no nonce.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The fingerprint of a nonce's scope. Each part is framed (strings end with 0xFF, which
    /// UTF-8 never holds; the nonce, which may, comes with its length), so that two scopes
    /// never hash the same bytes. No token and an empty one are the same scope, as in
    /// [`NonceKey::to_key_string`].
    fn fingerprint(&self, key: &NonceKey<'_>) -> u128 {
        let half = |domain: u8| {
            let mut hasher = self.keys.build_hasher();
            hasher.write_u8(domain);
            for text in [key.consumer_key, key.token.unwrap_or("")] {
                hasher.write(text.as_bytes());
                hasher.write_u8(0xFF);
            }
            hasher.write_u64(key.timestamp.as_secs());
            hasher.write_usize(key.nonce.len());
            hasher.write(key.nonce);
            hasher.finish()
        };
        u128::from(half(0)) << 64 | u128::from(half(1))
    }
}

impl NonceStore for MemoryNonceStore {
    fn insert(
        &self,
        nonce: &NonceKey<'_>,
        now: Timestamp,
        expires_at: Timestamp,
    ) -> Result<bool, StoreError> {
        let fingerprint = self.fingerprint(nonce);
        let mut state = self
            .state
            .lock()
            .map_err(|_| StoreError::new("the nonce store's lock is poisoned"))?;
        let now = now.as_secs();
        if now >= state.next_purge {
            state.expires.retain(|_, expires| *expires >= now);
            state.next_purge = now.saturating_add(60);
        }
        match state.expires.entry(fingerprint) {
            Entry::Occupied(entry) if *entry.get() >= now => Ok(false),
            Entry::Occupied(mut entry) => {
                entry.insert(expires_at.as_secs());
                Ok(true)
            }
            Entry::Vacant(entry) => {
                entry.insert(expires_at.as_secs());
                Ok(true)
            }
        }
    }
}

mod origin;
pub use origin::{ProxyHeaders, PublicOrigin};

#[cfg(feature = "redis")]
mod redis_store;
#[cfg(feature = "redis")]
pub use redis_store::RedisNonceStore;

/// The failed check, as the `reason` ids of the request-case format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reason {
    /// The header, query or body cannot be parsed, or exceeds a limit.
    MalformedRequest,
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
}

impl Reason {
    /// The id: `malformed-request`, `missing-parameter`, `duplicate-parameter`,
    /// `unsupported-signature-method`, `bad-version`, `stale-timestamp`, `replayed-nonce`,
    /// `bad-signature`, `bad-body-hash`, `insecure-transport`, or `store-failure`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::MalformedRequest => "malformed-request",
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
        /// What is wrong.
        detail: String,
    },
    /// Required protocol parameters are absent.
    #[non_exhaustive]
    MissingParameters {
        /// Their names.
        names: Vec<&'static str>,
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
}

impl VerifyError {
    /// The failed check.
    #[must_use]
    pub fn reason(&self) -> Reason {
        match self {
            VerifyError::Malformed { .. } => Reason::MalformedRequest,
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
        }
    }

    /// The HTTP status to answer with (RFC 5849 §3.2): 400 for a request that is malformed
    /// or uses what the server does not support, 401 for one that is not authentic, 503 when
    /// a store failed.
    #[must_use]
    pub fn status(&self) -> u16 {
        match self.reason() {
            Reason::MalformedRequest
            | Reason::MissingParameter
            | Reason::DuplicateParameter
            | Reason::UnsupportedSignatureMethod
            | Reason::BadVersion
            | Reason::InsecureTransport => 400,
            Reason::StoreFailure => 503,
            _ => 401,
        }
    }

    /// The OAuth Problem Reporting answer (`oauth_problem=…`), or `None` for a store failure,
    /// which is the server's problem.
    #[must_use]
    pub fn problem(&self) -> Option<Problem> {
        let (problem, extra) = match self {
            VerifyError::Malformed { .. } => ("parameter_rejected", None),
            VerifyError::MissingParameters { names } => (
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
            VerifyError::Store(_) => return None,
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
            VerifyError::Malformed { detail } => f.write_str(detail),
            VerifyError::MissingParameters { names } => {
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
            VerifyError::BadSignature { .. } => f.write_str(
                "the signature does not match: compare the client's base string with the server's, and check the consumer secret and token secret (an unknown consumer key or token fails this way too)",
            ),
            VerifyError::BadBodyHash { detail } => f.write_str(detail),
            VerifyError::ReplayedNonce => f.write_str(
                "this nonce was already used with this consumer key, token and timestamp: sign every request with a fresh nonce",
            ),
            VerifyError::Store(e) => write!(f, "the server's credential or nonce store failed: {e}"),
        }
    }
}

impl std::error::Error for VerifyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            VerifyError::Store(e) => Some(e),
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
    /// `signature_invalid` or `nonce_used`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        self.name
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

/// The `WWW-Authenticate` value of a 401 answer: `OAuth realm="…"` (RFC 5849 §3.2).
#[must_use]
pub fn www_authenticate(realm: &crate::Realm) -> String {
    crate::header::build(Some(realm), std::iter::empty())
}

/// A verified request: who signed it, and everything it signed.
#[derive(Clone, Debug)]
pub struct Verified {
    consumer_key: String,
    token: Option<String>,
    method: SignatureMethod,
    timestamp: Timestamp,
    realm: Option<String>,
    params: Normalized,
}

impl Verified {
    /// `oauth_consumer_key`.
    #[must_use]
    pub fn consumer_key(&self) -> &str {
        &self.consumer_key
    }

    /// `oauth_token`, if the request carried a non-empty one: a token the credential store
    /// holds for [`consumer_key`](Self::consumer_key), whatever the signature method.
    #[must_use]
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// The signature method.
    #[must_use]
    pub fn signature_method(&self) -> SignatureMethod {
        self.method
    }

    /// `oauth_timestamp`.
    #[must_use]
    pub fn timestamp(&self) -> Timestamp {
        self.timestamp
    }

    /// The realm of the Authorization header, if any.
    #[must_use]
    pub fn realm(&self) -> Option<&str> {
        self.realm.as_deref()
    }

    /// Every signed parameter (query, form body and protocol, `oauth_signature` excepted), in
    /// normalized order.
    #[must_use]
    pub fn parameters(&self) -> &Normalized {
        &self.params
    }

    /// The value of the protocol parameter `name` (`oauth_callback`, `oauth_verifier`, …).
    #[must_use]
    pub fn protocol_parameter(&self, name: &str) -> Option<&[u8]> {
        self.params
            .iter()
            .find(|p| p.name.starts_with(b"oauth_") && p.name == name.as_bytes())
            .map(|p| p.value)
    }
}

/// Verifies signed requests; see the [module documentation](self) for the checks.
#[derive(Debug)]
pub struct Verifier<C, N> {
    credentials: C,
    nonces: N,
    policy: Policy,
}

/// The protocol parameters of the transport that carries them: where their values lie in the
/// collected parameters, which stay put through `retain` and `normalize`. The signature is
/// copied out, since `retain` then wipes it from the parameters.
#[derive(Default)]
struct Protocol {
    consumer_key: Option<Span>,
    token: Option<Span>,
    signature_method: Option<Span>,
    signature: Option<zeroize::Zeroizing<Vec<u8>>>,
    timestamp: Option<Span>,
    nonce: Option<Span>,
    version: Option<Span>,
    body_hash: Option<Span>,
}

impl<C: CredentialStore, N: NonceStore> Verifier<C, N> {
    /// A verifier with the default [`Policy`].
    pub fn new(credentials: C, nonces: N) -> Self {
        Verifier {
            credentials,
            nonces,
            policy: Policy::default(),
        }
    }

    /// The policy.
    #[must_use]
    pub fn with_policy(mut self, policy: Policy) -> Self {
        self.policy = policy;
        self
    }

    /// The policy in force.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The credential store.
    pub fn credentials(&self) -> &C {
        &self.credentials
    }

    /// The nonce store.
    pub fn nonces(&self) -> &N {
        &self.nonces
    }

    /// Verifies `request` (its URL the public one the client used), with its `Authorization`
    /// header if it has one, at the system clock's time.
    ///
    /// # Errors
    ///
    /// A [`VerifyError`] naming the first failed check.
    pub fn verify(
        &self,
        request: &Request<'_>,
        authorization: Option<&str>,
    ) -> Result<Verified, VerifyError> {
        let now = Timestamp::now().map_err(|e| VerifyError::Store(StoreError::new(e)))?;
        self.verify_at(request, authorization, now)
    }

    /// Checks 1 to 4 (the protocol parameters, the version, the method, the timestamp) of a
    /// request whose body is not read yet, given without it, at the system clock's time: a
    /// server refuses what it can before it reads a body (the `tower` layer does). Passing
    /// proves nothing: [`verify`](Self::verify) the whole request next.
    ///
    /// # Errors
    ///
    /// A [`VerifyError`] naming the first failed check.
    pub fn check_before_body(
        &self,
        request: &Request<'_>,
        authorization: Option<&str>,
    ) -> Result<(), VerifyError> {
        let now = Timestamp::now().map_err(|e| VerifyError::Store(StoreError::new(e)))?;
        let (mut params, _) = self.collect(request, authorization)?;
        let protocol = find_protocol(&params);
        params.retain(|p| p.name != b"oauth_signature");
        self.check_protocol(request, &params, &protocol?, now)?;
        Ok(())
    }

    /// Verifies `request` with the server's clock reading `now`.
    ///
    /// # Errors
    ///
    /// A [`VerifyError`] naming the first failed check.
    pub fn verify_at(
        &self,
        request: &Request<'_>,
        authorization: Option<&str>,
        now: Timestamp,
    ) -> Result<Verified, VerifyError> {
        let (mut params, realm) = self.collect(request, authorization)?;
        let protocol = find_protocol(&params);
        // A PLAINTEXT signature is the key: wiped now, whichever check fails next. The
        // protocol keeps its own copy, wiped when it is dropped.
        params.retain(|p| p.name != b"oauth_signature");
        let protocol = protocol?;

        let (method, timestamp) = self.check_protocol(request, &params, &protocol, now)?;
        let window = self.policy.timestamp_window;

        // 5. Signature, over the base string rebuilt by the signing code.
        let utf8 = |span: Option<&Span>, name: &str| {
            std::str::from_utf8(params.at(span))
                .map(str::to_owned)
                .map_err(|_| malformed(format!("{name} is not UTF-8")))
        };
        let consumer_key = utf8(protocol.consumer_key.as_ref(), "oauth_consumer_key")?;
        let token = Some(utf8(protocol.token.as_ref(), "oauth_token")?).filter(|t| !t.is_empty());
        let params = params.normalize();
        let base_string = request::build_base_string(request, &params).map_err(malformed)?;
        let signature = protocol
            .signature
            .as_ref()
            .map_or(&[][..], |s| s.as_slice());
        let authentic = self.check_signature(
            method,
            &consumer_key,
            token.as_deref(),
            base_string.as_bytes(),
            signature,
        )?;
        if !authentic {
            return Err(VerifyError::BadSignature {
                base_string: base_string.into_string(),
            });
        }

        // 6. Body hash.
        if protocol.body_hash.is_some() {
            let sent = params.at(protocol.body_hash.as_ref());
            if request.has_form_body() {
                return Err(VerifyError::BadBodyHash {
                    detail: "oauth_body_hash is sent with a form body, whose parameters are signed instead: leave it out",
                });
            }
            let expected = sign::body_hash(method, request.body());
            if !bool::from(expected.as_bytes().ct_eq(sent)) {
                return Err(VerifyError::BadBodyHash {
                    detail:
                        "oauth_body_hash does not match the body: hash the body exactly as sent",
                });
            }
        }

        // 7. Nonce, last: only an authentic request is recorded.
        let nonce = params.at(protocol.nonce.as_ref());
        let key = NonceKey {
            consumer_key: &consumer_key,
            token: token.as_deref(),
            timestamp,
            nonce,
        };
        let expires_at = nonce_expiry(timestamp, window);
        if !self.nonces.insert(&key, now, expires_at)? {
            return Err(VerifyError::ReplayedNonce);
        }

        Ok(Verified {
            consumer_key,
            token,
            method,
            timestamp,
            realm,
            params,
        })
    }

    /// Checks 1 to 4: required parameters, version, signature method, timestamp.
    fn check_protocol(
        &self,
        request: &Request<'_>,
        params: &Parameters,
        protocol: &Protocol,
        now: Timestamp,
    ) -> Result<(SignatureMethod, Timestamp), VerifyError> {
        // 1. Required parameters.
        let body_hash_required =
            self.policy.require_body_hash && !request.has_form_body() && !request.body().is_empty();
        let required = [
            ("oauth_consumer_key", protocol.consumer_key.is_some()),
            (
                "oauth_signature_method",
                protocol.signature_method.is_some(),
            ),
            ("oauth_signature", protocol.signature.is_some()),
            ("oauth_timestamp", protocol.timestamp.is_some()),
            ("oauth_nonce", protocol.nonce.is_some()),
            (
                "oauth_body_hash",
                protocol.body_hash.is_some() || !body_hash_required,
            ),
        ];
        let missing: Vec<&'static str> = required
            .iter()
            .filter(|(_, present)| !present)
            .map(|(name, _)| *name)
            .collect();
        if !missing.is_empty() {
            return Err(VerifyError::MissingParameters { names: missing });
        }
        let text = |span: Option<&Span>| String::from_utf8_lossy(params.at(span)).into_owned();

        // 2. Version.
        if protocol.version.is_some() && params.at(protocol.version.as_ref()) != b"1.0" {
            return Err(VerifyError::BadVersion {
                version: text(protocol.version.as_ref()),
            });
        }

        // 3. Signature method.
        let method = std::str::from_utf8(params.at(protocol.signature_method.as_ref()))
            .ok()
            .and_then(|m| m.parse::<SignatureMethod>().ok())
            .filter(|m| self.policy.methods.contains(m))
            .ok_or_else(|| VerifyError::UnsupportedSignatureMethod {
                method: text(protocol.signature_method.as_ref()),
                accepted: self.policy.methods.clone(),
            })?;
        if method == SignatureMethod::Plaintext
            && request.url().scheme() != "https"
            && !self.policy.plaintext_over_http
        {
            return Err(VerifyError::InsecureTransport);
        }

        // 4. Timestamp.
        let timestamp = std::str::from_utf8(params.at(protocol.timestamp.as_ref()))
            .ok()
            .and_then(|t| t.parse::<Timestamp>().ok())
            .ok_or_else(|| VerifyError::Malformed {
                detail: format!(
                    "oauth_timestamp \"{}\" is not a whole number of seconds since 1970",
                    text(protocol.timestamp.as_ref()).escape_default()
                ),
            })?;
        let window = self.policy.timestamp_window;
        if timestamp.as_secs().abs_diff(now.as_secs()) > window {
            return Err(VerifyError::StaleTimestamp {
                timestamp: timestamp.as_secs(),
                now: now.as_secs(),
                window,
            });
        }

        Ok((method, timestamp))
    }

    /// Collects the query, form body and header parameters (all but `realm`), within the
    /// limits.
    fn collect(
        &self,
        request: &Request<'_>,
        authorization: Option<&str>,
    ) -> Result<(Parameters, Option<String>), VerifyError> {
        let limits = &self.policy.limits;
        let header = authorization
            .map(|h| Authorization::parse_with(h, limits))
            .transpose()
            .map_err(malformed)?;
        let (header_count, header_bytes) = header.as_ref().map_or((0, 0), |h| {
            (
                h.parameters().len(),
                h.parameters().map(|(n, v)| n.len() + v.len()).sum(),
            )
        });
        // Counted before anything is decoded or allocated.
        let count = request::count_parameters(request, request::Collect::RFC) + header_count;
        if count > limits.max_parameters {
            return Err(VerifyError::Malformed {
                detail: format!(
                    "the request has more than {} parameters",
                    limits.max_parameters
                ),
            });
        }
        let mut params =
            request::collect_parameters(request, count, header_bytes, request::Collect::RFC)
                .map_err(|e| VerifyError::Malformed {
                    detail: e.to_string(),
                })?;
        let mut realm = None;
        if let Some(header) = header {
            for (name, value) in header.parameters() {
                params.push(Source::Protocol, name.as_bytes(), value);
            }
            realm = header.realm().map(str::to_owned);
        }
        Ok((params, realm))
    }

    /// Compares the signature in constant time. The consumer and the token (if any) are
    /// looked up for every method, and unknown credentials, or a consumer without the
    /// credential the method needs, are checked against a dummy of the same kind (a short
    /// secret, a 2048-bit public key) and never match: the same lookups and the same work,
    /// and the same answer as a wrong signature.
    fn check_signature(
        &self,
        method: SignatureMethod,
        consumer_key: &str,
        token: Option<&str>,
        base_string: &[u8],
        signature: &[u8],
    ) -> Result<bool, VerifyError> {
        let consumer = self.credentials.consumer(consumer_key)?;
        let token_secret = match token {
            Some(token) => self.credentials.token_secret(consumer_key, token)?,
            None => Some(Secret::default()),
        };
        if method.is_rsa() {
            return Ok(check_rsa(method, consumer.as_ref(), base_string, signature)
                && token_secret.is_some());
        }
        let consumer_secret = consumer.as_ref().and_then(ConsumerCredential::secret);
        let known = consumer_secret.is_some() && token_secret.is_some();
        let dummy = dummy_secret();
        let key = SigningKey::new(
            consumer_secret.unwrap_or(dummy),
            token_secret.as_ref().unwrap_or(dummy),
        );
        let matches = if method == SignatureMethod::Plaintext {
            key.expose().ct_eq(signature)
        } else {
            let expected = sign::hmac_digest(method, &key, base_string)
                .map_err(|e| VerifyError::Store(StoreError::new(e.to_string())))?;
            // Strict base64: canonical padding, no trailing bits; anything else cannot match,
            // nor can anything longer than the longest digest (64 bytes in 88 characters).
            let mut sent = [0u8; 66];
            let sent = BASE64
                .decode_slice(signature, &mut sent)
                .map_or(&[][..], |len| &sent[..len]);
            expected.ct_eq(sent)
        };
        Ok(known && bool::from(matches))
    }
}

/// The secret unknown consumers and tokens are checked with. Twice over with the `&`, it fits
/// one hash block, as most keys do: an unknown credential costs no extra hash.
fn dummy_secret() -> &'static Secret {
    static DUMMY: std::sync::OnceLock<Secret> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| Secret::from(&b"unknown-credential"[..]))
}

/// Checks an RSA signature with the consumer's public key, or with a dummy key of 2048 bits
/// (the same work, never a match) for an unknown consumer or one without a key.
#[cfg(feature = "rsa")]
fn check_rsa(
    method: SignatureMethod,
    consumer: Option<&ConsumerCredential>,
    base_string: &[u8],
    signature: &[u8],
) -> bool {
    static DUMMY: std::sync::OnceLock<Option<crate::PublicKey>> = std::sync::OnceLock::new();
    let key = consumer.and_then(ConsumerCredential::public_key);
    let Some(used) = key.or_else(|| {
        DUMMY
            .get_or_init(|| crate::PublicKey::from_pem(DUMMY_PUBLIC_KEY).ok())
            .as_ref()
    }) else {
        return false;
    };
    let sent = BASE64.decode(signature).unwrap_or_default();
    sign::rsa_verify(method, used, base_string, &sent) && key.is_some()
}

#[cfg(not(feature = "rsa"))]
fn check_rsa(_: SignatureMethod, _: Option<&ConsumerCredential>, _: &[u8], _: &[u8]) -> bool {
    false
}

/// The public half of a 2048-bit key whose private half was thrown away: what unknown
/// consumers' RSA signatures are checked against.
#[cfg(feature = "rsa")]
const DUMMY_PUBLIC_KEY: &str = "-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEApn0wrGC6AGbX4ljKkmiN
HVTMfg757EAoQqDyeT1+nIEB1P8WO/rq8eGIinSZnXkHssFSIlDylz/Ask6kCfAW
Jxjha4wM96f+AkIzhgqjFxvqUogyFlD29ZDH54CNPpVhZiorbKpOxpKtTfQcg68h
5mbcsxFyFa5o+i2DncCc6QUBcMlvEvYP63ftBGTg88x2lSFw5iDXmHp7XdAzXaN5
kvIGz7g0Qo/tFIkGT2m/KPBEsG09ESmAxqJ6P9WMlAG63qtS0izHuczES39e5pOw
vJC/vHdqlQSELzssoi0KUzfsq3vWaI0wT9QBIVXZUyz0426UfOT1M6Fx0pCYu6z/
GwIDAQAB
-----END PUBLIC KEY-----
";

/// When a nonce may be forgotten: see [`NonceStore`].
fn nonce_expiry(timestamp: Timestamp, window: u64) -> Timestamp {
    Timestamp::new(
        (timestamp.as_secs())
            .saturating_add(window.saturating_mul(2))
            .saturating_add(1),
    )
}

/// Finds the transport that carries the `oauth_*` parameters (exactly one may) and where their
/// values are, refusing duplicates.
fn find_protocol(params: &Parameters) -> Result<Protocol, VerifyError> {
    let mut transport: Option<Source> = None;
    for p in params.iter().filter(|p| p.name.starts_with(b"oauth_")) {
        match transport {
            None => transport = Some(p.source),
            Some(t) if t != p.source => {
                let place = |s: Source| match s {
                    Source::Protocol => "the Authorization header",
                    Source::Query => "the query",
                    Source::Body => "the form body",
                };
                return Err(VerifyError::Malformed {
                    detail: format!(
                        "protocol parameters are sent in both {} and {}: send them in one place",
                        place(t),
                        place(p.source)
                    ),
                });
            }
            Some(_) => {}
        }
    }

    // Every protocol parameter once, extensions included: a known one twice fills its slot
    // twice; the others (oauth_callback, oauth_verifier, extensions, rare) are sorted to find
    // a repeat. The first repeat in name order is the one reported.
    let mut protocol = Protocol::default();
    let mut repeated: Option<&[u8]> = None;
    let mut others: Vec<&[u8]> = Vec::new();
    for (p, span) in params.with_value_spans() {
        let slot = match p.name {
            b"oauth_consumer_key" => &mut protocol.consumer_key,
            b"oauth_token" => &mut protocol.token,
            b"oauth_signature_method" => &mut protocol.signature_method,
            b"oauth_timestamp" => &mut protocol.timestamp,
            b"oauth_nonce" => &mut protocol.nonce,
            b"oauth_version" => &mut protocol.version,
            b"oauth_body_hash" => &mut protocol.body_hash,
            b"oauth_signature" => {
                if protocol.signature.is_some() {
                    repeated = Some(first_of(repeated, p.name));
                }
                protocol.signature = Some(zeroize::Zeroizing::new(p.value.to_vec()));
                continue;
            }
            name if name.starts_with(b"oauth_") => {
                others.push(name);
                continue;
            }
            // The request's own parameters are signed like the rest.
            _ => continue,
        };
        if slot.is_some() {
            repeated = Some(first_of(repeated, p.name));
        }
        *slot = Some(span);
    }
    others.sort_unstable();
    if let Some(pair) = others.windows(2).find(|pair| pair[0] == pair[1]) {
        repeated = Some(first_of(repeated, pair[0]));
    }
    match repeated {
        Some(name) => Err(VerifyError::DuplicateParameter {
            name: String::from_utf8_lossy(name).into_owned(),
        }),
        None => Ok(protocol),
    }
}

/// The first in byte order of `name` and the name found so far, if any.
fn first_of<'a>(found: Option<&'a [u8]>, name: &'a [u8]) -> &'a [u8] {
    found.map_or(name, |found| found.min(name))
}

fn malformed(detail: impl fmt::Display) -> VerifyError {
    VerifyError::Malformed {
        detail: detail.to_string(),
    }
}
