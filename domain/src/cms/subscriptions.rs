//! Gebruikers abonnementen: every user subscription, and what staff may change on one (spec §2.3):
//! active, valid-until, cancel, and a renewed subscription at the tier's full price.

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use serde_json::Value;
use sqlx::postgres::PgRow;
use sqlx::{PgConnection, PgPool, Row};
use uuid::Uuid;

use super::CmsError;
use crate::money;
use crate::subscriptions::NOT_FOUND;

pub const CANNOT_RENEW: &str =
    "Dit abonnement kan niet worden verlengd: alleen een betaald abonnement met een datum voor verlenging zonder korting.";
pub const NOT_A_FIRST_PAYMENT: &str = "De eerste betaling van het abonnement is niet gevonden of niet betaald.";

/// A user subscription as the CMS shows it (spec §3 "Subscription (user)", with its user).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CmsSubscription {
    pub id: Uuid,
    pub user_id: String,
    pub user_email: String,
    pub description: String,
    /// Switched on and not past `validUntil` (end of that day, Europe/Amsterdam).
    pub is_active: bool,
    pub is_trial: bool,
    pub is_individual: bool,
    pub user_amount: i32,
    pub interval_months: i32,
    pub created_at: DateTime<Utc>,
    pub valid_until: Option<NaiveDate>,
    pub canceled_at: Option<DateTime<Utc>>,
    pub next_payment_date: Option<NaiveDate>,
    pub renew_subscription_without_discount_date: Option<NaiveDate>,
    pub first_payment_id: Option<Uuid>,
    /// The renew action shows: not a trial, with a renew-without-discount date.
    pub can_renew: bool,
}

/// Whether staff may renew a subscription (spec §2.3): a paid one with a renew-without-discount
/// date, and a first payment to renew from.
pub fn can_renew(is_trial: bool, renew_without_discount_date: Option<NaiveDate>, first_payment: Option<Uuid>) -> bool {
    !is_trial && renew_without_discount_date.is_some() && first_payment.is_some()
}

/// The columns of a [`CmsSubscription`] from `subscriptions s join users u`; `$1` is today.
const COLUMNS: &str = "s.id, s.user_id, u.email as user_email, s.description,
    s.is_active and s.valid_until is not null and s.valid_until >= $1 as active, s.is_trial, s.is_individual, s.user_amount,
    s.interval_months, s.created_at, s.valid_until, s.canceled_at, s.next_payment_date, s.renew_without_discount_date,
    s.first_payment_id";

fn of_row(r: &PgRow) -> CmsSubscription {
    let is_trial = r.get("is_trial");
    let renew = r.get("renew_without_discount_date");
    let first_payment_id = r.get("first_payment_id");
    CmsSubscription {
        id: r.get("id"),
        user_id: r.get("user_id"),
        user_email: r.get("user_email"),
        description: r.get("description"),
        is_active: r.get("active"),
        is_trial,
        is_individual: r.get("is_individual"),
        user_amount: r.get("user_amount"),
        interval_months: r.get("interval_months"),
        created_at: r.get("created_at"),
        valid_until: r.get("valid_until"),
        canceled_at: r.get("canceled_at"),
        next_payment_date: r.get("next_payment_date"),
        renew_subscription_without_discount_date: renew,
        first_payment_id,
        can_renew: can_renew(is_trial, renew, first_payment_id),
    }
}

/// The Gebruikers abonnementen filters.
#[derive(Debug, Clone, Default)]
pub struct SubscriptionFilter {
    /// 'Alleen betaalde abonnementen': no trials.
    pub paid_only: bool,
    /// 'Alleen actieve abonnementen'.
    pub active_only: bool,
    /// A part of the user's e-mail address or id.
    pub search: Option<String>,
}

