//! The loopback listener that waits for the browser's redirect to the callback.
//!
//! Anything on this machine can reach it, and so can any web page the browser shows (an
//! `<img src="http://127.0.0.1:N/callback?…">`), so nothing but this flow's callback ends the
//! wait:
//! - a request whose `oauth_token` is not this flow's temporary token, or that has none (an
//!   `oauth_problem` alone), is answered, said on standard error, and ignored;
//! - a request whose `Host` is not this listener's (a name that is not `localhost`, as a page
//!   that rebinds its own name to 127.0.0.1 sends) is refused the same way, and so is one with
//!   more than one `Host` (400);
//! - a client that sends slowly or not at all holds nothing: connections are served
//!   concurrently by hyper, each within a deadline for its head and for the whole exchange, at
//!   most [`MAX_CONNECTIONS`] at once, and the wait ends at `--timeout` whatever they do.

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderValue, CONTENT_TYPE, HOST};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use oauth1_signer::flow::{Callback, FlowError, TemporaryCredentials};
use oauth1_signer::params::{Parameters, Source};
use tokio::sync::{mpsc, Semaphore};

use crate::terminal::value;

/// The most time a client has to send its request line and headers.
const HEAD_DEADLINE: Duration = Duration::from_secs(5);
/// The most time one connection is served, from its first byte to the answer's last.
const CONNECTION_DEADLINE: Duration = Duration::from_secs(10);
/// The most connections served at once; another one is closed at once.
pub(crate) const MAX_CONNECTIONS: usize = 128;
/// The most bytes of a request's head (hyper's smallest buffer).
const MAX_HEAD: usize = 8 * 1024;

/// The callback's listener, bound.
pub(crate) struct Listener {
    listener: std::net::TcpListener,
    address: SocketAddr,
}

impl Listener {
    /// Listens on `address` (`--listen`).
    pub(crate) fn bind(address: &str) -> Result<Self, String> {
        let listener = std::net::TcpListener::bind(address)
            .map_err(|e| format!("listening on {address} for the callback: {e}"))?;
        let address = listener
            .local_addr()
            .map_err(|e| format!("reading the callback's address: {e}"))?;
        Ok(Listener { listener, address })
    }

    /// The callback URL sent as `oauth_callback`.
    pub(crate) fn callback_url(&self) -> String {
        format!("http://{}/callback", self.address)
    }

    /// Serves requests until this flow's callback comes, and returns its verifier; or the
    /// error it reports; or a timeout error at `deadline`.
    pub(crate) fn wait(
        self,
        temporary: &TemporaryCredentials,
        deadline: Instant,
    ) -> Result<String, String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()
            .map_err(|e| format!("waiting for the callback: {e}"))?;
        let (done, mut outcome) = mpsc::unbounded_channel();
        let flow = Arc::new(Flow {
            temporary: temporary.clone(),
            address: self.address,
            done,
        });
        let served = runtime.block_on(async move {
            self.listener
                .set_nonblocking(true)
                .map_err(|e| format!("waiting for the callback: {e}"))?;
            let listener = tokio::net::TcpListener::from_std(self.listener)
                .map_err(|e| format!("waiting for the callback: {e}"))?;
            tokio::select! {
                biased;
                result = outcome.recv() => {
                    Ok(result.unwrap_or_else(|| Err("the callback listener stopped".to_owned())))
                }
                () = tokio::time::sleep_until(deadline.into()) => {
                    Ok(Err(super::timed_out("the browser's redirect to the callback")))
                }
                () = serve(listener, flow) => Ok(Err("the callback listener stopped".to_owned())),
            }
        });
        // Connections still open are dropped with the runtime.
        served.and_then(|result| result)
    }
}

/// Accepts connections for ever, each served on its own task.
async fn serve(listener: tokio::net::TcpListener, flow: Arc<Flow>) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            // Out of file descriptors, say: try again a moment later.
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            continue; // The stream is closed as it drops.
        };
        let flow = Arc::clone(&flow);
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request| {
                let answer = flow.answer(&request);
                async move { Ok::<_, Infallible>(answer) }
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEAD_DEADLINE)
                .max_buf_size(MAX_HEAD)
                .keep_alive(false)
                .serve_connection(TokioIo::new(stream), service);
            let _ = tokio::time::timeout(CONNECTION_DEADLINE, connection).await;
            drop(slot);
        });
    }
}

/// What the listener knows of the flow, and where this flow's callback is sent.
struct Flow {
    temporary: TemporaryCredentials,
    address: SocketAddr,
    done: mpsc::UnboundedSender<Result<String, String>>,
}

