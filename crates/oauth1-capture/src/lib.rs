//! Requests as debugging tools capture them, read back into method, URL, headers and body: a
//! `curl` command line as browsers and Postman copy it, a raw HTTP/1.1 request as proxies
//! (mitmproxy, Burp, Charles) dump it, and the entries of a HAR file. What the `oauth1`
//! command line's `--curl`, `--http` and `--har` read, so that a mismatched signature can be
//! explained from what the other side actually sent; the protocol parameters a capture carries
//! and the signer they describe ([`Protocol`]), which the command line and the web page both
//! read captures with.

// docs.rs builds with `--cfg docsrs`: every item a feature gates says which.
#![cfg_attr(docsrs, feature(doc_cfg))]

/// The README's example, run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod capture;
mod curl;
mod har;
mod http;
mod protocol;
mod shown;

pub use capture::{check_url, Capture, CaptureError};
pub use curl::{data_urlencode, data_urlencode_with};
pub use http::HttpRead;
pub use protocol::Protocol;
pub use shown::{
    key_shape, sent_shown, shown, signed_parameter_string, urlencoded_shown, HIDDEN_SIGNATURE,
};
