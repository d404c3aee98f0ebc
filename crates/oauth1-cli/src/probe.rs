//! `oauth1 probe`: when a server refuses a request and echoes nothing, ask it which computation
//! it runs. The request is sent signed exactly, then signed as each mistake of the vocabulary
//! would sign it (and pairs), each with a fresh nonce, until one is accepted; bounded by
//! `--max-requests`, spaced by `--interval`, each request within `--timeout` (so the whole probe
//! within `--max-requests` × (`--timeout` + `--interval`)), `GET` and `HEAD` only unless
//! `--allow-method`, and never PLAINTEXT over plain http unless `--allow-plaintext-over-http`.

use std::time::Duration;

use clap::Args;
use oauth1_signer::explain::{Cause, Probe, ProbeAttempt, ProbeReport, ProbeVerdict};
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
    /// Seconds one request may take, from connecting to the last byte read of its answer (a
    /// fraction allowed): a server that answers slowly holds the probe no longer.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    pub(crate) timeout: f64,
    /// Probe a plain http URL with PLAINTEXT, whose signature is the consumer secret and the
    /// token secret themselves: every request sends them in clear. For a test server on this
    /// machine only.
    #[arg(long)]
    pub(crate) allow_plaintext_over_http: bool,
    /// The last line is JSON: {"verdict": "rfc" | "found" | "none" | "redirected", "causes":
    /// [...], "requests": N}, with "stopped" (the problem a refusal named) or "redirect"
    /// ({"status": N, "location": "…"}) when there is one.
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
    #[serde(skip_serializing_if = "Option::is_none")]
    redirect: Option<JsonRedirect<'a>>,
}

#[derive(Serialize)]
struct JsonRedirect<'a> {
    status: u16,
    location: Option<&'a str>,
}

/// Runs the probe; whether a variant or the exact request was accepted.
pub(crate) fn run(args: ProbeArgs) -> Result<bool, String> {
    let interval = crate::input::seconds("--interval", args.interval, false)?;
    let timeout = crate::input::seconds("--timeout", args.timeout, true)?;
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
    let new = if args.allow_plaintext_over_http {
        Probe::new_allowing_plaintext_over_http
    } else {
        Probe::new
    };
    let mut probe = new(
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
    let host = crate::send::origin(request.url());
    if !args.json {
        say!(
            "probe:      {} {} (at most {} requests, {} s apart, {} s each)",
            request.method(),
            crate::terminal::value(flags.url()),
            args.max_requests,
            args.interval,
            args.timeout
        );
    }
    send_all(&mut probe, (interval, timeout), flags.url(), verbose, &host)?;
    let report = probe.report();
    if args.json {
        let line = JsonLine {
            verdict: report.verdict().as_str(),
            causes: report.causes().iter().map(|c| c.id()).collect(),
            requests: report.requests(),
            stopped: report.stopped(),
            redirect: report.redirect().map(|r| JsonRedirect {
                status: r.status(),
                location: r.location(),
            }),
        };
        let text = serde_json::to_string(&line).map_err(|e| e.to_string())?;
        crate::terminal::line(&crate::terminal::json(&text));
    } else {
        // A profile is offered only if it signs this request: some sign only some requests.
        let refuses = |profile: &Profile| match profile.sign(
            &flags.signer,
            &request,
            &flags.nonce,
            flags.timestamp,
        ) {
            Ok(_) => None,
            Err(oauth1_signer::Error::RefusedByProfile { reason, .. }) => Some(reason.clone()),
            Err(e) => Some(e.to_string()),
        };
        crate::terminal::out(text(&report, args.max_requests, refuses).as_bytes());
    }
    Ok(matches!(
        report.verdict(),
        ProbeVerdict::Rfc | ProbeVerdict::Found
    ))
}

/// Why a request could not be sent or its answer's head read; named by its host only: the
/// request carries a signature that could be replayed.
fn sending_failed(e: reqwest::Error, host: &str, timeout: Duration) -> String {
    if e.is_timeout() {
        format!(
            "{host} did not answer within {} s: the probe stops (--timeout changes the deadline)",
            timeout.as_secs_f64()
        )
    } else {
        format!(
            "sending the request to {host}: {}",
            crate::input::with_causes(&e.without_url())
        )
    }
}

/// A status as a status line shows it: `401 Unauthorized`.
fn status_line(status: u16) -> String {
    reqwest::StatusCode::from_u16(status).map_or_else(|_| status.to_string(), |s| s.to_string())
}

/// Sends the probe's attempts until it is over, `interval` apart, each within `timeout`.
fn send_all(
    probe: &mut Probe<'_>,
    (interval, timeout): (Duration, Duration),
    url: &str,
    verbose: bool,
    host: &str,
) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()
        .map_err(|e| format!("starting the HTTP client: {e}"))?;
    runtime.block_on(async {
        // Redirects are answers: followed, they would be answered for another URL.
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| format!("starting the HTTP client: {e}"))?;
        let mut number = 0;
        while let Some(attempt) = probe.next_attempt().map_err(|e| e.to_string())? {
            if number > 0 {
                tokio::time::sleep(interval).await;
            }
            number += 1;
            let answer = oauth1_reqwest::probe::send_attempt_within(&client, &attempt, timeout)
                .await
                .map_err(|e| sending_failed(e, host, timeout))?;
            if verbose {
                say!(
                    "{number:>3} {:<48} {}",
                    variant(&attempt, url),
                    status_line(answer.status())
                );
            }
            probe.answer(&answer);
        }
        Ok::<(), String>(())
    })?;
    Ok(())
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

