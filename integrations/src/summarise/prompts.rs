//! The Dutch chat messages that ask a language model for a note: a system prompt per template and
//! flavour, the clinician's own SOEP examples as few-shot pairs, and the transcript.
//!
//! The SOEP prompts follow the NHG conventions for the GP record: one SOEP per problem (episode);
//! S is what the patient tells, O only what was examined or measured (never made up, empty when
//! nothing was examined), E the assessment or working diagnosis, P the agreed plan.
//!
//! Speaker labels: for the templates about a conversation (soap, report, specialist) the
//! transcript is written one turn per line, `Zorgverlener: …` / `Patiënt: …`, whenever the speech
//! engine told who spoke; it is what lets the model keep the patient's story (S) apart from the
//! clinician's findings (O). The sentences of a turn are joined with '. ' as
//! [`SummaryRequest::transcript_text`] does, and a sentence without a speaker is written without
//! a label. When no sentence has a speaker the transcript is exactly `transcript_text()`.
//! Dictations, radiology dictations and meetings are always given as `transcript_text()`: one
//! person dictates, or the speakers are not a clinician and a patient.
//!
//! Few-shot: the clinician's examples are SOEP notes, so they shape soap and report notes only;
//! each becomes a user message and an assistant answer in the exact JSON of the template, its
//! properties in the schema's order (at most [`MAX_EXAMPLES`], trimmed to [`EXAMPLE_BUDGET`]
//! characters in all). [`messages_with`] keeps only the first few of them, for a request that
//! would not fit the model's context otherwise (see [`super::budget`]).

use serde::Serialize;

use super::schema::{EpisodeAnswer, ReportAnswer, SoapAnswer};
use super::{Flavour, Precision, SoapExample, SummaryRequest, Template, join_sentences, specialist_sections};
use crate::speech::Speaker;

pub use domain::summary::MAX_EXAMPLES;

/// The examples' texts together stay within this many characters.
pub const EXAMPLE_BUDGET: usize = 6_000;

/// The author of a chat message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
}

/// One chat message, as the chat-completions API takes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Message {
    pub role: Role,
    pub content: String,
}

impl Message {
    fn new(role: Role, content: impl Into<String>) -> Self {
        Self { role, content: content.into() }
    }
}

/// The messages that ask for the note of `request`: the system prompt, the few-shot pairs, and the
/// transcript. With `include_schema` the answer's JSON schema is written out in the system prompt,
/// for servers that only promise "some JSON object".
pub fn messages(request: &SummaryRequest, include_schema: bool) -> Vec<Message> {
    messages_with(request, include_schema, MAX_EXAMPLES)
}

/// [`messages`] with at most `examples` few-shot pairs: the first of [`example_count`], so the
/// last ones are the first to go. Each keeps the length it has with all of them, so every pair
/// dropped makes the request shorter.
pub fn messages_with(request: &SummaryRequest, include_schema: bool, examples: usize) -> Vec<Message> {
    let examples = few_shot(request, examples);
    let mut out = vec![Message::new(Role::System, system_prompt(request, !examples.is_empty(), include_schema))];
    out.extend(examples);
    out.push(Message::new(Role::User, user_prompt(request)));
    out
}

/// The follow-up after an answer that was not usable: asks for only the valid JSON.
pub fn retry_message(truncated: bool) -> Message {
    let mut text = String::from(
        "Je vorige antwoord was geen geldig JSON-object in het gevraagde formaat. Antwoord nu \
         uitsluitend met het volledige, geldige JSON-object, zonder uitleg, codeblok of andere tekst \
         eromheen.",
    );
    if truncated {
        text.push_str(" Het antwoord werd afgebroken omdat het te lang was: schrijf beknopter.");
    }
    Message::new(Role::User, text)
}

/// The system prompt of a request.
pub fn system_prompt(request: &SummaryRequest, with_examples: bool, include_schema: bool) -> String {
    let mut parts: Vec<String> = Vec::new();
    parts.push(role_and_task(request.template, request.flavour));
    parts.push(template_rules(request));
    parts.push(general_rules(request.template).to_owned());
    if request.precision == Precision::High {
        parts.push(
            "Werk extra nauwkeurig: neem alle klinisch relevante details op die in het transcript staan, \
             ook kleine, zoals duur, ernst, doseringen en getallen."
                .to_owned(),
        );
    }
    if with_examples {
        parts.push(
            "De zorgverlener heeft eigen voorbeeldverslagen gegeven; ze volgen hieronder als eerdere \
             berichten. Volg hun stijl: lengte, telegramstijl, opsommingen en nummering, afkortingen en \
             hoofdlettergebruik. Neem geen inhoud uit de voorbeelden over: die gaan over andere \
             patiënten."
                .to_owned(),
        );
    }
    if let Some(suggestion) = request.user_suggestion.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        parts.push(format!("Extra aanwijzing van de zorgverlener voor dit verslag (volg die, zolang je niets verzint):\n{suggestion}"));
    }
    parts.push(answer_format(request.template, request.flavour));
    if include_schema {
        let schema = super::schema::answer_schema(request.template, request.flavour);
        let schema = serde_json::to_string(&schema).unwrap_or_default();
        parts.push(format!("Het JSON-schema van het antwoord:\n{schema}"));
    }
    parts.join("\n\n")
}

