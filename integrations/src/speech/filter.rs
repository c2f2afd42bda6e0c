//! Cleaning up Whisper's known failure modes before a transcription becomes transcript lines.
//!
//! Whisper was trained on subtitled video. In silence, in noise and at the end of a clip it
//! invents the lines such videos end with ("Bedankt voor het kijken!", subtitle credits), and
//! sometimes it gets stuck and repeats a phrase over and over. [`clean`] drops sentences that are
//! such an invention as a whole and collapses runs of a repeated phrase into one.

use super::sentences;

/// Sentences Whisper is known to invent during silence or at the end of a clip, in the languages
/// a Dutch consult may be transcribed in. A sentence is dropped when it is one of these as a
/// whole, compared after [`normalise`] (case, punctuation and spacing do not matter). Collected
/// from reports of Whisper hallucinations (English and Dutch subtitle credits and video
/// outros); words a patient or doctor may really say on their own ("Dank u wel.", "Tot ziens.")
/// are deliberately absent.
const PHRASES: &[&str] = &[
    // English.
    "Thank you.",
    "Thank you very much.",
    "Thank you so much for watching.",
    "Thanks for watching!",
    "Thank you for watching.",
    "Thank you for watching!",
    "Thanks for watching and see you next time.",
    "Subtitles by the Amara.org community",
    "Please subscribe",
    "Please subscribe to my channel.",
    "Like and subscribe.",
    "See you next time.",
    "you",
    "Bye.",
    "Bye-bye.",
    // Dutch.
    "Ondertiteld door de Amara.org gemeenschap",
    "Ondertiteling door de Amara.org gemeenschap",
    "Ondertitels ingediend door de Amara.org gemeenschap",
    "Ondertiteling door TV Gelderland",
    "Ondertiteling door TV Gelderland 2021",
    "TV Gelderland 2021",
    "Bedankt voor het kijken",
    "Bedankt voor het kijken!",
    "Bedankt voor het kijken en tot de volgende keer.",
    "Bedankt voor het luisteren.",
    "Dank je wel voor het kijken",
    "Dank je wel voor het kijken en tot de volgende keer.",
    "Dank u wel voor het kijken",
    "Dank jullie wel voor het kijken.",
    "Bedankt om te kijken.",
    "Abonneer je op het kanaal",
    "Abonneer je op mijn kanaal.",
    "Vergeet niet te abonneren.",
    "Vergeet je niet te abonneren op het kanaal.",
    "Like en abonneer.",
    "Tot de volgende keer",
    "Tot de volgende keer!",
    "Tot de volgende video.",
    "Ik hoop dat je genoten hebt van deze video.",
];

/// Beginnings of subtitle credits ("Ondertiteling: …", "Ondertiteld door …"): a sentence that
/// starts with one of these (normalised) is dropped whatever follows.
const PREFIXES: &[&str] =
    &["ondertiteld door", "ondertiteling", "ondertitels", "ondertitelingen", "subtitles by", "subtitled by", "subtitles made by"];

/// A sentence that contains one of these (normalised) anywhere is a subtitle credit.
const FRAGMENTS: &[&str] = &["amara org"];

/// The longest phrase, in words, whose repetition is collapsed.
pub const MAX_REPEATED_WORDS: usize = 8;
/// A phrase repeated this many times in a row (or more) is collapsed into one.
pub const MIN_REPEATS: usize = 3;

/// Cleans a transcription: collapses repetitions, splits it into sentences and drops the ones
/// Whisper invented. Returns the sentences that remain, in order.
pub fn clean(text: &str) -> Vec<String> {
    let text = collapse_repeats(text);
    if is_hallucination(&text) {
        return Vec::new();
    }
    sentences::split(&text).into_iter().filter(|sentence| !is_hallucination(sentence)).collect()
}

