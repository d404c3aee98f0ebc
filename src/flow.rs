//! The three-legged flow of RFC 5849 §2, client side, with no HTTP client: this module builds
//! what to send and reads what comes back; the application moves the bytes.
//!
//! 1. Temporary credentials (§2.1): sign a `POST` to the server's initiate endpoint with
//!    [`Request::with_callback`](crate::Request::with_callback) and no token; read the answer with
//!    [`TemporaryCredentials::parse`].
//! 2. Resource owner authorization (§2.2): send the user to [`authorization_url`]; the server
//!    redirects back to the callback, whose query [`Callback::parse`] reads.
//! 3. Token credentials (§2.3): sign a `POST` to the token endpoint with the temporary
//!    credentials as token and [`Request::with_verifier`](crate::Request::with_verifier); read the answer with
//!    [`TokenCredentials::parse`].
//!
//! RFC 5849 §1.2's example, end to end:
//!
//! ```
//! use oauth1_signer::flow::{authorization_url, Callback, TemporaryCredentials, TokenCredentials};
//! use oauth1_signer::{Consumer, Nonce, Realm, Request, Signer, Timestamp, Version};
//! use url::Url;
//!
//! let consumer = Consumer::new("dpf43f3p2l4k3l03", "kd94hf93k423kf44");
//! let signer = Signer::new(consumer.clone())
//!     .with_realm(Realm::new("Photos")?)
//!     .with_version(Version::Omit);
//!
//! // 1. Ask for temporary credentials.
//! let initiate = Request::new("POST", "https://photos.example.net/initiate")?
//!     .with_callback("http://printer.example.com/ready");
//! let signed = signer.sign(&initiate, &Nonce::new("wIjqoS")?, Timestamp::new(137131200))?;
//! assert_eq!(signed.signature().as_str(), "74KNZJeDHnMBp0EMJ9ZHt/XKycU=");
//! let temporary = TemporaryCredentials::parse(
//!     b"oauth_token=hh5s93j4hdidpola&oauth_token_secret=hdhd0244k9j7ao03&oauth_callback_confirmed=true",
//! )?;
//!
//! // 2. Send the user to the server, and read the callback.
//! let authorize = authorization_url(&Url::parse("https://photos.example.net/authorize")?, &temporary);
//! assert_eq!(authorize.as_str(), "https://photos.example.net/authorize?oauth_token=hh5s93j4hdidpola");
//! let callback = Callback::parse(
//!     "oauth_token=hh5s93j4hdidpola&oauth_verifier=hfdp7dh39dks9884",
//!     &temporary,
//! )?;
//!
//! // 3. Exchange them for token credentials.
//! let token_request = Request::new("POST", "https://photos.example.net/token")?
//!     .with_verifier(callback.verifier());
//! let signed = signer
//!     .with_token(temporary.into_token())
//!     .sign(&token_request, &Nonce::new("walatlh")?, Timestamp::new(137131201))?;
//! assert_eq!(signed.signature().as_str(), "gKgrFCywp7rO0OXSjdot/IHF7IU=");
//! let credentials = TokenCredentials::parse(b"oauth_token=nnch734d00sl2jdk&oauth_token_secret=pfkkdhi9sl3r4s00")?;
//! assert_eq!(credentials.token().key(), "nnch734d00sl2jdk");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use url::Url;

use crate::credentials::Token;
use crate::encode;
use crate::params::{Parameters, Source};
use crate::secret::Secret;

/// Why a server's answer or a callback could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FlowError {
    /// The server reported a problem (the OAuth Problem Reporting extension), such as
    /// `user_refused` or `token_rejected`.
    #[non_exhaustive]
    Problem {
        /// `oauth_problem`.
        problem: String,
        /// `oauth_problem_advice`, if given.
        advice: Option<String>,
    },
    /// A required parameter is absent.
    #[non_exhaustive]
    Missing {
        /// Its name.
        name: &'static str,
    },
    /// The temporary-credentials answer lacks `oauth_callback_confirmed=true` (§2.1): the
    /// server may not be an OAuth 1.0a server, and the callback is not to be trusted.
    CallbackNotConfirmed,
    /// The callback names another temporary token than the one this client holds: it is not
    /// the answer to this client's request.
    TokenMismatch,
    /// The text cannot be read as `application/x-www-form-urlencoded` UTF-8, or repeats a
    /// parameter.
    #[non_exhaustive]
    Malformed {
        /// What is wrong.
        detail: String,
    },
}

