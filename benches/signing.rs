//! Signing, encoding and verifying side by side with the physical floor and with peers.
//!
//! - W1: the X API "Creating a signature" request (published.json).
//! - W2: a GET with 50 query parameters of mixed text (bench.json).
//! - W3: a POST with a 64 KiB form body of mixed text (bench.json).
//! - W4: percent-encoding 1 MiB of (a) ASCII letters, (b) mixed text.
//! - W5: verifying the W1 request, nonce store included.
//!
//! The floor of W1–W3 and W5 is HMAC-SHA1 alone (the `hmac` crate) over the finished base
//! string and key; the floor of W4 is copying the bytes. Every workload is checked before it is
//! timed: the signatures against the fixtures' (computed by the published sources or by Python's
//! standard library), the encodings against the `percent-encoding` crate's. A peer is timed
//! only on the workloads it signs correctly.
//!
//! `cargo bench -p oauth1-benches --bench signing`; `benches/README.md` reports the ratios.

use std::hint::black_box;
use std::time::{Duration, Instant};

use base64::Engine;
use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};
use oauth1_server::{Clock, MemoryNonceStore, Verifier};
use oauth1_signer::parts::Endpoint;
use oauth1_signer::{encode, Request, RequestParts};

#[allow(dead_code)] // the benchmarks share the workloads, and each uses part of them
mod common;

use common::{hmac_sha1, peer_authorization, Workload};

impl Workload {
    /// The floor's inputs: the finished base string and key.
    fn base_string_and_key(&self) -> (String, Vec<u8>) {
        let signed = self
            .signer
            .sign(&self.request(), &self.nonce, self.timestamp)
            .unwrap();
        (
            signed.base_string().as_str().to_owned(),
            self.signer.key().expose().to_vec(),
        )
    }

    /// [`peer_inputs`](Self::peer_inputs) from the URL string `url` and the body, parsed and
    /// decoded with the `url` crate.
    fn peer_inputs_parsed(&self, url: &str) -> (String, Vec<(String, String)>) {
        let parsed = url::Url::parse(url).unwrap();
        let base = parsed[..url::Position::AfterPath].to_owned();
        let params = parsed
            .query_pairs()
            .chain(url::form_urlencoded::parse(self.body()))
            .map(|(n, v)| (n.into_owned(), v.into_owned()))
            .collect();
        (base, params)
    }
}

fn peer_signs_correctly(w: &Workload) -> bool {
    let (uri, params) = w.peer_inputs();
    let header = peer_authorization(w, &uri, &params);
    let expected = encode::encode(w.signature.as_bytes()).to_string();
    header.contains(&format!("oauth_signature=\"{expected}\""))
}

