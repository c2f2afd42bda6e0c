//! What the SPA needs before anyone signs in.

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use integrations::speech::AudioModel;
use serde::Serialize;
use utoipa::ToSchema;

use crate::extract::Json;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/public/config", get(config))
}

/// The sign-in settings of this deployment, so one SPA build works with any identity provider, and
/// the few facts the SPA shows before anyone signs in.
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
    /// The record system's name as users know it ('Start opnieuw vanuit Bricks').
    #[schema(example = "Bricks")]
    pub record_system_name: String,
    /// Where users ask for help.
    #[schema(example = "support@spreekkamer.nl")]
    pub support_email: String,
    /// The environment that replaces this one; absent while this one is not being retired (no
    /// banner, no redirect).
    #[schema(example = "https://app.spreekkamer.nl/")]
    pub new_environment_url: Option<String>,
    /// The first day this environment no longer works (`YYYY-MM-DD`); present exactly when
    /// `newEnvironmentUrl` is.
    #[schema(value_type = Option<String>, format = Date, example = "2026-10-18")]
    pub new_environment_date: Option<chrono::NaiveDate>,
    /// Which audio models have a speech engine, so the consult page knows before Start whether it
    /// can listen or the conversation is typed.
    pub speech_engines: SpeechEngines,
}

/// Per audio model: whether a speech engine is configured.
#[derive(Debug, Serialize, ToSchema)]
pub struct SpeechEngines {
    pub multilingual: bool,
    pub radiology: bool,
}

/// Sign-in settings, the record system's name, the support address and the retiring-environment
/// settings for the SPA (no sign-in needed).
#[utoipa::path(get, path = "/api/public/config", tag = "public", responses((status = 200, body = PublicConfig)))]
pub async fn config(State(state): State<AppState>) -> Json<PublicConfig> {
    Json(PublicConfig {
        authority: state.config.issuer_str().to_owned(),
        client_id: state.config.auth.client_id.clone(),
        scope: "openid profile email".to_owned(),
        staff_role: state.config.auth.staff_role.clone(),
        record_system_name: state.config.record_system.name.clone(),
        support_email: state.config.support_email.clone(),
        new_environment_url: state.config.new_environment.as_ref().map(|n| n.url.to_string()),
        new_environment_date: state.config.new_environment.as_ref().map(|n| n.date),
        speech_engines: SpeechEngines {
            multilingual: state.consult.speech.get(AudioModel::Multilingual).is_some(),
            radiology: state.consult.speech.get(AudioModel::Radiology).is_some(),
        },
    })
}
