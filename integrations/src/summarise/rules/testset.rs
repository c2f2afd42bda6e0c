//! The annotated Dutch SOEP test set and the rules engine's accuracy on it.
//!
//! Each file of `data/soep-testset/` is one consult: the transcript lines with the field each
//! belongs to (`S`, `O`, `E`, `P`, or `-` for nowhere) and its episode, and the facts the note
//! must hold per episode and field. [`evaluate`] runs [`classify`] on every consult and counts,
//! per split (`dev`, `holdout`), the placements per class and the episode assignments; it then
//! writes the note itself and checks it: each expected fact found in its field and episode, in
//! another field, in another episode, or missing ([`check_note`]; the note's episodes matched to
//! the expected ones by the facts they hold, not by their number), and the style rules every
//! field must keep: no speaker labels, no questions, no fillers, no first person
//! ([`style_violations`]). [`Evaluation::markdown`] prints both tables.

use std::ops::RangeInclusive;
use std::path::Path;

use serde::Deserialize;

use super::lexicon::VERBS_AFTER_ER;
use super::{RulesSummariser, Section, classify, corrections, cues, numbers, register};
use crate::speech::Speaker;
use crate::summarise::{Episode, Flavour, SummaryRequest, Template, TranscriptLine};

/// One annotated consult.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TestConsult {
    pub id: String,
    #[serde(default)]
    pub template: Template,
    #[serde(default)]
    pub flavour: Flavour,
    pub episode_count: u8,
    /// "dev" or "holdout".
    pub split: String,
    /// Per episode, the facts its note must hold.
    #[serde(default)]
    pub note: Vec<ExpectedNote>,
    pub lines: Vec<TestLine>,
}

/// The consults of the first set (01 to 33), written with the rules; the rest (34 on) were written
/// afterwards by others, for measuring how the rules generalise.
pub const FIRST_SET: u32 = 33;

/// The batches written after the first set, by other writers who never saw the rules, each
/// committed alone and first run unseen after the rules had been tuned on the batches before it:
/// their names for `--batch` and their consults.
pub const BATCHES: [(&str, RangeInclusive<u32>); 26] = [
    ("second", 34..=101),
    ("third", 102..=133),
    ("fourth", 134..=165),
    ("fifth", 166..=197),
    ("sixth", 198..=229),
    ("seventh", 230..=261),
    ("eighth", 262..=293),
    ("ninth", 294..=325),
    ("tenth", 326..=357),
    ("eleventh", 358..=389),
    ("twelfth", 390..=421),
    ("thirteenth", 422..=453),
    ("fourteenth", 454..=485),
    ("fifteenth", 486..=517),
    ("sixteenth", 518..=549),
    ("seventeenth", 550..=581),
    ("eighteenth", 582..=613),
    ("nineteenth", 614..=645),
    ("twentieth", 646..=677),
    ("twenty-first", 678..=709),
    ("twenty-second", 710..=741),
    ("twenty-third", 742..=773),
    ("twenty-fourth", 774..=805),
    ("twenty-fifth", 806..=837),
    ("twenty-sixth", 838..=869),
    ("twenty-seventh", 870..=901),
];

impl TestConsult {
    /// The consult's number, from its id ("34-hypertensie-controle" → 34).
    pub fn number(&self) -> u32 {
        self.id.split('-').next().and_then(|n| n.parse().ok()).unwrap_or(0)
    }
}

/// The consults of `consults` that `selection` names: `all`, `first` (01 to 33), `new` (34 on) or
/// a batch of [`BATCHES`] by its name; another name is an error, never all of them unasked.
pub fn select(consults: Vec<TestConsult>, selection: &str) -> Result<Vec<TestConsult>, String> {
    let numbers = match selection {
        "all" => 0..=u32::MAX,
        "first" => 0..=FIRST_SET,
        "new" => FIRST_SET + 1..=u32::MAX,
        name => match BATCHES.iter().find(|(batch, _)| *batch == name) {
            Some((_, numbers)) => numbers.clone(),
            None => {
                let names: Vec<&str> = BATCHES.iter().map(|(batch, _)| *batch).collect();
                return Err(format!("onbekende selectie {name:?}: all, first, new of {}", names.join(", ")));
            }
        },
    };
    Ok(consults.into_iter().filter(|c| numbers.contains(&c.number())).collect())
}

/// The facts of one episode's note, per field. A fact is a key phrase that must appear in the
/// field (case-insensitive), alternatives separated by `|` ("3 dagen|drie dagen").
#[derive(Clone, Debug, Default, Deserialize)]
pub struct ExpectedNote {
    #[serde(rename = "S", default)]
    pub subjective: Vec<String>,
    #[serde(rename = "O", default)]
    pub objective: Vec<String>,
    #[serde(rename = "E", default)]
    pub evaluation: Vec<String>,
    #[serde(rename = "P", default)]
    pub plan: Vec<String>,
}

impl ExpectedNote {
    fn field(&self, f: usize) -> &[String] {
        match f {
            0 => &self.subjective,
            1 => &self.objective,
            2 => &self.evaluation,
            _ => &self.plan,
        }
    }
}

