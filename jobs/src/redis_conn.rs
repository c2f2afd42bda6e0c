//! The Redis connection every process shares the configuration of.

use std::time::Duration;

use domain::env::{Env, EnvError, redact_url};
use secrecy::{ExposeSecret, SecretString};

pub const DEFAULT_REDIS_URL: &str = "redis://127.0.0.1:6379";

#[derive(Clone)]
pub struct RedisConfig {
    pub url: SecretString,
}

impl std::fmt::Debug for RedisConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisConfig").field("url", &redact_url(&self.url)).finish()
    }
}

impl RedisConfig {
    pub fn from_env(env: &Env) -> Result<Self, EnvError> {
        Ok(Self { url: env.secret_url("APP_REDIS_URL", DEFAULT_REDIS_URL)? })
    }

    pub fn client(&self) -> anyhow::Result<redis::Client> {
        redis::Client::open(self.url.expose_secret()).map_err(|e| anyhow::anyhow!("APP_REDIS_URL {}: {e}", redact_url(&self.url)))
    }

    pub fn redacted(&self) -> String {
        redact_url(&self.url)
    }
}

/// Answers whether Redis replies to PING within `timeout`.
pub async fn ping(client: &redis::Client, timeout: Duration) -> anyhow::Result<()> {
    let attempt = async {
        let mut conn = client.get_multiplexed_async_connection().await?;
        let pong: String = redis::cmd("PING").query_async(&mut conn).await?;
        anyhow::ensure!(pong == "PONG", "unexpected reply to PING: {pong}");
        Ok(())
    };
    tokio::time::timeout(timeout, attempt).await.map_err(|_| anyhow::anyhow!("no reply within {timeout:?}"))?
}

/// A self-reconnecting connection for queue traffic. Every reply may take up to 5 s (the driver's
/// default of 500 ms ends a worker's stream on one slow reply), and a connection attempt gives up
/// after 2 s so a request that enqueues never waits long on a Redis that is down.
pub async fn connection_manager(client: &redis::Client) -> redis::RedisResult<redis::aio::ConnectionManager> {
    let config = redis::aio::ConnectionManagerConfig::new()
        .set_response_timeout(Some(Duration::from_secs(5)))
        .set_connection_timeout(Some(Duration::from_secs(2)))
        .set_number_of_retries(2)
        .set_max_delay(Duration::from_millis(500));
    client.get_connection_manager_with_config(config).await
}
