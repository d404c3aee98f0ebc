//! Standard output that stops taking what is written: a reader that has gone (`oauth1 … |
//! head`) ends the output quietly, with the status the command would have had; a full disk is
//! an error that says so. Neither is a panic.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `oauth1 args` with `stdin`, its standard output's reader gone before the command can
/// write (standard input is written only after the reader is dropped).
fn reader_gone(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oauth1"))
        .args(args)
        .env("OAUTH1_CONSUMER_SECRET", "cs")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the oauth1 binary runs");
    drop(child.stdout.take());
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    // The command may stop reading once its output is gone.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

const MISMATCH: [&str; 11] = [
    "explain",
    "--url",
    "https://example.com/x",
    "--consumer-key",
    "k",
    "--nonce",
    "n",
    "--timestamp",
    "1",
    "--observed-signature",
    "abc=",
];

#[test]
fn a_reader_that_has_gone_ends_the_output_not_the_command() {
    // 300 KB of output, more than a pipe holds.
    let out = reader_gone(&["encode", "-"], &vec![b'/'; 100_000]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    // A stream of answers ends at the first one not taken.
    let out = reader_gone(&["sign", "--jsonl"], &b"{}\n".repeat(100_000));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    // explain's status still says what it found: 1, a mismatch.
    let mut child = Command::new(env!("CARGO_BIN_EXE_oauth1"))
        .args(MISMATCH)
        .env("OAUTH1_CONSUMER_SECRET", "cs")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_an_error_that_says_so() {
    for (args, status) in [(&["encode", "abc"][..], 1), (&MISMATCH[..], 2)] {
        let out = Command::new(env!("CARGO_BIN_EXE_oauth1"))
            .args(args)
            .env("OAUTH1_CONSUMER_SECRET", "cs")
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(status), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "error: writing to standard output: No space left on device (os error 28)\n"
        );
    }
}
