//! `oauth1 send`: a `curl` for signed requests. The request is signed with a fresh nonce and
//! timestamp and sent; the response body goes to standard output as it arrives, never held
//! whole, so that an answer of any size (an endless one) leaves memory flat. A 400 or 401
//! whose body echoes the server's base string, in its first [`MAX_SEARCHED`] bytes, gets the
//! diagnosis of `oauth1 explain` on standard error.

use std::io::{IsTerminal, Read, Write};
use std::path::Path;

use clap::Args;
use oauth1_reqwest::SignExt;
use oauth1_signer::explain::{find_base_string, Explainer, Observed};
use oauth1_signer::http::Transport;
use oauth1_signer::profile::Profile;
use oauth1_signer::{Nonce, Request, SignatureMethod, Signer, Timestamp, Token, Version};
use reqwest::blocking::multipart;

use crate::input::ConsumerArgs;

#[derive(Args, Clone)]
#[allow(clippy::struct_excessive_bools)] // command-line switches
pub(crate) struct SendArgs {
    /// The URL, query included.
    pub(crate) url: String,
    /// The method; GET, or POST when a body is given.
    #[arg(short = 'X', long = "request", value_name = "METHOD")]
    pub(crate) method: Option<String>,
    /// A header, 'Name: value'; repeatable.
    #[arg(short = 'H', long = "header", value_name = "HEADER")]
    pub(crate) headers: Vec<String>,
    /// Form data (signed), joined with & when repeated; @FILE reads a file without its line
    /// breaks. The Content-Type is application/x-www-form-urlencoded unless -H gives one.
    #[arg(short = 'd', long = "data", value_name = "DATA", conflicts_with_all = ["data_binary", "form"])]
    pub(crate) data: Vec<String>,
    /// Form data percent-encoded first, as curl's --data-urlencode: content, =content,
    /// name=content (only content encoded), @FILE or name@FILE; repeatable, joined with & after
    /// the -d data. A '+' in it is sent as %2B, so the server reads a plus, not a space.
    #[arg(long = "data-urlencode", value_name = "DATA", conflicts_with_all = ["data_binary", "form"])]
    pub(crate) data_urlencode: Vec<String>,
    /// The body as it is, or @FILE; give its Content-Type with -H (a form is signed).
    #[arg(long, value_name = "DATA", conflicts_with = "form")]
    pub(crate) data_binary: Option<String>,
    /// A multipart/form-data field, name=value or name=@FILE; repeatable. Not signed (RFC 5849
    /// signs only a form body's parameters).
    #[arg(short = 'F', long = "form", value_name = "FIELD")]
    pub(crate) form: Vec<String>,
    /// Print the status line and the headers before the body, on standard output.
    #[arg(short = 'i', long = "include")]
    pub(crate) include: bool,
    /// Seconds the request may take, from connecting to the last byte read of its answer, as
    /// curl's --max-time: from 0.001 to 86400 (a day), a fraction allowed.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    pub(crate) timeout: f64,
    /// Where the protocol parameters go: header, query or body [default: the profile's, or
    /// header].
    #[arg(long, value_parser = crate::input::transport)]
    pub(crate) transport: Option<Transport>,
    /// Sign as a provider's server computes: mastercard, woocommerce, netsuite, x, lti, jira or
    /// discogs (docs/profiles.md); it sets the signature method and the transport unless given.
    #[arg(long, value_name = "NAME", value_parser = crate::input::profile_name)]
    pub(crate) profile: Option<&'static Profile>,

    #[command(flatten)]
    pub(crate) consumer: ConsumerArgs,
    /// oauth_token.
    #[arg(long)]
    pub(crate) token: Option<String>,
    /// The token secret; prefer the environment variable.
    #[arg(long, env = "OAUTH1_TOKEN_SECRET", hide_env_values = true)]
    pub(crate) token_secret: Option<String>,
    /// Leave oauth_version out.
    #[arg(long)]
    pub(crate) no_version: bool,
    /// Send a PLAINTEXT signature, which is the consumer secret and the token secret
    /// themselves, to a plain http URL, in clear. For a test server on this machine only.
    #[arg(long)]
    pub(crate) allow_plaintext_over_http: bool,
}

