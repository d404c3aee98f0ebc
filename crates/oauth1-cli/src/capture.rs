//! `--curl`, `--http` and `--har`: captured requests read from the command line, standard
//! input or files.

use std::io::Read;

use oauth1_capture::{Capture, HttpRead};

/// The capture of `--curl` or `--http`, and the flag's name; `body_file` (`--body-file`) is
/// the body of a `--curl` command, in place of its data.
pub(crate) fn read(
    curl: Option<&str>,
    http: Option<&std::path::PathBuf>,
    scheme: &str,
    body_file: Option<&std::path::PathBuf>,
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
        let read = match body_file {
            Some(path) => Capture::from_curl_with_body(
                &command,
                std::fs::read(path)
                    .map_err(|e| format!("reading the body file {}: {e}", path.display()))?,
            ),
            None => Capture::from_curl(&command),
        };
        // A pasted command is data: a file it names is never read.
        let capture = read.map_err(|e| match e.file() {
            Some(_) => format!("--curl: {e}: give the body itself with --body-file FILE"),
            None => format!("--curl: {e}"),
        })?;
        return Ok(("--curl", capture));
    }
    let raw = raw_http(http.ok_or("no capture given")?)?;
    let capture = Capture::from_http(&raw, scheme).map_err(|e| format!("--http: {e}"))?;
    Ok(("--http", capture))
}

/// The raw request of `--http FILE` (`-`: standard input), read when nothing but the request
/// says its scheme.
pub(crate) fn read_http_scheme_unknown(path: &std::path::Path) -> Result<HttpRead, String> {
    Capture::from_http_scheme_unknown(&raw_http(path)?).map_err(|e| format!("--http: {e}"))
}

/// The bytes of `--http FILE`, or of standard input for `-`.
fn raw_http(path: &std::path::Path) -> Result<Vec<u8>, String> {
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("reading standard input: {e}"))?;
        Ok(bytes)
    } else {
        std::fs::read(path).map_err(|e| format!("--http: reading {}: {e}", path.display()))
    }
}

/// Runs `run` on every entry of the HAR file at `path` that carries OAuth (or entry `entry`),
/// each with its label (`entry N: METHOD URL`), printed above its answer unless `json`. Every
/// entry is tried; the error counts those that failed.
/// The entries of the HAR file at `path` (`-`: standard input) that carry OAuth, or entry
/// `entry` alone, each with its number.
pub(crate) fn har_entries(
    path: &std::path::Path,
    entry: Option<usize>,
) -> Result<Vec<(usize, Capture)>, String> {
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
    Capture::from_har(&text, entry).map_err(|e| format!("--har: {e}"))
}

pub(crate) fn each_har_entry<A: Clone>(
    path: &std::path::Path,
    entry: Option<usize>,
    json: bool,
    args: &A,
    mut run: impl FnMut(A, String, Capture) -> Result<(), String>,
) -> Result<(), String> {
    let entries = har_entries(path, entry)?;
    let total = entries.len();
    let mut failed = 0;
    for (i, (n, capture)) in entries.into_iter().enumerate() {
        // The method and URL are the capture's: shown escaped.
        let label = format!(
            "entry {n}: {} {}",
            crate::terminal::value(&capture.method),
            crate::terminal::value(&capture.url)
        );
        if !json {
            if i > 0 {
                say!();
            }
            say!("== {label}");
        }
        if let Err(e) = run(args.clone(), label.clone(), capture) {
            tell!("error: {label}: {e}");
            failed += 1;
        }
    }
    match failed {
        0 => Ok(()),
        _ => Err(format!("{failed} of the {total} entries with OAuth failed")),
    }
}
