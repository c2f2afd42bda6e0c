//! Sentence placement: which SOEP field (or none) each transcript sentence belongs to.
//!
//! Per sentence, in order:
//! 1. The speaker is the engine's, or [`guess_speaker`]'s when the engine could not tell.
//! 2. The clinician's questions are dropped, but remembered: the patient's answer to a clinical
//!    question becomes S, and a bare yes or no is rewritten ("Heeft u koorts? — Nee." → "Geen
//!    koorts."). A question that proposes the plan ("Zullen we afspreken dat u over twee weken
//!    terugkomt?": a proposal opening and a plan cue) is P.
//! 3. Greetings, small talk, acknowledgements and the patient's agreement with the plan are
//!    dropped.
//! 4. The patient's other sentences are S (their own ideas about the cause included: in SOEP that
//!    is history, not assessment).
//! 5. The clinician's statements are scored against the O, E and P cue lists (and the restating
//!    cues for S); the highest score wins, ties going P, E, O, S. Announcing the examination
//!    ("ik ga even luisteren") is no finding and is dropped unless a finding cue outweighs it.

use crate::speech::Speaker;
use crate::summarise::speaker::guess_speaker;
use crate::summarise::{Flavour, TranscriptLine};

use super::Section;
use super::cues;
use super::labels;
use super::lexicon::*;
use super::register;
use super::style;

/// One sentence's placement before episodes are assigned.
pub(crate) struct Placed {
    pub section: Option<Section>,
    pub speaker: Speaker,
    /// The sentence as it goes into the note (fillers stripped, answers rewritten).
    pub text: String,
}

/// Places every line of the transcript; the result is parallel to `lines`.
pub(crate) fn place_all(lines: &[TranscriptLine], flavour: Flavour) -> Vec<Placed> {
    let mut out = Vec::with_capacity(lines.len());
    // The clinician's last clinical question, waiting for the patient's answer.
    let mut pending: Option<&str> = None;
    // The speaker of the last typed label ("Patiënt: …"): the turn's next sentences are theirs.
    let mut labelled: Option<Speaker> = None;
    // A written message ("Beste dokter, … Met vriendelijke groet, Jan"): its unlabelled lines are
    // the patient's, its greeting and signature belong nowhere, its questions are the question.
    let message = is_message(lines);
    let mut signed = false;
    for line in lines {
        let raw = line.sentence.trim();
        if message && line.speaker.is_none() && labels::split_label(raw).is_none() {
            let (section, text, ends) = place_message_line(raw, signed, flavour);
            signed |= ends;
            out.push(Placed { section, speaker: Speaker::Patient, text });
            continue;
        }
        let (label, sentence) = match labels::split_label(raw) {
            Some((speaker, rest)) => (Some(speaker), rest),
            None => (None, raw),
        };
        labelled = label.or(labelled);
        let speaker = label.or(line.speaker).or(labelled).unwrap_or_else(|| guess_speaker(sentence));
        if sentence.is_empty() {
            out.push(Placed { section: None, speaker, text: String::new() });
            continue;
        }
        let placed = match speaker {
            Speaker::Zorgverlener => {
                let (placed, question) = place_clinician(sentence, flavour);
                pending = question;
                placed
            }
            Speaker::Patient => place_patient(sentence, pending.take(), flavour),
        };
        let text = match placed.section {
            Some(section) => register::clinical(section, speaker, &placed.text),
            None => String::new(),
        };
        // A sentence the register leaves empty (only fillers) belongs nowhere.
        let section = placed.section.filter(|_| !text.is_empty());
        out.push(Placed { section, speaker, text });
    }
    out
}

/// Whether the transcript is a written message: its first unlabelled line opens with a salutation.
fn is_message(lines: &[TranscriptLine]) -> bool {
    lines
        .iter()
        .map(|l| l.sentence.trim())
        .find(|s| !s.is_empty())
        .is_some_and(|first| SALUTATION.starts_any(first) && lines.first().is_some_and(|l| l.speaker.is_none()))
}

