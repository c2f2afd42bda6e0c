//! The reads: the practitioner's subscriptions, seats on others', organisation subscriptions and
//! payments, and the staff's pages of subscriptions and payments (spec §2.3, §3); and the staff's
//! edit of a payment's invoice details, which answers the payment as read here (the details are
//! checked in [`super::details`]).

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use serde_json::Value;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::details::{InvoiceDetails, validate_invoice_details};
use super::lifecycle::staff_subscriptions;
use super::seats::can_link;
use super::status::PaymentStatus;
use super::{Address, Cents, CmsSubscription, LinkedSeat, PAYMENT_NOT_FOUND, Payment, Subscription, address_of};
use crate::refusal::Refusal;

/// The user's own subscriptions, newest first, with their seats.
pub async fn for_user(db: &PgPool, user_id: &str, today: NaiveDate) -> sqlx::Result<Vec<Subscription>> {
    let rows = sqlx::query!(
        r#"select id, tier_id, description, subscription_active(is_active, valid_until, $2) as "active!", is_trial, is_individual,
                  user_amount, interval_months, price_per_user::int8 as "price_per_user!: Cents", amount::int8 as "amount!: Cents", valid_until,
                  created_at, canceled_at, next_payment_date, renew_without_discount_date, discount_id, first_payment_id
             from subscriptions where user_id = $1 order by created_at desc, id"#,
        user_id,
        today
    )
    .fetch_all(db)
    .await?;
    let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
    // a seat stored by account shows the account's address and name; one stored by address
    // finds the account that has that address now
    let seats = sqlx::query!(
        r#"select l.id, l.subscription_id, coalesce(u.email, l.email) as email, u.id as "user_id?",
                  coalesce(u.preferred_name, u.preferred_username) as name
             from linked_subscriptions l
             left join lateral (select a.id, a.email, a.preferred_name, a.preferred_username from users a
                                 where a.id = l.user_id or (l.user_id is null and lower(a.email) = l.email)
                                 order by a.created_at limit 1) u on true
            where l.subscription_id = any($1) order by l.created_at, l.id"#,
        &ids
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| Subscription {
            id: r.id,
            tier_id: r.tier_id,
            description: r.description,
            is_active: r.active,
            is_trial: r.is_trial,
            is_individual: r.is_individual,
            user_amount: r.user_amount,
            interval_months: r.interval_months,
            price_per_user: r.price_per_user,
            amount: r.amount,
            valid_until: r.valid_until,
            created_at: r.created_at,
            canceled_at: r.canceled_at,
            next_payment_date: r.next_payment_date,
            renew_subscription_without_discount_date: r.renew_without_discount_date,
            discount_id: r.discount_id,
            first_payment_id: r.first_payment_id,
            can_link_users: can_link(r.active, r.is_trial, r.is_individual),
            linked_subscriptions: seats
                .iter()
                .filter(|s| s.subscription_id == r.id)
                .map(|s| LinkedSeat { id: s.id, email_address: s.email.clone(), user_id: s.user_id.clone(), name: s.name.clone() })
                .collect(),
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
    let rows = sqlx::query!(
        r#"select distinct s.id, s.description, subscription_active(s.is_active, s.valid_until, $3) as "active!",
                  (s.created_at at time zone 'Europe/Amsterdam')::date as "start_date!", s.valid_until, s.created_at
             from linked_subscriptions l join subscriptions s on s.id = l.subscription_id
            where l.user_id = $1 or (l.email is not null and l.email = lower($2))
            order by s.created_at desc"#,
        user_id,
        email,
        today
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| OtherSubscription {
            id: r.id,
            description: r.description,
            active: r.active,
            start_date: r.start_date,
            valid_until: r.valid_until,
        })
        .collect())
}

/// Whether the user may use the product through a subscription of their own or a seat on one.
pub async fn has_active(db: &PgPool, user_id: &str, email: &str, today: NaiveDate) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"select exists (
              select 1 from subscriptions s
               where subscription_active(s.is_active, s.valid_until, $3)
                 and (s.user_id = $1 or exists (select 1 from linked_subscriptions l where l.subscription_id = s.id
                                                 and (l.user_id = $1 or (l.email is not null and l.email = lower($2)))))) as "exists!""#,
        user_id,
        email,
        today
    )
    .fetch_one(db)
    .await
}

