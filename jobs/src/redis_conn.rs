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
        redis::Client::open(self.url.expose_secret())
            .map_err(|e| anyhow::anyhow!("APP_REDIS_URL {}: {e}", redact_url(&self.url)))
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
