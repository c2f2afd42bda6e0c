//! Summarisers: turn a consult transcript into a structured note per template.
//!
//! One trait, [`Summariser`], with two implementations: any OpenAI-compatible chat API with a
//! JSON-schema answer per template, and the embedded rule-based Dutch SOEP extractor.

pub mod budget;
pub mod coding;
pub mod config;
pub mod llm;
pub mod prompts;
pub mod rules;
pub mod schema;
pub mod speaker;

use std::sync::Arc;

use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};

pub use domain::summary::{
    ConsultResult, Episode, Flavour, ModelSize, Precision, SoapExample, SummaryRequest, Template, TranscriptLine, join_sentences,
    specialist_sections,
};

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
    /// The service does not have the model yet (Ollama answers 404 until its pull is done): worth
    /// trying again in a while, without giving up as soon as for [`Self::Unavailable`].
    #[error("taalmodel nog niet geladen: {0}")]
    ModelNotReady(String),
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

pub use rules::RulesSummariser;
pub use speaker::guess_speaker;
