//! The diagnosis: every line of `fixtures/explain.json` (made by `fixtures/explain_cases.py`,
//! which applies the shared cause definitions independently of this crate) explained by the
//! library, and the search's properties.

use crate::common;

use common::case_files;
use common::{fixtures_dir, read_cases, request, signer, Case};
use oauth1_signer::explain::{Cause, ExplainError, Explainer, Observed, Verdict};
use oauth1_signer::Nonce;

fn explain(case: &Case) -> Result<oauth1_signer::explain::Explanation, ExplainError> {
    let signer = signer(case)?;
    let request = request(case)?;
    let nonce = Nonce::new(case.nonce.as_str())?;
    let observed = case
        .observed
        .as_ref()
        .expect("an explain line has `observed`");
    let mut given = Observed::default();
    if let Some(signature) = &observed.signature {
        given = given.with_signature(signature);
    }
    if let Some(base_string) = &observed.base_string {
        given = given.with_base_string(base_string);
    }
    Explainer::new(&signer, &request, &nonce, case.timestamp.parse()?)
        .with_url_as_written(&case.url)
        .explain(&given)
}

fn lines() -> Vec<Case> {
    read_cases(&fixtures_dir().join("explain.json"))
}

#[test]
fn every_explain_fixture_gets_its_verdict_and_causes() {
    let mut failures = Vec::new();
    let lines = lines();
    for case in &lines {
        let explanation = match explain(case) {
            Ok(e) => e,
            Err(e) => {
                failures.push(format!("{}: error {e}", case.name));
                continue;
            }
        };
        let causes: Vec<&str> = explanation.causes().iter().map(|c| c.id()).collect();
        let alternatives: Vec<&str> = explanation.alternatives().iter().map(|c| c.id()).collect();
        let expected = &case.expected;
        if Some(explanation.verdict().as_str()) != expected.verdict.as_deref()
            || causes != expected.causes
            || alternatives != expected.alternatives
        {
            failures.push(format!(
                "{}: {} {causes:?} or {alternatives:?}, expected {:?} {:?} or {:?}",
                case.name,
                explanation.verdict(),
                expected.verdict,
                expected.causes,
                expected.alternatives
            ));
        }
        let leading = explanation
            .causes()
            .iter()
            .any(|c| c.id() == "query-start-not-signed")
            .then(|| explanation.unsigned_parameters().to_vec());
        if leading != expected.unsigned_parameters {
            failures.push(format!(
                "{}: unsigned query start {leading:?}, expected {:?}",
                case.name, expected.unsigned_parameters
            ));
        }
        if explanation.unsigned_parameter() != expected.unsigned_parameter.as_deref() {
            failures.push(format!(
                "{}: unsigned parameter {:?}, expected {:?}",
                case.name,
                explanation.unsigned_parameter(),
                expected.unsigned_parameter
            ));
        }
        if Some(explanation.reference_base_string().as_str())
            != expected.reference_base_string.as_deref()
        {
            failures.push(format!("{}: reference base string differs", case.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} lines:\n{}",
        failures.len(),
        lines.len(),
        failures.join("\n")
    );
}

#[test]
fn the_fixtures_cover_every_cause_three_times_alone_and_some_pairs() {
    let lines = lines();
    for &cause in Cause::ALL {
        let alone = lines
            .iter()
            .filter(|c| c.expected.causes == [cause.id()])
            .count();
        assert!(alone >= 3, "{cause}: {alone} fixtures");
    }
    let count = |verdict: &str, n: usize| {
        lines
            .iter()
            .filter(|c| {
                c.expected.verdict.as_deref() == Some(verdict)
                    && (n == 0 || c.expected.causes.len() == n)
            })
            .count()
    };
    assert!(count("explained", 2) >= 8);
    assert!(count("match", 0) >= 3);
    assert!(count("unexplained", 0) >= 3);
}

#[test]
fn cause_ids_are_those_of_the_shared_vocabulary() {
    let path = common::repository().join("docs/mismatch-causes.md");
    let text = std::fs::read_to_string(&path).expect("docs/mismatch-causes.md is readable");
    let ids: Vec<&str> = text
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split_once("` |").map(|(id, _)| id))
        .collect();
    let ours: Vec<&str> = Cause::ALL.iter().map(|c| c.id()).collect();
    assert_eq!(ours, ids);
}

#[test]
fn with_no_cause_the_pipeline_is_the_signer() {
    let mut checked = 0;
    for file in case_files() {
        for case in read_cases(&file) {
            let (Ok(signer), Ok(request), Ok(nonce), Ok(timestamp)) = (
                signer(&case),
                request(&case),
                Nonce::new(case.nonce.as_str()),
                case.timestamp.parse(),
            ) else {
                continue;
            };
            let Ok(done) = signer.sign(&request, &nonce, timestamp) else {
                continue;
            };
            let explainer =
                Explainer::new(&signer, &request, &nonce, timestamp).with_url_as_written(&case.url);
            let (base_string, signature) = explainer.reproduce(&[]).unwrap();
            assert_eq!(base_string, *done.base_string(), "{}", case.name);
            if let Some(signature) = signature {
                assert_eq!(signature, *done.signature(), "{}", case.name);
            }
            // The signer's own values are a match, whatever is observed.
            let observed = Observed::base_string(done.base_string().as_str())
                .with_signature(done.signature().as_str());
            let explanation = explainer.explain(&observed).unwrap();
            assert_eq!(explanation.verdict(), Verdict::Match, "{}", case.name);
            checked += 1;
        }
    }
    assert!(checked >= 60, "{checked}");
}

#[test]
fn nothing_observed_is_an_error() {
    let case = &lines()[0];
    let (signer, request) = (signer(case).unwrap(), request(case).unwrap());
    let nonce = Nonce::new(case.nonce.as_str()).unwrap();
    let err = Explainer::new(&signer, &request, &nonce, case.timestamp.parse().unwrap())
        .explain(&Observed::default())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "nothing to explain: give the other side's signature, its base string, or both"
    );
}

