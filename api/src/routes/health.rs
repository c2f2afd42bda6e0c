//! `/healthz`, `/readyz` and `/metrics` (behind `APP_METRICS_TOKEN`, see
//! [`crate::telemetry::MetricsAccess`]).

use std::collections::BTreeMap;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ErrorBody;
use crate::extract::Json;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/healthz", get(healthz)).route("/readyz", get(readyz)).route("/metrics", get(metrics))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok` or `unavailable`.
    pub status: &'static str,
    /// Each dependency (`postgres`, `redis`): `ok` or why not.
    // and a stalled job queue, as `queue:<kind>` with why
    #[schema(example = json!({"postgres": "ok", "redis": "ok"}))]
    pub checks: BTreeMap<String, String>,
}

/// The process is up.
#[utoipa::path(get, path = "/healthz", tag = "health", responses((status = 200, body = Health)))]
pub async fn healthz() -> Json<Health> {
    Json(Health { status: "ok", checks: BTreeMap::new() })
}

/// PostgreSQL and Redis are reachable; 503 names the ones that are not.
// A stalled job queue (jobs::health) also makes it 503, named `queue:<kind>`.
#[utoipa::path(
    get,
    path = "/readyz",
    tag = "health",
    responses((status = 200, body = Health), (status = 503, body = Health, description = "a dependency is unreachable"))
)]
pub async fn readyz(State(state): State<AppState>) -> impl IntoResponse {
    let (ready, checks) = jobs::ops::readiness(&state.db, &state.redis, state.jobs.config()).await;
    let status = if ready { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    (status, Json(Health { status: if ready { "ok" } else { "unavailable" }, checks }))
}

/// Prometheus text format, with `Authorization: Bearer <APP_METRICS_TOKEN>`; without a token
/// configured, in development from this machine only and in production not at all.
#[utoipa::path(get, path = "/metrics", tag = "health", responses(
    (status = 200, content_type = "text/plain", body = String),
    (status = 401, body = ErrorBody, description = "no or a wrong metrics token"),
    (status = 403, body = ErrorBody, description = "development without a token: not from this machine"),
    (status = 404, body = ErrorBody, description = "production without a token: metrics off")))]
pub async fn metrics(State(state): State<AppState>, request: Request) -> Response {
    let authorization = request.headers().get(header::AUTHORIZATION).and_then(|v| v.to_str().ok());
    let client =
        crate::edge::client::peer(request.extensions()).map(|peer| state.config.http.trusted_proxies.client(peer, request.headers()));
    if let Err(refused) = state.config.metrics.check(authorization, client) {
        let mut response = refused.into_response();
        if response.status() == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        return response;
    }
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], state.metrics.render()).into_response()
}
