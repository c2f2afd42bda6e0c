//! What the SPA needs before anyone signs in.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use utoipa::ToSchema;

use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/public/config", get(config))
}

/// The sign-in settings of this deployment, so one SPA build works with any identity provider.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicConfig {
    /// The OpenID Connect issuer (authority).
    #[schema(example = "http://localhost:8080/oidc")]
    pub authority: String,
    /// The SPA's public client id.
    #[schema(example = "spreekkamer-web")]
    pub client_id: String,
    #[schema(example = "openid profile email")]
    pub scope: String,
    /// The realm role that marks staff.
    #[schema(example = "spreekkamer-employees")]
    pub staff_role: String,
}

/// Sign-in settings for the SPA (no sign-in needed).
#[utoipa::path(get, path = "/api/public/config", tag = "public", responses((status = 200, body = PublicConfig)))]
pub async fn config(State(state): State<AppState>) -> Json<PublicConfig> {
    Json(PublicConfig {
        authority: state.config.issuer_str().to_owned(),
        client_id: state.config.auth.client_id.clone(),
        scope: "openid profile email".to_owned(),
        staff_role: state.config.auth.staff_role.clone(),
    })
}
