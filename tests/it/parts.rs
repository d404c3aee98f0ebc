//! Requests given by their parts: every fixture case that a client can give as decoded query
//! and form parameters signs to the published or peer-computed signature, and what the parts
//! say to send signs and verifies the same.

use crate::common;

use crate::common::At;
use common::{case_files, read_cases, signer, Case};
use oauth1_server::{MemoryCredentials, MemoryNonceStore, Policy, Verifier};
use oauth1_signer::encode::decode_form;
use oauth1_signer::parts::Endpoint;
use oauth1_signer::{Error, Nonce, Request, RequestParts, SignatureMethod, Timestamp};

/// The `name=value` pairs of a query or form body, decoded as a form decodes them.
fn pairs(text: &str) -> Vec<(Vec<u8>, Vec<u8>)> {
    text.split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let decoded = |t: &str| decode_form(t.as_bytes()).unwrap().into_owned();
            (decoded(name), decoded(value))
        })
        .collect()
}

fn is_form(case: &Case) -> bool {
    case.content_type.as_deref().is_some_and(|t| {
        t.split(';')
            .next()
            .unwrap()
            .trim()
            .eq_ignore_ascii_case("application/x-www-form-urlencoded")
    })
}

/// How [`parts_built`] builds a request.
#[derive(Clone, Copy, Debug)]
enum Built {
    /// From its URL, the parameters given one by one.
    OneByOne,
    /// From its URL, the parameters given all at once ([`RequestParts::extend_query`],
    /// [`RequestParts::extend_form`]).
    Bulk,
    /// At an [`Endpoint`] read from its URL, the parameters given all at once.
    AtEndpoint,
}

const EVERY_WAY: [Built; 3] = [Built::OneByOne, Built::Bulk, Built::AtEndpoint];

/// The case as parts built `how`, or `None` when parts cannot say it: a body that is not a
/// form, a malformed escape, a URL the parts refuse (the fixtures' refusals are tested
/// elsewhere).
fn parts_built(case: &Case, how: Built) -> Option<RequestParts> {
    let body = case.body.as_deref().unwrap_or("");
    if !body.is_empty() && !is_form(case) {
        return None;
    }
    let url = case.url.split('#').next().unwrap();
    let (base, query) = url.split_once('?').unwrap_or((url, ""));
    let decodes = |text: &str| {
        text.split(['&', '='])
            .all(|t| decode_form(t.as_bytes()).is_ok())
    };
    if !decodes(query) || !decodes(body) {
        return None;
    }
    let mut parts = match how {
        Built::AtEndpoint => RequestParts::at(&case.method, &Endpoint::new(base).ok()?).ok()?,
        _ => RequestParts::new(&case.method, base).ok()?,
    };
    if matches!(how, Built::OneByOne) {
        for (name, value) in pairs(query) {
            parts = parts.query(name, value);
        }
        if is_form(case) {
            parts = parts.with_empty_form();
            for (name, value) in pairs(body) {
                parts = parts.form(name, value);
            }
        }
    } else {
        parts = parts.extend_query(pairs(query));
        if is_form(case) {
            parts = parts.extend_form(pairs(body));
        }
    }
    if let Some(callback) = &case.callback {
        parts = parts.with_callback(callback.as_str());
    }
    if let Some(verifier) = &case.verifier {
        parts = parts.with_verifier(verifier.as_str());
    }
    Some(parts)
}

fn cases() -> Vec<Case> {
    case_files()
        .iter()
        .flat_map(|f| read_cases(f))
        .filter(|c| c.expected.signature.is_some() && !c.expected.error)
        .filter(|c| oauth1_cases::RSA || c.private_key_pem.is_none())
        .collect()
}

fn sign_parts(case: &Case, parts: &RequestParts) -> Result<String, Error> {
    let signed = signer(case)?.sign_parts(
        parts,
        &Nonce::new(case.nonce.as_str())?,
        case.timestamp.parse()?,
    )?;
    Ok(signed.signature().as_str().to_owned())
}

