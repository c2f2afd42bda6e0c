//! The staff audit log: every staff mutation writes an entry (a walk over the document's staff
//! calls), entries name who, what, whom and from where, the Auditlog pages and searches them
//! newest first, the table refuses changes, and the hash chain finds a changed or removed entry
//! (`api audit-verify` too).

mod common;

use common::TestApp;
use domain::audit::{self, Verified};
use serde_json::{Value, json};
use sqlx::PgPool;

async fn entries(pool: &PgPool) -> i64 {
    sqlx::query_scalar("select count(*) from audit_log").fetch_one(pool).await.unwrap()
}

/// A paid payment of `user_id` with an amount, as the staff buttons need one.
async fn paid_payment(pool: &PgPool, user_id: &str) -> uuid::Uuid {
    let subscription = uuid::Uuid::new_v4();
    sqlx::query(
        "insert into subscriptions (id, user_id, tier_id, description, is_active, user_amount, interval_months, price_per_user, amount)
         values ($1, $2, '5b0e1a52-2f1c-4c57-9a6e-000000000003', 'Spreekkamer Praktijk (2 gebruikers, maandelijks)', true, 2, 1, 3900, 7800)",
    )
    .bind(subscription)
    .bind(user_id)
    .execute(pool)
    .await
    .unwrap();
    let payment = uuid::Uuid::new_v4();
    sqlx::query(
        "insert into payments (id, user_id, subscription_id, description, user_amount, amount_cents, status, interval_months,
                               is_first_payment, sequence_type, provider, idempotency_key, paid_at, contact_name)
         values ($1, $2, $3, 'Spreekkamer Praktijk (2 gebruikers, maandelijks)', 2, 7800, 'PAID', 1, true, 'first', 'local', $1::text,
                 now(), 'Anne de Vries')",
    )
    .bind(payment)
    .bind(user_id)
    .bind(subscription)
    .execute(pool)
    .await
    .unwrap();
    payment
}

/// A valid call of each staff mutation: (method, documented path, concrete path, content type, body).
fn staff_mutations(payment: uuid::Uuid, owner: &str) -> Vec<(&'static str, &'static str, String, &'static str, String)> {
    vec![
        (
            "post",
            "/payment/manage/payment/contact/{id}",
            format!("/payment/manage/payment/contact/{payment}"),
            "application/json",
            String::new(),
        ),
        (
            "post",
            "/payment/manage/payment/invoice/{id}",
            format!("/payment/manage/payment/invoice/{payment}"),
            "application/json",
            String::new(),
        ),
        ("post", "/api/cms/setIsHelperUser/{user_id}", format!("/api/cms/setIsHelperUser/{owner}"), "application/json", "true".to_owned()),
        (
            "put",
            "/api/cms/medicineShortages",
            "/api/cms/medicineShortages".to_owned(),
            "text/csv",
            "naam;atc;status;sinds;advies\nIbuprofen 400 mg;M01AE01;tekort;2026-11-01;\n".to_owned(),
        ),
    ]
}

/// Calls that need the staff role but change nothing.
const STAFF_READS: &[(&str, &str)] = &[("post", "/api/cms"), ("get", "/api/cms/auditLog/all"), ("get", "/api/cms/medicineShortages")];

