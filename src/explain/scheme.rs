//! [`take_scheme`]: the scheme of a request whose capture does not say it.

use std::fmt;

use super::{Cause, Explanation, Verdict};

/// Why [`take_scheme`] took a scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SchemeReason {
    /// What the other side produced matches the request read with this scheme.
    Matches,
    /// With this scheme the mismatch is explained without `scheme-changed`; with the other,
    /// only with it, or not at all.
    ExplainedWithout,
    /// Neither reading tells them apart: https, the likelier, is assumed.
    Assumed,
}

impl SchemeReason {
    /// `matches`, `explained-without` or `assumed`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            SchemeReason::Matches => "matches",
            SchemeReason::ExplainedWithout => "explained-without",
            SchemeReason::Assumed => "assumed",
        }
    }
}

/// The scheme [`take_scheme`] took, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SchemeTaken {
    scheme: &'static str,
    reason: SchemeReason,
    observed_what: &'static str,
}

impl SchemeTaken {
    /// `http` or `https`.
    #[must_use]
    pub fn scheme(&self) -> &'static str {
        self.scheme
    }

    /// Why.
    #[must_use]
    pub fn reason(&self) -> SchemeReason {
        self.reason
    }

    /// Why, in words: the part after `http: ` in `http: the signature matches it`.
    #[must_use]
    pub fn why(&self) -> String {
        let what = self.observed_what;
        let other = if self.scheme == "http" {
            "https"
        } else {
            "http"
        };
        match self.reason {
            SchemeReason::Matches => format!("the {what} matches it"),
            SchemeReason::ExplainedWithout => format!(
                "the {what} is explained with it as it is, and with {other} only if the scheme changed too"
            ),
            SchemeReason::Assumed => format!(
                "assumed: the capture does not say the scheme, and the {what} does not tell http from https"
            ),
        }
    }
}

impl fmt::Display for SchemeTaken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.scheme, self.why())
    }
}

