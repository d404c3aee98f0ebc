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
//! oauth1 authorize --request-token-url https://api.example.com/oauth/request_token \
//!     --authorize-url https://api.example.com/oauth/authorize \
//!     --access-token-url https://api.example.com/oauth/access_token --consumer-key KEY
//! oauth1 send -X POST 'https://api.example.com/1.1/statuses/update.json' \
//!     -d 'status=Hello' --consumer-key KEY --token TOKEN
//! oauth1 encode 'Ladies + Gentlemen'
//! ```

// clap prints these doc comments as the help text, where backticks would show.
#![allow(clippy::doc_markdown)]

use std::io::{self, BufRead, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

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
    /// Get token credentials from a provider: the three-legged flow, with a loopback callback
    /// (or the verifier typed in, with --callback oob).
    Authorize(Box<AuthorizeArgs>),
    /// Send a signed request, like curl: the response body to standard output, the status to
    /// standard error; on a 400 or 401 that echoes a base string, the diagnosis too.
    Send(Box<SendArgs>),
    /// Percent-encode a value as RFC 5849 §3.6 says (uppercase hex, only A-Z a-z 0-9 - . _ ~
    /// left as they are).
    Encode {
        /// The value to encode; `-` reads raw bytes from standard input.
        value: std::ffi::OsString,
    },
}

/// The request flags of `sign` and `verify`.
#[derive(Args, Clone)]
struct RequestArgs {
    /// HTTP method.
    #[arg(long, default_value = "GET")]
    method: String,
    /// Absolute URL as the client sends it on the wire, query included.
    #[arg(long, required_unless_present_any = ["jsonl", "curl", "http", "har"])]
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
    /// The body of a captured request (--curl, --http), byte for byte.
    #[arg(skip)]
    captured_body: Option<Vec<u8>>,
}

impl RequestArgs {
    /// The request of a capture (`--curl`, `--http`, `--har`) in place of the flags.
    fn set_captured(
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

    /// The body from `--body` or `--body-file`, empty without either.
    fn read_body(&self) -> Result<Vec<u8>, String> {
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

#[derive(Args, Clone)]
#[allow(clippy::struct_excessive_bools)] // command-line switches
struct SignArgs {
    /// Read request cases as JSON Lines on standard input and write one result line for each
    /// (the request-case format).
    #[arg(long, conflicts_with_all = ["url", "consumer_key"])]
    jsonl: bool,

    #[command(flatten)]
    request: RequestArgs,

    /// The Authorization header the client sent: the consumer key, token, signature method,
    /// nonce, timestamp, version, realm, callback, verifier and body hash come from it, and
    /// only the secrets are typed (for explain, its oauth_signature is the observed one).
    #[arg(long, value_name = "HEADER", conflicts_with_all = [
        "jsonl", "consumer_key", "token", "nonce", "timestamp", "realm", "callback", "verifier",
        "no_version", "body_hash",
    ])]
    authorization: Option<String>,

    /// A curl command as a browser's "Copy as cURL" (bash or POSIX) or Postman writes it, or -
    /// to read it from standard input: the method, URL, headers and body come from it, and the
    /// protocol parameters from its Authorization header, query or form body; only the secrets
    /// are typed.
    #[arg(long, value_name = "COMMAND", conflicts_with_all = [
        "jsonl", "url", "method", "body", "body_file", "content_type", "authorization", "http",
        "consumer_key", "token", "nonce", "timestamp", "realm", "callback", "verifier",
        "no_version", "body_hash",
    ])]
    curl: Option<String>,
    /// A raw HTTP/1.1 request as a proxy (mitmproxy, Burp, Charles) saves it, in FILE or - for
    /// standard input; read like --curl.
    #[arg(long, value_name = "FILE", conflicts_with_all = [
        "jsonl", "url", "method", "body", "body_file", "content_type", "authorization",
        "consumer_key", "token", "nonce", "timestamp", "realm", "callback", "verifier",
        "no_version", "body_hash",
    ])]
    http: Option<PathBuf>,
    /// The scheme of an --http request whose target is a path (its Host header gives the
    /// host).
    #[arg(long, default_value = "https", value_parser = ["https", "http"], requires = "http")]
    scheme: String,
    /// A HAR file (a browser's "Save all as HAR"): every entry that carries OAuth is taken in
    /// turn, each answer headed by the entry's number, method and URL.
    #[arg(long, value_name = "FILE", conflicts_with_all = [
        "jsonl", "url", "method", "body", "body_file", "content_type", "authorization", "http",
        "curl", "consumer_key", "token", "nonce", "timestamp", "realm", "callback", "verifier",
        "no_version", "body_hash",
    ])]
    har: Option<PathBuf>,
    /// With --har: only entry N (counted from 1 over all the file's entries).
    #[arg(long, value_name = "N", requires = "har")]
    entry: Option<usize>,
    /// A request already captured (an entry of --har), and its label.
    #[arg(skip)]
    captured: Option<(String, oauth1_capture::Capture)>,

    /// oauth_consumer_key.
    #[arg(long, required_unless_present_any = ["jsonl", "authorization", "curl", "http", "har"])]
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

