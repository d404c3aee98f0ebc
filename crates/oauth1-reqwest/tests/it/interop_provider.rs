//! The client's whole job against a provider nobody here wrote: Python oauthlib's
//! `RequestTokenEndpoint`, `AuthorizationEndpoint`, `AccessTokenEndpoint` and
//! `ResourceEndpoint` (`scripts/interop_peers/oauthlib_provider.py`), with a test user who
//! approves at once. The test plays the browser: it opens the authorization URL and follows
//! the provider's answer to the callback.
//!
//! Ignored by a plain `cargo test`; `scripts/interop` starts the provider and runs them with
//! `OAUTH1_INTEROP_PROVIDER` set to its URL.

use oauth1_reqwest::{FetchError, OAuth1Middleware, Provider, SignAs};
use oauth1_signer::flow::{Callback, Confirmation, FlowError, TemporaryCredentials};
use oauth1_signer::{Consumer, Signer, Token};
use serde_json::Value;

const CONSUMER: (&str, &str) = ("provider-consumer-key", "provider consumer secret");
const ALICE: (&str, &str) = ("alice-token-0123456789ab", "alice's token secret");
const BOB: (&str, &str) = ("bob-token-0123456789abcde", "bob's token secret");

fn origin() -> String {
    std::env::var("OAUTH1_INTEROP_PROVIDER")
        .expect("OAUTH1_INTEROP_PROVIDER names the oauthlib provider: run scripts/interop")
}

fn provider(initiate: &str) -> Provider {
    let origin = origin();
    Provider::new(
        &format!("{origin}{initiate}"),
        &format!("{origin}/authorize"),
        &format!("{origin}/access_token"),
    )
    .unwrap()
}

fn consumer() -> Signer {
    Signer::new(Consumer::new(CONSUMER.0, CONSUMER.1))
}

/// Opens the authorization URL as a browser would; the provider's user approves at once.
/// Returns where the provider sends the browser (its `Location`), or the body of an `oob`
/// answer.
async fn approve(provider: &Provider, temporary: &TemporaryCredentials) -> (u16, String) {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let response = client
        .get(provider.authorization_url(temporary))
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let location = response
        .headers()
        .get("location")
        .map(|v| v.to_str().unwrap().to_owned());
    let body = response.text().await.unwrap();
    (status, location.unwrap_or(body))
}

/// A resource request signed for `user`, and the provider's JSON answer.
async fn whoami(user: &Signer) -> Value {
    let client = reqwest_middleware::ClientBuilder::new(reqwest::Client::new())
        .with(OAuth1Middleware::new(user.clone()))
        .build();
    let response = client
        .get(format!("{}/resource?page=1", origin()))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    serde_json::from_str(&response.text().await.unwrap()).unwrap()
}

#[tokio::test]
#[ignore = "needs the oauthlib provider: run scripts/interop"]
async fn the_flow_with_a_callback_gets_credentials_the_provider_accepts() {
    let provider = provider("/request_token");
    let client = reqwest::Client::new();
    let callback_url = "http://127.0.0.1:9/ready?state=xyz";
    let temporary = provider
        .temporary_credentials(&client, &consumer(), callback_url)
        .await
        .unwrap();

    let (status, location) = approve(&provider, &temporary).await;
    assert_eq!(status, 302);
    let (back_to, query) = location.split_once('?').unwrap();
    assert_eq!(back_to, "http://127.0.0.1:9/ready");
    let callback = Callback::parse(query, &temporary).unwrap();

    let credentials = provider
        .token_credentials(&client, &consumer(), &temporary, callback.verifier())
        .await
        .unwrap();
    // oauthlib answers with the user and the realms granted, beside the credentials.
    assert!(credentials.extra().any(|pair| pair == ("user", "alice")));
    let user = consumer().with_token(credentials.into_token());
    let answer = whoami(&user).await;
    assert_eq!(answer["user"], "alice");

    // The temporary credentials are spent: a second exchange is refused.
    let e = provider
        .token_credentials(&client, &consumer(), &temporary, callback.verifier())
        .await
        .unwrap_err();
    assert!(matches!(e, FetchError::Status { status: 401, .. }), "{e}");
}

#[tokio::test]
#[ignore = "needs the oauthlib provider: run scripts/interop"]
async fn the_flow_out_of_band_reads_the_verifier_the_provider_shows() {
    let provider = provider("/request_token");
    let client = reqwest::Client::new();
    let temporary = provider
        .temporary_credentials(&client, &consumer(), "oob")
        .await
        .unwrap();
    let (status, shown) = approve(&provider, &temporary).await;
    assert_eq!(status, 200);
    // What the user would copy: the verifier the provider shows.
    let verifier = Callback::parse(&shown, &temporary).unwrap();
    let credentials = provider
        .token_credentials(&client, &consumer(), &temporary, verifier.verifier())
        .await
        .unwrap();
    let answer = whoami(&consumer().with_token(credentials.into_token())).await;
    assert_eq!(answer["user"], "alice");
}

