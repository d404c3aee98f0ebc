//! The signing workloads, loaded from the fixtures and checked against their published or
//! independently computed signatures: shared by the benchmarks.

use oauth1_cases::Case;
use oauth1_server::MemoryCredentials;
use std::convert::Infallible;
use std::fmt::Display;
use std::future::{ready, Future, Ready};
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use http_body_util::Full;
use oauth1_server::tower::{VerifyLayer, VerifyService};
use oauth1_server::{Clock, MemoryNonceStore, Verifier};
use tower_layer::Layer;
use tower_service::Service;

use hmac::{Hmac, KeyInit, Mac};
use oauth1_signer::encode::decode_form;
use oauth1_signer::http::{Transport, Written};
use oauth1_signer::{Consumer, Nonce, Request, RequestParts, Signer, Timestamp, Token};
use sha1::Sha1;
use url::Url;

/// Decoded `name=value` pairs, owned.
pub type Pairs = Vec<(String, String)>;

/// One signing workload, with everything a contender may prepare before the clock starts.
pub struct Workload {
    pub name: &'static str,
    pub case: Case,
    /// The case's token and token secret (every workload has a token).
    pub token: String,
    pub token_secret: String,
    /// The signature the fixture expects.
    pub signature: String,
    pub url: Url,
    pub signer: Signer,
    pub nonce: Nonce,
    pub timestamp: Timestamp,
}

/// W1: the X API "Creating a signature" request.
pub fn w1() -> Workload {
    Workload::load("W1", "published.json", "x-api-creating-a-signature")
}

/// W2: a GET with 50 query parameters of mixed text.
pub fn w2() -> Workload {
    Workload::load("W2", "bench.json", "bench-w2-get-50-query-parameters")
}

/// W2p: W2 with plain names (letters and digits), the values still mixed.
pub fn w2p() -> Workload {
    Workload::load(
        "W2p",
        "bench.json",
        "bench-w2p-get-50-query-parameters-plain-names",
    )
}

/// W2b: a GET with 50 plain query parameters (names of letters, values of letters, digits and
/// `-._~`): nothing to decode or encode, as a search or listing API's query often is. Made here
/// (W2p's credentials, its own URL), its signature computed here ([`plain_signature`]), not by
/// the crate.
pub fn w2b() -> Workload {
    let url = format!(
        "https://api.example.com/2/search/all.json?{}",
        plain_query(50)
    );
    plain_workload(
        "W2b",
        "bench-w2b-get-50-plain-query-parameters",
        "GET",
        &url,
        None,
    )
}

/// W3l: a POST with a 64 KiB form body of one field of letters (`status=` and letters), the
/// longest plain value. Made and checked as [`w2b`] is.
pub fn w3l() -> Workload {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut body = String::from("status=");
    while body.len() < 64 * 1024 {
        body.push(char::from(LETTERS[body.len() * 7 % LETTERS.len()]));
    }
    let url = "https://api.example.com/1.1/statuses/update.json";
    plain_workload(
        "W3l",
        "bench-w3l-post-64-kib-letters",
        "POST",
        url,
        Some(body),
    )
}

/// A workload of `method`, `url` and form `body`, whose query's and body's names and values
/// are all unreserved, with W2p's credentials, nonce and timestamp, and its signature computed
/// by [`plain_signature`].
fn plain_workload(
    name: &'static str,
    case_name: &str,
    method: &str,
    url: &str,
    body: Option<String>,
) -> Workload {
    let path = format!("{}/../fixtures/bench.json", env!("CARGO_MANIFEST_DIR"));
    let mut case = case_named(&path, "bench-w2p-get-50-query-parameters-plain-names");
    case["name"] = case_name.into();
    case["method"] = method.into();
    case["url"] = url.into();
    if let Some(body) = body {
        case["body"] = body.into();
        case["content_type"] = "application/x-www-form-urlencoded".into();
    }
    let signature = plain_signature(&case);
    case["expected"] = serde_json::json!({ "signature": signature });
    Workload::from_case(name, case)
}

