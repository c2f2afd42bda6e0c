//! What a provider's payment status implies: [`apply`] writes it onto our payment (the PAID
//! transition, [`domain::billing::lifecycle::apply`]) and queues the work that follows (contact,
//! invoice, credit) as keyed jobs in the same transaction. `sync_payment` and
//! `renew_subscription` call it.

use domain::billing::lifecycle::{Applied, FollowUp, ProviderView};
use domain::billing::status::PaymentStatus;
use domain::billing::{self};
use domain::refusal::Refusal;
use integrations::payments::ProviderPayment;

use super::{CreateContact, CreateInvoice, CreditInvoice};
use crate::kind::{JobContext, JobError};
use crate::record::NewJob;

/// Applies the provider's view of a payment to ours ([`billing::lifecycle::apply`], the PAID
/// transition) and, in the same transaction, queues the work it implies as keyed jobs
/// ([`jobs`]). Pushes the queued jobs after commit (the relay pushes them should that
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
    let queued = crate::record::enqueue_many(&mut tx, &jobs(&follow_ups)).await?;
    tx.commit().await?;
    ctx.dispatcher.push_committed(&queued, "bookkeeping").await;
    Ok(Some(applied))
}

/// The jobs of the work a payment's status implies, each keyed by its payment (and a credit by
/// the change of the refunded total it answers), so hearing the same status again queues nothing
/// new.
pub fn jobs(follow_ups: &[FollowUp]) -> Vec<NewJob> {
    follow_ups
        .iter()
        .map(|follow_up| match *follow_up {
            FollowUp::Contact { payment_id } => CreateContact::on_paid(payment_id),
            FollowUp::Invoice { payment_id } => CreateInvoice::on_paid(payment_id),
            FollowUp::Credit { payment_id, version } => CreditInvoice::job(payment_id, version),
        })
        .collect()
}
