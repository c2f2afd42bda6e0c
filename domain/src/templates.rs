//! Template entries and groups: who sees and changes them, search and pagination.
//!
//! A user sees public templates, their own, and private ones shared with them, with an
//! organisation level they belong to, or with the main organisation of such a level. The owner,
//! an admin of a level or organisation the template is shared with, and staff may change or
//! delete. Lists show what a user sees (staff included); staff may open and change any template
//! by its id.

use std::collections::{HashMap, HashSet};
use std::hash::Hash;

use chrono::{DateTime, Utc};
use sqlx::{FromRow, PgConnection, PgPool, Postgres, QueryBuilder};
use uuid::Uuid;

use crate::organisations::Membership;
use crate::text::normalize;

pub const SOEP_TYPES: [&str; 6] = ["PLAN", "OBJECTIVE", "SUBJECTIVE", "PLAN_TEXT", "OBJECTIVE_TEXT", "SUBJECTIVE_TEXT"];
pub const VISIBILITIES: [&str; 2] = ["PUBLIC", "PRIVATE"];

/// Limits of what a user writes or asks (characters, or items of a list). The specification
/// gives none; these are generous for a line of a note and keep each request's work bounded.
pub mod limits {
    /// A title.
    pub const TITLE: usize = 200;
    /// A description.
    pub const DESCRIPTION: usize = 1_000;
    /// An entry's text.
    pub const TEXT: usize = 20_000;
    /// An entry's `kind`: a short code.
    pub const KIND: usize = 50;
    /// ICPC codes of one entry.
    pub const CODES: usize = 20;
    /// Entries of one group.
    pub const GROUP_ENTRIES: usize = 100;
    /// Whom one template is shared with.
    pub const PERMISSIONS: usize = 50;
    /// A search query.
    pub const QUERY: usize = 200;
    /// Distinct words of a search query (one `LIKE` each).
    pub const QUERY_WORDS: usize = 10;
    /// Rows of one page of entries.
    pub const ENTRY_PAGE: i64 = 100;
    /// Rows of one page of groups (each carries its entries).
    pub const GROUP_PAGE: i64 = 20;
}

/// What a user wrote that a template cannot take; the message is Dutch and fit to show.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Invalid {
    /// Stable machine code, e.g. `too_long`.
    pub code: &'static str,
    pub message: String,
}

fn invalid(code: &'static str, message: impl Into<String>) -> Invalid {
    Invalid { code, message: message.into() }
}

/// A text field within `max` characters; `what` names it in Dutch ("De titel").
pub fn bounded_text(value: String, max: usize, what: &str) -> Result<String, Invalid> {
    if value.chars().count() > max {
        return Err(invalid("too_long", format!("{what} is te lang (hoogstens {max} tekens).")));
    }
    Ok(value)
}

/// An entry's `kind`: absent or empty is none; otherwise a short code of letters, digits, `_`
/// and `-` (the specification names the field but not its values).
pub fn parse_kind(value: Option<String>) -> Result<Option<String>, Invalid> {
    let Some(kind) = value.map(|k| k.trim().to_owned()).filter(|k| !k.is_empty()) else {
        return Ok(None);
    };
    let short = kind.chars().count() <= limits::KIND;
    if !short || !kind.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-') {
        return Err(invalid(
            "invalid_kind",
            format!("De soort is een korte code van letters, cijfers, '_' of '-' (hoogstens {} tekens).", limits::KIND),
        ));
    }
    Ok(Some(kind))
}

/// A list of at most `max` items; `what` names them in Dutch ("ICPC-codes").
pub fn bounded_list<T>(items: Vec<T>, max: usize, what: &str) -> Result<Vec<T>, Invalid> {
    if items.len() > max {
        return Err(invalid("too_many", format!("Te veel {what} (hoogstens {max}).")));
    }
    Ok(items)
}

/// The words of a search query: at most [`limits::QUERY`] characters and
/// [`limits::QUERY_WORDS`] distinct words, else refused (every word must match, so leaving some
/// out would show templates without them).
pub fn search_words(query: &str) -> Result<Vec<String>, Invalid> {
    let too_long = || {
        invalid(
            "query_too_long",
            format!("Zoek op hoogstens {} woorden ({} tekens).", limits::QUERY_WORDS, limits::QUERY),
        )
    };
    if query.chars().count() > limits::QUERY {
        return Err(too_long());
    }
    let words = crate::text::words(query);
    if words.len() > limits::QUERY_WORDS {
        return Err(too_long());
    }
    Ok(words)
}