impl fmt::Display for FlowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FlowError::Problem { problem, advice } => {
                write!(f, "the server reports oauth_problem={problem}")?;
                if let Some(advice) = advice {
                    write!(f, " ({advice})")?;
                }
                Ok(())
            }
            FlowError::Missing { name } => write!(f, "the answer has no {name}"),
            FlowError::CallbackNotConfirmed => f.write_str(
                "the server did not send oauth_callback_confirmed=true: it does not speak OAuth 1.0a, so the flow stops here",
            ),
            FlowError::TokenMismatch => f.write_str(
                "the callback's oauth_token is not the temporary token of this flow: ignore the callback",
            ),
            FlowError::Malformed { detail } => f.write_str(detail),
        }
    }
}

impl std::error::Error for FlowError {}

/// The decoded `name=value` pairs of a form-encoded answer or a callback query, each name
/// once, every value UTF-8.
struct Answer(Vec<(String, String)>);

/// The most parameters an answer or a callback may have; the protocol needs four.
pub const MAX_ANSWER_PARAMETERS: usize = 64;

impl Answer {
    fn parse(text: &[u8], what: &str) -> Result<Answer, FlowError> {
        let malformed = |detail: String| FlowError::Malformed { detail };
        // Counted before anything is decoded: every parameter but the last ends at a '&'.
        if text
            .split(|&b| b == b'&')
            .filter(|pair| !pair.is_empty())
            .count()
            > MAX_ANSWER_PARAMETERS
        {
            return Err(malformed(format!(
                "{what}: more than {MAX_ANSWER_PARAMETERS} parameters"
            )));
        }
        let mut params = Parameters::new();
        params
            .extend_urlencoded(Source::FormBody, text)
            .map_err(|e| malformed(format!("{what}: {e}")))?;
        let mut pairs: Vec<(String, String)> = Vec::with_capacity(params.len());
        let mut names = std::collections::HashSet::with_capacity(params.len());
        for p in params.iter() {
            let utf8 = |b: &[u8]| {
                String::from_utf8(b.to_vec()).map_err(|_| malformed(format!("{what}: not UTF-8")))
            };
            let name = utf8(p.name)?;
            if !names.insert(name.clone()) {
                return Err(malformed(format!("{what}: {name} is given more than once")));
            }
            pairs.push((name, utf8(p.value)?));
        }
        let answer = Answer(pairs);
        if let Some(problem) = answer.get("oauth_problem") {
            return Err(FlowError::Problem {
                problem: problem.to_owned(),
                advice: answer.get("oauth_problem_advice").map(str::to_owned),
            });
        }
        Ok(answer)
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn require(&self, name: &'static str) -> Result<&str, FlowError> {
        self.get(name).ok_or(FlowError::Missing { name })
    }

    fn token(&self) -> Result<Token, FlowError> {
        Ok(Token::new(
            self.require("oauth_token")?,
            Secret::from(self.require("oauth_token_secret")?),
        ))
    }

    /// The parameters but the credentials themselves.
    fn into_extra(self) -> Vec<(String, String)> {
        self.0
            .into_iter()
            .filter(|(n, _)| {
                !matches!(
                    n.as_str(),
                    "oauth_token" | "oauth_token_secret" | "oauth_callback_confirmed"
                )
            })
            .collect()
    }
}

/// Whether a temporary-credentials answer must confirm the callback
/// (`oauth_callback_confirmed=true`, §2.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Confirmation {
    /// It must: OAuth 1.0a, as RFC 5849 says.
    #[default]
    Required,
    /// It may be absent, for providers that never send it; a value other than `true` is
    /// still refused.
    NotRequired,
}

/// The temporary credentials of §2.1: a token and secret to sign the token request with.
#[derive(Clone, Debug)]
pub struct TemporaryCredentials {
    token: Token,
}

impl TemporaryCredentials {
    /// Reads the server's answer to the temporary-credentials request (the response body).
    ///
    /// # Errors
    ///
    /// [`FlowError::Problem`] if the server reports one; [`FlowError::Missing`] without
    /// `oauth_token` or `oauth_token_secret`; [`FlowError::CallbackNotConfirmed`] without
    /// `oauth_callback_confirmed=true`; [`FlowError::Malformed`].
    pub fn parse(body: &[u8]) -> Result<Self, FlowError> {
        TemporaryCredentials::parse_with(body, Confirmation::Required)
    }

