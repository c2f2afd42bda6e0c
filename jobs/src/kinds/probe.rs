//! `probe`: a job that does nothing but what its payload asks (wait, fail, panic) and leaves a
//! line per success in `effects.log`. Workers run it only with `APP_JOBS_PROBE=on`; the tests and
//! the benchmark use it, nothing in the product enqueues it.

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;

use crate::kind::{Job, JobContext, JobError, Policy};
use crate::record::{Claimed, NewJob};

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ProbePayload {
    #[serde(default)]
    pub sleep_ms: u64,
    /// Attempts up to this number fail.
    #[serde(default)]
    pub fail_attempts: u32,
    /// Failures are permanent.
    #[serde(default)]
    pub permanent: bool,
    /// The failures' error text carries a NUL character (which PostgreSQL refuses in text).
    #[serde(default)]
    pub nul_in_error: bool,
    #[serde(default)]
    pub panic: bool,
    /// After succeeding, the stream that ran it stops fetching, without an error and without
    /// ending, as a wedged apalis stream does (for the watchdog's test).
    #[serde(default)]
    pub wedge_stream: bool,
    /// Enqueue time in epoch microseconds, for the latency benchmark.
    #[serde(default)]
    pub sent_us: u64,
}

pub struct Probe {
    /// Where `effects.log` is written; `None`: no side effect.
    pub dir: Option<PathBuf>,
}

impl Probe {
    pub fn job(payload: &ProbePayload) -> NewJob {
        NewJob::of::<Probe>(payload)
    }
}

impl Job for Probe {
    const KIND: &'static str = "probe";
    const LABEL: &'static str = "Testtaak";
    type Payload = ProbePayload;

    fn policy() -> Policy {
        Policy {
            max_attempts: 3,
            backoff: Duration::from_millis(200),
            backoff_max: Duration::from_secs(1),
            timeout: Duration::from_secs(5),
            concurrency: 50,
            poll_interval: None,
            yields: false,
        }
    }

    async fn run(&self, _ctx: &JobContext, job: &Claimed, p: ProbePayload) -> Result<Value, JobError> {
        let started_us = chrono::Utc::now().timestamp_micros() as u64;
        if p.sleep_ms > 0 {
            tokio::time::sleep(Duration::from_millis(p.sleep_ms)).await;
        }
        if p.panic {
            panic!("probe asked to panic");
        }
        if job.attempts as u32 <= p.fail_attempts {
            let nul = if p.nul_in_error { "\0" } else { "" };
            let e = format!("probe fails attempt {}{nul}", job.attempts);
            return Err(if p.permanent { JobError::Permanent(e) } else { JobError::Retryable(e) });
        }
        if let Some(dir) = &self.dir {
            let mut file = tokio::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(dir.join("effects.log"))
                .await
                .map_err(|e| JobError::Retryable(e.to_string()))?;
            file.write_all(format!("{} {}\n", job.id, job.attempts).as_bytes()).await.map_err(|e| JobError::Retryable(e.to_string()))?;
        }
        let ended_us = chrono::Utc::now().timestamp_micros() as u64;
        Ok(json!({
            "attempt": job.attempts,
            "latencyUs": started_us.saturating_sub(p.sent_us),
            // the handler's run, for tests that count handlers at once
            "startedUs": started_us,
            "endedUs": ended_us,
            "wedgeStream": p.wedge_stream,
        }))
    }
}
