//! [`Probe`]: asking a server which computation it runs, when it echoes nothing.

use std::collections::HashSet;

use super::cause::Cause;
use super::error::ExplainError;
use super::variant::{Context, Switches};
use crate::credentials::{Nonce, Timestamp};
use crate::error::Error;
use crate::request::{Request, Signed, Signer};
use crate::sign::SignatureMethod;

/// What the probe concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ProbeVerdict {
    /// The request signed exactly as RFC 5849 says was accepted: the fault was elsewhere.
    Rfc,
    /// A variant was accepted: the server computes as a side making these mistakes.
    Found,
    /// Nothing was accepted within the budget, or a refusal named another problem.
    None,
    /// The server answered with a redirect (a 3xx status), which is neither acceptance nor
    /// refusal: the signature was not judged where it was sent
    /// ([`ProbeReport::redirect`] says where it points). Probe that URL instead.
    Redirected,
}

impl std::fmt::Display for ProbeVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl ProbeVerdict {
    /// `rfc`, `found`, `none` or `redirected`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ProbeVerdict::Rfc => "rfc",
            ProbeVerdict::Found => "found",
            ProbeVerdict::None => "none",
            ProbeVerdict::Redirected => "redirected",
        }
    }
}

/// The server's answer to an [`ProbeAttempt`]: its status, and what it said (the `WWW-Authenticate`
/// header, the start of the body), read for a problem other than the signature.
#[derive(Clone, Debug, Default)]
pub struct ProbeAnswer {
    status: u16,
    www_authenticate: Option<String>,
    location: Option<String>,
    body: String,
}

impl ProbeAnswer {
    /// An answer with this status: 2xx is accepted, 3xx a redirect (neither accepted nor
    /// refused: it ends the probe), anything else refused.
    #[must_use]
    pub fn new(status: u16) -> Self {
        ProbeAnswer {
            status,
            ..ProbeAnswer::default()
        }
    }

    /// Adds the `WWW-Authenticate` header.
    #[must_use]
    pub fn with_www_authenticate(mut self, value: &str) -> Self {
        self.www_authenticate = Some(value.to_owned());
        self
    }

    /// The status.
    #[must_use]
    pub fn status(&self) -> u16 {
        self.status
    }

    /// Adds the `Location` header of a redirect.
    #[must_use]
    pub fn with_location(mut self, value: &str) -> Self {
        self.location = Some(value.to_owned());
        self
    }

    /// Adds the body, of which the first 64 KiB are read.
    #[must_use]
    pub fn with_body(mut self, body: &str) -> Self {
        let mut end = body.len().min(1 << 16);
        while !body.is_char_boundary(end) {
            end -= 1;
        }
        body[..end].clone_into(&mut self.body);
        self
    }

    fn accepted(&self) -> bool {
        (200..300).contains(&self.status)
    }

    fn redirected(&self) -> bool {
        (300..400).contains(&self.status)
    }

    /// A problem other than the signature that the refusal names, which no variant can cure.
    fn other_problem(&self) -> Option<String> {
        let texts = [self.www_authenticate.as_deref().unwrap_or(""), &self.body];
        for text in texts {
            if let Some(at) = text.find("oauth_problem=") {
                let rest = &text[at + "oauth_problem=".len()..];
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                    .unwrap_or(rest.len());
                let problem = &rest[..end];
                if !problem.is_empty() && problem != "signature_invalid" {
                    return Some(format!("oauth_problem={problem}"));
                }
            }
        }
        // X's code 135: "Timestamp out of bounds".
        let compact: String = self.body.chars().filter(|c| !c.is_whitespace()).collect();
        if compact.contains("\"code\":135") {
            return Some("the timestamp is out of bounds (X's error code 135)".to_owned());
        }
        None
    }
}

/// One request for the server: the method, URL, body and `Authorization` header to send, and
/// the causes it was signed as (none for the exact signature).
#[derive(Clone)]
pub struct ProbeAttempt {
    method: String,
    url: String,
    content_type: Option<String>,
    body: Vec<u8>,
    authorization: String,
    causes: Vec<Cause>,
    nonce: String,
}

