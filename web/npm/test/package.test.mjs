// The npm package as installed (scripts/package test-npm copies this file into a fresh project
// that installed the tarball offline, and runs it with no Rust on PATH): its JavaScript API
// answers every signing, verify and explain fixture as a line of the Rust command line's
// `--jsonl` does, and as the fixtures expect (the published vectors, oauthlib, the independent
// generator); a capture is explained as `oauth1 explain --json` explains it; the README's
// example prints what the README says; the `oauth1` command reads files by relative path, reads
// standard input, says where the commands it leaves out are, and ends quietly when its reader
// stops early; `oauth1 page` answers only requests for a loopback name, and a request it cannot
// read with 400, and goes on serving.
//
// OAUTH1_REFERENCE: the Rust command line; FIXTURES: the repository's fixtures/.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync, mkdtempSync, copyFileSync } from "node:fs";
import { connect } from "node:net";
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
    for (const command of ["probe", "send", "authorize", "serve"]) {
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

/** Starts `oauth1 page` on a free port: its port, and the process, which the caller kills. */
async function startPage() {
    const child = spawn(bin, ["page"], { stdio: ["ignore", "pipe", "pipe"] });
    let said = "";
    child.stderr.on("data", (chunk) => { said += chunk; });
    const port = await new Promise((resolve, reject) => {
        child.stdout.on("data", (chunk) => {
            said += chunk;
            const address = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(said);
            if (address) resolve(Number(address[1]));
        });
        child.on("exit", (code) => reject(new Error(`oauth1 page exited (${code}): ${said}`)));
    });
    return { child, port };
}

/**
 * Sends `bytes` as they are (Node's HTTP client sends no malformed request) on a connection of
 * its own to 127.0.0.1:`port`: the first answer, or what came before the server closed ("" when
 * it closed without a word).
 */
function raw(port, bytes) {
    return new Promise((resolve) => {
        const socket = connect(port, "127.0.0.1", () => socket.write(bytes));
        let answer = "";
        const done = () => {
            socket.destroy();
            resolve(answer);
        };
        socket.setEncoding("latin1");
        socket.on("data", (chunk) => {
            answer += chunk;
            const head = answer.indexOf("\r\n\r\n");
            const length = /^content-length: *(\d+)\r$/im.exec(answer.slice(0, head + 2));
            if (head >= 0 && length && answer.length >= head + 4 + Number(length[1])) done();
        });
        socket.on("error", done);
        socket.on("close", done);
    });
}

/** An answer's status code, or NaN when there is none. */
const status = (answer) => Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1]);

test("oauth1 page answers a request it cannot read with 400, and goes on serving", async () => {
    const { child, port } = await startPage();
    try {
        for (const request of [
            // A request target that is no URL: it threw in the handler and ended the server.
            "GET http://[ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
            `GET http://[ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
            // Not HTTP, which Node's parser refuses before the handler.
            `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nno colon\r\n\r\n`,
            "\x00\x01\x02\r\n\r\n",
        ]) {
            const answer = await raw(port, request);
            assert.equal(status(answer), 400, `${JSON.stringify(request)}: ${JSON.stringify(answer)}`);
            assert.match(answer, /^content-type: text\/plain; charset=utf-8\r$/im, answer);
        }
        assert.match(await raw(port, "GET http://[ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"), /request target/);
        const response = await fetch(`http://127.0.0.1:${port}/`);
        assert.equal(response.status, 200);
        assert.match(await response.text(), /<!doctype html>/i);
        assert.equal(child.exitCode, null);
    } finally {
        child.kill();
    }
});

test("oauth1 page answers only requests for a loopback name and its port, against DNS rebinding", async () => {
    const { child, port } = await startPage();
    const get = (host, target = "/", version = "1.1") =>
        raw(port, `GET ${target} HTTP/${version}\r\n${host === undefined ? "" : `Host: ${host}\r\n`}\r\n`);
    try {
        for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LocalHost:${port}`, `[::1]:${port}`,
            `127.0.0.2:${port}`]) {
            const answer = await get(host);
            assert.equal(status(answer), 200, `${host}: ${answer.slice(0, 300)}`);
            assert.match(answer, /^content-security-policy: default-src 'none'/im, host);
        }
        assert.equal(status(await get(`127.0.0.1:${port}`, `http://127.0.0.1:${port}/`)), 200);
        // A name a web page rebound to 127.0.0.1 sends its own name; another port is another
        // server; an absolute target names the server too (RFC 9112 §3.2.2).
        for (const [host, target] of [
            ["evil.example"], [`evil.example:${port}`], [`localhost.evil.example:${port}`],
            [`127.0.0.1.evil.example:${port}`], [`user@localhost:${port}`], [`0x7f.1:${port}`],
            [`[::ffff:7f00:1]:${port}`], [`localhost:${port === 1 ? 2 : port - 1}`], ["localhost"],
            ["127.0.0.1"], [`localhost:${port}/x`], [`127.0.0.1:${port}`, `http://evil.example:${port}/`],
            [`127.0.0.1:${port}`, `https://127.0.0.1:${port}/`],
        ]) {
            const answer = await get(host, target);
            assert.equal(status(answer), 421, `${host} ${target}: ${answer.slice(0, 300)}`);
            assert.match(answer, /^content-type: text\/plain; charset=utf-8\r$/im);
            assert.ok(answer.includes(`http://127.0.0.1:${port}/`), answer);
        }
        // No Host, or two: 400 (RFC 9112 §3.2).
        for (const version of ["1.1", "1.0"]) {
            assert.match(await get(undefined, "/", version), /^HTTP\/1\.1 400 [^]*no Host header/, version);
        }
        const twice = `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: evil.example\r\n\r\n`;
        assert.match(await raw(port, twice), /^HTTP\/1\.1 400 [^]*2 Host headers/);
        assert.equal(child.exitCode, null);
    } finally {
        child.kill();
    }
});
