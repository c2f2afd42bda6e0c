//! Achtergrondtaken: the background work that went wrong, the queues at a glance, and a retry.

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use domain::audit;
use domain::cms::PAGE_SIZE;
use jobs::admin::{JobProblem, Overview};
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;
use uuid::Uuid;

use super::{PageQuery, audited, checked_page};
use crate::auth::Staff;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Json, Query};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/cms/jobs/problems", get(job_problems))
        .route("/api/cms/jobs/overview", get(job_overview))
        .route("/api/cms/jobs/{id}/retry", post(retry_job))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobProblemPage {
    /// The latest change first.
    pub rows: Vec<JobProblem>,
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
}

/// Staff: background jobs that are retrying, failed or dead, in words.
#[utoipa::path(get, path = "/api/cms/jobs/problems", tag = "cms", security(("bearer" = [])), params(PageQuery),
    responses((status = 200, body = JobProblemPage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn job_problems(
    State(state): State<AppState>,
    _staff: Staff,
    Query(q): Query<PageQuery>,
) -> Result<Json<JobProblemPage>, ApiError> {
    let page = checked_page(q.page)?;
    let (rows, total) = jobs::admin::problems(&state.db, page, PAGE_SIZE).await?;
    Ok(Json(JobProblemPage { rows, total, page, page_size: PAGE_SIZE }))
}

/// Staff: the queues with work and each sweep's last run.
#[utoipa::path(get, path = "/api/cms/jobs/overview", tag = "cms", security(("bearer" = [])),
    responses((status = 200, body = Overview), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn job_overview(State(state): State<AppState>, _staff: Staff) -> Result<Json<Overview>, ApiError> {
    Ok(Json(jobs::admin::overview(&state.db).await?))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobRetried {
    /// The same job, queued again; its progress is `GET /api/jobs/{id}`.
    pub job_id: Uuid,
}

pub const JOB_NOT_RETRYABLE: &str = "Deze taak is niet mislukt (meer) en kan niet opnieuw worden geprobeerd.";

/// Staff: 'Opnieuw proberen': queues a retrying, failed or dead job again at once.
#[utoipa::path(post, path = "/api/cms/jobs/{id}/retry", tag = "cms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The job's id")),
    responses((status = 202, body = JobRetried), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn retry_job(
    State(state): State<AppState>,
    staff: Staff,
    Path(id): Path<Uuid>,
) -> Result<(StatusCode, Json<JobRetried>), ApiError> {
    let problem = jobs::admin::problem(&state.db, id).await?.ok_or(ApiError::Missing("Taak niet gevonden"))?;
    audited(&state, &staff, async |tx| {
        if !problem.retryable || !jobs::admin::retry(tx, id).await? {
            return Err(ApiError::Conflict { code: "not_retryable", message: JOB_NOT_RETRYABLE });
        }
        let entry = audit::Entry {
            action: audit::Action::RetryJob,
            subject_type: "job",
            subject_id: id.to_string(),
            concerns_user_id: None,
            concerns_organisation_id: None,
            changes: json!({ "before": { "state": problem.state, "attempts": problem.attempts, "lastError": problem.last_error },
                             "after": { "state": "queued", "attempts": 0 } }),
            about: problem.description.clone(),
        };
        Ok(((), entry))
    })
    .await?;
    state.jobs.push_committed(&[id], "retried job").await;
    Ok((StatusCode::ACCEPTED, Json(JobRetried { job_id: id })))
}
