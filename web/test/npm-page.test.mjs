// The npm package's `oauth1 page` in Debian's Chromium: the installed command serves the page
// on 127.0.0.1 with its response headers, and the page explains pasted captures as the Rust
// command line explains them; nothing but the page's own files is served. Run by
// `scripts/package test-npm`, which sets OAUTH1_PAGE_COMMAND (the installed `oauth1`) and
// OAUTH1_CLI (the Rust command line).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";

import { join } from "node:path";

import { CAPTURES, captures, oauth1, asPage, fixture, openPage } from "./common.mjs";

const command = process.env.OAUTH1_PAGE_COMMAND;
let server;
let origin;
let browser;
let page;

before(async () => {
    assert.ok(command, "OAUTH1_PAGE_COMMAND must be set");
    server = spawn(command, ["page"], { stdio: ["ignore", "pipe", "inherit"] });
    origin = await new Promise((resolve, reject) => {
        let out = "";
        server.stdout.on("data", (chunk) => {
            out += chunk;
            const address = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
            if (address) resolve(address[0]);
        });
        server.on("exit", (code) => reject(new Error(`oauth1 page exited (${code}): ${out}`)));
    });
    ({ browser, page } = await openPage(origin));
});

after(async () => {
    await browser?.close();
    server?.kill();
});

test("oauth1 page serves the page on loopback with its Content-Security-Policy, and nothing else", async () => {
    assert.match(origin, /^http:\/\/127\.0\.0\.1:/);
    const response = await fetch(origin + "/");
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-security-policy"), /default-src 'none'/);
    assert.equal(response.headers.get("x-frame-options"), "DENY");
    for (const path of ["/../package.json", "/%2e%2e/package.json", "/_headers", "/nothing.js", "/index.js"]) {
        assert.equal((await fetch(origin + path)).status, 404, path);
    }
    assert.equal((await fetch(origin + "/", { method: "POST" })).status, 404);
});

test("the served page explains pasted captures as the command line does", async () => {
    for (const [name, flag, secrets] of CAPTURES) {
        const text = fixture(name);
        const given = flag === "--curl" ? text : join(captures, name);
        const expected = asPage(oauth1(["explain", "--json", flag, given], secrets).answers[0]);
        await page.fill("#capture", text);
        await page.fill("#consumer-secret", secrets.consumer);
        await page.fill("#token-secret", secrets.token);
        await page.click("#explain");
        const verdict = page.locator("#verdict");
        assert.deepEqual(
            { verdict: await verdict.getAttribute("data-verdict"), causes: await verdict.getAttribute("data-causes") },
            expected,
            name,
        );
    }
});
