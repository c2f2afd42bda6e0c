//! The money loop under faults. Purchases go through a Mollie stand-in (`common::mollie`, its
//! bodies as Mollie's official clients recorded them) that loses 30 % of its webhooks, delivers
//! some ten times and all out of order, answers 503, 401 and 429 for a while, and reports
//! refunds, chargebacks and their reversals; the worker is stopped three times in the middle of
//! its work (its attempts handed back unfinished, as after a crash) and Redis, the queue's own
//! server here, is killed and started again empty. Afterwards reconciliation alone must bring
//! every payment to what the stand-in says: a paid one an active subscription with exactly one
//! invoice and its credits booked once, a failed one no subscription and no invoice. Then a
//! quarter of the paid subscriptions come due and are renewed on their mandates under the same
//! faults, and again every renewal must end as the stand-in says (paid: one invoice; failed: none,
//! the subscription still active until its end).
//!
//! `SOAK_PURCHASES` sets the number of purchases (40 in `make test`; `make soak-payments` runs
//! 1,000, so about 200 renewals). The run prints how long reconciliation took after the last
//! fault, for the purchases and for the renewals.

mod common;

use std::time::{Duration, Instant};

use common::mollie::{Shared, mollie_double, mollie_refunds, mollie_status};
use common::redis_server::RedisServer;
use common::{Options, TestApp, TestWorker};
use serde_json::json;
use sqlx::PgPool;

const INDIVIDUAL: &str = "5b0e1a52-2f1c-4c57-9a6e-000000000002";
/// The price of 'Individueel' monthly, as the stand-in is asked for it.
const PRICE: i64 = 4900;

/// A small deterministic generator, so that every run loses and repeats the same deliveries.
struct Dice(u64);

impl Dice {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, (self.next() % (i as u64 + 1)) as usize);
        }
    }
}

/// What the stand-in reports of one payment at the end, and what its subscription must be.
struct Theirs {
    id: String,
    status: String,
    credited: i64,
    active: bool,
}

/// Mollie's news of `ids`, as it arrives: 30 % never, 10 % ten times, the rest once, all in a
/// shuffled order, 50 at a time. Every delivery is answered 200.
async fn deliver(app: &TestApp, dice: &mut Dice, ids: &[String]) {
    let mut posts = Vec::new();
    for id in ids {
        if dice.chance(30) {
            continue;
        }
        let times = if dice.chance(14) { 10 } else { 1 };
        posts.extend(std::iter::repeat_n(id.clone(), times));
    }
    dice.shuffle(&mut posts);
    for chunk in posts.chunks(50) {
        let answers =
            futures::future::join_all(chunk.iter().map(|id| app.http.post(app.url("/payment/webhook")).form(&[("id", id)]).send())).await;
        for answer in answers {
            assert_eq!(answer.unwrap().status(), 200);
        }
    }
}

/// Mollie fails every fetch with `status` for `lasting`.
fn fault(double: &Shared, status: u16, lasting: Duration) {
    double.lock().unwrap().fault = Some((status, Instant::now() + lasting));
}

/// Stops the worker in the middle of its work and starts another: attempts under way are handed
/// back unfinished (no shutdown grace) and their leases run out at once, as after a crash.
async fn restart(app: &TestApp, pool: &PgPool, worker: TestWorker) -> TestWorker {
    worker.stop().await;
    sqlx::query("update jobs set lease_until = now() - interval '1 second' where state = 'running'").execute(pool).await.unwrap();
    start(app)
}

fn start(app: &TestApp) -> TestWorker {
    app.start_worker(&[
        ("APP_WORKER_SHUTDOWN_GRACE", "0s"),
        ("APP_RECONCILE_GRACE", "0s"),
        ("APP_RECONCILE_MIN_GAP", "200ms"),
        ("APP_RECONCILE_PAID_EVERY", "1s"),
        ("APP_JOBS_STALE_AFTER", "2s"),
    ])
}

/// Whether our books say what the stand-in says; the first difference when not.
async fn differences(pool: &PgPool, theirs: &[Theirs]) -> Result<(), String> {
    for t in theirs {
        let (status, active, invoices, credited, documents): (String, bool, i64, i64, i64) = sqlx::query_as(
            "select p.status, s.is_active,
                    (select count(*) from invoices i where i.payment_id = p.id and i.kind = 'invoice'),
                    coalesce((select i.credited_total_cents::int8 from invoices i where i.payment_id = p.id and i.kind <> 'invoice'
                               order by i.created_at desc, i.id desc limit 1), 0),
                    coalesce((select -sum(i.amount_cents)::int8 from invoices i where i.payment_id = p.id and i.kind <> 'invoice'), 0)
               from payments p join subscriptions s on s.id = p.subscription_id
              where p.provider_payment_id = $1",
        )
        .bind(&t.id)
        .fetch_one(pool)
        .await
        .unwrap();
        let paid = t.status == "paid";
        let want = (t.status.to_uppercase(), t.active, i64::from(paid), t.credited, t.credited);
        let have = (status, active, invoices, credited, documents);
        if have != want {
            return Err(format!("{}: (status, active, invoices, credited, credit documents' sum) {have:?}, wanted {want:?}", t.id));
        }
    }
    Ok(())
}

