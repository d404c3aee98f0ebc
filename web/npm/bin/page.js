// `oauth1 page`: the debugging page of the package (page/), served on 127.0.0.1 with the
// response headers of its _headers file (its Content-Security-Policy among them). Only the
// page's own files are served, by name; nothing else of the file system is reachable.
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";

const TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
};

/** Serves the page; `args` may hold `--port PORT`. */
export function servePage(args) {
    let port = 0;
    for (let i = 0; i < args.length; i++) {
        if ((args[i] === "--port" || args[i] === "-p") && i + 1 < args.length) {
            port = Number(args[++i]);
        } else if (args[i].startsWith("--port=")) {
            port = Number(args[i].slice("--port=".length));
        } else if (args[i] === "-h" || args[i] === "--help") {
            process.stdout.write(
                "Serve the debugging page on 127.0.0.1 and print its address (Ctrl-C stops it)\n\n" +
                    "Usage: oauth1 page [--port PORT]\n\n" +
                    "Options:\n  -p, --port <PORT>  The port; any free one when none\n",
            );
            return;
        } else {
            fail(`unexpected argument '${args[i]}': the only option is --port PORT`);
            return;
        }
    }
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
        fail("--port takes a port number, 0 to 65535");
        return;
    }
    const directory = fileURLToPath(new URL("../page/", import.meta.url));
    const headers = [...readFileSync(directory + "_headers", "utf8").matchAll(/^\s+([A-Za-z-]+):\s*(.*)$/gm)]
        .map(([, name, value]) => [name, value]);
    const files = new Map();
    for (const name of readdirSync(directory)) {
        const type = TYPES[name.slice(name.lastIndexOf("."))];
        if (type) {
            files.set("/" + name, [type, readFileSync(directory + name)]);
        }
    }
    files.set("/", files.get("/index.html"));
    const server = createServer((request, response) => {
        const path = new URL(request.url, "http://127.0.0.1").pathname;
        const file = request.method === "GET" || request.method === "HEAD" ? files.get(path) : undefined;
        for (const [name, value] of headers) {
            response.setHeader(name, value);
        }
        if (!file) {
            response.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
            response.end("not found\n");
            return;
        }
        response.writeHead(200, { "Content-Type": file[0], "Content-Length": file[1].length });
        response.end(request.method === "HEAD" ? undefined : file[1]);
    });
    server.on("error", (e) => fail(`serving the page on 127.0.0.1:${port}: ${e.message}`));
    server.listen(port, "127.0.0.1", () => {
        process.stdout.write(
            `the debugging page: http://127.0.0.1:${server.address().port}/ (Ctrl-C stops it)\n`,
        );
    });
}

function fail(message) {
    process.stderr.write(`error: ${message}\n`);
    process.exitCode = 2;
}
