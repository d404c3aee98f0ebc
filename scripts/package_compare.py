"""Holds an installed `oauth1` (from a package) to the Rust command line built from this
repository: both are run on the same arguments, standard input and environment, and their exit
status, standard output and standard error must be the same, byte for byte. The runs: every
signing fixture through `sign --jsonl`, every verify fixture through `verify --jsonl`, every
explain fixture through `explain --jsonl`, every capture in fixtures/captures through `explain`
(text and `--json`) with the secrets of the RFC and of the X API, `encode`, and each command's
`--help`. It first checks that no Rust toolchain is on PATH. Then the installed `oauth1 serve`
serves: the installed `oauth1 send` gets a 200 from it, and a 401 that names the diagnosis
when it signs with another secret, and the server stops on SIGINT.

With --without-network (the npm package, whose command is the Rust one compiled for WASI), the
commands that reach the network (probe, send, authorize, serve) are left out, and with them the top
level's `--help`, which lists them; the package's own test checks what it says of them.

Usage: package_compare.py [--without-network] PATH/TO/installed/oauth1 PATH/TO/rust/oauth1
"""

import json
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
SECRETS = [
    {"OAUTH1_CONSUMER_SECRET": "kd94hf93k423kf44", "OAUTH1_TOKEN_SECRET": "pfkkdhi9sl3r4s00"},
    {"OAUTH1_CONSUMER_SECRET": "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
     "OAUTH1_TOKEN_SECRET": "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE"},
]


def jsonl(name):
    """A fixture file (a JSON array) as JSON lines."""
    return "".join(json.dumps(line) + "\n" for line in json.loads((FIXTURES / name).read_text()))


NETWORK = ("probe", "send", "authorize", "serve")


def runs(network=True):
    """(what, arguments, standard input, extra environment) of every comparison."""
    for name in ("published.json", "edge-cases.json", "bench.json"):
        yield "sign --jsonl < " + name, ["sign", "--jsonl"], jsonl(name), {}
    for name in ("verify-published.json", "verify.json"):
        yield "verify --jsonl < " + name, ["verify", "--jsonl"], jsonl(name), {}
    for name in ("explain.json", "explain-origin-form.json"):
        yield "explain --jsonl < " + name, ["explain", "--jsonl"], jsonl(name), {}
    for capture in sorted((FIXTURES / "captures").iterdir()):
        flag = {".curl": "--curl", ".http": "--http", ".har": "--har"}[capture.suffix]
        given = capture.read_text() if flag == "--curl" else str(capture)
        for i, secrets in enumerate(SECRETS):
            for output in ([], ["--json"]):
                yield ("explain %s %s%s (secrets %d)" % (flag, capture.name, " --json" if output else "", i),
                       ["explain", flag, given] + output, "", secrets)
    for value in ("Ladies + Gentlemen", "~!*'()", "é✓ /?"):
        yield "encode " + value, ["encode", value], "", {}
    for command in ("", "sign", "verify", "explain", "probe", "send", "authorize", "serve", "encode"):
        if not network and command in ("",) + NETWORK:
            continue
        args = ([command] if command else []) + ["--help"]
        yield "oauth1 " + " ".join(args), args, "", {}


def main(installed, reference, network=True):
    rust = [tool for tool in ("cargo", "rustc", "rustup") if shutil.which(tool)]
    if rust:
        sys.exit("a Rust toolchain is on PATH (%s): the package must run without one" % ", ".join(rust))
    base = {"PATH": "/usr/bin:/bin"}
    failures, count = [], 0
    for what, args, stdin, env in runs(network):
        count += 1
        got = [subprocess.run([binary] + args, input=stdin, env=dict(base, **env),
                              capture_output=True, text=True)
               for binary in (installed, reference)]
        (a, b) = [(r.returncode, r.stdout, r.stderr) for r in got]
        if a != b:
            failures.append("%s: the package answers %r, the Rust command line %r"
                            % (what, (a[0], a[1][:300], a[2][:300]), (b[0], b[1][:300], b[2][:300])))
    if network:
        failures += serves(installed, base)
    if failures:
        print("%d of %d runs differ:" % (len(failures), count))
        for failure in failures:
            print("  " + failure)
        sys.exit(1)
    print("the package's oauth1 answers %d runs as the Rust command line does" % count)


def serves(installed, base):
    """The installed `oauth1 serve` on a free loopback port, asked by the installed `oauth1
    send`: what differs from what it must answer."""
    import signal
    env = dict(base, OAUTH1_CONSUMER_SECRET="package secret")
    server = subprocess.Popen([installed, "serve", "--port", "0", "--consumer-key", "package"],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    failures = []
    try:
        first = server.stdout.readline()
        prefix = "oauth1 serve: listening on "
        if not first.startswith(prefix):
            return ["oauth1 serve printed %r first, not its origin" % first]
        url = first[len(prefix):].strip() + "/photos?size=original"
        for secret, status, said in [("package secret", 0, '"consumer_key": "package"'),
                                     ("another secret", 1, "no known mistake reproduces the client's signature")]:
            run = subprocess.run([installed, "send", "--consumer-key", "package", url],
                                 env=dict(env, OAUTH1_CONSUMER_SECRET=secret),
                                 capture_output=True, text=True, timeout=30)
            if run.returncode != status or said not in run.stdout + run.stderr:
                failures.append("oauth1 send with %r to oauth1 serve: %d %r %r"
                                % (secret, run.returncode, run.stdout[:300], run.stderr[:300]))
        server.send_signal(signal.SIGINT)
        if server.wait(timeout=10) != 0:
            failures.append("oauth1 serve ended with %d on SIGINT" % server.returncode)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    return failures


if __name__ == "__main__":
    arguments = sys.argv[1:]
    without = "--without-network" in arguments
    arguments = [a for a in arguments if a != "--without-network"]
    main(arguments[0], arguments[1], network=not without)