impl std::fmt::Debug for ProbeAttempt {
    // The header's signature is a secret for PLAINTEXT: shown as the causes only.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProbeAttempt")
            .field("method", &self.method)
            .field("url", &self.url)
            .field("causes", &self.causes)
            .finish_non_exhaustive()
    }
}

impl ProbeAttempt {
    /// The method.
    #[must_use]
    pub fn method(&self) -> &str {
        &self.method
    }

    /// The URL: the request's, or its path alone when the probe tells a URI cause from a
    /// parameter cause.
    #[must_use]
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The `Content-Type` of the body, if it has one.
    #[must_use]
    pub fn content_type(&self) -> Option<&str> {
        self.content_type.as_deref()
    }

    /// The body.
    #[must_use]
    pub fn body(&self) -> &[u8] {
        &self.body
    }

    /// The `Authorization` header to send: the protocol parameters RFC 5849 sends, with the
    /// signature the causes compute (for PLAINTEXT it holds the secrets).
    #[must_use]
    pub fn authorization(&self) -> &str {
        &self.authorization
    }

    /// The causes the signature was computed with; none for the exact signature.
    #[must_use]
    pub fn causes(&self) -> &[Cause] {
        &self.causes
    }

    /// The nonce, fresh for each attempt.
    #[must_use]
    pub fn nonce(&self) -> &str {
        &self.nonce
    }
}

/// A redirect that ended a probe ([`ProbeVerdict::Redirected`]): its status and where it
/// points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeRedirect {
    status: u16,
    location: Option<String>,
}

impl ProbeRedirect {
    /// The status, 300 to 399.
    #[must_use]
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The `Location` header as the server sent it, if it sent one.
    #[must_use]
    pub fn location(&self) -> Option<&str> {
        self.location.as_deref()
    }
}

/// What [`Probe::report`] says: the verdict, the causes found, how many requests were sent,
/// what stopped the probe, and what it ruled out.
#[derive(Clone, Debug)]
pub struct ProbeReport {
    verdict: ProbeVerdict,
    causes: Vec<Cause>,
    requests: usize,
    stopped: Option<String>,
    redirect: Option<ProbeRedirect>,
    ruled_out: Vec<Vec<Cause>>,
}

impl ProbeReport {
    /// The verdict.
    #[must_use]
    pub fn verdict(&self) -> ProbeVerdict {
        self.verdict
    }

    /// The causes of the accepted variant ([`ProbeVerdict::Found`]).
    #[must_use]
    pub fn causes(&self) -> &[Cause] {
        &self.causes
    }

    /// How many requests were sent.
    #[must_use]
    pub fn requests(&self) -> usize {
        self.requests
    }

    /// The problem a refusal named, which stopped the probe.
    #[must_use]
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    /// The redirect that ended the probe ([`ProbeVerdict::Redirected`]).
    #[must_use]
    pub fn redirect(&self) -> Option<&ProbeRedirect> {
        self.redirect.as_ref()
    }

    /// The variants of the whole request the server refused (each cause, or pair of causes).
    #[must_use]
    pub fn ruled_out(&self) -> &[Vec<Cause>] {
        &self.ruled_out
    }
}

/// Which request an attempt is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// The request as given.
    Whole,
    /// Its method and path, without the query.
    Path,
}

#[derive(Clone, Debug)]
struct Planned {
    shape: Shape,
    causes: Vec<Cause>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Exact,
    PathExact,
    PathSingles,
    WithUriCause,
    Singles,
    Pairs,
    Done,
}

/// The causes in the order a server is likeliest to make them: behind a proxy first, then the
/// query's decoding, the sort, the key; the rest by the vocabulary's own ranks.
const SERVER_ORDER: &[Cause] = &[
    Cause::SchemeChanged,
    Cause::PortDropped,
    Cause::DefaultPortKept,
    Cause::PlusNotDecoded,
    Cause::QueryNotDecoded,
    Cause::PlusForSpace,
    Cause::UnencodedSubDelims,
    Cause::ParametersNotEncoded,
    Cause::DuplicatesCollapsed,
    Cause::FirstDuplicateKept,
    Cause::SortedBeforeEncoding,
    Cause::SortedByNameOnly,
    Cause::QueryNotSigned,
    Cause::QueryInBaseUri,
    Cause::KeyMissingAmpersand,
    Cause::KeySecretsNotEncoded,
    Cause::KeyTokenSecretMissing,
    Cause::WrongHash,
    Cause::VersionMismatch,
    Cause::EmptyValueDropped,
    Cause::HostNotLowercased,
    Cause::TrailingSlashChanged,
    Cause::ParsedAsPhp,
];

