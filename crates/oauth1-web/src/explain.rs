//! Why the other side's signature differs: `oauth1 explain` on a paste.

use oauth1_capture::{check_url, Capture, Protocol};
use oauth1_signer::explain::{
    find_base_string, response_cut, take_scheme, Explanation, Part, Verdict, RESPONSE_SEARCHED,
};
use oauth1_signer::profile::Finding;
use oauth1_signer::{Nonce, Timestamp};
use serde::{Deserialize, Serialize};

use crate::pasted::{EntryAnswer, Har, Kind, Pasted, NOTHING};
use crate::sign::signer;
use crate::stages::{stages, Stages};

/// What the page sends to explain: the paste, and the secrets.
#[derive(Default, Deserialize)]
#[serde(default)]
pub struct ExplainInput {
    /// The paste and the request fields beside it.
    #[serde(flatten)]
    pub pasted: Pasted,
    /// The consumer secret.
    pub consumer_secret: String,
    /// The token secret (empty without a token).
    pub token_secret: String,
    /// The RSA private key (PEM), for the RSA methods.
    pub private_key_pem: String,
    /// The server's 401 body, in which many servers echo their base string; may be empty.
    pub server_response: String,
}

/// What the page shows of an explanation.
#[derive(Debug, Default, Serialize)]
pub struct ExplainAnswer {
    /// `match`, `explained`, `unexplained`, or `error`.
    pub verdict: &'static str,
    /// What was pasted: `curl`, `http`, `har`, `authorization`, or empty.
    pub kind: &'static str,
    /// The explanation: one cause, or the two or three that act together ([`pair`](Self::pair)).
    pub causes: Vec<CauseAnswer>,
    /// Other single causes that reproduce the other side's value as well, the likelier first.
    pub alternatives: Vec<CauseAnswer>,
    /// Whether the causes act together (a pair), rather than each alone.
    pub pair: bool,
    /// For a match or no explanation: what was compared and what to try next.
    pub detail: String,
    /// For an error: what is wrong and what to do.
    pub error: String,
    /// Every stage of signing the request as RFC 5849 says; none for an error.
    pub stages: Option<Stages>,
    /// The RFC 5849 base string of the request.
    pub reference_base_string: String,
    /// The other side's base string: `observed` (from its response) or `reproduced` (the one
    /// that gives its signature); empty when neither.
    pub their_base_string: String,
    /// `observed`, `reproduced`, or empty.
    pub their_label: &'static str,
    /// Where the two base strings first differ, if they do.
    pub difference: Option<DifferenceAnswer>,
    /// With a HAR file: its entries that carry OAuth.
    pub entries: Vec<EntryAnswer>,
    /// With a HAR file: the entry explained.
    pub entry: Option<usize>,
    /// The provider profile the answer names, if any ([`Finding::find`]).
    pub profile: Option<ProfileAnswer>,
    /// For a raw HTTP request whose target does not say its scheme (none chosen): the scheme
    /// taken, and why ([`take_scheme`]).
    pub scheme: Option<SchemeAnswer>,
}

/// The scheme taken for a request whose capture does not say it.
#[derive(Debug, Serialize)]
pub struct SchemeAnswer {
    /// `http` or `https`.
    pub taken: &'static str,
    /// `matches`, `explained-without` or `assumed`.
    pub reason: &'static str,
    /// Why, in words.
    pub detail: String,
}

/// A provider profile named by an answer.
#[derive(Debug, Serialize)]
pub struct ProfileAnswer {
    /// Its name (`mastercard`, `woocommerce`, …).
    pub name: &'static str,
    /// Whether the other side computes as it does.
    pub reproduces: bool,
    /// The finding in words, as `oauth1 explain` prints it.
    pub text: String,
}

/// A cause, as the command line prints it.
#[derive(Debug, Serialize)]
pub struct CauseAnswer {
    /// The cause's id in the mismatch vocabulary.
    pub id: &'static str,
    /// What the other side did.
    pub what: &'static str,
    /// How to fix it.
    pub fix: &'static str,
}

impl CauseAnswer {
    fn of(cause: oauth1_signer::explain::Cause) -> Self {
        CauseAnswer {
            id: cause.id(),
            what: cause.what(),
            fix: cause.fix(),
        }
    }
}

/// The first difference between the reference and the other side's base string.
#[derive(Debug, Serialize)]
pub struct DifferenceAnswer {
    /// Its byte offset, the same in both.
    pub offset: usize,
    /// The same offset in UTF-16 code units, as JavaScript indexes strings.
    pub offset_utf16: usize,
    /// The part: `method`, `URI`, `parameters` or `shape`.
    pub part: String,
    /// What differs, in words.
    pub summary: String,
    /// In the parameters: the position, in [`Stages::parameters`], of the reference's
    /// parameter in which they first differ; none when they differ after the last.
    pub parameter: Option<usize>,
}

