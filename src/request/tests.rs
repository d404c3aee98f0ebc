//! The front door's tests: transports, options and refusals.

use super::*;
use crate::params::Parameters;
use crate::target::{check_method, is_form};

#[test]
fn timestamps_parse_strictly_and_print_back() {
    for good in ["0", "1", "137131200", "18446744073709551615"] {
        let t: Timestamp = good.parse().unwrap();
        assert_eq!(t.to_string(), good);
        let mut buf = [0u8; 20];
        assert_eq!(t.digits(&mut buf), good.as_bytes());
    }
    for bad in [
        "",
        "01",
        "-1",
        "+1",
        "1.5",
        " 1",
        "18446744073709551616",
        "１",
    ] {
        let err = bad.parse::<Timestamp>().unwrap_err();
        assert!(
            err.to_string()
                .starts_with(&format!("invalid timestamp \"{bad}\"")),
            "{err}"
        );
    }
}

#[test]
fn generated_nonces_are_32_alphanumerics_and_differ() {
    let a = Nonce::generate().unwrap();
    let b = Nonce::generate().unwrap();
    assert_eq!(a.as_str().len(), 32);
    assert!(a.as_str().bytes().all(|c| c.is_ascii_alphanumeric()));
    assert_ne!(a, b);
    assert_eq!(
        Nonce::new("").unwrap_err().to_string(),
        "the nonce is empty: use a random string unique to the request, such as Nonce::generate makes"
    );
}

#[test]
fn form_content_types() {
    for form in [
        "application/x-www-form-urlencoded",
        "Application/X-WWW-Form-URLEncoded",
        "application/x-www-form-urlencoded; charset=utf-8",
        " application/x-www-form-urlencoded ;charset=UTF-8",
    ] {
        assert!(is_form(form), "{form}");
    }
    for other in [
        "",
        "application/json",
        "multipart/form-data",
        "application/x-www-form-urlencodedx",
        "text/plain; application/x-www-form-urlencoded",
    ] {
        assert!(!is_form(other), "{other}");
    }
}

#[test]
fn methods_are_tokens() {
    for good in ["GET", "post", "M-SEARCH", "PROPFIND"] {
        assert!(check_method(good).is_ok());
    }
    for bad in ["", "GE T", "GET\r\n", "GÉT", "a/b"] {
        assert!(check_method(bad).is_err(), "{bad:?}");
    }
}

/// The X API sample ("Creating a signature"), whose published values the tests check.
fn x_sample(url: &Url) -> (Signer, Request<'_>) {
    let signer = Signer::new(Consumer::new(
        "xvz1evFS4wEEPTGEFPHBog",
        "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
    ))
    .with_token(Token::new(
        "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
        "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
    ));
    let request = Request::from_url("POST", url).unwrap().with_form_body(
        b"status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21",
    );
    (signer, request)
}

fn x_url() -> Url {
    Url::parse("https://api.twitter.com/1.1/statuses/update.json?include_entities=true").unwrap()
}

fn x_nonce() -> Nonce {
    Nonce::new("kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg").unwrap()
}

#[test]
fn a_borrowed_url_signs_like_a_parsed_one() {
    let url = x_url();
    let (signer, request) = x_sample(&url);
    let sample = signer
        .sign(&request, &x_nonce(), Timestamp::new(1_318_622_958))
        .unwrap();
    assert_eq!(sample.signature().as_str(), "hCtSmYh+iHYCEqBWrE7C7hYmtUk=");
}

#[test]
fn query_and_form_transport_carry_the_published_protocol_parameters() {
    let url = x_url();
    let (signer, request) = x_sample(&url);
    let sample = signer
        .sign(&request, &x_nonce(), Timestamp::new(1_318_622_958))
        .unwrap();
    let mut pairs: Vec<&str> = Vec::new();
    let urlencoded = sample.to_urlencoded();
    pairs.extend(urlencoded.split('&'));
    pairs.sort_unstable();
    // The published Authorization header's parameters, as name=value.
    assert_eq!(
        pairs,
        [
            "oauth_consumer_key=xvz1evFS4wEEPTGEFPHBog",
            "oauth_nonce=kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg",
            "oauth_signature=hCtSmYh%2BiHYCEqBWrE7C7hYmtUk%3D",
            "oauth_signature_method=HMAC-SHA1",
            "oauth_timestamp=1318622958",
            "oauth_token=370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
            "oauth_version=1.0",
        ]
    );
    // Sent in the query, the parameters decode to what was signed: a server that collects
    // them from there rebuilds the same base string.
    let mut resent = url.clone();
    resent.set_query(Some(&format!("include_entities=true&{urlencoded}")));
    let mut params = Parameters::new();
    params
        .extend_urlencoded(Source::Query, resent.query().unwrap_or("").as_bytes())
        .unwrap();
    let sent: Vec<(&[u8], &[u8])> = params
        .iter()
        .filter(|p| p.name.starts_with(b"oauth_"))
        .map(|p| (p.name, p.value))
        .collect();
    let signed_params: Vec<(&[u8], &[u8])> = sample.protocol_parameters().collect();
    assert_eq!(sent, signed_params);
}

