"""What the client scripts share: ask `oauth1 explain` about a request a library signed, hold
its answer to the one the library's source gives; have `oauth1 verify` check the same request,
which must accept it exactly when the tests' own RFC 5849 oracle (rfc5849.py) says its signature
is correct; and report."""

import json
import pathlib
import re
import subprocess
import sys
import tempfile
from urllib.parse import parse_qsl, unquote

import rfc5849

PUBLISHED = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "published.json"
# The oracle is held to the published vectors before it judges anything.
rfc5849.check_published(PUBLISHED)


def conclude(title, failures, passed):
    """Prints `failures` under `title` and exits 1, or prints `title: passed`."""
    if failures:
        print("%s: %d failures" % (title, len(failures)))
        for failure in failures:
            print("  " + failure)
        sys.exit(1)
    print("%s: %s" % (title, passed))


class Checks:
    """The answers checked so far, and the ones that differ."""

    def __init__(self, title):
        self.title = title
        self.failures = []
        self.count = 0
        self.verified = 0
        self.correct = 0

    def expect(self, what, args, env, verdict, causes, shown=""):
        """Runs `args` (an `oauth1 explain --json` command) with `env`; its verdict and causes
        (with the alternatives after them) must be `verdict` and `causes`. `what` names the request, `shown` is printed with a
        failure."""
        self.count += 1
        run = subprocess.run(args, env=env, capture_output=True, text=True)
        try:
            answer = json.loads(run.stdout)
        except ValueError:
            self.failures.append("%s: oauth1 explain failed: %s" % (what, run.stderr.strip()))
            return
        # Every cause that reproduces the value: the explanation, then its alternatives (the
        # split itself is held to fixtures/explain.json by the crates' tests).
        got = (answer.get("verdict"), answer.get("causes", []) + answer.get("alternatives", []))
        if got != (verdict, causes):
            self.failures.append("%s: %s %s, expected %s %s\n    %s"
                                 % (what, got[0], got[1], verdict, causes, shown))
        self.verify(what, args, env)

    def verify(self, what, args, env):
        """`oauth1 verify` of the request the explain command `args` describes, with the
        secrets of `env` (or the public key of its private key): accepted exactly when the
        RFC 5849 oracle says the signature is correct."""
        request, flags = request_of(args, env)
        if request is None:
            return
        want = rfc5849.correct(request)
        with tempfile.NamedTemporaryFile("w", suffix=".pem") as public:
            if request.get("public_key_pem"):
                public.write(request["public_key_pem"])
                public.flush()
                flags += ["--public-key-file", public.name]
            run = subprocess.run([args[0], "verify"] + flags, env=env, capture_output=True, text=True)
        self.verified += 1
        self.correct += want
        if (run.returncode == 0) != want:
            self.failures.append("%s: oauth1 verify %s a signature the RFC 5849 oracle calls %s\n    %s"
                                 % (what, "accepts" if run.returncode == 0 else "refuses",
                                    "wrong" if not want else "correct", run.stdout.strip()))

    def expect_signed(self, what, args, env, expected):
        """Runs `args` (an `oauth1 sign --profile …` command) with `env`; the protocol
        parameters it sends (its `authorization:` line, or those of its `url:` or `body:` line)
        must be `expected`'s, a dict of decoded names and values, the signature among them."""
        self.count += 1
        run = subprocess.run(args, env=env, capture_output=True, text=True)
        lines = dict(line.split(":", 1) for line in run.stdout.splitlines() if ":" in line)
        if "authorization" in lines:
            got = header_params(lines["authorization"].strip())
        elif "url" in lines:
            query = lines["url"].strip().split("?", 1)[1]
            got = {k: v for k, v in parse_qsl(query, keep_blank_values=True) if k.startswith("oauth_")}
        elif "body" in lines:
            body = lines["body"].strip()
            got = {k: v for k, v in parse_qsl(body, keep_blank_values=True) if k.startswith("oauth_")}
        else:
            self.failures.append("%s: oauth1 sign failed: %s" % (what, run.stderr.strip()))
            return
        if got != expected:
            self.failures.append("%s: oauth1 sign sent %s\n    expected %s" % (what, got, expected))

    def expect_valid(self, what, args, env):
        """Runs `args` (an `oauth1 verify` command) with `env`: it must say the request is valid."""
        self.count += 1
        run = subprocess.run(args, env=env, capture_output=True, text=True)
        if run.returncode != 0 or not run.stdout.startswith("valid\n"):
            self.failures.append("%s: %s %s" % (what, run.stdout.strip(), run.stderr.strip()))

    def finish(self, done):
        """Prints the failures and exits 1, or says how many requests were `done`."""
        verified = ""
        if self.verified:
            verified = ("; oauth1 verify accepts the %d of %d whose signature the RFC 5849 oracle"
                        " calls correct and refuses the others" % (self.correct, self.verified))
        conclude(self.title, self.failures, "%d requests, %s%s" % (self.count, done, verified))

def header_params(header):
    """The parameters of an `Authorization: OAuth …` header, decoded, `realm` among them."""
    assert header.startswith("OAuth "), header
    return {name: unquote(value) for name, value in re.findall(r'([\w-]+)="([^"]*)"', header)}


def request_of(args, env):
    """The request an `oauth1 explain` command describes, as the oracle takes it, and the flags
    that give it to `oauth1 verify`; (None, None) for a command that gives more than the request
    as sent."""
    given = {}
    rest = [a for a in args[2:] if a != "--json"]
    if len(rest) % 2:
        return None, None
    for flag, value in zip(rest[::2], rest[1::2]):
        given[flag] = value
    known = {"--method", "--url", "--authorization", "--content-type", "--body", "--private-key-file"}
    if set(given) - known or "--url" not in given:
        return None, None
    public_key_pem = None
    if "--private-key-file" in given:
        from cryptography.hazmat.primitives import serialization
        with open(given["--private-key-file"], "rb") as pem:
            private = serialization.load_pem_private_key(pem.read(), password=None)
        public_key_pem = private.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    request = {
        "method": given.get("--method", "GET"), "url": given["--url"],
        "content_type": given.get("--content-type"), "body": given.get("--body"),
        "authorization": given.get("--authorization"),
        "consumer_secret": env.get("OAUTH1_CONSUMER_SECRET"),
        "token_secret": env.get("OAUTH1_TOKEN_SECRET"), "public_key_pem": public_key_pem,
    }
    flags = []
    for flag in ("--method", "--url", "--authorization", "--content-type", "--body"):
        if flag in given:
            flags += [flag, given[flag]]
    return request, flags
