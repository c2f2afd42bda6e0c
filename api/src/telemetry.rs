//! Per-request spans and HTTP metrics, and who may read them.

use std::net::IpAddr;
use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::Response;
use domain::env::{AppEnv, Env, EnvError};
use secrecy::{ExposeSecret, SecretString};
use sha2::{Digest, Sha256};
use tracing::Span;

use crate::auth::bearer::bearer_token;
use crate::error::ApiError;

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

/// Who may read `/metrics` on the api's address. The worker's and the scheduler's are on
/// addresses of their own (`APP_WORKER_HTTP_ADDR`, `APP_SCHEDULER_HTTP_ADDR`, on localhost by
/// default); the api's shares the public port, so it takes a token.
#[derive(Clone)]
pub enum MetricsAccess {
    /// `APP_METRICS_TOKEN`: `Authorization: Bearer <token>` is required.
    Token(SecretString),
    /// No token in development: clients on this machine only (`make run`, the tests).
    Loopback,
    /// No token in production: `/metrics` is not served (404).
    Off,
}

impl std::fmt::Debug for MetricsAccess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Token(_) => "Token([redacted])",
            Self::Loopback => "Loopback",
            Self::Off => "Off",
        })
    }
}

/// The shortest `APP_METRICS_TOKEN` taken.
pub const METRICS_TOKEN_MIN: usize = 16;

impl MetricsAccess {
    pub fn from_env(env: &Env, app_env: AppEnv) -> Result<Self, EnvError> {
        match env.get("APP_METRICS_TOKEN").map(|t| t.trim().to_owned()).filter(|t| !t.is_empty()) {
            Some(token) if token.chars().count() < METRICS_TOKEN_MIN => {
                Err(EnvError::new("APP_METRICS_TOKEN", format!("must be at least {METRICS_TOKEN_MIN} characters")))
            }
            Some(token) => Ok(Self::Token(SecretString::from(token))),
            None if app_env == AppEnv::Development => Ok(Self::Loopback),
            None => Ok(Self::Off),
        }
    }

    /// Whether a request with this `Authorization` header from this client may read the metrics.
    pub fn check(&self, authorization: Option<&str>, client: Option<IpAddr>) -> Result<(), ApiError> {
        match self {
            Self::Token(token) => {
                let sent = authorization.and_then(bearer_token).unwrap_or_default();
                let expected = token.expose_secret();
                // compared in constant time: hashes of equal length
                if Sha256::digest(sent.as_bytes()) == Sha256::digest(expected.as_bytes()) {
                    Ok(())
                } else {
                    Err(ApiError::Refused {
                        status: StatusCode::UNAUTHORIZED,
                        code: "unauthorized",
                        message: METRICS_TOKEN_NEEDED.to_owned(),
                    })
                }
            }
            Self::Loopback if client.is_some_and(|ip| ip.is_loopback() || ip.to_canonical().is_loopback()) => Ok(()),
            Self::Loopback => Err(ApiError::Denied(METRICS_LOCAL_ONLY)),
            Self::Off => Err(ApiError::NotFound),
        }
    }
}

pub const METRICS_TOKEN_NEEDED: &str = "Stuur het metrics-token (APP_METRICS_TOKEN) mee als Bearer-token.";
pub const METRICS_LOCAL_ONLY: &str = "Zonder APP_METRICS_TOKEN zijn de metrics alleen vanaf deze machine te lezen.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_need_the_token_when_one_is_set_and_are_local_or_off_without() {
        let dev = |pairs: &[(&str, &str)]| MetricsAccess::from_env(&Env::from_pairs(pairs.iter().copied()), AppEnv::Development);
        let local = Some(IpAddr::from([127, 0, 0, 1]));
        let remote = Some(IpAddr::from([10, 1, 2, 3]));
        let token = dev(&[("APP_METRICS_TOKEN", "0123456789abcdef0123")]).unwrap();
        assert!(token.check(Some("Bearer 0123456789abcdef0123"), remote).is_ok());
        for sent in [None, Some("Bearer 0123456789abcdef012"), Some("Basic 0123456789abcdef0123")] {
            assert!(matches!(token.check(sent, local), Err(ApiError::Refused { status: StatusCode::UNAUTHORIZED, .. })), "{sent:?}");
        }
        assert!(dev(&[("APP_METRICS_TOKEN", "short")]).is_err());
        let open = dev(&[]).unwrap();
        assert!(open.check(None, local).is_ok());
        assert!(open.check(None, Some("::ffff:127.0.0.1".parse().unwrap())).is_ok());
        assert!(matches!(open.check(None, remote), Err(ApiError::Denied(_))));
        let production = MetricsAccess::from_env(&Env::from_pairs::<&str, &str>([]), AppEnv::Production).unwrap();
        assert!(matches!(production.check(Some("Bearer anything-at-all-here"), local), Err(ApiError::NotFound)));
        assert_eq!(format!("{token:?}"), "Token([redacted])");
    }
}
