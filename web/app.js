// The page: reads the form, hands it to the engine (oauth1-web, compiled to WebAssembly) and
// shows its answer. Nothing here reaches the network or storage.

import init, { explain, profiles, sign, verify } from "./oauth1_web.js";
// The engine's bytes, base64 in a script: the page's Content-Security-Policy has
// connect-src 'none', which forbids the fetch a .wasm file would need.
import wasmBase64 from "./oauth1_web_wasm.js";

const $ = (id) => document.getElementById(id);

function bytesOf(base64) {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

let runs = 0;

/** The form as the engine's input. */
function input() {
  const entry = $("entry");
  return {
    capture: $("capture").value,
    method: $("method").value.trim(),
    url: $("url").value,
    body: $("body").value,
    content_type: $("content-type").value.trim(),
    consumer_secret: $("consumer-secret").value,
    token_secret: $("token-secret").value,
    private_key_pem: $("private-key").value,
    server_response: $("server-response").value,
    scheme: $("scheme").value,
    entry: $("entry-field").hidden || entry.value === "" ? null : Number(entry.value),
  };
}

function element(tag, text, className) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  return e;
}

const KINDS = {
  curl: "Read as a curl command.",
  http: "Read as a raw HTTP request.",
  har: "Read as a HAR file.",
  authorization: "Read as an Authorization header: give the request it signed below.",
  url: "Read as a URL that carries its protocol parameters: give its method, and a form body that carries them, below.",
};

const HEADLINES = {
  match: "Match: the signature is what RFC 5849 gives for this request and these secrets.",
  explained: "Explained: the other side signed it differently.",
  unexplained: "Not explained by a known mistake.",
  error: "The request cannot be read.",
};

/** Runs the engine on the form and shows its answer. */
function run() {
  if ($("capture").value.trim() === "") {
    show({ verdict: "", kind: "", causes: [], entries: [] });
    return;
  }
  const answer = JSON.parse(explain(JSON.stringify(input())));
  show(answer);
}

function show(answer) {
  runs += 1;
  const verdict = $("verdict");
  verdict.dataset.verdict = answer.verdict;
  verdict.dataset.causes = answer.causes.map((c) => c.id).join(" ");
  verdict.dataset.alternatives = (answer.alternatives ?? []).map((c) => c.id).join(" ");
  verdict.dataset.run = String(runs);
  verdict.replaceChildren();
  $("kind").textContent = KINDS[answer.kind] ?? "";
  $("request-fields").classList.toggle("used", answer.kind === "authorization" || answer.kind === "url");
  showEntries(answer);
  $("causes").replaceChildren();
  $("detail").textContent = "";
  $("comparison").hidden = true;
  $("stages").hidden = true;
  if (answer.verdict === "") {
    verdict.append(element("p", "Paste a request to begin.", "waiting"));
    return;
  }
  verdict.append(element("p", HEADLINES[answer.verdict], "headline"));
  if (answer.verdict === "error") {
    verdict.append(element("p", answer.error, "error"));
    return;
  }
  if (answer.scheme) {
    const note = element("p", `Scheme ${answer.scheme.taken}: ${answer.scheme.detail} (the request's target does not say it; the scheme field forces one).`, "scheme-taken");
    note.dataset.scheme = answer.scheme.taken;
    note.dataset.reason = answer.scheme.reason;
    verdict.append(note);
  }
  showCauses(answer);
  $("detail").textContent = answer.detail;
  if (answer.profile) {
    const note = element("p", `Provider profile ${answer.profile.text}`, "profile");
    note.dataset.profile = answer.profile.name;
    note.dataset.reproduces = String(answer.profile.reproduces);
    verdict.append(note);
  }
  showComparison(answer);
  showStages(answer.stages, answer.difference);
}

