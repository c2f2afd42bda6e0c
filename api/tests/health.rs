//! `/healthz`, `/readyz` and `/metrics`.

mod common;

use common::{Options, TestApp};
use serde_json::Value;
use sqlx::PgPool;

#[sqlx::test(migrations = "../migrations")]
async fn healthz_answers_while_the_process_is_up(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let response = app.http.get(app.url("/healthz")).send().await.unwrap();
    assert_eq!(response.status(), 200);
}

#[sqlx::test(migrations = "../migrations")]
async fn readyz_is_ok_when_postgres_and_redis_answer(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let response = app.http.get(app.url("/readyz")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["checks"]["postgres"], "ok");
    assert_eq!(body["checks"]["redis"], "ok");
}

#[sqlx::test(migrations = "../migrations")]
async fn readyz_names_redis_when_it_is_unreachable(pool: PgPool) {
    // Port 9 (discard) has no Redis behind it.
    let options = Options { env: vec![("APP_REDIS_URL", "redis://127.0.0.1:9".to_owned())], ..Options::default() };
    let app = TestApp::spawn_with(pool, options).await;
    let response = app.http.get(app.url("/readyz")).send().await.unwrap();
    assert_eq!(response.status(), 503);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["status"], "unavailable");
    assert_eq!(body["checks"]["postgres"], "ok");
    assert_ne!(body["checks"]["redis"], "ok");
}

#[sqlx::test(migrations = "../migrations")]
async fn readyz_names_postgres_when_it_is_gone(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    app.state.db.close().await;
    let response = app.http.get(app.url("/readyz")).send().await.unwrap();
    assert_eq!(response.status(), 503);
    let body: Value = response.json().await.unwrap();
    assert_ne!(body["checks"]["postgres"], "ok");
    assert_eq!(body["checks"]["redis"], "ok");
}

#[sqlx::test(migrations = "../migrations")]
async fn metrics_with_a_token_configured_need_it(pool: PgPool) {
    let token = "metrics-token-0123456789";
    let app = TestApp::spawn_with(pool, Options { env: vec![("APP_METRICS_TOKEN", token.into())], ..Default::default() }).await;
    for sent in [None, Some("wrong-token-0123456789"), Some("metrics-token-012345678")] {
        let mut request = app.http.get(app.url("/metrics"));
        if let Some(sent) = sent {
            request = request.bearer_auth(sent);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 401, "{sent:?}");
        assert_eq!(response.headers()["www-authenticate"], "Bearer");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"], "unauthorized");
        assert_eq!(body["message"], "Stuur het metrics-token (APP_METRICS_TOKEN) mee als Bearer-token.");
    }
    let response = app.http.get(app.url("/metrics")).bearer_auth(token).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.text().await.unwrap().contains("http_requests_total"));
}

#[sqlx::test(migrations = "../migrations")]
async fn metrics_count_requests_by_route_template_in_prometheus_text(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    app.http.get(app.url("/api/user/me")).send().await.unwrap();
    let response = app.http.get(app.url("/metrics")).send().await.unwrap();
    assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/plain"));
    let text = response.text().await.unwrap();
    assert!(text.contains(r#"http_requests_total{method="GET",route="/api/user/me",status="401"}"#), "{text}");
    assert!(text.contains("http_request_duration_seconds_bucket"));
    assert!(text.contains(r#"auth_rejections_total{reason="missing"}"#));
}

#[sqlx::test(migrations = "../migrations")]
async fn every_response_carries_a_request_id(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let response = app.http.get(app.url("/healthz")).send().await.unwrap();
    assert!(!response.headers()["x-request-id"].is_empty());
    let response = app.http.get(app.url("/healthz")).header("x-request-id", "abc-123").send().await.unwrap();
    assert_eq!(response.headers()["x-request-id"], "abc-123");
}

#[sqlx::test(migrations = "../migrations")]
async fn readyz_names_a_job_queue_whose_jobs_wait_while_nothing_fetches_them(pool: PgPool) {
    let options = Options { env: vec![("APP_JOBS_STALL_AFTER", "1s".to_owned())], ..Options::default() };
    let app = TestApp::spawn_with(pool, options).await;
    // a sweep due five seconds ago, and no worker
    let mut tx = app.state.db.begin().await.unwrap();
    let job = jobs::kinds::PruneJobs::job().run_at(chrono::Utc::now() - chrono::Duration::seconds(5));
    let id = jobs::enqueue(&mut tx, job).await.unwrap();
    tx.commit().await.unwrap();
    let response = app.http.get(app.url("/readyz")).send().await.unwrap();
    assert_eq!(response.status(), 503);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["checks"]["postgres"], "ok");
    assert_eq!(body["checks"]["redis"], "ok");
    assert!(body["checks"]["queue:prune_jobs"].as_str().unwrap().starts_with("stalled"), "{body}");
    let metrics = app.http.get(app.url("/metrics")).send().await.unwrap().text().await.unwrap();
    assert!(metrics.contains("jobs_oldest_waiting_seconds{kind=\"prune_jobs\"}"), "{metrics}");

    // a worker takes the job: ready again
    let worker = app.start_worker(&[("APP_JOBS_STALL_AFTER", "1s")]);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let response = app.http.get(app.url("/readyz")).send().await.unwrap();
        if response.status() == 200 {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "still {}: {}", response.status(), response.text().await.unwrap());
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert!(jobs::find(&app.state.db, id).await.unwrap().is_some());
    worker.stop().await;
}