/// A page of subscriptions, newest first, and how many match in all.
pub async fn page(
    db: &PgPool,
    filter: &SubscriptionFilter,
    today: NaiveDate,
    page: i64,
    size: i64,
) -> sqlx::Result<(Vec<CmsSubscription>, i64)> {
    let pattern = crate::text::contains_pattern(filter.search.as_deref());
    let condition = "(not $2 or not s.is_trial)
        and (not $3 or (s.is_active and s.valid_until is not null and s.valid_until >= $1))
        and ($4::text is null or s.user_id = any(array(select id from users where (lower(email) || ' ' || lower(id)) like $4)))";
    let rows = sqlx::query(&format!(
        "select {COLUMNS} from subscriptions s join users u on u.id = s.user_id where {condition}
          order by s.created_at desc, s.id desc limit $5 offset $6"
    ))
    .bind(today)
    .bind(filter.paid_only)
    .bind(filter.active_only)
    .bind(&pattern)
    .bind(size)
    .bind(page * size)
    .fetch_all(db)
    .await?;
    let total: i64 = sqlx::query_scalar(&format!("select count(*) from subscriptions s where {condition}"))
        .bind(today)
        .bind(filter.paid_only)
        .bind(filter.active_only)
        .bind(&pattern)
        .fetch_one(db)
        .await?;
    Ok((rows.iter().map(of_row).collect(), total))
}

/// A user's subscriptions, paid and trial: the active ones first, then the latest valid-until
/// first (spec §2.3, the info modal).
pub async fn of_user(conn: &mut PgConnection, user_id: &str, today: NaiveDate) -> sqlx::Result<Vec<CmsSubscription>> {
    let rows = sqlx::query(&format!(
        "select {COLUMNS} from subscriptions s join users u on u.id = s.user_id where s.user_id = $2
          order by active desc, s.valid_until desc nulls last, s.created_at desc, s.id"
    ))
    .bind(today)
    .bind(user_id)
    .fetch_all(conn)
    .await?;
    Ok(rows.iter().map(of_row).collect())
}

/// One subscription, locked for a change in `tx`.
async fn locked(tx: &mut PgConnection, id: Uuid, today: NaiveDate) -> Result<CmsSubscription, CmsError> {
    let row =
        sqlx::query(&format!("select {COLUMNS} from subscriptions s join users u on u.id = s.user_id where s.id = $2 for update of s"))
            .bind(today)
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?
            .ok_or(CmsError::NotFound(NOT_FOUND))?;
    Ok(of_row(&row))
}

/// A change made: the subscription before and after (for the answer and the audit log).
#[derive(Debug, Clone)]
pub struct Changed {
    pub before: CmsSubscription,
    pub after: CmsSubscription,
}

impl Changed {
    /// The changed fields, before and after, as the audit log keeps them.
    pub fn changes(&self, fields: &[&str]) -> Value {
        crate::audit::before_after(&self.before, &self.after, fields)
    }
}

/// Switches a subscription on or off. Switching on a subscription whose valid-until has passed
/// (or that has none) leaves it off: active follows valid-until (spec §2.3).
pub async fn set_active(tx: &mut PgConnection, id: Uuid, active: bool, today: NaiveDate) -> Result<Changed, CmsError> {
    let before = locked(tx, id, today).await?;
    sqlx::query(
        "update subscriptions set is_active = $2 and valid_until is not null and valid_until >= $3, updated_at = now() where id = $1",
    )
    .bind(id)
    .bind(active)
    .bind(today)
    .execute(&mut *tx)
    .await?;
    Ok(Changed { before, after: locked(tx, id, today).await? })
}

/// Sets a subscription's last day. A day before today also switches it off.
pub async fn set_valid_until(tx: &mut PgConnection, id: Uuid, valid_until: NaiveDate, today: NaiveDate) -> Result<Changed, CmsError> {
    let before = locked(tx, id, today).await?;
    sqlx::query("update subscriptions set valid_until = $2, is_active = is_active and $2 >= $3, updated_at = now() where id = $1")
        .bind(id)
        .bind(valid_until)
        .bind(today)
        .execute(&mut *tx)
        .await?;
    Ok(Changed { before, after: locked(tx, id, today).await? })
}

/// Cancels a subscription for its user: no more renewals, usable until valid-until. A cancelled
/// one stays as it is.
pub async fn cancel(tx: &mut PgConnection, id: Uuid, today: NaiveDate) -> Result<Changed, CmsError> {
    let before = locked(tx, id, today).await?;
    sqlx::query(
        "update subscriptions set canceled_at = now(), next_payment_date = null, updated_at = now() where id = $1 and canceled_at is null",
    )
    .bind(id)
    .execute(&mut *tx)
    .await?;
    Ok(Changed { before, after: locked(tx, id, today).await? })
}

