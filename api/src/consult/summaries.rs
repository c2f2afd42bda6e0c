//! Starting a summary: the one path the websocket's `summarize` message and the summary calls
//! share. The request with its transcript goes into a `summaries` row and a `summarise_consult`
//! job in one transaction; the job's message is pushed after commit.

use std::time::Duration;

use domain::consults::{self, NewSummary};
use domain::summary::{ConsultResult, Flavour, ModelSize, Precision, SoapExample, SummaryRequest, Template, TranscriptLine};
use jobs::JobState;
use jobs::kinds::SummariseConsult;
use jobs::live::LiveEvent;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::consult::live::SummaryWait;
use crate::consult::service::ConsultService;
use crate::error::ApiError;

pub const EMPTY_TRANSCRIPT: &str = "Er is nog geen transcript om samen te vatten.";
pub const MAX_TRANSCRIPT_CHARS: usize = 200_000;
pub const MAX_EPISODES: u8 = 10;
pub use domain::summary::MAX_EXAMPLES;
pub const MAX_SUGGESTION_CHARS: usize = 1_000;

/// The `request` of a websocket `summarize` message, and the body of `/v1/withExamples`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SummarizeRequest {
    /// The kind of note; soap when left out.
    #[serde(default)]
    #[schema(required = false)]
    pub template: Template,
    /// The variant; normal when left out.
    #[serde(default)]
    #[schema(required = false)]
    pub flavour: Flavour,
    /// The model size; medium when left out.
    #[serde(default)]
    #[schema(required = false)]
    pub model_size: ModelSize,
    /// medium when left out.
    #[serde(default)]
    #[schema(required = false)]
    pub precision: Precision,
    /// Episodes expected, 1 to 10 (1 when left out).
    #[serde(default, deserialize_with = "crate::openapi::whole_number")]
    #[schema(minimum = 1, maximum = 10)]
    pub episode_count: Option<u8>,
    /// The clinician's SOEP examples (at most 5); without them their saved examples are used.
    #[serde(default)]
    #[schema(max_items = 5, required = false)]
    pub examples: Vec<SoapExample>,
    /// A typed or pasted transcript. On the websocket it replaces the spoken one (a consult with
    /// no speech engine); in `/v1/withExamples` it is the transcript.
    #[schema(max_length = 200000)]
    pub transcript: Option<String>,
    /// A hint from the clinician for this summary (at most 1000 characters).
    #[schema(max_length = 1000)]
    pub user_suggestion: Option<String>,
}

/// The document's pattern for text that must hold something besides white space: a character
/// that is not white space as `str::trim` counts it (`#[schema(pattern)]` takes only a literal,
/// so the annotations repeat it; a test checks that they do and that it is exact).
pub const NOT_BLANK: &str = "[^\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";

/// The body of `/v1/withExamples`: a [`SummarizeRequest`] whose transcript is required.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code)] // the handler reads a `SummarizeRequest`; this is its shape in the document
pub struct SummarizeWithExamples {
    /// The kind of note; soap when left out.
    #[schema(required = false)]
    template: Template,
    /// The variant; normal when left out; the query's `flavour` wins.
    #[schema(required = false)]
    flavour: Flavour,
    /// The model size; large on this call whatever is sent.
    #[schema(required = false)]
    model_size: ModelSize,
    /// high on this call whatever is sent.
    #[schema(required = false)]
    precision: Precision,
    /// Episodes expected, 1 to 10 (1 when left out); the query's `episodeCount` wins.
    #[schema(minimum = 1, maximum = 10)]
    episode_count: Option<u8>,
    /// The clinician's SOEP examples (at most 5); without them their saved examples are used.
    #[schema(max_items = 5, required = false)]
    examples: Vec<SoapExample>,
    /// The transcript: at most 200,000 characters, not only white space.
    #[schema(max_length = 200000, pattern = "[^\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]")]
    transcript: String,
    /// A hint from the clinician for this summary (at most 1000 characters); the query's wins.
    #[schema(max_length = 1000)]
    user_suggestion: Option<String>,
}

/// A started summary.
pub struct Started {
    pub summary_id: String,
    pub job_id: Uuid,
    /// Registered before the job could run, so no event is missed.
    pub wait: SummaryWait,
}

/// The spec's joining: what the clinician typed, split into sentences.
pub fn typed_lines(text: &str) -> Vec<TranscriptLine> {
    integrations::speech::sentences::split(text).into_iter().map(|sentence| TranscriptLine { sentence, speaker: None }).collect()
}

