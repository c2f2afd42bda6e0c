//! `expire_subscriptions`: the nightly sweep that switches off user and organisation
//! subscriptions whose last day has passed (Europe/Amsterdam). Access already ends at the end of
//! that day, since every check compares `validUntil` with today; the sweep makes the stored
//! `isActive` say so too, for the lists and the CMS.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::kind::{Job, JobContext, JobError, Policy};
use crate::record::{Claimed, NewJob};
use crate::told::{count, plural};

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ExpirePayload {}

pub struct ExpireSubscriptions;

impl ExpireSubscriptions {
    pub fn job() -> NewJob {
        NewJob::of::<ExpireSubscriptions>(&ExpirePayload {})
    }
}

impl Job for ExpireSubscriptions {
    const KIND: &'static str = "expire_subscriptions";
    const LABEL: &'static str = "Verlopen abonnementen uitzetten";
    type Payload = ExpirePayload;

    fn policy() -> Policy {
        Policy::SWEEP
    }

    fn summarise_result(result: &Value) -> Option<String> {
        Some(format!(
            "{} en {} verlopen",
            plural(count(result, "subscriptions"), "abonnement", "abonnementen"),
            plural(count(result, "organisationSubscriptions"), "organisatie-abonnement", "organisatie-abonnementen")
        ))
    }

    async fn run(&self, ctx: &JobContext, _job: &Claimed, _payload: ExpirePayload) -> Result<Value, JobError> {
        let expired = domain::billing::sweeps::expire(&ctx.db, domain::billing::today()).await?;
        tracing::info!(
            subscriptions = expired.subscriptions,
            organisation_subscriptions = expired.organisation_subscriptions,
            "subscriptions expired"
        );
        Ok(serde_json::to_value(expired).expect("counts serialise"))
    }
}
