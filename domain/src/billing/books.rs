//! Our side of the bookkeeping: which paid payments need a contact, an invoice or a credit
//! invoice, what those state, and recording what the provider made.
//!
//! The lines are held by the database: one contact per user and provider (`bookkeeping_contacts`'
//! primary key), one invoice per payment (a unique index on `invoices (payment_id)` for
//! invoices) and one credit invoice per reported refund total (its reference is unique). The jobs
//! that make them take [`lock_payment`] for the time they talk to the provider, so two of them
//! for the same payment (the webhook's and a staff button's) never ask the provider at once.

use chrono::NaiveDate;
use serde::Serialize;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::billing::invoices::{Buyer, Credits, InvoiceDraft, InvoiceKind, InvoiceLine, Settlement};
use crate::billing::status::PaymentStatus;
use crate::billing::{Cents, TIME_ZONE, address_of};

/// A payment as the bookkeeping needs it.
#[derive(Debug, Clone)]
pub struct BillablePayment {
    pub id: Uuid,
    pub user_id: String,
    pub status: PaymentStatus,
    pub description: String,
    pub user_amount: i64,
    pub amount_cents: Cents,
    pub is_first_payment: bool,
    pub provider_payment_id: Option<String>,
    pub period: Option<(NaiveDate, NaiveDate)>,
    /// The day it was paid (Europe/Amsterdam).
    pub paid_on: Option<NaiveDate>,
    pub refunded_cents: Cents,
    pub charged_back_cents: Cents,
    pub buyer: Buyer,
}

impl BillablePayment {
    /// Paid with an amount: it gets an invoice (zero amounts never do).
    pub fn needs_invoice(&self) -> bool {
        self.status == PaymentStatus::Paid && self.amount_cents > Cents::ZERO
    }

    /// Refunded and charged back together, at most the amount paid.
    pub fn to_credit_cents(&self) -> Cents {
        (self.refunded_cents + self.charged_back_cents).min(self.amount_cents)
    }

    /// The invoice this payment gets: one line with its users and period, paid on the day it was
    /// paid.
    pub fn invoice_draft(&self) -> InvoiceDraft {
        let date = self.paid_on.unwrap_or_else(crate::billing::today);
        InvoiceDraft {
            kind: InvoiceKind::Invoice,
            reference: crate::billing::invoices::reference(self.id, None),
            date,
            buyer: self.buyer.clone(),
            lines: vec![InvoiceLine {
                description: self.description.clone(),
                quantity: self.user_amount,
                gross_cents: self.amount_cents,
                period: self.period,
            }],
            paid: Some(Settlement {
                date,
                gross_cents: self.amount_cents,
                transaction_id: self.provider_payment_id.clone().unwrap_or_else(|| self.id.to_string()),
            }),
            credits: None,
        }
    }

    /// The credit invoice that brings what is credited from `already` to `total` cents.
    pub fn credit_draft(&self, original: &Invoice, already: Cents, total: Cents, today: NaiveDate) -> InvoiceDraft {
        InvoiceDraft {
            kind: InvoiceKind::Credit,
            reference: crate::billing::invoices::reference(self.id, Some(total)),
            date: today,
            buyer: self.buyer.clone(),
            lines: vec![InvoiceLine {
                description: format!("Terugbetaling: {}", self.description),
                quantity: 1,
                gross_cents: -(total - already),
                period: self.period,
            }],
            paid: None,
            credits: Some(Credits {
                number: original.number.clone(),
                provider_invoice_id: original.provider_invoice_id.clone(),
                date: original.issued_on,
            }),
        }
    }
}

/// A payment's row as [`payment`] reads it.
struct PaymentRow {
    id: Uuid,
    user_id: String,
    status: PaymentStatus,
    description: String,
    user_amount: i64,
    amount: Cents,
    is_first_payment: bool,
    provider_payment_id: Option<String>,
    period_start: Option<NaiveDate>,
    period_end: Option<NaiveDate>,
    paid_on: Option<NaiveDate>,
    refunded: Cents,
    charged_back: Cents,
    send_invoice_to_email: String,
    contact_name: String,
    practice_name: String,
    phone_number: String,
    street_address: String,
    house_number: String,
    house_number_addition: String,
    postcode: String,
    city: String,
    kvk_number: String,
}

