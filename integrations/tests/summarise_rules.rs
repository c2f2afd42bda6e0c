//! The rules summariser end to end: every template's shape, the clinician's style, the clinical
//! register of the note (the examples word for word), the error for an empty transcript,
//! and floors on the Dutch SOEP test set: sentence placement, the expected facts per field on dev
//! and holdout, and no style breaches.

use std::path::PathBuf;

use futures::executor::block_on;
use integrations::speech::{Speaker, sentences};
use integrations::summarise::rules::{self, RulesSummariser, Section, classify, testset};
use integrations::summarise::{
    Flavour, SoapExample, SummariseError, Summariser, Summary, SummaryRequest, Template, TranscriptLine, specialist_sections,
};

fn z(s: &str) -> TranscriptLine {
    TranscriptLine { sentence: s.to_owned(), speaker: Some(Speaker::Zorgverlener) }
}

fn p(s: &str) -> TranscriptLine {
    TranscriptLine { sentence: s.to_owned(), speaker: Some(Speaker::Patient) }
}

fn unknown(s: &str) -> TranscriptLine {
    TranscriptLine { sentence: s.to_owned(), speaker: None }
}

fn consult() -> Vec<TranscriptLine> {
    vec![
        z("Goedemorgen, wat kan ik voor u doen?"),
        p("Eh, dokter, ik heb sinds drie dagen keelpijn."),
        p("Ik heb paracetamol geprobeerd maar dat helpt niet."),
        z("Heeft u koorts?"),
        p("Nee."),
        z("Ik ga even in uw keel kijken."),
        z("De keel is rood, de amandelen zijn niet gezwollen en er is geen beslag."),
        z("De temperatuur is 37,4 graden."),
        z("Dit past bij een virale keelontsteking."),
        z("U kunt paracetamol 1000 mg drie keer per dag nemen."),
        z("Als het over een week niet beter is, komt u terug."),
        p("Oké, dank u wel."),
    ]
}

fn two_problems() -> Vec<TranscriptLine> {
    vec![
        p("Ik hoest al twee weken en er komt groen slijm mee."),
        p("En dan nog iets anders, mijn rechterknie is dik sinds ik gevallen ben."),
        z("De longen klinken schoon bij auscultatie."),
        z("De knie is gezwollen, de banden zijn stabiel."),
        z("De hoest past bij een virale bronchitis."),
        z("Voor de knie adviseer ik koelen en hoog leggen."),
        z("Voor de hoest kunt u honing proberen."),
    ]
}

fn request(template: Template, flavour: Flavour, transcript: Vec<TranscriptLine>) -> SummaryRequest {
    SummaryRequest { template, flavour, episode_count: 1, transcript, ..Default::default() }
}

fn run(r: &SummaryRequest) -> Summary {
    let summariser = RulesSummariser::new();
    assert_eq!(summariser.name(), "rules");
    let summary = block_on(summariser.summarise(r)).expect("a summary");
    assert_eq!(summary.engine, "rules");
    assert!(summary.extractive);
    summary
}

#[test]
fn soap_fills_each_field_from_the_right_sentences() {
    let s = run(&request(Template::Soap, Flavour::Normal, consult()));
    assert_eq!(s.result.episodes.len(), 1);
    let e = &s.result.episodes[0];
    assert_eq!(e.subjective, "Sinds 3 dagen keelpijn. Paracetamol geprobeerd maar dat helpt niet. Geen koorts.");
    assert_eq!(e.objective, "De keel is rood, de amandelen zijn niet gezwollen en er is geen beslag. De temperatuur is 37,4 graden.");
    assert_eq!(e.diagnosis, "Virale keelontsteking.");
    assert_eq!(e.plan, "Paracetamol 1000 mg 3 keer per dag nemen. Als het over een week niet beter is, terugkomen.");
    assert!(s.result.dictation.is_none() && s.result.meeting.is_none());
    assert!(s.result.specialist_summarization.is_none());
}

#[test]
fn soap_splits_episodes_by_topic() {
    let mut r = request(Template::Soap, Flavour::Normal, two_problems());
    r.episode_count = 2;
    let s = run(&r);
    let [cough, knee] = &s.result.episodes[..] else { panic!("two episodes: {:?}", s.result.episodes) };
    assert_eq!(cough.subjective, "Hoest al 2 weken en er komt groen slijm mee.");
    assert_eq!(cough.objective, "De longen klinken schoon bij auscultatie.");
    assert_eq!(cough.diagnosis, "Virale bronchitis.");
    assert_eq!(cough.plan, "Voor de hoest honing proberen.");
    assert!(knee.subjective.contains("rechterknie is dik"));
    assert_eq!(knee.objective, "De knie is gezwollen, de banden zijn stabiel.");
    assert_eq!(knee.plan, "Voor de knie advies koelen en hoog leggen.");

    // Asked for three, given three: the last stays empty.
    r.episode_count = 3;
    let s = run(&r);
    assert_eq!(s.result.episodes.len(), 3);
    assert_eq!(s.result.episodes[2], Default::default());
}

#[test]
fn unknown_speakers_are_guessed() {
    let lines: Vec<TranscriptLine> = consult().into_iter().map(|l| unknown(&l.sentence)).collect();
    let placements = classify(&request(Template::Soap, Flavour::Normal, lines));
    assert_eq!(placements[1].speaker, Speaker::Patient);
    assert_eq!(placements[1].section, Some(Section::Subjective));
    assert_eq!(placements[3].speaker, Speaker::Zorgverlener);
    assert_eq!(placements[3].section, None);
    assert_eq!(placements[7].section, Some(Section::Objective));
    assert_eq!(placements[9].section, Some(Section::Plan));
}

#[test]
fn examples_shape_the_note() {
    let mut r = request(Template::Soap, Flavour::Normal, consult());
    r.examples = vec![
        SoapExample {
            subjective: "Hoest sinds 1 wk; geen koorts; geen dyspnoe.".into(),
            objective: "Longen schoon.".into(),
            evaluation: "Virale bovenste luchtweginfectie.".into(),
            plan: "1. Paracetamol zo nodig\n2. Terug bij koorts".into(),
        },
        SoapExample {
            subjective: "Lage rugpijn na tillen; geen uitstraling.".into(),
            objective: "Lasègue negatief.".into(),
            evaluation: "Aspecifieke lage rugpijn.".into(),
            plan: "1. Blijven bewegen\n2. Paracetamol".into(),
        },
    ];
    let e = &run(&r).result.episodes[0];
    assert_eq!(e.subjective, "Sinds 3 dagen keelpijn; paracetamol geprobeerd maar dat helpt niet; geen koorts");
    assert_eq!(e.plan, "1. Paracetamol 1000 mg 3 keer per dag nemen.\n2. Als het over een week niet beter is, terugkomen.");

    r.examples = vec![SoapExample { plan: "- Paracetamol\n- Controle over een week".into(), ..Default::default() }];
    let e = &run(&r).result.episodes[0];
    assert!(e.plan.starts_with("- Paracetamol") && e.plan.contains("\n- Als het over een week"));
    assert!(e.subjective.starts_with("Sinds 3 dagen keelpijn."));
}

