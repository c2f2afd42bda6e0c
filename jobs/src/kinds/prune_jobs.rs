//! `prune_jobs`: the nightly sweep that deletes finished job records, and apalis's own keys of
//! finished messages (`{queue}:done`, `{queue}:dead`, the meta hashes and payloads), older than
//! the retention.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::config::JobsConfig;
use crate::dispatch::apalis_config;
use crate::kind::{Job, JobContext, JobError, Policy};
use crate::record::{Claimed, NewJob};
use crate::told::{count, plural};

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct PrunePayload {}

pub struct PruneJobs {
    pub retention: Duration,
    pub config: JobsConfig,
}

impl PruneJobs {
    pub fn job() -> NewJob {
        NewJob::of::<PruneJobs>(&PrunePayload {})
    }
}

const DELETE_BATCH: i64 = 5_000;

impl Job for PruneJobs {
    const KIND: &'static str = "prune_jobs";
    const LABEL: &'static str = "Afgeronde taken opruimen";
    type Payload = PrunePayload;

    fn policy() -> Policy {
        Policy::SWEEP
    }

    fn summarise_result(result: &Value) -> Option<String> {
        Some(format!("{} opgeruimd", plural(count(result, "jobsDeleted"), "afgeronde taak", "afgeronde taken")))
    }

    async fn run(&self, ctx: &JobContext, _job: &Claimed, _payload: PrunePayload) -> Result<Value, JobError> {
        let retention_ms = self.retention.as_millis() as f64;
        let mut rows = 0;
        loop {
            let n = sqlx::query!(
                "delete from jobs where id in (
                    select id from jobs
                     where state in ('succeeded', 'failed', 'dead')
                       and finished_at < now() - $1 * interval '1 millisecond'
                     limit $2)",
                retention_ms,
                DELETE_BATCH,
            )
            .execute(&ctx.db)
            .await?
            .rows_affected();
            rows += n;
            if n < DELETE_BATCH as u64 {
                break;
            }
        }
        let mut keys = 0;
        let cutoff = chrono::Utc::now().timestamp() - self.retention.as_secs() as i64;
        let mut conn = ctx.dispatcher.connection().await.map_err(|e| JobError::Retryable(e.to_string()))?;
        for kind in crate::kinds::all() {
            let config = apalis_config(&self.config, kind);
            for set in [config.done_jobs_set(), config.dead_jobs_set()] {
                keys += prune_set(&mut conn, &config, &set, cutoff).await.map_err(|e| JobError::Retryable(format!("Redis: {e}")))?;
            }
        }
        Ok(json!({ "jobsDeleted": rows, "redisMessagesDeleted": keys }))
    }
}

/// Removes the messages in `set` that finished before `cutoff` (epoch seconds), with their meta
/// hash and payload, walking the set in pages so Redis is never blocked for long.
async fn prune_set(
    conn: &mut redis::aio::ConnectionManager,
    config: &apalis_redis::Config,
    set: &str,
    cutoff: i64,
) -> redis::RedisResult<u64> {
    let mut cursor: u64 = 0;
    let mut deleted = 0;
    loop {
        let (next, ids): (u64, Vec<String>) = redis::cmd("SSCAN").arg(set).arg(cursor).arg("COUNT").arg(500).query_async(conn).await?;
        if !ids.is_empty() {
            let mut pipe = redis::pipe();
            for id in &ids {
                pipe.hget(format!("{}:{id}", config.job_meta_hash()), "done_at");
            }
            let done_at: Vec<Option<i64>> = pipe.query_async(conn).await?;
            let old: Vec<&String> = ids.iter().zip(done_at).filter(|(_, at)| at.is_none_or(|at| at < cutoff)).map(|(id, _)| id).collect();
            if !old.is_empty() {
                let mut pipe = redis::pipe();
                for id in &old {
                    pipe.srem(set, *id).ignore();
                    pipe.del(format!("{}:{id}", config.job_meta_hash())).ignore();
                    pipe.hdel(config.job_data_hash(), *id).ignore();
                }
                pipe.query_async::<()>(conn).await?;
                deleted += old.len() as u64;
            }
        }
        cursor = next;
        if cursor == 0 {
            return Ok(deleted);
        }
    }
}
