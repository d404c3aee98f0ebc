//! The `reqwest` integration against loopback servers that verify with the `tower` layer:
//! every request, retry and redirect hop is signed anew and verifies; a redirect to another
//! origin arrives without credentials; the plain extension signs async and blocking requests.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect};
use axum::routing::any;
use axum::{Extension, Router};
use oauth1_reqwest::{OAuth1Middleware, SignExt};
use oauth1_server::tower::VerifyLayer;
use oauth1_server::{MemoryCredentials, MemoryNonceStore, Verified, Verifier};
use oauth1_signer::http::Transport;
use oauth1_signer::{Consumer, Signer, Token};
use reqwest_middleware::{ClientBuilder, ClientWithMiddleware, Middleware, Next};

const CONSUMER: (&str, &str) = ("dpf43f3p2l4k3l03", "kd94hf93k423kf44");
const TOKEN: (&str, &str) = ("nnch734d00sl2jdk", "pfkkdhi9sl3r4s00");

fn signer() -> Signer {
    Signer::new(Consumer::new(CONSUMER.0, CONSUMER.1)).with_token(Token::new(TOKEN.0, TOKEN.1))
}

/// What the servers saw.
#[derive(Default)]
struct Seen {
    /// The nonces of the verified requests, in order.
    nonces: Mutex<Vec<String>>,
    /// The calls of `/flaky`.
    flaky_calls: AtomicUsize,
    /// The Authorization and Cookie headers that reached the other origin.
    elsewhere: Mutex<Vec<(Option<String>, Option<String>)>>,
}

async fn verified(
    State(seen): State<Arc<Seen>>,
    Extension(verified): Extension<Verified>,
    body: String,
) -> String {
    let nonce =
        String::from_utf8(verified.protocol_parameter("oauth_nonce").unwrap().to_vec()).unwrap();
    seen.nonces.lock().unwrap().push(nonce);
    format!("{} {body}", verified.consumer_key())
}

async fn flaky(
    State(seen): State<Arc<Seen>>,
    Extension(verified): Extension<Verified>,
) -> impl IntoResponse {
    let nonce =
        String::from_utf8(verified.protocol_parameter("oauth_nonce").unwrap().to_vec()).unwrap();
    seen.nonces.lock().unwrap().push(nonce);
    if seen.flaky_calls.fetch_add(1, Ordering::SeqCst) == 0 {
        StatusCode::SERVICE_UNAVAILABLE
    } else {
        StatusCode::OK
    }
}

async fn elsewhere(State(seen): State<Arc<Seen>>, headers: HeaderMap) -> &'static str {
    let text = |name: &str| headers.get(name).map(|v| v.to_str().unwrap().to_owned());
    seen.elsewhere
        .lock()
        .unwrap()
        .push((text("authorization"), text("cookie")));
    "elsewhere"
}

/// Two loopback servers: the API (verifying, with redirects) and another origin.
async fn servers() -> (String, Arc<Seen>) {
    let seen = Arc::new(Seen::default());
    let other = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let other_origin = format!("http://{}", other.local_addr().unwrap());
    let api = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", api.local_addr().unwrap());

    let mut credentials = MemoryCredentials::new();
    credentials.add_consumer(CONSUMER.0, CONSUMER.1);
    credentials.add_token(CONSUMER.0, TOKEN.0, TOKEN.1);
    let layer =
        VerifyLayer::new(Verifier::new(credentials, MemoryNonceStore::new()), &origin).unwrap();
    let away = format!("{other_origin}/elsewhere");
    let app = Router::new()
        .route("/photos", any(verified))
        .route("/flaky", any(flaky))
        .layer(layer)
        .route(
            "/moved",
            any(|| async { Redirect::temporary("/photos?size=large") }),
        )
        .route("/see-other", any(|| async { Redirect::to("/photos") }))
        .route(
            "/away",
            any(move || async move { Redirect::temporary(&away) }),
        )
        .route("/loop", any(|| async { Redirect::temporary("/loop") }))
        .with_state(Arc::clone(&seen));
    let other_app = Router::new()
        .route("/elsewhere", any(elsewhere))
        .with_state(Arc::clone(&seen));
    tokio::spawn(async move { axum::serve(api, app).await.unwrap() });
    tokio::spawn(async move { axum::serve(other, other_app).await.unwrap() });
    (origin, seen)
}

