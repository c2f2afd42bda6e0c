//! `create_invoice`: the paid payment's invoice at the bookkeeping provider, made once (with the
//! buyer's contact, [`super::create_contact`], when there is none yet), under the payment's
//! bookkeeping lock. A payment without an amount gets no invoice.

use domain::billing::books::{self, BillablePayment, Invoice, Made};
use integrations::bookkeeping::SharedBookkeeping;
use serde_json::{Value, json};
use sqlx::PgConnection;
use uuid::Uuid;

use super::create_contact::{POLICY, PaymentPayload, contact, failed, locked};
use crate::kind::{Job, JobContext, JobError, Policy};
use crate::record::{Claimed, NewJob};
use crate::told::{Names, Wanted};

pub struct CreateInvoice {
    pub bookkeeping: SharedBookkeeping,
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

/// The payment's invoice, made when there is none (under the payment's lock in `tx`).
pub(crate) async fn invoice(tx: &mut PgConnection, books: &SharedBookkeeping, p: &BillablePayment) -> Result<(Invoice, bool), JobError> {
    if let Some(done) = books::invoice_of_payment(&mut *tx, p.id).await? {
        return Ok((done, false));
    }
    let (contact_id, _) = contact(tx, books, p).await?;
    let draft = p.invoice_draft();
    let made = books.ensure_invoice(&contact_id, &draft).await.map_err(failed)?;
    let made = Made { provider: books.name(), provider_invoice_id: &made.id, number: &made.number, url: made.url.as_deref() };
    Ok(books::record_invoice(tx, p.id, &draft, &made, None).await?)
}

impl Job for CreateInvoice {
    const KIND: &'static str = "create_invoice";
    const LABEL: &'static str = "Factuur maken";
    type Payload = PaymentPayload;

    fn policy() -> Policy {
        POLICY
    }

    fn describe(p: &PaymentPayload, _caused_by: Option<&str>, names: &Names) -> Option<String> {
        names.our_payment(p.payment_id).map(|line| format!("Factuur voor {}", line.text()))
    }

    fn wants(p: &PaymentPayload, wanted: &mut Wanted) {
        wanted.our_payment(p.payment_id);
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
