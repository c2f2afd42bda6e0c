//! Sentence placement: which SOEP field (or none) each transcript sentence belongs to.
//!
//! Per sentence, in order:
//! 1. The speaker is the engine's, or [`guess_on_floor`]'s when the engine could not tell.
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
use crate::summarise::speaker::guess_on_floor;
use crate::summarise::{Flavour, TranscriptLine};

use super::Section;
use super::cues;
use super::episodes;
use super::labels;
use super::lexicon::*;
use super::numbers;
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
    place_all_told(lines, flavour, false)
}

/// As [`place_all`], where `told_by_another` says another tells the history
/// ([`register::clinical_told`]).
pub(crate) fn place_all_told(lines: &[TranscriptLine], flavour: Flavour, told_by_another: bool) -> Vec<Placed> {
    let mut out = Vec::with_capacity(lines.len());
    // The clinician's last clinical question, waiting for the patient's answer.
    let mut pending: Option<&str> = None;
    // The speaker of the last typed label ("Patiënt: …"): the turn's next sentences are theirs.
    let mut labelled: Option<Speaker> = None;
    // A written message ("Beste dokter, … Met vriendelijke groet, Jan"): its unlabelled lines are
    // the patient's, its greeting and signature belong nowhere, its questions are the question.
    let message = is_message(lines);
    let mut signed = false;
    // Whether the clinician has signed off a written reply.
    let mut reply_signed = false;
    let mut phase = Phase::History;
    // Who asked the question the last sentence was, if it was one: the answer is the other's.
    let mut asked_by: Option<Speaker> = None;
    // Who said the last sentence, and whether it announced the examination.
    let mut last: Option<Speaker> = None;
    let mut announced = false;
    // A relative typed beside the patient ("Echtgenote: …" and "Patiënt: …"), and the one whose
    // turn it is: their history is marked as theirs.
    let beside = labels::relative_beside_patient(lines.iter().map(|l| l.sentence.as_str()));
    let mut relative: Option<&'static str> = None;
    // How many lines on the patient may still read out a value measured at the clinician's
    // request or on their own offer ("Wilt u even meten terwijl we praten?", "Zal ik even
    // meten?"): a value read now is a finding, as in a telephone consult.
    let mut measuring = 0u8;
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
        let sentence = after_pleasantry(sentence);
        labelled = label.or(labelled);
        if label.is_some() {
            relative = labels::relative(raw).filter(|_| beside);
        }
        let told = label.or(line.speaker).or(labelled);
        // past the history, after the clinician's own statement, the floor is theirs
        let examining = phase != Phase::History && last == Some(Speaker::Zorgverlener);
        let speaker = told.unwrap_or_else(|| guess_on_floor(sentence, asked_by, examining));
        // a guessed consent to the examination announced ("ja dat is goed") leaves the floor to
        // the clinician, whose findings follow
        let consents = told.is_none() && speaker == Speaker::Patient && announced && (is_ack(sentence) || AGREEMENT.starts_any(sentence));
        if !consents {
            last = Some(speaker);
        }
        // an examination announced as a question ("Mag ik even naar uw pols kijken?") is not
        // answered in words: the findings that follow are the clinician's
        let announces = speaker == Speaker::Zorgverlener && announces_examination(sentence);
        announced = announces;
        asked_by = (asks(sentence, false) && !announces).then_some(speaker);
        if sentence.is_empty() {
            out.push(Placed { section: None, speaker, text: String::new() });
            continue;
        }
        let placed = match speaker {
            Speaker::Zorgverlener => {
                // a written reply examines nothing: what it says without a cue is the assessment,
                // or the plan where it reads as one ("Een vasectomie is een kleine, veilige ingreep")
                if message && phase == Phase::History {
                    phase = Phase::Assessed;
                }
                // and its salutation and thanks belong nowhere: "Beste mevrouw De Boer,", "Dank
                // voor uw bericht en de duidelijke foto."; nor do its sign-off and the name under it
                // ("Met vriendelijke groet,", "A. de Wit, huisarts"), where the lines name their
                // speaker too
                reply_signed |= SIGN_OFF.starts_any(sentence) && word_count(sentence) <= 4;
                let thanks = REPLY_THANKS.starts_any(sentence) && (message || !sentence.contains(','));
                if (message && SALUTATION.starts_any(sentence) && word_count(sentence) <= 4)
                    || thanks
                    || (reply_signed && word_count(sentence) <= 6)
                {
                    out.push(Placed { section: None, speaker, text: String::new() });
                    continue;
                }
                let topic_change = episodes::is_topic_change(sentence);
                let (placed, question) = place_clinician(sentence, flavour, phase, topic_change, announces);
                phase = phase.after(placed.section, question.is_some() || topic_change, announces);
                pending = question;
                placed
            }
            Speaker::Patient => {
                let placed = place_patient(sentence, pending.take(), flavour);
                if measuring > 0 && placed.section == Some(Section::Subjective) && reads_out_now(sentence) {
                    Placed { section: Some(Section::Objective), ..placed }
                } else {
                    placed
                }
            }
        };
        measuring = if asks_to_measure_now(sentence) { MEASURING_WINDOW } else { measuring.saturating_sub(1) };
        let text = match placed.section {
            // the clinician's own "ik" that the register could not turn round names them, where
            // the speaker is known to be the clinician (a guess could make the doctor the smoker):
            // "Ik verdoof de wond" → "Huisarts verdooft de wond"; and the "u" left is the patient
            // ("… zet huisarts patiënt over op Spiolto")
            Some(section) if told == Some(Speaker::Zorgverlener) => {
                let named = register::in_own_name(&register::clinical(section, speaker, &placed.text), role(flavour));
                register::addressee_named(&register::we_named(&named, role(flavour)))
            }
            // (a guess only where the clinician's work says it: "ik tik op de pols")
            Some(section) if told.is_none() && speaker == Speaker::Zorgverlener && section != Section::Subjective => {
                register::in_own_name_at_work(&register::clinical_told(section, speaker, &placed.text, told_by_another), role(flavour))
            }
            Some(Section::Subjective) if let Some(relative) = relative.filter(|_| speaker == Speaker::Patient) => {
                register::told_by_relative(&placed.text, relative)
            }
            // the patient's "u" is the clinician: "die u heeft voorgeschreven"
            Some(Section::Subjective) if told == Some(Speaker::Patient) => register::clinician_named(
                &register::clinical_told(Section::Subjective, speaker, &placed.text, told_by_another),
                role(flavour),
            ),
            Some(section) => register::clinical_told(section, speaker, &placed.text, told_by_another),
            None => String::new(),
        };
        // the clinician as the one to call or come back to, named: "bel me" → "bel de huisarts"
        let text = match placed.section {
            Some(section) if section != Section::Subjective && speaker == Speaker::Zorgverlener => {
                register::practice_named(&text, role(flavour))
            }
            _ => text,
        };
        // A sentence the register leaves empty (only fillers) belongs nowhere.
        let section = placed.section.filter(|_| !text.is_empty());
        out.push(Placed { section, speaker, text });
    }
    out
}

/// A line that opens with a pleasantry of its own ("Dank u. Nou dokter, het gaat om mijn
/// rechterheup.", "Goedemorgen. Ik kom voor mijn elleboog."): what follows it, which the
/// pleasantry would otherwise take with it out of the note.
fn after_pleasantry(s: &str) -> &str {
    let Some(at) = s.find(['.', '!']) else { return s };
    let (head, rest) = (&s[..at], s[at + 1..].trim_start());
    let pleasantry = GREETING.any(head) || cues::at_start(head, "dank") || cues::at_start(head, "bedankt");
    if rest.is_empty() || word_count(head) > 4 || !pleasantry { s } else { rest }
}

/// Whether `sentence` asks: a question mark, or in a transcript without punctuation, a question's
/// opening ("heeft hij koorts gehad"). A question word opens a question whatever follows it ("hoe
/// gaat het met de metformine"); a verb first may be a request (`request`: "Neemt u contact op met
/// de bedrijfsarts"). "Wat u beschrijft past bij een angststoornis." ends as a statement, and
/// "wat je beschrijft is een normale rouwreactie" typed without its full stop is one.
fn asks(sentence: &str, request: bool) -> bool {
    let s = strip_lead(sentence);
    sentence.ends_with('?')
        || (!sentence.ends_with(['.', '!'])
            && (QUESTION_WORD.starts_any(s)
                || (!request
                    && ((QUESTION_START.starts_any(s) && !register::states_a_condition(s) && !register::opens_with_what_clause(s))
                        || register::verb_then_subject(s).is_some()))))
}

/// What the clinician of a consult of this flavour is called in the record.
fn role(flavour: Flavour) -> &'static str {
    match flavour {
        Flavour::Normal => "huisarts",
        Flavour::PohGgz => "POH",
        Flavour::KinderartsAllergoloog | Flavour::KinderartsOrthopeed => "kinderarts",
    }
}

/// Whether the transcript is a written message: its first unlabelled line opens with a salutation.
fn is_message(lines: &[TranscriptLine]) -> bool {
    // a spoken "hoi Lotte, vertel het maar" opens a consult too: "hoi" or "hallo" opens a message
    // only where one is signed off
    let written = |first: &str| WRITTEN_SALUTATION.starts_any(first) || lines.iter().any(|l| SIGN_OFF.starts_any(l.sentence.trim()));
    lines
        .iter()
        .map(|l| l.sentence.trim())
        .find(|s| !s.is_empty())
        .is_some_and(|first| SALUTATION.starts_any(first) && lines.first().is_some_and(|l| l.speaker.is_none()) && written(first))
}

