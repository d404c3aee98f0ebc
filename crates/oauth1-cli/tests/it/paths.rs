//! `oauth1 verify` holds a received path to the rule the verifier holds it to: a path a URL
//! parser would rewrite (here, dot segments) is refused with its reason and the answer a
//! server gives.

/// `oauth1 args` with the consumer and token secrets: whether it succeeded, and its output.
fn run(args: &[&str]) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_oauth1"))
        .args(args)
        .env("OAUTH1_CONSUMER_SECRET", "cs")
        .env("OAUTH1_TOKEN_SECRET", "ts")
        .output()
        .unwrap();
    (out.status.success(), String::from_utf8(out.stdout).unwrap())
}

/// The `Authorization` header `oauth1 sign` makes for a GET of `url`, with `extra` flags.
fn signed_header(url: &str, extra: &[&str]) -> String {
    let sign = [
        &["sign", "--method", "GET", "--url", url][..],
        &["--consumer-key", "ck", "--token", "tk", "--nonce", "n1"],
        &["--timestamp", "1700000000"],
        extra,
    ]
    .concat();
    let (_, text) = run(&sign);
    text.lines()
        .find_map(|l| l.strip_prefix("authorization: "))
        .unwrap()
        .trim()
        .to_owned()
}

/// `oauth1 verify` refuses both forms of the attack with the reason, and the answer a server
/// gives.
#[test]
fn the_command_line_refuses_dot_segments_with_the_reason() {
    let header = signed_header("https://api.example.com/a", &[]);
    let verify = |url: &str| {
        run(&[
            "verify",
            "--url",
            url,
            "--authorization",
            &header,
            "--now",
            "1700000000",
        ])
    };
    assert!(verify("https://api.example.com/a").0);
    for (url, segment) in [
        ("https://api.example.com/b/../a", ".."),
        ("https://api.example.com/b/%2e%2e/a", "%2e%2e"),
    ] {
        let (ok, out) = verify(url);
        assert!(!ok, "{url}: {out}");
        let path = url.strip_prefix("https://api.example.com").unwrap();
        assert_eq!(
            out.lines().take(2).collect::<Vec<_>>(),
            [
                "invalid: ambiguous-path".to_owned(),
                format!("detail:        the path \"{path}\" has the dot segment \"{segment}\", which URL parsers remove and routers do not, so the path signed and the path routed could differ: send the path with its dot segments resolved"),
            ],
            "{url}"
        );
        assert!(
            out.contains("answer:        400 oauth_problem=parameter_rejected&"),
            "{out}"
        );
    }
}

/// `verify --profile` reads a received URL as plain `verify` does: a request signed for the
/// encoded path does not verify as received with the raw character, which a URL parser would
/// encode and a router would not.
#[test]
fn a_profile_holds_the_received_path_to_the_same_rule() {
    for (signed, received) in [
        ("/a%7Bb", "/a{b"),
        ("/a%22b", "/a\"b"),
        ("/a%C3%A9", "/a\u{e9}"),
    ] {
        let signed = format!("https://api.example.com{signed}");
        let header = signed_header(&signed, &["--profile", "x"]);
        let received = format!("https://api.example.com{received}");
        for profile in [&[][..], &["--profile", "x"][..]] {
            let verify = |url: &str| {
                let args = [
                    &["verify", "--url", url, "--authorization", &header][..],
                    &["--now", "1700000000"],
                    profile,
                ]
                .concat();
                run(&args)
            };
            let (ok, out) = verify(&signed);
            assert!(ok, "{signed} {profile:?}: {out}");
            let (ok, out) = verify(&received);
            assert!(!ok, "{received} {profile:?}: {out}");
            assert_eq!(
                out.lines().next(),
                Some("invalid: ambiguous-path"),
                "{received} {profile:?}: {out}"
            );
            assert!(
                out.contains("answer:        400 oauth_problem=parameter_rejected&"),
                "{out}"
            );
        }
    }
}
