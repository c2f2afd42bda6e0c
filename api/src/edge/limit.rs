//! Rate limits, counted in Redis so that every api replica sees the same counts.
//!
//! Each limit is a fixed window per subject (a user, or a client address): the first request
//! of a window creates the counter with the window as its expiry (`SET NX PX`), each request adds
//! one (`INCR`), and the rest of the window is its `PTTL`, all in one `MULTI`. Over the count the
//! answer is 429 with `Retry-After` and 'Te veel verzoeken. Probeer het over N seconden opnieuw.'
//! Keys: `<APP_JOBS_NAMESPACE>:ratelimit:<limit>:<u|a|s>:<user id, address or owner:subscription id>`.
//!
//! When Redis does not answer within [`REDIS_BOUND`] the request is let through and a warning
//! logged (at most every [`WARN_EVERY`]): a Redis outage must not lock clinicians out of their
//! work, and the limits guard against abuse, not against load the api cannot take.
//!
//! The limits are in [`LimitName`]; a route counts against one through [`Limited`], attached
//! where the route is made. The live consult's `summarize` message counts against
//! [`LimitName::Summary`] through [`check`]; the payment webhook counts only deliveries naming no
//! payment of ours against [`LimitName::PaymentWebhook`], and the seats of a subscription against
//! [`LimitName::Seats`] and [`LimitName::SeatInvitations`] (per subscription, checked by the
//! handler, which knows the subscription), also through [`check`].

use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::extract::{Request, State};
use axum::http::header::AUTHORIZATION;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

pub use super::rates::{LimitName, Per, Rate, RateLimits};
use crate::auth::AccessClaims;
use crate::error::ApiError;
use crate::state::AppState;

/// How long a limit check may wait for Redis before the request goes through unchecked.
pub const REDIS_BOUND: Duration = Duration::from_millis(500);
/// Redis trouble is logged at most this often.
pub const WARN_EVERY: Duration = Duration::from_secs(10);

/// Whom a request counts for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    User(String),
    Address(IpAddr),
    /// A subscription, as its owner (the caller) names it: someone else sending its id counts
    /// against their own key, not the owner's.
    Subscription {
        owner: String,
        id: uuid::Uuid,
    },
}

impl Subject {
    fn key_part(&self) -> String {
        match self {
            Self::User(id) => format!("u:{id}"),
            Self::Address(ip) => format!("a:{ip}"),
            Self::Subscription { owner, id } => format!("s:{owner}:{id}"),
        }
    }
}

static LAST_WARNING: AtomicU64 = AtomicU64::new(0);

fn warn_throttled(limit: LimitName, error: &str) {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default().as_secs();
    let last = LAST_WARNING.load(Ordering::Relaxed);
    if now >= last + WARN_EVERY.as_secs() && LAST_WARNING.compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed).is_ok() {
        tracing::warn!(limit = limit.as_str(), error, "rate limit not checked: Redis did not answer; the request goes through");
    }
}

/// Counts one request of `subject` against `name`: `Err(TooManyRequests)` when over the limit,
/// `Ok` when under it, when the limit is off, or when Redis cannot say (fail open).
pub async fn check(state: &AppState, name: LimitName, subject: &Subject) -> Result<(), ApiError> {
    let Some(rate) = state.config.rate_limits.get(name) else {
        return Ok(());
    };
    let key = format!("{}:ratelimit:{}:{}", state.config.jobs.namespace, name.as_str(), subject.key_part());
    let period_ms = rate.period.as_millis().max(1) as u64;
    let count = async {
        let mut conn = state.jobs.connection().await?;
        let (count, ttl_ms): (u64, i64) = redis::pipe()
            .atomic()
            .cmd("SET")
            .arg(&key)
            .arg(0)
            .arg("PX")
            .arg(period_ms)
            .arg("NX")
            .ignore()
            .cmd("INCR")
            .arg(&key)
            .cmd("PTTL")
            .arg(&key)
            .query_async(&mut conn)
            .await?;
        Ok::<_, anyhow::Error>((count, ttl_ms))
    };
    let (count, ttl_ms) = match tokio::time::timeout(REDIS_BOUND, count).await {
        Ok(Ok(answer)) => answer,
        Ok(Err(e)) => {
            warn_throttled(name, &format!("{e:#}"));
            return Ok(());
        }
        Err(_) => {
            warn_throttled(name, "timed out");
            return Ok(());
        }
    };
    if count <= u64::from(rate.count) {
        return Ok(());
    }
    // a counter without expiry (a failed SET) would never reset: give it the window
    let ttl_ms = if ttl_ms < 0 { period_ms } else { ttl_ms as u64 };
    Err(ApiError::TooManyRequests { limit: name.as_str(), retry_after: ttl_ms.div_ceil(1000).max(1) })
}

/// The claims of a request's bearer token, when it is valid.
async fn claims_of(state: &AppState, token: Option<String>) -> Option<AccessClaims> {
    state.auth.validate(&token?).await.ok()
}

/// Counts a call of a limited route against its limit (see [`Limited`]).
async fn count(State((state, name)): State<(AppState, LimitName)>, mut request: Request, next: Next) -> Response {
    if state.config.rate_limits.get(name).is_none() {
        return next.run(request).await;
    }
    let subject = match name.per() {
        Per::User => {
            // validated once: the handler's sign-in check takes the claims from the extensions
            let token =
                request.headers().get(AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(crate::auth::bearer_token).map(str::to_owned);
            let claims = claims_of(&state, token).await;
            let subject = claims.as_ref().map(|c| Subject::User(c.sub.clone()));
            if let Some(claims) = claims {
                request.extensions_mut().insert(claims);
            }
            subject
        }
        Per::Address => super::client::peer(request.extensions())
            .map(|peer| Subject::Address(state.config.http.trusted_proxies.client(peer, request.headers()))),
        Per::Subscription => None,
    };
    if let Some(subject) = subject
        && let Err(refused) = check(&state, name, &subject).await
    {
        return refused.into_response();
    }
    next.run(request).await
}

/// A route or router whose calls count against a limit: `post(send).limited(state,
/// LimitName::Feedback)`, next to the route it limits. A limit counted per subscription is
/// checked by its handler through [`check`] instead (only the handler knows the subscription).
/// The route's OpenAPI annotation lists `(status = 429, body = ErrorBody)`.
pub trait Limited {
    fn limited(self, state: &AppState, name: LimitName) -> Self;
}

impl<S: Clone + Send + Sync + 'static> Limited for axum::routing::MethodRouter<S> {
    fn limited(self, state: &AppState, name: LimitName) -> Self {
        self.route_layer(axum::middleware::from_fn_with_state((state.clone(), name), count))
    }
}

impl<S: Clone + Send + Sync + 'static> Limited for axum::Router<S> {
    fn limited(self, state: &AppState, name: LimitName) -> Self {
        self.route_layer(axum::middleware::from_fn_with_state((state.clone(), name), count))
    }
}
