//! `sync_payment`: the payment provider said a payment changed (its webhook named the id); this
//! fetches the payment from the provider and moves ours forward (never back). A PAID first
//! payment activates its subscription, a PAID renewal extends it
//! ([`domain::billing::lifecycle::apply_provider_status`], under a row lock, so any number of
//! deliveries make one transition and one activation). A paid amount that differs from ours is
//! not taken. A payment that is paid, refunded or charged back queues its bookkeeping jobs in the
//! same transaction ([`crate::kinds::follow_up::apply`]).

use std::time::Duration;

use domain::billing::Cents;
use domain::billing::status::PaymentStatus;
use integrations::payments::{PaymentError, SharedProvider};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::kind::{Job, JobContext, JobError, Policy};
use crate::record::{Claimed, NewJob};
use crate::told::{Names, Wanted};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SyncPaymentPayload {
    /// The provider's id of the payment (`tr_...`).
    pub provider_payment_id: String,
}

pub struct SyncPayment {
    pub provider: SharedProvider,
}

impl SyncPayment {
    pub fn job(provider_payment_id: &str) -> NewJob {
        NewJob::of::<SyncPayment>(&SyncPaymentPayload { provider_payment_id: provider_payment_id.to_owned() })
    }
}

/// What news about payments found: which of the named payments are ours (their provider ids),
/// and the syncs queued for them (to push after commit).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heard {
    pub ours: Vec<String>,
    pub queued: Vec<Uuid>,
}

/// Queues, in one statement, a sync of each provider payment in `provider_payment_ids` that is
/// ours and has no sync waiting yet (a sync that runs or ran may have fetched the payment before
/// this news, so it does not count). The webhook calls it with one id, reconciliation with many.
/// Two deliveries at the same instant may both queue one; the second sync then finds nothing
/// new, since applying a status is idempotent under the payment's row lock.
pub async fn queue(conn: &mut PgConnection, provider_payment_ids: &[String]) -> sqlx::Result<Heard> {
    let payloads: Vec<Value> = provider_payment_ids.iter().map(|id| SyncPayment::job(id).payload).collect();
    // the kind and state are written out, not bound, so that the planner always sees that the
    // partial index of waiting syncs (jobs_sync_payment_waiting_idx) answers the "already waiting"
    let heard = sqlx::query!(
        r#"with asked as (select distinct on (t.id) t.id, t.payload from unnest($1::text[], $2::jsonb[]) as t(id, payload)),
                ours as (select a.id, a.payload from asked a where exists (select 1 from payments p where p.provider_payment_id = a.id)),
                queued as (
                  insert into jobs (id, kind, payload, max_attempts)
                  select gen_random_uuid(), 'sync_payment', o.payload, $3 from ours o
                   where not exists (select 1 from jobs j where j.kind = 'sync_payment' and j.state = 'queued'
                                                          and j.payload->>'providerPaymentId' = o.id)
                  returning id)
           select array(select id from ours) as "ours!", array(select id from queued) as "queued!""#,
        provider_payment_ids,
        &payloads,
        POLICY.max_attempts as i32,
    )
    .fetch_one(&mut *conn)
    .await?;
    crate::metrics::enqueued(SyncPayment::KIND, heard.queued.len() as u64);
    Ok(Heard { ours: heard.ours, queued: heard.queued })
}

/// Ids a batch of news takes at most.
const NEWS_BATCH: usize = 200;
/// Batches written at once.
const NEWS_WRITERS: usize = 4;
/// News waiting for a batch before a delivery waits to be taken.
const NEWS_WAITING: usize = 10_000;
/// How long no delivery must arrive before the committed syncs are pushed.
pub const NEWS_QUIET: Duration = Duration::from_millis(20);
/// The longest a committed sync waits for its push while deliveries keep arriving.
pub const NEWS_HOLD_MAX: Duration = Duration::from_millis(500);

/// Why news could not be taken: the caller answers so that the provider delivers it again.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NewsError {
    /// Every database connection stayed busy past the pool's wait.
    #[error("the database is busy")]
    Busy,
    #[error("{0}")]
    Failed(String),
}

