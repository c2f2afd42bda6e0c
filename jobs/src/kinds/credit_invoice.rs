//! `credit_invoice`: a credit invoice for what was refunded or charged back of a paid payment,
//! bringing its credit invoices up to the total the provider reports (never beyond what was
//! paid), keyed by the payment and that total so the same report credits once.

use domain::billing::books::{self, Made};
use domain::billing::{self, Cents};
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
    /// Refunded and charged back in total, as reported: the credit brings the payment's credit
    /// invoices up to this.
    pub credited_total_cents: Cents,
}

pub struct CreditInvoice {
    pub bookkeeping: SharedBookkeeping,
}

impl CreditInvoice {
    pub fn job(payment_id: Uuid, credited_total_cents: Cents) -> NewJob {
        NewJob::of::<CreditInvoice>(&CreditPayload { payment_id, credited_total_cents })
            .dedupe_key(format!("credit_invoice:{payment_id}:{}", credited_total_cents.0))
    }
}

impl Job for CreditInvoice {
    const KIND: &'static str = "credit_invoice";
    const LABEL: &'static str = "Creditfactuur maken";
    type Payload = CreditPayload;

    fn policy() -> Policy {
        POLICY
    }

    fn describe(p: &CreditPayload, _caused_by: Option<&str>, names: &Names) -> Option<String> {
        names.our_payment(p.payment_id).map(|line| format!("Creditfactuur voor {}", line.text()))
    }

    fn wants(p: &CreditPayload, wanted: &mut Wanted) {
        wanted.our_payment(p.payment_id);
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