fn client(middleware: OAuth1Middleware) -> ClientWithMiddleware {
    ClientBuilder::new(
        reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap(),
    )
    .with(middleware)
    .build()
}

#[tokio::test]
async fn every_request_is_signed_with_a_fresh_nonce_in_every_transport() {
    let (origin, seen) = servers().await;
    for transport in [Transport::Header, Transport::Query, Transport::FormBody] {
        let client = client(OAuth1Middleware::new(signer()).with_transport(transport));
        for _ in 0..2 {
            let response = client
                .post(format!("{origin}/photos?size=original"))
                .header("content-type", "application/x-www-form-urlencoded")
                .body("title=Caf%C3%A9+au+lait&tags=a&tags=b")
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), 200, "{transport:?}");
            let text = response.text().await.unwrap();
            assert!(
                text.starts_with("dpf43f3p2l4k3l03 title=Caf%C3%A9+au+lait&tags=a&tags=b"),
                "{transport:?}: {text}"
            );
        }
    }
    let nonces = seen.nonces.lock().unwrap().clone();
    assert_eq!(nonces.len(), 6);
    let mut unique = nonces.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 6, "{nonces:?}");
}

/// A retry middleware added before the signer: each attempt passes through the signer again.
struct RetryOnce;

#[async_trait::async_trait]
impl Middleware for RetryOnce {
    async fn handle(
        &self,
        request: reqwest::Request,
        extensions: &mut axum::http::Extensions,
        next: Next<'_>,
    ) -> reqwest_middleware::Result<reqwest::Response> {
        let again = request.try_clone().unwrap();
        let response = next.clone().run(request, extensions).await?;
        if response.status() == StatusCode::SERVICE_UNAVAILABLE {
            return next.run(again, extensions).await;
        }
        Ok(response)
    }
}

