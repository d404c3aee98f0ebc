//! The signing pipeline with switches: each [`Cause`] turns one stage into the mistake it
//! names. A stage whose switches are all off is the signing code itself.
//!
//! Stage order, as the shared definitions give it: base URI → parameter collection →
//! empty-value drop → duplicate collapse → encoding → sort → base string → key → digest.

use std::borrow::Cow;
use std::cell::OnceCell;

use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine;
use zeroize::Zeroizing;

mod assembly;
mod groups;

use assembly::{encoded_once_by_javascript, parameter_string};
pub(crate) use groups::EXCLUSIVE;
use groups::{ASSEMBLY, COLLECTION, RESHAPING, URI};

use super::cause::Cause;
use super::php;
use super::wrong::{self, Rules};
use crate::base_string::{BaseString, BaseUri};
use crate::collect::{self as collection, Protocol, Sources};
use crate::credentials::{BodyHash, Nonce, Timestamp};
use crate::encode::Value;
use crate::error::Error;
use crate::params::{Normalized, Parameter, Parameters, Source};
use crate::request::{Request, Signed, Signer};
use crate::sign::{self, Signature, SignatureMethod, SigningKey};

/// A set of causes, switched on together in one pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Switches {
    bits: u64,
    /// For [`Cause::ParameterNotSigned`]: which query or form-body parameter, counted in the
    /// order collected, the other side left out.
    unsigned: Option<usize>,
    /// For [`Cause::QueryStartNotSigned`]: how many of the query's first parameters the other
    /// side left out.
    leading: Option<usize>,
}

impl Switches {
    /// The reference: every switch off.
    pub(crate) const NONE: Switches = Switches {
        bits: 0,
        unsigned: None,
        leading: None,
    };

    pub(crate) fn of(causes: &[Cause]) -> Switches {
        Switches {
            bits: causes.iter().fold(0, |bits, &c| bits | bit(c)),
            unsigned: None,
            leading: None,
        }
    }

    /// [`Cause::QueryStartNotSigned`] for the query's first `count` parameters, with `with` (a
    /// second cause) if any.
    pub(crate) fn query_start(count: usize, with: Option<Cause>) -> Switches {
        let mut causes = vec![Cause::QueryStartNotSigned];
        causes.extend(with);
        Switches {
            leading: Some(count),
            ..Switches::of(&causes)
        }
    }

    /// [`Cause::ParameterNotSigned`] for the query or form-body parameter at `index`.
    pub(crate) fn unsigned(index: usize) -> Switches {
        Switches::unsigned_with(index, &[])
    }

    /// [`Switches::unsigned`] with other causes.
    pub(crate) fn unsigned_with(index: usize, with: &[Cause]) -> Switches {
        let mut causes = vec![Cause::ParameterNotSigned];
        causes.extend_from_slice(with);
        Switches {
            unsigned: Some(index),
            ..Switches::of(&causes)
        }
    }

    pub(crate) fn has(self, cause: Cause) -> bool {
        self.bits & bit(cause) != 0
    }

    fn any(self, causes: &[Cause]) -> bool {
        causes.iter().any(|&c| self.has(c))
    }
}

// One bit per cause.
const _: () = assert!(Cause::ALL.len() <= 64);

fn bit(cause: Cause) -> u64 {
    1 << (cause as u8)
}

/// The URL's scheme, host and port as written, which the parsed URL no longer has.
#[derive(Clone, Copy, Debug, Default)]
struct UrlAsWritten<'a> {
    scheme: &'a str,
    host: &'a str,
    port: Option<&'a str>,
    query: Option<&'a str>,
}

