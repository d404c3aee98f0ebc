//! The `tower` layer: signed requests reach the service with their identity and body; every
//! other request is answered by the layer with the status, `WWW-Authenticate` and Problem
//! Reporting body of RFC 5849 §3.2, and the service never sees it.
#![cfg(feature = "tower")]

use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use oauth1_server::tower::VerifyLayer;
use oauth1_server::{MemoryCredentials, MemoryNonceStore, Verified, Verifier};
use oauth1_signer::{Consumer, Request, Signer, Token};
use tower::{service_fn, Layer, ServiceExt};

type Body = Full<Bytes>;

fn verifier() -> Verifier<MemoryCredentials, MemoryNonceStore> {
    let mut credentials = MemoryCredentials::new();
    credentials.add_consumer("dpf43f3p2l4k3l03", "kd94hf93k423kf44");
    credentials.add_token("dpf43f3p2l4k3l03", "nnch734d00sl2jdk", "pfkkdhi9sl3r4s00");
    Verifier::new(credentials, MemoryNonceStore::new())
}

fn signer() -> Signer {
    Signer::new(Consumer::new("dpf43f3p2l4k3l03", "kd94hf93k423kf44"))
        .with_token(Token::new("nnch734d00sl2jdk", "pfkkdhi9sl3r4s00"))
}

/// The Authorization header of a request to `url`, signed now.
fn authorization(method: &str, url: &str, content_type: &str, body: &[u8]) -> String {
    let request = Request::new(method, url)
        .unwrap()
        .with_body(content_type, body);
    signer().sign_now(&request).unwrap().authorization()
}

struct Answer {
    status: u16,
    www_authenticate: Option<String>,
    content_type: Option<String>,
    body: String,
}

/// Sends `request` through the layer to a service that answers with the verified consumer
/// key and token, and the body it received; counts the calls that reach the service.
async fn send(
    layer: &VerifyLayer<MemoryCredentials, MemoryNonceStore>,
    request: http::Request<Body>,
    calls: &Arc<AtomicUsize>,
) -> Answer {
    let calls = Arc::clone(calls);
    let service = layer.layer(service_fn(move |request: http::Request<Body>| {
        let calls = Arc::clone(&calls);
        async move {
            calls.fetch_add(1, Ordering::SeqCst);
            let verified = request.extensions().get::<Verified>().cloned().unwrap();
            let body = request.into_body().collect().await.unwrap().to_bytes();
            let text = format!(
                "{} {:?} {}",
                verified.consumer_key(),
                verified.token(),
                String::from_utf8_lossy(&body)
            );
            Ok::<_, Infallible>(http::Response::new(Body::from(text)))
        }
    }));
    let response = service.oneshot(request).await.unwrap();
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_owned())
    };
    Answer {
        status: response.status().as_u16(),
        www_authenticate: header("www-authenticate"),
        content_type: header("content-type"),
        body: String::from_utf8(
            response
                .into_body()
                .collect()
                .await
                .unwrap()
                .to_bytes()
                .to_vec(),
        )
        .unwrap(),
    }
}

fn layer() -> VerifyLayer<MemoryCredentials, MemoryNonceStore> {
    VerifyLayer::new(verifier(), "https://photos.example.net").unwrap()
}

