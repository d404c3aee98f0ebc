//! The probe's plan, budget and verdicts, driven with answers given by hand.

use super::*;
use crate::credentials::Consumer;

fn signer() -> Signer {
    Signer::new(Consumer::new("key", "secret"))
}

/// Every attempt refused: how many the probe hands out, and their nonces.
fn refused_all(max: usize, url: &str) -> (usize, HashSet<String>) {
    let signer = signer();
    let mut probe = Probe::new(&signer, "GET", url, max, &[]).unwrap();
    let mut nonces = HashSet::new();
    let mut count = 0;
    while let Some(attempt) = probe.next_attempt().unwrap() {
        count += 1;
        nonces.insert(attempt.nonce().to_owned());
        probe.answer(&ProbeAnswer::new(401));
    }
    assert_eq!(probe.report().requests(), count);
    assert_eq!(probe.report().verdict(), ProbeVerdict::None);
    (count, nonces)
}

#[test]
fn the_budget_is_never_exceeded_and_no_nonce_is_sent_twice() {
    for max in [0, 1, 2, 5, 40] {
        let (count, nonces) = refused_all(max, "https://api.example.com/x?q=a+b&a=1&a=2");
        assert_eq!(
            count, max,
            "the budget is spent whole when nothing is accepted"
        );
        assert_eq!(nonces.len(), count);
    }
}

#[test]
fn only_get_and_head_unless_allowed() {
    let signer = signer();
    let url = "https://api.example.com/x";
    let refused = Probe::new(&signer, "POST", url, 40, &[]).unwrap_err();
    assert!(matches!(refused, ExplainError::MethodNotProbed { ref method } if method == "POST"));
    assert!(refused.to_string().contains("--allow-method POST"));
    assert!(Probe::new(&signer, "POST", url, 40, &["POST"]).is_ok());
    assert!(Probe::new(&signer, "HEAD", url, 40, &[]).is_ok());
}

#[test]
fn a_refusal_naming_another_problem_stops_the_probe() {
    let signer = signer();
    let mut probe = Probe::new(&signer, "GET", "https://api.example.com/x?a=1", 40, &[]).unwrap();
    probe.next_attempt().unwrap().unwrap();
    probe.answer(
        &ProbeAnswer::new(401)
            .with_www_authenticate("OAuth realm=\"x\", oauth_problem=timestamp_refused"),
    );
    assert!(probe.next_attempt().unwrap().is_none());
    let report = probe.report();
    assert_eq!(report.stopped(), Some("oauth_problem=timestamp_refused"));
    assert_eq!(report.requests(), 1);
    // A signature refusal does not stop it.
    let mut probe = Probe::new(&signer, "GET", "https://api.example.com/x?a=1", 40, &[]).unwrap();
    probe.next_attempt().unwrap().unwrap();
    probe.answer(&ProbeAnswer::new(401).with_body("oauth_problem=signature_invalid"));
    assert!(probe.next_attempt().unwrap().is_some());
}

#[test]
fn plaintext_over_http_is_refused_unless_allowed() {
    let plaintext = signer().with_method(SignatureMethod::Plaintext);
    for url in [
        "http://api.example.com/x?a=1",
        "HTTP://api.example.com:8080/x",
    ] {
        let refused = Probe::new(&plaintext, "GET", url, 40, &[]).unwrap_err();
        assert!(
            matches!(refused, ExplainError::PlaintextOverHttp { .. }),
            "{url}: {refused:?}"
        );
        let message = refused.to_string();
        assert!(message.contains("--allow-plaintext-over-http"), "{message}");
        assert!(
            message.contains("in clear to http://api.example.com"),
            "{message}"
        );
        assert!(!message.contains("secret&"), "{message}");
        let mut allowed =
            Probe::new_allowing_plaintext_over_http(&plaintext, "GET", url, 40, &[]).unwrap();
        assert!(allowed.next_attempt().unwrap().is_some());
    }
    // Over https, or with HMAC over http, nothing is refused.
    assert!(Probe::new(&plaintext, "GET", "https://api.example.com/x", 40, &[]).is_ok());
    assert!(Probe::new(&signer(), "GET", "http://api.example.com/x", 40, &[]).is_ok());
}

#[test]
fn a_redirect_is_neither_accepted_nor_refused() {
    let signer = signer();
    for status in [301, 302, 303, 307, 308] {
        let mut probe =
            Probe::new(&signer, "GET", "https://api.example.com/x?a=1", 40, &[]).unwrap();
        probe.next_attempt().unwrap().unwrap();
        probe.answer(
            &ProbeAnswer::new(status).with_location("https://login.example.com/?next=%2Fx"),
        );
        assert!(probe.next_attempt().unwrap().is_none(), "{status}");
        let report = probe.report();
        assert_eq!(report.verdict(), ProbeVerdict::Redirected, "{status}");
        assert_eq!(report.verdict().as_str(), "redirected");
        assert!(report.causes().is_empty());
        let redirect = report.redirect().unwrap();
        assert_eq!(redirect.status(), status);
        assert_eq!(
            redirect.location(),
            Some("https://login.example.com/?next=%2Fx")
        );
        assert!(
            report.ruled_out().is_empty(),
            "a redirect rules nothing out"
        );
    }
    // A redirect of a variant ends the probe too, without a cause.
    let mut probe = Probe::new(&signer, "GET", "https://api.example.com/x?a=1", 40, &[]).unwrap();
    probe.next_attempt().unwrap().unwrap();
    probe.answer(&ProbeAnswer::new(401));
    probe.next_attempt().unwrap().unwrap();
    probe.answer(&ProbeAnswer::new(302));
    assert!(probe.next_attempt().unwrap().is_none());
    let report = probe.report();
    assert_eq!(
        (report.verdict(), report.requests()),
        (ProbeVerdict::Redirected, 2)
    );
    assert_eq!(report.redirect().unwrap().location(), None);
}

#[test]
fn the_exact_request_accepted_is_rfc() {
    let signer = signer();
    let mut probe = Probe::new(&signer, "GET", "https://api.example.com/x", 40, &[]).unwrap();
    let first = probe.next_attempt().unwrap().unwrap();
    assert!(first.causes().is_empty());
    probe.answer(&ProbeAnswer::new(200));
    assert!(probe.next_attempt().unwrap().is_none());
    assert_eq!(probe.report().verdict(), ProbeVerdict::Rfc);
}
