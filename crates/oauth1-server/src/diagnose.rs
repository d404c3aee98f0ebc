//! The verifier's diagnosis of a bad signature: the explain search run on the received request
//! with the server's own secrets and the client's signature, within a budget.

use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
use std::time::Instant;

use oauth1_signer::explain::{self, Cause, Explainer, Observed, Verdict};
use url::Url;

use oauth1_signer::{
    BodyHash, Consumer, Nonce, Realm, Request, Secret, SignatureMethod, Signer, Timestamp, Token,
    Version,
};

/// Why a signature did not match, as far as the verifier could tell.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Diagnosis {
    /// These mistakes reproduce the client's signature: signing the received request with
    /// the server's secrets and them gives exactly what the client sent. Most likely first;
    /// `pair` when it takes them all together (two or three).
    Found {
        /// The mistakes, by the ids of the shared vocabulary.
        causes: Vec<Cause>,
        /// Whether they reproduce it together, two or three of them (rather than each alone).
        pair: bool,
    },
    /// No single mistake, and no two or three of them together, reproduce it (or the credentials are not
    /// known: the two are not told apart).
    NotFound,
    /// None of the readings tried reproduces it, but the search stopped at its cost budget
    /// ([`Verifier::with_diagnosis_cost`](crate::Verifier::with_diagnosis_cost)) before it
    /// tried them all: the request is too large to search whole.
    NotFoundWithinBudget {
        /// The readings tried (the request signed again as a mistake would sign it).
        tried: usize,
        /// The readings of a whole search of this request.
        of: usize,
    },
    /// The client signed this request for another origin than the server verifies it at:
    /// the request signed for `signed` with the server's secrets gives exactly what the
    /// client sent. Found before any mistake is searched for.
    SignedForOrigin {
        /// The URL the client signed (its scheme, host and port another's).
        signed: String,
        /// The URL the server verified.
        verified: String,
        /// Where that origin comes from: the `Host` header the client sent, forwarding
        /// headers the server does not trust, the origin without its port, `localhost` for a
        /// loopback address.
        from: &'static str,
    },
    /// Not attempted, and why.
    Skipped(String),
}

impl Diagnosis {
    /// The cause ids, most likely first; empty unless found. For a request signed for
    /// another origin, the ids of the vocabulary that name how it differs, each of which
    /// keeps the host: `scheme-changed` (http for https, or the reverse, the port as the
    /// server's or left out) and `port-dropped` (the server's port left out). A host of its
    /// own, or a port of its own, has none: the vocabulary names no such mistake.
    #[must_use]
    pub fn cause_ids(&self) -> Vec<&'static str> {
        match self {
            Diagnosis::Found { causes, .. } => causes.iter().map(|c| c.id()).collect(),
            Diagnosis::SignedForOrigin {
                signed, verified, ..
            } => {
                let (Ok(signed), Ok(verified)) = (Url::parse(signed), Url::parse(verified)) else {
                    return Vec::new();
                };
                if signed.host() != verified.host() {
                    return Vec::new();
                }
                let dropped = signed.port().is_none() && verified.port().is_some();
                let mut ids = Vec::new();
                if signed.scheme() != verified.scheme()
                    && (signed.port() == verified.port() || dropped)
                {
                    ids.push(Cause::SchemeChanged.id());
                }
                if dropped {
                    ids.push(Cause::PortDropped.id());
                }
                ids
            }
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for Diagnosis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Diagnosis::Found { causes, pair: true } if causes.len() >= 2 => {
                let ids: Vec<&str> = causes.iter().map(|c| c.id()).collect();
                let what: Vec<&str> = causes.iter().map(|c| c.what()).collect();
                let fixes: Vec<&str> = causes.iter().map(|c| c.fix()).collect();
                let (last, first) = ids.split_last().unwrap_or((&"", &[]));
                write!(
                    f,
                    "the client's signature matches this request signed with {} and {last} together: it {}. To fix: {}",
                    first.join(", "),
                    what.join(", and "),
                    fixes.join(" ")
                )
            }
            Diagnosis::Found { causes, .. } => match causes.first() {
                Some(first) => write!(
                    f,
                    "the client's signature matches this request signed with {first}: it {}. To fix: {}",
                    first.what(),
                    first.fix()
                ),
                None => f.write_str("no known mistake reproduces the client's signature"),
            },
            Diagnosis::NotFound => f.write_str(
                "no known mistake reproduces the client's signature: check the secrets both sides use",
            ),
            Diagnosis::NotFoundWithinBudget { tried, of } => write!(
                f,
                "none of the {tried} mistakes tried (of {of}) reproduces the client's signature, and the request is too large for the server to try them all: sign a smaller request the same way (fewer parameters, a shorter body) to have the mistake named",
            ),
            Diagnosis::SignedForOrigin {
                signed,
                verified,
                from,
            } => write!(
                f,
                "the client signed this request for {signed} ({from}), and this server verifies it as {verified}{}: the client must sign the URL it sends the request to, and the server must be configured with the origin its clients reach it at (its configured public origin, or the forwarding headers of a proxy it trusts)",
                match self.cause_ids().as_slice() {
                    [] => String::new(),
                    ids => format!(" ({})", ids.join(" and ")),
                }
            ),
            Diagnosis::Skipped(why) => write!(f, "not diagnosed: {why}"),
        }
    }
}

