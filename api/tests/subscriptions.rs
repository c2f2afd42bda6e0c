//! Subscriptions and payments over HTTP: the calls of §7.1, the local checkout end to end with a
//! worker, and Mollie through a test double that speaks its wire format (HAL JSON, string
//! amounts, problem bodies, the webhook's `id` form body).

mod common;

use std::time::Duration;

use common::mollie::{mollie_double, mollie_status};
use common::{Options, TestApp};
use serde_json::{Value, json};
use sqlx::PgPool;

const TRIAL: &str = "5b0e1a52-2f1c-4c57-9a6e-000000000001";
const INDIVIDUAL: &str = "5b0e1a52-2f1c-4c57-9a6e-000000000002";
const PRACTICE: &str = "5b0e1a52-2f1c-4c57-9a6e-000000000003";

fn billing(tier: &str, users: i32, months: i32) -> Value {
    json!({
        "contactName": "Anne de Vries",
        "practiceName": "Huisartsenpraktijk De Linde",
        "sendInvoiceToEmail": "factuur@delinde.nl",
        "phoneNumber": "0201234567",
        "streetAddress": "Lindelaan",
        "houseNumber": "12",
        "houseNumberAddition": "",
        "postcode": "1234 ab",
        "city": "Amsterdam",
        "subscriptionType": if months == 12 { "ANUALLY" } else { "MONTHLY" },
        "userAmount": users,
        "pricePerUser": 1.0,
        "tierId": tier,
        "isIndividual": false,
        "description": "wat de pagina toont",
        "intervalMonths": months,
        "discountId": null,
    })
}

