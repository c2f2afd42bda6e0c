//! The staff CMS's tables and changes: Gebruikers (search, HIS filter, paging, 'Zet HIS'),
//! Gebruikers abonnementen (the valid-until rules and messages, active, renew), Betalingen (the
//! bookkeeping cell, the status filter, the invoice details in the spec's order), Statistieken
//! and the failed background work with its retry. Access and the audit entries of each call are
//! in `audit.rs`.

mod common;

use common::TestApp;
use serde_json::{Value, json};
use sqlx::PgPool;
use uuid::Uuid;

async fn post_json(app: &TestApp, path: &str, token: &str, body: Value) -> reqwest::Response {
    app.http.post(app.url(path)).bearer_auth(token).json(&body).send().await.unwrap()
}

async fn user_id(pool: &PgPool, email: &str) -> String {
    sqlx::query_scalar("select id from users where email = $1").bind(email).fetch_one(pool).await.unwrap()
}

/// A subscription of `user` with its first payment in `status`; answers (subscription, payment).
async fn subscription_with_payment(pool: &PgPool, user: &str, status: &str, amount: i32, valid_days: i32) -> (Uuid, Uuid) {
    let subscription = Uuid::new_v4();
    let payment = Uuid::new_v4();
    sqlx::query(
        "insert into subscriptions (id, user_id, tier_id, description, is_active, user_amount, interval_months, price_per_user, amount,
                                    valid_until)
         values ($1, $2, '5b0e1a52-2f1c-4c57-9a6e-000000000003', 'Spreekkamer Praktijk (1 gebruiker, maandelijks)', true, 1, 1, $3, $3,
                 current_date + $4)",
    )
    .bind(subscription)
    .bind(user)
    .bind(amount)
    .bind(valid_days)
    .execute(pool)
    .await
    .unwrap();
    sqlx::query(
        "insert into payments (id, user_id, subscription_id, description, user_amount, amount_cents, status, interval_months,
                               is_first_payment, sequence_type, provider, idempotency_key, paid_at)
         values ($1, $2, $3, 'Spreekkamer Praktijk (1 gebruiker, maandelijks)', 1, $4, $5, 1, true, 'first', 'local', $1::text,
                 case when $5 = 'PAID' then now() end)",
    )
    .bind(payment)
    .bind(user)
    .bind(subscription)
    .bind(amount)
    .bind(status)
    .execute(pool)
    .await
    .unwrap();
    sqlx::query("update subscriptions set first_payment_id = $2 where id = $1")
        .bind(subscription)
        .bind(payment)
        .execute(pool)
        .await
        .unwrap();
    (subscription, payment)
}