/// One annotated transcript line.
#[derive(Clone, Debug, Deserialize)]
pub struct TestLine {
    pub speaker: Option<Speaker>,
    pub sentence: String,
    /// "S", "O", "E", "P" or "-".
    pub expected: String,
    /// 1-based.
    pub episode: usize,
}

impl TestConsult {
    /// The consult as a summary request.
    pub fn request(&self) -> SummaryRequest {
        SummaryRequest {
            template: self.template,
            flavour: self.flavour,
            episode_count: self.episode_count,
            transcript: self.lines.iter().map(|l| TranscriptLine { sentence: l.sentence.clone(), speaker: l.speaker }).collect(),
            ..Default::default()
        }
    }
}

/// Reads every `*.json` consult of `dir`, sorted by file name.
pub fn load(dir: &Path) -> Result<Vec<TestConsult>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut paths: Vec<_> =
        entries.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "json")).collect();
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?;
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", p.display()))
        })
        .collect()
}

/// Words a minute of a spoken Dutch consult.
pub const WORDS_PER_MINUTE: usize = 130;

/// A consult of about `minutes` minutes: the test set's consults one after the other, speakers
/// kept, until `minutes` × [`WORDS_PER_MINUTE`] words. A SOEP request, three episodes.
pub fn consult_of(consults: &[TestConsult], minutes: usize) -> SummaryRequest {
    let words = minutes * WORDS_PER_MINUTE;
    let mut request = SummaryRequest { template: Template::Soap, episode_count: 3, ..Default::default() };
    let mut count = 0;
    for line in consults.iter().flat_map(|c| &c.lines).cycle().take(100_000) {
        if count >= words {
            break;
        }
        count += line.sentence.split_whitespace().count();
        request.transcript.push(TranscriptLine { sentence: line.sentence.clone(), speaker: line.speaker });
    }
    request
}

/// Five SOEP examples in the test set's Dutch, each of its four parts over 600 characters: all
/// longer than the share of the examples' budget each gets, so each is trimmed to it.
pub fn examples_at_cap(consults: &[TestConsult]) -> Vec<crate::summarise::SoapExample> {
    let mut sentences = consults.iter().flat_map(|c| &c.lines).map(|l| l.sentence.as_str()).cycle().take(100_000);
    let mut part = || {
        let mut text = String::new();
        while text.chars().count() < 600 {
            let Some(sentence) = sentences.next() else { break };
            text.push_str(sentence);
            text.push(' ');
        }
        text
    };
    (0..5).map(|_| crate::summarise::SoapExample { subjective: part(), objective: part(), evaluation: part(), plan: part() }).collect()
}

/// The classes in table order.
pub const CLASSES: [char; 5] = ['S', 'O', 'E', 'P', '-'];

/// Counts for one split.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scores {
    pub consults: usize,
    pub sentences: usize,
    /// `confusion[expected][predicted]`, indices as in [`CLASSES`].
    pub confusion: [[usize; 5]; 5],
    /// Clinical lines (expected not `-`) of consults with more than one episode, and how many of
    /// them went to the right episode.
    pub episode_lines: usize,
    pub episode_correct: usize,
}

impl Scores {
    /// Sentences placed in the right field (or rightly nowhere), as a fraction.
    pub fn accuracy(&self) -> f64 {
        let correct: usize = (0..5).map(|i| self.confusion[i][i]).sum();
        ratio(correct, self.sentences)
    }

    /// Precision of class `c` (index into [`CLASSES`]).
    pub fn precision(&self, c: usize) -> f64 {
        ratio(self.confusion[c][c], (0..5).map(|e| self.confusion[e][c]).sum())
    }

    /// Recall of class `c`.
    pub fn recall(&self, c: usize) -> f64 {
        ratio(self.confusion[c][c], self.confusion[c].iter().sum())
    }

    /// Episode assignment accuracy over the multi-episode consults.
    pub fn episode_accuracy(&self) -> f64 {
        ratio(self.episode_correct, self.episode_lines)
    }
}

/// `a / b`, 0 when `b` is 0.
pub(crate) fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// The scores per split and over all.
#[derive(Clone, Debug, Default)]
pub struct Evaluation {
    pub dev: Scores,
    pub holdout: Scores,
    pub all: Scores,
    /// The note-level checks per split.
    pub dev_note: NoteScores,
    pub holdout_note: NoteScores,
    pub all_note: NoteScores,
    /// Per consult: id, split, sentences, correct placements.
    pub per_consult: Vec<(String, String, usize, usize)>,
    /// Per consult: id and what the note check found amiss (missing or misplaced facts, style).
    pub note_misses: Vec<(String, Vec<String>)>,
}

/// The SOEP field names in table order.
pub const FIELDS: [char; 4] = ['S', 'O', 'E', 'P'];

/// One field's expected facts and where the note put them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FieldScore {
    pub expected: usize,
    /// In the right field of the right episode.
    pub found: usize,
    /// Not there, but in another field of the same episode.
    pub wrong_field: usize,
    /// Not in the episode at all, but in another episode.
    pub wrong_episode: usize,
}

