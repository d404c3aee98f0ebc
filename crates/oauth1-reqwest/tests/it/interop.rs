//! Interop with a verifier nobody here wrote: requests signed by this crate, sent through
//! `reqwest`, checked by Python oauthlib's `SignatureOnlyEndpoint`
//! (`scripts/interop_peers/oauthlib_server.py`).
//!
//! These tests need that server, so they are ignored by a plain `cargo test`; `scripts/interop`
//! starts it and runs them with `OAUTH1_INTEROP_OAUTHLIB` set to its URL.

use crate::common;

use oauth1_reqwest::{OAuth1Middleware, SignExt};
use oauth1_signer::http::Transport;
use oauth1_signer::{
    Consumer, Nonce, PrivateKey, Realm, SignatureMethod, Signer, Timestamp, Token,
};
use serde_json::Value;

const CONSUMER: (&str, &str) = ("interop-consumer", "consumer secret & ünïcode");
const TOKEN: (&str, &str) = ("interop-token", "token secret / +%");
/// Secrets with nothing to percent-encode (see `plaintext_in_query_or_body`).
const PLAIN_CONSUMER: (&str, &str) = ("plain-consumer", "plain-secret");
const PLAIN_TOKEN: (&str, &str) = ("plain-token", "plain-token-secret");

fn server() -> String {
    std::env::var("OAUTH1_INTEROP_OAUTHLIB")
        .expect("OAUTH1_INTEROP_OAUTHLIB names the oauthlib server: run scripts/interop")
}

/// The RSA key of the published RSA-SHA1 case, whose public half the server holds.
fn rsa_key() -> PrivateKey {
    let case = common::read_cases(&common::fixtures_dir().join("published.json"))
        .into_iter()
        .find(|c| c.private_key_pem.is_some())
        .expect("the published fixtures have an RSA case");
    PrivateKey::from_pem(case.private_key_pem.as_deref().unwrap()).unwrap()
}

fn signer(method: SignatureMethod, with_token: bool) -> Signer {
    signer_for(CONSUMER, TOKEN, method, with_token)
}

fn signer_for(
    consumer: (&str, &str),
    token: (&str, &str),
    method: SignatureMethod,
    with_token: bool,
) -> Signer {
    let mut signer = Signer::new(Consumer::new(consumer.0, consumer.1)).with_method(method);
    if method.is_rsa() {
        signer = signer.with_private_key(rsa_key());
    }
    if with_token {
        signer = signer.with_token(Token::new(token.0, token.1));
    }
    signer
}

/// oauthlib 4.0.1 decodes the `oauth_*` values of the query and the form body twice (once
/// as form data, once more in `collect_parameters`), so a PLAINTEXT signature, which holds
/// percent-encoded secrets and is encoded once more in those transports (RFC 5849 §3.5.2,
/// §3.5.3), reaches its comparison decoded one time too many. It still matches when the
/// secrets have nothing to encode.
fn plaintext_in_query_or_body(method: SignatureMethod, transport: Transport) -> bool {
    method == SignatureMethod::Plaintext && transport != Transport::Header
}

/// A request shape: method, path and query, Content-Type, body.
struct Shape {
    name: &'static str,
    method: &'static str,
    path: &'static str,
    content_type: Option<&'static str>,
    body: &'static str,
}

/// Query and form parameters with reserved characters, spaces written both ways, multi-byte
/// UTF-8 in names and values, duplicate names with different values, and empty values.
const SHAPES: &[Shape] = &[
    Shape {
        name: "query",
        method: "GET",
        path: "/photos?size=original&file=vacation.jpg&a=2&a=1&c=%21%2A%27%28%29&d=a%20b&e=&%C3%A9t%C3%A9=%E2%9C%93%F0%9F%98%80",
        content_type: None,
        body: "",
    },
    Shape {
        name: "form",
        method: "POST",
        path: "/1.1/statuses/update.json?include_entities=true",
        content_type: Some("application/x-www-form-urlencoded"),
        body: "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21&tag=b&tag=a&x=%E2%82%AC%26%3D",
    },
    Shape {
        name: "form with plus for space",
        method: "POST",
        path: "/forms",
        content_type: Some("application/x-www-form-urlencoded; charset=utf-8"),
        body: "q=caf%C3%A9+au+lait&empty=",
    },
    Shape {
        name: "json",
        method: "POST",
        path: "/2/tweets",
        content_type: Some("application/json"),
        body: "{\"text\": \"Hello, world! ✓ & = +\"}",
    },
    Shape {
        name: "empty put",
        method: "PUT",
        path: "/things/1?x=%7E",
        content_type: None,
        body: "",
    },
];

fn build(client: &reqwest::Client, shape: &Shape) -> reqwest::RequestBuilder {
    let method = reqwest::Method::from_bytes(shape.method.as_bytes()).unwrap();
    let mut builder = client
        .request(method, format!("{}{}", server(), shape.path))
        .body(shape.body);
    if let Some(content_type) = shape.content_type {
        builder = builder.header("content-type", content_type);
    }
    builder
}

async fn verdict(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    (
        status,
        serde_json::from_str(&response.text().await.unwrap()).unwrap(),
    )
}

