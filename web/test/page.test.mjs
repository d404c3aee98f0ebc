// The page in a real browser (Debian's Chromium, driven by playwright-core): real captures
// from fixtures/captures and the 120 explain fixtures as curl commands pasted in, each answered
// as the `oauth1` command line answers the same input; the Sign and Verify tabs; no request
// leaving the page after load; the keyboard reaching every control; and screenshots at desktop
// and phone widths. Run by `scripts/web test`, which builds web/dist and the command line first
// and sets OAUTH1_CLI, WEB_DIST and SCREENSHOTS.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { createServer } from "node:http";

import {
  root, screenshots, captures, X, RFC, serve, oauth1, oauth1Text, asPage, fixture, CAPTURES,
  explainCases, explainedCapture, pageHeaders, openPage,
} from "./common.mjs";

let server;
let served;
let origin;
let browser;
let page;
let requestsAfterLoad = [];

before(async () => {
  server = await serve();
  ({ origin, served } = server);
  ({ browser, page } = await openPage(origin));
  page.on("request", (request) => requestsAfterLoad.push(request.url()));
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** Fills the page's form, runs the diagnosis, and reads the result element. */
async function paste(fields) {
  const values = {
    capture: "", method: "GET", url: "", body: "", "content-type": "",
    "consumer-secret": "", "token-secret": "", "server-response": "", ...fields,
  };
  delete values.entry;
  for (const [id, value] of Object.entries(values)) {
    await page.fill(`#${id}`, value);
  }
  await page.click("#explain");
  if (fields.entry !== undefined) {
    await page.selectOption("#entry", String(fields.entry));
  }
  const verdict = page.locator("#verdict");
  return {
    verdict: await verdict.getAttribute("data-verdict"),
    causes: await verdict.getAttribute("data-causes"),
    alternatives: await verdict.getAttribute("data-alternatives"),
    reference: (await page.locator("#reference").textContent()) ?? "",
    error: (await page.locator("#verdict .error").count()) ? await page.locator("#verdict .error").textContent() : "",
  };
}

test("copied curl commands and a proxy's raw request are answered as the command line answers them", async () => {
  for (const [name, flag, secrets] of CAPTURES) {
    const { text, expected } = explainedCapture(name, flag, secrets);
    assert.equal(expected.answers.length, 1, `${name}: ${expected.stderr}`);
    const shown = await paste({ capture: text, "consumer-secret": secrets.consumer, "token-secret": secrets.token });
    assert.deepEqual({ verdict: shown.verdict, causes: shown.causes }, asPage(expected.answers[0]), name);
    assert.equal(shown.reference, expected.answers[0].reference_base_string, name);
  }
});

test("every OAuth entry of Chrome's and Firefox's HAR exports, chosen in the page, is answered as the command line answers it", async () => {
  let explained = 0;
  for (const name of ["chrome.har", "firefox.har"]) {
    const expected = oauth1(["explain", "--json", "--har", join(captures, name)], RFC);
    assert.equal(expected.answers.length, 4, `${name}: ${expected.stderr}`);
    for (const answer of expected.answers) {
      const entry = Number(/^entry (\d+):/.exec(answer.name)[1]);
      const shown = await paste({ capture: fixture(name), "consumer-secret": RFC.consumer, "token-secret": RFC.token, entry });
      assert.deepEqual({ verdict: shown.verdict, causes: shown.causes }, asPage(answer), `${name} ${answer.name}`);
      if (answer.verdict === "explained") explained += 1;
    }
  }
  // The exports hold mismatches as well as matches: the comparison is not of matches alone.
  assert.equal(explained, 6);
});

test("every explain fixture whose client signature is known, pasted as a curl command, is answered as the command line answers it", async () => {
  const causes = new Set();
  let alternatives = 0;
  const cases = explainCases();
  for (const { line, command, secrets } of cases) {
    const expected = oauth1(["explain", "--json", "--curl", command], secrets);
    assert.equal(expected.answers.length, 1, `${line.name}: ${expected.stderr}`);
    const shown = await paste({ capture: command, "consumer-secret": secrets.consumer, "token-secret": secrets.token });
    assert.deepEqual({ verdict: shown.verdict, causes: shown.causes }, asPage(expected.answers[0]), `${line.name}:\n${command}`);
    assert.equal(shown.alternatives, expected.answers[0].alternatives.join(" "), line.name);
    assert.equal(shown.reference, expected.answers[0].reference_base_string, line.name);
    for (const cause of expected.answers[0].causes) causes.add(cause);
    if (expected.answers[0].alternatives.length > 0) alternatives += 1;
  }
  assert.equal(cases.length, 143);
  // Some are explained by a cause and an alternative, shown apart.
  assert.ok(alternatives >= 2, `${alternatives}`);
  // Every cause of the vocabulary (docs/mismatch-causes.md) is named for at least one of them.
  const vocabulary = readFileSync(join(root, "docs", "mismatch-causes.md"), "utf8").match(/^\| `[a-z0-9-]+` \|/gm);
  assert.equal(causes.size, vocabulary.length);
});

test("the Authorization header alone, with the request typed beside it, and a server's echoed base string", async () => {
  const curl = fixture("chrome-x-api.curl");
  const header = /-H 'authorization: ([^']*)'/.exec(curl)[1];
  const request = {
    method: "POST",
    url: "https://api.twitter.com/1.1/statuses/update.json?include_entities=true",
    body: "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21",
    "content-type": "application/x-www-form-urlencoded",
  };
  const flags = ["--method", request.method, "--url", request.url, "--body", request.body, "--content-type", request["content-type"]];
  const expected = oauth1(["explain", "--json", "--authorization", header, ...flags], X);
  const shown = await paste({ capture: `Authorization: ${header}`, ...request, "consumer-secret": X.consumer, "token-secret": X.token });
  assert.deepEqual({ verdict: shown.verdict, causes: shown.causes }, asPage(expected.answers[0]));
  assert.equal(shown.verdict, "match");

  // The server echoed a base string with the body's spaces as '+' (plus-for-space); the
  // header is given without its signature, so that the echo alone is compared.
  const unsigned = header.replace(/, oauth_signature="[^"]*"/, "");
  assert.notEqual(unsigned, header);
  const echoed = expected.answers[0].reference_base_string.replaceAll("%2520", "%2B");
  const response = `oauth_problem=signature_invalid&debug_sbs=${encodeURIComponent(echoed)}`;
  const dir = mkdtempSync(join(tmpdir(), "oauth1-web-"));
  try {
    writeFileSync(join(dir, "response"), response);
    const withResponse = oauth1(["explain", "--json", "--authorization", unsigned, ...flags, "--server-response", join(dir, "response")], X);
    const page401 = await paste({ capture: unsigned, ...request, "consumer-secret": X.consumer, "token-secret": X.token, "server-response": response });
    assert.deepEqual({ verdict: page401.verdict, causes: page401.causes }, asPage(withResponse.answers[0]));
    assert.equal(page401.verdict, "explained", withResponse.stderr);
    assert.equal(page401.causes, "plus-for-space");
    // The first difference is marked in both base strings.
    assert.equal(await page.locator("#reference mark").count(), 1);
    assert.equal(await page.locator("#theirs mark").count(), 1);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test("a raw request whose target is a path, over plain http as the scheme field says, or as the signature says when it says none", async () => {
  // RFC 5849 §3.1's request, its parameters in the query (§3.5.3), its target a path.
  const raw = "GET /photos?file=vacation.jpg&size=original&oauth_consumer_key=dpf43f3p2l4k3l03&oauth_token=nnch734d00sl2jdk&oauth_signature_method=HMAC-SHA1&oauth_timestamp=1191242096&oauth_nonce=kllo9940pd9333jh&oauth_version=1.0&oauth_signature=tR3%2BTy81lMeYAr%2FFid0kMTYa%2FWM%3D HTTP/1.1\nHost: photos.example.net\n\n";
  const dir = mkdtempSync(join(tmpdir(), "oauth1-web-"));
  try {
    writeFileSync(join(dir, "request.http"), raw);
    for (const scheme of ["http", "https"]) {
      const expected = oauth1(["explain", "--json", "--http", join(dir, "request.http"), "--scheme", scheme], RFC);
      await page.selectOption("#scheme", scheme);
      const shown = await paste({ capture: raw, "consumer-secret": RFC.consumer, "token-secret": RFC.token });
      assert.deepEqual({ verdict: shown.verdict, causes: shown.causes }, asPage(expected.answers[0]), scheme);
      assert.equal(shown.reference, expected.answers[0].reference_base_string, scheme);
    }
    // Read as https, it does not match (the diagnosis names the scheme); as http, it does.
    assert.notEqual((await paste({ capture: raw, "consumer-secret": RFC.consumer, "token-secret": RFC.token })).verdict, "match");
    await page.selectOption("#scheme", "http");
    assert.equal((await paste({ capture: raw, "consumer-secret": RFC.consumer, "token-secret": RFC.token })).verdict, "match");
    // Unknown, the default: both readings tried and http taken, since the signature matches
    // it, as the command line takes it without --scheme.
    await page.selectOption("#scheme", "");
    const unknown = await paste({ capture: raw, "consumer-secret": RFC.consumer, "token-secret": RFC.token });
    assert.equal(unknown.verdict, "match");
    const note = page.locator("#verdict .scheme-taken");
    assert.equal(await note.getAttribute("data-scheme"), "http");
    assert.equal(await note.getAttribute("data-reason"), "matches");
    const cli = oauth1(["explain", "--json", "--http", join(dir, "request.http")], RFC);
    assert.deepEqual({ verdict: unknown.verdict, causes: unknown.causes }, asPage(cli.answers[0]));
    assert.equal(cli.answers[0].scheme.taken, "http");
    assert.equal(unknown.reference, cli.answers[0].reference_base_string);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test("a URL pasted alone, its protocol parameters in its query, is answered as oauth1 explain --url answers it", async () => {
  // RFC 5849 section 3.1's request, its parameters in the query as section 3.5.3 allows.
  const url = "http://photos.example.net/photos?file=vacation.jpg&size=original&oauth_consumer_key=dpf43f3p2l4k3l03&oauth_token=nnch734d00sl2jdk&oauth_signature_method=HMAC-SHA1&oauth_timestamp=1191242096&oauth_nonce=kllo9940pd9333jh&oauth_version=1.0&oauth_signature=tR3%2BTy81lMeYAr%2FFid0kMTYa%2FWM%3D";
  const expected = oauth1(["explain", "--json", "--url", url], RFC);
  assert.equal(expected.status, 0);
  const shown = await paste({ capture: url, "consumer-secret": RFC.consumer, "token-secret": RFC.token });
  assert.equal(shown.verdict, "match");
  assert.equal(shown.reference, expected.answers[0].reference_base_string);
  assert.match(await page.locator("#kind").textContent(), /URL that carries its protocol parameters/);
});

test("a capture that cannot be read gets the command line's message", async () => {
  const command = "curl 'https://api.example.com/x";
  const expected = oauth1(["explain", "--curl", command], X);
  assert.equal(expected.status, 2);
  const message = expected.stderr.trim().replace(/^error: --curl: /, "");
  const shown = await paste({ capture: command, "consumer-secret": X.consumer });
  assert.equal(shown.verdict, "error");
  assert.equal(shown.causes, "");
  assert.equal(shown.error, `the curl command: ${message}`);
});

test("a pasted curl command that reads its data from a file is refused, as the command line refuses it", async () => {
  const entries = JSON.parse(readFileSync(join(root, "fixtures", "bad-input.json"), "utf8"))
    .filter((entry) => entry.kind === "curl");
  assert.ok(entries.length >= 4);
  for (const entry of entries) {
    const expected = oauth1(["explain", "--curl", entry.command], X);
    assert.equal(expected.status, 2);
    assert.equal(
      expected.stderr,
      `error: --curl: ${entry.error}: give the body itself with --body-file FILE\n`,
    );
    const shown = await paste({ capture: entry.command, "consumer-secret": X.consumer });
    assert.equal(shown.verdict, "error", entry.name);
    assert.equal(shown.error, `the curl command: ${entry.error}: put the body into the command with --data-raw '…'`, entry.name);
  }
});

test("the keyboard reaches the diagnosis, and the secrets are hidden until revealed", async () => {
  assert.equal(await page.getAttribute("#consumer-secret", "type"), "password");
  assert.equal(await page.getAttribute("#token-secret", "type"), "password");
  await page.fill("#capture", fixture("chrome-x-api.curl"));
  await page.focus("#capture");
  const before = await page.getAttribute("#verdict", "data-run");
  let reached = false;
  for (let i = 0; i < 30 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = await page.evaluate(() => document.activeElement?.id === "explain");
  }
  assert.ok(reached, "Tab never reaches the Explain button");
  await page.keyboard.press("Enter");
  assert.notEqual(await page.getAttribute("#verdict", "data-run"), before);
  await page.click('button.reveal[data-for="consumer-secret"]');
  assert.equal(await page.getAttribute("#consumer-secret", "type"), "text");
  await page.click('button.reveal[data-for="consumer-secret"]');
  assert.equal(await page.getAttribute("#consumer-secret", "type"), "password");
});

/** The values a result list shows, by their labels. */
async function listed(selector) {
  return page.evaluate((selector) => {
    const values = {};
    for (const dt of document.querySelectorAll(`${selector} dt`)) values[dt.textContent] = dt.nextElementSibling.textContent;
    return values;
  }, selector);
}

test("the Sign tab signs the X API's published request to its published values", async () => {
  const published = JSON.parse(readFileSync(join(root, "fixtures", "published.json"), "utf8"));
  const x = published.find((c) => c.name === "x-api-creating-a-signature");
  await page.click("#tab-sign");
  assert.equal(await page.isVisible("#panel-explain"), false);
  for (const [id, value] of [
    ["sign-method", x.method], ["sign-url", x.url], ["sign-content-type", x.content_type], ["sign-body", x.body],
    ["sign-consumer-key", x.consumer_key], ["sign-consumer-secret", x.consumer_secret],
    ["sign-token", x.token], ["sign-token-secret", x.token_secret],
    ["sign-nonce", x.nonce], ["sign-timestamp", x.timestamp],
  ]) {
    await page.fill(`#${id}`, value);
  }
  await page.click("#sign");
  assert.equal(await page.getAttribute("#sign-result", "data-state"), "signed");
  const values = await listed("#sign-stages");
  assert.equal(values["signature base string"], x.expected.base_string);
  assert.equal(values.signature, x.expected.signature);
  await page.screenshot({ path: join(screenshots, "sign.png"), fullPage: true });
  // A URL without its scheme is refused with the command line's words.
  await page.fill("#sign-url", "api.twitter.com/1.1/statuses/update.json");
  await page.click("#sign");
  assert.equal(await page.getAttribute("#sign-result", "data-state"), "error");
  const refused = oauth1(["sign", "--url", "api.twitter.com/1.1/statuses/update.json", "--consumer-key", "k"], { consumer: "s" });
  assert.equal(await page.textContent("#sign-status .error"), refused.stderr.trim().replace(/^error: /, ""));
  await page.click("#tab-explain");
});

test("the Sign tab signs as a provider profile, and the diagnosis names the profile", async () => {
  // WooCommerce's check, as scripts/interop_peers/woocommerce_server.py re-states it from its
  // PHP, computes this signature for the request (HMAC-SHA256 keyed with the raw "cs+1&").
  const url = "http://shop.example/wp-json/wc/v3/products?include[]=12&a.b=x+y&include[]=34";
  const signed = `${url}&oauth_consumer_key=ck&oauth_nonce=n&oauth_signature_method=HMAC-SHA256&oauth_timestamp=1700000000&oauth_version=1.0&oauth_signature=9S6eYGwls%2FWXUQ7mXwwtF8YQxRu8zmoQCrwHNR3Fe7E%3D`;
  await page.click("#tab-sign");
  for (const [id, value] of [
    ["sign-method", "GET"], ["sign-url", url], ["sign-content-type", ""], ["sign-body", ""],
    ["sign-consumer-key", "ck"], ["sign-consumer-secret", "cs+1"], ["sign-token", ""], ["sign-token-secret", ""],
    ["sign-nonce", "n"], ["sign-timestamp", "1700000000"],
  ]) {
    await page.fill(`#${id}`, value);
  }
  await page.selectOption("#sign-profile", "woocommerce");
  assert.equal(await page.inputValue("#sign-signature-method"), "HMAC-SHA256");
  assert.match(await page.textContent("#sign-profile-requires"), /^It requires over http only/);
  // The footer counts the vocabulary as docs/mismatch-causes.md lists it.
  const vocabulary = readFileSync(join(root, "docs", "mismatch-causes.md"), "utf8").match(/^\| `[a-z0-9-]+` \|/gm).length;
  assert.match(await page.textContent("footer"), new RegExp(`vocabulary of ${vocabulary} mistakes`));
  await page.click("#sign");
  assert.equal(await page.getAttribute("#sign-result", "data-state"), "signed");
  const values = await listed("#sign-stages");
  assert.equal(values["signed URL"], signed);
  await page.screenshot({ path: join(screenshots, "sign-profile.png"), fullPage: true });
  // What the profile cannot take is refused with the command line's words.
  await page.fill("#sign-url", "http://shop.example/wp-json/wc/v3/products?tag=1&tag=2");
  await page.click("#sign");
  const refused = oauth1(["sign", "--profile", "woocommerce", "--url", "http://shop.example/wp-json/wc/v3/products?tag=1&tag=2", "--consumer-key", "ck"], { consumer: "cs+1" });
  assert.equal(await page.textContent("#sign-status .error"), refused.stderr.trim().replace(/^error: /, ""));
  await page.selectOption("#sign-profile", "");
  await page.click("#tab-explain");

  const expected = oauth1(["explain", "--json", "--url", signed], { consumer: "cs+1" });
  const shown = await paste({ capture: signed, "consumer-secret": "cs+1" });
  assert.deepEqual({ verdict: shown.verdict, causes: shown.causes }, asPage(expected.answers[0]));
  const note = page.locator("#verdict .profile");
  assert.equal(await note.getAttribute("data-profile"), expected.answers[0].profile.name);
  assert.equal(await note.getAttribute("data-reproduces"), "true");
  assert.equal(await note.textContent(), `Provider profile ${oauth1Text(["explain", "--url", signed], { consumer: "cs+1", token: "" }).match(/^profile: +(.*)$/m)[1]}`);
});

test("the Verify tab checks a received request as oauth1 verify does", async () => {
  await page.click("#tab-verify");
  const curl = fixture("chrome-x-api.curl");
  const verifyIn = async (fields) => {
    const values = {
      "verify-capture": "", "verify-consumer-secret": "", "verify-token-secret": "", "verify-now": "", ...fields,
    };
    delete values.entry;
    for (const [id, value] of Object.entries(values)) await page.fill(`#${id}`, value);
    await page.click("#verify");
    if (fields.entry !== undefined) await page.selectOption("#verify-entry", String(fields.entry));
    return {
      verdict: await page.getAttribute("#verify-verdict", "data-verdict"),
      reason: await page.getAttribute("#verify-verdict", "data-reason"),
      values: await listed("#verify-values"),
    };
  };
  // Valid at its timestamp: the same consumer, token, method and parameters as the command line's.
  const at = await verifyIn({ "verify-capture": curl, "verify-consumer-secret": X.consumer, "verify-token-secret": X.token, "verify-now": "1318622958" });
  assert.equal(at.verdict, "valid");
  assert.equal(
    oauth1Text(["verify", "--now", "1318622958", "--curl", curl], X),
    `valid\nconsumer key:  ${at.values["consumer key"]}\ntoken:         ${at.values.token}\nmethod:        ${at.values.method}\nparameters:    ${at.values.parameters}\n`,
  );
  // By this browser's clock, years later: stale, as by the command line's.
  const today = await verifyIn({ "verify-capture": curl, "verify-consumer-secret": X.consumer, "verify-token-secret": X.token });
  assert.equal(today.verdict, "invalid");
  assert.equal(today.reason, "stale-timestamp");
  assert.match(oauth1Text(["verify", "--curl", curl], X), /^invalid: stale-timestamp\n/);
  await page.screenshot({ path: join(screenshots, "verify.png"), fullPage: true });
  // A HAR entry, chosen: RFC 5849's example with its parameters in the query.
  const har = await verifyIn({ "verify-capture": fixture("firefox.har"), "verify-consumer-secret": RFC.consumer, "verify-token-secret": RFC.token, "verify-now": "1191242096", entry: 5 });
  assert.equal(har.verdict, "valid");
  assert.equal(har.values["consumer key"], "dpf43f3p2l4k3l03");
  await page.click("#tab-explain");
});

test("no request leaves the page after it has loaded, its policy refuses one, and it works offline", async () => {
  const blocked = await page.evaluate(async (url) => {
    try {
      await fetch(url);
      return "sent";
    } catch {
      return "refused";
    }
  }, origin + "/probe");
  assert.equal(blocked, "refused");
  assert.ok(!served.includes("/probe"), "the probe reached the server");
  assert.deepEqual(requestsAfterLoad, []);
  const stored = await page.evaluate(() => localStorage.length + sessionStorage.length);
  assert.equal(stored, 0);
  // Offline, it answers as before.
  await page.context().setOffline(true);
  try {
    const shown = await paste({ capture: fixture("chrome-x-api.curl"), "consumer-secret": X.consumer, "token-secret": X.token });
    assert.equal(shown.verdict, "match");
  } finally {
    await page.context().setOffline(false);
  }
});

test("the page's headers forbid another site to frame it, with the <meta> tag's policy", async () => {
  const headers = pageHeaders();
  const html = readFileSync(join(root, "web", "index.html"), "utf8");
  const meta = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)[1];
  assert.equal(headers["content-security-policy"], `${meta}; frame-ancestors 'none'`);
  assert.equal(headers["x-frame-options"], "DENY");
  // The guide's nginx snippet (docs/diagnosis.md) sends the same policy.
  const readme = readFileSync(join(root, "docs", "diagnosis.md"), "utf8");
  assert.ok(readme.includes(`add_header Content-Security-Policy "${headers["content-security-policy"]}" always;`));
  // Another origin frames the page: the browser does not show it there.
  const framer = createServer((_, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end(`<!doctype html><iframe src="${origin}/"></iframe>`);
  });
  await new Promise((done) => framer.listen(0, "127.0.0.1", done));
  const other = await browser.newPage();
  try {
    const refused = new Promise((done) => other.on("console", (m) => {
      if (/frame-ancestors|X-Frame-Options|refused to/i.test(m.text())) done(m.text());
    }));
    await other.goto(`http://localhost:${framer.address().port}/`, { waitUntil: "load" });
    const said = await Promise.race([refused, new Promise((done) => setTimeout(() => done(null), 5000))]);
    const framed = other.frames().find((frame) => frame !== other.mainFrame());
    const ready = await framed?.evaluate(() => document.body?.dataset.ready ?? null).catch(() => null);
    assert.notEqual(ready, "true", "the page ran inside another site's frame");
    assert.ok(said, "the browser did not say it refused the frame");
  } finally {
    await other.close();
    framer.close();
  }
});

test("screenshots: an explained HAR entry at desktop width and on a phone", async () => {
  await paste({ capture: fixture("chrome.har"), "consumer-secret": RFC.consumer, "token-secret": RFC.token, entry: 3 });
  assert.equal(await page.getAttribute("#verdict", "data-verdict"), "explained");
  // The parameter in which the base strings first differ is marked: q, written "caf%c3%a9".
  assert.deepEqual(await page.locator("#stages-body tr.differs td").allTextContents(), ["query", "q", "café", "q=caf%C3%A9"]);
  await page.evaluate(() => { document.getElementById("capture").scrollTop = 0; });
  await page.screenshot({ path: join(screenshots, "page.png"), fullPage: true });
  // The README's picture (docs/web-page.png is a copy of it): the form and the verdict.
  await page.screenshot({ path: join(screenshots, "page-top.png"), fullPage: true, clip: { x: 0, y: 0, width: 1280, height: 1000 } });
  await page.setViewportSize({ width: 390, height: 844 });
  // Nothing wider than the phone's screen.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than a phone`);
  await page.screenshot({ path: join(screenshots, "page-phone.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
});
