//! The subscription sweeps: expiry after the last day (user and organisation subscriptions,
//! idempotent, counted), the 5-day unpaid check (recorded once, staff told once, closed when paid),
//! and the invitation e-mail of a seat for an address without an account.

mod common;

use std::time::Duration;

use chrono::{Days, NaiveDate};
use common::{Harness, user};
use jobs::JobState;
use jobs::kinds::{CheckUnpaid, ExpireSubscriptions, SendEmail};
use serde_json::json;
use sqlx::PgPool;
use uuid::Uuid;

const INDIVIDUAL: &str = "5b0e1a52-2f1c-4c57-9a6e-000000000002";

fn today() -> NaiveDate {
    domain::subscriptions::today()
}

/// An active paid subscription of `user_id`, made `age_days` days ago, valid until `until`.
async fn subscription(db: &PgPool, user_id: &str, age_days: u64, until: NaiveDate, trial: bool) -> Uuid {
    let id = Uuid::new_v4();
    sqlx::query(
        "insert into subscriptions (id, user_id, tier_id, description, is_active, is_trial, is_individual, user_amount, interval_months,
                                    price_per_user, amount, valid_until, created_at)
         values ($1, $2, $3, 'Spreekkamer Individueel (maandelijks)', true, $6, true, 1, 1, $4, $4, $5,
                 now() - $7 * interval '1 day')",
    )
    .bind(id)
    .bind(user_id)
    .bind(Uuid::parse_str(INDIVIDUAL).unwrap())
    .bind(if trial { 0 } else { 4900 })
    .bind(until)
    .bind(trial)
    .bind(age_days as f64)
    .execute(db)
    .await
    .unwrap();
    id
}

async fn paid(db: &PgPool, subscription_id: Uuid, user_id: &str, start: NaiveDate, end: NaiveDate) {
    sqlx::query(
        "insert into payments (id, user_id, subscription_id, description, user_amount, amount_cents, status, interval_months,
                               is_first_payment, sequence_type, provider, idempotency_key, period_start, period_end, paid_at)
         values (gen_random_uuid(), $1, $2, 'Spreekkamer Individueel (maandelijks)', 1, 4900, 'PAID', 1, true, 'first', 'local',
                 gen_random_uuid()::text, $3, $4, now())",
    )
    .bind(user_id)
    .bind(subscription_id)
    .bind(start)
    .bind(end)
    .execute(db)
    .await
    .unwrap();
}

