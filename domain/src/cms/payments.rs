//! Betalingen: every payment with its bookkeeping state, and the invoice details staff may edit.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sqlx::postgres::PgRow;
use sqlx::{PgConnection, PgPool, Row};
use uuid::Uuid;

use super::CmsError;
use crate::payments::PaymentStatus;
use crate::subscriptions::{BillingDetails, SubscriptionError, validate_billing};

pub const PAYMENT_NOT_FOUND: &str = "Betaling niet gevonden";

/// What the Betalingen tab offers for a payment's bookkeeping (spec §2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum BookkeepingState {
    /// 'Moneybird contact maken': a paid first payment whose user has no bookkeeping contact.
    MakeContact,
    /// 'Factuur maken': paid, a contact, no invoice yet.
    MakeInvoice,
    /// The green check: paid, with its invoice.
    Done,
    /// A zero amount needs no invoice.
    NotNeeded,
    /// The red cross: anything else (not paid, or paid without a contact on a later payment).
    None,
}

/// The spec's rule for the bookkeeping cell.
pub fn bookkeeping_state(
    status: PaymentStatus,
    amount_cents: i64,
    is_first: bool,
    has_contact: bool,
    has_invoice: bool,
) -> BookkeepingState {
    if amount_cents == 0 {
        return BookkeepingState::NotNeeded;
    }
    if status != PaymentStatus::Paid {
        return BookkeepingState::None;
    }
    if has_invoice {
        BookkeepingState::Done
    } else if has_contact {
        BookkeepingState::MakeInvoice
    } else if is_first {
        BookkeepingState::MakeContact
    } else {
        BookkeepingState::None
    }
}

/// The payment's latest bookkeeping job, while it is under way or went wrong.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentJob {
    pub id: Uuid,
    pub kind: String,
    pub state: crate::jobs::JobState,
}

/// A payment as the CMS shows it (spec §3 Payment, with its user, invoice and bookkeeping).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CmsPayment {
    pub id: Uuid,
    pub user_id: String,
    pub user_email: String,
    pub subscription_id: Uuid,
    pub description: String,
    pub user_amount: i32,
    /// Gross, in cents.
    pub amount_cents: i64,
    pub payment_status: PaymentStatus,
    pub created_at: DateTime<Utc>,
    pub paid_at: Option<DateTime<Utc>>,
    pub interval_months: i32,
    pub is_first_payment: bool,
    /// The user's bookkeeping contact (Moneybird's, or the local bookkeeping's).
    pub contact_id: Option<String>,
    pub invoice_id: Option<Uuid>,
    /// The number on the invoice.
    pub invoice_number: Option<String>,
    pub bookkeeping: BookkeepingState,
    /// A bookkeeping job of this payment that is waiting, running or went wrong.
    pub job: Option<PaymentJob>,
    pub send_invoice_to_email: String,
    pub practice_name: String,
    pub contact_name: String,
    pub street_address: String,
    pub house_number: String,
    pub house_number_addition: String,
    pub postcode: String,
    pub city: String,
    pub phone_number: String,
    pub kvk_number: String,
}

const SELECT: &str = "select p.id, p.user_id, u.email as user_email, p.subscription_id, p.description, p.user_amount,
        p.amount_cents::int8 as amount_cents, p.status, p.created_at, p.paid_at, p.interval_months, p.is_first_payment,
        coalesce(p.moneybird_contact_id, (select c.contact_id from bookkeeping_contacts c where c.user_id = p.user_id
                                          order by c.created_at limit 1)) as contact_id,
        i.id as invoice_id, i.number as invoice_number, j.id as job_id, j.kind as job_kind, j.state as job_state,
        p.send_invoice_to_email, p.practice_name, p.contact_name, p.street_address, p.house_number, p.house_number_addition,
        p.postcode, p.city, p.phone_number, p.kvk_number
   from payments p join users u on u.id = p.user_id
   left join invoices i on i.payment_id = p.id and i.kind = 'invoice'
   left join lateral (select id, kind, state from jobs
                       where kind in ('create_contact', 'create_invoice', 'credit_invoice') and payload ->> 'paymentId' = p.id::text
                       order by created_at desc limit 1) j on j.state <> 'succeeded'";

