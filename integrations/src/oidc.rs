//! Fetching an OpenID Connect issuer's signing keys (JWKS).
//!
//! The keys' address comes from configuration or from the issuer's discovery document
//! (`{issuer}/.well-known/openid-configuration`), looked up on first use so the api can start
//! before the identity provider does.

use std::time::Duration;

use jsonwebtoken::jwk::JwkSet;
use serde::Deserialize;
use tokio::sync::OnceCell;
use url::Url;

#[derive(Debug, thiserror::Error)]
pub enum JwksError {
    #[error("cannot reach the identity provider at {url}: {source}")]
    Http { url: String, source: reqwest::Error },
    #[error("the identity provider at {url} answered {status}")]
    Status { url: String, status: u16 },
    #[error("the identity provider at {url} sent a document that cannot be read: {message}")]
    Body { url: String, message: String },
}

#[derive(Deserialize)]
struct Discovery {
    jwks_uri: Url,
}

/// Fetches the key set of one issuer.
#[derive(Debug)]
pub struct JwksClient {
    http: reqwest::Client,
    issuer: Url,
    jwks_url: OnceCell<Url>,
}

impl JwksClient {
    pub fn new(issuer: Url, jwks_url: Option<Url>) -> Self {
        let http = reqwest::Client::builder().timeout(Duration::from_secs(5)).user_agent("spreekkamer-api").build().unwrap_or_default();
        let cell = OnceCell::new_with(jwks_url);
        Self { http, issuer, jwks_url: cell }
    }

    async fn get_json<T: for<'de> Deserialize<'de>>(&self, url: &Url) -> Result<T, JwksError> {
        let shown = url.to_string();
        let response = self.http.get(url.clone()).send().await.map_err(|source| JwksError::Http { url: shown.clone(), source })?;
        if !response.status().is_success() {
            return Err(JwksError::Status { url: shown, status: response.status().as_u16() });
        }
        let bytes = response.bytes().await.map_err(|source| JwksError::Http { url: shown.clone(), source })?;
        serde_json::from_slice(&bytes).map_err(|e| JwksError::Body { url: shown, message: e.to_string() })
    }

    async fn jwks_url(&self) -> Result<&Url, JwksError> {
        self.jwks_url
            .get_or_try_init(|| async {
                let base = self.issuer.as_str().trim_end_matches('/');
                let discovery_url = Url::parse(&format!("{base}/.well-known/openid-configuration"))
                    .map_err(|e| JwksError::Body { url: base.to_owned(), message: e.to_string() })?;
                let discovery: Discovery = self.get_json(&discovery_url).await?;
                Ok(discovery.jwks_uri)
            })
            .await
    }

    /// The issuer's current key set.
    pub async fn fetch(&self) -> Result<JwkSet, JwksError> {
        let url = self.jwks_url().await?.clone();
        self.get_json(&url).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::{Json, Router, routing::get};
    use serde_json::json;

    /// Serves the router built for the listener's own address; returns the issuer URL.
    async fn serve_issuer(build: impl FnOnce(Url) -> Router) -> Url {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let issuer = Url::parse(&format!("http://{addr}/realms/test")).unwrap();
        let router = build(issuer.clone());
        tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
        issuer
    }

    async fn serve(router: Router) -> Url {
        serve_issuer(|_| router).await
    }

    fn jwks() -> serde_json::Value {
        json!({"keys": [{"kty": "RSA", "kid": "k1", "use": "sig", "alg": "RS256", "n": "sXch", "e": "AQAB"}]})
    }

    #[tokio::test]
    async fn keys_are_found_through_the_discovery_document() {
        let issuer = serve_issuer(|issuer| {
            let jwks_uri = format!("{}/protocol/openid-connect/certs", issuer.as_str());
            Router::new()
                .route(
                    "/realms/test/.well-known/openid-configuration",
                    get(move || async move { Json(json!({ "issuer": "x", "jwks_uri": jwks_uri })) }),
                )
                .route("/realms/test/protocol/openid-connect/certs", get(|| async { Json(jwks()) }))
        })
        .await;
        let client = JwksClient::new(issuer, None);
        let set = client.fetch().await.unwrap();
        assert!(set.find("k1").is_some());
    }

    #[tokio::test]
    async fn a_configured_key_address_skips_discovery() {
        let router = Router::new().route("/certs", get(|| async { Json(jwks()) }));
        let issuer = serve(router).await;
        let jwks_url = issuer.join("/certs").unwrap();
        let client = JwksClient::new(Url::parse("http://127.0.0.1:9/unused").unwrap(), Some(jwks_url));
        assert!(client.fetch().await.unwrap().find("k1").is_some());
    }

    #[tokio::test]
    async fn an_error_status_is_reported_with_the_address() {
        let issuer = serve(Router::new()).await;
        let client = JwksClient::new(issuer, None);
        let err = client.fetch().await.unwrap_err();
        assert!(matches!(err, JwksError::Status { status: 404, .. }), "{err}");
    }
}
