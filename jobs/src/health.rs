//! Whether each queue is being served: the last time one of its streams asked Redis for work
//! (kept in Redis, so every process can read it) and how long its oldest due job has waited
//! (from PostgreSQL). A queue whose jobs wait while no stream has asked for work for
//! `APP_JOBS_STALL_AFTER` is stalled: the worker's watchdog restarts its streams, `/readyz`
//! names it and `/metrics` shows both figures.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

use chrono::Utc;
use sqlx::PgPool;

use crate::config::JobsConfig;

/// The Redis hash of the last fetch time (epoch milliseconds) per kind.
pub fn last_fetch_key(config: &JobsConfig) -> String {
    format!("{}:jobs:last_fetch", config.namespace)
}

/// One apalis stream as the watchdog sees it: when it last asked for work and the attempts it
/// runs.
#[derive(Debug, Default)]
pub struct StreamHealth {
    /// Epoch milliseconds of the last time the stream asked its backend for a message.
    last_poll_ms: AtomicU64,
    /// The attempts running, by token: when each started.
    started: Mutex<BTreeMap<u64, Instant>>,
    next: AtomicU64,
}

impl StreamHealth {
    pub fn new() -> Self {
        let health = Self::default();
        health.polled();
        health
    }

    /// The stream asked for work.
    pub fn polled(&self) {
        self.last_poll_ms.store(Utc::now().timestamp_millis().max(0) as u64, Ordering::Relaxed);
    }

    pub fn last_poll_ms(&self) -> u64 {
        self.last_poll_ms.load(Ordering::Relaxed)
    }

    /// Time since the stream last asked for work.
    pub fn idle(&self) -> Duration {
        let now = Utc::now().timestamp_millis().max(0) as u64;
        Duration::from_millis(now.saturating_sub(self.last_poll_ms()))
    }

    /// An attempt starts; it counts as running until the guard is dropped.
    pub fn attempt(&self) -> AttemptGuard<'_> {
        let token = self.next.fetch_add(1, Ordering::Relaxed);
        self.started.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(token, Instant::now());
        AttemptGuard { health: self, token }
    }

    pub fn in_flight(&self) -> usize {
        self.started.lock().unwrap_or_else(std::sync::PoisonError::into_inner).len()
    }

    /// Age of the oldest attempt running.
    pub fn oldest_attempt(&self) -> Option<Duration> {
        self.started.lock().unwrap_or_else(std::sync::PoisonError::into_inner).values().min().map(Instant::elapsed)
    }
}

pub struct AttemptGuard<'a> {
    health: &'a StreamHealth,
    token: u64,
}

impl Drop for AttemptGuard<'_> {
    fn drop(&mut self) {
        self.health.started.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(&self.token);
    }
}

/// Why a stream counts as stalled, or `None`. `slots` is the attempts it may run at once,
/// `attempt_limit` the longest an attempt of its kind may rightly take (timeout and margin), and
/// `oldest_waiting` the age of its kind's oldest due job that waits.
pub fn stalled(
    health: &StreamHealth,
    slots: usize,
    attempt_limit: Duration,
    stall_after: Duration,
    oldest_waiting: Option<Duration>,
) -> Option<String> {
    let waiting = oldest_waiting.filter(|age| *age >= stall_after)?;
    let idle = health.idle();
    if idle < stall_after {
        return None;
    }
    let in_flight = health.in_flight();
    if in_flight < slots {
        return Some(format!(
            "no fetch for {} s with {} of {slots} slots free while a job has waited {} s",
            idle.as_secs(),
            slots - in_flight,
            waiting.as_secs()
        ));
    }
    match health.oldest_attempt() {
        Some(age) if age > attempt_limit + stall_after => Some(format!(
            "every slot held, one for {} s (an attempt may take {} s), while a job has waited {} s",
            age.as_secs(),
            attempt_limit.as_secs(),
            waiting.as_secs()
        )),
        _ => None,
    }
}

