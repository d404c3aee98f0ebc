#!/usr/bin/env node
// The `oauth1` command of the npm package: `explain`, `sign`, `verify` and `encode` are the Rust
// command line itself, compiled for WASI (oauth1.wasm) and run by Node's WASI, so their flags,
// output and exit status are the native command's; `page` serves the debugging page on
// 127.0.0.1. `probe`, `send`, `authorize` and `serve` reach the network, which WASI does not
// give.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { servePage } from "./page.js";

const NETWORK = ["probe", "send", "authorize", "serve"];
const args = process.argv.slice(2);

if (args[0] === "page") {
    servePage(args.slice(1));
} else if (NETWORK.includes(args[0])) {
    process.stderr.write(
        `error: \`oauth1 ${args[0]}\` reaches the network, which this package's command does not: ` +
            "use the native command, `pipx install oauth1-cli` (Python) or `cargo install oauth1-cli`\n",
    );
    process.exitCode = 2;
} else {
    try {
        process.exitCode = await run(args);
    } catch (e) {
        // The command stopped where the native one would panic (standard output closed
        // early, say): said in one line, with a panic's status.
        process.stderr.write(`error: the command stopped: ${e.message}\n`);
        process.exitCode = 101;
    }
    const help = args.length === 1 && ["-h", "--help", "help"].includes(args[0]);
    if (help && process.exitCode === 0) {
        process.stdout.write(
            "\nThis package's command also has:\n" +
                "  page       Serve the debugging page on 127.0.0.1 (--port PORT; any free port when none)\n" +
                "and leaves out probe, send, authorize and serve, which reach the network: the native command has\n" +
                "them (`pipx install oauth1-cli` or `cargo install oauth1-cli`).\n",
        );
    }
}

/** Runs the WASI command line with `args`, this process's environment and standard streams. */
async function run(args) {
    // Node 20 and 22 call WASI experimental, once, on stderr, where the command's own output
    // goes: that warning alone is dropped.
    const emitWarning = process.emitWarning;
    process.emitWarning = (warning, ...rest) => {
        if (!String(warning).includes("WASI")) {
            emitWarning.call(process, warning, ...rest);
        }
    };
    const { WASI } = await import("node:wasi");
    const wasi = new WASI({
        version: "preview1",
        args: ["oauth1", ...args],
        // Relative paths resolve against PWD (the command changes to it), under `/`.
        env: { ...process.env, PWD: process.cwd() },
        preopens: { "/": "/" },
        returnOnExit: true,
    });
    const bytes = readFileSync(fileURLToPath(new URL("../oauth1.wasm", import.meta.url)));
    const module = await WebAssembly.compile(bytes);
    const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
    return wasi.start(instance);
}
