//! Properties over arbitrary input: the encoder against an independent oracle, strict decoding,
//! parameter normalization against a sort written here, invariance under permutation, and
//! sign → verify, where every single change to the signed request makes verification fail.

use crate::common::At;
use oauth1_server::{MemoryCredentials, MemoryNonceStore, Policy, Verifier};
use oauth1_signer::encode::{decode, decode_form, encode, encoded_len};
use oauth1_signer::params::{Parameters, Source};
use oauth1_signer::{
    BodyHash, Consumer, Nonce, Request, SignatureMethod, Signer, Timestamp, Token,
};
use percent_encoding::{percent_decode, percent_encode, AsciiSet, NON_ALPHANUMERIC};
use proptest::prelude::*;

/// RFC 3986 §2.3: everything but ALPHA / DIGIT / "-" / "." / "_" / "~" is escaped.
const RFC3986: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The oracle: the `percent-encoding` crate with the RFC 3986 set (uppercase hex).
fn oracle(bytes: &[u8]) -> String {
    percent_encode(bytes, RFC3986).to_string()
}

fn encoded(bytes: &[u8]) -> String {
    let mut out = String::new();
    encode(bytes).append_to(&mut out);
    out
}

/// Whether every `%` is followed by two hex digits.
fn well_formed(input: &[u8]) -> bool {
    let mut i = 0;
    while i < input.len() {
        if input[i] == b'%' {
            match input.get(i + 1..i + 3) {
                Some(pair) if pair.iter().all(u8::is_ascii_hexdigit) => i += 3,
                _ => return false,
            }
        } else {
            i += 1;
        }
    }
    true
}

/// Bytes weighted towards what breaks signatures: reserved characters, `%`, `+`, space,
/// multi-byte UTF-8, and arbitrary (also invalid UTF-8) bytes.
fn tricky_bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        4 => proptest::sample::select(b"abcXYZ019-._~".to_vec()).prop_map(|b| vec![b]),
        3 => proptest::sample::select(b" !*'()+%&=;:/?#[]@$,\"<>\\^`{|}".to_vec()).prop_map(|b| vec![b]),
        1 => proptest::sample::select(vec!["\u{e9}", "\u{2713}", "\u{1f600}", "\u{0}", "\r\n"])
            .prop_map(|s| s.as_bytes().to_vec()),
        1 => any::<u8>().prop_map(|b| vec![b]),
    ];
    proptest::collection::vec(piece, 0..max).prop_map(|pieces| pieces.concat())
}

fn pairs(max: usize) -> impl Strategy<Value = Vec<(Vec<u8>, Vec<u8>)>> {
    // A name starting with `oauth_` is a protocol parameter to the verifier; none here.
    let name = tricky_bytes(8).prop_map(|n| {
        if n.starts_with(b"oauth_") {
            [b"x".as_slice(), &n].concat()
        } else {
            n
        }
    });
    proptest::collection::vec((name, tricky_bytes(8)), 0..max)
}