fn server_order() -> Vec<Cause> {
    let mut order = SERVER_ORDER.to_vec();
    let mut rest: Vec<Cause> = Cause::ALL
        .iter()
        .copied()
        // Which parameters go unsigned is a client's choice, with no variant of its own.
        .filter(|c| {
            !order.contains(c)
                && !matches!(c, Cause::ParameterNotSigned | Cause::QueryStartNotSigned)
        })
        .collect();
    rest.sort_by_key(|c| c.rank());
    order.extend(rest);
    order
}

/// Asking a server which computation it runs, when it echoes nothing: the same request signed
/// as each cause of the vocabulary would sign it, each with a fresh nonce and timestamp, until
/// the server accepts one. The vocabulary is symmetric: a server that accepts the
/// `plus-not-decoded` variant computes what such a client computes.
///
/// [`Probe`] does no input or output: it hands out the next [`ProbeAttempt`] to send and reads the
/// server's [`ProbeAnswer`]; the `oauth1 probe` command and `oauth1_reqwest::probe` send them. It
/// never hands out more attempts than its budget, nor a nonce twice.
///
/// The order: the request signed exactly (accepted: [`ProbeVerdict::Rfc`]); when it has a
/// query, the same method and path without it, to tell a cause in the URI, the key or the hash
/// (found on the short request, then paired with each parameter cause on the whole one) from a
/// cause in the parameters; then every cause alone, the likeliest for a server first, skipping
/// any whose signature equals one already sent; then pairs. A refusal that names another
/// problem (`oauth_problem=timestamp_refused`, …) stops the probe.
///
/// ```
/// use oauth1_signer::explain::{ProbeAnswer, Probe, ProbeVerdict};
/// use oauth1_signer::{Consumer, Signer};
///
/// let signer = Signer::new(Consumer::new("key", "secret"));
/// let mut probe = Probe::new(&signer, "GET", "https://api.example.com/items?q=a+b", 40, &[])?;
/// let first = probe.next_attempt()?.expect("the exact request first");
/// assert!(first.causes().is_empty());
/// // The server refused it with 401: the probe goes on with variants.
/// probe.answer(&ProbeAnswer::new(401));
/// let second = probe.next_attempt()?.expect("a variant");
/// assert_eq!(second.url(), "https://api.example.com/items"); // the path alone
/// // Accepted: the URI and key are as the RFC says; the cause is in the parameters.
/// probe.answer(&ProbeAnswer::new(200));
/// let third = probe.next_attempt()?.expect("the whole request, as a server making a mistake");
/// assert_eq!(third.causes().len(), 1);
/// // Refused; and so on until one is accepted: then the report's verdict is `found`.
/// probe.answer(&ProbeAnswer::new(401));
/// assert_eq!(probe.report().verdict(), ProbeVerdict::None);
/// assert_eq!(probe.report().requests(), 3);
/// # Ok::<(), oauth1_signer::explain::ExplainError>(())
/// ```
pub struct Probe<'a> {
    signer: &'a Signer,
    method: String,
    url: String,
    path_url: Option<String>,
    content_type: Option<String>,
    body: Vec<u8>,
    budget: usize,
    sent: usize,
    nonces: HashSet<String>,
    phase: Phase,
    queue: std::collections::VecDeque<Planned>,
    waiting: Option<Planned>,
    /// The signatures already sent, per shape, under the planning nonce (digests: a PLAINTEXT
    /// signature is the key).
    seen: HashSet<(bool, [u8; 32])>,
    verdict: ProbeVerdict,
    causes: Vec<Cause>,
    stopped: Option<String>,
    redirect: Option<ProbeRedirect>,
    ruled_out: Vec<Vec<Cause>>,
    /// On the path alone: the causes that sign alike, by their signature's digest.
    alike: std::collections::HashMap<[u8; 32], Vec<Cause>>,
}