type Waiting = (String, tokio::sync::oneshot::Sender<Result<bool, NewsError>>);

/// The payment provider's news (webhook deliveries), queued in batches: a delivery joins the
/// next batch and is answered once that batch is written ([`queue`]: one statement and one commit
/// for all of its ids), so a burst of deliveries costs a few round trips rather than some for
/// each, and none is answered before its sync is committed. A batch takes what arrived while the
/// others were written (up to 200 ids); up to 4 are written at once. A delivery alone is written
/// at once.
///
/// The committed syncs are pushed to the workers once deliveries stop arriving for
/// [`NEWS_QUIET`] (or [`NEWS_HOLD_MAX`] after the first of them, should they never stop): a burst
/// is answered first and synced after, rather than the first syncs taking the CPU and the
/// database from the answers still to come. A delivery alone waits [`NEWS_QUIET`] for its push.
/// Should the api stop while holding them, the relay pushes the committed syncs.
#[derive(Clone)]
pub struct News {
    waiting: tokio::sync::mpsc::Sender<Waiting>,
    arrivals: std::sync::Arc<Arrivals>,
}

/// When the last delivery arrived, as time since the news started.
struct Arrivals {
    epoch: tokio::time::Instant,
    last_micros: std::sync::atomic::AtomicU64,
}

impl Arrivals {
    fn arrived(&self) {
        let now = self.epoch.elapsed().as_micros() as u64;
        self.last_micros.store(now, std::sync::atomic::Ordering::Relaxed);
    }

    /// How long no delivery has arrived.
    fn quiet_for(&self) -> Duration {
        let last = Duration::from_micros(self.last_micros.load(std::sync::atomic::Ordering::Relaxed));
        self.epoch.elapsed().saturating_sub(last)
    }
}

impl News {
    /// Starts the batching task on the current runtime.
    pub fn start(db: sqlx::PgPool, dispatcher: crate::Dispatcher) -> Self {
        let (waiting, mut arriving) = tokio::sync::mpsc::channel::<Waiting>(NEWS_WAITING);
        let arrivals = std::sync::Arc::new(Arrivals { epoch: tokio::time::Instant::now(), last_micros: Default::default() });
        let (committed, to_push) = tokio::sync::mpsc::unbounded_channel::<Vec<Uuid>>();
        tokio::spawn(push_when_quiet(to_push, arrivals.clone(), dispatcher));
        tokio::spawn(async move {
            let writers = std::sync::Arc::new(tokio::sync::Semaphore::new(NEWS_WRITERS));
            loop {
                let Ok(writer) = writers.clone().acquire_owned().await else { return };
                let Some(first) = arriving.recv().await else { return };
                let mut batch = vec![first];
                while batch.len() < NEWS_BATCH {
                    match arriving.try_recv() {
                        Ok(next) => batch.push(next),
                        Err(_) => break,
                    }
                }
                let (db, committed) = (db.clone(), committed.clone());
                tokio::spawn(async move {
                    write_news(&db, &committed, batch).await;
                    drop(writer);
                });
            }
        });
        Self { waiting, arrivals }
    }

    /// The provider's payment `provider_payment_id` changed: whether it is ours, once its sync
    /// is queued (or one already waited).
    pub async fn hear(&self, provider_payment_id: String) -> Result<bool, NewsError> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        let stopped = || NewsError::Failed("the payment news stopped".into());
        self.arrivals.arrived();
        self.waiting.send((provider_payment_id, answer)).await.map_err(|_| stopped())?;
        answered.await.map_err(|_| stopped())?
    }
}

