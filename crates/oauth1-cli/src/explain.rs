//! `oauth1 explain`: why the other side's signature or base string differs.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use oauth1_cases::{explain, explain_answer, ExplainLine, ObservedField, ProfileLine, SchemeLine};
use oauth1_signer::explain::{
    find_base_string, response_cut, take_scheme, Explanation, Observed, Verdict, RESPONSE_SEARCHED,
};
use oauth1_signer::profile::Finding;
use oauth1_signer::Request;

use crate::input::{each_line, SignArgs};
use crate::sign::{sign_verbose, FromFlags};

#[derive(Args, Clone)]
pub(crate) struct ExplainArgs {
    #[command(flatten)]
    pub(crate) sign: SignArgs,
    /// The oauth_signature the other side computed (percent-decoded; base64 for HMAC).
    #[arg(long)]
    pub(crate) observed_signature: Option<String>,
    /// The signature base string the other side built.
    #[arg(long, conflicts_with = "server_response")]
    pub(crate) observed_base_string: Option<String>,
    /// A file holding the server's response body, in which it echoed its base string.
    #[arg(long, value_name = "FILE")]
    pub(crate) server_response: Option<PathBuf>,
    /// Print the answer as one JSON line, the explain line of the request-case format.
    #[arg(long, conflicts_with = "verbose")]
    pub(crate) json: bool,
}

/// The profile line of an answer, if a profile is given or found ([`Finding::find`]).
fn profile_line(
    flags: &FromFlags,
    request: &Request<'_>,
    observed: &Observed<'_>,
    explanation: &Explanation,
) -> Option<ProfileLine> {
    let finding = Finding::find(
        flags.profile,
        explanation,
        (&flags.signer, request),
        (&flags.nonce, flags.timestamp),
        observed,
    )?;
    Some(ProfileLine::new(
        finding.profile().name(),
        finding.reproduces(),
        finding.text().to_owned(),
    ))
}

/// `oauth1 explain --jsonl`.
pub(crate) fn jsonl() -> Result<(), String> {
    each_line(explain_answer)
}

/// `oauth1 explain` with flags: the verdict, the causes in words, and the two base strings;
/// whether the request matched what the other side produced (every entry of a HAR file).
pub(crate) fn one(mut args: ExplainArgs) -> Result<bool, String> {
    if let Some(path) = args.sign.har.take() {
        let json = args.json;
        let mut all_match = true;
        crate::capture::each_har_entry(
            &path,
            args.sign.entry,
            json,
            &args,
            |mut args, label, capture| {
                args.sign.captured = Some((label, capture));
                all_match &= one(args)?;
                Ok(())
            },
        )?;
        return Ok(all_match);
    }
    let label = args.sign.captured.as_ref().map(|(label, _)| label.clone());
    let echoed = match &args.server_response {
        Some(path) => {
            let text = std::fs::read(path)
                .map_err(|e| format!("reading the server response {}: {e}", path.display()))?;
            let text = String::from_utf8_lossy(&text);
            Some(find_base_string(&text).ok_or_else(|| {
                let searched = if response_cut(&text) {
                    format!(
                        " (its first {} KiB were searched: put the part with the base string first)",
                        RESPONSE_SEARCHED / 1024
                    )
                } else {
                    String::new()
                };
                format!(
                    "no base string found in {}{searched}: expected one such as \"GET&https%3A%2F%2F…&…\"",
                    path.display()
                )
            })?)
        }
        None => args.observed_base_string,
    };
    args.observed_base_string = echoed;
    let verbose = args.sign.verbose;
    let json = args.json;
    let mut taken = None;
    let done = match args.sign.http.take() {
        Some(path) if args.sign.scheme.is_none() => {
            let read = crate::capture::read_http_scheme_unknown(&path)?;
            if read.scheme_stated {
                args.sign.read_http = Some(read.capture);
                explained(args)?
            } else {
                // Nothing says the scheme: each reading, and the one that needs no scheme cause.
                let mut http = args.clone();
                http.sign.read_http = Some(read.capture.with_scheme("http"));
                args.sign.read_http = Some(read.capture);
                let (https, http) = (explained(args)?, explained(http)?);
                let (explanation, scheme) = take_scheme(https.explanation, http.explanation);
                taken = Some(scheme);
                let rest = if scheme.scheme() == "http" {
                    http.rest
                } else {
                    https.rest
                };
                Explained { explanation, rest }
            }
        }
        path => {
            args.sign.http = path;
            explained(args)?
        }
    };
    let Explained {
        explanation,
        rest: (flags, observed, profile),
    } = done;
    let matched = explanation.verdict() == Verdict::Match;
    if json {
        let mut line = ExplainLine::of(label.as_deref(), &explanation);
        line.profile = profile;
        line.scheme = taken.map(SchemeLine::from);
        crate::terminal::line(&crate::terminal::json(&line.to_json()));
        return Ok(matched);
    }
    if verbose {
        sign_verbose(&flags, true)?;
        say!();
    }
    // Written whole, then printed (a Vec takes every write).
    let mut out = Vec::new();
    if let Some(taken) = taken {
        let _ = writeln!(
            out,
            "scheme:     {taken} (the request's target does not say it; --scheme gives it)"
        );
    }
    let _ = report(&mut out, &explanation, observed.base_string.as_deref());
    signed_for(&mut out, &explanation, &flags, &observed);
    if let Some(profile) = profile {
        let _ = writeln!(out, "profile:    {}", crate::terminal::value(&profile.text));
    }
    crate::terminal::out(&out);
    Ok(matched)
}

