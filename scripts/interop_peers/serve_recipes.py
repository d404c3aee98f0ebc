"""The recipes of docs/command-line.md for testing a client against `oauth1 serve`, run as a
reader would run them: the pytest one with pytest and requests-oauthlib, the node:test one with
Node and the npm package oauth-1.0a, each taken from the page as written, with this
repository's `oauth1` first on PATH. (The cargo test recipe is scripts/readme-recipes'.)

Usage: serve_recipes.py OAUTH1_BINARY NODE_PEERS_DIRECTORY
"""

import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]


def recipe(page, after, language):
    """The first ```language block after the text `after`."""
    start = page.index(after)
    found = re.search(r"```%s\n(.*?)```" % language, page[start:], re.S)
    if not found:
        sys.exit("docs/command-line.md: no ```%s block after %r" % (language, after))
    return found.group(1)


def main(oauth1, node_peers):
    page = (ROOT / "docs" / "command-line.md").read_text()
    env = dict(os.environ, PATH=str(pathlib.Path(oauth1).resolve().parent) + os.pathsep + os.environ["PATH"])
    failures = []
    with tempfile.TemporaryDirectory() as directory:
        test = pathlib.Path(directory) / "test_provider.py"
        test.write_text(recipe(page, "With pytest", "python"))
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test)],
                             env=env, capture_output=True, text=True, cwd=directory, timeout=120)
        if run.returncode != 0:
            failures.append("the pytest recipe: %s%s" % (run.stdout[-2000:], run.stderr[-2000:]))
    # Beside the npm peers' node_modules, where `import OAuth from "oauth-1.0a"` resolves.
    test = pathlib.Path(node_peers) / ".serve-recipe.test.mjs"
    try:
        test.write_text(recipe(page, "With `node:test`", "js"))
        run = subprocess.run(["node", "--test", str(test)], env=env, capture_output=True, text=True,
                             timeout=120)
        if run.returncode != 0:
            failures.append("the node:test recipe: %s%s" % (run.stdout[-2000:], run.stderr[-2000:]))
    finally:
        test.unlink(missing_ok=True)
    if failures:
        sys.exit("\n".join(failures))
    print("docs/command-line.md's pytest and node:test recipes pass against oauth1 serve")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
