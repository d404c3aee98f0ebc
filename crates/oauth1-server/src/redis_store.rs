//! Nonce stores in Redis, shared by every server instance that uses the same Redis (or Redis
//! Cluster): [`RedisNonceStore`] for async servers, [`BlockingRedisNonceStore`] for servers
//! without a runtime.

use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, oneshot};

use redis::aio::{ConnectionLike, ConnectionManager, ConnectionManagerConfig};
use redis::cluster_async::ClusterConnection;

use crate::error::StoreError;
use crate::store::{NonceKey, NonceStore};
use oauth1_signer::Timestamp;

/// The key prefix unless `with_prefix` sets another.
const DEFAULT_PREFIX: &str = "oauth1:nonce:";
/// The timeout of a command unless `with_timeout` sets another.
pub(super) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(2);

/// A [`NonceStore`] in Redis or Redis Cluster, for async servers: one atomic
/// `SET key 1 NX EX seconds` per nonce, so that two server instances sharing the Redis cannot
/// both accept the same nonce. Entries expire by themselves at the [`NonceStore`]'s
/// `expires_at`, counted in whole seconds from the write: a window after the last second any
/// instance whose clock is off by up to the window still accepts the timestamp.
///
/// The connection is the `redis` crate's multiplexed one, awaited, never holding a thread:
/// every request of every task shares it without a lock, its commands pipelined.
/// [`open`](Self::open) makes a [`ConnectionManager`], which reconnects by itself after Redis
/// goes away (retrying at most every half second); the nonces of concurrent requests then go
/// to Redis together, one pipeline of `SET`s while the one before it is answered (a task on
/// the runtime sends them), which saves Redis a read and a write per request.
/// [`open_cluster`](Self::open_cluster) makes a [`ClusterConnection`], which follows the
/// cluster's slots (every nonce is one key, so one node answers it), one command per nonce.
/// Any other async connection of the crate fits [`new`](Self::new), one command per nonce.
///
/// Each command has a timeout (2 seconds unless [`with_timeout`](Self::with_timeout) says
/// otherwise). A connection error or a timeout is a [`StoreError`] (a `503` from the tower
/// layer), never "new nonce": a `SET` whose answer is lost may have been written, and the
/// request it was for is refused either way.
///
/// ```no_run
/// use oauth1_server::{MemoryCredentials, RedisNonceStore, Verifier};
///
/// # async fn run() -> Result<(), oauth1_server::StoreError> {
/// // Inside the server's Tokio runtime: nothing is connected until the first nonce.
/// let nonces = RedisNonceStore::open("redis://127.0.0.1:6379/")?;
/// let verifier = Verifier::new(MemoryCredentials::new(), nonces);
///
/// // Or a Redis Cluster, from any of its nodes.
/// let nonces = RedisNonceStore::open_cluster(["redis://10.0.0.1:7000/", "redis://10.0.0.2:7000/"])?;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct RedisNonceStore<C = ConnectionManager> {
    redis: Commands<C>,
    /// Where the nonces of concurrent requests are gathered into one pipeline, for the
    /// connections that take pipelines of any keys (not a cluster's).
    batch: Option<Arc<Batch>>,
}

impl<C> std::fmt::Debug for RedisNonceStore<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.redis.debug("RedisNonceStore", f)
    }
}

/// An async connection with the settings of a store: the prefix of its keys and the timeout
/// of its commands.
#[derive(Clone)]
pub(super) struct Commands<C> {
    connection: C,
    pub(super) prefix: String,
    pub(super) timeout: Duration,
}

impl<C> Commands<C> {
    pub(super) fn new(connection: C, prefix: &str) -> Self {
        Commands {
            connection,
            prefix: prefix.to_owned(),
            timeout: DEFAULT_TIMEOUT,
        }
    }

