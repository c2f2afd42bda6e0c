//! The worker process: runs the jobs of every kind (or of `APP_WORKER_QUEUES`) from their apalis
//! queues in Redis, and the relay that keeps PostgreSQL's job rows and Redis in step.
//!
//! Any number of replicas may run. Each queue gets its own apalis worker under a name unique to
//! this start, restarted with backoff when Redis goes away; on SIGTERM the workers stop fetching,
//! finish what they run within the grace period, and hand back the rest.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use apalis::prelude::{
    BoxDynError, Data, IntervalStrategy, PollSnapshot, PollStrategy, WorkerBuilder, WorkerBuilderExt, WorkerContext, WorkerError,
};
use apalis_redis::RedisStorage;
use domain::db::DatabaseConfig;
use domain::env::{Env, EnvError};
use domain::telemetry::TelemetryConfig;
use jobs::dispatch::{Dispatch, apalis_config};
use jobs::health::StreamHealth;
use jobs::kinds::{
    CheckUnpaid, CreateContact, CreateInvoice, CreditInvoice, ExpireSubscriptions, Probe, PruneJobs, PurgeConsults, ReconcilePayments,
    RenewSubscription, RenewSubscriptions, SendEmail, SummariseConsult, SyncPayment,
};
use jobs::mail::{MailConfig, Mailer};
use jobs::{Dispatcher, JobContext, JobsConfig, RedisConfig, Registry, Relay, Runner, Taken};
use tokio::sync::watch;

#[derive(Debug, Clone)]
pub struct Config {
    pub database: DatabaseConfig,
    pub redis: RedisConfig,
    pub telemetry: TelemetryConfig,
    pub jobs: JobsConfig,
    pub mail: MailConfig,
    /// `/healthz`, `/readyz` and `/metrics`; `None` in one-process mode (the api serves them).
    pub http_addr: Option<SocketAddr>,
    /// How often an idle stream asks Redis for work when no push woke it: the safety net for a
    /// missed wake-up (apalis otherwise waits for its heartbeat).
    pub poll_interval: Duration,
    /// After SIGTERM, how long running attempts may take before they are handed back.
    pub shutdown_grace: Duration,
    /// Only these kinds (empty: all).
    pub queues: Vec<String>,
    /// Per-kind concurrency overrides (`APP_WORKER_CONCURRENCY_<KIND>`).
    pub concurrency: BTreeMap<String, usize>,
    /// apalis workers per queue. One apalis-redis worker fetches and acknowledges one message
    /// after the other, which caps a queue at a few thousand jobs a second; several share the
    /// queue's concurrency between them.
    pub streams: usize,
    /// Finished jobs older than this are pruned by the nightly sweep.
    pub retention: Duration,
    /// Consult retention (`APP_CONSULT_RETENTION`), for the hourly purge.
    pub consults: domain::consults::ConsultConfig,
    /// The summariser of `summarise_consult` (`APP_LLM_*`; the rules engine by default).
    pub summariser: Summariser,
    /// The payment provider of `sync_payment` (`APP_MOLLIE_*`; the local checkout without a key).
    pub payments: integrations::payments::PaymentsConfig,
    /// The bookkeeping of the contact and invoice jobs (`APP_MONEYBIRD_*`; the local bookkeeping
    /// without a token, `APP_INVOICE_*`).
    pub bookkeeping: integrations::bookkeeping::BookkeepingConfig,
    /// When reconciliation asks the provider about a payment: `APP_RECONCILE_GRACE` (2 min, a new
    /// payment is left to its webhook), `APP_RECONCILE_MIN_GAP` (1 min between two questions),
    /// `APP_RECONCILE_PAID_EVERY` (1 day, paid payments).
    pub reconcile: domain::billing::sweeps::ReconcileTiming,
    /// `APP_PUBLIC_URL`: the local checkout's pages are below it.
    pub public_url: url::Url,
    /// Run the `probe` kind (tests and the benchmark), writing its `effects.log` here if set.
    pub probe: bool,
    pub probe_dir: Option<PathBuf>,
}