#[test]
fn base_strings_are_found_in_the_forms_servers_echo_them() {
    use oauth1_signer::explain::find_base_string;
    let sbs = "GET&https%3A%2F%2Fapi.example.com%2Fx&a%3D1%26oauth_nonce%3Dn";
    let twice = "GET%26https%253A%252F%252Fapi.example.com%252Fx%26a%253D1%2526oauth_nonce%253Dn";
    for response in [
        format!("base_string:{sbs}"),
        format!("oauth_problem=signature_invalid&debug_sbs={sbs}"),
        format!("oauth_problem=signature_invalid&debug_sbs={twice}&x=1"),
        format!("Expected signature base string: {sbs}\n"),
        format!("Invalid signature. The signature base string was {sbs}."),
        format!("<p>base string: {}</p>", sbs.replace('&', "&amp;")),
        format!(
            r#"{{"error":"invalid","sbs":"{}"}}"#,
            sbs.replace('&', "\\u0026")
        ),
    ] {
        assert_eq!(
            find_base_string(&response).as_deref(),
            Some(sbs),
            "{response}"
        );
    }
    for response in [
        "401 Unauthorized",
        "GET&ftp%3A%2F%2Fx&a",
        "&http%3A%2F%2Fx&a",
    ] {
        assert_eq!(find_base_string(response), None, "{response}");
    }
}

