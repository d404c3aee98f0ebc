//! The like-for-like ratios, measured in rounds: within each round every row of a workload is
//! timed in turn (in an order that rotates from round to round) for about a millisecond, its
//! time divided by the reference row's time in the same round, and the median of those
//! ratios over the rounds reported, with the spread of the middle 80%. On a shared machine
//! whose speed drifts by tens of percent from one second to the next, times taken in separate
//! runs (or in criterion's rows, one after the other) compare badly; rows a millisecond apart
//! see the same machine.
//!
//! The rows are `signing.rs`'s, the same work inside the timed loop, from the same inputs made
//! outside it (each row says what it builds):
//! - W1, W2p, W2b, W3, W3p, W3m, W3u, W3t, W3l against `oauth1-request`'s header from the URL
//!   without its query and the decoded pairs (its fastest row, which the rows from the wire are
//!   held to as well); and against the HMAC-SHA1 floor (the finished base string and the key,
//!   keyed every time).
//! - W5, verifying the W1 request (memory stores, a new nonce every time), against signing
//!   the same request with a kept signer, with and without its header; beside them, parsing
//!   the header alone, and the verifier's first step alone (`server::collect`: the header
//!   parsed and decoded into the parameters with the query's and the form body's).
//!
//! `cargo bench -p oauth1-benches --bench ratios [-- ROUNDS] [W1 W2p W2b W3 W3p W3m W3u W3t W3l
//! W5]` (200 rounds and every workload unless told).

#[allow(dead_code)] // the benchmarks share the workloads, and each uses part of them
mod common;

use std::fmt::Write;
use std::hint::black_box;
use std::time::{Duration, Instant};

use oauth1_server::{Clock, MemoryNonceStore, Verifier};
use oauth1_signer::encode;
use oauth1_signer::header::Authorization;
use oauth1_signer::parts::Endpoint;
use oauth1_signer::RequestParts;

use common::{
    hmac_sha1, layered, peer_authorization, received, serve_at_once, Making, Ok200, Workload,
};

/// One row: a name and one iteration of its work.
struct Row<'a> {
    name: &'static str,
    run: Box<dyn FnMut() + 'a>,
}

impl<'a> Row<'a> {
    fn new(name: &'static str, run: impl FnMut() + 'a) -> Self {
        Row {
            name,
            run: Box::new(run),
        }
    }
}

/// How long a row runs in each round.
const SLICE: Duration = Duration::from_millis(1);

