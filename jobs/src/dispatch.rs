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

/// Most jobs one message carries.
///
/// Jobs of one kind pushed together (a bulk enqueue, the relay, a handed-back batch) travel in
/// groups: one message, so one push, fetch and acknowledgement in Redis for all of them, and
/// their claims and outcomes reach PostgreSQL together. A job pushed alone (the api's way) has a
/// message of its own. The worker runs a group's jobs side by side within its kind's concurrency.
pub const GROUP: usize = 32;

/// The apalis message: which jobs of the queue's kind to run. Everything else is in their rows.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Dispatch {
    pub job_id: Uuid,
    /// The other jobs of its group ([`GROUP`]); none for a job pushed alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more: Vec<Uuid>,
}

impl Dispatch {
    /// Every job the message names, the first first.
    pub fn jobs(&self) -> impl Iterator<Item = Uuid> + '_ {
        std::iter::once(self.job_id).chain(self.more.iter().copied())
    }
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
    /// Per kind, the last backlog read from Redis (when, messages) plus the messages this
    /// dispatcher pushed since: see [`Dispatcher::room`].
    readings: std::sync::Mutex<std::collections::HashMap<String, (std::time::Instant, u64)>>,
}

/// How long a backlog reading may stand in for asking Redis again.
const READING_FRESH: Duration = Duration::from_secs(1);

struct Claim {
    id: Uuid,
    kind: String,
    run_at: DateTime<Utc>,
    dispatch_count: i32,
    task_id: String,
}

/// The push's mark of [`Dispatcher::dispatch`], `queries/mark.sql` (a test explains it): $1 ids,
/// $2 the task id of each one's message.
#[cfg(test)]
pub(crate) const MARK: &str = include_str!("../queries/mark.sql");

impl Dispatcher {
    pub fn new(db: PgPool, redis: redis::Client, config: JobsConfig) -> Self {
        Self { inner: Arc::new(Inner { db, redis, conn: Mutex::new(None), config, readings: Default::default() }) }
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
        self.readings().insert(kind.to_owned(), (std::time::Instant::now(), scheduled + active));
        Ok((scheduled, active))
    }