/// `count` pairs of a plain query, `name=value` joined by `&`: names of 3 to 10 lowercase
/// letters, values of 1 to 24 letters, digits and `-._~` (a fixed pseudo-random sequence).
pub fn plain_query(count: usize) -> String {
    const LOWER: &[u8] = b"abcdefghijklmnopqrstuvwxyz";
    const PLAIN: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~";
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move |below: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        usize::try_from(state >> 40).unwrap() % below
    };
    let mut pairs = Vec::with_capacity(count);
    for _ in 0..count {
        let name: String = (0..3 + next(8))
            .map(|_| char::from(LOWER[next(26)]))
            .collect();
        let value: String = (0..=next(24))
            .map(|_| char::from(PLAIN[next(PLAIN.len())]))
            .collect();
        pairs.push(format!("{name}={value}"));
    }
    pairs.join("&")
}

/// The HMAC-SHA1 signature (base64) of the request `case` (its method, URL and form body,
/// whose names and values are all unreserved, and its credentials, nonce and timestamp): RFC
/// 5849 §3.4 written out for such a request alone (the pairs sorted as they are, the base
/// string's parts encoded by the `percent-encoding` crate), so that the workload's expected
/// signature does not come from the crate measured.
fn plain_signature(case: &serde_json::Value) -> String {
    use base64::Engine;
    use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
    const RFC3986: &AsciiSet = &NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'.')
        .remove(b'_')
        .remove(b'~');
    let text = |key: &str| case[key].as_str().expect("a text field");
    let enc = |s: &str| utf8_percent_encode(s, RFC3986).to_string();
    let (base, query) = text("url").split_once('?').unwrap_or((text("url"), ""));
    let body = case["body"].as_str().unwrap_or("");
    let mut pairs: Vec<(String, String)> = [query, body]
        .iter()
        .flat_map(|t| t.split('&'))
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (n, v) = p.split_once('=').expect("name=value");
            assert_eq!((enc(n), enc(v)), (n.to_owned(), v.to_owned()), "plain");
            (n.to_owned(), v.to_owned())
        })
        .collect();
    for (name, key) in [
        ("oauth_consumer_key", "consumer_key"),
        ("oauth_nonce", "nonce"),
        ("oauth_timestamp", "timestamp"),
        ("oauth_token", "token"),
    ] {
        pairs.push((name.to_owned(), enc(text(key))));
    }
    pairs.push(("oauth_signature_method".to_owned(), "HMAC-SHA1".to_owned()));
    pairs.push(("oauth_version".to_owned(), "1.0".to_owned()));
    pairs.sort();
    let normalized: Vec<String> = pairs.iter().map(|(n, v)| format!("{n}={v}")).collect();
    let base_string = format!(
        "{}&{}&{}",
        text("method"),
        enc(base),
        enc(&normalized.join("&"))
    );
    let key = format!(
        "{}&{}",
        enc(text("consumer_secret")),
        enc(text("token_secret"))
    );
    base64::engine::general_purpose::STANDARD
        .encode(hmac_sha1(key.as_bytes(), base_string.as_bytes()))
}

/// The case named `name` in the fixture file at `path`, as JSON.
fn case_named(path: &str, name: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("fixture file");
    let cases: Vec<serde_json::Value> = serde_json::from_str(&text).expect("fixture JSON");
    cases
        .into_iter()
        .find(|c| c["name"] == name)
        .expect("the workload's case")
}

/// W3: a POST with a 64 KiB form body of mixed text.
pub fn w3() -> Workload {
    Workload::load("W3", "bench.json", "bench-w3-post-64-kib-form-body")
}

