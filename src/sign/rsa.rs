//! RSA keys and the RSA-SHA1 and RSA-SHA256 signatures (RFC 5849 §3.4.3, PKCS#1 v1.5): what
//! the `rsa` feature adds. Without it a [`PrivateKey`] cannot be made, so every RSA path is
//! uninhabited.

use std::fmt;

#[cfg(feature = "rsa")]
use base64::{engine::general_purpose::STANDARD as BASE64, Engine};
#[cfg(feature = "rsa")]
use sha1::Sha1;
#[cfg(feature = "rsa")]
use sha2::{Digest, Sha256};

use crate::error::Error;

use super::SignatureMethod;

/// An RSA private key for `RSA-SHA1` and `RSA-SHA256`, read from PEM. Redacted in `Debug`;
/// the key zeroizes itself on drop. Only the `rsa` feature can make one.
#[derive(Clone)]
pub struct PrivateKey {
    #[cfg(feature = "rsa")]
    inner: rsa::PrivateKey,
    #[cfg(not(feature = "rsa"))]
    never: std::convert::Infallible,
}

impl fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PrivateKey(..)")
    }
}

#[cfg(feature = "rsa")]
impl PrivateKey {
    /// Reads a PKCS#1 (`-----BEGIN RSA PRIVATE KEY-----`) or PKCS#8
    /// (`-----BEGIN PRIVATE KEY-----`) PEM private key.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidPrivateKey`], saying what is wrong without quoting the key.
    pub fn from_pem(pem: &str) -> Result<Self, Error> {
        use rsa::pkcs1::DecodeRsaPrivateKey;
        use rsa::pkcs8::DecodePrivateKey;

        let invalid = |reason: String| Error::InvalidPrivateKey { reason };
        let inner = if pem.contains("-----BEGIN RSA PRIVATE KEY-----") {
            rsa::PrivateKey::from_pkcs1_pem(pem)
                .map_err(|e| invalid(format!("the PKCS#1 PEM could not be read ({e})")))?
        } else if pem.contains("-----BEGIN PRIVATE KEY-----") {
            rsa::PrivateKey::from_pkcs8_pem(pem)
                .map_err(|e| invalid(format!("the PKCS#8 PEM could not be read ({e})")))?
        } else if pem.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") {
            return Err(invalid(
                "the key is encrypted: decrypt it first (openssl pkcs8 -in key.pem -out plain.pem)"
                    .to_owned(),
            ));
        } else if pem.contains("PUBLIC KEY-----") || pem.contains("-----BEGIN CERTIFICATE-----") {
            return Err(invalid(
                "this is a public key or a certificate, which the server keeps: sign with the private key (\"-----BEGIN RSA PRIVATE KEY-----\" or \"-----BEGIN PRIVATE KEY-----\")"
                    .to_owned(),
            ));
        } else {
            return Err(invalid(
                "expected a PEM block \"-----BEGIN RSA PRIVATE KEY-----\" (PKCS#1) or \"-----BEGIN PRIVATE KEY-----\" (PKCS#8)"
                    .to_owned(),
            ));
        };
        Ok(PrivateKey { inner })
    }
}

/// An RSA public key, with which a server verifies `RSA-SHA1` and `RSA-SHA256` signatures.
/// Only the `rsa` feature has it.
#[cfg(feature = "rsa")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicKey {
    /// Shared by clones: a credential store hands out a consumer's key per request.
    inner: std::sync::Arc<rsa::PublicKey>,
}

/// The fewest bits of an RSA public key a verifier accepts: smaller moduli can be factored.
#[cfg(feature = "rsa")]
pub const MIN_RSA_BITS: usize = 2048;

#[cfg(feature = "rsa")]
impl PublicKey {
    /// Reads a PKCS#1 (`-----BEGIN RSA PUBLIC KEY-----`) or `SubjectPublicKeyInfo`
    /// (`-----BEGIN PUBLIC KEY-----`) PEM public key.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidPublicKey`], saying what is wrong.
    pub fn from_pem(pem: &str) -> Result<Self, Error> {
        use rsa::pkcs1::DecodeRsaPublicKey;
        use rsa::pkcs8::DecodePublicKey;

        let invalid = |reason: String| {
            // The rsa crate refuses moduli under 1024 bits as malformed: say why instead.
            match modulus_bits(pem) {
                Some(bits) if bits < MIN_RSA_BITS => Error::InvalidPublicKey {
                    reason: format!(
                        "the key has {bits} bits; a verifier accepts keys of {MIN_RSA_BITS} bits or more"
                    ),
                },
                _ => Error::InvalidPublicKey { reason },
            }
        };
        let inner = if pem.contains("-----BEGIN RSA PUBLIC KEY-----") {
            rsa::PublicKey::from_pkcs1_pem(pem)
                .map_err(|e| invalid(format!("the PKCS#1 PEM could not be read ({e})")))?
        } else if pem.contains("-----BEGIN PUBLIC KEY-----") {
            rsa::PublicKey::from_public_key_pem(pem).map_err(|e| {
                invalid(format!(
                    "the SubjectPublicKeyInfo PEM could not be read ({e})"
                ))
            })?
        } else {
            return Err(invalid(
                "expected a PEM block \"-----BEGIN RSA PUBLIC KEY-----\" (PKCS#1) or \"-----BEGIN PUBLIC KEY-----\" (SubjectPublicKeyInfo)"
                    .to_owned(),
            ));
        };
        Ok(PublicKey {
            inner: std::sync::Arc::new(inner),
        })
    }

