"""An RFC 5849 oracle of the tests' own, written from the RFC and the Body Hash draft (not from
this crate): whether a request's signature is correct.

- Parameters (§3.4.1.3.1): the query and, for a body whose Content-Type is
  application/x-www-form-urlencoded, the body, each decoded as a form (`+` a space); the
  `oauth_*` parameters of the Authorization header (§3.5.1), `realm` left out; `oauth_signature`
  left out wherever it is.
- Normalization (§3.4.1.3.2): names and values percent-encoded (§3.6: UTF-8, every byte but
  A-Z a-z 0-9 - . _ ~ as upper-case %XX), sorted by name then value, joined.
- Base string URI (§3.4.1.2): scheme and host in lower case, the port unless the scheme's
  default, the path as sent.
- Key (§3.4.2): enc(consumer secret) & enc(token secret), the token secret empty when no
  oauth_token is sent; HMAC-SHA1 (§3.4.2), its SHA-256 and
  SHA-512 siblings, PLAINTEXT (§3.4.4: the key), RSA-SHA1 (§3.4.3) and RSA-SHA256 (PKCS#1 v1.5).
- oauth_body_hash (draft-eaton-oauth-bodyhash-00): never with a form body; otherwise base64 of
  the body's SHA-1 (the draft's digest), or of the signature method's digest (SHA-256 for the
  *-SHA256 methods, SHA-512 for HMAC-SHA512).

Usage as a program: a JSON request on standard input ({"method", "url", "content_type", "body",
"authorization", "consumer_secret", "token_secret", "public_key_pem"}); prints true or false.
"""

import base64
import hashlib
import hmac
import json
import re
import sys
from urllib.parse import unquote, unquote_plus, urlsplit

UNRESERVED = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
DIGESTS = {"SHA1": hashlib.sha1, "SHA256": hashlib.sha256, "SHA512": hashlib.sha512}


def enc(text):
    data = text.encode("utf-8") if isinstance(text, str) else text
    return "".join(chr(b) if b in UNRESERVED else "%%%02X" % b for b in data)


def form_pairs(text):
    pairs = []
    for item in text.split("&"):
        if item:
            name, _, value = item.partition("=")
            pairs.append((unquote_plus(name), unquote_plus(value)))
    return pairs


def header_pairs(header):
    if not header or not header[:6].lower() == "oauth ":
        return []
    found = re.findall(r'([A-Za-z0-9_\-]+)\s*=\s*"([^"]*)"', header[6:])
    return [(name, unquote(value)) for name, value in found if name != "realm"]


def is_form(content_type):
    return (content_type or "").split(";")[0].strip().lower() == "application/x-www-form-urlencoded"


def base_uri(url):
    parts = urlsplit(url)
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    port = parts.port
    default = {"http": 80, "https": 443}[scheme]
    authority = host if port in (None, default) else "%s:%d" % (host, port)
    return "%s://%s%s" % (scheme, authority, parts.path or "/")


def correct(request):
    """Whether `request` (the dict the module's docstring describes) is signed correctly."""
    method, url = request["method"], request["url"]
    body = request.get("body") or ""
    content_type = request.get("content_type")
    params = form_pairs(urlsplit(url).query)
    if is_form(content_type):
        params += form_pairs(body)
    params += header_pairs(request.get("authorization"))
    values = dict(params)
    sent = [v for n, v in params if n == "oauth_signature"]
    signature_method = values.get("oauth_signature_method", "")
    if len(sent) != 1 or not signature_method:
        return False
    params = [(n, v) for n, v in params if n != "oauth_signature"]
    if "oauth_body_hash" in values:
        if is_form(content_type):
            return False
        digest = signature_method.split("-")[-1]
        hashes = {base64.b64encode(hashlib.sha1(body.encode()).digest()).decode()}
        if digest in DIGESTS:
            hashes.add(base64.b64encode(DIGESTS[digest](body.encode()).digest()).decode())
        if values["oauth_body_hash"] not in hashes:
            return False
    normalized = "&".join("%s=%s" % pair for pair in sorted((enc(n), enc(v)) for n, v in params))
    base = "&".join([enc(method.upper()), enc(base_uri(url)), enc(normalized)])
    # The token secret is the presented token's: none without oauth_token (§3.4.2).
    token_secret = (request.get("token_secret") or "") if values.get("oauth_token") else ""
    key = enc(request.get("consumer_secret") or "") + "&" + enc(token_secret)
    if signature_method == "PLAINTEXT":
        return hmac.compare_digest(sent[0], key)
    if signature_method.startswith("HMAC-") and signature_method[5:] in DIGESTS:
        mac = hmac.new(key.encode(), base.encode(), DIGESTS[signature_method[5:]]).digest()
        return hmac.compare_digest(sent[0], base64.b64encode(mac).decode())
    if signature_method in ("RSA-SHA1", "RSA-SHA256") and request.get("public_key_pem"):
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import padding
        key = serialization.load_pem_public_key(request["public_key_pem"].encode())
        algorithm = hashes.SHA1() if signature_method == "RSA-SHA1" else hashes.SHA256()
        try:
            key.verify(base64.b64decode(sent[0]), base.encode(), padding.PKCS1v15(), algorithm)
            return True
        except (InvalidSignature, ValueError):
            return False
    return False


if __name__ == "__main__":
    print(json.dumps(correct(json.load(sys.stdin))))


def check_published(path):
    """The oracle against the published vectors (fixtures/published.json): each request, its
    published signature sent in the header, is correct, and with one character of the
    signature changed, is not. Returns how many were checked."""
    from cryptography.hazmat.primitives import serialization
    checked = 0
    for case in json.load(open(path)):
        signature = case.get("expected", {}).get("signature")
        if signature is None:
            continue
        oauth = [("oauth_consumer_key", case["consumer_key"]),
                 ("oauth_signature_method", case.get("signature_method") or "HMAC-SHA1"),
                 ("oauth_timestamp", case["timestamp"]), ("oauth_nonce", case["nonce"])]
        for field in ("token", "callback", "verifier"):
            if case.get(field) is not None:
                oauth.append(("oauth_" + field, case[field]))
        if case.get("version", "1.0") is not None:
            oauth.append(("oauth_version", "1.0"))
        public_key = None
        if case.get("private_key_pem"):
            private = serialization.load_pem_private_key(case["private_key_pem"].encode(), password=None)
            public_key = private.public_key().public_bytes(
                serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()
        for sent, want in ((signature, True), (signature[:-2] + ("A" if signature[-2] != "A" else "B") + signature[-1], False)):
            header = "OAuth " + ", ".join('%s="%s"' % (n, enc(v)) for n, v in oauth + [("oauth_signature", sent)])
            request = {"method": case["method"], "url": case["url"], "content_type": case.get("content_type"),
                       "body": case.get("body"), "authorization": header,
                       "consumer_secret": case.get("consumer_secret"), "token_secret": case.get("token_secret"),
                       "public_key_pem": public_key}
            assert correct(request) == want, (case["name"], sent, want)
        checked += 1
    return checked
