//! The Redis nonce stores against real `redis-server`s on loopback ports, started here: one
//! server, and a Redis Cluster of three. `scripts/test` installs the server and `redis-cli`
//! (Debian package `redis-server`) when they are missing.
#![cfg(feature = "redis")]
// A test holds the serializing lock for its whole run, awaits included: each test has a
// runtime of its own, so waiting on it blocks only the test's own thread.
#![allow(clippy::await_holding_lock)]

use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use crate::common::At;
use oauth1_server::{
    BlockingRedisNonceStore, MemoryCredentials, NonceKey, NonceStore, Reason, RedisNonceStore,
    Verifier, VerifyError,
};
use oauth1_signer::{Consumer, Nonce, Request, Signer, Timestamp, Token};

/// A `redis-server` of its own, stopped on drop.
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    /// A server on a free port. A port found free can be taken before the server binds it,
    /// so another port is tried when the server that answers is not this one.
    fn start() -> Server {
        for _ in 0..5 {
            let port = TcpListener::bind("127.0.0.1:0")
                .unwrap()
                .local_addr()
                .unwrap()
                .port();
            if let Some(server) = Server::try_start_on(port) {
                return server;
            }
        }
        panic!("redis-server did not start on any of 5 free ports");
    }

    fn start_on(port: u16) -> Server {
        Server::try_start_on(port)
            .unwrap_or_else(|| panic!("redis-server did not start on port {port}"))
    }

    /// Starts a server and waits until it answers; `None` when the process that answers on
    /// `port` is not the one started here (it exited, or another one holds the port).
    fn try_start_on(port: u16) -> Option<Server> {
        Server::try_start_with(port, &[])
    }

    /// [`try_start_on`](Self::try_start_on) with more arguments for `redis-server`.
    fn try_start_with(port: u16, extra: &[&str]) -> Option<Server> {
        let child = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
            .args(["--save", "", "--appendonly", "no"])
            .args(extra)
            .stdout(Stdio::null())
            .spawn()
            .expect("redis-server is not installed: run scripts/test, which installs it");
        let mut server = Server { child, port };
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if server.child.try_wait().unwrap().is_some() {
                return None;
            }
            if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                break;
            }
            assert!(Instant::now() < deadline, "redis-server did not start");
            thread::sleep(Duration::from_millis(20));
        }
        let info: String = redis::cmd("INFO")
            .arg("server")
            .query(
                &mut redis::Client::open(server.url())
                    .ok()?
                    .get_connection()
                    .ok()?,
            )
            .ok()?;
        let pid = format!("process_id:{}", server.child.id());
        if info.lines().any(|line| line.trim() == pid) {
            Some(server)
        } else {
            server.stop();
            None
        }
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The tests stop and restart servers and probe for free ports: one at a time, so that no
/// test takes a port another test is about to reuse.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

const CK: &str = "dpf43f3p2l4k3l03";
const NOW: u64 = 1_191_242_096;

fn credentials() -> MemoryCredentials {
    let mut c = MemoryCredentials::new();
    c.add_consumer(CK, "kd94hf93k423kf44");
    c.add_token(CK, "nnch734d00sl2jdk", "pfkkdhi9sl3r4s00");
    c
}

fn signed_header(nonce: &str) -> String {
    Signer::new(Consumer::new(CK, "kd94hf93k423kf44"))
        .with_token(Token::new("nnch734d00sl2jdk", "pfkkdhi9sl3r4s00"))
        .sign(&request(), &Nonce::new(nonce).unwrap(), Timestamp::new(NOW))
        .unwrap()
        .authorization()
}

