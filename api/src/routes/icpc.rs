//! The ICPC list and suggestions.

use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use domain::icpc::{self, Code};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::CurrentUser;
use crate::error::{ApiError, ErrorBody};
use crate::extract::Json;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/codes.json", get(codes)).route("/api/icpc/predict", post(predict))
}

/// An ICPC code of the list in force.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IcpcCode {
    /// The chapter letter, or `-` for the process codes.
    pub category: String,
    /// Two digits.
    pub code: String,
    pub patient_title: String,
    pub official_title: String,
}

impl From<&Code> for IcpcCode {
    fn from(c: &Code) -> Self {
        Self {
            category: c.category.clone(),
            code: c.code.clone(),
            patient_title: c.patient_title.clone(),
            official_title: c.official_title.clone(),
        }
    }
}

/// The whole list; the SPA searches it itself with the same rules as the server.
#[utoipa::path(get, path = "/codes.json", tag = "icpc", security(("bearer" = [])),
    responses((status = 200, body = [IcpcCode]), (status = 401, body = ErrorBody)))]
pub async fn codes(State(state): State<AppState>, _user: CurrentUser) -> Result<impl IntoResponse, ApiError> {
    let codes: Vec<IcpcCode> = icpc::catalogue(&state.db).await?.codes().iter().map(IcpcCode::from).collect();
    Ok(([(header::CACHE_CONTROL, "private, max-age=3600")], Json(codes)))
}

/// The longest text `POST /api/icpc/predict` codes, in characters: as much as text analysis
/// takes (`POST /api/medcat/medcatify`), well above an episode's S and E or a whole typed
/// consult.
pub const MAX_PREDICT_TEXT: usize = 20_000;

#[derive(Debug, Deserialize, ToSchema)]
pub struct PredictRequest {
    /// The text to code, e.g. an episode's S and E: at most 20,000 characters.
    #[schema(max_length = 20000)]
    pub text: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IcpcSuggestion {
    pub category: String,
    pub code: String,
    pub patient_title: String,
    pub official_title: String,
    /// How strongly the text points to the code: 1 per synonym or whole title found, 0.25 per
    /// telling title word.
    pub score: f64,
}

/// At most ten ICPC codes for a text, best first.
#[utoipa::path(post, path = "/api/icpc/predict", tag = "icpc", security(("bearer" = [])), request_body = PredictRequest,
    responses((status = 200, body = [IcpcSuggestion]), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody)))]
pub async fn predict(
    State(state): State<AppState>,
    _user: CurrentUser,
    Json(request): Json<PredictRequest>,
) -> Result<Json<Vec<IcpcSuggestion>>, ApiError> {
    if request.text.chars().count() > MAX_PREDICT_TEXT {
        return Err(ApiError::BadRequest {
            code: "too_long",
            message: format!("De tekst is te lang om te coderen (hoogstens {MAX_PREDICT_TEXT} tekens)."),
        });
    }
    let catalogue = icpc::catalogue(&state.db).await?;
    Ok(Json(
        catalogue
            .predict(&request.text)
            .into_iter()
            .map(|s| IcpcSuggestion {
                category: s.code.category.clone(),
                code: s.code.code.clone(),
                patient_title: s.code.patient_title.clone(),
                official_title: s.code.official_title.clone(),
                score: s.score,
            })
            .collect(),
    ))
}