impl std::fmt::Debug for Probe<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Probe")
            .field("method", &self.method)
            .field("url", &self.url)
            .field("budget", &self.budget)
            .field("sent", &self.sent)
            .field("phase", &self.phase)
            .finish_non_exhaustive()
    }
}

/// The nonce and timestamp variants are compared under, before each is sent with fresh ones.
const PLANNING_NONCE: &str = "probe0plan0nonce";
const PLANNING_TIME: u64 = 1_700_000_000;

impl<'a> Probe<'a> {
    /// A probe of the request `method url` signed by `signer`, sending at most `max_requests`.
    /// Only `GET` and `HEAD` are probed, whose repetition changes nothing on the server, unless
    /// `allowed` names the method. A PLAINTEXT signer and an `http` URL are refused: each
    /// request would send the secrets in clear
    /// ([`new_allowing_plaintext_over_http`](Self::new_allowing_plaintext_over_http) sends
    /// them all the same).
    ///
    /// # Errors
    ///
    /// [`ExplainError::MethodNotProbed`] for another method that `allowed` does not name;
    /// [`ExplainError::PlaintextOverHttp`] for PLAINTEXT over `http`; those of
    /// [`Request::new`] for the method and URL, as [`ExplainError::Sign`].
    pub fn new(
        signer: &'a Signer,
        method: &str,
        url: &str,
        max_requests: usize,
        allowed: &[&str],
    ) -> Result<Self, ExplainError> {
        Self::made(signer, method, url, max_requests, allowed, false)
    }

    /// [`new`](Self::new), but a PLAINTEXT signer probes an `http` URL too, sending the
    /// consumer secret and the token secret in clear with every request: for a test server on
    /// loopback, never across a network.
    ///
    /// # Errors
    ///
    /// Those of [`new`](Self::new) but [`ExplainError::PlaintextOverHttp`].
    pub fn new_allowing_plaintext_over_http(
        signer: &'a Signer,
        method: &str,
        url: &str,
        max_requests: usize,
        allowed: &[&str],
    ) -> Result<Self, ExplainError> {
        Self::made(signer, method, url, max_requests, allowed, true)
    }

    fn made(
        signer: &'a Signer,
        method: &str,
        url: &str,
        max_requests: usize,
        allowed: &[&str],
        plaintext_over_http: bool,
    ) -> Result<Self, ExplainError> {
        let request = Request::new(method, url)?;
        if signer.method() == SignatureMethod::Plaintext
            && request.url().scheme() == "http"
            && !plaintext_over_http
        {
            return Err(ExplainError::PlaintextOverHttp {
                origin: request.url().origin().ascii_serialization(),
            });
        }
        if !(["GET", "HEAD"].contains(&method) || allowed.contains(&method)) {
            return Err(ExplainError::MethodNotProbed {
                method: method.to_owned(),
            });
        }
        let path_url = match url.split_once('?') {
            Some((path, query)) if !query.split('#').next().unwrap_or("").is_empty() => {
                Some(path.to_owned())
            }
            _ => None,
        };
        Ok(Probe {
            signer,
            method: method.to_owned(),
            url: url.to_owned(),
            path_url,
            content_type: None,
            body: Vec::new(),
            budget: max_requests,
            sent: 0,
            nonces: HashSet::new(),
            phase: Phase::Exact,
            queue: [Planned {
                shape: Shape::Whole,
                causes: Vec::new(),
            }]
            .into(),
            waiting: None,
            seen: HashSet::new(),
            verdict: ProbeVerdict::None,
            causes: Vec::new(),
            stopped: None,
            redirect: None,
            ruled_out: Vec::new(),
            alike: std::collections::HashMap::new(),
        })
    }

    /// Adds a body of this `Content-Type` (a form's parameters are signed).
    #[must_use]
    pub fn with_body(mut self, content_type: &str, body: &[u8]) -> Self {
        self.content_type = Some(content_type.to_owned());
        self.body = body.to_vec();
        self
    }