async fn write_news(db: &sqlx::PgPool, committed: &tokio::sync::mpsc::UnboundedSender<Vec<Uuid>>, batch: Vec<Waiting>) {
    let ids: Vec<String> = batch.iter().map(|(id, _)| id.clone()).collect();
    let heard = async {
        let mut conn = db.acquire().await?;
        queue(&mut conn, &ids).await
    }
    .await;
    match heard {
        Ok(heard) => {
            // the statement committed the syncs: the deliveries are answered, and the syncs
            // pushed once the news is quiet
            let ours: std::collections::HashSet<&str> = heard.ours.iter().map(String::as_str).collect();
            for (id, answer) in batch {
                let _ = answer.send(Ok(ours.contains(id.as_str())));
            }
            if !heard.queued.is_empty() {
                let _ = committed.send(heard.queued);
            }
        }
        Err(e) => {
            tracing::warn!(deliveries = batch.len(), error = %e, "payment news not taken; the provider delivers it again");
            let error = match e {
                sqlx::Error::PoolTimedOut => NewsError::Busy,
                e => NewsError::Failed(e.to_string()),
            };
            for (_, answer) in batch {
                let _ = answer.send(Err(error.clone()));
            }
        }
    }
}

/// Pushes the committed syncs once no delivery has arrived for [`NEWS_QUIET`], or
/// [`NEWS_HOLD_MAX`] after the first of them was committed (a push that fails is the relay's,
/// like any other).
async fn push_when_quiet(
    mut committed: tokio::sync::mpsc::UnboundedReceiver<Vec<Uuid>>,
    arrivals: std::sync::Arc<Arrivals>,
    dispatcher: crate::Dispatcher,
) {
    while let Some(mut held) = committed.recv().await {
        let since = tokio::time::Instant::now();
        while let Some(wait) = hold_left(arrivals.quiet_for(), since.elapsed()) {
            tokio::select! {
                more = committed.recv() => match more {
                    Some(ids) => held.extend(ids),
                    None => break,
                },
                () = tokio::time::sleep(wait) => {}
            }
        }
        while let Ok(ids) = committed.try_recv() {
            held.extend(ids);
        }
        dispatcher.push_committed(&held, "payment syncs").await;
    }
}

/// How much longer committed syncs wait for their push, the news quiet for `quiet_for` and the
/// syncs held for `held_for`: none once either bound is reached.
fn hold_left(quiet_for: Duration, held_for: Duration) -> Option<Duration> {
    let quiet_left = NEWS_QUIET.checked_sub(quiet_for).filter(|d| !d.is_zero())?;
    let max_left = NEWS_HOLD_MAX.checked_sub(held_for).filter(|d| !d.is_zero())?;
    Some(quiet_left.min(max_left))
}

const POLICY: Policy = Policy {
    // Mollie itself repeats a webhook 10 times over 26 hours; ours retries the fetch for about an hour
    max_attempts: 8,
    backoff: Duration::from_secs(5),
    backoff_max: Duration::from_secs(900),
    timeout: Duration::from_secs(90),
    concurrency: 16,
    // the user waits on /subscription for the payment to show: should the push's wake-up be
    // missed, the stream asks every 200 ms instead of the worker's 1 s
    poll_interval: Some(Duration::from_millis(200)),
    yields: false,
};

impl Job for SyncPayment {
    const KIND: &'static str = "sync_payment";
    const LABEL: &'static str = "Betaalstatus bijwerken";
    type Payload = SyncPaymentPayload;

    fn policy() -> Policy {
        POLICY
    }

    fn describe(p: &SyncPaymentPayload, _caused_by: Option<&str>, names: &Names) -> Option<String> {
        let id = p.provider_payment_id.as_str();
        Some(match names.payment(id) {
            Some(line) => format!("Betaalstatus van {}", line.text()),
            None => format!("Betaalstatus van betaling {id}"),
        })
    }

    fn wants(p: &SyncPaymentPayload, wanted: &mut Wanted) {
        wanted.provider_payments.push(p.provider_payment_id.clone());
    }