/// One line of a patient's written message: nowhere for the salutation and the signature (and
/// everything after the sign-off), S for the rest, a question as the question ("Kunt u weer
/// naproxen voorschrijven?" → "Vraag: weer naproxen voorschrijven.", a longer one as asked). The
/// third value says whether this line signs the message off.
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
    // a question of several parts, or a long one, is kept as asked, as a spoken one is ("Vraagt:
    // "Mag ik ibuprofen nemen, en zo ja, hoeveel?""): its core alone would lose its grammar
    if s.ends_with('?') && (s.contains(',') || word_count(s) > 10) {
        return (Some(Section::Subjective), register::clinical(Section::Subjective, Speaker::Patient, s), false);
    }
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
    let text = placed
        .section
        .map(|section| register::clinician_named(&register::clinical(section, Speaker::Patient, &placed.text), role(flavour)))
        .unwrap_or_default();
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

/// Where the consult stands, from the clinician's sentences so far: a consult runs from the
/// history through the examination to the assessment and the plan, and back to the history when
/// the clinician asks about the next problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    History,
    Examination,
    /// The clinician's last placed statement was the assessment: what follows without a cue
    /// explains it ("Daarbij zakt 's nachts de keel dicht, …").
    Assessed,
    Planned,
}

impl Phase {
    /// The phase after a clinician's sentence placed in `section`, which may have asked a
    /// clinical question or moved to another problem (`asked`), or announced the examination.
    fn after(self, section: Option<Section>, asked: bool, announced: bool) -> Phase {
        match section {
            Some(Section::Evaluation) => Phase::Assessed,
            Some(Section::Plan) => Phase::Planned,
            Some(Section::Objective) => Phase::Examination,
            // "Ik wil uw benen even bekijken, wilt u gaan staan?" asks for the examination
            // and so does one announced once a problem is planned: another problem's examination
            // ("Mag ik ook even naar je voet kijken?"), or once it is assessed: the results read
            // and judged before the examination ("Dat B12 is te laag. Mag ik in uw mond kijken?")
            _ if announced && matches!(self, Phase::History | Phase::Planned | Phase::Assessed) => Phase::Examination,
            _ if asked && !announced => Phase::History,
            _ => self,
        }
    }
}

/// A clinician's sentence placed in the note; `topic_change` says it moves to another problem
/// ([`episodes::is_topic_change`]), which keeps a cue-less statement out of the phase's field;
/// `announces` that it announces the examination ([`announces_examination`], found once per
/// sentence by the caller).
fn place_clinician<'a>(s: &'a str, flavour: Flavour, phase: Phase, topic_change: bool, announces: bool) -> (Placed, Option<&'a str>) {
    if INTERRUPTION.any(s) {
        return (dropped(), None);
    }
    // what the clinician reads from the record is the history, and a question after it waits for
    // its answer: "Ik zie in het dossier dat u sinds 2019 colitis ulcerosa heeft en mesalazine
    // gebruikt, 2 gram per dag. Klopt dat nog?"
    if RECORD_READ.any(s) {
        return match before_closing_question(s) {
            Some((said, question)) => (placed(Section::Subjective, said), Some(question)),
            None if asks(s, false) => (dropped(), Some(s)),
            None => (placed(Section::Subjective, s), None),
        };
    }
    let p = plan_score(s);
    // "Neemt u contact op met de bedrijfsarts." opens like a question but is the plan.
    if asks(s, p >= 2) {
        // A proposal phrased as a question is the plan.
        if p >= 2 && PROPOSAL.starts_any(strip_lead(s)) {
            return (placed(Section::Plan, s), None);
        }
        // once the problem is assessed, a request of what the patient is to do is the plan: "Wilt u
        // een paar weken een dagboekje bijhouden?"
        if p >= 1 && matches!(phase, Phase::Assessed | Phase::Planned) && !announces && register::requested(s).is_some() {
            return (placed(Section::Plan, s), None);
        }
        let clinical = |q: &'a str| (!NON_CLINICAL_QUESTION.starts_any(strip_lead(q)) && !GREETING.any(q)).then_some(q);
        // what is said before a closing question is placed on its own, and the question waits
        // for its answer: "Ik verwijs u naar de fysiotherapeut. Heeft u daar een voorkeur voor?",
        // "Dan zie ik u volgende week dinsdag om tien uur, past dat?"
        // (a cue of its own places it, not the phase, and no greeting opens it: "Goedemiddag, u
        // spreekt met dokter Smit. Ik bel u over de uitslag. Komt het uit?"; a closing tag asks
        // nothing clinical)
        if let Some((said, question)) = before_closing_question(s).filter(|(said, _)| {
            !GREETING.starts_any(said) && plan_score(said).max(objective_score(said, flavour)).max(evaluation_score(said)) >= 4
        }) {
            let (placed, _) = place_clinician(said, flavour, phase, topic_change, announces);
            if placed.section.is_some() {
                return (placed, clinical(question).filter(|q| !is_closing_tag(q.trim_end_matches('?'))));
            }
        }
        return (dropped(), clinical(s));
    }
    let o = objective_score(s, flavour);
    let e = evaluation_score(s);
    let r = 2 * RESTATE.count(s);
    let greeting = GREETING.any(s) || is_ack(s);
    // an announcement names what will be examined, so it outweighs the finding words it holds,
    // but not a value measured: "ik ga u goed onderzoeken, eerst de bloeddruk en de pols"
    let announce = match announces {
        // a treatment announced is the plan: "Ik ga uw oog verdoven en het deeltje eruit halen"
        true if PROCEDURE.any(s) => 0,
        true if has_measurement(s) => 3,
        true => 5,
        false => 0,
    };
    let best = p.max(e).max(o).max(r);
    // A statement no cue places, made during the examination or once the clinician has decided,
    // is a finding or the plan: "Er is putjesoedeem tot halverwege de kuit", "Kam het haar twee
    // weken lang elke dag".
    if best == 0 && !greeting && announce == 0 && word_count(s) >= 4 && !topic_change {
        match phase {
            // what the findings are named: "Dit is het fenomeen van Raynaud, waarbij …"
            Phase::Examination if NAMES_THE_FINDINGS.starts_any(strip_lead(s)) => return (placed(Section::Evaluation, s), None),
            Phase::Examination => return (placed(Section::Objective, s), None),
            Phase::Assessed if !shaped_as_plan(s) => return (placed(Section::Evaluation, s), None),
            Phase::Assessed => return (placed(Section::Plan, s), None),
            Phase::Planned => return (placed(Section::Plan, s), None),
            Phase::History => {}
        }
    }
    if best == 0 || (greeting && best < 3) || announce >= best {
        return (dropped(), None);
    }
    // a finding that names what it shows is the finding: "Ik zie veel mee-eters en een stuk of
    // tien ontstoken puistjes" (diagnosis words alone tie with the finding's words)
    let finding = o == e && o > 0 && e <= evaluation_terms(s);
    let section = if p == best {
        Section::Plan
    } else if e == best && !finding {
        Section::Evaluation
    } else if o == best {
        Section::Objective
    } else {
        Section::Subjective
    };
    (placed(section, s), None)
}

/// A statement and the question that closes it, where the question is its last sentence ("Ik
/// verwijs u naar de fysiotherapeut. Heeft u daar een voorkeur voor?") or a closing tag after a
/// comma ("…, past dat?"), and the statement, of six words or more, does not ask itself: the two
/// parts, trimmed.
fn before_closing_question(s: &str) -> Option<(&str, &str)> {
    let body = s.strip_suffix('?')?;
    let at = body.rfind(['.', '!']).or_else(|| body.rfind(',').filter(|&at| is_closing_tag(&body[at + 1..])))?;
    let (said, question) = (body[..at].trim(), s[at + 1..].trim());
    (word_count(said) >= 6 && !asks(said, false) && !said.contains('?')).then_some((said, question))
}

/// Whether `s` is one of the short questions that close a proposal: "…, past dat?"
fn is_closing_tag(s: &str) -> bool {
    const CLOSING_TAGS: &[&str] =
        &["past dat", "past dat u", "is dat goed", "lukt dat", "kan dat", "goed", "oké", "afgesproken", "akkoord", "zullen we dat doen"];
    CLOSING_TAGS.contains(&s.trim().to_lowercase().as_str())
}

/// Whether the clinician announces or asks for the examination: a cue of [`ANNOUNCE`]; a clause
/// opened by "mag ik", "zal ik" or "ik ga" that ends in what is examined with ("Mag ik ook even
/// naar je voet kijken?", "Ik ga nu je knie onderzoeken"); or the patient told where to lie, sit
/// or stand ("ga maar op je buik liggen op de bank").
pub(crate) fn announces_examination(s: &str) -> bool {
    ANNOUNCE.any(s) || asks_to_examine(s)
}

