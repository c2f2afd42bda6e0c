//! Subscriptions of practitioners: tiers, the billing details, quotes, pending subscriptions with
//! their first payment, activation when a payment is paid, trials, linked users and cancelling.
//!
//! Dates that end access are calendar days in Europe/Amsterdam; access ends at the end of that day
//! (23:59:59.999, spec §4). A period of one month that starts on 23 November ends on 22 December.
//! Only a subscription's owner reads or changes it: every query names the owner.

use chrono::{DateTime, Days, Months, NaiveDate, Utc};
use serde::Serialize;
use sqlx::{PgConnection, PgPool, Row};
use uuid::Uuid;

use crate::money;
use crate::payments::{self, PaymentStatus};

/// The time zone whose calendar days end subscriptions.
pub const TIME_ZONE: chrono_tz::Tz = chrono_tz::Europe::Amsterdam;

/// Users a non-individual subscription may have at most (a bound of ours; the spec gives none).
pub const MAX_USERS: i32 = 1000;

/// The longest text a billing field takes (ours).
pub const MAX_FIELD: usize = 200;

pub const TRIAL_USED: &str = "Gebruiker heeft al eens een proefabonnement geactiveerd";
pub const DISCOUNT_INVALID: &str = "Kortingscode onjuist";
pub const NO_EMAIL: &str = "Geen e-mail adres ingevuld";
pub const CANNOT_REMOVE: &str = "Gebruiker kan niet worden verwijderd";
pub const FAIR_USE: &str = "Aantal gelinkte gebruikers is hoger dan aantal afgesloten gebruikers van het abonnement. Aantal gelijktijdige gebruikers is op basis van fair use policy.";
pub const NOT_FOUND: &str = "Abonnement niet gevonden";

/// Today in Europe/Amsterdam.
pub fn today() -> NaiveDate {
    Utc::now().with_timezone(&TIME_ZONE).date_naive()
}

/// A day in Dutch long form, as letters write it: "17 november 2026".
pub fn dutch_date(day: chrono::NaiveDate) -> String {
    use chrono::Datelike;
    const MONTHS: [&str; 12] =
        ["januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober", "november", "december"];
    format!("{} {} {}", day.day(), MONTHS[day.month0() as usize], day.year())
}

/// The last day of a period of `months` months that starts on `start`.
pub fn period_end(start: NaiveDate, months: u32) -> NaiveDate {
    start.checked_add_months(Months::new(months)).and_then(|d| d.checked_sub_days(Days::new(1))).unwrap_or(start)
}

