//! Staff calls of Organisaties and Organisatie abonnementen under `/api/cms` (spec §2.3, §7.2):
//! main organisations, their sub-organisations with users, HIS and terms, the organisation
//! subscriptions with their duplicates and problems, and the sync (`tribe`). Every change is in
//! the audit log, in its transaction.

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use domain::audit;
use domain::billing::{dutch_date, today};
use domain::cms::organisations::{
    self as orgs, ActiveFilter, Added, CmsOrganisationSubscription, MainOrganisation, OrganisationInput, OrganisationProblem,
    SubOrganisation, Term,
};
use domain::cms::{PAGE_SIZE, parse_date};
use jobs::kinds::SendEmail;
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::{audited, checked_page, checked_search};
use crate::auth::Staff;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Json, Query};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/cms/organizations/all", get(organisations_page))
        .route("/api/cms/organization", post(save_organisation))
        .route("/api/cms/organizatioDelete/{organization_id}", post(delete_organisation))
        .route("/api/cms/suborganizations/{main_organization_id}", get(sub_organisations))
        .route("/api/cms/suborganizationsWithUsers/{sub_organization_id}", get(sub_organisation))
        .route("/api/cms/suborganizationLinkingtoMain/{main_organization_id}", post(save_sub_organisation))
        .route("/api/cms/suborganizatioDelete/{main_organization_id}/{sub_organization_id}", post(delete_sub_organisation))
        .route("/api/cms/suborganizationLinkingToUsers/{main_organization_id}/{sub_organization_id}", post(add_sub_organisation_user))
        .route("/api/cms/suborganizationAdminUser/{sub_organization_id}/{user_id}", post(set_sub_organisation_admin))
        .route("/api/cms/suborganizationUserDelete/{user_id}", post(remove_sub_organisation_user))
        .route("/api/cms/suborganizationUserEmailDelete/{email}", post(remove_sub_organisation_email))
        .route("/api/cms/setHISforOrganization/{sub_organization_id}", post(set_sub_organisation_his))
        .route("/api/cms/setDurationForMainOrganization/{main_organization_id}", post(set_main_duration))
        .route("/api/cms/setDurationForSubOrganization/{sub_organization_id}", post(set_sub_duration))
        .route("/api/cms/organizationsubscriptions/all", get(organisation_subscriptions_page))
        .route("/api/cms/deleteOrganizationSubscription", post(delete_subscription))
        .route("/api/cms/organizationsubscription/active/{id}", post(set_subscription_active))
        .route("/api/cms/organizationsubscription/valid/{id}", post(set_subscription_valid_until))
        .route("/api/cms/getAllOrganizationSubscriptionsProblems/email", get(problems_email))
        .route("/api/cms/getAllOrganizationSubscriptionsProblems/linked", get(problems_linked))
        .route("/api/cms/tribe", post(sync_organisations))
}

