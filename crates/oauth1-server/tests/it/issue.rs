//! The provider's side of the three-legged flow (`verify::Issuer`): this crate's client
//! (`flow`) through every step, and every request the provider must refuse.

use std::sync::Arc;

use crate::common::At;
use oauth1_server::{
    AuthorizeError, Callbacks, ConsumerCredential, Issuer, MemoryCredentials, MemoryNonceStore,
    MemoryTemporaryStore, Reason, TokenKind, Verifier, VerifyError, WithTemporary,
};
use oauth1_signer::flow::{Callback, TemporaryCredentials, TokenCredentials};
use oauth1_signer::{Consumer, Nonce, Request, Signer, Timestamp, Token};

type Provider = Issuer<MemoryCredentials, MemoryNonceStore, MemoryTemporaryStore>;

const CK: &str = "consumer-key";
const CS: &str = "consumer secret";
const TEMPORARY_URL: &str = "https://provider.example/oauth/request_token";
const TOKEN_URL: &str = "https://provider.example/oauth/access_token";
const RESOURCE_URL: &str = "https://provider.example/photos?size=original";
const CALLBACK: &str = "https://client.example/done?state=x%20y";

/// The consumer registered `https://client.example/done` (any query), URLs under
/// `https://client.example/hooks/`, and `oob`.
fn provider() -> Provider {
    let callbacks = Callbacks::default()
        .with_url("https://client.example/done")
        .unwrap()
        .with_prefix("https://client.example/hooks/")
        .unwrap();
    provider_with(ConsumerCredential::from_secret(CS).with_callbacks(callbacks))
}

fn provider_with(consumer: ConsumerCredential) -> Provider {
    let mut credentials = MemoryCredentials::new();
    credentials.insert_consumer(CK, consumer);
    credentials.add_token(CK, "old-access", "old-secret");
    let store = WithTemporary::new(credentials, MemoryTemporaryStore::new());
    Issuer::new(Verifier::new(store, MemoryNonceStore::new()))
}

/// The temporary credential request with `callback`, as the provider answers it.
async fn ask(provider: &Provider, callback: &str) -> Result<String, VerifyError> {
    let request = Request::new("POST", TEMPORARY_URL)
        .unwrap()
        .with_callback(callback);
    let issued = provider
        .temporary_credentials(&request, Some(&header(&consumer(), &request)))
        .await?;
    Ok(provider.pending(issued.token()).await.unwrap().callback)
}

fn consumer() -> Signer {
    Signer::new(Consumer::new(CK, CS))
}

fn now() -> Timestamp {
    Timestamp::now().unwrap()
}

/// Signs `request` with `signer` now, with a fresh nonce.
fn header(signer: &Signer, request: &Request<'_>) -> String {
    signer.sign_now(request).unwrap().authorization()
}

async fn temporary(provider: &Provider, callback: &str) -> TemporaryCredentials {
    let request = Request::new("POST", TEMPORARY_URL)
        .unwrap()
        .with_callback(callback);
    let issued = provider
        .temporary_credentials(&request, Some(&header(&consumer(), &request)))
        .await
        .unwrap();
    assert_eq!(issued.credential().kind(), TokenKind::Temporary);
    assert_eq!(issued.consumer_key(), CK);
    // The client reads the answer as a client must (oauth_callback_confirmed required).
    TemporaryCredentials::parse(issued.body().as_bytes()).unwrap()
}

async fn exchange(
    provider: &Provider,
    temporary: &TemporaryCredentials,
    verifier: &str,
) -> Result<TokenCredentials, VerifyError> {
    let request = Request::new("POST", TOKEN_URL)
        .unwrap()
        .with_verifier(verifier);
    let signer = consumer().with_token(temporary.token().clone());
    let issued = provider
        .token_credentials(&request, Some(&header(&signer, &request)))
        .await?;
    assert_eq!(issued.credential().kind(), TokenKind::Access);
    Ok(TokenCredentials::parse(issued.body().as_bytes()).unwrap())
}

