//! The staff CMS's own calls under `/api/cms`: the access check, Gebruikers, the statistics, the
//! audit log and the failed background work. The payment side is `routes::manage`.
//!
//! Every change, and every read of another person's personal data, writes its audit entry in
//! the transaction of the change ([`audited`]).

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{delete, get, post};
use domain::audit;
use domain::billing::read::{OrganisationSubscription, organisation_for_user};
use domain::billing::today;
use domain::cms::his::{self as his_list, HisEdit, HisUser};
use domain::cms::statistics::{self, Counter};
use domain::cms::users::{self, His, UserFilter, UserRow};
use domain::cms::{MAX_PAGE, PAGE_SIZE};
use jobs::admin::{JobProblem, Overview};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use crate::auth::Staff;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Json, Query};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/cms", post(access))
        .route("/api/cms/auditLog/all", get(audit_log))
        .route("/api/cms/users/all", get(users_page))
        .route("/api/cms/his/all", get(his_all))
        .route("/api/cms/his/allEdit", get(his_all_edit))
        .route("/api/cms/HIS", post(add_his))
        .route("/api/cms/his/{id}", delete(delete_his))
        .route("/api/cms/getHISUserSubscriptions", get(his_users))
        .route("/api/cms/setHISforUser/{user_id}", post(set_his_for_user))
        .route("/api/cms/getOrganizationSubscriptionForCMSUser/{user_id}", get(organisation_subscriptions_of_user))
        .route("/api/cms/statistics", get(statistics_tiles))
        .route("/api/cms/statistics/daily", get(statistics_daily))
        .route("/api/cms/getActiveUsers", get(get_active_users))
        .route("/api/cms/getAmountConsultsToday", get(get_amount_consults_today))
        .route("/api/cms/getAmountNewUsersToday", get(get_amount_new_users_today))
        .route("/api/cms/getAmountOrganizationSubscriptions", get(get_amount_organization_subscriptions))
        .route("/api/cms/getAmountOrganizationSubscriptionsActive", get(get_amount_organization_subscriptions_active))
        .route("/api/cms/getAmountTetraConsultsToday", get(get_amount_tetra_consults_today))
        .route("/api/cms/getAmountUsers", get(get_amount_users))
        .route("/api/cms/jobs/problems", get(job_problems))
        .route("/api/cms/jobs/overview", get(job_overview))
        .route("/api/cms/jobs/{id}/retry", post(retry_job))
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

