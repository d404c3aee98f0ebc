//! The temporary credential request (RFC 5849 §2.1).

use super::{random, Issued, Issuer, TemporaryRecord, TemporaryStore};
use crate::callbacks::Callbacks;
use crate::error::VerifyError;
use crate::protocol::Expect;
use crate::store::{CredentialStore, NonceStore, TokenCredential, TokenStore};
use oauth1_signer::{Request, Secret, Timestamp};

impl<C, N, T> Issuer<C, N, T>
where
    C: CredentialStore + TokenStore + Sync,
    N: NonceStore + Sync,
    T: TemporaryStore + Sync,
{
    /// Answers a temporary credential request (§2.1) at the verifier's clock's time: verifies it
    /// (signed with the consumer's credentials alone), holds `oauth_callback` to the
    /// callbacks the consumer registered ([`ConsumerCredential::callbacks`](crate::ConsumerCredential::callbacks); only `oob` when
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
        self.temporary_credentials_with_headers(request, authorization, &[])
            .await
    }

    /// [`temporary_credentials`](Self::temporary_credentials), given the request's headers as the server received
    /// them: with the diagnosis on, a bad signature is first tried against the origins they
    /// name, as [`Verifier::verify_with_headers`](crate::Verifier::verify_with_headers) does.
    ///
    /// # Errors
    ///
    /// As [`temporary_credentials`](Self::temporary_credentials).
    pub async fn temporary_credentials_with_headers(
        &self,
        request: &Request<'_>,
        authorization: Option<&str>,
        headers: &[(&str, &str)],
    ) -> Result<Issued, VerifyError> {
        let now = self.verifier.clock().now()?;
        let (verified, consumer) = self
            .verifier
            .verify_as(
                request,
                authorization,
                headers,
                now,
                Expect::TemporaryRequest,
            )
            .await?;
        let callback = verified
            .protocol_parameter("oauth_callback")
            .unwrap_or_default();
        let callback = std::str::from_utf8(callback)
            .map_err(|_| VerifyError::malformed("oauth_callback is not UTF-8".to_owned()))?;
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
}
