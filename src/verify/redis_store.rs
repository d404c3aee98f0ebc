//! A nonce store in Redis, shared by every server instance that uses the same Redis.

use std::sync::Mutex;
use std::time::Duration;

use super::{NonceKey, NonceStore, StoreError};
use crate::Timestamp;

/// A [`NonceStore`] in Redis: one atomic `SET key 1 NX EX seconds` per nonce, so that two
/// server instances sharing the Redis cannot both accept the same nonce. Entries expire by
/// themselves at the [`NonceStore`]'s `expires_at`, counted in whole seconds from the write:
/// a window after the last second any instance whose clock is off by up to the window still
/// accepts the timestamp.
///
/// Connection errors and timeouts are [`StoreError`]s, never "new nonce". A broken
/// connection is dropped and a new one opened on the next request.
///
/// ```no_run
/// use oauth1_signer::verify::{MemoryCredentials, RedisNonceStore, Verifier};
///
/// let nonces = RedisNonceStore::open("redis://127.0.0.1:6379/")?;
/// let verifier = Verifier::new(MemoryCredentials::new(), nonces);
/// # Ok::<(), oauth1_signer::verify::StoreError>(())
/// ```
pub struct RedisNonceStore {
    client: redis::Client,
    connection: Mutex<Option<redis::Connection>>,
    prefix: String,
    timeout: Duration,
}

impl std::fmt::Debug for RedisNonceStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The connection info may hold a password.
        f.debug_struct("RedisNonceStore")
            .field("prefix", &self.prefix)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl RedisNonceStore {
    /// A store using `client`, with keys prefixed `oauth1:nonce:` and a 2-second timeout.
    #[must_use]
    pub fn new(client: redis::Client) -> Self {
        RedisNonceStore {
            client,
            connection: Mutex::new(None),
            prefix: "oauth1:nonce:".to_owned(),
            timeout: Duration::from_secs(2),
        }
    }

    /// A store for the Redis at `url` (`redis://[user:password@]host:port/db`). Nothing is
    /// connected until the first nonce.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] for a URL Redis cannot use.
    pub fn open(url: &str) -> Result<Self, StoreError> {
        Ok(RedisNonceStore::new(
            redis::Client::open(url).map_err(StoreError::new)?,
        ))
    }

    /// The prefix of every key (to share a Redis with other applications).
    #[must_use]
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// How long connecting, reading and writing may take before it is an error.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    fn connect(&self) -> Result<redis::Connection, StoreError> {
        let connection = self
            .client
            .get_connection_with_timeout(self.timeout)
            .map_err(StoreError::new)?;
        connection
            .set_read_timeout(Some(self.timeout))
            .map_err(StoreError::new)?;
        connection
            .set_write_timeout(Some(self.timeout))
            .map_err(StoreError::new)?;
        Ok(connection)
    }
}

impl NonceStore for RedisNonceStore {
    fn insert(
        &self,
        nonce: &NonceKey<'_>,
        now: Timestamp,
        expires_at: Timestamp,
    ) -> Result<bool, StoreError> {
        let mut slot = self
            .connection
            .lock()
            .map_err(|_| StoreError::new("the Redis connection's lock is poisoned"))?;
        let mut connection = match slot.take() {
            Some(connection) => connection,
            None => self.connect()?,
        };
        // At least one second, so that an entry is never written without an expiry.
        let seconds = expires_at.as_secs().saturating_sub(now.as_secs()).max(1);
        let reply: Option<String> = redis::cmd("SET")
            .arg(format!("{}{}", self.prefix, nonce.to_key_string()))
            .arg(1)
            .arg("NX")
            .arg("EX")
            .arg(seconds)
            .query(&mut connection)
            .map_err(StoreError::new)?;
        // Only a connection that answered is kept.
        *slot = Some(connection);
        match reply.as_deref() {
            Some("OK") => Ok(true),
            None => Ok(false),
            Some(other) => Err(StoreError::new(format!(
                "Redis answered SET … NX with {other:?}"
            ))),
        }
    }
}
