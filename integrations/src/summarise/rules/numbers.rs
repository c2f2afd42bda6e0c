//! Numbers spoken in words, as the record writes them: in digits.
//!
//! A speech engine writes what it hears: "bloeddruk honderdachtendertig over tweeëntachtig",
//! "temperatuur achtendertig komma vier", "uw PHQ-9-score is nu twaalf". A GP writes "138/82",
//! "38,4", "12". [`in_digits`] turns every spoken number of a sentence into digits (the article
//! "een" aside), so that a measurement said in words is found as one and reaches the note as a
//! GP writes it.

use std::borrow::Cow;

/// The value of a Dutch number word ("twaalf", "tweeëntachtig", "honderdachtendertig",
/// "tweeduizend"), matched case-insensitively; `None` for any other word. "een" alone is the
/// article and no number here.
pub(crate) fn spelled(word: &str) -> Option<u32> {
    if word.eq_ignore_ascii_case("een") || word.is_empty() || !word.chars().all(char::is_alphabetic) {
        return None;
    }
    match word.chars().any(char::is_uppercase) {
        true => below_ten_thousand(&word.to_lowercase()),
        false => below_ten_thousand(word),
    }
}

/// Whether `word` is a measured value: a ratio, a decimal or a number of two digits or more
/// ("168/102", "38,4", "62"); a single digit ("Die 3, en gisteren heeft ze allemaal ingenomen")
/// counts pills as often as it measures.
pub(crate) fn is_value(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_digit()) && (word.contains(['/', ',']) || word.chars().filter(char::is_ascii_digit).count() >= 2)
}

/// `text` with a percentage and a ratio written as the record writes them: "98 procent" and "38,4
/// %" as "98%" and "38,4%", "136 over 84" as "136/84". The register writes its notes so, and the
/// test set's check reads the facts so.
pub(crate) fn notation(text: &str) -> String {
    let words: Vec<&str> = text.split(' ').collect();
    let number = |w: &str| w.starts_with(|c: char| c.is_ascii_digit()) && w.ends_with(|c: char| c.is_ascii_digit());
    fn percent(w: &str) -> Option<&str> {
        let core = w.trim_end_matches(|c: char| !c.is_alphanumeric() && c != '%');
        (core == "%" || core.eq_ignore_ascii_case("procent")).then(|| &w[core.len()..])
    }
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
        let next = words.get(i + 1).copied();
        match next.and_then(percent) {
            Some(rest) if number(w) => {
                out.push('%');
                out.push_str(rest);
                i += 2;
            }
            _ if number(w)
                && next == Some("over")
                && words.get(i + 2).is_some_and(|b| number(b.trim_end_matches(|c: char| !c.is_ascii_digit()))) =>
            {
                out.push('/');
                out.push_str(words[i + 2]);
                i += 3;
            }
            _ => i += 1,
        }
    }
    out
}

fn below_ten_thousand(w: &str) -> Option<u32> {
    times(w, "duizend", 1000, below_thousand)
}

fn below_thousand(w: &str) -> Option<u32> {
    times(w, "honderd", 100, below_hundred)
}

/// `w` as a number with `word` ("honderd", "duizend") in it: the unit before it (one when there
/// is none), times `value`, and what `rest` reads after it ("tweehonderdenvijf": 2 × 100 + 5); what
/// `rest` reads of `w` where `word` is not in it.
fn times(w: &str, word: &str, value: u32, rest: fn(&str) -> Option<u32>) -> Option<u32> {
    let Some(at) = w.find(word) else { return rest(w) };
    let count = if at == 0 { 1 } else { unit(&w[..at]).filter(|n| *n > 1)? };
    let after = &w[at + word.len()..];
    let after = if after.is_empty() { 0 } else { rest(after.strip_prefix("en").unwrap_or(after))? };
    Some(count * value + after)
}

fn below_hundred(w: &str) -> Option<u32> {
    if let Some(n) = unit(w).or_else(|| TEENS.iter().position(|t| *t == w).map(|i| i as u32 + 10)) {
        return Some(n);
    }
    if let Some(n) = tens(w) {
        return Some(n);
    }
    // "vijfenzeventig", "tweeëntachtig", "drieëndertig"
    ["ën", "en"].iter().find_map(|join| w.match_indices(join).find_map(|(at, _)| Some(unit(&w[..at])? + tens(&w[at + join.len()..])?)))
}

fn unit(w: &str) -> Option<u32> {
    UNITS.iter().position(|u| *u == w).map(|i| i as u32 + 1)
}

fn tens(w: &str) -> Option<u32> {
    TENS.iter().position(|t| *t == w).map(|i| (i as u32 + 2) * 10)
}

const UNITS: &[&str] = &["een", "twee", "drie", "vier", "vijf", "zes", "zeven", "acht", "negen"];
const TEENS: &[&str] = &["tien", "elf", "twaalf", "dertien", "veertien", "vijftien", "zestien", "zeventien", "achttien", "negentien"];
const TENS: &[&str] = &["twintig", "dertig", "veertig", "vijftig", "zestig", "zeventig", "tachtig", "negentig"];

