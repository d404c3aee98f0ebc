//! Secrets: the consumer secret and the token secret (RFC 5849 §3.4.2 keys).

use std::fmt;
use std::num::NonZeroU64;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use zeroize::{Zeroize, Zeroizing};

/// A secret byte string: its `Debug` is redacted, it has no `Display`, and its memory is
/// overwritten with zeros when its last clone is dropped. Clones share the bytes: a store
/// hands out a secret per request without copying it.
///
/// ```
/// use oauth1_signer::Secret;
///
/// let secret = Secret::from("kd94hf93k423kf44");
/// assert_eq!(format!("{secret:?}"), "Secret(..)");
/// assert_eq!(secret.expose(), b"kd94hf93k423kf44");
/// ```
#[derive(Clone, Default)]
pub struct Secret(Option<Arc<Held>>);

/// The longest secret kept in place, in the one allocation the secret's clones share.
const SHORT: usize = 64;

/// Bytes kept in place and wiped as one value: zeroize writes a [`DefaultIsZeroes`] value with
/// one volatile store of the whole of it, a few wide stores, where wiping a byte slice is a
/// volatile store a byte. Volatile either way: the wipe is never optimized out. It is `Copy`,
/// as `DefaultIsZeroes` requires, and a copy of one holding a secret would not be wiped: a
/// block is only ever held in place, by the value that wipes it on drop.
///
/// [`DefaultIsZeroes`]: zeroize::DefaultIsZeroes
#[derive(Clone, Copy)]
pub(crate) struct Block<const N: usize>(pub(crate) [u8; N]);

impl<const N: usize> Default for Block<N> {
    fn default() -> Self {
        Block([0; N])
    }
}

impl<const N: usize> zeroize::DefaultIsZeroes for Block<N> {}

/// A secret's bytes and its identity, in the one allocation its clones share.
struct Held {
    id: NonZeroU64,
    bytes: Bytes,
}

/// The identity of the next secret made: every secret gets one of its own, never given
/// again (at a billion secrets a second, the count would last five centuries).
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

impl Held {
    /// A new identity. Only uniqueness matters, so the count needs no ordering with other
    /// memory.
    fn id() -> NonZeroU64 {
        NonZeroU64::new(NEXT_ID.fetch_add(1, Ordering::Relaxed)).unwrap_or(NonZeroU64::MIN)
    }
}

/// A secret's bytes: a short one in place (one allocation for the secret, not two), a longer
/// one in a vector. Wiped on drop, which runs once, when the last clone lets go.
enum Bytes {
    Short { len: u8, bytes: Block<SHORT> },
    Long(Vec<u8>),
}

impl Bytes {
    fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Short { len, bytes } => bytes.0.get(..usize::from(*len)).unwrap_or_default(),
            Bytes::Long(bytes) => bytes,
        }
    }

    /// `slice` in a shared allocation of its own: in place when short, written straight
    /// into the allocation (a value built on the stack first would leave a copy of the secret
    /// there when moved); in a vector otherwise.
    fn shared(slice: &[u8]) -> Arc<Held> {
        if slice.len() <= SHORT {
            let mut shared = Arc::new(Held {
                id: Held::id(),
                bytes: Bytes::Short {
                    len: 0,
                    bytes: Block::default(),
                },
            });
            if let Some(Held {
                bytes: Bytes::Short { len, bytes },
                ..
            }) = Arc::get_mut(&mut shared)
            {
                if let (Some(room), Ok(short)) =
                    (bytes.0.get_mut(..slice.len()), u8::try_from(slice.len()))
                {
                    room.copy_from_slice(slice);
                    *len = short;
                    return shared;
                }
            }
        }
        Bytes::long(slice.to_vec())
    }

    /// `bytes` in a shared allocation of its own, as they are.
    fn long(bytes: Vec<u8>) -> Arc<Held> {
        Arc::new(Held {
            id: Held::id(),
            bytes: Bytes::Long(bytes),
        })
    }
}

impl Drop for Bytes {
    fn drop(&mut self) {
        match self {
            Bytes::Short { bytes, .. } => bytes.zeroize(),
            // The whole capacity, then cleared.
            Bytes::Long(bytes) => bytes.zeroize(),
        }
    }
}

/// Which secret a secret is, not by its value: [`SecretId::is`] recognizes the secret it was
/// taken from and that secret's clones, and no other secret, even one with the same bytes.
/// It holds none of the bytes: each secret is numbered when made, and no number is given
/// twice, so an id recognizes no secret made after its own was dropped. Taking an id reads
/// the number, with no write to memory the secret's other users share.
///
/// Equal ids are ids of one secret; they hash alike. A cache of what was derived from secrets
/// (a keyed HMAC) finds its entries by them without reading, or hashing, a secret.
///
/// ```
/// use oauth1_signer::Secret;
///
/// let secret = Secret::from("kd94hf93k423kf44");
/// let id = secret.id();
/// assert!(id.is(&secret.clone()));
/// assert_eq!(id, secret.clone().id());
/// assert!(!id.is(&Secret::from("kd94hf93k423kf44")));
/// assert_eq!(format!("{id:?}"), "SecretId(..)");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SecretId(Option<NonZeroU64>);

