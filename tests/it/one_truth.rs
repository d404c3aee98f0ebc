//! One truth: over every capture, case file, explain line and verify line of `fixtures/`,
//! `oauth1 explain` answers `match` exactly when `oauth1 verify` accepts the signature
//! ([`agree`](crate::agree)); and so for each request with parameters of its own in its
//! `Authorization` header, which a verifier collects (RFC 5849 §3.4.1.3.1), signed with them
//! and without them.

use oauth1_capture::Capture;
use oauth1_signer::{Nonce, Request, Signer};
use serde_json::Value;

use crate::agree::{answers, Answers};
use crate::common::{case_files, fixtures_dir, header_of};

/// A request as a capture holds it, with the secrets to check it.
struct Received {
    name: String,
    capture: Capture,
    consumer_secret: String,
    token_secret: String,
}

fn text<'v>(line: &'v Value, field: &str) -> Option<&'v str> {
    line.get(field).and_then(Value::as_str)
}

/// A case line (published vectors, edge cases, explain lines) as its client sent it: the
/// header of `signature`, the method, URL, `Content-Type` and body.
fn from_case(line: &Value, signature: &str) -> Received {
    let mut capture = Capture::typed(
        text(line, "method").unwrap_or("GET"),
        text(line, "url").unwrap(),
        text(line, "content_type"),
        text(line, "body").unwrap_or("").as_bytes().to_vec(),
    );
    capture
        .headers
        .push(("Authorization".to_owned(), header_of(line, signature)));
    Received {
        name: text(line, "name").unwrap_or("?").to_owned(),
        capture,
        consumer_secret: text(line, "consumer_secret").unwrap_or("").to_owned(),
        token_secret: text(line, "token_secret").unwrap_or("").to_owned(),
    }
}

fn read(path: &std::path::Path) -> Vec<Value> {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn is_rsa(line: &Value) -> bool {
    text(line, "signature_method").is_some_and(|m| m.starts_with("RSA"))
        || text(line, "authorization").is_some_and(|h| h.contains("RSA-SHA"))
}

/// Every request of `fixtures/` that carries its signature, with its secrets (RSA ones
/// aside: the verifier needs the public key, which the lines do not carry).
fn received() -> Vec<Received> {
    let mut all = Vec::new();
    // The case files: each client's signature is the expected one.
    for path in case_files() {
        for line in read(&path) {
            let Some(signature) = line["expected"].get("signature").and_then(Value::as_str) else {
                continue;
            };
            if !is_rsa(&line) {
                all.push(from_case(&line, signature));
            }
        }
    }
    // The explain lines: each client's signature is the observed one.
    for line in read(&fixtures_dir().join("explain.json")) {
        if let Some(signature) = line["observed"].get("signature").and_then(Value::as_str) {
            if !is_rsa(&line) {
                all.push(from_case(&line, signature));
            }
        }
    }
    // The verify lines: requests as received, their header given.
    for file in ["verify.json", "verify-published.json"] {
        for line in read(&fixtures_dir().join(file)) {
            if is_rsa(&line) {
                continue;
            }
            let mut capture = Capture::typed(
                text(&line, "method").unwrap_or("GET"),
                text(&line, "url").unwrap(),
                text(&line, "content_type"),
                text(&line, "body").unwrap_or("").as_bytes().to_vec(),
            );
            if let Some(header) = text(&line, "authorization") {
                capture
                    .headers
                    .push(("Authorization".to_owned(), header.to_owned()));
            }
            all.push(Received {
                name: text(&line, "name").unwrap_or("?").to_owned(),
                capture,
                consumer_secret: text(&line, "consumer_secret").unwrap_or("").to_owned(),
                token_secret: text(&line, "token_secret").unwrap_or("").to_owned(),
            });
        }
    }
    // The captures, with the secrets of the two sample requests they carry.
    let secrets = [
        (
            "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
            "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
        ),
        ("kd94hf93k423kf44", "pfkkdhi9sl3r4s00"),
    ];
    let dir = fixtures_dir().join("captures");
    let mut captures = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        match path.extension().and_then(|e| e.to_str()) {
            Some("curl") => {
                captures.push((name, Capture::from_curl(&String::from_utf8(bytes).unwrap())));
            }
            Some("http") => captures.push((name, Capture::from_http(&bytes, "https"))),
            Some("har") => {
                let json = String::from_utf8(bytes).unwrap();
                for (n, capture) in Capture::from_har(&json, None).unwrap() {
                    captures.push((format!("{name} entry {n}"), Ok(capture)));
                }
            }
            _ => {}
        }
    }
    assert!(captures.len() >= 8, "{} captures", captures.len());
    for (name, capture) in captures {
        let capture = capture.unwrap_or_else(|e| panic!("{name}: {e}"));
        for (consumer_secret, token_secret) in secrets {
            all.push(Received {
                name: name.clone(),
                capture: capture.clone(),
                consumer_secret: consumer_secret.to_owned(),
                token_secret: token_secret.to_owned(),
            });
        }
    }
    all
}

fn check(received: &Received, what: &str, failures: &mut Vec<String>) -> Answers {
    CHECKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let answers = answers(
        &received.capture,
        &received.consumer_secret,
        &received.token_secret,
    );
    if !answers.agree() {
        failures.push(format!("{} ({what}): {answers:?}", received.name));
    }
    answers
}

