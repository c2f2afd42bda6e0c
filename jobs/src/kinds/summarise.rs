//! `summarise_consult`: turns a consult's transcript into its note.
//!
//! The payload names a `summaries` row, which holds the request with the transcript as it was
//! when the clinician pressed Samenvatten. The handler adds the clinician's own SOEP examples
//! when the request brought none, asks the configured summariser and keeps the result with the
//! summary and its consult. The live session (or the waiting request) hears of each state over
//! pub/sub from [`Job::announce`], which the runner calls only once that state is committed, so
//! whoever hears `succeeded` finds the job succeeded. A summary that already has its result is
//! not made again: a duplicate delivery only repeats the event.

use std::time::{Duration, Instant};

use domain::consults::{self, SummaryRow};
use integrations::summarise::{SharedSummariser, SoapExample, SummariseError, SummaryRequest, Template};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::kind::{Job, JobContext, JobError, Policy, StateChange};
use crate::live::{self, LiveEvent};
use crate::record::{Claimed, JobState, NewJob};

/// The start of a retryable error for a summariser that could not be reached.
const UNAVAILABLE: &str = "De samenvatter is niet bereikbaar";

/// A failure without a message of its own.
const FAILED: &str = "De samenvatting kon niet worden gemaakt.";

/// Personal examples given to a summariser at most.
pub const MAX_EXAMPLES: usize = 5;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SummarisePayload {
    pub summary_id: String,
}

pub struct SummariseConsult {
    pub summariser: SharedSummariser,
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
    // a clinician waits for the note: an idle stream asks every 10 ms instead of the worker's 50
    poll_interval: Some(Duration::from_millis(10)),
};

impl Job for SummariseConsult {
    const KIND: &'static str = "summarise_consult";
    type Payload = SummarisePayload;

    fn policy() -> Policy {
        POLICY
    }

    async fn run(&self, ctx: &JobContext, _job: &Claimed, payload: SummarisePayload) -> Result<Value, JobError> {
        let Some(row) = consults::find_summary(&ctx.db, &payload.summary_id).await? else {
            return Err(JobError::Permanent("De samenvatting bestaat niet meer (verlopen of verwijderd).".into()));
        };
        let mut request: SummaryRequest = serde_json::from_value(row.request.clone())
            .map_err(|e| JobError::Permanent(format!("Het verzoek om samen te vatten is onleesbaar: {e}")))?;
        let template = request.template.as_str();
        if row.result.is_some() {
            let engine = row.engine.clone().unwrap_or_default();
            return Ok(outcome(&row, template, &engine, None));
        }
        if request.examples.is_empty() && matches!(request.template, Template::Soap | Template::Report) {
            request.examples = own_examples(ctx, &row.user_id).await?;
        }
        let started = Instant::now();
        let summary = match self.summariser.summarise(&request).await {
            Ok(summary) => summary,
            Err(SummariseError::Unavailable(why)) => return Err(JobError::Retryable(format!("{UNAVAILABLE}: {why}"))),
            Err(SummariseError::Invalid(message)) => return Err(JobError::Permanent(message)),
        };
        let engine_time = started.elapsed();
        metrics::histogram!("summaries_engine_seconds", "engine" => self.summariser.name()).record(engine_time.as_secs_f64());
        let result = serde_json::to_value(&summary.result).map_err(|e| JobError::Permanent(e.to_string()))?;
        let mut tx = ctx.db.begin().await?;
        consults::finish_summary(&mut tx, &row, template, &result, &summary.engine).await?;
        tx.commit().await?;
        Ok(outcome(&row, template, &summary.engine, Some(engine_time)))
    }

    async fn announce(&self, ctx: &JobContext, job: &Claimed, change: StateChange<'_>) {
        let Some(summary_id) = job.payload.get("summaryId").and_then(Value::as_str) else { return };
        let row = match consults::find_summary(&ctx.db, summary_id).await {
            Ok(Some(row)) => row,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!(error = %e, job = %job.id, "could not read the summary to announce it");
                return;
            }
        };
        let template = row.request.get("template").and_then(Value::as_str).unwrap_or("soap").to_owned();
        // a summariser out of reach says so; other errors (the database, a timeout) get the general message
        let message = |error: Option<&str>| match error {
            Some(e) if e.starts_with(UNAVAILABLE) => format!("{UNAVAILABLE}."),
            _ => FAILED.to_owned(),
        };
        let (state, result, message) = match change.state {
            JobState::Running => ("running", None, None),
            JobState::Succeeded => ("succeeded", row.result.clone(), None),
            JobState::Retrying => ("retrying", None, Some(message(change.error))),
            // a permanent error is the summariser's own Dutch message
            JobState::Failed => ("failed", None, Some(change.error.map_or_else(|| FAILED.to_owned(), str::to_owned))),
            JobState::Dead => ("failed", None, Some(message(change.error))),
            JobState::Queued => return,
        };
        announce(ctx, &row, job, state, result, &template, message).await;
    }
}

/// The job's own result: where the note is, never the note itself (that stays with the summary,
/// under the consult retention; `GET /api/jobs/{id}` adds it for the owner).
fn outcome(row: &SummaryRow, template: &str, engine: &str, engine_time: Option<Duration>) -> Value {
    json!({
        "summaryId": row.id,
        "consultId": row.consult_id,
        "template": template,
        "engine": engine,
        "engineMillis": engine_time.map(|d| d.as_secs_f64() * 1000.0),
    })
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
async fn announce(
    ctx: &JobContext,
    row: &SummaryRow,
    job: &Claimed,
    state: &str,
    result: Option<Value>,
    template: &str,
    message: Option<String>,
) {
    let event = LiveEvent::Summary {
        summary_id: row.id.clone(),
        session_id: row.session_id.clone(),
        job_id: job.id.to_string(),
        state: state.to_owned(),
        template: Some(template.to_owned()),
        result,
        message,
    };
    let namespace = &ctx.dispatcher.config().namespace;
    match ctx.dispatcher.connection().await {
        Ok(mut conn) => {
            if let Err(e) = live::publish(&mut conn, namespace, &event).await {
                tracing::warn!(error = %e, job = %job.id, "could not publish the summary event");
            }
        }
        Err(e) => tracing::warn!(error = %e, job = %job.id, "could not publish the summary event"),
    }
}
