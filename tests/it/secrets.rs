//! No secret in `Debug` output, in error messages, or in anything the command line prints:
//! every public type that holds a secret is formatted, and every error is produced with
//! secrets in play.

use std::fmt::Debug;

use oauth1_signer::flow::{TemporaryCredentials, TokenCredentials};
use oauth1_signer::header::Authorization;
use oauth1_signer::verify::{MemoryCredentials, MemoryNonceStore, Policy, Verifier};
use oauth1_signer::{Consumer, Nonce, Request, Secret, SignatureMethod, Signer, Timestamp, Token};

/// Secrets that need no percent-encoding, so an encoded copy would show them as well.
const CS: &str = "CONSUMERsecret1";
const TS: &str = "TOKENsecret2";
const SERVER: &str = "SERVERsecret3";
const NOW: u64 = 1_700_000_000;

fn assert_hidden(what: &str, text: &str) {
    for secret in [CS, TS, SERVER] {
        assert!(!text.contains(secret), "{what} shows {secret}: {text}");
    }
}

/// `{:?}` and `{:#?}`.
fn debug(what: &str, value: &impl Debug) {
    assert_hidden(what, &format!("{value:?}"));
    assert_hidden(what, &format!("{value:#?}"));
}

/// Display and both Debug forms of an error.
fn error(what: &str, value: &(impl Debug + std::fmt::Display)) {
    assert_hidden(what, &value.to_string());
    debug(what, value);
}

fn signer(method: SignatureMethod) -> Signer {
    Signer::new(Consumer::new("ck", CS))
        .with_token(Token::new("tk", TS))
        .with_method(method)
}

fn signed_plaintext() -> (Request<'static>, String) {
    let request = Request::new("GET", "https://example.com/p?a=1").unwrap();
    let header = signer(SignatureMethod::Plaintext)
        .sign(&request, &Nonce::new("n").unwrap(), Timestamp::new(NOW))
        .unwrap()
        .authorization();
    (request, header)
}

#[test]
fn credentials_signers_and_signatures() {
    debug("Secret", &Secret::from(CS));
    debug("Consumer", &Consumer::new("ck", CS));
    debug("Token", &Token::new("tk", TS));
    for method in [SignatureMethod::HmacSha1, SignatureMethod::Plaintext] {
        let signer = signer(method);
        debug("Signer", &signer);
        debug("SigningKey", signer.key());
        let request = Request::new("POST", "https://example.com/p").unwrap();
        let done = signer
            .sign(&request, &Nonce::new("n").unwrap(), Timestamp::new(NOW))
            .unwrap();
        // A PLAINTEXT signature is the key.
        debug("Signed", &done);
        debug("Signature", done.signature());
        debug("Normalized", done.parameters());
        debug("BaseString", done.base_string());
        let parsed = Authorization::parse(&done.authorization()).unwrap();
        debug("Authorization", &parsed);
    }
}

#[cfg(feature = "rsa")]
#[test]
fn private_keys_and_their_errors() {
    let cases: Vec<serde_json::Value> = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/published.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let pem = cases
        .iter()
        .find_map(|c| c["private_key_pem"].as_str())
        .expect("a published RSA case");
    let body: Vec<&str> = pem.lines().filter(|l| !l.starts_with("-----")).collect();
    let key = oauth1_signer::PrivateKey::from_pem(pem).unwrap();
    let shown = format!("{key:?} {key:#?}");
    for line in &body {
        assert!(!shown.contains(line), "PrivateKey shows its PEM: {shown}");
    }
    // A damaged key: the error says what is wrong without quoting it.
    let damaged = pem.replacen(&body[2][..10], "!!!!!!!!!!", 1);
    let err = oauth1_signer::PrivateKey::from_pem(&damaged).unwrap_err();
    let shown = format!("{err} {err:?}");
    for line in &body {
        assert!(
            !shown.contains(&line[..line.len().min(20)]),
            "the error shows the PEM: {shown}"
        );
    }
}

#[test]
fn the_verifier_its_results_and_its_errors() {
    let mut credentials = MemoryCredentials::new();
    credentials.add_consumer("ck", CS);
    credentials.add_token("ck", "tk", TS);
    debug("MemoryCredentials", &credentials);
    debug(
        "ConsumerCredential",
        &oauth1_signer::verify::ConsumerCredential::from_secret(CS),
    );
    let verifier = Verifier::new(credentials, MemoryNonceStore::new())
        .with_policy(Policy::default().allow_plaintext(true));
    debug("Verifier", &verifier);

    let (request, header) = signed_plaintext();
    let identity = verifier
        .verify_at_blocking(&request, Some(&header), Timestamp::new(NOW))
        .unwrap();
    debug("Verified", &identity);
    let replay = verifier
        .verify_at_blocking(&request, Some(&header), Timestamp::new(NOW))
        .unwrap_err();
    error("a replay", &replay);

    // The server holds another secret: the PLAINTEXT signature received is the client's key,
    // and neither it nor the server's key is in the error or the problem report.
    let mut other = MemoryCredentials::new();
    other.add_consumer("ck", SERVER);
    other.add_token("ck", "tk", TS);
    let err = Verifier::new(other, MemoryNonceStore::new())
        .with_policy(Policy::default().allow_plaintext(true))
        .verify_at_blocking(&request, Some(&header), Timestamp::new(NOW))
        .unwrap_err();
    error("a bad PLAINTEXT signature", &err);
    if let Some(problem) = err.problem() {
        debug("Problem", &problem);
        assert_hidden("the problem report", &problem.to_urlencoded());
    }
}

