//! The local checkout: a payment provider inside our own database, for machines without a Mollie
//! key (never in production). It keeps what Mollie would keep for a payment in
//! `local_checkout_payments`; a payment's checkout address is the api's page
//! `/payment/checkout/{id}?key=<its key>`, where the user picks the outcome (`paid`, `failed`,
//! `expired`, `canceled`). The key is made with the payment and only its buyer's browser is sent
//! there (as Mollie's own checkout addresses are unguessable); without it the page is not found.
//! The page then calls our webhook with `id=<payment id>`, as Mollie does, so the rest of the
//! system cannot tell the two apart. A `first` payment that is paid gets a mandate;
//! a `recurring` payment on a mandate is charged (paid) at once.
//!
//! As at Mollie, an open payment expires: 15 minutes after it was made
//! (`local_checkout_expires_at`) it reads as `expired` and the page no longer takes a choice;
//! until then it can be canceled ([`PaymentProvider::cancel_payment`]). Every statement that
//! reads or changes a payment's status uses the same two SQL functions (a migration's),
//! `local_checkout_status` and `local_checkout_open`.

use domain::billing::Cents;
use futures::future::BoxFuture;
use serde_json::json;
use sqlx::PgPool;

use super::{NewCustomer, NewPayment, PaymentError, PaymentProvider, ProviderPayment, SequenceType};

/// The outcomes the checkout page offers.
pub const OUTCOMES: [&str; 4] = ["paid", "failed", "expired", "canceled"];

pub struct LocalCheckout {
    db: PgPool,
    /// The api's public URL; checkout pages are below it.
    base: url::Url,
}

fn unavailable(e: sqlx::Error) -> PaymentError {
    PaymentError::Unavailable(format!("local checkout: {e}"))
}

/// The page's address for a payment with its key.
pub fn checkout_path(id: &str, key: &str) -> String {
    let key: String = url::form_urlencoded::byte_serialize(key.as_bytes()).collect();
    format!("/payment/checkout/{id}?key={key}")
}

/// A payment's checkout key: 256 random bits, as hex.
fn new_key() -> String {
    format!("{}{}", uuid::Uuid::new_v4().simple(), uuid::Uuid::new_v4().simple())
}

impl LocalCheckout {
    pub fn new(db: PgPool, base: url::Url) -> Self {
        Self { db, base }
    }

    fn checkout_url(&self, id: &str, key: &str) -> String {
        let path = checkout_path(id, key);
        self.base.join(path.trim_start_matches('/')).map(|u| u.to_string()).unwrap_or(path)
    }

    async fn read(&self, id: &str) -> Result<ProviderPayment, PaymentError> {
        let row = sqlx::query!(
            r#"select id, local_checkout_status(status, created_at) as "status!",
                      amount_cents::int8 as "amount!: Cents", customer_id, mandate_id, metadata->>'paymentId' as payment_id,
                      amount_refunded_cents::int8 as "refunded!: Cents", amount_charged_back_cents::int8 as "charged_back!: Cents",
                      coalesce(checkout_key, '') as "checkout_key!", local_checkout_expires_at(created_at) as "expires_at!"
                 from local_checkout_payments where id = $1"#,
            id,
        )
        .fetch_optional(&self.db)
        .await
        .map_err(unavailable)?
        .ok_or(PaymentError::NotFound)?;
        let status = row.status;
        Ok(ProviderPayment {
            checkout_url: (status == "open").then(|| self.checkout_url(&row.id, &row.checkout_key)),
            id: row.id,
            amount_cents: row.amount,
            customer_id: Some(row.customer_id),
            mandate_id: row.mandate_id,
            payment_id: row.payment_id,
            amount_refunded_cents: row.refunded,
            amount_charged_back_cents: row.charged_back,
            is_cancelable: status == "open",
            expires_at: (status == "open").then_some(row.expires_at),
            status,
        })
    }
}

/// A payment as the checkout page shows it.
#[derive(Debug, Clone)]
pub struct CheckoutPayment {
    pub id: String,
    pub amount_cents: Cents,
    pub description: String,
    pub status: String,
    pub redirect_url: Option<String>,
    /// Its key, part of the page's address.
    pub key: String,
}

