//! What the diagnosis of a bad signature may cost: bounded in bytes and time whatever the
//! request, one at a time, and nothing spent on credentials the server does not know.

use crate::common::At;
use oauth1_server::{Diagnosis, MemoryCredentials, MemoryNonceStore, Reason, Verifier};
use oauth1_signer::{Consumer, Nonce, Request, Signer, Timestamp, Token};

const CONSUMER: (&str, &str) = ("dpf43f3p2l4k3l03", "kd94hf93k423kf44");
const TOKEN: (&str, &str) = ("nnch734d00sl2jdk", "pfkkdhi9sl3r4s00");
const NOW: u64 = 1_191_242_096;

fn credentials() -> MemoryCredentials {
    let mut credentials = MemoryCredentials::new();
    credentials.add_consumer(CONSUMER.0, CONSUMER.1);
    credentials.add_token(CONSUMER.0, TOKEN.0, TOKEN.1);
    credentials
}

/// The header of `request` signed with `consumer_secret` (the server's is `CONSUMER.1`).
fn header(request: &Request<'_>, consumer_key: &str, token: &str, consumer_secret: &str) -> String {
    Signer::new(Consumer::new(consumer_key, consumer_secret))
        .with_token(Token::new(token, TOKEN.1))
        .sign(
            request,
            &Nonce::new(format!("n{consumer_key}{token}{consumer_secret}")).unwrap(),
            Timestamp::new(NOW),
        )
        .unwrap()
        .authorization()
}

fn diagnosis_of(
    verifier: &Verifier<MemoryCredentials, MemoryNonceStore>,
    request: &Request<'_>,
    header: &str,
) -> Diagnosis {
    let err = verifier
        .at(Timestamp::new(NOW))
        .blocking()
        .verify(request, Some(header))
        .unwrap_err();
    assert_eq!(err.reason(), Reason::BadSignature, "{err}");
    err.diagnosis().cloned().unwrap()
}

#[test]
fn a_large_request_is_searched_only_as_far_as_its_bytes_allow_and_says_so() {
    let (url, body) = crate::common::large_request("https://photos.example.net");
    let request = Request::new("POST", &url).unwrap().with_form_body(&body);
    let bytes = 8 << 20;
    let verifier = Verifier::new(credentials(), MemoryNonceStore::new())
        .with_diagnosis(10)
        .with_diagnosis_cost(bytes, std::time::Duration::from_secs(3_600));
    let signed = header(&request, CONSUMER.0, TOKEN.0, "a wrong secret");
    let diagnosis = diagnosis_of(&verifier, &request, &signed);
    let Diagnosis::NotFoundWithinBudget { tried, of } = diagnosis else {
        panic!("{diagnosis:?}");
    };
    // Every reading reads at least the query and the body: the budget holds so many, and the
    // one that spends it.
    let read = request.query().len() + body.len();
    assert!(
        tried <= usize::try_from(bytes).unwrap() / read + 1,
        "{tried} readings of {read} bytes"
    );
    assert!(tried >= 2 && of > 1_000, "{tried} of {of}");
    let text = diagnosis.to_string();
    assert!(
        text.contains(&format!("none of the {tried} mistakes tried (of {of})")),
        "{text}"
    );
    assert!(text.contains("too large"), "{text}");
}

#[test]
fn a_small_request_is_still_searched_whole() {
    let request =
        Request::new("GET", "https://photos.example.net/photos?size=original&a=b").unwrap();
    // The default bytes; time enough for a debug build on a busy machine (the default 200 ms
    // is a release build's bound, and this is about the bytes).
    let verifier = Verifier::new(credentials(), MemoryNonceStore::new())
        .with_diagnosis(10)
        .with_diagnosis_cost(64 << 20, std::time::Duration::from_secs(60));
    let signed = header(&request, CONSUMER.0, TOKEN.0, "a wrong secret");
    assert_eq!(
        diagnosis_of(&verifier, &request, &signed),
        Diagnosis::NotFound
    );
}

