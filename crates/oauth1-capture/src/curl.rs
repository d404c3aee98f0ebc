//! A `curl` command line as browsers ("Copy as cURL", POSIX and `$'…'` forms) and Postman
//! write it.

use oauth1_signer::encode;

use crate::capture::{error, file_named, unclosed, Capture, CaptureError};

/// Resolves each ANSI-C quoted word part (`$'…'`, which bash and zsh read, and browsers write
/// for data with control characters or quotes) into an equivalent single-quoted one, leaving
/// everything else as it is for the POSIX splitter, which does not know that form.
fn resolve_ansi_c(command: &str) -> Result<String, CaptureError> {
    let mut out = String::with_capacity(command.len());
    let mut chars = command.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' => {
                out.push(c);
                match chars.next() {
                    // A line continuation with a Windows line end: the LF comes next.
                    Some((_, '\r')) if chars.peek().is_some_and(|&(_, n)| n == '\n') => {}
                    Some((_, next)) => out.push(next),
                    None => {}
                }
            }
            '\'' => {
                out.push(c);
                loop {
                    match chars.next() {
                        Some((_, '\'')) => {
                            out.push('\'');
                            break;
                        }
                        Some((_, inner)) => out.push(inner),
                        None => return Err(unclosed('\'', at)),
                    }
                }
            }
            '"' => {
                out.push(c);
                loop {
                    match chars.next() {
                        Some((_, '"')) => {
                            out.push('"');
                            break;
                        }
                        Some((_, '\\')) => {
                            out.push('\\');
                            if let Some((_, next)) = chars.next() {
                                out.push(next);
                            }
                        }
                        Some((_, inner)) => out.push(inner),
                        None => return Err(unclosed('"', at)),
                    }
                }
            }
            '$' if chars.peek().is_some_and(|&(_, next)| next == '\'') => {
                chars.next();
                let bytes = ansi_c_body(&mut chars, at)?;
                let text = String::from_utf8(bytes).map_err(|_| {
                    error(format!(
                        "the $'…' quote at byte {at} makes bytes that are not UTF-8"
                    ))
                })?;
                out.push('\'');
                out.push_str(&text.replace('\'', "'\\''"));
                out.push('\'');
            }
            _ => out.push(c),
        }
    }
    Ok(out)
}

type Chars<'a> = std::iter::Peekable<std::str::CharIndices<'a>>;

/// The bytes of a `$'…'` quote after its opening, up to its closing quote; `at` is where it
/// opens, for the errors.
fn ansi_c_body(chars: &mut Chars<'_>, at: usize) -> Result<Vec<u8>, CaptureError> {
    let unclosed = || {
        error(format!(
            "the $'…' quote at byte {at} is not closed: add the closing '"
        ))
    };
    let mut bytes = Vec::new();
    loop {
        match chars.next().ok_or_else(unclosed)?.1 {
            '\\' => {
                let escape = chars.next().ok_or_else(unclosed)?.1;
                ansi_c_escape(escape, chars, at, &mut bytes)?;
            }
            '\'' => return Ok(bytes),
            other => push_char(&mut bytes, other),
        }
    }
}

fn push_char(bytes: &mut Vec<u8>, c: char) {
    let mut buf = [0; 4];
    bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
}

/// Up to `most` digits of `radix` from `chars`: their value and how many there were.
fn digits(chars: &mut Chars<'_>, radix: u32, most: usize) -> (u32, usize) {
    let mut value = 0u32;
    let mut count = 0;
    while count < most {
        match chars.peek().and_then(|&(_, c)| c.to_digit(radix)) {
            Some(d) => {
                value = value * radix + d;
                count += 1;
                chars.next();
            }
            None => break,
        }
    }
    (value, count)
}

