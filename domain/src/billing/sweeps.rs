//! The sweeps over subscriptions and payments: expiry at the end of the last day, the 5-day unpaid
//! check (spec §4, §9), and reconciliation (payments the provider has not called final yet, and
//! recent paid ones, asked about again). Days are Europe/Amsterdam calendar days
//! ([`crate::billing::today`]); a subscription valid until day D ends at the end of D
//! (23:59:59.999), so it expires once today is after D.

use std::time::Duration;

use chrono::NaiveDate;
use serde::Serialize;
use sqlx::PgPool;
use uuid::Uuid;

use crate::billing::{Cents, money};

/// Days an active paid subscription may go without a paid payment before it is a problem (§9).
pub const UNPAID_DAYS: i32 = 5;

/// What the expiry sweep switched off.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Expired {
    pub subscriptions: u64,
    pub organisation_subscriptions: u64,
    /// Organisation subscriptions of a sub-organisation whose term started or ended (written
    /// again from their organisation's term).
    pub organisation_terms: u64,
}

/// Switches off every user and organisation subscription whose last day is before `today`, and
/// writes the organisations' terms on their sub-organisations and organisation subscriptions
/// again (a term that starts today switches them on). Idempotent: a second run changes nothing.
pub async fn expire(db: &PgPool, today: NaiveDate) -> sqlx::Result<Expired> {
    let mut tx = db.begin().await?;
    let subscriptions =
        sqlx::query!("update subscriptions set is_active = false, updated_at = now() where is_active and valid_until < $1", today)
            .execute(&mut *tx)
            .await?
            .rows_affected();
    let organisation_terms = crate::organisations::refresh(&mut tx, None, today).await?;
    let organisation_subscriptions =
        sqlx::query!("update organisation_subscriptions set is_active = false where is_active and valid_until < $1", today)
            .execute(&mut *tx)
            .await?
            .rows_affected();
    tx.commit().await?;
    Ok(Expired { subscriptions, organisation_subscriptions, organisation_terms })
}

/// How long a new payment is left to its webhook before reconciliation asks the provider itself.
pub const RECONCILE_GRACE: Duration = Duration::from_secs(120);
/// The shortest wait between two questions about a payment that is not final (the wait grows
/// with the payment's age: a quarter of it).
pub const RECONCILE_MIN_GAP: Duration = Duration::from_secs(60);
/// The longest wait between two questions about a payment that is not final.
pub const RECONCILE_MAX_GAP: Duration = Duration::from_secs(6 * 3600);
/// A payment that is still not final after this long is left alone (Mollie's slowest methods
/// expire after 12 to 28 days; staff see it in Betalingen).
pub const RECONCILE_FOR_DAYS: i32 = 40;
/// Paid payments are asked about for this long, so a refund, a chargeback or a reversal whose
/// webhook was lost is still booked.
pub const RECHECK_PAID_DAYS: i32 = 60;
/// How often a paid payment is asked about.
pub const RECHECK_PAID_EVERY: Duration = Duration::from_secs(86_400);

/// When reconciliation asks about a payment (`APP_RECONCILE_*`; the defaults above).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReconcileTiming {
    /// A new payment is left to its webhook this long.
    pub grace: Duration,
    /// At least this long between two questions about a payment that is not final.
    pub min_gap: Duration,
    /// A paid payment is asked about this often.
    pub paid_every: Duration,
}

impl Default for ReconcileTiming {
    fn default() -> Self {
        Self { grace: RECONCILE_GRACE, min_gap: RECONCILE_MIN_GAP, paid_every: RECHECK_PAID_EVERY }
    }
}

/// The provider's ids of the payments of `provider` due for reconciliation, at most `limit`,
/// oldest first, each marked as asked about now (so concurrent runs share the work and the next
/// run waits its gap):
/// - not final (OPEN, PENDING, AUTHORIZED), made more than `timing.grace` ago and less than
///   [`RECONCILE_FOR_DAYS`], last asked about longer ago than a quarter of its age (at least
///   `timing.min_gap`, at most [`RECONCILE_MAX_GAP`]);
/// - PAID in the last [`RECHECK_PAID_DAYS`] days and not asked about for `timing.paid_every`.
pub async fn due_for_reconciliation(db: &PgPool, provider: &str, timing: ReconcileTiming, limit: i64) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar!(
        r#"update payments p set reconciled_at = now()
            where p.id in (
              select d.id from payments d
               where d.provider = $1 and d.provider_payment_id is not null
                 and ((d.status in ('OPEN', 'PENDING', 'AUTHORIZED')
                       and d.created_at < now() - $2 * interval '1 second'
                       and d.created_at > now() - $3 * interval '1 day'
                       and (d.reconciled_at is null
                            or d.reconciled_at < now() - least(greatest((now() - d.created_at) / 4, $4 * interval '1 second'),
                                                               $5 * interval '1 second')))
                   or (d.status = 'PAID' and d.created_at > now() - $6 * interval '1 day'
                       and (d.reconciled_at is null or d.reconciled_at < now() - $7 * interval '1 second')))
               order by d.created_at
               limit $8
               for update skip locked)
            returning p.provider_payment_id as "id!""#,
        provider,
        timing.grace.as_secs_f64(),
        f64::from(RECONCILE_FOR_DAYS),
        timing.min_gap.as_secs_f64(),
        RECONCILE_MAX_GAP.as_secs_f64(),
        f64::from(RECHECK_PAID_DAYS),
        timing.paid_every.as_secs_f64(),
        limit,
    )
    .fetch_all(db)
    .await
}