impl Config {
    pub fn from_env(env: &Env) -> Result<Self, EnvError> {
        let mut concurrency = BTreeMap::new();
        for kind in jobs::kinds::all() {
            let name = format!("APP_WORKER_CONCURRENCY_{}", kind.to_ascii_uppercase());
            if let Some(n) = env.get(&name) {
                let n: usize = n.parse().map_err(|e| EnvError::new(&name, format!("{e}")))?;
                if n == 0 {
                    return Err(EnvError::new(&name, "at least 1"));
                }
                concurrency.insert(kind.to_owned(), n);
            }
        }
        let http_addr = match env.get("APP_WORKER_HTTP_ADDR").as_deref() {
            Some("off") => None,
            _ => Some(env.parse("APP_WORKER_HTTP_ADDR", SocketAddr::from(([127, 0, 0, 1], 9101)))?),
        };
        // as the api: a worker of a production deployment never marks a renewal paid through the
        // local checkout, nor invoices as the example seller
        let (payments, bookkeeping) = integrations::money_settings(env)?;
        Ok(Self {
            database: DatabaseConfig::from_env(env)?,
            redis: RedisConfig::from_env(env)?,
            telemetry: TelemetryConfig::from_env(env)?,
            jobs: JobsConfig::from_env(env)?,
            mail: MailConfig::from_env(env)?,
            http_addr,
            poll_interval: env.duration("APP_WORKER_POLL_INTERVAL", Duration::from_secs(1))?,
            shutdown_grace: env.duration("APP_WORKER_SHUTDOWN_GRACE", Duration::from_secs(30))?,
            queues: env.list("APP_WORKER_QUEUES"),
            concurrency,
            streams: env.parse("APP_WORKER_STREAMS", 4)?.max(1),
            retention: env.duration("APP_JOBS_RETENTION", Duration::from_secs(14 * 86_400))?,
            consults: domain::consults::ConsultConfig::from_env(env)?,
            summariser: Summariser(
                integrations::summarise::config::from_lookup(|name| env.get(name)).map_err(|e| EnvError::new("APP_LLM_URL", e))?,
            ),
            payments,
            bookkeeping,
            reconcile: domain::billing::sweeps::ReconcileTiming {
                grace: env.duration("APP_RECONCILE_GRACE", domain::billing::sweeps::RECONCILE_GRACE)?,
                min_gap: env.duration("APP_RECONCILE_MIN_GAP", domain::billing::sweeps::RECONCILE_MIN_GAP)?,
                paid_every: env.duration("APP_RECONCILE_PAID_EVERY", domain::billing::sweeps::RECHECK_PAID_EVERY)?,
            },
            public_url: env.url("APP_PUBLIC_URL", "http://localhost:8080")?,
            probe: env.flag("APP_JOBS_PROBE", false)?,
            probe_dir: env.get("APP_JOBS_PROBE_DIR").map(PathBuf::from),
        })
    }
}

/// The configured summariser.
#[derive(Clone)]
pub struct Summariser(pub integrations::summarise::SharedSummariser);

impl std::fmt::Debug for Summariser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.name())
    }
}

/// Every job kind this build has, with its dependencies.
pub fn registry(config: &Config, db: &sqlx::PgPool) -> anyhow::Result<Registry> {
    let mailer = Arc::new(Mailer::new(config.mail.clone())?);
    tracing::info!(to = %mailer.describe(), "e-mail");
    let provider = config.payments.provider(db.clone(), &config.public_url);
    let books = config.bookkeeping.bookkeeping(db.clone(), &config.public_url);
    let mut registry = Registry::default()
        .with(SendEmail { mailer })
        .with(ExpireSubscriptions)
        .with(CheckUnpaid)
        .with(PruneJobs { retention: config.retention, config: config.jobs.clone() })
        .with(PurgeConsults { retention: config.consults.retention })
        .with(SummariseConsult { summariser: config.summariser.0.clone() })
        .with(SyncPayment { provider: provider.clone() })
        .with(ReconcilePayments { provider: provider.clone(), timing: config.reconcile })
        .with(RenewSubscriptions { provider: provider.clone() })
        .with(RenewSubscription { provider, webhook_url: config.payments.webhook_url(&config.public_url).to_string() })
        .with(CreateContact { bookkeeping: books.clone() })
        .with(CreateInvoice { bookkeeping: books.clone() })
        .with(CreditInvoice { bookkeeping: books.clone() });
    tracing::info!(provider = if config.payments.uses_local_checkout() { "local" } else { "mollie" }, "payments");
    tracing::info!(bookkeeping = books.name(), "invoices");
    tracing::info!(summariser = config.summariser.0.name(), "summaries");
    if config.probe {
        registry = registry.with(Probe { dir: config.probe_dir.clone() });
    }
    registry.only(&config.queues)
}