fn role_and_task(template: Template, flavour: Flavour) -> String {
    let context = match flavour {
        Flavour::KinderartsAllergoloog => {
            " Het consult is bij een kinderarts-allergoloog: de patiënt is een kind en vaak vertelt een \
             ouder het verhaal."
        }
        Flavour::KinderartsOrthopeed => {
            " Het consult is bij een kinderarts-orthopeed: de patiënt is een kind en vaak vertelt een \
             ouder het verhaal."
        }
        Flavour::Normal | Flavour::PohGgz => "",
    };
    let task = match (template, flavour) {
        (Template::Soap, Flavour::PohGgz) => {
            "Je schrijft een SOEP-verslag van een gesprek van de POH-GGZ (praktijkondersteuner huisarts \
             voor de geestelijke gezondheidszorg) met een cliënt, voor het huisartsendossier, volgens de \
             NHG-richtlijn voor adequate dossiervorming."
        }
        (Template::Soap, _) => {
            "Je schrijft een SOEP-verslag van een consult voor het huisartsendossier, volgens de \
             NHG-richtlijn voor adequate dossiervorming."
        }
        (Template::Report, Flavour::PohGgz) => {
            "Je schrijft een consultverslag (S, O en P) van een gesprek van de POH-GGZ (praktijkondersteuner \
             huisarts voor de geestelijke gezondheidszorg) met een cliënt."
        }
        (Template::Report, _) => "Je schrijft een consultverslag met de onderdelen S, O en P.",
        (Template::Dictation, _) => {
            "Je maakt een gedicteerde tekst van een zorgverlener schoon. De tekst is automatisch uit \
             spraak omgezet en heeft daardoor weinig of geen leestekens."
        }
        (Template::Radiology, _) => {
            "Je maakt een gedicteerd radiologieverslag schoon. De tekst is automatisch uit spraak omgezet \
             en heeft daardoor weinig of geen leestekens."
        }
        (Template::Specialist, Flavour::KinderartsAllergoloog) => {
            "Je schrijft de brief van een kinderarts-allergoloog aan de verwijzer, in vaste onderdelen, op \
             basis van het consult."
        }
        (Template::Specialist, Flavour::KinderartsOrthopeed) => {
            "Je schrijft de brief van een kinderarts-orthopeed aan de verwijzer, in vaste onderdelen, op \
             basis van het consult."
        }
        (Template::Specialist, _) => {
            "Je schrijft de brief van een medisch specialist aan de verwijzer, in vaste onderdelen, op \
             basis van het consult."
        }
        (Template::Meeting, _) => {
            "Je schrijft de notulen van een overleg in een zorgpraktijk (bijvoorbeeld een praktijkoverleg \
             of multidisciplinair overleg)."
        }
    };
    let context = if matches!(template, Template::Soap | Template::Report | Template::Specialist) { context } else { "" };
    format!("Je helpt zorgverleners met hun verslaglegging, in het Nederlands. {task}{context}")
}

fn episode_guidance(count: u8) -> String {
    match count.max(1) {
        1 => "De zorgverlener verwacht één episode (één probleem). Dat is een richtlijn: komen er \
              duidelijk meer aparte problemen aan bod, maak dan per probleem een episode."
            .to_owned(),
        n => format!(
            "De zorgverlener verwacht {n} episodes (problemen). Dat is een richtlijn: volg wat er in het \
             consult echt aan bod komt, voeg geen problemen samen die apart horen en splits er geen op."
        ),
    }
}

