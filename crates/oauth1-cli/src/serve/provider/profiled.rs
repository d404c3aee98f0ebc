//! `oauth1 serve --profile NAME`: a resource request's signature checked as that provider's
//! server computes it, so that a client can be tested against WooCommerce's, NetSuite's or
//! X's behaviour offline. Everything else is the verifier's: the protocol parameters, the
//! clock, the credentials, the nonce.

use hyper::StatusCode;
use oauth1_capture::Capture;
use oauth1_server::{
    CredentialStore as _, NonceKey, NonceStore as _, TokenKind, Verified, VerifyError,
};
use oauth1_signer::explain::Observed;
use oauth1_signer::profile::Profile;
use oauth1_signer::{Request, Timestamp};
use serde_json::json;

use super::{echo, problem_form, respond, Answer, Outcome, Provider};
use crate::terminal::value;

/// What the profile's server makes of a request's signature.
enum Judged {
    /// It computes this signature.
    Reproduced {
        /// The parameters it signs, decoded: (name, value).
        parameters: Vec<[String; 2]>,
    },
    /// It computes another one.
    Differs,
    /// It refuses the request as it is (a method, a transport, a token it does not take).
    Refused(String),
}

impl Provider {
    /// The answer to a resource request under `profile`, given what the verifier (RFC 5849)
    /// answered.
    pub(super) async fn as_profile(
        &self,
        profile: &'static Profile,
        (request, written): (&Request<'_>, &str),
        authorization: Option<&str>,
        verified: Result<Verified, VerifyError>,
        json: bool,
    ) -> Answer {
        // Only a signature can differ: any other refusal is the verifier's.
        let rfc = match verified {
            Ok(verified) => verified,
            Err(e @ VerifyError::BadSignature { .. }) => {
                return match self.judge(profile, request, written, authorization).await {
                    Ok(Judged::Reproduced { parameters }) => self
                        .accept_as_profile(profile, request, parameters)
                        .await
                        .unwrap_or_else(|e| self.refuse(&e, json)),
                    _ => self.refuse_request(&e, json, authorization).await,
                };
            }
            Err(e) => return self.refuse_request(&e, json, authorization).await,
        };
        let note = format!(
            "computed as {}'s server computes ({})",
            profile.provider(),
            profile.deviation_list()
        );
        match self.judge(profile, request, written, authorization).await {
            Ok(Judged::Reproduced { .. }) => echo(&rfc, request, Some(&note)),
            Ok(Judged::Differs) => self.profile_refusal(
                json,
                format!(
                    "the request is signed as RFC 5849 says, and {} computes otherwise ({}), so its server refuses it: sign as it computes (oauth1 sign --profile {}), or start oauth1 serve without --profile to test against RFC 5849",
                    profile.provider(),
                    profile.deviation_list(),
                    profile.name()
                ),
            ),
            Ok(Judged::Refused(why)) | Err(why) => self.profile_refusal(
                json,
                format!("{}'s server refuses this request: {why}", profile.provider()),
            ),
        }
    }

    /// Whether `profile` computes the request's signature, with this server's secrets.
    async fn judge(
        &self,
        profile: &Profile,
        request: &Request<'_>,
        written: &str,
        authorization: Option<&str>,
    ) -> Result<Judged, String> {
        let mut headers = vec![("Content-Type".to_owned(), request.content_type().to_owned())];
        if let Some(header) = authorization {
            headers.push(("Authorization".to_owned(), header.to_owned()));
        }
        let capture = Capture {
            method: request.method().to_owned(),
            url: written.to_owned(),
            headers,
            body: request.body().to_vec(),
        };
        let (capture, protocol) = capture.protocol().map_err(|e| e.to_string())?;
        let store = self.issuer.verifier().credentials();
        let consumer = store
            .consumer(&protocol.consumer_key)
            .await
            .ok()
            .flatten()
            .and_then(|c| c.secret().cloned())
            .ok_or("its consumer key is not one this server knows")?;
        let token = match &protocol.token {
            Some(token) => Some(
                store
                    .token(&protocol.consumer_key, token)
                    .await
                    .ok()
                    .flatten()
                    .filter(|t| t.kind() == TokenKind::Access)
                    .ok_or("its token is not token credentials this server knows")?
                    .secret()
                    .clone(),
            ),
            None => None,
        };
        let text =
            |secret: &oauth1_signer::Secret| String::from_utf8_lossy(secret.expose()).into_owned();
        let signer = protocol
            .signer(&text(&consumer), token.as_ref().map(text).as_deref())
            .map_err(|e| e.to_string())?;
        let signed_request = protocol.request(&capture).map_err(|e| e.to_string())?;
        let nonce = protocol.nonce().map_err(|e| e.to_string())?;
        let timestamp = protocol.timestamp().map_err(|e| e.to_string())?;
        let signature = protocol.signature.clone().unwrap_or_default();
        let observed = Observed::signature(&signature);
        match profile.reproduces(&signer, &signed_request, &nonce, timestamp, &observed) {
            Ok(true) => {
                let computed = profile
                    .sign(&signer, &signed_request, &nonce, timestamp)
                    .map_err(|e| e.to_string())?;
                let lossy = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
                let parameters = (computed.parameters().iter())
                    .map(|p| [lossy(p.name), lossy(p.value)])
                    .collect();
                Ok(Judged::Reproduced { parameters })
            }
            Ok(false) => Ok(Judged::Differs),
            Err(e) => Ok(Judged::Refused(e.to_string())),
        }
    }

    /// A request whose signature only the profile computes: the verifier refused it for its
    /// signature, after every check before it, so what is left is its nonce, recorded here.
    async fn accept_as_profile(
        &self,
        profile: &Profile,
        request: &Request<'_>,
        parameters: Vec<[String; 2]>,
    ) -> Result<Answer, VerifyError> {
        let find = |name: &str| {
            parameters
                .iter()
                .find(|[n, _]| n == name)
                .map(|[_, v]| v.as_str())
        };
        let consumer_key = find("oauth_consumer_key").unwrap_or_default();
        let token = find("oauth_token");
        let timestamp: Timestamp = find("oauth_timestamp")
            .and_then(|t| t.parse().ok())
            .unwrap_or(Timestamp::new(0));
        let nonce = find("oauth_nonce").unwrap_or_default();
        let verifier = self.issuer.verifier();
        let now = verifier.clock().now()?;
        let window = verifier.policy().timestamp_window;
        let key = NonceKey {
            consumer_key,
            token,
            timestamp,
            nonce: nonce.as_bytes(),
        };
        let expires = Timestamp::new(timestamp.as_secs().max(now.as_secs()) + window);
        if !verifier.nonces().insert(&key, now, expires).await? {
            return Err(VerifyError::ReplayedNonce);
        }
        let body = json!({
            "consumer_key": consumer_key,
            "token": token,
            "signature_method": find("oauth_signature_method"),
            "method": request.method(),
            "base_string_uri": request.base_uri().ok().map(|b| b.to_string()),
            "parameters": parameters,
            "note": format!(
                "computed as {}'s server computes ({}), not as RFC 5849 says",
                profile.provider(),
                profile.deviation_list()
            ),
        });
        let detail = format!("{} as {}", value(consumer_key), profile.name());
        Ok((
            respond(StatusCode::OK, "application/json", format!("{body:#}\n")),
            Outcome::new("accepted", Some(detail)),
        ))
    }

    /// 401 `signature_invalid` with `advice`: the profile's server refuses the request.
    fn profile_refusal(&self, json: bool, advice: String) -> Answer {
        let status = StatusCode::UNAUTHORIZED;
        let fields = json!({
            "status": 401,
            "oauth_problem": "signature_invalid",
            "oauth_problem_advice": advice,
            "reason": "bad-signature",
            "causes": [],
            "diagnosis": null,
            "signed_for": null,
            "unknown": null,
        });
        let form = problem_form("signature_invalid", &advice);
        (
            self.problem_answer(status, json, form, &fields),
            Outcome::new("bad-signature", Some(advice)),
        )
    }
}
