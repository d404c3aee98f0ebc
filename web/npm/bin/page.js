// `oauth1 page`: the debugging page of the package (page/), served on 127.0.0.1 with the
// response headers of its _headers file (its Content-Security-Policy among them). Only the
// page's own files are served, by name; nothing else of the file system is reachable.
//
// Anything on this machine can reach the server, and so can any web page the browser shows, so:
// - a request whose Host is not `localhost`, a 127.x.y.z address or [::1] with the port listened
//   on (a page that rebinds its own name to 127.0.0.1 sends its own name) is refused with 421,
//   as `oauth1 authorize`'s callback listener refuses it; one with no Host or two, with 400;
// - a request the server cannot read (a target that is no URL, or not HTTP at all) is answered
//   400 and the server goes on; nothing a request holds ends the process.
import { Buffer } from "node:buffer";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { isIPv4, isIPv6 } from "node:net";
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
    // A request with no Host is refused by answer(), with a reason, rather than by Node's
    // parser with none.
    const server = createServer({ requireHostHeader: false }, (request, response) => {
        try {
            answer(request, response);
        } catch (e) {
            // A fault of the server's: answered 500 while nothing is sent, else that
            // connection ends; the server goes on either way.
            process.stderr.write(`error: answering a request: ${printable(String(e?.message ?? e))}\n`);
            try {
                if (!response.headersSent) {
                    plain(response, 500, "the server failed to answer this request: its standard error says why\n");
                    return;
                }
            } catch {
                // Answering failed too: the connection ends below.
            }
            response.destroy();
        }
    });
    /** Answers one request: the page's file it names, by GET or HEAD. */
    function answer(request, response) {
        for (const [name, value] of headers) {
            response.setHeader(name, value);
        }
        const port = server.address().port;
        const open = `open http://127.0.0.1:${port}/\n`;
        const hosts = request.headersDistinct.host ?? [];
        if (hosts.length !== 1) {
            // Which Host was checked and which one a proxy would route by must be the same one.
            const count = hosts.length === 0 ? "no Host header" : `${hosts.length} Host headers`;
            plain(response, 400, `the request has ${count}, where it has one (RFC 9112 section 3.2): ${open}`);
            return;
        }
        // The target: a path of this server (origin-form, `/index.html`), or a URL that names
        // the server as Host does (absolute-form, RFC 9112 section 3.2.2).
        const isPath = request.url.startsWith("/");
        let target;
        try {
            target = new URL(isPath ? "http://127.0.0.1" + request.url : request.url);
        } catch {
            plain(response, 400, `the request target is neither a path (/index.html) nor a URL: ${open}`);
            return;
        }
        const named = isPath || (target.protocol === "http:" && isThisServer(target.host, port));
        if (!named || !isThisServer(hosts[0], port)) {
            plain(
                response,
                421,
                `this server answers requests for 127.0.0.1:${port}, localhost:${port} or [::1]:${port} ` +
                    `only; this one names another server (a web page may be trying to reach this one): ${open}`,
            );
            return;
        }
        const read = request.method === "GET" || request.method === "HEAD";
        const file = read ? files.get(target.pathname) : undefined;
        if (!file) {
            plain(response, 404, "not found\n");
            return;
        }
        response.writeHead(200, { "Content-Type": file[0], "Content-Length": file[1].length });
        response.end(request.method === "HEAD" ? undefined : file[1]);
    }
    // What Node's parser cannot read (not HTTP, a head too large, too slow) is answered with
    // its status before the connection ends; a connection already gone is let go.
    server.on("clientError", (error, socket) => {
        if (!socket.writable) {
            socket.destroy();
            return;
        }
        const [status, text] = {
            HPE_HEADER_OVERFLOW: [431, "Request Header Fields Too Large"],
            ERR_HTTP_REQUEST_TIMEOUT: [408, "Request Timeout"],
        }[error.code] ?? [400, "Bad Request"];
        const body = `the request is not HTTP this server can read (${status} ${text})\n`;
        socket.end(
            `HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
                `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
            () => socket.destroy(),
        );
    });
    server.on("error", (e) => fail(`serving the page on 127.0.0.1:${port}: ${e.message}`));
    server.listen(port, "127.0.0.1", () => {
        process.stdout.write(
            `the debugging page: http://127.0.0.1:${server.address().port}/ (Ctrl-C stops it)\n`,
        );
    });
}

/**
 * Whether `authority` (a Host, or an absolute target's host and port) names this server:
 * `localhost` (any case), a 127.x.y.z address or [::1], with the port listened on (80 when it
 * has none). Never a name a page could point at this machine.
 */
function isThisServer(authority, port) {
    const parts = /^(?:\[([^\]]*)\]|([^:[\]]*))(?::(\d{1,5}))?$/.exec(authority);
    if (!parts || Number(parts[3] ?? 80) !== port) {
        return false;
    }
    const [, v6, name] = parts;
    if (v6 !== undefined) {
        // ::1 however written (0:0:0:0:0:0:0:1); an IPv4-mapped address is not loopback.
        return /^[0-9A-Fa-f:]+$/.test(v6) && isIPv6(v6) && new URL(`http://[${v6}]`).hostname === "[::1]";
    }
    return name.toLowerCase() === "localhost" || (isIPv4(name) && name.startsWith("127."));
}

/** Answers `status` with `body`, plain text. */
function plain(response, status, body) {
    response.writeHead(status, {
        "Content-Type": "text/plain; charset=utf-8",
        "Content-Length": Buffer.byteLength(body),
    });
    response.end(body);
}

/** `text` with its control characters escaped, for a terminal. */
function printable(text) {
    return text.replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

function fail(message) {
    process.stderr.write(`error: ${message}\n`);
    process.exitCode = 2;
}