/// One line of a patient's written message: nowhere for the salutation and the signature (and
/// everything after the sign-off), S for the rest, a question as the question ("Kunt u weer
/// naproxen voorschrijven?" → "Vraag: weer naproxen voorschrijven."). The third value says
/// whether this line signs the message off.
fn place_message_line(s: &str, signed: bool, flavour: Flavour) -> (Option<Section>, String, bool) {
    if signed || SIGN_OFF.starts_any(s) {
        return (None, String::new(), true);
    }
    if (SALUTATION.starts_any(s) && word_count(s) <= 4) || (GREETING.any(s) && word_count(s) <= 6) {
        return (None, String::new(), false);
    }
    // "Beste dokter, ik heb …": the salutation goes, the rest is the message
    let s = match s.split_once(',') {
        Some((head, rest)) if SALUTATION.starts_any(head) && word_count(head) <= 4 && !rest.trim().is_empty() => rest.trim(),
        _ => s,
    };
    if s.ends_with('?') {
        let asked = register::clinical(Section::Subjective, Speaker::Patient, &question_core(s));
        let asked = asked.trim_end_matches(['.', '?']).trim();
        if asked.is_empty() {
            return (None, String::new(), false);
        }
        let mut chars = asked.chars();
        let lower: String = chars.next().map(|c| c.to_lowercase().chain(chars).collect()).unwrap_or_default();
        return (Some(Section::Subjective), format!("Vraag: {lower}."), false);
    }
    let placed = place_patient(s, None, flavour);
    let text = placed.section.map(|section| register::clinical(section, Speaker::Patient, &placed.text)).unwrap_or_default();
    (placed.section.filter(|_| !text.is_empty()), text, false)
}

/// A question without its asking ("kunt u", "mag ik", "is het") and its question mark.
fn question_core(s: &str) -> String {
    let t = s.trim().trim_end_matches('?').trim();
    let lower = t.to_lowercase();
    for opening in ASKING {
        if lower.starts_with(opening) && lower[opening.len()..].starts_with(' ') {
            return t[opening.len()..].trim().to_owned();
        }
    }
    t.to_owned()
}

/// How a written question asks, dropped before its content.
const ASKING: &[&str] = &[
    "kunt u",
    "kan u",
    "zou u",
    "wilt u",
    "mag ik",
    "kan ik",
    "moet ik",
    "zal ik",
    "is het",
    "is het erg als",
    "is het goed als",
    "heeft u",
];

/// The sentence without leading fillers, for start-of-sentence matching.
fn strip_lead(s: &str) -> &str {
    style::strip_leading_fillers(s)
}

fn place_clinician(s: &str, flavour: Flavour) -> (Placed, Option<&str>) {
    let p = plan_score(s);
    // "Neemt u contact op met de bedrijfsarts." opens like a question but is the plan.
    if s.ends_with('?') || (QUESTION_START.starts_any(strip_lead(s)) && p < 2) {
        // A proposal phrased as a question is the plan.
        if p >= 2 && PROPOSAL.starts_any(strip_lead(s)) {
            return (placed(Section::Plan, s), None);
        }
        let clinical = !NON_CLINICAL_QUESTION.starts_any(strip_lead(s)) && !GREETING.any(s);
        return (dropped(), clinical.then_some(s));
    }
    let o = objective_score(s, flavour);
    let e = evaluation_score(s);
    let r = 2 * RESTATE.count(s);
    let greeting = GREETING.any(s) || is_ack(s);
    let announce = if ANNOUNCE.any(s) { 3 } else { 0 };
    let best = p.max(e).max(o).max(r);
    if best == 0 || (greeting && best < 3) || announce >= best {
        return (dropped(), None);
    }
    let section = if p == best {
        Section::Plan
    } else if e == best {
        Section::Evaluation
    } else if o == best {
        Section::Objective
    } else {
        Section::Subjective
    };
    (placed(section, s), None)
}

