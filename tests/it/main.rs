//! The integration tests, one crate so that they link once: a module per subject, each gated
//! by the features it needs.

mod common;

mod allocations;
mod bad_input;
mod diagnose;
mod explain;
mod fixtures;
mod http;
mod issue;
mod parts;
mod paths;
mod properties;
mod redis;
#[cfg(feature = "tower")]
mod routed_app;
mod secrets;
mod tower;
mod verify;
mod verify_fixtures;
