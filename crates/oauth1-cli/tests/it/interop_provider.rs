//! `oauth1 authorize` and `oauth1 send` against Python oauthlib's provider
//! (`scripts/interop_peers/oauthlib_provider.py`), in both callback modes; the test plays the
//! browser with the URL the command prints. Ignored by a plain `cargo test`;
//! `scripts/interop` starts the provider and runs them with `OAUTH1_INTEROP_PROVIDER` set to
//! its URL.

const CONSUMER: (&str, &str) = ("provider-consumer-key", "provider consumer secret");
const ALICE: (&str, &str) = ("alice-token-0123456789ab", "alice's token secret");

fn origin() -> String {
    std::env::var("OAUTH1_INTEROP_PROVIDER")
        .expect("OAUTH1_INTEROP_PROVIDER names the oauthlib provider: run scripts/interop")
}

use std::io::Write;
use std::process::{Child, Command, Stdio};

use crate::cli_authorize::printed_url;

fn authorize(extra: &[&str]) -> Child {
    let origin = origin();
    Command::new(env!("CARGO_BIN_EXE_oauth1"))
        .args([
            "authorize",
            "--request-token-url",
            &format!("{origin}/request_token"),
            "--authorize-url",
            &format!("{origin}/authorize"),
            "--access-token-url",
            &format!("{origin}/access_token"),
            "--consumer-key",
            CONSUMER.0,
            "--timeout",
            "30",
            "--json",
        ])
        .args(extra)
        .env("OAUTH1_CONSUMER_SECRET", CONSUMER.1)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The credentials the command printed, checked by a resource request signed with them.
fn printed_credentials_work(child: Child) {
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let printed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(printed["user"], "alice");
    let user = oauth1_signer::Signer::new(oauth1_signer::Consumer::new(CONSUMER.0, CONSUMER.1))
        .with_token(oauth1_signer::Token::new(
            printed["oauth_token"].as_str().unwrap(),
            printed["oauth_token_secret"].as_str().unwrap(),
        ));
    let mut request = reqwest::blocking::Client::new()
        .get(format!("{}/resource", origin()))
        .build()
        .unwrap();
    oauth1_reqwest::SignExt::sign_oauth1(&mut request, &user).unwrap();
    let response = reqwest::blocking::Client::new().execute(request).unwrap();
    assert_eq!(response.status(), 200);
}

#[test]
#[ignore = "needs the oauthlib provider: run scripts/interop"]
fn authorize_with_the_loopback_callback() {
    let mut child = authorize(&[]);
    let (url, _, _) = printed_url(&mut child);
    // The browser follows the provider's redirect to the command's listener.
    let page = reqwest::blocking::get(&url).unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.text().unwrap().contains("You can close this window."));
    printed_credentials_work(child);
}

#[test]
#[ignore = "needs the oauthlib provider: run scripts/interop"]
fn send_uploads_a_file_as_multipart() {
    let file = std::env::temp_dir().join(format!("oauth1-interop-{}.jpg", std::process::id()));
    std::fs::write(&file, (0..=255u8).cycle().take(100_000).collect::<Vec<_>>()).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_oauth1"))
        .args([
            "send",
            &format!("{}/upload?album=7", origin()),
            "-F",
            "title=a photo & a caption",
            "-F",
            &format!("media=@{}", file.display()),
            "--consumer-key",
            CONSUMER.0,
            "--token",
            ALICE.0,
        ])
        .env("OAUTH1_CONSUMER_SECRET", CONSUMER.1)
        .env("OAUTH1_TOKEN_SECRET", ALICE.1)
        .output()
        .unwrap();
    std::fs::remove_file(&file).unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let answer: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(answer["user"], "alice");
    assert_eq!(answer["parts"]["title"], 19);
    assert_eq!(answer["parts"]["media"], 100_000);
}

#[test]
#[ignore = "needs the oauthlib provider: run scripts/interop"]
fn authorize_out_of_band() {
    let mut child = authorize(&["--callback", "oob"]);
    let (url, _, _) = printed_url(&mut child);
    let shown = reqwest::blocking::get(&url).unwrap().text().unwrap();
    let verifier = shown
        .split('&')
        .find_map(|pair| pair.strip_prefix("oauth_verifier="))
        .unwrap()
        .to_owned();
    writeln!(child.stdin.take().unwrap(), "{verifier}").unwrap();
    printed_credentials_work(child);
}