fn template_rules(request: &SummaryRequest) -> String {
    match (request.template, request.flavour) {
        (Template::Soap, Flavour::PohGgz) => format!(
            "Regels:\n\
             - Maak één SOEP per probleem (episode).\n\
             - S (subjectief): wat de cliënt vertelt: klachten en hulpvraag, stemming, slaap, energie, \
             dagelijks functioneren (werk, school, relaties, dagbesteding), belangrijke gebeurtenissen, \
             middelengebruik, en suïcidale gedachten alleen als die besproken zijn.\n\
             - O (objectief): alleen wat is waargenomen of gemeten: de presentatie van de cliënt \
             (verschijning, contact, psychomotoriek, stemming en affect, spraak, denken) en scores van \
             vragenlijsten (zoals 4DKL, PHQ-9 of GAD-7) als die genoemd zijn. Verzin nooit \
             bevindingen of scores; is er niets waargenomen of gemeten, laat O dan leeg.\n\
             - E (evaluatie): de beoordeling of werkhypothese van de POH-GGZ.\n\
             - P (plan): het afgesproken plan: interventies, opdrachten voor thuis, overleg met de huisarts \
             of verwijzing, en de vervolgafspraken (wanneer en met wie).\n\
             - {}\n\
             {}",
            episode_guidance(request.episode_count),
            NOTE_REGISTER
        ),
        (Template::Soap, _) => format!(
            "Regels:\n\
             - Maak één SOEP per probleem (episode).\n\
             - S (subjectief): wat de patiënt vertelt: klacht en hulpvraag, beloop, relevante voorgeschiedenis, \
             medicatie en wat de patiënt zelf al heeft geprobeerd.\n\
             - O (objectief): alleen wat in het consult is onderzocht of gemeten: lichamelijk onderzoek, \
             metingen en uitslagen. Verzin nooit bevindingen; is er niets onderzocht of gemeten, laat O \
             dan leeg.\n\
             - E (evaluatie): de beoordeling of werkdiagnose van de zorgverlener.\n\
             - P (plan): het afgesproken beleid: uitleg en adviezen, medicatie met dosering, aanvullend \
             onderzoek, verwijzing en controle-afspraken.\n\
             - {}\n\
             {}",
            episode_guidance(request.episode_count),
            NOTE_REGISTER
        ),
        (Template::Report, flavour) => {
            let subject = if flavour == Flavour::PohGgz {
                "wat de cliënt vertelt, ook over stemming, slaap en dagelijks functioneren"
            } else {
                "wat de patiënt vertelt: klacht en hulpvraag, beloop en relevante voorgeschiedenis"
            };
            format!(
                "Regels:\n\
                 - S (subjectief): {subject}.\n\
                 - O (objectief): alleen wat in het consult is onderzocht, gemeten of waargenomen. Verzin \
                 nooit bevindingen; is er niets onderzocht, laat O dan leeg.\n\
                 - P (plan): de conclusie of werkdiagnose als de zorgverlener die uitspreekt, en het \
                 afgesproken beleid met vervolgafspraken.\n\
                 - Alle problemen van het consult komen samen in dit ene verslag."
            )
        }
        (Template::Dictation, _) => "Regels:\n\
             - dictation: de gedicteerde tekst, schoongemaakt: leestekens en hoofdletters, zinnen en alinea's. \
             Voer gedicteerde opmaakopdrachten uit (zoals 'punt', 'komma', 'nieuwe regel', 'nieuwe alinea') \
             in plaats van ze als woorden over te nemen.\n\
             - Verander niets aan de inhoud: voeg niets toe, laat niets weg en herformuleer niet. Verbeter \
             alleen duidelijke spraakherkenningsfouten in woorden, als de bedoeling ondubbelzinnig is.\n\
             - summarizedDictation: een korte samenvatting van de inhoud in een tot drie zinnen."
            .to_owned(),
        (Template::Radiology, _) => "Regels:\n\
             - dictation: het gedicteerde verslag, schoongemaakt: leestekens en hoofdletters, zinnen en \
             alinea's. Behoud de gedicteerde indeling (zoals klinische gegevens, vraagstelling, bevindingen, \
             conclusie) en voer gedicteerde opmaakopdrachten uit (zoals 'punt', 'nieuwe regel').\n\
             - Verander niets aan de inhoud: voeg geen bevindingen toe, laat niets weg en herformuleer niet. \
             Verbeter alleen duidelijke spraakherkenningsfouten in (anatomische en radiologische) termen, als de \
             bedoeling ondubbelzinnig is.\n\
             - summarizedDictation: de conclusie van het verslag, zoals die gedicteerd is. Bedenk geen eigen \
             conclusie; is er geen conclusie gedicteerd, laat dit veld dan leeg."
            .to_owned(),
        (Template::Meeting, _) => "Regels:\n\
             - meeting: de notulen als platte tekst met drie kopjes, elk op een eigen regel: 'Besproken \
             punten:', 'Besluiten:' en 'Acties:'. Zet onder elk kopje de punten als opsomming met '- '.\n\
             - Besproken punten: per onderwerp kort wat er is besproken.\n\
             - Besluiten: alleen wat echt is besloten; is er niets besloten, schrijf dan '- Geen'.\n\
             - Acties: elke actie met eigenaar en, als die genoemd is, termijn ('- Actie (eigenaar, termijn)'). \
             Is er geen eigenaar genoemd, schrijf dan 'eigenaar onbekend'.\n\
             - Noem mensen zoals ze in het overleg genoemd worden; verzin geen namen."
            .to_owned(),
        (Template::Specialist, flavour) => {
            let mut rules = String::from("Onderdelen van de brief, in deze volgorde:\n");
            for section in specialist_sections(flavour) {
                rules.push_str(&format!("- {section}: {}\n", section_guidance(section)));
            }
            rules.push_str("Laat een onderdeel leeg als het consult er niets over zegt.");
            rules
        }
    }
}

