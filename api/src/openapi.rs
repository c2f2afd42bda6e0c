//! The api's contract, generated from the handlers and served at `/api/openapi.json`.
//!
//! `api/openapi.json` is its committed snapshot: a test fails when the two differ, and the SPA
//! generates its TypeScript types from the snapshot.

use axum::routing::get;
use axum::{Json, Router};
use utoipa::openapi::path::Operation;
use utoipa::openapi::schema::{AllOfBuilder, AnyOfBuilder, ObjectBuilder, Schema, SchemaType, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{Content, Ref, RefOr, Required, Response};
use utoipa::{Modify, OpenApi};

use crate::routes::{
    cms, consults, feedback, health, icpc, invoices, jobs as job_routes, local_checkout, medcat, payment_webhook, personalize, public,
    record_system, subscription, summary_calls, templates, user,
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
        cms::access,
        cms::audit_log,
        cms::users::users_page,
        cms::users::his_all,
        cms::users::his_all_edit,
        cms::users::add_his,
        cms::users::delete_his,
        cms::users::his_users,
        cms::users::set_his_for_user,
        cms::users::organisation_subscriptions_of_user,
        cms::statistics::statistics_tiles,
        cms::statistics::statistics_daily,
        cms::statistics::get_active_users,
        cms::statistics::get_amount_consults_today,
        cms::statistics::get_amount_new_users_today,
        cms::statistics::get_amount_organization_subscriptions,
        cms::statistics::get_amount_organization_subscriptions_active,
        cms::statistics::get_amount_tetra_consults_today,
        cms::statistics::get_amount_users,
        cms::jobs::job_problems,
        cms::jobs::job_overview,
        cms::jobs::retry_job,
        cms::organisations::organisations_page,
        cms::organisations::save_organisation,
        cms::organisations::delete_organisation,
        cms::organisations::sub_organisations,
        cms::organisations::sub_organisation,
        cms::organisations::save_sub_organisation,
        cms::organisations::delete_sub_organisation,
        cms::organisations::add_sub_organisation_user,
        cms::organisations::set_sub_organisation_admin,
        cms::organisations::remove_sub_organisation_user,
        cms::organisations::remove_sub_organisation_email,
        cms::organisations::set_sub_organisation_his,
        cms::organisations::set_main_duration,
        cms::organisations::set_sub_duration,
        cms::organisations::organisation_subscriptions_page,
        cms::organisations::delete_subscription,
        cms::organisations::set_subscription_active,
        cms::organisations::set_subscription_valid_until,
        cms::organisations::problems_email,
        cms::organisations::problems_linked,
        cms::organisations::sync_organisations,
        cms::subscriptions::all_subscriptions,
        cms::subscriptions::subscription_problems,
        cms::subscriptions::subscriptions_of_user,
        cms::subscriptions::set_active,
        cms::subscriptions::set_valid_until,
        cms::subscriptions::cancel,
        cms::subscriptions::renew,
        cms::invoices::all_payments,
        cms::invoices::payments_of_user,
        cms::invoices::edit_payment,
        cms::statistics::get_amount_paid_subscriptions,
        cms::statistics::get_amount_paid_subscriptions_active,
        cms::statistics::get_amount_trial_subscriptions,
        cms::statistics::get_amount_trial_subscriptions_active,
        consults::create_consult,
        consults::read_consult,
        consults::update_consult,
        consults::save_note,
        consults::delete_consult,
        consults::render_consult,
        crate::consult::session::open_session,
        crate::consult::session::open_beta_session,
        consults::is_helper_user,
        consults::set_helper_user,
        crate::consult::session::recording,
        summary_calls::v1,
        summary_calls::v1_with_examples,
        summary_calls::v2,
        summary_calls::v2_turbo,
        summary_calls::electronic,
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
        subscription::get_tiers,
        subscription::apply_discount_code,
        subscription::cancel_subscription,
        subscription::create_trial_subscription,
        subscription::add_user,
        subscription::delete_user,
        invoices::get_invoice_download,
        invoices::download_pdf,
        cms::invoices::make_contact,
        cms::invoices::make_invoice,
        subscription::get_linked_subscription_for_user,
        subscription::get_payments_for_user,
        subscription::get_subscription_for_user,
        subscription::has_user_active_subscription,
        subscription::is_user_early_adopter,
        subscription::get_subscription_for_organization,
        subscription::get_payment_link,
        subscription::cancel_payment,
        payment_webhook::webhook,
        local_checkout::checkout_page,
        local_checkout::checkout_choose,
        subscription::get_organization_subscription_for_user,
        subscription::has_user_active_organization_subscription,
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
    // schemas named by a parameter's `value_type` only, which utoipa does not collect itself, and
    // the live consult socket's messages (no HTTP operation names them)
    components(schemas(
        crate::error::ErrorBody,
        summary_calls::FlavourParam,
        crate::consult::session::AudioModelName,
        crate::consult::socket::SpeechClientMessage,
        crate::consult::socket::Outgoing,
        domain::summary::SpecialistSection,
        domain::cms::organisations::ActiveFilter
    )),
    modifiers(&BearerAuth, &CommonResponses, &AtLeastOne, &OptionalBodies),
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
        (name = "subscriptions", description = "Subscriptions, payments and the payment provider's webhook"),
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

/// The operations a signed-in user may call before accepting the agreement (the 'Welkom' screen
/// and the app shell): every other one that needs sign-in answers 403 `agreement_required` first.
pub const WITHOUT_AGREEMENT: &[&str] = &["me", "accept_agreement"];

/// The answers that come from the edge and the sign-in check rather than from a handler, added to
/// every operation they apply to, so each handler's annotation lists only its own answers:
///
/// - needs sign-in: 401 (no, a bad or an expired token) and 403 (the agreement is not accepted;
///   added to the operation's own 403 when it has one);
/// - has a body: 400 (a NUL character, a body that is not JSON), 413 (larger than the call takes);
///   a JSON body also 415 (not sent as `application/json`) and 422 (JSON of the wrong shape);
/// - has parameters: 400 (a NUL character, a malformed query string or path segment);
/// - guarded by a rate limit (`edge::limit::Limited` on its route, or counted by its handler): the
///   annotation lists `(status = 429, body = ErrorBody)` and this gives it its meaning.
///
/// Each is the project's error JSON, `{error, message}` with a Dutch message.
struct CommonResponses;

impl Modify for CommonResponses {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for (path, item) in openapi.paths.paths.iter_mut() {
            let operations = [
                &mut item.get,
                &mut item.put,
                &mut item.post,
                &mut item.delete,
                &mut item.patch,
                &mut item.head,
                &mut item.options,
                &mut item.trace,
            ];
            for operation in operations.into_iter().filter_map(Option::as_mut) {
                add_common_responses(operation, crate::auth::gate::is_gated(path));
            }
        }
    }
}

fn add_common_responses(operation: &mut Operation, gated: bool) {
    let signed_in = operation.security.as_ref().is_some_and(|s| !s.is_empty());
    let agreement_free = operation.operation_id.as_deref().is_some_and(|id| WITHOUT_AGREEMENT.contains(&id));
    let body = operation.request_body.as_ref().map(|b| b.content.keys().any(|c| c == "application/json"));
    let parameters = operation.parameters.as_ref().is_some_and(|p| !p.is_empty());
    let responses = &mut operation.responses.responses;
    // a rate-limited call lists `(status = 429, body = ErrorBody)`; what it means is the same everywhere
    if let Some(RefOr::T(response)) = responses.get_mut("429")
        && response.description.is_empty()
    {
        response.description = RATE_LIMITED.to_owned();
    }
    let mut add = |status: &str, why: &str| match responses.get_mut(status) {
        Some(RefOr::T(response)) => {
            if response.description.is_empty() {
                response.description = "refused by the call itself (its description says when)".to_owned();
            }
            if !response.description.contains(why) {
                response.description = format!("{}; or {why}", response.description);
            }
        }
        Some(RefOr::Ref(_)) => {}
        None => {
            let mut response = Response::new(why);
            response.content.insert("application/json".to_owned(), Content::new(Some(Ref::from_schema_name("ErrorBody"))));
            responses.insert(status.to_owned(), RefOr::T(response));
        }
    };
    if signed_in {
        add("401", "not signed in, or the token is invalid or expired (`unauthorized`)");
        if !agreement_free {
            add("403", "the user has not accepted the agreement (`agreement_required`)");
        }
    }
    if gated {
        add("402", "the user has no active personal or organisation subscription (`subscription_required`)");
    }
    if let Some(json) = body {
        add("400", "the body is not readable (not JSON, or a NUL character)");
        add("413", "the body is larger than the call takes");
        if json {
            add("415", "the body is not sent as `application/json`");
            add("422", "the JSON does not have the expected shape");
        }
    }
    if parameters {
        add("400", "a parameter is malformed or holds a NUL character");
    }
    add("503", "every database connection stayed busy too long (`unavailable`; `Retry-After` says when to try again)");
}

const RATE_LIMITED: &str = "too many calls in the limit's period (`too_many_requests`; `Retry-After` says when to try again)";

/// Request bodies whose fields are each optional but not all at once, which a struct's derive
/// cannot say: the body must also match one of the alternatives (JSON Schema `anyOf`).
struct AtLeastOne;

impl Modify for AtLeastOne {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let text = |field: &str| {
            ObjectBuilder::new()
                .property(field, ObjectBuilder::new().schema_type(Type::String).pattern(Some(crate::fields::NOT_BLANK)))
                .required(field)
                .build()
        };
        let rating = ObjectBuilder::new()
            .property("rating", ObjectBuilder::new().schema_type(SchemaType::new(Type::Integer)))
            .required("rating")
            .build();
        // domain::feedback::check: 'Schrijf iets of geef een beoordeling.'
        at_least_one(openapi, "Feedback", vec![text("text"), rating]);
        // domain::soap_examples::Parts::checked: 'Geen tekst ingevuld'
        at_least_one(openapi, "PersonalizedSoapInput", ["subjective", "objective", "evaluation", "plan"].map(text).into());
    }
}

