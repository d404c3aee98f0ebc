//! `oauth1 authorize` against the loopback provider of `provider.rs`: the test plays the
//! browser, opening the URL the command prints and following the provider's redirect to the
//! command's loopback callback; or, out of band, typing the verifier the provider shows.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::loopback_provider::{provider, CONSUMER, TEMPORARY, TOKEN, VERIFIER};

fn authorize(origin: &str, extra: &[&str]) -> Child {
    authorize_at(origin, "/initiate", extra)
}

/// `oauth1 authorize` with `initiate` as the temporary-credentials endpoint.
fn authorize_at(origin: &str, initiate: &str, extra: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_oauth1"))
        .args([
            "authorize",
            "--request-token-url",
            &format!("{origin}{initiate}"),
            "--authorize-url",
            &format!("{origin}/authorize"),
            "--access-token-url",
            &format!("{origin}/token"),
            "--consumer-key",
            CONSUMER.0,
        ])
        .args(extra)
        .env("OAUTH1_CONSUMER_SECRET", CONSUMER.1)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the oauth1 binary runs")
}

/// Reads standard error up to the line that holds the authorization URL alone (indented),
/// and returns the URL, everything read, and the rest of standard error to come.
pub(crate) fn printed_url(
    child: &mut Child,
) -> (String, Vec<String>, std::thread::JoinHandle<String>) {
    let stderr = child.stderr.take().unwrap();
    let mut lines = BufReader::new(stderr).lines();
    let mut seen = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        seen.push(line.clone());
        let trimmed = line.trim();
        if trimmed.starts_with("http://") {
            assert!(
                !trimmed.contains(' '),
                "the URL is alone on its line: {line:?}"
            );
            // The rest of standard error is read aside, so the command never blocks on it.
            let rest =
                std::thread::spawn(move || lines.map(|l| l.unwrap() + "\n").collect::<String>());
            return (trimmed.to_owned(), seen, rest);
        }
    }
    panic!("no URL printed: {seen:?}");
}

fn finish(child: Child) -> (bool, String) {
    let output = child.wait_with_output().unwrap();
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

fn runtime_with_provider() -> (tokio::runtime::Runtime, String) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let origin = runtime.block_on(provider());
    (runtime, origin)
}

#[test]
fn the_loopback_callback_ends_the_wait_and_the_credentials_are_printed() {
    let (_runtime, origin) = runtime_with_provider();
    let mut child = authorize(&origin, &["--timeout", "30"]);
    let (url, seen, _) = printed_url(&mut child);
    assert!(seen[0].contains("Open this URL"), "{seen:?}");
    assert_eq!(
        url,
        format!("{origin}/authorize?oauth_token={}", TEMPORARY.0)
    );

    // The browser: the provider redirects it to the command's callback.
    let page = reqwest::blocking::get(&url).unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.text().unwrap().contains("You can close this window."));

    let (ok, stdout) = finish(child);
    assert!(ok);
    assert_eq!(
        stdout,
        format!(
            "oauth_token={}\noauth_token_secret={}\nuser_id=6253282\n",
            TOKEN.0, TOKEN.1
        )
    );
}

#[test]
fn out_of_band_reads_the_verifier_and_prints_json() {
    let (_runtime, origin) = runtime_with_provider();
    let mut child = authorize(&origin, &["--callback", "oob", "--json", "--timeout", "30"]);
    let (url, _, _) = printed_url(&mut child);
    let shown = reqwest::blocking::get(&url).unwrap().text().unwrap();
    assert!(shown.ends_with(&format!("oauth_verifier={VERIFIER}")));
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{VERIFIER}").unwrap();
    drop(stdin);
    let (ok, stdout) = finish(child);
    assert!(ok);
    let printed: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        printed,
        serde_json::json!({
            "oauth_token": TOKEN.0,
            "oauth_token_secret": TOKEN.1,
            "user_id": "6253282",
        })
    );
}

#[test]
fn a_callback_for_another_token_stops_the_command() {
    let (_runtime, origin) = runtime_with_provider();
    let mut child = authorize(&origin, &["--listen", "127.0.0.1:0", "--timeout", "30"]);
    let (url, _, rest) = printed_url(&mut child);
    // The callback the command listens on, reached with another token.
    let location = reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .get(&url)
        .send()
        .unwrap()
        .headers()["location"]
        .to_str()
        .unwrap()
        .to_owned();
    let (callback, _) = location.split_once('?').unwrap();
    let page =
        reqwest::blocking::get(format!("{callback}?oauth_token=other&oauth_verifier=v")).unwrap();
    assert_eq!(page.status(), 400);
    let output = child.wait_with_output().unwrap();
    assert!(!output.status.success());
    let stderr = rest.join().unwrap();
    assert!(
        stderr.contains("error: the callback: the callback's oauth_token is not the temporary token of this flow"),
        "{stderr}"
    );
}

#[test]
fn the_wait_ends_at_the_timeout_with_a_clear_error() {
    let (_runtime, origin) = runtime_with_provider();
    for (mode, waited_for) in [
        (&[][..], "the browser's redirect to the callback"),
        (&["--callback", "oob"][..], "the verifier on standard input"),
    ] {
        let started = Instant::now();
        let mut child = authorize(&origin, &[mode, &["--timeout", "1"]].concat());
        // Standard input stays open, and nobody opens the URL.
        let stdin = child.stdin.take();
        let output = child.wait_with_output().unwrap();
        drop(stdin);
        assert!(!output.status.success());
        assert!(started.elapsed() < Duration::from_secs(20));
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(
            stderr.contains(&format!(
                "error: no answer in time: waited for {waited_for} until --timeout ran out"
            )),
            "{stderr}"
        );
    }
}

#[test]
fn a_provider_error_is_reported_and_nothing_waits() {
    let (_runtime, origin) = runtime_with_provider();
    let output = authorize_at(&origin, "/problem", &[])
        .wait_with_output()
        .unwrap();
    assert!(!output.status.success());
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "error: temporary credentials: the provider answered 401 with oauth_problem=consumer_key_rejected (Apply for a key)\n"
    );
}
