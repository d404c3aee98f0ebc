//! The stores in this process's memory: the credentials ([`MemoryCredentials`]) and the nonces
//! ([`MemoryNonceStore`]) of one server instance.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::future::{ready, Future};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, RwLock};

use super::fingerprint::{FingerprintKey, Fingerprinted};
use crate::error::StoreError;
use crate::store::{
    ConsumerCredential, CredentialStore, NonceKey, NonceStore, TokenCredential, TokenStore,
};
use oauth1_signer::{Secret, Timestamp};

/// The credential tables' hasher: keyed per process as the standard library's SipHash-1-3
/// is, and several times faster on keys this short (a verification looks up two or three).
/// Its weaker guard against chosen collisions does not matter here: what the tables hold is
/// the provider's (the consumer keys it registered, the tokens it issued); a request only
/// looks a key up.
type Keys = foldhash::fast::RandomState;

/// Tokens by consumer key, then token.
type Tokens = HashMap<String, HashMap<String, TokenCredential, Keys>, Keys>;

/// Credentials held in memory: for tests, tools and small deployments. Tokens can be added
/// while it serves ([`TokenStore`], which a provider's [`Issuer`](super::Issuer) uses); the
/// consumers are set before.
#[derive(Debug, Default)]
pub struct MemoryCredentials {
    consumers: HashMap<String, ConsumerCredential, Keys>,
    /// Tokens by consumer key, then token: looked up without making a key.
    tokens: RwLock<Tokens>,
}

impl Clone for MemoryCredentials {
    fn clone(&self) -> Self {
        MemoryCredentials {
            consumers: self.consumers.clone(),
            tokens: RwLock::new(self.read_tokens().clone()),
        }
    }
}

impl MemoryCredentials {
    /// No credentials.
    #[must_use]
    pub fn new() -> Self {
        MemoryCredentials::default()
    }

    /// Gives `consumer_key` a shared secret (replacing the one it had, keeping its public
    /// key).
    pub fn add_consumer(&mut self, consumer_key: impl Into<String>, secret: impl Into<Secret>) {
        let secret = secret.into();
        match self.consumers.entry(consumer_key.into()) {
            Entry::Occupied(mut held) => held.get_mut().secret = Some(secret),
            Entry::Vacant(slot) => {
                slot.insert(ConsumerCredential::from_secret(secret));
            }
        }
    }

    /// Holds `credential` for `consumer_key`, replacing whatever was held: a secret, a public
    /// key, the callbacks it registered.
    pub fn insert_consumer(
        &mut self,
        consumer_key: impl Into<String>,
        credential: ConsumerCredential,
    ) {
        self.consumers.insert(consumer_key.into(), credential);
    }

    /// Adds (or replaces) token credentials (an access token) issued to `consumer_key`.
    pub fn add_token(
        &mut self,
        consumer_key: impl Into<String>,
        token: impl Into<String>,
        secret: impl Into<Secret>,
    ) {
        self.insert_token(
            consumer_key.into(),
            token.into(),
            TokenCredential::access(secret),
        );
    }

    fn insert_token(&self, consumer_key: String, token: String, credential: TokenCredential) {
        self.tokens
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .entry(consumer_key)
            .or_default()
            .insert(token, credential);
    }

    fn read_tokens(&self) -> std::sync::RwLockReadGuard<'_, Tokens> {
        self.tokens
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Gives `consumer_key` an RSA public key (replacing the one it had, keeping its shared
    /// secret); a consumer added this way alone has no shared secret, so HMAC and PLAINTEXT
    /// never verify for it.
    ///
    /// # Errors
    ///
    /// [`ConfigError::WeakPublicKey`](crate::ConfigError::WeakPublicKey) for a key of fewer than
    /// [`MIN_RSA_BITS`](oauth1_signer::sign::MIN_RSA_BITS) bits.
    #[cfg(feature = "rsa")]
    pub fn add_public_key(
        &mut self,
        consumer_key: impl Into<String>,
        key: oauth1_signer::PublicKey,
    ) -> Result<(), crate::config::ConfigError> {
        let checked = ConsumerCredential::from_public_key(key)?;
        match self.consumers.entry(consumer_key.into()) {
            Entry::Occupied(mut held) => held.get_mut().public_key = checked.public_key,
            Entry::Vacant(slot) => {
                slot.insert(checked);
            }
        }
        Ok(())
    }
}

impl CredentialStore for MemoryCredentials {
    fn consumer(
        &self,
        consumer_key: &str,
    ) -> impl Future<Output = Result<Option<ConsumerCredential>, StoreError>> + Send {
        ready(Ok(self.consumers.get(consumer_key).cloned()))
    }

