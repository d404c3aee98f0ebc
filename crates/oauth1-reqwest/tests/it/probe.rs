//! `oauth1_reqwest::probe::run`: a probe driven over reqwest against loopback servers, an
//! exact verifier (the tower layer) and one that refuses everything, counting what it got.

use std::sync::{Arc, Mutex};

use axum::http::{HeaderMap, StatusCode};
use axum::Router;
use oauth1_server::tower::VerifyLayer;
use oauth1_signer::explain::{Probe, ProbeVerdict};
use oauth1_signer::{Consumer, Signer, Token};
use tower::Layer;

use crate::routed_app::{app, verifier, CONSUMER, TOKEN};

fn signer() -> Signer {
    Signer::new(Consumer::new(CONSUMER.0, CONSUMER.1)).with_token(Token::new(TOKEN.0, TOKEN.1))
}

#[tokio::test]
async fn an_exact_server_accepts_the_first_request() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let service = VerifyLayer::new(verifier(), &origin).unwrap().layer(app());
    tokio::spawn(async move {
        axum::serve(listener, Router::new().fallback_service(service))
            .await
            .unwrap();
    });
    let signer = signer();
    let url = format!("{origin}/a?q=a+b&tag=1&tag=2");
    let mut probe = Probe::new(&signer, "GET", &url, 40, &[]).unwrap();
    let report = oauth1_reqwest::probe::run(&reqwest::Client::new(), &mut probe, || async {})
        .await
        .unwrap();
    assert_eq!(
        (report.verdict(), report.requests()),
        (ProbeVerdict::Rfc, 1)
    );
}

