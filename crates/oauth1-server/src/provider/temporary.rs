//! The temporary credentials issued and not yet exchanged: what is held for them, the store
//! trait, the memory store, and the application's credential store with them beside it.

use std::collections::HashMap;
use std::fmt;
use std::future::{ready, Future};
use std::sync::Mutex;

use crate::error::StoreError;
use crate::store::{ConsumerCredential, CredentialStore, TokenCredential};
use oauth1_signer::{Secret, Timestamp};

/// Temporary credentials issued and not yet exchanged: whose they are, where the resource
/// owner is sent back, until when they may be exchanged, and the approval once given.
#[derive(Clone)]
pub struct TemporaryRecord {
    /// The consumer they were issued to.
    pub consumer_key: String,
    /// The temporary token's secret.
    pub secret: Secret,
    /// `oauth_callback` as the consumer sent it: an absolute URL, or `oob`.
    pub callback: String,
    /// The end of their lifetime: past it they cannot be approved or exchanged.
    pub expires_at: Timestamp,
    /// The resource owner's approval, once given.
    pub approval: Option<Approval>,
}

impl fmt::Debug for TemporaryRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TemporaryRecord")
            .field("consumer_key", &self.consumer_key)
            .field("secret", &self.secret)
            .field("callback", &self.callback)
            .field("expires_at", &self.expires_at)
            .field("approval", &self.approval)
            .finish()
    }
}

/// A resource owner's approval of temporary credentials: the verifier issued for them, and who
/// approved.
#[derive(Clone, Debug)]
pub struct Approval {
    /// `oauth_verifier`, which the consumer sends back with the token request.
    pub verifier: Secret,
    /// The resource owner (a user id of the application's).
    pub owner: String,
}

