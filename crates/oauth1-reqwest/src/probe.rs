//! Asking a server which computation it runs ([`Probe`]), over `reqwest`: each attempt sent
//! as the probe hands it out, its answer read back, until the probe is over.

use std::fmt;
use std::future::Future;

use oauth1_signer::explain::{Probe, ProbeAnswer, ProbeAttempt, ProbeReport};

/// The most bytes of an answer read for a problem it names.
const MAX_READ: usize = 1 << 16;

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
/// header and the start of its body.
///
/// # Errors
///
/// reqwest's, when the request cannot be sent or the answer read.
pub async fn send_attempt(
    client: &reqwest::Client,
    attempt: &ProbeAttempt,
) -> Result<ProbeAnswer, reqwest::Error> {
    let method =
        reqwest::Method::from_bytes(attempt.method().as_bytes()).unwrap_or(reqwest::Method::GET);
    let mut request = client
        .request(method, attempt.url())
        .header(http::header::AUTHORIZATION, attempt.authorization());
    if let Some(content_type) = attempt.content_type() {
        request = request
            .header(http::header::CONTENT_TYPE, content_type)
            .body(attempt.body().to_vec());
    }
    let response = request.send().await?;
    let mut answer = ProbeAnswer::new(response.status().as_u16());
    if let Some(value) = response
        .headers()
        .get(http::header::WWW_AUTHENTICATE)
        .and_then(|v| v.to_str().ok())
    {
        answer = answer.with_www_authenticate(value);
    }
    let body = response.bytes().await?;
    let read = &body[..body.len().min(MAX_READ)];
    Ok(answer.with_body(&String::from_utf8_lossy(read)))
}

/// Runs `probe` to its end with `client`, awaiting `between()` between two requests (a pause,
/// such as `tokio::time::sleep`, that a rate-limited API tolerates), and reports.
///
/// ```no_run
/// use std::time::Duration;
/// use oauth1_signer::explain::{Probe, ProbeVerdict};
/// use oauth1_signer::{Consumer, Signer, Token};
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let signer = Signer::new(Consumer::new("key", "secret")).with_token(Token::new("token", "token secret"));
/// let mut probe = Probe::new(&signer, "GET", "https://api.example.com/1.1/items.json?q=a+b", 40, &[])?;
/// let report = oauth1_reqwest::probe::run(&reqwest::Client::new(), &mut probe, || {
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
        let answer = send_attempt(client, &attempt)
            .await
            .map_err(ProbeError::Send)?;
        probe.answer(&answer);
    }
    Ok(probe.report())
}
