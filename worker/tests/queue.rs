//! The job system against real PostgreSQL and Redis: delivery latency, crashes, backlogs,
//! retries, de-duplication, Redis restarts and shutdown. Each test has its own database and its
//! own `redis-server`. The letters refer to the apalis-redis 1.0 behaviours the design works
//! around (docs/ARCHITECTURE.md, "Background jobs").

mod common;

use std::time::{Duration, Instant};

use common::{Harness, signal};
use jobs::kinds::Probe;
use jobs::kinds::probe::ProbePayload;
use jobs::{JobState, NewJob};
use sqlx::PgPool;
use uuid::Uuid;

fn probe(p: ProbePayload) -> NewJob {
    Probe::job(&p)
}

/// A: apalis-redis puts every push in its scheduled set and an idle worker would only look at
/// its next heartbeat (30 s); the worker polls instead.
#[sqlx::test(migrations = "../migrations")]
async fn an_idle_worker_starts_a_new_job_within_seconds(db: PgPool) {
    let h = Harness::new(db).await;
    let worker = h.start_worker(&[]);
    // let it settle into idling
    let warm = h.enqueue(probe(ProbePayload::default())).await;
    h.wait_for_state(warm, JobState::Succeeded, Duration::from_secs(20)).await;
    tokio::time::sleep(Duration::from_secs(2)).await;

    let sent = Instant::now();
    let id = h.enqueue(probe(ProbePayload::default())).await;
    let job = h.wait_for_state(id, JobState::Succeeded, Duration::from_secs(10)).await;
    let waited = sent.elapsed();
    assert!(waited < Duration::from_secs(5), "took {waited:?}; apalis's own heartbeat would have taken up to 30 s");
    assert_eq!(job.attempts, 1);
    worker.shutdown().await;
}

/// D and a worker that vanishes mid-job: its lease runs out, the relay hands the job to the next
/// worker (started at once under a new name, which apalis would refuse for a reused one), and
/// the side effect happens once.
#[sqlx::test(migrations = "../migrations")]
async fn a_worker_killed_mid_job_leaves_it_to_the_next_which_completes_it_once(db: PgPool) {
    let h = Harness::new(db).await;
    let mut first = h.start_worker_process(&[]);
    let id = h.enqueue(probe(ProbePayload { sleep_ms: 2_500, ..Default::default() })).await;
    h.wait_for_state(id, JobState::Running, Duration::from_secs(20)).await;
    signal(&first, "KILL");
    first.wait().unwrap();
    assert_eq!(h.effects_of(id), 0, "killed before its side effect");

    let mut second = h.start_worker_process(&[]);
    let job = h.wait_for_state(id, JobState::Succeeded, Duration::from_secs(40)).await;
    assert_eq!(job.attempts, 2, "the killed attempt counts");
    assert_eq!(h.effects_of(id), 1);
    signal(&second, "KILL");
    second.wait().unwrap();
}

