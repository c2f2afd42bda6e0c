//! Rate limits: 429 with `Retry-After` and a Dutch message past each limit, counted per user or
//! per address in Redis (so replicas agree), and requests let through when Redis is down.

mod common;

use api::edge::limit::{LimitName, Subject};
use api::error::{ApiError, too_many_requests_message};
use common::{Options, TestApp};
use serde_json::{Value, json};
use sqlx::PgPool;

const HAND_OFF: &str = "/api/integration/record-system/consult";

async fn app_with(pool: PgPool, env: &[(&'static str, &str)]) -> TestApp {
    let env = env.iter().map(|(k, v)| (*k, (*v).to_owned())).collect();
    TestApp::spawn_with(pool, Options { env, ..Default::default() }).await
}

/// A 429 whose `Retry-After` is within `period` seconds and whose message names it.
async fn assert_limited(response: reqwest::Response, period: u64) {
    assert_eq!(response.status(), 429, "{}", response.url());
    let retry: u64 = response.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=period).contains(&retry), "Retry-After {retry}");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"], "too_many_requests");
    assert_eq!(body["message"], too_many_requests_message(retry));
}

async fn hand_off_page(app: &TestApp, forwarded_for: Option<&str>) -> reqwest::Response {
    let mut request = app.http.get(app.url(&format!("{HAND_OFF}/01J00000000000000000000000/redirect")));
    if let Some(address) = forwarded_for {
        request = request.header("x-forwarded-for", address);
    }
    request.send().await.unwrap()
}

#[test]
fn the_message_says_how_long_to_wait_in_dutch() {
    assert_eq!(too_many_requests_message(30), "Te veel verzoeken. Probeer het over 30 seconden opnieuw.");
    assert_eq!(too_many_requests_message(1), "Te veel verzoeken. Probeer het over 1 seconde opnieuw.");
}

#[sqlx::test(migrations = "../migrations")]
async fn sign_in_is_limited_per_address_across_the_token_and_authorize_calls(pool: PgPool) {
    let app = app_with(pool, &[("APP_RATE_LIMIT_SIGN_IN", "2/1m")]).await;
    let grant = [("grant_type", "password"), ("username", "huisarts@example.nl"), ("password", "x"), ("client_id", "spreekkamer-web")];
    for _ in 0..2 {
        assert_eq!(app.http.post(app.url("/oidc/token")).form(&grant).send().await.unwrap().status(), 200);
    }
    assert_limited(app.http.post(app.url("/oidc/token")).form(&grant).send().await.unwrap(), 60).await;
    let authorize = app.http.post(app.url("/oidc/auth")).form(&[("login_hint", "huisarts@example.nl")]).send().await.unwrap();
    assert_limited(authorize, 60).await;
    // reading the page is not signing in
    assert_ne!(app.http.get(app.url("/oidc/auth")).send().await.unwrap().status(), 429);
}

