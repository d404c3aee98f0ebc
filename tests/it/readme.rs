//! The Cargo snippets of the README and the guide: each declares what the Rust example right
//! after it uses, so that a user who copies both gets a program that builds. The examples
//! themselves are doctests of this package (`tests/lib.rs`), and the README's recipes are built
//! as new projects by `scripts/readme-recipes`; this holds the `Cargo.toml` lines beside them
//! to the crates the examples name and the features their items need.

use std::collections::{BTreeMap, BTreeSet};

/// The dependencies of a `toml` snippet: each crate and its features.
fn dependencies(toml: &str) -> BTreeMap<String, Vec<String>> {
    toml.lines()
        .filter_map(|line| line.split_once('='))
        .map(|(name, value)| {
            let features = value
                .split_once("features")
                .and_then(|(_, list)| list.split_once('['))
                .and_then(|(_, list)| list.split_once(']'))
                .map(|(list, _)| {
                    list.split(',')
                        .map(|f| f.trim().trim_matches('"').to_owned())
                        .filter(|f| !f.is_empty())
                        .collect()
                })
                .unwrap_or_default();
            (name.trim().to_owned(), features)
        })
        .collect()
}

/// The crates a Rust example names: the first segment of each path (`name::…`), unless a
/// `use` binds that name, and `::name::…` always; `#[tokio::main]` names tokio.
fn crates_named(code: &str) -> BTreeSet<String> {
    let bound: BTreeSet<&str> = code
        .lines()
        .filter_map(|line| line.trim().strip_prefix("use "))
        .flat_map(|path| {
            let path = path.trim_end_matches(';');
            let last = path.rsplit("::").next().unwrap_or(path);
            let mut names: Vec<&str> = last
                .trim_matches(|c| c == '{' || c == '}')
                .split(',')
                .map(str::trim)
                .collect();
            // `use a::b::{self, …}` binds `b`.
            if names.contains(&"self") {
                names.push(path.rsplit("::").nth(1).unwrap_or(""));
            }
            names
        })
        .collect();
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut named = BTreeSet::new();
    for (at, _) in code.match_indices("::") {
        let before = &code[..at];
        let start = before.rfind(|c: char| !ident(c)).map_or(0, |i| i + 1);
        let name = &before[start..];
        let rooted = before[..start].ends_with("::") && !before[..start - 2].ends_with(ident);
        let first = !before[..start].ends_with("::");
        if name.is_empty() || name.starts_with(|c: char| c.is_ascii_uppercase()) {
            continue;
        }
        if rooted || (first && !bound.contains(name)) {
            named.insert(name.replace('_', "-"));
        }
    }
    named.retain(|n| !["std", "core", "alloc", "crate", "self", "super"].contains(&n.as_str()));
    named
}

/// The pages whose Cargo snippets are checked.
const PAGES: [&str; 4] = [
    "README.md",
    "docs/signing.md",
    "docs/servers.md",
    "docs/three-legged.md",
];

#[test]
fn every_cargo_snippet_declares_what_its_example_uses() {
    let mut checked = 0;
    for page in PAGES {
        let text = std::fs::read_to_string(crate::common::repository().join(page)).unwrap();
        checked += check_page(&text);
    }
    assert!(checked >= 6, "{checked}");
}

/// Checks each `toml` snippet of `text` that a Rust example follows; how many.
fn check_page(text: &str) -> usize {
    let mut checked = 0;
    let mut rest = text;
    while let Some(at) = rest.find("```toml\n") {
        let toml_end = rest[at + 8..].find("```").unwrap() + at + 8;
        let toml = &rest[at + 8..toml_end];
        rest = &rest[toml_end + 3..];
        // A snippet that is not followed by an example (a [patch] section) stands alone.
        if !rest.starts_with("\n\n```rust") {
            continue;
        }
        let code_start = rest.find("```rust").unwrap();
        let code_start = code_start + rest[code_start..].find('\n').unwrap() + 1;
        let code_end = code_start + rest[code_start..].find("```").unwrap();
        let code = &rest[code_start..code_end];
        let deps = dependencies(toml);
        for name in crates_named(code) {
            assert!(
                deps.contains_key(&name),
                "the README's Cargo snippet lacks {name}, which the example after it uses:\n{toml}"
            );
        }
        let needs = |on: bool, krate: &str, any_of: &[&str]| {
            if on {
                let features = &deps[krate];
                assert!(
                    any_of.iter().any(|f| features.iter().any(|g| g == f)),
                    "the README's Cargo snippet gives {krate} none of {any_of:?}:\n{toml}"
                );
            }
        };
        needs(
            code.contains("#[tokio::main]"),
            "tokio",
            &["macros", "full"],
        );
        needs(
            code.contains("#[tokio::main]\n"),
            "tokio",
            &["rt-multi-thread", "full"],
        );
        needs(
            code.contains("oauth1_signer::http"),
            "oauth1-signer",
            &["http"],
        );
        needs(
            code.contains("oauth1_server::tower"),
            "oauth1-server",
            &["tower"],
        );
        needs(code.contains("Redis"), "oauth1-server", &["redis"]);
        checked += 1;
    }
    checked
}

#[test]
fn the_check_sees_a_crate_a_snippet_lacks() {
    let code = "use oauth1_signer::http::{self, Transport};\nlet r = ::http::Request::get(\"/\");\nhttp::sign(&s, &mut r)?;\nlet c = reqwest::Client::new();";
    assert_eq!(
        crates_named(code),
        ["http", "oauth1-signer", "reqwest"]
            .map(str::to_owned)
            .into()
    );
    let deps =
        dependencies("oauth1-signer = { version = \"0.1\", features = [\"http\"] }\ntokio = \"1\"");
    assert_eq!(deps["oauth1-signer"], ["http"]);
    assert!(deps["tokio"].is_empty());
}
