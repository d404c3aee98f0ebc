// The most used npm OAuth 1 clients, pinned in package-lock.json, sign requests as their own
// code does; `oauth1 explain` must answer each as the library's source says it signs: `match`
// where it follows RFC 5849, and the cause of docs/mismatch-causes.md where it does not.
//
//   request 2.88.2 (lib/oauth.js, with oauth-sign 0.9.0): reads the query and form body with
//     the qs library, so `ids[]=1` is an array signed as `ids` (array-brackets-dropped), and
//     builds the base URI from url.parse's host, which keeps an explicit default port
//     (default-port-kept).
//   oauth-1.0a 2.2.6: the base URI is the URL as written before its `?`, host case and port
//     kept (host-not-lowercased, default-port-kept); query values are decoded with
//     decodeURIComponent, which leaves `+` a plus (plus-not-decoded).
//   oauth 0.10.2 (node-oauth): reads the query with querystring.parse and names each value of
//     a repeated name by its position, `a[0]`, `a[1]` (repeated-names-indexed).
//   mastercard-oauth1-signer 1.2.0 (src/OAuth.js): RSA-SHA256 with a body hash on every
//     request, the protocol values put into the parameter string unencoded
//     (protocol-values-encoded-once), and an explicit :443 kept, since it compares url.parse's
//     port, a string, with the number 443 (default-port-kept); a form body is hashed, its
//     parameters unsigned (form-body-hashed).
//   @woocommerce/woocommerce-rest-api 1.0.2, over http: signs with oauth-1.0a, whose
//     authorize() returns the URL's query parameters among the protocol ones (its mergeObject
//     writes into them), and sends all of them as axios params: each query parameter goes out
//     twice, signed once (duplicates-collapsed; equally parsed-as-php, WooCommerce's own
//     reading, which keeps the last of a repeated name, as this signature does; and, the two
//     values being the same, first-duplicate-kept).
//
// Usage: node node_clients.js PATH/TO/oauth1 PATH/TO/private-key.pem PATH/TO/python

"use strict";

const crypto = require("crypto");
const fs = require("fs");
const url = require("url");
const { spawnSync } = require("child_process");
const OAuth1a = require("oauth-1.0a");
const NodeOAuth = require("oauth").OAuth;
const RequestOAuth = require("request/lib/oauth").OAuth;
const http = require("http");
const Mastercard = require("mastercard-oauth1-signer");
const WooCommerceRestApi = require("@woocommerce/woocommerce-rest-api").default;

const CK = "ck";
const CS = "cs secret";
const TK = "tk";
const TS = "ts secret";
const FORM = "application/x-www-form-urlencoded";

// The form body's fields as an application passes them: repeated names as arrays.
function fields(body) {
  const out = {};
  for (const [name, value] of new URLSearchParams(body)) {
    if (name in out) out[name] = [].concat(out[name], value);
    else out[name] = value;
  }
  return out;
}

const CLIENTS = {
  request(method, href, body) {
    const sent = {
      uri: url.parse(href), method, body: body || "",
      headers: body ? { "content-type": FORM } : {},
      setHeader(_, value) { this.authorization = value; },
      emit(_, error) { throw error; },
    };
    new RequestOAuth(sent).onRequest({ consumer_key: CK, consumer_secret: CS, token: TK, token_secret: TS });
    return sent.authorization;
  },
  "oauth-1.0a"(method, href, body) {
    const client = OAuth1a({
      consumer: { key: CK, secret: CS }, signature_method: "HMAC-SHA1",
      hash_function: (base, key) => crypto.createHmac("sha1", key).update(base).digest("base64"),
    });
    const data = body ? fields(body) : undefined;
    return client.toHeader(client.authorize({ url: href, method, data }, { key: TK, secret: TS })).Authorization;
  },
  oauth(method, href, body) {
    const client = new NodeOAuth("https://x.example/rt", "https://x.example/at", CK, CS, "1.0", null, "HMAC-SHA1");
    const params = client._prepareParameters(TK, TS, method, href, body ? fields(body) : undefined);
    return client._buildAuthorizationHeaders(params);
  },
};

