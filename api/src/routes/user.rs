//! The signed-in user.

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use domain::profiles::{self, Profile};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::auth::{CurrentUser, SignedIn};
use crate::error::{ApiError, ErrorBody};
use crate::extract::Json;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/user/me", get(me))
        .route("/api/user/onboarding/user", get(onboarding))
        .route("/api/user/onboarding/info", post(save_onboarding))
        .route("/api/user/agreement", post(accept_agreement))
        .route("/files/overeenkomst_v1.pdf", get(agreement_pdf))
}

/// The user agreement as a PDF (version 1), for anyone: the 'Welkom' screen offers it before
/// the user accepts.
#[utoipa::path(
    get,
    path = "/files/overeenkomst_v1.pdf",
    tag = "user",
    responses((status = 200, content_type = "application/pdf", body = Vec<u8>))
)]
pub async fn agreement_pdf() -> impl IntoResponse {
    static PDF: std::sync::LazyLock<Vec<u8>> = std::sync::LazyLock::new(domain::agreement::pdf);
    (
        [
            (header::CONTENT_TYPE, "application/pdf".to_owned()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"{}\"", domain::agreement::file_name())),
            (header::CACHE_CONTROL, "public, max-age=86400".to_owned()),
        ],
        PDF.as_slice(),
    )
}

/// What the user accepted.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgreementAccepted {
    pub version: i32,
    pub accepted_at: chrono::DateTime<chrono::Utc>,
}

/// The value written to the Keycloak attribute `accepted-agreement`. The realm's user profile
/// (deploy/keycloak) allows `true` and `false`, and its mapper turns the value into a JSON boolean;
/// which version was accepted is in our own record.
pub const KEYCLOAK_AGREEMENT_VALUE: &str = "true";

/// The Dutch message when the acceptance is stored but Keycloak could not be told.
pub const AGREEMENT_NOT_FORWARDED: &str = "Je akkoord is opgeslagen, maar kon nog niet worden doorgegeven. Probeer het zo opnieuw.";

/// Records that the signed-in user accepted the agreement in force (accepting again keeps the
/// first time). Our record is written first and is the source of truth; when Keycloak's admin API
/// is configured (`APP_KEYCLOAK_*`) the user's attribute `accepted-agreement` is then set there, so
/// the next token carries the claim (with the development issuer the next token reads our record).
/// 502 with a Dutch message when Keycloak could not be reached: the call can simply be repeated.
/// The api does not check that the PDF was downloaded first; the 'Welkom' screen does.
#[utoipa::path(
    post,
    path = "/api/user/agreement",
    tag = "user",
    security(("bearer" = [])),
    responses((status = 200, body = AgreementAccepted), (status = 401, body = ErrorBody), (status = 502, body = ErrorBody))
)]
pub async fn accept_agreement(State(state): State<AppState>, SignedIn(user): SignedIn) -> Result<Response, ApiError> {
    domain::users::record_agreement(&state.db, &user.id).await?;
    let accepted_at: chrono::DateTime<chrono::Utc> = sqlx::query_scalar!(
        "select accepted_at from agreement_acceptances where user_id = $1 and version = $2",
        &user.id,
        domain::users::AGREEMENT_VERSION,
    )
    .fetch_one(&state.db)
    .await?;
    if let Some(keycloak) = &state.config.keycloak_admin
        && let Err(error) = keycloak.set_user_attribute(&user.id, "accepted-agreement", &[KEYCLOAK_AGREEMENT_VALUE]).await
    {
        tracing::warn!(error = %error, "the accepted agreement could not be written to Keycloak");
        let body = ErrorBody { error: "agreement_not_forwarded", message: AGREEMENT_NOT_FORWARDED.to_owned() };
        return Ok((StatusCode::BAD_GATEWAY, Json(body)).into_response());
    }
    Ok(Json(AgreementAccepted { version: domain::users::AGREEMENT_VERSION, accepted_at }).into_response())
}

