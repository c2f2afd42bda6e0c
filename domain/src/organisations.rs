//! Main organisations, their levels (sub-organisations such as a practice) and their users.
//! Templates are shared with them; the staff CMS manages them.

use sqlx::PgExecutor;
use uuid::Uuid;

pub async fn create(db: impl PgExecutor<'_>, name: &str) -> sqlx::Result<Uuid> {
    let id = Uuid::new_v4();
    sqlx::query("insert into organisations (id, name) values ($1, $2)").bind(id).bind(name).execute(db).await?;
    Ok(id)
}

pub async fn create_level(db: impl PgExecutor<'_>, organisation: Uuid, name: &str) -> sqlx::Result<Uuid> {
    let id = Uuid::new_v4();
    sqlx::query("insert into organisation_levels (id, organisation_id, name) values ($1, $2, $3)")
        .bind(id)
        .bind(organisation)
        .bind(name)
        .execute(db)
        .await?;
    Ok(id)
}

/// Adds the user to the level, or changes their admin flag.
pub async fn add_member(db: impl PgExecutor<'_>, level: Uuid, user_id: &str, is_admin: bool) -> sqlx::Result<()> {
    sqlx::query(
        "insert into organisation_members (level_id, user_id, is_admin) values ($1, $2, $3)
         on conflict (level_id, user_id) do update set is_admin = excluded.is_admin",
    )
    .bind(level)
    .bind(user_id)
    .bind(is_admin)
    .execute(db)
    .await?;
    Ok(())
}

/// Where a user belongs: their levels and those levels' main organisations, and where they are
/// an admin.
#[derive(Debug, Clone, Default)]
pub struct Membership {
    pub levels: Vec<Uuid>,
    pub organisations: Vec<Uuid>,
    pub admin_levels: Vec<Uuid>,
    pub admin_organisations: Vec<Uuid>,
}

pub async fn membership(db: impl PgExecutor<'_>, user_id: &str) -> sqlx::Result<Membership> {
    let rows: Vec<(Uuid, Uuid, bool)> = sqlx::query_as(
        "select l.id, l.organisation_id, m.is_admin
           from organisation_members m join organisation_levels l on l.id = m.level_id
          where m.user_id = $1",
    )
    .bind(user_id)
    .fetch_all(db)
    .await?;
    let mut m = Membership::default();
    for (level, organisation, admin) in rows {
        m.levels.push(level);
        if !m.organisations.contains(&organisation) {
            m.organisations.push(organisation);
        }
        if admin {
            m.admin_levels.push(level);
            if !m.admin_organisations.contains(&organisation) {
                m.admin_organisations.push(organisation);
            }
        }
    }
    Ok(m)
}
