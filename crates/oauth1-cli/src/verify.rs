//! `oauth1 verify`: a received request checked as a server checks it.

use std::path::PathBuf;

use clap::Args;
use oauth1_capture::Protocol;
use oauth1_cases::{check, verify_answer, Held};
use oauth1_server::{received_url, MemoryNonceStore, Policy, Reason, VerifyError};
use oauth1_signer::explain::Observed;
use oauth1_signer::profile::Profile;
use oauth1_signer::{Request, Secret, Timestamp};

use crate::input::RequestArgs;

#[derive(Args, Clone)]
pub(crate) struct VerifyArgs {
    /// Read received requests as JSON Lines on standard input (the request-case verify
    /// format) and write one verdict line for each; one nonce store serves the whole stream.
    #[arg(long, conflicts_with_all = ["url", "authorization"])]
    pub(crate) jsonl: bool,

    #[command(flatten)]
    pub(crate) request: RequestArgs,
    /// The received Authorization header value; leave out when the oauth_* parameters travel
    /// in the query or the form body.
    #[arg(long)]
    pub(crate) authorization: Option<String>,
    /// The received request as a curl command (or - for standard input), as with
    /// `explain --curl`; with --body-file, that file is its body.
    #[arg(long, value_name = "COMMAND", conflicts_with_all = [
        "jsonl", "url", "method", "body", "content_type", "authorization", "http",
    ])]
    pub(crate) curl: Option<String>,
    /// The received request as a raw HTTP/1.1 request in FILE (or - for standard input).
    #[arg(long, value_name = "FILE", conflicts_with_all = [
        "jsonl", "url", "method", "body", "body_file", "content_type", "authorization",
    ])]
    pub(crate) http: Option<PathBuf>,
    /// The scheme of an --http request whose target is a path.
    #[arg(long, default_value = "https", value_parser = ["https", "http"], requires = "http")]
    pub(crate) scheme: String,
    /// The received requests in a HAR file: every entry that carries OAuth, in turn.
    #[arg(long, value_name = "FILE", conflicts_with_all = [
        "jsonl", "url", "method", "body", "body_file", "content_type", "authorization", "http",
        "curl",
    ])]
    pub(crate) har: Option<PathBuf>,
    /// With --har: only entry N (counted from 1).
    #[arg(long, value_name = "N", requires = "har")]
    pub(crate) entry: Option<usize>,

    /// The consumer secret the server holds for the presented consumer key; without it (and
    /// its variable) the consumer has no shared secret, and only the RSA methods can verify.
    #[arg(long, env = "OAUTH1_CONSUMER_SECRET", hide_env_values = true)]
    pub(crate) consumer_secret: Option<String>,
    /// The token secret the server holds for the presented token; without it (and its
    /// variable) the server holds no token, and a request that names one is refused.
    #[arg(long, env = "OAUTH1_TOKEN_SECRET", hide_env_values = true)]
    pub(crate) token_secret: Option<String>,
    /// PEM file of the consumer's RSA public key (2048 bits or more), for the RSA methods.
    #[arg(long, value_name = "FILE")]
    pub(crate) public_key_file: Option<PathBuf>,

    /// The server's clock, in unix seconds; the system clock when absent.
    #[arg(long)]
    pub(crate) now: Option<u64>,
    /// Seconds either side of the clock that oauth_timestamp may be.
    #[arg(long, default_value_t = 300)]
    pub(crate) timestamp_window: u64,
    /// Accept PLAINTEXT over plain http.
    #[arg(long)]
    pub(crate) allow_plaintext_over_http: bool,
    /// Accept a PLAINTEXT request without oauth_timestamp and oauth_nonce, as RFC 5849 §3.1
    /// allows: its signature is checked, and nothing protects it from replay (a server of this
    /// project's refuses it all the same).
    #[arg(long)]
    pub(crate) plaintext_without_nonce: bool,
    /// Check the signature as a provider's server computes it: mastercard, woocommerce,
    /// netsuite, x, lti, jira or discogs (docs/profiles.md). The request's parameters, its
    /// timestamp within --timestamp-window and its signature are checked; a nonce is not
    /// recorded.
    #[arg(long, value_name = "NAME", value_parser = crate::input::profile_name, conflicts_with = "jsonl")]
    pub(crate) profile: Option<&'static Profile>,
}