fn reason<T: std::fmt::Debug>(result: Result<T, VerifyError>) -> Reason {
    result.expect_err("must be refused").reason()
}

#[tokio::test]
async fn the_whole_flow_gives_token_credentials_that_name_their_owner() {
    let provider = provider();
    let temporary = temporary(&provider, CALLBACK).await;

    // The authorization page learns who asks, and the owner approves.
    let token = temporary.token().key().to_owned();
    let pending = provider.pending(&token).await.unwrap();
    assert_eq!(
        (pending.consumer_key.as_str(), pending.callback.as_str()),
        (CK, CALLBACK)
    );
    let approved = provider.approve(&token, "alice").await.unwrap();
    let redirect = url::Url::parse(approved.redirect().unwrap()).unwrap();
    assert!(redirect
        .as_str()
        .starts_with("https://client.example/done?state=x%20y&oauth_token="));
    // The client's side of the callback: its token checked, its verifier read.
    let callback = Callback::parse(redirect.query().unwrap(), &temporary).unwrap();
    assert_eq!(callback.verifier(), approved.verifier());
    assert_eq!(approved.verifier().len(), 32);

    let credentials = exchange(&provider, &temporary, callback.verifier())
        .await
        .unwrap();
    assert_ne!(credentials.token().key(), token);

    // A resource request with them verifies, and says whose resources it may see.
    let request = Request::new("GET", RESOURCE_URL).unwrap();
    let signer = consumer().with_token(credentials.token().clone());
    let verified = provider
        .verifier()
        .verify(&request, Some(&header(&signer, &request)))
        .await
        .unwrap();
    assert_eq!(verified.token(), Some(credentials.token().key()));
    assert_eq!(verified.resource_owner(), Some("alice"));
    // Tokens the application added itself have no owner the store knows.
    let old = consumer().with_token(Token::new("old-access", "old-secret"));
    let verified = provider
        .verifier()
        .verify(&request, Some(&header(&old, &request)))
        .await
        .unwrap();
    assert_eq!(verified.resource_owner(), None);
}

#[tokio::test]
async fn tokens_are_refused_where_their_kind_does_not_belong() {
    let provider = provider();
    let temporary = temporary(&provider, "oob").await;

    // A resource request signed with temporary credentials: authentic, and refused for it.
    let request = Request::new("GET", RESOURCE_URL).unwrap();
    let signer = consumer().with_token(temporary.token().clone());
    let err = provider
        .verifier()
        .verify(&request, Some(&header(&signer, &request)))
        .await
        .unwrap_err();
    assert_eq!(err.reason(), Reason::TokenRejected);
    assert_eq!(err.status(), 401);
    let problem = err.problem().unwrap();
    assert_eq!(problem.name(), "token_rejected");
    assert_eq!(
        err.to_string(),
        "the token is a temporary credential, which only the token request may be signed with: exchange it for token credentials (RFC 5849 section 2.3) and sign with those"
    );
    // Forged with a wrong secret, it is only a bad signature: nothing is said about the token.
    let forged = consumer().with_token(Token::new(temporary.token().key(), "guess"));
    assert_eq!(
        reason(
            provider
                .verifier()
                .verify(&request, Some(&header(&forged, &request)))
                .await
        ),
        Reason::BadSignature
    );

    // A token request signed with token credentials.
    let request = Request::new("POST", TOKEN_URL)
        .unwrap()
        .with_verifier("whatever");
    let signer = consumer().with_token(Token::new("old-access", "old-secret"));
    let err = provider
        .token_credentials(&request, Some(&header(&signer, &request)))
        .await
        .unwrap_err();
    assert_eq!(err.reason(), Reason::TokenRejected);
    assert_eq!(
        err.to_string(),
        "the token request is signed with token credentials: sign it with the temporary credentials it exchanges"
    );

    // A temporary credential request signed with a token.
    let request = Request::new("POST", TEMPORARY_URL)
        .unwrap()
        .with_callback("oob");
    let err = provider
        .temporary_credentials(&request, Some(&header(&signer, &request)))
        .await
        .unwrap_err();
    assert_eq!(err.reason(), Reason::TokenRejected);
}

