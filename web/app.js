// The page: reads the form, hands it to the engine (oauth1-web, compiled to WebAssembly) and
// shows its answer. Nothing here reaches the network or storage.

import init, { explain } from "./oauth1_web.js";
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
  verdict.dataset.run = String(runs);
  verdict.replaceChildren();
  $("kind").textContent = KINDS[answer.kind] ?? "";
  $("request-fields").classList.toggle("used", answer.kind === "authorization");
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
  showCauses(answer);
  $("detail").textContent = answer.detail;
  showComparison(answer);
  showStages(answer.stages);
}

function showEntries(answer) {
  const field = $("entry-field");
  const select = $("entry");
  field.hidden = answer.kind !== "har" || answer.entries.length === 0;
  const wanted = answer.entry == null ? "" : String(answer.entry);
  const current = Array.from(select.options).map((o) => o.value + o.textContent).join("|");
  const next = answer.entries.map((e) => String(e.number) + `entry ${e.number}: ${e.label}`).join("|");
  if (current !== next) {
    select.replaceChildren(
      ...answer.entries.map((e) => {
        const option = element("option", `entry ${e.number}: ${e.label}`);
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
  const intro = answer.causes.length > 1
    ? (answer.pair ? "These mistakes together reproduce the other side's signature:" : "Each of these reproduces the other side's signature alone:")
    : "The cause:";
  list.append(element("p", intro, "intro"));
  const ol = element("ol");
  for (const cause of answer.causes) {
    const li = element("li");
    li.dataset.cause = cause.id;
    li.append(element("code", cause.id, "id"), element("span", ` the other side ${cause.what}`));
    li.append(element("p", `Fix: ${cause.fix}`, "fix"));
    ol.append(li);
  }
  list.append(ol);
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

function showStages(stages) {
  if (!stages) return;
  $("stages").hidden = false;
  const body = $("parameters");
  body.replaceChildren(
    ...stages.parameters.map((p) => {
      const tr = element("tr");
      tr.append(element("td", p.source), element("td", p.name), element("td", p.value), element("td", p.encoded, "mono"));
      return tr;
    }),
  );
  const values = $("values");
  values.replaceChildren();
  for (const [name, value] of [
    ["normalized parameters", stages.normalized],
    ["base string URI", stages.base_uri],
    ["signature base string", stages.base_string],
    ["key", stages.key],
    ["signature", stages.signature],
    ["Authorization header", stages.authorization],
  ]) {
    values.append(element("dt", name), element("dd", value, "mono"));
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
document.body.dataset.ready = "true";
