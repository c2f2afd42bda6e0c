//! Job metrics, recorded through the `metrics` facade; each process serves them on `/metrics`.

use std::time::Duration;

pub(crate) fn enqueued(kind: &str, n: u64) {
    metrics::counter!("jobs_enqueued_total", "kind" => kind.to_owned()).increment(n);
}

pub(crate) fn started(kind: &str) {
    metrics::counter!("jobs_started_total", "kind" => kind.to_owned()).increment(1);
}

/// The counter of ended attempts, labelled `kind` and `outcome` (the state the attempt left the
/// job in).
pub const FINISHED: &str = "jobs_finished_total";

/// An attempt ended: `outcome` is the state it left the job in.
pub(crate) fn finished(kind: &str, outcome: &str, took: Duration) {
    metrics::counter!(FINISHED, "kind" => kind.to_owned(), "outcome" => outcome.to_owned()).increment(1);
    metrics::histogram!("jobs_attempt_duration_seconds", "kind" => kind.to_owned()).record(took.as_secs_f64());
}

/// Messages waiting in Redis: `set` is `scheduled` (apalis's sorted set, where every push lands)
/// or `active` (promoted, ready to fetch).
pub(crate) fn queue_depth(queue: &str, set: &'static str, n: u64) {
    metrics::gauge!("jobs_queue_depth", "queue" => queue.to_owned(), "set" => set).set(n as f64);
}

pub(crate) fn dead(kind: &str, n: i64) {
    metrics::gauge!("jobs_dead", "kind" => kind.to_owned()).set(n as f64);
}

/// Due jobs in PostgreSQL without a message in Redis.
pub(crate) fn relay_backlog(n: i64) {
    metrics::gauge!("jobs_relay_backlog").set(n as f64);
}

pub(crate) fn relay(action: &'static str, n: u64) {
    if n > 0 {
        metrics::counter!("jobs_relay_total", "action" => action).increment(n);
    }
}

pub(crate) fn pushed(kind: &str, n: u64) {
    metrics::counter!("jobs_pushed_total", "kind" => kind.to_owned()).increment(n);
}

pub fn worker_restart(queue: &str) {
    metrics::counter!("jobs_worker_restarts_total", "queue" => queue.to_owned()).increment(1);
}

/// Age of a kind's oldest due job that waits to run.
pub(crate) fn oldest_waiting(kind: &str, age: Duration) {
    metrics::gauge!("jobs_oldest_waiting_seconds", "kind" => kind.to_owned()).set(age.as_secs_f64());
}

/// When a stream of a kind last asked Redis for work (epoch seconds).
pub(crate) fn last_fetch(kind: &str, at_ms: u64) {
    metrics::gauge!("jobs_last_fetch_timestamp_seconds", "kind" => kind.to_owned()).set(at_ms as f64 / 1000.0);
}

/// A queue's stream was restarted by the watchdog.
pub fn stalled_restart(queue: &str) {
    metrics::counter!("jobs_stalled_restarts_total", "queue" => queue.to_owned()).increment(1);
}
