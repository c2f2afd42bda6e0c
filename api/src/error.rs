//! The api's one error type, mapped to a response in one place.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

use domain::refusal::Refusal;

/// The body of every error response: a stable machine code and a Dutch message.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// Stable machine-readable code, e.g. `unauthorized`.
    pub error: &'static str,
    /// A Dutch message that can be shown to the user.
    pub message: String,
}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A refused token; the cause (`auth::Rejection`) is for the log and the metric only.
    #[error("unauthorized ({0})")]
    Unauthorized(&'static str),
    #[error("forbidden")]
    Forbidden,
    #[error("not found")]
    NotFound,
    /// 404 with a message of its own, e.g. 'Template niet gevonden'.
    #[error("not found: {0}")]
    Missing(&'static str),
    /// 403 with a message of its own, e.g. 'Geen toegang tot template'.
    #[error("forbidden: {0}")]
    Denied(&'static str),
    /// 403 `agreement_required`: the user has not accepted the user agreement in force.
    #[error("agreement not accepted")]
    AgreementRequired,
    /// 402 `subscription_required`: a consult, summary, upload or template call by a user without
    /// an active personal or organisation subscription.
    #[error("no active subscription")]
    SubscriptionRequired,
    /// 413 with a code and message of its own: the body is larger than the call takes.
    #[error("too large: {message}")]
    TooLarge { code: &'static str, message: String },
    #[error("{message}")]
    BadRequest { code: &'static str, message: String },
    /// 409 with a code and message of its own: the request cannot be served in this setup.
    #[error("conflict: {message}")]
    Conflict { code: &'static str, message: &'static str },
    /// A request the edge refuses before any handler reads it (a NUL byte, a wrong content type,
    /// a body too large or too slow, an unreadable body, query or path, a method the address does
    /// not take): its own status, code and Dutch message.
    #[error("refused ({status}): {message}")]
    Refused { status: StatusCode, code: &'static str, message: String },
    /// 429: a rate limit was reached; the client may try again after this many seconds.
    #[error("rate limited ({limit})")]
    TooManyRequests { limit: &'static str, retry_after: u64 },
    /// 503: every database connection stayed busy past the pool's wait (a burst larger than the
    /// pool); the client may try again after a moment. Mollie retries its webhook on it.
    #[error("overloaded")]
    Overloaded,
    /// 502: a service we rely on gave no usable answer; `code` says which, for the caller
    /// ([`ApiError::summary_failed`], [`ApiError::payment_failed`], ...), the message is Dutch.
    #[error("upstream {code}: {message}")]
    Upstream { code: &'static str, message: String },
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

/// Payment news that could not be queued: the database stayed busy (503, the provider delivers it
/// again) or failed.
impl From<jobs::kinds::sync_payment::NewsError> for ApiError {
    fn from(e: jobs::kinds::sync_payment::NewsError) -> Self {
        match e {
            jobs::kinds::sync_payment::NewsError::Busy => Self::Overloaded,
            jobs::kinds::sync_payment::NewsError::Failed(message) => Self::Internal(anyhow::anyhow!(message)),
        }
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        match e {
            sqlx::Error::PoolTimedOut => Self::Overloaded,
            e => Self::Internal(e.into()),
        }
    }
}

/// The machine codes a domain refusal answers with: the practitioner's subscription calls keep
/// codes of their own (`invalid_subscription`, `subscription_conflict`), the staff's pages the
/// plain ones.
#[derive(Debug, Clone, Copy)]
pub struct RefusalCodes {
    pub invalid: &'static str,
    pub conflict: &'static str,
}

/// The codes of the staff's pages and every other caller.
pub const PLAIN: RefusalCodes = RefusalCodes { invalid: "invalid", conflict: "conflict" };
/// The codes of the practitioner's subscription calls (`/payment/...`).
pub const SUBSCRIPTION: RefusalCodes = RefusalCodes { invalid: "invalid_subscription", conflict: "subscription_conflict" };

impl ApiError {
    /// A domain refusal as an answer: 400, 404 or 409 with its Dutch message and `codes`.
    pub fn refused(e: Refusal, codes: RefusalCodes) -> Self {
        match e {
            Refusal::Invalid(message) => ApiError::BadRequest { code: codes.invalid, message: message.to_owned() },
            Refusal::NotFound(message) => ApiError::Missing(message),
            Refusal::Conflict(message) => ApiError::Conflict { code: codes.conflict, message },
            Refusal::ConflictWith(message) => ApiError::Refused { status: StatusCode::CONFLICT, code: codes.conflict, message },
            Refusal::Db(e) => e.into(),
        }
    }

    /// A refusal of a practitioner's subscription call, with its own codes.
    pub fn subscription(e: Refusal) -> Self {
        Self::refused(e, SUBSCRIPTION)
    }

    /// 502 `summary_failed`: the summary job failed (its Dutch reason).
    pub fn summary_failed(message: String) -> Self {
        Self::Upstream { code: "summary_failed", message }
    }

    /// 502 `payment_failed`: the payment provider did not make the payment.
    pub fn payment_failed(message: &str) -> Self {
        Self::Upstream { code: "payment_failed", message: message.to_owned() }
    }

    /// 502 `bookkeeping_unavailable`: the bookkeeping could not be reached.
    pub fn bookkeeping_unavailable(message: &str) -> Self {
        Self::Upstream { code: "bookkeeping_unavailable", message: message.to_owned() }
    }

    /// 502 `speech_unavailable`: the speech engine could not take a recording.
    pub fn speech_unavailable(message: &str) -> Self {
        Self::Upstream { code: "speech_unavailable", message: message.to_owned() }
    }
}

impl From<domain::refusal::Invalid> for ApiError {
    fn from(e: domain::refusal::Invalid) -> Self {
        Self::BadRequest { code: e.code, message: e.message }
    }
}

impl From<Refusal> for ApiError {
    fn from(e: Refusal) -> Self {
        Self::refused(e, PLAIN)
    }
}

/// Seconds a client is asked to wait after a 503.
pub const OVERLOADED_RETRY_AFTER: u64 = 2;

/// Whether an error, however wrapped, is a wait for a database connection that timed out.
fn is_pool_timeout(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| matches!(cause.downcast_ref::<sqlx::Error>(), Some(sqlx::Error::PoolTimedOut)))
}

pub const OVERLOADED_MESSAGE: &str = "Het is op dit moment erg druk. Probeer het over een paar seconden opnieuw.";

/// The Dutch message of a call refused because the user has not accepted the agreement.
pub const AGREEMENT_REQUIRED: &str = "Accepteer eerst de gebruikersovereenkomst.";

pub const UNAUTHORIZED_MESSAGE: &str = "Je bent niet ingelogd of je sessie is verlopen. Log opnieuw in.";

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code, message) = match self {
            Self::Unauthorized(reason) => {
                tracing::debug!(reason, "token refused");
                metrics::counter!("auth_rejections_total", "reason" => reason).increment(1);
                let body = ErrorBody { error: "unauthorized", message: UNAUTHORIZED_MESSAGE.to_owned() };
                let mut response = (StatusCode::UNAUTHORIZED, Json(body)).into_response();
                response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
                return response;
            }
            Self::TooManyRequests { limit, retry_after } => {
                tracing::info!(limit, retry_after, "rate limit reached");
                metrics::counter!("http_rate_limited_total", "limit" => limit).increment(1);
                let body = ErrorBody { error: "too_many_requests", message: too_many_requests_message(retry_after) };
                let mut response = (StatusCode::TOO_MANY_REQUESTS, Json(body)).into_response();
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(retry_after));
                return response;
            }
            Self::Internal(error) if is_pool_timeout(&error) => return Self::Overloaded.into_response(),
            Self::Overloaded => {
                tracing::warn!("no database connection within the pool's wait; answered 503");
                metrics::counter!("http_overloaded_total").increment(1);
                let body = ErrorBody { error: "unavailable", message: OVERLOADED_MESSAGE.to_owned() };
                let mut response = (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response();
                response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(OVERLOADED_RETRY_AFTER));
                return response;
            }
            Self::Refused { status, code, message } => (status, code, message),
            Self::Forbidden => (StatusCode::FORBIDDEN, "forbidden", "Je hebt geen toegang tot deze gegevens.".to_owned()),
            Self::NotFound => (StatusCode::NOT_FOUND, "not_found", "Niet gevonden.".to_owned()),
            Self::Missing(message) => (StatusCode::NOT_FOUND, "not_found", message.to_owned()),
            Self::Denied(message) => (StatusCode::FORBIDDEN, "forbidden", message.to_owned()),
            Self::AgreementRequired => (StatusCode::FORBIDDEN, "agreement_required", AGREEMENT_REQUIRED.to_owned()),
            Self::SubscriptionRequired => {
                (StatusCode::PAYMENT_REQUIRED, "subscription_required", domain::billing::SUBSCRIPTION_REQUIRED.to_owned())
            }
            Self::TooLarge { code, message } => (StatusCode::PAYLOAD_TOO_LARGE, code, message),
            Self::BadRequest { code, message } => (StatusCode::BAD_REQUEST, code, message),
            Self::Conflict { code, message } => (StatusCode::CONFLICT, code, message.to_owned()),
            Self::Upstream { code, message } => (StatusCode::BAD_GATEWAY, code, message),
            Self::Internal(error) => {
                tracing::error!(error = %format!("{error:#}"), "request failed");
                (StatusCode::INTERNAL_SERVER_ERROR, "internal", "Er ging iets mis aan onze kant. Probeer het later opnieuw.".to_owned())
            }
        };
        (status, Json(ErrorBody { error: code, message })).into_response()
    }
}

/// 'Te veel verzoeken. Probeer het over N seconden opnieuw.' (one second: 'seconde').
pub fn too_many_requests_message(retry_after: u64) -> String {
    let unit = if retry_after == 1 { "seconde" } else { "seconden" };
    format!("Te veel verzoeken. Probeer het over {retry_after} {unit} opnieuw.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pool_that_stays_busy_answers_503_with_retry_after_however_the_error_is_wrapped() {
        let direct = ApiError::from(sqlx::Error::PoolTimedOut).into_response();
        let wrapped = ApiError::Internal(anyhow::Error::from(sqlx::Error::PoolTimedOut).context("reading payments")).into_response();
        for response in [direct, wrapped] {
            assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
            assert_eq!(response.headers()[header::RETRY_AFTER], "2");
        }
        // any other database error stays a 500
        let other = ApiError::from(sqlx::Error::RowNotFound).into_response();
        assert_eq!(other.status(), StatusCode::INTERNAL_SERVER_ERROR);
    }
}
