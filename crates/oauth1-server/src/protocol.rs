//! The protocol parameters of a received request: the one transport that carries them, where
//! each lies among the collected parameters, and what each kind of request needs (RFC 5849
//! §2, §3.1).

use zeroize::{Zeroize, Zeroizing};

use crate::error::VerifyError;

use crate::store::TokenKind;
use oauth1_signer::params::{Normalized, Parameters, Source};
use oauth1_signer::server::Span;

/// The protocol parameters of the transport that carries them: where their values lie in the
/// collected parameters, which stay put through `retain` and `normalize`. The signature is
/// copied out, since `retain` then wipes it from the parameters.
#[derive(Default)]
pub(super) struct ProtocolSpans {
    pub(super) consumer_key: Option<Span>,
    pub(super) token: Option<Span>,
    pub(super) signature_method: Option<Span>,
    pub(super) signature: Option<SentSignature>,
    pub(super) timestamp: Option<Span>,
    pub(super) nonce: Option<Span>,
    pub(super) version: Option<Span>,
    pub(super) body_hash: Option<Span>,
}

impl ProtocolSpans {
    /// Whether no protocol parameter was found.
    pub(super) fn is_empty(&self) -> bool {
        let ProtocolSpans {
            consumer_key,
            token,
            signature_method,
            signature,
            timestamp,
            nonce,
            version,
            body_hash,
        } = self;
        consumer_key.is_none()
            && token.is_none()
            && signature_method.is_none()
            && signature.is_none()
            && timestamp.is_none()
            && nonce.is_none()
            && version.is_none()
            && body_hash.is_none()
    }
}

/// The signature received, copied out of the parameters (which then wipe it): held in place
/// when it is no longer than an HMAC's (88 characters for HMAC-SHA512), so that the common
/// verification allocates nothing for it; on the heap when it is longer (RSA) or holds a `&`:
/// a PLAINTEXT signature is the secrets joined by `&`, and held in place it would be copied
/// wherever the spans are moved, where nothing wipes it. Wiped when dropped either way.
pub(super) enum SentSignature {
    /// The first `len` bytes.
    Inline {
        len: u8,
        bytes: [u8; INLINE],
    },
    Heap(Zeroizing<Vec<u8>>),
}

/// The longest signature held in place: HMAC-SHA512's 64 bytes in base64.
const INLINE: usize = 88;

impl SentSignature {
    fn new(value: &[u8]) -> Self {
        match u8::try_from(value.len()) {
            Ok(len) if value.len() <= INLINE && !value.contains(&b'&') => {
                let mut bytes = [0; INLINE];
                bytes[..value.len()].copy_from_slice(value);
                SentSignature::Inline { len, bytes }
            }
            _ => SentSignature::Heap(Zeroizing::new(value.to_vec())),
        }
    }

    /// The signature's bytes.
    pub(super) fn as_slice(&self) -> &[u8] {
        match self {
            SentSignature::Inline { len, bytes } => &bytes[..usize::from(*len)],
            SentSignature::Heap(bytes) => bytes,
        }
    }
}

impl Drop for SentSignature {
    fn drop(&mut self) {
        // The bytes held, not the whole array, which volatile writes would each visit.
        if let SentSignature::Inline { len, bytes } = self {
            bytes[..usize::from(*len)].zeroize();
        }
    }
}

/// Finds the transport that carries the `oauth_*` parameters (exactly one may) and where their
/// values are, refusing duplicates.
pub(super) fn find_protocol(params: &Parameters) -> Result<ProtocolSpans, VerifyError> {
    // Every protocol parameter once, extensions included: a known one twice fills its slot
    // twice; the others (oauth_callback, oauth_verifier, extensions, rare) are sorted to find
    // a repeat. The first repeat in name order is the one reported, once no parameter was
    // found in a second transport.
    let mut transport: Option<Source> = None;
    let mut protocol = ProtocolSpans::default();
    let mut repeated: Option<&[u8]> = None;
    let mut others: Vec<&[u8]> = Vec::new();
    for (p, span) in params.with_value_spans() {
        if !p.name.starts_with(b"oauth_") {
            // The request's own parameters are signed like the rest.
            continue;
        }
        match transport {
            None => transport = Some(p.source),
            Some(t) if t != p.source => {
                return Err(VerifyError::malformed(format!(
                    "protocol parameters are sent in both {} and {}: send them in one place",
                    t.place(),
                    p.source.place()
                )));
            }
            Some(_) => {}
        }
        let slot = match &p.name[6..] {
            b"consumer_key" => &mut protocol.consumer_key,
            b"token" => &mut protocol.token,
            b"signature_method" => &mut protocol.signature_method,
            b"timestamp" => &mut protocol.timestamp,
            b"nonce" => &mut protocol.nonce,
            b"version" => &mut protocol.version,
            b"body_hash" => &mut protocol.body_hash,
            b"signature" => {
                if protocol.signature.is_some() {
                    repeated = Some(first_of(repeated, p.name));
                }
                protocol.signature = Some(SentSignature::new(p.value));
                continue;
            }
            _ => {
                others.push(p.name);
                continue;
            }
        };
        if slot.is_some() {
            repeated = Some(first_of(repeated, p.name));
        }
        *slot = Some(span);
    }
    others.sort_unstable();
    if let Some(pair) = others.windows(2).find(|pair| pair[0] == pair[1]) {
        repeated = Some(first_of(repeated, pair[0]));
    }
    match repeated {
        Some(name) => Err(VerifyError::DuplicateParameter {
            name: String::from_utf8_lossy(name).into_owned(),
        }),
        None => Ok(protocol),
    }
}

