// Types of oauth1-signer's JavaScript API. The request and answer objects are those of the
// request-case format (docs/request-cases.md in the repository), as `oauth1 … --jsonl` reads
// and writes them.

/** The signature methods. */
export type SignatureMethod =
    | "HMAC-SHA1"
    | "HMAC-SHA256"
    | "HMAC-SHA512"
    | "PLAINTEXT"
    | "RSA-SHA1"
    | "RSA-SHA256";

/** A request to sign: a case object of the request-case format. */
export interface RequestCase {
    /** A short id, echoed in the answer; required, as in the format. */
    name: string;
    /** Where the expected values come from. */
    source?: string;
    /** The method as the client wrote it; the base string uses it uppercased. */
    method: string;
    /** The absolute URL exactly as sent, query included, already percent-encoded. */
    url: string;
    /** The raw body as sent. */
    body?: string;
    /** Its Content-Type: body parameters are signed only for application/x-www-form-urlencoded. */
    content_type?: string;
    consumer_key: string;
    /** May be empty. */
    consumer_secret: string;
    /** Absent: no oauth_token (the request-token step). */
    token?: string;
    /** Absent: empty. */
    token_secret?: string;
    /** HMAC-SHA1 when absent. */
    signature_method?: SignatureMethod | string;
    /** PKCS#1 or PKCS#8 PEM, for the RSA methods. */
    private_key_pem?: string;
    nonce: string;
    timestamp: string;
    /** Absent: oauth_version="1.0" is sent; null: it is left out. */
    version?: string | null;
    /** oauth_callback (the request-token step). */
    callback?: string;
    /** oauth_verifier (the access-token step). */
    verifier?: string;
    /** realm in the Authorization header; never in the base string. */
    realm?: string;
    /** Add oauth_body_hash (the OAuth Request Body Hash extension); never with a form body. */
    body_hash?: boolean;
}

/** The answer to {@link sign}: the result line of `oauth1 sign --jsonl`. */
export type SignResult =
    | { name: string | null; base_string: string; signature: string; authorization: string }
    | { name: string | null; error: string };

/** What the other side produced: its signature (decoded), its base string, or both. */
export interface Observed {
    signature?: string;
    base_string?: string;
}

/** A request to explain: a case object with what the other side produced. */
export interface ExplainRequest extends RequestCase {
    observed: Observed;
}

/** The answer to {@link explain}: the explain line of `oauth1 explain --jsonl`. */
export type ExplainResult =
    | {
          name: string | null;
          verdict: "match" | "explained" | "unexplained";
          /** One cause, or the two or three that act together (ids of docs/mismatch-causes.md). */
          causes: string[];
          /** Other single causes that reproduce the value as well, the likelier first. */
          alternatives: string[];
          /** With parameter-not-signed: the parameter sent unsigned. */
          unsigned_parameter?: string;
          /** With query-start-not-signed: the query's first parameters, sent unsigned. */
          unsigned_parameters?: string[];
          reference_base_string: string;
          /** A sentence a person can act on. */
          detail: string;
      }
    | { name: string | null; error: string };

/** A request as a server received it, and what the server holds: a verify line. */
export interface VerifyRequest {
    /** A short id, echoed in the answer; required, as in the format. */
    name: string;
    method: string;
    /** The public URL the client used. */
    url: string;
    body?: string;
    content_type?: string;
    /** The received Authorization header (absent: the protocol parameters are in the query or form). */
    authorization?: string;
    /** Absent: the consumer has no shared secret. */
    consumer_secret?: string;
    /** Absent while the request names a token: the server does not hold that token. */
    token_secret?: string;
    /** The consumer's RSA public key (PEM), for the RSA methods. */
    public_key_pem?: string;
    /** The server's clock, unix seconds. */
    now: number;
    /** Seconds either side of now. */
    timestamp_window?: number;
}

/** The answer to {@link verify}: the verify line of `oauth1 verify --jsonl`. */
export type VerifyResult =
    | { name: string | null; valid: true }
    | { name: string | null; valid: false; reason: string; detail: string }
    | { name: string | null; error: string };

/** Signs a request case as `oauth1 sign --jsonl` does. */
export function sign(request: RequestCase): SignResult;