/** The HAR entries of `answer` in the select `selectId`, shown in `fieldId` for a HAR file. */
function showEntries(answer, fieldId = "entry-field", selectId = "entry") {
  const field = $(fieldId);
  const select = $(selectId);
  const entries = answer.entries ?? [];
  field.hidden = entries.length === 0;
  const wanted = answer.entry == null ? "" : String(answer.entry);
  const label = (e) => `entry ${e.number}: ${e.label}`;
  const current = Array.from(select.options).map((o) => o.value + o.textContent).join("|");
  const next = entries.map((e) => String(e.number) + label(e)).join("|");
  if (current !== next) {
    select.replaceChildren(
      ...entries.map((e) => {
        const option = element("option", label(e));
        option.value = String(e.number);
        return option;
      }),
    );
  }
  select.value = wanted;
}

function showCauses(answer) {
  const list = $("causes");
  if (answer.causes.length === 0) return;
  const intro = answer.pair ? "These mistakes together reproduce the other side's signature:" : "The cause:";
  list.append(element("p", intro, "intro"));
  list.append(causeList(answer.causes, "cause"));
  if (answer.alternatives.length === 0) return;
  // What the other side's value cannot tell apart from the cause: each reproduces it alone.
  list.append(element("p", "Or, equally (each reproduces it alone as well):", "intro"));
  list.append(causeList(answer.alternatives, "alternative", "alternatives"));
}

/** A Problem Reporting answer with its advice elided: the advice is the detail, shown above. */
function withoutAdvice(answer) {
  const at = answer.indexOf("&oauth_problem_advice=");
  return at < 0 ? answer : `${answer.slice(0, at)}&oauth_problem_advice=… (the detail, encoded)`;
}

/** A list of causes, each with what the other side did and its fix, marked `data-{key}`. */
function causeList(causes, key, className) {
  const ol = element("ol", undefined, className);
  for (const cause of causes) {
    const li = element("li");
    li.dataset[key] = cause.id;
    li.append(element("code", cause.id, "id"), element("span", ` the other side ${cause.what}`));
    li.append(element("p", `Fix: ${cause.fix}`, "fix"));
    ol.append(li);
  }
  return ol;
}

/** `text` with the part from UTF-16 offset `at` marked. */
function marked(pre, text, at) {
  pre.replaceChildren();
  if (at == null) {
    pre.textContent = text;
    return;
  }
  pre.append(document.createTextNode(text.slice(0, at)));
  const rest = text.slice(at);
  if (rest !== "") pre.append(element("mark", rest));
}

function showComparison(answer) {
  const section = $("comparison");
  section.hidden = false;
  const at = answer.difference ? answer.difference.offset_utf16 : null;
  $("difference").textContent = answer.difference
    ? `First difference at byte ${answer.difference.offset}, in the ${answer.difference.part}: ${answer.difference.summary}.`
    : (answer.their_label ? "The two are the same." : "");
  marked($("reference"), answer.reference_base_string, at);
  const theirs = $("theirs");
  const label = $("theirs-label");
  if (answer.their_label) {
    label.textContent = answer.their_label === "observed"
      ? "observed (echoed by the server)"
      : "reproduced (the one that gives the other side's signature)";
    label.hidden = false;
    theirs.hidden = false;
    marked(theirs, answer.their_base_string, at);
  } else {
    label.hidden = true;
    theirs.hidden = true;
  }
}

/** Every stage of a signing, into `container`; the parameter at position `differs` marked. */
function renderStages(container, stages, differs = null) {
  container.replaceChildren();
  if (!stages) return;
  const table = element("table");
  table.append(element("caption", "Parameters, in normalized order"));
  const head = element("tr");
  for (const name of ["source", "name", "value (decoded)", "encoded"]) {
    const th = element("th", name);
    th.scope = "col";
    head.append(th);
  }
  table.append(element("thead"));
  table.tHead.append(head);
  const body = element("tbody");
  for (const [i, p] of stages.parameters.entries()) {
    const tr = element("tr");
    if (i === differs) {
      tr.className = "differs";
      tr.title = "the first difference lies in this parameter";
    }
    tr.append(element("td", p.source), element("td", p.name), element("td", p.value), element("td", p.encoded, "mono"));
    body.append(tr);
  }
  table.append(body);
  const values = element("dl");
  for (const [name, value] of [
    ["normalized parameters", stages.normalized],
    ["base string URI", stages.base_uri],
    ["signature base string", stages.base_string],
    ["key", stages.key],
    ["signature", stages.signature],
    ["Authorization header", stages.authorization],
    ...(stages.sent ? [[stages.sent_label, stages.sent]] : []),
  ]) {
    values.append(element("dt", name), element("dd", value, "mono"));
  }
  container.append(table, values);
}