#[tokio::test]
#[ignore = "needs the oauthlib provider: run scripts/interop"]
async fn an_unconfirmed_callback_fails_by_default_and_passes_when_allowed() {
    let client = reqwest::Client::new();
    let e = provider("/request_token_unconfirmed")
        .temporary_credentials(&client, &consumer(), "oob")
        .await
        .unwrap_err();
    assert!(
        matches!(e, FetchError::Answer(FlowError::CallbackNotConfirmed)),
        "{e}"
    );
    let temporary = provider("/request_token_unconfirmed")
        .with_confirmation(Confirmation::NotRequired)
        .temporary_credentials(&client, &consumer(), "oob")
        .await
        .unwrap();
    assert!(!temporary.token().key().is_empty());
}

#[tokio::test]
#[ignore = "needs the oauthlib provider: run scripts/interop"]
async fn one_client_signs_for_two_users_in_turn() {
    let client = reqwest_middleware::ClientBuilder::new(reqwest::Client::new())
        .with(OAuth1Middleware::new(consumer()))
        .build();
    for _ in 0..2 {
        for (user, token) in [("alice", ALICE), ("bob", BOB)] {
            let response = client
                .get(format!("{}/resource", origin()))
                .with_extension(SignAs::token(Token::new(token.0, token.1)))
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), 200, "{user}");
            let answer: Value = serde_json::from_str(&response.text().await.unwrap()).unwrap();
            assert_eq!(answer["user"], user);
            assert_eq!(answer["token"], token.0);
        }
    }
}

#[tokio::test]
#[ignore = "needs the oauthlib provider: run scripts/interop"]
async fn a_multipart_upload_with_a_file_is_accepted() {
    let client = reqwest_middleware::ClientBuilder::new(reqwest::Client::new())
        .with(OAuth1Middleware::new(
            consumer().with_token(Token::new(ALICE.0, ALICE.1)),
        ))
        .build();
    let form = reqwest::multipart::Form::new()
        .text("title", "a photo & a caption")
        .part(
            "media",
            reqwest::multipart::Part::bytes((0..=255u8).cycle().take(200_000).collect::<Vec<_>>())
                .file_name("photo.jpg")
                .mime_str("image/jpeg")
                .unwrap(),
        );
    let response = client
        .post(format!("{}/upload?album=7", origin()))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let answer: Value = serde_json::from_str(&response.text().await.unwrap()).unwrap();
    assert_eq!(answer["user"], "alice");
    assert_eq!(answer["parts"]["title"], 19);
    assert_eq!(answer["parts"]["media"], 200_000);
}

#[tokio::test]
#[ignore = "needs the oauthlib provider: run scripts/interop"]
async fn the_providers_refusals_are_clear_errors() {
    let client = reqwest::Client::new();
    let wrong = Signer::new(Consumer::new(CONSUMER.0, "not the secret"));
    let e = provider("/request_token")
        .temporary_credentials(&client, &wrong, "oob")
        .await
        .unwrap_err();
    let FetchError::Status { status, .. } = &e else {
        panic!("{e:?}")
    };
    assert_eq!(*status, 401, "{e}");
    assert!(
        e.to_string().starts_with("the provider answered 401"),
        "{e}"
    );

    // A Problem Reporting answer, an HTML error page, and a provider that does not answer in
    // the client's time.
    let e = provider("/problem")
        .temporary_credentials(&client, &consumer(), "oob")
        .await
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "the provider answered 401 with oauth_problem=consumer_key_rejected (Apply for a key)"
    );
    let e = provider("/html")
        .temporary_credentials(&client, &consumer(), "oob")
        .await
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "the provider answered 500: \"<html><body><h1>Internal Server Error</h1></body></html>\""
    );
    let impatient = reqwest::Client::builder()
        .timeout(std::time::Duration::from_millis(500))
        .build()
        .unwrap();
    let e = provider("/slow")
        .temporary_credentials(&impatient, &consumer(), "oob")
        .await
        .unwrap_err();
    assert!(matches!(&e, FetchError::Http(h) if h.is_timeout()), "{e}");

    // A callback naming another temporary token is not this flow's.
    let temporary = provider("/request_token")
        .temporary_credentials(&client, &consumer(), "oob")
        .await
        .unwrap();
    let e = Callback::parse("oauth_token=someone-else&oauth_verifier=v", &temporary).unwrap_err();
    assert_eq!(e, FlowError::TokenMismatch);
}
