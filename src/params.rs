//! The page's query (embed spec §2): where the link set comes from and how the page is
//! shown. Set by whoever writes the link; the page never rewrites it. Pure, so it is
//! tested natively: the page hands it the raw `location.search`.

use birlink_core::limits::MAX_LNC;

/// The colour theme asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// Follow `prefers-color-scheme`.
    #[default]
    Auto,
    /// Light.
    Light,
    /// Dark.
    Dark,
}

impl Theme {
    /// The `data-theme` the page's root gets (`None` for auto).
    pub fn attribute(self) -> Option<&'static str> {
        match self {
            Theme::Auto => None,
            Theme::Light => Some("light"),
            Theme::Dark => Some("dark"),
        }
    }
}

/// What the query says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageParams {
    /// `sample=`: a shipped sample's file name (`.json` added when missing).
    pub sample: Option<String>,
    /// `src=`, in order: URLs to fetch.
    pub src: Vec<String>,
    /// `lnc=`.
    pub lnc: Option<u64>,
    /// `against=`: a sample to compare the link set against (the Compare view).
    pub against_sample: Option<String>,
    /// `against-src=`, in order: URLs of the link set to compare against.
    pub against_src: Vec<String>,
    /// `against-lnc=`: that link set's LNC.
    pub against_lnc: Option<u64>,
    /// `embed=1`.
    pub embed: bool,
    /// `theme=`.
    pub theme: Theme,
    /// `origin=`, as written: origins allowed to drive the page by message, once the
    /// page has normalized them with the platform's `URL` (`services::location`).
    pub origins: Vec<String>,
    /// Parts that could not be used, with why.
    pub dropped: Vec<String>,
}

fn decode(text: &str) -> String {
    let bytes = text.replace('+', " ").into_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = (bytes[i] == b'%')
            .then(|| std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok().and_then(|h| u8::from_str_radix(h, 16).ok()))
            .flatten();
        match hex {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The `(key, value)` pairs of a query (`?a=1&b=2`), decoded.
pub fn pairs(search: &str) -> Vec<(String, String)> {
    search
        .trim_start_matches('?')
        .split('&')
        .filter(|part| !part.is_empty())
        .map(|part| {
            let (key, value) = part.split_once('=').unwrap_or((part, ""));
            (decode(key), decode(value))
        })
        .collect()
}

/// Reads a query.
pub fn parse(search: &str) -> PageParams {
    let mut params = PageParams::default();
    for (key, value) in pairs(search) {
        match key.as_str() {
            // A part that does not read leaves what an earlier one set.
            "sample" => params.sample = sample_name(&key, value, &mut params.dropped).or(params.sample),
            "against" => {
                params.against_sample = sample_name(&key, value, &mut params.dropped).or(params.against_sample)
            }
            "src" if !value.is_empty() => params.src.push(value),
            "against-src" if !value.is_empty() => params.against_src.push(value),
            "lnc" => params.lnc = lnc(&key, &value, &mut params.dropped).or(params.lnc),
            "against-lnc" => params.against_lnc = lnc(&key, &value, &mut params.dropped).or(params.against_lnc),
            "embed" => params.embed = matches!(value.as_str(), "1" | "true" | ""),
            "theme" => match value.as_str() {
                "light" => params.theme = Theme::Light,
                "dark" => params.theme = Theme::Dark,
                "auto" => params.theme = Theme::Auto,
                other => params.dropped.push(format!("`theme={other}` is not light, dark or auto")),
            },
            "origin" if !value.is_empty() => params.origins.push(value),
            // Anything else belongs to whoever wrote the link.
            _ => {}
        }
    }
    params
}

/// A sample's file name as `sample=` (or `against=`) gives it (`.json` added), or why
/// not.
fn sample_name(key: &str, value: String, dropped: &mut Vec<String>) -> Option<String> {
    if value.is_empty() || value.contains('/') || value.contains("..") || value.contains('\\') {
        dropped.push(format!("`{key}={value}` is not a sample's name"));
        None
    } else if value.ends_with(".json") {
        Some(value)
    } else {
        Some(format!("{value}.json"))
    }
}

/// An LNC as `lnc=` (or `against-lnc=`) gives it, or why not.
fn lnc(key: &str, value: &str, dropped: &mut Vec<String>) -> Option<u64> {
    match value.parse::<u64>() {
        Ok(n) if (1..=MAX_LNC).contains(&n) => Some(n),
        Ok(n) if n > MAX_LNC => {
            dropped.push(format!(
                "`{key}={value}` is more cores than birlink links (at most {MAX_LNC}): the LNC is read from the files"
            ));
            None
        }
        _ => {
            dropped.push(format!("`{key}={value}` is not a positive integer"));
            None
        }
    }
}

/// The query of the full page showing the same link set: `embed` and `origin` dropped,
/// everything else kept exactly as written.
pub fn full_query(search: &str) -> String {
    let kept: Vec<&str> = search
        .trim_start_matches('?')
        .split('&')
        .filter(|part| !part.is_empty())
        .filter(|part| {
            let key = part.split('=').next().unwrap_or("");
            key != "embed" && key != "origin"
        })
        .collect();
    if kept.is_empty() {
        String::new()
    } else {
        format!("?{}", kept.join("&"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_is_read_and_what_does_not_fit_is_dropped() {
        let params = parse("?sample=error-1514&src=a.json&src=https%3A%2F%2Fx.org%2Fb.json&lnc=2&embed=1&theme=dark&origin=https://Docs.Example.org:443/&lnc=x&zoom=2");
        assert_eq!(params.sample.as_deref(), Some("error-1514.json"));
        assert_eq!(params.src, vec!["a.json", "https://x.org/b.json"]);
        assert_eq!((params.lnc, params.embed, params.theme), (Some(2), true, Theme::Dark));
        assert_eq!(params.origins, vec!["https://Docs.Example.org:443/"], "normalized by the page, with `URL`");
        assert_eq!(params.dropped.len(), 1, "{:?}", params.dropped);
        assert!(parse("?sample=../x").sample.is_none());
    }

    #[test]
    fn the_link_set_to_compare_against_is_read_beside_the_shown_one() {
        let params = parse("?sample=matmul-1core&against=matmul-2core&against-src=b.json&against-src=c.json&against-lnc=2&against=../x");
        assert_eq!(params.sample.as_deref(), Some("matmul-1core.json"));
        assert_eq!(params.against_sample.as_deref(), Some("matmul-2core.json"), "a bad name keeps the good one");
        assert_eq!(params.against_src, vec!["b.json", "c.json"]);
        assert_eq!(params.against_lnc, Some(2));
        assert_eq!(params.dropped.len(), 1, "{:?}", params.dropped);
        assert!(parse("?against-lnc=65").dropped[0].starts_with("`against-lnc=65`"));
    }

    #[test]
    fn an_lnc_past_any_device_is_dropped_with_a_reason() {
        for value in ["9007199254740993", "65", "18446744073709551615"] {
            let params = parse(&format!("?lnc={value}"));
            assert_eq!(params.lnc, None, "{value}");
            assert!(params.dropped[0].contains("at most 64"), "{:?}", params.dropped);
        }
        assert_eq!(parse("?lnc=64").lnc, Some(64));
        assert!(parse("?lnc=99999999999999999999999").dropped[0].contains("not a positive integer"));
    }

    #[test]
    fn the_full_page_keeps_the_source_and_drops_the_embedding() {
        assert_eq!(full_query("?embed=1&sample=x&origin=https://a.org&theme=dark"), "?sample=x&theme=dark");
        assert_eq!(full_query("?embed=1"), "");
    }
}