/// The gate of the consult and template features (spec §2.1; clinical spec §6): an active
/// subscription of the user's own or a seat on one ([`has_active`]), or an active organisation
/// subscription ([`has_active_organisation`]). Most users pass on the first query.
pub async fn may_use_product(db: &PgPool, user_id: &str, email: &str, today: NaiveDate) -> sqlx::Result<bool> {
    Ok(has_active(db, user_id, email, today).await? || has_active_organisation(db, user_id, email, today).await?)
}

/// An organisation subscription as the user page shows it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrganisationSubscription {
    pub id: Uuid,
    pub active: bool,
    pub start_date: Option<NaiveDate>,
    pub valid_until: Option<NaiveDate>,
    pub description: String,
}

/// A compile-checked statement answering [`OrganisationSubscription`]s of organisation
/// subscriptions `o`, active on `$3` (switched on and not past its day): `$from` (a string literal:
/// the `from` clause naming `o`, the conditions and the order) and the statement's arguments.
macro_rules! organisation_subscriptions {
    ($from:literal, $($arg:expr),+ $(,)?) => {
        sqlx::query_as!(
            OrganisationSubscription,
            r#"select o.id as "id!", o.description as "description!",
                      organisation_subscription_active(o.is_active, o.start_date, o.valid_until, $3) as "active!",
                      o.start_date, o.valid_until "# + $from,
            $($arg),+
        )
    };
}

/// The user's organisation subscriptions: those that name the user or their e-mail address, and
/// those that name no one but a level they belong to or that level's main organisation (the SQL
/// function `organisation_subscriptions_of`); never a colleague's own.
pub async fn organisation_for_user(
    db: &PgPool,
    user_id: &str,
    email: &str,
    today: NaiveDate,
) -> sqlx::Result<Vec<OrganisationSubscription>> {
    organisation_subscriptions!(
        "from organisation_subscriptions_of($1, $2) o order by o.valid_until desc nulls first, o.id",
        user_id,
        email,
        today
    )
    .fetch_all(db)
    .await
}

pub async fn has_active_organisation(db: &PgPool, user_id: &str, email: &str, today: NaiveDate) -> sqlx::Result<bool> {
    sqlx::query_scalar!(
        r#"select exists (select 1 from organisation_subscriptions_of($1, $2) o
                           where organisation_subscription_active(o.is_active, o.start_date, o.valid_until, $3)) as "exists!""#,
        user_id,
        email,
        today
    )
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
    organisation_subscriptions!(
        "from organisation_subscriptions o
          where (o.level_id = $2 or o.organisation_id = $2)
            and exists (select 1 from organisation_members m join organisation_levels l on l.id = m.level_id
                         where m.user_id = $1 and (l.id = $2 or l.organisation_id = $2))
          order by o.valid_until desc nulls first, o.id",
        user_id,
        organisation_id,
        today
    )
    .fetch_all(db)
    .await
}

pub async fn payments_for_user(db: &PgPool, user_id: &str) -> sqlx::Result<Vec<Payment>> {
    let rows = sqlx::query!(
        r#"select id, subscription_id, description, user_amount, amount_cents::int8 as "amount!: Cents", status as "status: PaymentStatus",
                  created_at, interval_months, moneybird_invoice_id, moneybird_contact_id, sales_invoices_url, send_invoice_to_email,
                  is_first_payment, practice_name, contact_name, street_address, house_number, house_number_addition, postcode, city,
                  phone_number, kvk_number, period_start, period_end,
                  case when status = 'OPEN' then checkout_url end as checkout_url, case when status = 'OPEN' then expires_at end as expires_at
             from payments where user_id = $1 order by created_at desc, id"#,
        user_id
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| Payment {
            id: r.id,
            subscription_id: r.subscription_id,
            description: r.description,
            user_amount: r.user_amount,
            amount: r.amount,
            payment_status: r.status,
            created_at: r.created_at,
            interval_months: r.interval_months,
            moneybird_invoice_id: r.moneybird_invoice_id,
            moneybird_contact_id: r.moneybird_contact_id,
            sales_invoices_url: r.sales_invoices_url,
            send_invoice_to_email: r.send_invoice_to_email,
            is_first_payment: r.is_first_payment,
            period_start: r.period_start,
            period_end: r.period_end,
            checkout_url: r.checkout_url,
            expires_at: r.expires_at,
            address: address_of!(r),
        })
        .collect())
}