pub(crate) fn jsonl() -> Result<(), String> {
    let nonces = MemoryNonceStore::new();
    crate::input::each_line(|line| verify_answer(line, &nonces))
}

pub(crate) fn one(mut args: VerifyArgs) -> Result<(), String> {
    if let Some(path) = args.har.take() {
        return crate::capture::each_har_entry(
            &path,
            args.entry,
            false,
            &args,
            |mut args, _, capture| {
                received(&mut args, capture);
                one(args)
            },
        );
    }
    if args.curl.is_some() || args.http.is_some() {
        let (_, capture) = crate::capture::read(
            args.curl.as_deref(),
            args.http.as_ref(),
            &args.scheme,
            args.request.body_file.as_ref(),
        )?;
        args.curl = None;
        args.http = None;
        received(&mut args, capture);
    }
    let public_key_pem =
        crate::input::read_text(args.public_key_file.as_ref(), "the public key file")?;
    if args.consumer_secret.is_none() && public_key_pem.is_none() {
        return Err(crate::input::NO_CONSUMER_SECRET.to_owned());
    }
    if let Some(profile) = args.profile {
        return as_profile(profile, &args, public_key_pem.as_deref());
    }
    // No consumer secret means none is held: an RSA-only consumer.
    let consumer_secret = args.consumer_secret;
    let body = args.request.read_body()?;
    let now = match args.now {
        Some(now) => Timestamp::new(now),
        None => Timestamp::now().map_err(|e| e.to_string())?,
    };
    let held = Held::new(
        consumer_secret.as_deref(),
        args.token_secret.as_deref(),
        public_key_pem.as_deref(),
    )?;
    let url = match read_received(args.request.url.as_deref().unwrap_or(""))? {
        Ok(url) => url,
        Err(e) => return invalid(&e),
    };
    let request = Request::from_url(&args.request.method, &url)
        .map_err(|e| e.to_string())?
        .with_body(args.request.content_type.as_deref().unwrap_or(""), &body);
    let policy = Policy::default()
        .allow_plaintext(true)
        .with_timestamp_window(args.timestamp_window)
        .allow_plaintext_over_http(args.allow_plaintext_over_http);
    let nonces = MemoryNonceStore::new();
    let plaintext_alone = args.plaintext_without_nonce;
    match check(
        held,
        &request,
        args.authorization.as_deref(),
        policy,
        &nonces,
        now,
        true,
    ) {
        Ok(verified) => {
            say!("valid");
            say!(
                "consumer key:  {}",
                crate::terminal::value(verified.consumer_key())
            );
            if let Some(token) = verified.token() {
                say!("token:         {}", crate::terminal::value(token));
            }
            say!("method:        {}", verified.signature_method());
            say!("parameters:    {}", verified.parameters());
            Ok(())
        }
        Err(VerifyError::MissingParameters {
            plaintext: true, ..
        }) if plaintext_alone => without_nonce(
            &request,
            args.authorization.as_deref(),
            (consumer_secret.as_deref(), args.token_secret.as_deref()),
            args.allow_plaintext_over_http,
            (now, args.timestamp_window),
        ),
        Err(e) => invalid(&e),
    }
}

