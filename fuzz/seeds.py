#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora from the fixtures: one file per input, under the
directory given (default target/fuzz-seeds), one subdirectory per target.

Run: python3 fuzz/seeds.py [DIR]   (stdlib only; scripts/fuzz runs it)
"""

import hashlib
import json
import pathlib
import sys
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
TARGETS = ["decode", "params", "base_uri", "plain_url", "header", "sign_line", "verify",
           "explain", "capture_curl", "capture_http", "capture_har", "agree"]


def load(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def main():
    out = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "target" / "fuzz-seeds"
    seeds = {target: set() for target in TARGETS}

    def add(target, data):
        seeds[target].add(data if isinstance(data, bytes) else data.encode("utf-8"))

    cases = load("published.json") + load("edge-cases.json") + load("explain.json")
    received = load("verify.json") + load("verify-published.json")

    for case in cases + received:
        url, body = case["url"], case.get("body", "")
        query = urllib.parse.urlsplit(url).query
        for text in (query, body):
            add("decode", text)
            add("params", text)
        add("base_uri", url)
        add("plain_url", url)
        header = case.get("authorization") or case.get("expected", {}).get("authorization")
        seed = "\0".join([case["method"], url, case.get("content_type", ""), body])
        add("verify", seed)
        if header:
            add("header", header)
            add("verify", seed + "\0" + header)

    # A request whose header carries its first query parameter again, or one of its own,
    # signed with and without them, or with a signature that is no one's.
    for case in cases + received:
        url, body = case["url"], case.get("body", "")
        query = urllib.parse.urlsplit(url).query
        first = query.split("&")[0] if query else ""
        for extras in ("", "x_extra=1%202", first):
            for how in ("signed", "unsigned", "AAAAAAAAAAAAAAAAAAAAAAAAAAA="):
                add("agree", "\0".join([case["method"], url, case.get("content_type", ""),
                                        body, extras, how]))

    for case in cases:
        # A sign --jsonl line is the case itself (`observed` belongs to explain lines).
        line = {k: v for k, v in case.items() if k != "observed"}
        add("sign_line", json.dumps(line, ensure_ascii=False))
        expected = case.get("expected", {})
        observed = case.get("observed", {})
        for reference in (expected.get("base_string"), observed.get("base_string")):
            if reference:
                add("explain", reference)
                add("explain", reference + "\n" + (observed.get("base_string") or ""))
        if observed.get("signature"):
            add("explain", observed["signature"])

    for row in load("percent-encoding.json"):
        add("decode", bytes.fromhex(row["input_hex"]))
        add("decode", row["encoded"])

    # Captured requests: the curl commands and raw requests of fixtures/captures.
    for path in sorted((FIXTURES / "captures").iterdir()):
        target = {".http": "capture_http", ".har": "capture_har"}.get(path.suffix, "capture_curl")
        add(target, path.read_bytes())
    add("capture_curl", "curl -sSL -XPOST $'https://a.example/\\u00e9' -G -d a=1 --data-urlencode 'b=c d'")

    # The signer's header for arbitrary credentials: key, token, nonce, realm on lines.
    add("header", "key\ntoken\nnonce\nPhotos \"Album\"")

    for target, inputs in seeds.items():
        directory = out / target
        directory.mkdir(parents=True, exist_ok=True)
        for data in inputs:
            (directory / hashlib.sha1(data).hexdigest()).write_bytes(data)
        print(f"{target}: {len(inputs)} seeds in {directory}")


if __name__ == "__main__":
    main()
