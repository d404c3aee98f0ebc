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

/// The callback URL the command listens on, without its query: where the provider redirects
/// the browser that opens `url`.
fn callback_of(url: &str) -> String {
    let location = reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .get(url)
        .send()
        .unwrap()
        .headers()["location"]
        .to_str()
        .unwrap()
        .to_owned();
    location.split_once('?').unwrap().0.to_owned()
}

/// Sends `head` (a request line and headers, without the blank line) to the listener of
/// `callback` as one request, and returns the answer's status line.
fn raw(callback: &str, head: &str) -> String {
    use std::io::Read;
    let address = callback
        .strip_prefix("http://")
        .unwrap()
        .split('/')
        .next()
        .unwrap();
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(stream, "{head}\r\n\r\n").unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer.lines().next().unwrap_or_default().to_owned()
}

/// The child's exit, waited for at most `most`; killed and `None` past it.
fn exit_within(child: &mut Child, most: Duration) -> Option<std::process::ExitStatus> {
    let started = Instant::now();
    while started.elapsed() < most {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// A request that is not this flow's callback (another token, none, a problem report alone,
/// another `Host`, two `Host`s, another method) is answered and ignored, and said on standard error,
/// escaped; the browser's redirect still ends the wait.
#[test]
fn a_forged_callback_is_ignored_and_the_flows_own_ends_the_wait() {
    let (_runtime, origin) = runtime_with_provider();
    let mut child = authorize(&origin, &["--timeout", "60"]);
    let (url, _, rest) = printed_url(&mut child);
    let callback = callback_of(&url);
    let port = callback
        .rsplit(':')
        .next()
        .unwrap()
        .split('/')
        .next()
        .unwrap();
    let listener = format!("127.0.0.1:{port}");
    let escapes = "%1B%5B2J%1B%5D52%3Bc%3BaGk%3D%07";
    for (head, status) in [
        (
            format!("GET /callback?oauth_token=other&oauth_verifier=v HTTP/1.1\r\nHost: {listener}"),
            "HTTP/1.1 400 Bad Request",
        ),
        (
            format!("GET /callback?oauth_verifier=v HTTP/1.1\r\nHost: {listener}"),
            "HTTP/1.1 400 Bad Request",
        ),
        (
            format!("GET /callback?oauth_problem={escapes} HTTP/1.1\r\nHost: localhost:{port}"),
            "HTTP/1.1 400 Bad Request",
        ),
        (
            format!("GET /callback?oauth_token={}&oauth_verifier=v HTTP/1.1\r\nHost: rebound.example:{port}", TEMPORARY.0),
            "HTTP/1.1 421 Misdirected Request",
        ),
        (
            format!("GET /callback?oauth_token={}&oauth_verifier=v HTTP/1.1\r\nHost: 127.0.0.1:1", TEMPORARY.0),
            "HTTP/1.1 421 Misdirected Request",
        ),
        (
            format!("POST /callback?oauth_token={}&oauth_verifier=v HTTP/1.1\r\nHost: {listener}\r\nContent-Length: 0", TEMPORARY.0),
            "HTTP/1.1 405 Method Not Allowed",
        ),
        (
            format!("GET /favicon.ico HTTP/1.1\r\nHost: {listener}"),
            "HTTP/1.1 404 Not Found",
        ),
        (
            format!("GET /callback?oauth_token={}&oauth_verifier=v HTTP/1.1\r\nHost: {listener}\r\nHost: rebound.example:{port}", TEMPORARY.0),
            "HTTP/1.1 400 Bad Request",
        ),
    ] {
        assert_eq!(raw(&callback, &head), status, "{head}");
    }

    // The browser: the provider redirects it to the command's callback.
    let page = reqwest::blocking::get(&url).unwrap();
    assert_eq!(page.status(), 200);
    let (ok, stdout) = finish(child);
    assert!(ok);
    assert!(
        stdout.starts_with(&format!("oauth_token={}\n", TOKEN.0)),
        "{stdout}"
    );
    let stderr = rest.join().unwrap();
    let ignored: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("ignored a"))
        .collect();
    assert_eq!(ignored.len(), 7, "{stderr}");
    assert!(
        ignored[0].starts_with(
            "ignored a request to the callback: its oauth_token is not this flow's; still waiting"
        ),
        "{stderr}"
    );
    assert!(
        ignored[1].starts_with(
            "ignored a request to the callback: it does not carry this flow's oauth_token;"
        ),
        "{stderr}"
    );
    assert!(
        ignored[2].starts_with("ignored a request to the callback: it reports oauth_problem=\\x1b[2J\\x1b]52;c;aGk=\\x07 without this flow's oauth_token;"),
        "{stderr}"
    );
    assert!(ignored[3].starts_with(&format!("ignored a request to the callback listener: its Host is rebound.example:{port}, not this listener's {listener}")), "{stderr}");
    assert!(ignored[4].contains("its Host is 127.0.0.1:1,"), "{stderr}");
    assert!(
        ignored[5].starts_with("ignored a POST request to the callback"),
        "{stderr}"
    );
    assert!(
        ignored[6]
            .starts_with("ignored a request to the callback listener: it carries 2 Host headers"),
        "{stderr}"
    );
    assert!(
        !stderr.contains('\u{1b}') && !stderr.contains('\u{7}'),
        "{stderr:?}"
    );
}

/// A callback with this flow's token that reports a problem ends the wait with it, escaped.
#[test]
fn a_problem_reported_for_this_flow_ends_the_wait_escaped() {
    let (_runtime, origin) = runtime_with_provider();
    let mut child = authorize(&origin, &["--timeout", "60"]);
    let (url, _, rest) = printed_url(&mut child);
    let callback = callback_of(&url);
    let page = reqwest::blocking::get(format!(
        "{callback}?oauth_token={}&oauth_problem=%1B%5B2J%1B%5D52%3Bc%3BaGk%3D%07&oauth_problem_advice=%C2%9B31m%E2%80%AEred%0Aok",
        TEMPORARY.0
    ))
    .unwrap();
    assert_eq!(page.status(), 400);
    let output = child.wait_with_output().unwrap();
    assert!(!output.status.success());
    let stderr = rest.join().unwrap();
    assert_eq!(
        stderr,
        "error: the provider's callback: the server reports oauth_problem=\\x1b[2J\\x1b]52;c;aGk=\\x07 (\\x9b31m\\u{202e}red\\x0aok)\n",
    );
}

/// A client that sends its request a byte at a time holds neither the browser's redirect,
/// served beside it, nor the command past its `--timeout`.
#[test]
fn a_slow_client_holds_neither_the_callback_nor_the_timeout() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    /// Opens a connection to `callback`'s listener and sends a header a byte every 200 ms,
    /// never ending it, until `stop` (or 40 s).
    fn trickle(callback: &str, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<()> {
        let address = callback
            .strip_prefix("http://")
            .unwrap()
            .split('/')
            .next()
            .unwrap()
            .to_owned();
        std::thread::spawn(move || {
            let mut stream = std::net::TcpStream::connect(address).unwrap();
            let _ = stream.write_all(b"GET /callback HTTP/1.1\r\nX-Slow: ");
            let started = Instant::now();
            while !stop.load(Ordering::Relaxed) && started.elapsed() < Duration::from_secs(40) {
                if stream.write_all(b"a").is_err() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(200));
            }
        })
    }

    let (_runtime, origin) = runtime_with_provider();
    // The redirect is served while the slow client sends.
    let mut child = authorize(&origin, &["--timeout", "60"]);
    let (url, _, _) = printed_url(&mut child);
    let callback = callback_of(&url);
    let stop = Arc::new(AtomicBool::new(false));
    let slow = trickle(&callback, Arc::clone(&stop));
    std::thread::sleep(Duration::from_millis(500));
    let browser = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap();
    let page = browser.get(&url).send();
    let status = exit_within(&mut child, Duration::from_secs(20));
    stop.store(true, Ordering::Relaxed);
    slow.join().unwrap();
    assert_eq!(page.map(|p| p.status()).ok(), Some(reqwest::StatusCode::OK));
    assert!(status.is_some_and(|s| s.success()), "{status:?}");

    // Nobody redirects: the command ends at its --timeout, whatever the slow client does.
    let mut child = authorize(&origin, &["--timeout", "2"]);
    let (url, _, rest) = printed_url(&mut child);
    let stop = Arc::new(AtomicBool::new(false));
    let slow = trickle(&callback_of(&url), Arc::clone(&stop));
    let status = exit_within(&mut child, Duration::from_secs(15));
    stop.store(true, Ordering::Relaxed);
    slow.join().unwrap();
    assert!(status.is_some_and(|s| !s.success()), "{status:?}");
    assert!(rest.join().unwrap().contains("error: no answer in time"));
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

/// The provider's endpoints are not followed to where a redirect points: the signed request
/// goes only to the URL given.
#[test]
fn a_redirect_is_not_followed() {
    let (_runtime, origin) = runtime_with_provider();
    let output = authorize_at(&origin, "/moved", &["--timeout", "5"])
        .wait_with_output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(
        stderr,
        "error: temporary credentials: the provider answered 307, a redirect to \"/initiate\" that is not followed (the signed request goes only where it was signed for): give the endpoint it points to\n"
    );
}