#[tokio::test]
async fn the_requests_need_their_own_parameters() {
    let provider = provider();
    let request = Request::new("POST", TEMPORARY_URL).unwrap();
    let err = provider
        .temporary_credentials(&request, Some(&header(&consumer(), &request)))
        .await
        .unwrap_err();
    assert_eq!(err.reason(), Reason::MissingParameter);
    assert_eq!(err.to_string(), "missing oauth_callback");

    for (callback, why) in [
        ("/relative", "is not an absolute URL"),
        (
            "javascript:alert(1)",
            "has a scheme a browser must not be sent to",
        ),
        (
            "data:text/html,hi",
            "has a scheme a browser must not be sent to",
        ),
        (
            "https://client.example/#frag",
            "has a fragment, which would hide the verifier added to its query",
        ),
    ] {
        let request = Request::new("POST", TEMPORARY_URL)
            .unwrap()
            .with_callback(callback);
        let err = provider
            .temporary_credentials(&request, Some(&header(&consumer(), &request)))
            .await
            .unwrap_err();
        assert_eq!(err.reason(), Reason::MalformedRequest, "{callback}");
        assert_eq!(
            err.to_string(),
            format!("oauth_callback \"{callback}\" {why}: send an absolute URL, or oob when the consumer cannot receive a callback")
        );
    }

    // The token request without a verifier.
    let temporary = temporary(&provider, "oob").await;
    let request = Request::new("POST", TOKEN_URL).unwrap();
    let signer = consumer().with_token(temporary.token().clone());
    let err = provider
        .token_credentials(&request, Some(&header(&signer, &request)))
        .await
        .unwrap_err();
    assert_eq!(err.to_string(), "missing oauth_verifier");
    // Nor without a token.
    let request = Request::new("POST", TOKEN_URL).unwrap().with_verifier("v");
    let err = provider
        .token_credentials(&request, Some(&header(&consumer(), &request)))
        .await
        .unwrap_err();
    assert_eq!(err.to_string(), "missing oauth_token");
}

#[tokio::test]
async fn temporary_credentials_are_exchanged_once_and_only_once_approved() {
    let provider = provider();
    let temporary = temporary(&provider, "oob").await;
    let token = temporary.token().key().to_owned();

    // Before approval: refused, and the temporary credentials stay.
    let err = exchange(&provider, &temporary, "early").await.unwrap_err();
    assert_eq!(err.reason(), Reason::TokenNotAuthorized);
    assert_eq!(err.problem().unwrap().name(), "permission_unknown");

    let approved = provider.approve(&token, "bob").await.unwrap();
    assert!(approved.redirect().is_none(), "oob: the verifier is shown");
    assert!(matches!(
        provider.approve(&token, "mallory").await,
        Err(AuthorizeError::AlreadyApproved)
    ));
    assert!(matches!(
        provider.pending(&token).await,
        Err(AuthorizeError::AlreadyApproved)
    ));

    let credentials = exchange(&provider, &temporary, approved.verifier())
        .await
        .unwrap();
    assert!(credentials.extra().next().is_none());
    // Exchanged: they are void, for the token request and for the authorization page.
    assert_eq!(
        reason(exchange(&provider, &temporary, approved.verifier()).await),
        Reason::BadSignature
    );
    assert!(matches!(
        provider.pending(&token).await,
        Err(AuthorizeError::UnknownToken)
    ));
}

