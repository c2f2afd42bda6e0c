//! A guess at who said a sentence, for speech engines that cannot tell speakers apart.
//!
//! Cheap by design (the live session calls it for every sentence): a handful of cue lists
//! matched in place, no regular expressions; only a sentence that holds a number is copied (with
//! its numbers in words in digits) or split into its words. The clinician asks, examines,
//! assesses and plans, and speaks formally ("u", "uw"); the patient speaks in the first person
//! about complaints, their duration and what they tried.

use super::rules::classify::{asks_to_examine, has_measurement, names_a_diagnosis};
use super::rules::cues::has_cue;
use super::rules::lexicon::{
    AGREEMENT, ANNOUNCE, ASSESSMENT_START, CLINICIAN_CUES, DIAGNOSIS_TERMS, EVALUATION, GREETING, IMPERATIVE_START, OBJECTIVE,
    OWN_MEDICATION, OWN_VOICE, PATIENT_CUES, PATIENT_QUESTION, PLAN, QUESTION_START,
};
use super::rules::register::verb_then_subject;
use super::rules::style::strip_leading_fillers;
use crate::speech::Speaker;

/// How far a question leans the next sentence to the other speaker: as much as a measured value
/// and an examination word together, less than an assessment's opening.
const ANSWER_LEAN: u32 = 3;

/// Guesses the speaker of a sentence that came without one.
///
/// Questions and examination, assessment or plan language count for the clinician;
/// first-person complaints for the patient. On a tie (bare "Ja.", "Nee.") the patient is the
/// more likely speaker: the clinician's sentences carry the stronger cues.
pub fn guess_speaker(sentence: &str) -> Speaker {
    guess_in_turn(sentence, None)
}

/// Guesses the speaker of a sentence that came without one, after a question by `asked_by` (the
/// sentence before it, whoever said it): a sentence that asks nothing itself leans to the other
/// speaker, who answers ("Heeft u de temperatuur opgenomen? — Ik heb net zijn temperatuur
/// opgenomen, die is 38,7." is the carer's, not the doctor's measurement).
pub fn guess_in_turn(sentence: &str, asked_by: Option<Speaker>) -> Speaker {
    guess_on_floor(sentence, asked_by, false)
}

/// As [`guess_in_turn`], where the clinician `examining` holds the floor: past the history, after
/// a statement of theirs, a sentence with no stronger cue is theirs too ("Zo, het bloeden is
/// gestopt." during the examination, "Niet snuiten en niet peuteren." in the plan).
pub fn guess_on_floor(sentence: &str, asked_by: Option<Speaker>, examining: bool) -> Speaker {
    let s = sentence.trim();
    let mut clinician = 0u32;
    let mut patient = 0u32;
    if s.ends_with('?') {
        clinician += 2;
    }
    if QUESTION_START.starts_any(s) {
        clinician += 2;
    }
    // a typed question without its mark: "drinkt en eet ze goed" asks, "moet ik dan stoppen met de
    // zinkzalf" is the patient asking about themselves
    if !s.ends_with(['.', '!', '?']) {
        match verb_then_subject(strip_leading_fillers(s)) {
            Some("ik" | "we" | "wij") => patient += 4,
            Some(_) => clinician += 2,
            None => {}
        }
    }
    clinician += CLINICIAN_CUES.count(s);
    clinician += 2 * OBJECTIVE.count(s).min(2);
    clinician += 2 * EVALUATION.count(s).min(2);
    clinician += 2 * PLAN.count(s).min(2);
    // "Ik denk aan een longontsteking": the clinician's assessment opens so; "De keelpijn is een
    // virale keelontsteking", "Dit is aspecifieke lage rugpijn" name it
    if ASSESSMENT_START.starts_any(s) || (DIAGNOSIS_TERMS.any(s) && names_a_diagnosis(s)) {
        clinician += 4;
    }
    // a value measured ("De CCQ-score is 2,1"), unless the patient tells it as theirs
    if has_measurement(s) {
        clinician += 2;
    }
    patient += 2 * PATIENT_CUES.count(s);
    // what the speaker takes or has had, told as their own, outweighs the plan's words in it: "de
    // metformine neem ik twee keer per dag 500 milligram", "Ik heb net een kuur amoxicilline gehad
    // voor een bijholteontsteking"
    if OWN_MEDICATION.any(s) || ((has_cue(s, "ik heb") || has_cue(s, "heb ik")) && has_cue(s, "gehad")) {
        patient += 4;
    }
    let opening = strip_leading_fillers(s);
    // "Moet ik nu aan de insuline?": the patient asks about themselves
    if s.ends_with('?') && PATIENT_QUESTION.starts_any(opening) {
        patient += 4;
    }
    // "Ik ga even kijken en voelen.": the examination announced; "ik wil graag even van onderen
    // kijken is dat goed", typed, asks for it
    if ANNOUNCE.starts_any(opening) && !s.ends_with('?') {
        clinician += 3;
    } else if asks_to_examine(s) {
        clinician += 4;
    }
    // "Ja, dokter, fijn dat u zo snel kon komen": who calls the other "dokter" is not the doctor
    if calls_the_doctor(s) {
        patient += 4;
    }
    // past the history, a question that doubts or presses ("Moet er dan geen foto gemaakt
    // worden?", "Dat kan toch ook kanker worden?") is the patient's about the plan
    if examining && s.ends_with('?') && presses(s) {
        patient += 4;
    }
    // "Lees voortaan goed de etiketten.": advice is the clinician's ("Doe maar, …" is consent)
    let consent = opening.get(.."doe maar,".len()).is_some_and(|o| o.eq_ignore_ascii_case("doe maar,"));
    if IMPERATIVE_START.starts_any(opening) && !s.ends_with('?') && !consent {
        clinician += 3;
    }
    // the lean is only a lean: a sentence that addresses the other as "u" is the clinician's
    let addresses = has_cue(s, "u") || has_cue(s, "uw");
    if !s.ends_with('?') && !addresses {
        match asked_by {
            Some(Speaker::Zorgverlener) => patient += ANSWER_LEAN,
            Some(Speaker::Patient) => clinician += ANSWER_LEAN,
            None => {}
        }
    }
    // the lean passes over a question that lost its question mark, and over a sentence that speaks
    // as "ik", calls the other "dokter" or reacts: "Goed, dan laat ik het plafond nog even zitten"
    // is the patient taking the plan in (looked at only where the lean could apply)
    if examining
        && asked_by.is_none()
        && !s.ends_with('?')
        && !QUESTION_START.starts_any(opening)
        && !OWN_VOICE.any(s)
        && !AGREEMENT.any(s)
        && !GREETING.any(s)
    {
        clinician += FLOOR_LEAN;
    }
    if clinician > patient { Speaker::Zorgverlener } else { Speaker::Patient }
}

