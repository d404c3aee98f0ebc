//! The three-legged flow of RFC 5849 §2 over HTTP: a [`Provider`]'s three endpoints, and
//! helpers that send the two signed requests and read the answers.

use std::fmt;

use ::http::header::{HeaderValue, AUTHORIZATION};
use url::Url;

use oauth1_signer::flow::{
    authorization_url, Confirmation, FlowError, TemporaryCredentials, TokenCredentials,
};
use oauth1_signer::{Error, Request, Signer};

use crate::error::SignError;

/// The most bytes of a provider's answer read: the credentials fit in a few hundred.
pub const MAX_ANSWER_BYTES: usize = 64 * 1024;

/// The most characters of an error answer's body kept in [`FetchError::Status`].
pub const EXCERPT_CHARS: usize = 300;

/// A provider's endpoints for the three-legged flow (RFC 5849 §2): temporary credentials,
/// resource owner authorization, token credentials.
///
/// ```no_run
/// use oauth1_reqwest::Provider;
/// use oauth1_signer::{Consumer, Signer};
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let provider = Provider::new(
///     "https://api.x.com/oauth/request_token",
///     "https://api.x.com/oauth/authorize",
///     "https://api.x.com/oauth/access_token",
/// )?;
/// let client = reqwest::Client::new();
/// let consumer = Signer::new(Consumer::new("consumer key", "consumer secret"));
///
/// // Web request 1: temporary credentials, then send the user away.
/// let temporary = provider
///     .temporary_credentials(&client, &consumer, "https://client.example/callback")
///     .await?;
/// let _send_the_user_to = provider.authorization_url(&temporary);
///
/// // Web request 2, the callback: check it and exchange the verifier.
/// let callback = oauth1_signer::flow::Callback::parse("oauth_token=…&oauth_verifier=…", &temporary)?;
/// let credentials = provider
///     .token_credentials(&client, &consumer, &temporary, callback.verifier())
///     .await?;
/// let _user = consumer.with_token(credentials.into_token());
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct Provider {
    request_token_url: Url,
    authorize_url: Url,
    access_token_url: Url,
    confirmation: Confirmation,
}

impl Provider {
    /// The three endpoints, absolute `http` or `https` URLs.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidUrl`], [`Error::UrlWithoutHost`], [`Error::UnsupportedScheme`].
    pub fn new(
        request_token_url: &str,
        authorize_url: &str,
        access_token_url: &str,
    ) -> Result<Self, Error> {
        let endpoint = |url: &str| Request::new("POST", url).map(|r| r.url().clone());
        Ok(Provider {
            request_token_url: endpoint(request_token_url)?,
            authorize_url: endpoint(authorize_url)?,
            access_token_url: endpoint(access_token_url)?,
            confirmation: Confirmation::Required,
        })
    }

    /// Whether the temporary-credentials answer must carry `oauth_callback_confirmed=true`;
    /// see [`TemporaryCredentials::parse_with`].
    #[must_use]
    pub fn with_confirmation(mut self, confirmation: Confirmation) -> Self {
        self.confirmation = confirmation;
        self
    }

    /// Asks for temporary credentials (§2.1): a `POST` signed by `consumer` (its token, if
    /// any, is left out) with `oauth_callback`, `oob` for out of band.
    ///
    /// # Errors
    ///
    /// [`FetchError`]: the request could not be signed or sent, the provider answered with an
    /// error status, or its answer cannot be read.
    pub async fn temporary_credentials(
        &self,
        client: &reqwest::Client,
        consumer: &Signer,
        callback: &str,
    ) -> Result<TemporaryCredentials, FetchError> {
        let header = self.temporary_header(consumer, callback)?;
        let body = post(client, &self.request_token_url, header).await?;
        TemporaryCredentials::parse_with(&body, self.confirmation).map_err(FetchError::Answer)
    }

    /// The URL to send the resource owner to (§2.2).
    #[must_use]
    pub fn authorization_url(&self, temporary: &TemporaryCredentials) -> Url {
        authorization_url(&self.authorize_url, temporary)
    }

    /// Exchanges the temporary credentials and the callback's verifier for token credentials
    /// (§2.3): a `POST` signed by `consumer` with the temporary credentials as its token.
    ///
    /// # Errors
    ///
    /// [`FetchError`], as for [`Provider::temporary_credentials`].
    pub async fn token_credentials(
        &self,
        client: &reqwest::Client,
        consumer: &Signer,
        temporary: &TemporaryCredentials,
        verifier: &str,
    ) -> Result<TokenCredentials, FetchError> {
        let header = self.token_header(consumer, temporary, verifier)?;
        let body = post(client, &self.access_token_url, header).await?;
        TokenCredentials::parse(&body).map_err(FetchError::Answer)
    }

    /// [`Provider::temporary_credentials`] with a blocking client.
    ///
    /// # Errors
    ///
    /// [`FetchError`], as for [`Provider::temporary_credentials`].
    #[cfg(feature = "blocking")]
    pub fn temporary_credentials_blocking(
        &self,
        client: &reqwest::blocking::Client,
        consumer: &Signer,
        callback: &str,
    ) -> Result<TemporaryCredentials, FetchError> {
        let header = self.temporary_header(consumer, callback)?;
        let body = post_blocking(client, &self.request_token_url, header)?;
        TemporaryCredentials::parse_with(&body, self.confirmation).map_err(FetchError::Answer)
    }

    /// [`Provider::token_credentials`] with a blocking client.
    ///
    /// # Errors
    ///
    /// [`FetchError`], as for [`Provider::temporary_credentials`].
    #[cfg(feature = "blocking")]
    pub fn token_credentials_blocking(
        &self,
        client: &reqwest::blocking::Client,
        consumer: &Signer,
        temporary: &TemporaryCredentials,
        verifier: &str,
    ) -> Result<TokenCredentials, FetchError> {
        let header = self.token_header(consumer, temporary, verifier)?;
        let body = post_blocking(client, &self.access_token_url, header)?;
        TokenCredentials::parse(&body).map_err(FetchError::Answer)
    }

    fn temporary_header(&self, consumer: &Signer, callback: &str) -> Result<String, Error> {
        let signer = consumer.without_token();
        let request = Request::from_url("POST", &self.request_token_url)?.with_callback(callback);
        Ok(signer.sign_now(&request)?.authorization())
    }

    fn token_header(
        &self,
        consumer: &Signer,
        temporary: &TemporaryCredentials,
        verifier: &str,
    ) -> Result<String, Error> {
        let signer = consumer.clone().with_token(temporary.token().clone());
        let request = Request::from_url("POST", &self.access_token_url)?.with_verifier(verifier);
        Ok(signer.sign_now(&request)?.authorization())
    }
}

/// Why a step of the flow over HTTP failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum FetchError {
    /// The request could not be signed.
    Sign(SignError),
    /// The request could not be sent or the answer not received.
    Http(reqwest::Error),
    /// The provider answered with a status other than 2xx.
    #[non_exhaustive]
    Status {
        /// The HTTP status.
        status: u16,
        /// `oauth_problem`, when the answer reports one (the Problem Reporting extension).
        problem: Option<String>,
        /// `oauth_problem_advice`, when given.
        advice: Option<String>,
        /// The start of the answer's body, at most [`EXCERPT_CHARS`] characters, as text.
        excerpt: String,
        /// Where a redirect (3xx) points, its `Location` as sent: the client was not told to
        /// follow it, and the endpoint given is likely not the provider's.
        location: Option<String>,
    },
    /// The answer is longer than [`MAX_ANSWER_BYTES`].
    TooLarge,
    /// The answer (2xx) cannot be read as credentials.
    Answer(FlowError),
    /// The answer's body could not be read (blocking client).
    Read(std::io::Error),
    /// A [`Session`](crate::Session) asked to finish a flow it has not started.
    NotStarted,
}

