//! The api's edge: what every request passes before a handler, and what every answer carries.
//!
//! - [`guard`]: a NUL in the path, query or a text body is refused with 400; a body that arrives
//!   too slowly with 408;
//! - [`reject`]: every refusal of the framework (wrong content type, unreadable JSON, bad query
//!   or path, too large, method not allowed) becomes the Dutch `{error, message}` JSON;
//! - [`headers`]: the Content-Security-Policy and the other security headers, `no-store` on
//!   the api's answers;
//! - [`limit`]: rate limits per user or per address, counted in Redis ([`rates`]: which there
//!   are and their rates);
//! - [`client`]: the client's address, behind trusted proxies;
//! - [`conn`]: serving connections with header, body and idle timeouts; the answers hyper
//!   writes itself (a request line too long, a head too large or unreadable) in the same JSON.

pub mod client;
pub mod conn;
pub mod guard;
pub mod headers;
pub mod limit;
pub mod nul;
pub mod rates;
pub mod reject;

use std::time::Duration;

use axum::http::StatusCode;
use domain::env::{Env, EnvError};

pub use nul::{contains_nul, json_contains_nul};

use crate::error::ApiError;

/// The connection and request-body bounds (`APP_HTTP_*`) and the trusted proxies.
#[derive(Debug, Clone)]
pub struct HttpConfig {
    /// A request's head must be complete this long after its first byte (`APP_HTTP_HEADER_TIMEOUT`).
    pub header_timeout: Duration,
    /// A connection waiting for its next request is closed after this long (`APP_HTTP_IDLE_TIMEOUT`).
    pub idle_timeout: Duration,
    /// A request's body must have arrived this long after its head (`APP_HTTP_BODY_TIMEOUT`).
    pub body_timeout: Duration,
    /// The same for a recording upload (`APP_HTTP_UPLOAD_BODY_TIMEOUT`).
    pub upload_body_timeout: Duration,
    /// Peers whose `X-Forwarded-For` is believed (`APP_TRUSTED_PROXIES`).
    pub trusted_proxies: client::TrustedProxies,
}

impl HttpConfig {
    pub fn from_env(env: &Env) -> Result<Self, EnvError> {
        let positive = |name: &str, default: Duration| -> Result<Duration, EnvError> {
            let value = env.duration(name, default)?;
            if value.is_zero() {
                return Err(EnvError::new(name, "must be longer than zero"));
            }
            Ok(value)
        };
        Ok(Self {
            header_timeout: positive("APP_HTTP_HEADER_TIMEOUT", Duration::from_secs(10))?,
            idle_timeout: positive("APP_HTTP_IDLE_TIMEOUT", Duration::from_secs(75))?,
            body_timeout: positive("APP_HTTP_BODY_TIMEOUT", Duration::from_secs(60))?,
            upload_body_timeout: positive("APP_HTTP_UPLOAD_BODY_TIMEOUT", Duration::from_secs(15 * 60))?,
            trusted_proxies: client::TrustedProxies::parse(&env.list("APP_TRUSTED_PROXIES"))
                .map_err(|e| EnvError::new("APP_TRUSTED_PROXIES", e))?,
        })
    }
}

/// The edge's own refusals, each with its status, code and Dutch message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    Nul,
    BodyTimeout,
    TooLarge,
    /// No or another content type than the call takes.
    MediaType,
    /// The body is not JSON at all.
    JsonSyntax,
    /// The body could not be read (the connection broke).
    BodyUnreadable,
    MethodNotAllowed,
    /// A request line over hyper's bound (64 KiB): hyper's own 414.
    UriTooLong,
    /// A request head over hyper's buffer: hyper's own 431.
    HeadersTooLarge,
    /// A request head hyper could not parse: hyper's own 400.
    Malformed,
}

pub const NUL_MESSAGE: &str = "De aanvraag bevat een ongeldig teken (NUL).";

/// The error for one of the edge's refusals.
pub fn refusal(kind: Refusal) -> ApiError {
    let (status, code, message) = match kind {
        Refusal::Nul => (StatusCode::BAD_REQUEST, "invalid_character", NUL_MESSAGE),
        Refusal::BodyTimeout => {
            (StatusCode::REQUEST_TIMEOUT, "request_timeout", "De aanvraag kwam te langzaam binnen. Probeer het opnieuw.")
        }
        Refusal::TooLarge => (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large", "De aanvraag is te groot."),
        Refusal::MediaType => (
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "De aanvraag heeft een verkeerd type; stuur JSON met Content-Type: application/json.",
        ),
        Refusal::JsonSyntax => (StatusCode::BAD_REQUEST, "invalid_json", "De aanvraag is geen geldige JSON."),
        Refusal::BodyUnreadable => (StatusCode::BAD_REQUEST, "invalid_body", "De aanvraag kon niet worden gelezen."),
        Refusal::MethodNotAllowed => {
            (StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed", "Deze methode is op dit adres niet toegestaan.")
        }
        Refusal::UriTooLong => (StatusCode::URI_TOO_LONG, "uri_too_long", "Het adres van de aanvraag is te lang."),
        Refusal::HeadersTooLarge => {
            (StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE, "headers_too_large", "De kopregels van de aanvraag zijn te groot.")
        }
        Refusal::Malformed => (StatusCode::BAD_REQUEST, "bad_request", "De aanvraag is ongeldig."),
    };
    ApiError::Refused { status, code, message: message.to_owned() }
}
