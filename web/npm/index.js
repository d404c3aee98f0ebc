// oauth1-signer for Node.js: OAuth 1.0a (RFC 5849) signing, verification and diagnosis, by the
// Rust crates of the same name compiled to WebAssembly (the engine of the debugging page).
// The engine is loaded from the package itself, never fetched.
import { Buffer } from "node:buffer";

import * as engine from "./page/oauth1_web.js";
import wasmBase64 from "./page/oauth1_web_wasm.js";

engine.initSync({ module: Buffer.from(wasmBase64, "base64") });

/** One line's answer from the engine, as an object (`undefined` is answered as `null` is). */
function line(answer, request) {
    return JSON.parse(answer(JSON.stringify(request) ?? "null"));
}

/**
 * Signs a request case (docs/request-cases.md) as `oauth1 sign --jsonl` does: its base string,
 * signature and Authorization header, or `error`.
 */
export function sign(request) {
    return line(engine.sign_line, request);
}

/**
 * Explains an explain line (a request case with `observed`) as `oauth1 explain --jsonl` does:
 * the verdict, the causes that reproduce the other side's value, or `error`.
 */
export function explain(request) {
    return line(engine.explain_line, request);
}

/**
 * Verifies a verify line as `oauth1 verify --jsonl` does, with a nonce store of its own: the
 * verdict and, when it fails, the check's reason and detail, or `error`. A `Verifier` keeps the
 * nonce store across requests.
 */
export function verify(request) {
    const verifier = new Verifier();
    try {
        return verifier.verify(request);
    } finally {
        verifier.free();
    }
}

/**
 * A stream of verify lines, as `oauth1 verify --jsonl` reads one: a request that repeats an
 * earlier one's nonce is refused as `replayed-nonce`. `free()` releases its memory at once
 * (otherwise the garbage collector does).
 */
export class Verifier {
    #stream = new engine.VerifyStream();

    /** Verifies one verify line, as {@link verify} does, against this stream's nonces. */
    verify(request) {
        return line((text) => this.#stream.answer(text), request);
    }

    /** Releases the stream's memory. */
    free() {
        this.#stream.free();
    }
}

/**
 * Explains a capture as the debugging page does: a curl command, a raw HTTP request, a HAR
 * file or an Authorization header (`capture`), with the secrets and, optionally, the server's
 * response body. The answer is the page's: the verdict, the causes with what the other side did
 * and the fix, every signing stage, where the two base strings first differ.
 */
export function explainCapture(input) {
    return line(engine.explain, input);
}

/**
 * Verifies a capture as the debugging page does, as a server would (`oauth1 verify` on a
 * capture): every check, the first that fails, and a diagnosis of a bad signature.
 */
export function verifyCapture(input) {
    return line(engine.verify, input);
}

/** The provider profiles: `{name, provider, method, transport, requires}` each. */
export function profiles() {
    return JSON.parse(engine.profiles());
}

/**
 * Percent-encodes a value as RFC 5849 §3.6 says (uppercase hex; only `A-Z a-z 0-9 - . _ ~`
 * left as they are): a string as its UTF-8 bytes, or the bytes given.
 */
export function percentEncode(value) {
    if (typeof value === "string") {
        return engine.percent_encode(new TextEncoder().encode(value));
    }
    if (value instanceof Uint8Array) {
        return engine.percent_encode(value);
    }
    throw new TypeError("percentEncode takes a string or a Uint8Array");
}