    /// [`TemporaryCredentials::parse`], with `oauth_callback_confirmed=true` required or not:
    /// [`Confirmation::NotRequired`] is for providers that never send it (some speak OAuth 1.0
    /// without the `a`, whose callback an attacker can replace: prefer `oob` with them).
    ///
    /// # Errors
    ///
    /// Those of [`TemporaryCredentials::parse`]; [`FlowError::CallbackNotConfirmed`] only when
    /// the confirmation is required, or when it is sent with another value than `true`.
    pub fn parse_with(body: &[u8], confirmation: Confirmation) -> Result<Self, FlowError> {
        let answer = Answer::parse(body, "the temporary-credentials answer")?;
        let token = answer.token()?;
        match (answer.get("oauth_callback_confirmed"), confirmation) {
            (Some("true"), _) | (None, Confirmation::NotRequired) => {}
            _ => return Err(FlowError::CallbackNotConfirmed),
        }
        Ok(TemporaryCredentials { token })
    }

    /// Temporary credentials kept from an earlier answer: the flow spans two web requests
    /// (the client's redirect to the provider, then the provider's callback), and an
    /// application keeps the token and secret between them, in its session for instance.
    ///
    /// ```
    /// use oauth1_signer::flow::{Callback, TemporaryCredentials};
    ///
    /// // Stored when the user was sent away; read back when the callback arrives.
    /// let temporary = TemporaryCredentials::new("hh5s93j4hdidpola", "hdhd0244k9j7ao03");
    /// let callback = Callback::parse("oauth_token=hh5s93j4hdidpola&oauth_verifier=hfdp7dh39dks9884", &temporary)?;
    /// assert_eq!(callback.verifier(), "hfdp7dh39dks9884");
    /// # Ok::<(), oauth1_signer::flow::FlowError>(())
    /// ```
    #[must_use]
    pub fn new(token: impl Into<String>, secret: impl Into<Secret>) -> Self {
        TemporaryCredentials {
            token: Token::new(token, secret),
        }
    }

    /// The temporary token and secret.
    #[must_use]
    pub fn token(&self) -> &Token {
        &self.token
    }

    /// The temporary token and secret, for [`Signer::with_token`](crate::Signer::with_token).
    #[must_use]
    pub fn into_token(self) -> Token {
        self.token
    }
}

/// The URL to send the resource owner to (§2.2): the server's authorization endpoint with
/// `oauth_token` added to its query.
#[must_use]
pub fn authorization_url(endpoint: &Url, temporary: &TemporaryCredentials) -> Url {
    let mut url = endpoint.clone();
    let mut query = url.query().unwrap_or("").to_owned();
    if !query.is_empty() {
        query.push('&');
    }
    query.push_str("oauth_token=");
    encode::encode(temporary.token.key().as_bytes()).append_to(&mut query);
    url.set_query(Some(&query));
    url
}

/// The redirect back to the client's callback (§2.2): the temporary token and the verifier.
///
/// Its `Debug` does not show the verifier: with the temporary credentials it gets the token
/// credentials, so it is kept out of logs as the secrets are.
#[derive(Clone, PartialEq, Eq)]
pub struct Callback {
    verifier: String,
}

impl fmt::Debug for Callback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Callback")
            .field("verifier", &format_args!(".."))
            .finish()
    }
}

impl Callback {
    /// Reads the callback URL's query, and checks that its `oauth_token` is this flow's
    /// temporary token.
    ///
    /// # Errors
    ///
    /// [`FlowError::Problem`] (such as `user_refused`), [`FlowError::Missing`],
    /// [`FlowError::TokenMismatch`], [`FlowError::Malformed`].
    pub fn parse(query: &str, temporary: &TemporaryCredentials) -> Result<Self, FlowError> {
        let answer = Answer::parse(query.as_bytes(), "the callback query")?;
        let token = answer.require("oauth_token")?;
        let verifier = answer.require("oauth_verifier")?;
        if token != temporary.token.key() {
            return Err(FlowError::TokenMismatch);
        }
        Ok(Callback {
            verifier: verifier.to_owned(),
        })
    }

