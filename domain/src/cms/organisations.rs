//! Organisaties: main organisations, their sub-organisations (organisation levels) and the users
//! of each, with the term that decides their organisation subscriptions (spec §2.3, §3
//! "Organisation level", §5, §9).
//!
//! The term lives on the main organisation (`validDateMainLevel`) or on each sub-organisation; a
//! main organisation without dates of its own stores 1970-01-01 as its valid-until. Every user
//! of a sub-organisation (an account, or an address without one yet) has one organisation
//! subscription of it, whose start, valid-until and active state follow the effective term:
//! [`refresh`] writes them after every change (and the nightly expiry sweep for all). Staff can
//! switch one off or give it a last day of its own ('Organisatie abonnementen'); `refresh` keeps
//! both.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::has_date_format;
use super::users::His;
use crate::billing::details::looks_like_email;
use crate::organisations::refresh;
use crate::refusal::Refusal;

pub const NAME_MISSING: &str = "Naam niet ingevuld";
pub const AGB_MISSING: &str = "AGB code niet ingevuld";
pub const SUB_AGB_MISSING: &str = "AGBCode niet ingevuld";
pub const INLINE_AGB_MISSING: &str = "Agbcode niet ingevuld";
pub const END_MISSING: &str = "Einddatum niet ingevuld";
pub const DATE_FORMAT: &str = super::DATE_FORMAT;
pub const START_FORMAT: &str = "Startdatum geen goed format ingevuld, gebruik YYYY-MM-DD";
pub const END_BEFORE_START: &str = "Einddatum kan niet eerder zijn dan de startdatum.";
pub const CATEGORY_MISSING: &str = "Categorie niet ingevuld";
pub const TYPE_MISSING: &str = "Type niet ingevuld";
pub const DURATION_END_FORMAT: &str = "Einddatum format incorrect, gebruik yyyy-mm-dd, bijv. 2024-02-30";
pub const DURATION_START_FORMAT: &str = "Startdatum format incorrect, gebruik yyyy-mm-dd, bijv. 2024-02-30";
pub const EMAIL_MISSING: &str = "Email niet ingevuld";
pub const EMAIL_SPACES: &str = "Email bevat spaties";
pub const EMAIL_INVALID: &str = "Ongeldig e-mailadres.";
pub const ALREADY_ADDED: &str = "Gebruiker is al toegevoegd";
pub const ORGANISATION_NOT_FOUND: &str = "Organisatie niet gevonden";
pub const SUB_NOT_FOUND: &str = "Suborganisatie niet gevonden";
pub const MEMBER_NOT_FOUND: &str = "Gebruiker niet gevonden in deze suborganisatie";
pub const TERM_ON_MAIN: &str = "De looptijd staat op de hoofdorganisatie; wijzig die daar.";
pub const UNKNOWN_TYPE: &str = "Onbekend type organisatie.";
pub const UNKNOWN_PRODUCT: &str = "Onbekend soort abonnement.";
pub const TOO_LONG: &str = "Een van de velden is te lang (hoogstens 200 tekens).";

/// What the description of an organisation subscription starts with; the CMS shows the rest
/// (spec: "the description minus its first 27 characters").
pub const DESCRIPTION_PREFIX: &str = "Organisatie abonnement van ";

/// The organisation types (spec §9).
pub const TYPES: [&str; 8] = ["CENTRE", "COUNTRY", "POST", "PRACTICE", "PRACTICE_GROUP", "PRACTITIONER", "REGIONAL", "CARE_GROUP"];
/// The product types (spec §9): shown as 'ION abonnement', 'Gebruikers abonnement', or 'Leeg'.
pub const PRODUCT_TYPES: [&str; 2] = ["ION", "USER"];

/// A term as typed in a form: the end (required when `end_required`) and an optional start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Term {
    pub start: Option<NaiveDate>,
    pub end: Option<NaiveDate>,
}

fn date(raw: Option<&str>, format_message: &'static str) -> Result<Option<NaiveDate>, Refusal> {
    let Some(s) = raw.map(str::trim).filter(|s| !s.is_empty()) else { return Ok(None) };
    if !has_date_format(s) {
        return Err(Refusal::Invalid(format_message));
    }
    // a day that does not exist (2025-02-30) is refused with the form's own format message
    NaiveDate::parse_from_str(s, "%Y-%m-%d").map(Some).map_err(|_| Refusal::Invalid(format_message))
}

/// The term of an add form (§5): 'Einddatum niet ingevuld' when it is required and empty, the
/// end's format, the start's format, and the end not before the start.
pub fn form_term(start: Option<&str>, end: Option<&str>, end_required: bool) -> Result<Term, Refusal> {
    let end_given = end.map(str::trim).is_some_and(|e| !e.is_empty());
    if end_required && !end_given {
        return Err(Refusal::Invalid(END_MISSING));
    }
    let end = date(end, DATE_FORMAT)?;
    let start = date(start, START_FORMAT)?;
    check_order(Term { start, end })
}

/// The term of a duration modal (§5): the end's format (required), the start's (optional), the
/// order.
pub fn duration_term(start: Option<&str>, end: Option<&str>) -> Result<Term, Refusal> {
    let end = date(end, DURATION_END_FORMAT)?.ok_or(Refusal::Invalid(DURATION_END_FORMAT))?;
    let start = date(start, DURATION_START_FORMAT)?;
    check_order(Term { start, end: Some(end) })
}

fn check_order(term: Term) -> Result<Term, Refusal> {
    match (term.start, term.end) {
        (Some(s), Some(e)) if e < s => Err(Refusal::Invalid(END_BEFORE_START)),
        _ => Ok(term),
    }
}

