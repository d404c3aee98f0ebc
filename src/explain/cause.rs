//! The causes of a signature mismatch: one deterministic mistake each, named by the shared ids.

use std::fmt;
use std::str::FromStr;

use super::error::ExplainError;

macro_rules! causes {
    ($($variant:ident = $id:literal, $rank:literal, $what:literal, $fix:literal;)*) => {
        /// One precise mistake the other side made relative to the RFC 5849 computation of the
        /// same request; [`Cause::id`] gives its shared name.
        ///
        /// Each cause is one switch on one stage of the signing pipeline, so that applying it
        /// to a request reproduces the other side's base string or signature exactly.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        // Each variant's documentation is its plain-text description, which the command line
        // prints too: `a[0]` in it is what a client signs, not a link.
        #[allow(rustdoc::broken_intra_doc_links)]
        pub enum Cause {
            $(
                #[doc = concat!("`", $id, "`: the other side ", $what, ".")]
                $variant,
            )*
        }

        impl Cause {
            /// Every cause, in the order of the pipeline's stages.
            pub const ALL: &'static [Cause] = &[$(Cause::$variant),*];

            /// The shared id, e.g. `plus-for-space`.
            #[must_use]
            pub const fn id(self) -> &'static str {
                match self { $(Cause::$variant => $id),* }
            }

            /// What the other side did, in plain words (completes "the other side ...").
            #[must_use]
            pub const fn what(self) -> &'static str {
                match self { $(Cause::$variant => $what),* }
            }

            /// What the other side must change.
            #[must_use]
            pub const fn fix(self) -> &'static str {
                match self { $(Cause::$variant => $fix),* }
            }

            /// How often the mistake is met in the wild: 0 for the commonest. Among causes that
            /// reproduce a value equally, the lower rank is named first.
            pub(crate) const fn rank(self) -> u8 {
                match self { $(Cause::$variant => $rank),* }
            }
        }
    };
}

