//! The callbacks a consumer registered with the provider: where a resource owner's browser may
//! be sent back with the verifier (RFC 5849 §2.1, §2.2).

use std::fmt;
use std::sync::Arc;

use url::Url;

use crate::config::ConfigError;
use crate::error::VerifyError;

/// The callbacks a consumer may ask for in `oauth_callback`: exact URLs, URLs under a prefix,
/// and whether out-of-band (`oob`) is allowed.
///
/// A consumer's secret is often not secret (shipped inside a mobile or desktop app). Whoever
/// holds it can start a flow whose authorization page shows the real application's name; if
/// any callback were accepted, the verifier would then be delivered to theirs. Holding each
/// consumer to the callbacks it registered closes that, as providers do (X has required
/// registered callback URLs since 2018).
///
/// - **No URL registered** (the default, [`Callbacks::default`]): only `oob` is accepted, the
///   safe default for a consumer the provider knows nothing more of.
/// - An **exact URL** ([`with_url`](Self::with_url)) matches that URL; when it has no query, it
///   also matches the URL with any query, where a consumer keeps its state.
/// - A **prefix** ([`with_prefix`](Self::with_prefix)), whose path ends with `/`, matches every
///   URL that starts with it.
///
/// URLs are compared as the URL parser writes them, which is where a browser goes: a callback
/// that leaves a prefix through dot segments (`https://app.example/cb/../admin`), a backslash
/// or another host spelled to look alike does not match. The callback recorded, and redirected
/// to after approval, is that form.
///
/// ```
/// use oauth1_server::Callbacks;
///
/// let callbacks = Callbacks::default()
///     .with_url("https://app.example.com/oauth/done")?
///     .with_prefix("https://app.example.com/hooks/")?
///     .with_oob(false);
/// assert!(callbacks.allows("https://app.example.com/oauth/done"));
/// assert!(callbacks.allows("https://app.example.com/oauth/done?state=abc"));
/// assert!(callbacks.allows("https://app.example.com/hooks/oauth?user=1"));
/// assert!(!callbacks.allows("https://app.example.com/hooks/../admin"));
/// assert!(!callbacks.allows("https://evil.example/oauth/done"));
/// assert!(!callbacks.allows("oob"));
/// assert!(Callbacks::default().allows("oob"));
/// # Ok::<(), oauth1_server::ConfigError>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Callbacks {
    /// Shared, so that a credential store hands a consumer out without copying its URLs;
    /// none made without an allocation.
    registered: Option<Arc<[Registered]>>,
    oob: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Registered {
    /// An exact URL, as the parser writes it; without a query, any query is allowed.
    Exact(String),
    /// A prefix, as the parser writes it, ending with `/`.
    Prefix(String),
}

impl Default for Callbacks {
    /// No URL; `oob` allowed.
    fn default() -> Self {
        Callbacks {
            registered: None,
            oob: true,
        }
    }
}

impl fmt::Debug for Callbacks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Callbacks")
            .field("registered", &self.registered())
            .field("oob", &self.oob)
            .finish()
    }
}

impl Callbacks {
    /// None at all, not even `oob`: a consumer that cannot take part in the three-legged flow.
    #[must_use]
    pub fn none() -> Self {
        Callbacks::default().with_oob(false)
    }

    /// These callbacks and `url`, matched exactly (with any query when `url` has none).
    ///
    /// # Errors
    ///
    /// [`ConfigError::InvalidCallback`] for `url` that is not an absolute URL, has a fragment, or has
    /// a scheme a browser must not be sent to (`javascript:`, `data:`, …).
    pub fn with_url(self, url: &str) -> Result<Self, ConfigError> {
        let parsed = parse(url).map_err(|reason| invalid(url, reason))?;
        Ok(self.with(Registered::Exact(parsed.into())))
    }

    /// These callbacks and every URL that starts with `prefix`, whose path ends with `/`
    /// (`https://app.example.com/oauth/`).
    ///
    /// # Errors
    ///
    /// [`ConfigError::InvalidCallback`] as for [`with_url`](Self::with_url), and for a prefix with a
    /// query or whose path does not end with `/` (`https://app.example.com/oauth` would also
    /// match `https://app.example.com/oauth-evil`).
    pub fn with_prefix(self, prefix: &str) -> Result<Self, ConfigError> {
        let parsed = parse(prefix).map_err(|reason| invalid(prefix, reason))?;
        if parsed.query().is_some() || !parsed.path().ends_with('/') {
            return Err(invalid(
                prefix,
                "is not a prefix: its path must end with '/' and it has no query (https://app.example.com/oauth would also match https://app.example.com/oauth-evil)",
            ));
        }
        Ok(self.with(Registered::Prefix(parsed.into())))
    }

