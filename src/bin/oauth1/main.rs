//! `oauth1`: sign, verify and explain OAuth 1.0a requests, and percent-encode by hand, to check
//! what a client or server computes.
//!
//! ```text
//! oauth1 sign --method POST --url 'https://api.example.com/1/x.json?a=1' \
//!     --consumer-key KEY --token TOKEN --nonce N --timestamp 1318622958
//! oauth1 sign --jsonl < cases.jsonl
//! oauth1 verify --method GET --url 'https://api.example.com/1/x.json?a=1' \
//!     --authorization 'OAuth oauth_consumer_key="KEY", …'
//! oauth1 verify --jsonl < received.jsonl
//! oauth1 explain --method GET --url 'https://api.example.com/1/x.json?a=1' \
//!     --consumer-key KEY --nonce N --timestamp 1318622958 --server-response 401.txt
//! oauth1 explain --jsonl < explain.jsonl
//! oauth1 encode 'Ladies + Gentlemen'
//! ```

// clap prints these doc comments as the help text, where backticks would show.
#![allow(clippy::doc_markdown)]

use std::io::{self, BufRead, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use oauth1_signer::{
    BodyHash, Consumer, Error, Nonce, Realm, Request, SignatureMethod, Signer, Timestamp, Token,
    Version,
};
use serde::{Deserialize, Serialize};

#[derive(Parser)]
#[command(
    name = "oauth1",
    version,
    about = "Sign OAuth 1.0a (RFC 5849) requests and show every step"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Sign a request: print its base string, signature and Authorization header.
    Sign(Box<SignArgs>),
    /// Verify a received request as a server would: every check, and the first that fails.
    Verify(Box<VerifyArgs>),
    /// Explain why the other side's signature or base string differs from this request's.
    Explain(Box<ExplainArgs>),
    /// Percent-encode a value as RFC 5849 §3.6 says (uppercase hex, only A-Z a-z 0-9 - . _ ~
    /// left as they are).
    Encode {
        /// The value to encode; `-` reads raw bytes from standard input.
        value: std::ffi::OsString,
    },
}

/// The request flags of `sign` and `verify`.
#[derive(Args)]
struct RequestArgs {
    /// HTTP method.
    #[arg(long, default_value = "GET")]
    method: String,
    /// Absolute URL as the client sends it on the wire, query included.
    #[arg(long, required_unless_present = "jsonl")]
    url: Option<String>,
    /// Request body, exactly as sent.
    #[arg(long, conflicts_with = "body_file")]
    body: Option<String>,
    /// Read the request body from a file, byte for byte.
    #[arg(long, value_name = "FILE")]
    body_file: Option<PathBuf>,
    /// The request's Content-Type; body parameters are signed only for
    /// application/x-www-form-urlencoded.
    #[arg(long)]
    content_type: Option<String>,
}

impl RequestArgs {
    /// The body from `--body` or `--body-file`, empty without either.
    fn read_body(&self) -> Result<Vec<u8>, String> {
        match (&self.body, &self.body_file) {
            (Some(body), _) => Ok(body.clone().into_bytes()),
            (None, Some(path)) => std::fs::read(path)
                .map_err(|e| format!("reading the body file {}: {e}", path.display())),
            (None, None) => Ok(Vec::new()),
        }
    }
}

#[derive(Args)]
#[allow(clippy::struct_excessive_bools)] // command-line switches
struct SignArgs {
    /// Read request cases as JSON Lines on standard input and write one result line for each
    /// (the request-case format).
    #[arg(long, conflicts_with_all = ["url", "consumer_key"])]
    jsonl: bool,

    #[command(flatten)]
    request: RequestArgs,

