//! The rules of templates that need no database: the values a template takes, the bounds of what
//! a user writes and their Dutch messages, and who may read or change a template.
//!
//! The api parses what a user sends into these types at its edge; the list queries in the parent
//! module are the SQL twin of [`access`] (a test checks that both agree).

use std::collections::HashSet;
use std::hash::Hash;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::organisations::Membership;

/// Limits of what a user writes or asks (characters, or items of a list). The specification
/// gives none; these are generous for a line of a note and keep each request's work bounded.
pub mod limits {
    /// A title.
    pub const TITLE: usize = 200;
    /// A description.
    pub const DESCRIPTION: usize = 1_000;
    /// An entry's text.
    pub const TEXT: usize = 20_000;
    /// An entry's `kind`: a short code.
    pub const KIND: usize = 50;
    /// ICPC codes of one entry.
    pub const CODES: usize = 20;
    /// Entries of one group.
    pub const GROUP_ENTRIES: usize = 100;
    /// Whom one template is shared with.
    pub const PERMISSIONS: usize = 50;
    /// A search query.
    pub const QUERY: usize = 200;
    /// Distinct words of a search query (one `LIKE` each).
    pub const QUERY_WORDS: usize = 10;
    /// Rows of one page of entries.
    pub const ENTRY_PAGE: i64 = 100;
    /// Rows of one page of groups (each carries its entries).
    pub const GROUP_PAGE: i64 = 20;
}

pub use crate::refusal::Invalid;
use crate::refusal::invalid;

/// Why a change was refused: what the user wrote, or the database.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    #[error(transparent)]
    Invalid(#[from] Invalid),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// Which part of a SOEP note an entry belongs to. The `_TEXT` kinds are free text of that part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SoepType {
    Plan,
    Objective,
    Subjective,
    PlanText,
    ObjectiveText,
    SubjectiveText,
}

crate::db::text_column!(SoepType {
    Plan => "PLAN",
    Objective => "OBJECTIVE",
    Subjective => "SUBJECTIVE",
    PlanText => "PLAN_TEXT",
    ObjectiveText => "OBJECTIVE_TEXT",
    SubjectiveText => "SUBJECTIVE_TEXT",
});

impl SoepType {
    /// A value as a user sends it: upper case as shown, lower case taken too.
    pub fn parse(value: &str) -> Result<Self, Invalid> {
        Self::from_stored(&value.to_ascii_uppercase()).ok_or_else(Self::refusal)
    }

    /// A new entry must name its part of the note.
    pub fn required(value: Option<&str>) -> Result<Self, Invalid> {
        value.map_or_else(|| Err(Self::refusal()), Self::parse)
    }

    fn refusal() -> Invalid {
        invalid("invalid_soep_type", "Kies Plan, Objectief of Subjectief.")
    }
}

/// Who may see a template: everyone, or the owner and whom it is shared with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "UPPERCASE")]
#[schema(as = VisibilityType)]
pub enum Visibility {
    Public,
    Private,
}

crate::db::text_column!(Visibility {
    Public => "PUBLIC",
    Private => "PRIVATE",
});

impl Visibility {
    /// A value as a user sends it: upper case as shown, lower case taken too.
    pub fn parse(value: &str) -> Result<Self, Invalid> {
        Self::from_stored(&value.to_ascii_uppercase()).ok_or_else(|| invalid("invalid_visibility", "Kies openbaar of privé."))
    }

    /// A new template is shared (public) or private.
    pub fn shared(shared: bool) -> Self {
        if shared { Self::Public } else { Self::Private }
    }
}

/// A text field within `max` characters; `what` names it in Dutch ("De titel").
pub fn bounded_text(value: String, max: usize, what: &str) -> Result<String, Invalid> {
    if value.chars().count() > max {
        return Err(invalid("too_long", format!("{what} is te lang (hoogstens {max} tekens).")));
    }
    Ok(value)
}

