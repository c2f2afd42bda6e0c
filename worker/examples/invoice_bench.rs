//! Invoice benchmark, run by `bench/invoices/run.sh`: N paid payments through the bookkeeping
//! jobs with the local bookkeeping (contact, gapless number, stored document and PDF), by the
//! real worker (in this process) on a database of its own.
//!
//! 1. Makes N users, each with a practice subscription and a PAID first payment with billing
//!    details (in bulk SQL).
//! 2. Renders the same invoice's PDF N/10 times in this process, one after the other: what the
//!    PDF alone costs on this machine, to compare the jobs with.
//! 3. Queues one `create_invoice` job per payment (ids only), starts the worker and times from
//!    the start to the last job's `finished_at` (the database's clock).
//! 4. Checks the result: N invoices, numbered 1..N without a gap, each with its PDF.
//!
//! Prints one JSON line. Env: REDIS_URL, DATABASE_URL (a server where it may create and drop a
//! database), N (1000), CONC (the worker's concurrency for invoices; the kind's own when unset).

// mimalloc, as the worker binary (see worker/src/main.rs)
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::{Duration, Instant};

use domain::env::Env;
use jobs::kinds::CreateInvoice;
use sqlx::{Connection, PgConnection, PgPool};
use uuid::Uuid;

fn var(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_owned())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let redis_url = var("REDIS_URL", "redis://127.0.0.1:6379");
    let server = var("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres");
    let n: usize = var("N", "1000").parse()?;
    let concurrency = std::env::var("CONC").ok();

    let name = format!("spreekkamer_bench_invoices_{}", std::process::id());
    let (base, _) = server.rsplit_once('/').expect("DATABASE_URL with a database");
    let database_url = format!("{base}/{name}");
    let mut admin = PgConnection::connect(&server).await?;
    sqlx::query(&format!("create database {name}")).execute(&mut admin).await?;
    let result = run(&redis_url, &database_url, n, concurrency.as_deref()).await;
    sqlx::query(&format!("drop database if exists {name} with (force)")).execute(&mut admin).await?;
    println!("{}", result?);
    Ok(())
}

/// N users with a PAID first payment each; answers the payments' ids.
async fn payments(db: &PgPool, n: usize) -> anyhow::Result<Vec<Uuid>> {
    let mut tx = db.begin().await?;
    sqlx::query(
        "insert into users (id, email, preferred_username)
         select 'bench-' || i, 'bench-' || i || '@example.nl', 'bench-' || i from generate_series(1, $1) i",
    )
    .bind(n as i64)
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "insert into subscriptions (id, user_id, tier_id, description, is_active, user_amount, interval_months, price_per_user, amount,
                                    valid_until)
         select gen_random_uuid(), 'bench-' || i, '5b0e1a52-2f1c-4c57-9a6e-000000000003', 'Spreekkamer Praktijk (2 gebruikers, maandelijks)',
                true, 2, 1, 3900, 7800, current_date + 30
           from generate_series(1, $1) i",
    )
    .bind(n as i64)
    .execute(&mut *tx)
    .await?;
    let ids: Vec<Uuid> = sqlx::query_scalar(
        "insert into payments (id, user_id, subscription_id, description, user_amount, amount_cents, status, interval_months,
                               is_first_payment, sequence_type, provider, provider_payment_id, idempotency_key, period_start, period_end,
                               paid_at, send_invoice_to_email, practice_name, contact_name, street_address, house_number, postcode, city,
                               phone_number)
         select gen_random_uuid(), s.user_id, s.id, s.description, 2, 7800, 'PAID', 1, true, 'first', 'local', 'ltr_' || s.user_id,
                'bench:' || s.user_id, current_date, current_date + 29, now(), s.user_id || '@example.nl', 'Huisartsenpraktijk De Linde',
                'Anne de Vries', 'Lindelaan', '12', '1234AB', 'Utrecht', '0201234567'
           from subscriptions s
         returning id",
    )
    .fetch_all(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(ids)
}

