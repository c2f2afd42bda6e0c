//! One router per area, merged here.

pub mod health;
pub mod jobs;
pub mod public;
pub mod user;

use axum::Router;

use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().merge(health::router()).merge(jobs::router()).merge(public::router()).merge(user::router())
}
