//! What `oauth1 serve` answers: the three endpoints of RFC 5849 §2, every other path as a
//! protected resource, and every refusal in the OAuth Problem Reporting format with its
//! diagnosis.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::{Arc, Mutex, PoisonError};

use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::http::request::Parts;
use hyper::{Method, Request as HttpRequest, Response, StatusCode};
use oauth1_server::{
    Callbacks, ConsumerCredential, Diagnosis, Issuer, MemoryCredentials, MemoryNonceStore,
    MemoryTemporaryStore, PublicOrigin, Verified, Verifier, VerifyError, WithTemporary,
};
use oauth1_signer::{Realm, Request, SignatureMethod};
use serde_json::json;
use url::Url;

use super::credentials::Known;
use super::record::{clock, rfc3339, Lines};
use oauth1_signer::profile::Profile;

mod authorization;
mod profiled;
use super::{Approve, ServeArgs};
use crate::terminal::value;

type Issuing = Issuer<Arc<MemoryCredentials>, Arc<MemoryNonceStore>, Arc<MemoryTemporaryStore>>;

/// The signature methods it verifies: those of a shared secret. RSA is verified with the
/// consumer's public key, which it does not take, so an RSA request is refused for its method
/// rather than for a signature that could never match. PLAINTEXT sends the secrets, and is
/// refused over plain http as a provider refuses it.
pub(super) const METHODS: [SignatureMethod; 4] = [
    SignatureMethod::HmacSha1,
    SignatureMethod::HmacSha256,
    SignatureMethod::HmacSha512,
    SignatureMethod::Plaintext,
];

/// [`METHODS`] in words, as the banner and the refusals name them.
pub(super) const METHODS_TEXT: &str = "HMAC-SHA1, HMAC-SHA256, HMAC-SHA512 and PLAINTEXT";

/// The most bytes of a body read, as the server crate's tower layer reads.
const BODY_LIMIT: usize = 1 << 20;
/// The most time a body may take to arrive once its head has: a client on this machine sends
/// 1 MiB in milliseconds, and one that trickles holds a connection slot.
const BODY_DEADLINE: std::time::Duration = std::time::Duration::from_secs(10);
/// The most time one exchange is answered in, from its head read to its answer made (the body,
/// the verification and a diagnosis's wait in the queue included).
pub(super) const EXCHANGE_DEADLINE: std::time::Duration = std::time::Duration::from_secs(60);
/// No limit a second on the diagnoses: they run one at a time, so they hold one thread at
/// most, and a client's tests may send many bad signatures in a second.
const DIAGNOSES_PER_SECOND: u32 = u32::MAX;
/// How many bad signatures may wait for the one being diagnosed: a client's tests running in
/// parallel have each of theirs diagnosed, one after the other (each within its time, below).
const DIAGNOSIS_QUEUE: usize = 16;
/// What one diagnosis may cost: more than a production server allows (64 MiB, 200 ms), for a
/// provider that exists to say why; still one at a time, and bounded.
const DIAGNOSIS_BYTES: u64 = 256 << 20;
const DIAGNOSIS_TIME: std::time::Duration = std::time::Duration::from_secs(2);
/// The provider: its issuer (whose verifier also verifies resource requests), its origin and
/// what it records.
pub(super) struct Provider {
    issuer: Issuing,
    /// The address it listens on, which a client on this machine reaches it at.
    listening: std::net::SocketAddr,
    /// The origin clients sign for; without `--origin`, a loopback name the client reached
    /// this port by is taken instead ([`origin_of`](Self::origin_of)).
    origin: PublicOrigin,
    /// Whether `--origin` fixed it.
    fixed: bool,
    /// The consumer keys, as a refusal lists them.
    keys: String,
    base: String,
    realm: Realm,
    approve: Approve,
    /// `--profile`: resource requests' signatures checked as that provider's server computes.
    profile: Option<&'static Profile>,
    /// The anti-forgery tokens of the authorization pages shown and not yet decided, by
    /// temporary token, the oldest first.
    forms: Mutex<HashMap<String, Vec<String>>>,
    log: Option<Mutex<std::fs::File>>,
    lines: Lines,
}

