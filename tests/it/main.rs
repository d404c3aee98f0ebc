//! The integration tests, one crate so that they link once: a module per subject, each gated
//! by the features it needs.

mod common;
mod hidden;

mod allocations;
mod explain;
mod fixtures;
mod http;
mod parts;
mod profile;
mod properties;
mod readme;
mod secrets;
