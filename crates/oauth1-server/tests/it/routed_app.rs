//! The application of the path tests, as axum routes it, and the verifier in front of it:
//! shared by the signing core's tests (`paths.rs`) and the reqwest integration's.

use axum::http::Uri;
use axum::routing::get;
use axum::Router;
use oauth1_server::{MemoryCredentials, MemoryNonceStore, Verifier};

pub const CONSUMER: (&str, &str) = ("ck", "consumer secret");
pub const TOKEN: (&str, &str) = ("tk", "token secret");

/// A verifier holding `CONSUMER` and its `TOKEN`.
pub fn verifier() -> Verifier<MemoryCredentials, MemoryNonceStore> {
    let mut credentials = MemoryCredentials::new();
    credentials.add_consumer(CONSUMER.0, CONSUMER.1);
    credentials.add_token(CONSUMER.0, TOKEN.0, TOKEN.1);
    Verifier::new(credentials, MemoryNonceStore::new())
}

/// An application as axum routes it: `/a`, everything under `/b/`, and a fallback; each
/// handler answers with its route and the path it was given. The layer is put outside the
/// router, so it sees every request first.
pub fn app() -> Router {
    let answer =
        |route: &'static str| move |uri: Uri| async move { format!("{route} {}", uri.path()) };
    Router::new()
        .route("/a", get(answer("a")))
        .route("/b/{*rest}", get(answer("b")))
        .fallback(answer("fallback"))
}
