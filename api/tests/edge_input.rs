//! Bad input at the edge: NUL characters and every refusal of the framework answer the Dutch
//! `{error, message}` JSON, never a 500 and never English text.

mod common;

use common::TestApp;
use reqwest::Response;
use serde_json::{Value, json};
use sqlx::PgPool;

const NUL_MESSAGE: &str = "De aanvraag bevat een ongeldig teken (NUL).";

/// The answer's status and its `{error, message}` body, checked to be JSON with a Dutch message
/// that names no Rust type and none of the framework's English.
async fn refusal(response: Response) -> (u16, String, String) {
    let status = response.status().as_u16();
    let content_type = response.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    let text = response.text().await.unwrap();
    assert!(content_type.starts_with("application/json"), "{status} answered {content_type:?}: {text}");
    let body: Value = serde_json::from_str(&text).unwrap();
    let (error, message) = (body["error"].as_str().unwrap().to_owned(), body["message"].as_str().unwrap().to_owned());
    for english in ["Failed", "failed", "deserialize", "Expected", "expected", "::", "struct", "Content-Type header"] {
        assert!(!message.contains(english) || message.contains("Content-Type: application/json"), "{message}");
    }
    (status, error, message)
}

#[sqlx::test(migrations = "../migrations")]
async fn a_nul_in_the_public_hand_off_path_is_refused_without_a_token(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let response = app.http.get(app.url("/api/integration/record-system/consult/%00/redirect")).send().await.unwrap();
    assert_eq!(refusal(response).await, (400, "invalid_character".into(), NUL_MESSAGE.into()));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_nul_in_a_path_id_or_the_query_string_is_refused(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.access_token_for("huisarts@example.nl").await;
    for path in ["/api/consult/ab%00cd", "/api/jobs/%00", "/api/template/entry/query?q=a%00b", "/api/template/entry/count?q=%00"] {
        let response = app.get_with_token(path, &token).await;
        assert_eq!(refusal(response).await.0, 400, "{path}");
    }
    // an escaped percent sign is text
    let response = app.get_with_token("/api/template/entry/count?q=%2500", &token).await;
    assert_eq!(response.status(), 200);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_nul_in_a_json_body_is_refused_as_escape_and_as_byte(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.access_token_for("huisarts@example.nl").await;
    let post = |body: Vec<u8>| {
        app.http.post(app.url("/api/feedback")).bearer_auth(&token).header("content-type", "application/json").body(body).send()
    };
    let escaped = br#"{"text":"goed\u0000idee","rating":5}"#.to_vec();
    assert_eq!(refusal(post(escaped).await.unwrap()).await, (400, "invalid_character".into(), NUL_MESSAGE.into()));
    let raw = b"{\"text\":\"goed\0idee\",\"rating\":5}".to_vec();
    assert_eq!(refusal(post(raw).await.unwrap()).await.1, "invalid_character");
    // in a field the handler never looks at, too
    let ignored = br#"{"text":"goed","extra":{"deep":["\u0000"]}}"#.to_vec();
    assert_eq!(refusal(post(ignored).await.unwrap()).await.1, "invalid_character");
    // a backslash followed by the letters u0000 is text
    let fine = br#"{"text":"C:\\u0000 is een pad","rating":5}"#.to_vec();
    assert_eq!(post(fine).await.unwrap().status(), 201);
    // a template, a consult and a profile
    for (method, path, body) in [
        ("PUT", "/api/template/entry", json!({"title": "a\u{0}", "text": "b"})),
        ("PUT", "/api/consult", json!({"content": {"note": "x\u{0}"}})),
        ("POST", "/api/user/onboarding/info", json!({"preferredUsername": "\u{0}"})),
    ] {
        let request = app.http.request(method.parse().unwrap(), app.url(path)).bearer_auth(&token).json(&body);
        assert_eq!(refusal(request.send().await.unwrap()).await.1, "invalid_character", "{path}");
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn a_nul_in_a_text_or_form_body_is_refused_but_audio_is_not_scanned(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.access_token_for("huisarts@example.nl").await;
    let response = app
        .http
        .post(app.url("/api/audio/consult/generative/v2"))
        .bearer_auth(&token)
        .header("content-type", "text/plain")
        .body("Patiënt heeft\0 hoofdpijn.")
        .send()
        .await
        .unwrap();
    assert_eq!(refusal(response).await.1, "invalid_character");
    let response = app
        .http
        .post(app.url("/oidc/token"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body("grant_type=password&username=a%00b%40example.nl&password=x&client_id=spreekkamer-web")
        .send()
        .await
        .unwrap();
    assert_eq!(refusal(response).await.1, "invalid_character");
    // a recording's bytes are audio: zeros are silence, not a refusal
    let (session, _) = common::open_session(&app, &token).await;
    let wav_like = vec![0u8; 4096];
    for content_type in ["audio/wav", "application/octet-stream"] {
        let response = app
            .http
            .post(app.url(&format!("/api/consult/audio/session/{session}/recording")))
            .bearer_auth(&token)
            .header("content-type", content_type)
            .body(wav_like.clone())
            .send()
            .await
            .unwrap();
        let (status, error, _) = refusal(response).await;
        assert_ne!(error, "invalid_character", "{content_type}");
        assert!(status < 500, "{content_type}: {status}");
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn wrong_or_missing_content_types_are_415_in_dutch(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.access_token_for("huisarts@example.nl").await;
    let without = app.http.post(app.url("/api/feedback")).bearer_auth(&token).body(r#"{"text":"x"}"#).send().await.unwrap();
    let (status, error, message) = refusal(without).await;
    assert_eq!((status, error.as_str()), (415, "unsupported_media_type"));
    assert!(message.starts_with("De aanvraag heeft een verkeerd type"), "{message}");
    let wrong =
        app.http.post(app.url("/api/feedback")).bearer_auth(&token).header("content-type", "text/plain").body("x").send().await.unwrap();
    assert_eq!(refusal(wrong).await.0, 415);
    let form = app.http.post(app.url("/oidc/token")).header("content-type", "application/json").body("{}").send().await.unwrap();
    assert_eq!(refusal(form).await.0, 415);
}

#[sqlx::test(migrations = "../migrations")]
async fn broken_json_is_400_and_json_of_the_wrong_shape_is_422_naming_the_field(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.access_token_for("huisarts@example.nl").await;
    let post = |path: &'static str, body: &'static str| {
        app.http.post(app.url(path)).bearer_auth(&token).header("content-type", "application/json").body(body).send()
    };
    assert_eq!(
        refusal(post("/api/feedback", r#"{"text": "#).await.unwrap()).await,
        (400, "invalid_json".into(), "De aanvraag is geen geldige JSON.".into())
    );
    assert_eq!(
        refusal(post("/api/feedback", r#"{"text": "x", "rating": "vijf"}"#).await.unwrap()).await,
        (422, "invalid_body".into(), "Het veld 'rating' heeft het verkeerde type.".into())
    );
    assert_eq!(
        refusal(post("/api/electronic/consult/generative", r#"{"episodeCount": 1}"#).await.unwrap()).await,
        (422, "invalid_body".into(), "Het veld 'text' ontbreekt.".into())
    );
    assert_eq!(refusal(post("/api/feedback", "[1, 2]").await.unwrap()).await.0, 422);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_bad_query_string_is_400_naming_the_parameter(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.access_token_for("huisarts@example.nl").await;
    let response = app.get_with_token("/api/template/entry/query?limit=veel", &token).await;
    let (status, error, message) = refusal(response).await;
    assert_eq!((status, error.as_str()), (400, "invalid_query"));
    assert_eq!(message, "De parameter 'limit' heeft een ongeldige waarde.");
    let response = app
        .http
        .post(app.url("/api/audio/consult/generative/v2?episodeCount=-1"))
        .bearer_auth(&token)
        .body("Hoofdpijn.")
        .send()
        .await
        .unwrap();
    assert_eq!(refusal(response).await.0, 400);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_method_the_address_does_not_take_is_405_with_allow(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let response = app.http.delete(app.url("/api/public/config")).send().await.unwrap();
    assert!(response.headers().get("allow").is_some_and(|v| v.to_str().unwrap().contains("GET")));
    assert_eq!(refusal(response).await, (405, "method_not_allowed".into(), "Deze methode is op dit adres niet toegestaan.".into()));
    let response = app.http.get(app.url("/oidc/token")).send().await.unwrap();
    assert_eq!(refusal(response).await.0, 405);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_body_over_its_limit_is_413_in_dutch(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.access_token_for("huisarts@example.nl").await;
    let big = format!(r#"{{"text":"{}"}}"#, "a".repeat(3 * 1024 * 1024));
    let response = app
        .http
        .post(app.url("/api/feedback"))
        .bearer_auth(&token)
        .header("content-type", "application/json")
        .body(big.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(refusal(response).await, (413, "payload_too_large".into(), "De aanvraag is te groot.".into()));
    // a handler that reads the raw body
    let response = app
        .http
        .post(app.url("/api/audio/consult/generative/v2"))
        .bearer_auth(&token)
        .header("content-type", "text/plain")
        .body(big)
        .send()
        .await
        .unwrap();
    assert_eq!(refusal(response).await.0, 413);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_plain_request_to_the_websocket_is_refused_in_dutch(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let response = app.http.get(app.url("/ws/speech/consult/01J0000000000000000000000")).send().await.unwrap();
    let (status, _, message) = refusal(response).await;
    assert!((400..500).contains(&status), "{status}");
    assert!(!message.is_empty());
}

#[sqlx::test(migrations = "../migrations")]
async fn an_address_too_long_for_the_server_is_414_in_dutch_json(pool: PgPool) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = TestApp::spawn(pool).await;
    // over hyper's 64 KiB request line (more than an http::Uri holds, so over a socket of our own):
    // hyper answers before any handler runs
    let mut socket = tokio::net::TcpStream::connect(app.base.trim_start_matches("http://")).await.unwrap();
    let request = format!("GET /api/template/entry/query?q={} HTTP/1.1\r\nhost: localhost\r\n\r\n", "a".repeat(70_000));
    socket.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    tokio::time::timeout(std::time::Duration::from_secs(10), socket.read_to_string(&mut answer)).await.unwrap().unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    let head = head.to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 414 "), "{answer}");
    for header in ["content-type: application/json", "x-content-type-options: nosniff", "cache-control: no-store", "connection: close"] {
        assert!(head.contains(header), "{header}: {answer}");
    }
    let body: Value = serde_json::from_str(body).unwrap();
    assert_eq!(body, json!({ "error": "uri_too_long", "message": "Het adres van de aanvraag is te lang." }));
    // the server still answers (a head over hyper's buffer, 431, is rewritten the same way: the
    // unit test in edge::conn; a client still sending it may see the connection reset instead)
    assert_eq!(app.http.get(app.url("/healthz")).send().await.unwrap().status(), 200);
}
