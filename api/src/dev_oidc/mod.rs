//! The embedded OpenID Connect issuer for development and tests (`APP_ENV=development` only).
//!
//! It speaks the same protocol as Keycloak for a public client: discovery, authorize with
//! authorization code + PKCE (S256), token (code exchange, refresh with rotation, and the
//! password grant for scripts and tests), userinfo, JWKS, end-session and revocation. Its tokens
//! look like Keycloak's (`typ`, `azp`, `realm_access.roles`, `accepted-agreement`). The RS256 key
//! is generated once and kept in the database, so tokens survive a restart.

mod page;
mod routes;
mod seed;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::Utc;
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use rand::RngCore;
use rsa::pkcs1::{DecodeRsaPrivateKey, EncodeRsaPrivateKey, LineEnding};
use rsa::traits::PublicKeyParts;
use serde::Serialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use sqlx::PgPool;
use url::Url;

pub use page::style_source;
pub use routes::router;
pub use seed::{SEED_USERS, SeedUser};

use crate::config::{Config, DevOidcConfig};

pub const ACCESS_TOKEN_SECONDS: i64 = 300;
pub const REFRESH_TOKEN_SECONDS: i64 = 1800;
const CODE_LIFETIME: Duration = Duration::from_secs(60);

/// Who signs in: a seeded user, or anyone else by their e-mail address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DevIdentity {
    pub sub: String,
    pub email: String,
    pub username: String,
    pub roles: Vec<String>,
}

/// An authorization code waiting to be exchanged (once).
struct PendingCode {
    who: DevIdentity,
    redirect_uri: String,
    code_challenge: String,
    nonce: Option<String>,
    scope: String,
    expires: Instant,
}

/// A sign-in session: refreshed tokens keep its id and sign-in time.
#[derive(Debug, Clone)]
pub struct Session {
    pub id: String,
    pub auth_time: i64,
}

impl Session {
    /// A session that starts now.
    pub fn start() -> Self {
        Self { id: uuid::Uuid::new_v4().to_string(), auth_time: Utc::now().timestamp() }
    }
}

#[derive(Debug, Serialize)]
pub struct TokenResponse {
    pub access_token: String,
    pub token_type: &'static str,
    pub expires_in: i64,
    pub refresh_token: String,
    pub refresh_expires_in: i64,
    pub id_token: String,
    pub scope: String,
}

pub struct DevIssuer {
    issuer: String,
    client_id: String,
    audience: String,
    staff_role: String,
    redirect_origins: Vec<Url>,
    kid: String,
    encoding: EncodingKey,
    decoding: jsonwebtoken::DecodingKey,
    jwks: Arc<RwLock<JwkSet>>,
    codes: Mutex<HashMap<String, PendingCode>>,
    db: PgPool,
}

impl DevIssuer {
    /// Loads (or creates once) the signing key and seeds the development users.
    pub async fn start(config: &Config, dev: &DevOidcConfig, db: PgPool) -> anyhow::Result<Self> {
        let (kid, pem) = load_or_create_key(&db).await?;
        let private = rsa::RsaPrivateKey::from_pkcs1_pem(&pem)?;
        let n = URL_SAFE_NO_PAD.encode(private.n().to_bytes_be());
        let e = URL_SAFE_NO_PAD.encode(private.e().to_bytes_be());
        let jwks: JwkSet = serde_json::from_value(json!({
            "keys": [{"kty": "RSA", "use": "sig", "alg": "RS256", "kid": kid, "n": n, "e": e}]
        }))?;
        let decoding = jsonwebtoken::DecodingKey::from_rsa_components(&n, &e)?;
        seed::seed(&db).await?;
        tracing::info!(issuer = %config.issuer_str(), "development sign-in issuer on; never use it in production");
        Ok(Self {
            issuer: config.issuer_str().to_owned(),
            client_id: config.auth.client_id.clone(),
            audience: config.auth.audience.clone(),
            staff_role: config.auth.staff_role.clone(),
            redirect_origins: dev.redirect_origins.clone(),
            kid,
            encoding: EncodingKey::from_rsa_pem(pem.as_bytes())?,
            decoding,
            jwks: Arc::new(RwLock::new(jwks)),
            codes: Mutex::default(),
            db,
        })
    }

