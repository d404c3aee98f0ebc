//! `--curl` and `--http`: the request and its protocol parameters from a captured request.

use std::collections::HashMap;
use std::io::Read;

use oauth1_capture::Capture;
use oauth1_signer::encode::decode_form;

use crate::input::SignArgs;

/// The flags filled in from the capture of `--curl` or `--http`, and the `oauth_signature` it
/// carries.
pub(crate) fn into_flags(mut args: SignArgs) -> Result<(SignArgs, Option<String>), String> {
    let (flag, capture) = match args.captured.take() {
        Some((_, capture)) => ("--har", capture),
        None => read(args.curl.as_deref(), args.http.as_ref(), &args.scheme)?,
    };
    let content_type = capture.header("content-type").map(str::to_owned);
    let is_form = capture.has_form_body();
    if let Some(header) = capture.oauth_authorization() {
        let parsed = oauth1_signer::header::Authorization::parse(header)
            .map_err(|e| format!("{flag}: the Authorization header: {e}"))?;
        let filled = fill_from_header(args, &parsed, flag, "the Authorization header")?;
        args = filled.0;
        args.request.set_captured(
            &capture.method,
            capture.url.clone(),
            content_type,
            capture.body.clone(),
        );
        return Ok((args, filled.1));
    }
    // The protocol parameters in the query, or else in a form body: taken out of it, to be
    // signed as the header would carry them (the same base string).
    let (query_protocol, url) = take_protocol(&capture.url, true);
    let (protocol, url, body) = if query_protocol.is_empty() && is_form {
        let body = String::from_utf8(capture.body.clone())
            .map_err(|_| format!("{flag}: the form body is not UTF-8"))?;
        let (form_protocol, body) = take_protocol(&body, false);
        (form_protocol, url, body.into_bytes())
    } else {
        (query_protocol, url, capture.body.clone())
    };
    if protocol.is_empty() {
        return Err(format!(
            "{flag}: the request carries no OAuth parameters: no \"Authorization: OAuth …\" header, and no oauth_ parameters in its query or form body"
        ));
    }
    let filled = fill_protocol(
        args,
        flag,
        "the request",
        |name| protocol.get(name).cloned(),
        None,
    )?;
    args = filled.0;
    args.request
        .set_captured(&capture.method, url, content_type, body);
    Ok((args, filled.1))
}

/// The capture of `--curl` or `--http`, and the flag's name.
pub(crate) fn read(
    curl: Option<&str>,
    http: Option<&std::path::PathBuf>,
    scheme: &str,
) -> Result<(&'static str, Capture), String> {
    let from_stdin = || {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("reading standard input: {e}"))?;
        Ok::<_, String>(bytes)
    };
    if let Some(command) = curl {
        let command = if command == "-" {
            String::from_utf8(from_stdin()?)
                .map_err(|_| "--curl -: standard input is not UTF-8".to_owned())?
        } else {
            command.to_owned()
        };
        let capture = Capture::from_curl(&command).map_err(|e| format!("--curl: {e}"))?;
        return Ok(("--curl", capture));
    }
    let path = http.ok_or("no capture given")?;
    let raw = if path.as_os_str() == "-" {
        from_stdin()?
    } else {
        std::fs::read(path).map_err(|e| format!("--http: reading {}: {e}", path.display()))?
    };
    let capture = Capture::from_http(&raw, scheme).map_err(|e| format!("--http: {e}"))?;
    Ok(("--http", capture))
}

/// The `oauth_*` parameters of a query (in `url`, when `in_url`) or a form body, decoded, and
/// what is left without them, the other parameters as they were written.
fn take_protocol(text: &str, in_url: bool) -> (HashMap<String, Vec<u8>>, String) {
    let (head, pairs) = if in_url {
        let without_fragment = text.split('#').next().unwrap_or_default();
        match without_fragment.split_once('?') {
            Some((head, query)) => (head, query),
            None => return (HashMap::new(), text.to_owned()),
        }
    } else {
        ("", text)
    };
    let mut protocol = HashMap::new();
    let mut kept = Vec::new();
    for pair in pairs.split('&') {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let decoded = decode_form(name.as_bytes());
        match decoded {
            Ok(n) if n.starts_with(b"oauth_") => {
                let name = String::from_utf8_lossy(&n).into_owned();
                let value = decode_form(value.as_bytes())
                    .map_or_else(|_| value.as_bytes().to_vec(), std::borrow::Cow::into_owned);
                protocol.insert(name, value);
            }
            _ => kept.push(pair),
        }
    }
    if protocol.is_empty() {
        return (protocol, text.to_owned());
    }
    let rest = kept.join("&");
    let text = match (in_url, rest.is_empty()) {
        (true, true) => head.to_owned(),
        (true, false) => format!("{head}?{rest}"),
        (false, _) => rest,
    };
    (protocol, text)
}

