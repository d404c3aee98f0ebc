//! Keyed 128-bit fingerprints, for tables whose keys must not be guessed: the memory nonce
//! store's nonces and the verifier's keyed HMACs. Each table draws its own key, so one who
//! does not know it cannot compute a fingerprint, nor choose inputs that collide or crowd a
//! table; two inputs share a fingerprint with a chance of about 2⁻¹²⁸.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, BuildHasherDefault, Hasher};

use siphasher::sip128::{Hasher128, SipHasher13, SipHasher24};

/// A secret key for fingerprints, drawn when made.
#[derive(Clone, Copy)]
pub(crate) struct FingerprintKey(u64, u64);

impl std::fmt::Debug for FingerprintKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FingerprintKey(..)")
    }
}

impl FingerprintKey {
    /// A new key, taken from the standard library's randomly keyed hasher (whose keys come
    /// from the operating system's random number generator): the key is that hasher's hashes
    /// of two constants, which nobody can compute without its keys.
    pub(crate) fn new() -> Self {
        let random = RandomState::new();
        let half = |i: u64| {
            let mut hasher = random.build_hasher();
            hasher.write_u64(i);
            hasher.finish()
        };
        FingerprintKey(half(0), half(1))
    }

    /// A hasher with SipHash-1-3, the rounds of the standard library's tables: for
    /// fingerprints whose collision only costs availability (a fresh nonce taken for a
    /// replay).
    pub(crate) fn fast(self) -> Fingerprinter<SipHasher13> {
        Fingerprinter(SipHasher13::new_with_keys(self.0, self.1))
    }

    /// A hasher with SipHash-2-4, the rounds of its use as a message authentication code: for
    /// fingerprints that stand for secrets.
    pub(crate) fn strong(self) -> Fingerprinter<SipHasher24> {
        Fingerprinter(SipHasher24::new_with_keys(self.0, self.1))
    }
}

/// A fingerprint in the making: written like a [`Hasher`], finished to 128 bits.
pub(crate) struct Fingerprinter<H>(H);

impl<H: Hasher + Hasher128> Fingerprinter<H> {
    pub(crate) fn write(&mut self, bytes: &[u8]) {
        self.0.write(bytes);
    }

    pub(crate) fn write_u8(&mut self, value: u8) {
        self.0.write_u8(value);
    }

    pub(crate) fn write_u64(&mut self, value: u64) {
        self.0.write_u64(value);
    }

    pub(crate) fn write_usize(&mut self, value: usize) {
        self.0.write_usize(value);
    }

    pub(crate) fn finish(&self) -> u128 {
        self.0.finish128().as_u128()
    }
}

/// The hasher of tables whose keys are fingerprints already: their low 64 bits.
pub(crate) type Fingerprinted = BuildHasherDefault<LowBits>;

/// See [`Fingerprinted`].
#[derive(Debug, Default)]
pub(crate) struct LowBits(u64);

impl Hasher for LowBits {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `u128`s are hashed; any other bytes are folded in all the same.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    #[allow(clippy::cast_possible_truncation)] // the low 64 bits, on purpose
    fn write_u128(&mut self, fingerprint: u128) {
        self.0 = fingerprint as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_differ_and_fingerprints_depend_on_key_rounds_and_input() {
        let (a, b) = (FingerprintKey::new(), FingerprintKey::new());
        assert!((a.0, a.1) != (b.0, b.1));
        let of = |key: FingerprintKey, strong: bool, input: &[u8]| {
            if strong {
                let mut h = key.strong();
                h.write(input);
                h.finish()
            } else {
                let mut h = key.fast();
                h.write(input);
                h.finish()
            }
        };
        assert_eq!(of(a, false, b"x"), of(a, false, b"x"));
        assert_ne!(of(a, false, b"x"), of(b, false, b"x"));
        assert_ne!(of(a, false, b"x"), of(a, false, b"y"));
        assert_ne!(of(a, false, b"x"), of(a, true, b"x"));
        // SipHash-2-4 with 128 bits of output, key 00..0f, the empty message: the first of
        // the reference implementation's vectors (vectors.h, vectors_sip128).
        let key = FingerprintKey(
            u64::from_le_bytes([0, 1, 2, 3, 4, 5, 6, 7]),
            u64::from_le_bytes([8, 9, 10, 11, 12, 13, 14, 15]),
        );
        let expected: [u8; 16] = [
            0xa3, 0x81, 0x7f, 0x04, 0xba, 0x25, 0xa8, 0xe6, 0x6d, 0xf6, 0x72, 0x14, 0xc7, 0x55,
            0x02, 0x93,
        ];
        let h = key.strong();
        assert_eq!(h.finish().to_le_bytes(), expected);
    }
}