/// How a SOEP note reads in the record, the same rules the embedded summariser keeps and its test
/// set checks: telegram style in the clinical register, findings instead of questions, O only
/// what was examined today, E in the clinician's words, P and every fact per episode.
const NOTE_REGISTER: &str = "Schrijfwijze van het verslag:\n\
     - Telegramstijl in medische verslagtaal, in de derde persoon: geen sprekerlabels ('Patiënt:', \
     'Huisarts:'), geen vragen, geen stopwoorden ('eh', 'nou', 'eigenlijk', 'hoor'). Een vraag met \
     antwoord wordt een bevinding ('Heeft u koorts? Nee' wordt 'Geen koorts'; 'Hoest u ook? Nee, \
     eigenlijk niet.' wordt 'Geen hoest.'); de ik-vorm van de patiënt wordt herschreven ('Ik heb \
     sinds drie dagen keelpijn' wordt 'Sinds 3 dagen keelpijn').\n\
     - O bevat alleen wat vandaag in dit consult is onderzocht of gemeten: een vandaag gemeten \
     bloeddruk staat in O, nooit in S; wat de patiënt thuis heeft gemeten staat in S.\n\
     - E is de beoordeling zoals de zorgverlener die uitspreekt ('de keelpijn is een virale \
     keelontsteking' wordt 'Virale keelontsteking'); zegt de zorgverlener geen beoordeling, laat E \
     dan leeg.\n\
     - P is per episode het beleid voor dat probleem; een klacht staat nooit in P, en korte adviezen \
     als 'Rust een week' horen er wel in.\n\
     - Elk gegeven staat in de episode van het probleem waar het over gaat (de naproxen en de \
     fysiotherapeut voor de rugpijn staan onder de rugpijn, niet onder de keelpijn).";

fn section_guidance(section: &str) -> &'static str {
    match section {
        "Reden van verwijzing" => "waarom de patiënt komt en, als dat genoemd is, door wie verwezen.",
        "Anamnese" => "wat de patiënt (of de ouder) vertelt over de klachten, het beloop en de voorgeschiedenis.",
        "Allergologische anamnese" => {
            "reacties op voedsel, inhalatieallergenen, medicatie of insecten: wat, hoeveel, tijd tot de \
             reactie, verschijnselen en behandeling; eczeem, astma en rinitis; eerdere allergietests; atopie \
             in de familie. Alleen wat besproken is."
        }
        "Lichamelijk onderzoek" => {
            "alleen wat tijdens het consult is onderzocht of gemeten. Verzin nooit bevindingen; is er niets \
             onderzocht, laat het leeg."
        }
        "Aanvullend onderzoek" => {
            "uitslagen van onderzoek zoals huidpriktest, specifiek IgE of provocatietest, alleen als ze genoemd \
             zijn."
        }
        "Beeldvorming" => "röntgenfoto, echo of MRI met hun bevindingen, alleen als ze besproken zijn.",
        "Conclusie" => "de beoordeling of (werk)diagnose van de specialist.",
        "Beleid" => "het afgesproken beleid: behandeling, adviezen, aanvullend onderzoek en controle-afspraken.",
        _ => "wat het consult hierover zegt.",
    }
}

fn general_rules(template: Template) -> &'static str {
    match template {
        Template::Dictation | Template::Radiology => {
            "Verzin nooit feiten die niet in de gedicteerde tekst staan. De tekst kan spraakherkenningsfouten \
             bevatten."
        }
        Template::Meeting => {
            "Schrijf beknopt en zakelijk in het Nederlands. Verzin nooit feiten, besluiten of acties die niet \
             in het transcript staan. Het transcript is automatisch uit spraak herkend en kan \
             herkenningsfouten bevatten."
        }
        Template::Soap | Template::Report | Template::Specialist => {
            "Schrijf beknopt in Nederlandse medische verslagstijl (telegramstijl; gangbare medische afkortingen \
             mogen). Verzin nooit feiten die niet in het transcript staan: geen klachten, bevindingen, \
             diagnoses, doseringen of afspraken die niet besproken zijn; laat een onderdeel liever leeg. Het \
             transcript is automatisch uit spraak herkend en kan herkenningsfouten bevatten. Staat er \
             'Zorgverlener:' of 'Patiënt:' voor een regel, dan is bekend wie er spreekt; de 'patiënt' kan \
             ook een ouder of begeleider zijn."
        }
    }
}

fn answer_format(template: Template, flavour: Flavour) -> String {
    let shape = match template {
        Template::Soap => "{\"episodes\": [{\"subjective\": \"…\", \"objective\": \"…\", \"diagnosis\": \"…\", \
                           \"plan\": \"…\"}]}, één object per episode; subjective is S, objective is O, \
                           diagnosis is E en plan is P."
            .to_owned(),
        Template::Report => "{\"subjective\": \"…\", \"objective\": \"…\", \"plan\": \"…\"}; subjective is S, \
                             objective is O en plan is P."
            .to_owned(),
        Template::Dictation | Template::Radiology => "{\"dictation\": \"…\", \"summarizedDictation\": \"…\"}.".to_owned(),
        Template::Meeting => "{\"meeting\": \"…\"}.".to_owned(),
        Template::Specialist => {
            let keys: Vec<String> = specialist_sections(flavour).iter().map(|s| format!("\"{s}\": \"…\"")).collect();
            format!("{{{}}}, met precies deze onderdelen als namen.", keys.join(", "))
        }
    };
    format!(
        "Antwoord uitsluitend met één JSON-object, zonder uitleg, codeblok of andere tekst eromheen, in dit \
         formaat: {shape} Alle waarden zijn tekst; een lege tekst (\"\") als er niets over bekend is."
    )
}

