//! `oauth1 send` against a loopback server that verifies with the `tower` layer: a GET, a
//! form, a multipart upload with a file, bytes as they are, the query transport, `-i`, the exit
//! status; and a mistaken server that echoes its base string, which gets the diagnosis.

use std::process::{Command, Output};

use axum::body::Bytes;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::routing::any;
use axum::{Extension, Router};
use oauth1_server::tower::VerifyLayer;
use oauth1_server::{MemoryCredentials, MemoryNonceStore, Verified, Verifier};
use oauth1_signer::header::Authorization;

const CONSUMER: (&str, &str) = ("send-consumer", "send consumer secret");
const TOKEN: (&str, &str) = ("send-token", "send token secret");

async fn echo(Extension(verified): Extension<Verified>, headers: HeaderMap, body: Bytes) -> String {
    let content_type = headers
        .get("content-type")
        .map_or("", |v| v.to_str().unwrap());
    format!(
        "{} {} {} {}",
        verified.token().unwrap_or("-"),
        verified.parameters(),
        content_type.split(';').next().unwrap(),
        body.len()
    )
}

/// A server with a mistake: it encodes spaces as `+` in its base string, refuses every
/// request, and echoes the base string it computed, as many servers do in their 401.
async fn mistaken(method: Method, uri: Uri, headers: HeaderMap) -> (StatusCode, String) {
    let header = headers["authorization"].to_str().unwrap();
    let authorization = Authorization::parse(header).unwrap();
    let form = |b: &[u8]| url::form_urlencoded::byte_serialize(b).collect::<String>();
    let mut params: Vec<(String, String)> =
        url::form_urlencoded::parse(uri.query().unwrap_or("").as_bytes())
            .map(|(n, v)| (form(n.as_bytes()), form(v.as_bytes())))
            .collect();
    params.extend(
        authorization
            .parameters()
            .filter(|(n, _)| *n != "oauth_signature")
            .map(|(n, v)| (form(n.as_bytes()), form(v))),
    );
    params.sort();
    let joined = params
        .iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join("&");
    let base_uri = format!("http://{}{}", headers["host"].to_str().unwrap(), uri.path());
    let base_string = format!(
        "{method}&{}&{}",
        form(base_uri.as_bytes()),
        form(joined.as_bytes())
    );
    (
        StatusCode::UNAUTHORIZED,
        format!("Invalid signature. Expected signature base string: {base_string}"),
    )
}

fn server() -> (tokio::runtime::Runtime, String) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let origin = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        let mut credentials = MemoryCredentials::new();
        credentials.add_consumer(CONSUMER.0, CONSUMER.1);
        credentials.add_token(CONSUMER.0, TOKEN.0, TOKEN.1);
        let layer =
            VerifyLayer::new(Verifier::new(credentials, MemoryNonceStore::new()), &origin).unwrap();
        let app = Router::new()
            .route("/echo", any(echo))
            .layer(layer)
            .route("/mistaken", any(mistaken));
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        origin
    });
    (runtime, origin)
}