#[tokio::test]
async fn a_signed_request_reaches_the_service_with_its_identity_and_body() {
    let layer = layer();
    let calls = Arc::new(AtomicUsize::new(0));
    let body = b"title=Caf%C3%A9+au+lait&tags=a&tags=b";
    let header = authorization(
        "POST",
        "https://photos.example.net/photos?size=original",
        "application/x-www-form-urlencoded",
        body,
    );
    let request = http::Request::post("/photos?size=original")
        .header("authorization", header)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(&body[..]))
        .unwrap();
    let answer = send(&layer, request, &calls).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(
        answer.body,
        "dpf43f3p2l4k3l03 Some(\"nnch734d00sl2jdk\") title=Caf%C3%A9+au+lait&tags=a&tags=b"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_path_prefix_of_the_origin_is_signed() {
    let layer = VerifyLayer::new(verifier(), "https://example.com/api/").unwrap();
    let calls = Arc::new(AtomicUsize::new(0));
    let header = authorization("GET", "https://example.com/api/photos", "", b"");
    let request = http::Request::get("/photos")
        .header("authorization", header)
        .body(Body::default())
        .unwrap();
    assert_eq!(send(&layer, request, &calls).await.status, 200);
}

#[tokio::test]
async fn a_tampered_request_is_answered_401_with_the_realm_and_the_problem() {
    let layer = layer();
    let calls = Arc::new(AtomicUsize::new(0));
    let header = authorization(
        "GET",
        "https://photos.example.net/photos?size=original",
        "",
        b"",
    );
    let request = http::Request::get("/photos?size=large")
        .header("authorization", header)
        .body(Body::default())
        .unwrap();
    let answer = send(&layer, request, &calls).await;
    assert_eq!(answer.status, 401);
    assert_eq!(
        answer.www_authenticate.as_deref(),
        Some("OAuth realm=\"https://photos.example.net\"")
    );
    assert_eq!(
        answer.content_type.as_deref(),
        Some("application/x-www-form-urlencoded")
    );
    assert!(
        answer
            .body
            .starts_with("oauth_problem=signature_invalid&oauth_problem_advice=the%20signature%20does%20not%20match"),
        "{}",
        answer.body
    );
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_replay_is_answered_401() {
    let layer = layer();
    let calls = Arc::new(AtomicUsize::new(0));
    let header = authorization("GET", "https://photos.example.net/photos", "", b"");
    let request = || {
        http::Request::get("/photos")
            .header("authorization", header.as_str())
            .body(Body::default())
            .unwrap()
    };
    assert_eq!(send(&layer, request(), &calls).await.status, 200);
    let answer = send(&layer, request(), &calls).await;
    assert_eq!(answer.status, 401);
    assert!(
        answer.body.starts_with("oauth_problem=nonce_used&"),
        "{}",
        answer.body
    );
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

/// A request signed in its query, with credentials of another scheme in its `Authorization`
/// header (a proxy's `Basic`, say): the header is not OAuth's and is left alone, the query
/// verified. A header that starts as OAuth's but is malformed stays malformed: 400.
#[tokio::test]
async fn a_header_of_another_scheme_is_not_read() {
    let layer = layer();
    let calls = Arc::new(AtomicUsize::new(0));
    let request = Request::new("GET", "https://photos.example.net/photos?size=original").unwrap();
    let protocol = signer().sign_now(&request).unwrap().to_urlencoded();
    let request = http::Request::get(format!("/photos?size=original&{protocol}"))
        .header("authorization", "Basic dXNlcjpwYXNz")
        .body(Body::default())
        .unwrap();
    let answer = send(&layer, request, &calls).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(calls.load(Ordering::SeqCst), 1);

    for glued in ["OAuthoauth_nonce=\"x\"", "OAuth,oauth_nonce=\"x\""] {
        let request = http::Request::get("/photos")
            .header("authorization", glued)
            .body(Body::default())
            .unwrap();
        let answer = send(&layer, request, &calls).await;
        assert_eq!(answer.status, 400, "{glued}: {}", answer.body);
    }
}

/// A request with no protocol parameter at all (no `Authorization: OAuth`, none in the query
/// or the form body) is unauthenticated, not malformed: 401 with the challenge (RFC 7235
/// §3.1), as HTTP clients and browsers expect; the body still names what is absent.
#[tokio::test]
async fn a_request_without_oauth_is_challenged_401() {
    let layer = layer();
    let calls = Arc::new(AtomicUsize::new(0));
    let plain = || http::Request::get("/photos?size=original");
    let unsigned = [
        plain().body(Body::default()).unwrap(),
        plain()
            .header("authorization", "OAuth realm=\"Photos\"")
            .body(Body::default())
            .unwrap(),
        http::Request::post("/photos")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Body::from("title=a+b"))
            .unwrap(),
        // Credentials of another scheme are not OAuth's: challenged too, not malformed.
        plain()
            .header("authorization", "Basic dXNlcjpwYXNz")
            .body(Body::default())
            .unwrap(),
        plain()
            .header("authorization", "  bearer oauth_signature=\"x\"")
            .body(Body::default())
            .unwrap(),
        http::Request::post("/photos")
            .header("authorization", "Bearer abc")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Body::from("title=a+b"))
            .unwrap(),
    ];
    for request in unsigned {
        let shown = format!("{request:?}");
        let answer = send(&layer, request, &calls).await;
        assert_eq!(answer.status, 401, "{shown}");
        assert_eq!(
            answer.www_authenticate.as_deref(),
            Some("OAuth realm=\"https://photos.example.net\""),
            "{shown}"
        );
        assert!(
            answer.body.starts_with(
                "oauth_problem=parameter_absent&oauth_parameters_absent=oauth_consumer_key%26oauth_signature_method%26oauth_signature%26oauth_timestamp%26oauth_nonce&"
            ),
            "{shown}: {}",
            answer.body
        );
    }
    // One protocol parameter anywhere, even the callback alone, makes it an OAuth request
    // that lacks the others: 400.
    for request in [
        plain()
            .header("authorization", "OAuth oauth_version=\"1.0\"")
            .body(Body::default())
            .unwrap(),
        http::Request::get("/photos?oauth_callback=oob")
            .body(Body::default())
            .unwrap(),
        http::Request::post("/photos")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Body::from("oauth_nonce=n"))
            .unwrap(),
    ] {
        let shown = format!("{request:?}");
        let answer = send(&layer, request, &calls).await;
        assert_eq!(answer.status, 400, "{shown}");
        assert_eq!(answer.www_authenticate, None, "{shown}");
    }
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn malformed_requests_are_answered_400_without_www_authenticate() {
    let layer = layer();
    let calls = Arc::new(AtomicUsize::new(0));
    let header = authorization("GET", "https://photos.example.net/photos", "", b"");

    // Some protocol parameters, not all: malformed.
    let partly = http::Request::get("/photos")
        .header("authorization", "OAuth oauth_token=\"x\"")
        .body(Body::default())
        .unwrap();
    let answer = send(&layer, partly, &calls).await;
    assert_eq!(answer.status, 400);
    assert_eq!(answer.www_authenticate, None);
    assert!(
        answer.body.starts_with(
            "oauth_problem=parameter_absent&oauth_parameters_absent=oauth_consumer_key%26"
        ),
        "{}",
        answer.body
    );

    let twice = http::Request::get("/photos")
        .header("authorization", header.as_str())
        .header("authorization", header.as_str())
        .body(Body::default())
        .unwrap();
    let answer = send(&layer, twice, &calls).await;
    assert_eq!(answer.status, 400);
    assert_eq!(
        answer.body,
        "oauth_problem=parameter_rejected&oauth_problem_advice=the%20request%20has%20more%20than%20one%20Authorization%20header%3A%20send%20one"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_body_over_the_limit_is_answered_413_unread() {
    let layer = layer().with_body_limit(16);
    let calls = Arc::new(AtomicUsize::new(0));
    let body = b"a=0123456789abcdef";
    let header = authorization(
        "POST",
        "https://photos.example.net/photos",
        "application/x-www-form-urlencoded",
        body,
    );
    let request = http::Request::post("/photos")
        .header("authorization", header.as_str())
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(&body[..]))
        .unwrap();
    let answer = send(&layer, request, &calls).await;
    assert_eq!(answer.status, 413);
    assert_eq!(
        answer.body,
        "the body is longer than 16 bytes, the most this server reads"
    );
    assert_eq!(calls.load(Ordering::SeqCst), 0);

    // At the limit, the body is read and verified.
    let layer = self::layer().with_body_limit(body.len());
    let request = http::Request::post("/photos")
        .header("authorization", header.as_str())
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(&body[..]))
        .unwrap();
    assert_eq!(send(&layer, request, &calls).await.status, 200);
}

#[tokio::test]
async fn a_public_url_policy_that_refuses_answers_400() {
    let layer = VerifyLayer::with_public_url(verifier(), |_| None);
    let calls = Arc::new(AtomicUsize::new(0));
    let request = http::Request::get("/photos").body(Body::default()).unwrap();
    let answer = send(&layer, request, &calls).await;
    assert_eq!(answer.status, 400);
    assert!(answer
        .body
        .ends_with("the%20request%20URI%20%22%2Fphotos%22%20does%20not%20make%20a%20public%20URL"));
}

#[test]
fn origins_are_checked() {
    let error = |origin: &str| {
        VerifyLayer::new(verifier(), origin)
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        error("https://example.com/?a=1"),
        "invalid public origin \"https://example.com/?a=1\": give the scheme, the host and an optional path prefix, without a query or a fragment"
    );
    assert_eq!(
        error("ftp://example.com"),
        "unsupported URL scheme \"ftp\": only http and https requests can be signed"
    );
    assert_eq!(
        error("example.com"),
        "invalid URL: relative URL without a base: give the whole URL, with its scheme and host, such as https://host/path"
    );
}

/// A body that counts how often anything polls it (one test uses it).
struct Counted(Full<Bytes>);

static POLLS: AtomicUsize = AtomicUsize::new(0);

impl http_body::Body for Counted {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Bytes>, Infallible>>> {
        POLLS.fetch_add(1, Ordering::SeqCst);
        std::pin::Pin::new(&mut self.0).poll_frame(cx)
    }
}

impl From<Bytes> for Counted {
    fn from(bytes: Bytes) -> Self {
        Counted(Full::new(bytes))
    }
}

/// A body that is not a form and carries no body hash is not authenticated: the layer hands
/// it on unread. One that is signed is read only after the header's checks pass.
#[tokio::test]
async fn only_a_signed_body_is_read_and_only_after_the_header_is_checked() {
    let layer = layer().with_body_limit(16);
    let url = "https://photos.example.net/photos";
    let body = br#"{"title": "a JSON body longer than the limit"}"#;
    let header = authorization("POST", url, "application/json", body);
    let polls_at_service = Arc::new(AtomicUsize::new(usize::MAX));
    let seen = Arc::clone(&polls_at_service);
    let service = layer.layer(service_fn(move |request: http::Request<Counted>| {
        let seen = Arc::clone(&seen);
        async move {
            seen.store(POLLS.load(Ordering::SeqCst), Ordering::SeqCst);
            let body = request.into_body().collect().await.unwrap().to_bytes();
            Ok::<_, Infallible>(http::Response::new(Body::from(body)))
        }
    }));
    let request = http::Request::post("/photos")
        .header("authorization", header.as_str())
        .header("content-type", "application/json")
        .body(Counted::from(Bytes::from_static(body)))
        .unwrap();
    let response = service.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        polls_at_service.load(Ordering::SeqCst),
        0,
        "read before the service"
    );
    let echoed = response.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(&echoed[..], &body[..]);

    // A form body over the limit whose header is stale: the header is refused first, and the
    // body is never read.
    let before = POLLS.load(Ordering::SeqCst);
    let stale = authorization("POST", url, "application/json", b"")
        .replace("oauth_timestamp=\"", "oauth_timestamp=\"1");
    let request = http::Request::post("/photos")
        .header("authorization", stale.as_str())
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Counted::from(Bytes::from_static(
            b"a=0123456789abcdef0123456789",
        )))
        .unwrap();
    let response = service.oneshot(request).await.unwrap();
    assert_eq!(response.status(), 401);
    let text = response.into_body().collect().await.unwrap().to_bytes();
    assert!(
        text.starts_with(b"oauth_problem=timestamp_refused"),
        "{text:?}"
    );
    assert_eq!(POLLS.load(Ordering::SeqCst), before, "the body was read");
}

