"""`oauth1 sign --profile` for the providers that follow RFC 5849 (netsuite, lti, jira, x,
discogs) sends what oauthlib sends when it is configured by each provider's published rules:
the same protocol parameters, signature included, given the same nonce and timestamp.

The rules, as the providers publish them:
- NetSuite (token-based authentication): HMAC-SHA256, a token, and the realm: the account id in
  upper case with `_` for `-` (the host `1234567-sb1.suitetalk.api.netsuite.com` is the account
  `1234567_SB1`); a JSON body is not hashed (requests-oauthlib's default).
- IMS LTI 1.1: a launch is a form POST signed with HMAC-SHA1 and no token, its protocol
  parameters in the body with `oauth_callback=about:blank`; an outcomes request is XML signed
  in the Authorization header with `oauth_body_hash` (SHA-1).
- Jira / Confluence application links: RSA-SHA1, `oauth_callback=oob` for the temporary
  credentials.
- X: HMAC-SHA1 in the Authorization header, X's own published example.
- Discogs: PLAINTEXT over https (its signature is the key: `oauth1 sign` hides it, so every
  other parameter is compared).

Usage: profiles.py PATH/TO/oauth1 PATH/TO/private-key.pem
"""

import sys
from urllib.parse import parse_qsl

from oauthlib.oauth1 import SIGNATURE_TYPE_BODY, Client

from explained import Checks, header_params

NONCE, TIMESTAMP = "kllo9940pd9333jh", "1700000000"
FORM = "application/x-www-form-urlencoded"


def sent_by(client, method, url, body=None, content_type=None):
    """The protocol parameters oauthlib sends, decoded, from its header or its body."""
    headers = {"Content-Type": content_type} if content_type else {}
    _, headers, signed_body = client.sign(url, method, body, headers)
    if "Authorization" in headers:
        return header_params(headers["Authorization"])
    return {k: v for k, v in parse_qsl(signed_body, keep_blank_values=True) if k.startswith("oauth_")}


