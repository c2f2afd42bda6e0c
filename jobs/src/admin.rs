//! Background work as staff think of it (the CMS's Achtergrondtaken): jobs that went wrong, told
//! in words ("Factuur voor betaling van anne@example.nl (…, € 121,00)"), a retry, the queues at
//! a glance and what each sweep did last.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::Value;
use sqlx::{PgConnection, PgPool};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::JobState;
use crate::kinds;
use crate::told::{Names, Wanted};

/// A kind this build does not know, in Dutch.
const UNKNOWN_KIND: &str = "Taak";

/// A job kind in Dutch (its [`crate::kind::Job::LABEL`]).
pub fn label(kind: &str) -> &'static str {
    kinds::named(kind).map_or(UNKNOWN_KIND, |k| k.label)
}

/// The sweeps the scheduler runs, by kind, in the order the CMS lists them.
pub const SWEEPS: [&str; 6] =
    ["expire_subscriptions", "renew_subscriptions", "check_unpaid", "reconcile_payments", "purge_consults", "prune_jobs"];

/// A job that went wrong.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobProblem {
    pub id: Uuid,
    pub kind: String,
    /// `retrying`, `failed` or `dead`.
    pub state: JobState,
    pub attempts: i32,
    pub max_attempts: i32,
    pub last_error: Option<String>,
    pub run_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// What the job is for, in Dutch ("Factuur voor betaling van anne@example.nl (…, € 121,00)").
    pub description: String,
    /// 'Opnieuw proberen' may run it again.
    pub retryable: bool,
}

/// What a job is for, in Dutch ([`crate::kind::Job::describe`]), or its label.
fn text_of(kind: &str, payload: &Value, caused_by: Option<&str>, names: &Names) -> String {
    kinds::named(kind).map_or_else(|| UNKNOWN_KIND.to_owned(), |k| k.describe(payload, caused_by, names))
}

/// What the rows of jobs name, looked up once per page.
async fn names(db: &PgPool, rows: &[(String, Value, Option<String>)]) -> sqlx::Result<Names> {
    let mut wanted = Wanted::default();
    for (kind, payload, caused_by) in rows {
        if let Some(k) = kinds::named(kind) {
            k.wants(payload, &mut wanted);
        }
        wanted.users.extend(caused_by.clone());
    }
    Names::look_up(db, &wanted).await
}

/// A job's row as [`told`] reads it.
struct ProblemRow {
    id: Uuid,
    kind: String,
    state: String,
    attempts: i32,
    max_attempts: i32,
    last_error: Option<String>,
    run_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
    payload: Value,
    caused_by: Option<String>,
}

/// A compile-checked statement answering [`ProblemRow`]s from the jobs that went wrong (the
/// states staff see as problems: retrying, failed, dead), followed by `$tail` (a string literal:
/// further conditions and the order) and the statement's arguments.
macro_rules! problem_jobs {
    ($tail:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            ProblemRow,
            "select id, kind, state, attempts, max_attempts, last_error, run_at, updated_at, payload, caused_by
               from jobs where state in ('retrying', 'failed', 'dead') " + $tail
            $(, $arg)*
        )
    };
}

/// Jobs' rows told in words, with what their payloads name looked up once for all.
async fn told(db: &PgPool, rows: Vec<ProblemRow>) -> sqlx::Result<Vec<JobProblem>> {
    let keys: Vec<(String, Value, Option<String>)> =
        rows.iter().map(|r| (r.kind.clone(), r.payload.clone(), r.caused_by.clone())).collect();
    let names = names(db, &keys).await?;
    Ok(rows
        .into_iter()
        .zip(&keys)
        .map(|(r, (kind, payload, caused_by))| JobProblem {
            id: r.id,
            kind: kind.clone(),
            state: JobState::from_stored(&r.state).unwrap_or(JobState::Failed),
            attempts: r.attempts,
            max_attempts: r.max_attempts,
            last_error: r.last_error,
            run_at: r.run_at,
            updated_at: r.updated_at,
            description: text_of(kind, payload, caused_by.as_deref(), &names),
            retryable: kind != "probe",
        })
        .collect())
}