/// Of the explanations of one request read as `https` and as `http`, when nothing in its
/// capture says which (a raw HTTP request whose target is a path, as servers log it), the one
/// that needs no scheme cause: the reading whose reference the other side's value matches,
/// else the one that explains it without [`Cause::SchemeChanged`] where the other needs it or
/// explains nothing; else https, said to be assumed. Taking https alone would invent a
/// `scheme-changed` for every request signed for http.
///
/// ```
/// use oauth1_signer::explain::{take_scheme, Explainer, Observed, SchemeReason, Verdict};
/// use oauth1_signer::{Consumer, Nonce, Request, Signer, Timestamp};
///
/// let signer = Signer::new(Consumer::new("key", "secret"));
/// let (nonce, time) = (Nonce::new("n")?, Timestamp::new(1_700_000_000));
/// // A client signed the request for http; the capture said only "GET /x?q=a", "Host: h".
/// let sent = signer.sign(&Request::new("GET", "http://h/x?q=a")?, &nonce, time)?;
/// let observed = Observed::signature(sent.signature().as_str());
/// let explain = |url: &str| {
///     let request = Request::new("GET", url)?;
///     Explainer::new(&signer, &request, &nonce, time).with_url_as_written(url).explain(&observed)
/// };
/// let (explanation, taken) = take_scheme(explain("https://h/x?q=a")?, explain("http://h/x?q=a")?);
/// assert_eq!(explanation.verdict(), Verdict::Match);
/// assert_eq!((taken.scheme(), taken.reason()), ("http", SchemeReason::Matches));
/// assert_eq!(taken.to_string(), "http: the signature matches it");
/// # Ok::<(), oauth1_signer::explain::ExplainError>(())
/// ```
#[must_use]
pub fn take_scheme(https: Explanation, http: Explanation) -> (Explanation, SchemeTaken) {
    let observed_what = https.observed_what;
    let taken = |scheme, reason| SchemeTaken {
        scheme,
        reason,
        observed_what,
    };
    let without = |e: &Explanation| {
        e.verdict() == Verdict::Explained
            && !e.causes().contains(&Cause::SchemeChanged)
            && !e.alternatives().contains(&Cause::SchemeChanged)
    };
    if https.verdict() == Verdict::Match {
        (https, taken("https", SchemeReason::Matches))
    } else if http.verdict() == Verdict::Match {
        (http, taken("http", SchemeReason::Matches))
    } else if without(&https) && !without(&http) {
        (https, taken("https", SchemeReason::ExplainedWithout))
    } else if without(&http) && !without(&https) {
        (http, taken("http", SchemeReason::ExplainedWithout))
    } else {
        (https, taken("https", SchemeReason::Assumed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::credentials::{Consumer, Nonce, Timestamp, Token};
    use crate::explain::{Explainer, Observed};
    use crate::request::{Request, Signer};

    fn signer() -> Signer {
        Signer::new(Consumer::new("ck", "cs")).with_token(Token::new("tk", "ts"))
    }

    /// The explanations of `observed` for `path_and_query` at h.example read as https and as
    /// http.
    fn both(observed: &Observed<'_>, path_and_query: &str) -> (Explanation, Explanation) {
        let signer = signer();
        let nonce = Nonce::new("n").unwrap();
        let explain = |scheme: &str| {
            let url = format!("{scheme}://h.example{path_and_query}");
            let request = Request::new("GET", &url).unwrap();
            Explainer::new(&signer, &request, &nonce, Timestamp::new(1_700_000_000))
                .with_url_as_written(&url)
                .explain(observed)
                .unwrap()
        };
        (explain("https"), explain("http"))
    }

    /// The signature a client makes for `url` with `causes`.
    fn signed(url: &str, causes: &[Cause]) -> String {
        let signer = signer();
        let request = Request::new("GET", url).unwrap();
        let nonce = Nonce::new("n").unwrap();
        let (_, signature) =
            Explainer::new(&signer, &request, &nonce, Timestamp::new(1_700_000_000))
                .with_url_as_written(url)
                .reproduce(causes)
                .unwrap();
        signature.unwrap().as_str().to_owned()
    }

    #[test]
    fn the_scheme_signed_for_is_taken_with_or_without_a_deviation() {
        for scheme in ["http", "https"] {
            let url = format!("{scheme}://h.example/x?q=a+b");
            // Exactly as RFC 5849 says: a match, with no cause.
            let exact = signed(&url, &[]);
            let (https, http) = both(&Observed::signature(&exact), "/x?q=a+b");
            let (explanation, taken) = take_scheme(https, http);
            assert_eq!(explanation.verdict(), Verdict::Match, "{scheme}");
            assert_eq!(
                (taken.scheme(), taken.reason()),
                (scheme, SchemeReason::Matches)
            );
            // With a deviation: that cause alone, never scheme-changed.
            let plus = signed(&url, &[Cause::PlusForSpace]);
            let (https, http) = both(&Observed::signature(&plus), "/x?q=a+b");
            let (explanation, taken) = take_scheme(https, http);
            assert_eq!(explanation.verdict(), Verdict::Explained, "{scheme}");
            assert!(
                !explanation.causes().contains(&Cause::SchemeChanged),
                "{scheme}: {:?}",
                explanation.causes()
            );
            assert!(explanation.causes().contains(&Cause::PlusForSpace));
            assert_eq!(
                (taken.scheme(), taken.reason()),
                (scheme, SchemeReason::ExplainedWithout)
            );
        }
    }

    #[test]
    fn nothing_to_tell_them_apart_is_https_assumed() {
        // Another secret: neither reading explains it.
        let other = Signer::new(Consumer::new("ck", "other")).with_token(Token::new("tk", "ts"));
        let request = Request::new("GET", "http://h.example/x").unwrap();
        let nonce = Nonce::new("n").unwrap();
        let sent = other
            .sign(&request, &nonce, Timestamp::new(1_700_000_000))
            .unwrap();
        let (https, http) = both(&Observed::signature(sent.signature().as_str()), "/x");
        let (explanation, taken) = take_scheme(https, http);
        assert_eq!(explanation.verdict(), Verdict::Unexplained);
        assert_eq!(
            (taken.scheme(), taken.reason()),
            ("https", SchemeReason::Assumed)
        );
        assert!(taken.to_string().starts_with("https: assumed"));
    }
}
