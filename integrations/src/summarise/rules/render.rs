//! Shapes the placed sentences into the note each template asks for.
//!
//! - soap: `episode_count` episodes, each with its S, O, E (`diagnosis`) and P sentences in
//!   transcript order, in the style of the clinician's examples.
//! - report: one episode with S, O and P. A report has no E field; the assessment leads the plan
//!   (E sentences first, then P), which is where a reader of a report expects the conclusion.
//! - dictation and radiology: `dictation` is the cleaned text; `summarized_dictation` holds the
//!   conclusion sentences (radiology) or the most informative sentences (dictation), `None` when
//!   the text is too short to summarise or the summary would be the whole text.
//! - meeting: "Besproken:" and "Afspraken/acties:" lists.
//! - specialist: exactly the sections of [`specialist_sections`], filled by cue lists.

use std::collections::BTreeMap;

use crate::summarise::{ConsultResult, Episode, Flavour, SummaryRequest, specialist_sections};

use super::classify::{has_measurement, word_count};
use super::cues::{self, CueList};
use super::lexicon::{ACTION, ADDITIONAL_TESTS, ALLERGY, FOLLOW_UP, GREETING, IMAGING, RADIOLOGY_CONCLUSION, REFERRAL, is_ack};
use super::style::{self, Style};
use super::{Placement, Section, labels, register};

/// Who told the history when a parent speaks for a child ("Hij heeft sinds eergisteren diarree",
/// "Dit is Noor, ze is vier"): at least [`TOLD_BY_LINES`] of the history's sentences speak of
/// "hij", "ze", "zij" or "haar" before any "ik", or of "mijn zoon" or "mijn dochter", and at least
/// as many as speak as "ik" (a parent's "ik ben bang" beside three sentences about the child), more
/// where the history opens as "ik" (a teenager's own complaint, her mother adding). The parent is
/// the mother or the father when the conversation says so ("mevrouw", "mama"; "meneer", "papa"),
/// else "ouder"; where a son or daughter speaks of "mijn vader" or is asked about "uw moeder", the
/// history is theirs ("dochter", "zoon", else "familie"); a husband or wife typed as such
/// ("Echtgenote: …") tells the partner's ("partner"). The history then opens with "Anamnese via …".
pub(crate) fn told_by(request: &SummaryRequest, placements: &[Placement]) -> Option<&'static str> {
    // whom the sentence is about: the first "ik", "hij", "ze", "zij" or "haar" among its first ten
    // words ("Ze huilt", "Gisteren heeft hij", "Vannacht had ik", "Vijf maanden, en sinds een
    // maand of twee heeft ze …", "Nu zit het ook in haar nek")
    let subject = |s: &str| {
        let s = style::strip_leading_fillers(s.trim_start_matches(|c: char| !c.is_alphanumeric()));
        let s = s.strip_prefix("Ja, ").or_else(|| s.strip_prefix("Nee, ")).unwrap_or(s);
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .take(10)
            .map(str::to_lowercase)
            .find(|w| matches!(w.as_str(), "ik" | "hij" | "ze" | "zij" | "haar"))
    };
    let (mut third, mut first) = (0, 0);
    // whether the history opens in the speaker's own voice ("ik heb sinds april een verstopte
    // neus"): then the patient tells it, and another's sentences must outnumber theirs
    let mut opens_own = None;
    for p in placements.iter().filter(|p| p.section == Some(Section::Subjective)) {
        let said = request.transcript[p.index].sentence.as_str();
        match subject(said).as_deref() {
            Some("ik") => first += 1,
            Some(_) => third += 1,
            None if CHILD_OF_SPEAKER.any(said) => third += 1,
            None => continue,
        }
        opens_own.get_or_insert(first == 1);
    }
    if third < TOLD_BY_LINES || third < first || (opens_own == Some(true) && third == first) {
        return None;
    }
    let all = || request.transcript.iter().map(|l| l.sentence.as_str());
    // a son or daughter telling a parent's history ("mijn vader hoort slecht", "hoe is het met uw
    // vader?"): the patient is the parent
    // (whichever is named first: "ik bel voor mijn vader … mijn dochter had vorige week griep")
    let parent_first = all()
        .find_map(|s| match (PARENT_OF_SPEAKER.find(s), CHILD_OF_SPEAKER.find(s)) {
            (Some(parent), Some(child)) => Some(parent < child),
            (Some(_), None) => Some(true),
            (None, Some(_)) => Some(false),
            (None, None) => None,
        })
        .unwrap_or(false);
    if parent_first {
        return Some(match (all().any(|s| DAUGHTER.any(s)), all().any(|s| SON.any(s))) {
            (true, false) => "Anamnese via dochter.",
            (false, true) => "Anamnese via zoon.",
            _ => "Anamnese via familie.",
        });
    }
    // a husband or wife telling the partner's, as a typed label says ("Echtgenote: Hij zweet") or
    // the call opens ("ik bel voor mijn vrouw"): a parent speaks of "mijn man" too, so only the
    // label or the reason for the call tells
    let opening: Vec<&str> = all().take(PARTNER_OPENING).collect();
    if all().any(|s| PARTNER_LABEL.starts_any(s)) || opening.iter().any(|s| PARTNER_OF_SPEAKER.any(s) || opens_with_partner(s)) {
        return Some("Anamnese via partner.");
    }
    // a neighbour who found or calls for the patient ("ik ben haar buurvrouw")
    if let Some((_, mark)) = NEIGHBOURS.iter().find(|(cue, _)| opening.iter().any(|s| cues::has_cue(s, cue))) {
        return Some(mark);
    }
    let (mother, father) = all().fold((false, false), |(m, f), s| {
        let (mother, father) = addressed(s);
        (m || mother, f || father)
    });
    Some(match (mother, father) {
        (true, false) => "Anamnese via moeder.",
        (false, true) => "Anamnese via vader.",
        _ => "Anamnese via ouder.",
    })
}

