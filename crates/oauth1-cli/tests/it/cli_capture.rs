//! `oauth1 explain` and `oauth1 verify` reading captured requests: copied curl commands and
//! raw HTTP requests. The oracle is the JSON Lines interface given the same request field by
//! field; the captures are written here from the formats' documentation (Chrome's and
//! Firefox's "Copy as cURL", curl's own flags, RFC 9112 for the raw request).

use std::fmt::Write as _;
use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

pub(crate) fn fixtures() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// Runs `oauth1` with `args`, the secrets in the environment and `stdin`; (exit ok, stdout,
/// stderr).
pub(crate) fn run(
    args: &[&str],
    secrets: (Option<&str>, Option<&str>),
    stdin: &str,
) -> (bool, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_oauth1"));
    command
        .args(args)
        .env_remove("OAUTH1_CONSUMER_SECRET")
        .env_remove("OAUTH1_TOKEN_SECRET")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(secret) = secrets.0 {
        command.env("OAUTH1_CONSUMER_SECRET", secret);
    }
    if let Some(secret) = secrets.1 {
        command.env("OAUTH1_TOKEN_SECRET", secret);
    }
    let mut child = command.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// `text` in single quotes, for a POSIX shell.
fn single_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// `text` as Chrome's "Copy as cURL (bash)" quotes what a single quote cannot hold: `$'…'`,
/// with `\\`, `\'`, control characters as `\xHH` and the rest of non-ASCII as `\uHHHH`.
fn ansi_c_quoted(text: &str) -> String {
    let mut out = String::from("$'");
    for c in text.chars() {
        match c {
            '\\' => out.push_str(r"\\"),
            '\'' => out.push_str(r"\'"),
            '\n' => out.push_str(r"\n"),
            '\r' => out.push_str(r"\r"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                write!(out, r"\x{:02x}", c as u32).unwrap();
            }
            c if c.is_ascii() => out.push(c),
            c => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    write!(out, r"\u{unit:04x}").unwrap();
                }
            }
        }
    }
    out.push('\'');
    out
}

/// The curl command a browser would copy for an explain line's request, quoted one way or the
/// other.
fn curl_of(line: &Value, signature: &str, chrome: bool) -> String {
    let text = |name: &str| line.get(name).and_then(Value::as_str);
    let quote = |s: &str| {
        if chrome && (s.contains('\'') || !s.is_ascii() || s.contains('\n')) {
            ansi_c_quoted(s)
        } else {
            single_quoted(s)
        }
    };
    let method = text("method").unwrap();
    let body = text("body").filter(|b| !b.is_empty());
    let mut words = vec![format!("curl {}", quote(text("url").unwrap()))];
    let default = if body.is_some() { "POST" } else { "GET" };
    if method != default {
        words.push(format!("-X {}", quote(method)));
    }
    words.push(format!(
        "-H {}",
        quote(&format!(
            "authorization: {}",
            crate::common::header_of(line, signature)
        ))
    ));
    words.push("-H 'accept: */*'".to_owned());
    if let Some(body) = body {
        // Without a Content-Type curl says form; a body that is not one says so.
        let content_type = text("content_type").unwrap_or("application/octet-stream");
        words.push(format!(
            "-H {}",
            quote(&format!("content-type: {content_type}"))
        ));
        words.push(format!("--data-raw {}", quote(body)));
    } else if let Some(content_type) = text("content_type") {
        words.push(format!(
            "-H {}",
            quote(&format!("content-type: {content_type}"))
        ));
    }
    words.push("--compressed".to_owned());
    words.join(" \\\n  ")
}

/// The answer's verdict, causes, alternatives and reference base string.
fn essentials(answer: &Value) -> (Value, Value, Value, Value) {
    (
        answer["verdict"].clone(),
        answer["causes"].clone(),
        answer["alternatives"].clone(),
        answer["reference_base_string"].clone(),
    )
}

/// What the web page's engine (`oauth1-web`, the same code compiled to WebAssembly) answers
/// for a paste and the typed secrets, its causes as ids like `--json`'s.
fn web(capture: &str, secrets: (Option<&str>, Option<&str>)) -> Value {
    web_with(&serde_json::json!({
        "capture": capture,
        "consumer_secret": secrets.0.unwrap_or(""),
        "token_secret": secrets.1.unwrap_or(""),
    }))
}

pub(crate) fn web_with(input: &Value) -> Value {
    let mut answer: Value = serde_json::from_str(&oauth1_web::explain(&input.to_string())).unwrap();
    for field in ["causes", "alternatives"] {
        let ids: Vec<Value> = answer[field]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].clone())
            .collect();
        answer[field] = Value::Array(ids);
    }
    answer
}

