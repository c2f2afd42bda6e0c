//! Every state change of a subscription: activation when a payment becomes PAID, the trial,
//! cancelling (by its owner and by staff), switching on or off, valid-until, and the staff's
//! renewal at the tier's full price; and the one rule for "active today", in Rust
//! ([`is_active`], [`is_organisation_active`]) and in SQL, where it is the functions
//! `subscription_active(is_active, valid_until, today)` and
//! `organisation_subscription_active(is_active, start_date, valid_until, today)` (migration
//! `20261127000001_active_rule.sql`), which every statement that asks "active" calls
//! (`domain/tests/active.rs` checks that the two agree). The staff's row of a subscription
//! ([`staff_subscriptions!`], [`StaffRow`]) is read here too, as it is built on both.

use chrono::{DateTime, Days, NaiveDate, Utc};
use serde::Serialize;
use serde_json::Value;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::books;
use super::catalogue::tier;
use super::details::validate_billing;
use super::status::{self, PaymentStatus};
use super::{BillingDetails, Cents, CmsSubscription, NOT_FOUND, PAYMENT_NOT_FOUND, TRIAL_USED, money, period_end};
use crate::refusal::Refusal;

/// The fields "active" is decided on for a user subscription (its own, or one a seat is on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Term {
    /// The switch: set on activation (trials at once), cleared by the nightly expiry and by staff.
    pub is_active: bool,
    /// The last day of access (end of that day, Europe/Amsterdam); none before activation.
    pub valid_until: Option<NaiveDate>,
}

/// Whether a user subscription counts on `today`: switched on, and its last day is today or
/// later, so one that ran out is inactive at once, before any sweep. The twin of the SQL function
/// `subscription_active` (`domain/tests/active.rs` checks they agree).
pub fn is_active(row: &Term, today: NaiveDate) -> bool {
    row.is_active && row.valid_until.is_some_and(|last| last >= today)
}

/// The fields "active" is decided on for an organisation subscription.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OrganisationTerm {
    pub is_active: bool,
    /// None: no first day.
    pub start_date: Option<NaiveDate>,
    /// None: no last day.
    pub valid_until: Option<NaiveDate>,
}

/// Whether an organisation subscription counts on `today`: switched on, started, and not past
/// its last day (either may be open). The twin of the SQL function
/// `organisation_subscription_active`.
pub fn is_organisation_active(row: &OrganisationTerm, today: NaiveDate) -> bool {
    row.is_active && row.start_date.is_none_or(|first| first <= today) && row.valid_until.is_none_or(|last| last >= today)
}

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
    Ok(transition(tx, provider_payment_id, status, mandate_id, today).await?.map(|(applied, _)| applied))
}

/// What the locked payment row held that [`apply`] decides its follow-ups on.
struct Held {
    is_first_payment: bool,
    amount: Cents,
    refunded: Cents,
    charged_back: Cents,
}