/// Where a provider keeps the temporary credentials it issued until they are exchanged. The
/// methods are `async` like the other stores'; [`MemoryTemporaryStore`] answers at once.
pub trait TemporaryStore {
    /// Saves new temporary credentials as `token`.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] if the store cannot save them.
    fn insert(
        &self,
        token: &str,
        record: TemporaryRecord,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The temporary credentials `token`, if they are held (a store may drop them once
    /// expired).
    ///
    /// # Errors
    ///
    /// A [`StoreError`] if the store cannot answer.
    fn get(
        &self,
        token: &str,
    ) -> impl Future<Output = Result<Option<TemporaryRecord>, StoreError>> + Send;

    /// Records `approval` for `token` if it has none yet, atomically: `true` if it was
    /// recorded, `false` if `token` is not held or already approved.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] if the store cannot answer.
    fn approve(
        &self,
        token: &str,
        approval: Approval,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;

    /// Removes `token` and returns what it held, atomically: of two requests taking the same
    /// token, one gets it.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] if the store cannot answer.
    fn take(
        &self,
        token: &str,
    ) -> impl Future<Output = Result<Option<TemporaryRecord>, StoreError>> + Send;
}

impl<T: TemporaryStore + ?Sized> TemporaryStore for std::sync::Arc<T> {
    fn insert(
        &self,
        token: &str,
        record: TemporaryRecord,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        (**self).insert(token, record)
    }
    fn get(
        &self,
        token: &str,
    ) -> impl Future<Output = Result<Option<TemporaryRecord>, StoreError>> + Send {
        (**self).get(token)
    }
    fn approve(
        &self,
        token: &str,
        approval: Approval,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        (**self).approve(token, approval)
    }
    fn take(
        &self,
        token: &str,
    ) -> impl Future<Output = Result<Option<TemporaryRecord>, StoreError>> + Send {
        (**self).take(token)
    }
}

/// Temporary credentials in this process's memory, for one provider instance. At most
/// `capacity` are held (100,000 unless [`with_capacity`](Self::with_capacity) says
/// otherwise); when it is full, the expired ones are dropped, and if none has expired a new
/// one is a [`StoreError`].
#[derive(Debug)]
pub struct MemoryTemporaryStore {
    capacity: usize,
    records: Mutex<HashMap<String, TemporaryRecord>>,
}

impl Default for MemoryTemporaryStore {
    fn default() -> Self {
        MemoryTemporaryStore::with_capacity(100_000)
    }
}

impl MemoryTemporaryStore {
    /// An empty store.
    #[must_use]
    pub fn new() -> Self {
        MemoryTemporaryStore::default()
    }

    /// An empty store holding at most `capacity` temporary credentials.
    #[must_use]
    pub fn with_capacity(capacity: usize) -> Self {
        MemoryTemporaryStore {
            capacity,
            records: Mutex::default(),
        }
    }

    fn records(&self) -> std::sync::MutexGuard<'_, HashMap<String, TemporaryRecord>> {
        self.records
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn insert_now(&self, token: &str, record: TemporaryRecord) -> Result<(), StoreError> {
        let mut records = self.records();
        if records.len() >= self.capacity {
            let now = Timestamp::now().map_err(|e| StoreError::new(e.to_string()))?;
            records.retain(|_, r| r.expires_at >= now);
        }
        if records.len() >= self.capacity {
            return Err(StoreError::new(format!(
                "the temporary credential store is full: it holds {} unexpired temporary credentials",
                self.capacity
            )));
        }
        records.insert(token.to_owned(), record);
        Ok(())
    }

    fn approve_now(&self, token: &str, approval: Approval) -> bool {
        match self.records().get_mut(token) {
            Some(record) if record.approval.is_none() => {
                record.approval = Some(approval);
                true
            }
            _ => false,
        }
    }
}

impl TemporaryStore for MemoryTemporaryStore {
    fn insert(
        &self,
        token: &str,
        record: TemporaryRecord,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        ready(self.insert_now(token, record))
    }

    fn get(
        &self,
        token: &str,
    ) -> impl Future<Output = Result<Option<TemporaryRecord>, StoreError>> + Send {
        ready(Ok(self.records().get(token).cloned()))
    }

    fn approve(
        &self,
        token: &str,
        approval: Approval,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        ready(Ok(self.approve_now(token, approval)))
    }

    fn take(
        &self,
        token: &str,
    ) -> impl Future<Output = Result<Option<TemporaryRecord>, StoreError>> + Send {
        ready(Ok(self.records().remove(token)))
    }
}

/// The application's credential store `C` with the temporary credentials of `T` beside it: a
/// token `C` does not hold is looked up in `T`, as [`TokenKind::Temporary`](crate::TokenKind::Temporary), for the consumer
/// it was issued to. The verifier of an [`Issuer`](crate::Issuer), and of the resource requests, so that a
/// resource request signed with temporary credentials is refused for what it is.
#[derive(Clone, Debug)]
pub struct WithTemporary<C, T> {
    credentials: C,
    temporary: T,
}

impl<C, T> WithTemporary<C, T> {
    /// `credentials`, with the temporary credentials of `temporary`.
    pub fn new(credentials: C, temporary: T) -> Self {
        WithTemporary {
            credentials,
            temporary,
        }
    }

    /// The application's store.
    pub fn credentials(&self) -> &C {
        &self.credentials
    }

    /// The temporary credentials.
    pub fn temporary(&self) -> &T {
        &self.temporary
    }
}

impl<C, T> CredentialStore for WithTemporary<C, T>
where
    C: CredentialStore + Sync,
    T: TemporaryStore + Sync,
{
    fn consumer(
        &self,
        consumer_key: &str,
    ) -> impl Future<Output = Result<Option<ConsumerCredential>, StoreError>> + Send {
        self.credentials.consumer(consumer_key)
    }

    async fn token(
        &self,
        consumer_key: &str,
        token: &str,
    ) -> Result<Option<TokenCredential>, StoreError> {
        if let Some(held) = self.credentials.token(consumer_key, token).await? {
            return Ok(Some(held));
        }
        Ok(self
            .temporary
            .get(token)
            .await?
            .filter(|r| r.consumer_key == consumer_key)
            .map(|r| TokenCredential::temporary(r.secret)))
    }
}