fn signing(c: &mut Criterion) {
    let workloads = [common::w1(), common::w2(), common::w2p(), common::w3()];
    for w in &workloads {
        let mut group = c.benchmark_group(w.name);
        let (base_string, key) = w.base_string_and_key();
        assert_eq!(
            base64::engine::general_purpose::STANDARD
                .encode(hmac_sha1(&key, base_string.as_bytes())),
            w.signature,
            "{}: the floor computes the signature",
            w.name
        );
        group.bench_function("floor: HMAC-SHA1 of base string", |b| {
            b.iter(|| hmac_sha1(black_box(&key), black_box(base_string.as_bytes())));
        });
        group.bench_function("oauth1-signer: sign", |b| {
            let request = w.request();
            b.iter(|| {
                w.signer
                    .sign(black_box(&request), &w.nonce, w.timestamp)
                    .unwrap()
            });
        });
        group.bench_function("oauth1-signer: sign + header", |b| {
            let request = w.request();
            b.iter(|| {
                w.signer
                    .sign(black_box(&request), &w.nonce, w.timestamp)
                    .unwrap()
                    .authorization()
            });
        });
        group.bench_function("oauth1-signer: parse URL + sign + header", |b| {
            b.iter(|| {
                let request = Request::new(&w.case.method, black_box(&w.case.url)).unwrap();
                let request = if w.case.body.is_some() {
                    request.with_form_body(w.body())
                } else {
                    request
                };
                w.signer
                    .sign(&request, &w.nonce, w.timestamp)
                    .unwrap()
                    .authorization()
            });
        });
        parts_rows(&mut group, w);
        if peer_signs_correctly(w) {
            let (uri, params) = w.peer_inputs();
            // Outside the loop: the URL without its query and the decoded pairs, owned. Inside:
            // the peer's credentials, builder and parameter list, the signature, the header.
            group.bench_function("oauth1-request: header", |b| {
                b.iter(|| peer_authorization(w, black_box(&uri), black_box(&params)));
            });
            // Like for like with this crate's wire path: the peer given the same URL string
            // and body, parsed and decoded with the `url` crate as its users would, then its
            // header.
            let (uri, params) = w.peer_inputs_parsed(&w.case.url);
            assert_eq!(
                peer_authorization(w, &uri, &params),
                {
                    let (uri, params) = w.peer_inputs();
                    peer_authorization(w, &uri, &params)
                },
                "{}: the peer's parsed inputs",
                w.name
            );
            group.bench_function("oauth1-request: parse URL + header", |b| {
                b.iter(|| {
                    let (uri, params) = w.peer_inputs_parsed(black_box(&w.case.url));
                    peer_authorization(w, &uri, &params)
                });
            });
        } else {
            eprintln!("{}: oauth1-request signs it wrongly; not timed", w.name);
        }
        group.finish();
    }
}

/// The rows of a request given by its parts: built once, and built with everything else
/// inside the loop (like for like with the peer's row).
fn parts_rows(group: &mut BenchmarkGroup<'_, WallTime>, w: &Workload) {
    // Signing alone, the request built beforehand (outside the loop): what signing costs
    // a client that reuses a request. Not the peer's row's work; see the next one.
    group.bench_function("oauth1-signer: parts built once: sign + header", |b| {
        let parts = w.parts();
        let signed = w.signer.sign_parts(&parts, &w.nonce, w.timestamp).unwrap();
        assert_eq!(
            signed.signature().as_str(),
            w.signature,
            "{}: parts",
            w.name
        );
        b.iter(|| {
            w.signer
                .sign_parts(black_box(&parts), &w.nonce, w.timestamp)
                .unwrap()
                .authorization()
        });
    });
    // Like for like with "oauth1-request: header" as a client runs: the same input (the URL
    // without its query and the decoded pairs, owned strings made outside the loop), and
    // inside the loop the request built from its parts, signed, and its header. The signer
    // is the client's, made once outside the loop and kept for all its requests, as the
    // peer's client keeps its credential strings: it keyed its HMAC then, where the peer keys
    // one for every request (the last row builds the signer inside the loop too).
    let (base, query, form) = w.parts_inputs();
    let signer = w.signer.clone();
    header_row(
        group,
        w,
        "oauth1-signer: from parts, signer kept: header",
        || {
            let parts = RequestParts::new(&w.case.method, black_box(&base)).unwrap();
            w.header_signed_by(&signer, parts, black_box(&query), black_box(&form))
        },
    );
    // The same, the URL read once too, outside the loop, as an `Endpoint` a client keeps for
    // the requests it sends there: inside the loop, the request at the endpoint from the
    // decoded pairs, signed, and its header.
    let endpoint = Endpoint::new(&base).unwrap();
    header_row(
        group,
        w,
        "oauth1-signer: from parts, endpoint and signer kept: header",
        || {
            let parts = RequestParts::at(&w.case.method, black_box(&endpoint)).unwrap();
            w.header_signed_by(&signer, parts, black_box(&query), black_box(&form))
        },
    );
    // The same with everything both build for one request inside the loop: the credentials
    // too (here the signer, which keys the HMAC), the request from its parts, the signature,
    // the header.
    header_row(
        group,
        w,
        "oauth1-signer: from parts, all built: header",
        || w.header_from_parts(black_box(&base), black_box(&query), black_box(&form)),
    );
}

