//! Why the domain refuses a call, in Dutch: the request is not right, names nothing, or the state
//! does not allow it. One type for every area (billing, organisations, the staff's pages); the
//! api maps it to HTTP in one place (`api::error`).

/// A refusal with its Dutch message, or a database failure.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// 400: the request is not right (a billing message, 'Kortingscode onjuist', a date format).
    #[error("{0}")]
    Invalid(&'static str),
    /// 404: nothing of the caller's by that id.
    #[error("{0}")]
    NotFound(&'static str),
    /// 409: the state does not allow it (a second trial, a seat twice, a name taken).
    #[error("{0}")]
    Conflict(&'static str),
    /// 409 with a message made for the case (a number in it: 'Je kunt niet meer dan 4
    /// gebruikers aan dit abonnement koppelen.').
    #[error("{0}")]
    ConflictWith(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// What a user sent that a rule cannot take, with a code of its own for the client (`too_long`,
/// `empty_transcript`); the message is Dutch and fit to show. The api answers it with 400.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Invalid {
    /// Stable machine code, e.g. `too_long`.
    pub code: &'static str,
    pub message: String,
}

pub(crate) fn invalid(code: &'static str, message: impl Into<String>) -> Invalid {
    Invalid { code, message: message.into() }
}