    /// oauth_consumer_key.
    #[arg(long, required_unless_present = "jsonl")]
    consumer_key: Option<String>,
    /// The consumer secret; prefer the environment variable, which stays out of shell history.
    #[arg(long, env = "OAUTH1_CONSUMER_SECRET", hide_env_values = true)]
    consumer_secret: Option<String>,
    /// oauth_token (leave out for the temporary-credentials request).
    #[arg(long)]
    token: Option<String>,
    /// The token secret; prefer the environment variable.
    #[arg(long, env = "OAUTH1_TOKEN_SECRET", hide_env_values = true)]
    token_secret: Option<String>,
    /// HMAC-SHA1, HMAC-SHA256, HMAC-SHA512, PLAINTEXT, RSA-SHA1 or RSA-SHA256.
    #[arg(long, default_value = "HMAC-SHA1")]
    signature_method: String,
    /// PEM file of the RSA private key (PKCS#1 or PKCS#8), for the RSA methods.
    #[arg(long, value_name = "FILE")]
    private_key_file: Option<PathBuf>,

    /// oauth_nonce; a random one when absent.
    #[arg(long)]
    nonce: Option<String>,
    /// oauth_timestamp in seconds; the clock's when absent.
    #[arg(long)]
    timestamp: Option<String>,
    /// realm of the Authorization header.
    #[arg(long)]
    realm: Option<String>,
    /// oauth_callback (temporary-credentials request).
    #[arg(long)]
    callback: Option<String>,
    /// oauth_verifier (token request).
    #[arg(long)]
    verifier: Option<String>,
    /// Leave oauth_version out.
    #[arg(long)]
    no_version: bool,
    /// Send oauth_body_hash (never with a form body).
    #[arg(long)]
    body_hash: bool,
    /// Print every intermediate value: the parameters with their sources and encodings, the
    /// normalized string, the base URI, the key's shape (never the secrets).
    #[arg(long)]
    verbose: bool,
}

#[derive(Args)]
struct ExplainArgs {
    #[command(flatten)]
    sign: SignArgs,
    /// The oauth_signature the other side computed (percent-decoded; base64 for HMAC).
    #[arg(long)]
    observed_signature: Option<String>,
    /// The signature base string the other side built.
    #[arg(long, conflicts_with = "server_response")]
    observed_base_string: Option<String>,
    /// A file holding the server's response body, in which it echoed its base string.
    #[arg(long, value_name = "FILE")]
    server_response: Option<PathBuf>,
}

#[derive(Args)]
struct VerifyArgs {
    /// Read received requests as JSON Lines on standard input (the request-case verify
    /// format) and write one verdict line for each; one nonce store serves the whole stream.
    #[arg(long, conflicts_with_all = ["url", "authorization"])]
    jsonl: bool,

    #[command(flatten)]
    request: RequestArgs,
    /// The received Authorization header value; leave out when the oauth_* parameters travel
    /// in the query or the form body.
    #[arg(long)]
    authorization: Option<String>,

    /// The consumer secret the server holds for the presented consumer key.
    #[arg(long, env = "OAUTH1_CONSUMER_SECRET", hide_env_values = true)]
    consumer_secret: Option<String>,
    /// The token secret the server holds for the presented token.
    #[arg(long, env = "OAUTH1_TOKEN_SECRET", hide_env_values = true)]
    token_secret: Option<String>,
    /// PEM file of the consumer's RSA public key, for the RSA methods.
    #[arg(long, value_name = "FILE")]
    public_key_file: Option<PathBuf>,

