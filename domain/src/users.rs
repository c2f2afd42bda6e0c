//! Users, keyed by the identity provider's subject (`sub`).

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};

/// The version of the user agreement that is in force.
pub const AGREEMENT_VERSION: i32 = 1;

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct User {
    pub id: String,
    pub email: String,
    pub preferred_username: String,
    /// The name the user asked to be addressed by (onboarding profile).
    pub preferred_name: Option<String>,
    pub is_helper: bool,
    pub created_at: DateTime<Utc>,
}

/// What a token says about its user.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TokenIdentity {
    pub sub: String,
    pub email: String,
    pub preferred_username: String,
}

/// Creates the user on first sight, keeps e-mail and login name in step with the token and notes
/// when the user was last seen (the caller calls this at most every few minutes per user).
/// Returns whether the user is new.
pub async fn upsert_from_token(conn: &mut PgConnection, who: &TokenIdentity) -> sqlx::Result<bool> {
    let inserted: Option<bool> = sqlx::query_scalar!(
        r#"insert into users (id, email, preferred_username, last_seen_at) values ($1, $2, $3, now())
         on conflict (id) do update
           set email = excluded.email, preferred_username = excluded.preferred_username, last_seen_at = now(),
               updated_at = case when users.email is distinct from excluded.email
                                   or users.preferred_username is distinct from excluded.preferred_username
                                 then now() else users.updated_at end
         returning (xmax = 0) as "inserted!""#,
        &who.sub,
        &who.email,
        &who.preferred_username,
    )
    .fetch_optional(conn)
    .await?;
    Ok(inserted.unwrap_or(false))
}

pub async fn find(pool: &PgPool, id: &str) -> sqlx::Result<Option<User>> {
    sqlx::query_as!(User, "select id, email, preferred_username, preferred_name, is_helper, created_at from users where id = $1", id)
        .fetch_optional(pool)
        .await
}

/// Whether the user accepted the agreement version in force.
pub async fn has_accepted_agreement(pool: &PgPool, id: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"select exists(select 1 from agreement_acceptances where user_id = $1 and version = $2) as "exists!""#,
        id,
        AGREEMENT_VERSION,
    )
    .fetch_one(pool)
    .await
}

/// Records that the user accepted the agreement version in force; accepting twice keeps the first.
pub async fn record_agreement(pool: &PgPool, id: &str) -> sqlx::Result<()> {
    sqlx::query!("insert into agreement_acceptances (user_id, version) values ($1, $2) on conflict do nothing", id, AGREEMENT_VERSION)
        .execute(pool)
        .await?;
    Ok(())
}
