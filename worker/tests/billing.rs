//! The subscription sweeps: expiry after the last day (user and organisation subscriptions,
//! idempotent, counted), the 5-day unpaid check (recorded once, staff told once, closed when paid),
//! and the invitation e-mail of a seat for an address without an account.

mod common;

use std::time::Duration;

use chrono::{Days, NaiveDate};
use common::{Harness, user};
use jobs::JobState;
use jobs::kinds::{CheckUnpaid, ExpireSubscriptions, RenewSubscription, RenewSubscriptions, SendEmail, SyncPayment};
use serde_json::json;
use sqlx::PgPool;
use uuid::Uuid;

const INDIVIDUAL: &str = "5b0e1a52-2f1c-4c57-9a6e-000000000002";

fn today() -> NaiveDate {
    domain::billing::today()
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
    assert_eq!(job.result.unwrap(), json!({ "subscriptions": 1, "organisationSubscriptions": 1, "organisationTerms": 0 }));
    assert!(!active(&h.db, ended).await);
    assert!(active(&h.db, last_day).await, "the last day counts until its end");
    let org: Vec<(String, bool)> =
        sqlx::query_as("select user_email, is_active from organisation_subscriptions order by user_email").fetch_all(&h.db).await.unwrap();
    assert_eq!(org, vec![("a@praktijk.nl".to_owned(), false), ("b@praktijk.nl".to_owned(), true)]);

    let second = h.enqueue(ExpireSubscriptions::job()).await;
    let job = h.wait_for_state(second, JobState::Succeeded, Duration::from_secs(20)).await;
    assert_eq!(job.result.unwrap(), json!({ "subscriptions": 0, "organisationSubscriptions": 0, "organisationTerms": 0 }), "idempotent");
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

/// A user with a mandate in the local checkout and a monthly 'Individueel' bought with a discount
/// whose last day is today: the next period (from tomorrow) is due, at the full price.
async fn due_monthly_with_discount(db: &PgPool, user_id: &str) -> Uuid {
    sqlx::query("insert into payment_customers (user_id, provider, customer_id, mandate_id) values ($1, 'local', 'lcst_1', 'lmdt_1')")
        .bind(user_id)
        .execute(db)
        .await
        .unwrap();
    let discount = domain::billing::catalogue::add_discount(db, Uuid::parse_str(INDIVIDUAL).unwrap(), "WELKOM25", "Welkomstkorting", 2500)
        .await
        .unwrap();
    let start = today().checked_sub_days(Days::new(30)).unwrap();
    let sub = subscription(db, user_id, 30, today(), false).await;
    sqlx::query(
        "update subscriptions set price_per_user = 2500, amount = 2500, discount_id = $2, next_payment_date = $3,
                renew_without_discount_date = $3 where id = $1",
    )
    .bind(sub)
    .bind(discount)
    .bind(today().succ_opt().unwrap())
    .execute(db)
    .await
    .unwrap();
    paid(db, sub, user_id, start, today()).await;
    sqlx::query("update subscriptions set first_payment_id = (select id from payments where subscription_id = $1) where id = $1")
        .bind(sub)
        .execute(db)
        .await
        .unwrap();
    sqlx::query(
        "update payments set contact_name = 'Anna Jansen', postcode = '1234AB', send_invoice_to_email = 'administratie@praktijk.nl'
          where subscription_id = $1",
    )
    .bind(sub)
    .execute(db)
    .await
    .unwrap();
    sub
}

#[sqlx::test(migrations = "../migrations")]
async fn a_due_period_is_charged_once_on_the_mandate_at_the_full_price_and_extends_the_subscription(db: PgPool) {
    let h = Harness::new(db).await;
    user(&h.db, "u-1", "anna@example.nl").await;
    let sub = due_monthly_with_discount(&h.db, "u-1").await;
    // the renewal's payment row, asked for twice at once: one row
    let tomorrow = today().succ_opt().unwrap();
    let (a, b) = tokio::join!(
        domain::billing::sweeps::renewal_payment(&h.db, sub, tomorrow, "local"),
        domain::billing::sweeps::renewal_payment(&h.db, sub, tomorrow, "local")
    );
    let (a, b) = (a.unwrap().unwrap(), b.unwrap().unwrap());
    assert_eq!(a.payment_id, b.payment_id);
    assert_eq!(a.amount_cents, domain::billing::Cents(4900), "the discount held for the first period only");
    assert_eq!(a.idempotency_key, format!("renew:{sub}:{tomorrow}"));
    let worker = h.start_worker(&[]);

    let sweep = h.enqueue(RenewSubscriptions::job()).await;
    let job = h.wait_for_state(sweep, JobState::Succeeded, Duration::from_secs(20)).await;
    assert_eq!(job.result.unwrap(), json!({ "due": 1, "reminders": 0, "queued": 1 }));
    let renew: Uuid = sqlx::query_scalar("select id from jobs where kind = 'renew_subscription'").fetch_one(&h.db).await.unwrap();
    let job = h.wait_for_state(renew, JobState::Succeeded, Duration::from_secs(20)).await;
    let result = job.result.unwrap();
    assert_eq!(result["to"], "PAID");
    assert_eq!(result["activated"], true);
    let month_later = domain::billing::period_end(tomorrow, 1);
    let (until, next, amount): (NaiveDate, Option<NaiveDate>, i32) =
        sqlx::query_as("select valid_until, next_payment_date, amount from subscriptions where id = $1")
            .bind(sub)
            .fetch_one(&h.db)
            .await
            .unwrap();
    assert_eq!(until, month_later);
    assert_eq!(next, month_later.succ_opt());
    assert_eq!(amount, 4900, "the full price from now on");
    let renewals: Vec<(String, String, i32, String, String)> =
        sqlx::query_as("select status, sequence_type, amount_cents, contact_name, mandate_id from payments where not is_first_payment")
            .fetch_all(&h.db)
            .await
            .unwrap();
    assert_eq!(renewals, vec![("PAID".into(), "recurring".into(), 4900, "Anna Jansen".into(), "lmdt_1".into())]);

    // again: nothing is due, and the same period's job a second time makes no second payment
    let sweep = h.enqueue(RenewSubscriptions::job()).await;
    let job = h.wait_for_state(sweep, JobState::Succeeded, Duration::from_secs(20)).await;
    assert_eq!(job.result.unwrap()["due"], 0);
    let again = h.enqueue(RenewSubscription::job(sub, tomorrow).dedupe_key(format!("again:{sub}"))).await;
    h.wait_for_state(again, JobState::Succeeded, Duration::from_secs(20)).await;
    let count: i64 = sqlx::query_scalar("select count(*) from payments where not is_first_payment").fetch_one(&h.db).await.unwrap();
    assert_eq!(count, 1);
    worker.shutdown().await;
}

#[sqlx::test(migrations = "../migrations")]
async fn a_failed_renewal_tells_the_user_once_and_the_subscription_stays_until_its_day(db: PgPool) {
    let h = Harness::new(db).await;
    user(&h.db, "u-1", "anna@example.nl").await;
    let sub = due_monthly_with_discount(&h.db, "u-1").await;
    let tomorrow = today().succ_opt().unwrap();
    let renewal = domain::billing::sweeps::renewal_payment(&h.db, sub, tomorrow, "local").await.unwrap().unwrap();
    // the provider made it, and it failed there (a bank refused the direct debit)
    sqlx::query(
        "insert into local_checkout_payments (id, customer_id, amount_cents, description, sequence_type, status, metadata, idempotency_key, mandate_id)
         values ('ltr_failed', 'lcst_1', 4900, 'x', 'recurring', 'failed', '{}', $1, 'lmdt_1')",
    )
    .bind(&renewal.idempotency_key)
    .execute(&h.db)
    .await
    .unwrap();
    domain::billing::checkout::record_provider_payment(&h.db, renewal.payment_id, "ltr_failed", Some("lcst_1"), None, None).await.unwrap();
    let worker = h.start_worker(&[]);

    for _ in 0..2 {
        let sync = h.enqueue(SyncPayment::job("ltr_failed")).await;
        h.wait_for_state(sync, JobState::Succeeded, Duration::from_secs(20)).await;
    }
    let mails: Vec<Uuid> = sqlx::query_scalar("select id from jobs where kind = 'email' and payload->>'template' = 'renewal_failed'")
        .fetch_all(&h.db)
        .await
        .unwrap();
    assert_eq!(mails.len(), 1, "one e-mail for the failed payment");
    h.wait_for_state(mails[0], JobState::Succeeded, Duration::from_secs(20)).await;
    let file = std::fs::read_to_string(h.dir.join("outbox").join(format!("{}.eml", mails[0]))).unwrap();
    assert!(file.contains("Subject: Je betaling voor Spreekkamer is niet gelukt"), "{file}");
    assert!(file.contains("=E2=82=AC 49,00") || file.contains("€ 49,00"), "{file}");
    assert!(file.contains(&domain::billing::dutch_date(today())), "usable until today: {file}");
    assert!(active(&h.db, sub).await, "still usable until its last day");

    // three days later it is still unpaid: one reminder, however often the sweep runs
    sqlx::query("update payments set updated_at = now() - interval '3 days' where id = $1")
        .bind(renewal.payment_id)
        .execute(&h.db)
        .await
        .unwrap();
    for _ in 0..2 {
        let sweep = h.enqueue(RenewSubscriptions::job()).await;
        let job = h.wait_for_state(sweep, JobState::Succeeded, Duration::from_secs(20)).await;
        assert_eq!(job.result.unwrap()["reminders"], 1);
    }
    let reminders: Vec<Uuid> = sqlx::query_scalar("select id from jobs where kind = 'email' and payload->>'template' = 'renewal_reminder'")
        .fetch_all(&h.db)
        .await
        .unwrap();
    assert_eq!(reminders.len(), 1);
    h.wait_for_state(reminders[0], JobState::Succeeded, Duration::from_secs(20)).await;
    let file = std::fs::read_to_string(h.dir.join("outbox").join(format!("{}.eml", reminders[0]))).unwrap();
    assert!(file.contains("Subject: Herinnering: je betaling voor Spreekkamer is nog niet gelukt"), "{file}");
    worker.shutdown().await;
}
