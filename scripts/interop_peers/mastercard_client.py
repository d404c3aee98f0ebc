"""Mastercard's own signer for Python (`mastercard-oauth1-signer`) signs requests as its code
does, and `oauth1 explain` names what it does differently from RFC 5849, given the request and
the Authorization header it made, with the private key.

What its source does (oauth1/oauth.py and coreutils.py, 1.9.2): RSA-SHA256, oauth_body_hash
on every request (SHA-256 of the body, of the empty string for a GET), and the protocol
parameters' values put into the parameter string as they are, so that they are encoded once,
in the base string, where RFC 5849 encodes them twice (`protocol-values-encoded-once`: the
body hash's + / =, a consumer key's !). A form body is hashed like any other, and its
parameters left unsigned (`form-body-hashed`). A query without a percent-escape goes into the
parameter string as `parse_qsl` read it, each space written back as `+`, and is encoded once
(`unescaped-query-encoded-once`: `q=a+b`, `! * ' ( )`); a query with one is decoded and encoded
as RFC 5849 says (`normalize_params`).

Usage: mastercard_client.py PATH/TO/oauth1 PATH/TO/private-key.pem
"""

import json
import sys
import tempfile

from cryptography.hazmat.primitives import serialization
from oauth1.oauth import OAuth

from explained import Checks, header_params

# The shape of a Mastercard consumer key: its ! is a reserved character.
KEY = "L5BsiPgaF-O3qA36znUATgQXwJB6MRoMSdhjd7wt50c97279!50596e52466e3966546d434b7354584c4975693238513d3d"
API = "https://sandbox.api.mastercard.example"

ONCE = ["protocol-values-encoded-once"]
# (method, path and query, payload or None, its Content-Type, the causes explain must name)
SHAPES = [
    ("GET", "/atms/v1/atm?Country=USA&PageLength=10", None, None, ONCE),
    ("GET", "/locations/v1/merchants?PostalCode=a%2Fb&Country=USA", None, None, ONCE),
    ("POST", "/fraud/v1/cases?x=1", {"caseId": "A-1", "note": "Ünïcode & + /"}, "application/json", ONCE),
    ("POST", "/tokens/v1/forms", "a=1&note=two%20words", "application/x-www-form-urlencoded",
     ONCE + ["form-body-hashed"]),
    # A query without escapes, encoded once; explain names the commonest pair that reproduces
    # the signature: here a space encoded as + is the same bytes as the + sent,
    ("GET", "/atms/v1/atm?q=a+b&Country=USA", None, None, ["plus-for-space"] + ONCE),
    # and ! * ' ( ) left unencoded, with + / = (the body hash's) and ! (the key's), the same as
    # the query encoded once beside the protocol values.
    ("GET", "/atms/v1/atm?x=!*'()&y=~", None, None, ["unencoded-sub-delims", "reserved-unencoded"]),
    ("GET", "/atms/v1/atm?note=a+b&x=(1)*2", None, None, ONCE + ["unescaped-query-encoded-once"]),
    # With an escape, the query is decoded and encoded as RFC 5849 says.
    ("GET", "/atms/v1/atm?q=a+b&r=%21", None, None, ONCE),
]


def main(oauth1, pem_path):
    with open(pem_path, "rb") as pem:
        key = serialization.load_pem_private_key(pem.read(), password=None)
    public = tempfile.NamedTemporaryFile("wb", suffix=".pem")
    public.write(key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    public.flush()
    public_path = public.name
    checks = Checks("Mastercard's signer against oauth1 explain")
    for method, path, payload, content_type, causes in SHAPES:
        url = API + path
        header = OAuth.get_authorization_header(url, method, payload, KEY, key)
        args = [oauth1, "explain", "--json", "--method", method, "--url", url,
                "--authorization", header, "--private-key-file", pem_path]
        if payload is not None:
            # The body as the signer hashed it, as a client sends it.
            body = payload if isinstance(payload, str) else json.dumps(payload)
            args += ["--content-type", content_type, "--body", body]
        checks.expect("%s %s" % (method, path), args, {}, "explained", causes, header)
        # The profile signs as the signer does, byte for byte (PKCS#1 v1.5 is deterministic),
        # given the nonce and timestamp the signer drew.
        sent = header_params(header)
        profile = [oauth1, "sign", "--profile", "mastercard", "--consumer-key", KEY,
                   "--private-key-file", pem_path, "--nonce", sent["oauth_nonce"],
                   "--timestamp", sent["oauth_timestamp"], "--method", method, "--url", url]
        if payload is not None:
            profile += ["--content-type", content_type, "--body", body]
        checks.expect_signed("--profile mastercard %s %s" % (method, path), profile, {}, sent)
        # And a server that computes as Mastercard's gateway does accepts it, with the public key.
        verify = [oauth1, "verify", "--profile", "mastercard", "--public-key-file", public_path,
                  "--method", method, "--url", url, "--authorization", header]
        if payload is not None:
            verify += ["--content-type", content_type, "--body", body]
        checks.expect_valid("oauth1 verify --profile mastercard %s %s" % (method, path), verify, {})
    checks.finish("each named, each signed alike by --profile mastercard and accepted by verify --profile mastercard")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