/// Whether `s` calls the other "dokter": the word set off by a comma or the sentence's edge, not
/// "de dokter" or "naar de dokter".
fn calls_the_doctor(s: &str) -> bool {
    // most sentences do not say it: looked for before anything is split
    if !has_cue(s, "dokter") {
        return false;
    }
    let words: Vec<&str> = s.split_whitespace().collect();
    words.iter().enumerate().any(|(i, w)| {
        let bare = w.trim_matches(|c: char| !c.is_alphanumeric());
        let after = w.ends_with([',', '.', '?', '!']) || i + 1 == words.len();
        let before = i == 0 || words[i - 1].ends_with(',');
        bare.eq_ignore_ascii_case("dokter") && (after || before)
    })
}

/// Whether a question doubts or presses, as the patient asks about the plan: "toch", "dan" after
/// its verb and subject (not a comparison's: "Huilt hij meer dan anders?"), or a denial in it
/// ("Kan hij niet gewoon een paracetamolletje nemen?").
fn presses(s: &str) -> bool {
    let words: Vec<String> =
        s.split(|c: char| !c.is_alphanumeric() && c != '\'').filter(|w| !w.is_empty()).map(str::to_lowercase).collect();
    let compares = |w: &str| w != "er" && (w.ends_with("er") || w == "meer");
    words.iter().any(|w| w == "toch")
        || (2..words.len().min(4)).any(|i| words[i] == "dan" && !compares(&words[i - 1]))
        || words.iter().take(4).skip(1).any(|w| matches!(w.as_str(), "niet" | "geen"))
}