#[test]
fn report_is_one_episode_with_the_assessment_leading_the_plan() {
    let mut r = request(Template::Report, Flavour::Normal, two_problems());
    r.episode_count = 2;
    let s = run(&r);
    assert_eq!(s.result.episodes.len(), 1);
    let e = &s.result.episodes[0];
    assert!(e.subjective.contains("Hoest al 2 weken") && e.subjective.contains("rechterknie"));
    assert!(e.objective.contains("longen") && e.objective.contains("knie is gezwollen"));
    assert_eq!(e.diagnosis, "");
    assert!(e.plan.starts_with("Virale bronchitis."));
    assert!(e.plan.ends_with("Voor de hoest honing proberen."), "{}", e.plan);
}

#[test]
fn specialist_letters_have_exactly_their_sections() {
    let allergy = vec![
        z("Ik verwijs Daan naar u in verband met een reactie op pinda."),
        p("Hij kreeg dikke lippen en galbulten na een pindakoek."),
        p("Hij slaapt slecht door de jeuk."),
        z("De huid toont eczeem in de elleboogplooien."),
        z("Het specifiek IgE voor pinda is verhoogd."),
        z("Waarschijnlijk een pinda-allergie."),
        z("Ik schrijf een epipen voor en geef een folder mee."),
    ];
    for flavour in [Flavour::Normal, Flavour::PohGgz, Flavour::KinderartsAllergoloog, Flavour::KinderartsOrthopeed] {
        let s = run(&request(Template::Specialist, flavour, allergy.clone()));
        let map = s.result.specialist_summarization.expect("sections");
        let mut keys: Vec<&str> = map.keys().map(String::as_str).collect();
        let mut want = specialist_sections(flavour).to_vec();
        keys.sort_unstable();
        want.sort_unstable();
        assert_eq!(keys, want, "{flavour:?}");
        assert!(map["Reden van verwijzing"].contains("in verband met een reactie op pinda"));
        assert!(map["Conclusie"].contains("pinda-allergie"));
        assert!(map["Beleid"].contains("epipen"));
        assert!(map["Lichamelijk onderzoek"].contains("eczeem"));
        match flavour {
            Flavour::KinderartsAllergoloog => {
                assert!(map["Allergologische anamnese"].contains("galbulten"));
                assert!(map["Anamnese"].contains("slaapt slecht") && !map["Anamnese"].contains("galbulten"));
                assert!(map["Aanvullend onderzoek"].contains("IgE"));
            }
            Flavour::KinderartsOrthopeed => assert_eq!(map["Beeldvorming"], ""),
            _ => assert!(map["Anamnese"].contains("galbulten")),
        }
    }
}

#[test]
fn poh_ggz_captures_mood_and_presentation() {
    let lines = vec![
        z("Hoe gaat het met u?"),
        p("Ik slaap slecht en pieker veel."),
        z("U maakt een vermoeide en gespannen indruk."),
        z("Op de vragenlijst scoort u 18 punten."),
        z("Dit past bij een depressieve episode."),
        z("We gaan wekelijks gesprekken plannen."),
    ];
    let s = run(&request(Template::Soap, Flavour::PohGgz, lines));
    let e = &s.result.episodes[0];
    assert_eq!(e.subjective, "Slaapt slecht en piekert veel.");
    assert_eq!(e.objective, "Maakt een vermoeide en gespannen indruk. Op de vragenlijst score 18 punten.");
    assert_eq!(e.diagnosis, "Depressieve episode.");
    assert_eq!(e.plan, "Wekelijks gesprekken plannen.");
}

#[test]
fn dictation_and_radiology_give_clean_text_and_a_summary() {
    let lines = vec![
        unknown("eh röntgenfoto van de rechterpols in twee richtingen"),
        unknown("de botstructuur is normaal"),
        unknown("geen fractuurlijn zichtbaar"),
        unknown("wekedelen zwelling aan de radiale zijde"),
        unknown("conclusie geen aanwijzingen voor een fractuur"),
    ];
    let s = run(&request(Template::Radiology, Flavour::Normal, lines.clone()));
    assert_eq!(
        s.result.dictation.as_deref(),
        Some(
            "Röntgenfoto van de rechterpols in twee richtingen. De botstructuur is normaal. Geen fractuurlijn zichtbaar. Wekedelen zwelling aan de radiale zijde. Conclusie geen aanwijzingen voor een fractuur."
        )
    );
    assert_eq!(s.result.summarized_dictation.as_deref(), Some("Conclusie geen aanwijzingen voor een fractuur."));
    assert!(s.result.episodes.is_empty());

    let s = run(&request(Template::Dictation, Flavour::Normal, lines[..2].to_vec()));
    assert_eq!(s.result.dictation.as_deref(), Some("Röntgenfoto van de rechterpols in twee richtingen. De botstructuur is normaal."));
    assert_eq!(s.result.summarized_dictation, None);

    let long: Vec<TranscriptLine> = consult().into_iter().map(|l| unknown(&l.sentence)).collect();
    let s = run(&request(Template::Dictation, Flavour::Normal, long));
    let summary = s.result.summarized_dictation.expect("a summary of a long dictation");
    let dictation = s.result.dictation.expect("the dictation");
    assert!(summary.len() < dictation.len());
    assert!(summary.contains("Dit past bij een virale keelontsteking."));
}

#[test]
fn meeting_minutes_list_discussion_and_actions() {
    let lines = vec![
        unknown("Goedemorgen allemaal."),
        unknown("De griepvaccinatie loopt dit jaar later dan gepland door een leveringsprobleem."),
        unknown("Het aantal telefonische consulten is flink gestegen."),
        unknown("Afgesproken dat Marieke de planning voor de griepprik maakt voor volgende week."),
        unknown("Jan zal contact opnemen met de apotheek over de levering."),
        unknown("Oké."),
    ];
    let s = run(&request(Template::Meeting, Flavour::Normal, lines));
    assert_eq!(
        s.result.meeting.as_deref(),
        Some(
            "Besproken:\n- De griepvaccinatie loopt dit jaar later dan gepland door een leveringsprobleem.\n- Het aantal telefonische consulten is flink gestegen.\n\nAfspraken/acties:\n- Afgesproken dat Marieke de planning voor de griepprik maakt voor volgende week.\n- Jan zal contact opnemen met de apotheek over de levering."
        )
    );
}

