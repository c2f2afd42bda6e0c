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

/// What the staff calls work on.
struct Subjects {
    payment: uuid::Uuid,
    subscription: uuid::Uuid,
    owner: String,
    dead_job: uuid::Uuid,
    unused_his: uuid::Uuid,
    /// A main organisation with a sub-organisation (its own term), an address waiting in it and a
    /// duplicate organisation subscription.
    organisation: uuid::Uuid,
    level: uuid::Uuid,
    duplicate: uuid::Uuid,
}

/// Makes the payment's subscription renewable, and a dead invoice job to retry.
async fn subjects(pool: &PgPool, owner: &str) -> Subjects {
    let payment = paid_payment(pool, owner).await;
    let subscription: uuid::Uuid = sqlx::query_scalar(
        "update subscriptions s set first_payment_id = $1, valid_until = current_date + 20, renew_without_discount_date = current_date + 20
           from payments p where p.id = $1 and s.id = p.subscription_id returning s.id",
    )
    .bind(payment)
    .fetch_one(pool)
    .await
    .unwrap();
    let dead_job: uuid::Uuid = sqlx::query_scalar(
        "insert into jobs (id, kind, state, payload, attempts, max_attempts, last_error, finished_at)
         values (gen_random_uuid(), 'create_invoice', 'dead', jsonb_build_object('paymentId', $1::text), 5, 5, 'Moneybird: 500', now())
         returning id",
    )
    .bind(payment)
    .fetch_one(pool)
    .await
    .unwrap();
    let unused_his: uuid::Uuid =
        sqlx::query_scalar("insert into his (id, name) values (gen_random_uuid(), 'Oud HIS') returning id").fetch_one(pool).await.unwrap();
    let organisation = uuid::Uuid::new_v4();
    let level = uuid::Uuid::new_v4();
    sqlx::query("insert into organisations (id, name, agb_code) values ($1, 'Zorggroep Audit', '1111')")
        .bind(organisation)
        .execute(pool)
        .await
        .unwrap();
    sqlx::query(
        "insert into organisation_levels (id, organisation_id, name, agb_code, valid_until) values ($1, $2, 'Praktijk Audit', '2222', current_date + 30)",
    )
    .bind(level)
    .bind(organisation)
    .execute(pool)
    .await
    .unwrap();
    sqlx::query("insert into organisation_level_emails (level_id, email) values ($1, 'wacht@audit.nl')")
        .bind(level)
        .execute(pool)
        .await
        .unwrap();
    let duplicate: uuid::Uuid = sqlx::query_scalar(
        "insert into organisation_subscriptions (id, description, user_email, organisation_id, level_id)
         select gen_random_uuid(), 'Organisatie abonnement van Zorggroep Audit', 'dubbel@audit.nl', $1, $2 from generate_series(1, 2)
         returning id",
    )
    .bind(organisation)
    .bind(level)
    .fetch_all(pool)
    .await
    .unwrap()[0];
    Subjects { payment, subscription, owner: owner.to_owned(), dead_job, unused_his, organisation, level, duplicate }
}

