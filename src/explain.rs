//! Why two signatures differ: the other side's signature or base string explained by the
//! mistake that reproduces it exactly.
//!
//! Every [`Cause`] is one switch on one stage of this crate's signing pipeline (a deliberately
//! wrong encoder, sort, URI rule, key, ...). [`Explainer::explain`] computes the reference,
//! then tries every cause alone, every pair of causes, the request without each of its query
//! and form-body parameters in turn ([`Cause::ParameterNotSigned`]) and, last, three causes
//! together, within a [`Budget`] of cost, and answers [`Verdict::Match`],
//! [`Verdict::Explained`] with the causes that reproduce the observed value, or
//! [`Verdict::Unexplained`]. When a base string was observed, [`compare`] says where it first
//! differs from the reference, part by part.
//!
//! A worked example: a client signs a status update whose text has a space, and the server
//! answers 401 and echoes the base string it built.
//!
//! ```
//! use oauth1_signer::explain::{Cause, Explainer, Observed, Verdict};
//! use oauth1_signer::{Consumer, Nonce, Request, Signer, Timestamp, Token};
//!
//! let signer = Signer::new(Consumer::new("xvz1evFS4wEEPTGEFPHBog", "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw"))
//!     .with_token(Token::new("370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE"));
//! let url = "https://api.x.com/1.1/statuses/update.json?include_entities=true";
//! let body = b"status=Hello%20Ladies%20%2B%20Gentlemen%2C%20a%20signed%20OAuth%20request%21";
//! let request = Request::new("POST", url)?.with_form_body(body);
//! let nonce = Nonce::new("kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg")?;
//! let explainer = Explainer::new(&signer, &request, &nonce, Timestamp::new(1318622958))
//!     .with_url_as_written(url);
//!
//! // The server's 401 body said: "base_string: POST&https%3A%2F%2Fapi.x.com…"
//! let observed = "POST&https%3A%2F%2Fapi.x.com%2F1.1%2Fstatuses%2Fupdate.json&include_entities%3Dtrue%26\
//!     oauth_consumer_key%3Dxvz1evFS4wEEPTGEFPHBog%26oauth_nonce%3DkYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg%26\
//!     oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1318622958%26\
//!     oauth_token%3D370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb%26oauth_version%3D1.0%26\
//!     status%3DHello%2BLadies%2B%252B%2BGentlemen%252C%2Ba%2Bsigned%2BOAuth%2Brequest%2521";
//! let explanation = explainer.explain(&Observed::base_string(observed))?;
//!
//! assert_eq!(explanation.verdict(), Verdict::Explained);
//! assert_eq!(explanation.causes(), [Cause::PlusForSpace]);
//! assert_eq!(explanation.difference().unwrap().part(), oauth1_signer::explain::Part::Parameters);
//! println!("{}", explanation.detail());
//! # Ok::<(), oauth1_signer::explain::ExplainError>(())
//! ```

mod budget;
mod cause;
mod compare;
mod error;
mod php;
mod probe;
mod scheme;
pub(crate) mod variant;
mod wrong;

use std::fmt::{self, Write};

use zeroize::Zeroizing;

use budget::Meter;
pub use budget::{Budget, Searched};
pub use cause::Cause;
pub use compare::{compare, Difference, Part};
pub use error::ExplainError;
pub use probe::{Probe, ProbeAnswer, ProbeAttempt, ProbeRedirect, ProbeReport, ProbeVerdict};
pub use scheme::{take_scheme, SchemeReason, SchemeTaken};
use variant::{Context, Switches, EXCLUSIVE};

use crate::base_string::BaseString;
use crate::credentials::{Nonce, Timestamp};
use crate::error::Error;
use crate::request::{Request, Signer};
use crate::sign::Signature;

/// What the other side produced: its signature (decoded, as in `oauth_signature` after
/// percent-decoding), its base string, or both.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Observed<'a> {
    signature: Option<&'a str>,
    base_string: Option<&'a str>,
}

impl<'a> Observed<'a> {
    /// The other side's signature only.
    #[must_use]
    pub fn signature(signature: &'a str) -> Self {
        Observed {
            signature: Some(signature),
            base_string: None,
        }
    }

    /// The other side's base string only (many servers echo it in their 401 body).
    #[must_use]
    pub fn base_string(base_string: &'a str) -> Self {
        Observed {
            signature: None,
            base_string: Some(base_string),
        }
    }

    /// Adds the other side's signature.
    #[must_use]
    pub fn with_signature(mut self, signature: &'a str) -> Self {
        self.signature = Some(signature);
        self
    }