/// The most bytes of an answer that is not a success kept, to read its problem report and
/// search it for an echoed base string; the rest is written out and not kept.
const MAX_SEARCHED: usize = 1 << 20;
/// The most bytes of the answer read at a time: all it holds of a success.
const CHUNK: usize = 1 << 16;

pub(crate) fn run(args: &SendArgs) -> Result<(), String> {
    let timeout = crate::input::seconds("--timeout", args.timeout, true)?;
    let signer = signer(args)?;
    let transport = match (args.transport, args.profile) {
        (Some(transport), _) => transport,
        (None, Some(profile)) => profile.transport(),
        (None, None) => Transport::Header,
    };
    let body = body(args)?;
    let has_body = !matches!(body, Body::None);
    let method = args
        .method
        .clone()
        .unwrap_or_else(|| if has_body { "POST" } else { "GET" }.to_owned());

    let client = reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(timeout)
        .build()
        .map_err(|e| format!("starting the HTTP client: {e}"))?;
    let http_method = reqwest::Method::from_bytes(method.as_bytes())
        .map_err(|_| format!("invalid method {method:?}: a method is an HTTP token such as GET"))?;
    let builder = client
        .request(http_method, crate::input::url(&args.url)?)
        // The deadline of the whole exchange, body included, however it is read.
        .timeout(timeout);
    let (mut request, content_type, sent_body) = with_headers_and_body(builder, args, body)?;
    not_in_clear(&signer, request.url(), args.allow_plaintext_over_http)?;
    let nonce = Nonce::generate().map_err(|e| e.to_string())?;
    let timestamp = Timestamp::now().map_err(|e| e.to_string())?;
    match args.profile {
        Some(profile) => request.sign_oauth1_as(profile, &signer, transport, &nonce, timestamp),
        None => request.sign_oauth1_with(&signer, transport, &nonce, timestamp),
    }
    .map_err(|e| e.to_string())?;

    // The signed request is named by its host only: its URL may carry the signature (and with
    // PLAINTEXT, both secrets), and it could be replayed within the server's window.
    let host = origin(request.url());
    // The request as sent, for the probe a refusal suggests: not for PLAINTEXT, whose header
    // is the secrets.
    let as_curl = (signer.method() != SignatureMethod::Plaintext)
        .then(|| curl_of(&request, content_type.as_deref(), &sent_body))
        .flatten();
    let response = client
        .execute(request)
        .map_err(|e| sending_failed(e, &host, timeout))?;
    let status = response.status();
    // The answer as it came, unless standard output is a terminal, which would act on its
    // control characters: there they are shown escaped.
    let on_terminal = std::io::stdout().is_terminal();
    if args.include {
        let head = head(&response);
        let head = if on_terminal {
            crate::terminal::text(&head)
        } else {
            head.as_str().into()
        };
        crate::terminal::line(&head);
    } else {
        tell!("{:?} {status}", response.version());
    }
    let kept = write_out(response, !status.is_success(), on_terminal)
        .map_err(|e| reading_failed(&e, &host, timeout))?;

    if status.is_success() {
        return Ok(());
    }
    let cut = kept.len() > MAX_SEARCHED;
    let kept = &kept[..kept.len().min(MAX_SEARCHED)];
    // A problem report is a short form: the first part of a longer answer is not one.
    if !cut {
        report_problem(kept);
    }
    if matches!(status.as_u16(), 400 | 401) {
        if cut {
            tell!(
                "note: only the answer's first {MAX_SEARCHED} bytes were searched for an echoed base string"
            );
        }
        if let Some(echoed) = find_base_string(&String::from_utf8_lossy(kept)) {
            let request = Request::new(&method, &args.url)
                .map_err(|e| e.to_string())?
                .with_body(content_type.as_deref().unwrap_or(""), &sent_body);
            let explanation = Explainer::new(&signer, &request, &nonce, timestamp)
                .with_url_as_written(&args.url)
                .explain(&Observed::default().with_base_string(&echoed))
                .map_err(|e| e.to_string())?;
            let mut stderr = std::io::stderr().lock();
            let _ = writeln!(
                stderr,
                "The server echoed the base string it computed; compared with this request's:"
            );
            let _ = crate::explain::report(&mut stderr, &explanation, Some(&echoed));
        } else if status.as_u16() == 401 && !cut {
            // This request is signed as RFC 5849 says: a server that refuses it computes
            // otherwise, or holds other credentials, and the probe asks it which.
            if let Some(curl) = &as_curl {
                tell!(
                    "next: the server echoed no base string. Ask it which reading it accepts (it sends this request signed as each known mistake would sign it, GET and HEAD unless --allow-method):\n  oauth1 probe --curl {}",
                    shell_quoted(curl)
                );
            } else {
                tell!(
                    "next: the server echoed no base string. oauth1 probe, with the flags given here, asks it which reading it accepts."
                );
            }
        }
    }
    Err(format!("the server answered {status}"))
}

