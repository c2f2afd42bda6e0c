//! Runs one attempt of a job: claim the row, run the handler under its timeout with panics
//! caught, record the outcome, and push the next attempt's message when one is planned.

use std::collections::HashSet;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use futures::FutureExt;
use sqlx::PgPool;
use tokio::sync::{Semaphore, SemaphorePermit};
use uuid::Uuid;

use crate::batch::Batcher;
use crate::kind::{JobContext, JobError, Registry, StateChange};
use crate::record::{self, ClaimRequest, Claimed, JobState, Outcome};

/// Most claims or outcomes written in one statement.
const BATCH: usize = 256;

/// Longest wait for a claim or an outcome to be written. Without a bound an attempt whose state
/// write never returns would hold its stream's slot for good.
const STATE_WRITE_LIMIT: Duration = Duration::from_secs(30);

/// Longest a kind may take to announce a state change.
const ANNOUNCE_LIMIT: Duration = Duration::from_secs(5);

/// How an attempt ended, as it was recorded.
#[derive(Debug, Clone)]
pub struct Ended {
    pub state: JobState,
    /// The handler's result, when it succeeded.
    pub result: Option<serde_json::Value>,
}

#[derive(Clone)]
pub struct Runner {
    ctx: JobContext,
    registry: Registry,
    /// Job-state writes; see [`Runner::new`].
    state_db: PgPool,
    /// This process's name in `locked_by`.
    instance: String,
    lease_margin: Duration,
    claims: Batcher<ClaimRequest, Option<Claimed>>,
    outcomes: Batcher<(Uuid, Outcome), Option<JobState>>,
}

/// The jobs whose messages one stream took and whose attempts have not ended. Those left when
/// the stream is dropped (a shutdown past its grace, a stalled stream replaced) never started:
/// [`Runner::give_back`] pushes them again.
#[derive(Debug, Clone, Default)]
pub struct Taken(Arc<Mutex<HashSet<Uuid>>>);

impl Taken {
    fn set(&self) -> std::sync::MutexGuard<'_, HashSet<Uuid>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Runner {
    /// `state_db` carries only the job-state updates and may use asynchronous commit: losing the
    /// last of them in a PostgreSQL crash means an attempt runs again, which handlers allow for.
    /// Claims and outcomes of concurrent attempts are written in batches.
    pub fn new(ctx: JobContext, registry: Registry, state_db: PgPool, instance: String, lease_margin: Duration) -> Self {
        let claims = {
            let (db, worker) = (state_db.clone(), instance.clone());
            Batcher::spawn(BATCH, move |requests: Vec<ClaimRequest>| {
                let (db, worker) = (db.clone(), worker.clone());
                async move { record::claim_many(&db, &worker, &requests).await.map_err(|e| e.to_string()) }
            })
        };
        let outcomes = {
            let (db, worker) = (state_db.clone(), instance.clone());
            Batcher::spawn(BATCH, move |attempts: Vec<(Uuid, Outcome)>| {
                let (db, worker) = (db.clone(), worker.clone());
                async move { record::finish_many(&db, &worker, &attempts).await.map_err(|e| e.to_string()) }
            })
        };
        Self { ctx, registry, state_db, instance, lease_margin, claims, outcomes }
    }

    /// What the handlers reach (the database, the dispatcher).
    pub fn context(&self) -> &JobContext {
        &self.ctx
    }

    /// Runs the jobs of one message side by side, each when `slots` (its kind's handlers at once
    /// in this process) has room for it; the answers in the order of `ids`. They count as
    /// `taken` by the stream until their attempts end.
    pub async fn run_all(
        &self,
        kind: &str,
        ids: impl IntoIterator<Item = Uuid>,
        slots: &Semaphore,
        taken: &Taken,
    ) -> Vec<Result<Option<Ended>, String>> {
        let ids: Vec<Uuid> = ids.into_iter().collect();
        taken.set().extend(&ids);
        futures::future::join_all(ids.into_iter().map(|id| async move {
            let ended = match slots.acquire().await {
                Ok(slot) => self.run(kind, id, slot).await,
                Err(_) => Err("the worker's slots are closed".to_owned()),
            };
            // an attempt dropped before this stays taken, for `give_back`
            taken.set().remove(&id);
            ended
        }))
        .await
    }

    /// Pushes again the jobs a dropped stream took and never started.
    pub async fn give_back(&self, taken: &Taken) -> anyhow::Result<usize> {
        let ids: Vec<Uuid> = taken.set().drain().collect();
        let ids = record::unpush(&self.state_db, &ids).await?;
        if !ids.is_empty() {
            tracing::warn!(count = ids.len(), "giving back jobs taken and not started");
            self.ctx.dispatcher.push_committed(&ids, "jobs given back").await;
        }
        Ok(ids.len())
    }

