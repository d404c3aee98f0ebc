//! The checks the fuzz targets run: each drives one stage of `oauth1-signer` with arbitrary
//! bytes and panics when an invariant fails, not only when the library itself panics.

use oauth1_server::{Clock, MemoryCredentials, MemoryNonceStore, Policy, Reason, Verifier};
use oauth1_signer::base_string::BaseUri;
use oauth1_signer::encode::{self as pct, decode_form, encode, encoded_len};
use oauth1_signer::explain::{compare, find_base_string, Explainer, Observed};
use oauth1_signer::header::{Authorization, Limits};
use oauth1_signer::params::{Parameters, Source};
use oauth1_signer::{Consumer, Nonce, Request, SignatureMethod, Signer, Timestamp, Token};

/// The command line's own code for a `sign --jsonl` line.
use oauth1_cases as case;

const CONSUMER: &str = "fuzz-consumer";
const CONSUMER_SECRET: &str = "consumer-secret-7f3a9c";
const TOKEN: &str = "fuzz-token";
const TOKEN_SECRET: &str = "token-secret-51ab0e";
const NOW: u64 = 1_700_000_000;

/// Only unreserved bytes and `%XX` with uppercase hex.
fn is_encoded(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = |x: Option<&u8>| x.is_some_and(|c| matches!(c, b'0'..=b'9' | b'A'..=b'F'));
            if !(hex(b.get(i + 1)) && hex(b.get(i + 2))) {
                return false;
            }
            i += 3;
        } else if b[i].is_ascii_alphanumeric() || b"-._~".contains(&b[i]) {
            i += 1;
        } else {
            return false;
        }
    }
    true
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

/// Percent-encoding and strict decoding.
pub fn decode(data: &[u8]) {
    let encoded = encode(data).to_string();
    assert!(is_encoded(&encoded), "encoded output {encoded:?}");
    assert_eq!(encoded.len(), encoded_len(data));
    assert_eq!(pct::decode(encoded.as_bytes()).unwrap().as_ref(), data);
    assert_eq!(decode_form(encoded.as_bytes()).unwrap().as_ref(), data);

    match pct::decode(data) {
        Ok(decoded) => {
            assert!(well_formed(data), "a malformed escape was accepted");
            let again = encode(&decoded).to_string();
            assert_eq!(pct::decode(again.as_bytes()).unwrap(), decoded);
        }
        Err(err) => {
            assert!(!well_formed(data));
            assert_eq!(data[err.offset()], b'%');
            assert!(
                well_formed(&data[..err.offset()]),
                "not the first bad escape"
            );
            assert!(err.found().starts_with(b"%") && err.found().len() <= 3);
            assert!(err
                .to_string()
                .contains(&format!("at byte {}", err.offset())));
        }
    }
    assert_eq!(decode_form(data).is_ok(), well_formed(data));
}

/// Query and form parsing, then normalization.
pub fn params(data: &[u8]) {
    let mut params = Parameters::new();
    if params.extend_urlencoded(Source::FormBody, data).is_err() {
        assert!(params.is_empty(), "parameters kept from a rejected text");
        assert!(!well_formed(data));
        return;
    }
    let pieces: Vec<&[u8]> = data
        .split(|&b| b == b'&')
        .filter(|p| !p.is_empty())
        .collect();
    assert_eq!(params.len(), pieces.len());
    for (param, piece) in params.iter().zip(&pieces) {
        let (name, value) = match piece.iter().position(|&b| b == b'=') {
            Some(at) => (&piece[..at], &piece[at + 1..]),
            None => (&piece[..], &b""[..]),
        };
        assert_eq!(param.name, decode_form(name).unwrap().as_ref());
        assert_eq!(param.value, decode_form(value).unwrap().as_ref());
        assert_eq!(param.source, Source::FormBody);
    }

    let normalized = params.normalize();
    let text = normalized.to_string();
    assert_eq!(text.len(), normalized.encoded_len());
    let pairs: Vec<(&str, &str)> = text
        .split('&')
        .filter(|_| !text.is_empty())
        .map(|pair| pair.split_once('=').expect("name=value"))
        .collect();
    assert_eq!(pairs.len(), pieces.len());
    for (name, value) in &pairs {
        assert!(is_encoded(name) && is_encoded(value), "{name}={value}");
    }
    assert!(
        pairs.windows(2).all(|w| w[0] <= w[1]),
        "not sorted by encoded name, then value: {text}"
    );
}

