//! `GET /api/jobs/{id}`: the job's state for the user who caused it and for staff only, staff's
//! read of someone's job audited. A new user's first call enqueues their welcome e-mail in the
//! same transaction as their row.

mod common;

use common::TestApp;
use serde_json::Value;
use sqlx::PgPool;
use uuid::Uuid;

#[sqlx::test(migrations = "../migrations")]
async fn a_job_is_visible_to_whoever_caused_it_and_to_staff_only(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let owner = app.access_token_for("dokter@praktijk.nl").await;
    let me: Value = app.get_with_token("/api/user/me", &owner).await.json().await.unwrap();
    let sub = me["id"].as_str().unwrap().to_owned();

    let (id, payload): (Uuid, Value) =
        sqlx::query_as("select id, payload from jobs where kind = 'email' and caused_by = $1").bind(&sub).fetch_one(&pool).await.unwrap();
    assert_eq!(payload, serde_json::json!({ "template": "welcome", "user_id": sub }), "ids only");
    let path = format!("/api/jobs/{id}");

    let response = app.get_with_token(&path, &owner).await;
    assert_eq!(response.status(), 200);
    let job: Value = response.json().await.unwrap();
    assert_eq!(job["id"], id.to_string());
    assert_eq!(job["kind"], "email");
    assert!(["queued", "running", "succeeded", "retrying"].contains(&job["state"].as_str().unwrap()), "{job}");
    assert_eq!(job["maxAttempts"], 8);
    assert!(job["createdAt"].is_string());

    let staff = app.access_token_for("staff@example.nl").await;
    assert_eq!(app.get_with_token(&path, &staff).await.status(), 200);

    let other = app.access_token_for("huisarts@example.nl").await;
    let response = app.get_with_token(&path, &other).await;
    assert_eq!(response.status(), 404, "someone else's job does not exist for them");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"], "not_found");

    let response = app.http.get(app.url(&path)).send().await.unwrap();
    assert_eq!(response.status(), 401);

    for missing in [format!("/api/jobs/{}", Uuid::new_v4()), "/api/jobs/geen-id".to_owned()] {
        assert_eq!(app.get_with_token(&missing, &owner).await.status(), 404, "{missing}");
    }

    // the welcome e-mail is enqueued once, on the first call only
    app.get_with_token("/api/user/me", &owner).await;
    let count: i64 = sqlx::query_scalar("select count(*) from jobs where caused_by = $1").bind(&sub).fetch_one(&pool).await.unwrap();
    assert_eq!(count, 1);
}

#[sqlx::test(migrations = "../migrations")]
async fn staff_opening_a_users_job_is_audited_and_the_owner_opening_it_is_not(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let owner = app.access_token_for("dokter@praktijk.nl").await;
    let me: Value = app.get_with_token("/api/user/me", &owner).await.json().await.unwrap();
    let sub = me["id"].as_str().unwrap().to_owned();
    let id: Uuid =
        sqlx::query_scalar("select id from jobs where kind = 'email' and caused_by = $1").bind(&sub).fetch_one(&pool).await.unwrap();
    let path = format!("/api/jobs/{id}");
    let db = &pool;
    let audited = move || async move {
        sqlx::query_as::<_, (String, String, String, Option<String>)>(
            "select action, subject_id, log, concerns_user_id from audit_log order by id",
        )
        .fetch_all(db)
        .await
        .unwrap()
    };

    assert_eq!(app.get_with_token(&path, &owner).await.status(), 200);
    assert!(audited().await.is_empty(), "the owner's own read");
    let staff = app.access_token_for("staff@example.nl").await;
    assert_eq!(app.get_with_token(&path, &staff).await.status(), 200);
    assert_eq!(
        audited().await,
        vec![(
            "user.read_job".to_owned(),
            id.to_string(),
            format!("staff@example.nl bekeek de achtergrondtaak email ({id}) van dokter@praktijk.nl"),
            Some(sub.clone())
        )]
    );
    assert_eq!(domain::audit::verify(&pool).await.unwrap(), domain::audit::Verified::Intact(1));
}