/// The bytes of the escape `\e` of a `$'…'` quote, as bash reads it.
fn ansi_c_escape(
    escape: char,
    chars: &mut Chars<'_>,
    at: usize,
    bytes: &mut Vec<u8>,
) -> Result<(), CaptureError> {
    let byte = |value: u32| u8::try_from(value & 0xFF).unwrap_or_default();
    match escape {
        'a' => bytes.push(0x07),
        'b' => bytes.push(0x08),
        'e' | 'E' => bytes.push(0x1B),
        'f' => bytes.push(0x0C),
        'n' => bytes.push(b'\n'),
        'r' => bytes.push(b'\r'),
        't' => bytes.push(b'\t'),
        'v' => bytes.push(0x0B),
        '\\' | '\'' | '"' | '?' => push_char(bytes, escape),
        '0'..='7' => {
            let (rest, count) = digits(chars, 8, 2);
            let first = escape.to_digit(8).unwrap_or(0);
            bytes.push(byte((first << (3 * count)) | rest));
        }
        'x' => match digits(chars, 16, 2) {
            (_, 0) => bytes.extend_from_slice(b"\\x"),
            (value, _) => bytes.push(byte(value)),
        },
        'u' | 'U' => match digits(chars, 16, if escape == 'u' { 4 } else { 8 }) {
            (_, 0) => {
                bytes.push(b'\\');
                push_char(bytes, escape);
            }
            (value, _) => {
                let c = char::from_u32(value).ok_or_else(|| {
                    error(format!(
                        "the $'…' quote at byte {at} names U+{value:X}, which is not a character"
                    ))
                })?;
                push_char(bytes, c);
            }
        },
        'c' => match chars.next() {
            Some((_, control)) if control.is_ascii() => {
                bytes.push(byte(u32::from(control.to_ascii_uppercase())) & 0x1F);
            }
            _ => {
                return Err(error(format!(
                    "the $'…' quote at byte {at} has \\c without an ASCII character after it"
                )))
            }
        },
        // Unknown escapes stay as written, as bash keeps them.
        other => {
            bytes.push(b'\\');
            push_char(bytes, other);
        }
    }
    Ok(())
}

/// What a `curl` flag is, for reading a copied command.
enum Flag {
    /// Takes a value and changes the request in a way this reader knows.
    Known,
    /// Changes nothing in what is signed; skipped, with its value if it takes one.
    Ignored { takes_value: bool },
}

fn flag(name: &str) -> Option<Flag> {
    const KNOWN: &[&str] = &[
        "-X",
        "--request",
        "-H",
        "--header",
        "-d",
        "--data",
        "--data-ascii",
        "--data-raw",
        "--data-binary",
        "--data-urlencode",
        "--json",
        "--url",
    ];
    // Not signed: headers other than Authorization and Content-Type, and what the transfer
    // does with the answer.
    const IGNORED_WITH_VALUE: &[&str] = &[
        "-A",
        "--user-agent",
        "-e",
        "--referer",
        "-b",
        "--cookie",
        "-c",
        "--cookie-jar",
        "-o",
        "--output",
        "-m",
        "--max-time",
        "--connect-timeout",
        "--retry",
        "-w",
        "--write-out",
        "-D",
        "--dump-header",
        "--cacert",
        "--capath",
        "-E",
        "--cert",
        "--key",
        "-x",
        "--proxy",
        "--resolve",
        "--limit-rate",
        "-r",
        "--range",
    ];
    const IGNORED: &[&str] = &[
        "--compressed",
        "-s",
        "--silent",
        "-S",
        "--show-error",
        "-v",
        "--verbose",
        "-i",
        "--include",
        "-k",
        "--insecure",
        "-L",
        "--location",
        "--location-trusted",
        "--http1.0",
        "--http1.1",
        "--http2",
        "--http2-prior-knowledge",
        "--http3",
        "-f",
        "--fail",
        "--fail-with-body",
        "-N",
        "--no-buffer",
        "-g",
        "--globoff",
        "-#",
        "--progress-bar",
        "--path-as-is",
        "-G",
        "--get",
        "-I",
        "--head",
    ];
    if KNOWN.contains(&name) {
        Some(Flag::Known)
    } else if IGNORED_WITH_VALUE.contains(&name) {
        Some(Flag::Ignored { takes_value: true })
    } else if IGNORED.contains(&name) {
        Some(Flag::Ignored { takes_value: false })
    } else {
        None
    }
}

