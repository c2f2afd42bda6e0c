//! `renew_subscription`: charges one period of one subscription on the user's mandate (a
//! `recurring` payment, our own schedule rather than Mollie's Subscriptions API, which cannot do
//! our seat counts and discounts). The payment row is written once per subscription and period
//! (`domain::billing::sweeps::renewal_payment`), the provider gets the same idempotency key on every
//! attempt, and its status is applied as the webhook's would be: PAID extends `validUntil`.
//! A renewal that fails sends the user a Dutch e-mail (`renewal_failed`); the subscription stays
//! usable until its `validUntil`.

use std::time::Duration;

use chrono::NaiveDate;
use domain::billing;
use domain::billing::status::PaymentStatus;
use integrations::payments::{NewPayment, SequenceType, SharedProvider};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::kind::{Job, JobContext, JobError, Policy};
use crate::kinds::SendEmail;
use crate::record::{Claimed, NewJob};
use crate::told::{Names, Wanted};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RenewPayload {
    pub subscription_id: Uuid,
    pub period_start: NaiveDate,
}

pub struct RenewSubscription {
    pub provider: SharedProvider,
    /// Where the provider posts its webhook (`APP_MOLLIE_WEBHOOK_URL`).
    pub webhook_url: String,
}

impl RenewSubscription {
    pub fn job(subscription_id: Uuid, period_start: NaiveDate) -> NewJob {
        NewJob::of::<RenewSubscription>(&RenewPayload { subscription_id, period_start })
            .dedupe_key(format!("renew:{subscription_id}:{period_start}"))
    }
}

impl Job for RenewSubscription {
    const KIND: &'static str = "renew_subscription";
    const LABEL: &'static str = "Abonnement verlengen";
    type Payload = RenewPayload;

    fn policy() -> Policy {
        Policy {
            max_attempts: 8,
            backoff: Duration::from_secs(30),
            backoff_max: Duration::from_secs(3600),
            timeout: Duration::from_secs(90),
            concurrency: 4,
            poll_interval: None,
            yields: false,
        }
    }

    fn describe(p: &RenewPayload, _caused_by: Option<&str>, names: &Names) -> Option<String> {
        let (description, email) = names.subscriptions.get(&p.subscription_id)?;
        Some(format!("Verlenging van {description} van {email} vanaf {}", p.period_start))
    }

    fn wants(p: &RenewPayload, wanted: &mut Wanted) {
        wanted.subscriptions.push(p.subscription_id);
    }

    async fn run(&self, ctx: &JobContext, _job: &Claimed, p: RenewPayload) -> Result<Value, JobError> {
        let provider = self.provider.name();
        let Some(renewal) = domain::billing::sweeps::renewal_payment(&ctx.db, p.subscription_id, p.period_start, provider).await? else {
            return Ok(json!({ "skipped": "Deze periode hoeft niet (meer) betaald te worden." }));
        };
        let made = match &renewal.provider_payment_id {
            Some(id) => match self.provider.get_payment(id).await {
                Ok(made) => made,
                Err(e) if e.is_retryable() => return Err(JobError::Retryable(e.to_string())),
                Err(e) => return Err(JobError::Permanent(e.to_string())),
            },
            None => {
                let new = NewPayment {
                    amount_cents: renewal.amount_cents,
                    description: renewal.description.clone(),
                    customer_id: renewal.customer_id.clone(),
                    sequence_type: SequenceType::Recurring,
                    redirect_url: None,
                    webhook_url: Some(self.webhook_url.clone()),
                    payment_id: renewal.payment_id.to_string(),
                    idempotency_key: renewal.idempotency_key.clone(),
                    mandate_id: Some(renewal.mandate_id.clone()),
                };
                match self.provider.create_payment(&new).await {
                    Ok(made) => {
                        billing::checkout::record_provider_payment(
                            &ctx.db,
                            renewal.payment_id,
                            &made.id,
                            Some(&renewal.customer_id),
                            None,
                            made.expires_at,
                        )
                        .await?;
                        made
                    }
                    Err(e) if e.is_retryable() => return Err(JobError::Retryable(e.to_string())),
                    Err(e) => {
                        // refused for good (a revoked mandate, say): the period is not paid
                        billing::checkout::fail_unsent_payment(&ctx.db, renewal.payment_id).await?;
                        let dunning = tell_user(ctx, renewal.payment_id).await?;
                        return Ok(json!({ "paymentId": renewal.payment_id, "to": "FAILED", "refused": e.to_string(), "email": dunning }));
                    }
                }
            }
        };
        let status =
            PaymentStatus::parse(&made.status).ok_or_else(|| JobError::Permanent(format!("unknown payment status {:?}", made.status)))?;
        let applied = crate::kinds::follow_up::apply(ctx, &made, status)
            .await?
            .ok_or_else(|| JobError::Permanent(format!("no payment of ours has the id {}", made.id)))?;
        let email = if applied.changed && applied.to.is_failure() { tell_user(ctx, renewal.payment_id).await? } else { None };
        Ok(json!({
            "paymentId": renewal.payment_id,
            "to": applied.to.as_str(),
            "activated": applied.activated,
            "validUntil": applied.valid_until,
            "email": email,
        }))
    }
}

/// Queues the `renewal_failed` e-mail of a payment, once (a dedupe key per payment).
pub(crate) async fn tell_user(ctx: &JobContext, payment_id: Uuid) -> Result<Option<Uuid>, JobError> {
    let mail = SendEmail::renewal_failed(payment_id).dedupe_key(format!("renewal_failed:{payment_id}"));
    Ok(Some(ctx.dispatcher.enqueue_and_push(mail, "renewal e-mail").await?))
}