fn code(raw: Option<&str>, allowed: &[&str], missing: &'static str, unknown: &'static str) -> Result<String, Refusal> {
    let s = raw.map(str::trim).filter(|s| !s.is_empty()).ok_or(Refusal::Invalid(missing))?;
    allowed.iter().find(|a| **a == s).map(|a| (*a).to_owned()).ok_or(Refusal::Invalid(unknown))
}

fn product(raw: Option<&str>) -> Result<Option<String>, Refusal> {
    match raw.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(None),
        Some(s) => PRODUCT_TYPES.iter().find(|a| **a == s).map(|a| Some((*a).to_owned())).ok_or(Refusal::Invalid(UNKNOWN_PRODUCT)),
    }
}

fn text(raw: &str, missing: &'static str) -> Result<String, Refusal> {
    let s = raw.trim();
    if s.is_empty() {
        return Err(Refusal::Invalid(missing));
    }
    if s.chars().count() > 200 {
        return Err(Refusal::Invalid(TOO_LONG));
    }
    if crate::text::has_hidden_characters(s) {
        return Err(Refusal::Invalid(crate::text::HIDDEN_CHARACTERS));
    }
    Ok(s.to_owned())
}

/// A main organisation or a sub-organisation as the forms send it (spec §3 "Organisation level").
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrganisationInput {
    /// Absent (or empty) for a new one.
    #[serde(default, deserialize_with = "empty_as_none")]
    pub id: Option<Uuid>,
    #[serde(default)]
    pub organization_name: String,
    #[serde(default)]
    pub agb_code: String,
    /// One of the organisation types (§9).
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// `ION`, `USER`, or empty.
    pub product_type: Option<String>,
    /// `yyyy-mm-dd`, optional.
    pub start_date: Option<String>,
    /// `yyyy-mm-dd`.
    pub valid_until: Option<String>,
    /// Main organisations: the term is kept here for all its sub-organisations.
    #[serde(default)]
    pub valid_date_main_level: bool,
}

/// An id that may be sent as an empty text for "none" (a form's new row).
fn empty_as_none<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Uuid>, D::Error> {
    match Option::<String>::deserialize(d)?.as_deref().map(str::trim) {
        None | Some("") => Ok(None),
        Some(s) => s.parse().map(Some).map_err(serde::de::Error::custom),
    }
}

/// A checked main organisation or sub-organisation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    pub name: String,
    pub agb_code: String,
    pub kind: String,
    pub product_type: Option<String>,
    pub term: Term,
}

/// A main organisation, in the spec's order: a new one ('Naam niet ingevuld', 'AGB code niet
/// ingevuld', the term when it is kept on the main level, 'Categorie niet ingevuld'), a changed
/// one as the inline edit checks it ('Agbcode niet ingevuld', 'Type niet ingevuld').
pub fn check_main(input: &OrganisationInput) -> Result<Checked, Refusal> {
    let editing = input.id.is_some();
    let name = text(&input.organization_name, NAME_MISSING)?;
    let agb_code = text(&input.agb_code, if editing { INLINE_AGB_MISSING } else { AGB_MISSING })?;
    let term = if input.valid_date_main_level {
        form_term(input.start_date.as_deref(), input.valid_until.as_deref(), true)?
    } else {
        Term::default()
    };
    let kind = code(input.kind.as_deref(), &TYPES, if editing { TYPE_MISSING } else { CATEGORY_MISSING }, UNKNOWN_TYPE)?;
    Ok(Checked { name, agb_code, kind, product_type: product(input.product_type.as_deref())?, term })
}

/// A sub-organisation (§5): 'Type niet ingevuld' (a new one is a PRACTICE unless said otherwise),
/// 'AGBCode niet ingevuld', and its own term when the main organisation keeps none.
pub fn check_sub(input: &OrganisationInput, term_on_main: bool) -> Result<Checked, Refusal> {
    let kind = match input.kind.as_deref() {
        None if input.id.is_none() => "PRACTICE".to_owned(),
        raw => code(raw, &TYPES, TYPE_MISSING, UNKNOWN_TYPE)?,
    };
    let agb_code = text(&input.agb_code, SUB_AGB_MISSING)?;
    let name = text(&input.organization_name, NAME_MISSING)?;
    let term = if term_on_main { Term::default() } else { form_term(input.start_date.as_deref(), input.valid_until.as_deref(), true)? };
    Ok(Checked { name, agb_code, kind, product_type: product(input.product_type.as_deref())?, term })
}

/// An address to add to a sub-organisation (§5): lower case, without spaces, an address.
pub fn check_email(raw: &str) -> Result<String, Refusal> {
    if raw.trim().is_empty() {
        return Err(Refusal::Invalid(EMAIL_MISSING));
    }
    if raw.trim().chars().any(char::is_whitespace) {
        return Err(Refusal::Invalid(EMAIL_SPACES));
    }
    let email = raw.trim().to_lowercase();
    if !looks_like_email(&email) || email.chars().count() > 200 {
        return Err(Refusal::Invalid(EMAIL_INVALID));
    }
    Ok(email)
}

// ---------------------------------------------------------------------------------------------
// Reading

/// A main organisation in the Organisaties table.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MainOrganisation {
    pub id: Uuid,
    pub organization_name: String,
    pub agb_code: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub product_type: Option<String>,
    pub start_date: Option<NaiveDate>,
    /// 1970-01-01 when the term is kept per sub-organisation.
    pub valid_until: NaiveDate,
    pub valid_date_main_level: bool,
    pub is_active: bool,
    pub sub_organizations: i64,
    pub created_at: DateTime<Utc>,
}

