//! Provider profiles: what a provider's server computes, as data.
//!
//! Some providers' servers, or their official SDKs where the server is closed, compute a
//! signature that RFC 5849 does not: Mastercard's signers encode the protocol values once and
//! hash every body, a form's too; WooCommerce's server reads the parameters as PHP does. A
//! [`Profile`] says what a provider requires (signature method, transport, body hash, realm,
//! callback) and lists its deviations from the RFC as [`Cause`]s, the same vocabulary
//! [`explain`](crate::explain) names another side's mistakes with: a deviation is said once,
//! for both. The RFC stages have no provider switch; [`Profile::sign`] signs through the
//! diagnosis's variant pipeline with the profile's causes on.
//!
//! ```
//! use oauth1_signer::profile::Profile;
//! use oauth1_signer::{Consumer, Nonce, Request, SignatureMethod, Timestamp, Token};
//!
//! let netsuite = Profile::named("netsuite").unwrap();
//! assert_eq!(netsuite.method(), SignatureMethod::HmacSha256);
//!
//! let signer = netsuite.signer(Consumer::new("ck", "cs")).with_token(Token::new("tk", "ts"));
//! let request = Request::new("GET", "https://1234567-sb1.suitetalk.api.netsuite.com/services/rest/record/v1/customer")?;
//! let signed = netsuite.sign(&signer, &request, &Nonce::new("n0nce")?, Timestamp::new(1700000000))?;
//! // The realm is the account id, as NetSuite writes it.
//! assert!(signed.authorization().starts_with("OAuth realm=\"1234567_SB1\", "));
//! # Ok::<(), oauth1_signer::Error>(())
//! ```

use std::borrow::Cow;
use std::fmt;

use crate::credentials::{BodyHash, Consumer, Nonce, Timestamp};
use crate::error::Error;
use crate::explain::variant::{Context, Switches};
use crate::explain::{same_secret, Cause, Explanation, Observed};
use crate::header::Realm;
use crate::request::{Request, Signed, Signer};
use crate::sign::SignatureMethod;
use crate::transport::Transport;

/// When a profile sends `oauth_body_hash`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BodyHashRule {
    /// As the signer says ([`Signer::with_body_hash`]).
    Signer,
    /// With every body that is not a form (the OAuth Request Body Hash draft).
    NonFormBodies,
    /// With every request: a GET's (the hash of the empty body) and a form's, whose
    /// parameters are then left unsigned ([`Cause::FormBodyHashed`]).
    Always,
}

/// Where a profile's realm comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RealmRule {
    /// The signer's realm, if any.
    Signer,
    /// The signer's realm, or else the NetSuite account id read from the host:
    /// `1234567-sb1.suitetalk.api.netsuite.com` gives `1234567_SB1` (upper case, `-` as `_`).
    NetSuiteAccount,
}

/// Whether a profile's provider takes a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TokenRule {
    /// Requests are signed with the consumer credentials alone.
    Refused,
    /// Every request carries token credentials.
    Required,
    /// With or without, as the flow's step needs (the three-legged flow).
    Optional,
}

/// What a provider's server computes and requires; see the [module](self).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Profile {
    name: &'static str,
    provider: &'static str,
    method: SignatureMethod,
    methods: &'static [SignatureMethod],
    transport: Transport,
    body_hash: BodyHashRule,
    realm: RealmRule,
    callback: Option<&'static str>,
    form_callback: Option<&'static str>,
    token: TokenRule,
    https_only: bool,
    http_only: bool,
    deviations: &'static [Cause],
    hosts: &'static [&'static str],
    requires: &'static str,
}

impl fmt::Debug for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Profile")
            .field("name", &self.name)
            .field("method", &self.method)
            .field("transport", &self.transport)
            .field("deviations", &self.deviations)
            .finish_non_exhaustive()
    }
}