/// The onboarding profile; every field is optional, and one left empty (or only white space) is
/// unset. Fields are trimmed; the answer holds them as stored (kinds in upper case, the AGB code
/// as eight digits).
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OnboardingUser {
    /// The name the user wants to be addressed by ('Met welke naam wil je aangesproken worden?'):
    /// at most 100 characters.
    #[schema(max_length = 100)]
    pub preferred_username: Option<String>,
    /// 8 to 15 digits, with spaces, `+`, `-`, `(` and `)` between them.
    #[schema(
        pattern = "^[\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*([ +()-]*([0-9][ +()-]*){8,15}[\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*)?$"
    )]
    pub phone_number: Option<String>,
    /// The practice's AGB code: eight digits (spaces, `-` and `.` between them are dropped).
    #[serde(rename = "AGBCode")]
    #[schema(
        pattern = "^[\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*([ .-]*([0-9][ .-]*){8}[\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*)?$"
    )]
    pub agb_code: Option<String>,
    /// At most 200 characters.
    #[schema(max_length = 200)]
    pub organization_name: Option<String>,
    /// ARTS, ZORGGROEPMANAGER or ANDERS (lower case is taken too).
    #[schema(
        pattern = "^[\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*(ARTS|ZORGGROEPMANAGER|ANDERS|arts|zorggroepmanager|anders)?[\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*$"
    )]
    pub user_kind: Option<String>,
    /// WAARNEMEND, PRAKTIJKHOUDEND or ANDERS (lower case is taken too); kept only when userKind
    /// is ARTS.
    #[schema(
        pattern = "^[\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*(WAARNEMEND|PRAKTIJKHOUDEND|ANDERS|waarnemend|praktijkhoudend|anders)?[\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*$"
    )]
    pub practitioner_kind: Option<String>,
}

impl From<Profile> for OnboardingUser {
    fn from(p: Profile) -> Self {
        Self {
            preferred_username: p.preferred_name,
            phone_number: p.phone_number,
            agb_code: p.agb_code,
            organization_name: p.organisation_name,
            user_kind: p.user_kind,
            practitioner_kind: p.practitioner_kind,
        }
    }
}

/// The signed-in user's onboarding profile (empty fields when never filled in).
#[utoipa::path(
    get,
    path = "/api/user/onboarding/user",
    tag = "user",
    security(("bearer" = [])),
    responses((status = 200, body = OnboardingUser), (status = 401, body = ErrorBody))
)]
pub async fn onboarding(State(state): State<AppState>, user: CurrentUser) -> Result<Json<OnboardingUser>, ApiError> {
    Ok(Json(profiles::find(&state.db, &user.id).await?.into()))
}

/// Saves the onboarding profile as a whole (a field left empty is cleared) and returns it as
/// stored. 400 names the field and says what is wrong, in Dutch.
#[utoipa::path(
    post,
    path = "/api/user/onboarding/info",
    tag = "user",
    security(("bearer" = [])),
    request_body = OnboardingUser,
    responses((status = 200, body = OnboardingUser), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody))
)]
pub async fn save_onboarding(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(body): Json<OnboardingUser>,
) -> Result<Json<OnboardingUser>, ApiError> {
    let profile = Profile {
        preferred_name: body.preferred_username,
        phone_number: body.phone_number,
        agb_code: body.agb_code,
        organisation_name: body.organization_name,
        user_kind: body.user_kind,
        practitioner_kind: body.practitioner_kind,
    }
    .checked()
    .map_err(|e| ApiError::BadRequest { code: "invalid_profile", message: e.message.to_owned() })?;
    profiles::save(&state.db, &user.id, &profile).await?;
    Ok(Json(profile.into()))
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
pub async fn me(State(state): State<AppState>, SignedIn(user): SignedIn) -> Result<Json<Me>, ApiError> {
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