fn skipped(why: &str) -> Diagnosis {
    Diagnosis::Skipped(why.to_owned())
}

/// The bytes of readings one diagnosis may build unless set: the search of a request of a
/// few dozen parameters whole, of a larger one its likeliest mistakes.
pub(crate) const DEFAULT_BYTES: u64 = 64 << 20;

/// How long one diagnosis may run unless set.
pub(crate) const DEFAULT_TIME: Duration = Duration::from_millis(200);

/// At most `per_second` diagnoses in any second of the server's clock, one at a time, each
/// within a cost: what a burst of bad signatures can cost the server, beyond which they are
/// refused undiagnosed.
#[derive(Debug)]
pub(crate) struct Budget {
    per_second: u32,
    /// The second counted and the diagnoses made in it.
    used: Mutex<(u64, u32)>,
    /// One permit: a diagnosis holds it while it runs, so that at most one worker thread is
    /// held by a diagnosis at any time.
    gate: async_lock::Semaphore,
    /// How many bad signatures may wait for the running diagnosis (none unless set: another
    /// one is skipped meanwhile), and how many do.
    queue: usize,
    waiting: AtomicUsize,
    bytes: u64,
    #[cfg_attr(all(target_arch = "wasm32", target_os = "unknown"), allow(dead_code))]
    time: Duration,
}

/// A diagnosis running; the next may start once it is dropped.
pub(crate) type Running<'b> = async_lock::SemaphoreGuard<'b>;

/// A place in the queue of diagnoses waiting, given back when dropped (also when the
/// request that waits is dropped before its turn).
struct Place<'b>(&'b AtomicUsize);

impl Drop for Place<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Budget {
    pub(crate) fn new(per_second: u32) -> Self {
        Budget {
            per_second,
            used: Mutex::new((0, 0)),
            gate: async_lock::Semaphore::new(1),
            queue: 0,
            waiting: AtomicUsize::new(0),
            bytes: DEFAULT_BYTES,
            time: DEFAULT_TIME,
        }
    }

    pub(crate) fn with_cost(mut self, bytes: u64, time: Duration) -> Self {
        self.bytes = bytes;
        self.time = time;
        self
    }

    pub(crate) fn with_queue(mut self, queue: usize) -> Self {
        self.queue = queue;
        self
    }

    pub(crate) fn per_second(&self) -> u32 {
        self.per_second
    }

    /// What the search of a diagnosis starting now may cost: its bytes, and its time where
    /// the platform has a clock (not `wasm32-unknown-unknown`, where the bytes alone bound it).
    pub(crate) fn search_budget(&self) -> explain::Budget {
        let budget = explain::Budget::of_bytes(self.bytes);
        #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
        if let Some(deadline) = Instant::now().checked_add(self.time) {
            return budget.with_deadline(deadline);
        }
        budget
    }