/// A renewed subscription: the old one and the new one.
#[derive(Debug, Clone)]
pub struct Renewed {
    pub old: CmsSubscription,
    pub new: CmsSubscription,
}

/// Renews the subscription whose first payment is `first_payment_id` (the latest one made from
/// it that is not cancelled) from `start`: a new subscription for the same user, tier, users and
/// interval at the tier's full price without a discount. It is valid until the day before `start`
/// and active when that day has not passed (with the old one's state), its next payment is due
/// on `start` (the renewal sweep charges it through the user's mandate and extends it), and the
/// linked users move to it. The old subscription is cancelled and ends the day before `start` at
/// the latest.
pub async fn renew(tx: &mut PgConnection, first_payment_id: Uuid, start: NaiveDate, today: NaiveDate) -> Result<Renewed, CmsError> {
    let subscription_id: Uuid = sqlx::query_scalar(
        "select s.id from payments p join subscriptions s on s.id = p.subscription_id
          where p.id = $1 and p.status = 'PAID' and s.first_payment_id = p.id
          order by s.canceled_at is null desc, s.created_at desc limit 1",
    )
    .bind(first_payment_id)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or(CmsError::NotFound(NOT_A_FIRST_PAYMENT))?;
    let old = locked(tx, subscription_id, today).await?;
    if !old.can_renew {
        return Err(CmsError::Conflict(CANNOT_RENEW));
    }
    let s = sqlx::query(
        "select s.tier_id, s.user_amount, s.interval_months, s.is_active, s.valid_until,
                t.price_per_user_month::int8 as month, t.price_per_user_year::int8 as year, t.name
           from subscriptions s join subscription_tiers t on t.id = s.tier_id where s.id = $1",
    )
    .bind(subscription_id)
    .fetch_one(&mut *tx)
    .await?;
    let interval: i32 = s.get("interval_months");
    let users: i32 = s.get("user_amount");
    let per_user = money::price_per_user(s.get("month"), s.get("year"), interval, None);
    let amount = money::total(per_user, users as i64);
    let new_id = Uuid::new_v4();
    let last_old_day = start.pred_opt().unwrap_or(start);
    sqlx::query(
        "insert into subscriptions (id, user_id, tier_id, description, is_active, is_trial, is_individual, user_amount, interval_months,
                                    price_per_user, amount, valid_until, next_payment_date, first_payment_id)
         select $2, user_id, tier_id, description, is_active and $6 >= $7, false, is_individual, user_amount, interval_months,
                $3, $4, $6, $5, first_payment_id
           from subscriptions where id = $1",
    )
    .bind(subscription_id)
    .bind(new_id)
    .bind(per_user)
    .bind(amount)
    .bind(start)
    .bind(last_old_day)
    .bind(today)
    .execute(&mut *tx)
    .await?;
    sqlx::query("update linked_subscriptions set subscription_id = $2 where subscription_id = $1")
        .bind(subscription_id)
        .bind(new_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "update subscriptions set canceled_at = coalesce(canceled_at, now()), next_payment_date = null,
                renew_without_discount_date = null, valid_until = least(valid_until, $2),
                is_active = is_active and least(valid_until, $2) >= $3, updated_at = now()
          where id = $1",
    )
    .bind(subscription_id)
    .bind(last_old_day)
    .bind(today)
    .execute(&mut *tx)
    .await?;
    Ok(Renewed { old: locked(tx, subscription_id, today).await?, new: locked(tx, new_id, today).await? })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_paid_subscriptions_with_a_date_renew() {
        let day = NaiveDate::from_ymd_opt(2026, 12, 1);
        let payment = Some(Uuid::nil());
        assert!(can_renew(false, day, payment));
        assert!(!can_renew(true, day, payment));
        assert!(!can_renew(false, None, payment));
        assert!(!can_renew(false, day, None));
    }
}