/// A compile-checked statement answering [`MainOrganisation`]s from `organisations o`, followed
/// by `$tail` (a string literal: the conditions and order) and the statement's arguments.
macro_rules! main_organisations {
    ($tail:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            MainOrganisation,
            r#"select o.id, o.name as organization_name, coalesce(o.agb_code, '') as "agb_code!", o.type as kind, o.product_type,
                      o.start_date, o.valid_until, o.valid_date_main_level, o.is_active, o.created_at,
                      (select count(*) from organisation_levels l where l.organisation_id = o.id) as "sub_organizations!"
                 from organisations o "# + $tail
            $(, $arg)*
        )
    };
}

/// The Alle/Actieve/Inactieve filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ActiveFilter {
    #[default]
    All,
    Active,
    Inactive,
}

/// A page of main organisations by name, and how many match.
pub async fn page(
    db: &PgPool,
    filter: ActiveFilter,
    search: Option<&str>,
    page: i64,
    size: i64,
) -> sqlx::Result<(Vec<MainOrganisation>, i64)> {
    let active = match filter {
        ActiveFilter::All => None,
        ActiveFilter::Active => Some(true),
        ActiveFilter::Inactive => Some(false),
    };
    let pattern = crate::text::contains_pattern(search);
    // the page's and the count's condition are the same: active or not ($1) and a search ($2)
    let rows = main_organisations!(
        "where ($1::bool is null or o.is_active = $1) and ($2::text is null or lower(o.name) like $2 or lower(o.agb_code) like $2)
         order by lower(o.name), o.id limit $3 offset $4",
        active,
        pattern.as_deref(),
        size,
        page * size,
    )
    .fetch_all(db)
    .await?;
    let total: i64 = sqlx::query_scalar!(
        r#"select count(*) as "count!" from organisations o
            where ($1::bool is null or o.is_active = $1) and ($2::text is null or lower(o.name) like $2 or lower(o.agb_code) like $2)"#,
        active,
        pattern.as_deref(),
    )
    .fetch_one(db)
    .await?;
    Ok((rows, total))
}

async fn main_one(conn: &mut PgConnection, id: Uuid) -> Result<MainOrganisation, Refusal> {
    main_organisations!("where o.id = $1", id).fetch_optional(conn).await?.ok_or(Refusal::NotFound(ORGANISATION_NOT_FOUND))
}

/// A user of a sub-organisation with an account.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LevelUser {
    pub id: String,
    pub email: String,
    pub is_admin_user: bool,
}

/// An address added to a sub-organisation that has no account yet.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LevelEmail {
    pub email: String,
    pub is_admin_user: bool,
}

/// A sub-organisation with its users (spec §3 "Organisation level").
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubOrganisation {
    pub id: Uuid,
    pub organisation_id: Uuid,
    pub organization_name: String,
    pub agb_code: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub product_type: Option<String>,
    /// Its own term (empty when the main organisation keeps it).
    pub start_date: Option<NaiveDate>,
    pub valid_until: Option<NaiveDate>,
    pub is_active: bool,
    pub his: Option<His>,
    pub users: Vec<LevelUser>,
    pub user_emails: Vec<LevelEmail>,
}

/// The sub-organisations of a main organisation (or one, by id), by name, with their users.
async fn subs(conn: &mut PgConnection, organisation: Option<Uuid>, level: Option<Uuid>) -> sqlx::Result<Vec<SubOrganisation>> {
    let rows = sqlx::query!(
        r#"select l.id, l.organisation_id, l.name, coalesce(l.agb_code, '') as "agb_code!", l.type as kind, l.product_type, l.start_date,
                l.valid_until, l.is_active, h.id as "his_id?", h.name as "his_name?",
                coalesce((select jsonb_agg(jsonb_build_object('id', u.id, 'email', u.email, 'isAdminUser', m.is_admin) order by lower(u.email))
                            from organisation_members m join users u on u.id = m.user_id where m.level_id = l.id), '[]') as "users!",
                coalesce((select jsonb_agg(jsonb_build_object('email', e.email, 'isAdminUser', e.is_admin) order by e.email)
                            from organisation_level_emails e where e.level_id = l.id), '[]') as "emails!"
           from organisation_levels l left join his h on h.id = l.his_id
          where ($1::uuid is null or l.organisation_id = $1) and ($2::uuid is null or l.id = $2)
          order by lower(l.name), l.id"#,
        organisation,
        level,
    )
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| SubOrganisation {
            id: r.id,
            organisation_id: r.organisation_id,
            organization_name: r.name,
            agb_code: r.agb_code,
            kind: r.kind,
            product_type: r.product_type,
            start_date: r.start_date,
            valid_until: r.valid_until,
            is_active: r.is_active,
            his: r.his_id.zip(r.his_name).map(|(id, name)| His { id, name }),
            users: serde_json::from_value(r.users).unwrap_or_default(),
            user_emails: serde_json::from_value(r.emails).unwrap_or_default(),
        })
        .collect())
}

/// The sub-organisations of a main organisation.
pub async fn subs_of(conn: &mut PgConnection, organisation: Uuid) -> Result<Vec<SubOrganisation>, Refusal> {
    main_one(conn, organisation).await?;
    Ok(subs(conn, Some(organisation), None).await?)
}

/// One sub-organisation with its users.
pub async fn sub(conn: &mut PgConnection, level: Uuid) -> Result<SubOrganisation, Refusal> {
    subs(conn, None, Some(level)).await?.into_iter().next().ok_or(Refusal::NotFound(SUB_NOT_FOUND))
}

// ---------------------------------------------------------------------------------------------
// Changing

/// What a change did, for the answer and the audit log.
#[derive(Debug, Clone)]
pub struct MainChanged {
    pub before: Option<MainOrganisation>,
    pub after: MainOrganisation,
}