impl From<PaymentRow> for BillablePayment {
    fn from(r: PaymentRow) -> Self {
        let address = address_of!(r);
        BillablePayment {
            id: r.id,
            status: r.status,
            description: r.description,
            user_amount: r.user_amount,
            amount_cents: r.amount,
            is_first_payment: r.is_first_payment,
            provider_payment_id: r.provider_payment_id,
            period: r.period_start.zip(r.period_end),
            paid_on: r.paid_on,
            refunded_cents: r.refunded,
            charged_back_cents: r.charged_back,
            buyer: Buyer { customer_id: r.user_id.clone(), email: r.send_invoice_to_email, address },
            user_id: r.user_id,
        }
    }
}

/// The payment `id`, `None` when there is none.
pub async fn payment(db: impl sqlx::PgExecutor<'_>, id: Uuid) -> sqlx::Result<Option<BillablePayment>> {
    let row = sqlx::query_as!(
        PaymentRow,
        r#"select id, user_id, status as "status: PaymentStatus", description, user_amount::int8 as "user_amount!",
                amount_cents::int8 as "amount!: Cents", is_first_payment, provider_payment_id, period_start, period_end,
                (paid_at at time zone $2)::date as "paid_on?",
                amount_refunded_cents::int8 as "refunded!: Cents", amount_charged_back_cents::int8 as "charged_back!: Cents",
                practice_name, contact_name, street_address, house_number, house_number_addition, postcode, city,
                phone_number, send_invoice_to_email, kvk_number
           from payments where id = $1"#,
        id,
        TIME_ZONE.name(),
    )
    .fetch_optional(db)
    .await?;
    Ok(row.map(BillablePayment::from))
}

/// Takes the payment's bookkeeping lock until `tx` ends: contact, invoice and credit jobs of one
/// payment talk to the provider one at a time.
pub async fn lock_payment(tx: &mut PgConnection, payment_id: Uuid) -> sqlx::Result<()> {
    // `$1::uuid::text`: the parameter is the payment's uuid, written as text in the key.
    sqlx::query!("select pg_advisory_xact_lock(hashtextextended('bookkeeping:' || $1::uuid::text, 0))", payment_id).execute(tx).await?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Contacts

/// The user's contact at `provider`, if one was made.
pub async fn contact(db: impl sqlx::PgExecutor<'_>, user_id: &str, provider: &str) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar!("select contact_id from bookkeeping_contacts where user_id = $1 and provider = $2", user_id, provider)
        .fetch_optional(db)
        .await
}

/// Records the user's contact (the first one recorded stays) and notes it on the payment;
/// answers the contact that stays.
pub async fn record_contact(
    tx: &mut PgConnection,
    payment_id: Uuid,
    user_id: &str,
    provider: &str,
    contact_id: &str,
) -> sqlx::Result<String> {
    sqlx::query!(
        "insert into bookkeeping_contacts (user_id, provider, contact_id) values ($1, $2, $3) on conflict do nothing",
        user_id,
        provider,
        contact_id,
    )
    .execute(&mut *tx)
    .await?;
    let kept = contact(&mut *tx, user_id, provider).await?.unwrap_or_else(|| contact_id.to_owned());
    sqlx::query!(
        "update payments set moneybird_contact_id = $2, updated_at = now() where id = $1 and moneybird_contact_id is distinct from $2",
        payment_id,
        kept,
    )
    .execute(&mut *tx)
    .await?;
    Ok(kept)
}

// ---------------------------------------------------------------------------------------------
// Invoices

/// An invoice as recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Invoice {
    pub id: Uuid,
    pub payment_id: Uuid,
    pub kind: InvoiceKind,
    pub provider: String,
    pub reference: String,
    pub provider_invoice_id: String,
    pub number: String,
    pub amount_cents: Cents,
    pub credited_total_cents: Option<Cents>,
    pub url: Option<String>,
    pub issued_on: NaiveDate,
}