#[sqlx::test(migrations = "../migrations")]
async fn feedback_is_limited_per_user(pool: PgPool) {
    let app = app_with(pool, &[("APP_RATE_LIMIT_FEEDBACK", "2/1h")]).await;
    let anne = app.access_token_for("huisarts@example.nl").await;
    let poh = app.access_token_for("poh@example.nl").await;
    let send = |token: &str| {
        app.http.post(app.url("/api/feedback")).bearer_auth(token.to_owned()).json(&json!({"text": "Fijn!", "rating": 5})).send()
    };
    for _ in 0..2 {
        assert_eq!(send(&anne).await.unwrap().status(), 201);
    }
    assert_limited(send(&anne).await.unwrap(), 3600).await;
    assert_eq!(send(&poh).await.unwrap().status(), 201, "another user has a count of their own");
    // a request without a valid token is the handler's 401, and counts for nobody
    assert_eq!(app.http.post(app.url("/api/feedback")).json(&json!({"text": "x"})).send().await.unwrap().status(), 401);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_summary_calls_share_one_limit_per_user_with_the_socket(pool: PgPool) {
    let app = app_with(pool, &[("APP_RATE_LIMIT_SUMMARY", "2/1h")]).await;
    let anne = app.access_token_for("huisarts@example.nl").await;
    let call = |path: &'static str, body: &'static str, json: bool| {
        app.http
            .post(app.url(path))
            .bearer_auth(anne.clone())
            .header("content-type", if json { "application/json" } else { "text/plain" })
            .body(body)
            .send()
    };
    // an empty transcript is refused by the handler, and still counts
    assert_eq!(call("/api/audio/consult/generative/v2", "  ", false).await.unwrap().status(), 400);
    // the live consult's summarize counts against the same limit
    let claims = common::claims_of(&anne);
    let subject = Subject::User(claims["sub"].as_str().unwrap().to_owned());
    api::edge::limit::check(&app.state, LimitName::Summary, &subject).await.unwrap();
    for (path, json) in [
        ("/api/audio/consult/generative/v1", false),
        ("/api/audio/consult/generative/v1/withExamples", true),
        ("/api/audio/consult/generative/v2", false),
        ("/api/audio/consult/generative/v2-turbo", false),
        ("/api/electronic/consult/generative", true),
    ] {
        assert_limited(call(path, "{}", json).await.unwrap(), 3600).await;
    }
    let refused = api::edge::limit::check(&app.state, LimitName::Summary, &subject).await.unwrap_err();
    assert!(matches!(refused, ApiError::TooManyRequests { limit: "summary", .. }), "{refused:?}");
}

#[sqlx::test(migrations = "../migrations")]
async fn recording_uploads_are_limited_per_user(pool: PgPool) {
    let app = app_with(pool, &[("APP_RATE_LIMIT_UPLOAD", "1/1h")]).await;
    let anne = app.access_token_for("huisarts@example.nl").await;
    let upload = || {
        app.http
            .post(app.url("/api/consult/audio/session/01J00000000000000000000000/recording"))
            .bearer_auth(anne.clone())
            .header("content-type", "audio/wav")
            .body(vec![0u8; 64])
            .send()
    };
    assert_eq!(upload().await.unwrap().status(), 404);
    assert_limited(upload().await.unwrap(), 3600).await;
}

#[sqlx::test(migrations = "../migrations")]
async fn the_public_hand_off_is_limited_per_address_behind_trusted_proxies(pool: PgPool) {
    let app = app_with(pool, &[("APP_RATE_LIMIT_HANDOFF", "2/1m"), ("APP_TRUSTED_PROXIES", "127.0.0.1")]).await;
    for _ in 0..2 {
        assert_eq!(hand_off_page(&app, Some("203.0.113.1")).await.status(), 404);
    }
    assert_limited(hand_off_page(&app, Some("203.0.113.1")).await, 60).await;
    // another client behind the same proxy, and one that names a spoofed address left of its own
    assert_eq!(hand_off_page(&app, Some("203.0.113.2")).await.status(), 404);
    assert_limited(hand_off_page(&app, Some("198.51.100.7, 203.0.113.1")).await, 60).await;
}

#[sqlx::test(migrations = "../migrations")]
async fn without_trusted_proxies_a_forwarded_address_is_ignored(pool: PgPool) {
    let app = app_with(pool, &[("APP_RATE_LIMIT_HANDOFF", "1/1m")]).await;
    assert_eq!(hand_off_page(&app, Some("203.0.113.1")).await.status(), 404);
    assert_limited(hand_off_page(&app, Some("203.0.113.2")).await, 60).await;
}

#[sqlx::test(migrations = "../migrations")]
async fn two_api_replicas_share_one_count(pool: PgPool) {
    let namespace = format!("test-{}", uuid::Uuid::new_v4().simple());
    let env = [("APP_RATE_LIMIT_HANDOFF", "3/1m"), ("APP_JOBS_NAMESPACE", namespace.as_str())];
    let first = app_with(pool.clone(), &env).await;
    let second = app_with(pool, &env).await;
    assert_eq!(hand_off_page(&first, None).await.status(), 404);
    assert_eq!(hand_off_page(&second, None).await.status(), 404);
    assert_eq!(hand_off_page(&first, None).await.status(), 404);
    assert_limited(hand_off_page(&second, None).await, 60).await;
    assert_limited(hand_off_page(&first, None).await, 60).await;
}

#[sqlx::test(migrations = "../migrations")]
async fn with_redis_down_requests_go_through_and_a_limit_can_be_turned_off(pool: PgPool) {
    let down = app_with(pool.clone(), &[("APP_RATE_LIMIT_HANDOFF", "1/1m"), ("APP_REDIS_URL", "redis://127.0.0.1:1")]).await;
    for _ in 0..3 {
        assert_eq!(hand_off_page(&down, None).await.status(), 404);
    }
    let off = app_with(pool, &[("APP_RATE_LIMIT_HANDOFF", "off")]).await;
    for _ in 0..5 {
        assert_eq!(hand_off_page(&off, None).await.status(), 404);
    }
}
