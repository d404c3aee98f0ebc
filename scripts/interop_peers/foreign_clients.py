"""Six OAuth 1 client libraries in Perl, Ruby, PHP, C and Go, installed from Debian's packages
(pinned in scripts/interop), sign requests as their documentation shows (the programs in
foreign/, one request each, printing it as sent); `oauth1 explain` must answer each as the
library's source says it signs: `match` where it follows RFC 5849, and the cause of
docs/mismatch-causes.md where it does not. `oauth1 verify` must accept each request exactly when
the tests' RFC 5849 oracle calls its signature correct.

- Net::OAuth 0.28 (libnet-oauth-perl; Net/OAuth/Message.pm): reads the query with
  URI::QueryParam, whose values are bytes that uri_escape_utf8 encodes again
  (query-utf8-encoded-twice), and in scalar context, so a repeated name keeps its first value and
  the others go out unsigned (first-duplicate-kept); a query of one name without `=` is not
  signed (query-not-signed); the query's values overwrite the form's of the same name in
  one hash (form-body-not-signed); the base URI is the URI as written, query dropped
  (host-not-lowercased, default-port-kept, and no `/` for an empty path: trailing-slash-changed).
- The `oauth` gem 0.5.4 (ruby-oauth; oauth/helper.rb `normalize`): sorts the pairs before
  encoding them (sorted-before-encoding). No HMAC-SHA256.
- simple_oauth 0.3.1 (ruby-simple-oauth; simple_oauth/header.rb): reads the query with CGI.parse,
  which drops a name without `=` (parameter-not-signed; alone, query-not-signed). No HMAC-SHA256.
- PHP's pecl OAuth 2.0.7 (php-oauth): keeps a repeated query name's last value
  (duplicates-collapsed), `ids[]` too; signs `c@=2&c2=1` sorted by the decoded names
  (sorted-before-encoding); the query's value replaces the form's of the same name
  (form-body-not-signed); refuses a URL with an empty path.
- liboauth 1.0.3 (liboauth0): drops `:80` from the base URI but keeps `:443`
  (default-port-kept), and keeps the host's case (host-not-lowercased). HMAC-SHA1 only.
- mrjones/oauth 2017-02-25 (golang-github-mrjones-oauth-dev; oauth.go): the base URI from
  url.URL's Host and decoded Path (host-not-lowercased, default-port-kept, path-decoded,
  trailing-slash-changed); names put into the parameter string unencoded (names-not-encoded); a
  form body's parameters signed instead of the query's (query-not-signed); a repeated name
  refused ("Must have exactly one value per param").

A form's fields go to Net::OAuth, simple_oauth and pecl OAuth as their APIs take them, a hash
(Perl, Ruby) or an array (PHP), so a repeated field name reaches them once
(duplicates-collapsed): the library cannot be given it otherwise.

Usage: foreign_clients.py PATH/TO/oauth1 DIR/WITH/liboauth-and-mrjones_oauth
"""

import json
import pathlib
import subprocess
import sys

from explained import Checks

HERE = pathlib.Path(__file__).resolve().parent / "foreign"
CS, TS = "cs secret", "ts secret"
FORM = "application/x-www-form-urlencoded"
A = "https://api.example.com"

# Every client signs each of these (method, URL as written, form body or "").
COMMON = [
    ("GET", A + "/1/x?a=1&b=two%20words", ""),
    ("GET", A + "/1/x?r=~!*'()&s=%E2%9C%93", ""),
    ("GET", A + "/1/x?e=&f", ""),
    ("GET", A + "/1/x?f", ""),
    ("POST", A + "/1/x?a=1", "status=Hello%20Ladies%20%2B%20Gentlemen&t=%E2%9C%93"),
    ("POST", "https://api.example.com:8443/1/x", "a=1&b=0"),
    ("POST", A + "/1/x", "a=1&a=0"),
    ("GET", A + "/1/x?a=2&a=1", ""),
    ("GET", A + "/1/x?q=a+b", ""),
    ("GET", A + "/1/x?q=%2B1", ""),
    ("GET", "https://API.Example.com/1/x", ""),
    ("GET", "https://api.example.com:443/1/x", ""),
    ("GET", "http://api.example.com:80/1/x", ""),
    ("GET", A + "/1/x?first%20name=Ann%20Lee", ""),
    ("GET", A + "/1/x?next=a=b&q=1", ""),
    ("GET", A + "/1/x?ids[]=12&ids[]=34", ""),
    ("GET", A + "/1/x?ids%5B%5D=12", ""),
    ("GET", A + "/1/a%2Fb", ""),
    ("GET", A + "/1/caf%C3%A9", ""),
    ("GET", A + "/1/x?c@=2&c2=1", ""),
    ("GET", A + "/1/x?a.b=1&a%20c=2", ""),
    ("GET", A + "/1/x?x=%7E%21", ""),
    ("GET", A + "/1/x?x=%e2%9c%93", ""),
    ("GET", A, ""),
    ("GET", A + "/1/x/", ""),
    ("POST", A + "/1/x", "a=1&e="),
    ("POST", A + "/1/x?a=2", "a=1"),
    ("PUT", A + "/1/x", "n=%C3%A9"),
    ("DELETE", A + "/1/x/7", ""),
]
# Signed with HMAC-SHA256 too, by the clients that offer it.
SHA256 = [COMMON[0], COMMON[4], COMMON[5]]

