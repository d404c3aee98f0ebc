//! `oauth1 serve`: a local OAuth 1.0a provider for testing clients, built from the server
//! crate's verifier, issuer and diagnosis, whose every refusal says why.
//!
//! It issues temporary credentials, approves them (at once, or when asked), exchanges them
//! for token credentials, and answers every other path as a protected resource with what it
//! verified. It knows every secret it verifies with, so the diagnosis of a bad signature is
//! always on (within the server crate's cost budget): a 401 names the mistake, or the origin
//! the client signed for.

mod credentials;
mod host;
mod provider;
mod record;

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, ValueEnum};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::sync::Semaphore;
use url::Url;

use crate::terminal::value;
use credentials::Known;
use provider::Provider;
use record::Lines;

/// The most time a client has to send its request line and headers.
const HEAD_DEADLINE: Duration = Duration::from_secs(10);
/// How long a connection may go without a request starting or an answer being made before
/// it is dropped: longer than any exchange takes ([`provider::EXCHANGE_DEADLINE`], and the
/// time to write its answer), so that only a connection whose client does not read its
/// answers is (an idle one is closed at [`HEAD_DEADLINE`] without a request). A client that
/// sends request after request on one connection is never cut in the middle of one.
const STUCK_AFTER: Duration = Duration::from_secs(80);
/// The most connections served at once; another waits for a slot.
const MAX_CONNECTIONS: usize = 256;

/// `oauth1 serve`'s arguments.
#[derive(Args)]
pub(crate) struct ServeArgs {
    /// The port to listen on; 0 for any free one.
    #[arg(long, default_value_t = 8080)]
    pub(crate) port: u16,
    /// The address to listen on: loopback unless you say otherwise (anything that reaches it
    /// can use the consumers it knows); 0.0.0.0 or :: for all interfaces.
    #[arg(long, value_name = "ADDRESS", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub(crate) bind: IpAddr,
    /// The origin clients sign for [default: http://ADDRESS:PORT, with 127.0.0.1 or ::1
    /// for 0.0.0.0 or ::]; a client that signs for another one is told which it used.
    #[arg(long, value_name = "URL")]
    pub(crate) origin: Option<String>,
    /// A consumer key this provider knows (its secret from OAUTH1_CONSUMER_SECRET or
    /// --consumer-secret).
    #[arg(long)]
    pub(crate) consumer_key: Option<String>,
    /// The consumer's secret; prefer the environment variable, which stays out of shell
    /// history.
    #[arg(long, env = "OAUTH1_CONSUMER_SECRET", hide_env_values = true)]
    pub(crate) consumer_secret: Option<String>,
    /// Token credentials of that consumer, valid from the start (its secret from
    /// OAUTH1_TOKEN_SECRET or --token-secret): for a client that has its token already.
    #[arg(long, requires = "consumer_key")]
    pub(crate) token: Option<String>,
    /// The token's secret; prefer the environment variable.
    #[arg(long, env = "OAUTH1_TOKEN_SECRET", hide_env_values = true)]
    pub(crate) token_secret: Option<String>,
    /// A JSON file of several consumers and tokens:
    /// {"consumers": [{"key": "…", "secret": "…", "tokens": [{"token": "…", "secret": "…"}]}]}
    #[arg(long, value_name = "FILE")]
    pub(crate) credentials: Option<PathBuf>,
    /// A callback URL consumers may ask for (repeat it for several; `oob` for out-of-band)
    /// [default: any absolute URL, and oob].
    #[arg(long = "callback", value_name = "URL")]
    pub(crate) callbacks: Vec<String>,
    /// How an authorization is approved: at once (auto), or by a person on the page (ask).
    #[arg(long, value_enum, default_value_t = Approve::Auto)]
    pub(crate) approve: Approve,
    /// Check resource requests' signatures as a provider's server computes them: woocommerce,
    /// netsuite, x, lti or discogs (docs/profiles.md); the credential endpoints stay RFC
    /// 5849's. Not mastercard or jira, whose RSA signatures need the consumer's public key.
    #[arg(long, value_name = "NAME", value_parser = crate::input::profile_name)]
    pub(crate) profile: Option<&'static oauth1_signer::profile::Profile>,
    /// Append one JSON line per request to FILE: time, method, URL, status, verdict, causes.
    #[arg(long, value_name = "FILE")]
    pub(crate) log: Option<PathBuf>,
}