fn of_row(r: &PgRow) -> CmsPayment {
    let status = PaymentStatus::parse(r.get::<&str, _>("status")).unwrap_or(PaymentStatus::Open);
    let amount_cents: i64 = r.get("amount_cents");
    let is_first_payment: bool = r.get("is_first_payment");
    let contact_id: Option<String> = r.get("contact_id");
    let invoice_id: Option<Uuid> = r.get("invoice_id");
    let job_id: Option<Uuid> = r.get("job_id");
    CmsPayment {
        id: r.get("id"),
        user_id: r.get("user_id"),
        user_email: r.get("user_email"),
        subscription_id: r.get("subscription_id"),
        description: r.get("description"),
        user_amount: r.get("user_amount"),
        amount_cents,
        payment_status: status,
        created_at: r.get("created_at"),
        paid_at: r.get("paid_at"),
        interval_months: r.get("interval_months"),
        is_first_payment,
        bookkeeping: bookkeeping_state(status, amount_cents, is_first_payment, contact_id.is_some(), invoice_id.is_some()),
        contact_id,
        invoice_id,
        invoice_number: r.get("invoice_number"),
        job: job_id.map(|id| PaymentJob {
            id,
            kind: r.get("job_kind"),
            state: crate::jobs::JobState::from_stored(r.get::<&str, _>("job_state")).unwrap_or(crate::jobs::JobState::Queued),
        }),
        send_invoice_to_email: r.get("send_invoice_to_email"),
        practice_name: r.get("practice_name"),
        contact_name: r.get("contact_name"),
        street_address: r.get("street_address"),
        house_number: r.get("house_number"),
        house_number_addition: r.get("house_number_addition"),
        postcode: r.get("postcode"),
        city: r.get("city"),
        phone_number: r.get("phone_number"),
        kvk_number: r.get("kvk_number"),
    }
}

/// The Betalingen filters.
#[derive(Debug, Clone, Default)]
pub struct PaymentFilter {
    /// `None`: every status ('ALL').
    pub status: Option<PaymentStatus>,
    /// A part of the user's e-mail address or id.
    pub search: Option<String>,
}

/// A page of payments, newest first, and how many match in all. The page's ids are found first,
/// so the invoice, contact and job of its rows only are looked up.
pub async fn page(db: &PgPool, filter: &PaymentFilter, page: i64, size: i64) -> sqlx::Result<(Vec<CmsPayment>, i64)> {
    let pattern = crate::text::contains_pattern(filter.search.as_deref());
    let status = filter.status.map(PaymentStatus::as_str);
    let condition = "($1::text is null or p.status = $1)
        and ($2::text is null or p.user_id = any(array(select id from users where (lower(email) || ' ' || lower(id)) like $2)))";
    let rows = sqlx::query(&format!(
        "{SELECT} where p.id in (select p.id from payments p where {condition} order by p.created_at desc, p.id desc limit $3 offset $4)
          order by p.created_at desc, p.id desc"
    ))
    .bind(status)
    .bind(&pattern)
    .bind(size)
    .bind(page * size)
    .fetch_all(db)
    .await?;
    let total: i64 =
        sqlx::query_scalar(&format!("select count(*) from payments p where {condition}")).bind(status).bind(&pattern).fetch_one(db).await?;
    Ok((rows.iter().map(of_row).collect(), total))
}

/// A user's payments, newest first (the info modal).
pub async fn of_user(conn: &mut PgConnection, user_id: &str) -> sqlx::Result<Vec<CmsPayment>> {
    let rows =
        sqlx::query(&format!("{SELECT} where p.user_id = $1 order by p.created_at desc, p.id desc")).bind(user_id).fetch_all(conn).await?;
    Ok(rows.iter().map(of_row).collect())
}

