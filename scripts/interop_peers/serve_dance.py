"""requests-oauthlib's OAuth1Session through the three-legged flow of `oauth1 serve`, then
resource requests whose JSON echo must show what was signed; the refusals a provider owes (a
replayed request, a second exchange, a wrong secret, a request signed for another origin, a
stale timestamp, temporary credentials used on a resource, a callback that is no URL) in the OAuth Problem Reporting
format and, asked for, in JSON; the oob flow; the request log; and a clean stop on SIGINT.

Usage: serve_dance.py OAUTH1_BINARY
"""

import json
import os
import queue
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from urllib.parse import parse_qsl, urlsplit

import oauthlib.oauth1
import requests
from requests_oauthlib import OAuth1, OAuth1Session
from requests_oauthlib.oauth1_session import TokenRequestDenied

CONSUMER = ("demo-consumer", "demo consumer secret & ünïcode")
# A callback with a query of its own, which the redirect must keep.
CALLBACK = "http://127.0.0.1:9/cb?state=s%201"
FORM = "application/x-www-form-urlencoded"
BANNER = re.compile(r"oauth1 serve: listening on (http://127\.0\.0\.1:(\d+))")


class Serve:
    """An `oauth1 serve --port 0` process: the origin of its first line, everything it prints,
    and a stop by SIGINT that must end it with status 0."""

    def __init__(self, binary, args, env=None):
        self.process = subprocess.Popen(
            [binary, "serve", "--port", "0"] + args, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace",
            env=dict(os.environ, **(env or {})))
        self.stdout, self.stderr = [], []
        first = queue.Queue()
        threading.Thread(target=self._drain, args=(self.process.stdout, self.stdout, first), daemon=True).start()
        threading.Thread(target=self._drain, args=(self.process.stderr, self.stderr, None), daemon=True).start()
        try:
            line = first.get(timeout=60)
        except queue.Empty:
            line = None
        match = BANNER.fullmatch(line or "")
        if match is None:
            self.stop()
            raise RuntimeError("oauth1 serve %s: first line %r, expected 'oauth1 serve: listening on "
                               "http://127.0.0.1:PORT'; stderr: %s" % (" ".join(args), line, "".join(self.stderr)))
        self.origin, self.port = match.group(1), int(match.group(2))

    @staticmethod
    def _drain(stream, lines, first):
        for line in stream:
            lines.append(line)
            if first is not None and len(lines) == 1:
                first.put(line.rstrip("\n"))
        if first is not None and not lines:
            first.put(None)

    def stop(self, within=5):
        """SIGINT, then the exit status (None if it had to be killed after `within` seconds)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=within)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


class Dance:
    """The checks made so far, and the requests sent (method, URL, status), in order."""

    def __init__(self, base):
        self.base = base
        self.failures = []
        self.sent = []

    def check(self, condition, what):
        if not condition:
            self.failures.append(what)
        return condition

    def record(self, response, *args, **kwargs):
        self.sent.append((response.request.method, response.request.url, response.status_code))

    def session(self, cls=requests.Session, *args, **kwargs):
        """A requests session (or OAuth1Session) whose responses are recorded."""
        session = cls(*args, **kwargs)
        session.hooks["response"].append(self.record)
        return session

    def refusal(self, response, statuses, problem, what):
        """A refusal: a status of `statuses`, a form body with oauth_problem `problem` (any when
        None), and for a 401 a WWW-Authenticate challenge. Returns the body's fields."""
        fields = dict(parse_qsl(response.text, keep_blank_values=True))
        shown = "%s: %d %s %r" % (what, response.status_code, response.headers.get("Content-Type"), response.text)
        self.check(response.status_code in statuses, shown + " (expected %s)" % " or ".join(map(str, statuses)))
        self.check(response.headers.get("Content-Type", "").startswith(FORM), shown + " (expected a form body)")
        if problem is None:
            self.check(bool(fields.get("oauth_problem")), shown + " (no oauth_problem)")
        else:
            self.check(fields.get("oauth_problem") == problem, shown + " (expected oauth_problem=%s)" % problem)
        if response.status_code == 401:
            self.check(response.headers.get("WWW-Authenticate", "").startswith("OAuth realm="),
                       "%s: WWW-Authenticate %r" % (what, response.headers.get("WWW-Authenticate")))
        return fields

    def echo(self, response, what, uri, token, expected):
        """A resource's JSON echo: the consumer, the token, HMAC-SHA1, the base string URI, and
        `expected` among the parameters as signed (oauth_signature not among them)."""
        if not self.check(response.status_code == 200 and response.headers.get("Content-Type", "")
                          .startswith("application/json"),
                          "%s: %d %s %r" % (what, response.status_code, response.headers.get("Content-Type"),
                                            response.text)):
            return
        body = response.json()
        self.check(body.get("consumer_key") == CONSUMER[0], "%s: consumer_key %r" % (what, body.get("consumer_key")))
        self.check(body.get("token") == token, "%s: token %r, expected %r" % (what, body.get("token"), token))
        self.check(body.get("signature_method") == "HMAC-SHA1", "%s: signature_method %r" % (what, body.get("signature_method")))
        self.check(body.get("base_string_uri") == uri, "%s: base_string_uri %r, expected %r" % (what, body.get("base_string_uri"), uri))
        pairs = [tuple(p) for p in body.get("parameters") or []]
        protocol = [("oauth_consumer_key", CONSUMER[0])] + ([("oauth_token", token)] if token else [])
        for pair in list(expected) + protocol:
            self.check(pair in pairs, "%s: %r not among the parameters %r" % (what, pair, pairs))
        self.check(all(name != "oauth_signature" for name, _ in pairs),
                   "%s: oauth_signature among the parameters as signed: %r" % (what, pairs))


