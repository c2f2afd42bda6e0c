//! The api's contract, generated from the handlers and served at `/api/openapi.json`.
//!
//! `api/openapi.json` is its committed snapshot: a test fails when the two differ, and the SPA
//! generates its TypeScript types from the snapshot.

use axum::routing::get;
use axum::{Json, Router};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::routes::{
    consults, feedback, health, icpc, jobs as job_routes, medcat, personalize, public, record_system, summaries, templates, user,
};
use crate::state::AppState;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Spreekkamer API",
        description = "The api of Spreekkamer, spoken consult notes for Dutch healthcare professionals.",
        version = "1"
    ),
    paths(
        consults::create_consult,
        consults::read_consult,
        consults::update_consult,
        consults::delete_consult,
        consults::render_consult,
        consults::open_session,
        consults::open_beta_session,
        consults::is_helper_user,
        consults::set_helper_user,
        crate::speech::recording,
        summaries::v1,
        summaries::v1_with_examples,
        summaries::v2,
        summaries::v2_turbo,
        summaries::electronic,
        feedback::send,
        health::healthz,
        health::readyz,
        health::metrics,
        icpc::codes,
        icpc::predict,
        job_routes::job,
        medcat::medcatify,
        medcat::medicine_shortage,
        medcat::list_shortages,
        medcat::upload_shortages,
        personalize::list,
        personalize::save,
        personalize::remove,
        personalize::from_feedback,
        public::config,
        record_system::hand_off,
        record_system::episodes,
        record_system::redirect,
        templates::list_entries,
        templates::create_entry,
        templates::count_entries,
        templates::query_entries,
        templates::get_entry,
        templates::update_entry,
        templates::delete_entry,
        templates::list_groups,
        templates::create_group,
        templates::count_groups,
        templates::query_groups,
        templates::get_group,
        templates::update_group,
        templates::delete_group,
        user::me,
        user::onboarding,
        user::save_onboarding,
        user::accept_agreement,
        user::agreement_pdf
    ),
    components(schemas(crate::error::ErrorBody)),
    modifiers(&BearerAuth),
    tags(
        (name = "health", description = "Liveness, readiness and metrics"),
        (name = "consult", description = "Consults, live sessions and their renderings"),
        (name = "cms", description = "Staff calls"),
        (name = "summaries", description = "Notes made from transcripts (as jobs)"),
        (name = "feedback", description = "Feedback from the widget on every page"),
        (name = "icpc", description = "The ICPC list and coding suggestions"),
        (name = "jobs", description = "Background jobs the caller started"),
        (name = "medcat", description = "Text analysis: medicines and problems in a text, medicine shortages"),
        (name = "public", description = "Calls that need no sign-in"),
        (name = "templates", description = "Template entries and groups"),
        (name = "user", description = "The signed-in user"),
    )
)]
pub struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("JWT").build()),
        );
    }
}

/// The document as committed in `api/openapi.json` (pretty JSON, trailing newline).
pub fn document() -> String {
    let mut text = ApiDoc::openapi().to_pretty_json().unwrap_or_default();
    text.push('\n');
    text
}

pub fn router() -> Router<AppState> {
    Router::new().route("/api/openapi.json", get(|| async { Json(ApiDoc::openapi()) }))
}