impl<'a> UrlAsWritten<'a> {
    fn parse(url: &'a str) -> UrlAsWritten<'a> {
        let url = url.trim();
        let Some((scheme, rest)) = url.split_once("://") else {
            return UrlAsWritten::default();
        };
        let (before_fragment, _) = rest.split_once('#').unwrap_or((rest, ""));
        let query = before_fragment.split_once('?').map(|(_, q)| q);
        let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
        let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        let (host, port) = match host_port.rfind(':') {
            Some(colon) if !host_port[colon..].contains(']') => {
                (&host_port[..colon], Some(&host_port[colon + 1..]))
            }
            _ => (host_port, None),
        };
        UrlAsWritten {
            scheme,
            host,
            port,
            query,
        }
    }
}

/// One request and its credentials, with what every pass shares worked out once.
pub(crate) struct Context<'a> {
    signer: &'a Signer,
    request: &'a Request<'a>,
    nonce: &'a Nonce,
    timestamp: String,
    body_hash: Option<String>,
    /// The hash of a form body the other side sent `oauth_body_hash` with, which RFC 5849's
    /// computation leaves out ([`Cause::FormBodyHashed`] puts it back).
    form_body_hash: Option<String>,
    written: UrlAsWritten<'a>,
    /// The `Authorization` header the request was received with: its parameters other than
    /// the realm and those the signer writes are collected too.
    header: Option<&'a str>,
    /// The parameters as RFC 5849 collects them, and normalized: every reading whose causes
    /// leave collection alone ([`COLLECTION`]) shares them, so that the query and the body are
    /// collected and decoded once, and sorted and encoded once for the readings that change
    /// neither.
    collected: OnceCell<Parameters>,
    normalized: OnceCell<Normalized>,
}

/// The parameters of a received `Authorization` header that the signer writes itself: every
/// other one (but the realm) is collected from the header as it is.
const WRITTEN_BY_THE_SIGNER: [&str; 10] = [
    "oauth_body_hash",
    "oauth_callback",
    "oauth_consumer_key",
    "oauth_nonce",
    "oauth_signature",
    "oauth_signature_method",
    "oauth_timestamp",
    "oauth_token",
    "oauth_verifier",
    "oauth_version",
];

impl<'a> Context<'a> {
    pub(crate) fn new(
        signer: &'a Signer,
        request: &'a Request<'a>,
        nonce: &'a Nonce,
        timestamp: Timestamp,
        written_url: Option<&'a str>,
    ) -> Result<Self, Error> {
        // A body hash sent with a form body is a mistake the diagnosis names, not an error:
        // the reference signs the form's parameters without it, as RFC 5849 does.
        let hashed_form = request.has_form_body() && signer.body_hash() == BodyHash::Send;
        Ok(Context {
            signer,
            request,
            nonce,
            timestamp: timestamp.to_string(),
            body_hash: if hashed_form {
                None
            } else {
                signer.body_hash_of(request)?
            },
            form_body_hash: hashed_form.then(|| sign::body_hash(signer.method(), request.body())),
            written: written_url
                .or(request.url_as_written())
                .map(UrlAsWritten::parse)
                .unwrap_or_default(),
            header: None,
            collected: OnceCell::new(),
            normalized: OnceCell::new(),
        })
    }

    /// The same, for a request received with the `Authorization` header `header`, whose
    /// parameters a verifier collects (RFC 5849 §3.4.1.3.1): those the signer does not write
    /// are collected after the protocol parameters, as [`Source::Header`], with the verifier's
    /// parser.
    pub(crate) fn with_header(mut self, header: Option<&'a str>) -> Self {
        self.header = header;
        // The body hash a verifier signs is the one sent, not one computed again: the two
        // differ when the client hashed with another digest (SHA-1 beside an HMAC-SHA256
        // signature), which the verifier checks apart, after the signature.
        let limits = crate::header::Limits::new(usize::MAX, usize::MAX);
        let sent = header
            .and_then(|h| crate::header::Authorization::parse_with(h, &limits).ok())
            .and_then(|h| h.get("oauth_body_hash").map(<[u8]>::to_vec))
            .and_then(|v| String::from_utf8(v).ok());
        if let (Some(sent), Some(_)) = (sent, &self.body_hash) {
            self.body_hash = Some(sent);
        }
        self
    }