impl fmt::Display for FetchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FetchError::Sign(e) => write!(f, "signing the request: {e}"),
            FetchError::Http(e) => write!(f, "sending the request: {e}"),
            FetchError::Status {
                status,
                problem,
                advice,
                excerpt,
                location,
            } => {
                write!(f, "the provider answered {status}")?;
                if let Some(location) = location {
                    write!(
                        f,
                        ", a redirect to {location:?} that is not followed (the signed request goes only where it was signed for): give the endpoint it points to"
                    )?;
                    return Ok(());
                }
                if let Some(problem) = problem {
                    write!(f, " with oauth_problem={problem}")?;
                }
                if let Some(advice) = advice {
                    write!(f, " ({advice})")?;
                }
                if problem.is_none() && !excerpt.is_empty() {
                    write!(f, ": {excerpt:?}")?;
                }
                Ok(())
            }
            FetchError::TooLarge => write!(
                f,
                "the provider's answer is longer than {MAX_ANSWER_BYTES} bytes: is this the right endpoint?"
            ),
            FetchError::Answer(e) => write!(f, "reading the provider's answer: {e}"),
            FetchError::Read(e) => write!(f, "reading the provider's answer: {e}"),
            FetchError::NotStarted => f.write_str(
                "the flow has not started: call Session::authorization_url first, or resume with the temporary credentials it kept",
            ),
        }
    }
}