fn send(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oauth1"))
        .arg("send")
        .args(args)
        .args(["--consumer-key", CONSUMER.0, "--token", TOKEN.0])
        .env("OAUTH1_CONSUMER_SECRET", CONSUMER.1)
        .env("OAUTH1_TOKEN_SECRET", TOKEN.1)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn requests_of_every_shape_are_signed_and_accepted() {
    let (_runtime, origin) = server();
    let echo = format!("{origin}/echo?q=caf%C3%A9%20au%20lait");

    let out = send(&[&echo]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with(&format!("{} oauth_consumer_key=", TOKEN.0)));
    assert_eq!(text(&out.stderr), "HTTP/1.1 200 OK\n");

    // A form is signed: its parameters are among the verified ones.
    let out = send(&["-d", "status=Hello Ladies", "-d", "tag=a", &echo]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let answer = text(&out.stdout);
    assert!(answer.contains("status=Hello%20Ladies"), "{answer}");
    assert!(answer.contains("tag=a"), "{answer}");
    assert!(
        answer.contains(" application/x-www-form-urlencoded "),
        "{answer}"
    );

    // --data-urlencode, as curl's: the '+' arrives a plus; with -d the server reads a space.
    let out = send(&["--data-urlencode", "status=Hello Ladies + Gentlemen", &echo]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let answer = text(&out.stdout);
    assert!(
        answer.contains("status=Hello%20Ladies%20%2B%20Gentlemen"),
        "{answer}"
    );
    let out = send(&["-d", "status=Hello Ladies + Gentlemen", &echo]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("status=Hello%20Ladies%20%20%20Gentlemen"),
        "{}",
        text(&out.stdout)
    );

    // A multipart upload with a file: signed, not read.
    let dir = std::env::temp_dir().join(format!("oauth1-send-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("photo.jpg");
    std::fs::write(&file, vec![0xffu8; 50_000]).unwrap();
    let field = format!("media=@{}", file.display());
    let out = send(&["-F", "title=a photo", "-F", &field, &echo]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let answer = text(&out.stdout);
    assert!(answer.contains(" multipart/form-data "), "{answer}");
    assert!(!answer.contains("title="), "{answer}");
    let length: usize = answer.rsplit(' ').next().unwrap().parse().unwrap();
    assert!(length > 50_000, "{answer}");

    // Bytes as they are, with their Content-Type: not signed, sent whole.
    let out = send(&[
        "-X",
        "PUT",
        "-H",
        "Content-Type: application/json",
        "--data-binary",
        "{\"a\": 1}",
        &echo,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).ends_with(" application/json 8"));

    // The query transport, and -i.
    let out = send(&["--transport", "query", "-i", &echo]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let answer = text(&out.stdout);
    assert!(answer.starts_with("HTTP/1.1 200 OK\n"), "{answer}");
    assert!(answer.contains("\n\nsend-token "), "{answer}");
    assert_eq!(text(&out.stderr), "");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_refusal_fails_and_an_echoed_base_string_is_diagnosed() {
    let (_runtime, origin) = server();
    // The wrong secret: the verifying server answers 401, the command fails.
    let out = Command::new(env!("CARGO_BIN_EXE_oauth1"))
        .args([
            "send",
            &format!("{origin}/echo"),
            "--consumer-key",
            CONSUMER.0,
        ])
        .env("OAUTH1_CONSUMER_SECRET", "not the secret")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("HTTP/1.1 401 Unauthorized\n"),
        "{stderr}"
    );
    assert!(stderr.ends_with("error: the server answered 401 Unauthorized\n"));
    // The body as sent on standard output; its problem report decoded on standard error.
    assert!(text(&out.stdout).starts_with("oauth_problem=signature_invalid&"));
    assert!(
        stderr
            .contains("\nproblem:    signature_invalid\nadvice:     the signature does not match"),
        "{stderr}"
    );
    // No base string echoed: the probe is offered, with the request as sent.
    let offered = format!(
        "next: the server echoed no base string. Ask it which reading it accepts (it sends this request signed as each known mistake would sign it, GET and HEAD unless --allow-method):\n  oauth1 probe --curl 'curl -X GET '\\''{origin}/echo'\\'' -H '\\''Authorization: OAuth "
    );
    assert!(stderr.contains(&offered), "{stderr}");

    // The mistaken server echoes its base string: the diagnosis names its mistake.
    let out = send(&[&format!("{origin}/mistaken?q=two words")]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("verdict:    explained"), "{stderr}");
    assert!(
        stderr.contains(
            "cause:      plus-for-space: the other side encoded a space as \"+\" instead of \"%20\""
        ),
        "{stderr}"
    );
    assert!(text(&out.stdout).starts_with("Invalid signature."));
}

#[test]
fn bad_flags_are_clear_errors() {
    let out = send(&["--transport", "cookie", "http://127.0.0.1:9/"]);
    assert_eq!(
        text(&out.stderr),
        "error: invalid value 'cookie' for '--transport <TRANSPORT>': give header, query or body\n\nFor more information, try '--help'.\n"
    );
    let out = send(&["-H", "no colon", "http://127.0.0.1:9/"]);
    assert_eq!(
        text(&out.stderr),
        "error: -H \"no colon\": give a header as 'Name: value'\n"
    );
    // A URL without its scheme, and a server that is not there: said so, with the cause.
    let out = send(&["api.example.com/1.1/statuses/home_timeline.json"]);
    assert_eq!(
        text(&out.stderr),
        "error: the URL \"api.example.com/1.1/statuses/home_timeline.json\" has no scheme: write it whole, such as https://api.example.com/1.1/statuses/home_timeline.json\n"
    );
    let out = send(&["ftp://example.com/x"]);
    assert_eq!(
        text(&out.stderr),
        "error: the URL \"ftp://example.com/x\" has the scheme \"ftp\": give an http or https URL\n"
    );
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let out = send(&[&format!("http://127.0.0.1:{port}/x")]);
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with(&format!(
            "error: sending the request to http://127.0.0.1:{port}: "
        )),
        "{stderr}"
    );
    assert!(
        stderr.to_lowercase().contains("connection refused"),
        "{stderr}"
    );
    let out = send(&["-F", "media=@/nonexistent/file", "http://127.0.0.1:9/"]);
    assert!(
        text(&out.stderr)
            .starts_with("error: -F \"media=@/nonexistent/file\": reading /nonexistent/file: "),
        "{}",
        text(&out.stderr)
    );
}

/// A loopback port nobody listens on.
fn closed_port() -> u16 {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    closed.local_addr().unwrap().port()
}

/// A server that answers every connection with a head promising more body than it sends, then
/// closes: reading the response fails.
fn cut_short() -> u16 {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten().take(6) {
            let mut buf = [0u8; 4096];
            let _ = stream.read(&mut buf);
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort");
        }
    });
    port
}

/// A server that reads the request, then sends `head` and nothing more, keeping the
/// connection open for a minute.
fn silent_after(head: &'static [u8]) -> u16 {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                let _ = stream.read(&mut buf);
                let _ = stream.write_all(head);
                std::thread::sleep(std::time::Duration::from_secs(60));
            });
        }
    });
    port
}