/// Whether a clause of `s` asks for the examination in so many words (see
/// [`announces_examination`]), which no patient says: "Mag ik ook even naar je voet kijken?", "ik
/// wil graag even van onderen kijken is dat goed", "ga maar op de bank liggen".
pub(crate) fn asks_to_examine(s: &str) -> bool {
    s.split([',', '.', '?', ';', ':']).any(|clause| {
        let words: Vec<String> = clause.split_whitespace().map(str::to_lowercase).collect();
        let pair = |a: &[&str], b: &[&str]| matches!(words.as_slice(), [x, y, ..] if a.contains(&x.as_str()) && b.contains(&y.as_str()));
        // (or the clinician and a verb of intent among the first three words, now: "Dan wil ik
        // graag even inwendig kijken"; not what is ordered or planned for later, "wil ik
        // vandaag de bilirubine laten meten", "ik wil haar morgen zien om na te kijken")
        let intends = words.iter().take(3).any(|w| matches!(w.as_str(), "ik" | "we"))
            && words.iter().take(3).any(|w| matches!(w.as_str(), "wil" | "willen" | "ga" | "gaan"))
            && words.iter().any(|w| matches!(w.as_str(), "even" | "nu" | "graag"))
            && !words
                .iter()
                .any(|w| matches!(w.as_str(), "laten" | "laat" | "te" | "morgen" | "altijd" | "later" | "straks" | "volgende" | "vandaag"));
        // (the verb closes the clause, or the few words asking leave that a line typed without
        // punctuation runs on with: "ik wil graag even van onderen kijken is dat goed")
        let closes = words.iter().rposition(|w| EXAMINED_WITH.contains(&w.as_str())).is_some_and(|k| {
            words[k + 1..].iter().all(|w| matches!(w.as_str(), "is" | "dat" | "goed" | "oké" | "ok" | "mag" | "als" | "het" | "dan"))
        });
        let asks_to_examine =
            (pair(&["mag", "zal"], &["ik"]) || pair(&["ik"], &["ga"]) || pair(&["dan", "nu"], &["ga"]) || intends) && closes;
        let positions =
            pair(&["ga"], &["maar", "even", "eens"]) && words.iter().any(|w| matches!(w.as_str(), "liggen" | "zitten" | "staan"));
        asks_to_examine || positions
    })
}

/// The verbs an examination is announced with, at the end of its clause.
const EXAMINED_WITH: [&str; 10] =
    ["kijken", "bekijken", "voelen", "aanvoelen", "luisteren", "beluisteren", "onderzoeken", "meten", "testen", "nakijken"];

/// Whether a statement no cue places reads as the plan rather than as the assessment it follows:
/// the clinician acting ("Ik maak nu een sneetje"), the patient addressed as the one who acts ("U
/// krijgt eerst een prikje", "Daarna bouwt u rustig op"), an opening verb ("Kam het haar elke
/// dag") or what is not needed ("Een foto is niet nodig"). Else it explains the assessment:
/// "Daarbij zakt 's nachts de keel dicht".
fn shaped_as_plan(s: &str) -> bool {
    let words: Vec<String> =
        strip_lead(s).split(|c: char| !c.is_alphanumeric() && c != '\'').filter(|w| !w.is_empty()).map(str::to_lowercase).collect();
    let verb_first = match words.as_slice() {
        [first, second, ..] => !OPENERS.contains(&first.as_str()) && AFTER_IMPERATIVE.contains(&second.as_str()),
        _ => false,
    };
    verb_first
        || words.iter().any(|w| matches!(w.as_str(), "ik" | "we" | "wij"))
        || words.iter().take(3).any(|w| matches!(w.as_str(), "u" | "je" | "jij"))
        || words.iter().any(|w| w == "nodig")
}

/// Words that open a statement and are no verb ([`shaped_as_plan`]).
const OPENERS: &[&str] = &[
    "het",
    "de",
    "een",
    "dit",
    "dat",
    "die",
    "deze",
    "er",
    "daar",
    "daarbij",
    "daarom",
    "daardoor",
    "dan",
    "zo",
    "zo'n",
    "in",
    "op",
    "bij",
    "met",
    "na",
    "voor",
    "als",
    "omdat",
    "want",
    "maar",
    "en",
    "meestal",
    "vaak",
    "soms",
    "misschien",
    "waarschijnlijk",
    "gelukkig",
    "helaas",
    "ook",
    "nog",
    "wel",
    "niet",
    "geen",
    "veel",
    "ze",
    "zij",
    "hij",
    "uw",
    "haar",
    "zijn",
    "hun",
    "wat",
    "hoe",
    "zolang",
    "tot",
    "door",
    "tijdens",
    "over",
    "alles",
    "iets",
    "niets",
    "dus",
    "toch",
];

/// Words that follow an opening imperative ("Kam het haar", "Controleer ook de rest", "Koop
/// nieuwe schoenen"; [`shaped_as_plan`]).
const AFTER_IMPERATIVE: &[&str] = &[
    "het",
    "de",
    "een",
    "ook",
    "uw",
    "haar",
    "hem",
    "nieuwe",
    "dit",
    "die",
    "deze",
    "elke",
    "iedere",
    "voortaan",
    "altijd",
    "dagelijks",
    "rustig",
    "goed",
    "zo",
    "niet",
];

fn place_patient(s: &str, question: Option<&str>, flavour: Flavour) -> Placed {
    // a guessed speaker may be wrong: the clinician turning to a colleague is nobody's history
    if INTERRUPTION.any(s) {
        return dropped();
    }
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
    let clinical = SUBJECTIVE.count(s)
        + DIAGNOSIS_TERMS.count(s)
        + if flavour == Flavour::PohGgz { GGZ_SUBJECTIVE.count(s) } else { 0 }
        + u32::from(tells_duration(s) && AGREEMENT.find(s).is_none());
    // a worry asked with a question word ("Wat moet ik doen als het weer gebeurt?"), and a value
    // measured, whatever else the sentence says, are the history: nothing measured is lost
    if (s.ends_with('?') && WORRY.any(s)) || has_measurement(s) {
        return placed(Section::Subjective, s);
    }
    // agreement opens the sentence or makes a short one: in "Ja, vooral als ik in het donker
    // opzij kijk, dan zie ik aan de buitenkant een flits" the "dan zie ik" tells a symptom
    // ("Maar dat doe ik echt niet vaak, alleen op feestjes" denies, it does not agree)
    let agrees = AGREEMENT.find(s).is_some_and(|at| (word_count(s) <= 12 || word_count(&s[..at]) < 6) && !denied_after(&s[at..]));
    // (small talk's words in a "no" to a clinical question are part of the answer: "Nee, niks
    // bijzonders. Alleen op vakantie wel te veel stokbrood en kaas gegeten."; a "yes" with them is
    // small talk: "Ja, hier is het potje")
    let answers = question.is_some() && style::yes_or_no(s).is_some_and(|(yes, _)| !yes);
    if ((GREETING.any(s) && !answers) || agrees) && clinical < 2 {
        return dropped();
    }
    if s.ends_with('?') && clinical == 0 && !is_worry(s) {
        return dropped();
    }
    if clinical == 0 && opens_with_reaction(s) && episodes::topic_of(s).is_none() {
        return dropped();
    }
    // a parent turning to the child tells nothing: "Jij mag op de grote stoel, hè Noah.", "Kom
    // Noor, jas aan.", "Emre, zeg de dokter maar gedag."
    if clinical == 0 && speaks_to_another(s) {
        return dropped();
    }
    if clinical == 0 && word_count(s) <= 3 {
        return dropped();
    }
    // another problem announced without a word of it ("Oh, en ik heb nog een vraag.", "Dan heb ik
    // nog iets, dokter, misschien is het gek."): what follows tells it
    if announces_only(s) {
        return dropped();
    }
    placed(Section::Subjective, s)
}

/// How many lines after a request to measure now a value read out is the finding.
const MEASURING_WINDOW: u8 = 12;

/// Whether the sentence asks for a value to be measured now, or offers to: "Wilt u nu even bij hem
/// de temperatuur opmeten?", "Zal ik even meten?", "Wat zegt dat nu?" (of a watch that measures the
/// pulse), "Ik zet hem even op zijn vinger".
fn asks_to_measure_now(s: &str) -> bool {
    let lower = s.to_lowercase();
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let measures = words.iter().any(|w| matches!(*w, "meten" | "opmeten" | "meet" | "tellen"));
    let now = words.iter().any(|w| matches!(*w, "even" | "eens" | "nu"));
    (measures && now && (s.trim_end().ends_with('?') || lower.contains("zal ik"))) || MEASURING_NOW.any(s)
}

/// Whether the patient's sentence reads out a value now, not one measured before or usually
/// ("Gisteren had ik 38,5", "Meestal 95 of 96", "Thuis is hij 140 over 90").
fn reads_out_now(s: &str) -> bool {
    has_measurement(s) && !MEASURED_BEFORE.any(s)
}

/// Whether the sentence only says that another problem comes: its clauses the mark of a move and
/// a word or two beside it ("Oh, en ik heb nog een vraag.", "En dan nog iets, dokter."), no
/// question of its own ("Kan ik haar dan nog wel dragen?") and no topic.
fn announces_only(s: &str) -> bool {
    // (a longer clause is the mark itself: "Nog iets, dokter, verliest de laatste tijd zoveel
    // haar" tells the problem)
    !s.trim_end().ends_with('?')
        && episodes::is_topic_change(s)
        && episodes::topic_of(s).is_none()
        && s.split([',', '.', '!', ':', ';']).all(|c| word_count(c) <= 2 || (word_count(c) <= 7 && episodes::is_topic_change(c)))
}

/// Whether the agreement `rest` opens is denied within its next words: "dat doe ik echt niet".
fn denied_after(rest: &str) -> bool {
    rest.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).take(6).any(|w| matches!(w, "niet" | "nooit"))
}

/// Whether `s` tells how long something has lasted: a number before "dagen", "weken", "maanden"
/// or "jaar" ("Zes weken, nee, eigenlijk al acht weken, het begon voor de vakantie"), not one
/// still to come ("over twee weken").
fn tells_duration(s: &str) -> bool {
    // most sentences name no span of time: they need no numbers in digits (nor a lowercase copy)
    let bytes = s.as_bytes();
    let names = |unit: &str| bytes.windows(unit.len()).any(|w| w.eq_ignore_ascii_case(unit.as_bytes()));
    if !["dagen", "weken", "maanden", "jaar", "jaren"].iter().any(|unit| names(unit)) {
        return false;
    }
    let text = numbers::in_digits(s);
    let words: Vec<&str> = text.split_whitespace().map(|w| w.trim_matches(|c: char| !c.is_alphanumeric())).collect();
    (1..words.len()).any(|k| {
        matches!(words[k].to_lowercase().as_str(), "dagen" | "weken" | "maanden" | "jaar" | "jaren")
            && words[k - 1].starts_with(|c: char| c.is_ascii_digit())
            && (k < 2 || !words[k - 2].eq_ignore_ascii_case("over"))
    })
}

