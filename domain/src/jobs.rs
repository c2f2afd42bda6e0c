//! A background job's state, as the `jobs` row keeps it (`state`, a text column with a check of
//! these six names), as the worker's runner decides it and as the api and the live events show it.
//!
//! The runner alone changes and announces a job's state; the job kinds only hear of it.

use serde::{Deserialize, Serialize};
use sqlx::Postgres;
use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::postgres::{PgArgumentBuffer, PgTypeInfo, PgValueRef};
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

impl JobState {
    pub const ALL: [JobState; 6] =
        [JobState::Queued, JobState::Running, JobState::Succeeded, JobState::Retrying, JobState::Failed, JobState::Dead];

    pub fn as_str(self) -> &'static str {
        match self {
            JobState::Queued => "queued",
            JobState::Running => "running",
            JobState::Succeeded => "succeeded",
            JobState::Retrying => "retrying",
            JobState::Failed => "failed",
            JobState::Dead => "dead",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        JobState::ALL.into_iter().find(|state| state.as_str() == s)
    }

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

impl sqlx::Type<Postgres> for JobState {
    fn type_info() -> PgTypeInfo {
        <&str as sqlx::Type<Postgres>>::type_info()
    }

    fn compatible(ty: &PgTypeInfo) -> bool {
        <&str as sqlx::Type<Postgres>>::compatible(ty)
    }
}

impl<'r> sqlx::Decode<'r, Postgres> for JobState {
    fn decode(value: PgValueRef<'r>) -> Result<Self, BoxDynError> {
        let s = <&'r str as sqlx::Decode<'r, Postgres>>::decode(value)?;
        JobState::parse(s).ok_or_else(|| format!("unknown job state {s:?}").into())
    }
}

impl sqlx::Encode<'_, Postgres> for JobState {
    fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
        <&str as sqlx::Encode<'_, Postgres>>::encode_by_ref(&self.as_str(), buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_states_name_is_its_wire_name_and_reads_back() {
        for state in JobState::ALL {
            assert_eq!(serde_json::to_value(state).unwrap(), state.as_str());
            assert_eq!(JobState::parse(state.as_str()), Some(state));
        }
        assert_eq!(JobState::parse("done"), None);
    }
}
