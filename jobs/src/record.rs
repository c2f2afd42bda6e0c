//! The job row in PostgreSQL and every change of its state.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::{FromRow, PgConnection, PgExecutor};
use uuid::Uuid;

pub use domain::jobs::JobState;

/// A job as the api shows it.
#[derive(Debug, Clone, FromRow)]
pub struct JobRecord {
    pub id: Uuid,
    pub kind: String,
    pub state: JobState,
    pub attempts: i32,
    pub max_attempts: i32,
    pub last_error: Option<String>,
    pub result: Option<Value>,
    pub caused_by: Option<String>,
    pub run_at: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub finished_at: Option<DateTime<Utc>>,
}

impl JobRecord {
    pub fn state(&self) -> JobState {
        self.state
    }
}

pub async fn find(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<Option<JobRecord>> {
    sqlx::query_as!(
        JobRecord,
        r#"select id, kind, state as "state: JobState", attempts, max_attempts, last_error, result, caused_by, run_at,
                  created_at, updated_at, started_at, finished_at
             from jobs where id = $1"#,
        id
    )
    .fetch_optional(db)
    .await
}

/// Rows waiting for a push, due or not: the predicate of the partial index
/// `jobs_undispatched_idx` `(kind, run_at)`, which a query must repeat word for word for the
/// planner to use that index. The compile-checked statements spell it out (a statement is one
/// literal): `queries/kinds_awaiting_push.sql` twice, the relay's push and backlog, the
/// dispatcher's grouping and the queue ages in `health`; a test holds them to this text.
#[cfg(test)]
pub(crate) const AWAITING_PUSH: &str = "dispatched_at is null and state in ('queued', 'retrying')";

/// The kinds that have rows waiting for a push (due or not), as a skip scan over
/// `jobs_undispatched_idx`: one index probe per kind, however long the backlog. The statement is
/// `queries/kinds_awaiting_push.sql` (no alias on its column: `health` writes it out in a `with`
/// and reads `kind`), run by the relay and its test through `query_file_scalar!`.
#[cfg(test)]
pub(crate) fn kinds_awaiting_push() -> String {
    include_str!("../queries/kinds_awaiting_push.sql").to_owned()
}

/// A job to enqueue.
#[derive(Debug, Clone)]
pub struct NewJob {
    pub kind: &'static str,
    pub payload: Value,
    pub max_attempts: u32,
    pub caused_by: Option<String>,
    pub dedupe_key: Option<String>,
    pub run_at: Option<DateTime<Utc>>,
}

impl NewJob {
    /// The user whose action causes the job: they may read its state.
    pub fn caused_by(mut self, user_id: impl Into<String>) -> Self {
        self.caused_by = Some(user_id.into());
        self
    }

    /// A second enqueue with the same key yields the first job instead of a new one.
    pub fn dedupe_key(mut self, key: impl Into<String>) -> Self {
        self.dedupe_key = Some(key.into());
        self
    }

    pub fn run_at(mut self, at: DateTime<Utc>) -> Self {
        self.run_at = Some(at);
        self
    }

    pub fn max_attempts(mut self, n: u32) -> Self {
        self.max_attempts = n.max(1);
        self
    }
}

/// Writes the job in the caller's transaction and returns its id (the existing job's id when the
/// dedupe key was used before). Push it with [`crate::Dispatcher::dispatch`] after commit; if
/// that never happens, the relay does.
pub async fn enqueue(conn: &mut PgConnection, job: NewJob) -> sqlx::Result<Uuid> {
    let inserted: Option<Uuid> = sqlx::query_scalar!(
        "insert into jobs (id, kind, payload, max_attempts, caused_by, dedupe_key, run_at)
         values ($1, $2, $3, $4, $5, $6, coalesce($7, now()))
         on conflict (dedupe_key) where dedupe_key is not null do nothing
         returning id",
        Uuid::new_v4(),
        job.kind,
        &job.payload,
        job.max_attempts as i32,
        job.caused_by.as_deref(),
        job.dedupe_key.as_deref(),
        job.run_at,
    )
    .fetch_optional(&mut *conn)
    .await?;
    crate::metrics::enqueued(job.kind, inserted.is_some() as u64);
    match inserted {
        Some(id) => Ok(id),
        None => sqlx::query_scalar!("select id from jobs where dedupe_key = $1", job.dedupe_key.as_deref()).fetch_one(&mut *conn).await,
    }
}

/// Writes many jobs in one statement (bulk work; dedupe keys already used are skipped) and
/// returns the ids of the rows written.
pub async fn enqueue_many(conn: &mut PgConnection, jobs: &[NewJob]) -> sqlx::Result<Vec<Uuid>> {
    let ids: Vec<Uuid> = jobs.iter().map(|_| Uuid::new_v4()).collect();
    let kinds: Vec<&str> = jobs.iter().map(|j| j.kind).collect();
    let payloads: Vec<Value> = jobs.iter().map(|j| j.payload.clone()).collect();
    let max_attempts: Vec<i32> = jobs.iter().map(|j| j.max_attempts as i32).collect();
    let caused_by: Vec<Option<String>> = jobs.iter().map(|j| j.caused_by.clone()).collect();
    let dedupe: Vec<Option<String>> = jobs.iter().map(|j| j.dedupe_key.clone()).collect();
    let run_at: Vec<Option<DateTime<Utc>>> = jobs.iter().map(|j| j.run_at).collect();
    // The macros type-check an array argument as a slice of the column's owned, non-null type
    // (`&[String]`); arrays of `&str` or of `Option`s go `as _`, which leaves that one argument
    // to its own `Encode` (the same `text[]`, `timestamptz[]`, nulls included).
    let written: Vec<Uuid> = sqlx::query_scalar!(
        "insert into jobs (id, kind, payload, max_attempts, caused_by, dedupe_key, run_at)
         select id, kind, payload, max_attempts, caused_by, dedupe_key, coalesce(run_at, now())
           from unnest($1::uuid[], $2::text[], $3::jsonb[], $4::int[], $5::text[], $6::text[], $7::timestamptz[])
             as t(id, kind, payload, max_attempts, caused_by, dedupe_key, run_at)
         on conflict (dedupe_key) where dedupe_key is not null do nothing
         returning id",
        &ids,
        &kinds as _,
        &payloads,
        &max_attempts,
        &caused_by as _,
        &dedupe as _,
        &run_at as _,
    )
    .fetch_all(&mut *conn)
    .await?;
    for kind in kinds.iter().collect::<std::collections::BTreeSet<_>>() {
        crate::metrics::enqueued(kind, jobs.iter().filter(|j| j.kind == *kind).count() as u64);
    }
    Ok(written)
}

/// An attempt a worker has claimed.
#[derive(Debug, Clone, FromRow)]
pub struct Claimed {
    pub id: Uuid,
    pub kind: String,
    pub payload: Value,
    /// This attempt's number, from 1.
    pub attempts: i32,
    pub max_attempts: i32,
    pub caused_by: Option<String>,
}

/// A request to take a job for one attempt.
#[derive(Debug, Clone)]
pub(crate) struct ClaimRequest {
    pub id: Uuid,
    pub kind: String,
    pub lease: Duration,
}

// Statements that take jobs by id check the row's state as `(...) is true`. Written plainly, a
// condition such as `state = 'running'` matches a partial index's predicate (`jobs_lease_idx`,
// `jobs_undispatched_idx`, `jobs_dispatched_idx`), and on a table without fresh statistics (a
// new database, a large backlog written since the last analyse) the planner walks that whole
// index instead of looking each id up: a single job's push took 36 ms beside 40,000 waiting
// jobs, a batch of outcomes 1.1 s beside 40,000 attempts. Behind `is true` the same condition
// only filters the rows the primary key found. These statements live in `queries/` (checked at
// compile time through `query_file*!`), where the test of their plans reads them too.

/// Takes each job for one attempt if it is waiting and due, in one statement. `None` for a job
/// someone else has, that is finished or not due (a duplicate or early message, then dropped),
/// and for a second request of the same job in the batch. The statement, `queries/claim.sql`:
/// $1 the worker, $2 ids, $3 kinds, $4 leases in ms.
pub(crate) async fn claim_many(db: impl PgExecutor<'_>, worker: &str, requests: &[ClaimRequest]) -> sqlx::Result<Vec<Option<Claimed>>> {
    let mut seen = std::collections::HashSet::new();
    let first: Vec<bool> = requests.iter().map(|r| seen.insert(r.id)).collect();
    let unique: Vec<&ClaimRequest> = requests.iter().zip(&first).filter(|(_, f)| **f).map(|(r, _)| r).collect();
    let ids: Vec<Uuid> = unique.iter().map(|r| r.id).collect();
    let kinds: Vec<&str> = unique.iter().map(|r| r.kind.as_str()).collect();
    let leases: Vec<f64> = unique.iter().map(|r| r.lease.as_millis() as f64).collect();
    let claimed: Vec<Claimed> =
        sqlx::query_file_as!(Claimed, "queries/claim.sql", worker, &ids, &kinds as _, &leases).fetch_all(db).await?;
    let mut by_id: std::collections::HashMap<Uuid, Claimed> = claimed.into_iter().map(|c| (c.id, c)).collect();
    Ok(requests.iter().zip(first).map(|(r, first)| if first { by_id.remove(&r.id) } else { None }).collect())
}

/// How an attempt ended, as written to the row.
#[derive(Debug, Clone)]
pub(crate) enum Outcome {
    Succeeded(Value),
    /// A permanent error: the job ends `failed`.
    Failed(String),
    /// A retryable error: `retrying` at `now + backoff`, or `dead` when no attempt is left.
    Retry {
        error: String,
        backoff: Duration,
    },
    /// Not possible yet ([`crate::JobError::NotYet`]): `retrying` at `now + retry_in`, the
    /// attempt given back.
    Wait {
        error: String,
        retry_in: Duration,
    },
}

/// Records the ends of attempts held by `worker`, in one statement; per attempt the new state,
/// or `None` when it was no longer this worker's (its lease ran out and it was rescued). The
/// statement, `queries/finish.sql`: $1 the worker, $2 ids, $3 outcomes, $4 results, $5 errors,
/// $6 backoffs in ms. A `wait` gives its attempt back: `retrying`, and the count as before the
/// claim.
pub(crate) async fn finish_many(
    db: impl PgExecutor<'_>,
    worker: &str,
    attempts: &[(Uuid, Outcome)],
) -> sqlx::Result<Vec<Option<JobState>>> {
    let ids: Vec<Uuid> = attempts.iter().map(|(id, _)| *id).collect();
    let mut outcomes = Vec::with_capacity(attempts.len());
    let mut results = Vec::with_capacity(attempts.len());
    let mut errors = Vec::with_capacity(attempts.len());
    let mut backoffs = Vec::with_capacity(attempts.len());
    for (_, outcome) in attempts {
        let (kind, result, error, backoff) = match outcome {
            Outcome::Succeeded(v) => ("succeeded", Some(storable_json(v)), None, 0.0),
            Outcome::Failed(e) => ("failed", None, Some(storable_text(e)), 0.0),
            Outcome::Retry { error, backoff } => ("retry", None, Some(storable_text(error)), backoff.as_millis() as f64),
            Outcome::Wait { error, retry_in } => ("wait", None, Some(storable_text(error)), retry_in.as_millis() as f64),
        };
        outcomes.push(kind);
        results.push(result);
        errors.push(error);
        backoffs.push(backoff);
    }
    let results: Vec<Option<&Value>> = results.iter().map(|r| r.as_deref()).collect();
    let errors: Vec<Option<&str>> = errors.iter().map(|e| e.as_deref()).collect();
    let states =
        sqlx::query_file!("queries/finish.sql", worker, &ids, &outcomes as _, &results as _, &errors as _, &backoffs).fetch_all(db).await?;
    let by_id: std::collections::HashMap<Uuid, JobState> = states.into_iter().map(|row| (row.id, row.state)).collect();
    Ok(ids.iter().map(|id| by_id.get(id).copied()).collect())
}

/// Text as PostgreSQL's `text` takes it: a NUL character (which it refuses, failing the whole
/// statement) becomes U+FFFD. Errors and results quote what handlers and users produced, and no
/// such text may keep a job's state from being written.
pub fn storable_text(s: &str) -> std::borrow::Cow<'_, str> {
    if s.contains('\0') { std::borrow::Cow::Owned(s.replace('\0', "\u{FFFD}")) } else { std::borrow::Cow::Borrowed(s) }
}