#[test]
fn compare_never_panics_on_text_that_is_not_a_base_string() {
    use oauth1_signer::explain::{compare, Part};
    let sbs = "GET&https%3A%2F%2Fa.example%2F&a%3D1";
    for (ours, theirs) in [
        (sbs, "nonsense"),
        ("nonsense", sbs),
        ("", sbs),
        (sbs, ""),
        ("a&b&", "a&b&c"),
    ] {
        let difference = compare(ours, theirs).unwrap();
        assert!(
            matches!(difference.part(), Part::Shape | Part::Parameters),
            "{difference}"
        );
    }
    let difference = compare(sbs, "GET&https%3A%2F%2Fa.example%2F&a%3D1%26a%3D2").unwrap();
    assert_eq!(
        difference.summary(),
        "the parameters differ by name; only in the other side's: \"a\""
    );
    let difference = compare(
        "GET&https%3A%2F%2Fa.example%2F&a%3D1%26b%3D2",
        "GET&https%3A%2F%2Fa.example%2F&b%3D2%26a%3D1",
    )
    .unwrap();
    assert!(difference
        .summary()
        .starts_with("the same parameters in another order"));
    let difference = compare(
        "GET&https%3A%2F%2Fa.example%2F&a%3D%2527",
        "GET&https%3A%2F%2Fa.example%2F&a%3D%27",
    )
    .unwrap();
    assert_eq!(
        difference.summary(),
        "the same decoded names and values, encoded differently: \"a=%27\" in the reference, \"a='\" in the other side's"
    );
    assert_eq!(compare(sbs, sbs), None);
}

/// RSA signatures are checked with the public key of the signer's private key, not recomputed:
/// the published RSA-SHA1 case, and its base string with a `/` added to the path signed by the
/// openssl command line (`openssl dgst -sha1 -sign key.pem`).
#[cfg(feature = "rsa")]
#[test]
fn rsa_signatures_are_explained_by_verifying_them() {
    // The case's key is read by the request-case crate, with its own `rsa` feature.
    if !oauth1_cases::RSA {
        return;
    }
    let case = read_cases(&fixtures_dir().join("published.json"))
        .into_iter()
        .find(|c| c.name == "oauth-wiki-rsa-sha1")
        .unwrap();
    let (signer, request) = (signer(&case).unwrap(), request(&case).unwrap());
    let nonce = Nonce::new(case.nonce.as_str()).unwrap();
    let explainer = Explainer::new(&signer, &request, &nonce, case.timestamp.parse().unwrap());
    let published = case.expected.signature.as_deref().unwrap();
    let verdict = |signature: &str| {
        let e = explainer.explain(&Observed::signature(signature)).unwrap();
        (e.verdict(), e.causes().to_vec())
    };
    assert_eq!(verdict(published), (Verdict::Match, vec![]));
    let slash_added = "cp+u7ZaMv9mItqlFS36IPmKY3uqs+FJloumwiMLV08RQK9try75krGRXmlHrXfdG8ZaHULnyXboivsM5sug+AnUwznZLQF1ygEh3EadvaHFqfURrLHOESVQaI61XwdhIe3wbw1GUvWxb9JqDBO3si8DG5yQASL/ylWkpXQ3TeY0=";
    assert_eq!(
        verdict(slash_added),
        (Verdict::Explained, vec![Cause::TrailingSlashChanged])
    );
    assert_eq!(
        verdict("bm90IGEgc2lnbmF0dXJl"),
        (Verdict::Unexplained, vec![])
    );
    assert_eq!(verdict("not base64!"), (Verdict::Unexplained, vec![]));
}

