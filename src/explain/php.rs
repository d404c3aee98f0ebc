//! The parameters as PHP reads them into `$_GET` and `$_POST`, and the parameter string
//! WooCommerce's REST API builds from them ([`Cause::ParsedAsPhp`](super::Cause::ParsedAsPhp)).
//!
//! PHP's reading (`php_register_variable_ex`): leading spaces of a name dropped, ` ` and `.`
//! before the first `[` turned into `_`; `name[]` appends to an array and `name[key]` sets a
//! key of it (nested as deep as the brackets go, anything after a closing `]` that is not `[`
//! ignored, an unclosed `[` turned into `_`); a repeated name keeps its last value; a name
//! that is a canonical decimal integer is an integer key. WooCommerce
//! (`WC_REST_Authentication::get_oauth_parameters` and `check_oauth_signature`) merges
//! `$_GET` and `$_POST` with `array_merge` (integer keys renumbered from 0) and the header's
//! protocol parameters over them, sorts the names as read with `strcmp`, percent-encodes the
//! names and values (an array's keys stay as read), joins each `name=value` (an array item as
//! `name%5Bkey%5D=value`), percent-encodes each of those once more and joins them with `%26`.

use std::collections::HashMap;

use super::wrong::{self, Rules};
use crate::params::{Parameters, Source};

/// A key of a PHP array.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Key {
    Int(i64),
    Text(Vec<u8>),
}

impl Key {
    /// The key PHP makes of a name: an integer when the name is one written canonically.
    fn of(name: &[u8]) -> Key {
        let digits = name.strip_prefix(b"-").unwrap_or(name);
        let canonical = !digits.is_empty()
            && digits.iter().all(u8::is_ascii_digit)
            && (digits[0] != b'0' || name == b"0")
            && digits.len() <= 19;
        match std::str::from_utf8(name).ok().filter(|_| canonical) {
            Some(text) => text
                .parse()
                .map_or_else(|_| Key::Text(name.to_vec()), Key::Int),
            None => Key::Text(name.to_vec()),
        }
    }

    fn text(&self) -> Vec<u8> {
        match self {
            Key::Int(n) => n.to_string().into_bytes(),
            Key::Text(t) => t.clone(),
        }
    }
}

/// A value, or an array when `value` is `None`.
#[derive(Default)]
struct Node {
    value: Option<Vec<u8>>,
    array: Array,
}

impl Node {
    fn value(value: &[u8]) -> Node {
        Node {
            value: Some(value.to_vec()),
            array: Array::default(),
        }
    }

    /// Whether replacing it drops something sent.
    fn holds_something(&self) -> bool {
        self.value.is_some() || !self.array.entries.is_empty()
    }
}

/// An ordered PHP array.
#[derive(Default)]
struct Array {
    entries: Vec<(Key, Node)>,
    /// Where each key is in `entries`: a name looked up once, not searched for.
    at: HashMap<Key, usize>,
    next: i64,
}

impl Array {
    fn position(&self, key: &Key) -> Option<usize> {
        self.at.get(key).copied()
    }

    /// `$array[$key] = $node`, in place when the key is there; says whether something sent was
    /// lost (another value, or an array).
    fn set(&mut self, key: Key, node: Node) -> bool {
        if let Key::Int(n) = key {
            self.next = self.next.max(n.saturating_add(1));
        }
        if let Some(at) = self.position(&key) {
            let old = std::mem::replace(&mut self.entries[at].1, node);
            // The same value again loses nothing.
            let same = old.value.is_some() && old.value == self.entries[at].1.value;
            old.holds_something() && !same
        } else {
            self.at.insert(key.clone(), self.entries.len());
            self.entries.push((key, node));
            false
        }
    }

    /// `$array[] = $node`.
    fn push(&mut self, node: Node) {
        let key = Key::Int(self.next);
        self.set(key, node);
    }

    /// The array at `key` (appended when `None`), made one if it is not (`lost` then says a
    /// value was dropped).
    fn array_at(&mut self, key: Option<Key>, lost: &mut bool) -> &mut Array {
        let at = if let Some(at) = key.as_ref().and_then(|k| self.position(k)) {
            if self.entries[at].1.value.take().is_some() {
                *lost = true;
            }
            at
        } else {
            if let Some(key) = key {
                self.set(key, Node::default());
            } else {
                self.push(Node::default());
            }
            self.entries.len() - 1
        };
        &mut self.entries[at].1.array
    }

    /// Registers `name=value` as PHP does; says whether something sent was lost (a value
    /// already there, or this one).
    fn register(&mut self, name: &[u8], value: &[u8]) -> bool {
        let Some(path) = Path::parse(name) else {
            return false;
        };
        let base = Key::of(&path.base);
        if path.levels > MAX_NESTING {
            // PHP drops the variable, and what was already held under its name.
            if let Some(at) = self.position(&base) {
                self.entries.remove(at);
                self.at = (self.entries.iter().enumerate())
                    .map(|(i, (k, _))| (k.clone(), i))
                    .collect();
            }
            return true;
        }
        let value = Node::value(value);
        let Some((last, parents)) = path.indices.split_last() else {
            return self.set(base, value);
        };
        let mut dropped = false;
        let mut table = self.array_at(Some(base), &mut dropped);
        for index in parents {
            table = table.array_at(index.as_deref().map(Key::of), &mut dropped);
        }
        if let Some(key) = last {
            table.set(Key::of(key), value) || dropped
        } else {
            table.push(value);
            dropped
        }
    }
}

