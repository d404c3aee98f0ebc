//! The application's stores: what it holds for its clients (the credential records and the
//! store traits) and the nonces it has seen (RFC 5849 §3.3). The in-memory stores are in
//! `memory.rs`.

use std::fmt::{self, Write as _};
use std::future::Future;
use std::sync::Arc;

use crate::callbacks::Callbacks;
#[cfg(feature = "rsa")]
use crate::config::ConfigError;
use crate::error::StoreError;
use oauth1_signer::encode;
#[cfg(feature = "rsa")]
use oauth1_signer::sign::MIN_RSA_BITS;
use oauth1_signer::{Secret, Timestamp};

/// What the server holds for a consumer: a shared secret (for HMAC and PLAINTEXT), an RSA
/// public key (for `RSA-SHA1` and `RSA-SHA256`, feature `rsa`), or both. A signature method
/// verifies only with the credential it needs: a consumer registered with a public key alone
/// is never checked against an empty secret, which anyone could sign with.
///
/// An empty shared secret is still a shared secret (some published examples use one); a
/// consumer should not be registered with one, since then only the token secret is secret.
///
/// ```
/// use oauth1_server::ConsumerCredential;
///
/// let consumer = ConsumerCredential::from_secret("kd94hf93k423kf44");
/// assert_eq!(consumer.secret().map(|s| s.expose()), Some(&b"kd94hf93k423kf44"[..]));
/// ```
#[derive(Clone)]
pub struct ConsumerCredential {
    // The memory store replaces one credential and keeps the other.
    pub(super) secret: Option<Secret>,
    #[cfg(feature = "rsa")]
    pub(super) public_key: Option<oauth1_signer::PublicKey>,
    callbacks: Callbacks,
}

impl fmt::Debug for ConsumerCredential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct("ConsumerCredential");
        s.field("secret", &self.secret);
        #[cfg(feature = "rsa")]
        s.field(
            "public_key",
            &self.public_key.as_ref().map(oauth1_signer::PublicKey::bits),
        );
        s.field("callbacks", &self.callbacks);
        s.finish()
    }
}

impl ConsumerCredential {
    /// A consumer holding a shared secret.
    pub fn from_secret(secret: impl Into<Secret>) -> Self {
        ConsumerCredential {
            secret: Some(secret.into()),
            #[cfg(feature = "rsa")]
            public_key: None,
            callbacks: Callbacks::default(),
        }
    }

    /// A consumer holding an RSA public key and no shared secret.
    ///
    /// # Errors
    ///
    /// [`ConfigError::WeakPublicKey`] for a key of fewer than
    /// [`MIN_RSA_BITS`] bits, which can be factored.
    #[cfg(feature = "rsa")]
    pub fn from_public_key(key: oauth1_signer::PublicKey) -> Result<Self, ConfigError> {
        ConsumerCredential {
            secret: None,
            public_key: None,
            callbacks: Callbacks::default(),
        }
        .with_public_key(key)
    }

    /// This consumer with an RSA public key as well (or instead of the one it had).
    ///
    /// # Errors
    ///
    /// [`ConfigError::WeakPublicKey`] for a key of fewer than
    /// [`MIN_RSA_BITS`] bits.
    #[cfg(feature = "rsa")]
    pub fn with_public_key(mut self, key: oauth1_signer::PublicKey) -> Result<Self, ConfigError> {
        if key.bits() < MIN_RSA_BITS {
            return Err(ConfigError::WeakPublicKey { bits: key.bits() });
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

    /// This consumer with the callbacks it registered, which a provider's
    /// [`Issuer`](super::Issuer) holds its temporary credential requests to. Without them, only
    /// `oob` is accepted ([`Callbacks::default`]).
    #[must_use]
    pub fn with_callbacks(mut self, callbacks: Callbacks) -> Self {
        self.callbacks = callbacks;
        self
    }

    /// The callbacks the consumer registered.
    #[must_use]
    pub fn callbacks(&self) -> &Callbacks {
        &self.callbacks
    }

    /// The shared secret, for HMAC and PLAINTEXT, if the consumer has one.
    #[must_use]
    pub fn secret(&self) -> Option<&Secret> {
        self.secret.as_ref()
    }

    /// The RSA public key, for `RSA-SHA1` and `RSA-SHA256`, if the consumer has one.
    #[cfg(feature = "rsa")]
    #[must_use]
    pub fn public_key(&self) -> Option<&oauth1_signer::PublicKey> {
        self.public_key.as_ref()
    }
}

/// What a token is for (RFC 5849 §2): temporary credentials, which only the token request may
/// be signed with, or token credentials, which resource requests are signed with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// Token credentials (an access token): for resource requests.
    Access,
    /// Temporary credentials (a request token): only for the token request that exchanges them.
    Temporary,
}

/// What the server holds for a token issued to a consumer: its secret, its kind, and whose
/// resources it grants (the resource owner), when the store knows.
#[derive(Clone)]
pub struct TokenCredential {
    secret: Secret,
    kind: TokenKind,
    owner: Option<String>,
}

impl fmt::Debug for TokenCredential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenCredential")
            .field("secret", &self.secret)
            .field("kind", &self.kind)
            .field("owner", &self.owner)
            .finish()
    }
}

