//! Billing: the subscription, its payments and its invoices, one file per behaviour. This file
//! holds the vocabulary the others share: the days that end access, the Dutch refusals, and the
//! types a tier, a quote, billing details, a subscription and a payment are.
//!
//! Dates that end access are calendar days in Europe/Amsterdam; access ends at the end of that day
//! (23:59:59.999, spec §4). A period of one month that starts on 23 November ends on 22 December.
//! Only a subscription's owner reads or changes it through the practitioner's calls: every such
//! query names the owner. The staff's changes sit beside the practitioner's, in the same files.
//!
//! - [`money`]: integer cents, VAT and the yearly discount.
//! - [`status`]: a payment's statuses and the one rule for moving between them.
//! - [`details`]: billing details and invoice details, checked once.
//! - [`catalogue`]: tiers, discounts and quotes.
//! - [`checkout`]: a pending subscription with its first payment, the provider's customer and payment.
//! - [`lifecycle`]: every state change of a subscription (activation from a provider status,
//!   trial, cancel, valid-until, active, the staff's renewal).
//! - [`seats`]: the users linked to a subscription.
//! - [`read`]: the practitioner's and the staff's reads.
//! - [`invoices`], [`invoice_pdf`], [`books`]: what an invoice states, its PDF, and our side of the
//!   bookkeeping.
//! - [`numbering`]: the yearly gapless invoice counter (the local bookkeeping's numbers).
//! - [`sweeps`]: expiry, the unpaid check and renewals.

pub mod books;
pub mod catalogue;
pub mod checkout;
pub mod details;
pub mod invoice_pdf;
pub mod invoices;
pub mod lifecycle;
pub mod money;
pub mod numbering;
pub mod read;
pub mod seats;
pub mod status;
pub mod sweeps;

use chrono::{DateTime, Days, Months, NaiveDate, Utc};
use serde::Serialize;
use uuid::Uuid;

pub use money::Cents;
use status::PaymentStatus;

/// The time zone whose calendar days end subscriptions.
pub const TIME_ZONE: chrono_tz::Tz = chrono_tz::Europe::Amsterdam;

/// Users a non-individual subscription may have at most (a bound of ours; the spec gives none).
pub const MAX_USERS: i32 = 1000;

/// The longest text a billing field takes (ours).
pub const MAX_FIELD: usize = 200;

pub const TRIAL_USED: &str = "Gebruiker heeft al eens een proefabonnement geactiveerd";

pub const DISCOUNT_INVALID: &str = "Kortingscode onjuist";

pub const NO_EMAIL: &str = "Geen e-mail adres ingevuld";

pub const CANNOT_REMOVE: &str = "Gebruiker kan niet worden verwijderd";

pub const FAIR_USE: &str = "Aantal gelinkte gebruikers is hoger dan aantal afgesloten gebruikers van het abonnement. Aantal gelijktijdige gebruikers is op basis van fair use policy.";

pub const NOT_FOUND: &str = "Abonnement niet gevonden";
pub const PAYMENT_NOT_FOUND: &str = "Betaling niet gevonden";

/// The Dutch refusal of a consult, summary, upload or template call without a subscription.
pub const SUBSCRIPTION_REQUIRED: &str =
    "Je hebt geen actief abonnement. Sluit een abonnement af of activeer je proefabonnement onder Abonnementen.";

/// Today in Europe/Amsterdam.
pub fn today() -> NaiveDate {
    Utc::now().with_timezone(&TIME_ZONE).date_naive()
}

/// A day in Dutch long form, as letters write it: "17 november 2026".
pub fn dutch_date(day: chrono::NaiveDate) -> String {
    use chrono::Datelike;
    const MONTHS: [&str; 12] =
        ["januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober", "november", "december"];
    format!("{} {} {}", day.day(), MONTHS[day.month0() as usize], day.year())
}

