//! Job-system benchmark, run by `bench/jobs/run.sh` beside BullMQ and Celery on the same Redis.
//!
//! With the real worker (in this process) and real job records in a database of its own:
//! 1. enqueue N no-op `probe` jobs (rows written in bulk, messages pushed), then start the
//!    worker and time until all N have succeeded: throughput with job records;
//! 2. with the worker idle, enqueue SAMPLES jobs one at a time, 20 ms apart, each as the api
//!    does (a transaction, then the push), and read each one's enqueue-to-start latency.
//!
//! Prints one JSON line. Env: REDIS_URL, DATABASE_URL (a server where it may create and drop a
//! database), N, CONC, SAMPLES.

// mimalloc, as the worker binary (see worker/src/main.rs)
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use domain::env::Env;
use jobs::kinds::Probe;
use jobs::kinds::probe::ProbePayload;
use jobs::{Dispatcher, JobState, JobsConfig};
use sqlx::{Connection, PgConnection};

fn var(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_owned())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let redis_url = var("REDIS_URL", "redis://127.0.0.1:6379");
    let server = var("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres");
    let n: usize = var("N", "20000").parse()?;
    let concurrency = var("CONC", "100");
    let samples: usize = var("SAMPLES", "300").parse()?;

    // a database of its own
    let name = format!("spreekkamer_bench_{}", std::process::id());
    let (base, _) = server.rsplit_once('/').expect("DATABASE_URL with a database");
    let database_url = format!("{base}/{name}");
    let mut admin = PgConnection::connect(&server).await?;
    sqlx::query(&format!("create database {name}")).execute(&mut admin).await?;
    let result = run(&redis_url, &database_url, n, &concurrency, samples).await;
    sqlx::query(&format!("drop database if exists {name} with (force)")).execute(&mut admin).await?;
    let line = result?;
    println!("{line}");
    Ok(())
}

