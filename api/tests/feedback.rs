//! Feedback: stored with its sender, or without when anonymous; checked.

mod common;

use common::TestApp;
use serde_json::{Value, json};
use sqlx::PgPool;

async fn send(app: &TestApp, token: &str, body: Value) -> (u16, Value) {
    let response = app.http.post(app.url("/api/feedback")).bearer_auth(token).json(&body).send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

#[sqlx::test(migrations = "../migrations")]
async fn feedback_is_stored_with_its_sender_unless_anonymous(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let token = app.access_token_for("huisarts@example.nl").await;

    let (status, body) = send(
        &app,
        &token,
        json!({"type": "template", "text": "  Handig, maar de zoekfunctie mag sneller. ", "rating": 4, "anonymous": false,
               "consultId": "c-42", "consultType": "audioconsult"}),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let (kind, text, rating, user_id, label, consult_type): (String, String, Option<i16>, Option<String>, Option<String>, Option<String>) =
        sqlx::query_as("select kind, text, rating, user_id, user_label, consult_type from feedback where id = $1::uuid")
            .bind(body["id"].as_str().unwrap())
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!((kind.as_str(), text.as_str(), rating), ("template", "Handig, maar de zoekfunctie mag sneller.", Some(4)));
    assert_eq!(user_id.as_deref(), Some("8d3c0f7e-5b1a-4c2e-9f10-0a1b2c3d4e01"));
    assert_eq!(label.as_deref(), Some("huisarts"));
    assert_eq!(consult_type.as_deref(), Some("audioconsult"));

    let (status, body) = send(&app, &token, json!({"text": "Anoniem gemeld", "anonymous": true})).await;
    assert_eq!(status, 201);
    let (kind, user_id, label): (String, Option<String>, Option<String>) =
        sqlx::query_as("select kind, user_id, user_label from feedback where id = $1::uuid")
            .bind(body["id"].as_str().unwrap())
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!((kind.as_str(), user_id, label), ("default", None, None), "nothing tells who sent it");

    for (body, message) in [
        (json!({"text": "x".repeat(3000)}), "De feedback is te lang: houd het onder de 3000 tekens."),
        (json!({"text": "ok", "rating": 6}), "Kies een beoordeling van 1 tot en met 5."),
        (json!({"text": "   "}), "Schrijf iets of geef een beoordeling."),
        (json!({"text": "ok", "type": "klacht"}), "Onbekend soort feedback."),
    ] {
        let (status, error) = send(&app, &token, body).await;
        assert_eq!((status, error["message"].as_str()), (400, Some(message)));
    }
    let (status, _) = send(&app, &token, json!({"text": "x".repeat(2999), "rating": 1})).await;
    assert_eq!(status, 201, "just under the limit");
    let stored: i64 = sqlx::query_scalar("select count(*) from feedback").fetch_one(&pool).await.unwrap();
    assert_eq!(stored, 3);

    let response = app.http.post(app.url("/api/feedback")).json(&json!({"text": "ok"})).send().await.unwrap();
    assert_eq!(response.status(), 401);
}