/// A problem the unpaid check found, as the staff e-mail and the CMS list it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnpaidProblem {
    pub id: Uuid,
    pub subscription_id: Uuid,
    pub description: String,
    pub user_id: String,
    pub user_email: String,
    pub subscription_created_at: chrono::DateTime<chrono::Utc>,
    pub valid_until: Option<NaiveDate>,
    pub detected_at: chrono::DateTime<chrono::Utc>,
}

/// Problems selected by `$tail` (a string literal: `where ...`) with `$args` bound, as
/// [`UnpaidProblem`]s.
macro_rules! select_problems {
    ($tail:tt $(, $args:expr)* $(,)?) => {
        sqlx::query_as!(
            UnpaidProblem,
            "select p.id, p.subscription_id, s.description, s.user_id, u.email as user_email,
                    s.created_at as subscription_created_at, s.valid_until, p.detected_at
               from subscription_problems p join subscriptions s on s.id = p.subscription_id
               join users u on u.id = s.user_id "
                + $tail,
            $($args),*
        )
    };
}

/// The unpaid check: an active subscription that costs money, made at least [`UNPAID_DAYS`] days
/// ago, with no PAID payment whose period covers `today`, is recorded as a problem (once while it
/// lasts: a unique index on the open problems). Problems whose subscription is paid for or no
/// longer active are closed. Returns the problems recorded by this run only.
pub async fn check_unpaid(db: &PgPool, today: NaiveDate) -> sqlx::Result<Vec<UnpaidProblem>> {
    let mut tx = db.begin().await?;
    sqlx::query!(
        "update subscription_problems p set resolved_at = now()
          where p.kind = 'unpaid' and p.resolved_at is null
            and exists (select 1 from subscriptions s where s.id = p.subscription_id
                         and (not s.is_active or exists (select 1 from payments pay where pay.subscription_id = s.id and pay.status = 'PAID'
                                                          and pay.period_start <= $1 and pay.period_end >= $1)))",
        today,
    )
    .execute(&mut *tx)
    .await?;
    let new: Vec<Uuid> = sqlx::query_scalar!(
        "insert into subscription_problems (id, subscription_id, kind)
         select gen_random_uuid(), s.id, 'unpaid' from subscriptions s
          where s.is_active and not s.is_trial and s.amount > 0
            and (s.created_at at time zone 'Europe/Amsterdam')::date <= $1::date - $2::int
            and not exists (select 1 from payments pay where pay.subscription_id = s.id and pay.status = 'PAID'
                             and pay.period_start <= $1 and pay.period_end >= $1)
         on conflict (subscription_id, kind) where resolved_at is null do nothing
         returning id",
        today,
        UNPAID_DAYS,
    )
    .fetch_all(&mut *tx)
    .await?;
    let problems = problems_by_id(&mut tx, &new).await?;
    tx.commit().await?;
    Ok(problems)
}

async fn problems_by_id(conn: &mut sqlx::PgConnection, ids: &[Uuid]) -> sqlx::Result<Vec<UnpaidProblem>> {
    select_problems!("where p.id = any($1) order by s.created_at, p.id", ids).fetch_all(conn).await
}

/// Problems by id (what a staff e-mail lists).
pub async fn problems(db: &PgPool, ids: &[Uuid]) -> sqlx::Result<Vec<UnpaidProblem>> {
    let mut conn = db.acquire().await?;
    problems_by_id(&mut conn, ids).await
}

/// The open problems, newest first (the CMS's `getAllSubscriptionProblems`).
pub async fn open_problems(db: &PgPool, limit: i64, offset: i64) -> sqlx::Result<Vec<UnpaidProblem>> {
    select_problems!("where p.resolved_at is null order by p.detected_at desc, p.id limit $1 offset $2", limit, offset).fetch_all(db).await
}

