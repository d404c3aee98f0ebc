//! The verifier and its check order (see the [crate documentation](crate)): what it reads of a
//! received request, the checks 1 to 7, and the diagnosis of a bad signature.

use std::future::Future;
use std::time::Duration;

use crate::block;
use crate::clock::Clock;
use crate::diagnose::{self, OtherOrigin};
use crate::error::VerifyError;
use crate::macs::{MacCache, DEFAULT_MAC_CACHE};
use crate::origin::other_origins;
use crate::policy::Policy;
pub(crate) use crate::protocol::Expect;
use crate::protocol::{find_protocol, ProtocolSpans};
use crate::signature::{check_body_hash, check_signature, Base};
use crate::store::{ConsumerCredential, CredentialStore, NonceKey, NonceStore, TokenCredential};
use oauth1_signer::params::{Normalized, Parameters};
use oauth1_signer::request::Request;
use oauth1_signer::server;
use oauth1_signer::server::Span;
use oauth1_signer::sign::SignatureMethod;
use oauth1_signer::{Secret, Timestamp};

mod verified;
pub use verified::Verified;

/// Takes `oauth_signature` out of the parameters, its bytes wiped: it is not signed, and a
/// PLAINTEXT signature is the secrets.
fn take_out_signature(params: &mut Parameters) {
    params.retain(|p| p.name != b"oauth_signature");
}

/// What verification reads of a request before it asks a store: the time it verifies at, the
/// parameters (the signature taken out), the realm, where the protocol parameters lie.
pub(crate) struct Read {
    now: Timestamp,
    params: Parameters,
    realm: Option<String>,
    protocol: ProtocolSpans,
    /// The origins the client may have signed for instead, which the diagnosis tries: boxed,
    /// since a verification's future holds this, and only the tower layer with the diagnosis
    /// on fills it.
    #[allow(clippy::box_collection)] // one pointer in the future, not a vector's three words
    other_origins: Option<Box<Vec<OtherOrigin>>>,
}

impl Read {
    /// The origins the diagnosis of a bad signature tries first, the likeliest first.
    pub(crate) fn with_other_origins(mut self, origins: Vec<OtherOrigin>) -> Self {
        self.other_origins = Some(Box::new(origins));
        self
    }
}

/// What the verifier read of a request before its body (its header and query): the
/// parameters, the realm and where the protocol parameters lie. The signature is still among
/// the parameters, as collected; dropped unused, they are wiped of it.
pub(crate) struct BeforeBody {
    params: Parameters,
    realm: Option<String>,
    protocol: ProtocolSpans,
}

impl BeforeBody {
    fn into_parts(mut self) -> (Parameters, Option<String>, ProtocolSpans) {
        (
            std::mem::replace(&mut self.params, Parameters::with_capacity(0, 0)),
            self.realm.take(),
            std::mem::take(&mut self.protocol),
        )
    }
}

impl Drop for BeforeBody {
    fn drop(&mut self) {
        // A PLAINTEXT signature is the secrets: not left in freed memory.
        take_out_signature(&mut self.params);
    }
}

/// Verifies signed requests; see the [crate documentation](crate) for the checks.
#[derive(Debug)]
pub struct Verifier<C, N> {
    credentials: C,
    nonces: N,
    policy: Policy,
    macs: MacCache,
    diagnosis: Option<diagnose::Budget>,
    clock: Clock,
}

impl<C: CredentialStore, N: NonceStore> Verifier<C, N> {
    /// A verifier with the default [`Policy`].
    pub fn new(credentials: C, nonces: N) -> Self {
        Verifier {
            credentials,
            nonces,
            policy: Policy::default(),
            macs: MacCache::new(DEFAULT_MAC_CACHE),
            diagnosis: None,
            clock: Clock::system(),
        }
    }

