//! The onboarding profile: preferred name, phone number, the practice's AGB code and name, role
//! and practitioner kind. Every field is optional.

use sqlx::PgPool;

pub const USER_KINDS: [&str; 3] = ["ARTS", "ZORGGROEPMANAGER", "ANDERS"];
pub const PRACTITIONER_KINDS: [&str; 3] = ["WAARNEMEND", "PRAKTIJKHOUDEND", "ANDERS"];

#[derive(Debug, Clone, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct Profile {
    pub preferred_name: Option<String>,
    pub phone_number: Option<String>,
    pub agb_code: Option<String>,
    pub organisation_name: Option<String>,
    pub user_kind: Option<String>,
    pub practitioner_kind: Option<String>,
}

/// A field that is not acceptable, with the Dutch message for the form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Invalid {
    pub field: &'static str,
    pub message: &'static str,
}

fn trimmed(value: Option<String>) -> Option<String> {
    value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

impl Profile {
    /// Trims every field (blank is unset), checks them, and drops the practitioner kind unless
    /// the role is ARTS.
    pub fn checked(self) -> Result<Self, Invalid> {
        let too_long = |v: &Option<String>, max: usize| v.as_ref().is_some_and(|v| v.chars().count() > max);
        let p = Profile {
            preferred_name: trimmed(self.preferred_name),
            phone_number: trimmed(self.phone_number),
            agb_code: trimmed(self.agb_code).map(|a| a.replace([' ', '-', '.'], "")),
            organisation_name: trimmed(self.organisation_name),
            user_kind: trimmed(self.user_kind).map(|v| v.to_ascii_uppercase()),
            practitioner_kind: trimmed(self.practitioner_kind).map(|v| v.to_ascii_uppercase()),
        };
        if too_long(&p.preferred_name, 100) {
            return Err(Invalid { field: "preferredUsername", message: "De naam is te lang (hoogstens 100 tekens)." });
        }
        if let Some(phone) = &p.phone_number {
            let digits = phone.chars().filter(char::is_ascii_digit).count();
            let allowed = phone.chars().all(|c| c.is_ascii_digit() || " +-()".contains(c));
            if !allowed || !(8..=15).contains(&digits) {
                return Err(Invalid { field: "phoneNumber", message: "Vul een geldig telefoonnummer in, bijvoorbeeld 020 123 4567." });
            }
        }
        if let Some(agb) = &p.agb_code
            && (agb.len() != 8 || !agb.chars().all(|c| c.is_ascii_digit()))
        {
            return Err(Invalid { field: "AGBCode", message: "Een AGB-code bestaat uit 8 cijfers." });
        }
        if too_long(&p.organisation_name, 200) {
            return Err(Invalid { field: "organizationName", message: "De naam van de praktijk is te lang (hoogstens 200 tekens)." });
        }
        if p.user_kind.as_deref().is_some_and(|k| !USER_KINDS.contains(&k)) {
            return Err(Invalid { field: "userKind", message: "Kies arts, zorggroepmanager of anders." });
        }
        if p.practitioner_kind.as_deref().is_some_and(|k| !PRACTITIONER_KINDS.contains(&k)) {
            return Err(Invalid { field: "practitionerKind", message: "Kies waarnemend, praktijkhoudend of anders." });
        }
        let practitioner_kind = if p.user_kind.as_deref() == Some("ARTS") { p.practitioner_kind } else { None };
        Ok(Profile { practitioner_kind, ..p })
    }
}

pub async fn find(db: &PgPool, user_id: &str) -> sqlx::Result<Profile> {
    let found: Option<Profile> = sqlx::query_as!(
        Profile,
        r#"select u.preferred_name, p.phone_number as "phone_number?", p.agb_code as "agb_code?",
                  p.organisation_name as "organisation_name?", p.user_kind as "user_kind?", p.practitioner_kind as "practitioner_kind?"
             from users u left join user_profiles p on p.user_id = u.id
            where u.id = $1"#,
        user_id,
    )
    .fetch_optional(db)
    .await?;
    Ok(found.unwrap_or_default())
}

/// Saves a checked profile: the preferred name on the user, the rest in the profile.
pub async fn save(db: &PgPool, user_id: &str, profile: &Profile) -> sqlx::Result<()> {
    let mut tx = db.begin().await?;
    sqlx::query!("update users set preferred_name = $2, updated_at = now() where id = $1", user_id, profile.preferred_name.as_deref())
        .execute(&mut *tx)
        .await?;
    sqlx::query!(
        "insert into user_profiles (user_id, phone_number, agb_code, organisation_name, user_kind, practitioner_kind)
         values ($1, $2, $3, $4, $5, $6)
         on conflict (user_id) do update
           set phone_number = excluded.phone_number, agb_code = excluded.agb_code,
               organisation_name = excluded.organisation_name, user_kind = excluded.user_kind,
               practitioner_kind = excluded.practitioner_kind, updated_at = now()",
        user_id,
        profile.phone_number.as_deref(),
        profile.agb_code.as_deref(),
        profile.organisation_name.as_deref(),
        profile.user_kind.as_deref(),
        profile.practitioner_kind.as_deref(),
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_trimmed_checked_and_the_practitioner_kind_needs_arts() {
        let p = Profile {
            preferred_name: Some("  Anne  ".into()),
            phone_number: Some("+31 (0)20 123-4567".into()),
            agb_code: Some("0101 2345".into()),
            organisation_name: Some(" ".into()),
            user_kind: Some("anders".into()),
            practitioner_kind: Some("WAARNEMEND".into()),
        }
        .checked()
        .unwrap();
        assert_eq!(p.preferred_name.as_deref(), Some("Anne"));
        assert_eq!(p.agb_code.as_deref(), Some("01012345"));
        assert_eq!(p.organisation_name, None);
        assert_eq!(p.user_kind.as_deref(), Some("ANDERS"));
        assert_eq!(p.practitioner_kind, None, "only asked of ARTS");
        let err = Profile { agb_code: Some("1234".into()), ..Default::default() }.checked().unwrap_err();
        assert_eq!(err.field, "AGBCode");
        assert!(Profile { phone_number: Some("bel me".into()), ..Default::default() }.checked().is_err());
        assert!(Profile { user_kind: Some("DOKTER".into()), ..Default::default() }.checked().is_err());
        assert_eq!(Profile::default().checked().unwrap(), Profile::default());
    }
}