#[sqlx::test(migrations = "../migrations")]
async fn every_staff_mutation_writes_one_entry_and_others_are_refused(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let staff = app.access_token_for("staff@example.nl").await;
    let user = app.access_token_for("praktijk@example.nl").await;
    let owner: String = sqlx::query_scalar("select id from users where email = 'praktijk@example.nl'").fetch_one(&pool).await.unwrap();
    let payment = paid_payment(&pool, &owner).await;
    let calls = staff_mutations(payment, &owner);

    // the walk covers every staff call of the document
    let document: Value = serde_json::from_str(&api::openapi::document()).unwrap();
    for (path, item) in document["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let staff_only = operation["tags"].as_array().is_some_and(|t| t.contains(&json!("cms")));
            if !staff_only || !["get", "put", "post", "delete", "patch"].contains(&method.as_str()) {
                continue;
            }
            let known = calls.iter().any(|(m, p, ..)| m == method && p == path) || STAFF_READS.contains(&(method.as_str(), path.as_str()));
            assert!(known, "{method} {path} is a staff call this test does not know: add it, with its audit entry");
        }
    }

    for (method, _, path, content_type, body) in &calls {
        let request = |token: Option<&str>| {
            let r = app
                .http
                .request(method.to_uppercase().parse().unwrap(), app.url(path))
                .header("content-type", *content_type)
                .body(body.clone());
            match token {
                Some(t) => r.bearer_auth(t.to_owned()),
                None => r,
            }
        };
        let before = entries(&pool).await;
        assert_eq!(request(None).send().await.unwrap().status(), 401, "{method} {path} anonymous");
        assert_eq!(request(Some(&user)).send().await.unwrap().status(), 403, "{method} {path} as a user");
        assert_eq!(entries(&pool).await, before, "a refused call writes nothing");
        let response = request(Some(&staff)).header("x-request-id", "req-audit-1").send().await.unwrap();
        assert!(response.status().is_success(), "{method} {path} as staff: {}", response.status());
        assert_eq!(entries(&pool).await, before + 1, "{method} {path} wrote no audit entry");
        let (actor, email, request_id, addr): (String, String, Option<String>, Option<String>) =
            sqlx::query_as("select actor_id, actor_email, request_id, client_addr from audit_log order by id desc limit 1")
                .fetch_one(&pool)
                .await
                .unwrap();
        assert_eq!(email, "staff@example.nl");
        assert!(!actor.is_empty());
        assert_eq!(request_id.as_deref(), Some("req-audit-1"));
        assert_eq!(addr.as_deref(), Some("127.0.0.1"));
    }
    for (method, path) in STAFF_READS {
        let r = app.http.request(method.to_uppercase().parse().unwrap(), app.url(path)).bearer_auth(&user).send().await.unwrap();
        assert_eq!(r.status(), 403, "{method} {path} as a user");
        let r = app.http.request(method.to_uppercase().parse().unwrap(), app.url(path)).send().await.unwrap();
        assert_eq!(r.status(), 401, "{method} {path} anonymous");
    }

    // the entries of the payment say who did what for whom, in Dutch
    let logged = audit::of_subject(&pool, "payment", &payment.to_string()).await.unwrap();
    assert_eq!(
        logged,
        vec![
            (
                "payment.make_contact".to_owned(),
                "staff@example.nl liet het boekhoudcontact maken voor de betaling van praktijk@example.nl (Spreekkamer Praktijk (2 gebruikers, maandelijks), € 78,00)".to_owned()
            ),
            (
                "payment.make_invoice".to_owned(),
                "staff@example.nl liet de factuur maken voor de betaling van praktijk@example.nl (Spreekkamer Praktijk (2 gebruikers, maandelijks), € 78,00)".to_owned()
            ),
        ]
    );
    let concerns: Vec<Option<String>> =
        sqlx::query_scalar("select concerns_user_id from audit_log where subject_type = 'payment'").fetch_all(&pool).await.unwrap();
    assert!(concerns.iter().all(|c| c.as_deref() == Some(owner.as_str())));
    let helper = audit::of_subject(&pool, "user", &owner).await.unwrap();
    assert_eq!(
        helper,
        vec![("user.set_helper".to_owned(), "staff@example.nl zette de helper-status van praktijk@example.nl aan".to_owned())]
    );
    let changes: Value =
        sqlx::query_scalar("select changes from audit_log where action = 'user.set_helper'").fetch_one(&pool).await.unwrap();
    assert_eq!(changes, json!({ "before": { "isHelper": false }, "after": { "isHelper": true } }));
    assert_eq!(audit::verify(&pool).await.unwrap(), Verified::Intact(4));
}

