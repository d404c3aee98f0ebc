//! `oauth1 sign`: a request from the flags, signed, every stage shown on request; and
//! `oauth1 sign --jsonl`, request cases in, results out.

use oauth1_capture::{key_shape, sent_shown, shown, signed_parameter_string, Capture, Protocol};
use oauth1_cases::answer;
use oauth1_signer::profile::Profile;
use oauth1_signer::{Error, Nonce, PrivateKey, Request, Signed, Signer, Timestamp, Transport};

use crate::input::{consumer_secret, each_line, read_text, SignArgs};

const NO_CONSUMER_KEY: &str = "no consumer key: give --consumer-key, or the request as the client sent it (--authorization, --curl, --http, --har, or a --url whose query carries oauth_signature)";

/// The first protocol parameter given as a flag, for a request that carries its own.
fn protocol_flag(args: &SignArgs) -> Option<&'static str> {
    [
        (args.consumer_key.is_some(), "--consumer-key"),
        (args.token.is_some(), "--token"),
        (args.nonce.is_some(), "--nonce"),
        (args.timestamp.is_some(), "--timestamp"),
        (args.realm.is_some(), "--realm"),
        (args.callback.is_some(), "--callback"),
        (args.verifier.is_some(), "--verifier"),
        (args.no_version, "--no-version"),
        (args.body_hash, "--body-hash"),
    ]
    .into_iter()
    .find_map(|(given, flag)| given.then_some(flag))
}

pub(crate) fn jsonl() -> Result<(), String> {
    each_line(answer)
}

/// A request the flags describe, with everything to sign it: the signer, the request's parts
/// and protocol parameters, the nonce and the timestamp.
pub(crate) struct FromFlags {
    pub(crate) signer: Signer,
    /// The request: method, URL, `Content-Type` and body.
    capture: Capture,
    /// The protocol parameters, as typed or as the capture or header carried them.
    protocol: Protocol,
    pub(crate) nonce: Nonce,
    pub(crate) timestamp: Timestamp,
    /// The provider profile to sign as, if any.
    pub(crate) profile: Option<&'static Profile>,
    /// Where the protocol parameters go.
    pub(crate) transport: Transport,
}