    /// The parameters of the received header that the signer does not write, added to
    /// `params`.
    fn push_header_parameters(&self, params: &mut Parameters) -> Result<(), Error> {
        let Some(header) = self.header else {
            return Ok(());
        };
        let limits = crate::header::Limits::new(usize::MAX, usize::MAX);
        crate::header::parse_parts(header, &limits, |part| {
            if WRITTEN_BY_THE_SIGNER.contains(&part.name) {
                return Ok(());
            }
            params.push_header(part.name, part.clean_name, part.content)
        })
        .map(|_| ())
        .map_err(|e| Error::InvalidHeader {
            detail: e.to_string(),
        })
    }

    pub(crate) fn method(&self) -> SignatureMethod {
        self.signer.method()
    }

    /// The bytes of the request every reading reads: its query and its body.
    pub(crate) fn read_len(&self) -> usize {
        let sources = self.request.sources();
        sources.query.len() + sources.body.len()
    }

    #[cfg(feature = "rsa")]
    pub(crate) fn signer(&self) -> &Signer {
        self.signer
    }

    /// The request signed with `switches` on, as a [`Signed`] whose base string and signature
    /// are the variant's: how a profile signs as its provider computes.
    pub(crate) fn signed(&self, switches: Switches) -> Result<Signed, Error> {
        self.signed_with(switches, switches)
    }

    /// The request with the protocol parameters RFC 5849 sends, and the base string and
    /// signature of `switches`: what a server making those mistakes accepts, as a probe asks.
    pub(crate) fn signed_as_sent(&self, switches: Switches) -> Result<Signed, Error> {
        self.signed_with(Switches::NONE, switches)
    }

    /// The parameters of `sent`, the base string and signature of `switches`.
    fn signed_with(&self, sent: Switches, switches: Switches) -> Result<Signed, Error> {
        let params = self.parameters(sent)?.normalize();
        let base_string = self.base_string(switches)?;
        let method = self.signer.method();
        let signature = if method.is_rsa() {
            #[cfg(feature = "rsa")]
            let private_key = self.signer.private_key();
            #[cfg(not(feature = "rsa"))]
            let private_key = None;
            sign::sign(
                method,
                self.signer.key(),
                private_key,
                base_string.as_bytes(),
            )?
        } else {
            let value = self
                .signature(switches, &base_string)?
                .ok_or(Error::MissingPrivateKey { method })?;
            Signature::new(method, value)
        };
        let uri = self.base_uri(sent)?;
        Ok(Signed::of_variant(
            self.request.method(),
            uri.as_str(),
            params,
            base_string,
            signature,
            self.signer.realm().cloned(),
        ))
    }

    /// The names of the query and form-body parameters as the reference collects them: those
    /// [`Switches::unsigned`] counts, in that order.
    pub(crate) fn parameter_names(&self) -> Result<Vec<Vec<u8>>, Error> {
        let params = self.collected(Switches::NONE)?;
        Ok(params
            .iter()
            .filter(|p| p.source != Source::Protocol)
            .map(|p| p.name.to_vec())
            .collect())
    }

    /// How many query parameters the reference collects ([`Switches::query_start`] counts
    /// them).
    pub(crate) fn query_parameter_count(&self) -> Result<usize, Error> {
        let params = self.collected(Switches::NONE)?;
        Ok(params.iter().filter(|p| p.source == Source::Query).count())
    }

    /// The first name whose earlier values PHP's reading of this request drops, if any.
    pub(crate) fn php_lost(&self) -> Result<Option<Vec<u8>>, Error> {
        let params = self.parameters(Switches::of(&[Cause::ParsedAsPhp]))?;
        Ok(php::read(&params).lost.into_iter().next())
    }