async fn run(redis_url: &str, database_url: &str, n: usize, concurrency: Option<&str>) -> anyhow::Result<serde_json::Value> {
    let mut pairs = vec![
        ("APP_ENV", "development".to_owned()),
        ("APP_DATABASE_URL", database_url.to_owned()),
        ("APP_DATABASE_MAX_CONNECTIONS", "40".to_owned()),
        ("APP_REDIS_URL", redis_url.to_owned()),
        ("APP_JOBS_NAMESPACE", format!("bench_invoices_{}", std::process::id())),
        ("APP_WORKER_HTTP_ADDR", "off".to_owned()),
        ("APP_WORKER_QUEUES", "create_invoice".to_owned()),
        ("APP_LOG", "error".to_owned()),
    ];
    if let Some(c) = concurrency {
        pairs.push(("APP_WORKER_CONCURRENCY_CREATE_INVOICE", c.to_owned()));
    }
    let env =
        Env::from_pairs(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).chain(std::env::vars().filter(|(k, _)| k.starts_with("APP_"))));
    let config = worker::Config::from_env(&env)?;
    let db = domain::db::connect(&config.database).await?;
    domain::db::migrate(&db).await?;
    let dispatcher = jobs::Dispatcher::new(db.clone(), config.redis.client()?, jobs::JobsConfig::from_env(&env)?);
    let ids = payments(&db, n).await?;

    // the PDF alone, in this process
    let sample = domain::billing::books::payment(&db, ids[0]).await?.expect("a payment");
    let document = domain::billing::invoices::InvoiceDocument {
        number: domain::billing::invoices::number(2026, 1),
        seller: config.bookkeeping.seller.clone(),
        draft: sample.invoice_draft(),
    };
    let renders = (n / 10).max(10);
    let started = Instant::now();
    let mut bytes = 0;
    for _ in 0..renders {
        bytes = domain::billing::invoice_pdf::pdf(&document).len();
    }
    let pdf_per_s = renders as f64 / started.elapsed().as_secs_f64();

    let jobs: Vec<_> = ids.iter().map(|&id| CreateInvoice::job(id)).collect();
    let mut queued = Vec::new();
    for chunk in jobs.chunks(5_000) {
        let mut tx = db.begin().await?;
        queued.extend(jobs::enqueue_many(&mut tx, chunk).await?);
        tx.commit().await?;
    }
    dispatcher.dispatch(&queued).await?;

    let (stop, rx) = tokio::sync::watch::channel(false);
    let t0: chrono::DateTime<chrono::Utc> = sqlx::query_scalar("select clock_timestamp()").fetch_one(&db).await?;
    let started = Instant::now();
    let worker = tokio::spawn(worker::run(config, async move {
        let mut rx = rx;
        let _ = rx.wait_for(|s| *s).await;
    }));
    loop {
        let (done, failed): (i64, i64) = sqlx::query_as(
            "select count(*) filter (where state = 'succeeded'), count(*) filter (where state in ('failed', 'dead', 'retrying'))
               from jobs where kind = 'create_invoice'",
        )
        .fetch_one(&db)
        .await?;
        anyhow::ensure!(failed == 0, "{failed} invoice jobs failed");
        if done as usize >= n {
            break;
        }
        anyhow::ensure!(started.elapsed() < Duration::from_secs(900), "only {done} of {n} invoices after 900 s");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let last: chrono::DateTime<chrono::Utc> =
        sqlx::query_scalar("select max(finished_at) from jobs where kind = 'create_invoice'").fetch_one(&db).await?;
    let seconds = (last - t0).num_microseconds().unwrap_or(1) as f64 / 1e6;
    let mut durations: Vec<f64> = sqlx::query_scalar(
        "select extract(epoch from finished_at - started_at)::float8 * 1000 from jobs where kind = 'create_invoice' order by 1",
    )
    .fetch_all(&db)
    .await?;
    durations.sort_by(f64::total_cmp);
    let pct = |p: f64| durations[((durations.len() as f64 - 1.0) * p).round() as usize];

    // exactly N invoices, numbered 1..N, each with its PDF
    let (invoices, numbers, lowest, highest, pdfs, pdf_bytes): (i64, i64, i32, i32, i64, i64) = sqlx::query_as(
        "select (select count(*) from invoices), count(distinct number), min(sequence), max(sequence), count(pdf),
                coalesce(sum(length(pdf)), 0)::int8
           from local_invoices",
    )
    .fetch_one(&db)
    .await?;
    anyhow::ensure!(
        invoices as usize == n && numbers as usize == n && lowest == 1 && highest as usize == n && pdfs as usize == n,
        "expected {n} invoices numbered 1..{n} with a PDF each: {invoices} invoices, {numbers} numbers {lowest}..{highest}, {pdfs} PDFs"
    );

    stop.send(true)?;
    worker.await??;
    db.close().await;
    let invoices_per_s = n as f64 / seconds;
    let round = |x: f64| (x * 10.0).round() / 10.0;
    Ok(serde_json::json!({
        "n": n,
        "concurrency": concurrency.map_or(Ok(4), str::parse::<u64>)?,
        "invoices_per_s": round(invoices_per_s),
        "seconds": (seconds * 100.0).round() / 100.0,
        "job_p50_ms": round(pct(0.50)),
        "job_p99_ms": round(pct(0.99)),
        "pdf_alone_per_s": round(pdf_per_s),
        "pdf_bytes": bytes,
        "pdf_bytes_mean": pdf_bytes / n as i64,
        "jobs_vs_pdf_alone": (invoices_per_s / pdf_per_s * 100.0).round() / 100.0,
    }))
}
