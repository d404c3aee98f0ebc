//! The two request shapes of the X API, signed through the `reqwest` middleware: the v2
//! "create post" request (a JSON body, which is not signed) and the v1.1 form request (whose
//! form parameters are).
//!
//! ```text
//! OAUTH1_CONSUMER_KEY=… OAUTH1_CONSUMER_SECRET=… OAUTH1_TOKEN=… OAUTH1_TOKEN_SECRET=… \
//!     cargo run -p oauth1-reqwest --example x_api -- https://api.x.com
//! ```
//!
//! The base URL is the first argument; `scripts/interop` points it at its local oauthlib
//! server. It prints each answer's status and body, and fails unless both are 2xx.

use oauth1_reqwest::OAuth1Middleware;
use oauth1_signer::{Consumer, Signer, Token};
use reqwest_middleware::ClientBuilder;

fn env(name: &str) -> Result<String, String> {
    std::env::var(name).map_err(|_| format!("set {name}"))
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let base = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "https://api.x.com".to_owned());
    let signer = Signer::new(Consumer::new(
        env("OAUTH1_CONSUMER_KEY")?,
        env("OAUTH1_CONSUMER_SECRET")?,
    ))
    .with_token(Token::new(
        env("OAUTH1_TOKEN")?,
        env("OAUTH1_TOKEN_SECRET")?,
    ));
    let client = ClientBuilder::new(
        reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()?,
    )
    .with(OAuth1Middleware::new(signer))
    .build();

    // v2: create a post.
    let v2 = client
        .post(format!("{base}/2/tweets"))
        .header("content-type", "application/json")
        .body(r#"{"text": "Hello, world! ✓"}"#)
        .send()
        .await?;
    // v1.1: the form request of the X API's "Creating a signature" page.
    let v1 = client
        .post(format!(
            "{base}/1.1/statuses/update.json?include_entities=true"
        ))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("status=Hello%20Ladies%20%2B%20Gentlemen%2C%20a%20signed%20OAuth%20request%21")
        .send()
        .await?;

    let mut failed = false;
    for (name, response) in [("v2 create post", v2), ("v1.1 statuses/update", v1)] {
        let status = response.status();
        println!("{name}: {status}\n{}", response.text().await?);
        failed |= !status.is_success();
    }
    if failed {
        return Err("a request was refused".into());
    }
    Ok(())
}