    /// The server's clock, in unix seconds; the system clock when absent.
    #[arg(long)]
    now: Option<u64>,
    /// Seconds either side of the clock that oauth_timestamp may be.
    #[arg(long, default_value_t = 300)]
    timestamp_window: u64,
    /// Accept PLAINTEXT over plain http.
    #[arg(long)]
    allow_plaintext_over_http: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Sign(args) if args.jsonl => sign_jsonl(),
        Command::Sign(args) => sign_one(*args),
        Command::Verify(args) if args.jsonl => verify::jsonl(),
        Command::Verify(args) => verify::one(*args),
        Command::Explain(args) if args.sign.jsonl => explain::jsonl(),
        Command::Explain(args) => explain::one(*args),
        Command::Encode { value } => encode(&value),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// A request case (`request-cases.md`), from a JSON line or from the flags.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    // Required by the format; the result line takes the name from the raw JSON, so that a
    // line that is not a valid case is still answered with its name.
    #[serde(rename = "name")]
    _name: String,
    method: String,
    url: String,
    #[serde(default)]
    body: Option<String>,
    #[serde(default)]
    content_type: Option<String>,
    consumer_key: String,
    consumer_secret: String,
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    token_secret: Option<String>,
    #[serde(default)]
    signature_method: Option<String>,
    #[serde(default)]
    private_key_pem: Option<String>,
    nonce: String,
    timestamp: String,
    #[serde(default)]
    version: VersionField,
    #[serde(default)]
    callback: Option<String>,
    #[serde(default)]
    verifier: Option<String>,
    #[serde(default)]
    realm: Option<String>,
    #[serde(default)]
    body_hash: bool,
    /// Explain lines: what the other side produced.
    #[serde(default)]
    observed: Option<explain::ObservedField>,
    // Carried by fixtures; not used to sign.
    #[serde(default, rename = "source")]
    _source: Option<serde::de::IgnoredAny>,
    #[serde(default, rename = "expected")]
    _expected: Option<serde::de::IgnoredAny>,
}

/// The case's `version`: absent (send `1.0`), `null` (omit it), or a string.
#[derive(Default)]
enum VersionField {
    #[default]
    Absent,
    Null,
    Value(String),
}

impl<'de> Deserialize<'de> for VersionField {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Option::<String>::deserialize(d).map(|v| v.map_or(VersionField::Null, VersionField::Value))
    }
}

#[derive(Serialize)]
struct Outcome {
    base_string: String,
    signature: String,
    authorization: String,
}

/// Signs a case with the library's public API.
fn sign_case(case: &Case, body: &[u8]) -> Result<Outcome, Error> {
    let done = signer_of(case)?.sign(
        &request_of(case, body)?,
        &Nonce::new(case.nonce.as_str())?,
        case.timestamp.parse()?,
    )?;
    Ok(Outcome {
        base_string: done.base_string().to_string(),
        signature: done.signature().as_str().to_owned(),
        authorization: done.authorization(),
    })
}

/// The signer a case describes.
fn signer_of(case: &Case) -> Result<Signer, Error> {
    let method: SignatureMethod = case
        .signature_method
        .as_deref()
        .unwrap_or("HMAC-SHA1")
        .parse()?;
    let mut signer = Signer::new(Consumer::new(
        case.consumer_key.as_str(),
        case.consumer_secret.as_str(),
    ))
    .with_method(method);
    if let Some(token) = &case.token {
        let secret = case.token_secret.as_deref().unwrap_or("");
        signer = signer.with_token(Token::new(token.as_str(), secret));
    }
    if let Some(realm) = &case.realm {
        signer = signer.with_realm(Realm::new(realm.as_str())?);
    }
    signer = match &case.version {
        VersionField::Absent => signer,
        VersionField::Null => signer.with_version(Version::Omit),
        VersionField::Value(version) => signer.with_version(version.parse()?),
    };
    if case.body_hash {
        signer = signer.with_body_hash(BodyHash::Send);
    }
    if let Some(pem) = &case.private_key_pem {
        signer = with_private_key(signer, pem)?;
    }
    Ok(signer)
}

/// The request a case describes, with `body`.
fn request_of<'a>(case: &'a Case, body: &'a [u8]) -> Result<Request<'a>, Error> {
    let mut request = Request::new(&case.method, &case.url)?
        .with_body(case.content_type.as_deref().unwrap_or(""), body);
    if let Some(callback) = &case.callback {
        request = request.with_callback(callback);
    }
    if let Some(verifier) = &case.verifier {
        request = request.with_verifier(verifier);
    }
    Ok(request)
}

