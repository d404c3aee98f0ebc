//! How long a single request can wait on the memory nonce store: nonces recorded one after
//! another on this thread, each timed, and the records that took longer than a few
//! milliseconds listed (those that grew a table, or rebuilt it, while holding the lock every
//! request to that table waits for). Two scenarios:
//!
//! - `fill`: 8.5 million nonces into an empty store, at one second (about 0.4 GB at the end);
//! - `steady`: 5,000 nonces a second for three windows of 601 seconds, each kept 601 seconds,
//!   so that about 3 million are held once the first window has passed; only the records
//!   after it are listed.
//!
//! `cargo bench -p oauth1-server --bench nonce_pauses [-- fill|steady]` (both unless told).

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use oauth1_server::{MemoryNonceStore, NonceKey, NonceStore};
use oauth1_signer::Timestamp;

/// Records `count` new nonces, the `i`th at second `second(i)`, kept 601 seconds; lists the
/// records after the first `settled` that took longer than `long`.
fn run(name: &str, count: u64, second: impl Fn(u64) -> u64, settled: u64, long: Duration) {
    let store = MemoryNonceStore::new();
    let mut slow = Vec::new();
    let start = Instant::now();
    for i in 0..count {
        let (at, nonce) = (Timestamp::new(second(i)), format!("{i:024}"));
        let key = NonceKey {
            consumer_key: "consumer",
            token: Some("token"),
            timestamp: at,
            nonce: nonce.as_bytes(),
        };
        let expires = Timestamp::new(at.as_secs() + 601);
        let timed = Instant::now();
        let recorded =
            pin!(store.insert(&key, at, expires)).poll(&mut Context::from_waker(Waker::noop()));
        let took = timed.elapsed();
        assert!(matches!(recorded, Poll::Ready(Ok(true))), "nonce {i}");
        if i >= settled && took > long {
            slow.push((i, took));
        }
    }
    println!(
        "{name}: {count} nonces recorded in {:.2?}, {} held at the end; {} records over {long:?}",
        start.elapsed(),
        store.len(),
        slow.len()
    );
    if let Some((i, took)) = slow.iter().max_by_key(|(_, took)| *took) {
        println!("  the longest: {took:.2?}, at nonce {i}");
    }
    for (i, took) in slow
        .iter()
        .filter(|(_, took)| *took > Duration::from_millis(20))
    {
        println!("  over 20 ms: {took:.2?} at nonce {i}");
    }
}

fn main() {
    // `cargo bench` passes `--bench`; a scenario's name picks it.
    let only = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    let wanted = |name: &str| only.as_deref().is_none_or(|only| only == name);
    if wanted("fill") {
        run(
            "fill",
            8_500_000,
            |_| 1_000_000,
            0,
            Duration::from_millis(2),
        );
    }
    if wanted("steady") {
        const PER_SECOND: u64 = 5_000;
        run(
            "steady",
            PER_SECOND * 601 * 3,
            |i| 1_000_000 + i / PER_SECOND,
            PER_SECOND * 601,
            Duration::from_millis(5),
        );
    }
}