/// History sentences about someone else a parent's history needs.
const TOLD_BY_LINES: usize = 2;

static CHILD_OF_SPEAKER: CueList =
    CueList::new(&["mijn zoon", "mijn zoontje", "mijn dochter", "mijn dochtertje", "ons kind", "onze zoon", "onze dochter"]);
static PARENT_OF_SPEAKER: CueList = CueList::new(&[
    "mijn vader",
    "mijn moeder",
    "uw vader",
    "uw moeder",
    "je vader",
    "je moeder",
    // a grown-up child who speaks of the parent as "mam" or "pap" ("Mam heeft net een uurtje
    // geslapen"), as a young child says "mama"
    "mam heeft",
    "mam is",
    "mam kan",
    "mam wil",
    "pap heeft",
    "pap is",
    "pap kan",
    "pap wil",
]);
/// The partner the call or visit is for, said at its opening: "ik bel voor mijn vrouw", "het gaat
/// om mijn man".
static PARTNER_OF_SPEAKER: CueList = CueList::new(&[
    "voor mijn vrouw",
    "over mijn vrouw",
    "om mijn vrouw",
    "voor mijn man",
    "over mijn man",
    "om mijn man",
    "voor mijn partner",
    "over mijn partner",
    "om mijn partner",
]);
/// Whether a clause of `s` opens with the speaker's partner as its subject: "Met mevrouw Smit,
/// mijn man bloedt al drie kwartier uit zijn neus" (a parent names "mijn man" later, in passing).
fn opens_with_partner(s: &str) -> bool {
    s.split([',', '.', ';', ':']).any(|clause| {
        let clause = clause.trim_start().to_lowercase();
        let mut words = clause.split_whitespace();
        let (Some("mijn"), Some("man" | "vrouw" | "partner"), Some(verb)) = (words.next(), words.next(), words.next()) else {
            return false;
        };
        !NOT_THEIR_COMPLAINT.contains(&verb)
    })
}

/// Verbs after "mijn man" or "mijn vrouw" that tell what the partner did, thought or said, no
/// complaint of theirs ([`opens_with_partner`]): "mijn vrouw vond het nodig", "mijn vrouw moest
/// werken", "mijn man zag dat …", "mijn man en ik …".
const NOT_THEIR_COMPLAINT: &[&str] = &[
    "en", "zei", "zegt", "vond", "vindt", "zag", "ziet", "moest", "moet", "wilde", "wil", "had", "heeft", "is", "was", "kon", "kan",
    "stuurde", "dacht", "denkt", "maakt", "maakte", "werkt", "zit", "komt", "kwam",
];

/// A neighbour who calls or found the patient, and the history's mark.
const NEIGHBOURS: [(&str, &str); 2] = [("buurvrouw", "Anamnese via buurvrouw."), ("buurman", "Anamnese via buurman.")];

