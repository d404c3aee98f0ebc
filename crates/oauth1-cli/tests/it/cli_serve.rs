//! `oauth1 serve` as its users meet it: the process started with flags, a client through the
//! three-legged flow over HTTP, the refusals it must make and how it explains them, its log,
//! its stop on SIGINT; and the mistakes in starting it (no consumer, a port in use).

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use oauth1_signer::flow::{Callback, TemporaryCredentials, TokenCredentials};
use oauth1_signer::{Consumer, Request, Signer, Token};

const CONSUMER: (&str, &str) = ("serve-consumer", "serve secret & ünïcode");

/// A running `oauth1 serve`, stopped with SIGINT when dropped.
struct Serve {
    child: Child,
    origin: String,
    lines: BufReader<std::process::ChildStdout>,
}

impl Serve {
    fn start(args: &[&str]) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_oauth1"))
            .args(["serve", "--port", "0", "--consumer-key", CONSUMER.0])
            .args(args)
            .env("OAUTH1_CONSUMER_SECRET", CONSUMER.1)
            .env_remove("OAUTH1_TOKEN_SECRET")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        lines.read_line(&mut first).unwrap();
        let origin = first
            .trim_end()
            .strip_prefix("oauth1 serve: listening on ")
            .unwrap_or_else(|| panic!("the first line: {first:?}"))
            .to_owned();
        Serve {
            child,
            origin,
            lines,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.origin)
    }

    /// The lines it prints after the first, up to `Ctrl-C stops it.`.
    fn banner(&mut self) -> Vec<String> {
        let mut banner = Vec::new();
        loop {
            let mut line = String::new();
            assert!(self.lines.read_line(&mut line).unwrap() > 0, "{banner:?}");
            let line = line.trim_end().to_owned();
            let last = line == "Ctrl-C stops it.";
            banner.push(line);
            if last {
                return banner;
            }
        }
    }

    /// SIGINT, as Ctrl-C sends; the exit status and the rest of standard output.
    fn stop(mut self) -> (std::process::ExitStatus, String) {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap()
            .success());
        let deadline = Instant::now() + Duration::from_secs(10);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(Instant::now() < deadline, "serve did not stop on SIGINT");
            std::thread::sleep(Duration::from_millis(20));
        };
        let mut rest = String::new();
        self.lines.read_to_string(&mut rest).unwrap();
        (status, rest)
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn client() -> reqwest::blocking::Client {
    reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

fn consumer() -> Signer {
    Signer::new(Consumer::new(CONSUMER.0, CONSUMER.1))
}

/// Sends `request` signed by `signer`, with `accept`.
fn send(
    signer: &Signer,
    request: &Request<'_>,
    accept: &str,
) -> (u16, String, reqwest::header::HeaderMap) {
    let header = signer.sign_now(request).unwrap().authorization();
    send_with(request, &header, accept)
}

fn send_with(
    request: &Request<'_>,
    header: &str,
    accept: &str,
) -> (u16, String, reqwest::header::HeaderMap) {
    let method = reqwest::Method::from_bytes(request.method().as_bytes()).unwrap();
    let mut sent = client()
        .request(method, request.url().as_str())
        .header("authorization", header)
        .header("accept", accept);
    if !request.body().is_empty() {
        sent = sent
            .header("content-type", request.content_type())
            .body(request.body().to_vec());
    }
    let response = sent.send().unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (status, response.text().unwrap(), headers)
}

/// Temporary credentials for `callback`: the endpoint's 200 answer.
fn request_token(serve: &Serve, callback: &str) -> String {
    let request = Request::new("POST", &serve.url("/oauth/request_token"))
        .unwrap()
        .with_callback(callback);
    let (status, body, _) = send(&consumer(), &request, "*/*");
    assert_eq!(status, 200, "{body}");
    body
}

/// The value of `name` in a form body.
fn form_field(body: &str, name: &str) -> Option<String> {
    url::form_urlencoded::parse(body.as_bytes())
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.into_owned())
}

