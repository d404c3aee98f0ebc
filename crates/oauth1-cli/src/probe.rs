//! `oauth1 probe`: when a server refuses a request and echoes nothing, ask it which computation
//! it runs. The request is sent signed exactly, then signed as each mistake of the vocabulary
//! would sign it (and pairs), each with a fresh nonce, until one is accepted; bounded by
//! `--max-requests`, spaced by `--interval`, `GET` and `HEAD` only unless `--allow-method`.

use std::io::Read;
use std::time::Duration;

use clap::Args;
use oauth1_signer::explain::{Probe, ProbeAnswer, ProbeAttempt, ProbeReport, ProbeVerdict};
use oauth1_signer::profile::Profile;
use serde::Serialize;

use crate::input::SignArgs;
use crate::sign::FromFlags;

#[derive(Args)]
pub(crate) struct ProbeArgs {
    #[command(flatten)]
    pub(crate) sign: SignArgs,
    /// The most requests sent, the exact one included; never exceeded.
    #[arg(long, value_name = "N", default_value_t = 40)]
    pub(crate) max_requests: usize,
    /// Seconds between two requests (a fraction allowed), so that a rate-limited API is not
    /// flooded.
    #[arg(long, value_name = "SECONDS", default_value_t = 1.0)]
    pub(crate) interval: f64,
    /// Probe this method too (repeatable): only GET and HEAD are sent otherwise, since the
    /// request is repeated.
    #[arg(long, value_name = "METHOD")]
    pub(crate) allow_method: Vec<String>,
    /// The last line is JSON: {"verdict": "rfc" | "found" | "none", "causes": [...],
    /// "requests": N}.
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(Serialize)]
struct JsonLine<'a> {
    verdict: &'static str,
    causes: Vec<&'static str>,
    requests: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<&'a str>,
}

/// The most bytes of an answer read.
const MAX_READ: u64 = 1 << 16;

/// Runs the probe; whether a variant or the exact request was accepted.
pub(crate) fn run(args: ProbeArgs) -> Result<bool, String> {
    if !(args.interval.is_finite() && args.interval >= 0.0) {
        return Err(format!(
            "--interval {}: give a number of seconds, 0 or more",
            args.interval
        ));
    }
    let interval = Duration::from_secs_f64(args.interval);
    let verbose = args.sign.verbose;
    let mut sign = args.sign;
    if let Some(path) = sign.har.take() {
        // One entry: a probe sends many requests.
        let mut entries = crate::capture::har_entries(&path, sign.entry)?;
        if entries.len() > 1 {
            let numbers: Vec<String> = entries.iter().map(|(n, _)| n.to_string()).collect();
            return Err(format!(
                "--har: {} entries carry OAuth ({}): choose the one to probe with --entry N",
                entries.len(),
                numbers.join(", ")
            ));
        }
        let Some((n, capture)) = entries.pop() else {
            return Err(format!(
                "--har: no entry of {} carries OAuth",
                path.display()
            ));
        };
        sign.captured = Some((format!("entry {n}"), capture));
    }
    let flags = FromFlags::new(sign, true)?;
    let request = flags.request().map_err(|e| e.to_string())?;
    let allowed: Vec<&str> = args.allow_method.iter().map(String::as_str).collect();
    let mut probe = Probe::new(
        &flags.signer,
        request.method(),
        flags.url(),
        args.max_requests,
        &allowed,
    )
    .map_err(|e| e.to_string())?;
    if !request.body().is_empty() || request.has_form_body() {
        probe = probe.with_body(request.content_type(), request.body());
    }
    let client = reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(30))
        .build()
        .map_err(|e| format!("starting the HTTP client: {e}"))?;
    let host = crate::send::origin(request.url());
    if !args.json {
        say!(
            "probe:      {} {} (at most {} requests, {} s apart)",
            request.method(),
            crate::terminal::value(flags.url()),
            args.max_requests,
            args.interval
        );
    }
    let mut number = 0;
    while let Some(attempt) = probe.next_attempt().map_err(|e| e.to_string())? {
        if number > 0 {
            std::thread::sleep(interval);
        }
        number += 1;
        let answer = send(&client, &attempt, &host)?;
        if verbose {
            say!(
                "{number:>3} {:<48} {}",
                variant(&attempt, flags.url()),
                answer.0
            );
        }
        probe.answer(&answer.1);
    }
    let report = probe.report();
    if args.json {
        let line = JsonLine {
            verdict: report.verdict().as_str(),
            causes: report.causes().iter().map(|c| c.id()).collect(),
            requests: report.requests(),
            stopped: report.stopped(),
        };
        let text = serde_json::to_string(&line).map_err(|e| e.to_string())?;
        println!("{}", crate::terminal::json(&text));
    } else {
        print!("{}", text(&report, args.max_requests));
    }
    Ok(report.verdict() != ProbeVerdict::None)
}

