//! The relay: makes sure every waiting job has a message in Redis and every attempt an owner.
//!
//! Each tick it
//! 1. ends attempts whose worker vanished (lease run out): `retrying`, or `dead` if that was the
//!    last attempt;
//! 2. checks messages pushed long ago for jobs that have not started: if Redis no longer has the
//!    message (Redis restarted without its data, or apalis finished it without running it), the
//!    job waits for a push again; a job still waiting `APP_JOBS_REPUSH_AFTER` after its push gets
//!    a second message whatever Redis says (its first may sit with a stream that stopped
//!    fetching; whichever message comes second finds the job claimed and does nothing);
//! 3. pushes due jobs that wait for a push, within each queue's backlog limit (a job not yet
//!    tried only once its writer had [`WRITER_PUSHES_WITHIN`] to push it);
//! 4. updates the gauges (every [`GAUGE_EVERY`]): queue depth, relay backlog, dead jobs, each
//!    kind's oldest waiting job.
//!
//! Every worker process runs one; ticks of several relays are safe together (each row is claimed
//! by one `update`).

use std::time::Duration;

use uuid::Uuid;

use crate::dispatch::{Dispatcher, apalis_config};

const PUSH_BATCH: i64 = 1_000;

/// A job not yet tried is its writer's to push for this long after it was written: writers push
/// after commit, and the payment news holds a burst's syncs until the burst is answered
/// ([`crate::kinds::sync_payment::NEWS_HOLD_MAX`]). The relay pushes what a writer never pushed.
pub const WRITER_PUSHES_WITHIN: Duration = Duration::from_secs(1);

/// How often a relay sets the gauges. Their counts read every waiting row (each kind's oldest
/// job took 23 to 35 ms with 40,000 pushed jobs waiting), and a scrape comes every 15 s or so.
const GAUGE_EVERY: Duration = Duration::from_secs(5);

#[derive(Clone)]
pub struct Relay {
    dispatcher: Dispatcher,
    kinds: Vec<&'static str>,
    /// When the gauges were last set.
    gauged: std::sync::Arc<std::sync::Mutex<Option<std::time::Instant>>>,
}

/// What one tick did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tick {
    pub rescued: u64,
    pub redispatched: u64,
    pub pushed: u64,
}

impl Relay {
    /// A relay for the queues of `kinds` (the gauges cover those).
    pub fn new(dispatcher: Dispatcher, kinds: Vec<&'static str>) -> Self {
        Self { dispatcher, kinds, gauged: Default::default() }
    }

    /// Ticks every `interval` until `shutdown` resolves; while it finds work to push it ticks
    /// again after 50 ms, so a backlog in PostgreSQL drains as fast as the workers take it.
    pub async fn run(self, interval: Duration, shutdown: impl std::future::Future<Output = ()>) {
        tokio::pin!(shutdown);
        let mut wait = Duration::ZERO;
        loop {
            tokio::select! {
                () = &mut shutdown => return,
                () = tokio::time::sleep(wait) => {}
            }
            wait = match self.tick().await {
                Ok(tick) if tick.pushed > 0 => interval.min(Duration::from_millis(50)),
                Ok(_) => interval,
                Err(e) => {
                    tracing::warn!(error = %e, "job relay tick failed; retrying next tick");
                    interval
                }
            };
        }
    }

    pub async fn tick(&self) -> anyhow::Result<Tick> {
        let rescued = self.rescue().await?;
        // Redis may be down: rows then stay in PostgreSQL and the next tick tries again
        let redispatched = match self.find_lost().await {
            Ok(n) => n,
            Err(e) => {
                tracing::debug!(error = %e, "lost-message check skipped");
                0
            }
        };
        let pushed = self.push_due().await?;
        let now = std::time::Instant::now();
        let due = self.gauged.lock().expect("not poisoned").is_none_or(|at| now.duration_since(at) >= GAUGE_EVERY);
        if due {
            self.gauges().await?;
            *self.gauged.lock().expect("not poisoned") = Some(now);
        }
        crate::metrics::relay("rescued", rescued);
        crate::metrics::relay("redispatched", redispatched);
        crate::metrics::relay("pushed", pushed);
        Ok(Tick { rescued, redispatched, pushed })
    }

