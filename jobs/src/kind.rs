//! What a job kind is: a stable name, an ids-only payload, a handler and a policy.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use sqlx::PgPool;

use crate::dispatch::Dispatcher;
use crate::record::{Claimed, JobState, NewJob};
use crate::told::{Names, Wanted};

/// How a kind is run and retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// Attempts in all, the first included.
    pub max_attempts: u32,
    /// Wait before the second attempt; it doubles per attempt up to `backoff_max`.
    pub backoff: Duration,
    pub backoff_max: Duration,
    /// Limit of one attempt; an attempt that takes longer counts as failed.
    pub timeout: Duration,
    /// Attempts of this kind one worker process runs at once (`APP_WORKER_CONCURRENCY_<KIND>`).
    pub concurrency: usize,
    /// How often an idle stream of this kind asks Redis for work when no push woke it (the
    /// safety net, see [`crate::wake`]); `None`: the worker's `APP_WORKER_POLL_INTERVAL`.
    /// Someone waits for interactive kinds, so they ask more often.
    pub poll_interval: Option<Duration>,
    /// Paperwork nobody waits for (the bookkeeping): while an interactive kind has every slot
    /// of its process in use (a burst of payment news, a clinic's summaries), the kinds that
    /// yield run one attempt at a time in that process, so the burst gets the machine and the
    /// paperwork still moves.
    pub yields: bool,
}

impl Policy {
    /// A periodic sweep: one at a time, ten minutes per attempt, three attempts a minute apart
    /// and more.
    pub const SWEEP: Policy = Policy {
        max_attempts: 3,
        backoff: Duration::from_secs(60),
        backoff_max: Duration::from_secs(600),
        timeout: Duration::from_secs(600),
        concurrency: 1,
        poll_interval: None,
        yields: false,
    };

    /// The wait before the attempt after `attempt` (1-based).
    pub fn backoff_after(&self, attempt: u32) -> Duration {
        let factor = 2u32.saturating_pow(attempt.saturating_sub(1).min(20));
        self.backoff.saturating_mul(factor).min(self.backoff_max)
    }
}

/// Why an attempt failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JobError {
    /// Might work later (a service down, a timeout): retried until the attempts run out.
    #[error("{0}")]
    Retryable(String),
    /// Will not work however often it is tried (bad data, a refused address): not retried.
    #[error("{0}")]
    Permanent(String),
    /// Cannot work yet, through nothing wrong with the job or the service (a model still being
    /// downloaded): tried again after `retry_in` (`retrying`) without using up an attempt. The
    /// kind decides how long it keeps waiting and then returns [`JobError::Retryable`].
    #[error("{error}")]
    NotYet { error: String, retry_in: Duration },
}

impl From<sqlx::Error> for JobError {
    fn from(e: sqlx::Error) -> Self {
        JobError::Retryable(format!("database: {e}"))
    }
}

/// What every handler can reach.
#[derive(Clone)]
pub struct JobContext {
    pub db: PgPool,
    pub dispatcher: Dispatcher,
}

/// A change of a job's state that is committed: what [`Job::announce`] hears.
#[derive(Debug, Clone, Copy)]
pub struct StateChange<'a> {
    pub state: JobState,
    /// The attempt's result (`succeeded`).
    pub result: Option<&'a Value>,
    /// The attempt's error as recorded (`retrying`, `failed`, `dead`).
    pub error: Option<&'a str>,
}

/// One job kind. Implemented once per file in [`crate::kinds`].
pub trait Job: Send + Sync + 'static {
    /// Stable name: the `kind` column and the Redis queue. Never rename it.
    const KIND: &'static str;
    /// The kind in Dutch, as staff see it in Achtergrondtaken ("Factuur maken").
    const LABEL: &'static str;
    type Payload: Serialize + DeserializeOwned + Send + Sync;

    fn policy() -> Policy;

    /// What one job is for, in Dutch, naming what its payload points at ("Factuur voor betaling
    /// van anne@example.nl (…, € 121,00)"); `caused_by` is the user whose action queued it.
    /// `None` when nothing it names was found: staff then see [`Job::LABEL`].
    fn describe(_payload: &Self::Payload, _caused_by: Option<&str>, _names: &Names) -> Option<String> {
        None
    }

    /// What [`Job::describe`] names, to be looked up once for a page of jobs.
    fn wants(_payload: &Self::Payload, _wanted: &mut Wanted) {}

    /// What a successful attempt did, in Dutch, from its result ("3 abonnementen verlopen"): the
    /// sweeps' last runs in the CMS.
    fn summarise_result(_result: &Value) -> Option<String> {
        None
    }

    /// One attempt. The returned value becomes the job's `result`.
    fn run(&self, ctx: &JobContext, job: &Claimed, payload: Self::Payload) -> impl Future<Output = Result<Value, JobError>> + Send;

    /// Tells whoever waits for the job that its state changed. The runner calls it only after the
    /// change is committed (`running` after the claim, the outcome after its write), so anyone
    /// who reads the job's row on hearing it finds that state or a later one. Best effort.
    fn announce(&self, _ctx: &JobContext, _job: &Claimed, _change: StateChange<'_>) -> impl Future<Output = ()> + Send {
        async {}
    }
}

