//! Template entries and groups: who sees and changes them, search and pagination.
//!
//! A user sees public templates, their own, and private ones shared with them, with an
//! organisation level they belong to, or with the main organisation of such a level. The owner,
//! an admin of a level or organisation the template is shared with, and staff may change or
//! delete. Lists show what a user sees (staff included); staff may open and change any template
//! by its id.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sqlx::{FromRow, PgConnection, PgPool, Postgres, QueryBuilder};
use uuid::Uuid;

use crate::text::normalize;

mod rules;

pub use rules::*;

impl Viewer {
    pub async fn load(db: &PgPool, user_id: &str, is_staff: bool) -> sqlx::Result<Self> {
        Ok(Self { user_id: user_id.to_owned(), is_staff, membership: crate::organisations::membership(db, user_id).await? })
    }
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
    pub soep_type: SoepType,
    pub kind: Option<String>,
    pub visibility: Visibility,
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
    pub visibility: Visibility,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// The tables and columns in which entries and groups differ.
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
    let mut qb = QueryBuilder::new(format!("select {} from {} t left join users u on u.id = t.owner_id", kind.columns(), kind.table()));
    push_visible_and_filter(&mut qb, kind, viewer, filter);
    qb.push(" order by t.sort_title, t.id limit ").push_bind(limit.max(0)).push(" offset ").push_bind(offset.max(0));
    qb
}

pub async fn entry(db: &PgPool, id: Uuid) -> sqlx::Result<Option<Entry>> {
    sqlx::query_as!(
        Entry,
        r#"select t.id, t.owner_id, u.preferred_name as "owner_name?", u.preferred_username as "owner_login?", t.title, t.text,
                  t.description, t.soep_type as "soep_type: SoepType", t.kind, t.visibility as "visibility: Visibility", t.codes,
                  t.created_at, t.updated_at
             from template_entries t left join users u on u.id = t.owner_id where t.id = $1"#,
        id,
    )
    .fetch_optional(db)
    .await
}

pub async fn group(db: &PgPool, id: Uuid) -> sqlx::Result<Option<Group>> {
    sqlx::query_as!(
        Group,
        r#"select t.id, t.owner_id, u.preferred_name as "owner_name?", u.preferred_username as "owner_login?", t.title,
                  t.description, t.visibility as "visibility: Visibility", t.created_at, t.updated_at
             from template_groups t left join users u on u.id = t.owner_id where t.id = $1"#,
        id,
    )
    .fetch_optional(db)
    .await
}

/// The entries of a group in their order, as far as the viewer may see them.
pub async fn group_entries(db: &PgPool, viewer: &Viewer, group: Uuid) -> sqlx::Result<Vec<Entry>> {
    // what the viewer sees: [`push_visible_and_filter`]'s condition without a filter
    let m = &viewer.membership;
    sqlx::query_as!(
        Entry,
        r#"select t.id, t.owner_id, u.preferred_name as "owner_name?", u.preferred_username as "owner_login?", t.title, t.text,
                  t.description, t.soep_type as "soep_type: SoepType", t.kind, t.visibility as "visibility: Visibility", t.codes,
                  t.created_at, t.updated_at
             from template_group_entries ge join template_entries t on t.id = ge.entry_id
             left join users u on u.id = t.owner_id
            where (t.visibility = 'PUBLIC' or t.owner_id = $1
                   or t.id in (select p.entry_id from template_permissions p
                                where p.entry_id is not null
                                  and (p.user_id = $1 or p.level_id = any($2) or p.organisation_id = any($3))))
              and ge.group_id = $4
            order by ge.position"#,
        &viewer.user_id,
        &m.levels,
        &m.organisations,
        group,
    )
    .fetch_all(db)
    .await
}

/// Whom a template is shared with.
pub async fn grants(db: &PgPool, kind: Kind, id: Uuid) -> sqlx::Result<Vec<Grant>> {
    Ok(grants_of(db, kind, &[id]).await?.remove(&id).unwrap_or_default())
}

/// Whom each of these templates is shared with, in one query.
pub async fn grants_of(db: &PgPool, kind: Kind, ids: &[Uuid]) -> sqlx::Result<HashMap<Uuid, Vec<Grant>>> {
    // a permission names an entry or a group: the ids asked for go in the array of their kind,
    // the other stays empty (the partial index of each kind serves its half)
    let (entries, groups): (&[Uuid], &[Uuid]) = match kind {
        Kind::Entry => (ids, &[]),
        Kind::Group => (&[], ids),
    };
    let rows = sqlx::query!(
        r#"select coalesce(p.entry_id, p.group_id) as "template!", p.user_id, l.id as "level_id?", l.name as "level_name?",
                  o.id as "organisation_id?", o.name as "organisation_name?"
             from template_permissions p
             left join organisation_levels l on l.id = p.level_id
             left join organisations o on o.id = p.organisation_id
            where p.entry_id = any($1) or p.group_id = any($2) order by p.id"#,
        entries,
        groups,
    )
    .fetch_all(db)
    .await?;
    let mut out: HashMap<Uuid, Vec<Grant>> = HashMap::new();
    for r in rows {
        let grant = match (r.user_id, r.level_id, r.level_name, r.organisation_id, r.organisation_name) {
            (Some(user), ..) => Grant::User(user),
            (_, Some(id), Some(name), ..) => Grant::Level { id, name },
            (_, _, _, Some(id), Some(name)) => Grant::Organisation { id, name },
            _ => continue,
        };
        out.entry(r.template).or_default().push(grant);
    }
    Ok(out)
}