async fn post_json(app: &TestApp, path: &str, token: &str, body: &Value) -> (u16, Value) {
    let response = app.http.post(app.url(path)).bearer_auth(token).json(body).send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// The owner (or someone else) removes the seat `seat`.
async fn delete_seat(app: &TestApp, token: &str, seat: impl std::fmt::Display) -> reqwest::Response {
    app.http
        .post(app.url(&format!("/payment/subscription/deleteUser?linkedSubscriptionId={seat}")))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
}

async fn get_json(app: &TestApp, path: &str, token: &str) -> (u16, Value) {
    let response = app.get_with_token(path, token).await;
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Waits (bounded) until every `sync_payment` job has finished.
async fn sync_jobs_done(pool: &PgPool) {
    for _ in 0..1500 {
        let open: i64 =
            sqlx::query_scalar("select count(*) from jobs where kind = 'sync_payment' and state in ('queued', 'running', 'retrying')")
                .fetch_one(pool)
                .await
                .unwrap();
        let any: i64 = sqlx::query_scalar("select count(*) from jobs where kind = 'sync_payment'").fetch_one(pool).await.unwrap();
        if open == 0 && any > 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("sync_payment jobs did not finish");
}

/// (method, path) of every signed-in call here.
const SIGNED_IN: &[(&str, &str)] = &[
    ("GET", "/payment/subscription/getTiers"),
    ("POST", "/payment/subscription/applyDiscountCode"),
    ("POST", "/payment/subscription/cancelSubscription/00000000-0000-0000-0000-000000000000"),
    ("POST", "/payment/subscription/createTrialSubscription"),
    ("POST", "/payment/subscription/addUser?emailAddress=a@b.nl&subscriptionId=00000000-0000-0000-0000-000000000000"),
    ("POST", "/payment/subscription/deleteUser?linkedSubscriptionId=00000000-0000-0000-0000-000000000000"),
    ("POST", "/payment/subscription/getInvoiceDownload"),
    ("GET", "/payment/subscription/getLinkedSubscriptionForUser"),
    ("GET", "/payment/subscription/getPaymentsForUser"),
    ("GET", "/payment/subscription/getSubscriptionForUser"),
    ("GET", "/payment/subscription/hasUserActiveSubscription"),
    ("GET", "/payment/subscription/isUserEarlyAdopter"),
    ("GET", "/payment/subscription/getSubscriptionForOrganization?organizationId=00000000-0000-0000-0000-000000000000"),
    ("POST", "/payment/paymentinfo/getPaymentLink"),
    ("POST", "/payment/subscription/cancelPayment/00000000-0000-0000-0000-000000000000"),
    ("GET", "/api/user/getOrganizationSubscriptionForUser"),
    ("GET", "/api/user/hasUserActiveOrganizationSubscription"),
];

#[sqlx::test(migrations = "../migrations")]
async fn every_call_needs_a_sign_in_and_the_agreement(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let unaccepted = app.tokens_for(TestApp::UNACCEPTED).await["access_token"].as_str().unwrap().to_owned();
    for (method, path) in SIGNED_IN {
        let request = app.http.request(method.parse().unwrap(), app.url(path));
        let request = if *method == "POST" { request.json(&json!("x")) } else { request };
        assert_eq!(request.send().await.unwrap().status(), 401, "{method} {path} without a token");
        let request = app.http.request(method.parse().unwrap(), app.url(path)).bearer_auth(&unaccepted);
        let request = if *method == "POST" { request.json(&json!("x")) } else { request };
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 403, "{method} {path} before the agreement");
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn tiers_discounts_and_the_billing_messages_in_order(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let token = app.access_token_unsubscribed("praktijkhouder@example.nl").await;
    let (status, tiers) = get_json(&app, "/payment/subscription/getTiers", &token).await;
    assert_eq!(status, 200);
    let tiers = tiers.as_array().unwrap();
    assert_eq!(tiers.len(), 3);
    assert_eq!(tiers[0]["name"], "Gratis");
    assert_eq!(tiers[0]["isTrial"], true);
    assert_eq!(tiers.iter().filter(|t| t["mostPopular"] == true).count(), 1);
    assert_eq!(tiers[1]["pricePerUserMonth"], 4900);
    assert_eq!(tiers[1]["priceExclVatPerUserMonth"], 4050);
    assert_eq!(tiers[2]["pricePerUserYear"], 44460);

    // the billing dialog's messages, in the spec's order
    let mut body = billing(PRACTICE, 3, 12);
    let steps = [
        ("contactName", "Geen naam ingevuld", json!("Anne")),
        ("phoneNumber", "Geen telefoonnummer ingevuld", json!("0612345678")),
        ("streetAddress", "Geen straatnaaam ingevuld", json!("Lindelaan")),
        ("houseNumber", "Geen huisnummer ingevuld", json!("12")),
        ("postcode", "Geen postcode ingevuld", json!("12345")),
        ("postcode", "Ongeldige postcode. Vul postcode in volgens bijv. '1234AB'", json!("1234AB")),
        ("city", "Geen plaatsnaam ingevuld", json!("Utrecht")),
        ("sendInvoiceToEmail", "Geen email ingevuld", json!("f@delinde.nl")),
    ];
    for field in ["contactName", "phoneNumber", "streetAddress", "houseNumber", "postcode", "city", "sendInvoiceToEmail"] {
        body[field] = json!("");
    }
    for (field, message, fix) in steps {
        let (status, answer) = post_json(&app, "/payment/paymentinfo/getPaymentLink", &token, &body).await;
        assert_eq!(status, 400, "{message}");
        assert_eq!(answer["message"], message);
        body[field] = fix;
    }
    let payments: i64 = sqlx::query_scalar("select count(*) from payments p join users u on u.id = p.user_id where u.email = $1")
        .bind("praktijkhouder@example.nl")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(payments, 0, "nothing written for refused details");

    // discount codes: null when unknown, only for the monthly individual tier
    let tier_id: uuid::Uuid = INDIVIDUAL.parse().unwrap();
    let code = domain::billing::catalogue::add_discount(&pool, tier_id, "WELKOM25", "Welkomstkorting", 2500).await.unwrap();
    let (status, found) = post_json(&app, "/payment/subscription/applyDiscountCode", &token, &json!("welkom25")).await;
    assert_eq!(status, 200);
    assert_eq!(found["discountPrice"], 2500);
    assert_eq!(found["id"], code.to_string());
    let (status, none) = post_json(&app, "/payment/subscription/applyDiscountCode", &token, &json!("onbekend")).await;
    assert_eq!((status, none), (200, Value::Null));
    let mut yearly = billing(INDIVIDUAL, 1, 12);
    yearly["discountId"] = json!(code);
    let (status, answer) = post_json(&app, "/payment/paymentinfo/getPaymentLink", &token, &yearly).await;
    assert_eq!((status, answer["message"].as_str()), (400, Some("Kortingscode onjuist")));
}

#[sqlx::test(migrations = "../migrations")]
async fn the_local_checkout_pays_and_the_worker_activates(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let worker = app.start_worker(&[]);
    let token = app.access_token_unsubscribed("praktijkhouder@example.nl").await;
    let (status, active) = get_json(&app, "/payment/subscription/hasUserActiveSubscription", &token).await;
    assert_eq!((status, active), (200, json!(false)));

    let (status, link) = post_json(&app, "/payment/paymentinfo/getPaymentLink", &token, &billing(PRACTICE, 3, 12)).await;
    assert_eq!(status, 200, "{link}");
    let href = link["href"].as_str().unwrap().to_owned();
    assert!(href.starts_with(&app.url("/payment/checkout/ltr_")), "{href}");
    let page = app.http.get(&href).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let csp = page.headers()["content-security-policy"].to_str().unwrap().to_owned();
    assert!(csp.contains("form-action 'self'") && csp.contains("script-src 'self'"), "{csp}");
    let html = page.text().await.unwrap();
    assert!(html.contains("1333,80"), "{html}");
    assert!(html.contains("Spreekkamer Praktijk (3 gebruikers, jaarlijks)"));
    assert!(!html.contains("<script") && !html.contains("style="));
    for outcome in ["paid", "failed", "expired", "canceled"] {
        assert!(html.contains(&format!("value=\"{outcome}\"")), "{outcome}");
    }

    // the page is its buyer's: the payment's id alone, or a wrong key, finds nothing
    let bare = href.split_once('?').unwrap().0.to_owned();
    let wrong = format!("{bare}?key=00000000000000000000000000000000");
    for address in [&bare, &wrong] {
        assert_eq!(app.http.get(address).send().await.unwrap().status(), 404, "{address}");
        let refused = app.http.post(address).form(&[("outcome", "paid")]).send().await.unwrap();
        assert_eq!(refused.status(), 404, "{address}");
        assert_eq!(refused.json::<Value>().await.unwrap()["message"], "Betaling niet gevonden");
    }
    let chosen = app.http.post(&href).form(&[("outcome", "paid")]).send().await.unwrap();
    assert_eq!(chosen.status(), 303);
    assert_eq!(chosen.headers()["location"], app.url("/subscription").as_str());
    sync_jobs_done(&pool).await;

    let (_, active) = get_json(&app, "/payment/subscription/hasUserActiveSubscription", &token).await;
    assert_eq!(active, json!(true));
    let (_, payments) = get_json(&app, "/payment/subscription/getPaymentsForUser", &token).await;
    assert_eq!(payments[0]["paymentStatus"], "PAID");
    assert_eq!(payments[0]["amount"], 133380);
    assert_eq!(payments[0]["postcode"], "1234AB");
    let (_, subs) = get_json(&app, "/payment/subscription/getSubscriptionForUser", &token).await;
    assert_eq!(subs[0]["isActive"], true);
    assert_eq!(subs[0]["userAmount"], 3);
    assert_eq!(subs[0]["canLinkUsers"], true);
    let sub_id = subs[0]["id"].as_str().unwrap().to_owned();

    // a second choice on the page changes nothing
    let again = app.http.post(&href).form(&[("outcome", "failed")]).send().await.unwrap();
    assert_eq!(again.status(), 303);
    let status: String =
        sqlx::query_scalar("select status from payments where idempotency_key not like 'seed:%'").fetch_one(&pool).await.unwrap();
    assert_eq!(status, "PAID");

    // linked users: added lower-cased, the fair-use warning past the purchased users, removed
    let add = |email: &str| {
        app.http
            .post(app.url(&format!("/payment/subscription/addUser?emailAddress={email}&subscriptionId={sub_id}&invite=true")))
            .bearer_auth(&token)
            .send()
    };
    let empty: Value = add("").await.unwrap().json().await.unwrap();
    assert_eq!(empty["message"], "Geen e-mail adres ingevuld");
    let mut last = Value::Null;
    for email in ["Collega@Example.nl", "b@praktijk.nl", "c@praktijk.nl", "d@praktijk.nl"] {
        let response = add(email).await.unwrap();
        assert_eq!(response.status(), 201);
        last = response.json().await.unwrap();
    }
    assert_eq!(last["warning"], domain::billing::FAIR_USE);
    // none of the four addresses has an account yet: each gets an invitation e-mail
    let invitations: i64 =
        sqlx::query_scalar("select count(*) from jobs where kind = 'email' and payload->>'template' = 'seat_invitation'")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(invitations, 4);
    let poh = app.access_token_unsubscribed("collega@example.nl").await;
    let (_, linked) = get_json(&app, "/payment/subscription/getLinkedSubscriptionForUser", &poh).await;
    assert_eq!(linked.as_array().unwrap().len(), 1);
    let (_, poh_active) = get_json(&app, "/payment/subscription/hasUserActiveSubscription", &poh).await;
    assert_eq!(poh_active, json!(true));

    // someone else can neither remove a seat, cancel, nor see the invoice
    let seat = last["id"].as_str().unwrap();
    let removed = delete_seat(&app, &poh, seat).await;
    assert_eq!(removed.status(), 404);
    assert_eq!(removed.json::<Value>().await.unwrap()["message"], "Gebruiker kan niet worden verwijderd");
    let cancel =
        app.http.post(app.url(&format!("/payment/subscription/cancelSubscription/{sub_id}"))).bearer_auth(&poh).send().await.unwrap();
    assert_eq!(cancel.status(), 404);
    let payment_id = payments[0]["id"].as_str().unwrap();
    let (status, _) = post_json(&app, "/payment/subscription/getInvoiceDownload", &poh, &json!(payment_id)).await;
    assert_eq!(status, 404);
    // the worker made the invoice after the payment: the owner downloads it as a PDF
    let mut invoice = Value::Null;
    for _ in 0..1500 {
        let (status, answer) = post_json(&app, "/payment/subscription/getInvoiceDownload", &token, &json!(payment_id)).await;
        if status == 200 {
            invoice = answer;
            break;
        }
        assert_eq!((status, answer["message"].as_str()), (409, Some("De factuur wordt nog gemaakt.")));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let link = invoice["downloadLink"].as_str().expect("an invoice within 30 s");
    let pdf = app.http.get(link).send().await.unwrap();
    assert_eq!(pdf.status(), 200);
    assert_eq!(pdf.headers()["content-type"], "application/pdf");
    assert!(pdf.bytes().await.unwrap().starts_with(b"%PDF"));

    let removed = delete_seat(&app, &token, seat).await;
    assert_eq!(removed.status(), 204);

    // cancelled: still usable until validUntil
    let cancel =
        app.http.post(app.url(&format!("/payment/subscription/cancelSubscription/{sub_id}"))).bearer_auth(&token).send().await.unwrap();
    assert_eq!(cancel.status(), 204);
    let (_, subs) = get_json(&app, "/payment/subscription/getSubscriptionForUser", &token).await;
    assert!(subs[0]["canceledAt"].is_string());
    assert_eq!(subs[0]["nextPaymentDate"], Value::Null);
    let (_, active) = get_json(&app, "/payment/subscription/hasUserActiveSubscription", &token).await;
    assert_eq!(active, json!(true));
    worker.stop().await;
}

#[sqlx::test(migrations = "../migrations")]
async fn a_failed_checkout_leaves_no_active_subscription(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let worker = app.start_worker(&[]);
    let token = app.access_token_unsubscribed("praktijkhouder@example.nl").await;
    let (_, link) = post_json(&app, "/payment/paymentinfo/getPaymentLink", &token, &billing(INDIVIDUAL, 1, 1)).await;
    let href = link["href"].as_str().unwrap();
    let chosen = app.http.post(href).form(&[("outcome", "failed")]).send().await.unwrap();
    assert_eq!(chosen.status(), 303);
    sync_jobs_done(&pool).await;
    let (_, payments) = get_json(&app, "/payment/subscription/getPaymentsForUser", &token).await;
    assert_eq!(payments[0]["paymentStatus"], "FAILED");
    let (_, active) = get_json(&app, "/payment/subscription/hasUserActiveSubscription", &token).await;
    assert_eq!(active, json!(false));
    let bad = app.http.post(href).form(&[("outcome", "gestolen")]).send().await.unwrap();
    assert_eq!(bad.status(), 400);
    worker.stop().await;
}

#[sqlx::test(migrations = "../migrations")]
async fn a_trial_once_per_user_even_when_asked_for_at_once(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let token = app.access_token_unsubscribed("praktijkhouder@example.nl").await;
    let body = billing(TRIAL, 1, 1);
    let calls = (0..6).map(|_| post_json(&app, "/payment/subscription/createTrialSubscription", &token, &body));
    let answers = futures::future::join_all(calls).await;
    assert_eq!(answers.iter().filter(|(s, _)| *s == 201).count(), 1, "{answers:?}");
    for (status, body) in answers.iter().filter(|(s, _)| *s != 201) {
        assert_eq!(*status, 409);
        assert_eq!(body["message"], "Gebruiker heeft al eens een proefabonnement geactiveerd");
    }
    let (_, active) = get_json(&app, "/payment/subscription/hasUserActiveSubscription", &token).await;
    assert_eq!(active, json!(true));
    let (_, early) = get_json(&app, "/payment/subscription/isUserEarlyAdopter", &token).await;
    assert_eq!(early, json!(false), "no APP_EARLY_ADOPTER_BEFORE: nobody");
    let (_, org) = get_json(&app, "/api/user/hasUserActiveOrganizationSubscription", &token).await;
    assert_eq!(org, json!(false));
    let (status, orgs) = get_json(&app, "/api/user/getOrganizationSubscriptionForUser", &token).await;
    assert_eq!((status, orgs), (200, json!([])));
}

#[sqlx::test(migrations = "../migrations")]
async fn the_webhook_takes_only_an_id_and_answers_at_once(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let unknown = app.http.post(app.url("/payment/webhook")).form(&[("id", "tr_unknown")]).send().await.unwrap();
    assert_eq!(unknown.status(), 200);
    let none = app.http.post(app.url("/payment/webhook")).form(&[("status", "paid")]).send().await.unwrap();
    assert_eq!(none.status(), 400);
    let jobs: i64 = sqlx::query_scalar("select count(*) from jobs where kind = 'sync_payment'").fetch_one(&pool).await.unwrap();
    assert_eq!(jobs, 0, "nothing queued for ids that are not ours");
    // with Mollie configured the local checkout's page does not exist
    let mollie = TestApp::spawn_with(pool, Options { env: vec![("APP_MOLLIE_API_KEY", "test_x".into())], ..Default::default() }).await;
    assert_eq!(mollie.http.get(mollie.url("/payment/checkout/ltr_x")).send().await.unwrap().status(), 404);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_payment_the_provider_will_not_make_is_a_502_that_says_so_and_the_payment_is_marked_failed(pool: PgPool) {
    let (mollie_url, double) = mollie_double().await;
    double.lock().unwrap().fail_creates = usize::MAX;
    let env = vec![("APP_MOLLIE_API_KEY", "test_double_key".to_owned()), ("APP_MOLLIE_API_URL", mollie_url)];
    let app = TestApp::spawn_with(pool.clone(), Options { env, ..Default::default() }).await;
    let token = app.access_token_unsubscribed("praktijkhouder@example.nl").await;

    let (status, body) = post_json(&app, "/payment/paymentinfo/getPaymentLink", &token, &billing(PRACTICE, 3, 12)).await;
    assert_eq!(status, 502, "{body}");
    assert_eq!(body["error"], "payment_failed");
    assert_eq!(body["message"], "De betaling kon niet worden gestart. Probeer het later opnieuw.");
    let statuses: Vec<String> =
        sqlx::query_scalar("select p.status from payments p join users u on u.id = p.user_id where u.email = 'praktijkhouder@example.nl'")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(statuses, ["FAILED"]);
}

#[sqlx::test(migrations = "../migrations")]
async fn mollie_ten_concurrent_webhooks_make_one_transition_and_one_activation(pool: PgPool) {
    let (mollie_url, double) = mollie_double().await;
    double.lock().unwrap().fail_creates = 1;
    let env = vec![("APP_MOLLIE_API_KEY", "test_double_key".to_owned()), ("APP_MOLLIE_API_URL", mollie_url.clone())];
    let app = TestApp::spawn_with(pool.clone(), Options { env, ..Default::default() }).await;
    let worker = app.start_worker(&[]);
    let token = app.access_token_unsubscribed("praktijkhouder@example.nl").await;

    let (status, link) = post_json(&app, "/payment/paymentinfo/getPaymentLink", &token, &billing(PRACTICE, 3, 12)).await;
    assert_eq!(status, 200, "{link}");
    assert_eq!(link["href"], "https://www.mollie.com/checkout/select-method/tr_1");
    {
        let s = double.lock().unwrap();
        // one 503, then the retry with the same idempotency key
        assert_eq!(s.created.len(), 2);
        assert_eq!(s.created[0].1, s.created[1].1);
        let (body, key) = &s.created[1];
        assert!(key.as_deref().unwrap().starts_with("first:"));
        assert_eq!(body["amount"], json!({"currency": "EUR", "value": "1333.80"}));
        assert_eq!(body["sequenceType"], "first");
        assert_eq!(body["customerId"], "cst_8wmqcHMN4U");
        assert_eq!(body["redirectUrl"], app.url("/subscription"));
        assert_eq!(body["webhookUrl"], app.url("/payment/webhook"));
        assert_eq!(body["description"], "Spreekkamer Praktijk (3 gebruikers, jaarlijks)");
        let ours: uuid::Uuid = body["metadata"]["paymentId"].as_str().unwrap().parse().unwrap();
        assert!(!ours.is_nil());
    }

    // the customer pays: Mollie's payment goes pending, then paid (with a mandate); ten
    // deliveries arrive at once, some before the payment is paid
    mollie_status(&double, "tr_1", "pending");
    let webhook = || app.http.post(app.url("/payment/webhook")).form(&[("id", "tr_1")]).send();
    let first: Vec<_> = futures::future::join_all((0..4).map(|_| webhook())).await;
    mollie_status(&double, "tr_1", "paid");
    let rest: Vec<_> = futures::future::join_all((0..6).map(|_| webhook())).await;
    for answer in first.into_iter().chain(rest) {
        assert_eq!(answer.unwrap().status(), 200);
    }
    sync_jobs_done(&pool).await;
    // a late delivery after everything settled
    assert_eq!(webhook().await.unwrap().status(), 200);
    sync_jobs_done(&pool).await;

    let results: Vec<Value> =
        sqlx::query_scalar("select result from jobs where kind = 'sync_payment' and state = 'succeeded'").fetch_all(&pool).await.unwrap();
    assert!(!results.is_empty());
    let to_paid = results.iter().filter(|r| r["changed"] == true && r["to"] == "PAID").count();
    let activations = results.iter().filter(|r| r["activated"] == true).count();
    assert_eq!((to_paid, activations), (1, 1), "{results:?}");
    let (_, payments) = get_json(&app, "/payment/subscription/getPaymentsForUser", &token).await;
    assert_eq!(payments[0]["paymentStatus"], "PAID");
    let (_, active) = get_json(&app, "/payment/subscription/hasUserActiveSubscription", &token).await;
    assert_eq!(active, json!(true));
    let mandate: Option<String> =
        sqlx::query_scalar("select mandate_id from payment_customers where provider = 'mollie'").fetch_one(&pool).await.unwrap();
    assert_eq!(mandate.as_deref(), Some("mdt_pWUnw6pkBN"));
    worker.stop().await;
}

async fn wait_active(app: &TestApp, token: &str) {
    for _ in 0..1000 {
        let (_, active) = get_json(app, "/payment/subscription/hasUserActiveSubscription", token).await;
        if active == json!(true) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the subscription did not become active");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_refused_mollie_key_leaves_the_sync_retrying_with_a_line_for_staff_and_the_payment_is_not_lost(pool: PgPool) {
    let (mollie_url, double) = mollie_double().await;
    let env = vec![("APP_MOLLIE_API_KEY", "test_double_key".to_owned()), ("APP_MOLLIE_API_URL", mollie_url)];
    let app = TestApp::spawn_with(pool.clone(), Options { env, ..Default::default() }).await;
    let worker = app.start_worker(&[]);
    let token = app.access_token_unsubscribed("praktijkhouder@example.nl").await;
    let (status, link) = post_json(&app, "/payment/paymentinfo/getPaymentLink", &token, &billing(PRACTICE, 3, 12)).await;
    assert_eq!(status, 200, "{link}");

    // the key was rotated at Mollie just as the customer paid
    double.lock().unwrap().refuse_key = true;
    mollie_status(&double, "tr_1", "paid");
    assert_eq!(app.http.post(app.url("/payment/webhook")).form(&[("id", "tr_1")]).send().await.unwrap().status(), 200);
    let mut job = None;
    for _ in 0..500 {
        job = sqlx::query_as::<_, (String, Option<String>)>("select state, last_error from jobs where kind = 'sync_payment'")
            .fetch_optional(&pool)
            .await
            .unwrap()
            .filter(|(state, _)| state == "retrying");
        if job.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (state, error) = job.expect("the sync waits to try again, it does not fail");
    assert_eq!(state, "retrying");
    assert!(error.as_deref().unwrap_or_default().starts_with("Mollie weigert de API-sleutel (401)."), "{error:?}");
    // staff see it among the problems of Achtergrondtaken
    let (problems, _) = jobs::admin::problems(&pool, 0, 10).await.unwrap();
    assert!(problems.iter().any(|p| p.kind == "sync_payment" && p.last_error.as_deref().is_some_and(|e| e.contains("API-sleutel"))));

    // the key is fixed: the next attempt takes the payment as paid
    double.lock().unwrap().refuse_key = false;
    wait_active(&app, &token).await;
    worker.stop().await;
}

#[sqlx::test(migrations = "../migrations")]
async fn a_paid_payment_whose_webhook_never_came_is_found_by_reconciliation(pool: PgPool) {
    let (mollie_url, double) = mollie_double().await;
    let env = vec![("APP_MOLLIE_API_KEY", "test_double_key".to_owned()), ("APP_MOLLIE_API_URL", mollie_url)];
    let app = TestApp::spawn_with(pool.clone(), Options { env, ..Default::default() }).await;
    let worker = app.start_worker(&[("APP_RECONCILE_GRACE", "0s")]);
    let token = app.access_token_unsubscribed("praktijkhouder@example.nl").await;
    let (status, link) = post_json(&app, "/payment/paymentinfo/getPaymentLink", &token, &billing(PRACTICE, 3, 12)).await;
    assert_eq!(status, 200, "{link}");
    mollie_status(&double, "tr_1", "paid");
    // no webhook: Mollie's delivery was lost, or refused by a proxy
    let gets = double.lock().unwrap().gets;

    let sweep = reconcile(&pool, &app).await;
    assert_eq!(sweep["asked"], 1, "{sweep}");
    assert_eq!(sweep["queued"], 1, "{sweep}");
    wait_active(&app, &token).await;
    sync_jobs_done(&pool).await;
    assert_eq!(double.lock().unwrap().gets, gets + 1);
    let invoices: i64 = sqlx::query_scalar(
        "select count(*) from jobs where kind = 'create_invoice'
            and payload->>'paymentId' = (select id::text from payments where provider_payment_id = 'tr_1')",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(invoices, 1, "a paid payment ends with its invoice");

    // a paid payment is asked about again only after a day (a refund, a chargeback)
    let again = reconcile(&pool, &app).await;
    assert_eq!(again["asked"], 0, "{again}");
    worker.stop().await;
}

#[sqlx::test(migrations = "../migrations")]
async fn reconciliation_leaves_a_new_payment_to_its_webhook_and_spaces_out_its_questions(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let token = app.access_token_unsubscribed("praktijkhouder@example.nl").await;
    let (status, link) = post_json(&app, "/payment/paymentinfo/getPaymentLink", &token, &billing(PRACTICE, 3, 12)).await;
    assert_eq!(status, 200, "{link}");
    let ours: String = sqlx::query_scalar(
        "select p.provider_payment_id from payments p join users u on u.id = p.user_id where u.email = 'praktijkhouder@example.nl'",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    let timing = domain::billing::sweeps::ReconcileTiming::default();
    // whether reconciliation asks about ours now (the seeded payments of the development data
    // are asked about too, and do not count here)
    let asked = |provider: &'static str| {
        let (pool, ours) = (pool.clone(), ours.clone());
        async move { domain::billing::sweeps::due_for_reconciliation(&pool, provider, timing, 100).await.unwrap().contains(&ours) }
    };
    let set = |assignments: &'static str| {
        let (pool, ours) = (pool.clone(), ours.clone());
        async move {
            sqlx::query(&format!("update payments set {assignments} where provider_payment_id = $1"))
                .bind(&ours)
                .execute(&pool)
                .await
                .unwrap();
        }
    };
    assert!(!asked("local").await, "within its grace the webhook is waited for");
    set("created_at = now() - interval '10 minutes'").await;
    assert!(asked("local").await);
    assert!(!asked("local").await, "asked about just now");
    // a quarter of its age (2.5 minutes) later it is asked about again
    set("reconciled_at = now() - interval '3 minutes'").await;
    assert!(asked("local").await);
    // two days old: every 6 hours at most
    set("created_at = now() - interval '2 days', reconciled_at = now() - interval '5 hours'").await;
    assert!(!asked("local").await);
    set("reconciled_at = now() - interval '7 hours'").await;
    assert!(asked("local").await);
    // another provider's payments are not this provider's to ask about
    set("reconciled_at = null").await;
    assert!(!asked("mollie").await);
    // long past any method's expiry it is left to staff
    set("created_at = now() - interval '41 days'").await;
    assert!(!asked("local").await);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_webhook_limits_only_ids_that_are_not_ours(pool: PgPool) {
    let env = vec![("APP_RATE_LIMIT_PAYMENT_WEBHOOK", "3/1m".to_owned())];
    let app = TestApp::spawn_with(pool.clone(), Options { env, ..Default::default() }).await;
    let token = app.access_token_unsubscribed("praktijkhouder@example.nl").await;
    let (status, link) = post_json(&app, "/payment/paymentinfo/getPaymentLink", &token, &billing(PRACTICE, 3, 12)).await;
    assert_eq!(status, 200, "{link}");
    let ours: String = sqlx::query_scalar("select provider_payment_id from payments").fetch_one(&pool).await.unwrap();
    let post = |id: String| app.http.post(app.url("/payment/webhook")).form(&[("id", id)]).send();
    // a noisy client spends the limit on made-up ids
    for n in 0..3 {
        assert_eq!(post(format!("tr_noise{n}")).await.unwrap().status(), 200);
    }
    let refused = post("tr_noise9".into()).await.unwrap();
    assert_eq!(refused.status(), 429);
    assert!(refused.headers().contains_key("retry-after"));
    // the same address still gets a real payment's news through, every time
    for _ in 0..5 {
        assert_eq!(post(ours.clone()).await.unwrap().status(), 200);
    }
    let waiting: i64 =
        sqlx::query_scalar("select count(*) from jobs where kind = 'sync_payment' and state = 'queued'").fetch_one(&pool).await.unwrap();
    assert_eq!(waiting, 1, "one waiting sync however often the news comes");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_burst_of_webhooks_is_answered_each_for_its_own_payment_with_one_waiting_sync_each(pool: PgPool) {
    let env = vec![("APP_RATE_LIMIT_PAYMENT_WEBHOOK", "50/1m".to_owned())];
    let app = TestApp::spawn_with(pool.clone(), Options { env, ..Default::default() }).await;
    let token = app.access_token_unsubscribed("praktijkhouder@example.nl").await;
    let (status, link) = post_json(&app, "/payment/paymentinfo/getPaymentLink", &token, &billing(PRACTICE, 3, 12)).await;
    assert_eq!(status, 200, "{link}");
    // 60 open payments of ours, copies of the one just made with ids of their own
    sqlx::query(
        "insert into payments
         select (jsonb_populate_record(null::payments, to_jsonb(p)
                   || jsonb_build_object('id', gen_random_uuid(), 'provider_payment_id', 'tr_burst' || n,
                                         'idempotency_key', 'burst:' || n))).*
           from payments p join users u on u.id = p.user_id, generate_series(1, 60) n
          where u.email = 'praktijkhouder@example.nl'",
    )
    .execute(&pool)
    .await
    .unwrap();
    let ours: Vec<String> = (1..=60).map(|n| format!("tr_burst{n}")).collect();
    // every payment three times, and 40 made-up ids from the same address, all at once
    let mut ids: Vec<String> = ours.iter().cycle().take(180).cloned().collect();
    ids.extend((0..40).map(|n| format!("tr_noise{n}")));
    let answers =
        futures::future::join_all(ids.iter().map(|id| app.http.post(app.url("/payment/webhook")).form(&[("id", id)]).send())).await;
    for (id, answer) in ids.iter().zip(answers) {
        assert_eq!(answer.unwrap().status(), 200, "{id}");
    }
    let waiting: Vec<(String, i64)> = sqlx::query_as(
        "select payload->>'providerPaymentId', count(*) from jobs where kind = 'sync_payment' and state = 'queued' group by 1 order by 1",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let named: std::collections::BTreeSet<&str> = waiting.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(named, ours.iter().map(String::as_str).collect(), "a sync for each payment of ours, none for made-up ids");
    // deliveries of one payment in the same batch queue one sync; batches written side by side
    // (at most four) may each queue one before seeing the other's
    assert!(waiting.iter().all(|(_, n)| *n <= 4), "{waiting:?}");
    // the made-up ids were counted against the address: 40 of a limit of 50
    for n in 0..10 {
        assert_eq!(app.http.post(app.url("/payment/webhook")).form(&[("id", format!("tr_more{n}"))]).send().await.unwrap().status(), 200);
    }
    assert_eq!(app.http.post(app.url("/payment/webhook")).form(&[("id", "tr_more10")]).send().await.unwrap().status(), 429);
}

/// Runs one reconciliation sweep through the worker and returns its result.
async fn reconcile(pool: &PgPool, app: &TestApp) -> Value {
    let mut tx = pool.begin().await.unwrap();
    let id = jobs::enqueue(&mut tx, jobs::kinds::ReconcilePayments::job()).await.unwrap();
    tx.commit().await.unwrap();
    app.state.jobs.push_committed(&[id], "test").await;
    for _ in 0..1000 {
        let (state, result): (String, Option<Value>) =
            sqlx::query_as("select state, result from jobs where id = $1").bind(id).fetch_one(pool).await.unwrap();
        if state == "succeeded" {
            return result.unwrap();
        }
        assert!(!["failed", "dead"].contains(&state.as_str()), "the sweep {state}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the reconciliation sweep did not finish");
}

/// The seeded GP's 'Praktijk' subscription (2 users paid for, the POH on one seat) and a token.
async fn the_gps_practice(app: &TestApp, pool: &PgPool) -> (String, String) {
    let token = app.access_token_for("huisarts@example.nl").await;
    let id: uuid::Uuid = sqlx::query_scalar(
        "select s.id from subscriptions s join users u on u.id = s.user_id
          where u.email = 'huisarts@example.nl' and not s.is_individual and s.user_amount = 2",
    )
    .fetch_one(pool)
    .await
    .unwrap();
    (token, id.to_string())
}

/// Adds a seat as the page does once the owner confirmed any invitation (`invite=true`).
async fn add_seat(app: &TestApp, token: &str, subscription: &str, email: &str) -> (u16, Value) {
    add_seat_asking(app, token, subscription, email, true).await
}

async fn add_seat_asking(app: &TestApp, token: &str, subscription: &str, email: &str, invite: bool) -> (u16, Value) {
    let response = app
        .http
        .post(app.url(&format!("/payment/subscription/addUser?emailAddress={email}&subscriptionId={subscription}&invite={invite}")))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn seats_and_invitations(pool: &PgPool, subscription: &str) -> (i64, i64) {
    let id: uuid::Uuid = subscription.parse().unwrap();
    let seats = sqlx::query_scalar("select count(*) from linked_subscriptions where subscription_id = $1").bind(id).fetch_one(pool);
    let invitations =
        sqlx::query_scalar("select count(*) from jobs where kind = 'email' and payload->>'template' = 'seat_invitation'").fetch_one(pool);
    (seats.await.unwrap(), invitations.await.unwrap())
}

#[sqlx::test(migrations = "../migrations")]
async fn seats_stop_at_the_users_paid_for_plus_the_fair_use_margin_and_a_refused_seat_invites_nobody(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let (token, practice) = the_gps_practice(&app, &pool).await;
    assert_eq!(seats_and_invitations(&pool, &practice).await, (1, 0));
    // 2 users paid for: 2 seats more than that, the POH's and three new ones
    for email in ["a@praktijk.nl", "b@praktijk.nl", "c@praktijk.nl"] {
        let (status, seat) = add_seat(&app, &token, &practice, email).await;
        assert_eq!(status, 201, "{seat}");
    }
    assert_eq!(seats_and_invitations(&pool, &practice).await, (4, 3));
    let (status, refused) = add_seat(&app, &token, &practice, "d@praktijk.nl").await;
    assert_eq!(status, 409, "{refused}");
    assert_eq!(refused["message"], "Je kunt niet meer dan 4 gebruikers aan dit abonnement koppelen.");
    assert_eq!(refused["error"], "subscription_conflict");
    // nothing linked, no e-mail queued
    assert_eq!(seats_and_invitations(&pool, &practice).await, (4, 3));
    // a seat already there is still 'Gebruiker is al toegevoegd'; a removed one frees its place
    let (status, again) = add_seat(&app, &token, &practice, "a@praktijk.nl").await;
    assert_eq!((status, again["message"].as_str()), (409, Some("Gebruiker is al toegevoegd")));
    let seat: uuid::Uuid =
        sqlx::query_scalar("select id from linked_subscriptions where email = 'c@praktijk.nl'").fetch_one(&pool).await.unwrap();
    let removed = delete_seat(&app, &token, seat).await;
    assert_eq!(removed.status(), 204);
    let (status, _) = add_seat(&app, &token, &practice, "d@praktijk.nl").await;
    assert_eq!(status, 201);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_hundred_addresses_at_once_link_up_to_the_cap_and_invite_only_those(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let (token, practice) = the_gps_practice(&app, &pool).await;
    let adds = (0..100).map(|i| {
        let (app, token, practice) = (&app, &token, &practice);
        async move { add_seat(app, token, practice, &format!("adres{i}@example.org")).await.0 }
    });
    let statuses = futures::future::join_all(adds).await;
    assert_eq!(statuses.iter().filter(|s| **s == 201).count(), 3, "{statuses:?}");
    // past the cap 409; past the hour's seats (60) or invitations (20) 429
    assert!(statuses.iter().all(|s| [201, 409, 429].contains(s)), "{statuses:?}");
    assert_eq!(seats_and_invitations(&pool, &practice).await, (4, 3));
}

#[sqlx::test(migrations = "../migrations")]
async fn adding_seats_and_sending_invitations_are_limited_per_subscription(pool: PgPool) {
    let app = TestApp::spawn_with(
        pool.clone(),
        Options {
            env: vec![("APP_RATE_LIMIT_SEATS", "4/1h".into()), ("APP_RATE_LIMIT_SEAT_INVITATIONS", "2/1h".into())],
            ..Default::default()
        },
    )
    .await;
    let (token, practice) = the_gps_practice(&app, &pool).await;
    sqlx::query("update subscriptions set user_amount = 50 where id = $1::uuid").bind(&practice).execute(&pool).await.unwrap();
    // two invitations, then the third address without an account waits
    for email in ["a@praktijk.nl", "b@praktijk.nl"] {
        assert_eq!(add_seat(&app, &token, &practice, email).await.0, 201);
    }
    let (status, refused) = add_seat(&app, &token, &practice, "c@praktijk.nl").await;
    assert_eq!(status, 429, "{refused}");
    assert!(refused["message"].as_str().unwrap().starts_with("Te veel verzoeken. Probeer het over "), "{refused}");
    assert_eq!(seats_and_invitations(&pool, &practice).await, (3, 2));
    // an address with an account sends no invitation and is still taken...
    app.access_token_for("staff@example.nl").await;
    assert_eq!(add_seat(&app, &token, &practice, "staff@example.nl").await.0, 201);
    // ...until the seats added in the hour reach theirs (the refused one counted too)
    app.access_token_for("nieuw@example.nl").await;
    let (status, _) = add_seat(&app, &token, &practice, "nieuw@example.nl").await;
    assert_eq!(status, 429);
    assert_eq!(seats_and_invitations(&pool, &practice).await, (4, 2));
    // someone else naming this subscription counts against their own key, and finds nothing
    let other = app.access_token_for("praktijkhouder@example.nl").await;
    let (status, _) = add_seat(&app, &other, &practice, "x@praktijk.nl").await;
    assert_eq!(status, 404);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_right_to_left_override_in_the_billing_details_is_refused_in_dutch_and_nothing_is_made(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let token = app.access_token_unsubscribed("praktijkhouder@example.nl").await;
    for field in ["contactName", "practiceName", "streetAddress", "city"] {
        let mut body = billing(PRACTICE, 3, 1);
        body[field] = json!("De \u{202e}ednil");
        for path in ["/payment/paymentinfo/getPaymentLink", "/payment/subscription/createTrialSubscription"] {
            if path.ends_with("createTrialSubscription") {
                body["tierId"] = json!(TRIAL);
            }
            let (status, refused) = post_json(&app, path, &token, &body).await;
            assert_eq!(status, 400, "{field} {path}: {refused}");
            assert_eq!(refused["message"], domain::text::HIDDEN_CHARACTERS, "{field} {path}");
        }
    }
    let made: i64 = sqlx::query_scalar(
        "select (select count(*) from payments p join users u on u.id = p.user_id where u.email = 'praktijkhouder@example.nl')
              + (select count(*) from subscriptions s join users u on u.id = s.user_id where u.email = 'praktijkhouder@example.nl')",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(made, 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn an_address_without_an_account_is_linked_and_invited_only_once_the_owner_confirms(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let (token, practice) = the_gps_practice(&app, &pool).await;
    let (status, asked) = add_seat_asking(&app, &token, &practice, "tikfout@praktijk.nl", false).await;
    assert_eq!(status, 409, "{asked}");
    assert_eq!(asked["error"], "invitation_needed");
    assert_eq!(asked["message"], "Er is nog geen account met dit e-mail adres. Bevestig dat we een uitnodiging mogen sturen.");
    assert_eq!(seats_and_invitations(&pool, &practice).await, (1, 0), "nothing linked, nothing sent");
    // an address with an account needs no confirmation and sends nothing
    app.access_token_unsubscribed("collega@praktijk.nl").await;
    let (status, seat) = add_seat_asking(&app, &token, &practice, "collega@praktijk.nl", false).await;
    assert_eq!(status, 201, "{seat}");
    assert!(seat["userId"].is_string());
    assert_eq!(seats_and_invitations(&pool, &practice).await, (2, 0));
    let (status, _) = add_seat_asking(&app, &token, &practice, "tikfout@praktijk.nl", true).await;
    assert_eq!(status, 201);
    assert_eq!(seats_and_invitations(&pool, &practice).await, (3, 1));
    // an address with an invisible character in it (pasted) is refused in Dutch, confirmed or not
    let (status, refused) = add_seat_asking(&app, &token, &practice, "ander\u{200b}@praktijk.nl", true).await;
    assert_eq!((status, refused["message"].as_str()), (400, Some(domain::text::HIDDEN_CHARACTERS)), "{refused}");
    assert_eq!(seats_and_invitations(&pool, &practice).await, (3, 1));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_seat_shows_its_colleagues_name_and_finds_the_account_made_after_it(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let (token, practice) = the_gps_practice(&app, &pool).await;
    let seats = |subscriptions: Value| {
        subscriptions.as_array().unwrap().iter().find(|s| s["id"] == practice.as_str()).unwrap()["linkedSubscriptions"].clone()
    };
    // the POH's seat is stored by account: its address and name, not only an id
    let (_, mine) = get_json(&app, "/payment/subscription/getSubscriptionForUser", &token).await;
    let poh = seats(mine)[0].clone();
    assert_eq!(poh["emailAddress"], "poh@example.nl");
    assert_eq!(poh["name"], "poh");
    assert_eq!(poh["userId"], "8d3c0f7e-5b1a-4c2e-9f10-0a1b2c3d4e02");

    let (status, _) = add_seat(&app, &token, &practice, "Later@Praktijk.nl").await;
    assert_eq!(status, 201);
    let (_, mine) = get_json(&app, "/payment/subscription/getSubscriptionForUser", &token).await;
    let later = seats(mine)[1].clone();
    assert_eq!(
        (later["emailAddress"].as_str(), later["userId"].is_null(), later["name"].is_null()),
        (Some("later@praktijk.nl"), true, true)
    );
    // the colleague signs up with that address: the seat names the account
    app.access_token_unsubscribed("later@praktijk.nl").await;
    sqlx::query("update users set preferred_name = 'Bram Jansen' where email = 'later@praktijk.nl'").execute(&pool).await.unwrap();
    let (_, mine) = get_json(&app, "/payment/subscription/getSubscriptionForUser", &token).await;
    let later = seats(mine)[1].clone();
    assert_eq!(later["name"], "Bram Jansen");
    assert!(later["userId"].is_string(), "{later}");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_trial_tier_says_why_it_is_not_offered_once_used(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let token = app.access_token_unsubscribed("praktijkhouder@example.nl").await;
    let trial = |tiers: Value| tiers.as_array().unwrap().iter().find(|t| t["id"] == TRIAL).unwrap().clone();
    let (_, tiers) = get_json(&app, "/payment/subscription/getTiers", &token).await;
    assert!(trial(tiers.clone())["unavailable"].is_null());
    assert!(tiers.as_array().unwrap().iter().all(|t| t["unavailable"].is_null()));
    let (status, _) = post_json(&app, "/payment/subscription/createTrialSubscription", &token, &billing(TRIAL, 1, 1)).await;
    assert_eq!(status, 201);
    let (_, tiers) = get_json(&app, "/payment/subscription/getTiers", &token).await;
    assert_eq!(trial(tiers.clone())["unavailable"], "Gebruiker heeft al eens een proefabonnement geactiveerd");
    assert!(tiers.as_array().unwrap().iter().filter(|t| t["id"] != TRIAL).all(|t| t["unavailable"].is_null()));
}

async fn cancel_payment(app: &TestApp, token: &str, payment: &Value) -> (u16, Value) {
    let path = format!("/payment/subscription/cancelPayment/{}", payment.as_str().unwrap());
    post_json(app, &path, token, &Value::Null).await
}

#[sqlx::test(migrations = "../migrations")]
async fn an_open_mollie_payment_can_be_resumed_and_is_canceled_at_mollie_and_here(pool: PgPool) {
    let (mollie_url, double) = mollie_double().await;
    let env = vec![("APP_MOLLIE_API_KEY", "test_double_key".to_owned()), ("APP_MOLLIE_API_URL", mollie_url)];
    let app = TestApp::spawn_with(pool.clone(), Options { env, ..Default::default() }).await;
    let token = app.access_token_unsubscribed("praktijkhouder@example.nl").await;
    let (status, link) = post_json(&app, "/payment/paymentinfo/getPaymentLink", &token, &billing(INDIVIDUAL, 1, 1)).await;
    assert_eq!(status, 200, "{link}");

    // the page can send the user back to Mollie's checkout, and knows when Mollie lets it expire
    let (_, payments) = get_json(&app, "/payment/subscription/getPaymentsForUser", &token).await;
    let open = payments[0].clone();
    assert_eq!(open["paymentStatus"], "OPEN");
    assert_eq!(open["checkoutUrl"], link["href"]);
    let expires: chrono::DateTime<chrono::Utc> = open["expiresAt"].as_str().unwrap().parse().unwrap();
    let minutes = (expires - chrono::Utc::now()).num_minutes();
    assert!((13..=15).contains(&minutes), "{expires}");

    // someone else's payment is not found, and nothing is asked of Mollie
    let other = app.access_token_unsubscribed("ander@example.nl").await;
    let (status, refused) = cancel_payment(&app, &other, &open["id"]).await;
    assert_eq!((status, refused["message"].as_str()), (404, Some("Betaling niet gevonden")));
    assert_eq!(double.lock().unwrap().cancels, 0);

    let (status, body) = cancel_payment(&app, &token, &open["id"]).await;
    assert_eq!(status, 204, "{body}");
    assert_eq!(double.lock().unwrap().payments["tr_1"]["status"], "canceled");
    let (_, payments) = get_json(&app, "/payment/subscription/getPaymentsForUser", &token).await;
    assert_eq!(payments[0]["paymentStatus"], "CANCELED");
    assert!(payments[0]["checkoutUrl"].is_null() && payments[0]["expiresAt"].is_null());
    // a second 'Annuleren' (another tab) is refused in Dutch and not sent again
    let (status, again) = cancel_payment(&app, &token, &open["id"]).await;
    assert_eq!((status, again["message"].as_str()), (409, Some("Deze betaling is al afgerond en kan niet meer worden geannuleerd.")));
    assert_eq!(double.lock().unwrap().cancels, 1);
    // Mollie's webhook for the cancellation changes nothing more
    let (_, active) = get_json(&app, "/payment/subscription/hasUserActiveSubscription", &token).await;
    assert_eq!(active, json!(false));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_payment_mollie_no_longer_lets_be_canceled_is_refused_and_synced(pool: PgPool) {
    let (mollie_url, double) = mollie_double().await;
    let env = vec![("APP_MOLLIE_API_KEY", "test_double_key".to_owned()), ("APP_MOLLIE_API_URL", mollie_url)];
    let app = TestApp::spawn_with(pool.clone(), Options { env, ..Default::default() }).await;
    let worker = app.start_worker(&[]);
    let token = app.access_token_unsubscribed("praktijkhouder@example.nl").await;
    let (status, _) = post_json(&app, "/payment/paymentinfo/getPaymentLink", &token, &billing(INDIVIDUAL, 1, 1)).await;
    assert_eq!(status, 200);
    let (_, payments) = get_json(&app, "/payment/subscription/getPaymentsForUser", &token).await;
    // paid at Mollie while the webhook is still on its way
    mollie_status(&double, "tr_1", "paid");
    let (status, refused) = cancel_payment(&app, &token, &payments[0]["id"]).await;
    assert_eq!((status, refused["message"].as_str()), (409, Some("Deze betaling kan niet meer worden geannuleerd.")));
    assert_eq!(double.lock().unwrap().cancels, 0, "only a cancelable payment is canceled");
    sync_jobs_done(&pool).await;
    let (_, payments) = get_json(&app, "/payment/subscription/getPaymentsForUser", &token).await;
    assert_eq!(payments[0]["paymentStatus"], "PAID");
    wait_active(&app, &token).await;
    worker.stop().await;
}

#[sqlx::test(migrations = "../migrations")]
async fn the_local_checkout_cancels_an_open_payment_and_an_expired_one_reads_as_expired(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let worker = app.start_worker(&[]);
    let token = app.access_token_unsubscribed("praktijkhouder@example.nl").await;
    let (_, link) = post_json(&app, "/payment/paymentinfo/getPaymentLink", &token, &billing(INDIVIDUAL, 1, 1)).await;
    let href = link["href"].as_str().unwrap().to_owned();
    let (_, payments) = get_json(&app, "/payment/subscription/getPaymentsForUser", &token).await;
    assert_eq!(payments[0]["checkoutUrl"].as_str(), Some(href.as_str()));
    assert!(payments[0]["expiresAt"].is_string());
    let (status, body) = cancel_payment(&app, &token, &payments[0]["id"]).await;
    assert_eq!(status, 204, "{body}");
    let (_, payments) = get_json(&app, "/payment/subscription/getPaymentsForUser", &token).await;
    assert_eq!(payments[0]["paymentStatus"], "CANCELED");
    // the checkout page no longer takes a choice for it
    let chosen = app.http.post(&href).form(&[("outcome", "paid")]).send().await.unwrap();
    assert!(chosen.status().is_redirection() || chosen.status().is_client_error(), "{}", chosen.status());
    let (_, active) = get_json(&app, "/payment/subscription/hasUserActiveSubscription", &token).await;
    assert_eq!(active, json!(false));

    // a payment left open past its expiry: cancelling is refused, and the sync reads it expired
    let (_, _) = post_json(&app, "/payment/paymentinfo/getPaymentLink", &token, &billing(INDIVIDUAL, 1, 1)).await;
    sqlx::query("update local_checkout_payments set created_at = now() - interval '16 minutes' where status = 'open'")
        .execute(&pool)
        .await
        .unwrap();
    let (_, payments) = get_json(&app, "/payment/subscription/getPaymentsForUser", &token).await;
    let (status, refused) = cancel_payment(&app, &token, &payments[0]["id"]).await;
    assert_eq!((status, refused["message"].as_str()), (409, Some("Deze betaling kan niet meer worden geannuleerd.")));
    sync_jobs_done(&pool).await;
    let (_, payments) = get_json(&app, "/payment/subscription/getPaymentsForUser", &token).await;
    assert_eq!(payments[0]["paymentStatus"], "EXPIRED");
    worker.stop().await;
}