/// Why a call about subscriptions is refused, in Dutch.
#[derive(Debug, thiserror::Error)]
pub enum SubscriptionError {
    /// 400: the request is not right (a billing message, 'Kortingscode onjuist', ...).
    #[error("{0}")]
    Invalid(&'static str),
    /// 404: nothing of the user's by that id.
    #[error("{0}")]
    NotFound(&'static str),
    /// 409: the state does not allow it (a second trial, a seat twice).
    #[error("{0}")]
    Conflict(&'static str),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

// ---------------------------------------------------------------------------------------------
// Tiers and discounts

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Tier {
    pub id: Uuid,
    pub name: String,
    pub description: String,
    pub is_trial: bool,
    pub is_individual: bool,
    pub most_popular: bool,
    pub price_per_user_month: i64,
    pub price_per_user_year: i64,
    pub features: String,
    pub trial_days: Option<i32>,
}

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

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Discount {
    pub id: Uuid,
    pub tier_id: Uuid,
    pub discount_code: String,
    pub discount_price: i64,
    pub title: String,
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

// ---------------------------------------------------------------------------------------------
// Billing details

/// The billing dialog's details (spec §3 "Billing payment details"). The price the client shows
/// (`pricePerUser`) is not taken: the server computes it from the tier, interval, users and
/// discount.
#[derive(Debug, Clone, Default)]
pub struct BillingDetails {
    pub contact_name: String,
    pub practice_name: String,
    pub send_invoice_to_email: String,
    pub phone_number: String,
    pub street_address: String,
    pub house_number: String,
    pub house_number_addition: String,
    pub postcode: String,
    pub city: String,
    pub kvk_number: String,
    pub tier_id: Uuid,
    pub user_amount: i32,
    pub interval_months: i32,
    pub discount_id: Option<Uuid>,
}

/// A postcode as four digits and two letters (`1234AB`): spaces anywhere are allowed and
/// dropped, letters are made upper case. `None` when it is not one.
pub fn normalise_postcode(raw: &str) -> Option<String> {
    let compact: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
    let bytes = compact.as_bytes();
    let valid = bytes.len() == 6 && bytes[..4].iter().all(u8::is_ascii_digit) && bytes[4..].iter().all(u8::is_ascii_alphabetic);
    valid.then(|| compact.to_ascii_uppercase())
}

/// Checks the billing details in the spec's order (§5) and returns them trimmed, the postcode as
/// `1234AB`. The first failure is the answer.
pub fn validate_billing(details: &BillingDetails) -> Result<BillingDetails, SubscriptionError> {
    let mut d = details.clone();
    for field in [
        &mut d.contact_name,
        &mut d.practice_name,
        &mut d.send_invoice_to_email,
        &mut d.phone_number,
        &mut d.street_address,
        &mut d.house_number,
        &mut d.house_number_addition,
        &mut d.postcode,
        &mut d.city,
        &mut d.kvk_number,
    ] {
        *field = field.trim().to_owned();
    }
    let required = [
        (d.contact_name.as_str(), "Geen naam ingevuld"),
        (d.phone_number.as_str(), "Geen telefoonnummer ingevuld"),
        (d.street_address.as_str(), "Geen straatnaaam ingevuld"),
        (d.house_number.as_str(), "Geen huisnummer ingevuld"),
    ];
    for (value, message) in required {
        if value.is_empty() {
            return Err(SubscriptionError::Invalid(message));
        }
    }
    if d.postcode.is_empty() {
        return Err(SubscriptionError::Invalid("Geen postcode ingevuld"));
    }
    d.postcode =
        normalise_postcode(&d.postcode).ok_or(SubscriptionError::Invalid("Ongeldige postcode. Vul postcode in volgens bijv. '1234AB'"))?;
    if d.city.is_empty() {
        return Err(SubscriptionError::Invalid("Geen plaatsnaam ingevuld"));
    }
    if d.send_invoice_to_email.is_empty() {
        return Err(SubscriptionError::Invalid("Geen email ingevuld"));
    }
    if !looks_like_email(&d.send_invoice_to_email) {
        return Err(SubscriptionError::Invalid("Ongeldig e-mailadres voor de factuur."));
    }
    let lengths = [
        &d.contact_name,
        &d.practice_name,
        &d.send_invoice_to_email,
        &d.phone_number,
        &d.street_address,
        &d.house_number,
        &d.house_number_addition,
        &d.city,
        &d.kvk_number,
    ];
    if lengths.iter().any(|v| v.chars().count() > MAX_FIELD) {
        return Err(SubscriptionError::Invalid("Een van de factuurgegevens is te lang (hoogstens 200 tekens)."));
    }
    Ok(d)
}

/// One `@` with something on both sides and no white space.
pub fn looks_like_email(s: &str) -> bool {
    match s.split_once('@') {
        Some((local, domain)) => !local.is_empty() && !domain.is_empty() && !domain.contains('@') && !s.chars().any(char::is_whitespace),
        None => false,
    }
}

// ---------------------------------------------------------------------------------------------
// Quotes

/// What a choice of tier, interval, users and discount costs.
#[derive(Debug, Clone)]
pub struct Quote {
    pub tier: Tier,
    pub user_amount: i32,
    pub interval_months: i32,
    pub price_per_user: i64,
    pub amount: i64,
    pub discount: Option<Discount>,
    /// For the subscription, the payment and the provider: no health data.
    pub description: String,
}

/// Prices a choice on the server: an individual tier has one user; a discount only for its own
/// tier, an individual non-trial tier, monthly billing (§5).
pub async fn quote(conn: &mut PgConnection, d: &BillingDetails) -> Result<Quote, SubscriptionError> {
    let tier = tier(&mut *conn, d.tier_id).await?.ok_or(SubscriptionError::Invalid("Onbekend abonnement gekozen."))?;
    if d.interval_months != 1 && d.interval_months != 12 {
        return Err(SubscriptionError::Invalid("Kies maandelijks of jaarlijks betalen."));
    }
    let user_amount = if tier.is_individual { 1 } else { d.user_amount };
    if !(1..=MAX_USERS).contains(&user_amount) {
        return Err(SubscriptionError::Invalid("Vul een aantal gebruikers van 1 tot en met 1000 in."));
    }
    let discount = match d.discount_id {
        None => None,
        Some(id) => {
            let row =
                sqlx::query("select id, tier_id, code, price::int8 as price, title from subscription_discounts where id = $1 and active")
                    .bind(id)
                    .fetch_optional(&mut *conn)
                    .await?;
            let discount = row.as_ref().map(discount_of).ok_or(SubscriptionError::Invalid(DISCOUNT_INVALID))?;
            let allowed = discount.tier_id == tier.id && tier.is_individual && !tier.is_trial && d.interval_months == 1;
            if !allowed {
                return Err(SubscriptionError::Invalid(DISCOUNT_INVALID));
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

// ---------------------------------------------------------------------------------------------
// A pending subscription and its first payment

#[derive(Debug, Clone)]
pub struct Pending {
    pub subscription_id: Uuid,
    pub payment_id: Uuid,
    pub idempotency_key: String,
    pub quote: Quote,
}

/// Validates the details, prices them, and writes an inactive subscription with its OPEN first
/// payment (billing details on the payment) in one transaction. Trial tiers are not paid for.
pub async fn create_pending(db: &PgPool, user_id: &str, details: &BillingDetails, provider: &str) -> Result<Pending, SubscriptionError> {
    let d = validate_billing(details)?;
    let mut tx = db.begin().await?;
    let quote = quote(&mut tx, &d).await?;
    if quote.tier.is_trial {
        return Err(SubscriptionError::Invalid("Een proefabonnement wordt niet betaald; activeer het als proefabonnement."));
    }
    let subscription_id = Uuid::new_v4();
    let payment_id = Uuid::new_v4();
    let idempotency_key = format!("first:{payment_id}");
    sqlx::query(
        "insert into subscriptions (id, user_id, tier_id, description, is_active, is_trial, is_individual, user_amount,
                                    interval_months, price_per_user, amount, discount_id)
         values ($1, $2, $3, $4, false, false, $5, $6, $7, $8, $9, $10)",
    )
    .bind(subscription_id)
    .bind(user_id)
    .bind(quote.tier.id)
    .bind(&quote.description)
    .bind(quote.tier.is_individual)
    .bind(quote.user_amount)
    .bind(quote.interval_months)
    .bind(quote.price_per_user as i32)
    .bind(quote.amount as i32)
    .bind(quote.discount.as_ref().map(|x| x.id))
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "insert into payments (id, user_id, subscription_id, description, user_amount, amount_cents, interval_months,
                               is_first_payment, sequence_type, provider, idempotency_key, discount_id,
                               send_invoice_to_email, practice_name, contact_name, street_address, house_number,
                               house_number_addition, postcode, city, phone_number, kvk_number)
         values ($1, $2, $3, $4, $5, $6, $7, true, 'first', $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)",
    )
    .bind(payment_id)
    .bind(user_id)
    .bind(subscription_id)
    .bind(&quote.description)
    .bind(quote.user_amount)
    .bind(quote.amount as i32)
    .bind(quote.interval_months)
    .bind(provider)
    .bind(&idempotency_key)
    .bind(quote.discount.as_ref().map(|x| x.id))
    .bind(&d.send_invoice_to_email)
    .bind(&d.practice_name)
    .bind(&d.contact_name)
    .bind(&d.street_address)
    .bind(&d.house_number)
    .bind(&d.house_number_addition)
    .bind(&d.postcode)
    .bind(&d.city)
    .bind(&d.phone_number)
    .bind(&d.kvk_number)
    .execute(&mut *tx)
    .await?;
    sqlx::query("update subscriptions set first_payment_id = $1 where id = $2")
        .bind(payment_id)
        .bind(subscription_id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(Pending { subscription_id, payment_id, idempotency_key, quote })
}

/// The provider's customer of a user, if one was made.
pub async fn provider_customer(db: &PgPool, user_id: &str, provider: &str) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar("select customer_id from payment_customers where user_id = $1 and provider = $2")
        .bind(user_id)
        .bind(provider)
        .fetch_optional(db)
        .await
}

/// Keeps the provider's customer of a user; when two calls raced, the first one's stays and is
/// returned.
pub async fn save_provider_customer(db: &PgPool, user_id: &str, provider: &str, customer_id: &str) -> sqlx::Result<String> {
    sqlx::query_scalar(
        "insert into payment_customers (user_id, provider, customer_id) values ($1, $2, $3)
         on conflict (user_id, provider) do update set customer_id = payment_customers.customer_id
         returning customer_id",
    )
    .bind(user_id)
    .bind(provider)
    .bind(customer_id)
    .fetch_one(db)
    .await
}

/// Records what the provider made of a payment: its id, customer and checkout address.
pub async fn record_provider_payment(
    db: &PgPool,
    payment_id: Uuid,
    provider_payment_id: &str,
    customer_id: Option<&str>,
    checkout_url: Option<&str>,
) -> sqlx::Result<()> {
    sqlx::query(
        "update payments set provider_payment_id = $2, provider_customer_id = $3, checkout_url = $4, updated_at = now()
          where id = $1",
    )
    .bind(payment_id)
    .bind(provider_payment_id)
    .bind(customer_id)
    .bind(checkout_url)
    .execute(db)
    .await?;
    Ok(())
}

/// A payment the provider could not make: it fails at once (it can never be paid).
pub async fn fail_unsent_payment(db: &PgPool, payment_id: Uuid) -> sqlx::Result<()> {
    sqlx::query(
        "update payments set status = 'FAILED', updated_at = now() where id = $1 and status = 'OPEN' and provider_payment_id is null",
    )
    .bind(payment_id)
    .execute(db)
    .await?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Applying a provider's status

/// What hearing a provider's status did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Applied {
    pub payment_id: Uuid,
    pub from: PaymentStatus,
    pub to: PaymentStatus,
    /// The status moved forward.
    pub changed: bool,
    /// The subscription was activated (first payment) or extended (renewal).
    pub activated: bool,
    pub valid_until: Option<NaiveDate>,
}

/// Moves our payment with the provider's id forward to `status` (never back), and when it becomes
/// PAID activates its subscription: a first payment for its interval from `today`, a renewal
/// from the day after `validUntil` (or today, when that has passed). The payment's row is locked
/// (`for update`) for the whole change, so concurrent deliveries of the same webhook make one
/// transition and one activation. `None`: no payment of ours has that id.
pub async fn apply_provider_status(
    db: &PgPool,
    provider_payment_id: &str,
    status: PaymentStatus,
    mandate_id: Option<&str>,
    today: NaiveDate,
) -> sqlx::Result<Option<Applied>> {
    let mut tx = db.begin().await?;
    let applied = apply_provider_status_in(&mut tx, provider_payment_id, status, mandate_id, today).await?;
    tx.commit().await?;
    Ok(applied)
}

/// [`apply_provider_status`] inside the caller's transaction (which then also holds the
/// payment's row lock), so what the change causes can be written with it.
pub async fn apply_provider_status_in(
    tx: &mut PgConnection,
    provider_payment_id: &str,
    status: PaymentStatus,
    mandate_id: Option<&str>,
    today: NaiveDate,
) -> sqlx::Result<Option<Applied>> {
    let Some(row) = sqlx::query(
        "select id, status, subscription_id, user_id, provider, is_first_payment, interval_months
           from payments where provider_payment_id = $1 for update",
    )
    .bind(provider_payment_id)
    .fetch_optional(&mut *tx)
    .await?
    else {
        return Ok(None);
    };
    let payment_id: Uuid = row.get("id");
    let from = PaymentStatus::parse(row.get::<&str, _>("status")).unwrap_or(PaymentStatus::Open);
    let Some(to) = payments::transition(from, status) else {
        return Ok(Some(Applied { payment_id, from, to: from, changed: false, activated: false, valid_until: None }));
    };
    sqlx::query("update payments set status = $2, mandate_id = coalesce($3, mandate_id), updated_at = now() where id = $1")
        .bind(payment_id)
        .bind(to.as_str())
        .bind(mandate_id)
        .execute(&mut *tx)
        .await?;
    let mut applied = Applied { payment_id, from, to, changed: true, activated: false, valid_until: None };
    if to == PaymentStatus::Paid {
        let subscription_id: Uuid = row.get("subscription_id");
        let first: bool = row.get("is_first_payment");
        let months = row.get::<i32, _>("interval_months") as u32;
        let sub = sqlx::query("select valid_until, canceled_at, discount_id from subscriptions where id = $1 for update")
            .bind(subscription_id)
            .fetch_one(&mut *tx)
            .await?;
        let valid_until: Option<NaiveDate> = sub.get("valid_until");
        let canceled: Option<DateTime<Utc>> = sub.get("canceled_at");
        let discount: Option<Uuid> = sub.get("discount_id");
        let start = match (first, valid_until) {
            (false, Some(until)) if until >= today => until.checked_add_days(Days::new(1)).unwrap_or(today),
            _ => today,
        };
        let end = period_end(start, months);
        sqlx::query(
            "update subscriptions set is_active = true, valid_until = $2,
                    next_payment_date = case when canceled_at is null then $3 else null end,
                    renew_without_discount_date = case when $4 and discount_id is not null then $3 else renew_without_discount_date end,
                    updated_at = now()
              where id = $1",
        )
        .bind(subscription_id)
        .bind(end)
        .bind(if canceled.is_none() { end.checked_add_days(Days::new(1)) } else { None })
        .bind(first && discount.is_some())
        .execute(&mut *tx)
        .await?;
        sqlx::query("update payments set period_start = $2, period_end = $3, paid_at = now() where id = $1")
            .bind(payment_id)
            .bind(start)
            .bind(end)
            .execute(&mut *tx)
            .await?;
        if let Some(mandate) = mandate_id {
            sqlx::query("update payment_customers set mandate_id = $3 where user_id = $1 and provider = $2")
                .bind(row.get::<&str, _>("user_id"))
                .bind(row.get::<&str, _>("provider"))
                .bind(mandate)
                .execute(&mut *tx)
                .await?;
        }
        applied.activated = true;
        applied.valid_until = Some(end);
    }
    Ok(Some(applied))
}

// ---------------------------------------------------------------------------------------------
// Trials

/// Activates the trial tier for `user_id`, once per user ever: the row in `trial_uses` (its
/// primary key is the user) is written in the same transaction, so of concurrent calls one wins
/// and the others get 'Gebruiker heeft al eens een proefabonnement geactiveerd'.
pub async fn create_trial(db: &PgPool, user_id: &str, details: &BillingDetails, today: NaiveDate) -> Result<Uuid, SubscriptionError> {
    let d = validate_billing(details)?;
    let mut tx = db.begin().await?;
    let tier = tier(&mut tx, d.tier_id).await?.ok_or(SubscriptionError::Invalid("Onbekend abonnement gekozen."))?;
    if !tier.is_trial {
        return Err(SubscriptionError::Invalid("Dit abonnement is geen proefabonnement."));
    }
    let first = sqlx::query("insert into trial_uses (user_id) values ($1) on conflict (user_id) do nothing")
        .bind(user_id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    if first == 0 {
        return Err(SubscriptionError::Conflict(TRIAL_USED));
    }
    let id = Uuid::new_v4();
    let end = today.checked_add_days(Days::new(tier.trial_days.unwrap_or(14).max(1) as u64 - 1)).unwrap_or(today);
    sqlx::query(
        "insert into subscriptions (id, user_id, tier_id, description, is_active, is_trial, is_individual, user_amount,
                                    interval_months, price_per_user, amount, valid_until)
         values ($1, $2, $3, $4, true, true, true, 1, 1, 0, 0, $5)",
    )
    .bind(id)
    .bind(user_id)
    .bind(tier.id)
    .bind(format!("Spreekkamer {} (proefabonnement)", tier.name))
    .bind(end)
    .execute(&mut *tx)
    .await?;
    sqlx::query("update trial_uses set subscription_id = $2 where user_id = $1").bind(user_id).bind(id).execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(id)
}

// ---------------------------------------------------------------------------------------------
// Reading

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LinkedSeat {
    pub id: Uuid,
    pub email_address: Option<String>,
    pub user_id: Option<String>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Subscription {
    pub id: Uuid,
    pub tier_id: Uuid,
    pub description: String,
    /// Active and not past `validUntil` (end of day, Europe/Amsterdam).
    pub is_active: bool,
    pub is_trial: bool,
    pub is_individual: bool,
    pub user_amount: i32,
    pub interval_months: i32,
    pub price_per_user: i64,
    pub amount: i64,
    pub valid_until: Option<NaiveDate>,
    pub created_at: DateTime<Utc>,
    pub canceled_at: Option<DateTime<Utc>>,
    pub next_payment_date: Option<NaiveDate>,
    pub renew_subscription_without_discount_date: Option<NaiveDate>,
    pub discount_id: Option<Uuid>,
    pub first_payment_id: Option<Uuid>,
    /// Linked users may be added and removed: an active paid subscription of a non-individual tier.
    pub can_link_users: bool,
    pub linked_subscriptions: Vec<LinkedSeat>,
}

/// Whether users may be linked to a subscription (the spec leaves the rule out; this is ours).
pub fn can_link(is_active: bool, is_trial: bool, is_individual: bool) -> bool {
    is_active && !is_trial && !is_individual
}

/// The user's own subscriptions, newest first, with their seats.
pub async fn for_user(db: &PgPool, user_id: &str, today: NaiveDate) -> sqlx::Result<Vec<Subscription>> {
    let rows = sqlx::query(
        "select id, tier_id, description, is_active and valid_until is not null and valid_until >= $2 as active, is_trial, is_individual,
                user_amount, interval_months, price_per_user::int8 as price_per_user, amount::int8 as amount, valid_until, created_at,
                canceled_at, next_payment_date, renew_without_discount_date, discount_id, first_payment_id
           from subscriptions where user_id = $1 order by created_at desc, id",
    )
    .bind(user_id)
    .bind(today)
    .fetch_all(db)
    .await?;
    let ids: Vec<Uuid> = rows.iter().map(|r| r.get("id")).collect();
    let seats = sqlx::query(
        "select id, subscription_id, email, user_id from linked_subscriptions where subscription_id = any($1) order by created_at, id",
    )
    .bind(&ids)
    .fetch_all(db)
    .await?;
    Ok(rows
        .iter()
        .map(|r| {
            let id: Uuid = r.get("id");
            let is_active: bool = r.get("active");
            let is_trial: bool = r.get("is_trial");
            let is_individual: bool = r.get("is_individual");
            Subscription {
                id,
                tier_id: r.get("tier_id"),
                description: r.get("description"),
                is_active,
                is_trial,
                is_individual,
                user_amount: r.get("user_amount"),
                interval_months: r.get("interval_months"),
                price_per_user: r.get("price_per_user"),
                amount: r.get("amount"),
                valid_until: r.get("valid_until"),
                created_at: r.get("created_at"),
                canceled_at: r.get("canceled_at"),
                next_payment_date: r.get("next_payment_date"),
                renew_subscription_without_discount_date: r.get("renew_without_discount_date"),
                discount_id: r.get("discount_id"),
                first_payment_id: r.get("first_payment_id"),
                can_link_users: can_link(is_active, is_trial, is_individual),
                linked_subscriptions: seats
                    .iter()
                    .filter(|s| s.get::<Uuid, _>("subscription_id") == id)
                    .map(|s| LinkedSeat { id: s.get("id"), email_address: s.get("email"), user_id: s.get("user_id") })
                    .collect(),
            }
        })
        .collect())
}

/// A subscription of someone else that the user holds a seat on (spec "Trial/other subscription").
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OtherSubscription {
    pub id: Uuid,
    pub description: String,
    pub active: bool,
    pub start_date: NaiveDate,
    pub valid_until: Option<NaiveDate>,
}

/// Subscriptions of others with a seat for this user (by account or by e-mail address).
pub async fn linked_for_user(db: &PgPool, user_id: &str, email: &str, today: NaiveDate) -> sqlx::Result<Vec<OtherSubscription>> {
    let rows = sqlx::query(
        "select distinct s.id, s.description, s.is_active and s.valid_until is not null and s.valid_until >= $3 as active,
                (s.created_at at time zone 'Europe/Amsterdam')::date as start_date, s.valid_until, s.created_at
           from linked_subscriptions l join subscriptions s on s.id = l.subscription_id
          where l.user_id = $1 or (l.email is not null and l.email = lower($2))
          order by s.created_at desc",
    )
    .bind(user_id)
    .bind(email)
    .bind(today)
    .fetch_all(db)
    .await?;
    Ok(rows
        .iter()
        .map(|r| OtherSubscription {
            id: r.get("id"),
            description: r.get("description"),
            active: r.get("active"),
            start_date: r.get("start_date"),
            valid_until: r.get("valid_until"),
        })
        .collect())
}

/// Whether the user may use the product through a subscription of their own or a seat on one.
pub async fn has_active(db: &PgPool, user_id: &str, email: &str, today: NaiveDate) -> sqlx::Result<bool> {
    sqlx::query_scalar(
        "select exists (
            select 1 from subscriptions s
             where s.is_active and s.valid_until >= $3
               and (s.user_id = $1 or exists (select 1 from linked_subscriptions l where l.subscription_id = s.id
                                               and (l.user_id = $1 or (l.email is not null and l.email = lower($2))))))",
    )
    .bind(user_id)
    .bind(email)
    .bind(today)
    .fetch_one(db)
    .await
}

/// The Dutch refusal of a consult, summary, upload or template call without a subscription.
pub const SUBSCRIPTION_REQUIRED: &str =
    "Je hebt geen actief abonnement. Sluit een abonnement af of activeer je proefabonnement onder Abonnementen.";

/// The gate of the consult and template features (spec §2.1; clinical spec §6): an active
/// subscription of the user's own or a seat on one ([`has_active`]), or an active organisation
/// subscription ([`has_active_organisation`]). Most users pass on the first query.
pub async fn may_use_product(db: &PgPool, user_id: &str, email: &str, today: NaiveDate) -> sqlx::Result<bool> {
    Ok(has_active(db, user_id, email, today).await? || has_active_organisation(db, user_id, email, today).await?)
}

/// An organisation subscription as the user page shows it.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrganisationSubscription {
    pub id: Uuid,
    pub active: bool,
    pub start_date: Option<NaiveDate>,
    pub valid_until: Option<NaiveDate>,
    pub description: String,
}

/// The columns of an [`OrganisationSubscription`]: active means switched on and not past its day.
static ORGANISATION_COLUMNS: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("o.id, o.description, {} as active, o.start_date, o.valid_until", organisation_active("$3")));

/// Which organisation subscriptions `o` are a user's: the SQL condition for the user's id and
/// e-mail address as SQL expressions (`$1`, or `u.id` in a list of users).
pub(crate) fn organisation_filter(user_id: &str, email: &str) -> String {
    format!(
        "(o.user_id = {user_id} or (o.user_email is not null and o.user_email = lower({email}))
     or o.level_id in (select level_id from organisation_members where user_id = {user_id})
     or o.organisation_id in (select l.organisation_id from organisation_levels l
                               join organisation_members m on m.level_id = l.id where m.user_id = {user_id}))"
    )
}

/// Whether organisation subscription `o` counts on `today` (an SQL expression): switched on,
/// started and not past its day.
pub(crate) fn organisation_active(today: &str) -> String {
    format!("o.is_active and (o.valid_until is null or o.valid_until >= {today}) and (o.start_date is null or o.start_date <= {today})")
}

static ORGANISATION_FILTER: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| organisation_filter("$1", "$2"));

/// Organisation subscriptions that name the user, their e-mail address, a level they belong to or
/// that level's main organisation.
pub async fn organisation_for_user(
    db: &PgPool,
    user_id: &str,
    email: &str,
    today: NaiveDate,
) -> sqlx::Result<Vec<OrganisationSubscription>> {
    sqlx::query_as(&format!(
        "select {ORGANISATION_COLUMNS}
           from organisation_subscriptions o where {filter} order by o.valid_until desc nulls first, o.id",
        ORGANISATION_COLUMNS = *ORGANISATION_COLUMNS,
        filter = *ORGANISATION_FILTER
    ))
    .bind(user_id)
    .bind(email)
    .bind(today)
    .fetch_all(db)
    .await
}

pub async fn has_active_organisation(db: &PgPool, user_id: &str, email: &str, today: NaiveDate) -> sqlx::Result<bool> {
    sqlx::query_scalar(&format!(
        "select exists (select 1 from organisation_subscriptions o where {active} and {filter})",
        active = organisation_active("$3"),
        filter = *ORGANISATION_FILTER
    ))
    .bind(user_id)
    .bind(email)
    .bind(today)
    .fetch_one(db)
    .await
}

/// Organisation subscriptions of one level (practice) or main organisation the user belongs to.
pub async fn for_organisation(
    db: &PgPool,
    user_id: &str,
    organisation_id: Uuid,
    today: NaiveDate,
) -> sqlx::Result<Vec<OrganisationSubscription>> {
    sqlx::query_as(&format!(
        "select {ORGANISATION_COLUMNS}
           from organisation_subscriptions o
          where (o.level_id = $2 or o.organisation_id = $2)
            and exists (select 1 from organisation_members m join organisation_levels l on l.id = m.level_id
                         where m.user_id = $1 and (l.id = $2 or l.organisation_id = $2))
          order by o.valid_until desc nulls first, o.id",
        ORGANISATION_COLUMNS = *ORGANISATION_COLUMNS
    ))
    .bind(user_id)
    .bind(organisation_id)
    .bind(today)
    .fetch_all(db)
    .await
}

/// A payment as its owner sees it (spec §3 Payment).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Payment {
    pub id: Uuid,
    pub subscription_id: Uuid,
    pub description: String,
    pub user_amount: i32,
    /// Gross, in cents.
    pub amount: i64,
    pub payment_status: PaymentStatus,
    pub created_at: DateTime<Utc>,
    pub interval_months: i32,
    pub moneybird_invoice_id: Option<String>,
    pub moneybird_contact_id: Option<String>,
    pub sales_invoices_url: Option<String>,
    pub send_invoice_to_email: String,
    pub is_first_payment: bool,
    pub practice_name: String,
    pub contact_name: String,
    pub street_address: String,
    pub house_number: String,
    pub house_number_addition: String,
    pub postcode: String,
    pub city: String,
    pub phone_number: String,
    pub kvk_number: String,
    /// The days this payment pays for (once paid).
    pub period_start: Option<NaiveDate>,
    pub period_end: Option<NaiveDate>,
}

pub async fn payments_for_user(db: &PgPool, user_id: &str) -> sqlx::Result<Vec<Payment>> {
    let rows = sqlx::query(
        "select id, subscription_id, description, user_amount, amount_cents::int8 as amount, status, created_at, interval_months,
                moneybird_invoice_id, moneybird_contact_id, sales_invoices_url, send_invoice_to_email, is_first_payment,
                practice_name, contact_name, street_address, house_number, house_number_addition, postcode, city,
                phone_number, kvk_number, period_start, period_end
           from payments where user_id = $1 order by created_at desc, id",
    )
    .bind(user_id)
    .fetch_all(db)
    .await?;
    Ok(rows
        .iter()
        .map(|r| Payment {
            id: r.get("id"),
            subscription_id: r.get("subscription_id"),
            description: r.get("description"),
            user_amount: r.get("user_amount"),
            amount: r.get("amount"),
            payment_status: PaymentStatus::parse(r.get::<&str, _>("status")).unwrap_or(PaymentStatus::Open),
            created_at: r.get("created_at"),
            interval_months: r.get("interval_months"),
            moneybird_invoice_id: r.get("moneybird_invoice_id"),
            moneybird_contact_id: r.get("moneybird_contact_id"),
            sales_invoices_url: r.get("sales_invoices_url"),
            send_invoice_to_email: r.get("send_invoice_to_email"),
            is_first_payment: r.get("is_first_payment"),
            practice_name: r.get("practice_name"),
            contact_name: r.get("contact_name"),
            street_address: r.get("street_address"),
            house_number: r.get("house_number"),
            house_number_addition: r.get("house_number_addition"),
            postcode: r.get("postcode"),
            city: r.get("city"),
            phone_number: r.get("phone_number"),
            kvk_number: r.get("kvk_number"),
            period_start: r.get("period_start"),
            period_end: r.get("period_end"),
        })
        .collect())
}

/// Whether the user's account was made before `before` (Europe/Amsterdam calendar day).
pub async fn is_early_adopter(db: &PgPool, user_id: &str, before: Option<NaiveDate>) -> sqlx::Result<bool> {
    let Some(before) = before else { return Ok(false) };
    let found: Option<bool> = sqlx::query_scalar("select (created_at at time zone 'Europe/Amsterdam')::date < $2 from users where id = $1")
        .bind(user_id)
        .bind(before)
        .fetch_optional(db)
        .await?;
    Ok(found.unwrap_or(false))
}

// ---------------------------------------------------------------------------------------------
// Changing

/// Ends renewals of the owner's active subscription: it stays usable until `validUntil`.
/// Cancelling a cancelled subscription again changes nothing.
pub async fn cancel(db: &PgPool, user_id: &str, subscription_id: Uuid, today: NaiveDate) -> Result<(), SubscriptionError> {
    let row = sqlx::query(
        "select canceled_at is not null as canceled, is_active and valid_until is not null and valid_until >= $3 as active
           from subscriptions where id = $1 and user_id = $2",
    )
    .bind(subscription_id)
    .bind(user_id)
    .bind(today)
    .fetch_optional(db)
    .await?
    .ok_or(SubscriptionError::NotFound(NOT_FOUND))?;
    if row.get::<bool, _>("canceled") {
        return Ok(());
    }
    if !row.get::<bool, _>("active") {
        return Err(SubscriptionError::Conflict("Dit abonnement is niet actief en kan niet worden opgezegd."));
    }
    sqlx::query(
        "update subscriptions set canceled_at = now(), next_payment_date = null, updated_at = now() where id = $1 and canceled_at is null",
    )
    .bind(subscription_id)
    .execute(db)
    .await?;
    Ok(())
}

/// A seat added: its id, the user it resolved to, and the fair-use warning when the seats now
/// outnumber the users paid for.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeatAdded {
    pub id: Uuid,
    pub email_address: String,
    pub user_id: Option<String>,
    /// The fair-use warning when the seats outnumber the users paid for.
    #[schema(value_type = Option<String>)]
    pub warning: Option<&'static str>,
}

