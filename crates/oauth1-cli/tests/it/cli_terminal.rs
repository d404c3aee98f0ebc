//! Text from outside (a capture, a server's answer, a pasted base string) never reaches the
//! terminal as a control character: each printing path is given escape sequences (clear the
//! screen, write the clipboard with OSC 52, a one-character CSI, a bidirectional override, a
//! line break inside a value) and everything printed is searched for them. The callback's
//! paths are in `cli_authorize.rs`.

use std::process::{Command, Output};

/// Clears the screen, then writes "hi" to the clipboard (OSC 52, ended by BEL).
const ATTACK: &str = "\u{1b}[2J\u{1b}]52;c;aGk=\u{7}";
/// [`ATTACK`] percent-encoded, as it travels in a URL or a form.
const ATTACK_ENCODED: &str = "%1B%5B2J%1B%5D52%3Bc%3BaGk%3D%07";

/// The characters a terminal acts on, but the line breaks and tabs the command writes itself.
fn acted_on(text: &str) -> Vec<char> {
    text.chars()
        .filter(|&c| {
            (c.is_control() && c != '\n' && c != '\t')
                || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        })
        .collect()
}

fn all(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn oauth1(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oauth1"))
        .args(args)
        .env("OAUTH1_CONSUMER_SECRET", "cs")
        .env("OAUTH1_TOKEN_SECRET", "ts")
        .output()
        .unwrap()
}

/// Asserts that `output` shows nothing a terminal acts on, and shows the attack escaped.
fn assert_escaped(what: &str, output: &Output) {
    let text = all(output);
    assert_eq!(acted_on(&text), Vec::<char>::new(), "{what}: {text:?}");
    assert!(
        text.contains(r"\x1b[2J\x1b]52;c;aGk=\x07"),
        "{what}: {text}"
    );
}

/// A HAR entry whose method and URL carry escape sequences: its label.
#[test]
fn a_har_entrys_label_is_escaped() {
    let dir = std::env::temp_dir().join(format!("oauth1-terminal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let har = serde_json::json!({"log": {"entries": [{"request": {
        "method": format!("GET{ATTACK}"),
        "url": format!("https://example.com/{ATTACK}\n== entry 2: forged"),
        "headers": [{"name": "Authorization", "value": "OAuth oauth_consumer_key=\"ck\", oauth_signature_method=\"HMAC-SHA1\", oauth_timestamp=\"1\", oauth_nonce=\"n\", oauth_signature=\"x\""}],
    }}]}});
    let path = dir.join("attack.har");
    std::fs::write(&path, har.to_string()).unwrap();
    for command in ["explain", "verify"] {
        let output = oauth1(&[command, "--har", path.to_str().unwrap()]);
        assert_escaped(&format!("{command} --har"), &output);
        // The line break in the URL is shown as an escape: no line is forged.
        assert!(
            !all(&output).lines().any(|l| l.starts_with("== entry 2")),
            "{}",
            all(&output)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Decoded names and values of a signed request (`sign --verbose`), a received request's
/// consumer key and token (`verify`), a pasted base string (`explain`).
#[test]
fn decoded_parameters_and_pasted_text_are_escaped() {
    let url = format!("https://example.com/p?{ATTACK_ENCODED}={ATTACK_ENCODED}");
    let request = [
        "--url",
        &url,
        "--consumer-key",
        "ck",
        "--nonce",
        "n",
        "--timestamp",
        "1700000000",
    ];
    let output = oauth1(&[&["sign", "--verbose"][..], &request].concat());
    assert!(output.status.success(), "{output:?}");
    assert_escaped("sign --verbose", &output);

    let observed = format!("GET&{ATTACK}");
    let output = oauth1(
        &[
            &["explain", "--verbose", "--observed-base-string", &observed][..],
            &request,
        ]
        .concat(),
    );
    assert_escaped("explain --observed-base-string", &output);

    // A request signed with a consumer key and token that decode to escape sequences.
    let signed = oauth1_signer::Signer::new(oauth1_signer::Consumer::new(ATTACK, "cs"))
        .with_token(oauth1_signer::Token::new(format!("t{ATTACK}"), "ts"))
        .sign(
            &oauth1_signer::Request::new("GET", "https://example.com/p").unwrap(),
            &oauth1_signer::Nonce::new("n").unwrap(),
            oauth1_signer::Timestamp::new(1_700_000_000),
        )
        .unwrap();
    let header = signed.authorization();
    let verify = [
        "verify",
        "--url",
        "https://example.com/p",
        "--authorization",
        &header,
        "--now",
        "1700000000",
    ];
    let output = oauth1(&verify);
    assert!(output.status.success(), "{output:?}");
    assert_escaped("verify", &output);
}

/// A server's answer to `oauth1 send`: its problem report on standard error, always escaped;
/// its body on standard output, as it came when piped, escaped on a terminal.
#[test]
fn a_servers_answer_is_escaped_on_a_terminal() {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let body = format!(
        "oauth_problem={ATTACK_ENCODED}&oauth_problem_advice=%C2%9B31m%E2%80%AEred%0Aadvice:%20forged&raw={ATTACK}"
    );
    let answer = format!(
        "HTTP/1.1 401 Unauthorized\r\nContent-Length: {}\r\nX-Note: a\u{c2}\u{9b}b\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten().take(2) {
            let mut buf = [0u8; 4096];
            let _ = stream.read(&mut buf);
            let _ = stream.write_all(answer.as_bytes());
        }
    });
    let url = format!("http://127.0.0.1:{port}/p");

    // Piped: the body as it came on standard output; the problem report escaped.
    let output = oauth1(&["send", &url, "--consumer-key", "ck"]);
    assert!(!output.status.success());
    assert_eq!(String::from_utf8_lossy(&output.stdout), body);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(acted_on(&stderr), Vec::<char>::new(), "{stderr:?}");
    assert!(
        stderr.contains("problem:    \\x1b[2J\\x1b]52;c;aGk=\\x07\nadvice:     \\x9b31m\\u{202e}red\\x0aadvice: forged\n"),
        "{stderr}"
    );

    // On a terminal (a pseudo-terminal of `script`): the head and the body escaped too.
    let command = format!(
        "OAUTH1_CONSUMER_SECRET=cs {} send -i {url} --consumer-key ck",
        env!("CARGO_BIN_EXE_oauth1")
    );
    let output = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .expect("script (util-linux) runs a command on a pseudo-terminal");
    let shown = String::from_utf8_lossy(&output.stdout);
    // The terminal's own line ends are CR LF.
    assert_eq!(
        acted_on(&shown.replace("\r\n", "\n")),
        Vec::<char>::new(),
        "{shown:?}"
    );
    assert!(shown.contains(r"&raw=\x1b[2J\x1b]52;c;aGk=\x07"), "{shown}");
}
