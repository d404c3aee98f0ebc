//! Signs the X API documentation's "Creating a signature" sample request and prints every
//! stage: the collected parameters with their sources, the normalized parameter string, the
//! base string, the signature and the Authorization header.
//!
//! Run with `cargo run --example sign`. The published signature is
//! `hCtSmYh+iHYCEqBWrE7C7hYmtUk=`; the example fails if it computes anything else.

use std::process::ExitCode;

use oauth1_signer::{Consumer, Error, Nonce, Request, Signed, Signer, Timestamp, Token};

const PUBLISHED_SIGNATURE: &str = "hCtSmYh+iHYCEqBWrE7C7hYmtUk=";

fn sign_sample() -> Result<Signed, Error> {
    let signer = Signer::new(Consumer::new(
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
    )?
    .with_form_body(
        b"status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21",
    );
    // The sample's nonce and timestamp; a real client calls `signer.sign_now(&request)`.
    signer.sign(
        &request,
        &Nonce::new("kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg")?,
        Timestamp::new(1_318_622_958),
    )
}

fn main() -> ExitCode {
    let signed = match sign_sample() {
        Ok(signed) => signed,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };

    println!("parameters (source, name, value):");
    for p in signed.parameters().iter() {
        println!(
            "  {:<6} {} = {}",
            p.source,
            String::from_utf8_lossy(p.name),
            String::from_utf8_lossy(p.value)
        );
    }
    println!();
    println!("normalized parameters: {}", signed.parameters());
    println!("base string:           {}", signed.base_string());
    println!("signature:             {}", signed.signature().as_str());
    println!("authorization:         {}", signed.authorization());

    if signed.signature().as_str() == PUBLISHED_SIGNATURE {
        println!();
        println!("the signature matches the published one");
        ExitCode::SUCCESS
    } else {
        eprintln!("error: the published signature is {PUBLISHED_SIGNATURE}");
        ExitCode::FAILURE
    }
}