/// Who is asking.
#[derive(Debug, Clone)]
pub struct Viewer {
    pub user_id: String,
    pub is_staff: bool,
    pub membership: Membership,
}

impl Viewer {
    pub async fn load(db: &PgPool, user_id: &str, is_staff: bool) -> sqlx::Result<Self> {
        Ok(Self {
            user_id: user_id.to_owned(),
            is_staff,
            membership: crate::organisations::membership(db, user_id).await?,
        })
    }
}

/// Whom a private template is shared with.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Grant {
    User(String),
    Level { id: Uuid, name: String },
    Organisation { id: Uuid, name: String },
}

/// What a viewer may do with one template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    None,
    Read,
    Write,
}

#[derive(Debug, Clone, FromRow)]
pub struct Entry {
    pub id: Uuid,
    pub owner_id: Option<String>,
    /// The name the owner asked to be addressed by (onboarding), if any.
    pub owner_name: Option<String>,
    /// The owner's login name (usually an e-mail address): for the owner's own eyes only.
    pub owner_login: Option<String>,
    pub title: String,
    pub text: String,
    pub description: String,
    pub soep_type: String,
    pub kind: Option<String>,
    pub visibility: String,
    pub codes: Vec<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[derive(Debug, Clone, FromRow)]
pub struct Group {
    pub id: Uuid,
    pub owner_id: Option<String>,
    /// The name the owner asked to be addressed by (onboarding), if any.
    pub owner_name: Option<String>,
    /// The owner's login name (usually an e-mail address): for the owner's own eyes only.
    pub owner_login: Option<String>,
    pub title: String,
    pub description: String,
    pub visibility: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// Entries or groups: the tables and columns that differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Entry,
    Group,
}

impl Kind {
    fn table(self) -> &'static str {
        match self {
            Kind::Entry => "template_entries",
            Kind::Group => "template_groups",
        }
    }

    fn permission_column(self) -> &'static str {
        match self {
            Kind::Entry => "entry_id",
            Kind::Group => "group_id",
        }
    }

    fn columns(self) -> &'static str {
        match self {
            Kind::Entry => {
                "t.id, t.owner_id, u.preferred_name as owner_name, u.preferred_username as owner_login, t.title, t.text, \
                 t.description, t.soep_type, t.kind, t.visibility, t.codes, t.created_at, t.updated_at"
            }
            Kind::Group => {
                "t.id, t.owner_id, u.preferred_name as owner_name, u.preferred_username as owner_login, t.title, \
                 t.description, t.visibility, t.created_at, t.updated_at"
            }
        }
    }
}

/// A list's filter: `own` only the viewer's templates; every word must occur in the title,
/// description or text (case and accents aside); `icpc` (groups) an entry with that code.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub own: bool,
    pub words: Vec<String>,
    pub icpc: Option<String>,
}

fn push_visible_and_filter(qb: &mut QueryBuilder<'_, Postgres>, kind: Kind, viewer: &Viewer, filter: &Filter) {
    let m = &viewer.membership;
    // `id in (uncorrelated subquery)`: PostgreSQL hashes the shared ids once per query instead
    // of probing the permissions for every row
    let column = kind.permission_column();
    qb.push(" where (t.visibility = 'PUBLIC' or t.owner_id = ")
        .push_bind(viewer.user_id.clone())
        .push(format!(" or t.id in (select p.{column} from template_permissions p where p.{column} is not null and (p.user_id = "))
        .push_bind(viewer.user_id.clone())
        .push(" or p.level_id = any(")
        .push_bind(m.levels.clone())
        .push(") or p.organisation_id = any(")
        .push_bind(m.organisations.clone())
        .push("))))");
    if filter.own {
        qb.push(" and t.owner_id = ").push_bind(viewer.user_id.clone());
    }
    for word in &filter.words {
        qb.push(" and t.search like ").push_bind(format!("%{}%", escape_like(word)));
    }
    if let (Kind::Group, Some(code)) = (kind, &filter.icpc) {
        qb.push(
            " and exists (select 1 from template_group_entries ge join template_entries ce on ce.id = ge.entry_id \
              where ge.group_id = t.id and ce.codes @> array[",
        )
        .push_bind(code.clone())
        .push("]::text[])");
    }
}

fn escape_like(word: &str) -> String {
    word.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}