/// The resource owner says no: the temporary credentials are spent, unapproved; no page
/// approves them after it and the consumer cannot exchange them. Approved ones cannot be
/// denied.
#[tokio::test]
async fn a_denial_spends_the_temporary_credentials() {
    let provider = provider();
    let temporary = temporary(&provider, CALLBACK).await;
    let token = temporary.token().key().to_owned();
    let denied = provider.deny(&token).await.unwrap();
    assert_eq!(denied.consumer_key, CK);
    assert_eq!(denied.callback, CALLBACK);
    for after in [
        provider.pending(&token).await.map(|_| ()),
        provider.approve(&token, "bob").await.map(|_| ()),
        provider.deny(&token).await.map(|_| ()),
    ] {
        assert!(
            matches!(after, Err(AuthorizeError::UnknownToken)),
            "{after:?}"
        );
    }
    assert_eq!(
        reason(exchange(&provider, &temporary, "any").await),
        Reason::BadSignature
    );

    let temporary = self::temporary(&provider, "oob").await;
    let token = temporary.token().key().to_owned();
    let approved = provider.approve(&token, "bob").await.unwrap();
    assert!(matches!(
        provider.deny(&token).await,
        Err(AuthorizeError::AlreadyApproved)
    ));
    exchange(&provider, &temporary, approved.verifier())
        .await
        .unwrap();
}

#[tokio::test]
async fn a_wrong_verifier_voids_the_temporary_credentials() {
    let provider = provider();
    let temporary = temporary(&provider, CALLBACK).await;
    let approved = provider
        .approve(temporary.token().key(), "carol")
        .await
        .unwrap();
    let mut wrong = approved.verifier().to_owned();
    wrong.replace_range(..1, if wrong.starts_with('A') { "B" } else { "A" });
    let err = exchange(&provider, &temporary, &wrong).await.unwrap_err();
    assert_eq!(err.reason(), Reason::VerifierInvalid);
    assert_eq!(err.problem().unwrap().name(), "verifier_invalid");
    // No second guess: the right verifier comes too late.
    assert_eq!(
        reason(exchange(&provider, &temporary, approved.verifier()).await),
        Reason::BadSignature
    );
}

#[tokio::test]
async fn two_exchanges_of_the_same_credentials_give_one_token() {
    let provider = Arc::new(provider());
    let temporary = temporary(&provider, "oob").await;
    let approved = provider
        .approve(temporary.token().key(), "dave")
        .await
        .unwrap();
    let (a, b) = tokio::join!(
        exchange(&provider, &temporary, approved.verifier()),
        exchange(&provider, &temporary, approved.verifier())
    );
    assert_eq!(
        usize::from(a.is_ok()) + usize::from(b.is_ok()),
        1,
        "{a:?} {b:?}"
    );
}

#[tokio::test]
async fn expired_temporary_credentials_are_refused() {
    let mut credentials = MemoryCredentials::new();
    credentials.add_consumer(CK, CS);
    let store = WithTemporary::new(credentials, MemoryTemporaryStore::new());
    let provider = Issuer::new(Verifier::new(store, MemoryNonceStore::new())).with_lifetime(60);
    let temporary = temporary(&provider, "oob").await;
    let approved = provider
        .approve(temporary.token().key(), "erin")
        .await
        .unwrap();
    // The token request two minutes later, signed then.
    let later = Timestamp::new(now().as_secs() + 120);
    let request = Request::new("POST", TOKEN_URL)
        .unwrap()
        .with_verifier(approved.verifier());
    let signed = consumer()
        .with_token(temporary.token().clone())
        .sign(&request, &Nonce::generate().unwrap(), later)
        .unwrap()
        .authorization();
    let err = provider
        .at(later)
        .token_credentials(&request, Some(&signed))
        .await
        .unwrap_err();
    assert_eq!(err.reason(), Reason::TokenExpired);
    assert_eq!(err.problem().unwrap().name(), "token_expired");
}

