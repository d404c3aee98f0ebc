//! An OAuth 1.0a provider on axum: it issues temporary credentials, lets its test user approve
//! them on an authorization page, exchanges them for token credentials, and serves a resource
//! behind the verifier.
//!
//! ```text
//! cargo run --features tower --example axum_provider -- 127.0.0.1:8080
//! ```
//!
//! It prints the URL it listens on. The consumer is `demo-consumer` with the secret below; the
//! test user signs in on the authorization page as `test-user` / `test-password`.
//! `scripts/interop` runs Python requests-oauthlib's `OAuth1Session` through the whole flow
//! against it.
//!
//! - `POST /oauth/request_token`: temporary credentials (§2.1);
//! - `GET /oauth/authorize?oauth_token=…`: the authorization page; `POST /oauth/authorize`
//!   with `oauth_token`, `user` and `password` approves and redirects to the callback, or
//!   shows the verifier for `oob` (§2.2);
//! - `POST /oauth/access_token`: token credentials (§2.3);
//! - `GET /photos`: a resource, answering with whose photos they are.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, Method, StatusCode, Uri};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Router};
use oauth1_signer::tower::{rejection, VerifyLayer};
use oauth1_signer::verify::{
    Issuer, MemoryCredentials, MemoryNonceStore, MemoryTemporaryStore, Verified, Verifier,
    WithTemporary,
};
use oauth1_signer::{Realm, Request};

type Store = WithTemporary<Arc<MemoryCredentials>, Arc<MemoryTemporaryStore>>;

struct Provider {
    issuer: Issuer<Arc<MemoryCredentials>, Arc<MemoryNonceStore>, Arc<MemoryTemporaryStore>>,
    origin: String,
    realm: Realm,
}

/// The request as the client signed it: the public URL (this server's origin and the path),
/// the method, the `Authorization` header and a form body.
fn signed<'a>(
    provider: &Provider,
    method: &'a Method,
    uri: &Uri,
    headers: &'a HeaderMap,
    body: &'a [u8],
) -> Option<(Request<'a>, Option<&'a str>)> {
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let request = Request::new(method.as_str(), &format!("{}{path}", provider.origin))
        .ok()?
        .with_body(content_type, body);
    let authorization = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok());
    Some((request, authorization))
}

fn bad_request(text: &str) -> Response {
    (StatusCode::BAD_REQUEST, text.to_owned()).into_response()
}

/// The two token endpoints.
#[derive(Clone, Copy)]
enum Endpoint {
    /// `POST /oauth/request_token`.
    Temporary,
    /// `POST /oauth/access_token`.
    Token,
}

async fn issue(
    endpoint: Endpoint,
    provider: &Provider,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let Some((request, authorization)) = signed(provider, &method, &uri, &headers, &body) else {
        return bad_request("the request URL cannot be read");
    };
    let answer = match endpoint {
        Endpoint::Temporary => {
            provider
                .issuer
                .temporary_credentials(&request, authorization)
                .await
        }
        Endpoint::Token => {
            provider
                .issuer
                .token_credentials(&request, authorization)
                .await
        }
    };
    match answer {
        Ok(credentials) => (
            [(header::CONTENT_TYPE, "application/x-www-form-urlencoded")],
            credentials.body().to_string(),
        )
            .into_response(),
        Err(e) => rejection(&e, &provider.realm),
    }
}

/// The value of `name` in a query or form.
fn field(pairs: &[u8], name: &str) -> Option<String> {
    url::form_urlencoded::parse(pairs)
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.into_owned())
}

/// Text for an HTML page.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The authorization page: which consumer asks, and a sign-in form that approves.
async fn authorize_page(State(provider): State<Arc<Provider>>, uri: Uri) -> Response {
    let token = field(uri.query().unwrap_or("").as_bytes(), "oauth_token").unwrap_or_default();
    match provider.issuer.pending(&token).await {
        Ok(pending) => Html(format!(
            "<form method=post action=/oauth/authorize>\
             <p>{} asks to see your photos.</p>\
             <input type=hidden name=oauth_token value=\"{}\">\
             <input name=user> <input name=password type=password>\
             <button>Sign in and approve</button></form>",
            escape(&pending.consumer_key),
            escape(&token)
        ))
        .into_response(),
        Err(e) => bad_request(&e.to_string()),
    }
}

/// The test user signs in and approves: a redirect to the consumer's callback with the
/// verifier, or the verifier shown for `oob`.
async fn authorize(State(provider): State<Arc<Provider>>, body: Bytes) -> Response {
    let user = field(&body, "user").unwrap_or_default();
    let password = field(&body, "password").unwrap_or_default();
    if (user.as_str(), password.as_str()) != ("test-user", "test-password") {
        return (StatusCode::FORBIDDEN, "wrong user or password").into_response();
    }
    let token = field(&body, "oauth_token").unwrap_or_default();
    match provider.issuer.approve(&token, &user).await {
        Ok(approved) => match approved.redirect() {
            Some(url) => (StatusCode::FOUND, [(header::LOCATION, url.to_owned())]).into_response(),
            None => Html(format!(
                "<p>Type this code into the application: {}</p>",
                approved.verifier()
            ))
            .into_response(),
        },
        Err(e) => bad_request(&e.to_string()),
    }
}

/// A resource: whose photos the token grants.
async fn photos(Extension(verified): Extension<Verified>) -> String {
    format!(
        "owner={}\nconsumer_key={}\n",
        verified.resource_owner().unwrap_or(""),
        verified.consumer_key()
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

    let mut credentials = MemoryCredentials::new();
    credentials.add_consumer("demo-consumer", "demo consumer secret & ünïcode");
    // Shared by the token endpoints and the resources' verifier: the tokens the issuer saves
    // verify the next resource request, and temporary credentials are refused there.
    let credentials = Arc::new(credentials);
    let temporary = Arc::new(MemoryTemporaryStore::new());
    let nonces = Arc::new(MemoryNonceStore::new());
    let store =
        || -> Store { WithTemporary::new(Arc::clone(&credentials), Arc::clone(&temporary)) };

    let provider = Arc::new(Provider {
        issuer: Issuer::new(Verifier::new(store(), Arc::clone(&nonces))),
        origin: origin.clone(),
        realm: Realm::new(origin.clone())?,
    });
    let resources = Router::new()
        .route("/photos", get(photos))
        .layer(VerifyLayer::new(Verifier::new(store(), nonces), &origin)?);
    let app = Router::new()
        .route(
            "/oauth/request_token",
            post(|State(p): State<Arc<Provider>>, m, u, h, b| async move {
                issue(Endpoint::Temporary, &p, m, u, h, b).await
            }),
        )
        .route("/oauth/authorize", get(authorize_page).post(authorize))
        .route(
            "/oauth/access_token",
            post(|State(p): State<Arc<Provider>>, m, u, h, b| async move {
                issue(Endpoint::Token, &p, m, u, h, b).await
            }),
        )
        .with_state(provider)
        .merge(resources);

    println!("{origin}");
    axum::serve(listener, app).await?;
    Ok(())
}
