//! OAuth 1.0a request signing, exactly as RFC 5849 says.
//!
//! The crate is the RFC's pipeline, one module per stage, each stage's result a value you can
//! inspect:
//!
//! 1. [`encode`]: percent-encoding (§3.6) and strict decoding of queries and form bodies;
//! 2. [`params`]: parameter collection (§3.4.1.3.1) and normalization (§3.4.1.3.2);
//! 3. [`base_string`]: the base string URI (§3.4.1.2) and the base string (§3.4.1.1);
//! 4. [`sign`]: the signing key (§3.4.2) and the signature methods HMAC-SHA1, HMAC-SHA256,
//!    HMAC-SHA512, PLAINTEXT and, with the `rsa` feature, RSA-SHA1 and RSA-SHA256;
//! 5. [`header`]: the `Authorization` header (§3.5.1);
//! 6. [`request`]: the front door, a [`Request`] and a [`Signer`] giving a [`Signed`] request;
//!    or [`parts`], a [`RequestParts`] built from decoded query and form parameters, signed as
//!    they are.
//!
//! Around it: [`flow`], the client side of the three-legged flow; [`profile`], signing as a
//! provider's server computes where it departs from the RFC; [`explain`], which names the
//! mistake behind another side's mismatched signature or base string (an
//! [`Explainer`](explain::Explainer) tries every known cause alone, in pairs and in threes); and
//! [`server`], what a verifier is built from, which a client never needs.
//!
//! # Signing a request
//!
//! The X API's "Creating a signature" example, with its published nonce and timestamp:
//!
//! ```
//! use oauth1_signer::{Consumer, Nonce, Request, Signer, Timestamp, Token};
//!
//! let signer = Signer::new(Consumer::new(
//!     "xvz1evFS4wEEPTGEFPHBog",
//!     "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
//! ))
//! .with_token(Token::new(
//!     "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
//!     "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
//! ));
//! let request = Request::new(
//!     "POST",
//!     "https://api.twitter.com/1.1/statuses/update.json?include_entities=true",
//! )?
//! .with_form_body(b"status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21");
//!
//! let signed = signer.sign(
//!     &request,
//!     &Nonce::new("kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg")?,
//!     Timestamp::new(1318622958),
//! )?;
//! assert_eq!(signed.signature().as_str(), "hCtSmYh+iHYCEqBWrE7C7hYmtUk=");
//! assert!(signed.base_string().as_str().starts_with(
//!     "POST&https%3A%2F%2Fapi.twitter.com%2F1.1%2Fstatuses%2Fupdate.json&include_entities%3Dtrue%26"
//! ));
//! let header = signed.authorization(); // "OAuth oauth_consumer_key=\"xvz1evFS4wEEPTGEFPHBog\", …"
//! # assert!(header.ends_with("oauth_signature=\"hCtSmYh%2BiHYCEqBWrE7C7hYmtUk%3D\""));
//! # Ok::<(), oauth1_signer::Error>(())
//! ```
//!
//! In a real client, [`Signer::sign_now`] draws the nonce from the operating system's random
//! number generator and reads the timestamp from the clock.
//!
//! # Signing a request given by its parts
//!
//! A client that holds the decoded query and form parameters (not the text on the wire) builds
//! a [`RequestParts`]; it is signed as it is, and sends exactly what it signed:
//!
//! ```
//! use oauth1_signer::{Consumer, RequestParts, Signer};
//!
//! let request = RequestParts::new("POST", "https://api.example.com/1/statuses")?
//!     .query("trim_user", "true")
//!     .form("status", "Hello Ladies + Gentlemen");
//! let signed = Signer::new(Consumer::new("key", "secret")).sign_parts_now(&request)?;
//! assert_eq!(request.form_body().unwrap(), b"status=Hello%20Ladies%20%2B%20Gentlemen");
//! # let _ = signed;
//! # Ok::<(), oauth1_signer::Error>(())
//! ```
//!
//! # Finding out why a server says 401
//!
//! [`explain`] compares what this crate signs with what the other side produced (its
//! signature, or the base string many servers echo in their 401 body) and names the mistake
//! that reproduces it, with its fix; [`explain::find_base_string`] finds an echoed base string
//! in a response body. The `oauth1` command line (package `oauth1-cli`) does the same from a
//! copied curl command, a raw request or a HAR file.
//!
//! # Getting a user's token
//!
//! [`flow`] builds and reads the three steps of RFC 5849 §2 without an HTTP client: the
//! temporary credentials' answer, the authorization URL, the callback, the token credentials'
//! answer. The package `oauth1-reqwest` runs them over HTTP in one object, its `Session`.
//!
//! # Signing what an HTTP library sends
//!
//! With the `http` feature, `http::sign` signs an `http::Request` in place; `oauth1-reqwest` signs `reqwest` requests with a middleware that signs every retry
//! and redirect anew.
//!
//! # Verifying requests
//!
//! The server side is the package `oauth1-server`: a verifier with its policy, credential and
//! nonce stores (in memory or Redis), the provider that issues tokens, and a `tower` layer for
//! `axum` and `hyper`. It collects a received request's parameters with [`server::collect`]
//! and rebuilds the base string with this crate's own code.
//!
//! # Features
//!
//! - `rsa`: `RSA-SHA1` and `RSA-SHA256` with PKCS#1 or PKCS#8 PEM keys ([`PrivateKey`]).
//! - `http`: the module `http`, whose `sign` signs an `http::Request` in place, in the
//!   header, the query or the form body.
//! - `serde`: credentials that serialize and deserialize (the module `persist`).
//! - `js`: on `wasm32-unknown-unknown` in a browser or Node.js, nonces from
//!   `crypto.getRandomValues` and [`Timestamp::now`] from `Date.now()`. Without it, that
//!   target's application chooses getrandom's backend, and [`Timestamp::now`] answers
//!   [`Error::ClockUnavailable`].
//!
//! Beside this crate, one package per audience: `oauth1-server` verifies requests and issues
//! tokens (the verifier, its stores in memory or Redis, the provider, a `tower` layer for
//! `axum` and `hyper`); `oauth1-reqwest` signs `reqwest` requests (a `reqwest-middleware`
//! middleware, an extension trait, the three-legged flow over HTTP); `oauth1-cli` is the
//! `oauth1` command line (`oauth1 sign`, `oauth1 verify`, `oauth1 explain`, `oauth1 probe`,
//! `oauth1 authorize`, `oauth1 send`, `oauth1 encode`).
//!
//! # Secrets
//!
//! Consumer and token secrets are held as [`Secret`]s, and the signing key as a
//! [`SigningKey`](sign::SigningKey): `Debug` redacts them, nothing implements `Display` for
//! them, and their memory is zeroized on drop. Errors never contain them, nor a PLAINTEXT
//! signature (which is the key).