    async fn run(&self, ctx: &JobContext, _job: &Claimed, payload: SyncPaymentPayload) -> Result<Value, JobError> {
        let id = payload.provider_payment_id.as_str();
        let ours: Option<(Cents, String)> = sqlx::query!(
            r#"select amount_cents::int8 as "amount_cents!: Cents", provider from payments where provider_payment_id = $1"#,
            id,
        )
        .fetch_optional(&ctx.db)
        .await?
        .map(|r| (r.amount_cents, r.provider));
        let Some((amount, provider)) = ours else {
            return Err(JobError::Permanent(format!("no payment of ours has the id {id}")));
        };
        if provider != self.provider.name() {
            return Err(JobError::Permanent(format!("payment {id} belongs to provider {provider}, not {}", self.provider.name())));
        }
        let theirs = match self.provider.get_payment(id).await {
            Ok(p) => p,
            Err(PaymentError::NotFound) => return Err(JobError::Permanent(format!("the provider does not know payment {id}"))),
            Err(PaymentError::Unauthorized { status }) => {
                // never final: the payment is still there once the key is right, and
                // reconciliation asks again after this job's attempts run out
                metrics::counter!("payment_provider_key_refused_total", "provider" => self.provider.name()).increment(1);
                tracing::error!(provider = self.provider.name(), status, "the payment provider refuses the API key");
                return Err(JobError::Retryable(key_refused(self.provider.name(), status)));
            }
            Err(e) if e.is_retryable() => return Err(JobError::Retryable(e.to_string())),
            Err(e) => return Err(JobError::Permanent(e.to_string())),
        };
        let Some(status) = PaymentStatus::parse(&theirs.status) else {
            return Err(JobError::Permanent(format!("unknown payment status {:?}", theirs.status)));
        };
        if theirs.amount_cents != amount {
            return Err(JobError::Permanent(format!(
                "payment {id}: the provider has {} cents, we expect {}; not applied",
                theirs.amount_cents.0, amount.0
            )));
        }
        let applied = crate::kinds::follow_up::apply(ctx, &theirs, status)
            .await?
            .ok_or_else(|| JobError::Permanent(format!("no payment of ours has the id {id}")))?;
        let email = if applied.changed && applied.to.is_failure() && renewal(&ctx.db, applied.payment_id).await? {
            crate::kinds::renew_subscription::tell_user(ctx, applied.payment_id).await?
        } else {
            None
        };
        tracing::info!(
            payment = %applied.payment_id,
            from = applied.from.as_str(),
            to = applied.to.as_str(),
            changed = applied.changed,
            activated = applied.activated,
            "payment synced"
        );
        Ok(json!({
            "paymentId": applied.payment_id,
            "from": applied.from.as_str(),
            "to": applied.to.as_str(),
            "changed": applied.changed,
            "activated": applied.activated,
            "validUntil": applied.valid_until,
            "email": email,
        }))
    }
}

/// What staff read in Achtergrondtaken when the provider refuses our key.
pub fn key_refused(provider: &str, status: u16) -> String {
    let name = if provider == "mollie" { "Mollie" } else { provider };
    format!("{name} weigert de API-sleutel ({status}). Controleer APP_MOLLIE_API_KEY; de betaling wordt opnieuw opgehaald.")
}

/// Whether a payment is a renewal (not a first payment).
async fn renewal(db: &sqlx::PgPool, payment_id: Uuid) -> sqlx::Result<bool> {
    sqlx::query_scalar!(r#"select not is_first_payment as "renewal!" from payments where id = $1"#, payment_id).fetch_one(db).await
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn committed_syncs_wait_until_the_news_is_quiet_or_held_long_enough() {
        // a delivery just arrived: wait for the quiet
        assert_eq!(hold_left(Duration::ZERO, Duration::ZERO), Some(NEWS_QUIET));
        assert_eq!(hold_left(5 * MS, 100 * MS), Some(NEWS_QUIET - 5 * MS));
        // quiet long enough: push
        assert_eq!(hold_left(NEWS_QUIET, Duration::ZERO), None);
        assert_eq!(hold_left(NEWS_QUIET + MS, 10 * MS), None);
        // deliveries keep coming: no longer than the bound
        assert_eq!(hold_left(Duration::ZERO, NEWS_HOLD_MAX - 3 * MS), Some(3 * MS));
        assert_eq!(hold_left(Duration::ZERO, NEWS_HOLD_MAX), None);
        assert_eq!(hold_left(MS, NEWS_HOLD_MAX + 40 * MS), None);
    }
}
