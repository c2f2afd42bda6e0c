//! HIS: the list of record systems (add, delete while nobody is linked) and, per HIS, its users
//! with what gives them access (spec §2.3 HIS, §3 "HIS overview").

use chrono::NaiveDate;
use serde::Serialize;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::users::{His, UserInfo};
use crate::refusal::Refusal;

pub const HIS_IN_USE: &str = "Kon HIS niet verwijderen, er zijn gebruikers gelinkt aan deze HIS";
pub const HIS_EXISTS: &str = "Deze HIS bestaat al.";
pub const HIS_NAME_MISSING: &str = "Geen naam voor de HIS ingevuld.";
pub const HIS_NAME_TOO_LONG: &str = "De naam van de HIS is te lang (hoogstens 100 tekens).";

/// A HIS with how many users are linked to it (the HIS tab's dropdown).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HisEdit {
    pub id: Uuid,
    pub name: String,
    pub users: i64,
}

/// Every HIS with its number of users, by name.
pub async fn list_edit(db: &PgPool) -> sqlx::Result<Vec<HisEdit>> {
    sqlx::query_as!(
        HisEdit,
        r#"select h.id, h.name, (select count(*) from users u where u.his_id = h.id) as "users!" from his h order by lower(h.name), h.id"#,
    )
    .fetch_all(db)
    .await
}

/// A HIS name as typed: spaces around it dropped and runs of spaces inside it made one, not
/// empty, at most 100 characters, without invisible characters.
pub fn checked_name(raw: &str) -> Result<String, Refusal> {
    let name = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.is_empty() {
        return Err(Refusal::Invalid(HIS_NAME_MISSING));
    }
    if name.chars().count() > 100 {
        return Err(Refusal::Invalid(HIS_NAME_TOO_LONG));
    }
    if crate::text::has_hidden_characters(&name) {
        return Err(Refusal::Invalid(crate::text::HIDDEN_CHARACTERS));
    }
    Ok(name)
}

/// Adds a HIS ('Nieuwe HIS..'); a name that exists (any case) is refused.
pub async fn add(tx: &mut PgConnection, raw: &str) -> Result<His, Refusal> {
    let name = checked_name(raw)?;
    // the unique index on the lower-case name decides, also between two adds at once
    let id: Option<Uuid> =
        sqlx::query_scalar!("insert into his (id, name) values ($1, $2) on conflict do nothing returning id", Uuid::new_v4(), &name)
            .fetch_optional(&mut *tx)
            .await?;
    let id = id.ok_or(Refusal::Conflict(HIS_EXISTS))?;
    Ok(His { id, name })
}

/// Deletes a HIS no user and no sub-organisation is linked to.
pub async fn delete(tx: &mut PgConnection, id: Uuid) -> Result<His, Refusal> {
    let his: His = sqlx::query_as!(His, "select id, name from his where id = $1 for update", id)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(Refusal::NotFound(super::users::HIS_NOT_FOUND))?;
    let linked: bool = sqlx::query_scalar!(
        r#"select exists (select 1 from users where his_id = $1) or exists (select 1 from organisation_levels where his_id = $1) as "linked!""#,
        id,
    )
    .fetch_one(&mut *tx)
    .await?;
    if linked {
        return Err(Refusal::Conflict(HIS_IN_USE));
    }
    sqlx::query!("delete from his where id = $1", id).execute(&mut *tx).await?;
    Ok(his)
}

/// What gives a user access today, as the HIS tab shows it (spec: "subscriptionType"; the spec
/// names NONE and EXPIRED only, the others are ours).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum AccessType {
    /// An active organisation subscription.
    Organisation,
    /// An active paid subscription of their own.
    Paid,
    /// A seat on someone else's active subscription.
    Linked,
    /// An active trial.
    Trial,
    /// Had a subscription (their own, a seat or through an organisation), none is active now.
    Expired,
    /// Never had one.
    None,
}

impl AccessType {
    /// EXPIRED and NONE come first and are shown in red.
    pub fn is_problem(self) -> bool {
        matches!(self, Self::Expired | Self::None)
    }
}