def main(oauth1, pem_path):
    with open(pem_path) as pem:
        rsa_key = pem.read()
    checks = Checks("the provider profiles against oauthlib")

    def check(profile, client, method, url, body=None, content_type=None, flags=(), env=None, hidden=False):
        expected = sent_by(client, method, url, body, content_type)
        args = [oauth1, "sign", "--profile", profile, "--consumer-key", client.client_key,
                "--nonce", NONCE, "--timestamp", TIMESTAMP, "--method", method, "--url", url]
        if client.resource_owner_key:
            args += ["--token", client.resource_owner_key]
        if body is not None:
            args += ["--content-type", content_type, "--body", body]
        args += list(flags)
        if hidden:
            expected["oauth_signature"] = "<not shown: a PLAINTEXT signature is the key itself>"
        checks.expect_signed("--profile %s %s %s" % (profile, method, url), args, env or {}, expected)

    secrets = {"OAUTH1_CONSUMER_SECRET": "cs+/=", "OAUTH1_TOKEN_SECRET": "ts&%"}

    def hmac_client(method, token=True, **kw):
        return Client("ck 1", client_secret="cs+/=", resource_owner_key="tk-1" if token else None,
                      resource_owner_secret="ts&%" if token else None, signature_method=method,
                      nonce=NONCE, timestamp=TIMESTAMP, **kw)

    netsuite = hmac_client("HMAC-SHA256", realm="1234567_SB1")
    check("netsuite", netsuite, "GET",
          "https://1234567-sb1.suitetalk.api.netsuite.com/services/rest/record/v1/customer?limit=5&q=name%20IS%20%22A%2BB%22",
          env=secrets)
    # A JSON body, which requests-oauthlib leaves out of the signature by default.
    netsuite_json = hmac_client("HMAC-SHA256", realm="TSTDRV123")
    expected = sent_by(netsuite_json, "POST",
                       "https://tstdrv123.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=12&deploy=1")
    checks.expect_signed("--profile netsuite POST restlet", [
        oauth1, "sign", "--profile", "netsuite", "--consumer-key", "ck 1", "--token", "tk-1",
        "--nonce", NONCE, "--timestamp", TIMESTAMP, "--method", "POST",
        "--url", "https://tstdrv123.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=12&deploy=1",
        "--content-type", "application/json", "--body", '{"id": 7}'], secrets, expected)

    lti = Client("lti-key", client_secret="lti secret", callback_uri="about:blank",
                 signature_type=SIGNATURE_TYPE_BODY, nonce=NONCE, timestamp=TIMESTAMP)
    launch = ("lti_message_type=basic-lti-launch-request&lti_version=LTI-1p0&resource_link_id=r%201"
              "&user_id=u~1&roles=Instructor%2CLearner&context_title=Caf%C3%A9+%26+co")
    check("lti", lti, "POST", "https://tool.example/lti/launch", launch, FORM,
          env={"OAUTH1_CONSUMER_SECRET": "lti secret"})
    outcomes = Client("lti-key", client_secret="lti secret", nonce=NONCE, timestamp=TIMESTAMP)
    xml = ('<?xml version="1.0" encoding="UTF-8"?><imsx_POXEnvelopeRequest '
           'xmlns="http://www.imsglobal.org/services/ltiv1p1/xsd/imsoms_v1p0"/>')
    check("lti", outcomes, "POST", "https://lms.example/outcomes?x=1", xml, "application/xml",
          flags=["--transport", "header"], env={"OAUTH1_CONSUMER_SECRET": "lti secret"})

    jira_temporary = Client("jira-consumer", signature_method="RSA-SHA1", rsa_key=rsa_key,
                            callback_uri="oob", nonce=NONCE, timestamp=TIMESTAMP)
    check("jira", jira_temporary, "POST", "https://jira.example.com/plugins/servlet/oauth/request-token",
          flags=["--callback", "oob", "--private-key-file", pem_path])
    jira = Client("jira-consumer", resource_owner_key="tok", signature_method="RSA-SHA1",
                  rsa_key=rsa_key, nonce=NONCE, timestamp=TIMESTAMP)
    check("jira", jira, "GET", "https://jira.example.com/rest/api/2/search?jql=project%20%3D%20ABC",
          flags=["--private-key-file", pem_path, "--token-secret", ""])

    # X's "Creating a signature" example.
    x = Client("xvz1evFS4wEEPTGEFPHBog", client_secret="kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
               resource_owner_key="370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
               resource_owner_secret="LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
               nonce="kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", timestamp="1318622958")
    expected = sent_by(x, "POST", "https://api.twitter.com/1.1/statuses/update.json?include_entities=true",
                       "status=Hello%20Ladies%20%2B%20Gentlemen%2C%20a%20signed%20OAuth%20request%21", FORM)
    assert expected["oauth_signature"] == "hCtSmYh+iHYCEqBWrE7C7hYmtUk=", expected
    checks.expect_signed("--profile x POST statuses/update", [
        oauth1, "sign", "--profile", "x", "--consumer-key", "xvz1evFS4wEEPTGEFPHBog",
        "--token", "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
        "--nonce", "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", "--timestamp", "1318622958",
        "--method", "POST", "--url", "https://api.twitter.com/1.1/statuses/update.json?include_entities=true",
        "--content-type", FORM,
        "--body", "status=Hello%20Ladies%20%2B%20Gentlemen%2C%20a%20signed%20OAuth%20request%21"],
        {"OAUTH1_CONSUMER_SECRET": "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
         "OAUTH1_TOKEN_SECRET": "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE"}, expected)

    discogs = hmac_client("PLAINTEXT")
    check("discogs", discogs, "GET", "https://api.discogs.com/oauth/identity", env=secrets, hidden=True)
    checks.finish("each sent as oauthlib sends it")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
