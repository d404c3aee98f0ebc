//! A request signed from its fields: `oauth1 sign --verbose` in the page.

use oauth1_capture::{check_url, Capture, Protocol};
use oauth1_signer::profile::Profile;
use oauth1_signer::{PrivateKey, Signer};
use serde::{Deserialize, Serialize};

use crate::stages::{stages, with_transport, Stages};

/// What the page sends to sign: the request, the credentials, and the protocol options; an
/// empty field is one not given.
#[derive(Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SignInput {
    /// The method (`GET` when empty).
    pub method: String,
    /// The URL as sent, query included.
    pub url: String,
    /// The body as sent.
    pub body: String,
    /// The body's `Content-Type`; its parameters are signed only for a form.
    pub content_type: String,
    /// `oauth_consumer_key`.
    pub consumer_key: String,
    /// The consumer secret.
    pub consumer_secret: String,
    /// `oauth_token`; none for a temporary-credentials request.
    pub token: String,
    /// The token secret.
    pub token_secret: String,
    /// `oauth_signature_method` (`HMAC-SHA1` when empty).
    pub signature_method: String,
    /// The RSA private key (PEM), for the RSA methods.
    pub private_key_pem: String,
    /// `oauth_nonce`; a random one when empty.
    pub nonce: String,
    /// `oauth_timestamp`; the browser's clock when empty.
    pub timestamp: String,
    /// The `realm` of the header.
    pub realm: String,
    /// `oauth_callback`.
    pub callback: String,
    /// `oauth_verifier`.
    pub verifier: String,
    /// Leave `oauth_version` out.
    pub omit_version: bool,
    /// Send `oauth_body_hash`.
    pub body_hash: bool,
    /// The provider profile to sign as (`mastercard`, `woocommerce`, …); none when empty.
    pub profile: String,
}

/// What the page shows of a signing.
#[derive(Debug, Default, Serialize)]
pub struct SignAnswer {
    /// What is wrong, for a request that cannot be signed; empty otherwise.
    pub error: String,
    /// Every stage.
    pub stages: Option<Stages>,
}

/// The signer of `protocol` with the typed secrets, and the RSA private key if one is typed.
pub(crate) fn signer(
    protocol: &Protocol,
    consumer_secret: &str,
    token_secret: &str,
    private_key_pem: &str,
) -> Result<Signer, String> {
    let text = |e: oauth1_signer::Error| e.to_string();
    let mut signer = protocol
        .signer(consumer_secret, Some(token_secret))
        .map_err(text)?;
    if !private_key_pem.trim().is_empty() {
        signer = signer.with_private_key(PrivateKey::from_pem(private_key_pem).map_err(text)?);
    }
    Ok(signer)
}

fn given(text: &str) -> Option<String> {
    (!text.is_empty()).then(|| text.to_owned())
}

/// Signs the request the fields describe.
pub(crate) fn answer(input: &SignInput) -> SignAnswer {
    match signed(input) {
        Ok(stages) => SignAnswer {
            error: String::new(),
            stages: Some(stages),
        },
        Err(error) => SignAnswer {
            error,
            stages: None,
        },
    }
}

fn signed(input: &SignInput) -> Result<Stages, String> {
    let text = |e: oauth1_signer::Error| e.to_string();
    let protocol = Protocol {
        consumer_key: input.consumer_key.clone(),
        signature_method: given(&input.signature_method).unwrap_or_else(|| "HMAC-SHA1".into()),
        nonce: given(&input.nonce),
        timestamp: given(input.timestamp.trim()),
        token: given(&input.token),
        callback: given(&input.callback),
        verifier: given(&input.verifier),
        realm: given(&input.realm),
        version: !input.omit_version,
        body_hash: input.body_hash,
        signature: None,
        authorization: None,
    };
    let capture = Capture::typed(
        given(input.method.trim()).as_deref().unwrap_or("GET"),
        input.url.trim(),
        given(input.content_type.trim()).as_deref(),
        input.body.clone().into_bytes(),
    );
    let signer = signer(
        &protocol,
        &input.consumer_secret,
        &input.token_secret,
        &input.private_key_pem,
    )?;
    // What is wrong with the URL is said with it, as the command line says it.
    check_url(&capture.url).map_err(|e| e.to_string())?;
    let request = protocol.request(&capture).map_err(text)?;
    let nonce = protocol.nonce().map_err(text)?;
    let timestamp = protocol.timestamp().map_err(text)?;
    let profile = match input.profile.trim() {
        "" => None,
        name => Some(Profile::named(name).ok_or_else(|| format!("no profile {name:?}"))?),
    };
    let done = match profile {
        Some(profile) => profile.sign(&signer, &request, &nonce, timestamp),
        None => signer.sign(&request, &nonce, timestamp),
    }
    .map_err(text)?;
    let all = stages(&done, &request.base_uri().map_err(text)?, &signer);
    Ok(match profile {
        Some(profile) => with_transport(all, &done, &capture, profile.transport()),
        None => all,
    })
}
