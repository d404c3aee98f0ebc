//! A provider that issues credentials (RFC 5849 §2, the server's side of the three-legged
//! flow): temporary credentials for a consumer, the resource owner's approval with a verifier,
//! and token credentials in exchange for both.
//!
//! The [`Issuer`] verifies the two credential requests with a [`Verifier`] like any other
//! request, over [`WithTemporary`]: the application's credential store, and beside it a
//! [`TemporaryStore`] of the temporary credentials issued and not yet exchanged. Tokens have
//! kinds ([`TokenKind`]): a resource request signed with temporary credentials is refused
//! (`token-rejected`), and so is a token request signed with token credentials.

use std::fmt;
use std::future::{ready, Future};
use std::sync::Mutex;

use std::collections::HashMap;

use subtle::ConstantTimeEq;

use crate::callbacks::Callbacks;

use crate::error::VerifyError;

use crate::protocol::Expect;

use crate::error::StoreError;
use crate::store::{
    ConsumerCredential, CredentialStore, NonceStore, TokenCredential, TokenKind, TokenStore,
};

use crate::verifier::Verifier;
use oauth1_signer::{encode, Nonce, Request, Secret, Timestamp};

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
/// token `C` does not hold is looked up in `T`, as [`TokenKind::Temporary`], for the consumer
/// it was issued to. The verifier of an [`Issuer`], and of the resource requests, so that a
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

/// Credentials an [`Issuer`] issued: the token, what is held for it (its secret, its kind,
/// the resource owner for token credentials), and the answer to send, the body of a `200` as
/// `application/x-www-form-urlencoded` (§2.1, §2.3).
#[derive(Clone, Debug)]
pub struct Issued {
    token: String,
    consumer_key: String,
    credential: TokenCredential,
}

impl Issued {
    /// The token.
    #[must_use]
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The consumer they were issued to.
    #[must_use]
    pub fn consumer_key(&self) -> &str {
        &self.consumer_key
    }

    /// The token's secret, its kind (temporary or token credentials), and the resource owner
    /// who approved them (token credentials only).
    #[must_use]
    pub fn credential(&self) -> &TokenCredential {
        &self.credential
    }

    /// The answer's body: `oauth_token`, `oauth_token_secret`, and for temporary credentials
    /// `oauth_callback_confirmed=true`. It holds the secret: send it over https, and do not
    /// log it.
    #[must_use]
    pub fn body(&self) -> zeroize::Zeroizing<String> {
        let secret = self.credential.secret();
        let mut body = zeroize::Zeroizing::new(String::with_capacity(
            self.token.len() + secret.len() * 3 + 64,
        ));
        body.push_str("oauth_token=");
        encode::encode(self.token.as_bytes()).append_to(&mut body);
        body.push_str("&oauth_token_secret=");
        encode::encode(secret.expose()).append_to(&mut body);
        if self.credential.kind() == TokenKind::Temporary {
            body.push_str("&oauth_callback_confirmed=true");
        }
        body
    }
}

/// Temporary credentials waiting for the resource owner: what the authorization page shows.
#[derive(Clone, Debug)]
pub struct Pending {
    /// The consumer asking for access.
    pub consumer_key: String,
    /// Where the resource owner is sent back, or `oob`.
    pub callback: String,
}

/// The resource owner's approval, given: where to send them, or the verifier to show them.
#[derive(Clone)]
pub struct Approved {
    /// Text: letters and digits (`Nonce::generate`). Wiped on drop.
    verifier: zeroize::Zeroizing<String>,
    redirect: Option<String>,
}

impl fmt::Debug for Approved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The redirect holds the verifier.
        f.debug_struct("Approved")
            .field("verifier", &"..")
            .field("redirect", &self.redirect.as_ref().map(|_| ".."))
            .finish()
    }
}

impl Approved {
    /// The callback with `oauth_token` and `oauth_verifier` added to its query (§2.2): where to
    /// redirect the resource owner's browser (a `302`). `None` when the consumer asked for
    /// `oob`: show [`verifier`](Self::verifier) instead.
    #[must_use]
    pub fn redirect(&self) -> Option<&str> {
        self.redirect.as_deref()
    }

    /// `oauth_verifier`, for the resource owner to type into the consumer when there is no
    /// callback (`oob`).
    #[must_use]
    pub fn verifier(&self) -> &str {
        &self.verifier
    }
}