/// A valid call of each audited staff call (changes, and reads of someone's personal data):
/// (method, documented path, concrete path, content type, body).
fn staff_mutations(s: &Subjects) -> Vec<(&'static str, &'static str, String, &'static str, String)> {
    let Subjects { payment, subscription, owner, dead_job, unused_his, organisation, level, duplicate } = s;
    let medicom = "\"7d1c4a1e-0000-4000-8000-000000000002\"".to_owned();
    let json = "application/json";
    vec![
        ("post", "/payment/manage/payment/contact/{id}", format!("/payment/manage/payment/contact/{payment}"), json, String::new()),
        ("post", "/payment/manage/payment/invoice/{id}", format!("/payment/manage/payment/invoice/{payment}"), json, String::new()),
        ("post", "/api/cms/setIsHelperUser/{user_id}", format!("/api/cms/setIsHelperUser/{owner}"), json, "true".to_owned()),
        (
            "put",
            "/api/cms/medicineShortages",
            "/api/cms/medicineShortages".to_owned(),
            "text/csv",
            "naam;atc;status;sinds;advies\nIbuprofen 400 mg;M01AE01;tekort;2026-11-01;\n".to_owned(),
        ),
        (
            "post",
            "/api/cms/setHISforUser/{user_id}",
            format!("/api/cms/setHISforUser/{owner}"),
            json,
            "\"7d1c4a1e-0000-4000-8000-000000000002\"".to_owned(),
        ),
        (
            "get",
            "/payment/manage/getSubscriptionForCMSUser/{user_id}",
            format!("/payment/manage/getSubscriptionForCMSUser/{owner}"),
            json,
            String::new(),
        ),
        (
            "get",
            "/payment/manage/getPaymentsForCMSUser/{user_id}",
            format!("/payment/manage/getPaymentsForCMSUser/{owner}"),
            json,
            String::new(),
        ),
        (
            "get",
            "/api/cms/getOrganizationSubscriptionForCMSUser/{user_id}",
            format!("/api/cms/getOrganizationSubscriptionForCMSUser/{owner}"),
            json,
            String::new(),
        ),
        (
            "post",
            "/payment/manage/subscription/active/{id}",
            format!("/payment/manage/subscription/active/{subscription}"),
            json,
            "false".to_owned(),
        ),
        (
            "post",
            "/payment/manage/subscription/valid/{id}",
            format!("/payment/manage/subscription/valid/{subscription}"),
            json,
            "\"2099-01-31\"".to_owned(),
        ),
        (
            "post",
            "/payment/manage/editPayment",
            "/payment/manage/editPayment".to_owned(),
            json,
            json!({ "id": payment, "contactName": "Anne de Vries", "phoneNumber": "0201234567", "streetAddress": "Lindelaan",
                    "houseNumber": "12", "postcode": "1234 ab", "city": "Utrecht" })
            .to_string(),
        ),
        (
            "post",
            "/payment/manage/renewSubscription",
            "/payment/manage/renewSubscription".to_owned(),
            json,
            json!({ "startDate": "2099-02-01", "firstPaymentId": payment }).to_string(),
        ),
        (
            "post",
            "/payment/manage/cancelSubscription/{id}",
            format!("/payment/manage/cancelSubscription/{subscription}"),
            json,
            String::new(),
        ),
        ("post", "/api/cms/jobs/{id}/retry", format!("/api/cms/jobs/{dead_job}/retry"), json, String::new()),
        ("post", "/api/cms/HIS", "/api/cms/HIS".to_owned(), json, json!({ "name": "Nieuw HIS" }).to_string()),
        ("delete", "/api/cms/his/{id}", format!("/api/cms/his/{unused_his}"), json, String::new()),
        (
            "post",
            "/api/cms/organization",
            "/api/cms/organization".to_owned(),
            json,
            json!({ "organizationName": "Zorggroep Nieuw", "agbCode": "3333", "type": "CARE_GROUP" }).to_string(),
        ),
        (
            "post",
            "/api/cms/suborganizationLinkingtoMain/{main_organization_id}",
            format!("/api/cms/suborganizationLinkingtoMain/{organisation}"),
            json,
            json!({ "organizationName": "Praktijk Twee", "agbCode": "4444", "validUntil": "2099-01-01" }).to_string(),
        ),
        (
            "post",
            "/api/cms/suborganizationLinkingToUsers/{main_organization_id}/{sub_organization_id}",
            format!("/api/cms/suborganizationLinkingToUsers/{organisation}/{level}"),
            json,
            json!({ "email": "Praktijk@Example.nl" }).to_string(),
        ),
        (
            "post",
            "/api/cms/suborganizationAdminUser/{sub_organization_id}/{user_id}",
            format!("/api/cms/suborganizationAdminUser/{level}/{owner}"),
            json,
            "true".to_owned(),
        ),
        ("post", "/api/cms/setHISforOrganization/{sub_organization_id}", format!("/api/cms/setHISforOrganization/{level}"), json, medicom),
        (
            "post",
            "/api/cms/setDurationForSubOrganization/{sub_organization_id}",
            format!("/api/cms/setDurationForSubOrganization/{level}"),
            json,
            json!({ "endDate": "2099-06-30" }).to_string(),
        ),
        (
            "post",
            "/api/cms/setDurationForMainOrganization/{main_organization_id}",
            format!("/api/cms/setDurationForMainOrganization/{organisation}"),
            json,
            json!({ "startDate": "2026-01-01", "endDate": "2099-12-31" }).to_string(),
        ),
        (
            "post",
            "/api/cms/organizationsubscription/active/{id}",
            format!("/api/cms/organizationsubscription/active/{duplicate}"),
            json,
            "false".to_owned(),
        ),
        (
            "post",
            "/api/cms/organizationsubscription/valid/{id}",
            format!("/api/cms/organizationsubscription/valid/{duplicate}"),
            json,
            "\"2099-01-31\"".to_owned(),
        ),
        (
            "post",
            "/api/cms/deleteOrganizationSubscription",
            format!("/api/cms/deleteOrganizationSubscription?organizationSubscriptionId={duplicate}"),
            json,
            String::new(),
        ),
        (
            "post",
            "/api/cms/suborganizationUserEmailDelete/{email}",
            "/api/cms/suborganizationUserEmailDelete/wacht@audit.nl".to_owned(),
            json,
            format!("\"{level}\""),
        ),
        (
            "post",
            "/api/cms/suborganizationUserDelete/{user_id}",
            format!("/api/cms/suborganizationUserDelete/{owner}"),
            json,
            format!("\"{level}\""),
        ),
        ("post", "/api/cms/tribe", "/api/cms/tribe".to_owned(), json, String::new()),
        (
            "post",
            "/api/cms/suborganizatioDelete/{main_organization_id}/{sub_organization_id}",
            format!("/api/cms/suborganizatioDelete/{organisation}/{level}"),
            json,
            String::new(),
        ),
        ("post", "/api/cms/organizatioDelete/{organization_id}", format!("/api/cms/organizatioDelete/{organisation}"), json, String::new()),
    ]
}

