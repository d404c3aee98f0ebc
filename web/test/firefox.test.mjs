// The page in Firefox (Debian's firefox-esr), driven over WebDriver BiDi, the W3C protocol
// Firefox speaks natively: the captures, HAR entries and the 120 explain fixtures answered as the
// `oauth1` command line answers them, the Sign and Verify tabs, no request after load, and a
// screenshot. playwright-core's Firefox support needs a newer Firefox than the ESR, so this file
// speaks the protocol itself (a WebSocket and five commands). Run by `scripts/web test`, with
// node's --experimental-websocket.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";

import {
  screenshots, captures, X, RFC, serve, oauth1, oauth1Text, asPage, fixture, CAPTURES,
  explainCases, explainedCapture,
} from "./common.mjs";

/** One WebDriver BiDi session over a WebSocket. */
class Bidi {
  constructor(socket) {
    this.socket = socket;
    this.next = 1;
    this.waiting = new Map();
    this.events = [];
    socket.addEventListener("message", (message) => {
      const data = JSON.parse(message.data);
      if (data.type === "event") {
        this.events.push(data);
        return;
      }
      const pending = this.waiting.get(data.id);
      if (!pending) return;
      this.waiting.delete(data.id);
      if (data.type === "error") pending.reject(new Error(`${data.error}: ${data.message}`));
      else pending.resolve(data.result);
    });
  }

  static async connect(url) {
    const socket = new WebSocket(url);
    await new Promise((ready, failed) => {
      socket.addEventListener("open", ready, { once: true });
      socket.addEventListener("error", failed, { once: true });
    });
    return new Bidi(socket);
  }

  send(method, params = {}) {
    const id = this.next++;
    this.socket.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve, reject) => this.waiting.set(id, { resolve, reject }));
  }
}

let firefox;
let profile;
let bidi;
let context;
let server;

/** Runs `fn` (a function's source) in the page with `args`; its JSON-able result. */
async function inPage(fn, args = null) {
  const result = await bidi.send("script.callFunction", {
    functionDeclaration: `async (args) => JSON.stringify(await (${fn})(JSON.parse(args))) ?? "null"`,
    arguments: [{ type: "string", value: JSON.stringify(args) }],
    target: { context },
    awaitPromise: true,
  });
  if (result.type !== "success") throw new Error(`in the page: ${JSON.stringify(result.exceptionDetails)}`);
  return JSON.parse(result.result.value);
}

// What the page's user does: fill fields (with the input events typing sends), pick a HAR
// entry, press a button; then what the result element says.
const PASTE = `(fields) => {
  const set = (id, value) => {
    const e = document.getElementById(id);
    e.value = value;
    e.dispatchEvent(new Event("input", { bubbles: true }));
  };
  const { tab, button, entry, entrySelect, result, ...values } = fields;
  document.getElementById(tab).click();
  for (const [id, value] of Object.entries(values)) set(id, value);
  document.getElementById(button).click();
  if (entry !== null) {
    const select = document.getElementById(entrySelect);
    select.value = String(entry);
    select.dispatchEvent(new Event("change", { bubbles: true }));
  }
  const shown = document.getElementById(result);
  const dl = {};
  for (const dt of document.querySelectorAll(result === "verify-verdict" ? "#verify-values dt" : "#sign-stages dt")) {
    dl[dt.textContent] = dt.nextElementSibling.textContent;
  }
  return {
    verdict: shown.dataset.verdict ?? shown.dataset.state,
    causes: shown.dataset.causes ?? "",
    reason: shown.dataset.reason ?? "",
    reference: document.getElementById("reference").textContent,
    error: shown.querySelector(".error")?.textContent ?? "",
    values: dl,
  };
}`;

function explainIn(fields) {
  return inPage(PASTE, {
    tab: "tab-explain", button: "explain", entrySelect: "entry", result: "verdict",
    capture: "", method: "GET", url: "", body: "", "content-type": "",
    "consumer-secret": "", "token-secret": "", "server-response": "", entry: null, ...fields,
  });
}

before(async () => {
  server = await serve();
  profile = mkdtempSync(join(tmpdir(), "oauth1-firefox-"));
  firefox = spawn("/usr/bin/firefox-esr", [
    "--headless", "--no-remote", "--remote-debugging-port=0", "--profile", profile, "about:blank",
  ], { stdio: ["ignore", "ignore", "pipe"] });
  const url = await new Promise((found, failed) => {
    let said = "";
    const timer = setTimeout(() => failed(new Error(`firefox-esr did not start:\n${said}`)), 30000);
    firefox.stderr.on("data", (chunk) => {
      said += chunk;
      const match = /WebDriver BiDi listening on (ws:\/\/\S+)/.exec(said);
      if (match) {
        clearTimeout(timer);
        found(match[1]);
      }
    });
    firefox.on("exit", (code) => failed(new Error(`firefox-esr exited (${code}):\n${said}`)));
  });
  bidi = await Bidi.connect(`${url}/session`);
  await bidi.send("session.new", { capabilities: {} });
  const tree = await bidi.send("browsingContext.getTree", {});
  context = tree.contexts[0].context;
  await bidi.send("browsingContext.setViewport", { context, viewport: { width: 1280, height: 900 } });
  await bidi.send("browsingContext.navigate", { context, url: server.origin + "/", wait: "complete" });
  for (let i = 0; i < 200 && !(await inPage("() => document.body.dataset.ready === 'true'")); i++) {
    await new Promise((later) => setTimeout(later, 100));
  }
  assert.ok(await inPage("() => document.body.dataset.ready === 'true'"), "the page did not start in Firefox");
  await bidi.send("session.subscribe", { events: ["network.beforeRequestSent"] });
});