/// A typed team meeting with its speakers' labels: the minutes name who does what and when,
/// without the labels.
#[test]
fn meeting_minutes_find_the_agreements_of_a_typed_meeting() {
    let lines = vec![
        unknown("Huisarts: Goedemorgen, we bespreken vandaag mevrouw Jansen."),
        unknown("POH: Haar suikers zijn de laatste maanden te hoog, de HbA1c was 64."),
        unknown("Huisarts: We starten met metformine, twee keer per dag vijfhonderd milligram."),
        unknown("POH: Ik bel haar donderdag om het uit te leggen."),
        unknown("Assistente: Over drie maanden plan ik een controle met nuchter bloed."),
        unknown("Huisarts: Prima."),
    ];
    let s = run(&request(Template::Meeting, Flavour::Normal, lines));
    let minutes = s.result.meeting.expect("minutes");
    let (discussed, agreed) = minutes.split_once("Afspraken/acties:").expect("both lists");
    assert!(discussed.contains("HbA1c was 64"), "{minutes}");
    assert!(!agreed.contains("Geen afspraken vastgelegd"), "{minutes}");
    assert!(agreed.contains("metformine") && agreed.contains("starten"), "the medication start: {minutes}");
    assert!(agreed.contains("POH belt haar donderdag"), "the phone call, by whom: {minutes}");
    assert!(agreed.contains("plant de assistente een controle"), "the follow-up, by whom: {minutes}");
    for label in ["Huisarts:", "POH:", "Assistente:"] {
        assert!(!minutes.contains(label), "the label {label} stays: {minutes}");
    }
    assert_eq!(testset::style_violations(&minutes).speaker_labels, 0);
    assert_eq!(testset::style_violations(&minutes).first_person, 0, "{minutes}");
    assert_eq!(agreed.trim().lines().count(), 3, "three agreements: {minutes}");
}

/// The same meeting as it is often typed: the chair's opening after a greeting is no agreement,
/// and a "we" after the verb ("Dan starten we met …") is the record's voice like one before it.
#[test]
fn meeting_minutes_write_each_agreement_in_the_records_voice() {
    let lines = vec![
        unknown("Huisarts: Goedemiddag allemaal, we beginnen met mevrouw Jansen."),
        unknown("POH: Haar bloeddruk was vorige week 162/98, ondanks de amlodipine."),
        unknown("Huisarts: Dan starten we met hydrochloorthiazide erbij."),
        unknown("Assistente: Ik plan over vier weken een controle bij de POH."),
        unknown("POH: Ik bel haar donderdag om het uit te leggen."),
        unknown("Huisarts: Prima, dan de volgende."),
    ];
    let minutes = run(&request(Template::Meeting, Flavour::Normal, lines)).result.meeting.expect("minutes");
    let (discussed, agreed) = minutes.split_once("Afspraken/acties:").expect("both lists");
    assert!(discussed.contains("162/98"), "{minutes}");
    assert_eq!(agreed.trim().lines().count(), 3, "three agreements: {minutes}");
    assert!(agreed.contains("hydrochloorthiazide") && agreed.contains("POH belt haar donderdag"), "{minutes}");
    let style = testset::style_violations(&minutes);
    assert_eq!((style.first_person, style.speaker_labels), (0, 0), "{minutes}");
}

#[test]
fn an_empty_transcript_is_refused() {
    for transcript in [vec![], vec![p("  "), z("")]] {
        let r = request(Template::Soap, Flavour::Normal, transcript);
        let err = block_on(RulesSummariser::new().summarise(&r)).expect_err("no transcript");
        assert_eq!(err, SummariseError::Invalid("Er is geen transcript om samen te vatten.".into()));
    }
}

/// An hour of consult (about a thousand sentences, three problems): every sentence placed,
/// episodes within range, the same result twice.
#[test]
fn a_long_transcript_is_summarised_whole_and_deterministically() {
    let mut lines = Vec::new();
    let blocks = [consult(), two_problems()];
    while lines.len() < 1_000 {
        for b in &blocks {
            lines.extend(b.iter().cloned());
        }
    }
    let mut r = request(Template::Soap, Flavour::Normal, lines);
    r.episode_count = 3;
    let placements = classify(&r);
    assert_eq!(placements.len(), r.transcript.len());
    assert!(placements.iter().enumerate().all(|(i, p)| p.index == i && p.episode < 3));
    let first = run(&r);
    assert_eq!(first, run(&r));
    assert_eq!(first.result.episodes.len(), 3);
    assert!(first.result.episodes.iter().filter(|e| !e.plan.is_empty()).count() >= 2);
}

/// The first set (consults 01 to 33), written with the rules.
fn first_set() -> Vec<testset::TestConsult> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/soep-testset");
    testset::select(testset::load(&dir).expect("the test set"), "first").expect("the first set")
}

/// The whole test set (101 consults), two thirds of it written afterwards by others.
fn whole_set() -> Vec<testset::TestConsult> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/soep-testset");
    testset::load(&dir).expect("the test set")
}

/// The floors sit just under what was measured on the first set (33 consults, 12 held out; see
/// docs/benchmarks.md, "SOEP note quality"): a regression in the cue lists or the register fails
/// here. Placement measured: all 92.7%, holdout 88.1%, episodes 94.1%. Since the phase rule and
/// the judgement rule (2026-11-29) the first set's held-out episodes are 78.9 % (dev 100 %), the
/// whole set's 80.4 % (was 81.8 %); the floor follows, as the holdout is not tuned on.
#[test]
fn accuracy_on_the_test_set_stays_above_the_floor() {
    let consults = first_set();
    assert_eq!(consults.len(), 33, "{} consults", consults.len());
    assert!(consults.iter().all(|c| c.note.len() == usize::from(c.episode_count)), "every consult lists its expected facts");
    let ev = testset::evaluate(&consults).expect("an evaluation");
    assert!(3 * ev.holdout.consults >= consults.len(), "a third held out");
    assert!(ev.all.accuracy() >= 0.91, "placement accuracy {:.3}\n{}", ev.all.accuracy(), ev.markdown());
    assert!(ev.holdout.accuracy() >= 0.865, "holdout accuracy {:.3}\n{}", ev.holdout.accuracy(), ev.markdown());
    assert!(ev.all.episode_accuracy() >= 0.88, "episode accuracy {:.3}\n{}", ev.all.episode_accuracy(), ev.markdown());
}

/// Per field, the share of expected facts the note holds in the right field and episode; floors
/// just under the measured recall, on dev and on the held-out consults.
#[test]
fn the_notes_hold_their_facts_per_field() {
    let ev = testset::evaluate(&first_set()).expect("an evaluation");
    let table = ev.note_markdown();
    // S, O, E, P: measured dev 99.1 / 98.1 / 93.1 / 94.9 %, holdout 96.7 / 81.5 / 84.2 / 82.6 %
    // (O holdout 77.8 % since 2026-11-29: four facts in the other episode of a two-problem consult;
    // since the reason clause stays with the problem at hand, also 2026-11-29, S holdout 90.2 %
    // and O 81.5 %: three S facts to the other episode, one O fact back, all 133 consults'
    // holdout one fact up).
    let dev_floor = [0.97, 0.95, 0.90, 0.92];
    let holdout_floor = [0.88, 0.76, 0.80, 0.80];
    for f in 0..4 {
        let (d, h) = (ev.dev_note.fields[f].recall(), ev.holdout_note.fields[f].recall());
        assert!(d >= dev_floor[f], "{} dev recall {d:.3}\n{table}", testset::FIELDS[f]);
        assert!(h >= holdout_floor[f], "{} holdout recall {h:.3}\n{table}", testset::FIELDS[f]);
    }
    assert!(ev.all_note.overall().recall() >= 0.92, "{table}");
    // 13 since 2026-11-29, all on the held-out consults (6 before)
    assert!(ev.all_note.overall().wrong_episode <= 14, "{table}");
    assert!(ev.all_note.overall().wrong_field <= 20, "{table}");
}

