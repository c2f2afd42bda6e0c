//! Gebruikers: the users, their HIS and the sub-organisations they are linked to.

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use sqlx::{PgConnection, PgPool};
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
    // the page's and the count's condition are the same: a search ($1) and a HIS ($2)
    let rows = sqlx::query!(
        r#"select u.id, u.email, u.created_at, h.id as "his_id?", h.name as "his_name?",
                exists (select 1 from organisation_subscriptions_of(u.id, u.email) o
                         where organisation_subscription_active(o.is_active, o.start_date, o.valid_until, $3)) as "has_organisation!",
                coalesce((select jsonb_agg(jsonb_build_object('id', l.id, 'organizationName', l.name) order by lower(l.name))
                            from organisation_members m join organisation_levels l on l.id = m.level_id
                           where m.user_id = u.id), '[]') as "levels!"
           from users u left join his h on h.id = u.his_id
          where u.id in (select u.id from users u
                          where ($1::text is null or (lower(u.email) || ' ' || lower(u.id)) like $1)
                            and ($2::text is null or u.his_id = (select id from his where name = $2))
                          order by u.created_at desc, u.id desc limit $4 offset $5)
          order by u.created_at desc, u.id desc"#,
        pattern.as_deref(),
        his,
        today,
        size,
        page * size,
    )
    .fetch_all(db)
    .await?;
    let total: i64 = sqlx::query_scalar!(
        r#"select count(*) as "count!" from users u
            where ($1::text is null or (lower(u.email) || ' ' || lower(u.id)) like $1)
              and ($2::text is null or u.his_id = (select id from his where name = $2))"#,
        pattern.as_deref(),
        his,
    )
    .fetch_one(db)
    .await?;
    let rows = rows
        .into_iter()
        .map(|r| UserRow {
            user_info: UserInfo::new(r.id, r.email, r.created_at, r.has_organisation),
            his: r.his_id.zip(r.his_name).map(|(id, name)| His { id, name }),
            linked_sub_organizations: serde_json::from_value::<Vec<LinkedSubOrganization>>(r.levels).unwrap_or_default(),
        })
        .collect();
    Ok((rows, total))
}

/// Every HIS, by name.
pub async fn his_list(db: &PgPool) -> sqlx::Result<Vec<His>> {
    sqlx::query_as!(His, "select id, name from his order by lower(name), id").fetch_all(db).await
}

/// A user's e-mail address, for the audit log and the info modal. `None` for no such user.
pub async fn email_of(db: impl sqlx::PgExecutor<'_>, user_id: &str) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!("select email from users where id = $1", user_id).fetch_optional(db).await
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
    let row = sqlx::query!(
        r#"select u.email, h.id as "his_id?", h.name as "his_name?" from users u left join his h on h.id = u.his_id where u.id = $1 for update of u"#,
        user_id,
    )
    .fetch_optional(&mut *tx)
    .await?
    .ok_or(Refusal::NotFound(USER_NOT_FOUND))?;
    let before = row.his_id.zip(row.his_name).map(|(id, name)| His { id, name });
    let after = match his_id {
        Some(id) => Some(
            sqlx::query_as!(His, "select id, name from his where id = $1", id)
                .fetch_optional(&mut *tx)
                .await?
                .ok_or(Refusal::NotFound(HIS_NOT_FOUND))?,
        ),
        None => None,
    };
    sqlx::query!("update users set his_id = $2, updated_at = now() where id = $1", user_id, his_id).execute(&mut *tx).await?;
    Ok(HisChange { email: row.email, before, after })
}
