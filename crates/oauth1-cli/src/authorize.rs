//! `oauth1 authorize`: token credentials from a provider, the three-legged flow of RFC 5849 §2
//! with a loopback callback (or `oob` and the verifier typed in).

use std::io::{BufRead, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::Args;
use oauth1_reqwest::Provider;
use oauth1_signer::encode::encode;
use oauth1_signer::flow::{Callback, FlowError, TemporaryCredentials};

use crate::input::ConsumerArgs;

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

/// The most bytes of the browser's request read, its request line and headers.
const MAX_CALLBACK_REQUEST: usize = 16 * 1024;

pub(crate) fn run(args: &AuthorizeArgs) -> Result<(), String> {
    let signer = args.consumer.signer()?;
    let provider = Provider::new(
        &args.request_token_url,
        &args.authorize_url,
        &args.access_token_url,
    )
    .map_err(|e| e.to_string())?;
    let client = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(60))
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
        None => Some(
            TcpListener::bind(&args.listen)
                .map_err(|e| format!("listening on {} for the callback: {e}", args.listen))?,
        ),
    };
    let callback = match &listener {
        None => "oob".to_owned(),
        Some(listener) => {
            let address = listener
                .local_addr()
                .map_err(|e| format!("reading the callback's address: {e}"))?;
            format!("http://{address}/callback")
        }
    };

    let temporary = provider
        .temporary_credentials_blocking(&client, &signer, &callback)
        .map_err(|e| format!("temporary credentials: {}", crate::input::with_causes(&e)))?;
    let url = provider.authorization_url(&temporary);
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(
        stderr,
        "Open this URL in a browser and authorize the application:"
    );
    let _ = writeln!(stderr, "    {url}");
    drop(stderr);

    let verifier = match listener {
        Some(listener) => wait_for_callback(&listener, &temporary, deadline)?,
        None => read_verifier(deadline)?,
    };
    let credentials = provider
        .token_credentials_blocking(&client, &signer, &temporary, &verifier)
        .map_err(|e| format!("token credentials: {}", crate::input::with_causes(&e)))?;

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
        println!("{}", serde_json::Value::Object(object));
    } else {
        // Each value percent-encoded, so that every line reads back as `name=value`.
        for (name, value) in pairs {
            println!("{}={}", encode(name.as_bytes()), encode(value.as_bytes()));
        }
    }
    Ok(())
}

/// Waits for the browser's redirect to the callback; answers it with a page, and returns the
/// verifier when the callback is this flow's.
fn wait_for_callback(
    listener: &TcpListener,
    temporary: &TemporaryCredentials,
    deadline: Instant,
) -> Result<String, String> {
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("waiting for the callback: {e}"))?;
    loop {
        let (stream, _) = match listener.accept() {
            Ok(connection) => connection,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if Instant::now() >= deadline {
                    return Err(timed_out("the browser's redirect to the callback"));
                }
                std::thread::sleep(Duration::from_millis(50));
                continue;
            }
            Err(e) => return Err(format!("waiting for the callback: {e}")),
        };
        if let Some(result) = answer_callback(stream, temporary) {
            return result;
        }
    }
}

fn timed_out(what: &str) -> String {
    format!("no answer in time: waited for {what} until --timeout ran out; run again, and open the URL sooner (or give a longer --timeout)")
}

/// Reads one request of the browser and answers it; `None` for a request that is not the
/// callback (a favicon, a request cut short), which is answered and then ignored.
fn answer_callback(
    mut stream: TcpStream,
    temporary: &TemporaryCredentials,
) -> Option<Result<String, String>> {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < MAX_CALLBACK_REQUEST {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
    }
    let line = head.split(|&b| b == b'\n').next().unwrap_or(&[]);
    let line = String::from_utf8_lossy(line);
    let target = line.split(' ').nth(1).unwrap_or("");
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    if path != "/callback" {
        respond(&mut stream, "404 Not Found", "Not the callback.");
        return None;
    }
    match Callback::parse(query, temporary) {
        Ok(callback) => {
            respond(
                &mut stream,
                "200 OK",
                "The application is authorized. You can close this window.",
            );
            Some(Ok(callback.verifier().to_owned()))
        }
        Err(e) => {
            respond(
                &mut stream,
                "400 Bad Request",
                "The authorization did not complete. See the command line for why.",
            );
            Some(Err(match e {
                FlowError::Problem { .. } => format!("the provider's callback: {e}"),
                _ => format!("the callback: {e}"),
            }))
        }
    }
}

fn respond(stream: &mut TcpStream, status: &str, message: &str) {
    let page = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>oauth1 authorize</title></head><body><p>{message}</p></body></html>"
    );
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
        page.len()
    );
    let _ = stream.flush();
}

/// Reads the verifier (PIN) the provider shows from standard input, until the deadline.
fn read_verifier(deadline: Instant) -> Result<String, String> {
    eprintln!("Then type the verifier (PIN) the provider shows, and press Enter:");
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
