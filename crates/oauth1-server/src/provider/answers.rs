//! What the provider answers: credentials issued, temporary credentials waiting for approval,
//! an approval with its redirect, and why an approval could not be given.

use std::fmt;

use crate::error::StoreError;
use crate::store::{TokenCredential, TokenKind};
use oauth1_signer::encode;

/// Credentials an [`Issuer`](crate::Issuer) issued: the token, what is held for it (its secret, its kind,
/// the resource owner for token credentials), and the answer to send, the body of a `200` as
/// `application/x-www-form-urlencoded` (§2.1, §2.3).
#[derive(Clone, Debug)]
pub struct Issued {
    pub(super) token: String,
    pub(super) consumer_key: String,
    pub(super) credential: TokenCredential,
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
    pub(super) verifier: zeroize::Zeroizing<String>,
    pub(super) redirect: Option<String>,
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
