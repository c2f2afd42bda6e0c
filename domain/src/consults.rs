//! Consults, their live audio sessions and their summaries: each user's own, never anyone
//! else's, and gone when their retention has passed.
//!
//! Every query takes the owner's id; a row of another user is simply not found.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::types::Json;
use sqlx::{PgConnection, PgPool};

use crate::env::{Env, EnvError};
use crate::summary::{ConsultResult, SummaryRequest, Template};

/// How long consult data is kept, and how live sessions live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConsultConfig {
    /// Consults, transcripts, summaries: deleted this long after they were made
    /// (`APP_CONSULT_RETENTION`, 14 days).
    pub retention: Duration,
    /// A live session is refused this long after it was opened (`APP_SPEECH_SESSION_TTL`, 4 h).
    pub session_ttl: Duration,
    /// A dropped socket may reconnect to its session within this time (`APP_SPEECH_RESUME_GRACE`,
    /// 10 minutes); after that the session has expired.
    pub resume_grace: Duration,
    /// Consults the record system creates expire after this (`APP_RECORD_SYSTEM_CONSULT_TTL`,
    /// 1 hour).
    pub record_system_ttl: Duration,
    /// Live sockets one api process serves at once (`APP_SPEECH_MAX_SESSIONS`, 1,000; 0 is no
    /// limit); one more is refused as busy, so that it reconnects, perhaps on another replica.
    pub max_live_sessions: usize,
}

impl Default for ConsultConfig {
    fn default() -> Self {
        Self {
            retention: Duration::from_secs(14 * 86_400),
            session_ttl: Duration::from_secs(4 * 3600),
            resume_grace: Duration::from_secs(600),
            record_system_ttl: Duration::from_secs(3600),
            max_live_sessions: 1_000,
        }
    }
}

impl ConsultConfig {
    pub fn from_env(env: &Env) -> Result<Self, EnvError> {
        let d = Self::default();
        let config = Self {
            retention: env.duration("APP_CONSULT_RETENTION", d.retention)?,
            session_ttl: env.duration("APP_SPEECH_SESSION_TTL", d.session_ttl)?,
            resume_grace: env.duration("APP_SPEECH_RESUME_GRACE", d.resume_grace)?,
            record_system_ttl: env.duration("APP_RECORD_SYSTEM_CONSULT_TTL", d.record_system_ttl)?,
            max_live_sessions: env.parse("APP_SPEECH_MAX_SESSIONS", d.max_live_sessions)?,
        };
        if config.retention < Duration::from_secs(60) {
            return Err(EnvError::new("APP_CONSULT_RETENTION", "must be at least a minute"));
        }
        Ok(config)
    }
}

/// Where a consult came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    App,
    Electronic,
    RecordSystem,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::App => "app",
            Source::Electronic => "electronic",
            Source::RecordSystem => "record_system",
        }
    }
}

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct Consult {
    pub id: String,
    pub user_id: String,
    pub source: String,
    pub content: Value,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    /// The note as the clinician edits it on the consult page (see [`save_note`]).
    pub note: Option<Value>,
    pub note_saved_at: Option<DateTime<Utc>>,
}

/// A new random id for a consult, session or summary: a ULID (time-ordered, 80 random bits).
pub fn new_id() -> String {
    ulid::Ulid::generate().to_string().to_lowercase()
}

fn after(d: Duration) -> DateTime<Utc> {
    Utc::now() + chrono::Duration::from_std(d).unwrap_or(chrono::Duration::days(3650))
}

/// A statement on consults that reads the consult's columns, written once: `$head` comes
/// before them (`select`, `... returning`), `$tail` after them.
macro_rules! consult_row {
    ($head:literal, $tail:literal, $($arg:expr),+ $(,)?) => {
        sqlx::query_as!(Consult, $head + " id, user_id, source, content, created_at, updated_at, expires_at, note, note_saved_at " + $tail, $($arg),+)
    };
}

