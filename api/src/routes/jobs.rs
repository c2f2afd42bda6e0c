//! A job's state, for the page that started it.

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use chrono::{DateTime, Utc};
use jobs::JobState;
use jobs::kinds::summarise::SummaryOutcome;
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::auth::UserOrStaff;
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
    pub state: JobState,
    /// Attempts made so far.
    pub attempts: i32,
    pub max_attempts: i32,
    /// Why the last failed attempt failed.
    pub last_error: Option<String>,
    /// What the job produced, when it succeeded.
    pub result: Option<JobResult>,
    /// When the next attempt starts at the earliest.
    pub run_at: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
}

/// What a job produced: a summary job's [`SummaryOutcome`] (with the note under `note` for the
/// job's owner), or the own result object of any other kind. The view's `kind` says which; the
/// document lists them as `oneOf`, untagged, as the JSON has no tag of its own.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum JobResult {
    Summary(SummaryOutcome),
    /// Another kind's result: an object of its own (counts, a message id).
    Other(serde_json::Value),
}

impl utoipa::PartialSchema for JobResult {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, OneOfBuilder, Schema, Type};
        OneOfBuilder::new()
            .item(utoipa::openapi::Ref::from_schema_name("SummaryOutcome"))
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::Object)
                    .additional_properties(Some(AdditionalProperties::<Schema>::FreeForm(true)))
                    .description(Some("Another kind's own result.")),
            )
            .description(Some(
                "What the job produced: a summary job's `SummaryOutcome`, or another kind's own object (the view's `kind` says which).",
            ))
            .into()
    }
}

impl ToSchema for JobResult {
    fn schemas(schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>) {
        schemas.push((SummaryOutcome::name().into_owned(), <SummaryOutcome as utoipa::PartialSchema>::schema()));
        SummaryOutcome::schemas(schemas);
    }
}

/// The state of a job, for the user whose action caused it and for staff; anyone else gets 404.
/// Staff opening a job another user caused is written to the audit log.
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
pub async fn job(State(state): State<AppState>, caller: UserOrStaff, Path(id): Path<String>) -> Result<Json<JobView>, ApiError> {
    let user = &caller.user;
    let id: Uuid = id.parse().map_err(|_| ApiError::NotFound)?;
    let record = jobs::find(&state.db, id).await?.ok_or(ApiError::NotFound)?;
    let own = record.caused_by.as_deref() == Some(user.id.as_str());
    if !user.is_staff && !own {
        return Err(ApiError::NotFound);
    }
    if let (Some(actor), Some(owner), false) = (&caller.staff, &record.caused_by, own) {
        let email = sqlx::query_scalar!("select email from users where id = $1", owner).fetch_optional(&state.db).await?;
        let mut tx = state.db.begin().await?;
        let entry = domain::audit::Entry {
            action: domain::audit::Action::ReadUserJob,
            subject_type: "job",
            subject_id: record.id.to_string(),
            concerns_user_id: Some(owner.clone()),
            concerns_organisation_id: None,
            changes: serde_json::json!({}),
            about: format!("{} ({}) van {}", record.kind, record.id, email.as_deref().unwrap_or(owner)),
        };
        domain::audit::record(&mut tx, actor, &entry).await?;
        tx.commit().await?;
    }
    let result = match record.result {
        None => None,
        Some(value) if record.kind == <jobs::kinds::SummariseConsult as jobs::Job>::KIND => {
            let mut outcome: SummaryOutcome = serde_json::from_value(value).map_err(|e| ApiError::Internal(e.into()))?;
            // a summary job keeps only where its note is; its owner gets the note itself (staff
            // see the job, never the note)
            if own {
                outcome.note = domain::consults::find_summary(&state.db, &outcome.summary_id).await?.and_then(|s| s.note().cloned());
            }
            Some(JobResult::Summary(outcome))
        }
        Some(value) => Some(JobResult::Other(value)),
    };
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
