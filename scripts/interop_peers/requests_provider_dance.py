"""requests-oauthlib's OAuth1Session through the whole three-legged flow against
examples/axum_provider.rs, then a resource request with the token credentials it got; and the
requests the provider must refuse along the way (a resource request with temporary
credentials, forged approvals without the authorization page's token, a wrong password, a
second exchange, a callback the consumer did not register).

Usage: requests_provider_dance.py http://127.0.0.1:PORT
"""

import re
import sys
import urllib.parse

import requests
from requests_oauthlib import OAuth1, OAuth1Session
from requests_oauthlib.oauth1_session import TokenRequestDenied

CONSUMER = ("demo-consumer", "demo consumer secret & ünïcode")
CALLBACK = "https://client.example/callback?state=s%201"


def check(condition, what):
    if not condition:
        sys.exit("requests-oauthlib dance: " + what)


def page(base, token):
    """The authorization page, with its anti-forgery token."""
    shown = requests.get(base + "/oauth/authorize", params={"oauth_token": token})
    check(shown.status_code == 200 and "demo-consumer asks" in shown.text,
          "the authorization page: %d %s" % (shown.status_code, shown.text))
    # No other site may frame it (clickjacking).
    check(shown.headers.get("X-Frame-Options") == "DENY"
          and "frame-ancestors 'none'" in shown.headers.get("Content-Security-Policy", ""),
          "the authorization page may be framed: %r" % dict(shown.headers))
    csrf = re.search(r'name=csrf value="([^"]+)"', shown.text)
    check(csrf is not None, "the authorization page has no anti-forgery token: " + shown.text)
    return csrf.group(1)


def approve(base, token):
    """The browser's part: the test user signs in on the authorization page and approves; a
    forged approval (another site's form, which cannot read the page's token) approves nothing."""
    signed_in = {"oauth_token": token, "user": "test-user", "password": "test-password"}
    for forged in [signed_in, dict(signed_in, csrf="guessed")]:
        refused = requests.post(base + "/oauth/authorize", allow_redirects=False, data=forged)
        check(refused.status_code == 403 and "not sent from the authorization page" in refused.text,
              "a forged approval: %d %s" % (refused.status_code, refused.text))
    # Nothing was approved: the page still asks.
    csrf = page(base, token)
    wrong = requests.post(base + "/oauth/authorize", allow_redirects=False,
                          data=dict(signed_in, csrf=csrf, password="no"))
    check(wrong.status_code == 403, "a wrong password approved: %d" % wrong.status_code)
    return requests.post(base + "/oauth/authorize", allow_redirects=False,
                         data=dict(signed_in, csrf=csrf))


def main(base):
    session = OAuth1Session(CONSUMER[0], client_secret=CONSUMER[1], callback_uri=CALLBACK)
    # 1. Temporary credentials: requests-oauthlib requires oauth_callback_confirmed=true.
    temporary = session.fetch_request_token(base + "/oauth/request_token")
    check(set(temporary) == {"oauth_token", "oauth_token_secret", "oauth_callback_confirmed"},
          "temporary credentials: %r" % sorted(temporary))
    authorization_url = session.authorization_url(base + "/oauth/authorize")
    check(authorization_url.startswith(base + "/oauth/authorize?oauth_token="), authorization_url)

    # A resource request signed with the temporary credentials is refused for what it is.
    early = requests.get(base + "/photos", auth=OAuth1(
        CONSUMER[0], client_secret=CONSUMER[1], resource_owner_key=temporary["oauth_token"],
        resource_owner_secret=temporary["oauth_token_secret"]))
    problem = urllib.parse.parse_qs(early.text)
    check(early.status_code == 401 and problem.get("oauth_problem") == ["token_rejected"],
          "a resource request with temporary credentials: %d %s" % (early.status_code, early.text))

    # 2. The resource owner approves; the redirect goes to the callback with the verifier.
    approved = approve(base, temporary["oauth_token"])
    check(approved.status_code == 302, "approval: %d %s" % (approved.status_code, approved.text))
    location = approved.headers["Location"]
    check(location.startswith(CALLBACK + "&oauth_token="), location)
    callback = session.parse_authorization_response(location)
    check(callback["oauth_token"] == temporary["oauth_token"], "callback: %r" % callback)

    # 3. Token credentials.
    access = session.fetch_access_token(base + "/oauth/access_token")
    check(access["oauth_token"] != temporary["oauth_token"], "the same token came back")

    # A resource request with them: the provider knows whose photos.
    photos = session.get(base + "/photos", params={"size": "original"})
    check(photos.status_code == 200 and "owner=test-user\n" in photos.text,
          "the resource: %d %s" % (photos.status_code, photos.text))

    # The temporary credentials are void once exchanged: a second exchange is refused.
    again = OAuth1Session(CONSUMER[0], client_secret=CONSUMER[1],
                          resource_owner_key=temporary["oauth_token"],
                          resource_owner_secret=temporary["oauth_token_secret"],
                          verifier=callback["oauth_verifier"])
    try:
        again.fetch_access_token(base + "/oauth/access_token")
        check(False, "the temporary credentials were exchanged twice")
    except TokenRequestDenied as e:
        check(e.status_code == 401, "a second exchange: %d" % e.status_code)

    # A callback the consumer did not register: refused, so that whoever holds the consumer's
    # secret cannot have a verifier sent to a callback of their own.
    stranger = OAuth1Session(CONSUMER[0], client_secret=CONSUMER[1],
                             callback_uri="https://evil.example/steal")
    try:
        stranger.fetch_request_token(base + "/oauth/request_token")
        check(False, "an unregistered callback was accepted")
    except TokenRequestDenied as e:
        problem = urllib.parse.parse_qs(e.response.text)
        check(e.status_code == 400 and problem.get("oauth_problem") == ["parameter_rejected"]
              and problem.get("oauth_parameters_rejected") == ["oauth_callback"],
              "an unregistered callback: %d %s" % (e.status_code, e.response.text))

    # oob: the verifier is shown to the user, who types it into the consumer.
    session = OAuth1Session(CONSUMER[0], client_secret=CONSUMER[1], callback_uri="oob")
    temporary = session.fetch_request_token(base + "/oauth/request_token")
    shown = approve(base, temporary["oauth_token"])
    check(shown.status_code == 200 and "Type this code" in shown.text, shown.text)
    verifier = shown.text.rsplit(": ", 1)[1].split("<", 1)[0]
    access = session.fetch_access_token(base + "/oauth/access_token", verifier=verifier)
    photos = session.get(base + "/photos")
    check(photos.status_code == 200 and "owner=test-user\n" in photos.text, photos.text)
    print("requests-oauthlib OAuth1Session: the whole flow against the axum provider, ok")


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/"))
