//! The `http` integration: every fixture case with an expected signature, built as an
//! `http::Request` and signed in place in each transport, gives the published signature; the
//! request then carries it where the transport says, and verifies.
#![cfg(feature = "http")]

use crate::common;

use crate::common::At;
use common::{case_files, header_parts, read_cases, signer, Case};
use oauth1_server::{MemoryCredentials, MemoryNonceStore, Policy, Verifier};
use oauth1_signer::http::{self, Transport};
use oauth1_signer::{Consumer, Error, Nonce, Request, SignatureMethod, Signer, Timestamp};

/// The case as an `http::Request`, or `None` if `http` refuses its method or URI (which a
/// client using `http` could not send either).
fn http_request(case: &Case) -> Option<::http::Request<Vec<u8>>> {
    let mut builder = ::http::Request::builder()
        .method(case.method.as_str())
        .uri(case.url.as_str());
    if let Some(content_type) = &case.content_type {
        builder = builder.header("content-type", content_type.as_str());
    }
    builder
        .body(case.body.clone().unwrap_or_default().into_bytes())
        .ok()
}

/// Cases this integration can carry: an expected signature, and no `oauth_callback` or
/// `oauth_verifier` (which belong to the three-legged flow's own requests).
fn signable_cases() -> Vec<Case> {
    case_files()
        .iter()
        .flat_map(|f| read_cases(f))
        .filter(|c| c.expected.signature.is_some() && !c.expected.error)
        .filter(|c| c.callback.is_none() && c.verifier.is_none())
        .filter(|c| oauth1_cases::RSA || c.private_key_pem.is_none())
        .collect()
}

fn sign(
    case: &Case,
    request: &mut ::http::Request<Vec<u8>>,
    transport: Transport,
) -> Result<String, http::SignError> {
    let signed = http::sign_with(
        &signer(case)?,
        request,
        transport,
        &Nonce::new(case.nonce.as_str())?,
        case.timestamp.parse()?,
    )?;
    Ok(signed.signature().as_str().to_owned())
}

#[test]
fn every_fixture_signs_alike_in_the_header() {
    let mut run = 0;
    for case in signable_cases() {
        let Some(mut request) = http_request(&case) else {
            continue;
        };
        let signature = sign(&case, &mut request, Transport::Header)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert_eq!(
            Some(&signature),
            case.expected.signature.as_ref(),
            "{}",
            case.name
        );
        let header = request.headers()["authorization"].to_str().unwrap();
        if let Some(expected) = &case.expected.authorization {
            assert_eq!(
                header_parts(header).unwrap(),
                header_parts(expected).unwrap(),
                "{}",
                case.name
            );
        }
        assert!(request.headers()["authorization"].is_sensitive());
        run += 1;
    }
    // Every published case but those with callbacks, verifiers or a URI `http` refuses.
    assert!(run >= 50, "only {run} cases ran");
}

/// The same signature in the query and in the form body, and the request as sent then
/// verifies: the parameters were written where the verifier reads them.
#[test]
fn query_and_form_transports_carry_the_same_signature() {
    let mut run = [0, 0];
    for case in signable_cases() {
        for (i, transport) in [Transport::Query, Transport::FormBody]
            .into_iter()
            .enumerate()
        {
            let Some(mut request) = http_request(&case) else {
                continue;
            };
            let is_form_or_empty = match case.content_type.as_deref() {
                None | Some("") => case.body.as_deref().unwrap_or("").is_empty(),
                Some(t) => t
                    .split(';')
                    .next()
                    .unwrap()
                    .trim()
                    .eq_ignore_ascii_case("application/x-www-form-urlencoded"),
            };
            if transport == Transport::FormBody && !is_form_or_empty {
                let err = sign(&case, &mut request, transport).unwrap_err();
                assert!(
                    matches!(err, http::SignError::FormTransportWithoutForm { .. }),
                    "{}: {err}",
                    case.name
                );
                continue;
            }
            if transport == Transport::FormBody && case.body_hash {
                // Sent as a form, the request's parameters are signed, and a body hash is
                // refused.
                let err = sign(&case, &mut request, transport).unwrap_err();
                assert!(
                    matches!(err, http::SignError::Sign(Error::BodyHashOnFormBody { .. })),
                    "{}: {err}",
                    case.name
                );
                continue;
            }
            let signature = sign(&case, &mut request, transport)
                .unwrap_or_else(|e| panic!("{} ({transport:?}): {e}", case.name));
            assert_eq!(
                Some(&signature),
                case.expected.signature.as_ref(),
                "{} ({transport:?})",
                case.name
            );
            assert!(!request.headers().contains_key("authorization"));
            assert_verifies(&case, &request);
            run[i] += 1;
        }
    }
    assert!(run[0] >= 50 && run[1] >= 40, "only {run:?} cases ran");
}