#[sqlx::test(migrations = "../migrations")]
async fn the_auditlog_pages_and_searches_newest_first(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let staff = app.access_token_for("staff@example.nl").await;
    let actor = audit::Actor { user_id: "s".into(), email: "staff@example.nl".into(), request_id: None, client_addr: None };
    for i in 0..60 {
        let mut tx = pool.begin().await.unwrap();
        let entry = audit::Entry {
            action: audit::Action::ReplaceShortageList,
            subject_type: "medicine_shortages",
            subject_id: "list".into(),
            concerns_user_id: None,
            concerns_organisation_id: None,
            changes: json!({ "after": { "count": i } }),
            about: format!("(ronde {i})"),
        };
        audit::record(&mut tx, &actor, &entry).await.unwrap();
        tx.commit().await.unwrap();
    }
    let page: Value = app.get_with_token("/api/cms/auditLog/all", &staff).await.json().await.unwrap();
    assert_eq!((page["total"].as_i64(), page["pageSize"].as_i64()), (Some(60), Some(50)));
    let shown = page["entries"].as_array().unwrap();
    assert_eq!(shown.len(), 50);
    assert!(shown[0]["log"].as_str().unwrap().ends_with("(ronde 59)"));
    assert!(shown[0]["timestamp"].is_string() && shown[0]["id"] == 60);
    let second: Value = app.get_with_token("/api/cms/auditLog/all?page=1", &staff).await.json().await.unwrap();
    assert_eq!(second["entries"].as_array().unwrap().len(), 10);
    let found: Value = app.get_with_token("/api/cms/auditLog/all?search=RONDE%205", &staff).await.json().await.unwrap();
    assert_eq!(found["total"], 11, "ronde 5 and 50..59");
    let none: Value = app.get_with_token("/api/cms/auditLog/all?search=100%25", &staff).await.json().await.unwrap();
    assert_eq!(none["total"], 0, "a % is searched for, not a wildcard");
    let bad = app.get_with_token("/api/cms/auditLog/all?page=-1", &staff).await;
    assert_eq!(bad.status(), 400);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_log_refuses_changes_and_the_chain_finds_a_tampered_or_missing_entry(pool: PgPool) {
    let actor = audit::Actor {
        user_id: "s".into(),
        email: "staff@example.nl".into(),
        request_id: Some("r".into()),
        client_addr: Some("10.0.0.1".into()),
    };
    for i in 0..5 {
        let mut tx = pool.begin().await.unwrap();
        let entry = audit::Entry {
            action: audit::Action::MakeInvoice,
            subject_type: "payment",
            subject_id: format!("p{i}"),
            concerns_user_id: Some("u".into()),
            concerns_organisation_id: None,
            changes: json!({ "job": i, "nested": { "b": 2, "a": [1, "x"] } }),
            about: format!("voor betaling {i}"),
        };
        audit::record(&mut tx, &actor, &entry).await.unwrap();
        tx.commit().await.unwrap();
    }
    assert_eq!(audit::verify(&pool).await.unwrap(), Verified::Intact(5));
    let bin = env!("CARGO_BIN_EXE_api");
    let run = || {
        std::process::Command::new(bin)
            .arg("audit-verify")
            .env("APP_ENV", "development")
            .env("APP_DATABASE_URL", domain::db::url_of(&pool))
            .env("APP_LOG", "error")
            .output()
            .unwrap()
    };
    let ok = run();
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    assert!(String::from_utf8_lossy(&ok.stdout).contains("5 entries"));

    // the table itself refuses
    for sql in ["update audit_log set log = 'x' where id = 2", "delete from audit_log where id = 5", "truncate audit_log"] {
        let refused = sqlx::query(sql).execute(&pool).await.unwrap_err();
        assert!(refused.to_string().contains("append-only"), "{sql}: {refused}");
    }
    // someone with the rights to switch the guard off changes an entry: the chain says which
    sqlx::query("alter table audit_log disable trigger audit_log_append_only").execute(&pool).await.unwrap();
    sqlx::query("update audit_log set log = 'niets gebeurd' where id = 3").execute(&pool).await.unwrap();
    assert_eq!(audit::verify(&pool).await.unwrap(), Verified::Broken { id: 3, reason: "its fields do not match its hash".into() });
    let broken = run();
    assert_eq!(broken.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&broken.stderr).contains("broken at entry 3"));
    // an entry removed from the middle
    sqlx::query("delete from audit_log where id = 3").execute(&pool).await.unwrap();
    assert!(matches!(audit::verify(&pool).await.unwrap(), Verified::Broken { id: 3, .. }));
    // a changed time is found as well
    sqlx::query("delete from audit_log where id > 2").execute(&pool).await.unwrap();
    sqlx::query("update audit_log set at = at - interval '1 day' where id = 2").execute(&pool).await.unwrap();
    assert!(matches!(audit::verify(&pool).await.unwrap(), Verified::Broken { id: 2, .. }));
}
