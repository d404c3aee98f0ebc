//! The `oauth1` command line's tests, one crate so that they link once: a module per
//! subject. The request-case helpers and the loopback provider are the signing core's own
//! test helpers (`tests/it/` at the repository's root), shared, not copied.

#[path = "../../../../tests/it/common.rs"]
mod common;
#[path = "../../../oauth1-reqwest/tests/it/loopback_provider.rs"]
mod loopback_provider;

mod bad_lines;
mod cli;
mod cli_authorize;
mod cli_capture;
mod cli_probe;
mod cli_profile;
mod cli_scheme;
mod cli_send;
mod cli_send_stream;
#[cfg(unix)] // stopped with SIGINT
mod cli_serve;
mod cli_terminal;
mod interop_provider;
mod output;
mod paths;
mod secrets;
mod verify_jsonl;
