"""requests-oauthlib as the client of examples/axum_server.rs: every request it signs must
verify, and every request changed after signing must be refused.

Usage: requests_client.py http://127.0.0.1:PORT
"""

import sys

import requests
from oauthlib.oauth1 import (
    SIGNATURE_HMAC_SHA1,
    SIGNATURE_HMAC_SHA256,
    SIGNATURE_HMAC_SHA512,
    SIGNATURE_PLAINTEXT,
    SIGNATURE_TYPE_AUTH_HEADER,
    SIGNATURE_TYPE_BODY,
    SIGNATURE_TYPE_QUERY,
)
from requests_oauthlib import OAuth1

CONSUMER = ("demo-consumer", "demo consumer secret & ünïcode")
TOKEN = ("demo-token", "demo token secret / +%")

FORM = "application/x-www-form-urlencoded"

# (name, method, path, params, data, json, content type)
SHAPES = [
    ("query", "GET", "/photos",
     [("size", "original"), ("a", "2"), ("a", "1"), ("c", "!*'()"), ("d", "a b+c"),
      ("e", ""), ("été", "✓😀")], None, None, None),
    ("form", "POST", "/1.1/statuses/update.json", [("include_entities", "true")],
     [("status", "Hello Ladies + Gentlemen, a signed OAuth request!"), ("tag", "b"),
      ("tag", "a"), ("x", "€&=")], None, None),
    ("json", "POST", "/2/tweets", None, None, {"text": "Hello, world! ✓ & = +"}, None),
    ("empty put", "PUT", "/things/1", [("x", "~")], None, None, None),
]


def main(base):
    failures = []
    accepted = 0

    def expect(what, response, status):
        if response.status_code != status:
            failures.append("%s: %d, expected %d: %s"
                            % (what, response.status_code, status, response.text))

    for method in (SIGNATURE_HMAC_SHA1, SIGNATURE_HMAC_SHA256, SIGNATURE_HMAC_SHA512):
        for with_token in (False, True):
            for signature_type in (SIGNATURE_TYPE_AUTH_HEADER, SIGNATURE_TYPE_QUERY,
                                   SIGNATURE_TYPE_BODY):
                for name, verb, path, params, data, json, _ in SHAPES:
                    if signature_type == SIGNATURE_TYPE_BODY and (json is not None or verb == "GET"):
                        continue
                    token = TOKEN if with_token else (None, None)
                    auth = OAuth1(CONSUMER[0], CONSUMER[1], token[0], token[1],
                                  signature_method=method, signature_type=signature_type)
                    what = "%s token=%s %s %s" % (method, with_token, signature_type, name)
                    response = requests.request(verb, base + path, params=params, data=data,
                                                json=json, auth=auth)
                    expect(what, response, 200)
                    if response.status_code == 200:
                        lines = dict(l.split("=", 1) for l in response.text.splitlines() if "=" in l)
                        if lines.get("consumer_key") != CONSUMER[0] or \
                                lines.get("signature_method") != method or \
                                lines.get("token") != (TOKEN[0] if with_token else ""):
                            failures.append("%s: answered %r" % (what, response.text))
                        accepted += 1

    # The body included, as NetSuite's guides sign (with the account as realm): oauthlib adds
    # oauth_body_hash, SHA-1 whatever the method, which the server takes by default; a body
    # changed after signing is refused.
    hashed = 0
    for method in (SIGNATURE_HMAC_SHA1, SIGNATURE_HMAC_SHA256, SIGNATURE_HMAC_SHA512):
        auth = OAuth1(CONSUMER[0], CONSUMER[1], TOKEN[0], TOKEN[1], signature_method=method,
                      realm="1234567_SB1", force_include_body=True)
        what = "%s body hash" % method
        request = requests.Request("POST", base + "/services/rest/record/v1/customer",
                                   json={"companyName": "Ünïcode & Co +1"}, auth=auth).prepare()
        header = request.headers["Authorization"]
        header = header.decode() if isinstance(header, bytes) else header
        if "oauth_body_hash=" not in header or 'realm="1234567_SB1"' not in header:
            failures.append("%s: no oauth_body_hash or realm sent: %s" % (what, header))
        expect(what, requests.Session().send(request), 200)
        hashed += 1
        request = requests.Request("POST", base + "/services/rest/record/v1/customer",
                                   json={"companyName": "A"}, auth=auth).prepare()
        request.body = request.body.replace(b'"A"', b'"B"')
        expect(what + ", body changed", requests.Session().send(request), 401)

    # Changed after signing: the query, the form body, the method; a wrong secret; a replay.
    auth = OAuth1(CONSUMER[0], CONSUMER[1], TOKEN[0], TOKEN[1])
    session = requests.Session()

    def prepared(verb, path, **kwargs):
        return requests.Request(verb, base + path, auth=auth, **kwargs).prepare()

    request = prepared("GET", "/photos", params={"size": "original"})
    request.url = request.url.replace("size=original", "size=large")
    expect("query changed", session.send(request), 401)

    request = prepared("POST", "/forms", data={"a": "1"})
    request.body = request.body + (b"&extra=1" if isinstance(request.body, bytes) else "&extra=1")
    request.headers["Content-Length"] = str(len(request.body))
    expect("form body changed", session.send(request), 401)

    request = prepared("PUT", "/things/1")
    request.method = "DELETE"
    expect("method changed", session.send(request), 401)

    wrong = OAuth1(CONSUMER[0], CONSUMER[1], TOKEN[0], "not the token secret")
    expect("wrong token secret", requests.get(base + "/photos", auth=wrong), 401)

    request = prepared("GET", "/photos")
    expect("first of a replay", session.send(request), 200)
    expect("replay", session.send(request), 401)

    # PLAINTEXT is refused by the server's default policy (and would be over plain http).
    plaintext = OAuth1(CONSUMER[0], CONSUMER[1], signature_method=SIGNATURE_PLAINTEXT)
    expect("PLAINTEXT over http", requests.get(base + "/photos", auth=plaintext), 400)

    # Unsigned: challenged (401 with WWW-Authenticate: OAuth realm=...), not malformed.
    unsigned = requests.get(base + "/photos")
    expect("unsigned", unsigned, 401)
    if not unsigned.headers.get("WWW-Authenticate", "").startswith("OAuth realm="):
        failures.append("unsigned: no OAuth challenge, WWW-Authenticate %r"
                        % unsigned.headers.get("WWW-Authenticate"))

    if failures:
        print("requests-oauthlib against the axum example: %d failures" % len(failures))
        for failure in failures:
            print("  " + failure)
        sys.exit(1)
    # 3 methods x 2 x (4 shapes in the header and the query, 3 in the body, GET excepted).
    expected = 3 * 2 * (4 + 4 + 2)
    if accepted != expected:
        print("only %d of %d requests were sent" % (accepted, expected))
        sys.exit(1)
    print("requests-oauthlib against the axum example: %d signed requests verified, "
          "%d with oauthlib's body hash; 10 changed or unsigned ones refused"
          % (accepted, hashed))


if __name__ == "__main__":
    main(sys.argv[1])