/// An invoice's row as the selects below read it.
struct InvoiceRow {
    id: Uuid,
    payment_id: Uuid,
    kind: String,
    provider: String,
    reference: String,
    provider_invoice_id: String,
    number: String,
    amount_cents: Cents,
    credited_total_cents: Option<Cents>,
    url: Option<String>,
    issued_on: NaiveDate,
}

impl From<InvoiceRow> for Invoice {
    fn from(r: InvoiceRow) -> Self {
        Invoice {
            id: r.id,
            payment_id: r.payment_id,
            kind: if r.kind == "credit" { InvoiceKind::Credit } else { InvoiceKind::Invoice },
            provider: r.provider,
            reference: r.reference,
            provider_invoice_id: r.provider_invoice_id,
            number: r.number,
            amount_cents: r.amount_cents,
            credited_total_cents: r.credited_total_cents,
            url: r.url,
            issued_on: r.issued_on,
        }
    }
}

/// Invoices selected by `$tail` (a string literal: `where ...`) with `$args` bound, as
/// [`InvoiceRow`]s.
macro_rules! select_invoices {
    ($tail:tt $(, $args:expr)* $(,)?) => {
        sqlx::query_as!(
            InvoiceRow,
            r#"select id, payment_id, kind, provider, reference, provider_invoice_id, number, amount_cents::int8 as "amount_cents!: Cents",
                      credited_total_cents::int8 as "credited_total_cents?: Cents", url, issued_on
                 from invoices "# + $tail,
            $($args),*
        )
    };
}

/// The payment's invoice (not its credit invoices), if it has one.
pub async fn invoice_of_payment(db: impl sqlx::PgExecutor<'_>, payment_id: Uuid) -> sqlx::Result<Option<Invoice>> {
    select_invoices!("where payment_id = $1 and kind = 'invoice'", payment_id).fetch_optional(db).await.map(|r| r.map(Invoice::from))
}

/// What the payment's credit invoices credit together.
pub async fn credited_cents(db: impl sqlx::PgExecutor<'_>, payment_id: Uuid) -> sqlx::Result<Cents> {
    sqlx::query_scalar!(
        r#"select coalesce(max(credited_total_cents), 0)::int8 as "credited!: Cents" from invoices where payment_id = $1 and kind = 'credit'"#,
        payment_id,
    )
    .fetch_one(db)
    .await
}

/// What the provider made for a draft.
#[derive(Debug, Clone)]
pub struct Made<'a> {
    pub provider: &'a str,
    pub provider_invoice_id: &'a str,
    pub number: &'a str,
    pub url: Option<&'a str>,
}

/// Records the invoice the provider made for `draft` (for a credit invoice: crediting `credit_of`
/// up to `credited_total`), once: a second record of the same payment's invoice or of the same
/// reference changes nothing. Answers the invoice that stays, and whether this call recorded it.
pub async fn record_invoice(
    tx: &mut PgConnection,
    payment_id: Uuid,
    draft: &InvoiceDraft,
    made: &Made<'_>,
    credit_of: Option<(Uuid, Cents)>,
) -> sqlx::Result<(Invoice, bool)> {
    let inserted = sqlx::query!(
        "insert into invoices (id, payment_id, kind, provider, reference, provider_invoice_id, number, credit_of, amount_cents,
                               credited_total_cents, url, issued_on)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         on conflict do nothing",
        Uuid::new_v4(),
        payment_id,
        draft.kind.as_str(),
        made.provider,
        draft.reference,
        made.provider_invoice_id,
        made.number,
        credit_of.map(|(id, _)| id),
        draft.gross_cents().to_column(),
        credit_of.map(|(_, total)| total.to_column()),
        made.url,
        draft.date,
    )
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    let kept: Invoice = select_invoices!(
        "where reference = $1 or (payment_id = $2 and kind = 'invoice' and $3)",
        draft.reference,
        payment_id,
        draft.kind == InvoiceKind::Invoice,
    )
    .fetch_one(&mut *tx)
    .await?
    .into();
    if kept.kind == InvoiceKind::Invoice {
        sqlx::query!(
            "update payments set moneybird_invoice_id = $2, sales_invoices_url = $3, updated_at = now()
              where id = $1 and moneybird_invoice_id is distinct from $2",
            payment_id,
            kept.provider_invoice_id,
            kept.url,
        )
        .execute(&mut *tx)
        .await?;
    }
    Ok((kept, inserted))
}

