//! The embedded rule-based Dutch SOEP extractor: the default summariser, which needs no service.
//!
//! It only rearranges the transcript's own sentences, rewritten into the clinical register, so
//! its notes are extractive. The steps, each in its own module:
//! - [`classify`](self::classify): each sentence to S, O, E, P or nowhere, by speaker (a typed
//!   label such as "Patiënt:", the engine's, or [`guess_speaker`](super::speaker::guess_speaker)'s)
//!   and the cue lists of [`cues`]; a question and its answer become one finding;
//! - [`register`](self::register): each placed sentence in telegram style, the way a GP writes
//!   it in the record (no labels, fillers or questions, the patient's first person rewritten,
//!   each field's spoken openings trimmed);
//! - [`episodes`](self::episodes): sentences over the clinician's number of episodes by topic;
//! - [`style`](self::style): note style, learnt from the clinician's SOEP examples;
//! - [`render`](self::render): the shape each template asks for.
//!
//! Deterministic, and linear in the transcript: a consult of an hour (about a thousand
//! sentences) takes about ten milliseconds in a release build (`soep_accuracy --time`).

pub(crate) mod classify;
mod corrections;
pub(crate) mod cues;
pub(crate) mod episodes;
pub(crate) mod labels;
pub(crate) mod lexicon;
pub(crate) mod numbers;
pub(crate) mod register;
mod render;
pub(crate) mod style;
pub mod testset;

use futures::future::BoxFuture;

use super::{ConsultResult, SummariseError, Summariser, Summary, SummaryRequest, Template};
use crate::speech::Speaker;

/// The SOEP field a sentence goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    /// S: what the patient tells.
    Subjective,
    /// O: what was examined or measured.
    Objective,
    /// E: the assessment (the episode's `diagnosis`).
    Evaluation,
    /// P: the agreed plan.
    Plan,
}

impl Section {
    /// The SOEP letter: S, O, E or P.
    pub fn letter(self) -> char {
        match self {
            Section::Subjective => 'S',
            Section::Objective => 'O',
            Section::Evaluation => 'E',
            Section::Plan => 'P',
        }
    }
}

/// Where the rules engine puts one transcript sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The sentence's index in the transcript.
    pub index: usize,
    /// The SOEP field, `None` when the sentence belongs nowhere (greetings, questions, small talk).
    pub section: Option<Section>,
    /// The episode, 0-based, below the request's `episode_count` (at least 1).
    pub episode: usize,
    /// The problem, 0-based in order of first mention, when one episode was asked and the consult
    /// holds more problems (see [`problems_found`]); 0 otherwise. A single episode lists its
    /// sentences problem by problem.
    pub problem: usize,
    /// The speaker the engine gave or, failing that, the guessed one.
    pub speaker: Speaker,
    /// The text as it goes into the note; empty when `section` is `None`.
    pub text: String,
}

/// The message for a request without any sentence.
const EMPTY_TRANSCRIPT: &str = "Er is geen transcript om samen te vatten.";

/// Places every sentence of the transcript (one [`Placement`] per line, in order): the rules
/// engine's SOEP classifier, exposed for measuring its accuracy.
pub fn classify(request: &SummaryRequest) -> Vec<Placement> {
    placed_and_told(request).0
}

/// The placements, and who tells the history where another does ([`render::told_by`]), found
/// once: there the speaker's "ik" is theirs, and the consult is placed again knowing it (the
/// sections stay, only the register's words change).
fn placed_and_told(request: &SummaryRequest) -> (Vec<Placement>, Option<&'static str>) {
    let placements = placements_of(request, classify::place_all(&request.transcript, request.flavour));
    match render::told_by(request, &placements) {
        None => (placements, None),
        told => (placements_of(request, classify::place_all_told(&request.transcript, request.flavour, true)), told),
    }
}

