//! Test support: a Redis server of the test's own (so it can be restarted), the worker in this
//! process or as the real binary, and waiting for a job's state.

#![allow(dead_code)]

pub mod redis_server;
pub mod smtp;

pub use redis_server::RedisServer;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use domain::env::Env;
use jobs::{Dispatcher, JobRecord, JobState, JobsConfig, NewJob};
use sqlx::PgPool;
use tokio::sync::watch;
use uuid::Uuid;

pub struct Harness {
    pub db: PgPool,
    pub redis: RedisServer,
    pub namespace: String,
    pub dir: PathBuf,
    pub dispatcher: Dispatcher,
}

impl Harness {
    pub async fn new(db: PgPool) -> Self {
        let redis = RedisServer::start().await;
        let namespace = format!("t{}", Uuid::new_v4().simple());
        let dir = std::env::temp_dir().join(format!("spreekkamer-{namespace}"));
        std::fs::create_dir_all(&dir).unwrap();
        let mut h = Self {
            db: db.clone(),
            redis,
            namespace,
            dir,
            dispatcher: Dispatcher::new(db.clone(), redis::Client::open("redis://127.0.0.1:1").unwrap(), JobsConfig::default()),
        };
        h.dispatcher = Dispatcher::new(db, redis::Client::open(h.redis.url()).unwrap(), h.jobs_config());
        h
    }

    /// The variables a worker of this test runs with, `extra` last.
    pub fn vars(&self, extra: &[(&str, &str)]) -> Vec<(String, String)> {
        let mut vars: Vec<(String, String)> = [
            ("APP_ENV", "development".into()),
            ("APP_DATABASE_URL", domain::db::url_of(&self.db)),
            ("APP_DATABASE_MAX_CONNECTIONS", "20".into()),
            ("APP_REDIS_URL", self.redis.url()),
            ("APP_JOBS_NAMESPACE", self.namespace.clone()),
            ("APP_JOBS_PROBE", "on".into()),
            ("APP_JOBS_PROBE_DIR", self.dir.display().to_string()),
            ("APP_MAIL_OUTBOX", self.dir.join("outbox").display().to_string()),
            ("APP_WORKER_HTTP_ADDR", "off".into()),
            ("APP_JOBS_RELAY_INTERVAL", "200ms".into()),
            ("APP_JOBS_STALE_AFTER", "2s".into()),
            ("APP_JOBS_LEASE_MARGIN", "1s".into()),
            ("APP_LOG", "warn".into()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect();
        vars.extend(extra.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())));
        vars
    }

    pub fn jobs_config(&self) -> JobsConfig {
        JobsConfig::from_env(&Env::from_pairs(self.vars(&[]))).unwrap()
    }

    pub fn worker_config(&self, extra: &[(&str, &str)]) -> worker::Config {
        worker::Config::from_env(&Env::from_pairs(self.vars(extra))).unwrap()
    }

    /// A worker in this process.
    pub fn start_worker(&self, extra: &[(&str, &str)]) -> InProcessWorker {
        let (stop, rx) = watch::channel(false);
        let config = self.worker_config(extra);
        let handle = tokio::spawn(worker::run(config, async move {
            let mut rx = rx;
            let _ = rx.wait_for(|s| *s).await;
        }));
        InProcessWorker { stop, handle: Some(handle) }
    }

    /// The real `worker` binary.
    pub fn start_worker_process(&self, extra: &[(&str, &str)]) -> WorkerProcess {
        WorkerProcess(
            Command::new(env!("CARGO_BIN_EXE_worker"))
                .env_clear()
                .envs(self.vars(extra))
                .env("PATH", std::env::var("PATH").unwrap_or_default())
                .stdout(Stdio::null())
                .spawn()
                .expect("worker binary"),
        )
    }