#[derive(Args, Clone)]
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
    /// Print the answer as one JSON line, the explain line of the request-case format.
    #[arg(long, conflicts_with = "verbose")]
    json: bool,
}

#[derive(Args, Clone)]
#[allow(clippy::struct_excessive_bools)] // command-line switches
struct SendArgs {
    /// The URL, query included.
    url: String,
    /// The method; GET, or POST when a body is given.
    #[arg(short = 'X', long = "request", value_name = "METHOD")]
    method: Option<String>,
    /// A header, 'Name: value'; repeatable.
    #[arg(short = 'H', long = "header", value_name = "HEADER")]
    headers: Vec<String>,
    /// Form data (signed), joined with & when repeated; @FILE reads a file without its line
    /// breaks. The Content-Type is application/x-www-form-urlencoded unless -H gives one.
    #[arg(short = 'd', long = "data", value_name = "DATA", conflicts_with_all = ["data_binary", "form"])]
    data: Vec<String>,
    /// The body as it is, or @FILE; give its Content-Type with -H (a form is signed).
    #[arg(long, value_name = "DATA", conflicts_with = "form")]
    data_binary: Option<String>,
    /// A multipart/form-data field, name=value or name=@FILE; repeatable. Not signed (RFC 5849
    /// signs only a form body's parameters).
    #[arg(short = 'F', long = "form", value_name = "FIELD")]
    form: Vec<String>,
    /// Print the status line and the headers before the body, on standard output.
    #[arg(short = 'i', long = "include")]
    include: bool,
    /// Where the protocol parameters go: header, query or body.
    #[arg(long, default_value = "header")]
    transport: String,

    #[command(flatten)]
    consumer: ConsumerArgs,
    /// oauth_token.
    #[arg(long)]
    token: Option<String>,
    /// The token secret; prefer the environment variable.
    #[arg(long, env = "OAUTH1_TOKEN_SECRET", hide_env_values = true)]
    token_secret: Option<String>,
    /// Leave oauth_version out.
    #[arg(long)]
    no_version: bool,
}

/// The consumer's credentials and the signature options of `send` and `authorize`.
#[derive(Args, Clone)]
struct ConsumerArgs {
    /// oauth_consumer_key.
    #[arg(long)]
    consumer_key: String,
    /// The consumer secret; prefer the environment variable, which stays out of shell history.
    #[arg(long, env = "OAUTH1_CONSUMER_SECRET", hide_env_values = true)]
    consumer_secret: Option<String>,
    /// HMAC-SHA1, HMAC-SHA256, HMAC-SHA512, PLAINTEXT, RSA-SHA1 or RSA-SHA256.
    #[arg(long, default_value = "HMAC-SHA1")]
    signature_method: String,
    /// PEM file of the RSA private key (PKCS#1 or PKCS#8), for the RSA methods.
    #[arg(long, value_name = "FILE")]
    private_key_file: Option<PathBuf>,
    /// realm of the Authorization header.
    #[arg(long)]
    realm: Option<String>,
}

impl ConsumerArgs {
    /// The signer these flags describe, without a token.
    fn signer(&self) -> Result<oauth1_signer::Signer, String> {
        let pem = read_text(self.private_key_file.as_ref(), "the private key file")?;
        let secret = consumer_secret(self.consumer_secret.clone(), &self.signature_method)?;
        consumer_signer(
            &self.consumer_key,
            secret,
            &self.signature_method,
            self.realm.as_deref(),
            pem.as_deref(),
        )
    }
}

