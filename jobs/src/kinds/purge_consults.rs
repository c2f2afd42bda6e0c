//! `purge_consults`: the hourly sweep that deletes consults, live sessions and summaries whose
//! retention has passed, and the results of summary jobs that old.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::kind::{Job, JobContext, JobError, Policy};
use crate::kinds::SummariseConsult;
use crate::record::{Claimed, NewJob};
use crate::told::{count, plural};

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct PurgePayload {}

pub struct PurgeConsults {
    /// `APP_CONSULT_RETENTION`.
    pub retention: Duration,
}

impl PurgeConsults {
    pub fn job() -> NewJob {
        NewJob::of::<PurgeConsults>(&PurgePayload {})
    }
}

impl Job for PurgeConsults {
    const KIND: &'static str = "purge_consults";
    const LABEL: &'static str = "Verlopen consulten verwijderen";
    type Payload = PurgePayload;

    fn policy() -> Policy {
        Policy::SWEEP
    }

    fn summarise_result(result: &Value) -> Option<String> {
        Some(format!("{} verwijderd", plural(count(result, "consults"), "verlopen consult", "verlopen consulten")))
    }

    async fn run(&self, ctx: &JobContext, _job: &Claimed, _payload: PurgePayload) -> Result<Value, JobError> {
        let purged = domain::consults::purge_expired(&ctx.db).await?;
        // A summary job's result names the summary and its consult, never their content; it is
        // cleared anyway once the summary is gone, so nothing points at deleted data.
        let jobs = sqlx::query!(
            "update jobs set result = null
              where kind = $1 and result is not null
                and created_at < now() - $2 * interval '1 millisecond'",
            <SummariseConsult as Job>::KIND,
            self.retention.as_millis() as f64,
        )
        .execute(&ctx.db)
        .await?
        .rows_affected();
        tracing::info!(consults = purged.consults, sessions = purged.sessions, summaries = purged.summaries, jobs, "consults purged");
        Ok(json!({ "consults": purged.consults, "sessions": purged.sessions, "summaries": purged.summaries, "jobResults": jobs }))
    }
}