/// B: a backlog of 10,000 due messages would make apalis-redis's fetch fail in Lua; a queue
/// holds at most its backlog limit of messages (here 100, of up to 32 jobs each), the rest waits
/// in PostgreSQL and the relay tops the queue up. G: nothing is left in flight afterwards.
#[sqlx::test(migrations = "../migrations")]
async fn ten_thousand_jobs_enqueued_while_no_worker_runs_all_complete(db: PgPool) {
    let h = Harness::new(db).await;
    let limit = [("APP_JOBS_REDIS_BACKLOG", "100")];
    let dispatcher = jobs::Dispatcher::new(
        h.db.clone(),
        redis::Client::open(h.redis.url()).unwrap(),
        jobs::JobsConfig::from_env(&domain::env::Env::from_pairs(h.vars(&limit))).unwrap(),
    );
    let batch: Vec<NewJob> = (0..10_000).map(|_| probe(ProbePayload::default())).collect();
    let ids = h.write(&batch).await;
    assert_eq!(ids.len(), 10_000);
    for chunk in ids.chunks(2_000) {
        dispatcher.dispatch(chunk).await.unwrap();
    }
    let (scheduled, active) = dispatcher.backlog("probe").await.unwrap();
    assert_eq!(scheduled + active, 100, "Redis holds up to its backlog limit");
    // a push of 2,000 makes 62 groups of 32 and one of 16: 63 messages, then 37 of the next
    let (messages, pushed): (i64, i64) =
        sqlx::query_as("select count(distinct task_id), count(*) from jobs where dispatched_at is not null")
            .fetch_one(&h.db)
            .await
            .unwrap();
    assert_eq!((messages, pushed), (100, 2_000 + 37 * jobs::dispatch::GROUP as i64), "a message per group");
    let waiting: i64 = sqlx::query_scalar("select count(*) from jobs where dispatched_at is null").fetch_one(&h.db).await.unwrap();
    assert_eq!(waiting, 10_000 - pushed, "the rest waits in PostgreSQL");

    let worker = h.start_worker(&limit);
    let deadline = Instant::now() + Duration::from_secs(240);
    while h.count(JobState::Succeeded).await < 10_000 {
        assert!(Instant::now() < deadline, "only {} of 10,000 done", h.count(JobState::Succeeded).await);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let twice: i64 = sqlx::query_scalar("select count(*) from jobs where attempts <> 1").fetch_one(&h.db).await.unwrap();
    assert_eq!(twice, 0);
    assert_eq!(h.distinct_effects(), 10_000, "each side effect once");
    worker.shutdown().await;
    let mut conn = h.redis.connection().await;
    let inflight: Vec<String> = redis::cmd("KEYS").arg(format!("{}:probe:inflight:*", h.namespace)).query_async(&mut conn).await.unwrap();
    for key in inflight {
        let n: u64 = redis::cmd("SCARD").arg(&key).query_async(&mut conn).await.unwrap();
        assert_eq!(n, 0, "{key} still holds finished messages");
    }
}

/// C: apalis-redis would retry a failed message up to 25 times on its own; attempts follow the
/// job's policy instead, and a permanent error is not retried.
#[sqlx::test(migrations = "../migrations")]
async fn a_failing_job_is_tried_exactly_its_attempts_and_a_permanent_error_once(db: PgPool) {
    let h = Harness::new(db).await;
    let worker = h.start_worker(&[]);
    let failing = h.enqueue(probe(ProbePayload { fail_attempts: 99, ..Default::default() }).max_attempts(3)).await;
    let permanent = h.enqueue(probe(ProbePayload { fail_attempts: 99, permanent: true, ..Default::default() }).max_attempts(3)).await;
    let panicking = h.enqueue(probe(ProbePayload { panic: true, ..Default::default() }).max_attempts(2)).await;
    let recovering = h.enqueue(probe(ProbePayload { fail_attempts: 2, ..Default::default() }).max_attempts(3)).await;

    let dead = h.wait_for_state(failing, JobState::Dead, Duration::from_secs(30)).await;
    assert_eq!(dead.attempts, 3);
    assert_eq!(dead.last_error.as_deref(), Some("probe fails attempt 3"));
    assert!(dead.finished_at.is_some());

    let failed = h.wait_for_state(permanent, JobState::Failed, Duration::from_secs(30)).await;
    assert_eq!(failed.attempts, 1);
    assert_eq!(failed.last_error.as_deref(), Some("probe fails attempt 1"));

    let panicked = h.wait_for_state(panicking, JobState::Dead, Duration::from_secs(30)).await;
    assert_eq!(panicked.attempts, 2);
    assert!(panicked.last_error.unwrap().contains("probe asked to panic"), "the panic is recorded");

    let ok = h.wait_for_state(recovering, JobState::Succeeded, Duration::from_secs(30)).await;
    assert_eq!(ok.attempts, 3);
    assert_eq!(ok.last_error.as_deref(), Some("probe fails attempt 2"), "the last error stays readable");

    // nothing comes back for another try
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(h.job(failing).await.attempts, 3);
    assert_eq!(h.job(permanent).await.attempts, 1);
    worker.shutdown().await;
}

/// F: apalis drops duplicate pushes only with an idempotency TTL, and says Ok either way; the
/// job's dedupe key and the dispatch claim make enqueueing and pushing twice harmless.
#[sqlx::test(migrations = "../migrations")]
async fn two_enqueues_with_the_same_key_run_once(db: PgPool) {
    let h = Harness::new(db).await;
    let first = h.enqueue(probe(ProbePayload::default()).dedupe_key("report-42")).await;
    let second = h.enqueue(probe(ProbePayload::default()).dedupe_key("report-42")).await;
    assert_eq!(first, second, "the second enqueue yields the first job");

    // pushing an already pushed job again does nothing
    let other = h.enqueue(probe(ProbePayload::default())).await;
    let ids = [other];
    let (a, b) = tokio::join!(h.dispatcher.dispatch(&ids), h.dispatcher.dispatch(&ids));
    assert_eq!(a.unwrap() + b.unwrap(), 0, "already pushed by enqueue");
    // the relay took its message for lost while it is still there, and two pushes race: one wins
    sqlx::query("update jobs set dispatched_at = null where id = $1").bind(other).execute(&h.db).await.unwrap();
    let (a, b) = tokio::join!(h.dispatcher.dispatch(&ids), h.dispatcher.dispatch(&ids));
    assert_eq!(a.unwrap() + b.unwrap(), 1);
    let (scheduled, active) = h.dispatcher.backlog("probe").await.unwrap();
    assert_eq!(scheduled + active, 3, "two messages for one job");

    let worker = h.start_worker(&[]);
    h.wait_for_state(first, JobState::Succeeded, Duration::from_secs(20)).await;
    h.wait_for_state(other, JobState::Succeeded, Duration::from_secs(20)).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(h.effects_of(first), 1);
    assert_eq!(h.effects_of(other), 1);
    let rows: i64 = sqlx::query_scalar("select count(*) from jobs").fetch_one(&h.db).await.unwrap();
    assert_eq!(rows, 2);
    worker.shutdown().await;
}

/// E and H: a slow Redis reply does not end the worker, and after a Redis restart (which lost
/// every message) workers resume on their own; a job enqueued while Redis was down, and one
/// whose message the restart lost, are both delivered.
#[sqlx::test(migrations = "../migrations")]
async fn workers_resume_after_a_redis_restart_and_nothing_enqueued_meanwhile_is_lost(db: PgPool) {
    let mut h = Harness::new(db).await;
    let worker = h.start_worker(&[]);
    let before = h.enqueue(probe(ProbePayload::default())).await;
    h.wait_for_state(before, JobState::Succeeded, Duration::from_secs(20)).await;

    // E: Redis stalls for 1.5 s (the driver's default limit is 500 ms)
    let mut conn = h.redis.connection().await;
    // (this connection gives up waiting for the reply after 500 ms; the server still sleeps)
    let _ = redis::cmd("DEBUG").arg("SLEEP").arg("1.5").query_async::<()>(&mut conn).await;
    let after_stall = h.enqueue(probe(ProbePayload::default())).await;
    h.wait_for_state(after_stall, JobState::Succeeded, Duration::from_secs(20)).await;

    // a job whose message sits in Redis, due in 3 s, when Redis goes away
    let later = h.enqueue(probe(ProbePayload::default()).run_at(chrono::Utc::now() + chrono::Duration::seconds(3))).await;
    assert!(h.job(later).await.state() == JobState::Queued);
    h.redis.stop();
    let during = h.enqueue(probe(ProbePayload::default())).await;
    assert!(
        sqlx::query_scalar::<_, bool>("select dispatched_at is null from jobs where id = $1").bind(during).fetch_one(&h.db).await.unwrap(),
        "Redis is down: the job waits in PostgreSQL"
    );
    tokio::time::sleep(Duration::from_secs(2)).await;
    h.redis.start_again().await;

    h.wait_for_state(during, JobState::Succeeded, Duration::from_secs(30)).await;
    h.wait_for_state(later, JobState::Succeeded, Duration::from_secs(30)).await;
    let fresh = h.enqueue(probe(ProbePayload::default())).await;
    h.wait_for_state(fresh, JobState::Succeeded, Duration::from_secs(30)).await;
    for id in [before, after_stall, during, later, fresh] {
        assert_eq!(h.effects_of(id), 1);
    }
    worker.shutdown().await;
}

/// SIGTERM: the worker stops taking jobs, finishes what it runs within the grace period and
/// exits; what outlasts the grace period is handed back and another worker runs it.
#[sqlx::test(migrations = "../migrations")]
async fn sigterm_finishes_running_jobs_or_hands_them_back(db: PgPool) {
    let h = Harness::new(db).await;
    let mut patient = h.start_worker_process(&[("APP_WORKER_SHUTDOWN_GRACE", "10s")]);
    let short = h.enqueue(probe(ProbePayload { sleep_ms: 1_500, ..Default::default() })).await;
    h.wait_for_state(short, JobState::Running, Duration::from_secs(20)).await;
    signal(&patient, "TERM");
    let status = patient.wait().unwrap();
    assert!(status.success(), "clean exit: {status:?}");
    let job = h.job(short).await;
    assert_eq!(job.state(), JobState::Succeeded, "finished before exiting");
    assert_eq!(h.effects_of(short), 1);

    let mut hasty = h.start_worker_process(&[("APP_WORKER_SHUTDOWN_GRACE", "300ms")]);
    let long = h.enqueue(probe(ProbePayload { sleep_ms: 4_000, ..Default::default() })).await;
    h.wait_for_state(long, JobState::Running, Duration::from_secs(20)).await;
    signal(&hasty, "TERM");
    assert!(hasty.wait().unwrap().success());
    let handed = h.job(long).await;
    assert_eq!(handed.state(), JobState::Queued, "handed back: {handed:?}");
    assert_eq!(handed.attempts, 0, "an attempt cut short by shutdown does not count");

    let worker = h.start_worker(&[]);
    let done = h.wait_for_state(long, JobState::Succeeded, Duration::from_secs(30)).await;
    assert_eq!(done.attempts, 1);
    assert_eq!(h.effects_of(long), 1);
    worker.shutdown().await;
}

/// Jobs pushed together travel as groups, one message each, and run within their kind's
/// concurrency: no more attempts at once than it allows, each job once.
#[sqlx::test(migrations = "../migrations")]
async fn jobs_pushed_together_run_as_groups_within_the_kinds_concurrency(db: PgPool) {
    let h = Harness::new(db).await;
    let batch: Vec<NewJob> = (0..40).map(|_| probe(ProbePayload { sleep_ms: 100, ..Default::default() })).collect();
    let ids = h.write(&batch).await;
    assert_eq!(h.dispatcher.dispatch(&ids).await.unwrap(), 40);
    let (scheduled, active) = h.dispatcher.backlog("probe").await.unwrap();
    assert_eq!(scheduled + active, 2, "40 jobs in two messages: 32 and 8");
    let groups: Vec<(String, i64)> =
        sqlx::query_as("select task_id, count(*) from jobs group by task_id order by 2 desc").fetch_all(&h.db).await.unwrap();
    assert_eq!(groups.iter().map(|(_, n)| *n).collect::<Vec<_>>(), [32, 8], "each row records its group's message");

    let worker = h.start_worker(&[("APP_WORKER_CONCURRENCY_PROBE", "4")]);
    let deadline = Instant::now() + Duration::from_secs(60);
    while h.count(JobState::Succeeded).await < 40 {
        assert!(Instant::now() < deadline, "only {} of 40 done", h.count(JobState::Succeeded).await);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    worker.shutdown().await;
    // a slot is held while the handler runs (not while its outcome is written): the handlers'
    // own start and end show the attempts at once
    let most: i64 = sqlx::query_scalar(
        "with ran as (select (result->>'startedUs')::int8 as s, (result->>'endedUs')::int8 as e from jobs)
         select max((select count(*) from ran o where o.s <= r.s and o.e > r.s)) from ran r",
    )
    .fetch_one(&h.db)
    .await
    .unwrap();
    assert!((1..=4).contains(&most), "{most} attempts at once with a concurrency of 4");
    let once: i64 = sqlx::query_scalar("select count(*) from jobs where attempts = 1").fetch_one(&h.db).await.unwrap();
    assert_eq!(once, 40);
    assert_eq!(h.distinct_effects(), 40, "each side effect once");
}

/// A worker stopping past its grace period hands back the attempt it runs and gives back the
/// jobs of its group it had not started; the next worker runs each once.
#[sqlx::test(migrations = "../migrations")]
async fn a_stopping_worker_gives_back_the_jobs_of_its_group_it_had_not_started(db: PgPool) {
    let h = Harness::new(db).await;
    let batch: Vec<NewJob> = (0..3).map(|_| probe(ProbePayload { sleep_ms: 3_000, ..Default::default() })).collect();
    let ids = h.write(&batch).await;
    let mut hasty = h.start_worker_process(&[("APP_WORKER_SHUTDOWN_GRACE", "300ms"), ("APP_WORKER_CONCURRENCY_PROBE", "1")]);
    h.dispatcher.dispatch(&ids).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while h.count(JobState::Running).await < 1 {
        assert!(Instant::now() < deadline, "no attempt started");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    signal(&hasty, "TERM");
    assert!(hasty.wait().unwrap().success());
    for id in &ids {
        let job = h.job(*id).await;
        assert_eq!(job.state(), JobState::Queued, "back in the queue: {job:?}");
        assert_eq!(job.attempts, 0, "no attempt counted: {job:?}");
    }
    let pushed: i64 = sqlx::query_scalar("select count(*) from jobs where dispatched_at is not null").fetch_one(&h.db).await.unwrap();
    assert_eq!(pushed, 3, "pushed again, not left for the relay's sweep");

    let worker = h.start_worker(&[]);
    for id in &ids {
        let done = h.wait_for_state(*id, JobState::Succeeded, Duration::from_secs(30)).await;
        assert_eq!(done.attempts, 1);
        assert_eq!(h.effects_of(*id), 1);
    }
    worker.shutdown().await;
}

/// I: queues carry the configured names, never a Rust type path.
#[sqlx::test(migrations = "../migrations")]
async fn queues_are_named_by_configuration(db: PgPool) {
    let h = Harness::new(db).await;
    h.enqueue(probe(ProbePayload::default())).await;
    let mut conn = h.redis.connection().await;
    let keys: Vec<String> = redis::cmd("KEYS").arg("*").query_async(&mut conn).await.unwrap();
    assert!(keys.iter().any(|k| k == &format!("{}:probe:scheduled", h.namespace)), "{keys:?}");
    assert!(keys.iter().all(|k| !k.contains("::")), "no type paths: {keys:?}");
    let unknown = Uuid::new_v4();
    assert_eq!(h.dispatcher.dispatch(&[unknown]).await.unwrap(), 0);
}

/// The relay finds the kinds with rows waiting for a push by index, not by reading every waiting
/// row: each such kind's due rows are pushed, a kind whose only rows are due later is left alone,
/// and the stall gauge gives each kind the age of its oldest due row, pushed or not.
#[sqlx::test(migrations = "../migrations")]
async fn the_relay_pushes_every_waiting_kind_and_the_gauge_ages_each_kinds_oldest_job(db: PgPool) {
    let h = Harness::new(db).await;
    let at = |secs: i64| chrono::Utc::now() + chrono::Duration::seconds(secs);
    // rows written a minute ago whose writer never pushed them: the relay's
    let write = |job: NewJob| {
        let db = h.db.clone();
        async move {
            let mut conn = db.acquire().await.unwrap();
            let id = jobs::enqueue_many(&mut conn, &[job]).await.unwrap()[0];
            sqlx::query("update jobs set created_at = now() - interval '1 minute' where id = $1")
                .bind(id)
                .execute(&mut *conn)
                .await
                .unwrap();
            id
        }
    };
    // written just now: its writer's to push, for a while
    let fresh = {
        let mut conn = h.db.acquire().await.unwrap();
        jobs::enqueue_many(&mut conn, &[probe(ProbePayload::default())]).await.unwrap()[0]
    };
    // waiting for a push: probes due 90 and 10 s ago, a prune due in an hour
    let old_probe = write(probe(ProbePayload::default()).run_at(at(-90))).await;
    let new_probe = write(probe(ProbePayload::default()).run_at(at(-10))).await;
    let later = write(jobs::kinds::PruneJobs::job().run_at(at(3_600))).await;
    // pushed a minute ago and not started: a summary due 120 s ago, whose message Redis lost
    let pushed = write(NewJob { kind: "summarise_consult", ..probe(ProbePayload::default()) }.run_at(at(-120))).await;
    sqlx::query("update jobs set dispatched_at = now() - interval '1 minute', task_id = 'gone' where id = $1")
        .bind(pushed)
        .execute(&h.db)
        .await
        .unwrap();

    let ages = jobs::health::oldest_waiting(&h.db).await.unwrap();
    let secs = |kind: &str| ages.get(kind).map(Duration::as_secs);
    assert!(matches!(secs("probe"), Some(89..=95)), "{ages:?}");
    assert!(matches!(secs("summarise_consult"), Some(119..=125)), "{ages:?}");
    assert_eq!(secs("prune_jobs"), None, "not due yet: {ages:?}");

    let relay = jobs::Relay::new(h.dispatcher.clone(), vec!["probe", "prune_jobs", "summarise_consult"]);
    let tick = relay.tick().await.unwrap();
    // the two due probes, and the summary whose message was lost
    assert_eq!((tick.redispatched, tick.pushed), (1, 3), "{tick:?}");
    for id in [old_probe, new_probe] {
        assert_eq!(h.job(id).await.state(), JobState::Queued);
        let pushed: bool =
            sqlx::query_scalar("select dispatched_at is not null from jobs where id = $1").bind(id).fetch_one(&h.db).await.unwrap();
        assert!(pushed, "probe {id} pushed");
    }
    let waits = |id: Uuid| {
        let db = h.db.clone();
        async move {
            sqlx::query_scalar::<_, bool>("select dispatched_at is null from jobs where id = $1").bind(id).fetch_one(&db).await.unwrap()
        }
    };
    assert!(waits(later).await, "the prune due in an hour waits for its time");
    assert!(waits(fresh).await, "the probe written just now waits for its writer's push");
    for (kind, messages) in [("probe", 2), ("summarise_consult", 1), ("prune_jobs", 0)] {
        let (scheduled, active) = h.dispatcher.backlog(kind).await.unwrap();
        assert_eq!(scheduled + active, messages, "{kind}");
    }
}
