//! `oauth1 sign --profile` and `--transport`: the signed request printed as it is sent (the
//! header, the URL or the form body). Expected signatures come from X's published example and
//! from WooCommerce's check as `scripts/interop_peers/woocommerce_server.py` re-states it.

use std::process::{Command, Output};

fn oauth1(args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oauth1"))
        .args(args)
        .env_remove("OAUTH1_CONSUMER_SECRET")
        .env_remove("OAUTH1_TOKEN_SECRET")
        .envs(env.iter().copied())
        .output()
        .expect("the oauth1 binary runs")
}

fn line<'a>(out: &'a str, label: &str) -> Option<&'a str> {
    out.lines()
        .find_map(|l| l.strip_prefix(label).map(str::trim_start))
}

const X_URL: &str = "https://api.twitter.com/1.1/statuses/update.json?include_entities=true";
const X_BODY: &str = "status=Hello%20Ladies%20%2B%20Gentlemen%2C%20a%20signed%20OAuth%20request%21";
const X_SECRETS: [(&str, &str); 2] = [
    (
        "OAUTH1_CONSUMER_SECRET",
        "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
    ),
    (
        "OAUTH1_TOKEN_SECRET",
        "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
    ),
];

fn x_sign(extra: &[&str]) -> Output {
    let mut args = vec![
        "sign",
        "--consumer-key",
        "xvz1evFS4wEEPTGEFPHBog",
        "--token",
        "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
        "--nonce",
        "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg",
        "--timestamp",
        "1318622958",
        "--method",
        "POST",
        "--url",
        X_URL,
        "--content-type",
        "application/x-www-form-urlencoded",
        "--body",
        X_BODY,
    ];
    args.extend_from_slice(extra);
    oauth1(&args, &X_SECRETS)
}

const X_PROTOCOL: &str = "oauth_consumer_key=xvz1evFS4wEEPTGEFPHBog&oauth_nonce=kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg&oauth_signature_method=HMAC-SHA1&oauth_timestamp=1318622958&oauth_token=370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb&oauth_version=1.0&oauth_signature=hCtSmYh%2BiHYCEqBWrE7C7hYmtUk%3D";

#[test]
fn each_transport_prints_the_request_as_it_is_sent() {
    let header = x_sign(&["--profile", "x"]);
    let out = String::from_utf8(header.stdout).unwrap();
    assert!(line(&out, "authorization:")
        .unwrap()
        .ends_with("oauth_signature=\"hCtSmYh%2BiHYCEqBWrE7C7hYmtUk%3D\""));

    let query = x_sign(&["--transport", "query"]);
    let out = String::from_utf8(query.stdout).unwrap();
    assert_eq!(line(&out, "url:"), Some(&*format!("{X_URL}&{X_PROTOCOL}")));
    assert_eq!(line(&out, "authorization:"), None);

    let body = x_sign(&["--transport", "body"]);
    let out = String::from_utf8(body.stdout).unwrap();
    assert_eq!(
        line(&out, "body:"),
        Some(&*format!("{X_BODY}&{X_PROTOCOL}"))
    );
}

#[test]
fn the_body_transport_needs_a_form_and_plaintext_stays_hidden_in_the_url() {
    let json = oauth1(
        &[
            "sign",
            "--consumer-key",
            "k",
            "--method",
            "POST",
            "--url",
            "https://api.example/x",
            "--content-type",
            "application/json",
            "--body",
            "{}",
            "--transport",
            "body",
        ],
        &[("OAUTH1_CONSUMER_SECRET", "s")],
    );
    assert_eq!(json.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&json.stderr)
        .contains("--transport body needs a form body (Content-Type application/x-www-form-urlencoded), not \"application/json\""));

    let plaintext = oauth1(
        &[
            "sign",
            "--consumer-key",
            "k",
            "--signature-method",
            "PLAINTEXT",
            "--url",
            "https://api.example/x?a=1",
            "--transport",
            "query",
        ],
        &[("OAUTH1_CONSUMER_SECRET", "the-secret")],
    );
    let out = String::from_utf8(plaintext.stdout).unwrap();
    let url = line(&out, "url:").unwrap();
    assert!(
        url.starts_with("https://api.example/x?a=1&oauth_consumer_key=k&"),
        "{url}"
    );
    assert!(url.ends_with("&oauth_signature=%3Cnot%20shown%3A%20a%20PLAINTEXT%20signature%20is%20the%20key%20itself%3E"), "{url}");
    assert!(!out.contains("the-secret"));
}

