//! A signature base string that a server echoed in its answer, found in the text around it.

/// How much of a server's response [`find_base_string`] searches: its first 1 MiB. An echoed
/// base string sits near the start of an error body; the rest is not read, and a caller that
/// is given more says so ([`response_cut`]).
pub const RESPONSE_SEARCHED: usize = 1 << 20;

/// Whether `response` is longer than what [`find_base_string`] searches of it
/// ([`RESPONSE_SEARCHED`]), so that a base string after that point is not found.
#[must_use]
pub fn response_cut(response: &str) -> bool {
    response.len() > RESPONSE_SEARCHED
}

/// Finds a signature base string that a server echoed in its response body (`base_string:…`,
/// `debug_sbs=…`, `Expected signature base string: …`, in text, HTML, JSON or a form-encoded
/// body), whatever the label around it: the first `METHOD&http%3A%2F%2F…&…` in the text,
/// HTML `&amp;` and JSON `\u0026` read as `&`, a base string encoded once more decoded. A
/// final `.` followed by a space or the end of the text is taken as the sentence's. Only the
/// first [`RESPONSE_SEARCHED`] bytes are searched, in time linear in their length.
///
/// ```
/// use oauth1_signer::explain::find_base_string;
///
/// let body = "oauth_problem=signature_invalid&debug_sbs=GET%26https%253A%252F%252Fapi.example.com%252Fx%26a%253D1";
/// assert_eq!(
///     find_base_string(body).as_deref(),
///     Some("GET&https%3A%2F%2Fapi.example.com%2Fx&a%3D1")
/// );
/// assert_eq!(find_base_string("Invalid signature"), None);
/// ```
#[must_use]
pub fn find_base_string(response: &str) -> Option<String> {
    let mut searched = response.len().min(RESPONSE_SEARCHED);
    while !response.is_char_boundary(searched) {
        searched -= 1;
    }
    let text = response[..searched]
        .replace("&amp;", "&")
        .replace("\\u0026", "&");
    let bytes = text.as_bytes();
    let is_method = |b: u8| b.is_ascii_alphabetic();
    let is_encoded = |b: u8| crate::encode::is_unreserved(b) || b == b'%';
    // Worked out once, so that each place a base string may start costs the same however
    // long the text: where the run of encoded bytes from each byte ends, and how many `%26`
    // start before each byte.
    let mut run_end = vec![bytes.len(); bytes.len() + 1];
    for i in (0..bytes.len()).rev() {
        run_end[i] = if is_encoded(bytes[i]) {
            run_end[i + 1]
        } else {
            i
        };
    }
    let mut escaped_ampersands = vec![0usize; bytes.len() + 1];
    for i in 0..bytes.len() {
        escaped_ampersands[i + 1] =
            escaped_ampersands[i] + usize::from(bytes[i..].starts_with(b"%26"));
    }
    let mut best: Option<(usize, String)> = None;
    for (separator, uri_start) in [("&", "http"), ("%26", "http")] {
        let twice = separator == "%26";
        let pattern = format!("{separator}{uri_start}");
        let mut from = 0;
        while let Some(found) = text[from..].find(&pattern) {
            let at = from + found;
            from = at + 1;
            let start = bytes[..at]
                .iter()
                .rposition(|&b| !is_method(b))
                .map_or(0, |p| p + 1);
            if start == at || best.as_ref().is_some_and(|(s, _)| *s <= start) {
                continue;
            }
            // Method, separator, URI, separator, parameters: the last two have no raw `&`.
            let mut end = run_end[at + separator.len()];
            let mut parts = 2;
            if !twice && bytes.get(end) == Some(&b'&') {
                end = run_end[end + 1];
                parts = 3;
            }
            // A full stop that ends a sentence is not part of it.
            if bytes[end - 1] == b'.'
                && bytes
                    .get(end)
                    .is_none_or(|b| !b.is_ascii_graphic() || *b == b'<')
            {
                end -= 1;
            }
            // Three parts, or no base string: told before the candidate is copied.
            if twice {
                parts = 1 + escaped_ampersands[end] - escaped_ampersands[at];
            }
            if parts != 3 {
                continue;
            }
            let candidate = &text[start..end];
            let candidate = if twice {
                match crate::encode::decode(candidate.as_bytes()) {
                    Ok(decoded) => String::from_utf8_lossy(&decoded).into_owned(),
                    Err(_) => continue,
                }
            } else {
                candidate.to_owned()
            };
            let uri_ok = candidate.split('&').nth(1).is_some_and(|uri| {
                let scheme = |s: &str| {
                    uri.get(..s.len())
                        .is_some_and(|head| head.eq_ignore_ascii_case(s))
                };
                scheme("http%3a%2f%2f") || scheme("https%3a%2f%2f")
            });
            if uri_ok && candidate.split('&').count() == 3 {
                best = Some((start, candidate));
            }
        }
    }
    best.map(|(_, candidate)| candidate)
}
