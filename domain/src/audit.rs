//! The audit log of staff actions (NEN 7513): who did what to which record, concerning whom,
//! when and from where, with the changed fields before and after, written in the transaction of
//! the change.
//!
//! Entries are append-only (the table refuses UPDATE, DELETE and TRUNCATE) and hash-chained:
//! entry `n` carries the SHA-256 of its own fields and of entry `n - 1`'s hash, and the ids run
//! 1, 2, 3, ... without a gap, so [`verify`] finds an entry that was changed, removed or slipped in.
//! Appending takes the chain's lock until the transaction ends, so entries are chained in the
//! order their transactions commit.

use chrono::{DateTime, SubsecRound, Utc};
use serde::Serialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

/// The staff member acting, and where the request came from.
#[derive(Debug, Clone)]
pub struct Actor {
    pub user_id: String,
    pub email: String,
    pub request_id: Option<String>,
    pub client_addr: Option<String>,
}

/// What a staff member did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// 'Moneybird contact maken' on a payment.
    MakeBookkeepingContact,
    /// 'Factuur maken' on a payment.
    MakeInvoice,
    /// The medicine shortage list replaced.
    ReplaceShortageList,
    /// A user's helper flag set or cleared.
    SetHelperUser,
    /// 'Zet HIS voor gebruiker'.
    SetUserHis,
    /// The info modal: a user's subscriptions, payments and organisation subscriptions read.
    ReadUserSubscriptions,
    ReadUserPayments,
    ReadUserOrganisationSubscriptions,
    /// A download link of a user's invoice (name, address, KvK) asked for by staff.
    ReadUserInvoice,
    /// A user's background job opened by staff (`GET /api/jobs/{id}`).
    ReadUserJob,
    /// A user subscription switched on or off.
    SetSubscriptionActive,
    /// A user subscription's valid-until changed.
    SetSubscriptionValidUntil,
    /// A user subscription cancelled by staff.
    CancelSubscription,
    /// A renewed subscription made from a subscription's first payment.
    RenewSubscription,
    /// A payment's invoice details changed.
    EditPayment,
    /// A failed background job run again.
    RetryJob,
    /// A HIS added to the list, or deleted from it.
    AddHis,
    DeleteHis,
    /// Organisaties: a main organisation added or changed, deleted.
    SaveOrganisation,
    DeleteOrganisation,
    /// A sub-organisation added or changed, deleted.
    SaveSubOrganisation,
    DeleteSubOrganisation,
    /// A user (account or address) added to a sub-organisation, removed from it.
    AddOrganisationUser,
    RemoveOrganisationUser,
    /// A user's admin flag of a sub-organisation.
    SetOrganisationAdmin,
    /// A sub-organisation's HIS.
    SetOrganisationHis,
    /// The term of a main or sub-organisation.
    SetOrganisationTerm,
    /// A duplicate organisation subscription deleted.
    DeleteOrganisationSubscription,
    /// An organisation subscription switched on or off.
    SetOrganisationSubscriptionActive,
    /// An organisation subscription's own last day set, or cleared (it follows its organisation).
    SetOrganisationSubscriptionValidUntil,
    /// 'tribe': waiting addresses linked and terms written again.
    SyncOrganisations,
}

