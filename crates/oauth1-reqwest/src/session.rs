//! The three-legged flow and the signed requests after it, in one object.

use oauth1_signer::flow::{Callback, TemporaryCredentials, TokenCredentials};
use oauth1_signer::Signer;
use reqwest_middleware::ClientWithMiddleware;
use url::Url;

use crate::provider::{FetchError, Provider};
use crate::OAuth1Middleware;

/// A client's whole three-legged flow (RFC 5849 §2) with one provider, and then its signed
/// requests as the user: what requests-oauthlib's `OAuth1Session` does. It carries the state
/// from step to step (the temporary credentials, then the user's token), takes the callback
/// URL whole, and hands a `reqwest` client that signs every request.
///
/// ```no_run
/// use oauth1_reqwest::{Provider, Session};
/// use oauth1_signer::{Consumer, Signer};
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let provider = Provider::new(
///     "https://api.x.com/oauth/request_token",
///     "https://api.x.com/oauth/authorize",
///     "https://api.x.com/oauth/access_token",
/// )?;
/// let mut session = Session::new(provider, Signer::new(Consumer::new("key", "secret")));
/// let url = session.authorization_url("https://client.example/callback").await?;
/// println!("open {url}");
/// // … the provider sends the user back to the callback:
/// let redirected = "https://client.example/callback?oauth_token=…&oauth_verifier=…";
/// let credentials = session.authorize(redirected).await?; // keep them: they are the user's
/// let response = session.client()?.get("https://api.x.com/2/users/me").send().await?;
/// # let _ = (credentials, response);
/// # Ok(())
/// # }
/// ```
///
/// The flow spans two web requests, often on two server instances: keep
/// [`temporary`](Self::temporary) between them (they serialize with the core's `serde`
/// feature, and hold a secret), and [`resume`](Self::resume) with them at the callback. The
/// callback's `oauth_token` must be the flow's own, or [`authorize`](Self::authorize)
/// refuses it.
#[derive(Clone, Debug)]
pub struct Session {
    provider: Provider,
    signer: Signer,
    temporary: Option<TemporaryCredentials>,
    http: reqwest::Client,
}

impl Session {
    /// A flow with `provider`, signed by `consumer` (a token it holds is left out of the flow,
    /// and replaced by the user's once [`authorize`](Self::authorize) has it).
    #[must_use]
    pub fn new(provider: Provider, consumer: Signer) -> Self {
        Session {
            provider,
            signer: consumer,
            temporary: None,
            http: reqwest::Client::new(),
        }
    }

    /// The `reqwest` client the flow's two requests go through (its own unless given): one
    /// with TLS, a proxy or timeouts of the application's.
    #[must_use]
    pub fn with_http_client(mut self, client: reqwest::Client) -> Self {
        self.http = client;
        self
    }

    /// The flow resumed at its callback, in another web request than the one that started it:
    /// the temporary credentials [`temporary`](Self::temporary) gave there.
    #[must_use]
    pub fn resume(mut self, temporary: TemporaryCredentials) -> Self {
        self.temporary = Some(temporary);
        self
    }

    /// Step 1 (§2.1, §2.2): asks for temporary credentials with `callback` (`oob` when the
    /// user types the verifier in) and answers the URL to send the user to. The session keeps
    /// the temporary credentials.
    ///
    /// # Errors
    ///
    /// [`FetchError`]: the request could not be signed or sent, the provider answered with
    /// an error status, or its answer cannot be read.
    pub async fn authorization_url(&mut self, callback: &str) -> Result<Url, FetchError> {
        let temporary = self
            .provider
            .temporary_credentials(&self.http, &self.signer, callback)
            .await?;
        let url = self.provider.authorization_url(&temporary);
        self.temporary = Some(temporary);
        Ok(url)
    }

    /// Step 2 (§2.3): reads where the provider sent the user back (the callback URL whole, or
    /// its query), checks that its token is this flow's, and exchanges the verifier for token
    /// credentials, with which the session signs from then on. With `oob` there is no
    /// callback: give the verifier the user types in to
    /// [`authorize_with_verifier`](Self::authorize_with_verifier).
    ///
    /// # Errors
    ///
    /// [`FetchError::NotStarted`] before [`authorization_url`](Self::authorization_url) or
    /// [`resume`](Self::resume); [`FetchError::Answer`] for a callback without a verifier,
    /// with another flow's token, or with the provider's refusal (`oauth_problem`); then as
    /// for [`authorization_url`](Self::authorization_url).
    pub async fn authorize(&mut self, redirected: &str) -> Result<TokenCredentials, FetchError> {
        let temporary = self.temporary.as_ref().ok_or(FetchError::NotStarted)?;
        let query = callback_query(redirected);
        let callback = Callback::parse(query, temporary).map_err(FetchError::Answer)?;
        let verifier = callback.verifier().to_owned();
        self.authorize_with_verifier(&verifier).await
    }

    /// Step 2 with the verifier alone, as an `oob` flow's user types it in.
    ///
    /// # Errors
    ///
    /// As for [`authorize`](Self::authorize).
    pub async fn authorize_with_verifier(
        &mut self,
        verifier: &str,
    ) -> Result<TokenCredentials, FetchError> {
        let temporary = self.temporary.as_ref().ok_or(FetchError::NotStarted)?;
        let credentials = self
            .provider
            .token_credentials(&self.http, &self.signer, temporary, verifier)
            .await?;
        self.signer = self.signer.clone().with_token(credentials.token().clone());
        self.temporary = None;
        Ok(credentials)
    }

    /// A client that signs every request as the session's signer (the user's, once
    /// authorized): the `reqwest-middleware` client with [`OAuth1Middleware`], over a
    /// `reqwest` client that leaves redirects to the middleware.
    ///
    /// # Errors
    ///
    /// [`FetchError::Http`] if the `reqwest` client cannot be built (its TLS backend fails
    /// to start).
    pub fn client(&self) -> Result<ClientWithMiddleware, FetchError> {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(FetchError::Http)?;
        Ok(reqwest_middleware::ClientBuilder::new(http)
            .with(OAuth1Middleware::new(self.signer.clone()))
            .build())
    }

    /// The temporary credentials of a flow between its two steps, to keep for
    /// [`resume`](Self::resume); none before step 1 and after step 2.
    #[must_use]
    pub fn temporary(&self) -> Option<&TemporaryCredentials> {
        self.temporary.as_ref()
    }

    /// The signer: the consumer's, with the user's token once authorized.
    #[must_use]
    pub fn signer(&self) -> &Signer {
        &self.signer
    }
}

/// The query of a callback URL given whole (`https://…/callback?oauth_token=…`), or the text
/// itself when it is only the query (with or without its `?`).
fn callback_query(redirected: &str) -> &str {
    let text = redirected.trim();
    let query = match text.split_once('?') {
        Some((_, query)) => query,
        None => text,
    };
    // A fragment is not the server's to read.
    query.split('#').next().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_callback_is_read_whole_or_as_its_query() {
        for given in [
            "https://client.example/cb?oauth_token=t&oauth_verifier=v",
            "https://client.example/cb?oauth_token=t&oauth_verifier=v#done",
            "?oauth_token=t&oauth_verifier=v",
            "oauth_token=t&oauth_verifier=v\n",
        ] {
            assert_eq!(
                callback_query(given),
                "oauth_token=t&oauth_verifier=v",
                "{given}"
            );
        }
    }

    /// A flow that has not started says what to do, rather than a missing token.
    #[tokio::test]
    async fn authorizing_before_starting_is_an_error_that_says_so() {
        let provider = Provider::new(
            "https://p.example/i",
            "https://p.example/a",
            "https://p.example/t",
        )
        .unwrap();
        let consumer = Signer::new(oauth1_signer::Consumer::new("k", "s"));
        let mut session = Session::new(provider, consumer);
        let e = session
            .authorize("https://c.example/?oauth_token=t&oauth_verifier=v")
            .await;
        assert!(matches!(e, Err(FetchError::NotStarted)));
        assert_eq!(
            e.unwrap_err().to_string(),
            "the flow has not started: call Session::authorization_url first, or resume with the temporary credentials it kept"
        );
    }
}
