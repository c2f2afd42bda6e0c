//! `check_unpaid`: the daily 5-day unpaid check. Active paid subscriptions without a PAID payment
//! for their current period, made 5 or more days ago, are recorded as problems (the CMS lists the
//! open ones); staff get one e-mail per run (`APP_STAFF_EMAIL`) listing those not told about yet.
//! A problem closes by itself once its subscription is paid for or no longer active.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::kind::{Job, JobContext, JobError, Policy};
use crate::kinds::SendEmail;
use crate::record::{Claimed, NewJob};
use crate::told::{count, plural};

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct CheckUnpaidPayload {}

pub struct CheckUnpaid;

impl CheckUnpaid {
    pub fn job() -> NewJob {
        NewJob::of::<CheckUnpaid>(&CheckUnpaidPayload {})
    }
}

impl Job for CheckUnpaid {
    const KIND: &'static str = "check_unpaid";
    const LABEL: &'static str = "Abonnementen zonder betaling zoeken";
    type Payload = CheckUnpaidPayload;

    fn policy() -> Policy {
        Policy::SWEEP
    }

    fn summarise_result(result: &Value) -> Option<String> {
        Some(format!("{} zonder betaling gemeld", plural(count(result, "new"), "nieuw abonnement", "nieuwe abonnementen")))
    }

    async fn run(&self, ctx: &JobContext, job: &Claimed, _payload: CheckUnpaidPayload) -> Result<Value, JobError> {
        let found = domain::billing::sweeps::check_unpaid(&ctx.db, domain::billing::today()).await?;
        let untold = domain::billing::sweeps::unnotified(&ctx.db).await?;
        let mut email = None;
        if !untold.is_empty() {
            // one e-mail per run, also when an attempt of this run is repeated
            let mail = SendEmail::unpaid_subscriptions(untold.clone()).dedupe_key(format!("check_unpaid:{}", job.id));
            email = Some(ctx.dispatcher.enqueue_and_push(mail, "unpaid e-mail").await?);
        }
        tracing::info!(new = found.len(), told = untold.len(), "unpaid subscriptions checked");
        Ok(json!({ "new": found.len(), "problems": found.iter().map(|p| p.subscription_id).collect::<Vec<_>>(), "email": email }))
    }
}