fn entry_search(f: &EntryFields) -> String {
    normalize(&format!("{} {} {}", f.title, f.description, f.text))
}

pub async fn create_entry(
    conn: &mut PgConnection,
    owner: &str,
    visibility: Visibility,
    fields: &EntryFields,
    grants: &[Grant],
) -> sqlx::Result<Uuid> {
    let id = Uuid::new_v4();
    sqlx::query!(
        "insert into template_entries (id, owner_id, title, text, description, soep_type, kind, visibility, codes, search, sort_title)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        id,
        owner,
        &fields.title,
        &fields.text,
        &fields.description,
        fields.soep_type.as_str(),
        fields.kind.as_deref(),
        visibility.as_str(),
        &dedupe(&fields.codes),
        entry_search(fields),
        normalize(&fields.title),
    )
    .execute(&mut *conn)
    .await?;
    replace_grants(conn, Kind::Entry, id, grants).await?;
    Ok(id)
}

pub async fn update_entry(
    conn: &mut PgConnection,
    id: Uuid,
    visibility: Visibility,
    fields: &EntryFields,
    grants: Option<&[Grant]>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "update template_entries
            set title = $2, text = $3, description = $4, soep_type = $5, kind = $6, visibility = $7, codes = $8,
                search = $9, sort_title = $10, updated_at = now()
          where id = $1",
        id,
        &fields.title,
        &fields.text,
        &fields.description,
        fields.soep_type.as_str(),
        fields.kind.as_deref(),
        visibility.as_str(),
        &dedupe(&fields.codes),
        entry_search(fields),
        normalize(&fields.title),
    )
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
    visibility: Visibility,
    fields: &GroupFields,
    grants: &[Grant],
) -> sqlx::Result<Uuid> {
    let id = Uuid::new_v4();
    sqlx::query!(
        "insert into template_groups (id, owner_id, title, description, visibility, search, sort_title)
         values ($1, $2, $3, $4, $5, $6, $7)",
        id,
        owner,
        &fields.title,
        &fields.description,
        visibility.as_str(),
        normalize(&format!("{} {}", fields.title, fields.description)),
        normalize(&fields.title),
    )
    .execute(&mut *conn)
    .await?;
    replace_group_entries(conn, id, &fields.entries).await?;
    replace_grants(conn, Kind::Group, id, grants).await?;
    Ok(id)
}

