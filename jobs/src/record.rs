//! The job row in PostgreSQL and every change of its state.

use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::{FromRow, PgConnection, PgExecutor};
use uuid::Uuid;

use crate::kind::Job;

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

const RECORD_COLUMNS: &str = "id, kind, state, attempts, max_attempts, last_error, result, caused_by, run_at, \
                              created_at, updated_at, started_at, finished_at";

pub async fn find(db: impl PgExecutor<'_>, id: Uuid) -> sqlx::Result<Option<JobRecord>> {
    sqlx::query_as(&format!("select {RECORD_COLUMNS} from jobs where id = $1")).bind(id).fetch_optional(db).await
}

/// Rows waiting for a push, due or not: the predicate of the partial index
/// `jobs_undispatched_idx` `(kind, run_at)`, which a query must repeat word for word for the
/// planner to use that index.
pub(crate) const AWAITING_PUSH: &str = "dispatched_at is null and state in ('queued', 'retrying')";

/// The kinds that have rows waiting for a push (due or not), as a skip scan over
/// `jobs_undispatched_idx`: one index probe per kind, however long the backlog.
pub(crate) fn kinds_awaiting_push() -> String {
    format!(
        "with recursive k(kind) as (
            (select kind from jobs where {AWAITING_PUSH} order by kind limit 1)
            union all
            select (select kind from jobs where {AWAITING_PUSH} and kind > k.kind order by kind limit 1)
              from k where k.kind is not null)
         select kind from k where kind is not null"
    )
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
    pub fn of<J: Job>(payload: &J::Payload) -> Self {
        Self {
            kind: J::KIND,
            payload: serde_json::to_value(payload).expect("job payloads serialise"),
            max_attempts: J::policy().max_attempts,
            caused_by: None,
            dedupe_key: None,
            run_at: None,
        }
    }

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
    let inserted: Option<Uuid> = sqlx::query_scalar(
        "insert into jobs (id, kind, payload, max_attempts, caused_by, dedupe_key, run_at)
         values ($1, $2, $3, $4, $5, $6, coalesce($7, now()))
         on conflict (dedupe_key) where dedupe_key is not null do nothing
         returning id",
    )
    .bind(Uuid::new_v4())
    .bind(job.kind)
    .bind(&job.payload)
    .bind(job.max_attempts as i32)
    .bind(&job.caused_by)
    .bind(&job.dedupe_key)
    .bind(job.run_at)
    .fetch_optional(&mut *conn)
    .await?;
    crate::metrics::enqueued(job.kind, inserted.is_some() as u64);
    match inserted {
        Some(id) => Ok(id),
        None => sqlx::query_scalar("select id from jobs where dedupe_key = $1").bind(&job.dedupe_key).fetch_one(&mut *conn).await,
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
    let written: Vec<Uuid> = sqlx::query_scalar(
        "insert into jobs (id, kind, payload, max_attempts, caused_by, dedupe_key, run_at)
         select id, kind, payload, max_attempts, caused_by, dedupe_key, coalesce(run_at, now())
           from unnest($1::uuid[], $2::text[], $3::jsonb[], $4::int[], $5::text[], $6::text[], $7::timestamptz[])
             as t(id, kind, payload, max_attempts, caused_by, dedupe_key, run_at)
         on conflict (dedupe_key) where dedupe_key is not null do nothing
         returning id",
    )
    .bind(&ids)
    .bind(&kinds)
    .bind(&payloads)
    .bind(&max_attempts)
    .bind(&caused_by)
    .bind(&dedupe)
    .bind(&run_at)
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
// only filters the rows the primary key found.

/// The claim of [`claim_many`]: $1 the worker, $2 ids, $3 kinds, $4 leases in ms.
pub(crate) const CLAIM: &str = "update jobs j
        set state = 'running', attempts = j.attempts + 1, locked_by = $1,
            lease_until = now() + t.lease_ms * interval '1 millisecond',
            started_at = coalesce(j.started_at, now()), updated_at = now()
       from unnest($2::uuid[], $3::text[], $4::float8[]) as t(id, kind, lease_ms)
      where j.id = t.id and j.kind = t.kind
        and (j.state in ('queued', 'retrying') and j.run_at <= now() + interval '1 second') is true
      returning j.id, j.kind, j.payload, j.attempts, j.max_attempts, j.caused_by";

/// Takes each job for one attempt if it is waiting and due, in one statement. `None` for a job
/// someone else has, that is finished or not due (a duplicate or early message, then dropped),
/// and for a second request of the same job in the batch.
pub(crate) async fn claim_many(db: impl PgExecutor<'_>, worker: &str, requests: &[ClaimRequest]) -> sqlx::Result<Vec<Option<Claimed>>> {
    let mut seen = std::collections::HashSet::new();
    let first: Vec<bool> = requests.iter().map(|r| seen.insert(r.id)).collect();
    let unique: Vec<&ClaimRequest> = requests.iter().zip(&first).filter(|(_, f)| **f).map(|(r, _)| r).collect();
    let ids: Vec<Uuid> = unique.iter().map(|r| r.id).collect();
    let kinds: Vec<&str> = unique.iter().map(|r| r.kind.as_str()).collect();
    let leases: Vec<f64> = unique.iter().map(|r| r.lease.as_millis() as f64).collect();
    let claimed: Vec<Claimed> = sqlx::query_as(CLAIM).bind(worker).bind(&ids).bind(&kinds).bind(&leases).fetch_all(db).await?;
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

/// The outcomes of [`finish_many`]: $1 the worker, $2 ids, $3 outcomes, $4 results, $5 errors,
/// $6 backoffs in ms. A `wait` gives its attempt back: `retrying`, and the count as before the
/// claim.
pub(crate) const FINISH: &str = "update jobs j
        set state = case
                when t.outcome = 'succeeded' then 'succeeded'
                when t.outcome = 'failed' then 'failed'
                when t.outcome = 'wait' then 'retrying'
                when j.attempts >= j.max_attempts then 'dead'
                else 'retrying' end,
            attempts = case when t.outcome = 'wait' then j.attempts - 1 else j.attempts end,
            result = coalesce(t.result, j.result),
            last_error = case when t.outcome = 'succeeded' then j.last_error else t.error end,
            run_at = case when t.outcome in ('retry', 'wait') then now() + t.backoff_ms * interval '1 millisecond' else j.run_at end,
            dispatched_at = null, task_id = null, locked_by = null, lease_until = null,
            finished_at = case when t.outcome in ('succeeded', 'failed') or (t.outcome = 'retry' and j.attempts >= j.max_attempts)
                then now() end,
            updated_at = now()
       from unnest($2::uuid[], $3::text[], $4::jsonb[], $5::text[], $6::float8[])
         as t(id, outcome, result, error, backoff_ms)
      where j.id = t.id and (j.state = 'running' and j.locked_by = $1) is true
      returning j.id, j.state";

/// Records the ends of attempts held by `worker`, in one statement; per attempt the new state,
/// or `None` when it was no longer this worker's (its lease ran out and it was rescued).
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
    let states: Vec<(Uuid, JobState)> =
        sqlx::query_as(FINISH).bind(worker).bind(&ids).bind(&outcomes).bind(&results).bind(&errors).bind(&backoffs).fetch_all(db).await?;
    let by_id: std::collections::HashMap<Uuid, JobState> = states.into_iter().collect();
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
    sqlx::query_scalar(
        "update jobs
            set state = case when attempts > 1 then 'retrying' else 'queued' end,
                attempts = attempts - 1, run_at = now(),
                dispatched_at = null, task_id = null, locked_by = null, lease_until = null, updated_at = now()
          where state = 'running' and locked_by = $1
          returning id",
    )
    .bind(worker)
    .fetch_all(db)
    .await
}

/// The statement of [`unpush`]: $1 ids.
pub(crate) const UNPUSH: &str = "update jobs set dispatched_at = null, task_id = null
      where id = any($1) and (dispatched_at is not null and state in ('queued', 'retrying')) is true
      returning id";

/// Of these jobs, those whose message was taken and that never started: waiting for a push
/// again.
pub(crate) async fn unpush(db: impl PgExecutor<'_>, ids: &[Uuid]) -> sqlx::Result<Vec<Uuid>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    sqlx::query_scalar(UNPUSH).bind(ids).fetch_all(db).await
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
    /// statistics whose partial indexes are large (see the note above `CLAIM`).
    #[sqlx::test(migrations = "../migrations")]
    async fn statements_by_id_look_jobs_up_by_key_without_statistics(db: sqlx::PgPool) {
        // 20,000 jobs, never analysed: a quarter running, a quarter waiting for a push, half pushed
        sqlx::query(
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
                sqlx::query_scalar::<_, Uuid>("select id from jobs where state = $1 and (dispatched_at is not null) = $2 limit 50")
                    .bind(state)
                    .bind(pushed)
                    .fetch_all(&db)
                    .await
                    .unwrap()
            }
        };
        let (running, waiting, pushed) = (ids("running", true).await, ids("queued", false).await, ids("queued", true).await);
        let n = 50;
        let explain = |sql: &str| format!("explain (format json) {sql}");
        let claim = explain(CLAIM);
        let finish = explain(FINISH);
        let mark = explain(crate::dispatch::MARK);
        let unpush = explain(UNPUSH);
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
            sqlx::query(
                "insert into jobs (id, kind, payload, attempts, max_attempts, state, locked_by, lease_until)
                 values ($1, 'probe', '{}', 1, 1, 'running', 'w', now() + interval '1 minute')",
            )
            .bind(id)
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
                sqlx::query_as::<_, (String, i32, Option<String>, f64, bool, bool)>(
                    "select state, attempts, last_error, extract(epoch from run_at - now())::float8, finished_at is null,
                            locked_by is null
                       from jobs where id = $1",
                )
                .bind(id)
                .fetch_one(&db)
                .await
                .unwrap()
            }
        };
        let (state, attempts, error, due_in, unfinished, unlocked) = row(waiting).await;
        assert_eq!((state.as_str(), attempts, error.as_deref(), unfinished, unlocked), ("retrying", 0, Some("not yet"), true, true));
        assert!((29.0..=30.5).contains(&due_in), "due in {due_in} s");
        let (state, attempts, _, _, unfinished, _) = row(retried).await;
        assert_eq!((state.as_str(), attempts, unfinished), ("dead", 1, false));

        // due now: the next claim is attempt 1 again, the one that waited
        sqlx::query("update jobs set run_at = now() where id = $1").bind(waiting).execute(&db).await.unwrap();
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
            let rows: Vec<(Uuid, i32)> = sqlx::query_as("select id, (ctid::text::point)[0]::int from jobs").fetch_all(&db).await.unwrap();
            rows.into_iter().collect::<std::collections::HashMap<_, _>>()
        };
        let written = pages().await;
        assert!(written.values().collect::<std::collections::HashSet<_>>().len() > 1, "the rows fill several pages");
        let task_ids = vec!["t"; ids.len()];
        let marked = sqlx::query(crate::dispatch::MARK).bind(&ids).bind(&task_ids).execute(&db).await.unwrap();
        assert_eq!(marked.rows_affected(), 200);
        let moved: Vec<_> = pages().await.into_iter().filter(|(id, page)| written[id] != *page).collect();
        assert!(moved.is_empty(), "{} of 200 jobs moved off their page", moved.len());
    }
}