/// Adds a main organisation or changes one (the inline edit), then refreshes its terms.
pub async fn save_main(tx: &mut PgConnection, input: &OrganisationInput, today: NaiveDate) -> Result<MainChanged, Refusal> {
    let c = check_main(input)?;
    let before = match input.id {
        Some(id) => Some(main_one(tx, id).await?),
        None => None,
    };
    let id = input.id.unwrap_or_else(Uuid::new_v4);
    let valid_until = c.term.end.unwrap_or(NaiveDate::from_ymd_opt(1970, 1, 1).expect("a date"));
    sqlx::query!(
        "insert into organisations (id, name, agb_code, type, product_type, start_date, valid_until, valid_date_main_level)
         values ($1, $2, $3, $4, $5, $6, $7, $8)
         on conflict (id) do update set name = excluded.name, agb_code = excluded.agb_code, type = excluded.type,
                product_type = excluded.product_type, start_date = excluded.start_date, valid_until = excluded.valid_until,
                valid_date_main_level = excluded.valid_date_main_level, updated_at = now()",
        id,
        &c.name,
        &c.agb_code,
        &c.kind,
        c.product_type.as_deref(),
        c.term.start,
        valid_until,
        input.valid_date_main_level,
    )
    .execute(&mut *tx)
    .await?;
    sqlx::query!(
        "update organisation_subscriptions set description = $2 where organisation_id = $1",
        id,
        format!("{DESCRIPTION_PREFIX}{}", c.name)
    )
    .execute(&mut *tx)
    .await?;
    refresh(tx, Some(id), today).await?;
    Ok(MainChanged { before, after: main_one(tx, id).await? })
}

/// Deletes a main organisation with its sub-organisations, their users' links and organisation
/// subscriptions. Answers what it was.
pub async fn delete_main(tx: &mut PgConnection, id: Uuid) -> Result<MainOrganisation, Refusal> {
    let before = main_one(tx, id).await?;
    sqlx::query!("delete from organisations where id = $1", id).execute(&mut *tx).await?;
    Ok(before)
}

/// The main organisation of a sub-organisation, checked.
async fn main_of_sub(conn: &mut PgConnection, main: Uuid, level: Uuid) -> Result<MainOrganisation, Refusal> {
    let organisation = main_one(conn, main).await?;
    let belongs: bool = sqlx::query_scalar!(
        r#"select exists (select 1 from organisation_levels where id = $1 and organisation_id = $2) as "belongs!""#,
        level,
        main,
    )
    .fetch_one(&mut *conn)
    .await?;
    if !belongs {
        return Err(Refusal::NotFound(SUB_NOT_FOUND));
    }
    Ok(organisation)
}

/// Adds a sub-organisation to a main organisation or changes one, then refreshes the terms.
pub async fn save_sub(tx: &mut PgConnection, main: Uuid, input: &OrganisationInput, today: NaiveDate) -> Result<SubOrganisation, Refusal> {
    let organisation = main_one(tx, main).await?;
    if let Some(id) = input.id {
        main_of_sub(tx, main, id).await?;
    }
    let c = check_sub(input, organisation.valid_date_main_level)?;
    let id = input.id.unwrap_or_else(Uuid::new_v4);
    sqlx::query!(
        "insert into organisation_levels (id, organisation_id, name, agb_code, type, product_type, start_date, valid_until)
         values ($1, $2, $3, $4, $5, $6, $7, $8)
         on conflict (id) do update set name = excluded.name, agb_code = excluded.agb_code, type = excluded.type,
                product_type = excluded.product_type, start_date = excluded.start_date, valid_until = excluded.valid_until,
                updated_at = now()",
        id,
        main,
        &c.name,
        &c.agb_code,
        &c.kind,
        c.product_type.as_deref(),
        c.term.start,
        c.term.end,
    )
    .execute(&mut *tx)
    .await?;
    refresh(tx, Some(main), today).await?;
    sub(tx, id).await
}

/// Deletes a sub-organisation of a main organisation, with its users' links and organisation
/// subscriptions.
pub async fn delete_sub(tx: &mut PgConnection, main: Uuid, level: Uuid, today: NaiveDate) -> Result<SubOrganisation, Refusal> {
    main_of_sub(tx, main, level).await?;
    let before = sub(tx, level).await?;
    sqlx::query!("delete from organisation_levels where id = $1", level).execute(&mut *tx).await?;
    refresh(tx, Some(main), today).await?;
    Ok(before)
}

/// A term changed: the organisation's or sub-organisation's name, and the term before and after.
#[derive(Debug, Clone)]
pub struct TermChanged {
    pub name: String,
    pub organisation_id: Uuid,
    pub before: Term,
    pub after: Term,
    /// Organisation subscriptions that changed with it.
    pub subscriptions: u64,
}

/// Sets the term of a main organisation: from now on it is kept on the main level.
pub async fn set_main_term(tx: &mut PgConnection, main: Uuid, term: Term, today: NaiveDate) -> Result<TermChanged, Refusal> {
    let before = main_one(tx, main).await?;
    sqlx::query!(
        "update organisations set start_date = $2, valid_until = $3, valid_date_main_level = true, updated_at = now() where id = $1",
        main,
        term.start,
        term.end,
    )
    .execute(&mut *tx)
    .await?;
    let subscriptions = refresh(tx, Some(main), today).await?;
    let old = Term { start: before.start_date, end: before.valid_date_main_level.then_some(before.valid_until) };
    Ok(TermChanged { name: before.organization_name, organisation_id: main, before: old, after: term, subscriptions })
}

