//! Keycloak's admin REST API, for the one thing the api writes there: a user attribute.
//!
//! The client signs in as a confidential service-account client (client-credentials grant at
//! `{base}/realms/{realm}/protocol/openid-connect/token`) and keeps the token until shortly before
//! it expires. Keycloak has no PATCH for users and its PUT replaces the representation (attributes
//! left out are deleted, and with the user profile on so are `firstName`, `lastName` and
//! `email`), so setting an attribute reads the full user, changes that one attribute and writes
//! the whole representation back.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::Value;
use tokio::sync::Mutex;
use url::Url;

/// How long before its expiry a cached token is replaced.
const TOKEN_MARGIN: Duration = Duration::from_secs(30);

/// Where and as whom the api talks to Keycloak's admin API.
#[derive(Clone)]
pub struct KeycloakAdminConfig {
    /// Keycloak's base URL, e.g. `http://keycloak:8080` (no `/realms/...`).
    pub base_url: Url,
    pub realm: String,
    pub client_id: String,
    pub client_secret: String,
}

impl fmt::Debug for KeycloakAdminConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeycloakAdminConfig")
            .field("base_url", &self.base_url.as_str())
            .field("realm", &self.realm)
            .field("client_id", &self.client_id)
            .field("client_secret", &"***")
            .finish()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum KeycloakError {
    #[error("keycloak unreachable during {step}: {source}")]
    Http {
        step: &'static str,
        #[source]
        source: reqwest::Error,
    },
    #[error("keycloak answered {status} to {step}")]
    Status { step: &'static str, status: reqwest::StatusCode },
    #[error("keycloak's answer to {step} is not what its API describes: {message}")]
    Invalid { step: &'static str, message: String },
}

struct CachedToken {
    value: String,
    renew_at: Instant,
}

/// The admin client; clones share the cached token.
#[derive(Clone)]
pub struct KeycloakAdmin {
    config: KeycloakAdminConfig,
    http: reqwest::Client,
    token: Arc<Mutex<Option<CachedToken>>>,
}

impl fmt::Debug for KeycloakAdmin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeycloakAdmin").field("config", &self.config).finish_non_exhaustive()
    }
}

#[derive(Deserialize)]
struct TokenResponse {
    access_token: String,
    #[serde(default)]
    expires_in: Option<u64>,
}

impl KeycloakAdmin {
    pub fn new(config: KeycloakAdminConfig) -> Self {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .connect_timeout(Duration::from_secs(5))
            .build()
            .expect("an HTTP client with timeouts only");
        Self { config, http, token: Arc::new(Mutex::new(None)) }
    }

    pub fn config(&self) -> &KeycloakAdminConfig {
        &self.config
    }

    /// `{base}/{segments...}`, each segment percent-encoded.
    fn url(&self, segments: &[&str]) -> Url {
        let mut url = self.config.base_url.clone();
        {
            let mut path = url.path_segments_mut().expect("an http(s) base URL");
            path.pop_if_empty();
            path.extend(segments);
        }
        url
    }

    /// A service-account token, from the cache while it has more than a short while left.
    async fn token(&self) -> Result<String, KeycloakError> {
        let mut cached = self.token.lock().await;
        if let Some(token) = cached.as_ref().filter(|t| Instant::now() < t.renew_at) {
            return Ok(token.value.clone());
        }
        let step = "the client-credentials token request";
        let url = self.url(&["realms", &self.config.realm, "protocol", "openid-connect", "token"]);
        let response = self
            .http
            .post(url)
            .form(&[
                ("grant_type", "client_credentials"),
                ("client_id", self.config.client_id.as_str()),
                ("client_secret", self.config.client_secret.as_str()),
            ])
            .send()
            .await
            .map_err(|source| KeycloakError::Http { step, source })?;
        if !response.status().is_success() {
            return Err(KeycloakError::Status { step, status: response.status() });
        }
        let body: TokenResponse = response.json().await.map_err(|e| KeycloakError::Invalid { step, message: e.to_string() })?;
        let lifetime = Duration::from_secs(body.expires_in.unwrap_or(60));
        // renew 30 s before expiry, or halfway through a shorter life
        let margin = TOKEN_MARGIN.min(lifetime / 2);
        *cached = Some(CachedToken { value: body.access_token.clone(), renew_at: Instant::now() + lifetime - margin });
        Ok(body.access_token)
    }

    async fn forget_token(&self) {
        *self.token.lock().await = None;
    }

    /// Sets one attribute of a user to `values`, keeping everything else of the user as it is.
    /// Setting the same values again changes nothing, so a failed call can simply be repeated.
    pub async fn set_user_attribute(&self, user_id: &str, name: &str, values: &[&str]) -> Result<(), KeycloakError> {
        match self.try_set_user_attribute(user_id, name, values).await {
            // the cached token may have been revoked or the realm's keys rotated: once more, fresh
            Err(KeycloakError::Status { status: reqwest::StatusCode::UNAUTHORIZED, .. }) => {
                self.forget_token().await;
                self.try_set_user_attribute(user_id, name, values).await
            }
            other => other,
        }
    }

    async fn try_set_user_attribute(&self, user_id: &str, name: &str, values: &[&str]) -> Result<(), KeycloakError> {
        let token = self.token().await?;
        let url = self.url(&["admin", "realms", &self.config.realm, "users", user_id]);
        let step = "reading the user";
        let response =
            self.http.get(url.clone()).bearer_auth(&token).send().await.map_err(|source| KeycloakError::Http { step, source })?;
        if !response.status().is_success() {
            return Err(KeycloakError::Status { step, status: response.status() });
        }
        let mut user: Value = response.json().await.map_err(|e| KeycloakError::Invalid { step, message: e.to_string() })?;
        let Some(representation) = user.as_object_mut() else {
            return Err(KeycloakError::Invalid { step, message: "the user is not a JSON object".to_owned() });
        };
        let attributes = representation.entry("attributes").or_insert_with(|| Value::Object(Default::default()));
        if attributes.is_null() {
            *attributes = Value::Object(Default::default());
        }
        let Some(attributes) = attributes.as_object_mut() else {
            return Err(KeycloakError::Invalid { step, message: "the user's attributes are not an object".to_owned() });
        };
        attributes.insert(name.to_owned(), Value::from(values.iter().map(|v| Value::from(*v)).collect::<Vec<_>>()));
        let step = "writing the user";
        let response =
            self.http.put(url).bearer_auth(&token).json(&user).send().await.map_err(|source| KeycloakError::Http { step, source })?;
        if !response.status().is_success() {
            return Err(KeycloakError::Status { step, status: response.status() });
        }
        Ok(())
    }
}
