//! An axum server whose routes are behind the OAuth 1.0a verifier.
//!
//! ```text
//! cargo run --features tower --example axum_server -- 127.0.0.1:8080
//! ```
//!
//! It prints the URL it listens on, then answers every path: 200 with the verified consumer
//! key, token and signature method for a request signed with the demo credentials below,
//! 400/401 with an OAuth Problem Reporting body otherwise. `scripts/interop` signs requests
//! for it with Python's requests-oauthlib.

use std::net::SocketAddr;

use axum::routing::any;
use axum::{Extension, Router};
use oauth1_server::tower::VerifyLayer;
use oauth1_server::{MemoryCredentials, MemoryNonceStore, Verified, Verifier};

/// The answer to a verified request.
async fn whoami(Extension(verified): Extension<Verified>, body: String) -> String {
    format!(
        "consumer_key={}\ntoken={}\nsignature_method={}\nbody={body}\n",
        verified.consumer_key(),
        verified.token().unwrap_or(""),
        verified.signature_method(),
    )
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let address: SocketAddr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:8080".to_owned())
        .parse()?;
    let listener = tokio::net::TcpListener::bind(address).await?;
    let origin = format!("http://{}", listener.local_addr()?);

    // The application's secrets; a real server reads them from its database.
    let mut credentials = MemoryCredentials::new();
    credentials.add_consumer("demo-consumer", "demo consumer secret & ünïcode");
    credentials.add_token("demo-consumer", "demo-token", "demo token secret / +%");
    let verifier = Verifier::new(credentials, MemoryNonceStore::new());

    // The public URL clients sign is this server's own origin; behind a proxy, give the
    // public one (or `VerifyLayer::with_public_url` for the proxy's forwarded headers).
    let layer = VerifyLayer::new(verifier, &origin)?;
    let app = Router::new().fallback(any(whoami)).layer(layer);

    println!("{origin}");
    axum::serve(listener, app).await?;
    Ok(())
}
