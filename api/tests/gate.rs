//! The subscription gate (`api::auth::gate`): every operation of the document, called by a signed-in
//! user without a subscription, answers 402 exactly when its path is gated; a subscription of one's
//! own, a seat on someone else's, an organisation subscription or the staff role opens the gate;
//! an expired or inactive subscription does not.

mod common;

use api::auth::gate::GATED;
use common::TestApp;
use serde_json::Value;
use sqlx::PgPool;

/// A value for each path parameter that reaches the handler (ids that exist nowhere).
fn concrete(path: &str) -> String {
    path.replace("{consult_id}", "00000000-0000-4000-8000-000000000000")
        .replace("{session_id}", "00000000-0000-4000-8000-000000000000")
        .replace("{id}", "00000000-0000-4000-8000-000000000000")
        .replace("{perspective}", "gp")
        .replace("{subscription_id}", "00000000-0000-4000-8000-000000000000")
        .replace("{user_id}", "someone")
        .replace("{service}", "speech")
        .replace("{kind}", "summarise")
}

async fn call(app: &TestApp, method: &str, path: &str, token: &str) -> (u16, Value) {
    let method = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
    let response = app
        .http
        .request(method, app.url(&concrete(path)))
        .bearer_auth(token)
        .header("content-type", "application/json")
        .body("{}")
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[sqlx::test(migrations = "../migrations")]
async fn every_gated_operation_answers_402_without_a_subscription_and_no_other_does(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.access_token_unsubscribed("zonder-abonnement@example.nl").await;
    let document: Value = serde_json::from_str(&api::openapi::document()).unwrap();
    let paths = document["paths"].as_object().unwrap();
    for gated in GATED {
        assert!(paths.contains_key(*gated), "{gated} is gated but not in the document");
    }
    let mut checked = 0;
    for (path, item) in paths {
        for (method, operation) in item.as_object().unwrap() {
            if !["get", "put", "post", "delete", "patch"].contains(&method.as_str()) {
                continue;
            }
            let documented = operation["responses"].get("402").is_some();
            let (status, body) = call(&app, method, path, &token).await;
            if GATED.contains(&path.as_str()) {
                assert!(documented, "{method} {path}: the document does not say 402");
                assert_eq!(status, 402, "{method} {path}: {body}");
                assert_eq!(body["error"], "subscription_required");
                assert_eq!(body["message"], domain::billing::SUBSCRIPTION_REQUIRED);
            } else {
                assert!(!documented, "{method} {path}: documented 402 but not gated");
                assert_ne!(status, 402, "{method} {path}: {body}");
            }
            checked += 1;
        }
    }
    assert!(checked > 60, "only {checked} operations");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_gate_asks_for_a_sign_in_and_the_agreement_first(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let anonymous = app.http.get(app.url("/api/template/entry")).send().await.unwrap();
    assert_eq!(anonymous.status(), 401);
    let unaccepted = app.tokens_for(TestApp::UNACCEPTED).await["access_token"].as_str().unwrap().to_owned();
    let (status, body) = call(&app, "get", "/api/template/entry", &unaccepted).await;
    assert_eq!((status, body["error"].as_str()), (403, Some("agreement_required")));
}

#[sqlx::test(migrations = "../migrations")]
async fn own_seat_organisation_and_staff_open_the_gate_and_an_ended_subscription_does_not(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let templates = "/api/template/entry/count";

    // the seeded GP (their own practice subscription), the POH-GGZ on its seat, and staff
    for email in ["huisarts@example.nl", "poh@example.nl", "staff@example.nl"] {
        let token = app.access_token_unsubscribed(email).await;
        assert_eq!(call(&app, "get", templates, &token).await.0, 200, "{email}");
    }

    // an own subscription: passes while active and within its last day, not after
    let token = app.access_token_unsubscribed("eigen@example.nl").await;
    assert_eq!(call(&app, "get", templates, &token).await.0, 402);
    app.subscribe("eigen@example.nl").await;
    assert_eq!(call(&app, "get", templates, &token).await.0, 200);
    let today = domain::billing::today();
    let set = |until: chrono::NaiveDate, active: bool| {
        sqlx::query(
            "update subscriptions set valid_until = $1, is_active = $2 where user_id = (select id from users where email = 'eigen@example.nl')",
        )
        .bind(until)
        .bind(active)
        .execute(&pool)
    };
    set(today, true).await.unwrap();
    assert_eq!(call(&app, "get", templates, &token).await.0, 200, "the last day counts until its end");
    set(today.pred_opt().unwrap(), true).await.unwrap();
    assert_eq!(call(&app, "get", templates, &token).await.0, 402, "past its last day");
    set(today.succ_opt().unwrap(), false).await.unwrap();
    assert_eq!(call(&app, "get", templates, &token).await.0, 402, "switched off");

    // a seat by e-mail address, before the colleague had an account
    let owner = app.access_token_unsubscribed("praktijkhouder@example.nl").await;
    let _ = owner;
    sqlx::query(
        "insert into subscriptions (id, user_id, tier_id, description, is_active, user_amount, interval_months, price_per_user, amount, valid_until)
         select gen_random_uuid(), id, '5b0e1a52-2f1c-4c57-9a6e-000000000003', 'Spreekkamer Praktijk (2 gebruikers, maandelijks)', true, 2, 1,
                3900, 7800, current_date + 30 from users where email = 'praktijkhouder@example.nl'",
    )
    .execute(&pool)
    .await
    .unwrap();
    sqlx::query(
        "insert into linked_subscriptions (id, subscription_id, email)
         select gen_random_uuid(), s.id, 'collega@example.nl' from subscriptions s join users u on u.id = s.user_id
          where u.email = 'praktijkhouder@example.nl'",
    )
    .execute(&pool)
    .await
    .unwrap();
    let colleague = app.access_token_unsubscribed("Collega@example.nl").await;
    assert_eq!(call(&app, "get", templates, &colleague).await.0, 200, "a seat by e-mail address");

    // an organisation subscription by e-mail address
    let member = app.access_token_unsubscribed("lid@example.nl").await;
    assert_eq!(call(&app, "get", templates, &member).await.0, 402);
    sqlx::query(
        "insert into organisation_subscriptions (id, description, user_email, is_active, valid_until)
         values (gen_random_uuid(), 'Zorggroep Noord - Praktijk', 'lid@example.nl', true, current_date + 10)",
    )
    .execute(&pool)
    .await
    .unwrap();
    assert_eq!(call(&app, "get", templates, &member).await.0, 200, "an organisation subscription");
}
