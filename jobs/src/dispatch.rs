//! Pushing "run job <id>" messages to the apalis queues in Redis.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use apalis::prelude::{TaskBuilder, TaskId, TaskSink};
use apalis_redis::RedisStorage;
use chrono::{DateTime, Utc};
use redis::aio::ConnectionManager;
use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use tokio::sync::Mutex;
use uuid::Uuid;

use crate::config::JobsConfig;
use crate::record::NewJob;

/// The apalis message: which job to run. Everything else is in the job's row.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Dispatch {
    pub job_id: Uuid,
}

/// apalis-redis settings for one kind's queue, the same for pushing and for the workers.
pub fn apalis_config(config: &JobsConfig, kind: &str) -> apalis_redis::Config {
    apalis_redis::Config::default()
        // an explicit name: otherwise apalis names the queue after the Rust type path
        .queue(config.queue(kind))
        // without a TTL apalis deletes an idempotency key as soon as it is set
        .idempotency_ttl(Some(config.idempotency_ttl))
        // a worker that vanished has its fetched message handed to others after 30 s, not 300 s;
        // six missed beats, not three, so a process starved of CPU for 15 s (a loaded 2-core
        // machine) is not taken for dead by its own siblings, whose next poll then fails with
        // "worker not registered"
        .heartbeat_interval(Duration::from_secs(5))
        .missed_heartbeats(6)
        // one message per fetch: a stream asks only when it has a free slot, so it never holds a
        // message it cannot start. apalis-redis neither heartbeats nor acknowledges while a
        // fetched batch waits for slots: with 50 per fetch and slots busy with long attempts a
        // stream went silent until its siblings took it for dead (or, with every stream so
        // busy, until the attempts ended)
        .batch_size(1)
        // apalis's per-message lease runs `LREM` over the whole ready list for every message
        // (the bottleneck under load); the job row's lease does that work
        .lock_tasks(false)
        // nobody listens to apalis's pub/sub events
        .emit_events(false)
}

/// Pushes jobs' messages after their rows are committed. Cheap to clone; connects to Redis
/// lazily and again after Redis was away, so the api starts and enqueues with Redis down (the
/// relay pushes later).
#[derive(Clone)]
pub struct Dispatcher {
    inner: Arc<Inner>,
}

struct Inner {
    db: PgPool,
    redis: redis::Client,
    conn: Mutex<Option<ConnectionManager>>,
    config: JobsConfig,
}

#[derive(sqlx::FromRow)]
struct Claim {
    id: Uuid,
    kind: String,
    run_at: DateTime<Utc>,
    dispatch_count: i32,
    task_id: String,
}

impl Dispatcher {
    pub fn new(db: PgPool, redis: redis::Client, config: JobsConfig) -> Self {
        Self { inner: Arc::new(Inner { db, redis, conn: Mutex::new(None), config }) }
    }

    pub fn config(&self) -> &JobsConfig {
        &self.inner.config
    }

    pub fn db(&self) -> &PgPool {
        &self.inner.db
    }

    /// The shared queue connection, made on first use.
    pub async fn connection(&self) -> anyhow::Result<ConnectionManager> {
        let mut slot = self.inner.conn.lock().await;
        if let Some(conn) = slot.as_ref() {
            return Ok(conn.clone());
        }
        let conn = tokio::time::timeout(Duration::from_secs(3), crate::redis_conn::connection_manager(&self.inner.redis))
            .await
            .map_err(|_| anyhow::anyhow!("Redis did not answer within 3 s"))??;
        *slot = Some(conn.clone());
        Ok(conn)
    }

    /// The apalis storage of a kind's queue on the shared connection.
    pub async fn storage(&self, kind: &str) -> anyhow::Result<RedisStorage<Dispatch>> {
        Ok(RedisStorage::new(self.connection().await?).with_config(apalis_config(&self.inner.config, kind)))
    }

    /// Messages waiting in a kind's queue (scheduled and promoted).
    pub async fn backlog(&self, kind: &str) -> anyhow::Result<(u64, u64)> {
        let config = apalis_config(&self.inner.config, kind);
        let mut conn = self.connection().await?;
        let (scheduled, active): (u64, u64) =
            redis::pipe().zcard(config.scheduled_jobs_set()).llen(config.active_jobs_list()).query_async(&mut conn).await?;
        Ok((scheduled, active))
    }

    /// Pushes as many of these jobs of one kind as the queue has room for, asking Redis first, so
    /// a Redis that is down or a full queue costs no database writes (the relay's way).
    pub async fn dispatch_kind(&self, kind: &str, ids: &[Uuid]) -> anyhow::Result<usize> {
        let (scheduled, active) = self.backlog(kind).await?;
        let room = (self.inner.config.redis_backlog as u64).saturating_sub(scheduled + active) as usize;
        self.dispatch(&ids[..ids.len().min(room)]).await
    }

    /// Pushes jobs whose rows are committed. Should Redis not take them now, the relay pushes them
    /// later, so a failure is logged (naming `what`) and not returned.
    pub async fn push_committed(&self, ids: &[Uuid], what: &str) {
        if let Err(e) = self.dispatch(ids).await {
            tracing::warn!(jobs = ids.len(), error = %e, what, "jobs not pushed yet; the relay will");
        }
    }

    /// Writes one job on its own (no transaction of the caller's to join) and pushes it
    /// ([`Dispatcher::push_committed`]).
    pub async fn enqueue_and_push(&self, job: NewJob, what: &str) -> sqlx::Result<Uuid> {
        let mut conn = self.inner.db.acquire().await?;
        let id = crate::record::enqueue(&mut conn, job).await?;
        drop(conn);
        self.push_committed(&[id], what).await;
        Ok(id)
    }