/// URL normalization into the base string URI.
pub fn base_uri(data: &[u8]) {
    let Ok(url) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(request) = Request::new("GET", url) else {
        return;
    };
    let uri = BaseUri::new(request.url()).expect("a request's URL is http or https");
    let uri = uri.as_str();
    let (scheme, rest) = uri.split_once("://").expect("scheme://");
    assert!(scheme == "http" || scheme == "https", "{uri}");
    assert!(!uri.contains(['?', '#']), "query or fragment kept: {uri}");
    let authority = &rest[..rest.find('/').expect("a path")];
    assert!(!authority.contains('@'), "user information kept: {uri}");
    assert_eq!(authority, authority.to_ascii_lowercase(), "{uri}");
    let default_port = if scheme == "http" { ":80" } else { ":443" };
    assert!(
        !authority.ends_with(default_port),
        "default port kept: {uri}"
    );

    // Normalizing is idempotent, and the signature base string carries it encoded.
    let again = Request::new("GET", uri).expect("a base URI is a URL");
    assert_eq!(BaseUri::new(again.url()).unwrap().as_str(), uri);
    let signed = Signer::new(Consumer::new(CONSUMER, CONSUMER_SECRET)).sign(
        &request,
        &Nonce::new("n").unwrap(),
        Timestamp::new(NOW),
    );
    if let Ok(signed) = signed {
        assert_eq!(
            signed.base_string().encoded_uri(),
            encode(uri.as_bytes()).to_string()
        );
    }
}

/// A URL the plain reader takes (`server::plain_request`, read in one pass without the URL
/// parser) is one the `url` crate parses, to the same base string URI and query: the lazy parse
/// behind `Request::url` never fails, and a request read either way signs alike.
pub fn plain_url(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Some(plain) = oauth1_signer::server::plain_request("GET", text) else {
        return;
    };
    let plain = plain.expect("GET is a method");
    let parsed = url::Url::parse(text)
        .unwrap_or_else(|e| panic!("{text:?} is read plain but does not parse: {e}"));
    assert_eq!(
        plain
            .base_uri()
            .expect("a plain URL has a base URI")
            .as_str(),
        BaseUri::new(&parsed).expect("http or https").as_str(),
        "{text:?}"
    );
    assert_eq!(plain.query(), parsed.query().unwrap_or(""), "{text:?}");
    assert_eq!(plain.url(), &parsed, "{text:?}");
}

/// The header as this crate writes it: the realm quoted with `\` escapes, the names as they
/// are, the values percent-encoded.
fn build_header(realm: Option<&str>, params: &[(&str, &[u8])]) -> String {
    let mut parts = Vec::new();
    if let Some(realm) = realm {
        parts.push(format!(
            "realm=\"{}\"",
            realm.replace('\\', "\\\\").replace('"', "\\\"")
        ));
    }
    for (name, value) in params {
        parts.push(format!("{name}=\"{}\"", encode(value)));
    }
    format!("OAuth {}", parts.join(", "))
}