DUPLICATE_FIELD = ("POST", A + "/1/x", "a=1&a=0")
# (client: {request: (verdict, causes) or "refused"}); every other request: match.
DEVIATIONS = {
    "Net::OAuth": {
        COMMON[1]: ("explained", ["query-utf8-encoded-twice"]),
        COMMON[22]: ("explained", ["query-utf8-encoded-twice"]),
        COMMON[3]: ("explained", ["query-not-signed", "empty-value-dropped"]),
        DUPLICATE_FIELD: ("explained", ["duplicates-collapsed", "parsed-as-php"]),
        COMMON[7]: ("explained", ["first-duplicate-kept"]),
        COMMON[15]: ("explained", ["first-duplicate-kept"]),
        COMMON[10]: ("explained", ["host-not-lowercased"]),
        COMMON[11]: ("explained", ["default-port-kept"]),
        COMMON[12]: ("explained", ["default-port-kept"]),
        COMMON[23]: ("explained", ["trailing-slash-changed"]),
        # The query's a=2 kept over the form's a=1 is the first of a repeated name kept, too.
        COMMON[26]: ("explained", ["form-body-not-signed", "first-duplicate-kept"]),
    },
    "oauth gem": {
        COMMON[19]: ("explained", ["sorted-before-encoding", "parsed-as-php"]),
    },
    "simple_oauth": {
        COMMON[2]: ("explained", ["parameter-not-signed"]),
        COMMON[3]: ("explained", ["query-not-signed", "empty-value-dropped"]),
        DUPLICATE_FIELD: ("explained", ["duplicates-collapsed", "parsed-as-php"]),
    },
    "pecl OAuth": {
        DUPLICATE_FIELD: ("explained", ["duplicates-collapsed", "parsed-as-php"]),
        COMMON[7]: ("explained", ["duplicates-collapsed", "parsed-as-php"]),
        COMMON[15]: ("explained", ["duplicates-collapsed"]),
        COMMON[19]: ("explained", ["sorted-before-encoding", "parsed-as-php"]),
        COMMON[23]: "refused",
        COMMON[26]: ("explained", ["form-body-not-signed", "first-duplicate-kept"]),
    },
    "liboauth": {
        COMMON[10]: ("explained", ["host-not-lowercased"]),
        COMMON[11]: ("explained", ["default-port-kept"]),
    },
    "mrjones/oauth": {
        COMMON[4]: ("explained", ["query-not-signed"]),
        DUPLICATE_FIELD: "refused",
        COMMON[7]: "refused",
        COMMON[15]: "refused",
        COMMON[10]: ("explained", ["host-not-lowercased"]),
        COMMON[11]: ("explained", ["default-port-kept"]),
        COMMON[12]: ("explained", ["default-port-kept"]),
        COMMON[13]: ("explained", ["names-not-encoded"]),
        # A generic URL encoder leaves [ ] @ alone as well: it reproduces these equally.
        COMMON[16]: ("explained", ["reserved-unencoded", "names-not-encoded", "parameters-not-encoded"]),
        COMMON[17]: ("explained", ["path-decoded"]),
        COMMON[18]: ("explained", ["path-decoded"]),
        # And a query without escapes encoded once (Mastercard's Python signer) is the same here.
        COMMON[19]: ("explained", ["reserved-unencoded", "query-as-sent-encoded-once", "names-not-encoded",
                                   "unescaped-query-encoded-once", "parameters-not-encoded"]),
        # The values have nothing to encode here: not encoding them either gives the same.
        COMMON[20]: ("explained", ["names-not-encoded", "parameters-not-encoded"]),
        COMMON[23]: ("explained", ["trailing-slash-changed"]),
        COMMON[26]: ("explained", ["duplicates-collapsed", "query-not-signed", "parsed-as-php"]),
    },
}


def clients(built):
    """Each client's command (the request's arguments follow) and whether it signs HMAC-SHA256."""
    return {
        "Net::OAuth": (["perl", str(HERE / "net_oauth.pl")], True),
        "oauth gem": (["ruby", str(HERE / "ruby_oauth.rb")], False),
        "simple_oauth": (["ruby", str(HERE / "simple_oauth.rb")], False),
        "pecl OAuth": (["php", str(HERE / "pecl_oauth.php")], True),
        "liboauth": ([str(built / "liboauth")], False),
        "mrjones/oauth": ([str(built / "mrjones_oauth")], True),
    }


def main(oauth1, built):
    env = {"OAUTH1_CONSUMER_SECRET": CS, "OAUTH1_TOKEN_SECRET": TS}
    checks = Checks("Net::OAuth, the oauth gem, simple_oauth, pecl OAuth, liboauth and mrjones/oauth against oauth1 explain")
    for name, (command, sha256) in clients(pathlib.Path(built)).items():
        requests = [(r, "HMAC-SHA1") for r in COMMON] + [(r, "HMAC-SHA256") for r in SHA256 if sha256]
        for request, signature_method in requests:
            method, url, body = request
            want = DEVIATIONS[name].get(request, ("match", []))
            what = "%s %s %s %s %s" % (name, signature_method, method, url, body)
            run = subprocess.run(command + [method, url, body, signature_method], capture_output=True, text=True)
            if want == "refused":
                checks.count += 1
                if run.returncode == 0:
                    checks.failures.append("%s: signed a request its source refuses: %s" % (what, run.stdout.strip()))
                continue
            if run.returncode != 0:
                checks.failures.append("%s: the client failed: %s" % (what, run.stderr.strip()))
                continue
            sent = json.loads(run.stdout)
            args = [oauth1, "explain", "--json", "--method", method, "--url", sent["url"]]
            if sent["authorization"]:
                args += ["--authorization", sent["authorization"]]
            if sent["body"] is not None:
                args += ["--content-type", FORM, "--body", sent["body"]]
            checks.expect(what, args, env, want[0], want[1], sent)
    checks.finish("each answered as its source says")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