function showStages(stages, difference) {
  if (!stages) return;
  $("stages").hidden = false;
  renderStages($("stages-body"), stages, difference?.parameter ?? null);
}

// Sign: a request from its fields.

function signInput() {
  return {
    method: $("sign-method").value.trim(),
    url: $("sign-url").value,
    body: $("sign-body").value,
    content_type: $("sign-content-type").value.trim(),
    consumer_key: $("sign-consumer-key").value,
    consumer_secret: $("sign-consumer-secret").value,
    token: $("sign-token").value,
    token_secret: $("sign-token-secret").value,
    signature_method: $("sign-signature-method").value,
    private_key_pem: $("sign-private-key").value,
    nonce: $("sign-nonce").value,
    timestamp: $("sign-timestamp").value.trim(),
    realm: $("sign-realm").value,
    callback: $("sign-callback").value,
    verifier: $("sign-verifier").value,
    omit_version: $("sign-omit-version").checked,
    body_hash: $("sign-body-hash").checked,
    profile: $("sign-profile").value,
  };
}

/** The profiles in the sign form's select; choosing one sets its signature method. */
function wireProfiles() {
  const select = $("sign-profile");
  const known = JSON.parse(profiles());
  for (const p of known) {
    const option = element("option", `${p.name}: ${p.provider}`);
    option.value = p.name;
    select.append(option);
  }
  select.addEventListener("change", () => {
    const chosen = known.find((p) => p.name === select.value);
    $("sign-profile-requires").textContent = chosen ? `It requires ${chosen.requires}.` : "";
    if (chosen) $("sign-signature-method").value = chosen.method;
  });
}

function runSign() {
  const answer = JSON.parse(sign(JSON.stringify(signInput())));
  const status = $("sign-status");
  $("sign-result").dataset.state = answer.error ? "error" : "signed";
  status.replaceChildren();
  if (answer.error) {
    status.append(element("p", "The request cannot be signed.", "headline"), element("p", answer.error, "error"));
  } else {
    status.append(element("p", "Signed.", "headline"));
  }
  renderStages($("sign-stages"), answer.stages);
}

// Verify: a received request checked as a server checks it.

function verifyInput() {
  const entry = $("verify-entry");
  const now = $("verify-now").value.trim();
  const span = $("verify-window").value.trim();
  return {
    capture: $("verify-capture").value,
    method: $("verify-method").value.trim(),
    url: $("verify-url").value,
    body: $("verify-body").value,
    content_type: $("verify-content-type").value.trim(),
    consumer_secret: $("verify-consumer-secret").value,
    token_secret: $("verify-token-secret").value,
    public_key_pem: $("verify-public-key").value,
    now: now === "" ? Math.floor(Date.now() / 1000) : Number(now),
    timestamp_window: span === "" ? null : Number(span),
    allow_plaintext_over_http: $("verify-plaintext-http").checked,
    scheme: $("verify-scheme").value,
    entry: $("verify-entry-field").hidden || entry.value === "" ? null : Number(entry.value),
  };
}

const VERIFY_HEADLINES = {
  valid: "Valid: a server holding these secrets accepts this request.",
  invalid: "Invalid: a server holding these secrets refuses it.",
  error: "The request cannot be read.",
};

