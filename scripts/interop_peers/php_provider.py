"""`oauth1 send` against PHP's pecl OAuth 2.0.7 OAuthProvider (foreign/oauth_provider.php),
running on loopback at the URL given: every shape of request (a query with `+`, `%20`, `~`,
`*`, raw and encoded UTF-8, an empty value; a form body), with HMAC-SHA1 and HMAC-SHA256, in
each transport, must be accepted. Two deviations of the provider's are held as they are: it
keys its HMAC with the secrets not percent-encoded, which `oauth1 probe` must find
(`key-secrets-not-encoded`); and it reads no PUT form body, so an RFC 5849 PUT is refused.

Usage: php_provider.py PATH/TO/oauth1 URL
"""

import json
import subprocess
import sys

from explained import conclude

PLAIN = {"OAUTH1_CONSUMER_SECRET": "plain-secret", "OAUTH1_TOKEN_SECRET": "plain-token-secret"}
ENCODED = {"OAUTH1_CONSUMER_SECRET": "consumer secret & ünïcode", "OAUTH1_TOKEN_SECRET": "token secret / +%"}
# (method, path and query, form body or None)
SHAPES = [
    ("GET", "/r?q=a+b&s=two%20words&t=~&u=*&e=", None),
    ("GET", "/r?raw=é✓&enc=%C3%A9%E2%9C%93", None),
    ("POST", "/r?q=1", "status=Hello%20Ladies%20%2B%20Gentlemen&t=%E2%9C%93&e="),
    ("DELETE", "/r/things/1?x=%7E%2A", None),
]


def send(oauth1, env, url, method, body, extra=()):
    args = [oauth1, "send", "--allow-plaintext-over-http", "--consumer-key",
            "plain-consumer" if env is PLAIN else "php-consumer", "--token",
            "plain-token" if env is PLAIN else "php-token", "-X", method, *extra, url]
    if body is not None:
        args[2:2] = ["-d", body]
    return subprocess.run(args, env=env, capture_output=True, text=True)


def main(oauth1, origin):
    failures, count = [], 0
    for signature_method in ("HMAC-SHA1", "HMAC-SHA256"):
        for transport in ("header", "query", "body"):
            for method, path, body in SHAPES:
                if transport == "body" and body is None:
                    continue
                count += 1
                what = "%s %s %s %s %s" % (signature_method, transport, method, path, body)
                run = send(oauth1, PLAIN, origin + path, method, body,
                           ("--signature-method", signature_method, "--transport", transport))
                try:
                    answer = json.loads(run.stdout)
                except ValueError:
                    answer = None
                if run.returncode != 0 or not answer or answer.get("signature_method") != signature_method:
                    failures.append("%s: %s %s" % (what, run.stdout.strip(), run.stderr.strip()))
    count += 1
    run = send(oauth1, PLAIN, origin + "/r/things/1", "PUT", "a=1")
    if run.returncode == 0:
        failures.append("a PUT form was accepted: the provider reads PUT bodies now? %s" % run.stdout)
    count += 1
    run = subprocess.run([oauth1, "probe", "--json", "--interval", "0", "--url", origin + "/r?a=1",
                          "--consumer-key", "php-consumer", "--token", "php-token"],
                         env=ENCODED, capture_output=True, text=True)
    try:
        found = json.loads(run.stdout)
    except ValueError:
        found = {}
    if found.get("verdict") != "found" or found.get("causes") != ["key-secrets-not-encoded"]:
        failures.append("oauth1 probe with secrets to encode: %s %s" % (run.stdout.strip(), run.stderr.strip()))
    conclude("oauth1 send and probe against PHP's OAuthProvider", failures,
             "%d requests accepted or refused as the provider computes" % count)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
