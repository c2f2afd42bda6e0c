//! "Active today" is written once in SQL (the functions `subscription_active` and
//! `organisation_subscription_active`, migration `20261127000001_active_rule.sql`) and once in Rust
//! (`billing::lifecycle::is_active`, `is_organisation_active`); the queries that answer the
//! practitioner's page and the gate call the SQL. For every kind of
//! subscription (own, a seat on someone else's, an organisation's), every state (trial, paid,
//! cancelled, expired, not yet started, and for organisations without an end) and the last day as
//! well as the day after, the SQL, the Rust and the gate's queries agree.

use chrono::{Days, NaiveDate};
use domain::billing::lifecycle::{self, OrganisationTerm, Term};
use domain::billing::read;
use sqlx::PgPool;
use uuid::Uuid;

const TRIAL: Uuid = Uuid::from_u128(0x5b0e1a52_2f1c_4c57_9a6e_000000000001);
const PRACTICE: Uuid = Uuid::from_u128(0x5b0e1a52_2f1c_4c57_9a6e_000000000003);

/// The last day every subscription of the grid has (when it has one).
fn last_day() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 30).unwrap()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Trial,
    Paid,
    Cancelled,
    /// Switched off by the nightly expiry.
    Expired,
    /// Waiting for its first payment (user), or starting after the last day (organisation).
    NotYetStarted,
}

const STATES: [State; 5] = [State::Trial, State::Paid, State::Cancelled, State::Expired, State::NotYetStarted];

async fn user(db: &PgPool, id: &str) -> String {
    let email = format!("{id}@example.nl");
    sqlx::query("insert into users (id, email, preferred_username) values ($1, $2, $1)").bind(id).bind(&email).execute(db).await.unwrap();
    email
}

/// A user subscription of `owner` in `state`, and the fields "active" is decided on.
async fn subscription(db: &PgPool, owner: &str, state: State) -> (Uuid, Term) {
    let term = match state {
        State::Trial | State::Paid | State::Cancelled => Term { is_active: true, valid_until: Some(last_day()) },
        State::Expired => Term { is_active: false, valid_until: Some(last_day()) },
        State::NotYetStarted => Term { is_active: false, valid_until: None },
    };
    let id = Uuid::new_v4();
    sqlx::query(
        "insert into subscriptions (id, user_id, tier_id, description, is_active, is_trial, user_amount, interval_months,
                                    price_per_user, amount, valid_until, canceled_at)
         values ($1, $2, $3, 'grid', $4, $5, 3, 1, 4680, 14040, $6, case when $7 then now() end)",
    )
    .bind(id)
    .bind(owner)
    .bind(if state == State::Trial { TRIAL } else { PRACTICE })
    .bind(term.is_active)
    .bind(state == State::Trial)
    .bind(term.valid_until)
    .bind(state == State::Cancelled)
    .execute(db)
    .await
    .unwrap();
    (id, term)
}

async fn sql_active(db: &PgPool, id: Uuid, today: NaiveDate) -> bool {
    sqlx::query_scalar("select subscription_active(s.is_active, s.valid_until, $1) from subscriptions s where s.id = $2")
        .bind(today)
        .bind(id)
        .fetch_one(db)
        .await
        .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn own_and_seat_subscriptions_are_active_by_the_same_rule_in_sql_and_rust(db: PgPool) {
    let mut seen = [false, false];
    for (n, state) in STATES.into_iter().enumerate() {
        for (d, today) in [last_day(), last_day() + Days::new(1)].into_iter().enumerate() {
            let owner = format!("owner{n}{d}");
            let owner_email = user(&db, &owner).await;
            let holder = format!("holder{n}{d}");
            let holder_email = user(&db, &holder).await;
            let (id, term) = subscription(&db, &owner, state).await;
            sqlx::query("insert into linked_subscriptions (id, subscription_id, user_id) values ($1, $2, $3)")
                .bind(Uuid::new_v4())
                .bind(id)
                .bind(&holder)
                .execute(&db)
                .await
                .unwrap();
            let expected = lifecycle::is_active(&term, today);
            seen[usize::from(expected)] = true;
            let cell = format!("{state:?} on {today}");
            assert_eq!(sql_active(&db, id, today).await, expected, "SQL function, {cell}");
            assert_eq!(read::has_active(&db, &owner, &owner_email, today).await.unwrap(), expected, "own, {cell}");
            assert_eq!(read::has_active(&db, &holder, &holder_email, today).await.unwrap(), expected, "seat, {cell}");
            assert_eq!(read::may_use_product(&db, &holder, &holder_email, today).await.unwrap(), expected, "gate, seat, {cell}");
            let own = read::for_user(&db, &owner, today).await.unwrap();
            assert_eq!(own[0].is_active, expected, "the page, {cell}");
            let seats = read::linked_for_user(&db, &holder, &holder_email, today).await.unwrap();
            assert_eq!(seats[0].active, expected, "the seat's page, {cell}");
        }
    }
    assert_eq!(seen, [true, true], "the grid has active and inactive cells");
}

#[sqlx::test(migrations = "../migrations")]
async fn organisation_subscriptions_are_active_by_the_same_rule_in_sql_and_rust(db: PgPool) {
    let last = last_day();
    // trial and paid are one kind for an organisation: switched on with a term
    let terms = [
        ("running", OrganisationTerm { is_active: true, start_date: Some(last - Days::new(30)), valid_until: Some(last) }),
        ("cancelled", OrganisationTerm { is_active: false, start_date: Some(last - Days::new(30)), valid_until: Some(last) }),
        ("expired", OrganisationTerm { is_active: true, start_date: None, valid_until: Some(last - Days::new(1)) }),
        ("not yet started", OrganisationTerm { is_active: true, start_date: Some(last + Days::new(1)), valid_until: None }),
        ("without an end", OrganisationTerm { is_active: true, start_date: None, valid_until: None }),
    ];
    let mut seen = [false, false];
    for (n, (state, term)) in terms.into_iter().enumerate() {
        for (d, today) in [last, last + Days::new(1)].into_iter().enumerate() {
            let member = format!("member{n}{d}");
            let email = user(&db, &member).await;
            let id = Uuid::new_v4();
            sqlx::query(
                "insert into organisation_subscriptions (id, description, user_id, start_date, valid_until, is_active)
                 values ($1, 'grid', $2, $3, $4, $5)",
            )
            .bind(id)
            .bind(&member)
            .bind(term.start_date)
            .bind(term.valid_until)
            .bind(term.is_active)
            .execute(&db)
            .await
            .unwrap();
            let expected = lifecycle::is_organisation_active(&term, today);
            seen[usize::from(expected)] = true;
            let cell = format!("{state} on {today}");
            let sql: bool = sqlx::query_scalar(
                "select organisation_subscription_active(o.is_active, o.start_date, o.valid_until, $1)
                   from organisation_subscriptions o where o.id = $2",
            )
            .bind(today)
            .bind(id)
            .fetch_one(&db)
            .await
            .unwrap();
            assert_eq!(sql, expected, "SQL function, {cell}");
            assert_eq!(read::has_active_organisation(&db, &member, &email, today).await.unwrap(), expected, "gate, {cell}");
            let listed = read::organisation_for_user(&db, &member, &email, today).await.unwrap();
            assert_eq!(listed[0].active, expected, "the page, {cell}");
        }
    }
    assert_eq!(seen, [true, true], "the grid has active and inactive cells");
}