impl Capture {
    /// Reads a `curl` command line as Chrome's and Firefox's "Copy as cURL" (POSIX forms,
    /// `$'…'` quoting and `\` line continuations included) and Postman write it. `-X`, `-H`,
    /// `--url`, `-d`/`--data`/`--data-raw`/`--data-binary`/`--data-ascii`,
    /// `--data-urlencode`, `--json`, `-G` and `-I` shape the request; flags that change nothing
    /// signed (`--compressed`, `-s`, `-v`, `-A`, `-b`, …) are skipped; any other flag is an
    /// error naming it.
    ///
    /// A pasted command is data: data it would read from a file (`-d @FILE`, `--json @FILE`,
    /// `--data-urlencode name@FILE`, …) is refused, never read, with an error whose
    /// [`file`](CaptureError::file) names the file; [`Capture::from_curl_with_body`] takes the
    /// body in its place.
    ///
    /// ```
    /// let capture = oauth1_capture::Capture::from_curl("curl https://h/x -d 'a=1'")?;
    /// assert_eq!((capture.method.as_str(), &capture.body[..]), ("POST", &b"a=1"[..]));
    ///
    /// let refused = oauth1_capture::Capture::from_curl("curl https://h/x -d @/etc/passwd").unwrap_err();
    /// assert_eq!(refused.file(), Some("/etc/passwd"));
    /// # Ok::<(), oauth1_capture::CaptureError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A [`CaptureError`] saying what is wrong: a quote not closed (and where it opens), not a
    /// curl command, no URL, a flag without its value, an unknown flag, data from a file.
    pub fn from_curl(command: &str) -> Result<Capture, CaptureError> {
        Self::curl(command, None)
    }

    /// Reads a `curl` command as [`Capture::from_curl`] does, with `body` as the request's
    /// body, byte for byte, in place of the command's data flags (which are not read, nor the
    /// files they name): the body the user gives beside a command that reads it from a file.
    /// The method and the default `Content-Type` are those the data flags imply (`POST`; a
    /// form, or JSON with `--json`).
    ///
    /// ```
    /// let capture = oauth1_capture::Capture::from_curl_with_body(
    ///     "curl https://h/x --json @body.json",
    ///     br#"{"a":1}"#.to_vec(),
    /// )?;
    /// assert_eq!(capture.method, "POST");
    /// assert_eq!(capture.header("content-type"), Some("application/json"));
    /// assert_eq!(capture.body, br#"{"a":1}"#);
    /// # Ok::<(), oauth1_capture::CaptureError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`Capture::from_curl`] but for data from a file; `-G`, which sends the data in
    /// the URL, not as a body.
    pub fn from_curl_with_body(command: &str, body: Vec<u8>) -> Result<Capture, CaptureError> {
        Self::curl(command, Some(body))
    }

    fn curl(command: &str, given_body: Option<Vec<u8>>) -> Result<Capture, CaptureError> {
        // cmd.exe's form starts `curl ^"https://…^"`.
        if command.trim_start().starts_with("curl ^\"") {
            return Err(error(
                "this command is quoted for Windows cmd.exe (^\"): copy it as cURL (bash) or (POSIX) instead",
            ));
        }
        // A command copied with Windows line ends: the end loses its CR LF, and the
        // continuations their CR (as `resolve_ansi_c` reads them); quoted text keeps every byte.
        let resolved = resolve_ansi_c(command.trim_end())?;
        let words = shell_words::split(&resolved).map_err(|_| {
            error("the command cannot be split into words as a POSIX shell splits it")
        })?;
        let mut words = words.into_iter();
        match words.next() {
            Some(program)
                if program == "curl" || program.ends_with("/curl") || program == "curl.exe" => {}
            Some(program) => {
                return Err(error(format!(
                    "the command is not a curl command: it starts with {program:?}"
                )))
            }
            None => return Err(error("the command is empty")),
        }
        let Curl {
            method,
            url,
            headers,
            data,
            file,
            json,
            get,
            head,
        } = Curl::read(words.collect())?;
        let mut headers = headers;
        if method.as_deref() == Some("") {
            return Err(error("the method given with -X is empty"));
        }
        let mut url = url.ok_or_else(|| error("the command has no URL"))?;
        if !url.contains("://") {
            // curl assumes http for a URL without a scheme; a signed URL must say which.
            return Err(error(format!(
                "the URL {url:?} has no scheme: write it as curl sent it, https://… or http://…"
            )));
        }
        let (joined, has_data) = match given_body {
            Some(_) if get => {
                return Err(error(
                    "the command has -G, which sends its data in the URL, not as a body: write the data into the command",
                ))
            }
            Some(body) => (body, true),
            None => {
                if let Some(refused) = file {
                    return Err(refused);
                }
                (data.join(&b'&'), !data.is_empty())
            }
        };
        let mut body = Vec::new();
        if get {
            if has_data {
                let text = String::from_utf8(joined).map_err(|_| {
                    error("with -G the data goes into the URL, and it is not UTF-8")
                })?;
                url.push(if url.contains('?') { '&' } else { '?' });
                url.push_str(&text);
            }
        } else {
            body = joined;
        }
        let has_content_type = headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("content-type"));
        if has_data && !get && !has_content_type {
            let content_type = if json {
                "application/json"
            } else {
                "application/x-www-form-urlencoded"
            };
            headers.push(("Content-Type".to_owned(), content_type.to_owned()));
        }
        let method = method.unwrap_or_else(|| {
            if head {
                "HEAD"
            } else if has_data && !get {
                "POST"
            } else {
                "GET"
            }
            .to_owned()
        });
        Ok(Capture {
            method,
            url,
            headers,
            body,
        })
    }
}