/// How many requests were checked.
static CHECKS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// `header` with `name="value"` added at its end.
fn with_header_parameter(header: &str, name: &str, value: &str) -> String {
    format!(
        "{header}, {name}=\"{}\"",
        oauth1_signer::encode::encode(value.as_bytes())
    )
}

fn set_authorization(capture: &mut Capture, header: &str) {
    for (name, value) in &mut capture.headers {
        if name.eq_ignore_ascii_case("authorization") {
            header.clone_into(value);
        }
    }
}

/// The signature of `received` with `extra` among its parameters, wherever it travels (the
/// base string is the same): a client that signs what it puts in the header.
fn signed_with(received: &Received, extra: (&str, &str)) -> Option<String> {
    let (as_signed, protocol) = received.capture.protocol().ok()?;
    let signer: Signer = protocol
        .signer(&received.consumer_secret, Some(&received.token_secret))
        .ok()?;
    let separator = if as_signed.url.contains('?') {
        '&'
    } else {
        '?'
    };
    let url = format!(
        "{}{separator}{}={}",
        as_signed.url,
        extra.0,
        oauth1_signer::encode::encode(extra.1.as_bytes())
    );
    let mut request = Request::new(&as_signed.method, &url).ok()?.with_body(
        as_signed.header("content-type").unwrap_or(""),
        &as_signed.body,
    );
    if let Some(callback) = &protocol.callback {
        request = request.with_callback(callback);
    }
    if let Some(verifier) = &protocol.verifier {
        request = request.with_verifier(verifier);
    }
    let nonce: Nonce = protocol.nonce().ok()?;
    let done = signer
        .sign(&request, &nonce, protocol.timestamp().ok()?)
        .ok()?;
    Some(done.signature().as_str().to_owned())
}

/// `header` with its `oauth_signature` replaced by `signature`.
fn with_signature(header: &str, signature: &str) -> String {
    let start = header.find("oauth_signature=\"").unwrap() + "oauth_signature=\"".len();
    let end = start + header[start..].find('"').unwrap();
    format!(
        "{}{}{}",
        &header[..start],
        oauth1_signer::encode::encode(signature.as_bytes()),
        &header[end..]
    )
}

#[test]
fn explain_matches_exactly_the_requests_verify_accepts() {
    let mut failures = Vec::new();
    let mut accepted = 0;
    let mut refused = 0;
    let mut with_extras = 0;
    let all = received();
    for received in &all {
        let answers = check(received, "as sent", &mut failures);
        if answers.verify.is_ok() {
            accepted += 1;
        } else {
            refused += 1;
        }
        let Some(header) = received.capture.oauth_authorization().map(str::to_owned) else {
            continue;
        };
        if !header.contains("oauth_signature=\"") || answers.verify.is_err() {
            continue;
        }
        // A parameter of the request's own written into the header too, as some clients
        // write them, and a parameter the header alone carries: signed without them, the
        // verifier refuses the request, and explain must not answer `match`.
        let query = received.capture.url.split_once('?').map(|(_, q)| q);
        let first = query
            .and_then(|q| q.split('&').next())
            .filter(|pair| !pair.is_empty() && !pair.starts_with("oauth_"))
            .map(|pair| {
                let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
                (name.to_owned(), value.to_owned())
            });
        let mut extras = vec![("x_extra".to_owned(), "1 2".to_owned())];
        if let Some((name, value)) = first {
            let decode = |s: &str| {
                oauth1_signer::encode::decode(s.replace('+', " ").as_bytes())
                    .ok()
                    .and_then(|b| String::from_utf8(b.into_owned()).ok())
            };
            if let (Some(name), Some(value)) = (decode(&name), decode(&value)) {
                extras.push((name, value));
            }
        }
        for (name, value) in extras {
            let mut unsigned = Received {
                name: received.name.clone(),
                capture: received.capture.clone(),
                consumer_secret: received.consumer_secret.clone(),
                token_secret: received.token_secret.clone(),
            };
            let header_with = with_header_parameter(&header, &name, &value);
            set_authorization(&mut unsigned.capture, &header_with);
            let answers = check(
                &unsigned,
                &format!("{name} in the header, unsigned"),
                &mut failures,
            );
            // PLAINTEXT signs no parameter: accepted all the same, and `match` all the same.
            if !header.contains("PLAINTEXT") {
                assert!(
                    answers.verify.is_err(),
                    "{}: {name} unsigned accepted",
                    received.name
                );
            }
            // Signed with it, the verifier accepts, and explain must answer `match`.
            if let Some(signature) = signed_with(received, (&name, &value)) {
                let mut signed = unsigned;
                set_authorization(
                    &mut signed.capture,
                    &with_signature(&header_with, &signature),
                );
                check(
                    &signed,
                    &format!("{name} in the header, signed"),
                    &mut failures,
                );
                with_extras += 1;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} disagree:\n{}",
        failures.len(),
        CHECKS.load(std::sync::atomic::Ordering::Relaxed),
        failures.join("\n")
    );
    // Enough of each kind that the property says something.
    assert!(
        accepted >= 100 && refused >= 100,
        "{accepted} accepted, {refused} refused"
    );
    assert!(
        with_extras >= 100,
        "{with_extras} signed with header parameters"
    );
}
