//! What a client sends besides the request (RFC 5849 §1.1, §3.1, §3.3): its credentials, the
//! nonce and timestamp of each request, and the options of the protocol parameters.

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use rand::TryRng;

use crate::encode::{CheckedText, Value};
use crate::error::Error;
use crate::secret::Secret;

/// A pair of credentials (§1.1): an identifier sent in the clear, and the shared secret that
/// goes with it. Its two kinds, [`Consumer`] (the client credentials) and [`Token`] (temporary
/// or token credentials), are one shape kept apart by type.
pub struct Credentials<K: Kind> {
    key: CheckedText,
    secret: Secret,
    kind: PhantomData<fn() -> K>,
}

/// The client credentials (§1.1): `oauth_consumer_key` and the consumer secret. The secret may
/// be empty (the RSA methods do not use it).
pub type Consumer = Credentials<OfConsumer>;

/// Temporary or token credentials (§1.1): `oauth_token` and the token secret.
pub type Token = Credentials<OfToken>;

/// The kind of [`Credentials`]: [`OfConsumer`] or [`OfToken`].
pub trait Kind: sealed::Sealed {
    /// The name `Debug` shows: `Consumer` or `Token`.
    const NAME: &'static str;
}

/// The kind of the client credentials, [`Consumer`] (a type-level tag, never a value).
#[derive(Debug)]
pub enum OfConsumer {}

/// The kind of temporary and token credentials, [`Token`] (a type-level tag, never a value;
/// whether a token is temporary or token credentials is
/// `oauth1_server::TokenKind`).
#[derive(Debug)]
pub enum OfToken {}

impl Kind for OfConsumer {
    const NAME: &'static str = "Consumer";
}

impl Kind for OfToken {
    const NAME: &'static str = "Token";
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::OfConsumer {}
    impl Sealed for super::OfToken {}
}

impl<K: Kind> Credentials<K> {
    /// An identifier and its secret.
    pub fn new(key: impl Into<String>, secret: impl Into<Secret>) -> Self {
        Credentials {
            key: CheckedText::new(key.into()),
            secret: secret.into(),
            kind: PhantomData,
        }
    }

    /// The identifier, sent as `oauth_consumer_key` or `oauth_token`.
    #[must_use]
    pub fn key(&self) -> &str {
        self.key.as_str()
    }

    /// The identifier as a protocol value, checked for bytes to escape when made.
    pub(crate) fn key_value(&self) -> Value<'_> {
        self.key.value()
    }

    /// The secret.
    #[must_use]
    pub fn secret(&self) -> &Secret {
        &self.secret
    }
}

impl<K: Kind> Clone for Credentials<K> {
    fn clone(&self) -> Self {
        Credentials {
            key: self.key.clone(),
            secret: self.secret.clone(),
            kind: PhantomData,
        }
    }
}

impl<K: Kind> fmt::Debug for Credentials<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(K::NAME)
            .field("key", &self.key.as_str())
            .field("secret", &self.secret)
            .finish()
    }
}

/// `oauth_nonce` (§3.3): a string the client makes unique for each timestamp.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Nonce {
    /// Checked for bytes to escape once, when made.
    text: CheckedText,
}

impl Nonce {
    /// The length of a [generated](Nonce::generate) nonce.
    pub const GENERATED_LEN: usize = 32;

    /// A given nonce, for reproducible signatures and tests.
    ///
    /// # Errors
    ///
    /// [`Error::EmptyNonce`] for an empty string.
    pub fn new(nonce: impl Into<String>) -> Result<Self, Error> {
        let text = nonce.into();
        if text.is_empty() {
            return Err(Error::EmptyNonce);
        }
        Ok(Nonce {
            text: CheckedText::new(text),
        })
    }

    /// 32 ASCII letters and digits drawn uniformly from the operating system's random number
    /// generator (about 190 bits).
    ///
    /// # Errors
    ///
    /// [`Error::Random`] if the generator fails; there is no weaker fallback.
    pub fn generate() -> Result<Self, Error> {
        const ALPHANUMERIC: &[u8; 62] =
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        let mut nonce = String::with_capacity(Self::GENERATED_LEN);
        let mut random = [0u8; 48];
        while nonce.len() < Self::GENERATED_LEN {
            rand::rngs::SysRng
                .try_fill_bytes(&mut random)
                .map_err(|source| Error::Random { source })?;
            // Rejection sampling: 248 = 4 × 62, so every kept byte maps to a letter uniformly.
            for &b in random.iter().filter(|&&b| b < 248) {
                if nonce.len() == Self::GENERATED_LEN {
                    break;
                }
                nonce.push(char::from(ALPHANUMERIC[usize::from(b % 62)]));
            }
        }
        Ok(Nonce {
            text: CheckedText::new(nonce),
        })
    }

