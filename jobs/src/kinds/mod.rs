//! One file per job kind.

pub mod prune_jobs;
pub mod probe;
pub mod send_email;

pub use prune_jobs::PruneJobs;
pub use probe::Probe;
pub use send_email::SendEmail;

/// Every kind's stable name (the pruning sweep cleans each one's Redis keys).
pub fn all() -> Vec<&'static str> {
    use crate::kind::Job;
    vec![Probe::KIND, PruneJobs::KIND, SendEmail::KIND]
}