#[tokio::test]
#[ignore = "needs the oauthlib server: run scripts/interop"]
async fn oauthlib_accepts_every_method_shape_and_transport() {
    let plain = reqwest::Client::new();
    let mut accepted = 0;
    for method in SignatureMethod::ALL {
        for with_token in [false, true] {
            for transport in [Transport::Header, Transport::Query, Transport::FormBody] {
                let client = reqwest_middleware::ClientBuilder::new(
                    reqwest::Client::builder()
                        .redirect(reqwest::redirect::Policy::none())
                        .build()
                        .unwrap(),
                )
                .with(OAuth1Middleware::new(signer(method, with_token)).with_transport(transport))
                .build();
                let plain_client = reqwest_middleware::ClientBuilder::new(reqwest::Client::new())
                    .with(
                        OAuth1Middleware::new(signer_for(
                            PLAIN_CONSUMER,
                            PLAIN_TOKEN,
                            method,
                            with_token,
                        ))
                        .with_transport(transport),
                    )
                    .build();
                for shape in SHAPES {
                    let form_or_empty = shape
                        .content_type
                        .is_none_or(|t| t.starts_with("application/x-www-form-urlencoded"));
                    if transport == Transport::FormBody && !form_or_empty {
                        continue;
                    }
                    let what = format!("{method} token={with_token} {transport:?} {}", shape.name);
                    let request = build(&plain, shape).build().unwrap();
                    let (mut status, mut answer) =
                        verdict(client.execute(request).await.unwrap()).await;
                    let mut expected = (CONSUMER.0, TOKEN.0);
                    if plaintext_in_query_or_body(method, transport) {
                        assert_eq!(status, 401, "{what}: oauthlib decodes once now? {answer}");
                        let request = build(&plain, shape).build().unwrap();
                        (status, answer) =
                            verdict(plain_client.execute(request).await.unwrap()).await;
                        expected = (PLAIN_CONSUMER.0, PLAIN_TOKEN.0);
                    }
                    assert_eq!(status, 200, "{what}: {answer}");
                    assert_eq!(answer["consumer_key"], expected.0, "{what}");
                    assert_eq!(answer["signature_method"], method.as_str(), "{what}");
                    let token = if with_token {
                        Value::from(expected.1)
                    } else {
                        Value::Null
                    };
                    assert_eq!(answer["token"], token, "{what}");
                    accepted += 1;
                }
            }
        }
    }
    // 6 methods × 2 × (5 shapes in the header and the query, 4 in the form body).
    assert_eq!(accepted, 6 * 2 * (5 + 5 + 4));
}

#[cfg(feature = "blocking")]
#[tokio::test]
#[ignore = "needs the oauthlib server: run scripts/interop"]
async fn oauthlib_accepts_a_realm_and_a_blocking_request() {
    let signer = signer(SignatureMethod::HmacSha1, true).with_realm(Realm::new("Photos").unwrap());
    let url = format!("{}/photos?size=original", server());
    let answer = tokio::task::spawn_blocking(move || {
        let client = reqwest::blocking::Client::new();
        let mut request = client.get(url).build().unwrap();
        request.sign_oauth1(&signer).unwrap();
        client.execute(request).unwrap().status().as_u16()
    })
    .await
    .unwrap();
    assert_eq!(answer, 200);
}

/// Requests changed after signing, signed with the wrong secret, or replayed are refused.
#[tokio::test]
#[ignore = "needs the oauthlib server: run scripts/interop"]
async fn oauthlib_rejects_tampered_requests() {
    let client = reqwest::Client::new();
    let signer = signer(SignatureMethod::HmacSha1, true);
    let signed_copy = |shape: &Shape| {
        let mut request = build(&client, shape).build().unwrap();
        request
            .sign_oauth1_with(
                &signer,
                Transport::Header,
                &Nonce::generate().unwrap(),
                Timestamp::now().unwrap(),
            )
            .unwrap();
        request
    };
    let mut tampered = Vec::new();

    // A query parameter changed.
    let mut request = signed_copy(&SHAPES[0]);
    let url = request
        .url()
        .as_str()
        .replace("size=original", "size=large");
    *request.url_mut() = url.parse().unwrap();
    tampered.push(("query changed", request));

    // A form parameter added.
    let mut request = signed_copy(&SHAPES[1]);
    *request.body_mut() = Some(format!("{}&extra=1", SHAPES[1].body).into());
    tampered.push(("form body changed", request));

    // The method changed.
    let mut request = signed_copy(&SHAPES[4]);
    *request.method_mut() = reqwest::Method::POST;
    tampered.push(("method changed", request));

    // The path changed.
    let mut request = signed_copy(&SHAPES[4]);
    let url = request.url().as_str().replace("/things/1", "/things/2");
    *request.url_mut() = url.parse().unwrap();
    tampered.push(("path changed", request));

    // The wrong token secret.
    let mut request = build(&client, &SHAPES[0]).build().unwrap();
    request
        .sign_oauth1(
            &Signer::new(Consumer::new(CONSUMER.0, CONSUMER.1))
                .with_token(Token::new(TOKEN.0, "not the token secret")),
        )
        .unwrap();
    tampered.push(("wrong token secret", request));

    for (what, request) in tampered {
        let (status, answer) = verdict(client.execute(request).await.unwrap()).await;
        assert_eq!(status, 401, "{what}: {answer}");
    }

    // A replay: the first is accepted, the same request again is not.
    let request = signed_copy(&SHAPES[0]);
    let again = request.try_clone().unwrap();
    assert_eq!(verdict(client.execute(request).await.unwrap()).await.0, 200);
    assert_eq!(verdict(client.execute(again).await.unwrap()).await.0, 401);
}
