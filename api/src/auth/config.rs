//! What the api needs to know of the identity provider (`APP_AUTH_*`).

use url::Url;

#[derive(Debug, Clone)]
pub struct AuthConfig {
    /// The exact `iss` of access tokens.
    pub issuer: Url,
    /// Where the keys are fetched; from the issuer's discovery document when unset.
    pub jwks_url: Option<Url>,
    pub audience: String,
    /// The SPA's public client id.
    pub client_id: String,
    pub leeway_seconds: u64,
    pub staff_role: String,
}