/// Marks problems as told to staff.
pub async fn mark_notified(db: &PgPool, ids: &[Uuid]) -> sqlx::Result<()> {
    sqlx::query!("update subscription_problems set notified_at = coalesce(notified_at, now()) where id = any($1)", ids).execute(db).await?;
    Ok(())
}

/// Open problems staff have not been told about yet (this run's, and any an earlier run's e-mail
/// did not get to).
pub async fn unnotified(db: &PgPool) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar!("select id from subscription_problems where resolved_at is null and notified_at is null order by detected_at, id")
        .fetch_all(db)
        .await
}

// ---------------------------------------------------------------------------------------------
// Renewals

/// Days before a period starts that it is charged. A direct debit takes days to settle, and a
/// failed one leaves the user this long, with a reminder, before access ends.
pub const RENEW_LEAD_DAYS: i32 = 5;

/// Days after a failed renewal that the user is reminded, when it is still unpaid (before day 5).
pub const REMIND_AFTER_DAYS: i32 = 3;

/// A subscription whose next period is due.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Due {
    pub subscription_id: Uuid,
    /// The first day of the period to pay for (`next_payment_date`).
    pub period_start: NaiveDate,
}

/// Active paid subscriptions, not cancelled, whose next period starts within [`RENEW_LEAD_DAYS`]
/// days (or has started), of users with a mandate at `provider`.
pub async fn due_for_renewal(db: &PgPool, today: NaiveDate, provider: &str) -> sqlx::Result<Vec<Due>> {
    // `$1::date + $3::int`: the parameters' types, which the query does not show otherwise.
    sqlx::query_as!(
        Due,
        r#"select s.id as subscription_id, s.next_payment_date as "period_start!" from subscriptions s
           join payment_customers c on c.user_id = s.user_id and c.provider = $2 and c.mandate_id is not null
          where s.is_active and not s.is_trial and s.canceled_at is null and s.amount > 0
            and s.next_payment_date is not null and s.next_payment_date <= $1::date + $3::int
          order by s.next_payment_date, s.id"#,
        today,
        provider,
        RENEW_LEAD_DAYS,
    )
    .fetch_all(db)
    .await
}

/// Renewal payments that failed [`REMIND_AFTER_DAYS`] or more days ago (by Amsterdam's calendar)
/// and are still unpaid, on a subscription that is still active: their users get a reminder.
/// Only failures of the last [`RENEW_LEAD_DAYS`] days count, so an old one is not dug up.
pub async fn renewals_to_remind(db: &PgPool, today: NaiveDate) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar!(
        "select p.id from payments p join subscriptions s on s.id = p.subscription_id
          where not p.is_first_payment and p.status in ('FAILED', 'CANCELED', 'EXPIRED') and s.is_active
            and (p.updated_at at time zone 'Europe/Amsterdam')::date between $1::date - $2::int and $1::date - $3::int
            and not exists (select 1 from payments q where q.subscription_id = s.id and q.status = 'PAID' and q.created_at > p.created_at)
          order by p.updated_at, p.id",
        today,
        RENEW_LEAD_DAYS,
        REMIND_AFTER_DAYS,
    )
    .fetch_all(db)
    .await
}

/// The recurring payment of one period, as the provider must be asked for it.
#[derive(Debug, Clone)]
pub struct Renewal {
    pub payment_id: Uuid,
    pub idempotency_key: String,
    pub amount_cents: Cents,
    pub description: String,
    pub customer_id: String,
    pub mandate_id: String,
    /// Set once the provider made it (a repeated job finds it made).
    pub provider_payment_id: Option<String>,
}

