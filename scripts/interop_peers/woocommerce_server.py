"""WooCommerce's REST API signature check, re-stated in Python from its PHP source, as the
tests' own oracle of what the server accepts over http.

Re-stated from:
- PHP's reading of a query string or form body into `$_GET` / `$_POST` (main/php_variables.c,
  `php_default_treat_data` and `php_register_variable_ex`): pairs split on `&`, names and values
  url-decoded (`+` is a space); leading spaces of a name dropped, ` ` and `.` before the first
  `[` made `_`; `name[]` appends to an array, `name[key]` sets a key, nested; an unclosed `[`
  at the first level becomes `_` (with ` . [` after it made `_`), deeper the rest is dropped;
  what follows a `]` other than `[` is ignored; a name nested more than 64 levels deep
  (`max_input_nesting_level`) is dropped with what its name held; a name or key that is a
  canonical decimal integer is an integer key; assigning a key again replaces its value in
  place.
- WooCommerce's `WC_REST_Authentication` (includes/class-wc-rest-authentication.php):
  `get_oauth_parameters` merges `array_merge($_GET, $_POST)` (integer keys renumbered) and the
  header's `oauth_*` parameters over them; `check_oauth_signature` removes `oauth_signature`,
  sorts with `uksort($params, 'strcmp')`, encodes the top-level keys and every value with
  `wc_rest_urlencode_rfc3986` (rawurlencode), builds each item with `join_with_equals_sign`
  (an array item's name `name%5Bkey%5D`, its key as read) and encodes it once more, joins them
  with `%26`, and signs `METHOD&rawurlencode(home url + path)&items` with HMAC-SHA1 or
  HMAC-SHA256 keyed with the raw consumer secret and `&`.
"""

import base64
import hashlib
import hmac
import re
from urllib.parse import quote, urlsplit

from rfc5849 import form_pairs


def rawurlencode(text):
    """PHP's rawurlencode: every byte but A-Z a-z 0-9 - _ . ~ as %XX, upper case."""
    if isinstance(text, int):
        text = str(text)
    return quote(text.encode("utf-8", "surrogateescape"), safe="-_.~")


def php_key(name):
    """The key PHP makes of a name: an int when it is a canonical decimal integer."""
    if re.fullmatch(r"-?(0|[1-9][0-9]*)", name) and name != "-0":
        number = int(name)
        if -(2 ** 63) <= number < 2 ** 63:
            return number
    return name


class PhpArray:
    """An ordered PHP array: a dict keeps insertion order, and next_index PHP's next free int."""

    def __init__(self):
        self.items = {}
        self.next_index = 0

    def set(self, key, value):
        if isinstance(key, int):
            self.next_index = max(self.next_index, key + 1)
        self.items[key] = value

    def append(self, value):
        self.set(self.next_index, value)


# PHP's max_input_nesting_level by default.
MAX_NESTING = 64


def register(table, name, value):
    """php_register_variable_ex: `name=value` into `table`."""
    var = name.lstrip(" ")
    cut = var.find("[")
    base = var if cut < 0 else var[:cut]
    base = base.replace(" ", "_").replace(".", "_")
    if not base:
        return
    if cut < 0:
        table.set(php_key(base), value)
        return
    index = base
    pos = cut
    level = 0
    top = table
    while True:
        if level + 1 > MAX_NESTING:
            # Too deep: PHP drops the variable and what its name held.
            top.items.pop(php_key(base), None)
            return
        start = pos + 1
        if start < len(var) and var[start] == "]":
            new_index = None
            end = start
        else:
            end = var.find("]", start)
            if end < 0:
                if level == 0:
                    rest = re.sub(r"[ .\[]", "_", var[start:])
                    table.set(php_key(base + "_" + rest), value)
                    return
                break
            new_index = var[start:end]
        if index is None:
            child = PhpArray()
            table.append(child)
        else:
            key = php_key(index)
            child = table.items.get(key)
            if not isinstance(child, PhpArray):
                child = PhpArray()
                table.set(key, child)
        table = child
        index = new_index
        level += 1
        pos = end + 1
        if pos < len(var) and var[pos] == "[":
            continue
        break
    if index is None:
        table.append(value)
    else:
        table.set(php_key(index), value)


# PHP splits a query or form body into pairs as application/x-www-form-urlencoded says.
pairs = form_pairs


def read(decoded_pairs):
    """Decoded pairs as PHP registers them."""
    table = PhpArray()
    for name, value in decoded_pairs:
        register(table, name, value)
    return table


def array_merge(*arrays):
    merged = PhpArray()
    for array in arrays:
        for key, value in array.items.items():
            if isinstance(key, int):
                merged.append(value)
            else:
                merged.set(key, value)
    return merged


def normalized(value):
    """wc_rest_urlencode_rfc3986 over a value or, keys kept, an array."""
    if isinstance(value, PhpArray):
        out = PhpArray()
        for key, item in value.items.items():
            out.set(key, normalized(item))
        return out
    return rawurlencode(value)


def join_with_equals_sign(params, query_params, key=""):
    for param_key, param_value in params.items.items():
        if key not in ("", "0", 0):  # PHP's `if ( $key )`
            param_key = "%s%%5B%s%%5D" % (key, param_key)
        if isinstance(param_value, PhpArray):
            join_with_equals_sign(param_value, query_params, param_key)
        else:
            query_params.append(rawurlencode("%s=%s" % (param_key, param_value)))
    return query_params


def parameter_string(query, form, header):
    """The parameter part of WooCommerce's string to sign: `query` and `form` the decoded
    pairs of `$_GET` and `$_POST`, `header` the protocol parameters (no oauth_signature)."""
    params = array_merge(read(query), read(form))
    for name, value in header:
        params.set(name, value)
    keys = sorted(params.items, key=lambda k: str(k).encode("utf-8", "surrogateescape"))
    top = PhpArray()
    for key in keys:
        top.set(php_key(rawurlencode(key)), normalized(params.items[key]))
    return "%26".join(join_with_equals_sign(top, []))


def accepts(method, url, secret, form_body=None):
    """Whether WooCommerce accepts the request: `url` as sent over http, its query carrying the
    protocol parameters, and a form body if any."""
    parts = urlsplit(url)
    query = pairs(parts.query)
    signature = [v for n, v in query if n == "oauth_signature"]
    rest = [(n, v) for n, v in query if n != "oauth_signature"]
    method_names = [v for n, v in rest if n == "oauth_signature_method"]
    if len(signature) != 1 or not method_names or method_names[-1] not in ("HMAC-SHA1", "HMAC-SHA256"):
        return False
    form = pairs(form_body) if form_body is not None else []
    home = "%s://%s%s" % (parts.scheme, parts.netloc, parts.path)
    string_to_sign = "%s&%s&%s" % (method.upper(), rawurlencode(home), parameter_string(rest, form, []))
    digest = hashlib.sha1 if method_names[-1] == "HMAC-SHA1" else hashlib.sha256
    mac = hmac.new((secret + "&").encode(), string_to_sign.encode(), digest).digest()
    return hmac.compare_digest(base64.b64encode(mac).decode(), signature[0].replace(" ", "+"))