impl FieldScore {
    /// The share of expected facts found in the right place.
    pub fn recall(&self) -> f64 {
        ratio(self.found, self.expected)
    }
}

/// Breaches of the note's style, counted over the fields of a note.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StyleCounts {
    /// Non-empty fields checked.
    pub fields: usize,
    /// "Patiënt:", "huisarts:" and the like.
    pub speaker_labels: usize,
    /// Question marks.
    pub questions: usize,
    /// Spoken fillers ("eh", "nou", "eigenlijk", "hoor" …).
    pub fillers: usize,
    /// First-person words ("ik", "mijn", "me", "we" …).
    pub first_person: usize,
    /// Second-person words ("u", "uw", "je", "jouw" …): the clinician speaking to the patient.
    pub second_person: usize,
}

impl StyleCounts {
    /// All breaches together.
    pub fn total(&self) -> usize {
        self.speaker_labels + self.questions + self.fillers + self.first_person + self.second_person
    }

    fn add(&mut self, o: &StyleCounts) {
        self.fields += o.fields;
        self.speaker_labels += o.speaker_labels;
        self.questions += o.questions;
        self.fillers += o.fillers;
        self.first_person += o.first_person;
        self.second_person += o.second_person;
    }
}

/// The note-level scores: per field (S, O, E, P) and the style breaches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoteScores {
    pub notes: usize,
    pub fields: [FieldScore; 4],
    pub style: StyleCounts,
}

impl NoteScores {
    /// The facts of all fields together.
    pub fn overall(&self) -> FieldScore {
        self.fields.iter().fold(FieldScore::default(), |a, f| FieldScore {
            expected: a.expected + f.expected,
            found: a.found + f.found,
            wrong_field: a.wrong_field + f.wrong_field,
            wrong_episode: a.wrong_episode + f.wrong_episode,
        })
    }

    fn add(&mut self, o: &NoteScores) {
        self.notes += o.notes;
        for (a, b) in self.fields.iter_mut().zip(&o.fields) {
            a.expected += b.expected;
            a.found += b.found;
            a.wrong_field += b.wrong_field;
            a.wrong_episode += b.wrong_episode;
        }
        self.style.add(&o.style);
    }
}

/// Labels a typed transcript puts before a turn; in a note they are a copying error.
const SPEAKER_LABELS: &[&str] =
    &["patiënt", "patiënte", "patient", "pt", "huisarts", "arts", "dokter", "zorgverlener", "poh", "poh-ggz", "moeder", "vader", "ouder"];

/// Spoken fillers a note must not hold.
pub const FILLERS: &[&str] = &["eh", "ehm", "uh", "uhm", "nou", "eigenlijk", "hoor", "tja", "hè", "zeg maar", "gewoon"];

/// First-person words a note must not hold: the record speaks of the patient, not as them, and
/// not as the clinician.
pub const FIRST_PERSON: &[&str] = &["ik", "mij", "me", "mijn", "m'n", "mezelf", "we", "wij", "ons", "onze"];

/// Second-person words a note must not hold: the record is not addressed to the patient.
pub const SECOND_PERSON: &[&str] = &["u", "uw", "je", "jij", "jou", "jouw", "jullie"];

/// The style breaches of one field's text, quotes marked as quotes aside.
pub fn style_violations(text: &str) -> StyleCounts {
    let t = text.trim();
    if t.is_empty() {
        return StyleCounts::default();
    }
    // a quote marked as one ("Vraagt: \"Moet ik …?\"") is the speaker's own words
    let t = &unquoted(t);
    // a unit is no pronoun: "ALT 68 U/l"
    let lower = t.to_lowercase().replace("u/l", "ul");
    let labels = SPEAKER_LABELS
        .iter()
        .filter(|l| {
            // "Volgens echtgenote: …" marks a relative's history as theirs, as a record does; a
            // label opens the text or a sentence ("de diabetes van moeder: het komt door …" is
            // none)
            lower.match_indices(&format!("{l}:")).any(|(i, _)| {
                let before = lower[..i].trim_end();
                before.is_empty() || before.ends_with(['.', '?', '!', ':', '"', ';'])
            })
        })
        .count();
    let tokens: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric() && c != '\'').filter(|x| !x.is_empty()).collect();
    let words = |list: &[&str]| -> usize {
        list.iter()
            .map(|w| match w.contains(' ') {
                true => usize::from(cues::has_cue(&lower, w)),
                false => tokens.iter().filter(|t| t.trim_matches('\'') == *w).count(),
            })
            .sum()
    };
    // "hoor" opening a sentence before its subject is the verb ("Hoor je dat, Thijs?"), no filler
    let heard = ["je", "u", "jij", "jullie"]
        .iter()
        .map(|subject| {
            let verb = format!("hoor {subject} ");
            lower
                .match_indices(&verb)
                .filter(|(i, _)| lower[..*i].trim_end().is_empty() || lower[..*i].trim_end().ends_with(['.', '?', '!', '"']))
                .count()
        })
        .sum::<usize>();
    // "heel gewoon" is the adjective, no filler
    let adjective = tokens.windows(2).filter(|pair| pair[1] == "gewoon" && register::DEGREE.contains(&pair[0])).count();
    StyleCounts {
        fields: 1,
        speaker_labels: labels,
        questions: t.matches('?').count(),
        fillers: words(FILLERS).saturating_sub(heard + adjective),
        first_person: words(FIRST_PERSON),
        second_person: words(SECOND_PERSON),
    }
}

