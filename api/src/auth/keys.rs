//! The issuer's signing keys, cached by `kid` and refetched (rate-limited) on an unknown one.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use jsonwebtoken::DecodingKey;
use jsonwebtoken::jwk::{AlgorithmParameters, Jwk, JwkSet, KeyAlgorithm, PublicKeyUse};
use tokio::sync::Mutex;

/// Where keys come from.
pub enum KeySource {
    /// A real issuer's JWKS over HTTP.
    Remote(Box<integrations::oidc::JwksClient>),
    /// Keys held in this process (the development issuer, tests).
    Local(Arc<RwLock<JwkSet>>),
}

impl KeySource {
    async fn fetch(&self) -> anyhow::Result<JwkSet> {
        match self {
            Self::Remote(client) => Ok(client.fetch().await?),
            Self::Local(set) => Ok(set.read().map_err(|_| anyhow::anyhow!("key set lock poisoned"))?.clone()),
        }
    }
}

pub struct KeyStore {
    source: KeySource,
    keys: RwLock<HashMap<String, Arc<DecodingKey>>>,
    last_fetch: Mutex<Option<Instant>>,
    min_interval: Duration,
}

impl KeyStore {
    pub fn new(source: KeySource, min_interval: Duration) -> Self {
        Self { source, keys: RwLock::default(), last_fetch: Mutex::default(), min_interval }
    }

    fn cached(&self, kid: &str) -> Option<Arc<DecodingKey>> {
        self.keys.read().ok()?.get(kid).cloned()
    }

    /// The key with this `kid`, fetching the key set at most once per `min_interval` when it is
    /// not known, so made-up `kid`s cannot make the api hammer the identity provider.
    pub async fn get(&self, kid: &str) -> Option<Arc<DecodingKey>> {
        if let Some(key) = self.cached(kid) {
            return Some(key);
        }
        let mut last = self.last_fetch.lock().await;
        // Another request may have fetched while this one waited.
        if let Some(key) = self.cached(kid) {
            return Some(key);
        }
        if last.is_some_and(|at| at.elapsed() < self.min_interval) {
            metrics::counter!("auth_jwks_fetches_total", "outcome" => "throttled").increment(1);
            return None;
        }
        *last = Some(Instant::now());
        match self.source.fetch().await {
            Ok(set) => {
                let usable: HashMap<_, _> = set.keys.iter().filter_map(usable_key).collect();
                tracing::info!(keys = usable.len(), "fetched the identity provider's signing keys");
                metrics::counter!("auth_jwks_fetches_total", "outcome" => "ok").increment(1);
                if let Ok(mut keys) = self.keys.write() {
                    *keys = usable;
                }
            }
            Err(error) => {
                tracing::warn!(%error, "cannot fetch the identity provider's signing keys");
                metrics::counter!("auth_jwks_fetches_total", "outcome" => "error").increment(1);
            }
        }
        self.cached(kid)
    }
}

/// RSA signing keys with a `kid`; encryption keys and other algorithms are left out.
fn usable_key(jwk: &Jwk) -> Option<(String, Arc<DecodingKey>)> {
    let kid = jwk.common.key_id.clone()?;
    if matches!(jwk.common.public_key_use, Some(ref u) if *u != PublicKeyUse::Signature) {
        return None;
    }
    if matches!(jwk.common.key_algorithm, Some(alg) if alg != KeyAlgorithm::RS256) {
        return None;
    }
    let AlgorithmParameters::RSA(_) = jwk.algorithm else { return None };
    let key = DecodingKey::from_jwk(jwk).ok()?;
    Some((kid, Arc::new(key)))
}
