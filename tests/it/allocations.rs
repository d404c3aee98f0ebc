//! Heap allocations per signing, counted by a global allocator: a count is deterministic, so
//! unlike a time it can be a test.

use oauth1_signer::{Consumer, Nonce, Request, Signer, Timestamp, Token};
use url::Url;

fn allocations<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let mut value = None;
    let info = allocation_counter::measure(|| value = Some(f()));
    (value.expect("the closure ran"), info.count_total)
}

/// The signer of the X API's "Creating a signature" example.
fn x_api_signer() -> Signer {
    Signer::new(Consumer::new(
        "xvz1evFS4wEEPTGEFPHBog",
        "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
    ))
    .with_token(Token::new(
        "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
        "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
    ))
}

/// W1 of the benchmarks: the X API "Creating a signature" request, from a parsed URL.
#[test]
fn signing_the_x_api_sample_allocates_at_most_three_times() {
    let signer = x_api_signer();
    let url = Url::parse("https://api.twitter.com/1.1/statuses/update.json?include_entities=true")
        .unwrap();
    let request = Request::from_url("POST", &url).unwrap().with_form_body(
        b"status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21",
    );
    let nonce = Nonce::new("kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg").unwrap();
    let timestamp = Timestamp::new(1_318_622_958);

    // A signer keys its HMAC when it first signs, once for all the requests it signs, from
    // a key made on the stack: no allocation more than every signing after that.
    let first = allocations(|| signer.sign(&request, &nonce, timestamp).unwrap());
    assert!(
        first.1 <= 3,
        "{} allocations to sign the first time",
        first.1
    );
    let (result, count) = allocations(|| signer.sign(&request, &nonce, timestamp).unwrap());
    assert_eq!(result.signature().as_str(), "hCtSmYh+iHYCEqBWrE7C7hYmtUk=");
    assert!(count <= 3, "{count} allocations to sign");

    let (header, count) = allocations(|| result.authorization());
    assert!(header.contains("oauth_signature=\"hCtSmYh%2BiHYCEqBWrE7C7hYmtUk%3D\""));
    assert_eq!(count, 1, "the header is one string");

    let (_, count) = allocations(|| {
        Request::new(
            "POST",
            "https://api.twitter.com/1.1/statuses/update.json?include_entities=true",
        )
        .unwrap()
    });
    assert_eq!(count, 1, "reading the URL keeps one string");
}

/// W1 given by its parts, as a client builds it for every request: the URL to send, the
/// parameters' bytes and their entries; the method is one of the common ones, kept without a
/// copy, and the bytes' first room holds both parameters.
#[test]
fn building_the_x_api_sample_from_its_parts_allocates_three_times() {
    let (parts, count) = allocations(|| {
        oauth1_signer::RequestParts::new("POST", "https://api.twitter.com/1.1/statuses/update.json")
            .unwrap()
            .query("include_entities", "true")
            .form(
                "status",
                "Hello Ladies + Gentlemen, a signed OAuth request!",
            )
    });
    assert_eq!(count, 3, "{count} allocations to build the request");
    assert_eq!(
        parts.url(),
        "https://api.twitter.com/1.1/statuses/update.json?include_entities=true"
    );

    // Signed, the request's parameters are copied (their bytes and their entries) beside the
    // protocol parameters; the base string URI is shared with the request, and the HMAC hashes
    // the base string without building it.
    let signer = x_api_signer();
    let nonce = Nonce::new("kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg").unwrap();
    let timestamp = Timestamp::new(1_318_622_958);
    let _ = signer.sign_parts(&parts, &nonce, timestamp).unwrap();
    let (result, count) = allocations(|| signer.sign_parts(&parts, &nonce, timestamp).unwrap());
    assert_eq!(result.signature().as_str(), "hCtSmYh+iHYCEqBWrE7C7hYmtUk=");
    assert_eq!(count, 2, "{count} allocations to sign the request");
}