#[test]
fn unknown_credentials_take_nothing_from_the_budget() {
    let request = Request::new("GET", "https://photos.example.net/photos?size=original").unwrap();
    // One diagnosis a second: an unknown consumer key, then an unknown token of a known
    // consumer, leave it to the known pair.
    let verifier = Verifier::new(credentials(), MemoryNonceStore::new()).with_diagnosis(1);
    for (consumer, token) in [("unknown", TOKEN.0), (CONSUMER.0, "unknown")] {
        let signed = header(&request, consumer, token, CONSUMER.1);
        let err = verifier
            .at(Timestamp::new(NOW))
            .blocking()
            .verify(&request, Some(&signed))
            .unwrap_err();
        if let Some(diagnosis) = err.diagnosis() {
            assert_eq!(diagnosis, &Diagnosis::NotFound, "{consumer} {token}");
        }
    }
    let signed = header(&request, CONSUMER.0, TOKEN.0, "a wrong secret");
    assert_eq!(
        diagnosis_of(&verifier, &request, &signed),
        Diagnosis::NotFound
    );
}

/// Hostile requests, each costing the search as much as the limits allow, arrive while the
/// server answers others: the diagnoses hold at most one of its two threads, each for at most
/// its time, and an unsigned request is answered at once.
#[cfg(feature = "tower")]
#[test]
fn hostile_requests_do_not_hold_the_server() {
    hostile_requests_arrive(0);
}

/// The same with a queue: the hostile requests wait for each other's diagnosis, each is
/// searched as far as its budget allows, and the waits hold no thread: an unsigned request
/// is still answered at once.
#[cfg(feature = "tower")]
#[test]
fn bad_signatures_that_wait_their_turn_hold_no_thread() {
    hostile_requests_arrive(8);
}

/// Four hostile requests, then an unsigned one, to a layer whose diagnosis lets `queue` wait.
#[cfg(feature = "tower")]
fn hostile_requests_arrive(queue: usize) {
    use bytes::Bytes;
    use http_body_util::{BodyExt, Full};
    use oauth1_server::tower::VerifyLayer;
    use std::time::{Duration, Instant};
    use tower::{service_fn, Layer, ServiceExt};

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let verifier = Verifier::new(credentials(), MemoryNonceStore::new())
            .with_diagnosis(100)
            .with_diagnosis_queue(queue);
        let layer = VerifyLayer::new(verifier, "https://photos.example.net").unwrap();
        let service = layer.layer(service_fn(|_: http::Request<Full<Bytes>>| async {
            Ok::<_, std::convert::Infallible>(http::Response::new(Full::new(Bytes::new())))
        }));
        let (url, body) = crate::common::large_request("https://photos.example.net");
        let request = Request::new("POST", &url).unwrap().with_form_body(&body);
        // Signed now, so that the clock accepts it, with a wrong secret and one nonce each.
        let hostile = |i: usize| {
            let signed = Signer::new(Consumer::new(CONSUMER.0, "a wrong secret"))
                .with_token(Token::new(TOKEN.0, TOKEN.1))
                .sign(
                    &request,
                    &Nonce::new(format!("hostile{i}")).unwrap(),
                    Timestamp::now().unwrap(),
                )
                .unwrap()
                .authorization();
            http::Request::post(url.strip_prefix("https://photos.example.net").unwrap())
                .header("authorization", signed)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(Full::new(Bytes::from(body.clone())))
                .unwrap()
        };
        let mut attacks = Vec::new();
        for i in 0..4 {
            let service = service.clone();
            let request = hostile(i);
            attacks.push(tokio::spawn(async move {
                let started = Instant::now();
                let response = service.oneshot(request).await.unwrap();
                let status = response.status().as_u16();
                let advice = response.into_body().collect().await.unwrap().to_bytes();
                (status, started.elapsed(), advice)
            }));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        let started = Instant::now();
        let unsigned = http::Request::get("/photos")
            .body(Full::new(Bytes::new()))
            .unwrap();
        let response = tokio::spawn(service.clone().oneshot(unsigned))
            .await
            .unwrap()
            .unwrap();
        let waited = started.elapsed();
        assert_eq!(response.status().as_u16(), 401);
        assert!(
            waited < Duration::from_secs(1),
            "the unsigned request waited {waited:?}"
        );
        for attack in attacks {
            let (status, took, advice) = attack.await.unwrap();
            assert_eq!(status, 401);
            let advice = String::from_utf8_lossy(&advice);
            if queue == 0 {
                assert!(
                    advice.contains("too%20large") || advice.contains("not%20diagnosed"),
                    "{advice}"
                );
            } else {
                assert!(advice.contains("too%20large"), "each is searched: {advice}");
            }
            assert!(
                took < Duration::from_secs(20),
                "a hostile request took {took:?}"
            );
        }
    });
}

