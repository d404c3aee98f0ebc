//! The signature methods' names (RFC 5849 §3.4), a vocabulary below every stage that names
//! them: the signing code (`sign`) and the errors. Parsing a name, which can fail with an
//! [`Error`](crate::error::Error), is beside the signing code.

use std::fmt;

/// A signature method (§3.4), named as in `oauth_signature_method`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SignatureMethod {
    /// `HMAC-SHA1` (§3.4.2), the default.
    #[default]
    HmacSha1,
    /// `HMAC-SHA256`.
    HmacSha256,
    /// `HMAC-SHA512`.
    HmacSha512,
    /// `PLAINTEXT` (§3.4.4): the signing key itself; only safe over TLS.
    Plaintext,
    /// `RSA-SHA1` (§3.4.3), PKCS#1 v1.5; needs the `rsa` feature and a
    /// [`PrivateKey`](crate::sign::PrivateKey).
    RsaSha1,
    /// `RSA-SHA256`, PKCS#1 v1.5; needs the `rsa` feature and a
    /// [`PrivateKey`](crate::sign::PrivateKey).
    RsaSha256,
}

impl SignatureMethod {
    /// Every method, in the order of the RFC and then of their digests.
    pub const ALL: [SignatureMethod; 6] = [
        SignatureMethod::HmacSha1,
        SignatureMethod::HmacSha256,
        SignatureMethod::HmacSha512,
        SignatureMethod::Plaintext,
        SignatureMethod::RsaSha1,
        SignatureMethod::RsaSha256,
    ];

    /// The name, as in `oauth_signature_method`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            SignatureMethod::HmacSha1 => "HMAC-SHA1",
            SignatureMethod::HmacSha256 => "HMAC-SHA256",
            SignatureMethod::HmacSha512 => "HMAC-SHA512",
            SignatureMethod::Plaintext => "PLAINTEXT",
            SignatureMethod::RsaSha1 => "RSA-SHA1",
            SignatureMethod::RsaSha256 => "RSA-SHA256",
        }
    }

    /// [`as_str`](Self::as_str) with the proof that it is its own encoding, checked when the
    /// program is compiled, for every method.
    pub(crate) fn as_unreserved(self) -> crate::encode::Unreserved<'static> {
        use crate::encode::Unreserved;
        const NAMES: [Unreserved<'static>; 6] = {
            let mut names = [Unreserved::literal(""); 6];
            let mut i = 0;
            while i < SignatureMethod::ALL.len() {
                // The table is indexed by the method's discriminant.
                assert!(
                    SignatureMethod::ALL[i] as usize == i,
                    "ALL in declaration order"
                );
                names[i] = Unreserved::literal(SignatureMethod::ALL[i].as_str());
                i += 1;
            }
            names
        };
        NAMES[self as usize]
    }

    /// Whether the method signs with an RSA private key rather than the shared secrets.
    #[must_use]
    pub const fn is_rsa(self) -> bool {
        matches!(self, SignatureMethod::RsaSha1 | SignatureMethod::RsaSha256)
    }
}

impl fmt::Display for SignatureMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
