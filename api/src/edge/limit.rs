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
//! The limits and the calls they guard are in [`LimitName`] and [`limit_for`]; the live
//! consult's `summarize` message counts against [`LimitName::Summary`] through [`check`], and
//! the payment webhook counts only deliveries naming no payment of ours against
//! [`LimitName::PaymentWebhook`], and the seats of a subscription against [`LimitName::Seats`]
//! and [`LimitName::SeatInvitations`] (per subscription, checked by the handler, which knows the
//! subscription), also through [`check`].

use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::extract::{Request, State};
use axum::http::Method;
use axum::http::header::AUTHORIZATION;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use domain::env::{Env, EnvError};

use super::guard::is_recording_upload;
use crate::auth::AccessClaims;
use crate::error::ApiError;
use crate::state::AppState;

/// How long a limit check may wait for Redis before the request goes through unchecked.
pub const REDIS_BOUND: Duration = Duration::from_millis(500);
/// Redis trouble is logged at most this often.
pub const WARN_EVERY: Duration = Duration::from_secs(10);

/// Who a limit counts for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Per {
    /// The signed-in user (a request without a valid token is left to the handler's 401).
    User,
    /// The client's address (see [`super::client`]).
    Address,
    /// A subscription (the handler checks these itself).
    Subscription,
}

/// The limits, each configurable as `APP_RATE_LIMIT_<NAME>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LimitName {
    /// The development issuer's sign-in: `POST /oidc/token` and `POST /oidc/auth`.
    SignIn,
    /// `POST /api/feedback`.
    Feedback,
    /// The five summary calls and the live consult's `summarize`.
    Summary,
    /// `POST /api/consult/audio/session/{id}/recording`.
    Upload,
    /// The public hand-off page's `GET /api/integration/record-system/consult/{id}/redirect`.
    Handoff,
    /// The payment provider's webhook `POST /payment/webhook`, when it names no payment of ours
    /// (counted by the handler: a webhook about a real payment is always taken).
    PaymentWebhook,
    /// Seats added to one subscription (`POST /payment/subscription/addUser`).
    Seats,
    /// Invitation e-mails of one subscription's new seats.
    SeatInvitations,
}

impl LimitName {
    pub const ALL: [LimitName; 8] = [
        Self::SignIn,
        Self::Feedback,
        Self::Summary,
        Self::Upload,
        Self::Handoff,
        Self::PaymentWebhook,
        Self::Seats,
        Self::SeatInvitations,
    ];

    /// The name in `APP_RATE_LIMIT_<NAME>` and in keys and metrics (lower case).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::SignIn => "sign_in",
            Self::Feedback => "feedback",
            Self::Summary => "summary",
            Self::Upload => "upload",
            Self::Handoff => "handoff",
            Self::PaymentWebhook => "payment_webhook",
            Self::Seats => "seats",
            Self::SeatInvitations => "seat_invitations",
        }
    }

    pub fn per(self) -> Per {
        match self {
            Self::SignIn | Self::Handoff | Self::PaymentWebhook => Per::Address,
            Self::Feedback | Self::Summary | Self::Upload => Per::User,
            Self::Seats | Self::SeatInvitations => Per::Subscription,
        }
    }

    /// Defaults far above what a clinic does (a practice signs in from one address; a clinician
    /// summarises a few dozen consults a day; a practice links its colleagues once), and well
    /// below what a script does.
    pub fn default_rate(self) -> Rate {
        let (count, seconds) = match self {
            Self::SignIn => (120, 60),
            Self::Feedback => (30, 3600),
            Self::Summary => (120, 3600),
            Self::Upload => (60, 3600),
            Self::Handoff => (120, 60),
            Self::PaymentWebhook => (600, 60),
            Self::Seats => (60, 3600),
            Self::SeatInvitations => (20, 3600),
        };
        Rate { count, period: Duration::from_secs(seconds) }
    }
}

/// At most `count` requests per `period`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    pub count: u32,
    pub period: Duration,
}

impl Rate {
    /// `<count>/<period>` (`30/1h`, `5/10s`).
    pub fn parse(text: &str) -> Result<Self, String> {
        let (count, period) = text.split_once('/').ok_or_else(|| format!("expected <count>/<period> or off, got {text:?}"))?;
        let count: u32 =
            count.trim().parse().ok().filter(|c| *c > 0).ok_or_else(|| format!("{text:?}: the count must be a positive number"))?;
        let period = domain::env::parse_duration(period.trim())
            .filter(|p| p.as_millis() >= 1)
            .ok_or_else(|| format!("{text:?}: the period must be a duration such as 10s, 1m or 1h"))?;
        Ok(Self { count, period })
    }
}

/// The limits in force; `None`: off.
#[derive(Debug, Clone)]
pub struct RateLimits(Vec<(LimitName, Option<Rate>)>);

