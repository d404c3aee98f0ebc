"""Every mistake of fixtures/explain.json, made again on a live request: each line explained
from its signature is re-signed for `oauth1 serve`'s origin (same method, path, query and body),
at the current time with a fresh nonce, by fixtures/explain_cases.py's own pipeline with the
line's causes switched on, and sent with an Authorization header; the server must refuse it
(401 signature_invalid) and name, in its JSON refusal, the causes applied, and its advice must
name the explanation. The causes expected come from explain_cases.py, never from the server.

Usage: serve_mistakes.py OAUTH1_BINARY
"""

import base64
import hashlib
import http.client
import json
import os
import pathlib
import sys
import tempfile
import time
import uuid
from urllib.parse import urlsplit

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "fixtures"))
import explain_cases  # noqa: E402
import rfc5849  # noqa: E402
from serve_dance import Serve  # noqa: E402

# serve's three endpoints; every other method and path is a protected resource.
ENDPOINTS = {("POST", "/oauth/request_token"), ("GET", "/oauth/authorize"), ("POST", "/oauth/access_token")}


def applied(line):
    """The causes the line's signature was made with, and the parameters it left unsigned: the
    line's explanation (a single cause's line is asserted by explain_cases.py to be explained by
    exactly that cause; a pair's or triple's by those causes; an ambiguous line names the
    cause applied first)."""
    want = line["expected"]
    unsigned = leading = None
    if "unsigned_parameter" in want:
        unsigned = explain_cases.collected(line).index(want["unsigned_parameter"])
    if "unsigned_parameters" in want:
        leading = len(want["unsigned_parameters"])
    return tuple(want["causes"]), unsigned, leading


def skip_reason(line, causes):
    """Why the line cannot be sent as a live request that shows its causes, or None."""
    if line.get("signature_method", "HMAC-SHA1").startswith("RSA"):
        # serve's --credentials holds consumer secrets only, no public keys.
        return "an RSA signature method: serve holds no public keys"
    if line.get("signature_method") == "PLAINTEXT":
        # RFC 5849 §3.4.4: PLAINTEXT only over TLS (or an equally secure channel); serve speaks
        # plain http, where a server may refuse the method before any signature is compared.
        return "PLAINTEXT, which RFC 5849 §3.4.4 allows over TLS only: serve speaks http"
    if "form-body-hashed" in causes:
        # The line describes a form body whose hash the reference leaves out; on the wire the
        # hash travels in the Authorization header, where a server either signs it (and its
        # reference is no longer the line's) or refuses it (RFC 5849 and the Body Hash
        # extension forbid it with a form body): the request has no wire form the line's
        # expected causes describe.
        return "form-body-hashed: a form body's hash has no wire form the line's reference describes"
    method, path = line["method"].upper(), urlsplit(line["url"]).path
    if path in ("/oauth/request_token", "/oauth/access_token") and method != "POST":
        # RFC 5849 §2.1 and §2.3 ask for POST at the credential endpoints; serve answers another
        # method 405 with Allow: POST before it looks at a signature.
        return "another method than POST at a credential endpoint (405)"
    if (method, path) == ("POST", "/oauth/access_token"):
        # serve's access-token endpoint takes temporary credentials only: the line's token is a
        # token credential, which may be refused as such (token_rejected) before any signature
        # is looked at; RFC 5849 §2.3 orders neither check first.
        return "sent to serve's access-token endpoint with a token credential"
    return None


def serve_url(line, origin):
    """The line's URL with serve's origin, its path and query as sent. A server knows its own
    origin, not how the client wrote it: a scheme or host the line writes in capitals is not
    carried over (the request line holds the path only)."""
    _, _, _, path, query = explain_cases.split_url(line["url"])
    return origin + (path or "/") + ("?" + query if query is not None else "")


def body_hash(case):
    """oauth_body_hash as the line's request sends it (none with a form body)."""
    if not case.get("body_hash") or explain_cases.is_form(case.get("content_type")):
        return None
    method = case.get("signature_method", "HMAC-SHA1")
    digest = hashlib.sha256 if method.endswith("SHA256") else hashlib.sha512 if method.endswith("SHA512") else hashlib.sha1
    return base64.b64encode(digest(case.get("body", "").encode()).digest()).decode()