/// No note of the test set copies a speaker label, a question, a filler; first person is rare
/// (measured: 11 words over 164 fields, all but one on the held-out consults).
#[test]
fn the_notes_keep_the_clinical_register() {
    let ev = testset::evaluate(&first_set()).expect("an evaluation");
    let style = ev.all_note.style;
    let misses: Vec<&String> = ev.note_misses.iter().flat_map(|(_, m)| m).filter(|m| m.contains("stijl")).collect();
    assert_eq!((style.speaker_labels, style.questions, style.fillers), (0, 0, 0), "{misses:#?}");
    assert!(style.first_person <= 14, "{} first-person words: {misses:#?}", style.first_person);
    assert!(ev.dev_note.style.first_person <= 2, "{misses:#?}");
}

/// The whole set, 868 of its 901 consults written by others after the rules: what the rules
/// generalise to. Floors just under the figures measured on 2026-12-02 (docs/benchmarks.md,
/// "SOEP note quality"), with the twenty-seventh batch (870 to 901): placement all 89.0 %, holdout
/// 88.2 %; facts dev 93.6 %, holdout 89.5 % (the check reading a fact in the patient's own words
/// as the note says it of the patient, and matching the note's episodes to the expected ones by
/// the facts they hold); first-person words 269, second-person words 172 (the new batch's notes
/// held 18 and 16 of them on its first run; a clinician's "ik" after a demonstrative now stays
/// where the sentence would break without it), one question mark, fillers 3, no speaker label. The
/// issue's target is 95 % of facts on held-out consults and none of these breaches: far off yet.
#[test]
fn the_whole_set_stays_above_its_floor() {
    let consults = whole_set();
    assert!(consults.len() >= 100, "{} consults", consults.len());
    assert!(consults.iter().all(|c| c.note.len() == usize::from(c.episode_count)), "every consult lists its expected facts");
    let ev = testset::evaluate(&consults).expect("an evaluation");
    let table = format!("{}\n{}", ev.markdown(), ev.note_markdown());
    assert!(3 * ev.holdout.consults >= consults.len(), "a third held out");
    assert!(ev.all.accuracy() >= 0.89, "placement {:.3}\n{table}", ev.all.accuracy());
    assert!(ev.holdout.accuracy() >= 0.88, "holdout placement {:.3}\n{table}", ev.holdout.accuracy());
    assert!(ev.dev_note.overall().recall() >= 0.93, "dev facts {:.3}\n{table}", ev.dev_note.overall().recall());
    assert!(ev.holdout_note.overall().recall() >= 0.89, "holdout facts {:.3}\n{table}", ev.holdout_note.overall().recall());
    let style = ev.all_note.style;
    assert!(style.first_person <= 269 && style.second_person <= 172, "{style:?}\n{table}");
    assert!(style.questions <= 1 && style.fillers <= 3 && style.speaker_labels == 0, "{style:?}\n{table}");
}

/// The split offer: each SOEP consult of the whole set asked as one episode. A consult written as
/// one problem must not be offered a split; one written as two or three should be, with its
/// number. Floors under what was measured (see docs/benchmarks.md, "SOEP note quality").
#[test]
fn one_episode_asked_offers_the_split_where_the_consult_holds_more_problems() {
    let mut table = String::new();
    // per split: (single-problem consults, offered a split), (multi-problem consults, right count)
    let mut counts = [[0usize; 4]; 2];
    for c in whole_set().iter().filter(|c| c.template == Template::Soap) {
        let mut request = c.request();
        request.episode_count = 1;
        let found = rules::problems_found(&request);
        let row = usize::from(c.split == "holdout");
        if c.episode_count == 1 {
            counts[row][0] += 1;
            counts[row][1] += usize::from(found.is_some());
        } else {
            counts[row][2] += 1;
            counts[row][3] += usize::from(found == Some(c.episode_count));
        }
        table.push_str(&format!("{} {} episodes {} found {found:?}\n", c.id, c.split, c.episode_count));
    }
    let [dev, holdout] = counts;
    assert!(dev[0] > 20 && dev[2] >= 5 && holdout[2] >= 5, "{counts:?}");
    // a split offered to a one-problem consult is a false alarm the clinician must dismiss
    assert!(dev[1] * 10 <= dev[0] && holdout[1] * 10 <= holdout[0], "false offers {counts:?}\n{table}");
    // measured: dev 7 of 11 and holdout 3 of 9 found with their number; false offers dev 3 of 44
    // and holdout 2 of 37. Problems in one body system (impetigo and head lice) are not told apart.
    // With the fifth batch (197 consults) and a problem needing an assessment of its own: dev 10
    // of 17 and holdout 3 of 14 found, false offers dev 4 of 86 and holdout 4 of 80. With the
    // seventh (261 consults) and a marked move the topics do not follow: dev 12 of 20 and holdout 5
    // of 17 found, false offers dev 7 of 115 and holdout 3 of 109. With the eighth (293): dev 12 of
    // 20 and holdout 5 of 19 found, false offers dev 10 of 131 and holdout 3 of 123. With the ninth
    // (325): dev 12 of 20 and holdout 5 of 21 found, false offers dev 12 of 147 and holdout 6 of 137.
    // With the tenth (357): dev 12 of 20 and holdout 6 of 23, false offers dev 13 of 163 and
    // holdout 6 of 151. With the eleventh to thirteenth (453): dev 12 of 20 and holdout 9 of 29,
    // false offers dev 15 of 211 and holdout 7 of 193. With the fourteenth to sixteenth (549): dev
    // 12 of 21 and holdout 9 of 35, false offers dev 20 of 258 and holdout 10 of 235. With the
    // seventeenth to twentieth (677): dev 29 of 46 and holdout 20 of 69, false offers dev 23 of
    // 297 and holdout 20 of 265. With the twenty-first (709): dev 32 of 54 and holdout 22 of 78,
    // false offers dev 26 of 305 and holdout 26 of 272 (the rules as they were before that batch:
    // dev 30 and holdout 23 found, false offers 25 and 23). With the twenty-second (741), first
    // run: dev 34 of 62 and holdout 25 of 87, false offers dev 26 of 313 and holdout 26 of 279;
    // with a problem raised in so many words ("Dan heb ik nog iets: …") telling problems the topics
    // do not: dev 39 and holdout 35 found, false offers unchanged. With the twenty-third (773): dev
    // 42 of 67 and holdout 38 of 96 found, false offers dev 30 of 324 and holdout 27 of 286. With
    // the twenty-fourth (805): dev 47 of 71 and holdout 45 of 102 found, false offers dev 33 of 336
    // and holdout 28 of 296.
    assert!(dev[3] * 100 >= dev[2] * 55 && holdout[3] * 100 >= holdout[2] * 20, "offers {counts:?}\n{table}");
}