/// The request as a curl command (its method, URL, `Authorization` and `Content-Type`
/// headers and body), as `oauth1 probe --curl` reads it; `None` for a body that is not text or
/// is longer than 16 KiB, which a command line does not carry well.
fn curl_of(
    request: &reqwest::blocking::Request,
    content_type: Option<&str>,
    body: &[u8],
) -> Option<String> {
    let body = std::str::from_utf8(body)
        .ok()
        .filter(|b| b.len() <= 16 * 1024)?;
    let mut curl = format!(
        "curl -X {} {}",
        request.method(),
        shell_quoted(request.url().as_str())
    );
    if let Some(authorization) = request.headers().get(reqwest::header::AUTHORIZATION) {
        let header = format!("Authorization: {}", authorization.to_str().ok()?);
        curl = curl + " -H " + &shell_quoted(&header);
    }
    if let Some(content_type) = content_type {
        curl = curl + " -H " + &shell_quoted(&format!("Content-Type: {content_type}"));
    }
    if !body.is_empty() {
        curl = curl + " --data-raw " + &shell_quoted(body);
    }
    Some(curl)
}

/// `text` single-quoted for a POSIX shell.
fn shell_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

/// The answer's status line and headers, as text.
fn head(response: &reqwest::blocking::Response) -> String {
    let mut head = format!("{:?} {}\n", response.version(), response.status());
    for (name, value) in response.headers() {
        head.push_str(name.as_str());
        head.push_str(": ");
        head.push_str(&String::from_utf8_lossy(value.as_bytes()));
        head.push('\n');
    }
    head
}

/// Writes the answer's body to standard output as it arrives, a chunk at a time, escaped
/// `on_terminal`; never holds it whole, whatever its size. When `keep`, its first
/// [`MAX_SEARCHED`] bytes are returned, and one more when there are more. A reader of standard
/// output that has gone ends the reading, once that much is kept.
fn write_out(
    mut response: reqwest::blocking::Response,
    keep: bool,
    on_terminal: bool,
) -> Result<Vec<u8>, std::io::Error> {
    let mut shown = on_terminal.then(Shown::default);
    let mut kept = Vec::new();
    let mut chunk = vec![0; CHUNK];
    let mut writing = true;
    let read = loop {
        let n = match response.read(&mut chunk) {
            Ok(0) => break Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => break Err(e),
        };
        let chunk = &chunk[..n];
        if keep && kept.len() <= MAX_SEARCHED {
            kept.extend_from_slice(&chunk[..n.min(MAX_SEARCHED + 1 - kept.len())]);
        }
        if writing {
            writing = match &mut shown {
                Some(shown) => out(shown.text(chunk).as_bytes()),
                None => out(chunk),
            };
        }
        if !writing && (!keep || kept.len() > MAX_SEARCHED) {
            break Ok(());
        }
    };
    if let (true, Some(shown)) = (writing, &mut shown) {
        out(shown.end().as_bytes());
    }
    read.map(|()| kept)
}

