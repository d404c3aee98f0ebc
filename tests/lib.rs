//! The signing core's integration tests are `it/`; this library holds the README's examples,
//! run as doctests (those of the integrations need their features, so they run with all of
//! them, as `scripts/test` does).

#[cfg(all(doctest, feature = "http", feature = "serde"))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// docs/profiles.md's examples.
#[cfg(doctest)]
#[doc = include_str!("../docs/profiles.md")]
struct ProfilesDoctests;