/// [`consult_row!`] for a consult's sessions.
macro_rules! session_row {
    ($head:literal, $tail:literal, $($arg:expr),+ $(,)?) => {
        sqlx::query_as!(Session, $head + " id, user_id, consult_id, new_model, created_at, expires_at " + $tail, $($arg),+)
    };
}

pub async fn create(conn: &mut PgConnection, user_id: &str, source: Source, content: &Value, keep_for: Duration) -> sqlx::Result<Consult> {
    consult_row!(
        "insert into consults (id, user_id, source, content, expires_at) values ($1, $2, $3, $4, $5) returning",
        "",
        new_id(),
        user_id,
        source.as_str(),
        content,
        after(keep_for),
    )
    .fetch_one(conn)
    .await
}

/// The user's consult, unless it has expired.
pub async fn get(db: &PgPool, user_id: &str, id: &str) -> sqlx::Result<Option<Consult>> {
    consult_row!("select", "from consults where id = $1 and user_id = $2 and expires_at > now()", id, user_id).fetch_optional(db).await
}

/// A consult by id alone, unless it has expired: for the record system's hand-off page, which
/// has no signed-in user.
pub async fn get_any(db: &PgPool, id: &str) -> sqlx::Result<Option<Consult>> {
    consult_row!("select", "from consults where id = $1 and expires_at > now()", id).fetch_optional(db).await
}

pub async fn update(db: &PgPool, user_id: &str, id: &str, content: &Value) -> sqlx::Result<Option<Consult>> {
    consult_row!(
        "update consults set content = $3, updated_at = now() where id = $1 and user_id = $2 and expires_at > now() returning",
        "",
        id,
        user_id,
        content,
    )
    .fetch_optional(db)
    .await
}

/// Keeps the note as the clinician edits it (the consult page's form, stored whole) with the
/// user's consult, unless it has expired; answers when it was saved, or `None` when the consult
/// is not the user's (or gone). The content and the summaries' results stay as they are.
pub async fn save_note(db: &PgPool, user_id: &str, id: &str, note: &Value) -> sqlx::Result<Option<DateTime<Utc>>> {
    sqlx::query_scalar!(
        r#"update consults set note = $3, note_saved_at = now(), updated_at = now()
          where id = $1 and user_id = $2 and expires_at > now()
         returning note_saved_at as "note_saved_at!""#,
        id,
        user_id,
        note,
    )
    .fetch_optional(db)
    .await
}

/// Deletes the consult with its sessions and summaries. False when it is not the user's.
pub async fn delete(db: &PgPool, user_id: &str, id: &str) -> sqlx::Result<bool> {
    let n = sqlx::query!("delete from consults where id = $1 and user_id = $2", id, user_id).execute(db).await?.rows_affected();
    Ok(n > 0)
}

