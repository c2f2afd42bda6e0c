//! Jobs told to staff in Dutch: what their payloads point at (payments, subscriptions, users),
//! looked up once for a page of jobs, so each kind's [`crate::kind::Job::describe`] can name
//! them ("Factuur voor betaling van anne@example.nl (…, € 121,00)").

use std::collections::HashMap;

use domain::billing::Cents;
use domain::billing::invoices::euros;
use serde_json::Value;
use sqlx::PgPool;
use uuid::Uuid;

/// What the payloads of a page of jobs point at ([`crate::kind::Job::wants`] adds to it).
#[derive(Debug, Default)]
pub struct Wanted {
    /// Our payment ids.
    pub payments: Vec<String>,
    /// The provider's payment ids.
    pub provider_payments: Vec<String>,
    pub subscriptions: Vec<Uuid>,
    pub users: Vec<String>,
}

/// A payment as staff recognise it.
#[derive(Debug, Clone)]
pub struct PaymentLine {
    pub email: String,
    pub description: String,
    pub amount_cents: Cents,
}

impl PaymentLine {
    pub fn text(&self) -> String {
        format!("betaling van {} ({}, {})", self.email, self.description, euros(self.amount_cents))
    }
}

/// What [`Wanted`] found.
#[derive(Debug, Default)]
pub struct Names {
    /// By our id and by the provider's.
    pub payments: HashMap<String, PaymentLine>,
    /// Description and owner's address.
    pub subscriptions: HashMap<Uuid, (String, String)>,
    /// Addresses.
    pub users: HashMap<String, String>,
}

impl Wanted {
    /// One of our payments, by its id.
    pub fn our_payment(&mut self, id: Uuid) {
        self.payments.push(id.to_string());
    }
}

impl Names {
    /// A payment by our id or the provider's.
    pub fn payment(&self, id: &str) -> Option<&PaymentLine> {
        self.payments.get(id)
    }

    /// One of our payments, by its id.
    pub fn our_payment(&self, id: Uuid) -> Option<&PaymentLine> {
        self.payment(&id.to_string())
    }

    pub fn user(&self, id: Option<&str>) -> Option<&str> {
        id.and_then(|id| self.users.get(id)).map(String::as_str)
    }

    /// Looks up everything wanted, one statement per table.
    pub async fn look_up(db: &PgPool, wanted: &Wanted) -> sqlx::Result<Names> {
        let mut out = Names::default();
        for r in sqlx::query!(
            r#"select p.id::text as "id!", p.provider_payment_id, u.email, p.description, p.amount_cents::int8 as "amount!: Cents"
               from payments p join users u on u.id = p.user_id where p.id::text = any($1) or p.provider_payment_id = any($2)"#,
            &wanted.payments,
            &wanted.provider_payments,
        )
        .fetch_all(db)
        .await?
        {
            let line = PaymentLine { email: r.email, description: r.description, amount_cents: r.amount };
            if let Some(provider) = r.provider_payment_id {
                out.payments.insert(provider, line.clone());
            }
            out.payments.insert(r.id, line);
        }
        for r in sqlx::query!(
            "select s.id, s.description, u.email from subscriptions s join users u on u.id = s.user_id where s.id = any($1)",
            &wanted.subscriptions,
        )
        .fetch_all(db)
        .await?
        {
            out.subscriptions.insert(r.id, (r.description, r.email));
        }
        for r in sqlx::query!("select id, email from users where id = any($1)", &wanted.users).fetch_all(db).await? {
            out.users.insert(r.id, r.email);
        }
        Ok(out)
    }
}

/// A count in a sweep's result; 0 when it is not there.
pub fn count(result: &Value, field: &str) -> i64 {
    result.get(field).and_then(Value::as_i64).unwrap_or(0)
}

/// `n` and the noun in the number it needs ("1 abonnement", "3 abonnementen").
pub fn plural(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
