//! The staff CMS (spec subscriptions-cms §7): one file per page group, by reader. Here: the
//! access check, the audit log, and what every page shares: [`audited`] (every change, and every
//! read of another person's personal data, writes its audit entry in the transaction of the
//! change), the page and search checks.

pub mod invoices;
pub mod jobs;
pub mod organisations;
pub mod statistics;
pub mod subscriptions;
pub mod users;

use axum::Router;
use axum::extract::State;
use axum::routing::{get, post};
use domain::audit;
use domain::cms::{MAX_PAGE, PAGE_SIZE};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::{IntoParams, ToSchema};

use crate::auth::Staff;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Json, Query};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/cms", post(access))
        .route("/api/cms/auditLog/all", get(audit_log))
        .merge(users::router())
        .merge(subscriptions::router())
        .merge(invoices::router())
        .merge(organisations::router())
        .merge(statistics::router())
        .merge(jobs::router())
}

/// Runs `change` and writes the audit entry it answers in one transaction.
pub async fn audited<T, F>(state: &AppState, staff: &Staff, change: F) -> Result<T, ApiError>
where
    F: AsyncFnOnce(&mut sqlx::PgConnection) -> Result<(T, audit::Entry), ApiError>,
{
    let mut tx = state.db.begin().await?;
    let (answer, entry) = change(&mut tx).await?;
    audit::record(&mut tx, &staff.actor, &entry).await?;
    tx.commit().await?;
    Ok(answer)
}

/// The audit entry of a read of a user's personal data.
pub fn read_entry(action: audit::Action, what: &'static str, user_id: &str, email: &str) -> audit::Entry {
    audit::Entry {
        action,
        subject_type: what,
        subject_id: user_id.to_owned(),
        concerns_user_id: Some(user_id.to_owned()),
        concerns_organisation_id: None,
        changes: json!({}),
        about: format!("van {email}"),
    }
}

/// A page number as the lists take it.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// From 0.
    #[serde(default)]
    #[param(minimum = 0, maximum = 100000)]
    pub page: i64,
}

/// The page asked for, or the refusal.
pub fn checked_page(page: i64) -> Result<i64, ApiError> {
    if (0..=MAX_PAGE).contains(&page) {
        Ok(page)
    } else {
        Err(ApiError::BadRequest { code: "invalid_page", message: "Ongeldige pagina.".to_owned() })
    }
}

/// A search text of at most 200 characters, or the refusal.
pub fn checked_search(search: Option<&str>) -> Result<Option<String>, ApiError> {
    let search = search.map(str::trim).filter(|s| !s.is_empty());
    if search.is_some_and(|s| s.chars().count() > 200) {
        return Err(ApiError::BadRequest { code: "invalid_search", message: "Zoek op hoogstens 200 tekens.".to_owned() });
    }
    Ok(search.map(str::to_owned))
}

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
    pub rows: Vec<audit::Shown>,
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
    let page = checked_page(q.page)?;
    let search = checked_search(q.search.as_deref())?;
    let (rows, total) = audit::page(&state.db, search.as_deref(), page, PAGE_SIZE).await?;
    Ok(Json(AuditPage { rows, total, page, page_size: PAGE_SIZE }))
}
