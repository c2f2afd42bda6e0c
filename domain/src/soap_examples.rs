//! Personal SOEP examples: each user's own, never anyone else's.

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use uuid::Uuid;

pub const MAX_FIELD: usize = 5000;

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SoapExample {
    pub id: Uuid,
    pub subjective: String,
    pub objective: String,
    pub evaluation: String,
    pub plan: String,
    pub source: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// The four parts of a note.
#[derive(Debug, Clone, Default)]
pub struct Parts {
    pub subjective: String,
    pub objective: String,
    pub evaluation: String,
    pub plan: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Refused(pub &'static str);

impl Parts {
    pub fn checked(self) -> Result<Self, Refused> {
        let parts = Parts {
            subjective: self.subjective.trim().to_owned(),
            objective: self.objective.trim().to_owned(),
            evaluation: self.evaluation.trim().to_owned(),
            plan: self.plan.trim().to_owned(),
        };
        let all = [&parts.subjective, &parts.objective, &parts.evaluation, &parts.plan];
        if all.iter().all(|p| p.is_empty()) {
            return Err(Refused("Geen tekst ingevuld"));
        }
        if all.iter().any(|p| p.chars().count() > MAX_FIELD) {
            return Err(Refused("Een onderdeel is te lang (hoogstens 5000 tekens)."));
        }
        Ok(parts)
    }
}

pub async fn list(db: &PgPool, user_id: &str) -> sqlx::Result<Vec<SoapExample>> {
    sqlx::query_as!(
        SoapExample,
        "select id, subjective, objective, evaluation, plan, source, created_at, updated_at from soap_examples where user_id = $1 order by created_at, id",
        user_id,
    )
    .fetch_all(db)
    .await
}

pub async fn add(db: &PgPool, user_id: &str, parts: &Parts, source: &str, consult_id: Option<&str>) -> sqlx::Result<SoapExample> {
    sqlx::query_as!(
        SoapExample,
        "insert into soap_examples (id, user_id, subjective, objective, evaluation, plan, source, consult_id)
         values ($1, $2, $3, $4, $5, $6, $7, $8) returning id, subjective, objective, evaluation, plan, source, created_at, updated_at",
        Uuid::new_v4(),
        user_id,
        &parts.subjective,
        &parts.objective,
        &parts.evaluation,
        &parts.plan,
        source,
        consult_id,
    )
    .fetch_one(db)
    .await
}

/// Changes the user's own example; `None` when they have none with this id.
pub async fn update(db: &PgPool, user_id: &str, id: Uuid, parts: &Parts) -> sqlx::Result<Option<SoapExample>> {
    sqlx::query_as!(
        SoapExample,
        "update soap_examples set subjective = $3, objective = $4, evaluation = $5, plan = $6, updated_at = now()
          where id = $1 and user_id = $2 returning id, subjective, objective, evaluation, plan, source, created_at, updated_at",
        id,
        user_id,
        &parts.subjective,
        &parts.objective,
        &parts.evaluation,
        &parts.plan,
    )
    .fetch_optional(db)
    .await
}

pub async fn delete(db: &PgPool, user_id: &str, id: Uuid) -> sqlx::Result<bool> {
    let done = sqlx::query!("delete from soap_examples where id = $1 and user_id = $2", id, user_id).execute(db).await?;
    Ok(done.rows_affected() == 1)
}