    /// Time passes for a killed worker process: the attempts it held have their leases run out,
    /// as they would after their timeout, so a relay hands them on. Repeated every 50 ms until
    /// the returned task is aborted, because a claim the process sent just before it died can
    /// still commit after the kill: PostgreSQL finishes the statement before it notices.
    pub fn expire_leases_of(&self, killed: &WorkerProcess) -> tokio::task::JoinHandle<()> {
        // `locked_by` is `<host>-<pid>-<ulid>`
        let owner = format!("-{}-[0-9A-Z]{{26}}$", killed.id());
        let db = self.db.clone();
        tokio::spawn(async move {
            loop {
                sqlx::query(
                    "update jobs set lease_until = now() - interval '1 second'
                      where state = 'running' and locked_by ~ $1 and lease_until > now()",
                )
                .bind(&owner)
                .execute(&db)
                .await
                .unwrap();
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
    }

    /// Writes the jobs in one transaction, as a bulk enqueue does, without pushing them.
    pub async fn write(&self, jobs: &[NewJob]) -> Vec<Uuid> {
        let mut tx = self.db.begin().await.unwrap();
        let ids = jobs::enqueue_many(&mut tx, jobs).await.unwrap();
        tx.commit().await.unwrap();
        ids
    }

    /// Writes the job and pushes it, as the api does.
    pub async fn enqueue(&self, job: NewJob) -> Uuid {
        let mut tx = self.db.begin().await.unwrap();
        let id = jobs::enqueue(&mut tx, job).await.unwrap();
        tx.commit().await.unwrap();
        let _ = self.dispatcher.dispatch(&[id]).await;
        id
    }

    pub async fn job(&self, id: Uuid) -> JobRecord {
        jobs::find(&self.db, id).await.unwrap().expect("job row")
    }

    /// Waits until `ok` holds for the job, failing with its last record after `timeout`.
    pub async fn wait_for(&self, id: Uuid, timeout: Duration, ok: impl Fn(&JobRecord) -> bool) -> JobRecord {
        let deadline = Instant::now() + timeout;
        loop {
            let job = self.job(id).await;
            if ok(&job) {
                return job;
            }
            assert!(Instant::now() < deadline, "job did not get there within {timeout:?}: {job:?}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    pub async fn wait_for_state(&self, id: Uuid, state: JobState, timeout: Duration) -> JobRecord {
        self.wait_for(id, timeout, |j| j.state() == state).await
    }

    pub async fn count(&self, state: JobState) -> i64 {
        sqlx::query_scalar("select count(*) from jobs where state = $1").bind(state.as_str()).fetch_one(&self.db).await.unwrap()
    }

    /// The probe's side effects: one `<job id> <attempt>` line per successful attempt.
    pub fn effects(&self) -> Vec<String> {
        std::fs::read_to_string(self.dir.join("effects.log")).map(|s| s.lines().map(str::to_owned).collect()).unwrap_or_default()
    }

    /// How many different side effects the probe had: as many as jobs when each ran once.
    pub fn distinct_effects(&self) -> usize {
        self.effects().into_iter().collect::<std::collections::BTreeSet<_>>().len()
    }

    pub fn effects_of(&self, id: Uuid) -> usize {
        let id = id.to_string();
        self.effects().iter().filter(|l| l.starts_with(&id)).count()
    }
}

impl Drop for Harness {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub struct InProcessWorker {
    stop: watch::Sender<bool>,
    handle: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
}

impl InProcessWorker {
    /// SIGTERM, as far as the worker can tell: stop, wait for it to finish.
    pub async fn shutdown(mut self) {
        let _ = self.stop.send(true);
        if let Some(handle) = self.handle.take() {
            tokio::time::timeout(Duration::from_secs(60), handle).await.expect("worker stops").unwrap().unwrap();
        }
    }
}

/// Sends a signal to a child process.
pub fn signal(child: &Child, signal: &str) {
    let status = Command::new("kill").args([&format!("-{signal}"), &child.id().to_string()]).status().unwrap();
    assert!(status.success());
}

/// A user row, for jobs caused by someone.
pub async fn user(db: &PgPool, sub: &str, email: &str) {
    let mut conn = db.acquire().await.unwrap();
    domain::users::upsert_from_token(
        &mut conn,
        &domain::users::TokenIdentity { sub: sub.into(), email: email.into(), preferred_username: "anna".into() },
    )
    .await
    .unwrap();
}

/// A worker process started by a test; killed when dropped, so a test that fails before it stops
/// the process leaves none behind (one would keep its test database busy and the test's output
/// open).
pub struct WorkerProcess(Child);

impl std::ops::Deref for WorkerProcess {
    type Target = Child;

    fn deref(&self) -> &Child {
        &self.0
    }
}

impl std::ops::DerefMut for WorkerProcess {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

impl Drop for WorkerProcess {
    fn drop(&mut self) {
        if matches!(self.0.try_wait(), Ok(None)) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}
