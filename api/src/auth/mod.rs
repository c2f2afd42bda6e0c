//! Bearer-token authentication: the api validates the identity provider's JWTs itself.
//!
//! RS256 is pinned (never taken from the token header); `iss`, `aud`, `exp` and `sub` are
//! required; only access tokens (`typ: Bearer`, as Keycloak writes them) are accepted. Every
//! failure gets the same 401 body; the cause goes to the log at debug level and to a metric.

pub mod bearer;
pub mod config;
pub mod gate;
pub mod keys;
mod staff;
mod user;

use std::time::Duration;

use jsonwebtoken::{Algorithm, Validation};
use serde::Deserialize;

pub use keys::{KeySource, KeyStore};
pub use staff::{Staff, UserOrStaff};
pub use user::{CurrentUser, SignedIn, UserRegistry};

pub use self::bearer::bearer_token;
pub use self::config::AuthConfig;
pub use crate::error::AGREEMENT_REQUIRED;
use crate::error::ApiError;

/// Why a token was refused (for logs and metrics only, never for the client).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rejection {
    Missing,
    Malformed,
    Algorithm,
    UnknownKey,
    Invalid,
    NotAccessToken,
}

impl Rejection {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Missing => "missing",
            Self::Malformed => "malformed",
            Self::Algorithm => "algorithm",
            Self::UnknownKey => "unknown_kid",
            Self::Invalid => "invalid",
            Self::NotAccessToken => "not_access_token",
        }
    }
}

/// A refused token is a 401; the cause goes to the log and the metric only.
impl From<Rejection> for ApiError {
    fn from(rejection: Rejection) -> Self {
        ApiError::Unauthorized(rejection.as_str())
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct RealmAccess {
    #[serde(default)]
    pub roles: Vec<String>,
}

/// The claims the product uses.
#[derive(Debug, Clone, Deserialize)]
pub struct AccessClaims {
    pub sub: String,
    #[serde(default)]
    pub typ: Option<String>,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub preferred_username: Option<String>,
    #[serde(default)]
    pub realm_access: Option<RealmAccess>,
    #[serde(default, rename = "accepted-agreement")]
    pub accepted_agreement: Option<serde_json::Value>,
}

impl AccessClaims {
    pub fn roles(&self) -> &[String] {
        self.realm_access.as_ref().map(|r| r.roles.as_slice()).unwrap_or_default()
    }

    /// `accepted-agreement` as the dev issuer (`true`) or a Keycloak attribute mapper
    /// (`true`, `"true"`, a timestamp) writes it.
    pub fn has_accepted_agreement(&self) -> bool {
        match &self.accepted_agreement {
            Some(serde_json::Value::Bool(b)) => *b,
            Some(serde_json::Value::String(s)) => !s.is_empty() && !s.eq_ignore_ascii_case("false"),
            Some(serde_json::Value::Number(_)) => true,
            _ => false,
        }
    }
}

pub struct Authenticator {
    keys: KeyStore,
    validation: Validation,
}

impl Authenticator {
    pub fn new(config: &AuthConfig, source: KeySource) -> Self {
        Self::with_refetch_interval(config, source, Duration::from_secs(10))
    }

    /// As [`Authenticator::new`], with the shortest time between two key-set fetches.
    pub fn with_refetch_interval(config: &AuthConfig, source: KeySource, interval: Duration) -> Self {
        let mut validation = Validation::new(Algorithm::RS256);
        validation.set_issuer(&[config.issuer.as_str().trim_end_matches('/')]);
        validation.set_audience(&[config.audience.as_str()]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.validate_nbf = true;
        validation.leeway = config.leeway_seconds;
        Self { keys: KeyStore::new(source, interval), validation }
    }

    /// Validates an access token and returns its claims.
    pub async fn validate(&self, token: &str) -> Result<AccessClaims, Rejection> {
        let header = jsonwebtoken::decode_header(token).map_err(|_| Rejection::Malformed)?;
        if header.alg != Algorithm::RS256 {
            return Err(Rejection::Algorithm);
        }
        let kid = header.kid.ok_or(Rejection::UnknownKey)?;
        let key = self.keys.get(&kid).await.ok_or(Rejection::UnknownKey)?;
        let data = jsonwebtoken::decode::<AccessClaims>(token, &key, &self.validation).map_err(|_| Rejection::Invalid)?;
        let claims = data.claims;
        if !claims.typ.as_deref().is_some_and(|t| t.eq_ignore_ascii_case("bearer")) {
            return Err(Rejection::NotAccessToken);
        }
        if claims.sub.trim().is_empty() {
            return Err(Rejection::Invalid);
        }
        Ok(claims)
    }
}
