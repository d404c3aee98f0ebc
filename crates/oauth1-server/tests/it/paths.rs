//! The path signed is the path routed. A request target that a URL parser would rewrite (dot
//! segments, raw or percent-encoded; a backslash; a character it percent-encodes) is refused
//! before the application's router sees it, and a signature verifies only for the exact path
//! the router routes. The signatures here come from an independent signer written from RFC
//! 5849 §3.4 with `hmac`, `sha1` and `percent-encoding`, which signs a path exactly as given,
//! as oauthlib does.
#![cfg(feature = "tower")]

use std::sync::atomic::{AtomicU64, Ordering};

use axum::body::Body;
use axum::http::Uri;
use base64::Engine;
use hmac::{KeyInit, Mac};
use http_body_util::BodyExt;
use oauth1_server::tower::VerifyLayer;
use oauth1_server::{MemoryCredentials, MemoryNonceStore, ProxyHeaders, PublicOrigin};
use oauth1_signer::{Consumer, Error, Request, RequestParts, Signer, Timestamp, Token};
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use proptest::prelude::*;
use tower::{Layer, ServiceExt};

use crate::routed_app::{app, verifier, CONSUMER, TOKEN};

const ORIGIN: &str = "https://api.example.com";

/// RFC 3986 §2.3's unreserved characters are the only ones left alone (RFC 5849 §3.6).
const RFC3986: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

fn enc(text: &str) -> String {
    utf8_percent_encode(text, RFC3986).to_string()
}

/// A fresh nonce for every signature made here.
fn nonce() -> String {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    format!("n{}", COUNT.fetch_add(1, Ordering::SeqCst))
}

/// The Authorization header of a GET for `ORIGIN` followed by `path` exactly as given, with
/// HMAC-SHA1, the token, now: RFC 5849 §3.4.1 (base string), §3.4.2 (HMAC-SHA1), §3.5.1.
fn signed_for(path: &str) -> String {
    let timestamp = Timestamp::now().unwrap().as_secs().to_string();
    let nonce = nonce();
    let params = [
        ("oauth_consumer_key", CONSUMER.0),
        ("oauth_nonce", nonce.as_str()),
        ("oauth_signature_method", "HMAC-SHA1"),
        ("oauth_timestamp", timestamp.as_str()),
        ("oauth_token", TOKEN.0),
        ("oauth_version", "1.0"),
    ];
    let normalized: Vec<String> = params.iter().map(|(n, v)| format!("{n}={v}")).collect();
    let base = format!(
        "GET&{}&{}",
        enc(&format!("{ORIGIN}{path}")),
        enc(&normalized.join("&"))
    );
    let key = format!("{}&{}", enc(CONSUMER.1), enc(TOKEN.1));
    let mut mac = hmac::Hmac::<sha1::Sha1>::new_from_slice(key.as_bytes()).unwrap();
    mac.update(base.as_bytes());
    let signature = base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes());
    let sent: Vec<String> = params
        .iter()
        .map(|(name, value)| format!("{name}=\"{}\"", enc(value)))
        .collect();
    format!(
        "OAuth {}, oauth_signature=\"{}\"",
        sent.join(", "),
        enc(&signature)
    )
}

struct Answer {
    status: u16,
    body: String,
}

/// Sends a GET for the request target `target` with `authorization` through the layer and
/// the router.
async fn send(target: &str, authorization: &str) -> Answer {
    let layer = VerifyLayer::new(verifier(), ORIGIN).unwrap();
    send_to(&layer, target, authorization).await
}

async fn send_to(
    layer: &VerifyLayer<MemoryCredentials, MemoryNonceStore>,
    target: &str,
    authorization: &str,
) -> Answer {
    let service = layer.layer(app());
    let request = http::Request::get(target)
        .header("authorization", authorization)
        .body(Body::empty())
        .unwrap();
    let response = service.oneshot(request).await.unwrap();
    let status = response.status().as_u16();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    Answer {
        status,
        body: String::from_utf8(body.to_vec()).unwrap(),
    }
}