/// `application/x-www-form-urlencodedX` is not a form to the verifier, so its parameters are
/// not signed; a framework's form extractor may still read them.
#[tokio::test]
async fn content_types_that_only_start_like_a_form_are_refused() {
    let layer = layer();
    let calls = Arc::new(AtomicUsize::new(0));
    for content_type in [
        "application/x-www-form-urlencodedX",
        "application/x-www-form-urlencoded-evil; charset=utf-8",
        " APPLICATION/X-WWW-FORM-URLENCODED2",
    ] {
        let header = authorization("POST", "https://photos.example.net/p", content_type, b"a=1");
        let request = http::Request::post("/p")
            .header("authorization", header.as_str())
            .header("content-type", content_type)
            .body(Body::from("a=1"))
            .unwrap();
        let answer = send(&layer, request, &calls).await;
        assert_eq!(answer.status, 400, "{content_type}");
        assert!(
            answer
                .body
                .contains("is%20not%20application%2Fx-www-form-urlencoded"),
            "{}",
            answer.body
        );
    }
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_full_nonce_store_is_answered_503_and_a_replay_still_401() {
    let mut credentials = MemoryCredentials::new();
    credentials.add_consumer("dpf43f3p2l4k3l03", "kd94hf93k423kf44");
    credentials.add_token("dpf43f3p2l4k3l03", "nnch734d00sl2jdk", "pfkkdhi9sl3r4s00");
    let layer = VerifyLayer::new(
        Verifier::new(credentials, MemoryNonceStore::with_capacity(1)),
        "https://photos.example.net",
    )
    .unwrap();
    let calls = Arc::new(AtomicUsize::new(0));
    let request = |header: &str| {
        http::Request::get("/photos")
            .header("authorization", header)
            .body(Body::default())
            .unwrap()
    };
    let first = authorization("GET", "https://photos.example.net/photos", "", b"");
    assert_eq!(send(&layer, request(&first), &calls).await.status, 200);
    let second = authorization("GET", "https://photos.example.net/photos", "", b"");
    let answer = send(&layer, request(&second), &calls).await;
    assert_eq!(answer.status, 503);
    assert_eq!(
        answer.body,
        "the server could not check the request's credentials; try again later"
    );
    assert_eq!(send(&layer, request(&first), &calls).await.status, 401);
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

/// A store that fails with an error naming its database.
struct Failing;

impl oauth1_server::CredentialStore for Failing {
    async fn consumer(
        &self,
        _: &str,
    ) -> Result<Option<oauth1_server::ConsumerCredential>, oauth1_server::StoreError> {
        Err(oauth1_server::StoreError::new(
            "connection to db-7.internal:5432 as user admin refused",
        ))
    }
    async fn token(
        &self,
        _: &str,
        _: &str,
    ) -> Result<Option<oauth1_server::TokenCredential>, oauth1_server::StoreError> {
        Ok(None)
    }
}

#[tokio::test]
async fn a_store_failure_is_answered_503_without_its_detail() {
    let layer = VerifyLayer::new(
        Verifier::new(Failing, MemoryNonceStore::new()),
        "https://photos.example.net",
    )
    .unwrap();
    let header = authorization("GET", "https://photos.example.net/photos", "", b"");
    let service = layer.layer(service_fn(|_: http::Request<Body>| async {
        Ok::<_, Infallible>(http::Response::new(Body::default()))
    }));
    let request = http::Request::get("/photos")
        .header("authorization", header.as_str())
        .body(Body::default())
        .unwrap();
    let logged = capture_logs();
    let response = service.oneshot(request).await.unwrap();
    assert_eq!(response.status(), 503);
    let text = response.into_body().collect().await.unwrap().to_bytes();
    assert_eq!(
        &text[..],
        b"the server could not check the request's credentials; try again later"
    );
    // The detail is in the log, for the operator.
    let logged = logged.lock().unwrap();
    assert_eq!(logged.len(), 1, "{logged:?}");
    assert!(
        logged[0].contains("connection to db-7.internal:5432 as user admin refused")
            && logged[0].contains("reason=store-failure"),
        "{logged:?}"
    );
}

/// The events logged on this thread from now on. One subscriber for the whole test binary,
/// set once as the global default, keeps them per thread: a subscriber set per thread races
/// with other tests' threads over the callsites' cached interest, and may miss an event.
fn capture_logs() -> Arc<std::sync::Mutex<Vec<String>>> {
    static GLOBAL: std::sync::Once = std::sync::Once::new();
    GLOBAL.call_once(|| {
        tracing::subscriber::set_global_default(Capture).expect("no other global subscriber");
    });
    let logged = Arc::new(std::sync::Mutex::new(Vec::new()));
    LOGGED.with(|slot| *slot.borrow_mut() = Some(Arc::clone(&logged)));
    logged
}

thread_local! {
    static LOGGED: std::cell::RefCell<Option<Arc<std::sync::Mutex<Vec<String>>>>> =
        const { std::cell::RefCell::new(None) };
}

/// Collects the fields of every event into the calling thread's log, if it keeps one.
struct Capture;

impl tracing::Subscriber for Capture {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        struct Fields(String);
        impl tracing::field::Visit for Fields {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                use std::fmt::Write;
                let _ = write!(self.0, "{}={value:?} ", field.name());
            }
        }
        let mut fields = Fields(String::new());
        event.record(&mut fields);
        LOGGED.with(|slot| {
            if let Some(logged) = slot.borrow().as_ref() {
                logged.lock().unwrap().push(fields.0);
            }
        });
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

/// Behind a proxy that sets `X-Forwarded-Proto` only, a client's `Forwarded` and
/// `X-Forwarded-Host` do not change the URL checked.
#[tokio::test]
async fn behind_a_proxy_only_its_headers_make_the_url() {
    use oauth1_server::{ProxyHeaders, PublicOrigin};
    let origin = PublicOrigin::TrustedProxy {
        origin: url::Url::parse("http://api.example.com").unwrap(),
        headers: ProxyHeaders::XForwardedProto,
    };
    let layer = VerifyLayer::with_origin(verifier(), origin).unwrap();
    let calls = Arc::new(AtomicUsize::new(0));
    // Signed for another origin the client would like to be checked against.
    let header = authorization("GET", "https://evil.example/photos", "", b"");
    let request = http::Request::get("/photos")
        .header("authorization", header.as_str())
        .header("forwarded", "proto=https;host=evil.example")
        .header("x-forwarded-host", "evil.example")
        .header("x-forwarded-proto", "https")
        .body(Body::default())
        .unwrap();
    assert_eq!(send(&layer, request, &calls).await.status, 401);
    // What the client really signed: the proxy's scheme and the origin's host.
    let header = authorization("GET", "https://api.example.com/photos", "", b"");
    let request = http::Request::get("/photos")
        .header("authorization", header.as_str())
        .header("forwarded", "proto=http;host=evil.example")
        .header("x-forwarded-proto", "https")
        .body(Body::default())
        .unwrap();
    let answer = send(&layer, request, &calls).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
}

/// Credentials whose consumer `slow` is answered only after the gate opens, as a database
/// that takes its time.
struct Gated {
    inner: MemoryCredentials,
    gate: Arc<tokio::sync::Notify>,
    waiting: Arc<AtomicUsize>,
}

impl oauth1_server::CredentialStore for Gated {
    async fn consumer(
        &self,
        key: &str,
    ) -> Result<Option<oauth1_server::ConsumerCredential>, oauth1_server::StoreError> {
        if key == "slow" {
            self.waiting.fetch_add(1, Ordering::SeqCst);
            self.gate.notified().await;
        }
        self.inner.consumer(key).await
    }

    async fn token(
        &self,
        key: &str,
        token: &str,
    ) -> Result<Option<oauth1_server::TokenCredential>, oauth1_server::StoreError> {
        self.inner.token(key, token).await
    }
}

/// On a runtime of one thread, a request whose store waits leaves the thread to the others:
/// the store is awaited, not called in a way that holds the thread.
#[tokio::test(flavor = "current_thread")]
async fn a_store_that_waits_holds_no_thread() {
    let mut inner = MemoryCredentials::new();
    inner.add_consumer("slow", "slow-secret");
    inner.add_consumer("fast", "fast-secret");
    let gate = Arc::new(tokio::sync::Notify::new());
    let waiting = Arc::new(AtomicUsize::new(0));
    let store = Gated {
        inner,
        gate: Arc::clone(&gate),
        waiting: Arc::clone(&waiting),
    };
    let layer = VerifyLayer::new(
        Verifier::new(store, MemoryNonceStore::new()),
        "https://photos.example.net",
    )
    .unwrap();
    let service = layer.layer(service_fn(|_: http::Request<Body>| async {
        Ok::<_, Infallible>(http::Response::new(Body::from("served")))
    }));
    let url = "https://photos.example.net/photos";
    let signed = |consumer: &str, secret: &str| {
        let header = Signer::new(Consumer::new(consumer, secret))
            .sign_now(&Request::new("GET", url).unwrap())
            .unwrap()
            .authorization();
        http::Request::get("/photos")
            .header("authorization", header)
            .body(Body::default())
            .unwrap()
    };

    let slow = tokio::spawn(service.clone().oneshot(signed("slow", "slow-secret")));
    while waiting.load(Ordering::SeqCst) == 0 {
        tokio::task::yield_now().await;
    }
    let fast = service
        .clone()
        .oneshot(signed("fast", "fast-secret"))
        .await
        .unwrap();
    assert_eq!(fast.status(), 200);
    assert!(!slow.is_finished());
    gate.notify_one();
    assert_eq!(slow.await.unwrap().unwrap().status(), 200);
}

/// A refused request is logged: its reason, the consumer key it names, and the diagnosis when
/// the verifier makes one; never the signature, a secret or the header. The request is an
/// explain fixture's (`plus-for-space-2`), signed by a client that writes spaces as `+`.
#[tokio::test]
async fn a_refused_request_is_logged_with_its_reason_consumer_and_diagnosis() {
    let path = crate::common::fixtures_dir().join("explain.json");
    let lines: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let line = lines
        .iter()
        .find(|l| l["name"] == "plus-for-space-2")
        .unwrap();
    let signature = line["observed"]["signature"].as_str().unwrap();
    let header = crate::common::header_of(line, signature);
    let mut credentials = MemoryCredentials::new();
    credentials.add_consumer("dpf43f3p2l4k3l03", "kd94hf93k423kf44");
    credentials.add_token("dpf43f3p2l4k3l03", "nnch734d00sl2jdk", "pfkkdhi9sl3r4s00");
    // The fixture's timestamp is from 2007: a window that takes it.
    let verifier = Verifier::new(credentials, MemoryNonceStore::new())
        .with_policy(oauth1_server::Policy::default().with_timestamp_window(u64::MAX / 4))
        .with_diagnosis(10);
    let layer = VerifyLayer::new(verifier, "https://api.example.com").unwrap();
    let service = layer.layer(service_fn(|_: http::Request<Body>| async {
        Ok::<_, Infallible>(http::Response::new(Body::default()))
    }));
    let request = http::Request::post("/statuses")
        .header("authorization", header.as_str())
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from("status=a%20b%20c"))
        .unwrap();
    let logged = capture_logs();
    let response = service.oneshot(request).await.unwrap();
    assert_eq!(response.status(), 401);
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let body = String::from_utf8_lossy(&body);
    assert!(body.contains("plus-for-space"), "{body}");
    let logged = logged.lock().unwrap();
    assert_eq!(logged.len(), 1, "{logged:?}");
    let event = &logged[0];
    assert!(
        event.contains("reason=bad-signature")
            && event.contains("consumer_key=\"dpf43f3p2l4k3l03\"")
            && event.contains("diagnosis=\"the client's signature matches this request signed with plus-for-space"),
        "{event}"
    );
    for hidden in [
        signature,
        "kd94hf93k423kf44",
        "pfkkdhi9sl3r4s00",
        "oauth_signature",
    ] {
        assert!(!event.contains(hidden), "{hidden} in {event}");
    }
}

/// A form body read after the header was checked is verified as the whole request read at
/// once: the layer answers what `Verifier::verify` says of it (protocol parameters in the body
/// too, a body that does not decode, the parameter limit with the signature counted).
#[tokio::test]
async fn a_form_body_read_after_the_header_is_verified_as_the_whole_request() {
    use oauth1_server::tower::rejection;
    use oauth1_server::Policy;
    use oauth1_signer::header::Limits;
    use oauth1_signer::Realm;

    let url = "https://photos.example.net/photos?size=original";
    let form = "application/x-www-form-urlencoded";
    let header = authorization("POST", url, form, b"file=vacation.jpg&a=1");
    let realm = Realm::new("https://photos.example.net").unwrap();
    let mut statuses = Vec::new();
    // One query parameter, seven in the header (the signature's among them), two in the body.
    for (sent, limit) in [
        (&b"file=vacation.jpg&a=1"[..], 1024),
        (b"file=vacation.jpg&a=2", 1024),
        (b"file=vacation.jpg&a=1&oauth_nonce=x", 1024),
        (b"file=vacation.jpg&a=1&oauth_signature=x", 1024),
        (b"file=vacation.jpg&a=%zz", 1024),
        (b"file=vacation.jpg&a=1", 10),
        (b"file=vacation.jpg&a=1", 9),
    ] {
        let policy = Policy::default().with_limits(Limits::new(8192, limit));
        let whole = Request::new("POST", url).unwrap().with_body(form, sent);
        let expected = match verifier()
            .with_policy(policy.clone())
            .verify(&whole, Some(&header))
            .await
        {
            Ok(_) => (200, None),
            Err(e) => {
                let answer = rejection::<String>(&e, &realm);
                (answer.status().as_u16(), Some(answer.into_body()))
            }
        };
        let layer =
            VerifyLayer::new(verifier().with_policy(policy), "https://photos.example.net").unwrap();
        let request = http::Request::post("/photos?size=original")
            .header("authorization", &header)
            .header("content-type", form)
            .body(Body::from(sent.to_vec()))
            .unwrap();
        let answer = send(&layer, request, &Arc::new(AtomicUsize::new(0))).await;
        let body = (answer.status != 200).then_some(answer.body);
        assert_eq!(
            (answer.status, body),
            expected,
            "{:?} {limit}",
            String::from_utf8_lossy(sent)
        );
        statuses.push(answer.status);
    }
    assert_eq!(statuses, [200, 401, 400, 400, 400, 200, 400]);
}

/// A body that comes in chunks, announcing the length it is given (which may be wrong).
struct Chunks {
    chunks: std::collections::VecDeque<Bytes>,
    announced: Option<u64>,
}

impl From<Bytes> for Chunks {
    fn from(bytes: Bytes) -> Self {
        Chunks {
            announced: Some(bytes.len() as u64),
            chunks: [bytes].into(),
        }
    }
}

impl http_body::Body for Chunks {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Bytes>, Infallible>>> {
        std::task::Poll::Ready(
            self.chunks
                .pop_front()
                .map(|c| Ok(http_body::Frame::data(c))),
        )
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.announced.map_or_else(
            http_body::SizeHint::default,
            http_body::SizeHint::with_exact,
        )
    }
}

/// Sends a signed form body in `chunks`, announcing `announced` bytes, through a layer that
/// reads at most `limit`; the status, and the body the service received.
async fn send_in_chunks(chunks: &[&str], announced: Option<u64>, limit: usize) -> (u16, String) {
    let body = chunks.concat();
    let header = authorization(
        "POST",
        "https://photos.example.net/photos",
        "application/x-www-form-urlencoded",
        body.as_bytes(),
    );
    let service = layer().with_body_limit(limit).layer(service_fn(
        |request: http::Request<Chunks>| async move {
            assert!(request.extensions().get::<Verified>().is_some());
            let body = request.into_body().collect().await.unwrap().to_bytes();
            Ok::<_, Infallible>(http::Response::new(Body::from(body)))
        },
    ));
    let request = http::Request::post("/photos")
        .header("authorization", header.as_str())
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Chunks {
            chunks: chunks
                .iter()
                .map(|c| Bytes::copy_from_slice(c.as_bytes()))
                .collect(),
            announced,
        })
        .unwrap();
    let response = service.oneshot(request).await.unwrap();
    let status = response.status().as_u16();
    let received = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(received.to_vec()).unwrap())
}

/// A body is verified and handed on whole however it comes: in one chunk or several, with
/// its length announced, not announced, or announced wrong (the room made for it is only a
/// guess); past the limit it is refused, however it comes.
#[tokio::test]
async fn a_body_in_chunks_is_verified_and_handed_on_whole() {
    let chunks = [
        "file=vac",
        "ation.jpg&si",
        "ze=original&note=%20long%20enough%20to%20grow",
    ];
    let whole = chunks.concat();
    let len = whole.len() as u64;
    for (chunks, announced) in [
        (&chunks[..], Some(len)),
        (&chunks[..], None),
        (&chunks[..], Some(3)),
        (&chunks[..], Some(1 << 40)),
        (&[whole.as_str()][..], Some(len)),
        (&["", whole.as_str(), ""][..], None),
    ] {
        assert_eq!(
            send_in_chunks(chunks, announced, 4096).await,
            (200, whole.clone()),
            "{chunks:?} announced as {announced:?}"
        );
    }
    let (status, said) = send_in_chunks(&chunks, Some(len), whole.len() - 1).await;
    assert_eq!(
        (status, said.contains("longer than")),
        (413, true),
        "{said}"
    );
}