    /// The public keys, shared with the api's authenticator.
    pub fn key_set(&self) -> Arc<RwLock<JwkSet>> {
        self.jwks.clone()
    }

    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// A seeded user by e-mail, or a new ordinary user whose id follows from the address.
    pub fn identity(&self, email: &str) -> DevIdentity {
        let email = email.trim().to_lowercase();
        match SEED_USERS.iter().find(|u| u.email == email) {
            Some(seeded) => {
                DevIdentity { sub: seeded.sub.to_owned(), email, username: seeded.username.to_owned(), roles: self.roles(seeded.staff) }
            }
            None => DevIdentity {
                sub: uuid::Uuid::new_v5(&uuid::Uuid::NAMESPACE_URL, format!("mailto:{email}").as_bytes()).to_string(),
                username: email.clone(),
                email,
                roles: self.roles(false),
            },
        }
    }

    fn roles(&self, staff: bool) -> Vec<String> {
        let mut roles = vec!["default-roles-spreekkamer".to_owned(), "offline_access".to_owned()];
        if staff {
            roles.push(self.staff_role.clone());
        }
        roles
    }

    /// Whether a browser may be sent to `uri`: its origin must be one of the configured ones.
    pub fn redirect_allowed(&self, uri: &str) -> bool {
        let Ok(url) = Url::parse(uri) else { return false };
        self.redirect_origins.iter().any(|o| o.origin() == url.origin()) && url.fragment().is_none()
    }

    fn issue_code(&self, code: PendingCode) -> String {
        let value = random_token();
        let mut codes = self.codes.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        codes.retain(|_, c| c.expires > now);
        codes.insert(value.clone(), code);
        value
    }

    /// Takes the code out (a code works once, whatever happens next).
    fn take_code(&self, code: &str) -> Option<PendingCode> {
        let mut codes = self.codes.lock().unwrap_or_else(|p| p.into_inner());
        codes.remove(code).filter(|c| c.expires > Instant::now())
    }

    fn sign(&self, claims: &Value) -> anyhow::Result<String> {
        let mut header = Header::new(Algorithm::RS256);
        header.kid = Some(self.kid.clone());
        header.typ = Some("JWT".to_owned());
        Ok(jsonwebtoken::encode(&header, claims, &self.encoding)?)
    }

