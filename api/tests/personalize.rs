//! Personal SOEP examples: each user's own; empty examples refused.

mod common;

use common::TestApp;
use serde_json::{Value, json};
use sqlx::PgPool;

#[sqlx::test(migrations = "../migrations")]
async fn examples_are_added_changed_and_deleted_by_their_owner_only(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let bram = app.access_token_for("bram@praktijk.nl").await;
    let post = |token: &str, path: &str, body: Value| {
        let request = app.http.post(app.url(path)).bearer_auth(token).json(&body);
        async move {
            let response = request.send().await.unwrap();
            (response.status().as_u16(), response.json::<Value>().await.unwrap_or(Value::Null))
        }
    };

    let (status, added) = post(&anna, "/api/user/personalized/soap",
        json!({"subjective": "Sinds 3d hoest, geen koorts.", "objective": "", "evaluation": "Acute bronchitis", "plan": "1. Uitleg\n2. Controle bij koorts"})).await;
    assert_eq!(status, 200, "{added}");
    assert_eq!(added["source"], "manual");
    let id = added["id"].as_str().unwrap().to_owned();

    let (status, error) =
        post(&anna, "/api/user/personalized/soap", json!({"subjective": " ", "objective": "", "evaluation": "", "plan": ""})).await;
    assert_eq!((status, error["message"].as_str()), (400, Some("Geen tekst ingevuld")));

    let (status, changed) = post(
        &anna,
        "/api/user/personalized/soap",
        json!({"id": id, "subjective": "Hoest", "objective": "Pulm: vesiculair", "evaluation": "Bronchitis", "plan": "1. Uitleg"}),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(changed["objective"], "Pulm: vesiculair");

    // another user neither sees nor changes nor deletes it
    let theirs: Value = app.get_with_token("/api/user/personalized/soap", &bram).await.json().await.unwrap();
    assert_eq!(theirs, json!([]));
    let (status, _) = post(&bram, "/api/user/personalized/soap", json!({"id": id, "subjective": "van mij"})).await;
    assert_eq!(status, 404);
    let response = app.http.delete(app.url(&format!("/api/user/personalized/soap/{id}"))).bearer_auth(&bram).send().await.unwrap();
    assert_eq!(response.status(), 404);

    // a corrected generated note becomes an example too
    let (status, kept) = post(
        &anna,
        "/api/feedback/soapexample",
        json!({"consultId": "c-7", "subjective": "S", "objective": "O", "evaluation": "E", "plan": "P"}),
    )
    .await;
    assert_eq!(status, 201);
    assert_eq!(kept["source"], "feedback");

    let mine: Value = app.get_with_token("/api/user/personalized/soap", &anna).await.json().await.unwrap();
    assert_eq!(mine.as_array().unwrap().len(), 2);
    assert_eq!(mine[0]["subjective"], "Hoest", "oldest first, as changed");

    let response = app.http.delete(app.url(&format!("/api/user/personalized/soap/{id}"))).bearer_auth(&anna).send().await.unwrap();
    assert_eq!(response.status(), 204);
    let mine: Value = app.get_with_token("/api/user/personalized/soap", &anna).await.json().await.unwrap();
    assert_eq!(mine.as_array().unwrap().len(), 1);
    let response = app.http.get(app.url("/api/user/personalized/soap")).send().await.unwrap();
    assert_eq!(response.status(), 401);
}
