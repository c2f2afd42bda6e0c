//! Per-request spans and HTTP metrics.

use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;
use tracing::Span;

pub use domain::telemetry::metrics_handle;

/// The route template of a request (`/api/jobs/{id}`), or a fixed label for everything the SPA
/// serves, so neither ids nor arbitrary paths become metric labels.
fn route_label(request: &Request) -> String {
    match request.extensions().get::<MatchedPath>() {
        Some(path) => path.as_str().to_owned(),
        None if request.uri().path().starts_with("/api/") => "/api/(unknown)".to_owned(),
        None => "(spa)".to_owned(),
    }
}

/// A span per request with ids as fields (never tokens, query strings or bodies), one log line
/// when it ends, and the request counters and durations.
pub async fn observe(request: Request, next: Next) -> Response {
    let route = route_label(&request);
    let method = request.method().clone();
    let request_id = request.headers().get("x-request-id").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    let span = tracing::info_span!(
        "http.request",
        http.method = %method,
        http.route = %route,
        request.id = %request_id,
        user.id = tracing::field::Empty,
        http.status = tracing::field::Empty,
        duration_ms = tracing::field::Empty,
    );
    let started = Instant::now();
    let response = tracing::Instrument::instrument(next.run(request), span.clone()).await;
    let elapsed = started.elapsed();
    let status = response.status().as_u16();
    span.record("http.status", status);
    span.record("duration_ms", elapsed.as_millis() as u64);
    span.in_scope(|| {
        if status >= 500 {
            tracing::warn!("request finished");
        } else if route != "(spa)" {
            tracing::info!("request finished");
        }
    });
    let labels = [("method", method.to_string()), ("route", route), ("status", status.to_string())];
    metrics::counter!("http_requests_total", &labels).increment(1);
    metrics::histogram!("http_request_duration_seconds", &labels[..2]).record(elapsed.as_secs_f64());
    response
}

/// Records the signed-in user on the current request span.
pub fn record_user(id: &str) {
    Span::current().record("user.id", id);
}