/// Consults another tells that their names do not say so: the partner typed beside the patient
/// (374), a son telephoning about his father (388), a wife telephoning about her husband (441), a
/// mother typed beside her daughter (453) or son (509); a husband (456) or a wife (490) calling
/// for their partner, a mother calling about her newborn (464) or her son (470), a daughter on a
/// home visit (476), a mother for her son (500) or her toddler (502), a son calling about his
/// mother (510), a wife typed beside her husband (518), a friend calling about a cyclist (522), a
/// mother calling about her daughter (545), a father for his daughter (546), a wife calling about
/// her husband (551), a daughter on a home visit (577), a mother typing for her baby (599), a wife
/// (624) and a neighbour (640) calling; a son beside his mother of 86 (717), a mother typed beside
/// her son (720), a mother for her four-year-old (729) and a daughter calling about her mother
/// (740); a father beside his son who tells the accident and the night while the boy tells
/// his complaints (458), and a flatmate calling about a student (801).
const TOLD_BY_ANOTHER: &[&str] = &[
    "374-subfertiliteit-stel-getypt",
    "388-telefonisch-hoofdletsel-apixaban",
    "441-telefonisch-beroerte-woorden-mondhoek-112",
    "453-voetwrat-en-hooikoorts-tiener-getypt",
    "456-angio-oedeem-lisinopril-telefonisch",
    "458-hersenschudding-voetballer",
    "464-geelzucht-pasgeborene-telefonisch",
    "470-acute-pijn-zaadbal-jongen-telefonisch",
    "476-huisbezoek-doorligwond-stuit",
    "490-koorts-na-reis-ghana-telefonisch",
    "500-snurken-ademstops-jongen",
    "502-longontsteking-kleuter",
    "509-ingegroeide-teennagel-getypt",
    "510-telefonisch-verward-laag-natrium",
    "518-acute-urineretentie-getypt",
    "522-hitte-uitputting-fietser-telefonisch",
    "545-telefonisch-netelroos-pinda",
    "546-ontstoken-oorpiercing",
    "551-telefonisch-copd-longaanval",
    "577-visite-pneumonie-oudere-man",
    "599-twee-problemen-luieruitslag-en-spruw-getypt",
    "624-telefonisch-neusbloeding-apixaban",
    "640-telefonisch-oudere-vrouw-gevallen-buurvrouw",
    "654-oudere-man-met-longontsteking",
    "659-hartfalen-gewichtstoename-dikke-enkels",
    "664-hoofdpijn-na-school-acne",
    "669-krentenbaard-hoofdluis-klas",
    "677-vergeetachtig-slechthorend-zoon",
    "680-kleuter-obstipatie-bedplassen",
    "696-telefoon-waterpokken-zusje",
    "717-vallen-orthostatische-hypotensie-medicatie",
    "720-astma-hockey-hooikoorts-tiener",
    "729-conjunctivitis-verkoudheid-kleuter",
    "740-telefoon-dementie-onrust-decubitus",
    "754-obstipatie-oxycodon-incontinentie",
    "763-roodvonk-broer-keelpijn-zus",
    "771-polsfractuur-gips-osteoporose",
    "801-verdenking-meningitis-student-telefoon-huisgenoot",
    "814-maculadegeneratie-amsler",
    "819-hartgeruis-sportkeuring-jongen",
    "823-sleutelbeenbreuk-trampoline",
    "827-overgewicht-jongen",
    "828-nachtangsten-kleuter",
    "832-twijfel-bmr-vaccinatie",
    "833-bovenbuikpijn-alcohol-alvleesklier",
    "835-verslikken-na-herseninfarct",
    "878-kleine-jongen-groeicurve-botleeftijd",
];