#[sqlx::test(migrations = "../migrations")]
async fn gebruikers_search_filters_by_his_and_pages_newest_first(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let staff = app.access_token_for("staff@example.nl").await;
    for i in 0..55 {
        sqlx::query("insert into users (id, email, preferred_username, created_at) values ($1, $2, $1, now() - make_interval(mins => $3))")
            .bind(format!("kc-{i:03}"))
            .bind(format!("arts{i}@praktijk-zuid.nl"))
            .bind(100 - i)
            .execute(&pool)
            .await
            .unwrap();
    }
    let page: Value = app.get_with_token("/api/cms/users/all?search=PRAKTIJK-ZUID", &staff).await.json().await.unwrap();
    assert_eq!((page["total"].as_i64(), page["rows"].as_array().unwrap().len()), (Some(55), 50));
    assert_eq!(page["rows"][0]["userInfo"]["email"], "arts54@praktijk-zuid.nl", "newest account first");
    assert_eq!(page["rows"][0]["userInfo"]["firebaseUid"], "kc-054", "the identity provider's id");
    let second: Value = app.get_with_token("/api/cms/users/all?search=praktijk-zuid&page=1", &staff).await.json().await.unwrap();
    assert_eq!(second["rows"].as_array().unwrap().len(), 5);
    let by_id: Value = app.get_with_token("/api/cms/users/all?search=kc-01", &staff).await.json().await.unwrap();
    assert_eq!(by_id["total"], 10, "a part of the id");

    // 'Zet HIS voor gebruiker', then the exact-name filter; 'Geen' clears it
    let his: Value = app.get_with_token("/api/cms/his/all", &staff).await.json().await.unwrap();
    let medicom = his.as_array().unwrap().iter().find(|h| h["name"] == "Medicom").unwrap()["id"].clone();
    let set = post_json(&app, "/api/cms/setHISforUser/kc-007", &staff, medicom.clone()).await;
    assert_eq!(set.status(), 204);
    let filtered: Value = app.get_with_token("/api/cms/users/all?his=Medicom", &staff).await.json().await.unwrap();
    assert_eq!(filtered["total"], 1);
    assert_eq!(filtered["rows"][0]["his"], json!({ "id": medicom, "name": "Medicom" }));
    let partial: Value = app.get_with_token("/api/cms/users/all?his=Medi", &staff).await.json().await.unwrap();
    assert_eq!(partial["total"], 0, "the HIS filter is an exact name");
    let all: Value = app.get_with_token("/api/cms/users/all?his=ALL&search=praktijk-zuid", &staff).await.json().await.unwrap();
    assert_eq!(all["total"], 55);
    assert_eq!(post_json(&app, "/api/cms/setHISforUser/kc-007", &staff, Value::Null).await.status(), 204);
    let none: Value = app.get_with_token("/api/cms/users/all?his=Medicom", &staff).await.json().await.unwrap();
    assert_eq!(none["total"], 0);
    let unknown = post_json(&app, "/api/cms/setHISforUser/kc-007", &staff, json!(Uuid::new_v4())).await;
    assert_eq!(unknown.status(), 404);
    assert_eq!(post_json(&app, "/api/cms/setHISforUser/nobody", &staff, Value::Null).await.status(), 404);

    // linked sub-organisations and the organisation subscription tick
    let organisation = Uuid::new_v4();
    let level = Uuid::new_v4();
    sqlx::query("insert into organisations (id, name) values ($1, 'Zorggroep Zuid')").bind(organisation).execute(&pool).await.unwrap();
    sqlx::query("insert into organisation_levels (id, organisation_id, name) values ($1, $2, 'Praktijk De Linde')")
        .bind(level)
        .bind(organisation)
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("insert into organisation_members (level_id, user_id) values ($1, 'kc-003')").bind(level).execute(&pool).await.unwrap();
    sqlx::query(
        "insert into organisation_subscriptions (id, description, level_id, valid_until, is_active)
         values (gen_random_uuid(), 'Organisatie abonnement van Praktijk De Linde', $1, current_date + 10, true)",
    )
    .bind(level)
    .execute(&pool)
    .await
    .unwrap();
    let linked: Value = app.get_with_token("/api/cms/users/all?search=kc-003", &staff).await.json().await.unwrap();
    assert_eq!(linked["rows"][0]["linkedSubOrganizations"], json!([{ "id": level, "organizationName": "Praktijk De Linde" }]));
    assert_eq!(linked["rows"][0]["userInfo"]["hasActiveOrganizationSubscription"], true);
    let other: Value = app.get_with_token("/api/cms/users/all?search=kc-004", &staff).await.json().await.unwrap();
    assert_eq!(other["rows"][0]["userInfo"]["hasActiveOrganizationSubscription"], false);
    assert_eq!(other["rows"][0]["linkedSubOrganizations"], json!([]));
    let orgs: Value = app.get_with_token("/api/cms/getOrganizationSubscriptionForCMSUser/kc-003", &staff).await.json().await.unwrap();
    assert_eq!(orgs[0]["description"], "Organisatie abonnement van Praktijk De Linde");
    assert_eq!(app.get_with_token("/api/cms/users/all?page=100001", &staff).await.status(), 400);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_past_valid_until_switches_a_subscription_off_and_dates_are_checked(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let staff = app.access_token_for("staff@example.nl").await;
    app.access_token_unsubscribed("praktijk@example.nl").await;
    let owner = user_id(&pool, "praktijk@example.nl").await;
    let (subscription, payment) = subscription_with_payment(&pool, &owner, "PAID", 3900, 10).await;
    let valid = format!("/payment/manage/subscription/valid/{subscription}");
    let active = format!("/payment/manage/subscription/active/{subscription}");

    for (typed, message) in [
        ("31-12-2026", "Datum format incorrect, gebruik yyyy-mm-dd, bijv. 2024-02-30"),
        ("2026-13-01", "Datum format incorrect, gebruik yyyy-mm-dd, bijv. 2024-02-30"),
        ("", "Datum format incorrect, gebruik yyyy-mm-dd, bijv. 2024-02-30"),
        ("2026-02-30", "Subscription kon niet worden geupdate. Ongeldige datum."),
    ] {
        let r = post_json(&app, &valid, &staff, json!(typed)).await;
        assert_eq!(r.status(), 400, "{typed}");
        assert_eq!(r.json::<Value>().await.unwrap()["message"], message, "{typed}");
    }
    let later: Value = post_json(&app, &valid, &staff, json!("2099-12-31")).await.json().await.unwrap();
    assert_eq!((later["validUntil"].as_str(), later["isActive"].as_bool()), (Some("2099-12-31"), Some(true)));
    let past: Value = post_json(&app, &valid, &staff, json!("2020-01-01")).await.json().await.unwrap();
    assert_eq!(past["isActive"], false, "a past valid-until switches it off");
    let stored: bool =
        sqlx::query_scalar("select is_active from subscriptions where id = $1").bind(subscription).fetch_one(&pool).await.unwrap();
    assert!(!stored);
    let on: Value = post_json(&app, &active, &staff, json!(true)).await.json().await.unwrap();
    assert_eq!(on["isActive"], false, "it cannot be switched on while its valid-until lies in the past");
    post_json(&app, &valid, &staff, json!("2099-12-31")).await;
    let on: Value = post_json(&app, &active, &staff, json!(true)).await.json().await.unwrap();
    assert_eq!(on["isActive"], true);
    let off: Value = post_json(&app, &active, &staff, json!(false)).await.json().await.unwrap();
    assert_eq!(off["isActive"], false);
    assert_eq!(post_json(&app, &active, &staff, json!("ja")).await.status(), 422, "the body is true or false");
    let missing = post_json(&app, &format!("/payment/manage/subscription/active/{}", Uuid::new_v4()), &staff, json!(true)).await;
    assert_eq!(missing.status(), 404);

    // renew: a date is needed; only a subscription with a renew-without-discount date renews
    let renew = |start: &str| json!({ "startDate": start, "firstPaymentId": payment });
    let r = post_json(&app, "/payment/manage/renewSubscription", &staff, renew(" ")).await;
    assert_eq!((r.status().as_u16(), r.json::<Value>().await.unwrap()["message"].clone()), (400, json!("Geen datum ingevuld")));
    let r = post_json(&app, "/payment/manage/renewSubscription", &staff, renew("2099-01-01")).await;
    assert_eq!(r.status(), 409, "no renew-without-discount date");
    let list: Value =
        app.get_with_token("/payment/manage/getAllSubscriptions?search=praktijk@example.nl", &staff).await.json().await.unwrap();
    assert_eq!(list["rows"][0]["canRenew"], false);
    post_json(&app, &active, &staff, json!(true)).await;
    sqlx::query("update subscriptions set renew_without_discount_date = current_date + 5 where id = $1")
        .bind(subscription)
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("insert into linked_subscriptions (id, subscription_id, email) values (gen_random_uuid(), $1, 'collega@praktijk.nl')")
        .bind(subscription)
        .execute(&pool)
        .await
        .unwrap();
    let r = post_json(&app, "/payment/manage/renewSubscription", &staff, renew("2099-01-01")).await;
    assert_eq!(r.status(), 201);
    let new: Value = r.json().await.unwrap();
    assert_ne!(new["id"], json!(subscription));
    assert_eq!(
        (new["nextPaymentDate"].as_str(), new["validUntil"].as_str(), new["isActive"].as_bool()),
        (Some("2099-01-01"), Some("2098-12-31"), Some(true)),
        "valid until its first payment is due"
    );
    let again = post_json(&app, "/payment/manage/renewSubscription", &staff, renew("2099-02-01")).await;
    assert_eq!(again.status(), 409, "the renewed one (not the cancelled old one) is found, and it has no discount to end");
    let (price, discount): (i32, Option<Uuid>) =
        sqlx::query_as("select price_per_user, discount_id from subscriptions where id = $1::text::uuid")
            .bind(new["id"].as_str().unwrap())
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!((price, discount), (3900, None), "the tier's full monthly price, no discount");
    let seats: i64 = sqlx::query_scalar("select count(*) from linked_subscriptions where subscription_id = $1::text::uuid")
        .bind(new["id"].as_str().unwrap())
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(seats, 1, "the linked users move along");
    let old: (Option<chrono::DateTime<chrono::Utc>>, Option<chrono::NaiveDate>) =
        sqlx::query_as("select canceled_at, next_payment_date from subscriptions where id = $1")
            .bind(subscription)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert!(old.0.is_some() && old.1.is_none(), "the old one is cancelled");

    // the toggles
    let trial = app.access_token_for("proef@example.nl").await;
    drop(trial);
    sqlx::query("update subscriptions set is_trial = true where user_id = (select id from users where email = 'proef@example.nl')")
        .execute(&pool)
        .await
        .unwrap();
    let all: Value = app.get_with_token("/payment/manage/getAllSubscriptions?search=example.nl", &staff).await.json().await.unwrap();
    let paid: Value =
        app.get_with_token("/payment/manage/getAllSubscriptions?search=example.nl&paidOnly=true", &staff).await.json().await.unwrap();
    assert_eq!(all["total"].as_i64().unwrap() - paid["total"].as_i64().unwrap(), 1, "the trial drops out");
    let active_only: Value = app
        .get_with_token("/payment/manage/getAllSubscriptions?search=praktijk@example.nl&activeOnly=true", &staff)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(active_only["total"], 2, "the old one is paid for until the day before the renewed one starts");
    let old_end: Option<chrono::NaiveDate> =
        sqlx::query_scalar("select valid_until from subscriptions where id = $1").bind(subscription).fetch_one(&pool).await.unwrap();
    assert_eq!(old_end, chrono::NaiveDate::from_ymd_opt(2098, 12, 31));

    // cancelling twice keeps the first date
    let first: Value = post_json(&app, &format!("/payment/manage/cancelSubscription/{}", new["id"].as_str().unwrap()), &staff, Value::Null)
        .await
        .json()
        .await
        .unwrap();
    let again: Value = post_json(&app, &format!("/payment/manage/cancelSubscription/{}", new["id"].as_str().unwrap()), &staff, Value::Null)
        .await
        .json()
        .await
        .unwrap();
    assert!(first["canceledAt"].is_string());
    assert_eq!(first["canceledAt"], again["canceledAt"]);
}

#[sqlx::test(migrations = "../migrations")]
async fn betalingen_shows_the_bookkeeping_cell_filters_by_status_and_checks_invoice_details(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let staff = app.access_token_for("staff@example.nl").await;
    app.access_token_unsubscribed("praktijk@example.nl").await;
    let owner = user_id(&pool, "praktijk@example.nl").await;
    let (_, paid) = subscription_with_payment(&pool, &owner, "PAID", 3900, 10).await;
    let (_, open) = subscription_with_payment(&pool, &owner, "OPEN", 3900, 10).await;
    let (_, free) = subscription_with_payment(&pool, &owner, "PAID", 0, 10).await;
    let page: Value = app.get_with_token("/payment/manage/getAllPayments?search=praktijk@example.nl", &staff).await.json().await.unwrap();
    let cell = |page: &Value, id: Uuid| {
        page["rows"].as_array().unwrap().iter().find(|p| p["id"] == json!(id)).map(|p| p["bookkeeping"].clone()).unwrap()
    };
    assert_eq!(page["total"], 3);
    assert_eq!(cell(&page, paid), "MAKE_CONTACT");
    assert_eq!(cell(&page, open), "NONE");
    assert_eq!(cell(&page, free), "NOT_NEEDED");
    sqlx::query("insert into bookkeeping_contacts (user_id, provider, contact_id) values ($1, 'local', 'c-1')")
        .bind(&owner)
        .execute(&pool)
        .await
        .unwrap();
    let page: Value = app.get_with_token("/payment/manage/getAllPayments?search=praktijk@example.nl", &staff).await.json().await.unwrap();
    assert_eq!(cell(&page, paid), "MAKE_INVOICE");
    sqlx::query(
        "insert into invoices (id, payment_id, kind, provider, reference, provider_invoice_id, number, amount_cents, issued_on)
         values (gen_random_uuid(), $1, 'invoice', 'local', 'SPK-x', 'x', '2026-00001', 3900, current_date)",
    )
    .bind(paid)
    .execute(&pool)
    .await
    .unwrap();
    let page: Value = app.get_with_token("/payment/manage/getAllPayments?search=praktijk@example.nl", &staff).await.json().await.unwrap();
    assert_eq!(cell(&page, paid), "DONE");
    let row = page["rows"].as_array().unwrap().iter().find(|p| p["id"] == json!(paid)).unwrap().clone();
    assert_eq!((row["invoiceNumber"].as_str(), row["contactId"].as_str()), (Some("2026-00001"), Some("c-1")));

    let only_open: Value =
        app.get_with_token("/payment/manage/getAllPayments?status=OPEN&search=praktijk@example.nl", &staff).await.json().await.unwrap();
    assert_eq!(only_open["total"], 1);
    assert_eq!(only_open["rows"][0]["id"], json!(open));
    let all: Value =
        app.get_with_token("/payment/manage/getAllPayments?status=ALL&search=praktijk@example.nl", &staff).await.json().await.unwrap();
    assert_eq!(all["total"], 3);
    assert_eq!(app.get_with_token("/payment/manage/getAllPayments?status=BETAALD", &staff).await.status(), 400);

    // the invoice details, first failure in the spec's order
    let mut details = json!({ "id": paid, "contactName": "", "phoneNumber": "", "streetAddress": "", "houseNumber": "", "postcode": "",
                              "city": "", "practiceName": "", "kvkNumber": "" });
    for (field, value, message) in [
        ("contactName", "Anne de Vries", "Geen naam ingevuld"),
        ("phoneNumber", "0201234567", "Geen telefoonnummer ingevuld"),
        ("streetAddress", "Lindelaan", "Geen straatnaaam ingevuld"),
        ("houseNumber", "12", "Geen huisnummer ingevuld"),
        ("postcode", "123", "Geen postcode ingevuld"),
        ("postcode", "1234ab", "Ongeldige postcode. Vul postcode in volgens bijv. '1234AB'"),
        ("city", "Utrecht", "Geen plaatsnaam ingevuld"),
    ] {
        let r = post_json(&app, "/payment/manage/editPayment", &staff, details.clone()).await;
        assert_eq!(r.status(), 400, "{field}");
        assert_eq!(r.json::<Value>().await.unwrap()["message"], message, "{field}");
        details[field] = json!(value);
        if field == "postcode" && value == "123" {
            details[field] = json!("123");
        }
    }
    let saved: Value = post_json(&app, "/payment/manage/editPayment", &staff, details.clone()).await.json().await.unwrap();
    assert_eq!(
        (saved["postcode"].as_str(), saved["city"].as_str(), saved["kvkNumber"].as_str()),
        (Some("1234AB"), Some("Utrecht"), Some(""))
    );
    details["id"] = json!(Uuid::new_v4());
    assert_eq!(post_json(&app, "/payment/manage/editPayment", &staff, details).await.status(), 404);

    // the info modal's payments of one user
    let of_user: Value = app.get_with_token(&format!("/payment/manage/getPaymentsForCMSUser/{owner}"), &staff).await.json().await.unwrap();
    assert_eq!(of_user.as_array().unwrap().len(), 3);
    let subs: Value = app.get_with_token(&format!("/payment/manage/getSubscriptionForCMSUser/{owner}"), &staff).await.json().await.unwrap();
    assert_eq!(subs.as_array().unwrap().len(), 3);
    assert_eq!(app.get_with_token("/payment/manage/getPaymentsForCMSUser/nobody", &staff).await.status(), 404);
}

#[sqlx::test(migrations = "../migrations")]
async fn statistics_count_each_tile_and_ninety_days(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let staff = app.access_token_for("staff@example.nl").await;
    let before: Value = app.get_with_token("/api/cms/statistics", &staff).await.json().await.unwrap();
    app.access_token_for("statistiek@praktijk.nl").await;
    let owner = user_id(&pool, "statistiek@praktijk.nl").await;
    sqlx::query(
        "insert into consults (id, user_id, source, expires_at) values ('c1', $1, 'app', now() + interval '1 day'),
                 ('c2', $1, 'record_system', now() + interval '1 day')",
    )
    .bind(&owner)
    .execute(&pool)
    .await
    .unwrap();
    let after: Value = app.get_with_token("/api/cms/statistics", &staff).await.json().await.unwrap();
    let grew = |field: &str| after[field].as_i64().unwrap() - before[field].as_i64().unwrap();
    assert_eq!(grew("users"), 1);
    assert_eq!(grew("newUsersToday"), 1);
    assert_eq!(grew("paidSubscriptions"), 1, "the test user's month of Individueel");
    assert_eq!(grew("paidSubscriptionsActive"), 1);
    assert_eq!(grew("consultsToday"), 2);
    assert_eq!(grew("recordSystemConsultsToday"), 1);
    assert!(after["activeUsers"].as_i64().unwrap() >= 2, "staff and the new user called just now");
    let counter: Value = app.get_with_token("/api/cms/getAmountUsers", &staff).await.json().await.unwrap();
    assert_eq!(counter, after["users"]);
    let counter: Value = app.get_with_token("/payment/manage/getAmountPaidSubscriptionsActive", &staff).await.json().await.unwrap();
    assert_eq!(counter, after["paidSubscriptionsActive"]);

    // consults are counted when made, so purging them keeps the chart
    sqlx::query("delete from consults").execute(&pool).await.unwrap();
    let daily: Value = app.get_with_token("/api/cms/statistics/daily", &staff).await.json().await.unwrap();
    let days = daily["days"].as_array().unwrap();
    assert_eq!(days.len(), 90);
    let today = days.last().unwrap();
    assert_eq!(today["day"], json!(domain::billing::today()));
    assert_eq!(today["consults"], 2);
    assert!(today["newUsers"].as_i64().unwrap() >= 1);
    assert!(days[0]["day"].as_str() < today["day"].as_str());
}

#[sqlx::test(migrations = "../migrations")]
async fn failed_work_is_told_in_words_and_a_retry_queues_it_again(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let staff = app.access_token_for("staff@example.nl").await;
    app.access_token_unsubscribed("praktijk@example.nl").await;
    let owner = user_id(&pool, "praktijk@example.nl").await;
    let (_, payment) = subscription_with_payment(&pool, &owner, "PAID", 12100, 10).await;
    let job: Uuid = sqlx::query_scalar(
        "insert into jobs (id, kind, state, payload, attempts, max_attempts, last_error, finished_at, dispatched_at)
         values (gen_random_uuid(), 'create_invoice', 'dead', jsonb_build_object('paymentId', $1::text), 5, 5, 'Moneybird: 503', now(), now())
         returning id",
    )
    .bind(payment)
    .fetch_one(&pool)
    .await
    .unwrap();
    sqlx::query(
        "insert into jobs (id, kind, state, payload, max_attempts, result, finished_at)
         values (gen_random_uuid(), 'expire_subscriptions', 'succeeded', '{}', 3, '{\"subscriptions\": 3, \"organisationSubscriptions\": 0}', now())",
    )
    .execute(&pool)
    .await
    .unwrap();
    let problems: Value = app.get_with_token("/api/cms/jobs/problems", &staff).await.json().await.unwrap();
    let row = problems["rows"].as_array().unwrap().iter().find(|r| r["id"] == json!(job)).unwrap().clone();
    assert_eq!(
        row["description"],
        "Factuur voor betaling van praktijk@example.nl (Spreekkamer Praktijk (1 gebruiker, maandelijks), € 121,00)"
    );
    assert_eq!(
        (row["state"].as_str(), row["lastError"].as_str(), row["retryable"].as_bool()),
        (Some("dead"), Some("Moneybird: 503"), Some(true))
    );

    // the Betalingen row shows the job that went wrong
    let payments: Value =
        app.get_with_token("/payment/manage/getAllPayments?search=praktijk@example.nl", &staff).await.json().await.unwrap();
    assert_eq!(payments["rows"][0]["job"], json!({ "id": job, "kind": "create_invoice", "state": "dead" }));

    let retried = app.http.post(app.url(&format!("/api/cms/jobs/{job}/retry"))).bearer_auth(&staff).send().await.unwrap();
    assert_eq!(retried.status(), 202);
    let (state, attempts): (String, i32) =
        sqlx::query_as("select state, attempts from jobs where id = $1").bind(job).fetch_one(&pool).await.unwrap();
    assert_eq!((state.as_str(), attempts), ("queued", 0));
    let again = app.http.post(app.url(&format!("/api/cms/jobs/{job}/retry"))).bearer_auth(&staff).send().await.unwrap();
    assert_eq!(again.status(), 404, "no longer a problem");
    let overview: Value = app.get_with_token("/api/cms/jobs/overview", &staff).await.json().await.unwrap();
    // the seeded practitioner's payment has its invoice job waiting too
    let waiting: i64 =
        sqlx::query_scalar("select count(*) from jobs where kind = 'create_invoice' and state = 'queued'").fetch_one(&pool).await.unwrap();
    let queue = overview["queues"].as_array().unwrap().iter().find(|q| q["kind"] == "create_invoice").unwrap().clone();
    assert_eq!((queue["queued"].as_i64(), queue["label"].as_str()), (Some(waiting), Some("Factuur maken")));
    assert!(queue["oldestWaitingSince"].is_string());
    let sweep = overview["sweeps"].as_array().unwrap().iter().find(|s| s["name"] == "expire_subscriptions").unwrap().clone();
    assert_eq!(sweep["summary"], "3 abonnementen en 0 organisatie-abonnementen verlopen");
    assert_eq!(sweep["state"], "succeeded");
    let never = overview["sweeps"].as_array().unwrap().iter().find(|s| s["name"] == "check_unpaid").unwrap().clone();
    assert_eq!((never["lastRunAt"].clone(), never["summary"].clone()), (Value::Null, Value::Null));
}

#[sqlx::test(migrations = "../migrations")]
async fn the_his_list_adds_refuses_a_linked_delete_and_shows_users_with_their_access(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let staff = app.access_token_for("staff@example.nl").await;
    let added = post_json(&app, "/api/cms/HIS", &staff, json!({ "name": "  Omnihis  " })).await;
    assert_eq!(added.status(), 201);
    let his: Value = added.json().await.unwrap();
    assert_eq!(his["name"], "Omnihis");
    let twice = post_json(&app, "/api/cms/HIS", &staff, json!({ "name": "OMNIHIS" })).await;
    assert_eq!(twice.status(), 409);
    let empty = post_json(&app, "/api/cms/HIS", &staff, json!({ "name": "  " })).await;
    assert_eq!(empty.status(), 400);

    // four users on it: a paid one, a trial, an expired one and one who never had a subscription
    for (email, kind) in [("betaald@his.nl", "paid"), ("proef@his.nl", "trial"), ("verlopen@his.nl", "expired"), ("niets@his.nl", "none")] {
        let id = format!("kc-{kind}");
        sqlx::query("insert into users (id, email, preferred_username, his_id) values ($1, $2, $1, $3::text::uuid)")
            .bind(&id)
            .bind(email)
            .bind(his["id"].as_str().unwrap())
            .execute(&pool)
            .await
            .unwrap();
        let valid = match kind {
            "paid" | "trial" => Some(30),
            "expired" => Some(-3),
            _ => None,
        };
        if let Some(days) = valid {
            sqlx::query(
                "insert into subscriptions (id, user_id, tier_id, description, is_active, is_trial, user_amount, interval_months,
                                            price_per_user, amount, valid_until)
                 values (gen_random_uuid(), $1, '5b0e1a52-2f1c-4c57-9a6e-000000000002', 'x', $2, $3, 1, 1, 4900, 4900, current_date + $4)",
            )
            .bind(&id)
            .bind(days > 0)
            .bind(kind == "trial")
            .bind(days)
            .execute(&pool)
            .await
            .unwrap();
        }
    }
    let users: Value = app
        .get_with_token(&format!("/api/cms/getHISUserSubscriptions?his={}", his["id"].as_str().unwrap()), &staff)
        .await
        .json()
        .await
        .unwrap();
    let shown: Vec<(String, String)> = users["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["userInfo"]["email"].as_str().unwrap().to_owned(),
                r["userSubscriptionInformation"]["subscriptionType"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        shown,
        [("niets@his.nl", "NONE"), ("verlopen@his.nl", "EXPIRED"), ("betaald@his.nl", "PAID"), ("proef@his.nl", "TRIAL")]
            .map(|(e, t)| (e.to_owned(), t.to_owned())),
        "EXPIRED and NONE first"
    );
    assert!(users["rows"][1]["userSubscriptionInformation"]["endDate"].is_string());
    assert_eq!(users["rows"][0]["userSubscriptionInformation"]["endDate"], Value::Null);

    let unknown = app.get_with_token(&format!("/api/cms/getHISUserSubscriptions?his={}", Uuid::new_v4()), &staff).await;
    assert_eq!(unknown.status(), 404);
    let edit: Value = app.get_with_token("/api/cms/his/allEdit", &staff).await.json().await.unwrap();
    let row = edit.as_array().unwrap().iter().find(|h| h["name"] == "Omnihis").unwrap().clone();
    assert_eq!(row["users"], 4);
    let refused =
        app.http.delete(app.url(&format!("/api/cms/his/{}", his["id"].as_str().unwrap()))).bearer_auth(&staff).send().await.unwrap();
    assert_eq!(refused.status(), 409);
    assert_eq!(refused.json::<Value>().await.unwrap()["message"], "Kon HIS niet verwijderen, er zijn gebruikers gelinkt aan deze HIS");
    sqlx::query("update users set his_id = null where email like '%@his.nl'").execute(&pool).await.unwrap();
    let deleted =
        app.http.delete(app.url(&format!("/api/cms/his/{}", his["id"].as_str().unwrap()))).bearer_auth(&staff).send().await.unwrap();
    assert_eq!(deleted.status(), 204);
    let gone = app.http.delete(app.url(&format!("/api/cms/his/{}", his["id"].as_str().unwrap()))).bearer_auth(&staff).send().await.unwrap();
    assert_eq!(gone.status(), 404);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_right_to_left_override_in_a_his_or_organisation_name_is_refused_in_dutch(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let staff = app.access_token_for("staff@example.nl").await;
    let calls = [
        ("/api/cms/HIS", json!({ "name": "Omni\u{202e}sih" })),
        ("/api/cms/organization", json!({ "organizationName": "Zorggroep \u{202e}tsooW", "agbCode": "3333", "type": "CARE_GROUP" })),
        ("/api/cms/organization", json!({ "organizationName": "Zorggroep West", "agbCode": "33\u{200b}33", "type": "CARE_GROUP" })),
    ];
    for (path, body) in calls {
        let response = post_json(&app, path, &staff, body.clone()).await;
        assert_eq!(response.status(), 400, "{body}");
        let refused: Value = response.json().await.unwrap();
        assert_eq!(refused["message"], domain::text::HIDDEN_CHARACTERS, "{body}");
    }
    let stored: i64 = sqlx::query_scalar(
        "select (select count(*) from his where name like 'Omni%') + (select count(*) from organisations where name like 'Zorggroep%')",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(stored, 0);
    let audited: i64 = sqlx::query_scalar("select count(*) from audit_log").fetch_one(&pool).await.unwrap();
    assert_eq!(audited, 0);
}