    /// The parameters with `switches` on: the reference's, collected once, unless a cause
    /// of [`COLLECTION`] is on.
    fn collected(&self, switches: Switches) -> Result<Cow<'_, Parameters>, Error> {
        if switches.any(COLLECTION) {
            let reads_otherwise = COLLECTION
                .iter()
                .any(|&c| switches.has(c) && !RESHAPING.contains(&c));
            if !reads_otherwise {
                // The reference's collection, reshaped: the sources are not decoded again.
                let reference = self.collected(Switches::NONE)?.into_owned();
                return Ok(Cow::Owned(self.reshaped(reference, switches)));
            }
            return self.parameters(switches).map(Cow::Owned);
        }
        if let Some(params) = self.collected.get() {
            return Ok(Cow::Borrowed(params));
        }
        let params = self.parameters(Switches::NONE)?;
        Ok(Cow::Borrowed(self.collected.get_or_init(|| params)))
    }

    /// The base string with `switches` on.
    pub(crate) fn base_string(&self, switches: Switches) -> Result<BaseString, Error> {
        let params = self.collected(switches)?;
        let uri = self.base_uri(switches)?;
        if !switches.any(ASSEMBLY) {
            let method = self.request.method();
            return Ok(match params {
                Cow::Borrowed(params) => {
                    let normalized = self.normalized.get_or_init(|| params.clone().normalize());
                    BaseString::new(method, &uri, normalized)
                }
                Cow::Owned(params) => BaseString::new(method, &uri, &params.normalize()),
            });
        }
        let method = if switches.has(Cause::MethodNotUppercased) {
            self.request.method().to_owned()
        } else {
            self.request.method().to_ascii_uppercase()
        };
        if switches.has(Cause::ParsedAsPhp) {
            // WooCommerce's parameter string is encoded twice already.
            let read = php::read(&params);
            return Ok(BaseString::assemble(
                &method,
                uri.as_str(),
                &read.string,
                false,
            ));
        }
        // Mastercard's Python signer puts a query without escapes into the string as sent.
        let query_as_sent = switches.has(Cause::QueryAsSentEncodedOnce)
            || (switches.has(Cause::UnescapedQueryEncodedOnce)
                && !self
                    .written
                    .query
                    .map_or(self.request.sources().query, str::as_bytes)
                    .contains(&b'%'));
        let normalized = parameter_string(&params, switches, query_as_sent);
        if switches.has(Cause::QueryAsSentEncodedOnce) {
            return Ok(encoded_once_by_javascript(
                &method,
                uri.as_str(),
                &normalized,
            ));
        }
        if switches.has(Cause::SlashUnencoded) && !switches.has(Cause::ParamStringNotReencoded) {
            // The second encoding written as `%` to `%25` after Python's quote: `/` stays.
            let mut outer = Vec::with_capacity(normalized.len() * 3 / 2);
            let rules = Rules {
                slash_literal: true,
                ..Rules::RFC
            };
            wrong::encode_by(&normalized, rules, &mut outer);
            return Ok(BaseString::assemble(&method, uri.as_str(), &outer, false));
        }
        Ok(BaseString::assemble(
            &method,
            uri.as_str(),
            &normalized,
            !switches.has(Cause::ParamStringNotReencoded),
        ))
    }

    /// Collection, the protocol parameters, the empty-value drop and the duplicate collapse.
    fn parameters(&self, switches: Switches) -> Result<Parameters, Error> {
        // The cause is that state: it changes nothing for a request sent without a body hash
        // or without a form body.
        let body_hash = match &self.form_body_hash {
            Some(hash) if switches.has(Cause::FormBodyHashed) => Some(hash.as_str()),
            _ => self.body_hash.as_deref(),
        };
        let mut protocol: Protocol<'_> = self.signer.protocol_parameters(
            self.request.step(),
            self.nonce,
            self.timestamp.as_bytes(),
            body_hash,
        );
        for (name, value) in &mut protocol {
            // A value put in place here is checked for bytes to escape like any other.
            let name = name.as_bytes();
            let off = match name {
                b"oauth_callback" => switches.has(Cause::CallbackNotSigned),
                b"oauth_verifier" => switches.has(Cause::VerifierNotSigned),
                b"oauth_body_hash" => switches.has(Cause::BodyHashNotSigned),
                _ => false,
            };
            if off {
                *value = None;
            }
            if name == b"oauth_version" && switches.has(Cause::VersionMismatch) {
                *value = if value.is_some() {
                    None
                } else {
                    Some(Value::Unchecked(b"1.0"))
                };
            }
            if name == b"oauth_token" && value.is_none() && switches.has(Cause::EmptyTokenIncluded)
            {
                *value = Some(Value::Unchecked(b""));
            }
        }
        // What the mistaken collector reads: the RFC's sources, the query left out, the body
        // taken or left whatever its type, the texts escaped so that the RFC's decoder leaves
        // what the mistaken decoder left.
        let rfc = self.request.sources();
        let query = if switches.any(&[Cause::QueryNotSigned, Cause::QueryInBaseUri]) {
            &[][..]
        } else {
            rfc.query
        };
        let form_hashed = switches.has(Cause::FormBodyHashed) && self.form_body_hash.is_some();
        let form = if switches.has(Cause::FormBodyNotSigned) || form_hashed {
            false
        } else {
            rfc.form || switches.has(Cause::NonFormBodySigned)
        };
        let read = |text| {
            if switches.has(Cause::QueryNotDecoded) {
                wrong::undecoded(text)
            } else if switches.has(Cause::PlusNotDecoded) {
                wrong::plus_kept(text)
            } else if switches.has(Cause::DecodedTwice) {
                wrong::decoded_twice(text)
            } else {
                std::borrow::Cow::Borrowed(text)
            }
        };
        // Names left as on the wire: escaped first, so that the value decoders' escapes leave
        // them alone.
        let query = if switches.has(Cause::ValueCutAtEquals) {
            wrong::cut_at_second_equals(query)
        } else {
            std::borrow::Cow::Borrowed(query)
        };
        let cut = query;
        let query = if switches.has(Cause::QueryNamesNotDecoded) {
            wrong::names_undecoded(&cut)
        } else {
            std::borrow::Cow::Borrowed(&*cut)
        };
        let query = if switches.has(Cause::QueryUtf8EncodedTwice) {
            wrong::utf8_twice(&query)
        } else {
            std::borrow::Cow::Borrowed(&*query)
        };
        let query = if switches.has(Cause::QueryAsSentEncodedOnce) {
            wrong::undecoded(&query)
        } else {
            read(&query)
        };
        let body = read(rfc.body);
        let sources = Sources {
            query: &query,
            body: &body,
            form,
        };
        let mut params = collection::collect_all(sources, &protocol)?;
        self.push_header_parameters(&mut params)?;
        Ok(self.reshaped(params, switches))
    }

    /// What the collected parameters become: one left out ([`Cause::ParameterNotSigned`]), the
    /// realm added, empty values dropped, names renamed, duplicates collapsed.
    fn reshaped(&self, mut params: Parameters, switches: Switches) -> Parameters {
        if let (true, Some(index)) = (switches.has(Cause::ParameterNotSigned), switches.unsigned) {
            let mut at = 0;
            params.retain(|p| {
                if p.source == Source::Protocol {
                    return true;
                }
                at += 1;
                at - 1 != index
            });
        }
        if let (true, Some(count)) = (switches.has(Cause::QueryStartNotSigned), switches.leading) {
            let mut at = 0;
            params.retain(|p| {
                if p.source != Source::Query {
                    return true;
                }
                at += 1;
                at > count
            });
        }
        if switches.has(Cause::RealmSigned) {
            if let Some(realm) = self.signer.realm() {
                params.push(Source::Protocol, b"realm", realm.as_str().as_bytes());
            }
        }
        if switches.has(Cause::EmptyValueDropped) {
            params.retain(|p| p.source == Source::Protocol || !p.value.is_empty());
        }
        if switches.any(&[Cause::RepeatedNamesIndexed, Cause::ArrayBracketsDropped]) {
            params = renamed(&params, switches);
        }
        let (last, first) = (
            switches.has(Cause::DuplicatesCollapsed),
            switches.has(Cause::FirstDuplicateKept),
        );
        if last || first {
            // One occurrence per name, the last (or the first) collected.
            let all: Vec<Parameter<'_>> = params.iter().collect();
            let kept: Vec<bool> = (0..all.len())
                .map(|i| {
                    let others = if last { &all[i + 1..] } else { &all[..i] };
                    others.iter().all(|q| q.name != all[i].name)
                })
                .collect();
            let mut at = 0;
            params.retain(|_| {
                at += 1;
                kept[at - 1]
            });
        }
        params
    }

    /// The base string URI with `switches` on.
    fn base_uri(&self, switches: Switches) -> Result<BaseUri<'a>, Error> {
        if !switches.any(URI) {
            return self.request.base_uri();
        }
        let url = self.request.url();
        let written = self.written;
        let scheme = url.scheme();
        let mut uri = String::new();
        if switches.has(Cause::SchemeChanged) {
            uri.push_str(if scheme == "https" { "http" } else { "https" });
        } else if switches.has(Cause::HostNotLowercased)
            && written.scheme.eq_ignore_ascii_case(scheme)
        {
            uri.push_str(written.scheme);
        } else {
            uri.push_str(scheme);
        }
        uri.push_str("://");
        let host = url.host_str().unwrap_or("");
        if switches.has(Cause::HostNotLowercased) && written.host.eq_ignore_ascii_case(host) {
            uri.push_str(written.host);
        } else {
            uri.push_str(host);
        }
        let default_port = if scheme == "https" { "443" } else { "80" };
        if switches.has(Cause::DefaultPortKept) && written.port == Some(default_port) {
            uri.push(':');
            uri.push_str(default_port);
        } else if let (Some(port), false) = (url.port(), switches.has(Cause::PortDropped)) {
            uri.push(':');
            uri.push_str(&port.to_string());
        }
        let decoded;
        let path = if switches.has(Cause::PathDecoded) {
            // A path whose escapes do not decode to UTF-8 text is kept as it is.
            decoded = crate::encode::decode(url.path().as_bytes())
                .ok()
                .and_then(|bytes| String::from_utf8(bytes.into_owned()).ok());
            decoded.as_deref().unwrap_or(url.path())
        } else {
            url.path()
        };
        if switches.has(Cause::TrailingSlashChanged) {
            if let Some(without) = path.strip_suffix('/') {
                uri.push_str(without);
            } else {
                uri.push_str(path);
                uri.push('/');
            }
        } else {
            uri.push_str(path);
        }
        if switches.has(Cause::QueryInBaseUri) {
            let query = written.query.or_else(|| url.query()).unwrap_or("");
            if !query.is_empty() {
                uri.push('?');
                uri.push_str(query);
            }
        }
        Ok(BaseUri::from_text(uri))
    }

    /// The HMAC or PLAINTEXT signature of `base_string` with `switches` on (the key and digest
    /// stages); `None` for the RSA methods, which are checked with the public key instead.
    pub(crate) fn signature(
        &self,
        switches: Switches,
        base_string: &BaseString,
    ) -> Result<Option<Zeroizing<String>>, Error> {
        let method = self.signer.method();
        if method.is_rsa() {
            return Ok(None);
        }
        let variant_key = self.key(switches);
        let key = variant_key.as_ref().unwrap_or(self.signer.key());
        if method == SignatureMethod::Plaintext {
            return Ok(Some(Zeroizing::new(
                String::from_utf8_lossy(key.expose()).into_owned(),
            )));
        }
        let hash = match (switches.has(Cause::WrongHash), method) {
            (true, SignatureMethod::HmacSha256) => SignatureMethod::HmacSha1,
            (true, _) => SignatureMethod::HmacSha256,
            (false, _) => method,
        };
        let digest = sign::hmac_digest(hash, key, base_string.as_bytes())?;
        Ok(Some(Zeroizing::new(if switches.has(Cause::SignatureHex) {
            use std::fmt::Write;
            digest.iter().fold(String::new(), |mut hex, b| {
                let _ = write!(hex, "{b:02x}");
                hex
            })
        } else if switches.has(Cause::SignatureBase64Url) {
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&*digest)
        } else {
            BASE64.encode(&*digest)
        })))
    }

    /// The signing key with the key switches on; `None` when they change nothing.
    fn key(&self, switches: Switches) -> Option<SigningKey> {
        let cs = self.signer.consumer().secret().expose();
        let ts = self.signer.token().map_or(&[][..], |t| t.secret().expose());
        let raw = switches.has(Cause::KeySecretsNotEncoded);
        let drop_ampersand = switches.has(Cause::KeyMissingAmpersand) && ts.is_empty();
        let drop_token = switches.has(Cause::KeyTokenSecretMissing) && !ts.is_empty();
        if switches.has(Cause::KeySecretsSwapped) {
            return Some(SigningKey::joined(ts, Some(cs), !raw));
        }
        if !raw && !drop_ampersand && !drop_token {
            return None;
        }
        let token_secret = if drop_ampersand {
            None
        } else if drop_token {
            Some(&[][..])
        } else {
            Some(ts)
        };
        Some(SigningKey::joined(cs, token_secret, !raw))
    }
}

