//! The resource owner's approval (RFC 5849 §2.2): who asks, and the verifier once approved.

use super::{
    random, Approval, Approved, AuthorizeError, Issuer, Pending, TemporaryRecord, TemporaryStore,
};
use crate::store::{CredentialStore, NonceStore, TokenStore};
use oauth1_signer::{encode, Secret, Timestamp};

/// The headers to answer the resource owner's authorization page (§2.2) with, and its
/// decision: no framing by another site (a framed Approve button can be clicked by a page
/// the owner did not mean to trust), no script and forms posted only to this origin, and the
/// page's URL, which carries the temporary token, neither cached nor sent on as a referrer.
/// Names in lower case, as HTTP/2 writes them.
pub const AUTHORIZATION_PAGE_HEADERS: [(&str, &str); 5] = [
    ("x-frame-options", "DENY"),
    (
        "content-security-policy",
        "default-src 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    ("cache-control", "no-store"),
    ("referrer-policy", "no-referrer"),
    ("x-content-type-options", "nosniff"),
];

impl<C, N, T> Issuer<C, N, T>
where
    C: CredentialStore + TokenStore + Sync,
    N: NonceStore + Sync,
    T: TemporaryStore + Sync,
{
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

    /// Spends the temporary credentials `token` unapproved: the resource owner said no on the
    /// authorization page, and neither that page nor another may approve them after it, nor
    /// may the consumer exchange them. Returns whose they were and where the owner is sent
    /// back (RFC 5849 defines no denial: a provider may redirect to the callback with
    /// `oauth_token` and a parameter of its own, such as X's `denied`, or show a page).
    ///
    /// # Errors
    ///
    /// [`AuthorizeError`]: unknown, expired or approved already.
    pub async fn deny(&self, token: &str) -> Result<Pending, AuthorizeError> {
        let now =
            (self.verifier.clock().now()).map_err(|e| AuthorizeError::Server(e.to_string()))?;
        self.waiting(token, now).await?;
        let record = (self.verifier.credentials().temporary().take(token).await?)
            .ok_or(AuthorizeError::UnknownToken)?;
        if record.approval.is_some() {
            // Approved between the check and the take: denied after all, and spent.
            return Err(AuthorizeError::AlreadyApproved);
        }
        Ok(Pending {
            consumer_key: record.consumer_key,
            callback: record.callback,
        })
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
}
