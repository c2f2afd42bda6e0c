//! The sweeps over subscriptions: expiry at the end of the last day, and the 5-day unpaid check
//! (spec §4, §9). Days are Europe/Amsterdam calendar days ([`crate::subscriptions::today`]); a
//! subscription valid until day D ends at the end of D (23:59:59.999), so it expires once today is
//! after D.

use chrono::NaiveDate;
use serde::Serialize;
use sqlx::PgPool;
use uuid::Uuid;

/// Days an active paid subscription may go without a paid payment before it is a problem (§9).
pub const UNPAID_DAYS: i32 = 5;

/// What the expiry sweep switched off.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Expired {
    pub subscriptions: u64,
    pub organisation_subscriptions: u64,
}

/// Switches off every user and organisation subscription whose last day is before `today`.
/// Idempotent: a second run changes nothing.
pub async fn expire(db: &PgPool, today: NaiveDate) -> sqlx::Result<Expired> {
    let mut tx = db.begin().await?;
    let subscriptions = sqlx::query("update subscriptions set is_active = false, updated_at = now() where is_active and valid_until < $1")
        .bind(today)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    let organisation_subscriptions =
        sqlx::query("update organisation_subscriptions set is_active = false where is_active and valid_until < $1")
            .bind(today)
            .execute(&mut *tx)
            .await?
            .rows_affected();
    tx.commit().await?;
    Ok(Expired { subscriptions, organisation_subscriptions })
}

/// A problem the unpaid check found, as the staff e-mail and the CMS list it.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
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

const PROBLEM_COLUMNS: &str = "p.id, p.subscription_id, s.description, s.user_id, u.email as user_email,
    s.created_at as subscription_created_at, s.valid_until, p.detected_at";

/// The unpaid check: an active subscription that costs money, made at least [`UNPAID_DAYS`] days
/// ago, with no PAID payment whose period covers `today`, is recorded as a problem (once while it
/// lasts: a unique index on the open problems). Problems whose subscription is paid for or no
/// longer active are closed. Returns the problems recorded by this run only.
pub async fn check_unpaid(db: &PgPool, today: NaiveDate) -> sqlx::Result<Vec<UnpaidProblem>> {
    let mut tx = db.begin().await?;
    sqlx::query(
        "update subscription_problems p set resolved_at = now()
          where p.kind = 'unpaid' and p.resolved_at is null
            and exists (select 1 from subscriptions s where s.id = p.subscription_id
                         and (not s.is_active or exists (select 1 from payments pay where pay.subscription_id = s.id and pay.status = 'PAID'
                                                          and pay.period_start <= $1 and pay.period_end >= $1)))",
    )
    .bind(today)
    .execute(&mut *tx)
    .await?;
    let new: Vec<Uuid> = sqlx::query_scalar(
        "insert into subscription_problems (id, subscription_id, kind)
         select gen_random_uuid(), s.id, 'unpaid' from subscriptions s
          where s.is_active and not s.is_trial and s.amount > 0
            and (s.created_at at time zone 'Europe/Amsterdam')::date <= $1::date - $2::int
            and not exists (select 1 from payments pay where pay.subscription_id = s.id and pay.status = 'PAID'
                             and pay.period_start <= $1 and pay.period_end >= $1)
         on conflict (subscription_id, kind) where resolved_at is null do nothing
         returning id",
    )
    .bind(today)
    .bind(UNPAID_DAYS)
    .fetch_all(&mut *tx)
    .await?;
    let problems = problems_by_id(&mut tx, &new).await?;
    tx.commit().await?;
    Ok(problems)
}

async fn problems_by_id(conn: &mut sqlx::PgConnection, ids: &[Uuid]) -> sqlx::Result<Vec<UnpaidProblem>> {
    sqlx::query_as(&format!(
        "select {PROBLEM_COLUMNS} from subscription_problems p join subscriptions s on s.id = p.subscription_id
           join users u on u.id = s.user_id where p.id = any($1) order by s.created_at, p.id"
    ))
    .bind(ids)
    .fetch_all(conn)
    .await
}

/// Problems by id (what a staff e-mail lists).
pub async fn problems(db: &PgPool, ids: &[Uuid]) -> sqlx::Result<Vec<UnpaidProblem>> {
    let mut conn = db.acquire().await?;
    problems_by_id(&mut conn, ids).await
}

/// The open problems, newest first (the CMS's `getAllSubscriptionProblems`).
pub async fn open_problems(db: &PgPool, limit: i64, offset: i64) -> sqlx::Result<Vec<UnpaidProblem>> {
    sqlx::query_as(&format!(
        "select {PROBLEM_COLUMNS} from subscription_problems p join subscriptions s on s.id = p.subscription_id
           join users u on u.id = s.user_id where p.resolved_at is null order by p.detected_at desc, p.id limit $1 offset $2"
    ))
    .bind(limit)
    .bind(offset)
    .fetch_all(db)
    .await
}

/// Marks problems as told to staff.
pub async fn mark_notified(db: &PgPool, ids: &[Uuid]) -> sqlx::Result<()> {
    sqlx::query("update subscription_problems set notified_at = coalesce(notified_at, now()) where id = any($1)")
        .bind(ids)
        .execute(db)
        .await?;
    Ok(())
}

/// A seat's invitation: who is invited, by whom, to which subscription. `None` when the seat was
/// removed since.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SeatInvitation {
    pub email: String,
    pub owner_name: String,
    pub owner_email: String,
    pub description: String,
}

pub async fn seat_invitation(db: &PgPool, seat_id: Uuid) -> sqlx::Result<Option<SeatInvitation>> {
    sqlx::query_as(
        "select l.email, coalesce(u.preferred_name, u.preferred_username) as owner_name, u.email as owner_email, s.description
           from linked_subscriptions l join subscriptions s on s.id = l.subscription_id join users u on u.id = s.user_id
          where l.id = $1 and l.email is not null",
    )
    .bind(seat_id)
    .fetch_optional(db)
    .await
}

/// Open problems staff have not been told about yet (this run's, and any an earlier run's e-mail
/// did not get to).
pub async fn unnotified(db: &PgPool) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar("select id from subscription_problems where resolved_at is null and notified_at is null order by detected_at, id")
        .fetch_all(db)
        .await
}
