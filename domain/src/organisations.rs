//! Main organisations, their levels (sub-organisations such as a practice) and their users.
//! Templates are shared with them; the staff CMS manages them (its forms and pages are
//! `cms::organisations`).
//!
//! What the product itself runs on lives here: [`refresh`] writes the effective terms on the
//! levels, the main organisations and the organisation subscriptions (after every staff change and
//! in the nightly expiry sweep), [`link_waiting`] links the addresses waiting for an account on
//! its first sign-in, [`sync`] links them all and refreshes every term, and [`letter_reader`]
//! reads the reader of an organisation letter when it is sent.

use chrono::NaiveDate;
use sqlx::{PgConnection, PgExecutor, PgPool};
use uuid::Uuid;

pub async fn create(db: impl PgExecutor<'_>, name: &str) -> sqlx::Result<Uuid> {
    let id = Uuid::new_v4();
    sqlx::query!("insert into organisations (id, name) values ($1, $2)", id, name).execute(db).await?;
    Ok(id)
}

pub async fn create_level(db: impl PgExecutor<'_>, organisation: Uuid, name: &str) -> sqlx::Result<Uuid> {
    let id = Uuid::new_v4();
    sqlx::query!("insert into organisation_levels (id, organisation_id, name) values ($1, $2, $3)", id, organisation, name)
        .execute(db)
        .await?;
    Ok(id)
}