/// A parent telling a child's history, or a daughter her father's: the note's S opens with
/// "Anamnese via …" on those consults of the whole set (named so: "kind", "baby", "moeder",
/// "vader" or "dochter"), and on no other. Measured 2026-11-29: dev 11 of 11 marked and 0 of 60
/// others; holdout 6 of 7 and 0 of 55 others; with the fourth batch (134 to 165), first run
/// unseen: dev 14 of 14 and 0 of 73, holdout 7 of 10 and 1 of 68; with the fifth (166 to 197) and
/// a partner's history told as such: dev 15 of 16 (the lowercase 172 not) and 0 of 87, holdout 12
/// of 16 and 0 of 78; with the seventh (230 to 261), the clinician holding the floor and a history
/// marked where the child's sentences are at least as many as the speaker's own: dev 20 of 21 and 0
/// of 114, holdout 19 of 22 and 2 of 104; with the eighth (262 to 293, and the consults named for a
/// girl, a toddler or a child's age): dev 24 of 26 and 0 of 125, holdout 21 of 25 and 2 of 117;
/// with the ninth (294 to 325, a relative typed beside the patient marked "Volgens echtgenote: …"
/// counting as marked): dev 27 of 29 and 0 of 138, holdout 23 of 28 and 2 of 130; with the tenth
/// (326 to 357, three teenagers telling their own history beside a parent): dev 31 of 36 and 0 of
/// 147, holdout 23 of 29 and 2 of 145; with the eleventh to thirteenth (358 to 453, and four
/// consults whose names do not say who tells: [`TOLD_BY_ANOTHER`]): dev 41 of 49 and 0 of 182,
/// holdout 32 of 39 and 3 of 183; with the fourteenth to sixteenth (454 to 549, and the partner
/// who calls: "ik bel voor mijn vrouw"): dev 59 of 68 and 0 of 210, holdout 37 of 45 and 3 of 225;
/// with the seventeenth to twentieth (550 to 677): dev 65 of 75 and 0 of 268, holdout 52 of 63 and
/// 3 of 271; with the twenty-first (678 to 709, a mother for her four-year-old and a mother
/// calling about her son added to [`TOLD_BY_ANOTHER`]): dev 67 of 77 and 0 of 282, holdout 54 of
/// 66 and 3 of 284; with the twenty-second (710 to 741, four more added): dev 71 of 81 and 0 of
/// 294, holdout 58 of 70 and 3 of 296; with the twenty-third (742 to 773, a daughter, a mother for
/// two children and a son added): dev 72 of 83 and 0 of 308, holdout 61 of 74 and 3 of 308; with
/// the twenty-fourth (774 to 805, a father beside his son and a flatmate added): dev 75 of 86 and 0
/// of 321, holdout 65 of 79 and 3 of 319; with the twenty-fifth (806 to 837, eight relatives for
/// or beside the patient named in the list): dev 79 of 92 and 0 of 331, holdout 69 of 86 and 3 of
/// 328; with the twenty-sixth (838 to 869, whose relatives' consults all say who tells in their
/// names): dev 82 of 96 and 0 of 343, holdout 71 of 90 and 3 of 340; with the twenty-seventh (870
/// to 901, a mother for her short son added): dev 84 of 99 and 0 of 356, holdout 72 of 94 and 3 of
/// 352.
#[test]
fn a_parents_history_is_marked_as_told_by_the_parent() {
    // per split: children's consults, marked; other consults, marked
    let mut counts = [[0usize; 4]; 2];
    for c in whole_set().iter().filter(|c| matches!(c.template, Template::Soap | Template::Report)) {
        let summary = run(&c.request());
        // or, where the patient speaks beside a relative typed as such, the relative's sentences
        // marked as theirs ("Volgens echtgenote: hij snurkt al jaren")
        let marked = summary.result.episodes.iter().any(|e| {
            e.subjective.starts_with("Anamnese via ")
                || e.subjective.split("Volgens ").skip(1).any(|rest| rest.split_whitespace().next().is_some_and(|w| w.ends_with(':')))
        });
        let row = usize::from(c.split == "holdout");
        // a parent for a child or a teenager, a daughter for her father: named so ("19-kind-oorpijn-
        // moeder", "122-adhd-controle-tiener-moeder", "108-oorsmeer-slechthorend-dochter",
        // "274-urineweginfectie-meisje-zes-jaar", "233-bedplassen-zevenjarige")
        // ("186-de-quervain-jonge-moeder" is the young mother's own history; "194-telefonisch-
        // echtgenote-…" a wife's, typed as such)
        let told_by_another = (c.id.split('-').any(|w| {
            matches!(w, "kind" | "baby" | "zuigeling" | "peuter" | "meisje" | "moeder" | "vader" | "dochter" | "echtgenote")
                || w.ends_with("jarige")
        }) && !c.id.contains("jonge-moeder"))
            || TOLD_BY_ANOTHER.contains(&c.id.as_str());
        if marked && c.id.contains("dochter") {
            // 131 never says "dochter": family is all the conversation tells
            let s = &summary.result.episodes[0].subjective;
            assert!(s.starts_with("Anamnese via dochter.") || s.starts_with("Anamnese via familie."), "{}: {s}", c.id);
        }
        let child = usize::from(!told_by_another) * 2;
        counts[row][child] += 1;
        counts[row][child + 1] += usize::from(marked);
    }
    let [dev, holdout] = counts;
    assert!(dev[0] >= 5 && holdout[0] >= 5, "{counts:?}");
    // a teenager telling her own history with a parent adding to it (named "tiener", "…jarige")
    // may go either way: the floor leaves room for those
    assert!(dev[1] * 100 >= dev[0] * 80 && dev[3] == 0, "dev {counts:?}");
    assert!(holdout[1] * 10 >= holdout[0] * 7 && holdout[3] <= 3, "holdout {counts:?}");

    let told = |lines: &[&str]| {
        let transcript = lines.iter().map(|s| TranscriptLine { sentence: (*s).to_owned(), speaker: None }).collect();
        let e = &run(&SummaryRequest { template: Template::Soap, episode_count: 1, transcript, ..Default::default() }).result.episodes[0];
        e.subjective.split(". ").next().unwrap_or_default().to_owned()
    };
    let child = ["Hij heeft sinds gisteren koorts.", "Gisteren heeft hij ook twee keer gespuugd.", "De keel is rood."];
    assert_eq!(told(&[&["Goedemorgen mevrouw, wat is er met Sem?"][..], &child[..]].concat()), "Anamnese via moeder");
    assert_eq!(told(&[&["Dag meneer, wat is er met Sem?"][..], &child[..]].concat()), "Anamnese via vader");
    assert_eq!(told(&child), "Anamnese via ouder");
    // a wife naming her husband's complaint as the call opens, a neighbour who calls
    let husband = [
        "Ja, met mevrouw Smit, mijn man bloedt al drie kwartier uit zijn neus en het stopt niet.",
        "Hij gebruikt apixaban, voor zijn hartritme.",
        "Hij is 81, hij zit op een stoel boven een bak, hij is wel wat bleek maar hij praat gewoon.",
    ];
    assert_eq!(told(&husband), "Anamnese via partner");
    let neighbour =
        ["Ik ben haar buurvrouw, ik vond haar net op de grond in de keuken.", "Ze kan niet opstaan.", "Ze heeft veel pijn in haar heup."];
    assert_eq!(told(&neighbour), "Anamnese via buurvrouw");
    // the child's father spoken of is not the one who speaks
    assert_eq!(told(&[&child[..], &["Haar vader heeft hooikoorts."][..]].concat()), "Anamnese via ouder");
    assert_eq!(told(&[&["Ik ben zijn vader."][..], &child[..]].concat()), "Anamnese via vader");
    // a daughter for her father
    let father = ["Ik bel over mijn vader.", "Hij is sinds gisteren verward.", "Hij heeft koorts, 38,7.", "Ik ben zijn dochter."];
    assert_eq!(told(&father), "Anamnese via dochter");
    // a grown-up child who speaks of the parent as "mam", never saying "dochter"
    let mother =
        ["Mam heeft net een uurtje geslapen.", "De pijn wordt erger, zegt ze.", "Ze heeft vannacht vier keer het drankje genomen."];
    assert_eq!(told(&mother), "Anamnese via familie");
    // a husband calling for his wife
    let wife =
        ["Goedemorgen, ik bel voor mijn vrouw, Anneke.", "Haar lippen zijn ineens opgezet.", "Ze zag het vanochtend bij het opstaan."];
    assert_eq!(told(&wife), "Anamnese via partner");
    assert_ne!(
        told(&["Ik heb sinds gisteren koorts.", "Ik heb ook twee keer gespuugd.", "Ze zeggen dat het griep is."]),
        "Anamnese via ouder"
    );
}

/// One episode asked of a two-problem consult: the note lists the first problem's sentences, then
/// the second's, in every field; and the split is offered.
#[test]
fn one_episode_of_two_problems_is_written_problem_by_problem() {
    let r = typed(
        "Ik heb sinds drie dagen keelpijn en het slikken doet pijn. Ik heb ook sinds een week pijn onder in mijn rug. \
         Het slikken gaat slecht en de keel voelt rauw. De keel is rood, er is geen beslag. \
         De rug is goed beweeglijk. Lasègue is negatief. De rugpijn zit vooral bij het bukken. \
         De keelpijn is een virale keelontsteking. Dit is aspecifieke lage rugpijn. \
         Neem paracetamol voor de keel. Voor de rug naproxen, en blijf in beweging.",
        1,
    );
    assert_eq!(rules::problems_found(&r), Some(2));
    let e = &run(&r).result.episodes;
    assert_eq!(e.len(), 1);
    let s = &e[0].subjective;
    let (throat, back) = (s.find("keel").expect("throat in S"), s.find("rug").expect("back in S"));
    assert!(throat < back, "{s}");
    assert!(s.rfind("keel").expect("throat") < back, "the throat's sentences first: {s}");
    let mut two = r.clone();
    two.episode_count = 2;
    assert_eq!(rules::problems_found(&two), None, "two episodes asked: nothing to offer");
}

