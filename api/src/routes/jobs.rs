//! A job's state, for the page that started it.

use axum::extract::State;
use axum::routing::get;
use axum::Router;
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::auth::CurrentUser;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Json, Path};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/jobs/{id}", get(job))
}

/// A background job as its page sees it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobView {
    pub id: Uuid,
    /// The job kind, e.g. `email`.
    pub kind: String,
    /// `queued`, `running`, `retrying` (an attempt failed, another follows at `runAt`),
    /// `succeeded`, `failed` (a permanent error) or `dead` (every attempt failed).
    #[schema(example = "succeeded")]
    pub state: String,
    /// Attempts made so far.
    pub attempts: i32,
    pub max_attempts: i32,
    /// Why the last failed attempt failed.
    pub last_error: Option<String>,
    /// What the job produced, when it succeeded. A summary job's owner finds the note under
    /// `result.result`.
    #[schema(value_type = Option<Object>)]
    pub result: Option<serde_json::Value>,
    /// When the next attempt starts at the earliest.
    pub run_at: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
}

/// The state of a job, for the user whose action caused it and for staff; anyone else gets 404.
#[utoipa::path(
    get,
    path = "/api/jobs/{id}",
    tag = "jobs",
    security(("bearer" = [])),
    params(("id" = String, Path, description = "the job's id")),
    responses(
        (status = 200, body = JobView),
        (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "no such job, or not the caller's")
    )
)]
pub async fn job(State(state): State<AppState>, user: CurrentUser, Path(id): Path<String>) -> Result<Json<JobView>, ApiError> {
    let id: Uuid = id.parse().map_err(|_| ApiError::NotFound)?;
    let record = jobs::find(&state.db, id).await?.ok_or(ApiError::NotFound)?;
    let own = record.caused_by.as_deref() == Some(user.id.as_str());
    if !user.is_staff && !own {
        return Err(ApiError::NotFound);
    }
    let mut result = record.result;
    if own && record.kind == <jobs::kinds::SummariseConsult as jobs::Job>::KIND {
        with_note(&state, &mut result).await?;
    }
    Ok(Json(JobView {
        id: record.id,
        kind: record.kind,
        state: record.state,
        attempts: record.attempts,
        max_attempts: record.max_attempts,
        last_error: record.last_error,
        result,
        run_at: record.run_at,
        created_at: record.created_at,
        updated_at: record.updated_at,
        started_at: record.started_at,
        finished_at: record.finished_at,
    }))
}

/// A summary job keeps only where its note is; its owner gets the note itself under `result`
/// (staff see the job, never the note).
async fn with_note(state: &AppState, result: &mut Option<serde_json::Value>) -> Result<(), ApiError> {
    let Some(serde_json::Value::Object(fields)) = result else { return Ok(()) };
    let Some(summary_id) = fields.get("summaryId").and_then(|v| v.as_str()).map(str::to_owned) else { return Ok(()) };
    if let Some(note) = domain::consults::find_summary(&state.db, &summary_id).await?.and_then(|s| s.result) {
        fields.insert("result".to_owned(), note);
    }
    Ok(())
}
