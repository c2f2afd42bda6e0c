//! The built SPA is served with history fallback; api paths never fall through to it.

mod common;

use common::{Options, TestApp};
use sqlx::PgPool;

fn dist() -> tempdir::Dist {
    tempdir::Dist::new()
}

mod tempdir {
    use std::path::PathBuf;

    /// A throw-away `web/dist` with an index page and one hashed asset.
    pub struct Dist(pub PathBuf);

    impl Dist {
        pub fn new() -> Self {
            let dir = std::env::temp_dir().join(format!("spreekkamer-dist-{}", uuid::Uuid::new_v4()));
            std::fs::create_dir_all(dir.join("assets")).unwrap();
            std::fs::write(dir.join("index.html"), "<!doctype html><div id=root>Spreekkamer</div>").unwrap();
            std::fs::write(dir.join("assets/index-abc123.js"), "console.log(1)").unwrap();
            Self(dir)
        }
    }

    impl Drop for Dist {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn deep_links_get_the_index_page(pool: PgPool) {
    let dist = dist();
    let app = TestApp::spawn_with(pool, Options { web_dist: Some(dist.0.clone()), ..Options::default() }).await;
    for path in ["/", "/status?bron=e2e", "/audioconsult/beta/soap/poh-ggz", "/auth/callback?code=x&state=y"] {
        let response = app.http.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(response.headers()["cache-control"], "no-cache", "{path}");
        assert!(response.text().await.unwrap().contains("Spreekkamer"), "{path}");
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn hashed_assets_are_cached_for_long(pool: PgPool) {
    let dist = dist();
    let app = TestApp::spawn_with(pool, Options { web_dist: Some(dist.0.clone()), ..Options::default() }).await;
    let response = app.http.get(app.url("/assets/index-abc123.js")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.headers()["cache-control"].to_str().unwrap().contains("immutable"));
    assert_eq!(app.http.get(app.url("/assets/missing.js")).send().await.unwrap().status(), 404);
}

#[sqlx::test(migrations = "../migrations")]
async fn unknown_api_paths_are_json_404s(pool: PgPool) {
    let dist = dist();
    let app = TestApp::spawn_with(pool, Options { web_dist: Some(dist.0.clone()), ..Options::default() }).await;
    let response = app.http.get(app.url("/api/does-not-exist")).send().await.unwrap();
    assert_eq!(response.status(), 404);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["error"], "not_found");
}

#[sqlx::test(migrations = "../migrations")]
async fn without_a_built_spa_the_page_says_how_to_build_it(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let response = app.http.get(app.url("/")).send().await.unwrap();
    assert_eq!(response.status(), 503);
    assert!(response.text().await.unwrap().contains("make run"));
}