// [client, method, URL, form body or null, verdict, causes]
const CASES = [];
for (const client of Object.keys(CLIENTS)) {
  CASES.push(
    [client, "GET", "https://api.example.com/1/x?a=1&b=two%20words", null, "match", []],
    [client, "GET", "https://api.example.com/1/x?r=~!*'()&s=%E2%9C%93", null, "match", []],
    [client, "GET", "https://api.example.com/1/x?e=&f", null, "match", []],
    [client, "POST", "https://api.example.com/1/x?a=1", "status=Hello%20Ladies%20%2B%20Gentlemen&t=%E2%9C%93", "match", []],
    [client, "POST", "https://api.example.com:8443/1/x", "a=1&a=0", "match", []],
  );
}
CASES.push(
  ["request", "GET", "https://api.example.com/1/x?a=2&a=1", null, "match", []],
  ["request", "GET", "https://api.example.com/1/x?ids[]=12&ids[]=34&q=x", null, "explained", ["array-brackets-dropped"]],
  ["request", "POST", "https://api.example.com/1/x", "include%5B%5D=7", "explained", ["array-brackets-dropped"]],
  ["request", "GET", "http://api.example.com:80/1/x", null, "explained", ["default-port-kept"]],
  ["oauth-1.0a", "GET", "https://api.example.com/1/x?a=2&a=1", null, "match", []],
  ["oauth-1.0a", "GET", "https://api.example.com/1/x?ids[]=12&ids[]=34", null, "match", []],
  ["oauth-1.0a", "GET", "https://api.example.com/1/x?q=a+b", null, "explained", ["plus-not-decoded", "query-not-decoded"]],
  ["oauth-1.0a", "GET", "https://API.Example.com/1/x", null, "explained", ["host-not-lowercased"]],
  // It decodes the query's values, not its names.
  ["oauth-1.0a", "GET", "https://api.example.com/1/x?first%20name=Ann%20Lee", null, "explained", ["query-names-not-decoded"]],
  // It splits each pair at every "=": a value with one is cut there.
  ["oauth-1.0a", "GET", "https://api.example.com/1/x?next=a=b&q=1", null, "explained", ["value-cut-at-equals"]],
  ["oauth-1.0a", "GET", "https://api.example.com:443/1/x", null, "explained", ["default-port-kept"]],
  ["oauth", "GET", "https://api.example.com/1/x?a=2&a=1", null, "explained", ["repeated-names-indexed"]],
  ["oauth", "GET", "https://api.example.com/1/x?ids[]=12&ids[]=34", null, "explained", ["repeated-names-indexed"]],
  ["oauth", "GET", "http://API.Example.com:80/1/x", null, "match", []],
);

// Mastercard's: a consumer key of its shape (its ! is reserved), the tests' RSA key.
const MASTERCARD_KEY = "L5BsiPgaF-O3qA36znUATgQXwJB6MRoMSdhjd7wt50c97279!50596e52466e3966546d434b7354584c4975693238513d3d";
const pemPath = process.argv[3];
const API = "https://sandbox.api.mastercard.example";
const ONCE = ["protocol-values-encoded-once"];
for (const [method, href, json, causes] of [
  ["GET", API + "/atms/v1/atm?Country=USA&PageLength=10", null, ONCE],
  ["GET", API + "/locations/v1/merchants?PostalCode=a%2Fb&Country=USA", null, ONCE],
  ["POST", API + "/fraud/v1/cases?x=1", JSON.stringify({ caseId: "A-1", note: "\u00dcn\u00efcode & + /" }), ONCE],
  ["GET", "https://sandbox.api.mastercard.example:443/atms/v1/atm", null, ["default-port-kept", ...ONCE]],
  // A query with ! * ' ( ) as they are: it puts the query into the parameter string as on the
  // wire and encodes that once with encodeURIComponent, then replaces only the first * and the
  // first ! (String.replace without /g).
  ["GET", API + "/atms/v1/atm?q=~!*'()", null, [...ONCE, "query-as-sent-encoded-once"]],
  ["GET", API + "/atms/v1/atm?a=(1)*2*3&b=it's", null, [...ONCE, "query-as-sent-encoded-once"]],
  // A form body, hashed like any other, its parameters unsigned.
  ["POST", API + "/tokens/v1/forms", "a=1&note=two%20words", [...ONCE, "form-body-hashed"]],
]) {
  CASES.push(["mastercard-oauth1-signer", method, href, json, "explained", causes]);
}
CLIENTS["mastercard-oauth1-signer"] = (method, href, json) =>
  Mastercard.getAuthorizationHeader(href, method, json, MASTERCARD_KEY, fs.readFileSync(pemPath, "utf8"));