/// What became of one request, for the terminal and the log.
struct Outcome {
    /// `accepted`, `issued`, `approved`, … or the refusal's reason id.
    verdict: String,
    /// The diagnosis's cause ids.
    causes: Vec<&'static str>,
    /// One more thing worth a line: the mistake, the origin signed for, the token issued.
    detail: Option<String>,
}

impl Outcome {
    fn new(verdict: &str, detail: Option<String>) -> Self {
        Outcome {
            verdict: verdict.to_owned(),
            causes: Vec::new(),
            detail,
        }
    }
}

type Answer = (Response<Full<Bytes>>, Outcome);

/// A consumer key or token a request names that this server does not know.
struct Unknown {
    problem: &'static str,
    reason: &'static str,
    advice: String,
}

/// The credential endpoints, each taking POST (RFC 5849 §2.1, §2.3).
#[derive(Clone, Copy)]
enum Endpoint {
    Temporary,
    Token,
}

impl Provider {
    pub(super) fn new(
        known: &Known,
        (origin, listening): (Url, std::net::SocketAddr),
        args: &ServeArgs,
        lines: Lines,
    ) -> Result<Self, String> {
        let callbacks = callbacks(&args.callbacks)?;
        let mut credentials = MemoryCredentials::new();
        for (key, consumer) in &known.consumers {
            credentials.insert_consumer(
                key.as_str(),
                ConsumerCredential::from_secret(consumer.secret.as_str())
                    .with_callbacks(callbacks.clone()),
            );
            for (token, secret) in &consumer.tokens {
                credentials.add_token(key.as_str(), token.as_str(), secret.as_str());
            }
        }
        let store =
            WithTemporary::new(Arc::new(credentials), Arc::new(MemoryTemporaryStore::new()));
        let verifier = Verifier::new(store, Arc::new(MemoryNonceStore::new()))
            .with_policy(oauth1_server::Policy::default().with_methods(&METHODS))
            .with_diagnosis(DIAGNOSES_PER_SECOND)
            .with_diagnosis_cost(DIAGNOSIS_BYTES, DIAGNOSIS_TIME)
            .with_diagnosis_queue(DIAGNOSIS_QUEUE);
        let base = origin.as_str().trim_end_matches('/').to_owned();
        let realm = Realm::new(base.clone()).map_err(|e| format!("the realm {base}: {e}"))?;
        let log = match &args.log {
            Some(path) => Some(Mutex::new(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("opening --log {}: {e}", path.display()))?,
            )),
            None => None,
        };
        Ok(Provider {
            issuer: Issuer::new(verifier),
            listening,
            origin: PublicOrigin::Fixed(origin),
            fixed: args.origin.is_some(),
            keys: known.describe_keys(),
            base,
            realm,
            approve: args.approve,
            profile: args.profile,
            forms: Mutex::default(),
            log,
            lines,
        })
    }

    /// The origin a request is verified at: `--origin`; or else, when the client reached this
    /// port by a loopback name (`localhost`, `127.0.0.1`, `[::1]`), that name, as a server
    /// reached by its name verifies at it; or else the listening address. A client that
    /// signed for any other origin is told which it signed for.
    fn origin_of(&self, headers: &HeaderMap) -> std::borrow::Cow<'_, PublicOrigin> {
        let PublicOrigin::Fixed(origin) = &self.origin else {
            return std::borrow::Cow::Borrowed(&self.origin);
        };
        let reached = (!self.fixed)
            .then(|| text(headers, header::HOST))
            .flatten()
            .and_then(|host| Url::parse(&format!("http://{host}")).ok())
            .filter(|url| {
                let loopback = match url.host() {
                    Some(url::Host::Domain(name)) => name == "localhost",
                    Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
                    Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
                    None => false,
                };
                loopback
                    && url.port_or_known_default() == origin.port_or_known_default()
                    && url.path() == "/"
                    && url.username().is_empty()
            });
        match reached {
            Some(url) if url != *origin => std::borrow::Cow::Owned(PublicOrigin::Fixed(url)),
            _ => std::borrow::Cow::Borrowed(&self.origin),
        }
    }

    /// Answers one request, and records it on the terminal and in the log.
    pub(super) async fn answer(&self, request: HttpRequest<Incoming>) -> Response<Full<Bytes>> {
        let (parts, body) = request.into_parts();
        let target = parts.uri.path_and_query().map_or("/", |p| p.as_str());
        let (response, outcome) =
            match tokio::time::timeout(EXCHANGE_DEADLINE, self.route(&parts, body)).await {
                Ok(answer) => answer,
                Err(_) => plain(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "too-slow",
                    &format!(
                        "no answer within {} s (bad signatures waiting for their diagnosis, one at a time): send it again",
                        EXCHANGE_DEADLINE.as_secs()
                    ),
                ),
            };
        self.record(parts.method.as_str(), target, response.status(), &outcome);
        response
    }

    /// 421 to a request whose `Host` names another server ([`super::host::check`]).
    fn misdirected(&self, headers: &HeaderMap) -> Option<Answer> {
        let PublicOrigin::Fixed(origin) = &self.origin else {
            return None;
        };
        let host = super::host::check(headers, self.listening, origin).err()?;
        Some(plain(
            StatusCode::MISDIRECTED_REQUEST,
            "misdirected",
            &format!(
                "this server answers requests for {origin} and its loopback names only, and this one's Host is {host} (a web page may be trying to reach it): send it to {origin}, or start oauth1 serve with --origin set to the origin clients use",
                origin = self.base
            ),
        ))
    }

    async fn route(&self, parts: &Parts, body: Incoming) -> Answer {
        if let Some(answer) = self.misdirected(&parts.headers) {
            return answer;
        }
        let path = parts.uri.path();
        let endpoint = match (path, &parts.method) {
            ("/oauth/request_token", &Method::POST) => Some(Endpoint::Temporary),
            ("/oauth/access_token", &Method::POST) => Some(Endpoint::Token),
            ("/oauth/authorize", &Method::GET | &Method::HEAD) => {
                return self.authorize_page(parts).await
            }
            ("/oauth/authorize", &Method::POST) if self.approve == Approve::Ask => {
                return match read(body).await {
                    Ok(body) => self.decide(&body).await,
                    Err(answer) => answer,
                };
            }
            ("/oauth/request_token", _) => {
                return self.not_post(Endpoint::Temporary, wants_json(&parts.headers))
            }
            ("/oauth/access_token", _) => {
                return self.not_post(Endpoint::Token, wants_json(&parts.headers))
            }
            // Every other path and method is a protected resource.
            _ => None,
        };
        let body = match read(body).await {
            Ok(body) => body,
            Err(answer) => return answer,
        };
        let json = wants_json(&parts.headers);
        let target = parts.uri.path_and_query().map_or("/", |p| p.as_str());
        let url = match self.origin_of(&parts.headers).url(target, []) {
            Ok(url) => url,
            Err(e) => return self.refuse(&e, json),
        };
        // The URL as the client wrote it, beside the parsed one (which escapes `'` in a query,
        // say): the diagnosis reads the query as sent.
        let written = format!("{}{target}", url.origin().ascii_serialization());
        let request = match Request::from_url(parts.method.as_str(), &url) {
            Ok(request) => request.with_url_as_written(&written),
            Err(e) => return plain(StatusCode::BAD_REQUEST, "malformed-request", &e.to_string()),
        };
        let content_type = text(&parts.headers, header::CONTENT_TYPE).unwrap_or("");
        let request = request.with_body(content_type, &body);
        let authorization = match authorization(&parts.headers) {
            Ok(authorization) => authorization,
            Err(wrong) => return plain(StatusCode::BAD_REQUEST, "malformed-request", wrong),
        };
        let headers: Vec<(&str, &str)> = (parts.headers.iter())
            .filter_map(|(n, v)| Some((n.as_str(), v.to_str().ok()?)))
            .collect();
        let issued = match endpoint {
            Some(Endpoint::Temporary) => self
                .issuer
                .temporary_credentials_with_headers(&request, authorization, &headers)
                .await
                .map(|i| (i, "temporary credentials")),
            Some(Endpoint::Token) => self
                .issuer
                .token_credentials_with_headers(&request, authorization, &headers)
                .await
                .map(|i| (i, "token credentials")),
            None => {
                let verified = self
                    .issuer
                    .verifier()
                    .verify_with_headers(&request, authorization, &headers)
                    .await;
                return match (self.profile, verified) {
                    (Some(profile), verified) => {
                        let received = (&request, written.as_str());
                        self.as_profile(profile, received, authorization, verified, json)
                            .await
                    }
                    (None, Ok(verified)) => echo(&verified, &request, None),
                    (None, Err(e)) => self.refuse_request(&e, json, authorization).await,
                };
            }
        };
        match issued {
            Ok((issued, what)) => {
                let detail = format!(
                    "{what} {} for {}",
                    value(issued.token()),
                    value(issued.consumer_key())
                );
                let body = issued.body().to_string();
                (
                    respond(StatusCode::OK, "application/x-www-form-urlencoded", body),
                    Outcome::new("issued", Some(detail)),
                )
            }
            Err(e) => self.refuse_request(&e, json, authorization).await,
        }
    }

    /// [`refuse`](Self::refuse), saying so when a bad signature names a consumer key or a
    /// token this server does not know: its keys and tokens are the developer's own, not
    /// secrets to keep from a client.
    async fn refuse_request(
        &self,
        error: &VerifyError,
        json: bool,
        authorization: Option<&str>,
    ) -> Answer {
        let unknown = match (error, authorization) {
            (VerifyError::BadSignature { .. }, Some(header)) => self.unknown(header).await,
            _ => None,
        };
        match unknown {
            Some(unknown) => self.refuse_unknown(&unknown, json),
            None => self.refuse(error, json),
        }
    }

    /// What a header names that this server does not know: the problem it is, and the advice.
    async fn unknown(&self, header: &str) -> Option<Unknown> {
        use oauth1_server::CredentialStore as _;
        let parsed = oauth1_signer::header::Authorization::parse(header).ok()?;
        let text = |name| {
            parsed
                .get(name)
                .map(|v| String::from_utf8_lossy(v).into_owned())
        };
        let key = text("oauth_consumer_key")?;
        let store = self.issuer.verifier().credentials();
        if !matches!(store.consumer(&key).await, Ok(Some(_))) {
            return Some(Unknown {
                problem: "consumer_key_unknown",
                reason: "consumer-key-unknown",
                advice: format!(
                    "this server knows no consumer key \"{}\" (it knows {}): sign with one of them, or start oauth1 serve with this one",
                    key.escape_default(),
                    self.keys
                ),
            });
        }
        let token = text("oauth_token").filter(|t| !t.is_empty())?;
        match store.token(&key, &token).await {
            Ok(Some(_)) => None,
            _ => Some(Unknown {
                problem: "token_rejected",
                reason: "token-rejected",
                advice: format!(
                    "this server knows no token \"{}\" of the consumer \"{}\": temporary credentials are void once exchanged (or once they expire), and the token credentials it knows are those it issued and those it was started with (--token, --credentials)",
                    token.escape_default(),
                    key.escape_default()
                ),
            }),
        }
    }

    /// 405 to a credential endpoint reached by another method than POST, with `Allow: POST`:
    /// RFC 5849 recommends POST for both (§2.1, §2.3), and they are not protected resources
    /// to be verified as such. The body is a Problem Reporting answer with its advice alone:
    /// the extension defines no `oauth_problem` for a method, and allows no other value.
    fn not_post(&self, endpoint: Endpoint, json: bool) -> Answer {
        let (what, section) = match endpoint {
            Endpoint::Temporary => ("temporary credential endpoint", "§2.1"),
            Endpoint::Token => ("token endpoint", "§2.3"),
        };
        let advice = format!(
            "this is the {what}, which takes POST (RFC 5849 {section}): send the request with POST, signed as a POST; nothing was verified or issued"
        );
        let status = StatusCode::METHOD_NOT_ALLOWED;
        let fields = json!({
            "status": status.as_u16(),
            "oauth_problem": null,
            "oauth_problem_advice": advice,
            "reason": "method-not-allowed",
            "causes": [],
            "diagnosis": null,
            "signed_for": null,
            "unknown": null,
        });
        let form = format!(
            "oauth_problem_advice={}",
            oauth1_signer::encode::encode(advice.as_bytes())
        );
        let mut response = self.problem_answer(status, json, form, &fields);
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("POST"));
        (response, Outcome::new("method-not-allowed", Some(advice)))
    }

    /// The refusal of a request that names a consumer key or token this server does not know:
    /// `consumer_key_unknown` or `token_rejected` (RFC 5849 leaves the two to the server, and
    /// a test provider's keys are the developer's own to know), not a bad signature.
    fn refuse_unknown(&self, unknown: &Unknown, json: bool) -> Answer {
        let status = StatusCode::UNAUTHORIZED;
        let fields = json!({
            "status": 401,
            "oauth_problem": unknown.problem,
            "oauth_problem_advice": unknown.advice,
            "reason": unknown.reason,
            "causes": [],
            "diagnosis": null,
            "signed_for": null,
            "unknown": unknown.advice,
        });
        let form = problem_form(unknown.problem, &unknown.advice);
        let outcome = Outcome::new(unknown.reason, Some(unknown.advice.clone()));
        (self.problem_answer(status, json, form, &fields), outcome)
    }

    /// A refusal: its status, `WWW-Authenticate` on a 401, the OAuth Problem Reporting body
    /// (or the same as JSON when the client asks for JSON), with the diagnosis in the advice;
    /// for a bad signature, this server's base string too, which holds no secret, and for one
    /// signed for another origin, how to have this server verify at it.
    fn refuse(&self, error: &VerifyError, json: bool) -> Answer {
        let status = StatusCode::from_u16(error.status()).unwrap_or(StatusCode::UNAUTHORIZED);
        let diagnosis = error.diagnosis();
        let causes = diagnosis.map_or_else(Vec::new, Diagnosis::cause_ids);
        let signed_for = match diagnosis {
            Some(Diagnosis::SignedForOrigin { signed, .. }) => Some(signed.clone()),
            _ => None,
        };
        let detail = match (&signed_for, diagnosis) {
            (Some(url), _) => Some(format!("signed for {url}")),
            (None, Some(Diagnosis::Found { causes, .. })) => {
                causes.first().map(|c| format!("the client {}", c.what()))
            }
            (None, Some(diagnosis)) => Some(diagnosis.to_string()),
            (None, None) => None,
        };
        let outcome = Outcome {
            verdict: error.reason().as_str().to_owned(),
            causes: causes.clone(),
            detail,
        };
        let Some(problem) = error.problem() else {
            // The stores are this process's memory: what failed is said as it is.
            let response = respond(status, "text/plain; charset=utf-8", error.to_string());
            return (response, outcome);
        };
        let base_string = match error {
            VerifyError::BadSignature { base_string, .. } => Some(base_string.as_str()),
            _ => None,
        };
        let mut more = String::new();
        if let Some(origin) = signed_for
            .as_deref()
            .and_then(|url| Url::parse(url).ok())
            .map(|url| url.origin().ascii_serialization())
        {
            let _ = write!(
                more,
                " To verify requests at that origin, start oauth1 serve with --origin {origin}."
            );
        }
        if let VerifyError::UnsupportedSignatureMethod { method, .. } = error {
            if (SignatureMethod::ALL.iter()).any(|m| m.is_rsa() && m.as_str() == method) {
                let _ = write!(
                    more,
                    " {} is verified with the consumer's RSA public key, which oauth1 serve does not take (it verifies {METHODS_TEXT}): sign with one of those to test against it, or check an RSA signature with oauth1 verify --public-key-file FILE.",
                    method.escape_default()
                );
            }
        }
        if let Some(base_string) = base_string {
            let _ = write!(more, " This server's base string: {base_string}");
        }
        // The parameter the problem defines, if it has one (`oauth_parameters_absent`,
        // `oauth_acceptable_timestamps`, …), in the form and in the JSON alike.
        let defined: Vec<(String, String)> =
            url::form_urlencoded::parse(problem.to_urlencoded().as_bytes())
                .filter(|(name, _)| name != "oauth_problem" && name != "oauth_problem_advice")
                .map(|(name, value)| (name.into_owned(), value.into_owned()))
                .collect();
        let (advice, form) = if more.is_empty() {
            (problem.advice().to_owned(), problem.to_urlencoded())
        } else {
            let advice = format!("{}.{more}", problem.advice().trim_end_matches('.'));
            let mut form = format!("oauth_problem={}", problem.name());
            for (name, value) in &defined {
                let _ = write!(
                    form,
                    "&{name}={}",
                    oauth1_signer::encode::encode(value.as_bytes())
                );
            }
            let _ = write!(
                form,
                "&oauth_problem_advice={}",
                oauth1_signer::encode::encode(advice.as_bytes())
            );
            (advice, form)
        };
        let mut fields = json!({
            "status": status.as_u16(),
            "oauth_problem": problem.name(),
            "oauth_problem_advice": advice,
            "reason": error.reason().as_str(),
            "causes": causes,
            "diagnosis": diagnosis.map(ToString::to_string),
            "signed_for": signed_for,
            "unknown": null,
            "base_string": base_string,
        });
        if let serde_json::Value::Object(map) = &mut fields {
            for (name, value) in defined {
                map.insert(name, value.into());
            }
        }
        (self.problem_answer(status, json, form, &fields), outcome)
    }

    /// A Problem Reporting answer: the form `form`, or `fields` as JSON when the client asks
    /// for JSON; `WWW-Authenticate` on a 401.
    fn problem_answer(
        &self,
        status: StatusCode,
        json: bool,
        form: String,
        fields: &serde_json::Value,
    ) -> Response<Full<Bytes>> {
        let mut response = if json {
            respond(status, "application/json", fields.to_string())
        } else {
            respond(status, "application/x-www-form-urlencoded", form)
        };
        if status == StatusCode::UNAUTHORIZED {
            if let Ok(challenge) =
                HeaderValue::from_str(&oauth1_server::www_authenticate(&self.realm))
            {
                response
                    .headers_mut()
                    .insert(header::WWW_AUTHENTICATE, challenge);
            }
        }
        response
    }

    /// One line on the terminal, and one JSON line in the log.
    fn record(&self, method: &str, target: &str, status: StatusCode, outcome: &Outcome) {
        let target = &*super::record::without_secrets(target);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let causes = if outcome.causes.is_empty() {
            String::new()
        } else {
            format!(" [{}]", outcome.causes.join(", "))
        };
        let detail = outcome
            .detail
            .as_ref()
            .map_or(String::new(), |d| format!(": {d}"));
        let shown: String = target.chars().take(100).collect();
        let more = if shown.len() < target.len() {
            "…"
        } else {
            ""
        };
        self.lines.say(format!(
            "{} {method} {}{more} {} {}{causes}{detail}",
            clock(now),
            value(&shown),
            status.as_u16(),
            outcome.verdict,
        ));
        if let Some(log) = &self.log {
            let line = json!({
                "time": rfc3339(now),
                "method": method,
                "url": format!("{}{target}", self.base),
                "status": status.as_u16(),
                "verdict": outcome.verdict,
                "causes": outcome.causes,
                "detail": outcome.detail,
            });
            let mut file = log.lock().unwrap_or_else(PoisonError::into_inner);
            if let Err(e) = writeln!(file, "{line}") {
                tell!("warning: writing to --log: {e}");
            }
        }
    }
}