/// Times `rows` in `rounds` rounds and prints, for each, the median time of one iteration and
/// the median ratio of its time to each of `references`' (indices into `rows`, with the names
/// the ratios are shown as) in the same round, with the 10th and 90th percentiles of that
/// ratio.
fn measure(title: &str, rows: &mut [Row<'_>], references: &[(usize, &str)], rounds: usize) {
    // Iterations per round: enough for about a slice, found once.
    let iterations: Vec<u32> = rows
        .iter_mut()
        .map(|row| {
            let mut n = 1u32;
            loop {
                let start = Instant::now();
                for _ in 0..n {
                    (row.run)();
                }
                let elapsed = start.elapsed();
                if elapsed >= SLICE / 4 || n >= 1 << 20 {
                    // n iterations took `elapsed`: as many as fit a slice.
                    let per_slice = SLICE.as_nanos() * u128::from(n) / elapsed.as_nanos().max(1);
                    return u32::try_from(per_slice).unwrap_or(u32::MAX).max(1);
                }
                n *= 2;
            }
        })
        .collect();
    let mut times: Vec<Vec<f64>> = vec![Vec::with_capacity(rounds); rows.len()];
    for round in 0..rounds {
        for k in 0..rows.len() {
            let i = (k + round) % rows.len();
            let row = &mut rows[i];
            let start = Instant::now();
            for _ in 0..iterations[i] {
                (row.run)();
            }
            times[i].push(start.elapsed().as_secs_f64() / f64::from(iterations[i]));
        }
    }
    println!(
        "{title} ({rounds} rounds of about {} ms a row)",
        SLICE.as_millis()
    );
    for (i, row) in rows.iter().enumerate() {
        let mut line = format!("  {:<58} {:>10}", row.name, shown(median(&times[i])));
        for &(r, label) in references {
            if r == i {
                let _ = write!(line, "  {:<28}", "(reference)");
                continue;
            }
            let ratios: Vec<f64> = (0..rounds).map(|k| times[i][k] / times[r][k]).collect();
            let (low, mid, high) = spread(&ratios);
            let _ = write!(line, "  {mid:>5.2}x {label:<8} [{low:.2}-{high:.2}]");
        }
        println!("{line}");
    }
}

fn median(values: &[f64]) -> f64 {
    spread(values).1
}

/// The 10th percentile, the median and the 90th percentile.
fn spread(values: &[f64]) -> (f64, f64, f64) {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    // The value a `percent` of the way from the least to the greatest.
    let at = |percent: usize| sorted[(sorted.len() - 1) * percent / 100];
    (at(10), at(50), at(90))
}

fn shown(seconds: f64) -> String {
    if seconds >= 1e-3 {
        format!("{:.2} ms", seconds * 1e3)
    } else if seconds >= 1e-6 {
        format!("{:.2} µs", seconds * 1e6)
    } else {
        format!("{:.0} ns", seconds * 1e9)
    }
}

/// Signing rows of a workload, each checked to give the fixture's signature before it is timed.
fn signing(w: &Workload, rounds: usize) {
    let expected = format!(
        "oauth_signature=\"{}\"",
        encode::encode(w.signature.as_bytes())
    );
    let (uri, params) = w.peer_inputs();
    let (base, query, form) = w.parts_inputs();
    let signer = w.signer.clone();
    let endpoint = Endpoint::new(&base).unwrap();
    let reference = w.signer.sign(&w.request(), &w.nonce, w.timestamp).unwrap();
    let base_string = reference.base_string().as_str().to_owned();
    let key = w.signer.key().expose().to_vec();
    let at_endpoint = || {
        let parts = RequestParts::at(&w.case.method, &endpoint).unwrap();
        w.header_signed_by(&signer, parts, &query, &form)
    };
    let from_url = || {
        let parts = RequestParts::new(&w.case.method, &base).unwrap();
        w.header_signed_by(&signer, parts, &query, &form)
    };
    let all_built = || w.header_from_parts(&base, &query, &form);
    let headers = w.content_type();
    // What the integrations write: the header's value, made once.
    let from_wire = || w.header_from_wire(&signer, &w.case.url, &headers);
    let request_from_wire = || w.header_from_request(&signer, &w.case.url);
    let peer = || peer_authorization(w, &uri, &params);
    for (name, header) in [
        ("from the wire", from_wire().to_str().unwrap().to_owned()),
        ("a Request from the wire", request_from_wire()),
        ("at an endpoint", at_endpoint()),
        ("from the URL", from_url()),
        ("all built", all_built()),
        ("the peer", peer()),
    ] {
        assert!(header.contains(&expected), "{}: {name}", w.name);
    }
    let mut rows = [
        // Outside: the URL without its query and the decoded pairs, owned. Inside: the
        // peer's credentials, builder and parameter list, the signature, the header.
        Row::new("oauth1-request: header", || {
            black_box(peer());
        }),
        // Outside: the finished base string and the key. Inside: keying the HMAC and
        // hashing the base string.
        Row::new("floor: HMAC-SHA1 of base string", || {
            black_box(hmac_sha1(
                black_box(&key),
                black_box(base_string.as_bytes()),
            ));
        }),
        // Outside: the signer and the endpoint (the URL read once). Inside: the request at
        // the endpoint from the decoded pairs, the signature, the header.
        Row::new(
            "oauth1-signer: from parts, endpoint and signer kept",
            || {
                black_box(at_endpoint());
            },
        ),
        // Outside: the signer. Inside: the request from the base URL and the decoded pairs,
        // the signature, the header.
        Row::new("oauth1-signer: from parts, signer kept", || {
            black_box(from_url());
        }),
        // Inside: the signer too (which keys the HMAC), the request, the signature, the header.
        Row::new("oauth1-signer: from parts, all built", || {
            black_box(all_built());
        }),
        // From the wire, as the `http` and `reqwest` integrations sign (`http::sign_url`):
        // outside, the signer and the URL string, Content-Type and body as sent; inside, the
        // URL read and its query and the form body decoded, the signature, the header value.
        Row::new("oauth1-signer: from the wire (http::sign_url)", || {
            black_box(from_wire());
        }),
        // The same through `Request::new` and `Signer::sign`, what most clients write.
        Row::new("oauth1-signer: from the wire (Request::new)", || {
            black_box(request_from_wire());
        }),
    ];
    measure(w.name, &mut rows, &[(0, "peer"), (1, "floor")], rounds);
}

/// A pool of W1 requests, each with its own nonce: the nonce store sees a new nonce every time.
const POOL: usize = 4096;

fn verifying(rounds: usize) {
    let w = common::w1();
    let headers = w.headers(POOL);
    let credentials = w.credentials();
    let request = w.request();
    let fresh = || {
        Verifier::new(&credentials, MemoryNonceStore::new()).with_clock(Clock::fixed(w.timestamp))
    };
    let mut verifier = fresh();
    let mut next = 0;
    // The parse walks the pool as the verification does.
    let mut parsed = 0;
    let mut collected = 0;
    let mut service = layered(&w);
    let mut pool = received(&w, &headers);
    let mut served = 0;
    let making = Making::new(&w);
    let mut made = 0;
    let mut fresh_service = layered(&w);
    let mut fresh_served = 0;
    let limits = oauth1_signer::header::Limits::default();
    let mut rows = [
        // Outside: the signer and the parsed request. Inside: the signature.
        Row::new("oauth1-signer: sign", || {
            black_box(w.signer.sign(black_box(&request), &w.nonce, w.timestamp)).unwrap();
        }),
        // The same and the header.
        Row::new("oauth1-signer: sign + header", || {
            black_box(
                w.signer
                    .sign(black_box(&request), &w.nonce, w.timestamp)
                    .unwrap()
                    .authorization(),
            );
        }),
        // Outside: the signed headers. Inside: the next one parsed (`Authorization::parse`, the same
        // parser the verifier runs, decoding into a header of its own): the part of verifying
        // that signing does not do, for scale.
        Row::new("oauth1-signer: parse the header", || {
            black_box(Authorization::parse(black_box(&headers[parsed % POOL])).unwrap());
            parsed += 1;
        }),
        // Outside: the parsed request and the signed headers. Inside: the verifier's first
        // step, the request's parameters collected with the next header's (`server::collect`:
        // the header parsed and decoded, the query and the form body decoded).
        Row::new("oauth1-signer: server::collect", || {
            black_box(
                oauth1_signer::server::collect(
                    black_box(&request),
                    Some(&headers[collected % POOL]),
                    &limits,
                )
                .unwrap(),
            );
            collected += 1;
        }),
        // Outside: the received requests (made 4,096 at a time, when the pool is used up, with
        // a new layer and store). Inside: the tower layer's call, up to the inner service's
        // answer: the public URL made from the origin and the request target, the headers
        // read, the form body collected, the request read from them and verified, the
        // verified request put into the request's extensions, the inner service called.
        Row::new("oauth1-server: VerifyService (memory stores)", || {
            if served == POOL {
                service = layered(&w);
                pool = received(&w, &headers);
                served = 0;
            }
            serve_at_once(&mut service, pool.pop().expect("a request left"));
            served += 1;
        }),
        // Outside: the signed headers. Inside: the next received request made (its method,
        // target and headers copied into an `http::Request`, as a server's HTTP parser makes
        // it) and handed to the inner service alone, which answers 200; the request and the
        // answer dropped. The base of the next row.
        Row::new("oauth1-server: request made, Ok200 alone", || {
            serve_at_once(&mut Ok200, making.request(&headers[made % POOL]));
            made += 1;
        }),
        // The same through the layer (a new layer and store made inside, once per 4,096): the
        // difference from the row before is the layer's work on a request fresh in memory, as
        // a server's is.
        Row::new("oauth1-server: request made, VerifyService", || {
            if fresh_served == POOL {
                fresh_service = layered(&w);
                fresh_served = 0;
            }
            serve_at_once(&mut fresh_service, making.request(&headers[fresh_served]));
            fresh_served += 1;
        }),
        // Outside: the credential store, the parsed request, the signed headers. Inside: the
        // verification (header parse, lookups, signature, nonce record); a new store, when the
        // pool is used up, is made inside too, once per 4,096.
        Row::new("oauth1-server: verify (memory stores)", || {
            if next == POOL {
                verifier = fresh();
                next = 0;
            }
            verifier
                .blocking()
                .verify(black_box(&request), Some(&headers[next]))
                .unwrap();
            next += 1;
        }),
    ];
    measure("W5", &mut rows, &[(0, "sign"), (1, "sign+hdr")], rounds);
}

fn main() {
    // `cargo bench` passes `--bench`; a number is the rounds, other words name the workloads.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let rounds = args.iter().find_map(|a| a.parse().ok()).unwrap_or(200);
    let named: Vec<&str> = args
        .iter()
        .filter(|a| a.parse::<usize>().is_err())
        .map(String::as_str)
        .collect();
    let wanted =
        |name: &str| named.is_empty() || named.iter().any(|n| n.eq_ignore_ascii_case(name));
    // Each workload made only when wanted: a run of one loads and checks that one alone. W2
    // has no row: `oauth1-request` signs its names wrongly.
    for (name, make) in common::WORKLOADS {
        if name != "W2" && wanted(name) {
            signing(&make(), rounds);
        }
    }
    if wanted("W5") {
        verifying(rounds);
    }
}