    /// The settings, never the connection, which holds its address and maybe a password.
    pub(super) fn debug(&self, name: &str, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct(name)
            .field("prefix", &self.prefix)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl<C: ConnectionLike + Clone + Send + Sync> Commands<C> {
    /// Runs `command` on a handle of the shared connection (commands of other requests go on
    /// beside it), within the timeout.
    pub(super) async fn run<T: redis::FromRedisValue>(
        &self,
        command: &redis::Cmd,
    ) -> Result<T, StoreError> {
        let mut connection = self.connection.clone();
        tokio::time::timeout(self.timeout, command.query_async(&mut connection))
            .await
            .map_err(|_| {
                StoreError::new(format!(
                    "Redis did not answer within {} ms",
                    self.timeout.as_millis()
                ))
            })?
            .map_err(StoreError::new)
    }
}

/// That a Tokio runtime is running here: the `redis` crate's connections spawn their tasks on
/// it.
fn need_runtime(what: &str) -> Result<(), StoreError> {
    tokio::runtime::Handle::try_current().map(drop).map_err(|_| {
        StoreError::new(format!(
            "{what} needs a Tokio runtime: call it from async code running on one (inside #[tokio::main], say)"
        ))
    })
}

impl RedisNonceStore<ConnectionManager> {
    /// A store for the Redis at `url` (`redis://[user:password@]host:port/db`, or `rediss://`
    /// where the `redis` crate has TLS), through a [`ConnectionManager`]. Nothing is connected
    /// until the first nonce. Call it inside a Tokio runtime.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] for a URL Redis cannot use, or when called outside a Tokio runtime.
    pub fn open(url: &str) -> Result<Self, StoreError> {
        RedisNonceStore::with_client(redis::Client::open(url).map_err(StoreError::new)?)
    }

    /// A store for `client`'s Redis, through a [`ConnectionManager`]; see [`open`](Self::open).
    ///
    /// # Errors
    ///
    /// A [`StoreError`] when called outside a Tokio runtime.
    pub fn with_client(client: redis::Client) -> Result<Self, StoreError> {
        let mut store = RedisNonceStore::new(connection_manager(client, "RedisNonceStore::open")?);
        store.batch = Some(Arc::default());
        Ok(store)
    }
}

/// A lazy [`ConnectionManager`] for `client`: nothing is connected until the first command,
/// and after a loss it reconnects soon once Redis is back (tries from 20 ms apart, at most
/// half a second apart). `what` names the caller in the error outside a Tokio runtime.
pub(super) fn connection_manager(
    client: redis::Client,
    what: &str,
) -> Result<ConnectionManager, StoreError> {
    need_runtime(what)?;
    let config = ConnectionManagerConfig::new()
        .set_connection_timeout(Some(DEFAULT_TIMEOUT))
        .set_response_timeout(Some(DEFAULT_TIMEOUT))
        .set_min_delay(Duration::from_millis(20))
        .set_max_delay(Duration::from_millis(500));
    ConnectionManager::new_lazy_with_config(client, config).map_err(StoreError::new)
}

/// A Redis Cluster connection from any of `nodes`, connected on the first command.
pub(super) fn cluster<'a>(
    nodes: impl IntoIterator<Item = &'a str>,
    what: &str,
) -> Result<ClusterConnection, StoreError> {
    need_runtime(what)?;
    let client = redis::cluster::ClusterClientBuilder::new(nodes)
        .connection_timeout(DEFAULT_TIMEOUT)
        .response_timeout(DEFAULT_TIMEOUT)
        .build()
        .map_err(StoreError::new)?;
    Ok(client.get_pending_async_connection_with_config(redis::cluster::ClusterConfig::new()))
}

impl RedisNonceStore<ClusterConnection> {
    /// A store for the Redis Cluster reachable at any of `nodes` (`redis://host:port/`),
    /// through a [`ClusterConnection`] that finds the others. Nothing is connected until the
    /// first nonce. Call it inside a Tokio runtime.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] for a node URL Redis cannot use, or when called outside a Tokio
    /// runtime.
    pub fn open_cluster<'a>(nodes: impl IntoIterator<Item = &'a str>) -> Result<Self, StoreError> {
        Ok(RedisNonceStore::new(cluster(
            nodes,
            "RedisNonceStore::open_cluster",
        )?))
    }
}