/// An entry's `kind`: absent or empty is none; otherwise a short code of letters, digits, `_`
/// and `-` (the specification names the field but not its values).
pub fn parse_kind(value: Option<String>) -> Result<Option<String>, Invalid> {
    let Some(kind) = value.map(|k| k.trim().to_owned()).filter(|k| !k.is_empty()) else {
        return Ok(None);
    };
    let short = kind.chars().count() <= limits::KIND;
    if !short || !kind.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-') {
        return Err(invalid(
            "invalid_kind",
            format!("De soort is een korte code van letters, cijfers, '_' of '-' (hoogstens {} tekens).", limits::KIND),
        ));
    }
    Ok(Some(kind))
}

/// A list of at most `max` items; `what` names them in Dutch ("ICPC-codes").
pub fn bounded_list<T>(items: Vec<T>, max: usize, what: &str) -> Result<Vec<T>, Invalid> {
    if items.len() > max {
        return Err(invalid("too_many", format!("Te veel {what} (hoogstens {max}).")));
    }
    Ok(items)
}

/// Keeps the first of each repeated item, in one pass.
pub fn dedupe<T: Eq + Hash + Clone>(items: &[T]) -> Vec<T> {
    let mut seen: HashSet<&T> = HashSet::with_capacity(items.len());
    items.iter().filter(|item| seen.insert(*item)).cloned().collect()
}

/// ICPC codes as an entry keeps them: trimmed, upper case, each once in the order given, at most
/// [`limits::CODES`]. Whether they are in the list in force is the database's to say
/// ([`unknown_code`]).
pub fn entry_codes(codes: &[String]) -> Result<Vec<String>, Invalid> {
    let codes = dedupe(&codes.iter().map(|c| c.trim().to_ascii_uppercase()).collect::<Vec<_>>());
    bounded_list(codes, limits::CODES, "ICPC-codes")
}

/// A code that is not in the ICPC list in force.
pub fn unknown_code(code: &str) -> Invalid {
    invalid("unknown_icpc", format!("Onbekende ICPC-code: {code}"))
}

/// A group's entry the user may not see, or that does not exist: the same message for both.
pub fn unknown_entry(id: Uuid) -> Invalid {
    invalid("unknown_entry", format!("Onbekende template entry: {id}"))
}

/// A permission naming no organisation of the user's, or no user the api knows.
pub fn unknown_permission(named: &str) -> Invalid {
    invalid("unknown_permission", format!("Onbekende organisatie of gebruiker: {named}"))
}

/// The words of a search query: at most [`limits::QUERY`] characters and
/// [`limits::QUERY_WORDS`] distinct words, else refused (every word must match, so leaving some
/// out would show templates without them).
pub fn search_words(query: &str) -> Result<Vec<String>, Invalid> {
    let too_long = || invalid("query_too_long", format!("Zoek op hoogstens {} woorden ({} tekens).", limits::QUERY_WORDS, limits::QUERY));
    if query.chars().count() > limits::QUERY {
        return Err(too_long());
    }
    let words = crate::text::words(query);
    if words.len() > limits::QUERY_WORDS {
        return Err(too_long());
    }
    Ok(words)
}

/// Entries or groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Entry,
    Group,
}

impl Kind {
    /// Rows of one page at most.
    pub fn page_max(self) -> i64 {
        match self {
            Kind::Entry => limits::ENTRY_PAGE,
            Kind::Group => limits::GROUP_PAGE,
        }
    }
}

/// Rows and offset of a page: a missing limit is `default`, any limit at most the kind's page,
/// a missing offset 0. A limit below 1 or a negative offset is refused.
pub fn page(limit: Option<i64>, offset: Option<i64>, default: i64, kind: Kind) -> Result<(i64, i64), Invalid> {
    if limit.is_some_and(|l| l < 1) || offset.is_some_and(|o| o < 0) {
        return Err(invalid("invalid_page", "Ongeldige pagina: limit is minstens 1 en offset is niet negatief."));
    }
    Ok((limit.unwrap_or(default).clamp(1, kind.page_max()), offset.unwrap_or(0)))
}

