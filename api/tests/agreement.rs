//! The user agreement: the PDF for anyone, acceptance recorded, and the next token says so.

mod common;

use common::{TestApp, claims_of};
use serde_json::Value;
use sqlx::PgPool;

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
    let rows: i64 = sqlx::query_scalar("select count(*) from agreement_acceptances a join users u on u.id = a.user_id where u.email = 'nieuw@example.nl'")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(rows, 1);

    let renewed: Value = app.refresh(tokens["refresh_token"].as_str().unwrap()).await.json().await.unwrap();
    assert_eq!(claims_of(renewed["access_token"].as_str().unwrap())["accepted-agreement"], true);

    let response = app.http.post(app.url("/api/user/agreement")).send().await.unwrap();
    assert_eq!(response.status(), 401);
}