impl Action {
    /// The stored code.
    pub fn code(self) -> &'static str {
        match self {
            Self::MakeBookkeepingContact => "payment.make_contact",
            Self::MakeInvoice => "payment.make_invoice",
            Self::ReplaceShortageList => "medicine_shortages.replace",
            Self::SetHelperUser => "user.set_helper",
            Self::SetUserHis => "user.set_his",
            Self::ReadUserSubscriptions => "user.read_subscriptions",
            Self::ReadUserPayments => "user.read_payments",
            Self::ReadUserOrganisationSubscriptions => "user.read_organisation_subscriptions",
            Self::ReadUserInvoice => "user.read_invoice",
            Self::ReadUserJob => "user.read_job",
            Self::SetSubscriptionActive => "subscription.set_active",
            Self::SetSubscriptionValidUntil => "subscription.set_valid_until",
            Self::CancelSubscription => "subscription.cancel",
            Self::RenewSubscription => "subscription.renew",
            Self::EditPayment => "payment.edit",
            Self::RetryJob => "job.retry",
            Self::AddHis => "his.add",
            Self::DeleteHis => "his.delete",
            Self::SaveOrganisation => "organisation.save",
            Self::DeleteOrganisation => "organisation.delete",
            Self::SaveSubOrganisation => "sub_organisation.save",
            Self::DeleteSubOrganisation => "sub_organisation.delete",
            Self::AddOrganisationUser => "sub_organisation.add_user",
            Self::RemoveOrganisationUser => "sub_organisation.remove_user",
            Self::SetOrganisationAdmin => "sub_organisation.set_admin",
            Self::SetOrganisationHis => "sub_organisation.set_his",
            Self::SetOrganisationTerm => "organisation.set_term",
            Self::DeleteOrganisationSubscription => "organisation_subscription.delete",
            Self::SetOrganisationSubscriptionActive => "organisation_subscription.set_active",
            Self::SetOrganisationSubscriptionValidUntil => "organisation_subscription.set_valid_until",
            Self::SyncOrganisations => "organisation.sync",
        }
    }

    /// What was done, in Dutch, to follow the staff member's address.
    fn dutch(self) -> &'static str {
        match self {
            Self::MakeBookkeepingContact => "liet het boekhoudcontact maken",
            Self::MakeInvoice => "liet de factuur maken",
            Self::ReplaceShortageList => "verving de lijst met geneesmiddeltekorten",
            Self::SetHelperUser => "zette de helper-status",
            Self::SetUserHis => "zette de HIS",
            Self::ReadUserSubscriptions => "bekeek de abonnementen",
            Self::ReadUserPayments => "bekeek de betalingen",
            Self::ReadUserOrganisationSubscriptions => "bekeek de organisatie-abonnementen",
            Self::ReadUserInvoice => "downloadde de factuur",
            Self::ReadUserJob => "bekeek de achtergrondtaak",
            Self::SetSubscriptionActive => "zette 'Actief'",
            Self::SetSubscriptionValidUntil => "wijzigde de einddatum",
            Self::CancelSubscription => "zegde op:",
            Self::RenewSubscription => "verlengde",
            Self::EditPayment => "wijzigde de factuurgegevens",
            Self::RetryJob => "liet opnieuw proberen:",
            Self::AddHis => "voegde de HIS toe:",
            Self::DeleteHis => "verwijderde de HIS",
            Self::SaveOrganisation => "bewaarde de organisatie",
            Self::DeleteOrganisation => "verwijderde de organisatie",
            Self::SaveSubOrganisation => "bewaarde de suborganisatie",
            Self::DeleteSubOrganisation => "verwijderde de suborganisatie",
            Self::AddOrganisationUser => "voegde toe:",
            Self::RemoveOrganisationUser => "verwijderde",
            Self::SetOrganisationAdmin => "zette de beheerdersrol van",
            Self::SetOrganisationHis => "zette de HIS van de suborganisatie",
            Self::SetOrganisationTerm => "wijzigde de looptijd van",
            Self::DeleteOrganisationSubscription => "verwijderde het dubbele organisatie abonnement",
            Self::SetOrganisationSubscriptionActive => "zette 'Actief' van het organisatie abonnement",
            Self::SetOrganisationSubscriptionValidUntil => "wijzigde 'Geldig tot' van het organisatie abonnement",
            Self::SyncOrganisations => "synchroniseerde de organisaties:",
        }
    }
}

/// One entry to write.
#[derive(Debug, Clone)]
pub struct Entry {
    pub action: Action,
    /// The record's type (`payment`) and id.
    pub subject_type: &'static str,
    pub subject_id: String,
    /// The person the record belongs to, if any.
    pub concerns_user_id: Option<String>,
    pub concerns_organisation_id: Option<Uuid>,
    /// The changed fields: `{"before": {...}, "after": {...}}`, or what was asked for.
    pub changes: Value,
    /// The record as the log names it in Dutch (`voor de betaling van anne@example.nl (€ 78,00)`).
    pub about: String,
}

/// The `changes` of an entry: what `shown` shows of a record before and after
/// (`{"before": {...}, "after": {...}}`). The shown type names the fields, so the log's field names
/// are the record's own, checked by the compiler.
pub fn before_after<T, S: Serialize>(before: &T, after: &T, shown: impl Fn(&T) -> S) -> Value {
    let json = |record: &T| serde_json::to_value(shown(record)).unwrap_or_default();
    serde_json::json!({ "before": json(before), "after": json(after) })
}

