//! HMACs keyed with a credential pair, kept between requests: the verifier keys its HMAC once
//! per pair of secrets instead of once per request.
//!
//! An entry is found by a keyed 128-bit fingerprint (SipHash-2-4) of the method and the two
//! secrets the credential store handed out for this request: a secret changed in the store
//! has another fingerprint, so it takes effect at once. Without the key, nobody can compute a
//! fingerprint, and two pairs share one with a chance of about 2⁻¹²⁸; the secrets themselves
//! are not kept. Entries are added only for a pair whose signature matched, so a client
//! cannot fill the cache with pairs of its choosing nor evict the entries of real clients;
//! the dummy secret of unknown credentials is never added. At most `capacity` entries are
//! kept; a new one past it replaces an arbitrary old one.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::fingerprint::{FingerprintKey, Fingerprinted};
use oauth1_signer::sign::{KeyedMac, SignatureMethod, SigningKey};
use oauth1_signer::Secret;

/// How many keyed HMACs a verifier keeps unless told otherwise.
pub const DEFAULT_MAC_CACHE: usize = 4096;

/// The keyed HMACs of the credential pairs that verified lately, by the fingerprint of their
/// method and secrets.
pub(crate) struct MacCache {
    key: FingerprintKey,
    capacity: usize,
    /// Shared with the requests that use them: a request takes one without copying (nor
    /// wiping a copy of) its states.
    entries: Mutex<HashMap<u128, Arc<KeyedMac>, Fingerprinted>>,
}

impl std::fmt::Debug for MacCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MacCache")
            .field("capacity", &self.capacity)
            .finish_non_exhaustive()
    }
}

/// An HMAC keyed for a request, whether it came from the cache, and the fingerprint that
/// finds it there.
pub(crate) struct Keyed {
    pub(crate) mac: Arc<KeyedMac>,
    pub(crate) cached: bool,
    slot: u128,
}

impl MacCache {
    /// A cache of at most `capacity` entries; 0 keeps none.
    pub(crate) fn new(capacity: usize) -> Self {
        MacCache {
            key: FingerprintKey::new(),
            capacity,
            entries: Mutex::default(),
        }
    }

    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }

    /// The fingerprint of the method and the secrets; each comes with its length, so that no
    /// two of them write the same bytes.
    fn slot(
        &self,
        method: SignatureMethod,
        consumer_secret: &Secret,
        token_secret: &Secret,
    ) -> u128 {
        let mut hasher = self.key.strong();
        let method = method.as_str().as_bytes();
        hasher.write_usize(method.len());
        hasher.write(method);
        for secret in [consumer_secret, token_secret] {
            hasher.write_usize(secret.len());
            hasher.write(secret.expose());
        }
        hasher.finish()
    }

    /// The HMAC of `method` keyed with the two secrets: cached if this pair verified lately,
    /// keyed now otherwise. `None` for a method that is not an HMAC.
    pub(crate) fn keyed(
        &self,
        method: SignatureMethod,
        consumer_secret: &Secret,
        token_secret: &Secret,
    ) -> Option<Keyed> {
        let slot = if self.capacity > 0 {
            let slot = self.slot(method, consumer_secret, token_secret);
            let entries = self
                .entries
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Some(mac) = entries.get(&slot) {
                return Some(Keyed {
                    mac: Arc::clone(mac),
                    cached: true,
                    slot,
                });
            }
            slot
        } else {
            0
        };
        let key = SigningKey::new(consumer_secret, token_secret);
        KeyedMac::new(method, key.expose()).map(|mac| Keyed {
            mac: Arc::new(mac),
            cached: false,
            slot,
        })
    }

    /// Keeps `keyed`, made by [`MacCache::keyed`] and not found there, for the next requests
    /// of its pair.
    pub(crate) fn keep(&self, keyed: Keyed) {
        if self.capacity == 0 || keyed.cached {
            return;
        }
        let mut entries = self
            .entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if entries.len() >= self.capacity && !entries.contains_key(&keyed.slot) {
            if let Some(&old) = entries.keys().next() {
                entries.remove(&old);
            }
        }
        entries.insert(keyed.slot, keyed.mac);
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries.lock().unwrap().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digest(keyed: &Keyed) -> Vec<u8> {
        keyed.mac.digest(b"data").to_vec()
    }

    #[test]
    fn a_kept_mac_is_found_only_for_the_same_method_and_secrets() {
        let cache = MacCache::new(8);
        let (cs, ts) = (Secret::from("cs"), Secret::from("ts"));
        let method = SignatureMethod::HmacSha1;
        let fresh = cache.keyed(method, &cs, &ts).unwrap();
        assert!(!fresh.cached);
        let fresh_digest = digest(&fresh);
        cache.keep(fresh);
        let again = cache.keyed(method, &cs, &ts).unwrap();
        assert!(again.cached);
        assert_eq!(digest(&again), fresh_digest);
        // Another secret, or another method: keyed anew, never the kept one.
        for (m, c, t) in [
            (method, Secret::from("cs2"), ts.clone()),
            (method, cs.clone(), Secret::from("ts2")),
            (method, Secret::from("cs&ts"), Secret::default()),
            (SignatureMethod::HmacSha256, cs.clone(), ts.clone()),
        ] {
            let other = cache.keyed(m, &c, &t).unwrap();
            assert!(!other.cached);
            assert_ne!(digest(&other), fresh_digest);
        }
        assert!(cache.keyed(SignatureMethod::Plaintext, &cs, &ts).is_none());
    }

    #[test]
    fn the_cache_holds_at_most_its_capacity() {
        let cache = MacCache::new(3);
        let ts = Secret::default();
        for i in 0..10 {
            let cs = Secret::from(format!("secret {i}"));
            let keyed = cache.keyed(SignatureMethod::HmacSha1, &cs, &ts).unwrap();
            cache.keep(keyed);
            assert!(cache.len() <= 3);
        }
        assert_eq!(cache.len(), 3);
        // The newest is always kept.
        let newest = Secret::from("secret 9");
        assert!(
            cache
                .keyed(SignatureMethod::HmacSha1, &newest, &ts)
                .unwrap()
                .cached
        );
        // Capacity 0 keeps nothing.
        let none = MacCache::new(0);
        let keyed = none.keyed(SignatureMethod::HmacSha1, &newest, &ts).unwrap();
        none.keep(keyed);
        assert!(
            !none
                .keyed(SignatureMethod::HmacSha1, &newest, &ts)
                .unwrap()
                .cached
        );
    }
}
