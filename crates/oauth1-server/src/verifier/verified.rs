//! What a verification answers: the request verified, who signed it and what it signed.

use oauth1_signer::params::Normalized;
use oauth1_signer::server::Span;
use oauth1_signer::sign::SignatureMethod;
use oauth1_signer::Timestamp;

#[cfg(doc)]
use crate::store::TokenCredential;

/// A verified request: who signed it, and everything it signed.
#[derive(Clone)]
pub struct Verified {
    /// Where `oauth_consumer_key` and `oauth_token` lie in `params`, each found UTF-8 when the
    /// request was verified (a verified request's parameters are never changed).
    pub(super) consumer_key: Option<Span>,
    pub(super) token: Option<Span>,
    pub(super) owner: Option<String>,
    pub(super) method: SignatureMethod,
    pub(super) timestamp: Timestamp,
    pub(super) realm: Option<String>,
    pub(super) params: Normalized,
}

impl std::fmt::Debug for Verified {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Verified")
            .field("consumer_key", &self.consumer_key())
            .field("token", &self.token())
            .field("owner", &self.owner)
            .field("method", &self.method)
            .field("timestamp", &self.timestamp)
            .field("realm", &self.realm)
            .field("params", &self.params)
            .finish()
    }
}

impl Verified {
    /// `oauth_consumer_key`.
    #[must_use]
    pub fn consumer_key(&self) -> &str {
        self.text(self.consumer_key.as_ref())
    }

    /// `oauth_token`, if the request carried a non-empty one: a token the credential store
    /// holds for [`consumer_key`](Self::consumer_key), whatever the signature method.
    #[must_use]
    pub fn token(&self) -> Option<&str> {
        self.token.as_ref().map(|token| self.text(Some(token)))
    }

    /// Whose resources the token grants, when the credential store knows
    /// ([`TokenCredential::owner`]): the user who approved it, for tokens an [`Issuer`](crate::Issuer)
    /// issued.
    #[must_use]
    pub fn resource_owner(&self) -> Option<&str> {
        self.owner.as_deref()
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

    /// The text at `span` in the parameters, which was checked to be UTF-8 when the request
    /// was verified.
    fn text(&self, span: Option<&Span>) -> &str {
        std::str::from_utf8(self.params.at(span)).unwrap_or_default()
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