/// Notes refunds and chargebacks the provider reports on our payment `provider_payment_id` (they
/// only grow). Answers the payment's id and the total to credit when that total grew.
pub async fn record_refunds(
    tx: &mut PgConnection,
    provider_payment_id: &str,
    refunded_cents: Cents,
    charged_back_cents: Cents,
) -> sqlx::Result<Option<(Uuid, Cents)>> {
    let row = sqlx::query!(
        r#"update payments p
            set amount_refunded_cents = greatest(p.amount_refunded_cents, $2),
                amount_charged_back_cents = greatest(p.amount_charged_back_cents, $3),
                updated_at = now()
           from payments old
          where p.id = old.id and p.provider_payment_id = $1
            and ($2 > p.amount_refunded_cents or $3 > p.amount_charged_back_cents)
          returning p.id, least(p.amount_refunded_cents + p.amount_charged_back_cents, p.amount_cents)::int8 as "total!: Cents",
                    least(old.amount_refunded_cents + old.amount_charged_back_cents, old.amount_cents)::int8 as "before!: Cents""#,
        provider_payment_id,
        refunded_cents.to_column(),
        charged_back_cents.to_column(),
    )
    .fetch_optional(&mut *tx)
    .await?;
    Ok(row.and_then(|r| (r.total > r.before).then_some((r.id, r.total))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::billing::Address;

    fn payment(amount: i64, refunded: i64, charged_back: i64) -> BillablePayment {
        BillablePayment {
            id: Uuid::nil(),
            user_id: "u".into(),
            status: PaymentStatus::Paid,
            description: "Spreekkamer Praktijk (2 gebruikers, maandelijks)".into(),
            user_amount: 2,
            amount_cents: Cents(amount),
            is_first_payment: true,
            provider_payment_id: Some("tr_1".into()),
            period: None,
            paid_on: NaiveDate::from_ymd_opt(2026, 11, 25),
            refunded_cents: Cents(refunded),
            charged_back_cents: Cents(charged_back),
            buyer: Buyer {
                customer_id: "u".into(),
                address: Address {
                    practice_name: String::new(),
                    contact_name: "A".into(),
                    street_address: String::new(),
                    house_number: String::new(),
                    house_number_addition: String::new(),
                    postcode: String::new(),
                    city: String::new(),
                    phone_number: String::new(),
                    kvk_number: String::new(),
                },
                email: String::new(),
            },
        }
    }

    #[test]
    fn zero_amounts_and_unpaid_payments_get_no_invoice() {
        assert!(payment(7800, 0, 0).needs_invoice());
        assert!(!payment(0, 0, 0).needs_invoice());
        let mut open = payment(7800, 0, 0);
        open.status = PaymentStatus::Open;
        assert!(!open.needs_invoice());
    }

    #[test]
    fn the_invoice_is_the_payment_to_the_cent_and_a_credit_the_difference() {
        let p = payment(7800, 0, 0);
        let draft = p.invoice_draft();
        assert_eq!(draft.gross_cents(), Cents(7800));
        assert_eq!(draft.lines[0].quantity, 2);
        assert_eq!(draft.paid.as_ref().unwrap().transaction_id, "tr_1");
        let original = Invoice {
            id: Uuid::nil(),
            payment_id: Uuid::nil(),
            kind: InvoiceKind::Invoice,
            provider: "local".into(),
            reference: draft.reference.clone(),
            provider_invoice_id: "li_1".into(),
            number: "2026-00001".into(),
            amount_cents: Cents(7800),
            credited_total_cents: None,
            url: None,
            issued_on: draft.date,
        };
        let credit = payment(7800, 3000, 0).credit_draft(&original, Cents(1000), Cents(3000), draft.date);
        assert_eq!(credit.gross_cents(), Cents(-2000));
        assert_eq!(credit.credits.as_ref().unwrap().number, "2026-00001");
        assert!(credit.reference.ends_with("-C3000"));
        // a chargeback on top of a refund never credits more than was paid
        assert_eq!(payment(7800, 5000, 7800).to_credit_cents(), Cents(7800));
    }
}