    fn token(
        &self,
        consumer_key: &str,
        token: &str,
    ) -> impl Future<Output = Result<Option<TokenCredential>, StoreError>> + Send {
        ready(Ok(self
            .read_tokens()
            .get(consumer_key)
            .and_then(|tokens| tokens.get(token))
            .cloned()))
    }
}

impl TokenStore for MemoryCredentials {
    fn save_token(
        &self,
        consumer_key: &str,
        token: &str,
        credential: TokenCredential,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        self.insert_token(consumer_key.to_owned(), token.to_owned(), credential);
        ready(Ok(()))
    }
}

/// A nonce store in this process's memory, for one server instance. Several instances need a
/// shared store, such as `RedisNonceStore` (feature `redis`).
///
/// Expired entries are dropped as time passes, found through an index by expiry: a request
/// pays for the entries of its shard (below) that expired since the shard's last request,
/// never for a pass over the whole table. The store holds at most
/// [`MemoryNonceStore::capacity`] nonces ([`DEFAULT_NONCE_CAPACITY`] unless set); when full,
/// a new nonce is a [`StoreError`] (the request fails, a `503` from the tower layer), never an
/// unexpired nonce forgotten, which would reopen its replay.
///
/// Each nonce is held as a 128-bit fingerprint of its scope (consumer key, token, timestamp
/// and nonce) with its expiry, 32 bytes in all, rather than as a string: SipHash-1-3 with
/// 128 bits of output and a random key drawn for the store, computed before the store is
/// locked. Two scopes
/// share a fingerprint (and the second is refused as a replay) with a chance of about
/// n² / 2¹²⁹ for n nonces held, about 10⁻²¹ for a billion; one who does not know the key
/// cannot do better, nor choose nonces that crowd the table.
///
/// The table is split by fingerprint into 64 shards, each behind its own lock. A hash table
/// that grows, or is rebuilt once removals have left tombstones in its free slots, moves every
/// entry it holds while its lock is held: with millions of nonces in one table, every request
/// would wait for that. A shard holds a sixty-fourth of the nonces, and a request waits only
/// for its own shard; concurrent requests mostly take different locks.
pub struct MemoryNonceStore {
    /// The key of the fingerprints.
    key: FingerprintKey,
    capacity: usize,
    /// The nonces the shards hold (expired ones until their shard's next purge): a new one
    /// is counted in before it is added, so that the shards together never hold more than
    /// `capacity`.
    held: AtomicUsize,
    shards: Box<[Shard]>,
}

impl std::fmt::Debug for MemoryNonceStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryNonceStore")
            .field("capacity", &self.capacity)
            .field("len", &self.len())
            .finish_non_exhaustive()
    }
}

/// The number of shards: a power of two, taken from a fingerprint's top bits (the tables hash
/// by its low bits).
const SHARDS: usize = 64;

/// A shard: its lock on a cache line of its own, so that requests in other shards do not
/// contend for the line.
#[derive(Debug, Default)]
#[repr(align(64))]
struct Shard(Mutex<MemoryState>);

/// The nonces a [`MemoryNonceStore`] holds unless told otherwise, 2²⁴: room for about
/// 27,900 requests a second, sustained, with the default 300-second window (each nonce is kept
/// 601 seconds), in about 0.8 GB of memory when full (a 16-byte fingerprint in a table and in
/// a list by expiry).
pub const DEFAULT_NONCE_CAPACITY: usize = 1 << 24;

impl Default for MemoryNonceStore {
    fn default() -> Self {
        MemoryNonceStore {
            key: FingerprintKey::new(),
            capacity: DEFAULT_NONCE_CAPACITY,
            held: AtomicUsize::new(0),
            shards: (0..SHARDS).map(|_| Shard::default()).collect(),
        }
    }
}