/// An e-consult: the patient's question and complaint are the note's S; the salutation and the
/// signature are not in it.
#[test]
fn an_e_consult_keeps_the_question_and_drops_greeting_and_signature() {
    for text in [
        "Beste dokter,\nIk heb sinds vijf dagen weer last van mijn grote teen, hij is rood en dik.\nDit is de derde keer dit jaar.\nKunt u weer naproxen voorschrijven?\nMet vriendelijke groet,\nJan de Boer",
        "Beste dokter, ik heb sinds vijf dagen weer last van mijn grote teen, hij is rood en dik. Dit is de derde keer dit jaar. Kunt u weer naproxen voorschrijven? Met vriendelijke groet, Jan de Boer",
    ] {
        let e = &run(&typed(text, 1)).result.episodes[0];
        let note = format!("{} {} {} {}", e.subjective, e.objective, e.diagnosis, e.plan);
        assert!(e.subjective.contains("grote teen") && e.subjective.contains("derde keer"), "{e:?}");
        assert!(e.subjective.contains("Vraag: weer naproxen voorschrijven."), "the question: {e:?}");
        for gone in ["Beste", "groet", "Jan de Boer", "?"] {
            assert!(!note.contains(gone), "{gone} in {note}");
        }
    }
}

/// The fragment check sees each kind it lists, in the example that named it, and passes the
/// whole sentence the rewrite should have kept or made.
#[test]
fn the_fragment_check_sees_each_kind() {
    for (kind, example) in testset::FRAGMENT_KINDS {
        assert_eq!(testset::broken_fragments(example), vec![*kind], "{example}");
    }
    assert_eq!(testset::broken_fragments("Waarschijnlijk er een miskraam dreigt."), vec![testset::FRAGMENT_KINDS[5].0]);
    for whole in [
        "Er is sprake van depressieve klachten.",
        "Bij onderzoek is er zwelling.",
        "Bloeddruk 168/102, te hoog.",
        "Direct de praktijk bellen.",
        "Hij is alert en speelt.",
        "Er zijn geen klachten. Keel rood.",
        "Waarschijnlijk is de meniscus niet beschadigd.",
        "Waarschijnlijk een longontsteking, de saturatie is goed.",
        "Die 3, en gisteren heeft ze allemaal ingenomen.",
        "Er hoeft nu niets te gebeuren.",
        "Er rijdt steeds dezelfde auto achter patiënt.",
        "Er missen er misschien 2.",
        "Waarschijnlijk maken ze een MRI en kijken ze of een operatie nodig is.",
        "Dan over 3 maanden een afspraak maken om het dagboek door te nemen.",
        "Advies: hem nu meteen naar de spoedeisende hulp brengen.",
        "Dat kan hij niet doen zonder te willen.",
        "Vrouw en patiënt hebben 2 kinderen.",
        "Het advies is om over 6 maanden opnieuw een uitstrijkje te laten maken.",
        "Dat valt mee, was al bang dat het helemaal niet zou kunnen.",
        "Wat patiënt beschrijft past helemaal bij clusterhoofdpijn.",
        "Wat helpt, is rust.",
        "Kom over 6 weken terug, dan kijken of een foto nodig is.",
        "Waarschijnlijk een lymfoom maar dat moet nog verder onderzocht worden.",
        "Als het over 2 weken niet beter is, terugkomen en aan de fysiotherapeut denken.",
        "Als het slechter wordt, dan bellen en een afspraak maken.",
        "Krijgt tijdens het vrijen pijn op de borst, stop dan en bel 112.",
        "Over 6 weken kijken hoe het gaat, en is het dan niet beter, dan verwijzing naar de fysiotherapeut.",
        "Hij en zijn zusje slapen samen op een kamer.",
        "Nemen de hartkloppingen toe, dan meteen bellen.",
    ] {
        assert!(testset::broken_fragments(whole).is_empty(), "{whole}");
    }
}