/// What every profile has unless it says otherwise: RFC 5849 in the Authorization header.
const RFC: Profile = Profile {
    name: "",
    provider: "",
    method: SignatureMethod::HmacSha1,
    methods: &[SignatureMethod::HmacSha1],
    transport: Transport::Header,
    body_hash: BodyHashRule::Signer,
    realm: RealmRule::Signer,
    callback: None,
    form_callback: None,
    token: TokenRule::Optional,
    https_only: false,
    http_only: false,
    deviations: &[],
    hosts: &[],
    requires: "",
};

const MASTERCARD: Profile = Profile {
    name: "mastercard",
    provider: "Mastercard APIs",
    method: SignatureMethod::RsaSha256,
    methods: &[SignatureMethod::RsaSha256],
    body_hash: BodyHashRule::Always,
    token: TokenRule::Refused,
    https_only: true,
    deviations: &[
        Cause::ProtocolValuesEncodedOnce,
        Cause::FormBodyHashed,
        Cause::UnescapedQueryEncodedOnce,
    ],
    hosts: &["api.mastercard.com"],
    requires:
        "RSA-SHA256 with the private key of the consumer key's signing certificate, no token, \
        and oauth_body_hash (SHA-256, base64) on every request, a GET's too; Mastercard's signers \
        put the protocol values into the parameter string encoded once, and a query without \
        percent-escapes as sent (+ and ! * ' ( ) as they are), and hash a form body without \
        signing its parameters",
    ..RFC
};

const WOOCOMMERCE: Profile = Profile {
    name: "woocommerce",
    provider: "WooCommerce REST API (over http)",
    method: SignatureMethod::HmacSha256,
    methods: &[SignatureMethod::HmacSha256, SignatureMethod::HmacSha1],
    transport: Transport::Query,
    token: TokenRule::Refused,
    http_only: true,
    deviations: &[Cause::ParsedAsPhp, Cause::KeySecretsNotEncoded],
    requires: "over http only (over https it takes the consumer key and secret as HTTP Basic \
        credentials), HMAC-SHA256 or HMAC-SHA1, the consumer key alone (no token), the protocol \
        parameters in the query; the server reads the parameters as PHP does and keys the HMAC \
        with the raw consumer secret and &",
    ..RFC
};

const NETSUITE: Profile = Profile {
    name: "netsuite",
    provider: "Oracle NetSuite (token-based authentication)",
    method: SignatureMethod::HmacSha256,
    methods: &[SignatureMethod::HmacSha256],
    realm: RealmRule::NetSuiteAccount,
    token: TokenRule::Required,
    https_only: true,
    hosts: &[".netsuite.com"],
    requires: "HMAC-SHA256 (HMAC-SHA1 is refused since release 2023.1), a token, and the realm: \
        the account id in upper case with _ for - (1234567_SB1 for the host 1234567-sb1.…)",
    ..RFC
};

const X: Profile = Profile {
    name: "x",
    provider: "X (Twitter) API",
    https_only: true,
    hosts: &[
        "api.x.com",
        "api.twitter.com",
        "upload.twitter.com",
        "upload.x.com",
    ],
    requires: "HMAC-SHA1 in the Authorization header; a form body's parameters are signed, a \
        JSON body (API v2) is not",
    ..RFC
};

const LTI: Profile = Profile {
    name: "lti",
    provider: "IMS LTI 1.1 (tool launches and outcomes)",
    transport: Transport::FormBody,
    body_hash: BodyHashRule::NonFormBodies,
    form_callback: Some("about:blank"),
    token: TokenRule::Refused,
    requires: "HMAC-SHA1, no token; a launch is a form POST carrying the protocol parameters in \
        its body with oauth_callback=about:blank; an outcomes request is XML signed in the \
        Authorization header with oauth_body_hash",
    ..RFC
};

const JIRA: Profile = Profile {
    name: "jira",
    provider: "Jira and Confluence Server / Data Center application links",
    method: SignatureMethod::RsaSha1,
    methods: &[SignatureMethod::RsaSha1],
    callback: Some("oob"),
    requires: "RSA-SHA1 with the private key whose public key the application link holds; the \
        temporary credentials are asked for with oauth_callback=oob",
    ..RFC
};