impl FromFlags {
    /// Reads the flags; a random nonce and the clock's time unless given, when `fresh` allows
    /// it. A capture (`--curl`, `--http`, an entry of `--har`) or a header (`--authorization`)
    /// is read as the web page reads it: [`Capture::protocol`], [`Protocol::signer`].
    pub(crate) fn new(mut args: SignArgs, fresh: bool) -> Result<FromFlags, String> {
        let (capture, protocol) = if args.curl.is_some()
            || args.http.is_some()
            || args.captured.is_some()
            || args.read_http.is_some()
        {
            let (flag, capture) = match (args.captured.take(), args.read_http.take()) {
                (Some((_, capture)), _) => ("--har", capture),
                (None, Some(capture)) => ("--http", capture),
                (None, None) => crate::capture::read(
                    args.curl.as_deref(),
                    args.http.as_ref(),
                    args.scheme.as_deref().unwrap_or("https"),
                    args.request.body_file.as_ref(),
                )?,
            };
            capture.protocol().map_err(|e| format!("{flag}: {e}"))?
        } else {
            let typed = args.request.capture()?;
            if args.authorization.is_none() && typed.carries_oauth() {
                // A request as the client sent it, its protocol parameters in its query or form
                // body: read as `--curl` reads them.
                if let Some(flag) = protocol_flag(&args) {
                    return Err(format!(
                        "the request carries its protocol parameters (oauth_signature in its query or form body), and {flag} gives one too: give them in the request or in the flags, not both"
                    ));
                }
                typed.protocol().map_err(|e| format!("--url: {e}"))?
            } else {
                let protocol = match &args.authorization {
                    Some(header) => Protocol::from_authorization(header)
                        .map_err(|e| format!("--authorization: {e}"))?,
                    None => Protocol {
                        consumer_key: args.consumer_key.take().ok_or(NO_CONSUMER_KEY)?,
                        signature_method: args.signature_method.clone().unwrap_or_else(|| {
                            args.profile
                                .map_or("HMAC-SHA1", |p| p.method().as_str())
                                .to_owned()
                        }),
                        nonce: args.nonce.take(),
                        timestamp: args.timestamp.take(),
                        token: args.token.take(),
                        callback: args.callback.take(),
                        verifier: args.verifier.take(),
                        realm: args.realm.take(),
                        version: !args.no_version,
                        body_hash: args.body_hash,
                        signature: None,
                        authorization: None,
                    },
                };
                (typed, protocol)
            }
        };
        let private_key_pem = read_text(args.private_key_file.as_ref(), "the private key file")?;
        let consumer_secret = consumer_secret(args.consumer_secret, &protocol.signature_method)?;
        if !fresh && protocol.nonce.is_none() {
            return Err("--nonce is needed: the oauth_nonce the other side signed".to_owned());
        }
        if !fresh && protocol.timestamp.is_none() {
            return Err(
                "--timestamp is needed: the oauth_timestamp the other side signed".to_owned(),
            );
        }
        let text = |e: Error| e.to_string();
        crate::input::warn_of_likely_mistakes(
            &protocol.consumer_key,
            protocol.token.as_deref(),
            args.token_secret.is_some(),
        );
        let mut signer = protocol
            .signer(&consumer_secret, args.token_secret.as_deref())
            .map_err(text)?;
        if let Some(pem) = private_key_pem {
            signer = signer.with_private_key(PrivateKey::from_pem(&pem).map_err(text)?);
        }
        // The URL is checked before the nonce and the timestamp, as signing checks them; what
        // is wrong with it is said with the URL itself.
        crate::input::url(&capture.url)?;
        protocol.request(&capture).map_err(text)?;
        let nonce = protocol.nonce().map_err(text)?;
        let timestamp = protocol.timestamp().map_err(text)?;
        let transport = match (args.transport, args.profile) {
            (Some(transport), _) => transport,
            (None, Some(profile)) => profile.transport(),
            (None, None) => Transport::Header,
        };
        Ok(FromFlags {
            signer,
            capture,
            protocol,
            nonce,
            timestamp,
            profile: args.profile,
            transport,
        })
    }

    /// The request, as the flags give it.
    pub(crate) fn request(&self) -> Result<Request<'_>, Error> {
        self.protocol.request(&self.capture)
    }

    /// The URL as written on the command line.
    pub(crate) fn url(&self) -> &str {
        &self.capture.url
    }

    /// The `oauth_signature` the capture or header carried, decoded.
    pub(crate) fn sent_signature(&self) -> Option<&str> {
        self.protocol.signature.as_deref()
    }

    /// The `Authorization` header the protocol parameters were read from, if they were.
    pub(crate) fn authorization(&self) -> Option<&str> {
        self.protocol.authorization.as_deref()
    }

    /// The URL the capture's `Host` header names, when it names another host or port than
    /// its URL: what a client that signed for the host it sent the request to signed.
    pub(crate) fn host_url(&self) -> Option<String> {
        let host = self.capture.header("host")?.trim();
        let url = url::Url::parse(&self.capture.url).ok()?;
        let authority = &url[url::Position::BeforeHost..url::Position::AfterPort];
        if host.is_empty() || host.eq_ignore_ascii_case(authority) {
            return None;
        }
        Some(format!(
            "{}://{host}{}",
            url.scheme(),
            &url[url::Position::BeforePath..]
        ))
    }

    /// Whether this request, signed for `url` instead, gives `signature`, as explain reads
    /// it (its header's parameters collected too).
    pub(crate) fn signs_at(&self, url: &str, signature: &str) -> bool {
        let mut capture = self.capture.clone();
        url.clone_into(&mut capture.url);
        let Ok(request) = self.protocol.request(&capture) else {
            return false;
        };
        let observed = oauth1_cases::ObservedField {
            signature: Some(signature.to_owned()),
            base_string: None,
        };
        oauth1_cases::explain_within(
            oauth1_signer::explain::Budget::of_bytes(0),
            &self.signer,
            &request,
            (&self.nonce, self.timestamp),
            (url, self.authorization()),
            &observed,
        )
        .is_ok_and(|e| e.verdict() == oauth1_signer::explain::Verdict::Match)
    }

    /// The request signed, as its profile's provider computes when one is given.
    pub(crate) fn sign(&self) -> Result<Signed, Error> {
        let request = self.request()?;
        match self.profile {
            Some(profile) => profile.sign(&self.signer, &request, &self.nonce, self.timestamp),
            None => self.signer.sign(&request, &self.nonce, self.timestamp),
        }
    }

    /// The lines that say how the signed request is sent: the `Authorization` header, or the
    /// URL or the form body carrying the protocol parameters; a PLAINTEXT signature hidden.
    fn sent(&self, done: &Signed) -> Result<String, String> {
        let request = self.request().map_err(|e| e.to_string())?;
        if self.transport == Transport::FormBody
            && !request.body().is_empty()
            && !request.has_form_body()
        {
            return Err(format!(
                "--transport body needs a form body (Content-Type application/x-www-form-urlencoded), not {:?}: send the protocol parameters in the header or the query",
                request.content_type()
            ));
        }
        let label = match self.transport {
            Transport::Query => "url:",
            Transport::FormBody => "body:",
            _ => return Ok(format!("authorization: {}", shown(done).1)),
        };
        let sent =
            sent_shown(done, &self.capture.url, request.body(), self.transport).unwrap_or_default();
        Ok(format!("{label:<15}{sent}"))
    }
}