/// W3p: a POST with a 64 KiB form body of plain words (letters, and spaces as `+`).
pub fn w3p() -> Workload {
    Workload::load(
        "W3p",
        "bench.json",
        "bench-w3p-post-64-kib-form-body-plain-words",
    )
}

/// W3m: a POST with a 64 KiB form body of many short fields (1,005 of mixed text).
pub fn w3m() -> Workload {
    Workload::load(
        "W3m",
        "bench.json",
        "bench-w3m-post-64-kib-form-body-many-fields",
    )
}

/// W3u: a POST with a 64 KiB form body of text beyond ASCII, every byte an escape.
pub fn w3u() -> Workload {
    Workload::load("W3u", "bench.json", "bench-w3u-post-64-kib-form-body-utf8")
}

/// W3t: a POST whose 64 KiB form body is one field, `status=`, of text as people write it
/// (words, spaces and punctuation, 12% characters beyond ASCII), RFC 3986-encoded.
pub fn w3t() -> Workload {
    Workload::load("W3t", "bench.json", "bench-w3t-post-64-kib-status-text")
}

/// What makes a workload (and checks the crate's signature of it).
pub type MakeWorkload = fn() -> Workload;

/// The signing workloads by name (`W1`, `W2`, `W2p`, `W2b`, `W3`, `W3p`, `W3m`, `W3u`, `W3t`,
/// `W3l`), each made when asked for.
pub const WORKLOADS: [(&str, MakeWorkload); 10] = [
    ("W1", w1),
    ("W2", w2),
    ("W2p", w2p),
    ("W2b", w2b),
    ("W3", w3),
    ("W3p", w3p),
    ("W3m", w3m),
    ("W3u", w3u),
    ("W3t", w3t),
    ("W3l", w3l),
];

/// The workload named `name`, in any letter case, made and checked.
pub fn workload(name: &str) -> Option<Workload> {
    WORKLOADS
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, make)| make())
}

impl Workload {
    /// The request's parameters, decoded, as `oauth1-request` takes them (it reads no URL
    /// query and no body), and the URL without its query.
    pub fn peer_inputs(&self) -> (String, Vec<(String, String)>) {
        let (base, query) = self
            .case
            .url
            .split_once('?')
            .unwrap_or((&self.case.url, ""));
        let mut params = Vec::new();
        for text in [query.as_bytes(), self.body()] {
            for pair in text.split(|&b| b == b'&').filter(|p| !p.is_empty()) {
                let (n, v) = match pair.iter().position(|&b| b == b'=') {
                    Some(i) => (&pair[..i], &pair[i + 1..]),
                    None => (pair, &b""[..]),
                };
                let decode =
                    |t: &[u8]| String::from_utf8(decode_form(t).unwrap().into_owned()).unwrap();
                params.push((decode(n), decode(v)));
            }
        }
        (base.to_owned(), params)
    }

    /// The inputs of a request given by its parts: the URL without its query, and the
    /// query's and the form body's pairs decoded, as owned strings.
    pub fn parts_inputs(&self) -> (String, Pairs, Pairs) {
        let (base, query) = self
            .case
            .url
            .split_once('?')
            .unwrap_or((&self.case.url, ""));
        let decoded = |text: &[u8]| -> Pairs {
            let utf8 = |b: Vec<u8>| String::from_utf8(b).unwrap();
            pairs(text)
                .into_iter()
                .map(|(n, v)| (utf8(n), utf8(v)))
                .collect()
        };
        (
            base.to_owned(),
            decoded(query.as_bytes()),
            decoded(self.body()),
        )
    }

    /// The Authorization header of the workload's request given by its parts, with everything
    /// built here: the signer (which keys the HMAC) and the request from its parts.
    pub fn header_from_parts(
        &self,
        base: &str,
        query: &[(String, String)],
        form: &[(String, String)],
    ) -> String {
        let signer = Signer::new(Consumer::new(
            self.case.consumer_key.as_str(),
            self.case.consumer_secret.as_str(),
        ))
        .with_token(Token::new(self.token.as_str(), self.token_secret.as_str()));
        let parts = RequestParts::new(&self.case.method, base).unwrap();
        self.header_signed_by(&signer, parts, query, form)
    }