const DISCOGS: Profile = Profile {
    name: "discogs",
    provider: "Discogs API",
    method: SignatureMethod::Plaintext,
    methods: &[SignatureMethod::Plaintext, SignatureMethod::HmacSha1],
    https_only: true,
    hosts: &["api.discogs.com"],
    requires: "PLAINTEXT over https (the signature is the key itself), in the Authorization header",
    ..RFC
};

impl Profile {
    /// Every profile, by name.
    pub const ALL: &'static [&'static Profile] = &[
        &MASTERCARD,
        &WOOCOMMERCE,
        &NETSUITE,
        &X,
        &LTI,
        &JIRA,
        &DISCOGS,
    ];

    /// The profile named `name` (`mastercard`, `woocommerce`, `netsuite`, `x`, `lti`, `jira`,
    /// `discogs`).
    #[must_use]
    pub fn named(name: &str) -> Option<&'static Profile> {
        Profile::ALL.iter().copied().find(|p| p.name == name)
    }

    /// The profile of the provider that serves `host`, if one is known by its host names.
    #[must_use]
    pub fn for_host(host: &str) -> Option<&'static Profile> {
        let host = host.to_ascii_lowercase();
        Profile::ALL.iter().copied().find(|p| {
            p.hosts.iter().any(|h| match h.strip_prefix('.') {
                Some(suffix) => host.ends_with(h) && host.len() > suffix.len() + 1,
                None => host == *h || host.ends_with(&format!(".{h}")),
            })
        })
    }

    /// The profile's name, as `--profile` takes it.
    #[must_use]
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The provider, in words.
    #[must_use]
    pub fn provider(&self) -> &'static str {
        self.provider
    }

    /// The signature method the provider expects.
    #[must_use]
    pub fn method(&self) -> SignatureMethod {
        self.method
    }

    /// The transport the provider reads the protocol parameters from.
    #[must_use]
    pub fn transport(&self) -> Transport {
        self.transport
    }

    /// When `oauth_body_hash` is sent.
    #[must_use]
    pub fn body_hash(&self) -> BodyHashRule {
        self.body_hash
    }

    /// Where the realm comes from.
    #[must_use]
    pub fn realm(&self) -> RealmRule {
        self.realm
    }

    /// The `oauth_callback` the provider requires of a temporary-credentials request, if it
    /// requires one (Jira's `oob`).
    #[must_use]
    pub fn callback(&self) -> Option<&'static str> {
        self.callback
    }

    /// The `oauth_callback` every request with a form body carries unless it has one
    /// (LTI 1.1 launches: `about:blank`); [`Profile::sign`] adds it.
    #[must_use]
    pub fn form_callback(&self) -> Option<&'static str> {
        self.form_callback
    }

    /// Whether the provider takes a token.
    #[must_use]
    pub fn token(&self) -> TokenRule {
        self.token
    }

    /// What the server computes differently from RFC 5849, as the diagnosis names it; empty
    /// when it follows the RFC.
    #[must_use]
    pub fn deviations(&self) -> &'static [Cause] {
        self.deviations
    }

    /// The deviations' ids joined with `, `, or `RFC 5849` when there are none: how the
    /// command line and the page name what a profile computes.
    #[must_use]
    pub fn deviation_list(&self) -> String {
        if self.deviations.is_empty() {
            return "RFC 5849".to_owned();
        }
        let ids: Vec<&str> = self.deviations.iter().map(|c| c.id()).collect();
        ids.join(", ")
    }

    /// What the provider requires, in words.
    #[must_use]
    pub fn requires(&self) -> &'static str {
        self.requires
    }

    /// A signer for `consumer` with the profile's signature method; add a token, a private key
    /// or a realm as the provider needs.
    #[must_use]
    pub fn signer(&self, consumer: Consumer) -> Signer {
        Signer::new(consumer).with_method(self.method)
    }

    /// Signs `request` as the provider computes: the signer's credentials, method and realm,
    /// the profile's body-hash and realm rules, and its deviations. Send the result in the
    /// profile's [`transport`](Self::transport); [`Signed::base_string`] is the provider's.
    ///
    /// # Errors
    ///
    /// Those of [`Signer::sign`], and [`Error::RefusedByProfile`] when the provider cannot take
    /// the request as given: a method it refuses, a scheme it does not sign over, a token where
    /// it takes none or none where it needs one, no realm where one is required and the host does not give it, or (for
    /// WooCommerce) a repeated name of which PHP keeps only the last value.
    pub fn sign(
        &self,
        signer: &Signer,
        request: &Request<'_>,
        nonce: &Nonce,
        timestamp: Timestamp,
    ) -> Result<Signed, Error> {
        let (signer, request) = self.prepared(signer, request)?;
        let context = Context::new(&signer, &request, nonce, timestamp, None)?;
        self.check_readable(&context)?;
        context.signed(Switches::of(self.deviations))
    }

    /// Whether `signature` (base64, as sent, percent-decoded) is the RSA signature of the
    /// base string this profile computes for the request, under the consumer's public `key`:
    /// how a server that computes as the provider does checks the RSA methods (the HMAC
    /// methods and PLAINTEXT are checked with [`Profile::reproduces`]).
    ///
    /// # Errors
    ///
    /// Those of [`Profile::sign`] but [`Error::MissingPrivateKey`], which it does not need.
    #[cfg(feature = "rsa")]
    pub fn verify_rsa(
        &self,
        signer: &Signer,
        request: &Request<'_>,
        (nonce, timestamp): (&Nonce, Timestamp),
        signature: &str,
        key: &crate::sign::PublicKey,
    ) -> Result<bool, Error> {
        use base64::Engine as _;
        let (signer, request) = self.prepared(signer, request)?;
        let context = Context::new(&signer, &request, nonce, timestamp, None)?;
        self.check_readable(&context)?;
        let base_string = context.base_string(Switches::of(self.deviations))?;
        let Ok(raw) = base64::engine::general_purpose::STANDARD.decode(signature) else {
            return Ok(false);
        };
        Ok(crate::sign::rsa_verify(
            signer.method(),
            key,
            base_string.as_bytes(),
            &raw,
        ))
    }

    /// `signer` with the profile's rules applied, and `request` with the callback the profile
    /// adds; or why the provider cannot take them.
    fn prepared<'r>(
        &self,
        signer: &Signer,
        request: &'r Request<'r>,
    ) -> Result<(Signer, Cow<'r, Request<'r>>), Error> {
        let signer = self.signer_for(signer, request)?;
        let request = match self.form_callback {
            Some(callback) if request.has_form_body() && request.step().0.is_none() => {
                Cow::Owned(request.clone().with_callback(callback))
            }
            _ => Cow::Borrowed(request),
        };
        Ok((signer, request))
    }

    /// Refuses a request the provider's server would read otherwise than it is sent.
    fn check_readable(&self, context: &Context<'_>) -> Result<(), Error> {
        if !self.deviations.contains(&Cause::ParsedAsPhp) {
            return Ok(());
        }
        match context.php_lost()? {
            Some(name) => {
                let name = String::from_utf8_lossy(&name);
                let name = name.escape_debug();
                Err(self.refuse(format!(
                    "PHP keeps only the last value of the repeated name \"{name}\", so the server would see another request than the one sent: join the values (\"{name}=1,2\"), or send them as an array (\"{name}[]=1&{name}[]=2\")"
                )))
            }
            None => Ok(()),
        }
    }

    /// Whether `observed` (the other side's signature, base string or both) is what this
    /// profile computes for the request: the other side signs, or verifies, as the provider
    /// does. The signature is compared in constant time.
    ///
    /// # Errors
    ///
    /// Those of [`Profile::sign`]: a request the profile refuses is not compared.
    pub fn reproduces(
        &self,
        signer: &Signer,
        request: &Request<'_>,
        nonce: &Nonce,
        timestamp: Timestamp,
        observed: &Observed<'_>,
    ) -> Result<bool, Error> {
        let computed = self.sign(signer, request, nonce, timestamp)?;
        if let Some(base_string) = observed.given_base_string() {
            if base_string != computed.base_string().as_str() {
                return Ok(false);
            }
        }
        Ok(observed
            .given_signature()
            .is_none_or(|signature| same_secret(signature, computed.signature().as_str())))
    }

    /// The first profile whose deviations include every one of `causes`, if one does: what a
    /// diagnosis names may then be what that provider computes (a deviation that changes
    /// nothing for a request, such as a form's body hash for a GET, is not named for it);
    /// [`Profile::reproduces`] says whether it is.
    #[must_use]
    pub fn deviating_by(causes: &[Cause]) -> Option<&'static Profile> {
        if causes.is_empty() {
            return None;
        }
        Profile::ALL
            .iter()
            .copied()
            .find(|p| causes.iter().all(|c| p.deviations.contains(c)))
    }

    /// `signer` with the profile's rules applied for `request`, or why the provider cannot take
    /// it.
    fn signer_for(&self, signer: &Signer, request: &Request<'_>) -> Result<Signer, Error> {
        let method = signer.method();
        if !self.methods.contains(&method) {
            let names: Vec<&str> = self.methods.iter().map(|m| m.as_str()).collect();
            return Err(self.refuse(format!("it takes {}, not {method}", names.join(" or "))));
        }
        let scheme = request.url().scheme();
        if self.https_only && scheme != "https" {
            return Err(self.refuse("it is called over https only: write the URL with https://"));
        }
        if self.http_only && scheme != "http" {
            return Err(self.refuse(
                "it signs with OAuth 1.0a over http only; over https, send the consumer key and secret as HTTP Basic credentials",
            ));
        }
        match (self.token, signer.token().is_some()) {
            (TokenRule::Refused, true) => {
                return Err(self.refuse("it takes the consumer key alone: leave the token out"));
            }
            (TokenRule::Required, false) => {
                return Err(self.refuse(
                    "every request carries the token (token-based authentication): give the token and its secret",
                ));
            }
            _ => {}
        }
        let mut signer = signer.clone();
        signer = match self.body_hash {
            BodyHashRule::Signer => signer,
            BodyHashRule::Always => signer.with_body_hash(BodyHash::Send),
            BodyHashRule::NonFormBodies => {
                let hashed = !request.has_form_body() && !request.body().is_empty();
                signer.with_body_hash(if hashed {
                    BodyHash::Send
                } else {
                    BodyHash::Omit
                })
            }
        };
        if self.realm == RealmRule::NetSuiteAccount && signer.realm().is_none() {
            let host = request.url().host_str().unwrap_or("");
            let realm = netsuite_account(host).ok_or_else(|| {
                self.refuse(format!(
                    "the realm is the account id, which the host \"{host}\" does not give: give the realm (1234567_SB1), or call <account>.suitetalk.api.netsuite.com"
                ))
            })?;
            signer = signer.with_realm(Realm::new(realm)?);
        }
        Ok(signer)
    }

    fn refuse(&self, reason: impl Into<String>) -> Error {
        Error::RefusedByProfile {
            profile: self.name,
            reason: reason.into(),
        }
    }
}

