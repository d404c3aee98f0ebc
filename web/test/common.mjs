// What the browser tests share: where things are, the captures' secrets, the static server,
// the `oauth1` command line as the oracle, and the curl commands of the explain fixtures.

import { spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { join, extname, resolve } from "node:path";
import { createHash } from "node:crypto";
import { chromium } from "playwright-core";

export const root = resolve(import.meta.dirname, "../..");
export const dist = resolve(root, process.env.WEB_DIST ?? "web/dist");
export const cli = resolve(root, process.env.OAUTH1_CLI ?? "target/debug/oauth1");
export const screenshots = resolve(root, process.env.SCREENSHOTS ?? "target/web-page");
export const captures = join(root, "fixtures", "captures");

// The secrets of the captures: the X API's published example, the Unicode captures', and
// RFC 5849's (the HAR exports', fixtures/captures_har.py).
export const X = { consumer: "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw", token: "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE" };
export const UNICODE = { consumer: "cs-unicode", token: "ts-unicode" };
export const RFC = { consumer: "kd94hf93k423kf44", token: "pfkkdhi9sl3r4s00" };

/** The capture fixtures that are not HAR files: file, `oauth1 explain` flag, secrets. */
export const CAPTURES = [
  ["chrome-x-api.curl", "--curl", X],
  ["firefox-x-api.curl", "--curl", X],
  ["postman-x-api.curl", "--curl", X],
  ["mitmproxy-x-api.http", "--http", X],
  ["chrome-unicode.curl", "--curl", UNICODE],
  ["firefox-unicode.curl", "--curl", UNICODE],
];

export const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css" };

/** The response headers of `web/_headers` (every path's: the file has one rule, `/*`). */
export function pageHeaders() {
  const headers = {};
  for (const line of readFileSync(join(dist, "_headers"), "utf8").split("\n")) {
    const header = /^\s+([A-Za-z-]+):\s*(.*)$/.exec(line);
    if (header) headers[header[1].toLowerCase()] = header[2];
  }
  return headers;
}

/** Serves `dist` on a loopback port, with the headers of `web/_headers` as a static host
 * sends them; every path asked for is kept in `served`. */
export async function serve() {
  const served = [];
  const headers = pageHeaders();
  const server = createServer((request, response) => {
    served.push(request.url);
    const path = request.url === "/" ? "/index.html" : request.url.split("?")[0];
    try {
      const body = readFileSync(join(dist, path));
      response.writeHead(200, { ...headers, "content-type": TYPES[extname(path)] ?? "application/octet-stream" });
      response.end(body);
    } catch {
      response.writeHead(404);
      response.end();
    }
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  return { origin: `http://127.0.0.1:${server.address().port}`, served, close: () => server.close() };
}

/** Runs the command line; its JSON answer lines, and whether it exited 0. */
export function oauth1(args, secrets) {
  const env = { ...process.env };
  delete env.OAUTH1_CONSUMER_SECRET;
  delete env.OAUTH1_TOKEN_SECRET;
  if (secrets.consumer !== undefined) env.OAUTH1_CONSUMER_SECRET = secrets.consumer;
  if (secrets.token !== undefined) env.OAUTH1_TOKEN_SECRET = secrets.token;
  const run = spawnSync(cli, args, { env, encoding: "utf8" });
  if (run.error) throw run.error;
  return {
    status: run.status,
    stderr: run.stderr,
    answers: run.stdout.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l)),
  };
}

/** Runs the command line; what it prints. */
export function oauth1Text(args, secrets) {
  const env = { ...process.env, OAUTH1_CONSUMER_SECRET: secrets.consumer, OAUTH1_TOKEN_SECRET: secrets.token };
  const run = spawnSync(cli, args, { env, encoding: "utf8" });
  if (run.error) throw run.error;
  return run.stdout;
}

/** The command line's answer as the page's result element carries it. */
export function asPage(answer) {
  return { verdict: answer.verdict, causes: answer.causes.join(" ") };
}

export function fixture(name) {
  return readFileSync(join(captures, name), "utf8");
}

/** RFC 3986 percent-encoding as RFC 5849 §3.6 asks, written here from the RFC. */
export function percent(text) {
  return Array.from(new TextEncoder().encode(text), (b) => {
    const c = String.fromCharCode(b);
    return /[A-Za-z0-9\-._~]/.test(c) ? c : "%" + b.toString(16).toUpperCase().padStart(2, "0");
  }).join("");
}

/** The Authorization header the client of an explain line sent, with the signature it computed. */
export function headerOf(line, signature) {
  const method = line.signature_method ?? "HMAC-SHA1";
  const params = [
    ["oauth_consumer_key", line.consumer_key], ["oauth_signature_method", method],
    ["oauth_timestamp", line.timestamp], ["oauth_nonce", line.nonce],
  ];
  // `"version": null` leaves it out; absent, it is 1.0.
  if (!("version" in line)) params.push(["oauth_version", "1.0"]);
  else if (typeof line.version === "string") params.push(["oauth_version", line.version]);
  for (const [field, name] of [["token", "oauth_token"], ["callback", "oauth_callback"], ["verifier", "oauth_verifier"]]) {
    if (typeof line[field] === "string") params.push([name, line[field]]);
  }
  if (line.body_hash === true) {
    // oauth_body_hash (draft-eaton-oauth-bodyhash): base64 of the body's digest.
    const digest = method.endsWith("SHA256") ? "sha256" : method.endsWith("SHA512") ? "sha512" : "sha1";
    params.push(["oauth_body_hash", createHash(digest).update(line.body ?? "", "utf8").digest("base64")]);
  }
  params.push(["oauth_signature", signature]);
  const realm = typeof line.realm === "string" ? `realm="${line.realm}", ` : "";
  return "OAuth " + realm + params.map(([n, v]) => `${n}="${percent(v)}"`).join(", ");
}

/** `text` in POSIX single quotes. */
export function quoted(text) {
  return "'" + text.replaceAll("'", "'\\''") + "'";
}

/** The curl command a browser would copy for an explain line's request. */
export function curlOf(line, signature) {
  const body = line.body ? line.body : null;
  const words = [`curl ${quoted(line.url)}`];
  if (line.method !== (body === null ? "GET" : "POST")) words.push(`-X ${quoted(line.method)}`);
  words.push(`-H ${quoted(`authorization: ${headerOf(line, signature)}`)}`, "-H 'accept: */*'");
  if (body !== null) {
    // Without a Content-Type curl says form; a body that is not one says so.
    words.push(`-H ${quoted(`content-type: ${line.content_type ?? "application/octet-stream"}`)}`);
    words.push(`--data-raw ${quoted(body)}`);
  } else if (line.content_type) {
    words.push(`-H ${quoted(`content-type: ${line.content_type}`)}`);
  }
  return words.join(" \\\n  ");
}

/** The explain fixtures whose client's signature is known, each with its curl command and
 * secrets. */
export function explainCases() {
  const lines = JSON.parse(readFileSync(join(root, "fixtures", "explain.json"), "utf8"));
  return lines
    .filter((line) => typeof line.observed?.signature === "string")
    .map((line) => ({
      line,
      command: curlOf(line, line.observed.signature),
      secrets: { consumer: line.consumer_secret, token: line.token_secret ?? "" },
    }));
}

/** A capture fixture's text, and `oauth1 explain --json`'s answer to it. */
export function explainedCapture(name, flag, secrets) {
  const text = fixture(name);
  const expected = oauth1(["explain", "--json", flag, flag === "--curl" ? text : join(captures, name)], secrets);
  return { text, expected };
}

/** Debian's Chromium, headless, and the page at `origin` open and started in it. */
export async function openPage(origin) {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e));
  await page.goto(origin + "/", { waitUntil: "load" });
  await page.waitForSelector("body[data-ready=true]", { timeout: 20000 }).catch((e) => {
    throw new Error(`the page did not start: ${errors.join("; ") || e}`);
  });
  return { browser, page };
}