impl<C> RedisNonceStore<C> {
    /// A store over `connection`, any of the `redis` crate's async connections: keys prefixed
    /// `oauth1:nonce:`, a 2-second timeout per command.
    pub fn new(connection: C) -> Self {
        RedisNonceStore {
            redis: Commands::new(connection, DEFAULT_PREFIX),
            batch: None,
        }
    }

    /// The prefix of every key (to share a Redis with other applications).
    #[must_use]
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.redis.prefix = prefix.into();
        self
    }

    /// How long a command may take, connecting included, before it is an error.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.redis.timeout = timeout;
        self
    }
}

impl<C: ConnectionLike + Clone + Send + Sync + 'static> NonceStore for RedisNonceStore<C> {
    async fn insert(
        &self,
        nonce: &NonceKey<'_>,
        now: Timestamp,
        expires_at: Timestamp,
    ) -> Result<bool, StoreError> {
        if let Some(batch) = &self.batch {
            let (key, seconds) = set_nx_args(&self.redis.prefix, nonce, now, expires_at);
            return batch.insert(&self.redis, key, seconds).await;
        }
        let command = set_nx(&self.redis.prefix, nonce, now, expires_at);
        let reply: Option<String> = self.redis.run(&command).await?;
        recorded(reply.as_deref())
    }
}

/// The nonces of concurrent requests, gathered and sent to Redis as one pipeline of
/// `SET … NX EX` commands, one after the other: a request waits for the pipeline in flight,
/// if any, then its own goes with every request that came meanwhile (one round trip, one read
/// and one write for Redis, for all of them). Redis runs a pipeline's commands in order, each
/// alone, so each `SET … NX` answers as it would by itself.
///
/// The task that sends them is started on the runtime of the first request, and again on a
/// later request's runtime if that one has stopped.
#[derive(Default)]
struct Batch {
    queue: Mutex<Option<mpsc::UnboundedSender<Pending>>>,
}

/// A nonce waiting for its pipeline, and where its answer goes.
struct Pending {
    key: String,
    seconds: u64,
    /// When the request must have its answer: the store's timeout after it asked.
    deadline: Instant,
    answer: oneshot::Sender<Result<bool, StoreError>>,
}

/// The most commands in one pipeline.
const MOST_IN_PIPELINE: usize = 512;

impl Batch {
    /// Records `key` (`SET key 1 NX EX seconds`) in the next pipeline, within the store's
    /// timeout from now.
    async fn insert<C: ConnectionLike + Clone + Send + Sync + 'static>(
        &self,
        redis: &Commands<C>,
        key: String,
        seconds: u64,
    ) -> Result<bool, StoreError> {
        let (answer, answered) = oneshot::channel();
        self.send(
            redis,
            Pending {
                key,
                seconds,
                deadline: Instant::now() + redis.timeout,
                answer,
            },
        )?;
        // The task answers every request by its deadline (one timer a pipeline, not one a
        // request), or drops its answer when it stops.
        answered.await.unwrap_or_else(|_| {
            Err(StoreError::new(
                "the Redis nonce store's task stopped before it answered",
            ))
        })
    }

    /// Queues `pending` for the task, started first if there is none running.
    fn send<C: ConnectionLike + Clone + Send + Sync + 'static>(
        &self,
        redis: &Commands<C>,
        pending: Pending,
    ) -> Result<(), StoreError> {
        let mut queue = self
            .queue
            .lock()
            .map_err(|_| StoreError::new("the Redis nonce store's queue lock is poisoned"))?;
        let pending = match queue.as_ref() {
            Some(queue) => match queue.send(pending) {
                Ok(()) => return Ok(()),
                // The task's runtime has stopped: a new task takes its place.
                Err(mpsc::error::SendError(pending)) => pending,
            },
            None => pending,
        };
        need_runtime("RedisNonceStore")?;
        let (sender, receiver) = mpsc::unbounded_channel();
        tokio::spawn(run_pipelines(redis.clone(), receiver));
        let sent = sender.send(pending).is_ok();
        *queue = Some(sender);
        if sent {
            Ok(())
        } else {
            Err(StoreError::new(
                "the Redis nonce store's task did not start",
            ))
        }
    }
}