/// The last day of a period of `months` months that starts on `start`.
pub fn period_end(start: NaiveDate, months: u32) -> NaiveDate {
    start.checked_add_months(Months::new(months)).and_then(|d| d.checked_sub_days(Days::new(1))).unwrap_or(start)
}

/// A tier (prices gross, VAT included, in cents).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Tier {
    pub id: Uuid,
    pub name: String,
    pub description: String,
    pub is_trial: bool,
    pub is_individual: bool,
    pub most_popular: bool,
    pub price_per_user_month: Cents,
    pub price_per_user_year: Cents,
    /// Comma-separated, as the spec keeps them.
    pub features: String,
    /// Days a trial lasts (trial tiers).
    pub trial_days: Option<i32>,
}

/// A discount code that applies: its price (cents, gross) replaces the tier's monthly price.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Discount {
    pub id: Uuid,
    pub tier_id: Uuid,
    pub discount_code: String,
    pub discount_price: Cents,
    pub title: String,
}

/// The address block of the billing details (spec §3): who and where a practice is billed, as
/// the billing dialog asks it, the staff's invoice-details modal edits it and an invoice states it.
/// It is flattened into the structs that carry it, so their JSON keeps these field names.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct Address {
    pub contact_name: String,
    /// Optional.
    pub practice_name: String,
    pub phone_number: String,
    pub street_address: String,
    pub house_number: String,
    pub house_number_addition: String,
    /// `1234AB` once checked.
    pub postcode: String,
    pub city: String,
    /// Optional.
    pub kvk_number: String,
}

impl Address {
    /// Every field, in the order they are declared (to trim them, or to measure them).
    pub fn fields_mut(&mut self) -> [&mut String; 9] {
        let Self {
            contact_name,
            practice_name,
            phone_number,
            street_address,
            house_number,
            house_number_addition,
            postcode,
            city,
            kvk_number,
        } = self;
        [contact_name, practice_name, phone_number, street_address, house_number, house_number_addition, postcode, city, kvk_number]
    }
}

/// The [`Address`] of a row of a compile-checked statement (`sqlx::query!`) that selects the nine
/// address columns under the fields' names (`contact_name`, ...); the row's fields are moved.
macro_rules! address_of {
    ($row:expr) => {
        $crate::billing::Address {
            contact_name: $row.contact_name,
            practice_name: $row.practice_name,
            phone_number: $row.phone_number,
            street_address: $row.street_address,
            house_number: $row.house_number,
            house_number_addition: $row.house_number_addition,
            postcode: $row.postcode,
            city: $row.city,
            kvk_number: $row.kvk_number,
        }
    };
}
pub(crate) use address_of;

/// The billing dialog's details (spec §3 "Billing payment details"). The price the client shows
/// (`pricePerUser`) is not taken: the server computes it from the tier, interval, users and
/// discount.
#[derive(Debug, Clone, Default)]
pub struct BillingDetails {
    pub address: Address,
    pub send_invoice_to_email: String,
    pub tier_id: Uuid,
    pub user_amount: i32,
    pub interval_months: i32,
    pub discount_id: Option<Uuid>,
}

