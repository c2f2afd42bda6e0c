//! Gebruikers and HIS: the users page, the HIS list and its changes, a user's HIS and a user's
//! organisation subscriptions (spec §7.2).

use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{delete, get, post};
use domain::audit;
use domain::billing::read::{OrganisationSubscription, organisation_for_user};
use domain::billing::today;
use domain::cms::PAGE_SIZE;
use domain::cms::his::{self as his_list, HisEdit, HisUser};
use domain::cms::users::{self, His, UserFilter, UserRow};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::{audited, checked_page, checked_search, read_entry};
use crate::auth::Staff;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Json, Query};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/cms/users/all", get(users_page))
        .route("/api/cms/his/all", get(his_all))
        .route("/api/cms/his/allEdit", get(his_all_edit))
        .route("/api/cms/HIS", post(add_his))
        .route("/api/cms/his/{id}", delete(delete_his))
        .route("/api/cms/getHISUserSubscriptions", get(his_users))
        .route("/api/cms/setHISforUser/{user_id}", post(set_his_for_user))
        .route("/api/cms/getOrganizationSubscriptionForCMSUser/{user_id}", get(organisation_subscriptions_of_user))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UsersQuery {
    /// From 0.
    #[serde(default)]
    #[param(minimum = 0, maximum = 100000)]
    pub page: i64,
    /// A part of the user id, the identity provider's id or the e-mail address (any case).
    #[param(max_length = 200)]
    pub search: Option<String>,
    /// A HIS by its exact name; `ALL` or none for every user.
    #[param(max_length = 200)]
    pub his: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserPage {
    /// Newest account first.
    pub rows: Vec<UserRow>,
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
}

/// Staff: the users (Gebruikers), newest account first, 50 a page.
#[utoipa::path(get, path = "/api/cms/users/all", tag = "cms", security(("bearer" = [])), params(UsersQuery),
    responses((status = 200, body = UserPage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn users_page(State(state): State<AppState>, _staff: Staff, Query(q): Query<UsersQuery>) -> Result<Json<UserPage>, ApiError> {
    let page = checked_page(q.page)?;
    let filter = UserFilter { search: checked_search(q.search.as_deref())?, his: checked_search(q.his.as_deref())? };
    let (rows, total) = users::page(&state.db, &filter, today(), page, PAGE_SIZE).await?;
    Ok(Json(UserPage { rows, total, page, page_size: PAGE_SIZE }))
}

/// Staff: every HIS, by name (the HIS filter and 'Zet HIS voor gebruiker').
#[utoipa::path(get, path = "/api/cms/his/all", tag = "cms", security(("bearer" = [])),
    responses((status = 200, body = Vec<His>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn his_all(State(state): State<AppState>, _staff: Staff) -> Result<Json<Vec<His>>, ApiError> {
    Ok(Json(users::his_list(&state.db).await?))
}

/// Staff: every HIS with its number of users (the HIS tab).
#[utoipa::path(get, path = "/api/cms/his/allEdit", tag = "cms", security(("bearer" = [])),
    responses((status = 200, body = Vec<HisEdit>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn his_all_edit(State(state): State<AppState>, _staff: Staff) -> Result<Json<Vec<HisEdit>>, ApiError> {
    Ok(Json(his_list::list_edit(&state.db).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct NewHis {
    /// The HIS's name; spaces around it are dropped and runs of spaces inside it made one.
    #[schema(max_length = 100)]
    pub name: String,
}

fn his_entry(action: audit::Action, his: &His, changes: serde_json::Value) -> audit::Entry {
    audit::Entry {
        action,
        subject_type: "his",
        subject_id: his.id.to_string(),
        concerns_user_id: None,
        concerns_organisation_id: None,
        changes,
        about: his.name.clone(),
    }
}

/// Staff: adds a HIS ('Nieuwe HIS..'); 409 when the name exists (any case).
#[utoipa::path(post, path = "/api/cms/HIS", tag = "cms", security(("bearer" = [])), request_body = NewHis,
    responses((status = 201, body = His), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 409, body = ErrorBody)))]
pub async fn add_his(State(state): State<AppState>, staff: Staff, Json(body): Json<NewHis>) -> Result<(StatusCode, Json<His>), ApiError> {
    let his = audited(&state, &staff, async |tx| {
        let his = his_list::add(tx, &body.name).await?;
        let entry = his_entry(audit::Action::AddHis, &his, json!({ "after": { "name": his.name } }));
        Ok((his, entry))
    })
    .await?;
    Ok((StatusCode::CREATED, Json(his)))
}

/// Staff: deletes a HIS; 409 'Kon HIS niet verwijderen, er zijn gebruikers gelinkt aan deze HIS'
/// while users are linked to it.
#[utoipa::path(delete, path = "/api/cms/his/{id}", tag = "cms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The HIS's id")),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody)))]
pub async fn delete_his(State(state): State<AppState>, staff: Staff, Path(id): Path<Uuid>) -> Result<StatusCode, ApiError> {
    audited(&state, &staff, async |tx| {
        let his = his_list::delete(tx, id).await?;
        let entry = his_entry(audit::Action::DeleteHis, &his, json!({ "before": { "name": his.name } }));
        Ok(((), entry))
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HisUsersQuery {
    /// The HIS.
    pub his: Uuid,
    /// From 0.
    #[serde(default)]
    #[param(minimum = 0, maximum = 100000)]
    pub page: i64,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HisUserPage {
    /// EXPIRED and NONE first, then by e-mail address.
    pub rows: Vec<HisUser>,
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
}

/// Staff: the users of one HIS with what gives them access (the HIS tab's table), a page of 50.
#[utoipa::path(get, path = "/api/cms/getHISUserSubscriptions", tag = "cms", security(("bearer" = [])), params(HisUsersQuery),
    responses((status = 200, body = HisUserPage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
pub async fn his_users(
    State(state): State<AppState>,
    _staff: Staff,
    Query(q): Query<HisUsersQuery>,
) -> Result<Json<HisUserPage>, ApiError> {
    let page = checked_page(q.page)?;
    let known: bool =
        sqlx::query_scalar!(r#"select exists (select 1 from his where id = $1) as "known!""#, q.his).fetch_one(&state.db).await?;
    if !known {
        return Err(ApiError::Missing(users::HIS_NOT_FOUND));
    }
    let (rows, total) = his_list::users_of(&state.db, q.his, today(), page, PAGE_SIZE).await?;
    Ok(Json(HisUserPage { rows, total, page, page_size: PAGE_SIZE }))
}

/// Staff: 'Zet HIS voor gebruiker': the body is a HIS id, or `null` for 'Geen'.
#[utoipa::path(post, path = "/api/cms/setHISforUser/{user_id}", tag = "cms", security(("bearer" = [])),
    params(("user_id" = String, Path, description = "The user's id")),
    request_body(content = Option<Uuid>, description = "The HIS id, or null for none"),
    responses((status = 204), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
pub async fn set_his_for_user(
    State(state): State<AppState>,
    staff: Staff,
    Path(user_id): Path<String>,
    body: Option<Json<Option<Uuid>>>,
) -> Result<StatusCode, ApiError> {
    // no body is 'Geen' too
    let his_id = body.and_then(|Json(id)| id);
    audited(&state, &staff, async |tx| {
        let change = users::set_his(tx, &user_id, his_id).await?;
        let name = |h: &Option<His>| h.as_ref().map_or("Geen".to_owned(), |h| h.name.clone());
        let entry = audit::Entry {
            action: audit::Action::SetUserHis,
            subject_type: "user",
            subject_id: user_id.clone(),
            concerns_user_id: Some(user_id.clone()),
            concerns_organisation_id: None,
            changes: json!({ "before": { "his": name(&change.before) }, "after": { "his": name(&change.after) } }),
            about: format!("van {} op {} (was {})", change.email, name(&change.after), name(&change.before)),
        };
        Ok(((), entry))
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Staff: a user's organisation subscriptions (the info modal); the read is in the audit log.
#[utoipa::path(get, path = "/api/cms/getOrganizationSubscriptionForCMSUser/{user_id}", tag = "cms", security(("bearer" = [])),
    params(("user_id" = String, Path, description = "The user's id")),
    responses((status = 200, body = Vec<OrganisationSubscription>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
pub async fn organisation_subscriptions_of_user(
    State(state): State<AppState>,
    staff: Staff,
    Path(user_id): Path<String>,
) -> Result<Json<Vec<OrganisationSubscription>>, ApiError> {
    let list = audited(&state, &staff, async |tx| {
        let email = users::email_of(&mut *tx, &user_id).await?.ok_or(ApiError::Missing(users::USER_NOT_FOUND))?;
        let list = organisation_for_user(&state.db, &user_id, &email, today()).await?;
        Ok((list, read_entry(audit::Action::ReadUserOrganisationSubscriptions, "user", &user_id, &email)))
    })
    .await?;
    Ok(Json(list))
}