    /// The Authorization header of the workload's request given by its parts, `parts` (the
    /// method and URL) with the query's and the form's pairs added here, signed by `signer`,
    /// which a client keeps for all its requests.
    pub fn header_signed_by(
        &self,
        signer: &Signer,
        parts: RequestParts,
        query: &[(String, String)],
        form: &[(String, String)],
    ) -> String {
        let mut parts = parts.extend_query(query.iter().map(|(n, v)| (n, v)));
        if self.case.body.is_some() {
            parts = parts.extend_form(form.iter().map(|(n, v)| (n, v)));
        }
        signer
            .sign_parts(&parts, &self.nonce, self.timestamp)
            .unwrap()
            .authorization()
    }

    /// Loads the case and checks the crate's signature of it against the fixture's.
    pub fn load(name: &'static str, file: &str, case_name: &str) -> Self {
        let path = format!("{}/../fixtures/{file}", env!("CARGO_MANIFEST_DIR"));
        Workload::from_case(name, case_named(&path, case_name))
    }

    /// The workload of a request case given as JSON, checked as [`Workload::load`] checks.
    pub fn from_case(name: &'static str, case: serde_json::Value) -> Self {
        let case: Case = serde_json::from_value(case).expect("a request case");
        let token = case.token.clone().expect("a token");
        let token_secret = case.token_secret.clone().expect("a token secret");
        let signature = case
            .expected()
            .expect("the case's expected values")
            .signature
            .expect("an expected signature");
        let signer = Signer::new(Consumer::new(
            case.consumer_key.as_str(),
            case.consumer_secret.as_str(),
        ))
        .with_token(Token::new(token.as_str(), token_secret.as_str()));
        let w = Workload {
            name,
            token,
            token_secret,
            signature,
            url: Url::parse(&case.url).expect("URL"),
            nonce: Nonce::new(case.nonce.as_str()).expect("nonce"),
            timestamp: Timestamp::new(case.timestamp.parse().expect("timestamp")),
            signer,
            case,
        };
        let ours = w.signer.sign(&w.request(), &w.nonce, w.timestamp).unwrap();
        assert_eq!(
            ours.signature().as_str(),
            w.signature,
            "{name}: the crate's signature"
        );
        w
    }

    /// The request's headers as sent: a form body's Content-Type, when it has one.
    pub fn content_type(&self) -> http::HeaderMap {
        let mut headers = http::HeaderMap::new();
        if self.case.body.is_some() {
            headers.insert(
                http::header::CONTENT_TYPE,
                http::HeaderValue::from_static("application/x-www-form-urlencoded"),
            );
        }
        headers
    }

    /// The Authorization header's value that the `http` and reqwest integrations write for the
    /// workload's request sent to `url` with `headers` and its body, signed by `signer` from
    /// the wire (`http::sign_url`).
    pub fn header_from_wire(
        &self,
        signer: &Signer,
        url: &str,
        headers: &http::HeaderMap,
    ) -> http::HeaderValue {
        let (_, written) = oauth1_signer::http::sign_url(
            signer,
            &self.case.method,
            url,
            headers,
            self.body(),
            Transport::Header,
            &self.nonce,
            self.timestamp,
        )
        .unwrap();
        match written {
            Written::Header(value) => value,
            _ => unreachable!("signed for the header"),
        }
    }

    /// The Authorization header of the workload's request sent to `url` with its body, as most
    /// clients sign it: `Request::new` reads the URL string (query included) and takes the
    /// form body as sent, `signer` signs it (the query and the form decoded), the header made.
    pub fn header_from_request(&self, signer: &Signer, url: &str) -> String {
        let request = Request::new(&self.case.method, url).unwrap();
        let request = if self.case.body.is_some() {
            request.with_form_body(self.body())
        } else {
            request
        };
        signer
            .sign(&request, &self.nonce, self.timestamp)
            .unwrap()
            .authorization()
    }

