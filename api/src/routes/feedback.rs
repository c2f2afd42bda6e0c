//! Feedback from the widget on every page.

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use domain::feedback::{self, NewFeedback, Sender};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::auth::CurrentUser;
use crate::edge::limit::{LimitName, Limited};
use crate::error::{ApiError, ErrorBody};
use crate::extract::Json;
use crate::state::AppState;

pub fn router(state: &AppState) -> Router<AppState> {
    Router::new().route("/api/feedback", post(send).limited(state, LimitName::Feedback))
}

/// Feedback: text (not only white space) or a rating, or both.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Feedback {
    /// The widget's type; default when left out.
    #[serde(default = "default_kind", rename = "type")]
    #[schema(value_type = FeedbackKind, required = false)]
    pub kind: String,
    /// Fewer than 3000 characters.
    #[serde(default)]
    #[schema(max_length = 2999)]
    pub text: String,
    #[serde(default, deserialize_with = "crate::fields::whole_number")]
    #[schema(minimum = 1, maximum = 5)]
    pub rating: Option<i16>,
    /// Sent without who sent it.
    #[serde(default)]
    pub anonymous: bool,
    pub consult_id: Option<String>,
    /// The first path segment of the page it was sent from.
    pub consult_type: Option<String>,
}

/// The kinds of feedback (`domain::feedback::KINDS`).
#[derive(ToSchema)]
#[allow(dead_code)] // the document's shape of `type`
#[schema(rename_all = "lowercase")]
pub enum FeedbackKind {
    Template,
    Faq,
    Status,
    Default,
}

fn default_kind() -> String {
    "default".to_owned()
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FeedbackReceived {
    pub id: Uuid,
}

/// Stores feedback with the sender (subject and a shortened login name), or without when
/// anonymous. Text of 3000 characters or more, a rating outside 1–5, or neither text nor rating
/// is refused with a Dutch message.
#[utoipa::path(post, path = "/api/feedback", tag = "feedback", security(("bearer" = [])), request_body = Feedback,
    responses((status = 201, body = FeedbackReceived), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn send(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(body): Json<Feedback>,
) -> Result<(StatusCode, Json<FeedbackReceived>), ApiError> {
    let new = NewFeedback {
        kind: body.kind,
        text: body.text,
        rating: body.rating,
        anonymous: body.anonymous,
        consult_id: body.consult_id,
        consult_type: body.consult_type,
    };
    feedback::check(&new).map_err(|e| ApiError::BadRequest { code: "invalid_feedback", message: e.0.to_owned() })?;
    let id = feedback::store(&state.db, &new, Some(Sender { user_id: &user.id, login: &user.username })).await?;
    Ok((StatusCode::CREATED, Json(FeedbackReceived { id })))
}
