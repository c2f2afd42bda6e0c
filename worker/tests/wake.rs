//! A: apalis-redis tells no idle worker of a push; the dispatcher wakes them (`jobs::wake`). With
//! a poll interval of 30 s, a job pushed while its worker idles must still start within a second:
//! in the process that pushed it (`api all`), and in a worker process of its own, through Redis.

mod common;

use std::time::Duration;

use common::{Harness, signal};
use jobs::JobState;
use jobs::kinds::Probe;
use jobs::kinds::probe::ProbePayload;
use uuid::Uuid;

/// Far longer than the test waits: a job that starts in time was not found by a poll.
const POLL: &str = "30s";

/// Enqueues a probe as the api does and returns its id and the time from enqueue to its start.
async fn pushed_to_start(h: &Harness, timeout: Duration) -> (Uuid, Duration) {
    let sent_us = chrono::Utc::now().timestamp_micros() as u64;
    let id = h.enqueue(Probe::job(&ProbePayload { sent_us, ..Default::default() })).await;
    let job = h.wait_for_state(id, JobState::Succeeded, timeout).await;
    let latency_us = job.result.as_ref().and_then(|r| r["latencyUs"].as_u64()).expect("the probe's latency");
    (id, Duration::from_micros(latency_us))
}

/// Runs a warm-up job (a stream's first fetch at its start or a wake-up takes it, or else the
/// first poll: a worker process may still be starting), lets every stream settle into waiting,
/// then times three jobs pushed one after the other to an idle worker.
async fn idle_pushes_start_at_once(h: &Harness, what: &str) {
    let (warm, _) = pushed_to_start(h, Duration::from_secs(45)).await;
    assert_eq!(h.job(warm).await.attempts, 1);
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_millis(1_500)).await;
        let (id, waited) = pushed_to_start(h, Duration::from_secs(20)).await;
        assert!(
            waited < Duration::from_secs(1),
            "{what}: job {id} started {waited:?} after its push; without a wake-up it waits for the {POLL} poll"
        );
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn a_job_pushed_while_its_in_process_worker_idles_starts_without_waiting_for_a_poll(db: sqlx::PgPool) {
    let h = Harness::new(db).await;
    let worker = h.start_worker(&[("APP_WORKER_POLL_INTERVAL", POLL), ("APP_JOBS_RELAY_INTERVAL", POLL)]);
    idle_pushes_start_at_once(&h, "in process").await;
    worker.shutdown().await;
}

#[sqlx::test(migrations = "../migrations")]
async fn a_job_pushed_while_a_worker_process_idles_starts_without_waiting_for_a_poll(db: sqlx::PgPool) {
    let h = Harness::new(db).await;
    let mut worker = h.start_worker_process(&[("APP_WORKER_POLL_INTERVAL", POLL), ("APP_JOBS_RELAY_INTERVAL", POLL)]);
    idle_pushes_start_at_once(&h, "another process").await;
    signal(&worker, "TERM");
    assert!(worker.wait().unwrap().success());
}
