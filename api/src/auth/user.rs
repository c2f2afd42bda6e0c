//! The signed-in user of a request, and the registry that creates users on first sight.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Duration;

use axum::extract::FromRequestParts;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use domain::users::TokenIdentity;
use moka::future::Cache;
use sqlx::PgPool;

use super::{AccessClaims, Rejection, bearer_token};
use crate::error::ApiError;
use crate::state::AppState;

/// The user a validated access token speaks for.
#[derive(Debug, Clone)]
pub struct CurrentUser {
    pub id: String,
    pub email: String,
    pub username: String,
    pub roles: Vec<String>,
    pub accepted_agreement: bool,
    pub is_staff: bool,
}

impl CurrentUser {
    fn from_claims(claims: AccessClaims, staff_role: &str) -> Self {
        let roles = claims.roles().to_vec();
        let email = claims.email.clone().unwrap_or_default();
        let username = claims.preferred_username.clone().unwrap_or_else(|| email.clone());
        Self {
            is_staff: roles.iter().any(|r| r == staff_role),
            accepted_agreement: claims.has_accepted_agreement(),
            id: claims.sub,
            email,
            username,
            roles,
        }
    }
}

/// How long a user's row is taken as up to date: the 'last seen' time of the CMS's 'Ingelogde
/// gebruikers' is this exact.
pub const SEEN_FOR: Duration = Duration::from_secs(300);

/// Creates a user's row on their first authenticated call and keeps it in step with the token,
/// remembering what it wrote so that ordinary requests do not touch the database.
#[derive(Clone)]
pub struct UserRegistry {
    seen: Cache<String, u64>,
}

impl Default for UserRegistry {
    fn default() -> Self {
        Self { seen: Cache::builder().max_capacity(100_000).time_to_live(SEEN_FOR).build() }
    }
}

impl UserRegistry {
    /// Creates or updates the user's row; a new user gets the welcome e-mail, enqueued in the
    /// same transaction.
    pub async fn register(&self, pool: &PgPool, jobs: &jobs::Dispatcher, user: &CurrentUser) -> sqlx::Result<()> {
        let who = TokenIdentity { sub: user.id.clone(), email: user.email.clone(), preferred_username: user.username.clone() };
        let mut hasher = DefaultHasher::new();
        who.hash(&mut hasher);
        let fingerprint = hasher.finish();
        if self.seen.get(&who.sub).await == Some(fingerprint) {
            return Ok(());
        }
        let mut tx = pool.begin().await?;
        let welcome = if domain::users::upsert_from_token(&mut tx, &who).await? {
            // addresses added to a sub-organisation before this account existed become its own
            // (an address that has an account is added as that account; `tribe` links the rest)
            domain::organisations::link_waiting(&mut tx, &who.sub, &who.email).await?;
            let job = jobs::kinds::SendEmail::job(jobs::mail::templates::Template::Welcome, &who.sub).caused_by(&who.sub);
            Some(jobs::enqueue(&mut tx, job).await?)
        } else {
            None
        };
        tx.commit().await?;
        if let Some(id) = welcome {
            let jobs = jobs.clone();
            tokio::spawn(async move {
                if let Err(e) = jobs.dispatch(&[id]).await {
                    tracing::debug!(job.id = %id, error = %e, "welcome e-mail not pushed yet; the relay will");
                }
            });
        }
        self.seen.insert(who.sub, fingerprint).await;
        Ok(())
    }
}

/// A signed-in user who may not have accepted the agreement yet: only for the calls the 'Welkom'
/// screen and the app shell need before acceptance (`GET /api/user/me`,
/// `POST /api/user/agreement`). Every other handler takes [`CurrentUser`], which refuses such a
/// user with 403 `agreement_required`.
#[derive(Debug, Clone)]
pub struct SignedIn(pub CurrentUser);

fn header_token(parts: &Parts) -> Result<&str, ApiError> {
    parts.headers.get(AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(bearer_token).ok_or(ApiError::from(Rejection::Missing))
}

/// The claims of the request's bearer token: those an earlier layer validated (the rate limit
/// puts them in the request's extensions), else the header's token validated here.
async fn header_claims(parts: &Parts, state: &AppState) -> Result<AccessClaims, ApiError> {
    if let Some(claims) = parts.extensions.get::<AccessClaims>() {
        return Ok(claims.clone());
    }
    state.auth.validate(header_token(parts)?).await.map_err(ApiError::from)
}

impl FromRequestParts<AppState> for SignedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let claims = header_claims(parts, state).await?;
        Ok(Self(CurrentUser::registered(state, claims).await?))
    }
}

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        // the subscription gate signed the user in already (`auth::gate`)
        if let Some(user) = parts.extensions.get::<CurrentUser>() {
            return Ok(user.clone());
        }
        let claims = header_claims(parts, state).await?;
        let user = Self::registered(state, claims).await?;
        user.require_agreement(state).await?;
        Ok(user)
    }
}

impl CurrentUser {
    /// The user an access token speaks for, registered on first sight, who has accepted the
    /// agreement in force (else [`ApiError::AgreementRequired`]): for callers that get the token
    /// some other way than the `Authorization` header (the speech websocket).
    pub async fn from_token(state: &AppState, token: &str) -> Result<Self, ApiError> {
        let user = Self::signed_in(state, token).await?;
        user.require_agreement(state).await?;
        Ok(user)
    }

    /// The user an access token speaks for, registered on first sight, whether or not they
    /// accepted the agreement.
    async fn signed_in(state: &AppState, token: &str) -> Result<Self, ApiError> {
        let claims = state.auth.validate(token).await.map_err(ApiError::from)?;
        Self::registered(state, claims).await
    }

    /// The user validated claims speak for, registered on first sight.
    async fn registered(state: &AppState, claims: AccessClaims) -> Result<Self, ApiError> {
        let user = Self::from_claims(claims, &state.config.auth.staff_role);
        crate::telemetry::record_user(&user.id);
        state.users.register(&state.db, &state.jobs, &user).await?;
        Ok(user)
    }

    /// Passes a user whose token carries `accepted-agreement` (the identity provider signs it:
    /// our own record, or an acceptance it holds from before, as Keycloak's attribute), or whose
    /// acceptance of the version in force is in our database (a token issued just before the
    /// acceptance, until it is renewed). Staff are no exception: the SPA sends them to the
    /// 'Welkom' screen too.
    pub async fn require_agreement(&self, state: &AppState) -> Result<(), ApiError> {
        if self.accepted_agreement || domain::users::has_accepted_agreement(&state.db, &self.id).await? {
            return Ok(());
        }
        Err(ApiError::AgreementRequired)
    }
}
