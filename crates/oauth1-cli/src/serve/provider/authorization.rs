//! The authorization endpoint (RFC 5849 §2.2): approved at once, or on a page that asks,
//! whose decision only a POST carrying the page's anti-forgery token makes. A denial is sent
//! back to the callback with `denied`, as providers such as X send it.

use std::sync::PoisonError;

use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::http::request::Parts;
use hyper::StatusCode;
use oauth1_signer::{encode, Nonce};

use super::{field, plain, respond, Answer, Approve, Outcome, Provider};
use crate::terminal::value;

/// Who approves, as the token credentials name their resource owner.
const OWNER: &str = "test-user";
/// The most temporary tokens whose authorization pages wait for their decision
/// (`--approve ask`); past it, they are all forgotten, and their pages must be opened again.
const MAX_FORMS: usize = 10_000;
/// The most pages of one temporary token that stay valid together (the page opened again, in
/// another tab, reloaded); past it, the oldest is forgotten.
const PAGES_PER_TOKEN: usize = 8;

/// What the resource owner decided on the page.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Decision {
    Approve,
    Deny,
}

impl Provider {
    /// `GET /oauth/authorize?oauth_token=…`: approved at once, or a page that asks.
    pub(super) async fn authorize_page(&self, parts: &Parts) -> Answer {
        let query = parts.uri.query().unwrap_or("");
        let Some(token) = field(query.as_bytes(), "oauth_token") else {
            return plain(
                StatusCode::BAD_REQUEST,
                "missing-parameter",
                "no oauth_token in the query: send the resource owner to /oauth/authorize?oauth_token= with the temporary credentials' token (RFC 5849 §2.2)",
            );
        };
        let pending = match self.issuer.pending(&token).await {
            Ok(pending) => pending,
            Err(e) => return plain(StatusCode::BAD_REQUEST, "token-rejected", &e.to_string()),
        };
        if self.approve == Approve::Auto {
            return self.approved(&token).await;
        }
        let Ok(csrf) = Nonce::generate() else {
            return plain(
                StatusCode::INTERNAL_SERVER_ERROR,
                "server-failure",
                "no random numbers for the page's anti-forgery token",
            );
        };
        {
            // Every page shown stays valid until the decision for its token.
            let mut forms = self.forms.lock().unwrap_or_else(PoisonError::into_inner);
            if forms.len() >= MAX_FORMS && !forms.contains_key(&token) {
                forms.clear();
            }
            let pages = forms.entry(token.clone()).or_default();
            if pages.len() >= PAGES_PER_TOKEN {
                pages.remove(0);
            }
            pages.push(csrf.as_str().to_owned());
        }
        let page = format!(
            "<!doctype html><title>Authorize {consumer}</title>\
             <form method=post action=/oauth/authorize>\
             <p><b>{consumer}</b> asks for access (callback: {callback}).</p>\
             <input type=hidden name=oauth_token value=\"{token}\">\
             <input type=hidden name=csrf value=\"{csrf}\">\
             <button name=decision value=approve>Approve</button> \
             <button name=decision value=deny>Deny</button></form>",
            consumer = escape(&pending.consumer_key),
            callback = escape(&pending.callback),
            token = escape(&token),
            csrf = csrf.as_str(),
        );
        let mut response = respond(StatusCode::OK, "text/html; charset=utf-8", page);
        guard(response.headers_mut());
        (
            response,
            Outcome::new(
                "asked",
                Some(format!("for {}", value(&pending.consumer_key))),
            ),
        )
    }