/// The opening sentences in which the reason for the call is said.
const PARTNER_OPENING: usize = 4;
static PARTNER_LABEL: CueList = CueList::new(&["echtgenote:", "echtgenoot:", "partner:"]);
static DAUGHTER: CueList = CueList::new(&["dochter"]);
static SON: CueList = CueList::new(&["zoon"]);
const MOTHER: &[&str] = &["mevrouw", "mama", "moeder", "mam"];
const FATHER: &[&str] = &["meneer", "papa", "vader", "pap"];

/// Whether `s` calls the one who speaks for the child a mother or a father ([`MOTHER`],
/// [`FATHER`]: "Goedemorgen mevrouw", "bent u de moeder?", "ik ben zijn vader"); "haar vader heeft
/// hooikoorts" speaks of someone else.
fn addressed(s: &str) -> (bool, bool) {
    let w: Vec<String> = s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect();
    let of_another = |i: usize| {
        i > 0 && matches!(w[i - 1].as_str(), "haar" | "zijn" | "mijn" | "hun" | "je" | "jouw" | "uw") && !(i > 1 && w[i - 2] == "ben")
    };
    let called = |words: &[&str]| w.iter().enumerate().any(|(i, word)| words.contains(&word.as_str()) && !of_another(i));
    (called(MOTHER), called(FATHER))
}

/// The SOEP episodes; within a field, the sentences problem by problem (see [`Placement::problem`]).
/// `told_by` opens the first history ([`told_by`]).
pub(crate) fn soap(placements: &[Placement], count: usize, style: &Style, told_by: Option<&str>) -> Vec<Episode> {
    let mut marked = false;
    (0..count.max(1))
        .map(|e| {
            let field = |section: Section| -> Vec<&str> {
                let mut in_field: Vec<&Placement> = placements.iter().filter(|p| p.episode == e && p.section == Some(section)).collect();
                in_field.sort_by_key(|p| (p.problem, p.index));
                in_field.into_iter().map(|p| p.text.as_str()).collect()
            };
            let mut history = field(Section::Subjective);
            if let Some(told_by) = told_by.filter(|_| !marked && !history.is_empty()) {
                history.insert(0, told_by);
                marked = true;
            }
            Episode {
                subjective: style.join(&history, false, true),
                objective: style.join(&field(Section::Objective), false, false),
                diagnosis: style.join(&field(Section::Evaluation), false, false),
                plan: style.join(&field(Section::Plan), true, false),
                ..Default::default()
            }
        })
        .collect()
}

/// The report: one episode, E leading the plan; `told_by` as for [`soap`].
pub(crate) fn report(placements: &[Placement], style: &Style, told_by: Option<&str>) -> Episode {
    let field = |sections: &[Section]| -> Vec<&str> {
        sections.iter().flat_map(|s| placements.iter().filter(move |p| p.section == Some(*s))).map(|p| p.text.as_str()).collect()
    };
    let mut history = field(&[Section::Subjective]);
    if let Some(told_by) = told_by.filter(|_| !history.is_empty()) {
        history.insert(0, told_by);
    }
    Episode {
        subjective: style.join(&history, false, true),
        objective: style.join(&field(&[Section::Objective]), false, false),
        diagnosis: String::new(),
        plan: style.join(&field(&[Section::Evaluation, Section::Plan]), true, false),
        ..Default::default()
    }
}

/// The cleaned sentences of the transcript, small talk and bare acknowledgements left out.
fn clean_sentences(request: &SummaryRequest) -> Vec<String> {
    request
        .transcript
        .iter()
        .map(|l| l.sentence.trim())
        .filter(|s| !s.is_empty() && !is_ack(s))
        .map(style::note_text)
        .filter(|s| !s.is_empty())
        .collect()
}

/// Dictation and radiology: the clean text and its extractive summary.
pub(crate) fn dictation(request: &SummaryRequest, radiology: bool) -> ConsultResult {
    let sentences = clean_sentences(request);
    let text = sentences.join(" ");
    let summary: Vec<&str> = if radiology {
        // From the first conclusion heading on, or else every sentence with a conclusion cue.
        match sentences.iter().position(|s| cues::starts_with_cue(s, "conclusie") || cues::starts_with_cue(s, "concluderend")) {
            Some(i) => sentences[i..].iter().map(String::as_str).collect(),
            None => sentences.iter().filter(|s| RADIOLOGY_CONCLUSION.any(s)).map(String::as_str).collect(),
        }
    } else {
        top_sentences(&sentences)
    };
    let summarized = (sentences.len() >= 3 && !summary.is_empty() && summary.len() < sentences.len()).then(|| summary.join(" "));
    ConsultResult { dictation: Some(text), summarized_dictation: summarized, ..Default::default() }
}