    fn readings(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, (std::time::Instant, u64)>> {
        self.inner.readings.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Messages a kind's queue has room for. A reading of the last second that leaves the queue
    /// at most half full answers without asking Redis, but only for what keeps it so: a push of
    /// a job or two (the api's) costs no round trip, and other processes pushing meanwhile
    /// cannot take the queue past its limit on the strength of this process's reading.
    async fn room(&self, kind: &str) -> anyhow::Result<usize> {
        let limit = self.inner.config.redis_backlog as u64;
        let reading = self.readings().get(kind).copied();
        if let Some((at, messages)) = reading
            && at.elapsed() < READING_FRESH
            && messages < limit / 2
        {
            return Ok((limit / 2 - messages) as usize);
        }
        let (scheduled, active) = self.backlog(kind).await?;
        Ok(limit.saturating_sub(scheduled + active) as usize)
    }

    /// Pushes as many of these jobs of one kind as the queue has room for, asking Redis first, so
    /// a Redis that is down or a full queue costs no database writes (the relay's way).
    pub async fn dispatch_kind(&self, kind: &str, ids: &[Uuid]) -> anyhow::Result<usize> {
        let room = self.room(kind).await?;
        self.dispatch(&ids[..ids.len().min(room.saturating_mul(GROUP))]).await
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
        let task_ids = self.group(ids).await?;
        // Committed asynchronously (`set_config(..., true)` holds for this statement's own
        // transaction), so a push waits for no WAL flush: should PostgreSQL crash and lose the
        // mark, the relay pushes the job again and the claim makes the second message a no-op.
        // A row another push marked meanwhile drops out of its group. Its state is checked
        // `is true`, so the planner looks each id up by its key (see `record`).
        let claims: Vec<Claim> = sqlx::query_file_as!(Claim, "queries/mark.sql", ids, &task_ids).fetch_all(&self.inner.db).await?;
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

    /// The task id of each job's message, in the order of `ids`: jobs of one kind due in the same
    /// second (apalis schedules a message by the second) share one, [`GROUP`] at most, in the
    /// order given. Task ids rise in that order, so sorting them keeps it. A job alone needs no
    /// look at its row.
    async fn group(&self, ids: &[Uuid]) -> sqlx::Result<Vec<String>> {
        let mut rising = ulid::Generator::new();
        let mut next = || rising.generate().unwrap_or_else(|_| ulid::Ulid::generate()).to_string();
        if ids.len() == 1 {
            return Ok(vec![next()]);
        }
        // by the primary key alone: a condition beside it can lead the planner down a partial
        // index of every waiting row
        // whether it waits: the predicate of `jobs_undispatched_idx` ([`crate::record::AWAITING_PUSH`])
        let rows = sqlx::query!(
            r#"select id, kind, extract(epoch from run_at)::bigint as "at!",
                      (dispatched_at is null and state in ('queued', 'retrying')) as "waiting!"
                 from jobs where id = any($1)"#,
            ids,
        )
        .fetch_all(&self.inner.db)
        .await?;
        let rows: std::collections::HashMap<Uuid, (String, i64)> =
            rows.into_iter().filter(|r| r.waiting).map(|r| (r.id, (r.kind, r.at))).collect();
        // per kind and second: the open group's task id and its size
        let mut open: std::collections::HashMap<(&str, i64), (String, usize)> = std::collections::HashMap::new();
        Ok(ids
            .iter()
            .map(|id| match rows.get(id) {
                // not waiting (any longer): the mark passes it by
                None => next(),
                Some((kind, at)) => {
                    let group = open.entry((kind.as_str(), *at)).or_insert_with(|| (next(), 0));
                    if group.1 == GROUP {
                        *group = (next(), 0);
                    }
                    group.1 += 1;
                    group.0.clone()
                }
            })
            .collect())
    }

    /// Pushes as many of `claims` (a message per group) as the queue's backlog limit allows,
    /// removing them from the list. Returns the number of jobs pushed.
    async fn push_kind(&self, kind: &str, claims: &mut Vec<Claim>) -> anyhow::Result<usize> {
        let room = self.room(kind).await?;
        // a group's rows share its task id; task ids sort in the order they were made
        claims.sort_by(|a, b| a.task_id.cmp(&b.task_id).then(a.id.cmp(&b.id)));
        let mut groups: Vec<Vec<Claim>> = Vec::new();
        for claim in claims.drain(..) {
            match groups.last_mut() {
                Some(group) if group[0].task_id == claim.task_id => group.push(claim),
                _ => groups.push(vec![claim]),
            }
        }
        let now = groups.len().min(room);
        // whatever has no room waits for the relay
        claims.extend(groups.drain(now..).flatten());
        if now == 0 {
            return Ok(0);
        }
        let tasks = groups.iter().map(|group| {
            let head = &group[0];
            let task_id = head.task_id.parse::<ulid::Ulid>().map(TaskId::from_ulid).unwrap_or_else(|_| TaskId::from_string(&head.task_id));
            TaskBuilder::new(Dispatch { job_id: head.id, more: group[1..].iter().map(|c| c.id).collect() })
                .task_id(task_id)
                .run_at_timestamp(head.run_at.timestamp().max(0) as u64)
                // a second push of the same dispatch (the relay racing this one) is dropped
                .idempotency_key(format!("{}:{}", head.id, head.dispatch_count))
                .build()
        });
        let mut storage = self.storage(kind).await?;
        if let Err(e) = storage.push_all(futures::stream::iter(tasks.collect::<Vec<_>>())).await {
            claims.extend(groups.into_iter().flatten());
            return Err(anyhow::anyhow!("pushing to {}: {e}", self.inner.config.queue(kind)));
        }
        if let Some((_, messages)) = self.readings().get_mut(kind) {
            *messages += now as u64;
        }
        let jobs = groups.iter().map(Vec::len).sum();
        crate::metrics::pushed(kind, jobs as u64);
        let heads: Vec<&Claim> = groups.iter().map(|g| &g[0]).collect();
        self.wake(kind, &heads).await;
        Ok(jobs)
    }

    /// Wakes the streams of `kind` for the messages just pushed: at once for those due, in
    /// every worker process; when due for the others, in this one ([`crate::wake`]).
    async fn wake(&self, kind: &str, pushed: &[&Claim]) {
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
        sqlx::query!(
            "update jobs j set dispatched_at = null, task_id = null
               from unnest($1::uuid[], $2::text[]) as t(id, task_id)
              where j.id = t.id and j.task_id = t.task_id",
            &ids,
            &task_ids as _,
        )
        .execute(&self.inner.db)
        .await?;
        Ok(())
    }
}