async fn run(redis_url: &str, database_url: &str, n: usize, concurrency: &str, samples: usize) -> anyhow::Result<serde_json::Value> {
    // APP_* variables of the environment (APP_WORKER_STREAMS, say) come last and win
    let env = Env::from_pairs(
        [
            ("APP_ENV", "development"),
            ("APP_DATABASE_URL", database_url),
            ("APP_DATABASE_MAX_CONNECTIONS", "40"),
            ("APP_REDIS_URL", redis_url),
            ("APP_JOBS_NAMESPACE", "bench"),
            ("APP_JOBS_PROBE", "on"),
            ("APP_WORKER_CONCURRENCY_PROBE", concurrency),
            ("APP_WORKER_HTTP_ADDR", "off"),
            ("APP_WORKER_QUEUES", "probe"),
            ("APP_LOG", "error"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .into_iter()
        .chain(std::env::vars().filter(|(k, _)| k.starts_with("APP_"))),
    );
    let config = worker::Config::from_env(&env)?;
    let succeeded = Arc::new(AtomicU64::new(0));
    metrics::set_global_recorder(Succeeded(succeeded.clone())).map_err(|_| anyhow::anyhow!("a metrics recorder was set before"))?;
    let db = domain::db::connect(&config.database).await?;
    domain::db::migrate(&db).await?;
    let dispatcher = Dispatcher::new(db.clone(), config.redis.client()?, JobsConfig::from_env(&env)?);

    // 1. throughput
    let started = Instant::now();
    for chunk in (0..n).collect::<Vec<_>>().chunks(5_000) {
        let batch: Vec<_> = chunk.iter().map(|_| Probe::job(&ProbePayload::default())).collect();
        let mut tx = db.begin().await?;
        let ids = jobs::enqueue_many(&mut tx, &batch).await?;
        tx.commit().await?;
        dispatcher.dispatch(&ids).await?;
    }
    let enqueue_per_s = n as f64 / started.elapsed().as_secs_f64();

    let (stop, rx) = tokio::sync::watch::channel(false);
    let started = Instant::now();
    // The drain is timed by the database's clock, from here to the last job's finished_at. Its
    // end is watched in this process, as BullMQ's harness counts its completed events: a count
    // over the jobs table every 250 ms took about 10 ms of PostgreSQL's CPU each time.
    let t0: chrono::DateTime<chrono::Utc> = sqlx::query_scalar("select clock_timestamp()").fetch_one(&db).await?;
    let cpu_before = cpu::Snapshot::take(redis_url).await?;
    let worker = tokio::spawn(worker::run(config, async move {
        let mut rx = rx;
        let _ = rx.wait_for(|s| *s).await;
    }));
    loop {
        let done = succeeded.load(Ordering::Relaxed);
        if done as usize >= n {
            break;
        }
        anyhow::ensure!(started.elapsed() < Duration::from_secs(600), "only {done} of {n} done after 600 s");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let (first, last): (chrono::DateTime<chrono::Utc>, chrono::DateTime<chrono::Utc>) =
        sqlx::query_as("select min(started_at), max(finished_at) from jobs").fetch_one(&db).await?;
    let drain_per_s = n as f64 / ((last - t0).num_microseconds().unwrap_or(1) as f64 / 1e6);
    // the worker's start (connections, streams) until its first claim, part of the drain's time
    let first_start_ms = (first - t0).num_microseconds().unwrap_or(0) as f64 / 1e3;
    let cpu_per_job = cpu::Snapshot::take(redis_url).await?.since(&cpu_before, n);

    // 2. idle enqueue-to-start latency
    tokio::time::sleep(Duration::from_secs(1)).await;
    let mut ids = Vec::with_capacity(samples);
    for _ in 0..samples {
        let sent_us = chrono::Utc::now().timestamp_micros() as u64;
        let mut tx = db.begin().await?;
        let id = jobs::enqueue(&mut tx, Probe::job(&ProbePayload { sent_us, ..Default::default() })).await?;
        tx.commit().await?;
        dispatcher.dispatch(&[id]).await?;
        ids.push(id);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut latencies: Vec<f64> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while latencies.len() < samples {
        anyhow::ensure!(Instant::now() < deadline, "latency samples did not finish");
        latencies = sqlx::query_scalar("select (result->>'latencyUs')::float8 / 1000 from jobs where id = any($1) and state = 'succeeded'")
            .bind(&ids)
            .fetch_all(&db)
            .await?;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    latencies.sort_by(f64::total_cmp);
    let pct = |p: f64| latencies[((latencies.len() as f64 - 1.0) * p).round() as usize];

    stop.send(true)?;
    worker.await??;
    db.close().await;
    Ok(serde_json::json!({
        "system": "spreekkamer",
        "version": format!("apalis-redis 1.0.0, job rows in PostgreSQL {}", pg_version(database_url).await?),
        "n": n,
        "concurrency": concurrency.parse::<u64>()?,
        "enqueue_per_s": (enqueue_per_s * 10.0).round() / 10.0,
        "drain_per_s": (drain_per_s * 10.0).round() / 10.0,
        "first_start_ms": first_start_ms.round(),
        "latency_p50_ms": (pct(0.50) * 1000.0).round() / 1000.0,
        "latency_p99_ms": (pct(0.99) * 1000.0).round() / 1000.0,
        "samples": samples,
        "cpu_us_per_job": cpu_per_job,
    }))
}

/// Counts the attempts that ended `succeeded` ([`jobs::metrics::FINISHED`], recorded once the
/// outcome is committed); every other metric goes nowhere.
struct Succeeded(Arc<AtomicU64>);

impl metrics::Recorder for Succeeded {
    fn describe_counter(&self, _: metrics::KeyName, _: Option<metrics::Unit>, _: metrics::SharedString) {}
    fn describe_gauge(&self, _: metrics::KeyName, _: Option<metrics::Unit>, _: metrics::SharedString) {}
    fn describe_histogram(&self, _: metrics::KeyName, _: Option<metrics::Unit>, _: metrics::SharedString) {}

    fn register_counter(&self, key: &metrics::Key, _: &metrics::Metadata<'_>) -> metrics::Counter {
        let succeeded = key.name() == jobs::metrics::FINISHED
            && key.labels().any(|l| l.key() == "outcome" && l.value() == JobState::Succeeded.as_str());
        if succeeded { metrics::Counter::from_arc(self.0.clone()) } else { metrics::Counter::noop() }
    }

    fn register_gauge(&self, _: &metrics::Key, _: &metrics::Metadata<'_>) -> metrics::Gauge {
        metrics::Gauge::noop()
    }

    fn register_histogram(&self, _: &metrics::Key, _: &metrics::Metadata<'_>) -> metrics::Histogram {
        metrics::Histogram::noop()
    }
}

/// CPU time spent during the drain, per job, by this process, the redis-server and every
/// PostgreSQL process (the whole server: a quiet machine is assumed, and BullMQ's figure for
/// PostgreSQL shows how quiet it was). Linux `/proc` and Redis `INFO cpu`; the same measure as
/// `cpuMeter` in `bench/jobs/harness.mjs`.
mod cpu {
    /// Seconds of CPU (user + system) so far.
    pub struct Snapshot {
        process: f64,
        redis: f64,
        postgres: f64,
    }

    impl Snapshot {
        pub async fn take(redis_url: &str) -> anyhow::Result<Self> {
            let mut conn = redis::Client::open(redis_url)?.get_multiplexed_async_connection().await?;
            let info: String = redis::cmd("INFO").arg("cpu").query_async(&mut conn).await?;
            let field = |name: &str| -> f64 {
                info.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(':')?.trim().parse().ok()).unwrap_or(0.0)
            };
            let mut postgres = 0.0;
            for entry in std::fs::read_dir("/proc")?.flatten() {
                if let Some((comm, secs)) = proc_cpu(&entry.path().join("stat"))
                    && comm == "postgres"
                {
                    postgres += secs;
                }
            }
            let process = proc_cpu(std::path::Path::new("/proc/self/stat")).map_or(0.0, |(_, s)| s);
            Ok(Self { process, redis: field("used_cpu_user") + field("used_cpu_sys"), postgres })
        }

        /// Microseconds per job since `before`, by process.
        pub fn since(&self, before: &Self, jobs: usize) -> serde_json::Value {
            let per_job = |now: f64, then: f64| ((now - then).max(0.0) * 1e6 / jobs as f64).round();
            serde_json::json!({
                "process": per_job(self.process, before.process),
                "redis": per_job(self.redis, before.redis),
                "postgres": per_job(self.postgres, before.postgres),
            })
        }
    }

    /// A process's command name and CPU seconds (utime + stime) from its `/proc/<pid>/stat`.
    fn proc_cpu(stat: &std::path::Path) -> Option<(String, f64)> {
        let text = std::fs::read_to_string(stat).ok()?;
        let (head, rest) = text.rsplit_once(')')?;
        let comm = head.split_once('(')?.1.to_owned();
        // after the name: state is field 3, utime 14 and stime 15 (clock ticks of 1/100 s)
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
        Some((comm, ticks / 100.0))
    }
}

async fn pg_version(url: &str) -> anyhow::Result<String> {
    let mut conn = PgConnection::connect(url).await?;
    let v: String = sqlx::query_scalar("show server_version").fetch_one(&mut conn).await?;
    Ok(v.split_whitespace().next().unwrap_or_default().to_owned())
}