/// Keeps a summary's note in its consult's content under `result` (and the template under
/// `template`), leaving the rest of the content as the client wrote it.
pub async fn store_result(conn: &mut PgConnection, consult_id: &str, template: Template, result: &ConsultResult) -> sqlx::Result<()> {
    sqlx::query!(
        "update consults
            set content = jsonb_set(jsonb_set(content, '{result}', $2), '{template}', to_jsonb($3::text)),
                updated_at = now()
          where id = $1",
        consult_id,
        Json(result) as _,
        template.as_str(),
    )
    .execute(conn)
    .await?;
    Ok(())
}

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct Session {
    pub id: String,
    pub user_id: String,
    pub consult_id: String,
    pub new_model: bool,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

impl Session {
    pub fn expired(&self) -> bool {
        self.expires_at <= Utc::now()
    }
}

pub async fn create_session(
    conn: &mut PgConnection,
    user_id: &str,
    consult_id: &str,
    new_model: bool,
    ttl: Duration,
) -> sqlx::Result<Session> {
    session_row!(
        "insert into consult_sessions (id, user_id, consult_id, new_model, expires_at) values ($1, $2, $3, $4, $5) returning",
        "",
        new_id(),
        user_id,
        consult_id,
        new_model,
        after(ttl),
    )
    .fetch_one(conn)
    .await
}

/// A session by id, expired or not (the caller tells the two apart, and checks the owner).
pub async fn find_session(db: &PgPool, id: &str) -> sqlx::Result<Option<Session>> {
    session_row!("select", "from consult_sessions where id = $1", id).fetch_optional(db).await
}

/// What a batch of joins found for one asked session ([`record_presence`]).
#[derive(Debug, Clone, PartialEq)]
pub enum JoinAnswer {
    /// The session is the asker's and was live: it has its whole life back.
    Joined(Session),
    /// The session is the asker's but has expired.
    Expired,
    /// No such session, or another user's.
    NotFound,
}

/// Records, in one statement, sockets that left and sockets that join, and answers every join.
///
/// - A session a socket left (`leaves`) can be resumed within `grace`, then it has expired: its
///   expiry is pulled forward to `grace` from now (never pushed back).
/// - A session a socket joins (`joins`: the session id and the user asking) gets its whole life
///   back (`ttl` after it was opened), which a leave had pulled forward, when it is that user's
///   and has not expired.
///
/// Answers every join with what it found, in the order asked. A session both left and joined (by its
/// owner) in one call is only joined: the callers ask in order, and a join after a leave
/// supersedes it. (PostgreSQL runs every data-modifying part of a `with` to completion, read or
/// not.)
pub async fn record_presence(
    conn: &mut PgConnection,
    joins: &[(String, String)],
    leaves: &[String],
    ttl: Duration,
    grace: Duration,
) -> sqlx::Result<Vec<JoinAnswer>> {
    let (ids, users): (Vec<&str>, Vec<&str>) = joins.iter().map(|(s, u)| (s.as_str(), u.as_str())).unzip();
    // Each asked session as it is now, and whether this call joined it.
    let rows = sqlx::query!(
        r#"with asked as (select distinct t.id, t.user_id from unnest($1::text[], $2::text[]) as t(id, user_id)),
              left_now as (
                update consult_sessions s
                   set expires_at = least(s.expires_at, now() + $4 * interval '1 millisecond')
                 where s.id = any($3::text[])
                   and not exists (select 1 from asked a where a.id = s.id and a.user_id = s.user_id)
                returning s.id),
              joined as (
                update consult_sessions s
                   set expires_at = s.created_at + $5 * interval '1 millisecond'
                  from asked a
                 where s.id = a.id and s.user_id = a.user_id and s.expires_at > now()
                returning s.id, s.expires_at)
         select s.id, s.user_id, s.consult_id, s.new_model, s.created_at,
                coalesce(j.expires_at, s.expires_at) as "expires_at!",
                j.id is not null as "joined!"
           from consult_sessions s
           left join joined j on j.id = s.id
          where s.id in (select id from asked)"#,
        &ids as _,
        &users as _,
        leaves,
        grace.as_millis() as f64,
        ttl.as_millis() as f64,
    )
    .fetch_all(conn)
    .await?;
    let rows: Vec<(Session, bool)> = rows
        .into_iter()
        .map(|r| {
            let session = Session {
                id: r.id,
                user_id: r.user_id,
                consult_id: r.consult_id,
                new_model: r.new_model,
                created_at: r.created_at,
                expires_at: r.expires_at,
            };
            (session, r.joined)
        })
        .collect();
    let found: std::collections::HashMap<&str, &(Session, bool)> = rows.iter().map(|r| (r.0.id.as_str(), r)).collect();
    Ok(joins
        .iter()
        .map(|(id, user)| match found.get(id.as_str()) {
            Some((session, joined)) if session.user_id == *user && *joined => JoinAnswer::Joined(session.clone()),
            Some((session, _)) if session.user_id == *user => JoinAnswer::Expired,
            _ => JoinAnswer::NotFound,
        })
        .collect())
}

/// A summary to make.
#[derive(Debug, Clone)]
pub struct NewSummary<'a> {
    pub user_id: &'a str,
    pub consult_id: Option<&'a str>,
    pub session_id: Option<&'a str>,
    pub route: &'a str,
    pub request: &'a SummaryRequest,
    pub keep_for: Duration,
}