/// How far the clinician's examination or plan leans the next cue-poor sentence to them.
const FLOOR_LEAN: u32 = 3;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_are_the_clinician() {
        assert_eq!(guess_speaker("Heeft u ook koorts gehad?"), Speaker::Zorgverlener);
        assert_eq!(guess_speaker("Hoe lang heeft u dit al"), Speaker::Zorgverlener);
        assert_eq!(guess_speaker("Waar zit de pijn precies?"), Speaker::Zorgverlener);
    }

    #[test]
    fn examination_and_plan_are_the_clinician() {
        assert_eq!(guess_speaker("De bloeddruk is 142 over 88."), Speaker::Zorgverlener);
        assert_eq!(guess_speaker("Bij auscultatie hoor ik geen crepitaties."), Speaker::Zorgverlener);
        assert_eq!(guess_speaker("Ik schrijf u amoxicilline voor, drie keer per dag 500 mg."), Speaker::Zorgverlener);
        assert_eq!(guess_speaker("Dit past bij een virale infectie."), Speaker::Zorgverlener);
        assert_eq!(guess_speaker("Ik denk aan een longontsteking rechts onder."), Speaker::Zorgverlener);
        assert_eq!(guess_speaker("De CCQ-score is 2,1."), Speaker::Zorgverlener);
    }

    #[test]
    fn a_typed_question_without_its_mark_is_asked_by_whom_its_subject_says() {
        assert_eq!(guess_speaker("drinkt hij genoeg en is hij helder"), Speaker::Zorgverlener);
        assert_eq!(guess_speaker("moet ik dan stoppen met de zinkzalf"), Speaker::Patient);
    }

    #[test]
    fn first_person_complaints_are_the_patient() {
        assert_eq!(guess_speaker("Ik heb sinds drie dagen keelpijn."), Speaker::Patient);
        assert_eq!(guess_speaker("Mijn knie is dik en het doet pijn."), Speaker::Patient);
        // the speaker's own medicines outweigh the plan's words in them
        assert_eq!(guess_speaker("de metformine neem ik twee keer per dag 500 milligram"), Speaker::Patient);
        assert_eq!(guess_speaker("Ik heb net een kuur amoxicilline gehad voor een bijholteontsteking."), Speaker::Patient);
        assert_eq!(guess_speaker("Nou, ik slaap heel slecht de laatste tijd."), Speaker::Patient);
    }

    #[test]
    fn an_answer_is_the_other_speaker_s() {
        let carer = "Ik heb net zijn temperatuur opgenomen, die is 38,7.";
        assert_eq!(guess_speaker(carer), Speaker::Zorgverlener);
        assert_eq!(guess_in_turn(carer, Some(Speaker::Zorgverlener)), Speaker::Patient);
        assert_eq!(guess_in_turn("Alleen iets voor de bloeddruk en een maagtablet.", Some(Speaker::Zorgverlener)), Speaker::Patient);
        // a question answers nothing, and "u" stays the clinician's
        assert_eq!(guess_in_turn("Heeft u koorts?", Some(Speaker::Zorgverlener)), Speaker::Zorgverlener);
        assert_eq!(
            guess_in_turn("U ademt vooraf niet uit en u houdt de adem maar één tel vast.", Some(Speaker::Zorgverlener)),
            Speaker::Zorgverlener
        );
    }

    #[test]
    fn advice_is_the_clinician_s_a_question_about_oneself_the_patient_s() {
        assert_eq!(guess_speaker("Lees voortaan goed de etiketten, ook van koekjes en sauzen."), Speaker::Zorgverlener);
        assert_eq!(guess_speaker("Sla daarom ook geen maaltijd over."), Speaker::Zorgverlener);
        assert_eq!(guess_speaker("Doe maar, liever even pijn dan nog een jaar dat ding."), Speaker::Patient);
        assert_eq!(guess_speaker("Moet ik nu aan de insuline, want daar ben ik echt bang voor?"), Speaker::Patient);
        assert_eq!(guess_speaker("Mag ik even naar uw keel kijken?"), Speaker::Zorgverlener);
    }

    #[test]
    fn past_the_history_the_clinician_holds_the_floor() {
        let finding = "Zo, het bloeden is gestopt.";
        assert_eq!(guess_in_turn(finding, None), Speaker::Patient);
        assert_eq!(guess_on_floor(finding, None, true), Speaker::Zorgverlener);
        assert_eq!(
            guess_on_floor("Niet snuiten en niet peuteren, en de eerste dagen niet zwaar tillen.", None, true),
            Speaker::Zorgverlener
        );
        // the patient taking the plan in, asking, or answering keeps their own voice
        assert_eq!(guess_on_floor("Goed, dan laat ik het plafond nog maar even zitten.", None, true), Speaker::Patient);
        assert_eq!(guess_on_floor("is dat erg dokter", None, true), Speaker::Patient);
        assert_eq!(guess_on_floor("Alleen iets voor de bloeddruk.", Some(Speaker::Zorgverlener), true), Speaker::Patient);
    }

    #[test]
    fn who_calls_the_other_dokter_is_not_the_doctor() {
        assert_eq!(guess_speaker("Ja, dokter, fijn dat u zo snel kon komen, loopt u maar mee naar boven."), Speaker::Patient);
        // "de dokter" is someone spoken of
        assert_eq!(guess_speaker("Als het niet beter wordt, gaat u naar de dokter van dienst."), Speaker::Zorgverlener);
    }

    #[test]
    fn past_the_history_a_question_that_doubts_is_the_patient_s() {
        assert_eq!(guess_on_floor("Moet er dan geen foto gemaakt worden?", None, true), Speaker::Patient);
        assert_eq!(guess_on_floor("Maar zo'n poliep, dat kan toch ook kanker worden?", None, true), Speaker::Patient);
        assert_eq!(guess_on_floor("Is zo'n crème niet te sterk voor zo'n kleintje?", None, true), Speaker::Patient);
        // in the history the clinician asks so too
        assert_eq!(guess_on_floor("Heeft u geen koorts gehad?", None, false), Speaker::Zorgverlener);
        // and past it, a plain question stays theirs
        assert_eq!(guess_on_floor("Heeft u nog vragen?", None, true), Speaker::Zorgverlener);
        assert_eq!(guess_on_floor("Huilt hij meer dan anders, of spuugt hij?", None, true), Speaker::Zorgverlener);
    }

    #[test]
    fn an_announced_examination_is_the_clinician_s() {
        assert_eq!(guess_speaker("Ik ga even kijken en voelen."), Speaker::Zorgverlener);
    }

    #[test]
    fn bare_answers_lean_to_the_patient() {
        assert_eq!(guess_speaker("Nee."), Speaker::Patient);
        assert_eq!(guess_speaker("Ja, een beetje."), Speaker::Patient);
    }
}
