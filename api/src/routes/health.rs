//! `/healthz`, `/readyz` and `/metrics` (behind `APP_METRICS_TOKEN`, see [`MetricsAccess`]).

use std::collections::BTreeMap;
use std::net::IpAddr;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use domain::env::{AppEnv, Env, EnvError};
use secrecy::{ExposeSecret, SecretString};
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::error::{ApiError, ErrorBody};
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
                let sent = authorization.and_then(crate::auth::bearer_token).unwrap_or_default();
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
