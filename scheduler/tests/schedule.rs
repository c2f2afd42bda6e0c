//! The scheduler against real PostgreSQL and Redis.

use std::time::Duration;

use chrono::{DateTime, Timelike, Utc};
use domain::env::Env;
use jobs::Dispatcher;
use sqlx::PgPool;

fn config(db: &PgPool, namespace: &str, cron: &str) -> scheduler::Config {
    scheduler::Config::from_env(&Env::from_pairs([
        ("APP_ENV", "development".to_owned()),
        ("APP_DATABASE_URL", domain::db::url_of(db)),
        ("APP_JOBS_NAMESPACE", namespace.to_owned()),
        ("APP_SCHEDULER_HTTP_ADDR", "off".to_owned()),
        ("APP_SCHEDULER_TICK", "100ms".to_owned()),
        ("APP_SCHEDULE_PRUNE_JOBS", cron.to_owned()),
    ]))
    .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn two_schedulers_enqueue_each_tick_once(db: PgPool) {
    let namespace = format!("t{}", uuid::Uuid::new_v4().simple());
    let every_second = config(&db, &namespace, "* * * * * *");
    let (stop, rx) = tokio::sync::watch::channel(false);
    let run = |config: scheduler::Config| {
        let mut rx = rx.clone();
        tokio::spawn(scheduler::run(config, async move {
            let _ = rx.wait_for(|s| *s).await;
        }))
    };
    let a = run(every_second.clone());
    let b = run(every_second);
    tokio::time::sleep(Duration::from_millis(4_500)).await;
    stop.send(true).unwrap();
    a.await.unwrap().unwrap();
    b.await.unwrap().unwrap();

    let keys: Vec<String> =
        sqlx::query_scalar("select dedupe_key from jobs where kind = 'prune_jobs' order by dedupe_key").fetch_all(&db).await.unwrap();
    assert!(keys.len() >= 3, "ticks enqueued: {keys:?}");
    let ticks: Vec<DateTime<Utc>> = keys
        .iter()
        .map(|k| DateTime::parse_from_rfc3339(k.strip_prefix("sweep:prune_jobs:").unwrap()).unwrap().with_timezone(&Utc))
        .collect();
    for pair in ticks.windows(2) {
        assert_eq!((pair[1] - pair[0]).num_seconds(), 1, "one job per tick, none missed: {keys:?}");
    }
    // only this sweep's jobs: the minutely payments reconciliation may tick within the window
    let pushed: i64 = sqlx::query_scalar("select count(*) from jobs where kind = 'prune_jobs' and dispatched_at is not null")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(pushed, keys.len() as i64, "each pushed to Redis");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_tick_missed_while_down_is_caught_up_once(db: PgPool) {
    let hourly = config(&db, "unused", "0 0 * * * *");
    let sweep = &hourly.sweeps[0];
    // Redis is unreachable: the job waits in PostgreSQL for the workers' relay
    let dispatcher = Dispatcher::new(db.clone(), redis::Client::open("redis://127.0.0.1:1").unwrap(), hourly.jobs.clone());
    let now = Utc::now();
    let first = scheduler::check(&db, &dispatcher, sweep, hourly.timezone, now).await.unwrap();
    assert_eq!(first, None, "a new sweep starts counting from now");

    // the scheduler was down for three hours
    sqlx::query("update schedule_ticks set last_tick_at = $1").bind(now - chrono::Duration::hours(3)).execute(&db).await.unwrap();
    let id = scheduler::check(&db, &dispatcher, sweep, hourly.timezone, now).await.unwrap().expect("caught up");
    let again = scheduler::check(&db, &dispatcher, sweep, hourly.timezone, now).await.unwrap();
    assert_eq!(again, None);

    let (key, dispatched): (String, bool) =
        sqlx::query_as("select dedupe_key, dispatched_at is not null from jobs where id = $1").bind(id).fetch_one(&db).await.unwrap();
    let hour = now.with_minute(0).unwrap().with_second(0).unwrap().with_nanosecond(0).unwrap();
    assert_eq!(key, format!("sweep:prune_jobs:{}", hour.to_rfc3339()), "one run, for the latest missed tick");
    assert!(!dispatched, "Redis is down: waiting in PostgreSQL");
    let jobs: i64 = sqlx::query_scalar("select count(*) from jobs").fetch_one(&db).await.unwrap();
    assert_eq!(jobs, 1);
}