/// Authorization header parsing, and build → parse round trips.
pub fn header(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Authorization::parse(text) {
        Ok(parsed) => {
            let params: Vec<_> = parsed.parameters().collect();
            let rebuilt = build_header(parsed.realm(), &params);
            // Encoding may make it longer than the default limit.
            let again = Authorization::parse_with(&rebuilt, &UNLIMITED)
                .unwrap_or_else(|e| panic!("{rebuilt:?} does not parse: {e}"));
            assert_eq!(again, parsed);
        }
        Err(err) => assert!(!err.to_string().is_empty()),
    }

    // The signer's header for arbitrary credentials, nonce and realm parses back to what it
    // sent.
    let mut fields = text.split('\n');
    let (Some(key), Some(token), Some(nonce), realm) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return;
    };
    let Ok(nonce) = Nonce::new(nonce) else {
        return;
    };
    let mut signer = Signer::new(Consumer::new(key, CONSUMER_SECRET))
        .with_token(Token::new(token, TOKEN_SECRET));
    if let Some(realm) = realm {
        match oauth1_signer::Realm::new(realm) {
            Ok(realm) => signer = signer.with_realm(realm),
            Err(_) => return,
        }
    }
    let request = Request::new("GET", "https://example.com/").unwrap();
    let Ok(signed) = signer.sign(&request, &nonce, Timestamp::new(NOW)) else {
        // The one refusal possible here: an empty token with a secret.
        assert!(token.is_empty());
        return;
    };
    let header = signed.authorization();
    let parsed = Authorization::parse_with(&header, &UNLIMITED)
        .unwrap_or_else(|e| panic!("the signer's header {header:?} does not parse: {e}"));
    assert_eq!(parsed.realm(), realm);
    let sent: Vec<(&[u8], &[u8])> = signed.protocol_parameters().collect();
    let read: Vec<(&[u8], &[u8])> = parsed
        .parameters()
        .map(|(n, v)| (n.as_bytes(), v))
        .collect();
    assert_eq!(read, sent);
}

/// The default policy, PLAINTEXT allowed, over http too; with `limits` or the default ones.
fn policy(limits: Option<Limits>) -> Policy {
    let policy = Policy::default()
        .allow_plaintext(true)
        .allow_plaintext_over_http(true);
    match limits {
        Some(limits) => policy.with_limits(limits),
        None => policy,
    }
}

/// No limits: a request signed here may be longer than an untrusted one is allowed to be.
const UNLIMITED: Limits = Limits::new(usize::MAX, usize::MAX);

fn verifier(limits: Option<Limits>) -> Verifier<MemoryCredentials, MemoryNonceStore> {
    let mut credentials = MemoryCredentials::new();
    credentials.add_consumer(CONSUMER, CONSUMER_SECRET);
    credentials.add_token(CONSUMER, TOKEN, TOKEN_SECRET);
    Verifier::new(credentials, MemoryNonceStore::new()).with_policy(policy(limits))
}

/// Whether the query or a form body has a name starting with `oauth_`: the verifier reads
/// those as protocol parameters, which the signer does not.
fn has_oauth_names(request: &Request<'_>) -> bool {
    let mut params = Parameters::new();
    let query = request.url().query().unwrap_or("").as_bytes();
    let body = if request.has_form_body() {
        request.body()
    } else {
        b""
    };
    params.extend_urlencoded(Source::Query, query).is_err()
        || params.extend_urlencoded(Source::FormBody, body).is_err()
        || params.iter().any(|p| p.name.starts_with(b"oauth_"))
}

