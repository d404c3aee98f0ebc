"""A loopback three-legged OAuth 1.0a provider built on oauthlib's own endpoints.

  POST /request_token      RequestTokenEndpoint (temporary credentials, with the callback)
  POST /request_token_unconfirmed
                           the same, with oauth_callback_confirmed taken out of the answer,
                           as providers that never send it answer
  GET  /authorize          AuthorizationEndpoint, approved at once by the test user "alice"
                           (a redirect to the callback, or the verifier itself for "oob")
  POST /access_token       AccessTokenEndpoint (token credentials, with the verifier)
  ANY  /resource           ResourceEndpoint: 200 with JSON naming the user and the token, or 401
  POST /upload             ResourceEndpoint over a multipart body (not signed): 200 with the
                           user and the sizes of the parts, or 401

  POST /problem            401 with a Problem Reporting body (consumer_key_rejected)
  POST /html               500 with an HTML page
  POST /slow               answers after 30 seconds

A form body is handed to oauthlib only when the Content-Type says it is a form, as RFC 5849
§3.4.1.3.1 says. The provider prints the URL it listens on as its first line of output and
serves until it is stopped. Two users hold ready token credentials: "alice" and "bob".
"""

import email.parser
import email.policy
import json
import secrets
import sys
import threading
import time
import traceback
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from oauthlib.oauth1 import (
    AccessTokenEndpoint,
    AuthorizationEndpoint,
    RequestTokenEndpoint,
    RequestValidator,
    ResourceEndpoint,
)

CONSUMER = ("provider-consumer-key", "provider consumer secret")
# Ready token credentials, by user.
USERS = {
    "alice": ("alice-token-0123456789ab", "alice's token secret"),
    "bob": ("bob-token-0123456789abcde", "bob's token secret"),
}


class Validator(RequestValidator):
    """Every credential in memory, for one consumer."""

    enforce_ssl = False

    def __init__(self):
        super().__init__()
        self.lock = threading.Lock()
        self.request_tokens = {}  # token -> {"secret", "callback", "verifier", "user"}
        self.access_tokens = {token: (user, secret) for user, (token, secret) in USERS.items()}
        self.nonces = set()

    # oauthlib's format checks default to 20-30 letters and digits; these keys have dashes.
    def check_client_key(self, client_key):
        return 1 <= len(client_key) <= 64

    def check_request_token(self, request_token):
        return 1 <= len(request_token) <= 64

    def check_access_token(self, access_token):
        return 1 <= len(access_token) <= 64

    def check_nonce(self, nonce):
        return 8 <= len(nonce) <= 64

    def check_verifier(self, verifier):
        return 1 <= len(verifier) <= 64

    @property
    def allowed_signature_methods(self):
        return ("HMAC-SHA1", "HMAC-SHA256", "HMAC-SHA512", "PLAINTEXT")

    @property
    def realms(self):
        return []

    @property
    def dummy_client(self):
        return "dummy-consumer-key-00000"

    @property
    def dummy_request_token(self):
        return "dummy-request-token-0000"

    @property
    def dummy_access_token(self):
        return "dummy-access-token-00000"

    def validate_client_key(self, client_key, request):
        return client_key == CONSUMER[0]

    def get_client_secret(self, client_key, request):
        return CONSUMER[1] if client_key == CONSUMER[0] else "dummy secret"

    def validate_timestamp_and_nonce(self, client_key, timestamp, nonce, request,
                                     request_token=None, access_token=None):
        key = (client_key, timestamp, nonce, request_token or access_token)
        with self.lock:
            if key in self.nonces:
                return False
            self.nonces.add(key)
            return True

    # Temporary credentials.
    def validate_redirect_uri(self, client_key, redirect_uri, request):
        return True

    def validate_requested_realms(self, client_key, realms, request):
        return True

    def get_default_realms(self, client_key, request):
        return []

    def save_request_token(self, token, request):
        with self.lock:
            self.request_tokens[token["oauth_token"]] = {
                "secret": token["oauth_token_secret"],
                "callback": request.redirect_uri,
            }

    # Authorization.
    def verify_request_token(self, token, request):
        return token in self.request_tokens

    def get_realms(self, token, request):
        return []

    def verify_realms(self, token, realms, request):
        return True

    def save_verifier(self, token, verifier, request):
        with self.lock:
            self.request_tokens[token]["verifier"] = verifier["oauth_verifier"]
            self.request_tokens[token]["user"] = "alice"

    def get_redirect_uri(self, token, request):
        return self.request_tokens[token]["callback"]

    # Token credentials.
    def validate_request_token(self, client_key, token, request):
        return token in self.request_tokens

    def get_request_token_secret(self, client_key, token, request):
        entry = self.request_tokens.get(token)
        return entry["secret"] if entry else "dummy request token secret"

    def validate_verifier(self, client_key, token, verifier, request):
        entry = self.request_tokens.get(token)
        return entry is not None and secrets.compare_digest(entry.get("verifier", ""), verifier)

    def invalidate_request_token(self, client_key, request_token, request):
        with self.lock:
            self.request_tokens.pop(request_token, None)

    def save_access_token(self, token, request):
        with self.lock:
            user = self.request_tokens[request.resource_owner_key]["user"]
            self.access_tokens[token["oauth_token"]] = (user, token["oauth_token_secret"])
        token["user"] = user

    # Resources.
    def validate_access_token(self, client_key, token, request):
        return token in self.access_tokens

    def get_access_token_secret(self, client_key, token, request):
        entry = self.access_tokens.get(token)
        return entry[1] if entry else "dummy access token secret"

    def validate_realms(self, client_key, token, request, uri=None, realms=None):
        return True


