//! The committed `api/openapi.json` is the contract the SPA's types come from: it must match
//! what the handlers describe. Run with `UPDATE_OPENAPI=1` to accept an intended change.

mod common;

use common::TestApp;
use sqlx::PgPool;

const SNAPSHOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.json");

#[test]
fn the_committed_openapi_document_matches_the_handlers() {
    let generated = api::openapi::document();
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(SNAPSHOT, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(SNAPSHOT).unwrap_or_default();
    assert!(
        committed == generated,
        "api/openapi.json is out of date; if the change is intended run `make openapi` and commit it"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn the_document_is_served(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let served: serde_json::Value = app.http.get(app.url("/api/openapi.json")).send().await.unwrap().json().await.unwrap();
    assert!(served["paths"]["/api/user/me"]["get"].is_object());
    assert_eq!(served["components"]["securitySchemes"]["bearer"]["scheme"], "bearer");
}
