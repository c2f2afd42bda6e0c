//! The staff CMS's tables at 10,000 users and 100,000 payments: p50 and p99 of a page (rows and
//! the total) of Gebruikers, Betalingen and Gebruikers abonnementen, as the tabs ask for them, run
//! by `bench/cms/run.sh`.
//!
//! Creates a database of its own on the server of DATABASE_URL and fills it in SQL: USERS users
//! over two years (a fifth with a HIS, a tenth in a practice), two subscriptions each, PAYMENTS
//! payments (70 % paid, most with an invoice and their user's contact), 200,000 finished jobs and
//! some failed bookkeeping jobs; then times each query RUNS times.

use std::time::Instant;

use domain::billing::read::{self, PaymentFilter, SubscriptionFilter};
use domain::billing::status::PaymentStatus;
use domain::cms::users::{self, UserFilter};
use domain::cms::{PAGE_SIZE, statistics};
use sqlx::{Connection, PgConnection, PgPool};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let server = std::env::var("DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let var = |name: &str, default: i64| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let (n_users, n_payments, runs) = (var("USERS", 10_000), var("PAYMENTS", 100_000), var("RUNS", 200) as usize);
    let name = format!("spreekkamer_cms_bench_{}", std::process::id());
    let (base, _) = server.rsplit_once('/').expect("DATABASE_URL with a database");
    let mut admin = PgConnection::connect(&server).await?;
    sqlx::query(&format!("create database {name}")).execute(&mut admin).await?;
    let result = run(&format!("{base}/{name}"), n_users, n_payments, runs).await;
    sqlx::query(&format!("drop database if exists {name} with (force)")).execute(&mut admin).await?;
    println!("{}", result?);
    Ok(())
}

async fn fill(db: &PgPool, n_users: i64, n_payments: i64) -> anyhow::Result<()> {
    let statements = [
        "insert into users (id, email, preferred_username, his_id, created_at, last_seen_at)
         select 'kc-' || i, 'arts' || i || '@praktijk' || (i % 500) || '.nl', 'arts' || i,
                case when i % 5 = 0 then (select id from his order by name offset (i / 5) % 4 limit 1) end,
                now() - make_interval(mins => (i * 100)::int), case when i % 50 = 0 then now() end
           from generate_series(1, $1) i",
        "insert into organisations (id, name) select gen_random_uuid(), 'Zorggroep ' || i from generate_series(1, 20) i",
        "insert into organisation_levels (id, organisation_id, name)
         select gen_random_uuid(), o.id, 'Praktijk ' || o.name || ' ' || i from organisations o, generate_series(1, 10) i",
        "insert into organisation_members (level_id, user_id)
         select (select id from organisation_levels order by id offset (i / 10) % 200 limit 1), 'kc-' || i
           from generate_series(10, $1, 10) i",
        "insert into organisation_subscriptions (id, description, level_id, valid_until, is_active)
         select gen_random_uuid(), 'Organisatie abonnement van ' || name, id, current_date + 100, true from organisation_levels",
        "insert into subscriptions (id, user_id, tier_id, description, is_active, is_trial, user_amount, interval_months, price_per_user,
                                    amount, valid_until, created_at)
         select gen_random_uuid(), 'kc-' || i, '5b0e1a52-2f1c-4c57-9a6e-000000000003', 'Spreekkamer Praktijk (' || k || ' gebruikers, maandelijks)',
                k = 2, k = 1, k, 1, 3900, 3900 * k, current_date + 100 - k * 40, now() - make_interval(mins => (i * 100 - k)::int)
           from generate_series(1, $1) i, generate_series(1, 2) k",
        "insert into payments (id, user_id, subscription_id, description, user_amount, amount_cents, status, interval_months,
                               is_first_payment, sequence_type, provider, idempotency_key, paid_at, created_at, contact_name)
         select gen_random_uuid(), s.user_id, s.id, s.description, s.user_amount, s.amount,
                (array['PAID','PAID','PAID','PAID','PAID','PAID','PAID','OPEN','FAILED','EXPIRED'])[1 + j % 10], 1,
                j = 1, case when j = 1 then 'first' else 'recurring' end, 'local', s.id || '-' || j,
                case when j % 10 < 7 then now() - make_interval(days => j * 30) end, s.created_at + make_interval(days => j * 30), 'Arts'
           from (select * from subscriptions where not is_trial) s, generate_series(1, ($2 / $1)::int) j",
        "insert into bookkeeping_contacts (user_id, provider, contact_id) select id, 'local', 'c-' || id from users where id not like '%7'",
        "insert into invoices (id, payment_id, kind, provider, reference, provider_invoice_id, number, amount_cents, issued_on)
         select gen_random_uuid(), id, 'invoice', 'local', 'SPK-' || id, id::text, 'F-' || id, amount_cents, current_date
           from payments where status = 'PAID' and amount_cents > 0 and right(id::text, 1) <> 'a'",
        "insert into jobs (id, kind, state, payload, attempts, max_attempts, finished_at)
         select gen_random_uuid(), 'summarise_consult', 'succeeded', '{}', 1, 3, now() from generate_series(1, 200000)",
        "insert into jobs (id, kind, state, payload, attempts, max_attempts, last_error, finished_at)
         select gen_random_uuid(), 'create_invoice', 'dead', jsonb_build_object('paymentId', id::text), 5, 5, 'Moneybird: 503', now()
           from payments where status = 'PAID' and right(id::text, 2) = 'ff'",
        "analyze",
    ];
    for sql in statements {
        sqlx::query(sql).bind(n_users).bind(n_payments).execute(db).await?;
    }
    Ok(())
}