/// `text` without what stands between double quotes.
fn unquoted(text: &str) -> String {
    text.split('"').step_by(2).collect::<Vec<_>>().join("\"\"")
}

/// Verbs of the plan that, as the first word, must not be followed by their object's article
/// ("Bellen de praktijk" is no Dutch; "De praktijk bellen" is).
const PLAN_INFINITIVES: &[&str] = &[
    "bellen",
    "nemen",
    "komen",
    "gebruiken",
    "smeren",
    "drinken",
    "maken",
    "plannen",
    "starten",
    "stoppen",
    "halen",
    "geven",
    "doen",
    "innemen",
    "bijhouden",
    "insmeren",
    "verhogen",
    "verlagen",
    "controleren",
    "meten",
];

/// The particles a separable verb leaves at its clause's end ("Nemen de klachten toe, …").
const SEPARATED_PARTICLES: &[&str] = &["toe", "af", "op", "mee", "door", "aan", "uit", "in", "terug", "over", "weg"];

/// The kinds of broken Dutch a rewrite can leave, each with the example that named it. A field's
/// text is split into sentences; each sentence is checked against each kind.
pub const FRAGMENT_KINDS: &[(&str, &str)] = &[
    ("'Er' zonder werkwoord", "Er sprake van depressieve klachten."),
    ("'er' na een bepaling zonder werkwoord", "Bij onderzoek er zwelling."),
    ("aanwijzend woord zonder zin", "Die 168/102, dat is te hoog."),
    ("infinitief voor zijn lijdend voorwerp", "Direct bellen de praktijk."),
    ("voornaamwoord zonder werkwoord", "Hij alert en speelt."),
    ("'waarschijnlijk' met het werkwoord achteraan", "Waarschijnlijk de meniscus niet beschadigd is."),
    ("werkwoord achter een 'om te'-zin", "Dan over 3 maanden een afspraak om het dagboek door te nemen maken."),
    ("'dat'-zin met een los hulpwerkwoord", "Dat hem nu meteen naar de spoedeisende hulp brengt willen."),
    ("onderwerp weggevallen naast 'en'", "Vrouw en hebben 2 kinderen."),
    ("'wat'-zin zonder onderwerp", "Wat beschrijft past helemaal bij clusterhoofdpijn."),
    ("werkwoord achter een 'of'- of 'hoe'-zin", "Kom over 6 weken terug, dan of een foto nodig is kijken."),
    ("'en' waar het werkwoord stond", "Als het over 2 weken niet beter is, en aan de fysiotherapeut denken terugkomen."),
];

/// Verbs of looking into something, which a rewrite may leave after the "of" or "hoe" clause
/// they take ("dan of een foto nodig is kijken").
const ASKING_INFINITIVES: &[&str] = &["kijken", "zien", "bespreken", "horen", "beoordelen", "weten", "vragen", "bekijken"];

/// Verbs a plan puts last, which a rewrite may leave after an "om te" clause ("… om het dagboek
/// door te nemen maken").
const MAIN_INFINITIVES: &[&str] = &["maken", "bellen", "vragen", "geven", "sturen", "doen", "plannen", "regelen", "afspreken", "inplannen"];

/// "dan of … kijken", "dan hoe … bespreken": the verb that takes the clause stands at its end,
/// before a comma or the sentence's end ("dan kijken of …" is whole). `words` are the sentence's
/// words, trimmed and in lowercase.
fn verb_after_asking_clause(sentence: &str, words: &[String]) -> bool {
    let w = |i: usize| words.get(i).map_or("", String::as_str);
    let raw: Vec<&str> = sentence.split_whitespace().collect();
    (0..raw.len().saturating_sub(2)).any(|k| {
        matches!(w(k), "dan" | "en") && matches!(w(k + 1), "of" | "hoe") && {
            let clause_end = (k + 2..raw.len()).find(|&j| raw[j].ends_with(',')).unwrap_or(raw.len() - 1);
            clause_end > k + 2 && ASKING_INFINITIVES.contains(&w(clause_end))
        }
    })
}

/// The verb that opened a main clause moved to the sentence's end past the "en" it stood before:
/// "…, dan en opnieuw een foto maken terugkomen", "Als het … niet beter is, en aan de
/// fysiotherapeut denken terugkomen" ("stop dan en bel 112" is whole). `words` as for
/// [`verb_after_asking_clause`].
fn en_left_for_the_verb(sentence: &str, words: &[String]) -> bool {
    if !matches!(words.last().map(String::as_str), Some("terugkomen" | "bellen" | "terugbellen")) {
        return false;
    }
    // the clause that ends on it
    let last = sentence.rsplit(',').next().unwrap_or(sentence).trim_start();
    let after_condition = words.first().is_some_and(|w| w == "als") && sentence.matches(',').count() == 1 && last.starts_with("en ");
    after_condition || last.contains("dan en ")
}

