// The npm package as installed (scripts/package test-npm copies this file into a fresh project
// that installed the tarball offline, and runs it with no Rust on PATH): its JavaScript API
// answers every signing, verify and explain fixture as a line of the Rust command line's
// `--jsonl` does, and as the fixtures expect (the published vectors, oauthlib, the independent
// generator); a capture is explained as `oauth1 explain --json` explains it; the README's
// example prints what the README says; the `oauth1` command reads files by relative path, reads
// standard input, says where the commands it leaves out are, and ends quietly when its reader
// stops early.
//
// OAUTH1_REFERENCE: the Rust command line; FIXTURES: the repository's fixtures/.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync, mkdtempSync, copyFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";

import {
    sign, explain, verify, Verifier, explainCapture, verifyCapture, profiles, percentEncode,
} from "oauth1-signer";

const reference = process.env.OAUTH1_REFERENCE;
const fixtures = process.env.FIXTURES;
assert.ok(reference && fixtures, "OAUTH1_REFERENCE and FIXTURES must be set");
const installed = join(process.cwd(), "node_modules", "oauth1-signer");
const bin = join(process.cwd(), "node_modules", ".bin", "oauth1");

const fixture = (name) => JSON.parse(readFileSync(join(fixtures, name), "utf8"));

/** The Rust command line's answer to each case, through `oauth1 COMMAND --jsonl`. */
function rust(command, cases) {
    const input = cases.map((c) => JSON.stringify(c) + "\n").join("");
    const output = execFileSync(reference, [command, "--jsonl"], { input, encoding: "utf8" });
    return output.trimEnd().split("\n").map((line) => JSON.parse(line));
}

test("sign answers every signing fixture as `oauth1 sign --jsonl` does, and as the fixture expects", () => {
    let checked = 0;
    for (const name of ["published.json", "edge-cases.json", "bench.json", "bad-input.json"]) {
        const cases = fixture(name);
        const expected = rust("sign", cases);
        cases.forEach((c, i) => {
            const answer = sign(c);
            assert.deepEqual(answer, expected[i], `${name}: ${c.name}`);
            if (c.expected?.error) {
                assert.ok(answer.error, `${name}: ${c.name} must be refused`);
            }
            if (c.expected?.signature) {
                assert.equal(answer.signature, c.expected.signature, `${name}: ${c.name}`);
            }
            if (c.expected?.base_string) {
                assert.equal(answer.base_string, c.expected.base_string, `${name}: ${c.name}`);
            }
            checked++;
        });
    }
    assert.ok(checked > 100, `only ${checked} cases`);
});

test("explain answers every explain fixture as `oauth1 explain --jsonl` does, and as the generator expects", () => {
    for (const name of ["explain.json", "explain-origin-form.json"]) {
        const cases = fixture(name);
        const expected = rust("explain", cases);
        cases.forEach((c, i) => {
            const answer = explain(c);
            assert.deepEqual(answer, expected[i], `${name}: ${c.name}`);
            if (name === "explain.json") {
                assert.equal(answer.verdict, c.expected.verdict, `${name}: ${c.name}`);
                assert.deepEqual(answer.causes, c.expected.causes ?? [], `${name}: ${c.name}`);
            }
        });
    }
});

test("a Verifier answers the verify fixtures as `oauth1 verify --jsonl` does, replays included", () => {
    // verify.json is one stream (a later line replays an earlier one); each published request
    // is verified in a stream of its own, as verify() does.
    for (const [name, stream] of [["verify-published.json", false], ["verify.json", true]]) {
        const lines = fixture(name);
        const expected = rust("verify", lines);
        const verifier = new Verifier();
        lines.forEach((line, i) => {
            const streamed = verifier.verify(line);
            assert.deepEqual(streamed, expected[i], `${name}: ${line.name}`);
            const answer = stream ? streamed : verify(line);
            const wanted = line.expected ?? {};
            if (wanted.valid !== undefined) {
                assert.equal(answer.valid, wanted.valid, `${name}: ${line.name}`);
            }
            if (wanted.reason) {
                assert.equal(answer.reason, wanted.reason, `${name}: ${line.name}`);
            }
            if (wanted.error) {
                assert.equal(answer.error, wanted.error, `${name}: ${line.name}`);
            }
        });
        verifier.free();
    }
    // verify() alone has a store of its own: the same request twice is valid twice; a
    // Verifier refuses the second as a replay.
    const line = fixture("verify-published.json").find((l) => l.expected?.valid === true);
    assert.equal(verify(line).valid, true);
    assert.equal(verify(line).valid, true);
    const verifier = new Verifier();
    assert.equal(verifier.verify(line).valid, true);
    assert.equal(verifier.verify(line).reason, "replayed-nonce");
});