def make_handler(validator):
    request_token = RequestTokenEndpoint(validator)
    authorization = AuthorizationEndpoint(validator)
    access_token = AccessTokenEndpoint(validator)
    resource = ResourceEndpoint(validator)

    class Handler(BaseHTTPRequestHandler):
        def handle_any(self):
            try:
                self.route()
            except Exception:
                self.answer(500, {"Content-Type": "text/plain"}, traceback.format_exc())

        def route(self):
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            uri = "http://%s%s" % (self.headers["Host"], self.path)
            headers = {k: v for k, v in self.headers.items()}
            content_type = self.headers.get("Content-Type", "")
            form = content_type.split(";")[0].strip().lower() == "application/x-www-form-urlencoded"
            body = raw.decode("utf-8") if form else None
            path = urllib.parse.urlsplit(self.path).path

            if path == "/problem":
                self.answer(401, {"Content-Type": "application/x-www-form-urlencoded"},
                            "oauth_problem=consumer_key_rejected&oauth_problem_advice=Apply%20for%20a%20key")
            elif path == "/html":
                self.answer(500, {"Content-Type": "text/html"},
                            "<html><body><h1>Internal Server Error</h1></body></html>")
            elif path == "/slow":
                time.sleep(30)
                self.answer(200, {"Content-Type": "text/plain"}, "late")
            elif path in ("/request_token", "/request_token_unconfirmed"):
                h, b, s = request_token.create_request_token_response(
                    uri, self.command, body, headers)
                if path.endswith("unconfirmed") and s == 200:
                    pairs = [p for p in urllib.parse.parse_qsl(b) if p[0] != "oauth_callback_confirmed"]
                    b = urllib.parse.urlencode(pairs)
                self.answer(s, h, b)
            elif path == "/authorize":
                h, b, s = authorization.create_authorization_response(
                    uri, self.command, None, headers, credentials={"user": "alice"})
                self.answer(s, h, b)
            elif path == "/access_token":
                h, b, s = access_token.create_access_token_response(uri, self.command, body, headers)
                self.answer(s, h, b)
            elif path in ("/resource", "/upload"):
                valid, request = resource.validate_protected_resource_request(
                    uri, self.command, body, headers)
                if not valid:
                    self.answer(401, {"Content-Type": "application/json"},
                                json.dumps({"valid": False}))
                    return
                user = validator.access_tokens[request.resource_owner_key][0]
                payload = {"valid": True, "user": user, "token": request.resource_owner_key}
                if path == "/upload":
                    payload["parts"] = multipart_sizes(content_type, raw)
                self.answer(200, {"Content-Type": "application/json"}, json.dumps(payload))
            else:
                self.answer(404, {"Content-Type": "text/plain"}, "not found")

        def answer(self, status, headers, body):
            data = (body or "").encode()
            self.send_response(status)
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_DELETE = handle_any

        def log_message(self, format, *args):
            pass

    return Handler


def multipart_sizes(content_type, raw):
    """The size of each part of a multipart/form-data body, by its name."""
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + raw)
    return {
        part.get_param("name", header="content-disposition"): len(part.get_payload(decode=True))
        for part in message.iter_parts()
    }


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(Validator()))
    print("http://127.0.0.1:%d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