/// `oauth1 verify --profile`: the request's signature checked as `profile`'s provider
/// computes it, with its timestamp; the request read as `explain` reads it (its protocol
/// parameters from the header, or from its query or form body).
fn as_profile(
    profile: &Profile,
    args: &VerifyArgs,
    public_key_pem: Option<&str>,
) -> Result<(), String> {
    let text = |e: oauth1_signer::Error| e.to_string();
    let typed = args.request.capture()?;
    // Read as plain verify reads it: the request is then made of the same URL.
    if let Err(e) = read_received(&typed.url)? {
        return invalid(&e);
    }
    let (capture, protocol) = match &args.authorization {
        Some(header) => (
            typed,
            Protocol::from_authorization(header).map_err(|e| format!("--authorization: {e}"))?,
        ),
        None => typed.protocol().map_err(|e| format!("--url: {e}"))?,
    };
    let signature = protocol
        .signature
        .clone()
        .ok_or("the request carries no oauth_signature")?;
    let consumer_secret = args.consumer_secret.clone().unwrap_or_default();
    let signer = protocol
        .signer(&consumer_secret, args.token_secret.as_deref())
        .map_err(text)?;
    let request = protocol.request(&capture).map_err(text)?;
    let nonce = protocol.nonce().map_err(text)?;
    let timestamp = protocol.timestamp().map_err(text)?;
    let now = match args.now {
        Some(now) => Timestamp::new(now),
        None => Timestamp::now().map_err(text)?,
    };
    if timestamp.as_secs().abs_diff(now.as_secs()) > args.timestamp_window {
        say!("invalid: {}", Reason::StaleTimestamp);
        say!(
            "detail:        oauth_timestamp {} is more than {} seconds from the server's clock ({})",
            timestamp.as_secs(),
            args.timestamp_window,
            now.as_secs()
        );
        return Err(format!(
            "the request does not verify ({})",
            Reason::StaleTimestamp
        ));
    }
    let valid = if signer.method().is_rsa() {
        let pem = public_key_pem.ok_or(
            "an RSA signature is checked with the consumer's public key: give --public-key-file",
        )?;
        let key = oauth1_signer::PublicKey::from_pem(pem).map_err(text)?;
        profile.verify_rsa(&signer, &request, (&nonce, timestamp), &signature, &key)
    } else {
        profile.reproduces(
            &signer,
            &request,
            &nonce,
            timestamp,
            &Observed::signature(&signature),
        )
    };
    let computes = format!("{} ({})", profile.name(), profile.deviation_list());
    match valid {
        Ok(true) => {
            say!("valid");
            say!("profile:       {computes}");
            say!(
                "consumer key:  {}",
                crate::terminal::value(&protocol.consumer_key)
            );
            if let Some(token) = &protocol.token {
                say!("token:         {}", crate::terminal::value(token));
            }
            say!("method:        {}", signer.method());
            Ok(())
        }
        Ok(false) => {
            say!("invalid: {}", Reason::BadSignature);
            say!(
                "detail:        the signature is not what {} computes for this request, with the secrets given",
                profile.provider()
            );
            say!("profile:       {computes}");
            Err(format!(
                "the request does not verify ({})",
                Reason::BadSignature
            ))
        }
        Err(e) => {
            say!("invalid: {e}");
            Err("the request does not verify (refused by the profile)".to_owned())
        }
    }
}

