//! The three-legged flow over HTTP (`reqwest::Provider`) against a loopback provider that
//! verifies each step with the `tower` layer: temporary credentials with the callback, token
//! credentials with the verifier, then a resource request with them; and every way a provider
//! can answer badly, each a clear error and none a hang.
#![cfg(all(feature = "reqwest", feature = "tower"))]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::RawQuery;

use axum::http::StatusCode;
use axum::routing::any;
use axum::{Extension, Router};
use oauth1_signer::flow::{Callback, Confirmation, FlowError};
use oauth1_signer::reqwest::{FetchError, Provider, SignExt};
use oauth1_signer::tower::VerifyLayer;
use oauth1_signer::verify::{MemoryCredentials, MemoryNonceStore, Verified, Verifier};
use oauth1_signer::{Consumer, Signer};

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

fn consumer() -> Signer {
    Signer::new(Consumer::new(CONSUMER.0, CONSUMER.1))
}

fn endpoints(origin: &str, initiate: &str, token: &str) -> Provider {
    Provider::new(
        &format!("{origin}{initiate}"),
        &format!("{origin}/authorize"),
        &format!("{origin}{token}"),
    )
    .unwrap()
}

#[tokio::test]
async fn the_flow_gets_token_credentials_that_sign_for_the_user() {
    let origin = provider().await;
    let provider = endpoints(&origin, "/initiate", "/token");
    let client = reqwest::Client::new();

    let temporary = provider
        .temporary_credentials(&client, &consumer(), "https://client.example/ready")
        .await
        .unwrap();
    assert_eq!(temporary.token().key(), TEMPORARY.0);
    assert_eq!(
        provider.authorization_url(&temporary).as_str(),
        format!("{origin}/authorize?oauth_token={}", TEMPORARY.0)
    );
    let callback = Callback::parse(
        &format!("oauth_token={}&oauth_verifier={VERIFIER}", TEMPORARY.0),
        &temporary,
    )
    .unwrap();
    let credentials = provider
        .token_credentials(&client, &consumer(), &temporary, callback.verifier())
        .await
        .unwrap();
    assert_eq!(credentials.token().key(), TOKEN.0);
    assert_eq!(
        credentials.extra().collect::<Vec<_>>(),
        [("user_id", "6253282")]
    );

    let user = consumer().with_token(credentials.into_token());
    let mut request = client.get(format!("{origin}/resource")).build().unwrap();
    request.sign_oauth1(&user).unwrap();
    let response = client.execute(request).await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.text().await.unwrap(), format!("hello {}", TOKEN.0));

    // A wrong verifier is the provider's problem report.
    let e = provider
        .token_credentials(&client, &consumer(), &temporary, "wrong")
        .await
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "the provider answered 401 with oauth_problem=verifier_invalid"
    );
}

#[tokio::test]
async fn a_signer_with_a_token_asks_for_temporary_credentials_without_it() {
    let origin = provider().await;
    let provider = endpoints(&origin, "/initiate", "/token");
    let signer = consumer().with_token(oauth1_signer::Token::new(TOKEN.0, TOKEN.1));
    let temporary = provider
        .temporary_credentials(&reqwest::Client::new(), &signer, "oob")
        .await
        .unwrap();
    assert_eq!(temporary.token().key(), TEMPORARY.0);
}

#[tokio::test]
async fn an_unconfirmed_callback_fails_by_default_and_passes_when_allowed() {
    let origin = provider().await;
    let client = reqwest::Client::new();
    let provider = endpoints(&origin, "/unconfirmed", "/token");
    let e = provider
        .temporary_credentials(&client, &consumer(), "oob")
        .await
        .unwrap_err();
    assert!(
        matches!(e, FetchError::Answer(FlowError::CallbackNotConfirmed)),
        "{e}"
    );
    let temporary = provider
        .with_confirmation(Confirmation::NotRequired)
        .temporary_credentials(&client, &consumer(), "oob")
        .await
        .unwrap();
    assert_eq!(temporary.token().key(), "a");
}

