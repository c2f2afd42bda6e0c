//! Template entries and groups (`/api/template/entry...`, `/api/template/group...`).

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use chrono::{DateTime, Utc};
use domain::templates::{
    self as t, Access, EntryChange, EntryFields, Filter, Grant, GroupFields, Kind, Named, Refused, SoepType, Viewer, Visibility, limits,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use crate::auth::CurrentUser;
use crate::auth::gate;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Json, Path, Query};
use crate::state::AppState;

pub const NOT_FOUND: &str = "Template niet gevonden";
pub const DENIED: &str = "Geen toegang tot template";
/// The owner's name for others when the owner gave no preferred name: never the login name,
/// which is usually an e-mail address.
pub const NEUTRAL_OWNER: &str = "Collega";

impl From<Refused> for ApiError {
    fn from(e: Refused) -> Self {
        match e {
            Refused::Invalid(invalid) => invalid.into(),
            Refused::Db(db) => db.into(),
        }
    }
}

pub fn router(state: &AppState) -> Router<AppState> {
    let templates = Router::new()
        .route("/api/template/entry", get(list_entries).put(create_entry))
        .route("/api/template/entry/count", get(count_entries))
        .route("/api/template/entry/query", get(query_entries))
        .route("/api/template/entry/{id}", get(get_entry).post(update_entry).delete(delete_entry))
        .route("/api/template/group", get(list_groups).put(create_group))
        .route("/api/template/group/count", get(count_groups))
        .route("/api/template/group/query", get(query_groups))
        .route("/api/template/group/{id}", get(get_group).post(update_group).delete(delete_group));
    gate::gated(templates, state)
}

/// Whom a private template is shared with: one of the three fields.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Permission {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
    /// A main organisation, by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub organization_name: Option<String>,
    /// An organisation level (sub-organisation, e.g. a practice), by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub organization_level: Option<OrganizationLevel>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrganizationLevel {
    pub organization_name: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Owner {
    pub id: String,
    /// The owner's preferred name; without one 'Collega' (the owner alone sees their own login
    /// name there).
    pub name: String,
}

/// A template entry: a line of a SOEP note with its ICPC codes.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TemplateEntry {
    pub id: Uuid,
    pub title: String,
    pub text: String,
    pub description: String,
    /// ICPC codes, category plus number (`K86`).
    pub codes: Vec<String>,
    pub soep_type: SoepType,
    pub kind: Option<String>,
    pub visibility_type: Visibility,
    pub permissions: Vec<Permission>,
    pub owner: Option<Owner>,
    /// Whether the caller may change and delete it.
    pub can_edit: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// A template group: ordered entries.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TemplateGroup {
    pub id: Uuid,
    pub title: String,
    pub description: String,
    /// The entries the caller may see, in order.
    pub entries: Vec<TemplateEntry>,
    pub visibility_type: Visibility,
    pub permissions: Vec<Permission>,
    pub owner: Option<Owner>,
    pub can_edit: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// The fields of an entry to create or change; what is left out stays as it is (on create:
/// empty). `soepType` is required on create.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EntryInput {
    #[schema(max_length = 200)]
    pub title: Option<String>,
    #[schema(max_length = 20000)]
    pub text: Option<String>,
    #[schema(max_length = 1000)]
    pub description: Option<String>,
    /// ICPC codes of the list in force (`K86`; case and surrounding spaces aside); a repeated
    /// code is ignored, an unknown one refused (400 `unknown_icpc`); at most 20 different codes.
    #[schema(value_type = Option<Vec<IcpcCodeInput>>)]
    pub codes: Option<Vec<String>>,
    /// Upper case as shown; lower case is taken too.
    #[schema(value_type = Option<SoepType>)]
    pub soep_type: Option<String>,
    /// A short code: letters, digits, `_` and `-`, at most 50 characters; empty is none.
    #[schema(max_length = 50)]
    pub kind: Option<String>,
    /// Upper case as shown; lower case is taken too.
    #[schema(value_type = Option<Visibility>)]
    pub visibility_type: Option<String>,
    /// Whom a private template is shared with: the caller's own organisations and users the api
    /// knows (400 `unknown_permission` otherwise); replaces the sharing when sent. At most 50.
    #[schema(max_items = 50)]
    pub permissions: Option<Vec<Permission>>,
}