/// [`apply_provider_status_in`], answering also what the locked row held. The PAID transition is
/// two reads under lock (the payment first, then its subscription, as before) and one
/// statement that writes the payment, activates or extends the subscription and keeps the mandate.
async fn transition(
    tx: &mut PgConnection,
    provider_payment_id: &str,
    status: PaymentStatus,
    mandate_id: Option<&str>,
    today: NaiveDate,
) -> sqlx::Result<Option<(Applied, Held)>> {
    let Some(row) = sqlx::query!(
        r#"select id, status as "status: PaymentStatus", subscription_id, user_id, provider, is_first_payment, interval_months,
                  amount_cents::int8 as "amount!: Cents", amount_refunded_cents::int8 as "refunded!: Cents",
                  amount_charged_back_cents::int8 as "charged_back!: Cents"
             from payments where provider_payment_id = $1 for update"#,
        provider_payment_id
    )
    .fetch_optional(&mut *tx)
    .await?
    else {
        return Ok(None);
    };
    let payment_id = row.id;
    let from = row.status;
    let held = Held { is_first_payment: row.is_first_payment, amount: row.amount, refunded: row.refunded, charged_back: row.charged_back };
    let Some(to) = status::transition(from, status) else {
        return Ok(Some((Applied { payment_id, from, to: from, changed: false, activated: false, valid_until: None }, held)));
    };
    if to != PaymentStatus::Paid {
        sqlx::query!(
            "update payments set status = $2, mandate_id = coalesce($3, mandate_id), updated_at = now() where id = $1",
            payment_id,
            to.as_str(),
            mandate_id
        )
        .execute(&mut *tx)
        .await?;
        return Ok(Some((Applied { payment_id, from, to, changed: true, activated: false, valid_until: None }, held)));
    }
    let first = held.is_first_payment;
    let sub = sqlx::query!("select valid_until, canceled_at, discount_id from subscriptions where id = $1 for update", row.subscription_id)
        .fetch_one(&mut *tx)
        .await?;
    let start = match (first, sub.valid_until) {
        (false, Some(until)) if until >= today => until.checked_add_days(Days::new(1)).unwrap_or(today),
        _ => today,
    };
    let end = period_end(start, row.interval_months as u32);
    // the subscription active until `end`, the mandate kept with the customer (when the provider
    // gave one), and the payment PAID for its period: one statement, as data-modifying parts of a
    // `with` all run to completion
    sqlx::query!(
        "with subscription as (
           update subscriptions set is_active = true, valid_until = $5,
                  next_payment_date = case when canceled_at is null then $6::date else null end,
                  renew_without_discount_date = case when $7 and discount_id is not null then $6::date else renew_without_discount_date end,
                  updated_at = now()
            where id = $8),
         customer as (
           update payment_customers set mandate_id = $3 where $3::text is not null and user_id = $9 and provider = $10)
         update payments set status = $2, mandate_id = coalesce($3, mandate_id), period_start = $4, period_end = $5,
                paid_at = now(), updated_at = now()
          where id = $1",
        payment_id,
        to.as_str(),
        mandate_id,
        start,
        end,
        if sub.canceled_at.is_none() { end.checked_add_days(Days::new(1)) } else { None },
        first && sub.discount_id.is_some(),
        row.subscription_id,
        row.user_id,
        row.provider,
    )
    .execute(&mut *tx)
    .await?;
    Ok(Some((Applied { payment_id, from, to, changed: true, activated: true, valid_until: Some(end) }, held)))
}

/// 'Annuleren' on a payment that is no longer open at us.
pub const PAYMENT_NOT_OPEN: &str = "Deze betaling is al afgerond en kan niet meer worden geannuleerd.";

/// An open payment its owner may cancel: ours and the provider's id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenPayment {
    pub id: Uuid,
    pub provider_payment_id: String,
}

/// The first step of cancelling a payment ('Annuleren' on the subscription page): the owner's
/// payment (another's or an unknown id: 404 'Betaling niet gevonden'), OPEN at us and made at
/// the provider (else 409). The provider cancels it next; its answer is applied with
/// [`apply_provider_status`], the one rule every status takes, so a webhook or reconciliation
/// that reports the cancellation again changes nothing.
pub async fn open_payment_of(db: &PgPool, owner_id: &str, payment_id: Uuid) -> Result<OpenPayment, Refusal> {
    let row = sqlx::query!(
        r#"select status as "status: PaymentStatus", provider_payment_id from payments where id = $1 and user_id = $2"#,
        payment_id,
        owner_id
    )
    .fetch_optional(db)
    .await?
    .ok_or(Refusal::NotFound(PAYMENT_NOT_FOUND))?;
    match (row.status, row.provider_payment_id) {
        (PaymentStatus::Open, Some(provider_payment_id)) => Ok(OpenPayment { id: payment_id, provider_payment_id }),
        _ => Err(Refusal::Conflict(PAYMENT_NOT_OPEN)),
    }
}