/// `text` with its spoken numbers in digits, each keeping its punctuation: "Pols zesenzeventig,
/// temperatuur achtendertig komma vier." → "Pols 76, temperatuur 38,4.". The words are joined by
/// single spaces where anything changed; `text` itself where nothing did. Not a number: "een",
/// and "acht" in "in acht nemen".
pub(crate) fn in_digits(text: &str) -> Cow<'_, str> {
    // a word's value, given the word before it
    let number = |before: Option<&str>, w: &str| {
        spelled(trimmed(w)).filter(|&n| !(n == 8 && before.is_some_and(|b| trimmed(b).eq_ignore_ascii_case("in"))))
    };
    // most sentences hold no number word: looked for without copying anything
    let mut before = None;
    if !text.split_whitespace().any(|w| number(before.replace(w), w).is_some()) && !text.contains(" komma ") {
        return Cow::Borrowed(text);
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    // a number in digits is read too where "komma" follows it, typed so: "6 komma 1"
    let value = |i: usize| {
        number(i.checked_sub(1).map(|b| words[b]), words[i]).or_else(|| {
            let w = words[i];
            (tail(w).is_empty() && words.get(i + 1) == Some(&"komma") && w.chars().all(|c| c.is_ascii_digit()))
                .then(|| w.parse().ok())
                .flatten()
        })
    };
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let Some(n) = value(i) else {
            out.push(words[i].to_owned());
            i += 1;
            continue;
        };
        let w = words[i];
        let lead = &w[..w.len() - w.trim_start_matches(|c: char| !c.is_alphanumeric()).len()];
        // "achtendertig komma vier": one decimal number, when nothing parts the words
        let decimal = (tail(w).is_empty() && words.get(i + 1).is_some_and(|k| *k == "komma"))
            .then(|| {
                words.get(i + 2).and_then(|d| {
                    let digits = trimmed(d);
                    let decimals = match spelled(digits) {
                        Some(n) => n.to_string(),
                        None if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) => digits.to_owned(),
                        None => return None,
                    };
                    Some((decimals, tail(d)))
                })
            })
            .flatten();
        match decimal {
            Some((d, punct)) => {
                out.push(format!("{lead}{n},{d}{punct}"));
                i += 3;
            }
            None => {
                out.push(format!("{lead}{n}{}", tail(w)));
                i += 1;
            }
        }
    }
    Cow::Owned(out.join(" "))
}

/// A word without the punctuation around it.
fn trimmed(w: &str) -> &str {
    w.trim_matches(|c: char| !c.is_alphanumeric())
}

/// The punctuation after a word ("twaalf," → ",").
pub(crate) fn tail(w: &str) -> &str {
    &w[w.trim_end_matches(|c: char| !c.is_alphanumeric()).len()..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_percentage_and_a_ratio_in_the_records_notation() {
        assert_eq!(notation("saturatie 95 procent, pols 84"), "saturatie 95%, pols 84");
        assert_eq!(notation("98 % en 40 procent."), "98% en 40%.");
        assert_eq!(notation("bloeddruk 136 over 84, nee"), "bloeddruk 136/84, nee");
        // a word that only looks alike stays
        assert_eq!(notation("over 3 weken, procent"), "over 3 weken, procent");
    }

    #[test]
    fn number_words() {
        for (word, n) in [
            ("twee", 2),
            ("Twaalf", 12),
            ("negentien", 19),
            ("twintig", 20),
            ("vijfenzeventig", 75),
            ("tweeëntachtig", 82),
            ("drieëndertig", 33),
            ("eenentwintig", 21),
            ("honderd", 100),
            ("honderdtwintig", 120),
            ("honderdachtendertig", 138),
            ("honderdenvijf", 105),
            ("vijfhonderd", 500),
            ("tweehonderdvijftig", 250),
            ("duizend", 1000),
            ("tweeduizend", 2000),
            ("anderhalf", 0),
        ] {
            assert_eq!(spelled(word), (n > 0).then_some(n), "{word}");
        }
        for word in ["een", "Een", "tweeën", "eens", "twee-", "zeventigste", "honderden", "tien5", ""] {
            assert_eq!(spelled(word), None, "{word}");
        }
    }

    #[test]
    fn a_sentence_in_digits() {
        assert_eq!(in_digits("Bloeddruk honderdachtendertig over tweeëntachtig, pols zesenzeventig."), "Bloeddruk 138 over 82, pols 76.");
        assert_eq!(in_digits("Temperatuur achtendertig komma vier."), "Temperatuur 38,4.");
        // typed in digits, the comma said as a word
        assert_eq!(in_digits("uw hb is 6 komma 1 en dat is laag"), "uw hb is 6,1 en dat is laag");
        assert_eq!(in_digits("de komma staat verkeerd"), "de komma staat verkeerd");
        assert_eq!(
            in_digits("Uw PHQ-9-score is nu twaalf, de vorige keer was het negentien."),
            "Uw PHQ-9-score is nu 12, de vorige keer was het 19."
        );
        assert_eq!(
            in_digits("Een tablet van vijfhonderd milligram, (twee keer) per dag."),
            "Een tablet van 500 milligram, (2 keer) per dag."
        );
        // nothing to change: the text itself, spacing and all
        assert!(matches!(in_digits("Een  paar dagen, dat neem ik in acht."), Cow::Borrowed(_)));
    }
}