/// The age of the oldest due job that waits to run, per kind (a message pushed or not). Rows
/// waiting for a push, however many, cost one index probe per kind; rows pushed and not started
/// are few (each queue's backlog limit) and read as they are.
pub async fn oldest_waiting(db: &PgPool) -> sqlx::Result<BTreeMap<String, Duration>> {
    // `kinds` is `queries/kinds_awaiting_push.sql`, and the predicate of `jobs_undispatched_idx`
    // stands in it word for word ([`crate::record::AWAITING_PUSH`])
    let rows = sqlx::query!(
        r#"with kinds as (
             with recursive k(kind) as (
                 (select kind from jobs where dispatched_at is null and state in ('queued', 'retrying') order by kind limit 1)
                 union all
                 select (select kind from jobs where dispatched_at is null and state in ('queued', 'retrying') and kind > k.kind order by kind limit 1)
                   from k where k.kind is not null)
             select kind from k where kind is not null)
         select kind as "kind!", extract(epoch from now() - min(run_at))::float8 as "waited!" from (
             select kinds.kind, (select min(run_at) from jobs where kind = kinds.kind and dispatched_at is null and state in ('queued', 'retrying')) as run_at
               from kinds
             union all
             select kind, run_at from jobs where dispatched_at is not null and state in ('queued', 'retrying')
         ) waiting
         where run_at <= now() group by kind"#,
    )
    .fetch_all(db)
    .await?;
    Ok(rows.into_iter().map(|r| (r.kind, Duration::from_secs_f64(r.waited.max(0.0)))).collect())
}

/// Keeps the later of the stored and the given fetch time (hashed once, sent by its digest).
static RECORD_FETCH: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        "local cur = redis.call('HGET', KEYS[1], ARGV[1])
         if not cur or tonumber(cur) < tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
         return 1",
    )
});

/// Records that a stream of `kind` asked for work at `at_ms` (keeps the latest).
pub async fn record_fetch(conn: &mut redis::aio::ConnectionManager, config: &JobsConfig, kind: &str, at_ms: u64) -> redis::RedisResult<()> {
    RECORD_FETCH.key(last_fetch_key(config)).arg(kind).arg(at_ms).invoke_async::<i64>(conn).await?;
    Ok(())
}

/// Last fetch time (epoch milliseconds) per kind.
pub async fn last_fetches(conn: &mut impl redis::aio::ConnectionLike, config: &JobsConfig) -> redis::RedisResult<BTreeMap<String, u64>> {
    redis::cmd("HGETALL").arg(last_fetch_key(config)).query_async(conn).await
}

/// The queues that are stalled: kind → why. A queue whose jobs wait longer than `stall_after`
/// while none of its streams asked for work for as long (or none ever did).
pub async fn stalled_queues(
    db: &PgPool,
    conn: &mut impl redis::aio::ConnectionLike,
    config: &JobsConfig,
) -> anyhow::Result<BTreeMap<String, String>> {
    let waiting = oldest_waiting(db).await?;
    let fetched = last_fetches(conn, config).await?;
    let now = Utc::now().timestamp_millis().max(0) as u64;
    let mut stalled = BTreeMap::new();
    for (kind, age) in waiting {
        crate::metrics::oldest_waiting(&kind, age);
        if age < config.stall_after {
            continue;
        }
        let idle = fetched.get(&kind).map(|at| Duration::from_millis(now.saturating_sub(*at)));
        match idle {
            Some(idle) if idle < config.stall_after => {}
            Some(idle) => {
                stalled.insert(kind, format!("stalled: a job has waited {} s, no fetch for {} s", age.as_secs(), idle.as_secs()));
            }
            None => {
                stalled.insert(kind, format!("stalled: a job has waited {} s, no worker has fetched", age.as_secs()));
            }
        }
    }
    for (kind, at) in fetched {
        crate::metrics::last_fetch(&kind, at);
    }
    Ok(stalled)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_is_stalled_only_when_it_stops_asking_while_jobs_wait() {
        let limit = Duration::from_secs(300);
        let after = Duration::from_secs(30);
        let health = StreamHealth::new();
        // asked just now
        assert!(stalled(&health, 2, limit, after, Some(Duration::from_secs(120))).is_none());
        health.last_poll_ms.store(health.last_poll_ms() - 60_000, Ordering::Relaxed);
        // nothing waits (long enough)
        assert!(stalled(&health, 2, limit, after, None).is_none());
        assert!(stalled(&health, 2, limit, after, Some(Duration::from_secs(5))).is_none());
        // free slots, no asking, a job waits
        let why = stalled(&health, 2, limit, after, Some(Duration::from_secs(120))).unwrap();
        assert!(why.contains("2 of 2 slots free"), "{why}");
        // every slot busy with attempts within their limit: busy, not stalled
        let _a = health.attempt();
        let _b = health.attempt();
        assert!(stalled(&health, 2, limit, after, Some(Duration::from_secs(120))).is_none());
        assert!(stalled(&health, 2, Duration::ZERO, Duration::ZERO, Some(Duration::from_secs(120))).is_some());
    }
}
