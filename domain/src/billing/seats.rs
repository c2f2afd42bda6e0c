//! Seats: the users linked to a non-individual subscription, added by e-mail address and removed
//! by the owner, and the invitation a new seat's user gets.
//!
//! A subscription takes at most [`seat_cap`] seats: the users paid for plus a fair-use margin.
//! The spec lets the seats outnumber the users paid for (its warning says concurrent use is on a
//! fair-use basis); the margin keeps that possible for a locum or a trainee without letting one
//! paid seat hand out the product to any number of addresses. How fast seats are added and
//! invitations sent is limited per subscription at the api (`SEATS`, `SEAT_INVITATIONS`).

use chrono::NaiveDate;
use serde::Serialize;
use sqlx::PgPool;
use uuid::Uuid;

use super::details::looks_like_email;
use super::{CANNOT_REMOVE, FAIR_USE, MAX_FIELD, NO_EMAIL, NOT_FOUND};
use crate::refusal::Refusal;

/// Seats a subscription takes beyond the users paid for: at least this many...
pub const FAIR_USE_EXTRA_SEATS: i64 = 2;
/// ...or this percentage of the users paid for (rounded up), when that is more.
pub const FAIR_USE_EXTRA_PERCENT: i64 = 10;

/// The most seats a subscription for `user_amount` users takes: 2 users → 4 seats, 20 → 22,
/// 50 → 55.
pub fn seat_cap(user_amount: i32) -> i64 {
    let paid = i64::from(user_amount.max(0));
    paid + FAIR_USE_EXTRA_SEATS.max((paid * FAIR_USE_EXTRA_PERCENT + 99) / 100)
}

/// 'Je kunt niet meer dan N gebruikers aan dit abonnement koppelen.'
pub fn over_cap_message(cap: i64) -> String {
    format!("Je kunt niet meer dan {cap} gebruikers aan dit abonnement koppelen.")
}

/// Whether users may be linked to a subscription (the spec leaves the rule out; this is ours).
pub fn can_link(is_active: bool, is_trial: bool, is_individual: bool) -> bool {
    is_active && !is_trial && !is_individual
}

/// A seat added: its id, the user it resolved to, and the fair-use warning when the seats now
/// outnumber the users paid for.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeatAdded {
    pub id: Uuid,
    pub email_address: String,
    pub user_id: Option<String>,
    /// The fair-use warning when the seats outnumber the users paid for.
    #[schema(value_type = Option<String>)]
    pub warning: Option<&'static str>,
}