/// The task of a [`Batch`]: takes every nonce queued (up to [`MOST_IN_PIPELINE`]), sends them
/// as one pipeline that must be answered by the earliest of their deadlines, answers each,
/// and again, until every store has gone. A request whose deadline passed while it waited is
/// answered with the timeout's error, unsent.
async fn run_pipelines<C: ConnectionLike + Clone + Send + Sync>(
    redis: Commands<C>,
    mut queue: mpsc::UnboundedReceiver<Pending>,
) {
    let timed_out = || {
        StoreError::new(format!(
            "Redis did not answer within {} ms",
            redis.timeout.as_millis()
        ))
    };
    let mut batch = Vec::with_capacity(MOST_IN_PIPELINE);
    while queue.recv_many(&mut batch, MOST_IN_PIPELINE).await > 0 {
        // The requests ready to run go first and queue their nonces: one pipeline carries
        // theirs too, for one round trip and one write and read of the socket.
        tokio::task::yield_now().await;
        while batch.len() < MOST_IN_PIPELINE {
            match queue.try_recv() {
                Ok(pending) => batch.push(pending),
                Err(_) => break,
            }
        }
        let now = Instant::now();
        for late in batch.extract_if(.., |pending| pending.deadline <= now) {
            let _ = late.answer.send(Err(timed_out()));
        }
        let Some(deadline) = batch.iter().map(|pending| pending.deadline).min() else {
            continue;
        };
        let mut pipeline = redis::pipe();
        for pending in &batch {
            pipeline
                .cmd("SET")
                .arg(&pending.key)
                .arg(1)
                .arg("NX")
                .arg("EX")
                .arg(pending.seconds);
        }
        let mut connection = redis.connection.clone();
        let replies: Result<Vec<redis::Value>, StoreError> =
            match tokio::time::timeout_at(deadline.into(), pipeline.query_async(&mut connection))
                .await
            {
                Ok(Ok(replies)) => Ok(replies),
                Ok(Err(e)) => Err(StoreError::new(e)),
                Err(_) => Err(timed_out()),
            };
        match replies {
            Ok(replies) if replies.len() == batch.len() => {
                for (pending, reply) in batch.drain(..).zip(replies) {
                    let _ = pending.answer.send(recorded_value(&reply));
                }
            }
            Ok(replies) => {
                let error = format!(
                    "Redis answered a pipeline of {} commands with {} replies",
                    batch.len(),
                    replies.len()
                );
                for pending in batch.drain(..) {
                    let _ = pending.answer.send(Err(StoreError::new(error.clone())));
                }
            }
            Err(error) => {
                let error = error.to_string();
                for pending in batch.drain(..) {
                    let _ = pending.answer.send(Err(StoreError::new(error.clone())));
                }
            }
        }
    }
}

/// The key and the seconds of `SET prefix+key 1 NX EX seconds`: at least one second, so that
/// an entry is never written without an expiry.
fn set_nx_args(
    prefix: &str,
    nonce: &NonceKey<'_>,
    now: Timestamp,
    expires_at: Timestamp,
) -> (String, u64) {
    let seconds = expires_at.as_secs().saturating_sub(now.as_secs()).max(1);
    (nonce.prefixed_key(prefix), seconds)
}

/// `SET prefix+key 1 NX EX seconds` ([`set_nx_args`]).
fn set_nx(prefix: &str, nonce: &NonceKey<'_>, now: Timestamp, expires_at: Timestamp) -> redis::Cmd {
    let (key, seconds) = set_nx_args(prefix, nonce, now, expires_at);
    let mut command = redis::cmd("SET");
    command.arg(key).arg(1).arg("NX").arg("EX").arg(seconds);
    command
}

/// What `SET … NX` answered, read without making a string of it: `OK` for a new key, nil for
/// one already there.
fn recorded_value(reply: &redis::Value) -> Result<bool, StoreError> {
    match reply {
        redis::Value::Okay => Ok(true),
        redis::Value::SimpleString(ok) if ok == "OK" => Ok(true),
        redis::Value::Nil => Ok(false),
        other => Err(StoreError::new(format!(
            "Redis answered SET … NX with {other:?}"
        ))),
    }
}