/// How many templates the filter finds.
pub async fn count(db: &PgPool, kind: Kind, viewer: &Viewer, filter: &Filter) -> sqlx::Result<i64> {
    let mut qb = QueryBuilder::new(format!("select count(*) from {} t", kind.table()));
    push_visible_and_filter(&mut qb, kind, viewer, filter);
    qb.build_query_scalar().fetch_one(db).await
}

/// A page of entries, by title (then id: the same order every time, so pages never overlap).
pub async fn query_entries(db: &PgPool, viewer: &Viewer, filter: &Filter, limit: i64, offset: i64) -> sqlx::Result<Vec<Entry>> {
    let mut qb = page_query(Kind::Entry, viewer, filter, limit, offset);
    qb.build_query_as().fetch_all(db).await
}

pub async fn query_groups(db: &PgPool, viewer: &Viewer, filter: &Filter, limit: i64, offset: i64) -> sqlx::Result<Vec<Group>> {
    let mut qb = page_query(Kind::Group, viewer, filter, limit, offset);
    qb.build_query_as().fetch_all(db).await
}

fn page_query<'a>(kind: Kind, viewer: &Viewer, filter: &Filter, limit: i64, offset: i64) -> QueryBuilder<'a, Postgres> {
    let mut qb = QueryBuilder::new(format!(
        "select {} from {} t left join users u on u.id = t.owner_id",
        kind.columns(),
        kind.table()
    ));
    push_visible_and_filter(&mut qb, kind, viewer, filter);
    qb.push(" order by t.sort_title, t.id limit ").push_bind(limit.max(0)).push(" offset ").push_bind(offset.max(0));
    qb
}

pub async fn entry(db: &PgPool, id: Uuid) -> sqlx::Result<Option<Entry>> {
    sqlx::query_as(&format!(
        "select {} from template_entries t left join users u on u.id = t.owner_id where t.id = $1",
        Kind::Entry.columns()
    ))
    .bind(id)
    .fetch_optional(db)
    .await
}

pub async fn group(db: &PgPool, id: Uuid) -> sqlx::Result<Option<Group>> {
    sqlx::query_as(&format!(
        "select {} from template_groups t left join users u on u.id = t.owner_id where t.id = $1",
        Kind::Group.columns()
    ))
    .bind(id)
    .fetch_optional(db)
    .await
}

/// The entries of a group in their order, as far as the viewer may see them.
pub async fn group_entries(db: &PgPool, viewer: &Viewer, group: Uuid) -> sqlx::Result<Vec<Entry>> {
    let mut qb = QueryBuilder::new(format!(
        "select {} from template_group_entries ge join template_entries t on t.id = ge.entry_id \
         left join users u on u.id = t.owner_id",
        Kind::Entry.columns()
    ));
    push_visible_and_filter(&mut qb, Kind::Entry, viewer, &Filter::default());
    qb.push(" and ge.group_id = ").push_bind(group).push(" order by ge.position");
    qb.build_query_as().fetch_all(db).await
}

/// Whom a template is shared with.
pub async fn grants(db: &PgPool, kind: Kind, id: Uuid) -> sqlx::Result<Vec<Grant>> {
    Ok(grants_of(db, kind, &[id]).await?.remove(&id).unwrap_or_default())
}

/// Whom each of these templates is shared with, in one query.
pub async fn grants_of(db: &PgPool, kind: Kind, ids: &[Uuid]) -> sqlx::Result<HashMap<Uuid, Vec<Grant>>> {
    /// template, then user, level id and name, organisation id and name: one of the three is set
    type Row = (Uuid, Option<String>, Option<Uuid>, Option<String>, Option<Uuid>, Option<String>);
    let column = kind.permission_column();
    let rows: Vec<Row> = sqlx::query_as(&format!(
        "select p.{column}, p.user_id, l.id, l.name, o.id, o.name
           from template_permissions p
           left join organisation_levels l on l.id = p.level_id
           left join organisations o on o.id = p.organisation_id
          where p.{column} = any($1) order by p.id"
    ))
    .bind(ids)
    .fetch_all(db)
    .await?;
    let mut out: HashMap<Uuid, Vec<Grant>> = HashMap::new();
    for (template, user, level, level_name, organisation, organisation_name) in rows {
        let grant = match (user, level, level_name, organisation, organisation_name) {
            (Some(user), ..) => Grant::User(user),
            (_, Some(id), Some(name), ..) => Grant::Level { id, name },
            (_, _, _, Some(id), Some(name)) => Grant::Organisation { id, name },
            _ => continue,
        };
        out.entry(template).or_default().push(grant);
    }
    Ok(out)
}

