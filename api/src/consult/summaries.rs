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

/// What a summary is asked for besides its transcript: the websocket's `summarize` request and
/// `/v1/withExamples` both take these, and the summary calls make them from their query.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SummaryOptions {
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
    #[serde(default, deserialize_with = "crate::fields::whole_number")]
    #[schema(minimum = 1, maximum = 10)]
    pub episode_count: Option<u8>,
    /// The clinician's SOEP examples (at most 5); without them their saved examples are used.
    #[serde(default)]
    #[schema(max_items = 5, required = false)]
    pub examples: Vec<SoapExample>,
    /// A hint from the clinician for this summary (at most 1000 characters).
    #[schema(max_length = 1000)]
    pub user_suggestion: Option<String>,
}

/// The `request` of a websocket `summarize` message.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SummarizeRequest {
    #[serde(flatten)]
    pub options: SummaryOptions,
    /// A typed or pasted transcript, which replaces the spoken one (a consult with no speech
    /// engine).
    #[schema(max_length = 200000)]
    pub transcript: Option<String>,
}

/// The body of `/v1/withExamples`: the options and the transcript, which it must have. On this
/// call the model is large and the precision high whatever is sent, and the query's `flavour`,
/// `episodeCount` and `userSuggestion` win over the body's.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SummarizeWithExamples {
    #[serde(flatten)]
    pub options: SummaryOptions,
    /// The transcript: at most 200,000 characters, not only white space.
    #[schema(max_length = 200000, pattern = "[^\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]")]
    pub transcript: String,
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

/// Stores the request, enqueues the job and pushes its message.
pub async fn start(
    service: &ConsultService,
    user_id: &str,
    consult_id: Option<&str>,
    session_id: Option<&str>,
    route: &str,
    request: &SummaryRequest,
) -> Result<Started, ApiError> {
    request.check()?;
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

impl SummaryOptions {
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

    /// The summariser's request with a typed transcript, split into sentences.
    pub fn into_typed_request(self, transcript: &str) -> SummaryRequest {
        self.into_request(typed_lines(transcript))
    }
}