impl std::error::Error for FetchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FetchError::Sign(e) => Some(e),
            FetchError::Http(e) => Some(e),
            FetchError::Answer(e) => Some(e),
            FetchError::Read(e) => Some(e),
            FetchError::Status { .. } | FetchError::TooLarge | FetchError::NotStarted => None,
        }
    }
}

impl From<Error> for FetchError {
    fn from(e: Error) -> Self {
        FetchError::Sign(SignError::Sign(e))
    }
}

impl From<SignError> for FetchError {
    fn from(e: SignError) -> Self {
        FetchError::Sign(e)
    }
}

/// Sends a `POST` with an empty body and the `Authorization` header; the body of a 2xx answer.
async fn post(client: &reqwest::Client, url: &Url, header: String) -> Result<Vec<u8>, FetchError> {
    let mut response = client
        .post(url.clone())
        .header(AUTHORIZATION, authorization_value(header)?)
        .send()
        .await
        .map_err(FetchError::Http)?;
    let status = response.status();
    let location = redirect_location(status, response.headers());
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(FetchError::Http)? {
        if body.len() + chunk.len() > MAX_ANSWER_BYTES {
            if !status.is_success() {
                break; // enough for the excerpt
            }
            return Err(FetchError::TooLarge);
        }
        body.extend_from_slice(&chunk);
    }
    answer(status.as_u16(), location, body)
}

/// The `Location` of a redirect answer, as text.
fn redirect_location(
    status: reqwest::StatusCode,
    headers: &reqwest::header::HeaderMap,
) -> Option<String> {
    if !status.is_redirection() {
        return None;
    }
    let location = headers.get(reqwest::header::LOCATION)?;
    Some(String::from_utf8_lossy(location.as_bytes()).into_owned())
}

#[cfg(feature = "blocking")]
fn post_blocking(
    client: &reqwest::blocking::Client,
    url: &Url,
    header: String,
) -> Result<Vec<u8>, FetchError> {
    use std::io::Read;

    let response = client
        .post(url.clone())
        .header(AUTHORIZATION, authorization_value(header)?)
        .send()
        .map_err(FetchError::Http)?;
    let status = response.status();
    let location = redirect_location(status, response.headers());
    let mut body = Vec::new();
    response
        .take(MAX_ANSWER_BYTES as u64 + 1)
        .read_to_end(&mut body)
        .map_err(FetchError::Read)?;
    if body.len() > MAX_ANSWER_BYTES {
        if status.is_success() {
            return Err(FetchError::TooLarge);
        }
        body.truncate(MAX_ANSWER_BYTES);
    }
    answer(status.as_u16(), location, body)
}

fn authorization_value(header: String) -> Result<HeaderValue, FetchError> {
    // A header this crate writes is visible ASCII.
    HeaderValue::try_from(header).map_err(|e| {
        FetchError::Sign(SignError::WriteBack {
            reason: e.to_string(),
        })
    })
}

/// The body of a 2xx answer, or the error another status is.
fn answer(status: u16, location: Option<String>, body: Vec<u8>) -> Result<Vec<u8>, FetchError> {
    if (200..300).contains(&status) {
        return Ok(body);
    }
    let (problem, advice) = match TokenCredentials::parse(&body) {
        Err(FlowError::Problem {
            problem, advice, ..
        }) => (Some(problem), advice),
        _ => (None, None),
    };
    let text = String::from_utf8_lossy(&body);
    let excerpt: String = text.trim().chars().take(EXCERPT_CHARS).collect();
    Err(FetchError::Status {
        status,
        problem,
        advice,
        excerpt,
        location,
    })
}