/// PHP's `max_input_nesting_level` by default: a name nested deeper is dropped.
const MAX_NESTING: usize = 64;

/// A name as PHP reads it: its base, the array indices after it (`None` for `[]`), and how
/// many levels of brackets it took to read them.
struct Path {
    base: Vec<u8>,
    indices: Vec<Option<Vec<u8>>>,
    levels: usize,
}

impl Path {
    /// `None` for a name PHP drops (empty, or spaces only, before its first `[`).
    fn parse(name: &[u8]) -> Option<Path> {
        let start = name.iter().position(|&b| b != b' ').unwrap_or(name.len());
        let var = &name[start..];
        let bracket = var.iter().position(|&b| b == b'[');
        let mut base: Vec<u8> = var[..bracket.unwrap_or(var.len())]
            .iter()
            .map(|&b| if b == b' ' || b == b'.' { b'_' } else { b })
            .collect();
        if base.is_empty() {
            return None;
        }
        let mut indices = Vec::new();
        let mut levels = 0;
        if let Some(mut ip) = bracket {
            loop {
                levels += 1;
                ip += 1;
                if var.get(ip) == Some(&b']') {
                    indices.push(None);
                } else if let Some(off) = var[ip..].iter().position(|&b| b == b']') {
                    indices.push(Some(var[ip..ip + off].to_vec()));
                    ip += off;
                } else {
                    // Not an index: at the first level the rest joins the name, `[`, ` ` and
                    // `.` made `_`; deeper, it is dropped.
                    if indices.is_empty() {
                        base.push(b'_');
                        base.extend(var[ip..].iter().map(|&b| match b {
                            b' ' | b'.' | b'[' => b'_',
                            b => b,
                        }));
                    }
                    break;
                }
                // Anything after a `]` but another `[` is ignored.
                ip += 1;
                if var.get(ip) != Some(&b'[') {
                    break;
                }
            }
        }
        Some(Path {
            base,
            indices,
            levels,
        })
    }
}

/// WooCommerce's parameter string of `params`, with the names whose earlier values PHP's
/// reading dropped.
pub(crate) struct Read {
    pub(crate) string: Vec<u8>,
    pub(crate) lost: Vec<Vec<u8>>,
}

/// Reads `params` (query, form body and protocol parameters, decoded) as PHP and WooCommerce
/// do, and builds WooCommerce's parameter string, which the base string takes as it is.
pub(crate) fn read(params: &Parameters) -> Read {
    let mut get = Array::default();
    let mut post = Array::default();
    let mut lost = Vec::new();
    let mut header = Vec::new();
    for p in params.iter() {
        let table = match p.source {
            Source::Query => &mut get,
            Source::FormBody => &mut post,
            _ => {
                header.push((p.name, p.value));
                continue;
            }
        };
        if table.register(p.name, p.value) {
            lost.push(p.name.to_vec());
        }
    }
    // array_merge($_GET, $_POST), then the header's parameters over them.
    let mut merged = Array::default();
    for (key, node) in get.entries.into_iter().chain(post.entries) {
        match key {
            Key::Int(_) => merged.push(node),
            Key::Text(_) => {
                if merged.set(key.clone(), node) {
                    lost.push(key.text());
                }
            }
        }
    }
    for (name, value) in header {
        merged.set(Key::Text(name.to_vec()), Node::value(value));
    }
    // Sorted for joining only: no key is looked up in it after.
    merged.entries.sort_by_key(|(key, _)| key.text());
    let mut items = Vec::new();
    for (key, node) in &merged.entries {
        join(&encoded(&key.text()), node, &mut items);
    }
    Read {
        string: items.join(&b"%26"[..]),
        lost,
    }
}

fn encoded(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    wrong::encode_by(bytes, Rules::RFC, &mut out);
    out
}

/// `join_with_equals_sign`: `name` is the item's name so far (the top level's encoded, an
/// array's keys as read).
fn join(name: &[u8], node: &Node, items: &mut Vec<Vec<u8>>) {
    match &node.value {
        Some(value) => {
            let mut item = name.to_vec();
            item.push(b'=');
            item.extend_from_slice(&encoded(value));
            items.push(encoded(&item));
        }
        None => {
            for (key, child) in &node.array.entries {
                // PHP's `if ($key)`: an empty or "0" prefix is false, and the key stands alone.
                let prefix_is_false = name.is_empty() || name == b"0";
                let mut child_name = Vec::new();
                if prefix_is_false {
                    child_name.extend_from_slice(&key.text());
                } else {
                    child_name.extend_from_slice(name);
                    child_name.extend_from_slice(b"%5B");
                    child_name.extend_from_slice(&key.text());
                    child_name.extend_from_slice(b"%5D");
                }
                join(&child_name, child, items);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_query(query: &str) -> String {
        let mut params = Parameters::new();
        params
            .extend_urlencoded(Source::Query, query.as_bytes())
            .unwrap();
        String::from_utf8(read(&params).string).unwrap()
    }

    #[test]
    fn names_nested_deeper_than_php_reads_are_dropped_without_recursing() {
        // 64 levels are read; 65 drop the variable, and what its name held before.
        let deep = |levels: usize| format!("a{}=1", "[]".repeat(levels));
        assert!(read_query(&deep(64)).starts_with("a%255B0%255D%255B0%255D"));
        assert_eq!(read_query(&format!("a[]=0&{}", deep(65))), "");
        assert_eq!(read_query(&format!("{}&b=2", deep(100_000))), "b%3D2");
    }
}