/// The position of the parameter of `base_string` (a reference base string) in which byte
/// `offset` lies, counted in its third part: `name%3Dvalue` pairs joined by `%26`. A difference
/// on a separator belongs to the pair after it.
fn parameter_at(base_string: &str, offset: usize) -> Option<usize> {
    let mut parts = base_string.splitn(3, '&');
    let start = parts.next()?.len() + 1 + parts.next()?.len() + 1;
    let third = parts.next()?;
    let at = offset.checked_sub(start)?;
    let mut from = 0;
    for (i, pair) in third.split("%26").enumerate() {
        let end = from + pair.len();
        if at < end {
            return Some(i);
        }
        // The separator after this pair, if one follows, counts for the next pair.
        from = end + 3;
        if at < from && end < third.len() {
            return Some(i + 1);
        }
    }
    None
}

fn failed(kind: &'static str, error: String) -> ExplainAnswer {
    ExplainAnswer {
        verdict: "error",
        kind,
        error,
        ..ExplainAnswer::default()
    }
}

/// Explains a paste.
pub(crate) fn answer(input: &ExplainInput) -> ExplainAnswer {
    if input.pasted.capture.trim().is_empty() {
        return failed("", NOTHING.to_owned());
    }
    let kind = input.pasted.kind();
    let mut har = Har::default();
    let read = input.pasted.read(kind, &mut har).and_then(|read| {
        let what = |e| format!("{}: {e}", kind.what());
        let unknown = read.scheme_unknown;
        match &read.header {
            Some(header) => Protocol::from_authorization(header)
                .map(|protocol| (read.capture, protocol))
                .map_err(what),
            None => read.capture.protocol().map_err(what),
        }
        .map(|(capture, protocol)| (capture, protocol, unknown))
    });
    let mut answer = match read {
        Ok((capture, protocol, false)) => explained(kind, input, &capture, &protocol),
        Ok((capture, protocol, true)) => scheme_unknown(kind, input, &capture, &protocol),
        Err(e) => failed(kind.as_str(), e),
    };
    answer.entries = har.entries;
    answer.entry = har.entry;
    answer
}

/// The answer for a raw request whose target does not say its scheme: explained as read with
/// https (`capture`) and with http, the reading that needs no scheme cause kept
/// ([`take_scheme`]).
fn scheme_unknown(
    kind: Kind,
    input: &ExplainInput,
    capture: &Capture,
    protocol: &Protocol,
) -> ExplainAnswer {
    let as_http = capture.with_scheme("http");
    let (secure, plain) = match (
        explain_read(input, capture, protocol),
        explain_read(input, &as_http, protocol),
    ) {
        (Ok(secure), Ok(plain)) => (secure, plain),
        (Err(e), _) | (_, Err(e)) => return failed(kind.as_str(), e),
    };
    let (explanation, taken) = take_scheme(secure.0, plain.0);
    let rest = if taken.scheme() == "http" {
        plain.1
    } else {
        secure.1
    };
    let mut answer = answer_of(kind, (explanation, rest));
    answer.scheme = Some(SchemeAnswer {
        taken: taken.scheme(),
        reason: taken.reason().as_str(),
        detail: taken.why(),
    });
    answer
}

/// The answer for a request read, or the error that stops it.
fn explained(
    kind: Kind,
    input: &ExplainInput,
    capture: &Capture,
    protocol: &Protocol,
) -> ExplainAnswer {
    match explain_read(input, capture, protocol) {
        Ok(done) => answer_of(kind, done),
        Err(e) => failed(kind.as_str(), e),
    }
}

/// What was explained, as the page shows it.
type Done = (Explanation, (Stages, Option<String>, Option<ProfileAnswer>));

/// The answer for an explanation made.
fn answer_of(kind: Kind, (explanation, (stages, observed, profile)): Done) -> ExplainAnswer {
    let (label, theirs) = match (&observed, explanation.reproduced_base_string()) {
        (Some(observed), _) => ("observed", observed.clone()),
        (None, Some(reproduced)) => ("reproduced", reproduced.to_string()),
        (None, None) => ("", String::new()),
    };
    let reference = explanation.reference_base_string().to_string();
    let difference = explanation.difference().map(|d| DifferenceAnswer {
        offset: d.offset(),
        offset_utf16: reference
            .get(..d.offset())
            .map_or(0, |s| s.encode_utf16().count()),
        part: d.part().to_string(),
        summary: d.summary().to_owned(),
        parameter: if d.part() == Part::Parameters {
            parameter_at(&reference, d.offset()).filter(|&i| stages.parameters.len() > i)
        } else {
            None
        },
    });
    ExplainAnswer {
        verdict: explanation.verdict().as_str(),
        kind: kind.as_str(),
        causes: explanation
            .causes()
            .iter()
            .copied()
            .map(CauseAnswer::of)
            .collect(),
        alternatives: explanation
            .alternatives()
            .iter()
            .copied()
            .map(CauseAnswer::of)
            .collect(),
        pair: explanation.is_pair(),
        detail: if explanation.verdict() == Verdict::Explained {
            String::new()
        } else {
            explanation.detail()
        },
        error: String::new(),
        stages: Some(stages),
        reference_base_string: reference,
        their_base_string: theirs,
        their_label: label,
        difference,
        entries: Vec::new(),
        entry: None,
        profile,
        scheme: None,
    }
}