/// The variant an attempt was signed as, for `--verbose`.
fn variant(attempt: &ProbeAttempt, url: &str) -> String {
    let causes: Vec<&str> = attempt.causes().iter().map(|c| c.id()).collect();
    let signed = if causes.is_empty() {
        "rfc".to_owned()
    } else {
        causes.join(" + ")
    };
    if attempt.url() == url {
        signed
    } else {
        format!("{signed} (the path alone)")
    }
}

/// Sends one attempt; its status line, and the answer the probe reads.
fn send(
    client: &reqwest::blocking::Client,
    attempt: &ProbeAttempt,
    host: &str,
) -> Result<(String, ProbeAnswer), String> {
    let method = reqwest::Method::from_bytes(attempt.method().as_bytes())
        .map_err(|_| format!("invalid method {:?}", attempt.method()))?;
    let mut request = client
        .request(method, attempt.url())
        .header("Authorization", attempt.authorization());
    if let Some(content_type) = attempt.content_type() {
        request = request
            .header("Content-Type", content_type)
            .body(attempt.body().to_vec());
    }
    // Named by its host only: the request carries a signature that could be replayed.
    let response = request.send().map_err(|e| {
        format!(
            "sending the request to {host}: {}",
            crate::input::with_causes(&e.without_url())
        )
    })?;
    let status = response.status();
    let mut answer = ProbeAnswer::new(status.as_u16());
    if let Some(value) = response
        .headers()
        .get("www-authenticate")
        .and_then(|v| v.to_str().ok())
    {
        answer = answer.with_www_authenticate(value);
    }
    let mut body = Vec::new();
    let _ = response.take(MAX_READ).read_to_end(&mut body);
    answer = answer.with_body(&String::from_utf8_lossy(&body));
    Ok((status.to_string(), answer))
}

/// The report in words: the verdict, what it means for the client and for the server's owner.
fn text(report: &ProbeReport, max_requests: usize) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let requests = report.requests();
    let _ = writeln!(out, "verdict:    {}", report.verdict());
    match report.verdict() {
        ProbeVerdict::Rfc => {
            let _ = writeln!(
                out,
                "detail:     the request signed exactly as RFC 5849 says was accepted ({requests} request). Look elsewhere: what your client sends differs from what it signed (the URL, the body, its Content-Type, the header), or its clock, nonce or credentials differ from these."
            );
        }
        ProbeVerdict::Found => {
            let causes = report.causes();
            for cause in causes {
                let _ = writeln!(out, "cause:      {cause}: the server {}", cause.what());
            }
            let _ = writeln!(out, "requests:   {requests}, the last one accepted");
            match Profile::deviating_by(causes) {
                Some(profile) => {
                    let _ = writeln!(
                        out,
                        "client:     sign as this server computes: --profile {} ({})",
                        profile.name(),
                        profile.provider()
                    );
                }
                None => {
                    let _ = writeln!(
                        out,
                        "client:     this server departs from RFC 5849; no profile signs as it does. Ask its owner to fix it; meanwhile a client must make the same mistake to be accepted."
                    );
                }
            }
            for cause in causes {
                let _ = writeln!(out, "server fix: {}", cause.fix());
            }
        }
        _ => {
            if let Some(problem) = report.stopped() {
                let _ = writeln!(
                    out,
                    "stopped:    after {requests} requests the server named another problem, {}: no signature variant can cure it",
                    crate::terminal::value(problem)
                );
            } else {
                let tried = report.ruled_out().len();
                let _ = writeln!(
                    out,
                    "detail:     nothing accepted in {requests} requests (at most {max_requests}); ruled out: the exact signature and {} variants of the whole request. What remains: the consumer secret and the token secret, the consumer key and token themselves, the clock (oauth_timestamp), or a mistake outside the vocabulary or of more than two causes. Check the secrets first.",
                    tried.saturating_sub(1)
                );
            }
        }
    }
    out
}
