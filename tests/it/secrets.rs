//! No secret in `Debug` output, in error messages, or in anything the command line prints:
//! every public type that holds a secret is formatted, and every error is produced with
//! secrets in play.

use oauth1_signer::flow::{TemporaryCredentials, TokenCredentials};
use oauth1_signer::header::Authorization;
use oauth1_signer::{Consumer, Nonce, Request, Secret, SignatureMethod, Timestamp, Token};

use crate::hidden::{assert_hidden, debug, error, signer, CS, NOW, TS};

#[test]
fn credentials_signers_and_signatures() {
    debug("Secret", &Secret::from(CS));
    debug("Consumer", &Consumer::new("ck", CS));
    debug("Token", &Token::new("tk", TS));
    for method in [SignatureMethod::HmacSha1, SignatureMethod::Plaintext] {
        let signer = signer(method);
        debug("Signer", &signer);
        debug("SigningKey", signer.key());
        let request = Request::new("POST", "https://example.com/p").unwrap();
        let done = signer
            .sign(&request, &Nonce::new("n").unwrap(), Timestamp::new(NOW))
            .unwrap();
        // A PLAINTEXT signature is the key.
        debug("Signed", &done);
        debug("Signature", done.signature());
        debug("Normalized", done.parameters());
        debug("BaseString", done.base_string());
        let parsed = Authorization::parse(&done.authorization()).unwrap();
        debug("Authorization", &parsed);
    }
}

#[cfg(feature = "rsa")]
#[test]
fn private_keys_and_their_errors() {
    let cases: Vec<serde_json::Value> = serde_json::from_str(
        &std::fs::read_to_string(crate::common::fixtures_dir().join("published.json")).unwrap(),
    )
    .unwrap();
    let pem = cases
        .iter()
        .find_map(|c| c["private_key_pem"].as_str())
        .expect("a published RSA case");
    let body: Vec<&str> = pem.lines().filter(|l| !l.starts_with("-----")).collect();
    let key = oauth1_signer::PrivateKey::from_pem(pem).unwrap();
    let shown = format!("{key:?} {key:#?}");
    for line in &body {
        assert!(!shown.contains(line), "PrivateKey shows its PEM: {shown}");
    }
    // A damaged key: the error says what is wrong without quoting it.
    let damaged = pem.replacen(&body[2][..10], "!!!!!!!!!!", 1);
    let err = oauth1_signer::PrivateKey::from_pem(&damaged).unwrap_err();
    let shown = format!("{err} {err:?}");
    for line in &body {
        assert!(
            !shown.contains(&line[..line.len().min(20)]),
            "the error shows the PEM: {shown}"
        );
    }
}

#[test]
fn signing_errors_with_secrets_in_play() {
    let signer = signer(SignatureMethod::Plaintext);
    let nonce = Nonce::new("n").unwrap();
    for (method, url, body) in [
        ("GET", "https://example.com/p?a=%zz", ""),
        ("POST", "https://example.com/p", "oauth_token=x"),
    ] {
        let request = Request::new(method, url)
            .unwrap()
            .with_form_body(body.as_bytes());
        let err = signer
            .sign(&request, &nonce, Timestamp::new(NOW))
            .unwrap_err();
        error("a signing error", &err);
    }
    let err = Request::new("GET", "ftp://example.com/").unwrap_err();
    error("a URL error", &err);
}

#[test]
fn the_three_legged_flow() {
    let temporary = TemporaryCredentials::parse(
        format!("oauth_token=t&oauth_token_secret={TS}&oauth_callback_confirmed=true").as_bytes(),
    )
    .unwrap();
    debug("TemporaryCredentials", &temporary);
    let tokens = TokenCredentials::parse(
        format!("oauth_token=t&oauth_token_secret={TS}&screen_name=x").as_bytes(),
    )
    .unwrap();
    debug("TokenCredentials", &tokens);
    // The verifier, with the temporary credentials, gets the token credentials.
    let callback = oauth1_signer::flow::Callback::parse(
        &format!("oauth_token=t&oauth_verifier={TS}"),
        &temporary,
    )
    .unwrap();
    debug("Callback", &callback);
    // Answers the flow refuses, each with the secret in them.
    for body in [
        format!("oauth_token=t&oauth_token_secret={TS}"),
        format!("oauth_token=t&oauth_token_secret={TS}&oauth_token_secret={TS}"),
        format!("oauth_token_secret={TS}&oauth_token=%zz"),
    ] {
        if let Err(err) = TemporaryCredentials::parse(body.as_bytes()) {
            error("a flow error", &err);
        }
        if let Err(err) = TokenCredentials::parse(body.as_bytes()) {
            error("a flow error", &err);
        }
    }
}

#[test]
fn the_diagnosis() {
    use oauth1_signer::explain::{Explainer, Observed};
    let signer = signer(SignatureMethod::Plaintext);
    let request = Request::new("GET", "https://example.com/p?a=1").unwrap();
    let nonce = Nonce::new("n").unwrap();
    let explainer = Explainer::new(&signer, &request, &nonce, Timestamp::new(NOW));
    debug("Explainer", &explainer);
    let explanation = explainer
        .explain(&Observed::signature("not-the-key"))
        .unwrap();
    debug("Explanation", &explanation);
    assert_hidden("the explanation", &explanation.detail());
}

#[cfg(feature = "http")]
#[test]
fn a_signed_http_request() {
    let mut request = http::Request::post("https://example.com/p")
        .body(Vec::new())
        .unwrap();
    oauth1_signer::http::sign(&signer(SignatureMethod::Plaintext), &mut request).unwrap();
    debug("http::Request", &request);
}
