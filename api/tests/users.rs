//! Users are created on their first authenticated call, without a write on every request.

mod common;

use common::TestApp;
use serde_json::{Value, json};
use sqlx::PgPool;

async fn row(pool: &PgPool, id: &str) -> Option<(String, String)> {
    sqlx::query_as("select email, preferred_username from users where id = $1").bind(id).fetch_optional(pool).await.unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn the_first_authenticated_call_creates_the_user(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let mut claims = app.valid_claims();
    claims["sub"] = json!("first-timer");
    claims["email"] = json!("eerste@praktijk.nl");
    claims["preferred_username"] = json!("eerste");
    assert!(row(&pool, "first-timer").await.is_none());
    let me: Value = app.get_with_token("/api/user/me", &app.sign(&claims).await).await.json().await.unwrap();
    assert_eq!(me["id"], "first-timer");
    assert_eq!(me["username"], "eerste");
    assert_eq!(me["preferredName"], Value::Null);
    assert_eq!(row(&pool, "first-timer").await, Some(("eerste@praktijk.nl".to_owned(), "eerste".to_owned())));
}

#[sqlx::test(migrations = "../migrations")]
async fn later_calls_do_not_write_to_the_database(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let mut claims = app.valid_claims();
    claims["sub"] = json!("regular");
    let token = app.sign(&claims).await;
    assert_eq!(app.get_with_token("/api/user/me", &token).await.status(), 200);
    // Remove the row behind the api's back: a second call that wrote would bring it back.
    sqlx::query("delete from users where id = 'regular'").execute(&pool).await.unwrap();
    assert_eq!(app.get_with_token("/api/user/me", &token).await.status(), 200);
    assert!(row(&pool, "regular").await.is_none(), "the second call wrote to the database");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_changed_email_in_the_token_is_written_once(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let mut claims = app.valid_claims();
    claims["sub"] = json!("mover");
    claims["email"] = json!("oud@praktijk.nl");
    app.get_with_token("/api/user/me", &app.sign(&claims).await).await;
    claims["email"] = json!("nieuw@praktijk.nl");
    app.get_with_token("/api/user/me", &app.sign(&claims).await).await;
    assert_eq!(row(&pool, "mover").await.unwrap().0, "nieuw@praktijk.nl");
}

#[sqlx::test(migrations = "../migrations")]
async fn staff_is_recognised_by_the_configured_role(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let staff: Value = app.get_with_token("/api/user/me", &app.access_token_for("staff@example.nl").await).await.json().await.unwrap();
    assert_eq!(staff["isStaff"], true);
    assert!(staff["roles"].as_array().unwrap().iter().any(|r| r == "spreekkamer-employees"));
    let gp: Value = app.get_with_token("/api/user/me", &app.access_token_for("poh@example.nl").await).await.json().await.unwrap();
    assert_eq!(gp["isStaff"], false);
    assert_eq!(gp["preferredName"], Value::Null);
    assert_eq!(gp["username"], "poh");
}
