//! The hourly purge removes exactly the consult data whose retention has passed.

mod common;

use std::time::Duration;

use common::TestApp;
use jobs::kinds::PurgeConsults;
use jobs::record::Claimed;
use jobs::{Job, JobContext};
use serde_json::json;
use sqlx::PgPool;

#[sqlx::test(migrations = "../migrations")]
async fn the_purge_deletes_what_expired_and_nothing_else(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        let opened: serde_json::Value =
            app.http.post(app.url("/api/consult/audio/session")).bearer_auth(&anna).send().await.unwrap().json().await.unwrap();
        ids.push((opened["consultId"].as_str().unwrap().to_owned(), opened["sessionId"].as_str().unwrap().to_owned()));
    }
    let user: String = sqlx::query_scalar("select id from users limit 1").fetch_one(&pool).await.unwrap();
    for (i, (consult, session)) in ids.iter().enumerate() {
        sqlx::query(
            "insert into summaries (id, user_id, consult_id, session_id, route, request, result, expires_at)
                     values ($1, $2, $3, $4, 'ws', '{}', '{}', now() + interval '1 day')",
        )
        .bind(format!("s{i}"))
        .bind(&user)
        .bind(consult)
        .bind(session)
        .execute(&pool)
        .await
        .unwrap();
    }
    // consult 0 has expired (with its session and summary); consult 1 lives on but its session
    // can no longer be resumed and a loose summary of it expired; consult 2 is untouched
    sqlx::query("update consults set expires_at = now() - interval '1 minute' where id = $1").bind(&ids[0].0).execute(&pool).await.unwrap();
    sqlx::query("update consult_sessions set expires_at = now() - interval '1 minute' where id = $1")
        .bind(&ids[1].1)
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query(
        "insert into summaries (id, user_id, route, request, expires_at) values ('loose', $1, 'v2', '{}', now() - interval '1 second')",
    )
    .bind(&user)
    .execute(&pool)
    .await
    .unwrap();
    // an old summary job's pointer is cleared, a recent one kept
    sqlx::query(
        "insert into jobs (id, kind, payload, state, result, max_attempts, created_at) values
                 (gen_random_uuid(), 'summarise_consult', '{}', 'succeeded', '{\"summaryId\": \"old\"}', 3, now() - interval '15 days'),
                 (gen_random_uuid(), 'summarise_consult', '{}', 'succeeded', '{\"summaryId\": \"new\"}', 3, now())",
    )
    .execute(&pool)
    .await
    .unwrap();

    let ctx = JobContext { db: pool.clone(), dispatcher: app.state.jobs.clone() };
    let claimed = Claimed {
        id: uuid::Uuid::new_v4(),
        kind: "purge_consults".into(),
        payload: json!({}),
        attempts: 1,
        max_attempts: 3,
        caused_by: None,
    };
    let purge = PurgeConsults { retention: Duration::from_secs(14 * 86_400) };
    let outcome = purge.run(&ctx, &claimed, Default::default()).await.unwrap();
    assert_eq!(
        outcome,
        json!({"consults": 1, "sessions": 1, "summaries": 1, "jobResults": 1}),
        "the loose summary, session 1, consult 0 (with its own)"
    );

    let consults: Vec<String> = sqlx::query_scalar("select id from consults order by id").fetch_all(&pool).await.unwrap();
    let mut expected = vec![ids[1].0.clone(), ids[2].0.clone()];
    expected.sort();
    assert_eq!(consults, expected);
    let sessions: Vec<String> = sqlx::query_scalar("select id from consult_sessions").fetch_all(&pool).await.unwrap();
    assert_eq!(sessions, vec![ids[2].1.clone()]);
    let summaries: Vec<String> = sqlx::query_scalar("select id from summaries order by id").fetch_all(&pool).await.unwrap();
    assert_eq!(summaries, vec!["s1".to_owned(), "s2".to_owned()]);
    let kept: Vec<serde_json::Value> =
        sqlx::query_scalar("select result from jobs where kind = 'summarise_consult' and result is not null")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(kept, vec![json!({"summaryId": "new"})]);

    // nothing more to do the next hour
    let again = purge.run(&ctx, &claimed, Default::default()).await.unwrap();
    assert_eq!(again, json!({"consults": 0, "sessions": 0, "summaries": 0, "jobResults": 0}));
}
