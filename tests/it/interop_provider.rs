//! The client's whole job against a provider nobody here wrote: Python oauthlib's
//! `RequestTokenEndpoint`, `AuthorizationEndpoint`, `AccessTokenEndpoint` and
//! `ResourceEndpoint` (`scripts/interop_peers/oauthlib_provider.py`), with a test user who
//! approves at once. The test plays the browser: it opens the authorization URL and follows
//! the provider's answer to the callback.
//!
//! Ignored by a plain `cargo test`; `scripts/interop` starts the provider and runs them with
//! `OAUTH1_INTEROP_PROVIDER` set to its URL.
#![cfg(feature = "reqwest")]

use oauth1_signer::flow::{Callback, Confirmation, FlowError, TemporaryCredentials};
use oauth1_signer::reqwest::{FetchError, OAuth1Middleware, Provider, SignAs};
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

/// `oauth1 authorize` against the oauthlib provider, in both callback modes; the test plays
/// the browser with the URL the command prints.
#[cfg(all(feature = "cli", feature = "tower"))]
mod command_line {
    use std::io::Write;
    use std::process::{Child, Command, Stdio};

    use super::{origin, CONSUMER};
    use crate::cli_authorize::printed_url;

    fn authorize(extra: &[&str]) -> Child {
        let origin = origin();
        Command::new(env!("CARGO_BIN_EXE_oauth1"))
            .args([
                "authorize",
                "--request-token-url",
                &format!("{origin}/request_token"),
                "--authorize-url",
                &format!("{origin}/authorize"),
                "--access-token-url",
                &format!("{origin}/access_token"),
                "--consumer-key",
                CONSUMER.0,
                "--timeout",
                "30",
                "--json",
            ])
            .args(extra)
            .env("OAUTH1_CONSUMER_SECRET", CONSUMER.1)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    }

    /// The credentials the command printed, checked by a resource request signed with them.
    fn printed_credentials_work(child: Child) {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success());
        let printed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(printed["user"], "alice");
        let user = oauth1_signer::Signer::new(oauth1_signer::Consumer::new(CONSUMER.0, CONSUMER.1))
            .with_token(oauth1_signer::Token::new(
                printed["oauth_token"].as_str().unwrap(),
                printed["oauth_token_secret"].as_str().unwrap(),
            ));
        let mut request = reqwest::blocking::Client::new()
            .get(format!("{}/resource", origin()))
            .build()
            .unwrap();
        oauth1_signer::reqwest::SignExt::sign_oauth1(&mut request, &user).unwrap();
        let response = reqwest::blocking::Client::new().execute(request).unwrap();
        assert_eq!(response.status(), 200);
    }

    #[test]
    #[ignore = "needs the oauthlib provider: run scripts/interop"]
    fn authorize_with_the_loopback_callback() {
        let mut child = authorize(&[]);
        let (url, _, _) = printed_url(&mut child);
        // The browser follows the provider's redirect to the command's listener.
        let page = reqwest::blocking::get(&url).unwrap();
        assert_eq!(page.status(), 200);
        assert!(page.text().unwrap().contains("You can close this window."));
        printed_credentials_work(child);
    }

    #[test]
    #[ignore = "needs the oauthlib provider: run scripts/interop"]
    fn send_uploads_a_file_as_multipart() {
        let file = std::env::temp_dir().join(format!("oauth1-interop-{}.jpg", std::process::id()));
        std::fs::write(&file, (0..=255u8).cycle().take(100_000).collect::<Vec<_>>()).unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_oauth1"))
            .args([
                "send",
                &format!("{}/upload?album=7", origin()),
                "-F",
                "title=a photo & a caption",
                "-F",
                &format!("media=@{}", file.display()),
                "--consumer-key",
                CONSUMER.0,
                "--token",
                super::ALICE.0,
            ])
            .env("OAUTH1_CONSUMER_SECRET", CONSUMER.1)
            .env("OAUTH1_TOKEN_SECRET", super::ALICE.1)
            .output()
            .unwrap();
        std::fs::remove_file(&file).unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(answer["user"], "alice");
        assert_eq!(answer["parts"]["title"], 19);
        assert_eq!(answer["parts"]["media"], 100_000);
    }

    #[test]
    #[ignore = "needs the oauthlib provider: run scripts/interop"]
    fn authorize_out_of_band() {
        let mut child = authorize(&["--callback", "oob"]);
        let (url, _, _) = printed_url(&mut child);
        let shown = reqwest::blocking::get(&url).unwrap().text().unwrap();
        let verifier = shown
            .split('&')
            .find_map(|pair| pair.strip_prefix("oauth_verifier="))
            .unwrap()
            .to_owned();
        writeln!(child.stdin.take().unwrap(), "{verifier}").unwrap();
        printed_credentials_work(child);
    }
}