// docs.rs builds with `--cfg docsrs`: every item a feature gates says which.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod base_string;
mod collect;
pub mod credentials;
pub mod encode;
mod error;
pub mod explain;
pub mod flow;
mod grammar;
pub mod header;
#[cfg(feature = "http")]
pub mod http;
mod method;
pub mod params;
pub mod parts;
mod path;
#[cfg(feature = "serde")]
pub mod persist;
pub mod profile;
mod received;
pub mod request;
mod secret;
pub mod server;
pub mod sign;
mod target;
mod transport;

pub use credentials::{BodyHash, Consumer, Nonce, Timestamp, Token, Version};
pub use error::Error;
pub use header::Realm;
pub use parts::RequestParts;
pub use path::AmbiguousPath;
pub use request::{Request, Signed, Signer};
pub use secret::{Secret, SecretId};
#[cfg(feature = "rsa")]
pub use sign::PublicKey;
pub use sign::{PrivateKey, Signature, SignatureMethod};
pub use transport::Transport;

#[cfg(test)]
mod tests {
    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn public_types_are_send_and_sync() {
        assert_send_sync::<crate::Signer>();
        assert_send_sync::<crate::Signed>();
        assert_send_sync::<crate::Request<'_>>();
        assert_send_sync::<crate::Error>();
        assert_send_sync::<crate::Secret>();
        assert_send_sync::<crate::PrivateKey>();
        assert_send_sync::<crate::params::Normalized>();
        assert_send_sync::<crate::base_string::BaseString>();
    }
}
