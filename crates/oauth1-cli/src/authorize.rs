//! `oauth1 authorize`: token credentials from a provider, the three-legged flow of RFC 5849 §2
//! with a loopback callback (or `oob` and the verifier typed in).

use std::io::{BufRead, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::Args;
use oauth1_reqwest::Provider;
use oauth1_signer::encode::encode;

use crate::input::ConsumerArgs;
use crate::terminal::value;
use listener::Listener;

mod listener;

#[derive(Args, Clone)]
pub(crate) struct AuthorizeArgs {
    /// The provider's temporary-credentials endpoint (RFC 5849 §2.1).
    #[arg(long)]
    pub(crate) request_token_url: String,
    /// The provider's resource-owner authorization endpoint (§2.2).
    #[arg(long)]
    pub(crate) authorize_url: String,
    /// The provider's token-credentials endpoint (§2.3).
    #[arg(long)]
    pub(crate) access_token_url: String,
    #[command(flatten)]
    pub(crate) consumer: ConsumerArgs,
    /// oob: no callback; type the verifier (PIN) the provider shows. Without it, the command
    /// listens on loopback and sends that URL as oauth_callback.
    #[arg(long, value_name = "oob")]
    pub(crate) callback: Option<String>,
    /// Where the callback listener listens.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:0")]
    pub(crate) listen: String,
    /// Seconds to wait for the browser's redirect or the verifier.
    #[arg(long, value_name = "SECONDS", default_value_t = 300)]
    pub(crate) timeout: u64,
    /// Print the credentials as one JSON object instead of name=value lines.
    #[arg(long)]
    pub(crate) json: bool,
}

pub(crate) fn run(args: &AuthorizeArgs) -> Result<(), String> {
    let signer = args.consumer.signer(None)?;
    let provider = Provider::new(
        &args.request_token_url,
        &args.authorize_url,
        &args.access_token_url,
    )
    .map_err(|e| e.to_string())?;
    // Redirects are not followed: reqwest's default policy would send the signed header on
    // to wherever an answer points on the same host.
    let client = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(60))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| format!("starting the HTTP client: {e}"))?;
    let deadline = Instant::now() + Duration::from_secs(args.timeout);

    let listener = match args.callback.as_deref() {
        Some("oob") => None,
        Some(other) => {
            return Err(format!(
                "--callback {other:?}: the only value is oob (the verifier typed in); without it, the callback is a loopback listener (--listen)"
            ))
        }
        None => Some(Listener::bind(&args.listen)?),
    };
    let callback = listener
        .as_ref()
        .map_or_else(|| "oob".to_owned(), Listener::callback_url);

    let temporary = provider
        .temporary_credentials_blocking(&client, &signer, &callback)
        .map_err(|e| {
            format!(
                "temporary credentials: {}",
                value(&crate::input::with_causes(&e))
            )
        })?;
    let url = provider.authorization_url(&temporary);
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(
        stderr,
        "Open this URL in a browser and authorize the application:"
    );
    let _ = writeln!(stderr, "    {url}");
    drop(stderr);

    let verifier = match listener {
        Some(listener) => listener.wait(&temporary, deadline)?,
        None => read_verifier(deadline)?,
    };
    let credentials = provider
        .token_credentials_blocking(&client, &signer, &temporary, &verifier)
        .map_err(|e| {
            format!(
                "token credentials: {}",
                value(&crate::input::with_causes(&e))
            )
        })?;

    let token = credentials.token();
    let secret = String::from_utf8_lossy(token.secret().expose()).into_owned();
    let mut pairs = vec![
        ("oauth_token".to_owned(), token.key().to_owned()),
        ("oauth_token_secret".to_owned(), secret),
    ];
    pairs.extend(
        credentials
            .extra()
            .map(|(name, value)| (name.to_owned(), value.to_owned())),
    );
    if args.json {
        let object: serde_json::Map<String, serde_json::Value> = pairs
            .into_iter()
            .map(|(name, value)| (name, serde_json::Value::String(value)))
            .collect();
        let line = serde_json::Value::Object(object).to_string();
        crate::terminal::line(&crate::terminal::json(&line));
    } else {
        // Each value percent-encoded, so that every line reads back as `name=value`.
        for (name, value) in pairs {
            crate::terminal::line(&format!(
                "{}={}",
                encode(name.as_bytes()),
                encode(value.as_bytes())
            ));
        }
    }
    Ok(())
}

fn timed_out(what: &str) -> String {
    format!("no answer in time: waited for {what} until --timeout ran out; run again, and open the URL sooner (or give a longer --timeout)")
}

/// Reads the verifier (PIN) the provider shows from standard input, until the deadline.
fn read_verifier(deadline: Instant) -> Result<String, String> {
    tell!("Then type the verifier (PIN) the provider shows, and press Enter:");
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let read = std::io::stdin().lock().read_line(&mut line);
        let _ = sender.send(read.map(|_| line));
    });
    let wait = deadline.saturating_duration_since(Instant::now());
    match receiver.recv_timeout(wait) {
        Ok(Ok(line)) if !line.trim().is_empty() => Ok(line.trim().to_owned()),
        Ok(Ok(_)) => Err("no verifier: standard input ended before one was typed".to_owned()),
        Ok(Err(e)) => Err(format!("reading the verifier: {e}")),
        Err(_) => Err(timed_out("the verifier on standard input")),
    }
}