    pub fn body(&self) -> &[u8] {
        self.case.body.as_deref().unwrap_or("").as_bytes()
    }

    pub fn request(&self) -> Request<'_> {
        let request = Request::from_url(&self.case.method, &self.url).expect("request");
        if self.case.body.is_some() {
            request.with_form_body(self.body())
        } else {
            request
        }
    }

    /// The request by its parts: the URL without its query, and the query's and the form
    /// body's parameters decoded.
    pub fn parts(&self) -> RequestParts {
        let (base, query) = self
            .case
            .url
            .split_once('?')
            .unwrap_or((&self.case.url, ""));
        let mut parts = RequestParts::new(&self.case.method, base).expect("parts");
        for (name, value) in pairs(query.as_bytes()) {
            parts = parts.query(name, value);
        }
        if self.case.body.is_some() {
            parts = parts.with_empty_form();
            for (name, value) in pairs(self.body()) {
                parts = parts.form(name, value);
            }
        }
        parts
    }

    /// `count` Authorization headers for the request, each with its own nonce, for a nonce
    /// store that sees a new nonce every time.
    pub fn headers(&self, count: usize) -> Vec<String> {
        (0..count)
            .map(|i| {
                let nonce = Nonce::new(format!("{}{i:06}", &self.case.nonce[..36])).unwrap();
                self.signer
                    .sign(&self.request(), &nonce, self.timestamp)
                    .unwrap()
                    .authorization()
            })
            .collect()
    }

    /// A credential store that knows the case's consumer and token.
    pub fn credentials(&self) -> MemoryCredentials {
        let mut credentials = MemoryCredentials::new();
        credentials.add_consumer(
            self.case.consumer_key.as_str(),
            self.case.consumer_secret.as_str(),
        );
        credentials.add_token(
            self.case.consumer_key.as_str(),
            self.token.as_str(),
            self.token_secret.as_str(),
        );
        credentials
    }
}

/// 1 MiB of mixed text: 30% spaces and reserved characters, 5% multi-byte UTF-8, the rest
/// letters and digits (a fixed pseudo-random sequence).
pub fn mixed_text(len: usize) -> Vec<u8> {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    const RESERVED: &[u8] = b"      !#$&'()*+,/:;=?@[]%~-._";
    const MULTI: [&str; 6] = ["é", "ü", "Ж", "中", "€", "😀"];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::with_capacity(len + 4);
    while out.len() < len {
        let r = next();
        let pick = usize::try_from(r >> 40).unwrap();
        match r % 100 {
            0..30 => out.push(RESERVED[pick % RESERVED.len()]),
            30..35 => out.extend_from_slice(MULTI[pick % MULTI.len()].as_bytes()),
            _ => out.push(LETTERS[pick % LETTERS.len()]),
        }
    }
    out.truncate(len);
    out
}

/// The decoded `name=value` pairs of a query or form body.
pub fn pairs(text: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    text.split(|&b| b == b'&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = match pair.iter().position(|&b| b == b'=') {
                Some(i) => (&pair[..i], &pair[i + 1..]),
                None => (pair, &b""[..]),
            };
            let decoded = |t: &[u8]| decode_form(t).expect("form text").into_owned();
            (decoded(name), decoded(value))
        })
        .collect()
}

pub fn hmac_sha1(key: &[u8], data: &[u8]) -> [u8; 20] {
    let mut mac = Hmac::<Sha1>::new_from_slice(key).unwrap();
    mac.update(data);
    mac.finalize().into_bytes().into()
}

