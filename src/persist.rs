//! Serialization of credentials (feature `serde`), for an application that keeps them between
//! requests: a session holding temporary credentials across the flow's two web requests, a
//! database holding each user's token credentials.
//!
//! **Serializing writes the secrets in clear text.** Store what it writes as you store the
//! secrets themselves (encrypted at rest, out of logs); a `Debug` of the credentials stays
//! redacted, but their serialized form is not.
//!
//! The shapes, in JSON:
//!
//! - [`Secret`]: a string (a secret that is not UTF-8 cannot be written);
//! - [`Consumer`](crate::credentials::Consumer) and [`Token`](crate::credentials::Token):
//!   `{"key": "…", "secret": "…"}`;
//! - [`TemporaryCredentials`]: its token,
//!   `{"key": "…", "secret": "…"}`;
//! - [`TokenCredentials`]:
//!   `{"token": {"key": "…", "secret": "…"}, "extra": [["user_id", "…"], …]}`.
//!
//! ```
//! use oauth1_signer::flow::TemporaryCredentials;
//!
//! let temporary = TemporaryCredentials::new("hh5s93j4hdidpola", "hdhd0244k9j7ao03");
//! let kept = serde_json::to_string(&temporary)?; // holds the secret: keep it as one
//! assert_eq!(kept, r#"{"key":"hh5s93j4hdidpola","secret":"hdhd0244k9j7ao03"}"#);
//! let back: TemporaryCredentials = serde_json::from_str(&kept)?;
//! assert_eq!(back.token().key(), "hh5s93j4hdidpola");
//! # Ok::<(), serde_json::Error>(())
//! ```

use serde::de::Error as _;
use serde::ser::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::credentials::{Credentials, Kind};
use crate::flow::{TemporaryCredentials, TokenCredentials};
use crate::secret::Secret;

impl Serialize for Secret {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let text = std::str::from_utf8(self.expose()).map_err(|_| {
            S::Error::custom("a secret that is not UTF-8 cannot be written as text")
        })?;
        serializer.serialize_str(text)
    }
}

impl<'de> Deserialize<'de> for Secret {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // The string's own buffer becomes the secret's, which is wiped when dropped.
        String::deserialize(deserializer).map(Secret::from)
    }
}

#[derive(Serialize)]
struct CredentialsOut<'a> {
    key: &'a str,
    secret: &'a Secret,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CredentialsIn {
    key: String,
    secret: Secret,
}

impl<K: Kind> Serialize for Credentials<K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        CredentialsOut {
            key: self.key(),
            secret: self.secret(),
        }
        .serialize(serializer)
    }
}

impl<'de, K: Kind> Deserialize<'de> for Credentials<K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let CredentialsIn { key, secret } = CredentialsIn::deserialize(deserializer)?;
        Ok(Credentials::new(key, secret))
    }
}

impl Serialize for TemporaryCredentials {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.token().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for TemporaryCredentials {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let CredentialsIn { key, secret } = CredentialsIn::deserialize(deserializer)?;
        Ok(TemporaryCredentials::new(key, secret))
    }
}

#[derive(Serialize)]
struct TokenCredentialsOut<'a> {
    token: &'a crate::credentials::Token,
    extra: Vec<(&'a str, &'a str)>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TokenCredentialsIn {
    token: crate::credentials::Token,
    #[serde(default)]
    extra: Vec<(String, String)>,
}

impl Serialize for TokenCredentials {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        TokenCredentialsOut {
            token: self.token(),
            extra: self.extra().collect(),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for TokenCredentials {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let TokenCredentialsIn { token, extra } = TokenCredentialsIn::deserialize(deserializer)?;
        if let Some((name, _)) = extra.iter().find(|(name, _)| {
            matches!(
                name.as_str(),
                "oauth_token" | "oauth_token_secret" | "oauth_callback_confirmed"
            )
        }) {
            return Err(D::Error::custom(format!(
                "{name} is part of the token, not an extra parameter"
            )));
        }
        Ok(TokenCredentials::from_parts(token, extra))
    }
}

#[cfg(test)]
mod tests {
    use crate::credentials::{Consumer, Token};
    use crate::flow::{TemporaryCredentials, TokenCredentials};
    use crate::secret::Secret;

    #[test]
    fn credentials_are_written_and_read_in_their_documented_shapes() {
        let consumer = Consumer::new("dpf43f3p2l4k3l03", "kd94hf93k423kf44");
        let json = serde_json::to_string(&consumer).unwrap();
        assert_eq!(
            json,
            r#"{"key":"dpf43f3p2l4k3l03","secret":"kd94hf93k423kf44"}"#
        );
        let back: Consumer = serde_json::from_str(&json).unwrap();
        assert_eq!(back.key(), "dpf43f3p2l4k3l03");
        assert_eq!(back.secret().expose(), b"kd94hf93k423kf44");
        assert!(!format!("{back:?}").contains("kd94hf93k423kf44"));

        let token: Token =
            serde_json::from_str(r#"{"key":"nnch734d00sl2jdk","secret":"p f\u00e9"}"#).unwrap();
        assert_eq!(token.secret().expose(), "p fé".as_bytes());
        assert_eq!(
            serde_json::to_string(&token).unwrap(),
            r#"{"key":"nnch734d00sl2jdk","secret":"p fé"}"#
        );

        let answer = b"oauth_token=nnch734d00sl2jdk&oauth_token_secret=pfkkdhi9sl3r4s00&user_id=6253282&screen_name=twitterapi";
        let credentials = TokenCredentials::parse(answer).unwrap();
        let json = serde_json::to_string(&credentials).unwrap();
        assert_eq!(
            json,
            r#"{"token":{"key":"nnch734d00sl2jdk","secret":"pfkkdhi9sl3r4s00"},"extra":[["user_id","6253282"],["screen_name","twitterapi"]]}"#
        );
        let back: TokenCredentials = serde_json::from_str(&json).unwrap();
        assert_eq!(back.token().secret().expose(), b"pfkkdhi9sl3r4s00");
        assert_eq!(
            back.extra().collect::<Vec<_>>(),
            [("user_id", "6253282"), ("screen_name", "twitterapi")]
        );

        let temporary: TemporaryCredentials =
            serde_json::from_str(r#"{"key":"hh5s93j4hdidpola","secret":"hdhd0244k9j7ao03"}"#)
                .unwrap();
        assert_eq!(temporary.token().secret().expose(), b"hdhd0244k9j7ao03");
    }

    #[test]
    fn what_cannot_be_written_or_read_is_an_error() {
        let binary = Consumer::new("k", Secret::from(&b"\xff\x00"[..]));
        let e = serde_json::to_string(&binary).unwrap_err().to_string();
        assert_eq!(e, "a secret that is not UTF-8 cannot be written as text");

        let e = serde_json::from_str::<Token>(r#"{"key":"k","secret":"s","secrte":"x"}"#)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("unknown field `secrte`"), "{e}");
        let e = serde_json::from_str::<Token>(r#"{"key":"k"}"#)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("missing field `secret`"), "{e}");
        let e = serde_json::from_str::<TokenCredentials>(
            r#"{"token":{"key":"k","secret":"s"},"extra":[["oauth_token_secret","x"]]}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with("oauth_token_secret is part of the token, not an extra parameter"),
            "{e}"
        );
    }
}
