//! The scheduler process: enqueues the periodic sweeps on their cron schedules, in
//! Europe/Amsterdam time.
//!
//! Any number of replicas may run. A tick's job carries the key `sweep:<name>:<tick time>`, so
//! however many schedulers see the tick, one job exists. Each sweep's last enqueued tick is kept
//! in PostgreSQL: a scheduler that was down catches up on start with one run for the latest
//! missed tick (sweeps handle "everything older than", so one run covers them all). While Redis is
//! down the job waits in PostgreSQL and the workers' relay pushes it when Redis is back.

use std::net::SocketAddr;
use std::str::FromStr;
use std::time::Duration;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use domain::db::DatabaseConfig;
use domain::env::{Env, EnvError};
use domain::telemetry::TelemetryConfig;
use jobs::kinds::{CheckUnpaid, ExpireSubscriptions, PruneJobs, PurgeConsults, ReconcilePayments, RenewSubscriptions};
use jobs::{Dispatcher, JobsConfig, NewJob, RedisConfig};
use sqlx::PgPool;
use uuid::Uuid;

/// A periodic job. Later work adds its sweeps to [`sweeps`].
#[derive(Clone)]
pub struct Sweep {
    /// Stable name; `APP_SCHEDULE_<NAME>` overrides the schedule (`off` disables it).
    pub name: &'static str,
    /// Six fields with seconds first, e.g. `0 30 3 * * *` (every day at 03:30).
    pub default_cron: &'static str,
    pub job: fn() -> NewJob,
}

/// Every sweep the product runs.
pub fn sweeps() -> Vec<Sweep> {
    vec![
        Sweep { name: "prune_jobs", default_cron: "0 30 3 * * *", job: PruneJobs::job },
        Sweep { name: "purge_consults", default_cron: "0 15 * * * *", job: PurgeConsults::job },
        // just after midnight: yesterday was the last day of what expires
        Sweep { name: "expire_subscriptions", default_cron: "0 5 0 * * *", job: ExpireSubscriptions::job },
        // on the last day of a period, in the night: a failed charge leaves the day to fix it
        Sweep { name: "renew_subscriptions", default_cron: "0 0 2 * * *", job: RenewSubscriptions::job },
        // in the morning, so the e-mail reaches staff at work
        Sweep { name: "check_unpaid", default_cron: "0 0 7 * * *", job: CheckUnpaid::job },
        // every minute: a payment whose webhook was lost is found within a few minutes of its
        // grace (the job itself spaces out the questions about each payment)
        Sweep { name: "reconcile_payments", default_cron: "0 * * * * *", job: ReconcilePayments::job },
    ]
}

/// A sweep with its parsed schedule.
#[derive(Clone)]
pub struct Scheduled {
    pub sweep: Sweep,
    pub schedule: cron::Schedule,
}

#[derive(Clone)]
pub struct Config {
    pub database: DatabaseConfig,
    pub redis: RedisConfig,
    pub telemetry: TelemetryConfig,
    pub jobs: JobsConfig,
    pub http_addr: Option<SocketAddr>,
    pub timezone: Tz,
    /// How often the schedules are checked.
    pub tick: Duration,
    pub sweeps: Vec<Scheduled>,
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("database", &self.database)
            .field("redis", &self.redis)
            .field("timezone", &self.timezone)
            .field("sweeps", &self.sweeps.iter().map(|s| (s.sweep.name, s.schedule.to_string())).collect::<Vec<_>>())
            .finish()
    }
}