/// The broken fragments in a field's text: for each sentence that is broken, the name of its
/// kind (see [`FRAGMENT_KINDS`]).
pub fn broken_fragments(text: &str) -> Vec<&'static str> {
    let mut found = Vec::new();
    for sentence in text.split(['.', '\n', ';']).map(str::trim).filter(|s| !s.is_empty()) {
        let words: Vec<String> =
            sentence.split_whitespace().map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '/').to_lowercase()).collect();
        let w = |i: usize| words.get(i).map_or("", String::as_str);
        // a verb the list knows, or a word shaped as a finite verb ("Er rijdt …", "Er missen er
        // misschien 2")
        let finite_shaped = |v: &str| {
            v.chars().count() > 3
                && (v.ends_with('t') || v.ends_with("en"))
                && !matches!(v, "niet" | "geen" | "even" | "heel" | "veel" | "echt")
        };
        let verb_after = |i: usize| VERBS_AFTER_ER.contains(&w(i + 1)) || w(i + 1).is_empty() || finite_shaped(w(i + 1));
        let skip = usize::from(matches!(w(0), "direct" | "dan" | "zo" | "zonodig"));
        let kind = if w(0) == "er" && !verb_after(0) {
            Some(FRAGMENT_KINDS[0].0)
        } else if w(0) == "bij" && w(2) == "er" && !verb_after(2) {
            Some(FRAGMENT_KINDS[1].0)
        } else if matches!(w(0), "die" | "dat" | "dit") && numbers::is_value(w(1)) {
            Some(FRAGMENT_KINDS[2].0)
        } else if PLAN_INFINITIVES.contains(&w(skip))
            && matches!(w(skip + 1), "de" | "het" | "een")
            // a condition put first, its verb finite and its particle at the clause's end: "Nemen
            // de hartkloppingen toe, …"
            && !sentence.split(',').next().and_then(|c| c.split_whitespace().last()).is_some_and(|p| SEPARATED_PARTICLES.contains(&p.to_lowercase().as_str()))
        {
            Some(FRAGMENT_KINDS[3].0)
        } else if matches!(w(0), "hij" | "zij" | "ze")
            && matches!(w(1), "alert" | "koortsig" | "ziek" | "suf" | "rustig" | "bleek" | "moe" | "benauwd")
        {
            Some(FRAGMENT_KINDS[4].0)
        } else if w(0) == "waarschijnlijk" && !VERBS_AFTER_ER.contains(&w(1)) && !finite_shaped(w(1)) && {
            // the first clause's last word is a verb the sentence should have put second, or "er"
            // stands where the verb should ("Waarschijnlijk er een miskraam dreigt")
            // (a typed line may leave out the comma before "maar", "want" or "dus")
            let clause = sentence.split([',', ':']).next().unwrap_or("");
            let clause = [" maar ", " want ", " dus "].iter().fold(clause, |c, turn| c.split(turn).next().unwrap_or(c));
            let last = clause.split_whitespace().last().unwrap_or("").to_lowercase();
            w(1) == "er" || (clause.split_whitespace().count() > 2 && VERBS_AFTER_ER.contains(&last.as_str()))
        } {
            Some(FRAGMENT_KINDS[5].0)
        } else if words.iter().any(|x| x == "om")
            && (1..words.len().saturating_sub(1)).any(|k| {
                // "te laten maken" is whole: "laten" takes the infinitive after it
                w(k - 1) == "te"
                    && w(k).ends_with("en")
                    && !matches!(w(k), "laten" | "gaan" | "komen" | "blijven")
                    && MAIN_INFINITIVES.contains(&w(k + 1))
            })
        {
            Some(FRAGMENT_KINDS[6].0)
        } else if w(0) == "dat"
            && words.len() > 3
            && matches!(words[words.len() - 1].as_str(), "willen" | "moeten" | "kunnen" | "mogen")
            && {
                // a finite verb before it closes the clause it stands after ("… brengt willen"; "… zou
                // kunnen" is whole)
                let before = words[words.len() - 2].as_str();
                before.ends_with('t') && !matches!(before, "niet" | "wat" | "dat" | "met" | "het" | "echt" | "ooit" | "weet")
            }
        {
            Some(FRAGMENT_KINDS[7].0)
        } else if w(1) == "en"
            && matches!(w(2), "hebben" | "zijn" | "willen" | "gaan" | "komen" | "wonen" | "weten")
            // "Hij en zijn zusje slapen samen": "zijn" is whose
            && !(w(2) == "zijn" && matches!(w(0), "hij" | "zij" | "ze" | "hem" | "haar"))
        {
            Some(FRAGMENT_KINDS[8].0)
        } else if w(0) == "wat" && matches!(w(1), "beschrijft" | "vertelt" | "meemaakt" | "zegt" | "noemt" | "voelt" | "merkt" | "ziet") {
            // the clause's subject went with its "u" or "je" ("Wat helpt, is rust" has one)
            Some(FRAGMENT_KINDS[9].0)
        } else if verb_after_asking_clause(sentence, &words) {
            Some(FRAGMENT_KINDS[10].0)
        } else if en_left_for_the_verb(sentence, &words) {
            Some(FRAGMENT_KINDS[11].0)
        } else {
            None
        };
        found.extend(kind);
    }
    found
}

