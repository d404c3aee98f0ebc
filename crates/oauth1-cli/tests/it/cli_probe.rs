//! `oauth1 probe`'s bounds, checked without sending anything: a method other than GET and HEAD
//! refused unless allowed, one HAR entry at a time, a budget of zero requests kept. Probing
//! quirky servers is `scripts/interop_peers/probe_servers.py`'s.

use std::process::{Command, Output};

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
