//! `renew_subscriptions`: the nightly sweep that queues one `renew_subscription` job per
//! subscription whose next period is due (ids only; the key `renew:<subscription>:<period start>`
//! makes it one job per subscription and period, however often the sweep runs), and one reminder
//! e-mail per renewal that failed 3 days ago and is still unpaid (a key per payment).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use integrations::payments::SharedProvider;

use crate::kind::{Job, JobContext, JobError, Policy};
use crate::kinds::{RenewSubscription, SendEmail};
use crate::record::{Claimed, NewJob};
use crate::told::{count, plural};

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct RenewSweepPayload {}

pub struct RenewSubscriptions {
    pub provider: SharedProvider,
}

impl RenewSubscriptions {
    pub fn job() -> NewJob {
        NewJob::of::<RenewSubscriptions>(&RenewSweepPayload {})
    }
}

impl Job for RenewSubscriptions {
    const KIND: &'static str = "renew_subscriptions";
    const LABEL: &'static str = "Verlengingen starten";
    type Payload = RenewSweepPayload;

    fn policy() -> Policy {
        Policy::SWEEP
    }

    fn summarise_result(result: &Value) -> Option<String> {
        Some(format!(
            "{} gestart, {} verstuurd",
            plural(count(result, "queued"), "verlenging", "verlengingen"),
            plural(count(result, "reminders"), "herinnering", "herinneringen")
        ))
    }

    async fn run(&self, ctx: &JobContext, _job: &Claimed, _payload: RenewSweepPayload) -> Result<Value, JobError> {
        let due = domain::billing::sweeps::due_for_renewal(&ctx.db, domain::billing::today(), self.provider.name()).await?;
        let remind = domain::billing::sweeps::renewals_to_remind(&ctx.db, domain::billing::today()).await?;
        let jobs: Vec<NewJob> = due
            .iter()
            .map(|d| RenewSubscription::job(d.subscription_id, d.period_start))
            .chain(remind.iter().map(|&payment| SendEmail::renewal_reminder(payment).dedupe_key(format!("renewal_reminder:{payment}"))))
            .collect();
        let mut conn = ctx.db.acquire().await?;
        let queued = crate::record::enqueue_many(&mut conn, &jobs).await?;
        drop(conn);
        ctx.dispatcher.push_committed(&queued, "renewals").await;
        tracing::info!(due = due.len(), reminders = remind.len(), queued = queued.len(), "renewals queued");
        Ok(json!({ "due": due.len(), "reminders": remind.len(), "queued": queued.len() }))
    }
}