#[test]
fn signing_errors_with_secrets_in_play() {
    let signer = signer(SignatureMethod::Plaintext);
    let nonce = Nonce::new("n").unwrap();
    for (method, url, body) in [
        ("GET", "https://example.com/p?a=%zz", ""),
        ("POST", "https://example.com/p", "oauth_token=x"),
    ] {
        let request = Request::new(method, url)
            .unwrap()
            .with_form_body(body.as_bytes());
        let err = signer
            .sign(&request, &nonce, Timestamp::new(NOW))
            .unwrap_err();
        error("a signing error", &err);
    }
    let err = Request::new("GET", "ftp://example.com/").unwrap_err();
    error("a URL error", &err);
}

#[test]
fn the_three_legged_flow() {
    let temporary = TemporaryCredentials::parse(
        format!("oauth_token=t&oauth_token_secret={TS}&oauth_callback_confirmed=true").as_bytes(),
    )
    .unwrap();
    debug("TemporaryCredentials", &temporary);
    let tokens = TokenCredentials::parse(
        format!("oauth_token=t&oauth_token_secret={TS}&screen_name=x").as_bytes(),
    )
    .unwrap();
    debug("TokenCredentials", &tokens);
    // Answers the flow refuses, each with the secret in them.
    for body in [
        format!("oauth_token=t&oauth_token_secret={TS}"),
        format!("oauth_token=t&oauth_token_secret={TS}&oauth_token_secret={TS}"),
        format!("oauth_token_secret={TS}&oauth_token=%zz"),
    ] {
        if let Err(err) = TemporaryCredentials::parse(body.as_bytes()) {
            error("a flow error", &err);
        }
        if let Err(err) = TokenCredentials::parse(body.as_bytes()) {
            error("a flow error", &err);
        }
    }
}

#[test]
fn the_diagnosis() {
    use oauth1_signer::explain::{Explainer, Observed};
    let signer = signer(SignatureMethod::Plaintext);
    let request = Request::new("GET", "https://example.com/p?a=1").unwrap();
    let nonce = Nonce::new("n").unwrap();
    let explainer = Explainer::new(&signer, &request, &nonce, Timestamp::new(NOW));
    debug("Explainer", &explainer);
    let explanation = explainer
        .explain(&Observed::signature("not-the-key"))
        .unwrap();
    debug("Explanation", &explanation);
    assert_hidden("the explanation", &explanation.detail());
}

#[cfg(feature = "http")]
#[test]
fn a_signed_http_request() {
    let mut request = http::Request::post("https://example.com/p")
        .body(Vec::new())
        .unwrap();
    oauth1_signer::http::sign(&signer(SignatureMethod::Plaintext), &mut request).unwrap();
    debug("http::Request", &request);
}

#[cfg(feature = "tower")]
#[test]
fn the_tower_layer() {
    let mut credentials = MemoryCredentials::new();
    credentials.add_consumer("ck", CS);
    let verifier = Verifier::new(credentials, MemoryNonceStore::new());
    let layer = oauth1_signer::tower::VerifyLayer::new(verifier, "https://example.com").unwrap();
    debug("VerifyLayer", &layer);
    let service = tower::Layer::layer(&layer, ());
    debug("VerifyService", &service);
}

#[cfg(feature = "redis")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_redis_stores_and_their_errors() {
    use oauth1_signer::verify::{BlockingRedisNonceStore, NonceKey, NonceStore, RedisNonceStore};

    let url = format!("redis://:{SERVER}@127.0.0.1:1/");
    let key = NonceKey {
        consumer_key: "ck",
        token: None,
        timestamp: Timestamp::new(NOW),
        nonce: b"n",
    };
    // Nothing listens on port 1: the errors must not show the password in the URL.
    let store = RedisNonceStore::open(&url).unwrap();
    debug("RedisNonceStore", &store);
    let err = store
        .insert(&key, Timestamp::new(NOW), Timestamp::new(NOW + 1))
        .await
        .unwrap_err();
    error("a Redis error", &err);
    let cluster = RedisNonceStore::open_cluster([url.as_str()]).unwrap();
    debug("RedisNonceStore (cluster)", &cluster);
    let err = cluster
        .insert(&key, Timestamp::new(NOW), Timestamp::new(NOW + 1))
        .await
        .unwrap_err();
    error("a Redis Cluster error", &err);
    let temporary = oauth1_signer::verify::RedisTemporaryStore::open(&url).unwrap();
    debug("RedisTemporaryStore", &temporary);
    let err = oauth1_signer::verify::TemporaryStore::get(&temporary, "token")
        .await
        .unwrap_err();
    error("a Redis error of the temporary store", &err);
    let blocking = BlockingRedisNonceStore::open(&url).unwrap();
    debug("BlockingRedisNonceStore", &blocking);
    let err = tokio::task::block_in_place(|| {
        crate::common::at_once(blocking.insert(&key, Timestamp::new(NOW), Timestamp::new(NOW + 1)))
    })
    .unwrap_err();
    error("a blocking Redis error", &err);
    for bad in [
        RedisNonceStore::open(&format!("redis://:{SERVER}@[::1")).unwrap_err(),
        RedisNonceStore::open_cluster([format!("redis://:{SERVER}@[::1").as_str()]).unwrap_err(),
        BlockingRedisNonceStore::open(&format!("redis://:{SERVER}@[::1")).unwrap_err(),
    ] {
        error("a Redis URL error", &bad);
    }
}