/// Connects to PostgreSQL and Redis (waiting for Redis if it is not up yet), then runs every
/// queue and the relay until `shutdown` resolves.
pub async fn run(config: Config, shutdown: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
    let db = domain::db::connect(&config.database).await?;
    let state_db = domain::db::connect_async_commit(&config.database).await?;
    let redis = config.redis.client()?;
    let registry = registry(&config, &db)?;
    let dispatcher = Dispatcher::new(db.clone(), redis.clone(), config.jobs.clone());
    let instance = format!("{}-{}-{}", hostname(), std::process::id(), ulid::Ulid::generate());
    let runner = Runner::new(
        JobContext { db: db.clone(), dispatcher: dispatcher.clone() },
        registry.clone(),
        state_db,
        instance.clone(),
        config.jobs.lease_margin,
    );

    let (stop_tx, stop_rx) = watch::channel(false);
    let mut tasks = tokio::task::JoinSet::new();
    // the kind's attempts at once in this process, over all its streams: a message may carry a
    // group of jobs
    let slots: BTreeMap<&'static str, Arc<tokio::sync::Semaphore>> = registry
        .kinds()
        .map(|kind| {
            let policy = registry.get(kind).expect("registered").policy();
            (kind, Arc::new(tokio::sync::Semaphore::new(config.concurrency.get(kind).copied().unwrap_or(policy.concurrency))))
        })
        .collect();
    let interactive = Yield::new(
        registry
            .kinds()
            .filter(|kind| registry.get(kind).expect("registered").policy().poll_interval.is_some())
            .map(|kind| slots[kind].clone()),
    );
    for kind in registry.kinds() {
        let policy = registry.get(kind).expect("registered").policy();
        let concurrency = config.concurrency.get(kind).copied().unwrap_or(policy.concurrency);
        let slots = slots[kind].clone();
        let yields = policy.yields.then(|| interactive.clone());
        // no more streams than attempts at once, each with its share of them
        let streams = config.streams.min(concurrency);
        for i in 0..streams {
            tasks.spawn(supervise(
                kind,
                concurrency / streams + usize::from(i < concurrency % streams),
                slots.clone(),
                yields.clone(),
                policy.timeout + config.jobs.lease_margin,
                policy.poll_interval.unwrap_or(config.poll_interval),
                config.shutdown_grace,
                runner.clone(),
                redis.clone(),
                config.jobs.clone(),
                stop_rx.clone(),
            ));
        }
    }
    // pushes by other processes wake this one's streams
    let wake = tokio::spawn(jobs::wake::listen(redis.clone(), config.jobs.namespace.clone(), stopped(stop_rx.clone())));
    let relay = Relay::new(dispatcher.clone(), registry.kinds().collect());
    let relay_task = tokio::spawn(relay.run(config.jobs.relay_interval, stopped(stop_rx.clone())));
    let ops = config
        .http_addr
        .map(|addr| tokio::spawn(jobs::ops::serve(addr, db.clone(), redis.clone(), config.jobs.clone(), stopped(stop_rx.clone()))));
    tracing::info!(worker = %instance, kinds = ?registry.kinds().collect::<Vec<_>>(), "worker started");

    shutdown.await;
    tracing::info!(grace_s = config.shutdown_grace.as_secs_f64(), "worker stopping: no new jobs, finishing running ones");
    let _ = stop_tx.send(true);
    while tasks.join_next().await.is_some() {}
    let _ = relay_task.await;
    let _ = wake.await;
    if let Some(ops) = ops {
        let _ = ops.await;
    }
    runner.hand_back().await?;
    db.close().await;
    tracing::info!("worker stopped");
    Ok(())
}

