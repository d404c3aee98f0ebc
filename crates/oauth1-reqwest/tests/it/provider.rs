//! The three-legged flow over HTTP (`oauth1_reqwest::Provider`) against a loopback provider that
//! verifies each step with the `tower` layer: temporary credentials with the callback, token
//! credentials with the verifier, then a resource request with them; and every way a provider
//! can answer badly, each a clear error and none a hang.

use std::time::Duration;

use oauth1_reqwest::{FetchError, Provider, Session, SignExt};
use oauth1_signer::flow::{Callback, Confirmation, FlowError};
use oauth1_signer::{Consumer, Signer};

use crate::loopback_provider::{provider, CONSUMER, TEMPORARY, TOKEN, VERIFIER};

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
    assert_eq!(excerpt.chars().count(), oauth1_reqwest::EXCERPT_CHARS);
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
    use oauth1_reqwest::{OAuth1Middleware, SignAs};
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

/// The whole flow through a `Session`, as a newcomer writes it: the authorization URL, the
/// callback URL whole (as the browser arrives with it), then requests signed as the user.
#[tokio::test]
async fn a_session_carries_the_flow_and_then_signs_as_the_user() {
    let origin = provider().await;
    let mut session = Session::new(endpoints(&origin, "/initiate", "/token"), consumer());
    let url = session
        .authorization_url("https://client.example/ready")
        .await
        .unwrap();
    assert_eq!(
        url.as_str(),
        format!("{origin}/authorize?oauth_token={}", TEMPORARY.0)
    );
    // The browser: the provider approves and redirects to the callback.
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let answer = browser.get(url).send().await.unwrap();
    let redirected = answer.headers()["location"].to_str().unwrap().to_owned();
    assert!(redirected.starts_with("https://client.example/ready?oauth_token="));

    // The callback arrives at another instance: the flow resumes from the kept credentials.
    let temporary = session.temporary().unwrap().clone();
    let mut session =
        Session::new(endpoints(&origin, "/initiate", "/token"), consumer()).resume(temporary);
    let credentials = session.authorize(&redirected).await.unwrap();
    assert_eq!(credentials.token().key(), TOKEN.0);
    assert!(session.temporary().is_none());
    let response = session
        .client()
        .unwrap()
        .get(format!("{origin}/resource"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.text().await.unwrap(), format!("hello {}", TOKEN.0));

    // Another flow's callback is refused before anything is sent.
    let mut other = Session::new(endpoints(&origin, "/initiate", "/token"), consumer());
    other.authorization_url("oob").await.unwrap();
    let e = other
        .authorize("https://client.example/ready?oauth_token=someone-else&oauth_verifier=v")
        .await
        .unwrap_err();
    assert!(
        matches!(e, FetchError::Answer(FlowError::TokenMismatch)),
        "{e}"
    );
}
