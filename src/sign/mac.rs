//! HMAC (RFC 2104) over the SHA compression functions, keyed once.
//!
//! A [`KeyedMac`] holds the hash states after the key's inner and outer pad blocks, so each
//! message costs only its own blocks and one outer block; a signer keys it once for all the
//! requests it signs. Those states are as good as the key, so they are wiped on drop, and so is
//! every working copy.

use sha2::digest::generic_array::GenericArray;
use zeroize::{Zeroize, Zeroizing};

use super::SignatureMethod;

/// The largest digest (SHA-512), in bytes.
const MAX_DIGEST: usize = 64;

/// One hash function of the SHA family, as its compression function and padding.
trait Sha {
    /// The chaining state.
    type State: Copy + Zeroize;
    /// The block size in bytes.
    const BLOCK: usize;
    /// The digest size in bytes.
    const DIGEST: usize;
    /// The size of the length field of the padding, in bytes.
    const LENGTH: usize;
    /// The initial state.
    const IV: Self::State;
    /// Compresses one block of `Self::BLOCK` bytes into `state`.
    fn compress(state: &mut Self::State, block: &[u8]);
    /// Writes the state as the big-endian digest.
    fn digest(state: &Self::State, out: &mut [u8]);
}

struct Sha1;
struct Sha256;
struct Sha512;

impl Sha for Sha1 {
    type State = [u32; 5];
    const BLOCK: usize = 64;
    const DIGEST: usize = 20;
    const LENGTH: usize = 8;
    const IV: [u32; 5] = [
        0x6745_2301,
        0xEFCD_AB89,
        0x98BA_DCFE,
        0x1032_5476,
        0xC3D2_E1F0,
    ];
    fn compress(state: &mut [u32; 5], block: &[u8]) {
        sha1::compress(state, std::slice::from_ref(GenericArray::from_slice(block)));
    }
    fn digest(state: &[u32; 5], out: &mut [u8]) {
        for (word, chunk) in state.iter().zip(out.chunks_exact_mut(4)) {
            chunk.copy_from_slice(&word.to_be_bytes());
        }
    }
}

impl Sha for Sha256 {
    type State = [u32; 8];
    const BLOCK: usize = 64;
    const DIGEST: usize = 32;
    const LENGTH: usize = 8;
    const IV: [u32; 8] = [
        0x6A09_E667,
        0xBB67_AE85,
        0x3C6E_F372,
        0xA54F_F53A,
        0x510E_527F,
        0x9B05_688C,
        0x1F83_D9AB,
        0x5BE0_CD19,
    ];
    fn compress(state: &mut [u32; 8], block: &[u8]) {
        sha2::compress256(state, std::slice::from_ref(GenericArray::from_slice(block)));
    }
    fn digest(state: &[u32; 8], out: &mut [u8]) {
        for (word, chunk) in state.iter().zip(out.chunks_exact_mut(4)) {
            chunk.copy_from_slice(&word.to_be_bytes());
        }
    }
}

impl Sha for Sha512 {
    type State = [u64; 8];
    const BLOCK: usize = 128;
    const DIGEST: usize = 64;
    const LENGTH: usize = 16;
    const IV: [u64; 8] = [
        0x6A09_E667_F3BC_C908,
        0xBB67_AE85_84CA_A73B,
        0x3C6E_F372_FE94_F82B,
        0xA54F_F53A_5F1D_36F1,
        0x510E_527F_ADE6_82D1,
        0x9B05_688C_2B3E_6C1F,
        0x1F83_D9AB_FB41_BD6B,
        0x5BE0_CD19_137E_2179,
    ];
    fn compress(state: &mut [u64; 8], block: &[u8]) {
        sha2::compress512(state, std::slice::from_ref(GenericArray::from_slice(block)));
    }
    fn digest(state: &[u64; 8], out: &mut [u8]) {
        for (word, chunk) in state.iter().zip(out.chunks_exact_mut(8)) {
            chunk.copy_from_slice(&word.to_be_bytes());
        }
    }
}

/// The hash of `prefix_len` bytes already compressed into `state` followed by `data`, written
/// to `out[..H::DIGEST]`. With `wipe`, the copy of the data's last block is wiped too (for a
/// key).
fn finish<H: Sha>(state: &H::State, prefix_len: usize, data: &[u8], out: &mut [u8], wipe: bool) {
    let mut state = Zeroizing::new(*state);
    let mut blocks = data.chunks_exact(H::BLOCK);
    for block in &mut blocks {
        H::compress(&mut state, block);
    }
    let rest = blocks.remainder();
    // The padding: 0x80, zeros, and the message length in bits, in one or two blocks.
    let mut last = [0u8; 256];
    last[..rest.len()].copy_from_slice(rest);
    last[rest.len()] = 0x80;
    let tail = if rest.len() < H::BLOCK - H::LENGTH {
        H::BLOCK
    } else {
        2 * H::BLOCK
    };
    let bits = (prefix_len as u128 + data.len() as u128) * 8;
    last[tail - H::LENGTH..tail].copy_from_slice(&bits.to_be_bytes()[16 - H::LENGTH..]);
    for block in last[..tail].chunks_exact(H::BLOCK) {
        H::compress(&mut state, block);
    }
    if wipe {
        last.zeroize();
    }
    H::digest(&state, out);
}

/// The inner and outer states of HMAC with one key.
struct Keyed<H: Sha> {
    inner: H::State,
    outer: H::State,
}

impl<H: Sha> Clone for Keyed<H> {
    fn clone(&self) -> Self {
        Keyed {
            inner: self.inner,
            outer: self.outer,
        }
    }
}