/// The callbacks every consumer may use: those of `--callback`, or any URL and `oob`.
fn callbacks(given: &[String]) -> Result<Callbacks, String> {
    if given.is_empty() {
        return Ok(Callbacks::none().with_any_url().with_oob(true));
    }
    let mut callbacks = Callbacks::none();
    for callback in given {
        callbacks = if callback == "oob" {
            callbacks.with_oob(true)
        } else {
            callbacks
                .with_url(callback)
                .map_err(|e| format!("--callback: {e}"))?
        };
    }
    Ok(callbacks)
}

/// A resource's answer: what was verified, as JSON.
fn echo(verified: &Verified, request: &Request<'_>, note: Option<&str>) -> Answer {
    let lossy = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    let parameters: Vec<[String; 2]> = (verified.parameters().iter())
        .map(|p| [lossy(p.name), lossy(p.value)])
        .collect();
    let body = json!({
        "consumer_key": verified.consumer_key(),
        "token": verified.token(),
        "resource_owner": verified.resource_owner(),
        "signature_method": verified.signature_method().as_str(),
        "realm": verified.realm(),
        "method": request.method(),
        "base_string_uri": request.base_uri().ok().map(|b| b.to_string()),
        "parameters": parameters,
        "note": note,
    });
    let detail = Some(format!(
        "{}{}",
        value(verified.consumer_key()),
        verified
            .token()
            .map_or(String::new(), |t| format!(" with token {}", value(t)))
    ));
    (
        respond(StatusCode::OK, "application/json", format!("{body:#}\n")),
        Outcome::new("accepted", detail),
    )
}