/// What a choice of tier, interval, users and discount costs.
#[derive(Debug, Clone)]
pub struct Quote {
    pub tier: Tier,
    pub user_amount: i32,
    pub interval_months: i32,
    pub price_per_user: Cents,
    pub amount: Cents,
    pub discount: Option<Discount>,
    /// For the subscription, the payment and the provider: no health data.
    pub description: String,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Subscription {
    pub id: Uuid,
    pub tier_id: Uuid,
    pub description: String,
    /// Active and not past `validUntil` (end of day, Europe/Amsterdam).
    pub is_active: bool,
    pub is_trial: bool,
    pub is_individual: bool,
    pub user_amount: i32,
    pub interval_months: i32,
    pub price_per_user: Cents,
    pub amount: Cents,
    pub valid_until: Option<NaiveDate>,
    pub created_at: DateTime<Utc>,
    pub canceled_at: Option<DateTime<Utc>>,
    pub next_payment_date: Option<NaiveDate>,
    pub renew_subscription_without_discount_date: Option<NaiveDate>,
    pub discount_id: Option<Uuid>,
    pub first_payment_id: Option<Uuid>,
    /// Linked users may be added and removed: an active paid subscription of a non-individual tier.
    pub can_link_users: bool,
    pub linked_subscriptions: Vec<LinkedSeat>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LinkedSeat {
    pub id: Uuid,
    /// The seat's address, or the account's when the seat names an account.
    pub email_address: Option<String>,
    /// The account the seat is for: the one it was stored with, or the account that has its
    /// address now (a colleague who signed up after being added).
    pub user_id: Option<String>,
    /// The account's name (its preferred name, else its login name); none without an account.
    pub name: Option<String>,
}

/// A payment as its owner sees it (spec §3 Payment).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Payment {
    pub id: Uuid,
    pub subscription_id: Uuid,
    pub description: String,
    pub user_amount: i32,
    /// Gross, in cents.
    pub amount: Cents,
    pub payment_status: PaymentStatus,
    pub created_at: DateTime<Utc>,
    pub interval_months: i32,
    pub moneybird_invoice_id: Option<String>,
    pub moneybird_contact_id: Option<String>,
    pub sales_invoices_url: Option<String>,
    pub send_invoice_to_email: String,
    pub is_first_payment: bool,
    #[serde(flatten)]
    pub address: Address,
    /// The days this payment pays for (once paid).
    pub period_start: Option<NaiveDate>,
    pub period_end: Option<NaiveDate>,
    /// Where the owner goes on paying ('Verder met betalen'): the provider's checkout, while the
    /// payment is OPEN.
    pub checkout_url: Option<String>,
    /// When the provider lets the payment expire unpaid (OPEN payments only); past it the page
    /// shows the payment as expired.
    pub expires_at: Option<DateTime<Utc>>,
}

/// A user subscription as the CMS shows it (spec §3 "Subscription (user)", with its user).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CmsSubscription {
    pub id: Uuid,
    pub user_id: String,
    pub user_email: String,
    pub description: String,
    /// Switched on and not past `validUntil` (end of that day, Europe/Amsterdam).
    pub is_active: bool,
    pub is_trial: bool,
    pub is_individual: bool,
    pub user_amount: i32,
    pub interval_months: i32,
    pub created_at: DateTime<Utc>,
    pub valid_until: Option<NaiveDate>,
    pub canceled_at: Option<DateTime<Utc>>,
    pub next_payment_date: Option<NaiveDate>,
    pub renew_subscription_without_discount_date: Option<NaiveDate>,
    pub first_payment_id: Option<Uuid>,
    /// The renew action shows: not a trial, with a renew-without-discount date.
    pub can_renew: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_end_the_day_before_the_same_date_a_period_later() {
        let d = |y, m, day| NaiveDate::from_ymd_opt(y, m, day).unwrap();
        assert_eq!(period_end(d(2026, 11, 23), 1), d(2026, 12, 22));
        assert_eq!(period_end(d(2026, 11, 23), 12), d(2027, 11, 22));
        // 31 January + 1 month is 28 February (chrono clamps), so the period ends on 27 February
        assert_eq!(period_end(d(2027, 1, 31), 1), d(2027, 2, 27));
        assert_eq!(period_end(d(2028, 2, 29), 12), d(2029, 2, 27));
    }

    #[test]
    fn a_dutch_date_has_the_month_in_words() {
        let day = |y, m, d| chrono::NaiveDate::from_ymd_opt(y, m, d).unwrap();
        assert_eq!(dutch_date(day(2026, 11, 17)), "17 november 2026");
        assert_eq!(dutch_date(day(2027, 1, 1)), "1 januari 2027");
        assert_eq!(dutch_date(day(2026, 3, 31)), "31 maart 2026");
    }
}
