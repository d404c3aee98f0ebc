//! Why a server's setup was refused: a callback a consumer cannot register, a public origin, or
//! a public key too weak to verify with.

use std::fmt;

/// Why a value given to set up a server was refused. Each message names the value and what
/// to give instead.
#[derive(Debug)]
#[non_exhaustive]
pub enum ConfigError {
    /// A callback that a consumer cannot register ([`Callbacks`](crate::Callbacks)).
    #[non_exhaustive]
    InvalidCallback {
        /// The callback as given.
        callback: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A public origin with a query or a fragment.
    #[non_exhaustive]
    InvalidOrigin {
        /// The origin as given.
        origin: String,
    },
    /// An RSA public key shorter than [`MIN_RSA_BITS`](oauth1_signer::sign::MIN_RSA_BITS).
    #[cfg(feature = "rsa")]
    #[non_exhaustive]
    WeakPublicKey {
        /// The key's size in bits.
        bits: usize,
    },
    /// A URL, realm or key that the signing core refused, with its reason.
    Signer(oauth1_signer::Error),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::InvalidCallback { callback, reason } => write!(
                f,
                "the callback \"{}\" cannot be registered: it {reason}",
                callback.escape_debug()
            ),
            ConfigError::InvalidOrigin { origin } => write!(
                f,
                "invalid public origin \"{}\": give the scheme, the host and an optional path prefix, without a query or a fragment",
                origin.escape_debug()
            ),
            #[cfg(feature = "rsa")]
            ConfigError::WeakPublicKey { bits } => write!(
                f,
                "invalid RSA public key: the key has {bits} bits; a verifier accepts keys of {} bits or more",
                oauth1_signer::sign::MIN_RSA_BITS
            ),
            ConfigError::Signer(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ConfigError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            // Its message is this one's.
            ConfigError::Signer(e) => e.source(),
            _ => None,
        }
    }
}

impl From<oauth1_signer::Error> for ConfigError {
    fn from(e: oauth1_signer::Error) -> Self {
        ConfigError::Signer(e)
    }
}