/// No note of the whole set holds a fragment of the kinds the check knows (measured on
/// 2026-11-27: none; on 2026-11-29 over the 165 consults, with the sixth kind: none).
#[test]
fn the_whole_sets_notes_hold_no_broken_fragment() {
    let mut found = Vec::new();
    for c in whole_set() {
        for e in run(&c.request()).result.episodes {
            for text in [&e.subjective, &e.objective, &e.diagnosis, &e.plan] {
                found.extend(testset::broken_fragments(text).into_iter().map(|kind| format!("{} {}: {kind}: {text}", c.id, c.split)));
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

/// The style check itself: each breach is seen, a clean note passes.
#[test]
fn the_style_check_sees_each_breach() {
    let v = testset::style_violations("Patiënt: ik heb eh keelpijn. Hoest u ook? Nee, eigenlijk niet.");
    assert_eq!((v.speaker_labels, v.questions, v.fillers, v.first_person), (1, 1, 2, 1));
    let v = testset::style_violations("huisarts: we gaan nou mijn advies volgen");
    assert_eq!((v.speaker_labels, v.questions, v.fillers, v.first_person), (1, 0, 1, 2));
    assert_eq!(testset::style_violations("Sinds 3 dagen keelpijn. Geen koorts. Geen hoest.").total(), 0);
    assert_eq!(testset::style_violations("Gamma-GT 145 U/l, ALT 68 U/l.").total(), 0);
    // a relative's history marked as theirs is no speaker label
    assert_eq!(testset::style_violations("Volgens echtgenote: hij snurkt al jaren.").total(), 0);
    assert_eq!(testset::style_violations("Snurkt. Patiënt: hij stopt met ademen.").speaker_labels, 1);
    // a label opens the text or a sentence: a relative named before a colon mid-sentence is none
    assert_eq!(testset::style_violations("Iets anders dan de diabetes van moeder: het komt door hormonen.").speaker_labels, 0);
    assert_eq!(testset::style_violations("Hoest al een week. Moeder: hij slaapt slecht.").speaker_labels, 1);
    assert_eq!(testset::style_violations("Komt u terug als het erger wordt.").second_person, 1);
    // "hoor" opening a sentence before its subject is the verb; set off, it is the filler
    assert_eq!(testset::style_violations("Buik soepel. Hoor je dat, Thijs?").fillers, 0);
    assert_eq!(testset::style_violations("Nee hoor, u hoeft niet te komen.").fillers, 1);
    assert_eq!(testset::style_violations("").fields, 0);
}

/// A typed consult as the page sends it: the text split into sentences, no speakers known.
fn typed(text: &str, episodes: u8) -> SummaryRequest {
    let transcript = sentences::split(text).into_iter().map(|sentence| TranscriptLine { sentence, speaker: None }).collect();
    SummaryRequest { template: Template::Soap, flavour: Flavour::Normal, episode_count: episodes, transcript, ..Default::default() }
}

/// The two-problem consult, typed with speaker labels: telegram S without labels or
/// questions, E from the GP's words, the back pain's plan under the back pain.
#[test]
fn a_typed_two_problem_consult_reads_like_a_gps_note() {
    let r = typed(
        "Huisarts: Goedemorgen, wat kan ik voor u doen? Patiënt: Nou, ik heb sinds drie dagen keelpijn. \
         Huisarts: Heeft u koorts? Patiënt: Nee. Huisarts: Hoest u ook? Patiënt: Nee, eigenlijk niet. \
         Patiënt: En dan heb ik ook nog last van mijn onderrug, sinds ik een kast heb getild. \
         Huisarts: Ik kijk even in uw keel. De keel is rood, geen beslag. \
         De keelpijn is een virale keelontsteking. U kunt paracetamol nemen, tot vier keer per dag 1000 mg. \
         Huisarts: En dan uw rug. De onderrug is pijnlijk bij bukken, Lasègue is negatief. \
         Dat is aspecifieke lage rugpijn. Ik schrijf u naproxen voor, twee keer per dag 500 mg. \
         Blijf in beweging en als het over twee weken niet beter is, kunt u naar de fysiotherapeut. \
         Patiënt: Dank u wel.",
        2,
    );
    let s = run(&r);
    let [throat, back] = &s.result.episodes[..] else { panic!("two episodes: {:?}", s.result.episodes) };
    assert_eq!(throat.subjective, "Sinds 3 dagen keelpijn. Geen koorts. Geen hoest.");
    assert_eq!(throat.objective, "De keel is rood, geen beslag.");
    assert_eq!(throat.diagnosis, "Virale keelontsteking.");
    assert_eq!(throat.plan, "Paracetamol nemen, tot 4 keer per dag 1000 mg.");
    assert_eq!(back.subjective, "Last van onderrug, sinds patiënt een kast heeft getild.");
    assert_eq!(back.objective, "De onderrug is pijnlijk bij bukken, Lasègue is negatief.");
    assert_eq!(back.diagnosis, "Aspecifieke lage rugpijn.");
    assert_eq!(
        back.plan,
        "Naproxen, 2 keer per dag 500 mg. Blijf in beweging en als het over 2 weken niet beter is, naar de fysiotherapeut."
    );
    for e in &s.result.episodes {
        for field in [&e.subjective, &e.objective, &e.diagnosis, &e.plan] {
            assert_eq!(testset::style_violations(field).total(), 0, "{field}");
        }
    }
}

/// The other consult: today's blood pressure is O (never S), "Rust een week" stays in
/// the plan, and a complaint told after the plan is S, not P.
#[test]
fn a_measured_blood_pressure_is_o_and_rest_is_the_plan() {
    let r = typed(
        "Huisarts: Goedemiddag, gaat u zitten. Patiënt: Ik heb al een week hoofdpijn. \
         Het is erg druk op mijn werk. Huisarts: Slaapt u goed? Patiënt: Nee. \
         Huisarts: Ik ga even uw bloeddruk meten. Uw bloeddruk is 152 over 94. \
         Ik denk dat dit spanningshoofdpijn is door de drukte. Rust een week. \
         Neemt u contact op met de bedrijfsarts. Patiënt: Ik heb ook nog steeds last van mijn nek. \
         Huisarts: Goed, bedankt.",
        1,
    );
    let e = &run(&r).result.episodes[0];
    assert_eq!(e.subjective, "Een week hoofdpijn. Het is erg druk op werk. Slaapt niet goed. Steeds last van nek.");
    assert_eq!(e.objective, "Bloeddruk is 152/94.");
    assert_eq!(e.diagnosis, "Spanningshoofdpijn door de drukte.");
    assert_eq!(e.plan, "Rust een week. Contact opnemen met de bedrijfsarts.");
}

/// A typed consult without labels: the speakers are guessed, and every field is filled in the
/// clinical register.
#[test]
fn a_typed_consult_without_labels_fills_every_field() {
    let r = typed(
        "Goedemorgen, wat kan ik voor u doen? Ik heb al drie dagen keelpijn en ik slik moeilijk. \
         Heeft u koorts gehad? Nee, geen koorts. Ik kijk even in uw keel. De keel is rood, de amandelen zijn niet gezwollen. \
         Temperatuur 37,2. Het is waarschijnlijk een virale keelontsteking. U mag paracetamol nemen, drie keer per dag 1000 mg. \
         Als het na een week niet beter is, komt u terug.",
        1,
    );
    let e = &run(&r).result.episodes[0];
    assert_eq!(e.subjective, "3 dagen keelpijn en slikt moeilijk. Geen koorts.");
    assert_eq!(e.objective, "De keel is rood, de amandelen zijn niet gezwollen. Temperatuur 37,2.");
    assert_eq!(e.diagnosis, "Waarschijnlijk een virale keelontsteking.");
    assert_eq!(e.plan, "Paracetamol nemen, 3 keer per dag 1000 mg. Als het na een week niet beter is, terugkomen.");
}

/// Every measurement of the transcript (a value with its unit, a blood pressure, a named score,
/// in digits or in words) that the annotation puts in the note is in the note, in exactly one
/// field (at least once for a one-digit value or one the transcript says again elsewhere). A
/// value the speaker corrected ("94, nee, 96 kilo") counts as corrected: the 96. Measured
/// 2026-11-27 over the whole set, again on 2026-11-29 over the 133 consults, and over the 165
/// with numbers in words (342 values), over the 453 (814 values), over the 549 (948 values) and
/// over the 677 (1,198 values), the 709 (1,275 values), the 741 (1,346 values) and the 773 (1,416
/// values): none dropped, none doubled.
#[test]
fn measurements_reach_the_note() {
    let (mut total, mut dropped, mut doubled) = (0, Vec::new(), Vec::new());
    for consult in whole_set() {
        let note = run(&consult.request()).result.episodes;
        for (i, line) in consult.lines.iter().enumerate().filter(|(_, l)| l.expected != "-") {
            for value in testset::measured_values(&line.sentence) {
                total += 1;
                match testset::fields_holding(&value, &note) {
                    0 => dropped.push(format!("{}: {value} ({})", consult.id, line.sentence)),
                    1 => {}
                    // a one-digit value ("de angstscore 3") cannot be told apart from the other
                    // counts of the note ("3 weken"), nor a value the transcript says again in
                    // another sentence ("veertig kilometer per week", "40 procent"): it must be
                    // there, once or more
                    _ if value.len() == 1 || testset::said_elsewhere(&consult, i, &value) => {}
                    _ => doubled.push(format!("{}: {value}", consult.id)),
                }
            }
        }
    }
    println!("{total} measurements, {} dropped, {} in more than one field: {doubled:?}", dropped.len(), doubled.len());
    assert!(total >= 150, "{total} measurements");
    assert!(dropped.is_empty(), "{} of {total} dropped: {dropped:#?}", dropped.len());
    assert!(doubled.is_empty(), "{doubled:#?}");
}