/// How `GET /oauth/authorize` approves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Approve {
    /// Approved at once: a redirect to the callback, or the verifier shown for oob.
    Auto,
    /// A page with Approve and Deny.
    Ask,
}

/// Runs the provider until Ctrl-C (or SIGTERM).
pub(crate) fn run(args: &ServeArgs) -> Result<(), String> {
    if let Some(profile) = args.profile {
        check_profile(profile)?;
    }
    let origin = args.origin.as_deref().map(parse_origin).transpose()?;
    let known = Known::gather(args)?;
    let address = SocketAddr::new(args.bind, args.port);
    let listener = std::net::TcpListener::bind(address).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AddrInUse {
            format!(
                "port {} of {} is in use: pass --port with another port, or --port 0 for any free one",
                args.port, args.bind
            )
        } else {
            format!("listening on {address}: {e}")
        }
    })?;
    let bound = listener
        .local_addr()
        .map_err(|e| format!("reading the listening address: {e}"))?;
    let origin = match origin {
        Some(origin) => origin,
        None => Url::parse(&format!("http://{}", reachable(bound)))
            .map_err(|e| format!("the origin http://{bound}: {e}"))?,
    };
    let (lines, written) = Lines::start();
    let provider = Arc::new(Provider::new(
        &known,
        (origin.clone(), bound),
        args,
        lines.clone(),
    )?);
    announce(&origin, bound, &known, args);

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_io()
        .enable_time()
        .build()
        .map_err(|e| format!("starting the server: {e}"))?;
    runtime.block_on(async move {
        listener
            .set_nonblocking(true)
            .map_err(|e| format!("listening on {bound}: {e}"))?;
        let listener = tokio::net::TcpListener::from_std(listener)
            .map_err(|e| format!("listening on {bound}: {e}"))?;
        tokio::select! {
            () = accept(listener, provider) => {}
            result = stopped() => result?,
        }
        Ok::<(), String>(())
    })?;
    // Connections still open are dropped with the runtime, at once; then the last line, after
    // the lines of the requests (unless nobody reads them).
    runtime.shutdown_timeout(Duration::from_millis(100));
    lines.say("oauth1 serve: stopped".to_owned());
    drop(lines);
    let _ = written.recv_timeout(Duration::from_secs(1));
    Ok(())
}

/// The address a client on this machine reaches `bound` at: `bound` itself, or for an
/// unspecified address (0.0.0.0, ::), which no client can send to or sign for, the loopback
/// address of its family.
fn reachable(bound: SocketAddr) -> SocketAddr {
    match bound.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => {
            SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), bound.port())
        }
        IpAddr::V6(ip) if ip.is_unspecified() => {
            SocketAddr::new(IpAddr::V6(Ipv6Addr::LOCALHOST), bound.port())
        }
        _ => bound,
    }
}

/// Refuses a profile whose provider signs with RSA: its signatures are verified with the
/// consumer's public key, which `serve` does not take, so none would verify.
fn check_profile(profile: &oauth1_signer::profile::Profile) -> Result<(), String> {
    if !profile.method().is_rsa() {
        return Ok(());
    }
    Err(format!(
        "--profile {name}: {provider} signs with {method}, which is verified with the consumer's RSA public key, and oauth1 serve takes no public key (it verifies {methods}): check such a request with oauth1 verify --profile {name} --public-key-file FILE, or start oauth1 serve with another profile",
        name = profile.name(),
        provider = profile.provider(),
        method = profile.method().as_str(),
        methods = provider::METHODS_TEXT,
    ))
}

