//! The request-case line API of the npm package (the feature `lines`): each request answered as
//! a line of `oauth1 … --jsonl` is, by the same code ([`oauth1_cases`]).

use wasm_bindgen::prelude::wasm_bindgen;

/// Answers one line of `oauth1 sign --jsonl`: `line` is a request case as JSON, the answer its
/// result line ([`oauth1_cases::answer`]).
#[wasm_bindgen]
#[must_use]
pub fn sign_line(line: &str) -> String {
    oauth1_cases::answer(line)
}

/// Answers one line of `oauth1 explain --jsonl`: `line` is an explain line as JSON, the answer
/// its verdict and causes ([`oauth1_cases::explain_answer`]).
#[wasm_bindgen]
#[must_use]
pub fn explain_line(line: &str) -> String {
    oauth1_cases::explain_answer(line)
}

/// A stream of verify lines, as `oauth1 verify --jsonl` reads one: its nonce store lasts as
/// long as the stream, so a line that repeats an earlier line's nonce is a replay.
#[wasm_bindgen]
#[derive(Default)]
pub struct VerifyStream {
    nonces: oauth1_server::MemoryNonceStore,
}

#[wasm_bindgen]
impl VerifyStream {
    /// A stream with an empty nonce store.
    #[wasm_bindgen(constructor)]
    #[must_use]
    pub fn new() -> VerifyStream {
        VerifyStream::default()
    }

    /// Answers one verify line ([`oauth1_cases::verify_answer`]).
    #[must_use]
    pub fn answer(&self, line: &str) -> String {
        oauth1_cases::verify_answer(line, &self.nonces)
    }
}

/// Percent-encodes `bytes` as RFC 5849 §3.6 says, as `oauth1 encode` does.
#[wasm_bindgen]
#[must_use]
pub fn percent_encode(bytes: &[u8]) -> String {
    oauth1_signer::encode::encode(bytes).to_string()
}
