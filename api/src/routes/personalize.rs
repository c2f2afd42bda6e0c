//! Personal SOEP examples (`/api/user/personalized/soap`) and corrected notes turned into
//! examples (`/api/feedback/soapexample`).

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{delete, get, post};
use chrono::{DateTime, Utc};
use domain::soap_examples::{self, Parts, SoapExample};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::auth::CurrentUser;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Json, Path};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/user/personalized/soap", get(list).post(save))
        .route("/api/user/personalized/soap/{id}", delete(remove))
        .route("/api/feedback/soapexample", post(from_feedback))
}

/// A SOEP note written the way the user wants theirs.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PersonalizedSoap {
    pub id: Uuid,
    pub subjective: String,
    pub objective: String,
    pub evaluation: String,
    pub plan: String,
    /// `manual` (added on /personalize) or `feedback` (a corrected generated note).
    pub source: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl From<SoapExample> for PersonalizedSoap {
    fn from(e: SoapExample) -> Self {
        Self {
            id: e.id,
            subjective: e.subjective,
            objective: e.objective,
            evaluation: e.evaluation,
            plan: e.plan,
            source: e.source,
            created_at: e.created_at,
            updated_at: e.updated_at,
        }
    }
}

/// An example to add (no id) or change (the id of one of the user's own). At least one part holds
/// more than white space; each part at most 5000 characters (surrounding white space aside).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PersonalizedSoapInput {
    #[schema(pattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")]
    pub id: Option<Uuid>,
    #[serde(default)]
    #[schema(max_length = 5000)]
    pub subjective: String,
    #[serde(default)]
    #[schema(max_length = 5000)]
    pub objective: String,
    #[serde(default)]
    #[schema(max_length = 5000)]
    pub evaluation: String,
    #[serde(default)]
    #[schema(max_length = 5000)]
    pub plan: String,
    /// With `/api/feedback/soapexample`: the consult the note came from.
    pub consult_id: Option<String>,
}

impl PersonalizedSoapInput {
    fn parts(&self) -> Result<Parts, ApiError> {
        Parts {
            subjective: self.subjective.clone(),
            objective: self.objective.clone(),
            evaluation: self.evaluation.clone(),
            plan: self.plan.clone(),
        }
        .checked()
        .map_err(|e| ApiError::BadRequest { code: "invalid_example", message: e.0.to_owned() })
    }
}

/// The user's own examples, oldest first.
#[utoipa::path(get, path = "/api/user/personalized/soap", tag = "user", security(("bearer" = [])),
    responses((status = 200, body = [PersonalizedSoap]), (status = 401, body = ErrorBody)))]
pub async fn list(State(state): State<AppState>, user: CurrentUser) -> Result<Json<Vec<PersonalizedSoap>>, ApiError> {
    Ok(Json(soap_examples::list(&state.db, &user.id).await?.into_iter().map(Into::into).collect()))
}

/// Adds an example, or changes one of the user's own when the body has its id. All four parts
/// empty: 400 'Geen tekst ingevuld'; someone else's id: 404.
#[utoipa::path(post, path = "/api/user/personalized/soap", tag = "user", security(("bearer" = [])),
    request_body = PersonalizedSoapInput,
    responses((status = 200, body = PersonalizedSoap), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn save(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(input): Json<PersonalizedSoapInput>,
) -> Result<Json<PersonalizedSoap>, ApiError> {
    let parts = input.parts()?;
    let saved = match input.id {
        Some(id) => soap_examples::update(&state.db, &user.id, id, &parts).await?.ok_or(ApiError::NotFound)?,
        None => soap_examples::add(&state.db, &user.id, &parts, "manual", None).await?,
    };
    Ok(Json(saved.into()))
}

/// Deletes one of the user's own examples.
#[utoipa::path(delete, path = "/api/user/personalized/soap/{id}", tag = "user", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn remove(State(state): State<AppState>, user: CurrentUser, Path(id): Path<String>) -> Result<StatusCode, ApiError> {
    let id: Uuid = id.parse().map_err(|_| ApiError::NotFound)?;
    if soap_examples::delete(&state.db, &user.id, id).await? { Ok(StatusCode::NO_CONTENT) } else { Err(ApiError::NotFound) }
}

/// Keeps a generated note the clinician corrected as one of their examples.
#[utoipa::path(post, path = "/api/feedback/soapexample", tag = "feedback", security(("bearer" = [])),
    request_body = PersonalizedSoapInput,
    responses((status = 201, body = PersonalizedSoap), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
pub async fn from_feedback(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(input): Json<PersonalizedSoapInput>,
) -> Result<(StatusCode, Json<PersonalizedSoap>), ApiError> {
    let parts = input.parts()?;
    let consult = input.consult_id.as_deref().map(str::trim).filter(|c| !c.is_empty());
    let saved = soap_examples::add(&state.db, &user.id, &parts, "feedback", consult).await?;
    Ok((StatusCode::CREATED, Json(saved.into())))
}