// ---------------------------------------------------------------------------------------------
// Gebruikers

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UsersQuery {
    /// From 0.
    #[serde(default)]
    #[param(minimum = 0, maximum = 100000)]
    pub page: i64,
    /// A part of the user id, the identity provider's id or the e-mail address (any case).
    #[param(max_length = 200)]
    pub search: Option<String>,
    /// A HIS by its exact name; `ALL` or none for every user.
    #[param(max_length = 200)]
    pub his: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserPage {
    /// Newest account first.
    pub rows: Vec<UserRow>,
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
}

/// Staff: the users (Gebruikers), newest account first, 50 a page.
#[utoipa::path(get, path = "/api/cms/users/all", tag = "cms", security(("bearer" = [])), params(UsersQuery),
    responses((status = 200, body = UserPage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn users_page(State(state): State<AppState>, _staff: Staff, Query(q): Query<UsersQuery>) -> Result<Json<UserPage>, ApiError> {
    let page = checked_page(q.page)?;
    let filter = UserFilter { search: checked_search(q.search.as_deref())?, his: checked_search(q.his.as_deref())? };
    let (rows, total) = users::page(&state.db, &filter, today(), page, PAGE_SIZE).await?;
    Ok(Json(UserPage { rows, total, page, page_size: PAGE_SIZE }))
}

/// Staff: every HIS, by name (the HIS filter and 'Zet HIS voor gebruiker').
#[utoipa::path(get, path = "/api/cms/his/all", tag = "cms", security(("bearer" = [])),
    responses((status = 200, body = Vec<His>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn his_all(State(state): State<AppState>, _staff: Staff) -> Result<Json<Vec<His>>, ApiError> {
    Ok(Json(users::his_list(&state.db).await?))
}

/// Staff: every HIS with its number of users (the HIS tab).
#[utoipa::path(get, path = "/api/cms/his/allEdit", tag = "cms", security(("bearer" = [])),
    responses((status = 200, body = Vec<HisEdit>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn his_all_edit(State(state): State<AppState>, _staff: Staff) -> Result<Json<Vec<HisEdit>>, ApiError> {
    Ok(Json(his_list::list_edit(&state.db).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct NewHis {
    /// The HIS's name; spaces around it are dropped and runs of spaces inside it made one.
    #[schema(max_length = 100)]
    pub name: String,
}

fn his_entry(action: audit::Action, his: &His, changes: serde_json::Value) -> audit::Entry {
    audit::Entry {
        action,
        subject_type: "his",
        subject_id: his.id.to_string(),
        concerns_user_id: None,
        concerns_organisation_id: None,
        changes,
        about: his.name.clone(),
    }
}

/// Staff: adds a HIS ('Nieuwe HIS..'); 409 when the name exists (any case).
#[utoipa::path(post, path = "/api/cms/HIS", tag = "cms", security(("bearer" = [])), request_body = NewHis,
    responses((status = 201, body = His), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 409, body = ErrorBody)))]
pub async fn add_his(State(state): State<AppState>, staff: Staff, Json(body): Json<NewHis>) -> Result<(StatusCode, Json<His>), ApiError> {
    let his = audited(&state, &staff, async |tx| {
        let his = his_list::add(tx, &body.name).await?;
        let entry = his_entry(audit::Action::AddHis, &his, json!({ "after": { "name": his.name } }));
        Ok((his, entry))
    })
    .await?;
    Ok((StatusCode::CREATED, Json(his)))
}

/// Staff: deletes a HIS; 409 'Kon HIS niet verwijderen, er zijn gebruikers gelinkt aan deze HIS'
/// while users are linked to it.
#[utoipa::path(delete, path = "/api/cms/his/{id}", tag = "cms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The HIS's id")),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody)))]
pub async fn delete_his(State(state): State<AppState>, staff: Staff, Path(id): Path<Uuid>) -> Result<StatusCode, ApiError> {
    audited(&state, &staff, async |tx| {
        let his = his_list::delete(tx, id).await?;
        let entry = his_entry(audit::Action::DeleteHis, &his, json!({ "before": { "name": his.name } }));
        Ok(((), entry))
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HisUsersQuery {
    /// The HIS.
    pub his: Uuid,
    /// From 0.
    #[serde(default)]
    #[param(minimum = 0, maximum = 100000)]
    pub page: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HisUserPage {
    /// EXPIRED and NONE first, then by e-mail address.
    pub rows: Vec<HisUser>,
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
}

/// Staff: the users of one HIS with what gives them access (the HIS tab's table), a page of 50.
#[utoipa::path(get, path = "/api/cms/getHISUserSubscriptions", tag = "cms", security(("bearer" = [])), params(HisUsersQuery),
    responses((status = 200, body = HisUserPage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
pub async fn his_users(
    State(state): State<AppState>,
    _staff: Staff,
    Query(q): Query<HisUsersQuery>,
) -> Result<Json<HisUserPage>, ApiError> {
    let page = checked_page(q.page)?;
    let known: bool = sqlx::query_scalar("select exists (select 1 from his where id = $1)").bind(q.his).fetch_one(&state.db).await?;
    if !known {
        return Err(ApiError::Missing(users::HIS_NOT_FOUND));
    }
    let (rows, total) = his_list::users_of(&state.db, q.his, today(), page, PAGE_SIZE).await?;
    Ok(Json(HisUserPage { rows, total, page, page_size: PAGE_SIZE }))
}

/// Staff: 'Zet HIS voor gebruiker': the body is a HIS id, or `null` for 'Geen'.
#[utoipa::path(post, path = "/api/cms/setHISforUser/{user_id}", tag = "cms", security(("bearer" = [])),
    params(("user_id" = String, Path, description = "The user's id")),
    request_body(content = Option<Uuid>, description = "The HIS id, or null for none"),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
pub async fn set_his_for_user(
    State(state): State<AppState>,
    staff: Staff,
    Path(user_id): Path<String>,
    body: Option<Json<Option<Uuid>>>,
) -> Result<StatusCode, ApiError> {
    // no body is 'Geen' too
    let his_id = body.and_then(|Json(id)| id);
    audited(&state, &staff, async |tx| {
        let change = users::set_his(tx, &user_id, his_id).await?;
        let name = |h: &Option<His>| h.as_ref().map_or("Geen".to_owned(), |h| h.name.clone());
        let entry = audit::Entry {
            action: audit::Action::SetUserHis,
            subject_type: "user",
            subject_id: user_id.clone(),
            concerns_user_id: Some(user_id.clone()),
            concerns_organisation_id: None,
            changes: json!({ "before": { "his": name(&change.before) }, "after": { "his": name(&change.after) } }),
            about: format!("van {} op {} (was {})", change.email, name(&change.after), name(&change.before)),
        };
        Ok(((), entry))
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Staff: a user's organisation subscriptions (the info modal); the read is in the audit log.
#[utoipa::path(get, path = "/api/cms/getOrganizationSubscriptionForCMSUser/{user_id}", tag = "cms", security(("bearer" = [])),
    params(("user_id" = String, Path, description = "The user's id")),
    responses((status = 200, body = Vec<OrganisationSubscription>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
pub async fn organisation_subscriptions_of_user(
    State(state): State<AppState>,
    staff: Staff,
    Path(user_id): Path<String>,
) -> Result<Json<Vec<OrganisationSubscription>>, ApiError> {
    let list = audited(&state, &staff, async |tx| {
        let email = users::email_of(&mut *tx, &user_id).await?.ok_or(ApiError::Missing(users::USER_NOT_FOUND))?;
        let list = organisation_for_user(&state.db, &user_id, &email, today()).await?;
        Ok((list, read_entry(audit::Action::ReadUserOrganisationSubscriptions, "user", &user_id, &email)))
    })
    .await?;
    Ok(Json(list))
}

// ---------------------------------------------------------------------------------------------
// Statistieken

/// Staff: every tile of Statistieken at once.
#[utoipa::path(get, path = "/api/cms/statistics", tag = "cms", security(("bearer" = [])),
    responses((status = 200, body = statistics::Statistics), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn statistics_tiles(State(state): State<AppState>, _staff: Staff) -> Result<Json<statistics::Statistics>, ApiError> {
    Ok(Json(statistics::statistics(&state.db, today()).await?))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DailyStatistics {
    /// The last 90 days, oldest first, every day present.
    pub days: Vec<statistics::Day>,
}

/// Staff: new users, consults and new paid subscriptions per day over the last 90 days.
#[utoipa::path(get, path = "/api/cms/statistics/daily", tag = "cms", security(("bearer" = [])),
    responses((status = 200, body = DailyStatistics), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn statistics_daily(State(state): State<AppState>, _staff: Staff) -> Result<Json<DailyStatistics>, ApiError> {
    Ok(Json(DailyStatistics { days: statistics::daily(&state.db, today()).await? }))
}

/// One counter of §7.2/§7.3 as a bare number.
pub async fn counter(State(state): State<AppState>, _staff: Staff, counter: Counter) -> Result<Json<i64>, ApiError> {
    Ok(Json(statistics::count(&state.db, counter, today()).await?))
}

/// A counter call per counter of §7.2/§7.3, each answering a bare number.
macro_rules! counter_calls {
    ($($name:ident => $path:literal, $counter:expr, $doc:literal;)*) => {$(
        #[doc = $doc]
        #[utoipa::path(get, path = $path, tag = "cms", security(("bearer" = [])),
            responses((status = 200, body = i64, content_type = "application/json"), (status = 401, body = ErrorBody),
                      (status = 403, body = ErrorBody)))]
        pub async fn $name(state: State<AppState>, staff: Staff) -> Result<Json<i64>, ApiError> {
            $crate::routes::cms::counter(state, staff, $counter).await
        }
    )*};
}
pub(crate) use counter_calls;

counter_calls! {
    get_active_users => "/api/cms/getActiveUsers", Counter::ActiveUsers, "Staff: users with a call in the last 15 minutes.";
    get_amount_consults_today => "/api/cms/getAmountConsultsToday", Counter::ConsultsToday, "Staff: consults made today.";
    get_amount_new_users_today => "/api/cms/getAmountNewUsersToday", Counter::NewUsersToday, "Staff: accounts made today.";
    get_amount_organization_subscriptions => "/api/cms/getAmountOrganizationSubscriptions", Counter::OrganisationSubscriptions,
        "Staff: organisation subscriptions.";
    get_amount_organization_subscriptions_active => "/api/cms/getAmountOrganizationSubscriptionsActive",
        Counter::OrganisationSubscriptionsActive, "Staff: active organisation subscriptions.";
    get_amount_tetra_consults_today => "/api/cms/getAmountTetraConsultsToday", Counter::RecordSystemConsultsToday,
        "Staff: consults the record system made today.";
    get_amount_users => "/api/cms/getAmountUsers", Counter::Users, "Staff: all users.";
}

// ---------------------------------------------------------------------------------------------
// Achtergrondtaken

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobProblemPage {
    /// The latest change first.
    pub rows: Vec<JobProblem>,
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
}

/// Staff: background jobs that are retrying, failed or dead, in words.
#[utoipa::path(get, path = "/api/cms/jobs/problems", tag = "cms", security(("bearer" = [])), params(PageQuery),
    responses((status = 200, body = JobProblemPage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn job_problems(
    State(state): State<AppState>,
    _staff: Staff,
    Query(q): Query<PageQuery>,
) -> Result<Json<JobProblemPage>, ApiError> {
    let page = checked_page(q.page)?;
    let (rows, total) = jobs::admin::problems(&state.db, page, PAGE_SIZE).await?;
    Ok(Json(JobProblemPage { rows, total, page, page_size: PAGE_SIZE }))
}

/// Staff: the queues with work and each sweep's last run.
#[utoipa::path(get, path = "/api/cms/jobs/overview", tag = "cms", security(("bearer" = [])),
    responses((status = 200, body = Overview), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn job_overview(State(state): State<AppState>, _staff: Staff) -> Result<Json<Overview>, ApiError> {
    Ok(Json(jobs::admin::overview(&state.db).await?))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobRetried {
    /// The same job, queued again; its progress is `GET /api/jobs/{id}`.
    pub job_id: Uuid,
}

pub const JOB_NOT_RETRYABLE: &str = "Deze taak is niet mislukt (meer) en kan niet opnieuw worden geprobeerd.";

/// Staff: 'Opnieuw proberen': queues a retrying, failed or dead job again at once.
#[utoipa::path(post, path = "/api/cms/jobs/{id}/retry", tag = "cms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The job's id")),
    responses((status = 202, body = JobRetried), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn retry_job(
    State(state): State<AppState>,
    staff: Staff,
    Path(id): Path<Uuid>,
) -> Result<(StatusCode, Json<JobRetried>), ApiError> {
    let problem = jobs::admin::problem(&state.db, id).await?.ok_or(ApiError::Missing("Taak niet gevonden"))?;
    audited(&state, &staff, async |tx| {
        if !problem.retryable || !jobs::admin::retry(tx, id).await? {
            return Err(ApiError::Conflict { code: "not_retryable", message: JOB_NOT_RETRYABLE });
        }
        let entry = audit::Entry {
            action: audit::Action::RetryJob,
            subject_type: "job",
            subject_id: id.to_string(),
            concerns_user_id: None,
            concerns_organisation_id: None,
            changes: json!({ "before": { "state": problem.state, "attempts": problem.attempts, "lastError": problem.last_error },
                             "after": { "state": "queued", "attempts": 0 } }),
            about: problem.description.clone(),
        };
        Ok(((), entry))
    })
    .await?;
    state.jobs.push_committed(&[id], "retried job").await;
    Ok((StatusCode::ACCEPTED, Json(JobRetried { job_id: id })))
}
