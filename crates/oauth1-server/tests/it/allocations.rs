//! Heap allocations per verification, counted by a global allocator: a count is
//! deterministic, so unlike a time it can be a test.

use crate::common::At;
use oauth1_signer::{Consumer, Nonce, Request, Signer, Timestamp, Token};
use url::Url;

fn allocations<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let mut value = None;
    let info = allocation_counter::measure(|| value = Some(f()));
    (value.expect("the closure ran"), info.count_total)
}

/// W5 of the benchmarks: verifying the X API sample, each request with its own nonce.
#[test]
fn verifying_the_x_api_sample_allocates_five_times() {
    use oauth1_server::{MemoryCredentials, MemoryNonceStore, Verifier};

    let (consumer_key, consumer_secret) = (
        "xvz1evFS4wEEPTGEFPHBog",
        "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
    );
    let (token, token_secret) = (
        "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
        "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
    );
    let signer = Signer::new(Consumer::new(consumer_key, consumer_secret))
        .with_token(Token::new(token, token_secret));
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
    let mut credentials = MemoryCredentials::new();
    credentials.add_consumer(consumer_key, consumer_secret);
    credentials.add_token(consumer_key, token, token_secret);
    let verifier = Verifier::new(credentials, MemoryNonceStore::new());
    // The nonce store's first entry makes its table.
    verifier
        .at(timestamp)
        .blocking()
        .verify(&request, Some(&first))
        .unwrap();

    let (request_ok, count) = allocations(|| {
        verifier
            .at(timestamp)
            .blocking()
            .verify(&request, Some(&second))
            .unwrap()
    });
    assert_eq!(request_ok.consumer_key(), consumer_key);
    // The parameters and their index (2), the header's decoded straight into them; the
    // signature's copy (1); the consumer key and token returned (2). The base string is hashed
    // as it is written, never built; the secrets the store hands out share their bytes with
    // the store's; the HMAC keyed for the first request is kept, so no key is made; the nonce
    // store keeps a fingerprint in its table, with nothing to allocate.
    assert_eq!(count, 5, "{count} allocations to verify");
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