#[tokio::test]
async fn bad_answers_are_clear_errors() {
    let origin = provider().await;
    let client = reqwest::Client::new();
    let ask = |path: &str| {
        let provider = endpoints(&origin, path, "/token");
        let client = client.clone();
        async move {
            provider
                .temporary_credentials(&client, &consumer(), "oob")
                .await
                .unwrap_err()
        }
    };

    let e = ask("/problem").await;
    assert_eq!(
        e.to_string(),
        "the provider answered 401 with oauth_problem=consumer_key_rejected (Apply for a key)"
    );
    let FetchError::Status {
        status,
        problem,
        advice,
        excerpt,
        ..
    } = e
    else {
        panic!("{e:?}")
    };
    assert_eq!(
        (status, problem.as_deref(), advice.as_deref()),
        (401, Some("consumer_key_rejected"), Some("Apply for a key"))
    );
    assert!(excerpt.starts_with("oauth_problem=consumer_key_rejected"));

    let e = ask("/html").await;
    let FetchError::Status {
        status,
        problem,
        excerpt,
        ..
    } = &e
    else {
        panic!("{e:?}")
    };
    assert_eq!((*status, problem), (500, &None));
    assert_eq!(
        excerpt.chars().count(),
        oauth1_signer::reqwest::EXCERPT_CHARS
    );
    assert!(
        e.to_string()
            .starts_with("the provider answered 500: \"<html><body>Oops. Oops."),
        "{e}"
    );

    let e = ask("/huge").await;
    assert!(matches!(e, FetchError::TooLarge), "{e}");
    assert_eq!(
        e.to_string(),
        "the provider's answer is longer than 65536 bytes: is this the right endpoint?"
    );

    // A request signed with the wrong secret is refused by the provider's verifier.
    let provider = endpoints(&origin, "/initiate", "/token");
    let wrong = Signer::new(Consumer::new(CONSUMER.0, "not the secret"));
    let e = provider
        .temporary_credentials(&client, &wrong, "oob")
        .await
        .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("the provider answered 401 with oauth_problem=signature_invalid"),
        "{e}"
    );

    // A provider that never answers: the client's timeout ends the wait.
    let slow = reqwest::Client::builder()
        .timeout(Duration::from_millis(300))
        .build()
        .unwrap();
    let e = endpoints(&origin, "/slow", "/token")
        .temporary_credentials(&slow, &consumer(), "oob")
        .await
        .unwrap_err();
    assert!(matches!(&e, FetchError::Http(h) if h.is_timeout()), "{e}");
    assert!(e.to_string().starts_with("sending the request: "), "{e}");
}

#[cfg(feature = "blocking")]
#[test]
fn the_blocking_helpers_get_token_credentials() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let origin = runtime.block_on(provider());
    let provider = endpoints(&origin, "/initiate", "/token");
    let client = reqwest::blocking::Client::new();
    let temporary = provider
        .temporary_credentials_blocking(&client, &consumer(), "oob")
        .unwrap();
    let credentials = provider
        .token_credentials_blocking(&client, &consumer(), &temporary, VERIFIER)
        .unwrap();
    assert_eq!(credentials.token().key(), TOKEN.0);
    let e = endpoints(&origin, "/problem", "/token")
        .temporary_credentials_blocking(&client, &consumer(), "oob")
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "the provider answered 401 with oauth_problem=consumer_key_rejected (Apply for a key)"
    );
}

#[tokio::test]
async fn one_client_signs_for_each_user_its_request_names() {
    use oauth1_signer::reqwest::{OAuth1Middleware, SignAs};
    use oauth1_signer::Token;

    let origin = provider().await;
    let client = reqwest_middleware::ClientBuilder::new(reqwest::Client::new())
        .with(OAuth1Middleware::new(consumer()))
        .build();
    let get = |sign_as: Option<SignAs>| {
        let mut request = client.get(format!("{origin}/resource"));
        if let Some(sign_as) = sign_as {
            request = request.with_extension(sign_as);
        }
        async move {
            let response = request.send().await.unwrap();
            (response.status().as_u16(), response.text().await.unwrap())
        }
    };
    for _ in 0..2 {
        let alice = get(Some(SignAs::token(Token::new(TOKEN.0, TOKEN.1)))).await;
        assert_eq!(alice, (200, format!("hello {}", TOKEN.0)));
        let bob = get(Some(SignAs::token(Token::new(TEMPORARY.0, TEMPORARY.1)))).await;
        assert_eq!(bob, (200, format!("hello {}", TEMPORARY.0)));
        assert_eq!(get(None).await, (200, "hello nobody".to_owned()));
    }
    // Another signer altogether, here with the wrong secret: refused.
    let wrong = Signer::new(Consumer::new(CONSUMER.0, "not the secret"));
    let (status, _) = get(Some(SignAs::signer(wrong))).await;
    assert_eq!(status, 401);
    // A token the provider does not hold for this consumer: refused.
    let (status, _) = get(Some(SignAs::token(Token::new("stranger", "s")))).await;
    assert_eq!(status, 401);
}