/// What the viewer may do with a template of this owner, visibility and grants.
pub fn access(viewer: &Viewer, owner: Option<&str>, visibility: &str, grants: &[Grant]) -> Access {
    let m = &viewer.membership;
    let admin = grants.iter().any(|g| match g {
        Grant::Level { id, .. } => m.admin_levels.contains(id),
        Grant::Organisation { id, .. } => m.admin_organisations.contains(id),
        Grant::User(_) => false,
    });
    if viewer.is_staff || owner == Some(viewer.user_id.as_str()) || admin {
        return Access::Write;
    }
    let shared = grants.iter().any(|g| match g {
        Grant::User(user) => *user == viewer.user_id,
        Grant::Level { id, .. } => m.levels.contains(id),
        Grant::Organisation { id, .. } => m.organisations.contains(id),
    });
    if visibility == "PUBLIC" || shared { Access::Read } else { Access::None }
}

/// The fields of an entry a user writes.
#[derive(Debug, Clone)]
pub struct EntryFields {
    pub title: String,
    pub text: String,
    pub description: String,
    pub soep_type: String,
    pub kind: Option<String>,
    /// Each code once, in the order given.
    pub codes: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct GroupFields {
    pub title: String,
    pub description: String,
    /// Each entry once, in the order given.
    pub entries: Vec<Uuid>,
}

/// Keeps the first of each repeated item, in one pass.
pub fn dedupe<T: Eq + Hash + Clone>(items: &[T]) -> Vec<T> {
    let mut seen: HashSet<&T> = HashSet::with_capacity(items.len());
    items.iter().filter(|item| seen.insert(*item)).cloned().collect()
}

fn entry_search(f: &EntryFields) -> String {
    normalize(&format!("{} {} {}", f.title, f.description, f.text))
}

pub async fn create_entry(
    conn: &mut PgConnection,
    owner: &str,
    visibility: &str,
    fields: &EntryFields,
    grants: &[Grant],
) -> sqlx::Result<Uuid> {
    let id = Uuid::new_v4();
    sqlx::query(
        "insert into template_entries (id, owner_id, title, text, description, soep_type, kind, visibility, codes, search, sort_title)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(id)
    .bind(owner)
    .bind(&fields.title)
    .bind(&fields.text)
    .bind(&fields.description)
    .bind(&fields.soep_type)
    .bind(&fields.kind)
    .bind(visibility)
    .bind(dedupe(&fields.codes))
    .bind(entry_search(fields))
    .bind(normalize(&fields.title))
    .execute(&mut *conn)
    .await?;
    replace_grants(conn, Kind::Entry, id, grants).await?;
    Ok(id)
}

pub async fn update_entry(
    conn: &mut PgConnection,
    id: Uuid,
    visibility: &str,
    fields: &EntryFields,
    grants: Option<&[Grant]>,
) -> sqlx::Result<()> {
    sqlx::query(
        "update template_entries
            set title = $2, text = $3, description = $4, soep_type = $5, kind = $6, visibility = $7, codes = $8,
                search = $9, sort_title = $10, updated_at = now()
          where id = $1",
    )
    .bind(id)
    .bind(&fields.title)
    .bind(&fields.text)
    .bind(&fields.description)
    .bind(&fields.soep_type)
    .bind(&fields.kind)
    .bind(visibility)
    .bind(dedupe(&fields.codes))
    .bind(entry_search(fields))
    .bind(normalize(&fields.title))
    .execute(&mut *conn)
    .await?;
    if let Some(grants) = grants {
        replace_grants(conn, Kind::Entry, id, grants).await?;
    }
    Ok(())
}

pub async fn create_group(
    conn: &mut PgConnection,
    owner: &str,
    visibility: &str,
    fields: &GroupFields,
    grants: &[Grant],
) -> sqlx::Result<Uuid> {
    let id = Uuid::new_v4();
    sqlx::query(
        "insert into template_groups (id, owner_id, title, description, visibility, search, sort_title)
         values ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(id)
    .bind(owner)
    .bind(&fields.title)
    .bind(&fields.description)
    .bind(visibility)
    .bind(normalize(&format!("{} {}", fields.title, fields.description)))
    .bind(normalize(&fields.title))
    .execute(&mut *conn)
    .await?;
    replace_group_entries(conn, id, &fields.entries).await?;
    replace_grants(conn, Kind::Group, id, grants).await?;
    Ok(id)
}

pub async fn update_group(
    conn: &mut PgConnection,
    id: Uuid,
    visibility: &str,
    fields: &GroupFields,
    grants: Option<&[Grant]>,
) -> sqlx::Result<()> {
    sqlx::query(
        "update template_groups
            set title = $2, description = $3, visibility = $4, search = $5, sort_title = $6, updated_at = now()
          where id = $1",
    )
    .bind(id)
    .bind(&fields.title)
    .bind(&fields.description)
    .bind(visibility)
    .bind(normalize(&format!("{} {}", fields.title, fields.description)))
    .bind(normalize(&fields.title))
    .execute(&mut *conn)
    .await?;
    replace_group_entries(conn, id, &fields.entries).await?;
    if let Some(grants) = grants {
        replace_grants(conn, Kind::Group, id, grants).await?;
    }
    Ok(())
}

async fn replace_group_entries(conn: &mut PgConnection, group: Uuid, entries: &[Uuid]) -> sqlx::Result<()> {
    let entries = dedupe(entries);
    let positions: Vec<i32> = (0..entries.len() as i32).collect();
    sqlx::query("delete from template_group_entries where group_id = $1").bind(group).execute(&mut *conn).await?;
    sqlx::query(
        "insert into template_group_entries (group_id, entry_id, position)
         select $1, e, p from unnest($2::uuid[], $3::int[]) as t(e, p)",
    )
    .bind(group)
    .bind(&entries)
    .bind(&positions)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

async fn replace_grants(conn: &mut PgConnection, kind: Kind, id: Uuid, grants: &[Grant]) -> sqlx::Result<()> {
    let column = kind.permission_column();
    sqlx::query(&format!("delete from template_permissions where {column} = $1")).bind(id).execute(&mut *conn).await?;
    for grant in dedupe(grants) {
        let (user, level, organisation) = match grant {
            Grant::User(u) => (Some(u), None, None),
            Grant::Level { id, .. } => (None, Some(id), None),
            Grant::Organisation { id, .. } => (None, None, Some(id)),
        };
        sqlx::query(&format!(
            "insert into template_permissions ({column}, user_id, level_id, organisation_id) values ($1, $2, $3, $4)"
        ))
        .bind(id)
        .bind(user)
        .bind(level)
        .bind(organisation)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

pub async fn delete(db: &PgPool, kind: Kind, id: Uuid) -> sqlx::Result<bool> {
    let done = sqlx::query(&format!("delete from {} where id = $1", kind.table())).bind(id).execute(db).await?;
    Ok(done.rows_affected() == 1)
}

/// Resolves a grant named by the SPA: a level or main organisation by name, among those the
/// viewer belongs to (staff: any), or a user by id.
pub async fn resolve_grant(
    db: &PgPool,
    viewer: &Viewer,
    user: Option<&str>,
    level_name: Option<&str>,
    organisation_name: Option<&str>,
) -> sqlx::Result<Option<Grant>> {
    if let Some(user) = user {
        let exists: bool = sqlx::query_scalar("select exists(select 1 from users where id = $1)").bind(user).fetch_one(db).await?;
        return Ok(exists.then(|| Grant::User(user.to_owned())));
    }
    if let Some(name) = level_name {
        let found: Option<(Uuid, String)> = sqlx::query_as(
            "select id, name from organisation_levels where lower(name) = lower($1) and ($2 or id = any($3)) order by created_at limit 1",
        )
        .bind(name)
        .bind(viewer.is_staff)
        .bind(&viewer.membership.levels)
        .fetch_optional(db)
        .await?;
        return Ok(found.map(|(id, name)| Grant::Level { id, name }));
    }
    if let Some(name) = organisation_name {
        let found: Option<(Uuid, String)> = sqlx::query_as(
            "select id, name from organisations where lower(name) = lower($1) and ($2 or id = any($3)) order by created_at limit 1",
        )
        .bind(name)
        .bind(viewer.is_staff)
        .bind(&viewer.membership.organisations)
        .fetch_optional(db)
        .await?;
        return Ok(found.map(|(id, name)| Grant::Organisation { id, name }));
    }
    Ok(None)
}

/// Words the user's speech engine should expect: the titles of the user's own template entries,
/// newest first, at most `limit`.
pub async fn vocabulary(db: &PgPool, user_id: &str, limit: i64) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar(
        "select title from (
             select distinct on (lower(title)) title, updated_at from template_entries
              where owner_id = $1 and length(trim(title)) between 2 and 60
              order by lower(title), updated_at desc) t
          order by updated_at desc limit $2",
    )
    .bind(user_id)
    .bind(limit)
    .fetch_all(db)
    .await
}
