//! The signing core's integration tests are `it/`; this library holds the examples of the
//! README and of the guide in `docs/`, run as doctests (those of the integrations need their
//! features, so they run with all of them, as `scripts/test` does). The README's recipes are
//! whole programs with dependencies of their own: `scripts/readme-recipes` builds each as a
//! new project.

#[cfg(all(doctest, feature = "http", feature = "serde"))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// docs/signing.md's examples.
#[cfg(all(doctest, feature = "http", feature = "serde"))]
#[doc = include_str!("../docs/signing.md")]
struct SigningDoctests;

/// docs/servers.md's examples.
#[cfg(all(doctest, feature = "http", feature = "serde"))]
#[doc = include_str!("../docs/servers.md")]
struct ServersDoctests;

/// docs/diagnosis.md's examples.
#[cfg(all(doctest, feature = "http", feature = "serde"))]
#[doc = include_str!("../docs/diagnosis.md")]
struct DiagnosisDoctests;

/// docs/three-legged.md's examples.
#[cfg(all(doctest, feature = "http", feature = "serde"))]
#[doc = include_str!("../docs/three-legged.md")]
struct ThreeLeggedDoctests;

/// docs/profiles.md's examples.
#[cfg(doctest)]
#[doc = include_str!("../docs/profiles.md")]
struct ProfilesDoctests;