/// Writes `bytes` to standard output as [`crate::terminal::out`] does (a reader that has gone
/// ends the output quietly; another failure is the command's error when it ends), and says
/// whether standard output still takes them: once it does not, no more of an answer needs
/// reading for it.
fn out(bytes: &[u8]) -> bool {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => true,
        Err(e) => {
            crate::terminal::stopped(&e);
            false
        }
    }
}

/// An answer shown on a terminal a chunk at a time, through [`crate::terminal::text`], as it
/// would show whole: the end of a chunk that the next one may complete (a UTF-8 sequence cut
/// in two, a carriage return before its line feed) is held until that chunk comes.
#[derive(Default)]
struct Shown {
    held: Vec<u8>,
}

impl Shown {
    /// `chunk`, after what was held, as it is shown; its end held if the next may complete it.
    fn text(&mut self, chunk: &[u8]) -> String {
        self.held.extend_from_slice(chunk);
        let rest = self
            .held
            .split_off(self.held.len() - unfinished(&self.held));
        let text = crate::terminal::text(&String::from_utf8_lossy(&self.held)).into_owned();
        self.held = rest;
        text
    }

    /// What is still held, once the answer has ended, as it is shown.
    fn end(&mut self) -> String {
        let held = std::mem::take(&mut self.held);
        crate::terminal::text(&String::from_utf8_lossy(&held)).into_owned()
    }
}

/// How many bytes at the end of `bytes` the next bytes may complete: a carriage return (a line
/// feed after it keeps it), or the start of a UTF-8 sequence shorter than its first byte says.
fn unfinished(bytes: &[u8]) -> usize {
    if bytes.last() == Some(&b'\r') {
        return 1;
    }
    for back in 1..=bytes.len().min(3) {
        let first = bytes[bytes.len() - back];
        // Not a continuation byte: the sequence starts here.
        if first & 0xc0 != 0x80 {
            let length = match first {
                0xc0..=0xdf => 2,
                0xe0..=0xef => 3,
                0xf0..=0xf7 => 4,
                _ => 1,
            };
            return if length > back { back } else { 0 };
        }
    }
    0
}

/// Why the request could not be sent to `host`, or its answer's head read: for a deadline that
/// ran out, which one and the flag that changes it.
fn sending_failed(e: reqwest::Error, host: &str, timeout: std::time::Duration) -> String {
    let doing = "sending the request to";
    if e.is_timeout() {
        let deadline = crate::input::shown_seconds(timeout);
        format!("{doing} {host}: no answer within {deadline} s (--timeout gives more)")
    } else {
        format!(
            "{doing} {host}: {}",
            crate::input::with_causes(&e.without_url())
        )
    }
}

/// Why the answer's body could not be read from `host` to its end, as [`sending_failed`]
/// says it.
fn reading_failed(e: &std::io::Error, host: &str, timeout: std::time::Duration) -> String {
    let doing = "reading the response of";
    let reqwest = e.get_ref().and_then(|e| e.downcast_ref::<reqwest::Error>());
    if reqwest.is_some_and(reqwest::Error::is_timeout) {
        let deadline = crate::input::shown_seconds(timeout);
        return format!(
            "{doing} {host}: the answer did not end within {deadline} s (--timeout gives more)"
        );
    }
    let mut text = crate::input::with_causes(e);
    if let Some(url) = reqwest.and_then(reqwest::Error::url) {
        text = text.replace(&format!(" for url ({url})"), "");
    }
    format!("{doing} {host}: {text}")
}

