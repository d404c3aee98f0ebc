//! The integration tests, one crate so that they link once: a module per subject, each gated
//! by the features it needs.

mod common;

mod allocations;
mod bad_input;
mod diagnose;
mod explain;
mod fixtures;
mod http;
mod interop;
mod interop_provider;
mod issue;
#[cfg(all(feature = "reqwest", feature = "tower"))]
mod loopback_provider;
mod parts;
mod paths;
mod properties;
mod provider;
mod redis;
mod reqwest;
mod secrets;
mod tower;
mod verify;
mod verify_fixtures;
