//! The search of one explanation: each reading (the request signed again as some causes
//! would sign it), compared with what the other side produced, within the budget.

use zeroize::Zeroizing;

use super::budget::{Budget, Meter, Searched};
use super::variant::{Context, Switches, EXCLUSIVE};
use super::{same_secret, Cause, Observed};
use crate::base_string::BaseString;
use crate::error::Error;

/// The outputs of one pass of the pipeline that are compared.
pub(super) struct Attempt {
    pub(super) base_string: BaseString,
    pub(super) signature: Option<Zeroizing<String>>,
}

impl Attempt {
    /// Whether two passes give the same base string and signature; the signatures (for
    /// PLAINTEXT, the key itself) compared in constant time.
    pub(super) fn same_as(&self, other: &Attempt) -> bool {
        self.base_string == other.base_string
            && match (&self.signature, &other.signature) {
                (Some(a), Some(b)) => same_secret(a, b),
                (None, None) => true,
                _ => false,
            }
    }
}

/// Whether two causes may act together: no group of [`EXCLUSIVE`] holds both.
fn apart(a: Cause, b: Cause) -> bool {
    !EXCLUSIVE
        .iter()
        .any(|group| group.contains(&a) && group.contains(&b))
}

/// How many parameters [`Cause::ParameterNotSigned`] tries leaving out, one at a time.
const UNSIGNED_TRIED: usize = 256;

/// How many parameters a parameter left unsigned together with two other causes is tried at:
/// the first ones collected (each pair of causes is tried with each of them).
pub(super) const UNSIGNED_WITH_PAIR_TRIED: usize = 16;

/// The causes that change which parameters are collected: a parameter left unsigned is counted
/// among those the reference collects, so it is not tried together with them.
const COLLECTING: &[Cause] = &[
    Cause::QueryNotSigned,
    Cause::QueryInBaseUri,
    Cause::ParameterNotSigned,
    Cause::QueryStartNotSigned,
    Cause::FormBodyNotSigned,
    Cause::NonFormBodySigned,
    Cause::FormBodyHashed,
];

/// The comparisons of one explanation.
pub(super) struct Search<'c, 'o> {
    context: &'c Context<'c>,
    observed: &'o Observed<'o>,
    pub(super) meter: Meter,
    /// The bytes every reading reads whatever it builds: the query and the body.
    read: usize,
    /// The observed RSA signature, decoded.
    #[cfg_attr(not(feature = "rsa"), allow(dead_code))]
    rsa_signature: Option<Vec<u8>>,
    #[cfg(feature = "rsa")]
    public_key: Option<crate::sign::PublicKey>,
}

