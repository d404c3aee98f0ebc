//! Temporary credentials in Redis, shared by every provider instance that uses the same Redis
//! (or Redis Cluster): issued by one instance, approved on another, exchanged on a third.

use std::time::Duration;

use redis::aio::{ConnectionLike, ConnectionManager};
use redis::cluster_async::ClusterConnection;

use super::redis_store::{connection_manager, Commands};
use crate::error::StoreError;
use crate::provider::{Approval, TemporaryRecord, TemporaryStore};
use oauth1_signer::{encode, Secret, Timestamp};

/// Records the approval unless there is one: the whole record is one string, so the check and
/// the write are one script, atomic on the Redis that holds the key.
const APPROVE: &str = "local held = redis.call('GET', KEYS[1]) \
     if not held or string.find(held, '&verifier=', 1, true) then return 0 end \
     redis.call('SET', KEYS[1], held .. ARGV[1], 'KEEPTTL') return 1";

/// A [`TemporaryStore`] in Redis or Redis Cluster: one key per temporary token, written with
/// `SET … NX EXAT` to expire with the credentials, approved by one script that writes only if
/// no approval is there, and taken with `GETDEL`, so that of two exchanges on two instances
/// one gets them. Each record is one string (form-encoded fields), which holds the secret and
/// the verifier: the Redis must be as private as the application's database.
///
/// Errors and timeouts are [`StoreError`]s (a `503`), never a verdict. Needs Redis 6.2 or
/// later (`EXAT`, `GETDEL`, `KEEPTTL`).
///
/// ```no_run
/// use oauth1_server::{MemoryCredentials, RedisTemporaryStore, WithTemporary};
///
/// # async fn run() -> Result<(), oauth1_server::StoreError> {
/// let temporary = RedisTemporaryStore::open("redis://127.0.0.1:6379/")?;
/// let store = WithTemporary::new(MemoryCredentials::new(), temporary);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct RedisTemporaryStore<C = ConnectionManager> {
    redis: Commands<C>,
}

impl<C> std::fmt::Debug for RedisTemporaryStore<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.redis.debug("RedisTemporaryStore", f)
    }
}

impl RedisTemporaryStore<ConnectionManager> {
    /// A store for the Redis at `url`, through a [`ConnectionManager`] like
    /// [`RedisNonceStore::open`](super::RedisNonceStore::open). Call it inside a Tokio runtime.
    ///
    /// # Errors
    ///
    /// A [`StoreError`] for a URL Redis cannot use, or outside a Tokio runtime.
    pub fn open(url: &str) -> Result<Self, StoreError> {
        let client = redis::Client::open(url).map_err(StoreError::new)?;
        Ok(RedisTemporaryStore::new(connection_manager(
            client,
            "RedisTemporaryStore::open",
        )?))
    }
}

impl RedisTemporaryStore<ClusterConnection> {
    /// A store for the Redis Cluster reachable at any of `nodes`, like
    /// [`RedisNonceStore::open_cluster`](super::RedisNonceStore::open_cluster).
    ///
    /// # Errors
    ///
    /// A [`StoreError`] for a node URL Redis cannot use, or outside a Tokio runtime.
    pub fn open_cluster<'a>(nodes: impl IntoIterator<Item = &'a str>) -> Result<Self, StoreError> {
        Ok(RedisTemporaryStore::new(super::redis_store::cluster(
            nodes,
            "RedisTemporaryStore::open_cluster",
        )?))
    }
}

impl<C> RedisTemporaryStore<C> {
    /// A store over `connection`, any of the `redis` crate's async connections: keys prefixed
    /// `oauth1:temporary:`, a 2-second timeout per command.
    pub fn new(connection: C) -> Self {
        RedisTemporaryStore {
            redis: Commands::new(connection, "oauth1:temporary:"),
        }
    }

    /// The prefix of every key.
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

    fn key(&self, token: &str) -> String {
        let mut key = self.redis.prefix.clone();
        encode::encode(token.as_bytes()).append_to(&mut key);
        key
    }
}

/// `name=value` with the value percent-encoded, after `&` unless it is the first field.
fn field(out: &mut String, name: &str, value: &[u8]) {
    if !out.is_empty() {
        out.push('&');
    }
    out.push_str(name);
    out.push('=');
    encode::encode(value).append_to(out);
}

/// `&verifier=…&owner=…`: what an approval appends to a record.
fn approval_fields(approval: &Approval) -> zeroize::Zeroizing<String> {
    let mut out = zeroize::Zeroizing::new(String::new());
    for (name, value) in [
        ("verifier", approval.verifier.expose()),
        ("owner", approval.owner.as_bytes()),
    ] {
        out.push('&');
        out.push_str(name);
        out.push('=');
        encode::encode(value).append_to(&mut out);
    }
    out
}