#[test]
fn sign_now_uses_a_fresh_nonce_and_the_clock() {
    let url = x_url();
    let (signer, request) = x_sample(&url);
    let before = Timestamp::now().unwrap();
    let a = signer.sign_now(&request).unwrap();
    let b = signer.sign_now(&request).unwrap();
    let value = |signed: &Signed, name: &[u8]| -> Vec<u8> {
        signed
            .protocol_parameters()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.to_vec())
            .unwrap()
    };
    assert_ne!(value(&a, b"oauth_nonce"), value(&b, b"oauth_nonce"));
    let timestamp: Timestamp = String::from_utf8(value(&a, b"oauth_timestamp"))
        .unwrap()
        .parse()
        .unwrap();
    assert!(timestamp >= before && timestamp <= Timestamp::now().unwrap());
}

#[test]
fn keys_and_nonces_to_escape_are_escaped_however_they_were_made() {
    // enc(enc(b)) of each: a space is %2520, a slash %252F.
    let signer = Signer::new(Consumer::new("k y", "cs")).with_token(Token::new("t/k", "ts"));
    let request = Request::new("GET", "https://example.com/").unwrap();
    for nonce in [Nonce::new("n/1").unwrap(), Nonce::new("n1").unwrap()] {
        let result = signer.sign(&request, &nonce, Timestamp::new(1)).unwrap();
        let base = result.base_string().as_str();
        for part in [
            "oauth_consumer_key%3Dk%2520y%26",
            "oauth_token%3Dt%252Fk%26",
        ] {
            assert!(base.contains(part), "{base}");
        }
        let want = if nonce.as_str() == "n1" {
            "n1"
        } else {
            "n%252F1"
        };
        assert!(base.contains(&format!("oauth_nonce%3D{want}%26")), "{base}");
    }
    // The same names, all unreserved, and a generated nonce.
    let signer = Signer::new(Consumer::new("ky", "cs")).with_token(Token::new("tk", "ts"));
    let nonce = Nonce::generate().unwrap();
    let result = signer.sign(&request, &nonce, Timestamp::new(1)).unwrap();
    let base = result.base_string().as_str();
    assert!(base.contains("oauth_consumer_key%3Dky%26"), "{base}");
    assert!(base.contains(&format!("oauth_nonce%3D{}%26", nonce.as_str())));
}

#[test]
fn secrets_stay_out_of_debug() {
    let signer = Signer::new(Consumer::new("ck", "consumer-secret-1"))
        .with_token(Token::new("tk", "token-secret-2"))
        .with_method(SignatureMethod::Plaintext);
    let request = Request::new("GET", "https://example.com/").unwrap();
    let result = signer
        .sign(&request, &Nonce::new("n").unwrap(), Timestamp::new(1))
        .unwrap();
    for text in [format!("{signer:?}"), format!("{result:?}")] {
        assert!(!text.contains("consumer-secret-1"), "{text}");
        assert!(!text.contains("token-secret-2"), "{text}");
    }
}

/// The HMAC is keyed when a signer first signs; a builder method that changes the key or the
/// method must key it again. RFC 5849 §3.1's published signature, and the same request's
/// HMAC-SHA256 signature by Python's hmac, hashlib and base64.
#[test]
fn a_signer_that_signed_is_keyed_again_for_its_new_token_and_method() {
    let request = Request::new(
        "GET",
        "http://photos.example.net/photos?file=vacation.jpg&size=original",
    )
    .unwrap();
    let nonce = Nonce::new("kllo9940pd9333jh").unwrap();
    let at = Timestamp::new(1_191_242_096);
    let consumer = Signer::new(Consumer::new("dpf43f3p2l4k3l03", "kd94hf93k423kf44"));
    consumer.sign(&request, &nonce, at).unwrap();
    let user = consumer.with_token(Token::new("nnch734d00sl2jdk", "pfkkdhi9sl3r4s00"));
    let signed = user.sign(&request, &nonce, at).unwrap();
    assert_eq!(signed.signature().as_str(), "tR3+Ty81lMeYAr/Fid0kMTYa/WM=");
    let sha256 = user.with_method(SignatureMethod::HmacSha256);
    let signed = sha256.sign(&request, &nonce, at).unwrap();
    assert_eq!(
        signed.signature().as_str(),
        "WVPzl1j6ZsnkIjWr7e3OZ3jkenL57KwaLFhYsroX1hg="
    );
}
