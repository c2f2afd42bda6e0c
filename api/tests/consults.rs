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

/// Saves `note` on consult `id` as the holder of `token`: (status, body).
async fn save_note(app: &TestApp, token: Option<&str>, id: &str, body: Value) -> (u16, Value) {
    let mut request = app.http.put(app.url(&format!("/api/consult/{id}/note"))).json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[sqlx::test(migrations = "../migrations")]
async fn the_note_is_kept_whole_with_its_consult_and_read_back_by_its_owner_only(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let (_, consult) = common::open_session(&app, &anna).await;

    let fresh: Value = app.get_with_token(&format!("/api/consult/{consult}"), &anna).await.json().await.unwrap();
    assert_eq!(fresh["note"], Value::Null, "no note until the page saves one");

    // the form as the page holds it, with fields the api does not know (codes per episode)
    let note = json!({
        "template": "soap",
        "episodes": [
            {"subjective": "Drie dagen keelpijn.", "objective": "Keel rood.", "diagnosis": "Virale keelontsteking.", "plan": "Paracetamol.",
             "codes": [{"code": "R74", "accepted": true}]},
            {"subjective": "Lage rugpijn.", "objective": "", "diagnosis": "", "plan": ""}
        ],
        "report": "", "dictation": "", "summarizedDictation": null, "meeting": "", "specialist": []
    });
    let (status, saved) = save_note(&app, Some(&anna), &consult, json!({ "note": note })).await;
    assert_eq!(status, 200, "{saved}");
    assert!(saved["noteSavedAt"].is_string());

    let read: Value = app.get_with_token(&format!("/api/consult/{consult}"), &anna).await.json().await.unwrap();
    assert_eq!(read["note"], note, "stored whole");
    assert_eq!(read["noteSavedAt"], saved["noteSavedAt"]);

    // a summary's result in the content and the note do not overwrite each other
    let content = json!({"result": {"episodes": [{"subjective": "Keelpijn."}]}, "template": "soap"});
    let response = app
        .http
        .post(app.url(&format!("/api/consult/{consult}")))
        .bearer_auth(&anna)
        .json(&json!({ "content": content }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let edited = json!({"template": "soap", "episodes": [{"subjective": "Keelpijn sinds drie dagen.", "objective": "", "diagnosis": "", "plan": ""}]});
    assert_eq!(save_note(&app, Some(&anna), &consult, json!({ "note": edited })).await.0, 200);
    let read: Value = app.get_with_token(&format!("/api/consult/{consult}"), &anna).await.json().await.unwrap();
    assert_eq!(read["note"], edited, "the newest note replaces the one before");
    assert_eq!(read["content"], content);
}

#[sqlx::test(migrations = "../migrations")]
async fn saving_a_note_answers_each_role_and_refuses_bad_notes_in_dutch(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let bram = app.access_token_for("bram@praktijk.nl").await;
    let staff = app.access_token_for("staff@example.nl").await;
    let unsubscribed = app.access_token_unsubscribed("zonder-abonnement@example.nl").await;
    let (_, consult) = common::open_session(&app, &anna).await;
    let note = json!({"note": {"template": "report", "report": "Verslag van Anna."}});

    // the route × role matrix: only the consult's owner saves its note
    assert_eq!(save_note(&app, None, &consult, note.clone()).await.0, 401, "anonymous");
    let (status, body) = save_note(&app, Some(&unsubscribed), &consult, note.clone()).await;
    assert_eq!((status, body["error"].as_str()), (402, Some("subscription_required")), "no subscription");
    assert_eq!(save_note(&app, Some(&bram), &consult, note.clone()).await.0, 404, "another user's consult");
    assert_eq!(save_note(&app, Some(&staff), &consult, note.clone()).await.0, 404, "staff are no owner either");
    assert_eq!(save_note(&app, Some(&anna), "no-such-consult", note.clone()).await.0, 404);
    assert_eq!(save_note(&app, Some(&anna), &consult, note.clone()).await.0, 200, "the owner");
    let stored: Option<Value> =
        sqlx::query_scalar("select note from consults where id = $1").bind(&consult).fetch_one(&pool).await.unwrap();
    assert_eq!(stored, Some(note["note"].clone()), "the others changed nothing");
    assert_eq!(app.get_with_token(&format!("/api/consult/{consult}"), &bram).await.status(), 404, "nor read it");

    // bad notes: a clear Dutch refusal, never a 500, and the stored note stays
    for (body, code, message) in [
        (json!({"note": [1, 2]}), "invalid_note", "De notitie moet een object zijn."),
        (json!({"note": "tekst"}), "invalid_note", "De notitie moet een object zijn."),
        (json!({"note": {"report": "zonder sjabloon"}}), "invalid_note", "De notitie mist het sjabloon waarmee ze is gemaakt."),
        (
            json!({"note": {"template": "report", "report": "x".repeat(600 * 1024)}}),
            "note_too_large",
            "De notitie is te groot om op te slaan (hoogstens 512 kB).",
        ),
    ] {
        let (status, answer) = save_note(&app, Some(&anna), &consult, body).await;
        assert_eq!(status, 400, "{answer}");
        assert_eq!(answer["error"], code);
        assert_eq!(answer["message"], message);
    }
    let (status, _) = save_note(&app, Some(&anna), &consult, json!({})).await;
    assert_eq!(status, 422, "no note at all");
    let stored: Option<Value> =
        sqlx::query_scalar("select note from consults where id = $1").bind(&consult).fetch_one(&pool).await.unwrap();
    assert_eq!(stored, Some(note["note"].clone()));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_note_goes_with_its_consult_when_the_retention_has_passed(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let (_, consult) = common::open_session(&app, &anna).await;
    let note = json!({"note": {"template": "meeting", "meeting": "Overleg over de wachtlijst."}});
    assert_eq!(save_note(&app, Some(&anna), &consult, note.clone()).await.0, 200);

    // past its retention: no longer read or saved, then purged with the note
    sqlx::query("update consults set expires_at = now() - interval '1 second' where id = $1").bind(&consult).execute(&pool).await.unwrap();
    assert_eq!(app.get_with_token(&format!("/api/consult/{consult}"), &anna).await.status(), 404);
    assert_eq!(save_note(&app, Some(&anna), &consult, note).await.0, 404);
    let purged = domain::consults::purge_expired(&pool).await.unwrap();
    assert_eq!(purged.consults, 1);
    let left: i64 = sqlx::query_scalar("select count(*) from consults where note is not null").fetch_one(&pool).await.unwrap();
    assert_eq!(left, 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_public_settings_say_which_audio_models_have_a_speech_engine(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let config: Value = app.http.get(app.url("/api/public/config")).send().await.unwrap().json().await.unwrap();
    assert_eq!(config["speechEngines"], json!({"multilingual": false, "radiology": false}));

    let options = common::Options { env: vec![("APP_SPEECH_URL", "http://127.0.0.1:9".into())], ..Default::default() };
    let app = TestApp::spawn_with(pool, options).await;
    let config: Value = app.http.get(app.url("/api/public/config")).send().await.unwrap().json().await.unwrap();
    assert_eq!(config["speechEngines"], json!({"multilingual": true, "radiology": true}), "radiology takes the same engine");
}

/// PostgreSQL writes a number of a JSON column out in full (`1.7976931348623157e308` comes back as
/// 309 digits); the content, the note and the answers read such numbers back as they were sent
/// instead of failing on them.
#[sqlx::test(migrations = "../migrations")]
async fn extreme_numbers_in_a_consult_and_its_note_are_read_back_as_sent(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let (_, consult) = common::open_session(&app, &anna).await;
    let numbers = json!({"largest": f64::MAX, "smallest": f64::MIN_POSITIVE, "tiny": 5e-324, "negative": -1.0e300, "whole": u64::MAX});

    let response = app
        .http
        .post(app.url(&format!("/api/consult/{consult}")))
        .bearer_auth(&anna)
        .json(&json!({"content": numbers}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "{}", response.text().await.unwrap());
    let note = json!({"template": "soap", "numbers": numbers});
    let (status, saved) = save_note(&app, Some(&anna), &consult, json!({ "note": note })).await;
    assert_eq!(status, 200, "{saved}");

    let response = app.get_with_token(&format!("/api/consult/{consult}"), &anna).await;
    assert_eq!(response.status(), 200);
    let read: Value = response.json().await.unwrap();
    assert_eq!(read["content"], numbers);
    assert_eq!(read["note"], note);
}
