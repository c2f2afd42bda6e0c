//! Summarisers: turn a consult transcript into a structured note per template.
//!
//! One trait, [`Summariser`], with two implementations: any OpenAI-compatible chat API with a
//! JSON-schema answer per template, and the embedded rule-based Dutch SOEP extractor.

pub mod config;
pub mod llm;
pub mod prompts;
pub mod rules;
pub mod schema;
pub mod speaker;

use std::collections::BTreeMap;
use std::sync::Arc;

use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};

use crate::speech::Speaker;

/// What kind of note the clinician asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Flavour {
    #[default]
    Normal,
    PohGgz,
    KinderartsAllergoloog,
    KinderartsOrthopeed,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    #[default]
    Medium,
    High,
}

/// Which of the configured models answers: the summary routes of the spec map onto these.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModelSize {
    Small,
    #[default]
    Medium,
    Large,
}

/// One sentence of the transcript.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TranscriptLine {
    pub sentence: String,
    #[serde(default)]
    pub speaker: Option<Speaker>,
}

/// One of the clinician's own SOEP examples, used to shape the note.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
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

/// Everything a summariser needs.
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
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Episode {
    #[serde(default)]
    pub subjective: String,
    #[serde(default)]
    pub objective: String,
    #[serde(default)]
    pub diagnosis: String,
    #[serde(default)]
    pub plan: String,
}

/// The note, shaped per template: soap fills `episodes`; report fills one episode's subjective,
/// objective and plan; dictation and radiology fill `dictation` and, when there is one,
/// `summarized_dictation`; meeting fills `meeting`; specialist fills `specialist_summarization`
/// (section name → text, the sections of [`specialist_sections`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub specialist_summarization: Option<BTreeMap<String, String>>,
}

/// A summariser's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub result: ConsultResult,
    /// Which summariser made it ("rules", "llm:<model>").
    pub engine: String,
    /// True when the note only rearranges sentences of the transcript (the rules engine).
    pub extractive: bool,
}

/// Why no summary came.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SummariseError {
    /// The service is down, timed out or answered with a server error: worth trying later.
    #[error("samenvatter niet bereikbaar: {0}")]
    Unavailable(String),
    /// The answer stayed unusable after repair and one retry, or the service refused the request.
    /// The message is Dutch and fit to show.
    #[error("{0}")]
    Invalid(String),
}

/// A summariser. Cheap to share: one per process.
pub trait Summariser: Send + Sync + 'static {
    /// A short stable name for logs and metrics ("rules", "llm").
    fn name(&self) -> &'static str;

    fn summarise<'a>(&'a self, request: &'a SummaryRequest) -> BoxFuture<'a, Result<Summary, SummariseError>>;
}

pub type SharedSummariser = Arc<dyn Summariser>;

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
        Flavour::KinderartsOrthopeed => &[
            "Reden van verwijzing",
            "Anamnese",
            "Lichamelijk onderzoek",
            "Beeldvorming",
            "Conclusie",
            "Beleid",
        ],
        Flavour::Normal | Flavour::PohGgz => &[
            "Reden van verwijzing",
            "Anamnese",
            "Lichamelijk onderzoek",
            "Conclusie",
            "Beleid",
        ],
    }
}


pub use rules::RulesSummariser;
pub use speaker::guess_speaker;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_templates_name_is_its_wire_name() {
        for t in [Template::Soap, Template::Report, Template::Dictation, Template::Radiology, Template::Specialist, Template::Meeting] {
            assert_eq!(serde_json::to_value(t).unwrap(), t.as_str());
        }
    }
}
