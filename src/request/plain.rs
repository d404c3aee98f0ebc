//! A request's URL: parsed by the `url` crate, or a plain URL read in one pass without it.

use std::borrow::Cow;
use std::sync::OnceLock;

use url::Url;

/// A request's URL: parsed, or a plain URL read without the parser.
#[derive(Clone, Debug)]
pub(super) enum Target<'a> {
    Parsed(Cow<'a, Url>),
    Plain(Plain),
}

/// A URL that [`plain_url`](crate::base_string::plain_url) read, which reads only URLs the `url` crate parses,
/// exactly as that parser reads them (the tests hold the two equal, `Request::new` included):
/// the text, its base string URI and its query, and the parsed URL once asked for.
#[derive(Clone, Debug)]
pub(super) struct Plain {
    text: Box<str>,
    /// The base string URI: the text's first `base_len` bytes, unless the reader wrote it out
    /// (a default port dropped, an empty path written `/`).
    written_base: Option<Box<str>>,
    base_len: usize,
    /// Where the query is in the text.
    query: std::ops::Range<usize>,
    /// Boxed: asked for rarely, and a request moved (into a future, say) moves less.
    parsed: OnceLock<Box<Url>>,
}

impl Target<'_> {
    /// The plain URL `url` as `plain_url` reads it; `None` if it is not plain, or its parts
    /// are not where the reader found them (its query after the first `?`, its base string
    /// URI at its start). The text is kept as given: an owned one is not copied.
    pub(super) fn plain<T: AsRef<str> + Into<Box<str>>>(url: T) -> Option<Self> {
        let text = url.as_ref();
        let (base, query) = crate::base_string::plain_url(text)?;
        let query = match query {
            Some(query) => {
                let start = text.find('?')? + 1;
                let range = start..start + query.len();
                (text.get(range.clone()) == Some(query)).then_some(range)?
            }
            None => 0..0,
        };
        let (written_base, base_len) = match base {
            Cow::Borrowed(base) if text.starts_with(base) => (None, base.len()),
            Cow::Borrowed(_) => return None,
            Cow::Owned(base) => (Some(base.into_boxed_str()), 0),
        };
        Some(Target::Plain(Plain {
            text: url.into(),
            written_base,
            base_len,
            query,
            parsed: OnceLock::new(),
        }))
    }
}

impl Plain {
    pub(super) fn base(&self) -> &str {
        self.written_base
            .as_deref()
            .unwrap_or(&self.text[..self.base_len])
    }

    pub(super) fn query(&self) -> &str {
        &self.text[self.query.clone()]
    }

    pub(super) fn url(&self) -> &Url {
        self.parsed.get_or_init(|| {
            // `plain_url` reads only URLs the parser parses: a plain URL cannot fail here.
            Box::new(Url::parse(&self.text).expect("a URL that plain_url reads parses"))
        })
    }
}
