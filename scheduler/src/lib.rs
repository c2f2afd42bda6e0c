//! The scheduler process. Enqueues the periodic sweeps on their cron schedules.
//!
//! It shares PostgreSQL and Redis with the api; any number of replicas may run.

use std::time::Duration;

use domain::db::DatabaseConfig;
use domain::env::{Env, EnvError};
use domain::telemetry::TelemetryConfig;
use jobs::RedisConfig;

#[derive(Debug, Clone)]
pub struct Config {
    pub database: DatabaseConfig,
    pub redis: RedisConfig,
    pub telemetry: TelemetryConfig,
}

impl Config {
    pub fn from_env(env: &Env) -> Result<Self, EnvError> {
        Ok(Self {
            database: DatabaseConfig::from_env(env)?,
            redis: RedisConfig::from_env(env)?,
            telemetry: TelemetryConfig::from_env(env)?,
        })
    }
}

/// Connects to PostgreSQL and Redis, then serves until `shutdown` resolves.
pub async fn run(config: Config, shutdown: impl std::future::Future<Output = ()>) -> anyhow::Result<()> {
    let pool = domain::db::connect(&config.database).await?;
    let redis = config.redis.client()?;
    jobs::ping(&redis, Duration::from_secs(5))
        .await
        .map_err(|e| anyhow::anyhow!("Redis at {} is not reachable: {e}", config.redis.redacted()))?;
    tracing::info!("scheduler started");
    shutdown.await;
    pool.close().await;
    tracing::info!("scheduler stopped");
    Ok(())
}
