//! Background work as staff think of it (the CMS's Achtergrondtaken): jobs that went wrong, told
//! in words ("Factuur voor betaling van anne@example.nl (…, € 121,00)"), a retry, the queues at
//! a glance and what each sweep did last.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use domain::billing::invoices::euros;
use serde::Serialize;
use serde_json::Value;
use sqlx::{PgConnection, PgPool, Row};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::JobState;
use crate::mail::templates::Template;

/// A job kind in Dutch.
pub fn label(kind: &str) -> &'static str {
    match kind {
        "create_contact" => "Boekhoudcontact maken",
        "create_invoice" => "Factuur maken",
        "credit_invoice" => "Creditfactuur maken",
        "sync_payment" => "Betaalstatus bijwerken",
        "renew_subscription" => "Abonnement verlengen",
        "email" => "E-mail versturen",
        "summarise_consult" => "Samenvatting maken",
        "expire_subscriptions" => "Verlopen abonnementen uitzetten",
        "renew_subscriptions" => "Verlengingen starten",
        "check_unpaid" => "Abonnementen zonder betaling zoeken",
        "purge_consults" => "Verlopen consulten verwijderen",
        "prune_jobs" => "Afgeronde taken opruimen",
        "probe" => "Testtaak",
        _ => "Taak",
    }
}

/// The sweeps the scheduler runs, by kind, in the order the CMS lists them.
pub const SWEEPS: [&str; 5] = ["expire_subscriptions", "renew_subscriptions", "check_unpaid", "purge_consults", "prune_jobs"];

fn template_label(template: Template) -> &'static str {
    match template {
        Template::Welcome => "welkomstmail",
        Template::SeatInvitation => "uitnodiging voor een gekoppeld abonnement",
        Template::UnpaidSubscriptions => "lijst van abonnementen zonder betaling",
        Template::RenewalFailed => "melding mislukte verlenging",
        Template::RenewalReminder => "herinnering aan de betaling",
        Template::OrganisationInvitation => "uitnodiging via een organisatie",
        Template::OrganisationAccess => "toegang via een organisatie",
        Template::OrganisationAdmin => "beheerdersrol in een organisatie",
    }
}

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

/// The states staff see as problems.
const PROBLEM_STATES: &str = "('retrying', 'failed', 'dead')";

struct PaymentLine {
    email: String,
    description: String,
    amount_cents: i64,
}

impl PaymentLine {
    fn text(&self) -> String {
        format!("betaling van {} ({}, {})", self.email, self.description, euros(self.amount_cents))
    }
}

/// What the rows of jobs name, looked up once per page.
#[derive(Default)]
struct Names {
    payments: HashMap<String, PaymentLine>,
    subscriptions: HashMap<Uuid, (String, String)>,
    users: HashMap<String, String>,
}

fn text_of(kind: &str, payload: &Value, caused_by: Option<&str>, names: &Names) -> String {
    let str_field = |f: &str| payload.get(f).and_then(Value::as_str).map(str::to_owned);
    let payment = |key: Option<String>| key.and_then(|k| names.payments.get(&k)).map(PaymentLine::text);
    let user = |id: Option<&str>| id.and_then(|id| names.users.get(id)).cloned();
    let thing = match kind {
        "create_contact" => payment(str_field("paymentId")).map(|p| format!("Boekhoudcontact voor {p}")),
        "create_invoice" => payment(str_field("paymentId")).map(|p| format!("Factuur voor {p}")),
        "credit_invoice" => payment(str_field("paymentId")).map(|p| format!("Creditfactuur voor {p}")),
        "sync_payment" => {
            let id = str_field("providerPaymentId");
            payment(id.clone()).map(|p| format!("Betaalstatus van {p}")).or(id.map(|id| format!("Betaalstatus van betaling {id}")))
        }
        "renew_subscription" => str_field("subscriptionId")
            .and_then(|s| s.parse::<Uuid>().ok())
            .and_then(|id| names.subscriptions.get(&id))
            .map(|(d, e)| format!("Verlenging van {d} van {e} vanaf {}", str_field("periodStart").unwrap_or_default())),
        "email" => {
            let template = payload.get("template").cloned().and_then(|t| serde_json::from_value::<Template>(t).ok());
            let to = user(payload.get("user_id").and_then(Value::as_str))
                .or_else(|| str_field("payment_id").and_then(|k| names.payments.get(&k)).map(|p| p.email.clone()))
                .or_else(|| str_field("address"));
            template.map(|t| match to {
                Some(to) => format!("E-mail ({}) aan {to}", template_label(t)),
                None => format!("E-mail ({})", template_label(t)),
            })
        }
        "summarise_consult" => user(caused_by).map(|e| format!("Samenvatting voor {e}")),
        _ => None,
    };
    thing.unwrap_or_else(|| label(kind).to_owned())
}

