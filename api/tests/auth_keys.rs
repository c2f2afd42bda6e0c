//! Keys from a real issuer's JWKS over HTTP: fetched on first use, refetched on an unknown `kid`
//! (key rotation), but never more often than the configured interval.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use api::auth::AuthConfig;
use api::auth::{Authenticator, KeySource, Rejection};
use axum::routing::get;
use axum::{Json, Router};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use rsa::pkcs1::{EncodeRsaPrivateKey, LineEnding};
use rsa::traits::PublicKeyParts;
use serde_json::{Value, json};
use url::Url;

struct Key {
    kid: &'static str,
    encoding: EncodingKey,
    jwk: Value,
}

fn key(kid: &'static str) -> Key {
    let private = rsa::RsaPrivateKey::new(&mut rand::thread_rng(), 2048).unwrap();
    let pem = private.to_pkcs1_pem(LineEnding::LF).unwrap();
    let jwk = json!({
        "kty": "RSA", "use": "sig", "alg": "RS256", "kid": kid,
        "n": URL_SAFE_NO_PAD.encode(private.n().to_bytes_be()),
        "e": URL_SAFE_NO_PAD.encode(private.e().to_bytes_be()),
    });
    Key { kid, encoding: EncodingKey::from_rsa_pem(pem.as_bytes()).unwrap(), jwk }
}

fn token(key: &Key, issuer: &str) -> String {
    let now = chrono::Utc::now().timestamp();
    let claims = json!({"iss": issuer, "aud": "spreekkamer-api", "typ": "Bearer", "sub": "u1", "exp": now + 60, "iat": now});
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some(key.kid.to_owned());
    jsonwebtoken::encode(&header, &claims, &key.encoding).unwrap()
}

#[tokio::test]
async fn an_unknown_kid_refetches_the_keys_at_most_once_per_interval() {
    let old = key("old");
    let rotated = key("rotated");
    let served = Arc::new(std::sync::Mutex::new(vec![old.jwk.clone()]));
    let fetches = Arc::new(AtomicUsize::new(0));

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let issuer = format!("http://{}/realms/spreekkamer", listener.local_addr().unwrap());
    let (keys, count, base) = (served.clone(), fetches.clone(), issuer.clone());
    let router = Router::new()
        .route(
            "/realms/spreekkamer/.well-known/openid-configuration",
            get(move || {
                let jwks_uri = format!("{base}/protocol/openid-connect/certs");
                async move { Json(json!({"issuer": "unused", "jwks_uri": jwks_uri})) }
            }),
        )
        .route(
            "/realms/spreekkamer/protocol/openid-connect/certs",
            get(move || {
                count.fetch_add(1, Ordering::SeqCst);
                let keys = keys.lock().unwrap().clone();
                async move { Json(json!({ "keys": keys })) }
            }),
        );
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });

    let config = AuthConfig {
        issuer: Url::parse(&issuer).unwrap(),
        jwks_url: None,
        audience: "spreekkamer-api".to_owned(),
        client_id: "spreekkamer-web".to_owned(),
        leeway_seconds: 0,
        staff_role: "spreekkamer-employees".to_owned(),
    };
    let client = integrations::oidc::JwksClient::new(config.issuer.clone(), None);
    let interval = Duration::from_millis(400);
    let auth = Authenticator::with_refetch_interval(&config, KeySource::Remote(Box::new(client)), interval);

    assert!(auth.validate(&token(&old, &issuer)).await.is_ok());
    assert!(auth.validate(&token(&old, &issuer)).await.is_ok());
    assert_eq!(fetches.load(Ordering::SeqCst), 1, "known keys are cached");

    // The issuer rotates its key; the first token with the new kid arrives at once.
    served.lock().unwrap().push(rotated.jwk.clone());
    assert_eq!(auth.validate(&token(&rotated, &issuer)).await.unwrap_err(), Rejection::UnknownKey);
    for _ in 0..20 {
        let _ = auth.validate(&token(&key_with_made_up_kid(&old), &issuer)).await;
    }
    assert_eq!(fetches.load(Ordering::SeqCst), 1, "made-up kids do not hammer the identity provider");

    tokio::time::sleep(interval + Duration::from_millis(100)).await;
    assert!(auth.validate(&token(&rotated, &issuer)).await.is_ok(), "after the interval the rotated key is fetched");
    assert_eq!(fetches.load(Ordering::SeqCst), 2);
}

fn key_with_made_up_kid(base: &Key) -> Key {
    Key { kid: "made-up", encoding: base.encoding.clone(), jwk: Value::Null }
}
