//! Consults (`/api/consult...`): the user's own, the patient and carer renderings, and the
//! helper-user flag. Their live sessions are opened in [`crate::consult::session`].

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post, put};
use chrono::{DateTime, Utc};
use domain::consult_render::{self, Perspective};
use domain::consults::{self, Consult, Source};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::auth::gate;
use crate::auth::{CurrentUser, Staff};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Json, Path};
use crate::state::AppState;

/// The largest consult content, serialised.
pub const MAX_CONTENT_BYTES: usize = 512 * 1024;

/// Whether `value` written as JSON is over [`MAX_CONTENT_BYTES`].
pub fn too_large(value: &Value) -> bool {
    serde_json::to_vec(value).map(|b| b.len()).unwrap_or(usize::MAX) > MAX_CONTENT_BYTES
}

pub fn router(state: &AppState) -> Router<AppState> {
    let consults = Router::new()
        .route("/api/consult", put(create_consult))
        .route("/api/consult/{consult_id}", get(read_consult).post(update_consult).delete(delete_consult))
        .route("/api/consult/{consult_id}/note", put(save_note))
        .route("/api/consult/{consult_id}/render/{perspective}", get(render_consult));
    Router::new()
        .route("/api/consult/isHelperUser", get(is_helper_user))
        .route("/api/cms/setIsHelperUser/{user_id}", post(set_helper_user))
        .merge(gate::gated(consults, state))
}

/// A consult: its id and content. The content is the client's own JSON object (template,
/// transcript, note); the summary job adds `result` and `template` to it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConsultView {
    pub id: String,
    /// app, electronic or record_system
    pub source: String,
    #[schema(value_type = Object)]
    pub content: Value,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The consult and everything of it is deleted at this moment.
    pub expires_at: DateTime<Utc>,
    /// The note as the clinician last left it on the consult page (`PUT .../note`); absent until
    /// then.
    #[schema(value_type = Option<Object>)]
    pub note: Option<Value>,
    /// When the note was last saved.
    pub note_saved_at: Option<DateTime<Utc>>,
}

impl From<Consult> for ConsultView {
    fn from(c: Consult) -> Self {
        Self {
            id: c.id,
            source: c.source,
            content: c.content,
            created_at: c.created_at,
            updated_at: c.updated_at,
            expires_at: c.expires_at,
            note: c.note,
            note_saved_at: c.note_saved_at,
        }
    }
}

/// A consult's content: a JSON object, at most 512 kB serialised.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ConsultInput {
    /// The client's own JSON object; an empty one when left out.
    #[schema(value_type = Object, required = false)]
    #[serde(default = "empty_object")]
    pub content: Value,
}

fn empty_object() -> Value {
    Value::Object(Default::default())
}

impl ConsultInput {
    fn checked(self) -> Result<Value, ApiError> {
        if !self.content.is_object() {
            return Err(ApiError::BadRequest {
                code: "invalid_consult",
                message: "De inhoud van een consult moet een object zijn.".into(),
            });
        }
        if too_large(&self.content) {
            return Err(ApiError::BadRequest {
                code: "consult_too_large",
                message: "Het consult is te groot om op te slaan (hoogstens 512 kB).".into(),
            });
        }
        Ok(self.content)
    }
}

/// The consult page's note: the form as the clinician edits it, a JSON object of at most 512 kB
/// serialised, kept whole (fields the api does not know included).
#[derive(Debug, Deserialize, ToSchema)]
pub struct ConsultNote {
    #[schema(value_type = Object)]
    pub note: Value,
}

