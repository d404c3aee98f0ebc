//! What several subcommands read: the request's flags, the signing flags that `sign` and
//! `explain` share (and the capture readers fill), the consumer's flags, text files, and JSON
//! Lines on standard input.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;

use clap::Args;

/// The request flags of `sign` and `verify`.
#[derive(Args, Clone)]
pub(crate) struct RequestArgs {
    /// HTTP method.
    #[arg(long, default_value = "GET")]
    pub(crate) method: String,
    /// Absolute URL as the client sends it on the wire, query included; when its query (or the
    /// form body) carries oauth_signature, the protocol parameters are read from it, as from a
    /// capture.
    #[arg(long, required_unless_present_any = ["jsonl", "curl", "http", "har"])]
    pub(crate) url: Option<String>,
    /// Request body, exactly as sent.
    #[arg(long, conflicts_with = "body_file")]
    pub(crate) body: Option<String>,
    /// Read the request body from a file, byte for byte (with --curl, in place of the
    /// command's data).
    #[arg(long, value_name = "FILE")]
    pub(crate) body_file: Option<PathBuf>,
    /// The request's Content-Type; body parameters are signed only for
    /// application/x-www-form-urlencoded.
    #[arg(long)]
    pub(crate) content_type: Option<String>,
    /// The body of a captured request (--curl, --http), byte for byte.
    #[arg(skip)]
    pub(crate) captured_body: Option<Vec<u8>>,
}

impl RequestArgs {
    /// The request of a capture (`--curl`, `--http`, `--har`) in place of the flags.
    pub(crate) fn set_captured(
        &mut self,
        method: &str,
        url: String,
        content_type: Option<String>,
        body: Vec<u8>,
    ) {
        method.clone_into(&mut self.method);
        self.url = Some(url);
        self.content_type = content_type;
        self.captured_body = Some(body);
    }

    /// The request these flags give: method, URL, `Content-Type` and body.
    pub(crate) fn capture(&self) -> Result<oauth1_capture::Capture, String> {
        Ok(oauth1_capture::Capture::typed(
            &self.method,
            self.url.as_deref().unwrap_or_default(),
            self.content_type.as_deref(),
            self.read_body()?,
        ))
    }

    /// The body from `--body` or `--body-file`, empty without either.
    pub(crate) fn read_body(&self) -> Result<Vec<u8>, String> {
        if let Some(body) = &self.captured_body {
            return Ok(body.clone());
        }
        match (&self.body, &self.body_file) {
            (Some(body), _) => Ok(body.clone().into_bytes()),
            (None, Some(path)) => std::fs::read(path)
                .map_err(|e| format!("reading the body file {}: {e}", path.display())),
            (None, None) => Ok(Vec::new()),
        }
    }
}

/// The flags of `sign`, which `explain` takes too.
#[derive(Args, Clone)]
#[allow(clippy::struct_excessive_bools)] // command-line switches
pub(crate) struct SignArgs {
    /// Read request cases as JSON Lines on standard input and write one result line for each
    /// (the request-case format).
    #[arg(long, conflicts_with_all = ["url", "consumer_key"])]
    pub(crate) jsonl: bool,

    #[command(flatten)]
    pub(crate) request: RequestArgs,