/// Why the authorization page cannot approve temporary credentials.
#[derive(Debug)]
#[non_exhaustive]
pub enum AuthorizeError {
    /// No such temporary credentials: never issued, exchanged already, or dropped.
    UnknownToken,
    /// They expired before the resource owner approved them.
    Expired,
    /// They were approved already.
    AlreadyApproved,
    /// A store failed.
    Store(StoreError),
    /// The clock or the random number generator failed.
    Server(String),
}

impl fmt::Display for AuthorizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AuthorizeError::UnknownToken => f.write_str(
                "no such temporary credentials: the link is wrong, or they were used already; start again from the application",
            ),
            AuthorizeError::Expired => f.write_str(
                "these temporary credentials expired: start again from the application",
            ),
            AuthorizeError::AlreadyApproved => {
                f.write_str("these temporary credentials are approved already")
            }
            AuthorizeError::Store(e) => write!(f, "the server's store failed: {e}"),
            AuthorizeError::Server(detail) => write!(f, "the server failed: {detail}"),
        }
    }
}

impl std::error::Error for AuthorizeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AuthorizeError::Store(e) => Some(e),
            _ => None,
        }
    }
}

impl From<StoreError> for AuthorizeError {
    fn from(e: StoreError) -> Self {
        AuthorizeError::Store(e)
    }
}

/// The provider's side of the three-legged flow (RFC 5849 §2): temporary credentials for a
/// consumer, the resource owner's approval with a verifier, and token credentials in exchange
/// for both.
///
/// It verifies the two credential requests with its [`Verifier`] like any other request,
/// over [`WithTemporary`]: the application's credential store, and beside it a
/// [`TemporaryStore`] of the temporary credentials issued and not yet exchanged. Tokens have
/// kinds ([`TokenKind`]): a resource request signed with temporary credentials is refused
/// (`token-rejected`), and so is a token request signed with token credentials. The token
/// credentials it issues are saved in the application's store ([`TokenStore`]) with the
/// resource owner who approved them, which [`Verified::resource_owner`] then names.
///
/// [`Verified::resource_owner`]: super::Verified::resource_owner
///
/// ```
/// use oauth1_server::{
///     Callbacks, ConsumerCredential, Issuer, MemoryCredentials, MemoryNonceStore,
///     MemoryTemporaryStore, Verifier, WithTemporary,
/// };
/// use oauth1_signer::{Consumer, Request, Signer, Token};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// // The consumer registered its secret and its callback.
/// let mut credentials = MemoryCredentials::new();
/// let callbacks = Callbacks::default().with_url("https://app.example.com/done")?;
/// credentials.insert_consumer(
///     "key",
///     ConsumerCredential::from_secret("secret").with_callbacks(callbacks),
/// );
/// let store = WithTemporary::new(credentials, MemoryTemporaryStore::new());
/// let issuer = Issuer::new(Verifier::new(store, MemoryNonceStore::new()));
/// let consumer = Signer::new(Consumer::new("key", "secret"));
///
/// // 1. The consumer asks for temporary credentials, with its callback.
/// let url = "https://api.example.com/oauth/request_token";
/// let request = Request::new("POST", url)?.with_callback("https://app.example.com/done");
/// let header = consumer.sign_now(&request)?.authorization();
/// let temporary = issuer.temporary_credentials(&request, Some(&header)).await?;
/// assert!(temporary.body().ends_with("&oauth_callback_confirmed=true"));
///
/// // 2. The resource owner, signed in to the provider as "alice", approves.
/// let approved = issuer.approve(temporary.token(), "alice").await?;
/// assert!(approved.redirect().unwrap().starts_with("https://app.example.com/done?oauth_token="));
///
/// // 3. The consumer exchanges them, with the verifier the redirect carried.
/// let url = "https://api.example.com/oauth/access_token";
/// let request = Request::new("POST", url)?.with_verifier(approved.verifier());
/// let header = consumer
///     .with_token(Token::new(temporary.token(), temporary.credential().secret().clone()))
///     .sign_now(&request)?.authorization();
/// let issued = issuer.token_credentials(&request, Some(&header)).await?;
/// assert_eq!(issued.credential().owner(), Some("alice"));
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Issuer<C, N, T> {
    verifier: Verifier<WithTemporary<C, T>, N>,
    lifetime: u64,
}