/// What the provider says of a payment, as [`apply`] needs it.
#[derive(Debug, Clone, Copy)]
pub struct ProviderView<'a> {
    /// The provider's id of the payment (`tr_...`).
    pub id: &'a str,
    pub mandate_id: Option<&'a str>,
    /// Refunded so far, in cents.
    pub amount_refunded_cents: Cents,
    /// Charged back so far, in cents.
    pub amount_charged_back_cents: Cents,
}

/// Work a payment's status implies beyond our own rows: the bookkeeping's contact, invoice and
/// credit invoice. `jobs` turns each into a job keyed by the payment, so hearing "paid" again
/// queues nothing new.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FollowUp {
    /// A paid first payment: the user's contact in the bookkeeping.
    Contact { payment_id: Uuid },
    /// A paid payment with an amount above zero: its invoice.
    Invoice { payment_id: Uuid },
    /// The total refunded and charged back changed: a credit invoice when it grew, a reversal
    /// when it went down; `version` counts the changes (one job each).
    Credit { payment_id: Uuid, version: i32 },
}

/// The PAID transition and the others: applies the provider's view of a payment to ours inside
/// `tx` (forward only, [`apply_provider_status_in`]) and answers what happened with the work it
/// implies, to be queued in the same transaction: for a paid payment its contact (first
/// payments) and its invoice (amounts above zero); for a refund or chargeback that grew, a credit
/// invoice. `None`: no payment of ours has that id.
pub async fn apply(
    tx: &mut PgConnection,
    theirs: ProviderView<'_>,
    status: PaymentStatus,
    today: NaiveDate,
) -> Result<Option<(Applied, Vec<FollowUp>)>, Refusal> {
    let Some((applied, held)) = transition(tx, theirs.id, status, theirs.mandate_id, today).await? else {
        return Ok(None);
    };
    let mut follow_ups = Vec::new();
    if applied.to == PaymentStatus::Paid {
        let payment_id = applied.payment_id;
        if held.is_first_payment {
            follow_ups.push(FollowUp::Contact { payment_id });
        }
        if books::needs_invoice(applied.to, held.amount) {
            follow_ups.push(FollowUp::Invoice { payment_id });
        }
        // the totals as the locked row holds them: unchanged, there is nothing to record
        let news = (theirs.amount_refunded_cents, theirs.amount_charged_back_cents) != (held.refunded, held.charged_back);
        if news
            && let Some(change) =
                books::record_refunds(tx, theirs.id, theirs.amount_refunded_cents, theirs.amount_charged_back_cents).await?
        {
            follow_ups.push(FollowUp::Credit { payment_id: change.payment_id, version: change.version });
        }
    }
    Ok(Some((applied, follow_ups)))
}