impl SecretId {
    /// Whether `secret` is the secret this id was taken from, or one of its clones. The empty
    /// secret of [`Secret::default`] is one secret, however often it is made.
    #[must_use]
    pub fn is(&self, secret: &Secret) -> bool {
        *self == secret.id()
    }
}

impl fmt::Debug for SecretId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SecretId(..)")
    }
}

impl Secret {
    /// This secret's identity (see [`SecretId`]), shared by its clones.
    #[must_use]
    pub fn id(&self) -> SecretId {
        SecretId(self.0.as_ref().map(|held| held.id))
    }

    /// The secret's bytes. Handle them with the same care as the secret.
    #[must_use]
    pub fn expose(&self) -> &[u8] {
        self.0.as_deref().map_or(&[], |held| held.bytes.as_slice())
    }

    /// Whether the secret is empty (an absent token secret is an empty one).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.expose().is_empty()
    }

    /// The capacity of the vector holding a long secret, for tests that check it never grew;
    /// `None` for a secret kept in place.
    #[cfg(test)]
    pub(crate) fn vector_capacity(&self) -> Option<usize> {
        match self.0.as_deref() {
            Some(Held {
                bytes: Bytes::Long(bytes),
                ..
            }) => Some(bytes.capacity()),
            _ => None,
        }
    }

    /// The number of bytes in the secret; its length is not secret in OAuth, its bytes are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.expose().len()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(..)")
    }
}

impl From<Vec<u8>> for Secret {
    /// Takes the vector's buffer, which is wiped when the secret's last clone is dropped; a
    /// short secret is copied in place and the vector wiped now.
    fn from(bytes: Vec<u8>) -> Self {
        let mut bytes = Zeroizing::new(bytes);
        if bytes.len() <= SHORT {
            return Secret(Some(Bytes::shared(&bytes)));
        }
        Secret(Some(Bytes::long(std::mem::take(&mut *bytes))))
    }
}

impl From<String> for Secret {
    /// As [`From<Vec<u8>>`](#impl-From%3CVec%3Cu8%3E%3E-for-Secret).
    fn from(text: String) -> Self {
        Secret::from(text.into_bytes())
    }
}

impl From<&[u8]> for Secret {
    fn from(bytes: &[u8]) -> Self {
        Secret(Some(Bytes::shared(bytes)))
    }
}

impl From<&str> for Secret {
    fn from(text: &str) -> Self {
        Secret::from(text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length reads back as given, short ones kept in place, longer ones in a vector
    /// whose buffer is the one given.
    #[test]
    fn secrets_of_every_length_read_back() {
        for len in [0, 1, 17, SHORT - 1, SHORT, SHORT + 1, 300] {
            let text: Vec<u8> = b"abcdefghijklmnopqrstuvwxyz"
                .iter()
                .copied()
                .cycle()
                .take(len)
                .collect();
            for secret in [
                Secret::from(text.as_slice()),
                Secret::from(text.clone()),
                Secret::from(String::from_utf8(text.clone()).unwrap()),
            ] {
                assert_eq!(secret.expose(), text.as_slice(), "{len}");
                assert_eq!(secret.len(), len);
                assert_eq!(secret.clone().expose(), text.as_slice());
                assert_eq!(secret.vector_capacity().is_some(), len > SHORT, "{len}");
            }
        }
        let mut given = Vec::with_capacity(500);
        given.extend_from_slice(&[b'x'; 100]);
        assert_eq!(
            Secret::from(given).vector_capacity(),
            Some(500),
            "the buffer taken"
        );
        assert!(Secret::default().is_empty());
    }

    /// An id is its secret's and its clones', never another's: not one made apart with the
    /// same bytes, nor one made after the secret was dropped (whose memory would otherwise be
    /// the first the allocator hands out again).
    #[test]
    fn an_id_recognizes_its_secret_alone() {
        let secret = Secret::from("kd94hf93k423kf44");
        let id = secret.id();
        assert!(id.is(&secret) && id.is(&secret.clone()));
        assert_eq!(id, secret.clone().id());
        assert!(!id.is(&Secret::from("kd94hf93k423kf44")));
        assert!(!id.is(&Secret::default()));
        assert_ne!(id, Secret::from("kd94hf93k423kf44").id());
        assert!(Secret::default().id().is(&Secret::default()));
        assert_eq!(Secret::default().id(), Secret::default().id());
        assert!(!Secret::default().id().is(&Secret::from("")));
        for text in ["kd94hf93k423kf44", &"x".repeat(SHORT + 10)] {
            let secret = Secret::from(text);
            let id = secret.id();
            drop(secret);
            for _ in 0..100 {
                let later = Secret::from(text);
                assert!(!id.is(&later) && id != later.id(), "{}", text.len());
            }
        }
    }
}