/// Every explain fixture whose client's signature is known, as a copied curl command: the
/// same answer as the request given field by field, for every cause.
#[test]
fn a_copied_curl_command_is_explained_as_its_fields_are() {
    let lines: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(fixtures().join("explain.json")).unwrap())
            .unwrap();
    let mut causes_seen = std::collections::BTreeSet::new();
    let mut checked = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(signature) = line["observed"]["signature"].as_str() else {
            continue;
        };
        // The oracle: the same request, field by field, with only the signature observed.
        let mut fields = line.clone();
        fields["observed"] = serde_json::json!({ "signature": signature });
        let (ok, out, err) = run(
            &["explain", "--jsonl"],
            (None, None),
            &format!("{fields}\n"),
        );
        assert!(ok, "{err}");
        let oracle: Value = serde_json::from_str(out.trim()).unwrap();

        let command = curl_of(line, signature, i % 2 == 0);
        let secrets = (
            line["consumer_secret"].as_str(),
            line["token_secret"].as_str(),
        );
        let (ok, out, err) = run(&["explain", "--json", "--curl", &command], secrets, "");
        // Success only for a match (the exit status is diff's).
        assert_eq!(
            ok,
            oracle["verdict"] == "match",
            "{}: {err}\n{command}",
            line["name"]
        );
        let answer: Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(
            essentials(&answer),
            essentials(&oracle),
            "{}:\n{command}",
            line["name"]
        );
        // The web page's engine, given the same paste and secrets, answers alike.
        assert_eq!(
            essentials(&web(&command, secrets)),
            essentials(&answer),
            "the web page, {}:\n{command}",
            line["name"]
        );
        if let Some(causes) = oracle["causes"].as_array() {
            causes_seen.extend(causes.iter().map(|c| c.as_str().unwrap().to_owned()));
        }
        checked += 1;
    }
    assert_eq!(checked, 143);
    // Every cause of the vocabulary is named for at least one capture.
    assert_eq!(
        causes_seen.len(),
        oauth1_signer::explain::Cause::ALL.len(),
        "{causes_seen:?}"
    );
}

const X_CONSUMER_SECRET: &str = "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw";
const X_TOKEN_SECRET: &str = "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE";

/// The X API's published example, captured four ways: Chrome's copy as cURL, Firefox's
/// (POSIX, `$'…'`, `-X`), Postman's snippet (`--location`, `--header`, `--data-urlencode`) and
/// mitmproxy's raw request. Each is the published request, so each explains as a match and
/// verifies at its timestamp.
#[test]
fn the_published_x_request_captured_four_ways_matches() {
    let dir = fixtures().join("captures");
    let secrets = (Some(X_CONSUMER_SECRET), Some(X_TOKEN_SECRET));
    for (flag, file) in [
        ("--curl", "chrome-x-api.curl"),
        ("--curl", "firefox-x-api.curl"),
        ("--curl", "postman-x-api.curl"),
        ("--http", "mitmproxy-x-api.http"),
    ] {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let (value, stdin) = if flag == "--curl" {
            (text.clone(), String::new())
        } else {
            (path.display().to_string(), String::new())
        };
        let (ok, out, err) = run(&["explain", "--json", flag, &value], secrets, &stdin);
        assert!(ok, "{file}: {err}");
        let answer: Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(answer["verdict"], "match", "{file}: {answer}");
        assert_eq!(
            essentials(&web(&text, secrets)),
            essentials(&answer),
            "{file}"
        );
        // From standard input too.
        let (ok, out, err) = run(&["explain", "--json", flag, "-"], secrets, &text);
        assert!(ok, "{file} on standard input: {err}");
        assert!(out.contains("\"verdict\":\"match\""), "{out}");
        // And the server's view: valid at its timestamp.
        let (ok, out, err) = run(
            &["verify", "--now", "1318622958", flag, &value],
            secrets,
            "",
        );
        assert!(ok && out.starts_with("valid\n"), "{file}: {out}{err}");
    }
}

