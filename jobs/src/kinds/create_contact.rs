//! `create_contact`: the paid payment's buyer as a contact at the bookkeeping provider, made
//! once per user and provider and noted on the payment. The bookkeeping kinds (this one,
//! [`super::create_invoice`] and [`super::credit_invoice`]) carry a payment's id only.
//!
//! A payment that becomes PAID queues them in the transaction of that change
//! ([`crate::kinds::follow_up::apply`]), keyed by the payment, and staff may queue them again from the
//! CMS. However often they run, crash half-way or run at once, a paid payment gets one contact
//! link and one invoice:
//! - each job holds the payment's bookkeeping lock ([`domain::billing::books::lock_payment`]) while
//!   it talks to the provider, so jobs of one payment take turns;
//! - the provider finds what an interrupted attempt made (a contact by our customer id, an invoice
//!   by our reference) instead of making it again;
//! - the unique constraints of `bookkeeping_contacts` and `invoices` keep one row each.

use std::time::Duration;

use domain::billing::books::{self, BillablePayment};
use domain::billing::status::PaymentStatus;
use integrations::bookkeeping::{BookkeepingError, SharedBookkeeping};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::{PgConnection, Postgres, Transaction};
use uuid::Uuid;

use crate::kind::{Job, JobContext, JobError, Policy};
use crate::record::{Claimed, NewJob};
use crate::told::{Names, Wanted};

/// Moneybird allows 150 calls in 5 minutes for the whole administration and an invoice costs
/// about five: few at a time, waiting long between attempts.
pub(crate) const POLICY: Policy = Policy {
    max_attempts: 10,
    backoff: Duration::from_secs(30),
    backoff_max: Duration::from_secs(3600),
    // three waits of up to a minute on 429 fit in one attempt
    timeout: Duration::from_secs(300),
    concurrency: 4,
    poll_interval: None,
    // nobody waits for the books: a burst of payments or summaries goes first
    yields: true,
};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PaymentPayload {
    pub payment_id: Uuid,
}

pub struct CreateContact {
    pub bookkeeping: SharedBookkeeping,
}

impl CreateContact {
    /// A run asked for (a staff button): always queued.
    pub fn job(payment_id: Uuid) -> NewJob {
        NewJob::of::<CreateContact>(&PaymentPayload { payment_id })
    }

    /// The run a payment's becoming PAID causes: once per payment.
    pub fn on_paid(payment_id: Uuid) -> NewJob {
        Self::job(payment_id).dedupe_key(format!("create_contact:{payment_id}"))
    }
}

pub(crate) fn failed(e: BookkeepingError) -> JobError {
    if e.is_retryable() { JobError::Retryable(e.to_string()) } else { JobError::Permanent(e.to_string()) }
}

/// The paid payment `id`, and a transaction that holds its bookkeeping lock until it ends.
pub(crate) async fn locked(ctx: &JobContext, id: Uuid) -> Result<(BillablePayment, Transaction<'static, Postgres>), JobError> {
    let payment = books::payment(&ctx.db, id).await?.ok_or_else(|| JobError::Permanent(format!("no payment {id}")))?;
    if payment.status != PaymentStatus::Paid {
        return Err(JobError::Permanent(format!("payment {id} is {}, not PAID", payment.status.as_str())));
    }
    let mut tx = ctx.db.begin().await?;
    books::lock_payment(&mut tx, id).await?;
    Ok((payment, tx))
}

/// The user's contact at the provider, made when there is none, noted on the payment.
pub(crate) async fn contact(tx: &mut PgConnection, books: &SharedBookkeeping, p: &BillablePayment) -> Result<(String, bool), JobError> {
    let (contact_id, made) = match books::contact(&mut *tx, &p.user_id, books.name()).await? {
        Some(id) => (id, false),
        None => (books.ensure_contact(&p.buyer).await.map_err(failed)?, true),
    };
    Ok((books::record_contact(tx, p.id, &p.user_id, books.name(), &contact_id).await?, made))
}

impl Job for CreateContact {
    const KIND: &'static str = "create_contact";
    const LABEL: &'static str = "Boekhoudcontact maken";
    type Payload = PaymentPayload;

    fn policy() -> Policy {
        POLICY
    }

    fn describe(p: &PaymentPayload, _caused_by: Option<&str>, names: &Names) -> Option<String> {
        names.our_payment(p.payment_id).map(|line| format!("Boekhoudcontact voor {}", line.text()))
    }

    fn wants(p: &PaymentPayload, wanted: &mut Wanted) {
        wanted.our_payment(p.payment_id);
    }

    async fn run(&self, ctx: &JobContext, _job: &Claimed, p: PaymentPayload) -> Result<Value, JobError> {
        let (payment, mut tx) = locked(ctx, p.payment_id).await?;
        let (contact_id, made) = contact(&mut tx, &self.bookkeeping, &payment).await?;
        tx.commit().await?;
        Ok(json!({ "paymentId": payment.id, "contactId": contact_id, "made": made, "provider": self.bookkeeping.name() }))
    }
}