    /// Adds the other side's base string.
    #[must_use]
    pub fn with_base_string(mut self, base_string: &'a str) -> Self {
        self.base_string = Some(base_string);
        self
    }

    /// The other side's signature, if given.
    pub(crate) fn given_signature(self) -> Option<&'a str> {
        self.signature
    }

    /// The other side's base string, if given.
    pub(crate) fn given_base_string(self) -> Option<&'a str> {
        self.base_string
    }

    fn what(self) -> &'static str {
        match (self.signature, self.base_string) {
            (Some(_), Some(_)) => "signature and base string",
            (Some(_), None) => "signature",
            _ => "base string",
        }
    }
}

impl fmt::Debug for Observed<'_> {
    // The signature of PLAINTEXT is the key: never shown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Observed")
            .field("signature", &self.signature.map(|_| ".."))
            .field("base_string", &self.base_string)
            .finish()
    }
}

/// The answer of [`Explainer::explain`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Verdict {
    /// The observed value equals the reference: nothing differs in what was given.
    Match,
    /// One cause, or two or three causes together, reproduce the observed value exactly.
    Explained,
    /// No single cause, and no two or three causes together, reproduce it (or none of those
    /// tried within the [`Budget`]: [`Explanation::searched`]).
    Unexplained,
}

impl Verdict {
    /// `match`, `explained` or `unexplained`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Verdict::Match => "match",
            Verdict::Explained => "explained",
            Verdict::Unexplained => "unexplained",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why the other side's value differs, or that it does not.
#[derive(Clone, Debug)]
pub struct Explanation {
    verdict: Verdict,
    causes: Vec<Cause>,
    alternatives: Vec<Cause>,
    reference: BaseString,
    reproduced: Option<BaseString>,
    difference: Option<Difference>,
    observed_what: &'static str,
    base_strings_agree: bool,
    pair: bool,
    /// The parameters sent unsigned: one for [`Cause::ParameterNotSigned`], the query's first
    /// ones for [`Cause::QueryStartNotSigned`].
    unsigned: Vec<String>,
    searched: Searched,
}

impl Explanation {
    /// The verdict.
    #[must_use]
    pub fn verdict(&self) -> Verdict {
        self.verdict
    }

    /// The explanation: empty unless [`Verdict::Explained`]; one cause that reproduces the
    /// observed value alone (the likeliest of those that do), or the two or three causes that
    /// reproduce it together ([`is_pair`](Self::is_pair)). Other single causes that reproduce
    /// it as well are [`alternatives`](Self::alternatives), never here.
    #[must_use]
    pub fn causes(&self) -> &[Cause] {
        &self.causes
    }

    /// The other single causes that each reproduce the observed value alone, as well as the
    /// one in [`causes`](Self::causes), the likelier first: what the observed value cannot
    /// tell apart (`duplicates-collapsed` or `parsed-as-php` when a repeated name's last value
    /// is kept). Empty for a pair.
    #[must_use]
    pub fn alternatives(&self) -> &[Cause] {
        &self.alternatives
    }

    /// Whether the causes act together (a pair, or three) rather than each alone.
    #[must_use]
    pub fn is_pair(&self) -> bool {
        self.pair
    }

    /// For [`Cause::ParameterNotSigned`], the name of the parameter the other side sent without
    /// signing it (decoded; not valid UTF-8 written with U+FFFD).
    #[must_use]
    pub fn unsigned_parameter(&self) -> Option<&str> {
        if self.causes == [Cause::ParameterNotSigned] {
            self.unsigned.first().map(String::as_str)
        } else {
            None
        }
    }

    /// The names of the parameters the other side sent without signing them, in the order
    /// sent (decoded; not valid UTF-8 written with U+FFFD): the one of
    /// [`Cause::ParameterNotSigned`], or the query's first ones for
    /// [`Cause::QueryStartNotSigned`]. Empty for any other explanation.
    #[must_use]
    pub fn unsigned_parameters(&self) -> &[String] {
        &self.unsigned
    }

    /// How far the search went: for [`Verdict::Unexplained`], whether no reading reproduces
    /// the observed value ([`Searched::is_complete`]) or none of those tried within the
    /// [`Budget`] does.
    #[must_use]
    pub fn searched(&self) -> Searched {
        self.searched
    }

    /// The reference base string (RFC 5849).
    #[must_use]
    pub fn reference_base_string(&self) -> &BaseString {
        &self.reference
    }

    /// The base string the other side built, as the causes reproduce it (when explained).
    #[must_use]
    pub fn reproduced_base_string(&self) -> Option<&BaseString> {
        self.reproduced.as_ref()
    }

    /// Where the other side's base string (observed, or reproduced) first differs from the
    /// reference.
    #[must_use]
    pub fn difference(&self) -> Option<&Difference> {
        self.difference.as_ref()
    }

