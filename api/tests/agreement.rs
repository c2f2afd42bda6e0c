//! The user agreement: the PDF for anyone, acceptance recorded, and the next token says so.

mod common;

use common::{TestApp, claims_of};
use futures::StreamExt;
use serde_json::{Value, json};
use sqlx::PgPool;
use tokio_tungstenite::tungstenite::Message;

#[sqlx::test(migrations = "../migrations")]
async fn the_pdf_is_served_and_accepting_renews_the_claim(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;

    let response = app.http.get(app.url("/files/overeenkomst_v1.pdf")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/pdf");
    assert!(response.headers()["content-disposition"].to_str().unwrap().contains("overeenkomst_v1.pdf"));
    let bytes = response.bytes().await.unwrap();
    assert!(bytes.starts_with(b"%PDF"));

    let tokens = app.tokens_for("nieuw@example.nl").await;
    let access = tokens["access_token"].as_str().unwrap();
    assert_eq!(claims_of(access).get("accepted-agreement"), None, "the new user has not accepted yet");
    let me: Value = app.get_with_token("/api/user/me", access).await.json().await.unwrap();
    assert_eq!(me["acceptedAgreement"], false);

    let response = app.http.post(app.url("/api/user/agreement")).bearer_auth(access).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let accepted: Value = response.json().await.unwrap();
    assert_eq!(accepted["version"], 1);
    // accepting twice keeps the first time
    let again: Value = app.http.post(app.url("/api/user/agreement")).bearer_auth(access).send().await.unwrap().json().await.unwrap();
    assert_eq!(again["acceptedAt"], accepted["acceptedAt"]);
    let rows: i64 = sqlx::query_scalar(
        "select count(*) from agreement_acceptances a join users u on u.id = a.user_id where u.email = 'nieuw@example.nl'",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(rows, 1);

    let renewed: Value = app.refresh(tokens["refresh_token"].as_str().unwrap()).await.json().await.unwrap();
    assert_eq!(claims_of(renewed["access_token"].as_str().unwrap())["accepted-agreement"], true);

    let response = app.http.post(app.url("/api/user/agreement")).send().await.unwrap();
    assert_eq!(response.status(), 401);
}

/// A call; every call but GET and DELETE carries a small JSON body.
fn call(app: &TestApp, method: reqwest::Method, path: &str, token: &str) -> reqwest::RequestBuilder {
    let request = app.http.request(method.clone(), app.url(path)).bearer_auth(token);
    if method == reqwest::Method::GET || method == reqwest::Method::DELETE { request } else { request.json(&json!({"text": "hoest"})) }
}

/// What the product's calls do for a user who has not accepted, from each area.
const GUARDED: &[(&str, &str)] = &[
    ("PUT", "/api/consult"),
    ("POST", "/api/consult/audio/session"),
    ("POST", "/api/consult/beta"),
    ("GET", "/api/consult/isHelperUser"),
    ("GET", "/api/consult/01jzzzzzzzzzzzzzzzzzzzzzzz"),
    ("POST", "/api/audio/consult/generative/v2-turbo"),
    ("POST", "/api/electronic/consult/generative"),
    ("GET", "/api/template/entry/query"),
    ("GET", "/api/template/entry"),
    ("PUT", "/api/template/entry?sharedTemplate=false"),
    ("GET", "/api/template/group/count"),
    ("GET", "/codes.json"),
    ("POST", "/api/icpc/predict"),
    ("POST", "/api/medcat/medcatify"),
    ("POST", "/api/feedback"),
    ("GET", "/api/user/personalized/soap"),
    ("GET", "/api/user/onboarding/user"),
    ("POST", "/api/user/onboarding/info"),
    ("GET", "/api/jobs/00000000-0000-0000-0000-000000000000"),
    ("POST", "/api/integration/record-system/consult"),
    ("GET", "/api/cms/medicineShortages"),
    ("GET", "/payment/subscription/getSubscriptionForUser"),
    ("POST", "/payment/paymentinfo/getPaymentLink"),
    ("GET", "/api/user/hasUserActiveOrganizationSubscription"),
];

async fn assert_refused(app: &TestApp, token: &str) {
    for (method, path) in GUARDED {
        let response = call(app, method.parse().unwrap(), path, token).send().await.unwrap();
        let status = response.status().as_u16();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        assert_eq!(status, 403, "{method} {path}: {body}");
        assert_eq!(
            body,
            json!({"error": "agreement_required", "message": "Accepteer eerst de gebruikersovereenkomst."}),
            "{method} {path}"
        );
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn a_user_who_never_accepted_gets_only_what_the_welcome_screen_needs(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let tokens = app.tokens_for(TestApp::UNACCEPTED).await;
    let token = tokens["access_token"].as_str().unwrap();

    // the app shell, the sign-in and the 'Welkom' screen
    assert_eq!(app.get_with_token("/api/user/me", token).await.status(), 200);
    assert_eq!(app.get_with_token("/api/public/config", token).await.status(), 200);
    assert_eq!(app.get_with_token("/files/overeenkomst_v1.pdf", token).await.status(), 200);
    assert_eq!(app.get_with_token("/oidc/.well-known/openid-configuration", token).await.status(), 200);
    assert_refused(&app, token).await;
    let consults: i64 = sqlx::query_scalar("select count(*) from consults").fetch_one(&pool).await.unwrap();
    assert_eq!(consults, 0, "nothing was made");

    // the live consult's socket is closed with its own code
    let mut socket = common::connect(&app, "/ws/speech/consult/01jzzzzzzzzzzzzzzzzzzzzzzz", Some(token)).await;
    let close = tokio::time::timeout(std::time::Duration::from_secs(30), socket.next()).await.expect("closed in time");
    match close {
        Some(Ok(Message::Close(Some(frame)))) => {
            assert_eq!(u16::from(frame.code), 4403);
            assert_eq!(frame.reason.as_str(), "Accepteer eerst de gebruikersovereenkomst.");
        }
        other => panic!("expected a close frame, got {other:?}"),
    }

    // accepted: the same token works at once (our record is the truth), the renewed one too
    let response = app.http.post(app.url("/api/user/agreement")).bearer_auth(token).send().await.unwrap();
    assert_eq!(response.status(), 200);
    // (and, as everyone, a subscription for the consult and template calls)
    app.subscribe(TestApp::UNACCEPTED).await;
    let response = app.http.post(app.url("/api/consult/audio/session")).bearer_auth(token).send().await.unwrap();
    assert_eq!(response.status(), 201);
    let renewed: Value = app.refresh(tokens["refresh_token"].as_str().unwrap()).await.json().await.unwrap();
    let response = app.get_with_token("/api/template/entry/count", renewed["access_token"].as_str().unwrap()).await;
    assert_eq!(response.status(), 200);
}

#[sqlx::test(migrations = "../migrations")]
async fn staff_accept_the_agreement_like_everyone_and_a_token_claim_alone_passes(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let mut claims = app.valid_claims();
    claims["sub"] = json!("medewerker-zonder-akkoord");
    claims["email"] = json!("medewerker@spreekkamer.nl");
    claims["preferred_username"] = json!("medewerker");
    claims["realm_access"]["roles"] = json!(["spreekkamer-employees"]);
    claims.as_object_mut().unwrap().remove("accepted-agreement");
    let staff = app.sign(&claims).await;
    assert_refused(&app, &staff).await;

    // an identity provider that says the user accepted (Keycloak's attribute, set before this
    // database knew) is believed
    claims["accepted-agreement"] = json!("true");
    let claimed = app.sign(&claims).await;
    assert_eq!(app.get_with_token("/api/cms/medicineShortages", &claimed).await.status(), 200);
    claims["accepted-agreement"] = json!(false);
    let refused = app.sign(&claims).await;
    assert_eq!(app.get_with_token("/api/cms/medicineShortages", &refused).await.status(), 403);
}