def three_legged(d):
    """Temporary credentials with a callback, the automatic approval's redirect, token
    credentials; returns (temporary, verifier, access)."""
    base = d.base
    session = d.session(OAuth1Session, CONSUMER[0], client_secret=CONSUMER[1], callback_uri=CALLBACK)
    temporary = session.fetch_request_token(base + "/oauth/request_token")
    d.check(set(temporary) == {"oauth_token", "oauth_token_secret", "oauth_callback_confirmed"}
            and temporary["oauth_callback_confirmed"] == "true", "temporary credentials: %r" % temporary)
    authorization_url = session.authorization_url(base + "/oauth/authorize")
    # Temporary credentials on a resource: they are not token credentials.
    early = d.session().get(base + "/photos", auth=OAuth1(
        CONSUMER[0], client_secret=CONSUMER[1], resource_owner_key=temporary["oauth_token"],
        resource_owner_secret=temporary["oauth_token_secret"]))
    d.refusal(early, (401,), "token_rejected", "a resource request with temporary credentials")
    approved = d.session().get(authorization_url, allow_redirects=False)
    location = approved.headers.get("Location", "")
    if not d.check(approved.status_code == 302 and location,
                   "GET %s: %d %r, expected a 302 to the callback" % (authorization_url, approved.status_code, approved.text)):
        raise RuntimeError("no redirect to the callback; the flow cannot go on")
    # The callback as registered, its own query kept, oauth_token and oauth_verifier added.
    got, want = urlsplit(location), urlsplit(CALLBACK)
    query = dict(parse_qsl(got.query, keep_blank_values=True))
    d.check(got[:3] == want[:3] and query.get("state") == "s 1"
            and query.get("oauth_token") == temporary["oauth_token"] and query.get("oauth_verifier"),
            "the redirect's Location %r, expected %s with oauth_token and oauth_verifier added" % (location, CALLBACK))
    callback = session.parse_authorization_response(location)
    access = session.fetch_access_token(base + "/oauth/access_token")
    d.check({"oauth_token", "oauth_token_secret"} <= set(access) and access["oauth_token"] != temporary["oauth_token"],
            "token credentials: %r" % access)

    # Resources: the query's parameters, decoded, and a form body's.
    photos = session.get(base + "/photos", params={"size": "original", "q": "a b ü"})
    d.echo(photos, "GET /photos", base + "/photos", access["oauth_token"],
           [("size", "original"), ("q", "a b ü")])
    upload = session.post(base + "/photos/upload?album=a%2Fb", data={"title": "ünï & co", "tags": "x+y"})
    d.echo(upload, "POST /photos/upload with a form body", base + "/photos/upload", access["oauth_token"],
           [("album", "a/b"), ("title", "ünï & co"), ("tags", "x+y")])
    return temporary, callback["oauth_verifier"], access