    /// A few sentences a person can act on: what the other side did and what it must change.
    /// Never a secret or a signature.
    #[must_use]
    pub fn detail(&self) -> String {
        let what = self.observed_what;
        match self.verdict {
            Verdict::Match => format!(
                "The observed {what} equals the reference: nothing differs in what was given. If the server still refuses the request, it computes differently or refuses something else. Next: if its 401 echoes its base string (many do), explain that (--server-response) to see where the two differ; if it echoes nothing, `oauth1 probe` sends the request signed as each known mistake would sign it until one is accepted; compare what was sent with what was signed (URL, body, Content-Type, header); and check the clock (oauth_timestamp within the server's window, often 5 minutes) and that the nonce was not used before."
            ),
            Verdict::Explained if self.causes.contains(&Cause::QueryStartNotSigned) => {
                let cause = Cause::QueryStartNotSigned;
                let mut text = format!(
                    "The query starts with {}, which the other side did not sign: it {} ({cause}).",
                    self.unsigned.join(", "),
                    cause.what()
                );
                if let Some(&other) = self.causes.iter().find(|&&c| c != cause) {
                    let _ = write!(text, " Together with that, it {} ({other}).", other.what());
                    let _ = write!(text, " To fix: {} {}", cause.fix(), other.fix());
                } else {
                    let _ = write!(text, " To fix: {}", cause.fix());
                }
                text
            }
            Verdict::Explained if self.pair && self.causes.len() == 3 => {
                let (a, b, c) = (self.causes[0], self.causes[1], self.causes[2]);
                format!(
                    "Three mistakes together reproduce the observed {what}: the other side {} ({a}), {} ({b}), and {} ({c}). To fix: {} {} {}",
                    a.what(),
                    b.what(),
                    c.what(),
                    a.fix(),
                    b.fix(),
                    c.fix()
                )
            }
            Verdict::Explained if self.pair => {
                let (a, b) = (self.causes[0], self.causes[1]);
                format!(
                    "Two mistakes together reproduce the observed {what}: the other side {} ({a}), and {} ({b}). To fix: {} {}",
                    a.what(),
                    b.what(),
                    a.fix(),
                    b.fix()
                )
            }
            Verdict::Explained if !self.unsigned.is_empty() => {
                let cause = Cause::ParameterNotSigned;
                format!(
                    "The request carries {}, which the other side did not sign: it {} ({cause}). To fix: {}",
                    self.unsigned.join(", "),
                    cause.what(),
                    cause.fix()
                )
            }
            Verdict::Explained => {
                let first = self.causes[0];
                let mut text = format!(
                    "The other side {} ({first}). To fix: {}",
                    first.what(),
                    first.fix()
                );
                if !self.alternatives.is_empty() {
                    let others: Vec<&str> = self.alternatives.iter().map(|c| c.id()).collect();
                    let _ = write!(
                        text,
                        " These reproduce the observed {what} equally: {}.",
                        others.join(", ")
                    );
                }
                text
            }
            Verdict::Unexplained if !self.searched.is_complete() => {
                let searched = self.searched;
                format!(
                    "Not found within the search's budget: none of the {} readings tried (of {} in a whole search of this request) reproduces the observed {what}; the request is too large to try them all. Explain a smaller request that fails the same way (fewer parameters, a shorter body), or give the other side's base string, which tells where the two differ.",
                    searched.tried(),
                    searched.of()
                )
            }
            Verdict::Unexplained => {
                let mut text = format!(
                    "No single cause, and no two or three causes together, reproduce the observed {what}."
                );
                if let Some(difference) = &self.difference {
                    let _ = write!(text, " The base strings differ: {difference}.");
                } else if self.base_strings_agree {
                    text.push_str(
                        " The base strings agree, so the key or the digest differs: check the consumer secret and the token secret both sides use.",
                    );
                } else {
                    text.push_str(
                        " From a signature alone a wrong secret, token, nonce or timestamp looks the same: get the other side's base string (many servers echo it in their 401 body) and explain that.",
                    );
                }
                text
            }
        }
    }
}

/// Explains the other side's signature or base string for one request, signed with the
/// reference pipeline by a [`Signer`] with the same credentials.
#[derive(Clone, Copy, Debug)]
pub struct Explainer<'a> {
    signer: &'a Signer,
    request: &'a Request<'a>,
    nonce: &'a Nonce,
    timestamp: Timestamp,
    written_url: Option<&'a str>,
    budget: Budget,
    authorization: Option<&'a str>,
}

