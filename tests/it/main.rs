//! The integration tests, one crate so that they link once: a module per subject, each gated
//! by the features it needs.

mod agree;
mod common;
mod hidden;

mod allocations;
mod explain;
mod fixtures;
mod http;
mod one_truth;
mod parts;
mod profile;
mod properties;
mod readme;
mod secrets;