fn user_prompt(request: &SummaryRequest) -> String {
    let heading = match request.template {
        Template::Dictation => "De gedicteerde tekst:",
        Template::Radiology => "Het gedicteerde radiologieverslag:",
        Template::Meeting => "Het transcript van het overleg:",
        Template::Soap | Template::Report | Template::Specialist => "Het transcript van het consult:",
    };
    format!("{heading}\n\n{}", transcript(request))
}

/// The transcript as the model reads it: with speaker labels for the conversation templates when
/// any sentence has a speaker, otherwise [`SummaryRequest::transcript_text`].
pub fn transcript(request: &SummaryRequest) -> String {
    let labelled = matches!(request.template, Template::Soap | Template::Report | Template::Specialist)
        && request.transcript.iter().any(|l| l.speaker.is_some());
    if !labelled {
        return request.transcript_text();
    }
    let mut turns: Vec<(Option<Speaker>, Vec<&str>)> = Vec::new();
    for line in request.transcript.iter().filter(|l| !l.sentence.trim().is_empty()) {
        match turns.last_mut() {
            Some((speaker, sentences)) if *speaker == line.speaker => sentences.push(&line.sentence),
            _ => turns.push((line.speaker, vec![&line.sentence])),
        }
    }
    let lines: Vec<String> = turns
        .into_iter()
        .map(|(speaker, sentences)| {
            let text = join_sentences(sentences);
            match speaker {
                Some(Speaker::Zorgverlener) => format!("Zorgverlener: {text}"),
                Some(Speaker::Patient) => format!("Patiënt: {text}"),
                None => text,
            }
        })
        .collect();
    lines.join("\n")
}

/// The examples of a request that become few-shot pairs: soap and report notes only, the
/// non-empty ones, at most [`MAX_EXAMPLES`].
fn chosen_examples(request: &SummaryRequest) -> Vec<&SoapExample> {
    if !matches!(request.template, Template::Soap | Template::Report) {
        return Vec::new();
    }
    request
        .examples
        .iter()
        .filter(|e| [&e.subjective, &e.objective, &e.evaluation, &e.plan].iter().any(|t| !t.trim().is_empty()))
        .take(MAX_EXAMPLES)
        .collect()
}

/// How many few-shot pairs the request's examples make when none is dropped.
pub fn example_count(request: &SummaryRequest) -> usize {
    chosen_examples(request).len()
}

/// The few-shot pairs of a request: one user message and one assistant answer per example, the
/// first `keep` of them, each trimmed to its share of [`EXAMPLE_BUDGET`] among all of them.
fn few_shot(request: &SummaryRequest, keep: usize) -> Vec<Message> {
    let chosen = chosen_examples(request);
    let per_example = EXAMPLE_BUDGET / chosen.len().max(1);
    let total = chosen.len().min(keep);
    let mut out = Vec::with_capacity(total * 2);
    for (i, example) in chosen.into_iter().take(total).enumerate() {
        let example = trim_example(example, per_example);
        let ask = match request.template {
            Template::Report => "consultverslag",
            _ => "SOEP-verslag",
        };
        out.push(Message::new(
            Role::User,
            format!(
                "Voorbeeld {} van {total}: zo schrijft deze zorgverlener een {ask}. Geef het in het \
                 JSON-formaat van het antwoord.",
                i + 1
            ),
        ));
        out.push(Message::new(Role::Assistant, example_answer(request.template, &example)));
    }
    out
}

/// An example in the exact JSON answer of the template, its properties in the schema's order.
fn example_answer(template: Template, example: &SoapExample) -> String {
    let written = match template {
        Template::Report => serde_json::to_string(&ReportAnswer {
            subjective: example.subjective.trim(),
            objective: example.objective.trim(),
            plan: example.plan.trim(),
        }),
        _ => serde_json::to_string(&SoapAnswer {
            episodes: vec![EpisodeAnswer {
                subjective: example.subjective.trim(),
                objective: example.objective.trim(),
                diagnosis: example.evaluation.trim(),
                plan: example.plan.trim(),
            }],
        }),
    };
    // serializing borrowed strings into a string cannot fail
    written.unwrap_or_default()
}

/// Shortens an example to about `budget` characters: the long fields give way first, each cut at
/// a word boundary with an ellipsis.
fn trim_example(example: &SoapExample, budget: usize) -> SoapExample {
    let fields = [&example.subjective, &example.objective, &example.evaluation, &example.plan];
    let lengths: Vec<usize> = fields.iter().map(|f| f.trim().chars().count()).collect();
    if lengths.iter().sum::<usize>() <= budget {
        return example.clone();
    }
    // The largest cap with which all fields fit the budget (water-filling).
    let mut sorted = lengths.clone();
    sorted.sort_unstable();
    let mut remaining = budget;
    let mut cap = 0;
    for (i, len) in sorted.iter().enumerate() {
        let share = remaining / (sorted.len() - i);
        if *len <= share {
            remaining -= len;
        } else {
            cap = share;
            break;
        }
    }
    let cut = |text: &String| truncate_words(text.trim(), cap);
    SoapExample {
        subjective: cut(&example.subjective),
        objective: cut(&example.objective),
        evaluation: cut(&example.evaluation),
        plan: cut(&example.plan),
    }
}