    /// `oauth_verifier`, for [`Request::with_verifier`](crate::Request::with_verifier).
    #[must_use]
    pub fn verifier(&self) -> &str {
        &self.verifier
    }
}

/// The token credentials of §2.3, and whatever else the server sent with them (an X API
/// answer carries `user_id` and `screen_name`).
#[derive(Clone, Debug)]
pub struct TokenCredentials {
    token: Token,
    extra: Vec<(String, String)>,
}

impl TokenCredentials {
    /// Reads the server's answer to the token request (the response body).
    ///
    /// # Errors
    ///
    /// [`FlowError::Problem`] if the server reports one; [`FlowError::Missing`] without
    /// `oauth_token` or `oauth_token_secret`; [`FlowError::Malformed`].
    pub fn parse(body: &[u8]) -> Result<Self, FlowError> {
        let answer = Answer::parse(body, "the token answer")?;
        let token = answer.token()?;
        Ok(TokenCredentials {
            token,
            extra: answer.into_extra(),
        })
    }

    /// The token and secret that sign requests on the resource owner's behalf.
    #[must_use]
    pub fn token(&self) -> &Token {
        &self.token
    }

    /// The token and secret, for [`Signer::with_token`](crate::Signer::with_token).
    #[must_use]
    pub fn into_token(self) -> Token {
        self.token
    }

    /// Token credentials kept from an earlier answer, with the other parameters it carried.
    #[must_use]
    pub fn from_parts(token: Token, extra: Vec<(String, String)>) -> Self {
        TokenCredentials { token, extra }
    }