    /// Diagnoses bad signatures, at most `per_second` in any second of the server's clock and
    /// one at a time: the explain search (every mistake of the shared vocabulary alone and in
    /// pairs) runs on the received request with the server's own secrets, and the mistakes
    /// that reproduce the client's signature go into the error ([`VerifyError::diagnosis`],
    /// and the problem report's advice). Off by default.
    ///
    /// What it costs is bounded three ways, so that a burst of bad signatures, however large
    /// the requests, cannot hold the server's threads: each diagnosis stops at its cost
    /// ([`with_diagnosis_cost`](Self::with_diagnosis_cost): 64 MiB of readings or 200 ms
    /// unless set, whichever comes first, and then says it stopped,
    /// [`Diagnosis::NotFoundWithinBudget`](crate::Diagnosis::NotFoundWithinBudget)); a bad
    /// signature that arrives while another is being diagnosed is not diagnosed (unless it
    /// may wait, [`with_diagnosis_queue`](Self::with_diagnosis_queue)); and past
    /// `per_second` in a second none is. A diagnosis runs on the task that verifies, so it
    /// holds that thread for at most its time. A request of 20 parameters that nothing
    /// explains is searched whole, three causes together included, in about 0.1 s. A
    /// diagnosis skipped says why, and the answer is the same. Only requests that carry the protocol
    /// parameters in the `Authorization` header are diagnosed, not RSA ones, and only for
    /// credentials the store knows: unknown ones are answered "not found" at once, without
    /// taking from the budget.
    ///
    /// A diagnosis names a mistake only when a signature made with the server's secrets
    /// reproduces the client's, so it tells nothing to a client without them; unknown
    /// credentials are answered "not found", as a wrong secret is. Some mistakes leave one
    /// secret out of the key, though (`key-token-secret-missing`, a key of the consumer
    /// secret alone): a client that guesses the consumer secret and signs with it alone is
    /// told when the guess is right, without the token secret, at most `per_second` guesses
    /// a second. Against secrets of enough entropy (the 128 bits and more a provider should
    /// issue) that tells nothing either; against guessable ones, keep the diagnosis off. It
    /// does let a client tell,
    /// by the time the answer takes, a consumer key the server knows from one it does not,
    /// and likewise a token (`oauth_token`) of a known consumer: a known pair is searched,
    /// for up to the diagnosis's time, an unknown one is not. Consumer keys and tokens are
    /// not secret in OAuth 1.0a (every request carries them), but where telling which exist
    /// matters, keep the diagnosis off, or on only where that is acceptable, such as
    /// development and staging.
    #[must_use]
    pub fn with_diagnosis(mut self, per_second: u32) -> Self {
        self.diagnosis = Some(diagnose::Budget::new(per_second));
        self
    }

    /// Lets up to `waiting` bad signatures that arrive while another is being diagnosed wait
    /// for it, in turn, and be diagnosed after it ([`with_diagnosis`](Self::with_diagnosis),
    /// which it turns on at one a second if it is not on yet). None wait unless set: a
    /// production server answers at once, diagnosed or not. A request that waits holds no
    /// thread (its verification awaits), but its answer comes only after the diagnoses
    /// ahead of it, each within its cost ([`with_diagnosis_cost`](Self::with_diagnosis_cost)),
    /// so the longest wait is `waiting` times that time; past `waiting`, a bad signature is
    /// answered at once, undiagnosed, as it would be without a queue. For a server that
    /// exists to say why, such as a local provider a client's tests run against in parallel.
    #[must_use]
    pub fn with_diagnosis_queue(mut self, waiting: usize) -> Self {
        let budget = self
            .diagnosis
            .take()
            .unwrap_or_else(|| diagnose::Budget::new(1));
        self.diagnosis = Some(budget.with_queue(waiting));
        self
    }

    /// Whether bad signatures are diagnosed ([`with_diagnosis`](Self::with_diagnosis)).
    #[cfg_attr(not(feature = "tower"), allow(dead_code))] // the tower layer's
    pub(crate) fn diagnoses(&self) -> bool {
        self.diagnosis.is_some()
    }

    /// What one diagnosis may cost ([`with_diagnosis`](Self::with_diagnosis), which it
    /// turns on at one a second if it is not on yet): at most `bytes` bytes of readings (each
    /// reading, the request signed again as a mistake would sign it, costs the larger of its
    /// base string and the request's query and body) and at most `time`. Past either, the
    /// diagnosis answers with what it found, or
    /// [`Diagnosis::NotFoundWithinBudget`](crate::Diagnosis::NotFoundWithinBudget).
    #[must_use]
    pub fn with_diagnosis_cost(mut self, bytes: u64, time: Duration) -> Self {
        let budget = self
            .diagnosis
            .take()
            .unwrap_or_else(|| diagnose::Budget::new(1));
        self.diagnosis = Some(budget.with_cost(bytes, time));
        self
    }

