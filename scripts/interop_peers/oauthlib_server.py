"""A loopback server that verifies OAuth 1.0a requests with oauthlib's SignatureOnlyEndpoint.

It answers 200 with a JSON description of the verified request (consumer key, token, signature
method, the body it received), or 401 with oauthlib's verdict. It prints the URL it listens on
as its first line of output, and serves until it is stopped.

The credentials are the interop set below; the RSA public key is the one of RFC 5849's test
key in the fixtures.
"""

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import traceback

from oauthlib import oauth1 as sig
from oauthlib.oauth1 import RequestValidator, SignatureOnlyEndpoint

# The second pair's secrets have nothing to percent-encode: oauthlib decodes oauth_* values from
# the query and the form body twice, which breaks PLAINTEXT signatures of secrets that do.
CONSUMERS = {"interop-consumer": "consumer secret & ünïcode", "plain-consumer": "plain-secret"}
TOKENS = {
    ("interop-consumer", "interop-token"): "token secret / +%",
    ("plain-consumer", "plain-token"): "plain-token-secret",
}


class Validator(RequestValidator):
    def __init__(self, rsa_public_key=None):
        super().__init__()
        self.rsa_public_key = rsa_public_key
        self.seen = set()
        self.lock = threading.Lock()

    enforce_ssl = False

    @property
    def allowed_signature_methods(self):
        return (
            sig.SIGNATURE_HMAC_SHA1,
            sig.SIGNATURE_HMAC_SHA256,
            sig.SIGNATURE_HMAC_SHA512,
            sig.SIGNATURE_RSA_SHA1,
            sig.SIGNATURE_RSA_SHA256,
            sig.SIGNATURE_PLAINTEXT,
        )

    # The format checks default to 20-30 characters; the interop keys are shorter.
    def check_client_key(self, client_key):
        return 1 <= len(client_key) <= 64

    def check_nonce(self, nonce):
        return 8 <= len(nonce) <= 64

    @property
    def dummy_client(self):
        return "dummy-consumer"

    @property
    def dummy_access_token(self):
        return "dummy-token"

    def validate_client_key(self, client_key, request):
        return client_key in CONSUMERS

    def get_client_secret(self, client_key, request):
        return CONSUMERS.get(client_key, "dummy secret")

    def validate_access_token(self, client_key, token, request):
        return (client_key, token) in TOKENS

    def get_access_token_secret(self, client_key, token, request):
        return TOKENS.get((client_key, token), "dummy token secret")

    def get_rsa_key(self, client_key, request):
        return self.rsa_public_key

    def validate_timestamp_and_nonce(self, client_key, timestamp, nonce, request,
                                     request_token=None, access_token=None):
        key = (client_key, timestamp, nonce, access_token or request.resource_owner_key)
        with self.lock:
            if key in self.seen:
                return False
            self.seen.add(key)
            return True


def make_handler(endpoint):
    class Handler(BaseHTTPRequestHandler):
        def handle_any(self):
            try:
                self.verify()
            except Exception:
                self.answer(500, {"error": traceback.format_exc()})

        def verify(self):
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            uri = "http://%s%s" % (self.headers["Host"], self.path)
            headers = {k: v for k, v in self.headers.items()}
            try:
                body = raw.decode("utf-8")
            except UnicodeDecodeError:
                self.answer(400, {"error": "body is not UTF-8"})
                return
            valid, request = endpoint.validate_request(uri, self.command, body or None, headers)
            if not valid:
                log = request.validator_log if request is not None else {}
                self.answer(401, {"valid": False, "log": {k: bool(v) for k, v in log.items()}})
                return
            self.answer(200, {
                "valid": True,
                "consumer_key": request.client_key,
                "token": request.resource_owner_key,
                "signature_method": request.signature_method,
                "body": body,
            })

        def answer(self, status, payload):
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = handle_any

        def log_message(self, format, *args):
            pass

    return Handler


def main():
    rsa_public_key = None
    if len(sys.argv) > 1:
        from cryptography.hazmat.primitives import serialization
        with open(sys.argv[1], "rb") as f:
            private = serialization.load_pem_private_key(f.read(), password=None)
        rsa_public_key = private.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        ).decode()
    endpoint = SignatureOnlyEndpoint(Validator(rsa_public_key))
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(endpoint))
    print("http://127.0.0.1:%d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
