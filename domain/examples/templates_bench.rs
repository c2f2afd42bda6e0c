//! Template search at 100,000 templates: p50 and p99 of the list queries the /template page
//! makes (a page of 5 and the count), run by `bench/templates/run.sh`.
//!
//! Creates a database of its own on the server of DATABASE_URL, fills it with N templates of
//! 200 users (a third public, the rest private, some shared with an organisation level), then
//! times each kind of query 300 times as one user.

use std::time::Instant;

use domain::templates::{self, EntryFields, Filter, Grant, Kind, SoepType, Viewer, Visibility};
use sqlx::{Connection, PgConnection};

const WORDS: [&str; 48] = [
    "pijn",
    "knie",
    "rug",
    "hoofdpijn",
    "koorts",
    "hoest",
    "benauwd",
    "moe",
    "duizelig",
    "misselijk",
    "buikpijn",
    "diarree",
    "obstipatie",
    "eczeem",
    "jeuk",
    "uitslag",
    "wond",
    "zwelling",
    "bloeddruk",
    "hypertensie",
    "diabetes",
    "glucose",
    "controle",
    "recept",
    "verwijzing",
    "fysiotherapie",
    "paracetamol",
    "ibuprofen",
    "antibiotica",
    "oor",
    "oog",
    "keel",
    "verkoudheid",
    "griep",
    "angst",
    "somber",
    "slapeloosheid",
    "stress",
    "schouder",
    "nek",
    "enkel",
    "val",
    "trauma",
    "urineweginfectie",
    "cystitis",
    "zwangerschap",
    "anticonceptie",
    "leefstijl",
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn word(&mut self) -> &'static str {
        WORDS[(self.next() % WORDS.len() as u64) as usize]
    }
    fn sentence(&mut self, n: usize) -> String {
        (0..n).map(|_| self.word()).collect::<Vec<_>>().join(" ")
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let server = std::env::var("DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let n: usize = std::env::var("N").ok().and_then(|v| v.parse().ok()).unwrap_or(100_000);
    let name = format!("spreekkamer_templates_bench_{}", std::process::id());
    let (base, _) = server.rsplit_once('/').expect("DATABASE_URL with a database");
    let mut admin = PgConnection::connect(&server).await?;
    sqlx::query(&format!("create database {name}")).execute(&mut admin).await?;
    let result = run(&format!("{base}/{name}"), n).await;
    sqlx::query(&format!("drop database if exists {name} with (force)")).execute(&mut admin).await?;
    println!("{}", result?);
    Ok(())
}

async fn run(url: &str, n: usize) -> anyhow::Result<String> {
    let db = sqlx::postgres::PgPoolOptions::new().max_connections(4).connect(url).await?;
    domain::db::migrate(&db).await?;
    let organisation = domain::organisations::create(&db, "Zorggroep Bench").await?;
    let level = domain::organisations::create_level(&db, organisation, "Praktijk Bench").await?;
    for u in 0..200 {
        sqlx::query("insert into users (id, email, preferred_username) values ($1, $2, $3)")
            .bind(format!("user-{u}"))
            .bind(format!("user{u}@example.nl"))
            .bind(format!("user{u}"))
            .execute(&db)
            .await?;
        if u % 10 == 0 {
            domain::organisations::add_member(&db, level, &format!("user-{u}"), false).await?;
        }
    }
    let started = Instant::now();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut tx = db.begin().await?;
    for i in 0..n {
        let owner = format!("user-{}", rng.next() % 200);
        let fields = EntryFields {
            title: rng.sentence(2),
            text: rng.sentence(25),
            description: rng.sentence(4),
            soep_type: [SoepType::Plan, SoepType::Objective, SoepType::Subjective][i % 3],
            kind: None,
            codes: vec![],
        };
        let visibility = Visibility::shared(i % 3 == 0);
        let grants = if i % 50 == 1 { vec![Grant::Level { id: level, name: String::new() }] } else { vec![] };
        templates::create_entry(&mut tx, &owner, visibility, &fields, &grants).await?;
        if i % 5_000 == 4_999 {
            tx.commit().await?;
            tx = db.begin().await?;
        }
    }
    tx.commit().await?;
    // as autovacuum leaves a table in use: statistics and the visibility map up to date
    sqlx::query("vacuum analyze").execute(&db).await?;
    let fill_s = started.elapsed().as_secs_f64();

    let viewer = Viewer::load(&db, "user-10", false).await?;
    let filter = |own: bool, q: &str| Filter { own, words: domain::text::words(q), icpc: None };
    let cases: Vec<(&str, Filter, i64)> = vec![
        ("first page, no search", filter(false, ""), 0),
        ("page 400, no search", filter(false, ""), 2_000),
        ("one common word", filter(false, "knie"), 0),
        ("two words", filter(false, "knie zwelling"), 0),
        ("three words, few matches", filter(false, "knie zwelling paracetamol"), 0),
        ("a word found nowhere", filter(false, "appendicitis"), 0),
        ("own templates", filter(true, ""), 0),
        ("own templates, one word", filter(true, "eczeem"), 0),
    ];
    let mut rows = String::from("| query | page p50 | page p99 | count p50 | count p99 | found |\n|---|---:|---:|---:|---:|---:|\n");
    for (label, f, offset) in &cases {
        let mut page = Vec::new();
        let mut count = Vec::new();
        let mut found = 0;
        for _ in 0..300 {
            let t = Instant::now();
            templates::query_entries(&db, &viewer, f, 5, *offset).await?;
            page.push(t.elapsed().as_secs_f64() * 1000.0);
            let t = Instant::now();
            found = templates::count(&db, Kind::Entry, &viewer, f).await?;
            count.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        let (p50, p99) = percentiles(&mut page);
        let (c50, c99) = percentiles(&mut count);
        rows.push_str(&format!("| {label} | {p50:.2} ms | {p99:.2} ms | {c50:.2} ms | {c99:.2} ms | {found} |\n"));
    }
    db.close().await;
    Ok(format!("{n} templates, filled in {fill_s:.0} s; 300 runs per query as a user with a practice\n\n{rows}"))
}

fn percentiles(samples: &mut [f64]) -> (f64, f64) {
    samples.sort_by(f64::total_cmp);
    let at = |p: f64| samples[((samples.len() - 1) as f64 * p).round() as usize];
    (at(0.5), at(0.99))
}