impl ConsultNote {
    fn checked(self) -> Result<Value, ApiError> {
        let Value::Object(fields) = &self.note else {
            return Err(ApiError::BadRequest { code: "invalid_note", message: "De notitie moet een object zijn.".into() });
        };
        if !fields.get("template").is_some_and(Value::is_string) {
            return Err(ApiError::BadRequest {
                code: "invalid_note",
                message: "De notitie mist het sjabloon waarmee ze is gemaakt.".into(),
            });
        }
        if too_large(&self.note) {
            return Err(ApiError::BadRequest {
                code: "note_too_large",
                message: "De notitie is te groot om op te slaan (hoogstens 512 kB).".into(),
            });
        }
        Ok(self.note)
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NoteSaved {
    pub note_saved_at: DateTime<Utc>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedConsult {
    pub id: String,
}

/// Stores a new consult; it is kept for the consult retention.
#[utoipa::path(put, path = "/api/consult", tag = "consult", security(("bearer" = [])),
    request_body = ConsultInput,
    responses((status = 201, body = CreatedConsult), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
pub async fn create_consult(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(input): Json<ConsultInput>,
) -> Result<(StatusCode, Json<CreatedConsult>), ApiError> {
    let content = input.checked()?;
    let mut conn = state.db.acquire().await?;
    let consult = consults::create(&mut conn, &user.id, Source::App, &content, state.config.consults.retention).await?;
    Ok((StatusCode::CREATED, Json(CreatedConsult { id: consult.id })))
}

/// One of the user's consults; anyone else's is not found.
#[utoipa::path(get, path = "/api/consult/{consult_id}", tag = "consult", security(("bearer" = [])),
    params(("consult_id" = String, Path)),
    responses((status = 200, body = ConsultView), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn read_consult(State(state): State<AppState>, user: CurrentUser, Path(id): Path<String>) -> Result<Json<ConsultView>, ApiError> {
    let consult = consults::get(&state.db, &user.id, &id).await?.ok_or(ApiError::NotFound)?;
    Ok(Json(consult.into()))
}

/// Replaces the content of one of the user's consults.
#[utoipa::path(post, path = "/api/consult/{consult_id}", tag = "consult", security(("bearer" = [])),
    params(("consult_id" = String, Path)), request_body = ConsultInput,
    responses((status = 200, body = ConsultView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn update_consult(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
    Json(input): Json<ConsultInput>,
) -> Result<Json<ConsultView>, ApiError> {
    let content = input.checked()?;
    let consult = consults::update(&state.db, &user.id, &id, &content).await?.ok_or(ApiError::NotFound)?;
    Ok(Json(consult.into()))
}

/// Keeps the consult page's note (the form with the clinician's edits) with one of the user's
/// consults, so a reload restores it; it goes with the consult when its retention has passed.
/// Anyone else's consult, or an expired one, is not found.
#[utoipa::path(put, path = "/api/consult/{consult_id}/note", tag = "consult", security(("bearer" = [])),
    params(("consult_id" = String, Path)), request_body = ConsultNote,
    responses((status = 200, body = NoteSaved), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn save_note(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
    Json(input): Json<ConsultNote>,
) -> Result<Json<NoteSaved>, ApiError> {
    let note = input.checked()?;
    let note_saved_at = consults::save_note(&state.db, &user.id, &id, &note).await?.ok_or(ApiError::NotFound)?;
    Ok(Json(NoteSaved { note_saved_at }))
}

/// Deletes one of the user's consults with its sessions, transcripts and summaries.
#[utoipa::path(delete, path = "/api/consult/{consult_id}", tag = "consult", security(("bearer" = [])),
    params(("consult_id" = String, Path)),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn delete_consult(State(state): State<AppState>, user: CurrentUser, Path(id): Path<String>) -> Result<StatusCode, ApiError> {
    let sessions: Vec<String> =
        sqlx::query_scalar!("select id from consult_sessions where consult_id = $1 and user_id = $2", &id, &user.id)
            .fetch_all(&state.db)
            .await?;
    if !consults::delete(&state.db, &user.id, &id).await? {
        return Err(ApiError::NotFound);
    }
    if !sessions.is_empty() {
        let mut conn = state.jobs.connection().await?;
        for session in sessions {
            if let Err(e) = state.consult.transcripts.delete(&mut conn, &session).await {
                tracing::warn!(error = %e, "a deleted consult's transcript stays until it expires");
            }
        }
    }
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Rendering {
    #[schema(value_type = PerspectiveName)]
    pub perspective: String,
    pub text: String,
}

/// For whom a note is rendered: the patient or a carer (`domain::consult_render::Perspective`).
#[derive(ToSchema)]
#[allow(dead_code)] // the document's shape of the `perspective` path segment
pub enum PerspectiveName {
    #[schema(rename = "PATIENT")]
    Patient,
    #[schema(rename = "CARER")]
    Carer,
}

/// The consult's note in plain Dutch for the patient (`PATIENT`) or a carer (`CARER`).
#[utoipa::path(get, path = "/api/consult/{consult_id}/render/{perspective}", tag = "consult", security(("bearer" = [])),
    params(("consult_id" = String, Path), ("perspective" = PerspectiveName, Path)),
    responses((status = 200, body = Rendering), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn render_consult(
    State(state): State<AppState>,
    user: CurrentUser,
    Path((id, perspective)): Path<(String, String)>,
) -> Result<Json<Rendering>, ApiError> {
    let perspective = Perspective::parse(&perspective)
        .ok_or_else(|| ApiError::BadRequest { code: "invalid_perspective", message: "Kies PATIENT of CARER.".into() })?;
    let consult = consults::get(&state.db, &user.id, &id).await?.ok_or(ApiError::NotFound)?;
    let text =
        consult_render::render(&consult.content, perspective).ok_or(ApiError::Missing("Dit consult heeft nog geen samenvatting."))?;
    Ok(Json(Rendering { perspective: perspective.as_str().to_owned(), text }))
}

/// Whether the user is a helper user.
#[utoipa::path(get, path = "/api/consult/isHelperUser", tag = "consult", security(("bearer" = [])),
    responses((status = 200, body = bool, content_type = "application/json"), (status = 401, body = ErrorBody)))]
pub async fn is_helper_user(State(state): State<AppState>, user: CurrentUser) -> Result<Json<bool>, ApiError> {
    Ok(Json(consults::is_helper(&state.db, &user.id).await?))
}

/// Staff: marks a user as a helper user, or not (body `true` or `false`).
#[utoipa::path(post, path = "/api/cms/setIsHelperUser/{user_id}", tag = "cms", security(("bearer" = [])),
    params(("user_id" = String, Path)), request_body(content = bool, content_type = "application/json"),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn set_helper_user(
    State(state): State<AppState>,
    staff: Staff,
    Path(user_id): Path<String>,
    Json(flag): Json<bool>,
) -> Result<StatusCode, ApiError> {
    let mut tx = state.db.begin().await?;
    let Some((before, email)) = consults::set_helper(&mut tx, &user_id, flag).await? else {
        return Err(ApiError::NotFound);
    };
    let entry = domain::audit::Entry {
        action: domain::audit::Action::SetHelperUser,
        subject_type: "user",
        subject_id: user_id.clone(),
        concerns_user_id: Some(user_id.clone()),
        concerns_organisation_id: None,
        changes: serde_json::json!({ "before": { "isHelper": before }, "after": { "isHelper": flag } }),
        about: format!("van {email} {}", if flag { "aan" } else { "uit" }),
    };
    domain::audit::record(&mut tx, &staff.actor, &entry).await?;
    tx.commit().await?;
    tracing::info!(staff = %staff.user.id, target = %user_id, flag, "helper flag set");
    Ok(StatusCode::NO_CONTENT)
}