impl Config {
    pub fn from_env(env: &Env) -> Result<Self, EnvError> {
        let http_addr = match env.get("APP_SCHEDULER_HTTP_ADDR").as_deref() {
            Some("off") => None,
            _ => Some(env.parse("APP_SCHEDULER_HTTP_ADDR", SocketAddr::from(([127, 0, 0, 1], 9102)))?),
        };
        // the sweeps queue payment work: a scheduler of a production deployment refuses the
        // development payment and bookkeeping defaults as the api and the worker do
        integrations::money_settings(env)?;
        let timezone = env.string("APP_SCHEDULER_TIMEZONE", "Europe/Amsterdam");
        let timezone =
            Tz::from_str(&timezone).map_err(|_| EnvError::new("APP_SCHEDULER_TIMEZONE", format!("unknown time zone {timezone:?}")))?;
        let mut scheduled = Vec::new();
        for sweep in sweeps() {
            let name = format!("APP_SCHEDULE_{}", sweep.name.to_ascii_uppercase());
            let expression = env.string(&name, sweep.default_cron);
            if expression == "off" {
                continue;
            }
            let schedule = cron::Schedule::from_str(&expression)
                .map_err(|e| EnvError::new(&name, format!("not a cron expression ({e}): {expression:?}")))?;
            scheduled.push(Scheduled { sweep, schedule });
        }
        Ok(Self {
            database: DatabaseConfig::from_env(env)?,
            redis: RedisConfig::from_env(env)?,
            telemetry: TelemetryConfig::from_env(env)?,
            jobs: JobsConfig::from_env(env)?,
            http_addr,
            timezone,
            tick: env.duration("APP_SCHEDULER_TICK", Duration::from_secs(1))?,
            sweeps: scheduled,
        })
    }
}

/// Checks the schedules every `config.tick` until `shutdown` resolves.
pub async fn run(config: Config, shutdown: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
    let db = domain::db::connect(&config.database).await?;
    let redis = config.redis.client()?;
    let dispatcher = Dispatcher::new(db.clone(), redis.clone(), config.jobs.clone());
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let ops = config.http_addr.map(|addr| {
        let mut stop = stop_rx.clone();
        tokio::spawn(jobs::ops::serve(addr, db.clone(), redis.clone(), config.jobs.clone(), async move {
            let _ = stop.wait_for(|s| *s).await;
        }))
    });
    tracing::info!(sweeps = ?config.sweeps.iter().map(|s| s.sweep.name).collect::<Vec<_>>(), timezone = %config.timezone, "scheduler started");
    tokio::pin!(shutdown);
    let mut ticker = tokio::time::interval(config.tick);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            _ = ticker.tick() => {}
        }
        for sweep in &config.sweeps {
            if let Err(e) = check(&db, &dispatcher, sweep, config.timezone, Utc::now()).await {
                tracing::warn!(sweep = sweep.sweep.name, error = %e, "schedule check failed; retrying next tick");
            }
        }
    }
    let _ = stop_tx.send(true);
    if let Some(ops) = ops {
        let _ = ops.await;
    }
    db.close().await;
    tracing::info!("scheduler stopped");
    Ok(())
}

/// Enqueues the sweep's job if a tick fell due since the last one enqueued (the latest, when
/// several did). Returns the job of that tick. The first check of a new sweep only records now.
pub async fn check(
    db: &PgPool,
    dispatcher: &Dispatcher,
    scheduled: &Scheduled,
    tz: Tz,
    now: DateTime<Utc>,
) -> anyhow::Result<Option<Uuid>> {
    let name = scheduled.sweep.name;
    let last: Option<DateTime<Utc>> =
        sqlx::query_scalar!("select last_tick_at from schedule_ticks where sweep = $1", name).fetch_optional(db).await?;
    let Some(last) = last else {
        sqlx::query!("insert into schedule_ticks (sweep, last_tick_at) values ($1, $2) on conflict do nothing", name, now)
            .execute(db)
            .await?;
        return Ok(None);
    };
    let Some(tick) = latest_tick(&scheduled.schedule, tz, last, now) else {
        return Ok(None);
    };
    let mut tx = db.begin().await?;
    let job = (scheduled.sweep.job)().dedupe_key(format!("sweep:{name}:{}", tick.to_rfc3339()));
    let id = jobs::enqueue(&mut tx, job).await?;
    sqlx::query!("update schedule_ticks set last_tick_at = greatest(last_tick_at, $2), updated_at = now() where sweep = $1", name, tick)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    metrics::counter!("scheduler_ticks_total", "sweep" => name).increment(1);
    tracing::info!(sweep = name, tick = %tick.with_timezone(&tz), job.id = %id, "sweep enqueued");
    if let Err(e) = dispatcher.dispatch(&[id]).await {
        tracing::warn!(sweep = name, error = %e, "sweep not pushed; the relay will");
    }
    Ok(Some(id))
}

