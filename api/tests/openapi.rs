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

#[test]
fn every_operation_has_its_own_id() {
    // The SPA's generated client keys operations by id: two handlers with one name would give
    // one of them the other's parameters.
    let document: serde_json::Value = serde_json::from_str(&api::openapi::document()).unwrap();
    let mut seen = std::collections::BTreeMap::new();
    for (path, operations) in document["paths"].as_object().unwrap() {
        for (method, operation) in operations.as_object().unwrap() {
            if let Some(id) = operation.get("operationId").and_then(|v| v.as_str())
                && let Some(other) = seen.insert(id.to_owned(), format!("{method} {path}"))
            {
                panic!("operation id {id:?} is used by {other} and by {method} {path}");
            }
        }
    }
    assert!(seen.len() > 40);
}
