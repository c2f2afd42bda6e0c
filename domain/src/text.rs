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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_accents_and_spacing_do_not_matter() {
        assert_eq!(normalize("  Diëtist  en ÉCZEEM\tcoördinatie "), "dietist en eczeem coordinatie");
        assert_eq!(words("Knie knie  PIJN"), vec!["knie", "pijn"]);
        assert!(words("   ").is_empty());
    }
}