/// The attack: a request signed for `/a`, sent with dot segments so that the router sends it
/// to whatever serves `/b/…`. Whichever path the client signed, the layer refuses it with
/// 400 and says why; no handler runs.
#[tokio::test]
async fn dot_segments_are_refused_before_the_router_in_every_spelling() {
    for target in [
        "/b/../a",
        "/b/%2e%2e/a",
        "/b/%2E%2E/a",
        "/b/.%2e/a",
        "/b/%2E./a",
        "/b/./../a",
        "/b/%2e/a",
        "/a/.",
        "/b/..",
    ] {
        let resolved = url::Url::parse(&format!("{ORIGIN}{target}")).unwrap();
        for (signed, origin) in [("/a", false), (resolved.path(), false), (target, true)] {
            // The layer with a fixed origin, and the one behind a trusted proxy.
            let answer = if origin {
                let origin = PublicOrigin::TrustedProxy {
                    origin: url::Url::parse(ORIGIN).unwrap(),
                    headers: ProxyHeaders::Forwarded,
                };
                let layer = VerifyLayer::with_origin(verifier(), origin).unwrap();
                send_to(&layer, target, &signed_for(signed)).await
            } else {
                send(target, &signed_for(signed)).await
            };
            assert_eq!(
                answer.status, 400,
                "{target} signed for {signed}: {}",
                answer.body
            );
            assert!(
                answer
                    .body
                    .starts_with("oauth_problem=parameter_rejected&oauth_problem_advice="),
                "{target}: {}",
                answer.body
            );
            let advice = percent_encoding::percent_decode_str(&answer.body)
                .decode_utf8()
                .unwrap()
                .into_owned();
            assert!(
                advice.contains(&format!("the path \"{target}\" has the dot segment")),
                "{target}: {advice}"
            );
        }
    }
}

/// The other forms a URL parser rewrites and a router does not.
#[tokio::test]
async fn backslashes_and_characters_to_encode_are_refused() {
    for (target, says) in [
        ("/b\\..\\a", "has a backslash"),
        ("/a\\b", "has a backslash"),
        ("/b/{x}", "has '{' unencoded"),
        ("/b/\"x\"", "has '\\\"' unencoded"),
        ("/b/caf\u{e9}", "has '\u{e9}' unencoded"),
    ] {
        let uri: Uri = target.parse().expect("hyper takes it as a request target");
        let parsed = url::Url::parse(&format!("{ORIGIN}{target}")).unwrap();
        for signed in [uri.path(), parsed.path()] {
            let answer = send(target, &signed_for(signed)).await;
            assert_eq!(answer.status, 400, "{target}: {}", answer.body);
            let advice = percent_encoding::percent_decode_str(&answer.body)
                .decode_utf8()
                .unwrap()
                .into_owned();
            assert!(advice.contains(says), "{target}: {advice}");
        }
    }
}

/// Forms the router and the signature read alike are kept as they are, and a signature
/// verifies for exactly that path, no other.
#[tokio::test]
async fn what_router_and_signature_read_alike_verifies_for_that_path_only() {
    for (target, routed, route, other) in [
        // An empty segment: routed as `//a`, not as `/a`.
        ("//a", "//a", "fallback", "/a"),
        // `%2F` inside a segment: one segment for the router, `/` only once decoded.
        ("/b/x%2Fy", "/b/x%2Fy", "b", "/b/x/y"),
        // An escape's letter case is kept.
        ("/b/x%2fy", "/b/x%2fy", "b", "/b/x%2Fy"),
        // An escape of an unreserved character is not decoded.
        ("/%61", "/%61", "fallback", "/a"),
        // A `?` with nothing after it is an empty query, not part of the path.
        ("/a?", "/a", "a", "/a?"),
        ("/b/x.y/..z", "/b/x.y/..z", "b", "/b/x.y"),
    ] {
        let answer = send(target, &signed_for(routed)).await;
        assert_eq!(
            (answer.status, answer.body.as_str()),
            (200, format!("{route} {routed}").as_str()),
            "{target}"
        );
        let answer = send(target, &signed_for(other)).await;
        assert_eq!(answer.status, 401, "{target} signed for {other}");
    }
}

/// A layer built with a public URL function that rewrites the path refuses to sign over a
/// path the router does not route.
#[tokio::test]
async fn a_public_url_that_rewrites_the_path_is_refused() {
    let layer = VerifyLayer::with_public_url(verifier(), |parts: &http::request::Parts| {
        url::Url::parse(&format!(
            "{ORIGIN}{}",
            parts.uri.path().to_ascii_lowercase()
        ))
        .ok()
    });
    let answer = send_to(&layer, "/A", &signed_for("/a")).await;
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert!(
        answer
            .body
            .contains("must%20keep%20the%20request%27s%20path"),
        "{}",
        answer.body
    );
    let answer = send_to(&layer, "/a", &signed_for("/a")).await;
    assert_eq!((answer.status, answer.body.as_str()), (200, "a /a"));
}