#[derive(Debug, Default)]
struct MemoryState {
    /// The fingerprints held, each listed under one second of `by_expiry`; the fingerprint is
    /// already a keyed hash, so the table uses it as it is. A shard purges the seconds before
    /// `now` before it looks a fingerprint up, so every one it finds is unexpired: the table
    /// needs no expiry of its own (16 bytes an entry).
    fingerprints: HashSet<u128, Fingerprinted>,
    /// The fingerprints by the second they expire, earliest first: what a purge visits.
    /// A second later than any held gets a list with room for as many as the latest second
    /// holds, so that a steady load does not grow it (and copy it) a dozen times a second;
    /// an earlier second (a client's clock behind) grows its list as it fills.
    by_expiry: BTreeMap<u64, Vec<u128>>,
    /// Index entries a purge has visited, for the tests that hold it to the expired ones.
    #[cfg(test)]
    visited: usize,
}

impl MemoryState {
    /// Drops every entry that expired before `now`, visiting only those; returns how many
    /// it dropped.
    fn purge(&mut self, now: u64) -> usize {
        let mut dropped = 0;
        while let Some(entry) = self.by_expiry.first_entry() {
            if *entry.key() >= now {
                break;
            }
            for fingerprint in entry.remove() {
                #[cfg(test)]
                {
                    self.visited += 1;
                }
                dropped += usize::from(self.fingerprints.remove(&fingerprint));
            }
        }
        dropped
    }
}

impl MemoryNonceStore {
    /// An empty store holding at most [`DEFAULT_NONCE_CAPACITY`] nonces.
    #[must_use]
    pub fn new() -> Self {
        MemoryNonceStore::default()
    }

    /// An empty store holding at most `capacity` unexpired nonces: size it to the requests
    /// expected over `2 × timestamp window + 1` seconds, the time each nonce is kept.
    #[must_use]
    pub fn with_capacity(capacity: usize) -> Self {
        MemoryNonceStore {
            capacity,
            ..MemoryNonceStore::default()
        }
    }

    /// The most nonces the store holds.
    #[must_use]
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The number of nonces held (expired ones included until their shard's next purge).
    #[must_use]
    pub fn len(&self) -> usize {
        self.held.load(Ordering::Relaxed)
    }

    /// Whether the store holds no nonce.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The fingerprint of a nonce's scope. Each part is framed (strings end with 0xFF, which
    /// UTF-8 never holds; the nonce, which may, comes with its length), so that two scopes
    /// never hash the same bytes. No token and an empty one are the same scope, as in
    /// [`NonceKey::to_key_string`].
    fn fingerprint(&self, key: &NonceKey<'_>) -> u128 {
        let mut hasher = self.key.fast();
        for text in [key.consumer_key, key.token.unwrap_or("")] {
            hasher.write(text.as_bytes());
            hasher.write_u8(0xFF);
        }
        hasher.write_u64(key.timestamp.as_secs());
        hasher.write_usize(key.nonce.len());
        hasher.write(key.nonce);
        hasher.finish()
    }
}

impl NonceStore for MemoryNonceStore {
    fn insert(
        &self,
        nonce: &NonceKey<'_>,
        now: Timestamp,
        expires_at: Timestamp,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        ready(self.record(nonce, now, expires_at))
    }
}

impl MemoryNonceStore {
    /// [`NonceStore::insert`], at once. When the store looks full, every shard drops its
    /// expired entries (each locked in turn, none while another is held) and the nonce is
    /// tried once more.
    fn record(
        &self,
        nonce: &NonceKey<'_>,
        now: Timestamp,
        expires_at: Timestamp,
    ) -> Result<bool, StoreError> {
        let fingerprint = self.fingerprint(nonce);
        let (now, expires_at) = (now.as_secs(), expires_at.as_secs());
        if let Some(new) = self.try_record(fingerprint, now, expires_at)? {
            return Ok(new);
        }
        for shard in &*self.shards {
            let dropped = lock(shard)?.purge(now);
            self.dropped(dropped);
        }
        self.try_record(fingerprint, now, expires_at)?
            .ok_or_else(|| {
                StoreError::new(format!(
                    "the nonce store is full: it holds {} unexpired nonces; give it a larger capacity (MemoryNonceStore::with_capacity) or a shorter timestamp window",
                    self.capacity
                ))
            })
    }

