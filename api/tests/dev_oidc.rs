//! The embedded development issuer: the authorization code + PKCE flow a browser goes through,
//! refresh with rotation, end-session, and the refusal to run outside development.

mod common;

use common::{TestApp, claims_of, pkce_pair};
use serde_json::Value;
use sqlx::PgPool;
use url::Url;

const CLIENT: &str = "spreekkamer-web";

fn callback(app: &TestApp) -> String {
    format!("{}/auth/callback", app.base)
}

fn authorize_query(app: &TestApp, challenge: &str) -> Vec<(&'static str, String)> {
    vec![
        ("client_id", CLIENT.to_owned()),
        ("redirect_uri", callback(app)),
        ("response_type", "code".to_owned()),
        ("scope", "openid profile email".to_owned()),
        ("state", "st4te".to_owned()),
        ("nonce", "n0nce-123456".to_owned()),
        ("code_challenge", challenge.to_owned()),
        ("code_challenge_method", "S256".to_owned()),
    ]
}

/// Picks a seeded user on the sign-in page and returns the code from the redirect.
async fn sign_in(app: &TestApp, email: &str, challenge: &str) -> String {
    let page = app.http.get(app.url("/oidc/auth")).query(&authorize_query(app, challenge)).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains("E-mailadres") && html.contains(email), "the page lists the seeded users");
    let mut form = authorize_query(app, challenge);
    form.push(("login_hint", email.to_owned()));
    let response = app.http.post(app.url("/oidc/auth")).form(&form).send().await.unwrap();
    assert_eq!(response.status(), 303);
    let location = Url::parse(response.headers()["location"].to_str().unwrap()).unwrap();
    assert!(location.as_str().starts_with(&callback(app)));
    let query: std::collections::HashMap<_, _> = location.query_pairs().into_owned().collect();
    assert_eq!(query["state"], "st4te");
    query["code"].clone()
}