/// The most informative third of a dictation (at least two, at most eight sentences), in their
/// original order: scored by clinical cue hits per sentence.
fn top_sentences(sentences: &[String]) -> Vec<&str> {
    use super::lexicon::{DIAGNOSIS_TERMS, EVALUATION, OBJECTIVE, PLAN};
    if sentences.len() < 4 {
        return Vec::new();
    }
    let keep = sentences.len().div_ceil(3).clamp(2, 8);
    let mut scored: Vec<(u32, usize)> = sentences
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let score =
                2 * EVALUATION.count(s) + 2 * PLAN.count(s) + OBJECTIVE.count(s) + DIAGNOSIS_TERMS.count(s) + u32::from(has_measurement(s));
            (score, i)
        })
        .collect();
    scored.sort_by_key(|&(score, i)| (std::cmp::Reverse(score), i));
    let mut chosen: Vec<usize> = scored.iter().take(keep).map(|&(_, i)| i).collect();
    chosen.sort_unstable();
    chosen.into_iter().map(|i| sentences[i].as_str()).collect()
}

/// A typed speaker label at the start of a meeting line: a role the register knows ("POH:"), or
/// a name of at most three words ("Marieke:", "Dr. de Vries:"). The label and the rest.
fn meeting_label(s: &str) -> Option<(&str, &str)> {
    if let Some((_, rest)) = labels::split_label(s) {
        let label = s[..s.len() - rest.len()].trim().trim_end_matches(':').trim();
        return Some((label, rest));
    }
    // a name rather than a role
    let (label, rest) = s.split_once(':')?;
    let words: Vec<&str> = label.split_whitespace().collect();
    let name = !words.is_empty()
        && words.len() <= 3
        && words.iter().all(|w| w.chars().all(|c| c.is_alphabetic() || c == '-' || c == '.'))
        && words.iter().any(|w| w.starts_with(char::is_uppercase));
    name.then(|| (label.trim(), rest.trim_start()))
}

/// Meeting minutes: what was discussed and what was agreed (who does what, when), without the
/// speakers' labels: "POH: Ik bel haar donderdag." is the agreement "POH belt haar donderdag.".
pub(crate) fn meeting(request: &SummaryRequest) -> ConsultResult {
    let mut discussed = Vec::new();
    let mut actions = Vec::new();
    for line in request.transcript.iter().map(|l| l.sentence.trim()) {
        let (label, s) = meeting_label(line).map_or((None, line), |(l, rest)| (Some(l), rest.trim()));
        let s = without_opening(s);
        if s.is_empty() || is_ack(s) || (GREETING.any(s) && word_count(s) <= 6) || CHAIRING.starts_any(s) {
            continue;
        }
        if ACTION.any(s) {
            actions.push(agreement(label, s));
        } else if word_count(s) >= 4 && !s.ends_with('?') {
            discussed.push(style::note_text(s));
        }
    }
    let list = |items: &[String], none: &str| {
        if items.is_empty() { format!("- {none}") } else { items.iter().map(|i| format!("- {i}")).collect::<Vec<_>>().join("\n") }
    };
    let minutes = format!(
        "Besproken:\n{}\n\nAfspraken/acties:\n{}",
        list(&discussed, "Geen punten vastgelegd."),
        list(&actions, "Geen afspraken vastgelegd.")
    );
    ConsultResult { meeting: Some(minutes), ..Default::default() }
}

/// The chair moving the meeting along ("we beginnen met mevrouw Jansen", "dan de volgende"):
/// neither discussed nor agreed.
static CHAIRING: CueList = CueList::new(&[
    "we beginnen",
    "wij beginnen",
    "we bespreken",
    "wij bespreken",
    "we gaan verder",
    "dan de volgende",
    "de volgende",
    "volgende patiënt",
    "volgende punt",
]);

/// A meeting line without the greeting or acknowledgement it opens with ("Goedemiddag
/// allemaal, we beginnen …", "Prima, dan de volgende."): what follows the first comma.
fn without_opening(s: &str) -> &str {
    match s.split_once(',') {
        Some((lead, rest)) if (GREETING.any(lead) && word_count(lead) <= 3) || is_ack(lead) => rest.trim(),
        _ => s,
    }
}

