//! Nonce stores in Redis, shared by every server instance that uses the same Redis (or Redis
//! Cluster): [`RedisNonceStore`] for async servers, [`BlockingRedisNonceStore`] for servers
//! without a runtime.

use std::sync::{Arc, Mutex};
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

/// The same store as [`RedisNonceStore`] (the same keys, one `SET key 1 NX EX seconds` per
/// nonce, the same expiry) over one blocking connection, for a server without an async
/// runtime that calls [`Verifier::blocking`](crate::Verifier::blocking) on
/// threads of its own. Its `insert` blocks the calling thread until Redis answers (or the
/// timeout passes), so it must not be used on an async runtime's worker threads: use
/// [`RedisNonceStore`] there. Requests queue on its one connection; a broken connection is
/// dropped and a new one opened on the next request.
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
    connection: Mutex<Option<redis::Connection>>,
    prefix: String,
    timeout: Duration,
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
            connection: Mutex::new(None),
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

    /// How long connecting, reading and writing may take before it is an error.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    fn connect(&self) -> Result<redis::Connection, StoreError> {
        let connection = self
            .client
            .get_connection_with_timeout(self.timeout)
            .map_err(StoreError::new)?;
        connection
            .set_read_timeout(Some(self.timeout))
            .map_err(StoreError::new)?;
        connection
            .set_write_timeout(Some(self.timeout))
            .map_err(StoreError::new)?;
        Ok(connection)
    }
}

impl NonceStore for BlockingRedisNonceStore {
    async fn insert(
        &self,
        nonce: &NonceKey<'_>,
        now: Timestamp,
        expires_at: Timestamp,
    ) -> Result<bool, StoreError> {
        let mut slot = self
            .connection
            .lock()
            .map_err(|_| StoreError::new("the Redis connection's lock is poisoned"))?;
        let mut connection = match slot.take() {
            Some(connection) => connection,
            None => self.connect()?,
        };
        let reply: Option<String> = set_nx(&self.prefix, nonce, now, expires_at)
            .query(&mut connection)
            .map_err(StoreError::new)?;
        // Only a connection that answered is kept.
        *slot = Some(connection);
        recorded(reply.as_deref())
    }
}