/// Signs the request with the typed secrets and explains it against what the other side
/// produced: the signature the request carries, and the base string its response echoed.
fn explain_read(
    input: &ExplainInput,
    capture: &Capture,
    protocol: &Protocol,
) -> Result<Done, String> {
    let text = |e: oauth1_signer::Error| e.to_string();
    let observed_base_string = if input.server_response.trim().is_empty() {
        None
    } else {
        Some(find_base_string(&input.server_response).ok_or_else(|| {
            let searched = if response_cut(&input.server_response) {
                format!(
                    " (its first {} KiB were searched: paste the part with the base string)",
                    RESPONSE_SEARCHED / 1024
                )
            } else {
                String::new()
            };
            format!(
                "no base string found in the server's response{searched}: expected one such as \"GET&https%3A%2F%2F…&…\", or leave the response empty"
            )
        })?)
    };
    let signer = signer(
        protocol,
        &input.consumer_secret,
        &input.token_secret,
        &input.private_key_pem,
    )?;
    // What is wrong with the URL is said with it, as the command line says it.
    check_url(&capture.url).map_err(|e| e.to_string())?;
    let request = protocol.request(capture).map_err(text)?;
    let nonce = Nonce::new(protocol.nonce.clone().unwrap_or_default()).map_err(text)?;
    let timestamp: Timestamp = protocol
        .timestamp
        .as_deref()
        .unwrap_or_default()
        .parse()
        .map_err(text)?;
    // The reference signs a form's parameters and sends no body hash with it, whatever the
    // other side sent (the diagnosis names that mistake: form-body-hashed).
    let reference = if request.has_form_body() {
        signer.clone().with_body_hash(oauth1_signer::BodyHash::Omit)
    } else {
        signer.clone()
    };
    let done = reference.sign(&request, &nonce, timestamp).map_err(text)?;
    let stages = stages(&done, &request.base_uri().map_err(text)?, &reference);

    // Explained as `oauth1 explain` explains it: the header's own parameters collected, and a
    // request a verifier refuses before its signature said so.
    let observed = oauth1_cases::ObservedField {
        signature: protocol.signature.clone(),
        base_string: observed_base_string.clone(),
    };
    let given = observed.given();
    let explanation = oauth1_cases::explain(
        &signer,
        &request,
        (&nonce, timestamp),
        (&capture.url, protocol.authorization.as_deref()),
        &observed,
    )
    .map_err(|e| e.to_string())?;
    let profile = Finding::find(
        None,
        &explanation,
        (&signer, &request),
        (&nonce, timestamp),
        &given,
    )
    .map(|finding| ProfileAnswer {
        name: finding.profile().name(),
        reproduces: finding.reproduces(),
        text: finding.text().to_owned(),
    });
    Ok((explanation, (stages, observed_base_string, profile)))
}

#[cfg(test)]
mod tests {
    use super::parameter_at;

    // RFC 5849 §3.4.1.1's base string, shortened: "b5=%3D%253D&a3=a&c%40=&a2=r%20b" normalized.
    const BASE: &str = "POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D";

    #[test]
    fn the_pair_a_byte_lies_in() {
        let third = BASE.find("a2%3D").unwrap();
        assert_eq!(parameter_at(BASE, third), Some(0));
        assert_eq!(parameter_at(BASE, BASE.find("r%2520b").unwrap()), Some(0));
        assert_eq!(parameter_at(BASE, BASE.find("a3%3D").unwrap()), Some(1));
        // The separator before a pair is that pair's.
        assert_eq!(parameter_at(BASE, BASE.find("%26a3").unwrap()), Some(1));
        assert_eq!(parameter_at(BASE, BASE.find("c%2540").unwrap()), Some(3));
        assert_eq!(parameter_at(BASE, BASE.len() - 1), Some(3));
        // After the last pair, or before the parameters: none.
        assert_eq!(parameter_at(BASE, BASE.len()), None);
        assert_eq!(parameter_at(BASE, 3), None);
    }
}
