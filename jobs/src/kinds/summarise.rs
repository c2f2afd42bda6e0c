//! `summarise_consult`: turns a consult's transcript into its note.
//!
//! The payload names a `summaries` row, which holds the request with the transcript as it was
//! when the clinician pressed Samenvatten. The handler adds the clinician's own SOEP examples
//! when the request brought none, asks the configured summariser, suggests up to three ICPC codes
//! per episode of a SOEP note (with the transcript sentences behind each), and keeps the result
//! with the summary and its consult. The live session (or the waiting request) hears of each state over
//! pub/sub from [`Job::announce`], which the runner calls only once that state is committed, so
//! whoever hears `succeeded` finds the job succeeded. A summary that already has its result is
//! not made again: a duplicate delivery only repeats the event.
//!
//! A language model that is not there yet (Ollama answers 404 until `ollama pull` is done, which
//! takes minutes on a first start) does not use up the job's attempts: the job waits
//! ([`JobError::NotYet`], `retrying`) for up to [`LOADING_PATIENCE`] after the summary was asked,
//! asking again after 5 s, then after half the time waited so far, at most a minute apart, and the
//! page says 'Het taalmodel wordt nog geladen; de samenvatting wordt zo opnieuw geprobeerd.'.
//! After that the model's absence counts as any other unavailability.

use std::time::{Duration, Instant};

use domain::consults::{self, SummaryRow};
use domain::summary::ConsultResult;
use integrations::summarise::{SharedSummariser, SoapExample, SummariseError, Template};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::kind::{Job, JobContext, JobError, Policy, StateChange};
use crate::live::{self, LiveEvent};
use crate::record::{Claimed, JobState, NewJob};
use crate::told::Names;

/// The start of a retryable error for a summariser that could not be reached.
const UNAVAILABLE: &str = "De samenvatter is niet bereikbaar";

/// A failure without a message of its own.
const FAILED: &str = "De samenvatting kon niet worden gemaakt.";

/// The start of the error while the language model is still being loaded (pulled).
const LOADING: &str = "Het taalmodel wordt nog geladen";

/// What the clinician reads while the job waits for the language model.
pub const LOADING_MESSAGE: &str = "Het taalmodel wordt nog geladen; de samenvatting wordt zo opnieuw geprobeerd.";

/// What the clinician reads when the language model never came.
pub const NOT_LOADED_MESSAGE: &str =
    "De samenvatting kon niet worden gemaakt: het taalmodel is nog steeds niet geladen. Probeer het later opnieuw.";

/// How long after it was asked a summary waits for its language model without using up an
/// attempt: a first `ollama pull` of a 7B model (4.7 GB) at 10 MB/s takes 8 minutes.
pub const LOADING_PATIENCE: Duration = Duration::from_secs(15 * 60);

use domain::summary::MAX_EXAMPLES;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SummarisePayload {
    pub summary_id: String,
}

pub struct SummariseConsult {
    pub summariser: SharedSummariser,
}

/// The job's own result: where the note is, never the note itself (that stays with the summary,
/// under the consult retention). `GET /api/jobs/{id}` adds the note as `note` for the job's owner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SummaryOutcome {
    pub summary_id: String,
    pub consult_id: Option<String>,
    pub template: Template,
    /// Which summariser made the note ("rules", "llm:<model>").
    pub engine: String,
    /// How long the summariser took; absent when the note was made by an earlier attempt.
    pub engine_millis: Option<f64>,
    /// The note, for the job's owner only (the api adds it; the job's row never holds it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<ConsultResult>,
}

impl SummariseConsult {
    pub fn job(summary_id: &str, user_id: &str) -> NewJob {
        NewJob::of::<SummariseConsult>(&SummarisePayload { summary_id: summary_id.to_owned() }).caused_by(user_id)
    }
}

const POLICY: Policy = Policy {
    max_attempts: 3,
    backoff: Duration::from_secs(2),
    backoff_max: Duration::from_secs(30),
    // the LLM's own limit (APP_LLM_TIMEOUT, 120 s) with room for its one repair round
    timeout: Duration::from_secs(300),
    concurrency: 8,
    // a clinician waits for the note: a push wakes the stream at once, and should that wake-up
    // be missed the stream asks every 200 ms instead of the worker's 1 s
    poll_interval: Some(Duration::from_millis(200)),
    yields: false,
};

impl Job for SummariseConsult {
    const KIND: &'static str = "summarise_consult";
    const LABEL: &'static str = "Samenvatting maken";
    type Payload = SummarisePayload;

