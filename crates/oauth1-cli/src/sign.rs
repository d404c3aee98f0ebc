//! `oauth1 sign`: a request from the flags, signed, every stage shown on request; and
//! `oauth1 sign --jsonl`, request cases in, results out.

use oauth1_cases::answer;
use oauth1_signer::{
    BodyHash, Error, Nonce, Request, SignatureMethod, Signed, Signer, Timestamp, Token, Version,
};

use crate::input::{consumer_secret, consumer_signer, each_line, read_text, SignArgs};

pub(crate) fn jsonl() -> Result<(), String> {
    each_line(answer)
}

/// A request the flags describe, with everything to sign it: the signer, the request's parts,
/// the nonce and the timestamp.
pub(crate) struct FromFlags {
    pub(crate) signer: Signer,
    method: String,
    url: String,
    content_type: Option<String>,
    body: Vec<u8>,
    callback: Option<String>,
    verifier: Option<String>,
    pub(crate) nonce: Nonce,
    pub(crate) timestamp: Timestamp,
    /// The `oauth_signature` of the header given with `--authorization`, decoded.
    pub(crate) sent_signature: Option<String>,
}

impl FromFlags {
    /// Reads the flags; a random nonce and the clock's time unless given, when `fresh` allows
    /// it.
    pub(crate) fn new(args: SignArgs, fresh: bool) -> Result<FromFlags, String> {
        let (args, sent_signature) =
            if args.curl.is_some() || args.http.is_some() || args.captured.is_some() {
                crate::capture::into_flags(args)?
            } else {
                match args.authorization.clone() {
                    Some(header) => from_header(args, &header)?,
                    None => (args, None),
                }
            };
        let private_key_pem = read_text(args.private_key_file.as_ref(), "the private key file")?;
        let consumer_secret = consumer_secret(args.consumer_secret, &args.signature_method)?;
        let body = args.request.read_body()?;
        if !fresh && args.nonce.is_none() {
            return Err("--nonce is needed: the oauth_nonce the other side signed".to_owned());
        }
        if !fresh && args.timestamp.is_none() {
            return Err(
                "--timestamp is needed: the oauth_timestamp the other side signed".to_owned(),
            );
        }
        let text = |e: Error| e.to_string();
        crate::input::warn_of_likely_mistakes(
            args.consumer_key.as_deref().unwrap_or_default(),
            args.token.as_deref(),
            args.token_secret.is_some(),
        );

        let mut signer = consumer_signer(
            args.consumer_key.as_deref().unwrap_or_default(),
            consumer_secret,
            &args.signature_method,
            args.realm.as_deref(),
            private_key_pem.as_deref(),
        )?;
        if let Some(token) = args.token {
            let secret = args.token_secret.unwrap_or_default();
            signer = signer.with_token(Token::new(token, secret));
        }
        if args.no_version {
            signer = signer.with_version(Version::Omit);
        }
        if args.body_hash {
            signer = signer.with_body_hash(BodyHash::Send);
        }
        let url = args.request.url.unwrap_or_default();
        // The URL is checked before the nonce and the timestamp, as signing checks them; what
        // is wrong with it is said with the URL itself.
        crate::input::url(&url)?;
        Request::new(&args.request.method, &url).map_err(text)?;
        let nonce = match args.nonce {
            Some(nonce) => Nonce::new(nonce),
            None => Nonce::generate(),
        }
        .map_err(text)?;
        let timestamp = match args.timestamp {
            Some(timestamp) => timestamp.parse().map_err(text)?,
            None => Timestamp::now().map_err(text)?,
        };
        Ok(FromFlags {
            signer,
            method: args.request.method,
            url,
            content_type: args.request.content_type,
            body,
            callback: args.callback,
            verifier: args.verifier,
            nonce,
            timestamp,
            sent_signature,
        })
    }