pub(crate) fn one(mut args: SignArgs) -> Result<(), String> {
    if let Some(path) = args.har.take() {
        return crate::capture::each_har_entry(
            &path,
            args.entry,
            false,
            &args,
            |mut args, label, capture| {
                args.captured = Some((label, capture));
                one(args)
            },
        );
    }
    let verbose = args.verbose;
    let flags = FromFlags::new(args, true)?;
    if verbose {
        return sign_verbose(&flags, false);
    }
    let done = flags.sign().map_err(|e| e.to_string())?;
    let (signature, _) = shown(&done);
    say!("base string:   {}", done.base_string());
    say!("signature:     {signature}");
    say!("{}", flags.sent(&done)?);
    Ok(())
}

/// `oauth1 sign --verbose`: every stage, with the key's shape instead of the secrets.
/// Prints every stage of the signing; for `explain`'s `reference`, a form body's parameters
/// are signed without the body hash the other side may have sent with it (the diagnosis names
/// that mistake: `form-body-hashed`), as RFC 5849 signs them.
pub(crate) fn sign_verbose(flags: &FromFlags, reference: bool) -> Result<(), String> {
    use oauth1_signer::encode::encode;

    let request = flags.request().map_err(|e| e.to_string())?;
    let without_hash;
    let signer = if reference && request.has_form_body() {
        without_hash = flags
            .signer
            .clone()
            .with_body_hash(oauth1_signer::BodyHash::Omit);
        &without_hash
    } else {
        &flags.signer
    };
    let done = match flags.profile {
        Some(profile) if !reference => profile
            .sign(signer, &request, &flags.nonce, flags.timestamp)
            .map_err(|e| e.to_string())?,
        _ => signer
            .sign(&request, &flags.nonce, flags.timestamp)
            .map_err(|e| e.to_string())?,
    };
    say!("parameters (source, decoded name = value, then as encoded), in normalized order:");
    let params = done.parameters();
    let width = params.iter().map(|p| p.name.len()).max().unwrap_or(0);
    for p in params.iter() {
        let name = crate::terminal::bytes(p.name);
        say!(
            "  {:<5}  {name:<width$} = {:?}\n         {}={}",
            p.source.to_string(),
            String::from_utf8_lossy(p.value),
            encode(p.name),
            encode(p.value),
        );
    }
    match flags.profile.filter(|_| !reference) {
        Some(profile) => {
            say!(
                "profile:       {} ({})",
                profile.name(),
                profile.deviation_list()
            );
            say!("normalized:    {}", signed_parameter_string(&done));
        }
        None => say!("normalized:    {}", done.parameters()),
    }
    say!("method:        {}", done.base_string().method());
    say!(
        "base URI:      {}",
        request.base_uri().map_err(|e| e.to_string())?
    );
    say!("base string:   {}", done.base_string());
    say!("key:           {}", key_shape(signer));
    let (signature, _) = shown(&done);
    say!("signature:     {signature}");
    say!("{}", flags.sent(&done)?);
    Ok(())
}