/// `name=value&…`, encoded by the oracle.
fn urlencoded(pairs: &[(Vec<u8>, Vec<u8>)]) -> String {
    pairs
        .iter()
        .map(|(n, v)| format!("{}={}", oracle(n), oracle(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// §3.4.1.3.2 written out: encode each name and value, sort by name then value, join.
fn oracle_normalized(pairs: &[(Vec<u8>, Vec<u8>)]) -> String {
    let mut encoded: Vec<(String, String)> =
        pairs.iter().map(|(n, v)| (oracle(n), oracle(v))).collect();
    encoded.sort();
    encoded
        .iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join("&")
}

fn normalized(pairs: &[(Vec<u8>, Vec<u8>)]) -> String {
    let mut params = Parameters::new();
    for (name, value) in pairs {
        params.push(Source::Query, name, value);
    }
    params.normalize().to_string()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn the_encoder_agrees_with_the_oracle_byte_for_byte(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let ours = encoded(&bytes);
        prop_assert_eq!(&ours, &oracle(&bytes));
        prop_assert_eq!(ours.len(), encoded_len(&bytes));
        prop_assert_eq!(encode(&bytes).to_string(), ours);
    }

    #[test]
    fn the_encoder_agrees_on_tricky_text(bytes in tricky_bytes(200)) {
        prop_assert_eq!(encoded(&bytes), oracle(&bytes));
    }

    #[test]
    fn decoding_undoes_encoding(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let text = encoded(&bytes);
        prop_assert_eq!(decode(text.as_bytes()).unwrap().into_owned(), bytes.clone());
        prop_assert_eq!(decode_form(text.as_bytes()).unwrap().into_owned(), bytes);
    }

    #[test]
    fn decoding_is_strict_and_otherwise_agrees_with_the_oracle(input in tricky_bytes(60)) {
        match decode(&input) {
            Ok(ours) => {
                prop_assert!(well_formed(&input));
                let theirs: Vec<u8> = percent_decode(&input).collect();
                prop_assert_eq!(ours.as_ref(), &theirs[..]);
            }
            Err(err) => {
                prop_assert!(!well_formed(&input));
                // The error points at the first malformed escape.
                prop_assert_eq!(input[err.offset()], b'%');
                prop_assert!(well_formed(&input[..err.offset()]));
                prop_assert!(!well_formed(&input[err.offset()..]));
            }
        }
        // A form decodes `+` to a space, and nothing else differently.
        let plus_free: Vec<u8> = input.iter().map(|&b| if b == b'+' { b' ' } else { b }).collect();
        prop_assert_eq!(decode_form(&input).ok(), decode(&plus_free).ok());
    }

    #[test]
    fn normalization_is_the_sorted_encoded_pairs(pairs in pairs(12)) {
        prop_assert_eq!(normalized(&pairs), oracle_normalized(&pairs));
    }

    #[test]
    fn normalization_ignores_the_order_and_the_place_of_parameters(
        (pairs, shuffled) in pairs(12).prop_flat_map(|p| (Just(p.clone()), Just(p).prop_shuffle())),
        split in any::<proptest::sample::Index>(),
    ) {
        prop_assert_eq!(normalized(&pairs), normalized(&shuffled));

        // Through whole requests: all in the query, or the shuffled ones split between the
        // query and a form body, give one base string.
        let at = split.index(shuffled.len() + 1);
        let signer = Signer::new(Consumer::new("ck", "cs"));
        let (nonce, now) = (Nonce::new("n").unwrap(), Timestamp::new(1));
        let all = format!("https://example.com/p?{}", urlencoded(&pairs));
        let a = signer.sign(&Request::new("POST", &all).unwrap(), &nonce, now).unwrap();
        let query = format!("https://example.com/p?{}", urlencoded(&shuffled[..at]));
        let body = urlencoded(&shuffled[at..]);
        let request = Request::new("POST", &query).unwrap().with_form_body(body.as_bytes());
        let b = signer.sign(&request, &nonce, now).unwrap();
        prop_assert_eq!(a.base_string().as_str(), b.base_string().as_str());
    }
}

const NOW: u64 = 1_700_000_000;
const METHODS: [&str; 5] = ["GET", "POST", "PUT", "DELETE", "PATCH"];

/// A request as the client sends it, and what it is signed with.
#[derive(Clone, Debug)]
struct Model {
    method: &'static str,
    https: bool,
    host: String,
    port: Option<u16>,
    path: Vec<Vec<u8>>,
    query: Vec<(Vec<u8>, Vec<u8>)>,
    body: Body,
    signature_method: SignatureMethod,
    token: bool,
}

#[derive(Clone, Debug)]
enum Body {
    /// A form body, whose parameters are signed.
    Form(Vec<(Vec<u8>, Vec<u8>)>),
    /// Any other body (possibly empty), covered by `oauth_body_hash`.
    Raw(Vec<u8>),
}

const FORM: &str = "application/x-www-form-urlencoded";

impl Model {
    fn url(&self) -> String {
        let scheme = if self.https { "https" } else { "http" };
        let port = self.port.map(|p| format!(":{p}")).unwrap_or_default();
        let path: Vec<String> = self.path.iter().map(|s| oracle(s)).collect();
        let mut url = format!("{scheme}://{}{port}/{}", self.host, path.join("/"));
        if !self.query.is_empty() {
            url.push('?');
            url.push_str(&urlencoded(&self.query));
        }
        url
    }

    fn body(&self) -> (&'static str, Vec<u8>) {
        match &self.body {
            Body::Form(pairs) => (FORM, urlencoded(pairs).into_bytes()),
            Body::Raw(bytes) => ("application/octet-stream", bytes.clone()),
        }
    }

    fn signer(&self) -> Signer {
        let mut signer = Signer::new(Consumer::new("consumer", "consumer secret & ✓"))
            .with_method(self.signature_method);
        if self.token {
            signer = signer.with_token(Token::new("token", "token/secret%"));
        }
        if matches!(self.body, Body::Raw(_)) {
            signer = signer.with_body_hash(BodyHash::Send);
        }
        signer
    }

    /// The protocol parameters the client sends, `oauth_signature` among them.
    fn sign(&self) -> Vec<(Vec<u8>, Vec<u8>)> {
        let url = self.url();
        let (content_type, body) = self.body();
        let request = Request::new(self.method, &url)
            .unwrap()
            .with_body(content_type, &body);
        let signed = self
            .signer()
            .sign(&request, &Nonce::new("nonce").unwrap(), Timestamp::new(NOW))
            .unwrap();
        signed
            .protocol_parameters()
            .map(|(n, v)| (n.to_vec(), v.to_vec()))
            .collect()
    }

    /// Verifies this request as received with `protocol` in its Authorization header, built
    /// here from the oracle's encoding.
    fn verify(&self, protocol: &[(Vec<u8>, Vec<u8>)]) -> Result<(), String> {
        let header = format!(
            "OAuth {}",
            protocol
                .iter()
                .map(|(n, v)| format!("{}=\"{}\"", oracle(n), oracle(v)))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let url = self.url();
        let (content_type, body) = self.body();
        let request = Request::new(self.method, &url)
            .unwrap()
            .with_body(content_type, &body);
        let mut credentials = MemoryCredentials::new();
        credentials.add_consumer("consumer", "consumer secret & ✓");
        credentials.add_token("consumer", "token", "token/secret%");
        Verifier::new(credentials, MemoryNonceStore::new())
            .with_policy(
                Policy::default()
                    .allow_plaintext(true)
                    .allow_plaintext_over_http(true)
                    .require_body_hash(true),
            )
            .at(Timestamp::new(NOW))
            .blocking()
            .verify(&request, Some(&header))
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}

fn model(methods: Vec<SignatureMethod>) -> impl Strategy<Value = Model> {
    let host = "[a-z][a-z0-9]{0,8}(\\.[a-z]{2,5}){0,2}";
    let body = prop_oneof![
        pairs(6).prop_map(Body::Form),
        tricky_bytes(40).prop_map(Body::Raw),
    ];
    (
        proptest::sample::select(METHODS.to_vec()),
        any::<bool>(),
        host,
        proptest::option::of(1u16..),
        // Dot segments are refused (tests/it/paths.rs), not signed.
        proptest::collection::vec(
            tricky_bytes(6).prop_filter("a dot segment", |s| s != b"." && s != b".."),
            0..4,
        ),
        pairs(6),
        body,
        proptest::sample::select(methods),
        any::<bool>(),
    )
        .prop_map(
            |(method, https, host, port, path, query, body, signature_method, token)| Model {
                method,
                https,
                host,
                port,
                path,
                query,
                body,
                signature_method,
                token,
            },
        )
}

/// One change to the request or to what the client sent, after signing.
#[derive(Clone, Debug)]
enum Mutation {
    Method(proptest::sample::Index),
    Scheme,
    Host,
    Port,
    Path,
    /// A query or form parameter's name (`true`) or value (`false`).
    Parameter(proptest::sample::Index, bool),
    /// A parameter added to the query.
    ExtraParameter,
    Body,
    /// A protocol parameter's value (the nonce, the timestamp, the keys, the method, the
    /// signature, …).
    Protocol(proptest::sample::Index),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<proptest::sample::Index>().prop_map(Mutation::Method),
        Just(Mutation::Scheme),
        Just(Mutation::Host),
        Just(Mutation::Port),
        Just(Mutation::Path),
        (any::<proptest::sample::Index>(), any::<bool>())
            .prop_map(|(i, name)| Mutation::Parameter(i, name)),
        Just(Mutation::ExtraParameter),
        Just(Mutation::Body),
        any::<proptest::sample::Index>().prop_map(Mutation::Protocol),
    ]
}

/// Another byte string: one byte changed, or one added when there is none.
fn changed(bytes: &mut Vec<u8>) {
    match bytes.first_mut() {
        Some(b) => *b = if *b == b'z' { b'y' } else { b'z' },
        None => bytes.push(b'z'),
    }
}

/// Applies `mutation` to the request or the protocol parameters. The result always differs
/// in something the signature covers.
fn apply(mutation: &Mutation, model: &mut Model, protocol: &mut [(Vec<u8>, Vec<u8>)]) {
    match mutation {
        Mutation::Method(i) => {
            let others: Vec<_> = METHODS.iter().filter(|m| **m != model.method).collect();
            model.method = others[i.index(others.len())];
        }
        Mutation::Scheme => model.https = !model.https,
        Mutation::Host => model.host.insert(0, 'z'),
        Mutation::Port => {
            model.port = Some(match model.port {
                Some(8080) => 8081,
                _ => 8080,
            });
        }
        Mutation::Path => model.path.push(b"z".to_vec()),
        Mutation::Parameter(i, name) => {
            let mut all: Vec<&mut (Vec<u8>, Vec<u8>)> = model.query.iter_mut().collect();
            if let Body::Form(form) = &mut model.body {
                all.extend(form.iter_mut());
            }
            if all.is_empty() {
                model.query.push((b"z".to_vec(), Vec::new()));
            } else {
                let len = all.len();
                let (n, v) = &mut *all[i.index(len)];
                // "z" never makes a name start with `oauth_`.
                changed(if *name { n } else { v });
            }
        }
        Mutation::ExtraParameter => model.query.push((b"extra".to_vec(), b"1".to_vec())),
        Mutation::Body => match &mut model.body {
            Body::Form(form) => form.push((b"extra".to_vec(), Vec::new())),
            Body::Raw(bytes) => changed(bytes),
        },
        Mutation::Protocol(i) => {
            let len = protocol.len();
            changed(&mut protocol[i.index(len)].1);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn whatever_is_signed_verifies_and_any_single_change_fails(
        model in model(vec![
            SignatureMethod::HmacSha1,
            SignatureMethod::HmacSha256,
            SignatureMethod::HmacSha512,
        ]),
        mutation in mutation(),
    ) {
        let protocol = model.sign();
        prop_assert_eq!(model.verify(&protocol), Ok(()));

        let (mut mutated, mut sent) = (model.clone(), protocol.clone());
        apply(&mutation, &mut mutated, &mut sent);
        let result = mutated.verify(&sent);
        prop_assert!(result.is_err(), "{:?} still verifies: {}", mutation, mutated.url());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// PLAINTEXT signs the credentials, not the request: what it covers is the signature
    /// itself and the protocol parameters the verifier checks on their own.
    #[test]
    fn plaintext_verifies_and_a_changed_signature_or_key_fails(
        model in model(vec![SignatureMethod::Plaintext]),
        consumer_key in any::<bool>(),
    ) {
        let protocol = model.sign();
        prop_assert_eq!(model.verify(&protocol), Ok(()));
        let name: &[u8] = if consumer_key { b"oauth_consumer_key" } else { b"oauth_signature" };
        let mut sent = protocol.clone();
        let (_, value) = sent.iter_mut().find(|(n, _)| n == name).unwrap();
        changed(value);
        prop_assert!(model.verify(&sent).is_err());
    }
}
