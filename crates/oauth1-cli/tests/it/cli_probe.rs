//! `oauth1 probe`'s bounds: a method other than GET and HEAD refused unless allowed, one HAR
//! entry at a time, a budget of zero requests kept; and against hostile servers on loopback, a
//! PLAINTEXT capture not sent over http, a trickling answer cut at `--timeout`, a redirect
//! reported as one (with `oauth1 send`'s PLAINTEXT over http beside them). Probing quirky
//! servers is `scripts/interop_peers/probe_servers.py`'s.

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::fixtures_dir;

fn oauth1(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oauth1"))
        .arg("probe")
        .args(args)
        .env("OAUTH1_CONSUMER_SECRET", "kd94hf93k423kf44")
        .env_remove("OAUTH1_TOKEN_SECRET")
        .output()
        .expect("the oauth1 binary runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_method_other_than_get_and_head_needs_allow_method() {
    let url = ["--url", "https://api.example.com/x", "--consumer-key", "k"];
    let refused = oauth1(&[&url[..], &["--method", "POST"]].concat());
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused)
            .contains("only GET and HEAD are probed: allow POST explicitly (--allow-method POST)"),
        "{}",
        stderr(&refused)
    );
    // Allowed, with nothing to send (a budget of 0): the verdict is none, after no request.
    let allowed = oauth1(
        &[
            &url[..],
            &[
                "--method",
                "POST",
                "--allow-method",
                "POST",
                "--max-requests",
                "0",
                "--json",
            ],
        ]
        .concat(),
    );
    assert_eq!(allowed.status.code(), Some(1), "{}", stderr(&allowed));
    assert_eq!(
        String::from_utf8_lossy(&allowed.stdout).trim(),
        r#"{"verdict":"none","causes":[],"requests":0}"#
    );
}

#[test]
fn a_har_file_is_probed_one_entry_at_a_time() {
    let har = fixtures_dir().join("captures/chrome.har");
    let har = har.to_str().unwrap();
    let several = oauth1(&["--har", har, "--max-requests", "0"]);
    assert_eq!(several.status.code(), Some(2));
    assert!(
        stderr(&several)
            .contains("entries carry OAuth (2, 3, 4, 5): choose the one to probe with --entry N"),
        "{}",
        stderr(&several)
    );
    let one = oauth1(&[
        "--har",
        har,
        "--entry",
        "2",
        "--allow-method",
        "POST",
        "--max-requests",
        "0",
        "--json",
    ]);
    assert_eq!(one.status.code(), Some(1), "{}", stderr(&one));
    assert!(String::from_utf8_lossy(&one.stdout).contains(r#""requests":0"#));
}

/// A hostile server on a loopback port: each connection's request is read to its blank line,
/// then `answer` writes to it. It counts the connections made.
fn hostile(
    answer: impl Fn(std::net::TcpStream) + Send + Sync + 'static,
) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::io::Read;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let connections = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = connections.clone();
    let answer = std::sync::Arc::new(answer);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let answer = answer.clone();
            std::thread::spawn(move || {
                let mut head = Vec::new();
                let mut buf = [0u8; 4096];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(n) => head.extend_from_slice(&buf[..n]),
                    }
                }
                answer(stream);
            });
        }
    });
    (origin, connections)
}

