//! A provider that issues credentials (RFC 5849 §2, the server's side of the three-legged
//! flow): temporary credentials for a consumer, the resource owner's approval with a verifier,
//! and token credentials in exchange for both.
//!
//! The [`Issuer`] verifies the two credential requests with a [`Verifier`] like any other
//! request, over [`WithTemporary`]: the application's credential store, and beside it a
//! [`TemporaryStore`] of the temporary credentials issued and not yet exchanged. Tokens have
//! kinds ([`TokenKind`]): a resource request signed with temporary credentials is refused
//! (`token-rejected`), and so is a token request signed with token credentials.

//!
//! One file per endpoint, as the RFC's sections: `initiate.rs` (temporary credentials,
//! §2.1), `authorize.rs` (the resource owner's approval, §2.2), `token.rs` (token
//! credentials, §2.3); beside them the temporary credentials' stores (`temporary.rs`) and the
//! answers (`answers.rs`).

use crate::error::VerifyError;
use crate::store::{CredentialStore, NonceStore, TokenStore};
use crate::verifier::Verifier;
use oauth1_signer::Nonce;

mod answers;
mod authorize;
mod initiate;
mod temporary;
mod token;

pub use answers::{Approved, AuthorizeError, Issued, Pending};
pub use authorize::AUTHORIZATION_PAGE_HEADERS;
pub use temporary::{
    Approval, MemoryTemporaryStore, TemporaryRecord, TemporaryStore, WithTemporary,
};

/// The provider's side of the three-legged flow (RFC 5849 §2): temporary credentials for a
/// consumer, the resource owner's approval with a verifier, and token credentials in exchange
/// for both.
///
/// It verifies the two credential requests with its [`Verifier`] like any other request,
/// over [`WithTemporary`]: the application's credential store, and beside it a
/// [`TemporaryStore`] of the temporary credentials issued and not yet exchanged. Tokens have
/// kinds ([`TokenKind`](crate::TokenKind)): a resource request signed with temporary credentials is refused
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
}

/// 32 letters and digits from the operating system's generator (about 190 bits): tokens,
/// secrets and verifiers.
fn random() -> Result<Nonce, VerifyError> {
    Nonce::generate().map_err(|e| VerifyError::Signing {
        detail: e.to_string(),
    })
}