#[test]
fn the_search_stops_at_its_budget_and_says_so() {
    use oauth1_signer::explain::Budget;
    use oauth1_signer::{Consumer, Request, Signer, Timestamp, Token};

    let (url, body) = crate::common::large_request("https://api.example.com");
    let request = Request::new("POST", &url).unwrap().with_form_body(&body);
    let signer = Signer::new(Consumer::new("dpf43f3p2l4k3l03", "kd94hf93k423kf44"))
        .with_token(Token::new("nnch734d00sl2jdk", "pfkkdhi9sl3r4s00"));
    let nonce = Nonce::new("kllo9940pd9333jh").unwrap();
    let explainer = Explainer::new(&signer, &request, &nonce, Timestamp::new(1_191_242_096));
    let read = request.query().len() + body.len();

    // A wrong secret: nothing reproduces it, and the search stops within its bytes.
    let bytes = 4 << 20;
    let explanation = explainer
        .with_budget(Budget::of_bytes(bytes))
        .explain(&Observed::signature("tR3+Ty81lMeYAr/Fid0kMTYa/WM="))
        .unwrap();
    assert_eq!(explanation.verdict(), Verdict::Unexplained);
    let searched = explanation.searched();
    assert!(!searched.is_complete());
    assert!(
        searched.tried() <= usize::try_from(bytes).unwrap() / read + 1,
        "{searched:?} of {read} bytes each"
    );
    assert!(searched.of() > 1_000, "{searched:?}");
    let detail = explanation.detail();
    assert!(
        detail.starts_with("Not found within the search's budget: none of the "),
        "{detail}"
    );

    // A match is told whatever the budget: the reference is always computed.
    let (_, signature) = explainer.reproduce(&[]).unwrap();
    let exact = signature.unwrap();
    let explanation = explainer
        .with_budget(Budget::of_bytes(0))
        .explain(&Observed::signature(exact.as_str()))
        .unwrap();
    assert_eq!(explanation.verdict(), Verdict::Match);

    // A budget that holds every cause alone finds one (here with the query alone, which
    // keeps the test quick).
    let query_only = Request::new("POST", &url).unwrap();
    let explainer = Explainer::new(&signer, &query_only, &nonce, Timestamp::new(1_191_242_096));
    let (_, signature) = explainer.reproduce(&[Cause::PlusForSpace]).unwrap();
    let mistaken = signature.unwrap();
    let read = u64::try_from(query_only.query().len()).unwrap();
    let singles = (u64::try_from(Cause::ALL.len()).unwrap() + 1) * 3 * read;
    let explanation = explainer
        .with_budget(Budget::of_bytes(singles))
        .explain(&Observed::signature(mistaken.as_str()))
        .unwrap();
    assert_eq!(explanation.verdict(), Verdict::Explained);
    assert_eq!(explanation.causes(), [Cause::PlusForSpace]);
    // And one too small for it says it stopped, not that nothing reproduces it.
    let explanation = explainer
        .with_budget(Budget::of_bytes(0))
        .explain(&Observed::signature(mistaken.as_str()))
        .unwrap();
    assert_eq!(explanation.verdict(), Verdict::Unexplained);
    assert_eq!(explanation.searched().tried(), 1);
    assert!(!explanation.searched().is_complete());
}

#[test]
fn a_small_request_is_searched_whole_within_the_default_budget() {
    let case = lines()
        .into_iter()
        .find(|c| c.expected.verdict.as_deref() == Some("unexplained"))
        .expect("an unexplained fixture");
    let explanation = explain(&case).unwrap();
    assert_eq!(explanation.verdict(), Verdict::Unexplained);
    assert!(explanation.searched().is_complete());
    assert!(explanation.searched().tried() > Cause::ALL.len());
}

#[test]
fn finding_an_echoed_base_string_takes_linear_time_and_stops_at_its_limit() {
    use oauth1_signer::explain::{find_base_string, response_cut, RESPONSE_SEARCHED};

    // Every `%26http` starts a candidate that runs to the end of the text: read whole for
    // each, 256 KiB of them took 20 s in a release build (minutes in a test's). The answer
    // is still none, and a base string after them is still found.
    let hostile = "A%26http".repeat(32 * 1024);
    assert_eq!(find_base_string(&hostile), None);
    let echoed = "GET&https%3A%2F%2Fapi.example.com%2Fx&a%3D1";
    let after = format!("{hostile} {echoed}");
    assert_eq!(find_base_string(&after).as_deref(), Some(echoed));
    let amp = "A&http".repeat(32 * 1024);
    assert_eq!(find_base_string(&amp), None);

    // Past the limit nothing is searched, and the caller can tell.
    let late = format!("{}{echoed}", " ".repeat(RESPONSE_SEARCHED));
    assert_eq!(find_base_string(&late), None);
    assert!(response_cut(&late));
    assert!(!response_cut(&after));
    // A limit inside a character is moved back to its start.
    let wide = format!("{}é{echoed}", " ".repeat(RESPONSE_SEARCHED - 1));
    assert_eq!(find_base_string(&wide), None);
}
