//! Our side of the bookkeeping: which paid payments need a contact, an invoice or a credit
//! invoice, what those state, and recording what the provider made.
//!
//! The lines are held by the database: one contact per user and provider (`bookkeeping_contacts`'
//! primary key), one invoice per payment (a unique index on `invoices (payment_id)` for
//! invoices) and one credit invoice or reversal per change of the reported refund total (its
//! reference is unique). The jobs that make them take [`lock_payment`] for the time they talk to
//! the provider, so two of them for the same payment (the webhook's and a staff button's) never
//! ask the provider at once.

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

/// A payment with this status and amount gets an invoice: paid, with an amount (zero amounts
/// never do).
pub fn needs_invoice(status: PaymentStatus, amount: Cents) -> bool {
    status == PaymentStatus::Paid && amount > Cents::ZERO
}

impl BillablePayment {
    /// Paid with an amount: it gets an invoice ([`needs_invoice`]).
    pub fn needs_invoice(&self) -> bool {
        needs_invoice(self.status, self.amount_cents)
    }

    /// Refunded and charged back together, at most the amount paid.
    pub fn to_credit_cents(&self) -> Cents {
        (self.refunded_cents + self.charged_back_cents).min(self.amount_cents)
    }

    /// The provider's id of the transaction (`tr_...`), else ours.
    fn transaction_id(&self) -> String {
        self.provider_payment_id.clone().unwrap_or_else(|| self.id.to_string())
    }

    /// The invoice this payment gets: one line with its users and period, paid on the day it was
    /// paid.
    pub fn invoice_draft(&self) -> InvoiceDraft {
        let date = self.paid_on.unwrap_or_else(crate::billing::today);
        InvoiceDraft {
            kind: InvoiceKind::Invoice,
            reference: crate::billing::invoices::reference(self.id),
            date,
            buyer: self.buyer.clone(),
            lines: vec![InvoiceLine {
                description: self.description.clone(),
                quantity: self.user_amount,
                gross_cents: self.amount_cents,
                period: self.period,
            }],
            paid: Some(Settlement { date, gross_cents: self.amount_cents, transaction_id: self.transaction_id() }),
            credits: None,
        }
    }

    /// The next document on the way from what the books credit (`credits.booked`) to `total`
    /// cents, with the invoice it refers to and the credited total after it: a credit invoice of
    /// `original` for all that grew; when the total went down (a refund cancelled, a chargeback
    /// reversed), a reversal of the latest credit invoice still standing, for as much of it as
    /// goes (the next standing one takes the rest, latest first). `None` when the books are at
    /// `total`, or (never in books we wrote) lower with no credit invoice standing.
    pub fn credit_draft(
        &self,
        original: &Invoice,
        credits: &CreditState,
        total: Cents,
        today: NaiveDate,
    ) -> Option<(InvoiceDraft, Uuid, Cents)> {
        let (kind, refers_to, after, description) = if total > credits.booked {
            (InvoiceKind::Credit, original, total, format!("Terugbetaling: {}", self.description))
        } else if total < credits.booked {
            let (credit, standing) = credits.standing.as_ref()?;
            let after = credits.booked - (credits.booked - total).min(*standing);
            (InvoiceKind::Reversal, credit, after, format!("Terugbetaling ingetrokken: {}", self.description))
        } else {
            return None;
        };
        let gross_cents = credits.booked - after;
        let draft = InvoiceDraft {
            kind,
            reference: crate::billing::invoices::credit_reference(self.id, kind, after, credits.reversals),
            date: today,
            buyer: self.buyer.clone(),
            lines: vec![InvoiceLine { description, quantity: 1, gross_cents, period: self.period }],
            // the money went back (a refund or chargeback: negative) or stays after all (a
            // reversal), through the provider's transaction of the payment
            paid: Some(Settlement { date: today, gross_cents, transaction_id: self.transaction_id() }),
            credits: Some(Credits {
                number: refers_to.number.clone(),
                provider_invoice_id: refers_to.provider_invoice_id.clone(),
                date: refers_to.issued_on,
            }),
        };
        Some((draft, refers_to.id, after))
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
            kind: InvoiceKind::from_stored(&r.kind),
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

/// Where a payment's credits stand in the books.
#[derive(Debug, Clone, Default)]
pub struct CreditState {
    /// What its credit invoices and reversals credit together now (the total of the latest).
    pub booked: Cents,
    /// Its reversals so far (they number the references, [`crate::billing::invoices::credit_reference`]).
    pub reversals: i64,
    /// Its latest credit invoice not wholly reversed yet, and how much of it stands: what the
    /// next reversal undoes.
    pub standing: Option<(Invoice, Cents)>,
}

/// Where the payment's credits stand: read under its bookkeeping lock ([`lock_payment`]).
pub async fn credit_state(conn: &mut PgConnection, payment_id: Uuid) -> sqlx::Result<CreditState> {
    let counted = sqlx::query!(
        r#"select coalesce((select credited_total_cents from invoices where payment_id = $1 and kind <> 'invoice'
                              order by created_at desc, id desc limit 1), 0)::int8 as "booked!: Cents",
                  (select count(*) from invoices where payment_id = $1 and kind = 'reversal') as "reversals!""#,
        payment_id,
    )
    .fetch_one(&mut *conn)
    .await?;
    let standing = sqlx::query!(
        r#"select c.id, (-c.amount_cents - coalesce(r.reversed, 0))::int8 as "standing!: Cents"
             from invoices c
             left join lateral (select sum(amount_cents) as reversed from invoices r where r.credit_of = c.id and r.kind = 'reversal') r on true
            where c.payment_id = $1 and c.kind = 'credit' and -c.amount_cents > coalesce(r.reversed, 0)
            order by c.created_at desc, c.id desc limit 1"#,
        payment_id,
    )
    .fetch_optional(&mut *conn)
    .await?;
    let standing = match standing {
        Some(s) => Some((select_invoices!("where id = $1", s.id).fetch_one(&mut *conn).await?.into(), s.standing)),
        None => None,
    };
    Ok(CreditState { booked: counted.booked, reversals: counted.reversals, standing })
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
        // clock_timestamp(): the documents one job makes in one transaction keep their order
        "insert into invoices (id, payment_id, kind, provider, reference, provider_invoice_id, number, credit_of, amount_cents,
                               credited_total_cents, url, issued_on, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, clock_timestamp())
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