/// The outputs of one pass of the pipeline that are compared.
struct Attempt {
    base_string: BaseString,
    signature: Option<Zeroizing<String>>,
}

impl Attempt {
    /// Whether two passes give the same base string and signature; the signatures (for
    /// PLAINTEXT, the key itself) compared in constant time.
    fn same_as(&self, other: &Attempt) -> bool {
        self.base_string == other.base_string
            && match (&self.signature, &other.signature) {
                (Some(a), Some(b)) => same_secret(a, b),
                (None, None) => true,
                _ => false,
            }
    }
}

/// Whether two signatures are equal, compared in constant time (`subtle`), as
/// [`Signature`]'s equality compares them: a variant's signature is computed with the secrets
/// (for PLAINTEXT it is the key), and the time a comparison takes tells nothing of where it
/// first differs from what the other side sent.
pub(crate) fn same_secret(a: &str, b: &str) -> bool {
    use subtle::ConstantTimeEq;
    bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

impl<'a> Explainer<'a> {
    /// An explainer for `request` signed by `signer` with this nonce and timestamp, which must
    /// be those the other side used.
    #[must_use]
    pub fn new(
        signer: &'a Signer,
        request: &'a Request<'a>,
        nonce: &'a Nonce,
        timestamp: Timestamp,
    ) -> Self {
        Explainer {
            signer,
            request,
            nonce,
            timestamp,
            written_url: None,
            budget: Budget::default(),
            authorization: None,
        }
    }

    /// The `Authorization` header the request was sent with. A verifier collects every
    /// parameter of it but the realm (RFC 5849 §3.4.1.3.1), so the reference does too: those
    /// the signer does not write itself (a request parameter a client put in the header, which
    /// the query may carry as well) are signed after the protocol parameters, read with the
    /// verifier's parser. Without it, only the protocol parameters the signer writes are, and
    /// the reference can differ from what a verifier computes for the same request.
    #[must_use]
    pub fn with_authorization_header(mut self, header: &'a str) -> Self {
        self.authorization = Some(header);
        self
    }

    /// What the search may cost ([`Budget::default`] unless set): past it,
    /// [`explain`](Self::explain) stops and answers with what it found, its
    /// [`searched`](Explanation::searched) saying that it stopped.
    #[must_use]
    pub fn with_budget(mut self, budget: Budget) -> Self {
        self.budget = budget;
        self
    }

    /// The URL as written, before parsing lowercased its host and dropped a default port: it
    /// lets [`Cause::HostNotLowercased`] and [`Cause::DefaultPortKept`] be detected.
    #[must_use]
    pub fn with_url_as_written(mut self, url: &'a str) -> Self {
        self.written_url = Some(url);
        self
    }

    /// The base string and signature the other side produces when it makes the mistakes
    /// `causes` all at once (a cause that does not apply to this request changes nothing).
    /// The signature is `None` for the RSA methods, whose signatures are checked, not
    /// recomputed. [`Cause::ParameterNotSigned`] changes nothing here: which parameter was
    /// left unsigned is what [`Explainer::explain`] finds.
    ///
    /// # Errors
    ///
    /// Those of [`Signer::sign`] for this request.
    pub fn reproduce(&self, causes: &[Cause]) -> Result<(BaseString, Option<Signature>), Error> {
        let context = self.context()?;
        let switches = Switches::of(causes);
        let base_string = context.base_string(switches)?;
        let signature = context
            .signature(switches, &base_string)?
            .map(|value| Signature::new(self.signer.method(), value));
        Ok((base_string, signature))
    }

    fn context(&self) -> Result<Context<'a>, Error> {
        Ok(Context::new(
            self.signer,
            self.request,
            self.nonce,
            self.timestamp,
            self.written_url,
        )?
        .with_header(self.authorization))
    }

    /// Explains `observed`: tries every cause alone, then every pair of causes, the parameters
    /// left unsigned, and three causes together, within the [`Budget`].
    ///
    /// # Errors
    ///
    /// [`ExplainError::NothingObserved`] when `observed` is empty, and those of
    /// [`Signer::sign`] for this request (which the reference must be able to sign), as
    /// [`ExplainError::Sign`].
    pub fn explain(&self, observed: &Observed<'_>) -> Result<Explanation, ExplainError> {
        if observed.signature.is_none() && observed.base_string.is_none() {
            return Err(ExplainError::NothingObserved);
        }
        let context = self.context()?;
        let search = Search::new(&context, observed, self.budget);
        let reference = search.attempt(Switches::NONE)?;
        let mut explanation = Explanation {
            verdict: Verdict::Unexplained,
            causes: Vec::new(),
            alternatives: Vec::new(),
            difference: observed
                .base_string
                .and_then(|b| compare(reference.base_string.as_str(), b)),
            reproduced: None,
            reference: reference.base_string.clone(),
            observed_what: observed.what(),
            base_strings_agree: false,
            pair: false,
            unsigned: Vec::new(),
            searched: Searched::new(1, 1, true),
        };
        if search.reproduces(&reference) {
            explanation.verdict = Verdict::Match;
            return Ok(explanation);
        }
        explanation.base_strings_agree =
            observed.base_string == Some(reference.base_string.as_str());

        // Every cause alone; those that change nothing here are left out of the pairs.
        let mut effective: Vec<(Cause, Attempt)> = Vec::new();
        let mut singles: Vec<(Cause, BaseString)> = Vec::new();
        for &cause in Cause::ALL {
            if !search.meter.afford() {
                break;
            }
            let Ok(attempt) = search.attempt(Switches::of(&[cause])) else {
                continue;
            };
            if attempt.same_as(&reference) {
                continue;
            }
            if search.reproduces(&attempt) {
                singles.push((cause, attempt.base_string.clone()));
            }
            effective.push((cause, attempt));
        }
        if !singles.is_empty() {
            singles.sort_by_key(|(c, _)| c.rank());
            explanation.verdict = Verdict::Explained;
            explanation.causes = vec![singles[0].0];
            explanation.alternatives = singles[1..].iter().map(|(c, _)| *c).collect();
            explanation.reproduced = Some(singles.swap_remove(0).1);
        } else if let Some((a, b, base)) = search.best_pair(&effective, &reference) {
            explanation.verdict = Verdict::Explained;
            explanation.causes = vec![a, b];
            explanation.reproduced = Some(base);
            explanation.pair = true;
        } else if let Some((name, base)) = search.unsigned_parameter()? {
            explanation.verdict = Verdict::Explained;
            explanation.causes = vec![Cause::ParameterNotSigned];
            explanation.reproduced = Some(base);
            explanation.unsigned = vec![name];
        } else if let Some((causes, names, base)) = search.query_start(&effective)? {
            explanation.verdict = Verdict::Explained;
            explanation.pair = causes.len() == 2;
            explanation.causes = causes;
            explanation.reproduced = Some(base);
            explanation.unsigned = names;
        } else if let Some((causes, base)) = search.first_triple(&effective) {
            explanation.verdict = Verdict::Explained;
            explanation.pair = true;
            explanation.causes = causes;
            explanation.reproduced = Some(base);
        }
        explanation.searched = search.searched(&effective);
        if explanation.difference.is_none() {
            if let Some(reproduced) = &explanation.reproduced {
                explanation.difference =
                    compare(reference.base_string.as_str(), reproduced.as_str());
            }
        }
        Ok(explanation)
    }
}

