//! A queue that stops fetching while its jobs wait: the causes found, the watchdog that restarts
//! such a stream, and what `/readyz` and `/metrics` say about it.

mod common;

use std::time::{Duration, Instant};

use common::Harness;
use jobs::JobState;
use jobs::kinds::Probe;
use jobs::kinds::probe::ProbePayload;
use sqlx::PgPool;

/// Ages in seconds of the heartbeats of a queue's apalis workers.
async fn heartbeat_ages(h: &Harness, kind: &str) -> Vec<f64> {
    let mut conn = h.redis.connection().await;
    let workers: Vec<(String, f64)> = redis::cmd("ZRANGE")
        .arg(format!("{}:{kind}:workers", h.namespace))
        .arg(0)
        .arg(-1)
        .arg("WITHSCORES")
        .query_async(&mut conn)
        .await
        .unwrap();
    let now = chrono::Utc::now().timestamp() as f64;
    workers.into_iter().map(|(_, at)| now - at).collect()
}

/// apalis-redis heartbeats (and acknowledges) only while a stream holds no fetched message it has
/// not started. With 50 messages per fetch, a stream whose slots were busy went silent for as long
/// as its backlog took (here 17 s and more, past the 15 s after which its siblings take it for
/// dead); with every stream so busy the queue's heartbeats stopped altogether.
#[sqlx::test(migrations = "../migrations")]
async fn a_stream_with_every_slot_busy_keeps_its_heartbeat(db: PgPool) {
    let h = Harness::new(db).await;
    // two streams of one slot each
    let worker = h.start_worker(&[("APP_WORKER_CONCURRENCY_PROBE", "2")]);
    let mut ids = Vec::new();
    for _ in 0..12 {
        ids.push(h.enqueue(Probe::job(&ProbePayload { sleep_ms: 3_000, ..Default::default() })).await);
    }
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut oldest: f64 = 0.0;
    while h.count(JobState::Succeeded).await < 12 {
        assert!(Instant::now() < deadline, "the jobs did not complete");
        for age in heartbeat_ages(&h, "probe").await {
            oldest = oldest.max(age);
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    // heartbeat every 5 s; a second of slack for the clock's whole seconds
    assert!(oldest <= 11.0, "a stream went {oldest} s without a heartbeat");
    for id in ids {
        assert_eq!(h.effects_of(id), 1);
    }
    worker.shutdown().await;
}
