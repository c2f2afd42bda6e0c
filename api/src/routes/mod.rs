//! One router per area, merged here.

pub mod cms;
pub mod consults;
pub mod feedback;
pub mod health;
pub mod icpc;
pub mod invoices;
pub mod jobs;
pub mod local_checkout;
pub mod medcat;
pub mod payment_webhook;
pub mod personalize;
pub mod public;
pub mod record_system;
pub mod subscription;
pub mod summary_calls;
pub mod templates;
pub mod user;

use axum::Router;

use crate::state::AppState;

pub fn router(state: &AppState) -> Router<AppState> {
    Router::new()
        .merge(cms::router())
        .merge(consults::router(state))
        .merge(feedback::router(state))
        .merge(health::router())
        .merge(icpc::router())
        .merge(invoices::router())
        .merge(jobs::router())
        .merge(local_checkout::router())
        .merge(medcat::router(state))
        .merge(payment_webhook::router())
        .merge(personalize::router())
        .merge(public::router())
        .merge(record_system::router(state))
        .merge(subscription::router())
        .merge(summary_calls::router(state))
        .merge(templates::router(state))
        .merge(user::router())
}
