//! No secret in `Debug` output or in error messages: every public type of the server that
//! holds a secret is formatted, and every error is produced with secrets in play.

use oauth1_server::{MemoryCredentials, MemoryNonceStore, Policy, Verifier};
use oauth1_signer::{Nonce, Request, SignatureMethod, Timestamp};

use crate::common::At;
use crate::hidden::{assert_hidden, debug, error, signer, CS, NOW, SERVER, TS};

fn signed_plaintext() -> (Request<'static>, String) {
    let request = Request::new("GET", "https://example.com/p?a=1").unwrap();
    let header = signer(SignatureMethod::Plaintext)
        .sign(&request, &Nonce::new("n").unwrap(), Timestamp::new(NOW))
        .unwrap()
        .authorization();
    (request, header)
}

#[test]
fn the_verifier_its_results_and_its_errors() {
    let mut credentials = MemoryCredentials::new();
    credentials.add_consumer("ck", CS);
    credentials.add_token("ck", "tk", TS);
    debug("MemoryCredentials", &credentials);
    debug(
        "ConsumerCredential",
        &oauth1_server::ConsumerCredential::from_secret(CS),
    );
    let verifier = Verifier::new(credentials, MemoryNonceStore::new())
        .with_policy(Policy::default().allow_plaintext(true));
    debug("Verifier", &verifier);

    let (request, header) = signed_plaintext();
    let identity = verifier
        .at(Timestamp::new(NOW))
        .blocking()
        .verify(&request, Some(&header))
        .unwrap();
    debug("Verified", &identity);
    let replay = verifier
        .at(Timestamp::new(NOW))
        .blocking()
        .verify(&request, Some(&header))
        .unwrap_err();
    error("a replay", &replay);

    // The server holds another secret: the PLAINTEXT signature received is the client's key,
    // and neither it nor the server's key is in the error or the problem report.
    let mut other = MemoryCredentials::new();
    other.add_consumer("ck", SERVER);
    other.add_token("ck", "tk", TS);
    let err = Verifier::new(other, MemoryNonceStore::new())
        .with_policy(Policy::default().allow_plaintext(true))
        .at(Timestamp::new(NOW))
        .blocking()
        .verify(&request, Some(&header))
        .unwrap_err();
    error("a bad PLAINTEXT signature", &err);
    if let Some(problem) = err.problem() {
        debug("Problem", &problem);
        assert_hidden("the problem report", &problem.to_urlencoded());
    }
}

#[cfg(feature = "tower")]
#[test]
fn the_tower_layer() {
    let mut credentials = MemoryCredentials::new();
    credentials.add_consumer("ck", CS);
    let verifier = Verifier::new(credentials, MemoryNonceStore::new());
    let layer = oauth1_server::tower::VerifyLayer::new(verifier, "https://example.com").unwrap();
    debug("VerifyLayer", &layer);
    let service = tower::Layer::layer(&layer, ());
    debug("VerifyService", &service);
}

#[cfg(feature = "redis")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_redis_stores_and_their_errors() {
    use oauth1_server::{BlockingRedisNonceStore, NonceKey, NonceStore, RedisNonceStore};

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
    let temporary = oauth1_server::RedisTemporaryStore::open(&url).unwrap();
    debug("RedisTemporaryStore", &temporary);
    let err = oauth1_server::TemporaryStore::get(&temporary, "token")
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
