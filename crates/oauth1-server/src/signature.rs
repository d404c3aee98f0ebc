//! Check 5, the signature: compared in constant time with the credential the method needs,
//! unknown credentials checked against dummies of the same kind; and check 6, the body hash.

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use subtle::ConstantTimeEq;

use crate::error::VerifyError;
use crate::macs::MacCache;
use crate::policy::BodyHashDigest;
use crate::store::{ConsumerCredential, TokenCredential};
use oauth1_signer::base_string::{BaseString, BaseUri};
use oauth1_signer::params::Normalized;
use oauth1_signer::sign::{self, SignatureMethod, SigningKey};
use oauth1_signer::Secret;

/// Compares the signature in constant time, with what the store holds for the consumer and
/// (when `token_sent`) the token. The caller looks both up for every method; unknown
/// credentials, or a consumer without the credential the method needs, are checked against
/// a dummy of the same kind (a short secret, a 2048-bit public key) and never match: the
/// same lookups and the same work, and the same answer as a wrong signature.
pub(crate) fn check_signature(
    macs: &MacCache,
    method: SignatureMethod,
    (consumer, token_sent, held): (Option<&ConsumerCredential>, bool, Option<&TokenCredential>),
    base: &Base<'_>,
    signature: &[u8],
) -> Result<bool, VerifyError> {
    let no_token = Secret::default();
    let token_secret = if token_sent {
        held.map(TokenCredential::secret)
    } else {
        Some(&no_token)
    };
    if method.is_rsa() {
        let base_string = base.build();
        let authentic = check_rsa(method, consumer, base_string.as_bytes(), signature)
            && token_secret.is_some();
        return Ok(authentic);
    }
    let consumer_secret = consumer.and_then(ConsumerCredential::secret);
    let known = consumer_secret.is_some() && token_secret.is_some();
    let dummy = dummy_secret();
    let (consumer_secret, token_secret) = (
        consumer_secret.unwrap_or(dummy),
        token_secret.unwrap_or(dummy),
    );
    if method == SignatureMethod::Plaintext {
        let key = SigningKey::new(consumer_secret, token_secret);
        return Ok(known && bool::from(key.expose().ct_eq(signature)));
    }
    let keyed = macs
        .keyed(method, consumer_secret, token_secret)
        .ok_or_else(|| VerifyError::Signing {
            detail: format!("{method} is not an HMAC method"),
        })?;
    // Hashed as it is written: the base string is built only for a bad signature's error.
    let expected = keyed
        .mac
        .digest_base_string(base.method, base.uri, base.params);
    // Strict base64: canonical padding, no trailing bits; anything else cannot match, nor
    // can anything longer than the longest digest (64 bytes in 88 characters).
    let mut sent = [0u8; 66];
    let sent = BASE64
        .decode_slice(signature, &mut sent)
        .map_or(&[][..], |len| &sent[..len]);
    let authentic = known && bool::from(expected.ct_eq(sent));
    if authentic {
        macs.keep(keyed);
    }
    Ok(authentic)
}

/// What a received request's signature base string is made of.
pub(crate) struct Base<'a> {
    pub(crate) method: &'a str,
    pub(crate) uri: &'a BaseUri<'a>,
    pub(crate) params: &'a Normalized,
}

impl Base<'_> {
    /// The base string, built.
    pub(crate) fn build(&self) -> BaseString {
        BaseString::new(self.method, self.uri, self.params)
    }
}