def authorization(case, signature):
    """The Authorization header of the line's request: its protocol parameters as the case
    says they are sent (RFC 5849 §3.5.1), whatever the mistake signed, and `signature`."""
    params = [("oauth_consumer_key", case["consumer_key"]), ("oauth_nonce", case["nonce"]),
              ("oauth_signature_method", case.get("signature_method", "HMAC-SHA1")),
              ("oauth_timestamp", case["timestamp"])]
    if "token" in case:
        params.append(("oauth_token", case["token"]))
    if case.get("version", "1.0") is not None:
        params.append(("oauth_version", "1.0"))
    for field in ("callback", "verifier"):
        if field in case:
            params.append(("oauth_" + field, case[field]))
    if body_hash(case) is not None:
        params.append(("oauth_body_hash", body_hash(case)))
    params.append(("oauth_signature", signature))
    fields = ['%s="%s"' % (name, rfc5849.enc(value)) for name, value in params]
    if "realm" in case:
        # realm is RFC 2617's quoted-string (RFC 5849 §3.5.1), not percent-encoded.
        fields.insert(0, 'realm="%s"' % case["realm"].replace("\\", "\\\\").replace('"', '\\"'))
    return "OAuth " + ", ".join(fields)


def oracle_request(case, header):
    """The request as rfc5849.py takes it."""
    return {"method": case["method"], "url": case["url"], "content_type": case.get("content_type"),
            "body": case.get("body"), "authorization": header, "consumer_secret": case["consumer_secret"],
            "token_secret": case.get("token_secret"), "public_key_pem": None}


def send(case, header):
    """Sends the request exactly: the method as written, the target as written, the body and its
    Content-Type as the line gives them; asks for the refusal as JSON."""
    url = urlsplit(case["url"])
    target = (url.path or "/") + ("?" + url.query if url.query or case["url"].endswith("?") else "")
    headers = {"Authorization": header, "Accept": "application/json"}
    if case.get("content_type"):
        headers["Content-Type"] = case["content_type"]
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    try:
        body = case.get("body")
        connection.request(case["method"], target, body=body.encode() if body is not None else None, headers=headers)
        response = connection.getresponse()
        return response.status, response.msg, response.read().decode("utf-8", "replace")
    finally:
        connection.close()


def group(lines):
    """Lines grouped so that within a group no consumer key or token has two secrets: one
    server per group."""
    groups = []
    for line in lines:
        consumer = (line["consumer_key"], line["consumer_secret"])
        token = (line["consumer_key"], line["token"], line.get("token_secret", "")) if "token" in line else None
        for g in groups:
            if g["consumers"].get(consumer[0], consumer[1]) != consumer[1]:
                continue
            if token and g["tokens"].get(token[:2], token[2]) != token[2]:
                continue
            break
        else:
            g = {"consumers": {}, "tokens": {}, "lines": []}
            groups.append(g)
        g["consumers"][consumer[0]] = consumer[1]
        if token:
            g["tokens"][token[:2]] = token[2]
        g["lines"].append(line)
    return groups


def credentials(g):
    return {"consumers": [
        {"key": key, "secret": secret,
         "tokens": [{"token": t, "secret": s} for (k, t), s in g["tokens"].items() if k == key]}
        for key, secret in g["consumers"].items()]}


def prepare(line, origin):
    """The line re-signed for `origin` at the current time with a fresh nonce: (case, causes,
    mistaken signature, the causes explain_cases.py's search finds for it, whether they act
    together); or "reason|name" for a line that says nothing about serve there, or
    "failure|message"."""
    causes, unsigned, leading = applied(line)
    case = {k: v for k, v in line.items() if k not in ("observed", "expected")}
    case.update(url=serve_url(line, origin), timestamp=str(int(time.time())), nonce=uuid.uuid4().hex)
    _, reference = explain_cases.pipeline(case)
    _, signature = explain_cases.pipeline(case, frozenset(causes), unsigned, leading)
    # The independent search on the re-signed request, as the server sees it: at serve's origin
    # a cause bound to the line's own origin (an explicit default port; a scheme or host written
    # in capitals, where http://127.0.0.1 has no capitals to keep) may change nothing, or
    # another explanation may come first; such a line says nothing about serve.
    verdict, found, _, pair = explain_cases.expected(case, {"signature": signature})
    if verdict != "explained" or not set(causes) <= set(found):
        return ("at serve's origin the causes applied no longer explain the signature|%s (%s: %s %s)"
                % (line["name"], "+".join(causes), verdict, "+".join(found)))
    # The request as sent, with its right signature, is right by the tests' other oracle
    # (rfc5849.py); with the mistake's, it is not.
    right = rfc5849.correct(oracle_request(case, authorization(case, reference)))
    wrong = rfc5849.correct(oracle_request(case, authorization(case, signature)))
    if not right or wrong:
        return "failure|%s: the request built here is %s by rfc5849.py" % (
            line["name"], "refused with its reference signature" if not right else "accepted with the mistaken signature")
    return case, causes, signature, found, pair


