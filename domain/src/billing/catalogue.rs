//! The catalogue: tiers, discount codes, and what a choice of them costs (a quote).

use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::{BillingDetails, Cents, DISCOUNT_INVALID, Discount, MAX_USERS, Quote, Tier, money};
use crate::refusal::Refusal;

/// A compile-checked statement answering [`Tier`]s from `subscription_tiers`, followed by
/// `$tail` (a string literal: the conditions and the order) and the statement's arguments.
macro_rules! tiers {
    ($tail:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            Tier,
            r#"select id, name, description, is_trial, is_individual, most_popular,
                      price_per_user_month::int8 as "price_per_user_month!: Cents", price_per_user_year::int8 as "price_per_user_year!: Cents",
                      features, trial_days
                 from subscription_tiers "# + $tail
            $(, $arg)*
        )
    };
}

/// A compile-checked statement answering [`Discount`]s from `subscription_discounts`, followed by
/// `$tail` (a string literal: the conditions) and the statement's arguments.
macro_rules! discounts {
    ($tail:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            Discount,
            r#"select id, tier_id, code as discount_code, price::int8 as "discount_price!: Cents", title
                 from subscription_discounts "# + $tail
            $(, $arg)*
        )
    };
}

pub async fn tiers(db: &PgPool) -> sqlx::Result<Vec<Tier>> {
    tiers!("order by position, name").fetch_all(db).await
}

pub async fn tier(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<Tier>> {
    tiers!("where id = $1", id).fetch_optional(conn).await
}

/// An active discount by its code (compared without case and surrounding space).
pub async fn discount_by_code(db: &PgPool, code: &str) -> sqlx::Result<Option<Discount>> {
    let code = code.trim().to_uppercase();
    if code.is_empty() {
        return Ok(None);
    }
    discounts!("where code = $1 and active", code).fetch_optional(db).await
}

/// Adds a discount code (staff work and tests).
pub async fn add_discount(db: &PgPool, tier_id: Uuid, code: &str, title: &str, price: i64) -> sqlx::Result<Uuid> {
    let id = Uuid::new_v4();
    sqlx::query!(
        "insert into subscription_discounts (id, tier_id, code, title, price) values ($1, $2, $3, $4, $5)",
        id,
        tier_id,
        code.trim().to_uppercase(),
        title,
        price as i32
    )
    .execute(db)
    .await?;
    Ok(id)
}

/// Prices a choice on the server: an individual tier has one user; a discount only for its own
/// tier, an individual non-trial tier, monthly billing (§5).
pub async fn quote(conn: &mut PgConnection, d: &BillingDetails) -> Result<Quote, Refusal> {
    let tier = tier(&mut *conn, d.tier_id).await?.ok_or(Refusal::Invalid("Onbekend abonnement gekozen."))?;
    if d.interval_months != 1 && d.interval_months != 12 {
        return Err(Refusal::Invalid("Kies maandelijks of jaarlijks betalen."));
    }
    let user_amount = if tier.is_individual { 1 } else { d.user_amount };
    if !(1..=MAX_USERS).contains(&user_amount) {
        return Err(Refusal::Invalid("Vul een aantal gebruikers van 1 tot en met 1000 in."));
    }
    let discount = match d.discount_id {
        None => None,
        Some(id) => {
            let discount =
                discounts!("where id = $1 and active", id).fetch_optional(&mut *conn).await?.ok_or(Refusal::Invalid(DISCOUNT_INVALID))?;
            let allowed = discount.tier_id == tier.id && tier.is_individual && !tier.is_trial && d.interval_months == 1;
            if !allowed {
                return Err(Refusal::Invalid(DISCOUNT_INVALID));
            }
            Some(discount)
        }
    };
    let price_per_user = money::price_per_user(
        tier.price_per_user_month,
        tier.price_per_user_year,
        d.interval_months,
        discount.as_ref().map(|x| x.discount_price),
    );
    let amount = money::total(price_per_user, user_amount as i64);
    let interval = if d.interval_months == 12 { "jaarlijks" } else { "maandelijks" };
    let users = if user_amount == 1 { "1 gebruiker".to_owned() } else { format!("{user_amount} gebruikers") };
    let description = format!("Spreekkamer {} ({users}, {interval})", tier.name);
    Ok(Quote { tier, user_amount, interval_months: d.interval_months, price_per_user, amount, discount, description })
}
