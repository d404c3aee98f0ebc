"""`oauth1 sign --profile woocommerce` signs what WooCommerce's server accepts, held to the
server's check re-stated from its PHP source (woocommerce_server.py), and to the official
Python client where the client agrees with the server.

For each request: the profile's signed URL is accepted by the server's check; the same request
signed as RFC 5849 says is refused exactly where PHP's reading of the parameters departs from
the RFC (arrays, mangled and numeric names, the raw sort); a repeated name, of which PHP keeps
only the last value, is refused by the profile with a reason.

Usage: woocommerce_profile.py PATH/TO/oauth1
"""

import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

from woocommerce.oauth import OAuth

import explained
import woocommerce_server

KEY = "ck_4f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c"
SECRET = "cs_0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d"
STORE = "http://shop.example/wp-json/wc/v3"
FORM = "application/x-www-form-urlencoded"
NONCE, TIMESTAMP = "kllo9940pd9333jh", "1700000000"

# (method, path and query, form body or None, whether the RFC signature is accepted too)
SHAPES = [
    ("GET", "/products?per_page=5&page=2", None, True),
    ("GET", "/orders?status=processing&after=2024-01-01T00%3A00%3A00", None, True),
    ("GET", "/products?search=a%2Fb+c%21&sku=~x&empty=&flag", None, True),
    ("GET", "/products?include[]=12&include[]=34", None, False),
    ("GET", "/products?include[]=12&include[]=34&include[7]=9&per_page=2", None, False),
    ("GET", "/products?filter[meta][key]=a+b&filter[meta][value]=x%2Fy", None, True),
    # An array's key is joined as read, encoded once less than the RFC encodes it.
    ("GET", "/products?filter[a+b]=1", None, False),
    ("GET", "/products?attribute.term=red&color%20name=blue", None, False),
    ("GET", "/products?5=x&per_page=1", None, False),
    # Sorted raw, é (0xC3) after z; encoded, %C3%A9 before z.
    ("GET", "/products?z=1&%C3%A9t%C3%A9=2", None, False),
    ("GET", "/products?ids[=1", None, False),
    ("POST", "/products/batch", "create[0][name]=A+b&create[0][regular_price]=9.99&update[]=7", False),
    ("POST", "/customers", "email=a%40b.example&first_name=Ann", True),
]


def run(args):
    return subprocess.run(args, env={"OAUTH1_CONSUMER_SECRET": SECRET}, capture_output=True, text=True)


def signed_url(oauth1, method, path, body, extra):
    """The URL `oauth1 sign … --transport query` prints, or its error."""
    args = [oauth1, "sign", "--consumer-key", KEY, "--nonce", NONCE, "--timestamp", TIMESTAMP,
            "--method", method, "--url", STORE + path] + extra
    if body is not None:
        args += ["--content-type", FORM, "--body", body]
    answer = run(args)
    for line in answer.stdout.splitlines():
        if line.startswith("url:"):
            return line.split(":", 1)[1].strip(), None
    return None, answer.stderr.strip()