/// The payment the page `/payment/checkout/{id}?key=...` shows: `None` for an unknown id or a
/// key that is not the payment's.
pub async fn find(db: &PgPool, id: &str, key: &str) -> sqlx::Result<Option<CheckoutPayment>> {
    sqlx::query_as!(
        CheckoutPayment,
        r#"select id, amount_cents::int8 as "amount_cents!: Cents", description, redirect_url, checkout_key as "key!",
                  local_checkout_status(status, created_at) as "status!"
             from local_checkout_payments where id = $1 and checkout_key = $2"#,
        id,
        key,
    )
    .fetch_optional(db)
    .await
}

/// The user's choice on the page: an open payment that has not expired takes `outcome` (a paid
/// first payment gets a mandate). Returns the webhook to call, or `None` when the payment was no
/// longer open (a second click, or one after it expired, changes nothing and calls nothing).
pub async fn choose(db: &PgPool, id: &str, outcome: &str) -> sqlx::Result<Option<Option<String>>> {
    debug_assert!(OUTCOMES.contains(&outcome));
    let mandate = format!("lmdt_{}", ulid::Ulid::generate().to_string().to_lowercase());
    sqlx::query_scalar!(
        "update local_checkout_payments
            set status = $2, updated_at = now(),
                mandate_id = case when $2 = 'paid' and sequence_type = 'first' then $3 else mandate_id end
          where id = $1 and local_checkout_open(status, created_at)
         returning webhook_url",
        id,
        outcome,
        mandate,
    )
    .fetch_optional(db)
    .await
}

impl PaymentProvider for LocalCheckout {
    fn name(&self) -> &'static str {
        "local"
    }

    fn create_customer<'a>(&'a self, _customer: &'a NewCustomer) -> BoxFuture<'a, Result<String, PaymentError>> {
        Box::pin(async move { Ok(format!("lcst_{}", ulid::Ulid::generate().to_string().to_lowercase())) })
    }

    fn create_payment<'a>(&'a self, p: &'a NewPayment) -> BoxFuture<'a, Result<ProviderPayment, PaymentError>> {
        Box::pin(async move {
            let id = format!("ltr_{}", ulid::Ulid::generate().to_string().to_lowercase());
            // a recurring payment is charged on its mandate at once
            let (status, mandate) = match p.sequence_type {
                SequenceType::First => ("open", None),
                SequenceType::Recurring => {
                    if p.mandate_id.is_none() {
                        return Err(PaymentError::Refused {
                            status: 422,
                            title: "Unprocessable Entity".into(),
                            detail: "A recurring payment needs a mandate".into(),
                            field: Some("mandateId".into()),
                        });
                    }
                    ("paid", p.mandate_id.clone())
                }
            };
            let inserted: Option<String> = sqlx::query_scalar!(
                "insert into local_checkout_payments
                    (id, customer_id, amount_cents, description, sequence_type, status, redirect_url, webhook_url, metadata, idempotency_key, mandate_id,
                     checkout_key)
                 values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
                 on conflict (idempotency_key) do nothing
                 returning id",
                &id,
                &p.customer_id,
                p.amount_cents.to_column(),
                &p.description,
                p.sequence_type.as_str(),
                status,
                p.redirect_url.as_deref(),
                p.webhook_url.as_deref(),
                json!({"paymentId": p.payment_id}),
                &p.idempotency_key,
                mandate,
                new_key(),
            )
            .fetch_optional(&self.db)
            .await
            .map_err(unavailable)?;
            let id = match inserted {
                Some(id) => id,
                // the same key again: the payment made the first time, as Mollie's replay
                None => sqlx::query_scalar!("select id from local_checkout_payments where idempotency_key = $1", &p.idempotency_key)
                    .fetch_one(&self.db)
                    .await
                    .map_err(unavailable)?,
            };
            self.read(&id).await
        })
    }

    fn get_payment<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<ProviderPayment, PaymentError>> {
        Box::pin(self.read(id))
    }

    fn cancel_payment<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<ProviderPayment, PaymentError>> {
        Box::pin(async move {
            let canceled = sqlx::query!(
                "update local_checkout_payments set status = 'canceled', updated_at = now() where id = $1 and local_checkout_open(status, created_at)",
                id,
            )
            .execute(&self.db)
            .await
            .map_err(unavailable)?
            .rows_affected();
            let payment = self.read(id).await?;
            if canceled == 0 {
                // as Mollie's 422 for a payment that is no longer cancelable
                return Err(PaymentError::Refused {
                    status: 422,
                    title: "Unprocessable Entity".into(),
                    detail: format!("The payment cannot be canceled (it is {})", payment.status),
                    field: None,
                });
            }
            Ok(payment)
        })
    }
}