/// Who is asking.
#[derive(Debug, Clone)]
pub struct Viewer {
    pub user_id: String,
    pub is_staff: bool,
    pub membership: Membership,
}

/// Whom a private template is shared with.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Grant {
    User(String),
    Level { id: Uuid, name: String },
    Organisation { id: Uuid, name: String },
}

/// What a viewer may do with one template.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Access {
    None,
    Read,
    Write,
}

impl Access {
    /// Whether this access is enough for what is needed.
    pub fn allows(self, need: Access) -> bool {
        self >= need
    }
}

/// What the viewer may do with a template of this owner, visibility and grants: the owner, an
/// admin of a level or main organisation it is shared with, and staff change it; everyone reads
/// a public one; a private one is read by whom it is shared with: the user, a member of the
/// level, or a member of any level of the main organisation.
pub fn access(viewer: &Viewer, owner: Option<&str>, visibility: Visibility, grants: &[Grant]) -> Access {
    let m = &viewer.membership;
    let admin = grants.iter().any(|g| match g {
        Grant::Level { id, .. } => m.admin_levels.contains(id),
        Grant::Organisation { id, .. } => m.admin_organisations.contains(id),
        Grant::User(_) => false,
    });
    if viewer.is_staff || owner == Some(viewer.user_id.as_str()) || admin {
        return Access::Write;
    }
    let shared = grants.iter().any(|g| match g {
        Grant::User(user) => *user == viewer.user_id,
        Grant::Level { id, .. } => m.levels.contains(id),
        Grant::Organisation { id, .. } => m.organisations.contains(id),
    });
    if visibility == Visibility::Public || shared { Access::Read } else { Access::None }
}

/// The fields of an entry a user writes.
#[derive(Debug, Clone)]
pub struct EntryFields {
    pub title: String,
    pub text: String,
    pub description: String,
    pub soep_type: SoepType,
    pub kind: Option<String>,
    /// Each code once, in the order given.
    pub codes: Vec<String>,
}

/// What a change of an entry sends: `None` leaves a field as it is. The codes are checked on
/// their own (they need the ICPC list).
#[derive(Debug, Clone, Default)]
pub struct EntryChange {
    pub title: Option<String>,
    pub text: Option<String>,
    pub description: Option<String>,
    pub soep_type: Option<String>,
    pub kind: Option<String>,
}

impl EntryFields {
    /// A new entry's fields: empty but for its part of the note, which it must name.
    pub fn new(soep_type: Option<&str>) -> Result<Self, Invalid> {
        Ok(Self {
            title: String::new(),
            text: String::new(),
            description: String::new(),
            soep_type: SoepType::required(soep_type)?,
            kind: None,
            codes: Vec::new(),
        })
    }

    /// These fields with the change applied and checked.
    pub fn changed(self, change: EntryChange) -> Result<Self, Invalid> {
        Ok(Self {
            soep_type: match change.soep_type {
                Some(value) => SoepType::parse(&value)?,
                None => self.soep_type,
            },
            title: bounded_text(change.title.unwrap_or(self.title), limits::TITLE, "De titel")?,
            text: bounded_text(change.text.unwrap_or(self.text), limits::TEXT, "De tekst")?,
            description: bounded_text(change.description.unwrap_or(self.description), limits::DESCRIPTION, "De omschrijving")?,
            kind: match change.kind {
                Some(kind) => parse_kind(Some(kind))?,
                None => self.kind,
            },
            codes: self.codes,
        })
    }
}

#[derive(Debug, Clone, Default)]
pub struct GroupFields {
    pub title: String,
    pub description: String,
    /// Each entry once, in the order given.
    pub entries: Vec<Uuid>,
}

impl GroupFields {
    /// These fields with a new title and description (`None`: unchanged), checked.
    pub fn retitled(self, title: Option<String>, description: Option<String>) -> Result<Self, Invalid> {
        Ok(Self {
            title: bounded_text(title.unwrap_or(self.title), limits::TITLE, "De titel")?,
            description: bounded_text(description.unwrap_or(self.description), limits::DESCRIPTION, "De omschrijving")?,
            entries: self.entries,
        })
    }
}