/// Calls that need the staff role but change nothing.
const STAFF_READS: &[(&str, &str)] = &[
    ("post", "/api/cms"),
    ("get", "/api/cms/auditLog/all"),
    ("get", "/api/cms/medicineShortages"),
    ("get", "/api/cms/users/all"),
    ("get", "/api/cms/his/all"),
    ("get", "/api/cms/his/allEdit"),
    ("get", "/api/cms/getHISUserSubscriptions"),
    ("get", "/api/cms/organizations/all"),
    ("get", "/api/cms/suborganizations/{main_organization_id}"),
    ("get", "/api/cms/suborganizationsWithUsers/{sub_organization_id}"),
    ("get", "/api/cms/organizationsubscriptions/all"),
    ("get", "/api/cms/getAllOrganizationSubscriptionsProblems/email"),
    ("get", "/api/cms/getAllOrganizationSubscriptionsProblems/linked"),
    ("get", "/api/cms/statistics"),
    ("get", "/api/cms/statistics/daily"),
    ("get", "/api/cms/getActiveUsers"),
    ("get", "/api/cms/getAmountConsultsToday"),
    ("get", "/api/cms/getAmountNewUsersToday"),
    ("get", "/api/cms/getAmountOrganizationSubscriptions"),
    ("get", "/api/cms/getAmountOrganizationSubscriptionsActive"),
    ("get", "/api/cms/getAmountTetraConsultsToday"),
    ("get", "/api/cms/getAmountUsers"),
    ("get", "/api/cms/jobs/problems"),
    ("get", "/api/cms/jobs/overview"),
    ("get", "/payment/manage/getAllSubscriptions"),
    ("get", "/payment/manage/getAllSubscriptionProblems"),
    ("get", "/payment/manage/getAllPayments"),
    ("get", "/payment/manage/getAmountPaidSubscriptions"),
    ("get", "/payment/manage/getAmountPaidSubscriptionsActive"),
    ("get", "/payment/manage/getAmountTrialSubscriptions"),
    ("get", "/payment/manage/getAmountTrialSubscriptionsActive"),
];

