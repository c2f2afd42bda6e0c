//! The payment-webhook benchmark (`bench/payments/run.sh`): many webhooks at once against one api
//! and one worker on the local checkout.
//!
//! ```text
//! webhook_bench --url http://127.0.0.1:8080 [--payments 1000] [--deliveries 1]
//!     [--results bench/payments/results.jsonl] [--label TEXT]
//! ```
//!
//! Reads `APP_DATABASE_URL` (the database the api and the worker use). It makes `--payments` users,
//! each with an inactive practice subscription and its OPEN first payment made through the local
//! checkout exactly as `getPaymentLink` makes them, and marks each local payment paid the way the
//! checkout page's 'paid' button does, but without calling the webhook. Then it posts every
//! webhook (`id=<provider payment id>`, `--deliveries` times each) at once, times each answer, and
//! polls the database until every payment is PAID and every subscription active. One JSON line
//! per run is appended to `--results`; a summary goes to stdout.

use domain::billing::Address;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use domain::billing::{self, BillingDetails};
use integrations::payments::local::{self, LocalCheckout};
use integrations::payments::{NewCustomer, NewPayment, PaymentProvider, SequenceType};
use serde_json::json;
use sqlx::PgPool;
use uuid::Uuid;

/// The seeded practice tier (migrations/20261123000001_subscriptions.sql).
const PRACTICE_TIER: &str = "5b0e1a52-2f1c-4c57-9a6e-000000000003";

struct Args {
    url: String,
    payments: usize,
    deliveries: usize,
    results: String,
    label: String,
}

fn args() -> anyhow::Result<Args> {
    let mut a =
        Args { url: String::new(), payments: 1000, deliveries: 1, results: "bench/payments/results.jsonl".into(), label: String::new() };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().with_context(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--url" => a.url = value,
            "--payments" => a.payments = value.parse()?,
            "--deliveries" => a.deliveries = value.parse()?,
            "--results" => a.results = value,
            "--label" => a.label = value,
            other => bail!("unknown flag {other}"),
        }
    }
    if a.url.is_empty() {
        bail!("--url is required");
    }
    Ok(a)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// One user with an OPEN first payment in the local checkout, paid there without its webhook.
async fn prepare(db: &PgPool, checkout: &LocalCheckout, run: &str, n: usize, webhook: &str) -> anyhow::Result<String> {
    let user_id = format!("bench-{run}-{n}");
    sqlx::query("insert into users (id, email, preferred_username) values ($1, $2, $1)")
        .bind(&user_id)
        .bind(format!("{user_id}@example.nl"))
        .execute(db)
        .await?;
    let details = BillingDetails {
        address: Address {
            contact_name: "A. de Vries".into(),
            practice_name: "Huisartsenpraktijk De Linde".into(),
            phone_number: "0201234567".into(),
            street_address: "Lindelaan".into(),
            house_number: "12".into(),
            house_number_addition: String::new(),
            postcode: "1234AB".into(),
            city: "Utrecht".into(),
            kvk_number: String::new(),
        },
        send_invoice_to_email: format!("{user_id}@example.nl"),
        tier_id: Uuid::parse_str(PRACTICE_TIER)?,
        user_amount: 3,
        interval_months: 12,
        discount_id: None,
    };
    let pending = billing::checkout::create_pending(db, &user_id, &details, checkout.name()).await.map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let customer = checkout
        .create_customer(&NewCustomer { name: user_id.clone(), email: format!("{user_id}@example.nl"), user_id: user_id.clone() })
        .await?;
    let customer = billing::checkout::save_provider_customer(db, &user_id, checkout.name(), &customer).await?;
    let made = checkout
        .create_payment(&NewPayment {
            amount_cents: pending.quote.amount,
            description: pending.quote.description.clone(),
            customer_id: customer.clone(),
            sequence_type: SequenceType::First,
            redirect_url: None,
            webhook_url: Some(webhook.to_owned()),
            payment_id: pending.payment_id.to_string(),
            idempotency_key: pending.idempotency_key.clone(),
            mandate_id: None,
        })
        .await?;
    billing::checkout::record_provider_payment(
        db,
        pending.payment_id,
        &made.id,
        Some(&customer),
        made.checkout_url.as_deref(),
        made.expires_at,
    )
    .await?;
    if local::choose(db, &made.id, "paid").await?.is_none() {
        bail!("local payment {} was not open", made.id);
    }
    Ok(made.id)
}