    /// The nonce as a protocol value, checked for bytes to escape when made.
    pub(crate) fn value(&self) -> Value<'_> {
        self.text.value()
    }

    /// The nonce.
    #[must_use]
    pub fn as_str(&self) -> &str {
        self.text.as_str()
    }
}

impl fmt::Debug for Nonce {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Nonce").field(&self.text.as_str()).finish()
    }
}

impl fmt::Display for Nonce {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text.as_str())
    }
}

/// `oauth_timestamp` (§3.3): whole seconds since 1970-01-01T00:00:00Z.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(u64);

impl Timestamp {
    /// A given timestamp, for reproducible signatures and tests.
    #[must_use]
    pub const fn new(seconds: u64) -> Self {
        Timestamp(seconds)
    }

    /// The system clock, in whole seconds.
    ///
    /// # Errors
    ///
    /// [`Error::ClockBeforeEpoch`] if the clock reads a time before 1970; there is no fallback.
    /// [`Error::ClockUnavailable`] on `wasm32-unknown-unknown` without the `js` feature, where
    /// there is no clock to read.
    pub fn now() -> Result<Self, Error> {
        #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
        {
            use std::time::{SystemTime, UNIX_EPOCH};
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| Timestamp(d.as_secs()))
                .map_err(|_| Error::ClockBeforeEpoch)
        }
        // In a browser (or another JavaScript host), whose clock `std` cannot read: `Date.now()`,
        // milliseconds since 1970 as a float (NaN or negative for a clock it cannot tell).
        #[cfg(all(target_arch = "wasm32", target_os = "unknown", feature = "js"))]
        {
            let millis = js_sys::Date::now();
            if millis >= 0.0 {
                // Whole seconds of a non-negative finite float below 2^53: exact.
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                Ok(Timestamp((millis / 1000.0) as u64))
            } else {
                Err(Error::ClockBeforeEpoch)
            }
        }
        #[cfg(all(target_arch = "wasm32", target_os = "unknown", not(feature = "js")))]
        {
            Err(Error::ClockUnavailable)
        }
    }

    /// Seconds since 1970.
    #[must_use]
    pub const fn as_secs(self) -> u64 {
        self.0
    }

    /// The decimal digits, written into `buf`.
    pub(crate) fn digits(self, buf: &mut [u8; 20]) -> &[u8] {
        let mut n = self.0;
        let mut at = buf.len();
        loop {
            at -= 1;
            #[allow(clippy::cast_possible_truncation)] // n % 10 < 10
            let digit = (n % 10) as u8;
            buf[at] = b'0' + digit;
            n /= 10;
            if n == 0 {
                return &buf[at..];
            }
        }
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Timestamp {
    type Err = Error;

    /// Parses decimal seconds: digits only, no sign, no leading zeros (so that the text sent is
    /// the text given).
    fn from_str(text: &str) -> Result<Self, Error> {
        let canonical = !text.is_empty() && (text == "0" || !text.starts_with('0'));
        // The digits, read as they are checked; none may overflow.
        let seconds = text.bytes().try_fold(0u64, |n, b| {
            let digit = b.wrapping_sub(b'0');
            (digit < 10)
                .then(|| n.checked_mul(10)?.checked_add(u64::from(digit)))
                .flatten()
        });
        canonical
            .then_some(seconds)
            .flatten()
            .map(Timestamp)
            .ok_or_else(|| Error::InvalidTimestamp {
                text: text.to_owned(),
            })
    }
}

/// Whether `oauth_version="1.0"` is sent; the RFC makes it optional.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Version {
    /// Send `oauth_version="1.0"` (the default, as most servers expect).
    #[default]
    Send,
    /// Leave `oauth_version` out.
    Omit,
}

impl FromStr for Version {
    type Err = Error;

    /// `"1.0"`, the only version, is [`Version::Send`]; anything else is an error.
    fn from_str(version: &str) -> Result<Self, Error> {
        if version == "1.0" {
            Ok(Version::Send)
        } else {
            Err(Error::UnsupportedVersion {
                version: version.to_owned(),
            })
        }
    }
}

/// Whether `oauth_body_hash` (the OAuth Request Body Hash extension) is sent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BodyHash {
    /// No body hash (the default).
    #[default]
    Omit,
    /// Send the hash of the body (of the empty body when there is none). Form bodies are
    /// refused: their parameters are signed instead.
    Send,
}
