//! The summary as one type from the browser to the worker and back: the request a clinician
//! makes ([`SummaryRequest`], kept in the `summaries` row), the note a summariser returns
//! ([`ConsultResult`], kept with the summary and its consult) and the names both use.
//!
//! The api reads these from the wire and describes them in its OpenAPI document (each derives
//! `utoipa::ToSchema`), the row stores them as `sqlx::types::Json<...>`, the worker's
//! `summarise_consult` job reads the request and writes the note, and the live event brings the
//! note to the socket. The summarisers in `integrations::summarise` take and give the same types.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Who said a sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Speaker {
    /// The clinician.
    Zorgverlener,
    /// The other speaker: the patient or whoever came with them.
    Patient,
}

/// What kind of note the clinician asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Template {
    #[default]
    Soap,
    Report,
    Dictation,
    Radiology,
    Specialist,
    Meeting,
}

impl Template {
    /// Every template, in the order the page offers them.
    pub const ALL: [Template; 6] =
        [Template::Soap, Template::Report, Template::Dictation, Template::Radiology, Template::Specialist, Template::Meeting];

    /// The name on the wire (`soap`, `report`, ...), as serde writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Template::Soap => "soap",
            Template::Report => "report",
            Template::Dictation => "dictation",
            Template::Radiology => "radiology",
            Template::Specialist => "specialist",
            Template::Meeting => "meeting",
        }
    }
}

/// The variant of a template.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Flavour {
    #[default]
    Normal,
    PohGgz,
    KinderartsAllergoloog,
    KinderartsOrthopeed,
}

impl Flavour {
    pub const ALL: [Flavour; 4] = [Flavour::Normal, Flavour::PohGgz, Flavour::KinderartsAllergoloog, Flavour::KinderartsOrthopeed];
}

/// How precise the note must be: high asks the model for more care (and takes longer).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    #[default]
    Medium,
    High,
}

/// Which of the configured models answers: the summary routes of the spec map onto these.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ModelSize {
    Small,
    #[default]
    Medium,
    Large,
}

/// One sentence of the transcript.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TranscriptLine {
    pub sentence: String,
    #[serde(default)]
    pub speaker: Option<Speaker>,
}

/// The clinician's SOEP examples that shape one note, at most: a request takes no more, the
/// worker adds no more of the saved ones, and a prompt holds no more.
pub const MAX_EXAMPLES: usize = 5;

/// One of the clinician's own SOEP examples, used to shape the note: the four parts, each empty
/// when left out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SoapExample {
    #[serde(default)]
    pub subjective: String,
    #[serde(default)]
    pub objective: String,
    #[serde(default)]
    pub evaluation: String,
    #[serde(default)]
    pub plan: String,
}

/// Everything a summariser needs: the `request` of a `summaries` row.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SummaryRequest {
    #[serde(default)]
    pub template: Template,
    #[serde(default)]
    pub flavour: Flavour,
    #[serde(default)]
    pub precision: Precision,
    #[serde(default)]
    pub model_size: ModelSize,
    /// How many episodes (problems) the clinician expects; at least 1.
    #[serde(default = "one")]
    pub episode_count: u8,
    pub transcript: Vec<TranscriptLine>,
    #[serde(default)]
    pub examples: Vec<SoapExample>,
    /// A hint from the clinician for this summary.
    #[serde(default)]
    pub user_suggestion: Option<String>,
}

fn one() -> u8 {
    1
}

impl SummaryRequest {
    /// The transcript as one text: sentences joined with '. '.
    pub fn transcript_text(&self) -> String {
        join_sentences(self.transcript.iter().map(|l| l.sentence.as_str()))
    }

    /// What a summary can be made of, checked before anything is stored.
    pub fn check(&self) -> Result<(), Invalid> {
        if self.transcript.iter().all(|l| l.sentence.trim().is_empty()) {
            return Err(invalid("empty_transcript", EMPTY_TRANSCRIPT));
        }
        if self.transcript.iter().map(|l| l.sentence.chars().count()).sum::<usize>() > MAX_TRANSCRIPT_CHARS {
            return Err(invalid("transcript_too_long", "Het transcript is te lang om samen te vatten (hoogstens 200.000 tekens)."));
        }
        if self.episode_count == 0 || self.episode_count > MAX_EPISODES {
            return Err(invalid("invalid_episode_count", "Het aantal episodes moet tussen 1 en 10 liggen."));
        }
        if self.examples.len() > MAX_EXAMPLES {
            return Err(invalid("too_many_examples", format!("Geef hoogstens {MAX_EXAMPLES} voorbeelden mee.")));
        }
        check_suggestion(self.user_suggestion.as_deref())
    }
}

pub const EMPTY_TRANSCRIPT: &str = "Er is nog geen transcript om samen te vatten.";
/// A transcript's length, in characters, that a summary takes at most.
pub const MAX_TRANSCRIPT_CHARS: usize = 200_000;
pub const MAX_EPISODES: u8 = 10;
pub const MAX_SUGGESTION_CHARS: usize = 1_000;

/// Why a summary cannot be made of a request.
pub use crate::refusal::Invalid;
use crate::refusal::invalid;

/// Checks a clinician's hint for a summary: at most 1000 characters.
pub fn check_suggestion(suggestion: Option<&str>) -> Result<(), Invalid> {
    if suggestion.is_some_and(|s| s.chars().count() > MAX_SUGGESTION_CHARS) {
        return Err(invalid("suggestion_too_long", "De aanwijzing is te lang (hoogstens 1000 tekens)."));
    }
    Ok(())
}