#[test]
fn woocommerce_is_signed_in_the_query_as_its_server_reads_it() {
    let url = "http://shop.example/wp-json/wc/v3/products?include[]=12&a.b=x+y&include[]=34";
    let secret = [("OAUTH1_CONSUMER_SECRET", "cs+1")];
    let signed = oauth1(
        &[
            "sign",
            "--profile",
            "woocommerce",
            "--consumer-key",
            "ck",
            "--nonce",
            "n",
            "--timestamp",
            "1700000000",
            "--url",
            url,
        ],
        &secret,
    );
    let out = String::from_utf8(signed.stdout).unwrap();
    assert_eq!(
        line(&out, "url:"),
        Some(&*format!("{url}&oauth_consumer_key=ck&oauth_nonce=n&oauth_signature_method=HMAC-SHA256&oauth_timestamp=1700000000&oauth_version=1.0&oauth_signature=9S6eYGwls%2FWXUQ7mXwwtF8YQxRu8zmoQCrwHNR3Fe7E%3D"))
    );

    // --verbose shows the profile's parameter string: the server's, decoded once.
    let verbose = oauth1(
        &[
            "sign",
            "--verbose",
            "--profile",
            "woocommerce",
            "--consumer-key",
            "ck",
            "--nonce",
            "n",
            "--timestamp",
            "1700000000",
            "--url",
            url,
        ],
        &secret,
    );
    let out = String::from_utf8(verbose.stdout).unwrap();
    assert_eq!(
        line(&out, "profile:"),
        Some("woocommerce (parsed-as-php, key-secrets-not-encoded)")
    );
    assert_eq!(
        line(&out, "normalized:"),
        Some("a_b=x%20y&include%5B0%5D=12&include%5B1%5D=34&oauth_consumer_key=ck&oauth_nonce=n&oauth_signature_method=HMAC-SHA256&oauth_timestamp=1700000000&oauth_version=1.0")
    );
    assert!(line(&out, "url:")
        .unwrap()
        .ends_with("&oauth_signature=9S6eYGwls%2FWXUQ7mXwwtF8YQxRu8zmoQCrwHNR3Fe7E%3D"));

    let repeated = oauth1(
        &[
            "sign",
            "--profile",
            "woocommerce",
            "--consumer-key",
            "ck",
            "--url",
            "http://shop.example/wp-json/wc/v3/products?tag=1&tag=2",
        ],
        &secret,
    );
    assert_eq!(repeated.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&repeated.stderr).contains(
        "error: the woocommerce profile cannot sign this request: PHP keeps only the last value of the repeated name \"tag\""
    ));

    let unknown = oauth1(
        &[
            "sign",
            "--profile",
            "shopify",
            "--consumer-key",
            "ck",
            "--url",
            url,
        ],
        &secret,
    );
    assert!(String::from_utf8_lossy(&unknown.stderr).contains(
        "no profile \"shopify\": give one of mastercard, woocommerce, netsuite, x, lti, jira, discogs"
    ));
}

