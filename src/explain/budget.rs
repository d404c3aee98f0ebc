//! What one explanation may cost: the bytes of the readings it builds, and a deadline.
//!
//! Each reading (the request signed again as one mistake, or a pair of them, would sign it)
//! collects, encodes and hashes the whole request, so its cost grows with the request's size:
//! a count of readings alone would let a large request cost seconds. The budget counts bytes,
//! so that a small request is searched whole and a large one only as far as the budget goes,
//! and an explanation says when its search stopped there ([`Searched::is_complete`]).

use std::cell::Cell;
use std::fmt;

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
use std::time::Instant;

/// How much work [`Explainer::explain`](super::Explainer::explain) may do: at most so many
/// bytes of readings (each reading costs the larger of its base string and the request's
/// query and body, plus a fixed overhead), and, where the platform has a clock, no reading
/// started after a deadline. The reference is always computed, and a match is always told:
/// only the search for the mistake stops at the budget.
///
/// ```
/// use oauth1_signer::explain::Budget;
///
/// assert_eq!(Budget::default().bytes(), Budget::DEFAULT_BYTES);
/// let small = Budget::of_bytes(1 << 20);
/// assert_eq!(small.bytes(), 1 << 20);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    bytes: u64,
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    deadline: Option<Instant>,
}

impl Budget {
    /// The bytes of readings an explanation may build unless told otherwise: 256 MiB, about
    /// a second of one core in a release build. A request of a few kilobytes is searched
    /// whole within it; one of a megabyte, for its likeliest mistakes.
    pub const DEFAULT_BYTES: u64 = 256 << 20;

    /// What a reading costs beyond its bytes: the passes that do not grow with the request.
    pub(crate) const PER_READING: u64 = 256;

    /// A budget of `bytes` bytes of readings, without a deadline.
    #[must_use]
    pub const fn of_bytes(bytes: u64) -> Self {
        Budget {
            bytes,
            #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
            deadline: None,
        }
    }

    /// No limit: every reading of the search is tried, whatever it costs. Only for requests
    /// whose size you control.
    #[must_use]
    pub const fn unlimited() -> Self {
        Budget::of_bytes(u64::MAX)
    }

    /// The same budget, and no reading started after `deadline`. Not on
    /// `wasm32-unknown-unknown`, which has no clock.
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    #[must_use]
    pub fn with_deadline(mut self, deadline: Instant) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// The bytes of readings allowed.
    #[must_use]
    pub const fn bytes(&self) -> u64 {
        self.bytes
    }

    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    #[allow(clippy::unused_self)] // the same signature as with a clock
    fn past_deadline(&self) -> bool {
        false
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::of_bytes(Budget::DEFAULT_BYTES)
    }
}

/// How far an explanation's search went: the readings tried, of those a whole search of this
/// request makes, and whether it stopped at its [`Budget`] before the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searched {
    tried: usize,
    of: usize,
    complete: bool,
}

impl Searched {
    /// The readings tried (the reference among them).
    #[must_use]
    pub fn tried(&self) -> usize {
        self.tried
    }

    /// The readings a whole search of this request makes (at most this many when the search
    /// stopped before it knew which mistakes change this request).
    #[must_use]
    pub fn of(&self) -> usize {
        self.of
    }

    /// Whether the search went to its end (or stopped because it found the answer), rather
    /// than stopping at its budget. When it is not, "unexplained" means "not found within the
    /// budget", not "no reading reproduces it".
    #[must_use]
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    pub(crate) fn new(tried: usize, of: usize, complete: bool) -> Self {
        Searched {
            tried,
            of: of.max(tried),
            complete,
        }
    }
}

impl fmt::Display for Searched {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.complete {
            write!(f, "{} readings tried", self.tried)
        } else {
            write!(
                f,
                "stopped at its budget after {} of {} readings",
                self.tried, self.of
            )
        }
    }
}

/// The budget being spent by one search.
#[derive(Debug)]
pub(crate) struct Meter {
    budget: Budget,
    spent: Cell<u64>,
    tried: Cell<usize>,
    cut: Cell<bool>,
}

impl Meter {
    pub(crate) fn new(budget: Budget) -> Self {
        Meter {
            budget,
            spent: Cell::new(0),
            tried: Cell::new(0),
            cut: Cell::new(false),
        }
    }

    /// Whether another reading may start; once it may not, the search is cut for good.
    pub(crate) fn afford(&self) -> bool {
        if self.cut.get() {
            return false;
        }
        if self.spent.get() >= self.budget.bytes || self.budget.past_deadline() {
            self.cut.set(true);
            return false;
        }
        true
    }

    /// Counts one reading of `bytes` bytes.
    pub(crate) fn charge(&self, bytes: usize) {
        let bytes = u64::try_from(bytes).unwrap_or(u64::MAX);
        self.spent.set(
            self.spent
                .get()
                .saturating_add(bytes)
                .saturating_add(Budget::PER_READING),
        );
        self.tried.set(self.tried.get() + 1);
    }

    pub(crate) fn tried(&self) -> usize {
        self.tried.get()
    }

    #[cfg(test)]
    pub(crate) fn spent(&self) -> u64 {
        self.spent.get()
    }

    pub(crate) fn is_cut(&self) -> bool {
        self.cut.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_meter_stops_once_its_bytes_are_spent_and_stays_stopped() {
        let meter = Meter::new(Budget::of_bytes(1_000));
        assert!(meter.afford());
        meter.charge(500);
        assert!(meter.afford());
        meter.charge(500);
        assert!(!meter.afford());
        assert!(meter.is_cut());
        assert_eq!(meter.tried(), 2);
        assert_eq!(meter.spent(), 1_000 + 2 * Budget::PER_READING);
    }

    #[test]
    fn an_unlimited_budget_never_stops_and_never_overflows() {
        let meter = Meter::new(Budget::unlimited());
        meter.charge(usize::MAX);
        meter.charge(usize::MAX);
        assert_eq!(meter.spent(), u64::MAX);
        // Spent equals the limit: the unlimited budget is u64::MAX, reached only here.
        assert!(!meter.afford());
    }

    #[test]
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    fn a_deadline_past_stops_the_first_reading() {
        let meter = Meter::new(Budget::unlimited().with_deadline(Instant::now()));
        assert!(!meter.afford());
        assert!(meter.is_cut());
    }

    #[test]
    fn searched_says_when_it_stopped_at_its_budget() {
        assert_eq!(Searched::new(12, 40, true).to_string(), "12 readings tried");
        assert_eq!(
            Searched::new(12, 40, false).to_string(),
            "stopped at its budget after 12 of 40 readings"
        );
        assert_eq!(Searched::new(50, 40, false).of(), 50);
    }
}
