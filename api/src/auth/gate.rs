//! The subscription gate: the consult, summary, upload and template calls need an active personal
//! or organisation subscription (`domain::billing::read::may_use_product`); without one they answer
//! 402 `subscription_required`. Staff pass, so that they can look into what a user reports.
//!
//! The gate is a route layer on the gated routers ([`gated`]), so it runs after routing and before
//! the handler reads anything: it signs the user in (401, and 403 without the agreement, as
//! [`CurrentUser`] does), checks the subscription, and leaves the user in the request's extensions
//! for the handler's own [`CurrentUser`]. [`GATED`] lists the gated paths for the OpenAPI document;
//! `api/tests/gate.rs` calls every documented operation as a user without a subscription and
//! holds the layer and the list to each other.

use axum::Router;
use axum::extract::{FromRequestParts, Request, State};
use axum::middleware::{self, Next};
use axum::response::Response;

use super::CurrentUser;
use crate::error::ApiError;
use crate::state::AppState;

/// Every gated path, as the OpenAPI document writes it (all its methods are gated).
pub const GATED: &[&str] = &[
    // consults
    "/api/consult",
    "/api/consult/{consult_id}",
    "/api/consult/{consult_id}/render/{perspective}",
    "/api/consult/{consult_id}/note",
    // live sessions and the recording upload
    "/api/consult/audio/session",
    "/api/consult/beta",
    "/api/consult/audio/session/{session_id}/recording",
    // the summary calls
    "/api/audio/consult/generative/v1",
    "/api/audio/consult/generative/v1/withExamples",
    "/api/audio/consult/generative/v2",
    "/api/audio/consult/generative/v2-turbo",
    "/api/electronic/consult/generative",
    // text analysis on the consult page
    "/api/medcat/medcatify",
    "/api/medcat/medcatMedicineShortage",
    // templates
    "/api/template/entry",
    "/api/template/entry/count",
    "/api/template/entry/query",
    "/api/template/entry/{id}",
    "/api/template/group",
    "/api/template/group/count",
    "/api/template/group/query",
    "/api/template/group/{id}",
];

/// Whether a documented path is gated.
pub fn is_gated(path: &str) -> bool {
    GATED.contains(&path)
}

/// The router with the gate in front of each of its routes.
pub fn gated(router: Router<AppState>, state: &AppState) -> Router<AppState> {
    router.route_layer(middleware::from_fn_with_state(state.clone(), require_subscription))
}

async fn require_subscription(State(state): State<AppState>, request: Request, next: Next) -> Result<Response, ApiError> {
    let (mut parts, body) = request.into_parts();
    let user = CurrentUser::from_request_parts(&mut parts, &state).await?;
    let today = domain::billing::today();
    if !user.is_staff && !domain::billing::read::may_use_product(&state.db, &user.id, &user.email, today).await? {
        return Err(ApiError::SubscriptionRequired);
    }
    parts.extensions.insert(user);
    Ok(next.run(Request::from_parts(parts, body)).await)
}