/// The `--origin` given: an http or https URL with nothing after its host and port.
fn parse_origin(text: &str) -> Result<Url, String> {
    let no_scheme = || {
        // A bare host (and port) is what is most often meant.
        let bare_host = !text.is_empty() && !text.contains(['/', '?', '#', ' ']);
        let example = if bare_host {
            format!("http://{text}")
        } else {
            "http://127.0.0.1:8080".to_owned()
        };
        format!(
            "--origin {}: give a scheme (http:// or https://) and a host, and a port if not the scheme's: {}",
            value(text),
            value(&example)
        )
    };
    let url = match Url::parse(text) {
        Ok(url) => url,
        Err(url::ParseError::RelativeUrlWithoutBase) => return Err(no_scheme()),
        Err(e) => return Err(format!("--origin {}: {e}", value(text))),
    };
    if !matches!(url.scheme(), "http" | "https") {
        // `localhost:8080` reads as the scheme `localhost`.
        return Err(no_scheme());
    }
    let bare = url.path() == "/" && url.query().is_none() && url.fragment().is_none();
    if !bare || url.host().is_none() {
        return Err(format!(
            "--origin {}: give a scheme, a host and a port only (http://127.0.0.1:8080)",
            value(text)
        ));
    }
    Ok(url)
}

/// Prints where it listens, its endpoints, the keys it knows (never a secret) and a request
/// to try. The first line, `oauth1 serve: listening on ORIGIN`, is for scripts that start it.
fn announce(origin: &Url, bound: SocketAddr, known: &Known, args: &ServeArgs) {
    let base = origin.as_str().trim_end_matches('/');
    say!("oauth1 serve: listening on {base}");
    if bound.ip().is_unspecified() {
        say!(
            "  (bound to {bound}: it listens on all interfaces; a client on another machine signs for the address it reaches this one at, which --origin http://ADDRESS:{} verifies)",
            bound.port()
        );
    } else if base != format!("http://{bound}") {
        say!("  (bound to {bound})");
    }
    let approval = match args.approve {
        Approve::Auto => "approved at once",
        Approve::Ask => "a page to approve or deny",
    };
    say!("  temporary credentials  POST {base}/oauth/request_token");
    say!("  authorization          GET  {base}/oauth/authorize?oauth_token=…  ({approval})");
    say!("  token credentials      POST {base}/oauth/access_token");
    say!("  anything else          a protected resource: 200 with what was verified, as JSON");
    let plaintext = if origin.scheme() == "https" {
        ""
    } else {
        " (PLAINTEXT, which sends the secrets, only at an https --origin)"
    };
    say!(
        "  signatures             {}{plaintext}; not RSA, which needs the consumer's public key",
        provider::METHODS_TEXT
    );
    if let Some(profile) = args.profile {
        say!(
            "profile: {}: resource requests' signatures are checked as {}'s server computes them ({}); the credential endpoints stay RFC 5849's",
            profile.name(),
            profile.provider(),
            profile.deviation_list()
        );
    }
    say!("consumers: {}", known.describe());
    let (key, token) = known.sample();
    let token = token.map_or(String::new(), |t| format!(" --token {}", value(t)));
    say!(
        "try:  oauth1 send --consumer-key {}{token} {base}/hello",
        value(key)
    );
    say!("      (with OAUTH1_CONSUMER_SECRET and OAUTH1_TOKEN_SECRET set to this server's)");
    say!("Every refusal says why: the OAuth problem and, for a bad signature, the mistake.");
    say!("Ctrl-C stops it.");
}

/// Accepts connections for ever, each served on its own task.
async fn accept(listener: tokio::net::TcpListener, provider: Arc<Provider>) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok(slot) = Arc::clone(&slots).acquire_owned().await else {
            return;
        };
        let Ok((stream, _)) = listener.accept().await else {
            // Out of file descriptors, say: try again a moment later.
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let provider = Arc::clone(&provider);
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request| {
                let provider = Arc::clone(&provider);
                async move { Ok::<_, std::convert::Infallible>(provider.answer(request).await) }
            });
            serve_connection(stream, service, STUCK_AFTER).await;
            drop(slot);
        });
    }
}

