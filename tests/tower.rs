//! The `tower` layer: signed requests reach the service with their identity and body; every
//! other request is answered by the layer with the status, `WWW-Authenticate` and Problem
//! Reporting body of RFC 5849 §3.2, and the service never sees it.
#![cfg(feature = "tower")]

use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use oauth1_signer::tower::VerifyLayer;
use oauth1_signer::verify::{MemoryCredentials, MemoryNonceStore, Verified, Verifier};
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

#[tokio::test]
async fn malformed_requests_are_answered_400_without_www_authenticate() {
    let layer = layer();
    let calls = Arc::new(AtomicUsize::new(0));
    let header = authorization("GET", "https://photos.example.net/photos", "", b"");

    let unsigned = http::Request::get("/photos").body(Body::default()).unwrap();
    let answer = send(&layer, unsigned, &calls).await;
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
        "invalid URL: relative URL without a base"
    );
}