    /// The Authorization header the client sent: the consumer key, token, signature method,
    /// nonce, timestamp, version, realm, callback, verifier and body hash come from it, and
    /// only the secrets are typed (for explain, its oauth_signature is the observed one).
    #[arg(long, value_name = "HEADER", conflicts_with_all = [
        "jsonl", "consumer_key", "token", "nonce", "timestamp", "realm", "callback", "verifier",
        "no_version", "body_hash",
    ])]
    pub(crate) authorization: Option<String>,

    /// A curl command as a browser's "Copy as cURL" (bash or POSIX) or Postman writes it, or -
    /// to read it from standard input: the method, URL, headers and body come from it, and the
    /// protocol parameters from its Authorization header, query or form body; only the secrets
    /// are typed. Files it names (-d @FILE) are not read: give the body with --body-file.
    #[arg(long, value_name = "COMMAND", conflicts_with_all = [
        "jsonl", "url", "method", "body", "content_type", "authorization", "http",
        "consumer_key", "token", "nonce", "timestamp", "realm", "callback", "verifier",
        "no_version", "body_hash",
    ])]
    pub(crate) curl: Option<String>,
    /// A raw HTTP/1.1 request as a proxy (mitmproxy, Burp, Charles) saves it, in FILE or - for
    /// standard input; read like --curl.
    #[arg(long, value_name = "FILE", conflicts_with_all = [
        "jsonl", "url", "method", "body", "body_file", "content_type", "authorization",
        "consumer_key", "token", "nonce", "timestamp", "realm", "callback", "verifier",
        "no_version", "body_hash",
    ])]
    pub(crate) http: Option<PathBuf>,
    /// The scheme of an --http request whose target is a path (its Host header gives the
    /// host), which nothing in it says. Without it `explain` tries both and keeps the one that
    /// needs no scheme cause, and says which it took and why; `sign` and `probe` take https.
    #[arg(long, value_parser = ["https", "http"], requires = "http")]
    pub(crate) scheme: Option<String>,
    /// A HAR file (a browser's "Save all as HAR"): every entry that carries OAuth is taken in
    /// turn, each answer headed by the entry's number, method and URL.
    #[arg(long, value_name = "FILE", conflicts_with_all = [
        "jsonl", "url", "method", "body", "body_file", "content_type", "authorization", "http",
        "curl", "consumer_key", "token", "nonce", "timestamp", "realm", "callback", "verifier",
        "no_version", "body_hash",
    ])]
    pub(crate) har: Option<PathBuf>,
    /// With --har: only entry N (counted from 1 over all the file's entries).
    #[arg(long, value_name = "N", requires = "har")]
    pub(crate) entry: Option<usize>,
    /// A request already captured (an entry of --har), and its label.
    #[arg(skip)]
    pub(crate) captured: Option<(String, oauth1_capture::Capture)>,
    /// The --http request already read, with the scheme to take.
    #[arg(skip)]
    pub(crate) read_http: Option<oauth1_capture::Capture>,

    /// oauth_consumer_key; not needed when the request carries it (--authorization, a capture,
    /// or a --url whose query carries oauth_signature).
    #[arg(long)]
    pub(crate) consumer_key: Option<String>,
    /// The consumer secret; prefer the environment variable, which stays out of shell history.
    #[arg(long, env = "OAUTH1_CONSUMER_SECRET", hide_env_values = true)]
    pub(crate) consumer_secret: Option<String>,
    /// oauth_token (leave out for the temporary-credentials request).
    #[arg(long)]
    pub(crate) token: Option<String>,
    /// The token secret; prefer the environment variable.
    #[arg(long, env = "OAUTH1_TOKEN_SECRET", hide_env_values = true)]
    pub(crate) token_secret: Option<String>,
    /// HMAC-SHA1, HMAC-SHA256, HMAC-SHA512, PLAINTEXT, RSA-SHA1 or RSA-SHA256 [default:
    /// the profile's, or HMAC-SHA1].
    #[arg(long)]
    pub(crate) signature_method: Option<String>,
    /// PEM file of the RSA private key (PKCS#1 or PKCS#8), for the RSA methods.
    #[arg(long, value_name = "FILE")]
    pub(crate) private_key_file: Option<PathBuf>,
    /// Sign as a provider's server computes: mastercard, woocommerce, netsuite, x, lti, jira or
    /// discogs (their rules: docs/profiles.md). It sets the signature method, the transport,
    /// the body hash and the realm unless the flags give them.
    #[arg(long, value_name = "NAME", value_parser = profile_name)]
    pub(crate) profile: Option<&'static oauth1_signer::profile::Profile>,
    /// Where the protocol parameters go: header, query (printed as the signed url:) or body
    /// (printed as the signed body:) [default: the profile's, or header].
    #[arg(long, value_parser = transport)]
    pub(crate) transport: Option<oauth1_signer::Transport>,

    /// oauth_nonce; for sign, a random one when absent (explain needs the one the other side
    /// signed with).
    #[arg(long)]
    pub(crate) nonce: Option<String>,
    /// oauth_timestamp in seconds; for sign, the clock's when absent (explain needs the one the
    /// other side signed with).
    #[arg(long)]
    pub(crate) timestamp: Option<String>,
    /// realm of the Authorization header.
    #[arg(long)]
    pub(crate) realm: Option<String>,
    /// oauth_callback (temporary-credentials request).
    #[arg(long)]
    pub(crate) callback: Option<String>,
    /// oauth_verifier (token request).
    #[arg(long)]
    pub(crate) verifier: Option<String>,
    /// Leave oauth_version out.
    #[arg(long)]
    pub(crate) no_version: bool,
    /// Send oauth_body_hash (never with a form body).
    #[arg(long)]
    pub(crate) body_hash: bool,
    /// Print every intermediate value: the parameters with their sources and encodings, the
    /// normalized string, the base URI, the key's shape (never the secrets).
    #[arg(long)]
    pub(crate) verbose: bool,
}

