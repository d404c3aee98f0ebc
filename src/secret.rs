//! Secrets: the consumer secret and the token secret (RFC 5849 §3.4.2 keys).

use std::fmt;
use std::sync::Arc;

use zeroize::Zeroizing;

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
pub struct Secret(Option<Arc<Zeroizing<Vec<u8>>>>);

impl Secret {
    /// The secret's bytes. Handle them with the same care as the secret.
    #[must_use]
    pub fn expose(&self) -> &[u8] {
        self.0.as_deref().map_or(&[], |bytes| bytes.as_slice())
    }

    /// Whether the secret is empty (an absent token secret is an empty one).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.expose().is_empty()
    }

    /// The capacity of the buffer holding it, for tests that check it never grew.
    #[cfg(test)]
    pub(crate) fn capacity(&self) -> usize {
        self.0.as_deref().map_or(0, |bytes| bytes.capacity())
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
    /// Takes the vector's buffer, which is zeroized when the secret's last clone is dropped.
    fn from(bytes: Vec<u8>) -> Self {
        Secret(Some(Arc::new(Zeroizing::new(bytes))))
    }
}

impl From<String> for Secret {
    /// Takes the string's buffer, which is zeroized when the secret's last clone is dropped.
    fn from(text: String) -> Self {
        Secret::from(text.into_bytes())
    }
}

impl From<&[u8]> for Secret {
    fn from(bytes: &[u8]) -> Self {
        Secret::from(bytes.to_vec())
    }
}

impl From<&str> for Secret {
    fn from(text: &str) -> Self {
        Secret::from(text.as_bytes())
    }
}