/// Checks a request before anything is stored.
pub fn check(request: &SummaryRequest) -> Result<(), ApiError> {
    let bad = |code: &'static str, message: &str| Err(ApiError::BadRequest { code, message: message.to_owned() });
    if request.transcript.iter().all(|l| l.sentence.trim().is_empty()) {
        return bad("empty_transcript", EMPTY_TRANSCRIPT);
    }
    if request.transcript.iter().map(|l| l.sentence.chars().count()).sum::<usize>() > MAX_TRANSCRIPT_CHARS {
        return bad("transcript_too_long", "Het transcript is te lang om samen te vatten (hoogstens 200.000 tekens).");
    }
    if request.episode_count == 0 || request.episode_count > MAX_EPISODES {
        return bad("invalid_episode_count", "Het aantal episodes moet tussen 1 en 10 liggen.");
    }
    if request.examples.len() > MAX_EXAMPLES {
        return bad("too_many_examples", &format!("Geef hoogstens {MAX_EXAMPLES} voorbeelden mee."));
    }
    check_suggestion(request.user_suggestion.as_deref())
}

/// Checks a clinician's hint for a summary: at most 1000 characters.
pub fn check_suggestion(suggestion: Option<&str>) -> Result<(), ApiError> {
    if suggestion.is_some_and(|s| s.chars().count() > MAX_SUGGESTION_CHARS) {
        return Err(ApiError::BadRequest {
            code: "suggestion_too_long",
            message: "De aanwijzing is te lang (hoogstens 1000 tekens).".to_owned(),
        });
    }
    Ok(())
}

/// Stores the request, enqueues the job and pushes its message.
pub async fn start(
    service: &ConsultService,
    user_id: &str,
    consult_id: Option<&str>,
    session_id: Option<&str>,
    route: &str,
    request: &SummaryRequest,
) -> Result<Started, ApiError> {
    check(request)?;
    let mut tx = service.db.begin().await?;
    let summary_id = consults::create_summary(
        &mut tx,
        &NewSummary { user_id, consult_id, session_id, route, request, keep_for: service.config.retention },
    )
    .await?;
    let job_id = jobs::enqueue(&mut tx, SummariseConsult::job(&summary_id, user_id)).await?;
    let wait = service.live.wait_for(&summary_id);
    tx.commit().await?;
    service.jobs.push_committed(&[job_id], "summary").await;
    metrics::counter!("summaries_started_total", "route" => route.to_owned()).increment(1);
    Ok(Started { summary_id, job_id, wait })
}

/// How a wait for a summary ended.
pub enum Waited {
    Done(ConsultResult),
    Failed(String),
    /// Still going when the time was up.
    Pending,
}

/// Waits up to `limit` for the summary's result.
pub async fn wait(service: &ConsultService, started: &mut Started, limit: Duration) -> Result<Waited, ApiError> {
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        match tokio::time::timeout_at(deadline, started.wait.next()).await {
            Ok(Some(LiveEvent::Summary { state: s, result, message, .. })) => {
                if let (JobState::Succeeded, Some(result)) = (s, result) {
                    return Ok(Waited::Done(result));
                }
                if s.is_failure() {
                    return Ok(Waited::Failed(message.unwrap_or_else(|| FAILED.to_owned())));
                }
            }
            Ok(Some(LiveEvent::Takeover { .. })) => {}
            Ok(None) | Err(_) => break,
        }
    }
    // The event may have been missed (pub/sub is best effort): the row knows.
    let row = consults::find_summary(&service.db, &started.summary_id).await?;
    if let Some(sqlx::types::Json(result)) = row.and_then(|r| r.result) {
        return Ok(Waited::Done(result));
    }
    if let Some(job) = jobs::find(&service.db, started.job_id).await?
        && job.state.is_failure()
    {
        return Ok(Waited::Failed(job.last_error.unwrap_or_else(|| FAILED.to_owned())));
    }
    Ok(Waited::Pending)
}

pub const FAILED: &str = "De samenvatting kon niet worden gemaakt.";

/// The answer of a summary call that is still running: poll the job.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Accepted {
    pub job_id: Uuid,
    pub summary_id: String,
}

impl SummarizeRequest {
    /// The summariser's request with its own typed transcript, split into sentences.
    pub fn into_typed_request(self) -> SummaryRequest {
        let transcript = typed_lines(self.transcript.as_deref().unwrap_or(""));
        self.into_request(transcript)
    }

    /// The summariser's request with the given transcript.
    pub fn into_request(self, transcript: Vec<TranscriptLine>) -> SummaryRequest {
        SummaryRequest {
            template: self.template,
            flavour: self.flavour,
            precision: self.precision,
            model_size: self.model_size,
            episode_count: self.episode_count.unwrap_or(1),
            transcript,
            examples: self.examples,
            user_suggestion: self.user_suggestion.filter(|s| !s.trim().is_empty()),
        }
    }
}