/// The consumer's credentials and the signature options of `send` and `authorize`.
#[derive(Args, Clone)]
pub(crate) struct ConsumerArgs {
    /// oauth_consumer_key.
    #[arg(long)]
    pub(crate) consumer_key: String,
    /// The consumer secret; prefer the environment variable, which stays out of shell history.
    #[arg(long, env = "OAUTH1_CONSUMER_SECRET", hide_env_values = true)]
    pub(crate) consumer_secret: Option<String>,
    /// HMAC-SHA1, HMAC-SHA256, HMAC-SHA512, PLAINTEXT, RSA-SHA1 or RSA-SHA256 [default:
    /// the profile's, or HMAC-SHA1].
    #[arg(long)]
    pub(crate) signature_method: Option<String>,
    /// PEM file of the RSA private key (PKCS#1 or PKCS#8), for the RSA methods.
    #[arg(long, value_name = "FILE")]
    pub(crate) private_key_file: Option<PathBuf>,
    /// realm of the Authorization header.
    #[arg(long)]
    pub(crate) realm: Option<String>,
}

/// The profile named on the command line.
pub(crate) fn profile_name(name: &str) -> Result<&'static oauth1_signer::profile::Profile, String> {
    oauth1_signer::profile::Profile::named(name).ok_or_else(|| {
        let names: Vec<&str> = oauth1_signer::profile::Profile::ALL
            .iter()
            .map(|p| p.name())
            .collect();
        format!("no profile {name:?}: give one of {}", names.join(", "))
    })
}

/// The transport named on the command line.
pub(crate) fn transport(name: &str) -> Result<oauth1_signer::Transport, String> {
    use oauth1_signer::Transport;
    match name {
        "header" => Ok(Transport::Header),
        "query" => Ok(Transport::Query),
        "body" => Ok(Transport::FormBody),
        _ => Err("give header, query or body".to_owned()),
    }
}

// Used by the commands that reach the network, which the WASI build leaves out.
#[cfg(not(target_os = "wasi"))]
impl ConsumerArgs {
    /// The signer these flags describe, without a token; the signature method, unless given,
    /// `profile`'s.
    pub(crate) fn signer(
        &self,
        profile: Option<&oauth1_signer::profile::Profile>,
    ) -> Result<oauth1_signer::Signer, String> {
        let method = match (&self.signature_method, profile) {
            (Some(method), _) => method.as_str(),
            (None, Some(profile)) => profile.method().as_str(),
            (None, None) => "HMAC-SHA1",
        };
        let pem = read_text(self.private_key_file.as_ref(), "the private key file")?;
        let secret = consumer_secret(self.consumer_secret.clone(), method)?;
        consumer_signer(
            &self.consumer_key,
            secret,
            method,
            self.realm.as_deref(),
            pem.as_deref(),
        )
    }
}

/// The consumer secret given; none is an error, but for the RSA methods, which do not use it.
pub(crate) fn consumer_secret(
    given: Option<String>,
    signature_method: &str,
) -> Result<String, String> {
    match (given, signature_method.starts_with("RSA-")) {
        (Some(secret), _) => Ok(secret),
        (None, true) => Ok(String::new()),
        (None, false) => Err(NO_CONSUMER_SECRET.to_owned()),
    }
}

