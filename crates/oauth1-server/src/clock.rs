//! The server's clock: where a verifier and a provider read the time that timestamps, nonces
//! and temporary credentials are checked against.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use oauth1_signer::Timestamp;

use crate::error::VerifyError;

/// Marks a clock that reads the system's time.
const SYSTEM: u64 = u64::MAX;

/// Where a [`Verifier`](crate::Verifier) reads the time: the system clock (the default), or
/// a time that stays where it is set, for tests and for checking a request captured earlier.
///
/// Clones share one reading: a test keeps a clone, hands one to the verifier, and moves time
/// with [`set`](Self::set) while the verifier serves.
///
/// ```
/// use oauth1_server::{Clock, MemoryCredentials, MemoryNonceStore, Verifier};
/// use oauth1_signer::Timestamp;
///
/// let clock = Clock::fixed(Timestamp::new(1191242096));
/// let verifier = Verifier::new(MemoryCredentials::new(), MemoryNonceStore::new())
///     .with_clock(clock.clone());
/// clock.set(Timestamp::new(1191242400));
/// assert_eq!(verifier.clock().now().unwrap(), Timestamp::new(1191242400));
/// ```
#[derive(Clone)]
pub struct Clock(Arc<AtomicU64>);

impl Clock {
    /// The system clock.
    #[must_use]
    pub fn system() -> Self {
        Clock(Arc::new(AtomicU64::new(SYSTEM)))
    }

    /// A clock that reads `at` until it is [`set`](Self::set) to another time.
    #[must_use]
    pub fn fixed(at: Timestamp) -> Self {
        let clock = Clock::system();
        clock.set(at);
        clock
    }

    /// Makes this clock and its clones read `at` from now on; a system clock stops following
    /// the system's time. The latest time a clock can read is `u64::MAX - 1` seconds.
    pub fn set(&self, at: Timestamp) {
        self.0
            .store(at.as_secs().min(SYSTEM - 1), Ordering::Relaxed);
    }

    /// The time.
    ///
    /// # Errors
    ///
    /// [`VerifyError::Clock`] if the system clock cannot be read (it reads before 1970).
    pub fn now(&self) -> Result<Timestamp, VerifyError> {
        match self.0.load(Ordering::Relaxed) {
            SYSTEM => Timestamp::now().map_err(|e| VerifyError::Clock {
                detail: e.to_string(),
            }),
            secs => Ok(Timestamp::new(secs)),
        }
    }
}

impl Default for Clock {
    /// The system clock.
    fn default() -> Self {
        Clock::system()
    }
}

impl fmt::Debug for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.load(Ordering::Relaxed) {
            SYSTEM => f.write_str("Clock(system)"),
            secs => write!(f, "Clock(fixed at {secs})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_one_reading() {
        let clock = Clock::system();
        let held = clock.clone();
        assert!(clock.now().unwrap().as_secs() > 1_700_000_000);
        held.set(Timestamp::new(42));
        assert_eq!(clock.now().unwrap(), Timestamp::new(42));
        assert_eq!(format!("{clock:?}"), "Clock(fixed at 42)");
        clock.set(Timestamp::new(u64::MAX));
        assert_eq!(held.now().unwrap(), Timestamp::new(u64::MAX - 1));
    }
}