/// Checks `oauth_body_hash` (`sent`) against the body, with the digests the policy takes.
pub(super) fn check_body_hash(
    digest: BodyHashDigest,
    method: SignatureMethod,
    body: &[u8],
    sent: &[u8],
) -> Result<(), VerifyError> {
    let hash_of = |method| sign::body_hash(method, body);
    let matches = |hash: &str| bool::from(hash.as_bytes().ct_eq(sent));
    let sha1 = || hash_of(SignatureMethod::HmacSha1);
    // The body is hashed a second time only for a method whose digest is not SHA-1 and a hash
    // that is not of that digest.
    let ok = match digest {
        BodyHashDigest::OfMethod => matches(&hash_of(method)),
        BodyHashDigest::Sha1 => matches(&sha1()),
        BodyHashDigest::OfMethodOrSha1 => {
            matches(&hash_of(method)) || (!digests_sha1(method) && matches(&sha1()))
        }
    };
    if ok {
        return Ok(());
    }
    // A hash of the body with the other digest is a client that hashes the other way, not a
    // body changed on the way: say so.
    let other_digest = hash_of(method) != sha1();
    let detail = if digest == BodyHashDigest::OfMethod && other_digest && matches(&sha1()) {
        "oauth_body_hash is the body's SHA-1, and this server takes the digest of the signature method (SHA-256 for the *-SHA256 methods, SHA-512 for HMAC-SHA512), as the Body Hash extension says: hash with that digest, or have the server accept SHA-1 (BodyHashDigest::OfMethodOrSha1)"
    } else if digest == BodyHashDigest::Sha1 && other_digest && matches(&hash_of(method)) {
        "oauth_body_hash is the body's digest of the signature method, and this server takes SHA-1: hash the body with SHA-1, or have the server accept the method's digest (BodyHashDigest::OfMethodOrSha1)"
    } else {
        "oauth_body_hash does not match the body: hash the body exactly as sent"
    };
    Err(VerifyError::BadBodyHash { detail })
}

/// Whether `method`'s body hash is SHA-1 already (the SHA-1 methods and PLAINTEXT).
fn digests_sha1(method: SignatureMethod) -> bool {
    !matches!(
        method,
        SignatureMethod::HmacSha256 | SignatureMethod::RsaSha256 | SignatureMethod::HmacSha512
    )
}

/// The secret unknown consumers and tokens are checked with. Twice over with the `&`, it fits
/// one hash block, as most keys do: an unknown credential costs no extra hash.
fn dummy_secret() -> &'static Secret {
    static DUMMY: std::sync::OnceLock<Secret> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| Secret::from(&b"unknown-credential"[..]))
}

/// Checks an RSA signature with the consumer's public key, or with a dummy key of 2048 bits
/// (the same work, never a match) for an unknown consumer or one without a key.
#[cfg(feature = "rsa")]
fn check_rsa(
    method: SignatureMethod,
    consumer: Option<&ConsumerCredential>,
    base_string: &[u8],
    signature: &[u8],
) -> bool {
    static DUMMY: std::sync::OnceLock<Option<oauth1_signer::PublicKey>> =
        std::sync::OnceLock::new();
    let key = consumer.and_then(ConsumerCredential::public_key);
    let Some(used) = key.or_else(|| {
        DUMMY
            .get_or_init(|| oauth1_signer::PublicKey::from_pem(DUMMY_PUBLIC_KEY).ok())
            .as_ref()
    }) else {
        return false;
    };
    let sent = BASE64.decode(signature).unwrap_or_default();
    oauth1_signer::server::rsa_verify(method, used, base_string, &sent) && key.is_some()
}

#[cfg(not(feature = "rsa"))]
fn check_rsa(_: SignatureMethod, _: Option<&ConsumerCredential>, _: &[u8], _: &[u8]) -> bool {
    false
}

/// The public half of a 2048-bit key whose private half was thrown away: what unknown
/// consumers' RSA signatures are checked against.
#[cfg(feature = "rsa")]
const DUMMY_PUBLIC_KEY: &str = "-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEApn0wrGC6AGbX4ljKkmiN
HVTMfg757EAoQqDyeT1+nIEB1P8WO/rq8eGIinSZnXkHssFSIlDylz/Ask6kCfAW
Jxjha4wM96f+AkIzhgqjFxvqUogyFlD29ZDH54CNPpVhZiorbKpOxpKtTfQcg68h
5mbcsxFyFa5o+i2DncCc6QUBcMlvEvYP63ftBGTg88x2lSFw5iDXmHp7XdAzXaN5
kvIGz7g0Qo/tFIkGT2m/KPBEsG09ESmAxqJ6P9WMlAG63qtS0izHuczES39e5pOw
vJC/vHdqlQSELzssoi0KUzfsq3vWaI0wT9QBIVXZUyz0426UfOT1M6Fx0pCYu6z/
GwIDAQAB
-----END PUBLIC KEY-----
";
