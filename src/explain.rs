//! Why two signatures differ: the other side's signature or base string explained by the
//! mistake that reproduces it exactly.
//!
//! Every [`Cause`] is one switch on one stage of this crate's signing pipeline (a deliberately
//! wrong encoder, sort, URI rule, key, ...). [`Explainer::explain`] computes the reference,
//! then tries every cause alone, every pair of causes, the request without each of its query
//! and form-body parameters in turn ([`Cause::ParameterNotSigned`]), alone and with another
//! cause, three causes together and, last, a parameter left out with two other causes, within
//! a [`Budget`] of cost, and answers [`Verdict::Match`],
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
mod echo;
mod error;
mod php;
mod probe;
mod scheme;
mod search;
pub(crate) mod variant;
mod wrong;

use std::fmt::{self, Write};

pub use budget::{Budget, Searched};
pub use cause::Cause;
pub use compare::{compare, Difference, Part};
pub use echo::{find_base_string, response_cut, RESPONSE_SEARCHED};
pub use error::ExplainError;
pub use probe::{Probe, ProbeAnswer, ProbeAttempt, ProbeRedirect, ProbeReport, ProbeVerdict};
pub use scheme::{take_scheme, SchemeReason, SchemeTaken};
use search::{Attempt, Search};
use variant::{Context, Switches};

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

    /// For [`Cause::ParameterNotSigned`] (alone or with another cause), the name of the
    /// parameter the other side sent without signing it (decoded; not valid UTF-8 written with
    /// U+FFFD).
    #[must_use]
    pub fn unsigned_parameter(&self) -> Option<&str> {
        if self.causes.contains(&Cause::ParameterNotSigned) {
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

    /// [`detail`](Self::detail) of an explanation with parameters sent unsigned: the query's
    /// first ones, or one parameter, alone or with another cause.
    fn unsigned_detail(&self) -> String {
        let (cause, lead) = if self.causes.contains(&Cause::QueryStartNotSigned) {
            (Cause::QueryStartNotSigned, "The query starts with")
        } else {
            (Cause::ParameterNotSigned, "The request carries")
        };
        let mut text = format!(
            "{lead} {}, which the other side did not sign: it {} ({cause}).",
            self.unsigned.join(", "),
            cause.what()
        );
        let others: Vec<Cause> = self
            .causes
            .iter()
            .copied()
            .filter(|&c| c != cause)
            .collect();
        for (i, other) in others.iter().enumerate() {
            let (start, end) = match (i, others.len()) {
                (0, 1) => (" Together with that, it", "."),
                (0, _) => (" Together with that, it", ","),
                (i, n) if i + 1 == n => (" and it", "."),
                _ => (" it", ","),
            };
            let _ = write!(text, "{start} {} ({other}){end}", other.what());
        }
        let _ = write!(text, " To fix: {}", cause.fix());
        for other in &others {
            let _ = write!(text, " {}", other.fix());
        }
        text
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
            Verdict::Explained if !self.unsigned.is_empty() => self.unsigned_detail(),
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
    /// left unsigned (alone and with one cause), three causes together, and a parameter left
    /// unsigned with two causes, within the [`Budget`].
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
        } else if let Some((other, name, base)) = search.unsigned_with(&effective)? {
            explanation.verdict = Verdict::Explained;
            explanation.pair = true;
            explanation.causes = vec![other, Cause::ParameterNotSigned];
            explanation.reproduced = Some(base);
            explanation.unsigned = vec![name];
        } else if let Some((causes, base)) = search.first_triple(&effective) {
            explanation.verdict = Verdict::Explained;
            explanation.pair = true;
            explanation.causes = causes;
            explanation.reproduced = Some(base);
        } else if let Some((a, b, name, base)) = search.unsigned_with_pair(&effective)? {
            explanation.verdict = Verdict::Explained;
            explanation.pair = true;
            explanation.causes = vec![a, b, Cause::ParameterNotSigned];
            explanation.reproduced = Some(base);
            explanation.unsigned = vec![name];
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