    /// Access, ID and refresh token for `who` in `session`; `accepted-agreement` is read from the
    /// database.
    pub async fn issue_tokens(
        &self,
        who: &DevIdentity,
        session: &Session,
        scope: &str,
        nonce: Option<&str>,
    ) -> anyhow::Result<TokenResponse> {
        let accepted = domain::users::has_accepted_agreement(&self.db, &who.sub).await?;
        let now = Utc::now().timestamp();
        let sid = &session.id;
        let mut profile = json!({
            "sub": who.sub,
            "email": who.email,
            "email_verified": true,
            "preferred_username": who.username,
            "realm_access": {"roles": who.roles},
        });
        if accepted {
            profile["accepted-agreement"] = Value::Bool(true);
        }
        let mut access = json!({
            "iss": self.issuer, "aud": [self.audience], "azp": self.client_id, "typ": "Bearer",
            "exp": now + ACCESS_TOKEN_SECONDS, "iat": now, "jti": uuid::Uuid::new_v4().to_string(),
            "sid": sid, "scope": scope,
        });
        merge(&mut access, &profile);
        let mut id = json!({
            "iss": self.issuer, "aud": self.client_id, "azp": self.client_id, "typ": "ID",
            "exp": now + ACCESS_TOKEN_SECONDS, "iat": now, "auth_time": session.auth_time, "sid": sid,
        });
        if let Some(nonce) = nonce {
            id["nonce"] = Value::String(nonce.to_owned());
        }
        merge(&mut id, &profile);
        let refresh = random_token();
        sqlx::query!(
            "insert into dev_oidc_refresh_tokens
               (token_hash, user_id, email, client_id, scope, session_id, auth_time, expires_at)
             values ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8))",
            sha256_hex(&refresh),
            &who.sub,
            &who.email,
            &self.client_id,
            scope,
            &session.id,
            session.auth_time,
            REFRESH_TOKEN_SECONDS as f64,
        )
        .execute(&self.db)
        .await?;
        Ok(TokenResponse {
            access_token: self.sign(&access)?,
            token_type: "Bearer",
            expires_in: ACCESS_TOKEN_SECONDS,
            refresh_token: refresh,
            refresh_expires_in: REFRESH_TOKEN_SECONDS,
            id_token: self.sign(&id)?,
            scope: scope.to_owned(),
        })
    }

    /// Uses up a refresh token; returns who it was for, its session and its scope.
    async fn redeem_refresh_token(&self, token: &str) -> anyhow::Result<Option<(DevIdentity, Session, String)>> {
        let row: Option<(String, String, String, i64)> = sqlx::query!(
            "update dev_oidc_refresh_tokens set revoked_at = now()
             where token_hash = $1 and revoked_at is null and expires_at > now() and client_id = $2
             returning email, scope, session_id, auth_time",
            sha256_hex(token),
            &self.client_id,
        )
        .fetch_optional(&self.db)
        .await?
        .map(|r| (r.email, r.scope, r.session_id, r.auth_time));
        Ok(row.map(|(email, scope, id, auth_time)| (self.identity(&email), Session { id, auth_time }, scope)))
    }

    async fn revoke_refresh_token(&self, token: &str) -> anyhow::Result<()> {
        sqlx::query!(
            "update dev_oidc_refresh_tokens set revoked_at = now() where token_hash = $1 and revoked_at is null",
            sha256_hex(token)
        )
        .execute(&self.db)
        .await?;
        Ok(())
    }

    async fn revoke_all_for(&self, sub: &str) -> anyhow::Result<()> {
        sqlx::query!("update dev_oidc_refresh_tokens set revoked_at = now() where user_id = $1 and revoked_at is null", sub)
            .execute(&self.db)
            .await?;
        Ok(())
    }

    /// The subject of an ID token this issuer signed (expired ones too, as `id_token_hint` allows).
    fn id_token_subject(&self, token: &str) -> Option<String> {
        let mut validation = jsonwebtoken::Validation::new(Algorithm::RS256);
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[&self.client_id]);
        validation.validate_exp = false;
        validation.set_required_spec_claims(&["iss", "aud", "sub"]);
        let data = jsonwebtoken::decode::<Value>(token, &self.decoding, &validation).ok()?;
        data.claims.get("sub")?.as_str().map(str::to_owned)
    }
}

fn merge(target: &mut Value, extra: &Value) {
    if let (Some(t), Some(e)) = (target.as_object_mut(), extra.as_object()) {
        t.extend(e.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
}

fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

fn sha256_hex(value: &str) -> String {
    Sha256::digest(value.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// RFC 7636: BASE64URL(SHA256(verifier)) must equal the challenge.
pub fn pkce_matches(verifier: &str, challenge: &str) -> bool {
    let valid_verifier =
        (43..=128).contains(&verifier.len()) && verifier.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(&b));
    valid_verifier && URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())) == challenge
}

async fn load_or_create_key(db: &PgPool) -> anyhow::Result<(String, String)> {
    // the first key (the same statement twice)
    let first = || sqlx::query!("select kid, private_key_pem from dev_oidc_keys order by created_at, kid limit 1");
    if let Some(found) = first().fetch_optional(db).await? {
        return Ok((found.kid, found.private_key_pem));
    }
    let private = tokio::task::spawn_blocking(|| rsa::RsaPrivateKey::new(&mut rand::thread_rng(), 2048)).await??;
    let pem = private.to_pkcs1_pem(LineEnding::LF)?.to_string();
    let kid = URL_SAFE_NO_PAD.encode(Sha256::digest(private.n().to_bytes_be()))[..16].to_owned();
    sqlx::query!("insert into dev_oidc_keys (kid, private_key_pem) values ($1, $2) on conflict do nothing", &kid, &pem).execute(db).await?;
    // Two api processes starting at once: both read back the first key.
    let found = first().fetch_one(db).await?;
    Ok((found.kid, found.private_key_pem))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pkce_accepts_the_rfc_7636_example_and_refuses_others() {
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        assert!(pkce_matches(verifier, challenge));
        assert!(!pkce_matches("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXj", challenge));
        assert!(!pkce_matches("short", challenge));
    }
}