function runVerify() {
  const input = verifyInput();
  const verdict = $("verify-verdict");
  const values = $("verify-values");
  values.replaceChildren();
  if (!Number.isSafeInteger(input.now) || input.now < 0 || !(input.timestamp_window === null || (Number.isSafeInteger(input.timestamp_window) && input.timestamp_window >= 0))) {
    verdict.dataset.verdict = "error";
    verdict.dataset.reason = "";
    verdict.replaceChildren(element("p", VERIFY_HEADLINES.error, "headline"),
      element("p", "the clock and the window are whole numbers of seconds: type them as digits, or leave the clock empty for this browser's", "error"));
    return;
  }
  const answer = JSON.parse(verify(JSON.stringify(input)));
  showEntries(answer, "verify-entry-field", "verify-entry");
  verdict.dataset.verdict = answer.verdict;
  verdict.dataset.reason = answer.reason;
  verdict.replaceChildren(element("p", VERIFY_HEADLINES[answer.verdict], "headline"));
  if (answer.verdict === "error") {
    verdict.append(element("p", answer.error, "error"));
    return;
  }
  const rows = answer.verdict === "valid"
    ? [["consumer key", answer.consumer_key], ["token", answer.token], ["method", answer.signature_method], ["parameters", answer.parameters]]
    : [["reason", answer.reason], ["detail", answer.detail], ["the server's base string", answer.base_string], ["answer", withoutAdvice(answer.answer)]];
  for (const [name, value] of rows) {
    if (value) values.append(element("dt", name), element("dd", value, "mono"));
  }
}

// Tabs.

const TABS = ["explain", "sign", "verify"];

function select(name) {
  for (const tab of TABS) {
    const selected = tab === name;
    const button = $(`tab-${tab}`);
    button.setAttribute("aria-selected", String(selected));
    button.tabIndex = selected ? 0 : -1;
    $(`panel-${tab}`).hidden = !selected;
  }
}

function wireTabs() {
  for (const [i, tab] of TABS.entries()) {
    const button = $(`tab-${tab}`);
    button.addEventListener("click", () => select(tab));
    // Arrow keys move between the tabs, as in every tab list.
    button.addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) return;
      const next = TABS[(i + step + TABS.length) % TABS.length];
      select(next);
      $(`tab-${next}`).focus();
      event.preventDefault();
    });
  }
}

let timer = 0;
function scheduled() {
  if (!$("live").checked) return;
  clearTimeout(timer);
  timer = setTimeout(run, 150);
}

function wire() {
  $("form").addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(timer);
    run();
  });
  for (const id of ["capture", "method", "url", "body", "content-type", "consumer-secret", "token-secret", "private-key", "server-response"]) {
    $(id).addEventListener("input", scheduled);
  }
  $("entry").addEventListener("change", () => { clearTimeout(timer); run(); });
  $("scheme").addEventListener("change", scheduled);
  $("sign-form").addEventListener("submit", (event) => { event.preventDefault(); runSign(); });
  $("verify-form").addEventListener("submit", (event) => { event.preventDefault(); runVerify(); });
  $("verify-entry").addEventListener("change", runVerify);
  wireTabs();
  for (const button of document.querySelectorAll("button.reveal")) {
    button.addEventListener("click", () => {
      const field = $(button.dataset.for);
      const shown = field.type === "password";
      field.type = shown ? "text" : "password";
      button.textContent = shown ? "Hide" : "Show";
      button.setAttribute("aria-pressed", String(shown));
    });
  }
  // A HAR file dropped on the request box is read here, in the page.
  const capture = $("capture");
  capture.addEventListener("dragover", (event) => event.preventDefault());
  capture.addEventListener("drop", async (event) => {
    const file = event.dataTransfer?.files?.[0];
    if (!file) return;
    event.preventDefault();
    capture.value = await file.text();
    run();
  });
}

await init({ module_or_path: bytesOf(wasmBase64) });
wire();
wireProfiles();
document.body.dataset.ready = "true";
