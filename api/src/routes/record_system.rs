//! The hand-off of a finished note to the record system (`/api/integration/record-system/...`).
//!
//! 1. The clinician's SPA posts the note and the record system's return address: the api keeps
//!    it as a consult of source `record_system` that expires after
//!    `APP_RECORD_SYSTEM_CONSULT_TTL` and answers with the public page `/consult/{id}`.
//! 2. That page (no sign-in: the id is an unguessable ULID that expires) reads
//!    `.../{id}/redirect` and posts a hidden form with the single field `bricks-data` to the
//!    return address.
//!
//! Return addresses must be of an origin on `APP_RECORD_SYSTEM_REDIRECT_ORIGINS`, checked when
//! the note is handed off and again when the page reads it; nothing else is ever redirected to.

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use domain::consults::{self, Consult, Source};
use domain::record_system::{self, Episode};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::auth::CurrentUser;
use crate::edge::limit::{LimitName, Limited};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Json, Path};
use crate::routes::consults::too_large;
use crate::state::AppState;

pub fn router(state: &AppState) -> Router<AppState> {
    Router::new()
        .route("/api/integration/record-system/consult", post(hand_off))
        .route("/api/integration/record-system/consult/{consult_id}/episodes", get(episodes))
        .route("/api/integration/record-system/consult/{consult_id}/redirect", get(redirect).limited(state, LimitName::Handoff))
}

/// A note to hand to the record system.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HandOffInput {
    /// Where the record system wants the note: an address of an allowed origin.
    #[schema(example = "https://his.example.nl/spreekkamer/terug")]
    pub redirect_url: String,
    /// The consult result: `{episodes: [{subjective, objective, diagnosis, plan}]}` (a report's
    /// single `{subjective, objective, plan}` also does). May be left out when `consultId` names
    /// a consult that has a result.
    #[schema(value_type = Option<Object>)]
    #[serde(default)]
    pub result: Option<Value>,
    /// The user's own consult the note came from.
    #[serde(default)]
    pub consult_id: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HandedOff {
    /// The hand-off's id (not the app consult's).
    pub consult_id: String,
    /// The public page that forwards the note: `/consult/{consultId}`.
    #[schema(example = "/consult/01jd8n3w3x6y0m2c5d3b4e9f7k")]
    pub url: String,
    pub expires_at: chrono::DateTime<chrono::Utc>,
}

fn refused(message: String) -> ApiError {
    ApiError::BadRequest { code: "invalid_redirect", message }
}