    /// Runs the job if it is waiting for an attempt; a duplicate or stale message does nothing
    /// (`None`). `kind` is the queue's kind (one queue per kind). An error means the row could
    /// not be read or written (PostgreSQL away).
    ///
    /// `slot` is held from the claim until the handler ends, not while the outcome is written:
    /// the kind's concurrency bounds its handlers at once, and the next attempt's claim shares a
    /// statement with other claims while this outcome shares one with other outcomes.
    async fn run(&self, kind: &str, job_id: Uuid, slot: SemaphorePermit<'_>) -> Result<Option<Ended>, String> {
        let Some(handler) = self.registry.get(kind).cloned() else {
            tracing::error!(job.id = %job_id, job.kind = %kind, "no handler for this kind in this worker");
            return Ok(None);
        };
        let policy = handler.policy();
        let lease = policy.timeout + self.lease_margin;
        let request = ClaimRequest { id: job_id, kind: kind.to_owned(), lease };
        let claim = tokio::time::timeout(STATE_WRITE_LIMIT, self.claims.call(request)).await;
        let Some(claimed) = claim.map_err(|_| "the claim was not written within 30 s".to_owned())?? else {
            return Ok(None);
        };
        crate::metrics::started(kind);
        self.announce(&*handler, &claimed, StateChange { state: JobState::Running, result: None, error: None }).await;
        let span = tracing::info_span!("job", job.id = %job_id, job.kind = %kind, job.attempt = claimed.attempts);
        let started = Instant::now();
        let attempt = AssertUnwindSafe(handler.run(&self.ctx, &claimed)).catch_unwind();
        let result = tracing::Instrument::instrument(tokio::time::timeout(policy.timeout, attempt), span.clone()).await;
        let took = started.elapsed();
        drop(slot);
        let outcome = match result {
            Ok(Ok(Ok(value))) => Outcome::Succeeded(value),
            Ok(Ok(Err(JobError::Permanent(e)))) => Outcome::Failed(e),
            Ok(Ok(Err(JobError::Retryable(e)))) => retry(e, &policy, claimed.attempts),
            Ok(Ok(Err(JobError::NotYet { error, retry_in }))) => Outcome::Wait { error, retry_in },
            Ok(Err(panic)) => {
                retry(format!("De taak brak af met een fout in het programma: {}", panic_message(&panic)), &policy, claimed.attempts)
            }
            Err(_) => retry(
                format!("De poging duurde langer dan {} s en is afgebroken.", policy.timeout.as_secs_f64()),
                &policy,
                claimed.attempts,
            ),
        };
        let written = tokio::time::timeout(STATE_WRITE_LIMIT, self.outcomes.call((job_id, outcome.clone()))).await;
        let state = written.map_err(|_| "the outcome was not written within 30 s".to_owned())??;
        span.in_scope(|| match (&outcome, state) {
            (_, None) => tracing::warn!("attempt ended after its lease ran out; its outcome was not recorded"),
            (Outcome::Succeeded(_), _) => tracing::info!(duration_ms = took.as_millis() as u64, "job succeeded"),
            (Outcome::Failed(e) | Outcome::Retry { error: e, .. }, Some(state)) => {
                tracing::warn!(error = %e, job.state = state.as_str(), "job attempt failed")
            }
            (Outcome::Wait { error, retry_in }, Some(_)) => {
                tracing::info!(error = %error, retry_in_ms = retry_in.as_millis() as u64, "job cannot run yet; waiting without using up an attempt")
            }
        });
        if let Some(state) = state {
            crate::metrics::finished(kind, state.as_str(), took);
            // committed: only now may anyone hear of it
            let error = match &outcome {
                Outcome::Succeeded(_) => None,
                Outcome::Failed(e) | Outcome::Retry { error: e, .. } | Outcome::Wait { error: e, .. } => Some(e.as_str()),
            };
            let result = match &outcome {
                Outcome::Succeeded(v) => Some(v),
                _ => None,
            };
            self.announce(&*handler, &claimed, StateChange { state, result, error }).await;
            if state == JobState::Retrying
                && let Err(e) = self.ctx.dispatcher.dispatch(&[job_id]).await
            {
                tracing::debug!(job.id = %job_id, error = %e, "retry not pushed; the relay will");
            }
        }
        Ok(state.map(|state| Ended {
            state,
            result: match outcome {
                Outcome::Succeeded(v) => Some(v),
                _ => None,
            },
        }))
    }

    async fn announce(&self, handler: &dyn crate::kind::Handler, job: &Claimed, change: StateChange<'_>) {
        if tokio::time::timeout(ANNOUNCE_LIMIT, handler.announce(&self.ctx, job, change)).await.is_err() {
            tracing::warn!(job.id = %job.id, job.state = change.state.as_str(), "announcing the job's state took too long; skipped");
        }
    }

    /// After a shutdown that did not wait for every attempt: gives this process's unfinished
    /// attempts back (uncounted) and pushes them, so another worker takes them at once.
    pub async fn hand_back(&self) -> anyhow::Result<usize> {
        let ids = record::hand_back(&self.state_db, &self.instance).await?;
        if !ids.is_empty() {
            tracing::warn!(count = ids.len(), "handing unfinished jobs back");
            self.ctx.dispatcher.push_committed(&ids, "jobs handed back").await;
        }
        Ok(ids.len())
    }
}

fn retry(error: String, policy: &crate::kind::Policy, attempt: i32) -> Outcome {
    Outcome::Retry { error, backoff: policy.backoff_after(attempt.max(1) as u32) }
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "onbekende fout".to_owned()
    }
}