impl<'c, 'o> Search<'c, 'o> {
    pub(super) fn new(
        context: &'c Context<'c>,
        observed: &'o Observed<'o>,
        budget: Budget,
    ) -> Self {
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
    pub(super) fn searched(&self, effective: &[(Cause, Attempt)]) -> Searched {
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
                if apart(*a, *b) {
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
                    if apart(*a, *b) && apart(*a, *c) && apart(*b, *c) {
                        triples += 1;
                    }
                }
            }
        }
        let collecting = changing.iter().filter(|c| COLLECTING.contains(c)).count();
        let unsigned_with = unsigned * changing.len().saturating_sub(collecting);
        let leaving: Vec<Cause> = changing
            .iter()
            .copied()
            .filter(|c| !COLLECTING.contains(c))
            .collect();
        let mut leaving_pairs = 0;
        for (i, a) in leaving.iter().enumerate() {
            leaving_pairs += leaving[i + 1..].iter().filter(|b| apart(*a, **b)).count();
        }
        let unsigned_with_pair = leaving_pairs * unsigned.min(UNSIGNED_WITH_PAIR_TRIED);
        let whole = 1
            + Cause::ALL.len()
            + pairs
            + unsigned
            + counts * (1 + others)
            + unsigned_with
            + triples
            + unsigned_with_pair;
        Searched::new(tried, whole, false)
    }

    /// One pass with `switches`: the base string, and the signature when one was observed;
    /// its cost counted against the budget.
    pub(super) fn attempt(&self, switches: Switches) -> Result<Attempt, Error> {
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
    pub(super) fn reproduces(&self, attempt: &Attempt) -> bool {
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
    pub(super) fn rsa_reproduces(&self, base_string: &BaseString) -> bool {
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
    pub(super) fn rsa_reproduces(&self, _: &BaseString) -> bool {
        false
    }

    /// The first query or form-body parameter whose absence from the reference reproduces the
    /// observed value ([`Cause::ParameterNotSigned`]), with the base string: tried last, one
    /// pass per parameter (at most [`UNSIGNED_TRIED`]).
    pub(super) fn unsigned_parameter(&self) -> Result<Option<(String, BaseString)>, Error> {
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
    pub(super) fn query_start(
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

    /// A query or form-body parameter left unsigned ([`Cause::ParameterNotSigned`]) together
    /// with one effective cause that does not change which parameters are collected, that
    /// reproduces the observed value while that cause alone does not: the cause, the name left
    /// out and the base string. Tried after the query's first parameters: each cause,
    /// likeliest first, with each parameter in the order collected (at most
    /// [`UNSIGNED_TRIED`]).
    pub(super) fn unsigned_with(
        &self,
        effective: &[(Cause, Attempt)],
    ) -> Result<Option<(Cause, String, BaseString)>, Error> {
        let names = self.context.parameter_names()?;
        let mut others: Vec<&(Cause, Attempt)> = effective
            .iter()
            .filter(|(c, _)| !COLLECTING.contains(c))
            .collect();
        others.sort_by_key(|(c, _)| c.rank());
        for (other, alone) in others {
            for (index, name) in names.iter().enumerate().take(UNSIGNED_TRIED) {
                if !self.meter.afford() {
                    return Ok(None);
                }
                let Ok(attempt) = self.attempt(Switches::unsigned_with(index, &[*other])) else {
                    continue;
                };
                if !attempt.same_as(alone) && self.reproduces(&attempt) {
                    let name = String::from_utf8_lossy(name).into_owned();
                    return Ok(Some((*other, name, attempt.base_string)));
                }
            }
        }
        Ok(None)
    }

    /// The most likely three effective causes that reproduce the observed value together,
    /// once no single cause, pair, or parameter left unsigned does: the triples tried in the
    /// order of their causes' likelihood, so that the first found is the likeliest. Each is
    /// tried only after every pair, so none of its pairs reproduces the value.
    pub(super) fn first_triple(
        &self,
        effective: &[(Cause, Attempt)],
    ) -> Option<(Vec<Cause>, BaseString)> {
        let mut causes: Vec<Cause> = effective.iter().map(|(c, _)| *c).collect();
        causes.sort_by_key(|c| c.rank());
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

    /// A query or form-body parameter left unsigned together with two effective causes that
    /// do not change which parameters are collected, once nothing else, three causes together
    /// included, reproduces the observed value: the two causes, the name left out and the
    /// base string. Tried last: each pair of causes in the order of their likelihood, with
    /// each of the first [`UNSIGNED_WITH_PAIR_TRIED`] parameters in the order collected. Every
    /// smaller set of these causes was tried before, so none reproduces the value.
    #[allow(clippy::type_complexity)]
    pub(super) fn unsigned_with_pair(
        &self,
        effective: &[(Cause, Attempt)],
    ) -> Result<Option<(Cause, Cause, String, BaseString)>, Error> {
        let names = self.context.parameter_names()?;
        let causes = Self::with_unsigned(effective);
        for (i, &a) in causes.iter().enumerate() {
            for &b in &causes[i + 1..] {
                if !apart(a, b) {
                    continue;
                }
                for (index, name) in names.iter().enumerate().take(UNSIGNED_WITH_PAIR_TRIED) {
                    if !self.meter.afford() {
                        return Ok(None);
                    }
                    let Ok(attempt) = self.attempt(Switches::unsigned_with(index, &[a, b])) else {
                        continue;
                    };
                    if self.reproduces(&attempt) {
                        let name = String::from_utf8_lossy(name).into_owned();
                        return Ok(Some((a, b, name, attempt.base_string)));
                    }
                }
            }
        }
        Ok(None)
    }

    /// The effective causes a parameter left unsigned is tried with, likeliest first: those
    /// that leave collection alone.
    fn with_unsigned(effective: &[(Cause, Attempt)]) -> Vec<Cause> {
        let mut causes: Vec<Cause> = effective
            .iter()
            .map(|(c, _)| *c)
            .filter(|c| !COLLECTING.contains(c))
            .collect();
        causes.sort_by_key(|c| c.rank());
        causes
    }

    /// The most likely pair of effective causes that reproduces the observed value and that
    /// neither cause alone explains.
    pub(super) fn best_pair(
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
                if !apart(*a, *b) {
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
