//! The signed-in user.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::CurrentUser;
use crate::error::{ApiError, ErrorBody};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/user/me", get(me))
}

/// The signed-in user as the api sees them.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Me {
    /// The identity provider's subject.
    pub id: String,
    pub email: String,
    /// The login name (`preferred_username`).
    pub username: String,
    /// The name the user asked to be addressed by, from the profile.
    pub preferred_name: Option<String>,
    pub roles: Vec<String>,
    /// Whether the token carries `accepted-agreement`.
    pub accepted_agreement: bool,
    /// Whether the user has the staff role.
    pub is_staff: bool,
}

/// The signed-in user: id, e-mail, names, roles and whether the agreement is accepted.
#[utoipa::path(
    get,
    path = "/api/user/me",
    tag = "user",
    security(("bearer" = [])),
    responses((status = 200, body = Me), (status = 401, body = ErrorBody))
)]
pub async fn me(State(state): State<AppState>, user: CurrentUser) -> Result<Json<Me>, ApiError> {
    let row = domain::users::find(&state.db, &user.id).await?;
    Ok(Json(Me {
        preferred_name: row.and_then(|r| r.preferred_name),
        id: user.id,
        email: user.email,
        username: user.username,
        roles: user.roles,
        accepted_agreement: user.accepted_agreement,
        is_staff: user.is_staff,
    }))
}
