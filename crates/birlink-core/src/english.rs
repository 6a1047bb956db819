//! Numbers said in words, one way for every output (the CLI, the page, messages):
//! `1 error`, `2 errors`, `3 copies`, `12.3 MB`. Usable from any layer.

/// A count and its noun: `1 error`, `2 errors` (nouns with a plain `s` plural).
pub fn counted(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A count and its noun, singular or plural as given: `1 copy`, `2 copies`.
pub fn counted_as(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A size in bytes, in decimal units: `512 B`, `12.3 MB`.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "kB", "MB", "GB", "TB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_sizes_in_words() {
        assert_eq!(counted(0, "call"), "0 calls");
        assert_eq!(counted(1, "call"), "1 call");
        assert_eq!(counted_as(1, "copy", "copies"), "1 copy");
        assert_eq!(counted_as(3, "copy", "copies"), "3 copies");
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(1_500_000), "1.5 MB");
    }
}
