//! The engine of the OAuth 1.0a debugging page (`web/` in the repository): a pasted request
//! explained, a request signed, a received request verified, as `oauth1 explain`, `oauth1 sign
//! --verbose` and `oauth1 verify` do it, by the same code, compiled to WebAssembly.
//!
//! Each call takes one JSON object and answers one: [`explain`] takes an [`ExplainInput`] and
//! answers an [`ExplainAnswer`] (the verdict, the causes with their fixes, every signing stage,
//! where the two base strings first differ); [`sign`] a [`SignInput`] and a [`SignAnswer`];
//! [`verify`] a [`VerifyInput`] and a [`VerifyAnswer`]. Nothing here touches the network or
//! storage; the secrets live only in the call.
//!
//! With the feature `lines`, the npm package's JavaScript API: the request-case format
//! (`docs/request-cases.md`) answered as `oauth1 … --jsonl` answers it, a line at a time, by the
//! same code: `sign_line`, `explain_line`, and a `VerifyStream` whose nonce store lasts as long
//! as the stream.
//!
//! ```
//! let input = serde_json::json!({
//!     "capture": "curl 'https://api.example.com/x?a=1' -H 'Authorization: OAuth oauth_consumer_key=\"k\", oauth_signature_method=\"HMAC-SHA1\", oauth_timestamp=\"1\", oauth_nonce=\"n\", oauth_version=\"1.0\", oauth_signature=\"wrong\"'",
//!     "consumer_secret": "s",
//! });
//! let answer: serde_json::Value =
//!     serde_json::from_str(&oauth1_web::explain(&input.to_string())).unwrap();
//! assert_eq!(answer["verdict"], "unexplained");
//! assert_eq!(answer["kind"], "curl");
//! ```

// docs.rs builds with `--cfg docsrs`: every item a feature gates says which.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod explain;
mod pasted;
mod sign;
mod stages;
mod verify;

pub use explain::{CauseAnswer, DifferenceAnswer, ExplainAnswer, ExplainInput};
pub use pasted::{EntryAnswer, Pasted};
pub use sign::{SignAnswer, SignInput};
pub use stages::{ParameterAnswer, Stages};
pub use verify::{VerifyAnswer, VerifyInput};

use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;

/// The answer to `input` as JSON, or `error` with the message for an input that is not `I`.
fn call<I: DeserializeOwned, A: Serialize>(
    input: &str,
    run: impl FnOnce(&I) -> A,
    error: impl FnOnce(String) -> A,
) -> String {
    let answer = match serde_json::from_str::<I>(input) {
        Ok(input) => run(&input),
        Err(e) => error(format!("the page sent what the engine cannot read: {e}")),
    };
    serde_json::to_string(&answer).unwrap_or_default()
}

/// Explains a pasted request: `input` is an [`ExplainInput`] as JSON, the answer an
/// [`ExplainAnswer`] as JSON (the `error` verdict for an input that is not one).
#[wasm_bindgen]
#[must_use]
pub fn explain(input: &str) -> String {
    call(input, explain::answer, |error| ExplainAnswer {
        verdict: "error",
        error,
        ..ExplainAnswer::default()
    })
}

/// Signs a request from its fields: `input` is a [`SignInput`] as JSON, the answer a
/// [`SignAnswer`] as JSON.
#[wasm_bindgen]
#[must_use]
pub fn sign(input: &str) -> String {
    call(input, sign::answer, |error| SignAnswer {
        error,
        stages: None,
    })
}

/// The provider profiles, as JSON: an array of `{"name", "provider", "method", "transport",
/// "requires"}`, for the page's select.
#[wasm_bindgen]
#[must_use]
pub fn profiles() -> String {
    let list: Vec<serde_json::Value> = oauth1_signer::profile::Profile::ALL
        .iter()
        .map(|p| {
            let transport = match p.transport() {
                oauth1_signer::Transport::Query => "query",
                oauth1_signer::Transport::FormBody => "body",
                _ => "header",
            };
            serde_json::json!({
                "name": p.name(),
                "provider": p.provider(),
                "method": p.method().as_str(),
                "transport": transport,
                "requires": p.requires(),
            })
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}

/// Verifies a received request as a server would: `input` is a [`VerifyInput`] as JSON, the
/// answer a [`VerifyAnswer`] as JSON.
#[wasm_bindgen]
#[must_use]
pub fn verify(input: &str) -> String {
    call(input, verify::answer, |error| VerifyAnswer {
        verdict: "error",
        error,
        ..VerifyAnswer::default()
    })
}

#[cfg(feature = "lines")]
mod lines;
#[cfg(feature = "lines")]
pub use lines::{explain_line, percent_encode, sign_line, VerifyStream};