/// For a capture whose `Host` names another host than its URL, nothing else explaining its
/// signature: the line that says the client signed for the host it sent the request to, when
/// it did.
fn signed_for(
    out: &mut Vec<u8>,
    explanation: &Explanation,
    flags: &FromFlags,
    observed: &ObservedField,
) {
    if explanation.verdict() != Verdict::Unexplained {
        return;
    }
    let signed_for = (flags.host_url())
        .filter(|url| (observed.signature.as_deref()).is_some_and(|s| flags.signs_at(url, s)));
    if let Some(url) = signed_for {
        let _ = writeln!(
            out,
            "signed for: {} (the request's Host header), not {}: the client signed the URL of the host it sent the request to; sign the URL as the server reads it, or give explain that URL",
            crate::terminal::value(&url),
            crate::terminal::value(flags.url())
        );
    }
}

/// An explanation, and what was read to make it: the flags, what was observed, the profile.
struct Explained {
    explanation: Explanation,
    rest: (FromFlags, ObservedField, Option<ProfileLine>),
}

/// Reads the flags and explains the request against what the other side produced (the
/// signature the request carries unless another is given, the base string given or echoed).
fn explained(args: ExplainArgs) -> Result<Explained, String> {
    let flags = FromFlags::new(args.sign, false)?;
    // The signature the client sent, unless another is given to compare.
    let observed = ObservedField {
        signature: args
            .observed_signature
            .or_else(|| flags.sent_signature().map(str::to_owned)),
        base_string: args.observed_base_string,
    };
    let request = flags.request().map_err(|e| e.to_string())?;
    let explanation = explain(
        &flags.signer,
        &request,
        (&flags.nonce, flags.timestamp),
        (flags.url(), flags.authorization()),
        &observed,
    )
    .map_err(|e| e.to_string())?;
    let profile = profile_line(&flags, &request, &observed.given(), &explanation);
    drop(request);
    Ok(Explained {
        explanation,
        rest: (flags, observed, profile),
    })
}

/// The explanation as `oauth1 explain` prints it: the verdict, the causes in words, the two
/// base strings and where they first differ.
pub(crate) fn report(
    out: &mut dyn Write,
    explanation: &Explanation,
    observed_base_string: Option<&str>,
) -> std::io::Result<()> {
    let text = report_text(explanation, observed_base_string)
        .map_err(|_| std::io::Error::other("formatting the report"))?;
    out.write_all(crate::terminal::text(&text).as_bytes())
}

/// The text of [`report`]; the other side's base string, which may come from outside (a
/// server's answer, a pasted text), shown escaped.
fn report_text(
    explanation: &Explanation,
    observed_base_string: Option<&str>,
) -> Result<String, std::fmt::Error> {
    use std::fmt::Write as _;
    let mut out = String::new();
    writeln!(&mut out, "verdict:    {}", explanation.verdict())?;
    if explanation.verdict() == Verdict::Explained {
        // The pair's second cause acts together with the first; an alternative reproduces
        // the observed value as well as the cause, alone.
        for (i, cause) in explanation.causes().iter().enumerate() {
            let head = if i == 0 { "cause:" } else { "together:" };
            writeln!(
                &mut out,
                "{head:<11} {cause}: the other side {}",
                cause.what()
            )?;
            writeln!(&mut out, "{:<11} {}", "fix:", cause.fix())?;
        }
        for cause in explanation.alternatives() {
            writeln!(
                &mut out,
                "{:<11} {cause}: the other side {}",
                "equally:",
                cause.what()
            )?;
        }
        let unsigned = explanation.unsigned_parameters();
        if !unsigned.is_empty() {
            let names: Vec<_> = unsigned.iter().map(|n| crate::terminal::value(n)).collect();
            writeln!(&mut out, "{:<11} {}", "unsigned:", names.join(", "))?;
        }
    }
    if explanation.verdict() != Verdict::Explained {
        writeln!(&mut out, "detail:     {}", explanation.detail())?;
    }
    let reference = explanation.reference_base_string().as_str();
    writeln!(&mut out, "reference:  {reference}")?;
    // With only a signature observed, the other side's base string is the one that reproduces
    // it: not observed, but reproduced.
    let (label, theirs) = match (observed_base_string, explanation.reproduced_base_string()) {
        (Some(observed), _) => ("observed", Some(observed)),
        (None, Some(reproduced)) => ("reproduced", Some(reproduced.as_str())),
        (None, None) => ("", None),
    };
    if let Some(theirs) = theirs {
        writeln!(
            &mut out,
            "{:<11} {}",
            format!("{label}:"),
            crate::terminal::value(theirs)
        )?;
    }
    if let (Some(theirs), Some(difference)) = (theirs, explanation.difference()) {
        writeln!(&mut out, "difference: {difference}")?;
        let at = difference.offset();
        let from = floor(reference, at.saturating_sub(40));
        let prefix = if from > 0 { "…" } else { "" };
        writeln!(&mut out, "  reference  {prefix}{}", window(reference, from))?;
        writeln!(
            &mut out,
            "  {label:<10} {prefix}{}",
            crate::terminal::value(&window(theirs, from))
        )?;
        let caret = reference[from..floor(reference, at)].chars().count() + prefix.chars().count();
        writeln!(&mut out, "  {:<10} {}^", "", " ".repeat(caret))?;
    }
    Ok(out)
}

/// Up to 80 characters of `text` from byte `from`.
fn window(text: &str, from: usize) -> String {
    let from = floor(text, from);
    let rest = &text[from..];
    let shown: String = rest.chars().take(80).collect();
    if shown.len() < rest.len() {
        format!("{shown}…")
    } else {
        shown
    }
}

/// The largest character boundary of `text` at or before `at`.
fn floor(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}