/// A group's entries as sent: each once in the order given, at most [`limits::GROUP_ENTRIES`].
pub fn group_entry_ids(ids: &[Uuid]) -> Result<Vec<Uuid>, Invalid> {
    bounded_list(dedupe(ids), limits::GROUP_ENTRIES, "entries in een groep")
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEVEL: Uuid = Uuid::from_u128(1);
    const OTHER_LEVEL: Uuid = Uuid::from_u128(2);
    const ORGANISATION: Uuid = Uuid::from_u128(10);
    const OTHER_ORGANISATION: Uuid = Uuid::from_u128(20);

    fn viewer(membership: Membership) -> Viewer {
        Viewer { user_id: "me".into(), is_staff: false, membership }
    }

    fn member() -> Membership {
        Membership { levels: vec![LEVEL], organisations: vec![ORGANISATION], ..Default::default() }
    }

    fn admin() -> Membership {
        Membership { admin_levels: vec![LEVEL], admin_organisations: vec![ORGANISATION], ..member() }
    }

    fn level(id: Uuid) -> Grant {
        Grant::Level { id, name: "Praktijk".into() }
    }

    fn organisation(id: Uuid) -> Grant {
        Grant::Organisation { id, name: "Zorggroep".into() }
    }

    #[test]
    fn the_owner_and_staff_change_anything_of_theirs_or_anyones() {
        let me = viewer(Membership::default());
        assert_eq!(access(&me, Some("me"), Visibility::Private, &[]), Access::Write);
        let staff = Viewer { is_staff: true, ..viewer(Membership::default()) };
        assert_eq!(access(&staff, Some("someone"), Visibility::Private, &[]), Access::Write);
        assert_eq!(access(&staff, None, Visibility::Public, &[]), Access::Write);
    }

    #[test]
    fn everyone_reads_a_public_template_and_nobody_else_a_private_one() {
        let me = viewer(member());
        assert_eq!(access(&me, Some("someone"), Visibility::Public, &[]), Access::Read);
        assert_eq!(access(&me, None, Visibility::Public, &[]), Access::Read);
        assert_eq!(access(&me, Some("someone"), Visibility::Private, &[]), Access::None);
        assert_eq!(access(&me, None, Visibility::Private, &[]), Access::None);
    }

    #[test]
    fn a_private_template_is_read_by_whom_it_is_shared_with() {
        let me = viewer(member());
        let other = Some("someone");
        assert_eq!(access(&me, other, Visibility::Private, &[Grant::User("me".into())]), Access::Read);
        assert_eq!(access(&me, other, Visibility::Private, &[Grant::User("you".into())]), Access::None);
        assert_eq!(access(&me, other, Visibility::Private, &[level(LEVEL)]), Access::Read);
        assert_eq!(access(&me, other, Visibility::Private, &[level(OTHER_LEVEL)]), Access::None);
        // shared with the main organisation: every member of any of its levels reads it
        assert_eq!(access(&me, other, Visibility::Private, &[organisation(ORGANISATION)]), Access::Read);
        assert_eq!(access(&me, other, Visibility::Private, &[organisation(OTHER_ORGANISATION)]), Access::None);
        assert_eq!(access(&me, other, Visibility::Private, &[level(OTHER_LEVEL), level(LEVEL)]), Access::Read);
    }

    #[test]
    fn an_admin_changes_what_is_shared_with_their_level_or_organisation_only() {
        let me = viewer(admin());
        let other = Some("someone");
        assert_eq!(access(&me, other, Visibility::Private, &[level(LEVEL)]), Access::Write);
        assert_eq!(access(&me, other, Visibility::Private, &[organisation(ORGANISATION)]), Access::Write);
        assert_eq!(access(&me, other, Visibility::Public, &[organisation(ORGANISATION)]), Access::Write);
        // an admin of their level, not of what the template is shared with
        assert_eq!(access(&me, other, Visibility::Public, &[]), Access::Read);
        assert_eq!(access(&me, other, Visibility::Private, &[level(OTHER_LEVEL)]), Access::None);
        // a plain member of a level reads, never changes
        let plain = viewer(member());
        assert_eq!(access(&plain, other, Visibility::Private, &[level(LEVEL)]), Access::Read);
    }

    #[test]
    fn access_allows_what_it_covers() {
        assert!(Access::Write.allows(Access::Read) && Access::Write.allows(Access::Write));
        assert!(Access::Read.allows(Access::Read) && !Access::Read.allows(Access::Write));
        assert!(!Access::None.allows(Access::Read));
    }

    #[test]
    fn soep_types_and_visibilities_parse_in_either_case_and_refuse_the_rest_in_dutch() {
        assert_eq!(SoepType::parse("plan_text"), Ok(SoepType::PlanText));
        assert_eq!(SoepType::parse("OBJECTIVE"), Ok(SoepType::Objective));
        let refused = SoepType::parse("DIAGNOSE").unwrap_err();
        assert_eq!((refused.code, refused.message.as_str()), ("invalid_soep_type", "Kies Plan, Objectief of Subjectief."));
        assert_eq!(SoepType::required(None).unwrap_err().code, "invalid_soep_type");
        assert_eq!(Visibility::parse("private"), Ok(Visibility::Private));
        assert_eq!(Visibility::parse("iedereen").unwrap_err().message, "Kies openbaar of privé.");
        for t in SoepType::ALL {
            assert_eq!(SoepType::from_stored(t.as_str()), Some(t));
            assert_eq!(serde_json::to_value(t).unwrap(), t.as_str());
        }
        for v in Visibility::ALL {
            assert_eq!(serde_json::to_value(v).unwrap(), v.as_str());
        }
    }

    #[test]
    fn a_change_keeps_what_it_leaves_out_and_checks_what_it_sends() {
        let base = EntryFields::new(Some("plan")).unwrap();
        let changed =
            base.clone().changed(EntryChange { title: Some("Knie".into()), kind: Some("  ".into()), ..Default::default() }).unwrap();
        assert_eq!((changed.title.as_str(), changed.soep_type, changed.kind), ("Knie", SoepType::Plan, None));
        let long = "x".repeat(limits::TITLE + 1);
        let refused = base.clone().changed(EntryChange { title: Some(long), ..Default::default() }).unwrap_err();
        assert_eq!(refused.message, "De titel is te lang (hoogstens 200 tekens).");
        let refused = base.changed(EntryChange { kind: Some("a b".into()), ..Default::default() }).unwrap_err();
        assert_eq!(refused.code, "invalid_kind");
    }

    #[test]
    fn codes_are_trimmed_upper_case_once_and_bounded() {
        let codes = entry_codes(&["k86".into(), " K86 ".into(), "T90".into()]).unwrap();
        assert_eq!(codes, ["K86", "T90"]);
        let many: Vec<String> = (0..=limits::CODES).map(|i| format!("K{i:02}")).collect();
        assert_eq!(entry_codes(&many).unwrap_err().message, "Te veel ICPC-codes (hoogstens 20).");
        assert_eq!(unknown_code("Q99").message, "Onbekende ICPC-code: Q99");
    }

    #[test]
    fn pages_default_clamp_and_refuse_nonsense() {
        assert_eq!(page(None, None, 5, Kind::Entry), Ok((5, 0)));
        assert_eq!(page(Some(1_000), Some(7), 5, Kind::Entry), Ok((limits::ENTRY_PAGE, 7)));
        assert_eq!(page(Some(1_000), None, 5, Kind::Group), Ok((limits::GROUP_PAGE, 0)));
        assert_eq!(page(Some(0), None, 5, Kind::Entry).unwrap_err().code, "invalid_page");
        assert_eq!(page(None, Some(-1), 5, Kind::Entry).unwrap_err().code, "invalid_page");
    }
}