/// Adds the user to the level, or changes their admin flag.
pub async fn add_member(db: impl PgExecutor<'_>, level: Uuid, user_id: &str, is_admin: bool) -> sqlx::Result<()> {
    sqlx::query!(
        "insert into organisation_members (level_id, user_id, is_admin) values ($1, $2, $3)
         on conflict (level_id, user_id) do update set is_admin = excluded.is_admin",
        level,
        user_id,
        is_admin
    )
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
    let rows = sqlx::query!(
        "select l.id, l.organisation_id, m.is_admin
           from organisation_members m join organisation_levels l on l.id = m.level_id
          where m.user_id = $1",
        user_id
    )
    .fetch_all(db)
    .await?;
    let mut m = Membership::default();
    for (level, organisation, admin) in rows.into_iter().map(|r| (r.id, r.organisation_id, r.is_admin)) {
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

/// Writes the effective terms of `organisation` (or of all, for the nightly sweep) on its
/// sub-organisations' active state, its own active state and the organisation subscriptions of
/// its users (a subscription switched off by staff stays off, one with its own last day keeps
/// it). Answers how many organisation subscriptions changed.
pub async fn refresh(conn: &mut PgConnection, organisation: Option<Uuid>, today: NaiveDate) -> sqlx::Result<u64> {
    sqlx::query!("update organisation_levels l
            set is_active = (coalesce(case when o.valid_date_main_level then o.start_date else l.start_date end, $2) <= $2
                             and coalesce(case when o.valid_date_main_level then o.valid_until else l.valid_until end, date '1970-01-01') >= $2)
           from organisations o
          where o.id = l.organisation_id and ($1::uuid is null or o.id = $1)", organisation, today)
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "update organisations o
            set is_active = case when o.valid_date_main_level
                                 then coalesce(o.start_date, $2) <= $2 and o.valid_until >= $2
                                 else exists (select 1 from organisation_levels l where l.organisation_id = o.id and l.is_active) end
          where ($1::uuid is null or o.id = $1)",
        organisation,
        today
    )
    .execute(&mut *conn)
    .await?;
    // a subscription staff switched off stays off, and one with its own last day keeps it
    let changed = sqlx::query!(
        "update organisation_subscriptions s
            set start_date = t.start_date, valid_until = t.valid_until, is_active = t.is_active
           from (select x.id, x.start_date, x.valid_until,
                        not x.switched_off and coalesce(x.start_date, $2) <= $2 and coalesce(x.valid_until, date '1970-01-01') >= $2 as is_active
                   from (select os.id, os.switched_off,
                                case when o.valid_date_main_level then o.start_date else l.start_date end as start_date,
                                coalesce(os.own_valid_until, case when o.valid_date_main_level then o.valid_until else l.valid_until end) as valid_until
                           from organisation_subscriptions os
                           join organisation_levels l on l.id = os.level_id
                           join organisations o on o.id = l.organisation_id
                          where ($1::uuid is null or o.id = $1)) x) t
          where s.id = t.id
            and (s.start_date, s.valid_until, s.is_active) is distinct from (t.start_date, t.valid_until, t.is_active)",
        organisation,
        today
    )
    .execute(&mut *conn)
    .await?
    .rows_affected();
    Ok(changed)
}

/// Links the waiting addresses of `email` to the account `user_id` (its first sign-in, or the
/// CMS's sync): they become members with their admin flag, and their organisation subscriptions
/// the account's. Answers the sub-organisations linked.
pub async fn link_waiting(conn: &mut PgConnection, user_id: &str, email: &str) -> sqlx::Result<Vec<Uuid>> {
    let levels = sqlx::query!("delete from organisation_level_emails where email = lower($1) returning level_id, is_admin", email)
        .fetch_all(&mut *conn)
        .await?;
    for r in &levels {
        let (level, admin) = (r.level_id, r.is_admin);
        sqlx::query!(
            "insert into organisation_members (level_id, user_id, is_admin) values ($1, $2, $3) on conflict do nothing",
            level,
            user_id,
            admin
        )
        .execute(&mut *conn)
        .await?;
    }
    sqlx::query!("update organisation_subscriptions set user_id = $1 where user_id is null and user_email = lower($2)", user_id, email)
        .execute(&mut *conn)
        .await?;
    Ok(levels.into_iter().map(|r| r.level_id).collect())
}

/// The CMS's sync (`POST tribe`): every waiting address that has an account now is linked to it,
/// and every term is written again. Answers (addresses linked, subscriptions changed).
pub async fn sync(tx: &mut PgConnection, today: NaiveDate) -> sqlx::Result<(u64, u64)> {
    let waiting = sqlx::query!(
        "select distinct on (e.email) u.id, e.email from organisation_level_emails e join users u on lower(u.email) = e.email
          order by e.email, u.created_at"
    )
    .fetch_all(&mut *tx)
    .await?;
    let mut linked = 0;
    for w in &waiting {
        linked += link_waiting(tx, &w.id, &w.email).await?.len() as u64;
    }
    let changed = refresh(tx, None, today).await?;
    Ok((linked, changed))
}

/// The reader of an organisation letter, as it stands when the letter is sent.
#[derive(Debug, Clone)]
pub struct LetterReader {
    pub email: String,
    /// Empty for an address without an account.
    pub name: String,
    pub organisation: String,
    pub level: String,
    pub is_admin: bool,
}

/// The account `user_id`, or the waiting `address`, of sub-organisation `level`; `None` when it is
/// no longer there (removed, or the address was linked to an account in the meantime).
pub async fn letter_reader(db: &PgPool, level: Uuid, user_id: Option<&str>, address: Option<&str>) -> sqlx::Result<Option<LetterReader>> {
    sqlx::query_as!(
        LetterReader,
        r#"select coalesce(u.email, e.email) as "email!", coalesce(u.preferred_name, u.preferred_username, '') as "name!",
                  o.name as organisation, l.name as level, coalesce(m.is_admin, e.is_admin) as "is_admin!"
             from organisation_levels l join organisations o on o.id = l.organisation_id
             left join organisation_members m on m.level_id = l.id and m.user_id = $2
             left join users u on u.id = m.user_id
             left join organisation_level_emails e on e.level_id = l.id and e.email = lower($3)
            where l.id = $1 and (m.user_id is not null or e.email is not null)"#,
        level,
        user_id,
        address
    )
    .fetch_optional(db)
    .await
}
