//! The consumers and tokens `oauth1 serve` knows: from its flags and from `--credentials`.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::ServeArgs;
use crate::input::NO_CONSUMER_SECRET;
use crate::terminal::value;

/// A consumer, its secret and the token credentials it holds from the start.
pub(super) struct Consumer {
    pub(super) secret: String,
    /// Token and secret, in the order given.
    pub(super) tokens: Vec<(String, String)>,
}

/// Every consumer known, by key.
pub(super) struct Known {
    pub(super) consumers: BTreeMap<String, Consumer>,
}

/// `--credentials`' file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    consumers: Vec<FileConsumer>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConsumer {
    key: String,
    secret: String,
    #[serde(default)]
    tokens: Vec<FileToken>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileToken {
    token: String,
    secret: String,
}

impl Known {
    /// The consumers of the flags and of `--credentials`; at least one, each key once.
    pub(super) fn gather(args: &ServeArgs) -> Result<Self, String> {
        let mut known = Known {
            consumers: BTreeMap::new(),
        };
        // The file named, when it lists no consumer.
        let mut empty_file = None;
        if let Some(path) = &args.credentials {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("reading --credentials {}: {e}", path.display()))?;
            // A byte order mark, which some editors write at the start of UTF-8, is no JSON.
            let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
            let file: File = serde_json::from_str(text).map_err(|e| {
                format!(
                    "--credentials {}: {e}; expected {{\"consumers\": [{{\"key\": \"…\", \"secret\": \"…\", \"tokens\": [{{\"token\": \"…\", \"secret\": \"…\"}}]}}]}}",
                    path.display()
                )
            })?;
            if file.consumers.is_empty() {
                empty_file = Some(path);
            }
            for consumer in file.consumers {
                let tokens = consumer
                    .tokens
                    .into_iter()
                    .map(|t| (t.token, t.secret))
                    .collect();
                known.add(consumer.key, consumer.secret, tokens, "--credentials")?;
            }
        }
        if let Some(key) = &args.consumer_key {
            let secret = args
                .consumer_secret
                .clone()
                .ok_or_else(|| NO_CONSUMER_SECRET.to_owned())?;
            let tokens = match &args.token {
                Some(token) => {
                    let secret = args.token_secret.clone().ok_or_else(|| {
                        "no token secret for --token: set OAUTH1_TOKEN_SECRET (or pass --token-secret; '' for an empty one)".to_owned()
                    })?;
                    vec![(token.clone(), secret)]
                }
                None => Vec::new(),
            };
            known.add(key.clone(), secret, tokens, "--consumer-key")?;
        }
        if let (Some(path), true) = (empty_file, known.consumers.is_empty()) {
            return Err(format!(
                "--credentials {}: the file lists no consumer (\"consumers\" is empty), and oauth1 serve needs one to verify: add one, {{\"key\": \"…\", \"secret\": \"…\", \"tokens\": [{{\"token\": \"…\", \"secret\": \"…\"}}]}}, or pass --consumer-key KEY with OAUTH1_CONSUMER_SECRET set",
                path.display()
            ));
        }
        if known.consumers.is_empty() {
            return Err("oauth1 serve needs a consumer to verify: --consumer-key KEY with OAUTH1_CONSUMER_SECRET set (or --consumer-secret), or --credentials FILE".to_owned());
        }
        Ok(known)
    }

    fn add(
        &mut self,
        key: String,
        secret: String,
        tokens: Vec<(String, String)>,
        from: &str,
    ) -> Result<(), String> {
        if key.is_empty() {
            return Err(format!(
                "{from}: a consumer key is empty: give each consumer a key"
            ));
        }
        if self.consumers.contains_key(&key) {
            return Err(format!(
                "{from}: the consumer key {} is given twice: give each consumer once, with all its tokens",
                value(&key)
            ));
        }
        if tokens.iter().any(|(t, _)| t.is_empty()) {
            return Err(format!(
                "{from}: a token of {} is empty: give each token a value",
                value(&key)
            ));
        }
        self.consumers.insert(key, Consumer { secret, tokens });
        Ok(())
    }

    /// The keys and tokens, as the banner lists them (never a secret).
    pub(super) fn describe(&self) -> String {
        let mut shown: Vec<String> = (self.consumers.iter().take(5))
            .map(|(key, consumer)| {
                let tokens: Vec<String> = consumer
                    .tokens
                    .iter()
                    .map(|(t, _)| value(t).into_owned())
                    .collect();
                if tokens.is_empty() {
                    value(key).into_owned()
                } else {
                    format!("{} (tokens: {})", value(key), tokens.join(", "))
                }
            })
            .collect();
        if self.consumers.len() > 5 {
            shown.push(format!("and {} more", self.consumers.len() - 5));
        }
        shown.join(", ")
    }

    /// The consumer keys, quoted, as a refusal lists them.
    pub(super) fn describe_keys(&self) -> String {
        let keys: Vec<String> = (self.consumers.keys().take(10))
            .map(|k| format!("\"{}\"", k.escape_default()))
            .collect();
        let more = self.consumers.len().saturating_sub(10);
        if more > 0 {
            format!("{} and {more} more", keys.join(", "))
        } else {
            keys.join(", ")
        }
    }

    /// A consumer key, and one of its tokens if it has one, for the sample command.
    pub(super) fn sample(&self) -> (&str, Option<&str>) {
        let (key, consumer) = self
            .consumers
            .iter()
            .find(|(_, c)| !c.tokens.is_empty())
            .or_else(|| self.consumers.iter().next())
            .map_or(("", None), |(k, c)| (k.as_str(), Some(c)));
        (
            key,
            consumer
                .and_then(|c| c.tokens.first())
                .map(|(t, _)| t.as_str()),
        )
    }
}