/// Whether the patient's question `s` voices a worry about the problem or its treatment, which
/// the history keeps ("Moet er geen foto gemaakt worden?", "Is dat geen zware zalf voor zo'n
/// kleintje?"): it opens with a verb other than "mag" and has four words or more (a question word
/// may open one too: [`WORRY`]). Asking leave
/// ("Mag ik straks autorijden?") or following up the last sentence ("En als het niet helpt?") is
/// no history.
fn is_worry(s: &str) -> bool {
    let first = style::strip_leading_fillers(labels::strip_label(s)).split_whitespace().next().unwrap_or("").to_lowercase();
    word_count(s) >= 4 && register::opens_question(&first)
}

/// Whether the patient's (or parent's) sentence `s` turns to someone else than the clinician: it
/// says "jij", or opens, after a name it calls, with an imperative ("Doe maar de minipil" consents).
fn speaks_to_another(s: &str) -> bool {
    let bare = strip_lead(s);
    let called = match bare.split_once(',') {
        // "Emre, zeg …": a name set off by a comma
        Some((name, rest)) if !name.contains(' ') && name.starts_with(char::is_uppercase) => rest.trim_start(),
        _ => bare,
    };
    s.split(|c: char| !c.is_alphanumeric()).any(|w| w.eq_ignore_ascii_case("jij"))
        || (!s.ends_with('?')
            && !cues::starts_with_cue(called, "doe maar")
            && (IMPERATIVE_START.starts_any(called) || cues::starts_with_cue(called, "zeg de")))
}

/// Whether `s` opens with a reaction word set off by a comma ([`REACTIONS`]).
fn opens_with_reaction(s: &str) -> bool {
    s.trim_start().split_once(',').is_some_and(|(first, _)| REACTIONS.iter().any(|r| first.trim().eq_ignore_ascii_case(r)))
}

fn plan_score(s: &str) -> u32 {
    // an imperative opening is advice: "Haal het kleed uit de gang weg."
    // ("Goedemorgen, kom verder" is a welcome)
    // (after a short heading too: "Voor de aambeien: eet veel vezels")
    let after_heading = s.split_once(": ").filter(|(head, _)| word_count(head) <= 4).map(|(_, rest)| rest);
    let imperative = if (IMPERATIVE_START.starts_any(strip_lead(s)) || after_heading.is_some_and(|rest| IMPERATIVE_START.starts_any(rest)))
        && !s.ends_with('?')
        && !GREETING.starts_any(s)
    {
        4
    } else {
        0
    };
    let safety_net = if SAFETY_NET.any(s) { 6 } else { 0 };
    // what the specialist will do is the plan, however likely: "Waarschijnlijk maken ze een MRI"
    let others_act = if OTHERS_ACT.any(s) { 6 } else { 0 };
    // "Ik zie u over twee weken terug", "Ik bel u morgen om te horen hoe het ging": the
    // follow-up, not a finding (nor the call's end: "ik bel u zo terug")
    let calls_back =
        (cues::has_cue(s, "ik bel u") || cues::has_cue(s, "bel ik u")) && !cues::has_cue(s, "zo terug") && !cues::has_cue(s, "minuten");
    let follow_up = if sees_back(s) || calls_back { 4 } else { 0 };
    let ordered = if orders_a_test(s) { 2 } else { 0 };
    let instructs = if instructs_after_a_clause(s) { 4 } else { 0 };
    2 * PLAN.count(s).min(4) + imperative + safety_net + others_act + follow_up + ordered + instructs
}

/// Whether the clinician tells what to do after a clause of condition or time, the verb before
/// "u": "Tot de hiv-test negatief is, gebruikt u bij seks altijd een condoom", "Zolang de koorts
/// blijft, neemt u paracetamol" (not what the patient has or is: "Als ik het goed begrijp, heeft
/// u al drie weken last"; nor a question).
fn instructs_after_a_clause(s: &str) -> bool {
    const OPENERS: &[&str] = &["als", "tot", "totdat", "zolang", "wanneer", "zodra", "voordat", "nadat"];
    const STATES: &[&str] = &["heeft", "hebt", "had", "bent", "is", "was", "wordt", "werd", "zit", "voelt", "merkt", "ziet", "hoort"];
    let lead = strip_lead(s);
    let lead = if cues::at_start(lead, "en") { lead[2..].trim_start() } else { lead };
    let Some((clause, rest)) = lead.split_once(", ") else { return false };
    let first = rest.split_whitespace().next().unwrap_or_default().to_lowercase();
    !s.ends_with('?')
        && OPENERS.iter().any(|o| cues::at_start(clause, o))
        && !STATES.contains(&first.as_str())
        && register::verb_then_subject(rest) == Some("u")
}

/// Whether a clause of `s` has the clinician order a test: "laat ik" or "laten we" and, closing
/// the clause, what is done ("Dan laat ik het PSA en de nierfunctie prikken"; not "dan laat ik
/// het plafond nog even zitten").
fn orders_a_test(s: &str) -> bool {
    // (the cues match whatever the case, so nothing is lowered: this runs for every clinician line)
    s.split([',', '.', ';', ':']).any(|clause| {
        (cues::has_cue(clause, "laat ik") || cues::has_cue(clause, "laten we"))
            && clause.split_whitespace().last().is_some_and(|w| {
                ["prikken", "bepalen", "onderzoeken", "testen", "nakijken", "controleren", "doen"].iter().any(|v| v.eq_ignore_ascii_case(w))
            })
    })
}

/// Whether the clinician will see the patient again: "ik zie u" with "terug" later in the sentence
/// ("Ik zie u over twee weken terug om te horen hoe het gaat").
pub(crate) fn sees_back(s: &str) -> bool {
    cues::find_cue(s, "ik zie u").is_some_and(|at| cues::has_cue(&s[at..], "terug"))
}

/// Whether a clause of `s` says what the findings fit, with words between the verb and "bij":
/// "Dit patroon past het best bij een leverbelasting", "Volgens mij past dit goed bij een
/// appendicitis" (the contiguous "past bij" is in [`EVALUATION`]).
pub(crate) fn fits(s: &str) -> bool {
    s.split([',', '.', ';', ':']).any(|clause| {
        let mut words = clause.split_whitespace();
        while let Some(w) = words.next() {
            if ["past", "passen", "paste", "pasten"].iter().any(|v| w.eq_ignore_ascii_case(v)) {
                // "bij" as the second or third word after the verb ("past dit goed bij"; a negated
                // fit is an assessment too: "past hier niet bij")
                return words.take(3).skip(1).any(|w| w.eq_ignore_ascii_case("bij"));
            }
        }
        false
    })
}

fn objective_score(s: &str, flavour: Flavour) -> u32 {
    let mut o = 2 * OBJECTIVE.count(s).min(3);
    if has_measurement(s) {
        // the value and its judgement together are the finding: "Het TSH is 24, dat is duidelijk
        // te hoog" (the assessment names what it means)
        o += if is_judgement(s) { 8 } else { 4 };
    }
    if flavour == Flavour::PohGgz {
        o += 2 * GGZ_OBJECTIVE.count(s).min(3);
    }
    o
}

/// What the diagnosis words of `s` alone give its assessment's score (at most 2).
fn evaluation_terms(s: &str) -> u32 {
    DIAGNOSIS_TERMS.count(s).max(ICPC_DIAGNOSES.count(s)).min(2)
}

fn evaluation_score(s: &str) -> u32 {
    let terms = evaluation_terms(s);
    let named = terms > 0 && names_a_diagnosis(s);
    let opens = ASSESSMENT_START.starts_any(strip_lead(s));
    // "De bloeddruk is nog iets te hoog", "De inhalatietechniek is nog niet goed": a judgement
    // against a norm, which is the assessment unless the sentence gives the measured value.
    let judged = if is_judgement(s) && !has_measurement(s) { 4 } else { 0 };
    let fitted = if fits(s) { 3 } else { 0 };
    3 * EVALUATION.count(s).min(2) + fitted + terms + judged + if named || opens { 3 } else { 0 }
}

/// Whether `s` names what the complaint is, as a diagnosis is named ("De keelpijn is een virale
/// keelontsteking", "Dat is handeczeem"), given that it holds a diagnosis term.
pub(crate) fn names_a_diagnosis(s: &str) -> bool {
    // what a patient has not is a finding: "Ze heeft geen koorts, de fontanel is niet gespannen"
    let lead = strip_lead(s);
    let denied = ["u heeft geen", "ze heeft geen", "hij heeft geen"].iter().any(|d| cues::at_start(lead, d));
    (NAMES_A_DIAGNOSIS.starts_any(lead) && !denied) || cues::has_cue(s, "is een")
}

/// Whether a clause of `s` judges its subject: a copula ("is", "zijn", "blijft" …) followed
/// within five words, in the same clause, by a judgement ("te hoog", "niet goed ingesteld",
/// "fors", "onschuldig").
fn is_judgement(s: &str) -> bool {
    s.split([',', '.', ';', ':']).any(|clause| {
        // each word with its byte offset in the clause, so the five words after a copula are a
        // slice of the clause (nothing allocated)
        let words = || clause.split_whitespace().map(|w| (w.as_ptr() as usize - clause.as_ptr() as usize, w));
        words().enumerate().any(|(i, (_, w))| {
            COPULAS.iter().any(|c| c.eq_ignore_ascii_case(w)) && {
                let mut next = words().skip(i + 1).take(5);
                next.next().is_some_and(|first| {
                    let (at, last) = next.last().unwrap_or(first);
                    JUDGEMENT.any(&clause[first.0..at + last.len()])
                })
            }
        })
    })
}