/// What `SET … NX` answered: `OK` for a new key, nil for one already there.
fn recorded(reply: Option<&str>) -> Result<bool, StoreError> {
    match reply {
        Some("OK") => Ok(true),
        None => Ok(false),
        Some(other) => Err(StoreError::new(format!(
            "Redis answered SET … NX with {other:?}"
        ))),
    }
}

/// The instant `timeout` from now; a year from now for a timeout too long to add, and now
/// (no time at all, which fails closed) if even that cannot be added.
fn deadline_after(timeout: Duration) -> Instant {
    const YEAR: Duration = Duration::from_secs(365 * 24 * 60 * 60);
    let now = Instant::now();
    (now.checked_add(timeout))
        .or_else(|| now.checked_add(YEAR))
        .unwrap_or(now)
}

/// The same store as [`RedisNonceStore`] (the same keys, one `SET key 1 NX EX seconds` per
/// nonce, the same expiry) over one blocking connection, for a server without an async
/// runtime that calls [`Verifier::blocking`](crate::Verifier::blocking) on
/// threads of its own. Its `insert` blocks the calling thread until Redis answers (or the
/// timeout passes), so it must not be used on an async runtime's worker threads: use
/// [`RedisNonceStore`] there. Requests queue on its one connection; a broken connection is
/// dropped and a new one opened on the next request.
///
/// The timeout (2 seconds unless [`with_timeout`](Self::with_timeout) says otherwise) is a
/// deadline for the whole `insert`: the wait for the connection behind other requests,
/// connecting, and the command, each of whose reads and writes may wait what is left of it. A
/// request still waiting for the connection at its deadline, or whose answer did not come by
/// then, fails with a [`StoreError`], never "new nonce"; a connection that did not answer is
/// dropped.
///
/// ```no_run
/// use oauth1_server::{BlockingRedisNonceStore, MemoryCredentials, Verifier};
///
/// let nonces = BlockingRedisNonceStore::open("redis://127.0.0.1:6379/")?;
/// let verifier = Verifier::new(MemoryCredentials::new(), nonces);
/// # Ok::<(), oauth1_server::StoreError>(())
/// ```
pub struct BlockingRedisNonceStore {
    client: redis::Client,
    line: Mutex<Line>,
    /// Signalled when a request gives the connection back.
    freed: Condvar,
    prefix: String,
    timeout: Duration,
}

/// The one connection, and whether a request has it. The lock is held only to read and write
/// these two, never across a command, so that a request waiting for its turn can give up at
/// its deadline ([`Condvar::wait_timeout`]); nothing under it can panic, so a poisoned lock
/// still holds a consistent state and is taken as it is.
#[derive(Default)]
struct Line {
    busy: bool,
    connection: Option<redis::Connection>,
}

/// A request's turn on the connection: taken from the [`Line`], given back on drop (with the
/// connection if it answered, without it otherwise), which wakes the next request.
struct Turn<'a> {
    store: &'a BlockingRedisNonceStore,
    connection: Option<redis::Connection>,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let mut line = self.store.lock();
        line.busy = false;
        line.connection = self.connection.take();
        drop(line);
        self.store.freed.notify_one();
    }
}

