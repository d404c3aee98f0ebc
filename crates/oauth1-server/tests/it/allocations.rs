//! Heap allocations per verification, counted by a global allocator: a count is
//! deterministic, so unlike a time it can be a test.

use crate::common::At;
use oauth1_signer::{Consumer, Nonce, Request, Signer, Timestamp, Token};
use std::future::Future;
use std::sync::Mutex;
use std::task::{Context, Poll, Waker};
use url::Url;

fn allocations<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let mut value = None;
    let info = allocation_counter::measure(|| value = Some(f()));
    (value.expect("the closure ran"), info.count_total)
}

/// The X API sample's consumer key and secret, its token and token secret.
const CONSUMER: (&str, &str) = (
    "xvz1evFS4wEEPTGEFPHBog",
    "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
);
const TOKEN: (&str, &str) = (
    "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
    "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
);

/// A nonce store that records in room made up front, so that recording a nonce allocates
/// nothing: what is counted is the verifier's own. (The memory store's shards allocate their
/// tables as they fill; its unit tests count what an insert into a shard with room costs.)
struct Preallocated(Mutex<Vec<([u8; 64], usize, u64)>>);

impl Preallocated {
    fn new() -> Self {
        Preallocated(Mutex::new(Vec::with_capacity(8)))
    }
}

impl oauth1_server::NonceStore for Preallocated {
    fn insert(
        &self,
        nonce: &oauth1_server::NonceKey<'_>,
        _now: Timestamp,
        _expires_at: Timestamp,
    ) -> impl Future<Output = Result<bool, oauth1_server::StoreError>> + Send {
        let mut recorded = self.0.lock().unwrap();
        let mut bytes = [0; 64];
        bytes[..nonce.nonce.len()].copy_from_slice(nonce.nonce);
        let entry = (bytes, nonce.nonce.len(), nonce.timestamp.as_secs());
        let new = !recorded.contains(&entry);
        if new {
            assert!(recorded.len() < recorded.capacity(), "room made up front");
            recorded.push(entry);
        }
        std::future::ready(Ok(new))
    }
}

/// Verifies the X API sample signed with `token` twice, each time with its own nonce, and
/// counts the allocations of the second: the first keyed the HMAC the second finds.
fn second_verification(
    credentials: oauth1_server::MemoryCredentials,
    token: &str,
) -> (oauth1_server::Verified, u64) {
    use oauth1_server::Verifier;

    let signer =
        Signer::new(Consumer::new(CONSUMER.0, CONSUMER.1)).with_token(Token::new(token, TOKEN.1));
    let url = Url::parse("https://api.twitter.com/1.1/statuses/update.json?include_entities=true")
        .unwrap();
    let request = Request::from_url("POST", &url).unwrap().with_form_body(
        b"status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21",
    );
    let timestamp = Timestamp::new(1_318_622_958);
    let header = |nonce: &str| {
        let nonce = Nonce::new(nonce).unwrap();
        signer
            .sign(&request, &nonce, timestamp)
            .unwrap()
            .authorization()
    };
    let (first, second) = (
        header("kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg"),
        header("n2"),
    );
    let verifier = Verifier::new(credentials, Preallocated::new());
    verifier
        .at(timestamp)
        .blocking()
        .verify(&request, Some(&first))
        .unwrap();
    allocations(|| {
        verifier
            .at(timestamp)
            .blocking()
            .verify(&request, Some(&second))
            .unwrap()
    })
}

/// W5 of the benchmarks: verifying the X API sample, each request with its own nonce.
#[test]
fn verifying_the_x_api_sample_allocates_twice() {
    let mut credentials = oauth1_server::MemoryCredentials::new();
    credentials.add_consumer(CONSUMER.0, CONSUMER.1);
    credentials.add_token(CONSUMER.0, TOKEN.0, TOKEN.1);
    let (verified, count) = second_verification(credentials, TOKEN.0);
    assert_eq!(verified.consumer_key(), CONSUMER.0);
    // The parameters and their index, the header's decoded straight into them; the
    // signature's copy is held in place (an HMAC's is at most 88 bytes). The consumer key
    // and token returned are read from the parameters; the base string is hashed as it is
    // written, never built; the secrets the store hands out share their bytes with the
    // store's; the HMAC keyed for the first request is kept, so no key is made.
    assert_eq!(count, 2, "{count} allocations to verify");
}

/// A token issued to a user: its owner is returned too, one allocation more. The credential
/// the store hands out is taken apart for it, not copied again.
#[test]
fn verifying_with_a_token_that_has_an_owner_allocates_once_more() {
    use oauth1_server::{MemoryCredentials, TokenCredential, TokenStore};

    let mut credentials = MemoryCredentials::new();
    credentials.add_consumer(CONSUMER.0, CONSUMER.1);
    let saved = TokenStore::save_token(
        &credentials,
        CONSUMER.0,
        "owned-token",
        TokenCredential::access(TOKEN.1).with_owner("frank"),
    );
    // The memory store saves at once.
    assert!(matches!(
        std::pin::pin!(saved).poll(&mut Context::from_waker(Waker::noop())),
        Poll::Ready(Ok(()))
    ));
    let (verified, count) = second_verification(credentials, "owned-token");
    assert_eq!(verified.resource_owner(), Some("frank"));
    assert_eq!(
        count, 3,
        "{count} allocations to verify with an owned token"
    );
}

