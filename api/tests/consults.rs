//! Consults, live sessions, renderings and the helper flag: each user's own; staff-only setter.

mod common;

use common::TestApp;
use serde_json::{Value, json};
use sqlx::PgPool;

#[sqlx::test(migrations = "../migrations")]
async fn a_consult_is_stored_read_changed_rendered_and_deleted_by_its_owner_only(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let bram = app.access_token_for("bram@praktijk.nl").await;

    let response = app
        .http
        .put(app.url("/api/consult"))
        .bearer_auth(&anna)
        .json(&json!({"content": {"template": "soap", "transcript": [{"idx": 0, "sentence": "Ik hoest al een week."}]}}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);
    let id = response.json::<Value>().await.unwrap()["id"].as_str().unwrap().to_owned();

    let consult: Value = app.get_with_token(&format!("/api/consult/{id}"), &anna).await.json().await.unwrap();
    assert_eq!(consult["content"]["template"], "soap");
    assert_eq!(consult["source"], "app");
    let expires = chrono::DateTime::parse_from_rfc3339(consult["expiresAt"].as_str().unwrap()).unwrap();
    let days = (expires.with_timezone(&chrono::Utc) - chrono::Utc::now()).num_hours() as f64 / 24.0;
    assert!((13.9..=14.0).contains(&days), "kept for the 14-day retention, not {days}");

    // nobody else reads, changes, renders or deletes it
    assert_eq!(app.get_with_token(&format!("/api/consult/{id}"), &bram).await.status(), 404);
    let response =
        app.http.post(app.url(&format!("/api/consult/{id}"))).bearer_auth(&bram).json(&json!({"content": {}})).send().await.unwrap();
    assert_eq!(response.status(), 404);
    assert_eq!(app.get_with_token(&format!("/api/consult/{id}/render/PATIENT"), &bram).await.status(), 404);
    let response = app.http.delete(app.url(&format!("/api/consult/{id}"))).bearer_auth(&bram).send().await.unwrap();
    assert_eq!(response.status(), 404);
    assert_eq!(app.http.get(app.url(&format!("/api/consult/{id}"))).send().await.unwrap().status(), 401);

    // no note yet: nothing to render
    let response = app.get_with_token(&format!("/api/consult/{id}/render/PATIENT"), &anna).await;
    assert_eq!(response.status(), 404);
    assert_eq!(response.json::<Value>().await.unwrap()["message"], "Dit consult heeft nog geen samenvatting.");

    let note = json!({"template": "soap", "result": {"episodes": [{"subjective": "Een week hoest.", "objective": "Longen schoon.", "diagnosis": "Virale luchtweginfectie.", "plan": "Afwachten, terugkomen bij koorts."}]}});
    let response =
        app.http.post(app.url(&format!("/api/consult/{id}"))).bearer_auth(&anna).json(&json!({"content": note})).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.json::<Value>().await.unwrap()["content"]["result"]["episodes"][0]["plan"], "Afwachten, terugkomen bij koorts.");

    let patient: Value = app.get_with_token(&format!("/api/consult/{id}/render/PATIENT"), &anna).await.json().await.unwrap();
    assert_eq!(patient["perspective"], "PATIENT");
    assert!(patient["text"].as_str().unwrap().contains("Wat u vertelde\nEen week hoest."), "{patient}");
    let carer: Value = app.get_with_token(&format!("/api/consult/{id}/render/CARER"), &anna).await.json().await.unwrap();
    assert!(carer["text"].as_str().unwrap().contains("Wat de patiënt vertelde"), "{carer}");
    assert_eq!(app.get_with_token(&format!("/api/consult/{id}/render/DOCTOR"), &anna).await.status(), 400);

    // bad content is refused with a Dutch message and nothing changes
    let response =
        app.http.post(app.url(&format!("/api/consult/{id}"))).bearer_auth(&anna).json(&json!({"content": [1, 2]})).send().await.unwrap();
    assert_eq!(response.status(), 400);
    let big = "x".repeat(600 * 1024);
    let response = app.http.put(app.url("/api/consult")).bearer_auth(&anna).json(&json!({"content": {"text": big}})).send().await.unwrap();
    assert_eq!(response.status(), 400);
    assert_eq!(response.json::<Value>().await.unwrap()["error"], "consult_too_large");

    let response = app.http.delete(app.url(&format!("/api/consult/{id}"))).bearer_auth(&anna).send().await.unwrap();
    assert_eq!(response.status(), 204);
    assert_eq!(app.get_with_token(&format!("/api/consult/{id}"), &anna).await.status(), 404);
}