    /// Marks a diagnosis as running, unless one already is, or others wait for their turn
    /// (which a newcomer does not take).
    pub(crate) fn start(&self) -> Option<Running<'_>> {
        if self.waiting.load(Ordering::Acquire) > 0 {
            return None;
        }
        self.gate.try_acquire()
    }

    /// Waits for the running diagnosis to end, in turn, if the queue has a place; `None`
    /// at once if it has none. The wait holds no thread: it awaits.
    pub(crate) async fn wait(&self) -> Option<Running<'_>> {
        let mut waiting = self.waiting.load(Ordering::Acquire);
        loop {
            if waiting >= self.queue {
                return None;
            }
            match self.waiting.compare_exchange_weak(
                waiting,
                waiting + 1,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => break,
                Err(now) => waiting = now,
            }
        }
        let _place = Place(&self.waiting);
        Some(self.gate.acquire().await)
    }

    /// Takes one diagnosis in the second `now`, if the budget has one left.
    pub(crate) fn take(&self, now: Timestamp) -> bool {
        let mut used = self
            .used
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if used.0 != now.as_secs() {
            *used = (now.as_secs(), 0);
        }
        if used.1 >= self.per_second {
            return false;
        }
        used.1 += 1;
        true
    }
}

/// A URL the client may have signed in place of the server's, and what says so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct OtherOrigin {
    /// The request's public URL with another scheme, host or port.
    pub(crate) url: Url,
    /// Where that origin comes from, as the diagnosis names it.
    pub(crate) from: &'static str,
}

/// What the received request said, for signing it again with each mistake.
pub(crate) struct Received<'a> {
    pub(crate) request: &'a Request<'a>,
    pub(crate) method: SignatureMethod,
    pub(crate) consumer_key: &'a str,
    pub(crate) token: Option<&'a str>,
    pub(crate) nonce: &'a [u8],
    pub(crate) timestamp: Timestamp,
    pub(crate) realm: Option<&'a str>,
    pub(crate) version_sent: bool,
    pub(crate) body_hash_sent: bool,
    pub(crate) callback: Option<&'a [u8]>,
    pub(crate) verifier: Option<&'a [u8]>,
    pub(crate) signature: &'a [u8],
    /// The `Authorization` header, whose parameters the verifier collected with the request's.
    pub(crate) authorization: Option<&'a str>,
    /// The origins the client may have signed for instead, most likely first.
    pub(crate) other_origins: &'a [OtherOrigin],
    /// The consumer's and the token's secrets, as the store holds them; none for
    /// credentials it does not know.
    pub(crate) secrets: Option<(Secret, Secret)>,
}

/// Whether a bad signature can be diagnosed at all, before a place is taken for it: the
/// protocol parameters in the `Authorization` header, not RSA, and credentials the store
/// knows (unknown ones are answered at once, without taking from the budget).
pub(crate) fn admit(
    authorization: Option<&str>,
    method: SignatureMethod,
    known: bool,
) -> Result<(), Diagnosis> {
    if !authorization.is_some_and(|h| h.contains("oauth_signature")) {
        return Err(skipped(
            "only requests with the protocol parameters in the Authorization header are diagnosed",
        ));
    }
    if method.is_rsa() {
        return Err(skipped(
            "an RSA signature cannot be reproduced without the client's private key",
        ));
    }
    if !known {
        return Err(Diagnosis::NotFound);
    }
    Ok(())
}

/// The diagnosis of a bad signature that [`admit`] let in, within the budget: when it holds
/// the one place to run (`running`, from [`Budget::start`] or [`Budget::wait`]), and at most
/// the budget's number a second.
pub(crate) fn run(
    budget: &Budget,
    running: Option<Running<'_>>,
    received: &Received<'_>,
    now: Timestamp,
) -> Diagnosis {
    let Some((consumer_secret, token_secret)) = &received.secrets else {
        return Diagnosis::NotFound;
    };
    let Some(_running) = running else {
        return Diagnosis::Skipped(if budget.queue == 0 {
            "the server diagnoses one bad signature at a time, and another is being diagnosed"
                .to_owned()
        } else {
            format!(
                "the server diagnoses one bad signature at a time, and {} more are waiting",
                budget.queue
            )
        });
    };
    if !budget.take(now) {
        return Diagnosis::Skipped(format!(
            "the server diagnoses at most {} bad signatures a second, and this second's are spent",
            budget.per_second()
        ));
    }
    search(
        received,
        consumer_secret,
        token_secret,
        budget.search_budget(),
    )
}