/// Short flags that take a value, which may be attached (`-XPOST`, `-H'a: b'` as one word).
const SHORT_WITH_VALUE: &str = "XHdAebcomwxDEr";

/// The words of a curl command after `curl`, read.
#[derive(Default)]
struct Curl {
    method: Option<String>,
    url: Option<String>,
    headers: Vec<(String, String)>,
    data: Vec<Vec<u8>>,
    /// Why the command's data cannot be read: the first data flag that names a file.
    file: Option<CaptureError>,
    json: bool,
    get: bool,
    head: bool,
}

impl Curl {
    fn read(mut pending: Vec<String>) -> Result<Curl, CaptureError> {
        let mut curl = Curl::default();
        pending.reverse();
        while let Some(word) = pending.pop() {
            if let Some(flags) = short_flags(&word) {
                pending.extend(flags.into_iter().rev());
                continue;
            }
            let (name, attached) = split_flag(&word);
            if name.is_empty() {
                if curl.url.is_some() {
                    return Err(error(format!(
                        "the command has a second URL {word:?}: explain one request at a time"
                    )));
                }
                curl.url = Some(word);
                continue;
            }
            match flag(name) {
                None => {
                    return Err(error(format!(
                        "the curl flag {name} is not read here and may change the request: remove it if it does not"
                    )))
                }
                Some(Flag::Ignored { takes_value }) => {
                    match name {
                        "-G" | "--get" => curl.get = true,
                        "-I" | "--head" => curl.head = true,
                        _ => {}
                    }
                    if takes_value && attached.is_none() && pending.pop().is_none() {
                        return Err(error(format!("the curl flag {name} has no value")));
                    }
                }
                Some(Flag::Known) => {
                    let value = match attached {
                        Some(value) => value.to_owned(),
                        None => pending
                            .pop()
                            .ok_or_else(|| error(format!("the curl flag {name} has no value")))?,
                    };
                    if let Some(path) = data_file(name, &value) {
                        // Never read: recorded, and refused unless a body is given instead.
                        curl.file.get_or_insert_with(|| file_named(name, &value, path));
                        curl.json |= name == "--json";
                        continue;
                    }
                    match name {
                        "-X" | "--request" => curl.method = Some(value),
                        "-H" | "--header" => {
                            let (header, content) = value.split_once(':').ok_or_else(|| {
                                error(format!("the header {value:?} has no ':' after its name"))
                            })?;
                            curl.headers.push((header.trim().to_owned(), content.trim().to_owned()));
                        }
                        "--url" => {
                            if curl.url.is_some() {
                                return Err(error(format!(
                                    "the command has a second URL {value:?}: explain one request at a time"
                                )));
                            }
                            curl.url = Some(value);
                        }
                        "--json" => {
                            curl.json = true;
                            curl.data.push(value.into_bytes());
                        }
                        "--data-urlencode" => curl.data.push(data_urlencode(&value)?),
                        // -d, --data, --data-ascii, --data-raw, --data-binary.
                        _ => curl.data.push(value.into_bytes()),
                    }
                }
            }
        }
        Ok(curl)
    }
}

/// A word's flag name and its attached value; an empty name for a word that is not a flag.
fn split_flag(word: &str) -> (&str, Option<&str>) {
    if !word.starts_with('-') || word == "-" {
        return ("", None);
    }
    if word.starts_with("--") || word.len() == 2 || !word.is_char_boundary(2) {
        return (word, None);
    }
    let (name, rest) = word.split_at(2);
    if SHORT_WITH_VALUE.contains(&name[1..]) {
        (name, Some(rest))
    } else {
        (word, None)
    }
}

/// `-sSL` as `-s`, `-S`, `-L`: short flags together, none taking a value; `None` for any
/// other word.
fn short_flags(word: &str) -> Option<Vec<String>> {
    let letters = word.strip_prefix('-')?;
    if word.starts_with("--") || letters.chars().count() < 2 {
        return None;
    }
    let first = letters.chars().next()?;
    if SHORT_WITH_VALUE.contains(first)
        || !letters.chars().all(|c| c.is_ascii_alphabetic() || c == '#')
    {
        return None;
    }
    Some(letters.chars().map(|c| format!("-{c}")).collect())
}