impl RateLimits {
    /// `APP_RATE_LIMITS=off` switches every limit off (a load test, the API fuzz run); otherwise
    /// each is its own `APP_RATE_LIMIT_<NAME>` or its default.
    pub fn from_env(env: &Env) -> Result<Self, EnvError> {
        if env.get("APP_RATE_LIMITS").is_some_and(|v| v.trim().eq_ignore_ascii_case("off")) {
            return Ok(Self(LimitName::ALL.iter().map(|&name| (name, None)).collect()));
        }
        let mut limits = Vec::new();
        for name in LimitName::ALL {
            let var = format!("APP_RATE_LIMIT_{}", name.as_str().to_ascii_uppercase());
            let rate = match env.get(&var) {
                None => Some(name.default_rate()),
                Some(v) if v.trim().eq_ignore_ascii_case("off") => None,
                Some(v) => Some(Rate::parse(&v).map_err(|e| EnvError::new(&var, e))?),
            };
            limits.push((name, rate));
        }
        Ok(Self(limits))
    }

    pub fn get(&self, name: LimitName) -> Option<Rate> {
        self.0.iter().find(|(n, _)| *n == name).and_then(|(_, r)| *r)
    }
}

/// The limit that guards a call, if any.
pub fn limit_for(method: &Method, path: &str) -> Option<LimitName> {
    const SUMMARIES: [&str; 5] = [
        "/api/audio/consult/generative/v1",
        "/api/audio/consult/generative/v1/withExamples",
        "/api/audio/consult/generative/v2",
        "/api/audio/consult/generative/v2-turbo",
        "/api/electronic/consult/generative",
    ];
    let path = path.trim_end_matches('/');
    if method == Method::POST {
        if path == "/oidc/token" || path == "/oidc/auth" {
            return Some(LimitName::SignIn);
        }
        if path == "/api/feedback" {
            return Some(LimitName::Feedback);
        }
        if SUMMARIES.contains(&path) {
            return Some(LimitName::Summary);
        }
        if is_recording_upload(method, path) {
            return Some(LimitName::Upload);
        }
    }
    if method == Method::GET
        && let Some(id) = path.strip_prefix("/api/integration/record-system/consult/").and_then(|r| r.strip_suffix("/redirect"))
        && !id.contains('/')
    {
        return Some(LimitName::Handoff);
    }
    None
}

/// A limit a call's handler counts itself through [`check`] (the middleware leaves the call
/// alone): the payment webhook, for deliveries naming no payment of ours.
pub fn counted_by_handler(method: &Method, path: &str) -> Option<LimitName> {
    (method == Method::POST && path.trim_end_matches('/') == "/payment/webhook").then_some(LimitName::PaymentWebhook)
}

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

/// Applies the limit of the call, if it has one.
pub async fn limit(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let Some(name) = limit_for(request.method(), request.uri().path()) else {
        return next.run(request).await;
    };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_parse_and_off_turns_a_limit_off() {
        assert_eq!(Rate::parse("30/1h").unwrap(), Rate { count: 30, period: Duration::from_secs(3600) });
        assert_eq!(Rate::parse(" 5 / 10s ").unwrap(), Rate { count: 5, period: Duration::from_secs(10) });
        for bad in ["30", "0/1m", "x/1m", "5/soon", "5/0s"] {
            assert!(Rate::parse(bad).is_err(), "{bad}");
        }
        let env = Env::from_pairs([("APP_RATE_LIMIT_FEEDBACK", "off"), ("APP_RATE_LIMIT_SUMMARY", "3/1m")]);
        let limits = RateLimits::from_env(&env).unwrap();
        assert_eq!(limits.get(LimitName::Feedback), None);
        assert_eq!(limits.get(LimitName::Summary), Some(Rate { count: 3, period: Duration::from_secs(60) }));
        assert_eq!(limits.get(LimitName::Handoff), Some(LimitName::Handoff.default_rate()));
        let err = RateLimits::from_env(&Env::from_pairs([("APP_RATE_LIMIT_UPLOAD", "many")])).unwrap_err();
        assert!(err.to_string().contains("APP_RATE_LIMIT_UPLOAD"), "{err}");
        let all_off = RateLimits::from_env(&Env::from_pairs([("APP_RATE_LIMITS", "off"), ("APP_RATE_LIMIT_SUMMARY", "3/1m")])).unwrap();
        for name in LimitName::ALL {
            assert_eq!(all_off.get(name), None, "{name:?}");
        }
    }

    #[test]
    fn each_guarded_call_has_its_limit() {
        let post = |p: &str| limit_for(&Method::POST, p);
        assert_eq!(post("/oidc/token"), Some(LimitName::SignIn));
        assert_eq!(post("/oidc/auth"), Some(LimitName::SignIn));
        assert_eq!(limit_for(&Method::GET, "/oidc/auth"), None);
        assert_eq!(post("/api/feedback"), Some(LimitName::Feedback));
        assert_eq!(post("/api/feedback/soapexample"), None);
        assert_eq!(post("/api/audio/consult/generative/v2-turbo"), Some(LimitName::Summary));
        assert_eq!(post("/api/electronic/consult/generative"), Some(LimitName::Summary));
        assert_eq!(post("/api/consult/audio/session/01J/recording"), Some(LimitName::Upload));
        assert_eq!(limit_for(&Method::GET, "/api/integration/record-system/consult/01J/redirect"), Some(LimitName::Handoff));
        assert_eq!(limit_for(&Method::GET, "/api/integration/record-system/consult/01J/episodes"), None);
    }
}