/// Runs the explain search on `received`, signed with the server's secrets, within `budget`.
pub(crate) fn search<'a>(
    received: &Received<'a>,
    consumer_secret: &Secret,
    token_secret: &Secret,
    budget: explain::Budget,
) -> Diagnosis {
    fn text(bytes: &[u8]) -> Option<&str> {
        std::str::from_utf8(bytes).ok()
    }
    let (Some(nonce), Some(signature)) = (text(received.nonce), text(received.signature)) else {
        return skipped("the nonce or the signature is not text");
    };
    let Ok(nonce) = Nonce::new(nonce) else {
        return skipped("the nonce cannot be signed again");
    };
    let mut signer = Signer::new(Consumer::new(
        received.consumer_key,
        consumer_secret.clone(),
    ))
    .with_method(received.method);
    if let Some(token) = received.token {
        signer = signer.with_token(Token::new(token, token_secret.clone()));
    }
    if !received.version_sent {
        signer = signer.with_version(Version::Omit);
    }
    if received.body_hash_sent {
        signer = signer.with_body_hash(BodyHash::Send);
    }
    if let Some(realm) = received.realm {
        match Realm::new(realm) {
            Ok(realm) => signer = signer.with_realm(realm),
            Err(_) => return skipped("the realm cannot be signed again"),
        }
    }
    // The request with its callback and verifier, which the signer writes.
    let (callback, verifier) = match (received.callback.map(text), received.verifier.map(text)) {
        (Some(None), _) => return skipped("oauth_callback is not text"),
        (_, Some(None)) => return skipped("oauth_verifier is not text"),
        (callback, verifier) => (callback.flatten(), verifier.flatten()),
    };
    let complete = |mut request: Request<'a>| {
        if let Some(callback) = callback {
            request = request.with_callback(callback);
        }
        if let Some(verifier) = verifier {
            request = request.with_verifier(verifier);
        }
        request
    };
    let request = complete(received.request.clone());
    // Another origin first: each costs one reading, and explains the whole request.
    for other in received.other_origins {
        let Ok(elsewhere) = Request::from_url(received.request.method(), &other.url) else {
            continue;
        };
        let elsewhere =
            complete(elsewhere.with_body(received.request.content_type(), received.request.body()));
        let mut explainer = Explainer::new(&signer, &elsewhere, &nonce, received.timestamp)
            .with_budget(explain::Budget::of_bytes(0));
        if let Some(header) = received.authorization {
            explainer = explainer.with_authorization_header(header);
        }
        if explainer
            .explain(&Observed::signature(signature))
            .is_ok_and(|e| e.verdict() == Verdict::Match)
        {
            return Diagnosis::SignedForOrigin {
                signed: other.url.to_string(),
                verified: received.request.url().to_string(),
                from: other.from,
            };
        }
    }
    let mut explainer =
        Explainer::new(&signer, &request, &nonce, received.timestamp).with_budget(budget);
    if let Some(header) = received.authorization {
        explainer = explainer.with_authorization_header(header);
    }
    match explainer.explain(&Observed::signature(signature)) {
        Ok(explanation) if explanation.verdict() == Verdict::Explained => Diagnosis::Found {
            // The explanation, then the causes that reproduce it as well, each alone.
            causes: [explanation.causes(), explanation.alternatives()].concat(),
            pair: explanation.is_pair(),
        },
        Ok(explanation) if !explanation.searched().is_complete() => {
            let searched = explanation.searched();
            Diagnosis::NotFoundWithinBudget {
                tried: searched.tried(),
                of: searched.of(),
            }
        }
        Ok(_) => Diagnosis::NotFound,
        Err(_) => skipped("the request cannot be signed again"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_holds_within_a_second_and_renews_with_the_next() {
        let budget = Budget::new(2);
        let second = Timestamp::new(1_000);
        assert!(budget.take(second));
        assert!(budget.take(second));
        assert!(!budget.take(second));
        assert!(!budget.take(second));
        assert!(budget.take(Timestamp::new(1_001)));
        assert!(!Budget::new(0).take(second));
        assert_eq!(budget.per_second(), 2);
    }

    #[test]
    fn another_origin_is_named_by_the_vocabulary_where_it_has_a_name() {
        let origin = |signed: &str, verified: &str| {
            Diagnosis::SignedForOrigin {
                signed: signed.to_owned(),
                verified: verified.to_owned(),
                from: "the Host header it sent",
            }
            .cause_ids()
        };
        let ids: [&[&str]; 10] = [
            &["port-dropped"],
            &["scheme-changed"],
            &["scheme-changed", "port-dropped"],
            &[],
            &[],
            // Another host, whatever else differs: no id names it.
            &[],
            &[],
            &[],
            // The other scheme with a port of its own: not the scheme alone.
            &[],
            &["scheme-changed"],
        ];
        for ((signed, verified), ids) in [
            ("http://127.0.0.1/v1", "http://127.0.0.1:8080/v1"),
            ("https://api.example/x", "http://api.example/x"),
            ("https://127.0.0.1/x", "http://127.0.0.1:8080/x"),
            ("http://localhost:8080/x", "http://127.0.0.1:8080/x"),
            ("http://127.0.0.1:8080/x", "http://127.0.0.1/x"),
            ("http://127.0.0.1:8080/x", "https://api.test/x"),
            ("https://localhost/x", "http://127.0.0.1:8080/x"),
            ("http://other.example/x", "http://api.example:8080/x"),
            ("http://api.example:443/x", "https://api.example/x"),
            ("http://api.example:8080/x", "https://api.example:8080/x"),
        ]
        .into_iter()
        .zip(ids)
        {
            assert_eq!(origin(signed, verified), ids, "{signed} for {verified}");
        }
    }

    #[test]
    fn one_diagnosis_runs_at_a_time() {
        let budget = Budget::new(10);
        let running = budget.start();
        assert!(running.is_some());
        assert!(budget.start().is_none());
        drop(running);
        assert!(budget.start().is_some());
    }

    /// Polls `future` once, with a waker that does nothing.
    fn poll_once<F: std::future::Future>(future: std::pin::Pin<&mut F>) -> Option<F::Output> {
        let mut context = std::task::Context::from_waker(std::task::Waker::noop());
        match future.poll(&mut context) {
            std::task::Poll::Ready(output) => Some(output),
            std::task::Poll::Pending => None,
        }
    }

    #[test]
    fn without_a_queue_none_waits() {
        let budget = Budget::new(10);
        let _running = budget.start().unwrap();
        let mut waiting = std::pin::pin!(budget.wait());
        assert!(matches!(poll_once(waiting.as_mut()), Some(None)));
    }

    #[test]
    fn a_queue_lets_its_places_wait_in_turn_and_no_more() {
        let budget = Budget::new(10).with_queue(2);
        let running = budget.start().unwrap();
        let mut first = std::pin::pin!(budget.wait());
        let mut second = std::pin::pin!(budget.wait());
        let mut third = std::pin::pin!(budget.wait());
        assert!(poll_once(first.as_mut()).is_none(), "the first waits");
        assert!(poll_once(second.as_mut()).is_none(), "the second waits");
        assert!(
            matches!(poll_once(third.as_mut()), Some(None)),
            "the queue is full: the third is turned away at once"
        );
        drop(running);
        let first = poll_once(first.as_mut()).expect("the first runs once the running one ends");
        assert!(first.is_some());
        assert!(
            poll_once(second.as_mut()).is_none(),
            "the second waits for the first"
        );
        drop(first);
        assert!(poll_once(second.as_mut()).unwrap().is_some());
    }

    #[test]
    fn a_newcomer_does_not_take_the_turn_of_one_that_waits() {
        let budget = Budget::new(10).with_queue(2);
        let running = budget.start().unwrap();
        let mut first = std::pin::pin!(budget.wait());
        assert!(poll_once(first.as_mut()).is_none());
        drop(running);
        assert!(budget.start().is_none(), "the one that waits goes first");
        assert!(poll_once(first.as_mut()).unwrap().is_some());
    }

    #[test]
    fn a_request_dropped_while_waiting_gives_its_place_back() {
        let budget = Budget::new(10).with_queue(1);
        let running = budget.start().unwrap();
        {
            let mut waiting = std::pin::pin!(budget.wait());
            assert!(poll_once(waiting.as_mut()).is_none());
        }
        let mut next = std::pin::pin!(budget.wait());
        assert!(
            poll_once(next.as_mut()).is_none(),
            "it has the place back, and waits"
        );
        drop(running);
        assert!(poll_once(next.as_mut()).unwrap().is_some());
    }
}
