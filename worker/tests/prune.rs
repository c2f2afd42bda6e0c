//! The pruning sweep: finished job records and apalis's keys of finished messages go after the
//! retention; open jobs and recent ones stay.

mod common;

use std::time::Duration;

use common::Harness;
use jobs::JobState;
use jobs::kinds::probe::ProbePayload;
use jobs::kinds::{Probe, PruneJobs};
use sqlx::PgPool;

#[sqlx::test(migrations = "../migrations")]
async fn pruning_removes_finished_jobs_and_their_redis_keys_after_the_retention(db: PgPool) {
    let h = Harness::new(db).await;
    let worker = h.start_worker(&[("APP_JOBS_RETENTION", "2s")]);
    let old = h.enqueue(Probe::job(&ProbePayload::default())).await;
    let failed = h.enqueue(Probe::job(&ProbePayload { fail_attempts: 9, permanent: true, ..Default::default() })).await;
    h.wait_for_state(old, JobState::Succeeded, Duration::from_secs(20)).await;
    h.wait_for_state(failed, JobState::Failed, Duration::from_secs(20)).await;
    let waiting = h.enqueue(Probe::job(&ProbePayload::default()).run_at(chrono::Utc::now() + chrono::Duration::hours(1))).await;
    let mut conn = h.redis.connection().await;
    let done_set = format!("{}:probe:done", h.namespace);
    // apalis acknowledges a message after the runner has recorded its outcome
    assert_eq!(done_count(&mut conn, &done_set, 2).await, 2, "apalis keeps finished messages");

    tokio::time::sleep(Duration::from_millis(3_100)).await;
    let recent = h.enqueue(Probe::job(&ProbePayload::default())).await;
    h.wait_for_state(recent, JobState::Succeeded, Duration::from_secs(20)).await;
    assert_eq!(done_count(&mut conn, &done_set, 3).await, 3);
    let prune = h.enqueue(PruneJobs::job()).await;
    let job = h.wait_for_state(prune, JobState::Succeeded, Duration::from_secs(20)).await;
    let result = job.result.unwrap();
    assert_eq!(result["jobsDeleted"], 2, "{result}");
    assert_eq!(result["redisMessagesDeleted"], 2, "{result}");

    for id in [old, failed] {
        assert!(jobs::find(&h.db, id).await.unwrap().is_none());
    }
    for id in [waiting, recent] {
        assert!(jobs::find(&h.db, id).await.unwrap().is_some(), "open and recent jobs stay");
    }
    let after: u64 = redis::cmd("SCARD").arg(&done_set).query_async(&mut conn).await.unwrap();
    assert_eq!(after, 1, "the recent message's keys stay");
    let metas: Vec<String> = redis::cmd("KEYS").arg(format!("{}:probe:meta:*", h.namespace)).query_async(&mut conn).await.unwrap();
    assert_eq!(metas.len(), 2, "the waiting and the recent message");
    worker.shutdown().await;
}

/// The number of finished messages in `set` once it reaches `expected`, or after 10 s.
async fn done_count(conn: &mut redis::aio::MultiplexedConnection, set: &str, expected: u64) -> u64 {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let n: u64 = redis::cmd("SCARD").arg(set).query_async(conn).await.unwrap();
        if n >= expected || tokio::time::Instant::now() >= deadline {
            return n;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