def main(binary):
    lines = json.loads((ROOT / "fixtures" / "explain.json").read_text())
    chosen = [l for l in lines if l["expected"]["verdict"] == "explained" and "signature" in l["observed"]]
    failures, skipped, notes = [], {}, []
    sent = named = controls = same_list = 0

    # The causes applied must reproduce each line's own observed values: the fixture and the
    # pipeline agree before anything is sent.
    ready = []
    for line in chosen:
        causes, unsigned, leading = applied(line)
        base, signature = explain_cases.pipeline(line, frozenset(causes), unsigned, leading)
        if signature != line["observed"]["signature"] or base != line["observed"].get("base_string", base):
            failures.append("%s: explain_cases.py does not reproduce the line's observed values with %s"
                            % (line["name"], list(causes)))
            continue
        reason = skip_reason(line, causes)
        if reason:
            skipped.setdefault(reason, []).append(line["name"])
        else:
            ready.append(line)

    with tempfile.TemporaryDirectory() as work:
        for n, g in enumerate(group(ready)):
            path = os.path.join(work, "credentials-%d.json" % n)
            with open(path, "w") as f:
                json.dump(credentials(g), f, ensure_ascii=False)
            try:
                serve = Serve(binary, ["--credentials", path])
            except RuntimeError as e:
                sys.exit("oauth1 serve names fixture mistakes: %s" % e)
            try:
                control_done = False
                for line in g["lines"]:
                    prepared = prepare(line, serve.origin)
                    if isinstance(prepared, str):
                        kind, _, detail = prepared.partition("|")
                        if kind == "failure":
                            failures.append(detail)
                        else:
                            skipped.setdefault(kind, []).append(detail)
                        continue
                    case, causes, signature, found, pair = prepared
                    # Once per server, a request signed right: accepted, so that the refusals
                    # below are about their signatures.
                    if not control_done and (case["method"].upper(), urlsplit(case["url"]).path) not in ENDPOINTS:
                        control = dict(case, nonce=uuid.uuid4().hex)
                        status, _, text = send(control, authorization(control, explain_cases.pipeline(control)[1]))
                        controls += 1
                        control_done = True
                        if status != 200:
                            failures.append("%s, signed right: %d %s" % (line["name"], status, text.strip()))
                    status, headers, text = send(case, authorization(case, signature))
                    sent += 1
                    what = "%s %s %s (%s)" % (line["name"], case["method"], case["url"], "+".join(causes))
                    try:
                        answer = json.loads(text)
                    except ValueError:
                        answer = {}
                    got = answer.get("causes") if isinstance(answer.get("causes"), list) else []
                    explanation = list(found) if pair else list(found[:1])
                    problems = []
                    if status != 401:
                        problems.append("status %d" % status)
                    if not headers.get("Content-Type", "").startswith("application/json"):
                        problems.append("Content-Type %r" % headers.get("Content-Type"))
                    if answer.get("oauth_problem") != "signature_invalid":
                        problems.append("oauth_problem %r" % answer.get("oauth_problem"))
                    if not set(causes) <= set(got):
                        problems.append("causes %r do not hold %r" % (got, list(causes)))
                    else:
                        named += 1
                    advice = str(answer.get("oauth_problem_advice"))
                    if not all(c in advice for c in explanation):
                        problems.append("the advice does not name %s" % "+".join(explanation))
                    if problems:
                        failures.append("%s: %s\n      answer: %s" % (what, "; ".join(problems), text.strip()))
                    if got == list(found):
                        same_list += 1
                    else:
                        notes.append("%s: serve's causes %r, explain_cases.py's search %r" % (line["name"], got, list(found)))
            finally:
                status = serve.stop()
                if status != 0:
                    failures.append("server %d: SIGINT gave %s" % (n, "no exit within 5 s" if status is None else "status %d" % status))

    print("oauth1 serve names fixture mistakes: %d lines of fixtures/explain.json explained from their signature; "
          "%d sent, %d with every applied cause named; %d controls signed right; %d skipped"
          % (len(chosen), sent, named, controls, sum(map(len, skipped.values()))))
    for reason, names in skipped.items():
        print("  skipped %d, %s: %s" % (len(names), reason, ", ".join(names)))
    print("  %d of %d answers list exactly the causes explain_cases.py's search finds, in its order" % (same_list, sent))
    for note in notes:
        print("    " + note)
    if failures:
        print("oauth1 serve names fixture mistakes: %d failures" % len(failures))
        for failure in failures:
            print("  " + failure)
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1])