/// The `changes` of an entry with only the fields of `T` whose JSON differs between `before` and
/// `after`.
pub fn diff<T: Serialize>(before: &T, after: &T) -> Value {
    let (Value::Object(mut b), Value::Object(mut a)) =
        (serde_json::to_value(before).unwrap_or_default(), serde_json::to_value(after).unwrap_or_default())
    else {
        return serde_json::json!({ "before": {}, "after": {} });
    };
    let same: Vec<String> = b.iter().filter(|(k, v)| a.get(*k) == Some(*v)).map(|(k, _)| k.clone()).collect();
    for key in same {
        b.remove(&key);
        a.remove(&key);
    }
    serde_json::json!({ "before": b, "after": a })
}

/// The chain's lock (one advisory lock for the whole log).
const CHAIN_LOCK: i64 = 0x6175_6469_745f_6c67; // "audit_lg"

/// The hash of an entry: SHA-256 over the previous hash and every field, each length-prefixed.
/// `changes` is hashed as its JSON text; serde_json keeps an object's keys sorted, so the value
/// read back from jsonb (which orders keys its own way) gives the same text.
#[allow(clippy::too_many_arguments)]
fn hash_of(
    prev: &[u8],
    id: i64,
    at: DateTime<Utc>,
    actor: (&str, &str),
    action: &str,
    subject: (&str, &str),
    concerns: (Option<&str>, Option<Uuid>),
    changes: &Value,
    origin: (Option<&str>, Option<&str>),
    log: &str,
) -> Vec<u8> {
    let mut h = Sha256::new();
    let mut field = |bytes: &[u8]| {
        h.update((bytes.len() as u64).to_be_bytes());
        h.update(bytes);
    };
    field(prev);
    field(&id.to_be_bytes());
    field(at.to_rfc3339_opts(chrono::SecondsFormat::Micros, true).as_bytes());
    field(actor.0.as_bytes());
    field(actor.1.as_bytes());
    field(action.as_bytes());
    field(subject.0.as_bytes());
    field(subject.1.as_bytes());
    field(concerns.0.unwrap_or("").as_bytes());
    field(concerns.1.map(|u| u.to_string()).unwrap_or_default().as_bytes());
    field(changes.to_string().as_bytes());
    field(origin.0.unwrap_or("").as_bytes());
    field(origin.1.unwrap_or("").as_bytes());
    field(log.as_bytes());
    h.finalize().to_vec()
}

/// Appends an entry in `tx` (the transaction of the change it records). Answers its id.
pub async fn record(tx: &mut PgConnection, actor: &Actor, entry: &Entry) -> sqlx::Result<i64> {
    sqlx::query!("select pg_advisory_xact_lock($1)", CHAIN_LOCK).execute(&mut *tx).await?;
    let last =
        sqlx::query!("select id, hash from audit_log order by id desc limit 1").fetch_optional(&mut *tx).await?.map(|r| (r.id, r.hash));
    let (id, prev) = match last {
        Some((id, hash)) => (id + 1, hash),
        None => (1, vec![0; 32]),
    };
    // stored to the microsecond, as PostgreSQL keeps it, so the hash can be made again
    let at = Utc::now().trunc_subsecs(6);
    let log = format!("{} {} {}", actor.email, entry.action.dutch(), entry.about).trim().to_owned();
    let changes = &entry.changes;
    let hash = hash_of(
        &prev,
        id,
        at,
        (&actor.user_id, &actor.email),
        entry.action.code(),
        (entry.subject_type, &entry.subject_id),
        (entry.concerns_user_id.as_deref(), entry.concerns_organisation_id),
        changes,
        (actor.request_id.as_deref(), actor.client_addr.as_deref()),
        &log,
    );
    sqlx::query!(
        "insert into audit_log (id, at, actor_id, actor_email, action, subject_type, subject_id, concerns_user_id,
                                concerns_organisation_id, changes, request_id, client_addr, log, prev_hash, hash)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
        id,
        at,
        &actor.user_id,
        &actor.email,
        entry.action.code(),
        entry.subject_type,
        &entry.subject_id,
        entry.concerns_user_id.as_deref(),
        entry.concerns_organisation_id,
        changes,
        actor.request_id.as_deref(),
        actor.client_addr.as_deref(),
        &log,
        &prev,
        &hash,
    )
    .execute(&mut *tx)
    .await?;
    Ok(id)
}

