//! reqwest resolves dot segments before it sends; the middleware signs the URL reqwest sends,
//! so a server routes and verifies the same path.

use axum::Router;
use oauth1_server::tower::VerifyLayer;
use oauth1_signer::{Consumer, Signer, Token};
use tower::Layer;

use crate::routed_app::{app, verifier, CONSUMER, TOKEN};

/// reqwest resolves dot segments before it sends; its middleware signs the URL reqwest
/// sends, so the server routes and verifies the same path.
#[tokio::test]
async fn reqwest_sends_the_path_it_signed() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let layer = VerifyLayer::new(verifier(), &origin).unwrap();
    let service = layer.layer(app());
    tokio::spawn(async move {
        axum::serve(listener, Router::new().fallback_service(service))
            .await
            .unwrap();
    });
    let signer =
        Signer::new(Consumer::new(CONSUMER.0, CONSUMER.1)).with_token(Token::new(TOKEN.0, TOKEN.1));
    let client = reqwest_middleware::ClientBuilder::new(reqwest::Client::new())
        .with(oauth1_reqwest::OAuth1Middleware::new(signer))
        .build();
    for path in ["/b/../a", "/b/%2e%2E/a", "/b/./x/../c"] {
        let response = client.get(format!("{origin}{path}")).send().await.unwrap();
        let status = response.status().as_u16();
        let body = response.text().await.unwrap();
        let sent = url::Url::parse(&format!("{origin}{path}")).unwrap();
        let route = if sent.path() == "/a" { "a" } else { "b" };
        assert_eq!(
            (status, body),
            (200, format!("{route} {}", sent.path())),
            "{path}"
        );
    }
}
