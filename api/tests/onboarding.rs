//! The onboarding profile: read and saved by its own user only, every field optional, checked.

mod common;

use common::TestApp;
use serde_json::{Value, json};
use sqlx::PgPool;

async fn post(app: &TestApp, token: &str, body: Value) -> (u16, Value) {
    let response = app.http.post(app.url("/api/user/onboarding/info")).bearer_auth(token).json(&body).send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

#[sqlx::test(migrations = "../migrations")]
async fn a_user_fills_in_and_reads_back_their_own_profile(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let bram = app.access_token_for("bram@praktijk.nl").await;

    let empty: Value = app.get_with_token("/api/user/onboarding/user", &anna).await.json().await.unwrap();
    assert_eq!(
        empty,
        json!({"preferredUsername": null, "phoneNumber": null, "AGBCode": null, "organizationName": null, "userKind": null, "practitionerKind": null})
    );

    let (status, saved) = post(
        &app,
        &anna,
        json!({"preferredUsername": " Anna de Wit ", "phoneNumber": "020 123 4567", "AGBCode": "0101-2345",
               "organizationName": "Huisartsenpraktijk De Linde", "userKind": "ARTS", "practitionerKind": "WAARNEMEND"}),
    )
    .await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(saved["preferredUsername"], "Anna de Wit");
    assert_eq!(saved["AGBCode"], "01012345");
    let read: Value = app.get_with_token("/api/user/onboarding/user", &anna).await.json().await.unwrap();
    assert_eq!(read, saved);
    let me: Value = app.get_with_token("/api/user/me", &anna).await.json().await.unwrap();
    assert_eq!(me["preferredName"], "Anna de Wit", "Home greets with it");

    // another user sees only their own (empty) profile
    let other: Value = app.get_with_token("/api/user/onboarding/user", &bram).await.json().await.unwrap();
    assert_eq!(other["preferredUsername"], Value::Null);

    // the practitioner kind belongs to ARTS only; an empty field clears it
    let (_, changed) = post(
        &app,
        &anna,
        json!({"preferredUsername": "Anna", "userKind": "ZORGGROEPMANAGER", "practitionerKind": "WAARNEMEND", "phoneNumber": ""}),
    )
    .await;
    assert_eq!(changed["practitionerKind"], Value::Null);
    assert_eq!(changed["phoneNumber"], Value::Null);
    assert_eq!(changed["AGBCode"], Value::Null, "the form sends the whole profile");

    for (body, message) in [
        (json!({"AGBCode": "12345"}), "Een AGB-code bestaat uit 8 cijfers."),
        (json!({"phoneNumber": "bel me"}), "Vul een geldig telefoonnummer in, bijvoorbeeld 020 123 4567."),
        (json!({"userKind": "DOKTER"}), "Kies arts, zorggroepmanager of anders."),
    ] {
        let (status, error) = post(&app, &anna, body).await;
        assert_eq!((status, error["message"].as_str()), (400, Some(message)));
    }
    let kept: Value = app.get_with_token("/api/user/onboarding/user", &anna).await.json().await.unwrap();
    assert_eq!(kept["preferredUsername"], "Anna", "a refused save changes nothing");

    let response = app.http.get(app.url("/api/user/onboarding/user")).send().await.unwrap();
    assert_eq!(response.status(), 401);
}