/// The body of a new entry: as [`EntryInput`], with `soepType` required. Whether it is shared is
/// the query's `sharedTemplate`: `visibilityType` is not read here.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code)] // the handler reads an `EntryInput`; this is its shape in the document
pub struct NewEntryInput {
    #[schema(max_length = 200)]
    title: Option<String>,
    #[schema(max_length = 20000)]
    text: Option<String>,
    #[schema(max_length = 1000)]
    description: Option<String>,
    /// ICPC codes of the list in force (`K86`; case and surrounding spaces aside); a repeated
    /// code is ignored, an unknown one refused (400 `unknown_icpc`); at most 20 different codes.
    codes: Option<Vec<IcpcCodeInput>>,
    /// Upper case as shown; lower case is taken too.
    soep_type: SoepType,
    /// A short code: letters, digits, `_` and `-`, at most 50 characters; empty is none.
    #[schema(max_length = 50)]
    kind: Option<String>,
    /// Whom a private template is shared with: the caller's own organisations and users the api
    /// knows (400 `unknown_permission` otherwise). At most 50.
    #[schema(max_items = 50)]
    permissions: Option<Vec<Permission>>,
}

/// An ICPC code as a template takes it: the chapter letter (or `-`) and two digits, case and
/// surrounding spaces aside.
#[derive(ToSchema)]
#[allow(dead_code)] // the document's shape of a code in `EntryInput::codes`
#[schema(pattern = "^\\s*[A-Za-z-][0-9]{2}\\s*$")]
pub struct IcpcCodeInput(String);

/// An entry of a group, by id (an entry object as the api returns it also does): one the caller
/// may see (400 `unknown_entry` otherwise).
#[derive(Debug, Deserialize, ToSchema)]
pub struct EntryRef {
    #[schema(pattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")]
    pub id: Uuid,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GroupInput {
    #[schema(max_length = 200)]
    pub title: Option<String>,
    #[schema(max_length = 1000)]
    pub description: Option<String>,
    /// The entries in order; a repeated entry is ignored; at most 100 different entries.
    pub entries: Option<Vec<EntryRef>>,
    /// Upper case as shown; lower case is taken too. Not read on create (see `sharedTemplate`).
    #[schema(value_type = Option<Visibility>)]
    pub visibility_type: Option<String>,
    /// Whom a private template is shared with: the caller's own organisations and users the api
    /// knows (400 `unknown_permission` otherwise); replaces the sharing when sent. At most 50.
    #[schema(max_items = 50)]
    pub permissions: Option<Vec<Permission>>,
}

/// The body of a new group: as [`GroupInput`]; whether it is shared is the query's
/// `sharedTemplate`: `visibilityType` is not read here.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code)] // the handler reads a `GroupInput`; this is its shape in the document
pub struct NewGroupInput {
    #[schema(max_length = 200)]
    title: Option<String>,
    #[schema(max_length = 1000)]
    description: Option<String>,
    /// The entries in order; a repeated entry is ignored; at most 100 different entries.
    entries: Option<Vec<EntryRef>>,
    /// Whom a private template is shared with: the caller's own organisations and users the api
    /// knows (400 `unknown_permission` otherwise). At most 50.
    #[schema(max_items = 50)]
    permissions: Option<Vec<Permission>>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct CreateParams {
    /// `true`: a shared (public) template; otherwise private.
    #[serde(default)]
    pub shared_template: bool,
}

impl CreateParams {
    fn visibility(&self) -> Visibility {
        Visibility::shared(self.shared_template)
    }
}

/// A page of a list: `limit` rows from `offset`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct PageParams {
    /// Rows per page: at most 100 entries or 20 groups (the default).
    #[param(minimum = 1)]
    pub limit: Option<i64>,
    #[param(minimum = 0)]
    pub offset: Option<i64>,
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct ListParams {
    /// Rows per page: at most 100 entries or 20 groups (default 5).
    #[param(minimum = 1)]
    pub limit: Option<i64>,
    #[param(minimum = 0)]
    pub offset: Option<i64>,
    /// Words that must all occur in the title, description or text (case and accents aside): at
    /// most 10 distinct words and 200 characters, else 400 `query_too_long`.
    #[param(max_length = 200)]
    pub query: Option<String>,
    /// Only the caller's own templates.
    #[serde(default)]
    pub user_templates: bool,
    /// Groups only: groups with an entry that has this ICPC code (`K86`).
    pub icpc: Option<String>,
}

impl ListParams {
    fn filter(&self) -> Result<Filter, ApiError> {
        // the count takes the list's parameters: a page they could not ask for is refused there too
        self.page(Kind::Entry)?;
        Ok(Filter {
            own: self.user_templates,
            words: match self.query.as_deref() {
                Some(query) => t::search_words(query)?,
                None => Vec::new(),
            },
            icpc: self.icpc.as_deref().map(|c| c.trim().to_ascii_uppercase()).filter(|c| !c.is_empty()),
        })
    }