#[sqlx::test(migrations = "../migrations")]
async fn every_staff_mutation_writes_one_entry_and_others_are_refused(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let staff = app.access_token_for("staff@example.nl").await;
    let user = app.access_token_for("praktijk@example.nl").await;
    let owner: String = sqlx::query_scalar("select id from users where email = 'praktijk@example.nl'").fetch_one(&pool).await.unwrap();
    let subjects = subjects(&pool, &owner).await;
    let payment = subjects.payment;
    let calls = staff_mutations(&subjects);

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
    // the reads of one organisation use one that still exists after the walk
    let organisation: uuid::Uuid =
        sqlx::query_scalar("select id from organisations where name = 'Zorggroep Nieuw'").fetch_one(&pool).await.unwrap();
    let level = uuid::Uuid::new_v4();
    sqlx::query("insert into organisation_levels (id, organisation_id, name) values ($1, $2, 'Praktijk Lezen')")
        .bind(level)
        .bind(organisation)
        .execute(&pool)
        .await
        .unwrap();
    for (method, path) in STAFF_READS {
        let before = entries(&pool).await;
        let concrete =
            path.replace("{main_organization_id}", &organisation.to_string()).replace("{sub_organization_id}", &level.to_string())
                + if *path == "/api/cms/getHISUserSubscriptions" { "?his=7d1c4a1e-0000-4000-8000-000000000002" } else { "" };
        let r = app.http.request(method.to_uppercase().parse().unwrap(), app.url(&concrete)).bearer_auth(&staff).send().await.unwrap();
        assert!(r.status().is_success(), "{method} {path} as staff: {}", r.status());
        assert_eq!(entries(&pool).await, before, "{method} {path} changes nothing and reads nobody's data in particular");
        let r = app.http.request(method.to_uppercase().parse().unwrap(), app.url(&concrete)).bearer_auth(&user).send().await.unwrap();
        assert_eq!(r.status(), 403, "{method} {path} as a user");
        let r = app.http.request(method.to_uppercase().parse().unwrap(), app.url(&concrete)).send().await.unwrap();
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
            (
                "payment.edit".to_owned(),
                "staff@example.nl wijzigde de factuurgegevens van de betaling van praktijk@example.nl (Spreekkamer Praktijk (2 gebruikers, maandelijks), € 78,00)".to_owned()
            ),
        ]
    );
    let concerns: Vec<Option<String>> =
        sqlx::query_scalar("select concerns_user_id from audit_log where subject_type in ('payment', 'subscription')")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert!(concerns.iter().all(|c| c.as_deref() == Some(owner.as_str())));
    let about_user = audit::of_subject(&pool, "user", &owner).await.unwrap();
    assert_eq!(
        about_user,
        vec![
            ("user.set_helper".to_owned(), "staff@example.nl zette de helper-status van praktijk@example.nl aan".to_owned()),
            ("user.set_his".to_owned(), "staff@example.nl zette de HIS van praktijk@example.nl op Medicom (was Geen)".to_owned()),
            ("user.read_subscriptions".to_owned(), "staff@example.nl bekeek de abonnementen van praktijk@example.nl".to_owned()),
            ("user.read_payments".to_owned(), "staff@example.nl bekeek de betalingen van praktijk@example.nl".to_owned()),
            (
                "user.read_organisation_subscriptions".to_owned(),
                "staff@example.nl bekeek de organisatie-abonnementen van praktijk@example.nl".to_owned()
            ),
        ]
    );
    let edited: Value = sqlx::query_scalar("select changes from audit_log where action = 'payment.edit'").fetch_one(&pool).await.unwrap();
    assert_eq!(
        edited,
        json!({ "before": { "phoneNumber": "", "streetAddress": "", "houseNumber": "", "postcode": "", "city": "" },
                "after": { "phoneNumber": "0201234567", "streetAddress": "Lindelaan", "houseNumber": "12", "postcode": "1234AB", "city": "Utrecht" } }),
        "only the changed fields, before and after"
    );
    let retried: String = sqlx::query_scalar("select log from audit_log where action = 'job.retry'").fetch_one(&pool).await.unwrap();
    assert_eq!(
        retried,
        "staff@example.nl liet opnieuw proberen: Factuur voor betaling van praktijk@example.nl (Spreekkamer Praktijk (2 gebruikers, maandelijks), € 78,00)"
    );
    let changes: Value =
        sqlx::query_scalar("select changes from audit_log where action = 'user.set_helper'").fetch_one(&pool).await.unwrap();
    assert_eq!(changes, json!({ "before": { "isHelper": false }, "after": { "isHelper": true } }));
    assert_eq!(audit::verify(&pool).await.unwrap(), Verified::Intact(calls.len() as i64));
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
    let shown = page["rows"].as_array().unwrap();
    assert_eq!(shown.len(), 50);
    assert!(shown[0]["log"].as_str().unwrap().ends_with("(ronde 59)"));
    assert!(shown[0]["timestamp"].is_string() && shown[0]["id"] == 60);
    let second: Value = app.get_with_token("/api/cms/auditLog/all?page=1", &staff).await.json().await.unwrap();
    assert_eq!(second["rows"].as_array().unwrap().len(), 10);
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