    /// Keeps the keyed HMACs of at most `capacity` credential pairs (the consumer's and the
    /// token's secret) that verified lately, so that their next requests are not keyed again
    /// ([`DEFAULT_MAC_CACHE`] unless set; 0 keeps none). An entry is used only while the store
    /// still hands out the same secrets, so a changed secret takes effect at once. A store
    /// that hands out the same [`Secret`](oauth1_signer::Secret) for every request, as
    /// [`MemoryCredentials`](crate::MemoryCredentials) does, has its entries found by the
    /// secrets' identity ([`SecretId`](oauth1_signer::SecretId)); one that makes them anew, by
    /// a keyed hash of their bytes. Only pairs whose signature matched are kept: a request
    /// with credentials that are unknown, or known and not used lately, is keyed from the
    /// secrets, one extra hash block or two.
    #[must_use]
    pub fn with_mac_cache(mut self, capacity: usize) -> Self {
        self.macs = MacCache::new(capacity);
        self
    }

    /// The most keyed HMACs kept ([`with_mac_cache`](Self::with_mac_cache)).
    pub fn mac_cache_capacity(&self) -> usize {
        self.macs.capacity()
    }

    /// Reads the time from `clock` ([`Clock::system`] unless set): a fixed one for tests, or
    /// to check a request captured earlier.
    #[must_use]
    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    /// The clock the verifier reads, and a provider built on it.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The policy.
    #[must_use]
    pub fn with_policy(mut self, policy: Policy) -> Self {
        self.policy = policy;
        self
    }

    /// The policy in force.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The credential store.
    pub fn credentials(&self) -> &C {
        &self.credentials
    }

    /// The nonce store.
    pub fn nonces(&self) -> &N {
        &self.nonces
    }

    /// Verifies `request` (its URL the public one the client used), with its `Authorization`
    /// header if it has one, at the verifier's [`Clock`]'s time, awaiting the stores.
    ///
    /// # Errors
    ///
    /// A [`VerifyError`] naming the first failed check.
    pub async fn verify(
        &self,
        request: &Request<'_>,
        authorization: Option<&str>,
    ) -> Result<Verified, VerifyError> {
        self.verify_with_headers(request, authorization, &[]).await
    }

    /// [`verify`](Self::verify), given the request's headers as the server received them
    /// (names and values; `Host`, the forwarding headers): with the diagnosis on
    /// ([`with_diagnosis`](Self::with_diagnosis)), a bad signature is first signed again for
    /// the origins they name, so that a client that signed for `http://localhost:8080` while
    /// the server is `http://127.0.0.1:8080` is told so
    /// ([`Diagnosis::SignedForOrigin`](crate::Diagnosis::SignedForOrigin)). None of them is
    /// trusted for verification. The tower layer does this itself.
    ///
    /// # Errors
    ///
    /// A [`VerifyError`] naming the first failed check.
    pub async fn verify_with_headers(
        &self,
        request: &Request<'_>,
        authorization: Option<&str>,
        headers: &[(&str, &str)],
    ) -> Result<Verified, VerifyError> {
        let now = self.clock.now()?;
        let (verified, _) = self
            .verify_as(request, authorization, headers, now, Expect::Resource)
            .await?;
        Ok(verified)
    }

    /// The checks a received request must pass before its signature is computed, the clock
    /// aside: where its protocol parameters are sent (one place, each once), that the required
    /// ones are there, its version, its signature method (among the policy's) and the form of
    /// its timestamp, within the policy's limits. What the verifier answers without a store, a
    /// secret or the time: a request refused here is refused whatever its signature, which is
    /// how `oauth1 explain` tells one it cannot compare.
    ///
    /// # Errors
    ///
    /// The [`VerifyError`] of the first check that fails.
    pub fn check_before_signature(
        &self,
        request: &Request<'_>,
        authorization: Option<&str>,
    ) -> Result<(), VerifyError> {
        let (params, _, protocol) = self.read(request, authorization)?;
        // The clock aside: the request's own time, when it has one.
        let now = std::str::from_utf8(params.at(protocol.timestamp.as_ref()))
            .ok()
            .and_then(|t| t.parse::<Timestamp>().ok())
            .unwrap_or(Timestamp::new(0));
        self.check_protocol(request, &params, &protocol, now)
            .map(|_| ())
    }

