//! `oauth1 sign`: a request from the flags, signed, every stage shown on request; and
//! `oauth1 sign --jsonl`, request cases in, results out.

use oauth1_signer::{Error, Nonce, SignatureMethod, Signer, Timestamp};

use super::{each_line, read_text, SignArgs, NO_CONSUMER_SECRET};
use oauth1_signer::cases::{answer, request_of, sign_case, signer_of, Case, VersionField};

pub(crate) fn jsonl() -> Result<(), String> {
    each_line(answer)
}

/// The case the flags describe, and the body; a random nonce and the clock's time unless
/// given, when `fresh` allows it.
pub(crate) fn case_of(args: SignArgs, fresh: bool) -> Result<(Case, Vec<u8>), String> {
    let private_key_pem = read_text(args.private_key_file.as_ref(), "the private key file")?;
    let rsa = args.signature_method.starts_with("RSA-");
    let consumer_secret = match (args.consumer_secret, rsa) {
        (Some(secret), _) => secret,
        (None, true) => String::new(),
        (None, false) => return Err(NO_CONSUMER_SECRET.to_owned()),
    };
    let body = args.request.read_body()?;
    let nonce = match (args.nonce, fresh) {
        (Some(nonce), _) => nonce,
        (None, true) => Nonce::generate()
            .map_err(|e| e.to_string())?
            .as_str()
            .to_owned(),
        (None, false) => {
            return Err("--nonce is needed: the oauth_nonce the other side signed".to_owned())
        }
    };
    let timestamp = match (args.timestamp, fresh) {
        (Some(timestamp), _) => timestamp,
        (None, true) => Timestamp::now().map_err(|e| e.to_string())?.to_string(),
        (None, false) => {
            return Err(
                "--timestamp is needed: the oauth_timestamp the other side signed".to_owned(),
            )
        }
    };
    let case = Case {
        name: String::new(),
        method: args.request.method,
        url: args.request.url.unwrap_or_default(),
        body: None,
        content_type: args.request.content_type,
        consumer_key: args.consumer_key.unwrap_or_default(),
        consumer_secret,
        token_secret: args
            .token
            .as_ref()
            .map(|_| args.token_secret.unwrap_or_default()),
        token: args.token,
        signature_method: Some(args.signature_method),
        private_key_pem,
        nonce,
        timestamp,
        version: if args.no_version {
            VersionField::Null
        } else {
            VersionField::Absent
        },
        callback: args.callback,
        verifier: args.verifier,
        realm: args.realm,
        body_hash: args.body_hash,
        observed: None,
        source: None,
        expected: None,
    };
    Ok((case, body))
}

pub(crate) fn one(args: SignArgs) -> Result<(), String> {
    let verbose = args.verbose;
    let (case, body) = case_of(args, true)?;
    if verbose {
        return sign_verbose(&case, &body).map_err(|e| e.to_string());
    }
    let outcome = sign_case(&case, &body).map_err(|e| e.to_string())?;
    let plaintext = case.signature_method.as_deref() == Some(SignatureMethod::Plaintext.as_str());
    let (signature, authorization) = shown(plaintext, &outcome.signature, &outcome.authorization);
    println!("base string:   {}", outcome.base_string);
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
pub(crate) fn sign_verbose(case: &Case, body: &[u8]) -> Result<(), Error> {
    use oauth1_signer::base_string::BaseUri;
    use oauth1_signer::encode::encode;

    let signer = signer_of(case)?;
    let request = request_of(case, body)?;
    let done = signer.sign(
        &request,
        &Nonce::new(case.nonce.as_str())?,
        case.timestamp.parse()?,
    )?;
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
    println!("key:           {}", key_shape(&signer));
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