/// Whether the user's account was made before `before` (Europe/Amsterdam calendar day).
pub async fn is_early_adopter(db: &PgPool, user_id: &str, before: Option<NaiveDate>) -> sqlx::Result<bool> {
    let Some(before) = before else { return Ok(false) };
    let found = sqlx::query_scalar!(
        r#"select (created_at at time zone 'Europe/Amsterdam')::date < $2 as "early!" from users where id = $1"#,
        user_id,
        before
    )
    .fetch_optional(db)
    .await?;
    Ok(found.unwrap_or(false))
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
pub async fn subscription_page(
    db: &PgPool,
    filter: &SubscriptionFilter,
    today: NaiveDate,
    page: i64,
    size: i64,
) -> sqlx::Result<(Vec<CmsSubscription>, i64)> {
    let pattern = crate::text::contains_pattern(filter.search.as_deref());
    let rows = staff_subscriptions!(
        "where (not $2 or not s.is_trial)
           and (not $3 or subscription_active(s.is_active, s.valid_until, $1))
           and ($4::text is null or s.user_id = any(array(select id from users where (lower(email) || ' ' || lower(id)) like $4)))
         order by s.created_at desc, s.id desc limit $5 offset $6",
        today,
        filter.paid_only,
        filter.active_only,
        pattern.as_deref(),
        size,
        page * size
    )
    .fetch_all(db)
    .await?;
    let total = sqlx::query_scalar!(
        r#"select count(*) as "total!" from subscriptions s
            where (not $2 or not s.is_trial)
              and (not $3 or subscription_active(s.is_active, s.valid_until, $1))
              and ($4::text is null or s.user_id = any(array(select id from users where (lower(email) || ' ' || lower(id)) like $4)))"#,
        today,
        filter.paid_only,
        filter.active_only,
        pattern.as_deref()
    )
    .fetch_one(db)
    .await?;
    Ok((rows.into_iter().map(CmsSubscription::from).collect(), total))
}

/// A user's subscriptions, paid and trial: the active ones first, then the latest valid-until
/// first (spec §2.3, the info modal).
pub async fn subscriptions_of_user(conn: &mut PgConnection, user_id: &str, today: NaiveDate) -> sqlx::Result<Vec<CmsSubscription>> {
    let rows = staff_subscriptions!(
        "where s.user_id = $2
          order by subscription_active(s.is_active, s.valid_until, $1) desc, s.valid_until desc nulls last, s.created_at desc, s.id",
        today,
        user_id
    )
    .fetch_all(conn)
    .await?;
    Ok(rows.into_iter().map(CmsSubscription::from).collect())
}

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
    amount_cents: Cents,
    is_first: bool,
    has_contact: bool,
    has_invoice: bool,
) -> BookkeepingState {
    if amount_cents == Cents::ZERO {
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
    pub amount_cents: Cents,
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
    #[serde(flatten)]
    pub address: Address,
}

/// A compile-checked statement answering [`PaymentRow`]s: a payment with its user, its invoice,
/// its user's first bookkeeping contact and its latest bookkeeping job that has not succeeded,
/// from `payments p`, followed by `$tail` (a string literal: the conditions and the order) and
/// the statement's arguments.
macro_rules! staff_payments {
    ($tail:literal, $($arg:expr),+ $(,)?) => {
        sqlx::query_as!(
            PaymentRow,
            r#"select p.id, p.user_id, u.email as user_email, p.subscription_id, p.description, p.user_amount,
                      p.amount_cents::int8 as "amount_cents!: Cents", p.status as "status: PaymentStatus", p.created_at, p.paid_at,
                      p.interval_months, p.is_first_payment,
                      coalesce(p.moneybird_contact_id, (select c.contact_id from bookkeeping_contacts c where c.user_id = p.user_id
                                                        order by c.created_at limit 1)) as contact_id,
                      i.id as "invoice_id?", i.number as "invoice_number?", j.id as "job_id?", j.kind as "job_kind?",
                      j.state as "job_state?", p.send_invoice_to_email, p.practice_name, p.contact_name, p.street_address,
                      p.house_number, p.house_number_addition, p.postcode, p.city, p.phone_number, p.kvk_number
                 from payments p join users u on u.id = p.user_id
                 left join invoices i on i.payment_id = p.id and i.kind = 'invoice'
                 left join lateral (select id, kind, state from jobs
                                     where kind in ('create_contact', 'create_invoice', 'credit_invoice')
                                       and payload ->> 'paymentId' = p.id::text
                                     order by created_at desc limit 1) j on j.state <> 'succeeded' "# + $tail,
            $($arg),+
        )
    };
}

/// A payment as [`staff_payments!`] reads it.
struct PaymentRow {
    id: Uuid,
    user_id: String,
    user_email: String,
    subscription_id: Uuid,
    description: String,
    user_amount: i32,
    amount_cents: Cents,
    status: PaymentStatus,
    created_at: DateTime<Utc>,
    paid_at: Option<DateTime<Utc>>,
    interval_months: i32,
    is_first_payment: bool,
    contact_id: Option<String>,
    invoice_id: Option<Uuid>,
    invoice_number: Option<String>,
    job_id: Option<Uuid>,
    job_kind: Option<String>,
    job_state: Option<String>,
    send_invoice_to_email: String,
    practice_name: String,
    contact_name: String,
    street_address: String,
    house_number: String,
    house_number_addition: String,
    postcode: String,
    city: String,
    phone_number: String,
    kvk_number: String,
}

impl From<PaymentRow> for CmsPayment {
    fn from(r: PaymentRow) -> Self {
        CmsPayment {
            bookkeeping: bookkeeping_state(r.status, r.amount_cents, r.is_first_payment, r.contact_id.is_some(), r.invoice_id.is_some()),
            job: r.job_id.map(|id| PaymentJob {
                id,
                kind: r.job_kind.clone().unwrap_or_default(),
                state: r.job_state.as_deref().and_then(crate::jobs::JobState::from_stored).unwrap_or(crate::jobs::JobState::Queued),
            }),
            id: r.id,
            user_id: r.user_id,
            user_email: r.user_email,
            subscription_id: r.subscription_id,
            description: r.description,
            user_amount: r.user_amount,
            amount_cents: r.amount_cents,
            payment_status: r.status,
            created_at: r.created_at,
            paid_at: r.paid_at,
            interval_months: r.interval_months,
            is_first_payment: r.is_first_payment,
            contact_id: r.contact_id,
            invoice_id: r.invoice_id,
            invoice_number: r.invoice_number,
            send_invoice_to_email: r.send_invoice_to_email,
            address: address_of!(r),
        }
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
pub async fn payment_page(db: &PgPool, filter: &PaymentFilter, page: i64, size: i64) -> sqlx::Result<(Vec<CmsPayment>, i64)> {
    let pattern = crate::text::contains_pattern(filter.search.as_deref());
    let status = filter.status.map(PaymentStatus::as_str);
    let rows = staff_payments!(
        "where p.id in (select p.id from payments p
                         where ($1::text is null or p.status = $1)
                           and ($2::text is null or p.user_id = any(array(select id from users where (lower(email) || ' ' || lower(id)) like $2)))
                         order by p.created_at desc, p.id desc limit $3 offset $4)
          order by p.created_at desc, p.id desc",
        status,
        pattern.as_deref(),
        size,
        page * size
    )
    .fetch_all(db)
    .await?;
    let total = sqlx::query_scalar!(
        r#"select count(*) as "total!" from payments p
            where ($1::text is null or p.status = $1)
              and ($2::text is null or p.user_id = any(array(select id from users where (lower(email) || ' ' || lower(id)) like $2)))"#,
        status,
        pattern.as_deref()
    )
    .fetch_one(db)
    .await?;
    Ok((rows.into_iter().map(CmsPayment::from).collect(), total))
}

/// A user's payments, newest first (the info modal).
pub async fn payments_of_user(conn: &mut PgConnection, user_id: &str) -> sqlx::Result<Vec<CmsPayment>> {
    let rows = staff_payments!("where p.user_id = $1 order by p.created_at desc, p.id desc", user_id).fetch_all(conn).await?;
    Ok(rows.into_iter().map(CmsPayment::from).collect())
}

/// One payment.
pub async fn payment(conn: &mut PgConnection, id: Uuid) -> sqlx::Result<Option<CmsPayment>> {
    Ok(staff_payments!("where p.id = $1", id).fetch_optional(conn).await?.map(CmsPayment::from))
}

// ---------------------------------------------------------------------------------------------
// The staff's edit of a payment's invoice details: it answers the payment before and after as
// the reads above give it, for the audit log.

/// A payment's invoice details changed: the payment after, and the changed fields before and after.
#[derive(Debug, Clone)]
pub struct Edited {
    pub payment: CmsPayment,
    pub changes: Value,
}

/// Writes checked invoice details on the payment in `tx`. An invoice that exists already keeps
/// what it says (it was made with the details of then); the next one uses these.
pub async fn edit_invoice_details(tx: &mut PgConnection, details: &InvoiceDetails) -> Result<Edited, Refusal> {
    let d = validate_invoice_details(details)?;
    let before = payment(tx, d.id).await?.ok_or(Refusal::NotFound(PAYMENT_NOT_FOUND))?;
    let a = &d.address;
    sqlx::query!(
        "update payments set contact_name = $2, phone_number = $3, street_address = $4, house_number = $5, house_number_addition = $6,
                postcode = $7, city = $8, practice_name = $9, kvk_number = $10, updated_at = now() where id = $1",
        d.id,
        a.contact_name,
        a.phone_number,
        a.street_address,
        a.house_number,
        a.house_number_addition,
        a.postcode,
        a.city,
        a.practice_name,
        a.kvk_number
    )
    .execute(&mut *tx)
    .await?;
    let after = payment(tx, d.id).await?.ok_or(Refusal::NotFound(PAYMENT_NOT_FOUND))?;
    let changes = crate::audit::diff(&before.address, &after.address);
    Ok(Edited { changes, payment: after })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::billing::status::PaymentStatus::*;
    use BookkeepingState::*;

    #[test]
    fn the_bookkeeping_cell_follows_the_spec() {
        assert_eq!(bookkeeping_state(Paid, Cents(12100), true, false, false), MakeContact);
        assert_eq!(bookkeeping_state(Paid, Cents(12100), true, true, false), MakeInvoice);
        assert_eq!(bookkeeping_state(Paid, Cents(12100), false, true, false), MakeInvoice);
        assert_eq!(bookkeeping_state(Paid, Cents(12100), true, true, true), Done);
        assert_eq!(bookkeeping_state(Paid, Cents(12100), false, false, false), None);
        assert_eq!(bookkeeping_state(Open, Cents(12100), true, false, false), None);
        assert_eq!(bookkeeping_state(Failed, Cents(12100), true, true, false), None);
        assert_eq!(bookkeeping_state(Paid, Cents(0), true, false, false), NotNeeded);
        assert_eq!(bookkeeping_state(Open, Cents(0), true, false, false), NotNeeded);
    }
}