#[tokio::test]
async fn a_retry_is_signed_again() {
    let (origin, seen) = servers().await;
    let client = ClientBuilder::new(
        reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap(),
    )
    .with(RetryOnce)
    .with(OAuth1Middleware::new(signer()))
    .build();
    let response = client.get(format!("{origin}/flaky")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(seen.flaky_calls.load(Ordering::SeqCst), 2);
    let nonces = seen.nonces.lock().unwrap().clone();
    assert_eq!(nonces.len(), 2);
    assert_ne!(nonces[0], nonces[1]);
}

#[tokio::test]
async fn redirects_on_the_origin_are_signed_again() {
    let (origin, seen) = servers().await;
    let client = client(OAuth1Middleware::new(signer()));

    // 307 keeps the method and body, and the new URL (with its query) is the one signed.
    let response = client
        .post(format!("{origin}/moved"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("a=1")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.text().await.unwrap(), "dpf43f3p2l4k3l03 a=1");

    // 303 turns a POST into a GET without a body.
    let response = client
        .post(format!("{origin}/see-other"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("a=1")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.text().await.unwrap(), "dpf43f3p2l4k3l03 ");
    assert_eq!(seen.nonces.lock().unwrap().len(), 2);
}

#[tokio::test]
async fn a_redirect_to_another_origin_carries_no_credentials() {
    let (origin, seen) = servers().await;
    let client = client(OAuth1Middleware::new(signer()));
    let response = client
        .get(format!("{origin}/away"))
        .header("cookie", "session=1")
        .send()
        .await
        .unwrap();
    assert_eq!(response.text().await.unwrap(), "elsewhere");
    assert_eq!(*seen.elsewhere.lock().unwrap(), vec![(None, None)]);

    // The form transport too: the parameters are never written into the request that leaves.
    let client = self::client(OAuth1Middleware::new(signer()).with_transport(Transport::Query));
    let response = client.get(format!("{origin}/away")).send().await.unwrap();
    assert_eq!(response.url().query(), None);
}

#[tokio::test]
async fn redirects_stop_at_the_limit() {
    let (origin, _) = servers().await;
    let client = client(OAuth1Middleware::new(signer()).with_max_redirects(3));
    let response = client.get(format!("{origin}/loop")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::TEMPORARY_REDIRECT);
    let client = self::client(OAuth1Middleware::new(signer()).with_max_redirects(0));
    let response = client.get(format!("{origin}/moved")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::TEMPORARY_REDIRECT);
}

#[tokio::test]
async fn the_extension_signs_a_plain_async_request() {
    let (origin, _) = servers().await;
    let client = reqwest::Client::new();
    let mut request = client
        .put(format!("{origin}/photos"))
        .body("{\"json\": true}")
        .header("content-type", "application/json")
        .build()
        .unwrap();
    request.sign_oauth1(&signer()).unwrap();
    let response = client.execute(request).await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.text().await.unwrap(),
        "dpf43f3p2l4k3l03 {\"json\": true}"
    );
}

#[cfg(feature = "blocking")]
#[test]
fn the_extension_signs_a_blocking_request() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (origin, _) = runtime.block_on(servers());
    let client = reqwest::blocking::Client::new();
    let mut request = client
        .post(format!("{origin}/photos?size=original"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("a=%20b")
        .build()
        .unwrap();
    request.sign_oauth1(&signer()).unwrap();
    let response = client.execute(request).unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.text().unwrap(), "dpf43f3p2l4k3l03 a=%20b");
}

#[cfg(feature = "blocking")]
#[test]
fn a_streamed_body_is_signed_unread_unless_the_signature_needs_it() {
    let streamed = |content_type: Option<&str>| {
        let mut request = reqwest::blocking::Client::new()
            .post("https://example.com/upload")
            .body(reqwest::blocking::Body::new(std::io::Cursor::new(
                b"a=1".to_vec(),
            )));
        if let Some(content_type) = content_type {
            request = request.header("content-type", content_type);
        }
        request.build().unwrap()
    };
    let signed = streamed(Some("application/octet-stream"))
        .sign_oauth1(&signer())
        .unwrap();
    assert!(signed
        .parameters()
        .iter()
        .all(|p| p.name.starts_with(b"oauth_")));

    let err = streamed(Some("application/x-www-form-urlencoded"))
        .sign_oauth1(&signer())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the request body is a stream, which cannot be read before it is sent, but its Content-Type is application/x-www-form-urlencoded, whose parameters are signed: give the body as bytes"
    );
    let hashing = signer().with_body_hash(oauth1_signer::BodyHash::Send);
    let err = streamed(None).sign_oauth1(&hashing).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the request body is a stream, which cannot be read before it is sent, but oauth_body_hash is a digest of it (or sign without the body hash): give the body as bytes"
    );
    let err = streamed(None)
        .sign_oauth1_with(
            &signer(),
            Transport::FormBody,
            &oauth1_signer::Nonce::new("n").unwrap(),
            oauth1_signer::Timestamp::new(1),
        )
        .unwrap_err();
    assert!(err
        .to_string()
        .contains("the form body transport adds the parameters to it"));
}

#[tokio::test]
async fn a_multipart_upload_is_signed_and_verifies() {
    let (origin, seen) = servers().await;
    let client = client(OAuth1Middleware::new(signer()));
    let form = reqwest::multipart::Form::new()
        .text("title", "a photo")
        .part(
            "file",
            reqwest::multipart::Part::bytes(vec![b'x'; 100_000]).file_name("photo.jpg"),
        );
    let response = client
        .post(format!("{origin}/photos"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let text = response.text().await.unwrap();
    assert!(text.starts_with("dpf43f3p2l4k3l03 --"), "{}", &text[..80]);
    assert!(text.contains("filename=\"photo.jpg\""));
    assert_eq!(seen.nonces.lock().unwrap().len(), 1);
}