/// The measured values a sentence holds, as a note writes them: "152/94" (also from "152 over
/// 94" and "honderdtweeënvijftig over vierennegentig"), "38,4", "17" of "de PHQ-9 is 17". Empty
/// when the sentence measures nothing.
pub fn measured_values(sentence: &str) -> Vec<String> {
    // "pols zesenzeventig" is the note's "76"; a value the speaker corrected away is no
    // measurement ("94, nee, 96 kilo": 96)
    let sentence = &*corrections::values_as_meant(sentence);
    if !classify::has_measurement(sentence) {
        return Vec::new();
    }
    let number = |w: &str| w.trim_matches(|c: char| !c.is_ascii_digit()).to_owned();
    let words: Vec<&str> = sentence.split_whitespace().collect();
    let mut values = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let n = number(words[i]);
        // a word that is a number ("38,4", "152/94,"), not one with a digit in it ("HbA1c")
        if words[i].trim_start_matches(|c: char| !c.is_alphanumeric()).starts_with(|c: char| c.is_ascii_digit()) && !n.is_empty() {
            let ratio = (i + 2 < words.len() && words[i + 1] == "over").then(|| number(words[i + 2]));
            match ratio.filter(|b| b.starts_with(|c: char| c.is_ascii_digit())) {
                Some(b) => {
                    values.push(format!("{n}/{b}"));
                    i += 3;
                    continue;
                }
                None => values.push(n),
            }
        }
        i += 1;
    }
    values
}

/// How many fields of a note hold `value` as a whole number (not inside a longer one).
pub fn fields_holding(value: &str, episodes: &[Episode]) -> usize {
    episodes.iter().flat_map(|e| [&e.subjective, &e.objective, &e.diagnosis, &e.plan]).filter(|f| holds_number(f, value)).count()
}

/// Whether a line of `consult` other than its `line`th says `value` too, in digits or in words
/// ("veertig kilometer per week" beside "salicylzuur, 40 procent"): the note may then hold it in
/// two fields.
pub fn said_elsewhere(consult: &TestConsult, line: usize, value: &str) -> bool {
    consult.lines.iter().enumerate().any(|(i, l)| i != line && holds_number(&numbers::in_digits(&l.sentence), value))
}

/// Whether `text` holds `value` as a whole number (not inside a longer one: "40" is not in "140",
/// "1,40" or "40/90").
fn holds_number(text: &str, value: &str) -> bool {
    text.match_indices(value).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + value.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_digit() || c == ',' || c == '/')
            && !after.is_some_and(|c| {
                c.is_ascii_digit() || c == '/' || (c == ',' && text[i + value.len() + 1..].starts_with(|d: char| d.is_ascii_digit()))
            })
    })
}

