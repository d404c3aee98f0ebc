"""`oauth1 probe` against loopback servers of this script's own, each computing signatures with
one server-side quirk (or a pair, or exactly as RFC 5849 says, or with another secret), the
quirks applied by fixtures/explain_cases.py's pipeline, written from the cause definitions
independently of the Rust crate. Each server counts what it received.

Checked: the probe names, within its budget, a cause (or pair) that computes what the quirky
server computes; says `rfc` for the exact server and `none` for the other secret; stops when a
refusal names another problem; never sends more requests than --max-requests, a method that
was not allowed, or a nonce twice.

Run by scripts/interop: python3 probe_servers.py path/to/oauth1
"""

import hmac
import json
import pathlib
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "fixtures"))
import explain_cases  # noqa: E402
import explained  # noqa: E402

# A consumer key with "!" and secrets with "+" and "/", which only encoding tells apart.
CONSUMER_KEY, CONSUMER_SECRET = "probe!consumer", "kd94hf93+k423/kf44"
TOKEN, TOKEN_SECRET = "nnch734d00sl2jdk", "pfkkdhi9sl3r4s00"
# A query on which the parameter causes compute differently: + and %20, a repeated name, an
# empty value, sub-delimiters, an escaped slash, a name with a space, a second "=", names that
# sort apart as strings or decoded, a non-ASCII name, brackets.
PATH = ("/1.1/items.json?q=a+b%20c&tag=x&tag=a&e=&s=it!*()&p=%2Fa~b&n%20m=1&z=a=b&A1=x"
        "&a=1&a1=2&c%40=1&c2=2&caf%C3%A9=1&ids%5B%5D=7")


def header_params(value):
    params = {}
    for part in value[len("OAuth "):].split(","):
        name, _, quoted = part.strip().partition("=")
        params[name] = unquote(quoted.strip('"'))
    return params


class Server:
    """A loopback server computing with `quirks` (a set of cause ids), or refusing every
    request with `problem`."""

    def __init__(self, quirks=(), secret=CONSUMER_SECRET, problem=None):
        self.quirks = frozenset(quirks)
        self.secret = secret
        self.problem = problem
        self.received = []  # (method, nonce)
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def answer(self):
                params = header_params(self.headers.get("Authorization", ""))
                server.received.append((self.command, params.get("oauth_nonce")))
                if server.problem:
                    return self.refuse("oauth_problem=" + server.problem)
                case = server.case(self.command, self.headers["Host"], self.path, params)
                _, want = explain_cases.pipeline(case, server.quirks)
                if hmac.compare_digest(want, params.get("oauth_signature", "")):
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.end_headers()
                    self.wfile.write(b"{}")
                else:
                    self.refuse(None)

            def refuse(self, problem):
                self.send_response(401)
                if problem:
                    self.send_header("WWW-Authenticate", 'OAuth realm="probe", ' + problem)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                # X's answer: nothing echoed.
                self.wfile.write(b'{"errors":[{"code":32,"message":"Could not authenticate you."}]}')

            do_GET = answer
            do_HEAD = answer
            do_POST = answer

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def case(self, method, host, path, params):
        case = {
            "method": method, "url": "http://%s%s" % (host, path),
            "consumer_key": params.get("oauth_consumer_key", ""), "consumer_secret": self.secret,
            "nonce": params.get("oauth_nonce", ""), "timestamp": params.get("oauth_timestamp", ""),
            "signature_method": params.get("oauth_signature_method", "HMAC-SHA1"),
        }
        if "oauth_token" in params:
            case["token"], case["token_secret"] = params["oauth_token"], TOKEN_SECRET
        if "oauth_version" not in params:
            case["version"] = None
        return case

    def url(self, path=PATH):
        return "http://127.0.0.1:%d%s" % (self.port, path)


def probe(oauth1, url, *flags, method="GET", token=True):
    """Runs oauth1 probe --json; its exit status and its last line, parsed."""
    args = [oauth1, "probe", "--json", "--interval", "0", "--consumer-key", CONSUMER_KEY,
            "--method", method, "--url", url, *flags] + (["--token", TOKEN] if token else [])
    env = {"OAUTH1_CONSUMER_SECRET": CONSUMER_SECRET, "OAUTH1_TOKEN_SECRET": TOKEN_SECRET, "PATH": ""}
    run = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120)
    lines = run.stdout.strip().splitlines()
    try:
        return run.returncode, json.loads(lines[-1]), run
    except (IndexError, ValueError):
        return run.returncode, None, run


def request_case(port, token=True):
    """The probe's request as a case of fixtures/explain_cases.py, with a fixed nonce and time."""
    case = {"method": "GET", "url": "http://127.0.0.1:%d%s" % (port, PATH),
            "consumer_key": CONSUMER_KEY, "consumer_secret": CONSUMER_SECRET,
            "nonce": "kllo9940pd9333jh", "timestamp": "1191242096"}
    if token:
        case.update(token=TOKEN, token_secret=TOKEN_SECRET)
    return case


