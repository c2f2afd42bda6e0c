//! Security headers: the Content-Security-Policy of the SPA and of the development issuer's
//! pages, and nosniff, frame and referrer headers everywhere; `no-store` on the api's answers.

mod common;

use common::{Options, TestApp};
use reqwest::header::HeaderMap;
use sqlx::PgPool;

/// A throw-away built SPA: an index page and one hashed asset.
struct Dist(std::path::PathBuf);

impl Dist {
    fn new() -> Self {
        let dir = std::env::temp_dir().join(format!("spreekkamer-edge-dist-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(dir.join("assets")).unwrap();
        std::fs::write(dir.join("index.html"), "<!doctype html><div id=root></div><script type=module src=/assets/index-abc.js></script>")
            .unwrap();
        std::fs::write(dir.join("assets/index-abc.js"), "console.log(1)").unwrap();
        Self(dir)
    }
}

impl Drop for Dist {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> &'a str {
    headers.get(name).map(|v| v.to_str().unwrap()).unwrap_or_else(|| panic!("no {name} header"))
}

/// The directives of a policy, by name.
fn directives(csp: &str) -> Vec<(String, Vec<String>)> {
    csp.split(';')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| {
            let mut parts = d.split_whitespace().map(str::to_owned);
            (parts.next().unwrap(), parts.collect())
        })
        .collect()
}

fn directive(csp: &str, name: &str) -> Vec<String> {
    directives(csp).into_iter().find(|(n, _)| n == name).map(|(_, v)| v).unwrap_or_else(|| panic!("no {name} in {csp}"))
}

fn assert_common(headers: &HeaderMap) {
    assert_eq!(header(headers, "x-content-type-options"), "nosniff");
    assert_eq!(header(headers, "x-frame-options"), "DENY");
    assert_eq!(header(headers, "referrer-policy"), "strict-origin-when-cross-origin");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_spa_gets_a_strict_policy_naming_its_socket_issuer_and_hand_off_origins(pool: PgPool) {
    let dist = Dist::new();
    let env = vec![("APP_RECORD_SYSTEM_REDIRECT_ORIGINS", "https://his.example.nl, https://his2.example.nl:8443".to_owned())];
    let app = TestApp::spawn_with(pool, Options { env, web_dist: Some(dist.0.clone()) }).await;
    for path in ["/", "/consult/01J0000000000000000000000", "/templates"] {
        let response = app.http.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 200);
        let headers = response.headers();
        assert_common(headers);
        let csp = header(headers, "content-security-policy");
        assert_eq!(directive(csp, "default-src"), ["'self'"]);
        assert_eq!(directive(csp, "script-src"), ["'self'"], "no inline script, no eval");
        assert_eq!(directive(csp, "style-src"), ["'self'"]);
        assert_eq!(directive(csp, "object-src"), ["'none'"]);
        assert_eq!(directive(csp, "frame-ancestors"), ["'none'"]);
        assert_eq!(directive(csp, "base-uri"), ["'self'"]);
        let connect = directive(csp, "connect-src");
        let ws = app.base.replace("http://", "ws://");
        assert!(connect.contains(&"'self'".to_owned()) && connect.contains(&ws), "{connect:?}");
        let form = directive(csp, "form-action");
        for origin in ["'self'", "https://his.example.nl", "https://his2.example.nl:8443"] {
            assert!(form.contains(&origin.to_owned()), "{origin} in {form:?}");
        }
        assert!(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"), "{csp}");
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn a_real_issuer_may_be_reached_from_the_spa(pool: PgPool) {
    // the issuer's origin is in connect-src (oidc-client-ts fetches its discovery and token
    // endpoints); the embedded issuer is this origin
    let dist = Dist::new();
    let app = TestApp::spawn_with(pool, Options { web_dist: Some(dist.0.clone()), ..Default::default() }).await;
    let config = api::config::Config {
        auth: api::auth::AuthConfig {
            issuer: "https://id.example.nl/realms/spreekkamer".parse().unwrap(),
            ..app.state.config.auth.clone()
        },
        ..(*app.state.config).clone()
    };
    let policies = format!("{:?}", api::edge::headers::Policies::new(&config));
    assert!(policies.contains("https://id.example.nl"), "{policies}");
    let response = app.http.get(app.url("/")).send().await.unwrap();
    let connect = directive(header(response.headers(), "content-security-policy"), "connect-src");
    assert!(connect.contains(&app.base), "{connect:?}");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_issuer_page_allows_its_own_stylesheet_by_hash_and_its_redirect_origins_for_forms(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let (_, challenge) = common::pkce_pair();
    let redirect = format!("{}/auth/callback", app.base);
    let response = app
        .http
        .get(app.url("/oidc/auth"))
        .query(&[
            ("client_id", "spreekkamer-web"),
            ("redirect_uri", redirect.as_str()),
            ("response_type", "code"),
            ("scope", "openid"),
            ("state", "s"),
            ("code_challenge", challenge.as_str()),
            ("code_challenge_method", "S256"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let headers = response.headers().clone();
    assert_common(&headers);
    let csp = header(&headers, "content-security-policy").to_owned();
    let page = response.text().await.unwrap();
    let style = page.split("<style>").nth(1).unwrap().split("</style>").next().unwrap();
    use base64::Engine;
    use sha2::Digest;
    let hash = format!("'sha256-{}'", base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(style.as_bytes())));
    assert_eq!(directive(&csp, "style-src"), [hash]);
    assert_eq!(directive(&csp, "default-src"), ["'none'"]);
    let form = directive(&csp, "form-action");
    assert!(
        form.contains(&"'self'".to_owned()) && form.contains(&app.base) && form.contains(&"http://localhost:5173".to_owned()),
        "{form:?}"
    );
    assert!(!page.contains("<script"), "the page needs no script");
}

#[sqlx::test(migrations = "../migrations")]
async fn api_answers_are_never_stored_and_carry_the_headers_too(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let token = app.access_token_for("huisarts@example.nl").await;
    for response in [
        app.get_with_token("/api/user/me", &token).await,
        app.http.get(app.url("/api/public/config")).send().await.unwrap(),
        app.http.get(app.url("/api/user/me")).send().await.unwrap(),
        app.http.get(app.url("/api/nothing-here")).send().await.unwrap(),
        app.http.get(app.url("/api/integration/record-system/consult/%00/redirect")).send().await.unwrap(),
    ] {
        let headers = response.headers();
        assert_common(headers);
        assert_eq!(header(headers, "cache-control"), "no-store", "{}", response.url());
        let csp = header(headers, "content-security-policy");
        assert_eq!(directive(csp, "default-src"), ["'none'"]);
        assert_eq!(directive(csp, "frame-ancestors"), ["'none'"]);
    }
    let tokens = app
        .http
        .post(app.url("/oidc/token"))
        .form(&[("grant_type", "password"), ("username", "huisarts@example.nl"), ("client_id", "spreekkamer-web")])
        .send()
        .await
        .unwrap();
    assert_eq!(header(tokens.headers(), "cache-control"), "no-store");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_agreement_pdf_keeps_no_policy_that_would_stop_a_pdf_viewer(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let response = app.http.get(app.url("/files/overeenkomst_v1.pdf")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_common(response.headers());
    assert!(response.headers().get("content-security-policy").is_none());
}