/// Lowercase `text` with the numbers the register writes in digits ([`numbers::spelled`])
/// written so wherever they stand as a word.
fn digits(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match numbers::spelled(word) {
            Some(n) => out.push_str(&n.to_string()),
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Checks one consult's note against its expected facts and the style rules. Returns the scores
/// and, per problem, a line saying what was amiss.
pub fn check_note(consult: &TestConsult, episodes: &[Episode]) -> (NoteScores, Vec<String>) {
    let mut scores = NoteScores { notes: 1, ..Default::default() };
    let mut misses = Vec::new();
    // a number is the same fact in words or in digits: "drie keer per dag" is "3 keer per dag",
    // and in the record's notation: "98 procent" is "98%", "136 over 84" is "136/84" (each field
    // read so once, each fact once)
    let read = |t: &str| numbers::notation(&digits(&t.to_lowercase()));
    let fields: Vec<[String; 4]> =
        episodes.iter().map(|ep| [&ep.subjective, &ep.objective, &ep.diagnosis, &ep.plan].map(|t| read(t))).collect();
    let written = |o: usize, f: usize| fields.get(o).map_or("", |ep| ep[f].as_str());
    // each fact's alternatives as read, and as the note says the patient's own words of them:
    // "rook niet" is "rookt niet" (per expected episode and field)
    let wanted: Vec<[Vec<Vec<String>>; 4]> = consult
        .note
        .iter()
        .map(|ep| {
            [0, 1, 2, 3].map(|f| {
                ep.field(f)
                    .iter()
                    .map(|fact| {
                        fact.split('|')
                            .flat_map(|a| [read(a.trim()), read(&register::said_of_patient(a.trim()))])
                            .filter(|a| !a.is_empty())
                            .collect()
                    })
                    .collect()
            })
        })
        .collect();
    let holds = |alternatives: &[String], t: &str| alternatives.iter().any(|a| t.contains(a.as_str()));
    // each expected episode is the note's episode that holds most of its facts in their fields
    // (the problems in the order the note tells them, which need not be the order the writer
    // numbered them in)
    let found_in = |e: usize, o: usize| (0..4).map(|f| wanted[e][f].iter().filter(|fact| holds(fact, written(o, f))).count()).sum();
    let matched = matched_episodes(consult.note.len(), episodes.len(), found_in);
    let text = |e: usize, f: usize| matched[e].map_or("", |o| written(o, f));
    for (e, expected) in consult.note.iter().enumerate() {
        for (f, letter) in FIELDS.iter().enumerate() {
            for (fact, alternatives) in expected.field(f).iter().zip(&wanted[e][f]) {
                let holds = |t: &str| holds(alternatives, t);
                let score = &mut scores.fields[f];
                score.expected += 1;
                if holds(text(e, f)) {
                    score.found += 1;
                    continue;
                }
                let place = if let Some(g) = (0..4).find(|&g| g != f && holds(text(e, g))) {
                    score.wrong_field += 1;
                    format!("in {}", FIELDS[g])
                } else if let Some((o, g)) = (0..episodes.len())
                    .filter(|&o| matched[e] != Some(o))
                    .flat_map(|o| (0..4).map(move |g| (o, g)))
                    .find(|&(o, g)| holds(written(o, g)))
                {
                    score.wrong_episode += 1;
                    format!("in episode {} {}", o + 1, FIELDS[g])
                } else {
                    "ontbreekt".to_owned()
                };
                misses.push(format!("episode {} {letter}: {fact:?} {place}", e + 1));
            }
        }
    }
    for (e, ep) in episodes.iter().enumerate() {
        for (f, t) in [&ep.subjective, &ep.objective, &ep.diagnosis, &ep.plan].into_iter().enumerate() {
            let v = style_violations(t);
            if v.total() > 0 {
                misses.push(format!("episode {} {}: stijl ({v:?}) {t:?}", e + 1, FIELDS[f]));
            }
            scores.style.add(&v);
        }
    }
    (scores, misses)
}

/// The note's episode (0-based, if any) each of `expected` episodes is matched with: one to one,
/// the most facts in their fields (`found_in(e, o)`) over all, and among as many, the most
/// episodes in the writer's order.
fn matched_episodes(expected: usize, written: usize, found_in: impl Fn(usize, usize) -> usize) -> Vec<Option<usize>> {
    /// A matching of the episodes from one on: its score (facts found, episodes in the writer's
    /// order) and the note's episode of each.
    type Matching = ((usize, usize), Vec<Option<usize>>);
    fn best(
        e: usize,
        expected: usize,
        written: usize,
        taken: &mut [bool],
        score: &dyn Fn(usize, Option<usize>) -> (usize, usize),
    ) -> Matching {
        if e == expected {
            return ((0, 0), Vec::new());
        }
        let mut out: Option<Matching> = None;
        for o in (0..written).map(Some).chain([None]) {
            if o.is_some_and(|o| taken[o]) {
                continue;
            }
            if let Some(o) = o {
                taken[o] = true;
            }
            let ((found, kept), mut rest) = best(e + 1, expected, written, taken, score);
            if let Some(o) = o {
                taken[o] = false;
            }
            let (f, k) = score(e, o);
            let total = (found + f, kept + k);
            if out.as_ref().is_none_or(|(best, _)| total > *best) {
                rest.insert(0, o);
                out = Some((total, rest));
            }
        }
        out.expect("no episode is always a candidate")
    }
    let score = |e: usize, o: Option<usize>| o.map_or((0, 0), |o| (found_in(e, o), usize::from(o == e)));
    best(0, expected, written, &mut vec![false; written], &score).1
}

fn class_index(c: char) -> Option<usize> {
    CLASSES.iter().position(|x| *x == c)
}

fn predicted(section: Option<Section>) -> usize {
    match section {
        Some(s) => class_index(s.letter()).unwrap_or(4),
        None => 4,
    }
}

/// Runs the classifier over the consults.
pub fn evaluate(consults: &[TestConsult]) -> Result<Evaluation, String> {
    let mut ev = Evaluation::default();
    for c in consults {
        let placements = classify(&c.request());
        let mut s = Scores { consults: 1, ..Default::default() };
        for (line, p) in c.lines.iter().zip(&placements) {
            let expected = line
                .expected
                .chars()
                .next()
                .and_then(class_index)
                .ok_or_else(|| format!("{}: onbekende klasse {:?}", c.id, line.expected))?;
            s.sentences += 1;
            s.confusion[expected][predicted(p.section)] += 1;
            if c.episode_count > 1 && expected != 4 {
                s.episode_lines += 1;
                s.episode_correct += usize::from(p.episode + 1 == line.episode);
            }
        }
        let correct = (0..5).map(|i| s.confusion[i][i]).sum();
        ev.per_consult.push((c.id.clone(), c.split.clone(), s.sentences, correct));
        if !c.note.is_empty() && c.note.len() != usize::from(c.episode_count.max(1)) {
            return Err(format!("{}: {} verwachte episodes, {} gevraagd", c.id, c.note.len(), c.episode_count));
        }
        let summary = RulesSummariser::new().summarise_now(&c.request()).map_err(|e| format!("{}: {e}", c.id))?;
        let (note, misses) = check_note(c, &summary.result.episodes);
        ev.note_misses.push((c.id.clone(), misses));
        let (split, split_note) = match c.split.as_str() {
            "dev" => (&mut ev.dev, &mut ev.dev_note),
            "holdout" => (&mut ev.holdout, &mut ev.holdout_note),
            other => return Err(format!("{}: onbekende split {other:?}", c.id)),
        };
        add(split, &s);
        split_note.add(&note);
        add(&mut ev.all, &s);
        ev.all_note.add(&note);
    }
    Ok(ev)
}

fn add(into: &mut Scores, s: &Scores) {
    into.consults += s.consults;
    into.sentences += s.sentences;
    into.episode_lines += s.episode_lines;
    into.episode_correct += s.episode_correct;
    for e in 0..5 {
        for p in 0..5 {
            into.confusion[e][p] += s.confusion[e][p];
        }
    }
}

impl Evaluation {
    /// The accuracy table in markdown.
    pub fn markdown(&self) -> String {
        let pct = |x: f64| format!("{:.1}%", 100.0 * x);
        let mut table = SplitTable::new("", [&self.dev, &self.holdout, &self.all]);
        table.row("consults / sentences", |s| format!("{} / {}", s.consults, s.sentences));
        table.row("**placement accuracy**", |s| format!("**{}**", pct(s.accuracy())));
        for (i, c) in CLASSES.iter().enumerate() {
            table.row(&format!("{c} precision / recall"), |s| format!("{} / {}", pct(s.precision(i)), pct(s.recall(i))));
        }
        table.row("episode accuracy (multi-problem consults)", |s| format!("{} ({} lines)", pct(s.episode_accuracy()), s.episode_lines));
        table.finish()
    }

    /// The note-level table in markdown: per field the expected facts found in the right field
    /// and episode (recall), and the misplaced ones; then the style breaches.
    pub fn note_markdown(&self) -> String {
        let pct = |x: f64| format!("{:.1}%", 100.0 * x);
        let mut table = SplitTable::new("note check", [&self.dev_note, &self.holdout_note, &self.all_note]);
        let mut row = |name: &str, f: &dyn Fn(&NoteScores) -> String| table.row(name, f);
        row("notes / expected facts", &|s| format!("{} / {}", s.notes, s.overall().expected));
        let fact = |f: FieldScore| {
            format!("{} ({}/{}; {} wrong field, {} wrong episode)", pct(f.recall()), f.found, f.expected, f.wrong_field, f.wrong_episode)
        };
        for (i, c) in FIELDS.iter().enumerate() {
            row(&format!("{c} facts recall"), &|s| fact(s.fields[i]));
        }
        row("**all facts recall**", &|s| format!("**{}**", fact(s.overall())));
        row("fields written", &|s| s.style.fields.to_string());
        row("speaker labels", &|s| s.style.speaker_labels.to_string());
        row("question marks", &|s| s.style.questions.to_string());
        row("fillers", &|s| s.style.fillers.to_string());
        row("first-person words", &|s| s.style.first_person.to_string());
        row("second-person words", &|s| s.style.second_person.to_string());
        table.finish()
    }
}

/// A markdown table with a column per split (dev, holdout, all), written row by row.
pub(crate) struct SplitTable<'a, S> {
    splits: [&'a S; 3],
    out: String,
}

impl<'a, S> SplitTable<'a, S> {
    /// `corner` heads the column of row names.
    pub(crate) fn new(corner: &str, splits: [&'a S; 3]) -> Self {
        let corner = if corner.is_empty() { String::from(" ") } else { format!(" {corner} ") };
        Self { splits, out: format!("|{corner}| dev | holdout | all |\n|---|---|---|---|\n") }
    }

    /// A row named `name`, each split's cell written by `cell`.
    pub(crate) fn row(&mut self, name: &str, cell: impl Fn(&S) -> String) {
        self.out.push_str(&format!("| {name} |"));
        for s in self.splits {
            self.out.push_str(&format!(" {} |", cell(s)));
        }
        self.out.push('\n');
    }

    pub(crate) fn finish(self) -> String {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_s_problems_are_matched_by_what_they_hold_not_their_number() {
        // the note tells the blood pressure first, the writer numbered the driving question first
        assert_eq!(matched_episodes(2, 2, |e, o| [[3, 9], [8, 1]][e][o]), [Some(1), Some(0)]);
        // as many either way: the writer's order
        assert_eq!(matched_episodes(2, 2, |_, _| 1), [Some(0), Some(1)]);
        // one episode written for two problems: the problem whose facts it holds most
        assert_eq!(matched_episodes(2, 1, |e, _| [2, 5][e]), [None, Some(0)]);
        assert_eq!(matched_episodes(1, 3, |_, o| [0, 4, 4][o]), [Some(1)]);
    }

    #[test]
    fn a_number_is_the_same_fact_in_words_or_digits() {
        assert_eq!(digits("drie keer per dag, twee weken"), "3 keer per dag, 2 weken");
        // only whole words: "tweede" and "achter" stay
        assert_eq!(digits("de tweede keer, achter het oor"), "de tweede keer, achter het oor");
    }
}
