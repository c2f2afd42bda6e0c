//! `reconcile_payments`: the sweep (every minute) that asks the payment provider again about
//! every payment whose news may have been lost: not final yet past a short grace, and paid in
//! the last weeks (a refund or a chargeback), each spaced out by its age
//! ([`domain::billing::sweeps::due_for_reconciliation`]). It queues a `sync_payment` for each
//! ([`crate::kinds::sync_payment::queue`]: none where one already waits), so a lost webhook, a
//! refused webhook or a sync whose attempts ran out on a refused key all end the same way: the
//! payment as the provider has it, a paid one as an active subscription with its invoice.

use std::time::Duration;

use domain::billing::sweeps::ReconcileTiming;
use integrations::payments::SharedProvider;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::kind::{Job, JobContext, JobError, Policy};
use crate::kinds::sync_payment;
use crate::record::{Claimed, NewJob};
use crate::told::{count, plural};

/// Payments asked about per run at most (the rest wait for the next minute).
pub const PER_RUN: i64 = 500;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ReconcilePayload {}

pub struct ReconcilePayments {
    pub provider: SharedProvider,
    /// When a payment is asked about (`APP_RECONCILE_GRACE`, `APP_RECONCILE_MIN_GAP`,
    /// `APP_RECONCILE_PAID_EVERY`).
    pub timing: ReconcileTiming,
}

impl ReconcilePayments {
    pub fn job() -> NewJob {
        NewJob::of::<ReconcilePayments>(&ReconcilePayload {})
    }
}

impl Job for ReconcilePayments {
    const KIND: &'static str = "reconcile_payments";
    const LABEL: &'static str = "Betalingen nalopen";
    type Payload = ReconcilePayload;

    fn policy() -> Policy {
        Policy { timeout: Duration::from_secs(60), ..Policy::SWEEP }
    }

    fn summarise_result(result: &Value) -> Option<String> {
        Some(format!(
            "{} nagevraagd, {} ingepland",
            plural(count(result, "asked"), "betaling", "betalingen"),
            plural(count(result, "queued"), "controle", "controles")
        ))
    }

    async fn run(&self, ctx: &JobContext, _job: &Claimed, _payload: ReconcilePayload) -> Result<Value, JobError> {
        let due = domain::billing::sweeps::due_for_reconciliation(&ctx.db, self.provider.name(), self.timing, PER_RUN).await?;
        if due.is_empty() {
            return Ok(json!({ "asked": 0, "queued": 0 }));
        }
        let mut conn = ctx.db.acquire().await?;
        let heard = sync_payment::queue(&mut conn, &due).await?;
        drop(conn);
        ctx.dispatcher.push_committed(&heard.queued, "payment syncs").await;
        metrics::counter!("payments_reconciled_total").increment(due.len() as u64);
        tracing::info!(asked = due.len(), queued = heard.queued.len(), "payments reconciled");
        Ok(json!({ "asked": due.len(), "queued": heard.queued.len() }))
    }
}