/// Verification of an arbitrary request (`method NUL url NUL content-type NUL body [NUL
/// authorization]`); without an Authorization header, the request is signed first and must
/// verify.
pub fn verify(data: &[u8]) {
    let mut parts = data.splitn(5, |&b| b == 0);
    let (Some(method), Some(url), Some(content_type), Some(body), header) = (
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
    ) else {
        return;
    };
    let (Ok(method), Ok(url), Ok(content_type)) = (
        std::str::from_utf8(method),
        std::str::from_utf8(url),
        std::str::from_utf8(content_type),
    ) else {
        return;
    };
    let Ok(request) = Request::new(method, url) else {
        return;
    };
    let request = request.with_body(content_type, body);
    let now = Timestamp::new(NOW);

    if let Some(header) = header {
        let Ok(header) = std::str::from_utf8(header) else {
            return;
        };
        let echoed = |secret: &str| {
            data.windows(secret.len())
                .any(|w| w.eq_ignore_ascii_case(secret.as_bytes()))
        };
        if echoed(CONSUMER_SECRET) || echoed(TOKEN_SECRET) {
            // A message may quote the input, which then has the secret in it.
            return;
        }
        match verifier(None)
            .with_clock(Clock::fixed(now))
            .blocking()
            .verify(&request, Some(header))
        {
            // Only the credentials the server holds can pass.
            Ok(verified) => {
                assert_eq!(verified.consumer_key(), CONSUMER);
                assert!(matches!(verified.token(), None | Some(TOKEN)));
            }
            Err(err) => {
                for text in [err.to_string(), format!("{err:?}")] {
                    assert!(!text.contains(CONSUMER_SECRET) && !text.contains(TOKEN_SECRET));
                }
                if let Some(problem) = err.problem() {
                    assert!(!problem.to_urlencoded().contains(CONSUMER_SECRET));
                }
            }
        }
        return;
    }

    let method = [
        SignatureMethod::HmacSha1,
        SignatureMethod::HmacSha256,
        SignatureMethod::HmacSha512,
        SignatureMethod::Plaintext,
    ][body.len() % 4];
    let signer = Signer::new(Consumer::new(CONSUMER, CONSUMER_SECRET))
        .with_token(Token::new(TOKEN, TOKEN_SECRET))
        .with_method(method);
    let Ok(signed) = signer.sign(&request, &Nonce::new("fuzz").unwrap(), now) else {
        return;
    };
    if has_oauth_names(&request) {
        return;
    }
    let verified = verifier(Some(UNLIMITED))
        .with_clock(Clock::fixed(now))
        .blocking()
        .verify(&request, Some(&signed.authorization()));
    if let Err(err) = verified {
        panic!("a signed request does not verify: {err}");
    }
    // A server that holds the consumer but not the token refuses the same request, as it
    // would a wrong signature.
    let mut consumer_only = MemoryCredentials::new();
    consumer_only.add_consumer(CONSUMER, CONSUMER_SECRET);
    let refused = Verifier::new(consumer_only, MemoryNonceStore::new())
        .with_policy(policy(Some(UNLIMITED)))
        .with_clock(Clock::fixed(now))
        .blocking()
        .verify(&request, Some(&signed.authorization()));
    assert_eq!(
        refused.map(|_| ()).map_err(|e| e.reason()),
        Err(Reason::BadSignature),
        "a token the server does not hold"
    );
}

/// Answers one `oauth1 sign --jsonl` line as the command line does; what it signs parses
/// back and verifies.
pub fn sign_line(data: &[u8]) {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    let answer = case::answer(line);
    assert!(!answer.contains('\n'));
    let answer: serde_json::Value = serde_json::from_str(&answer).expect("the answer is JSON");
    let case: Option<serde_json::Value> = serde_json::from_str(line).ok();
    let field = |name: &str| {
        case.as_ref()
            .and_then(|c| c.get(name))
            .and_then(serde_json::Value::as_str)
            .map(str::to_owned)
    };

    if let Some(error) = answer.get("error") {
        assert!(!error.as_str().expect("an error message").is_empty());
        // The same line with marked secrets: no error message shows them.
        let Some(serde_json::Value::Object(mut marked)) = case else {
            return;
        };
        // A message may quote the input, the URL's scheme and host lowercased: an input that
        // holds a marker in any letter case may show it.
        let folded = line.to_ascii_lowercase();
        if folded.contains(CONSUMER_SECRET) || folded.contains(TOKEN_SECRET) {
            return;
        }
        for (name, marker) in [
            ("consumer_secret", CONSUMER_SECRET),
            ("token_secret", TOKEN_SECRET),
        ] {
            if let Some(value @ serde_json::Value::String(_)) = marked.get_mut(name) {
                *value = marker.into();
            }
        }
        let answer = case::answer(&serde_json::Value::Object(marked).to_string());
        let answer: serde_json::Value = serde_json::from_str(&answer).expect("the answer is JSON");
        if let Some(error) = answer.get("error").and_then(serde_json::Value::as_str) {
            assert!(
                !error.contains(CONSUMER_SECRET) && !error.contains(TOKEN_SECRET),
                "{error}"
            );
        }
        return;
    }
    let text = |name: &str| answer[name].as_str().expect(name).to_owned();
    let (signature, authorization) = (text("signature"), text("authorization"));
    assert!(text("base_string").split('&').count() == 3);
    let parsed = Authorization::parse_with(&authorization, &UNLIMITED).expect("the header parses");
    assert_eq!(parsed.get("oauth_signature"), Some(signature.as_bytes()));

    // Whatever is signed verifies (RSA needs the public key: not here).
    let (Some(method), Some(url), Some(key), Some(secret), Some(timestamp)) = (
        field("method"),
        field("url"),
        field("consumer_key"),
        field("consumer_secret"),
        field("timestamp"),
    ) else {
        return;
    };
    let body = field("body").unwrap_or_default();
    let content_type = field("content_type").unwrap_or_default();
    let request = Request::new(&method, &url)
        .unwrap()
        .with_body(&content_type, body.as_bytes());
    let signature_method = parsed.get("oauth_signature_method").unwrap_or_default();
    if signature_method.starts_with(b"RSA") || has_oauth_names(&request) {
        return;
    }
    let mut credentials = MemoryCredentials::new();
    credentials.add_consumer(key.as_str(), secret.as_str());
    if let Some(token) = field("token") {
        credentials.add_token(
            key.as_str(),
            token,
            field("token_secret").unwrap_or_default(),
        );
    }
    let now: Timestamp = timestamp.parse().unwrap();
    let verified = Verifier::new(credentials, MemoryNonceStore::new())
        .with_policy(policy(Some(UNLIMITED)))
        .with_clock(Clock::fixed(now))
        .blocking()
        .verify(&request, Some(&authorization));
    if let Err(err) = verified {
        panic!("a signed line does not verify: {err}");
    }
}

