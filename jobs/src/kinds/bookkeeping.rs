//! The bookkeeping jobs: `create_contact`, `create_invoice` and `credit_invoice`, each carrying a
//! payment's id only.
//!
//! A payment that becomes PAID queues them in the transaction of that change ([`apply`]), keyed
//! by the payment, and staff may queue them again from the CMS. However often they run, crash
//! half-way or run at once, a paid payment gets one contact link and one invoice:
//! - each job holds the payment's bookkeeping lock ([`domain::billing::books::lock_payment`]) while
//!   it talks to the provider, so jobs of one payment take turns;
//! - the provider finds what an interrupted attempt made (a contact by our customer id, an invoice
//!   by our reference) instead of making it again;
//! - the unique constraints of `bookkeeping_contacts` and `invoices` keep one row each.

use std::time::Duration;

use domain::billing::books::{self, BillablePayment, Invoice, Made};
use domain::billing::lifecycle::{Applied, FollowUp, ProviderView};
use domain::billing::status::PaymentStatus;
use domain::billing::{self};
use domain::refusal::Refusal;
use integrations::bookkeeping::{BookkeepingError, SharedBookkeeping};
use integrations::payments::ProviderPayment;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::{PgConnection, Postgres, Transaction};
use uuid::Uuid;

use crate::kind::{Job, JobContext, JobError, Policy};
use crate::record::{Claimed, NewJob};