test("what is not a request is answered with an error that says what to fix", () => {
    assert.match(sign({ name: "x" }).error, /missing field/);
    assert.equal(sign({ name: "x" }).name, "x");
    assert.match(explain([]).error, /one JSON object/);
    assert.match(verify(null).error, /one JSON object/);
    assert.match(sign(undefined).error, /one JSON object/);
});

const X = { consumer_secret: "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
    token_secret: "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE" };
const RFC = { consumer_secret: "kd94hf93k423kf44", token_secret: "pfkkdhi9sl3r4s00" };

test("explainCapture explains every capture as `oauth1 explain --json` does", () => {
    const flags = { ".curl": "--curl", ".http": "--http", ".har": "--har" };
    let compared = 0;
    for (const file of readdirSync(join(fixtures, "captures")).sort()) {
        const flag = flags[file.slice(file.lastIndexOf("."))];
        const path = join(fixtures, "captures", file);
        const text = readFileSync(path, "utf8");
        for (const secrets of [X, RFC]) {
            const run = spawnSync(reference, ["explain", "--json", flag, flag === "--curl" ? text : path], {
                encoding: "utf8",
                env: { OAUTH1_CONSUMER_SECRET: secrets.consumer_secret, OAUTH1_TOKEN_SECRET: secrets.token_secret },
            });
            // A HAR file prints a line per entry with OAuth; the page explains the first.
            const expected = JSON.parse(run.stdout.split("\n")[0]);
            const answer = explainCapture({ capture: text, ...secrets });
            assert.equal(answer.verdict, expected.verdict, `${file}: ${answer.error}`);
            assert.deepEqual(answer.causes.map((c) => c.id), expected.causes, file);
            assert.deepEqual(answer.alternatives.map((c) => c.id), expected.alternatives, file);
            assert.equal(answer.reference_base_string, expected.reference_base_string, file);
            assert.equal(answer.profile?.name, expected.profile?.name, file);
            assert.equal(answer.scheme?.taken, expected.scheme?.taken, file);
            assert.ok(answer.stages.base_string.length > 0, file);
            compared++;
        }
    }
    assert.equal(compared, 16);
    const nothing = explainCapture({ capture: " " });
    assert.equal(nothing.verdict, "error");
    assert.match(nothing.error, /nothing pasted/);
});

test("verifyCapture verifies a capture as a server holding its secrets would", () => {
    const text = readFileSync(join(fixtures, "captures", "chrome-x-api.curl"), "utf8");
    const expected = spawnSync(reference, ["verify", "--curl", text, "--now", "1318622958"], {
        encoding: "utf8",
        env: { OAUTH1_CONSUMER_SECRET: X.consumer_secret, OAUTH1_TOKEN_SECRET: X.token_secret },
    });
    const answer = verifyCapture({ capture: text, ...X, now: 1318622958 });
    assert.equal(answer.verdict, expected.status === 0 ? "valid" : "invalid", expected.stdout + expected.stderr);
    const stale = verifyCapture({ capture: text, ...X, now: 1318622958 + 3600 });
    assert.equal(stale.verdict, "invalid");
    assert.equal(stale.reason, "stale-timestamp");
});

