//! The `oauth1` command line: `sign --jsonl` over every fixture case, the human `sign`, and
//! `encode`.

use crate::common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use common::{case_files, header_parts, read_cases};
use serde_json::Value;

fn oauth1(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oauth1"))
        .args(args)
        .env_remove("OAUTH1_CONSUMER_SECRET")
        .env_remove("OAUTH1_TOKEN_SECRET")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the oauth1 binary runs");
    // Written from another thread: a large input whose output fills the pipe would otherwise
    // block both processes.
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || pipe.write_all(&input));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    output
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

#[test]
fn sign_jsonl_answers_every_fixture_case_in_order_and_survives_bad_lines() {
    let bad_lines = [
        (
            "{not json",
            None,
            "invalid JSON: key must be a string at line 1 column 2",
        ),
        (
            r#"{"name":"missing-nonce","method":"GET","url":"https://example.com/","consumer_key":"k","consumer_secret":"s","timestamp":"1"}"#,
            Some("missing-nonce"),
            "invalid case: missing field `nonce`",
        ),
        (
            r#"{"name":"typo","method":"GET","url":"https://example.com/","consumer_key":"k","consumer_secret":"s","nonce":"n","timestamp":"1","tokn":"t"}"#,
            Some("typo"),
            "invalid case: unknown field `tokn`",
        ),
    ];
    let mut input = String::new();
    let mut expected = Vec::new();
    for file in case_files() {
        let raw: Vec<Value> =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        for (value, case) in raw.iter().zip(read_cases(&file)) {
            input.push_str(&value.to_string());
            input.push('\n');
            expected.push(Err(case));
        }
        // A bad line after each file: the stream goes on.
        let (line, name, message) = bad_lines[expected.len() % bad_lines.len()];
        input.push_str(line);
        input.push_str("\n\n");
        expected.push(Ok((name, message)));
    }
    for (line, name, message) in bad_lines {
        input.push_str(line);
        input.push('\n');
        expected.push(Ok((name, message)));
    }

    let output = oauth1(&["sign", "--jsonl"], input.as_bytes(), &[]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let lines: Vec<Value> = text(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each output line is JSON"))
        .collect();
    assert_eq!(
        lines.len(),
        expected.len(),
        "one result line per input line"
    );

    let mut failures = Vec::new();
    for (line, expected) in lines.iter().zip(&expected) {
        match expected {
            Ok((name, message)) => {
                let got = (line["name"].as_str(), line["error"].as_str().unwrap_or(""));
                if got.0 != *name || !got.1.starts_with(message) {
                    failures.push(format!("bad line answered {line}"));
                }
            }
            Err(case) => {
                let e = &case.expected;
                if line["name"] != case.name.as_str() {
                    failures.push(format!(
                        "out of order: {} answered as {}",
                        case.name, line["name"]
                    ));
                    continue;
                }
                if e.error {
                    let message = line["error"].as_str();
                    if message.is_none()
                        || (e.error_message.is_some() && message != e.error_message.as_deref())
                    {
                        failures.push(format!(
                            "{}: expected the error {:?}, got {line}",
                            case.name, e.error_message
                        ));
                    }
                    continue;
                }
                let same = |field: &str, want: &Option<String>| {
                    want.as_ref()
                        .is_none_or(|w| line[field].as_str() == Some(w.as_str()))
                };
                let header_same = e.authorization.as_ref().is_none_or(|w| {
                    let got = line["authorization"].as_str().unwrap_or("");
                    header_parts(w).ok() == header_parts(got).ok()
                });
                if !same("base_string", &e.base_string)
                    || !same("signature", &e.signature)
                    || !header_same
                {
                    failures.push(format!("{}: got {line}", case.name));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const X_URL: &str = "https://api.twitter.com/1.1/statuses/update.json?include_entities=true";
const X_BODY: &str = "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21";
const X_CONSUMER_SECRET: &str = "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw";
const X_TOKEN_SECRET: &str = "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE";

fn x_sign_args() -> Vec<&'static str> {
    vec![
        "sign",
        "--method",
        "POST",
        "--url",
        X_URL,
        "--body",
        X_BODY,
        "--content-type",
        "application/x-www-form-urlencoded",
        "--consumer-key",
        "xvz1evFS4wEEPTGEFPHBog",
        "--token",
        "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
        "--nonce",
        "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg",
        "--timestamp",
        "1318622958",
    ]
}

#[test]
fn sign_prints_labelled_values_with_secrets_from_the_environment() {
    let output = oauth1(
        &x_sign_args(),
        b"",
        &[
            ("OAUTH1_CONSUMER_SECRET", X_CONSUMER_SECRET),
            ("OAUTH1_TOKEN_SECRET", X_TOKEN_SECRET),
        ],
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(lines[0].starts_with("base string:   POST&https%3A%2F%2Fapi.twitter.com%2F1.1%2Fstatuses%2Fupdate.json&include_entities%3Dtrue%26oauth_consumer_key"));
    assert_eq!(lines[1], "signature:     hCtSmYh+iHYCEqBWrE7C7hYmtUk=");
    assert!(lines[2].starts_with("authorization: OAuth "));
    assert!(lines[2].contains("oauth_signature=\"hCtSmYh%2BiHYCEqBWrE7C7hYmtUk%3D\""));
    assert!(!stdout.contains(X_CONSUMER_SECRET) && !stdout.contains(X_TOKEN_SECRET));
}

#[test]
fn sign_flags_carry_secrets_too_and_errors_go_to_stderr() {
    let mut args = x_sign_args();
    args.extend([
        "--consumer-secret",
        X_CONSUMER_SECRET,
        "--token-secret",
        X_TOKEN_SECRET,
    ]);
    let output = oauth1(&args, b"", &[]);
    assert!(text(&output.stdout).contains("signature:     hCtSmYh+iHYCEqBWrE7C7hYmtUk=\n"));

    let output = oauth1(&x_sign_args(), b"", &[]);
    assert!(!output.status.success());
    assert!(
        text(&output.stderr).starts_with("error: no consumer secret: set OAUTH1_CONSUMER_SECRET")
    );

    let output = oauth1(
        &[
            "sign",
            "--url",
            "https://example.com/?a=%zz",
            "--consumer-key",
            "k",
            "--consumer-secret",
            "s3cr3t-value",
        ],
        b"",
        &[],
    );
    assert!(!output.status.success());
    let stderr = text(&output.stderr);
    assert_eq!(
        stderr,
        "error: invalid percent-encoding in the query at byte 2 (\"%zz\"): '%' must be followed by two hex digits\n"
    );
}

#[test]
fn help_does_not_show_secrets_from_the_environment() {
    let output = oauth1(
        &["sign", "--help"],
        b"",
        &[("OAUTH1_CONSUMER_SECRET", "hunter2-secret")],
    );
    assert!(output.status.success());
    let help = text(&output.stdout);
    assert!(help.contains("OAUTH1_CONSUMER_SECRET"));
    assert!(!help.contains("hunter2-secret"));
}

#[test]
fn sign_draws_a_fresh_nonce_and_timestamp_when_not_given() {
    let args = [
        "sign",
        "--url",
        "https://example.com/",
        "--consumer-key",
        "k",
        "--consumer-secret",
        "s",
    ];
    let a = text(&oauth1(&args, b"", &[]).stdout);
    let b = text(&oauth1(&args, b"", &[]).stdout);
    assert!(a.contains("oauth_nonce%3D") && a != b, "{a}\n{b}");
}

#[test]
fn encode_argument_and_raw_stdin() {
    let output = oauth1(
        &["encode", "Ladies + Gentlemen, a signed OAuth request!"],
        b"",
        &[],
    );
    assert_eq!(
        text(&output.stdout),
        "Ladies%20%2B%20Gentlemen%2C%20a%20signed%20OAuth%20request%21\n"
    );
    let output = oauth1(&["encode", "-"], b"caf\xe9 \xe2\x98\x83~\n", &[]);
    assert_eq!(text(&output.stdout), "caf%E9%20%E2%98%83~%0A\n");
}

#[test]
fn verify_prints_the_verdict_and_fails_when_the_request_does_not_verify() {
    let header = "OAuth realm=\"Photos\", oauth_consumer_key=\"dpf43f3p2l4k3l03\", oauth_token=\"nnch734d00sl2jdk\", oauth_signature_method=\"HMAC-SHA1\", oauth_timestamp=\"1191242096\", oauth_nonce=\"kllo9940pd9333jh\", oauth_version=\"1.0\", oauth_signature=\"tR3%2BTy81lMeYAr%2FFid0kMTYa%2FWM%3D\"";
    let secrets = [
        ("OAUTH1_CONSUMER_SECRET", "kd94hf93k423kf44"),
        ("OAUTH1_TOKEN_SECRET", "pfkkdhi9sl3r4s00"),
    ];
    let run = |url: &str| {
        oauth1(
            &[
                "verify",
                "--url",
                url,
                "--now",
                "1191242100",
                "--authorization",
                header,
            ],
            b"",
            &secrets,
        )
    };
    // OAuth Core 1.0 Appendix A.5's published request.
    let ok = run("http://photos.example.net/photos?file=vacation.jpg&size=original");
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    assert_eq!(
        text(&ok.stdout).lines().take(3).collect::<Vec<_>>(),
        [
            "valid",
            "consumer key:  dpf43f3p2l4k3l03",
            "token:         nnch734d00sl2jdk"
        ]
    );
    let bad = run("http://photos.example.net/photos?file=vacation.jpg&size=small");
    assert_eq!(bad.status.code(), Some(1));
    let out = text(&bad.stdout);
    assert!(out.starts_with("invalid: bad-signature\n"), "{out}");
    assert!(out.contains("\nbase string:   GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3Ddpf43f3p2l4k3l03%26oauth_nonce%3Dkllo9940pd9333jh%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1191242096%26oauth_token%3Dnnch734d00sl2jdk%26oauth_version%3D1.0%26size%3Dsmall\n"), "{out}");
    // The advice the answer carries is the detail: said once, decoded, as a person reads it.
    assert!(
        out.contains("\ndetail:        the signature does not match"),
        "{out}"
    );
    assert!(
        out.contains("\nanswer:        401 oauth_problem=signature_invalid&oauth_problem_advice=… (the detail, encoded)\n"),
        "{out}"
    );
    assert_eq!(
        out.matches("the signature does not match").count(),
        1,
        "{out}"
    );
    assert_eq!(
        text(&bad.stderr),
        "error: the request does not verify (bad-signature)\n"
    );
    for secret in ["kd94hf93k423kf44", "pfkkdhi9sl3r4s00"] {
        assert!(!out.contains(secret));
    }
    let help = oauth1(&["verify", "--help"], b"", &secrets);
    assert!(!text(&help.stdout).contains("kd94hf93k423kf44"));
}

const RSA_KEY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/rsa-2048.pem");
/// Its public half, written by `openssl pkey -pubout`.
const RSA_PUBLIC_KEY: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../fixtures/rsa-2048-public.pem"
);
const PHOTOS: &str = "https://photos.example.net/photos?file=vacation.jpg";

fn verify_with_key(public: &str, header: &str, env: &[(&str, &str)]) -> Output {
    oauth1(
        &[
            "verify",
            "--url",
            PHOTOS,
            "--public-key-file",
            public,
            "--now",
            "1700000000",
            "--authorization",
            header,
        ],
        b"",
        env,
    )
}

/// The attacks of the security review, as reproduced with the command line: a token the
/// server does not hold passes RSA, and a consumer holding only a public key passes PLAINTEXT
/// with the signature `&`. Each must be refused.
#[test]
fn verify_holds_only_what_it_is_given() {
    let public = RSA_PUBLIC_KEY;
    let signed = oauth1(
        &[
            "sign",
            "--url",
            PHOTOS,
            "--consumer-key",
            "ck",
            "--token",
            "alice-token",
            "--signature-method",
            "RSA-SHA1",
            "--private-key-file",
            RSA_KEY,
            "--nonce",
            "n1",
            "--timestamp",
            "1700000000",
        ],
        b"",
        &[("OAUTH1_CONSUMER_SECRET", ""), ("OAUTH1_TOKEN_SECRET", "x")],
    );
    assert!(signed.status.success(), "{}", text(&signed.stderr));
    let stdout = text(&signed.stdout);
    let header = stdout
        .lines()
        .find_map(|l| l.strip_prefix("authorization:"))
        .unwrap()
        .trim();
    // With the token the server holds, it verifies; without it, no such token exists.
    let ok = verify_with_key(public, header, &[("OAUTH1_TOKEN_SECRET", "x")]);
    assert!(ok.status.success(), "{}", text(&ok.stdout));
    let refused = verify_with_key(public, header, &[]);
    assert_eq!(refused.status.code(), Some(1), "{}", text(&refused.stdout));
    assert!(text(&refused.stdout).starts_with("invalid: bad-signature\n"));

    // An RSA-only consumer: PLAINTEXT over empty secrets is refused.
    let forged = "OAuth oauth_consumer_key=\"ck\", oauth_token=\"anyone\", oauth_signature_method=\"PLAINTEXT\", oauth_timestamp=\"1700000000\", oauth_nonce=\"x\", oauth_signature=\"%26\"";
    let refused = verify_with_key(public, forged, &[("OAUTH1_TOKEN_SECRET", "")]);
    assert_eq!(refused.status.code(), Some(1), "{}", text(&refused.stdout));
    assert!(text(&refused.stdout).starts_with("invalid: bad-signature\n"));
    // An explicitly empty consumer secret is a shared secret, as published examples use.
    let env = [("OAUTH1_TOKEN_SECRET", ""), ("OAUTH1_CONSUMER_SECRET", "")];
    let held = verify_with_key(public, forged, &env);
    assert!(held.status.success(), "{}", text(&held.stdout));
}

/// A public key under 2048 bits (the published RSA example's) is refused with an error that
/// says so.
#[test]
fn verify_refuses_weak_public_keys() {
    let published: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fixtures/verify-published.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let pem = published
        .as_array()
        .unwrap()
        .iter()
        .find_map(|line| line["public_key_pem"].as_str())
        .unwrap();
    let weak = std::env::temp_dir().join(format!("oauth1-cli-weak-{}.pem", std::process::id()));
    std::fs::write(&weak, pem).unwrap();
    let out = verify_with_key(
        weak.to_str().unwrap(),
        "OAuth oauth_consumer_key=\"ck\"",
        &[],
    );
    std::fs::remove_file(&weak).unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: invalid RSA public key: the key has 1024 bits; a verifier accepts keys of 2048 bits or more\n"
    );
}

/// The X sample's published base string (`fixtures/published.json`).
fn x_base_string() -> String {
    read_cases(&common::fixtures_dir().join("published.json"))
        .into_iter()
        .find(|c| c.name == "x-api-creating-a-signature")
        .and_then(|c| c.expected.base_string)
        .expect("the X sample is in published.json")
}

fn x_explain_args() -> Vec<&'static str> {
    let mut args = x_sign_args();
    args[0] = "explain";
    args
}

const X_SECRETS: [(&str, &str); 2] = [
    ("OAUTH1_CONSUMER_SECRET", X_CONSUMER_SECRET),
    ("OAUTH1_TOKEN_SECRET", X_TOKEN_SECRET),
];

#[test]
fn sign_verbose_shows_every_stage_and_only_the_shape_of_the_key() {
    let mut args = x_sign_args();
    args.push("--verbose");
    let output = oauth1(&args, b"", &X_SECRETS);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    for expected in [
        "  query  include_entities       = \"true\"",
        "  body   status                 = \"Hello Ladies + Gentlemen, a signed OAuth request!\"",
        "         status=Hello%20Ladies%20%2B%20Gentlemen%2C%20a%20signed%20OAuth%20request%21",
        "  oauth  oauth_nonce            = \"kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg\"",
        "normalized:    include_entities=true&oauth_consumer_key=xvz1evFS4wEEPTGEFPHBog&",
        "method:        POST",
        "base URI:      https://api.twitter.com/1.1/statuses/update.json",
        &format!("base string:   {}", x_base_string()),
        "key:           <consumer secret, 43 bytes>&<token secret, 41 bytes>",
        "signature:     hCtSmYh+iHYCEqBWrE7C7hYmtUk=",
        "authorization: OAuth ",
    ] {
        assert!(stdout.contains(expected), "{expected:?} not in\n{stdout}");
    }
    assert!(!stdout.contains(X_CONSUMER_SECRET) && !stdout.contains(X_TOKEN_SECRET));
}

#[test]
fn explain_finds_the_echoed_base_string_and_names_the_cause() {
    // The server encoded spaces as "+": plus-for-space applied by hand to the published base
    // string (its only spaces are in the status), echoed in an HTML 401 page.
    let theirs = x_base_string().replace("%2520", "%2B");
    let page = format!(
        "<html><body><p>Invalid signature. Expected signature base string: {}</p></body></html>",
        theirs.replace('&', "&amp;")
    );
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("explain-401.html");
    std::fs::write(&path, page).unwrap();
    let mut args = x_explain_args();
    args.extend(["--server-response", path.to_str().unwrap()]);
    let output = oauth1(&args, b"", &X_SECRETS);
    // A mismatch, explained: exit status 1, as diff's for a difference.
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "verdict:    explained", "{stdout}");
    assert!(
        lines[1].starts_with("cause:      plus-for-space: the other side encoded a space as \"+\"")
    );
    assert!(lines[2].starts_with("fix:        Encode parameter names and values with RFC 3986"));
    assert_eq!(lines[3], format!("reference:  {}", x_base_string()));
    assert_eq!(lines[4], format!("observed:   {theirs}"));
    assert!(
        lines[5].starts_with("difference: first difference at byte "),
        "{stdout}"
    );
    // The caret stands under the first differing character of the two windows.
    let caret = lines[8].find('^').unwrap();
    let (ours, theirs): (Vec<char>, Vec<char>) =
        (lines[6].chars().collect(), lines[7].chars().collect());
    assert_ne!(ours[caret], theirs[caret], "{stdout}");
    assert_eq!(ours[11..caret], theirs[11..caret], "{stdout}");
    assert!(!stdout.contains(X_CONSUMER_SECRET) && !stdout.contains(X_TOKEN_SECRET));

    // A signature alone: the other side's base string is the reproduced one.
    let mut args = x_explain_args();
    args.extend(["--observed-signature", "hCtSmYh+iHYCEqBWrE7C7hYmtUk="]);
    let output = oauth1(&args, b"", &X_SECRETS);
    let stdout = text(&output.stdout);
    assert!(stdout.starts_with("verdict:    match\n"), "{stdout}");
    assert_eq!(output.status.code(), Some(0));
    // A signature that another encoding reproduces: its base string is the reproduced one,
    // named so (it was not observed).
    // HMAC-SHA1 of the plus-for-space base string above, by Python's hmac, hashlib and base64.
    let mut args = x_explain_args();
    args.extend(["--observed-signature", "Il5C7oPhfqV+nSqa3WoH4988Ll0="]);
    let output = oauth1(&args, b"", &X_SECRETS);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("\nreproduced: POST&"), "{stdout}");
    assert!(stdout.contains("\n  reproduced "), "{stdout}");

    // Without nonce, or with nothing to explain: errors that say what to give.
    let args: Vec<&str> = x_explain_args()
        .into_iter()
        .filter(|a| !a.starts_with("kYjz") && *a != "--nonce")
        .collect();
    let output = oauth1(&args, b"", &X_SECRETS);
    // An error: exit status 2, as diff's for trouble.
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        text(&output.stderr),
        "error: --nonce is needed: the oauth_nonce the other side signed\n"
    );
    let output = oauth1(&x_explain_args(), b"", &X_SECRETS);
    assert_eq!(
        text(&output.stderr),
        "error: nothing to explain: give the other side's signature, its base string, or both\n"
    );
    let empty = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("explain-empty.txt");
    std::fs::write(&empty, "401 Unauthorized").unwrap();
    let mut args = x_explain_args();
    args.extend(["--server-response", empty.to_str().unwrap()]);
    let output = oauth1(&args, b"", &X_SECRETS);
    assert!(text(&output.stderr).starts_with("error: no base string found in "));
}

#[test]
fn explain_jsonl_answers_every_fixture_line_and_survives_bad_lines() {
    let text_in = std::fs::read_to_string(common::fixtures_dir().join("explain.json")).unwrap();
    let lines: Vec<Value> = serde_json::from_str(&text_in).unwrap();
    let mut stream = String::new();
    for (i, line) in lines.iter().enumerate() {
        stream.push_str(&line.to_string());
        stream.push('\n');
        if i % 40 == 0 {
            stream.push_str("{not json\n");
            stream.push_str(r#"{"name": "no-observed", "method": "GET", "url": "https://a.example/", "consumer_key": "k", "consumer_secret": "s", "nonce": "n", "timestamp": "1"}"#);
            stream.push('\n');
        }
    }
    let output = oauth1(&["explain", "--jsonl"], stream.as_bytes(), &[]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let answers: Vec<Value> = text(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut answers = answers.iter();
    for (i, line) in lines.iter().enumerate() {
        let answer = answers.next().unwrap();
        let expected = &line["expected"];
        assert_eq!(answer["name"], line["name"]);
        assert_eq!(answer["verdict"], expected["verdict"], "{answer}");
        assert_eq!(answer["causes"], expected["causes"], "{answer}");
        assert_eq!(answer["alternatives"], expected["alternatives"], "{answer}");
        assert_eq!(
            answer["reference_base_string"],
            expected["reference_base_string"]
        );
        let detail = answer["detail"].as_str().unwrap();
        assert!(detail.len() > 40, "{answer}");
        for secret in ["consumer_secret", "token_secret"] {
            if let Some(secret) = line[secret].as_str().filter(|s| s.len() > 3) {
                assert!(!detail.contains(secret), "{answer}");
            }
        }
        if i % 40 == 0 {
            let bad = answers.next().unwrap();
            assert!(
                bad["error"].as_str().unwrap().starts_with("invalid JSON: "),
                "{bad}"
            );
            let bad = answers.next().unwrap();
            assert_eq!(bad["name"], "no-observed");
            assert_eq!(
                bad["error"],
                "no \"observed\": give observed.signature, observed.base_string, or both"
            );
        }
    }
    assert!(answers.next().is_none());
}

/// OAuth Core 1.0 Appendix A.5's published header, as a client sent it.
const APPENDIX_A_HEADER: &str = "OAuth realm=\"Photos\", oauth_consumer_key=\"dpf43f3p2l4k3l03\", oauth_token=\"nnch734d00sl2jdk\", oauth_signature_method=\"HMAC-SHA1\", oauth_timestamp=\"1191242096\", oauth_nonce=\"kllo9940pd9333jh\", oauth_version=\"1.0\", oauth_signature=\"tR3%2BTy81lMeYAr%2FFid0kMTYa%2FWM%3D\"";

const APPENDIX_A_SECRETS: [(&str, &str); 2] = [
    ("OAUTH1_CONSUMER_SECRET", "kd94hf93k423kf44"),
    ("OAUTH1_TOKEN_SECRET", "pfkkdhi9sl3r4s00"),
];

#[test]
fn sign_and_explain_take_the_protocol_parameters_from_the_clients_header() {
    let url = "http://photos.example.net/photos?file=vacation.jpg&size=original";
    // sign: the published base string and signature, from the header and the secrets alone.
    let out = oauth1(
        &["sign", "--url", url, "--authorization", APPENDIX_A_HEADER],
        b"",
        &APPENDIX_A_SECRETS,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("base string:   GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3Ddpf43f3p2l4k3l03%26oauth_nonce%3Dkllo9940pd9333jh%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1191242096%26oauth_token%3Dnnch734d00sl2jdk%26oauth_version%3D1.0%26size%3Doriginal\n"), "{stdout}");
    assert!(
        stdout.contains("\nsignature:     tR3+Ty81lMeYAr/Fid0kMTYa/WM=\n"),
        "{stdout}"
    );
    assert!(stdout.contains("realm=\"Photos\""), "{stdout}");

    // explain: the header's signature is the observed one.
    let out = oauth1(
        &[
            "explain",
            "--url",
            url,
            "--authorization",
            APPENDIX_A_HEADER,
        ],
        b"",
        &APPENDIX_A_SECRETS,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("verdict:    match\n"));
    // The same as one explain line of the request-case format.
    let out = oauth1(
        &[
            "explain",
            "--url",
            url,
            "--authorization",
            APPENDIX_A_HEADER,
            "--json",
        ],
        b"",
        &APPENDIX_A_SECRETS,
    );
    let line: Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    assert_eq!(line["name"], Value::Null);
    assert_eq!(line["verdict"], "match");
    assert_eq!(line["causes"], serde_json::json!([]));
    assert_eq!(
        line["reference_base_string"],
        "GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3Ddpf43f3p2l4k3l03%26oauth_nonce%3Dkllo9940pd9333jh%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1191242096%26oauth_token%3Dnnch734d00sl2jdk%26oauth_version%3D1.0%26size%3Doriginal"
    );
    assert!(line["detail"].as_str().is_some_and(|d| !d.is_empty()));
    // The same header against another request: not that request's signature.
    let out = oauth1(
        &[
            "explain",
            "--method",
            "POST",
            "--url",
            url,
            "--authorization",
            APPENDIX_A_HEADER,
        ],
        b"",
        &APPENDIX_A_SECRETS,
    );
    assert!(text(&out.stdout).starts_with("verdict:    unexplained\n"));

    // A header without oauth_version is signed without it.
    let no_version = APPENDIX_A_HEADER.replace(", oauth_version=\"1.0\"", "");
    let out = oauth1(
        &["sign", "--url", url, "--authorization", &no_version],
        b"",
        &APPENDIX_A_SECRETS,
    );
    assert!(
        !text(&out.stdout).contains("oauth_version"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_header_that_cannot_say_the_request_is_a_clear_error() {
    let run = |header: &str, extra: &[&str]| {
        let mut args = vec![
            "explain",
            "--url",
            "http://a.example/",
            "--authorization",
            header,
        ];
        args.extend_from_slice(extra);
        text(&oauth1(&args, b"", &APPENDIX_A_SECRETS).stderr)
    };
    assert_eq!(
        run("OAuth oauth_consumer_key=\"k\"", &[]),
        "error: --authorization: the header has no oauth_signature_method\n"
    );
    assert_eq!(
        run("Basic dXNlcjpwYXNz", &[]),
        "error: --authorization: the Authorization header's scheme is \"Basic\", not \"OAuth\"\n"
    );
    assert_eq!(
        run(&APPENDIX_A_HEADER.replace("\"1.0\"", "\"2.0\""), &[]),
        "error: --authorization: oauth_version is \"2.0\": RFC 5849 knows only 1.0\n"
    );
    assert!(run(APPENDIX_A_HEADER, &["--nonce", "n"])
        .contains("the argument '--authorization <HEADER>' cannot be used with '--nonce <NONCE>'"));
}

#[test]
fn likely_mistakes_are_warned_of_and_still_signed() {
    let url = "https://api.example.com/1/x";
    let base = ["sign", "--url", url, "--nonce", "n", "--timestamp", "1"];
    // A token without its secret: signed with an empty one, and said so.
    let mut args = base.to_vec();
    args.extend(["--consumer-key", "key", "--token", "tok"]);
    let out = oauth1(&args, b"", &[("OAUTH1_CONSUMER_SECRET", "cs")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        "warning: --token without its secret: signing with an empty token secret; set OAUTH1_TOKEN_SECRET (or --token-secret)\n"
    );
    // With its secret, nothing is said.
    let out = oauth1(
        &args,
        b"",
        &[
            ("OAUTH1_CONSUMER_SECRET", "cs"),
            ("OAUTH1_TOKEN_SECRET", "ts"),
        ],
    );
    assert_eq!(text(&out.stderr), "");
    // An empty consumer key.
    let mut args = base.to_vec();
    args.extend(["--consumer-key", ""]);
    let out = oauth1(&args, b"", &[("OAUTH1_CONSUMER_SECRET", "cs")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        "warning: the consumer key is empty: give the one the provider issued (--consumer-key)\n"
    );
}

#[test]
fn a_bad_url_is_named_with_what_to_write() {
    for (url, said) in [
        (
            "api.example.com/1/x",
            "error: the URL \"api.example.com/1/x\" has no scheme: write it whole, such as https://api.example.com/1/x\n",
        ),
        (
            "/1/x",
            "error: the URL \"/1/x\" has no scheme and no host: write it whole, such as https://host/1/x\n",
        ),
        (
            "https://exa mple.com/",
            "error: the URL \"https://exa mple.com/\" is not valid: invalid international domain name\n",
        ),
    ] {
        let args = ["sign", "--url", url, "--consumer-key", "k"];
        let out = oauth1(&args, b"", &[("OAUTH1_CONSUMER_SECRET", "s")]);
        assert_eq!(text(&out.stderr), said);
        assert!(!out.status.success());
        // verify says it alike.
        let args = ["verify", "--url", url, "--authorization", "OAuth oauth_consumer_key=\"k\""];
        let out = oauth1(&args, b"", &[("OAUTH1_CONSUMER_SECRET", "s")]);
        assert_eq!(text(&out.stderr), said);
    }
}

/// Two causes that reproduce the other side's value alike are told apart from a pair: the
/// cause, then the alternative on an `equally:` line (in JSON, `alternatives`); a pair's second
/// cause on a `together:` line, both with their fix. The expected answers are
/// `fixtures/explain.json`'s.
#[test]
fn alternatives_are_told_from_a_pair() {
    let explain = |url: &str, signature: &str| {
        let out = oauth1(
            &[
                "explain",
                "--method",
                "GET",
                "--url",
                url,
                "--consumer-key",
                "dpf43f3p2l4k3l03",
                "--token",
                "nnch734d00sl2jdk",
                "--nonce",
                "kllo9940pd9333jh",
                "--timestamp",
                "1191242096",
                "--observed-signature",
                signature,
            ],
            b"",
            &[
                ("OAUTH1_CONSUMER_SECRET", "kd94hf93k423kf44"),
                ("OAUTH1_TOKEN_SECRET", "pfkkdhi9sl3r4s00"),
            ],
        );
        text(&out.stdout)
    };
    // ambiguous-last-of-repeated.
    let alike = explain(
        "https://api.example.com/x?a=1&a=2",
        "TCnkv9h6X0ds/GV8BlnFVBO1fdc=",
    );
    let heads: Vec<&str> = alike.lines().map(|l| &l[..12]).take(4).collect();
    assert_eq!(
        heads,
        [
            "verdict:    ",
            "cause:      ",
            "fix:        ",
            "equally:    "
        ],
        "{alike}"
    );
    assert!(
        alike.contains("cause:      duplicates-collapsed: "),
        "{alike}"
    );
    assert!(alike.contains("equally:    parsed-as-php: "), "{alike}");
    // pair-plus-for-space-and-unencoded-sub-delims.
    let pair = explain(
        "https://api.example.com/x?q=it%27s%20ok%21",
        "W+tRYy+ynHHMkJ+fhO8zX51u7RI=",
    );
    let heads: Vec<&str> = pair.lines().map(|l| &l[..12]).take(5).collect();
    assert_eq!(
        heads,
        [
            "verdict:    ",
            "cause:      ",
            "fix:        ",
            "together:   ",
            "fix:        "
        ],
        "{pair}"
    );
    assert!(!pair.contains("equally"), "{pair}");
}

/// RFC 5849 §3.1 lets PLAINTEXT leave out `oauth_timestamp` and `oauth_nonce`: `verify` refuses
/// such a request as a server of this project's does, says why and which flag checks its
/// signature alone; with the flag, the signature is the secrets (§3.4.4:
/// `enc(consumer secret)&enc(token secret)`, written here by hand, then encoded once more in
/// the header), and a wrong one, PLAINTEXT over http, are still refused.
#[test]
fn plaintext_without_timestamp_and_nonce_is_checked_on_request() {
    let secrets = [
        ("OAUTH1_CONSUMER_SECRET", "c s"),
        ("OAUTH1_TOKEN_SECRET", "t&s"),
    ];
    let header = |signature: &str| {
        format!(
            "OAuth oauth_consumer_key=\"ck\", oauth_token=\"tk\", oauth_signature_method=\"PLAINTEXT\", oauth_signature=\"{signature}\""
        )
    };
    // enc("c s") & enc("t&s") = c%20s&t%26s, in the header c%2520s%26t%2526s.
    let right = header("c%2520s%26t%2526s");
    let verify = |url: &str, authorization: &str, extra: &[&str]| {
        let mut args = vec!["verify", "--method", "GET", "--url", url];
        if !authorization.is_empty() {
            args.extend(["--authorization", authorization]);
        }
        args.extend(extra);
        let run = oauth1(&args, b"", &secrets);
        (run.status.code(), text(&run.stdout))
    };
    let url = "https://api.example.com/x?a=1";
    let (code, out) = verify(url, &right, &[]);
    assert_eq!(code, Some(1));
    assert!(out.starts_with("invalid: missing-parameter\n"), "{out}");
    assert!(
        out.contains("RFC 5849 §3.1 lets PLAINTEXT leave out oauth_timestamp and oauth_nonce"),
        "{out}"
    );
    assert!(
        out.contains(
            "to check its signature alone, as RFC 5849 §3.1 allows: --plaintext-without-nonce"
        ),
        "{out}"
    );
    let flag = ["--plaintext-without-nonce"];
    let (code, out) = verify(url, &right, &flag);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.starts_with("valid\nnote:          PLAINTEXT without oauth_timestamp and oauth_nonce, as RFC 5849 §3.1 allows"), "{out}");
    assert!(
        out.contains("consumer key:  ck\ntoken:         tk\n"),
        "{out}"
    );
    // In the query, as the verifier finds them there.
    let (code, out) = verify(
        "https://api.example.com/x?a=1&oauth_consumer_key=ck&oauth_token=tk&oauth_signature_method=PLAINTEXT&oauth_signature=c%2520s%26t%2526s",
        "",
        &flag,
    );
    assert_eq!(code, Some(0), "{out}");
    // The secrets unencoded are not the signature.
    let (code, out) = verify(url, &header("c%20s%26t%26s"), &flag);
    assert_eq!(code, Some(1));
    assert!(out.starts_with("invalid: bad-signature\n"), "{out}");
    let (code, out) = verify("http://api.example.com/x", &right, &flag);
    assert_eq!(code, Some(1));
    assert!(out.starts_with("invalid: insecure-transport\n"), "{out}");
    let (code, _) = verify(
        "http://api.example.com/x",
        &right,
        &["--plaintext-without-nonce", "--allow-plaintext-over-http"],
    );
    assert_eq!(code, Some(0));
    // What it does send is checked as a request with its nonce is: its version, its timestamp
    // (within the window of --now), and a body hash is not taken unchecked.
    let with = |more: &str| format!("{right}, {more}");
    let now = ["--plaintext-without-nonce", "--now", "1700000000"];
    for (more, reason) in [
        ("oauth_version=\"2.0\"", "bad-version"),
        ("oauth_timestamp=\"1\"", "stale-timestamp"),
        ("oauth_timestamp=\"soon\"", "stale-timestamp"),
        ("oauth_body_hash=\"zzz\"", "bad-body-hash"),
    ] {
        let (code, out) = verify(url, &with(more), &now);
        assert_eq!(code, Some(1), "{more}: {out}");
        assert!(
            out.starts_with(&format!("invalid: {reason}\n")),
            "{more}: {out}"
        );
    }
    let (code, out) = verify(url, &with("oauth_timestamp=\"1700000100\""), &now);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.starts_with("valid\nnote:          PLAINTEXT without oauth_nonce, as RFC 5849 §3.1 allows: the signature was compared in constant time, and nothing protects this request from replay"),
        "{out}"
    );
}