causes! {
    PlusForSpace = "plus-for-space", 0,
        "encoded a space as \"+\" instead of \"%20\" in parameter names and values (form encoding), so \"%2B\" stands where \"%2520\" should",
        "Encode parameter names and values with RFC 3986 percent-encoding (space as %20), not with a form or query-string encoder.";
    UnencodedSubDelims = "unencoded-sub-delims", 1,
        "left ! * ' ( ) unencoded in parameter names and values (JavaScript encodeURIComponent does)",
        "Percent-encode ! * ' ( ) too: every byte but A-Z a-z 0-9 - . _ ~ must become %XX.";
    TildeEncoded = "tilde-encoded", 18,
        "encoded ~ as %7E in parameter names and values",
        "Leave ~ as it is: it is unreserved (RFC 3986 §2.3).";
    LowercaseHex = "lowercase-hex", 19,
        "wrote percent-escapes with lowercase hex digits (%2f instead of %2F)",
        "Write percent-escapes with uppercase hex digits (RFC 5849 §3.6).";
    ReservedUnencoded = "reserved-unencoded", 20,
        "left / ? : @ , ; = + $ [ ] unencoded in parameter names and values (a generic URL encoder)",
        "Percent-encode the reserved characters too: only A-Z a-z 0-9 - . _ ~ stay as they are.";
    SlashUnencoded = "slash-unencoded", 35,
        "left / unencoded in parameter names and values, and in the base string's parameter part too (Python's urllib.parse.quote with its default safe='/', as the woocommerce Python client uses it)",
        "Percent-encode / as %2F in names and values, and again as %252F in the base string: call quote(value, safe='') or an RFC 3986 encoder.";
    Latin1NotUtf8 = "latin1-not-utf8", 13,
        "encoded text as ISO-8859-1 bytes instead of UTF-8 (é as %E9; characters outside Latin-1 as ?)",
        "Encode text as UTF-8 before percent-encoding it (é is %C3%A9).";
    NamesNotEncoded = "names-not-encoded", 46,
        "put parameter names into the parameter string without percent-encoding them (the values encoded), so that each name is encoded once, in the base string (a%20b=1 signed as a b=1, then a%20b%3D1): mrjones/oauth for Go",
        "Percent-encode each parameter name as well as its value before sorting and joining them (RFC 5849 §3.4.1.3.2). As a client, send names of letters, digits and - . _ ~ only.";
    ParametersNotEncoded = "parameters-not-encoded", 52,
        "did not percent-encode the names and values of the query and body parameters before joining them, so that they are encoded once, in the base string, instead of twice (a space stands as %20 where %2520 should)",
        "Percent-encode each name and value (RFC 5849 §3.6) before joining them with = and &; the base string then encodes the joined string once more.";
    ParametersEncodedTwice = "parameters-encoded-twice", 53,
        "percent-encoded the parameter names and values twice before joining them, so that they are encoded three times in the base string (a space stands as %252520 where %2520 should)",
        "Encode each name and value once (RFC 5849 §3.6); only the joined parameter string is encoded again, in the base string.";
    ParamStringNotReencoded = "param-string-not-reencoded", 15,
        "put the normalized parameter string into the base string without percent-encoding it a second time",
        "Percent-encode the whole normalized parameter string once more when building the base string (RFC 5849 §3.4.1.1): \"a=b&c=d\" becomes \"a%3Db%26c%3Dd\".";
    QueryNotDecoded = "query-not-decoded", 3,
        "took query and form-body names and values exactly as on the wire and encoded them again (%20 became %2520, + became %2B)",
        "Decode query and form-body names and values first (%XX, and + as a space), then encode them (RFC 5849 §3.4.1.3.1).";
    PlusNotDecoded = "plus-not-decoded", 2,
        "decoded %XX in query and form-body values but kept + as a literal plus instead of a space",
        "Decode + in the query and in form bodies as a space (application/x-www-form-urlencoded rules).";
    QueryNamesNotDecoded = "query-names-not-decoded", 41,
        "decoded the query's values but took its names exactly as on the wire and encoded them again (a%20b=1 signed as a%2520b=1): oauth-1.0a, which runs decodeURIComponent on the values only",
        "Decode query names as well as values (%XX, and + as a space) before encoding them (RFC 5849 §3.4.1.3.1).";
    ValueCutAtEquals = "value-cut-at-equals", 42,
        "took a query value only up to a second = in its pair (next=a=b signed as next=a): oauth-1.0a, which splits each pair at every =",
        "Split each name=value pair at its first = only: the value is everything after it (RFC 5849 §3.4.1.3.1, with application/x-www-form-urlencoded parsing). As a client, percent-encode = in values (%3D).";
    QueryUtf8EncodedTwice = "query-utf8-encoded-twice", 45,
        "decoded the query's names and values to bytes, took each byte from 0x80 up as an ISO-8859-1 character and encoded it as UTF-8 again (é, %C3%A9, signed as %C3%83%C2%A9): Net::OAuth, whose query values from URI::QueryParam are bytes that uri_escape_utf8 encodes again",
        "Decode the query's names and values as UTF-8 text before encoding them (in Perl: Encode::decode_utf8 on each), so that every character is encoded once (RFC 5849 §3.6). As a client, send only ASCII in the query, or put such parameters in a form body.";
    DecodedTwice = "decoded-twice", 56,
        "decoded the names and values of the query and body twice, so that an escaped percent sign is decoded as the start of another escape (%2541 read as A)",
        "Decode each name and value once (RFC 5849 §3.4.1.3.1): %25 is a literal %, not the start of another escape.";
    QueryNotSigned = "query-not-signed", 11,
        "left the query parameters out of the signature",
        "Sign the URL's query parameters along with the others (RFC 5849 §3.4.1.3.1).";
    QueryInBaseUri = "query-in-base-uri", 32,
        "kept the query in the base string URI (…/path?a=1) instead of signing its parameters",
        "Drop the query from the base string URI and sign its parameters instead (RFC 5849 §3.4.1.2).";
    FormBodyNotSigned = "form-body-not-signed", 4,
        "left the parameters of the application/x-www-form-urlencoded body out",
        "Sign the parameters of a form body (Content-Type application/x-www-form-urlencoded, charset parameter allowed), and set that Content-Type before signing.";
    FormBodyHashed = "form-body-hashed", 39,
        "sent oauth_body_hash with a form body, hashing the body and leaving its parameters unsigned (Mastercard's signers), where RFC 5849 signs the form's parameters and sends no body hash",
        "Sign the parameters of an application/x-www-form-urlencoded body and send no oauth_body_hash with it (the Body Hash extension forbids it); hash only bodies that are not forms.";
    NonFormBodySigned = "non-form-body-signed", 12,
        "parsed a body that is not application/x-www-form-urlencoded as a form and signed its parameters",
        "Sign body parameters only when the Content-Type is application/x-www-form-urlencoded; a JSON, XML or multipart body is not signed (use oauth_body_hash for it).";
    ParameterNotSigned = "parameter-not-signed", 44,
        "sent a query or form-body parameter it did not sign, most often one added to the request after signing (woocommerce-api 1.5.0: the request library rewrites include[]=12,34 as include[0]=12,34 and sends both, having signed the first only)",
        "Sign the request exactly as it is sent: add every parameter before signing, and make sure the HTTP library neither adds nor rewrites query parameters afterwards (pass the signed URL as a string, not a query object).";
    QueryStartNotSigned = "query-start-not-signed", 49,
        "left the first parameters of the query, those written into the URL, out of the signature and signed the ones after them (rauth 0.7.3 drops the URL's own query and signs the params= it appends after it)",
        "Sign every query parameter, those written into the URL as well as those added to it (RFC 5849 §3.4.1.3.1). With rauth, give all of them as params= and none in the URL.";
    DuplicatesCollapsed = "duplicates-collapsed", 5,
        "kept one value per parameter name (the last one) instead of every occurrence",
        "Keep every occurrence of a repeated parameter name, sorted by value (RFC 5849 §3.4.1.3.2); do not collect parameters into a map.";
    FirstDuplicateKept = "first-duplicate-kept", 55,
        "kept one value per parameter name (the first one) instead of every occurrence",
        "Keep every occurrence of a repeated parameter name, sorted by value (RFC 5849 §3.4.1.3.2); do not collect parameters into a map that keeps the first value.";
    EmptyValueDropped = "empty-value-dropped", 25,
        "dropped query or body parameters with an empty value (a= or a)",
        "Sign parameters with an empty value as name= (RFC 5849 §3.4.1.3.2).";
    RepeatedNamesIndexed = "repeated-names-indexed", 37,
        "renamed the values of a name repeated in the query by their position: a=2&a=1 became a[0]=2&a[1]=1 (node-oauth reads the query with querystring.parse)",
        "Sign each occurrence of a repeated query name under its own name, as sent (RFC 5849 §3.4.1.3.1).";
    ArrayBracketsDropped = "array-brackets-dropped", 38,
        "read names such as ids[] and ids[0] as arrays and signed them as ids (request reads the query and form body with the qs library)",
        "Sign parameter names exactly as sent, brackets included: ids[]=1 is signed as ids%5B%5D=1.";
    ParsedAsPhp = "parsed-as-php", 40,
        "read the query and form body as PHP's $_GET and $_POST hold them and signed that (WooCommerce's server): the last value of a repeated name; ids[]=12&ids[]=34 as ids[0], ids[1]; . and spaces in names as _; numeric names renumbered from 0; the names sorted as read, before encoding, an array's items in the order sent",
        "Sign every parameter as sent, sorted by encoded name and value (RFC 5849 §3.4.1.3.2). As a client of such a server, sign as it reads: oauth1 sign --profile woocommerce.";
    SortedBeforeEncoding = "sorted-before-encoding", 6,
        "sorted the parameters by their decoded names and values and encoded them afterwards",
        "Sort by the encoded names, then the encoded values (RFC 5849 §3.4.1.3.2).";
    SortedAsStrings = "sorted-as-strings", 14,
        "sorted the encoded name=value strings as whole strings (so a1=x came before a=x)",
        "Sort by encoded name first and by encoded value only among equal names, not by the joined name=value string.";
    NotSorted = "not-sorted", 24,
        "did not sort the parameters: query, then body in wire order, then the protocol parameters",
        "Sort all parameters together by encoded name, then encoded value (RFC 5849 §3.4.1.3.2).";
    SortedByNameOnly = "sorted-by-name-only", 54,
        "sorted the parameters by name alone, leaving the values of a repeated name in the order they were sent",
        "Sort by encoded name, then by encoded value among equal names (RFC 5849 §3.4.1.3.2).";
    DefaultPortKept = "default-port-kept", 8,
        "kept an explicit default port (:80 for http, :443 for https) in the base string URI",
        "Drop the port from the base string URI when it is the scheme's default (RFC 5849 §3.4.1.2).";
    PortDropped = "port-dropped", 9,
        "dropped a non-default port from the base string URI",
        "Keep a port that is not the scheme's default in the base string URI (RFC 5849 §3.4.1.2).";
    HostNotLowercased = "host-not-lowercased", 21,
        "kept the scheme and host in their written letter case",
        "Lowercase the scheme and host in the base string URI (RFC 5849 §3.4.1.2); keep the path's case.";
    TrailingSlashChanged = "trailing-slash-changed", 31,
        "added or removed the final / of the path",
        "Sign the path exactly as requested, with or without its final /.";
    PathDecoded = "path-decoded", 47,
        "put the path into the base string URI decoded (%2F as /, %C3%A9 as é), so that its escapes are encoded once instead of twice: mrjones/oauth for Go, which takes Go's url.URL.Path",
        "Keep the path's percent-escapes as sent in the base string URI (RFC 5849 §3.4.1.2): in Go, use URL.EscapedPath(), not URL.Path. As a client, send a path without percent-escapes.";
    SchemeChanged = "scheme-changed", 7,
        "used the other scheme (http for https or the reverse), typical behind a TLS-terminating proxy",
        "The side that signed the other scheme signs the URL as it is sent: a client that sends https signs https (sign the URL you send, not one configured apart); a server behind a TLS-terminating proxy builds the base string URI with the public scheme, from its trusted Forwarded or X-Forwarded-Proto header.";
    MethodNotUppercased = "method-not-uppercased", 30,
        "used the HTTP method as written instead of uppercased",
        "Uppercase the HTTP method in the base string (RFC 5849 §3.4.1.1).";
    VersionMismatch = "version-mismatch", 16,
        "signed oauth_version=1.0 where it is not sent, or left it out where it is",
        "Sign oauth_version exactly when it is sent: both sides must agree on sending it.";
    EmptyTokenIncluded = "empty-token-included", 17,
        "signed an empty oauth_token= although there is no token",
        "Leave oauth_token out of the signature when there is no token, or send the empty oauth_token it signs.";
    RealmSigned = "realm-signed", 22,
        "added realm to the signed parameters",
        "Leave realm out of the base string: it belongs to the Authorization header only (RFC 5849 §3.4.1.3.1).";
    CallbackNotSigned = "callback-not-signed", 23,
        "left oauth_callback out of the signed parameters",
        "Sign oauth_callback with the other protocol parameters of the temporary-credentials request.";
    VerifierNotSigned = "verifier-not-signed", 28,
        "left oauth_verifier out of the signed parameters",
        "Sign oauth_verifier with the other protocol parameters of the token request.";
    BodyHashNotSigned = "body-hash-not-signed", 29,
        "computed oauth_body_hash but left it out of the signed parameters",
        "Sign oauth_body_hash with the other protocol parameters.";
    ProtocolValuesEncodedOnce = "protocol-values-encoded-once", 36,
        "put the protocol parameters' values into the parameter string as they are, encoded only once with the rest of it: a body hash's + / = stand as %2B %2F %3D where %252B %252F %253D should (Mastercard's signers)",
        "Percent-encode every parameter value before joining and sorting, the oauth_ ones too (oauth_body_hash, a consumer key with !), and the whole string once more in the base string.";
    QueryAsSentEncodedOnce = "query-as-sent-encoded-once", 43,
        "put the query into the parameter string as sent, neither decoded nor encoded, and encoded the whole string once with JavaScript's encodeURIComponent, which leaves ! * ' ( ) alone, escaping only the first * of it and the first ! of the base string (String.replace without the global flag): mastercard-oauth1-signer 1.2.0 for Node",
        "Decode the query's names and values, percent-encode each (every byte but A-Z a-z 0-9 - . _ ~), and encode the joined string again; escape every ! * ' ( ), not the first one (a global replace).";
    UnescapedQueryEncodedOnce = "unescaped-query-encoded-once", 48,
        "put a query that has no percent-escape into the parameter string as sent (a space read from + written back as +, ! * ' ( ) as they are), so that it is encoded once, in the base string, instead of twice; a query with an escape it decoded and encoded as RFC 5849 says: mastercard-oauth1-signer 1.9.2 for Python",
        "Decode the query's names and values and percent-encode each (RFC 5849 §3.4.1.3), whether or not the query has a percent-escape. As a client, percent-encode every character but A-Z a-z 0-9 - . _ ~ in the query (a space as %20).";
    KeyMissingAmpersand = "key-missing-ampersand", 10,
        "used the encoded consumer secret alone as the key, without the & that must end it when the token secret is empty",
        "The key is enc(consumer secret) & enc(token secret): keep the & even when the token secret is empty.";
    KeySecretsNotEncoded = "key-secrets-not-encoded", 26,
        "joined the raw secrets with & without percent-encoding them",
        "Percent-encode both secrets before joining them with & (RFC 5849 §3.4.2).";
    KeyTokenSecretMissing = "key-token-secret-missing", 27,
        "left the token secret out of the key (consumer secret and & only)",
        "Append the encoded token secret after the & of the key.";
    SignatureHex = "signature-hex", 33,
        "wrote the HMAC digest as lowercase hex instead of base64",
        "Encode the HMAC digest with base64 (RFC 5849 §3.4.2).";
    WrongHash = "wrong-hash", 34,
        "computed the HMAC with another hash than the declared signature method's",
        "Use the hash the signature method names: SHA-1 for HMAC-SHA1, SHA-256 for HMAC-SHA256, SHA-512 for HMAC-SHA512.";
    KeySecretsSwapped = "key-secrets-swapped", 50,
        "put the token secret first in the key and the consumer secret second",
        "The key is enc(consumer secret) & enc(token secret), the consumer's first (RFC 5849 §3.4.2).";
    SignatureBase64Url = "signature-base64url", 51,
        "wrote the HMAC digest in base64url (- and _ for + and /, no = padding) instead of base64",
        "Encode the HMAC digest with standard base64 (RFC 2045 §6.8, with + / and = padding), as RFC 5849 §3.4.2 says.";
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for Cause {
    type Err = ExplainError;

    /// Parses a shared id such as `plus-for-space`.
    fn from_str(id: &str) -> Result<Self, ExplainError> {
        Cause::ALL
            .iter()
            .copied()
            .find(|c| c.id() == id)
            .ok_or_else(|| ExplainError::UnknownCause { id: id.to_owned() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_ranks_are_a_permutation() {
        let mut ranks: Vec<u8> = Cause::ALL.iter().map(|c| c.rank()).collect();
        ranks.sort_unstable();
        assert_eq!(ranks, (0..57).collect::<Vec<u8>>());
        for &cause in Cause::ALL {
            assert_eq!(cause.id().parse::<Cause>().unwrap(), cause);
        }
        assert_eq!(
            "plus".parse::<Cause>().unwrap_err().to_string(),
            "unknown mismatch cause \"plus\""
        );
    }
}