/// Lowercase, every character that is not a letter or digit a space, spaces collapsed.
pub fn normalise(text: &str) -> String {
    let mapped: String = text.chars().map(|c| if c.is_alphanumeric() { c } else { ' ' }).flat_map(char::to_lowercase).collect();
    mapped.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether `text` as a whole is a phrase Whisper invents (see [`PHRASES`], [`PREFIXES`] and
/// [`FRAGMENTS`]). Text without a letter or digit counts as invented too.
pub fn is_hallucination(text: &str) -> bool {
    let norm = normalise(text);
    if norm.is_empty() {
        return true;
    }
    PHRASES.iter().any(|phrase| normalise(phrase) == norm)
        || PREFIXES.iter().any(|prefix| norm == *prefix || norm.starts_with(&format!("{prefix} ")))
        || FRAGMENTS.iter().any(|fragment| format!(" {norm} ").contains(&format!(" {fragment} ")))
}

/// Collapses a phrase of 1 to [`MAX_REPEATED_WORDS`] words repeated [`MIN_REPEATS`] or more
/// times in a row into one occurrence (the last, which keeps its punctuation). Words compare
/// after [`normalise`]. Words are rejoined with single spaces.
pub fn collapse_repeats(text: &str) -> String {
    let mut words: Vec<&str> = text.split_whitespace().collect();
    // Collapsing can bring new repetitions together ("heel heel heel goed" three times); go on
    // until nothing changes. Each pass that changes something makes the text shorter.
    loop {
        let collapsed = collapse_once(&words);
        if collapsed.len() == words.len() {
            return words.join(" ");
        }
        words = collapsed;
    }
}

fn collapse_once<'a>(words: &[&'a str]) -> Vec<&'a str> {
    let keys: Vec<String> = words.iter().map(|word| normalise(word)).collect();
    let mut out = Vec::with_capacity(words.len());
    let mut i = 0;
    'words: while i < words.len() {
        for n in 1..=MAX_REPEATED_WORDS {
            if i + n * MIN_REPEATS > words.len() {
                break;
            }
            let phrase = &keys[i..i + n];
            let mut count = 1;
            while i + (count + 1) * n <= words.len() && keys[i + count * n..i + (count + 1) * n] == *phrase {
                count += 1;
            }
            if count >= MIN_REPEATS {
                let last = i + (count - 1) * n;
                out.extend_from_slice(&words[last..last + n]);
                i += count * n;
                continue 'words;
            }
        }
        out.push(words[i]);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalising_ignores_case_punctuation_and_spacing() {
        assert_eq!(normalise("  Bedankt voor  het Kijken!! "), "bedankt voor het kijken");
        assert_eq!(normalise("Ondertiteld door de Amara.org-gemeenschap"), "ondertiteld door de amara org gemeenschap");
        assert_eq!(normalise("Patiënt…"), "patiënt");
    }

    #[test]
    fn known_inventions_are_hallucinations() {
        for text in [
            "Thank you.",
            " thank you ",
            "Thanks for watching!",
            "Subtitles by the Amara.org community",
            "You",
            "Ondertiteld door de Amara.org gemeenschap",
            "Ondertitels ingediend door de Amara.org gemeenschap.",
            "Ondertiteling door TV Gelderland",
            "Ondertiteling: Jan de Vries",
            "ONDERTITELD DOOR: Stichting Ondertiteling",
            "Bedankt voor het kijken",
            "Bedankt voor het kijken!",
            "Dank je wel voor het kijken.",
            "Dank u wel voor het kijken",
            "Abonneer je op het kanaal!",
            "Tot de volgende keer.",
            "Meer op Amara.org",
            "...",
        ] {
            assert!(is_hallucination(text), "{text:?}");
        }
    }

    #[test]
    fn real_speech_is_no_hallucination() {
        for text in [
            "Dank u wel.",
            "Tot ziens.",
            "Bedankt voor uw komst, tot volgende week.",
            "Ik heb al drie dagen hoofdpijn.",
            "Thank you doctor, you helped me a lot.",
            "Heeft u de ondertiteling van die film gezien?",
            "Bent u gisteren naar de televisie gelderland geweest?",
        ] {
            assert!(!is_hallucination(text), "{text:?}");
        }
    }

    #[test]
    fn invented_sentences_are_dropped_from_a_transcription() {
        assert_eq!(clean("Ik heb hoofdpijn. Bedankt voor het kijken! Ondertiteling: TV Gelderland 2021"), vec!["Ik heb hoofdpijn."]);
        assert!(clean("Ondertiteld door de Amara.org gemeenschap").is_empty());
        assert!(clean("  ").is_empty());
        assert_eq!(clean("Dank u wel. Tot ziens."), vec!["Dank u wel.", "Tot ziens."]);
    }

    #[test]
    fn a_phrase_repeated_three_times_or_more_is_collapsed() {
        assert_eq!(collapse_repeats("ja ja ja ja"), "ja");
        assert_eq!(collapse_repeats("Ik heb pijn, pijn, pijn in mijn buik."), "Ik heb pijn in mijn buik.");
        assert_eq!(collapse_repeats("Ik weet het niet. Ik weet het niet. Ik weet het niet. Ik weet het niet."), "Ik weet het niet.");
        assert_eq!(
            collapse_repeats("Het doet pijn als ik loop en als ik zit, als ik loop en als ik zit, als ik loop en als ik zit."),
            "Het doet pijn als ik loop en als ik zit."
        );
        assert_eq!(
            collapse_repeats("heel heel heel goed heel heel heel goed heel heel heel goed"),
            "heel goed",
            "repetitions that come together after collapsing are collapsed too"
        );
    }

    #[test]
    fn fewer_than_three_repetitions_and_long_phrases_are_kept() {
        assert_eq!(collapse_repeats("heel heel erg"), "heel heel erg");
        assert_eq!(collapse_repeats("Nee, nee. Het gaat wel."), "Nee, nee. Het gaat wel.");
        let nine = "een twee drie vier vijf zes zeven acht negen";
        let thrice = format!("{nine} {nine} {nine}");
        assert_eq!(collapse_repeats(&thrice), thrice);
        assert_eq!(collapse_repeats(""), "");
    }
}