    fn page(&self, kind: Kind) -> Result<(i64, i64), ApiError> {
        Ok(t::page(self.limit, self.offset, 5, kind)?)
    }
}

async fn viewer(state: &AppState, user: &CurrentUser) -> Result<Viewer, ApiError> {
    Ok(Viewer::load(&state.db, &user.id, user.is_staff).await?)
}

fn permission_of(grant: &Grant) -> Permission {
    match grant {
        Grant::User(id) => Permission { user_id: Some(id.clone()), ..Default::default() },
        Grant::Level { name, .. } => {
            Permission { organization_level: Some(OrganizationLevel { organization_name: name.clone() }), ..Default::default() }
        }
        Grant::Organisation { name, .. } => Permission { organization_name: Some(name.clone()), ..Default::default() },
    }
}

/// The owner as the viewer may see them: the preferred name, else 'Collega'; the owner sees
/// their own login name in its place.
fn owner_of(viewer: &Viewer, id: &Option<String>, name: &Option<String>, login: &Option<String>) -> Option<Owner> {
    let id = id.as_ref()?;
    let preferred = name.as_deref().map(str::trim).filter(|n| !n.is_empty());
    let own = (*id == viewer.user_id).then_some(login.as_deref()).flatten();
    let name = preferred.or(own).unwrap_or(NEUTRAL_OWNER).to_owned();
    Some(Owner { id: id.clone(), name })
}

/// Entries as the api shows them, with their permissions fetched in one query.
async fn entry_views(state: &AppState, viewer: &Viewer, entries: Vec<t::Entry>) -> Result<Vec<TemplateEntry>, ApiError> {
    let ids: Vec<Uuid> = entries.iter().map(|e| e.id).collect();
    let mut grants = t::grants_of(&state.db, Kind::Entry, &ids).await?;
    Ok(entries.into_iter().map(|e| entry_view(viewer, grants.remove(&e.id).unwrap_or_default(), e)).collect())
}

async fn one_entry_view(state: &AppState, viewer: &Viewer, e: t::Entry) -> Result<TemplateEntry, ApiError> {
    Ok(entry_views(state, viewer, vec![e]).await?.remove(0))
}

fn entry_view(viewer: &Viewer, grants: Vec<Grant>, e: t::Entry) -> TemplateEntry {
    let can_edit = t::access(viewer, e.owner_id.as_deref(), e.visibility, &grants) == Access::Write;
    TemplateEntry {
        owner: owner_of(viewer, &e.owner_id, &e.owner_name, &e.owner_login),
        permissions: grants.iter().map(permission_of).collect(),
        id: e.id,
        title: e.title,
        text: e.text,
        description: e.description,
        codes: e.codes,
        soep_type: e.soep_type,
        kind: e.kind,
        visibility_type: e.visibility,
        can_edit,
        created_at: e.created_at,
        updated_at: e.updated_at,
    }
}

/// Groups as the api shows them, with their permissions fetched in one query.
async fn group_views(state: &AppState, viewer: &Viewer, groups: Vec<t::Group>) -> Result<Vec<TemplateGroup>, ApiError> {
    let ids: Vec<Uuid> = groups.iter().map(|g| g.id).collect();
    let mut grants = t::grants_of(&state.db, Kind::Group, &ids).await?;
    let mut out = Vec::with_capacity(groups.len());
    for g in groups {
        let entries = entry_views(state, viewer, t::group_entries(&state.db, viewer, g.id).await?).await?;
        out.push(group_view(viewer, grants.remove(&g.id).unwrap_or_default(), entries, g));
    }
    Ok(out)
}

async fn one_group_view(state: &AppState, viewer: &Viewer, g: t::Group) -> Result<TemplateGroup, ApiError> {
    Ok(group_views(state, viewer, vec![g]).await?.remove(0))
}

fn group_view(viewer: &Viewer, grants: Vec<Grant>, entries: Vec<TemplateEntry>, g: t::Group) -> TemplateGroup {
    let can_edit = t::access(viewer, g.owner_id.as_deref(), g.visibility, &grants) == Access::Write;
    TemplateGroup {
        owner: owner_of(viewer, &g.owner_id, &g.owner_name, &g.owner_login),
        permissions: grants.iter().map(permission_of).collect(),
        id: g.id,
        title: g.title,
        description: g.description,
        entries,
        visibility_type: g.visibility,
        can_edit,
        created_at: g.created_at,
        updated_at: g.updated_at,
    }
}

/// The entry if it exists and the caller may at least read it (404, 403 otherwise).
async fn readable_entry(state: &AppState, viewer: &Viewer, id: &str, need: Access) -> Result<(t::Entry, Vec<Grant>), ApiError> {
    let id: Uuid = id.parse().map_err(|_| ApiError::Missing(NOT_FOUND))?;
    let entry = t::entry(&state.db, id).await?.ok_or(ApiError::Missing(NOT_FOUND))?;
    let grants = t::grants(&state.db, Kind::Entry, id).await?;
    check(t::access(viewer, entry.owner_id.as_deref(), entry.visibility, &grants), need)?;
    Ok((entry, grants))
}

async fn readable_group(state: &AppState, viewer: &Viewer, id: &str, need: Access) -> Result<(t::Group, Vec<Grant>), ApiError> {
    let id: Uuid = id.parse().map_err(|_| ApiError::Missing(NOT_FOUND))?;
    let group = t::group(&state.db, id).await?.ok_or(ApiError::Missing(NOT_FOUND))?;
    let grants = t::grants(&state.db, Kind::Group, id).await?;
    check(t::access(viewer, group.owner_id.as_deref(), group.visibility, &grants), need)?;
    Ok((group, grants))
}

fn check(have: Access, need: Access) -> Result<(), ApiError> {
    if have.allows(need) { Ok(()) } else { Err(ApiError::Denied(DENIED)) }
}

async fn checked_grants(state: &AppState, viewer: &Viewer, permissions: &[Permission]) -> Result<Vec<Grant>, ApiError> {
    let named: Vec<Named> = permissions
        .iter()
        .map(|p| Named {
            user: p.user_id.as_deref(),
            level: p.organization_level.as_ref().map(|l| l.organization_name.as_str()),
            organisation: p.organization_name.as_deref(),
        })
        .collect();
    Ok(t::checked_grants(&state.db, viewer, &named).await?)
}

/// The visibility and sharing a change asks for; what it leaves out stays (`None`: the grants
/// are not touched).
async fn requested_sharing(
    state: &AppState,
    viewer: &Viewer,
    current: Visibility,
    visibility: Option<&str>,
    permissions: Option<&[Permission]>,
) -> Result<(Visibility, Option<Vec<Grant>>), ApiError> {
    let visibility = match visibility {
        Some(v) => Visibility::parse(v)?,
        None => current,
    };
    let grants = match permissions {
        Some(p) => Some(checked_grants(state, viewer, p).await?),
        None => None,
    };
    Ok((visibility, grants))
}

async fn entry_fields(state: &AppState, base: EntryFields, input: EntryInput) -> Result<EntryFields, ApiError> {
    let codes = input.codes;
    let mut fields = base.changed(EntryChange {
        title: input.title,
        text: input.text,
        description: input.description,
        soep_type: input.soep_type,
        kind: input.kind,
    })?;
    if let Some(codes) = codes {
        fields.codes = t::checked_codes(&state.db, &codes).await?;
    }
    Ok(fields)
}

async fn group_fields(state: &AppState, viewer: &Viewer, base: GroupFields, input: GroupInput) -> Result<GroupFields, ApiError> {
    let mut fields = base.retitled(input.title, input.description)?;
    if let Some(refs) = input.entries {
        let ids: Vec<Uuid> = refs.iter().map(|r| r.id).collect();
        fields.entries = t::checked_group_entries(&state.db, viewer, &ids).await?;
    }
    Ok(fields)
}

/// The entries the caller may see, by title then id, a page at a time (at most 100, the default;
/// `GET /api/template/entry/count` says how many there are).
#[utoipa::path(get, path = "/api/template/entry", tag = "templates", security(("bearer" = [])), params(PageParams),
    responses((status = 200, body = [TemplateEntry]), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn list_entries(
    State(state): State<AppState>,
    user: CurrentUser,
    Query(params): Query<PageParams>,
) -> Result<Json<Vec<TemplateEntry>>, ApiError> {
    let viewer = viewer(&state, &user).await?;
    let (limit, offset) = t::page(params.limit, params.offset, limits::ENTRY_PAGE, Kind::Entry)?;
    let entries = t::query_entries(&state.db, &viewer, &Filter::default(), limit, offset).await?;
    Ok(Json(entry_views(&state, &viewer, entries).await?))
}

/// Creates an entry, shared (public) or private; the caller owns it.
#[utoipa::path(put, path = "/api/template/entry", tag = "templates", security(("bearer" = [])), params(CreateParams),
    request_body = NewEntryInput,
    responses((status = 201, body = TemplateEntry), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn create_entry(
    State(state): State<AppState>,
    user: CurrentUser,
    Query(params): Query<CreateParams>,
    Json(input): Json<EntryInput>,
) -> Result<(StatusCode, Json<TemplateEntry>), ApiError> {
    let viewer = viewer(&state, &user).await?;
    let base = EntryFields::new(input.soep_type.as_deref())?;
    let grants = checked_grants(&state, &viewer, input.permissions.as_deref().unwrap_or_default()).await?;
    let fields = entry_fields(&state, base, input).await?;
    let mut tx = state.db.begin().await?;
    let id = t::create_entry(&mut tx, &user.id, params.visibility(), &fields, &grants).await?;
    tx.commit().await?;
    let entry = t::entry(&state.db, id).await?.ok_or(ApiError::Missing(NOT_FOUND))?;
    Ok((StatusCode::CREATED, Json(one_entry_view(&state, &viewer, entry).await?)))
}

/// How many entries a list finds (the same filter as the query call, without paging).
#[utoipa::path(get, path = "/api/template/entry/count", tag = "templates", security(("bearer" = [])), params(ListParams),
    responses((status = 200, body = i64, content_type = "application/json"), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn count_entries(
    State(state): State<AppState>,
    user: CurrentUser,
    Query(params): Query<ListParams>,
) -> Result<Json<i64>, ApiError> {
    let viewer = viewer(&state, &user).await?;
    Ok(Json(t::count(&state.db, Kind::Entry, &viewer, &params.filter()?).await?))
}

/// A page of entries, by title then id, so pages never repeat or skip a row.
#[utoipa::path(get, path = "/api/template/entry/query", tag = "templates", security(("bearer" = [])), params(ListParams),
    responses((status = 200, body = [TemplateEntry]), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn query_entries(
    State(state): State<AppState>,
    user: CurrentUser,
    Query(params): Query<ListParams>,
) -> Result<Json<Vec<TemplateEntry>>, ApiError> {
    let viewer = viewer(&state, &user).await?;
    let (limit, offset) = params.page(Kind::Entry)?;
    let entries = t::query_entries(&state.db, &viewer, &params.filter()?, limit, offset).await?;
    Ok(Json(entry_views(&state, &viewer, entries).await?))
}

/// One entry: 404 'Template niet gevonden', 403 'Geen toegang tot template'.
#[utoipa::path(get, path = "/api/template/entry/{id}", tag = "templates", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, body = TemplateEntry), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_entry(State(state): State<AppState>, user: CurrentUser, Path(id): Path<String>) -> Result<Json<TemplateEntry>, ApiError> {
    let viewer = viewer(&state, &user).await?;
    let (entry, grants) = readable_entry(&state, &viewer, &id, Access::Read).await?;
    Ok(Json(entry_view(&viewer, grants, entry)))
}

/// Changes an entry (owner, an admin of an organisation it is shared with, or staff).
#[utoipa::path(post, path = "/api/template/entry/{id}", tag = "templates", security(("bearer" = [])),
    params(("id" = String, Path)), request_body = EntryInput,
    responses((status = 200, body = TemplateEntry), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn update_entry(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
    Json(input): Json<EntryInput>,
) -> Result<Json<TemplateEntry>, ApiError> {
    let viewer = viewer(&state, &user).await?;
    let (entry, _) = readable_entry(&state, &viewer, &id, Access::Write).await?;
    let (visibility, grants) =
        requested_sharing(&state, &viewer, entry.visibility, input.visibility_type.as_deref(), input.permissions.as_deref()).await?;
    let base = EntryFields {
        title: entry.title.clone(),
        text: entry.text.clone(),
        description: entry.description.clone(),
        soep_type: entry.soep_type,
        kind: entry.kind.clone(),
        codes: entry.codes.clone(),
    };
    let fields = entry_fields(&state, base, input).await?;
    let mut tx = state.db.begin().await?;
    t::update_entry(&mut tx, entry.id, visibility, &fields, grants.as_deref()).await?;
    tx.commit().await?;
    let entry = t::entry(&state.db, entry.id).await?.ok_or(ApiError::Missing(NOT_FOUND))?;
    Ok(Json(one_entry_view(&state, &viewer, entry).await?))
}

/// Deletes an entry (and takes it out of every group).
#[utoipa::path(delete, path = "/api/template/entry/{id}", tag = "templates", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn delete_entry(State(state): State<AppState>, user: CurrentUser, Path(id): Path<String>) -> Result<StatusCode, ApiError> {
    let viewer = viewer(&state, &user).await?;
    let (entry, _) = readable_entry(&state, &viewer, &id, Access::Write).await?;
    t::delete(&state.db, Kind::Entry, entry.id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The groups the caller may see, by title then id, a page at a time (at most 20, the default;
/// `GET /api/template/group/count` says how many there are).
#[utoipa::path(get, path = "/api/template/group", tag = "templates", security(("bearer" = [])), params(PageParams),
    responses((status = 200, body = [TemplateGroup]), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn list_groups(
    State(state): State<AppState>,
    user: CurrentUser,
    Query(params): Query<PageParams>,
) -> Result<Json<Vec<TemplateGroup>>, ApiError> {
    let viewer = viewer(&state, &user).await?;
    let (limit, offset) = t::page(params.limit, params.offset, limits::GROUP_PAGE, Kind::Group)?;
    let groups = t::query_groups(&state.db, &viewer, &Filter::default(), limit, offset).await?;
    Ok(Json(group_views(&state, &viewer, groups).await?))
}

/// Creates a group, shared (public) or private; the caller owns it.
#[utoipa::path(put, path = "/api/template/group", tag = "templates", security(("bearer" = [])), params(CreateParams),
    request_body = NewGroupInput,
    responses((status = 201, body = TemplateGroup), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn create_group(
    State(state): State<AppState>,
    user: CurrentUser,
    Query(params): Query<CreateParams>,
    Json(input): Json<GroupInput>,
) -> Result<(StatusCode, Json<TemplateGroup>), ApiError> {
    let viewer = viewer(&state, &user).await?;
    let grants = checked_grants(&state, &viewer, input.permissions.as_deref().unwrap_or_default()).await?;
    let fields = group_fields(&state, &viewer, GroupFields::default(), input).await?;
    let mut tx = state.db.begin().await?;
    let id = t::create_group(&mut tx, &user.id, params.visibility(), &fields, &grants).await?;
    tx.commit().await?;
    let group = t::group(&state.db, id).await?.ok_or(ApiError::Missing(NOT_FOUND))?;
    Ok((StatusCode::CREATED, Json(one_group_view(&state, &viewer, group).await?)))
}

/// How many groups a list finds.
#[utoipa::path(get, path = "/api/template/group/count", tag = "templates", security(("bearer" = [])), params(ListParams),
    responses((status = 200, body = i64, content_type = "application/json"), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn count_groups(
    State(state): State<AppState>,
    user: CurrentUser,
    Query(params): Query<ListParams>,
) -> Result<Json<i64>, ApiError> {
    let viewer = viewer(&state, &user).await?;
    Ok(Json(t::count(&state.db, Kind::Group, &viewer, &params.filter()?).await?))
}

/// A page of groups, by title then id; `icpc` keeps groups with an entry of that code.
#[utoipa::path(get, path = "/api/template/group/query", tag = "templates", security(("bearer" = [])), params(ListParams),
    responses((status = 200, body = [TemplateGroup]), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn query_groups(
    State(state): State<AppState>,
    user: CurrentUser,
    Query(params): Query<ListParams>,
) -> Result<Json<Vec<TemplateGroup>>, ApiError> {
    let viewer = viewer(&state, &user).await?;
    let (limit, offset) = params.page(Kind::Group)?;
    let groups = t::query_groups(&state.db, &viewer, &params.filter()?, limit, offset).await?;
    Ok(Json(group_views(&state, &viewer, groups).await?))
}

/// One group: 404 'Template niet gevonden', 403 'Geen toegang tot template'.
#[utoipa::path(get, path = "/api/template/group/{id}", tag = "templates", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 200, body = TemplateGroup), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn get_group(State(state): State<AppState>, user: CurrentUser, Path(id): Path<String>) -> Result<Json<TemplateGroup>, ApiError> {
    let viewer = viewer(&state, &user).await?;
    let (group, grants) = readable_group(&state, &viewer, &id, Access::Read).await?;
    let entries = entry_views(&state, &viewer, t::group_entries(&state.db, &viewer, group.id).await?).await?;
    Ok(Json(group_view(&viewer, grants, entries, group)))
}

/// Changes a group: title, description, its entries in order.
#[utoipa::path(post, path = "/api/template/group/{id}", tag = "templates", security(("bearer" = [])),
    params(("id" = String, Path)), request_body = GroupInput,
    responses((status = 200, body = TemplateGroup), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn update_group(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
    Json(input): Json<GroupInput>,
) -> Result<Json<TemplateGroup>, ApiError> {
    let viewer = viewer(&state, &user).await?;
    let (group, _) = readable_group(&state, &viewer, &id, Access::Write).await?;
    let (visibility, grants) =
        requested_sharing(&state, &viewer, group.visibility, input.visibility_type.as_deref(), input.permissions.as_deref()).await?;
    let current: Vec<Uuid> =
        sqlx::query_scalar!("select entry_id from template_group_entries where group_id = $1 order by position", group.id)
            .fetch_all(&state.db)
            .await?;
    // entries the caller cannot see (someone's private entry in a shared group) are not in what
    // the page sends back: they stay, after the ones it sent
    let visible: Vec<Uuid> = t::group_entries(&state.db, &viewer, group.id).await?.iter().map(|e| e.id).collect();
    let hidden: Vec<Uuid> = current.iter().copied().filter(|id| !visible.contains(id)).collect();
    let base = GroupFields { title: group.title.clone(), description: group.description.clone(), entries: current };
    let mut fields = group_fields(&state, &viewer, base, input).await?;
    for id in hidden {
        if !fields.entries.contains(&id) {
            fields.entries.push(id);
        }
    }
    let mut tx = state.db.begin().await?;
    t::update_group(&mut tx, group.id, visibility, &fields, grants.as_deref()).await?;
    tx.commit().await?;
    let group = t::group(&state.db, group.id).await?.ok_or(ApiError::Missing(NOT_FOUND))?;
    Ok(Json(one_group_view(&state, &viewer, group).await?))
}

/// Deletes a group (its entries stay).
#[utoipa::path(delete, path = "/api/template/group/{id}", tag = "templates", security(("bearer" = [])),
    params(("id" = String, Path)),
    responses((status = 204), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn delete_group(State(state): State<AppState>, user: CurrentUser, Path(id): Path<String>) -> Result<StatusCode, ApiError> {
    let viewer = viewer(&state, &user).await?;
    let (group, _) = readable_group(&state, &viewer, &id, Access::Write).await?;
    t::delete(&state.db, Kind::Group, group.id).await?;
    Ok(StatusCode::NO_CONTENT)
}