/// Resolves once `stop` turns true.
async fn stopped(mut stop: watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

/// The kind a queue's worker runs, its slots in this process, and what it yields to.
#[derive(Clone)]
struct Lane {
    kind: &'static str,
    slots: Arc<tokio::sync::Semaphore>,
    yields: Option<Yield>,
}

/// The slots of the interactive kinds (those someone waits for: a `poll_interval` of their
/// own) that paperwork yields to ([`jobs::Policy::yields`]): while one of them has every slot
/// in use, the yielding kinds run one attempt at a time in this process.
#[derive(Clone)]
struct Yield {
    interactive: Arc<Vec<Arc<tokio::sync::Semaphore>>>,
    one_at_a_time: Arc<tokio::sync::Semaphore>,
}

impl Yield {
    fn new(slots: impl Iterator<Item = Arc<tokio::sync::Semaphore>>) -> Self {
        Self { interactive: Arc::new(slots.collect()), one_at_a_time: Arc::new(tokio::sync::Semaphore::new(1)) }
    }

    fn busy(&self) -> bool {
        self.interactive.iter().any(|slots| slots.available_permits() == 0)
    }

    /// Returns at once while no interactive kind is full; otherwise once this attempt is the
    /// one paperwork attempt, whose permit it holds until it ends.
    async fn wait(&self) -> Option<tokio::sync::OwnedSemaphorePermit> {
        loop {
            if !self.busy() {
                return None;
            }
            tokio::select! {
                permit = self.one_at_a_time.clone().acquire_owned() => return permit.ok(),
                () = tokio::time::sleep(Duration::from_millis(20)) => {}
            }
        }
    }
}

/// The apalis handler: run the jobs the message names. It always answers apalis with success: a
/// message apalis counts as failed is retried by apalis-redis up to 25 times and then parked
/// with the status `Failed`, which the relay must take for alive. When the row could not be
/// read or written the job is still the row's: an unclaimed job waits `queued` with its message
/// gone (the relay finds the message done and pushes it again), a claimed one waits for its
/// lease to run out (the relay rescues it).
async fn handle(
    message: Dispatch,
    runner: Data<Runner>,
    lane: Data<Lane>,
    taken: Data<Taken>,
    health: Data<Arc<StreamHealth>>,
    worker: WorkerContext,
) -> Result<(), BoxDynError> {
    let kind = lane.kind;
    let attempt = health.attempt();
    let one_at_a_time = match lane.yields.as_ref() {
        Some(interactive) => interactive.wait().await,
        None => None,
    };
    let ended = runner.run_all(kind, message.jobs(), &lane.slots, &taken).await;
    drop(one_at_a_time);
    drop(attempt);
    let mut wedge = false;
    for (job_id, ended) in message.jobs().zip(ended) {
        let result = ended
            .unwrap_or_else(|e| {
                tracing::warn!(job.id = %job_id, job.kind = kind, error = %e, "job state not written; the relay will take the job up again");
                None
            })
            .and_then(|e| e.result);
        wedge |= result.and_then(|r| r.get("wedgeStream")?.as_bool()) == Some(true);
    }
    if kind == <Probe as jobs::Job>::KIND && wedge {
        // the probe's `wedge_stream`: this stream stops fetching without an error and without
        // ending, as the stalled streams did; only the watchdog brings the queue back
        let _ = worker.pause();
    }
    Ok(())
}

/// Asks Redis for work when a push wakes the stream ([`jobs::wake`]) and, as the safety net,
/// every `interval` when idle (apalis otherwise waits for its heartbeat); notes each time the
/// stream asks, for the watchdog.
struct WatchedPolling {
    interval: IntervalStrategy,
    health: Arc<StreamHealth>,
    notify: Arc<tokio::sync::Notify>,
    /// The next wake-up. It exists before each fetch starts, so a push made while the fetch runs
    /// (after it looked) still wakes the stream.
    woken: std::pin::Pin<Box<dyn Future<Output = ()> + Send + Sync>>,
}

impl WatchedPolling {
    fn new(interval: Duration, health: Arc<StreamHealth>, notify: Arc<tokio::sync::Notify>) -> Self {
        let woken = Self::next_wake(&notify);
        Self { interval: IntervalStrategy::new(interval), health, notify, woken }
    }

    fn next_wake(notify: &Arc<tokio::sync::Notify>) -> std::pin::Pin<Box<dyn Future<Output = ()> + Send + Sync>> {
        let notify = notify.clone();
        Box::pin(async move { notify.notified().await })
    }
}

impl PollStrategy for WatchedPolling {
    fn poll_drive(&mut self, cx: &mut std::task::Context<'_>, snapshot: &PollSnapshot) -> std::task::Poll<Option<()>> {
        // both register this task's waker: whichever comes first has the stream ask again
        let interval = self.interval.poll_drive(cx, snapshot);
        if self.woken.as_mut().poll(cx).is_ready() {
            self.woken = Self::next_wake(&self.notify);
            // waiting from now on, for a push during the fetch that follows
            let _ = self.woken.as_mut().poll(cx);
            return std::task::Poll::Ready(Some(()));
        }
        interval
    }

    fn on_poll(&mut self, snapshot: &PollSnapshot) {
        self.health.polled();
        self.interval.on_poll(snapshot);
    }
}

/// Resolves with the reason once the stream has stalled: it stopped asking Redis for work while
/// jobs of its kind wait (see [`jobs::health::stalled`]). Meanwhile it records the stream's last
/// fetch in Redis for `/readyz` and `/metrics` of every process.
async fn watchdog(kind: &'static str, health: Arc<StreamHealth>, slots: usize, attempt_limit: Duration, runner: Runner) -> String {
    let (db, dispatcher) = (&runner.context().db, &runner.context().dispatcher);
    let config = dispatcher.config().clone();
    let every = (config.stall_after / 4).clamp(Duration::from_millis(200), Duration::from_secs(10));
    let mut first = true;
    loop {
        if !std::mem::take(&mut first) {
            tokio::time::sleep(every).await;
        }
        if let Ok(mut conn) = dispatcher.connection().await
            && let Err(e) = jobs::health::record_fetch(&mut conn, &config, kind, health.last_poll_ms()).await
        {
            tracing::debug!(error = %e, "last fetch not recorded");
        }
        if health.idle() < config.stall_after {
            continue;
        }
        let oldest = match jobs::health::oldest_waiting(db).await {
            Ok(ages) => ages.get(kind).copied(),
            Err(e) => {
                tracing::debug!(error = %e, "stall check skipped");
                continue;
            }
        };
        if let Some(why) = jobs::health::stalled(&health, slots, attempt_limit, config.stall_after, oldest) {
            return why;
        }
    }
}

/// Runs one kind's apalis worker, starting a fresh one (new name, new connection) whenever the
/// last one ended on an error, with backoff, until `stop`. After `stop` the running attempts get
/// `grace` to finish; what is still running then is dropped here and handed back by [`run`].
#[allow(clippy::too_many_arguments)]
async fn supervise(
    kind: &'static str,
    concurrency: usize,
    slots: Arc<tokio::sync::Semaphore>,
    yields: Option<Yield>,
    attempt_limit: Duration,
    poll: Duration,
    grace: Duration,
    runner: Runner,
    redis: redis::Client,
    jobs_config: JobsConfig,
    stop: watch::Receiver<bool>,
) {
    let queue = jobs_config.queue(kind);
    let mut failures: u32 = 0;
    loop {
        if *stop.borrow() {
            return;
        }
        let ended = async {
            let conn = jobs::redis_conn::connection_manager(&redis).await.map_err(|e| e.to_string())?;
            let storage = RedisStorage::<Dispatch>::new(conn).with_config(apalis_config(&jobs_config, kind));
            // a name of its own per start: apalis refuses a name seen within one heartbeat
            let name = format!("{queue}-{}", ulid::Ulid::generate());
            let health = Arc::new(StreamHealth::new());
            let taken = Taken::default();
            let polling = WatchedPolling::new(poll, health.clone(), jobs::wake::notifier(&queue));
            let worker = WorkerBuilder::new(name.clone())
                .backend(apalis::prelude::BackendExt::poll_with_strategy(storage, polling))
                .concurrency(concurrency)
                .data(runner.clone())
                .data(Lane { kind, slots: slots.clone(), yields: yields.clone() })
                .data(taken.clone())
                .data(health.clone())
                .build(handle);
            let signal = {
                let stop = stop.clone();
                async move {
                    stopped(stop).await;
                    Ok::<(), WorkerError>(())
                }
            };
            let mut run = Box::pin(worker.run_until(signal));
            let ended = tokio::select! {
                result = &mut run => result.map_err(|e| e.to_string()),
                () = async { stopped(stop.clone()).await; tokio::time::sleep(grace).await } => {
                    tracing::warn!(%queue, "grace period over; handing back running jobs");
                    Ok(())
                }
                why = watchdog(kind, health, concurrency, attempt_limit, runner.clone()) => {
                    // a wedged stream never ends by itself: drop it and start a fresh one
                    tracing::warn!(%queue, worker = %name, reason = %why, "queue stream stalled; restarting it");
                    jobs::metrics::stalled_restart(&queue);
                    Err(format!("stalled: {why}"))
                }
            };
            // the stream is gone: what it took and never started goes back to the queue
            drop(run);
            if let Err(e) = runner.give_back(&taken).await {
                tracing::warn!(%queue, error = %e, "jobs taken by the stream not given back; the relay will push them again");
            }
            ended
        }
        .await;
        match ended {
            Ok(()) if *stop.borrow() => return,
            Ok(()) => failures = 0,
            Err(e) => {
                failures += 1;
                if *stop.borrow() {
                    return;
                }
                jobs::metrics::worker_restart(&queue);
                tracing::warn!(%queue, error = %e, failures, "queue worker ended; starting a new one");
            }
        }
        let backoff = Duration::from_millis(100u64.saturating_mul(1 << failures.min(6))).min(Duration::from_secs(5));
        let mut stop_wait = stop.clone();
        tokio::select! {
            () = tokio::time::sleep(backoff) => {}
            _ = stop_wait.wait_for(|s| *s) => return,
        }
    }
}

fn hostname() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "worker".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn paperwork_runs_one_at_a_time_while_an_interactive_kind_is_full() {
        let slots = Arc::new(tokio::sync::Semaphore::new(1));
        let interactive = Yield::new([slots.clone(), Arc::new(tokio::sync::Semaphore::new(4))].into_iter());
        // free slots: any number at once
        assert!(interactive.wait().await.is_none());
        assert!(interactive.wait().await.is_none());

        let running = slots.clone().acquire_owned().await.unwrap();
        let first = interactive.wait().await.expect("the one paperwork attempt");
        let second = tokio::spawn({
            let interactive = interactive.clone();
            async move { interactive.wait().await }
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(!second.is_finished(), "a second paperwork attempt started while the interactive kind was full");
        drop(first);
        let second = tokio::time::timeout(Duration::from_secs(60), second).await.expect("next once the first ended").unwrap();
        assert!(second.is_some());
        drop(second);

        // the interactive kind no longer full: a waiting attempt goes at once
        let held = interactive.wait().await.expect("still full");
        let third = tokio::spawn({
            let interactive = interactive.clone();
            async move { interactive.wait().await }
        });
        drop(running);
        let third = tokio::time::timeout(Duration::from_secs(60), third).await.expect("went once a slot was free").unwrap();
        assert!(third.is_none());
        drop(held);
    }
}