/// Refuses a PLAINTEXT signature, which is the secrets themselves, to a plain http URL, unless
/// `allowed`.
fn not_in_clear(signer: &Signer, url: &reqwest::Url, allowed: bool) -> Result<(), String> {
    if signer.method() == SignatureMethod::Plaintext && url.scheme() == "http" && !allowed {
        return Err(format!(
            "a PLAINTEXT signature is the consumer secret and the token secret themselves, and {} is plain http: they would be sent in clear. Send to its https URL, or sign with an HMAC method (--signature-method HMAC-SHA1); for a test server on this machine, allow it explicitly (--allow-plaintext-over-http)",
            origin(url)
        ));
    }
    Ok(())
}

/// The scheme, host and port of `url`: what an error names of a signed request.
pub(crate) fn origin(url: &reqwest::Url) -> String {
    url.origin().ascii_serialization()
}

/// The request with the `-H` headers and the body; its `Content-Type` and the bytes sent
/// (none for a multipart body, which is streamed and not signed).
fn with_headers_and_body(
    mut builder: reqwest::blocking::RequestBuilder,
    args: &SendArgs,
    body: Body,
) -> Result<(reqwest::blocking::Request, Option<String>, Vec<u8>), String> {
    let mut content_type = None;
    for header in &args.headers {
        let (name, value) = header
            .split_once(':')
            .ok_or_else(|| format!("-H {header:?}: give a header as 'Name: value'"))?;
        let (name, value) = (name.trim(), value.trim());
        if name.eq_ignore_ascii_case("content-type") {
            content_type = Some(value.to_owned());
        }
        builder = builder.header(name, value);
    }
    let sent_body = match body {
        Body::None => Vec::new(),
        Body::Bytes(bytes) => {
            if content_type.is_none() {
                // As curl does: data without a Content-Type is a form.
                content_type = Some("application/x-www-form-urlencoded".to_owned());
                builder = builder.header("content-type", "application/x-www-form-urlencoded");
            }
            builder = builder.body(bytes.clone());
            bytes
        }
        Body::Multipart(form) => {
            builder = builder.multipart(form);
            Vec::new()
        }
    };
    let request = builder
        .build()
        .map_err(|e| format!("the request: {}", crate::input::with_causes(&e)))?;
    Ok((request, content_type, sent_body))
}

/// Prints the server's problem report, decoded, on standard error beside the status: the body
/// as sent is on standard output.
fn report_problem(answer: &[u8]) {
    if let Some((problem, advice)) = problem_report(answer) {
        tell!("problem:    {}", crate::terminal::value(&problem));
        if let Some(advice) = advice {
            tell!("advice:     {}", crate::terminal::value(&advice));
        }
    }
}

/// The server's OAuth Problem Reporting answer, decoded: `oauth_problem` and
/// `oauth_problem_advice`, when the body is one.
fn problem_report(body: &[u8]) -> Option<(String, Option<String>)> {
    let mut params = oauth1_signer::params::Parameters::new();
    params
        .extend_urlencoded(oauth1_signer::params::Source::FormBody, body.trim_ascii())
        .ok()?;
    let text = |name: &[u8]| {
        params
            .iter()
            .find(|p| p.name == name)
            .map(|p| String::from_utf8_lossy(p.value).into_owned())
    };
    Some((text(b"oauth_problem")?, text(b"oauth_problem_advice")))
}

enum Body {
    None,
    Bytes(Vec<u8>),
    Multipart(multipart::Form),
}