#[tokio::test]
async fn the_authorization_page_refuses_what_it_cannot_approve() {
    let provider = provider();
    assert!(matches!(
        provider.pending("no-such-token").await,
        Err(AuthorizeError::UnknownToken)
    ));
    let err = provider.approve("no-such-token", "x").await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "no such temporary credentials: the link is wrong, or they were used already; start again from the application"
    );
    // Expired before approval.
    let mut credentials = MemoryCredentials::new();
    credentials.add_consumer(CK, CS);
    let store = WithTemporary::new(credentials, MemoryTemporaryStore::new());
    let provider = Issuer::new(Verifier::new(store, MemoryNonceStore::new()));
    let request = Request::new("POST", TEMPORARY_URL)
        .unwrap()
        .with_callback("oob");
    let past = Timestamp::new(now().as_secs() - 700);
    let signed = consumer()
        .sign(&request, &Nonce::generate().unwrap(), past)
        .unwrap()
        .authorization();
    let issued = provider
        .at(past)
        .temporary_credentials(&request, Some(&signed))
        .await
        .unwrap();
    // Approved now, 700 seconds later: the provider reads the verifier's clock.
    assert!(matches!(
        provider.at(now()).approve(issued.token(), "x").await,
        Err(AuthorizeError::Expired)
    ));
}

#[test]
fn issued_credentials_never_show_their_secrets() {
    let provider = provider();
    let request = Request::new("POST", TEMPORARY_URL)
        .unwrap()
        .with_callback("oob");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let issued = runtime
        .block_on(provider.temporary_credentials(&request, Some(&header(&consumer(), &request))))
        .unwrap();
    let secret = std::str::from_utf8(issued.credential().secret().expose())
        .unwrap()
        .to_owned();
    let approved = runtime
        .block_on(provider.approve(issued.token(), "frank"))
        .unwrap();
    for shown in [format!("{issued:?}"), format!("{approved:?}")] {
        assert!(!shown.contains(&secret), "{shown}");
        assert!(!shown.contains(approved.verifier()), "{shown}");
    }
    let record = runtime
        .block_on(oauth1_server::TemporaryStore::get(
            provider.verifier().credentials().temporary(),
            issued.token(),
        ))
        .unwrap()
        .unwrap();
    let shown = format!("{record:?}");
    assert!(
        !shown.contains(&secret) && !shown.contains(approved.verifier()),
        "{shown}"
    );
}

/// A consumer's secret may be public (shipped in an app): with it, anyone can start a flow
/// under the application's name. The provider sends the verifier only to a callback the
/// consumer registered.
#[tokio::test]
async fn a_callback_the_consumer_did_not_register_is_refused() {
    let provider = provider();
    let err = ask(&provider, "https://evil.example/steal")
        .await
        .unwrap_err();
    assert_eq!(err.reason(), Reason::CallbackRejected);
    assert_eq!(err.reason().as_str(), "callback-rejected");
    assert_eq!(err.status(), 400);
    assert_eq!(
        err.to_string(),
        "oauth_callback \"https://evil.example/steal\" is not registered for this consumer, which may use https://client.example/done (any query), URLs starting with https://client.example/hooks/ or oob: send one of them, or register this one with the provider"
    );
    let problem = err.problem().unwrap();
    assert_eq!(problem.name(), "parameter_rejected");
    assert!(problem
        .to_urlencoded()
        .starts_with("oauth_problem=parameter_rejected&oauth_parameters_rejected=oauth_callback&oauth_problem_advice="));

    // Ways out of what is registered, compared as a browser reads them.
    for callback in [
        "https://client.example/done/more",
        "https://client.example/donex",
        "https://client.example/hooks",
        "https://client.example/hooksevil/x",
        "https://client.example/hooks/../admin",
        "https://client.example/hooks/%2e%2e/admin",
        "https://client.example/hooks\\..\\admin",
        "https://client.example/hooks%2F..%2Fadmin",
        "https://client.example.evil.example/hooks/x",
        "https://client.example@evil.example/hooks/x",
        "https://client.example:8443/hooks/x",
        "http://client.example/hooks/x",
    ] {
        let err = ask(&provider, callback).await.unwrap_err();
        assert_eq!(err.reason(), Reason::CallbackRejected, "{callback}");
    }

    // What is registered, recorded as the browser will read it.
    for (callback, recorded) in [
        ("https://client.example/done", "https://client.example/done"),
        (
            "https://client.example/done?state=a%20b",
            "https://client.example/done?state=a%20b",
        ),
        (
            "https://client.example/hooks/flow?user=1",
            "https://client.example/hooks/flow?user=1",
        ),
        (
            "HTTPS://Client.Example:443/hooks/a/../b",
            "https://client.example/hooks/b",
        ),
        ("oob", "oob"),
    ] {
        assert_eq!(
            ask(&provider, callback).await.unwrap(),
            recorded,
            "{callback}"
        );
    }
}

