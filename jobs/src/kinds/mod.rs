//! One file per job kind.

pub mod bookkeeping;
pub mod check_unpaid;
pub mod expire_subscriptions;
pub mod probe;
pub mod prune_jobs;
pub mod purge_consults;
pub mod renew_subscription;
pub mod renew_subscriptions;
pub mod send_email;
pub mod summarise;
pub mod sync_payment;

pub use bookkeeping::{CreateContact, CreateInvoice, CreditInvoice};
pub use check_unpaid::CheckUnpaid;
pub use expire_subscriptions::ExpireSubscriptions;
pub use probe::Probe;
pub use prune_jobs::PruneJobs;
pub use purge_consults::PurgeConsults;
pub use renew_subscription::RenewSubscription;
pub use renew_subscriptions::RenewSubscriptions;
pub use send_email::SendEmail;
pub use summarise::SummariseConsult;
pub use sync_payment::SyncPayment;

/// Every kind's stable name (the pruning sweep cleans each one's Redis keys).
pub fn all() -> Vec<&'static str> {
    use crate::kind::Job;
    vec![
        CheckUnpaid::KIND,
        CreateContact::KIND,
        CreateInvoice::KIND,
        CreditInvoice::KIND,
        ExpireSubscriptions::KIND,
        Probe::KIND,
        PruneJobs::KIND,
        PurgeConsults::KIND,
        RenewSubscription::KIND,
        RenewSubscriptions::KIND,
        SendEmail::KIND,
        SummariseConsult::KIND,
        SyncPayment::KIND,
    ]
}