/// A JSON value as `jsonb` takes it: NUL characters in strings and keys (`\u0000`, which jsonb
/// refuses) become U+FFFD.
pub fn storable_json(v: &Value) -> std::borrow::Cow<'_, Value> {
    fn has_nul(v: &Value) -> bool {
        match v {
            Value::String(s) => s.contains('\0'),
            Value::Array(a) => a.iter().any(has_nul),
            Value::Object(o) => o.iter().any(|(k, v)| k.contains('\0') || has_nul(v)),
            _ => false,
        }
    }
    fn clean(v: &Value) -> Value {
        match v {
            Value::String(s) => Value::String(storable_text(s).into_owned()),
            Value::Array(a) => Value::Array(a.iter().map(clean).collect()),
            Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (storable_text(k).into_owned(), clean(v))).collect()),
            other => other.clone(),
        }
    }
    if has_nul(v) { std::borrow::Cow::Owned(clean(v)) } else { std::borrow::Cow::Borrowed(v) }
}

/// Gives attempts that `worker` could not finish before it stopped back, uncounted, so another
/// worker takes them at once.
pub(crate) async fn hand_back(db: impl PgExecutor<'_>, worker: &str) -> sqlx::Result<Vec<Uuid>> {
    sqlx::query_scalar!(
        "update jobs
            set state = case when attempts > 1 then 'retrying' else 'queued' end,
                attempts = attempts - 1, run_at = now(),
                dispatched_at = null, task_id = null, locked_by = null, lease_until = null, updated_at = now()
          where state = 'running' and locked_by = $1
          returning id",
        worker
    )
    .fetch_all(db)
    .await
}