def refusals(d, temporary, verifier, access):
    """What must be refused, and how."""
    base, port = d.base, urlsplit(d.base).port
    owner = dict(resource_owner_key=access["oauth_token"], resource_owner_secret=access["oauth_token_secret"])

    # The same signed request twice: the second reuses its nonce.
    plain = d.session()
    prepared = plain.prepare_request(requests.Request(
        "GET", base + "/photos", params={"n": "1"}, auth=OAuth1(CONSUMER[0], client_secret=CONSUMER[1], **owner)))
    first = plain.send(prepared)
    d.check(first.status_code == 200, "a signed request: %d %r" % (first.status_code, first.text))
    d.refusal(plain.send(prepared), (401,), "nonce_used", "the same signed request again")

    # The temporary credentials are void once exchanged.
    again = d.session(OAuth1Session, CONSUMER[0], client_secret=CONSUMER[1],
                      resource_owner_key=temporary["oauth_token"],
                      resource_owner_secret=temporary["oauth_token_secret"], verifier=verifier)
    try:
        again.fetch_access_token(base + "/oauth/access_token")
        d.check(False, "the temporary credentials were exchanged twice")
    except TokenRequestDenied as e:
        d.refusal(e.response, (401,), None, "a second exchange of the temporary credentials")

    # Exchanged temporary credentials on a resource: void.
    late = plain.get(base + "/photos", auth=OAuth1(
        CONSUMER[0], client_secret=CONSUMER[1], resource_owner_key=temporary["oauth_token"],
        resource_owner_secret=temporary["oauth_token_secret"]))
    d.refusal(late, (401,), None, "a resource request with exchanged temporary credentials")

    # A wrong consumer secret, as a form and as JSON.
    wrong = OAuth1(CONSUMER[0], client_secret="not the secret", **owner)
    d.refusal(plain.get(base + "/photos", auth=wrong), (401,), "signature_invalid", "a wrong consumer secret")
    asked = plain.get(base + "/photos", auth=wrong, headers={"Accept": "application/json"})
    shown = "a wrong consumer secret, Accept: application/json: %d %s %r" % (
        asked.status_code, asked.headers.get("Content-Type"), asked.text)
    if d.check(asked.status_code == 401 and asked.headers.get("Content-Type", "").startswith("application/json"), shown):
        body = asked.json()
        d.check(body.get("status") == 401 and body.get("oauth_problem") == "signature_invalid"
                and isinstance(body.get("oauth_problem_advice"), str) and isinstance(body.get("reason"), str)
                and isinstance(body.get("causes"), list)
                and "diagnosis" in body and (body["diagnosis"] is None or isinstance(body["diagnosis"], str)), shown)
        d.check(asked.headers.get("WWW-Authenticate", "").startswith("OAuth realm="),
                "%s: WWW-Authenticate %r" % (shown, asked.headers.get("WWW-Authenticate")))

    # Signed for http://localhost:PORT, sent to http://127.0.0.1:PORT: the advice says so.
    client = oauthlib.oauth1.Client(CONSUMER[0], client_secret=CONSUMER[1], **owner)
    _, headers, _ = client.sign("http://localhost:%d/photos?x=1" % port)
    elsewhere = plain.get(base + "/photos?x=1", headers=headers)
    fields = d.refusal(elsewhere, (401,), "signature_invalid", "a request signed for http://localhost:%d" % port)
    d.check("the client signed this request for http://localhost:%d/" % port in fields.get("oauth_problem_advice", ""),
            "a request signed for http://localhost:%d: the advice %r does not name that origin"
            % (port, fields.get("oauth_problem_advice")))

    # A timestamp a day old.
    stale = oauthlib.oauth1.Client(CONSUMER[0], client_secret=CONSUMER[1], timestamp=str(int(time.time()) - 86400), **owner)
    _, headers, _ = stale.sign(base + "/photos")
    d.refusal(plain.get(base + "/photos", headers=headers), (400, 401), "timestamp_refused", "a timestamp a day old")

    # No OAuth at all on a protected resource.
    d.refusal(plain.get(base + "/photos"), (400, 401), None, "an unsigned request to a resource")

    # A callback that is neither an absolute http(s) URL nor oob.
    stranger = d.session(OAuth1Session, CONSUMER[0], client_secret=CONSUMER[1], callback_uri="javascript:alert(1)")
    try:
        stranger.fetch_request_token(base + "/oauth/request_token")
        d.check(False, "a javascript: callback was accepted")
    except TokenRequestDenied as e:
        d.refusal(e.response, (400, 401), None, "a javascript: callback")