fn entry(action: audit::Action, subject_type: &'static str, subject_id: String, organisation: Option<Uuid>, about: String) -> audit::Entry {
    audit::Entry {
        action,
        subject_type,
        subject_id,
        concerns_user_id: None,
        concerns_organisation_id: organisation,
        changes: json!({}),
        about,
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OrganisationsQuery {
    /// From 0.
    #[serde(default)]
    #[param(minimum = 0, maximum = 100000)]
    pub page: i64,
    /// Alle, Actieve or Inactieve.
    #[serde(default)]
    pub filter: ActiveFilter,
    /// A part of the name or AGB code.
    #[param(max_length = 200)]
    pub search: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrganisationPage {
    /// By name.
    pub rows: Vec<MainOrganisation>,
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
}

/// Staff: the main organisations ('Hoofdorganisaties') by name, 50 a page.
#[utoipa::path(get, path = "/api/cms/organizations/all", tag = "cms", security(("bearer" = [])), params(OrganisationsQuery),
    responses((status = 200, body = OrganisationPage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn organisations_page(
    State(state): State<AppState>,
    _staff: Staff,
    Query(q): Query<OrganisationsQuery>,
) -> Result<Json<OrganisationPage>, ApiError> {
    let page = checked_page(q.page)?;
    let search = checked_search(q.search.as_deref())?;
    let (rows, total) = orgs::page(&state.db, q.filter, search.as_deref(), page, PAGE_SIZE).await?;
    Ok(Json(OrganisationPage { rows, total, page, page_size: PAGE_SIZE }))
}

/// Staff: adds a main organisation (no `id`) or changes one (the inline edit), checked in the
/// spec's order; without dates on main level its valid-until is 1970-01-01.
#[utoipa::path(post, path = "/api/cms/organization", tag = "cms", security(("bearer" = [])), request_body = OrganisationInput,
    responses((status = 200, body = MainOrganisation), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn save_organisation(
    State(state): State<AppState>,
    staff: Staff,
    Json(input): Json<OrganisationInput>,
) -> Result<Json<MainOrganisation>, ApiError> {
    orgs::check_main(&input)?;
    let saved = audited(&state, &staff, async |tx| {
        let changed = orgs::save_main(tx, &input, today()).await?;
        let a = &changed.after;
        let mut e = entry(audit::Action::SaveOrganisation, "organisation", a.id.to_string(), Some(a.id), a.organization_name.clone());
        e.changes = json!({ "before": changed.before.as_ref().map(|b| json!(b)), "after": a });
        Ok((changed.after, e))
    })
    .await?;
    Ok(Json(saved))
}

/// Staff: deletes a main organisation with its sub-organisations, their users' links and their
/// organisation subscriptions (the SPA asks for confirmation first).
#[utoipa::path(post, path = "/api/cms/organizatioDelete/{organization_id}", tag = "cms", security(("bearer" = [])),
    params(("organization_id" = Uuid, Path, description = "The main organisation")),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn delete_organisation(State(state): State<AppState>, staff: Staff, Path(id): Path<Uuid>) -> Result<StatusCode, ApiError> {
    audited(&state, &staff, async |tx| {
        let gone = orgs::delete_main(tx, id).await?;
        let mut e = entry(audit::Action::DeleteOrganisation, "organisation", id.to_string(), Some(id), gone.organization_name.clone());
        e.changes = json!({ "before": gone });
        Ok(((), e))
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Staff: the sub-organisations of a main organisation with their users.
#[utoipa::path(get, path = "/api/cms/suborganizations/{main_organization_id}", tag = "cms", security(("bearer" = [])),
    params(("main_organization_id" = Uuid, Path, description = "The main organisation")),
    responses((status = 200, body = Vec<SubOrganisation>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
pub async fn sub_organisations(
    State(state): State<AppState>,
    _staff: Staff,
    Path(main): Path<Uuid>,
) -> Result<Json<Vec<SubOrganisation>>, ApiError> {
    let mut conn = state.db.acquire().await?;
    Ok(Json(orgs::subs_of(&mut conn, main).await?))
}

/// Staff: one sub-organisation with its users (accounts and addresses without one).
#[utoipa::path(get, path = "/api/cms/suborganizationsWithUsers/{sub_organization_id}", tag = "cms", security(("bearer" = [])),
    params(("sub_organization_id" = Uuid, Path, description = "The sub-organisation")),
    responses((status = 200, body = SubOrganisation), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
pub async fn sub_organisation(
    State(state): State<AppState>,
    _staff: Staff,
    Path(level): Path<Uuid>,
) -> Result<Json<SubOrganisation>, ApiError> {
    let mut conn = state.db.acquire().await?;
    Ok(Json(orgs::sub(&mut conn, level).await?))
}

/// Staff: adds a sub-organisation to a main organisation (no `id`; a PRACTICE unless a type is
/// given) or changes one; its own term is required while the main organisation keeps none.
#[utoipa::path(post, path = "/api/cms/suborganizationLinkingtoMain/{main_organization_id}", tag = "cms", security(("bearer" = [])),
    params(("main_organization_id" = Uuid, Path, description = "The main organisation")), request_body = OrganisationInput,
    responses((status = 200, body = SubOrganisation), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn save_sub_organisation(
    State(state): State<AppState>,
    staff: Staff,
    Path(main): Path<Uuid>,
    Json(input): Json<OrganisationInput>,
) -> Result<Json<SubOrganisation>, ApiError> {
    let saved = audited(&state, &staff, async |tx| {
        let sub = orgs::save_sub(tx, main, &input, today()).await?;
        let mut e =
            entry(audit::Action::SaveSubOrganisation, "sub_organisation", sub.id.to_string(), Some(main), sub.organization_name.clone());
        e.changes = json!({ "after": { "name": sub.organization_name, "agbCode": sub.agb_code, "type": sub.kind,
                                       "startDate": sub.start_date, "validUntil": sub.valid_until } });
        Ok((sub, e))
    })
    .await?;
    Ok(Json(saved))
}

/// Staff: deletes a sub-organisation of a main organisation, with its users' links and
/// organisation subscriptions.
#[utoipa::path(post, path = "/api/cms/suborganizatioDelete/{main_organization_id}/{sub_organization_id}", tag = "cms", security(("bearer" = [])),
    params(("main_organization_id" = Uuid, Path, description = "The main organisation"),
           ("sub_organization_id" = Uuid, Path, description = "The sub-organisation")),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn delete_sub_organisation(
    State(state): State<AppState>,
    staff: Staff,
    Path((main, level)): Path<(Uuid, Uuid)>,
) -> Result<StatusCode, ApiError> {
    audited(&state, &staff, async |tx| {
        let gone = orgs::delete_sub(tx, main, level, today()).await?;
        let about = gone.organization_name.clone();
        let mut e = entry(audit::Action::DeleteSubOrganisation, "sub_organisation", level.to_string(), Some(main), about);
        e.changes = json!({ "before": gone });
        Ok(((), e))
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AddUserRequest {
    /// Lower-cased before it is stored.
    #[serde(default)]
    pub email: String,
    /// Off by default.
    #[serde(default)]
    pub admin: bool,
    /// On by default.
    #[serde(default = "yes")]
    pub send_email: bool,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserAdded {
    pub email: String,
    /// The account it was linked to; none for an address without an account (linked on its first
    /// sign-in).
    pub user_id: Option<String>,
}

/// Staff: adds an address to a sub-organisation, with an organisation subscription of it (spec
/// §5: 'Email niet ingevuld', 'Email bevat spaties', 'Gebruiker is al toegevoegd'). Unless
/// `sendEmail` is false, an address without an account gets an invitation to sign in and an
/// account a notice of its access; an admin also gets the admin letter.
#[utoipa::path(post, path = "/api/cms/suborganizationLinkingToUsers/{main_organization_id}/{sub_organization_id}", tag = "cms",
    security(("bearer" = [])),
    params(("main_organization_id" = Uuid, Path, description = "The main organisation"),
           ("sub_organization_id" = Uuid, Path, description = "The sub-organisation")), request_body = AddUserRequest,
    responses((status = 200, body = UserAdded), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn add_sub_organisation_user(
    State(state): State<AppState>,
    staff: Staff,
    Path((main, level)): Path<(Uuid, Uuid)>,
    Json(body): Json<AddUserRequest>,
) -> Result<Json<UserAdded>, ApiError> {
    orgs::check_email(&body.email)?;
    let (added, letters) = audited(&state, &staff, async |tx| {
        let (added, email) = orgs::add_user(tx, main, level, &body.email, body.admin, today()).await?;
        let (user_id, letter) = match &added {
            Added::Account(id) => (Some(id.clone()), SendEmail::organisation_access(level, id)),
            Added::Address(address) => (None, SendEmail::organisation_invitation(level, address)),
        };
        let mut letters = Vec::new();
        if body.send_email {
            letters.push(jobs::enqueue(tx, letter.caused_by(staff.user.id.clone())).await?);
        }
        if body.admin
            && let Some(id) = &user_id
        {
            letters.push(jobs::enqueue(tx, SendEmail::organisation_admin(level, id).caused_by(staff.user.id.clone())).await?);
        }
        let mut e = entry(audit::Action::AddOrganisationUser, "sub_organisation", level.to_string(), Some(main), email.clone());
        e.concerns_user_id = user_id.clone();
        e.changes =
            json!({ "after": { "email": email, "admin": body.admin, "account": user_id.is_some(), "registrationEmail": body.send_email } });
        Ok(((UserAdded { email, user_id }, letters), e))
    })
    .await?;
    state.jobs.push_committed(&letters, "organisation e-mail").await;
    Ok(Json(added))
}

/// Staff: gives (`true`) or takes (`false`) a sub-organisation's admin flag of a user; a change
/// sends the user an e-mail that says what it means.
#[utoipa::path(post, path = "/api/cms/suborganizationAdminUser/{sub_organization_id}/{user_id}", tag = "cms", security(("bearer" = [])),
    params(("sub_organization_id" = Uuid, Path, description = "The sub-organisation"), ("user_id" = String, Path, description = "The user")),
    request_body(content = bool, content_type = "application/json"),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
pub async fn set_sub_organisation_admin(
    State(state): State<AppState>,
    staff: Staff,
    Path((level, user_id)): Path<(Uuid, String)>,
    Json(admin): Json<bool>,
) -> Result<StatusCode, ApiError> {
    let letter = audited(&state, &staff, async |tx| {
        let (email, changed) = orgs::set_admin(tx, level, &user_id, admin).await?;
        // the user hears of a change, with what it means
        let letter = match changed {
            true => Some(jobs::enqueue(tx, SendEmail::organisation_admin(level, &user_id).caused_by(staff.user.id.clone())).await?),
            false => None,
        };
        let about = format!("{email} {}", if admin { "aan" } else { "uit" });
        let mut e = entry(audit::Action::SetOrganisationAdmin, "sub_organisation", level.to_string(), None, about);
        e.concerns_user_id = Some(user_id.clone());
        e.changes = json!({ "after": { "isAdminUser": admin } });
        Ok((letter, e))
    })
    .await?;
    state.jobs.push_committed(letter.as_slice(), "organisation e-mail").await;
    Ok(StatusCode::NO_CONTENT)
}

/// Staff: removes an account from a sub-organisation (the body is the sub-organisation's id),
/// with its organisation subscription of it.
#[utoipa::path(post, path = "/api/cms/suborganizationUserDelete/{user_id}", tag = "cms", security(("bearer" = [])),
    params(("user_id" = String, Path, description = "The user")), request_body(content = Uuid, content_type = "application/json"),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
pub async fn remove_sub_organisation_user(
    State(state): State<AppState>,
    staff: Staff,
    Path(user_id): Path<String>,
    Json(level): Json<Uuid>,
) -> Result<StatusCode, ApiError> {
    audited(&state, &staff, async |tx| {
        let email = orgs::remove_user(tx, level, &user_id).await?;
        let mut e = entry(
            audit::Action::RemoveOrganisationUser,
            "sub_organisation",
            level.to_string(),
            None,
            format!("{email} uit de suborganisatie"),
        );
        e.concerns_user_id = Some(user_id.clone());
        Ok(((), e))
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Staff: removes an address without an account from a sub-organisation (the body is the
/// sub-organisation's id).
#[utoipa::path(post, path = "/api/cms/suborganizationUserEmailDelete/{email}", tag = "cms", security(("bearer" = [])),
    params(("email" = String, Path, description = "The address")), request_body(content = Uuid, content_type = "application/json"),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
pub async fn remove_sub_organisation_email(
    State(state): State<AppState>,
    staff: Staff,
    Path(email): Path<String>,
    Json(level): Json<Uuid>,
) -> Result<StatusCode, ApiError> {
    audited(&state, &staff, async |tx| {
        let email = orgs::remove_email(tx, level, &email).await?;
        let e = entry(
            audit::Action::RemoveOrganisationUser,
            "sub_organisation",
            level.to_string(),
            None,
            format!("{email} uit de suborganisatie"),
        );
        Ok(((), e))
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Staff: sets a sub-organisation's HIS: the body is a HIS id, or `null` for none.
#[utoipa::path(post, path = "/api/cms/setHISforOrganization/{sub_organization_id}", tag = "cms", security(("bearer" = [])),
    params(("sub_organization_id" = Uuid, Path, description = "The sub-organisation")),
    request_body(content = Option<Uuid>, description = "The HIS id, or null for none"),
    responses((status = 200, body = SubOrganisation), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn set_sub_organisation_his(
    State(state): State<AppState>,
    staff: Staff,
    Path(level): Path<Uuid>,
    body: Option<Json<Option<Uuid>>>,
) -> Result<Json<SubOrganisation>, ApiError> {
    // no body is none too
    let his = body.and_then(|Json(id)| id);
    let sub = audited(&state, &staff, async |tx| {
        let (sub, before) = orgs::set_his(tx, level, his).await?;
        let name = |h: &Option<domain::cms::users::His>| h.as_ref().map_or("Geen".to_owned(), |h| h.name.clone());
        let about = format!("{} op {} (was {})", sub.organization_name, name(&sub.his), name(&before));
        let mut e = entry(audit::Action::SetOrganisationHis, "sub_organisation", level.to_string(), Some(sub.organisation_id), about);
        e.changes = json!({ "before": { "his": name(&before) }, "after": { "his": name(&sub.his) } });
        Ok((sub, e))
    })
    .await?;
    Ok(Json(sub))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DurationRequest {
    /// `yyyy-mm-dd`, optional: empty starts at once.
    pub start_date: Option<String>,
    /// `yyyy-mm-dd`.
    pub end_date: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DurationSet {
    pub start_date: Option<chrono::NaiveDate>,
    pub end_date: Option<chrono::NaiveDate>,
    /// Organisation subscriptions switched on or off, or given the new term, by it.
    pub subscriptions_changed: u64,
}

fn term_text(t: &Term) -> String {
    let day = |d: Option<chrono::NaiveDate>| d.map_or("-".to_owned(), dutch_date);
    format!("{} tot en met {}", day(t.start), day(t.end))
}

fn term_entry(kind: &'static str, id: Uuid, c: &orgs::TermChanged) -> audit::Entry {
    let mut e = entry(
        audit::Action::SetOrganisationTerm,
        kind,
        id.to_string(),
        Some(c.organisation_id),
        format!("{}: {} (was {})", c.name, term_text(&c.after), term_text(&c.before)),
    );
    e.changes = json!({ "before": { "startDate": c.before.start, "endDate": c.before.end },
                        "after": { "startDate": c.after.start, "endDate": c.after.end } });
    e
}

/// Staff: the term of a main organisation (from now on kept on the main level for all its
/// sub-organisations); linked organisation subscriptions follow at once.
#[utoipa::path(post, path = "/api/cms/setDurationForMainOrganization/{main_organization_id}", tag = "cms", security(("bearer" = [])),
    params(("main_organization_id" = Uuid, Path, description = "The main organisation")), request_body = DurationRequest,
    responses((status = 200, body = DurationSet), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn set_main_duration(
    State(state): State<AppState>,
    staff: Staff,
    Path(main): Path<Uuid>,
    Json(body): Json<DurationRequest>,
) -> Result<Json<DurationSet>, ApiError> {
    let term = orgs::duration_term(body.start_date.as_deref(), body.end_date.as_deref())?;
    let set = audited(&state, &staff, async |tx| {
        let c = orgs::set_main_term(tx, main, term, today()).await?;
        Ok((
            DurationSet { start_date: term.start, end_date: term.end, subscriptions_changed: c.subscriptions },
            term_entry("organisation", main, &c),
        ))
    })
    .await?;
    Ok(Json(set))
}

/// Staff: the term of a sub-organisation (409 while its main organisation keeps the term);
/// linked organisation subscriptions follow at once.
#[utoipa::path(post, path = "/api/cms/setDurationForSubOrganization/{sub_organization_id}", tag = "cms", security(("bearer" = [])),
    params(("sub_organization_id" = Uuid, Path, description = "The sub-organisation")), request_body = DurationRequest,
    responses((status = 200, body = DurationSet), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn set_sub_duration(
    State(state): State<AppState>,
    staff: Staff,
    Path(level): Path<Uuid>,
    Json(body): Json<DurationRequest>,
) -> Result<Json<DurationSet>, ApiError> {
    let term = orgs::duration_term(body.start_date.as_deref(), body.end_date.as_deref())?;
    let set = audited(&state, &staff, async |tx| {
        let c = orgs::set_sub_term(tx, level, term, today()).await?;
        Ok((
            DurationSet { start_date: term.start, end_date: term.end, subscriptions_changed: c.subscriptions },
            term_entry("sub_organisation", level, &c),
        ))
    })
    .await?;
    Ok(Json(set))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct OrganisationSubscriptionsQuery {
    /// From 0.
    #[serde(default)]
    #[param(minimum = 0, maximum = 100000)]
    pub page: i64,
    /// 'Alleen actieve abonnementen'.
    #[serde(default)]
    pub active_only: bool,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrganisationSubscriptionPage {
    /// By description, sub-organisation name, then valid-until (latest first).
    pub rows: Vec<CmsOrganisationSubscription>,
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
}

/// Staff: the organisation subscriptions ('Abonnementen via organisatie'), 50 a page.
#[utoipa::path(get, path = "/api/cms/organizationsubscriptions/all", tag = "cms", security(("bearer" = [])), params(OrganisationSubscriptionsQuery),
    responses((status = 200, body = OrganisationSubscriptionPage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody)))]
pub async fn organisation_subscriptions_page(
    State(state): State<AppState>,
    _staff: Staff,
    Query(q): Query<OrganisationSubscriptionsQuery>,
) -> Result<Json<OrganisationSubscriptionPage>, ApiError> {
    let page = checked_page(q.page)?;
    let (rows, total) = orgs::subscriptions_page(&state.db, q.active_only, page, PAGE_SIZE).await?;
    Ok(Json(OrganisationSubscriptionPage { rows, total, page, page_size: PAGE_SIZE }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct DeleteSubscriptionQuery {
    pub organization_subscription_id: Uuid,
}

/// Staff: deletes a duplicate organisation subscription (another exists for the same user and
/// sub-organisation); anything else is 409 'Dit is geen dubbel ingevoerd abonnement, verwijder
/// de gebruiker via de Organisatie tab.'.
#[utoipa::path(post, path = "/api/cms/deleteOrganizationSubscription", tag = "cms", security(("bearer" = [])), params(DeleteSubscriptionQuery),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn delete_subscription(
    State(state): State<AppState>,
    staff: Staff,
    Query(q): Query<DeleteSubscriptionQuery>,
) -> Result<StatusCode, ApiError> {
    let id = q.organization_subscription_id;
    audited(&state, &staff, async |tx| {
        let gone = orgs::delete_duplicate(tx, id).await?;
        let about =
            format!("van {} ({})", gone.user_email.clone().unwrap_or_default(), gone.sub_organization_name.clone().unwrap_or_default());
        let mut e = entry(audit::Action::DeleteOrganisationSubscription, "organisation_subscription", id.to_string(), None, about);
        e.concerns_user_id = gone.user_id.clone();
        e.changes = json!({ "before": gone });
        Ok(((), e))
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The audit entry of a change to an organisation subscription: `what` and `shown` say what changed.
fn subscription_entry<S: Serialize>(
    action: audit::Action,
    changed: &orgs::SubscriptionChanged,
    what: String,
    shown: impl Fn(&CmsOrganisationSubscription) -> S,
) -> audit::Entry {
    let s = &changed.after;
    let about = format!(
        "van {} ({}){what}",
        s.user_email.as_deref().unwrap_or("-"),
        s.sub_organization_name.as_deref().unwrap_or(&s.organization_name)
    );
    let mut e = entry(action, "organisation_subscription", s.id.to_string(), None, about);
    e.concerns_user_id = s.user_id.clone();
    e.changes = audit::before_after(&changed.before, &changed.after, shown);
    e
}

fn yes_no(b: bool) -> &'static str {
    if b { "ja" } else { "nee" }
}

/// Staff: switches an organisation subscription on or off (the body is `true` or `false`); one
/// whose term has not started or is past stays off. The organisation's term no longer switches
/// one that staff switched off back on.
#[utoipa::path(post, path = "/api/cms/organizationsubscription/active/{id}", tag = "cms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The organisation subscription")), request_body(content = bool, content_type = "application/json"),
    responses((status = 200, body = CmsOrganisationSubscription), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn set_subscription_active(
    State(state): State<AppState>,
    staff: Staff,
    Path(id): Path<Uuid>,
    Json(active): Json<bool>,
) -> Result<Json<CmsOrganisationSubscription>, ApiError> {
    let after = audited(&state, &staff, async |tx| {
        let changed = orgs::set_subscription_active(tx, id, active, today()).await?;
        let what = format!(" op {} (was {})", yes_no(changed.after.active), yes_no(changed.before.active));
        let entry = subscription_entry(
            audit::Action::SetOrganisationSubscriptionActive,
            &changed,
            what,
            |s| json!({ "active": s.active, "switchedOff": s.switched_off }),
        );
        Ok((changed.after, entry))
    })
    .await?;
    Ok(Json(after))
}

/// Staff: gives an organisation subscription a last day of its own (the body is a `yyyy-mm-dd`
/// string; a day in the past switches it off), or, with an empty string, lets it follow its
/// organisation's term again.
#[utoipa::path(post, path = "/api/cms/organizationsubscription/valid/{id}", tag = "cms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The organisation subscription")),
    request_body(content = String, content_type = "application/json"),
    responses((status = 200, body = CmsOrganisationSubscription), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn set_subscription_valid_until(
    State(state): State<AppState>,
    staff: Staff,
    Path(id): Path<Uuid>,
    Json(date): Json<String>,
) -> Result<Json<CmsOrganisationSubscription>, ApiError> {
    let valid_until = Some(date.trim()).filter(|d| !d.is_empty()).map(parse_date).transpose()?;
    let after = audited(&state, &staff, async |tx| {
        let changed = orgs::set_subscription_valid_until(tx, id, valid_until, today()).await?;
        let day = |d: Option<chrono::NaiveDate>| d.map_or("-".to_owned(), dutch_date);
        let own = changed.after.own_valid_until.map_or(" (volgt de organisatie)", |_| "");
        let what = format!(" naar {}{own} (was {})", day(changed.after.valid_until), day(changed.before.valid_until));
        let entry = subscription_entry(
            audit::Action::SetOrganisationSubscriptionValidUntil,
            &changed,
            what,
            |s| json!({ "validUntil": s.valid_until, "ownValidUntil": s.own_valid_until, "active": s.active }),
        );
        Ok((changed.after, entry))
    })
    .await?;
    Ok(Json(after))
}

/// Staff: addresses waiting in a sub-organisation although an account with that address exists
/// ('tribe' links them).
#[utoipa::path(get, path = "/api/cms/getAllOrganizationSubscriptionsProblems/email", tag = "cms", security(("bearer" = [])),
    responses((status = 200, body = Vec<OrganisationProblem>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn problems_email(State(state): State<AppState>, _staff: Staff) -> Result<Json<Vec<OrganisationProblem>>, ApiError> {
    Ok(Json(orgs::waiting_with_account(&state.db).await?))
}

/// Staff: accounts of an active sub-organisation without an active organisation subscription of it.
#[utoipa::path(get, path = "/api/cms/getAllOrganizationSubscriptionsProblems/linked", tag = "cms", security(("bearer" = [])),
    responses((status = 200, body = Vec<OrganisationProblem>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn problems_linked(State(state): State<AppState>, _staff: Staff) -> Result<Json<Vec<OrganisationProblem>>, ApiError> {
    Ok(Json(orgs::members_without_subscription(&state.db).await?))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Synced {
    /// Waiting addresses linked to their account.
    pub linked: u64,
    /// Organisation subscriptions given their organisation's term again.
    pub subscriptions_changed: u64,
}

/// Staff: the sync (`tribe`; the spec gives no details): every address waiting in a
/// sub-organisation that has an account now is linked to it, and every organisation's term is
/// written again on its sub-organisations and organisation subscriptions.
#[utoipa::path(post, path = "/api/cms/tribe", tag = "cms", security(("bearer" = [])),
    responses((status = 200, body = Synced), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn sync_organisations(State(state): State<AppState>, staff: Staff) -> Result<Json<Synced>, ApiError> {
    let synced = audited(&state, &staff, async |tx| {
        let (linked, changed) = domain::organisations::sync(tx, today()).await?;
        let about = format!("{linked} adressen gekoppeld, {changed} organisatie-abonnementen bijgewerkt");
        let mut e = entry(audit::Action::SyncOrganisations, "organisation", "all".to_owned(), None, about);
        e.changes = json!({ "after": { "linked": linked, "subscriptionsChanged": changed } });
        Ok((Synced { linked, subscriptions_changed: changed }, e))
    })
    .await?;
    Ok(Json(synced))
}