    /// Whether `oob` (out of band: the verifier shown to the resource owner, who types it
    /// into the consumer) is allowed.
    #[must_use]
    pub fn with_oob(mut self, allowed: bool) -> Self {
        self.oob = allowed;
        self
    }

    fn with(mut self, registered: Registered) -> Self {
        let mut all = self.registered().to_vec();
        all.push(registered);
        self.registered = Some(all.into());
        self
    }

    fn registered(&self) -> &[Registered] {
        self.registered.as_deref().unwrap_or_default()
    }

    /// Whether `callback` is one of these.
    #[must_use]
    pub fn allows(&self, callback: &str) -> bool {
        self.admit(callback).is_ok()
    }

    /// The callback to record for `callback` (`oob`, or the URL as the parser writes it), or
    /// why it is refused.
    pub(crate) fn admit(&self, callback: &str) -> Result<String, VerifyError> {
        if callback == "oob" {
            return if self.oob {
                Ok(callback.to_owned())
            } else {
                Err(self.rejected(callback))
            };
        }
        let url = parse(callback).map_err(|why| {
            VerifyError::malformed(format!(
                "oauth_callback \"{}\" {why}: send an absolute URL, or oob when the consumer cannot receive a callback",
                callback.escape_default()
            ))
        })?;
        let text = url.as_str();
        let without_query = &text[..text.find('?').unwrap_or(text.len())];
        let matches = self.registered().iter().any(|registered| match registered {
            Registered::Exact(exact) => {
                text == exact || (!exact.contains('?') && without_query == exact)
            }
            Registered::Prefix(prefix) => text.starts_with(prefix.as_str()),
        });
        if matches {
            Ok(url.into())
        } else {
            Err(self.rejected(callback))
        }
    }

    fn rejected(&self, callback: &str) -> VerifyError {
        let advice = if self.registered().is_empty() && self.oob {
            "has no callback URL registered and may use only oob: register the callback with the provider, or send oob".to_owned()
        } else if self.registered().is_empty() {
            "has no callback registered, not even oob: register one with the provider".to_owned()
        } else {
            format!("may use {self}: send one of them, or register this one with the provider")
        };
        VerifyError::CallbackRejected {
            callback: callback.to_owned(),
            advice,
        }
    }
}

/// What is registered, as the refusal's advice says it: "`https://a/done`, URLs starting with
/// `https://a/hooks/` or oob".
impl fmt::Display for Callbacks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 5;
        let registered = self.registered();
        let mut parts: Vec<String> = (registered.iter().take(SHOWN))
            .map(|registered| match registered {
                Registered::Exact(url) if url.contains('?') => url.clone(),
                Registered::Exact(url) => format!("{url} (any query)"),
                Registered::Prefix(prefix) => format!("URLs starting with {prefix}"),
            })
            .collect();
        if registered.len() > SHOWN {
            parts.push(format!("{} more", registered.len() - SHOWN));
        }
        if self.oob {
            parts.push("oob".to_owned());
        }
        match parts.as_slice() {
            [] => f.write_str("none"),
            [one] => f.write_str(one),
            [first @ .., last] => write!(f, "{} or {last}", first.join(", ")),
        }
    }
}

/// An absolute URL a browser may be sent to with the verifier in its query.
fn parse(text: &str) -> Result<Url, &'static str> {
    let url = Url::parse(text).map_err(|_| "is not an absolute URL")?;
    if matches!(
        url.scheme(),
        "javascript" | "data" | "vbscript" | "file" | "blob" | "about"
    ) {
        return Err("has a scheme a browser must not be sent to");
    }
    if url.fragment().is_some() {
        return Err("has a fragment, which would hide the verifier added to its query");
    }
    Ok(url)
}

fn invalid(callback: &str, reason: &'static str) -> ConfigError {
    ConfigError::InvalidCallback {
        callback: callback.to_owned(),
        reason,
    }
}