def out_of_band(d):
    """oob: the approval page's text gives the verifier, which the consumer then exchanges."""
    base = d.base
    session = d.session(OAuth1Session, CONSUMER[0], client_secret=CONSUMER[1], callback_uri="oob")
    temporary = session.fetch_request_token(base + "/oauth/request_token")
    d.check(temporary.get("oauth_callback_confirmed") == "true", "oob temporary credentials: %r" % temporary)
    shown = d.session().get(base + "/oauth/authorize", params={"oauth_token": temporary["oauth_token"]},
                            allow_redirects=False)
    verifier = re.search(r"^oauth_verifier=(\S+)\r?$", shown.text, re.M)
    if not d.check(shown.status_code == 200 and shown.headers.get("Content-Type", "").startswith("text/plain")
                   and verifier, "oob approval: %d %s %r, expected text/plain with a line oauth_verifier=VALUE"
                   % (shown.status_code, shown.headers.get("Content-Type"), shown.text)):
        return
    access = session.fetch_access_token(base + "/oauth/access_token", verifier=verifier.group(1))
    d.echo(session.get(base + "/albums/1"), "oob: GET /albums/1", base + "/albums/1", access.get("oauth_token"), [])


def check_log(d, path):
    """One JSON line per request sent, in order, with its method, URL and status."""
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as e:
        d.check(False, "--log: %s" % e)
        return
    d.check(len(lines) == len(d.sent), "--log has %d lines for %d requests" % (len(lines), len(d.sent)))
    for n, (line, (method, url, status)) in enumerate(zip(lines, d.sent), 1):
        try:
            entry = json.loads(line)
        except ValueError:
            d.check(False, "--log line %d is not JSON: %r" % (n, line))
            continue
        missing = {"time", "method", "url", "status", "verdict", "causes"} - set(entry)
        d.check(not missing, "--log line %d lacks %s: %r" % (n, sorted(missing), line))
        d.check(entry.get("method") == method and entry.get("status") == status
                and urlsplit(url).path in str(entry.get("url")) and isinstance(entry.get("causes"), list),
                "--log line %d: %r, for %s %s answered %d" % (n, line, method, url, status))


def main(binary):
    with tempfile.TemporaryDirectory() as work:
        log = os.path.join(work, "requests.jsonl")
        try:
            serve = Serve(binary, ["--consumer-key", CONSUMER[0], "--log", log],
                          env={"OAUTH1_CONSUMER_SECRET": CONSUMER[1]})
        except RuntimeError as e:
            sys.exit("oauth1 serve with requests-oauthlib: %s" % e)
        d = Dance(serve.origin)
        try:
            try:
                temporary, verifier, access = three_legged(d)
                refusals(d, temporary, verifier, access)
                out_of_band(d)
            except Exception as e:  # noqa: BLE001 - reported with the rest
                d.check(False, "the flow stopped: %s: %s" % (type(e).__name__, e))
        finally:
            status = serve.stop()
        d.check(status == 0, "SIGINT: oauth1 serve %s" % (
            "did not stop within 5 s" if status is None else "exited with status %d" % status))
        printed = "".join(serve.stdout)
        for shown in ["/oauth/request_token", "/oauth/authorize", "/oauth/access_token", CONSUMER[0]]:
            d.check(shown in printed, "its start-up text does not show %s:\n%s" % (shown, printed))
        d.check(CONSUMER[1] not in printed + "".join(serve.stderr), "it prints the consumer secret")
        check_log(d, log)
        if os.path.exists(log):
            d.check(CONSUMER[1] not in open(log, encoding="utf-8").read(), "--log holds the consumer secret")
    if d.failures:
        print("oauth1 serve with requests-oauthlib: %d failures" % len(d.failures))
        for failure in d.failures:
            print("  " + failure)
        sys.exit(1)
    print("oauth1 serve with requests-oauthlib: the three-legged flow, oob, %d requests, "
          "their refusals and log lines, ok" % len(d.sent))


if __name__ == "__main__":
    main(sys.argv[1])
