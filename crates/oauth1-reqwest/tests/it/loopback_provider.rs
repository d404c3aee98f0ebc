//! A loopback provider for the three-legged flow over HTTP: temporary credentials with the
//! callback, an authorization step that approves at once, token credentials with the
//! verifier, a resource, and endpoints that answer badly. Each step is verified with the
//! `tower` layer. Used by the `oauth1_reqwest::Provider` tests and by the command line's
//! `oauth1 authorize` tests.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::RawQuery;
use axum::http::StatusCode;
use axum::routing::any;
use axum::{Extension, Router};
use oauth1_server::tower::VerifyLayer;
use oauth1_server::{MemoryCredentials, MemoryNonceStore, Verified, Verifier};

pub(crate) const CONSUMER: (&str, &str) = ("dpf43f3p2l4k3l03", "kd94hf93k423kf44");
pub(crate) const TEMPORARY: (&str, &str) = ("hh5s93j4hdidpola", "hdhd0244k9j7ao03");
pub(crate) const VERIFIER: &str = "hfdp7dh39dks9884";
pub(crate) const TOKEN: (&str, &str) = ("nnch734d00sl2jdk", "pfkkdhi9sl3r4s00");

fn parameter(verified: &Verified, name: &str) -> Option<String> {
    (verified.protocol_parameter(name)).map(|v| String::from_utf8(v.to_vec()).unwrap())
}

/// The callback the last temporary-credentials request named.
type Callbacks = Arc<Mutex<Option<String>>>;

/// §2.1: a request without a token, with a callback.
async fn initiate(
    Extension(verified): Extension<Verified>,
    Extension(callbacks): Extension<Callbacks>,
) -> (StatusCode, String) {
    let Some(callback) = parameter(&verified, "oauth_callback") else {
        return (
            StatusCode::BAD_REQUEST,
            "oauth_problem=parameter_absent".into(),
        );
    };
    if verified.token().is_some() {
        return (
            StatusCode::BAD_REQUEST,
            "oauth_problem=token_rejected".into(),
        );
    }
    *callbacks.lock().unwrap() = Some(callback);
    let (token, secret) = TEMPORARY;
    (
        StatusCode::OK,
        format!("oauth_token={token}&oauth_token_secret={secret}&oauth_callback_confirmed=true"),
    )
}

/// §2.3: the temporary token and the verifier.
async fn token(Extension(verified): Extension<Verified>) -> (StatusCode, String) {
    if verified.token() != Some(TEMPORARY.0)
        || parameter(&verified, "oauth_verifier").as_deref() != Some(VERIFIER)
    {
        return (
            StatusCode::UNAUTHORIZED,
            "oauth_problem=verifier_invalid".into(),
        );
    }
    let (token, secret) = TOKEN;
    (
        StatusCode::OK,
        format!("oauth_token={token}&oauth_token_secret={secret}&user_id=6253282"),
    )
}

/// §2.2: the resource owner approves at once; the browser goes back to the callback, or is
/// shown the verifier for `oob`.
async fn authorize(
    Extension(callbacks): Extension<Callbacks>,
    RawQuery(query): RawQuery,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let token = TEMPORARY.0;
    if query.as_deref() != Some(&format!("oauth_token={token}")) {
        return (StatusCode::BAD_REQUEST, "unknown temporary token").into_response();
    }
    let answer = format!("oauth_token={token}&oauth_verifier={VERIFIER}");
    match callbacks.lock().unwrap().clone() {
        Some(callback) if callback != "oob" => {
            axum::response::Redirect::to(&format!("{callback}?{answer}")).into_response()
        }
        _ => answer.into_response(),
    }
}

async fn resource(Extension(verified): Extension<Verified>) -> String {
    format!("hello {}", verified.token().unwrap_or("nobody"))
}

/// The provider on a loopback port, and its origin.
pub(crate) async fn provider() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let mut credentials = MemoryCredentials::new();
    credentials.add_consumer(CONSUMER.0, CONSUMER.1);
    credentials.add_token(CONSUMER.0, TEMPORARY.0, TEMPORARY.1);
    credentials.add_token(CONSUMER.0, TOKEN.0, TOKEN.1);
    let layer =
        VerifyLayer::new(Verifier::new(credentials, MemoryNonceStore::new()), &origin).unwrap();
    let app = Router::new()
        .route("/initiate", any(initiate))
        .route("/token", any(token))
        .route("/resource", any(resource))
        .layer(layer)
        .route(
            "/unconfirmed",
            any(|| async { "oauth_token=a&oauth_token_secret=b" }),
        )
        .route(
            "/problem",
            any(|| async {
                (
                    StatusCode::UNAUTHORIZED,
                    "oauth_problem=consumer_key_rejected&oauth_problem_advice=Apply%20for%20a%20key",
                )
            }),
        )
        .route(
            "/html",
            any(|| async {
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("<html><body>{}</body></html>", "Oops. ".repeat(200)),
                )
            }),
        )
        .route("/huge", any(|| async { "a".repeat(100_000) }))
        // A redirect to the temporary-credentials endpoint on the same host: a client that
        // followed it would send its signed header on to another URL.
        .route(
            "/moved",
            any(|| async {
                axum::response::Redirect::temporary("/initiate")
            }),
        )
        .route("/authorize", any(authorize))
        .route(
            "/slow",
            any(|| async {
                tokio::time::sleep(Duration::from_secs(30)).await;
                "late"
            }),
        );
    let app = app.layer(Extension(Callbacks::default()));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    origin
}
