//! `fixtures/bad-input.json` through the command line: every bad `sign --jsonl` line answered
//! with its exact error, in order, and every bad curl command refused by `explain --curl` and
//! `verify --curl` (the library's answers are tested in `crates/oauth1-server/tests/it/bad_input.rs`).

/// The `sign-line` entries, and every other sign entry as a line, through the command line:
/// one answer line each, in order, the stream never cut short.
#[test]
fn the_command_line_answers_every_bad_line() {
    use std::io::Write;
    use std::process::{Command, Stdio};

    let path = crate::common::fixtures_dir().join("bad-input.json");
    let entries: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut input = Vec::new();
    let mut want = Vec::new();
    for entry in &entries {
        let text = |name: &str| entry[name].as_str().map(str::to_owned);
        match entry["kind"].as_str().unwrap() {
            "sign-line" => {
                match (text("line"), text("line_hex")) {
                    (Some(line), None) => input.extend_from_slice(line.as_bytes()),
                    (None, Some(hex)) => input.extend(
                        (0..hex.len())
                            .step_by(2)
                            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()),
                    ),
                    _ => panic!("a sign-line entry has line or line_hex"),
                }
                want.push(text("error").unwrap());
            }
            "sign" if !entry["case"]["url"].as_str().unwrap().contains('{') => {
                input.extend(serde_json::to_vec(&entry["case"]).unwrap());
                want.push(text("error").unwrap());
            }
            _ => continue,
        }
        input.push(b'\n');
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_oauth1"))
        .args(["sign", "--jsonl"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let answers: Vec<serde_json::Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let got: Vec<&str> = answers
        .iter()
        .map(|a| a["error"].as_str().unwrap_or("(signed)"))
        .collect();
    assert_eq!(got, want);
}

/// The `curl` entries: each command names a file to read its data from, and is refused by the
/// capture reader, by `oauth1 explain --curl` and by `oauth1 verify --curl` with the exact
/// message and what to do instead; no file is opened (one of them is `/dev/zero`, another a
/// FIFO nobody writes to).
#[test]
fn every_curl_command_that_reads_a_file_is_refused() {
    use std::process::Command;

    let path = crate::common::fixtures_dir().join("bad-input.json");
    let entries: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let curls: Vec<&serde_json::Value> = entries.iter().filter(|e| e["kind"] == "curl").collect();
    assert!(curls.len() >= 4);
    for entry in curls {
        let (command, error, file) = (
            entry["command"].as_str().unwrap(),
            entry["error"].as_str().unwrap(),
            entry["file"].as_str().unwrap(),
        );
        let refused = oauth1_capture::Capture::from_curl(command).unwrap_err();
        assert_eq!(refused.to_string(), error, "{}", entry["name"]);
        assert_eq!(refused.file(), Some(file), "{}", entry["name"]);
        for subcommand in ["explain", "verify"] {
            let output = Command::new(env!("CARGO_BIN_EXE_oauth1"))
                .args([subcommand, "--curl", command])
                .env("OAUTH1_CONSUMER_SECRET", "cs")
                .output()
                .unwrap();
            assert!(!output.status.success());
            assert_eq!(
                String::from_utf8(output.stderr).unwrap(),
                format!("error: --curl: {error}: give the body itself with --body-file FILE\n"),
                "{subcommand} {}",
                entry["name"]
            );
        }
    }
}