/// `oauth1 args`, killed if it runs longer than `limit`: a test that fails, not one that hangs.
fn within(limit: Duration, args: &[&str]) -> (Output, Duration) {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_oauth1"))
        .args(args)
        .env("OAUTH1_CONSUMER_SECRET", "kd94hf93k423kf44")
        .env("OAUTH1_TOKEN_SECRET", "pfkkdhi9sl3r4s00")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the oauth1 binary runs");
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("oauth1 {args:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    (child.wait_with_output().unwrap(), started.elapsed())
}

fn refusing(mut stream: std::net::TcpStream) {
    use std::io::Write;
    let _ = stream.write_all(b"HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n");
}

#[test]
fn plaintext_from_a_capture_is_not_sent_over_http_unless_allowed() {
    let (origin, connections) = hostile(refusing);
    let capture = format!(
        "curl '{origin}/x?q=a' -H 'Authorization: OAuth oauth_consumer_key=\"dpf43f3p2l4k3l03\", oauth_token=\"nnch734d00sl2jdk\", oauth_signature_method=\"PLAINTEXT\", oauth_timestamp=\"1191242096\", oauth_nonce=\"kllo9940pd9333jh\", oauth_version=\"1.0\", oauth_signature=\"kd94hf93k423kf44%26pfkkdhi9sl3r4s00\"'"
    );
    let limit = Duration::from_secs(60);
    let (refused, _) = within(limit, &["probe", "--curl", &capture, "--interval", "0"]);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    let message = stderr(&refused);
    assert!(
        message.contains("signed with PLAINTEXT")
            && message.contains("in clear to http://127.0.0.1")
            && message.contains("--allow-plaintext-over-http"),
        "{message}"
    );
    assert!(!message.contains("kd94hf93k423kf44"), "{message}");
    assert_eq!(connections.load(std::sync::atomic::Ordering::SeqCst), 0);

    let (allowed, _) = within(
        limit,
        &[
            "probe",
            "--curl",
            &capture,
            "--interval",
            "0",
            "--max-requests",
            "2",
            "--allow-plaintext-over-http",
            "--json",
        ],
    );
    assert_eq!(allowed.status.code(), Some(1), "{}", stderr(&allowed));
    assert_eq!(connections.load(std::sync::atomic::Ordering::SeqCst), 2);
}

#[test]
fn send_does_not_send_plaintext_over_http_unless_allowed() {
    let (origin, connections) = hostile(refusing);
    let url = format!("{origin}/x");
    let args = [
        "send",
        &url,
        "--consumer-key",
        "k",
        "--token",
        "t",
        "--signature-method",
        "PLAINTEXT",
    ];
    let limit = Duration::from_secs(60);
    let (refused, _) = within(limit, &args);
    assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
    let message = stderr(&refused);
    assert!(
        message.contains("is plain http: they would be sent in clear")
            && message.contains("--allow-plaintext-over-http"),
        "{message}"
    );
    assert_eq!(connections.load(std::sync::atomic::Ordering::SeqCst), 0);
    let (sent, _) = within(
        limit,
        &[&args[..], &["--allow-plaintext-over-http"]].concat(),
    );
    assert!(stderr(&sent).contains("401"), "{}", stderr(&sent));
    assert_eq!(connections.load(std::sync::atomic::Ordering::SeqCst), 1);
}

#[test]
fn a_trickling_server_holds_each_request_no_longer_than_the_timeout() {
    let (origin, _) = hostile(|mut stream| {
        use std::io::Write;
        if stream
            .write_all(b"HTTP/1.1 401 Unauthorized\r\nContent-Length: 1000\r\n\r\n")
            .is_err()
        {
            return;
        }
        for _ in 0..1000 {
            std::thread::sleep(Duration::from_millis(500));
            if stream.write_all(b"x").is_err() {
                return;
            }
        }
    });
    let url = format!("{origin}/x?q=a");
    let (out, took) = within(
        Duration::from_secs(60),
        &[
            "probe",
            "--url",
            &url,
            "--consumer-key",
            "k",
            "--max-requests",
            "2",
            "--interval",
            "0",
            "--timeout",
            "1.5",
            "--json",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        r#"{"verdict":"none","causes":[],"requests":2}"#
    );
    // 2 × (1.5 s + 0 s), and the time to start.
    assert!(took < Duration::from_secs(15), "{took:?}");
    let bad = oauth1(&["--url", &url, "--consumer-key", "k", "--timeout", "0"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("--timeout 0: give a number of seconds from 0.001 to 86400 (a day)")
    );
}

#[test]
fn a_redirect_is_reported_as_one_not_as_acceptance() {
    let (origin, connections) = hostile(|mut stream| {
        use std::io::Write;
        let _ = stream.write_all(
            b"HTTP/1.1 307 Temporary Redirect\r\nLocation: https://login.example.com/next\r\nContent-Length: 0\r\n\r\n",
        );
    });
    let url = format!("{origin}/x?q=a");
    let args = [
        "probe",
        "--url",
        &url,
        "--consumer-key",
        "k",
        "--interval",
        "0",
    ];
    let (json, _) = within(Duration::from_secs(60), &[&args[..], &["--json"]].concat());
    assert_eq!(json.status.code(), Some(1), "{}", stderr(&json));
    let line: serde_json::Value =
        serde_json::from_slice(json.stdout.rsplit(|&b| b == b'\n').nth(1).unwrap()).unwrap();
    assert_eq!(line["verdict"], "redirected");
    assert_eq!(line["redirect"]["status"], 307);
    assert_eq!(
        line["redirect"]["location"],
        "https://login.example.com/next"
    );
    assert_eq!(line["requests"], 1);
    let (text, _) = within(Duration::from_secs(60), &args);
    let shown = String::from_utf8_lossy(&text.stdout);
    assert!(shown.contains("verdict:    redirected"), "{shown}");
    assert!(shown.contains("307 Temporary Redirect"), "{shown}");
    assert!(
        shown.contains("pointing to https://login.example.com/next"),
        "{shown}"
    );
    assert!(!shown.contains("verdict:    rfc"), "{shown}");
    assert_eq!(connections.load(std::sync::atomic::Ordering::SeqCst), 2);
}