/// The file a data flag of a pasted command would read, if it names one: `@FILE` after `-d`,
/// `--data`, `--data-ascii`, `--data-binary` or `--json`, and `@FILE` or `name@FILE` after
/// `--data-urlencode` (`--data-raw` takes `@` as it is).
fn data_file<'v>(flag: &str, value: &'v str) -> Option<&'v str> {
    match flag {
        "-d" | "--data" | "--data-ascii" | "--data-binary" | "--json" => value.strip_prefix('@'),
        "--data-urlencode" => match value.find(['=', '@']) {
            Some(at) if value.as_bytes()[at] == b'@' => Some(&value[at + 1..]),
            _ => None,
        },
        _ => None,
    }
}

/// The data of curl's `--data-urlencode VALUE`: `content`, `=content` or `name=content`, the
/// content percent-encoded as curl encodes it (all but the unreserved characters) and the name
/// as it is. The forms that read a file, `@file` and `name@file`, are refused: see
/// [`data_urlencode_with`].
///
/// ```
/// use oauth1_capture::data_urlencode;
///
/// assert_eq!(data_urlencode("status=Hello Ladies + Gentlemen")?, b"status=Hello%20Ladies%20%2B%20Gentlemen");
/// assert_eq!(data_urlencode("=a&b")?, b"a%26b");
/// assert_eq!(data_urlencode("key@id_rsa").unwrap_err().file(), Some("id_rsa"));
/// # Ok::<(), oauth1_capture::CaptureError>(())
/// ```
///
/// # Errors
///
/// The `@file` forms, with the file's name ([`CaptureError::file`]).
pub fn data_urlencode(value: &str) -> Result<Vec<u8>, CaptureError> {
    data_urlencode_with(value, |path| {
        Err(file_named("--data-urlencode", value, path))
    })
}

/// [`data_urlencode`] with the `@file` forms read by `read_file` (given the file's name), the
/// file whole, line breaks kept: for a tool whose user typed the flag (`oauth1 send
/// --data-urlencode` sends what curl would), never for a pasted command.
///
/// ```
/// use oauth1_capture::data_urlencode_with;
///
/// let read = |path: &str| Ok::<_, String>(format!("the text of {path}").into_bytes());
/// assert_eq!(data_urlencode_with("note@a.txt", read)?, b"note=the%20text%20of%20a.txt");
/// # Ok::<(), String>(())
/// ```
///
/// # Errors
///
/// Those `read_file` returns.
pub fn data_urlencode_with<E>(
    value: &str,
    read_file: impl FnOnce(&str) -> Result<Vec<u8>, E>,
) -> Result<Vec<u8>, E> {
    let (name, content) = match value.find(['=', '@']) {
        Some(at) if value.as_bytes()[at] == b'=' => {
            (&value[..at], value.as_bytes()[at + 1..].to_vec())
        }
        Some(at) => (&value[..at], read_file(&value[at + 1..])?),
        None => ("", value.as_bytes().to_vec()),
    };
    let mut out = String::new();
    if !name.is_empty() {
        out.push_str(name);
        out.push('=');
    }
    encode::encode(&content).append_to(&mut out);
    Ok(out.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ansi_c_quotes_become_single_quotes() {
        for (written, meant) in [
            (r"$'a\nb'", "a\nb"),
            (r"$'it\'s'", "it's"),
            (r"$'\x41\u00e9\U0001F600'", "Aé😀"),
            (r"$'\101\0'", "A\0"),
            (r"$'\cA'", "\u{1}"),
            (r"$'\q'", "\\q"),
            (r#"$'a"b'"#, "a\"b"),
        ] {
            let words = shell_words::split(&resolve_ansi_c(written).unwrap()).unwrap();
            assert_eq!(words, [meant], "{written}");
        }
        // Inside other quotes, $' is text.
        let words = shell_words::split(&resolve_ansi_c(r#""$'x'" '$'"#).unwrap()).unwrap();
        assert_eq!(words, ["$'x'", "$"]);
        assert_eq!(
            resolve_ansi_c("$'open").unwrap_err().to_string(),
            "the $'…' quote at byte 0 is not closed: add the closing '"
        );
        assert!(resolve_ansi_c(r"$'\xff'").is_err());
    }
}