#[tokio::test]
async fn a_consumer_without_registered_callbacks_may_use_only_oob() {
    let mut credentials = MemoryCredentials::new();
    credentials.add_consumer(CK, CS);
    let store = WithTemporary::new(credentials, MemoryTemporaryStore::new());
    let provider = Issuer::new(Verifier::new(store, MemoryNonceStore::new()));
    let err = ask(&provider, CALLBACK).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("oauth_callback \"{CALLBACK}\" is not registered for this consumer, which has no callback URL registered and may use only oob: register the callback with the provider, or send oob")
    );
    assert_eq!(ask(&provider, "oob").await.unwrap(), "oob");

    // Nothing at all, not even oob.
    let provider =
        provider_with(ConsumerCredential::from_secret(CS).with_callbacks(Callbacks::none()));
    let err = ask(&provider, "oob").await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "oauth_callback \"oob\" is not registered for this consumer, which has no callback registered, not even oob: register one with the provider"
    );
    // And oob refused beside a registered URL.
    let callbacks = Callbacks::default()
        .with_url("https://client.example/done?fixed=1")
        .unwrap()
        .with_oob(false);
    let provider = provider_with(ConsumerCredential::from_secret(CS).with_callbacks(callbacks));
    assert_eq!(
        ask(&provider, "oob").await.unwrap_err().reason(),
        Reason::CallbackRejected
    );
    // A registered URL with a query matches only itself.
    assert!(ask(&provider, "https://client.example/done?fixed=1")
        .await
        .is_ok());
    assert!(ask(&provider, "https://client.example/done?fixed=2")
        .await
        .is_err());
    assert!(ask(&provider, "https://client.example/done").await.is_err());
}

/// The approval redirects to the callback recorded at the first step, with the token and the
/// verifier; nothing at approval can change where.
#[tokio::test]
async fn the_approval_redirects_to_the_callback_recorded_at_the_first_step() {
    let provider = provider();
    let temporary = temporary(&provider, "HTTPS://Client.Example/hooks/a/../b?x=1").await;
    let approved = provider
        .approve(temporary.token().key(), "alice")
        .await
        .unwrap();
    let redirect = approved.redirect().unwrap();
    let expected = format!(
        "https://client.example/hooks/b?x=1&oauth_token={}&oauth_verifier={}",
        temporary.token().key(),
        approved.verifier()
    );
    assert_eq!(redirect, expected);
}

