//! HMACs keyed with a credential pair, kept between requests: the verifier keys its HMAC once
//! per pair of secrets instead of once per request.
//!
//! An entry is found by the identity of the two secrets the credential store handed out for
//! this request ([`SecretId`]): a store that hands out the same secret for every request, as
//! the memory store does, finds its pair without reading the secrets. Failing that, by a keyed
//! 128-bit fingerprint (SipHash-2-4) of the method and the secrets' bytes, for a store that
//! makes its secrets anew for each request. Either way a secret changed in the store is
//! another secret, with another identity and another fingerprint, so it takes effect at once.
//! Without the key, nobody can compute a fingerprint, and two pairs share one with a chance of
//! about 2⁻¹²⁸; the secrets themselves are not kept. Entries are added only for a pair whose
//! signature matched, so a client cannot fill the cache with pairs of its choosing nor evict
//! the entries of real clients; the dummy secret of unknown credentials is never added. Each
//! table keeps at most `capacity` entries; a new one past it replaces an arbitrary old one.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex, MutexGuard};

use super::fingerprint::{FingerprintKey, Fingerprinted};
use oauth1_signer::server::KeyedMac;
use oauth1_signer::sign::{SignatureMethod, SigningKey};
use oauth1_signer::{Secret, SecretId};

/// How many keyed HMACs a verifier keeps unless told otherwise.
pub const DEFAULT_MAC_CACHE: usize = 4096;

/// The keyed HMACs of the credential pairs that verified lately.
pub(crate) struct MacCache {
    key: FingerprintKey,
    capacity: usize,
    /// Shared with the requests that use them: a request takes one without copying (nor
    /// wiping a copy of) its states.
    tables: Mutex<Tables>,
}

/// The two ways to an entry.
#[derive(Default)]
struct Tables {
    /// By the method and the identities of the two secrets.
    by_id: HashMap<Pair, Arc<KeyedMac>, BuildHasherDefault<Addresses>>,
    /// By the fingerprint of the method and the two secrets' bytes.
    by_fingerprint: HashMap<u128, Arc<KeyedMac>, Fingerprinted>,
}

/// A method and the identities of a consumer secret and a token secret.
type Pair = (SignatureMethod, SecretId, SecretId);

impl std::fmt::Debug for MacCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MacCache")
            .field("capacity", &self.capacity)
            .finish_non_exhaustive()
    }
}

/// An HMAC keyed for a request, how it was found in the cache, and what finds it there.
pub(crate) struct Keyed {
    pub(crate) mac: Arc<KeyedMac>,
    found: Found,
    pair: Pair,
    /// The fingerprint, unless the entry was found by `pair` without it.
    slot: Option<u128>,
}

/// How a keyed HMAC was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Found {
    /// By the secrets' identities.
    ById,
    /// By the fingerprint of their bytes.
    ByFingerprint,
    /// Not at all: keyed for this request.
    No,
}

