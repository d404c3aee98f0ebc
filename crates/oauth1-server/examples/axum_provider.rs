//! An OAuth 1.0a provider on axum: it issues temporary credentials, lets its test user approve
//! them on an authorization page, exchanges them for token credentials, and serves a resource
//! behind the verifier.
//!
//! ```text
//! cargo run --features tower --example axum_provider -- 127.0.0.1:8080
//! ```
//!
//! It prints the URL it listens on. The consumer is `demo-consumer` with the secret below,
//! registered with the callback `https://client.example/callback` (any query) and `oob`; the
//! test user signs in on the authorization page as `test-user` / `test-password`.
//! `scripts/interop` runs Python requests-oauthlib's `OAuth1Session` through the whole flow
//! against it, and the requests it must refuse.
//!
//! - `POST /oauth/request_token`: temporary credentials (§2.1), for a registered callback;
//! - `GET /oauth/authorize?oauth_token=…`: the authorization page; `POST /oauth/authorize`
//!   with `oauth_token`, the page's `csrf` token, `user` and `password` approves and redirects
//!   to the callback, or shows the verifier for `oob` (§2.2);
//! - `POST /oauth/access_token`: token credentials (§2.3);
//! - `GET /photos`: a resource, answering with whose photos they are.
//!
//! The approval is a state change made from the resource owner's browser, so the page guards
//! it as any such form must: against cross-site request forgery, a token of the page's own that
//! the approving POST must carry (another site can make the browser POST, but cannot read the
//! page to learn the token); against clickjacking, `X-Frame-Options: DENY` and
//! `Content-Security-Policy: frame-ancestors 'none'` (with the rest of
//! `AUTHORIZATION_PAGE_HEADERS`), so that no other site can frame the page and trick a click
//! on its button. A real provider signs its users in with a session cookie,
//! which a forged POST would carry: that is what the token defends.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, Method, StatusCode, Uri};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Router};
use oauth1_server::tower::{rejection, VerifyLayer};
use oauth1_server::{
    Callbacks, ConsumerCredential, Issuer, MemoryCredentials, MemoryNonceStore,
    MemoryTemporaryStore, PublicOrigin, Verified, Verifier, VerifyError, WithTemporary,
    AUTHORIZATION_PAGE_HEADERS,
};
use oauth1_signer::{Nonce, Realm, Request, Secret};
use subtle::ConstantTimeEq;
use url::Url;

type Store = WithTemporary<Arc<MemoryCredentials>, Arc<MemoryTemporaryStore>>;

struct Provider {
    issuer: Issuer<Arc<MemoryCredentials>, Arc<MemoryNonceStore>, Arc<MemoryTemporaryStore>>,
    origin: PublicOrigin,
    realm: Realm,
    /// The anti-forgery token of each authorization page shown, by its temporary token.
    forms: Mutex<HashMap<String, Secret>>,
}

/// The most authorization pages waiting for their POST; past it, the oldest are forgotten.
const MAX_FORMS: usize = 10_000;

/// The public URL the client signed: this server's origin and the path as received
/// (`PublicOrigin::url` refuses a path a URL parser would rewrite, such as `/b/../a`, so that
/// the path verified is the path routed).
fn public_url(provider: &Provider, uri: &Uri) -> Result<Url, VerifyError> {
    let target = uri.path_and_query().map_or("/", |p| p.as_str());
    provider.origin.url(target, [])
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
    let url = match public_url(provider, &uri) {
        Ok(url) => url,
        Err(e) => return rejection(&e, &provider.realm),
    };
    let Ok(request) = Request::from_url(method.as_str(), &url) else {
        return bad_request("the request URL cannot be read");
    };
    let text = |name| headers.get(name).and_then(|v| v.to_str().ok());
    let request = request.with_body(text(header::CONTENT_TYPE).unwrap_or(""), &body);
    let authorization = text(header::AUTHORIZATION);
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

/// The authorization page: which consumer asks, and a sign-in form that approves, carrying a
/// fresh anti-forgery token that the POST must send back.
async fn authorize_page(State(provider): State<Arc<Provider>>, uri: Uri) -> Response {
    let token = field(uri.query().unwrap_or("").as_bytes(), "oauth_token").unwrap_or_default();
    let pending = match provider.issuer.pending(&token).await {
        Ok(pending) => pending,
        Err(e) => return bad_request(&e.to_string()),
    };
    let Ok(csrf) = Nonce::generate() else {
        return (StatusCode::INTERNAL_SERVER_ERROR, "no random numbers").into_response();
    };
    {
        let mut forms = provider
            .forms
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if forms.len() >= MAX_FORMS {
            forms.clear();
        }
        forms.insert(token.clone(), Secret::from(csrf.as_str()));
    }
    let page = format!(
        "<form method=post action=/oauth/authorize>\
         <p>{} asks to see your photos.</p>\
         <input type=hidden name=oauth_token value=\"{}\">\
         <input type=hidden name=csrf value=\"{}\">\
         <input name=user> <input name=password type=password>\
         <button>Sign in and approve</button></form>",
        escape(&pending.consumer_key),
        escape(&token),
        csrf.as_str()
    );
    (AUTHORIZATION_PAGE_HEADERS, Html(page)).into_response()
}

/// Whether the POST carries the anti-forgery token of the page shown for `token`.
fn from_the_page(provider: &Provider, token: &str, csrf: &str) -> bool {
    let forms = provider
        .forms
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    forms
        .get(token)
        .is_some_and(|expected| bool::from(expected.expose().ct_eq(csrf.as_bytes())))
}

/// The test user signs in and approves: a redirect to the consumer's callback with the
/// verifier, or the verifier shown for `oob`.
async fn authorize(State(provider): State<Arc<Provider>>, body: Bytes) -> Response {
    let token = field(&body, "oauth_token").unwrap_or_default();
    let csrf = field(&body, "csrf").unwrap_or_default();
    if !from_the_page(&provider, &token, &csrf) {
        return (
            StatusCode::FORBIDDEN,
            "this approval was not sent from the authorization page: open it again",
        )
            .into_response();
    }
    let user = field(&body, "user").unwrap_or_default();
    let password = field(&body, "password").unwrap_or_default();
    if (user.as_str(), password.as_str()) != ("test-user", "test-password") {
        return (StatusCode::FORBIDDEN, "wrong user or password").into_response();
    }
    // One approval per page.
    (provider
        .forms
        .lock()
        .unwrap_or_else(PoisonError::into_inner))
    .remove(&token);
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

    // The consumer's secret and the callbacks it registered: its own URL (any query) and oob.
    let callbacks = Callbacks::default().with_url("https://client.example/callback")?;
    let mut credentials = MemoryCredentials::new();
    credentials.insert_consumer(
        "demo-consumer",
        ConsumerCredential::from_secret("demo consumer secret & ünïcode").with_callbacks(callbacks),
    );
    // Shared by the token endpoints and the resources' verifier: the tokens the issuer saves
    // verify the next resource request, and temporary credentials are refused there.
    let credentials = Arc::new(credentials);
    let temporary = Arc::new(MemoryTemporaryStore::new());
    let nonces = Arc::new(MemoryNonceStore::new());
    let store =
        || -> Store { WithTemporary::new(Arc::clone(&credentials), Arc::clone(&temporary)) };

    let provider = Arc::new(Provider {
        issuer: Issuer::new(Verifier::new(store(), Arc::clone(&nonces))),
        origin: PublicOrigin::Fixed(Url::parse(&origin)?),
        realm: Realm::new(origin.clone())?,
        forms: Mutex::default(),
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
