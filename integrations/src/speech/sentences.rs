//! Splitting a transcription into sentences.
//!
//! A sentence ends at `.`, `?` or `!` (or a run of them, with closing quotes or brackets)
//! followed by whitespace and a capital, a digit or another non-letter, or by the end of the
//! text. A `.` does not end a sentence after a common Dutch abbreviation ("o.a.", "bijv.",
//! "dr.", "i.v.m.", "1 dd." …) or an initial ("J. de Vries"), nor inside a number ("2.5").
//! Sentences are trimmed; pieces without a letter or digit are dropped.

/// Dutch abbreviations (lowercase, with their dots) after which a `.` does not end a sentence.
const ABBREVIATIONS: &[&str] = &[
    "a.u.b.", "aanv.", "afd.", "afb.", "ca.", "d.d.", "dd.", "d.m.v.", "d.w.z.", "dhr.", "dr.", "drs.", "e.a.", "e.d.", "e.e.a.", "enz.",
    "etc.", "evt.", "excl.", "fam.", "fig.", "i.c.m.", "i.e.", "i.o.m.", "i.p.v.", "i.v.m.", "incl.", "ing.", "ir.", "jl.", "m.a.w.",
    "m.b.t.", "m.b.v.", "m.i.v.", "m.n.", "max.", "mevr.", "min.", "mr.", "mw.", "n.a.v.", "nl.", "nr.", "o.a.", "o.b.v.", "o.i.d.", "p.",
    "pag.", "pat.", "prof.", "resp.", "s.v.p.", "st.", "t.a.v.", "t.b.v.", "t.g.v.", "t.o.v.", "tel.", "v.d.", "vlg.", "vs.", "z.g.a.n.",
    "z.n.", "z.o.z.", "z.s.m.", "zgn.",
];

const TERMINATORS: &[char] = &['.', '?', '!', '…'];
const CLOSERS: &[char] = &['"', '\'', ')', ']', '”', '’', '»'];

/// Splits `text` into sentences, trimmed, without empty ones.
pub fn split(text: &str) -> Vec<String> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut sentences = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        if !TERMINATORS.contains(&c) {
            i += 1;
            continue;
        }
        // The whole run of terminators and closing marks.
        let mut end = i + 1;
        while end < chars.len() && (TERMINATORS.contains(&chars[end].1) || CLOSERS.contains(&chars[end].1)) {
            end += 1;
        }
        let byte_end = chars.get(end).map_or(text.len(), |(b, _)| *b);
        let boundary = match chars.get(end) {
            None => true,
            Some((_, next)) if next.is_whitespace() => {
                let following = chars[end..].iter().map(|(_, c)| *c).find(|c| !c.is_whitespace());
                let run = &text[at..byte_end];
                let only_period = run.chars().all(|c| c == '.' || CLOSERS.contains(&c)) && run.starts_with('.');
                let single_period = only_period && run.chars().filter(|c| *c == '.').count() == 1;
                match following {
                    None => true,
                    Some(f) if f.is_lowercase() => false,
                    Some(_) if single_period => !is_abbreviation(&text[start..at + 1]),
                    Some(_) => true,
                }
            }
            Some(_) => false,
        };
        if boundary {
            push(&mut sentences, &text[start..byte_end]);
            start = byte_end;
        }
        i = end;
    }
    push(&mut sentences, &text[start..]);
    sentences
}

fn push(sentences: &mut Vec<String>, piece: &str) {
    let piece = piece.trim();
    // A piece without a letter or digit (a stray mark) is no sentence.
    if piece.chars().any(char::is_alphanumeric) {
        sentences.push(piece.to_string());
    }
}

/// Whether the last word of `upto` (which ends in a `.`) is an abbreviation or an initial.
fn is_abbreviation(upto: &str) -> bool {
    let word = upto.rsplit(|c: char| c.is_whitespace() || c == '(' || c == '"').next().unwrap_or("");
    let lower = word.to_lowercase();
    if ABBREVIATIONS.contains(&lower.as_str()) {
        return true;
    }
    // An initial: one letter and its dot ("J.").
    let mut letters = word.chars();
    matches!((letters.next(), letters.next(), letters.next()), (Some(l), Some('.'), None) if l.is_alphabetic())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_end_at_full_stops_questions_and_exclamations() {
        assert_eq!(
            split("Goedemorgen, wat kan ik voor u doen? Ik heb hoofdpijn. Au!  Dat doet pijn."),
            vec!["Goedemorgen, wat kan ik voor u doen?", "Ik heb hoofdpijn.", "Au!", "Dat doet pijn."]
        );
    }

    #[test]
    fn text_without_a_final_stop_is_one_sentence() {
        assert_eq!(split("  ik heb al drie dagen hoofdpijn  "), vec!["ik heb al drie dagen hoofdpijn"]);
        assert_eq!(split("Eerst dit. En dan"), vec!["Eerst dit.", "En dan"]);
    }

    #[test]
    fn empty_and_blank_text_has_no_sentences() {
        assert!(split("").is_empty());
        assert!(split("   \n ").is_empty());
        assert!(split(" . ").is_empty());
        assert_eq!(split("Ja. ... Nee."), vec!["Ja.", "Nee."]);
    }

    #[test]
    fn dutch_abbreviations_do_not_end_a_sentence() {
        assert_eq!(
            split("Ik heb o.a. last van mijn rug. Bijv. als ik buk. Dr. Jansen zei dat al."),
            vec!["Ik heb o.a. last van mijn rug.", "Bijv. als ik buk.", "Dr. Jansen zei dat al."]
        );
        assert_eq!(
            split("Dit is i.v.m. de pijn. Mevr. De Vries komt d.d. Maandag terug."),
            vec!["Dit is i.v.m. de pijn.", "Mevr. De Vries komt d.d. Maandag terug."]
        );
        assert_eq!(
            split("Paracetamol 500 mg 1 dd. Zo nodig z.n. Ibuprofen erbij."),
            vec!["Paracetamol 500 mg 1 dd. Zo nodig z.n. Ibuprofen erbij."]
        );
        assert_eq!(split("Verwezen naar J. de Vries. Klaar."), vec!["Verwezen naar J. de Vries.", "Klaar."]);
    }

    #[test]
    fn numbers_and_lowercase_continuations_do_not_end_a_sentence() {
        assert_eq!(
            split("De temperatuur is 38.5 graden. Het Hb is 7.2 mmol/l."),
            vec!["De temperatuur is 38.5 graden.", "Het Hb is 7.2 mmol/l."]
        );
        assert_eq!(split("Het was ca. tien dagen geleden."), vec!["Het was ca. tien dagen geleden."]);
        assert_eq!(split("Twee weken. 3 keer per dag."), vec!["Twee weken.", "3 keer per dag."]);
    }

    #[test]
    fn runs_of_marks_and_closing_quotes_stay_with_their_sentence() {
        assert_eq!(
            split("Echt?! Ja... Hij zei: \"Kom morgen terug.\" Goed."),
            vec!["Echt?!", "Ja...", "Hij zei: \"Kom morgen terug.\"", "Goed."]
        );
    }
}
