//! Provider profiles through the library: each signs as its provider's rules say, and refuses
//! what the provider cannot take with a reason. Expected values come from the providers'
//! published examples, RFC 5849's definitions, the Python standard library (digests and HMACs)
//! and WooCommerce's check as `scripts/interop_peers/woocommerce_server.py` re-states it.

use oauth1_signer::profile::{Profile, TokenRule};
use oauth1_signer::{Consumer, Error, Nonce, Realm, Request, Signer, Timestamp, Token, Transport};

fn profile(name: &str) -> &'static Profile {
    Profile::named(name).unwrap()
}

fn sign(profile: &Profile, signer: &Signer, request: &Request<'_>) -> Result<String, Error> {
    let nonce = Nonce::new("n").unwrap();
    let out = profile.sign(signer, request, &nonce, Timestamp::new(1_700_000_000))?;
    Ok(format!(
        "{}\n{}\n{}",
        out.base_string(),
        out.signature().as_str(),
        out.authorization()
    ))
}

fn refusal(result: Result<String, Error>) -> String {
    match result {
        Err(e @ Error::RefusedByProfile { .. }) => e.to_string(),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn x_signs_its_published_example() {
    let x = profile("x");
    let signer = x
        .signer(Consumer::new(
            "xvz1evFS4wEEPTGEFPHBog",
            "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
        ))
        .with_token(Token::new(
            "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
            "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
        ));
    let request = Request::new(
        "POST",
        "https://api.twitter.com/1.1/statuses/update.json?include_entities=true",
    )
    .unwrap()
    .with_form_body(
        b"status=Hello%20Ladies%20%2B%20Gentlemen%2C%20a%20signed%20OAuth%20request%21",
    );
    let nonce = Nonce::new("kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg").unwrap();
    let out = x
        .sign(&signer, &request, &nonce, Timestamp::new(1_318_622_958))
        .unwrap();
    assert_eq!(out.signature().as_str(), "hCtSmYh+iHYCEqBWrE7C7hYmtUk=");
    assert_eq!(Profile::for_host("api.x.com"), Some(x));
}

#[test]
fn discogs_signs_plaintext_over_https_only() {
    let discogs = profile("discogs");
    let signer = discogs
        .signer(Consumer::new("ck", "cs+"))
        .with_token(Token::new("tk", "ts&"));
    let request = Request::new("GET", "https://api.discogs.com/oauth/identity").unwrap();
    let out = sign(discogs, &signer, &request).unwrap();
    // RFC 5849 §3.4.4: the signature is enc(consumer secret) & enc(token secret).
    assert_eq!(out.lines().nth(1), Some("cs%2B&ts%26"));
    let plain = Request::new("GET", "http://api.discogs.com/oauth/identity").unwrap();
    assert_eq!(
        refusal(sign(discogs, &signer, &plain)),
        "the discogs profile cannot sign this request: it is called over https only: write the URL with https://"
    );
}

#[test]
fn netsuite_takes_the_realm_from_the_account_host_and_needs_a_token() {
    let netsuite = profile("netsuite");
    assert_eq!(netsuite.token(), TokenRule::Required);
    let consumer = || netsuite.signer(Consumer::new("ck", "cs"));
    let signer = consumer().with_token(Token::new("tk", "ts"));
    let url = "https://1234567-sb1.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=1";
    let request = Request::new("GET", url).unwrap();
    let out = sign(netsuite, &signer, &request).unwrap();
    assert!(
        out.contains("\nOAuth realm=\"1234567_SB1\", oauth_consumer_key=\"ck\""),
        "{out}"
    );
    assert!(out.contains("oauth_signature_method%3DHMAC-SHA256"));
    // A realm given is kept.
    let given = signer.clone().with_realm(Realm::new("7654321").unwrap());
    assert!(sign(netsuite, &given, &request)
        .unwrap()
        .contains("OAuth realm=\"7654321\""));
    assert_eq!(
        refusal(sign(netsuite, &consumer(), &request)),
        "the netsuite profile cannot sign this request: every request carries the token (token-based authentication): give the token and its secret"
    );
    let elsewhere = Request::new("GET", "https://erp.example.com/api").unwrap();
    assert!(refusal(sign(netsuite, &signer, &elsewhere))
        .contains("the realm is the account id, which the host \"erp.example.com\" does not give"));
    let sha1 = signer
        .clone()
        .with_method(oauth1_signer::SignatureMethod::HmacSha1);
    assert_eq!(
        refusal(sign(netsuite, &sha1, &request)),
        "the netsuite profile cannot sign this request: it takes HMAC-SHA256, not HMAC-SHA1"
    );
}

#[test]
fn lti_launches_carry_about_blank_and_outcomes_their_body_hash() {
    let lti = profile("lti");
    assert_eq!(lti.transport(), Transport::FormBody);
    let signer = lti.signer(Consumer::new("key", "secret"));
    let launch = Request::new("POST", "https://tool.example/launch")
        .unwrap()
        .with_form_body(b"lti_message_type=basic-lti-launch-request&resource_link_id=1");
    let out = sign(lti, &signer, &launch).unwrap();
    assert!(out.contains("oauth_callback%3Dabout%253Ablank"), "{out}");
    assert!(!out.contains("oauth_body_hash"));
    let outcome = Request::new("POST", "https://lms.example/outcomes")
        .unwrap()
        .with_body("application/xml", b"<replaceResultRequest/>");
    let out = sign(lti, &signer, &outcome).unwrap();
    // base64(SHA-1(body)), as Python's hashlib computes it.
    assert!(
        out.contains("oauth_body_hash=\"5dVoVXnlTWodn%2FVZBv7F5AGtyBI%3D\""),
        "{out}"
    );
    assert!(!out.contains("oauth_callback"));
}

#[test]
fn woocommerce_signs_as_php_reads_and_refuses_what_it_cannot_read() {
    let woocommerce = profile("woocommerce");
    let signer = woocommerce.signer(Consumer::new("ck", "cs+1"));
    let request = Request::new(
        "GET",
        "http://shop.example/wp-json/wc/v3/products?include[]=12&a.b=x+y&include[]=34",
    )
    .unwrap();
    let out = sign(woocommerce, &signer, &request).unwrap();
    let mut lines = out.lines();
    // woocommerce_server.parameter_string, and Python's hmac keyed with the raw "cs+1&".
    assert_eq!(
        lines.next(),
        Some("GET&http%3A%2F%2Fshop.example%2Fwp-json%2Fwc%2Fv3%2Fproducts&a_b%3Dx%2520y%26include%255B0%255D%3D12%26include%255B1%255D%3D34%26oauth_consumer_key%3Dck%26oauth_nonce%3Dn%26oauth_signature_method%3DHMAC-SHA256%26oauth_timestamp%3D1700000000%26oauth_version%3D1.0")
    );
    assert_eq!(
        lines.next(),
        Some("9S6eYGwls/WXUQ7mXwwtF8YQxRu8zmoQCrwHNR3Fe7E=")
    );

    let repeated = Request::new(
        "GET",
        "http://shop.example/wp-json/wc/v3/products?tag=1&tag=2",
    )
    .unwrap();
    assert!(refusal(sign(woocommerce, &signer, &repeated))
        .contains("PHP keeps only the last value of the repeated name \"tag\""));
    let https = Request::new("GET", "https://shop.example/wp-json/wc/v3/products").unwrap();
    assert!(refusal(sign(woocommerce, &signer, &https)).contains("over http only"));
    let with_token = signer.clone().with_token(Token::new("tk", "ts"));
    let plain = Request::new("GET", "http://shop.example/wp-json/wc/v3/products").unwrap();
    assert!(refusal(sign(woocommerce, &with_token, &plain)).contains("leave the token out"));
    let plaintext = signer.with_method(oauth1_signer::SignatureMethod::Plaintext);
    assert!(refusal(sign(woocommerce, &plaintext, &plain))
        .contains("it takes HMAC-SHA256 or HMAC-SHA1, not PLAINTEXT"));
}

#[cfg(feature = "rsa")]
#[test]
fn mastercard_hashes_every_body_and_encodes_its_protocol_values_once() {
    let mastercard = profile("mastercard");
    let pem = std::fs::read_to_string(crate::common::fixtures_dir().join("rsa-2048.pem")).unwrap();
    let signer = mastercard
        .signer(Consumer::new("key!1", ""))
        .with_private_key(oauth1_signer::PrivateKey::from_pem(&pem).unwrap());
    let request =
        Request::new("GET", "https://sandbox.api.mastercard.com/atms/v1/atm?x=1").unwrap();
    let out = sign(mastercard, &signer, &request).unwrap();
    // base64(SHA-256("")), as Python's hashlib computes it, put in encoded once: the base
    // string has %2B where RFC 5849 has %252B.
    assert!(
        out.starts_with("GET&https%3A%2F%2Fsandbox.api.mastercard.com%2Fatms%2Fv1%2Fatm&oauth_body_hash%3D47DEQpj8HBSa%2B%2FTImW%2B5JCeuQeRkm5NMpJWZG3hSuFU%3D%26oauth_consumer_key%3Dkey%211%26"),
        "{out}"
    );
    assert_eq!(
        Profile::for_host("sandbox.api.mastercard.com"),
        Some(mastercard)
    );
}
