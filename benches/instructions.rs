//! Runs one operation of the benchmarks' workloads a given number of times, for counting its
//! instructions under callgrind: unlike times, the counts repeat exactly on a busy machine.
//! `scripts/instructions` runs it twice per operation and prints instructions per operation.
//!
//! `cargo bench -p oauth1-benches --bench instructions -- OPERATION COUNT`; without
//! arguments (as `cargo bench` runs it), every operation once.
//!
//! Under valgrind, the `sha1` crate finds no SHA extensions and hashes in software, about 1,450
//! instructions per 64-byte block: the HMAC is a larger share of the count than of the time.

#[allow(dead_code)] // the benchmarks share the workloads, and each uses part of them
mod common;

use std::hint::black_box;

use oauth1_server::{Clock, MemoryNonceStore, Verifier};
use oauth1_signer::parts::Endpoint;
use oauth1_signer::{encode, RequestParts};

/// The requests a verification pass goes through, each with its own nonce.
const POOL: usize = 4096;

/// The operations run when none is named. Beside them, any workload of `common::workload`
/// (`w3p`, `w3m`, `w3u`, ...) signed from the wire through `Request::new`
/// (`WORKLOAD-request`) and `oauth1-request`'s header for it (`WORKLOAD-peer`).
const OPERATIONS: [&str; 24] = [
    "w1-sign",
    "w1-header",
    "w1-parts",
    "w2p-parts",
    "w2b-parts",
    "w1-endpoint",
    "w2p-endpoint",
    "w1-parts-all",
    "w2p-parts-all",
    "w1-wire",
    "w2p-wire",
    "w2b-wire",
    "w1-request",
    "w2p-request",
    "w2b-request",
    "w3-request",
    "w3t-request",
    "w2-sign",
    "w3-sign",
    "w3u-sign",
    "w4-letters",
    "w4-mixed",
    "w5-verify",
    "w5-layer",
];

/// The workload of a `WORKLOAD-request` or `WORKLOAD-peer` operation, and which of the two.
fn of_workload(operation: &str) -> Option<(common::Workload, &str)> {
    let (name, row) = operation.rsplit_once('-')?;
    if !matches!(row, "request" | "peer") {
        return None;
    }
    Some((common::workload(name)?, row))
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    match args.as_slice() {
        [operation, count] => {
            let count = count.parse().expect("COUNT is a number");
            assert!(
                OPERATIONS.contains(&operation.as_str()) || of_workload(operation).is_some(),
                "OPERATION is one of {OPERATIONS:?}, or WORKLOAD-request or WORKLOAD-peer"
            );
            run(operation, count);
        }
        _ => {
            for operation in OPERATIONS {
                run(operation, 1);
            }
        }
    }
}