/// What a client can send so that a server making `cause` computes as RFC 5849 does: the
/// characters or shapes the mistake changes, left out. `None` where every request is affected.
fn client_side(cause: Cause) -> Option<&'static str> {
    Some(match cause {
        Cause::PlusNotDecoded => "send a space as %20, never as +, in the query and the form body",
        Cause::PlusForSpace => "send no space in parameter names and values",
        Cause::QueryNotDecoded => {
            "send query and form-body names and values with nothing percent-encoded and no +"
        }
        Cause::QueryNamesNotDecoded => "send query names with nothing percent-encoded and no +",
        Cause::UnencodedSubDelims => "send no ! * ' ( ) in parameter names and values",
        Cause::ReservedUnencoded => {
            "send none of / ? : @ , ; = + $ [ ] in parameter names and values"
        }
        Cause::SlashUnencoded => "send no / in parameter names and values",
        Cause::TildeEncoded => "send no ~ in parameter names and values",
        Cause::Latin1NotUtf8 => "send only ASCII in parameter names and values",
        Cause::DuplicatesCollapsed => "send each parameter name once",
        Cause::EmptyValueDropped => "leave out the parameters whose value is empty",
        Cause::ValueCutAtEquals => "percent-encode = in values (%3D)",
        Cause::HostNotLowercased => "write the URL's host (and scheme) in lower case",
        Cause::QueryUtf8EncodedTwice => "send only ASCII in the query",
        Cause::NamesNotEncoded => {
            "send parameter names of letters, digits and - . _ ~ only"
        }
        Cause::PathDecoded => "send a path without percent-escapes",
        Cause::UnescapedQueryEncodedOnce => {
            "send no + ! * ' ( ) in a query that has no percent-escape (a space as %20)"
        }
        Cause::QueryNotSigned | Cause::QueryInBaseUri => {
            "send no query: put the parameters in a form body, where the method allows one"
        }
        Cause::SortedBeforeEncoding => {
            "send parameter names and values of letters, digits and - . _ ~ only, which sort alike encoded or not"
        }
        _ => return None,
    })
}

/// The report in words: the verdict, what it means for the client and for the server's owner.
/// `refuses` says why a profile cannot sign the request probed, if it cannot: such a profile is
/// not offered.
fn text(
    report: &ProbeReport,
    max_requests: usize,
    refuses: impl Fn(&Profile) -> Option<String>,
) -> String {
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
            let profile = Profile::deviating_by(causes);
            let why_not = profile.and_then(&refuses);
            if let (Some(profile), None) = (profile, &why_not) {
                let _ = writeln!(
                    out,
                    "client:     sign as this server computes: --profile {} ({})",
                    profile.name(),
                    profile.provider()
                );
            } else {
                match (profile, why_not) {
                    (Some(profile), Some(why)) => {
                        let _ = writeln!(
                            out,
                            "client:     this server departs from RFC 5849 as the {} profile computes, but that profile cannot sign this request ({why}). Meanwhile a client is accepted when it makes the same mistake, or sends nothing the mistake changes:",
                            profile.name()
                        );
                    }
                    _ => {
                        let _ = writeln!(
                            out,
                            "client:     this server departs from RFC 5849; no profile signs as it does. Ask its owner to fix it; meanwhile a client is accepted when it makes the same mistake, or sends nothing the mistake changes:"
                        );
                    }
                }
                for cause in causes {
                    let _ = writeln!(
                        out,
                        "            {cause}: {}",
                        client_side(*cause).unwrap_or(
                            "no request avoids it: sign as the server computes (the cause above)"
                        )
                    );
                }
            }
            for cause in causes {
                let _ = writeln!(out, "server fix: {}", cause.fix());
            }
        }
        ProbeVerdict::Redirected => {
            let (status, location) = report
                .redirect()
                .map_or((0, None), |r| (r.status(), r.location()));
            let _ = writeln!(
                out,
                "detail:     the server answered {} to request {requests}{}: a redirect is neither acceptance nor refusal, and the signature was not judged at this URL. Probe the URL it points to, if that is the API's (http to https, a trailing slash, another host), not a login page.",
                status_line(status),
                location.map_or_else(
                    || " with no Location".to_owned(),
                    |l| format!(", pointing to {}", crate::terminal::value(l))
                )
            );
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
