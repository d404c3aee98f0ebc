//! Asking a server which computation it runs ([`Probe`]), over `reqwest`: each attempt sent
//! as the probe hands it out, its answer read back, until the probe is over.

use std::fmt;
use std::future::Future;
use std::time::Duration;

use oauth1_signer::explain::{Probe, ProbeAnswer, ProbeAttempt, ProbeReport};

/// The most bytes of an answer's body read (for a problem it names); the rest is never read:
/// the connection is dropped.
pub const MAX_READ: usize = 1 << 16;

/// How long one attempt may take by default, from connecting to the end of what is read of
/// its answer, head and body together.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// Why a probe could not go on.
#[derive(Debug)]
#[non_exhaustive]
pub enum ProbeError {
    /// An attempt could not be made (no randomness, no clock, a request that cannot be signed).
    Probe(oauth1_signer::Error),
    /// An attempt could not be sent, or its answer read.
    Send(reqwest::Error),
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::Probe(e) => e.fmt(f),
            // Without the URL: the attempt carried a signature that could be replayed.
            ProbeError::Send(e) => write!(f, "sending a probe's request: {}", e.without_url_ref()),
        }
    }
}

impl std::error::Error for ProbeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ProbeError::Probe(e) => Some(e),
            ProbeError::Send(e) => Some(e),
        }
    }
}

trait WithoutUrl {
    fn without_url_ref(&self) -> String;
}

impl WithoutUrl for reqwest::Error {
    fn without_url_ref(&self) -> String {
        let mut text = self.to_string();
        if let Some(url) = self.url() {
            text = text.replace(url.as_str(), "…");
        }
        text
    }
}

/// Sends one attempt with `client` and reads the answer: its status, its `WWW-Authenticate`
/// and `Location` headers and the first [`MAX_READ`] bytes of its body, all within
/// [`DEFAULT_TIMEOUT`] ([`send_attempt_within`] with another).
///
/// # Errors
///
/// reqwest's, when the request cannot be sent or its head read in time.
pub async fn send_attempt(
    client: &reqwest::Client,
    attempt: &ProbeAttempt,
) -> Result<ProbeAnswer, reqwest::Error> {
    send_attempt_within(client, attempt, DEFAULT_TIMEOUT).await
}

/// [`send_attempt`] within `timeout`: one deadline for the whole attempt, from connecting to
/// the end of its body, however slowly the server sends it. A body that ends early (the
/// deadline passes, the connection breaks) is taken as far as it came: the status has already
/// answered. At most [`MAX_READ`] bytes of it are read, then the connection is dropped, however
/// much the server announces or sends.
///
/// # Errors
///
/// reqwest's, when the request cannot be sent or its head read within `timeout`.
pub async fn send_attempt_within(
    client: &reqwest::Client,
    attempt: &ProbeAttempt,
    timeout: Duration,
) -> Result<ProbeAnswer, reqwest::Error> {
    let method =
        reqwest::Method::from_bytes(attempt.method().as_bytes()).unwrap_or(reqwest::Method::GET);
    let mut request = client
        .request(method, attempt.url())
        .timeout(timeout)
        .header(http::header::AUTHORIZATION, attempt.authorization());
    if let Some(content_type) = attempt.content_type() {
        request = request
            .header(http::header::CONTENT_TYPE, content_type)
            .body(attempt.body().to_vec());
    }
    let mut response = request.send().await?;
    let mut answer = ProbeAnswer::new(response.status().as_u16());
    let header = |name| {
        response
            .headers()
            .get(name)
            .and_then(|v: &http::HeaderValue| v.to_str().ok())
    };
    if let Some(value) = header(http::header::WWW_AUTHENTICATE) {
        answer = answer.with_www_authenticate(value);
    }
    if response.status().is_redirection() {
        if let Some(value) = header(http::header::LOCATION) {
            answer = answer.with_location(value);
        }
    }
    let mut body = Vec::new();
    // Chunk by chunk, so that no more than MAX_READ (and one chunk) is ever held.
    while body.len() < MAX_READ {
        match response.chunk().await {
            Ok(Some(chunk)) => body.extend_from_slice(&chunk),
            Ok(None) | Err(_) => break,
        }
    }
    // Dropped unread, the rest of the body is never received: the connection is closed.
    drop(response);
    body.truncate(MAX_READ);
    Ok(answer.with_body(&String::from_utf8_lossy(&body)))
}

/// Runs `probe` to its end with `client`, awaiting `between()` between two requests (a pause,
/// such as `tokio::time::sleep`, that a rate-limited API tolerates), and reports. Each attempt
/// takes at most [`DEFAULT_TIMEOUT`] ([`run_within`] with another), so the whole probe at most
/// its budget times that and the pause.
///
/// Give it a client that does not follow redirects (`redirect(Policy::none())`): a redirect
/// followed would be answered for another URL than the one signed; one not followed ends the
/// probe with [`ProbeVerdict::Redirected`](oauth1_signer::explain::ProbeVerdict::Redirected).
///
/// ```no_run
/// use std::time::Duration;
/// use oauth1_signer::explain::{Probe, ProbeVerdict};
/// use oauth1_signer::{Consumer, Signer, Token};
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let signer = Signer::new(Consumer::new("key", "secret")).with_token(Token::new("token", "token secret"));
/// let mut probe = Probe::new(&signer, "GET", "https://api.example.com/1.1/items.json?q=a+b", 40, &[])?;
/// let client = reqwest::Client::builder()
///     .redirect(reqwest::redirect::Policy::none())
///     .build()?;
/// let report = oauth1_reqwest::probe::run(&client, &mut probe, || {
///     tokio::time::sleep(Duration::from_secs(1))
/// })
/// .await?;
/// if report.verdict() == ProbeVerdict::Found {
///     println!("the server computes as a client that makes {:?}", report.causes());
/// }
/// # Ok(())
/// # }
/// ```
///
/// # Errors
///
/// [`ProbeError::Probe`] when an attempt cannot be made, [`ProbeError::Send`] when it cannot
/// be sent: the probe stops there.
pub async fn run<F, Fut>(
    client: &reqwest::Client,
    probe: &mut Probe<'_>,
    between: F,
) -> Result<ProbeReport, ProbeError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = ()>,
{
    run_within(client, probe, DEFAULT_TIMEOUT, between).await
}

/// [`run`], each attempt within `timeout` ([`send_attempt_within`]).
///
/// # Errors
///
/// As [`run`]'s.
pub async fn run_within<F, Fut>(
    client: &reqwest::Client,
    probe: &mut Probe<'_>,
    timeout: Duration,
    mut between: F,
) -> Result<ProbeReport, ProbeError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = ()>,
{
    let mut first = true;
    while let Some(attempt) = probe.next_attempt().map_err(ProbeError::Probe)? {
        if !first {
            between().await;
        }
        first = false;
        let answer = send_attempt_within(client, &attempt, timeout)
            .await
            .map_err(ProbeError::Send)?;
        probe.answer(&answer);
    }
    Ok(probe.report())
}