/// Prepares the operation's inputs, then runs it `count` times: the preparation does not
/// depend on `count`, so that the difference of two counts is the operations' own.
fn run(operation: &str, count: usize) {
    match operation {
        "w1-sign" | "w2-sign" | "w3-sign" | "w3u-sign" => {
            let w = match operation {
                "w1-sign" => common::w1(),
                "w2-sign" => common::w2(),
                "w3u-sign" => common::w3u(),
                _ => common::w3(),
            };
            let request = w.request();
            for _ in 0..count {
                black_box(w.signer.sign(black_box(&request), &w.nonce, w.timestamp)).unwrap();
            }
        }
        "w1-parts" | "w2p-parts" | "w2b-parts" | "w1-endpoint" | "w2p-endpoint"
        | "w1-parts-all" | "w2p-parts-all" => {
            // The from-parts rows, from the base URL and the decoded pairs, every time: the
            // request from its parts, signature and header, the signer kept ("parts"); the
            // same at an endpoint read once ("endpoint"); the signer built too ("parts-all").
            let (workload, row) = operation.split_once('-').unwrap_or_default();
            let w = match workload {
                "w1" => common::w1(),
                "w2b" => common::w2b(),
                _ => common::w2p(),
            };
            let (base, query, form) = w.parts_inputs();
            let signer = w.signer.clone();
            let endpoint = Endpoint::new(&base).unwrap();
            match row {
                "parts" => {
                    for _ in 0..count {
                        let parts = RequestParts::new(&w.case.method, black_box(&base)).unwrap();
                        black_box(w.header_signed_by(&signer, parts, &query, &form));
                    }
                }
                "endpoint" => {
                    for _ in 0..count {
                        let parts = RequestParts::at(&w.case.method, black_box(&endpoint)).unwrap();
                        black_box(w.header_signed_by(&signer, parts, &query, &form));
                    }
                }
                _ => {
                    for _ in 0..count {
                        black_box(w.header_from_parts(black_box(&base), &query, &form));
                    }
                }
            }
        }
        "w1-wire" => from_wire(&common::w1(), count),
        "w2p-wire" => from_wire(&common::w2p(), count),
        "w2b-wire" => from_wire(&common::w2b(), count),
        _ if of_workload(operation).is_some() => match of_workload(operation) {
            Some((w, "request")) => request_from_wire(&w, count),
            Some((w, _)) => peer(&w, count),
            None => unreachable!("a workload's operation"),
        },
        "w1-header" => {
            let w = common::w1();
            let signed = w.signer.sign(&w.request(), &w.nonce, w.timestamp).unwrap();
            for _ in 0..count {
                black_box(black_box(&signed).authorization());
            }
        }
        "w4-letters" | "w4-mixed" => {
            const MIB: usize = 1 << 20;
            let input: Vec<u8> = if operation == "w4-letters" {
                (0..MIB)
                    .map(|i| b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[i % 52])
                    .collect()
            } else {
                common::mixed_text(MIB)
            };
            let mut out = String::with_capacity(3 * MIB);
            for _ in 0..count {
                out.clear();
                encode::encode(black_box(&input)).append_to(&mut out);
                black_box(out.len());
            }
        }
        "w5-layer" => through_the_layer(count),
        _ => {
            let w = common::w1();
            let headers = w.headers(POOL);
            let credentials = w.credentials();
            let request = w.request();
            let mut left = count;
            while left > 0 {
                let n = left.min(POOL);
                let verifier = Verifier::new(&credentials, MemoryNonceStore::new())
                    .with_clock(Clock::fixed(w.timestamp));
                for h in &headers[..n] {
                    verifier
                        .blocking()
                        .verify(black_box(&request), Some(h))
                        .unwrap();
                }
                left -= n;
            }
        }
    }
}

/// Verifies the W1 request through the tower layer `count` times, as a server receives it: the
/// requests are made before (a whole pool whatever the count, so that making them does not
/// count), each handed to the layer, which drops it.
fn through_the_layer(count: usize) {
    let w = common::w1();
    let headers = w.headers(POOL);
    let mut left = count;
    while left > 0 {
        let n = left.min(POOL);
        let mut pool = common::received(&w, &headers);
        let mut service = common::layered(&w);
        for request in pool.drain(..n) {
            common::serve_at_once(&mut service, request);
        }
        // The requests left are not dropped: dropping them would count against the
        // difference of two counts.
        std::mem::forget(pool);
        left -= n;
    }
}

/// Signs `w` from the wire `count` times, as the `http` and `reqwest` integrations sign: the
/// URL string, Content-Type and body as sent, read and decoded every time, the signer kept,
/// and the header's value made.
fn from_wire(w: &common::Workload, count: usize) {
    let headers = w.content_type();
    for _ in 0..count {
        black_box(w.header_from_wire(&w.signer, black_box(&w.case.url), &headers));
    }
}

/// Signs `w` from the wire `count` times as most clients write it, the rows `Request::new` of
/// `ratios`: the URL string (query included) read by `Request::new`, the form body as sent,
/// the query and the form decoded, the signature and the header string; the signer kept.
fn request_from_wire(w: &common::Workload, count: usize) {
    for _ in 0..count {
        black_box(w.header_from_request(&w.signer, black_box(&w.case.url)));
    }
}

/// `oauth1-request`'s header for `w` `count` times, as `ratios` times it (the reference of
/// its rows): from the URL without its query and the decoded pairs, made before.
fn peer(w: &common::Workload, count: usize) {
    let (uri, params) = w.peer_inputs();
    for _ in 0..count {
        black_box(common::peer_authorization(w, black_box(&uri), &params));
    }
}