async fn exchange(app: &TestApp, code: &str, verifier: &str) -> reqwest::Response {
    app.http
        .post(app.url("/oidc/token"))
        .form(&[
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", &callback(app)),
            ("client_id", CLIENT),
            ("code_verifier", verifier),
        ])
        .send()
        .await
        .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn discovery_names_every_endpoint_under_the_issuer(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let doc: Value = app.http.get(app.url("/oidc/.well-known/openid-configuration")).send().await.unwrap().json().await.unwrap();
    assert_eq!(doc["issuer"], app.issuer());
    for endpoint in
        ["authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri", "end_session_endpoint", "revocation_endpoint"]
    {
        assert!(doc[endpoint].as_str().unwrap().starts_with(&app.issuer()), "{endpoint}");
    }
    assert_eq!(doc["code_challenge_methods_supported"], serde_json::json!(["S256"]));
    let jwks: Value = app.http.get(doc["jwks_uri"].as_str().unwrap()).send().await.unwrap().json().await.unwrap();
    assert_eq!(jwks["keys"][0]["alg"], "RS256");
    assert_eq!(jwks["keys"][0]["use"], "sig");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_full_pkce_flow_gives_tokens_the_api_accepts(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let (verifier, challenge) = pkce_pair();
    let code = sign_in(&app, "huisarts@example.nl", &challenge).await;
    let response = exchange(&app, &code, &verifier).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["cache-control"], "no-store");
    let tokens: Value = response.json().await.unwrap();
    let access = tokens["access_token"].as_str().unwrap();
    let claims = claims_of(access);
    assert_eq!(claims["typ"], "Bearer");
    assert_eq!(claims["azp"], CLIENT);
    assert_eq!(claims["accepted-agreement"], true);
    let id = claims_of(tokens["id_token"].as_str().unwrap());
    assert_eq!(id["nonce"], "n0nce-123456");
    assert_eq!(id["aud"], CLIENT);
    let me: Value = app.get_with_token("/api/user/me", access).await.json().await.unwrap();
    assert_eq!(me["preferredName"], "Anne de Vries");
    assert_eq!(me["acceptedAgreement"], true);
    let info: Value = app.get_with_token("/oidc/userinfo", access).await.json().await.unwrap();
    assert_eq!(info["email"], "huisarts@example.nl");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_wrong_code_verifier_is_refused(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let (_, challenge) = pkce_pair();
    let (other_verifier, _) = pkce_pair();
    let code = sign_in(&app, "huisarts@example.nl", &challenge).await;
    let response = exchange(&app, &code, &other_verifier).await;
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"], "invalid_grant");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_code_works_once(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let (verifier, challenge) = pkce_pair();
    let code = sign_in(&app, "poh@example.nl", &challenge).await;
    assert_eq!(exchange(&app, &code, &verifier).await.status(), 200);
    assert_eq!(exchange(&app, &code, &verifier).await.status(), 400);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_failed_exchange_uses_up_the_code(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let (verifier, challenge) = pkce_pair();
    let (wrong, _) = pkce_pair();
    let code = sign_in(&app, "poh@example.nl", &challenge).await;
    assert_eq!(exchange(&app, &code, &wrong).await.status(), 400);
    assert_eq!(exchange(&app, &code, &verifier).await.status(), 400, "no second guess at the verifier");
}

#[sqlx::test(migrations = "../migrations")]
async fn refresh_works_and_rotates_the_refresh_token(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let tokens = app.tokens_for("staff@example.nl").await;
    let old = tokens["refresh_token"].as_str().unwrap();
    let response = app.refresh(old).await;
    assert_eq!(response.status(), 200);
    let renewed: Value = response.json().await.unwrap();
    let (before, after) = (claims_of(tokens["id_token"].as_str().unwrap()), claims_of(renewed["id_token"].as_str().unwrap()));
    assert_eq!(before["sub"], after["sub"]);
    assert_eq!(before["sid"], after["sid"], "the session carries over, as clients check");
    assert_eq!(before["auth_time"], after["auth_time"], "oidc-client-ts refuses a changed auth_time");
    let access = renewed["access_token"].as_str().unwrap();
    let me: Value = app.get_with_token("/api/user/me", access).await.json().await.unwrap();
    assert_eq!(me["isStaff"], true);
    assert_eq!(app.refresh(old).await.status(), 400, "a used refresh token is refused");
    assert_eq!(app.refresh(renewed["refresh_token"].as_str().unwrap()).await.status(), 200);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_new_user_has_no_agreement_claim_until_they_accept(pool: PgPool) {
    let app = TestApp::spawn(pool.clone()).await;
    let tokens = app.tokens_for("nieuw@example.nl").await;
    assert!(claims_of(tokens["access_token"].as_str().unwrap()).get("accepted-agreement").is_none());
    let me: Value = app.get_with_token("/api/user/me", tokens["access_token"].as_str().unwrap()).await.json().await.unwrap();
    assert_eq!(me["acceptedAgreement"], false);

    domain::users::record_agreement(&pool, me["id"].as_str().unwrap()).await.unwrap();
    let renewed: Value = app.refresh(tokens["refresh_token"].as_str().unwrap()).await.json().await.unwrap();
    assert_eq!(claims_of(renewed["access_token"].as_str().unwrap())["accepted-agreement"], true);
}

#[sqlx::test(migrations = "../migrations")]
async fn any_other_email_signs_in_as_the_same_new_ordinary_user(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let (verifier, challenge) = pkce_pair();
    let mut form = authorize_query(&app, &challenge);
    form.push(("email", "  Dokter@Praktijk.NL ".to_owned()));
    let response = app.http.post(app.url("/oidc/auth")).form(&form).send().await.unwrap();
    let location = Url::parse(response.headers()["location"].to_str().unwrap()).unwrap();
    let code = location.query_pairs().find(|(k, _)| k == "code").unwrap().1.into_owned();
    let tokens: Value = exchange(&app, &code, &verifier).await.json().await.unwrap();
    let claims = claims_of(tokens["access_token"].as_str().unwrap());
    assert_eq!(claims["email"], "dokter@praktijk.nl");
    assert!(!claims["realm_access"]["roles"].as_array().unwrap().iter().any(|r| r == "spreekkamer-employees"));
    let again = claims_of(&app.access_token_for("dokter@praktijk.nl").await);
    assert_eq!(claims["sub"], again["sub"]);
}

#[sqlx::test(migrations = "../migrations")]
async fn an_invalid_email_gets_the_page_again_with_a_dutch_message(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let (_, challenge) = pkce_pair();
    let mut form = authorize_query(&app, &challenge);
    form.push(("email", "geen-adres".to_owned()));
    let response = app.http.post(app.url("/oidc/auth")).form(&form).send().await.unwrap();
    assert_eq!(response.status(), 422);
    assert!(response.text().await.unwrap().contains("Vul een geldig e-mailadres in"));
}

#[sqlx::test(migrations = "../migrations")]
async fn unknown_clients_and_foreign_redirects_are_refused_without_redirecting(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let (_, challenge) = pkce_pair();
    let mut query = authorize_query(&app, &challenge);
    query[1].1 = "https://evil.example/callback".to_owned();
    let response = app.http.get(app.url("/oidc/auth")).query(&query).send().await.unwrap();
    assert_eq!(response.status(), 400);
    let mut query = authorize_query(&app, &challenge);
    query[0].1 = "someone-else".to_owned();
    assert_eq!(app.http.get(app.url("/oidc/auth")).query(&query).send().await.unwrap().status(), 400);
}

#[sqlx::test(migrations = "../migrations")]
async fn pkce_is_required(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let query: Vec<_> = authorize_query(&app, "x").into_iter().filter(|(k, _)| !k.starts_with("code_challenge")).collect();
    let response = app.http.get(app.url("/oidc/auth")).query(&query).send().await.unwrap();
    assert_eq!(response.status(), 303);
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    assert!(location.contains("error=invalid_request"), "{location}");
}

#[sqlx::test(migrations = "../migrations")]
async fn end_session_revokes_refresh_tokens_and_returns_to_the_app(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let tokens = app.tokens_for("huisarts@example.nl").await;
    let back = format!("{}/", app.base);
    let response = app
        .http
        .get(app.url("/oidc/logout"))
        .query(&[("id_token_hint", tokens["id_token"].as_str().unwrap()), ("post_logout_redirect_uri", &back), ("state", "s")])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 303);
    assert_eq!(response.headers()["location"].to_str().unwrap(), format!("{back}?state=s"));
    assert_eq!(app.refresh(tokens["refresh_token"].as_str().unwrap()).await.status(), 400);
    let foreign =
        app.http.get(app.url("/oidc/logout")).query(&[("post_logout_redirect_uri", "https://evil.example/")]).send().await.unwrap();
    assert_eq!(foreign.status(), 200, "a foreign address gets a page, not a redirect");
}

#[sqlx::test(migrations = "../migrations")]
async fn revocation_ends_a_refresh_token(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let tokens = app.tokens_for("poh@example.nl").await;
    let refresh = tokens["refresh_token"].as_str().unwrap();
    let response = app.http.post(app.url("/oidc/revoke")).form(&[("token", refresh), ("client_id", CLIENT)]).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let refreshed = app.refresh(refresh).await;
    assert_eq!(refreshed.status(), 400);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_signing_key_is_kept_so_tokens_survive_a_restart(pool: PgPool) {
    let first = TestApp::spawn(pool.clone()).await;
    let token = first.access_token_for("huisarts@example.nl").await;
    let (kid_before, _, _) = first.signing_key().await;
    // A second api on the same database, with the same public address, as after a restart.
    let config = api::config::Config::from_env(&domain::env::Env::from_pairs([
        ("APP_ENV", "development".to_owned()),
        ("APP_PUBLIC_URL", first.base.clone()),
    ]))
    .unwrap();
    let restarted = api::state(config, pool).await.unwrap();
    let claims = restarted.auth.validate(&token).await.expect("the old token is still valid");
    assert_eq!(claims.email.as_deref(), Some("huisarts@example.nl"));
    let keys: i64 = sqlx::query_scalar("select count(*) from dev_oidc_keys").fetch_one(&restarted.db).await.unwrap();
    assert_eq!(keys, 1);
    let (kid_after, _, _) = first.signing_key().await;
    assert_eq!(kid_before, kid_after);
}

#[test]
fn the_api_refuses_to_start_with_the_dev_issuer_outside_development() {
    let output =
        std::process::Command::new(env!("CARGO_BIN_EXE_api")).env("APP_ENV", "production").env("APP_DEV_OIDC", "true").output().unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("only runs with APP_ENV=development"), "{stderr}");
}