    /// The request, as the flags give it.
    pub(crate) fn request(&self) -> Result<Request<'_>, Error> {
        let mut request = Request::new(&self.method, &self.url)?
            .with_body(self.content_type.as_deref().unwrap_or(""), &self.body);
        if let Some(callback) = &self.callback {
            request = request.with_callback(callback);
        }
        if let Some(verifier) = &self.verifier {
            request = request.with_verifier(verifier);
        }
        Ok(request)
    }

    /// The URL as written on the command line.
    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    fn sign(&self) -> Result<Signed, Error> {
        self.signer
            .sign(&self.request()?, &self.nonce, self.timestamp)
    }
}

/// The flags with the protocol parameters of a client's Authorization header filled in, and
/// the header's `oauth_signature`.
fn from_header(args: SignArgs, header: &str) -> Result<(SignArgs, Option<String>), String> {
    let parsed = oauth1_signer::header::Authorization::parse(header)
        .map_err(|e| format!("--authorization: {e}"))?;
    crate::capture::fill_from_header(args, &parsed, "--authorization", "the header")
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
        return sign_verbose(&flags).map_err(|e| e.to_string());
    }
    let done = flags.sign().map_err(|e| e.to_string())?;
    let plaintext = flags.signer.method() == SignatureMethod::Plaintext;
    let (signature, authorization) =
        shown(plaintext, done.signature().as_str(), &done.authorization());
    println!("base string:   {}", done.base_string());
    println!("signature:     {signature}");
    println!("authorization: {authorization}");
    Ok(())
}

/// The signature and header as printed: a PLAINTEXT signature is the key itself, which the
/// command line never prints (`sign --jsonl` carries it, as the request-case format asks).
fn shown(plaintext: bool, signature: &str, authorization: &str) -> (String, String) {
    if !plaintext {
        return (signature.to_owned(), authorization.to_owned());
    }
    let hidden = "<not shown: a PLAINTEXT signature is the key itself>";
    let sent = format!(
        "oauth_signature=\"{}\"",
        oauth1_signer::encode::encode(signature.as_bytes())
    );
    (
        hidden.to_owned(),
        authorization.replace(&sent, &format!("oauth_signature=\"{hidden}\"")),
    )
}

/// `oauth1 sign --verbose`: every stage, with the key's shape instead of the secrets.
pub(crate) fn sign_verbose(flags: &FromFlags) -> Result<(), Error> {
    use oauth1_signer::base_string::BaseUri;
    use oauth1_signer::encode::encode;

    let signer = &flags.signer;
    let request = flags.request()?;
    let done = flags.sign()?;
    println!("parameters (source, decoded name = value, then as encoded), in normalized order:");
    let params = done.parameters();
    let width = params.iter().map(|p| p.name.len()).max().unwrap_or(0);
    for p in params.iter() {
        let name = String::from_utf8_lossy(p.name);
        println!(
            "  {:<5}  {name:<width$} = {:?}\n         {}={}",
            p.source.to_string(),
            String::from_utf8_lossy(p.value),
            encode(p.name),
            encode(p.value),
        );
    }
    println!("normalized:    {}", done.parameters());
    println!("method:        {}", done.base_string().method());
    println!("base URI:      {}", BaseUri::new(request.url())?);
    println!("base string:   {}", done.base_string());
    println!("key:           {}", key_shape(signer));
    let plaintext = done.signature().method() == SignatureMethod::Plaintext;
    let (signature, authorization) =
        shown(plaintext, done.signature().as_str(), &done.authorization());
    println!("signature:     {signature}");
    println!("authorization: {authorization}");
    Ok(())
}

/// The key as the lengths of its parts, never their bytes.
fn key_shape(signer: &Signer) -> String {
    if signer.method().is_rsa() {
        return "the RSA private key (not shown)".to_owned();
    }
    let consumer = signer.consumer().secret().len();
    match signer.token() {
        Some(token) if !token.secret().is_empty() => format!(
            "<consumer secret, {consumer} bytes>&<token secret, {} bytes>",
            token.secret().len()
        ),
        _ => format!("<consumer secret, {consumer} bytes>& (no token secret)"),
    }
}