#[sqlx::test(migrations = "../migrations")]
async fn sessions_belong_to_their_user_and_their_consult(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let bram = app.access_token_for("bram@praktijk.nl").await;

    let response = app.http.post(app.url("/api/consult/audio/session")).bearer_auth(&anna).send().await.unwrap();
    assert_eq!(response.status(), 201);
    let opened: Value = response.json().await.unwrap();
    let consult = opened["consultId"].as_str().unwrap().to_owned();
    assert!(opened["sessionId"].as_str().unwrap().len() >= 26);
    assert_eq!(app.get_with_token(&format!("/api/consult/{consult}"), &anna).await.status(), 200, "a new consult comes with it");

    // a second session on the same consult, on the new model
    let response =
        app.http.post(app.url("/api/consult/beta")).bearer_auth(&anna).json(&json!({"consultId": consult})).send().await.unwrap();
    assert_eq!(response.status(), 201);
    let beta: Value = response.json().await.unwrap();
    assert_eq!(beta["consultId"], consult.as_str());
    let new_model: bool = sqlx::query_scalar("select new_model from consult_sessions where id = $1")
        .bind(beta["sessionId"].as_str().unwrap())
        .fetch_one(&pool)
        .await
        .unwrap();
    assert!(new_model);

    // nobody opens a session on someone else's consult
    let response =
        app.http.post(app.url("/api/consult/audio/session")).bearer_auth(&bram).json(&json!({"consultId": consult})).send().await.unwrap();
    assert_eq!(response.status(), 404);
    assert_eq!(app.http.post(app.url("/api/consult/audio/session")).send().await.unwrap().status(), 401);

    // deleting the consult takes its sessions with it
    app.http.delete(app.url(&format!("/api/consult/{consult}"))).bearer_auth(&anna).send().await.unwrap();
    let left: i64 = sqlx::query_scalar("select count(*) from consult_sessions").fetch_one(&pool).await.unwrap();
    assert_eq!(left, 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn staff_set_the_helper_flag_and_the_user_reads_their_own(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let staff = app.access_token_for("staff@example.nl").await;
    let flag = |token: String| {
        let request = app.http.get(app.url("/api/consult/isHelperUser")).bearer_auth(token);
        async move { request.send().await.unwrap().json::<Value>().await.unwrap() }
    };
    assert_eq!(flag(anna.clone()).await, json!(false));
    let anna_id = common::claims_of(&anna)["sub"].as_str().unwrap().to_owned();

    let set = |token: &str, user: &str, body: Value| {
        let request = app.http.post(app.url(&format!("/api/cms/setIsHelperUser/{user}"))).bearer_auth(token).json(&body);
        async move { request.send().await.unwrap().status().as_u16() }
    };
    assert_eq!(set(&anna, &anna_id, json!(true)).await, 403, "not staff");
    assert_eq!(flag(anna.clone()).await, json!(false));
    assert_eq!(set(&staff, &anna_id, json!(true)).await, 204);
    assert_eq!(flag(anna.clone()).await, json!(true));
    assert_eq!(set(&staff, &anna_id, json!(false)).await, 204);
    assert_eq!(flag(anna.clone()).await, json!(false));
    assert_eq!(set(&staff, "no-such-user", json!(true)).await, 404);
    assert_eq!(set(&staff, &anna_id, json!("ja")).await, 422);
}