#[tokio::test]
async fn a_server_that_refuses_everything_gets_the_budget_and_no_more() {
    let received: Arc<Mutex<Vec<(String, String)>>> = Arc::default();
    let seen = received.clone();
    let app = Router::new().fallback(move |method: axum::http::Method, headers: HeaderMap| {
        let seen = seen.clone();
        async move {
            let header = headers
                .get("authorization")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("")
                .to_owned();
            seen.lock().unwrap().push((method.to_string(), header));
            (StatusCode::UNAUTHORIZED, "Could not authenticate you.")
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let signer = signer();
    let mut pauses = 0;
    let mut probe = Probe::new(&signer, "GET", &format!("{origin}/x?q=a+b"), 7, &[]).unwrap();
    let report = oauth1_reqwest::probe::run(&reqwest::Client::new(), &mut probe, || {
        pauses += 1;
        async {}
    })
    .await
    .unwrap();
    let received = received.lock().unwrap();
    assert_eq!(report.verdict(), ProbeVerdict::None);
    assert_eq!((report.requests(), received.len(), pauses), (7, 7, 6));
    assert!(received.iter().all(|(method, _)| method == "GET"));
    let nonces: std::collections::HashSet<&str> = received
        .iter()
        .map(|(_, header)| {
            let at = header.find("oauth_nonce=\"").unwrap() + "oauth_nonce=\"".len();
            &header[at..at + header[at..].find('"').unwrap()]
        })
        .collect();
    assert_eq!(nonces.len(), 7, "a nonce sent twice");
}

/// A client as `probe::run` asks for: redirects are answers, not followed.
fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// A hostile server on loopback: each connection's request is read up to its blank line, then
/// `answer` writes to the connection; the bytes it wrote come back on the channel.
async fn hostile<F, Fut>(answer: F) -> (String, tokio::sync::mpsc::UnboundedReceiver<u64>)
where
    F: Fn(tokio::net::TcpStream) -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = u64> + Send + 'static,
{
    use tokio::io::AsyncReadExt;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let (written, counts) = tokio::sync::mpsc::unbounded_channel();
    let answer = Arc::new(answer);
    tokio::spawn(async move {
        loop {
            let (mut stream, _) = listener.accept().await.unwrap();
            let answer = answer.clone();
            let written = written.clone();
            tokio::spawn(async move {
                let mut head = Vec::new();
                let mut buf = [0u8; 4096];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => head.extend_from_slice(&buf[..n]),
                    }
                }
                let _ = written.send(answer(stream).await);
            });
        }
    });
    (origin, counts)
}

#[tokio::test]
async fn a_huge_answer_is_read_no_further_than_the_probe_needs() {
    use tokio::io::AsyncWriteExt;
    const ANNOUNCED: u64 = 300 << 20;
    let (origin, mut counts) = hostile(|mut stream| async move {
        let head = format!("HTTP/1.1 401 Unauthorized\r\nContent-Length: {ANNOUNCED}\r\n\r\n");
        stream.write_all(head.as_bytes()).await.unwrap();
        let chunk = vec![b'x'; 1 << 16];
        let mut sent = 0;
        while sent < ANNOUNCED {
            if stream.write_all(&chunk).await.is_err() {
                break;
            }
            sent += chunk.len() as u64;
        }
        sent
    })
    .await;
    let signer = signer();
    let mut probe = Probe::new(&signer, "GET", &format!("{origin}/x"), 1, &[]).unwrap();
    let report = oauth1_reqwest::probe::run(&client(), &mut probe, || async {})
        .await
        .unwrap();
    assert_eq!(
        (report.verdict(), report.requests()),
        (ProbeVerdict::None, 1)
    );
    let sent = tokio::time::timeout(std::time::Duration::from_secs(60), counts.recv())
        .await
        .expect("the server stops writing once the client has gone")
        .unwrap();
    // What the two sockets' buffers hold beside the 64 KiB read; nowhere near 300 MiB.
    assert!(
        sent < 32 << 20,
        "the server wrote {sent} bytes before the client dropped the connection"
    );
}

/// A server that announces 1,000 bytes and trickles one every half second.
async fn trickling(mut stream: tokio::net::TcpStream) -> u64 {
    use tokio::io::AsyncWriteExt;
    let head = "HTTP/1.1 401 Unauthorized\r\nContent-Length: 1000\r\n\r\n";
    if stream.write_all(head.as_bytes()).await.is_err() {
        return 0;
    }
    for sent in 0..1000 {
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        if stream.write_all(b"x").await.is_err() {
            return sent;
        }
    }
    1000
}

#[tokio::test]
async fn a_trickling_answer_is_cut_at_one_deadline_per_request() {
    let (origin, _counts) = hostile(trickling).await;
    let signer = signer();
    let mut probe = Probe::new(&signer, "GET", &format!("{origin}/x?q=a"), 2, &[]).unwrap();
    let timeout = std::time::Duration::from_secs(2);
    let started = std::time::Instant::now();
    // Bounded from outside too, so that a failure is a failure and not a hang: without a
    // deadline for the whole answer, each request would take 500 s.
    let report = tokio::time::timeout(
        std::time::Duration::from_secs(60),
        oauth1_reqwest::probe::run_within(&client(), &mut probe, timeout, || async {}),
    )
    .await
    .expect("the probe ends within its requests' deadlines")
    .unwrap();
    // Each answer's status is taken with the part of its body that came in time.
    assert_eq!(
        (report.verdict(), report.requests()),
        (ProbeVerdict::None, 2)
    );
    // Two requests of at most 2 s each, and the time to make them.
    assert!(
        started.elapsed() < std::time::Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_server_that_never_answers_is_an_error_at_the_deadline() {
    let (origin, _counts) = hostile(|stream| async move {
        tokio::time::sleep(std::time::Duration::from_secs(600)).await;
        drop(stream);
        0
    })
    .await;
    let signer = signer();
    let mut probe = Probe::new(&signer, "GET", &format!("{origin}/x"), 3, &[]).unwrap();
    let error = tokio::time::timeout(
        std::time::Duration::from_secs(60),
        oauth1_reqwest::probe::run_within(
            &client(),
            &mut probe,
            std::time::Duration::from_secs(1),
            || async {},
        ),
    )
    .await
    .expect("the probe ends at the first request's deadline")
    .unwrap_err();
    assert!(
        matches!(&error, oauth1_reqwest::probe::ProbeError::Send(e) if e.is_timeout()),
        "{error}"
    );
    assert_eq!(probe.report().requests(), 1);
}

#[tokio::test]
async fn a_redirect_ends_the_probe_without_a_verdict_on_the_signature() {
    use tokio::io::AsyncWriteExt;
    let (origin, _counts) = hostile(|mut stream| async move {
        let answer = "HTTP/1.1 307 Temporary Redirect\r\nLocation: https://login.example.com/next\r\nContent-Length: 0\r\n\r\n";
        stream.write_all(answer.as_bytes()).await.unwrap();
        0
    })
    .await;
    let signer = signer();
    let mut probe = Probe::new(&signer, "GET", &format!("{origin}/x?q=a"), 40, &[]).unwrap();
    let report = oauth1_reqwest::probe::run(&client(), &mut probe, || async {})
        .await
        .unwrap();
    assert_eq!(
        (report.verdict(), report.requests()),
        (ProbeVerdict::Redirected, 1)
    );
    let redirect = report.redirect().unwrap();
    assert_eq!(
        (redirect.status(), redirect.location()),
        (307, Some("https://login.example.com/next"))
    );
}