impl MacCache {
    /// A cache of at most `capacity` entries in each table; 0 keeps none.
    pub(crate) fn new(capacity: usize) -> Self {
        MacCache {
            key: FingerprintKey::new(),
            capacity,
            tables: Mutex::default(),
        }
    }

    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }

    fn tables(&self) -> MutexGuard<'_, Tables> {
        self.tables
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
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
        let pair = (method, consumer_secret.id(), token_secret.id());
        if self.capacity == 0 {
            return Self::key_now(method, consumer_secret, token_secret, pair, None);
        }
        if let Some(mac) = self.tables().by_id.get(&pair) {
            return Some(Keyed {
                mac: Arc::clone(mac),
                found: Found::ById,
                pair,
                slot: None,
            });
        }
        let slot = self.slot(method, consumer_secret, token_secret);
        if let Some(mac) = self.tables().by_fingerprint.get(&slot) {
            return Some(Keyed {
                mac: Arc::clone(mac),
                found: Found::ByFingerprint,
                pair,
                slot: Some(slot),
            });
        }
        Self::key_now(method, consumer_secret, token_secret, pair, Some(slot))
    }

    fn key_now(
        method: SignatureMethod,
        consumer_secret: &Secret,
        token_secret: &Secret,
        pair: Pair,
        slot: Option<u128>,
    ) -> Option<Keyed> {
        let key = SigningKey::new(consumer_secret, token_secret);
        KeyedMac::new(method, key.expose()).map(|mac| Keyed {
            mac: Arc::new(mac),
            found: Found::No,
            pair,
            slot,
        })
    }

    /// Keeps `keyed`, made by [`MacCache::keyed`], for the next requests of its pair: what
    /// was keyed now in both tables; what was found by its fingerprint by the identities too,
    /// while that table has room (a store that makes its secrets anew for each request would
    /// otherwise replace an entry every time).
    pub(crate) fn keep(&self, keyed: Keyed) {
        let Some(slot) = keyed.slot else {
            return;
        };
        let mut tables = self.tables();
        let capacity = self.capacity;
        match keyed.found {
            Found::ById => {}
            Found::ByFingerprint => {
                if tables.by_id.len() < capacity {
                    tables.by_id.insert(keyed.pair, keyed.mac);
                }
            }
            Found::No => {
                insert_within(
                    &mut tables.by_fingerprint,
                    capacity,
                    slot,
                    Arc::clone(&keyed.mac),
                );
                insert_within(&mut tables.by_id, capacity, keyed.pair, keyed.mac);
            }
        }
    }

    #[cfg(test)]
    fn len(&self) -> (usize, usize) {
        let tables = self.tables();
        (tables.by_id.len(), tables.by_fingerprint.len())
    }
}

/// The hasher of the id table. Its keys are a method and the numbers of two secrets the
/// credential store handed out: a client chooses none of it, and only pairs whose signature
/// matched are added. So a multiply and a rotation suffice to spread them (a keyed hash would
/// cost more than the rest of the lookup).
#[derive(Default)]
struct Addresses(u64);