    /// Counts out the entries a purge dropped (most purges drop none, and pay no atomic
    /// write).
    fn dropped(&self, dropped: usize) {
        if dropped > 0 {
            self.held.fetch_sub(dropped, Ordering::Relaxed);
        }
    }

    /// Records the fingerprint in its shard, after the shard's purge: whether it was new,
    /// or `None` when it is new and the store is full.
    fn try_record(
        &self,
        fingerprint: u128,
        now: u64,
        expires_at: u64,
    ) -> Result<Option<bool>, StoreError> {
        let mut state = lock(&self.shards[shard_of(fingerprint)])?;
        self.dropped(state.purge(now));
        // Held after the purge: unexpired, so a replay.
        if !state.fingerprints.insert(fingerprint) {
            return Ok(Some(false));
        }
        // Counted in before it counts as held: two shards cannot both take the last room.
        let room = self
            .held
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |held| {
                (held < self.capacity).then_some(held + 1)
            });
        if room.is_err() {
            state.fingerprints.remove(&fingerprint);
            return Ok(None);
        }
        if let Some(held) = state.by_expiry.get_mut(&expires_at) {
            held.push(fingerprint);
        } else {
            let room = match state.by_expiry.last_key_value() {
                Some((&latest, held)) if latest < expires_at => held.len(),
                _ => 0,
            };
            // At least the room a vector's first push makes.
            let mut held = Vec::with_capacity(room.max(4));
            held.push(fingerprint);
            state.by_expiry.insert(expires_at, held);
        }
        Ok(Some(true))
    }
}

/// The shard of a fingerprint: its top bits, which the tables do not hash by.
#[allow(clippy::cast_possible_truncation)] // six bits
fn shard_of(fingerprint: u128) -> usize {
    (fingerprint >> (128 - SHARDS.trailing_zeros())) as usize
}

