//! Text as search sees it: lower case, accents removed (é → e, ë → e), one space between words.
//! The SPA's `normalize` in `web/src/lib/text.ts` does the same, so both sides find the same.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

pub fn normalize(s: &str) -> String {
    let folded: String = s.nfd().filter(|c| !is_combining_mark(*c)).flat_map(char::to_lowercase).collect();
    folded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The distinct words of a search, normalised.
pub fn words(query: &str) -> Vec<String> {
    let normalized = normalize(query);
    let mut seen = std::collections::HashSet::new();
    normalized.split(' ').filter(|w| !w.is_empty() && seen.insert(*w)).map(str::to_owned).collect()
}

/// A search text as a `like` pattern on lower-case text: `%text%`, with `%`, `_` and `\` taken
/// literally. `None` for an empty search.
pub fn contains_pattern(search: Option<&str>) -> Option<String> {
    let s = search.map(str::trim).filter(|s| !s.is_empty())?;
    Some(format!("%{}%", s.to_lowercase().replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_patterns_take_wildcards_literally() {
        assert_eq!(contains_pattern(Some("  Anne@X ")), Some("%anne@x%".to_owned()));
        assert_eq!(contains_pattern(Some("50%_a\\")), Some("%50\\%\\_a\\\\%".to_owned()));
        assert_eq!(contains_pattern(Some("  ")), None);
        assert_eq!(contains_pattern(None), None);
    }

    #[test]
    fn case_accents_and_spacing_do_not_matter() {
        assert_eq!(normalize("  Diëtist  en ÉCZEEM\tcoördinatie "), "dietist en eczeem coordinatie");
        assert_eq!(words("Knie knie  PIJN"), vec!["knie", "pijn"]);
        assert!(words("   ").is_empty());
    }
}