impl Addresses {
    fn mix(&mut self, word: u64) {
        self.0 = (self.0 ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

impl Hasher for Addresses {
    fn finish(&self) -> u64 {
        // The multiplications leave the high bits mixed best; the table indexes by the low.
        self.0.rotate_left(32)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.mix(u64::from(byte));
        }
    }

    fn write_usize(&mut self, word: usize) {
        self.mix(word as u64);
    }

    fn write_u64(&mut self, word: u64) {
        self.mix(word);
    }
}

/// Inserts into a table of at most `capacity` entries, first removing an arbitrary one when
/// it is full and `key` is new.
fn insert_within<K: std::hash::Hash + Eq + Clone, S: std::hash::BuildHasher>(
    table: &mut HashMap<K, Arc<KeyedMac>, S>,
    capacity: usize,
    key: K,
    mac: Arc<KeyedMac>,
) {
    if table.len() >= capacity && !table.contains_key(&key) {
        if let Some(old) = table.keys().next().cloned() {
            table.remove(&old);
        }
    }
    table.insert(key, mac);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digest(keyed: &Keyed) -> Vec<u8> {
        keyed.mac.digest(b"data").to_vec()
    }

    /// The digest of an HMAC keyed now with the two secrets, apart from any cache.
    fn keyed_now(method: SignatureMethod, cs: &Secret, ts: &Secret) -> Vec<u8> {
        let key = SigningKey::new(cs, ts);
        KeyedMac::new(method, key.expose())
            .unwrap()
            .digest(b"data")
            .to_vec()
    }

    #[test]
    fn a_kept_mac_is_found_only_for_the_same_method_and_secrets() {
        let cache = MacCache::new(8);
        let (cs, ts) = (Secret::from("cs"), Secret::from("ts"));
        let method = SignatureMethod::HmacSha1;
        let fresh = cache.keyed(method, &cs, &ts).unwrap();
        assert_eq!(fresh.found, Found::No);
        let fresh_digest = digest(&fresh);
        assert_eq!(fresh_digest, keyed_now(method, &cs, &ts));
        cache.keep(fresh);
        // The same secrets (a store that shares them) by their identities; secrets with the
        // same bytes made anew (a store that makes them per request) by the fingerprint.
        for (c, t, found) in [
            (cs.clone(), ts.clone(), Found::ById),
            (Secret::from("cs"), Secret::from("ts"), Found::ByFingerprint),
        ] {
            let again = cache.keyed(method, &c, &t).unwrap();
            assert_eq!(again.found, found);
            assert_eq!(digest(&again), fresh_digest);
        }
        // Another secret, or another method: keyed anew, never the kept one.
        for (m, c, t) in [
            (method, Secret::from("cs2"), ts.clone()),
            (method, cs.clone(), Secret::from("ts2")),
            (method, Secret::from("cs&ts"), Secret::default()),
            (method, ts.clone(), cs.clone()),
            (SignatureMethod::HmacSha256, cs.clone(), ts.clone()),
        ] {
            let other = cache.keyed(m, &c, &t).unwrap();
            assert_eq!(other.found, Found::No);
            assert_ne!(digest(&other), fresh_digest);
            assert_eq!(digest(&other), keyed_now(m, &c, &t));
        }
        assert!(cache.keyed(SignatureMethod::Plaintext, &cs, &ts).is_none());
    }

    /// A secret made in the memory of a dropped one must not find the dropped one's HMAC:
    /// ids are numbers never given twice (an address alone would find it).
    #[test]
    fn a_dropped_secret_finds_nothing_for_the_next_one() {
        let cache = MacCache::new(8);
        let method = SignatureMethod::HmacSha1;
        let ts = Secret::default();
        let cs = Secret::from("first secret");
        cache.keep(cache.keyed(method, &cs, &ts).unwrap());
        drop(cs);
        for i in 0..100 {
            let later = Secret::from(format!("other secret{i:02}").as_str());
            let keyed = cache.keyed(method, &later, &ts).unwrap();
            assert_eq!(keyed.found, Found::No, "{i}");
            assert_eq!(digest(&keyed), keyed_now(method, &later, &ts));
        }
    }

    /// What a fingerprint found is kept by the identities too, while that table has room: a
    /// store that reloaded its secrets finds them at once again.
    #[test]
    fn a_pair_found_by_fingerprint_is_then_found_by_id() {
        let cache = MacCache::new(8);
        let method = SignatureMethod::HmacSha1;
        let ts = Secret::default();
        cache.keep(cache.keyed(method, &Secret::from("cs"), &ts).unwrap());
        let reloaded = Secret::from("cs");
        let keyed = cache.keyed(method, &reloaded, &ts).unwrap();
        assert_eq!(keyed.found, Found::ByFingerprint);
        cache.keep(keyed);
        assert_eq!(
            cache.keyed(method, &reloaded, &ts).unwrap().found,
            Found::ById
        );
    }

    #[test]
    fn the_cache_holds_at_most_its_capacity() {
        let cache = MacCache::new(3);
        let method = SignatureMethod::HmacSha1;
        let ts = Secret::default();
        let mut newest = Secret::default();
        for i in 0..10 {
            newest = Secret::from(format!("secret {i}"));
            let keyed = cache.keyed(method, &newest, &ts).unwrap();
            cache.keep(keyed);
            let (by_id, by_fingerprint) = cache.len();
            assert!(by_id <= 3 && by_fingerprint <= 3);
        }
        assert_eq!(cache.len(), (3, 3));
        // The newest is always kept, in both tables.
        let keyed = cache.keyed(method, &newest, &ts).unwrap();
        assert_eq!(keyed.found, Found::ById);
        let anew = Secret::from("secret 9");
        let keyed = cache.keyed(method, &anew, &ts).unwrap();
        assert_eq!(keyed.found, Found::ByFingerprint);
        // A full id table takes no pair found by fingerprint.
        cache.keep(keyed);
        assert_eq!(cache.len(), (3, 3));
        assert_eq!(
            cache.keyed(method, &anew, &ts).unwrap().found,
            Found::ByFingerprint
        );
        // Capacity 0 keeps nothing.
        let none = MacCache::new(0);
        let keyed = none.keyed(method, &newest, &ts).unwrap();
        none.keep(keyed);
        assert_eq!(none.len(), (0, 0));
        assert_eq!(none.keyed(method, &newest, &ts).unwrap().found, Found::No);
    }
}