/// Sets the term of a sub-organisation; refused while the main organisation keeps the term.
pub async fn set_sub_term(tx: &mut PgConnection, level: Uuid, term: Term, today: NaiveDate) -> Result<TermChanged, Refusal> {
    let before = sub(tx, level).await?;
    let organisation = main_one(tx, before.organisation_id).await?;
    if organisation.valid_date_main_level {
        return Err(Refusal::Conflict(TERM_ON_MAIN));
    }
    sqlx::query!(
        "update organisation_levels set start_date = $2, valid_until = $3, updated_at = now() where id = $1",
        level,
        term.start,
        term.end
    )
    .execute(&mut *tx)
    .await?;
    let subscriptions = refresh(tx, Some(before.organisation_id), today).await?;
    Ok(TermChanged {
        name: before.organization_name,
        organisation_id: before.organisation_id,
        before: Term { start: before.start_date, end: before.valid_until },
        after: term,
        subscriptions,
    })
}

/// Sets a sub-organisation's HIS (`None`: none). Answers the sub-organisation and the HIS before.
pub async fn set_his(tx: &mut PgConnection, level: Uuid, his: Option<Uuid>) -> Result<(SubOrganisation, Option<His>), Refusal> {
    let before = sub(tx, level).await?;
    if let Some(id) = his {
        let known: bool =
            sqlx::query_scalar!(r#"select exists (select 1 from his where id = $1) as "known!""#, id).fetch_one(&mut *tx).await?;
        if !known {
            return Err(Refusal::NotFound(super::users::HIS_NOT_FOUND));
        }
    }
    sqlx::query!("update organisation_levels set his_id = $2, updated_at = now() where id = $1", level, his).execute(&mut *tx).await?;
    Ok((sub(tx, level).await?, before.his))
}

/// Who was added to a sub-organisation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Added {
    /// An account: its user id.
    Account(String),
    /// An address without an account.
    Address(String),
}

/// Adds an address to a sub-organisation (§5: 'Email niet ingevuld', 'Email bevat spaties',
/// 'Gebruiker is al toegevoegd'): to the accounts when one has that address, else to the waiting
/// addresses; either way with an organisation subscription of the sub-organisation.
pub async fn add_user(
    tx: &mut PgConnection,
    main: Uuid,
    level: Uuid,
    raw_email: &str,
    admin: bool,
    today: NaiveDate,
) -> Result<(Added, String), Refusal> {
    let email = check_email(raw_email)?;
    let organisation = main_of_sub(tx, main, level).await?;
    let present: bool = sqlx::query_scalar!(
        r#"select exists (select 1 from organisation_members m join users u on u.id = m.user_id where m.level_id = $1 and lower(u.email) = $2)
             or exists (select 1 from organisation_level_emails where level_id = $1 and email = $2) as "present!""#,
        level,
        &email,
    )
    .fetch_one(&mut *tx)
    .await?;
    if present {
        return Err(Refusal::Conflict(ALREADY_ADDED));
    }
    let account: Option<String> = sqlx::query_scalar!("select id from users where lower(email) = $1 order by created_at limit 1", &email)
        .fetch_optional(&mut *tx)
        .await?;
    let added = match account {
        Some(user_id) => {
            crate::organisations::add_member(&mut *tx, level, &user_id, admin).await?;
            Added::Account(user_id)
        }
        None => {
            sqlx::query!("insert into organisation_level_emails (level_id, email, is_admin) values ($1, $2, $3)", level, &email, admin)
                .execute(&mut *tx)
                .await?;
            Added::Address(email.clone())
        }
    };
    let (user_id, user_email) = match &added {
        Added::Account(id) => (Some(id.clone()), None),
        Added::Address(e) => (None, Some(e.clone())),
    };
    sqlx::query!(
        "insert into organisation_subscriptions (id, description, user_id, user_email, organisation_id, level_id, product_type, is_active)
         select gen_random_uuid(), $1, $2, $3, $4, l.id, coalesce(l.product_type, o.product_type), false
           from organisation_levels l join organisations o on o.id = l.organisation_id where l.id = $5",
        format!("{DESCRIPTION_PREFIX}{}", organisation.organization_name),
        user_id,
        user_email,
        main,
        level,
    )
    .execute(&mut *tx)
    .await?;
    refresh(tx, Some(main), today).await?;
    Ok((added, email))
}

/// Gives or takes the admin flag of a user (an account) of a sub-organisation. Answers the
/// address and whether it changed.
pub async fn set_admin(tx: &mut PgConnection, level: Uuid, user_id: &str, admin: bool) -> Result<(String, bool), Refusal> {
    let row: Option<(String, bool)> = sqlx::query!(
        "select u.email, m.is_admin from organisation_members m join users u on u.id = m.user_id where m.level_id = $1 and m.user_id = $2",
        level,
        user_id,
    )
    .fetch_optional(&mut *tx)
    .await?
    .map(|r| (r.email, r.is_admin));
    let (email, was) = row.ok_or(Refusal::NotFound(MEMBER_NOT_FOUND))?;
    sqlx::query!("update organisation_members set is_admin = $3 where level_id = $1 and user_id = $2", level, user_id, admin)
        .execute(&mut *tx)
        .await?;
    Ok((email, was != admin))
}

/// Removes an account from a sub-organisation, with its organisation subscription of it.
pub async fn remove_user(tx: &mut PgConnection, level: Uuid, user_id: &str) -> Result<String, Refusal> {
    let email: String = sqlx::query_scalar!(
        "delete from organisation_members m using users u where m.level_id = $1 and m.user_id = $2 and u.id = m.user_id returning u.email",
        level,
        user_id,
    )
    .fetch_optional(&mut *tx)
    .await?
    .ok_or(Refusal::NotFound(MEMBER_NOT_FOUND))?;
    sqlx::query!("delete from organisation_subscriptions where level_id = $1 and user_id = $2", level, user_id).execute(&mut *tx).await?;
    Ok(email)
}

