//! Statistieken: every tile at once, the daily series, and a bare-number call per counter (spec
//! §7.2/§7.3).

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use domain::billing::today;
use domain::cms::statistics::{self, Counter};
use serde::Serialize;
use utoipa::ToSchema;

use crate::auth::Staff;
use crate::error::{ApiError, ErrorBody};
use crate::extract::Json;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/cms/statistics", get(statistics_tiles))
        .route("/api/cms/statistics/daily", get(statistics_daily))
        .route("/api/cms/getActiveUsers", get(get_active_users))
        .route("/api/cms/getAmountConsultsToday", get(get_amount_consults_today))
        .route("/api/cms/getAmountNewUsersToday", get(get_amount_new_users_today))
        .route("/api/cms/getAmountOrganizationSubscriptions", get(get_amount_organization_subscriptions))
        .route("/api/cms/getAmountOrganizationSubscriptionsActive", get(get_amount_organization_subscriptions_active))
        .route("/api/cms/getAmountTetraConsultsToday", get(get_amount_tetra_consults_today))
        .route("/api/cms/getAmountUsers", get(get_amount_users))
        .route("/payment/manage/getAmountPaidSubscriptions", get(get_amount_paid_subscriptions))
        .route("/payment/manage/getAmountPaidSubscriptionsActive", get(get_amount_paid_subscriptions_active))
        .route("/payment/manage/getAmountTrialSubscriptions", get(get_amount_trial_subscriptions))
        .route("/payment/manage/getAmountTrialSubscriptionsActive", get(get_amount_trial_subscriptions_active))
}

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
            $crate::routes::cms::statistics::counter(state, staff, $counter).await
        }
    )*};
}

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

counter_calls! {
    get_amount_paid_subscriptions => "/payment/manage/getAmountPaidSubscriptions", Counter::PaidSubscriptions, "Staff: paid subscriptions.";
    get_amount_paid_subscriptions_active => "/payment/manage/getAmountPaidSubscriptionsActive", Counter::PaidSubscriptionsActive,
        "Staff: active paid subscriptions.";
    get_amount_trial_subscriptions => "/payment/manage/getAmountTrialSubscriptions", Counter::TrialSubscriptions, "Staff: trial subscriptions.";
    get_amount_trial_subscriptions_active => "/payment/manage/getAmountTrialSubscriptionsActive", Counter::TrialSubscriptionsActive,
        "Staff: active trial subscriptions.";
}