#[cfg(feature = "rsa")]
fn with_private_key(signer: Signer, pem: &str) -> Result<Signer, Error> {
    Ok(signer.with_private_key(oauth1_signer::PrivateKey::from_pem(pem)?))
}

#[cfg(not(feature = "rsa"))]
fn with_private_key(signer: Signer, _pem: &str) -> Result<Signer, Error> {
    // Signing with an RSA method then fails with the error that names the missing feature.
    Ok(signer)
}

#[derive(Serialize)]
struct ResultLine<'a> {
    name: Option<&'a str>,
    #[serde(flatten)]
    outcome: Option<Outcome>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// Answers one JSON line: its result, or an error that names what to fix.
fn answer(line: &str) -> String {
    let value: serde_json::Value = match serde_json::from_str(line) {
        Ok(value) => value,
        Err(e) => return error_line(None, &format!("invalid JSON: {e}")),
    };
    let name = value.get("name").and_then(serde_json::Value::as_str);
    let case = match Case::deserialize(&value) {
        Ok(case) => case,
        Err(e) => return error_line(name, &format!("invalid case: {e}")),
    };
    let body = case.body.as_deref().unwrap_or("").as_bytes();
    match sign_case(&case, body) {
        Ok(outcome) => to_json(&ResultLine {
            name,
            outcome: Some(outcome),
            error: None,
        }),
        Err(e) => error_line(name, &e.to_string()),
    }
}

fn error_line(name: Option<&str>, message: &str) -> String {
    to_json(&ResultLine {
        name,
        outcome: None,
        error: Some(message.to_owned()),
    })
}

/// A result line as JSON; serializing strings into JSON cannot fail.
fn to_json(line: &ResultLine<'_>) -> String {
    serde_json::to_string(line).unwrap_or_default()
}

fn sign_jsonl() -> Result<(), String> {
    each_line(answer)
}

