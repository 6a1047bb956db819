//! The page's query (embed spec §2): where the link set comes from and how the page is
//! shown. Set by whoever writes the link; the page never rewrites it. Pure, so it is
//! tested natively: the page hands it the raw `location.search`.

use birlink_core::limits::MAX_LNC;
use birlink_core::tools::share::ViewState;

use crate::side::{Side, Sides};

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

/// Where a link set comes from, as a link names it: its data (the fragment's `data=`),
/// else its URLs (`src=`), else a sample (`sample=`); and its LNC (`lnc=`). The link
/// set compared against is named by the same keys with `against` (`against-data=`,
/// `against-src=`, `against=`, `against-lnc=`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkSource {
    /// The link set itself, as a link carries it.
    pub data: Option<String>,
    /// URLs to fetch, in order.
    pub src: Vec<String>,
    /// A shipped sample's file name (`.json` added when missing).
    pub sample: Option<String>,
    /// Its LNC.
    pub lnc: Option<u64>,
    /// How to link it (`flow=`: `modular`, `flat`, or `seeds`, the seeds' reading);
    /// `None`: as the compiler decides.
    pub flow: Option<birlink_core::Flow>,
}

impl LinkSource {
    /// Whether it names a link set at all.
    pub fn is_empty(&self) -> bool {
        self.data.is_none() && self.src.is_empty() && self.sample.is_none()
    }
}

/// The query's keys for one side: its sample, its URLs, its LNC, its flow.
fn keys(side: Side) -> [&'static str; 4] {
    match side {
        Side::Shown => ["sample", "src", "lnc", "flow"],
        Side::Against => ["against", "against-src", "against-lnc", "against-flow"],
    }
}

/// What the query says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageParams {
    /// Where each side's link set comes from (`data` is the fragment's, and is read
    /// with it: [`LinkSource`] is `None` there).
    pub sources: Sides<LinkSource>,
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
    'pairs: for (key, value) in pairs(search) {
        for side in Side::BOTH {
            let [sample, src, lnc_key, flow_key] = keys(side);
            let source = &mut params.sources[side];
            // A part that does not read leaves what an earlier one set.
            if key == sample {
                source.sample = sample_name(&key, value, &mut params.dropped).or(source.sample.take());
            } else if key == src {
                if !value.is_empty() {
                    source.src.push(value);
                }
            } else if key == lnc_key {
                source.lnc = lnc(&key, &value, &mut params.dropped).or(source.lnc);
            } else if key == flow_key {
                match birlink_core::Flow::parse(&value) {
                    Some(flow) => source.flow = Some(flow),
                    None => params.dropped.push(format!("`{key}={value}` is not modular, flat or seeds")),
                }
            } else {
                continue;
            }
            continue 'pairs;
        }
        match key.as_str() {
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

/// Where a pasted birlink link's link set comes from: its query's `sample=`, `src=` and
/// `lnc=`, its fragment's `data=` (relative URLs as written: they are fetched from this
/// page), and what of it was dropped.
pub fn pasted_link(text: &str) -> (LinkSource, Vec<String>) {
    let (before, fragment) = text.trim().split_once('#').unwrap_or((text.trim(), ""));
    let search = before.split_once('?').map_or("", |(_, query)| query);
    let mut params = parse(search);
    let (view, dropped) = ViewState::parse(fragment);
    params.dropped.extend(dropped.into_iter().map(|d| format!("`{}`: {}", d.part, d.why)));
    let mut source = std::mem::take(&mut params.sources[Side::Shown]);
    source.data = view.data;
    (source, params.dropped)
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
        let shown = &params.sources[Side::Shown];
        assert_eq!(shown.sample.as_deref(), Some("error-1514.json"));
        assert_eq!(shown.src, vec!["a.json", "https://x.org/b.json"]);
        assert_eq!((shown.lnc, params.embed, params.theme), (Some(2), true, Theme::Dark));
        assert_eq!(params.sources[Side::Against], LinkSource::default());
        assert_eq!(params.origins, vec!["https://Docs.Example.org:443/"], "normalized by the page, with `URL`");
        assert_eq!(params.dropped.len(), 1, "{:?}", params.dropped);
        assert!(parse("?sample=../x").sources[Side::Shown].sample.is_none());
    }

    #[test]
    fn the_link_set_to_compare_against_is_read_beside_the_shown_one() {
        let params = parse("?sample=matmul-1core&against=matmul-2core&against-src=b.json&against-src=c.json&against-lnc=2&against=../x");
        let (shown, against) = (&params.sources[Side::Shown], &params.sources[Side::Against]);
        assert_eq!(shown.sample.as_deref(), Some("matmul-1core.json"));
        assert_eq!(against.sample.as_deref(), Some("matmul-2core.json"), "a bad name keeps the good one");
        assert_eq!(against.src, vec!["b.json", "c.json"]);
        assert_eq!((shown.lnc, against.lnc), (None, Some(2)));
        assert_eq!(params.dropped.len(), 1, "{:?}", params.dropped);
        assert!(parse("?against-lnc=65").dropped[0].starts_with("`against-lnc=65`"));
    }

    #[test]
    fn an_lnc_past_any_device_is_dropped_with_a_reason() {
        for value in ["9007199254740993", "65", "18446744073709551615"] {
            let params = parse(&format!("?lnc={value}"));
            assert_eq!(params.sources[Side::Shown].lnc, None, "{value}");
            assert!(params.dropped[0].contains("at most 64"), "{:?}", params.dropped);
        }
        assert_eq!(parse("?lnc=64").sources[Side::Shown].lnc, Some(64));
        assert!(parse("?lnc=99999999999999999999999").dropped[0].contains("not a positive integer"));
    }

    #[test]
    fn a_pasted_link_names_its_link_set_by_data_urls_or_sample() {
        let (source, dropped) =
            pasted_link("  https://x.org/birlink/?sample=matmul-2core&lnc=2&against=y#view=compare&data=v1.abc ");
        assert_eq!(source.sample.as_deref(), Some("matmul-2core.json"));
        assert_eq!((source.lnc, source.data.as_deref()), (Some(2), Some("v1.abc")));
        assert!(dropped.is_empty(), "{dropped:?}");
        let (source, _) = pasted_link("?src=a.json&src=b.json");
        assert_eq!(source.src, vec!["a.json", "b.json"]);
        let (source, dropped) = pasted_link("https://x.org/?lnc=99");
        assert!(source.is_empty() && dropped[0].contains("at most 64"), "{dropped:?}");
    }

    #[test]
    fn the_full_page_keeps_the_source_and_drops_the_embedding() {
        assert_eq!(full_query("?embed=1&sample=x&origin=https://a.org&theme=dark"), "?sample=x&theme=dark");
        assert_eq!(full_query("?embed=1"), "");
    }
}