/// The body, at most [`BODY_LIMIT`] bytes of it.
async fn read(body: Incoming) -> Result<Bytes, Answer> {
    let Ok(read) =
        tokio::time::timeout(BODY_DEADLINE, Limited::new(body, BODY_LIMIT).collect()).await
    else {
        return Err(plain(
            StatusCode::REQUEST_TIMEOUT,
            "body-too-slow",
            &format!(
                "the body did not arrive within {} s: send it whole at once",
                BODY_DEADLINE.as_secs()
            ),
        ));
    };
    match read {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(e) if e.is::<LengthLimitError>() => Err(plain(
            StatusCode::PAYLOAD_TOO_LARGE,
            "body-too-large",
            &format!("the body is longer than {BODY_LIMIT} bytes, the most this server reads"),
        )),
        Err(e) => Err(plain(
            StatusCode::BAD_REQUEST,
            "malformed-request",
            &format!("the body could not be read: {e}"),
        )),
    }
}

/// The `Authorization` header, if there is one: one, and text; or what is wrong with it.
fn authorization(headers: &HeaderMap) -> Result<Option<&str>, &'static str> {
    let mut all = headers.get_all(header::AUTHORIZATION).iter();
    let Some(first) = all.next() else {
        return Ok(None);
    };
    if all.next().is_some() {
        return Err("more than one Authorization header: send the protocol parameters in one");
    }
    first.to_str().map(Some).map_err(|_| {
        "the Authorization header is not text: percent-encode its values (RFC 5849 §3.5.1)"
    })
}

fn text(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Whether the client asks for JSON (`Accept: application/json`).
fn wants_json(headers: &HeaderMap) -> bool {
    (headers.get_all(header::ACCEPT).iter())
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.to_ascii_lowercase().contains("application/json"))
}

/// The value of `name` in a query or form.
fn field(pairs: &[u8], name: &str) -> Option<String> {
    url::form_urlencoded::parse(pairs)
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.into_owned())
}

fn respond(status: StatusCode, content_type: &'static str, body: String) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

/// `oauth_problem=NAME&oauth_problem_advice=ADVICE`, the advice percent-encoded.
fn problem_form(name: &str, advice: &str) -> String {
    format!(
        "oauth_problem={name}&oauth_problem_advice={}",
        oauth1_signer::encode::encode(advice.as_bytes())
    )
}

/// A plain-text refusal that is not OAuth's own: the text is its detail on the terminal.
fn plain(status: StatusCode, verdict: &str, text: &str) -> Answer {
    (
        respond(status, "text/plain; charset=utf-8", format!("{text}\n")),
        Outcome::new(verdict, Some(text.to_owned())),
    )
}