/// Adds a seat by e-mail address (lower case) to the owner's subscription; when an account has
/// that address the seat names the account.
pub async fn add_linked(
    db: &PgPool,
    owner_id: &str,
    subscription_id: Uuid,
    email: &str,
    today: NaiveDate,
) -> Result<SeatAdded, SubscriptionError> {
    let email = email.trim().to_lowercase();
    if email.is_empty() {
        return Err(SubscriptionError::Invalid(NO_EMAIL));
    }
    if !looks_like_email(&email) || email.chars().count() > MAX_FIELD {
        return Err(SubscriptionError::Invalid("Ongeldig e-mail adres."));
    }
    let mut tx = db.begin().await?;
    let sub = sqlx::query(
        "select user_amount, is_trial, is_individual, is_active and valid_until is not null and valid_until >= $3 as active
           from subscriptions where id = $1 and user_id = $2 for update",
    )
    .bind(subscription_id)
    .bind(owner_id)
    .bind(today)
    .fetch_optional(&mut *tx)
    .await?
    .ok_or(SubscriptionError::NotFound(NOT_FOUND))?;
    if !can_link(sub.get("active"), sub.get("is_trial"), sub.get("is_individual")) {
        return Err(SubscriptionError::Conflict("Aan dit abonnement kunnen geen gebruikers worden gekoppeld."));
    }
    let user: Option<String> = sqlx::query_scalar("select id from users where lower(email) = $1 order by created_at limit 1")
        .bind(&email)
        .fetch_optional(&mut *tx)
        .await?;
    let id = Uuid::new_v4();
    let inserted = sqlx::query(
        "insert into linked_subscriptions (id, subscription_id, user_id, email)
         select $1, $2, $3, $4
          where not exists (select 1 from linked_subscriptions where subscription_id = $2 and (email = $4 or user_id = $3))",
    )
    .bind(id)
    .bind(subscription_id)
    .bind(&user)
    .bind(&email)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if inserted == 0 {
        return Err(SubscriptionError::Conflict("Gebruiker is al toegevoegd"));
    }
    let seats: i64 = sqlx::query_scalar("select count(*) from linked_subscriptions where subscription_id = $1")
        .bind(subscription_id)
        .fetch_one(&mut *tx)
        .await?;
    tx.commit().await?;
    let users: i32 = sub.get("user_amount");
    Ok(SeatAdded { id, email_address: email, user_id: user, warning: (seats > users as i64).then_some(FAIR_USE) })
}

