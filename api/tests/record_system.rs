//! The hand-off of a note to the record system: the allow-list, ownership, expiry, the public
//! redirect and the data format.

mod common;

use common::{Options, TestApp};
use serde_json::{Value, json};
use sqlx::PgPool;

const HAND_OFF: &str = "/api/integration/record-system/consult";

async fn app_with_origins(pool: PgPool, origins: &str) -> TestApp {
    TestApp::spawn_with(pool, Options { env: vec![("APP_RECORD_SYSTEM_REDIRECT_ORIGINS", origins.to_owned())], ..Default::default() }).await
}

fn note() -> Value {
    json!({"episodes": [
        {"subjective": "Sinds 3 dagen hoest, geen koorts.", "objective": "Longen: schoon.", "diagnosis": "Acute bronchitis.", "plan": "Afwachten, paracetamol zo nodig."},
        {"subjective": "Knie", "objective": "", "diagnosis": "", "plan": "Rust."}
    ]})
}

async fn post(app: &TestApp, token: &str, body: Value) -> reqwest::Response {
    app.http.post(app.url(HAND_OFF)).bearer_auth(token).json(&body).send().await.unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn a_note_is_handed_off_and_the_public_page_gets_it_without_a_token(pool: PgPool) {
    let app = app_with_origins(pool.clone(), "https://his.example.nl, http://localhost:3000").await;
    let token = app.access_token_for("huisarts@example.nl").await;

    let response = post(&app, &token, json!({"redirectUrl": "https://his.example.nl/spreekkamer/terug?sessie=42", "result": note()})).await;
    assert_eq!(response.status(), 201);
    let created: Value = response.json().await.unwrap();
    let id = created["consultId"].as_str().unwrap().to_owned();
    assert_eq!(created["url"], format!("/consult/{id}"));

    let (source, hours): (String, f64) =
        sqlx::query_as("select source, extract(epoch from expires_at - created_at)::float8 / 3600 from consults where id = $1")
            .bind(&id)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(source, "record_system");
    assert!((hours - 1.0).abs() < 0.01, "expires after the default hour: {hours}");

    // the owner reads the episodes
    let episodes: Value = app.get_with_token(&format!("{HAND_OFF}/{id}/episodes"), &token).await.json().await.unwrap();
    assert_eq!(episodes["episodes"].as_array().unwrap().len(), 2);
    assert_eq!(episodes["episodes"][0]["evaluation"], "Acute bronchitis.");

    // the public page, no token at all
    let response = app.http.get(app.url(&format!("{HAND_OFF}/{id}/redirect"))).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let redirect: Value = response.json().await.unwrap();
    assert_eq!(redirect["redirectUrl"], "https://his.example.nl/spreekkamer/terug?sessie=42");
    let data = redirect["data"].as_str().expect("data is a JSON string");
    assert_eq!(
        data,
        r#"{"episodes":[{"subjective":"Sinds 3 dagen hoest, geen koorts.","objective":"Longen: schoon.","evaluation":"Acute bronchitis.","plan":"Afwachten, paracetamol zo nodig."},{"subjective":"Knie","objective":"","evaluation":"","plan":"Rust."}]}"#
    );
    let parsed: Value = serde_json::from_str(data).unwrap();
    assert_eq!(parsed["episodes"][1]["plan"], "Rust.");

    // an ordinary consult is never served by the public redirect
    let response =
        app.http.put(app.url("/api/consult")).bearer_auth(&token).json(&json!({"content": {"result": note()}})).send().await.unwrap();
    let app_consult: Value = response.json().await.unwrap();
    let app_id = app_consult["id"].as_str().unwrap();
    let response = app.http.get(app.url(&format!("{HAND_OFF}/{app_id}/redirect"))).send().await.unwrap();
    assert_eq!(response.status(), 404);
    assert_eq!(app.get_with_token(&format!("{HAND_OFF}/{app_id}/episodes"), &token).await.status(), 404);

    // the hand-off may take its note from the user's own consult
    let response = post(&app, &token, json!({"redirectUrl": "http://localhost:3000/terug", "consultId": app_id})).await;
    assert_eq!(response.status(), 201);
    let from_consult: Value = response.json().await.unwrap();
    let episodes: Value = app
        .get_with_token(&format!("{HAND_OFF}/{}/episodes", from_consult["consultId"].as_str().unwrap()), &token)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(episodes["episodes"][0]["subjective"], "Sinds 3 dagen hoest, geen koorts.");

    // a bearer is needed to hand off and to read episodes
    assert_eq!(
        app.http
            .post(app.url(HAND_OFF))
            .json(&json!({"redirectUrl": "https://his.example.nl/", "result": note()}))
            .send()
            .await
            .unwrap()
            .status(),
        401
    );
    assert_eq!(app.http.get(app.url(&format!("{HAND_OFF}/{id}/episodes"))).send().await.unwrap().status(), 401);
}

#[sqlx::test(migrations = "../migrations")]
async fn return_addresses_off_the_allow_list_are_refused_in_dutch(pool: PgPool) {
    let app = app_with_origins(pool.clone(), "https://his.example.nl").await;
    let token = app.access_token_for("huisarts@example.nl").await;
    for refused in [
        "https://evil.example.nl/terug",
        "https://his.example.nl.evil.nl/terug",
        "http://his.example.nl/terug",
        "https://his.example.nl:8443/terug",
        "https://user:secret@his.example.nl/terug",
        "https://his.example.nl@evil.example.nl/terug",
        "javascript:alert(document.cookie)",
        "/terug",
        "//evil.example.nl/terug",
        "",
    ] {
        let response = post(&app, &token, json!({"redirectUrl": refused, "result": note()})).await;
        assert_eq!(response.status(), 400, "{refused}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["message"], "Dit terugkeeradres is niet toegestaan.", "{refused}");
    }
    let stored: i64 = sqlx::query_scalar("select count(*) from consults").fetch_one(&pool).await.unwrap();
    assert_eq!(stored, 0, "nothing refused is stored");

    // an empty note is refused too
    let response = post(&app, &token, json!({"redirectUrl": "https://his.example.nl/terug", "result": {"episodes": []}})).await;
    assert_eq!(response.status(), 400);
    assert_eq!(response.json::<Value>().await.unwrap()["message"], "Er is geen verslag om door te sturen.");
}

#[sqlx::test(migrations = "../migrations")]
async fn without_an_allow_list_the_hand_off_is_off(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.access_token_for("huisarts@example.nl").await;
    let response = post(&app, &token, json!({"redirectUrl": "https://his.example.nl/terug", "result": note()})).await;
    assert_eq!(response.status(), 400);
    assert_eq!(response.json::<Value>().await.unwrap()["message"], "De koppeling met Bricks staat niet aan.");
}

#[sqlx::test(migrations = "../migrations")]
async fn another_users_consult_is_not_found(pool: PgPool) {
    let app = app_with_origins(pool, "https://his.example.nl").await;
    let gp = app.access_token_for("huisarts@example.nl").await;
    let other = app.access_token_for("poh@example.nl").await;

    let created: Value =
        post(&app, &gp, json!({"redirectUrl": "https://his.example.nl/terug", "result": note()})).await.json().await.unwrap();
    let id = created["consultId"].as_str().unwrap();
    let response = app.get_with_token(&format!("{HAND_OFF}/{id}/episodes"), &other).await;
    assert_eq!(response.status(), 404);

    let app_consult: Value = app
        .http
        .put(app.url("/api/consult"))
        .bearer_auth(&gp)
        .json(&json!({"content": {"result": note()}}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let response =
        post(&app, &other, json!({"redirectUrl": "https://his.example.nl/terug", "result": note(), "consultId": app_consult["id"]})).await;
    assert_eq!(response.status(), 404);
}

#[sqlx::test(migrations = "../migrations")]
async fn an_expired_or_unknown_hand_off_is_not_found(pool: PgPool) {
    let app = app_with_origins(pool.clone(), "https://his.example.nl").await;
    let token = app.access_token_for("huisarts@example.nl").await;
    let created: Value =
        post(&app, &token, json!({"redirectUrl": "https://his.example.nl/terug", "result": note()})).await.json().await.unwrap();
    let id = created["consultId"].as_str().unwrap();
    sqlx::query("update consults set expires_at = now() - interval '1 second' where id = $1").bind(id).execute(&pool).await.unwrap();

    let response = app.http.get(app.url(&format!("{HAND_OFF}/{id}/redirect"))).send().await.unwrap();
    assert_eq!(response.status(), 404);
    assert_eq!(response.json::<Value>().await.unwrap()["message"], "Dit consult is verlopen.");
    assert_eq!(app.get_with_token(&format!("{HAND_OFF}/{id}/episodes"), &token).await.status(), 404);
    let response = app.http.get(app.url(&format!("{HAND_OFF}/01jd8n3w3x6y0m2c5d3b4e9f7k/redirect"))).send().await.unwrap();
    assert_eq!(response.status(), 404);
}

#[sqlx::test(migrations = "../migrations")]
async fn an_origin_taken_off_the_list_is_not_forwarded_to(pool: PgPool) {
    let before = app_with_origins(pool.clone(), "https://his.example.nl").await;
    let token = before.access_token_for("huisarts@example.nl").await;
    let created: Value =
        post(&before, &token, json!({"redirectUrl": "https://his.example.nl/terug", "result": note()})).await.json().await.unwrap();
    let id = created["consultId"].as_str().unwrap();

    let after = app_with_origins(pool, "https://ander.example.nl").await;
    let response = after.http.get(after.url(&format!("{HAND_OFF}/{id}/redirect"))).send().await.unwrap();
    assert_eq!(response.status(), 404, "the allow-list is checked again when the page reads the note");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_public_config_names_the_record_system_and_the_new_environment(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let config: Value = app.http.get(app.url("/api/public/config")).send().await.unwrap().json().await.unwrap();
    assert_eq!(config["recordSystemName"], "Bricks");
    assert_eq!(config["supportEmail"], "support@spreekkamer.nl");
    assert!(config["newEnvironmentUrl"].is_null() && config["newEnvironmentDate"].is_null());

    let app = TestApp::spawn_with(
        pool,
        Options {
            env: vec![
                ("APP_RECORD_SYSTEM_NAME", "Dossier".to_owned()),
                ("APP_SUPPORT_EMAIL", "hulp@example.nl".to_owned()),
                ("APP_NEW_ENVIRONMENT_URL", "https://nieuw.example.nl/".to_owned()),
                ("APP_NEW_ENVIRONMENT_DATE", "2026-10-18".to_owned()),
            ],
            ..Default::default()
        },
    )
    .await;
    let config: Value = app.http.get(app.url("/api/public/config")).send().await.unwrap().json().await.unwrap();
    assert_eq!(config["recordSystemName"], "Dossier");
    assert_eq!(config["supportEmail"], "hulp@example.nl");
    assert_eq!(config["newEnvironmentUrl"], "https://nieuw.example.nl/");
    assert_eq!(config["newEnvironmentDate"], "2026-10-18");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_accepted_icpc_codes_go_with_their_episode_and_suggestions_left_alone_do_not(pool: PgPool) {
    let app = app_with_origins(pool, "https://his.example.nl").await;
    let token = app.access_token_for("huisarts@example.nl").await;
    let result = json!({"episodes": [
        {"subjective": "Keelpijn.", "diagnosis": "Virale keelontsteking.", "codes": [
            {"code": "R74", "title": "Verkoudheid", "evidence": ["De keelpijn is een virale keelontsteking."], "accepted": true},
            {"code": "R21", "title": "Keelpijn of keelklachten", "evidence": ["Ik heb keelpijn."], "accepted": false}
        ]},
        {"subjective": "Rugpijn.", "diagnosis": "Aspecifieke lage rugpijn.", "codes": [
            {"code": "L03", "title": "Lage rugpijn", "evidence": ["Dat is aspecifieke lage rugpijn."]}
        ]}
    ]});
    let response = post(&app, &token, json!({"redirectUrl": "https://his.example.nl/terug", "result": result})).await;
    assert_eq!(response.status(), 201);
    let id = response.json::<Value>().await.unwrap()["consultId"].as_str().unwrap().to_owned();

    let episodes: Value = app.get_with_token(&format!("{HAND_OFF}/{id}/episodes"), &token).await.json().await.unwrap();
    assert_eq!(episodes["episodes"][0]["icpc"], json!(["R74"]));
    assert_eq!(episodes["episodes"][1]["icpc"], json!([]));

    let redirect: Value = app.http.get(app.url(&format!("{HAND_OFF}/{id}/redirect"))).send().await.unwrap().json().await.unwrap();
    let data: Value = serde_json::from_str(redirect["data"].as_str().unwrap()).unwrap();
    assert_eq!(data["episodes"][0]["icpc"], json!(["R74"]));
    assert!(data["episodes"][1].get("icpc").is_none(), "no codes accepted, none sent: {data}");
}