async fn names(db: &PgPool, rows: &[(String, Value, Option<String>)]) -> sqlx::Result<Names> {
    let mut payment_ids = Vec::new();
    let mut provider_ids = Vec::new();
    let mut subscription_ids = Vec::new();
    let mut user_ids = Vec::new();
    for (kind, payload, caused_by) in rows {
        let field = |f: &str| payload.get(f).and_then(Value::as_str).map(str::to_owned);
        match kind.as_str() {
            "create_contact" | "create_invoice" | "credit_invoice" => payment_ids.extend(field("paymentId")),
            "sync_payment" => provider_ids.extend(field("providerPaymentId")),
            "renew_subscription" => subscription_ids.extend(field("subscriptionId").and_then(|s| s.parse::<Uuid>().ok())),
            "email" => {
                user_ids.extend(field("user_id"));
                payment_ids.extend(field("payment_id"));
            }
            _ => {}
        }
        user_ids.extend(caused_by.clone());
    }
    let mut out = Names::default();
    for r in sqlx::query(
        "select p.id::text as id, p.provider_payment_id, u.email, p.description, p.amount_cents::int8 as amount
           from payments p join users u on u.id = p.user_id where p.id::text = any($1) or p.provider_payment_id = any($2)",
    )
    .bind(&payment_ids)
    .bind(&provider_ids)
    .fetch_all(db)
    .await?
    {
        let line = || PaymentLine { email: r.get("email"), description: r.get("description"), amount_cents: r.get("amount") };
        if let Some(provider) = r.get::<Option<String>, _>("provider_payment_id") {
            out.payments.insert(provider, line());
        }
        out.payments.insert(r.get("id"), line());
    }
    for r in sqlx::query("select s.id, s.description, u.email from subscriptions s join users u on u.id = s.user_id where s.id = any($1)")
        .bind(&subscription_ids)
        .fetch_all(db)
        .await?
    {
        out.subscriptions.insert(r.get("id"), (r.get("description"), r.get("email")));
    }
    for r in sqlx::query("select id, email from users where id = any($1)").bind(&user_ids).fetch_all(db).await? {
        out.users.insert(r.get("id"), r.get("email"));
    }
    Ok(out)
}

const PROBLEM_COLUMNS: &str = "id, kind, state, attempts, max_attempts, last_error, run_at, updated_at, payload, caused_by";

/// Jobs' rows told in words, with what their payloads name looked up once for all.
async fn told(db: &PgPool, rows: &[sqlx::postgres::PgRow]) -> sqlx::Result<Vec<JobProblem>> {
    let keys: Vec<(String, Value, Option<String>)> = rows.iter().map(|r| (r.get("kind"), r.get("payload"), r.get("caused_by"))).collect();
    let names = names(db, &keys).await?;
    Ok(rows
        .iter()
        .zip(&keys)
        .map(|(r, (kind, payload, caused_by))| JobProblem {
            id: r.get("id"),
            kind: kind.clone(),
            state: JobState::from_stored(r.get::<&str, _>("state")).unwrap_or(JobState::Failed),
            attempts: r.get("attempts"),
            max_attempts: r.get("max_attempts"),
            last_error: r.get("last_error"),
            run_at: r.get("run_at"),
            updated_at: r.get("updated_at"),
            description: text_of(kind, payload, caused_by.as_deref(), &names),
            retryable: kind != "probe",
        })
        .collect())
}

/// A page of jobs that are retrying, failed or dead, the latest change first, and how many there
/// are in all.
pub async fn problems(db: &PgPool, page: i64, size: i64) -> sqlx::Result<(Vec<JobProblem>, i64)> {
    let rows = sqlx::query(&format!(
        "select {PROBLEM_COLUMNS} from jobs where state in {PROBLEM_STATES} order by updated_at desc, id limit $1 offset $2"
    ))
    .bind(size)
    .bind(page * size)
    .fetch_all(db)
    .await?;
    let total: i64 = sqlx::query_scalar(&format!("select count(*) from jobs where state in {PROBLEM_STATES}")).fetch_one(db).await?;
    Ok((told(db, &rows).await?, total))
}

/// One problem job, as [`problems`] tells it.
pub async fn problem(db: &PgPool, id: Uuid) -> sqlx::Result<Option<JobProblem>> {
    let rows = sqlx::query(&format!("select {PROBLEM_COLUMNS} from jobs where id = $1 and state in {PROBLEM_STATES}"))
        .bind(id)
        .fetch_all(db)
        .await?;
    Ok(told(db, &rows).await?.pop())
}