#[test]
fn explain_names_the_profile_the_other_side_computes_as() {
    // What the woocommerce test above sends, signed as WooCommerce's check computes.
    let sent = "http://shop.example/wp-json/wc/v3/products?include[]=12&a.b=x+y&include[]=34&oauth_consumer_key=ck&oauth_nonce=n&oauth_signature_method=HMAC-SHA256&oauth_timestamp=1700000000&oauth_version=1.0&oauth_signature=9S6eYGwls%2FWXUQ7mXwwtF8YQxRu8zmoQCrwHNR3Fe7E%3D";
    let secret = [("OAUTH1_CONSUMER_SECRET", "cs+1")];
    let text = oauth1(&["explain", "--url", sent], &secret);
    let out = String::from_utf8(text.stdout).unwrap();
    assert_eq!(
        line(&out, "profile:"),
        Some("woocommerce: the other side computes as WooCommerce REST API (over http) does (parsed-as-php, key-secrets-not-encoded); sign with --profile woocommerce"),
        "{out}"
    );
    let json = oauth1(&["explain", "--json", "--url", sent], &secret);
    let answer: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        answer["causes"],
        serde_json::json!(["key-secrets-not-encoded", "parsed-as-php"])
    );
    assert_eq!(
        answer["profile"],
        serde_json::json!({"name": "woocommerce", "reproduces": true})
    );

    // A NetSuite host, signed with HMAC-SHA1: the profile says what NetSuite takes.
    let netsuite = oauth1(
        &[
            "explain",
            "--consumer-key",
            "ck",
            "--token",
            "tk",
            "--nonce",
            "n",
            "--timestamp",
            "1700000000",
            "--url",
            "https://1234567-sb1.suitetalk.api.netsuite.com/services/rest/record/v1/customer",
            "--observed-signature",
            "bm90IGEgc2lnbmF0dXJl",
        ],
        &[
            ("OAUTH1_CONSUMER_SECRET", "cs"),
            ("OAUTH1_TOKEN_SECRET", "ts"),
        ],
    );
    let out = String::from_utf8(netsuite.stdout).unwrap();
    assert_eq!(
        line(&out, "profile:"),
        Some("netsuite: the netsuite profile cannot sign this request: it takes HMAC-SHA256, not HMAC-SHA1"),
        "{out}"
    );
}

#[test]
fn verify_checks_a_signature_as_the_profile_computes_it() {
    // Signed as WooCommerce's check computes (woocommerce_server.py), HMAC keyed "cs+1&".
    let sent = "http://shop.example/wp-json/wc/v3/products?include[]=12&a.b=x+y&include[]=34&oauth_consumer_key=ck&oauth_nonce=n&oauth_signature_method=HMAC-SHA256&oauth_timestamp=1700000000&oauth_version=1.0&oauth_signature=9S6eYGwls%2FWXUQ7mXwwtF8YQxRu8zmoQCrwHNR3Fe7E%3D";
    let verify = |extra: &[&str], secret: &str| {
        let mut args = vec!["verify", "--url", sent, "--now", "1700000100"];
        args.extend_from_slice(extra);
        oauth1(&args, &[("OAUTH1_CONSUMER_SECRET", secret)])
    };
    let valid = verify(&["--profile", "woocommerce"], "cs+1");
    assert!(valid.status.success(), "{valid:?}");
    let out = String::from_utf8(valid.stdout).unwrap();
    assert_eq!(out.lines().next(), Some("valid"));
    assert_eq!(
        line(&out, "profile:"),
        Some("woocommerce (parsed-as-php, key-secrets-not-encoded)")
    );
    // RFC 5849 reads the same request otherwise.
    let rfc = verify(&[], "cs+1");
    assert_eq!(rfc.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&rfc.stdout).starts_with("invalid: bad-signature"));
    // Another secret, and a clock too far off.
    let wrong = verify(&["--profile", "woocommerce"], "cs+2");
    assert!(String::from_utf8_lossy(&wrong.stdout).starts_with("invalid: bad-signature\ndetail:        the signature is not what WooCommerce REST API (over http) computes"));
    let late = oauth1(
        &[
            "verify",
            "--profile",
            "woocommerce",
            "--url",
            sent,
            "--now",
            "1700000400",
        ],
        &[("OAUTH1_CONSUMER_SECRET", "cs+1")],
    );
    assert!(String::from_utf8_lossy(&late.stdout).starts_with("invalid: stale-timestamp"));
}