/// Discourse words that may stand before the verb of a "we" sentence without meaning anything.
const DISCOURSE_LEAD: [&str; 5] = ["dan", "dus", "nou", "oké", "oke"];

/// A sentence whose "we" follows its verb ("Dan starten we met X", "Over drie maanden plannen we
/// X") in the order that puts "we" first ("We starten met X", "We plannen over drie maanden X"),
/// so the register writes it as the plan; `None` when "we" does not follow the verb.
fn we_first(s: &str) -> Option<String> {
    let bare = |w: &str| w.trim_matches(',').to_lowercase();
    let words: Vec<&str> = s.split_whitespace().collect();
    let at = words.iter().position(|w| matches!(bare(w).as_str(), "we" | "wij"))?;
    // "we" first, or after a comma ("Goed, we …"), is in its place already
    if at == 0 || words[at - 1].ends_with(',') {
        return None;
    }
    let mut out = vec!["We".to_owned(), words[at - 1].to_owned()];
    for (i, w) in words[..at - 1].iter().filter(|w| !DISCOURSE_LEAD.contains(&bare(w).as_str())).enumerate() {
        // the sentence's first word loses its capital, unless it is an abbreviation ("POH")
        let abbreviation = w.chars().filter(|c| c.is_alphabetic()).all(char::is_uppercase);
        out.push(if i == 0 && !abbreviation { w.to_lowercase() } else { (*w).to_owned() });
    }
    out.extend(words[at + 1..].iter().map(|w| (*w).to_owned()));
    Some(out.join(" "))
}

/// An agreement as the minutes write it: the speaker's "ik" becomes the speaker ("Ik bel haar" →
/// "POH belt haar", "Over drie maanden plan ik …" → "Over drie maanden plant Assistente …"), a "we" the infinitive ("We starten met metformine" → "Met metformine
/// starten"), anything else its own words.
fn agreement(label: Option<&str>, s: &str) -> String {
    let opens_with = |w: &str| s.split_whitespace().next().is_some_and(|first| first.trim_matches(',').eq_ignore_ascii_case(w));
    // a role as a noun ("de assistente"), an abbreviation ("POH") or a name as typed
    let speaker = label.map(|label| {
        let role = labels::is_role(label);
        let abbreviation = label.chars().filter(|c| c.is_alphabetic()).all(char::is_uppercase);
        if role && !abbreviation { format!("de {}", label.to_lowercase()) } else { label.to_owned() }
    });
    if let Some(said) = speaker.and_then(|speaker| register::with_speaker(s, &speaker)) {
        return style::note_text(&said);
    }
    if opens_with("we") || opens_with("wij") {
        return register::clinical(Section::Plan, crate::speech::Speaker::Zorgverlener, s);
    }
    if let Some(reordered) = we_first(s) {
        return register::clinical(Section::Plan, crate::speech::Speaker::Zorgverlener, &reordered);
    }
    style::note_text(s)
}

/// The specialist letter: every section of the flavour, filled from the placements.
pub(crate) fn specialist(placements: &[Placement], flavour: Flavour) -> ConsultResult {
    let sections = specialist_sections(flavour);
    let has = |name: &str| sections.contains(&name);
    let mut map: BTreeMap<String, Vec<&str>> = sections.iter().map(|s| ((*s).to_owned(), Vec::new())).collect();
    for p in placements {
        let Some(section) = p.section else { continue };
        let t = p.text.as_str();
        let mut put = |name: &str, text| {
            if let Some(v) = map.get_mut(name) {
                v.push(text);
            }
        };
        match section {
            Section::Subjective if REFERRAL.any(t) => put("Reden van verwijzing", t),
            Section::Subjective if has("Allergologische anamnese") && ALLERGY.any(t) => put("Allergologische anamnese", t),
            Section::Subjective => put("Anamnese", t),
            Section::Objective if has("Beeldvorming") && IMAGING.any(t) => put("Beeldvorming", t),
            Section::Objective if has("Aanvullend onderzoek") && ADDITIONAL_TESTS.any(t) => put("Aanvullend onderzoek", t),
            Section::Objective => put("Lichamelijk onderzoek", t),
            Section::Evaluation => put("Conclusie", t),
            Section::Plan if REFERRAL.any(t) && !FOLLOW_UP.any(t) => put("Reden van verwijzing", t),
            Section::Plan => put("Beleid", t),
        }
    }
    let out = map.into_iter().map(|(k, v)| (k, v.join(" "))).collect();
    ConsultResult { specialist_summarization: Some(out), ..Default::default() }
}