pub async fn update_group(
    conn: &mut PgConnection,
    id: Uuid,
    visibility: Visibility,
    fields: &GroupFields,
    grants: Option<&[Grant]>,
) -> sqlx::Result<()> {
    sqlx::query!(
        "update template_groups
            set title = $2, description = $3, visibility = $4, search = $5, sort_title = $6, updated_at = now()
          where id = $1",
        id,
        &fields.title,
        &fields.description,
        visibility.as_str(),
        normalize(&format!("{} {}", fields.title, fields.description)),
        normalize(&fields.title),
    )
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
    sqlx::query!("delete from template_group_entries where group_id = $1", group).execute(&mut *conn).await?;
    sqlx::query!(
        "insert into template_group_entries (group_id, entry_id, position)
         select $1, e, p from unnest($2::uuid[], $3::int[]) as t(e, p)",
        group,
        &entries,
        &positions,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

async fn replace_grants(conn: &mut PgConnection, kind: Kind, id: Uuid, grants: &[Grant]) -> sqlx::Result<()> {
    // the same statements on `entry_id` or on `group_id`
    match kind {
        Kind::Entry => sqlx::query!("delete from template_permissions where entry_id = $1", id).execute(&mut *conn).await?,
        Kind::Group => sqlx::query!("delete from template_permissions where group_id = $1", id).execute(&mut *conn).await?,
    };
    for grant in dedupe(grants) {
        let (user, level, organisation) = match grant {
            Grant::User(u) => (Some(u), None, None),
            Grant::Level { id, .. } => (None, Some(id), None),
            Grant::Organisation { id, .. } => (None, None, Some(id)),
        };
        match kind {
            Kind::Entry => {
                sqlx::query!(
                    "insert into template_permissions (entry_id, user_id, level_id, organisation_id) values ($1, $2, $3, $4)",
                    id,
                    user,
                    level,
                    organisation,
                )
                .execute(&mut *conn)
                .await?
            }
            Kind::Group => {
                sqlx::query!(
                    "insert into template_permissions (group_id, user_id, level_id, organisation_id) values ($1, $2, $3, $4)",
                    id,
                    user,
                    level,
                    organisation,
                )
                .execute(&mut *conn)
                .await?
            }
        };
    }
    Ok(())
}

pub async fn delete(db: &PgPool, kind: Kind, id: Uuid) -> sqlx::Result<bool> {
    let done = match kind {
        Kind::Entry => sqlx::query!("delete from template_entries where id = $1", id).execute(db).await?,
        Kind::Group => sqlx::query!("delete from template_groups where id = $1", id).execute(db).await?,
    };
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
        let exists: bool =
            sqlx::query_scalar!(r#"select exists(select 1 from users where id = $1) as "exists!""#, user).fetch_one(db).await?;
        return Ok(exists.then(|| Grant::User(user.to_owned())));
    }
    if let Some(name) = level_name {
        let found = sqlx::query!(
            "select id, name from organisation_levels where lower(name) = lower($1) and ($2 or id = any($3)) order by created_at limit 1",
            name,
            viewer.is_staff,
            &viewer.membership.levels,
        )
        .fetch_optional(db)
        .await?
        .map(|r| (r.id, r.name));
        return Ok(found.map(|(id, name)| Grant::Level { id, name }));
    }
    if let Some(name) = organisation_name {
        let found = sqlx::query!(
            "select id, name from organisations where lower(name) = lower($1) and ($2 or id = any($3)) order by created_at limit 1",
            name,
            viewer.is_staff,
            &viewer.membership.organisations,
        )
        .fetch_optional(db)
        .await?
        .map(|r| (r.id, r.name));
        return Ok(found.map(|(id, name)| Grant::Organisation { id, name }));
    }
    Ok(None)
}

/// Words the user's speech engine should expect: the titles of the user's own template entries,
/// newest first, at most `limit`.
pub async fn vocabulary(db: &PgPool, user_id: &str, limit: i64) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar!(
        r#"select title as "title!" from (
             select distinct on (lower(title)) title, updated_at from template_entries
              where owner_id = $1 and length(trim(title)) between 2 and 60
              order by lower(title), updated_at desc) t
          order by updated_at desc limit $2"#,
        user_id,
        limit,
    )
    .fetch_all(db)
    .await
}

/// The codes an entry is to keep ([`entry_codes`]), each in the ICPC list in force.
pub async fn checked_codes(db: &PgPool, codes: &[String]) -> Result<Vec<String>, Refused> {
    let codes = entry_codes(codes)?;
    if let Some(first) = crate::icpc::unknown(db, &codes).await?.first() {
        return Err(unknown_code(first).into());
    }
    Ok(codes)
}

/// A group's entries as sent ([`group_entry_ids`]), each one the viewer may read; one that does
/// not exist and one they may not see are refused alike.
pub async fn checked_group_entries(db: &PgPool, viewer: &Viewer, ids: &[Uuid]) -> Result<Vec<Uuid>, Refused> {
    let ids = group_entry_ids(ids)?;
    for id in &ids {
        let found = entry(db, *id).await?.ok_or_else(|| unknown_entry(*id))?;
        let grants = grants(db, Kind::Entry, *id).await?;
        if !access(viewer, found.owner_id.as_deref(), found.visibility, &grants).allows(Access::Read) {
            return Err(unknown_entry(*id).into());
        }
    }
    Ok(ids)
}

/// Whom a template is to be shared with, as a user names them: a user by id, else a level by
/// name, else a main organisation by name.
#[derive(Debug, Clone, Copy, Default)]
pub struct Named<'a> {
    pub user: Option<&'a str>,
    pub level: Option<&'a str>,
    pub organisation: Option<&'a str>,
}

/// The grants a user names ([`resolve_grant`]), at most [`limits::PERMISSIONS`]; one that names
/// nothing the user may share with is refused.
pub async fn checked_grants(db: &PgPool, viewer: &Viewer, named: &[Named<'_>]) -> Result<Vec<Grant>, Refused> {
    let named = bounded_list(named.to_vec(), limits::PERMISSIONS, "deelrechten")?;
    let mut grants = Vec::with_capacity(named.len());
    for n in named {
        let grant = resolve_grant(db, viewer, n.user, n.level, n.organisation).await?;
        let what = n.user.or(n.level).or(n.organisation).unwrap_or_default();
        grants.push(grant.ok_or_else(|| unknown_permission(what))?);
    }
    Ok(grants)
}
