//! Accepting the agreement also writes `accepted-agreement` to Keycloak through its admin REST
//! API, against a double of Keycloak that speaks its wire format: a form-encoded
//! client-credentials token request, then JSON on the admin endpoints, where PUT replaces the user.

mod common;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use common::{Options, TestApp, claims_of};
use serde_json::{Value, json};
use sqlx::PgPool;

const SECRET: &str = "test-admin-secret";
const SERVICE_TOKEN: &str = "service-account-token";

#[derive(Default)]
struct Keycloak {
    users: HashMap<String, Value>,
    token_requests: Vec<HashMap<String, String>>,
    puts: Vec<Value>,
    fail_puts: bool,
}

type Shared = Arc<Mutex<Keycloak>>;

async fn token(
    State(kc): State<Shared>,
    Path(realm): Path<String>,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> (StatusCode, Json<Value>) {
    assert_eq!(realm, "spreekkamer");
    assert_eq!(headers["content-type"], "application/x-www-form-urlencoded");
    let ok = form.get("grant_type").map(String::as_str) == Some("client_credentials")
        && form.get("client_id").map(String::as_str) == Some("spreekkamer-admin")
        && form.get("client_secret").map(String::as_str) == Some(SECRET);
    kc.lock().unwrap().token_requests.push(form);
    if !ok {
        return (
            StatusCode::UNAUTHORIZED,
            Json(json!({"error": "unauthorized_client", "error_description": "Invalid client or Invalid client credentials"})),
        );
    }
    (
        StatusCode::OK,
        Json(
            json!({"access_token": SERVICE_TOKEN, "expires_in": 300, "refresh_expires_in": 0, "token_type": "Bearer", "not-before-policy": 0, "scope": "profile email"}),
        ),
    )
}

fn authorised(headers: &HeaderMap) -> bool {
    headers.get("authorization").and_then(|v| v.to_str().ok()) == Some(&format!("Bearer {SERVICE_TOKEN}"))
}

async fn read_user(State(kc): State<Shared>, Path((_realm, id)): Path<(String, String)>, headers: HeaderMap) -> (StatusCode, Json<Value>) {
    if !authorised(&headers) {
        return (StatusCode::UNAUTHORIZED, Json(json!({"error": "HTTP 401 Unauthorized"})));
    }
    match kc.lock().unwrap().users.get(&id) {
        Some(user) => (StatusCode::OK, Json(user.clone())),
        None => (StatusCode::NOT_FOUND, Json(json!({"error": "User not found"}))),
    }
}

async fn write_user(
    State(kc): State<Shared>,
    Path((_realm, id)): Path<(String, String)>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if !authorised(&headers) {
        return (StatusCode::UNAUTHORIZED, Json(json!({"error": "HTTP 401 Unauthorized"}))).into_response();
    }
    let mut kc = kc.lock().unwrap();
    if kc.fail_puts {
        return (StatusCode::SERVICE_UNAVAILABLE, Json(json!({"error": "unavailable"}))).into_response();
    }
    if !kc.users.contains_key(&id) {
        return (StatusCode::NOT_FOUND, Json(json!({"error": "User not found"}))).into_response();
    }
    kc.puts.push(body.clone());
    // PUT replaces the representation, as Keycloak's does
    kc.users.insert(id, body);
    StatusCode::NO_CONTENT.into_response()
}

async fn spawn_keycloak(kc: Shared) -> String {
    let app = Router::new()
        .route("/realms/{realm}/protocol/openid-connect/token", post(token))
        .route("/admin/realms/{realm}/users/{id}", get(read_user).put(write_user))
        .with_state(kc);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base
}

fn representation(id: &str) -> Value {
    json!({
        "id": id,
        "username": "nieuw",
        "firstName": "Noor",
        "lastName": "Nieuwenhuis",
        "email": "nieuw@example.nl",
        "emailVerified": true,
        "enabled": true,
        "createdTimestamp": 1732190000000_i64,
        "totp": false,
        "attributes": {"locale": ["nl"], "praktijk": ["De Linde", "Het Anker"]},
        "disableableCredentialTypes": [],
        "requiredActions": [],
        "notBefore": 0,
        "access": {"manage": true}
    })
}

#[sqlx::test(migrations = "../migrations")]
async fn accepting_writes_the_attribute_into_the_full_user_and_a_failure_can_be_retried(pool: PgPool) {
    let kc: Shared = Arc::default();
    let base = spawn_keycloak(kc.clone()).await;
    let app = TestApp::spawn_with(
        pool.clone(),
        Options {
            env: vec![
                ("APP_KEYCLOAK_ADMIN_URL", base),
                ("APP_KEYCLOAK_REALM", "spreekkamer".to_owned()),
                ("APP_KEYCLOAK_ADMIN_CLIENT_ID", "spreekkamer-admin".to_owned()),
                ("APP_KEYCLOAK_ADMIN_CLIENT_SECRET", SECRET.to_owned()),
            ],
            ..Default::default()
        },
    )
    .await;
    let token = app.access_token_for("nieuw@example.nl").await;
    let sub = claims_of(&token)["sub"].as_str().unwrap().to_owned();
    kc.lock().unwrap().users.insert(sub.clone(), representation(&sub));

    // Keycloak fails: our record is kept, the answer says so in Dutch
    kc.lock().unwrap().fail_puts = true;
    let response = app.http.post(app.url("/api/user/agreement")).bearer_auth(&token).send().await.unwrap();
    assert_eq!(response.status(), 502);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"], "agreement_not_forwarded");
    assert_eq!(body["message"], "Je akkoord is opgeslagen, maar kon nog niet worden doorgegeven. Probeer het zo opnieuw.");
    assert!(domain::users::has_accepted_agreement(&pool, &sub).await.unwrap(), "our record is written first");

    // the retry goes through, and the PUT carries the whole user with the attribute added
    kc.lock().unwrap().fail_puts = false;
    let response = app.http.post(app.url("/api/user/agreement")).bearer_auth(&token).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let accepted: Value = response.json().await.unwrap();
    assert_eq!(accepted["version"], 1);
    {
        let kc = kc.lock().unwrap();
        assert_eq!(kc.puts.len(), 1);
        let mut expected = representation(&sub);
        expected["attributes"]["accepted-agreement"] = json!(["true"]);
        assert_eq!(kc.puts[0], expected, "every other field and attribute is kept");
        assert_eq!(kc.token_requests.len(), 1, "one token, reused");
    }

    // accepting again is harmless: the same user is written back, with the cached token
    let response = app.http.post(app.url("/api/user/agreement")).bearer_auth(&token).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let again: Value = response.json().await.unwrap();
    assert_eq!(again["acceptedAt"], accepted["acceptedAt"]);
    let kc_state = kc.lock().unwrap();
    assert_eq!(kc_state.puts.len(), 2);
    assert_eq!(kc_state.puts[1], kc_state.puts[0]);
    assert_eq!(kc_state.token_requests.len(), 1);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_wrong_secret_or_an_unknown_user_is_a_502_and_keycloak_is_not_written(pool: PgPool) {
    let kc: Shared = Arc::default();
    let base = spawn_keycloak(kc.clone()).await;
    let app = TestApp::spawn_with(
        pool.clone(),
        Options {
            env: vec![
                ("APP_KEYCLOAK_ADMIN_URL", format!("{base}/")),
                ("APP_KEYCLOAK_REALM", "spreekkamer".to_owned()),
                ("APP_KEYCLOAK_ADMIN_CLIENT_ID", "spreekkamer-admin".to_owned()),
                ("APP_KEYCLOAK_ADMIN_CLIENT_SECRET", SECRET.to_owned()),
            ],
            ..Default::default()
        },
    )
    .await;
    // the user is not in Keycloak
    let token = app.access_token_for("huisarts@example.nl").await;
    let response = app.http.post(app.url("/api/user/agreement")).bearer_auth(&token).send().await.unwrap();
    assert_eq!(response.status(), 502);
    assert!(kc.lock().unwrap().puts.is_empty());

    // a wrong client secret: no token, nothing written
    let wrong = TestApp::spawn_with(
        pool,
        Options {
            env: vec![
                ("APP_KEYCLOAK_ADMIN_URL", base),
                ("APP_KEYCLOAK_REALM", "spreekkamer".to_owned()),
                ("APP_KEYCLOAK_ADMIN_CLIENT_ID", "spreekkamer-admin".to_owned()),
                ("APP_KEYCLOAK_ADMIN_CLIENT_SECRET", "not-the-secret".to_owned()),
            ],
            ..Default::default()
        },
    )
    .await;
    let token = wrong.access_token_for("nieuw@example.nl").await;
    let sub = claims_of(&token)["sub"].as_str().unwrap().to_owned();
    kc.lock().unwrap().users.insert(sub.clone(), representation(&sub));
    let response = wrong.http.post(wrong.url("/api/user/agreement")).bearer_auth(&token).send().await.unwrap();
    assert_eq!(response.status(), 502);
    let kc = kc.lock().unwrap();
    assert!(kc.puts.is_empty());
    assert_eq!(kc.token_requests.last().unwrap()["client_secret"], "not-the-secret");
}

#[sqlx::test(migrations = "../migrations")]
async fn without_keycloak_settings_the_agreement_is_only_recorded(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.access_token_for("nieuw@example.nl").await;
    let response = app.http.post(app.url("/api/user/agreement")).bearer_auth(&token).send().await.unwrap();
    assert_eq!(response.status(), 200);
}