/// The first in byte order of `name` and the name found so far, if any.
/// The `Authorization` header, if its scheme is `OAuth` (any letter case); a header of another
/// scheme (`Basic`, `Bearer`, …) is not OAuth's and is left alone, as if absent: a request
/// with no protocol parameter elsewhere is then unauthenticated (401 with a challenge), and
/// one that carries them in its query or form body is verified from those (a proxy in front
/// may take `Basic` credentials of its own).
pub(crate) fn oauth_header(authorization: Option<&str>) -> Option<&str> {
    use oauth1_signer::server::{is_tchar, skip_ows};
    let header = authorization?;
    let bytes = header.as_bytes();
    let start = skip_ows(bytes, 0);
    let end = (bytes[start..].iter())
        .position(|&b| !is_tchar(b))
        .map_or(bytes.len(), |n| start + n);
    // An empty scheme, or one that starts as OAuth's (`OAuth,…`, `OAuthoauth_nonce=…`, a
    // space left out), stays the parser's to judge.
    let scheme = &bytes[start..end];
    let other = !scheme.is_empty()
        && !scheme
            .get(..5)
            .is_some_and(|s| s.eq_ignore_ascii_case(b"OAuth"));
    (!other).then_some(header)
}

fn first_of<'a>(found: Option<&'a [u8]>, name: &'a [u8]) -> &'a [u8] {
    found.map_or(name, |found| found.min(name))
}

/// What kind of request is verified: which token it must be signed with, and which protocol
/// parameters it needs beside the usual ones (RFC 5849 §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Expect {
    /// A resource request: token credentials or no token, never temporary credentials.
    Resource,
    /// A temporary credential request (§2.1): no token, and `oauth_callback`.
    TemporaryRequest,
    /// A token request (§2.3): temporary credentials, and `oauth_verifier`.
    TokenRequest,
}

impl Expect {
    /// The checks that need no secret: the token present or not, the parameters the request
    /// kind requires.
    pub(super) fn check_parameters(
        self,
        has_token: bool,
        params: &Normalized,
    ) -> Result<(), VerifyError> {
        let has = |name: &str| params.iter().any(|p| p.name == name.as_bytes());
        match self {
            Expect::TemporaryRequest if has_token => Err(VerifyError::TokenRejected {
                detail: "a temporary credential request is signed with the consumer's credentials alone: leave out oauth_token",
            }),
            Expect::TemporaryRequest if !has("oauth_callback") => {
                Err(VerifyError::MissingParameters {
                    names: vec!["oauth_callback"],
                    unauthenticated: false,
                    plaintext: false,
                })
            }
            Expect::TokenRequest if !has_token || !has("oauth_verifier") => {
                Err(VerifyError::MissingParameters {
                    names: [
                        (!has_token).then_some("oauth_token"),
                        (!has("oauth_verifier")).then_some("oauth_verifier"),
                    ]
                    .into_iter()
                    .flatten()
                    .collect(),
                    unauthenticated: false,
                    plaintext: false,
                })
            }
            Expect::Resource | Expect::TemporaryRequest | Expect::TokenRequest => Ok(()),
        }
    }

    /// The kind of the token the request is signed with, once the signature matched.
    pub(super) fn check_kind(self, kind: Option<TokenKind>) -> Result<(), VerifyError> {
        match (self, kind) {
            (Expect::Resource, Some(TokenKind::Temporary)) => Err(VerifyError::TokenRejected {
                detail: "the token is a temporary credential, which only the token request may be signed with: exchange it for token credentials (RFC 5849 section 2.3) and sign with those",
            }),
            (Expect::TokenRequest, Some(TokenKind::Access)) => Err(VerifyError::TokenRejected {
                detail: "the token request is signed with token credentials: sign it with the temporary credentials it exchanges",
            }),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SentSignature;

    /// An HMAC's signature is held in place; a PLAINTEXT one (the secrets, joined by `&`) and
    /// anything longer than HMAC-SHA512's go to the heap, whose bytes moves do not copy.
    #[test]
    fn only_a_short_signature_without_an_ampersand_is_held_in_place() {
        let inline = |value: &[u8]| {
            let sent = SentSignature::new(value);
            assert_eq!(sent.as_slice(), value);
            matches!(sent, SentSignature::Inline { .. })
        };
        assert!(inline(b"tnnArxj06cWHq44gCs1OSKk/jLY="));
        assert!(inline(&[b'A'; 88]));
        assert!(inline(b""));
        assert!(!inline(&[b'A'; 89]));
        assert!(!inline(b"kd94hf93k423kf44&pfkkdhi9sl3r4s00"));
        assert!(!inline(b"kd94hf93k423kf44&"));
    }
}