fn place_patient(s: &str, question: Option<&str>, flavour: Flavour) -> Placed {
    if is_ack(s) {
        return match question.and_then(|q| style::answer_to_note(q, s)) {
            Some(text) => Placed { section: Some(Section::Subjective), speaker: Speaker::Patient, text },
            None => dropped(),
        };
    }
    if let Some(q) = question
        && (word_count(s) <= 4 || (word_count(s) <= 14 && style::yes_or_no(s).is_some()))
        && !GREETING.any(s)
        && let Some(text) = style::answer_to_note(q, s)
    {
        return Placed { section: Some(Section::Subjective), speaker: Speaker::Patient, text };
    }
    let clinical = SUBJECTIVE.count(s) + DIAGNOSIS_TERMS.count(s) + if flavour == Flavour::PohGgz { GGZ_SUBJECTIVE.count(s) } else { 0 };
    if (GREETING.any(s) || AGREEMENT.any(s)) && clinical < 2 {
        return dropped();
    }
    if s.ends_with('?') && clinical == 0 {
        return dropped();
    }
    if clinical == 0 && word_count(s) <= 3 {
        return dropped();
    }
    placed(Section::Subjective, s)
}

fn plan_score(s: &str) -> u32 {
    // an imperative opening is advice: "Haal het kleed uit de gang weg."
    let imperative = if IMPERATIVE_START.starts_any(strip_lead(s)) && !s.ends_with('?') { 4 } else { 0 };
    2 * PLAN.count(s).min(4) + imperative
}

fn objective_score(s: &str, flavour: Flavour) -> u32 {
    let mut o = 2 * OBJECTIVE.count(s).min(3);
    if has_measurement(s) {
        o += 4;
    }
    if flavour == Flavour::PohGgz {
        o += 2 * GGZ_OBJECTIVE.count(s).min(3);
    }
    o
}

fn evaluation_score(s: &str) -> u32 {
    let terms = DIAGNOSIS_TERMS.count(s).min(2);
    // "De keelpijn is een virale keelontsteking", "Dat is handeczeem": a diagnosis named as what
    // the complaint is.
    let named = terms > 0 && (NAMES_A_DIAGNOSIS.starts_any(strip_lead(s)) || cues::has_cue(s, "is een"));
    let opens = ASSESSMENT_START.starts_any(strip_lead(s));
    3 * EVALUATION.count(s).min(2) + terms + if named || opens { 3 } else { 0 }
}

/// True when `text` holds a measured value: a number followed by a unit ("38,5 graden",
/// "98%", "7,2 mmol") or a blood-pressure-like ratio ("140/90").
pub(crate) fn has_measurement(text: &str) -> bool {
    if text.bytes().any(|b| b.is_ascii_digit()) && MEASURED.any(text) {
        return true;
    }
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < b.len() && (b[j].is_ascii_digit() || b[j] == b',' || b[j] == b'.') {
            j += 1;
        }
        // "140/90", "140 over 90"
        if j + 1 < b.len() && b[j] == b'/' && b[j + 1].is_ascii_digit() {
            return true;
        }
        let rest = text[j..].trim_start();
        if rest.starts_with('%') || rest.starts_with('°') {
            return true;
        }
        if UNITS.iter().any(|u| cues::starts_with_cue(rest, u)) && rest.len() < text.len() {
            let gap = &text[j..text.len() - rest.len()];
            if gap.len() <= 1 {
                return true;
            }
        }
        i = j.max(i + 1);
    }
    false
}

pub(crate) fn word_count(s: &str) -> usize {
    s.split_whitespace().count()
}

fn placed(section: Section, s: &str) -> Placed {
    Placed { section: Some(section), speaker: Speaker::Zorgverlener, text: style::note_text(s) }
}

fn dropped() -> Placed {
    Placed { section: None, speaker: Speaker::Zorgverlener, text: String::new() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measurements() {
        assert!(has_measurement("Bloeddruk 140/90."));
        assert!(has_measurement("De temperatuur is 38,5 graden."));
        assert!(has_measurement("Saturatie 98%."));
        assert!(has_measurement("De bloeddruk is 148 over 92."));
        assert!(!has_measurement("Drie keer per dag 500 mg."));
        assert!(!has_measurement("Over 2 weken terug."));
        // a named quantity or score with its number, without a unit
        assert!(has_measurement("De piekstroom is 320, terwijl je beste waarde rond de 450 ligt."));
        assert!(has_measurement("Uw score op de PHQ-9 is 17."));
        assert!(!has_measurement("Over drie maanden meet de assistente de bloeddruk."));
    }
}
