//! `/healthz`, `/readyz` and `/metrics`.

use std::collections::BTreeMap;
use std::time::Duration;

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use utoipa::ToSchema;

use crate::state::AppState;

const CHECK_TIMEOUT: Duration = Duration::from_secs(2);

pub fn router() -> Router<AppState> {
    Router::new().route("/healthz", get(healthz)).route("/readyz", get(readyz)).route("/metrics", get(metrics))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok` or `unavailable`.
    pub status: &'static str,
    /// Each dependency (`postgres`, `redis`): `ok` or why not.
    #[schema(example = json!({"postgres": "ok", "redis": "ok"}))]
    pub checks: BTreeMap<&'static str, String>,
}

/// The process is up.
#[utoipa::path(get, path = "/healthz", tag = "health", responses((status = 200, body = Health)))]
pub async fn healthz() -> Json<Health> {
    Json(Health { status: "ok", checks: BTreeMap::new() })
}

/// PostgreSQL and Redis are reachable; 503 names the ones that are not.
#[utoipa::path(
    get,
    path = "/readyz",
    tag = "health",
    responses((status = 200, body = Health), (status = 503, body = Health, description = "a dependency is unreachable"))
)]
pub async fn readyz(State(state): State<AppState>) -> impl IntoResponse {
    let postgres = async {
        tokio::time::timeout(CHECK_TIMEOUT, sqlx::query("select 1").execute(&state.db))
            .await
            .map_err(|_| "no reply within 2 s".to_owned())
            .and_then(|r| r.map(|_| ()).map_err(|_| "unreachable".to_owned()))
    };
    let redis = async { jobs::ping(&state.redis, CHECK_TIMEOUT).await.map_err(|_| "unreachable".to_owned()) };
    let (postgres, redis) = tokio::join!(postgres, redis);
    let mut checks = BTreeMap::new();
    let mut ready = true;
    for (name, result) in [("postgres", postgres), ("redis", redis)] {
        ready &= result.is_ok();
        checks.insert(name, result.err().unwrap_or_else(|| "ok".to_owned()));
    }
    let status = if ready { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    (status, Json(Health { status: if ready { "ok" } else { "unavailable" }, checks }))
}

/// Prometheus text format.
#[utoipa::path(get, path = "/metrics", tag = "health", responses((status = 200, content_type = "text/plain", body = String)))]
pub async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], state.metrics.render())
}