/// The body the flags give: `-d` and `--data-urlencode` (joined with `&`, as curl joins
/// them), `--data-binary`, or `-F` parts.
fn body(args: &SendArgs) -> Result<Body, String> {
    if !args.form.is_empty() {
        let mut form = multipart::Form::new();
        for field in &args.form {
            let (name, value) = field
                .split_once('=')
                .ok_or_else(|| format!("-F {field:?}: give a field as name=value or name=@FILE"))?;
            form = match value.strip_prefix('@') {
                Some(path) => form
                    .file(name.to_owned(), path)
                    .map_err(|e| format!("-F {field:?}: reading {path}: {e}"))?,
                None => form.text(name.to_owned(), value.to_owned()),
            };
        }
        return Ok(Body::Multipart(form));
    }
    if let Some(data) = &args.data_binary {
        return Ok(Body::Bytes(match data.strip_prefix('@') {
            Some(path) => read(path)?,
            None => data.clone().into_bytes(),
        }));
    }
    if args.data.is_empty() && args.data_urlencode.is_empty() {
        return Ok(Body::None);
    }
    let mut joined = Vec::new();
    for data in &args.data {
        if !joined.is_empty() {
            joined.push(b'&');
        }
        match data.strip_prefix('@') {
            // As curl reads `-d @FILE`: without its line breaks.
            Some(path) => joined.extend(
                read(path)?
                    .into_iter()
                    .filter(|&b| b != b'\n' && b != b'\r'),
            ),
            None => joined.extend_from_slice(data.as_bytes()),
        }
    }
    for data in &args.data_urlencode {
        if !joined.is_empty() {
            joined.push(b'&');
        }
        // The user's own flag: its @FILE is read, as curl reads it.
        let encoded = oauth1_capture::data_urlencode_with(data, read)
            .map_err(|e| format!("--data-urlencode {data:?}: {e}"))?;
        joined.extend_from_slice(&encoded);
    }
    Ok(Body::Bytes(joined))
}

fn read(path: &str) -> Result<Vec<u8>, String> {
    std::fs::read(Path::new(path)).map_err(|e| format!("reading {path}: {e}"))
}

fn signer(args: &SendArgs) -> Result<Signer, String> {
    crate::input::warn_of_likely_mistakes(
        &args.consumer.consumer_key,
        args.token.as_deref(),
        args.token_secret.is_some(),
    );
    let mut signer = args.consumer.signer(args.profile)?;
    if let Some(token) = &args.token {
        let secret = args.token_secret.clone().unwrap_or_default();
        signer = signer.with_token(Token::new(token.as_str(), secret));
    }
    if args.no_version {
        signer = signer.with_version(Version::Omit);
    }
    Ok(signer)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cut anywhere, an answer is shown on a terminal as it is shown whole.
    #[test]
    fn an_answer_is_shown_the_same_whatever_its_chunks() {
        let answer = "a\r\nb\rc \u{1b}[2J é € 𝄞 \u{202e}\r\n\u{9b}".as_bytes();
        let answer = [answer, b"\xff\xe2\x82 \xf0\x9d\r"].concat();
        let whole = crate::terminal::text(&String::from_utf8_lossy(&answer)).into_owned();
        for first in 0..=answer.len() {
            for second in first..=answer.len() {
                let mut shown = Shown::default();
                let text = [
                    shown.text(&answer[..first]),
                    shown.text(&answer[first..second]),
                    shown.text(&answer[second..]),
                    shown.end(),
                ]
                .concat();
                assert_eq!(text, whole, "cut at {first} and {second}");
            }
        }
    }

    #[test]
    fn what_the_next_chunk_may_complete_is_held() {
        assert_eq!(unfinished(b""), 0);
        assert_eq!(unfinished(b"ab"), 0);
        assert_eq!(unfinished(b"a\r"), 1);
        assert_eq!(unfinished("é".as_bytes()), 0);
        assert_eq!(unfinished(&"é".as_bytes()[..1]), 1);
        assert_eq!(unfinished(&"€".as_bytes()[..2]), 2);
        assert_eq!(unfinished(&"𝄞".as_bytes()[..3]), 3);
        assert_eq!(unfinished("𝄞".as_bytes()), 0);
        assert_eq!(unfinished(b"\x80\x80\x80"), 0);
    }
}