after(async () => {
  try {
    await bidi?.send("session.end", {});
  } catch {
    // Firefox may close the socket first.
  }
  firefox?.kill();
  await new Promise((done) => (firefox && firefox.exitCode === null ? firefox.on("exit", done) : done()));
  if (profile) rmSync(profile, { recursive: true, force: true });
  server?.close();
});

test("Firefox: the captures and every OAuth entry of both HAR exports, as the command line answers them", async () => {
  for (const [name, flag, secrets] of CAPTURES) {
    const { text, expected } = explainedCapture(name, flag, secrets);
    const shown = await explainIn({ capture: text, "consumer-secret": secrets.consumer, "token-secret": secrets.token });
    assert.deepEqual({ verdict: shown.verdict, causes: shown.causes }, asPage(expected.answers[0]), name);
    assert.equal(shown.reference, expected.answers[0].reference_base_string, name);
  }
  for (const name of ["chrome.har", "firefox.har"]) {
    const expected = oauth1(["explain", "--json", "--har", join(captures, name)], RFC);
    assert.equal(expected.answers.length, 4);
    for (const answer of expected.answers) {
      const entry = Number(/^entry (\d+):/.exec(answer.name)[1]);
      const shown = await explainIn({ capture: fixture(name), "consumer-secret": RFC.consumer, "token-secret": RFC.token, entry });
      assert.deepEqual({ verdict: shown.verdict, causes: shown.causes }, asPage(answer), `${name} ${answer.name}`);
    }
  }
});

test("Firefox: every explain fixture with a known client signature, as a curl command", async () => {
  const cases = explainCases();
  for (const { line, command, secrets } of cases) {
    const expected = oauth1(["explain", "--json", "--curl", command], secrets);
    const shown = await explainIn({ capture: command, "consumer-secret": secrets.consumer, "token-secret": secrets.token });
    assert.deepEqual({ verdict: shown.verdict, causes: shown.causes }, asPage(expected.answers[0]), line.name);
  }
  assert.equal(cases.length, 143);
});

test("Firefox: the Sign and Verify tabs", async () => {
  const signed = await inPage(PASTE, {
    tab: "tab-sign", button: "sign", entrySelect: "", result: "sign-result", entry: null,
    "sign-method": "POST",
    "sign-url": "https://api.twitter.com/1.1/statuses/update.json?include_entities=true",
    "sign-content-type": "application/x-www-form-urlencoded",
    "sign-body": "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21",
    "sign-consumer-key": "xvz1evFS4wEEPTGEFPHBog", "sign-consumer-secret": X.consumer,
    "sign-token": "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", "sign-token-secret": X.token,
    "sign-nonce": "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", "sign-timestamp": "1318622958",
  });
  assert.equal(signed.verdict, "signed");
  // The X API's published signature ("Creating a signature").
  assert.equal(signed.values.signature, "hCtSmYh+iHYCEqBWrE7C7hYmtUk=");

  const curl = fixture("chrome-x-api.curl");
  const verified = await inPage(PASTE, {
    tab: "tab-verify", button: "verify", entrySelect: "verify-entry", result: "verify-verdict", entry: null,
    "verify-capture": curl, "verify-consumer-secret": X.consumer, "verify-token-secret": X.token,
    "verify-now": "1318622958",
  });
  assert.equal(verified.verdict, "valid");
  assert.equal(
    oauth1Text(["verify", "--now", "1318622958", "--curl", curl], X),
    `valid\nconsumer key:  ${verified.values["consumer key"]}\ntoken:         ${verified.values.token}\nmethod:        ${verified.values.method}\nparameters:    ${verified.values.parameters}\n`,
  );
  const screenshot = await bidi.send("browsingContext.captureScreenshot", { context, origin: "document" });
  writeFileSync(join(screenshots, "verify-firefox.png"), Buffer.from(screenshot.data, "base64"));
  await inPage(`() => document.getElementById("tab-explain").click()`);
});

test("Firefox: no request after load, and the policy refuses one", async () => {
  const refused = await inPage(`async (url) => { try { await fetch(url); return "sent"; } catch { return "refused"; } }`, server.origin + "/probe");
  assert.equal(refused, "refused");
  assert.ok(!server.served.includes("/probe"));
  const sent = bidi.events.filter((e) => e.method === "network.beforeRequestSent").map((e) => e.params.request.url);
  assert.deepEqual(sent, []);
  await explainIn({ capture: fixture("chrome.har"), "consumer-secret": RFC.consumer, "token-secret": RFC.token, entry: 3 });
  const screenshot = await bidi.send("browsingContext.captureScreenshot", { context, origin: "document" });
  writeFileSync(join(screenshots, "page-firefox.png"), Buffer.from(screenshot.data, "base64"));
});
