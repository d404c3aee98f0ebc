//! The authorization endpoint (RFC 5849 §2.2): approved at once, or on a page that asks,
//! whose decision only a POST carrying the page's anti-forgery token makes.

use std::sync::PoisonError;

use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::http::request::Parts;
use hyper::StatusCode;
use oauth1_signer::Nonce;

use super::{field, plain, plain_as, respond, Answer, Approve, Outcome, Provider};
use crate::terminal::value;

/// Who approves, as the token credentials name their resource owner.
const OWNER: &str = "test-user";
/// The most authorization pages waiting for their decision (`--approve ask`); past it, the
/// oldest are forgotten.
const MAX_FORMS: usize = 10_000;

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
            let mut forms = self.forms.lock().unwrap_or_else(PoisonError::into_inner);
            if forms.len() >= MAX_FORMS {
                forms.clear();
            }
            forms.insert(token.clone(), csrf.as_str().to_owned());
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
        let shown = {
            let mut forms = self.forms.lock().unwrap_or_else(PoisonError::into_inner);
            // One decision per page shown; a forged one spends nothing.
            let matches = forms.get(&token).is_some_and(|expected| *expected == csrf);
            matches.then(|| forms.remove(&token))
        };
        if shown.is_none() {
            return plain(
                StatusCode::FORBIDDEN,
                "forged-decision",
                "this decision was not sent from the authorization page: open it again",
            );
        }
        if field(body, "decision").as_deref() == Some("approve") {
            return self.approved(&token).await;
        }
        plain_as(
            StatusCode::OK,
            "denied",
            "Denied: these temporary credentials stay unapproved, and the application's token request will be refused (permission_unknown).",
        )
    }

    /// The approval of `token`: a redirect to the callback, or the verifier for `oob`.
    async fn approved(&self, token: &str) -> Answer {
        let approved = match self.issuer.approve(token, OWNER).await {
            Ok(approved) => approved,
            Err(e) => return plain(StatusCode::BAD_REQUEST, "token-rejected", &e.to_string()),
        };
        let detail = Some(format!("oauth_verifier {}", value(approved.verifier())));
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
        (response, Outcome::new("approved", detail))
    }
}

/// The headers of the authorization answers: not framed by other sites, no script, forms
/// posted only here, the URL (with its token) neither cached nor sent on as a referrer.
fn guard(headers: &mut HeaderMap) {
    for (name, value) in [
        (header::X_FRAME_OPTIONS, "DENY"),
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'none'; form-action 'self'; frame-ancestors 'none'",
        ),
        (header::CACHE_CONTROL, "no-store"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
}

/// Text for an HTML page.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