/// A job of kind `J` with its policy's attempts (the builder's other settings are in
/// [`crate::record`]).
impl NewJob {
    pub fn of<J: Job>(payload: &J::Payload) -> Self {
        Self {
            kind: J::KIND,
            payload: serde_json::to_value(payload).expect("job payloads serialise"),
            max_attempts: J::policy().max_attempts,
            caused_by: None,
            dedupe_key: None,
            run_at: None,
        }
    }
}

/// A job kind with its payload type erased, as the runner holds it.
pub trait Handler: Send + Sync {
    fn kind(&self) -> &'static str;
    fn policy(&self) -> Policy;
    fn run<'a>(&'a self, ctx: &'a JobContext, job: &'a Claimed) -> BoxFuture<'a, Result<Value, JobError>>;
    fn announce<'a>(&'a self, ctx: &'a JobContext, job: &'a Claimed, change: StateChange<'a>) -> BoxFuture<'a, ()>;
}

impl<J: Job> Handler for J {
    fn kind(&self) -> &'static str {
        J::KIND
    }

    fn policy(&self) -> Policy {
        J::policy()
    }

    fn run<'a>(&'a self, ctx: &'a JobContext, job: &'a Claimed) -> BoxFuture<'a, Result<Value, JobError>> {
        Box::pin(async move {
            let payload: J::Payload = serde_json::from_value(job.payload.clone())
                .map_err(|e| JobError::Permanent(format!("De gegevens van de taak zijn onleesbaar: {e}")))?;
            Job::run(self, ctx, job, payload).await
        })
    }

    fn announce<'a>(&'a self, ctx: &'a JobContext, job: &'a Claimed, change: StateChange<'a>) -> BoxFuture<'a, ()> {
        Box::pin(Job::announce(self, ctx, job, change))
    }
}

/// The kinds a worker runs, by name.
#[derive(Clone, Default)]
pub struct Registry {
    handlers: BTreeMap<&'static str, Arc<dyn Handler>>,
}

impl Registry {
    pub fn with(mut self, handler: impl Handler + 'static) -> Self {
        self.handlers.insert(handler.kind(), Arc::new(handler));
        self
    }

    pub fn get(&self, kind: &str) -> Option<&Arc<dyn Handler>> {
        self.handlers.get(kind)
    }

    pub fn kinds(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.handlers.keys().copied()
    }

    /// Only the named kinds (a worker replica dedicated to some queues).
    pub fn only(mut self, kinds: &[String]) -> anyhow::Result<Self> {
        if kinds.is_empty() {
            return Ok(self);
        }
        for kind in kinds {
            anyhow::ensure!(self.handlers.contains_key(kind.as_str()), "unknown job kind {kind:?}");
        }
        self.handlers.retain(|k, _| kinds.iter().any(|n| n == k));
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_its_cap() {
        let p = Policy {
            max_attempts: 8,
            backoff: Duration::from_secs(10),
            backoff_max: Duration::from_secs(60),
            timeout: Duration::from_secs(1),
            concurrency: 1,
            poll_interval: None,
            yields: false,
        };
        assert_eq!(p.backoff_after(1), Duration::from_secs(10));
        assert_eq!(p.backoff_after(2), Duration::from_secs(20));
        assert_eq!(p.backoff_after(3), Duration::from_secs(40));
        assert_eq!(p.backoff_after(4), Duration::from_secs(60));
        assert_eq!(p.backoff_after(40), Duration::from_secs(60));
    }
}