/// Answers each non-blank line of standard input with one line of standard output.
fn each_line(mut answer: impl FnMut(&str) -> String) -> Result<(), String> {
    let stdin = io::stdin().lock();
    let mut stdout = io::BufWriter::new(io::stdout().lock());
    for line in stdin.lines() {
        let line = line.map_err(|e| format!("reading standard input: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        writeln!(stdout, "{}", answer(&line)).map_err(|e| format!("writing: {e}"))?;
    }
    stdout.flush().map_err(|e| format!("writing: {e}"))
}

mod explain;
mod verify;

/// The case the flags describe, and the body; a random nonce and the clock's time unless
/// given, when `fresh` allows it.
fn case_of(args: SignArgs, fresh: bool) -> Result<(Case, Vec<u8>), String> {
    let private_key_pem = read_text(args.private_key_file.as_ref(), "the private key file")?;
    let rsa = args.signature_method.starts_with("RSA-");
    let consumer_secret = match (args.consumer_secret, rsa) {
        (Some(secret), _) => secret,
        (None, true) => String::new(),
        (None, false) => return Err(NO_CONSUMER_SECRET.to_owned()),
    };
    let body = args.request.read_body()?;
    let nonce = match (args.nonce, fresh) {
        (Some(nonce), _) => nonce,
        (None, true) => Nonce::generate()
            .map_err(|e| e.to_string())?
            .as_str()
            .to_owned(),
        (None, false) => {
            return Err("--nonce is needed: the oauth_nonce the other side signed".to_owned())
        }
    };
    let timestamp = match (args.timestamp, fresh) {
        (Some(timestamp), _) => timestamp,
        (None, true) => Timestamp::now().map_err(|e| e.to_string())?.to_string(),
        (None, false) => {
            return Err(
                "--timestamp is needed: the oauth_timestamp the other side signed".to_owned(),
            )
        }
    };
    let case = Case {
        _name: String::new(),
        method: args.request.method,
        url: args.request.url.unwrap_or_default(),
        body: None,
        content_type: args.request.content_type,
        consumer_key: args.consumer_key.unwrap_or_default(),
        consumer_secret,
        token_secret: args
            .token
            .as_ref()
            .map(|_| args.token_secret.unwrap_or_default()),
        token: args.token,
        signature_method: Some(args.signature_method),
        private_key_pem,
        nonce,
        timestamp,
        version: if args.no_version {
            VersionField::Null
        } else {
            VersionField::Absent
        },
        callback: args.callback,
        verifier: args.verifier,
        realm: args.realm,
        body_hash: args.body_hash,
        observed: None,
        _source: None,
        _expected: None,
    };
    Ok((case, body))
}

fn sign_one(args: SignArgs) -> Result<(), String> {
    let verbose = args.verbose;
    let (case, body) = case_of(args, true)?;
    if verbose {
        return sign_verbose(&case, &body).map_err(|e| e.to_string());
    }
    let outcome = sign_case(&case, &body).map_err(|e| e.to_string())?;
    println!("base string:   {}", outcome.base_string);
    println!("signature:     {}", outcome.signature);
    println!("authorization: {}", outcome.authorization);
    Ok(())
}

/// `oauth1 sign --verbose`: every stage, with the key's shape instead of the secrets.
fn sign_verbose(case: &Case, body: &[u8]) -> Result<(), Error> {
    use oauth1_signer::base_string::BaseUri;
    use oauth1_signer::encode::encode;

    let signer = signer_of(case)?;
    let request = request_of(case, body)?;
    let done = signer.sign(
        &request,
        &Nonce::new(case.nonce.as_str())?,
        case.timestamp.parse()?,
    )?;
    println!("parameters (source, decoded name = value, then as encoded), in normalized order:");
    let params = done.parameters();
    let width = params.iter().map(|p| p.name.len()).max().unwrap_or(0);
    for p in params.iter() {
        let name = String::from_utf8_lossy(p.name);
        println!(
            "  {:<5}  {name:<width$} = {:?}\n         {}={}",
            p.source.to_string(),
            String::from_utf8_lossy(p.value),
            encode(p.name),
            encode(p.value),
        );
    }
    println!("normalized:    {}", done.parameters());
    println!("method:        {}", done.base_string().method());
    println!("base URI:      {}", BaseUri::new(request.url())?);
    println!("base string:   {}", done.base_string());
    println!("key:           {}", key_shape(&signer));
    println!("signature:     {}", done.signature().as_str());
    println!("authorization: {}", done.authorization());
    Ok(())
}

/// The key as the lengths of its parts, never their bytes.
fn key_shape(signer: &Signer) -> String {
    if signer.method().is_rsa() {
        return "the RSA private key (not shown)".to_owned();
    }
    let consumer = signer.consumer().secret().len();
    match signer.token() {
        Some(token) if !token.secret().is_empty() => format!(
            "<consumer secret, {consumer} bytes>&<token secret, {} bytes>",
            token.secret().len()
        ),
        _ => format!("<consumer secret, {consumer} bytes>& (no token secret)"),
    }
}

const NO_CONSUMER_SECRET: &str =
    "no consumer secret: set OAUTH1_CONSUMER_SECRET (or pass --consumer-secret; '' for an empty one)";

/// The text of an optional file flag (`what` names it in errors).
fn read_text(path: Option<&PathBuf>, what: &str) -> Result<Option<String>, String> {
    path.map(|path| {
        std::fs::read_to_string(path).map_err(|e| format!("reading {what} {}: {e}", path.display()))
    })
    .transpose()
}

fn encode(value: &std::ffi::OsStr) -> Result<(), String> {
    let bytes = if value == "-" {
        let mut bytes = Vec::new();
        io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("reading standard input: {e}"))?;
        bytes
    } else {
        value.as_encoded_bytes().to_vec()
    };
    println!("{}", oauth1_signer::encode::encode(&bytes));
    Ok(())
}
