//! The bookkeeping jobs with the local bookkeeping on the real database: a payment that becomes
//! PAID gets its contact and exactly one invoice, however often and however concurrently the
//! jobs run, with a worker killed in between; zero amounts get none; a refund or chargeback makes
//! a credit invoice with its own number that names the original.

mod common;

use std::time::{Duration, Instant};

use common::{Harness, signal, user};
use jobs::JobState;
use jobs::kinds::{CreateContact, CreateInvoice, CreditInvoice, SyncPayment};
use sqlx::PgPool;
use uuid::Uuid;

const PRACTICE: &str = "5b0e1a52-2f1c-4c57-9a6e-000000000003";

/// A subscription of `user_id` with an open first payment of `amount` cents in the local
/// checkout; answers our payment's id and the checkout's payment id.
async fn open_payment(db: &PgPool, user_id: &str, amount: i32) -> (Uuid, String) {
    let subscription = Uuid::new_v4();
    sqlx::query(
        "insert into subscriptions (id, user_id, tier_id, description, is_active, user_amount, interval_months, price_per_user, amount)
         values ($1, $2, $3, 'Spreekkamer Praktijk (2 gebruikers, maandelijks)', false, 2, 1, $4 / 2, $4)",
    )
    .bind(subscription)
    .bind(user_id)
    .bind(Uuid::parse_str(PRACTICE).unwrap())
    .bind(amount)
    .execute(db)
    .await
    .unwrap();
    let payment = Uuid::new_v4();
    let provider_id = format!("ltr_{}", payment.simple());
    sqlx::query(
        "insert into payments (id, user_id, subscription_id, description, user_amount, amount_cents, status, interval_months,
                               is_first_payment, sequence_type, provider, provider_payment_id, provider_customer_id, idempotency_key,
                               send_invoice_to_email, practice_name, contact_name, street_address, house_number, postcode, city,
                               phone_number)
         values ($1, $2, $3, 'Spreekkamer Praktijk (2 gebruikers, maandelijks)', 2, $4, 'OPEN', 1, true, 'first', 'local', $5,
                 'lcst_1', $1::text, 'factuur@delinde.nl', 'Huisartsenpraktijk De Linde', 'Anne de Vries', 'Lindelaan', '12',
                 '1234AB', 'Amsterdam', '0201234567')",
    )
    .bind(payment)
    .bind(user_id)
    .bind(subscription)
    .bind(amount)
    .bind(&provider_id)
    .execute(db)
    .await
    .unwrap();
    sqlx::query(
        "insert into local_checkout_payments (id, customer_id, amount_cents, description, sequence_type, status, metadata)
         values ($1, 'lcst_1', $2, 'Spreekkamer Praktijk', 'first', 'open', jsonb_build_object('paymentId', $3::text))",
    )
    .bind(&provider_id)
    .bind(amount)
    .bind(payment)
    .execute(db)
    .await
    .unwrap();
    (payment, provider_id)
}

/// The checkout says the payment is paid (as the local checkout page does).
async fn pay(db: &PgPool, provider_id: &str) {
    sqlx::query("update local_checkout_payments set status = 'paid', mandate_id = 'lmdt_1' where id = $1")
        .bind(provider_id)
        .execute(db)
        .await
        .unwrap();
}

async fn count(db: &PgPool, sql: &str, payment: Uuid) -> i64 {
    sqlx::query_scalar(sql).bind(payment).fetch_one(db).await.unwrap()
}

