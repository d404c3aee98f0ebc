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
/// No callback, registered or sent, may carry a query parameter of the protocol's (a name that
/// starts with `oauth_`): the provider adds `oauth_token` and `oauth_verifier` to the query
/// itself (RFC 5849 §2.2), and a consumer's own `oauth_token=…` before them would make what
/// the callback's application reads depend on its framework (the first of two, or the last).
/// Names are read as applications decode them, so `oauth%5Ftoken`, `OAuth_Token`, `oauth.token`
/// and `oauth+token` (which PHP reads as `oauth_token`) and names after a `;` are refused too.
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
    /// Every URL a browser may be sent to with the verifier added.
    Any,
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
    /// [`ConfigError::InvalidCallback`] for `url` that is not an absolute URL, has a fragment, has
    /// a scheme a browser must not be sent to (`javascript:`, `data:`, …), or has a query
    /// parameter whose name starts with `oauth_`, which the provider adds itself.
    pub fn with_url(self, url: &str) -> Result<Self, ConfigError> {
        let parsed = parse(url).map_err(|reason| invalid(url, reason))?;
        if protocol_parameter(&parsed).is_some() {
            return Err(invalid(
                url,
                "has a query parameter that reads as a name starting with oauth_: the provider adds oauth_token and oauth_verifier to the callback's query itself (RFC 5849 §2.2); rename the parameter so that it does not start with oauth_",
            ));
        }
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

    /// These callbacks and every absolute URL a browser may be sent to with the verifier
    /// added (no fragment, no `oauth_` query parameter, not `javascript:` and the like): for a
    /// provider that only tests clients, such as `oauth1 serve`, whose consumers are its
    /// developers. Never for a provider with real users: whoever holds a consumer's secret could
    /// then have an approval's verifier delivered to a callback of theirs.
    #[must_use]
    pub fn with_any_url(self) -> Self {
        self.with(Registered::Any)
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
    /// why it is refused: [`VerifyError::Malformed`] for a callback that is not a URL a
    /// browser may be sent to with the verifier added to its query (one with an `oauth_`
    /// parameter among them), [`VerifyError::CallbackRejected`] for one not registered.
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
        if let Some(name) = protocol_parameter(&url) {
            return Err(VerifyError::malformed(format!(
                "oauth_callback \"{}\" has the query parameter \"{}\", which reads as a name starting with oauth_: the provider adds oauth_token and oauth_verifier to the callback's query itself (RFC 5849 §2.2), after any of the consumer's; rename the parameter so that it does not start with oauth_",
                callback.escape_default(),
                name.escape_default()
            )));
        }
        let text = url.as_str();
        let without_query = &text[..text.find('?').unwrap_or(text.len())];
        let matches = self.registered().iter().any(|registered| match registered {
            Registered::Exact(exact) => {
                text == exact || (!exact.contains('?') && without_query == exact)
            }
            Registered::Prefix(prefix) => text.starts_with(prefix.as_str()),
            Registered::Any => true,
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
                Registered::Any => "any absolute URL".to_owned(),
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

/// The first parameter of `url`'s query whose name is the protocol's, as it is written there:
/// a name that an application may read as one starting with `oauth_`
/// ([`is_protocol_name`]). Pairs are split at `&` and at `;` (which older frameworks take as a
/// separator too), and names decoded as a form decodes them: percent escapes, `+` as a space.
fn protocol_parameter(url: &Url) -> Option<&str> {
    url.query()?.split(['&', ';']).find_map(|pair| {
        let name = pair.split('=').next().unwrap_or_default();
        let decoded = url::form_urlencoded::parse(name.as_bytes()).next()?.0;
        is_protocol_name(&decoded).then_some(name)
    })
}

/// Whether an application may read the decoded query parameter `name` as one that starts with
/// `oauth_`: in any letter case (some frameworks look query names up without it), after
/// leading spaces, and with a space, `.` or `[` in place of the `_` (PHP drops the leading
/// spaces of a name and writes those three as `_`).
fn is_protocol_name(name: &str) -> bool {
    let mut chars = name.trim_start_matches(' ').chars();
    "oauth".chars().all(|expected| {
        chars
            .next()
            .is_some_and(|c| c.eq_ignore_ascii_case(&expected))
    }) && matches!(chars.next(), Some('_' | ' ' | '.' | '['))
}

fn invalid(callback: &str, reason: &'static str) -> ConfigError {
    ConfigError::InvalidCallback {
        callback: callback.to_owned(),
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Reason;

    /// Registered `https://app.example/cb` (any query) and the prefix `https://app.example/hooks/`.
    fn callbacks() -> Callbacks {
        Callbacks::default()
            .with_url("https://app.example/cb")
            .unwrap()
            .with_prefix("https://app.example/hooks/")
            .unwrap()
    }

    /// Queries that carry a parameter an application may read as one of the protocol's, and
    /// that parameter as written.
    const PROTOCOL_QUERIES: &[(&str, &str)] = &[
        ("oauth_token=EVIL", "oauth_token"),
        ("oauth_verifier=EVIL&oauth_token=EVILTOK", "oauth_verifier"),
        ("state=1&oauth_verifier=EVIL", "oauth_verifier"),
        ("oauth_callback_confirmed=true", "oauth_callback_confirmed"),
        ("oauth_anything=1", "oauth_anything"),
        ("oauth_token", "oauth_token"),
        ("oauth_=1", "oauth_"),
        ("oauth%5Ftoken=EVIL", "oauth%5Ftoken"),
        ("oauth%5ftoken=EVIL", "oauth%5ftoken"),
        ("%6Fauth_token=EVIL", "%6Fauth_token"),
        (
            "%6F%61%75%74%68%5F%74oken=EVIL",
            "%6F%61%75%74%68%5F%74oken",
        ),
        ("OAuth_Token=EVIL", "OAuth_Token"),
        ("OAUTH_VERIFIER=EVIL", "OAUTH_VERIFIER"),
        ("oauth+token=EVIL", "oauth+token"),
        ("oauth%20token=EVIL", "oauth%20token"),
        ("oauth.token=EVIL", "oauth.token"),
        ("oauth[token]=EVIL", "oauth[token]"),
        ("oauth_token[]=EVIL", "oauth_token[]"),
        ("+oauth_token=EVIL", "+oauth_token"),
        ("%20%20oauth_token=EVIL", "%20%20oauth_token"),
        ("state=1;oauth_token=EVIL", "oauth_token"),
        ("&&oauth_token=EVIL", "oauth_token"),
    ];

    #[test]
    fn a_callback_with_a_protocol_parameter_is_refused_and_names_it() {
        let callbacks = callbacks();
        for (query, name) in PROTOCOL_QUERIES {
            for base in ["https://app.example/cb", "https://app.example/hooks/x"] {
                let callback = format!("{base}?{query}");
                let err = callbacks.admit(&callback).unwrap_err();
                assert_eq!(err.reason(), Reason::MalformedRequest, "{callback}");
                assert_eq!(err.status(), 400, "{callback}");
                assert_eq!(
                    err.to_string(),
                    format!(
                        "oauth_callback \"{callback}\" has the query parameter \"{name}\", which reads as a name starting with oauth_: the provider adds oauth_token and oauth_verifier to the callback's query itself (RFC 5849 §2.2), after any of the consumer's; rename the parameter so that it does not start with oauth_"
                    )
                );
                assert!(!callbacks.allows(&callback), "{callback}");
            }
        }
    }

    #[test]
    fn a_callback_whose_query_only_mentions_oauth_is_accepted() {
        let callbacks = callbacks();
        for query in [
            "",
            "state=abc",
            "state=oauth_token",
            "state=a%26oauth_token%3DEVIL",
            "state=x&next=%2Foauth_token",
            "oauth=1",
            "oauthtoken=1",
            "oauth-token=1",
            "xoauth_token=1",
            "my_oauth_token=1",
            "_oauth_token=1",
            "o%61uth=1",
            "&&",
        ] {
            let callback = format!("https://app.example/cb?{query}");
            assert_eq!(callbacks.admit(&callback).unwrap(), callback);
        }
        // A path that says oauth_ is no parameter.
        let callback = "https://app.example/hooks/oauth_token/done?state=1";
        assert_eq!(callbacks.admit(callback).unwrap(), callback);
    }

    #[test]
    fn a_protocol_parameter_cannot_be_registered() {
        for url in [
            "https://app.example/cb?oauth_token=fixed",
            "https://app.example/cb?a=1&oauth%5Fverifier=2",
            "https://app.example/cb?OAuth_State=1",
        ] {
            let err = Callbacks::default().with_url(url).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("the callback \"{url}\" cannot be registered: it has a query parameter that reads as a name starting with oauth_: the provider adds oauth_token and oauth_verifier to the callback's query itself (RFC 5849 §2.2); rename the parameter so that it does not start with oauth_"),
            );
        }
        let fixed = Callbacks::default()
            .with_url("https://app.example/cb?state=fixed")
            .unwrap();
        assert!(fixed.allows("https://app.example/cb?state=fixed"));
    }

    #[test]
    fn any_url_admits_every_absolute_url_and_still_refuses_the_unsafe_ones() {
        let any = Callbacks::none().with_any_url();
        for callback in [
            "http://127.0.0.1:9/cb?state=s%201",
            "https://client.example/callback",
            "myapp://done",
        ] {
            assert!(any.allows(callback), "{callback}");
        }
        for callback in [
            "oob",
            "/relative",
            "javascript:alert(1)",
            "https://client.example/cb#frag",
            "https://client.example/cb?oauth_token=EVIL",
        ] {
            assert!(!any.allows(callback), "{callback}");
        }
        assert!(any.clone().with_oob(true).allows("oob"));
        assert_eq!(any.to_string(), "any absolute URL");
    }

    #[test]
    fn protocol_names_are_read_as_applications_read_them() {
        for name in [
            "oauth_token",
            "OAUTH_x",
            "oAuTh_",
            "oauth x",
            "oauth.x",
            "oauth[x]",
            "  oauth_token",
        ] {
            assert!(is_protocol_name(name), "{name:?}");
        }
        for name in [
            "",
            "oauth",
            "oauth-x",
            "oauthx",
            "xoauth_",
            "\toauth_x",
            "_oauth_",
        ] {
            assert!(!is_protocol_name(name), "{name:?}");
        }
    }
}
