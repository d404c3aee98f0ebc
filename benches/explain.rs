//! Explaining stays interactive: a request with 20 parameters, observed values that no cause
//! explains, so that every single cause, every pair and every triple of causes is tried (the
//! rows keep their names); and the same search as a server's diagnosis makes it, whose cost
//! `docs/servers.md` states. Then the search's
//! bound: requests of 1 to 1,024 query parameters, and one of 255 and a 0.93 MB form body (a
//! server's default limits), each with a mistake found among the single causes (the typical
//! diagnosis) and with a signature nothing explains (the worst: the whole search, or its
//! budget). Inside the timed loop: the explanation, from the request already parsed; outside:
//! building the request and the signatures.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use oauth1_signer::explain::{Cause, Explainer, Observed, Verdict};
use oauth1_signer::{Consumer, Nonce, Realm, Request, Signer, Timestamp, Token};

const URL: &str = "https://API.Example.com:443/1.1/statuses/update.json?include_entities=true\
    &q=a%20b&tag=~x&tag=perl&c%40=2&c2=1&a=&org=acme&org-country=US&path=a%2Fb";
const BODY: &[u8] = b"status=Hello%20Ladies%20%2B%20Gentlemen%21&lat=37.7&long=-122.4\
    &place=caf%C3%A9&id=1&id=2&flag&x=it%27s&y=a+b&z=%281%29";

fn explain(c: &mut Criterion) {
    let signer = Signer::new(Consumer::new(
        "xvz1evFS4wEEPTGEFPHBog",
        "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
    ))
    .with_token(Token::new(
        "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
        "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
    ))
    .with_realm(Realm::new("Example").unwrap());
    let request = Request::new("POST", URL).unwrap().with_form_body(BODY);
    let nonce = Nonce::new("kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg").unwrap();
    let timestamp = Timestamp::new(1_318_622_958);
    let reference = signer.sign(&request, &nonce, timestamp).unwrap();
    assert_eq!(
        reference.parameters().len() - 6,
        20,
        "20 request parameters"
    );
    let explainer = Explainer::new(&signer, &request, &nonce, timestamp).with_url_as_written(URL);

    // Signed with another consumer secret: nothing reproduces it.
    let other = Signer::new(Consumer::new("xvz1evFS4wEEPTGEFPHBog", "another secret")).with_token(
        Token::new(
            "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
            "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
        ),
    );
    let wrong = other.sign(&request, &nonce, timestamp).unwrap();
    let by_signature = Observed::signature(wrong.signature().as_str());
    unexplained(
        c,
        "explain 20 parameters, signature, all singles and pairs",
        &explainer,
        &by_signature,
    );

    // As a server's diagnosis makes it (`Verifier::with_diagnosis`): the request as received,
    // without the URL as the client wrote it, against the client's signature.
    unexplained(
        c,
        "diagnosis as a server makes it, 20 parameters, signature, all singles and pairs",
        &Explainer::new(&signer, &request, &nonce, timestamp),
        &by_signature,
    );

    // A base string with three mistakes at once: no single cause or pair reproduces it.
    let three = reference
        .base_string()
        .as_str()
        .replacen("POST", "post", 1)
        .replace("%2520", "%2B")
        .replace("api.example.com", "API.Example.com");
    let by_base_string = Observed::base_string(&three).with_signature(wrong.signature().as_str());
    unexplained(
        c,
        "explain 20 parameters, base string, all singles and pairs",
        &explainer,
        &by_base_string,
    );
}

/// Times `explainer` on `observed`, which nothing explains (checked first), so that the whole
/// search runs.
fn unexplained(c: &mut Criterion, name: &str, explainer: &Explainer<'_>, observed: &Observed<'_>) {
    assert_eq!(
        explainer.explain(observed).unwrap().verdict(),
        Verdict::Unexplained,
        "{name}"
    );
    c.bench_function(name, |b| {
        b.iter(|| explainer.explain(black_box(observed)).unwrap());
    });
}

/// A request of `count` query parameters full of escapes, and a form body of `fields` fields of
/// about 1.3 KB each.
fn sized(count: usize, fields: usize) -> (String, Vec<u8>) {
    let pairs: Vec<String> = (0..count)
        .map(|i| format!("q%20{i}=a+b%20c%2f~!*()/:@,;$%c3%a9=z"))
        .collect();
    let url = format!("https://api.example.com/photos?{}", pairs.join("&"));
    let value = "x%20".repeat(332);
    let body: Vec<String> = (0..fields).map(|i| format!("f{i}={value}")).collect();
    (url, body.join("&").into_bytes())
}

fn bound(c: &mut Criterion) {
    let signer = Signer::new(Consumer::new("dpf43f3p2l4k3l03", "kd94hf93k423kf44"))
        .with_token(Token::new("nnch734d00sl2jdk", "pfkkdhi9sl3r4s00"));
    let other = Signer::new(Consumer::new("dpf43f3p2l4k3l03", "another secret"))
        .with_token(Token::new("nnch734d00sl2jdk", "pfkkdhi9sl3r4s00"));
    let nonce = Nonce::new("kllo9940pd9333jh").unwrap();
    let timestamp = Timestamp::new(1_191_242_096);
    let mut group = c.benchmark_group("diagnosis bound");
    group.sample_size(10);
    for (count, fields) in [(1, 0), (16, 0), (64, 0), (256, 0), (1024, 0), (255, 700)] {
        let (url, body) = sized(count, fields);
        let request = if fields == 0 {
            Request::new("GET", &url).unwrap()
        } else {
            Request::new("POST", &url).unwrap().with_form_body(&body)
        };
        let explainer = Explainer::new(&signer, &request, &nonce, timestamp);
        let size = if fields == 0 {
            format!("{count} parameters")
        } else {
            format!(
                "{count} parameters and a {} KB form body",
                body.len() / 1000
            )
        };
        // Typical: a mistake found among the single causes.
        let (_, typical) = explainer.reproduce(&[Cause::PlusForSpace]).unwrap();
        let typical = typical.unwrap();
        let typical = Observed::signature(typical.as_str());
        let found = explainer.explain(&typical).unwrap();
        assert_eq!(found.causes(), [Cause::PlusForSpace], "{size}");
        group.bench_function(format!("typical, {size}"), |b| {
            b.iter(|| explainer.explain(black_box(&typical)).unwrap());
        });
        // Worst: nothing explains it.
        let wrong = other.sign(&request, &nonce, timestamp).unwrap();
        let worst = Observed::signature(wrong.signature().as_str());
        let answer = explainer.explain(&worst).unwrap();
        assert_eq!(answer.verdict(), Verdict::Unexplained, "{size}");
        println!("worst, {size}: {}", answer.searched());
        group.bench_function(format!("worst, {size}"), |b| {
            b.iter(|| explainer.explain(black_box(&worst)).unwrap());
        });
    }
    group.finish();
}

criterion_group!(benches, explain, bound);
criterion_main!(benches);