    fn policy() -> Policy {
        POLICY
    }

    fn describe(_payload: &SummarisePayload, caused_by: Option<&str>, names: &Names) -> Option<String> {
        names.user(caused_by).map(|email| format!("Samenvatting voor {email}"))
    }

    async fn run(&self, ctx: &JobContext, _job: &Claimed, payload: SummarisePayload) -> Result<Value, JobError> {
        let row = match consults::find_summary(&ctx.db, &payload.summary_id).await {
            Ok(Some(row)) => row,
            Ok(None) => return Err(JobError::Permanent("De samenvatting bestaat niet meer (verlopen of verwijderd).".into())),
            // a request the types cannot read will not become readable by trying again
            Err(sqlx::Error::ColumnDecode { source, .. }) => {
                return Err(JobError::Permanent(format!("Het verzoek om samen te vatten is onleesbaar: {source}")));
            }
            Err(e) => return Err(e.into()),
        };
        if row.result.is_some() {
            let engine = row.engine.clone().unwrap_or_default();
            return outcome(&row, &engine, None);
        }
        let mut request = row.request.0.clone();
        if request.examples.is_empty() && matches!(request.template, Template::Soap | Template::Report) {
            request.examples = own_examples(ctx, &row.user_id).await?;
        }
        let started = Instant::now();
        let summary = match self.summariser.summarise(&request).await {
            Ok(summary) => summary,
            Err(SummariseError::Unavailable(why)) => return Err(JobError::Retryable(format!("{UNAVAILABLE}: {why}"))),
            Err(SummariseError::ModelNotReady(why)) => return Err(not_loaded(&row.id, format!("{LOADING}: {why}"))),
            Err(SummariseError::Invalid(message)) => return Err(JobError::Permanent(message)),
        };
        let engine_time = started.elapsed();
        metrics::histogram!("summaries_engine_seconds", "engine" => self.summariser.name()).record(engine_time.as_secs_f64());
        let mut note = summary.result;
        note.extractive = summary.extractive;
        if request.template == Template::Soap {
            let catalogue = domain::icpc::catalogue(&ctx.db).await?;
            let transcript: Vec<&str> = request.transcript.iter().map(|l| l.sentence.as_str()).collect();
            catalogue.code_episodes(&mut note.episodes, &transcript);
            // the rules say it of their own notes; another engine's note is asked here
            if !summary.extractive {
                note.problems_found = integrations::summarise::rules::problems_found(&request);
            }
        }
        let mut tx = ctx.db.begin().await?;
        consults::finish_summary(&mut tx, &row, &note, &summary.engine).await?;
        tx.commit().await?;
        outcome(&row, &summary.engine, Some(engine_time))
    }

    /// Maps the state the runner committed to the summary's live event: the kind never decides a
    /// state, it only words the failure for the clinician.
    async fn announce(&self, ctx: &JobContext, job: &Claimed, change: StateChange<'_>) {
        let Ok(payload) = serde_json::from_value::<SummarisePayload>(job.payload.clone()) else { return };
        let row = match consults::find_summary(&ctx.db, &payload.summary_id).await {
            Ok(Some(row)) => row,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!(error = %e, job = %job.id, "could not read the summary to announce it");
                return;
            }
        };
        // a summariser out of reach says so, as does a model still loading; other errors (the
        // database, a timeout) get the general message
        let message = |error: Option<&str>, last: bool| match error {
            Some(e) if e.starts_with(UNAVAILABLE) => format!("{UNAVAILABLE}."),
            Some(e) if e.starts_with(LOADING) => if last { NOT_LOADED_MESSAGE } else { LOADING_MESSAGE }.to_owned(),
            _ => FAILED.to_owned(),
        };
        let (result, message) = match change.state {
            JobState::Queued => return,
            JobState::Running => (None, None),
            JobState::Succeeded => (row.note().cloned(), None),
            JobState::Retrying => (None, Some(message(change.error, false))),
            JobState::Dead => (None, Some(message(change.error, true))),
            // a permanent error is the summariser's own Dutch message
            JobState::Failed => (None, Some(change.error.map_or_else(|| FAILED.to_owned(), str::to_owned))),
        };
        let event = LiveEvent::Summary {
            summary_id: row.id.clone(),
            session_id: row.session_id.clone(),
            job_id: job.id.to_string(),
            state: change.state,
            template: row.request.template,
            result,
            message,
        };
        publish(ctx, job, &event).await;
    }
}