/// A server that never answers, or never finishes its answer, holds the command no longer than
/// `--timeout`, and the error says which deadline ran out.
#[test]
fn a_silent_server_is_given_up_at_the_timeout() {
    // The status line of an answer whose body never ends comes first, as it came.
    for (head, said) in [
        (&b""[..], "error: sending the request to {origin}: no answer within 1.5 s"),
        (
            &b"HTTP/1.1 401 Unauthorized\r\nContent-Length: 10\r\n\r\nx"[..],
            "HTTP/1.1 401 Unauthorized\nerror: reading the response of {origin}: the answer did not end within 1.5 s",
        ),
    ] {
        let port = silent_after(head);
        let origin = format!("http://127.0.0.1:{port}");
        let started = std::time::Instant::now();
        let out = send(&[&format!("{origin}/x"), "--timeout", "1.5"]);
        let took = started.elapsed();
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(
            text(&out.stderr),
            format!(
                "{} (--timeout gives more)\n",
                said.replace("{origin}", &origin)
            )
        );
        assert!(took < std::time::Duration::from_secs(10), "{took:?}");
    }
    for timeout in ["0", "1e-12", "1e9"] {
        let out = send(&["http://127.0.0.1:9/", "--timeout", timeout]);
        let value = timeout.parse::<f64>().unwrap();
        assert_eq!(
            text(&out.stderr),
            format!(
                "error: --timeout {value}: give a number of seconds from 0.001 to 86400 (a day)\n"
            )
        );
    }
}

/// A request that fails, in sending or in reading the answer, is named by its origin: never by
/// its signed URL, which with PLAINTEXT in the query holds both secrets, and which could be
/// replayed within the server's window with any method.
#[test]
fn a_failed_send_never_prints_the_signed_request() {
    for (port, doing) in [
        (closed_port(), "sending the request to"),
        (cut_short(), "reading the response of"),
    ] {
        for method in ["PLAINTEXT", "HMAC-SHA1"] {
            for transport in ["query", "header", "body"] {
                let out = send(&[
                    &format!("http://127.0.0.1:{port}/x?a=1"),
                    "--transport",
                    transport,
                    "--signature-method",
                    method,
                    "-d",
                    "b=2",
                    // The secrets in clear, to a loopback server, so that the test sees them.
                    "--allow-plaintext-over-http",
                ]);
                assert!(!out.status.success());
                let stderr = text(&out.stderr);
                // The status line of an answer cut short comes first, as it came.
                let error = stderr.strip_prefix("HTTP/1.1 200 OK\n").unwrap_or(&stderr);
                assert!(
                    error.starts_with(&format!("error: {doing} http://127.0.0.1:{port}: ")),
                    "{stderr}"
                );
                for leaked in [
                    "oauth_signature",
                    "oauth_nonce",
                    "a=1",
                    "/x",
                    "consumer%20secret",
                    "token%20secret",
                    CONSUMER.1,
                ] {
                    assert!(
                        !stderr.contains(leaked),
                        "{method} {transport}: {leaked:?} in {stderr}"
                    );
                }
            }
        }
    }
}
