//! Gebruikers: the users, their HIS and the sub-organisations they are linked to.

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use serde_json::Value;
use sqlx::{PgConnection, PgPool, Row};
use uuid::Uuid;

use crate::refusal::Refusal;

pub const USER_NOT_FOUND: &str = "Gebruiker niet gevonden";
pub const HIS_NOT_FOUND: &str = "HIS niet gevonden";

/// A user as the CMS shows one (spec §3 "User info"). `firebaseUid` is the identity provider's id
/// of the user, which is also our user id (the token's `sub`).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserInfo {
    pub id: String,
    pub email: String,
    pub firebase_uid: String,
    pub created_at: DateTime<Utc>,
    pub has_active_organization_subscription: bool,
}

impl UserInfo {
    /// A user as the CMS shows one; the identity provider's id is our user id.
    pub fn new(id: String, email: String, created_at: DateTime<Utc>, has_active_organization_subscription: bool) -> Self {
        Self { firebase_uid: id.clone(), id, email, created_at, has_active_organization_subscription }
    }
}

/// A HIS (the practice's record system).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct His {
    pub id: Uuid,
    pub name: String,
}

/// A sub-organisation a user belongs to.
#[derive(Debug, Clone, Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LinkedSubOrganization {
    pub id: Uuid,
    pub organization_name: String,
}

/// A row of the Gebruikers table (spec §3 "Users list row").
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserRow {
    pub user_info: UserInfo,
    pub his: Option<His>,
    pub linked_sub_organizations: Vec<LinkedSubOrganization>,
}

/// The Gebruikers filters: a substring of the id or e-mail address, and a HIS by exact name.
#[derive(Debug, Clone, Default)]
pub struct UserFilter {
    pub search: Option<String>,
    pub his: Option<String>,
}

/// A page of users, newest account first, and how many match in all. The page's ids are found
/// first, so the per-row lookups run for its rows only.
pub async fn page(db: &PgPool, filter: &UserFilter, today: NaiveDate, page: i64, size: i64) -> sqlx::Result<(Vec<UserRow>, i64)> {
    let pattern = crate::text::contains_pattern(filter.search.as_deref());
    let his = filter.his.as_deref().map(str::trim).filter(|h| !h.is_empty() && *h != "ALL");
    let condition = "($1::text is null or (lower(u.email) || ' ' || lower(u.id)) like $1)
                     and ($2::text is null or u.his_id = (select id from his where name = $2))";
    let rows = sqlx::query(&format!(
        "select u.id, u.email, u.created_at, h.id as his_id, h.name as his_name,
                exists (select 1 from organisation_subscriptions_of(u.id, u.email) o
                         where organisation_subscription_active(o.is_active, o.start_date, o.valid_until, $3)) as has_organisation,
                coalesce((select jsonb_agg(jsonb_build_object('id', l.id, 'organizationName', l.name) order by lower(l.name))
                            from organisation_members m join organisation_levels l on l.id = m.level_id
                           where m.user_id = u.id), '[]') as levels
           from users u left join his h on h.id = u.his_id
          where u.id in (select u.id from users u where {condition} order by u.created_at desc, u.id desc limit $4 offset $5)
          order by u.created_at desc, u.id desc",
    ))
    .bind(&pattern)
    .bind(his)
    .bind(today)
    .bind(size)
    .bind(page * size)
    .fetch_all(db)
    .await?;
    let total: i64 =
        sqlx::query_scalar(&format!("select count(*) from users u where {condition}")).bind(&pattern).bind(his).fetch_one(db).await?;
    let rows = rows
        .iter()
        .map(|r| {
            let id: String = r.get("id");
            let his_id: Option<Uuid> = r.get("his_id");
            UserRow {
                user_info: UserInfo::new(id, r.get("email"), r.get("created_at"), r.get("has_organisation")),
                his: his_id.map(|id| His { id, name: r.get("his_name") }),
                linked_sub_organizations: serde_json::from_value(r.get::<Value, _>("levels")).unwrap_or_default(),
            }
        })
        .collect();
    Ok((rows, total))
}

/// Every HIS, by name.
pub async fn his_list(db: &PgPool) -> sqlx::Result<Vec<His>> {
    sqlx::query_as("select id, name from his order by lower(name), id").fetch_all(db).await
}

/// A user's e-mail address, for the audit log and the info modal. `None` for no such user.
pub async fn email_of(db: impl sqlx::PgExecutor<'_>, user_id: &str) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar("select email from users where id = $1").bind(user_id).fetch_optional(db).await
}

/// What setting a user's HIS changed: the e-mail address, and the HIS before and after.
#[derive(Debug, Clone)]
pub struct HisChange {
    pub email: String,
    pub before: Option<His>,
    pub after: Option<His>,
}

/// Sets the user's HIS (`None`: 'Geen') in `tx`.
pub async fn set_his(tx: &mut PgConnection, user_id: &str, his_id: Option<Uuid>) -> Result<HisChange, Refusal> {
    let row = sqlx::query(
        "select u.email, h.id as his_id, h.name as his_name from users u left join his h on h.id = u.his_id where u.id = $1 for update of u",
    )
    .bind(user_id)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or(Refusal::NotFound(USER_NOT_FOUND))?;
    let before = row.get::<Option<Uuid>, _>("his_id").map(|id| His { id, name: row.get("his_name") });
    let after = match his_id {
        Some(id) => Some(
            sqlx::query_as::<_, His>("select id, name from his where id = $1")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?
                .ok_or(Refusal::NotFound(HIS_NOT_FOUND))?,
        ),
        None => None,
    };
    sqlx::query("update users set his_id = $2, updated_at = now() where id = $1").bind(user_id).bind(his_id).execute(&mut *tx).await?;
    Ok(HisChange { email: row.get("email"), before, after })
}