/// The error of an attempt that found no language model: a wait without using up an attempt
/// while the summary is younger than [`LOADING_PATIENCE`], else a retryable error.
fn not_loaded(summary_id: &str, error: String) -> JobError {
    match asked_ago(summary_id) {
        Some(waited) if waited < LOADING_PATIENCE => JobError::NotYet { error, retry_in: loading_backoff(waited) },
        _ => JobError::Retryable(error),
    }
}

/// How long ago the summary was asked: its id is a ULID (`domain::consults::new_id`), whose
/// first 48 bits are the time it was made. `None` for an id that is not one.
fn asked_ago(summary_id: &str) -> Option<Duration> {
    let id = ulid::Ulid::from_string(&summary_id.to_ascii_uppercase()).ok()?;
    Some(std::time::SystemTime::now().duration_since(id.datetime()).unwrap_or_default())
}

/// The wait before asking the model again, having waited `waited`: 5 s, then half of what was
/// waited so far, at most a minute.
fn loading_backoff(waited: Duration) -> Duration {
    (waited / 2).clamp(Duration::from_secs(5), Duration::from_secs(60))
}

/// The job's own result (see [`SummaryOutcome`]).
fn outcome(row: &SummaryRow, engine: &str, engine_time: Option<Duration>) -> Result<Value, JobError> {
    let outcome = SummaryOutcome {
        summary_id: row.id.clone(),
        consult_id: row.consult_id.clone(),
        template: row.request.template,
        engine: engine.to_owned(),
        engine_millis: engine_time.map(|d| d.as_secs_f64() * 1000.0),
        note: None,
    };
    serde_json::to_value(outcome).map_err(|e| JobError::Permanent(e.to_string()))
}

/// The user's newest examples.
async fn own_examples(ctx: &JobContext, user_id: &str) -> Result<Vec<SoapExample>, JobError> {
    let mut examples = domain::soap_examples::list(&ctx.db, user_id).await?;
    examples.reverse();
    Ok(examples
        .into_iter()
        .take(MAX_EXAMPLES)
        .map(|e| SoapExample { subjective: e.subjective, objective: e.objective, evaluation: e.evaluation, plan: e.plan })
        .collect())
}

/// Tells whoever waits. Pub/sub is best effort: the result is in PostgreSQL either way, and a
/// socket that missed it can ask again (the client polls the job).
async fn publish(ctx: &JobContext, job: &Claimed, event: &LiveEvent) {
    let namespace = &ctx.dispatcher.config().namespace;
    match ctx.dispatcher.connection().await {
        Ok(mut conn) => {
            if let Err(e) = live::publish(&mut conn, namespace, event).await {
                tracing::warn!(error = %e, job = %job.id, "could not publish the summary event");
            }
        }
        Err(e) => tracing::warn!(error = %e, job = %job.id, "could not publish the summary event"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_still_loading_waits_while_the_summary_is_young() {
        let young = domain::consults::new_id();
        match not_loaded(&young, format!("{LOADING}: de server heeft het taalmodel m (nog) niet")) {
            JobError::NotYet { error, retry_in } => {
                assert!(error.starts_with(LOADING), "{error}");
                assert_eq!(retry_in, Duration::from_secs(5));
            }
            other => panic!("expected a wait, got {other:?}"),
        }
        // a summary asked longer ago than the patience: an ordinary retry, which uses up attempts
        let then = std::time::SystemTime::now() - LOADING_PATIENCE - Duration::from_secs(1);
        let old = ulid::Ulid::from_datetime(then).to_string().to_lowercase();
        assert!(matches!(not_loaded(&old, LOADING.to_owned()), JobError::Retryable(_)));
        assert!(matches!(not_loaded("geen-ulid", LOADING.to_owned()), JobError::Retryable(_)));
    }

    #[test]
    fn the_wait_grows_with_the_time_waited() {
        assert_eq!(loading_backoff(Duration::ZERO), Duration::from_secs(5));
        assert_eq!(loading_backoff(Duration::from_secs(30)), Duration::from_secs(15));
        assert_eq!(loading_backoff(Duration::from_secs(100)), Duration::from_secs(50));
        assert_eq!(loading_backoff(Duration::from_secs(600)), Duration::from_secs(60));
        let then = std::time::SystemTime::now() - Duration::from_secs(90);
        let waited = asked_ago(&ulid::Ulid::from_datetime(then).to_string().to_lowercase()).unwrap();
        assert!((89..=91).contains(&waited.as_secs()), "{waited:?}");
    }
}
