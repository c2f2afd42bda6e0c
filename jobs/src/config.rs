//! Settings every process that enqueues or runs jobs shares.

use std::time::Duration;

use domain::env::{Env, EnvError};

/// Above this many messages in one queue, Lua's `unpack` in apalis-redis's fetch fails (about
/// 8,000 due at once); the dispatcher keeps every queue well below it.
const REDIS_BACKLOG_LIMIT: usize = 7_000;

#[derive(Debug, Clone)]
pub struct JobsConfig {
    /// Prefix of every Redis key (`<namespace>:<kind>:...`), so several installations or test
    /// runs can share one Redis.
    pub namespace: String,
    /// At most this many messages wait in Redis per queue; the rest wait in PostgreSQL until the
    /// relay pushes them.
    pub redis_backlog: usize,
    /// How often the relay looks for rows to push, attempts to rescue and lost messages.
    pub relay_interval: Duration,
    /// A pushed message that has not started after this long is checked in Redis and pushed
    /// again if Redis no longer has it.
    pub stale_after: Duration,
    /// Time on top of a kind's attempt timeout before a running attempt counts as abandoned.
    pub lease_margin: Duration,
    /// How long Redis keeps an idempotency key of a pushed message.
    pub idempotency_ttl: Duration,
    /// A queue whose due jobs wait this long while none of its streams asks Redis for work is
    /// stalled: the watchdog restarts its streams and `/readyz` names it.
    pub stall_after: Duration,
    /// A pushed job still waiting after this long gets a second message, even if Redis still holds
    /// the first (the claim makes whichever comes second a no-op).
    pub repush_after: Duration,
}

impl Default for JobsConfig {
    fn default() -> Self {
        Self {
            namespace: "spreekkamer".to_owned(),
            redis_backlog: 5_000,
            relay_interval: Duration::from_secs(1),
            stale_after: Duration::from_secs(30),
            lease_margin: Duration::from_secs(10),
            idempotency_ttl: Duration::from_secs(24 * 3600),
            stall_after: Duration::from_secs(60),
            repush_after: Duration::from_secs(120),
        }
    }
}

impl JobsConfig {
    pub fn from_env(env: &Env) -> Result<Self, EnvError> {
        let d = Self::default();
        let namespace = env.string("APP_JOBS_NAMESPACE", &d.namespace);
        if namespace.contains(char::is_whitespace) || namespace.contains(':') {
            return Err(EnvError::new("APP_JOBS_NAMESPACE", "letters, digits, '-' and '_' only"));
        }
        let redis_backlog = env.parse("APP_JOBS_REDIS_BACKLOG", d.redis_backlog)?;
        if redis_backlog == 0 || redis_backlog > REDIS_BACKLOG_LIMIT {
            return Err(EnvError::new(
                "APP_JOBS_REDIS_BACKLOG",
                format!("between 1 and {REDIS_BACKLOG_LIMIT} (apalis-redis cannot fetch more due messages at once)"),
            ));
        }
        Ok(Self {
            namespace,
            redis_backlog,
            relay_interval: env.duration("APP_JOBS_RELAY_INTERVAL", d.relay_interval)?,
            stale_after: env.duration("APP_JOBS_STALE_AFTER", d.stale_after)?,
            lease_margin: env.duration("APP_JOBS_LEASE_MARGIN", d.lease_margin)?,
            idempotency_ttl: d.idempotency_ttl,
            stall_after: env.duration("APP_JOBS_STALL_AFTER", d.stall_after)?,
            repush_after: env.duration("APP_JOBS_REPUSH_AFTER", d.repush_after)?,
        })
    }

    /// The apalis queue of a job kind.
    pub fn queue(&self, kind: &str) -> String {
        format!("{}:{kind}", self.namespace)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backlog_stays_below_what_apalis_can_fetch() {
        let err = JobsConfig::from_env(&Env::from_pairs([("APP_JOBS_REDIS_BACKLOG", "9000")])).unwrap_err();
        assert_eq!(err.name, "APP_JOBS_REDIS_BACKLOG");
        assert!(JobsConfig::from_env(&Env::from_pairs([("APP_JOBS_NAMESPACE", "a:b")])).is_err());
        let ok = JobsConfig::from_env(&Env::from_pairs([("APP_JOBS_NAMESPACE", "test_1")])).unwrap();
        assert_eq!(ok.queue("email"), "test_1:email");
    }
}