    async fn rescue(&self) -> sqlx::Result<u64> {
        let rows: Vec<(Uuid, String, String)> = sqlx::query!(
            "update jobs
                set state = case when attempts >= max_attempts then 'dead' else 'retrying' end,
                    last_error = 'De worker stopte tijdens poging ' || attempts || ' zonder die af te ronden.',
                    run_at = now(), dispatched_at = null, task_id = null, locked_by = null, lease_until = null,
                    finished_at = case when attempts >= max_attempts then now() end,
                    updated_at = now()
              where state = 'running' and lease_until < now()
              returning id, kind, state",
        )
        .fetch_all(self.dispatcher.db())
        .await?
        .into_iter()
        .map(|r| (r.id, r.kind, r.state))
        .collect();
        for (id, kind, state) in &rows {
            tracing::warn!(job.id = %id, job.kind = %kind, job.state = %state, "attempt abandoned by its worker");
            crate::metrics::finished(kind, state, Duration::ZERO);
        }
        Ok(rows.len() as u64)
    }

    async fn find_lost(&self) -> anyhow::Result<u64> {
        let overdue = self.repush_overdue().await?;
        Ok(overdue + self.find_missing().await?)
    }

    /// Jobs pushed more than `repush_after` ago that still wait: pushed again.
    async fn repush_overdue(&self) -> sqlx::Result<u64> {
        let after = self.dispatcher.config().repush_after.as_millis() as f64;
        let rows: Vec<(Uuid, String)> = sqlx::query!(
            "update jobs set dispatched_at = null, task_id = null
              where id in (select id from jobs
                            where dispatched_at is not null and state in ('queued', 'retrying')
                              and dispatched_at < now() - $1 * interval '1 millisecond'
                              and run_at < now() - $1 * interval '1 millisecond'
                            order by dispatched_at limit 500)
                and dispatched_at is not null and state in ('queued', 'retrying')
              returning id, kind",
            after,
        )
        .fetch_all(self.dispatcher.db())
        .await?
        .into_iter()
        .map(|r| (r.id, r.kind))
        .collect();
        // one line per sweep, not per job: a long backlog can bring hundreds at once
        if let Some((first, _)) = rows.first() {
            let mut kinds: Vec<&str> = rows.iter().map(|(_, kind)| kind.as_str()).collect();
            kinds.sort_unstable();
            kinds.dedup();
            tracing::warn!(count = rows.len(), kinds = ?kinds, first.job.id = %first, waited_s = self.dispatcher.config().repush_after.as_secs(), "pushed jobs still waiting; pushing them again");
        }
        Ok(rows.len() as u64)
    }

    async fn find_missing(&self) -> anyhow::Result<u64> {
        let stale = self.dispatcher.config().stale_after.as_millis() as f64;
        let candidates: Vec<(Uuid, String, String)> = sqlx::query!(
            r#"select id, kind, task_id as "task_id!" from jobs
              where dispatched_at is not null and state in ('queued', 'retrying')
                and dispatched_at < now() - $1 * interval '1 millisecond'
                and run_at < now() - $1 * interval '1 millisecond'
              order by dispatched_at limit 500"#,
            stale,
        )
        .fetch_all(self.dispatcher.db())
        .await?
        .into_iter()
        .map(|r| (r.id, r.kind, r.task_id))
        .collect();
        if candidates.is_empty() {
            return Ok(0);
        }
        let mut conn = self.dispatcher.connection().await?;
        // a message per task id: the jobs of a group share theirs
        let messages: std::collections::BTreeSet<(&str, &str)> =
            candidates.iter().map(|(_, kind, task_id)| (kind.as_str(), task_id.as_str())).collect();
        let mut pipe = redis::pipe();
        for (kind, task_id) in &messages {
            let config = apalis_config(self.dispatcher.config(), kind);
            pipe.hget(format!("{}:{task_id}", config.job_meta_hash()), "status");
        }
        let statuses: Vec<Option<String>> = pipe.query_async(&mut conn).await?;
        // Pending, Queued, Running and Failed (apalis retries it) are alive; a missing message
        // or one apalis finished (Done, Killed) will never start its jobs.
        let gone: std::collections::BTreeSet<&str> = messages
            .iter()
            .zip(statuses)
            .filter(|(_, status)| matches!(status.as_deref(), None | Some("Done") | Some("Killed")))
            .map(|((_, task_id), _)| *task_id)
            .collect();
        let lost: Vec<(Uuid, String)> = candidates
            .iter()
            .filter(|(_, _, task_id)| gone.contains(task_id.as_str()))
            .map(|(id, _, task_id)| (*id, task_id.clone()))
            .collect();
        if lost.is_empty() {
            return Ok(0);
        }
        let ids: Vec<Uuid> = lost.iter().map(|(id, _)| *id).collect();
        let task_ids: Vec<&str> = lost.iter().map(|(_, t)| t.as_str()).collect();
        let n = sqlx::query!(
            "update jobs j set dispatched_at = null, task_id = null
               from unnest($1::uuid[], $2::text[]) as t(id, task_id)
              where j.id = t.id and j.task_id = t.task_id and j.state in ('queued', 'retrying')",
            &ids,
            &task_ids as _,
        )
        .execute(self.dispatcher.db())
        .await?
        .rows_affected();
        tracing::warn!(count = n, "job messages lost in Redis; pushing them again");
        Ok(n)
    }