/// Sweeps reconciliation every 300 ms (every minute in production) until no money job is left
/// after `last_fault` and the books say what the stand-in says, or 240 s pass: the outcome, how
/// long after the last fault, and the sweeps.
async fn converge(app: &TestApp, pool: &PgPool, theirs: &[Theirs], last_fault: Instant) -> (Result<(), String>, Duration, u32) {
    let deadline = Instant::now() + Duration::from_secs(240);
    let mut sweeps = 0;
    let result = loop {
        let mut tx = pool.begin().await.unwrap();
        let sweep = jobs::enqueue(&mut tx, jobs::kinds::ReconcilePayments::job()).await.unwrap();
        tx.commit().await.unwrap();
        app.state.jobs.push_committed(&[sweep], "soak").await;
        sweeps += 1;
        tokio::time::sleep(Duration::from_millis(300)).await;
        // syncs are left out: reconciliation keeps asking about paid payments (every second
        // here), and a sync only ever moves a payment to what the provider says
        let open: i64 = sqlx::query_scalar(
            "select count(*) from jobs where kind in ('renew_subscription', 'create_contact', 'create_invoice', 'credit_invoice')
                and state in ('queued', 'running')",
        )
        .fetch_one(pool)
        .await
        .unwrap();
        if Instant::now() > last_fault && open == 0 {
            let result = differences(pool, theirs).await;
            if result.is_ok() || Instant::now() > deadline {
                break result;
            }
        } else if Instant::now() > deadline {
            break differences(pool, theirs).await;
        }
    };
    (result, last_fault.elapsed(), sweeps)
}