    /// The request of `shape`.
    fn request(&self, shape: Shape) -> Result<Request<'_>, Error> {
        let request = Request::new(&self.method, self.url_of(shape))?;
        Ok(match &self.content_type {
            Some(content_type) => request.with_body(content_type, &self.body),
            None => request,
        })
    }

    /// The URL of `shape`: the request's, or its path alone.
    fn url_of(&self, shape: Shape) -> &str {
        match (shape, &self.path_url) {
            (Shape::Path, Some(path)) => path,
            _ => &self.url,
        }
    }

    /// `planned` signed with this nonce and timestamp.
    fn sign(
        &self,
        planned: &Planned,
        nonce: &Nonce,
        timestamp: Timestamp,
    ) -> Result<Signed, Error> {
        let request = self.request(planned.shape)?;
        let context = Context::new(
            self.signer,
            &request,
            nonce,
            timestamp,
            Some(self.url_of(planned.shape)),
        )?;
        context.signed_as_sent(Switches::of(&planned.causes))
    }

    /// The digest of `planned`'s signature under the planning nonce and time.
    fn digest(&self, planned: &Planned) -> Option<[u8; 32]> {
        use sha2::{Digest, Sha256};
        let nonce = Nonce::new(PLANNING_NONCE).ok()?;
        let signed = self
            .sign(planned, &nonce, Timestamp::new(PLANNING_TIME))
            .ok()?;
        Some(Sha256::digest(signed.signature().as_bytes()).into())
    }

    /// Whether `planned` signs differently from every attempt of its shape planned so far; if
    /// so, it is remembered.
    fn is_new(&mut self, planned: &Planned) -> bool {
        self.digest(planned)
            .is_some_and(|digest| self.seen.insert((planned.shape == Shape::Path, digest)))
    }

    /// Queues the variants of `shape` signed as each of `combinations`, skipping those that
    /// sign as one already planned. On the path alone, the causes that sign alike are kept
    /// together: which of them the server makes, only the whole request tells.
    fn plan(&mut self, shape: Shape, combinations: impl IntoIterator<Item = Vec<Cause>>) {
        for causes in combinations {
            let planned = Planned { shape, causes };
            let Some(digest) = self.digest(&planned) else {
                continue;
            };
            if shape == Shape::Path {
                self.alike
                    .entry(digest)
                    .or_default()
                    .extend(&planned.causes);
            }
            if self.seen.insert((shape == Shape::Path, digest)) {
                self.queue.push_back(planned);
            }
        }
    }

    /// Moves to the next phase whose queue is not empty.
    fn advance(&mut self) {
        let order = server_order();
        while self.queue.is_empty() && self.phase != Phase::Done {
            self.phase = match self.phase {
                Phase::Exact | Phase::PathExact | Phase::WithUriCause | Phase::PathSingles => {
                    self.plan(Shape::Whole, order.iter().map(|&c| vec![c]));
                    Phase::Singles
                }
                Phase::Singles => {
                    let mut pairs = Vec::new();
                    for (i, &a) in order.iter().enumerate() {
                        for &b in &order[i + 1..] {
                            if !super::variant::EXCLUSIVE
                                .iter()
                                .any(|group| group.contains(&a) && group.contains(&b))
                            {
                                pairs.push(vec![a, b]);
                            }
                        }
                    }
                    self.plan(Shape::Whole, pairs);
                    Phase::Pairs
                }
                Phase::Pairs | Phase::Done => Phase::Done,
            };
        }
    }

    /// The next request to send, or `None` when the probe is over: a verdict reached, the
    /// budget spent, or every variant sent. Each has a fresh nonce and the current time.
    ///
    /// # Errors
    ///
    /// Those of [`Nonce::generate`], [`Timestamp::now`] and of signing the request.
    pub fn next_attempt(&mut self) -> Result<Option<ProbeAttempt>, Error> {
        if self.waiting.is_some() {
            // The last attempt's answer was not given: it counts as refused.
            self.answer(&ProbeAnswer::new(401));
        }
        if self.sent >= self.budget {
            self.phase = Phase::Done;
        }
        if self.phase == Phase::Done {
            return Ok(None);
        }
        if self.queue.is_empty() {
            self.advance();
        }
        let Some(planned) = self.queue.pop_front() else {
            self.phase = Phase::Done;
            return Ok(None);
        };
        let nonce = loop {
            let nonce = Nonce::generate()?;
            if self.nonces.insert(nonce.as_str().to_owned()) {
                break nonce;
            }
        };
        let signed = self.sign(&planned, &nonce, Timestamp::now()?)?;
        let attempt = ProbeAttempt {
            method: self.method.clone(),
            url: self.url_of(planned.shape).to_owned(),
            content_type: self.content_type.clone(),
            body: self.body.clone(),
            authorization: signed.authorization(),
            causes: planned.causes.clone(),
            nonce: nonce.as_str().to_owned(),
        };
        self.sent += 1;
        self.waiting = Some(planned);
        Ok(Some(attempt))
    }

    /// Reads the server's answer to the last attempt.
    pub fn answer(&mut self, answer: &ProbeAnswer) {
        let Some(planned) = self.waiting.take() else {
            return;
        };
        if answer.redirected() {
            // Not judged where it was sent: every variant would be redirected alike.
            self.redirect = Some(ProbeRedirect {
                status: answer.status,
                location: answer.location.clone(),
            });
            self.finish(ProbeVerdict::Redirected, Vec::new());
            return;
        }
        if answer.accepted() {
            match (planned.shape, planned.causes.as_slice()) {
                (Shape::Whole, []) => self.finish(ProbeVerdict::Rfc, Vec::new()),
                (Shape::Whole, causes) => self.finish(ProbeVerdict::Found, causes.to_vec()),
                (Shape::Path, []) => {
                    // The URI, the key and the hash are as the RFC says: the parameters differ.
                    self.queue.clear();
                    self.phase = Phase::PathExact;
                }
                (Shape::Path, causes) => {
                    // Each cause that signs the path alike, alone on the whole request, then
                    // with each other cause.
                    let alike = self
                        .digest(&planned)
                        .and_then(|digest| self.alike.get(&digest).cloned())
                        .unwrap_or_else(|| causes.to_vec());
                    self.queue.clear();
                    let order = server_order();
                    let mut combinations: Vec<Vec<Cause>> =
                        alike.iter().map(|&c| vec![c]).collect();
                    for &cause in &alike {
                        combinations.extend(
                            order
                                .iter()
                                .filter(|&&c| c != cause)
                                .map(|&c| vec![cause, c]),
                        );
                    }
                    self.plan(Shape::Whole, combinations);
                    self.phase = Phase::WithUriCause;
                }
            }
            return;
        }
        if let Some(problem) = answer.other_problem() {
            self.stopped = Some(problem);
            self.finish(ProbeVerdict::None, Vec::new());
            return;
        }
        if planned.shape == Shape::Whole {
            self.ruled_out.push(planned.causes.clone());
        }
        match (self.phase, planned.shape, planned.causes.is_empty()) {
            (Phase::Exact, Shape::Whole, true) => {
                self.is_new(&planned);
                if self.path_url.is_some() {
                    let exact = Planned {
                        shape: Shape::Path,
                        causes: Vec::new(),
                    };
                    self.is_new(&exact);
                    self.queue.push_back(exact);
                }
            }
            (_, Shape::Path, true) => {
                // Something outside the parameters differs: each cause on the path alone.
                let order = server_order();
                self.plan(Shape::Path, order.into_iter().map(|c| vec![c]));
                self.phase = Phase::PathSingles;
            }
            _ => {}
        }
    }

    fn finish(&mut self, verdict: ProbeVerdict, causes: Vec<Cause>) {
        self.verdict = verdict;
        self.causes = causes;
        self.queue.clear();
        self.phase = Phase::Done;
    }

    /// What the probe found so far, or in the end.
    #[must_use]
    pub fn report(&self) -> ProbeReport {
        ProbeReport {
            verdict: self.verdict,
            causes: self.causes.clone(),
            requests: self.sent,
            stopped: self.stopped.clone(),
            redirect: self.redirect.clone(),
            ruled_out: self.ruled_out.clone(),
        }
    }
}

#[cfg(test)]
mod tests;
