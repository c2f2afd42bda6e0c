//! One file per job kind, [`follow_up`] (what a payment's status queues: contact, invoice,
//! credit), and [`catalogue`]: every kind as staff see it.

pub mod check_unpaid;
pub mod create_contact;
pub mod create_invoice;
pub mod credit_invoice;
pub mod expire_subscriptions;
pub mod follow_up;
pub mod probe;
pub mod prune_jobs;
pub mod purge_consults;
pub mod reconcile_payments;
pub mod renew_subscription;
pub mod renew_subscriptions;
pub mod send_email;
pub mod summarise;
pub mod sync_payment;

use serde::Deserialize;
use serde_json::Value;

pub use check_unpaid::CheckUnpaid;
pub use create_contact::CreateContact;
pub use create_invoice::CreateInvoice;
pub use credit_invoice::CreditInvoice;
pub use expire_subscriptions::ExpireSubscriptions;
pub use probe::Probe;
pub use prune_jobs::PruneJobs;
pub use purge_consults::PurgeConsults;
pub use reconcile_payments::ReconcilePayments;
pub use renew_subscription::RenewSubscription;
pub use renew_subscriptions::RenewSubscriptions;
pub use send_email::SendEmail;
pub use summarise::SummariseConsult;
pub use sync_payment::SyncPayment;

use crate::kind::Job;
use crate::told::{Names, Wanted};

/// A job kind's words for staff, its payload type erased: what the CMS's Achtergrondtaken reads
/// from a row's `kind`, `payload` and `result`.
#[derive(Clone, Copy)]
pub struct Kind {
    pub kind: &'static str,
    pub label: &'static str,
    wants: fn(&Value, &mut Wanted),
    describe: fn(&Value, Option<&str>, &Names) -> Option<String>,
    summarise_result: fn(&Value) -> Option<String>,
}

impl Kind {
    fn of<J: Job>() -> Kind {
        Kind { kind: J::KIND, label: J::LABEL, wants: wants::<J>, describe: describe::<J>, summarise_result: J::summarise_result }
    }

    /// Adds what a job's payload names to `wanted`; a payload that does not read adds nothing.
    pub fn wants(&self, payload: &Value, wanted: &mut Wanted) {
        (self.wants)(payload, wanted)
    }

    /// What the job is for, in Dutch; its label when the payload does not read or names nothing
    /// that was found.
    pub fn describe(&self, payload: &Value, caused_by: Option<&str>, names: &Names) -> String {
        (self.describe)(payload, caused_by, names).unwrap_or_else(|| self.label.to_owned())
    }

    /// What a successful attempt did, in Dutch (the sweeps).
    pub fn summarise_result(&self, result: &Value) -> Option<String> {
        (self.summarise_result)(result)
    }
}

fn wants<J: Job>(payload: &Value, wanted: &mut Wanted) {
    if let Ok(p) = J::Payload::deserialize(payload) {
        J::wants(&p, wanted);
    }
}

fn describe<J: Job>(payload: &Value, caused_by: Option<&str>, names: &Names) -> Option<String> {
    J::describe(&J::Payload::deserialize(payload).ok()?, caused_by, names)
}

/// Every kind, by its stable name.
pub fn catalogue() -> [Kind; 14] {
    [
        Kind::of::<CheckUnpaid>(),
        Kind::of::<CreateContact>(),
        Kind::of::<CreateInvoice>(),
        Kind::of::<CreditInvoice>(),
        Kind::of::<ExpireSubscriptions>(),
        Kind::of::<Probe>(),
        Kind::of::<PruneJobs>(),
        Kind::of::<PurgeConsults>(),
        Kind::of::<ReconcilePayments>(),
        Kind::of::<RenewSubscription>(),
        Kind::of::<RenewSubscriptions>(),
        Kind::of::<SendEmail>(),
        Kind::of::<SummariseConsult>(),
        Kind::of::<SyncPayment>(),
    ]
}

/// The kind named `kind`, if there is one.
pub fn named(kind: &str) -> Option<Kind> {
    catalogue().into_iter().find(|k| k.kind == kind)
}

/// Every kind's stable name (the pruning sweep cleans each one's Redis keys).
pub fn all() -> Vec<&'static str> {
    catalogue().iter().map(|k| k.kind).collect()
}
