// The package's declarations as a TypeScript user meets them: this file must compile with
// `tsc --strict` against the installed package (scripts/package test-npm), and each line after
// an expected-error directive must not.
import {
    sign, explain, verify, Verifier, explainCapture, verifyCapture, profiles, percentEncode,
    type RequestCase,
} from "oauth1-signer";

const request: RequestCase = {
    name: "update",
    method: "POST",
    url: "https://api.example.com/statuses",
    body: "status=a%20b%20c",
    content_type: "application/x-www-form-urlencoded",
    consumer_key: "dpf43f3p2l4k3l03",
    consumer_secret: "kd94hf93k423kf44",
    nonce: "kllo9940pd9333jh",
    timestamp: "1191242096",
};

const signed = sign(request);
const signature: string = "error" in signed ? signed.error : signed.signature;
const why = explain({ ...request, observed: { signature } });
const causes: string[] = "error" in why ? [] : why.causes;
const verifier = new Verifier();
const verdict = verifier.verify({ name: "r", method: "GET", url: "https://a.example/", now: 1 });
const valid: boolean | undefined = "valid" in verdict ? verdict.valid : undefined;
verifier.free();
verify({ name: "r", method: "GET", url: "https://a.example/", now: 1 });
const page = explainCapture({ capture: "curl https://a.example/", consumer_secret: "s" });
const ids: string[] = page.causes.map((c) => c.id);
const checked = verifyCapture({ capture: "curl https://a.example/", now: 1 });
const reason: string = checked.reason;
const names: string[] = profiles().map((p) => p.name);
const encoded: string = percentEncode("a b") + percentEncode(new Uint8Array([0xff]));

// @ts-expect-error: a request case has a nonce and a timestamp
sign({ name: "x", method: "GET", url: "https://a.example/", consumer_key: "k", consumer_secret: "s" });
// @ts-expect-error: an explain request says what the other side produced
explain(request);
// @ts-expect-error: percentEncode takes a string or bytes
percentEncode(7);

export { causes, valid, ids, reason, names, encoded };