fn request() -> Request<'static> {
    Request::new("GET", "https://photos.example.net/photos?size=original").unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_sharing_redis_refuse_a_replay_across_them() {
    let _serial = serial();
    let server = Server::start();
    let a = Verifier::new(credentials(), RedisNonceStore::open(&server.url()).unwrap());
    let b = Verifier::new(credentials(), RedisNonceStore::open(&server.url()).unwrap());
    let h = signed_header("shared");
    let now = Timestamp::new(NOW);
    a.at(now).verify(&request(), Some(&h)).await.unwrap();
    let err = b.at(now).verify(&request(), Some(&h)).await.unwrap_err();
    assert_eq!(err.reason(), Reason::ReplayedNonce);
    // A failed verification records nothing: a forgery with a new nonce leaves it unused.
    let forged = h.replace("shared", "fresh");
    assert_eq!(
        a.at(now)
            .verify(&request(), Some(&forged))
            .await
            .unwrap_err()
            .reason(),
        Reason::BadSignature
    );
    b.at(now)
        .verify(&request(), Some(&signed_header("fresh")))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_blocking_and_the_async_store_share_their_nonces() {
    let _serial = serial();
    let server = Server::start();
    let blocking = Verifier::new(
        credentials(),
        BlockingRedisNonceStore::open(&server.url()).unwrap(),
    );
    let async_ = Verifier::new(credentials(), RedisNonceStore::open(&server.url()).unwrap());
    let now = Timestamp::new(NOW);
    let (first, second) = (signed_header("first"), signed_header("second"));
    // The blocking store is called where blocking is allowed.
    let verified = tokio::task::block_in_place(|| {
        blocking.at(now).blocking().verify(&request(), Some(&first))
    });
    verified.unwrap();
    let err = async_
        .at(now)
        .verify(&request(), Some(&first))
        .await
        .unwrap_err();
    assert_eq!(err.reason(), Reason::ReplayedNonce);
    async_
        .at(now)
        .verify(&request(), Some(&second))
        .await
        .unwrap();
    let err = tokio::task::block_in_place(|| {
        blocking
            .at(now)
            .blocking()
            .verify(&request(), Some(&second))
    })
    .unwrap_err();
    assert_eq!(err.reason(), Reason::ReplayedNonce);
}

/// Sleeps until `fraction` of a second past the unix second `second`.
async fn sleep_until(second: u64, fraction: f64) {
    let target = Duration::from_secs(second) + Duration::from_secs_f64(fraction);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    if let Some(left) = target.checked_sub(now) {
        tokio::time::sleep(left).await;
    }
}

/// The key's expiry, counted by Redis in whole seconds from when it was written, must outlive
/// the last instant any instance accepts the timestamp: this one's until the end of the second
/// `timestamp + window`, and another's whose clock is behind by up to the window.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replay_is_refused_at_the_last_accepted_instant() {
    let _serial = serial();
    let server = Server::start();
    let window = 1;
    let policy = oauth1_server::Policy::default().with_timestamp_window(window);
    let verifier = |server: &Server| {
        Verifier::new(credentials(), RedisNonceStore::open(&server.url()).unwrap())
            .with_policy(policy.clone())
    };
    let (a, b) = (verifier(&server), verifier(&server));
    // Signed and first verified just after a second begins, by the real clock.
    let start = Timestamp::now().unwrap().as_secs() + 1;
    sleep_until(start, 0.01).await;
    let timestamp = Timestamp::now().unwrap();
    let header = Signer::new(Consumer::new(CK, "kd94hf93k423kf44"))
        .with_token(Token::new("nnch734d00sl2jdk", "pfkkdhi9sl3r4s00"))
        .sign(&request(), &Nonce::new("last").unwrap(), timestamp)
        .unwrap()
        .authorization();
    a.verify(&request(), Some(&header)).await.unwrap();

    // In the last second this instance accepts the timestamp, past the moment a key that
    // expired with the window (written a hundredth of a second into its first second) was
    // gone, and half a second before the key written now may go.
    sleep_until(timestamp.as_secs() + window, 0.5).await;
    let err = a.verify(&request(), Some(&header)).await.unwrap_err();
    assert_eq!(err.reason(), Reason::ReplayedNonce, "{err}");

    // Another instance whose clock is a window behind accepts the timestamp a window longer.
    sleep_until(timestamp.as_secs() + 2 * window, 0.5).await;
    let behind = Timestamp::new(Timestamp::now().unwrap().as_secs() - window);
    let err = b
        .at(behind)
        .verify(&request(), Some(&header))
        .await
        .unwrap_err();
    assert_eq!(err.reason(), Reason::ReplayedNonce, "{err}");
}