/// Verifies the request as written, with the case's credentials, at the case's time.
fn assert_verifies(case: &Case, request: &::http::Request<Vec<u8>>) {
    let method: SignatureMethod = case
        .signature_method
        .as_deref()
        .unwrap_or("HMAC-SHA1")
        .parse()
        .unwrap();
    if method.is_rsa() {
        return; // the verifier needs the public key; the RSA round trip is tested elsewhere
    }
    if case.url.contains("oauth_") || case.body.as_deref().unwrap_or("").contains("oauth_") {
        // The verifier takes any `oauth_*` parameter for a protocol parameter, so it refuses
        // one in the query beside the protocol parameters in the body, and the reverse.
        return;
    }
    let mut credentials = MemoryCredentials::new();
    credentials.add_consumer(case.consumer_key.as_str(), case.consumer_secret.as_str());
    if let Some(token) = &case.token {
        credentials.add_token(
            case.consumer_key.as_str(),
            token.as_str(),
            case.token_secret.as_deref().unwrap_or(""),
        );
    }
    let policy = Policy::default()
        .with_methods(&[method])
        .allow_plaintext_over_http(true)
        .with_timestamp_window(u64::MAX);
    let verifier = Verifier::new(credentials, MemoryNonceStore::new()).with_policy(policy);
    let content_type = request
        .headers()
        .get("content-type")
        .map_or("", |v| v.to_str().unwrap());
    let url = request.uri().to_string();
    let parsed = Request::new(request.method().as_str(), &url)
        .unwrap()
        .with_body(content_type, request.body());
    let timestamp: Timestamp = case.timestamp.parse().unwrap();
    if let Err(e) = verifier.at(timestamp).blocking().verify(&parsed, None) {
        panic!("{}: {url} does not verify: {e}", case.name);
    }
}

#[test]
fn transports_write_where_the_rfc_says() {
    let signer = Signer::new(Consumer::new("key", "secret"));
    let nonce = Nonce::new("n").unwrap();
    let at = Timestamp::new(1);
    let expected_params = "oauth_consumer_key=key&oauth_nonce=n&oauth_signature_method=HMAC-SHA1&oauth_timestamp=1&oauth_version=1.0&oauth_signature=";

    // The query: after `?`, or after the query it has, before no fragment.
    for (uri, prefix) in [
        ("https://example.com/a", "https://example.com/a?"),
        ("https://example.com/a?", "https://example.com/a?"),
        ("https://example.com/a?b=1", "https://example.com/a?b=1&"),
    ] {
        let mut request = ::http::Request::post(uri).body(Vec::new()).unwrap();
        http::sign_with(&signer, &mut request, Transport::Query, &nonce, at).unwrap();
        let written = request.uri().to_string();
        assert!(
            written.starts_with(&format!("{prefix}{expected_params}")),
            "{written}"
        );
    }

    // The form body: appended with `&`; an empty body without a type becomes a form.
    let mut request = ::http::Request::post("https://example.com/a")
        .header(
            "content-type",
            "application/x-www-form-urlencoded; charset=utf-8",
        )
        .body(b"b=1".to_vec())
        .unwrap();
    http::sign_with(&signer, &mut request, Transport::FormBody, &nonce, at).unwrap();
    let body = String::from_utf8(request.body().clone()).unwrap();
    assert!(
        body.starts_with(&format!("b=1&{expected_params}")),
        "{body}"
    );
    let mut request = ::http::Request::post("https://example.com/a")
        .body(Vec::new())
        .unwrap();
    http::sign_with(&signer, &mut request, Transport::FormBody, &nonce, at).unwrap();
    assert!(request.body().starts_with(expected_params.as_bytes()));
    assert_eq!(
        request.headers()["content-type"],
        "application/x-www-form-urlencoded"
    );

    // A JSON body cannot carry the parameters.
    let mut request = ::http::Request::post("https://example.com/a")
        .header("content-type", "application/json")
        .body(b"{}".to_vec())
        .unwrap();
    let err = http::sign_with(&signer, &mut request, Transport::FormBody, &nonce, at).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the form body transport needs a form body, but the Content-Type is \"application/json\": send the parameters in the header or the query, or send an application/x-www-form-urlencoded body"
    );
    assert_eq!(request.body(), b"{}", "a refused request is left as it was");
}

#[test]
fn a_relative_uri_is_refused() {
    let signer = Signer::new(Consumer::new("key", "secret"));
    let mut request = ::http::Request::get("/photos?size=original")
        .body(Vec::new())
        .unwrap();
    let err = http::sign(&signer, &mut request).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the request's URI \"/photos?size=original\" is not absolute: build the request with the whole URL, such as https://host/path, whose scheme and host are signed"
    );
    assert!(!request.headers().contains_key("authorization"));
}

/// `sign` draws a fresh nonce each time, so signing the same request twice gives two headers.
#[test]
fn sign_uses_a_fresh_nonce_and_the_clock() {
    let signer = Signer::new(Consumer::new("key", "secret"));
    let mut request = ::http::Request::get("https://example.com/")
        .body("")
        .unwrap();
    http::sign(&signer, &mut request).unwrap();
    let first = request.headers()["authorization"].clone();
    http::sign(&signer, &mut request).unwrap();
    let second = request.headers()["authorization"].clone();
    assert_ne!(first, second);
    let nonce = |h: &::http::HeaderValue| {
        let parts = header_parts(h.to_str().unwrap()).unwrap();
        parts
            .into_iter()
            .find(|(n, _)| n == "oauth_nonce")
            .unwrap()
            .1
    };
    assert_ne!(nonce(&first), nonce(&second));
}