/// A request with more parameters than the limit is refused before its parameters are
/// decoded or room is made for them: what it costs the server does not grow with them.
#[test]
fn too_many_parameters_are_refused_before_room_is_made_for_them() {
    use oauth1_server::{MemoryCredentials, MemoryNonceStore, Verifier};

    let verifier = Verifier::new(MemoryCredentials::new(), MemoryNonceStore::new());
    let url = Url::parse("https://api.example.com/upload").unwrap();
    // 100,000 parameters in 400 kB, against the default limit of 1,024.
    let body = "a=1&".repeat(100_000);
    let request = Request::from_url("POST", &url)
        .unwrap()
        .with_form_body(body.as_bytes());
    let header = "OAuth oauth_consumer_key=\"ck\", oauth_signature_method=\"HMAC-SHA1\", oauth_timestamp=\"1\", oauth_nonce=\"n\", oauth_signature=\"s\"";
    let info = allocation_counter::measure(|| {
        let error = verifier
            .at(Timestamp::new(1))
            .blocking()
            .verify(&request, Some(header))
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "the request has more than 1024 parameters"
        );
    });
    assert!(
        info.bytes_max < 16 * 1024,
        "{} bytes held at once to refuse it",
        info.bytes_max
    );
}

/// A verification's future is moved whole (and boxed by a `tower` service): what it holds
/// is copied at each move. Held to a bound with room, so that a value held twice (an
/// argument copied into a local, a value moved out but still in scope at an await) is seen.
#[test]
fn a_verification_holds_what_it_needs_once() {
    use oauth1_server::{MemoryCredentials, MemoryNonceStore, Verifier};
    let verifier = Verifier::new(MemoryCredentials::new(), MemoryNonceStore::new());
    let request = Request::new("GET", "https://api.example.com/a?b=c").unwrap();
    let verifying = verifier.verify(&request, None);
    let size = std::mem::size_of_val(&verifying);
    assert!(size <= 1024, "{size} bytes");
}

/// The same of the `tower` layer's future (a form POST, whose body is read).
#[cfg(feature = "tower")]
#[test]
fn the_layer_holds_what_it_needs_once() {
    use bytes::Bytes;
    use http_body_util::Full;
    use oauth1_server::tower::VerifyLayer;
    use oauth1_server::{MemoryCredentials, MemoryNonceStore, Verifier};
    use tower::{service_fn, Layer, Service};

    let verifier = Verifier::new(MemoryCredentials::new(), MemoryNonceStore::new());
    let mut service = VerifyLayer::new(verifier, "https://api.example.com")
        .unwrap()
        .layer(service_fn(|_: http::Request<Full<Bytes>>| async {
            Ok::<_, std::convert::Infallible>(http::Response::new(Full::<Bytes>::default()))
        }));
    let request = http::Request::post("/a?b=c")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Full::from("d=e"))
        .unwrap();
    let answering = service.call(request);
    let size = std::mem::size_of_val(&*answering);
    assert!(size <= 1450, "{size} bytes");
}

/// The X API sample (a form POST) through the `tower` layer, each request with its own nonce:
/// the allocations of the second, up to the inner service's answer.
#[cfg(feature = "tower")]
#[test]
fn the_layer_allocates_seven_times_for_the_x_api_sample() {
    use bytes::Bytes;
    use http_body_util::Full;
    use oauth1_server::tower::VerifyLayer;
    use oauth1_server::{Clock, Verified, Verifier};
    use tower::{service_fn, Layer, Service};

    let mut credentials = oauth1_server::MemoryCredentials::new();
    credentials.add_consumer(CONSUMER.0, CONSUMER.1);
    credentials.add_token(CONSUMER.0, TOKEN.0, TOKEN.1);
    let timestamp = Timestamp::new(1_318_622_958);
    let verifier =
        Verifier::new(credentials, Preallocated::new()).with_clock(Clock::fixed(timestamp));
    let mut service = VerifyLayer::new(verifier, "https://api.twitter.com")
        .unwrap()
        .layer(service_fn(
            |request: http::Request<Full<Bytes>>| async move {
                assert!(request.extensions().get::<Verified>().is_some());
                Ok::<_, std::convert::Infallible>(http::Response::new(Full::<Bytes>::default()))
            },
        ));
    let signer =
        Signer::new(Consumer::new(CONSUMER.0, CONSUMER.1)).with_token(Token::new(TOKEN.0, TOKEN.1));
    let url = "https://api.twitter.com/1.1/statuses/update.json?include_entities=true";
    let body = "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21";
    let sent = Request::new("POST", url)
        .unwrap()
        .with_form_body(body.as_bytes());
    let received = |nonce: &str| {
        let header = signer
            .sign(&sent, &Nonce::new(nonce).unwrap(), timestamp)
            .unwrap()
            .authorization();
        http::Request::post("/1.1/statuses/update.json?include_entities=true")
            .header("authorization", header)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Full::from(body))
            .unwrap()
    };
    let mut serve = |request| {
        let mut answering = service.call(request);
        match answering
            .as_mut()
            .poll(&mut Context::from_waker(Waker::noop()))
        {
            Poll::Ready(Ok(response)) => assert_eq!(response.status(), 200),
            _ => panic!("the layer answers at once, and 200"),
        }
    };
    serve(received("n1"));
    let request = received("n2");
    let ((), count) = allocations(|| serve(request));
    // The layer's future; the public URL's text (kept by the request as it is); the
    // parameters and their index, with room made for the body its Content-Length announces;
    // the verified request put in the request's extensions (the map, its table, the box).
    // The body, which came in one chunk, is kept as it came.
    assert_eq!(count, 7, "{count} allocations through the layer");
}