/// Moneybird allows 150 calls in 5 minutes for the whole administration and an invoice costs
/// about five: few at a time, waiting long between attempts.
const POLICY: Policy = Policy {
    max_attempts: 10,
    backoff: Duration::from_secs(30),
    backoff_max: Duration::from_secs(3600),
    // three waits of up to a minute on 429 fit in one attempt
    timeout: Duration::from_secs(300),
    concurrency: 4,
    poll_interval: None,
};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PaymentPayload {
    pub payment_id: Uuid,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreditPayload {
    pub payment_id: Uuid,
    /// Refunded and charged back in total, as reported: the credit brings the payment's credit
    /// invoices up to this.
    pub credited_total_cents: i64,
}

pub struct CreateContact {
    pub bookkeeping: SharedBookkeeping,
}

pub struct CreateInvoice {
    pub bookkeeping: SharedBookkeeping,
}

pub struct CreditInvoice {
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

impl CreateInvoice {
    /// A run asked for (a staff button): always queued.
    pub fn job(payment_id: Uuid) -> NewJob {
        NewJob::of::<CreateInvoice>(&PaymentPayload { payment_id })
    }

    /// The run a payment's becoming PAID causes: once per payment.
    pub fn on_paid(payment_id: Uuid) -> NewJob {
        Self::job(payment_id).dedupe_key(format!("create_invoice:{payment_id}"))
    }
}

impl CreditInvoice {
    pub fn job(payment_id: Uuid, credited_total_cents: i64) -> NewJob {
        NewJob::of::<CreditInvoice>(&CreditPayload { payment_id, credited_total_cents })
            .dedupe_key(format!("credit_invoice:{payment_id}:{credited_total_cents}"))
    }
}

fn failed(e: BookkeepingError) -> JobError {
    if e.is_retryable() { JobError::Retryable(e.to_string()) } else { JobError::Permanent(e.to_string()) }
}

/// The paid payment `id`, and a transaction that holds its bookkeeping lock until it ends.
async fn locked(ctx: &JobContext, id: Uuid) -> Result<(BillablePayment, Transaction<'static, Postgres>), JobError> {
    let payment = books::payment(&ctx.db, id).await?.ok_or_else(|| JobError::Permanent(format!("no payment {id}")))?;
    if payment.status != PaymentStatus::Paid {
        return Err(JobError::Permanent(format!("payment {id} is {}, not PAID", payment.status.as_str())));
    }
    let mut tx = ctx.db.begin().await?;
    books::lock_payment(&mut tx, id).await?;
    Ok((payment, tx))
}

/// The user's contact at the provider, made when there is none, noted on the payment.
async fn contact(tx: &mut PgConnection, books: &SharedBookkeeping, p: &BillablePayment) -> Result<(String, bool), JobError> {
    let (contact_id, made) = match books::contact(&mut *tx, &p.user_id, books.name()).await? {
        Some(id) => (id, false),
        None => (books.ensure_contact(&p.buyer).await.map_err(failed)?, true),
    };
    Ok((books::record_contact(tx, p.id, &p.user_id, books.name(), &contact_id).await?, made))
}

/// The payment's invoice, made when there is none (under the payment's lock in `tx`).
async fn invoice(tx: &mut PgConnection, books: &SharedBookkeeping, p: &BillablePayment) -> Result<(Invoice, bool), JobError> {
    if let Some(done) = books::invoice_of_payment(&mut *tx, p.id).await? {
        return Ok((done, false));
    }
    let (contact_id, _) = contact(tx, books, p).await?;
    let draft = p.invoice_draft();
    let made = books.ensure_invoice(&contact_id, &draft).await.map_err(failed)?;
    let made = Made { provider: books.name(), provider_invoice_id: &made.id, number: &made.number, url: made.url.as_deref() };
    Ok(books::record_invoice(tx, p.id, &draft, &made, None).await?)
}

impl Job for CreateContact {
    const KIND: &'static str = "create_contact";
    type Payload = PaymentPayload;

    fn policy() -> Policy {
        POLICY
    }

    async fn run(&self, ctx: &JobContext, _job: &Claimed, p: PaymentPayload) -> Result<Value, JobError> {
        let (payment, mut tx) = locked(ctx, p.payment_id).await?;
        let (contact_id, made) = contact(&mut tx, &self.bookkeeping, &payment).await?;
        tx.commit().await?;
        Ok(json!({ "paymentId": payment.id, "contactId": contact_id, "made": made, "provider": self.bookkeeping.name() }))
    }
}

impl Job for CreateInvoice {
    const KIND: &'static str = "create_invoice";
    type Payload = PaymentPayload;

    fn policy() -> Policy {
        POLICY
    }

    async fn run(&self, ctx: &JobContext, _job: &Claimed, p: PaymentPayload) -> Result<Value, JobError> {
        let (payment, mut tx) = locked(ctx, p.payment_id).await?;
        if !payment.needs_invoice() {
            return Ok(json!({ "paymentId": payment.id, "skipped": "Een betaling zonder bedrag krijgt geen factuur." }));
        }
        let (invoice, made) = invoice(&mut tx, &self.bookkeeping, &payment).await?;
        tx.commit().await?;
        tracing::info!(payment = %payment.id, invoice = %invoice.number, made, "invoice");
        Ok(
            json!({ "paymentId": payment.id, "invoiceId": invoice.id, "number": invoice.number, "made": made, "provider": invoice.provider }),
        )
    }
}

impl Job for CreditInvoice {
    const KIND: &'static str = "credit_invoice";
    type Payload = CreditPayload;

    fn policy() -> Policy {
        POLICY
    }

    async fn run(&self, ctx: &JobContext, _job: &Claimed, p: CreditPayload) -> Result<Value, JobError> {
        let (payment, mut tx) = locked(ctx, p.payment_id).await?;
        let total = p.credited_total_cents.min(payment.to_credit_cents());
        let already = books::credited_cents(&mut *tx, payment.id).await?;
        if total <= already {
            tx.commit().await?;
            return Ok(json!({ "paymentId": payment.id, "skipped": "Dit bedrag is al gecrediteerd.", "credited": already }));
        }
        let (original, _) = invoice(&mut tx, &self.bookkeeping, &payment).await?;
        let (contact_id, _) = contact(&mut tx, &self.bookkeeping, &payment).await?;
        let draft = payment.credit_draft(&original, already, total, billing::today());
        let made = self.bookkeeping.ensure_invoice(&contact_id, &draft).await.map_err(failed)?;
        let made =
            Made { provider: self.bookkeeping.name(), provider_invoice_id: &made.id, number: &made.number, url: made.url.as_deref() };
        let (credit, recorded) = books::record_invoice(&mut tx, payment.id, &draft, &made, Some((original.id, total))).await?;
        tx.commit().await?;
        Ok(json!({
            "paymentId": payment.id,
            "invoiceId": credit.id,
            "number": credit.number,
            "credits": original.number,
            "amountCents": credit.amount_cents,
            "made": recorded,
        }))
    }
}

/// Applies the provider's view of a payment to ours ([`billing::lifecycle::apply`], the PAID
/// transition) and, in the same transaction, queues the work it implies as keyed jobs
/// ([`follow_up_jobs`]). Pushes the queued jobs after commit (the relay pushes them should that
/// fail).
pub async fn apply(ctx: &JobContext, made: &ProviderPayment, status: PaymentStatus) -> Result<Option<Applied>, JobError> {
    let mut tx = ctx.db.begin().await?;
    let theirs = ProviderView {
        id: &made.id,
        mandate_id: made.mandate_id.as_deref(),
        amount_refunded_cents: made.amount_refunded_cents,
        amount_charged_back_cents: made.amount_charged_back_cents,
    };
    let Some((applied, follow_ups)) = billing::lifecycle::apply(&mut tx, theirs, status, billing::today()).await.map_err(|e| match e {
        Refusal::Db(e) => JobError::from(e),
        refused => JobError::Permanent(format!("payment {}: {refused}", made.id)),
    })?
    else {
        return Ok(None);
    };
    let queued = crate::record::enqueue_many(&mut tx, &follow_up_jobs(&follow_ups)).await?;
    tx.commit().await?;
    ctx.dispatcher.push_committed(&queued, "bookkeeping").await;
    Ok(Some(applied))
}

/// The jobs of the work a payment's status implies, each keyed by its payment (and a credit by
/// its total), so hearing the same status again queues nothing new.
pub fn follow_up_jobs(follow_ups: &[FollowUp]) -> Vec<NewJob> {
    follow_ups
        .iter()
        .map(|follow_up| match *follow_up {
            FollowUp::Contact { payment_id } => CreateContact::on_paid(payment_id),
            FollowUp::Invoice { payment_id } => CreateInvoice::on_paid(payment_id),
            FollowUp::Credit { payment_id, credited_total_cents } => CreditInvoice::job(payment_id, credited_total_cents),
        })
        .collect()
}
