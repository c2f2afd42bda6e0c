//! Feedback from the widget on every page.

use sqlx::PgPool;
use uuid::Uuid;

/// At this length or more the widget refuses to send (and the api too).
pub const MAX_CHARS: usize = 3000;
pub const KINDS: [&str; 4] = ["template", "faq", "status", "default"];

#[derive(Debug, Clone, Default)]
pub struct NewFeedback {
    pub kind: String,
    pub text: String,
    pub rating: Option<i16>,
    pub anonymous: bool,
    pub consult_id: Option<String>,
    pub consult_type: Option<String>,
}

/// Who sent it, unless anonymous: the subject, and the login name cut to 20 characters, so a
/// reader can tell senders apart without the full address.
pub struct Sender<'a> {
    pub user_id: &'a str,
    pub login: &'a str,
}

/// Why feedback is refused, in Dutch.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Refused(pub &'static str);

pub fn check(f: &NewFeedback) -> Result<(), Refused> {
    if !KINDS.contains(&f.kind.as_str()) {
        return Err(Refused("Onbekend soort feedback."));
    }
    if f.text.chars().count() >= MAX_CHARS {
        return Err(Refused("De feedback is te lang: houd het onder de 3000 tekens."));
    }
    if f.rating.is_some_and(|r| !(1..=5).contains(&r)) {
        return Err(Refused("Kies een beoordeling van 1 tot en met 5."));
    }
    if f.text.trim().is_empty() && f.rating.is_none() {
        return Err(Refused("Schrijf iets of geef een beoordeling."));
    }
    Ok(())
}

pub async fn store(db: &PgPool, f: &NewFeedback, sender: Option<Sender<'_>>) -> sqlx::Result<Uuid> {
    let id = Uuid::new_v4();
    let (user_id, label) = match (&sender, f.anonymous) {
        (Some(s), false) => (Some(s.user_id), Some(s.login.chars().take(20).collect::<String>())),
        _ => (None, None),
    };
    let short = |v: &Option<String>| v.as_ref().map(|v| v.trim().chars().take(100).collect::<String>()).filter(|v| !v.is_empty());
    sqlx::query!(
        "insert into feedback (id, kind, text, rating, anonymous, consult_id, consult_type, user_id, user_label)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        id,
        &f.kind,
        f.text.trim(),
        f.rating,
        f.anonymous,
        short(&f.consult_id),
        short(&f.consult_type),
        user_id,
        label,
    )
    .execute(db)
    .await?;
    Ok(id)
}
