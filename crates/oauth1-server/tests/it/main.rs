//! The server's integration tests, one crate so that they link once: a module per subject,
//! each gated by the features it needs. The request-case helpers are the signing core's own
//! test helpers (`tests/it/` at the repository's root), shared, not copied.

#[path = "../../../../tests/it/common.rs"]
mod common;
#[path = "../../../../tests/it/hidden.rs"]
mod hidden;

mod allocations;
mod bad_input;
mod diagnose;
mod diagnosis_cost;
mod issue;
mod paths;
mod redis;
#[cfg(feature = "tower")]
mod routed_app;
mod secrets;
mod tower;
mod verify;
mod verify_fixtures;