/// A user's access (spec "userSubscriptionInformation").
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserAccess {
    pub linked_to_organization: bool,
    /// The last day of the access shown (of the expired one for EXPIRED); none for NONE.
    pub end_date: Option<NaiveDate>,
    pub subscription_type: AccessType,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HisUser {
    pub user_info: UserInfo,
    pub user_subscription_information: UserAccess,
}

/// The users of one HIS with their access, EXPIRED and NONE first, then by e-mail address, a page
/// at a time, and how many there are.
pub async fn users_of(db: &PgPool, his_id: Uuid, today: NaiveDate, page: i64, size: i64) -> sqlx::Result<(Vec<HisUser>, i64)> {
    // per user the best access today, in AccessType's order, with its last day
    let rows = sqlx::query!(
        r#"with access as (
           select u.id, u.email, u.created_at,
                  exists (select 1 from organisation_members m where m.user_id = u.id) as linked,
                  exists (select 1 from organisation_subscriptions_of(u.id, u.email) o where organisation_subscription_active(o.is_active, o.start_date, o.valid_until, $2)) as organisation,
                  (select max(o.valid_until) from organisation_subscriptions_of(u.id, u.email) o where organisation_subscription_active(o.is_active, o.start_date, o.valid_until, $2))
                    as organisation_until,
                  (select max(s.valid_until) from subscriptions s
                    where s.user_id = u.id and not s.is_trial and subscription_active(s.is_active, s.valid_until, $2)) as paid,
                  (select max(s.valid_until) from linked_subscriptions l join subscriptions s on s.id = l.subscription_id
                    where (l.user_id = u.id or l.email = lower(u.email)) and subscription_active(s.is_active, s.valid_until, $2)) as seat,
                  (select max(s.valid_until) from subscriptions s
                    where s.user_id = u.id and s.is_trial and subscription_active(s.is_active, s.valid_until, $2)) as trial,
                  greatest((select max(s.valid_until) from subscriptions s where s.user_id = u.id),
                           (select max(o.valid_until) from organisation_subscriptions_of(u.id, u.email) o),
                           (select max(s.valid_until) from linked_subscriptions l join subscriptions s on s.id = l.subscription_id
                             where l.user_id = u.id or l.email = lower(u.email))) as ever
             from users u where u.his_id = $1)
         select id as "id!", email as "email!", created_at as "created_at!", linked as "linked!",
                organisation_until as "organisation_until?", paid as "paid?", seat as "seat?", trial as "trial?", ever as "ever?",
                case when organisation then 'ORGANISATION' when paid is not null then 'PAID'
                     when seat is not null then 'LINKED' when trial is not null then 'TRIAL'
                     when ever is not null then 'EXPIRED' else 'NONE' end as "kind!"
           from access
          order by (not organisation and paid is null and seat is null and trial is null) desc, lower(email), id
          limit $3 offset $4"#,
        his_id,
        today,
        size,
        page * size,
    )
    .fetch_all(db)
    .await?;
    let total: i64 = sqlx::query_scalar!(r#"select count(*) as "count!" from users where his_id = $1"#, his_id).fetch_one(db).await?;
    let users = rows
        .into_iter()
        .map(|r| {
            let kind = match r.kind.as_str() {
                "ORGANISATION" => AccessType::Organisation,
                "PAID" => AccessType::Paid,
                "LINKED" => AccessType::Linked,
                "TRIAL" => AccessType::Trial,
                "EXPIRED" => AccessType::Expired,
                _ => AccessType::None,
            };
            let end_date: Option<NaiveDate> = match kind {
                AccessType::Organisation => r.organisation_until,
                AccessType::Paid => r.paid,
                AccessType::Linked => r.seat,
                AccessType::Trial => r.trial,
                AccessType::Expired => r.ever,
                AccessType::None => None,
            };
            HisUser {
                user_info: UserInfo::new(r.id, r.email, r.created_at, kind == AccessType::Organisation),
                user_subscription_information: UserAccess { linked_to_organization: r.linked, end_date, subscription_type: kind },
            }
        })
        .collect();
    Ok((users, total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_his_name_is_trimmed_and_bounded() {
        assert_eq!(checked_name("  Medicom   Plus ").unwrap(), "Medicom Plus");
        assert!(matches!(checked_name("   "), Err(Refusal::Invalid(HIS_NAME_MISSING))));
        assert!(matches!(checked_name(&"x".repeat(101)), Err(Refusal::Invalid(HIS_NAME_TOO_LONG))));
        assert!(matches!(checked_name("Medicom\u{202e}sulP"), Err(Refusal::Invalid(crate::text::HIDDEN_CHARACTERS))));
        assert!(matches!(checked_name("\u{200b}Medicom"), Err(Refusal::Invalid(crate::text::HIDDEN_CHARACTERS))));
        assert!(AccessType::Expired.is_problem() && AccessType::None.is_problem() && !AccessType::Trial.is_problem());
    }
}