fn to_text(record: &TemporaryRecord) -> zeroize::Zeroizing<String> {
    let mut out = zeroize::Zeroizing::new(String::new());
    field(&mut out, "consumer_key", record.consumer_key.as_bytes());
    field(&mut out, "secret", record.secret.expose());
    field(&mut out, "callback", record.callback.as_bytes());
    field(
        &mut out,
        "expires_at",
        record.expires_at.as_secs().to_string().as_bytes(),
    );
    if let Some(approval) = &record.approval {
        out.push_str(&approval_fields(approval));
    }
    out
}

fn from_text(text: &[u8]) -> Result<TemporaryRecord, StoreError> {
    let bad = || StoreError::new("a temporary credential record in Redis cannot be read");
    let mut fields: [Option<Vec<u8>>; 6] = Default::default();
    for pair in text.split(|&b| b == b'&') {
        let (name, value) = match pair.iter().position(|&b| b == b'=') {
            Some(at) => (&pair[..at], &pair[at + 1..]),
            None => return Err(bad()),
        };
        let slot = match name {
            b"consumer_key" => 0,
            b"secret" => 1,
            b"callback" => 2,
            b"expires_at" => 3,
            b"verifier" => 4,
            b"owner" => 5,
            _ => return Err(bad()),
        };
        fields[slot] = Some(encode::decode(value).map_err(|_| bad())?.into_owned());
    }
    let [consumer_key, secret, callback, expires_at, verifier, owner] = fields;
    let text = |v: Option<Vec<u8>>| v.and_then(|v| String::from_utf8(v).ok()).ok_or_else(bad);
    let expires_at = text(expires_at)?.parse::<u64>().map_err(|_| bad())?;
    let approval = match (verifier, owner) {
        (Some(verifier), owner) => Some(Approval {
            verifier: Secret::from(verifier),
            owner: text(owner)?,
        }),
        (None, _) => None,
    };
    Ok(TemporaryRecord {
        consumer_key: text(consumer_key)?,
        secret: Secret::from(secret.ok_or_else(bad)?),
        callback: text(callback)?,
        expires_at: Timestamp::new(expires_at),
        approval,
    })
}

impl<C: ConnectionLike + Clone + Send + Sync> TemporaryStore for RedisTemporaryStore<C> {
    async fn insert(&self, token: &str, record: TemporaryRecord) -> Result<(), StoreError> {
        let mut command = redis::cmd("SET");
        command
            .arg(self.key(token))
            .arg(to_text(&record).as_str())
            .arg("NX")
            .arg("EXAT")
            .arg(record.expires_at.as_secs().max(1));
        let reply: Option<String> = self.redis.run(&command).await?;
        match reply.as_deref() {
            Some("OK") => Ok(()),
            _ => Err(StoreError::new(
                "Redis already holds temporary credentials under this token",
            )),
        }
    }

    async fn get(&self, token: &str) -> Result<Option<TemporaryRecord>, StoreError> {
        let mut command = redis::cmd("GET");
        command.arg(self.key(token));
        let reply: Option<Vec<u8>> = self.redis.run(&command).await?;
        reply
            .map(|text| from_text(&zeroize::Zeroizing::new(text)))
            .transpose()
    }

    async fn approve(&self, token: &str, approval: Approval) -> Result<bool, StoreError> {
        let mut command = redis::cmd("EVAL");
        command
            .arg(APPROVE)
            .arg(1)
            .arg(self.key(token))
            .arg(approval_fields(&approval).as_str());
        let written: i64 = self.redis.run(&command).await?;
        Ok(written == 1)
    }

    async fn take(&self, token: &str) -> Result<Option<TemporaryRecord>, StoreError> {
        let mut command = redis::cmd("GETDEL");
        command.arg(self.key(token));
        let reply: Option<Vec<u8>> = self.redis.run(&command).await?;
        reply
            .map(|text| from_text(&zeroize::Zeroizing::new(text)))
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_read_back_as_written() {
        let mut record = TemporaryRecord {
            consumer_key: "ck &=%".to_owned(),
            secret: Secret::from("s&=é"),
            callback: "https://client.example/cb?a=1&b=%20".to_owned(),
            expires_at: Timestamp::new(1_700_000_600),
            approval: None,
        };
        let back = from_text(to_text(&record).as_bytes()).unwrap();
        assert_eq!(format!("{back:?}"), format!("{record:?}"));
        assert_eq!(back.secret.expose(), record.secret.expose());
        assert!(back.approval.is_none());
        let approval = Approval {
            verifier: Secret::from("v123"),
            owner: "alice & bob".to_owned(),
        };
        // Approved: the record's text with the approval's appended, as the script does.
        let text = format!(
            "{}{}",
            to_text(&record).as_str(),
            approval_fields(&approval).as_str()
        );
        let back = from_text(text.as_bytes()).unwrap();
        let held = back.approval.unwrap();
        assert_eq!(
            (held.verifier.expose(), held.owner.as_str()),
            (&b"v123"[..], "alice & bob")
        );
        record.approval = Some(approval);
        assert_eq!(to_text(&record).as_str(), text);
        for bad in [
            &b"consumer_key=a"[..],
            b"x=1",
            b"consumer_key",
            b"expires_at=soon",
        ] {
            assert!(from_text(bad).is_err());
        }
    }
}
