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

/// Queues a sync of the provider's payment `provider_payment_id` in `tx` unless one is already
/// waiting (a sync that runs or ran may have fetched the payment before this news, so it does
/// not count). Concurrent deliveries take turns on a lock held to the end of `tx`. The id of a
/// job queued, to push after commit.
pub async fn queue_once(tx: &mut PgConnection, provider_payment_id: &str) -> sqlx::Result<Option<Uuid>> {
    sqlx::query("select pg_advisory_xact_lock(hashtext('sync_payment:' || $1))").bind(provider_payment_id).execute(&mut *tx).await?;
    let waiting: bool = sqlx::query_scalar(
        "select exists (select 1 from jobs where kind = $1 and state = 'queued' and payload->>'providerPaymentId' = $2)",
    )
    .bind(SyncPayment::KIND)
    .bind(provider_payment_id)
    .fetch_one(&mut *tx)
    .await?;
    if waiting { Ok(None) } else { crate::record::enqueue(tx, SyncPayment::job(provider_payment_id)).await.map(Some) }
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
        let ours: Option<(Cents, String)> =
            sqlx::query_as("select amount_cents::int8, provider from payments where provider_payment_id = $1")
                .bind(id)
                .fetch_optional(&ctx.db)
                .await?;
        let Some((amount, provider)) = ours else {
            return Err(JobError::Permanent(format!("no payment of ours has the id {id}")));
        };
        if provider != self.provider.name() {
            return Err(JobError::Permanent(format!("payment {id} belongs to provider {provider}, not {}", self.provider.name())));
        }
        let theirs = match self.provider.get_payment(id).await {
            Ok(p) => p,
            Err(PaymentError::NotFound) => return Err(JobError::Permanent(format!("the provider does not know payment {id}"))),
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

/// Whether a payment is a renewal (not a first payment).
async fn renewal(db: &sqlx::PgPool, payment_id: Uuid) -> sqlx::Result<bool> {
    sqlx::query_scalar("select not is_first_payment from payments where id = $1").bind(payment_id).fetch_one(db).await
}