/// What a diagnosis says of a provider profile: which one, and whether the other side computes
/// as it does ([`Finding::find`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    profile: &'static Profile,
    reproduces: bool,
    text: String,
}

impl Finding {
    /// The profile a diagnosis names, if any: `given` (the one the user chose), else the one
    /// whose deviations include the causes `explanation` found (each alone when they are
    /// alternatives), else the one the request's host belongs to; and whether `observed` is
    /// what it computes for the request, or why it cannot sign it.
    #[must_use]
    pub fn find(
        given: Option<&'static Profile>,
        explanation: &Explanation,
        (signer, request): (&Signer, &Request<'_>),
        (nonce, timestamp): (&Nonce, Timestamp),
        observed: &Observed<'_>,
    ) -> Option<Finding> {
        let found = || {
            let causes = explanation.causes();
            let by_causes = if explanation.is_pair() {
                Profile::deviating_by(causes)
            } else {
                causes
                    .iter()
                    .chain(explanation.alternatives())
                    .find_map(|c| Profile::deviating_by(std::slice::from_ref(c)))
            };
            by_causes.or_else(|| request.url().host_str().and_then(Profile::for_host))
        };
        let profile = given.or_else(found)?;
        let name = profile.name;
        let (reproduces, text) =
            match profile.reproduces(signer, request, nonce, timestamp, observed) {
                Ok(true) => (
                    true,
                    format!(
                    "{name}: the other side computes as {} does ({}); sign with --profile {name}",
                    profile.provider,
                    profile.deviation_list(),
                ),
                ),
                Ok(false) => (
                    false,
                    format!(
                        "{name}: not what {} computes; it requires {}",
                        profile.provider, profile.requires
                    ),
                ),
                Err(e) => (false, format!("{name}: {e}")),
            };
        Some(Finding {
            profile,
            reproduces,
            text,
        })
    }

    /// The profile named.
    #[must_use]
    pub fn profile(&self) -> &'static Profile {
        self.profile
    }