#[test]
fn every_fixture_a_client_can_give_by_parts_signs_as_expected() {
    let mut run = 0;
    let mut failures = Vec::new();
    for case in cases() {
        for how in EVERY_WAY {
            let Some(parts) = parts_built(&case, how) else {
                continue;
            };
            match sign_parts(&case, &parts) {
                Ok(signature) if Some(&signature) == case.expected.signature.as_ref() => run += 1,
                Ok(signature) => failures.push(format!("{} ({how:?}): got {signature}", case.name)),
                Err(e) => failures.push(format!("{} ({how:?}): {e}", case.name)),
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(run >= 120, "only {run} cases");
}

#[test]
fn what_the_parts_send_is_what_they_signed() {
    let mut run = 0;
    let cases = cases();
    for (case, how) in cases.iter().flat_map(|c| EVERY_WAY.map(|how| (c, how))) {
        let Some(parts) = parts_built(case, how) else {
            continue;
        };
        let body = parts.form_body().unwrap_or_default();
        let url = parts.url();
        let mut sent = Request::new(&case.method, &url)
            .unwrap()
            .with_body(parts.content_type().unwrap_or(""), &body);
        if let Some(callback) = &case.callback {
            sent = sent.with_callback(callback);
        }
        if let Some(verifier) = &case.verifier {
            sent = sent.with_verifier(verifier);
        }
        let signer = signer(case).unwrap();
        let nonce = Nonce::new(case.nonce.as_str()).unwrap();
        let timestamp: Timestamp = case.timestamp.parse().unwrap();
        let from_parts = signer.sign_parts(&parts, &nonce, timestamp).unwrap();
        let from_wire = signer.sign(&sent, &nonce, timestamp).unwrap();
        assert_eq!(
            from_parts.base_string(),
            from_wire.base_string(),
            "{} ({how:?})",
            case.name
        );

        // A server holding the credentials takes what was sent (a server refuses `oauth_*`
        // names beside the header, whatever they are).
        let oauth_named = parts.parameters().any(|p| p.name.starts_with(b"oauth_"));
        if signer.method().is_rsa() || case.token.is_none() || oauth_named {
            continue;
        }
        let mut credentials = MemoryCredentials::new();
        credentials.add_consumer(case.consumer_key.as_str(), case.consumer_secret.as_str());
        credentials.add_token(
            case.consumer_key.as_str(),
            case.token.as_deref().unwrap(),
            case.token_secret.as_deref().unwrap_or(""),
        );
        let verified = Verifier::new(credentials, MemoryNonceStore::new())
            .with_policy(
                Policy::default()
                    .allow_plaintext(true)
                    .allow_plaintext_over_http(true)
                    .with_timestamp_window(u64::MAX / 4),
            )
            .at(timestamp)
            .blocking()
            .verify(&sent, Some(&from_parts.authorization()));
        assert!(verified.is_ok(), "{} ({how:?}): {verified:?}", case.name);
        run += 1;
    }
    assert!(run >= 60, "only {run} cases");
}

#[test]
fn parts_are_sent_encoded_by_rfc_3986() {
    // RFC 5849 §3.4.1.3.1's example request, by its parts (`c2` has an empty value, `a3` is
    // given twice).
    let parts = RequestParts::new(
        "POST",
        "http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b",
    )
    .unwrap()
    .form("c2", "")
    .form("a3", "2 q");
    assert_eq!(
        parts.url(),
        "http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b"
    );
    assert_eq!(parts.form_body().unwrap(), b"c2=&a3=2%20q");
    assert_eq!(
        parts.content_type(),
        Some("application/x-www-form-urlencoded")
    );
    // Reserved and non-ASCII bytes, `+`, `~` and bytes that are not UTF-8.
    let parts = RequestParts::new("GET", "https://a.example/p?x=1+2#frag")
        .unwrap()
        .query("k~", b"\xff+ /".as_slice());
    assert_eq!(parts.url(), "https://a.example/p?x=1%202&k~=%FF%2B%20%2F");
    assert_eq!(parts.form_body(), None);
}

#[test]
fn parts_refuse_what_a_request_refuses() {
    let err = |r: Result<RequestParts, Error>| r.unwrap_err().to_string();
    assert_eq!(
        err(RequestParts::new("GET", "https://a.example/?a=%zz")),
        "invalid percent-encoding in the query at byte 2 (\"%zz\"): '%' must be followed by two hex digits"
    );
    assert!(err(RequestParts::new("G T", "https://a.example/")).contains("method"));
    assert!(err(RequestParts::new("GET", "ftp://a.example/")).contains("ftp"));
    let parts = RequestParts::new("POST", "https://a.example/")
        .unwrap()
        .form("oauth_nonce", "x");
    let signer = oauth1_signer::Signer::new(oauth1_signer::Consumer::new("k", "s"))
        .with_method(SignatureMethod::HmacSha1);
    let e = signer
        .sign_parts(&parts, &Nonce::new("n").unwrap(), Timestamp::new(1))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "the form body already has the protocol parameter \"oauth_nonce\": remove it, the signer adds it"
    );
}
