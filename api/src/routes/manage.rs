//! Staff calls under `/payment/manage` (spec §7.3): the user subscriptions and payments of the
//! CMS, their changes, and the subscription counters. The bookkeeping buttons are in
//! `routes::invoices`. Every change and every read of a user's data is in the audit log.

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use chrono::{DateTime, NaiveDate, Utc};
use domain::audit;
use domain::billing::CmsSubscription;
use domain::billing::details::{self, InvoiceDetails};
use domain::billing::invoices::euros;
use domain::billing::lifecycle::{self, Actor, Changed};
use domain::billing::read::{self, CmsPayment, PaymentFilter, SubscriptionFilter};
use domain::billing::status::PaymentStatus;
use domain::billing::sweeps::{UnpaidProblem, open_problems};
use domain::billing::{dutch_date, today};
use domain::cms::statistics::Counter;
use domain::cms::users::{self, USER_NOT_FOUND};
use domain::cms::{NO_DATE, PAGE_SIZE, parse_date};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::cms::{audited, checked_page, checked_search, counter_calls, read_entry};
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
        .route("/payment/manage/getAllPayments", get(all_payments))
        .route("/payment/manage/getPaymentsForCMSUser/{user_id}", get(payments_of_user))
        .route("/payment/manage/editPayment", post(edit_payment))
        .route("/payment/manage/getAmountPaidSubscriptions", get(get_amount_paid_subscriptions))
        .route("/payment/manage/getAmountPaidSubscriptionsActive", get(get_amount_paid_subscriptions_active))
        .route("/payment/manage/getAmountTrialSubscriptions", get(get_amount_trial_subscriptions))
        .route("/payment/manage/getAmountTrialSubscriptionsActive", get(get_amount_trial_subscriptions_active))
}

counter_calls! {
    get_amount_paid_subscriptions => "/payment/manage/getAmountPaidSubscriptions", Counter::PaidSubscriptions, "Staff: paid subscriptions.";
    get_amount_paid_subscriptions_active => "/payment/manage/getAmountPaidSubscriptionsActive", Counter::PaidSubscriptionsActive,
        "Staff: active paid subscriptions.";
    get_amount_trial_subscriptions => "/payment/manage/getAmountTrialSubscriptions", Counter::TrialSubscriptions, "Staff: trial subscriptions.";
    get_amount_trial_subscriptions_active => "/payment/manage/getAmountTrialSubscriptionsActive", Counter::TrialSubscriptionsActive,
        "Staff: active trial subscriptions.";
}

// ---------------------------------------------------------------------------------------------
// Gebruikers abonnementen

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

// ---------------------------------------------------------------------------------------------
// Betalingen

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PaymentsQuery {
    /// From 0.
    #[serde(default)]
    #[param(minimum = 0, maximum = 100000)]
    pub page: i64,
    /// `ALL` (or empty, or none), or one status.
    #[param(pattern = "^(|ALL|OPEN|CANCELED|PAID|EXPIRED|FAILED|PENDING|AUTHORIZED)$")]
    pub status: Option<String>,
    /// A part of the user's e-mail address or id.
    #[param(max_length = 200)]
    pub search: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentPage {
    /// Newest first.
    pub rows: Vec<CmsPayment>,
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
}

/// Staff: every payment (Betalingen) with its bookkeeping state, newest first, 50 a page.
#[utoipa::path(get, path = "/payment/manage/getAllPayments", tag = "cms", security(("bearer" = [])), params(PaymentsQuery),
    responses((status = 200, body = PaymentPage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn all_payments(
    State(state): State<AppState>,
    _staff: Staff,
    Query(q): Query<PaymentsQuery>,
) -> Result<Json<PaymentPage>, ApiError> {
    let page = checked_page(q.page)?;
    let status = match q.status.as_deref().map(str::trim) {
        None | Some("") | Some("ALL") => None,
        Some(s) => Some(
            PaymentStatus::parse(s)
                .ok_or_else(|| ApiError::BadRequest { code: "invalid_status", message: "Onbekende betaalstatus.".to_owned() })?,
        ),
    };
    let filter = PaymentFilter { status, search: checked_search(q.search.as_deref())? };
    let (rows, total) = read::payment_page(&state.db, &filter, page, PAGE_SIZE).await?;
    Ok(Json(PaymentPage { rows, total, page, page_size: PAGE_SIZE }))
}

/// Staff: a user's payments, newest first (the info modal); the read is in the audit log.
#[utoipa::path(get, path = "/payment/manage/getPaymentsForCMSUser/{user_id}", tag = "cms", security(("bearer" = [])),
    params(("user_id" = String, Path, description = "The user's id")),
    responses((status = 200, body = Vec<CmsPayment>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
pub async fn payments_of_user(
    State(state): State<AppState>,
    staff: Staff,
    Path(user_id): Path<String>,
) -> Result<Json<Vec<CmsPayment>>, ApiError> {
    let list = audited(&state, &staff, async |tx| {
        let email = users::email_of(&mut *tx, &user_id).await?.ok_or(ApiError::Missing(USER_NOT_FOUND))?;
        let list = read::payments_of_user(tx, &user_id).await?;
        Ok((list, read_entry(audit::Action::ReadUserPayments, "user", &user_id, &email)))
    })
    .await?;
    Ok(Json(list))
}

/// Staff: changes a payment's invoice details, checked in the spec's order (§5). An invoice made
/// already keeps what it says.
#[utoipa::path(post, path = "/payment/manage/editPayment", tag = "cms", security(("bearer" = [])), request_body = InvoiceDetails,
    responses((status = 200, body = CmsPayment), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn edit_payment(
    State(state): State<AppState>,
    staff: Staff,
    Json(details): Json<InvoiceDetails>,
) -> Result<Json<CmsPayment>, ApiError> {
    details::validate_invoice_details(&details)?;
    let payment = audited(&state, &staff, async |tx| {
        let edited = read::edit_invoice_details(tx, &details).await?;
        let p = &edited.payment;
        let entry = audit::Entry {
            action: audit::Action::EditPayment,
            subject_type: "payment",
            subject_id: p.id.to_string(),
            concerns_user_id: Some(p.user_id.clone()),
            concerns_organisation_id: None,
            about: format!("van de betaling van {} ({}, {})", p.user_email, p.description, euros(p.amount_cents)),
            changes: edited.changes,
        };
        Ok((edited.payment, entry))
    })
    .await?;
    Ok(Json(payment))
}