/// How much of a server's response [`find_base_string`] searches: its first 1 MiB. An echoed
/// base string sits near the start of an error body; the rest is not read, and a caller that
/// is given more says so ([`response_cut`]).
pub const RESPONSE_SEARCHED: usize = 1 << 20;

/// Whether `response` is longer than what [`find_base_string`] searches of it
/// ([`RESPONSE_SEARCHED`]), so that a base string after that point is not found.
#[must_use]
pub fn response_cut(response: &str) -> bool {
    response.len() > RESPONSE_SEARCHED
}

/// Finds a signature base string that a server echoed in its response body (`base_string:…`,
/// `debug_sbs=…`, `Expected signature base string: …`, in text, HTML, JSON or a form-encoded
/// body), whatever the label around it: the first `METHOD&http%3A%2F%2F…&…` in the text,
/// HTML `&amp;` and JSON `\u0026` read as `&`, a base string encoded once more decoded. A
/// final `.` followed by a space or the end of the text is taken as the sentence's. Only the
/// first [`RESPONSE_SEARCHED`] bytes are searched, in time linear in their length.
///
/// ```
/// use oauth1_signer::explain::find_base_string;
///
/// let body = "oauth_problem=signature_invalid&debug_sbs=GET%26https%253A%252F%252Fapi.example.com%252Fx%26a%253D1";
/// assert_eq!(
///     find_base_string(body).as_deref(),
///     Some("GET&https%3A%2F%2Fapi.example.com%2Fx&a%3D1")
/// );
/// assert_eq!(find_base_string("Invalid signature"), None);
/// ```
#[must_use]
pub fn find_base_string(response: &str) -> Option<String> {
    let mut searched = response.len().min(RESPONSE_SEARCHED);
    while !response.is_char_boundary(searched) {
        searched -= 1;
    }
    let text = response[..searched]
        .replace("&amp;", "&")
        .replace("\\u0026", "&");
    let bytes = text.as_bytes();
    let is_method = |b: u8| b.is_ascii_alphabetic();
    let is_encoded = |b: u8| crate::encode::is_unreserved(b) || b == b'%';
    // Worked out once, so that each place a base string may start costs the same however
    // long the text: where the run of encoded bytes from each byte ends, and how many `%26`
    // start before each byte.
    let mut run_end = vec![bytes.len(); bytes.len() + 1];
    for i in (0..bytes.len()).rev() {
        run_end[i] = if is_encoded(bytes[i]) {
            run_end[i + 1]
        } else {
            i
        };
    }
    let mut escaped_ampersands = vec![0usize; bytes.len() + 1];
    for i in 0..bytes.len() {
        escaped_ampersands[i + 1] =
            escaped_ampersands[i] + usize::from(bytes[i..].starts_with(b"%26"));
    }
    let mut best: Option<(usize, String)> = None;
    for (separator, uri_start) in [("&", "http"), ("%26", "http")] {
        let twice = separator == "%26";
        let pattern = format!("{separator}{uri_start}");
        let mut from = 0;
        while let Some(found) = text[from..].find(&pattern) {
            let at = from + found;
            from = at + 1;
            let start = bytes[..at]
                .iter()
                .rposition(|&b| !is_method(b))
                .map_or(0, |p| p + 1);
            if start == at || best.as_ref().is_some_and(|(s, _)| *s <= start) {
                continue;
            }
            // Method, separator, URI, separator, parameters: the last two have no raw `&`.
            let mut end = run_end[at + separator.len()];
            let mut parts = 2;
            if !twice && bytes.get(end) == Some(&b'&') {
                end = run_end[end + 1];
                parts = 3;
            }
            // A full stop that ends a sentence is not part of it.
            if bytes[end - 1] == b'.'
                && bytes
                    .get(end)
                    .is_none_or(|b| !b.is_ascii_graphic() || *b == b'<')
            {
                end -= 1;
            }
            // Three parts, or no base string: told before the candidate is copied.
            if twice {
                parts = 1 + escaped_ampersands[end] - escaped_ampersands[at];
            }
            if parts != 3 {
                continue;
            }
            let candidate = &text[start..end];
            let candidate = if twice {
                match crate::encode::decode(candidate.as_bytes()) {
                    Ok(decoded) => String::from_utf8_lossy(&decoded).into_owned(),
                    Err(_) => continue,
                }
            } else {
                candidate.to_owned()
            };
            let uri_ok = candidate.split('&').nth(1).is_some_and(|uri| {
                let scheme = |s: &str| {
                    uri.get(..s.len())
                        .is_some_and(|head| head.eq_ignore_ascii_case(s))
                };
                scheme("http%3a%2f%2f") || scheme("https%3a%2f%2f")
            });
            if uri_ok && candidate.split('&').count() == 3 {
                best = Some((start, candidate));
            }
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// How many parameters [`Cause::ParameterNotSigned`] tries leaving out, one at a time.
const UNSIGNED_TRIED: usize = 256;

/// The comparisons of one explanation.
struct Search<'c, 'o> {
    context: &'c Context<'c>,
    observed: &'o Observed<'o>,
    meter: Meter,
    /// The bytes every reading reads whatever it builds: the query and the body.
    read: usize,
    /// The observed RSA signature, decoded.
    #[cfg_attr(not(feature = "rsa"), allow(dead_code))]
    rsa_signature: Option<Vec<u8>>,
    #[cfg(feature = "rsa")]
    public_key: Option<crate::sign::PublicKey>,
}

impl<'c, 'o> Search<'c, 'o> {
    fn new(context: &'c Context<'c>, observed: &'o Observed<'o>, budget: Budget) -> Self {
        use base64::Engine;
        let rsa = context.method().is_rsa();
        Search {
            context,
            observed,
            meter: Meter::new(budget),
            read: context.read_len(),
            rsa_signature: observed
                .signature
                .filter(|_| rsa)
                .and_then(|s| base64::engine::general_purpose::STANDARD.decode(s).ok()),
            #[cfg(feature = "rsa")]
            public_key: context.signer().private_key().map(crate::PublicKey::from),
        }
    }

    /// How far the search went, `effective` being the causes that change this request as far
    /// as the search knows them.
    fn searched(&self, effective: &[(Cause, Attempt)]) -> Searched {
        let tried = self.meter.tried();
        if !self.meter.is_cut() {
            return Searched::new(tried, tried, true);
        }
        // The readings of a whole search: the reference and every cause alone; the pairs of
        // those that change the request (of every cause, while that is not known yet); the
        // parameters left unsigned one at a time; the query's first ones left unsigned, alone
        // and with each of those causes.
        // The reference and every cause alone come first.
        let singles_done = tried > Cause::ALL.len();
        let changing: Vec<Cause> = if singles_done {
            effective.iter().map(|(c, _)| *c).collect()
        } else {
            Cause::ALL.to_vec()
        };
        let mut pairs = 0;
        for (i, a) in changing.iter().enumerate() {
            for b in &changing[i + 1..] {
                if !EXCLUSIVE
                    .iter()
                    .any(|group| group.contains(a) && group.contains(b))
                {
                    pairs += 1;
                }
            }
        }
        let unsigned = self
            .context
            .parameter_names()
            .map_or(0, |names| names.len().min(UNSIGNED_TRIED));
        let counts = self
            .context
            .query_parameter_count()
            .map_or(0, |total| total.min(UNSIGNED_TRIED).saturating_sub(1));
        let others = changing
            .iter()
            .filter(|c| {
                !matches!(
                    c,
                    Cause::QueryNotSigned | Cause::QueryInBaseUri | Cause::ParameterNotSigned
                )
            })
            .count();
        let mut triples = 0;
        for (i, a) in changing.iter().enumerate() {
            for (j, b) in changing.iter().enumerate().skip(i + 1) {
                for c in &changing[j + 1..] {
                    let apart = |x: &Cause, y: &Cause| {
                        !EXCLUSIVE
                            .iter()
                            .any(|group| group.contains(x) && group.contains(y))
                    };
                    if apart(a, b) && apart(a, c) && apart(b, c) {
                        triples += 1;
                    }
                }
            }
        }
        let whole = 1 + Cause::ALL.len() + pairs + unsigned + counts * (1 + others) + triples;
        Searched::new(tried, whole, false)
    }

    /// One pass with `switches`: the base string, and the signature when one was observed;
    /// its cost counted against the budget.
    fn attempt(&self, switches: Switches) -> Result<Attempt, Error> {
        let built = self.context.base_string(switches);
        let size = built.as_ref().map_or(0, |b| b.as_str().len());
        self.meter.charge(size.max(self.read));
        let base_string = built?;
        let signature = match self.observed.signature {
            Some(_) => self.context.signature(switches, &base_string)?,
            None => None,
        };
        Ok(Attempt {
            base_string,
            signature,
        })
    }

    /// Whether `attempt` gives every observed value.
    fn reproduces(&self, attempt: &Attempt) -> bool {
        if let Some(observed) = self.observed.base_string {
            if attempt.base_string.as_str() != observed {
                return false;
            }
        }
        let Some(observed) = self.observed.signature else {
            return true;
        };
        match &attempt.signature {
            Some(signature) => same_secret(signature, observed),
            None => self.rsa_reproduces(&attempt.base_string),
        }
    }

    #[cfg(feature = "rsa")]
    fn rsa_reproduces(&self, base_string: &BaseString) -> bool {
        match (&self.public_key, &self.rsa_signature) {
            (Some(key), Some(signature)) => crate::sign::rsa_verify(
                self.context.method(),
                key,
                base_string.as_bytes(),
                signature,
            ),
            _ => false,
        }
    }

    #[cfg(not(feature = "rsa"))]
    #[allow(clippy::unused_self)] // the same signature as with the feature
    fn rsa_reproduces(&self, _: &BaseString) -> bool {
        false
    }

    /// The first query or form-body parameter whose absence from the reference reproduces the
    /// observed value ([`Cause::ParameterNotSigned`]), with the base string: tried last, one
    /// pass per parameter (at most [`UNSIGNED_TRIED`]).
    fn unsigned_parameter(&self) -> Result<Option<(String, BaseString)>, Error> {
        let names = self.context.parameter_names()?;
        for (index, name) in names.iter().enumerate().take(UNSIGNED_TRIED) {
            if !self.meter.afford() {
                break;
            }
            let attempt = self.attempt(Switches::unsigned(index))?;
            if self.reproduces(&attempt) {
                let name = String::from_utf8_lossy(name).into_owned();
                return Ok(Some((name, attempt.base_string)));
            }
        }
        Ok(None)
    }

    /// The query's first parameters left unsigned ([`Cause::QueryStartNotSigned`]), alone or
    /// with one effective cause, that reproduce the observed value: the causes (the other one
    /// first when there are two), the names left out and the base string. Tried last: alone
    /// for each count, fewest first; then with each effective cause, likeliest first, for each
    /// count, fewest first (at most [`UNSIGNED_TRIED`] counts).
    #[allow(clippy::type_complexity)]
    fn query_start(
        &self,
        effective: &[(Cause, Attempt)],
    ) -> Result<Option<(Vec<Cause>, Vec<String>, BaseString)>, Error> {
        let total = self.context.query_parameter_count()?;
        // All of them is query-not-signed.
        let counts = 1..total.min(UNSIGNED_TRIED);
        let names = |count: usize| -> Result<Vec<String>, Error> {
            Ok(self.context.parameter_names()?[..count]
                .iter()
                .map(|n| String::from_utf8_lossy(n).into_owned())
                .collect())
        };
        for count in counts.clone() {
            if !self.meter.afford() {
                return Ok(None);
            }
            let attempt = self.attempt(Switches::query_start(count, None))?;
            if self.reproduces(&attempt) {
                return Ok(Some((
                    vec![Cause::QueryStartNotSigned],
                    names(count)?,
                    attempt.base_string,
                )));
            }
        }
        let mut others: Vec<&(Cause, Attempt)> = effective
            .iter()
            .filter(|(c, _)| {
                !matches!(
                    c,
                    Cause::QueryNotSigned | Cause::QueryInBaseUri | Cause::ParameterNotSigned
                )
            })
            .collect();
        others.sort_by_key(|(c, _)| c.rank());
        for (other, alone) in others {
            for count in counts.clone() {
                if !self.meter.afford() {
                    return Ok(None);
                }
                let Ok(attempt) = self.attempt(Switches::query_start(count, Some(*other))) else {
                    continue;
                };
                if !attempt.same_as(alone) && self.reproduces(&attempt) {
                    return Ok(Some((
                        vec![*other, Cause::QueryStartNotSigned],
                        names(count)?,
                        attempt.base_string,
                    )));
                }
            }
        }
        Ok(None)
    }

    /// The most likely three effective causes that reproduce the observed value together,
    /// once no single cause, pair, or parameter left unsigned does: the triples tried in the
    /// order of their causes' likelihood, so that the first found is the likeliest. Each is
    /// tried only after every pair, so none of its pairs reproduces the value.
    fn first_triple(&self, effective: &[(Cause, Attempt)]) -> Option<(Vec<Cause>, BaseString)> {
        let mut causes: Vec<Cause> = effective.iter().map(|(c, _)| *c).collect();
        causes.sort_by_key(|c| c.rank());
        let apart = |a: Cause, b: Cause| {
            !EXCLUSIVE
                .iter()
                .any(|group| group.contains(&a) && group.contains(&b))
        };
        let skipped = [Cause::ParameterNotSigned, Cause::QueryStartNotSigned];
        causes.retain(|c| !skipped.contains(c));
        for (i, &a) in causes.iter().enumerate() {
            for (j, &b) in causes.iter().enumerate().skip(i + 1) {
                if !apart(a, b) {
                    continue;
                }
                for &c in &causes[j + 1..] {
                    if !apart(a, c) || !apart(b, c) {
                        continue;
                    }
                    if !self.meter.afford() {
                        return None;
                    }
                    let Ok(attempt) = self.attempt(Switches::of(&[a, b, c])) else {
                        continue;
                    };
                    if self.reproduces(&attempt) {
                        return Some((vec![a, b, c], attempt.base_string));
                    }
                }
            }
        }
        None
    }

    /// The most likely pair of effective causes that reproduces the observed value and that
    /// neither cause alone explains.
    fn best_pair(
        &self,
        effective: &[(Cause, Attempt)],
        reference: &Attempt,
    ) -> Option<(Cause, Cause, BaseString)> {
        let mut best: Option<((u8, u8), Cause, Cause, BaseString)> = None;
        for (i, (a, alone_a)) in effective.iter().enumerate() {
            for (b, alone_b) in &effective[i + 1..] {
                if !self.meter.afford() {
                    // The likeliest pair of those tried, if any.
                    return best.map(|(_, a, b, base)| (a, b, base));
                }
                if EXCLUSIVE
                    .iter()
                    .any(|group| group.contains(a) && group.contains(b))
                {
                    continue;
                }
                let Ok(attempt) = self.attempt(Switches::of(&[*a, *b])) else {
                    continue;
                };
                if attempt.same_as(reference)
                    || attempt.same_as(alone_a)
                    || attempt.same_as(alone_b)
                    || !self.reproduces(&attempt)
                {
                    continue;
                }
                let (first, second) = if a.rank() <= b.rank() {
                    (*a, *b)
                } else {
                    (*b, *a)
                };
                let key = (first.rank(), second.rank());
                if best.as_ref().is_none_or(|(k, ..)| key < *k) {
                    best = Some((key, first, second, attempt.base_string));
                }
            }
        }
        best.map(|(_, a, b, base)| (a, b, base))
    }
}
