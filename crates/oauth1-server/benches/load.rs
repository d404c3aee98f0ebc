//! A load test of the tower layer on loopback: axum servers in this process, on a Tokio runtime
//! of their own, a Redis started here, and clients on another runtime that sign every request
//! fresh (a replayed request is not load, it is a replay). `scripts/load` runs it; it stops what
//! it started on exit.
//!
//! `cargo bench -p oauth1-server --bench load --features tower,redis -- [SECONDS] [CONNECTIONS]` (defaults: 5
//! seconds a scenario, 32 connections; `cargo bench` alone runs each for 1 second). Scenarios:
//!
//! - `plain`: axum without the layer, the floor (the clients sign all the same);
//! - `memory`: `VerifyLayer` with the memory nonce store;
//! - `redis`: `VerifyLayer` with `RedisNonceStore`;
//! - `rounds`: plain, memory and Redis servers side by side, loaded in turn a second each,
//!   round after round: each one's rate and server CPU per request against plain's in the
//!   same round (the median over the rounds of the CPU over plain's is the layer's cost on
//!   the server, measured on one machine state at a time); beside them the memory store
//!   answering through another task, which tells what waiting for a store costs, and before
//!   them the memory server's work on the same requests in this process, without HTTP;
//! - `two-instances`: two servers sharing one Redis, every signed request sent to both at once:
//!   exactly one must accept it;
//! - `redis-outage`: `redis`, with Redis stopped for 2 seconds in the middle and started
//!   again: nothing may be accepted while it is down, and requests must be accepted again
//!   soon after it is back.
//! - `cluster-failover`: a Redis Cluster of three primaries and three replicas (each replica
//!   synchronized before the run), two instances verifying every request, a primary killed 3
//!   seconds into a run of at least 12: nothing accepted twice, nothing refused by both with
//!   401, and every request accepted again after the replica's promotion.
//!
//! For each: throughput, p50 and p99 latency, the CPU time the server's threads (and
//! `redis-server`) spent per request, read from `/proc`, and per second the accepted, 503 and
//! other answers. The server's CPU per request against plain's is the share of plain's rate
//! that a server with its CPU to itself would serve at: on this machine the clients take CPU
//! from the same cores. It exits non-zero if a request was accepted twice, or accepted while Redis was
//! down, or if acceptance did not resume within 1 second of Redis's return, or after a
//! Redis Cluster failover.

use std::future::Future;
use std::net::TcpListener as StdListener;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::routing::get;
use axum::Router;
use oauth1_server::tower::VerifyLayer;
use oauth1_server::{
    MemoryCredentials, MemoryNonceStore, NonceKey, NonceStore, RedisNonceStore, StoreError,
    Verifier,
};
use oauth1_signer::{Consumer, Request, Signer, Timestamp, Token};
use tokio::runtime::Handle;
use tokio::sync::{mpsc, oneshot};

const CK: &str = "load-consumer";
const CS: &str = "load consumer secret";
const TK: &str = "load-token";
const TS: &str = "load token secret";

fn credentials() -> MemoryCredentials {
    let mut c = MemoryCredentials::new();
    c.add_consumer(CK, CS);
    c.add_token(CK, TK, TS);
    c
}

/// A `redis-server` on a free loopback port, stopped on drop.
struct Redis {
    child: Option<Child>,
    port: u16,
}

impl Redis {
    fn start() -> Redis {
        let port = StdListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let mut redis = Redis { child: None, port };
        redis.restart();
        redis
    }

    fn restart(&mut self) {
        self.start_with(&[]);
    }