impl TokenCredential {
    /// Token credentials (an access token) with `secret`.
    pub fn access(secret: impl Into<Secret>) -> Self {
        TokenCredential {
            secret: secret.into(),
            kind: TokenKind::Access,
            owner: None,
        }
    }

    /// Temporary credentials (a request token) with `secret`.
    pub fn temporary(secret: impl Into<Secret>) -> Self {
        TokenCredential {
            kind: TokenKind::Temporary,
            ..TokenCredential::access(secret)
        }
    }

    /// This token, granting the resources of `owner` (a user id of the application's).
    #[must_use]
    pub fn with_owner(mut self, owner: impl Into<String>) -> Self {
        self.owner = Some(owner.into());
        self
    }

    /// The token secret.
    #[must_use]
    pub fn secret(&self) -> &Secret {
        &self.secret
    }

    /// What the token is for.
    #[must_use]
    pub fn kind(&self) -> TokenKind {
        self.kind
    }

    /// Whose resources the token grants, if the store knows.
    #[must_use]
    pub fn owner(&self) -> Option<&str> {
        self.owner.as_deref()
    }

    /// The owner, taking the credential apart: the copy a store handed out is not copied
    /// again.
    pub(crate) fn into_owner(self) -> Option<String> {
        self.owner
    }
}

/// Where the application keeps the credentials of its clients: a database, a cache, memory.
///
/// The methods are `async` so that a store on the network (a database with an async driver,
/// Redis) waits without holding a thread: the [`Verifier`](super::Verifier) awaits them, and
/// the tower layer awaits the verifier. They return `Send` futures, so that a verification
/// can move between the threads of a multi-threaded runtime. Implement them with `async fn`;
/// a store that answers at once (the memory ones) returns a ready future, which costs nothing
/// to await. A blocking store (a synchronous database driver) is possible too: its `async fn`
/// does the blocking work, for a server that calls
/// [`Verifier::blocking`](crate::Verifier::blocking) on threads of its own,
/// never on an async runtime's workers.
///
/// The trait is generic (native `async fn` in traits), not an object: the verifier calls it
/// without boxing a future per request.
///
/// ```
/// use oauth1_server::{ConsumerCredential, CredentialStore, StoreError, TokenCredential};
///
/// /// Credentials behind an async database driver (here a stand-in with the same shape).
/// struct Database;
///
/// impl Database {
///     async fn query_one(&self, sql: &str, args: &[&str]) -> Result<Option<String>, std::io::Error> {
///         let _ = (sql, args);
///         Ok(Some("kd94hf93k423kf44".to_owned()))
///     }
/// }
///
/// impl CredentialStore for Database {
///     async fn consumer(&self, consumer_key: &str) -> Result<Option<ConsumerCredential>, StoreError> {
///         let secret = self
///             .query_one("SELECT secret FROM consumers WHERE key = $1", &[consumer_key])
///             .await
///             .map_err(StoreError::new)?;
///         Ok(secret.map(ConsumerCredential::from_secret))
///     }
///
///     async fn token(&self, consumer_key: &str, token: &str) -> Result<Option<TokenCredential>, StoreError> {
///         let secret = self
///             .query_one("SELECT secret FROM tokens WHERE consumer = $1 AND token = $2", &[consumer_key, token])
///             .await
///             .map_err(StoreError::new)?;
///         Ok(secret.map(TokenCredential::access))
///     }
/// }
/// ```
pub trait CredentialStore {
    /// What is held for `consumer_key`, or `None` if the key is unknown.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] if the store cannot answer.
    fn consumer(
        &self,
        consumer_key: &str,
    ) -> impl Future<Output = Result<Option<ConsumerCredential>, StoreError>> + Send;