/// Joins sentences with '. ', without doubling a full stop a sentence already ends with.
pub fn join_sentences<'a>(sentences: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for s in sentences {
        let s = s.trim();
        if s.is_empty() {
            continue;
        }
        if !out.is_empty() {
            if !out.ends_with(['.', '?', '!']) {
                out.push('.');
            }
            out.push(' ');
        }
        out.push_str(s);
    }
    out
}

/// One problem of a SOEP note. `diagnosis` holds the E (evaluatie).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Episode {
    #[serde(default)]
    pub subjective: String,
    #[serde(default)]
    pub objective: String,
    #[serde(default)]
    pub diagnosis: String,
    #[serde(default)]
    pub plan: String,
    /// Suggested ICPC codes (at most [`MAX_EPISODE_CODES`]), best first; the clinician accepts or
    /// removes each. Left out when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub codes: Vec<EpisodeCode>,
}

/// Most ICPC codes suggested for one episode.
pub const MAX_EPISODE_CODES: usize = 3;

/// An ICPC code suggested for an episode, with the transcript sentences that point to it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct EpisodeCode {
    /// Chapter letter and two digits, as templates store it: `R74`.
    #[schema(example = "R74")]
    pub code: String,
    /// The code's patient title.
    pub title: String,
    /// The sentences of the transcript that support the code, as they were summarised.
    #[serde(default)]
    pub evidence: Vec<String>,
    /// Accepted by the clinician: the code goes with the note (its copy, the record system).
    #[serde(default)]
    pub accepted: bool,
}

/// The note, shaped per template: soap fills `episodes`; report fills one episode's subjective,
/// objective and plan; dictation and radiology fill `dictation` and, when there is one,
/// `summarizedDictation`; meeting fills `meeting`; specialist fills `specialistSummarization`
/// (section name → text, the sections of the flavour: [`specialist_sections`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConsultResult {
    #[serde(default)]
    pub episodes: Vec<Episode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dictation: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summarized_dictation: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meeting: Option<String>,
    /// Section name ([`SpecialistSection`]) → text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub specialist_summarization: Option<BTreeMap<String, String>>,
    /// Drafted without a language model, from the transcript's own sentences: the page says so.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub extractive: bool,
    /// A SOEP note asked as one episode whose consult holds this many problems (2 or 3), each
    /// written in turn within the episode: the page offers to show them as that many episodes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problems_found: Option<u8>,
}

/// The named sections of a specialist letter, per flavour, in the order they are written.
pub fn specialist_sections(flavour: Flavour) -> &'static [&'static str] {
    match flavour {
        Flavour::KinderartsAllergoloog => &[
            "Reden van verwijzing",
            "Anamnese",
            "Allergologische anamnese",
            "Lichamelijk onderzoek",
            "Aanvullend onderzoek",
            "Conclusie",
            "Beleid",
        ],
        Flavour::KinderartsOrthopeed => {
            &["Reden van verwijzing", "Anamnese", "Lichamelijk onderzoek", "Beeldvorming", "Conclusie", "Beleid"]
        }
        Flavour::Normal | Flavour::PohGgz => &["Reden van verwijzing", "Anamnese", "Lichamelijk onderzoek", "Conclusie", "Beleid"],
    }
}

/// Every section name of [`specialist_sections`], once, in the order of first use.
pub fn all_specialist_sections() -> Vec<&'static str> {
    let mut all: Vec<&'static str> = Vec::new();
    for flavour in Flavour::ALL {
        for section in specialist_sections(flavour) {
            if !all.contains(section) {
                all.push(section);
            }
        }
    }
    all
}

/// A section name of a specialist letter, in the document: the names of
/// [`specialist_sections`] as a string enum, so clients type their section lists by it.
pub struct SpecialistSection;

impl utoipa::PartialSchema for SpecialistSection {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some(all_specialist_sections()))
            .description(Some("A section of a specialist letter (`ConsultResult.specialistSummarization`'s keys)."))
            .into()
    }
}

impl ToSchema for SpecialistSection {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_templates_name_is_its_wire_name() {
        for t in Template::ALL {
            assert_eq!(serde_json::to_value(t).unwrap(), t.as_str());
        }
    }

    #[test]
    fn every_section_is_named_once() {
        let all = all_specialist_sections();
        assert_eq!(all.len(), 8, "{all:?}");
        for flavour in Flavour::ALL {
            assert!(specialist_sections(flavour).iter().all(|s| all.contains(s)));
        }
    }

    #[test]
    fn a_stored_request_reads_back_with_its_defaults() {
        let request: SummaryRequest = serde_json::from_value(serde_json::json!({"transcript": [{"sentence": "Hoest."}]})).unwrap();
        assert_eq!(request.template, Template::Soap);
        assert_eq!(request.episode_count, 1);
        assert_eq!(request.transcript[0].speaker, None);
        let round: SummaryRequest = serde_json::from_value(serde_json::to_value(&request).unwrap()).unwrap();
        assert_eq!(round, request);
    }

    #[test]
    fn a_note_leaves_out_what_its_template_does_not_fill() {
        let note = ConsultResult { meeting: Some("Punten.".into()), ..Default::default() };
        assert_eq!(serde_json::to_value(&note).unwrap(), serde_json::json!({"episodes": [], "meeting": "Punten."}));
    }
}
