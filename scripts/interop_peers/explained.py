"""What the client scripts share: ask `oauth1 explain` about a request a library signed, hold
its answer to the one the library's source gives, and report."""

import json
import re
import subprocess
import sys
from urllib.parse import parse_qsl, unquote


class Checks:
    """The answers checked so far, and the ones that differ."""

    def __init__(self, title):
        self.title = title
        self.failures = []
        self.count = 0

    def expect(self, what, args, env, verdict, causes, shown=""):
        """Runs `args` (an `oauth1 explain --json` command) with `env`; its verdict and causes
        must be `verdict` and `causes`. `what` names the request, `shown` is printed with a
        failure."""
        self.count += 1
        run = subprocess.run(args, env=env, capture_output=True, text=True)
        try:
            answer = json.loads(run.stdout)
        except ValueError:
            self.failures.append("%s: oauth1 explain failed: %s" % (what, run.stderr.strip()))
            return
        got = (answer.get("verdict"), answer.get("causes"))
        if got != (verdict, causes):
            self.failures.append("%s: %s %s, expected %s %s\n    %s"
                                 % (what, got[0], got[1], verdict, causes, shown))

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

    def finish(self, done):
        """Prints the failures and exits 1, or says how many requests were `done`."""
        if self.failures:
            print("%s: %d failures" % (self.title, len(self.failures)))
            for failure in self.failures:
                print("  " + failure)
            sys.exit(1)
        print("%s: %d requests, %s" % (self.title, self.count, done))


def header_params(header):
    """The parameters of an `Authorization: OAuth …` header, decoded, `realm` among them."""
    assert header.startswith("OAuth "), header
    return {name: unquote(value) for name, value in re.findall(r'([\w-]+)="([^"]*)"', header)}
