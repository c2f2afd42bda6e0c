//! The small HTTP surface of the worker and the scheduler: `/healthz`, `/readyz`, `/metrics`.
//! The api serves the same three on its own port (and, in one-process mode, covers all three).

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::json;
use sqlx::PgPool;

use crate::config::JobsConfig;

const CHECK_TIMEOUT: Duration = Duration::from_secs(2);

/// Whether PostgreSQL and Redis answer and every queue is served; each check is `ok` or why
/// not. A stalled queue (see [`crate::health`]) is named `queue:<kind>`.
pub async fn readiness(db: &PgPool, redis: &redis::Client, jobs: &JobsConfig) -> (bool, BTreeMap<String, String>) {
    let postgres = async {
        tokio::time::timeout(CHECK_TIMEOUT, sqlx::query!("select 1 as ping").fetch_one(db))
            .await
            .map_err(|_| "no reply within 2 s".to_owned())
            .and_then(|r| r.map(|_| ()).map_err(|_| "unreachable".to_owned()))
    };
    let client = redis;
    let redis = async { crate::ping(client, CHECK_TIMEOUT).await.map_err(|_| "unreachable".to_owned()) };
    let (postgres, redis_ok) = tokio::join!(postgres, redis);
    let mut checks = BTreeMap::new();
    let mut ready = true;
    let both = postgres.is_ok() && redis_ok.is_ok();
    for (name, result) in [("postgres", postgres), ("redis", redis_ok)] {
        ready &= result.is_ok();
        checks.insert(name.to_owned(), result.err().unwrap_or_else(|| "ok".to_owned()));
    }
    if both {
        let queues = async {
            let mut conn = client.get_multiplexed_async_connection().await?;
            crate::health::stalled_queues(db, &mut conn, jobs).await
        };
        match tokio::time::timeout(CHECK_TIMEOUT, queues).await {
            Ok(Ok(stalled)) => {
                for (kind, why) in stalled {
                    ready = false;
                    checks.insert(format!("queue:{kind}"), why);
                }
            }
            Ok(Err(e)) => tracing::debug!(error = %e, "queue check skipped"),
            Err(_) => tracing::debug!("queue check took longer than 2 s; skipped"),
        }
    }
    (ready, checks)
}

#[derive(Clone)]
struct Ops {
    db: PgPool,
    redis: redis::Client,
    jobs: JobsConfig,
}

/// Serves the three endpoints on `addr` until `shutdown` resolves.
pub async fn serve(
    addr: SocketAddr,
    db: PgPool,
    redis: redis::Client,
    jobs: JobsConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
    let app = Router::new()
        .route("/healthz", get(|| async { Json(json!({ "status": "ok", "checks": {} })) }))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .with_state(Ops { db, redis, jobs });
    tracing::info!(%addr, "health and metrics listening");
    axum::serve(listener, app).with_graceful_shutdown(shutdown).await?;
    Ok(())
}

async fn readyz(State(ops): State<Ops>) -> impl IntoResponse {
    let (ready, checks) = readiness(&ops.db, &ops.redis, &ops.jobs).await;
    let status = if ready { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    (status, Json(json!({ "status": if ready { "ok" } else { "unavailable" }, "checks": checks })))
}

async fn metrics() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], domain::telemetry::metrics_handle().render())
}
