//! The command line never prints a secret: not in its output, its `--verbose` stages, or its
//! errors.

use oauth1_signer::{Consumer, Nonce, Request, SignatureMethod, Signer, Timestamp, Token};

const CS: &str = "CONSUMERsecret1";
const TS: &str = "TOKENsecret2";

fn assert_hidden(what: &str, text: &str) {
    for secret in [CS, TS] {
        assert!(!text.contains(secret), "{what} shows {secret}: {text}");
    }
}

/// A PLAINTEXT request (whose signature is the key) and its header.
fn signed_plaintext() -> String {
    let request = Request::new("GET", "https://example.com/p?a=1").unwrap();
    Signer::new(Consumer::new("ck", CS))
        .with_token(Token::new("tk", TS))
        .with_method(SignatureMethod::Plaintext)
        .sign(
            &request,
            &Nonce::new("n").unwrap(),
            Timestamp::new(1_700_000_000),
        )
        .unwrap()
        .authorization()
}

/// The command line: human output, `--verbose`, and errors, for every subcommand.
#[test]
fn the_command_line_never_prints_a_secret() {
    use std::process::Command;

    let run = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_oauth1"))
            .args(args)
            .env("OAUTH1_CONSUMER_SECRET", CS)
            .env("OAUTH1_TOKEN_SECRET", TS)
            .output()
            .unwrap();
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(!all.is_empty());
        assert_hidden(&format!("oauth1 {}", args.join(" ")), &all);
        all
    };
    let request = [
        "--url",
        "https://example.com/p?a=1",
        "--consumer-key",
        "ck",
        "--token",
        "tk",
        "--nonce",
        "n",
        "--timestamp",
        "1700000000",
    ];
    for method in ["HMAC-SHA1", "PLAINTEXT"] {
        let with = |extra: &[&'static str]| -> Vec<&'static str> {
            let mut args = vec!["sign", "--signature-method", method];
            args.extend(request);
            args.extend(extra);
            args
        };
        let out = run(&with(&[]));
        assert!(out.contains("authorization: OAuth"), "{out}");
        let out = run(&with(&["--verbose"]));
        assert!(out.contains("key:"), "{out}");
        run(&with(&["--realm", "a\nb"]));
        let mut explain = with(&["--observed-signature", "xyz", "--verbose"]);
        explain[0] = "explain";
        run(&explain);
    }
    // An error with the secret given on the command line.
    let mut bad = vec!["sign", "--consumer-secret", CS, "--timestamp", "x"];
    bad.extend(&request[..6]);
    let out = run(&bad);
    assert!(out.contains("invalid timestamp"), "{out}");
    // verify: a PLAINTEXT request signed with another key, verbose.
    let header = signed_plaintext();
    run(&[
        "verify",
        "--url",
        "https://example.com/p?a=1",
        "--authorization",
        &header.replace(CS, "other"),
        "--now",
        "1700000000",
    ]);
}
