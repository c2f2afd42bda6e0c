//! Bearer-token validation through a real request to `/api/user/me`: every bad token is a 401
//! with the very same body, so nothing of the cause leaks.

mod common;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use common::TestApp;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use rsa::pkcs1::{DecodeRsaPrivateKey, EncodeRsaPrivateKey, LineEnding};
use rsa::pkcs8::EncodePublicKey;
use serde_json::{Value, json};
use sqlx::PgPool;

async fn status_and_body(app: &TestApp, token: &str) -> (u16, String) {
    let response = app.get_with_token("/api/user/me", token).await;
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

async fn missing_token_body(app: &TestApp) -> String {
    let response = app.http.get(app.url("/api/user/me")).send().await.unwrap();
    assert_eq!(response.status(), 401);
    assert_eq!(response.headers()["www-authenticate"], "Bearer");
    response.text().await.unwrap()
}

async fn assert_refused(app: &TestApp, token: &str, what: &str) {
    let expected = missing_token_body(app).await;
    let (status, body) = status_and_body(app, token).await;
    assert_eq!(status, 401, "{what} must be refused");
    assert_eq!(body, expected, "{what}: the body must not reveal the cause");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_valid_access_token_is_accepted(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.sign(&app.valid_claims()).await;
    let (status, body) = status_and_body(&app, &token).await;
    assert_eq!(status, 200, "{body}");
    let me: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(me["email"], "huisarts@example.nl");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_missing_token_body_is_generic_json(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let body: Value = serde_json::from_str(&missing_token_body(&app).await).unwrap();
    assert_eq!(body["error"], "unauthorized");
    assert!(body["message"].as_str().unwrap().contains("niet ingelogd"));
}

#[sqlx::test(migrations = "../migrations")]
async fn an_expired_token_is_refused(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let mut claims = app.valid_claims();
    claims["exp"] = json!(chrono::Utc::now().timestamp() - 3600);
    assert_refused(&app, &app.sign(&claims).await, "an expired token").await;
}

#[sqlx::test(migrations = "../migrations")]
async fn a_token_just_past_its_expiry_is_accepted_within_the_leeway(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let mut claims = app.valid_claims();
    claims["exp"] = json!(chrono::Utc::now().timestamp() - 5);
    let (status, _) = status_and_body(&app, &app.sign(&claims).await).await;
    assert_eq!(status, 200);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_token_not_yet_valid_is_refused(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let mut claims = app.valid_claims();
    claims["nbf"] = json!(chrono::Utc::now().timestamp() + 3600);
    assert_refused(&app, &app.sign(&claims).await, "a token with nbf in the future").await;
}

#[sqlx::test(migrations = "../migrations")]
async fn a_wrong_issuer_is_refused(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let mut claims = app.valid_claims();
    claims["iss"] = json!("https://evil.example/realms/spreekkamer");
    assert_refused(&app, &app.sign(&claims).await, "a wrong issuer").await;
}

#[sqlx::test(migrations = "../migrations")]
async fn a_wrong_or_missing_audience_is_refused(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let mut claims = app.valid_claims();
    claims["aud"] = json!(["account"]);
    assert_refused(&app, &app.sign(&claims).await, "a wrong audience").await;
    claims.as_object_mut().unwrap().remove("aud");
    assert_refused(&app, &app.sign(&claims).await, "a token without aud").await;
}

#[sqlx::test(migrations = "../migrations")]
async fn a_token_without_issuer_or_expiry_is_refused(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    for claim in ["iss", "exp", "sub"] {
        let mut claims = app.valid_claims();
        claims.as_object_mut().unwrap().remove(claim);
        assert_refused(&app, &app.sign(&claims).await, &format!("a token without {claim}")).await;
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn an_unsigned_alg_none_token_is_refused(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"none","typ":"JWT"}"#);
    let payload = URL_SAFE_NO_PAD.encode(app.valid_claims().to_string());
    assert_refused(&app, &format!("{header}.{payload}."), "alg none").await;
    let (kid, _, _) = app.signing_key().await;
    let header = URL_SAFE_NO_PAD.encode(json!({"alg": "none", "kid": kid}).to_string());
    assert_refused(&app, &format!("{header}.{payload}."), "alg none with a known kid").await;
}

#[sqlx::test(migrations = "../migrations")]
async fn hs256_signed_with_the_public_key_as_secret_is_refused(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let (kid, _, pem) = app.signing_key().await;
    let public_pem =
        rsa::RsaPrivateKey::from_pkcs1_pem(&pem).unwrap().to_public_key().to_public_key_pem(rsa::pkcs8::LineEnding::LF).unwrap();
    let mut header = Header::new(Algorithm::HS256);
    header.kid = Some(kid);
    let token = jsonwebtoken::encode(&header, &app.valid_claims(), &EncodingKey::from_secret(public_pem.as_bytes())).unwrap();
    assert_refused(&app, &token, "HS256 with the public key as secret").await;
}

#[sqlx::test(migrations = "../migrations")]
async fn a_token_signed_by_an_unknown_key_is_refused(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let other = rsa::RsaPrivateKey::new(&mut rand::thread_rng(), 2048).unwrap();
    let pem = other.to_pkcs1_pem(LineEnding::LF).unwrap();
    let key = EncodingKey::from_rsa_pem(pem.as_bytes()).unwrap();
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some("someone-elses-key".to_owned());
    let token = jsonwebtoken::encode(&header, &app.valid_claims(), &key).unwrap();
    assert_refused(&app, &token, "an unknown kid").await;
    // Our kid, but the signature made with another key.
    let (kid, _, _) = app.signing_key().await;
    header.kid = Some(kid);
    let token = jsonwebtoken::encode(&header, &app.valid_claims(), &key).unwrap();
    assert_refused(&app, &token, "a known kid with a forged signature").await;
}

#[sqlx::test(migrations = "../migrations")]
async fn an_id_token_is_not_an_access_token(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let tokens = app.tokens_for("huisarts@example.nl").await;
    assert_refused(&app, tokens["id_token"].as_str().unwrap(), "the issuer's own ID token").await;
    // Even with the api's audience, typ ID is refused.
    let mut claims = app.valid_claims();
    claims["typ"] = json!("ID");
    assert_refused(&app, &app.sign(&claims).await, "typ ID with the api audience").await;
    claims.as_object_mut().unwrap().remove("typ");
    assert_refused(&app, &app.sign(&claims).await, "a token without typ").await;
}

#[sqlx::test(migrations = "../migrations")]
async fn garbage_is_refused(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    for garbage in ["garbage", "a.b.c", "eyJhbGciOiJSUzI1NiJ9..", "Bearer"] {
        assert_refused(&app, garbage, garbage).await;
    }
    let response = app.http.get(app.url("/api/user/me")).header("authorization", "Basic dXNlcjpwYXNz").send().await.unwrap();
    assert_eq!(response.status(), 401);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_refresh_token_is_not_an_access_token(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let tokens = app.tokens_for("huisarts@example.nl").await;
    assert_refused(&app, tokens["refresh_token"].as_str().unwrap(), "a refresh token").await;
}
