//! The reqwest integration's tests, one crate so that they link once: a module per subject.
//! The request-case helpers are the signing core's (`tests/it/common.rs` at the repository's
//! root), shared, not copied.

#[path = "../../../../tests/it/common.rs"]
mod common;
pub(crate) mod loopback_provider;
#[path = "../../../oauth1-server/tests/it/routed_app.rs"]
mod routed_app;

mod interop;
mod interop_php;
mod interop_provider;
mod paths;
mod probe;
mod provider;
mod reqwest;
mod secrets;
