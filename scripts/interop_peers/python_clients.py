"""rauth and Authlib, as installed, send requests to a loopback server of this script's, which
keeps each request as it arrived (method, URL, Authorization header, body); `oauth1 explain`
must answer each as the library's source says it signs: `match` where it follows RFC 5849, and
the cause of docs/mismatch-causes.md where it does not.

rauth 0.7.3 (rauth/oauth.py), which sends its protocol parameters in the query or the form
body: drops a query written into the URL from the signature
(`_remove_qs`; parameters given as `params=` are signed, so that with both, the URL's own
query, first on the wire, is unsigned: `query-start-not-signed`), takes the base URI as written (host
case and default port kept), and sorts the parameters before encoding them
(`all_normalized.sort()` on the decoded pairs). Authlib 1.9.0 (authlib/oauth1/rfc5849): RFC 5849.

Usage: python_clients.py PATH/TO/oauth1
"""

import http.server
import sys
import threading

from authlib.integrations.requests_client import OAuth1Session as AuthlibSession
from rauth import OAuth1Session as RauthSession

from explained import Checks

CK, CS, TK, TS = "ck", "cs secret", "tk", "ts secret"
FORM = "application/x-www-form-urlencoded"

received = []


class Keep(http.server.BaseHTTPRequestHandler):
    def handle_one(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode() if length else ""
        received.append((self.command, self.path, self.headers.get("Authorization"),
                         self.headers.get("Content-Type"), body, self.headers.get("Host")))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_POST = handle_one

    def log_message(self, *args):
        pass


def main(oauth1):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Keep)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    # The client writes the host as given; the server receives it at this loopback port.
    origin = "http://127.0.0.1:%d" % port

    rauth = RauthSession(CK, CS, access_token=TK, access_token_secret=TS)
    authlib = AuthlibSession(CK, CS, token=TK, token_secret=TS)
    # (client, method, URL as the application writes it, keyword arguments, verdict, causes)
    cases = []
    for name, session in (("rauth", rauth), ("authlib", authlib)):
        cases += [
            (name, session, "GET", origin + "/1/x", {"params": {"a": "1", "b": "two words ~!*'()"}}, "match", []),
            (name, session, "POST", origin + "/1/x", {"data": {"status": "Hello Ladies + Gentlemen", "t": "\u2713"}}, "match", []),
        ]
    cases += [
        ("rauth", rauth, "GET", origin + "/1/x?a=1&b=two%20words", {}, "explained", ["query-not-signed"]),
        ("rauth", rauth, "GET", origin.replace("127.0.0.1", "LOCALHOST") + "/1/x", {"params": {"a": "1"}}, "explained", ["host-not-lowercased"]),
        # A query written into the URL and params= appended after it: only the latter signed.
        ("rauth", rauth, "GET", origin + "/1/x?z=1&y=2", {"params": {"b": "2", "c": "3"}}, "explained", ["query-start-not-signed"]),
        ("rauth", rauth, "GET", origin.replace("127.0.0.1", "LOCALHOST") + "/1/x?a=1", {"params": {"b": "2"}}, "explained", ["host-not-lowercased", "query-start-not-signed"]),
        # PHP's reading (parsed-as-php) sorts the decoded names too, and reproduces it equally.
        ("rauth", rauth, "GET", origin + "/1/x", {"params": {"c@": "2", "c2": "1"}}, "explained", ["sorted-before-encoding", "parsed-as-php"]),
        ("authlib", authlib, "GET", origin + "/1/x?a=1&b=two%20words&a=0", {}, "match", []),
        ("authlib", authlib, "GET", origin.replace("127.0.0.1", "LOCALHOST") + "/1/x", {"params": {"a": "1"}}, "match", []),
        ("authlib", authlib, "GET", origin + "/1/x", {"params": {"c@": "2", "c2": "1"}}, "match", []),
    ]

    checks = Checks("rauth and Authlib against oauth1 explain")
    for name, session, method, url, kwargs, verdict, causes in cases:
        received.clear()
        session.request(method, url, **kwargs)
        (got_method, path, header, content_type, body, host) = received[0]
        # The URL as the client wrote it for signing: its scheme and host, the path and query
        # as received. rauth sends its protocol parameters in the query or the form body.
        written = url.split("/1/x")[0] + path
        args = [oauth1, "explain", "--json", "--method", got_method, "--url", written]
        if header is not None:
            args += ["--authorization", header]
        if content_type:
            args += ["--content-type", content_type, "--body", body]
        checks.expect("%s %s %s %s" % (name, method, url, kwargs), args,
                      {"OAUTH1_CONSUMER_SECRET": CS, "OAUTH1_TOKEN_SECRET": TS}, verdict, causes,
                      header)
    server.shutdown()
    checks.finish("each answered as their source says")


if __name__ == "__main__":
    main(sys.argv[1])