impl std::fmt::Debug for BlockingRedisNonceStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The connection info may hold a password.
        f.debug_struct("BlockingRedisNonceStore")
            .field("prefix", &self.prefix)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl BlockingRedisNonceStore {
    /// A store using `client`, with keys prefixed `oauth1:nonce:` and a 2-second timeout.
    #[must_use]
    pub fn new(client: redis::Client) -> Self {
        BlockingRedisNonceStore {
            client,
            line: Mutex::default(),
            freed: Condvar::new(),
            prefix: DEFAULT_PREFIX.to_owned(),
            timeout: DEFAULT_TIMEOUT,
        }
    }

    /// A store for the Redis at `url` (`redis://[user:password@]host:port/db`). Nothing is
    /// connected until the first nonce.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] for a URL Redis cannot use.
    pub fn open(url: &str) -> Result<Self, StoreError> {
        Ok(BlockingRedisNonceStore::new(
            redis::Client::open(url).map_err(StoreError::new)?,
        ))
    }

    /// The prefix of every key (to share a Redis with other applications).
    #[must_use]
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// How long an `insert` may take before it is an error: waiting for the connection behind
    /// other requests, connecting, writing the command and reading its answer, all together.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    fn lock(&self) -> MutexGuard<'_, Line> {
        self.line.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The connection's turn, once the requests before have given it back, or the timeout's
    /// error at `deadline`.
    fn turn(&self, deadline: Instant) -> Result<Turn<'_>, StoreError> {
        let mut line = self.lock();
        while line.busy {
            let left = self.left(
                deadline,
                "the store's one connection was busy with other requests all that time (they queue for it: a longer timeout, or fewer threads sharing the store)",
            )?;
            line = (self.freed.wait_timeout(line, left))
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        line.busy = true;
        let connection = line.connection.take();
        Ok(Turn {
            store: self,
            connection,
        })
    }

    /// The time left until `deadline`, or the timeout's error, which says `why` it passed.
    fn left(&self, deadline: Instant, why: &str) -> Result<Duration, StoreError> {
        deadline
            .checked_duration_since(Instant::now())
            .filter(|left| !left.is_zero())
            .ok_or_else(|| self.timed_out(why))
    }

    /// The timeout's error, which says `why` it passed.
    fn timed_out(&self, why: &str) -> StoreError {
        StoreError::new(format!(
            "Redis did not answer within {} ms: {why}",
            self.timeout.as_millis()
        ))
    }

    /// A new connection, connected by `deadline`. The `redis` crate's own timeout does not
    /// bound it: after connecting it sends its setup commands (`CLIENT SETINFO`, and `AUTH`,
    /// `HELLO` or `SELECT` as the URL asks) and waits up to that timeout for each of their
    /// answers in turn, so a Redis (or a proxy) that accepts connections and does not answer
    /// would hold the request several times the timeout. A thread of its own connects
    /// instead, and the request stops waiting for it at `deadline`; a connection made later
    /// is dropped.
    fn connect(&self, deadline: Instant) -> Result<redis::Connection, StoreError> {
        let left = self.left(
            deadline,
            "waiting for the connection left no time to connect",
        )?;
        let client = self.client.clone();
        let (connected, connection) = std::sync::mpsc::sync_channel(1);
        std::thread::Builder::new()
            .name("oauth1-redis-connect".to_owned())
            .spawn(move || {
                // The request may have stopped waiting: the connection then goes with this thread.
                let _ = connected.send(client.get_connection_with_timeout(left));
            })
            .map_err(StoreError::new)?;
        match connection.recv_timeout(left) {
            Ok(connection) => connection.map_err(StoreError::new),
            Err(RecvTimeoutError::Timeout) => Err(self.timed_out("connecting took the rest of it")),
            Err(RecvTimeoutError::Disconnected) => Err(StoreError::new(
                "the thread connecting to Redis stopped before it answered",
            )),
        }
    }
}

impl NonceStore for BlockingRedisNonceStore {
    async fn insert(
        &self,
        nonce: &NonceKey<'_>,
        now: Timestamp,
        expires_at: Timestamp,
    ) -> Result<bool, StoreError> {
        let deadline = deadline_after(self.timeout);
        let mut turn = self.turn(deadline)?;
        let mut connection = match turn.connection.take() {
            Some(connection) => connection,
            None => self.connect(deadline)?,
        };
        // The command may take what is left of the timeout, reading and writing.
        let left = match self.left(
            deadline,
            "waiting for the connection and connecting left no time for the command",
        ) {
            Ok(left) => left,
            Err(e) => {
                turn.connection = Some(connection);
                return Err(e);
            }
        };
        connection
            .set_read_timeout(Some(left))
            .map_err(StoreError::new)?;
        connection
            .set_write_timeout(Some(left))
            .map_err(StoreError::new)?;
        let reply: Option<String> = set_nx(&self.prefix, nonce, now, expires_at)
            .query(&mut connection)
            .map_err(StoreError::new)?;
        // Only a connection that answered is kept: a late answer would be read as the next
        // request's.
        turn.connection = Some(connection);
        recorded(reply.as_deref())
    }
}
