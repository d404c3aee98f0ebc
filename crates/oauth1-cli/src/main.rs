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
//! oauth1 probe --url 'https://api.example.com/1.1/items.json?q=a+b' --consumer-key KEY \
//!     --token TOKEN --verbose
//! OAUTH1_CONSUMER_SECRET=secret oauth1 serve --port 8080 --consumer-key KEY
//! oauth1 encode 'Ladies + Gentlemen'
//! ```

// clap prints these doc comments as the help text, where backticks would show.
#![allow(clippy::doc_markdown)]

// First, so that its `say!` and `tell!` are in scope in every module after it.
#[macro_use]
mod terminal;
#[cfg(not(target_os = "wasi"))]
mod authorize;
mod capture;
mod explain;
mod input;
#[cfg(not(target_os = "wasi"))]
mod probe;
#[cfg(not(target_os = "wasi"))]
mod send;
#[cfg(not(target_os = "wasi"))]
mod serve;
mod sign;
mod verify;

use std::io::{self, Read};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[cfg(not(target_os = "wasi"))]
use authorize::AuthorizeArgs;
use explain::ExplainArgs;
use input::SignArgs;
#[cfg(not(target_os = "wasi"))]
use probe::ProbeArgs;
#[cfg(not(target_os = "wasi"))]
use send::SendArgs;
#[cfg(not(target_os = "wasi"))]
use serve::ServeArgs;
use verify::VerifyArgs;

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
    /// Exit status, as diff's: 0 when they match, 1 when they differ (explained or not), 2 on
    /// an error.
    Explain(Box<ExplainArgs>),
    #[cfg(not(target_os = "wasi"))]
    /// Get token credentials from a provider: the three-legged flow, with a loopback callback
    /// (or the verifier typed in, with --callback oob).
    Authorize(Box<AuthorizeArgs>),
    #[cfg(not(target_os = "wasi"))]
    /// Send a signed request, like curl: the response body to standard output, the status to
    /// standard error; on a 400 or 401 that echoes a base string, the diagnosis too.
    Send(Box<SendArgs>),
    #[cfg(not(target_os = "wasi"))]
    /// Find what a server that refuses a request computes, by asking it: the request signed
    /// exactly, then as each known mistake would sign it, until one is accepted. Exit status 0
    /// when one is (rfc or found), 1 when none is, 2 on an error.
    Probe(Box<ProbeArgs>),
    #[cfg(not(target_os = "wasi"))]
    /// Run a local OAuth 1.0a provider to test a client against: temporary credentials,
    /// authorization, token credentials, and every other path a protected resource; every
    /// refusal says why (the OAuth problem, and for a bad signature the mistake). Ctrl-C stops
    /// it.
    Serve(Box<ServeArgs>),
    /// Percent-encode a value as RFC 5849 §3.6 says (uppercase hex, only A-Z a-z 0-9 - . _ ~
    /// left as they are).
    Encode {
        /// The value to encode; `-` reads raw bytes from standard input.
        value: std::ffi::OsString,
    },
}

fn main() -> ExitCode {
    // Under WASI, relative paths resolve against the directory the host gives as PWD (the npm
    // package's `oauth1` passes the one it runs in, and preopens `/`).
    #[cfg(target_os = "wasi")]
    if let Some(directory) = std::env::var_os("PWD") {
        let _ = std::env::set_current_dir(directory);
    }
    let cli = Cli::parse();
    // `explain` answers as diff does: 0 for a match, 1 for a mismatch, 2 for an error; `probe`
    // 0 when the request or a variant was accepted, 1 when none was, 2 for an error.
    // (the outcome, the status for an error, the status without one)
    let (result, failure, success) = match cli.command {
        Command::Sign(args) if args.jsonl => (sign::jsonl(), 1, 0),
        Command::Sign(args) => (sign::one(*args), 1, 0),
        Command::Verify(args) if args.jsonl => (verify::jsonl(), 1, 0),
        Command::Verify(args) => (verify::one(*args), 1, 0),
        Command::Explain(args) if args.sign.jsonl => (explain::jsonl(), 2, 0),
        Command::Explain(args) => match explain::one(*args) {
            Ok(matched) => (Ok(()), 2, u8::from(!matched)),
            Err(e) => (Err(e), 2, 0),
        },
        #[cfg(not(target_os = "wasi"))]
        Command::Authorize(args) => (authorize::run(&args), 1, 0),
        #[cfg(not(target_os = "wasi"))]
        Command::Send(args) => (send::run(&args), 1, 0),
        #[cfg(not(target_os = "wasi"))]
        Command::Probe(args) => match probe::run(*args) {
            Ok(accepted) => (Ok(()), 2, u8::from(!accepted)),
            Err(e) => (Err(e), 2, 0),
        },
        #[cfg(not(target_os = "wasi"))]
        Command::Serve(args) => (serve::run(&args), 1, 0),
        Command::Encode { value } => (encode(&value), 1, 0),
    };
    // What was printed counts: output that a full disk refused is a failure (a reader that
    // has gone is not: `terminal::out`).
    let result = result.and_then(|()| match terminal::write_failure() {
        Some(message) => Err(message.to_owned()),
        None => Ok(()),
    });
    match result {
        Ok(()) => ExitCode::from(success),
        Err(message) => {
            tell!("error: {message}");
            ExitCode::from(failure)
        }
    }
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
    terminal::line(&oauth1_signer::encode::encode(&bytes).to_string());
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
