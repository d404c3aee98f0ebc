//! Explaining stays interactive: a request with 20 parameters, observed values that no cause
//! explains, so that every single cause and every pair of causes is tried; and the same search
//! as a server's diagnosis makes it, whose cost `docs/servers.md` states.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use oauth1_signer::explain::{Explainer, Observed, Verdict};
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

criterion_group!(benches, explain);
criterion_main!(benches);