impl Flow {
    /// Answers one request: this flow's callback ends the wait, anything else is ignored
    /// (and said on standard error, but for paths other than the callback, such as a
    /// browser's favicon).
    fn answer(&self, request: &Request<Incoming>) -> Response<Full<Bytes>> {
        // One Host, or which one was checked and which one a proxy would route by is unknown.
        let hosts = request.headers().get_all(HOST).iter().count();
        if hosts > 1 {
            tell!(
                "ignored a request to the callback listener: it carries {hosts} Host headers, where a request has one (RFC 9112 §3.2); still waiting for the browser's redirect"
            );
            return page(StatusCode::BAD_REQUEST, "More than one Host header.");
        }
        if let Err(host) = self.check_host(request.headers().get(HOST)) {
            tell!(
                "ignored a request to the callback listener: its Host is {host}, not this listener's {} (a web page may be trying to reach it); still waiting for the browser's redirect",
                self.address
            );
            return page(StatusCode::MISDIRECTED_REQUEST, "Not this listener.");
        }
        if request.uri().path() != "/callback" {
            return page(StatusCode::NOT_FOUND, "Not the callback.");
        }
        if request.method() != Method::GET {
            tell!(
                "ignored a {} request to the callback: the browser's redirect is a GET; still waiting for it",
                value(request.method().as_str())
            );
            return page(StatusCode::METHOD_NOT_ALLOWED, "Not the callback.");
        }
        let query = request.uri().query().unwrap_or("");
        let parsed = Callback::parse(query, &self.temporary);
        if !self.is_this_flows(query) {
            let reason = match parsed {
                Err(FlowError::Problem { problem, .. }) => format!(
                    "it reports oauth_problem={} without this flow's oauth_token",
                    value(&problem)
                ),
                Err(FlowError::TokenMismatch) => "its oauth_token is not this flow's".to_owned(),
                _ => "it does not carry this flow's oauth_token".to_owned(),
            };
            tell!("ignored a request to the callback: {reason}; still waiting for the browser's redirect (until --timeout; if you refused in the browser, stop with Ctrl-C)");
            return page(
                StatusCode::BAD_REQUEST,
                "Not this authorization's callback: ignored.",
            );
        }
        let (status, message, result) = match parsed {
            Ok(callback) => (
                StatusCode::OK,
                "The application is authorized. You can close this window.",
                Ok(callback.verifier().to_owned()),
            ),
            Err(e) => (
                StatusCode::BAD_REQUEST,
                "The authorization did not complete. See the command line for why.",
                // What the provider reports, escaped: it is shown on a terminal.
                Err(match e {
                    FlowError::Problem { .. } => {
                        format!("the provider's callback: {}", value(&e.to_string()))
                    }
                    _ => format!("the callback: {}", value(&e.to_string())),
                }),
            ),
        };
        // The receiver is gone only once the wait has ended.
        let _ = self.done.send(result);
        page(status, message)
    }

    /// Whether the callback query carries this flow's temporary token as `oauth_token`.
    fn is_this_flows(&self, query: &str) -> bool {
        let mut params = Parameters::new();
        if params
            .extend_urlencoded(Source::Query, query.as_bytes())
            .is_err()
        {
            return false;
        }
        let token = self.temporary.token().key().as_bytes();
        let carries = params
            .iter()
            .any(|p| p.name == b"oauth_token" && p.value == token);
        carries
    }

    /// The request's `Host` if it is not this listener's: the port must be the listener's,
    /// and the host `localhost`, a loopback address or the address listened on; never a
    /// name a page could point at this machine.
    fn check_host(&self, host: Option<&HeaderValue>) -> Result<(), String> {
        let shown = || {
            host.map_or_else(
                || "absent".to_owned(),
                |h| crate::terminal::bytes(h.as_bytes()),
            )
        };
        let authority = host
            .and_then(|h| h.to_str().ok())
            .and_then(|h| h.parse::<hyper::http::uri::Authority>().ok())
            .ok_or_else(shown)?;
        if authority.port_u16().unwrap_or(80) != self.address.port() {
            return Err(shown());
        }
        let name = authority.host();
        let name = name
            .strip_prefix('[')
            .and_then(|n| n.strip_suffix(']'))
            .unwrap_or(name);
        let listening = self.address.ip();
        let allowed = name.eq_ignore_ascii_case("localhost")
            || name
                .parse::<IpAddr>()
                .is_ok_and(|ip| ip.is_loopback() || ip == listening);
        if allowed {
            Ok(())
        } else {
            Err(shown())
        }
    }
}

/// A small page for the browser.
fn page(status: StatusCode, message: &str) -> Response<Full<Bytes>> {
    let body = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>oauth1 authorize</title></head><body><p>{message}</p></body></html>"
    );
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    // The callback URL holds the verifier: not cached, not sent on as a referrer.
    headers.insert("cache-control", HeaderValue::from_static("no-store"));
    headers.insert("referrer-policy", HeaderValue::from_static("no-referrer"));
    response
}