    /// `POST /oauth/authorize` from the page of `--approve ask` (the only mode that routes it
    /// here): approve or deny.
    pub(super) async fn decide(&self, body: &[u8]) -> Answer {
        let token = field(body, "oauth_token").unwrap_or_default();
        let csrf = field(body, "csrf").unwrap_or_default();
        let decision = field(body, "decision");
        let decided = {
            let mut forms = self.forms.lock().unwrap_or_else(PoisonError::into_inner);
            // A forged decision, or one that decides nothing, spends nothing.
            let shown = (forms.get(&token)).is_some_and(|pages| pages.contains(&csrf));
            let decided = match decision.as_deref() {
                Some("approve") => Some(Decision::Approve),
                Some("deny") => Some(Decision::Deny),
                _ => None,
            };
            if shown && decided.is_some() {
                // One decision per token: every page shown for it is spent.
                forms.remove(&token);
            }
            shown.then_some(decided)
        };
        match decided {
            None => plain(
                StatusCode::FORBIDDEN,
                "forged-decision",
                "this decision was not sent from the authorization page: open it again",
            ),
            Some(None) => plain(
                StatusCode::BAD_REQUEST,
                "unknown-decision",
                &format!(
                    "the field decision is {}: send decision=approve or decision=deny, as the page's buttons do; nothing was decided, and the page still holds",
                    decision.map_or("missing".to_owned(), |d| format!("\"{}\"", d.escape_default()))
                ),
            ),
            Some(Some(Decision::Approve)) => self.approved(&token).await,
            Some(Some(Decision::Deny)) => self.denied(&token).await,
        }
    }

    /// The denial of `token`: its temporary credentials are spent unapproved. With a callback,
    /// a redirect to it with `oauth_token` and `denied` (the token again) added to its query,
    /// so that the application learns of it; for `oob`, a page that says so.
    async fn denied(&self, token: &str) -> Answer {
        let pending = match self.issuer.deny(token).await {
            Ok(pending) => pending,
            Err(e) => return plain(StatusCode::BAD_REQUEST, "token-rejected", &e.to_string()),
        };
        if pending.callback == "oob" {
            let mut response = respond(
                StatusCode::OK,
                "text/plain; charset=utf-8",
                "Denied: these temporary credentials are spent unapproved, and the application's token request will be refused (token_rejected).\n".to_owned(),
            );
            guard(response.headers_mut());
            return (response, Outcome::new("denied", None));
        }
        let mut url = pending.callback;
        url.push(if url.contains('?') { '&' } else { '?' });
        url.push_str("oauth_token=");
        encode::encode(token.as_bytes()).append_to(&mut url);
        url.push_str("&denied=");
        encode::encode(token.as_bytes()).append_to(&mut url);
        let mut response = respond(
            StatusCode::FOUND,
            "text/plain; charset=utf-8",
            String::new(),
        );
        if let Ok(location) = HeaderValue::from_str(&url) {
            response.headers_mut().insert(header::LOCATION, location);
        }
        guard(response.headers_mut());
        let detail = Some("redirected to the callback with denied".to_owned());
        (response, Outcome::new("denied", detail))
    }

    /// The approval of `token`: a redirect to the callback, or the verifier for `oob`.
    async fn approved(&self, token: &str) -> Answer {
        let approved = match self.issuer.approve(token, OWNER).await {
            Ok(approved) => approved,
            Err(e) => return plain(StatusCode::BAD_REQUEST, "token-rejected", &e.to_string()),
        };
        // The verifier stays off the terminal and the log: with the temporary credentials, it
        // gets token credentials. The browser has it (the redirect, or the oob page).
        if let Some(redirect) = approved.redirect() {
            let mut response = respond(
                StatusCode::FOUND,
                "text/plain; charset=utf-8",
                String::new(),
            );
            if let Ok(location) = HeaderValue::from_str(redirect) {
                response.headers_mut().insert(header::LOCATION, location);
            }
            guard(response.headers_mut());
            let detail = Some("redirected to the callback with oauth_verifier".to_owned());
            return (response, Outcome::new("approved", detail));
        }
        let mut response = respond(
            StatusCode::OK,
            "text/plain; charset=utf-8",
            format!(
                "Approved. Type this verifier into the application:\noauth_verifier={}\n",
                approved.verifier()
            ),
        );
        guard(response.headers_mut());
        let detail = Some("oauth_verifier shown on the page (oob)".to_owned());
        (response, Outcome::new("approved", detail))
    }
}

/// The headers of the authorization answers ([`AUTHORIZATION_PAGE_HEADERS`]).
///
/// [`AUTHORIZATION_PAGE_HEADERS`]: oauth1_server::AUTHORIZATION_PAGE_HEADERS
fn guard(headers: &mut HeaderMap) {
    for (name, value) in oauth1_server::AUTHORIZATION_PAGE_HEADERS {
        headers.insert(
            header::HeaderName::from_static(name),
            HeaderValue::from_static(value),
        );
    }
}

/// Text for an HTML page.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
