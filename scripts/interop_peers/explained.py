"""What the client scripts share: ask `oauth1 explain` about a request a library signed, hold
its answer to the one the library's source gives, and report."""

import json
import subprocess
import sys


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

    def finish(self, done):
        """Prints the failures and exits 1, or says how many requests were `done`."""
        if self.failures:
            print("%s: %d failures" % (self.title, len(self.failures)))
            for failure in self.failures:
                print("  " + failure)
            sys.exit(1)
        print("%s: %d requests, %s" % (self.title, self.count, done))
