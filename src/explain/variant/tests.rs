//! The pipeline's cause groups held to what the causes do.

use super::*;
use crate::credentials::{Consumer, Token};
use crate::Realm;

/// Every cause outside [`COLLECTION`] collects what the reference collects, on requests
/// that give each collection cause something to change: so sharing the reference's
/// collection changes no reading.
#[test]
fn the_causes_outside_collection_collect_as_the_reference() {
    let signers = [
        Signer::new(Consumer::new("ck", "cs"))
            .with_token(Token::new("tk", "ts"))
            .with_realm(Realm::new("Photos").unwrap())
            .with_body_hash(BodyHash::Send),
        Signer::new(Consumer::new("ck", "cs")).with_version(crate::Version::Omit),
    ];
    let nonce = Nonce::new("n").unwrap();
    let form = "a=1&a=&b=x%2By+z&c%5B%5D=1&c%5B%5D=2&e=%2541";
    let requests = [
        Request::new(
            "GET",
            "https://api.example.com/x?q=a+b%20c&q=&ids[]=1&ids[0]=2&z=a=b&%C3%A9=%C3%A9&p=%2541",
        )
        .unwrap()
        .with_callback("https://client.example/cb?x=1")
        .with_verifier("v"),
        Request::new("POST", "https://api.example.com/x?a=2&d=")
            .unwrap()
            .with_form_body(form.as_bytes()),
        Request::new("PUT", "https://api.example.com/x?a=1")
            .unwrap()
            .with_body("application/json", b"{\"a\": 1}"),
    ];
    let header = "OAuth realm=\"Photos\", extra=\"1\", oauth_consumer_key=\"ck\"";
    let listed = |params: &Parameters| -> Vec<(Source, Vec<u8>, Vec<u8>)> {
        params
            .iter()
            .map(|p| (p.source, p.name.to_vec(), p.value.to_vec()))
            .collect()
    };
    let mut contexts = Vec::new();
    for signer in &signers {
        for request in &requests {
            for header in [None, Some(header)] {
                let context = Context::new(signer, request, &nonce, Timestamp::new(1), None)
                    .unwrap()
                    .with_header(header);
                contexts.push(context);
            }
        }
    }
    for context in &contexts {
        {
            let request = context.request;
            let reference = listed(&context.parameters(Switches::NONE).unwrap());
            for &cause in Cause::ALL {
                let switched = Switches::of(&[cause]);
                if COLLECTION.contains(&cause) {
                    continue;
                }
                let collected = listed(&context.parameters(switched).unwrap());
                assert_eq!(collected, reference, "{cause} on {}", request.url());
            }
        }
    }
    // And each collection cause changes something on one of these requests.
    for &cause in COLLECTION {
        let switches = match cause {
            Cause::ParameterNotSigned => Switches::unsigned(0),
            Cause::QueryStartNotSigned => Switches::query_start(1, None),
            _ => Switches::of(&[cause]),
        };
        let changes = contexts.iter().any(|context| {
            let reference = listed(&context.parameters(Switches::NONE).unwrap());
            context
                .parameters(switches)
                .is_ok_and(|p| listed(&p) != reference)
        });
        assert!(
            changes,
            "{cause} changes nothing here: is it a collection cause?"
        );
    }
}

/// A reading whose collection causes only reshape collects what collecting anew collects: the
/// reference's collection reshaped is the same, cause by cause and with a parameter left out.
#[test]
fn reshaping_the_reference_collects_as_collecting_anew() {
    let signer = Signer::new(Consumer::new("ck", "cs"))
        .with_token(Token::new("tk", "ts"))
        .with_realm(Realm::new("Photos").unwrap());
    let nonce = Nonce::new("n").unwrap();
    let request = Request::new(
        "POST",
        "https://api.example.com/x?q=a+b%20c&q=&ids[]=1&ids[0]=2&ids[]=3&z=a=b&e=",
    )
    .unwrap()
    .with_form_body(b"a=1&a=&b=x%2By+z&c%5B%5D=1&c%5B%5D=2");
    let context = Context::new(&signer, &request, &nonce, Timestamp::new(1), None).unwrap();
    let listed = |params: &Parameters| -> Vec<(Source, Vec<u8>, Vec<u8>)> {
        params
            .iter()
            .map(|p| (p.source, p.name.to_vec(), p.value.to_vec()))
            .collect()
    };
    let mut tried = 0;
    for &cause in groups::RESHAPING {
        for index in [None, Some(0), Some(3)] {
            let switches = match (cause, index) {
                (Cause::ParameterNotSigned, _) => Switches::unsigned(index.unwrap_or(1)),
                (Cause::QueryStartNotSigned, _) => Switches::query_start(2, None),
                (_, None) => Switches::of(&[cause]),
                (_, Some(index)) => Switches::unsigned_with(index, &[cause]),
            };
            let anew = listed(&context.parameters(switches).unwrap());
            let reshaped = listed(&context.collected(switches).unwrap());
            assert_eq!(reshaped, anew, "{cause} with {index:?}");
            tried += 1;
        }
    }
    assert_eq!(tried, 3 * groups::RESHAPING.len());
}