    /// The checks before the first store is asked (the request read at the clock's time),
    /// given what [`checked_before_body`](Self::checked_before_body) read of the same request
    /// before its body, if it did: then only the body is collected now.
    #[cfg_attr(not(feature = "tower"), allow(dead_code))] // the tower layer's
    pub(crate) fn read_now(
        &self,
        request: &Request<'_>,
        authorization: Option<&str>,
        before: Option<BeforeBody>,
    ) -> Result<Read, VerifyError> {
        self.read_at(self.clock.now()?, request, authorization, before)
    }

    /// [`read_now`](Self::read_now) at `now`.
    fn read_at(
        &self,
        now: Timestamp,
        request: &Request<'_>,
        authorization: Option<&str>,
        before: Option<BeforeBody>,
    ) -> Result<Read, VerifyError> {
        let (params, realm, protocol) = match before {
            Some(before) => self.read_body(request, authorization, before)?,
            None => self.read(request, authorization)?,
        };
        Ok(Read {
            now,
            params,
            realm,
            protocol,
            other_origins: None,
        })
    }

    /// The verifier on the calling thread, for a server without an async runtime (or a test):
    /// the stores' futures are run to completion there, the thread parked while one waits.
    /// The memory stores answer at once, so with them it never parks. Do not use it on an
    /// async runtime's worker thread with a store that waits on the network: the worker would
    /// stop serving other requests meanwhile.
    pub fn blocking(&self) -> Blocking<'_, C, N> {
        Blocking { verifier: self }
    }

    /// Checks 1 to 4 (the protocol parameters, the version, the method, the timestamp) of a
    /// request whose body is not read yet, given without it: a server refuses what it can
    /// before it reads a body (the `tower` layer does). Passing proves nothing:
    /// [`verify`](Self::verify) the whole request next.
    ///
    /// # Errors
    ///
    /// A [`VerifyError`] naming the first failed check.
    pub fn check_before_body(
        &self,
        request: &Request<'_>,
        authorization: Option<&str>,
    ) -> Result<(), VerifyError> {
        self.checked_before_body(request, authorization, 0)
            .map(drop)
    }

    /// [`check_before_body`](Self::check_before_body), keeping what it read for the
    /// verification of the whole request; room is made for a body of `body_len` bytes, its
    /// announced length (see [`server::collect_before_body`]).
    pub(crate) fn checked_before_body(
        &self,
        request: &Request<'_>,
        authorization: Option<&str>,
        body_len: usize,
    ) -> Result<BeforeBody, VerifyError> {
        let now = self.clock.now()?;
        let (params, realm) = self.collect(request, authorization, body_len)?;
        // Taken out of the parameters when the body is added (wiped if it never is).
        let mut before = BeforeBody {
            params,
            realm,
            protocol: ProtocolSpans::default(),
        };
        before.protocol = find_protocol(&before.params)?;
        self.check_protocol(request, &before.params, &before.protocol, now)?;
        Ok(before)
    }

    /// Verifies a request of the kind `expect` says: a resource request, or one of the
    /// provider's credential requests ([`Issuer`](crate::Issuer)); with what the store holds for its
    /// consumer.
    /// `headers` are the request's, as received: with the diagnosis on, a bad signature is
    /// first tried against the origins they name ([`other_origins`]).
    pub(crate) async fn verify_as(
        &self,
        request: &Request<'_>,
        authorization: Option<&str>,
        headers: &[(&str, &str)],
        now: Timestamp,
        expect: Expect,
    ) -> Result<(Verified, Option<ConsumerCredential>), VerifyError> {
        let verifying = {
            let mut read = self.read_at(now, request, authorization, None)?;
            if self.diagnoses() && authorization.is_some() && !headers.is_empty() {
                read = read.with_other_origins(other_origins(request.url(), headers));
            }
            self.verify_read(request, authorization, expect, read)
        };
        verifying.await
    }

    /// [`verify_as`](Self::verify_as) from what [`read_now`](Self::read_now) read. What was
    /// read is used where it lies in the future, not moved into locals (which the future
    /// would hold beside it).
    #[allow(clippy::manual_async_fn)] // see the block
    #[allow(clippy::too_many_lines)] // the checks in order, in one future (see the block)
    pub(crate) fn verify_read<'a>(
        &'a self,
        request: &'a Request<'a>,
        authorization: Option<&'a str>,
        expect: Expect,
        read: Read,
    ) -> impl Future<Output = Result<(Verified, Option<ConsumerCredential>), VerifyError>> + 'a
    {
        // An async block, not an `async fn`: its values are used where the future holds them,
        // not copied into locals first.
        async move {
            let (now, params, protocol) = (read.now, read.params, &read.protocol);
            let (method, timestamp) = self.check_protocol(request, &params, protocol, now)?;
            let window = self.policy.timestamp_window;

            // 5. Signature, over the base string rebuilt by the signing code.
            let params = params.normalize();
            let consumer_key = utf8(
                &params,
                protocol.consumer_key.as_ref(),
                "oauth_consumer_key",
            )?;
            let token = Some(utf8(&params, protocol.token.as_ref(), "oauth_token")?)
                .filter(|t| !t.is_empty());
            expect.check_parameters(token.is_some(), &params)?;
            let base_uri = request.base_uri().map_err(VerifyError::malformed_by)?;
            let base = Base {
                method: request.method(),
                uri: &base_uri,
                params: &params,
            };
            let signature = protocol
                .signature
                .as_ref()
                .map_or(&[][..], |s| s.as_slice());
            // The consumer and the token (if any) are looked up for every method.
            let consumer = self.credentials.consumer(consumer_key).await?;
            let held = match token {
                Some(token) => self.credentials.token(consumer_key, token).await?,
                None => None,
            };
            let authentic = check_signature(
                &self.macs,
                method,
                (consumer.as_ref(), token.is_some(), held.as_ref()),
                &base,
                signature,
            )?;
            if !authentic {
                let diagnosis = match &self.diagnosis {
                    Some(budget) => {
                        let secrets = secrets_of(consumer.as_ref(), token, held.as_ref());
                        if let Err(answer) =
                            // A header of another scheme is none (`oauth_header`).
                            diagnose::admit(
                                crate::protocol::oauth_header(authorization),
                                method,
                                secrets.is_some(),
                            )
                        {
                            return Err(VerifyError::BadSignature {
                                base_string: base.build().into_string(),
                                diagnosis: Some(answer),
                            });
                        }
                        let running = match budget.start() {
                            Some(running) => Some(running),
                            // Boxed: only a request that waits holds the wait's state.
                            None => Box::pin(budget.wait()).await,
                        };
                        // The second it starts in, after any wait.
                        let now = self.clock.now().unwrap_or(now);
                        let text =
                            |name: &[u8]| params.iter().find(|p| p.name == name).map(|p| p.value);
                        let received = diagnose::Received {
                            request,
                            method,
                            consumer_key,
                            token,
                            nonce: params.at(protocol.nonce.as_ref()),
                            timestamp,
                            realm: read.realm.as_deref(),
                            version_sent: protocol.version.is_some(),
                            body_hash_sent: protocol.body_hash.is_some(),
                            callback: text(b"oauth_callback"),
                            verifier: text(b"oauth_verifier"),
                            signature,
                            authorization,
                            other_origins: read.other_origins.as_deref().map_or(&[], Vec::as_slice),
                            secrets,
                        };
                        Some(diagnose::run(budget, running, &received, now))
                    }
                    None => None,
                };
                return Err(VerifyError::BadSignature {
                    base_string: base.build().into_string(),
                    diagnosis,
                });
            }
            // The token's kind, once the request is known to be signed with it.
            expect.check_kind(held.as_ref().map(TokenCredential::kind))?;

            // 6. Body hash.
            if protocol.body_hash.is_some() {
                let sent = params.at(protocol.body_hash.as_ref());
                if request.has_form_body() {
                    return Err(VerifyError::BadBodyHash {
                        detail: "oauth_body_hash is sent with a form body, whose parameters are signed instead: leave it out",
                    });
                }
                check_body_hash(self.policy.body_hash_digest, method, request.body(), sent)?;
            }

            // 7. Nonce, last: only an authentic request is recorded.
            let nonce = params.at(protocol.nonce.as_ref());
            let key = NonceKey {
                consumer_key,
                token,
                timestamp,
                nonce,
            };
            let expires_at = nonce_expiry(timestamp, window);
            if !self.nonces.insert(&key, now, expires_at).await? {
                return Err(VerifyError::ReplayedNonce);
            }

            let token = token.and(read.protocol.token);
            let verified = Verified {
                consumer_key: read.protocol.consumer_key,
                token,
                owner: held.and_then(TokenCredential::into_owner),
                method,
                timestamp,
                realm: read.realm,
                params,
            };
            Ok((verified, consumer))
        }
    }

    /// The collected parameters (the realm aside) and where the protocol parameters lie in
    /// them, each once, in one transport; `oauth_signature` is taken out and wiped before
    /// anything else is checked (a PLAINTEXT signature is the key; the protocol spans keep
    /// their own copy, wiped when dropped).
    fn read(
        &self,
        request: &Request<'_>,
        authorization: Option<&str>,
    ) -> Result<(Parameters, Option<String>, ProtocolSpans), VerifyError> {
        let (mut params, realm) = self.collect(request, authorization, 0)?;
        let protocol = find_protocol(&params);
        take_out_signature(&mut params);
        Ok((params, realm, protocol?))
    }

    /// [`read`](Self::read) for a request whose header and query were read before its body
    /// (`before`): the body's parameters added to those. A body that carries protocol
    /// parameters too has the whole request read again, so that what is said of them (sent in
    /// two places, repeated) is what reading it at once says.
    fn read_body(
        &self,
        request: &Request<'_>,
        authorization: Option<&str>,
        before: BeforeBody,
    ) -> Result<(Parameters, Option<String>, ProtocolSpans), VerifyError> {
        let (mut params, realm, protocol) = before.into_parts();
        let read = params.len();
        server::collect_body(&mut params, request, &self.policy.limits)
            .map_err(VerifyError::malformed_by)?;
        let in_body = params
            .iter()
            .skip(read)
            .any(|p| p.name.starts_with(b"oauth_"));
        take_out_signature(&mut params);
        if in_body {
            return self.read(request, authorization);
        }
        Ok((params, realm, protocol))
    }

    /// Checks 1 to 4: required parameters, version, signature method, timestamp.
    fn check_protocol(
        &self,
        request: &Request<'_>,
        params: &Parameters,
        protocol: &ProtocolSpans,
        now: Timestamp,
    ) -> Result<(SignatureMethod, Timestamp), VerifyError> {
        // 1. Required parameters.
        let body_hash_required =
            self.policy.require_body_hash && !request.has_form_body() && !request.body().is_empty();
        let required = [
            ("oauth_consumer_key", protocol.consumer_key.is_some()),
            (
                "oauth_signature_method",
                protocol.signature_method.is_some(),
            ),
            ("oauth_signature", protocol.signature.is_some()),
            ("oauth_timestamp", protocol.timestamp.is_some()),
            ("oauth_nonce", protocol.nonce.is_some()),
            (
                "oauth_body_hash",
                protocol.body_hash.is_some() || !body_hash_required,
            ),
        ];
        if required.iter().any(|(_, present)| !present) {
            let missing: Vec<&'static str> = required
                .iter()
                .filter(|(_, present)| !present)
                .map(|(name, _)| *name)
                .collect();
            // Not one protocol parameter anywhere: an unauthenticated request, not a malformed
            // one (the signature was taken out of the parameters, and is in the spans).
            let unauthenticated =
                protocol.is_empty() && !params.iter().any(|p| p.name.starts_with(b"oauth_"));
            let plaintext = params.at(protocol.signature_method.as_ref()) == b"PLAINTEXT"
                && (missing.iter()).all(|n| matches!(*n, "oauth_timestamp" | "oauth_nonce"));
            return Err(VerifyError::MissingParameters {
                names: missing,
                unauthenticated,
                plaintext,
            });
        }
        let text = |span: Option<&Span>| String::from_utf8_lossy(params.at(span)).into_owned();

        // 2. Version.
        if protocol.version.is_some() && params.at(protocol.version.as_ref()) != b"1.0" {
            return Err(VerifyError::BadVersion {
                version: text(protocol.version.as_ref()),
            });
        }

        // 3. Signature method.
        let sent = params.at(protocol.signature_method.as_ref());
        let method = (SignatureMethod::ALL.into_iter())
            .find(|m| m.as_str().as_bytes() == sent)
            .filter(|m| self.policy.methods.contains(m))
            .ok_or_else(|| VerifyError::UnsupportedSignatureMethod {
                method: text(protocol.signature_method.as_ref()),
                accepted: self.policy.methods.clone(),
            })?;
        if method == SignatureMethod::Plaintext
            && request.url().scheme() != "https"
            && !self.policy.plaintext_over_http
        {
            return Err(VerifyError::InsecureTransport);
        }

        // 4. Timestamp.
        let timestamp = std::str::from_utf8(params.at(protocol.timestamp.as_ref()))
            .ok()
            .and_then(|t| t.parse::<Timestamp>().ok())
            .ok_or_else(|| {
                VerifyError::malformed(format!(
                    "oauth_timestamp \"{}\" is not a whole number of seconds since 1970",
                    text(protocol.timestamp.as_ref()).escape_default()
                ))
            })?;
        let window = self.policy.timestamp_window;
        if timestamp.as_secs().abs_diff(now.as_secs()) > window {
            return Err(VerifyError::StaleTimestamp {
                timestamp: timestamp.as_secs(),
                now: now.as_secs(),
                window,
            });
        }

        Ok((method, timestamp))
    }

    /// Collects the query, form body and header parameters (all but `realm`), within the
    /// limits, with room for `body_len` more bytes of a body read later
    /// ([`server::collect_before_body`]).
    fn collect(
        &self,
        request: &Request<'_>,
        authorization: Option<&str>,
        body_len: usize,
    ) -> Result<(Parameters, Option<String>), VerifyError> {
        let authorization = crate::protocol::oauth_header(authorization);
        server::collect_before_body(request, authorization, &self.policy.limits, body_len)
            .map_err(VerifyError::malformed_by)
    }
}