#[cfg(not(target_os = "wasi"))]
/// The consumer's signer: its key and secret, the signature method, and the realm and RSA
/// private key if given; checked in that order.
pub(crate) fn consumer_signer(
    key: &str,
    secret: String,
    signature_method: &str,
    realm: Option<&str>,
    private_key_pem: Option<&str>,
) -> Result<oauth1_signer::Signer, String> {
    use oauth1_signer::{Consumer, Realm, SignatureMethod, Signer};
    let text = |e: oauth1_signer::Error| e.to_string();
    let method: SignatureMethod = signature_method.parse().map_err(text)?;
    let mut signer = Signer::new(Consumer::new(key, secret)).with_method(method);
    if let Some(realm) = realm {
        signer = signer.with_realm(Realm::new(realm).map_err(text)?);
    }
    if let Some(pem) = private_key_pem {
        signer = signer.with_private_key(oauth1_signer::PrivateKey::from_pem(pem).map_err(text)?);
    }
    Ok(signer)
}

/// Answers each non-blank line of standard input with one line of standard output; a line
/// that is not UTF-8 gets an error line, and the stream goes on.
pub(crate) fn each_line(mut answer: impl FnMut(&str) -> String) -> Result<(), String> {
    let mut stdin = io::stdin().lock();
    let mut stdout = io::BufWriter::new(io::stdout().lock());
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        let read = stdin
            .read_until(b'\n', &mut bytes)
            .map_err(|e| format!("reading standard input: {e}"))?;
        if read == 0 {
            break;
        }
        let line = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let answered = match std::str::from_utf8(line) {
            Ok(line) if line.trim().is_empty() => continue,
            Ok(line) => answer(line),
            Err(e) => format!(
                "{{\"name\":null,\"error\":\"invalid line: not UTF-8 (byte {}): write the line as UTF-8 JSON\"}}",
                e.valid_up_to()
            ),
        };
        if let Err(e) = writeln!(stdout, "{}", crate::terminal::json(&answered)) {
            // Its reader gone, or a full disk: the stream ends (`terminal::out`).
            crate::terminal::stopped(&e);
            return Ok(());
        }
    }
    if let Err(e) = stdout.flush() {
        crate::terminal::stopped(&e);
    }
    Ok(())
}

pub(crate) const NO_CONSUMER_SECRET: &str =
    "no consumer secret: set OAUTH1_CONSUMER_SECRET (or pass --consumer-secret; '' for an empty one)";

/// The text of an optional file flag (`what` names it in errors).
pub(crate) fn read_text(path: Option<&PathBuf>, what: &str) -> Result<Option<String>, String> {
    path.map(|path| {
        std::fs::read_to_string(path).map_err(|e| format!("reading {what} {}: {e}", path.display()))
    })
    .transpose()
}

/// The shortest positive `--timeout` or `--interval`, in seconds: a millisecond, the unit the
/// messages show them in ([`shown_seconds`]).
#[cfg(not(target_os = "wasi"))]
const MIN_SECONDS: f64 = 0.001;
/// The longest `--timeout` or `--interval`, in seconds: a day. More is a mistake (`1e9` is 31
/// years), not a wait anyone means.
#[cfg(not(target_os = "wasi"))]
const MAX_SECONDS: f64 = 86_400.0;

#[cfg(not(target_os = "wasi"))]
/// A `--timeout` or `--interval` (`probe`, `send`) as a duration: a number of seconds from
/// [`MIN_SECONDS`] to [`MAX_SECONDS`], or 0 unless `positive`.
pub(crate) fn seconds(
    flag: &str,
    value: f64,
    positive: bool,
) -> Result<std::time::Duration, String> {
    if !positive && value == 0.0 {
        Ok(std::time::Duration::ZERO)
    } else if (MIN_SECONDS..=MAX_SECONDS).contains(&value) {
        Ok(std::time::Duration::from_secs_f64(value))
    } else {
        Err(format!(
            "{flag} {value}: give {}a number of seconds from {MIN_SECONDS} to {MAX_SECONDS} (a day)",
            if positive { "" } else { "0 or " }
        ))
    }
}