/// Queues a job that went wrong again, in `tx`: waiting, due now, with a fresh count of attempts
/// (its last error stays until the next attempt ends). `false` when it is no longer retrying,
/// failed or dead (someone retried it already, or it ran).
pub async fn retry(tx: &mut PgConnection, id: Uuid) -> sqlx::Result<bool> {
    let done = sqlx::query(&format!(
        "update jobs set state = 'queued', attempts = 0, run_at = now(), dispatched_at = null, dispatch_count = 0, task_id = null,
                finished_at = null, updated_at = now()
          where id = $1 and state in {PROBLEM_STATES} and kind <> 'probe'"
    ))
    .bind(id)
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

fn plural(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// What a sweep's result says, in Dutch.
pub fn sweep_summary(kind: &str, result: &Value) -> Option<String> {
    let n = |f: &str| result.get(f).and_then(Value::as_i64).unwrap_or(0);
    Some(match kind {
        "expire_subscriptions" => format!(
            "{} en {} verlopen",
            plural(n("subscriptions"), "abonnement", "abonnementen"),
            plural(n("organisationSubscriptions"), "organisatie-abonnement", "organisatie-abonnementen")
        ),
        "renew_subscriptions" => format!(
            "{} gestart, {} verstuurd",
            plural(n("queued"), "verlenging", "verlengingen"),
            plural(n("reminders"), "herinnering", "herinneringen")
        ),
        "check_unpaid" => format!("{} zonder betaling gemeld", plural(n("new"), "nieuw abonnement", "nieuwe abonnementen")),
        "purge_consults" => format!("{} verwijderd", plural(n("consults"), "verlopen consult", "verlopen consulten")),
        "prune_jobs" => format!("{} opgeruimd", plural(n("jobsDeleted"), "afgeronde taak", "afgeronde taken")),
        _ => return None,
    })
}

/// The queues with work, by kind, and each sweep's last run.
pub async fn overview(db: &PgPool) -> sqlx::Result<Overview> {
    let queues = sqlx::query(
        "select kind, count(*) filter (where state = 'queued') as queued, count(*) filter (where state = 'running') as running,
                count(*) filter (where state = 'retrying') as retrying,
                min(run_at) filter (where state in ('queued', 'retrying') and run_at <= now()) as oldest
           from jobs where state in ('queued', 'running', 'retrying') group by kind order by kind",
    )
    .fetch_all(db)
    .await?
    .iter()
    .map(|r| {
        let kind: String = r.get("kind");
        Queue {
            label: label(&kind).to_owned(),
            kind,
            queued: r.get("queued"),
            running: r.get("running"),
            retrying: r.get("retrying"),
            oldest_waiting_since: r.get("oldest"),
        }
    })
    .collect();
    let last = sqlx::query(
        "select distinct on (kind) kind, state, coalesce(finished_at, updated_at) as at, result
           from jobs where kind = any($1) order by kind, created_at desc",
    )
    .bind(SWEEPS.as_slice())
    .fetch_all(db)
    .await?;
    let sweeps = SWEEPS
        .iter()
        .map(|kind| {
            let run = last.iter().find(|r| r.get::<&str, _>("kind") == *kind);
            let state = run.and_then(|r| JobState::from_stored(r.get::<&str, _>("state")));
            SweepRun {
                name: (*kind).to_owned(),
                label: label(kind).to_owned(),
                last_run_at: run.map(|r| r.get("at")),
                state,
                summary: run
                    .filter(|_| state == Some(JobState::Succeeded))
                    .and_then(|r| r.get::<Option<Value>, _>("result"))
                    .and_then(|v| sweep_summary(kind, &v)),
            }
        })
        .collect();
    Ok(Overview { queues, sweeps })
}

#[cfg(test)]
mod tests {
    use super::*;
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
        names
            .payments
            .insert(id.clone(), PaymentLine { email: "anne@example.nl".into(), description: "Praktijk".into(), amount_cents: 12100 });
        assert_eq!(
            text_of("create_invoice", &json!({"paymentId": id}), None, &names),
            "Factuur voor betaling van anne@example.nl (Praktijk, € 121,00)"
        );
        assert_eq!(text_of("create_invoice", &json!({"paymentId": "gone"}), None, &names), "Factuur maken");
        for sweep in SWEEPS {
            assert_ne!(label(sweep), "Taak", "{sweep}");
        }
    }
}