/// Whether `user_id` has activated a trial (one per user ever): the trial tier is then not
/// offered, and says why ([`TRIAL_USED`]).
pub async fn trial_used(db: &PgPool, user_id: &str) -> sqlx::Result<bool> {
    sqlx::query_scalar!(r#"select exists (select 1 from trial_uses where user_id = $1) as "used!""#, user_id).fetch_one(db).await
}

/// Activates the trial tier for `user_id`, once per user ever: the row in `trial_uses` (its
/// primary key is the user) is written in the same transaction, so of concurrent calls one wins
/// and the others get 'Gebruiker heeft al eens een proefabonnement geactiveerd'.
pub async fn create_trial(db: &PgPool, user_id: &str, details: &BillingDetails, today: NaiveDate) -> Result<Uuid, Refusal> {
    let d = validate_billing(details)?;
    let mut tx = db.begin().await?;
    let tier = tier(&mut tx, d.tier_id).await?.ok_or(Refusal::Invalid("Onbekend abonnement gekozen."))?;
    if !tier.is_trial {
        return Err(Refusal::Invalid("Dit abonnement is geen proefabonnement."));
    }
    let first = sqlx::query!("insert into trial_uses (user_id) values ($1) on conflict (user_id) do nothing", user_id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    if first == 0 {
        return Err(Refusal::Conflict(TRIAL_USED));
    }
    let id = Uuid::new_v4();
    let end = today.checked_add_days(Days::new(tier.trial_days.unwrap_or(14).max(1) as u64 - 1)).unwrap_or(today);
    sqlx::query!(
        "insert into subscriptions (id, user_id, tier_id, description, is_active, is_trial, is_individual, user_amount,
                                    interval_months, price_per_user, amount, valid_until)
         values ($1, $2, $3, $4, true, true, true, 1, 1, 0, 0, $5)",
        id,
        user_id,
        tier.id,
        format!("Spreekkamer {} (proefabonnement)", tier.name),
        end
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!("update trial_uses set subscription_id = $2 where user_id = $1", user_id, id).execute(&mut *tx).await?;
    tx.commit().await?;
    Ok(id)
}

pub const CANNOT_RENEW: &str =
    "Dit abonnement kan niet worden verlengd: alleen een betaald abonnement met een datum voor verlenging zonder korting.";

pub const NOT_A_FIRST_PAYMENT: &str = "De eerste betaling van het abonnement is niet gevonden of niet betaald.";

/// Whether staff may renew a subscription (spec §2.3): a paid one with a renew-without-discount
/// date, and a first payment to renew from.
pub fn can_renew(is_trial: bool, renew_without_discount_date: Option<NaiveDate>, first_payment: Option<Uuid>) -> bool {
    !is_trial && renew_without_discount_date.is_some() && first_payment.is_some()
}

/// One subscription, locked for a change in `tx`; with `owner`, only when it is theirs.
async fn locked_of(tx: &mut PgConnection, id: Uuid, today: NaiveDate, owner: Option<&str>) -> Result<CmsSubscription, Refusal> {
    let row = staff_subscriptions!("where s.id = $2 and ($3::text is null or s.user_id = $3) for update of s", today, id, owner)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(Refusal::NotFound(NOT_FOUND))?;
    Ok(row.into())
}

/// One subscription, locked for a change in `tx`.
async fn locked(tx: &mut PgConnection, id: Uuid, today: NaiveDate) -> Result<CmsSubscription, Refusal> {
    locked_of(tx, id, today, None).await
}

/// A change made: the subscription before and after (for the answer and the audit log).
#[derive(Debug, Clone)]
pub struct Changed {
    pub before: CmsSubscription,
    pub after: CmsSubscription,
}

impl Changed {
    /// What `shown` shows of the subscription before and after, as the audit log keeps it.
    pub fn changes<S: serde::Serialize>(&self, shown: impl Fn(&CmsSubscription) -> S) -> Value {
        crate::audit::before_after(&self.before, &self.after, shown)
    }
}

/// Switches a subscription on or off. Switching on a subscription whose valid-until has passed
/// (or that has none) leaves it off: active follows valid-until (spec §2.3).
pub async fn set_active(tx: &mut PgConnection, id: Uuid, active: bool, today: NaiveDate) -> Result<Changed, Refusal> {
    let before = locked(tx, id, today).await?;
    sqlx::query!(
        "update subscriptions set is_active = subscription_active($2, valid_until, $3), updated_at = now() where id = $1",
        id,
        active,
        today
    )
    .execute(&mut *tx)
    .await?;
    Ok(Changed { before, after: locked(tx, id, today).await? })
}

/// Sets a subscription's last day. A day before today also switches it off.
pub async fn set_valid_until(tx: &mut PgConnection, id: Uuid, valid_until: NaiveDate, today: NaiveDate) -> Result<Changed, Refusal> {
    let before = locked(tx, id, today).await?;
    sqlx::query!(
        "update subscriptions set valid_until = $2, is_active = subscription_active(is_active, $2, $3), updated_at = now() where id = $1",
        id,
        valid_until,
        today
    )
    .execute(&mut *tx)
    .await?;
    Ok(Changed { before, after: locked(tx, id, today).await? })
}

/// Who cancels a subscription.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actor<'a> {
    /// The practitioner on their subscription page: only their own, only while it is active.
    Owner(&'a str),
    /// Staff in the CMS (the api writes the audit entry in the same transaction): any
    /// subscription, active or not.
    Staff,
}

/// The owner's refusal of cancelling a subscription that is not active (and not cancelled).
pub const NOT_ACTIVE: &str = "Dit abonnement is niet actief en kan niet worden opgezegd.";

/// Cancels a subscription in `tx`: no more renewals (`canceledAt` set, the next payment date
/// cleared); it stays usable until valid-until. Cancelling a cancelled subscription again changes
/// nothing. The actor decides the rest: an owner cancels only their own ('Abonnement niet
/// gevonden' otherwise) and only while it is active ([`NOT_ACTIVE`]); staff cancel any.
/// Answers the subscription before and after.
pub async fn cancel(tx: &mut PgConnection, actor: Actor<'_>, id: Uuid, today: NaiveDate) -> Result<Changed, Refusal> {
    let owner = match actor {
        Actor::Owner(user_id) => Some(user_id),
        Actor::Staff => None,
    };
    let before = locked_of(tx, id, today, owner).await?;
    if owner.is_some() && before.canceled_at.is_none() && !before.is_active {
        return Err(Refusal::Conflict(NOT_ACTIVE));
    }
    sqlx::query!(
        "update subscriptions set canceled_at = now(), next_payment_date = null, updated_at = now() where id = $1 and canceled_at is null",
        id
    )
    .execute(&mut *tx)
    .await?;
    Ok(Changed { before, after: locked(tx, id, today).await? })
}

/// A renewed subscription: the old one and the new one.
#[derive(Debug, Clone)]
pub struct Renewed {
    pub old: CmsSubscription,
    pub new: CmsSubscription,
}

/// Renews the subscription whose first payment is `first_payment_id` (the latest one made from
/// it that is not cancelled) from `start`: a new subscription for the same user, tier, users and
/// interval at the tier's full price without a discount. It is valid until the day before `start`
/// and active when that day has not passed (with the old one's state), its next payment is due
/// on `start` (the renewal sweep charges it through the user's mandate and extends it), and the
/// linked users move to it. The old subscription is cancelled and ends the day before `start` at
/// the latest.
pub async fn renew(tx: &mut PgConnection, first_payment_id: Uuid, start: NaiveDate, today: NaiveDate) -> Result<Renewed, Refusal> {
    let subscription_id = sqlx::query_scalar!(
        "select s.id from payments p join subscriptions s on s.id = p.subscription_id
          where p.id = $1 and p.status = 'PAID' and s.first_payment_id = p.id
          order by s.canceled_at is null desc, s.created_at desc limit 1",
        first_payment_id
    )
    .fetch_optional(&mut *tx)
    .await?
    .ok_or(Refusal::NotFound(NOT_A_FIRST_PAYMENT))?;
    let old = locked(tx, subscription_id, today).await?;
    if !old.can_renew {
        return Err(Refusal::Conflict(CANNOT_RENEW));
    }
    let s = sqlx::query!(
        r#"select s.user_amount, s.interval_months,
                  t.price_per_user_month::int8 as "month!: Cents", t.price_per_user_year::int8 as "year!: Cents"
             from subscriptions s join subscription_tiers t on t.id = s.tier_id where s.id = $1"#,
        subscription_id
    )
    .fetch_one(&mut *tx)
    .await?;
    let per_user = money::price_per_user(s.month, s.year, s.interval_months, None);
    let amount = money::total(per_user, s.user_amount as i64);
    let new_id = Uuid::new_v4();
    let last_old_day = start.pred_opt().unwrap_or(start);
    sqlx::query!(
        "insert into subscriptions (id, user_id, tier_id, description, is_active, is_trial, is_individual, user_amount, interval_months,
                                    price_per_user, amount, valid_until, next_payment_date, first_payment_id)
         select $2, user_id, tier_id, description, subscription_active(is_active, $6, $7), false, is_individual, user_amount,
                interval_months, $3, $4, $6, $5, first_payment_id
           from subscriptions where id = $1",
        subscription_id,
        new_id,
        per_user.to_column(),
        amount.to_column(),
        start,
        last_old_day,
        today
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!("update linked_subscriptions set subscription_id = $2 where subscription_id = $1", subscription_id, new_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query!(
        "update subscriptions set canceled_at = coalesce(canceled_at, now()), next_payment_date = null,
                renew_without_discount_date = null, valid_until = least(valid_until, $2),
                is_active = subscription_active(is_active, least(valid_until, $2), $3), updated_at = now()
          where id = $1",
        subscription_id,
        last_old_day,
        today
    )
    .execute(&mut *tx)
    .await?;
    Ok(Renewed { old: locked(tx, subscription_id, today).await?, new: locked(tx, new_id, today).await? })
}

/// A compile-checked statement answering [`StaffRow`]s: the staff's row of a subscription from
/// `subscriptions s join users u` with `$1` today, followed by `$tail` (a string literal: the
/// conditions, order and locks) and the statement's arguments, today first.
macro_rules! staff_subscriptions {
    ($tail:literal, $($arg:expr),+ $(,)?) => {
        sqlx::query_as!(
            $crate::billing::lifecycle::StaffRow,
            r#"select s.id, s.user_id, u.email as user_email, s.description,
                      subscription_active(s.is_active, s.valid_until, $1) as "active!", s.is_trial, s.is_individual,
                      s.user_amount, s.interval_months, s.created_at, s.valid_until, s.canceled_at, s.next_payment_date,
                      s.renew_without_discount_date, s.first_payment_id
                 from subscriptions s join users u on u.id = s.user_id "# + $tail,
            $($arg),+
        )
    };
}
pub(crate) use staff_subscriptions;

/// The staff's row of a subscription as [`staff_subscriptions!`] reads it.
pub(crate) struct StaffRow {
    pub(crate) id: Uuid,
    pub(crate) user_id: String,
    pub(crate) user_email: String,
    pub(crate) description: String,
    pub(crate) active: bool,
    pub(crate) is_trial: bool,
    pub(crate) is_individual: bool,
    pub(crate) user_amount: i32,
    pub(crate) interval_months: i32,
    pub(crate) created_at: DateTime<Utc>,
    pub(crate) valid_until: Option<NaiveDate>,
    pub(crate) canceled_at: Option<DateTime<Utc>>,
    pub(crate) next_payment_date: Option<NaiveDate>,
    pub(crate) renew_without_discount_date: Option<NaiveDate>,
    pub(crate) first_payment_id: Option<Uuid>,
}

impl From<StaffRow> for CmsSubscription {
    fn from(r: StaffRow) -> Self {
        CmsSubscription {
            can_renew: can_renew(r.is_trial, r.renew_without_discount_date, r.first_payment_id),
            id: r.id,
            user_id: r.user_id,
            user_email: r.user_email,
            description: r.description,
            is_active: r.active,
            is_trial: r.is_trial,
            is_individual: r.is_individual,
            user_amount: r.user_amount,
            interval_months: r.interval_months,
            created_at: r.created_at,
            valid_until: r.valid_until,
            canceled_at: r.canceled_at,
            next_payment_date: r.next_payment_date,
            renew_subscription_without_discount_date: r.renew_without_discount_date,
            first_payment_id: r.first_payment_id,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_paid_subscriptions_with_a_date_renew() {
        let day = NaiveDate::from_ymd_opt(2026, 12, 1);
        let payment = Some(Uuid::nil());
        assert!(can_renew(false, day, payment));
        assert!(!can_renew(true, day, payment));
        assert!(!can_renew(false, None, payment));
        assert!(!can_renew(false, day, None));
    }
}