/// True when `text` holds a measured value, in digits or in words: a number followed by a unit
/// ("38,5 graden", "98%", "7,2 mmol"), a blood-pressure-like ratio ("140/90", "honderdveertig
/// over negentig") or a number beside what is measured ("pols zesenzeventig").
pub(crate) fn has_measurement(text: &str) -> bool {
    // "pols zesenzeventig" is "pols 76"
    let text = &*numbers::in_digits(text);
    if measured_digits(text) {
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

/// Whether `text` holds a number beside what is measured ([`MEASURED`], within the six words
/// before it or the two after it): "de pols is regelmatig, 72", "uw score op de PHQ-9 is 17".
/// Not a number that names a target ("onder de 140", "streefwaarde 7"), nor one that counts the
/// word after it ("over 4 weken meet de assistente de bloeddruk", "2 vliegen in één klap"): a
/// value stands last in its clause, before a unit, or before "en" ("pols 90 en regelmatig").
fn measured_digits(text: &str) -> bool {
    fn bare(w: &str) -> &str {
        w.trim_matches(|c: char| !c.is_alphanumeric())
    }
    if !text.bytes().any(|b| b.is_ascii_digit()) {
        return false;
    }
    let words: Vec<(usize, &str)> = text.split_whitespace().map(|w| (w.as_ptr() as usize - text.as_ptr() as usize, w)).collect();
    (0..words.len()).any(|k| {
        let (at, word) = words[k];
        let norm = words[k.saturating_sub(3)..k].iter().any(|(_, w)| NORM_WORDS.iter().any(|n| n.eq_ignore_ascii_case(bare(w))));
        let counts = word.ends_with(|c: char| c.is_alphanumeric())
            && words.get(k + 1).is_some_and(|(_, next)| {
                let rest = &text[at + word.len()..];
                !VALUE_FOLLOWERS.iter().any(|f| f.eq_ignore_ascii_case(bare(next)))
                    && !UNITS.iter().any(|u| cues::starts_with_cue(rest.trim_start(), u))
            });
        let near = || {
            let from = words[k.saturating_sub(6)].0;
            let (last_at, last) = words[(k + 2).min(words.len() - 1)];
            MEASURED.any(&text[from..last_at + last.len()])
        };
        word.bytes().next().is_some_and(|b| b.is_ascii_digit()) && !norm && !counts && near()
    })
}

/// Words that may follow a measured value in its clause ("pols 90 en regelmatig", "u scoort 15 op
/// de Edinburgh-vragenlijst", "daar komt een score van 9 uit"); "gram" is a
/// weight only beside what is measured ("ze weegt 6100 gram"), a dose elsewhere.
const VALUE_FOLLOWERS: &[&str] = &["en", "of", "over", "tot", "bij", "op", "nu", "vandaag", "maar", "dus", "gram", "uit"];

/// Words that make the number after them a target or a limit.
const NORM_WORDS: &[&str] = &["onder", "boven", "streefwaarde", "streef", "maximaal", "minimaal", "hooguit", "grens", "norm"];

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
    fn the_examination_announced_now_and_not_what_is_planned() {
        assert!(announces_examination("Dan wil ik graag even inwendig kijken, als u dat goed vindt."));
        assert!(announces_examination("Dat begrijp ik; ik wil graag onderzoeken, ook via de anus om de prostaat te voelen."));
        // ordered, planned for later, or what is always done: the plan or the assessment
        assert!(!announces_examination("Maar omdat ze geel is, wil ik vandaag de bilirubine in haar bloed laten meten."));
        assert!(!announces_examination("Ik wil Noah morgen wel zien om hem goed na te kijken."));
        assert!(!announces_examination("Een moedervlek die groter wordt, wil ik altijd goed bekijken."));
    }

    #[test]
    fn advice_after_a_short_heading_is_the_plan() {
        assert!(plan_score("Voor de aambeien: eet veel vezels, drink genoeg en pers niet bij de ontlasting.") >= 4);
    }

    #[test]
    fn cues_anywhere_in_the_sentence() {
        // the assessment named after a comma, and what else it may be
        assert!(evaluation_score("U bent duidelijk gemotiveerd, en er is sprake van een flinke nicotineverslaving.") > 0);
        assert!(evaluation_score("Als u de draadjes niet voelt, kan het zijn dat ze zich hebben opgekruld.") > 0);
        // the plan proposed, a test ordered, a safety net, a goodbye
        assert!(plan_score("Een idee is om vooraf een maximum af te spreken, bijvoorbeeld vier drankjes per avond.") > 0);
        assert!(plan_score("Hoort hij dan nog slecht, dan laten we een gehoortest doen.") > 0);
        assert!(plan_score("Komt u direct als u niet meer kunt plassen.") >= 6);
        assert!(GREETING.any("Succes, en een goede laatste periode van de zwangerschap."));
    }

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
        // a score named as a compound: "distressscore", "depressiescore"
        assert!(has_measurement("De vragenlijst geeft een distressscore van 24, dat is hoog."));
        assert!(has_measurement("Uw score op de PHQ-9 is 17."));
        assert!(!has_measurement("Over drie maanden meet de assistente de bloeddruk."));
        // a target is not a value measured
        assert!(!has_measurement("De bloeddruk is nog te hoog, de streefwaarde is onder de 140."));
    }

    fn line(speaker: Speaker, sentence: &str) -> TranscriptLine {
        TranscriptLine { speaker: Some(speaker), sentence: sentence.to_owned() }
    }

    fn sections(lines: &[TranscriptLine]) -> Vec<Option<char>> {
        place_all(lines, Flavour::Normal).iter().map(|p| p.section.map(Section::letter)).collect()
    }

    #[test]
    fn the_clinician_s_cues_place_findings_assessments_and_plans() {
        use Speaker::Zorgverlener;
        // typed without its full stop, "wat" and its subject open a statement, not a question
        let lines = [
            line(Zorgverlener, "je scoort hoog op distress 22 en laag op depressie 2"),
            line(Zorgverlener, "wat je beschrijft is een normale rouwreactie na een miskraam"),
            line(Zorgverlener, "wat heb je tot nu toe geprobeerd"),
        ];
        assert_eq!(sections(&lines), [Some('O'), Some('E'), None]);
        // a lab value is a finding, wherever it is read out; the speculum's view is one too; a
        // call back after the conditions, an imperative "laat hem …" are the plan; "ik hoor het"
        // acknowledges
        let lines = [
            line(Zorgverlener, "Dit past bij hemochromatose."),
            line(Zorgverlener, "Het ferritine is 820 microgram per liter, dat is duidelijk verhoogd."),
            line(Zorgverlener, "Bij het speculumonderzoek ziet de baarmoedermond er rustig uit."),
            line(Zorgverlener, "Als de koorts boven de veertig komt of de roodheid groter wordt, belt u meteen terug."),
            line(Zorgverlener, "Laat hem nuchter blijven, dus niets meer eten of drinken."),
            line(Zorgverlener, "Oké, ik hoor het, dank u."),
        ];
        assert_eq!(sections(&lines), [Some('E'), Some('O'), Some('O'), Some('P'), Some('P'), None]);
        // what it is called, after the findings, is the assessment; blood to be taken the plan
        let lines = [
            line(Zorgverlener, "De nek is soepel en de kracht is goed."),
            line(
                Zorgverlener,
                "Een plotselinge, zeer hevige hoofdpijn die binnen een minuut maximaal is, noemen we een donderslaghoofdpijn.",
            ),
            line(Zorgverlener, "Ik laat uw bloed uitgebreider prikken: HbA1c, nierfunctie en cholesterol."),
        ];
        assert_eq!(sections(&lines), [Some('O'), Some('E'), Some('P')]);
        // a score read out "op" its questionnaire is a finding; a side effect named, what a
        // finding shows and what is assumed are the assessment, after the plan too
        let lines = [
            line(Zorgverlener, "U scoort 15 op de Edinburgh-vragenlijst."),
            line(Zorgverlener, "Stop vandaag met de amoxicilline."),
            line(Zorgverlener, "Het trillen van de handen is een bekende bijwerking van salbutamol."),
            line(Zorgverlener, "Wel laat het zien dat uw astma niet goed onder controle is."),
            line(Zorgverlener, "Het kan ook door de infectie zelf komen, maar we gaan uit van een overgevoeligheid."),
            // the course foretold and what is not yet certain
            line(Zorgverlener, "De meeste fissuren genezen binnen zes tot acht weken."),
            line(Zorgverlener, "Zeker weten kan ik het niet, dat kan alleen met verder onderzoek."),
        ];
        assert_eq!(sections(&lines), [Some('O'), Some('P'), Some('E'), Some('E'), Some('E'), Some('E'), Some('E')]);
        // a typed question without its mark, opened by "hoeveel", asks: the answer is history
        let lines = [
            TranscriptLine { speaker: None, sentence: "hoeveel drinkt u in een gewone week".to_owned() },
            TranscriptLine { speaker: None, sentence: "doordeweeks een stuk of drie vier biertjes per avond".to_owned() },
        ];
        assert_eq!(sections(&lines), [None, Some('S')]);
    }

    #[test]
    fn a_parent_turning_to_the_child_tells_nothing() {
        use Speaker::Patient;
        let lines = [
            line(Patient, "Hij snurkt al een tijd heel hard."),
            line(Patient, "Jij mag op de grote stoel, hè Noah."),
            line(Patient, "Emre, zeg de dokter maar gedag."),
            line(Patient, "Kom Noor, jas aan."),
            line(Patient, "Doe maar de minipil, daar kan ik meteen mee beginnen."),
        ];
        assert_eq!(sections(&lines), [Some('S'), None, None, None, Some('S')]);
    }

    #[test]
    fn a_statement_without_cues_follows_the_consult_s_phase() {
        use Speaker::{Patient, Zorgverlener};
        let lines = [
            line(Zorgverlener, "Waar zit de pijn precies?"),
            line(Patient, "Hier in mijn onderbenen, ze zijn zo dik."),
            line(Zorgverlener, "Ik ga even naar uw benen kijken."),
            line(Zorgverlener, "Er is putjesoedeem tot halverwege de kuit."),
            line(Zorgverlener, "Dit past bij hartfalen."),
            line(Zorgverlener, "Sla de plastablet niet meer over, ook niet als u weg moet."),
            line(Zorgverlener, "Hoe gaat het verder met uw knie?"),
            line(Zorgverlener, "Het weer is vandaag heel mooi geweest."),
        ];
        // the history's statement without cues stays out; during the examination it is a
        // finding, once decided the plan
        assert_eq!(sections(&lines), [None, Some('S'), None, Some('O'), Some('E'), Some('P'), None, None]);
    }

    #[test]
    fn after_the_assessment_a_statement_without_cues_explains_it_unless_it_reads_as_the_plan() {
        use Speaker::Zorgverlener;
        let lines = [
            line(Zorgverlener, "Uw bloeddruk is 150/95."),
            line(Zorgverlener, "Dit is het fenomeen van Raynaud, waarbij de kleine bloedvaatjes bij kou verkrampen."),
            line(Zorgverlener, "Wat u beschrijft past goed bij slaapapneu."),
            line(Zorgverlener, "Daarbij zakt 's nachts uw keel dicht, waardoor u steeds even stopt met ademen."),
            line(Zorgverlener, "Ik maak nu een sneetje van ongeveer een centimeter."),
            line(Zorgverlener, "Het gaat daarbij niet om de roest, maar om de aarde op de spijker."),
        ];
        // after the findings, what names them is the assessment; after the assessment, what
        // explains it; the clinician's own act is the plan, and so is what follows it
        assert_eq!(sections(&lines), [Some('O'), Some('E'), Some('E'), Some('E'), Some('P'), Some('P')]);
        let lines = [
            line(Zorgverlener, "Dit is een aambei."),
            line(Zorgverlener, "U krijgt eerst een prikje met lidocaïne."),
            line(Zorgverlener, "Dit is een aambei."),
            line(Zorgverlener, "Kam het haar twee weken lang elke dag."),
            line(Zorgverlener, "Dit is een aambei."),
            line(Zorgverlener, "Een foto is niet nodig."),
        ];
        assert_eq!(sections(&lines), [Some('E'), Some('P'), Some('E'), Some('P'), Some('E'), Some('P')]);
        // after the findings, what usually or also may be the case explains them
        let lines = [
            line(Zorgverlener, "De touwtjes zijn niet te zien."),
            line(Zorgverlener, "Meestal zijn de touwtjes dan opgekruld in de baarmoederhals."),
            line(Zorgverlener, "Het spiraaltje kan ook zijn uitgestoten."),
        ];
        assert_eq!(sections(&lines), [Some('O'), Some('E'), Some('E')]);
        assert!(shaped_as_plan("Daarna bouwt u rustig weer op") && shaped_as_plan("Controleer ook de rest van het gezin"));
        assert!(!shaped_as_plan("In de warmte gaat dat gistje harder groeien"));
    }

    #[test]
    fn a_relative_typed_beside_the_patient_tells_their_own_part() {
        let typed = |s: &str| TranscriptLine { speaker: None, sentence: s.to_owned() };
        let lines = [
            typed("Huisarts: Vertelt u maar."),
            typed("Echtgenote: Hij snurkt al jaren, maar de laatste tijd stopt zijn ademhaling soms."),
            typed("Ik tel dan tot twintig."),
            typed("Patiënt: Ik ben altijd moe."),
        ];
        let texts: Vec<String> = place_all(&lines, Flavour::Normal).into_iter().map(|p| p.text).collect();
        assert_eq!(texts[1], "Volgens echtgenote: hij snurkt al jaren, maar de laatste tijd stopt zijn ademhaling soms.");
        assert_eq!(texts[2], "Echtgenote telt dan tot 20.");
        assert_eq!(texts[3], "Altijd moe.");
        // a relative alone tells the whole history: "Anamnese via …" marks it once
        let alone = [typed("Huisarts: Vertelt u maar."), typed("Echtgenote: Hij snurkt al jaren.")];
        assert_eq!(place_all(&alone, Flavour::Normal)[1].text, "Hij snurkt al jaren.");
    }

    #[test]
    fn a_spoken_hoi_opens_a_consult_a_written_salutation_or_a_sign_off_a_message() {
        let typed = |lines: &[&str]| lines.iter().map(|s| TranscriptLine { speaker: None, sentence: (*s).to_owned() }).collect::<Vec<_>>();
        assert!(!is_message(&typed(&["hoi lotte en hallo mevrouw vertel het maar", "ik heb sinds april een verstopte neus"])));
        assert!(is_message(&typed(&["Beste dokter,", "Ik heb al weken last van mijn maag."])));
        assert!(is_message(&typed(&["Hallo dokter, ik heb al weken last van mijn maag.", "Groetjes, Jan"])));
    }

    #[test]
    fn what_a_child_has_not_is_no_diagnosis_named() {
        use Speaker::Zorgverlener;
        assert!(!names_a_diagnosis("Ze heeft geen koorts en ik voel geen liesbreukje."));
        assert!(names_a_diagnosis("Ze heeft een liesbreukje."));
        let lines =
            [line(Zorgverlener, "Ze heeft geen koorts, de fontanel is niet gespannen, het buikje is soepel en ik voel geen liesbreukje.")];
        assert_eq!(sections(&lines), [Some('O')]);
    }

    #[test]
    fn a_patient_s_reaction_without_anything_clinical_stays_out() {
        use Speaker::{Patient, Zorgverlener};
        let lines = [
            line(Zorgverlener, "Neem de paracetamol drie keer per dag."),
            line(Patient, "Goed, dan gaan we nu naar de apotheek."),
            line(Patient, "Fijn, ik schrijf het op."),
            line(Patient, "Goed, maar de hoofdpijn is er elke ochtend weer."),
            line(Patient, "Nou, eerlijk gezegd niet zo best."),
        ];
        // a reaction with a complaint or a body part after it is told; "nou" opens an answer as
        // often
        assert_eq!(sections(&lines), [Some('P'), None, None, Some('S'), Some('S')]);
        // agreement opens a sentence or makes a short one; deep in a long one it is a symptom told
        let lines = [
            line(Zorgverlener, "Ziet u ook lichtflitsen?"),
            line(Patient, "Ja, vooral als ik in het donker opzij kijk, dan zie ik aan de buitenkant een flits."),
            line(Patient, "Prima, het voelt nu al minder gespannen, dank u."),
        ];
        assert_eq!(sections(&lines), [None, Some('S'), None]);
    }

    #[test]
    fn an_examination_announced_after_the_results_are_assessed_opens_the_findings() {
        use Speaker::Zorgverlener;
        let lines = [
            line(Zorgverlener, "Dat B12 is duidelijk te laag, en er is een lichte bloedarmoede."),
            line(Zorgverlener, "Mag ik even in uw mond kijken? Steekt u de tong eens uit."),
            line(Zorgverlener, "De tong is glad en vuurrood, de ribbeltjes zijn verdwenen."),
        ];
        assert_eq!(sections(&lines), [Some('E'), None, Some('O')]);
    }

    #[test]
    fn a_typed_examination_asked_for_and_consented_to_leaves_the_findings_to_the_clinician() {
        // no speakers, no punctuation: the request is the clinician's, the consent leaves them
        // the floor
        let typed = |s: &str| TranscriptLine { speaker: None, sentence: s.to_owned() };
        let lines = [
            typed("verliest u urine of heeft u afscheiding"),
            typed("nee geen urineverlies en geen afscheiding"),
            typed("ik wil graag even van onderen kijken is dat goed"),
            typed("ja dat is goed"),
            typed("de bekkenbodem is gespannen en ontspant slecht"),
        ];
        let placed = place_all(&lines, Flavour::Normal);
        assert_eq!(placed.iter().map(|p| p.section.map(|s| s.letter())).collect::<Vec<_>>(), [None, Some('S'), None, None, Some('O')]);
        assert_eq!(placed[2].speaker, Speaker::Zorgverlener);
    }

    #[test]
    fn what_is_said_before_a_closing_question_is_placed_and_the_question_waits() {
        use Speaker::{Patient, Zorgverlener};
        let line = |speaker, s: &str| TranscriptLine { speaker: Some(speaker), sentence: s.to_owned() };
        let lines = [
            line(Zorgverlener, "Dit is een lichte depressie na de bevalling."),
            line(Zorgverlener, "Dan zie ik u volgende week dinsdag om tien uur, past dat?"),
            line(Patient, "Ja, dat past."),
            line(Zorgverlener, "Ik verwijs u naar de fysiotherapeut voor oefeningen. Heeft u daar een voorkeur voor?"),
            // a reaction before a question is no statement of its own, nor is a list asked after
            line(Zorgverlener, "Dat is een goed besluit. Hoeveel rookt u nu?"),
            line(Zorgverlener, "Is dat geleidelijk gekomen, of ineens?"),
        ];
        let placed = place_all(&lines, Flavour::Normal);
        let sections: Vec<Option<char>> = placed.iter().map(|p| p.section.map(|s| s.letter())).collect();
        assert_eq!(sections, [Some('E'), Some('P'), None, Some('P'), None, None]);
        assert!(!placed[1].text.contains('?') && !placed[3].text.contains('?'), "{} | {}", placed[1].text, placed[3].text);
    }

    #[test]
    fn what_to_do_after_a_condition_is_the_plan() {
        assert!(instructs_after_a_clause("En tot de hiv-test na drie maanden negatief is, gebruikt u bij seks altijd een condoom."));
        assert!(instructs_after_a_clause("Als u merkt dat het oploopt, neemt u een time-out."));
        assert!(!instructs_after_a_clause("Als ik het goed begrijp, heeft u al drie weken last."));
        assert!(!instructs_after_a_clause("Als ik hier druk, voelt u dat?"));
    }

    #[test]
    fn small_talk_s_words_in_a_no_to_a_clinical_question_are_the_answer() {
        let q = Some("Veel dorst, vaak plassen 's nachts, of juist trillerig en zweterig?");
        let answer = place_patient("Nee, niks bijzonders. Alleen op vakantie wel te veel stokbrood en kaas gegeten.", q, Flavour::Normal);
        assert_eq!(answer.section, Some(Section::Subjective));
        assert_eq!(place_patient("Ja, hier is het potje.", Some("Heeft u de urine meegenomen?"), Flavour::Normal).section, None);
    }

    #[test]
    fn a_score_that_comes_out_of_a_questionnaire_is_measured() {
        assert!(has_measurement("Daar komt een score van 9 uit, dat is in het hoge gebied."));
        // the clinician's call back after the consult is no turn to another
        assert!(!INTERRUPTION.any("Ik mag de medicijnen niet zelf veranderen, dus ik overleg na het spreekuur met de huisarts."));
        assert!(INTERRUPTION.any("Ja, ik bel u na het spreekuur terug, dag."));
    }

    #[test]
    fn a_written_question_of_several_parts_is_kept_as_asked() {
        let typed = |s: &str| TranscriptLine { speaker: None, sentence: s.to_owned() };
        let lines = [
            typed("Beste dokter,"),
            typed("Ik ben zes weken zwanger en heb hoofdpijn."),
            typed("Mag ik ibuprofen nemen, en zo ja, hoeveel?"),
            typed("Kunt u weer naproxen voorschrijven?"),
            typed("Met vriendelijke groet,"),
            typed("Anna"),
        ];
        let placed = place_all(&lines, Flavour::Normal);
        assert_eq!(placed[2].text, "Vraagt: \"Mag ik ibuprofen nemen, en zo ja, hoeveel?\"");
        assert_eq!(placed[3].text, "Vraag: weer naproxen voorschrijven.");
    }

    #[test]
    fn a_written_reply_s_thanks_and_signature_leave_the_note_where_its_lines_name_their_speaker() {
        use Speaker::{Patient, Zorgverlener};
        let lines = [
            line(Patient, "Beste dokter,"),
            line(Patient, "Mijn calcium was 2,76 bij een keuring."),
            line(Zorgverlener, "Dank voor uw bericht en het doorsturen van de uitslag."),
            line(Zorgverlener, "Stop voorlopig met de calciumtabletten."),
            line(Zorgverlener, "Met vriendelijke groet,"),
            line(Zorgverlener, "A. de Wit, huisarts"),
        ];
        assert_eq!(sections(&lines)[2..], [None, Some('P'), None, None]);
    }

    #[test]
    fn another_problem_announced_without_a_word_of_it_stays_out() {
        use Speaker::{Patient, Zorgverlener};
        let lines = [
            line(Zorgverlener, "Komt u terug als het niet beter wordt."),
            line(Patient, "Oh, en ik heb nog een vraag."),
            line(Patient, "En dan nog iets, dokter."),
            line(Patient, "Nog iets, dokter, ik verlies de laatste tijd zoveel haar."),
            line(Patient, "Kan ik haar dan nog wel dragen?"),
        ];
        // the announcement tells nothing; the problem told with it, and a question of its own, do
        assert_eq!(sections(&lines), [Some('P'), None, None, Some('S'), Some('S')]);
    }

    #[test]
    fn a_patient_s_worry_is_history_asking_leave_is_not() {
        use Speaker::{Patient, Zorgverlener};
        let lines = [
            line(Zorgverlener, "Het is artrose van de knie."),
            line(Patient, "Moet er dan geen foto gemaakt worden?"),
            line(Patient, "Is dat geen zware zalf voor zo'n kleintje?"),
            line(Patient, "Mag ik straks gewoon naar huis rijden?"),
            line(Patient, "En die kat?"),
            line(Patient, "Kan dat?"),
            line(Patient, "Maar wat moet ik doen als het weer gebeurt?"),
        ];
        assert_eq!(sections(&lines), [Some('E'), Some('S'), Some('S'), None, None, None, Some('S')]);
    }

    #[test]
    fn a_judgement_against_a_norm_is_the_assessment_unless_it_gives_the_value() {
        use Speaker::Zorgverlener;
        let lines = [
            line(Zorgverlener, "De bloeddruk is nog iets te hoog."),
            line(Zorgverlener, "De inhalatietechniek is nog niet goed, daardoor krijgt u minder medicijn binnen."),
            line(Zorgverlener, "De bloeddruk is 152/96, dat is te hoog."),
        ];
        assert_eq!(sections(&lines), [Some('E'), Some('E'), Some('O')]);
        assert!(is_judgement("De klachten zijn fors."));
        assert!(!is_judgement("De darmgeluiden zijn wat verhoogd."));
    }

    #[test]
    fn a_fit_a_verdict_and_a_safety_net_are_told_from_findings() {
        use Speaker::Zorgverlener;
        let lines = [
            line(Zorgverlener, "Dit patroon past het best bij een leverbelasting door alcohol."),
            line(Zorgverlener, "Een torsio vind ik onwaarschijnlijk, omdat het zo geleidelijk begon."),
            line(Zorgverlener, "Het kan geen kwaad en het wordt niet kwaadaardig."),
            line(Zorgverlener, "Wordt hij snel groter, hard of groter dan vijf centimeter, kom dan terug."),
            line(Zorgverlener, "Ik zie u over twee weken terug om te horen hoe de propranolol bevalt."),
            line(Zorgverlener, "Ik laat uw urine testen op chlamydia en gonorroe."),
        ];
        assert_eq!(sections(&lines), [Some('E'), Some('E'), Some('E'), Some('P'), Some('P'), Some('P')]);
        let lines = [
            line(Zorgverlener, "Er is nu geen sprake van beklemming."),
            line(Zorgverlener, "De somberheid lijkt vooral een gevolg van de eetbuien, ik zie geen depressie."),
            line(Zorgverlener, "Ik bel u over twee dagen met de uitslag van de kweek."),
            line(Zorgverlener, "Krijgt u bloedverlies tussen de menstruaties, neem dan eerder contact op."),
            line(Zorgverlener, "Er komt flink wat pus en wit brijig materiaal uit."),
        ];
        assert_eq!(sections(&lines), [Some('E'), Some('E'), Some('P'), Some('P'), Some('O')]);
        // a safety net whose condition names findings, and what will be measured
        let lines = [
            line(Zorgverlener, "De roodheid is scherp begrensd."),
            line(Zorgverlener, "Als de elleboog rood of heet wordt, de pijn toeneemt of u koorts krijgt, komt u dezelfde dag."),
            line(Zorgverlener, "Krijgt u pijn of koorts, of loopt er vocht uit het oor, dan wil ik u eerder zien."),
            line(Zorgverlener, "Dan laat ik het PSA en de nierfunctie prikken."),
            line(Zorgverlener, "Over een jaar meten we het cholesterol en de bloeddruk opnieuw."),
        ];
        assert_eq!(sections(&lines), [Some('O'), Some('P'), Some('P'), Some('P'), Some('P')]);
        assert!(fits("Volgens mij past dit goed bij een appendicitis") && fits("Een beroerte past hier niet bij"));
        assert!(!fits("Dat past bij een virale infectie") && !fits("De schoen past niet goed"));
        assert!(sees_back("Ik zie u over een week terug") && !sees_back("Ik zie uw keel, die is rood, terug naar de stoel"));
    }

    #[test]
    fn a_treatment_announced_a_call_back_and_a_sample_handed_over_are_the_plan() {
        use Speaker::Zorgverlener;
        let lines = [
            line(Zorgverlener, "U leest met allebei de ogen de onderste regel, de visus is links en rechts één."),
            line(Zorgverlener, "Ik ga uw oog verdoven met druppels en het deeltje er met een naaldje uithalen."),
            line(Zorgverlener, "Belt u terug als de blaren gaan ontsteken met pus of een rode rand."),
            line(Zorgverlener, "Prima, de assistente geeft u een potje voor de urine mee en een formulier om bloed te laten prikken."),
            line(Zorgverlener, "Tabletten werken te traag, maar ik regel zuurstof voor thuis, die ademt u bij een aanval in."),
        ];
        assert_eq!(sections(&lines), [Some('O'), Some('P'), Some('P'), Some('P'), Some('P')]);
        // what cannot yet be said, and a judgement by age, are the assessment
        let lines = [
            line(Zorgverlener, "Ik kan niet met zekerheid zeggen wat dit is."),
            line(Zorgverlener, "Bloed in de urine moet altijd goed uitgezocht worden, zeker op uw leeftijd."),
        ];
        assert_eq!(sections(&lines), [Some('E'), Some('E')]);
        // how ill the patient is, judged
        let lines = [
            line(Zorgverlener, "Temperatuur 38,9, de pols 96."),
            line(Zorgverlener, "U bent wel ziek, maar niet zo dat u naar het ziekenhuis moet."),
        ];
        assert_eq!(sections(&lines), [Some('O'), Some('E')]);
    }

    #[test]
    fn a_written_reply_assesses_and_plans_without_its_salutation_and_thanks() {
        let mut lines: Vec<TranscriptLine> =
            ["Goedendag dokter,", "Ik ben 38 en ik denk erover om me te laten steriliseren.", "Groet, Mark"]
                .iter()
                .map(|s| TranscriptLine { speaker: None, sentence: (*s).to_owned() })
                .collect();
        assert!(is_message(&lines));
        lines.extend([
            line(Speaker::Zorgverlener, "Beste meneer Visser,"),
            line(Speaker::Zorgverlener, "Dank voor uw duidelijke vragen."),
            line(Speaker::Zorgverlener, "Een vasectomie is een kleine, veilige ingreep en een heel betrouwbare vorm van anticonceptie."),
            line(Speaker::Zorgverlener, "Lees alvast de informatie op Thuisarts over sterilisatie bij de man."),
        ]);
        assert_eq!(sections(&lines), [None, Some('S'), None, None, None, Some('E'), Some('P')]);
    }

    #[test]
    fn a_referral_an_ambulance_a_weight_and_a_condition_are_placed_for_what_they_are() {
        use Speaker::Zorgverlener;
        let lines = [
            line(Zorgverlener, "Ze weegt 6100 gram, op het consultatiebureau was dat vorige maand 5300."),
            line(Zorgverlener, "Waarschijnlijk de ziekte van Ménière."),
            line(Zorgverlener, "Ik verwijs u naar de KNO-arts voor een gehoortest en om de diagnose te bevestigen."),
            line(Zorgverlener, "Ja, ik bel nu de maag-darm-leverarts en laat een ambulance komen."),
            line(Zorgverlener, "krijgt u binnen een half jaar weer een steenpuist dan behandelen we u en uw gezin met een neuszalf"),
            line(Zorgverlener, "U kunt zich weer aankleden."),
        ];
        assert_eq!(sections(&lines), [Some('O'), Some('E'), Some('P'), Some('P'), Some('P'), None]);
        // "gram" is a dose where nothing measured stands near it
        assert!(has_measurement("Ze weegt 6100 gram."));
        assert!(!has_measurement("Neem maximaal 3 gram paracetamol per dag."));
    }

    #[test]
    fn findings_after_an_examination_announced_as_a_question_are_the_clinician_s() {
        let lines: Vec<TranscriptLine> = [
            "Komt het in de familie voor?",
            "Mijn moeder had het ook.",
            "Ik wil uw benen even bekijken, wilt u gaan staan?",
            "Er is wat enkeloedeem, er is geen huidverkleuring en er zijn geen wondjes.",
        ]
        .iter()
        .map(|s| TranscriptLine { speaker: None, sentence: (*s).to_owned() })
        .collect();
        let placed = place_all(&lines, Flavour::Normal);
        assert_eq!(placed[3].speaker, Speaker::Zorgverlener);
        assert_eq!(placed[3].section, Some(Section::Objective));
    }

    #[test]
    fn a_pleasantry_a_call_back_a_duration_an_observed_mind_and_what_others_will_do_are_placed() {
        use Speaker::{Patient, Zorgverlener};
        let lines = [
            line(Patient, "Dank u. Nou dokter, het gaat om mijn rechterheup."),
            line(Patient, "Zes weken, nee, eigenlijk al acht weken, het begon voor de vakantie."),
            line(Zorgverlener, "Sorry, één moment, de assistente belt."),
            line(Zorgverlener, "Rechts leest u 0,5 en links 0,6, en door het gaatjesplaatje wordt dat niet beter."),
            line(Zorgverlener, "Je zit er gespannen bij en kijkt steeds om je heen, maar je bent helder."),
            line(Zorgverlener, "Moeite met slikken samen met gewichtsverlies is een alarmsignaal."),
            line(Zorgverlener, "Helemaal stoppen hoeft niet, maar doe het een paar weken rustiger aan."),
            line(Zorgverlener, "Laat de tandarts wel elk jaar uw mond nakijken."),
            line(Zorgverlener, "Ik heb overlegd met het Vergiftigingen Informatie Centrum."),
            line(Zorgverlener, "Ik bel u morgen om te horen hoe het gegaan is."),
            line(Zorgverlener, "ja ik bel u over tien minuten terug"),
            line(Zorgverlener, "Waarschijnlijk maken ze een MRI en kijken ze of een operatie nodig is."),
            line(Zorgverlener, "Als u suf of verward wordt of koorts krijgt, gaat u direct naar de spoedpost."),
        ];
        assert_eq!(
            sections(&lines),
            [
                Some('S'),
                Some('S'),
                None,
                Some('O'),
                Some('O'),
                Some('E'),
                Some('P'),
                Some('P'),
                Some('P'),
                Some('P'),
                None,
                Some('P'),
                Some('P')
            ]
        );
        assert_eq!(place_all(&lines[..1], Flavour::Normal)[0].text, "Het gaat om rechterheup.");
        // a duration still to come tells no history
        assert!(tells_duration("Het begon zes weken geleden.") && !tells_duration("Dan zie ik u over twee weken."));
    }

    #[test]
    fn a_diagnosis_of_the_icpc_list_is_named() {
        use Speaker::Zorgverlener;
        // "hoofdluis" is in no cue list of the engine, only in the ICPC list's synonyms
        assert_eq!(sections(&[line(Zorgverlener, "Ze heeft hoofdluis.")]), [Some('E')]);
    }

    #[test]
    fn a_value_read_out_at_the_clinician_s_request_is_a_finding() {
        // a telephone consult: what the caller measures during the call is O, what was measured
        // before it or is usual the history
        let asked = [
            line(Speaker::Zorgverlener, "Heeft u een thermometer in huis? Wilt u even meten terwijl we praten?"),
            line(Speaker::Patient, "Ja, momentje."),
            line(Speaker::Patient, "Geen ibuprofen, geen antibiotica, niet op reis."),
            line(Speaker::Patient, "O, de thermometer piept: 37,6."),
            line(Speaker::Patient, "Gisteren had ik 38,5."),
        ];
        assert_eq!(sections(&asked), vec![None, None, Some('S'), Some('O'), Some('S')]);
        let offered = [
            line(Speaker::Patient, "Ja, allebei, van mijn moeder. Zal ik even meten?"),
            line(Speaker::Zorgverlener, "Graag, ik blijf aan de lijn."),
            line(Speaker::Patient, "Hij doet het... 124 over 78 staat er, en hartslag 88."),
        ];
        assert_eq!(sections(&offered)[2], Some('O'));
        // without a request the value is the history
        assert_eq!(sections(&[line(Speaker::Patient, "Mijn hartslag was 92.")]), vec![Some('S')]);
        assert!(!asks_to_measure_now("Ik ga nu even uw bloeddruk meten."));
    }

    #[test]
    fn what_the_clinician_reads_from_the_record_is_the_history() {
        let read = place_all(
            &[line(
                Speaker::Zorgverlener,
                "Ik zie in het dossier dat u sinds 2019 colitis ulcerosa heeft en mesalazine gebruikt, 2 gram per dag. Klopt dat nog?",
            )],
            Flavour::Normal,
        );
        assert_eq!(read[0].section, Some(Section::Subjective));
        assert_eq!(
            read[0].text,
            "In het dossier staat dat patiënt sinds 2019 colitis ulcerosa heeft en mesalazine gebruikt, 2 gram per dag."
        );
        let at_the_end = place_all(
            &[line(Speaker::Zorgverlener, "In januari was de nierfunctie nog 56 en het kalium 4,9, zie ik hier.")],
            Flavour::Normal,
        );
        assert_eq!(at_the_end[0].text, "In januari was de nierfunctie nog 56 en het kalium 4,9, volgens het dossier.");
        // "zie ik hier" within a sentence reads nothing from the record
        assert!(!RECORD_READ.any("Dat zie ik hier ook in de brief staan."));
    }

    #[test]
    fn the_clinician_s_own_ik_names_them_where_the_speaker_is_known_or_at_their_work() {
        let decided = || line(Speaker::Zorgverlener, "Dit past bij een snijwond.");
        let known =
            place_all(&[decided(), line(Speaker::Zorgverlener, "Ik verdoof de wond en zet er drie hechtingen in.")], Flavour::Normal);
        assert_eq!(known[1].text, "Huisarts verdooft de wond en zet er 3 hechtingen in.");
        let poh = place_all(&[decided(), line(Speaker::Zorgverlener, "Ik leer u ook een ademhalingsoefening.")], Flavour::PohGgz);
        assert!(poh[1].text.starts_with("POH leert"), "{}", poh[1].text);
        // a guessed speaker is named only at the clinician's work: the guess could make the
        // doctor the smoker
        let guessed = |s: &str| TranscriptLine { speaker: None, sentence: s.to_owned() };
        assert!(
            place_all(&[decided(), guessed("Ik leer u ook een ademhalingsoefening.")], Flavour::Normal)[1]
                .text
                .starts_with("Huisarts leert")
        );
        assert!(!place_all(&[decided(), guessed("Ik zet er drie hechtingen in.")], Flavour::Normal)[1].text.contains("Huisarts"));
    }
}