/// `--plaintext-without-nonce`: a PLAINTEXT request that sends neither `oauth_timestamp` nor
/// `oauth_nonce` (or only one of them), which RFC 5849 §3.1 allows, checked for what is left to
/// check: its signature, the secrets themselves, compared in constant time.
fn without_nonce(
    request: &Request<'_>,
    authorization: Option<&str>,
    (consumer_secret, token_secret): (Option<&str>, Option<&str>),
    over_http: bool,
    (now, window): (Timestamp, u64),
) -> Result<(), String> {
    use subtle::ConstantTimeEq;
    if request.url().scheme() == "http" && !over_http {
        return invalid(&VerifyError::InsecureTransport);
    }
    // The protocol parameters where the verifier found them: the header, or the query and the
    // form body.
    let params: Vec<(String, String)> = if let Some(header) = authorization {
        oauth1_signer::header::Authorization::parse(header)
            .map_err(|e| format!("--authorization: {e}"))?
            .parameters()
            .map(|(n, v)| (n.to_owned(), String::from_utf8_lossy(v).into_owned()))
            .collect()
    } else {
        let body = if request.has_form_body() {
            request.body()
        } else {
            &[]
        };
        url::form_urlencoded::parse(request.query().as_bytes())
            .chain(url::form_urlencoded::parse(body))
            .map(|(n, v)| (n.into_owned(), v.into_owned()))
            .collect()
    };
    let get = |name: &str| {
        params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let refused_for = |reason: Reason, detail: &str| -> Result<(), String> {
        say!("invalid: {reason}");
        say!("detail:        {detail}");
        Err(format!("the request does not verify ({reason})"))
    };
    let refused = |detail: &str| refused_for(Reason::BadSignature, detail);
    // The checks a request with its nonce would pass too, for what it does send.
    if let Some(version) = get("oauth_version").filter(|v| *v != "1.0") {
        return refused_for(
            Reason::BadVersion,
            &format!(
                "oauth_version \"{}\" is not supported: send 1.0 or leave it out",
                version.escape_default()
            ),
        );
    }
    if get("oauth_body_hash").is_some() {
        return refused_for(
            Reason::BadBodyHash,
            "oauth_body_hash is not checked without a nonce: leave it out, or send oauth_timestamp and oauth_nonce and verify without --plaintext-without-nonce",
        );
    }
    let sent_at = get("oauth_timestamp");
    if let Some(sent_at) = sent_at {
        let fresh = sent_at
            .parse::<u64>()
            .is_ok_and(|t| t.abs_diff(now.as_secs()) <= window);
        if !fresh {
            return refused_for(
                Reason::StaleTimestamp,
                &format!(
                    "oauth_timestamp \"{}\" is not within {window} seconds of {}: send the current time in seconds, or leave it out",
                    sent_at.escape_default(),
                    now.as_secs()
                ),
            );
        }
    }
    let Some(consumer_secret) = consumer_secret else {
        return refused("the consumer has no shared secret, so PLAINTEXT cannot verify");
    };
    if get("oauth_token").is_some() && token_secret.is_none() {
        return refused("the request names a token, and the server holds none (give its secret)");
    }
    let key = oauth1_signer::sign::SigningKey::new(
        &Secret::from(consumer_secret),
        &Secret::from(token_secret.unwrap_or("")),
    );
    let sent = get("oauth_signature").unwrap_or("");
    if !bool::from(key.expose().ct_eq(sent.as_bytes())) {
        return refused(
            "the signature is not enc(consumer secret)&enc(token secret): check the secrets both sides use",
        );
    }
    say!("valid");
    let left_out = if sent_at.is_some() {
        "oauth_nonce"
    } else {
        "oauth_timestamp and oauth_nonce"
    };
    say!(
        "note:          PLAINTEXT without {left_out}, as RFC 5849 §3.1 allows: the signature was compared in constant time, and nothing protects this request from replay, so a server of this project's refuses it (missing-parameter)"
    );
    say!(
        "consumer key:  {}",
        crate::terminal::value(get("oauth_consumer_key").unwrap_or(""))
    );
    if let Some(token) = get("oauth_token") {
        say!("token:         {}", crate::terminal::value(token));
    }
    say!("method:        PLAINTEXT");
    Ok(())
}

/// The URL as received: what is wrong with the URL itself is an error said with it; a path a
/// router and the signature would read differently is a verdict (`Ok(Err)`), as a server
/// refuses it.
fn read_received(text: &str) -> Result<Result<url::Url, VerifyError>, String> {
    crate::input::url(text)?;
    match received_url(text) {
        Ok(url) => Ok(Ok(url)),
        Err(e) if e.reason() == Reason::AmbiguousPath => Ok(Err(e)),
        Err(e) => Err(e.to_string()),
    }
}

/// Prints why a request does not verify, and the answer a server gives.
fn invalid(e: &VerifyError) -> Result<(), String> {
    say!("invalid: {}", e.reason());
    say!("detail:        {e}");
    if let VerifyError::MissingParameters {
        plaintext: true, ..
    } = e
    {
        say!("to check its signature alone, as RFC 5849 §3.1 allows: --plaintext-without-nonce");
    }
    if let VerifyError::BadSignature { base_string, .. } = e {
        say!("base string:   {base_string}");
    }
    if let Some(problem) = e.problem() {
        say!(
            "answer:        {} {}",
            problem.status(),
            without_advice(&problem.to_urlencoded())
        );
    }
    Err(format!("the request does not verify ({})", e.reason()))
}

/// A Problem Reporting answer with its `oauth_problem_advice` elided: the advice is the
/// error's message, printed decoded as the detail, not twice.
fn without_advice(answer: &str) -> String {
    const ADVICE: &str = "&oauth_problem_advice=";
    match answer.find(ADVICE) {
        Some(at) => format!("{}{ADVICE}… (the detail, encoded)", &answer[..at]),
        None => answer.to_owned(),
    }
}

/// The flags of a received request taken from its capture.
fn received(args: &mut VerifyArgs, capture: oauth1_capture::Capture) {
    args.authorization = capture.header("authorization").map(str::to_owned);
    let content_type = capture.header("content-type").map(str::to_owned);
    args.request
        .set_captured(&capture.method, capture.url, content_type, capture.body);
}