/// How long temporary credentials live unless [`Issuer::with_lifetime`] says otherwise: 10
/// minutes.
pub const DEFAULT_TEMPORARY_LIFETIME: u64 = 600;

impl<C, N, T> Issuer<C, N, T>
where
    C: CredentialStore + TokenStore + Sync,
    N: NonceStore + Sync,
    T: TemporaryStore + Sync,
{
    /// An issuer verifying with `verifier`, whose store holds the application's credentials
    /// and the temporary ones.
    pub fn new(verifier: Verifier<WithTemporary<C, T>, N>) -> Self {
        Issuer {
            verifier,
            lifetime: DEFAULT_TEMPORARY_LIFETIME,
        }
    }

    /// How long temporary credentials may wait for their exchange, in seconds.
    #[must_use]
    pub fn with_lifetime(mut self, seconds: u64) -> Self {
        self.lifetime = seconds;
        self
    }

    /// The verifier, which also verifies resource requests (and refuses those signed with
    /// temporary credentials).
    pub fn verifier(&self) -> &Verifier<WithTemporary<C, T>, N> {
        &self.verifier
    }

    /// Answers a temporary credential request (§2.1) at the verifier's clock's time: verifies it
    /// (signed with the consumer's credentials alone), holds `oauth_callback` to the
    /// callbacks the consumer registered ([`ConsumerCredential::callbacks`]; only `oob` when
    /// it registered none), issues temporary credentials and records the callback, which
    /// [`approve`](Self::approve) redirects to. Send [`Issued::body`] with a `200`.
    ///
    /// # Errors
    ///
    /// A [`VerifyError`], answered like any other ([`VerifyError::status`],
    /// [`VerifyError::problem`]); [`VerifyError::CallbackRejected`] for a callback the
    /// consumer did not register (400, `oauth_problem=parameter_rejected`).
    pub async fn temporary_credentials(
        &self,
        request: &Request<'_>,
        authorization: Option<&str>,
    ) -> Result<Issued, VerifyError> {
        let now = self.verifier.clock().now()?;
        let (verified, consumer) = self
            .verifier
            .verify_as(request, authorization, now, Expect::TemporaryRequest)
            .await?;
        let callback = verified
            .protocol_parameter("oauth_callback")
            .unwrap_or_default();
        let callback = std::str::from_utf8(callback).map_err(|_| VerifyError::Malformed {
            detail: "oauth_callback is not UTF-8".to_owned(),
        })?;
        // Held to the consumer's registered callbacks (the request is authentic, so the
        // consumer is held).
        let callback = match &consumer {
            Some(consumer) => consumer.callbacks().admit(callback)?,
            None => Callbacks::none().admit(callback)?,
        };
        let (token, secret) = (random()?, random()?);
        let record = TemporaryRecord {
            consumer_key: verified.consumer_key().to_owned(),
            secret: Secret::from(secret.as_str()),
            callback,
            expires_at: Timestamp::new(now.as_secs().saturating_add(self.lifetime)),
            approval: None,
        };
        self.verifier
            .credentials()
            .temporary()
            .insert(token.as_str(), record)
            .await?;
        Ok(Issued {
            token: token.as_str().to_owned(),
            consumer_key: verified.consumer_key().to_owned(),
            credential: TokenCredential::temporary(secret.as_str()),
        })
    }

    /// The temporary credentials `token` if they wait for approval: which consumer asks, for
    /// the authorization page to show the resource owner.
    ///
    /// # Errors
    ///
    /// [`AuthorizeError`]: unknown, expired or approved already.
    pub async fn pending(&self, token: &str) -> Result<Pending, AuthorizeError> {
        let now =
            (self.verifier.clock().now()).map_err(|e| AuthorizeError::Server(e.to_string()))?;
        let record = self.waiting(token, now).await?;
        Ok(Pending {
            consumer_key: record.consumer_key,
            callback: record.callback,
        })
    }

    async fn waiting(
        &self,
        token: &str,
        now: Timestamp,
    ) -> Result<TemporaryRecord, AuthorizeError> {
        let record = self
            .verifier
            .credentials()
            .temporary()
            .get(token)
            .await?
            .ok_or(AuthorizeError::UnknownToken)?;
        if record.expires_at < now {
            return Err(AuthorizeError::Expired);
        }
        if record.approval.is_some() {
            return Err(AuthorizeError::AlreadyApproved);
        }
        Ok(record)
    }

    /// Records the approval of `owner` (the signed-in user, a user id of the application's)
    /// for the temporary credentials `token` (§2.2), and issues their verifier. The
    /// application calls it once the resource owner has said yes on its own authorization
    /// page, then redirects to [`Approved::redirect`] or shows [`Approved::verifier`].
    ///
    /// # Errors
    ///
    /// [`AuthorizeError`]: unknown, expired or approved already.
    pub async fn approve(&self, token: &str, owner: &str) -> Result<Approved, AuthorizeError> {
        let now =
            (self.verifier.clock().now()).map_err(|e| AuthorizeError::Server(e.to_string()))?;
        let record = self.waiting(token, now).await?;
        let verifier = random().map_err(|e| AuthorizeError::Server(e.to_string()))?;
        let approval = Approval {
            verifier: Secret::from(verifier.as_str()),
            owner: owner.to_owned(),
        };
        if !self
            .verifier
            .credentials()
            .temporary()
            .approve(token, approval)
            .await?
        {
            return Err(AuthorizeError::AlreadyApproved);
        }
        let redirect = (record.callback != "oob").then(|| {
            let mut url = record.callback.clone();
            url.push(if url.contains('?') { '&' } else { '?' });
            url.push_str("oauth_token=");
            encode::encode(token.as_bytes()).append_to(&mut url);
            url.push_str("&oauth_verifier=");
            url.push_str(verifier.as_str());
            url
        });
        Ok(Approved {
            verifier: zeroize::Zeroizing::new(verifier.as_str().to_owned()),
            redirect,
        })
    }

    /// Answers a token request (§2.3) at the verifier's clock's time: verifies it (signed with
    /// the temporary credentials, with `oauth_verifier`), takes the temporary credentials
    /// (once: they are void from then on, whatever the answer), checks that they were
    /// approved, in time, and that the verifier is theirs (in constant time), then issues
    /// token credentials for the resource owner who approved and saves them in the
    /// application's store. Send [`Issued::body`] with a `200`.
    ///
    /// # Errors
    ///
    /// A [`VerifyError`]: the request's own failures, or
    /// [`TokenNotAuthorized`](VerifyError::TokenNotAuthorized) (not approved yet: the
    /// temporary credentials stay), [`TokenExpired`](VerifyError::TokenExpired),
    /// [`VerifierInvalid`](VerifyError::VerifierInvalid).
    pub async fn token_credentials(
        &self,
        request: &Request<'_>,
        authorization: Option<&str>,
    ) -> Result<Issued, VerifyError> {
        let now = self.verifier.clock().now()?;
        let (verified, _) = self
            .verifier
            .verify_as(request, authorization, now, Expect::TokenRequest)
            .await?;
        let token = verified.token().unwrap_or_default();
        let temporary = self.verifier.credentials().temporary();
        // Not approved yet: refused, and the temporary credentials stay for a later request.
        let held = temporary.get(token).await?;
        if held.as_ref().is_some_and(|r| r.approval.is_none()) {
            return Err(VerifyError::TokenNotAuthorized);
        }
        // One exchange: of two requests, one takes them; the other finds nothing.
        let record = temporary
            .take(token)
            .await?
            .filter(|r| r.consumer_key == verified.consumer_key())
            .ok_or(VerifyError::TokenNotAuthorized)?;
        if record.expires_at < now {
            return Err(VerifyError::TokenExpired);
        }
        let approval = record.approval.ok_or(VerifyError::TokenNotAuthorized)?;
        let sent = verified
            .protocol_parameter("oauth_verifier")
            .unwrap_or_default();
        if !bool::from(approval.verifier.expose().ct_eq(sent)) {
            return Err(VerifyError::VerifierInvalid);
        }
        let (token, secret) = (random()?, random()?);
        let credential =
            TokenCredential::access(secret.as_str()).with_owner(approval.owner.as_str());
        self.verifier
            .credentials()
            .credentials()
            .save_token(verified.consumer_key(), token.as_str(), credential.clone())
            .await?;
        Ok(Issued {
            token: token.as_str().to_owned(),
            consumer_key: verified.consumer_key().to_owned(),
            credential,
        })
    }
}

/// 32 letters and digits from the operating system's generator (about 190 bits): tokens,
/// secrets and verifiers.
fn random() -> Result<Nonce, VerifyError> {
    Nonce::generate().map_err(|e| VerifyError::Signing {
        detail: e.to_string(),
    })
}
