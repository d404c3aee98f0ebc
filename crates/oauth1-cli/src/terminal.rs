//! What the command line prints of text that came from outside (a server's answer, a capture,
//! a callback): never a control character that a terminal would act on. `ESC [ 2 J` clears
//! the screen and `ESC ] 52` writes the clipboard; U+009B is a one-character `ESC [`, and the
//! bidirectional overrides reorder what is shown. Each is written as an escape instead:
//! `\x1b`, `\u{202e}`.
//!
//! Two layers: a value from outside is shown with [`value`], which escapes line breaks too,
//! so that it cannot forge a line of the output; and everything the command prints for people
//! goes through `say!` or `tell!`, which escape every control
//! character but the line breaks and tabs the command writes itself. JSON output keeps JSON's
//! own escapes ([`json`]).
//!
//! And how it is written: standard output through [`out`], which a reader that has gone does
//! not turn into a panic or an error.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, Write as _};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// Set once a write to standard output has failed: nothing more is written.
static STOPPED: AtomicBool = AtomicBool::new(false);
/// Why it failed, unless its reader had gone.
static FAILED: OnceLock<String> = OnceLock::new();

/// Writes `bytes` to standard output. A reader that has gone (`oauth1 … | head`) is not an
/// error: the rest of the output is dropped and the command ends with the status it would
/// have had, as it ends for `cat`. Any other failure (a full disk) is reported by
/// [`write_failure`] when the command ends.
pub(crate) fn out(bytes: &[u8]) {
    if STOPPED.load(Ordering::Relaxed) {
        return;
    }
    let mut stdout = io::stdout().lock();
    if let Err(e) = stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        stopped(&e);
    }
}

/// Writes `text` and a line break to standard output, as [`out`] does.
pub(crate) fn line(text: &str) {
    out(format!("{text}\n").as_bytes());
}

/// Records that standard output failed with `e`; see [`out`].
pub(crate) fn stopped(e: &io::Error) {
    STOPPED.store(true, Ordering::Relaxed);
    if e.kind() != io::ErrorKind::BrokenPipe {
        let _ = FAILED.set(format!("writing to standard output: {e}"));
    }
}

/// Why standard output failed, if it did but for its reader having gone.
pub(crate) fn write_failure() -> Option<&'static str> {
    FAILED.get().map(String::as_str)
}

/// Whether `c` is shown escaped: a control character (C0, DEL, C1) or a character that
/// changes the direction or the order in which text is shown.
fn is_dangerous(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// `text` with every character `escape` selects written as an escape, borrowed when there is
/// none.
fn escaped(text: &str, escape: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(&escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !escape(c) {
            out.push(c);
        } else if u32::from(c) < 0x100 {
            let _ = write!(out, "\\x{:02x}", u32::from(c));
        } else {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
    }
    Cow::Owned(out)
}

/// A value from outside as one line: every control character escaped, line breaks included.
pub(crate) fn value(text: &str) -> Cow<'_, str> {
    escaped(text, is_dangerous)
}

/// Bytes from outside as one line, read as UTF-8 (an invalid sequence as U+FFFD) and escaped
/// as [`value`] escapes them.
pub(crate) fn bytes(bytes: &[u8]) -> String {
    value(&String::from_utf8_lossy(bytes)).into_owned()
}

/// A text the command prints for people: every control character escaped but the line breaks
/// and tabs (a carriage return is kept only before a line feed, as in `CRLF`).
pub(crate) fn text(text: &str) -> Cow<'_, str> {
    let kept = |c: char| c == '\n' || c == '\t';
    if !text.contains('\r') {
        return escaped(text, |c| !kept(c) && is_dangerous(c));
    }
    // A CR that ends a line is kept; one alone would move the cursor back over the line.
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('\r') {
        out.push_str(&escaped(&rest[..at], |c| !kept(c) && is_dangerous(c)));
        out.push_str(if rest[at + 1..].starts_with('\n') {
            "\r"
        } else {
            "\\x0d"
        });
        rest = &rest[at + 1..];
    }
    out.push_str(&escaped(rest, |c| !kept(c) && is_dangerous(c)));
    Cow::Owned(out)
}

/// A line of JSON as it is printed: DEL and the C1 controls, which JSON allows raw in a
/// string but a terminal may act on, written as `\u00XX` (the same JSON value). The other
/// control characters are already escaped by every JSON writer.
pub(crate) fn json(line: &str) -> Cow<'_, str> {
    let escape = |c: char| ('\u{7f}'..='\u{9f}').contains(&c);
    if !line.chars().any(escape) {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len() + 8);
    for c in line.chars() {
        if escape(c) {
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `println!` for what is printed for people: the text through [`text`], written with
/// [`out`].
macro_rules! say {
    () => {
        $crate::terminal::out(b"\n")
    };
    ($($arg:tt)*) => {
        $crate::terminal::line(&$crate::terminal::text(&format!($($arg)*)))
    };
}

/// `eprintln!` for what is printed for people: the text through [`text`].
/// A standard error that cannot be written to is not a reason to stop: what it would have said
/// is lost.
macro_rules! tell {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), "{}", $crate::terminal::text(&format!($($arg)*)));
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_shows_every_control_character_escaped() {
        assert_eq!(value("plain é ~"), "plain é ~");
        assert!(matches!(value("plain"), Cow::Borrowed(_)));
        assert_eq!(
            value("\u{1b}[2J\u{1b}]52;c;aGk=\u{7}"),
            "\\x1b[2J\\x1b]52;c;aGk=\\x07"
        );
        assert_eq!(value("a\nb\rc\td\0"), "a\\x0ab\\x0dc\\x09d\\x00");
        assert_eq!(value("\u{7f}\u{9b}31m"), "\\x7f\\x9b31m");
        assert_eq!(value("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(value("\u{2066}x\u{2069}"), "\\u{2066}x\\u{2069}");
        assert_eq!(bytes(b"\x1b[1m\xff"), "\\x1b[1m\u{fffd}");
    }

    #[test]
    fn a_text_keeps_its_line_breaks_and_tabs() {
        assert_eq!(text("a\n\tb\r\nc"), "a\n\tb\r\nc");
        assert_eq!(text("a\rb\r"), "a\\x0db\\x0d");
        assert_eq!(text("x\u{1b}[2Jy\r\n"), "x\\x1b[2Jy\r\n");
        assert_eq!(text("\u{9b}\u{202d}"), "\\x9b\\u{202d}");
    }

    #[test]
    fn json_keeps_its_value() {
        let line = serde_json::to_string(&serde_json::json!({"a": "\u{1b}\u{7f}\u{9b}é"})).unwrap();
        let shown = json(&line);
        assert_eq!(shown, r#"{"a":"\u001b\u007f\u009bé"}"#);
        let back: serde_json::Value = serde_json::from_str(&shown).unwrap();
        assert_eq!(back["a"], "\u{1b}\u{7f}\u{9b}é");
    }
}