/// Hands a finished note to the record system: kept as a consult of source `record_system` for
/// `APP_RECORD_SYSTEM_CONSULT_TTL`. 400 (Dutch) when the return address is not allowed, when the
/// hand-off is off, or when there is no note; 404 when `consultId` is not one of the user's.
#[utoipa::path(post, path = "/api/integration/record-system/consult", tag = "consult", security(("bearer" = [])),
    request_body = HandOffInput,
    responses((status = 201, body = HandedOff), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn hand_off(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(input): Json<HandOffInput>,
) -> Result<(StatusCode, Json<HandedOff>), ApiError> {
    let config = &state.config.record_system;
    if config.redirect_origins.is_empty() {
        return Err(refused(format!("De koppeling met {} staat niet aan.", config.name)));
    }
    let Some(redirect_url) = record_system::allowed_redirect(&input.redirect_url, &config.redirect_origins) else {
        return Err(refused("Dit terugkeeradres is niet toegestaan.".to_owned()));
    };
    let source = match &input.consult_id {
        Some(id) => Some(consults::get(&state.db, &user.id, id).await?.ok_or(ApiError::NotFound)?),
        None => None,
    };
    let result = match (input.result, &source) {
        (Some(result), _) => result,
        (None, Some(consult)) => consult.content.get("result").cloned().unwrap_or(Value::Null),
        (None, None) => Value::Null,
    };
    let episodes = record_system::episodes_of(&result);
    if episodes.is_empty() {
        return Err(ApiError::BadRequest { code: "empty_note", message: "Er is geen verslag om door te sturen.".into() });
    }
    let content = json!({
        "redirectUrl": redirect_url.as_str(),
        "episodes": episodes,
        "result": result,
        "appConsultId": source.as_ref().map(|c| c.id.as_str()),
    });
    if too_large(&content) {
        return Err(ApiError::BadRequest {
            code: "consult_too_large",
            message: "Het verslag is te groot om door te sturen (hoogstens 512 kB).".into(),
        });
    }
    let mut conn = state.db.acquire().await?;
    let consult = consults::create(&mut conn, &user.id, Source::RecordSystem, &content, state.config.consults.record_system_ttl).await?;
    Ok((
        StatusCode::CREATED,
        Json(HandedOff { url: format!("/consult/{}", consult.id), consult_id: consult.id, expires_at: consult.expires_at }),
    ))
}

fn stored_episodes(consult: &Consult) -> Vec<Episode> {
    consult.content.get("episodes").and_then(|e| serde_json::from_value::<Vec<Episode>>(e.clone()).ok()).unwrap_or_default()
}

#[derive(Debug, Serialize, ToSchema)]
pub struct HandOffEpisodes {
    pub episodes: Vec<EpisodeView>,
}

/// One episode of a note as the record system takes it.
#[derive(Debug, Serialize, ToSchema)]
pub struct EpisodeView {
    pub subjective: String,
    pub objective: String,
    pub evaluation: String,
    pub plan: String,
    /// The ICPC codes the clinician accepted.
    #[schema(example = json!(["R74"]))]
    pub icpc: Vec<String>,
}

impl From<Episode> for EpisodeView {
    fn from(e: Episode) -> Self {
        Self { subjective: e.subjective, objective: e.objective, evaluation: e.evaluation, plan: e.plan, icpc: e.icpc }
    }
}

/// The episodes of one of the user's hand-offs; anyone else's, an expired one or an ordinary
/// consult is not found.
#[utoipa::path(get, path = "/api/integration/record-system/consult/{consult_id}/episodes", tag = "consult", security(("bearer" = [])),
    params(("consult_id" = String, Path)),
    responses((status = 200, body = HandOffEpisodes), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn episodes(State(state): State<AppState>, user: CurrentUser, Path(id): Path<String>) -> Result<Json<HandOffEpisodes>, ApiError> {
    let consult =
        consults::get(&state.db, &user.id, &id).await?.filter(|c| c.source == Source::RecordSystem.as_str()).ok_or(ApiError::NotFound)?;
    Ok(Json(HandOffEpisodes { episodes: stored_episodes(&consult).into_iter().map(Into::into).collect() }))
}

/// What the public page posts to the record system.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HandOffRedirect {
    /// Where the page posts its form.
    pub redirect_url: String,
    /// The value of the form's single field `bricks-data`: the JSON text
    /// `{"episodes":[{"subjective":"…","objective":"…","evaluation":"…","plan":"…","icpc":["R74"]}]}`
    /// (`icpc`, the accepted ICPC codes, only when there are any).
    pub data: String,
}

/// For the public page `/consult/{consultId}` (no sign-in): where to post the note and what. 404
/// when the hand-off has expired, does not exist, or its return address is no longer allowed.
#[utoipa::path(get, path = "/api/integration/record-system/consult/{consult_id}/redirect", tag = "public",
    params(("consult_id" = String, Path)),
    responses((status = 200, body = HandOffRedirect), (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn redirect(State(state): State<AppState>, Path(id): Path<String>) -> Result<Json<HandOffRedirect>, ApiError> {
    let expired = ApiError::Missing("Dit consult is verlopen.");
    let consult = match consults::get_any(&state.db, &id).await? {
        Some(c) if c.source == Source::RecordSystem.as_str() => c,
        _ => return Err(expired),
    };
    let stored = consult.content.get("redirectUrl").and_then(Value::as_str).unwrap_or("");
    let Some(redirect_url) = record_system::allowed_redirect(stored, &state.config.record_system.redirect_origins) else {
        return Err(expired);
    };
    let episodes = stored_episodes(&consult);
    if episodes.is_empty() {
        return Err(expired);
    }
    Ok(Json(HandOffRedirect { redirect_url: redirect_url.to_string(), data: record_system::record_system_data(&episodes) }))
}