/// A pasted command's `@FILE` data is never read: not a file of secrets (nothing of it is
/// printed), not a FIFO nobody writes to (the command does not wait on it); the body is given
/// with `--body-file` instead, and then the request is explained and verified as sent.
#[test]
fn a_pasted_commands_files_are_not_read_and_body_file_gives_the_body() {
    let secrets = (Some(X_CONSUMER_SECRET), Some(X_TOKEN_SECRET));
    let dir = std::env::temp_dir().join(format!("oauth1-curl-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let secret = dir.join("id_rsa");
    std::fs::write(&secret, "SECRET-CONTENT-OF-A-KEY").unwrap();
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let chrome =
        std::fs::read_to_string(fixtures().join("captures").join("chrome-x-api.curl")).unwrap();
    let (before, data) = chrome.split_once("--data-raw ").unwrap();
    let body = data.trim().trim_matches('\'');
    for path in [&secret, &fifo] {
        let command = format!("{before}-d @{}", path.display());
        let mut child = Command::new(env!("CARGO_BIN_EXE_oauth1"))
            .args(["explain", "--curl", &command])
            .env("OAUTH1_CONSUMER_SECRET", X_CONSUMER_SECRET)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > std::time::Duration::from_secs(20) {
                child.kill().unwrap();
                panic!("explain --curl waits on {}", path.display());
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let output = child.wait_with_output().unwrap();
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(
            stderr,
            format!(
                "error: --curl: the curl command reads its data from a file (-d \"@{}\"), and a pasted command's files are not read: give the body itself with --body-file FILE\n",
                path.display()
            )
        );
        assert!(!String::from_utf8_lossy(&output.stdout).contains("SECRET"));
    }

    // The body beside the command: explained and verified as the published request.
    let file = dir.join("body.txt");
    std::fs::write(&file, body).unwrap();
    let command = format!("{before}-d @body-as-the-client-read-it.txt");
    let file = file.to_str().unwrap();
    let (ok, out, err) = run(
        &["explain", "--json", "--curl", &command, "--body-file", file],
        secrets,
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("\"verdict\":\"match\""), "{out}");
    let (ok, out, err) = run(
        &[
            "verify",
            "--now",
            "1318622958",
            "--curl",
            &command,
            "--body-file",
            file,
        ],
        secrets,
        "",
    );
    assert!(ok && out.starts_with("valid\n"), "{out}{err}");
    // -G sends the data in the URL: a body file cannot stand for it.
    let (ok, _, err) = run(
        &[
            "explain",
            "--curl",
            &format!("{command} -G"),
            "--body-file",
            file,
        ],
        secrets,
        "",
    );
    assert!(!ok);
    assert_eq!(
        err,
        "error: --curl: the command has -G, which sends its data in the URL, not as a body: write the data into the command\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Captures that cannot be read, each with the message that says what is wrong.
#[test]
fn bad_captures_are_clear_errors() {
    let secrets = (Some(X_CONSUMER_SECRET), Some(X_TOKEN_SECRET));
    let header = r#"-H 'Authorization: OAuth oauth_consumer_key="k", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1", oauth_nonce="n", oauth_signature="s"'"#;
    for (command, message) in [
        (
            "curl 'https://api.example.com/x".to_owned(),
            "--curl: the ' quote at byte 5 is not closed: add the closing '",
        ),
        (
            r#"curl https://api.example.com/x -H "Accept: */*"#.to_owned(),
            "--curl: the \" quote at byte 34 is not closed: add the closing \"",
        ),
        (
            "curl $'https://api.example.com/x".to_owned(),
            "--curl: the $'…' quote at byte 5 is not closed: add the closing '",
        ),
        (
            "wget https://api.example.com/x".to_owned(),
            "--curl: the command is not a curl command: it starts with \"wget\"",
        ),
        (
            format!("curl api.example.com/x {header}"),
            "--curl: the URL \"api.example.com/x\" has no scheme: write it as curl sent it, https://… or http://…",
        ),
        (
            format!("curl {header}"),
            "--curl: the command has no URL",
        ),
        (
            "curl https://api.example.com/x -H".to_owned(),
            "--curl: the curl flag -H has no value",
        ),
        (
            format!("curl https://api.example.com/x {header} -F 'a=1'"),
            "--curl: the curl flag -F is not read here and may change the request: remove it if it does not",
        ),
        (
            format!("curl https://api.example.com/x {header} -u user:pass"),
            "--curl: the curl flag -u is not read here and may change the request: remove it if it does not",
        ),
        (
            "curl https://api.example.com/x?a=1 -H 'Accept: */*'".to_owned(),
            "--curl: the request carries no OAuth parameters: no \"Authorization: OAuth …\" header, and no oauth_ parameters in its query or form body",
        ),
        (
            "curl ^\"https://api.example.com/x^\" -H ^\"Accept: */*^\"".to_owned(),
            "--curl: this command is quoted for Windows cmd.exe (^\"): copy it as cURL (bash) or (POSIX) instead",
        ),
        (
            r#"curl https://api.example.com/x -H 'Authorization: OAuth oauth_consumer_key="k"'"#.to_owned(),
            "--curl: the Authorization header has no oauth_signature_method",
        ),
    ] {
        let (ok, out, err) = run(&["explain", "--curl", &command], secrets, "");
        assert!(!ok, "{command}: {out}");
        assert_eq!(err.trim_end(), format!("error: {message}"), "{command}");
    }

    let dir = std::env::temp_dir().join(format!("oauth1-captures-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (raw, message) in [
        (
            "POST /x HTTP/1.1\r\nContent-Length: 0\r\n\r\n",
            "--http: the HTTP request has no Host header: add it, or give the target in absolute form (GET https://host/path HTTP/1.1)",
        ),
        (
            "POST /x HTTP/1.1\r\nHost: a.example\r\nContent-Length: 10\r\n\r\nshort",
            "--http: the body has 5 bytes and Content-Length says 10: the capture is cut short",
        ),
        (
            "POST /x HTTP/1.1\nHost: a.example\nTransfer-Encoding: chunked\n\n5\r\nhello\r\n0\r\n\r\n",
            "--http: the body is chunked (Transfer-Encoding: chunked): save the request with its body decoded",
        ),
        (
            "POST /x HTTP/1.1\r\nHost: a.example\r\n",
            "--http: the HTTP request ends inside its head: it needs a blank line after the headers",
        ),
        (
            "hello world\r\n\r\n",
            "--http: the HTTP request cannot be read: invalid token (expected a request line such as \"POST /path HTTP/1.1\", then headers)",
        ),
    ] {
        let path = dir.join("request.http");
        std::fs::write(&path, raw).unwrap();
        let (ok, out, err) = run(&["explain", "--http", path.to_str().unwrap()], secrets, "");
        assert!(!ok, "{raw:?}: {out}");
        assert_eq!(err.trim_end(), format!("error: {message}"), "{raw:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A raw request with LF line ends and an absolute-form target, and protocol parameters in the
/// query: the scheme comes from the target, the parameters from the query.
/// RFC 5849 section 3.1's example request, its parameters moved to the query as section 3.5.3
/// allows; its signature is the RFC's.
const RFC_IN_QUERY: &str = "http://photos.example.net/photos?file=vacation.jpg&size=original&oauth_consumer_key=dpf43f3p2l4k3l03&oauth_token=nnch734d00sl2jdk&oauth_signature_method=HMAC-SHA1&oauth_timestamp=1191242096&oauth_nonce=kllo9940pd9333jh&oauth_version=1.0&oauth_signature=tR3%2BTy81lMeYAr%2FFid0kMTYa%2FWM%3D";
/// Its base string, the RFC's.
const RFC_BASE_STRING: &str = "GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3Ddpf43f3p2l4k3l03%26oauth_nonce%3Dkllo9940pd9333jh%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1191242096%26oauth_token%3Dnnch734d00sl2jdk%26oauth_version%3D1.0%26size%3Doriginal";
/// Its consumer secret and token secret.
const RFC_SECRETS: (Option<&str>, Option<&str>) =
    (Some("kd94hf93k423kf44"), Some("pfkkdhi9sl3r4s00"));

#[test]
fn a_raw_request_with_its_parameters_in_the_query() {
    let raw = format!("GET {RFC_IN_QUERY} HTTP/1.1\nHost: photos.example.net\n\n");
    let raw = raw.as_str();
    let secrets = RFC_SECRETS;
    let (ok, out, err) = run(&["explain", "--json", "--http", "-"], secrets, raw);
    assert!(ok, "{err}");
    let answer: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(answer["verdict"], "match", "{answer}");
    assert_eq!(answer["reference_base_string"], RFC_BASE_STRING);
    let (ok, out, err) = run(
        &["verify", "--now", "1191242100", "--http", "-"],
        secrets,
        raw,
    );
    assert!(ok && out.starts_with("valid\n"), "{out}{err}");
}

/// A request given with `--url` (and `--body`) as the client sent it, its protocol parameters
/// in the query (as WooCommerce's clients send them over http) or the form body: read as a
/// capture's, with the RFC's and the X API's published signatures.
#[test]
fn a_url_or_form_body_that_carries_its_protocol_parameters_is_read_as_sent() {
    let rfc = RFC_IN_QUERY;
    let secrets = RFC_SECRETS;
    let (ok, out, err) = run(&["explain", "--json", "--url", rfc], secrets, "");
    assert!(ok, "{err}");
    let answer: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(answer["verdict"], "match", "{answer}");
    assert_eq!(answer["reference_base_string"], RFC_BASE_STRING);
    // The page reads the URL pasted alone the same way.
    let page = web(rfc, secrets);
    assert_eq!(page["kind"], "url", "{page}");
    assert_eq!(essentials(&page), essentials(&answer));
    let (ok, out, err) = run(&["sign", "--url", rfc], secrets, "");
    assert!(ok, "{err}");
    assert!(
        out.contains("\nsignature:     tR3+Ty81lMeYAr/Fid0kMTYa/WM=\n"),
        "{out}"
    );
    // The same request with a wrong token secret: explained as a mismatch, not refused.
    let (ok, out, _) = run(
        &["explain", "--json", "--url", rfc],
        (secrets.0, Some("other")),
        "",
    );
    assert!(!ok);
    assert!(out.contains("\"verdict\":\"unexplained\""), "{out}");

    // The X API's published request, its protocol parameters in the form body.
    let body = "status=Hello%20Ladies%20%2B%20Gentlemen%2C%20a%20signed%20OAuth%20request%21&oauth_consumer_key=xvz1evFS4wEEPTGEFPHBog&oauth_nonce=kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg&oauth_signature=hCtSmYh%2BiHYCEqBWrE7C7hYmtUk%3D&oauth_signature_method=HMAC-SHA1&oauth_timestamp=1318622958&oauth_token=370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb&oauth_version=1.0";
    let x = [
        "--method",
        "POST",
        "--url",
        "https://api.twitter.com/1.1/statuses/update.json?include_entities=true",
        "--content-type",
        "application/x-www-form-urlencoded",
        "--body",
        body,
    ];
    let secrets = (Some(X_CONSUMER_SECRET), Some(X_TOKEN_SECRET));
    let (ok, out, err) = run(&[&["explain", "--json"][..], &x].concat(), secrets, "");
    assert!(ok, "{err}");
    let answer: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(answer["verdict"], "match", "{answer}");
    let page = web_with(&serde_json::json!({
        "capture": x[3],
        "method": "POST",
        "content_type": x[5],
        "body": body,
        "consumer_secret": X_CONSUMER_SECRET,
        "token_secret": X_TOKEN_SECRET,
    }));
    assert_eq!(essentials(&page), essentials(&answer), "{page}");
    let (ok, out, err) = run(
        &[&["verify", "--now", "1318622958"][..], &x].concat(),
        secrets,
        "",
    );
    assert!(ok && out.starts_with("valid\n"), "{out}{err}");

    // Given twice, in the request and in the flags: said, not guessed.
    let (ok, _, err) = run(
        &["explain", "--url", rfc, "--nonce", "kllo9940pd9333jh"],
        secrets,
        "",
    );
    assert!(!ok);
    assert_eq!(
        err,
        "error: the request carries its protocol parameters (oauth_signature in its query or form body), and --nonce gives one too: give them in the request or in the flags, not both\n"
    );
    // Neither: no consumer key.
    let (ok, _, err) = run(&["sign", "--url", "https://example.com/p"], secrets, "");
    assert!(!ok);
    assert_eq!(
        err,
        "error: no consumer key: give --consumer-key, or the request as the client sent it (--authorization, --curl, --http, --har, or a --url whose query carries oauth_signature)\n"
    );
}

/// A form body sent with a body hash (as Mastercard's signers send it): `explain --verbose`
/// prints the reference's stages, RFC 5849's signing without the hash, and names the cause.
#[test]
fn a_form_body_sent_with_a_body_hash_is_explained_with_its_stages() {
    let lines: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(fixtures().join("explain.json")).unwrap())
            .unwrap();
    let mut checked = 0;
    for line in lines
        .iter()
        .filter(|l| l["name"].as_str().unwrap().starts_with("form-body-hashed"))
    {
        let Some(signature) = line["observed"]["signature"].as_str() else {
            continue;
        };
        let text = |name: &str| line[name].as_str().unwrap();
        let header = crate::common::header_of(line, signature);
        let (ok, out, err) = run(
            &[
                "explain",
                "--verbose",
                "--method",
                text("method"),
                "--url",
                text("url"),
                "--content-type",
                text("content_type"),
                "--body",
                text("body"),
                "--authorization",
                &header,
            ],
            (Some(text("consumer_secret")), Some(text("token_secret"))),
            "",
        );
        assert!(!ok, "a mismatch: {out}{err}");
        assert_eq!(err, "", "{}", line["name"]);
        assert!(out.starts_with("parameters (source"), "{out}");
        assert!(
            out.contains("\ncause:      form-body-hashed: the other side sent oauth_body_hash with a form body"),
            "{out}"
        );
        checked += 1;
    }
    assert_eq!(checked, 2);
}

/// Chrome's and Firefox's HAR exports of a page (`fixtures/captures_har.py`): every entry with
/// OAuth is explained in turn, each as its explain fixture is given field by field, and the
/// others are passed over.
#[test]
fn a_har_file_is_explained_entry_by_entry() {
    let lines: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(fixtures().join("explain.json")).unwrap())
            .unwrap();
    let oracle = |name: &str| {
        let mut line = lines.iter().find(|l| l["name"] == name).unwrap().clone();
        let signature = line["observed"]["signature"].clone();
        line["observed"] = serde_json::json!({ "signature": signature });
        let (ok, out, err) = run(&["explain", "--jsonl"], (None, None), &format!("{line}\n"));
        assert!(ok, "{err}");
        serde_json::from_str::<Value>(out.trim()).unwrap()
    };
    let secrets = (Some("kd94hf93k423kf44"), Some("pfkkdhi9sl3r4s00"));
    for file in ["chrome.har", "firefox.har"] {
        let path = fixtures().join("captures").join(file);
        let (ok, out, err) = run(
            &["explain", "--json", "--har", path.to_str().unwrap()],
            secrets,
            "",
        );
        // Mismatches among the entries: exit status 1, with every entry answered.
        assert!(!ok && err.is_empty(), "{file}: {err}");
        let answers: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let names: Vec<&str> = answers
            .iter()
            .map(|a| a["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "entry 2: POST https://api.example.com/statuses",
                "entry 3: GET https://api.example.com/s?q=caf%C3%A9",
                "entry 4: POST https://api.example.com/x?a=1",
                "entry 5: GET http://photos.example.net/photos?file=vacation.jpg&size=original&oauth_consumer_key=dpf43f3p2l4k3l03&oauth_token=nnch734d00sl2jdk&oauth_signature_method=HMAC-SHA1&oauth_timestamp=1191242096&oauth_nonce=kllo9940pd9333jh&oauth_version=1.0&oauth_signature=tR3%2BTy81lMeYAr%2FFid0kMTYa%2FWM%3D",
            ],
            "{file}"
        );
        for (answer, source) in
            answers
                .iter()
                .zip(["plus-for-space-2", "lowercase-hex-3", "query-not-signed-3"])
        {
            assert_eq!(
                essentials(answer),
                essentials(&oracle(source)),
                "{file} {source}"
            );
        }
        assert_eq!(answers[3]["verdict"], "match");
        // The web page, entry by entry.
        let har = std::fs::read_to_string(&path).unwrap();
        for (answer, entry) in answers.iter().zip([2, 3, 4, 5]) {
            let page = web_with(&serde_json::json!({
                "capture": har,
                "consumer_secret": secrets.0.unwrap(),
                "token_secret": secrets.1.unwrap(),
                "entry": entry,
            }));
            assert_eq!(
                essentials(&page),
                essentials(answer),
                "{file} entry {entry}"
            );
            assert_eq!(page["entries"].as_array().unwrap().len(), 4);
        }

        // One entry, and as the server sees it.
        let (ok, out, _) = run(
            &["explain", "--har", path.to_str().unwrap(), "--entry", "3"],
            secrets,
            "",
        );
        assert!(!ok && out.starts_with("== entry 3: GET https://api.example.com/s?q=caf%C3%A9\nverdict:    explained\ncause:      lowercase-hex:"), "{out}");
        // The one entry that matches exits 0.
        let (ok, out, _) = run(
            &["explain", "--har", path.to_str().unwrap(), "--entry", "5"],
            secrets,
            "",
        );
        assert!(ok && out.contains("verdict:    match"), "{out}");
        let (ok, out, err) = run(
            &[
                "verify",
                "--now",
                "1191242100",
                "--har",
                path.to_str().unwrap(),
                "--entry",
                "5",
            ],
            secrets,
            "",
        );
        assert!(ok && out.contains("\nvalid\n"), "{out}{err}");
    }
}

#[test]
fn bad_har_files_are_clear_errors() {
    let secrets = (Some("kd94hf93k423kf44"), Some("pfkkdhi9sl3r4s00"));
    let chrome = fixtures().join("captures").join("chrome.har");
    let dir = std::env::temp_dir().join(format!("oauth1-har-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let cases = [
        (
            vec!["--har".to_owned(), file("not.har", "{\"log\": [")],
            "--har: the HAR file is not JSON: EOF while parsing a list at line 1 column 9",
        ),
        (
            vec!["--har".to_owned(), file("empty.har", "{\"log\": {}}")],
            "--har: the HAR file has no log.entries: export it again with \"Save all as HAR\"",
        ),
        (
            vec![
                "--har".to_owned(),
                chrome.to_str().unwrap().to_owned(),
                "--entry".to_owned(),
                "9".to_owned(),
            ],
            "--har: the HAR file has 6 entries: there is no entry 9 (they are counted from 1)",
        ),
        (
            vec![
                "--har".to_owned(),
                chrome.to_str().unwrap().to_owned(),
                "--entry".to_owned(),
                "6".to_owned(),
            ],
            "--har: entry 6 of the HAR file carries no OAuth parameters: no \"Authorization: OAuth …\" header, and no oauth_signature in its query or form body",
        ),
        (
            vec![
                "--har".to_owned(),
                file(
                    "plain.har",
                    r#"{"log": {"entries": [{"request": {"method": "GET", "url": "https://a.example/", "headers": []}}]}}"#,
                ),
            ],
            "--har: none of the HAR file's 1 entries carries OAuth parameters (an \"Authorization: OAuth …\" header, or oauth_signature in the query or a form body)",
        ),
        (
            vec![
                "--har".to_owned(),
                file("bad-entry.har", r#"{"log": {"entries": [{"request": {"url": 1}}]}}"#),
            ],
            "--har: entry 1 of the HAR file is not a request: invalid type: integer `1`, expected a string",
        ),
    ];
    for (args, message) in cases {
        let mut all = vec!["explain"];
        all.extend(args.iter().map(String::as_str));
        let (ok, out, err) = run(&all, secrets, "");
        assert!(!ok, "{args:?}: {out}");
        assert_eq!(err.trim_end(), format!("error: {message}"), "{args:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `oauth1 verify` diagnoses a bad signature: the explain fixture `plus-for-space-2`'s
/// request as its client sent it.
#[test]
fn verify_says_why_a_signature_is_bad() {
    let lines: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(fixtures().join("explain.json")).unwrap())
            .unwrap();
    let line = lines
        .iter()
        .find(|l| l["name"] == "plus-for-space-2")
        .unwrap();
    let command = curl_of(line, line["observed"]["signature"].as_str().unwrap(), false);
    let (ok, out, _) = run(
        &["verify", "--now", "1191242096", "--curl", &command],
        (Some("kd94hf93k423kf44"), Some("pfkkdhi9sl3r4s00")),
        "",
    );
    assert!(!ok);
    assert!(out.starts_with("invalid: bad-signature\n"), "{out}");
    assert!(
        out.contains("Diagnosis: the client's signature matches this request signed with plus-for-space: it encoded a space as \"+\" instead of \"%20\""),
        "{out}"
    );
}

/// A JSON body with non-ASCII text and an apostrophe, in `$'…'` quoting with `\u` escapes as
/// Chrome and Firefox copy it, signed by oauthlib with its body hash
/// (`fixtures/captures_oauthlib.py`): the body must come out byte for byte, or neither the
/// body hash nor the signature would match.
#[test]
fn unicode_bodies_in_ansi_c_quotes_read_byte_for_byte() {
    let secrets = (Some("cs-unicode"), Some("ts-unicode"));
    for file in ["chrome-unicode.curl", "firefox-unicode.curl"] {
        let text = std::fs::read_to_string(fixtures().join("captures").join(file)).unwrap();
        let (ok, out, err) = run(&["explain", "--json", "--curl", "-"], secrets, &text);
        assert!(ok, "{file}: {err}");
        assert!(out.contains("\"verdict\":\"match\""), "{file}: {out}");
        let answer: Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(
            essentials(&web(&text, secrets)),
            essentials(&answer),
            "{file}"
        );
        let (ok, out, err) = run(
            &["verify", "--now", "1700000000", "--curl", "-"],
            secrets,
            &text,
        );
        assert!(ok && out.starts_with("valid\n"), "{file}: {out}{err}");
    }
}

/// `oauth1 verify`'s report rebuilt from the web page's verify answer, line for line.
fn verify_report(answer: &Value) -> String {
    let text = |name: &str| answer[name].as_str().unwrap().to_owned();
    let mut out = String::new();
    match answer["verdict"].as_str().unwrap() {
        "valid" => {
            writeln!(out, "valid\nconsumer key:  {}", text("consumer_key")).unwrap();
            if !text("token").is_empty() {
                writeln!(out, "token:         {}", text("token")).unwrap();
            }
            writeln!(out, "method:        {}", text("signature_method")).unwrap();
            writeln!(out, "parameters:    {}", text("parameters")).unwrap();
        }
        "invalid" => {
            writeln!(out, "invalid: {}", text("reason")).unwrap();
            writeln!(out, "detail:        {}", text("detail")).unwrap();
            if !text("base_string").is_empty() {
                writeln!(out, "base string:   {}", text("base_string")).unwrap();
            }
            // The advice is the detail, said once.
            let answer = text("answer");
            let answer = match answer.find("&oauth_problem_advice=") {
                Some(at) => format!(
                    "{}&oauth_problem_advice=… (the detail, encoded)",
                    &answer[..at]
                ),
                None => answer.clone(),
            };
            writeln!(out, "answer:        {answer}").unwrap();
            assert_eq!(text("advice"), text("detail"));
        }
        other => panic!("{other}: {answer}"),
    }
    out
}

/// The web page's Verify tab and `oauth1 verify` on the same captures: valid at their
/// timestamps, stale a day later, a bad signature with a wrong token secret; each reported
/// alike, line for line.
#[test]
fn the_web_page_verifies_as_the_command_line_does() {
    let dir = fixtures().join("captures");
    let x = (X_CONSUMER_SECRET, X_TOKEN_SECRET, 1_318_622_958_u64);
    let unicode = ("cs-unicode", "ts-unicode", 1_700_000_000_u64);
    let mut verdicts = Vec::new();
    for (file, flag, (consumer, token, at)) in [
        ("chrome-x-api.curl", "--curl", x),
        ("firefox-x-api.curl", "--curl", x),
        ("postman-x-api.curl", "--curl", x),
        ("mitmproxy-x-api.http", "--http", x),
        ("chrome-unicode.curl", "--curl", unicode),
        ("firefox-unicode.curl", "--curl", unicode),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        for (now, token) in [(at, token), (at + 86_400, token), (at, "wrong")] {
            let (_, out, err) = run(
                &["verify", "--now", &now.to_string(), flag, "-"],
                (Some(consumer), Some(token)),
                &text,
            );
            let answer: Value = serde_json::from_str(&oauth1_web::verify(
                &serde_json::json!({
                    "capture": text,
                    "consumer_secret": consumer,
                    "token_secret": token,
                    "now": now,
                })
                .to_string(),
            ))
            .unwrap();
            assert_eq!(verify_report(&answer), out, "{file} at {now}: {err}");
            verdicts.push(answer["reason"].as_str().unwrap().to_owned());
        }
    }
    // Every capture was valid, stale and badly signed in turn.
    assert_eq!(
        verdicts.concat(),
        ["", "stale-timestamp", "bad-signature"].concat().repeat(6)
    );
}

/// A capture whose `Host` header names another host than its URL, signed for the host it was
/// sent to: explain says which URL the client signed.
#[test]
fn a_capture_signed_for_its_host_header_says_so() {
    use oauth1_signer::{Consumer, Nonce, Request, Signer, Timestamp, Token};

    let signed_for = "https://api.example.com/photos?size=original";
    let header = Signer::new(Consumer::new("dpf43f3p2l4k3l03", "kd94hf93k423kf44"))
        .with_token(Token::new("nnch734d00sl2jdk", "pfkkdhi9sl3r4s00"))
        .sign(
            &Request::new("GET", signed_for).unwrap(),
            &Nonce::new("kllo9940pd9333jh").unwrap(),
            Timestamp::new(1_191_242_096),
        )
        .unwrap()
        .authorization();
    let curl = format!(
        "curl 'https://127.0.0.1:8443/photos?size=original' -H 'Host: api.example.com' -H {}",
        single_quoted(&format!("Authorization: {header}"))
    );
    let secrets = (Some("kd94hf93k423kf44"), Some("pfkkdhi9sl3r4s00"));
    let (_, out, err) = run(&["explain", "--curl", &curl], secrets, "");
    assert!(out.starts_with("verdict:    unexplained\n"), "{out}{err}");
    assert!(
        out.contains("\nsigned for: https://api.example.com/photos?size=original (the request's Host header), not https://127.0.0.1:8443/photos?size=original: "),
        "{out}"
    );
    // Signed for its URL, as the Host says nothing else: a match, nothing more.
    let (matched, out, _) = run(
        &[
            "explain",
            "--curl",
            &curl.replace("127.0.0.1:8443", "api.example.com"),
        ],
        secrets,
        "",
    );
    assert!(
        out.starts_with("verdict:    match\n") && !out.contains("signed for:"),
        "{out}"
    );
    assert!(matched);
    // A header given without its signature, the signature given apart: explained, not refused
    // as a request a verifier received.
    let unsigned = header
        .split(", ")
        .filter(|part| !part.starts_with("oauth_signature="))
        .collect::<Vec<_>>()
        .join(", ");
    let (_, out, err) = run(
        &[
            "explain",
            "--url",
            signed_for,
            "--authorization",
            &unsigned,
            "--observed-signature",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAA=",
        ],
        secrets,
        "",
    );
    assert!(out.starts_with("verdict:    unexplained\n"), "{out}{err}");
}