/** Explains an explain line as `oauth1 explain --jsonl` does. */
export function explain(request: ExplainRequest): ExplainResult;

/** Verifies a verify line as `oauth1 verify --jsonl` does, with a nonce store of its own. */
export function verify(request: VerifyRequest): VerifyResult;

/** A stream of verify lines sharing one nonce store: a repeated nonce is a replay. */
export class Verifier {
    constructor();
    verify(request: VerifyRequest): VerifyResult;
    /** Releases the stream's memory now rather than at garbage collection. */
    free(): void;
}

/** A pasted request and the fields typed beside it, as the debugging page reads them. */
export interface Capture {
    /** A curl command, a raw HTTP request, a HAR file's JSON, an Authorization header, or a URL. */
    capture: string;
    /** With a header or a URL alone: the method (GET when empty). */
    method?: string;
    /** With a header alone: the URL as sent. */
    url?: string;
    /** With a header or a URL alone: the body as sent. */
    body?: string;
    /** With a header or a URL alone: the body's Content-Type. */
    content_type?: string;
    /** With a HAR file: the entry, numbered from 1 (the first with OAuth when absent). */
    entry?: number;
    /** With a raw HTTP request whose target is a path: "http" or "https"; empty tries both. */
    scheme?: string;
}

/** A capture to explain, with the secrets. */
export interface ExplainCaptureInput extends Capture {
    consumer_secret?: string;
    token_secret?: string;
    private_key_pem?: string;
    /** The server's 401 body, in which many servers echo their base string. */
    server_response?: string;
}

/** A cause, with what the other side did and how to fix it. */
export interface Cause {
    id: string;
    what: string;
    fix: string;
}

/** Every stage of signing a request as RFC 5849 says. */
export interface Stages {
    parameters: { source: string; name: string; value: string; encoded: string }[];
    normalized: string;
    base_uri: string;
    base_string: string;
    signature: string;
    authorization: string;
    /** The key's shape: the secrets' lengths, never their bytes. */
    key: string;
    sent_label: string;
    sent: string;
}

/** The answer to {@link explainCapture}: what the debugging page shows. */
export interface CaptureExplanation {
    verdict: "match" | "explained" | "unexplained" | "error";
    /** curl, http, har, authorization, url, or empty. */
    kind: string;
    causes: Cause[];
    alternatives: Cause[];
    /** Whether the causes act together. */
    pair: boolean;
    detail: string;
    error: string;
    stages: Stages | null;
    reference_base_string: string;
    their_base_string: string;
    /** observed, reproduced, or empty. */
    their_label: string;
    difference: {
        offset: number;
        offset_utf16: number;
        part: string;
        summary: string;
        parameter: number | null;
    } | null;
    entries: { number: number; label: string }[];
    entry: number | null;
    profile: { name: string; reproduces: boolean; text: string } | null;
    scheme: { taken: "http" | "https"; reason: string; detail: string } | null;
}

/** A received request to verify, as a server holding these credentials would. */
export interface VerifyCaptureInput extends Capture {
    consumer_secret?: string;
    token_secret?: string;
    public_key_pem?: string;
    /** The server's clock, unix seconds. */
    now: number;
    timestamp_window?: number;
    allow_plaintext_over_http?: boolean;
}

/** The answer to {@link verifyCapture}. */
export interface CaptureVerification {
    verdict: "valid" | "invalid" | "error";
    error: string;
    reason: string;
    detail: string;
    base_string: string;
    answer: string;
    advice: string;
    consumer_key: string;
    token: string;
    signature_method: string;
    parameters: string;
    entries: { number: number; label: string }[];
    entry: number | null;
}

/** Explains a capture as the debugging page does. */
export function explainCapture(input: ExplainCaptureInput): CaptureExplanation;

/** Verifies a capture as the debugging page does. */
export function verifyCapture(input: VerifyCaptureInput): CaptureVerification;

/** A provider profile. */
export interface Profile {
    name: string;
    provider: string;
    method: string;
    transport: "header" | "query" | "body";
    requires: string;
}

/** The provider profiles. */
export function profiles(): Profile[];

/** Percent-encodes a string (as UTF-8) or bytes as RFC 5849 §3.6 says. */
export function percentEncode(value: string | Uint8Array): string;