test("percentEncode is RFC 5849's percent-encoding, as the fixtures' table says", () => {
    for (const row of fixture("percent-encoding.json")) {
        assert.equal(percentEncode(Buffer.from(row.input_hex, "hex")), row.encoded, row.input_hex);
    }
    assert.equal(percentEncode("é ~"), "%C3%A9%20~");
    assert.throws(() => percentEncode(7), TypeError);
});

test("profiles lists the provider profiles", () => {
    const names = profiles().map((p) => p.name);
    for (const name of ["mastercard", "woocommerce", "netsuite"]) {
        assert.ok(names.includes(name), names.join(", "));
    }
});

test("the README's example prints what the README shows", () => {
    const readme = readFileSync(join(installed, "README.md"), "utf8");
    const code = readme.match(/```js\n([\s\S]*?)```/)[1];
    const shown = readme.match(/<!-- output: example -->\n```text\n([\s\S]*?)```/)[1];
    writeFileSync("readme-example.mjs", code);
    assert.equal(execFileSync(process.execPath, ["readme-example.mjs"], { encoding: "utf8" }), shown);
});

test("the command reads files by relative and absolute path, and standard input", () => {
    const directory = mkdtempSync(join(tmpdir(), "oauth1-npm-"));
    copyFileSync(join(fixtures, "captures", "mitmproxy-x-api.http"), join(directory, "capture.http"));
    const env = { PATH: process.env.PATH, OAUTH1_CONSUMER_SECRET: X.consumer_secret, OAUTH1_TOKEN_SECRET: X.token_secret };
    const ours = (args, options = {}) => spawnSync(bin, args, { encoding: "utf8", env, ...options });
    const theirs = spawnSync(reference, ["explain", "--http", join(directory, "capture.http")], { encoding: "utf8", env });
    for (const path of ["capture.http", "./capture.http", join(directory, "capture.http")]) {
        const run = ours(["explain", "--http", path], { cwd: directory });
        assert.equal(run.stdout, theirs.stdout, path);
        assert.equal(run.status, theirs.status, path);
    }
    const missing = ours(["explain", "--http", "nowhere.http"], { cwd: directory });
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /nowhere\.http/);
    assert.equal(ours(["encode", "-"], { input: "a b\u00e9" }).stdout, "a%20b%C3%A9\n");
});

test("the command says where the commands that reach the network are", () => {
    for (const command of ["probe", "send", "authorize"]) {
        const run = spawnSync(bin, [command, "--url", "https://api.example.com/"], { encoding: "utf8" });
        assert.equal(run.status, 2, command);
        assert.match(run.stderr, /pipx install oauth1-cli/, command);
    }
    const help = spawnSync(bin, ["--help"], { encoding: "utf8" });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /Usage: oauth1/);
    assert.match(help.stdout, /page +Serve the debugging page/);
    // No warning of Node's reaches the command's standard error.
    const run = spawnSync(bin, ["encode", "x"], { encoding: "utf8" });
    assert.equal(run.stderr, "");
});

test("a reader that stops early ends the output, not the command", async () => {
    // Standard output closed before standard input is written, so the command's first write
    // fails; 300 KB of output, more than a pipe holds.
    const child = spawn(bin, ["encode", "-"], { stdio: ["pipe", "pipe", "pipe"] });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (chunk) => { stderr += chunk; });
    child.stdin.on("error", () => {});
    child.stdin.end("/".repeat(100_000));
    const status = await new Promise((resolve) => child.on("close", resolve));
    assert.equal(stderr, "");
    assert.equal(status, 0);
});

test("the package declares the types of everything it exports", () => {
    const manifest = createRequire(import.meta.url)("oauth1-signer/package.json");
    assert.equal(manifest.types, "./index.d.ts");
    const types = readFileSync(join(installed, "index.d.ts"), "utf8");
    for (const name of ["sign", "explain", "verify", "explainCapture", "verifyCapture", "profiles", "percentEncode"]) {
        assert.match(types, new RegExp(`export function ${name}\\(`), name);
    }
    assert.match(types, /export class Verifier/);
});