#[cfg(not(target_os = "wasi"))]
/// `duration` in seconds, as a message shows a deadline: to the millisecond, rounded up, so
/// that it is never shown shorter than it is (a positive one never as 0). `1.5`, `30`,
/// `0.001`.
pub(crate) fn shown_seconds(duration: std::time::Duration) -> String {
    let millis = duration.as_nanos().div_ceil(1_000_000);
    let (whole, fraction) = (millis / 1000, millis % 1000);
    if fraction == 0 {
        whole.to_string()
    } else {
        format!("{whole}.{fraction:03}")
            .trim_end_matches('0')
            .to_owned()
    }
}

#[cfg(not(target_os = "wasi"))]
/// An error and every cause under it, as one line: an HTTP client's error says only what it
/// was doing ("error sending request for url (…)"), its causes say why (connection refused, a
/// name that does not resolve, a certificate, a timeout).
pub(crate) fn with_causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(e) = cause {
        let said = e.to_string();
        if !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        cause = e.source();
    }
    text
}

/// The URL a user typed, parsed, or what is wrong with it and what to write instead (as the
/// web page says it: [`oauth1_capture::check_url`]).
pub(crate) fn url(text: &str) -> Result<url::Url, String> {
    oauth1_capture::check_url(text).map_err(|e| e.to_string())?;
    url::Url::parse(text).map_err(|e| format!("the URL {text:?} is not valid: {e}"))
}

/// Warns on standard error of credentials that sign but that no server would accept: an
/// empty consumer key, and a token without its secret (signed with an empty one, which a
/// server holding the real secret refuses, and which `explain` cannot tell from any other
/// wrong secret).
pub(crate) fn warn_of_likely_mistakes(consumer_key: &str, token: Option<&str>, token_secret: bool) {
    if consumer_key.is_empty() {
        tell!(
            "warning: the consumer key is empty: give the one the provider issued (--consumer-key)"
        );
    }
    if token.is_some_and(|t| !t.is_empty()) && !token_secret {
        tell!(
            "warning: --token without its secret: signing with an empty token secret; set OAUTH1_TOKEN_SECRET (or --token-secret)"
        );
    }
}

#[cfg(all(test, not(target_os = "wasi")))]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn seconds_out_of_range_are_refused_with_the_range() {
        assert_eq!(
            seconds("--timeout", 1.5, true),
            Ok(Duration::from_millis(1500))
        );
        assert_eq!(
            seconds("--timeout", 0.001, true),
            Ok(Duration::from_millis(1))
        );
        assert_eq!(
            seconds("--timeout", 86_400.0, true),
            Ok(Duration::from_secs(86_400))
        );
        assert_eq!(seconds("--interval", 0.0, false), Ok(Duration::ZERO));
        let refused = |value: &str| {
            format!("--timeout {value}: give a number of seconds from 0.001 to 86400 (a day)")
        };
        assert_eq!(seconds("--timeout", 1e9, true), Err(refused("1000000000")));
        assert_eq!(
            seconds("--timeout", 86_400.5, true),
            Err(refused("86400.5"))
        );
        assert_eq!(
            seconds("--timeout", 1e-12, true),
            Err(refused("0.000000000001"))
        );
        assert_eq!(seconds("--timeout", 0.0, true), Err(refused("0")));
        assert_eq!(seconds("--timeout", -1.0, true), Err(refused("-1")));
        assert_eq!(seconds("--timeout", f64::NAN, true), Err(refused("NaN")));
        assert_eq!(
            seconds("--timeout", f64::INFINITY, true),
            Err(refused("inf"))
        );
        assert_eq!(
            seconds("--interval", 1e-4, false),
            Err(
                "--interval 0.0001: give 0 or a number of seconds from 0.001 to 86400 (a day)"
                    .to_owned()
            )
        );
    }

    #[test]
    fn a_deadline_is_shown_rounded_up_to_the_millisecond() {
        for (seconds, shown) in [
            (1.5, "1.5"),
            (30.0, "30"),
            (0.1, "0.1"),
            (0.25, "0.25"),
            (0.001, "0.001"),
            (1.0005, "1.001"),
            (2.9999, "3"),
            (86_400.0, "86400"),
        ] {
            assert_eq!(
                shown_seconds(Duration::from_secs_f64(seconds)),
                shown,
                "{seconds}"
            );
        }
        assert_eq!(shown_seconds(Duration::from_nanos(1)), "0.001");
        assert_eq!(shown_seconds(Duration::ZERO), "0");
    }
}