/// A page of jobs that are retrying, failed or dead, the latest change first, and how many there
/// are in all.
pub async fn problems(db: &PgPool, page: i64, size: i64) -> sqlx::Result<(Vec<JobProblem>, i64)> {
    let rows = problem_jobs!("order by updated_at desc, id limit $1 offset $2", size, page * size).fetch_all(db).await?;
    let total: i64 =
        sqlx::query_scalar!(r#"select count(*) as "count!" from jobs where state in ('retrying', 'failed', 'dead')"#).fetch_one(db).await?;
    Ok((told(db, rows).await?, total))
}

/// One problem job, as [`problems`] tells it.
pub async fn problem(db: &PgPool, id: Uuid) -> sqlx::Result<Option<JobProblem>> {
    let rows = problem_jobs!("and id = $1", id).fetch_all(db).await?;
    Ok(told(db, rows).await?.pop())
}

/// Queues a job that went wrong again, in `tx`: waiting, due now, with a fresh count of attempts
/// (its last error stays until the next attempt ends). `false` when it is no longer retrying,
/// failed or dead (someone retried it already, or it ran).
pub async fn retry(tx: &mut PgConnection, id: Uuid) -> sqlx::Result<bool> {
    let done = sqlx::query!(
        "update jobs set state = 'queued', attempts = 0, run_at = now(), dispatched_at = null, dispatch_count = 0, task_id = null,
                finished_at = null, updated_at = now()
          where id = $1 and state in ('retrying', 'failed', 'dead') and kind <> 'probe'",
        id,
    )
    .execute(tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A queue at a glance.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Queue {
    pub kind: String,
    pub label: String,
    pub queued: i64,
    pub running: i64,
    pub retrying: i64,
    /// The oldest job that is due and waits.
    pub oldest_waiting_since: Option<DateTime<Utc>>,
}

/// A sweep's last run.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SweepRun {
    pub name: String,
    pub label: String,
    pub last_run_at: Option<DateTime<Utc>>,
    pub state: Option<JobState>,
    /// What it did, in Dutch ("3 abonnementen verlopen").
    pub summary: Option<String>,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Overview {
    pub queues: Vec<Queue>,
    pub sweeps: Vec<SweepRun>,
}

/// What a sweep's result says, in Dutch ([`crate::kind::Job::summarise_result`]).
pub fn sweep_summary(kind: &str, result: &Value) -> Option<String> {
    kinds::named(kind)?.summarise_result(result)
}

/// The queues with work, by kind, and each sweep's last run.
pub async fn overview(db: &PgPool) -> sqlx::Result<Overview> {
    let queues = sqlx::query!(
        r#"select kind, count(*) filter (where state = 'queued') as "queued!", count(*) filter (where state = 'running') as "running!",
                count(*) filter (where state = 'retrying') as "retrying!",
                min(run_at) filter (where state in ('queued', 'retrying') and run_at <= now()) as oldest
           from jobs where state in ('queued', 'running', 'retrying') group by kind order by kind"#,
    )
    .fetch_all(db)
    .await?
    .into_iter()
    .map(|r| Queue {
        label: label(&r.kind).to_owned(),
        kind: r.kind,
        queued: r.queued,
        running: r.running,
        retrying: r.retrying,
        oldest_waiting_since: r.oldest,
    })
    .collect();
    let last = sqlx::query!(
        r#"select distinct on (kind) kind, state, coalesce(finished_at, updated_at) as "at!", result
           from jobs where kind = any($1) order by kind, created_at desc"#,
        &SWEEPS[..] as _,
    )
    .fetch_all(db)
    .await?;
    let sweeps = SWEEPS
        .iter()
        .map(|kind| {
            let run = last.iter().find(|r| r.kind == *kind);
            let state = run.and_then(|r| JobState::from_stored(&r.state));
            SweepRun {
                name: (*kind).to_owned(),
                label: label(kind).to_owned(),
                last_run_at: run.map(|r| r.at),
                state,
                summary: run
                    .filter(|_| state == Some(JobState::Succeeded))
                    .and_then(|r| r.result.as_ref())
                    .and_then(|v| sweep_summary(kind, v)),
            }
        })
        .collect();
    Ok(Overview { queues, sweeps })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::told::PaymentLine;
    use serde_json::json;

    #[test]
    fn sweep_results_read_as_dutch() {
        assert_eq!(
            sweep_summary("expire_subscriptions", &json!({"subscriptions": 3, "organisationSubscriptions": 1})).unwrap(),
            "3 abonnementen en 1 organisatie-abonnement verlopen"
        );
        assert_eq!(sweep_summary("check_unpaid", &json!({"new": 1})).unwrap(), "1 nieuw abonnement zonder betaling gemeld");
        assert_eq!(sweep_summary("prune_jobs", &json!({"jobsDeleted": 0})).unwrap(), "0 afgeronde taken opgeruimd");
        assert_eq!(sweep_summary("email", &json!({})), None);
    }

    #[test]
    fn a_job_names_its_payment() {
        let mut names = Names::default();
        let id = Uuid::nil().to_string();
        names.payments.insert(
            id.clone(),
            PaymentLine { email: "anne@example.nl".into(), description: "Praktijk".into(), amount_cents: domain::billing::Cents(12100) },
        );
        assert_eq!(
            text_of("create_invoice", &json!({"paymentId": id}), None, &names),
            "Factuur voor betaling van anne@example.nl (Praktijk, € 121,00)"
        );
        assert_eq!(text_of("create_invoice", &json!({"paymentId": "gone"}), None, &names), "Factuur maken");
        for sweep in SWEEPS {
            assert_ne!(label(sweep), "Taak", "{sweep}");
        }
    }

    #[test]
    fn every_kind_has_its_own_dutch_label_and_an_unknown_one_is_a_task() {
        let labels: std::collections::HashSet<&str> = kinds::catalogue().iter().map(|k| k.label).collect();
        assert_eq!(labels.len(), kinds::all().len());
        assert!(!labels.contains("Taak"));
        assert_eq!(label("gone_kind"), "Taak");
        assert_eq!(text_of("gone_kind", &json!({}), None, &Names::default()), "Taak");
    }

    #[test]
    fn a_letter_names_its_recipient_or_its_address() {
        let mut names = Names::default();
        names.users.insert("u1".into(), "bart@example.nl".into());
        assert_eq!(
            text_of("email", &json!({"template": "welcome", "user_id": "u1"}), None, &names),
            "E-mail (welkomstmail) aan bart@example.nl"
        );
        assert_eq!(
            text_of("email", &json!({"template": "organisation_invitation", "address": "nieuw@example.nl"}), None, &names),
            "E-mail (uitnodiging via een organisatie) aan nieuw@example.nl"
        );
        let mut wanted = Wanted::default();
        kinds::named("email").unwrap().wants(&json!({"template": "welcome", "user_id": "u1"}), &mut wanted);
        assert_eq!(wanted.users, ["u1"]);
    }
}