/// Payments of this run that are PAID with their subscription active.
async fn done(db: &PgPool, run: &str) -> anyhow::Result<i64> {
    Ok(sqlx::query_scalar(
        "select count(*) from payments p join subscriptions s on s.id = p.subscription_id
          where p.user_id like $1 and p.status = 'PAID' and s.is_active",
    )
    .bind(format!("bench-{run}-%"))
    .fetch_one(db)
    .await?)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let a = args()?;
    let database_url = std::env::var("APP_DATABASE_URL").context("APP_DATABASE_URL")?;
    let db = sqlx::postgres::PgPoolOptions::new().max_connections(8).connect(&database_url).await?;
    let checkout = LocalCheckout::new(db.clone(), url::Url::parse(&a.url)?);
    let run = Uuid::new_v4().simple().to_string()[..8].to_owned();
    let webhook = format!("{}/payment/webhook", a.url.trim_end_matches('/'));

    let started = Instant::now();
    let mut ids = Vec::with_capacity(a.payments);
    for n in 0..a.payments {
        ids.push(prepare(&db, &checkout, &run, n, &webhook).await?);
    }
    eprintln!("prepared {} paid local payments in {:.1} s", ids.len(), started.elapsed().as_secs_f64());

    let client = reqwest::Client::builder().pool_max_idle_per_host(0).timeout(Duration::from_secs(60)).build()?;
    let barrier = std::sync::Arc::new(tokio::sync::Barrier::new(ids.len() * a.deliveries + 1));
    let mut tasks = Vec::new();
    for _ in 0..a.deliveries {
        for id in &ids {
            let (client, barrier, webhook, id) = (client.clone(), barrier.clone(), webhook.clone(), id.clone());
            tasks.push(tokio::spawn(async move {
                barrier.wait().await;
                let t = Instant::now();
                let status = client
                    .post(&webhook)
                    .header("content-type", "application/x-www-form-urlencoded")
                    .body(format!("id={id}"))
                    .send()
                    .await
                    .map(|r| r.status().as_u16())
                    .unwrap_or_else(|e| {
                        eprintln!("no answer: {e}");
                        0
                    });
                (status, t.elapsed().as_secs_f64() * 1000.0)
            }));
        }
    }
    barrier.wait().await;
    let sent = Instant::now();

    let want = a.payments as i64;
    let poll = {
        let db = db.clone();
        let run = run.clone();
        tokio::spawn(async move {
            loop {
                if done(&db, &run).await? >= want {
                    return anyhow::Ok(sent.elapsed());
                }
                if sent.elapsed() > Duration::from_secs(600) {
                    bail!("not all payments were PAID and active after 600 s");
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
    };
    let mut answers = Vec::new();
    let mut statuses = std::collections::BTreeMap::<String, usize>::new();
    for t in tasks {
        let (status, ms) = t.await?;
        // 0: no answer (the connection failed or timed out)
        *statuses.entry(status.to_string()).or_default() += 1;
        answers.push(ms);
    }
    let not_ok = answers.len() - statuses.get("200").copied().unwrap_or(0);
    let all_answered = sent.elapsed();
    let all_active = poll.await??;
    answers.sort_by(f64::total_cmp);

    let transitions: i64 = sqlx::query_scalar(
        "select count(*) from jobs where kind = 'sync_payment' and state = 'succeeded' and payload->>'providerPaymentId' = any($1)",
    )
    .bind(&ids)
    .fetch_one(&db)
    .await?;
    let line = json!({
        "label": a.label,
        "payments": a.payments,
        "deliveries": a.deliveries,
        "webhooks": answers.len(),
        "statuses": statuses,
        "answer_p50_ms": percentile(&answers, 50.0),
        "answer_p99_ms": percentile(&answers, 99.0),
        "answer_max_ms": answers.last().copied().unwrap_or(0.0),
        "all_answered_s": all_answered.as_secs_f64(),
        "all_paid_and_active_s": all_active.as_secs_f64(),
        "sync_jobs": transitions,
    });
    println!("{line}");
    if let Some(dir) = std::path::Path::new(&a.results).parent() {
        std::fs::create_dir_all(dir)?;
    }
    use std::io::Write;
    std::fs::OpenOptions::new().create(true).append(true).open(&a.results)?.write_all(format!("{line}\n").as_bytes())?;
    if not_ok > 0 {
        bail!("{not_ok} webhooks were not answered 200");
    }
    Ok(())
}