/// A row whose every iteration makes the workload's Authorization header with `header`,
/// which is checked first to carry the workload's signature.
fn header_row(
    group: &mut BenchmarkGroup<'_, WallTime>,
    w: &Workload,
    name: &str,
    header: impl Fn() -> String,
) {
    let expected = encode::encode(w.signature.as_bytes()).to_string();
    assert!(
        header().contains(&format!("oauth_signature=\"{expected}\"")),
        "{}: {name}",
        w.name
    );
    group.bench_function(name, |b| b.iter(&header));
}

/// RFC 3986 unreserved: everything else is encoded.
const RFC3986: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

fn encoding(c: &mut Criterion) {
    const MIB: usize = 1 << 20;
    let letters: Vec<u8> = (0..MIB)
        .map(|i| b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[i % 52])
        .collect();
    let mixed = common::mixed_text(MIB);
    let mut group = c.benchmark_group("W4");
    group.throughput(Throughput::Bytes(MIB as u64));
    for (name, input) in [("letters", &letters), ("mixed", &mixed)] {
        let ours = encode::encode(input).to_string();
        let peer: String = percent_encoding::percent_encode(input, RFC3986).collect();
        assert_eq!(
            ours, peer,
            "W4 {name}: the crate and percent-encoding agree"
        );
        let mut out = String::with_capacity(3 * MIB);
        group.bench_with_input(BenchmarkId::new("floor: copy", name), input, |b, i| {
            let mut copy: Vec<u8> = Vec::with_capacity(MIB);
            b.iter(|| {
                copy.clear();
                copy.extend_from_slice(black_box(i));
                black_box(copy.len())
            });
        });
        group.bench_with_input(BenchmarkId::new("oauth1-signer", name), input, |b, i| {
            b.iter(|| {
                out.clear();
                encode::encode(black_box(i)).append_to(&mut out);
                black_box(out.len())
            });
        });
        group.bench_with_input(BenchmarkId::new("percent-encoding", name), input, |b, i| {
            b.iter(|| {
                out.clear();
                out.extend(percent_encoding::percent_encode(black_box(i), RFC3986));
                black_box(out.len())
            });
        });
    }
    group.finish();
}

/// A pool of W1 requests, each with its own nonce: the nonce store sees a new nonce every time.
const POOL: usize = 4096;

fn verifying(c: &mut Criterion) {
    let w = common::w1();
    let headers = w.headers(POOL);
    let credentials = w.credentials();
    let request = w.request();
    {
        let verifier = Verifier::new(&credentials, MemoryNonceStore::new())
            .with_clock(Clock::fixed(w.timestamp));
        for h in &headers[..2] {
            verifier
                .blocking()
                .verify(&request, Some(h))
                .expect("W5 verifies");
        }
        assert!(
            verifier
                .blocking()
                .verify(&request, Some(&headers[0]))
                .is_err(),
            "W5: a replay is refused"
        );
    }
    let mut group = c.benchmark_group("W5");
    let (base_string, key) = w.base_string_and_key();
    group.bench_function("floor: HMAC-SHA1 of base string", |b| {
        b.iter(|| hmac_sha1(black_box(&key), black_box(base_string.as_bytes())));
    });
    group.bench_function("oauth1-signer: verify", |b| {
        b.iter_custom(|iters| {
            // A fresh store for every pass over the pool, set up off the clock.
            let mut elapsed = Duration::ZERO;
            let mut left = iters;
            while left > 0 {
                let n = usize::try_from(left.min(POOL as u64)).unwrap();
                let verifier = Verifier::new(&credentials, MemoryNonceStore::new())
                    .with_clock(Clock::fixed(w.timestamp));
                let start = Instant::now();
                for h in &headers[..n] {
                    verifier
                        .blocking()
                        .verify(black_box(&request), Some(h))
                        .unwrap();
                }
                elapsed += start.elapsed();
                left -= n as u64;
            }
            elapsed
        });
    });
    group.finish();
}

criterion_group!(benches, signing, encoding, verifying);
criterion_main!(benches);