/// The OPEN recurring payment for the period of `subscription_id` that starts on `period_start`,
/// written once: its idempotency key `renew:<subscription>:<period start>` is unique, so a job that
/// runs again (or twice at once) finds the first one's payment. From
/// `renewSubscriptionWithoutDiscountDate` on the price is the tier's full price (the subscription
/// keeps it from then on). `None` when that period is not due (cancelled, ended, renewed already)
/// or the user has no mandate.
pub async fn renewal_payment(db: &PgPool, subscription_id: Uuid, period_start: NaiveDate, provider: &str) -> sqlx::Result<Option<Renewal>> {
    let key = format!("renew:{subscription_id}:{period_start}");
    let mut tx = db.begin().await?;
    let Some(s) = sqlx::query!(
        r#"select s.user_id, s.is_active, s.canceled_at, s.next_payment_date, s.user_amount, s.interval_months,
                s.price_per_user::int8 as "price_per_user!: Cents",
                s.renew_without_discount_date, s.first_payment_id, s.description,
                t.price_per_user_month::int8 as "price_per_user_month!: Cents",
                t.price_per_user_year::int8 as "price_per_user_year!: Cents", c.customer_id as "customer_id?", c.mandate_id
           from subscriptions s join subscription_tiers t on t.id = s.tier_id
           left join payment_customers c on c.user_id = s.user_id and c.provider = $2
          where s.id = $1 for update of s"#,
        subscription_id,
        provider,
    )
    .fetch_optional(&mut *tx)
    .await?
    else {
        return Ok(None);
    };
    let (Some(customer_id), Some(mandate_id)) = (s.customer_id, s.mandate_id) else {
        return Ok(None);
    };
    let made = sqlx::query!(
        r#"select id, amount_cents::int8 as "amount_cents!: Cents", description, provider_payment_id
             from payments where idempotency_key = $1"#,
        key
    )
    .fetch_optional(&mut *tx)
    .await?;
    if let Some(made) = made {
        tx.commit().await?;
        return Ok(Some(Renewal {
            payment_id: made.id,
            idempotency_key: key,
            amount_cents: made.amount_cents,
            description: made.description,
            customer_id,
            mandate_id,
            provider_payment_id: made.provider_payment_id,
        }));
    }
    let due = s.is_active && s.canceled_at.is_none() && s.next_payment_date == Some(period_start);
    if !due {
        return Ok(None);
    }
    let interval = s.interval_months;
    let users = s.user_amount;
    let full_price = s.renew_without_discount_date.is_some_and(|day| period_start >= day);
    let per_user =
        if full_price { money::price_per_user(s.price_per_user_month, s.price_per_user_year, interval, None) } else { s.price_per_user };
    let amount = money::total(per_user, users.into());
    if full_price {
        sqlx::query!(
            "update subscriptions set price_per_user = $2, amount = $3, discount_id = null, renew_without_discount_date = null,
                    updated_at = now() where id = $1",
            subscription_id,
            per_user.to_column(),
            amount.to_column(),
        )
        .execute(&mut *tx)
        .await?;
    }
    let payment_id = Uuid::new_v4();
    let description = s.description;
    // the billing details of the first payment go on every renewal (and its invoice)
    sqlx::query!(
        "insert into payments (id, user_id, subscription_id, description, user_amount, amount_cents, interval_months,
                               is_first_payment, sequence_type, provider, provider_customer_id, mandate_id, idempotency_key,
                               send_invoice_to_email, practice_name, contact_name, street_address, house_number,
                               house_number_addition, postcode, city, phone_number, kvk_number)
         select $1, $2, $3, $4, $5, $6, $7, false, 'recurring', $8, $9, $10, $11,
                coalesce(f.send_invoice_to_email, ''), coalesce(f.practice_name, ''), coalesce(f.contact_name, ''),
                coalesce(f.street_address, ''), coalesce(f.house_number, ''), coalesce(f.house_number_addition, ''),
                coalesce(f.postcode, ''), coalesce(f.city, ''), coalesce(f.phone_number, ''), coalesce(f.kvk_number, '')
           from (select 1) one left join payments f on f.id = $12",
        payment_id,
        s.user_id,
        subscription_id,
        description,
        users,
        amount.to_column(),
        interval,
        provider,
        customer_id,
        mandate_id,
        key,
        s.first_payment_id,
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Some(Renewal {
        payment_id,
        idempotency_key: key,
        amount_cents: amount,
        description,
        customer_id,
        mandate_id,
        provider_payment_id: None,
    }))
}

/// What a renewal e-mail says: the failed payment, and until when the subscription still works.
#[derive(Debug, Clone)]
pub struct FailedRenewal {
    pub user_id: String,
    pub description: String,
    pub amount_cents: Cents,
    pub valid_until: Option<NaiveDate>,
    /// Whether it is still unpaid: no later PAID payment for the subscription.
    pub still_unpaid: bool,
}

pub async fn failed_renewal(db: &PgPool, payment_id: Uuid) -> sqlx::Result<Option<FailedRenewal>> {
    sqlx::query_as!(
        FailedRenewal,
        r#"select p.user_id, s.description, p.amount_cents::int8 as "amount_cents!: Cents", s.valid_until,
                not exists (select 1 from payments q where q.subscription_id = s.id and q.status = 'PAID' and q.created_at > p.created_at)
                  as "still_unpaid!"
           from payments p join subscriptions s on s.id = p.subscription_id
          where p.id = $1 and not p.is_first_payment and p.status in ('FAILED', 'CANCELED', 'EXPIRED')"#,
        payment_id,
    )
    .fetch_optional(db)
    .await
}