const oauth1 = process.argv[2];
const failures = [];

// The tests' own RFC 5849 oracle (rfc5849.py), run by the pinned virtual environment's Python.
const python = process.argv[4];
const oraclePath = require("path").join(__dirname, "..", "rfc5849.py");
let verified = 0;
let correct = 0;

/** `oauth1 verify` of the request an explain command `args` describes must accept it exactly
 * when the RFC 5849 oracle says its signature is correct. */
function verify(client, args, secret) {
  const given = {};
  const rest = args.filter((a) => a !== "explain" && a !== "--json");
  for (let i = 0; i + 1 < rest.length; i += 2) given[rest[i]] = rest[i + 1];
  let publicKeyPem = null;
  const flags = [];
  for (const flag of ["--method", "--url", "--authorization", "--content-type", "--body"]) {
    if (flag in given) flags.push(flag, given[flag]);
  }
  if (given["--private-key-file"]) {
    publicKeyPem = crypto.createPublicKey(fs.readFileSync(given["--private-key-file"], "utf8"))
      .export({ type: "spki", format: "pem" });
    const file = require("path").join(require("os").tmpdir(), `oauth1-public-${process.pid}.pem`);
    fs.writeFileSync(file, publicKeyPem);
    flags.push("--public-key-file", file);
  }
  const request = {
    method: given["--method"] || "GET", url: given["--url"], content_type: given["--content-type"] ?? null,
    body: given["--body"] ?? null, authorization: given["--authorization"] ?? null,
    consumer_secret: secret, token_secret: TS, public_key_pem: publicKeyPem,
  };
  const oracle = spawnSync(python, [oraclePath], { input: JSON.stringify(request), encoding: "utf8" });
  if (oracle.status !== 0) {
    failures.push(`${client} ${request.url}: the oracle failed: ${oracle.stderr.trim()}`);
    return;
  }
  const want = JSON.parse(oracle.stdout);
  const run = spawnSync(oauth1, ["verify", ...flags], { env: { OAUTH1_CONSUMER_SECRET: secret, OAUTH1_TOKEN_SECRET: TS }, encoding: "utf8" });
  verified += 1;
  if (want) correct += 1;
  if ((run.status === 0) !== want) {
    failures.push(`${client} ${request.url}: oauth1 verify ${run.status === 0 ? "accepts" : "refuses"} a signature the RFC 5849 oracle calls ${want ? "correct" : "wrong"}\n    ${run.stdout.trim()}`);
  }
}

/** Asks `oauth1 explain` about one request, and keeps a failure if it answers otherwise; then
 * has `oauth1 verify` check it against the oracle. */
