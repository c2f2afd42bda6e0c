//! A background job's state, as the `jobs` row keeps it (`state`, a text column with a check of
//! these six names), as the worker's runner decides it and as the api and the live events show it.
//!
//! The runner alone changes and announces a job's state; the job kinds only hear of it.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The state of a job: `queued`, `running`, `retrying` (an attempt failed, another follows at
/// `runAt`), `succeeded`, `failed` (a permanent error) or `dead` (every attempt failed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    Queued,
    Running,
    Succeeded,
    Retrying,
    Failed,
    Dead,
}

crate::db::text_column!(JobState {
    Queued => "queued",
    Running => "running",
    Succeeded => "succeeded",
    Retrying => "retrying",
    Failed => "failed",
    Dead => "dead",
});

impl JobState {
    /// No further attempt follows: `succeeded`, `failed` or `dead`.
    pub fn is_finished(self) -> bool {
        matches!(self, JobState::Succeeded | JobState::Failed | JobState::Dead)
    }

    /// The job ended without a result: `failed` or `dead`.
    pub fn is_failure(self) -> bool {
        matches!(self, JobState::Failed | JobState::Dead)
    }
}

impl std::fmt::Display for JobState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_states_name_is_its_wire_name_and_reads_back() {
        for state in JobState::ALL {
            assert_eq!(serde_json::to_value(state).unwrap(), state.as_str());
            assert_eq!(JobState::from_stored(state.as_str()), Some(state));
        }
        assert_eq!(JobState::from_stored("done"), None);
    }
}
