//! The catalogue: tiers, discount codes, and what a choice of them costs (a quote).

use sqlx::{PgConnection, PgPool, Row};
use uuid::Uuid;

use super::{BillingDetails, DISCOUNT_INVALID, Discount, MAX_USERS, Quote, Tier, money};
use crate::refusal::Refusal;

const TIER_COLUMNS: &str = "id, name, description, is_trial, is_individual, most_popular, price_per_user_month::int8 as price_per_user_month, price_per_user_year::int8 as price_per_user_year, features, trial_days";

fn tier_of(row: &sqlx::postgres::PgRow) -> Tier {
    Tier {
        id: row.get("id"),
        name: row.get("name"),
        description: row.get("description"),
        is_trial: row.get("is_trial"),
        is_individual: row.get("is_individual"),
        most_popular: row.get("most_popular"),
        price_per_user_month: row.get("price_per_user_month"),
        price_per_user_year: row.get("price_per_user_year"),
        features: row.get("features"),
        trial_days: row.get("trial_days"),
    }
}

pub async fn tiers(db: &PgPool) -> sqlx::Result<Vec<Tier>> {
    let rows = sqlx::query(&format!("select {TIER_COLUMNS} from subscription_tiers order by position, name")).fetch_all(db).await?;
    Ok(rows.iter().map(tier_of).collect())
}

pub async fn tier(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<Tier>> {
    let row = sqlx::query(&format!("select {TIER_COLUMNS} from subscription_tiers where id = $1")).bind(id).fetch_optional(conn).await?;
    Ok(row.as_ref().map(tier_of))
}

fn discount_of(row: &sqlx::postgres::PgRow) -> Discount {
    Discount {
        id: row.get("id"),
        tier_id: row.get("tier_id"),
        discount_code: row.get("code"),
        discount_price: row.get("price"),
        title: row.get("title"),
    }
}

/// An active discount by its code (compared without case and surrounding space).
pub async fn discount_by_code(db: &PgPool, code: &str) -> sqlx::Result<Option<Discount>> {
    let code = code.trim().to_uppercase();
    if code.is_empty() {
        return Ok(None);
    }
    let row = sqlx::query("select id, tier_id, code, price::int8 as price, title from subscription_discounts where code = $1 and active")
        .bind(code)
        .fetch_optional(db)
        .await?;
    Ok(row.as_ref().map(discount_of))
}

/// Adds a discount code (staff work and tests).
pub async fn add_discount(db: &PgPool, tier_id: Uuid, code: &str, title: &str, price: i64) -> sqlx::Result<Uuid> {
    let id = Uuid::new_v4();
    sqlx::query("insert into subscription_discounts (id, tier_id, code, title, price) values ($1, $2, $3, $4, $5)")
        .bind(id)
        .bind(tier_id)
        .bind(code.trim().to_uppercase())
        .bind(title)
        .bind(price as i32)
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
            let row =
                sqlx::query("select id, tier_id, code, price::int8 as price, title from subscription_discounts where id = $1 and active")
                    .bind(id)
                    .fetch_optional(&mut *conn)
                    .await?;
            let discount = row.as_ref().map(discount_of).ok_or(Refusal::Invalid(DISCOUNT_INVALID))?;
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
