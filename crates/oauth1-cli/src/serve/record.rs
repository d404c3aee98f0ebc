//! What `oauth1 serve` writes of each request: a line on the terminal, from a thread of its
//! own, and the times the lines and the log carry.

/// The terminal's lines, one a request, written by a thread of their own: a standard output
/// that nobody reads (a test harness that read the first line only) fills its pipe and
/// blocks that thread, never a request. Past [`LINES_WAITING`] lines waiting, more are
/// dropped.
#[derive(Clone)]
pub(crate) struct Lines(std::sync::mpsc::SyncSender<String>);

/// The most lines waiting for the terminal.
const LINES_WAITING: usize = 1024;

impl Lines {
    /// The lines' writer, and what tells when it has written the last one (once every
    /// `Lines` is dropped).
    pub(crate) fn start() -> (Lines, std::sync::mpsc::Receiver<()>) {
        let (lines, waiting) = std::sync::mpsc::sync_channel::<String>(LINES_WAITING);
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in waiting {
                say!("{line}");
            }
            let _ = done.send(());
        });
        (Lines(lines), finished)
    }

    /// Writes `line`, unless too many wait.
    pub(crate) fn say(&self, line: String) {
        let _ = self.0.try_send(line);
    }
}

/// A request target with the values of its query's `oauth_signature` and `oauth_verifier`
/// left out (`…`): a PLAINTEXT signature is the secrets themselves, and a verifier, with the
/// temporary credentials, gets token credentials; neither the terminal nor the log shows
/// them. Names are matched as a decoder reads them (`oauth%5Fsignature`).
pub(super) fn without_secrets(target: &str) -> std::borrow::Cow<'_, str> {
    let Some((path, query)) = target.split_once('?') else {
        return std::borrow::Cow::Borrowed(target);
    };
    let secret = |pair: &str| {
        let name = pair.split('=').next().unwrap_or("");
        url::form_urlencoded::parse(name.as_bytes())
            .next()
            .is_some_and(|(name, _)| name == "oauth_signature" || name == "oauth_verifier")
    };
    if !query.split('&').any(secret) {
        return std::borrow::Cow::Borrowed(target);
    }
    let pairs: Vec<String> = query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, _)) if secret(pair) => format!("{name}=…"),
            _ => pair.to_owned(),
        })
        .collect();
    std::borrow::Cow::Owned(format!("{path}?{}", pairs.join("&")))
}

/// `hh:mm:ss` (UTC) of `seconds` since the epoch.
pub(super) fn clock(seconds: u64) -> String {
    let day = seconds % 86_400;
    format!("{:02}:{:02}:{:02}", day / 3600, day / 60 % 60, day % 60)
}

/// `seconds` since the epoch as RFC 3339 (UTC), by the civil-from-days rule of the
/// proleptic Gregorian calendar.
pub(super) fn rfc3339(seconds: u64) -> String {
    let days = i64::try_from(seconds / 86_400).unwrap_or(0) + 719_468;
    let era = days.div_euclid(146_097);
    let of_era = days.rem_euclid(146_097);
    let year_of_era = (of_era - of_era / 1460 + of_era / 36_524 - of_era / 146_096) / 365;
    let day_of_year = of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{}Z", clock(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_or_a_verifier_in_the_query_is_left_out() {
        for (target, shown) in [
            ("/x", "/x"),
            ("/x?a=1", "/x?a=1"),
            (
                "/x?a=1&oauth_signature=cs%26ts&b=2",
                "/x?a=1&oauth_signature=…&b=2",
            ),
            ("/x?oauth%5Fsignature=cs%26ts", "/x?oauth%5Fsignature=…"),
            (
                "/x?oauth_signature_method=PLAINTEXT",
                "/x?oauth_signature_method=PLAINTEXT",
            ),
            ("/x?q=oauth_signature", "/x?q=oauth_signature"),
            (
                "/oauth/access_token?oauth_verifier=v3r1f1er&oauth_token=t",
                "/oauth/access_token?oauth_verifier=…&oauth_token=t",
            ),
        ] {
            assert_eq!(without_secrets(target), shown, "{target}");
        }
    }

    /// Dates from Python's `datetime.fromtimestamp(s, timezone.utc).isoformat()`.
    #[test]
    fn times_are_written_as_rfc3339() {
        for (seconds, written) in [
            (0, "1970-01-01T00:00:00Z"),
            (951_782_400, "2000-02-29T00:00:00Z"),
            (1_318_622_958, "2011-10-14T20:09:18Z"),
            (1_800_000_000, "2027-01-15T08:00:00Z"),
            (4_107_542_399, "2100-02-28T23:59:59Z"),
        ] {
            assert_eq!(rfc3339(seconds), written, "{seconds}");
        }
    }
}
