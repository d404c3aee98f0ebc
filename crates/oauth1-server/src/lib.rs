//! OAuth 1.0a for servers (RFC 5849): verifying signed requests, issuing tokens, and the
//! stores behind them. The signing is `oauth1-signer`'s: the verifier rebuilds the base string
//! with the same code that signs, never a copy of it.
//!
//! - [`Verifier`]: the checks below, with a [`Policy`], the application's
//!   [`CredentialStore`] (what it holds for each consumer and token) and a [`NonceStore`]
//!   ([`MemoryNonceStore`] for one process, `RedisNonceStore` for several); its errors are
//!   [`VerifyError`]s that answer with OAuth Problem Reporting ([`Problem`]).
//! - [`Issuer`]: the provider's three endpoints (temporary credentials, approval, token
//!   credentials), held to each consumer's registered [`Callbacks`].
//! - [`PublicOrigin`]: the URL a client signed, for a server behind a proxy.
//! - `tower::VerifyLayer` (feature `tower`): verifies every request before an `axum` or
//!   `hyper` service sees it.
//!
//! Features: `tower`; `redis` (`RedisNonceStore`, `BlockingRedisNonceStore` and
//! `RedisTemporaryStore`, in Redis or Redis Cluster, shared by several instances); `rsa`
//! (RSA-SHA1 and RSA-SHA256 verified with a consumer's public key).
//!
//! # The checks
//!
//! The verifier reads the protocol parameters from exactly one
//! transport (the `Authorization` header, the query or a form body), then checks, in this
//! order, and stops at the first failure:
//!
//! 1. the required parameters are present, none twice;
//! 2. `oauth_version`, if given, is `1.0`;
//! 3. the signature method is allowed (PLAINTEXT only when the policy asks for it, and then
//!    only over https unless the policy says otherwise);
//! 4. the timestamp is within the policy's window around the server's clock;
//! 5. the signature, over the base string rebuilt by the same code that signs, compared in
//!    constant time, with the credential the method needs ([`ConsumerCredential`]: a shared
//!    secret for HMAC and PLAINTEXT, a public key for RSA); a token the request names must
//!    have been issued to the consumer, whatever the method. An unknown consumer key or
//!    token, or a consumer without the credential the method needs, is checked against a
//!    dummy of the same kind, so it costs about the same time as a known pair and fails the
//!    same way as a wrong signature. The HMACs of pairs that verified lately are kept keyed
//!    ([`Verifier::with_mac_cache`]), which spares their next requests one keying. Once the
//!    signature matches, the token's [`TokenKind`] must fit the request: a resource request
//!    signed with temporary credentials is refused (`token-rejected`). A bad signature is
//!    diagnosed when the verifier is asked to ([`Verifier::with_diagnosis`]);
//! 6. `oauth_body_hash` against the raw body, when present (or required by the policy), with
//!    the digest the policy takes ([`BodyHashDigest`]);
//! 7. only then, the nonce is recorded; a nonce seen before with the same consumer key, token
//!    and timestamp is a replay. A request that fails an earlier check records nothing.
//!
//! ```
//! use oauth1_server::{Clock, MemoryCredentials, MemoryNonceStore, Verifier};
//! use oauth1_signer::{Consumer, Nonce, Request, Signer, Timestamp, Token};
//!
//! // The server knows the client's secrets.
//! let mut credentials = MemoryCredentials::new();
//! credentials.add_consumer("dpf43f3p2l4k3l03", "kd94hf93k423kf44");
//! credentials.add_token("dpf43f3p2l4k3l03", "nnch734d00sl2jdk", "pfkkdhi9sl3r4s00");
//! // Its clock reads a time within the window of the example's timestamp (the system clock
//! // unless told otherwise).
//! let verifier = Verifier::new(credentials, MemoryNonceStore::new())
//!     .with_clock(Clock::fixed(Timestamp::new(1191242100)));
//!
//! // A client signs a request (RFC 5849 §3.1's example)…
//! let request = Request::new("GET", "http://photos.example.net/photos?file=vacation.jpg&size=original")?;
//! let signed = Signer::new(Consumer::new("dpf43f3p2l4k3l03", "kd94hf93k423kf44"))
//!     .with_token(Token::new("nnch734d00sl2jdk", "pfkkdhi9sl3r4s00"))
//!     .sign(&request, &Nonce::new("kllo9940pd9333jh")?, Timestamp::new(1191242096))?;
//! let header = signed.authorization();
//!
//! // …and the server verifies it (on this thread: `verify` is async, the stores may wait).
//! let verified = verifier.blocking().verify(&request, Some(&header)).unwrap();
//! assert_eq!(verified.consumer_key(), "dpf43f3p2l4k3l03");
//! assert_eq!(verified.token(), Some("nnch734d00sl2jdk"));
//!
//! // The same request again is a replay.
//! let replay = verifier.blocking().verify(&request, Some(&header)).unwrap_err();
//! assert_eq!(replay.reason().as_str(), "replayed-nonce");
//! # Ok::<(), oauth1_signer::Error>(())
//! ```

// docs.rs builds with `--cfg docsrs`: every item a feature gates says which.
#![cfg_attr(docsrs, feature(doc_cfg))]

/// The README's example, run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod block;
mod callbacks;
mod clock;
mod config;
mod diagnose;
mod error;
mod fingerprint;
mod macs;
mod memory;
mod origin;
mod policy;
mod protocol;
mod provider;
mod signature;
mod store;
#[cfg(feature = "tower")]
pub mod tower;
mod verifier;

pub use callbacks::Callbacks;
pub use clock::Clock;
pub use config::ConfigError;
pub use diagnose::Diagnosis;
pub use error::{Problem, Reason, StoreError, VerifyError};
pub use macs::DEFAULT_MAC_CACHE;
pub use memory::{MemoryCredentials, MemoryNonceStore, DEFAULT_NONCE_CAPACITY};
pub use provider::{
    Approval, Approved, AuthorizeError, Issued, Issuer, MemoryTemporaryStore, Pending,
    TemporaryRecord, TemporaryStore, WithTemporary, AUTHORIZATION_PAGE_HEADERS,
    DEFAULT_TEMPORARY_LIFETIME,
};
// The key policy lives beside `PublicKey`; named here too, where the verifier applies it.
#[cfg(feature = "rsa")]
pub use oauth1_signer::sign::MIN_RSA_BITS;
pub use origin::{received_url, ProxyHeaders, PublicOrigin};
pub use policy::{BodyHashDigest, Limits, Policy};
pub use store::{
    ConsumerCredential, CredentialStore, NonceKey, NonceStore, TokenCredential, TokenKind,
    TokenStore,
};
pub use verifier::{Blocking, Verified, Verifier};

#[cfg(feature = "redis")]
mod redis_store;
#[cfg(feature = "redis")]
mod redis_temporary;
#[cfg(feature = "redis")]
pub use redis_store::{BlockingRedisNonceStore, RedisNonceStore};
#[cfg(feature = "redis")]
pub use redis_temporary::RedisTemporaryStore;

// Where a 401 answer says how to authenticate.
pub use oauth1_signer::header::www_authenticate;