def main(oauth1):
    failures = []
    count = 0
    for method, path, body, rfc_accepted in SHAPES:
        for method_name in ("HMAC-SHA256", "HMAC-SHA1"):
            count += 1
            url, error = signed_url(oauth1, method, path, body,
                                    ["--profile", "woocommerce", "--signature-method", method_name])
            if url is None or not woocommerce_server.accepts(method, url, SECRET, body):
                failures.append("--profile woocommerce %s %s %s: refused by the server (%s)"
                                % (method_name, method, path, error or url))
        count += 1
        url, error = signed_url(oauth1, method, path, body,
                                ["--signature-method", "HMAC-SHA256", "--transport", "query"])
        if url is None or woocommerce_server.accepts(method, url, SECRET, body) != rfc_accepted:
            failures.append("RFC 5849 %s %s: the server %s it (%s)"
                            % (method, path, "refuses" if rfc_accepted else "accepts", error or url))

    # A repeated name: PHP keeps only the last value.
    count += 1
    url, error = signed_url(oauth1, "GET", "/products?tag=1&tag=2", None, ["--profile", "woocommerce"])
    if url is not None or "repeated name \"tag\"" not in (error or ""):
        failures.append("--profile woocommerce signed a repeated name: %s" % (url or error))
    # Over https, WooCommerce takes HTTP Basic credentials, not OAuth 1.0a.
    count += 1
    answer = run([oauth1, "sign", "--profile", "woocommerce", "--consumer-key", KEY,
                  "--url", "https://shop.example/wp-json/wc/v3/products"])
    if answer.returncode == 0 or "http only" not in answer.stderr:
        failures.append("--profile woocommerce signed an https URL: %s" % answer.stdout.strip())

    # The official Python client (3.0.0), where it agrees with the server: its URL is accepted,
    # and the profile, given its nonce and timestamp and no oauth_version, signs alike.
    for path in ("/products?per_page=5&page=2", "/orders?status=processing", "/customers/7"):
        count += 1
        url = OAuth(STORE + path, KEY, SECRET, version="wc/v3", method="GET").get_oauth_url()
        sent = dict(parse_qsl(urlsplit(url).query))
        if not woocommerce_server.accepts("GET", url, SECRET):
            failures.append("the woocommerce client's %s: refused by the server" % url)
        mine, error = signed_url(oauth1, "GET", path, None,
                                 ["--profile", "woocommerce", "--no-version"])
        mine_sent = dict(parse_qsl(urlsplit(mine or "").query))
        timed = [oauth1, "sign", "--profile", "woocommerce", "--no-version", "--consumer-key", KEY,
                 "--nonce", sent["oauth_nonce"], "--timestamp", sent["oauth_timestamp"],
                 "--url", STORE + path]
        answer = run(timed)
        line = [l for l in answer.stdout.splitlines() if l.startswith("url:")]
        got = dict(parse_qsl(urlsplit(line[0].split(":", 1)[1].strip()).query)) if line else {}
        if got.get("oauth_signature") != sent["oauth_signature"] or not mine_sent:
            failures.append("--profile woocommerce %s: %s, the client %s (%s)"
                            % (path, got.get("oauth_signature"), sent["oauth_signature"], error or answer.stderr.strip()))
    # Where it does not: it signs include[] as written, which the server reads as include[0].
    count += 1
    url = OAuth(STORE + "/products?include[]=12", KEY, SECRET, version="wc/v3", method="GET").get_oauth_url()
    if woocommerce_server.accepts("GET", url, SECRET):
        failures.append("the server's check accepts the woocommerce client's include[]: %s" % url)

    # oauth1 send --profile woocommerce against a loopback server that runs the server's check.
    class Shop(BaseHTTPRequestHandler):
        def answer(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode() if length else None
            form = body if (self.headers.get("Content-Type") or "").startswith(FORM) else None
            url = "http://%s%s" % (self.headers["Host"], self.path)
            ok = woocommerce_server.accepts(self.command, url, SECRET, form)
            self.send_response(200 if ok else 401)
            self.end_headers()
            self.wfile.write(b"accepted" if ok else b"refused")

        do_GET = do_POST = do_PUT = answer

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Shop)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    shop = "http://127.0.0.1:%d/wp-json/wc/v3" % server.server_address[1]
    for args, want in [
        (["--profile", "woocommerce", shop + "/products?include[]=12&include[]=34&a.b=1"], "accepted"),
        (["--profile", "woocommerce", "-X", "POST", "-d", "create[0][name]=A b&update[]=7", shop + "/products/batch"], "accepted"),
        (["--profile", "woocommerce", "--signature-method", "HMAC-SHA1", shop + "/orders?z=1&%C3%A9=2"], "accepted"),
        (["--signature-method", "HMAC-SHA256", "--transport", "query", shop + "/products?include[]=12&include[]=34"], "refused"),
    ]:
        count += 1
        answer = run([oauth1, "send", "--consumer-key", KEY] + args)
        if answer.stdout != want:
            failures.append("oauth1 send %s: %r, expected %r (%s)" % (" ".join(args), answer.stdout, want, answer.stderr.strip()))
    server.shutdown()

    explained.conclude("the woocommerce profile against the server's check", failures,
                       "%d requests, each as the server computes" % count)


if __name__ == "__main__":
    main(sys.argv[1])
