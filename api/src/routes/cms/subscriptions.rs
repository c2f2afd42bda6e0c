//! Gebruikers abonnementen (spec §7.3, `/payment/manage`): the user subscriptions, the unpaid
//! problems, a user's subscriptions, and the staff's changes (on/off, last day, cancel, renew).

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use chrono::{DateTime, NaiveDate, Utc};
use domain::audit;
use domain::billing::lifecycle::{self, Actor, Changed};
use domain::billing::read::{self, SubscriptionFilter};
use domain::billing::sweeps::{UnpaidProblem, open_problems};
use domain::billing::{CmsSubscription, dutch_date, today};
use domain::cms::users::{self, USER_NOT_FOUND};
use domain::cms::{NO_DATE, PAGE_SIZE, parse_date};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::{audited, checked_page, checked_search, read_entry};
use crate::auth::Staff;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Json, Query};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/payment/manage/getAllSubscriptions", get(all_subscriptions))
        .route("/payment/manage/getAllSubscriptionProblems", get(subscription_problems))
        .route("/payment/manage/getSubscriptionForCMSUser/{user_id}", get(subscriptions_of_user))
        .route("/payment/manage/subscription/active/{id}", post(set_active))
        .route("/payment/manage/subscription/valid/{id}", post(set_valid_until))
        .route("/payment/manage/cancelSubscription/{id}", post(cancel))
        .route("/payment/manage/renewSubscription", post(renew))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionsQuery {
    /// From 0.
    #[serde(default)]
    #[param(minimum = 0, maximum = 100000)]
    pub page: i64,
    /// 'Alleen betaalde abonnementen'.
    #[serde(default)]
    pub paid_only: bool,
    /// 'Alleen actieve abonnementen'.
    #[serde(default)]
    pub active_only: bool,
    /// A part of the user's e-mail address or id.
    #[param(max_length = 200)]
    pub search: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionPage {
    /// Newest first.
    pub rows: Vec<CmsSubscription>,
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
}

/// Staff: every user subscription (Gebruikers abonnementen), newest first, 50 a page.
#[utoipa::path(get, path = "/payment/manage/getAllSubscriptions", tag = "cms", security(("bearer" = [])), params(SubscriptionsQuery),
    responses((status = 200, body = SubscriptionPage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn all_subscriptions(
    State(state): State<AppState>,
    _staff: Staff,
    Query(q): Query<SubscriptionsQuery>,
) -> Result<Json<SubscriptionPage>, ApiError> {
    let page = checked_page(q.page)?;
    let filter = SubscriptionFilter { paid_only: q.paid_only, active_only: q.active_only, search: checked_search(q.search.as_deref())? };
    let (rows, total) = read::subscription_page(&state.db, &filter, today(), page, PAGE_SIZE).await?;
    Ok(Json(SubscriptionPage { rows, total, page, page_size: PAGE_SIZE }))
}

/// The most problems the warning list shows.
const PROBLEMS_SHOWN: i64 = 200;

/// Staff: active subscriptions without a payment for 5 days, as the nightly check found them
/// (open ones, newest first).
#[utoipa::path(get, path = "/payment/manage/getAllSubscriptionProblems", tag = "cms", security(("bearer" = [])),
    responses((status = 200, body = Vec<UnpaidProblem>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn subscription_problems(State(state): State<AppState>, _staff: Staff) -> Result<Json<Vec<UnpaidProblem>>, ApiError> {
    Ok(Json(open_problems(&state.db, PROBLEMS_SHOWN, 0).await?))
}

/// Staff: a user's subscriptions, paid and trial, active first (the info modal); the read is in
/// the audit log.
#[utoipa::path(get, path = "/payment/manage/getSubscriptionForCMSUser/{user_id}", tag = "cms", security(("bearer" = [])),
    params(("user_id" = String, Path, description = "The user's id")),
    responses((status = 200, body = Vec<CmsSubscription>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
pub async fn subscriptions_of_user(
    State(state): State<AppState>,
    staff: Staff,
    Path(user_id): Path<String>,
) -> Result<Json<Vec<CmsSubscription>>, ApiError> {
    let list = audited(&state, &staff, async |tx| {
        let email = users::email_of(&mut *tx, &user_id).await?.ok_or(ApiError::Missing(USER_NOT_FOUND))?;
        let list = read::subscriptions_of_user(tx, &user_id, today()).await?;
        Ok((list, read_entry(audit::Action::ReadUserSubscriptions, "user", &user_id, &email)))
    })
    .await?;
    Ok(Json(list))
}

/// The audit entry of a change to a subscription.
fn subscription_entry(action: audit::Action, changed: &Changed, changes: serde_json::Value, what: String) -> audit::Entry {
    let s = &changed.after;
    audit::Entry {
        action,
        subject_type: "subscription",
        subject_id: s.id.to_string(),
        concerns_user_id: Some(s.user_id.clone()),
        concerns_organisation_id: None,
        changes,
        about: format!("van het abonnement '{}' van {}{what}", s.description, s.user_email),
    }
}

/// What the audit log shows of a subscription switched on or off.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ActiveShown {
    is_active: bool,
}

impl ActiveShown {
    fn of(s: &CmsSubscription) -> Self {
        Self { is_active: s.is_active }
    }
}

/// What the audit log shows of a subscription's new last day (which may switch it off).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ValidUntilShown {
    valid_until: Option<NaiveDate>,
    is_active: bool,
}

impl ValidUntilShown {
    fn of(s: &CmsSubscription) -> Self {
        Self { valid_until: s.valid_until, is_active: s.is_active }
    }
}

/// What the audit log shows of a cancelled subscription.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CanceledShown {
    canceled_at: Option<DateTime<Utc>>,
    next_payment_date: Option<NaiveDate>,
}

impl CanceledShown {
    fn of(s: &CmsSubscription) -> Self {
        Self { canceled_at: s.canceled_at, next_payment_date: s.next_payment_date }
    }
}

fn yes_no(b: bool) -> &'static str {
    if b { "ja" } else { "nee" }
}

fn day_or_none(d: Option<NaiveDate>) -> String {
    d.map_or("geen".to_owned(), dutch_date)
}

/// Staff: switches a subscription on or off (the body is `true` or `false`). A subscription whose
/// valid-until has passed stays off.
#[utoipa::path(post, path = "/payment/manage/subscription/active/{id}", tag = "cms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The subscription's id")), request_body(content = bool, content_type = "application/json"),
    responses((status = 200, body = CmsSubscription), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn set_active(
    State(state): State<AppState>,
    staff: Staff,
    Path(id): Path<Uuid>,
    Json(active): Json<bool>,
) -> Result<Json<CmsSubscription>, ApiError> {
    let after = audited(&state, &staff, async |tx| {
        let changed = lifecycle::set_active(tx, id, active, today()).await?;
        let what = format!(" op {} (was {})", yes_no(changed.after.is_active), yes_no(changed.before.is_active));
        let entry = subscription_entry(audit::Action::SetSubscriptionActive, &changed, changed.changes(ActiveShown::of), what);
        Ok((changed.after, entry))
    })
    .await?;
    Ok(Json(after))
}

/// Staff: sets a subscription's last day (the body is a `yyyy-mm-dd` string). A day in the past
/// switches it off.
#[utoipa::path(post, path = "/payment/manage/subscription/valid/{id}", tag = "cms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The subscription's id")), request_body(content = String, content_type = "application/json"),
    responses((status = 200, body = CmsSubscription), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn set_valid_until(
    State(state): State<AppState>,
    staff: Staff,
    Path(id): Path<Uuid>,
    Json(date): Json<String>,
) -> Result<Json<CmsSubscription>, ApiError> {
    let valid_until = parse_date(&date)?;
    let after = audited(&state, &staff, async |tx| {
        let changed = lifecycle::set_valid_until(tx, id, valid_until, today()).await?;
        let what = format!(" naar {} (was {})", day_or_none(changed.after.valid_until), day_or_none(changed.before.valid_until));
        let entry = subscription_entry(audit::Action::SetSubscriptionValidUntil, &changed, changed.changes(ValidUntilShown::of), what);
        Ok((changed.after, entry))
    })
    .await?;
    Ok(Json(after))
}

/// Staff: cancels a user's subscription: no more renewals, usable until its valid-until.
#[utoipa::path(post, path = "/payment/manage/cancelSubscription/{id}", tag = "cms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The subscription's id")),
    responses((status = 200, body = CmsSubscription), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
pub async fn cancel(State(state): State<AppState>, staff: Staff, Path(id): Path<Uuid>) -> Result<Json<CmsSubscription>, ApiError> {
    let after = audited(&state, &staff, async |tx| {
        let changed = lifecycle::cancel(tx, Actor::Staff, id, today()).await?;
        let entry = subscription_entry(audit::Action::CancelSubscription, &changed, changed.changes(CanceledShown::of), String::new());
        Ok((changed.after, entry))
    })
    .await?;
    Ok(Json(after))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RenewRequest {
    /// `yyyy-mm-dd`: the first day the renewed subscription is paid for.
    #[serde(default)]
    pub start_date: String,
    /// The first payment of the subscription to renew.
    pub first_payment_id: Uuid,
}

/// Staff: renews the subscription of a first payment from a start date, at the tier's full price
/// (see `domain::billing::lifecycle::renew`). Answers the new subscription.
#[utoipa::path(post, path = "/payment/manage/renewSubscription", tag = "cms", security(("bearer" = [])), request_body = RenewRequest,
    responses((status = 201, body = CmsSubscription), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn renew(
    State(state): State<AppState>,
    staff: Staff,
    Json(body): Json<RenewRequest>,
) -> Result<(StatusCode, Json<CmsSubscription>), ApiError> {
    if body.start_date.trim().is_empty() {
        return Err(ApiError::BadRequest { code: "invalid", message: NO_DATE.to_owned() });
    }
    let start = parse_date(&body.start_date)?;
    let new = audited(&state, &staff, async |tx| {
        let renewed = lifecycle::renew(tx, body.first_payment_id, start, today()).await?;
        let entry = audit::Entry {
            action: audit::Action::RenewSubscription,
            subject_type: "subscription",
            subject_id: renewed.old.id.to_string(),
            concerns_user_id: Some(renewed.old.user_id.clone()),
            concerns_organisation_id: None,
            changes: json!({ "before": { "subscription": renewed.old.id },
                             "after": { "subscription": renewed.new.id, "nextPaymentDate": renewed.new.next_payment_date } }),
            about: format!("het abonnement '{}' van {} vanaf {}", renewed.old.description, renewed.old.user_email, dutch_date(start)),
        };
        Ok((renewed.new, entry))
    })
    .await?;
    Ok((StatusCode::CREATED, Json(new)))
}