/// One payment.
pub async fn one(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<CmsPayment>> {
    let row = sqlx::query(&format!("{SELECT} where p.id = $1")).bind(id).fetch_optional(conn).await?;
    Ok(row.as_ref().map(of_row))
}

/// The invoice details of a payment that staff edit (spec §2.3, the modal on Betalingen).
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceDetails {
    pub id: Uuid,
    #[serde(default)]
    pub contact_name: String,
    #[serde(default)]
    pub phone_number: String,
    #[serde(default)]
    pub street_address: String,
    #[serde(default)]
    pub house_number: String,
    #[serde(default)]
    pub house_number_addition: String,
    #[serde(default)]
    pub postcode: String,
    #[serde(default)]
    pub city: String,
    /// Optional.
    #[serde(default)]
    pub practice_name: String,
    /// Optional.
    #[serde(default)]
    pub kvk_number: String,
}

/// The fields the modal edits, as the audit log lists them.
const EDITED: [&str; 9] =
    ["contactName", "phoneNumber", "streetAddress", "houseNumber", "houseNumberAddition", "postcode", "city", "practiceName", "kvkNumber"];

/// Checks the details in the spec's order (§5, "Invoice details modal"): the billing rules without
/// the invoice e-mail address, which this modal does not edit.
pub fn validate(d: &InvoiceDetails) -> Result<InvoiceDetails, CmsError> {
    let checked = validate_billing(&BillingDetails {
        contact_name: d.contact_name.clone(),
        practice_name: d.practice_name.clone(),
        // not edited here: any valid address passes the billing rule's e-mail step
        send_invoice_to_email: "x@x".to_owned(),
        phone_number: d.phone_number.clone(),
        street_address: d.street_address.clone(),
        house_number: d.house_number.clone(),
        house_number_addition: d.house_number_addition.clone(),
        postcode: d.postcode.clone(),
        city: d.city.clone(),
        kvk_number: d.kvk_number.clone(),
        ..BillingDetails::default()
    })
    .map_err(|e| match e {
        SubscriptionError::Invalid(message) => CmsError::Invalid(message),
        // validate_billing refuses with Invalid only
        _ => CmsError::Invalid("Ongeldige factuurgegevens."),
    })?;
    Ok(InvoiceDetails {
        id: d.id,
        contact_name: checked.contact_name,
        phone_number: checked.phone_number,
        street_address: checked.street_address,
        house_number: checked.house_number,
        house_number_addition: checked.house_number_addition,
        postcode: checked.postcode,
        city: checked.city,
        practice_name: checked.practice_name,
        kvk_number: checked.kvk_number,
    })
}

/// A payment's invoice details changed: the payment after, and the changed fields before and after.
#[derive(Debug, Clone)]
pub struct Edited {
    pub payment: CmsPayment,
    pub changes: Value,
}

/// Writes checked invoice details on the payment in `tx`. An invoice that exists already keeps
/// what it says (it was made with the details of then); the next one uses these.
pub async fn edit(tx: &mut PgConnection, details: &InvoiceDetails) -> Result<Edited, CmsError> {
    let d = validate(details)?;
    let before = one(tx, d.id).await?.ok_or(CmsError::NotFound(PAYMENT_NOT_FOUND))?;
    sqlx::query(
        "update payments set contact_name = $2, phone_number = $3, street_address = $4, house_number = $5, house_number_addition = $6,
                postcode = $7, city = $8, practice_name = $9, kvk_number = $10, updated_at = now() where id = $1",
    )
    .bind(d.id)
    .bind(&d.contact_name)
    .bind(&d.phone_number)
    .bind(&d.street_address)
    .bind(&d.house_number)
    .bind(&d.house_number_addition)
    .bind(&d.postcode)
    .bind(&d.city)
    .bind(&d.practice_name)
    .bind(&d.kvk_number)
    .execute(&mut *tx)
    .await?;
    let after = one(tx, d.id).await?.ok_or(CmsError::NotFound(PAYMENT_NOT_FOUND))?;
    let changed = crate::audit::changed_fields(&before, &after, &EDITED);
    Ok(Edited { changes: crate::audit::before_after(&before, &after, &changed), payment: after })
}

#[cfg(test)]
mod tests {
    use super::*;
    use BookkeepingState::*;
    use PaymentStatus::*;

    #[test]
    fn the_bookkeeping_cell_follows_the_spec() {
        assert_eq!(bookkeeping_state(Paid, 12100, true, false, false), MakeContact);
        assert_eq!(bookkeeping_state(Paid, 12100, true, true, false), MakeInvoice);
        assert_eq!(bookkeeping_state(Paid, 12100, false, true, false), MakeInvoice);
        assert_eq!(bookkeeping_state(Paid, 12100, true, true, true), Done);
        assert_eq!(bookkeeping_state(Paid, 12100, false, false, false), None);
        assert_eq!(bookkeeping_state(Open, 12100, true, false, false), None);
        assert_eq!(bookkeeping_state(Failed, 12100, true, true, false), None);
        assert_eq!(bookkeeping_state(Paid, 0, true, false, false), NotNeeded);
        assert_eq!(bookkeeping_state(Open, 0, true, false, false), NotNeeded);
    }

    #[test]
    fn invoice_details_are_checked_in_the_spec_order() {
        let full = InvoiceDetails {
            id: Uuid::nil(),
            contact_name: "Anne".into(),
            phone_number: "020".into(),
            street_address: "Lindelaan".into(),
            house_number: "1".into(),
            postcode: "1234 ab".into(),
            city: "Utrecht".into(),
            ..Default::default()
        };
        assert_eq!(validate(&full).unwrap().postcode, "1234AB");
        let message = |f: fn(&mut InvoiceDetails)| {
            let mut d = InvoiceDetails { contact_name: String::new(), ..full.clone() };
            f(&mut d);
            validate(&d).unwrap_err().to_string()
        };
        assert_eq!(message(|_| {}), "Geen naam ingevuld");
        type Change = fn(&mut InvoiceDetails);
        let cases: [(Change, &str); 7] = [
            (|d| d.phone_number.clear(), "Geen telefoonnummer ingevuld"),
            (|d| d.street_address.clear(), "Geen straatnaaam ingevuld"),
            (|d| d.house_number.clear(), "Geen huisnummer ingevuld"),
            (|d| d.postcode.clear(), "Geen postcode ingevuld"),
            (|d| d.postcode = "123".into(), "Ongeldige postcode. Vul postcode in volgens bijv. '1234AB'"),
            (|d| d.city = "  ".into(), "Geen plaatsnaam ingevuld"),
            (|d| d.kvk_number.clear(), ""),
        ];
        for (change, expected) in cases {
            let mut d = full.clone();
            change(&mut d);
            match validate(&d) {
                Ok(_) => assert_eq!(expected, "", "optional field"),
                Err(e) => assert_eq!(e.to_string(), expected),
            }
        }
    }
}