/// Waits until no job of `kinds` is waiting, running or retrying (and at least one exists).
async fn settled(h: &Harness, kinds: &[&str], timeout: Duration) {
    let kinds: Vec<String> = kinds.iter().map(|k| (*k).to_owned()).collect();
    let deadline = Instant::now() + timeout;
    loop {
        let (open, all): (i64, i64) = sqlx::query_as(
            "select count(*) filter (where state in ('queued', 'running', 'retrying')), count(*) from jobs where kind = any($1)",
        )
        .bind(&kinds)
        .fetch_one(&h.db)
        .await
        .unwrap();
        if open == 0 && all > 0 {
            return;
        }
        assert!(Instant::now() < deadline, "{open} of {all} {kinds:?} jobs still open");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The local checkout reports `refunded` and `charged_back` cents on payment `provider_id`; its
/// news arrives `deliveries` times and the work it queues is done.
async fn report(h: &Harness, provider_id: &str, refunded: i64, charged_back: i64, deliveries: usize) {
    sqlx::query("update local_checkout_payments set amount_refunded_cents = $2, amount_charged_back_cents = $3 where id = $1")
        .bind(provider_id)
        .bind(refunded as i32)
        .bind(charged_back as i32)
        .execute(&h.db)
        .await
        .unwrap();
    for _ in 0..deliveries {
        h.enqueue(SyncPayment::job(provider_id)).await;
    }
    settled(h, &["sync_payment", "credit_invoice"], Duration::from_secs(30)).await;
}

#[sqlx::test(migrations = "../migrations")]
async fn a_paid_payment_gets_its_contact_and_one_invoice(db: PgPool) {
    let h = Harness::new(db).await;
    user(&h.db, "u-1", "anne@delinde.nl").await;
    let (payment, provider_id) = open_payment(&h.db, "u-1", 7800).await;
    let worker = h.start_worker(&[]);
    // an open payment heard: nothing for the bookkeeping
    h.enqueue(SyncPayment::job(&provider_id)).await;
    settled(&h, &["sync_payment"], Duration::from_secs(20)).await;
    assert_eq!(
        count(&h.db, "select count(*) from jobs where kind in ('create_contact', 'create_invoice') and $1::uuid is not null", payment)
            .await,
        0
    );

    pay(&h.db, &provider_id).await;
    // the webhook delivered three times
    for _ in 0..3 {
        h.enqueue(SyncPayment::job(&provider_id)).await;
    }
    settled(&h, &["sync_payment", "create_contact", "create_invoice"], Duration::from_secs(30)).await;
    let queued = count(
        &h.db,
        "select count(*) from jobs where kind in ('create_contact', 'create_invoice') and payload->>'paymentId' = $1::text",
        payment,
    )
    .await;
    assert_eq!(queued, 2, "one contact job and one invoice job, however often 'paid' was heard");
    assert_eq!(count(&h.db, "select count(*) from invoices where payment_id = $1", payment).await, 1);
    assert_eq!(count(&h.db, "select count(*) from bookkeeping_contacts where user_id = 'u-1' and $1::uuid is not null", payment).await, 1);
    let (contact, invoice, number): (Option<String>, Option<String>, String) = sqlx::query_as(
        "select p.moneybird_contact_id, p.moneybird_invoice_id, i.number from payments p join invoices i on i.payment_id = p.id where p.id = $1",
    )
    .bind(payment)
    .fetch_one(&h.db)
    .await
    .unwrap();
    assert!(contact.unwrap().starts_with("lc_"));
    assert!(invoice.unwrap().starts_with("li_"));
    assert_eq!(number, format!("{}-00001", domain::billing::today().format("%Y")));
    let document: serde_json::Value = sqlx::query_scalar("select document from local_invoices").fetch_one(&h.db).await.unwrap();
    assert_eq!(document["draft"]["lines"][0]["grossCents"], 7800);
    assert_eq!(document["draft"]["buyer"]["practiceName"], "Huisartsenpraktijk De Linde");
    assert_eq!(document["draft"]["paid"]["transactionId"], provider_id);
    worker.shutdown().await;
}

#[sqlx::test(migrations = "../migrations")]
async fn twenty_invoice_jobs_at_once_with_a_worker_killed_make_one_invoice(db: PgPool) {
    let h = Harness::new(db).await;
    user(&h.db, "u-1", "anne@delinde.nl").await;
    let (payment, provider_id) = open_payment(&h.db, "u-1", 7800).await;
    sqlx::query("update payments set status = 'PAID', paid_at = now() where id = $1").bind(payment).execute(&h.db).await.unwrap();
    let _ = provider_id;
    // twenty triggers at once (the webhook's, staff buttons), contact jobs among them
    let mut jobs = Vec::new();
    for i in 0..20 {
        let job = if i % 5 == 0 { CreateContact::job(payment) } else { CreateInvoice::job(payment) };
        jobs.push(job);
    }
    let mut tx = h.db.begin().await.unwrap();
    let ids = jobs::enqueue_many(&mut tx, &jobs).await.unwrap();
    tx.commit().await.unwrap();
    h.dispatcher.dispatch(&ids).await.unwrap();

    let mut first =
        h.start_worker_process(&[("APP_WORKER_CONCURRENCY_CREATE_INVOICE", "8"), ("APP_WORKER_CONCURRENCY_CREATE_CONTACT", "4")]);
    // kill it as soon as it has started on them
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let started: i64 = sqlx::query_scalar("select count(*) from jobs where id = any($1) and state <> 'queued'")
            .bind(&ids)
            .fetch_one(&h.db)
            .await
            .unwrap();
        if started > 0 {
            break;
        }
        assert!(Instant::now() < deadline, "the worker took none of the jobs");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    signal(&first, "KILL");
    first.wait().unwrap();
    // time passes: the killed attempts' leases run out
    let expiring = h.expire_leases_of(&first);

    let mut second = h.start_worker_process(&[("APP_WORKER_CONCURRENCY_CREATE_INVOICE", "8")]);
    for id in &ids {
        h.wait_for_state(*id, JobState::Succeeded, Duration::from_secs(60)).await;
    }
    expiring.abort();
    signal(&second, "KILL");
    second.wait().unwrap();
    assert_eq!(count(&h.db, "select count(*) from invoices where payment_id = $1", payment).await, 1);
    assert_eq!(count(&h.db, "select count(*) from local_invoices where $1::uuid is not null", payment).await, 1);
    assert_eq!(count(&h.db, "select count(*) from local_bookkeeping_contacts where $1::uuid is not null", payment).await, 1);
    assert_eq!(
        count(&h.db, "select coalesce(max(last), 0)::int8 from local_invoice_counters where $1::uuid is not null", payment).await,
        1
    );
    let made: i64 =
        sqlx::query_scalar("select count(*) from jobs where id = any($1) and result->>'made' = 'true' and kind = 'create_invoice'")
            .bind(&ids)
            .fetch_one(&h.db)
            .await
            .unwrap();
    assert!(made <= 1, "{made} jobs say they made the invoice");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_zero_amount_gets_no_invoice_and_a_refund_a_credit_invoice(db: PgPool) {
    let h = Harness::new(db).await;
    user(&h.db, "u-1", "anne@delinde.nl").await;
    let (free, free_provider) = open_payment(&h.db, "u-1", 0).await;
    let (paid, paid_provider) = open_payment(&h.db, "u-1", 7800).await;
    let worker = h.start_worker(&[]);
    pay(&h.db, &free_provider).await;
    pay(&h.db, &paid_provider).await;
    h.enqueue(SyncPayment::job(&free_provider)).await;
    h.enqueue(SyncPayment::job(&paid_provider)).await;
    settled(&h, &["sync_payment", "create_contact", "create_invoice"], Duration::from_secs(30)).await;
    assert_eq!(count(&h.db, "select count(*) from invoices where payment_id = $1", free).await, 0);
    assert_eq!(count(&h.db, "select count(*) from jobs where kind = 'create_invoice' and payload->>'paymentId' = $1::text", free).await, 0);
    // staff pressing 'Factuur maken' on a zero amount: the job declines
    let declined = h.enqueue(CreateInvoice::job(free)).await;
    let job = h.wait_for_state(declined, JobState::Succeeded, Duration::from_secs(20)).await;
    assert!(job.result.unwrap()["skipped"].is_string());

    // Mollie reports a partial refund, then a chargeback of the rest: two credit invoices
    report(&h, &paid_provider, 2000, 0, 2).await;
    report(&h, &paid_provider, 2000, 7800, 1).await;
    let rows: Vec<(String, String, i64, Option<i64>)> = sqlx::query_as(
        "select kind, number, amount_cents::int8, credited_total_cents::int8 from invoices where payment_id = $1 order by created_at",
    )
    .bind(paid)
    .fetch_all(&h.db)
    .await
    .unwrap();
    let year = domain::billing::today().format("%Y").to_string();
    assert_eq!(
        rows,
        vec![
            ("invoice".into(), format!("{year}-00001"), 7800, None),
            ("credit".into(), format!("{year}-00002"), -2000, Some(2000)),
            ("credit".into(), format!("{year}-00003"), -5800, Some(7800)),
        ]
    );
    let credit: serde_json::Value = sqlx::query_scalar("select document from local_invoices where number = $1")
        .bind(format!("{year}-00002"))
        .fetch_one(&h.db)
        .await
        .unwrap();
    assert_eq!(credit["draft"]["kind"], "credit");
    assert_eq!(credit["draft"]["credits"]["number"], format!("{year}-00001"));
    // a repeated report credits nothing more (a staff re-run: a job of its own)
    h.enqueue(CreditInvoice::job(paid, 0).dedupe_key("staff:credit")).await;
    h.enqueue(SyncPayment::job(&paid_provider)).await;
    settled(&h, &["sync_payment", "credit_invoice"], Duration::from_secs(30)).await;
    assert_eq!(count(&h.db, "select count(*) from invoices where payment_id = $1", paid).await, 3);

    // the chargeback is reversed and the refund cancelled: the books undo both credit invoices,
    // latest first, each by a reversal that names it, never by an edit of what was booked
    report(&h, &paid_provider, 0, 0, 1).await;
    // and refunded again: a new credit invoice, with a reference of its own
    report(&h, &paid_provider, 2000, 0, 1).await;
    // kind, number, gross cents, credited total after it, the number of what it refers to
    type Row = (String, String, i64, Option<i64>, Option<String>);
    let rows: Vec<Row> = sqlx::query_as(
        "select i.kind, i.number, i.amount_cents::int8, i.credited_total_cents::int8, c.number
           from invoices i left join invoices c on c.id = i.credit_of
          where i.payment_id = $1 order by i.created_at, i.number",
    )
    .bind(paid)
    .fetch_all(&h.db)
    .await
    .unwrap();
    let n = |k: u32| format!("{year}-{k:05}");
    assert_eq!(
        rows,
        vec![
            ("invoice".into(), n(1), 7800, None, None),
            ("credit".into(), n(2), -2000, Some(2000), Some(n(1))),
            ("credit".into(), n(3), -5800, Some(7800), Some(n(1))),
            ("reversal".into(), n(4), 5800, Some(2000), Some(n(3))),
            ("reversal".into(), n(5), 2000, Some(0), Some(n(2))),
            ("credit".into(), n(6), -2000, Some(2000), Some(n(1))),
        ]
    );
    let reversal: serde_json::Value =
        sqlx::query_scalar("select document from local_invoices where number = $1").bind(n(4)).fetch_one(&h.db).await.unwrap();
    assert_eq!(reversal["draft"]["kind"], "reversal");
    assert_eq!(reversal["draft"]["credits"]["number"], n(3));
    let references: Vec<String> =
        sqlx::query_scalar("select reference from invoices where payment_id = $1 and kind <> 'invoice' order by created_at, number")
            .bind(paid)
            .fetch_all(&h.db)
            .await
            .unwrap();
    let ends: Vec<&str> = references.iter().map(|r| r.rsplit_once(&paid.to_string()).unwrap().1).collect();
    assert_eq!(ends, ["-C2000", "-C7800", "-R2000-1", "-R0-2", "-C2000-2"]);
    worker.shutdown().await;
}
