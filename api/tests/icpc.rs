//! ICPC suggestions for a text: bounded like text analysis.

mod common;

use common::TestApp;
use serde_json::{Value, json};
use sqlx::PgPool;

#[sqlx::test(migrations = "../migrations")]
async fn a_text_up_to_twenty_thousand_characters_is_coded_and_a_longer_one_refused(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.access_token_for("huisarts@example.nl").await;
    let predict = |text: String| {
        let request = app.http.post(app.url("/api/icpc/predict")).bearer_auth(&token).json(&json!({ "text": text }));
        async move {
            let response = request.send().await.unwrap();
            (response.status().as_u16(), response.json::<Value>().await.unwrap())
        }
    };
    let sentence = "Patiënt heeft sinds drie dagen hoest en koorts. ";
    let long: String = sentence.repeat(20_000 / sentence.chars().count());
    let long: String = long.chars().chain(std::iter::repeat('x')).take(20_000).collect();
    let (status, suggestions) = predict(long.clone()).await;
    assert_eq!(status, 200, "{suggestions}");
    assert!(suggestions.as_array().unwrap().iter().any(|s| s["category"] == "R"), "{suggestions}");

    let (status, body) = predict(format!("{long}x")).await;
    assert_eq!(status, 400);
    assert_eq!(body, json!({"error": "too_long", "message": "De tekst is te lang om te coderen (hoogstens 20000 tekens)."}));
}

#[sqlx::test(migrations = "../migrations")]
async fn the_codes_and_suggestions_follow_an_import(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let token = app.access_token_for("huisarts@example.nl").await;
    let predict = |text: &str| app.http.post(app.url("/api/icpc/predict")).bearer_auth(&token).json(&json!({ "text": text })).send();
    let ids = |body: &Value| {
        body.as_array()
            .unwrap()
            .iter()
            .map(|s| format!("{}{}", s["category"].as_str().unwrap(), s["code"].as_str().unwrap()))
            .collect::<Vec<_>>()
    };
    let before: Value = predict("hoge bloeddruk").await.unwrap().json().await.unwrap();
    assert!(ids(&before).contains(&"K86".to_owned()), "{before}");

    // `api icpc-import` replaces the list from another process: the next call serves the new one
    let codes = domain::icpc::parse_import("K87;Hoge bloeddruk met orgaanschade;Hypertensie met orgaanschade\n").unwrap();
    domain::icpc::import(&pool, &codes).await.unwrap();
    let after: Value = predict("hoge bloeddruk").await.unwrap().json().await.unwrap();
    assert_eq!(ids(&after), ["K87"]);
    let list: Value = app.http.get(app.url("/codes.json")).bearer_auth(&token).send().await.unwrap().json().await.unwrap();
    assert_eq!(ids(&list), ["K87"]);
}
