//! The staff CMS's own calls: the access check and the audit log.

use axum::Router;
use axum::extract::State;
use axum::routing::{get, post};
use domain::audit;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::Staff;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Json, Query};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/cms", post(access)).route("/api/cms/auditLog/all", get(audit_log))
}

/// The entries the Auditlog shows per page.
pub const AUDIT_PAGE_SIZE: i64 = 50;

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CmsAccess {
    /// Always true: anyone else gets 401 or 403.
    pub staff: bool,
}

/// The CMS's access check: 200 for staff, 403 for anyone else signed in (the SPA then goes to `/`).
#[utoipa::path(post, path = "/api/cms", tag = "cms", security(("bearer" = [])),
    responses((status = 200, body = CmsAccess), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn access(_staff: Staff) -> Json<CmsAccess> {
    Json(CmsAccess { staff: true })
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AuditQuery {
    /// From 0.
    #[serde(default)]
    #[param(minimum = 0, maximum = 100000)]
    pub page: i64,
    /// Only entries whose text contains this (any case).
    #[param(max_length = 200)]
    pub search: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditPage {
    /// Newest first.
    pub entries: Vec<audit::Shown>,
    /// Entries that match, on all pages.
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
}

/// Staff: the audit log, newest first, a page of 50 at a time, optionally only the entries whose
/// text contains `search`.
#[utoipa::path(get, path = "/api/cms/auditLog/all", tag = "cms", security(("bearer" = [])), params(AuditQuery),
    responses((status = 200, body = AuditPage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn audit_log(State(state): State<AppState>, _staff: Staff, Query(q): Query<AuditQuery>) -> Result<Json<AuditPage>, ApiError> {
    if !(0..=100_000).contains(&q.page) {
        return Err(ApiError::BadRequest { code: "invalid_page", message: "Ongeldige pagina.".to_owned() });
    }
    let search = q.search.as_deref().map(str::trim).filter(|s| !s.is_empty());
    if search.is_some_and(|s| s.chars().count() > 200) {
        return Err(ApiError::BadRequest { code: "invalid_search", message: "Zoek op hoogstens 200 tekens.".to_owned() });
    }
    let (entries, total) = audit::page(&state.db, search, q.page, AUDIT_PAGE_SIZE).await?;
    Ok(Json(AuditPage { entries, total, page: q.page, page_size: AUDIT_PAGE_SIZE }))
}