/// A [`Verifier`] on the calling thread ([`Verifier::blocking`]).
#[derive(Debug)]
pub struct Blocking<'v, C, N> {
    verifier: &'v Verifier<C, N>,
}

impl<C: CredentialStore, N: NonceStore> Blocking<'_, C, N> {
    /// [`Verifier::verify`], the stores' futures run to completion on this thread.
    ///
    /// # Errors
    ///
    /// A [`VerifyError`] naming the first failed check.
    pub fn verify(
        &self,
        request: &Request<'_>,
        authorization: Option<&str>,
    ) -> Result<Verified, VerifyError> {
        block::on(std::pin::pin!(self.verifier.verify(request, authorization)))
    }
}

/// The text at `span` in the parameters, refused unless it is UTF-8 (`name` says which
/// parameter it is).
fn utf8<'p>(
    params: &'p Normalized,
    span: Option<&Span>,
    name: &str,
) -> Result<&'p str, VerifyError> {
    std::str::from_utf8(params.at(span))
        .map_err(|_| VerifyError::malformed(format!("{name} is not UTF-8")))
}

/// The consumer's and the token's secrets, as the store gave them for the request: none for
/// credentials it does not know, an empty token secret without a token.
fn secrets_of(
    consumer: Option<&ConsumerCredential>,
    token: Option<&str>,
    held: Option<&TokenCredential>,
) -> Option<(Secret, Secret)> {
    let consumer_secret = consumer?.secret()?.clone();
    let token_secret = match token {
        None => Secret::default(),
        Some(_) => held?.secret().clone(),
    };
    Some((consumer_secret, token_secret))
}

/// When a nonce may be forgotten: see [`NonceStore`].
fn nonce_expiry(timestamp: Timestamp, window: u64) -> Timestamp {
    Timestamp::new(
        (timestamp.as_secs())
            .saturating_add(window.saturating_mul(2))
            .saturating_add(1),
    )
}
