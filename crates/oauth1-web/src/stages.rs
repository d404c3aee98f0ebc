//! Every stage of a signing, as `oauth1 sign --verbose` prints it.

use oauth1_capture::{key_shape, shown};
use oauth1_signer::base_string::BaseUri;
use oauth1_signer::encode::encode;
use oauth1_signer::{Signed, Signer};
use serde::Serialize;

/// The stages of `oauth1 sign --verbose`.
#[derive(Debug, Serialize)]
pub struct Stages {
    /// The parameters in normalized order.
    pub parameters: Vec<ParameterAnswer>,
    /// The normalized parameter string.
    pub normalized: String,
    /// The base string URI.
    pub base_uri: String,
    /// The signature base string.
    pub base_string: String,
    /// The signature (not shown for PLAINTEXT, which is the key itself).
    pub signature: String,
    /// The `Authorization` header value.
    pub authorization: String,
    /// The key's shape: the secrets' lengths, never their bytes.
    pub key: String,
    /// With the query or form-body transport: `signed URL` or `signed body`; empty for the
    /// header.
    pub sent_label: &'static str,
    /// The URL or form body carrying the protocol parameters (a PLAINTEXT signature hidden).
    pub sent: String,
}

/// A parameter, decoded and encoded.
#[derive(Debug, Serialize)]
pub struct ParameterAnswer {
    /// Where it came from: `query`, `body` or `oauth`.
    pub source: String,
    /// The decoded name.
    pub name: String,
    /// The decoded value.
    pub value: String,
    /// `name=value`, encoded.
    pub encoded: String,
}

/// The stages of `done`, signed by `signer` for a request to `base_uri`.
pub(crate) fn stages(done: &Signed, base_uri: &BaseUri, signer: &Signer) -> Stages {
    let lossy = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let parameters = done
        .parameters()
        .iter()
        .map(|p| ParameterAnswer {
            source: p.source.to_string(),
            name: lossy(p.name),
            value: lossy(p.value),
            encoded: format!("{}={}", encode(p.name), encode(p.value)),
        })
        .collect();
    let (signature, authorization) = shown(done);
    Stages {
        parameters,
        normalized: done.parameters().to_string(),
        base_uri: base_uri.to_string(),
        base_string: done.base_string().to_string(),
        signature,
        authorization,
        key: key_shape(signer),
        sent_label: "",
        sent: String::new(),
    }
}

/// `stages` of a request signed as a profile computes, with what is sent in `transport`: the
/// normalized parameters are the profile's (its base string's, decoded once), which may not be
/// the RFC's normalization of the parameters listed.
pub(crate) fn with_transport(
    mut stages: Stages,
    done: &Signed,
    capture: &oauth1_capture::Capture,
    transport: oauth1_signer::Transport,
) -> Stages {
    use oauth1_signer::Transport;
    stages.normalized = oauth1_capture::signed_parameter_string(done);
    stages.sent_label = match transport {
        Transport::Query => "signed URL",
        Transport::FormBody => "signed body",
        _ => "",
    };
    stages.sent = oauth1_capture::sent_shown(done, &capture.url, &capture.body, transport)
        .unwrap_or_default();
    stages
}