    async fn push_due(&self) -> sqlx::Result<u64> {
        // never null: the statement leaves the end of its recursion out
        let kinds: Vec<Option<String>> =
            sqlx::query_file_scalar!("queries/kinds_awaiting_push.sql").fetch_all(self.dispatcher.db()).await?;
        let mut total = 0;
        for kind in kinds.into_iter().flatten() {
            loop {
                // the predicate of `jobs_undispatched_idx` word for word ([`crate::record::AWAITING_PUSH`])
                let ids: Vec<Uuid> = sqlx::query_scalar!(
                    "select id from jobs where kind = $1 and dispatched_at is null and state in ('queued', 'retrying')
                        and run_at <= now() + interval '1 second'
                        and (attempts > 0 or created_at < now() - $3 * interval '1 millisecond')
                      order by run_at limit $2",
                    &kind,
                    PUSH_BATCH,
                    WRITER_PUSHES_WITHIN.as_secs_f64() * 1000.0,
                )
                .fetch_all(self.dispatcher.db())
                .await?;
                if ids.is_empty() {
                    break;
                }
                let pushed = match self.dispatcher.dispatch_kind(&kind, &ids).await {
                    Ok(n) => n,
                    Err(e) => {
                        tracing::debug!(error = %e, "relay could not push; Redis unavailable?");
                        return Ok(total);
                    }
                };
                total += pushed as u64;
                // the last rows, or the queue is full
                if ids.len() < PUSH_BATCH as usize || pushed < ids.len() {
                    break;
                }
            }
        }
        Ok(total)
    }

    async fn gauges(&self) -> sqlx::Result<()> {
        // the predicate of `jobs_undispatched_idx` word for word ([`crate::record::AWAITING_PUSH`])
        let backlog: i64 = sqlx::query_scalar!(
            r#"select count(*) as "count!" from jobs where dispatched_at is null and state in ('queued', 'retrying') and run_at <= now()"#
        )
        .fetch_one(self.dispatcher.db())
        .await?;
        crate::metrics::relay_backlog(backlog);
        let dead: Vec<(String, i64)> = sqlx::query!(r#"select kind, count(*) as "count!" from jobs where state = 'dead' group by kind"#)
            .fetch_all(self.dispatcher.db())
            .await?
            .into_iter()
            .map(|r| (r.kind, r.count))
            .collect();
        for kind in &self.kinds {
            let n = dead.iter().find(|(k, _)| k == kind).map_or(0, |(_, n)| *n);
            crate::metrics::dead(kind, n);
        }
        if let Ok(mut conn) = self.dispatcher.connection().await
            && let Err(e) = crate::health::stalled_queues(self.dispatcher.db(), &mut conn, self.dispatcher.config()).await
        {
            tracing::debug!(error = %e, "queue ages not measured");
        }
        for kind in &self.kinds {
            if let Ok((scheduled, active)) = self.dispatcher.backlog(kind).await {
                let queue = self.dispatcher.config().queue(kind);
                crate::metrics::queue_depth(&queue, "scheduled", scheduled);
                crate::metrics::queue_depth(&queue, "active", active);
            }
        }
        Ok(())
    }
}