/// The remaining time to live of `key`, in seconds.
fn ttl(server: &Server, key: &str) -> i64 {
    let mut redis = redis::Client::open(server.url())
        .unwrap()
        .get_connection()
        .unwrap();
    redis::cmd("TTL").arg(key).query(&mut redis).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn entries_expire_with_the_window() {
    let _serial = serial();
    let server = Server::start();
    let store = RedisNonceStore::open(&server.url())
        .unwrap()
        .with_prefix("test:");
    let key = NonceKey {
        consumer_key: "ck",
        token: None,
        timestamp: Timestamp::new(NOW),
        nonce: b"n",
    };
    assert!(store
        .insert(&key, Timestamp::new(NOW), Timestamp::new(NOW + 300))
        .await
        .unwrap());
    let t = ttl(&server, &format!("test:{}", key.to_key_string()));
    assert!((299..=300).contains(&t), "{t}");
    // Past its window the entry never lingers without an expiry.
    let late = NonceKey {
        nonce: b"late",
        ..key
    };
    assert!(store
        .insert(&late, Timestamp::new(NOW + 400), Timestamp::new(NOW + 300))
        .await
        .unwrap());
    assert_eq!(ttl(&server, &format!("test:{}", late.to_key_string())), 1);
    // The blocking store writes the same keys with the same expiry.
    let blocking = BlockingRedisNonceStore::open(&server.url())
        .unwrap()
        .with_prefix("test:");
    let other = NonceKey {
        nonce: b"blocking",
        ..key
    };
    let new = tokio::task::block_in_place(|| {
        crate::common::at_once(blocking.insert(
            &other,
            Timestamp::new(NOW),
            Timestamp::new(NOW + 300),
        ))
    });
    assert!(new.unwrap());
    let t = ttl(&server, &format!("test:{}", other.to_key_string()));
    assert!((299..=300).contains(&t), "{t}");
}

fn race_key(nonce: &str) -> NonceKey<'_> {
    NonceKey {
        consumer_key: CK,
        token: None,
        timestamp: Timestamp::new(NOW),
        nonce: nonce.as_bytes(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_instances_accept_a_nonce_exactly_once() {
    let _serial = serial();
    let server = Server::start();
    let stores: Vec<Arc<RedisNonceStore>> = (0..4)
        .map(|_| Arc::new(RedisNonceStore::open(&server.url()).unwrap()))
        .collect();
    for round in 0..20 {
        let nonce = format!("race-{round}");
        let tasks: Vec<_> = stores
            .iter()
            .map(|store| {
                let store = Arc::clone(store);
                let nonce = nonce.clone();
                tokio::spawn(async move {
                    store
                        .insert(
                            &race_key(&nonce),
                            Timestamp::new(NOW),
                            Timestamp::new(NOW + 300),
                        )
                        .await
                        .unwrap()
                })
            })
            .collect();
        let mut accepted = 0;
        for task in tasks {
            accepted += usize::from(task.await.unwrap());
        }
        assert_eq!(accepted, 1, "round {round}");
    }
}

#[test]
fn racing_blocking_instances_accept_a_nonce_exactly_once() {
    let _serial = serial();
    let server = Server::start();
    let stores: Vec<Arc<BlockingRedisNonceStore>> = (0..4)
        .map(|_| Arc::new(BlockingRedisNonceStore::open(&server.url()).unwrap()))
        .collect();
    for round in 0..20 {
        let nonce = format!("race-{round}");
        let threads: Vec<_> = stores
            .iter()
            .map(|store| {
                let store = Arc::clone(store);
                let nonce = nonce.clone();
                thread::spawn(move || {
                    crate::common::at_once(store.insert(
                        &race_key(&nonce),
                        Timestamp::new(NOW),
                        Timestamp::new(NOW + 300),
                    ))
                    .unwrap()
                })
            })
            .collect();
        let accepted = threads
            .into_iter()
            .map(|t| t.join().unwrap())
            .filter(|&new| new)
            .count();
        assert_eq!(accepted, 1, "round {round}");
    }
}

fn assert_store_failure(err: &VerifyError) {
    assert_eq!(err.reason(), Reason::StoreFailure, "{err}");
    assert_eq!(err.status(), 503);
    assert!(err.problem().is_none());
    assert!(
        err.to_string()
            .starts_with("the server's credential or nonce store failed: "),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_connection_is_an_error_never_a_pass_and_recovers() {
    let _serial = serial();
    let mut server = Server::start();
    let port = server.port;
    let verifier = Verifier::new(
        credentials(),
        RedisNonceStore::open(&server.url())
            .unwrap()
            .with_timeout(Duration::from_millis(500)),
    );
    let now = Timestamp::new(NOW);
    verifier
        .at(now)
        .verify(&request(), Some(&signed_header("before")))
        .await
        .unwrap();
    server.stop();
    // Requests during the outage fail, each within the timeout, none accepted.
    for attempt in 0..3 {
        let started = Instant::now();
        let err = verifier
            .at(now)
            .verify(
                &request(),
                Some(&signed_header(&format!("during-{attempt}"))),
            )
            .await
            .unwrap_err();
        assert_store_failure(&err);
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "{:?}",
            started.elapsed()
        );
    }
    // The server comes back (empty: no persistence); the store reconnects by itself, and
    // until it has, requests fail and are never accepted unrecorded.
    let _server = Server::start_on(port);
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut attempt = 0;
    loop {
        attempt += 1;
        let header = signed_header(&format!("after-{attempt}"));
        match verifier.at(now).verify(&request(), Some(&header)).await {
            Ok(_) => {
                let err = verifier
                    .at(now)
                    .verify(&request(), Some(&header))
                    .await
                    .unwrap_err();
                assert_eq!(err.reason(), Reason::ReplayedNonce);
                break;
            }
            Err(err) => assert_store_failure(&err),
        }
        assert!(Instant::now() < deadline, "no reconnection within 10 s");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[test]
fn the_blocking_store_reconnects_after_a_lost_connection() {
    let _serial = serial();
    let mut server = Server::start();
    let port = server.port;
    let verifier = Verifier::new(
        credentials(),
        BlockingRedisNonceStore::open(&server.url())
            .unwrap()
            .with_timeout(Duration::from_millis(500)),
    );
    let now = Timestamp::new(NOW);
    verifier
        .at(now)
        .blocking()
        .verify(&request(), Some(&signed_header("before")))
        .unwrap();
    server.stop();
    let err = verifier
        .at(now)
        .blocking()
        .verify(&request(), Some(&signed_header("during")))
        .unwrap_err();
    assert_store_failure(&err);
    let _server = Server::start_on(port);
    verifier
        .at(now)
        .blocking()
        .verify(&request(), Some(&signed_header("during")))
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_listening_is_an_error() {
    let _serial = serial();
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("redis://127.0.0.1:{port}/");
    let verifier = Verifier::new(
        credentials(),
        RedisNonceStore::open(&url)
            .unwrap()
            .with_timeout(Duration::from_millis(500)),
    );
    let err = verifier
        .at(Timestamp::new(NOW))
        .verify(&request(), Some(&signed_header("x")))
        .await
        .unwrap_err();
    assert_store_failure(&err);
    let verifier = Verifier::new(credentials(), BlockingRedisNonceStore::open(&url).unwrap());
    let err = tokio::task::block_in_place(|| {
        verifier
            .at(Timestamp::new(NOW))
            .blocking()
            .verify(&request(), Some(&signed_header("x")))
    })
    .unwrap_err();
    assert_store_failure(&err);
}

/// The blocking store's timeout counts the wait for its one connection: while one request
/// holds it, waiting on a Redis that never answers (a loopback listener that accepts and
/// stays silent), another fails at its own deadline, not that one's plus its own. Connecting
/// counts too: the first fails at its deadline, though the `redis` crate waits its own
/// timeout for each answer of its setup.
#[test]
fn the_blocking_store_times_out_waiting_for_its_busy_connection() {
    const TIMEOUT: Duration = Duration::from_secs(1);
    const SLACK: Duration = Duration::from_millis(500);
    let _serial = serial();
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("redis://127.0.0.1:{}/", silent.local_addr().unwrap().port());
    let store = Arc::new(
        BlockingRedisNonceStore::open(&url)
            .unwrap()
            .with_timeout(TIMEOUT),
    );
    let insert = |store: Arc<BlockingRedisNonceStore>, nonce: &'static str| {
        thread::spawn(move || {
            let started = Instant::now();
            let result = crate::common::at_once(store.insert(
                &race_key(nonce),
                Timestamp::new(NOW),
                Timestamp::new(NOW + 300),
            ));
            (result, started.elapsed())
        })
    };
    let first = insert(Arc::clone(&store), "first");
    // Once the first request has connected, it holds the connection until its timeout.
    silent.set_nonblocking(true).unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    let _held = loop {
        match silent.accept() {
            Ok((stream, _)) => break stream,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                assert!(Instant::now() < deadline, "the store did not connect");
                thread::sleep(Duration::from_millis(5));
            }
            Err(e) => panic!("{e}"),
        }
    };
    let second = insert(Arc::clone(&store), "second");
    let results = [("first", first), ("second", second)].map(|(name, handle)| {
        let (result, elapsed) = handle.join().unwrap();
        (name, result, elapsed)
    });
    let times: Vec<String> = (results.iter())
        .map(|(name, _, elapsed)| format!("{name} {elapsed:?}"))
        .collect();
    for (name, result, elapsed) in results {
        let err = result.expect_err("a Redis that never answers must fail the request");
        assert!(
            elapsed < TIMEOUT + SLACK,
            "with a {TIMEOUT:?} timeout, the requests took {}",
            times.join(", ")
        );
        // The second request fails waiting for the connection, or connecting in the moment
        // left after the first gave it back.
        assert!(
            err.to_string()
                .starts_with("Redis did not answer within 1000 ms: "),
            "the {name} request: {err}"
        );
    }
}

/// Concurrent requests of one store share pipelines: each nonce, sent twice at once among
/// many, is recorded by exactly one of its two.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_store_records_each_of_many_concurrent_nonces_once() {
    let _serial = serial();
    let server = Server::start();
    let store = Arc::new(RedisNonceStore::open(&server.url()).unwrap());
    let tasks: Vec<_> = (0..400)
        .map(|i| {
            let store = Arc::clone(&store);
            tokio::spawn(async move {
                let nonce = format!("many-{}", i % 200);
                let new = store
                    .insert(
                        &race_key(&nonce),
                        Timestamp::new(NOW),
                        Timestamp::new(NOW + 300),
                    )
                    .await
                    .unwrap();
                (i % 200, new)
            })
        })
        .collect();
    let mut accepted = [0; 200];
    for task in tasks {
        let (nonce, new) = task.await.unwrap();
        accepted[nonce] += usize::from(new);
    }
    assert!(accepted.iter().all(|&n| n == 1), "{accepted:?}");
}

/// A store outlives the runtime it was first used on: on the next runtime its connection,
/// lost with the first runtime, comes back as after any lost connection (the first request
/// may fail, never pass), its requests are recorded again, and a nonce recorded on the first
/// is refused.
#[test]
fn a_store_serves_a_runtime_after_the_first_one_stopped() {
    let _serial = serial();
    let server = Server::start();
    let runtime = || {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap()
    };
    let first = runtime();
    let store = first.block_on(async { RedisNonceStore::open(&server.url()).unwrap() });
    let insert = |store: &RedisNonceStore, nonce: &'static str| {
        let store = store.clone();
        async move {
            store
                .insert(
                    &race_key(nonce),
                    Timestamp::new(NOW),
                    Timestamp::new(NOW + 300),
                )
                .await
        }
    };
    assert!(first.block_on(insert(&store, "before")).unwrap());
    drop(first);
    let second = runtime();
    let recorded = second.block_on(async {
        for _ in 0..50 {
            match insert(&store, "after").await {
                Ok(new) => return new,
                Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
            }
        }
        panic!("the store never came back on the second runtime");
    });
    assert!(recorded);
    assert!(!second.block_on(insert(&store, "before")).unwrap());
}

#[test]
fn opening_outside_a_runtime_is_an_error_that_says_so() {
    let err = RedisNonceStore::open("redis://127.0.0.1:6379/").unwrap_err();
    assert_eq!(
        err.to_string(),
        "RedisNonceStore::open needs a Tokio runtime: call it from async code running on one (inside #[tokio::main], say)"
    );
    let err = RedisNonceStore::open_cluster(["redis://127.0.0.1:7000/"]).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("RedisNonceStore::open_cluster needs a Tokio runtime"),
        "{err}"
    );
}

/// A Redis Cluster of three masters on loopback, each with its own directory for its cluster
/// state, stopped on drop.
struct Cluster {
    nodes: Vec<Server>,
    _dir: TempDir,
}

/// A directory removed on drop.
struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Cluster {
    /// Three nodes on ports whose cluster bus ports (port + 10000) are free too, joined with
    /// `redis-cli --cluster create`, waited for until every node says the cluster is ok.
    fn start() -> Cluster {
        let dir = std::env::temp_dir().join(format!("oauth1-cluster-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let dir = TempDir(dir);
        let mut nodes = Vec::new();
        let mut candidate = 20_000 + (std::process::id() % 5_000) as u16;
        while nodes.len() < 3 {
            candidate += 1;
            assert!(candidate < 30_000, "no free ports for a cluster");
            let free = |port: u16| TcpListener::bind(("127.0.0.1", port)).is_ok();
            if !free(candidate) || !free(candidate + 10_000) {
                continue;
            }
            let config = dir.0.join(format!("nodes-{candidate}.conf"));
            if let Some(server) = Server::try_start_with(
                candidate,
                &[
                    "--cluster-enabled",
                    "yes",
                    "--cluster-config-file",
                    config.to_str().unwrap(),
                    "--dir",
                    dir.0.to_str().unwrap(),
                ],
            ) {
                nodes.push(server);
            }
        }
        let addresses: Vec<String> = nodes
            .iter()
            .map(|n| format!("127.0.0.1:{}", n.port))
            .collect();
        let status = Command::new("redis-cli")
            .args(["--cluster", "create"])
            .args(&addresses)
            .args(["--cluster-replicas", "0", "--cluster-yes"])
            .stdout(Stdio::null())
            .status()
            .expect("redis-cli is not installed: run scripts/test, which installs it");
        assert!(status.success(), "redis-cli --cluster create failed");
        let deadline = Instant::now() + Duration::from_secs(20);
        for node in &nodes {
            loop {
                let info: String = redis::cmd("CLUSTER")
                    .arg("INFO")
                    .query(
                        &mut redis::Client::open(node.url())
                            .unwrap()
                            .get_connection()
                            .unwrap(),
                    )
                    .unwrap();
                if info.lines().any(|l| l.trim() == "cluster_state:ok") {
                    break;
                }
                assert!(Instant::now() < deadline, "the cluster did not become ok");
                thread::sleep(Duration::from_millis(50));
            }
        }
        Cluster { nodes, _dir: dir }
    }

    fn urls(&self) -> Vec<String> {
        self.nodes.iter().map(Server::url).collect()
    }

    /// How many keys each node holds.
    fn key_counts(&self) -> Vec<usize> {
        self.nodes
            .iter()
            .map(|node| {
                redis::cmd("DBSIZE")
                    .query(
                        &mut redis::Client::open(node.url())
                            .unwrap()
                            .get_connection()
                            .unwrap(),
                    )
                    .unwrap()
            })
            .collect()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn instances_sharing_a_redis_cluster_accept_each_nonce_once() {
    let _serial = serial();
    let cluster = Cluster::start();
    let urls = cluster.urls();
    // Each instance knows a different node first; the cluster client finds the others.
    let a = Arc::new(Verifier::new(
        credentials(),
        RedisNonceStore::open_cluster([urls[0].as_str()]).unwrap(),
    ));
    let b = Arc::new(Verifier::new(
        credentials(),
        RedisNonceStore::open_cluster([urls[2].as_str(), urls[1].as_str()]).unwrap(),
    ));
    let now = Timestamp::new(NOW);
    let request = request();
    let mut accepted = 0;
    for i in 0..60 {
        let header = signed_header(&format!("cluster-{i}"));
        // Sent to both at once: exactly one accepts.
        let answers = tokio::join!(
            a.at(now).verify(&request, Some(&header)),
            b.at(now).verify(&request, Some(&header))
        );
        match answers {
            (Ok(_), Err(refused)) | (Err(refused), Ok(_)) => {
                assert_eq!(refused.reason(), Reason::ReplayedNonce, "{refused}");
                accepted += 1;
            }
            other => panic!("nonce {i}: {other:?}"),
        }
    }
    assert_eq!(accepted, 60);
    // The nonces are spread over the nodes: the store followed the cluster's slots.
    let counts = cluster.key_counts();
    assert_eq!(counts.iter().sum::<usize>(), 60, "{counts:?}");
    assert!(counts.iter().all(|&n| n > 0), "{counts:?}");

    // Temporary credentials in the cluster: issued through one node, approved and exchanged
    // through others (the script and GETDEL go to the node of the key's slot).
    let credentials = issuing::shared_credentials();
    let open = |url: &str| oauth1_server::RedisTemporaryStore::open_cluster([url]).unwrap();
    let first = issuing::instance(&credentials, open(&urls[0]));
    let second = issuing::instance(&credentials, open(&urls[1]));
    for _ in 0..5 {
        let issued = issuing::temporary(&first).await;
        let approved = second.approve(issued.token(), "dave").await.unwrap();
        let token = issuing::exchange(&second, &issued, approved.verifier())
            .await
            .unwrap();
        assert_eq!(token.credential().owner(), Some("dave"));
        let again = issuing::exchange(&first, &issued, approved.verifier()).await;
        assert_eq!(again.unwrap_err().reason(), Reason::BadSignature);
    }
}

/// The tower layer over the Redis store: accepted, then a replay refused, then 503 while Redis
/// is away.
#[cfg(feature = "tower")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tower_layer_awaits_the_redis_store() {
    use http_body_util::Full;
    use tower::{Layer, ServiceExt};

    let _serial = serial();
    let mut server = Server::start();
    let verifier = Verifier::new(
        credentials(),
        RedisNonceStore::open(&server.url())
            .unwrap()
            .with_timeout(Duration::from_millis(500)),
    );
    let layer =
        oauth1_server::tower::VerifyLayer::new(verifier, "https://photos.example.net").unwrap();
    let service = layer.layer(tower::service_fn(
        |_: http::Request<Full<bytes::Bytes>>| async {
            Ok::<_, std::convert::Infallible>(http::Response::new(Full::<bytes::Bytes>::from("ok")))
        },
    ));
    let now = Timestamp::now().unwrap();
    let header = |nonce: &str| {
        Signer::new(Consumer::new(CK, "kd94hf93k423kf44"))
            .with_token(Token::new("nnch734d00sl2jdk", "pfkkdhi9sl3r4s00"))
            .sign(&request(), &Nonce::new(nonce).unwrap(), now)
            .unwrap()
            .authorization()
    };
    let send = |header: String| {
        let request = http::Request::get("/photos?size=original")
            .header("authorization", header)
            .body(Full::default())
            .unwrap();
        let service = service.clone();
        async move { service.oneshot(request).await.unwrap().status().as_u16() }
    };
    let first = header("tower-1");
    assert_eq!(send(first.clone()).await, 200);
    assert_eq!(send(first).await, 401);
    server.stop();
    assert_eq!(send(header("tower-2")).await, 503);
}

/// The provider's flow through `Issuer`s sharing temporary credentials in Redis (and the
/// application's credentials, as instances sharing a database do): issued on one, approved
/// on another, exchanged once.
mod issuing {
    use super::*;
    use oauth1_server::{
        Issued, Issuer, MemoryCredentials, MemoryNonceStore, RedisTemporaryStore, TemporaryStore,
        WithTemporary,
    };

    const CS: &str = "kd94hf93k423kf44";

    type Instance<C> = Issuer<Arc<MemoryCredentials>, MemoryNonceStore, RedisTemporaryStore<C>>;

    pub(super) fn shared_credentials() -> Arc<MemoryCredentials> {
        let mut c = MemoryCredentials::new();
        c.add_consumer(CK, CS);
        Arc::new(c)
    }

    pub(super) fn instance<C>(
        credentials: &Arc<MemoryCredentials>,
        temporary: RedisTemporaryStore<C>,
    ) -> Instance<C>
    where
        C: redis::aio::ConnectionLike + Clone + Send + Sync,
    {
        Issuer::new(Verifier::new(
            WithTemporary::new(Arc::clone(credentials), temporary),
            MemoryNonceStore::new(),
        ))
    }

    pub(super) async fn temporary<C>(issuer: &Instance<C>) -> Issued
    where
        C: redis::aio::ConnectionLike + Clone + Send + Sync,
    {
        let request = Request::new("POST", "https://provider.example/request_token")
            .unwrap()
            .with_callback("oob");
        let header = Signer::new(Consumer::new(CK, CS))
            .sign_now(&request)
            .unwrap()
            .authorization();
        issuer
            .temporary_credentials(&request, Some(&header))
            .await
            .unwrap()
    }

    pub(super) async fn exchange<C>(
        issuer: &Instance<C>,
        temporary: &Issued,
        verifier: &str,
    ) -> Result<Issued, VerifyError>
    where
        C: redis::aio::ConnectionLike + Clone + Send + Sync,
    {
        let request = Request::new("POST", "https://provider.example/access_token")
            .unwrap()
            .with_verifier(verifier);
        let header = Signer::new(Consumer::new(CK, CS))
            .with_token(Token::new(
                temporary.token(),
                temporary.credential().secret().clone(),
            ))
            .sign_now(&request)
            .unwrap()
            .authorization();
        issuer.token_credentials(&request, Some(&header)).await
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn temporary_credentials_in_redis_serve_every_instance_once() {
        let _serial = serial();
        let server = Server::start();
        let credentials = shared_credentials();
        let open = || RedisTemporaryStore::open(&server.url()).unwrap();
        let (a, b) = (
            instance(&credentials, open()),
            instance(&credentials, open()),
        );

        let issued = temporary(&a).await;
        // Kept in Redis until they expire, and no longer.
        let key = format!("oauth1:temporary:{}", issued.token());
        let t = ttl(&server, &key);
        assert!((599..=600).contains(&t), "{t}");
        // Waiting on the other instance, and approved there.
        assert_eq!(b.pending(issued.token()).await.unwrap().consumer_key, CK);
        let approved = b.approve(issued.token(), "alice").await.unwrap();
        assert!(matches!(
            a.approve(issued.token(), "mallory").await,
            Err(oauth1_server::AuthorizeError::AlreadyApproved)
        ));
        // The approval kept the expiry.
        assert!(ttl(&server, &key) > 590);
        let token = exchange(&a, &issued, approved.verifier()).await.unwrap();
        assert_eq!(token.credential().owner(), Some("alice"));
        assert_eq!(ttl(&server, &key), -2, "taken: the key is gone");
        // Void on every instance.
        let err = exchange(&b, &issued, approved.verifier())
            .await
            .unwrap_err();
        assert_eq!(err.reason(), Reason::BadSignature);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn instances_racing_approve_once_and_exchange_once() {
        let _serial = serial();
        let server = Server::start();
        let credentials = shared_credentials();
        let instances: Vec<_> = (0..4)
            .map(|_| {
                Arc::new(instance(
                    &credentials,
                    RedisTemporaryStore::open(&server.url()).unwrap(),
                ))
            })
            .collect();
        for round in 0..10 {
            let issued = Arc::new(temporary(&instances[0]).await);
            let approvals: Vec<_> = instances
                .iter()
                .map(|instance| {
                    let (provider, temporary) = (Arc::clone(instance), Arc::clone(&issued));
                    tokio::spawn(async move { provider.approve(temporary.token(), "bob").await })
                })
                .collect();
            let mut verifiers = Vec::new();
            for task in approvals {
                if let Ok(approved) = task.await.unwrap() {
                    verifiers.push(approved.verifier().to_owned());
                }
            }
            assert_eq!(verifiers.len(), 1, "round {round}: approvals");
            let exchanges: Vec<_> = instances
                .iter()
                .map(|instance| {
                    let (provider, temporary) = (Arc::clone(instance), Arc::clone(&issued));
                    let verifier = verifiers[0].clone();
                    tokio::spawn(async move { exchange(&provider, &temporary, &verifier).await })
                })
                .collect();
            let mut issued_tokens = 0;
            for task in exchanges {
                issued_tokens += usize::from(task.await.unwrap().is_ok());
            }
            assert_eq!(issued_tokens, 1, "round {round}: exchanges");
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_lost_redis_fails_the_flow_with_store_errors() {
        let _serial = serial();
        let mut server = Server::start();
        let credentials = shared_credentials();
        let store = RedisTemporaryStore::open(&server.url())
            .unwrap()
            .with_timeout(Duration::from_millis(500));
        let provider = instance(&credentials, store.clone());
        let issued = temporary(&provider).await;
        server.stop();
        assert!(matches!(
            provider.approve(issued.token(), "carol").await,
            Err(oauth1_server::AuthorizeError::Store(_))
        ));
        assert!(store.get(issued.token()).await.is_err());
    }
}