/// The last tick of `schedule` in `(after, now]`, in `tz`'s wall-clock time.
pub fn latest_tick(schedule: &cron::Schedule, tz: Tz, after: DateTime<Utc>, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    schedule.after(&after.with_timezone(&tz)).map(|t| t.with_timezone(&Utc)).take_while(|t| *t <= now).last()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn ticks_follow_amsterdam_wall_clock_time() {
        let daily = cron::Schedule::from_str("0 30 3 * * *").unwrap();
        let tz: Tz = "Europe/Amsterdam".parse().unwrap();
        // winter: 03:30 in Amsterdam is 02:30 UTC
        let t = latest_tick(&daily, tz, at("2026-01-10T00:00:00Z"), at("2026-01-10T12:00:00Z")).unwrap();
        assert_eq!(t, at("2026-01-10T02:30:00Z"));
        // summer: 01:30 UTC
        let t = latest_tick(&daily, tz, at("2026-07-10T00:00:00Z"), at("2026-07-10T12:00:00Z")).unwrap();
        assert_eq!(t, at("2026-07-10T01:30:00Z"));
        assert_eq!(tz.with_ymd_and_hms(2026, 7, 10, 3, 30, 0).unwrap().with_timezone(&Utc), t);
    }

    #[test]
    fn missed_ticks_coalesce_into_the_latest_and_none_is_due_twice() {
        let hourly = cron::Schedule::from_str("0 0 * * * *").unwrap();
        let tz: Tz = "Europe/Amsterdam".parse().unwrap();
        let t = latest_tick(&hourly, tz, at("2026-03-01T00:00:00Z"), at("2026-03-01T05:10:00Z")).unwrap();
        assert_eq!(t, at("2026-03-01T05:00:00Z"));
        assert_eq!(latest_tick(&hourly, tz, t, at("2026-03-01T05:59:59Z")), None);
    }

    #[test]
    fn a_bad_expression_names_its_variable() {
        let dev = ("APP_ENV", "development");
        let err = Config::from_env(&Env::from_pairs([dev, ("APP_SCHEDULE_PRUNE_JOBS", "every night")])).unwrap_err();
        assert_eq!(err.name, "APP_SCHEDULE_PRUNE_JOBS");
        let off = Config::from_env(&Env::from_pairs([dev, ("APP_SCHEDULE_PRUNE_JOBS", "off")])).unwrap();
        let names: Vec<&str> = off.sweeps.iter().map(|s| s.sweep.name).collect();
        assert_eq!(
            names,
            ["purge_consults", "expire_subscriptions", "renew_subscriptions", "check_unpaid", "reconcile_payments"],
            "only the sweep switched off is gone"
        );
    }

    #[test]
    fn production_refuses_the_development_payments_as_the_api_does() {
        let err = Config::from_env(&Env::from_pairs([("APP_ENV", "production")])).unwrap_err();
        assert_eq!(err.name, "APP_MOLLIE_API_KEY");
        // with a key, the local bookkeeping still needs the seller's own details
        let err = Config::from_env(&Env::from_pairs([("APP_MOLLIE_API_KEY", "live_x")])).unwrap_err();
        assert_eq!(err.name, "APP_INVOICE_SELLER_NAME", "{err}");
        let moneybird = [
            ("APP_MOLLIE_API_KEY", "live_x"),
            ("APP_MONEYBIRD_API_TOKEN", "t"),
            ("APP_MONEYBIRD_ADMINISTRATION_ID", "1"),
            ("APP_MONEYBIRD_FINANCIAL_ACCOUNT_ID", "2"),
        ];
        Config::from_env(&Env::from_pairs(moneybird)).unwrap();
    }
}