impl<H: Sha> Keyed<H> {
    fn new(key: &[u8]) -> Self {
        let mut block = Zeroizing::new([0u8; 128]);
        if key.len() > H::BLOCK {
            finish::<H>(&H::IV, 0, key, &mut block[..], true);
        } else {
            block[..key.len()].copy_from_slice(key);
        }
        // The key block is padded in place, first for the inner hash, then for the outer
        // (`0x36 ^ 0x6A` is `0x5C`), so that one buffer holds the key and is wiped.
        let mut pad = |byte: u8| {
            for k in block.iter_mut() {
                *k ^= byte;
            }
            let mut state = H::IV;
            H::compress(&mut state, &block[..H::BLOCK]);
            state
        };
        let inner = pad(0x36);
        let outer = pad(0x36 ^ 0x5C);
        Keyed { inner, outer }
    }

    fn mac(&self, data: &[u8], out: &mut [u8; MAX_DIGEST]) -> usize {
        let mut inner = [0u8; MAX_DIGEST];
        finish::<H>(&self.inner, H::BLOCK, data, &mut inner, false);
        finish::<H>(&self.outer, H::BLOCK, &inner[..H::DIGEST], out, false);
        H::DIGEST
    }
}

impl<H: Sha> Drop for Keyed<H> {
    fn drop(&mut self) {
        self.inner.zeroize();
        self.outer.zeroize();
    }
}

/// HMAC-SHA1, HMAC-SHA256 or HMAC-SHA512 keyed with one signing key.
#[derive(Clone)]
pub(crate) struct KeyedMac(Hmac);

#[derive(Clone)]
enum Hmac {
    Sha1(Keyed<Sha1>),
    Sha256(Keyed<Sha256>),
    Sha512(Keyed<Sha512>),
}

impl std::fmt::Debug for KeyedMac {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeyedMac(..)")
    }
}

impl KeyedMac {
    /// The keyed MAC of an HMAC method; `None` for the others.
    pub(crate) fn new(method: SignatureMethod, key: &[u8]) -> Option<Self> {
        match method {
            SignatureMethod::HmacSha1 => Some(Hmac::Sha1(Keyed::new(key))),
            SignatureMethod::HmacSha256 => Some(Hmac::Sha256(Keyed::new(key))),
            SignatureMethod::HmacSha512 => Some(Hmac::Sha512(Keyed::new(key))),
            _ => None,
        }
        .map(KeyedMac)
    }

    /// The MAC of `data`.
    pub(crate) fn digest(&self, data: &[u8]) -> MacDigest {
        let mut bytes = [0u8; MAX_DIGEST];
        let len = match &self.0 {
            Hmac::Sha1(k) => k.mac(data, &mut bytes),
            Hmac::Sha256(k) => k.mac(data, &mut bytes),
            Hmac::Sha512(k) => k.mac(data, &mut bytes),
        };
        MacDigest { bytes, len }
    }
}

/// An HMAC digest: `len` bytes of `bytes`.
pub(crate) struct MacDigest {
    bytes: [u8; MAX_DIGEST],
    len: usize,
}

impl std::ops::Deref for MacDigest {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use hmac::Mac;

    use super::*;

    fn ours(method: SignatureMethod, key: &[u8], data: &[u8]) -> Vec<u8> {
        KeyedMac::new(method, key).unwrap().digest(data).to_vec()
    }

    fn oracle(method: SignatureMethod, key: &[u8], data: &[u8]) -> Vec<u8> {
        fn run<M: Mac + hmac::digest::KeyInit>(key: &[u8], data: &[u8]) -> Vec<u8> {
            let mut mac = <M as hmac::digest::KeyInit>::new_from_slice(key).unwrap();
            mac.update(data);
            mac.finalize().into_bytes().to_vec()
        }
        match method {
            SignatureMethod::HmacSha1 => run::<hmac::Hmac<sha1::Sha1>>(key, data),
            SignatureMethod::HmacSha256 => run::<hmac::Hmac<sha2::Sha256>>(key, data),
            _ => run::<hmac::Hmac<sha2::Sha512>>(key, data),
        }
    }

    const METHODS: [SignatureMethod; 3] = [
        SignatureMethod::HmacSha1,
        SignatureMethod::HmacSha256,
        SignatureMethod::HmacSha512,
    ];

    /// Every message length across two blocks of padding, every key length across the block
    /// size (where long keys are hashed first): the same MAC as the `hmac` crate.
    #[test]
    fn agrees_with_the_hmac_crate_on_all_lengths() {
        let bytes: Vec<u8> = (0..400u32)
            .map(|i| u8::try_from(i * 7 % 251).unwrap())
            .collect();
        for method in METHODS {
            for key_len in [0, 1, 20, 63, 64, 65, 85, 127, 128, 129, 200] {
                let key = &bytes[100..100 + key_len];
                for data_len in 0..=300 {
                    let data = &bytes[..data_len];
                    assert_eq!(
                        ours(method, key, data),
                        oracle(method, key, data),
                        "{method} key {key_len} data {data_len}"
                    );
                }
            }
        }
    }

    /// RFC 2202 test case 2 and RFC 4231 test case 2 ("Jefe"), whose digests are printed in
    /// the RFCs.
    #[test]
    fn rfc_vectors() {
        let hex = |v: Vec<u8>| {
            use std::fmt::Write;
            v.iter().fold(String::new(), |mut s, b| {
                let _ = write!(s, "{b:02x}");
                s
            })
        };
        let data = b"what do ya want for nothing?";
        assert_eq!(
            hex(ours(SignatureMethod::HmacSha1, b"Jefe", data)),
            "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"
        );
        assert_eq!(
            hex(ours(SignatureMethod::HmacSha256, b"Jefe", data)),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_eq!(
            hex(ours(SignatureMethod::HmacSha512, b"Jefe", data)),
            "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554\
             9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"
        );
    }
}