def same_computation(port, causes, quirks, token=True):
    """Whether `causes` compute the signature `quirks` compute for the probe's request."""
    case = request_case(port, token)
    return explain_cases.pipeline(case, frozenset(causes))[1] == explain_cases.pipeline(case, frozenset(quirks))[1]


def main():
    oauth1 = sys.argv[1]
    failures = []

    def check(server, what, verdict, max_requests=40, causes_of=None, code=None, token=True):
        code_got, answer, run = probe(oauth1, server.url(), "--max-requests", str(max_requests), token=token)
        methods = {m for m, _ in server.received}
        nonces = [n for _, n in server.received]
        if answer is None:
            failures.append("%s: no JSON answer (exit %d): %s" % (what, code_got, run.stderr.strip()))
            return
        if answer["verdict"] != verdict:
            failures.append("%s: %s %s, expected %s" % (what, answer["verdict"], answer["causes"], verdict))
        elif causes_of is not None and not same_computation(server.port, answer["causes"], causes_of, token):
            failures.append("%s: found %s, which does not compute as %s" % (what, answer["causes"], sorted(causes_of)))
        if answer["requests"] != len(server.received) or len(server.received) > max_requests:
            failures.append("%s: %d requests said, %d received, at most %d allowed"
                            % (what, answer["requests"], len(server.received), max_requests))
        if methods - {"GET"}:
            failures.append("%s: methods %s sent" % (what, sorted(methods)))
        if len(set(nonces)) != len(nonces):
            failures.append("%s: a nonce sent twice" % what)
        if code is not None and code_got != code:
            failures.append("%s: exit status %d, expected %d" % (what, code_got, code))
        return answer

    # Every cause that computes differently on the probe's request, one server each: the
    # request with a token, then without one for the causes only that tells apart.
    quirks = []
    most = 0
    for token in (True, False):
        case = request_case(8080, token)
        reference = explain_cases.pipeline(case)[1]
        for quirk in explain_cases.RANK:
            if quirk in quirks or explain_cases.pipeline(case, frozenset({quirk}))[1] == reference:
                continue
            quirks.append(quirk)
            server = Server({quirk})
            answer = check(server, "a server with " + quirk, "found", causes_of={quirk}, token=token)
            most = max(most, answer["requests"] if answer else 0)
    # A TLS-terminating proxy and a parameter quirk together.
    pair = {"scheme-changed", "plus-not-decoded"}
    check(Server(pair), "a server behind a TLS proxy with plus-not-decoded", "found", causes_of=pair)
    # In words, the client is told what it can send meanwhile, cause by cause.
    text_server = Server(pair)
    args = [oauth1, "probe", "--interval", "0", "--consumer-key", CONSUMER_KEY, "--url", text_server.url(),
            "--token", TOKEN]
    env = {"OAUTH1_CONSUMER_SECRET": CONSUMER_SECRET, "OAUTH1_TOKEN_SECRET": TOKEN_SECRET, "PATH": ""}
    shown = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120).stdout
    for line in ("            plus-not-decoded: send a space as %20, never as +, in the query and the form body",
                 "            scheme-changed: no request avoids it: sign as the server computes (the cause above)"):
        if line not in shown.splitlines():
            failures.append("the probe's text lacks %r:\n%s" % (line, shown))
    # A profile that computes as the server does is offered only if it signs the request
    # probed: WooCommerce's takes the consumer key alone, so not for a request with a token.
    php = Server({"parsed-as-php"})
    args = [oauth1, "probe", "--interval", "0", "--consumer-key", CONSUMER_KEY, "--url", php.url(),
            "--token", TOKEN]
    shown = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120).stdout
    if "sign as this server computes: --profile" in shown \
            or "but that profile cannot sign this request" not in shown:
        failures.append("a profile that cannot sign the request probed was offered:\n%s" % shown)
    check(Server(), "the exact server", "rfc", code=0)
    check(Server(secret="another-secret"), "a server holding another secret", "none", code=1)
    # The budget: five requests, not one more.
    check(Server(secret="another-secret"), "another secret, five requests", "none", max_requests=5)
    check(Server(problem="timestamp_refused"), "a server refusing the timestamp", "none")
    # A POST is not sent unless allowed.
    post = Server()
    code, answer, run = probe(oauth1, post.url(), method="POST")
    if code == 0 or post.received:
        failures.append("POST without --allow-method: exit %d, %d requests received" % (code, len(post.received)))

    explained.conclude(
        "oauth1 probe against quirky loopback servers", failures,
        "each of %d single quirks and a TLS proxy with plus-not-decoded found within 40 requests "
        "(at most %d), rfc for the exact server, none for another secret, stopped by "
        "timestamp_refused, never more requests than allowed, GET only, no nonce twice"
        % (len(quirks), most))


if __name__ == "__main__":
    main()
