//! Paying: a pending subscription with its OPEN first payment, the provider's customer of a user,
//! and what the provider made of a payment.

use sqlx::PgPool;
use uuid::Uuid;

use super::catalogue::quote;
use super::details::validate_billing;
use super::{BillingDetails, Quote};
use crate::refusal::Refusal;

#[derive(Debug, Clone)]
pub struct Pending {
    pub subscription_id: Uuid,
    pub payment_id: Uuid,
    pub idempotency_key: String,
    pub quote: Quote,
}

/// Validates the details, prices them, and writes an inactive subscription with its OPEN first
/// payment (billing details on the payment) in one transaction. Trial tiers are not paid for.
pub async fn create_pending(db: &PgPool, user_id: &str, details: &BillingDetails, provider: &str) -> Result<Pending, Refusal> {
    let d = validate_billing(details)?;
    let mut tx = db.begin().await?;
    let quote = quote(&mut tx, &d).await?;
    if quote.tier.is_trial {
        return Err(Refusal::Invalid("Een proefabonnement wordt niet betaald; activeer het als proefabonnement."));
    }
    let subscription_id = Uuid::new_v4();
    let payment_id = Uuid::new_v4();
    let idempotency_key = format!("first:{payment_id}");
    sqlx::query!(
        "insert into subscriptions (id, user_id, tier_id, description, is_active, is_trial, is_individual, user_amount,
                                    interval_months, price_per_user, amount, discount_id)
         values ($1, $2, $3, $4, false, false, $5, $6, $7, $8, $9, $10)",
        subscription_id,
        user_id,
        quote.tier.id,
        quote.description,
        quote.tier.is_individual,
        quote.user_amount,
        quote.interval_months,
        quote.price_per_user.to_column(),
        quote.amount.to_column(),
        quote.discount.as_ref().map(|x| x.id)
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!(
        "insert into payments (id, user_id, subscription_id, description, user_amount, amount_cents, interval_months,
                               is_first_payment, sequence_type, provider, idempotency_key, discount_id,
                               send_invoice_to_email, practice_name, contact_name, street_address, house_number,
                               house_number_addition, postcode, city, phone_number, kvk_number)
         values ($1, $2, $3, $4, $5, $6, $7, true, 'first', $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)",
        payment_id,
        user_id,
        subscription_id,
        quote.description,
        quote.user_amount,
        quote.amount.to_column(),
        quote.interval_months,
        provider,
        idempotency_key,
        quote.discount.as_ref().map(|x| x.id),
        d.send_invoice_to_email,
        d.address.practice_name,
        d.address.contact_name,
        d.address.street_address,
        d.address.house_number,
        d.address.house_number_addition,
        d.address.postcode,
        d.address.city,
        d.address.phone_number,
        d.address.kvk_number
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!("update subscriptions set first_payment_id = $1 where id = $2", payment_id, subscription_id).execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(Pending { subscription_id, payment_id, idempotency_key, quote })
}

/// The provider's customer of a user, if one was made.
pub async fn provider_customer(db: &PgPool, user_id: &str, provider: &str) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!("select customer_id from payment_customers where user_id = $1 and provider = $2", user_id, provider)
        .fetch_optional(db)
        .await
}

/// Keeps the provider's customer of a user; when two calls raced, the first one's stays and is
/// returned.
pub async fn save_provider_customer(db: &PgPool, user_id: &str, provider: &str, customer_id: &str) -> sqlx::Result<String> {
    sqlx::query_scalar!(
        "insert into payment_customers (user_id, provider, customer_id) values ($1, $2, $3)
         on conflict (user_id, provider) do update set customer_id = payment_customers.customer_id
         returning customer_id",
        user_id,
        provider,
        customer_id
    )
    .fetch_one(db)
    .await
}

/// Records what the provider made of a payment, in one statement: its id, customer, checkout
/// address (a first payment's; a renewal has none) and when the provider lets it expire while
/// open (its `expiresAt`, so the page can show an abandoned payment as expired before the
/// provider's status reaches us).
pub async fn record_provider_payment(
    db: &PgPool,
    payment_id: Uuid,
    provider_payment_id: &str,
    customer_id: Option<&str>,
    checkout_url: Option<&str>,
    expires_at: Option<chrono::DateTime<chrono::Utc>>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "update payments set provider_payment_id = $2, provider_customer_id = $3, checkout_url = $4, expires_at = $5, updated_at = now()
          where id = $1",
        payment_id,
        provider_payment_id,
        customer_id,
        checkout_url,
        expires_at
    )
    .execute(db)
    .await?;
    Ok(())
}

/// A payment the provider could not make: it fails at once (it can never be paid).
pub async fn fail_unsent_payment(db: &PgPool, payment_id: Uuid) -> sqlx::Result<()> {
    sqlx::query!(
        "update payments set status = 'FAILED', updated_at = now() where id = $1 and status = 'OPEN' and provider_payment_id is null",
        payment_id
    )
    .execute(db)
    .await?;
    Ok(())
}