/// A change of what a payment's books must credit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RefundChange {
    pub payment_id: Uuid,
    /// Counts the changes of the total refunded and charged back (the credit work of each is its
    /// own job, which reads the total itself).
    pub version: i32,
}

/// Notes the refunds and chargebacks the provider reports now on our payment
/// `provider_payment_id`, as reported: they grow with a refund or a chargeback and go down when a
/// refund is cancelled or a chargeback reversed. Answers the change when the total to credit
/// changed.
pub async fn record_refunds(
    tx: &mut PgConnection,
    provider_payment_id: &str,
    refunded_cents: Cents,
    charged_back_cents: Cents,
) -> sqlx::Result<Option<RefundChange>> {
    let row = sqlx::query!(
        r#"update payments p
            set amount_refunded_cents = $2, amount_charged_back_cents = $3,
                refunds_version = p.refunds_version
                  + (least($2::int8 + $3::int8, p.amount_cents) <> least(p.amount_refunded_cents::int8 + p.amount_charged_back_cents, p.amount_cents))::int,
                updated_at = now()
           from payments old
          where p.id = old.id and p.provider_payment_id = $1
            and ($2 <> p.amount_refunded_cents or $3 <> p.amount_charged_back_cents)
          returning p.id, least(p.amount_refunded_cents::int8 + p.amount_charged_back_cents, p.amount_cents)::int8 as "total!: Cents",
                    least(old.amount_refunded_cents::int8 + old.amount_charged_back_cents, old.amount_cents)::int8 as "before!: Cents",
                    p.refunds_version"#,
        provider_payment_id,
        refunded_cents.to_column(),
        charged_back_cents.to_column(),
    )
    .fetch_optional(&mut *tx)
    .await?;
    Ok(row.and_then(|r| (r.total != r.before).then_some(RefundChange { payment_id: r.id, version: r.refunds_version })))
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
        let booked = |cents, reversals, standing: Option<(&Invoice, i64)>| CreditState {
            booked: Cents(cents),
            reversals,
            standing: standing.map(|(i, c)| (i.clone(), Cents(c))),
        };
        let (credit, of, after) = payment(7800, 3000, 0).credit_draft(&original, &booked(1000, 0, None), Cents(3000), draft.date).unwrap();
        assert_eq!((credit.kind, credit.gross_cents(), of, after), (InvoiceKind::Credit, Cents(-2000), original.id, Cents(3000)));
        assert_eq!(credit.credits.as_ref().unwrap().number, "2026-00001");
        assert!(credit.reference.ends_with("-C3000"));
        // the refund paid out through the payment's transaction, as its own settlement
        assert_eq!(credit.paid, Some(Settlement { date: draft.date, gross_cents: Cents(-2000), transaction_id: "tr_1".into() }));
        assert!(payment(7800, 3000, 0).credit_draft(&original, &booked(3000, 0, None), Cents(3000), draft.date).is_none());

        // the refund of 30,00 is cancelled: a reversal of the credit invoice, never an edit of it
        let credited = Invoice {
            id: Uuid::from_u128(2),
            kind: InvoiceKind::Credit,
            number: "2026-00002".into(),
            amount_cents: Cents(-3000),
            credited_total_cents: Some(Cents(3000)),
            ..original.clone()
        };
        let (reversal, of, after) =
            payment(7800, 0, 0).credit_draft(&original, &booked(3000, 0, Some((&credited, 3000))), Cents(0), draft.date).unwrap();
        assert_eq!((reversal.kind, reversal.gross_cents(), of, after), (InvoiceKind::Reversal, Cents(3000), credited.id, Cents(0)));
        assert_eq!(reversal.credits.as_ref().unwrap().number, "2026-00002");
        assert_eq!(reversal.paid.as_ref().map(|p| p.gross_cents), Some(Cents(3000)));
        assert!(reversal.reference.ends_with("-R0-1"), "{}", reversal.reference);
        assert!(reversal.lines[0].description.starts_with("Terugbetaling ingetrokken: "));
        // a fall larger than the latest credit's standing part reverses that part first
        let (part, _, after) =
            payment(7800, 0, 0).credit_draft(&original, &booked(5000, 0, Some((&credited, 2000))), Cents(0), draft.date).unwrap();
        assert_eq!((part.gross_cents(), after), (Cents(2000), Cents(3000)));
        // refunded again: a new credit invoice with a reference of its own
        let (again, _, _) = payment(7800, 3000, 0).credit_draft(&original, &booked(0, 1, None), Cents(3000), draft.date).unwrap();
        assert_eq!((again.kind, again.gross_cents()), (InvoiceKind::Credit, Cents(-3000)));
        assert!(again.reference.ends_with("-C3000-1"), "{}", again.reference);
        // a chargeback on top of a refund never credits more than was paid
        assert_eq!(payment(7800, 5000, 7800).to_credit_cents(), Cents(7800));
    }
}