    /// What is held for `token`, or `None` unless such a token was issued to `consumer_key`.
    /// Every signature method asks: a token that is unknown or another consumer's is refused
    /// whatever the method, RSA included; so is a token of the wrong [`TokenKind`] for the
    /// request (temporary credentials on a resource request, token credentials on the token
    /// request).
    ///
    /// # Errors
    ///
    /// A [`StoreError`] if the store cannot answer.
    fn token(
        &self,
        consumer_key: &str,
        token: &str,
    ) -> impl Future<Output = Result<Option<TokenCredential>, StoreError>> + Send;
}

impl<T: CredentialStore + ?Sized> CredentialStore for &T {
    fn consumer(
        &self,
        consumer_key: &str,
    ) -> impl Future<Output = Result<Option<ConsumerCredential>, StoreError>> + Send {
        (**self).consumer(consumer_key)
    }
    fn token(
        &self,
        consumer_key: &str,
        token: &str,
    ) -> impl Future<Output = Result<Option<TokenCredential>, StoreError>> + Send {
        (**self).token(consumer_key, token)
    }
}

impl<T: CredentialStore + ?Sized> CredentialStore for Arc<T> {
    fn consumer(
        &self,
        consumer_key: &str,
    ) -> impl Future<Output = Result<Option<ConsumerCredential>, StoreError>> + Send {
        (**self).consumer(consumer_key)
    }
    fn token(
        &self,
        consumer_key: &str,
        token: &str,
    ) -> impl Future<Output = Result<Option<TokenCredential>, StoreError>> + Send {
        (**self).token(consumer_key, token)
    }
}

/// Where a provider's [`Issuer`](super::Issuer) saves the token credentials it issues, so that
/// the [`CredentialStore`] answers for them from then on.
pub trait TokenStore {
    /// Saves `credential` as `token`, issued to `consumer_key`.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] if the store cannot save it; the issuer then answers with the error
    /// and the client gets no token.
    fn save_token(
        &self,
        consumer_key: &str,
        token: &str,
        credential: TokenCredential,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;
}

impl<T: TokenStore + ?Sized> TokenStore for &T {
    fn save_token(
        &self,
        consumer_key: &str,
        token: &str,
        credential: TokenCredential,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        (**self).save_token(consumer_key, token, credential)
    }
}

impl<T: TokenStore + ?Sized> TokenStore for Arc<T> {
    fn save_token(
        &self,
        consumer_key: &str,
        token: &str,
        credential: TokenCredential,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        (**self).save_token(consumer_key, token, credential)
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
        self.prefixed_key("")
    }

    /// [`to_key_string`](Self::to_key_string) after `prefix`, written into one string.
    pub(crate) fn prefixed_key(&self, prefix: &str) -> String {
        let mut key = String::with_capacity(
            prefix.len()
                + self.consumer_key.len()
                + self.nonce.len()
                + self.token.map_or(0, str::len)
                + 24,
        );
        key.push_str(prefix);
        encode::encode(self.consumer_key.as_bytes()).append_to(&mut key);
        key.push('&');
        encode::encode(self.token.unwrap_or("").as_bytes()).append_to(&mut key);
        key.push('&');
        // Writing to a `String` does not fail.
        let _ = write!(key, "{}", self.timestamp.as_secs());
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
///
/// Like [`CredentialStore`], the method is `async` and returns a `Send` future; the memory
/// store answers at once.
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
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;
}

impl<T: NonceStore + ?Sized> NonceStore for &T {
    fn insert(
        &self,
        nonce: &NonceKey<'_>,
        now: Timestamp,
        expires_at: Timestamp,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        (**self).insert(nonce, now, expires_at)
    }
}

impl<T: NonceStore + ?Sized> NonceStore for Arc<T> {
    fn insert(
        &self,
        nonce: &NonceKey<'_>,
        now: Timestamp,
        expires_at: Timestamp,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        (**self).insert(nonce, now, expires_at)
    }
}