/// `oauth1-request`'s Authorization header for the workload.
pub fn peer_authorization(w: &Workload, uri: &str, params: &[(String, String)]) -> String {
    let token = oauth1_request::Token::from_parts(
        w.case.consumer_key.as_str(),
        w.case.consumer_secret.as_str(),
        w.token.as_str(),
        w.token_secret.as_str(),
    );
    let mut builder = oauth1_request::Builder::with_token(token, oauth1_request::HMAC_SHA1);
    builder
        .nonce(w.case.nonce.as_str())
        .timestamp(std::num::NonZeroU64::new(w.timestamp.as_secs()))
        .version(true);
    let list = oauth1_request::ParameterList::new(
        params
            .iter()
            .map(|(n, v)| (n.as_str(), v as &dyn Display))
            .collect::<Vec<_>>(),
    );
    builder.authorize(&w.case.method, uri, &list)
}

/// The service behind the layer: answers 200 at once, with nothing read.
#[derive(Clone)]
pub struct Ok200;

impl Service<http::Request<Full<Bytes>>> for Ok200 {
    type Response = http::Response<String>;
    type Error = Infallible;
    type Future = Ready<Result<Self::Response, Infallible>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, _: http::Request<Full<Bytes>>) -> Self::Future {
        ready(Ok(http::Response::new(String::new())))
    }
}

/// The W1 request as a server receives it (method, request target, Host, Content-Type, the
/// Authorization header, the form body), once for each header.
pub fn received(w: &Workload, headers: &[String]) -> Vec<http::Request<Full<Bytes>>> {
    let making = Making::new(w);
    headers
        .iter()
        .map(|header| making.request(header))
        .collect()
}

/// What makes `w`'s request as a server receives it, given its `Authorization` header.
pub struct Making<'w> {
    w: &'w Workload,
    target: String,
    body: Bytes,
}

impl<'w> Making<'w> {
    /// The request target (path and query) and the body of `w`, made once.
    pub fn new(w: &'w Workload) -> Self {
        let target = match w.url.query() {
            Some(query) => format!("{}?{query}", w.url.path()),
            None => w.url.path().to_owned(),
        };
        let body = Bytes::copy_from_slice(w.body());
        Making { w, target, body }
    }

    /// The request with `header`: its method, target, `Host`, `Authorization` and
    /// `Content-Type` copied into a new `http::Request`, its body shared.
    pub fn request(&self, header: &str) -> http::Request<Full<Bytes>> {
        let mut request = http::Request::builder()
            .method(self.w.case.method.as_str())
            .uri(self.target.as_str())
            .header(http::header::HOST, self.w.url.host_str().expect("a host"))
            .header(http::header::AUTHORIZATION, header);
        for (name, value) in &self.w.content_type() {
            request = request.header(name, value);
        }
        request
            .body(Full::new(self.body.clone()))
            .expect("a request")
    }
}

/// The tower layer over [`Ok200`] for `w`'s origin, verifying with a new memory nonce store at
/// the workload's time.
pub fn layered(w: &Workload) -> VerifyService<Ok200, MemoryCredentials, MemoryNonceStore> {
    let origin = format!("{}://{}", w.url.scheme(), w.url.host_str().expect("a host"));
    let verifier = Verifier::new(w.credentials(), MemoryNonceStore::new())
        .with_clock(Clock::fixed(w.timestamp));
    VerifyLayer::new(verifier, &origin)
        .expect("the origin")
        .layer(Ok200)
}

/// Hands `request` to `service`, whose answer must come at once (the memory stores never
/// wait), and be 200.
#[inline]
pub fn serve_at_once<S>(service: &mut S, request: http::Request<Full<Bytes>>)
where
    S: Service<http::Request<Full<Bytes>>, Response = http::Response<String>, Error = Infallible>,
{
    match pin!(service.call(request)).poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(Ok(response)) => assert_eq!(response.status(), 200),
        _ => panic!("the layer answers at once, and 200"),
    }
}