/// Runs `run` on every entry of the HAR file at `path` that carries OAuth (or entry `entry`),
/// each with its label (`entry N: METHOD URL`), printed above its answer unless `json`. Every
/// entry is tried; the error counts those that failed.
pub(crate) fn each_har_entry<A: Clone>(
    path: &std::path::Path,
    entry: Option<usize>,
    json: bool,
    args: &A,
    mut run: impl FnMut(A, String, Capture) -> Result<(), String>,
) -> Result<(), String> {
    let text = if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("--har -: reading standard input: {e}"))?;
        text
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| format!("--har: reading {}: {e}", path.display()))?
    };
    let entries = Capture::from_har(&text, entry).map_err(|e| format!("--har: {e}"))?;
    let total = entries.len();
    let mut failed = 0;
    for (i, (n, capture)) in entries.into_iter().enumerate() {
        let label = format!("entry {n}: {} {}", capture.method, capture.url);
        if !json {
            if i > 0 {
                println!();
            }
            println!("== {label}");
        }
        if let Err(e) = run(args.clone(), label.clone(), capture) {
            eprintln!("error: {label}: {e}");
            failed += 1;
        }
    }
    match failed {
        0 => Ok(()),
        _ => Err(format!("{failed} of the {total} entries with OAuth failed")),
    }
}

/// The flags with the protocol parameters and realm of a parsed Authorization header, and its
/// `oauth_signature`; `flag` and `place` name it in errors.
pub(crate) fn fill_from_header(
    args: SignArgs,
    header: &oauth1_signer::header::Authorization,
    flag: &str,
    place: &str,
) -> Result<(SignArgs, Option<String>), String> {
    let realm = header.realm().map(str::to_owned);
    fill_protocol(
        args,
        flag,
        place,
        |name| header.get(name).map(<[u8]>::to_vec),
        realm,
    )
}

/// The flags with the protocol parameters that `lookup` finds (decoded), and the
/// `oauth_signature`; `flag` and `place` name where they come from in errors.
pub(crate) fn fill_protocol(
    mut args: SignArgs,
    flag: &str,
    place: &str,
    lookup: impl Fn(&str) -> Option<Vec<u8>>,
    realm: Option<String>,
) -> Result<(SignArgs, Option<String>), String> {
    let text = |name: &str| -> Result<Option<String>, String> {
        lookup(name)
            .map(|v| {
                String::from_utf8(v)
                    .map_err(|_| format!("{flag}: {name} is not UTF-8 once decoded"))
            })
            .transpose()
    };
    let required = |name: &str| -> Result<String, String> {
        text(name)?.ok_or_else(|| format!("{flag}: {place} has no {name}"))
    };
    args.consumer_key = Some(required("oauth_consumer_key")?);
    args.signature_method = required("oauth_signature_method")?;
    args.nonce = Some(required("oauth_nonce")?);
    args.timestamp = Some(required("oauth_timestamp")?);
    args.token = text("oauth_token")?;
    args.callback = text("oauth_callback")?;
    args.verifier = text("oauth_verifier")?;
    args.body_hash = lookup("oauth_body_hash").is_some();
    args.realm = realm;
    match text("oauth_version")?.as_deref() {
        None => args.no_version = true,
        Some("1.0") => {}
        Some(other) => {
            return Err(format!(
                "{flag}: oauth_version is {other:?}: RFC 5849 knows only 1.0"
            ))
        }
    }
    let signature = lookup("oauth_signature").map(|v| String::from_utf8_lossy(&v).into_owned());
    Ok((args, signature))
}