pub async fn create_summary(conn: &mut PgConnection, new: &NewSummary<'_>) -> sqlx::Result<String> {
    let id = new_id();
    sqlx::query!(
        "insert into summaries (id, user_id, consult_id, session_id, route, request, expires_at)
         values ($1, $2, $3, $4, $5, $6, $7)",
        &id,
        new.user_id,
        new.consult_id,
        new.session_id,
        new.route,
        Json(new.request) as _,
        after(new.keep_for),
    )
    .execute(conn)
    .await?;
    Ok(id)
}

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct SummaryRow {
    pub id: String,
    pub user_id: String,
    pub consult_id: Option<String>,
    pub session_id: Option<String>,
    pub route: String,
    /// What the clinician asked for, with the transcript as it was then.
    pub request: Json<SummaryRequest>,
    /// The note, once the job made it.
    pub result: Option<Json<ConsultResult>>,
    pub engine: Option<String>,
}

impl SummaryRow {
    /// The note, once the job made it.
    pub fn note(&self) -> Option<&ConsultResult> {
        self.result.as_ref().map(|Json(note)| note)
    }
}

/// A summary by id, unless it has expired.
pub async fn find_summary(db: &PgPool, id: &str) -> sqlx::Result<Option<SummaryRow>> {
    sqlx::query_as!(
        SummaryRow,
        r#"select id, user_id, consult_id, session_id, route, request as "request: Json<SummaryRequest>",
                  result as "result: Json<ConsultResult>", engine
             from summaries where id = $1 and expires_at > now()"#,
        id,
    )
    .fetch_optional(db)
    .await
}

/// Records a summary's note, and keeps it with its consult.
pub async fn finish_summary(conn: &mut PgConnection, row: &SummaryRow, result: &ConsultResult, engine: &str) -> sqlx::Result<()> {
    let template = row.request.template;
    sqlx::query!("update summaries set result = $2, engine = $3, finished_at = now() where id = $1", &row.id, Json(result) as _, engine)
        .execute(&mut *conn)
        .await?;
    if let Some(consult) = &row.consult_id {
        store_result(conn, consult, template, result).await?;
    }
    Ok(())
}

/// What a purge removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Purged {
    pub consults: u64,
    pub sessions: u64,
    pub summaries: u64,
}

/// Deletes every consult, session and summary whose time has passed (a consult takes its
/// sessions and summaries with it). Sessions are deleted once they can no longer be resumed.
pub async fn purge_expired(db: &PgPool) -> sqlx::Result<Purged> {
    let mut tx = db.begin().await?;
    let summaries = sqlx::query!("delete from summaries where expires_at <= now()").execute(&mut *tx).await?.rows_affected();
    let sessions = sqlx::query!("delete from consult_sessions where expires_at <= now()").execute(&mut *tx).await?.rows_affected();
    let consults = sqlx::query!("delete from consults where expires_at <= now()").execute(&mut *tx).await?.rows_affected();
    tx.commit().await?;
    Ok(Purged { consults, sessions, summaries })
}

/// Whether the user is a helper user (set by staff).
pub async fn is_helper(db: &PgPool, user_id: &str) -> sqlx::Result<bool> {
    let flag: Option<bool> = sqlx::query_scalar!("select is_helper from users where id = $1", user_id).fetch_optional(db).await?;
    Ok(flag.unwrap_or(false))
}

/// Sets the helper flag; false when there is no such user.
/// Sets the user's helper flag in `tx`; answers what it was before and the user's e-mail
/// address, or `None` when there is no such user.
pub async fn set_helper(tx: &mut sqlx::PgConnection, user_id: &str, flag: bool) -> sqlx::Result<Option<(bool, String)>> {
    let row = sqlx::query!(
        "update users u set is_helper = $2, updated_at = now()
           from users old
          where u.id = $1 and old.id = u.id
          returning old.is_helper, u.email",
        user_id,
        flag,
    )
    .fetch_optional(tx)
    .await?;
    Ok(row.map(|r| (r.is_helper, r.email)))
}