    /// The size of the modulus in bits (2048 for a 2048-bit key).
    #[must_use]
    pub fn bits(&self) -> usize {
        use rsa::traits::PublicKeyParts;
        usize::try_from(self.inner.n().bit_width()).unwrap_or(usize::MAX)
    }
}

/// The size in bits of the modulus of an RSA public key in PEM (PKCS#1 or
/// `SubjectPublicKeyInfo`), read from its ASN.1 alone.
#[cfg(feature = "rsa")]
fn modulus_bits(pem: &str) -> Option<usize> {
    use rsa::pkcs1::der::Decode;

    let (label, der) = rsa::pkcs1::pem::decode_vec(pem.trim().as_bytes()).ok()?;
    let spki;
    let pkcs1 = if label == "PUBLIC KEY" {
        spki = rsa::pkcs8::spki::SubjectPublicKeyInfoRef::from_der(&der).ok()?;
        spki.subject_public_key.raw_bytes()
    } else {
        &der[..]
    };
    let key = rsa::pkcs1::RsaPublicKey::<rsa::pkcs1::UintRef<'_>>::from_der(pkcs1).ok()?;
    let modulus = key.modulus.as_bytes();
    let first = modulus.first()?;
    Some(modulus.len() * 8 - first.leading_zeros() as usize)
}

#[cfg(feature = "rsa")]
impl From<&PrivateKey> for PublicKey {
    fn from(key: &PrivateKey) -> Self {
        PublicKey {
            inner: std::sync::Arc::new(key.inner.to_public_key()),
        }
    }
}

#[cfg(feature = "rsa")]
pub(super) fn rsa_sign(
    method: SignatureMethod,
    key: &PrivateKey,
    base_string: &[u8],
) -> Result<String, Error> {
    let (padding, digest) = rsa_padding_and_digest(method, base_string);
    // The operating system's random generator (the rsa crate's `getrandom` feature) blinds the
    // private-key operation; PKCS#1 v1.5 signatures are deterministic all the same.
    let signature = key
        .inner
        .sign(padding, &digest)
        .map_err(|e| Error::Signing {
            reason: format!("the RSA operation failed ({e})"),
        })?;
    Ok(BASE64.encode(signature))
}

/// The PKCS#1 v1.5 padding and the digest of the base string for an RSA method.
#[cfg(feature = "rsa")]
fn rsa_padding_and_digest(
    method: SignatureMethod,
    base_string: &[u8],
) -> (rsa::Pkcs1v15Sign, Vec<u8>) {
    use rsa::Pkcs1v15Sign;

    if method == SignatureMethod::RsaSha256 {
        (
            Pkcs1v15Sign::new::<Sha256>(),
            Sha256::digest(base_string).to_vec(),
        )
    } else {
        (
            Pkcs1v15Sign::new::<Sha1>(),
            Sha1::digest(base_string).to_vec(),
        )
    }
}

/// Whether `signature` (raw bytes, after base64 decoding) is `method`'s RSA signature of
/// `base_string` under `key`; false for a method that is not RSA's.
#[cfg(feature = "rsa")]
#[must_use]
pub fn rsa_verify(
    method: SignatureMethod,
    key: &PublicKey,
    base_string: &[u8],
    signature: &[u8],
) -> bool {
    if !method.is_rsa() {
        return false;
    }
    let (padding, digest) = rsa_padding_and_digest(method, base_string);
    key.inner.verify(padding, &digest, signature).is_ok()
}

#[cfg(not(feature = "rsa"))]
pub(super) fn rsa_sign(_: SignatureMethod, key: &PrivateKey, _: &[u8]) -> Result<String, Error> {
    match key.never {}
}
