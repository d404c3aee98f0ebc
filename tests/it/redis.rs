//! The Redis nonce store against a real `redis-server` on a loopback port, started here.
//! `scripts/test` installs the server (Debian package `redis-server`) when it is missing.
#![cfg(feature = "redis")]

use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use oauth1_signer::verify::{
    MemoryCredentials, NonceKey, NonceStore, Reason, RedisNonceStore, Verifier,
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
        let child = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
            .args(["--save", "", "--appendonly", "no"])
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

#[test]
fn two_instances_sharing_redis_refuse_a_replay_across_them() {
    let _serial = serial();
    let server = Server::start();
    let a = Verifier::new(credentials(), RedisNonceStore::open(&server.url()).unwrap());
    let b = Verifier::new(credentials(), RedisNonceStore::open(&server.url()).unwrap());
    let h = signed_header("shared");
    a.verify_at(&request(), Some(&h), Timestamp::new(NOW))
        .unwrap();
    let err = b
        .verify_at(&request(), Some(&h), Timestamp::new(NOW))
        .unwrap_err();
    assert_eq!(err.reason(), Reason::ReplayedNonce);
    // A failed verification records nothing: a forgery with a new nonce leaves it unused.
    let forged = h.replace("shared", "fresh");
    assert_eq!(
        a.verify_at(&request(), Some(&forged), Timestamp::new(NOW))
            .unwrap_err()
            .reason(),
        Reason::BadSignature
    );
    b.verify_at(
        &request(),
        Some(&signed_header("fresh")),
        Timestamp::new(NOW),
    )
    .unwrap();
}

/// Sleeps until `fraction` of a second past the unix second `second`.
fn sleep_until(second: u64, fraction: f64) {
    let target = Duration::from_secs(second) + Duration::from_secs_f64(fraction);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    if let Some(left) = target.checked_sub(now) {
        thread::sleep(left);
    }
}

/// The key's expiry, counted by Redis in whole seconds from when it was written, must outlive
/// the last instant any instance accepts the timestamp: this one's until the end of the second
/// `timestamp + window`, and another's whose clock is behind by up to the window.
#[test]
fn a_replay_is_refused_at_the_last_accepted_instant() {
    let _serial = serial();
    let server = Server::start();
    let window = 1;
    let policy = oauth1_signer::verify::Policy::default().with_timestamp_window(window);
    let verifier = |server: &Server| {
        Verifier::new(credentials(), RedisNonceStore::open(&server.url()).unwrap())
            .with_policy(policy.clone())
    };
    let (a, b) = (verifier(&server), verifier(&server));
    // Signed and first verified just after a second begins, by the real clock.
    let start = Timestamp::now().unwrap().as_secs() + 1;
    sleep_until(start, 0.01);
    let timestamp = Timestamp::now().unwrap();
    let header = Signer::new(Consumer::new(CK, "kd94hf93k423kf44"))
        .with_token(Token::new("nnch734d00sl2jdk", "pfkkdhi9sl3r4s00"))
        .sign(&request(), &Nonce::new("last").unwrap(), timestamp)
        .unwrap()
        .authorization();
    a.verify(&request(), Some(&header)).unwrap();

    // In the last second this instance accepts the timestamp, past the moment a key that
    // expired with the window (written a hundredth of a second into its first second) was
    // gone, and half a second before the key written now may go.
    sleep_until(timestamp.as_secs() + window, 0.5);
    let err = a.verify(&request(), Some(&header)).unwrap_err();
    assert_eq!(err.reason(), Reason::ReplayedNonce, "{err}");

    // Another instance whose clock is a window behind accepts the timestamp a window longer.
    sleep_until(timestamp.as_secs() + 2 * window, 0.5);
    let behind = Timestamp::new(Timestamp::now().unwrap().as_secs() - window);
    let err = b.verify_at(&request(), Some(&header), behind).unwrap_err();
    assert_eq!(err.reason(), Reason::ReplayedNonce, "{err}");
}

#[test]
fn entries_expire_with_the_window() {
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
        .unwrap());
    let mut redis = redis::Client::open(server.url())
        .unwrap()
        .get_connection()
        .unwrap();
    let ttl: i64 = redis::cmd("TTL")
        .arg(format!("test:{}", key.to_key_string()))
        .query(&mut redis)
        .unwrap();
    assert!((299..=300).contains(&ttl), "{ttl}");
    // Past its window the entry never lingers without an expiry.
    assert!(store
        .insert(
            &NonceKey {
                nonce: b"late",
                ..key
            },
            Timestamp::new(NOW + 400),
            Timestamp::new(NOW + 300)
        )
        .unwrap());
    let ttl: i64 = redis::cmd("TTL")
        .arg(format!(
            "test:{}",
            NonceKey {
                nonce: b"late",
                ..key
            }
            .to_key_string()
        ))
        .query(&mut redis)
        .unwrap();
    assert_eq!(ttl, 1);
}

#[test]
fn racing_instances_accept_a_nonce_exactly_once() {
    let _serial = serial();
    let server = Server::start();
    let stores: Vec<Arc<RedisNonceStore>> = (0..4)
        .map(|_| Arc::new(RedisNonceStore::open(&server.url()).unwrap()))
        .collect();
    for round in 0..20 {
        let nonce = format!("race-{round}");
        let threads: Vec<_> = stores
            .iter()
            .map(|store| {
                let store = Arc::clone(store);
                let nonce = nonce.clone();
                thread::spawn(move || {
                    store
                        .insert(
                            &NonceKey {
                                consumer_key: CK,
                                token: None,
                                timestamp: Timestamp::new(NOW),
                                nonce: nonce.as_bytes(),
                            },
                            Timestamp::new(NOW),
                            Timestamp::new(NOW + 300),
                        )
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

#[test]
fn a_lost_connection_is_an_error_never_a_pass_and_recovers() {
    let _serial = serial();
    let mut server = Server::start();
    let port = server.port;
    let verifier = Verifier::new(
        credentials(),
        RedisNonceStore::open(&server.url())
            .unwrap()
            .with_timeout(Duration::from_millis(500)),
    );
    verifier
        .verify_at(
            &request(),
            Some(&signed_header("before")),
            Timestamp::new(NOW),
        )
        .unwrap();
    server.stop();
    let err = verifier
        .verify_at(
            &request(),
            Some(&signed_header("during")),
            Timestamp::new(NOW),
        )
        .unwrap_err();
    assert_eq!(err.reason(), Reason::StoreFailure);
    assert_eq!(err.status(), 503);
    assert!(err.problem().is_none());
    assert!(
        err.to_string()
            .starts_with("the server's credential or nonce store failed: "),
        "{err}"
    );
    // The server comes back (empty: no persistence); the store reconnects.
    let _server = Server::start_on(port);
    verifier
        .verify_at(
            &request(),
            Some(&signed_header("during")),
            Timestamp::new(NOW),
        )
        .unwrap();
}

#[test]
fn nothing_listening_is_an_error() {
    let _serial = serial();
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let verifier = Verifier::new(
        credentials(),
        RedisNonceStore::open(&format!("redis://127.0.0.1:{port}/")).unwrap(),
    );
    let err = verifier
        .verify_at(&request(), Some(&signed_header("x")), Timestamp::new(NOW))
        .unwrap_err();
    assert_eq!(err.reason(), Reason::StoreFailure);
}