/// An entry as the CMS's Auditlog shows it (spec §3: id, log, timestamp).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Shown {
    pub id: i64,
    pub log: String,
    pub timestamp: DateTime<Utc>,
}

/// A page of entries, newest first, whose text contains `search` (any case) when given.
pub async fn page(db: &PgPool, search: Option<&str>, page: i64, size: i64) -> sqlx::Result<(Vec<Shown>, i64)> {
    let pattern = crate::text::contains_pattern(search);
    let rows = sqlx::query_as!(
        Shown,
        r#"select id, log, at as "timestamp" from audit_log where $1::text is null or log ilike $1 order by id desc limit $2 offset $3"#,
        pattern.as_deref(),
        size,
        page * size,
    )
    .fetch_all(db)
    .await?;
    let total: i64 =
        sqlx::query_scalar!(r#"select count(*) as "count!" from audit_log where $1::text is null or log ilike $1"#, pattern.as_deref())
            .fetch_one(db)
            .await?;
    Ok((rows, total))
}

/// The entries that name `action` and `subject_id`, oldest first (tests and the CMS's history of a
/// record).
pub async fn of_subject(db: &PgPool, subject_type: &str, subject_id: &str) -> sqlx::Result<Vec<(String, String)>> {
    let rows =
        sqlx::query!("select action, log from audit_log where subject_type = $1 and subject_id = $2 order by id", subject_type, subject_id)
            .fetch_all(db)
            .await?;
    Ok(rows.into_iter().map(|r| (r.action, r.log)).collect())
}

/// What checking the chain found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verified {
    /// Every entry holds: this many.
    Intact(i64),
    /// The first entry that does not hold, and why.
    Broken { id: i64, reason: String },
}

/// Walks the whole log in order and checks ids, links and hashes.
pub async fn verify(db: &PgPool) -> sqlx::Result<Verified> {
    use futures::TryStreamExt;
    let mut rows = sqlx::query!(
        "select id, at, actor_id, actor_email, action, subject_type, subject_id, concerns_user_id, concerns_organisation_id,
                changes, request_id, client_addr, log, prev_hash, hash
           from audit_log order by id",
    )
    .fetch(db);
    let mut expected_prev = vec![0u8; 32];
    let mut expected_id = 1i64;
    while let Some(r) = rows.try_next().await? {
        let id = r.id;
        if id != expected_id {
            return Ok(Verified::Broken { id: expected_id, reason: format!("entry {expected_id} is missing (next is {id})") });
        }
        let prev = r.prev_hash;
        if prev != expected_prev {
            return Ok(Verified::Broken { id, reason: "does not link to the entry before it".to_owned() });
        }
        let stored = r.hash;
        let computed = hash_of(
            &prev,
            id,
            r.at,
            (&r.actor_id, &r.actor_email),
            &r.action,
            (&r.subject_type, &r.subject_id),
            (r.concerns_user_id.as_deref(), r.concerns_organisation_id),
            &r.changes,
            (r.request_id.as_deref(), r.client_addr.as_deref()),
            &r.log,
        );
        if computed != stored {
            return Ok(Verified::Broken { id, reason: "its fields do not match its hash".to_owned() });
        }
        expected_prev = stored;
        expected_id += 1;
    }
    Ok(Verified::Intact(expected_id - 1))
}

#[cfg(test)]
mod tests {
    use serde::Serialize;
    use serde_json::json;

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Shown {
        city: &'static str,
        house_number: &'static str,
    }

    #[test]
    fn a_diff_keeps_the_fields_that_changed_under_their_own_names() {
        let before = Shown { city: "Utrecht", house_number: "12" };
        let after = Shown { city: "Utrecht", house_number: "14" };
        assert_eq!(super::diff(&before, &after), json!({ "before": { "houseNumber": "12" }, "after": { "houseNumber": "14" } }));
        assert_eq!(super::diff(&before, &before), json!({ "before": {}, "after": {} }));
        assert_eq!(
            super::before_after(&before, &after, |s| Shown { city: s.city, house_number: s.house_number }),
            json!({ "before": { "city": "Utrecht", "houseNumber": "12" }, "after": { "city": "Utrecht", "houseNumber": "14" } })
        );
    }
}