    /// Pushes the messages of these jobs, if they still wait for one. Returns how many were
    /// pushed. Rows left behind (Redis down, a queue at its backlog limit) are the relay's.
    pub async fn dispatch(&self, ids: &[Uuid]) -> anyhow::Result<usize> {
        if ids.is_empty() {
            return Ok(0);
        }
        let task_ids: Vec<String> = ids.iter().map(|_| ulid::Ulid::generate().to_string()).collect();
        // Committed asynchronously (`set_config(..., true)` holds for this statement's own
        // transaction), so a push waits for no WAL flush: should PostgreSQL crash and lose the
        // mark, the relay pushes the job again and the claim makes the second message a no-op.
        let claims: Vec<Claim> = sqlx::query_as(
            "update jobs j
                set dispatched_at = now(), dispatch_count = j.dispatch_count + 1, task_id = t.task_id
               from unnest($1::uuid[], $2::text[]) as t(id, task_id),
                    (select set_config('synchronous_commit', 'off', true)) as async_commit
              where j.id = t.id and j.dispatched_at is null and j.state in ('queued', 'retrying')
              returning j.id, j.kind, j.run_at, j.dispatch_count, j.task_id",
        )
        .bind(ids)
        .bind(&task_ids)
        .fetch_all(&self.inner.db)
        .await?;
        let mut by_kind: BTreeMap<String, Vec<Claim>> = BTreeMap::new();
        for claim in claims {
            by_kind.entry(claim.kind.clone()).or_default().push(claim);
        }
        let mut pushed = 0;
        let mut first_error = None;
        for (kind, mut claims) in by_kind {
            match self.push_kind(&kind, &mut claims).await {
                Ok(n) => pushed += n,
                Err(e) => first_error = first_error.or(Some(e)),
            }
            // whatever was not pushed waits for the relay
            if !claims.is_empty() {
                self.release(&claims).await?;
            }
        }
        match first_error {
            Some(e) if pushed == 0 => Err(e),
            Some(e) => {
                tracing::warn!(error = %e, "some job messages were not pushed; the relay will");
                Ok(pushed)
            }
            None => Ok(pushed),
        }
    }

    /// Pushes as many of `claims` as the queue's backlog limit allows, removing them from the list.
    async fn push_kind(&self, kind: &str, claims: &mut Vec<Claim>) -> anyhow::Result<usize> {
        let (scheduled, active) = self.backlog(kind).await?;
        let room = (self.inner.config.redis_backlog as u64).saturating_sub(scheduled + active) as usize;
        let now = claims.len().min(room);
        if now == 0 {
            return Ok(0);
        }
        let batch: Vec<Claim> = claims.drain(..now).collect();
        let tasks = batch.iter().map(|c| {
            let task_id = c.task_id.parse::<ulid::Ulid>().map(TaskId::from_ulid).unwrap_or_else(|_| TaskId::from_string(&c.task_id));
            TaskBuilder::new(Dispatch { job_id: c.id })
                .task_id(task_id)
                .run_at_timestamp(c.run_at.timestamp().max(0) as u64)
                // a second push of the same dispatch (the relay racing this one) is dropped
                .idempotency_key(format!("{}:{}", c.id, c.dispatch_count))
                .build()
        });
        let mut storage = self.storage(kind).await?;
        if let Err(e) = storage.push_all(futures::stream::iter(tasks.collect::<Vec<_>>())).await {
            claims.extend(batch);
            return Err(anyhow::anyhow!("pushing to {}: {e}", self.inner.config.queue(kind)));
        }
        crate::metrics::pushed(kind, now as u64);
        self.wake(kind, &batch).await;
        Ok(now)
    }

    /// Wakes the streams of `kind` for the messages just pushed: at once for those due, in
    /// every worker process; when due for the others, in this one ([`crate::wake`]).
    async fn wake(&self, kind: &str, pushed: &[Claim]) {
        let queue = self.inner.config.queue(kind);
        let now = Utc::now();
        // apalis-redis schedules by the second: a message is due from the start of its second
        let later: std::collections::BTreeSet<i64> =
            pushed.iter().map(|c| c.run_at.timestamp()).filter(|at| *at > now.timestamp() && *at - now.timestamp() <= 3_600).collect();
        for at in later {
            let delay = Duration::from_millis((at * 1_000 - now.timestamp_millis()).max(0) as u64 + 5);
            crate::wake::wake_local_at(&queue, delay);
        }
        if pushed.iter().any(|c| c.run_at.timestamp() <= now.timestamp()) {
            crate::wake::wake_local(&queue);
            let published = match self.connection().await {
                Ok(mut conn) => crate::wake::publish(&mut conn, &self.inner.config.namespace, kind).await.map_err(anyhow::Error::from),
                Err(e) => Err(e),
            };
            if let Err(e) = published {
                tracing::debug!(%queue, error = %e, "wake-up not published; other workers find the job on their next poll");
            }
        }
    }

    /// Marks claimed rows as waiting for a push again.
    async fn release(&self, claims: &[Claim]) -> sqlx::Result<()> {
        let ids: Vec<Uuid> = claims.iter().map(|c| c.id).collect();
        let task_ids: Vec<&str> = claims.iter().map(|c| c.task_id.as_str()).collect();
        sqlx::query(
            "update jobs j set dispatched_at = null, task_id = null
               from unnest($1::uuid[], $2::text[]) as t(id, task_id)
              where j.id = t.id and j.task_id = t.task_id",
        )
        .bind(&ids)
        .bind(&task_ids)
        .execute(&self.inner.db)
        .await?;
        Ok(())
    }
}