/// The diagnosis: finding an echoed base string, comparing, explaining.
pub fn explain(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Some(found) = find_base_string(text) {
        assert_eq!(found.split('&').count(), 3, "{found:?}");
    }
    let (reference, observed) = text.split_once('\n').unwrap_or((text, ""));
    match compare(reference, observed) {
        None => assert_eq!(reference, observed),
        Some(difference) => {
            assert_ne!(reference, observed);
            assert!(difference.offset() <= reference.len().max(observed.len()));
            assert!(!difference.summary().is_empty());
        }
    }

    let signer = Signer::new(Consumer::new(CONSUMER, CONSUMER_SECRET))
        .with_token(Token::new(TOKEN, TOKEN_SECRET));
    let request = Request::new("POST", "https://Example.com:443/a?b=1&c=%20+")
        .unwrap()
        .with_form_body(b"d=2&e=x+y");
    let nonce = Nonce::new("n").unwrap();
    let explainer = Explainer::new(&signer, &request, &nonce, Timestamp::new(NOW))
        .with_url_as_written("https://Example.com:443/a?b=1&c=%20+");
    for observed in [
        Observed::signature(reference),
        Observed::base_string(reference),
        Observed::base_string(reference).with_signature(observed),
    ] {
        if let Ok(explanation) = explainer.explain(&observed) {
            let detail = explanation.detail();
            assert!(!detail.contains(CONSUMER_SECRET) && !detail.contains(TOKEN_SECRET));
        }
    }
}

/// `Capture::from_curl` on arbitrary text: never a panic; a command it reads, written back as
/// a plain curl command (every word single-quoted), reads back to the same request.
pub fn capture_curl(data: &[u8]) {
    use oauth1_capture::Capture;

    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // `@file` data would read files: not what is fuzzed here.
    if text.contains('@') {
        return;
    }
    let Ok(capture) = Capture::from_curl(text) else {
        return;
    };
    assert!(capture.url.contains("://"), "{capture:?}");
    assert!(!capture.method.is_empty(), "{capture:?}");
    let quote = |s: &str| format!("'{}'", s.replace('\'', r"'\''"));
    let mut again = format!(
        "curl --url {} -X {}",
        quote(&capture.url),
        quote(&capture.method)
    );
    for (name, value) in &capture.headers {
        again.push_str(&format!(" -H {}", quote(&format!("{name}: {value}"))));
    }
    if !capture.body.is_empty() {
        let body = std::str::from_utf8(&capture.body).expect("a body read from text is text");
        again.push_str(&format!(" --data-raw {}", quote(body)));
    }
    let reread = Capture::from_curl(&again).unwrap_or_else(|e| panic!("{again:?}: {e}"));
    assert_eq!(reread, capture, "{again:?}");
}

