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
