//! Statistieken: the tiles (each one cheap query) and the last 90 days per day.

use chrono::NaiveDate;
use serde::Serialize;
use sqlx::PgPool;

/// Days the charts show.
pub const CHART_DAYS: i32 = 90;

/// One counter of the Statistieken tab (spec §2.3, §7.2, §7.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counter {
    /// 'Ingelogde gebruikers': users with an authenticated call in the last 15 minutes (the api
    /// notes a user's call at most every 5 minutes).
    ActiveUsers,
    /// Live consult sessions that are open now.
    ConsultsNow,
    NewUsersToday,
    Users,
    PaidSubscriptions,
    PaidSubscriptionsActive,
    TrialSubscriptions,
    TrialSubscriptionsActive,
    OrganisationSubscriptions,
    OrganisationSubscriptionsActive,
    /// Consults made today (Europe/Amsterdam), all sources.
    ConsultsToday,
    /// Consults the record system made today.
    RecordSystemConsultsToday,
}

/// The counters with their statements (`$1` is today, Europe/Amsterdam), in the order of the
/// Statistieken tab: `Counter::ALL`, [`count`] (one counter) and `all_counts` (every counter in
/// one statement, in this order) are made from this one list, so each statement is written once.
macro_rules! counters {
    ($first:ident => $first_sql:literal, $($counter:ident => $sql:literal),+ $(,)?) => {
        impl Counter {
            /// Every counter, in the order of the Statistieken tab.
            pub const ALL: [Counter; 12] = [Counter::$first, $(Counter::$counter),+];
        }

        /// A counter's value today.
        pub async fn count(db: &PgPool, counter: Counter, today: NaiveDate) -> sqlx::Result<i64> {
            match counter {
                Counter::$first => sqlx::query_scalar!(r#"select ("# + $first_sql + r#") as "n!""#, today).fetch_one(db).await,
                $(Counter::$counter => sqlx::query_scalar!(r#"select ("# + $sql + r#") as "n!""#, today).fetch_one(db).await,)+
            }
        }

        /// Every counter's value today, in the order of `Counter::ALL`, in one statement.
        async fn all_counts(db: &PgPool, today: NaiveDate) -> sqlx::Result<Vec<i64>> {
            sqlx::query_scalar!("select array[(" + $first_sql + ")" $(+ ", (" + $sql + ")")+ + r#"] as "counts!""#, today)
                .fetch_one(db)
                .await
        }
    };
}

counters! {
    ActiveUsers => "select count(*) from users where last_seen_at > now() - make_interval(mins => 15) and $1::date is not null",
    ConsultsNow => "select count(*) from consult_sessions where expires_at > now() and $1::date is not null",
    NewUsersToday => "select count(*) from users where created_at >= $1::date::timestamp at time zone 'Europe/Amsterdam'",
    Users => "select count(*) from users where $1::date is not null",
    PaidSubscriptions => "select count(*) from subscriptions where not is_trial and $1::date is not null",
    PaidSubscriptionsActive => "select count(*) from subscriptions where not is_trial and subscription_active(is_active, valid_until, $1)",
    TrialSubscriptions => "select count(*) from subscriptions where is_trial and $1::date is not null",
    TrialSubscriptionsActive => "select count(*) from subscriptions where is_trial and subscription_active(is_active, valid_until, $1)",
    OrganisationSubscriptions => "select count(*) from organisation_subscriptions where $1::date is not null",
    OrganisationSubscriptionsActive => "select count(*) from organisation_subscriptions o
                                         where organisation_subscription_active(o.is_active, o.start_date, o.valid_until, $1)",
    ConsultsToday => "select coalesce(sum(n), 0)::int8 from consult_days where day = $1",
    RecordSystemConsultsToday => "select coalesce(sum(n), 0)::int8 from consult_days where day = $1 and source = 'record_system'",
}

/// Every tile at once.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Statistics {
    pub active_users: i64,
    pub consults_now: i64,
    pub new_users_today: i64,
    pub users: i64,
    pub paid_subscriptions: i64,
    pub paid_subscriptions_active: i64,
    pub trial_subscriptions: i64,
    pub trial_subscriptions_active: i64,
    pub organisation_subscriptions: i64,
    pub organisation_subscriptions_active: i64,
    pub consults_today: i64,
    pub record_system_consults_today: i64,
}

/// Every tile in one statement: the counters' own queries as its elements, so a look at the tab
/// takes one connection, not twelve.
pub async fn statistics(db: &PgPool, today: NaiveDate) -> sqlx::Result<Statistics> {
    let counts = all_counts(db, today).await?;
    let n = |i: usize| counts[i];
    Ok(Statistics {
        active_users: n(0),
        consults_now: n(1),
        new_users_today: n(2),
        users: n(3),
        paid_subscriptions: n(4),
        paid_subscriptions_active: n(5),
        trial_subscriptions: n(6),
        trial_subscriptions_active: n(7),
        organisation_subscriptions: n(8),
        organisation_subscriptions_active: n(9),
        consults_today: n(10),
        record_system_consults_today: n(11),
    })
}

/// One day of the charts.
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Day {
    pub day: NaiveDate,
    pub new_users: i64,
    pub consults: i64,
    /// Paid subscriptions that started: first payments paid that day.
    pub paid_subscriptions: i64,
}

/// The last [`CHART_DAYS`] days up to `today`, oldest first, each day present.
pub async fn daily(db: &PgPool, today: NaiveDate) -> sqlx::Result<Vec<Day>> {
    sqlx::query_as!(
        Day,
        r#"with days as (select generate_series($1::date - ($2 - 1), $1::date, interval '1 day')::date as day),
              since as (select ($1::date - ($2 - 1))::timestamp at time zone 'Europe/Amsterdam' as at),
              new_users as (select (created_at at time zone 'Europe/Amsterdam')::date as day, count(*) as n
                              from users where created_at >= (select at from since) group by 1),
              consults as (select day, sum(n)::int8 as n from consult_days where day >= $1::date - ($2 - 1) group by 1),
              paid as (select (paid_at at time zone 'Europe/Amsterdam')::date as day, count(*) as n from payments
                        where status = 'PAID' and is_first_payment and paid_at >= (select at from since) group by 1)
         select days.day as "day!", coalesce(new_users.n, 0) as "new_users!", coalesce(consults.n, 0) as "consults!",
                coalesce(paid.n, 0) as "paid_subscriptions!"
           from days left join new_users using (day) left join consults using (day) left join paid using (day)
          order by days.day"#,
        today,
        CHART_DAYS,
    )
    .fetch_all(db)
    .await
}