/// Removes a waiting address from a sub-organisation, with its organisation subscription of it.
pub async fn remove_email(tx: &mut PgConnection, level: Uuid, raw_email: &str) -> Result<String, Refusal> {
    let email = raw_email.trim().to_lowercase();
    let removed = sqlx::query!("delete from organisation_level_emails where level_id = $1 and email = $2", level, &email)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    if removed == 0 {
        return Err(Refusal::NotFound(MEMBER_NOT_FOUND));
    }
    sqlx::query!("delete from organisation_subscriptions where level_id = $1 and user_email = $2 and user_id is null", level, &email)
        .execute(&mut *tx)
        .await?;
    Ok(email)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    fn main_input() -> OrganisationInput {
        OrganisationInput {
            organization_name: "Zorggroep Zuid".into(),
            agb_code: "12345678".into(),
            kind: Some("CARE_GROUP".into()),
            valid_date_main_level: true,
            valid_until: Some("2027-01-31".into()),
            ..Default::default()
        }
    }

    fn message(r: Result<Checked, Refusal>) -> String {
        r.map(|_| String::new()).unwrap_or_else(|e| e.to_string())
    }

    #[test]
    fn a_main_organisation_is_checked_in_the_spec_order() {
        assert_eq!(check_main(&main_input()).unwrap().term.end, Some(day("2027-01-31")));
        type Change = fn(&mut OrganisationInput);
        let cases: [(Change, &str); 7] = [
            (|i| i.organization_name.clear(), NAME_MISSING),
            (|i| i.agb_code = " ".into(), AGB_MISSING),
            (|i| i.valid_until = None, END_MISSING),
            (|i| i.valid_until = Some("31-01-2027".into()), DATE_FORMAT),
            (|i| i.start_date = Some("2027-1-1".into()), START_FORMAT),
            (|i| i.start_date = Some("2027-02-01".into()), END_BEFORE_START),
            (|i| i.kind = None, CATEGORY_MISSING),
        ];
        for (change, expected) in cases {
            let mut input = main_input();
            change(&mut input);
            assert_eq!(message(check_main(&input)), expected);
        }
        // without dates on main level, none are asked for
        let per_level = OrganisationInput { valid_date_main_level: false, valid_until: None, ..main_input() };
        assert_eq!(check_main(&per_level).unwrap().term, Term::default());
        // the inline edit's own messages
        let editing = OrganisationInput { id: Some(Uuid::nil()), agb_code: String::new(), ..main_input() };
        assert_eq!(message(check_main(&editing)), INLINE_AGB_MISSING);
        let editing = OrganisationInput { id: Some(Uuid::nil()), kind: Some(String::new()), ..main_input() };
        assert_eq!(message(check_main(&editing)), TYPE_MISSING);
        let unknown = OrganisationInput { kind: Some("CLINIC".into()), ..main_input() };
        assert_eq!(message(check_main(&unknown)), UNKNOWN_TYPE);
    }

    #[test]
    fn an_empty_id_is_a_new_organisation() {
        let input: OrganisationInput = serde_json::from_str(r#"{"id": "", "organizationName": "A"}"#).unwrap();
        assert_eq!(input.id, None);
        let input: OrganisationInput = serde_json::from_str(&format!(r#"{{"id": "{}"}}"#, Uuid::nil())).unwrap();
        assert_eq!(input.id, Some(Uuid::nil()));
        assert!(serde_json::from_str::<OrganisationInput>(r#"{"id": "x"}"#).is_err());
    }

    #[test]
    fn a_sub_organisation_is_a_practice_unless_said_otherwise() {
        let input = OrganisationInput { organization_name: "De Linde".into(), agb_code: "1".into(), ..Default::default() };
        assert_eq!(message(check_sub(&input, false)), END_MISSING, "its own term when the main keeps none");
        let checked = check_sub(&input, true).unwrap();
        assert_eq!((checked.kind.as_str(), checked.term), ("PRACTICE", Term::default()));
        assert_eq!(message(check_sub(&OrganisationInput { kind: Some(String::new()), ..input.clone() }, true)), TYPE_MISSING);
        assert_eq!(message(check_sub(&OrganisationInput { agb_code: String::new(), ..input.clone() }, true)), SUB_AGB_MISSING);
    }

    #[test]
    fn the_name_shown_is_the_description_after_27_characters() {
        assert_eq!(DESCRIPTION_PREFIX.chars().count(), 27);
        assert_eq!(organisation_name("Organisatie abonnement van Zorggroep Zuid"), "Zorggroep Zuid");
        assert_eq!(organisation_name("kort"), "");
    }

    #[test]
    fn an_organisation_name_or_agb_code_with_a_right_to_left_override_is_refused() {
        let input = |name: &str, agb: &str| OrganisationInput {
            organization_name: name.into(),
            agb_code: agb.into(),
            kind: Some("PRACTICE".into()),
            ..Default::default()
        };
        assert!(check_main(&input("Praktijk De Linde", "01234567")).is_ok());
        for (name, agb) in [("Praktijk \u{202e}edniL eD", "01234567"), ("Praktijk De Linde", "0123\u{2066}4567")] {
            assert!(matches!(check_main(&input(name, agb)), Err(Refusal::Invalid(crate::text::HIDDEN_CHARACTERS))), "{name:?}");
            assert!(matches!(check_sub(&input(name, agb), true), Err(Refusal::Invalid(crate::text::HIDDEN_CHARACTERS))), "{name:?}");
        }
    }

    #[test]
    fn duration_terms_and_addresses() {
        assert_eq!(duration_term(None, Some("2027-01-01")).unwrap(), Term { start: None, end: Some(day("2027-01-01")) });
        assert!(matches!(duration_term(Some(""), Some("")), Err(Refusal::Invalid(DURATION_END_FORMAT))));
        assert!(matches!(duration_term(Some("1-1-2027"), Some("2027-01-01")), Err(Refusal::Invalid(DURATION_START_FORMAT))));
        assert!(matches!(duration_term(Some("2027-02-01"), Some("2027-01-01")), Err(Refusal::Invalid(END_BEFORE_START))));
        assert!(matches!(duration_term(None, Some("2027-02-30")), Err(Refusal::Invalid(DURATION_END_FORMAT))));
        assert_eq!(check_email("  Anne@Praktijk.NL ").unwrap(), "anne@praktijk.nl");
        assert!(matches!(check_email(" "), Err(Refusal::Invalid(EMAIL_MISSING))));
        assert!(matches!(check_email("anne @praktijk.nl"), Err(Refusal::Invalid(EMAIL_SPACES))));
        assert!(matches!(check_email("anne"), Err(Refusal::Invalid(EMAIL_INVALID))));
    }
}

// ---------------------------------------------------------------------------------------------
// Organisatie abonnementen

pub const NOT_A_DUPLICATE: &str = "Dit is geen dubbel ingevoerd abonnement, verwijder de gebruiker via de Organisatie tab.";
pub const SUBSCRIPTION_NOT_FOUND: &str = "Organisatie abonnement niet gevonden";

/// An organisation subscription as the CMS lists it (spec §3 "Organisation subscription (CMS)").
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CmsOrganisationSubscription {
    pub id: Uuid,
    pub description: String,
    /// The description without "Organisatie abonnement van " (its first 27 characters).
    pub organization_name: String,
    pub user_id: Option<String>,
    pub user_email: Option<String>,
    pub sub_organization_id: Option<Uuid>,
    pub sub_organization_name: Option<String>,
    pub start_date: Option<NaiveDate>,
    pub valid_until: Option<NaiveDate>,
    pub active: bool,
    /// Switched off by staff: it stays off whatever its organisation's term says.
    pub switched_off: bool,
    /// A last day of its own, set by staff; without one it follows its organisation's term.
    pub own_valid_until: Option<NaiveDate>,
}

/// The name the CMS shows for a description: without its first 27 characters.
pub fn organisation_name(description: &str) -> String {
    description.chars().skip(DESCRIPTION_PREFIX.chars().count()).collect()
}

/// An organisation subscription as `cms_subscriptions!` reads it.
struct SubscriptionRow {
    id: Uuid,
    description: String,
    user_id: Option<String>,
    user_email: Option<String>,
    level_id: Option<Uuid>,
    level_name: Option<String>,
    start_date: Option<NaiveDate>,
    valid_until: Option<NaiveDate>,
    is_active: bool,
    switched_off: bool,
    own_valid_until: Option<NaiveDate>,
}

impl From<SubscriptionRow> for CmsOrganisationSubscription {
    fn from(r: SubscriptionRow) -> Self {
        CmsOrganisationSubscription {
            organization_name: organisation_name(&r.description),
            description: r.description,
            id: r.id,
            user_id: r.user_id,
            user_email: r.user_email,
            sub_organization_id: r.level_id,
            sub_organization_name: r.level_name,
            start_date: r.start_date,
            valid_until: r.valid_until,
            active: r.is_active,
            switched_off: r.switched_off,
            own_valid_until: r.own_valid_until,
        }
    }
}

/// A compile-checked statement answering [`SubscriptionRow`]s from `organisation_subscriptions s`
/// with its user `u` and sub-organisation `l`, followed by `$tail` (a string literal: the
/// conditions) and the statement's arguments.
macro_rules! cms_subscriptions {
    ($tail:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            SubscriptionRow,
            r#"select s.id, s.description, s.user_id, coalesce(u.email, s.user_email) as "user_email?", s.level_id,
                      l.name as "level_name?", s.start_date, s.valid_until, s.is_active, s.switched_off, s.own_valid_until
                 from organisation_subscriptions s left join users u on u.id = s.user_id
                 left join organisation_levels l on l.id = s.level_id "# + $tail
            $(, $arg)*
        )
    };
}

/// A page of organisation subscriptions in the spec's order (description, then sub-organisation
/// name in any case, then valid-until, latest first), optionally the active ones only.
pub async fn subscriptions_page(
    db: &PgPool,
    active_only: bool,
    page: i64,
    size: i64,
) -> sqlx::Result<(Vec<CmsOrganisationSubscription>, i64)> {
    let rows = cms_subscriptions!(
        "where not $1 or s.is_active
         order by s.description, lower(l.name), s.valid_until desc nulls last, s.id limit $2 offset $3",
        active_only,
        size,
        page * size,
    )
    .fetch_all(db)
    .await?;
    let total: i64 =
        sqlx::query_scalar!(r#"select count(*) as "count!" from organisation_subscriptions s where not $1 or s.is_active"#, active_only)
            .fetch_one(db)
            .await?;
    Ok((rows.into_iter().map(CmsOrganisationSubscription::from).collect(), total))
}

/// One organisation subscription, locked for a change in `tx`.
async fn locked_subscription(tx: &mut PgConnection, id: Uuid) -> Result<CmsOrganisationSubscription, Refusal> {
    let row = cms_subscriptions!("where s.id = $1 for update of s", id)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(Refusal::NotFound(SUBSCRIPTION_NOT_FOUND))?;
    Ok(row.into())
}

/// An organisation subscription before and after a change (for the answer and the audit log).
#[derive(Debug, Clone)]
pub struct SubscriptionChanged {
    pub before: CmsOrganisationSubscription,
    pub after: CmsOrganisationSubscription,
}

/// Switches an organisation subscription on or off (spec §2.3: Actief can be edited). Switched
/// on, it is active again while its term runs: one whose term has not started or is past stays
/// off.
pub async fn set_subscription_active(
    tx: &mut PgConnection,
    id: Uuid,
    active: bool,
    today: NaiveDate,
) -> Result<SubscriptionChanged, Refusal> {
    let before = locked_subscription(tx, id).await?;
    sqlx::query!("update organisation_subscriptions set switched_off = not $2 where id = $1", id, active).execute(&mut *tx).await?;
    apply_own_settings(tx, id, today).await?;
    Ok(SubscriptionChanged { before, after: locked_subscription(tx, id).await? })
}

/// Gives an organisation subscription a last day of its own (spec §2.3: Geldig tot can be
/// edited; a day in the past switches it off), or with `None` lets it follow its organisation's
/// term again.
pub async fn set_subscription_valid_until(
    tx: &mut PgConnection,
    id: Uuid,
    valid_until: Option<NaiveDate>,
    today: NaiveDate,
) -> Result<SubscriptionChanged, Refusal> {
    let before = locked_subscription(tx, id).await?;
    sqlx::query!("update organisation_subscriptions set own_valid_until = $2 where id = $1", id, valid_until).execute(&mut *tx).await?;
    apply_own_settings(tx, id, today).await?;
    Ok(SubscriptionChanged { before, after: locked_subscription(tx, id).await? })
}

/// Writes the effective term and active state of a subscription after its own settings changed:
/// its organisation's terms again ([`refresh`] keeps the own settings), or, for one of no
/// sub-organisation, its own last day.
async fn apply_own_settings(tx: &mut PgConnection, id: Uuid, today: NaiveDate) -> sqlx::Result<()> {
    let organisation: Option<Uuid> = sqlx::query_scalar!(
        "select l.organisation_id from organisation_subscriptions s join organisation_levels l on l.id = s.level_id where s.id = $1",
        id,
    )
    .fetch_optional(&mut *tx)
    .await?;
    match organisation {
        Some(organisation) => {
            refresh(tx, Some(organisation), today).await?;
        }
        None => {
            sqlx::query!(
                "update organisation_subscriptions set valid_until = coalesce(own_valid_until, valid_until),
                        is_active = organisation_subscription_active(not switched_off, start_date, coalesce(own_valid_until, valid_until), $2)
                  where id = $1",
                id,
                today,
            )
            .execute(&mut *tx)
            .await?;
        }
    }
    Ok(())
}

/// Deletes an organisation subscription that is a duplicate: another one exists for the same user
/// (account or address) and sub-organisation. Anything else is refused with the spec's warning.
pub async fn delete_duplicate(tx: &mut PgConnection, id: Uuid) -> Result<CmsOrganisationSubscription, Refusal> {
    let subscription = locked_subscription(tx, id).await?;
    let others: i64 = sqlx::query_scalar!(
        r#"select count(*) as "count!" from organisation_subscriptions s left join users u on u.id = s.user_id
          where s.id <> $1 and s.level_id is not distinct from $2
            and ((s.user_id is not null and s.user_id = $3) or lower(coalesce(u.email, s.user_email)) = lower($4))"#,
        id,
        subscription.sub_organization_id,
        subscription.user_id.as_deref(),
        subscription.user_email.as_deref(),
    )
    .fetch_one(&mut *tx)
    .await?;
    if others == 0 {
        return Err(Refusal::Conflict(NOT_A_DUPLICATE));
    }
    sqlx::query!("delete from organisation_subscriptions where id = $1", id).execute(&mut *tx).await?;
    Ok(subscription)
}

/// A user of a sub-organisation that needs the development team (spec: the two warning lists).
#[derive(Debug, Clone, Serialize, sqlx::FromRow, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrganisationProblem {
    pub email: String,
    pub user_id: Option<String>,
    pub sub_organization_id: Uuid,
    pub sub_organization_name: String,
}

/// The most problems a warning list shows.
pub const PROBLEMS_SHOWN: i64 = 200;

/// Addresses waiting in a sub-organisation although an account with that address exists (the
/// link on sign-in did not happen; `POST tribe` makes it).
pub async fn waiting_with_account(db: &PgPool) -> sqlx::Result<Vec<OrganisationProblem>> {
    sqlx::query_as!(
        OrganisationProblem,
        r#"select e.email, u.id as "user_id?", l.id as sub_organization_id, l.name as sub_organization_name
           from organisation_level_emails e join users u on lower(u.email) = e.email join organisation_levels l on l.id = e.level_id
          order by e.email, l.name limit $1"#,
        PROBLEMS_SHOWN,
    )
    .fetch_all(db)
    .await
}

/// Accounts of an active sub-organisation without an active organisation subscription of it.
pub async fn members_without_subscription(db: &PgPool) -> sqlx::Result<Vec<OrganisationProblem>> {
    sqlx::query_as!(
        OrganisationProblem,
        r#"select u.email, u.id as "user_id?", l.id as sub_organization_id, l.name as sub_organization_name
           from organisation_members m join users u on u.id = m.user_id join organisation_levels l on l.id = m.level_id
          where l.is_active
            and not exists (select 1 from organisation_subscriptions s where s.level_id = l.id and s.user_id = u.id and s.is_active)
          order by lower(u.email), l.name limit $1"#,
        PROBLEMS_SHOWN,
    )
    .fetch_all(db)
    .await
}