/// Request targets made of the pieces that parsers and routers treat differently.
fn targets() -> impl Strategy<Value = String> {
    let piece = proptest::sample::select(vec![
        "a", "b", ".", "..", "%2e", "%2E", "%2e%2E", ".%2e", "%2F", "%2f", "", "\\", "%61", "{",
        "\u{e9}", "x.y", "?", "?q=1",
    ]);
    proptest::collection::vec(piece, 0..6).prop_map(|pieces| format!("/{}", pieces.join("/")))
}

/// For any request target the router would route to path P, the layer accepts only
/// signatures made for P: whatever path a signature was made for (the one routed, the one
/// the URL parser makes of the target, or any other), a request that reaches a handler
/// reaches it with the path that was signed. And a target already in the parser's form
/// verifies when signed for its path.
#[test]
fn a_request_reaches_a_handler_only_with_the_path_signed() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 512,
        failure_persistence: None,
        ..ProptestConfig::default()
    });
    let outcome = runner.run(
        &(targets(), targets(), 0..3usize),
        |(target, another, pick)| {
            let Ok(uri) = target.parse::<Uri>() else {
                // Not a request target hyper would hand on.
                return Ok(());
            };
            let routed = uri.path().to_owned();
            let parsed = url::Url::parse(&format!("{ORIGIN}{target}")).unwrap();
            let another = another.split('?').next().unwrap().to_owned();
            let signed = [routed.clone(), parsed.path().to_owned(), another][pick].clone();
            let answer = runtime.block_on(send(&target, &signed_for(&signed)));
            if answer.status == 200 {
                let (_, path) = answer.body.split_once(' ').unwrap();
                prop_assert_eq!(path, signed.as_str(), "{} reached a handler", target);
                prop_assert_eq!(path, routed.as_str());
            }
            // (The signatures here sign no query parameters.)
            let no_query = parsed.query().unwrap_or("").is_empty();
            if parsed.path() == routed && signed == routed && no_query {
                prop_assert_eq!(answer.status, 200, "{}: {}", target, answer.body);
            }
            Ok(())
        },
    );
    if let Err(e) = outcome {
        panic!("{e}");
    }
}

/// The signer refuses a path whose dot segments or backslash clients resolve differently,
/// and signs characters it must encode as the URL parser encodes them.
#[test]
fn the_signer_refuses_what_clients_send_differently() {
    for url in [
        "https://api.example.com/b/../a",
        "https://api.example.com/b/%2E%2e/a",
        "https://api.example.com/a/.",
        "https://api.example.com/a\\b",
    ] {
        assert!(
            matches!(Request::new("GET", url), Err(Error::AmbiguousPath { .. })),
            "{url}"
        );
        assert!(
            matches!(
                RequestParts::new("GET", url),
                Err(Error::AmbiguousPath { .. })
            ),
            "{url}"
        );
    }
    assert_eq!(
        Request::new("GET", "https://api.example.com/a\\b").unwrap_err().to_string(),
        "the path \"/a\\\\b\" has a backslash, which URL parsers read as '/' and routers do not, so the path signed and the path routed could differ: send '/' or %5C instead"
    );
    // A query or fragment is not the path.
    assert!(Request::new("GET", "https://api.example.com/a?next=/../b").is_ok());
    let request = Request::new("GET", "https://api.example.com/{x}").unwrap();
    assert_eq!(request.url().path(), "/%7Bx%7D");
}

/// `http::sign` sends the URI as it is, so a path it would sign otherwise is refused.
#[test]
fn an_http_request_is_signed_only_with_the_path_it_sends() {
    let signer =
        Signer::new(Consumer::new(CONSUMER.0, CONSUMER.1)).with_token(Token::new(TOKEN.0, TOKEN.1));
    for (uri, ok) in [
        ("https://api.example.com/b/{x}", false),
        ("https://api.example.com/caf\u{e9}", false),
        ("https://api.example.com/b/../a", false),
        ("https://api.example.com/b/%7Bx%7D", true),
        ("https://api.example.com", true),
    ] {
        let mut request = http::Request::get(uri).body(Vec::<u8>::new()).unwrap();
        let result = oauth1_signer::http::sign(&signer, &mut request);
        assert_eq!(result.is_ok(), ok, "{uri}: {result:?}");
        if !ok {
            assert!(
                matches!(
                    result,
                    Err(oauth1_signer::http::SignError::Sign(
                        Error::AmbiguousPath { .. }
                    ))
                ),
                "{uri}"
            );
        }
    }
}