async fn run(url: &str, n_users: i64, n_payments: i64, runs: usize) -> anyhow::Result<String> {
    let db = sqlx::postgres::PgPoolOptions::new().max_connections(4).connect(url).await?;
    domain::db::migrate(&db).await?;
    let started = Instant::now();
    fill(&db, n_users, n_payments).await?;
    let fill_s = started.elapsed().as_secs_f64();
    let counts: (i64, i64, i64) =
        sqlx::query_as("select (select count(*) from users), (select count(*) from payments), (select count(*) from subscriptions)")
            .fetch_one(&db)
            .await?;
    let today = domain::billing::today();
    let users_filter = |search: Option<&str>, his: Option<&str>| UserFilter { search: search.map(Into::into), his: his.map(Into::into) };
    let payments_filter = |status: Option<PaymentStatus>, search: Option<&str>| PaymentFilter { status, search: search.map(Into::into) };
    let mut rows = String::from("| tab | query | p50 | p99 | rows in all |\n|---|---|---:|---:|---:|\n");
    macro_rules! time {
        ($tab:literal, $label:literal, $call:expr) => {{
            let mut samples = Vec::with_capacity(runs);
            let mut total = 0;
            for _ in 0..runs {
                let t = Instant::now();
                let (_, all) = $call.await?;
                samples.push(t.elapsed().as_secs_f64() * 1000.0);
                total = all;
            }
            let (p50, p99) = percentiles(&mut samples);
            rows.push_str(&format!("| {} | {} | {p50:.2} ms | {p99:.2} ms | {total} |\n", $tab, $label));
        }};
    }
    time!("Gebruikers", "first page", users::page(&db, &users_filter(None, None), today, 0, PAGE_SIZE));
    time!("Gebruikers", "page 100", users::page(&db, &users_filter(None, None), today, 100, PAGE_SIZE));
    time!(
        "Gebruikers",
        "search 'praktijk12' (e-mail part)",
        users::page(&db, &users_filter(Some("praktijk12"), None), today, 0, PAGE_SIZE)
    );
    time!("Gebruikers", "search 'kc-99' (id part)", users::page(&db, &users_filter(Some("kc-99"), None), today, 0, PAGE_SIZE));
    time!("Gebruikers", "HIS 'Medicom'", users::page(&db, &users_filter(None, Some("Medicom")), today, 0, PAGE_SIZE));
    time!("Betalingen", "first page", read::payment_page(&db, &payments_filter(None, None), 0, PAGE_SIZE));
    time!("Betalingen", "page 100", read::payment_page(&db, &payments_filter(None, None), 100, PAGE_SIZE));
    time!("Betalingen", "page 1000 (the last pages)", read::payment_page(&db, &payments_filter(None, None), 1000, PAGE_SIZE));
    time!("Betalingen", "status PAID", read::payment_page(&db, &payments_filter(Some(PaymentStatus::Paid), None), 0, PAGE_SIZE));
    time!("Betalingen", "status FAILED", read::payment_page(&db, &payments_filter(Some(PaymentStatus::Failed), None), 0, PAGE_SIZE));
    time!("Betalingen", "search 'arts4711@'", read::payment_page(&db, &payments_filter(None, Some("arts4711@")), 0, PAGE_SIZE));
    time!("Gebruikers abonnementen", "first page", read::subscription_page(&db, &SubscriptionFilter::default(), today, 0, PAGE_SIZE));
    time!(
        "Gebruikers abonnementen",
        "paid and active only",
        read::subscription_page(&db, &SubscriptionFilter { paid_only: true, active_only: true, search: None }, today, 0, PAGE_SIZE)
    );
    time!("Statistieken", "all tiles", async { statistics::statistics(&db, today).await.map(|s| ((), s.users)) });
    time!("Statistieken", "90 days", async { statistics::daily(&db, today).await.map(|d| ((), d.len() as i64)) });
    db.close().await;
    Ok(format!(
        "{} users, {} payments, {} subscriptions, filled in {fill_s:.0} s; {runs} runs per query, a page of {PAGE_SIZE} rows and its total\n\n{rows}",
        counts.0, counts.1, counts.2
    ))
}

fn percentiles(samples: &mut [f64]) -> (f64, f64) {
    samples.sort_by(f64::total_cmp);
    let at = |p: f64| samples[((samples.len() - 1) as f64 * p).round() as usize];
    (at(0.5), at(0.99))
}