#[test]
fn the_three_legged_flow_then_a_resource_and_the_refusals_on_the_way() {
    let log = std::env::temp_dir().join(format!("oauth1-serve-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let serve = Serve::start(&["--log", log.to_str().unwrap()]);

    // 1. Temporary credentials, for a callback with a query of its own.
    let callback = "http://127.0.0.1:9/cb?state=s%201";
    let body = request_token(&serve, callback);
    let temporary = TemporaryCredentials::parse(body.as_bytes()).unwrap();
    let token = temporary.token().key().to_owned();

    // A resource request signed with them is refused for what it is.
    let resource = Request::new("GET", &serve.url("/photos?size=original")).unwrap();
    let (status, body, _) = send(
        &consumer().with_token(temporary.token().clone()),
        &resource,
        "*/*",
    );
    assert_eq!(
        (status, form_field(&body, "oauth_problem").as_deref()),
        (401, Some("token_rejected")),
        "{body}"
    );

    // 2. Approved at once: a redirect to the callback, its query kept.
    let approved = client()
        .get(serve.url(&format!("/oauth/authorize?oauth_token={token}")))
        .send()
        .unwrap();
    assert_eq!(approved.status().as_u16(), 302);
    let location = approved.headers()["location"].to_str().unwrap().to_owned();
    let prefix = format!("{callback}&oauth_token={token}&oauth_verifier=");
    assert!(location.starts_with(&prefix), "{location}");
    let verifier = Callback::parse(location.split_once('?').unwrap().1, &temporary).unwrap();

    // 3. Token credentials, once.
    let exchange = Request::new("POST", &serve.url("/oauth/access_token"))
        .unwrap()
        .with_verifier(verifier.verifier());
    let with_temporary = consumer().with_token(temporary.token().clone());
    let (status, body, _) = send(&with_temporary, &exchange, "*/*");
    assert_eq!(status, 200, "{body}");
    let access = TokenCredentials::parse(body.as_bytes())
        .unwrap()
        .into_token();
    // A second exchange: the temporary credentials are void, and the server says so.
    let (status, body, _) = send(&with_temporary, &exchange, "*/*");
    assert_eq!(
        (status, form_field(&body, "oauth_problem").as_deref()),
        (401, Some("token_rejected")),
        "a second exchange: {body}"
    );
    let advice = form_field(&body, "oauth_problem_advice").unwrap();
    assert!(
        advice.starts_with(&format!("this server knows no token \"{token}\" of the consumer \"serve-consumer\": temporary credentials are void once exchanged")),
        "{advice}"
    );

    // 4. A resource, with a form body: what was verified, as JSON.
    let signer = consumer().with_token(access.clone());
    let post = Request::new("POST", &serve.url("/photos?size=original"))
        .unwrap()
        .with_form_body(b"title=a%20b&tag=%E2%9C%93");
    let header = signer.sign_now(&post).unwrap().authorization();
    let (status, body, _) = send_with(&post, &header, "*/*");
    assert_eq!(status, 200, "{body}");
    let echoed: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(echoed["consumer_key"], CONSUMER.0);
    assert_eq!(echoed["token"], access.key());
    assert_eq!(echoed["resource_owner"], "test-user");
    assert_eq!(echoed["signature_method"], "HMAC-SHA1");
    assert_eq!(
        echoed["base_string_uri"],
        format!("{}/photos", serve.origin)
    );
    let parameters = echoed["parameters"].as_array().unwrap();
    for pair in [["size", "original"], ["tag", "✓"], ["title", "a b"]] {
        assert!(
            parameters.contains(&serde_json::json!(pair)),
            "{pair:?} in {parameters:?}"
        );
    }

    // The same request again: a replay.
    let (status, body, _) = send_with(&post, &header, "*/*");
    assert_eq!(
        (status, form_field(&body, "oauth_problem").as_deref()),
        (401, Some("nonce_used")),
        "{body}"
    );

    // 5. A wrong secret: signature_invalid, with the challenge; as JSON when asked.
    let wrong = Signer::new(Consumer::new(CONSUMER.0, "not the secret")).with_token(access);
    let (status, body, headers) = send(&wrong, &resource, "application/json");
    assert_eq!(status, 401);
    assert_eq!(
        headers["www-authenticate"],
        format!("OAuth realm=\"{}\"", serve.origin)
    );
    let refusal: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(refusal["oauth_problem"], "signature_invalid");
    assert_eq!(refusal["reason"], "bad-signature");
    assert_eq!(refusal["causes"], serde_json::json!([]));
    let advice = refusal["oauth_problem_advice"].as_str().unwrap();
    assert!(
        advice.contains("no known mistake reproduces the client's signature: check the secrets"),
        "{body}"
    );
    // The server's base string, which holds no secret, to compare with the client's.
    let base_string = refusal["base_string"].as_str().unwrap();
    assert!(
        base_string.starts_with(&format!(
            "GET&{}%2Fphotos&",
            serve.origin.replace(':', "%3A").replace('/', "%2F")
        )),
        "{body}"
    );
    assert!(
        advice.ends_with(&format!(" This server's base string: {base_string}")),
        "{advice}"
    );

    let (status, rest) = serve.stop();
    assert!(status.success(), "{status}");
    check_record(&rest, &log);
    // The verifier, which gets token credentials with the temporary ones, is the browser's
    // alone: neither on the terminal nor in the log.
    let logged = std::fs::read_to_string(&log).unwrap();
    for text in [&rest, &logged] {
        assert!(!text.contains(verifier.verifier()), "{text}");
    }
    let _ = std::fs::remove_file(&log);
}

/// One line a request on the terminal, and in the log, for the flow above.
fn check_record(rest: &str, log: &std::path::Path) {
    assert!(rest.ends_with("oauth1 serve: stopped\n"), "{rest}");
    // One line a request on the terminal, and in the log.
    let requests = rest.lines().filter(|l| l.contains(" /")).count();
    assert_eq!(requests, 8, "{rest}");
    let logged: Vec<serde_json::Value> = std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let statuses: Vec<u64> = logged
        .iter()
        .map(|l| l["status"].as_u64().unwrap())
        .collect();
    assert_eq!(statuses, [200, 401, 302, 200, 401, 200, 401, 401]);
    let verdicts: Vec<&str> = logged
        .iter()
        .map(|l| l["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(
        verdicts,
        [
            "issued",
            "token-rejected",
            "approved",
            "issued",
            "token-rejected",
            "accepted",
            "replayed-nonce",
            "bad-signature"
        ]
    );
    assert!(logged[7]["url"]
        .as_str()
        .unwrap()
        .ends_with("/photos?size=original"));
    assert!(logged
        .iter()
        .all(|l| l["time"].as_str().unwrap().ends_with('Z')));
}

/// A client that signs for another origin than the one it sends to is told which; one that
/// reaches the server by a loopback name is verified at that name.
#[test]
fn the_origin_a_client_signed_for_is_named() {
    let serve = Serve::start(&[]);
    let port = serve.origin.rsplit(':').next().unwrap().to_owned();
    let by_name = Request::new("GET", &format!("http://localhost:{port}/photos")).unwrap();
    let header = consumer().sign_now(&by_name).unwrap().authorization();
    let (status, body, _) = send_with(&by_name, &header, "*/*");
    assert_eq!(status, 200, "by its loopback name: {body}");

    // Signed for localhost, sent to 127.0.0.1.
    let header = consumer().sign_now(&by_name).unwrap().authorization();
    let sent = Request::new("GET", &serve.url("/photos")).unwrap();
    let (status, body, _) = send_with(&sent, &header, "application/json");
    assert_eq!(status, 401);
    let refusal: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        refusal["signed_for"],
        format!("http://localhost:{port}/photos"),
        "{body}"
    );
    let advice = refusal["oauth_problem_advice"].as_str().unwrap();
    assert!(advice.contains(&format!(
        "the client signed this request for http://localhost:{port}/photos"
    )));
    assert!(
        advice.contains(&format!(
            "To verify requests at that origin, start oauth1 serve with --origin http://localhost:{port}."
        )),
        "{advice}"
    );
}

/// Bad signatures sent while another is being diagnosed wait their turn and are diagnosed
/// too: a client's tests running in parallel each learn why.
#[test]
fn bad_signatures_sent_together_are_each_diagnosed() {
    let serve = Serve::start(&[]);
    let port = serve.origin.rsplit(':').next().unwrap().to_owned();
    // First a search that takes long: 64 parameters signed with a wrong secret, which nothing
    // reproduces, so that the diagnosis runs whole or to its time.
    let query: Vec<String> = (0..64).map(|i| format!("p{i}=a%20b%2Fc{i}")).collect();
    let large = Request::new("GET", &serve.url(&format!("/large?{}", query.join("&")))).unwrap();
    let wrong = Signer::new(Consumer::new(CONSUMER.0, "not the secret"));
    let slow = std::thread::spawn(move || send(&wrong, &large, "application/json").0);
    std::thread::sleep(Duration::from_millis(300));
    // Meanwhile, eight clients that signed for localhost and sent to 127.0.0.1.
    let clients: Vec<_> = (0..8)
        .map(|i| {
            let signed = format!("http://localhost:{port}/photos?n={i}");
            let sent = serve.url(&format!("/photos?n={i}"));
            std::thread::spawn(move || {
                let by_name = Request::new("GET", &signed).unwrap();
                let header = consumer().sign_now(&by_name).unwrap().authorization();
                let sent = Request::new("GET", &sent).unwrap();
                let (status, body, _) = send_with(&sent, &header, "application/json");
                (signed, status, body)
            })
        })
        .collect();
    for client in clients {
        let (signed, status, body) = client.join().unwrap();
        assert_eq!(status, 401, "{body}");
        let refusal: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(refusal["signed_for"], signed, "{body}");
    }
    assert_eq!(slow.join().unwrap(), 401);
}

/// A body that trickles is given up after its deadline, answered 408 with why, so that a
/// client that stops sending does not hold a connection slot for the exchange's whole time.
#[test]
fn a_body_that_does_not_arrive_is_answered_408() {
    use std::io::Write;
    let serve = Serve::start(&[]);
    let address = serve.origin.strip_prefix("http://").unwrap().to_owned();
    let mut stream = std::net::TcpStream::connect(&address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    stream
        .write_all(
            format!("POST /photos HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\na=b").as_bytes(),
        )
        .unwrap();
    let started = Instant::now();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer:?}");
    assert!(
        answer.contains("the body did not arrive within 10 s"),
        "{answer}"
    );
    assert!(started.elapsed() < Duration::from_secs(20));
}

/// A request whose Host names another server (a web page that rebound its own name to this
/// machine's address sends its own name) is refused with 421 before anything is read or said
/// of the consumers; the loopback names are this server.
#[test]
fn a_request_for_another_host_is_misdirected() {
    let serve = Serve::start(&[]);
    let port = serve.origin.rsplit(':').next().unwrap().to_owned();
    let request = Request::new("GET", &serve.url("/photos")).unwrap();
    let stranger = Signer::new(Consumer::new("someone-else", "s"));
    let header = stranger.sign_now(&request).unwrap().authorization();
    for (host, status) in [
        (format!("evil.example:{port}"), 421),
        ("evil.example".to_owned(), 421),
        (format!("localhost:{port}"), 401),
    ] {
        let answer = client()
            .get(serve.url("/photos"))
            .header("host", &host)
            .header("authorization", &header)
            .send()
            .unwrap();
        assert_eq!(answer.status().as_u16(), status, "{host}");
        let body = answer.text().unwrap();
        if status == 421 {
            assert!(
                body.contains("a web page may be trying to reach it"),
                "{body}"
            );
            assert!(!body.contains("serve-consumer"), "{body}");
        }
    }
}

/// A consumer key the server does not know is named, with the ones it knows.
#[test]
fn an_unknown_consumer_key_is_named() {
    let serve = Serve::start(&[]);
    let request = Request::new("GET", &serve.url("/photos")).unwrap();
    let stranger = Signer::new(Consumer::new("someone-else", "s"));
    let (status, body, _) = send(&stranger, &request, "application/json");
    assert_eq!(status, 401);
    let refusal: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(refusal["oauth_problem"], "consumer_key_unknown", "{body}");
    assert_eq!(
        refusal["oauth_problem_advice"],
        "this server knows no consumer key \"someone-else\" (it knows \"serve-consumer\"): sign with one of them, or start oauth1 serve with this one",
        "{body}"
    );
}

/// For `oob`, the verifier is shown, as a line a script can read.
#[test]
fn an_oob_approval_shows_the_verifier() {
    let serve = Serve::start(&[]);
    let body = request_token(&serve, "oob");
    let token = form_field(&body, "oauth_token").unwrap();
    let shown = client()
        .get(serve.url(&format!("/oauth/authorize?oauth_token={token}")))
        .send()
        .unwrap();
    assert_eq!(shown.status().as_u16(), 200);
    let text = shown.text().unwrap();
    let line = text.lines().find(|l| l.starts_with("oauth_verifier="));
    assert!(
        line.is_some_and(|l| l.len() > "oauth_verifier=".len()),
        "{text}"
    );
    let verifier = &line.unwrap()["oauth_verifier=".len()..];
    let (_, printed) = serve.stop();
    assert!(!printed.contains(verifier), "{printed}");
}

/// `--approve ask`: a page with the decision, which only a POST carrying the page's
/// anti-forgery token makes; deny leaves the credentials unapproved.
#[test]
fn asked_approval_needs_the_page() {
    let serve = Serve::start(&["--approve", "ask"]);
    let temporary = |callback: &str| {
        let request = Request::new("POST", &serve.url("/oauth/request_token"))
            .unwrap()
            .with_callback(callback);
        let (status, body, _) = send(&consumer(), &request, "*/*");
        assert_eq!(status, 200, "{body}");
        form_field(&body, "oauth_token").unwrap()
    };
    let page = |token: &str| {
        let shown = client()
            .get(serve.url(&format!("/oauth/authorize?oauth_token={token}")))
            .send()
            .unwrap();
        assert_eq!(shown.status().as_u16(), 200);
        assert_eq!(shown.headers()["x-frame-options"], "DENY");
        let text = shown.text().unwrap();
        assert!(text.contains("serve-consumer</b> asks"), "{text}");
        let csrf = text.split("name=csrf value=\"").nth(1).unwrap();
        csrf[..csrf.find('"').unwrap()].to_owned()
    };
    let decide = |fields: &[(&str, &str)]| {
        let response = client()
            .post(serve.url("/oauth/authorize"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(
                url::form_urlencoded::Serializer::new(String::new())
                    .extend_pairs(fields)
                    .finish(),
            )
            .send()
            .unwrap();
        (response.status().as_u16(), response.headers().clone())
    };
    let token = temporary("https://client.example/done");
    let csrf = page(&token);
    // The page shown again, in another tab say: the first page still decides.
    let again = page(&token);
    assert_ne!(csrf, again);
    let forged = decide(&[("oauth_token", token.as_str()), ("decision", "approve")]);
    assert_eq!(forged.0, 403);
    // A decision that is neither approve nor deny is refused, and spends nothing.
    for unknown in [&[("decision", "yes")][..], &[]] {
        let mut fields = vec![("oauth_token", token.as_str()), ("csrf", csrf.as_str())];
        fields.extend_from_slice(unknown);
        let response = client()
            .post(serve.url("/oauth/authorize"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(
                url::form_urlencoded::Serializer::new(String::new())
                    .extend_pairs(&fields)
                    .finish(),
            )
            .send()
            .unwrap();
        assert_eq!(response.status().as_u16(), 400, "{unknown:?}");
        let text = response.text().unwrap();
        assert!(
            text.contains("send decision=approve or decision=deny"),
            "{text}"
        );
    }
    // The forged POST and the unknown decisions spent nothing: the first page's token
    // still decides.
    let (status, headers) = decide(&[
        ("oauth_token", token.as_str()),
        ("csrf", csrf.as_str()),
        ("decision", "approve"),
    ]);
    assert_eq!(status, 302);
    assert!(headers["location"].to_str().unwrap().starts_with(&format!(
        "https://client.example/done?oauth_token={token}&oauth_verifier="
    )));
    // Decided: the other page is spent with it.
    let (status, _) = decide(&[
        ("oauth_token", token.as_str()),
        ("csrf", again.as_str()),
        ("decision", "deny"),
    ]);
    assert_eq!(status, 403);

    // Denied, with a callback: the application is sent back, told so (`denied`, as X says
    // it), its callback's query kept.
    let token = temporary("https://client.example/done?state=s1");
    let csrf = page(&token);
    let (status, headers) = decide(&[
        ("oauth_token", token.as_str()),
        ("csrf", csrf.as_str()),
        ("decision", "deny"),
    ]);
    assert!(status == 302 || status == 303, "{status}");
    assert_eq!(
        headers["location"],
        format!("https://client.example/done?state=s1&oauth_token={token}&denied={token}")
    );
    // A denial is final: no page is shown for the token again.
    let again = client()
        .get(serve.url(&format!("/oauth/authorize?oauth_token={token}")))
        .send()
        .unwrap();
    assert_eq!(again.status().as_u16(), 400);

    // Pages of one token stay valid together, up to eight: the oldest of nine is forgotten.
    let token = temporary("https://client.example/done");
    let pages: Vec<String> = (0..9).map(|_| page(&token)).collect();
    let decision = |csrf: &str| {
        decide(&[
            ("oauth_token", token.as_str()),
            ("csrf", csrf),
            ("decision", "approve"),
        ])
        .0
    };
    assert_eq!(decision(&pages[0]), 403);
    assert_eq!(decision(&pages[1]), 302);

    let token = temporary("oob");
    let csrf = page(&token);
    let (status, _) = decide(&[
        ("oauth_token", token.as_str()),
        ("csrf", csrf.as_str()),
        ("decision", "deny"),
    ]);
    assert_eq!(status, 200);
    let exchange = Request::new("POST", &serve.url("/oauth/access_token"))
        .unwrap()
        .with_verifier("guess");
    let signer = consumer().with_token(Token::new(token.as_str(), "unknown to the client"));
    let (status, body, _) = send(&signer, &exchange, "*/*");
    assert_eq!(status, 401, "{body}");
    assert!(body.contains("oauth_problem=token_rejected"), "{body}");
}

/// `--profile woocommerce`: a resource request is accepted as WooCommerce's server computes its
/// signature (here, as `oauth1 sign --profile woocommerce` signs it: a repeated `ids[]` read as
/// PHP reads it, the secret unencoded in the key), once; the same request signed as RFC 5849
/// says is refused, and told why and how to sign.
#[test]
fn a_profile_verifies_as_its_provider_computes() {
    let mut serve = Serve::start(&["--profile", "woocommerce"]);
    let banner = serve.banner();
    assert!(
        banner.contains(&"profile: woocommerce: resource requests' signatures are checked as WooCommerce REST API (over http)'s server computes them (parsed-as-php, key-secrets-not-encoded); the credential endpoints stay RFC 5849's".to_owned()),
        "{banner:#?}"
    );
    let path = "/wp-json/wc/v3/products?ids[]=1&ids[]=2";
    let signed = Command::new(env!("CARGO_BIN_EXE_oauth1"))
        .args([
            "sign",
            "--profile",
            "woocommerce",
            "--consumer-key",
            CONSUMER.0,
        ])
        .args(["--url", &serve.url(path)])
        .env("OAUTH1_CONSUMER_SECRET", CONSUMER.1)
        .output()
        .unwrap();
    let printed = String::from_utf8(signed.stdout).unwrap();
    let url = printed
        .lines()
        .find_map(|l| l.strip_prefix("url:"))
        .unwrap_or_else(|| panic!("{printed}"))
        .trim()
        .to_owned();
    let get = |url: &str, accept: &str| {
        let answer = client().get(url).header("accept", accept).send().unwrap();
        (answer.status().as_u16(), answer.text().unwrap())
    };
    let (status, body) = get(&url, "*/*");
    assert_eq!(status, 200, "{body}");
    let echoed: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(echoed["consumer_key"], CONSUMER.0);
    assert!(
        echoed["note"]
            .as_str()
            .unwrap()
            .starts_with("computed as WooCommerce REST API (over http)'s server computes (parsed-as-php, key-secrets-not-encoded)"),
        "{body}"
    );
    let (status, body) = get(&url, "application/json");
    assert_eq!(status, 401, "a replay: {body}");
    let replay: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(replay["oauth_problem"], "nonce_used");

    // Signed as RFC 5849 says: WooCommerce's server computes another signature.
    let request = Request::new("GET", &serve.url(path)).unwrap();
    let (status, body, _) = send(&consumer(), &request, "application/json");
    assert_eq!(status, 401, "{body}");
    let refusal: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        refusal["oauth_problem_advice"],
        "the request is signed as RFC 5849 says, and WooCommerce REST API (over http) computes otherwise (parsed-as-php, key-secrets-not-encoded), so its server refuses it: sign as it computes (oauth1 sign --profile woocommerce), or start oauth1 serve without --profile to test against RFC 5849"
    );
}

/// A PLAINTEXT signature is the secrets: sent in a query, it reaches neither the terminal nor
/// the log.
#[test]
fn a_plaintext_signature_in_a_query_is_not_recorded() {
    let log = std::env::temp_dir().join(format!("oauth1-serve-pt-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let serve = Serve::start(&["--log", log.to_str().unwrap()]);
    // enc("serve secret & ünïcode") & (no token), then encoded for the query.
    let signature = "serve%2520secret%2520%2526%2520%25C3%25BCn%25C3%25AFcode%26";
    let url = serve.url(&format!(
        "/photos?oauth_consumer_key=serve-consumer&oauth_signature_method=PLAINTEXT&oauth_timestamp=1&oauth_nonce=n&oauth_signature={signature}"
    ));
    let answer = client().get(&url).send().unwrap();
    assert_eq!(answer.status().as_u16(), 400);
    let (_, printed) = serve.stop();
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(logged.contains("&oauth_signature=…\""), "{logged}");
    for text in [&printed, &logged] {
        assert!(
            text.contains("GET /photos") || text.contains("/photos?"),
            "{text}"
        );
        assert!(!text.contains("serve%2520secret"), "{text}");
        assert!(!text.contains("2520secret"), "{text}");
    }
    let _ = std::fs::remove_file(&log);
}

/// A harness that reads the first line only, as the documented recipes do, leaves the pipe
/// of standard output to fill: the server goes on answering.
#[test]
fn a_standard_output_nobody_reads_holds_no_request() {
    let serve = Serve::start(&[]);
    let client = client();
    // About 60 bytes a line: more than a pipe's 64 KiB.
    for i in 0..1_500 {
        let answer = client
            .get(serve.url(&format!("/unsigned/{i:04}/{}", "x".repeat(20))))
            .timeout(Duration::from_secs(5))
            .send()
            .unwrap();
        assert_eq!(answer.status().as_u16(), 401);
    }
}

#[test]
fn starting_it_wrong_says_what_to_do() {
    let run = |args: &[&str], secret: Option<&str>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_oauth1"));
        command
            .arg("serve")
            .args(args)
            .env_remove("OAUTH1_CONSUMER_SECRET");
        if let Some(secret) = secret {
            command.env("OAUTH1_CONSUMER_SECRET", secret);
        }
        let output = command.output().unwrap();
        assert_eq!(output.status.code(), Some(1));
        String::from_utf8(output.stderr).unwrap()
    };
    assert_eq!(
        run(&["--port", "0"], None),
        "error: oauth1 serve needs a consumer to verify: --consumer-key KEY with OAUTH1_CONSUMER_SECRET set (or --consumer-secret), or --credentials FILE\n"
    );
    assert!(run(&["--port", "0", "--consumer-key", "k"], None).contains("no consumer secret"));
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    assert_eq!(
        run(&["--port", &port, "--consumer-key", "k"], Some("s")),
        format!("error: port {port} of 127.0.0.1 is in use: pass --port with another port, or --port 0 for any free one\n")
    );
    let file = std::env::temp_dir().join(format!("oauth1-serve-{}.json", std::process::id()));
    std::fs::write(&file, r#"{"consumers": [{"key": "k", "secrets": "s"}]}"#).unwrap();
    let said = run(
        &["--port", "0", "--credentials", file.to_str().unwrap()],
        None,
    );
    assert!(said.contains("unknown field `secrets`"), "{said}");
    assert!(
        said.contains("expected {\"consumers\": [{\"key\""),
        "{said}"
    );
    // A file that lists no consumer is said to.
    std::fs::write(&file, r#"{"consumers": []}"#).unwrap();
    let said = run(
        &["--port", "0", "--credentials", file.to_str().unwrap()],
        None,
    );
    assert_eq!(
        said,
        format!("error: --credentials {}: the file lists no consumer (\"consumers\" is empty), and oauth1 serve needs one to verify: add one, {{\"key\": \"…\", \"secret\": \"…\", \"tokens\": [{{\"token\": \"…\", \"secret\": \"…\"}}]}}, or pass --consumer-key KEY with OAUTH1_CONSUMER_SECRET set\n", file.display())
    );
    let _ = std::fs::remove_file(&file);

    // An origin without a scheme: what to give.
    let origin = |text: &str| {
        run(
            &["--port", "0", "--consumer-key", "k", "--origin", text],
            Some("s"),
        )
    };
    assert_eq!(
        origin("api.test"),
        "error: --origin api.test: give a scheme (http:// or https://) and a host, and a port if not the scheme's: http://api.test\n"
    );
    assert_eq!(
        origin("localhost:8080"),
        "error: --origin localhost:8080: give a scheme (http:// or https://) and a host, and a port if not the scheme's: http://localhost:8080\n"
    );
    // An RSA profile: its signatures need the consumer's public key, which serve does not take.
    let said = run(
        &[
            "--port",
            "0",
            "--consumer-key",
            "k",
            "--profile",
            "mastercard",
        ],
        Some("s"),
    );
    assert!(
        said.starts_with("error: --profile mastercard: Mastercard APIs signs with RSA-SHA256, which is verified with the consumer's RSA public key, and oauth1 serve takes no public key (it verifies HMAC-SHA1, HMAC-SHA256, HMAC-SHA512 and PLAINTEXT)"),
        "{said}"
    );
    let said = run(
        &["--port", "0", "--consumer-key", "k", "--profile", "jira"],
        Some("s"),
    );
    assert!(said.contains("signs with RSA-SHA1"), "{said}");
}

/// A credentials file that starts with a byte order mark, as some editors write UTF-8, is read.
#[test]
fn a_credentials_file_with_a_byte_order_mark_is_read() {
    let file = std::env::temp_dir().join(format!("oauth1-serve-bom-{}.json", std::process::id()));
    std::fs::write(
        &file,
        "\u{feff}{\"consumers\": [{\"key\": \"from-file\", \"secret\": \"file secret\"}]}",
    )
    .unwrap();
    let mut serve = Serve::start(&["--credentials", file.to_str().unwrap()]);
    let _ = std::fs::remove_file(&file);
    let banner = serve.banner();
    assert!(
        banner
            .iter()
            .any(|l| l.starts_with("consumers: from-file, ")),
        "{banner:#?}"
    );
    let request = Request::new("GET", &serve.url("/photos")).unwrap();
    let (status, body, _) = send(
        &Signer::new(Consumer::new("from-file", "file secret")),
        &request,
        "*/*",
    );
    assert_eq!(status, 200, "{body}");
}

/// A client that signed for the address it reached, while the server's origin is another
/// host: the other host is named, with no cause id of the vocabulary (each of which keeps the
/// host), and the `--origin` that would verify at it.
#[test]
fn a_client_that_signed_for_another_host_is_told_it_is_another_host() {
    let mut serve = Serve::start(&["--origin", "https://api.test"]);
    assert_eq!(serve.origin, "https://api.test");
    let banner = serve.banner();
    let bound = banner
        .iter()
        .find_map(|l| l.strip_prefix("  (bound to "))
        .and_then(|l| l.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{banner:#?}"))
        .to_owned();
    let reached = format!("http://{bound}/photos");
    let request = Request::new("GET", &reached).unwrap();
    let (status, body, _) = send(&consumer(), &request, "application/json");
    assert_eq!(status, 401, "{body}");
    let refusal: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(refusal["signed_for"], reached, "{body}");
    assert_eq!(refusal["causes"], serde_json::json!([]), "{body}");
    let advice = refusal["oauth_problem_advice"].as_str().unwrap();
    assert!(
        advice.contains(&format!(
            "the client signed this request for {reached} (the Host header it sent, another host than this server's, with the other scheme), and this server verifies it as https://api.test/photos:"
        )),
        "{advice}"
    );
    assert!(
        advice.contains(&format!("start oauth1 serve with --origin http://{bound}.")),
        "{advice}"
    );
}

/// Bound to every interface, it names an origin a client on this machine can send to and sign
/// for (0.0.0.0 is neither), and says it listens on all of them.
#[test]
fn bound_to_all_interfaces_it_names_a_loopback_origin() {
    let mut serve = Serve::start(&["--bind", "0.0.0.0"]);
    let port = serve
        .origin
        .strip_prefix("http://127.0.0.1:")
        .unwrap_or_else(|| panic!("the origin {}", serve.origin))
        .to_owned();
    let banner = serve.banner();
    assert!(
        banner[0].starts_with(&format!(
            "  (bound to 0.0.0.0:{port}: it listens on all interfaces;"
        )),
        "{banner:#?}"
    );
    let request = Request::new("GET", &serve.url("/photos")).unwrap();
    let (status, body, _) = send(&consumer(), &request, "*/*");
    assert_eq!(status, 200, "{body}");
}

/// An RSA signature is verified with the consumer's public key, which serve does not take: the
/// request is refused for its method, which says what serve verifies, and each of those
/// methods is verified.
#[test]
fn rsa_is_refused_for_its_method_and_the_methods_named_are_verified() {
    let mut serve = Serve::start(&[]);
    let banner = serve.banner();
    assert!(
        banner.iter().any(|l| l.starts_with(
            "  signatures             HMAC-SHA1, HMAC-SHA256, HMAC-SHA512 and PLAINTEXT (PLAINTEXT, which sends the secrets, only at an https --origin); not RSA"
        )),
        "{banner:#?}"
    );
    let request = Request::new("GET", &serve.url("/photos")).unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    for method in ["RSA-SHA1", "RSA-SHA256"] {
        // What an RSA client sends: the signature is of no matter, the method is refused.
        let header = format!(
            "OAuth oauth_consumer_key=\"{}\", oauth_signature_method=\"{method}\", oauth_timestamp=\"{now}\", oauth_nonce=\"rsa{method}\", oauth_version=\"1.0\", oauth_signature=\"c2lnbmF0dXJl\"",
            CONSUMER.0
        );
        let (status, body, _) = send_with(&request, &header, "*/*");
        assert_eq!(status, 400, "{body}");
        assert_eq!(
            form_field(&body, "oauth_problem").as_deref(),
            Some("signature_method_rejected"),
            "{body}"
        );
        let advice = form_field(&body, "oauth_problem_advice").unwrap();
        assert!(
            advice.starts_with(&format!("signature method \"{method}\" is not accepted; use HMAC-SHA1, HMAC-SHA256, HMAC-SHA512 or PLAINTEXT. {method} is verified with the consumer's RSA public key, which oauth1 serve does not take")),
            "{advice}"
        );
    }
    for method in [
        oauth1_signer::SignatureMethod::HmacSha1,
        oauth1_signer::SignatureMethod::HmacSha256,
        oauth1_signer::SignatureMethod::HmacSha512,
    ] {
        let (status, body, _) = send(&consumer().with_method(method), &request, "*/*");
        assert_eq!(status, 200, "{method:?}: {body}");
    }
}

/// The credential endpoints take POST: another method is answered 405 with `Allow: POST`, in
/// the Problem Reporting format (as JSON when asked), and nothing is verified or spent.
#[test]
fn the_credential_endpoints_answer_another_method_405() {
    let serve = Serve::start(&[]);
    let body = request_token(&serve, "oob");
    let temporary = TemporaryCredentials::parse(body.as_bytes()).unwrap();
    let with_temporary = consumer().with_token(temporary.token().clone());
    for (path, section) in [
        ("/oauth/request_token", "§2.1"),
        ("/oauth/access_token", "§2.3"),
    ] {
        let get = Request::new("GET", &serve.url(path)).unwrap();
        let (status, body, headers) = send(&with_temporary, &get, "*/*");
        assert_eq!(status, 405, "{path}: {body}");
        assert_eq!(headers["allow"], "POST");
        assert_eq!(headers["content-type"], "application/x-www-form-urlencoded");
        let advice = form_field(&body, "oauth_problem_advice").unwrap();
        assert!(
            advice.contains(&format!("which takes POST (RFC 5849 {section})")),
            "{advice}"
        );
        let (status, body, headers) = send(&with_temporary, &get, "application/json");
        assert_eq!(status, 405, "{body}");
        assert_eq!(headers["allow"], "POST");
        let refusal: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(refusal["status"], 405);
        assert_eq!(refusal["reason"], "method-not-allowed");
        assert!(
            refusal["oauth_problem_advice"]
                .as_str()
                .unwrap()
                .contains("which takes POST"),
            "{body}"
        );
    }
    let put = Request::new("PUT", &serve.url("/oauth/access_token")).unwrap();
    let (status, _, headers) = send(&with_temporary, &put, "*/*");
    assert_eq!((status, &headers["allow"]), (405, &"POST".parse().unwrap()));
}

/// A request missing protocol parameters names them, in the form (Problem Reporting's
/// `oauth_parameters_absent`) and in the JSON alike.
#[test]
fn the_parameters_absent_are_named_in_json_too() {
    let serve = Serve::start(&[]);
    let request = Request::new("GET", &serve.url("/photos")).unwrap();
    let header = format!(
        "OAuth oauth_consumer_key=\"{}\", oauth_signature_method=\"HMAC-SHA1\", oauth_signature=\"c2lnbmF0dXJl\"",
        CONSUMER.0
    );
    let absent = |value: &str| {
        let mut names: Vec<String> = value.split('&').map(str::to_owned).collect();
        names.sort();
        names
    };
    let (status, body, _) = send_with(&request, &header, "*/*");
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        absent(&form_field(&body, "oauth_parameters_absent").unwrap()),
        ["oauth_nonce", "oauth_timestamp"],
        "{body}"
    );
    let (status, body, _) = send_with(&request, &header, "application/json");
    assert_eq!(status, 400, "{body}");
    let refusal: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(refusal["oauth_problem"], "parameter_absent");
    assert_eq!(
        absent(
            refusal["oauth_parameters_absent"]
                .as_str()
                .unwrap_or_else(|| panic!("{body}"))
        ),
        ["oauth_nonce", "oauth_timestamp"],
        "{body}"
    );
}