    /// Whether the other side computes as the profile does.
    #[must_use]
    pub fn reproduces(&self) -> bool {
        self.reproduces
    }

    /// The finding in words, as `oauth1 explain` prints it after `profile:`.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// The NetSuite account id of a host `<account>.<service>.netsuite.com`, as the realm writes
/// it: `1234567-sb1` → `1234567_SB1`.
fn netsuite_account(host: &str) -> Option<String> {
    let host = host.to_ascii_lowercase();
    let rest = host.strip_suffix(".netsuite.com")?;
    let (account, _) = rest.split_once('.')?;
    let valid = !account.is_empty()
        && account
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    valid.then(|| account.to_ascii_uppercase().replace('-', "_"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_found() {
        for profile in Profile::ALL {
            assert_eq!(Profile::named(profile.name()), Some(*profile));
            assert!(profile.methods.contains(&profile.method()));
        }
        assert_eq!(Profile::named("Mastercard"), None);
    }

    #[test]
    fn hosts_name_their_provider() {
        let name = |host| Profile::for_host(host).map(Profile::name);
        assert_eq!(name("api.mastercard.com"), Some("mastercard"));
        assert_eq!(name("sandbox.api.mastercard.com"), Some("mastercard"));
        assert_eq!(
            name("1234567-SB1.suitetalk.api.netsuite.com"),
            Some("netsuite")
        );
        assert_eq!(name("api.x.com"), Some("x"));
        assert_eq!(name("api.discogs.com"), Some("discogs"));
        assert_eq!(name("netsuite.com.evil.example"), None);
        assert_eq!(name("notapi.mastercard.com"), None);
        assert_eq!(name("example.com"), None);
    }

    #[test]
    fn netsuite_accounts_as_the_realm_writes_them() {
        // NetSuite's rule: the account id in upper case, a sandbox's `-sb1` as `_SB1`.
        let account = |host| netsuite_account(host);
        assert_eq!(
            account("1234567-sb1.suitetalk.api.netsuite.com").as_deref(),
            Some("1234567_SB1")
        );
        assert_eq!(
            account("tstdrv123.restlets.api.netsuite.com").as_deref(),
            Some("TSTDRV123")
        );
        assert_eq!(account("netsuite.com"), None);
        assert_eq!(account("1234567.example.com"), None);
    }
}
