"""The WooCommerce Python client (the `woocommerce` package) signs requests as its own code does,
and `oauth1 explain --url` names what it does differently from RFC 5849, given only the URL it
sends (its protocol parameters in the query, as it sends them over http) and the secret.

What its source does (woocommerce/oauth.py, 3.0.0): names and values encoded with Python's
`quote`, which leaves "/" alone, and the second encoding written as "%" to "%25", so "/" stays
in the base string too (`slash-unencoded`); otherwise RFC 5849 with HMAC-SHA256, no token, no
oauth_version, and the key `secret&`. It reads the query into an ordered dict, so of a repeated
name it keeps the last value, and sends only that one: the request it sends is not the one
asked for, but its signature matches it.

Usage: woocommerce_client.py PATH/TO/oauth1
"""

import sys

from woocommerce.oauth import OAuth

from explained import Checks

KEY = "ck_4f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c"
SECRET = "cs_0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d"
STORE = "http://shop.example/wp-json/wc/v3"

# (the request's path and query, the verdict and causes `explain` must give)
SHAPES = [
    ("/products?per_page=5&page=2", "match", []),
    ("/orders?status=processing&after=2024-01-01T00%3A00%3A00", "match", []),
    ("/products?search=a/b&per_page=5", "explained", ["slash-unencoded"]),
    ("/products/categories?slug=shoes/running", "explained", ["slash-unencoded"]),
    # Sent as tag=2 and include[]=34 alone, and signed so.
    ("/products?tag=1&tag=2", "match", []),
    ("/products?include[]=12&include[]=34", "match", []),
]


def main(oauth1):
    checks = Checks("the woocommerce client against oauth1 explain")
    for path, verdict, causes in SHAPES:
        url = OAuth(STORE + path, KEY, SECRET, version="wc/v3", method="GET").get_oauth_url()
        checks.expect(path, [oauth1, "explain", "--json", "--url", url],
                      {"OAUTH1_CONSUMER_SECRET": SECRET}, verdict, causes, url)
    checks.finish("each named")


if __name__ == "__main__":
    main(sys.argv[1])
