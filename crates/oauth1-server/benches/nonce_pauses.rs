//! How long a single request can wait on the memory nonce store as it fills: millions of
//! nonces recorded one after another on this thread, each timed, and the records that took
//! longer than two milliseconds listed (the ones that grew a table, whose lock every request
//! to it waits for meanwhile).
//!
//! `cargo bench -p oauth1-server --bench nonce_pauses [-- NONCES]` (8,500,000 unless told,
//! about 1 GB of memory at the end).

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use oauth1_server::{MemoryNonceStore, NonceKey, NonceStore};
use oauth1_signer::Timestamp;

fn main() {
    // `cargo bench` passes `--bench`; a number is the nonces.
    let nonces: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(8_500_000);
    let store = MemoryNonceStore::new();
    let (now, expires) = (Timestamp::new(1_000_000), Timestamp::new(1_000_601));
    let mut long = Vec::new();
    let start = Instant::now();
    for i in 0..nonces {
        let nonce = format!("{i:024}");
        let key = NonceKey {
            consumer_key: "consumer",
            token: Some("token"),
            timestamp: now,
            nonce: nonce.as_bytes(),
        };
        let timed = Instant::now();
        let recorded =
            pin!(store.insert(&key, now, expires)).poll(&mut Context::from_waker(Waker::noop()));
        let took = timed.elapsed();
        assert!(matches!(recorded, Poll::Ready(Ok(true))), "nonce {i}");
        if took > Duration::from_millis(2) {
            long.push((i, took));
        }
    }
    println!(
        "{nonces} nonces recorded in {:.2?}; {} records took over 2 ms",
        start.elapsed(),
        long.len()
    );
    let longest = long.iter().max_by_key(|(_, took)| *took);
    if let Some((i, took)) = longest {
        println!("the longest: {took:.2?}, at nonce {i}");
    }
    for (i, took) in long
        .iter()
        .filter(|(_, took)| *took > Duration::from_millis(20))
    {
        println!("  over 20 ms: {took:.2?} at nonce {i}");
    }
}