#[sqlx::test(migrations = "../migrations")]
async fn every_payment_ends_as_the_provider_says_whatever_was_lost_on_the_way(pool: PgPool) {
    let purchases: usize = std::env::var("SOAK_PURCHASES").ok().and_then(|n| n.parse().ok()).unwrap_or(40);
    let (mollie_url, double) = mollie_double().await;
    let mut redis = RedisServer::start().await;
    let env = vec![
        ("APP_MOLLIE_API_KEY", "test_double_key".to_owned()),
        ("APP_MOLLIE_API_URL", mollie_url),
        ("APP_REDIS_URL", redis.url()),
        // every buyer signs in from this one address
        ("APP_RATE_LIMIT_SIGN_IN", "off".to_owned()),
    ];
    let app = TestApp::spawn_with(pool.clone(), Options { env, ..Default::default() }).await;
    let mut worker = start(&app);
    let mut dice = Dice(20261128);

    let mut ids = Vec::new();
    for n in 0..purchases {
        let token = app.access_token_unsubscribed(&format!("soak{n}@praktijk.example.nl")).await;
        let details = json!({
            "contactName": "Anne de Vries", "practiceName": "", "sendInvoiceToEmail": "factuur@praktijk.example.nl",
            "phoneNumber": "0201234567", "streetAddress": "Lindelaan", "houseNumber": "12", "houseNumberAddition": "",
            "postcode": "1234 AB", "city": "Amsterdam", "subscriptionType": "MONTHLY", "userAmount": 1, "pricePerUser": 49.0,
            "tierId": INDIVIDUAL, "isIndividual": true, "description": "Individueel", "intervalMonths": 1, "discountId": null,
        });
        let answer = app.http.post(app.url("/payment/paymentinfo/getPaymentLink")).bearer_auth(&token).json(&details).send().await.unwrap();
        assert_eq!(answer.status(), 200);
        ids.push(format!("tr_{}", n + 1));
    }
    let outcome = |n: usize| match n % 10 {
        0 => "canceled",
        1 => "expired",
        _ => "paid",
    };

    // the buyers pay (or not) in three waves, each met by a fault of the API, with the worker
    // stopped in the middle of the second and Redis down (and back empty) during the third
    let thirds: Vec<Vec<usize>> = (0..3).map(|k| (0..purchases).filter(|n| n % 3 == k).collect()).collect();
    for (wave, (status, lasting)) in thirds.iter().zip([(503, 1500), (401, 2000), (429, 1500)]) {
        fault(&double, status, Duration::from_millis(lasting));
        for &n in wave {
            mollie_status(&double, &ids[n], outcome(n));
        }
        let news: Vec<String> = wave.iter().map(|&n| ids[n].clone()).collect();
        if status == 429 {
            redis.stop();
        }
        deliver(&app, &mut dice, &news).await;
        if status == 401 {
            worker = restart(&app, &pool, worker).await;
        }
        if status == 429 {
            redis.start_again().await;
        }
    }

    // money goes back: partial refunds, full chargebacks, and some of each reversed again
    let mut credited = vec![0i64; purchases];
    let paid: Vec<usize> = (0..purchases).filter(|&n| outcome(n) == "paid").collect();
    let mut changed = Vec::new();
    for &n in &paid {
        let (refund, chargeback) = match n % 7 {
            2 => (2000, 0),
            3 => (0, PRICE),
            4 => (1500, PRICE),
            _ => continue,
        };
        mollie_refunds(&double, &ids[n], refund, chargeback);
        credited[n] = (refund + chargeback).min(PRICE);
        changed.push(ids[n].clone());
    }
    deliver(&app, &mut dice, &changed).await;
    fault(&double, 503, Duration::from_millis(1000));
    let mut reversed = Vec::new();
    for &n in &paid {
        match n % 7 {
            // the refund cancelled
            2 if n % 2 == 0 => mollie_refunds(&double, &ids[n], 0, 0),
            // the chargeback reversed, the refund stands
            4 if n % 2 == 0 => mollie_refunds(&double, &ids[n], 1500, 0),
            _ => continue,
        }
        credited[n] = if n % 7 == 2 { 0 } else { 1500 };
        reversed.push(ids[n].clone());
    }
    deliver(&app, &mut dice, &reversed).await;
    worker = restart(&app, &pool, worker).await;
    let last_fault = Instant::now() + Duration::from_millis(1000);

    // from now on only reconciliation (every 300 ms here; every minute in production) makes up
    // for what was lost
    let theirs: Vec<Theirs> = (0..purchases)
        .map(|n| Theirs { id: ids[n].clone(), status: outcome(n).to_owned(), credited: credited[n], active: outcome(n) == "paid" })
        .collect();
    let (result, took, sweeps) = converge(&app, &pool, &theirs, last_fault).await;
    let gets = double.lock().unwrap().gets;
    let deliveries: i64 = sqlx::query_scalar("select count(*) from jobs where kind = 'sync_payment'").fetch_one(&pool).await.unwrap();
    println!(
        "payments soak: {purchases} purchases, {} paid, {} with money back, {} reversed; consistent {:.1} s after the last fault \
         ({sweeps} reconciliation sweeps, {gets} fetches, {deliveries} syncs)",
        paid.len(),
        changed.len(),
        reversed.len(),
        took.as_secs_f64()
    );
    result.unwrap();

    // renewals: a quarter of the paid subscriptions come due and are charged on their mandates;
    // most are paid, some fail, and their news meets a fault, a lost share and a worker stopped
    let renewing: Vec<String> = paid.iter().filter(|&&n| n % 4 == 1).map(|&n| ids[n].clone()).collect();
    sqlx::query(
        "update subscriptions s set next_payment_date = current_date
           from payments p where p.subscription_id = s.id and p.provider_payment_id = any($1)",
    )
    .bind(&renewing)
    .execute(&pool)
    .await
    .unwrap();
    let mut tx = pool.begin().await.unwrap();
    let sweep = jobs::enqueue(&mut tx, jobs::kinds::RenewSubscriptions::job()).await.unwrap();
    tx.commit().await.unwrap();
    app.state.jobs.push_committed(&[sweep], "soak").await;
    let renewals: Vec<String> = {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let made: Vec<String> = sqlx::query_scalar(
                "select provider_payment_id from payments where not is_first_payment and provider_payment_id is not null order by 1",
            )
            .fetch_all(&pool)
            .await
            .unwrap();
            if made.len() == renewing.len() {
                break made;
            }
            assert!(Instant::now() < deadline, "{} of {} renewals charged", made.len(), renewing.len());
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    };
    let renewed = |n: usize| if n % 6 == 5 { "failed" } else { "paid" };
    fault(&double, 429, Duration::from_millis(1500));
    for (n, id) in renewals.iter().enumerate() {
        mollie_status(&double, id, renewed(n));
    }
    deliver(&app, &mut dice, &renewals).await;
    worker = restart(&app, &pool, worker).await;
    let last_fault = Instant::now() + Duration::from_millis(1500);
    let theirs: Vec<Theirs> = renewals
        .iter()
        .enumerate()
        .map(|(n, id)| Theirs { id: id.clone(), status: renewed(n).to_owned(), credited: 0, active: true })
        .collect();
    let (result, took, sweeps) = converge(&app, &pool, &theirs, last_fault).await;
    println!(
        "payments soak: {} renewals, {} paid; consistent {:.1} s after the last fault ({sweeps} reconciliation sweeps)",
        renewals.len(),
        (0..renewals.len()).filter(|&n| renewed(n) == "paid").count(),
        took.as_secs_f64()
    );
    result.unwrap();

    let failed: Vec<(String, Option<String>)> =
        sqlx::query_as("select kind, last_error from jobs where state in ('failed', 'dead') and kind <> 'reconcile_payments'")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert!(failed.is_empty(), "no money work may fail for good: {failed:?}");
    // a refund that came and went between two looks may never be booked (the books only ever
    // see the totals the provider reports), so at most one reversal per reversal the stand-in made
    let reversals: i64 = sqlx::query_scalar(
        "select count(*) from invoices i join payments p on p.id = i.payment_id where p.provider = 'mollie' and i.kind = 'reversal'",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert!(reversals as usize <= reversed.len(), "{reversals} reversals for {} reversed", reversed.len());
    worker.stop().await;
}