/// The consumer secret given; none is an error, but for the RSA methods, which do not use it.
fn consumer_secret(given: Option<String>, signature_method: &str) -> Result<String, String> {
    match (given, signature_method.starts_with("RSA-")) {
        (Some(secret), _) => Ok(secret),
        (None, true) => Ok(String::new()),
        (None, false) => Err(NO_CONSUMER_SECRET.to_owned()),
    }
}

/// The consumer's signer: its key and secret, the signature method, and the realm and RSA
/// private key if given; checked in that order.
fn consumer_signer(
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

#[derive(Args, Clone)]
struct AuthorizeArgs {
    /// The provider's temporary-credentials endpoint (RFC 5849 §2.1).
    #[arg(long)]
    request_token_url: String,
    /// The provider's resource-owner authorization endpoint (§2.2).
    #[arg(long)]
    authorize_url: String,
    /// The provider's token-credentials endpoint (§2.3).
    #[arg(long)]
    access_token_url: String,
    #[command(flatten)]
    consumer: ConsumerArgs,
    /// oob: no callback; type the verifier (PIN) the provider shows. Without it, the command
    /// listens on loopback and sends that URL as oauth_callback.
    #[arg(long, value_name = "oob")]
    callback: Option<String>,
    /// Where the callback listener listens.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:0")]
    listen: String,
    /// Seconds to wait for the browser's redirect or the verifier.
    #[arg(long, value_name = "SECONDS", default_value_t = 300)]
    timeout: u64,
    /// Print the credentials as one JSON object instead of name=value lines.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Clone)]
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
    /// The received request as a curl command (or - for standard input), as with
    /// `explain --curl`.
    #[arg(long, value_name = "COMMAND", conflicts_with_all = [
        "jsonl", "url", "method", "body", "body_file", "content_type", "authorization", "http",
    ])]
    curl: Option<String>,
    /// The received request as a raw HTTP/1.1 request in FILE (or - for standard input).
    #[arg(long, value_name = "FILE", conflicts_with_all = [
        "jsonl", "url", "method", "body", "body_file", "content_type", "authorization",
    ])]
    http: Option<PathBuf>,
    /// The scheme of an --http request whose target is a path.
    #[arg(long, default_value = "https", value_parser = ["https", "http"], requires = "http")]
    scheme: String,
    /// The received requests in a HAR file: every entry that carries OAuth, in turn.
    #[arg(long, value_name = "FILE", conflicts_with_all = [
        "jsonl", "url", "method", "body", "body_file", "content_type", "authorization", "http",
        "curl",
    ])]
    har: Option<PathBuf>,
    /// With --har: only entry N (counted from 1).
    #[arg(long, value_name = "N", requires = "har")]
    entry: Option<usize>,

    /// The consumer secret the server holds for the presented consumer key; without it (and
    /// its variable) the consumer has no shared secret, and only the RSA methods can verify.
    #[arg(long, env = "OAUTH1_CONSUMER_SECRET", hide_env_values = true)]
    consumer_secret: Option<String>,
    /// The token secret the server holds for the presented token; without it (and its
    /// variable) the server holds no token, and a request that names one is refused.
    #[arg(long, env = "OAUTH1_TOKEN_SECRET", hide_env_values = true)]
    token_secret: Option<String>,
    /// PEM file of the consumer's RSA public key (2048 bits or more), for the RSA methods.
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
        Command::Sign(args) if args.jsonl => sign::jsonl(),
        Command::Sign(args) => sign::one(*args),
        Command::Verify(args) if args.jsonl => verify::jsonl(),
        Command::Verify(args) => verify::one(*args),
        Command::Explain(args) if args.sign.jsonl => explain::jsonl(),
        Command::Explain(args) => explain::one(*args),
        Command::Authorize(args) => authorize::run(&args),
        Command::Send(args) => send::run(&args),
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

/// Answers each non-blank line of standard input with one line of standard output; a line
/// that is not UTF-8 gets an error line, and the stream goes on.
fn each_line(mut answer: impl FnMut(&str) -> String) -> Result<(), String> {
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
        writeln!(stdout, "{answered}").map_err(|e| format!("writing: {e}"))?;
    }
    stdout.flush().map_err(|e| format!("writing: {e}"))
}

mod authorize;
mod capture;
mod explain;
mod send;
mod sign;
mod verify;

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

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// Every flag a constraint names exists on its command (clap checks it only here, or when
    /// the command runs).
    #[test]
    fn the_command_line_is_well_formed() {
        super::Cli::command().debug_assert();
    }
}
