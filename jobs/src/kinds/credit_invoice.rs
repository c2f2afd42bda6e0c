//! `credit_invoice`: brings what the books credit for a paid payment to the total refunded and
//! charged back that the provider reports now (never beyond what was paid): a credit invoice of
//! its invoice for what grew, a reversal of its latest credit invoice for what went down (a
//! refund cancelled, a chargeback reversed). Keyed by the payment and the change it answers; it
//! reads the payment's total under the payment's lock, so an older job that runs late books
//! nothing the newer one has not.

use domain::billing;
use domain::billing::books::{self, Made};
use integrations::bookkeeping::SharedBookkeeping;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use uuid::Uuid;

use super::create_contact::{POLICY, contact, failed, locked};
use super::create_invoice::invoice;
use crate::kind::{Job, JobContext, JobError, Policy};
use crate::record::{Claimed, NewJob};
use crate::told::{Names, Wanted};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreditPayload {
    pub payment_id: Uuid,
    /// The change of the total refunded and charged back it answers (`payments.refunds_version`);
    /// the job books the payment's total at the time it runs.
    #[serde(default)]
    pub version: i32,
}

/// Documents one run makes at most (a credit, or one reversal per credit invoice undone).
const MAX_DOCUMENTS: usize = 20;

pub struct CreditInvoice {
    pub bookkeeping: SharedBookkeeping,
}

impl CreditInvoice {
    pub fn job(payment_id: Uuid, version: i32) -> NewJob {
        NewJob::of::<CreditInvoice>(&CreditPayload { payment_id, version }).dedupe_key(format!("credit_invoice:{payment_id}:v{version}"))
    }
}

impl Job for CreditInvoice {
    const KIND: &'static str = "credit_invoice";
    const LABEL: &'static str = "Creditering bijwerken";
    type Payload = CreditPayload;

    fn policy() -> Policy {
        POLICY
    }

    fn describe(p: &CreditPayload, _caused_by: Option<&str>, names: &Names) -> Option<String> {
        names.our_payment(p.payment_id).map(|line| format!("Creditering van {}", line.text()))
    }

    fn wants(p: &CreditPayload, wanted: &mut Wanted) {
        wanted.our_payment(p.payment_id);
    }

    async fn run(&self, ctx: &JobContext, _job: &Claimed, p: CreditPayload) -> Result<Value, JobError> {
        let (payment, mut tx) = locked(ctx, p.payment_id).await?;
        let total = payment.to_credit_cents();
        let mut credits = books::credit_state(&mut tx, payment.id).await?;
        if total == credits.booked {
            tx.commit().await?;
            return Ok(json!({ "paymentId": payment.id, "skipped": "Dit bedrag is al gecrediteerd.", "credited": credits.booked }));
        }
        let (original, _) = invoice(&mut tx, &self.bookkeeping, &payment).await?;
        let (contact_id, _) = contact(&mut tx, &self.bookkeeping, &payment).await?;
        let mut documents = Vec::new();
        // one credit invoice, or a reversal per credit invoice it undoes (latest first)
        // bounded: each document moves the books (a stuck one would repeat its reference)
        for _ in 0..MAX_DOCUMENTS {
            let Some((draft, refers_to, after)) = payment.credit_draft(&original, &credits, total, billing::today()) else { break };
            let made = self.bookkeeping.ensure_invoice(&contact_id, &draft).await.map_err(failed)?;
            let made =
                Made { provider: self.bookkeeping.name(), provider_invoice_id: &made.id, number: &made.number, url: made.url.as_deref() };
            let (document, recorded) = books::record_invoice(&mut tx, payment.id, &draft, &made, Some((refers_to, after))).await?;
            documents.push(json!({
                "invoiceId": document.id,
                "kind": document.kind.as_str(),
                "number": document.number,
                "refersTo": draft.credits.as_ref().map(|c| c.number.clone()),
                "amountCents": document.amount_cents,
                "made": recorded,
            }));
            credits = books::credit_state(&mut tx, payment.id).await?;
        }
        if credits.booked != total {
            return Err(JobError::Permanent(format!(
                "payment {}: the books credit {} cents and cannot reach {} (no credit invoice left to reverse)",
                payment.id, credits.booked.0, total.0
            )));
        }
        tx.commit().await?;
        Ok(json!({ "paymentId": payment.id, "creditedTotalCents": total, "documents": documents }))
    }
}