/// The placements of `placed`, each with its episode and problem.
fn placements_of(request: &SummaryRequest, placed: Vec<classify::Placed>) -> Vec<Placement> {
    let sentences: Vec<&str> = request.transcript.iter().map(|l| l.sentence.as_str()).collect();
    let count = usize::from(request.episode_count.max(1));
    // what a sentence counts for its topic: an assessment twice, since the problems of a consult
    // are the ones the clinician assesses; a sentence placed nowhere not at all
    let weights: Vec<u32> = placed
        .iter()
        .map(|p| match p.section {
            Some(Section::Evaluation) => 2,
            Some(_) => 1,
            None => 0,
        })
        .collect();
    let episodes = episodes::assign(&sentences, &weights, count);
    let problems = if count == 1 { episodes::problems(&sentences, &weights, &decided(&placed)).0 } else { vec![0; sentences.len()] };
    placed
        .into_iter()
        .zip(episodes.into_iter().zip(problems))
        .enumerate()
        .map(|(index, (p, (episode, problem)))| Placement { index, section: p.section, episode, problem, speaker: p.speaker, text: p.text })
        .collect()
}

/// Which sentences are an assessment.
fn decided(placed: &[classify::Placed]) -> Vec<bool> {
    placed.iter().map(|p| matches!(p.section, Some(Section::Evaluation))).collect()
}

/// How many problems a SOEP consult holds when it was summarised into one episode and the rules
/// find more (2 or 3): the page offers to show them as that many episodes. `None` otherwise.
/// The rules summariser says so of its own notes; the summary job asks it of other engines'.
pub fn problems_found(request: &SummaryRequest) -> Option<u8> {
    (request.template == Template::Soap).then(|| found(&classify(request))).flatten()
}

/// The problems [`classify`] told apart in one episode, when more than one.
fn found(placements: &[Placement]) -> Option<u8> {
    placements.iter().map(|p| p.problem + 1).max().filter(|n| *n > 1).and_then(|n| u8::try_from(n).ok())
}

/// The rule-based summariser. Stateless and cheap: the cue lists are static data.
#[derive(Clone, Copy, Debug, Default)]
pub struct RulesSummariser;

impl RulesSummariser {
    /// The summariser.
    pub fn new() -> Self {
        RulesSummariser
    }

    /// The note for `request`, synchronously.
    pub fn summarise_now(&self, request: &SummaryRequest) -> Result<Summary, SummariseError> {
        if request.transcript.iter().all(|l| l.sentence.trim().is_empty()) {
            return Err(SummariseError::Invalid(EMPTY_TRANSCRIPT.to_owned()));
        }
        let style = style::Style::learn(&request.examples);
        let result = match request.template {
            Template::Soap => {
                let (placements, told_by) = placed_and_told(request);
                let episodes = render::soap(&placements, usize::from(request.episode_count.max(1)), &style, told_by);
                ConsultResult { episodes, problems_found: found(&placements), ..Default::default() }
            }
            Template::Report => {
                let single = SummaryRequest { episode_count: 1, ..request.clone() };
                // (who tells reads the transcript, which the single episode shares)
                let (placements, told_by) = placed_and_told(&single);
                ConsultResult { episodes: vec![render::report(&placements, &style, told_by)], ..Default::default() }
            }
            Template::Dictation => render::dictation(request, false),
            Template::Radiology => render::dictation(request, true),
            Template::Meeting => render::meeting(request),
            Template::Specialist => render::specialist(&classify(request), request.flavour),
        };
        tracing::debug!(
            sentences = request.transcript.len(),
            template = ?request.template,
            episodes = result.episodes.len(),
            "rules summary made"
        );
        Ok(Summary { result, engine: "rules".to_owned(), extractive: true })
    }
}

impl Summariser for RulesSummariser {
    fn name(&self) -> &'static str {
        "rules"
    }

    fn summarise<'a>(&'a self, request: &'a SummaryRequest) -> BoxFuture<'a, Result<Summary, SummariseError>> {
        Box::pin(std::future::ready(self.summarise_now(request)))
    }
}