/// The parameters with their names as the array-reading collectors make them: a query name
/// repeated, each occurrence indexed by its position (`a[0]`, `a[1]`), and `k[]` or `k[N]`
/// (N up to 20, `qs`'s array limit) as `k`.
fn renamed(params: &Parameters, switches: Switches) -> Parameters {
    use std::collections::HashMap;

    let index = switches.has(Cause::RepeatedNamesIndexed);
    let drop_brackets = switches.has(Cause::ArrayBracketsDropped);
    // How often each query name occurs, and how many of them are already renamed.
    let mut occurrences: HashMap<&[u8], (usize, usize)> = HashMap::new();
    for p in params.iter().filter(|p| p.source == Source::Query) {
        occurrences.entry(p.name).or_default().0 += 1;
    }
    let mut out = Parameters::with_capacity(params.len(), 0);
    for p in params.iter() {
        let counts = occurrences
            .get_mut(p.name)
            .filter(|_| p.source == Source::Query);
        match counts {
            Some((total, seen)) if index && *total > 1 => {
                let mut name = p.name.to_vec();
                name.extend_from_slice(format!("[{seen}]").as_bytes());
                *seen += 1;
                out.push(p.source, &name, p.value);
            }
            _ if drop_brackets && p.source != Source::Protocol => {
                out.push(p.source, array_base(p.name).unwrap_or(p.name), p.value);
            }
            _ => out.push(p.source, p.name, p.value),
        }
    }
    out
}

/// `k` of a name `k[]` or `k[N]` with N from 0 to 20 (its last bracket pair), as the `qs`
/// library reads an array.
fn array_base(name: &[u8]) -> Option<&[u8]> {
    let open = name.iter().rposition(|&b| b == b'[')?;
    let index = name.get(open + 1..name.len() - 1)?;
    let is_index = index.iter().all(u8::is_ascii_digit)
        && (index.is_empty() || std::str::from_utf8(index).ok()?.parse::<u32>().ok()? <= 20);
    (open > 0 && name.last() == Some(&b']') && is_index).then(|| &name[..open])
}

#[cfg(test)]
mod tests;
