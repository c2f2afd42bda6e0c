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

/// The watchdog: both streams of a queue stop fetching (no error, no end, heartbeats going on, as
/// the summary streams did); the jobs that wait still complete, on fresh streams.
#[sqlx::test(migrations = "../migrations")]
async fn a_queue_whose_streams_stop_fetching_is_restarted_and_its_waiting_jobs_complete(db: PgPool) {
    let h = Harness::new(db).await;
    let worker = h.start_worker(&[
        ("APP_WORKER_CONCURRENCY_PROBE", "2"),
        ("APP_JOBS_STALL_AFTER", "2s"),
        // the relay's second push must not be what heals the queue here
        ("APP_JOBS_REPUSH_AFTER", "1h"),
    ]);
    let wedges = [
        h.enqueue(Probe::job(&ProbePayload { wedge_stream: true, ..Default::default() })).await,
        h.enqueue(Probe::job(&ProbePayload { wedge_stream: true, sleep_ms: 300, ..Default::default() })).await,
    ];
    for id in wedges {
        h.wait_for_state(id, JobState::Succeeded, Duration::from_secs(30)).await;
    }
    let mut conn = h.redis.connection().await;
    let workers_key = format!("{}:probe:workers", h.namespace);
    let before: Vec<String> = redis::cmd("ZRANGE").arg(&workers_key).arg(0).arg(-1).query_async(&mut conn).await.unwrap();

    let waiting: Vec<_> = enqueue_plain(&h, 5).await;
    for id in &waiting {
        let job = h.wait_for_state(*id, JobState::Succeeded, Duration::from_secs(60)).await;
        assert_eq!(job.attempts, 1);
        assert_eq!(h.effects_of(*id), 1);
    }
    let after: Vec<String> = redis::cmd("ZRANGE").arg(&workers_key).arg(0).arg(-1).query_async(&mut conn).await.unwrap();
    assert!(after.iter().any(|w| !before.contains(w)), "fresh streams took over: {before:?} then {after:?}");
    worker.shutdown().await;
}

async fn enqueue_plain(h: &Harness, n: usize) -> Vec<uuid::Uuid> {
    let mut ids = Vec::new();
    for _ in 0..n {
        ids.push(h.enqueue(Probe::job(&ProbePayload::default())).await);
    }
    ids
}

/// The relay: a job whose message Redis still reports alive but that never reaches a stream (it
/// sits with one that stopped fetching) gets a second message after `APP_JOBS_REPUSH_AFTER`.
#[sqlx::test(migrations = "../migrations")]
async fn a_pushed_job_that_waits_past_its_bound_is_pushed_again(db: PgPool) {
    let h = Harness::new(db).await;
    let id = h.enqueue(Probe::job(&ProbePayload::default())).await;
    // the message leaves the queue but its status stays alive (`Pending`), as with a message a
    // wedged stream holds
    let mut conn = h.redis.connection().await;
    let task_id: String = sqlx::query_scalar("select task_id from jobs where id = $1").bind(id).fetch_one(&h.db).await.unwrap();
    let removed: i64 =
        redis::cmd("ZREM").arg(format!("{}:probe:scheduled", h.namespace)).arg(&task_id).query_async(&mut conn).await.unwrap();
    assert_eq!(removed, 1);
    let worker = h.start_worker(&[("APP_JOBS_REPUSH_AFTER", "2s"), ("APP_JOBS_STALE_AFTER", "1h")]);
    let job = h.wait_for_state(id, JobState::Succeeded, Duration::from_secs(30)).await;
    assert_eq!(job.attempts, 1);
    assert_eq!(h.effects_of(id), 1);
    let pushes: i32 = sqlx::query_scalar("select dispatch_count from jobs where id = $1").bind(id).fetch_one(&h.db).await.unwrap();
    assert_eq!(pushes, 2, "pushed a second time");
    worker.shutdown().await;
}

/// `/readyz` (through `jobs::ops::readiness`, which the worker, the scheduler and the api serve)
/// names a queue whose jobs wait while nothing fetches, and `/metrics` carries each queue's
/// oldest waiting job and last fetch.
#[sqlx::test(migrations = "../migrations")]
async fn readiness_names_a_stalled_queue_and_metrics_show_its_ages(db: PgPool) {
    let h = Harness::new(db).await;
    // the process's recorder, before anything is recorded
    let handle = domain::telemetry::metrics_handle();
    let config = jobs::JobsConfig::from_env(&domain::env::Env::from_pairs(h.vars(&[("APP_JOBS_STALL_AFTER", "1s")]))).unwrap();
    let client = redis::Client::open(h.redis.url()).unwrap();
    let (ready, checks) = jobs::ops::readiness(&h.db, &client, &config).await;
    assert!(ready, "{checks:?}");

    // a job waits and no worker runs
    let id = h.enqueue(Probe::job(&ProbePayload::default())).await;
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let (ready, checks) = jobs::ops::readiness(&h.db, &client, &config).await;
    assert!(!ready);
    assert!(checks["queue:probe"].starts_with("stalled"), "{checks:?}");
    assert_eq!(checks["postgres"], "ok");
    let metrics = handle.render();
    assert!(metrics.contains("jobs_oldest_waiting_seconds{kind=\"probe\"}"), "{metrics}");

    let worker = h.start_worker(&[("APP_JOBS_STALL_AFTER", "1s")]);
    h.wait_for_state(id, JobState::Succeeded, Duration::from_secs(30)).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (ready, checks) = jobs::ops::readiness(&h.db, &client, &config).await;
        let metrics = handle.render();
        if ready && metrics.contains("jobs_last_fetch_timestamp_seconds{kind=\"probe\"}") {
            break;
        }
        assert!(Instant::now() < deadline, "not ready, or no last fetch: {checks:?}\n{metrics}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    worker.shutdown().await;
}

/// An error text with a NUL character (which PostgreSQL refuses in `text` and `jsonb`) used to
/// fail the whole outcome batch: every attempt in it lost its outcome. It is now written with the
/// NUL replaced, and the attempts beside it are recorded as usual.
#[sqlx::test(migrations = "../migrations")]
async fn an_error_with_a_nul_character_is_recorded_and_its_batch_neighbours_too(db: PgPool) {
    let h = Harness::new(db).await;
    let worker = h.start_worker(&[]);
    let mut plain = Vec::new();
    let mut nul = Vec::new();
    for i in 0..20 {
        if i % 4 == 0 {
            let p = ProbePayload { fail_attempts: 9, permanent: true, nul_in_error: true, ..Default::default() };
            nul.push(h.enqueue(Probe::job(&p)).await);
        } else {
            plain.push(h.enqueue(Probe::job(&ProbePayload::default())).await);
        }
    }
    for id in nul {
        let job = h.wait_for_state(id, JobState::Failed, Duration::from_secs(30)).await;
        assert_eq!(job.last_error.as_deref(), Some("probe fails attempt 1\u{FFFD}"));
        assert_eq!(job.attempts, 1);
    }
    for id in plain {
        let job = h.wait_for_state(id, JobState::Succeeded, Duration::from_secs(30)).await;
        assert_eq!(job.attempts, 1);
    }
    worker.shutdown().await;
}