function check(client, method, href, header, args, verdict, causes, secret = CS) {
  verify(client, args, secret);
  const run = spawnSync(oauth1, args, { env: { OAUTH1_CONSUMER_SECRET: secret, OAUTH1_TOKEN_SECRET: TS }, encoding: "utf8" });
  let answer;
  try {
    answer = JSON.parse(run.stdout);
  } catch {
    failures.push(`${client} ${method} ${href}: oauth1 explain failed: ${run.stderr.trim()}`);
    return;
  }
  // Every cause that reproduces the signature: the explanation, then its alternatives.
  const named = [...(answer.causes ?? []), ...(answer.alternatives ?? [])];
  if (answer.verdict !== verdict || JSON.stringify(named) !== JSON.stringify(causes)) {
    failures.push(`${client} ${method} ${href}: ${answer.verdict} ${JSON.stringify(named)}, expected ${verdict} ${JSON.stringify(causes)}\n    ${header}`);
  }
}

const WC_SECRET = "cs_0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d";

/** A loopback shop that answers {} and keeps each request's URL as it arrived. */
async function loopbackShop() {
  const received = [];
  const server = http.createServer((request, response) => {
    received.push(request.url);
    response.writeHead(200, { "content-type": "application/json" });
    response.end("{}");
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  return { server, origin: `http://127.0.0.1:${server.address().port}`, received };
}

/** The WooCommerce client against a loopback server of this script's, which keeps each URL as
 * it arrived; the requests as received are explained, their protocol parameters in the query. */
async function woocommerce() {
  const { server, origin, received } = await loopbackShop();
  const api = new WooCommerceRestApi({ url: origin, consumerKey: "ck_4f1a2b3c", consumerSecret: WC_SECRET, version: "wc/v3" });
  const twice = ["duplicates-collapsed", "parsed-as-php", "first-duplicate-kept"];
  const cases = [
    ["products", {}, "match", []],
    ["products", { per_page: 5, page: 2 }, "explained", twice],
    ["products", { search: "a/b c!*'()", sku: "~x" }, "explained", twice],
    ["products", { include: [12, 34] }, "explained", twice],
    ["orders?status=processing", {}, "explained", twice],
  ];
  for (const [endpoint, params, verdict, causes] of cases) {
    received.length = 0;
    await api.get(endpoint, params);
    const href = origin + received[0];
    check("@woocommerce/woocommerce-rest-api", "GET", href, "(in the query)",
      ["explain", "--json", "--url", href], verdict, causes, WC_SECRET);
  }
  server.close();
  return cases.length;
}

/** The parameters of an `OAuth …` header, decoded. */
function headerParams(header) {
  const params = {};
  for (const [, name, value] of header.matchAll(/([\w-]+)="([^"]*)"/g)) params[name] = decodeURIComponent(value);
  return params;
}

/** `oauth1 sign --profile mastercard` given the nonce and timestamp Mastercard's signer drew
 * must send its header, parameter for parameter (PKCS#1 v1.5 signatures are deterministic). */
let profiled = 0;
function checkProfile(method, href, body, header) {
  profiled += 1;
  const sent = headerParams(header);
  const args = ["sign", "--profile", "mastercard", "--consumer-key", MASTERCARD_KEY, "--private-key-file", pemPath,
    "--nonce", sent.oauth_nonce, "--timestamp", sent.oauth_timestamp, "--method", method, "--url", href];
  if (body) args.push("--content-type", body.startsWith("{") ? "application/json" : FORM, "--body", body);
  const run = spawnSync(oauth1, args, { encoding: "utf8" });
  const line = run.stdout.split("\n").find((l) => l.startsWith("authorization: "));
  const got = line ? headerParams(line.slice("authorization: ".length)) : run.stderr.trim();
  if (JSON.stringify(got, Object.keys(sent).sort()) !== JSON.stringify(sent, Object.keys(sent).sort())
    || Object.keys(got).length !== Object.keys(sent).length) {
    failures.push(`--profile mastercard ${method} ${href}: ${JSON.stringify(got)}\n    expected ${JSON.stringify(sent)}`);
  }
}

for (const [client, method, href, body, verdict, causes] of CASES) {
  const header = CLIENTS[client](method, href, body);
  const args = ["explain", "--json", "--method", method, "--url", href, "--authorization", header];
  if (client === "mastercard-oauth1-signer") {
    args.push("--private-key-file", pemPath);
    if (body) args.push("--content-type", body.startsWith("{") ? "application/json" : FORM, "--body", body);
    // The explicit :443 the signer keeps, and its query encoded once with its first * and !
    // escaped, are its own bugs (its Python twin signs neither so), not what the gateway
    // computes.
    if (!causes.includes("default-port-kept") && !causes.includes("query-as-sent-encoded-once")) {
      checkProfile(method, href, body, header);
    }
  } else if (body) {
    args.push("--content-type", FORM, "--body", body);
  }
  check(client, method, href, header, args, verdict, causes);
}
/** The legacy WooCommerce client, `woocommerce-api` 1.5.0, against the same kind of loopback
 * server: over http it rewrites the URL's query (read with url.parse, so a repeated name is one
 * array, written back as its values joined with a comma; names sorted; `[` `]` left alone),
 * signs with oauth-1.0a (HMAC-SHA256), and hands the parameters authorize() returns (the
 * query's among them) to request's `qs`, which appends them to the query it already has. */
async function woocommerceLegacy(cases) {
  const WooCommerceAPI = require("woocommerce-api");
  const { server, origin, received } = await loopbackShop();
  const api = new WooCommerceAPI({ url: origin, consumerKey: "ck_4f1a2b3c", consumerSecret: WC_SECRET, wpAPI: true, version: "wc/v3" });
  for (const [endpoint, verdict, causes] of cases) {
    received.length = 0;
    await new Promise((done, fail) => api.get(endpoint, (error) => (error ? fail(error) : done())));
    const href = origin + received[0];
    check("woocommerce-api", "GET", href, "(in the query)", ["explain", "--json", "--url", href], verdict, causes, WC_SECRET);
  }
  server.close();
  return cases.length;
}

// Over http its requests are signed as RFC 5849 says, the query as it rewrote it: a plain query
// matches. A name with brackets goes wrong after signing: request's qs reads `include[]` as an
// array and writes it back as `include[0]`, beside the `include[]` authorize() returned, so the
// request sent carries a parameter never signed: parameter-not-signed (WooCommerce, reading
// include[0] and include[1], refuses it too).
const LEGACY = [
  ["products", "match", []],
  ["products?per_page=5&page=2", "match", []],
  ["products?search=a%2Fb%20c&sku=~x", "match", []],
  ["products?tag=1&tag=2", "match", []],
  ["orders?status=processing", "match", []],
  ["products?include[]=12&include[]=34", "explained", ["parameter-not-signed"]],
  // qs writes `filter[sku]` back as it was, so the request carries it twice, signed once: as
  // a repeated name read once, which the likelier causes reproduce first (its first value or
  // its last: the two are the same).
  ["products?per_page=5&filter[sku]=a1", "explained", ["duplicates-collapsed", "parsed-as-php", "first-duplicate-kept"]],
  ["products?per_page=5&ids[]=7", "explained", ["parameter-not-signed"]],
];

Promise.all([woocommerce(), woocommerceLegacy(LEGACY)]).then(([sent, legacy]) => {
  sent += legacy;
  if (failures.length > 0) {
    console.log(`the npm clients against oauth1 explain: ${failures.length} failures`);
    for (const failure of failures) console.log("  " + failure);
    process.exit(1);
  }
  console.log(`the npm clients against oauth1 explain: ${CASES.length + sent} requests signed by request, oauth-1.0a, oauth, mastercard-oauth1-signer, @woocommerce/woocommerce-rest-api and woocommerce-api, each answered as their source says; ${profiled} signed alike by oauth1 sign --profile mastercard; oauth1 verify accepts the ${correct} of ${verified} whose signature the RFC 5849 oracle calls correct and refuses the others`);
});