/// Of these jobs, those whose message was taken and that never started: waiting for a push
/// again. The statement, `queries/unpush.sql`: $1 ids.
pub(crate) async fn unpush(db: impl PgExecutor<'_>, ids: &[Uuid]) -> sqlx::Result<Vec<Uuid>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    sqlx::query_file_scalar!("queries/unpush.sql", ids).fetch_all(db).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_characters_never_reach_a_state_column() {
        assert_eq!(storable_text("a\0b"), "a\u{FFFD}b");
        assert!(matches!(storable_text("ab"), std::borrow::Cow::Borrowed(_)));
        let v = serde_json::json!({"k\0": ["x\0", {"y": "z\0"}], "n": 1});
        let clean = storable_json(&v);
        assert_eq!(*clean, serde_json::json!({"k\u{FFFD}": ["x\u{FFFD}", {"y": "z\u{FFFD}"}], "n": 1}));
        assert!(matches!(storable_json(&serde_json::json!({"a": "b"})), std::borrow::Cow::Borrowed(_)));
    }

    /// The indexes a statement's plan reads.
    async fn indexes_read(
        db: &sqlx::PgPool,
        plan: sqlx::query::QueryScalar<'_, sqlx::Postgres, Value, sqlx::postgres::PgArguments>,
    ) -> Vec<String> {
        fn collect(v: &Value, into: &mut Vec<String>) {
            match v {
                Value::Object(o) => {
                    if let Some(Value::String(name)) = o.get("Index Name") {
                        into.push(name.clone());
                    }
                    o.values().for_each(|v| collect(v, into));
                }
                Value::Array(a) => a.iter().for_each(|v| collect(v, into)),
                _ => {}
            }
        }
        let plan = plan.fetch_one(db).await.unwrap();
        let mut names = Vec::new();
        collect(&plan, &mut names);
        names
    }

    /// The statements that take jobs by id look each one up by its key, also on a table without
    /// statistics whose partial indexes are large (see the note above `claim_many`).
    #[sqlx::test(migrations = "../migrations")]
    async fn statements_by_id_look_jobs_up_by_key_without_statistics(db: sqlx::PgPool) {
        // 20,000 jobs, never analysed: a quarter running, a quarter waiting for a push, half pushed
        sqlx::query!(
            "insert into jobs (id, kind, payload, max_attempts, state, locked_by, lease_until, dispatched_at)
             select gen_random_uuid(), 'probe', '{}', 3,
                    case when i % 4 = 0 then 'running' else 'queued' end,
                    case when i % 4 = 0 then 'w' end,
                    case when i % 4 = 0 then now() + interval '1 minute' end,
                    case when i % 4 <> 1 then now() end
               from generate_series(1, 20000) as i",
        )
        .execute(&db)
        .await
        .unwrap();
        let ids = |state: &'static str, pushed: bool| {
            let db = db.clone();
            async move {
                sqlx::query_scalar!("select id from jobs where state = $1 and (dispatched_at is not null) = $2 limit 50", state, pushed)
                    .fetch_all(&db)
                    .await
                    .unwrap()
            }
        };
        let (running, waiting, pushed) = (ids("running", true).await, ids("queued", false).await, ids("queued", true).await);
        let n = 50;
        let explain = |sql: &str| format!("explain (format json) {sql}");
        let claim = explain(include_str!("../queries/claim.sql"));
        let finish = explain(include_str!("../queries/finish.sql"));
        let mark = explain(crate::dispatch::MARK);
        let unpush = explain(include_str!("../queries/unpush.sql"));
        let plans = [
            (
                "claim",
                indexes_read(&db, sqlx::query_scalar(&claim).bind("w").bind(&pushed).bind(vec!["probe"; n]).bind(vec![60_000.0f64; n]))
                    .await,
            ),
            (
                "outcome",
                indexes_read(
                    &db,
                    sqlx::query_scalar(&finish)
                        .bind("w")
                        .bind(&running)
                        .bind(vec!["succeeded"; n])
                        .bind(vec![Some(serde_json::json!({})); n])
                        .bind(vec![None::<String>; n])
                        .bind(vec![0.0f64; n]),
                )
                .await,
            ),
            ("push mark", indexes_read(&db, sqlx::query_scalar(&mark).bind(&waiting).bind(vec!["t"; n])).await),
            ("unpush", indexes_read(&db, sqlx::query_scalar(&unpush).bind(&pushed)).await),
        ];
        let astray: Vec<_> = plans.iter().filter(|(_, indexes)| indexes.is_empty() || indexes.iter().any(|i| i != "jobs_pkey")).collect();
        assert!(astray.is_empty(), "statements not reading the primary key alone: {astray:?}");
    }

    /// A `wait` outcome gives its attempt back: the job is `retrying` at `now + retry_in` with
    /// the count it had before the claim, also on its last attempt (where a retryable error
    /// makes it `dead`), and the next claim runs that same attempt number again.
    #[sqlx::test(migrations = "../migrations")]
    async fn a_wait_gives_the_attempt_back_where_a_retry_uses_it_up(db: sqlx::PgPool) {
        let insert = || async {
            let id = Uuid::new_v4();
            sqlx::query!(
                "insert into jobs (id, kind, payload, attempts, max_attempts, state, locked_by, lease_until)
                 values ($1, 'probe', '{}', 1, 1, 'running', 'w', now() + interval '1 minute')",
                id,
            )
            .execute(&db)
            .await
            .unwrap();
            id
        };
        let (waiting, retried) = (insert().await, insert().await);
        let outcomes = [
            (waiting, Outcome::Wait { error: "not yet".into(), retry_in: Duration::from_secs(30) }),
            (retried, Outcome::Retry { error: "later".into(), backoff: Duration::from_secs(30) }),
        ];
        let states = finish_many(&db, "w", &outcomes).await.unwrap();
        assert_eq!(states, [Some(JobState::Retrying), Some(JobState::Dead)]);
        let row = |id: Uuid| {
            let db = db.clone();
            async move {
                let r = sqlx::query!(
                    r#"select state, attempts, last_error, extract(epoch from run_at - now())::float8 as "due_in!",
                              finished_at is null as "unfinished!", locked_by is null as "unlocked!"
                         from jobs where id = $1"#,
                    id,
                )
                .fetch_one(&db)
                .await
                .unwrap();
                (r.state, r.attempts, r.last_error, r.due_in, r.unfinished, r.unlocked)
            }
        };
        let (state, attempts, error, due_in, unfinished, unlocked) = row(waiting).await;
        assert_eq!((state.as_str(), attempts, error.as_deref(), unfinished, unlocked), ("retrying", 0, Some("not yet"), true, true));
        assert!((29.0..=30.5).contains(&due_in), "due in {due_in} s");
        let (state, attempts, _, _, unfinished, _) = row(retried).await;
        assert_eq!((state.as_str(), attempts, unfinished), ("dead", 1, false));

        // due now: the next claim is attempt 1 again, the one that waited
        sqlx::query!("update jobs set run_at = now() where id = $1", waiting).execute(&db).await.unwrap();
        let request = ClaimRequest { id: waiting, kind: "probe".into(), lease: Duration::from_secs(60) };
        let claimed = claim_many(&db, "w", &[request]).await.unwrap().remove(0).expect("claimed");
        assert_eq!((claimed.attempts, claimed.max_attempts), (1, 1));
    }

    /// A job's next version (here the push's mark) is written on the page its row was inserted
    /// on, also for rows written in bulk, so a drain does not queue on the table's extension (see
    /// the migration `jobs_fillfactor`). Only the first update is followed: whether the later
    /// ones still fit depends on page pruning, which any transaction open elsewhere on the server
    /// (another test's) holds back.
    #[sqlx::test(migrations = "../migrations")]
    async fn a_jobs_next_version_is_written_on_its_rows_page(db: sqlx::PgPool) {
        let job = crate::kinds::Probe::job(&crate::kinds::probe::ProbePayload::default());
        let ids = enqueue_many(&mut db.acquire().await.unwrap(), &vec![job; 200]).await.unwrap();
        let pages = || async {
            let rows = sqlx::query!(r#"select id, (ctid::text::point)[0]::int as "page!" from jobs"#).fetch_all(&db).await.unwrap();
            rows.into_iter().map(|r| (r.id, r.page)).collect::<std::collections::HashMap<_, _>>()
        };
        let written = pages().await;
        assert!(written.values().collect::<std::collections::HashSet<_>>().len() > 1, "the rows fill several pages");
        let task_ids = vec!["t"; ids.len()];
        let marked = sqlx::query_file!("queries/mark.sql", &ids, &task_ids as _).fetch_all(&db).await.unwrap();
        assert_eq!(marked.len(), 200);
        let moved: Vec<_> = pages().await.into_iter().filter(|(id, page)| written[id] != *page).collect();
        assert!(moved.is_empty(), "{} of 200 jobs moved off their page", moved.len());
    }

    /// The predicate of `jobs_undispatched_idx` stands word for word in the kinds' skip scan,
    /// twice, and in the statements that read waiting rows elsewhere: the relay's push and
    /// backlog, the dispatcher's grouping, and the queue ages (the skip scan written out again
    /// and the earliest waiting row per kind).
    #[test]
    fn the_kinds_skip_scan_repeats_the_index_predicate_word_for_word() {
        assert_eq!(kinds_awaiting_push().matches(AWAITING_PUSH).count(), 2);
        assert_eq!(include_str!("relay.rs").matches(AWAITING_PUSH).count(), 2);
        assert_eq!(include_str!("dispatch.rs").matches(AWAITING_PUSH).count(), 1);
        assert_eq!(include_str!("health.rs").matches(AWAITING_PUSH).count(), 3);
        assert!(include_str!("health.rs").contains(kinds_awaiting_push().trim_end().lines().nth(1).unwrap().trim()));
    }

    /// The kinds with rows waiting for a push, due or not, each once and in order; pushed,
    /// running and finished rows do not count.
    #[sqlx::test(migrations = "../migrations")]
    async fn the_kinds_awaiting_a_push_are_those_with_unpushed_waiting_rows(db: sqlx::PgPool) {
        sqlx::query!(
            "insert into jobs (id, kind, payload, max_attempts, state, run_at, dispatched_at)
             values (gen_random_uuid(), 'b', '{}', 3, 'queued', now(), null),
                    (gen_random_uuid(), 'b', '{}', 3, 'retrying', now() + interval '1 hour', null),
                    (gen_random_uuid(), 'a', '{}', 3, 'retrying', now() + interval '1 hour', null),
                    (gen_random_uuid(), 'c', '{}', 3, 'queued', now(), now()),
                    (gen_random_uuid(), 'd', '{}', 3, 'running', now(), null),
                    (gen_random_uuid(), 'e', '{}', 3, 'succeeded', now(), null)",
        )
        .execute(&db)
        .await
        .unwrap();
        let kinds: Vec<Option<String>> = sqlx::query_file_scalar!("queries/kinds_awaiting_push.sql").fetch_all(&db).await.unwrap();
        assert_eq!(kinds, [Some("a".to_owned()), Some("b".to_owned())]);
    }
}
