//! `fixtures/bad-input.json` through `oauth1 sign --jsonl`: every bad line answered with its
//! exact error, in order (the library's answers are tested in `tests/it/bad_input.rs` at the
//! repository's root).

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