fn at_least_one(openapi: &mut utoipa::openapi::OpenApi, name: &str, alternatives: Vec<utoipa::openapi::schema::Object>) {
    let Some(schemas) = openapi.components.as_mut().map(|c| &mut c.schemas) else { return };
    let Some(schema) = schemas.remove(name) else { panic!("the document has no schema {name}") };
    let any_of = alternatives.into_iter().fold(AnyOfBuilder::new(), |any, alternative| any.item(Schema::Object(alternative)));
    schemas.insert(name.to_owned(), AllOfBuilder::new().item(schema).item(any_of).into());
}

/// Operations whose body may be left out, which an `Option<Json<_>>` body cannot tell utoipa
/// without also allowing a JSON `null` (which the handler refuses).
const OPTIONAL_BODIES: &[&str] = &["open_session", "open_beta_session"];

struct OptionalBodies;

impl Modify for OptionalBodies {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for item in openapi.paths.paths.values_mut() {
            for operation in [&mut item.get, &mut item.put, &mut item.post, &mut item.delete].into_iter().flatten() {
                if operation.operation_id.as_deref().is_some_and(|id| OPTIONAL_BODIES.contains(&id))
                    && let Some(body) = operation.request_body.as_mut()
                {
                    body.required = Some(Required::False);
                }
            }
        }
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