/// The provider adds `oauth_token` and `oauth_verifier` to the callback's query (§2.2). A
/// consumer that put its own there first would have the callback's application read its
/// `oauth_token` or the provider's, as its framework picks the first or the last: a callback
/// whose query has a parameter read as `oauth_…` is refused, however it is spelled.
#[tokio::test]
async fn a_callback_carrying_protocol_parameters_is_refused() {
    let provider = provider();
    for callback in [
        "https://client.example/done?oauth_verifier=EVIL&oauth_token=EVILTOK",
        "https://client.example/done?state=1&oauth_token=EVILTOK",
        "https://client.example/hooks/flow?oauth_verifier=EVIL",
        "https://client.example/done?oauth_callback_confirmed=true",
        "https://client.example/done?oauth%5Ftoken=EVILTOK",
        "https://client.example/done?%6Fauth_token=EVILTOK",
        "https://client.example/done?OAuth_Token=EVILTOK",
        "https://client.example/done?oauth+token=EVILTOK",
        "https://client.example/done?oauth.verifier=EVIL",
        "https://client.example/done?state=1;oauth_token=EVILTOK",
    ] {
        let err = ask(&provider, callback).await.unwrap_err();
        assert_eq!(err.reason(), Reason::MalformedRequest, "{callback}");
        assert_eq!(err.status(), 400, "{callback}");
        assert_eq!(
            err.problem().unwrap().name(),
            "parameter_rejected",
            "{callback}"
        );
        let message = err.to_string();
        assert!(
            message.starts_with(&format!(
                "oauth_callback \"{callback}\" has the query parameter \""
            )),
            "{message}"
        );
        assert!(
            message.ends_with("which reads as a name starting with oauth_: the provider adds oauth_token and oauth_verifier to the callback's query itself (RFC 5849 §2.2), after any of the consumer's; rename the parameter so that it does not start with oauth_"),
            "{message}"
        );
    }
    let err = ask(
        &provider,
        "https://client.example/done?state=1&oauth%5Ftoken=EVILTOK",
    )
    .await
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "oauth_callback \"https://client.example/done?state=1&oauth%5Ftoken=EVILTOK\" has the query parameter \"oauth%5Ftoken\", which reads as a name starting with oauth_: the provider adds oauth_token and oauth_verifier to the callback's query itself (RFC 5849 §2.2), after any of the consumer's; rename the parameter so that it does not start with oauth_"
    );

    // A query of the consumer's own, even one whose values mention oauth_, is accepted, and
    // its redirect carries exactly one oauth_token and one oauth_verifier: the provider's.
    let callback = "https://client.example/done?state=oauth_token&next=%2Foauth_verifier%3Dx";
    let temporary = temporary(&provider, callback).await;
    let approved = provider
        .approve(temporary.token().key(), "alice")
        .await
        .unwrap();
    let redirect = url::Url::parse(approved.redirect().unwrap()).unwrap();
    let query = redirect.query().unwrap().replace(';', "&");
    let protocol: Vec<(String, String)> = url::form_urlencoded::parse(query.as_bytes())
        .filter(|(name, _)| name.trim_start().to_ascii_lowercase().starts_with("oauth"))
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect();
    assert_eq!(
        protocol,
        [
            ("oauth_token".to_owned(), temporary.token().key().to_owned()),
            ("oauth_verifier".to_owned(), approved.verifier().to_owned()),
        ]
    );
    assert_eq!(
        redirect.as_str(),
        format!(
            "{callback}&oauth_token={}&oauth_verifier={}",
            temporary.token().key(),
            approved.verifier()
        )
    );
    // The consumer reads the provider's, as a client must.
    let read = Callback::parse(redirect.query().unwrap(), &temporary).unwrap();
    assert_eq!(read.verifier(), approved.verifier());
}

#[test]
fn callbacks_that_cannot_be_registered_say_why() {
    for (registered, prefix, message) in [
        (
            "https://client.example/oauth",
            true,
            "the callback \"https://client.example/oauth\" cannot be registered: it is not a prefix: its path must end with '/' and it has no query (https://app.example.com/oauth would also match https://app.example.com/oauth-evil)",
        ),
        (
            "https://client.example/oauth/?a=1",
            true,
            "the callback \"https://client.example/oauth/?a=1\" cannot be registered: it is not a prefix: its path must end with '/' and it has no query (https://app.example.com/oauth would also match https://app.example.com/oauth-evil)",
        ),
        (
            "javascript:alert(1)",
            false,
            "the callback \"javascript:alert(1)\" cannot be registered: it has a scheme a browser must not be sent to",
        ),
        (
            "/done",
            false,
            "the callback \"/done\" cannot be registered: it is not an absolute URL",
        ),
        (
            "https://client.example/done#x",
            false,
            "the callback \"https://client.example/done#x\" cannot be registered: it has a fragment, which would hide the verifier added to its query",
        ),
    ] {
        let result = if prefix {
            Callbacks::default().with_prefix(registered)
        } else {
            Callbacks::default().with_url(registered)
        };
        assert_eq!(result.unwrap_err().to_string(), message, "{registered}");
    }
    // A custom scheme, as mobile apps register.
    let callbacks = Callbacks::default().with_url("myapp://oauth/done").unwrap();
    assert!(callbacks.allows("myapp://oauth/done?state=1"));
    assert!(!callbacks.allows("myapp://oauth/other"));
}