/// `text` cut to at most `max` characters at a word boundary, with '…' when cut.
fn truncate_words(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let keep: String = text.chars().take(max.saturating_sub(1)).collect();
    let at_word = match keep.rfind(char::is_whitespace) {
        Some(i) if i > keep.len() / 2 => &keep[..i],
        _ => keep.as_str(),
    };
    format!("{}…", at_word.trim_end())
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::summarise::TranscriptLine;

    fn request(template: Template, flavour: Flavour) -> SummaryRequest {
        SummaryRequest {
            template,
            flavour,
            episode_count: 1,
            transcript: vec![
                TranscriptLine { sentence: "Ik hoest al twee weken".into(), speaker: None },
                TranscriptLine { sentence: "De longen klinken schoon.".into(), speaker: None },
            ],
            ..SummaryRequest::default()
        }
    }

    fn system(template: Template, flavour: Flavour) -> String {
        system_prompt(&request(template, flavour), false, false)
    }

    #[test]
    fn soap_prompt_follows_the_nhg_conventions() {
        let p = system(Template::Soap, Flavour::Normal);
        for phrase in [
            "SOEP-verslag",
            "NHG-richtlijn",
            "één SOEP per probleem (episode)",
            "S (subjectief): wat de patiënt vertelt",
            "O (objectief): alleen wat in het consult is onderzocht of gemeten",
            "Verzin nooit bevindingen",
            "laat O dan leeg",
            "E (evaluatie): de beoordeling of werkdiagnose",
            "P (plan): het afgesproken beleid",
            "telegramstijl",
            "Verzin nooit feiten die niet in het transcript staan",
            "verwacht één episode",
            "\"diagnosis\"",
            "geen sprekerlabels",
            "'Heeft u koorts? Nee' wordt 'Geen koorts'",
            "'Ik heb sinds drie dagen keelpijn' wordt 'Sinds 3 dagen keelpijn'",
            "een vandaag gemeten bloeddruk staat in O, nooit in S",
            "E is de beoordeling zoals de zorgverlener die uitspreekt",
            "P is per episode het beleid voor dat probleem; een klacht staat nooit in P",
            "'Rust een week'",
            "Elk gegeven staat in de episode van het probleem",
        ] {
            assert!(p.contains(phrase), "missing {phrase:?} in:\n{p}");
        }
        assert!(!p.contains("POH-GGZ"));
        assert!(system(Template::Soap, Flavour::PohGgz).contains("Schrijfwijze van het verslag"));
        assert!(!system(Template::Report, Flavour::Normal).contains("Schrijfwijze van het verslag"));
    }

    #[test]
    fn episode_count_is_guidance() {
        let mut r = request(Template::Soap, Flavour::Normal);
        r.episode_count = 3;
        let p = system_prompt(&r, false, false);
        assert!(p.contains("verwacht 3 episodes"), "{p}");
        assert!(p.contains("Dat is een richtlijn"));
        r.episode_count = 0;
        assert!(system_prompt(&r, false, false).contains("verwacht één episode"));
    }

    #[test]
    fn poh_ggz_prompt_asks_for_mood_sleep_functioning_and_follow_up() {
        let p = system(Template::Soap, Flavour::PohGgz);
        for phrase in [
            "POH-GGZ",
            "stemming, slaap",
            "dagelijks functioneren",
            "presentatie van de cliënt",
            "scores van vragenlijsten",
            "Verzin nooit bevindingen of scores",
            "vervolgafspraken",
            "één SOEP per probleem",
        ] {
            assert!(p.contains(phrase), "missing {phrase:?} in:\n{p}");
        }
    }

    #[test]
    fn report_prompt_has_s_o_p_without_e() {
        let p = system(Template::Report, Flavour::Normal);
        assert!(p.contains("consultverslag met de onderdelen S, O en P"));
        assert!(p.contains("{\"subjective\": \"…\", \"objective\": \"…\", \"plan\": \"…\"}"));
        assert!(!p.contains("E (evaluatie)") && !p.contains("\"diagnosis\""));
        assert!(system(Template::Report, Flavour::PohGgz).contains("POH-GGZ"));
    }

    #[test]
    fn dictation_prompt_forbids_content_changes() {
        let p = system(Template::Dictation, Flavour::Normal);
        for phrase in ["gedicteerde tekst", "leestekens", "Verander niets aan de inhoud", "korte samenvatting"] {
            assert!(p.contains(phrase), "missing {phrase:?} in:\n{p}");
        }
        assert!(p.contains("\"summarizedDictation\""));
        assert!(!p.contains("Zorgverlener:"));
    }

    #[test]
    fn radiology_prompt_summarises_to_the_conclusion() {
        let p = system(Template::Radiology, Flavour::Normal);
        for phrase in ["radiologieverslag", "Verander niets aan de inhoud", "de conclusie van het verslag", "Bedenk geen eigen"] {
            assert!(p.contains(phrase), "missing {phrase:?} in:\n{p}");
        }
    }

    #[test]
    fn meeting_prompt_asks_for_points_decisions_and_owned_actions() {
        let p = system(Template::Meeting, Flavour::Normal);
        for phrase in ["notulen", "Besproken punten:", "Besluiten:", "Acties:", "eigenaar", "{\"meeting\": \"…\"}"] {
            assert!(p.contains(phrase), "missing {phrase:?} in:\n{p}");
        }
    }

    #[test]
    fn specialist_prompts_name_the_sections_of_the_flavour() {
        let normal = system(Template::Specialist, Flavour::Normal);
        assert!(normal.contains("medisch specialist"));
        assert!(!normal.contains("Allergologische anamnese") && !normal.contains("Beeldvorming"));

        let allergy = system(Template::Specialist, Flavour::KinderartsAllergoloog);
        assert!(allergy.contains("kinderarts-allergoloog"));
        assert!(allergy.contains("- Allergologische anamnese: reacties op voedsel"));
        assert!(allergy.contains("\"Aanvullend onderzoek\": \"…\""));
        assert!(allergy.contains("huidpriktest"));

        let ortho = system(Template::Specialist, Flavour::KinderartsOrthopeed);
        assert!(ortho.contains("kinderarts-orthopeed"));
        assert!(ortho.contains("- Beeldvorming: röntgenfoto"));
        assert!(!ortho.contains("Allergologische anamnese"));
        for flavour in [Flavour::Normal, Flavour::KinderartsAllergoloog, Flavour::KinderartsOrthopeed] {
            let p = system(Template::Specialist, flavour);
            for section in specialist_sections(flavour) {
                assert!(p.contains(&format!("- {section}: ")), "{section} in {p}");
            }
            assert!(p.contains("Verzin nooit bevindingen"));
        }
    }

    #[test]
    fn suggestion_and_schema_are_added_when_asked() {
        let mut r = request(Template::Soap, Flavour::Normal);
        r.user_suggestion = Some("  Noem de bloeddruk apart.  ".into());
        let p = system_prompt(&r, false, true);
        assert!(p.contains("Extra aanwijzing van de zorgverlener voor dit verslag"));
        assert!(p.contains("\nNoem de bloeddruk apart."));
        assert!(p.contains("Het JSON-schema van het antwoord:\n{"));
        r.user_suggestion = Some("   ".into());
        let p = system_prompt(&r, false, false);
        assert!(!p.contains("Extra aanwijzing") && !p.contains("JSON-schema"));
    }

    #[test]
    fn transcript_without_speakers_is_joined_with_full_stops() {
        let r = request(Template::Soap, Flavour::Normal);
        assert_eq!(transcript(&r), "Ik hoest al twee weken. De longen klinken schoon.");
        let m = messages(&r, false);
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].role, Role::System);
        assert_eq!(m[1].role, Role::User);
        assert!(m[1].content.ends_with("Ik hoest al twee weken. De longen klinken schoon."));
    }

    #[test]
    fn transcript_with_speakers_is_written_per_turn() {
        let mut r = request(Template::Soap, Flavour::Normal);
        r.transcript = vec![
            TranscriptLine { sentence: "Wat kan ik voor u doen?".into(), speaker: Some(Speaker::Zorgverlener) },
            TranscriptLine { sentence: "Ik hoest al twee weken".into(), speaker: Some(Speaker::Patient) },
            TranscriptLine { sentence: "Vooral 's nachts".into(), speaker: Some(Speaker::Patient) },
            TranscriptLine { sentence: "Ik luister even".into(), speaker: Some(Speaker::Zorgverlener) },
            TranscriptLine { sentence: "Ja".into(), speaker: None },
        ];
        assert_eq!(
            transcript(&r),
            "Zorgverlener: Wat kan ik voor u doen?\nPatiënt: Ik hoest al twee weken. Vooral 's nachts\n\
             Zorgverlener: Ik luister even\nJa"
        );
        r.template = Template::Dictation;
        assert_eq!(transcript(&r), r.transcript_text());
        r.template = Template::Meeting;
        assert_eq!(transcript(&r), r.transcript_text());
    }

    fn example(n: usize) -> SoapExample {
        SoapExample {
            subjective: format!("S{n}: hoest"),
            objective: format!("O{n}: longen schoon"),
            evaluation: format!("E{n}: virale LWI"),
            plan: format!("P{n}: uitleg"),
        }
    }

    #[test]
    fn examples_become_few_shot_pairs_in_the_answer_format() {
        let mut r = request(Template::Soap, Flavour::Normal);
        r.examples = (1..=7).map(example).collect();
        r.examples.insert(0, SoapExample::default());
        let m = messages(&r, false);
        assert_eq!(m.len(), 2 + 2 * MAX_EXAMPLES);
        assert!(m[0].content.contains("Volg hun stijl: lengte, telegramstijl, opsommingen en nummering"));
        for i in 0..MAX_EXAMPLES {
            let (ask, answer) = (&m[1 + 2 * i], &m[2 + 2 * i]);
            assert_eq!(ask.role, Role::User);
            assert!(ask.content.starts_with(&format!("Voorbeeld {} van 5", i + 1)));
            assert_eq!(answer.role, Role::Assistant);
            let parsed: Value = serde_json::from_str(&answer.content).unwrap();
            let n = i + 1;
            assert_eq!(
                parsed,
                json!({"episodes": [{"subjective": format!("S{n}: hoest"), "objective": format!("O{n}: longen schoon"),
                    "diagnosis": format!("E{n}: virale LWI"), "plan": format!("P{n}: uitleg")}]})
            );
            assert!(super::super::schema::to_result(Template::Soap, Flavour::Normal, &parsed).is_ok());
        }
        assert_eq!(m.last().unwrap().role, Role::User);
    }

    /// An example's answer is written as the schema orders it (S, O, E, P), as the answer itself
    /// will be: the model copies the order of what it is shown.
    #[test]
    fn example_answers_are_written_in_the_schemas_order() {
        let mut r = request(Template::Soap, Flavour::Normal);
        r.examples = vec![example(1)];
        assert_eq!(
            messages(&r, false)[2].content,
            r#"{"episodes":[{"subjective":"S1: hoest","objective":"O1: longen schoon","diagnosis":"E1: virale LWI","plan":"P1: uitleg"}]}"#
        );
        r.template = Template::Report;
        assert_eq!(messages(&r, false)[2].content, r#"{"subjective":"S1: hoest","objective":"O1: longen schoon","plan":"P1: uitleg"}"#);
        r.template = Template::Specialist;
        let schema_in_prompt = system_prompt(&r, false, true);
        assert!(schema_in_prompt.contains(r#""properties":{"Reden van verwijzing":{"type":"string"},"Anamnese":"#), "{schema_in_prompt}");
    }

    /// Fewer pairs: the first ones stay, numbered among themselves, each as long as with all of
    /// them (so every pair dropped shortens the request); none leaves the style instruction out.
    #[test]
    fn messages_with_fewer_examples_keep_the_first_ones_at_their_length() {
        let mut r = request(Template::Soap, Flavour::Normal);
        let long = "woord ".repeat(1_000);
        r.examples = (1..=5).map(|n| SoapExample { subjective: format!("S{n} {long}"), ..example(n) }).collect();
        assert_eq!(example_count(&r), 5);
        let all = messages(&r, false);
        let two = messages_with(&r, false, 2);
        assert_eq!(two.len(), 2 + 2 * 2);
        assert!(two[1].content.starts_with("Voorbeeld 1 van 2"));
        assert!(two[3].content.starts_with("Voorbeeld 2 van 2"));
        assert_eq!(two[2].content, all[2].content);
        assert_eq!(two[4].content, all[4].content);
        assert!(two[4].content.contains("S2 woord"));
        assert_eq!(two.last(), all.last());
        let none = messages_with(&r, false, 0);
        assert_eq!(none.len(), 2);
        assert!(!none[0].content.contains("Volg hun stijl"));
        assert_eq!(messages_with(&r, false, 9), all);
        r.template = Template::Meeting;
        assert_eq!(example_count(&r), 0);
    }

    #[test]
    fn report_examples_leave_the_evaluation_out_and_other_templates_take_none() {
        let mut r = request(Template::Report, Flavour::Normal);
        r.examples = vec![example(1)];
        let m = messages(&r, false);
        assert_eq!(m.len(), 4);
        let parsed: Value = serde_json::from_str(&m[2].content).unwrap();
        assert_eq!(parsed, json!({"subjective": "S1: hoest", "objective": "O1: longen schoon", "plan": "P1: uitleg"}));
        for template in [Template::Dictation, Template::Radiology, Template::Meeting, Template::Specialist] {
            r.template = template;
            let m = messages(&r, false);
            assert_eq!(m.len(), 2, "{template:?}");
            assert!(!m[0].content.contains("Volg hun stijl"));
        }
    }

    #[test]
    fn long_examples_are_trimmed_to_the_budget() {
        let mut r = request(Template::Soap, Flavour::Normal);
        let long = "woord ".repeat(2_000);
        r.examples =
            vec![SoapExample { subjective: long.clone(), objective: "kort".into(), evaluation: long.clone(), plan: long }, example(2)];
        let m = messages(&r, false);
        let first: Value = serde_json::from_str(&m[2].content).unwrap();
        let episode = &first["episodes"][0];
        let total: usize =
            ["subjective", "objective", "diagnosis", "plan"].iter().map(|k| episode[k].as_str().unwrap().chars().count()).sum();
        assert!(total <= EXAMPLE_BUDGET / 2, "{total}");
        assert!(total > EXAMPLE_BUDGET / 2 - 40, "{total}");
        assert_eq!(episode["objective"], "kort");
        assert!(episode["subjective"].as_str().unwrap().ends_with("woord…"));
        let second: Value = serde_json::from_str(&m[4].content).unwrap();
        assert_eq!(second["episodes"][0]["plan"], "P2: uitleg");
    }

    #[test]
    fn retry_message_asks_for_only_json() {
        let m = retry_message(false);
        assert_eq!(m.role, Role::User);
        assert!(m.content.contains("uitsluitend met het volledige, geldige JSON-object"));
        assert!(!m.content.contains("beknopter"));
        assert!(retry_message(true).content.contains("schrijf beknopter"));
    }
}
