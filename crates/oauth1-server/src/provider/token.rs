//! The token request (RFC 5849 §2.3): temporary credentials and a verifier exchanged for
//! token credentials.

use subtle::ConstantTimeEq;

use super::{random, Issued, Issuer, TemporaryStore};
use crate::error::VerifyError;
use crate::protocol::Expect;
use crate::store::{CredentialStore, NonceStore, TokenCredential, TokenStore};
use oauth1_signer::Request;

impl<C, N, T> Issuer<C, N, T>
where
    C: CredentialStore + TokenStore + Sync,
    N: NonceStore + Sync,
    T: TemporaryStore + Sync,
{
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
        self.token_credentials_with_headers(request, authorization, &[])
            .await
    }

    /// [`token_credentials`](Self::token_credentials), given the request's headers as the server received
    /// them: with the diagnosis on, a bad signature is first tried against the origins they
    /// name, as [`Verifier::verify_with_headers`](crate::Verifier::verify_with_headers) does.
    ///
    /// # Errors
    ///
    /// As [`token_credentials`](Self::token_credentials).
    pub async fn token_credentials_with_headers(
        &self,
        request: &Request<'_>,
        authorization: Option<&str>,
        headers: &[(&str, &str)],
    ) -> Result<Issued, VerifyError> {
        let now = self.verifier.clock().now()?;
        let (verified, _) = self
            .verifier
            .verify_as(request, authorization, headers, now, Expect::TokenRequest)
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