/// Given the headers it received, the issuer's diagnosis names the origin a client signed for
/// at each endpoint, as the resource verifier's does; without them (or with the diagnosis
/// off) it cannot.
#[tokio::test]
async fn the_endpoints_name_the_origin_a_client_signed_for_from_its_headers() {
    let mut credentials = MemoryCredentials::new();
    credentials.insert_consumer(
        CK,
        ConsumerCredential::from_secret(CS).with_callbacks(Callbacks::default()),
    );
    credentials.add_token(CK, "access", "access secret");
    let store = WithTemporary::new(credentials, MemoryTemporaryStore::new());
    let provider = Issuer::new(Verifier::new(store, MemoryNonceStore::new()).with_diagnosis(100));
    let served = "http://127.0.0.1:8080";
    let client_origin = "http://localhost:8080";
    let headers = [("host", "localhost:8080")];
    let said = |e: VerifyError| {
        assert_eq!(e.reason(), Reason::BadSignature);
        e.to_string()
    };
    let names_it = |text: &str, path: &str| {
        text.contains(&format!(
            "the client signed this request for {client_origin}{path} (the Host header it sent), and this server verifies it as {served}{path}"
        ))
    };

    // The temporary credential request.
    let at = |origin: &str, path: &str| {
        Request::new("POST", &format!("{origin}{path}"))
            .unwrap()
            .with_callback("oob")
    };
    let path = "/oauth/request_token";
    let sent = header(&consumer(), &at(client_origin, path));
    let e = provider
        .temporary_credentials_with_headers(&at(served, path), Some(&sent), &headers)
        .await
        .unwrap_err();
    assert!(names_it(&said(e), path));
    // Without the headers, the same request is not told which origin.
    let sent = header(&consumer(), &at(client_origin, path));
    let e = provider
        .temporary_credentials(&at(served, path), Some(&sent))
        .await
        .unwrap_err();
    assert!(!said(e).contains("the client signed this request for"));

    // The token request, for temporary credentials issued and approved.
    let path = "/oauth/request_token";
    let request = at(served, path);
    let issued = provider
        .temporary_credentials(&request, Some(&header(&consumer(), &request)))
        .await
        .unwrap();
    let verifier = provider.approve(issued.token(), "alice").await.unwrap();
    let path = "/oauth/access_token";
    let signer = consumer().with_token(Token::new(
        issued.token(),
        issued.credential().secret().clone(),
    ));
    let sign_for = |origin: &str| {
        let request = Request::new("POST", &format!("{origin}{path}"))
            .unwrap()
            .with_verifier(verifier.verifier());
        header(&signer, &request)
    };
    let request = Request::new("POST", &format!("{served}{path}"))
        .unwrap()
        .with_verifier(verifier.verifier());
    let e = provider
        .token_credentials_with_headers(&request, Some(&sign_for(client_origin)), &headers)
        .await
        .unwrap_err();
    assert!(names_it(&said(e), path));

    // A resource request.
    let path = "/photos?size=original";
    let signer = consumer().with_token(Token::new("access", "access secret"));
    let sent = header(
        &signer,
        &Request::new("GET", &format!("{client_origin}{path}")).unwrap(),
    );
    let request = Request::new("GET", &format!("{served}{path}")).unwrap();
    let e = provider
        .verifier()
        .verify_with_headers(&request, Some(&sent), &headers)
        .await
        .unwrap_err();
    assert!(names_it(&said(e), path));
}