/// A shard's state, locked.
fn lock(shard: &Shard) -> Result<MutexGuard<'_, MemoryState>, StoreError> {
    shard
        .0
        .lock()
        .map_err(|_| StoreError::new("the nonce store's lock is poisoned"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(nonce: &[u8]) -> NonceKey<'_> {
        NonceKey {
            consumer_key: "ck",
            token: Some("tk"),
            timestamp: Timestamp::new(1_000),
            nonce,
        }
    }

    /// Whether the nonce was new, or the store's error as text.
    fn insert(
        store: &MemoryNonceStore,
        nonce: &str,
        now: u64,
        expires: u64,
    ) -> Result<bool, String> {
        store
            .record(
                &key(nonce.as_bytes()),
                Timestamp::new(now),
                Timestamp::new(expires),
            )
            .map_err(|e| e.to_string())
    }

    /// Index entries visited by the purges of every shard.
    fn visited(store: &MemoryNonceStore) -> usize {
        store
            .shards
            .iter()
            .map(|s| s.0.lock().unwrap().visited)
            .sum()
    }

    #[test]
    fn a_purge_visits_only_the_entries_that_expired() {
        let store = MemoryNonceStore::new();
        for i in 0..1_000u64 {
            assert_eq!(
                insert(&store, &format!("n{i}"), 1_000, 1_000 + i % 10),
                Ok(true)
            );
        }
        assert_eq!(visited(&store), 0);
        // Five seconds on, requests in every shard (2,000 of them over 64 shards miss one
        // with a chance under 10⁻¹¹): the nonces that expired at 1,000 to 1,004 go, and
        // only they are visited.
        for i in 0..2_000 {
            assert_eq!(insert(&store, &format!("late{i}"), 1_005, 1_020), Ok(true));
        }
        assert_eq!(visited(&store), 500);
        assert_eq!(store.len(), 2_500);
        // A nonce still held is a replay; one dropped is new again.
        assert_eq!(insert(&store, "n9", 1_005, 1_020), Ok(false));
        assert_eq!(insert(&store, "n10", 1_005, 1_020), Ok(true));
        // Nothing more expired: more requests visit nothing.
        for i in 0..2_000 {
            assert_eq!(insert(&store, &format!("again{i}"), 1_005, 1_020), Ok(true));
        }
        assert_eq!(visited(&store), 500);
        assert_eq!(store.len(), 4_501);
    }

    #[test]
    fn a_nonce_into_a_shard_with_room_allocates_nothing() {
        let store = MemoryNonceStore::new();
        assert_eq!(insert(&store, "first", 1_000, 1_010), Ok(true));
        // A nonce of the same shard as the first, whose table, index entry for the second and
        // list have room for it.
        let shard = |nonce: &str| shard_of(store.fingerprint(&key(nonce.as_bytes())));
        let same = (0..100_000)
            .map(|i| format!("n{i}"))
            .find(|n| shard(n) == shard("first"))
            .unwrap();
        let info = allocation_counter::measure(|| {
            assert_eq!(insert(&store, &same, 1_000, 1_010), Ok(true));
        });
        assert_eq!(info.count_total, 0);
    }

    /// A second later than the latest held has its list made with room for as many
    /// fingerprints as the latest second's: a steady load does not grow it.
    #[test]
    fn a_new_second_has_room_for_as_many_as_the_last() {
        let store = MemoryNonceStore::new();
        let shard = |nonce: &str| shard_of(store.fingerprint(&key(nonce.as_bytes())));
        let same: Vec<String> = (0..2_000_000)
            .map(|i| format!("n{i}"))
            .filter(|n| shard(n) == shard("n0"))
            .take(350)
            .collect();
        let (latest, rest) = same.split_at(100);
        let (earlier, next) = rest.split_at(150);
        for nonce in latest {
            assert_eq!(insert(&store, nonce, 1_000, 1_010), Ok(true));
        }
        // An earlier second: the shard's table grows to room for more than 350; the latest
        // second stays the latest.
        for nonce in earlier {
            assert_eq!(insert(&store, nonce, 1_000, 1_009), Ok(true));
        }
        assert_eq!(insert(&store, &next[0], 1_000, 1_011), Ok(true));
        let info = allocation_counter::measure(|| {
            for nonce in &next[1..] {
                assert_eq!(insert(&store, nonce, 1_000, 1_011), Ok(true));
            }
        });
        assert_eq!(info.count_total, 0);
    }

    #[test]
    fn concurrent_requests_accept_each_nonce_once() {
        // Four threads record the same nonces, across every shard: each is new exactly once.
        let store = MemoryNonceStore::new();
        let accepted: usize = std::thread::scope(|scope| {
            let threads: Vec<_> = (0..4)
                .map(|_| {
                    scope.spawn(|| {
                        (0..5_000)
                            .filter(|i| insert(&store, &format!("n{i}"), 1_000, 1_010) == Ok(true))
                            .count()
                    })
                })
                .collect();
            threads.into_iter().map(|t| t.join().unwrap()).sum()
        });
        assert_eq!(accepted, 5_000);
        assert_eq!(store.len(), 5_000);
    }

    #[test]
    fn a_full_store_refuses_new_nonces_and_still_sees_replays() {
        let store = MemoryNonceStore::with_capacity(3);
        assert_eq!(store.capacity(), 3);
        for nonce in ["a", "b", "c"] {
            assert_eq!(insert(&store, nonce, 1_000, 1_010), Ok(true));
        }
        assert_eq!(
            insert(&store, "d", 1_000, 1_010).unwrap_err(),
            "the nonce store is full: it holds 3 unexpired nonces; give it a larger capacity (MemoryNonceStore::with_capacity) or a shorter timestamp window"
        );
        // Full, a replay is still a replay, not an error.
        assert_eq!(insert(&store, "a", 1_000, 1_010), Ok(false));
        // Once they expire there is room again: for three new nonces, so the three expired
        // ones were dropped (a new nonce whose shard held an expired one may be recorded
        // before the others are dropped, so the count is read once the store is full again).
        for nonce in ["d", "e", "f"] {
            assert_eq!(insert(&store, nonce, 1_011, 1_020), Ok(true));
        }
        assert_eq!(store.len(), 3);
        assert_eq!(insert(&store, "a", 1_011, 1_020), Err("the nonce store is full: it holds 3 unexpired nonces; give it a larger capacity (MemoryNonceStore::with_capacity) or a shorter timestamp window".to_owned()));
        assert_eq!(MemoryNonceStore::new().capacity(), DEFAULT_NONCE_CAPACITY);
    }
}