    fn start_with(&mut self, extra: &[&str]) {
        let child = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &self.port.to_string()])
            .args(["--save", "", "--appendonly", "no"])
            .args(extra)
            .stdout(Stdio::null())
            .spawn()
            .expect("redis-server is not installed: run scripts/load, which installs it");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(Instant::now() < deadline, "redis-server did not start");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// `redis-cli`'s whole answer to `command`, or an empty string.
    fn answer(&self, command: &[&str]) -> String {
        Command::new("redis-cli")
            .args(["-p", &self.port.to_string()])
            .args(command)
            .stderr(Stdio::null())
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default()
    }

    /// The cluster is ok here, and a replica has synchronized with its primary (a replica
    /// that has not is not promoted when its primary fails).
    fn cluster_ok(&self) -> bool {
        let replication = self.answer(&["INFO", "replication"]);
        self.answer(&["CLUSTER", "INFO"])
            .contains("cluster_state:ok")
            && (replication.contains("role:master")
                || replication.contains("master_link_status:up"))
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A Redis Cluster of three primaries and three replicas on loopback, each node a
/// `redis-server` of its own (its cluster bus on port + 10000), in a directory of its own;
/// stopped and removed on drop. A node that stops answering is failed over after 1 second.
struct Cluster {
    nodes: Vec<Redis>,
    dir: std::path::PathBuf,
}

impl Cluster {
    fn start() -> Cluster {
        let dir = std::env::temp_dir().join(format!("oauth1-load-cluster-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut nodes = Vec::new();
        let mut candidate = 31_000 + u16::try_from(std::process::id() % 4_000).unwrap_or(0);
        while nodes.len() < 6 {
            candidate += 1;
            assert!(candidate < 40_000, "no free ports for a cluster");
            let free = |port: u16| StdListener::bind(("127.0.0.1", port)).is_ok();
            if !free(candidate) || !free(candidate + 10_000) {
                continue;
            }
            let config = dir.join(format!("nodes-{candidate}.conf"));
            let mut node = Redis {
                child: None,
                port: candidate,
            };
            node.start_with(&[
                "--cluster-enabled",
                "yes",
                "--cluster-node-timeout",
                "1000",
                "--cluster-config-file",
                config.to_str().unwrap(),
                "--dir",
                dir.to_str().unwrap(),
            ]);
            nodes.push(node);
        }
        let addresses: Vec<String> = nodes
            .iter()
            .map(|n| format!("127.0.0.1:{}", n.port))
            .collect();
        let status = Command::new("redis-cli")
            .args(["--cluster", "create"])
            .args(&addresses)
            .args(["--cluster-replicas", "1", "--cluster-yes"])
            .stdout(Stdio::null())
            .status()
            .expect("redis-cli is not installed: run scripts/load, which installs it");
        assert!(status.success(), "redis-cli --cluster create failed");
        let cluster = Cluster { nodes, dir };
        let deadline = Instant::now() + Duration::from_secs(30);
        while !cluster.nodes.iter().all(Redis::cluster_ok) {
            assert!(Instant::now() < deadline, "the cluster did not become ok");
            std::thread::sleep(Duration::from_millis(50));
        }
        cluster
    }

    fn urls(&self) -> Vec<String> {
        self.nodes.iter().map(Redis::url).collect()
    }

    /// A primary that has a replica: the node to kill.
    fn a_primary(&mut self) -> &mut Redis {
        let at = self
            .nodes
            .iter()
            .position(|n| n.answer(&["ROLE"]).starts_with("master"))
            .expect("a primary");
        &mut self.nodes[at]
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.nodes.clear();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// CPU time, in clock ticks of 1/100 s (Linux's `USER_HZ`): of this process's threads whose
/// name starts with `name`, read from `/proc`.
fn thread_ticks(name: &str) -> u64 {
    let tasks = std::fs::read_dir("/proc/self/task").expect("/proc/self/task");
    tasks
        .flatten()
        .filter(|task| {
            std::fs::read_to_string(task.path().join("comm")).is_ok_and(|c| c.starts_with(name))
        })
        .map(|task| ticks(&std::fs::read_to_string(task.path().join("stat")).unwrap_or_default()))
        .sum()
}

/// [`thread_ticks`] of a whole process.
fn process_ticks(pid: u32) -> u64 {
    ticks(&std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default())
}

/// User and system time from a `stat` line of `/proc` (its 14th and 15th fields; the 2nd, the
/// command's name in parentheses, may hold spaces).
fn ticks(stat: &str) -> u64 {
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let field = |n: usize| fields.get(n - 3).and_then(|f| f.parse::<u64>().ok());
    field(14).unwrap_or(0) + field(15).unwrap_or(0)
}

/// The CPU time spent by the server's runtime, and by Redis when it runs, from when it was
/// made.
struct Cpu {
    server: u64,
    redis: Option<(u32, u64)>,
}

impl Cpu {
    fn start(redis: Option<&Redis>) -> Cpu {
        Cpu {
            server: thread_ticks(SERVER_THREADS),
            redis: redis
                .and_then(|r| r.child.as_ref())
                .map(|c| (c.id(), process_ticks(c.id()))),
        }
    }

    /// Microseconds of server CPU, and of Redis CPU, per request since [`Cpu::start`].
    fn per_request(&self, requests: usize) -> (f64, Option<f64>) {
        #[allow(clippy::cast_precision_loss)] // counts far below 2^52
        let per = |ticks: u64| ticks as f64 * 1e4 / requests.max(1) as f64;
        (
            per(thread_ticks(SERVER_THREADS) - self.server),
            self.redis
                .map(|(pid, before)| per(process_ticks(pid).saturating_sub(before))),
        )
    }
}

/// The name of the server runtime's threads.
const SERVER_THREADS: &str = "load-server";

/// What a server verifies with.
enum Nonces {
    None,
    Memory,
    /// The memory store, its answer handed back by another task ([`Relayed`]).
    Relayed,
    Redis(String),
    /// A Redis Cluster, by its nodes' URLs.
    Cluster(Vec<String>),
}

/// Serves `/photos` on a free loopback port, on the server's runtime: behind the layer unless
/// `nonces` is `None`, for clients that sign its own origin. Returns the origin.
fn serve(server: &Handle, nonces: Nonces) -> String {
    serve_as(server, nonces, None)
}

/// [`serve`], for clients that sign `public` (another instance's origin, as behind a load
/// balancer) when given.
fn serve_as(server: &Handle, nonces: Nonces, public: Option<&str>) -> String {
    let listener = StdListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let own = format!("http://{}", listener.local_addr().unwrap());
    let origin = public.map_or_else(|| own.clone(), str::to_owned);
    let app = router(server, nonces, &origin);
    server.spawn(async move {
        let listener = tokio::net::TcpListener::from_std(listener).unwrap();
        axum::serve(listener, app).await
    });
    own
}

/// The servers' application: `/photos`, behind the layer for clients that sign `origin`
/// unless `nonces` is `None`.
fn router(server: &Handle, nonces: Nonces, origin: &str) -> Router {
    let app = Router::new().route("/photos", get(|| async { "ok" }));
    match nonces {
        Nonces::None => app,
        Nonces::Memory => app.layer(
            VerifyLayer::new(
                Verifier::new(credentials(), MemoryNonceStore::new()),
                origin,
            )
            .unwrap(),
        ),
        Nonces::Relayed => app.layer(
            VerifyLayer::new(Verifier::new(credentials(), Relayed::new(server)), origin).unwrap(),
        ),
        Nonces::Redis(url) => {
            let store = RedisNonceStore::open(&url)
                .unwrap()
                .with_timeout(Duration::from_millis(500));
            app.layer(VerifyLayer::new(Verifier::new(credentials(), store), origin).unwrap())
        }
        Nonces::Cluster(urls) => {
            let store = RedisNonceStore::open_cluster(urls.iter().map(String::as_str))
                .unwrap()
                .with_timeout(Duration::from_millis(500));
            app.layer(VerifyLayer::new(Verifier::new(credentials(), store), origin).unwrap())
        }
    }
}

/// The layer's work on the load's request in this process, without HTTP or load: the plain
/// and the memory servers' applications each handed the same 4,096 signed requests, made as
/// the HTTP server makes them (method, target, `Host`, `Authorization`, an empty body), their
/// answers taken at once (a memory store never waits). Outside the timed loops: signing and
/// making the requests, a new application for each pass. Returns the median over seven passes
/// of the difference, in µs per request: beside the load's CPU over plain, what the work
/// costs without the load's cold caches and task switches.
fn in_process(server: &Handle) -> f64 {
    const REQUESTS: usize = 4_096;
    let origin = "http://127.0.0.1:9";
    let signer = Signer::new(Consumer::new(CK, CS)).with_token(Token::new(TK, TS));
    let url = format!("{origin}/photos?size=original");
    let headers: Vec<String> = (0..REQUESTS)
        .map(|_| {
            let request = Request::new("GET", &url).unwrap();
            signer.sign_now(&request).unwrap().authorization()
        })
        .collect();
    let made = || -> Vec<http::Request<axum::body::Body>> {
        headers
            .iter()
            .map(|header| {
                http::Request::get("/photos?size=original")
                    .header(http::header::HOST, "127.0.0.1:9")
                    .header(http::header::AUTHORIZATION, header)
                    .body(axum::body::Body::empty())
                    .unwrap()
            })
            .collect()
    };
    let pass = |nonces: Nonces| {
        let mut app = router(server, nonces, origin);
        let requests = made();
        let start = Instant::now();
        for request in requests {
            let answer = std::pin::pin!(tower::Service::call(&mut app, request))
                .poll(&mut std::task::Context::from_waker(std::task::Waker::noop()));
            assert!(
                matches!(answer, std::task::Poll::Ready(Ok(ref r)) if r.status() == 200),
                "the in-process request was not answered 200 at once"
            );
        }
        #[allow(clippy::cast_precision_loss)] // far below 2^52
        let requests = REQUESTS as f64;
        start.elapsed().as_secs_f64() * 1e6 / requests
    };
    let mut over: Vec<f64> = (0..7)
        .map(|_| pass(Nonces::Memory) - pass(Nonces::None))
        .collect();
    over.sort_by(f64::total_cmp);
    over[over.len() / 2]
}

/// The memory store, whose answer a request awaits from a task on the server's runtime, as
/// it awaits a Redis store's from the task that talks to Redis: the request's task is woken
/// from another task and polled again, with no I/O. Against the memory store, what waiting
/// for a store costs a request, the store's own work aside.
struct Relayed {
    store: MemoryNonceStore,
    relay: mpsc::UnboundedSender<oneshot::Sender<()>>,
}

impl Relayed {
    fn new(server: &Handle) -> Relayed {
        let (relay, mut asked) = mpsc::unbounded_channel::<oneshot::Sender<()>>();
        server.spawn(async move {
            while let Some(answer) = asked.recv().await {
                let _ = answer.send(());
            }
        });
        Relayed {
            store: MemoryNonceStore::new(),
            relay,
        }
    }
}

impl NonceStore for Relayed {
    fn insert(
        &self,
        nonce: &NonceKey<'_>,
        now: Timestamp,
        expires_at: Timestamp,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        let recorded = self.store.insert(nonce, now, expires_at);
        let (answer, answered) = oneshot::channel();
        let sent = self.relay.send(answer).is_ok();
        async move {
            let recorded = recorded.await;
            if sent && answered.await.is_ok() {
                recorded
            } else {
                Err(StoreError::new("the relay task stopped"))
            }
        }
    }
}

/// One answer: when it came (since the start), its status, how long it took.
#[derive(Clone, Copy)]
struct Answer {
    at: Duration,
    status: u16,
    latency: Duration,
}

/// Sends signed GETs to every origin at once, from `connections` tasks, for `seconds`.
/// Returns, per request, the answers of each origin.
async fn load(origins: &[String], connections: usize, seconds: u64) -> Vec<Vec<Answer>> {
    let client = client(connections);
    load_for(&client, origins, connections, Duration::from_secs(seconds)).await
}

/// A client keeping up to `connections` connections to each origin.
fn client(connections: usize) -> reqwest::Client {
    reqwest::Client::builder()
        .pool_max_idle_per_host(connections)
        .build()
        .unwrap()
}

/// [`load`] with `client`, for `duration`.
async fn load_for(
    client: &reqwest::Client,
    origins: &[String],
    connections: usize,
    duration: Duration,
) -> Vec<Vec<Answer>> {
    let signer = Signer::new(Consumer::new(CK, CS)).with_token(Token::new(TK, TS));
    let start = Instant::now();
    let deadline = start + duration;
    let results = Arc::new(Mutex::new(Vec::new()));
    let tasks: Vec<_> = (0..connections)
        .map(|_| {
            let (client, signer, results) = (client.clone(), signer.clone(), Arc::clone(&results));
            let origins = origins.to_vec();
            tokio::spawn(async move {
                let mut mine = Vec::new();
                while Instant::now() < deadline {
                    // Signed for the first origin; the others get the same header (the
                    // two-instance scenario's servers share one public origin's requests).
                    let url = format!("{}/photos?size=original", origins[0]);
                    let request = Request::new("GET", &url).unwrap();
                    let header = signer.sign_now(&request).unwrap().authorization();
                    let sent = Instant::now();
                    let answers = send_to_all(&client, &origins, &header).await;
                    mine.push(
                        answers
                            .into_iter()
                            .map(|status| Answer {
                                at: sent.duration_since(start),
                                status,
                                latency: sent.elapsed(),
                            })
                            .collect::<Vec<_>>(),
                    );
                }
                results.lock().unwrap().extend(mine);
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    let mut all = results.lock().unwrap();
    std::mem::take(&mut *all)
}

/// The status of the same signed request sent to each origin at once (0 for a transport
/// error).
async fn send_to_all(client: &reqwest::Client, origins: &[String], header: &str) -> Vec<u16> {
    let send = |origin: &String| {
        client
            .get(format!("{origin}/photos?size=original"))
            .header("authorization", header)
            .send()
    };
    match origins {
        [one] => vec![send(one).await.map_or(0, |r| r.status().as_u16())],
        [a, b] => {
            let (x, y) = tokio::join!(send(a), send(b));
            vec![
                x.map_or(0, |r| r.status().as_u16()),
                y.map_or(0, |r| r.status().as_u16()),
            ]
        }
        _ => unreachable!("one or two origins"),
    }
}

/// Prints the scenario's line, the CPU the server (and Redis) spent per request with the
/// share of the plain server's rate a server with the CPU to itself would serve at, and the
/// scenario's seconds; returns the answers of the first origin.
fn report(
    name: &str,
    requests: &[Vec<Answer>],
    seconds: u64,
    cpu: &Cpu,
    plain: &mut Option<f64>,
) -> Vec<Answer> {
    let first: Vec<Answer> = requests.iter().map(|r| r[0]).collect();
    let mut latencies: Vec<Duration> = first.iter().map(|a| a.latency).collect();
    latencies.sort_unstable();
    let quantile = |permille: usize| {
        latencies
            .get(latencies.len() * permille / 1000)
            .copied()
            .unwrap_or_default()
    };
    let rate = first.len() / usize::try_from(seconds).unwrap_or(1).max(1);
    println!(
        "{name:<14} {rate:>9} req/s   p50 {:>7.2} ms   p99 {:>7.2} ms",
        quantile(500).as_secs_f64() * 1e3,
        quantile(990).as_secs_f64() * 1e3,
    );
    let (server, redis) = cpu.per_request(requests.len());
    let share = match plain {
        None => {
            *plain = Some(server);
            String::new()
        }
        Some(floor) => format!(
            ", served alone at {:.0}% of plain's rate",
            100.0 * *floor / server
        ),
    };
    let redis = redis.map_or(String::new(), |r| format!("   redis-server {r:.1} µs/req"));
    println!("    server CPU {server:.1} µs/req{share}{redis}");
    let last = usize::try_from(seconds).unwrap_or(usize::MAX);
    let mut per_second = vec![[0usize; 3]; last.saturating_add(1)];
    for answer in &first {
        let second = usize::try_from(answer.at.as_secs()).unwrap_or(last);
        let slot = &mut per_second[second.min(last)];
        match answer.status {
            200 => slot[0] += 1,
            503 => slot[1] += 1,
            _ => slot[2] += 1,
        }
    }
    for (second, [accepted, unavailable, other]) in per_second.iter().enumerate() {
        if accepted + unavailable + other > 0 {
            println!(
                "    second {second:>2}: accepted {accepted:>7}   503 {unavailable:>6}   other {other:>6}"
            );
        }
    }
    first
}

/// How long each server is loaded in a round of [`rounds`].
const ROUND_SLICE: Duration = Duration::from_secs(1);

/// Plain, memory, relayed (the memory store answering through another task) and Redis
/// servers (`origins`, in that order), served side by side and loaded in turn, a second each,
/// round after round, the order rotating: each round's rates and server CPU per request are
/// taken against plain's in the same round, which saw the same machine. On a shared machine
/// whose speed drifts from one second to the next, figures measured seconds apart (the
/// scenarios above) compare badly. Prints the median share of plain's rate over the rounds,
/// with the lowest and the highest, and the median of each round's server CPU per request over
/// plain's (the layer's cost on the server), with `redis-server`'s CPU per request beside
/// Redis's, and the memory server's work measured [`in_process`] beside its CPU over plain's.
/// The relayed server's CPU over memory's is what waiting for a store costs a request;
/// Redis's over the relayed one's, what talking to Redis costs beyond the wait.
async fn rounds(
    server: &Handle,
    origins: &[String; 4],
    connections: usize,
    seconds: u64,
    redis: &Redis,
    failures: &mut Vec<String>,
) {
    let in_process = in_process(server);
    let client = client(connections);
    // Connections opened and warm before anything is counted.
    for origin in origins {
        load_for(
            &client,
            std::slice::from_ref(origin),
            connections,
            ROUND_SLICE,
        )
        .await;
    }
    let count = usize::try_from(seconds.max(3)).unwrap_or(usize::MAX);
    let mut rates = vec![[0f64; 4]; count];
    // Server CPU per request, and redis-server's in the Redis slice.
    let mut cpu = vec![[0f64; 4]; count];
    let mut redis_cpu = vec![0f64; count];
    for round in 0..count {
        for k in 0..4 {
            let i = (k + round) % 4;
            let start = Cpu::start(Some(redis));
            let answers = load_for(
                &client,
                std::slice::from_ref(&origins[i]),
                connections,
                ROUND_SLICE,
            )
            .await;
            let (server, in_redis) = start.per_request(answers.len());
            if answers.iter().any(|a| a[0].status != 200) {
                failures.push(format!("rounds: a fresh request was refused by server {i}"));
            }
            let answered = u32::try_from(answers.len()).map_or(f64::MAX, f64::from);
            rates[round][i] = answered / ROUND_SLICE.as_secs_f64();
            cpu[round][i] = server;
            if i == 3 {
                redis_cpu[round] = in_redis.unwrap_or(0.0);
            }
        }
    }
    let spread = |mut values: Vec<f64>| {
        values.sort_by(f64::total_cmp);
        (
            values[values.len() / 2],
            values[0],
            values[values.len() - 1],
        )
    };
    let share = |i: usize| {
        let (median, lowest, highest) = spread(rates.iter().map(|r| 100.0 * r[i] / r[0]).collect());
        format!("{median:.0}% of plain (lowest {lowest:.0}%, highest {highest:.0}%)")
    };
    let over = |i: usize, base: usize, name: &str| {
        let (median, lowest, highest) = spread(cpu.iter().map(|c| c[i] - c[base]).collect());
        format!("server CPU {median:+.1} µs/req over {name} (lowest {lowest:+.1}, highest {highest:+.1})")
    };
    let (plain_rate, _, _) = spread(rates.iter().map(|r| r[0]).collect());
    let (plain_cpu, _, _) = spread(cpu.iter().map(|c| c[0]).collect());
    let (in_redis, _, _) = spread(redis_cpu);
    println!(
        "rounds         {count} rounds of {} ms a server; plain's median {plain_rate:.0} req/s, server CPU {plain_cpu:.1} µs/req",
        ROUND_SLICE.as_millis(),
    );
    println!("    memory  {}; {}", share(1), over(1, 0, "plain"));
    println!(
        "            in this process, without HTTP or load: {in_process:+.1} µs/req over plain"
    );
    println!(
        "    relayed {}; {}; {}",
        share(2),
        over(2, 0, "plain"),
        over(2, 1, "memory")
    );
    println!(
        "    redis   {}; {}; {}; redis-server {in_redis:.1} µs/req",
        share(3),
        over(3, 0, "plain"),
        over(3, 2, "relayed")
    );
}

async fn two_instances(
    origins: &[String],
    connections: usize,
    seconds: u64,
    redis: &Redis,
    failures: &mut Vec<String>,
) {
    let cpu = Cpu::start(Some(redis));
    let answers = load(origins, connections, seconds).await;
    report("two-instances", &answers, seconds, &cpu, &mut None);
    let accepted = |pair: &Vec<Answer>| pair.iter().filter(|a| a.status == 200).count();
    let twice = answers.iter().filter(|pair| accepted(pair) == 2).count();
    let once = answers.iter().filter(|pair| accepted(pair) == 1).count();
    println!(
        "    pairs: {} sent to both, accepted once {once}, accepted twice {twice}",
        answers.len()
    );
    if twice > 0 {
        failures.push(format!("two-instances: {twice} requests accepted twice"));
    }
}

/// Redis goes away for 2 seconds in the middle of a run of at least 6: nothing may be
/// accepted meanwhile, and acceptance must resume within 1 second of its return.
async fn outage(
    redis: &mut Redis,
    origin: String,
    connections: usize,
    seconds: u64,
    failures: &mut Vec<String>,
) {
    let seconds = seconds.max(6);
    let stop_at = Duration::from_secs(seconds / 2 - 1);
    let run_start = Instant::now();
    let control = async {
        tokio::time::sleep(stop_at).await;
        let stopped = Instant::now();
        redis.stop();
        tokio::time::sleep(Duration::from_secs(2)).await;
        let restarting = Instant::now();
        redis.restart();
        (stopped - run_start, restarting - run_start)
    };
    let origins = [origin];
    let cpu = Cpu::start(None);
    let (answers, (stopped, restarting)) =
        tokio::join!(load(&origins, connections, seconds), control);
    let first = report("redis-outage", &answers, seconds, &cpu, &mut None);
    let accepted_while_down = first
        .iter()
        .filter(|a| a.status == 200 && a.at > stopped && a.at + a.latency < restarting)
        .count();
    let back = first
        .iter()
        .filter(|a| a.status == 200 && a.at > restarting)
        .map(|a| (a.at + a.latency).saturating_sub(restarting))
        .min();
    println!(
        "    Redis down from {:.2} s to {:.2} s: accepted meanwhile {accepted_while_down}; first accepted {} after it was back",
        stopped.as_secs_f64(),
        restarting.as_secs_f64(),
        back.map_or("never".to_owned(), |d| format!("{:.0} ms", d.as_secs_f64() * 1e3)),
    );
    if accepted_while_down > 0 {
        failures.push(format!(
            "redis-outage: {accepted_while_down} requests accepted while Redis was down"
        ));
    }
    if back.is_none_or(|d| d > Duration::from_secs(1)) {
        failures.push("redis-outage: not accepting within 1 s of Redis's return".to_owned());
    }
}

/// A primary of a Redis Cluster killed 3 seconds into a run of at least 12, two instances
/// verifying every request: each request accepted at most once (a 200 only for a nonce
/// recorded), none refused by both instances with 401 (a store that cannot record answers
/// 503); and how long until every request is accepted again.
async fn failover(
    cluster: &mut Cluster,
    origins: &[String],
    connections: usize,
    seconds: u64,
    failures: &mut Vec<String>,
) {
    let seconds = seconds.max(12);
    let kill_at = Duration::from_secs(3);
    let run_start = Instant::now();
    let control = async {
        tokio::time::sleep(kill_at).await;
        let killed = Instant::now();
        cluster.a_primary().stop();
        killed - run_start
    };
    let cpu = Cpu::start(None);
    let (answers, killed) = tokio::join!(load(origins, connections, seconds), control);
    report("cluster-failover", &answers, seconds, &cpu, &mut None);
    let accepted = |pair: &Vec<Answer>| pair.iter().filter(|a| a.status == 200).count();
    let twice = answers.iter().filter(|pair| accepted(pair) == 2).count();
    // Refused by both, with 401: one instance's 401 beside the other's 200 is the replay it
    // must refuse, beside a 503 it may be a nonce recorded by a write whose answer timed out.
    let refused = answers
        .iter()
        .filter(|pair| pair.iter().all(|a| a.status == 401))
        .count();
    let unavailable = answers
        .iter()
        .flatten()
        .filter(|a| a.status == 503 && a.at + a.latency > killed)
        .count();
    // Accepted again: the first second after the kill in which every pair was accepted once.
    let back = (1..=seconds * 10)
        .map(|tenth| Duration::from_millis(100 * tenth))
        .find(|after| {
            let from = killed + *after;
            let window: Vec<&Vec<Answer>> = answers
                .iter()
                .filter(|pair| pair[0].at >= from && pair[0].at < from + Duration::from_secs(1))
                .collect();
            !window.is_empty() && window.iter().all(|pair| accepted(pair) == 1)
        });
    println!(
        "    a primary killed at {:.2} s: pairs accepted twice {twice}, refused by both with 401 {refused}, 503 after the kill {unavailable}; every request accepted again {} after the kill",
        killed.as_secs_f64(),
        back.map_or("never".to_owned(), |d| format!("{:.1} s", d.as_secs_f64())),
    );
    if twice > 0 {
        failures.push(format!("cluster-failover: {twice} requests accepted twice"));
    }
    if refused > 0 {
        failures.push(format!(
            "cluster-failover: {refused} good requests refused with 401 by both instances"
        ));
    }
    if back.is_none() {
        failures
            .push("cluster-failover: requests never accepted again after the failover".to_owned());
    }
}

/// A runtime of two worker threads named `name`.
fn runtime(name: &str) -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name(name)
        .enable_all()
        .build()
        .unwrap()
}

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let seconds: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let connections: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(32);
    // Only the scenarios whose name contains this, if given.
    let only = args.next().unwrap_or_default();
    let run = |name: &str| name.contains(only.as_str());
    // The server and the clients run on runtimes of their own, so that the server's CPU time
    // can be told apart; both share the machine's cores.
    let server_runtime = runtime(SERVER_THREADS);
    let server = server_runtime.handle().clone();
    let clients = runtime("load-client");
    let mut failures = Vec::new();
    println!("{connections} connections, {seconds} s a scenario, every request signed fresh");

    clients.block_on(async {
        let mut plain = None;
        if run("plain") {
            let origin = serve(&server, Nonces::None);
            let cpu = Cpu::start(None);
            let answers = load(&[origin], connections, seconds).await;
            report("plain", &answers, seconds, &cpu, &mut plain);
        }

        if run("memory") {
            let origin = serve(&server, Nonces::Memory);
            let cpu = Cpu::start(None);
            let answers = load(&[origin], connections, seconds).await;
            let first = report("memory", &answers, seconds, &cpu, &mut plain);
            if first.iter().any(|a| a.status != 200) {
                failures.push("memory: a fresh request was refused".to_owned());
            }
        }

        if run("cluster-failover") {
            let mut cluster = Cluster::start();
            let first = serve(&server, Nonces::Cluster(cluster.urls()));
            let second = serve_as(&server, Nonces::Cluster(cluster.urls()), Some(&first));
            failover(
                &mut cluster,
                &[first, second],
                connections,
                seconds,
                &mut failures,
            )
            .await;
        }
        if !["redis", "rounds", "two-instances", "redis-outage"]
            .into_iter()
            .any(run)
        {
            return;
        }
        let mut redis = Redis::start();
        let origin = serve(&server, Nonces::Redis(redis.url()));
        if run("redis") {
            let cpu = Cpu::start(Some(&redis));
            let answers = load(std::slice::from_ref(&origin), connections, seconds).await;
            let first = report("redis", &answers, seconds, &cpu, &mut plain);
            if first.iter().any(|a| a.status != 200) {
                failures.push("redis: a fresh request was refused".to_owned());
            }
        }

        if run("rounds") {
            let origins = [
                serve(&server, Nonces::None),
                serve(&server, Nonces::Memory),
                serve(&server, Nonces::Relayed),
                serve(&server, Nonces::Redis(redis.url())),
            ];
            rounds(
                &server,
                &origins,
                connections,
                seconds,
                &redis,
                &mut failures,
            )
            .await;
        }

        if run("two-instances") {
            // Signed for the first instance's origin, which both serve.
            let other = serve_as(&server, Nonces::Redis(redis.url()), Some(&origin));
            two_instances(
                &[origin.clone(), other],
                connections,
                seconds,
                &redis,
                &mut failures,
            )
            .await;
        }
        if run("redis-outage") {
            outage(&mut redis, origin, connections, seconds, &mut failures).await;
        }
    });
    if !failures.is_empty() {
        for failure in &failures {
            eprintln!("FAILED: {failure}");
        }
        std::process::exit(1);
    }
}