async fn active(db: &PgPool, id: Uuid) -> bool {
    sqlx::query_scalar("select is_active from subscriptions where id = $1").bind(id).fetch_one(db).await.unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn expiry_switches_off_what_ended_before_today_once(db: PgPool) {
    let h = Harness::new(db).await;
    user(&h.db, "u-1", "anna@example.nl").await;
    let yesterday = today().checked_sub_days(Days::new(1)).unwrap();
    let ended = subscription(&h.db, "u-1", 40, yesterday, false).await;
    let last_day = subscription(&h.db, "u-1", 40, today(), false).await;
    for (until, email) in [(yesterday, "a@praktijk.nl"), (today(), "b@praktijk.nl")] {
        sqlx::query(
            "insert into organisation_subscriptions (id, description, user_email, is_active, valid_until)
             values (gen_random_uuid(), 'Zorggroep Noord - Praktijk', $1, true, $2)",
        )
        .bind(email)
        .bind(until)
        .execute(&h.db)
        .await
        .unwrap();
    }
    let worker = h.start_worker(&[]);

    let first = h.enqueue(ExpireSubscriptions::job()).await;
    let job = h.wait_for_state(first, JobState::Succeeded, Duration::from_secs(20)).await;
    assert_eq!(job.result.unwrap(), json!({ "subscriptions": 1, "organisationSubscriptions": 1 }));
    assert!(!active(&h.db, ended).await);
    assert!(active(&h.db, last_day).await, "the last day counts until its end");
    let org: Vec<(String, bool)> =
        sqlx::query_as("select user_email, is_active from organisation_subscriptions order by user_email").fetch_all(&h.db).await.unwrap();
    assert_eq!(org, vec![("a@praktijk.nl".to_owned(), false), ("b@praktijk.nl".to_owned(), true)]);

    let second = h.enqueue(ExpireSubscriptions::job()).await;
    let job = h.wait_for_state(second, JobState::Succeeded, Duration::from_secs(20)).await;
    assert_eq!(job.result.unwrap(), json!({ "subscriptions": 0, "organisationSubscriptions": 0 }), "idempotent");
    worker.shutdown().await;
}

#[sqlx::test(migrations = "../migrations")]
async fn the_unpaid_check_records_once_tells_staff_once_and_closes_when_paid(db: PgPool) {
    let h = Harness::new(db).await;
    for (id, email) in [("u-1", "anna@example.nl"), ("u-2", "bram@example.nl"), ("u-3", "carla@example.nl"), ("u-4", "dirk@example.nl")] {
        user(&h.db, id, email).await;
    }
    let month = today().checked_add_days(Days::new(25)).unwrap();
    let unpaid = subscription(&h.db, "u-1", 5, month, false).await;
    let young = subscription(&h.db, "u-2", 4, month, false).await;
    let trial = subscription(&h.db, "u-3", 10, month, true).await;
    let covered = subscription(&h.db, "u-4", 10, month, false).await;
    paid(&h.db, covered, "u-4", today().checked_sub_days(Days::new(10)).unwrap(), month).await;
    let worker = h.start_worker(&[("APP_STAFF_EMAIL", "Administratie <administratie@spreekkamer.nl>")]);

    let run = h.enqueue(CheckUnpaid::job()).await;
    let job = h.wait_for_state(run, JobState::Succeeded, Duration::from_secs(20)).await;
    let result = job.result.unwrap();
    assert_eq!(result["new"], 1);
    assert_eq!(result["problems"], json!([unpaid]));
    let _ = (young, trial);
    let email: Uuid = result["email"].as_str().unwrap().parse().unwrap();
    h.wait_for_state(email, JobState::Succeeded, Duration::from_secs(20)).await;
    let file = std::fs::read_to_string(h.dir.join("outbox").join(format!("{email}.eml"))).unwrap();
    assert!(file.contains("To: Administratie <administratie@spreekkamer.nl>"), "{file}");
    assert!(file.contains("Subject: 1 abonnement zonder betaling"), "{file}");
    assert!(file.contains("Spreekkamer Individueel (maandelijks) (anna@example.nl), actief sinds"), "{file}");

    // the next run finds nothing new and sends nothing
    let again = h.enqueue(CheckUnpaid::job()).await;
    let job = h.wait_for_state(again, JobState::Succeeded, Duration::from_secs(20)).await;
    assert_eq!(job.result.unwrap()["new"], 0);
    assert_eq!(job_count(&h.db, "email").await, 1, "one e-mail in all");
    let open: i64 =
        sqlx::query_scalar("select count(*) from subscription_problems where resolved_at is null").fetch_one(&h.db).await.unwrap();
    assert_eq!(open, 1);

    // paid: the problem closes
    paid(&h.db, unpaid, "u-1", today(), month).await;
    let third = h.enqueue(CheckUnpaid::job()).await;
    h.wait_for_state(third, JobState::Succeeded, Duration::from_secs(20)).await;
    let open: i64 =
        sqlx::query_scalar("select count(*) from subscription_problems where resolved_at is null").fetch_one(&h.db).await.unwrap();
    assert_eq!(open, 0);
    worker.shutdown().await;
}

async fn job_count(db: &PgPool, kind: &str) -> i64 {
    sqlx::query_scalar("select count(*) from jobs where kind = $1").bind(kind).fetch_one(db).await.unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn a_seat_for_an_address_without_an_account_gets_an_invitation(db: PgPool) {
    let h = Harness::new(db).await;
    user(&h.db, "u-1", "anna@example.nl").await;
    sqlx::query("update users set preferred_name = 'Anna Jansen' where id = 'u-1'").execute(&h.db).await.unwrap();
    let sub = subscription(&h.db, "u-1", 1, today().checked_add_days(Days::new(30)).unwrap(), false).await;
    let seat = Uuid::new_v4();
    sqlx::query("insert into linked_subscriptions (id, subscription_id, email) values ($1, $2, 'collega@praktijk.nl')")
        .bind(seat)
        .bind(sub)
        .execute(&h.db)
        .await
        .unwrap();
    let removed = Uuid::new_v4();
    let worker = h.start_worker(&[]);

    let id = h.enqueue(SendEmail::seat_invitation(seat)).await;
    let job = h.wait_for_state(id, JobState::Succeeded, Duration::from_secs(20)).await;
    assert_eq!(job.result.unwrap()["recipient"], "collega@praktijk.nl");
    let file = std::fs::read_to_string(h.dir.join("outbox").join(format!("{id}.eml"))).unwrap();
    assert!(file.contains("To: collega@praktijk.nl"), "{file}");
    assert!(file.contains("Subject: Anna Jansen nodigt je uit voor Spreekkamer"), "{file}");
    assert!(file.contains("Log in met dit e-mailadres (collega@praktijk.nl)"), "{file}");

    // a seat removed before the job ran: nothing is sent
    let gone = h.enqueue(SendEmail::seat_invitation(removed)).await;
    let job = h.wait_for_state(gone, JobState::Succeeded, Duration::from_secs(20)).await;
    assert!(job.result.unwrap()["skipped"].is_string());
    assert!(!h.dir.join("outbox").join(format!("{gone}.eml")).exists());
    worker.shutdown().await;
}