/// Serves one connection until it closes, or until `stuck` has passed without a request
/// starting or an answer being made: then it is dropped.
async fn serve_connection<S>(stream: tokio::net::TcpStream, service: S, stuck: Duration)
where
    S: hyper::service::Service<
            hyper::Request<hyper::body::Incoming>,
            Response = hyper::Response<http_body_util::Full<hyper::body::Bytes>>,
            Error = std::convert::Infallible,
        > + Send
        + Sync
        + 'static,
    S::Future: Send + 'static,
{
    use std::sync::atomic::{AtomicU64, Ordering};
    let started = tokio::time::Instant::now();
    let since = move || u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    // When a request last started or an answer was last made, in milliseconds since `started`.
    let progress = Arc::new(AtomicU64::new(0));
    let service = Arc::new(service);
    let counted = {
        let progress = Arc::clone(&progress);
        hyper::service::service_fn(move |request| {
            progress.store(since(), Ordering::Relaxed);
            let answer = hyper::service::Service::call(&*service, request);
            let progress = Arc::clone(&progress);
            async move {
                let answer = answer.await;
                progress.store(since(), Ordering::Relaxed);
                answer
            }
        })
    };
    let connection = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEAD_DEADLINE)
        .serve_connection(TokioIo::new(stream), counted);
    let mut connection = std::pin::pin!(connection);
    let check = (stuck / 4).max(Duration::from_millis(10));
    loop {
        tokio::select! {
            _ = connection.as_mut() => return,
            () = tokio::time::sleep(check) => {
                let still = since().saturating_sub(progress.load(Ordering::Relaxed));
                if u128::from(still) > stuck.as_millis() {
                    return;
                }
            }
        }
    }
}

/// Resolves on Ctrl-C, or on SIGTERM where there are signals.
async fn stopped() -> Result<(), String> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut terminate =
            signal(SignalKind::terminate()).map_err(|e| format!("listening for SIGTERM: {e}"))?;
        tokio::select! {
            result = tokio::signal::ctrl_c() => result.map_err(|e| format!("listening for Ctrl-C: {e}")),
            _ = terminate.recv() => Ok(()),
        }
    }
    #[cfg(not(unix))]
    {
        tokio::signal::ctrl_c()
            .await
            .map_err(|e| format!("listening for Ctrl-C: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::time::{Duration, Instant};

    /// Serves one connection with answers of `size` bytes, each after `delay`, dropped when
    /// stuck for `stuck`; its address, and a receiver told when the connection ends.
    fn one_connection(
        runtime: &tokio::runtime::Runtime,
        size: usize,
        delay: Duration,
        stuck: Duration,
    ) -> (std::net::SocketAddr, std::sync::mpsc::Receiver<()>) {
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let address = listener.local_addr().unwrap();
        let (ended, end) = std::sync::mpsc::channel();
        runtime.spawn(async move {
            let (stream, _) = listener.accept().await.unwrap();
            let service = hyper::service::service_fn(move |_| async move {
                tokio::time::sleep(delay).await;
                Ok(hyper::Response::new(http_body_util::Full::new(
                    hyper::body::Bytes::from(vec![b'x'; size]),
                )))
            });
            super::serve_connection(stream, service, stuck).await;
            let _ = ended.send(());
        });
        (address, end)
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap()
    }

    /// A client that sends request after request on one connection, for longer than a
    /// connection may go without progress, has every one answered: progress keeps it.
    #[test]
    fn a_connection_in_use_is_kept_however_long() {
        let runtime = runtime();
        let stuck = Duration::from_millis(500);
        let (address, _) = one_connection(&runtime, 2, Duration::from_millis(100), stuck);
        let mut stream = std::net::TcpStream::connect(address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let started = Instant::now();
        let mut answered = 0;
        while started.elapsed() < stuck * 4 {
            stream
                .write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                .unwrap();
            let mut status = String::new();
            reader.read_line(&mut status).unwrap();
            assert!(
                status.starts_with("HTTP/1.1 200"),
                "{status:?} after {answered}"
            );
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                if line == "\r\n" {
                    break;
                }
            }
            let mut body = [0; 2];
            reader.read_exact(&mut body).unwrap();
            answered += 1;
            std::thread::sleep(Duration::from_millis(200));
        }
        assert!(answered >= 5, "{answered}");
    }

    /// A client that sends requests and never reads their answers holds its connection only
    /// until it has gone `stuck` without progress: then the connection is dropped.
    #[test]
    fn a_connection_whose_answers_are_not_read_is_dropped() {
        let runtime = runtime();
        let stuck = Duration::from_millis(500);
        let (address, end) = one_connection(&runtime, 4 << 20, Duration::ZERO, stuck);
        let mut stream = std::net::TcpStream::connect(address).unwrap();
        stream
            .set_write_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        for _ in 0..4 {
            if stream
                .write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                .is_err()
            {
                break;
            }
        }
        assert!(
            end.recv_timeout(Duration::from_secs(10)).is_ok(),
            "the connection is still served"
        );
    }
}