/// Removes a seat from one of the owner's subscriptions.
pub async fn remove_linked(db: &PgPool, owner_id: &str, linked_id: Uuid) -> Result<(), SubscriptionError> {
    let removed = sqlx::query(
        "delete from linked_subscriptions l using subscriptions s
          where l.id = $1 and s.id = l.subscription_id and s.user_id = $2",
    )
    .bind(linked_id)
    .bind(owner_id)
    .execute(db)
    .await?
    .rows_affected();
    if removed == 0 {
        return Err(SubscriptionError::NotFound(CANNOT_REMOVE));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn details() -> BillingDetails {
        BillingDetails {
            contact_name: "Anne de Vries".into(),
            send_invoice_to_email: "factuur@praktijk.nl".into(),
            phone_number: "0201234567".into(),
            street_address: "Dorpsstraat".into(),
            house_number: "1".into(),
            postcode: "1234 ab".into(),
            city: "Amsterdam".into(),
            ..Default::default()
        }
    }

    fn message(d: &BillingDetails) -> Option<&'static str> {
        match validate_billing(d) {
            Ok(_) => None,
            Err(SubscriptionError::Invalid(m)) => Some(m),
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn billing_details_are_checked_in_the_spec_order() {
        let mut d = BillingDetails::default();
        /// The message a step's missing field gives, and how the step fills it in.
        type Step = (&'static str, fn(&mut BillingDetails));
        let steps: [Step; 8] = [
            ("Geen naam ingevuld", |d| d.contact_name = "Anne".into()),
            ("Geen telefoonnummer ingevuld", |d| d.phone_number = "0612345678".into()),
            ("Geen straatnaaam ingevuld", |d| d.street_address = "Dorpsstraat".into()),
            ("Geen huisnummer ingevuld", |d| d.house_number = "12".into()),
            ("Geen postcode ingevuld", |d| d.postcode = "12345".into()),
            ("Ongeldige postcode. Vul postcode in volgens bijv. '1234AB'", |d| d.postcode = "1234AB".into()),
            ("Geen plaatsnaam ingevuld", |d| d.city = "Utrecht".into()),
            ("Geen email ingevuld", |d| d.send_invoice_to_email = "a@b.nl".into()),
        ];
        for (expected, fix) in steps {
            assert_eq!(message(&d), Some(expected));
            fix(&mut d);
        }
        assert_eq!(message(&d), None);
        // white space alone is empty
        let mut blank = details();
        blank.city = "   ".into();
        assert_eq!(message(&blank), Some("Geen plaatsnaam ingevuld"));
    }

    #[test]
    fn postcodes_are_four_digits_and_two_letters_spaces_allowed() {
        assert_eq!(normalise_postcode("1234AB").as_deref(), Some("1234AB"));
        assert_eq!(normalise_postcode("1234 ab").as_deref(), Some("1234AB"));
        assert_eq!(normalise_postcode(" 12 34 a b ").as_deref(), Some("1234AB"));
        for bad in ["1234A", "1234ABC", "123AB", "ABCD12", "1234-AB", "1234ÄB", "12345B"] {
            assert_eq!(normalise_postcode(bad), None, "{bad}");
        }
        assert_eq!(validate_billing(&details()).unwrap().postcode, "1234AB");
    }

    #[test]
    fn optional_fields_may_be_empty_and_long_ones_are_refused() {
        let d = details();
        assert!(d.practice_name.is_empty() && d.house_number_addition.is_empty());
        assert_eq!(message(&d), None);
        let mut long = details();
        long.practice_name = "x".repeat(201);
        assert_eq!(message(&long), Some("Een van de factuurgegevens is te lang (hoogstens 200 tekens)."));
        let mut bad = details();
        bad.send_invoice_to_email = "geen adres".into();
        assert_eq!(message(&bad), Some("Ongeldig e-mailadres voor de factuur."));
    }

    #[test]
    fn periods_end_the_day_before_the_same_date_a_period_later() {
        let d = |y, m, day| NaiveDate::from_ymd_opt(y, m, day).unwrap();
        assert_eq!(period_end(d(2026, 11, 23), 1), d(2026, 12, 22));
        assert_eq!(period_end(d(2026, 11, 23), 12), d(2027, 11, 22));
        // 31 January + 1 month is 28 February (chrono clamps), so the period ends on 27 February
        assert_eq!(period_end(d(2027, 1, 31), 1), d(2027, 2, 27));
        assert_eq!(period_end(d(2028, 2, 29), 12), d(2029, 2, 27));
    }

    #[test]
    fn linking_needs_an_active_paid_non_individual_subscription() {
        assert!(can_link(true, false, false));
        assert!(!can_link(false, false, false));
        assert!(!can_link(true, true, false));
        assert!(!can_link(true, false, true));
    }
}

#[cfg(test)]
mod date_tests {
    use super::*;

    #[test]
    fn a_dutch_date_has_the_month_in_words() {
        let day = |y, m, d| chrono::NaiveDate::from_ymd_opt(y, m, d).unwrap();
        assert_eq!(dutch_date(day(2026, 11, 17)), "17 november 2026");
        assert_eq!(dutch_date(day(2027, 1, 1)), "1 januari 2027");
        assert_eq!(dutch_date(day(2026, 3, 31)), "31 maart 2026");
    }
}