/// `Capture::from_http` on arbitrary bytes: never a panic; what it reads has an absolute URL,
/// and a body no longer than the input (and as long as `Content-Length` says, when it says).
pub fn capture_http(data: &[u8]) {
    use oauth1_capture::Capture;

    let Ok(capture) = Capture::from_http(data, "https") else {
        return;
    };
    assert!(capture.url.contains("://"), "{capture:?}");
    assert!(capture.body.len() <= data.len());
    if let Some(Ok(length)) = capture.header("content-length").map(str::parse::<usize>) {
        assert_eq!(capture.body.len(), length);
    }
}

/// `Capture::from_har` on arbitrary text: never a panic; the entries it gives are numbered in
/// order within the file, and picking one gives that one alone.
pub fn capture_har(data: &[u8]) {
    use oauth1_capture::Capture;

    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(entries) = Capture::from_har(text, None) else {
        return;
    };
    assert!(!entries.is_empty());
    assert!(entries.windows(2).all(|w| w[0].0 < w[1].0));
    let (n, first) = &entries[0];
    let picked = Capture::from_har(text, Some(*n)).expect("an entry it gave can be picked");
    assert_eq!(picked, vec![(*n, first.clone())]);
}

/// Whether `oauth1 explain` and `oauth1 verify` agree on a captured request, as the fixture
/// test checks them (`tests/it/one_truth.rs`).
#[path = "../../tests/it/agree.rs"]
mod agree;

/// One truth: `explain` answers `match` exactly when `verify` accepts the signature, for a
/// request whose `Authorization` header carries parameters of its own besides the protocol
/// parameters. The input is `method`, `url`, `content type`, `body`, `extra parameters`
/// (`name=value&…`, form-encoded, written into the header) and how the client signed,
/// separated by NUL: `signed` (with the extras, as a verifier collects them), `unsigned`
/// (without them), or the signature itself.
pub fn agree(data: &[u8]) {
    use oauth1_capture::Capture;

    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut fields = text.split('\0');
    let mut next = || fields.next().unwrap_or("");
    let (method, url, content_type, body, extras, how) =
        (next(), next(), next(), next(), next(), next());
    let method = if method.is_empty() { "GET" } else { method };
    let mut pairs = Vec::new();
    for pair in extras.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let (Ok(name), Ok(value)) = (decode_form(name.as_bytes()), decode_form(value.as_bytes()))
        else {
            return;
        };
        pairs.push((name.into_owned(), value.into_owned()));
    }
    let signature = match how {
        "signed" | "unsigned" | "" => {
            let signed_url = if how == "unsigned" || extras.is_empty() {
                url.to_owned()
            } else if url.contains('?') {
                format!("{url}&{extras}")
            } else {
                format!("{url}?{extras}")
            };
            let Ok(request) = Request::new(method, &signed_url) else {
                return;
            };
            let request = request.with_body(content_type, body.as_bytes());
            let signer = Signer::new(Consumer::new(CONSUMER, CONSUMER_SECRET))
                .with_token(Token::new(TOKEN, TOKEN_SECRET));
            let Ok(signed) = signer.sign(&request, &Nonce::new("n").unwrap(), Timestamp::new(NOW))
            else {
                return;
            };
            signed.signature().as_str().to_owned()
        }
        given => given.to_owned(),
    };
    let mut header = format!(
        "OAuth oauth_consumer_key=\"{CONSUMER}\", oauth_nonce=\"n\", oauth_signature_method=\"HMAC-SHA1\", oauth_timestamp=\"{NOW}\", oauth_token=\"{TOKEN}\", oauth_version=\"1.0\", oauth_signature=\"{}\"",
        encode(signature.as_bytes())
    );
    for (name, value) in &pairs {
        header.push_str(", ");
        encode(name).append_to(&mut header);
        header.push_str("=\"");
        encode(value).append_to(&mut header);
        header.push('"');
    }
    let content_type = Some(content_type).filter(|c| !c.is_empty());
    let mut capture = Capture::typed(method, url, content_type, body.as_bytes().to_vec());
    capture.headers.push(("Authorization".to_owned(), header));
    let answers = agree::answers(&capture, CONSUMER_SECRET, TOKEN_SECRET);
    assert!(answers.agree(), "explain and verify disagree: {answers:?}");
}
