//! Interop with PHP's pecl OAuth 2.0.7 `OAuthProvider`
//! (`scripts/interop_peers/foreign/oauth_provider.php`): requests signed by this crate through
//! `reqwest` (a query with `+`, `%20`, `~`, `*`, raw and encoded UTF-8, an empty value; a form
//! body; HMAC-SHA1 and HMAC-SHA256, in each transport) are accepted, each nonce once.
//!
//! The provider needs PHP, so these tests are ignored by a plain `cargo test`;
//! `scripts/interop` starts it and runs them with `OAUTH1_INTEROP_PHP` set to its URL.

use oauth1_reqwest::OAuth1Middleware;
use oauth1_signer::http::Transport;
use oauth1_signer::{Consumer, Nonce, SignatureMethod, Signer, Timestamp, Token};
use serde_json::Value;

/// Secrets with nothing to percent-encode: `OAuthProvider` keys its HMAC with the secrets as
/// they are (see `secrets_that_need_encoding_are_refused`).
const CONSUMER: (&str, &str) = ("plain-consumer", "plain-secret");
const TOKEN: (&str, &str) = ("plain-token", "plain-token-secret");

fn server() -> String {
    std::env::var("OAUTH1_INTEROP_PHP")
        .expect("OAUTH1_INTEROP_PHP names the PHP OAuthProvider: run scripts/interop")
}

fn client(
    consumer: (&str, &str),
    token: (&str, &str),
    method: SignatureMethod,
    transport: Transport,
) -> reqwest_middleware::ClientWithMiddleware {
    let signer = Signer::new(Consumer::new(consumer.0, consumer.1))
        .with_method(method)
        .with_token(Token::new(token.0, token.1));
    reqwest_middleware::ClientBuilder::new(
        reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap(),
    )
    .with(OAuth1Middleware::new(signer).with_transport(transport))
    .build()
}

/// (method, path and query as sent, form body or none).
const SHAPES: &[(&str, &str, Option<&str>)] = &[
    ("GET", "/r?q=a+b&s=two%20words&t=~&u=*&e=", None),
    ("GET", "/r?raw=é✓&enc=%C3%A9%E2%9C%93", None),
    ("GET", "/r?x=%7E%2A%21&y=(1)", None),
    (
        "POST",
        "/r?q=1",
        Some("status=Hello%20Ladies%20%2B%20Gentlemen&t=%E2%9C%93&e="),
    ),
    ("POST", "/r/things/1", Some("a=1&b=x+y")),
];

async fn send(
    client: &reqwest_middleware::ClientWithMiddleware,
    method: &str,
    path: &str,
    form: Option<&str>,
) -> (u16, Value) {
    let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let mut request = reqwest::Client::new().request(method, format!("{}{path}", server()));
    if let Some(form) = form {
        request = request
            .header("content-type", "application/x-www-form-urlencoded")
            .body(form.to_owned());
    }
    let response = client.execute(request.build().unwrap()).await.unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

#[tokio::test]
#[ignore = "needs the PHP OAuthProvider: run scripts/interop"]
async fn oauth_provider_accepts_every_shape_and_transport() {
    let mut accepted = 0;
    for method in [SignatureMethod::HmacSha1, SignatureMethod::HmacSha256] {
        for transport in [Transport::Header, Transport::Query, Transport::FormBody] {
            let client = client(CONSUMER, TOKEN, method, transport);
            for &(verb, path, form) in SHAPES {
                if transport == Transport::FormBody && verb == "GET" {
                    continue;
                }
                let what = format!("{method} {transport:?} {verb} {path} {form:?}");
                let (status, answer) = send(&client, verb, path, form).await;
                assert_eq!(status, 200, "{what}: {answer}");
                assert_eq!(answer["consumer_key"], CONSUMER.0, "{what}");
                assert_eq!(answer["token"], TOKEN.0, "{what}");
                assert_eq!(answer["signature_method"], method.as_str(), "{what}");
                accepted += 1;
            }
        }
    }
    // 2 methods × (5 shapes in the header and the query, 2 in the form body).
    assert_eq!(accepted, 2 * (5 + 5 + 2));
}

#[tokio::test]
#[ignore = "needs the PHP OAuthProvider: run scripts/interop"]
async fn oauth_provider_refuses_a_changed_request_and_a_replay() {
    let signer =
        Signer::new(Consumer::new(CONSUMER.0, CONSUMER.1)).with_token(Token::new(TOKEN.0, TOKEN.1));
    let url = format!("{}/r?a=1", server());
    let header = || {
        signer
            .sign(
                &oauth1_signer::Request::new("GET", &url).unwrap(),
                &Nonce::generate().unwrap(),
                Timestamp::now().unwrap(),
            )
            .unwrap()
            .authorization()
    };
    let plain = reqwest::Client::new();
    let get = |url: String, header: &str| plain.get(url).header("authorization", header).send();
    let changed = format!("{}/r?a=2", server());
    assert_eq!(get(changed, &header()).await.unwrap().status(), 401);
    let once = header();
    assert_eq!(get(url.clone(), &once).await.unwrap().status(), 200);
    assert_eq!(get(url, &once).await.unwrap().status(), 401, "a replay");
}

/// PHP reads a form body into `$_POST` for POST only: `OAuthProvider` leaves a PUT's form
/// parameters out of its base string (`form-body-not-signed`) and refuses the RFC 5849
/// signature, which signs them.
#[tokio::test]
#[ignore = "needs the PHP OAuthProvider: run scripts/interop"]
async fn a_put_form_is_not_read() {
    let client = client(
        CONSUMER,
        TOKEN,
        SignatureMethod::HmacSha1,
        Transport::Header,
    );
    let (status, answer) = send(&client, "PUT", "/r/things/1", Some("a=1")).await;
    assert_eq!(status, 401, "{answer}");
    let problem = answer["problem"].as_str().unwrap();
    assert!(problem.contains("debug_sbs=PUT&"), "{answer}");
    assert!(!problem.contains("a%3D1"), "{answer}");
}

/// `OAuthProvider` makes its key of the secrets as they are, where RFC 5849 §3.4.2 encodes
/// them first: with secrets that have something to encode, an RFC 5849 signature is refused.
#[tokio::test]
#[ignore = "needs the PHP OAuthProvider: run scripts/interop"]
async fn secrets_that_need_encoding_are_refused() {
    let client = client(
        ("php-consumer", "consumer secret & ünïcode"),
        ("php-token", "token secret / +%"),
        SignatureMethod::HmacSha1,
        Transport::Header,
    );
    let (status, answer) = send(&client, "GET", "/r?a=1", None).await;
    assert_eq!(status, 401, "{answer}");
    assert!(
        answer["problem"]
            .as_str()
            .unwrap()
            .starts_with("oauth_problem=signature_invalid"),
        "{answer}"
    );
}
