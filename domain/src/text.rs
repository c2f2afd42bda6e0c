//! Text as search sees it: lower case, accents removed (é → e, ë → e), one space between words.
//! The SPA's `normalize` in `web/src/lib/text.ts` does the same, so both sides find the same.
//!
//! And text as a name or an address may hold it: no invisible or direction-changing characters
//! ([`has_hidden_characters`]), so what staff read in the CMS and the audit log is what was typed.

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

/// The refusal of a name or address that holds an invisible or control character.
pub const HIDDEN_CHARACTERS: &str =
    "Een van de ingevulde teksten bevat onzichtbare tekens (bijvoorbeeld uit een geplakte tekst). Typ de tekst opnieuw in.";

/// Whether `c` is invisible or changes how the text around it is shown: the bidirectional
/// embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069, U+061C), the zero-width
/// characters and direction marks (U+200B–U+200F, U+2060–U+2064, U+FEFF), the line and
/// paragraph separators (U+2028, U+2029), and the C0 and C1 control characters (U+0000–U+001F,
/// U+007F–U+009F). A right-to-left override makes 'Praktijk' show as 'kjitkarP' in the CMS and
/// in the audit log's text while the stored bytes say otherwise.
pub fn is_hidden_character(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        | '\u{61c}'
        | '\u{200b}'..='\u{200f}'
        | '\u{2028}'..='\u{202e}'
        | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{2069}'
        | '\u{feff}')
}

/// Whether a one-line text (a name, an address field) holds a character of [`is_hidden_character`].
/// A multi-line field would allow line breaks and tabs; none of the fields checked is one.
pub fn has_hidden_characters(s: &str) -> bool {
    s.chars().any(is_hidden_character)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bidi_overrides_zero_widths_and_controls_are_hidden_characters_and_dutch_text_is_not() {
        for text in
            ["Praktijk\u{202e}kjitkarP", "a\u{200b}b", "\u{feff}Naam", "Naam\u{2066}", "tab\there", "regel\nregel", "\u{85}", "\u{7f}"]
        {
            assert!(has_hidden_characters(text), "{text:?}");
        }
        for text in ["Huisartsenpraktijk De Linde", "Coöperatie Zuid-Oost", "Ĳsselmonde", "Dr. A. d'Ancona & Zn.", "1234AB", "الطب"] {
            assert!(!has_hidden_characters(text), "{text:?}");
        }
    }

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
