//! The speaker labels a typed transcript puts before a turn ("Patiënt: …", "huisarts : …").

use crate::speech::Speaker;

/// Labels a typed transcript puts before a turn, with the speaker they name.
const LABELS: &[(&str, Speaker)] = &[
    ("patiënt", Speaker::Patient),
    ("patiente", Speaker::Patient),
    ("patiënte", Speaker::Patient),
    ("patient", Speaker::Patient),
    ("pat", Speaker::Patient),
    ("pt", Speaker::Patient),
    ("cliënt", Speaker::Patient),
    ("client", Speaker::Patient),
    ("moeder", Speaker::Patient),
    ("vader", Speaker::Patient),
    ("ouder", Speaker::Patient),
    ("partner", Speaker::Patient),
    ("zoon", Speaker::Patient),
    ("dochter", Speaker::Patient),
    ("echtgenote", Speaker::Patient),
    ("echtgenoot", Speaker::Patient),
    ("mantelzorger", Speaker::Patient),
    ("verzorger", Speaker::Patient),
    ("huisarts", Speaker::Zorgverlener),
    ("arts", Speaker::Zorgverlener),
    ("dokter", Speaker::Zorgverlener),
    ("dr", Speaker::Zorgverlener),
    ("ha", Speaker::Zorgverlener),
    ("zorgverlener", Speaker::Zorgverlener),
    ("poh-ggz", Speaker::Zorgverlener),
    ("poh ggz", Speaker::Zorgverlener),
    ("poh", Speaker::Zorgverlener),
    ("praktijkondersteuner", Speaker::Zorgverlener),
    ("assistente", Speaker::Zorgverlener),
    ("verpleegkundige", Speaker::Zorgverlener),
];

/// Whether `word` (any case) is a role a typed label can name ("huisarts", "POH", "assistente").
pub(crate) fn is_role(word: &str) -> bool {
    let word = word.trim().to_lowercase();
    LABELS.iter().any(|(label, _)| *label == word)
}

/// A typed speaker label at the start of `s` ("Patiënt: …", "huisarts : …"): the speaker it
/// names and the text after it.
pub(crate) fn split_label(s: &str) -> Option<(Speaker, &str)> {
    let (head, rest) = head_of(s)?;
    let (_, speaker) = LABELS.iter().find(|(l, _)| *l == head)?;
    Some((*speaker, rest))
}

/// What stands before the first colon of `s`, in lower case, and what follows it.
fn head_of(s: &str) -> Option<(String, &str)> {
    let (head, rest) = s.trim_start().split_once(':')?;
    Some((head.trim().to_lowercase(), rest.trim_start()))
}

/// Labels of someone who speaks beside or for the patient, as the record names them.
const RELATIVES: &[&str] =
    &["moeder", "vader", "ouder", "partner", "zoon", "dochter", "echtgenote", "echtgenoot", "mantelzorger", "verzorger"];

/// The relative a typed label at the start of `s` names ("Echtgenote: Hij snurkt" →
/// "echtgenote").
pub(crate) fn relative(s: &str) -> Option<&'static str> {
    let (head, _) = head_of(s)?;
    RELATIVES.iter().find(|r| **r == head).copied()
}

/// Whether a typed transcript has the patient speak for themselves beside a relative
/// ("Patiënt: …" and "Echtgenote: …"): then the relative's history is theirs, sentence by
/// sentence, not the whole history's teller.
pub(crate) fn relative_beside_patient<'a>(mut sentences: impl Iterator<Item = &'a str>) -> bool {
    let (mut patient, mut relative_seen) = (false, false);
    sentences.any(|s| {
        match split_label(s) {
            Some((Speaker::Patient, _)) if relative(s).is_some() => relative_seen = true,
            Some((Speaker::Patient, _)) => patient = true,
            _ => {}
        }
        patient && relative_seen
    })
}

/// `s` without a typed speaker label.
pub(crate) fn strip_label(s: &str) -> &str {
    split_label(s).map_or(s, |(_, rest)| rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_split_off() {
        assert_eq!(split_label("Patiënt: Ik heb keelpijn."), Some((Speaker::Patient, "Ik heb keelpijn.")));
        assert_eq!(split_label("huisarts : Hoest u?"), Some((Speaker::Zorgverlener, "Hoest u?")));
        assert_eq!(split_label("Temperatuur: 38,5."), None);
        assert_eq!(strip_label("POH-GGZ: Welkom."), "Welkom.");
        // whoever speaks for the patient is on the patient's side
        assert_eq!(split_label("Echtgenote: Hij zweet."), Some((Speaker::Patient, "Hij zweet.")));
        assert_eq!(relative("Echtgenote: Hij zweet."), Some("echtgenote"));
        assert_eq!(relative("Patiënt: Ik zweet."), None);
        assert!(relative_beside_patient(["Patiënt: Ik ben moe.", "Echtgenote: Hij snurkt."].into_iter()));
        assert!(!relative_beside_patient(["Huisarts: Wat is er?", "Moeder: Ze hoest."].into_iter()));
    }
}