    /// The other parameters of the answer, in order.
    pub fn extra(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.extra.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temporary() -> TemporaryCredentials {
        TemporaryCredentials::parse(
            b"oauth_token=hh5s93j4hdidpola&oauth_token_secret=hdhd0244k9j7ao03&oauth_callback_confirmed=true",
        )
        .unwrap()
    }

    /// The duplicate check was quadratic (40,000 parameters took seconds): answers are now
    /// capped before they are decoded, and names are checked in a set.
    #[test]
    fn answers_with_too_many_parameters_are_refused_before_decoding() {
        let answer = |count: usize| {
            let mut text =
                String::from("oauth_token=a&oauth_token_secret=b&oauth_callback_confirmed=true");
            for i in 3..count {
                text.push_str("&x");
                text.push_str(&i.to_string());
                text.push_str("=1");
            }
            text
        };
        assert!(TemporaryCredentials::parse(answer(MAX_ANSWER_PARAMETERS).as_bytes()).is_ok());
        for count in [MAX_ANSWER_PARAMETERS + 1, 40_000] {
            assert_eq!(
                TemporaryCredentials::parse(answer(count).as_bytes())
                    .unwrap_err()
                    .to_string(),
                "the temporary-credentials answer: more than 64 parameters"
            );
        }
        // Empty pairs do not count; a repeat among many is still found.
        let spaced = format!("{}{}", "&".repeat(1000), answer(MAX_ANSWER_PARAMETERS));
        assert!(TemporaryCredentials::parse(spaced.as_bytes()).is_ok());
        let repeated = answer(MAX_ANSWER_PARAMETERS - 1) + "&x5=2";
        assert_eq!(
            TemporaryCredentials::parse(repeated.as_bytes())
                .unwrap_err()
                .to_string(),
            "the temporary-credentials answer: x5 is given more than once"
        );
    }

    #[test]
    fn the_confirmation_can_be_optional_but_never_false() {
        let unconfirmed = b"oauth_token=a&oauth_token_secret=b";
        assert_eq!(
            TemporaryCredentials::parse(unconfirmed).unwrap_err(),
            FlowError::CallbackNotConfirmed
        );
        let t = TemporaryCredentials::parse_with(unconfirmed, Confirmation::NotRequired).unwrap();
        assert_eq!(t.token().key(), "a");
        assert_eq!(t.token().secret().expose(), b"b");
        for value in ["false", "TRUE", ""] {
            let answer =
                format!("oauth_token=a&oauth_token_secret=b&oauth_callback_confirmed={value}");
            assert_eq!(
                TemporaryCredentials::parse_with(answer.as_bytes(), Confirmation::NotRequired)
                    .unwrap_err(),
                FlowError::CallbackNotConfirmed,
                "{value}"
            );
        }
        let confirmed = b"oauth_token=a&oauth_token_secret=b&oauth_callback_confirmed=true";
        assert!(TemporaryCredentials::parse_with(confirmed, Confirmation::NotRequired).is_ok());
    }

    #[test]
    fn answers_are_read_strictly() {
        let t = temporary();
        assert_eq!(t.token().key(), "hh5s93j4hdidpola");
        assert_eq!(t.token().secret().expose(), b"hdhd0244k9j7ao03");
        assert!(!format!("{t:?}").contains("hdhd0244k9j7ao03"));

        let cases: [(&[u8], &str); 6] = [
            (
                b"oauth_token=a&oauth_token_secret=b",
                "the server did not send oauth_callback_confirmed=true: it does not speak OAuth 1.0a, so the flow stops here",
            ),
            (
                b"oauth_token_secret=b&oauth_callback_confirmed=true",
                "the answer has no oauth_token",
            ),
            (
                b"oauth_problem=consumer_key_rejected&oauth_problem_advice=Too%20many%20requests",
                "the server reports oauth_problem=consumer_key_rejected (Too many requests)",
            ),
            (
                b"oauth_token=a&oauth_token=b&oauth_token_secret=c&oauth_callback_confirmed=true",
                "the temporary-credentials answer: oauth_token is given more than once",
            ),
            (
                b"oauth_token=%zz",
                "the temporary-credentials answer: invalid percent-encoding at byte 12 (\"%zz\"): '%' must be followed by two hex digits",
            ),
            (
                b"oauth_token=%FF&oauth_token_secret=c&oauth_callback_confirmed=true",
                "the temporary-credentials answer: not UTF-8",
            ),
        ];
        for (body, message) in cases {
            assert_eq!(
                TemporaryCredentials::parse(body).unwrap_err().to_string(),
                message
            );
        }
    }

    #[test]
    fn token_answers_keep_the_extra_parameters() {
        let c = TokenCredentials::parse(
            b"oauth_token=6253282-eWudHldSbIaelX7swmsiHImEL4KinwaGloHANdrY&oauth_token_secret=2EEfA6BG5ly3sR3XjE0IBSnlQu4ZrUzPiYTmrkVU&user_id=6253282&screen_name=twitterapi",
        )
        .unwrap();
        assert_eq!(
            c.token().key(),
            "6253282-eWudHldSbIaelX7swmsiHImEL4KinwaGloHANdrY"
        );
        assert_eq!(
            c.extra().collect::<Vec<_>>(),
            [("user_id", "6253282"), ("screen_name", "twitterapi")]
        );
        assert_eq!(
            TokenCredentials::parse(b"oauth_token=a").unwrap_err(),
            FlowError::Missing {
                name: "oauth_token_secret"
            }
        );
    }

    #[test]
    fn callbacks_must_answer_this_flow() {
        let t = temporary();
        assert_eq!(
            Callback::parse("oauth_token=other&oauth_verifier=v", &t).unwrap_err(),
            FlowError::TokenMismatch
        );
        assert_eq!(
            Callback::parse("oauth_token=hh5s93j4hdidpola", &t)
                .unwrap_err()
                .to_string(),
            "the answer has no oauth_verifier"
        );
        assert_eq!(
            Callback::parse("oauth_problem=user_refused", &t)
                .unwrap_err()
                .to_string(),
            "the server reports oauth_problem=user_refused"
        );
        let c = Callback::parse(
            "oauth_token=hh5s93j4hdidpola&oauth_verifier=a%2Bb%20c&state=x",
            &t,
        )
        .unwrap();
        assert_eq!(c.verifier(), "a+b c");
        // The verifier gets the token credentials: kept out of `Debug`.
        assert_eq!(format!("{c:?}"), "Callback { verifier: .. }");
    }

    #[test]
    fn the_authorization_url_keeps_the_endpoints_query() {
        let t = TemporaryCredentials::parse(
            b"oauth_token=a%2Bb%2Fc&oauth_token_secret=s&oauth_callback_confirmed=true",
        )
        .unwrap();
        let endpoint =
            Url::parse("https://api.example.com/oauth/authorize?force_login=true").unwrap();
        assert_eq!(
            authorization_url(&endpoint, &t).as_str(),
            "https://api.example.com/oauth/authorize?force_login=true&oauth_token=a%2Bb%2Fc"
        );
    }
}