/// Adds a seat by e-mail address (lower case) to the owner's subscription; when an account has
/// that address the seat names the account.
pub async fn add_linked(db: &PgPool, owner_id: &str, subscription_id: Uuid, email: &str, today: NaiveDate) -> Result<SeatAdded, Refusal> {
    let email = email.trim().to_lowercase();
    if email.is_empty() {
        return Err(Refusal::Invalid(NO_EMAIL));
    }
    if crate::text::has_hidden_characters(&email) {
        return Err(Refusal::Invalid(crate::text::HIDDEN_CHARACTERS));
    }
    if !looks_like_email(&email) || email.chars().count() > MAX_FIELD {
        return Err(Refusal::Invalid("Ongeldig e-mail adres."));
    }
    let mut tx = db.begin().await?;
    let sub = sqlx::query!(
        r#"select user_amount, is_trial, is_individual, subscription_active(is_active, valid_until, $3) as "active!"
             from subscriptions where id = $1 and user_id = $2 for update"#,
        subscription_id,
        owner_id,
        today
    )
    .fetch_optional(&mut *tx)
    .await?
    .ok_or(Refusal::NotFound(NOT_FOUND))?;
    if !can_link(sub.active, sub.is_trial, sub.is_individual) {
        return Err(Refusal::Conflict("Aan dit abonnement kunnen geen gebruikers worden gekoppeld."));
    }
    let user: Option<String> = sqlx::query_scalar!("select id from users where lower(email) = $1 order by created_at limit 1", email)
        .fetch_optional(&mut *tx)
        .await?;
    let id = Uuid::new_v4();
    let inserted = sqlx::query!(
        "insert into linked_subscriptions (id, subscription_id, user_id, email)
         select $1, $2, $3, $4
          where not exists (select 1 from linked_subscriptions where subscription_id = $2 and (email = $4 or user_id = $3))",
        id,
        subscription_id,
        user,
        email
    )
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if inserted == 0 {
        return Err(Refusal::Conflict("Gebruiker is al toegevoegd"));
    }
    // the subscription's row is locked, so seats added at the same time are counted one after
    // another; over the cap, the transaction ends without the seat
    let seats = sqlx::query_scalar!(r#"select count(*) as "count!" from linked_subscriptions where subscription_id = $1"#, subscription_id)
        .fetch_one(&mut *tx)
        .await?;
    let cap = seat_cap(sub.user_amount);
    if seats > cap {
        return Err(Refusal::ConflictWith(over_cap_message(cap)));
    }
    tx.commit().await?;
    Ok(SeatAdded { id, email_address: email, user_id: user, warning: (seats > i64::from(sub.user_amount)).then_some(FAIR_USE) })
}

/// Whether an address (as typed: trimmed and lower-cased here) belongs to an account, so that a
/// seat for it sends no invitation.
pub async fn has_account(db: &PgPool, email: &str) -> sqlx::Result<bool> {
    let email = email.trim().to_lowercase();
    sqlx::query_scalar!(r#"select exists (select 1 from users where lower(email) = $1) as "exists!""#, email).fetch_one(db).await
}

/// Removes a seat from one of the owner's subscriptions.
pub async fn remove_linked(db: &PgPool, owner_id: &str, linked_id: Uuid) -> Result<(), Refusal> {
    let removed = sqlx::query!(
        "delete from linked_subscriptions l using subscriptions s
          where l.id = $1 and s.id = l.subscription_id and s.user_id = $2",
        linked_id,
        owner_id
    )
    .execute(db)
    .await?
    .rows_affected();
    if removed == 0 {
        return Err(Refusal::NotFound(CANNOT_REMOVE));
    }
    Ok(())
}

/// A seat's invitation: who is invited, by whom, to which subscription. `None` when the seat was
/// removed since.
#[derive(Debug, Clone)]
pub struct SeatInvitation {
    pub email: String,
    pub owner_name: String,
    pub owner_email: String,
    pub description: String,
}

pub async fn seat_invitation(db: &PgPool, seat_id: Uuid) -> sqlx::Result<Option<SeatInvitation>> {
    sqlx::query_as!(
        SeatInvitation,
        r#"select l.email as "email!", coalesce(u.preferred_name, u.preferred_username) as "owner_name!", u.email as owner_email,
                  s.description
             from linked_subscriptions l join subscriptions s on s.id = l.subscription_id join users u on u.id = s.user_id
            where l.id = $1 and l.email is not null"#,
        seat_id
    )
    .fetch_optional(db)
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linking_needs_an_active_paid_non_individual_subscription() {
        assert!(can_link(true, false, false));
        assert!(!can_link(false, false, false));
        assert!(!can_link(true, true, false));
        assert!(!can_link(true, false, true));
    }

    #[test]
    fn a_subscription_takes_the_users_paid_for_plus_two_or_ten_percent() {
        assert_eq!(seat_cap(1), 3);
        assert_eq!(seat_cap(2), 4);
        assert_eq!(seat_cap(20), 22);
        assert_eq!(seat_cap(21), 24);
        assert_eq!(seat_cap(50), 55);
        assert_eq!(seat_cap(1000), 1100);
        assert_eq!(over_cap_message(4), "Je kunt niet meer dan 4 gebruikers aan dit abonnement koppelen.");
    }
}