/// A client that signed for another origin than the server verifies at is told which, from
/// what the request says: the `Host` it sent, forwarding headers the server does not trust,
/// `localhost` for a loopback address.
#[cfg(feature = "tower")]
#[test]
fn a_client_that_signed_for_another_origin_is_told_which() {
    use bytes::Bytes;
    use http_body_util::{BodyExt, Full};
    use oauth1_server::tower::VerifyLayer;
    use tower::{service_fn, Layer, ServiceExt};

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    // The advice of the 401 a request gets, signed for `signed` with `secret` and sent with
    // `headers` to a layer for `origin`.
    let advice = |origin: &str, signed: &str, secret: &str, headers: &[(&str, &str)]| {
        let verifier = Verifier::new(credentials(), MemoryNonceStore::new()).with_diagnosis(100);
        let layer = VerifyLayer::new(verifier, origin).unwrap();
        let service = layer.layer(service_fn(|_: http::Request<Full<Bytes>>| async {
            Ok::<_, std::convert::Infallible>(http::Response::new(Full::new(Bytes::new())))
        }));
        let header = Signer::new(Consumer::new(CONSUMER.0, secret))
            .with_token(Token::new(TOKEN.0, TOKEN.1))
            .sign_now(&Request::new("GET", signed).unwrap())
            .unwrap()
            .authorization();
        let parsed = url::Url::parse(signed).unwrap();
        let target = &parsed[url::Position::BeforePath..];
        let mut request = http::Request::get(target).header("authorization", header);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let request = request.body(Full::new(Bytes::new())).unwrap();
        runtime.block_on(async {
            let response = service.oneshot(request).await.unwrap();
            assert_eq!(response.status().as_u16(), 401);
            let body = response.into_body().collect().await.unwrap().to_bytes();
            let (_, advice) = url::form_urlencoded::parse(&body)
                .find(|(name, _)| name == "oauth_problem_advice")
                .unwrap();
            advice.into_owned()
        })
    };
    let readme = "http://127.0.0.1:8080";
    let said = advice(
        readme,
        "http://localhost:8080/photos?size=original",
        CONSUMER.1,
        &[("host", "localhost:8080")],
    );
    assert!(
        said.contains("the client signed this request for http://localhost:8080/photos?size=original (the Host header it sent), and this server verifies it as http://127.0.0.1:8080/photos?size=original"),
        "{said}"
    );
    // Without a Host header to say it, localhost is tried for a loopback address.
    let said = advice(readme, "http://localhost:8080/photos", CONSUMER.1, &[]);
    assert!(
        said.contains("(localhost, the name of this loopback address)"),
        "{said}"
    );
    // Signed for the other scheme of its Host.
    let said = advice(
        "http://api.example.com",
        "https://api.example.com/photos",
        CONSUMER.1,
        &[("host", "api.example.com")],
    );
    assert!(
        said.contains(
            "for https://api.example.com/photos (the Host header it sent, with the other scheme)"
        ),
        "{said}"
    );
    // Behind a proxy whose headers the server does not trust.
    let said = advice(
        "http://127.0.0.1:3000",
        "https://photos.example.net/photos",
        CONSUMER.1,
        &[
            ("x-forwarded-proto", "https"),
            ("x-forwarded-host", "photos.example.net"),
        ],
    );
    assert!(
        said.contains("(X-Forwarded-Host and X-Forwarded-Proto, which this server does not trust)"),
        "{said}"
    );
    let said = advice(
        "http://127.0.0.1:3000",
        "https://photos.example.net/photos",
        CONSUMER.1,
        &[(
            "forwarded",
            "for=192.0.2.60;proto=https;host=photos.example.net",
        )],
    );
    assert!(
        said.contains("(the Forwarded header, which this server does not trust)"),
        "{said}"
    );
    // A wrong secret is not another origin.
    let said = advice(
        readme,
        "http://localhost:8080/photos",
        "a wrong secret",
        &[("host", "localhost:8080")],
    );
    assert!(!said.contains("signed this request for"), "{said}");
}
