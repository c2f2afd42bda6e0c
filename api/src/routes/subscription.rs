//! Subscriptions and payments of the signed-in practitioner (spec subscriptions-cms §7.1): tiers,
//! discount codes, trials, seats, the payment link and the reads of the subscription pages. The
//! provider's webhook is `payment_webhook`, the local checkout's page `local_checkout`.
//!
//! Only the owner reads or changes their subscriptions, seats and payments: every query names
//! the signed-in user, and someone else's id answers as an unknown one.

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use domain::billing::Address;
use domain::billing::lifecycle::{self, Actor};
use domain::billing::{self, BillingDetails, Cents, Discount, Tier};
use integrations::payments::{NewCustomer, NewPayment, SequenceType};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use crate::auth::CurrentUser;
use crate::edge::limit::{self, LimitName, Subject};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Json, Path, Query};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/payment/subscription/getTiers", get(get_tiers))
        .route("/payment/subscription/applyDiscountCode", post(apply_discount_code))
        .route("/payment/subscription/cancelSubscription/{subscription_id}", post(cancel_subscription))
        .route("/payment/subscription/createTrialSubscription", post(create_trial_subscription))
        .route("/payment/subscription/addUser", post(add_user))
        .route("/payment/subscription/deleteUser", post(delete_user))
        .route("/payment/subscription/getLinkedSubscriptionForUser", get(get_linked_subscription_for_user))
        .route("/payment/subscription/getPaymentsForUser", get(get_payments_for_user))
        .route("/payment/subscription/getSubscriptionForUser", get(get_subscription_for_user))
        .route("/payment/subscription/hasUserActiveSubscription", get(has_user_active_subscription))
        .route("/payment/subscription/isUserEarlyAdopter", get(is_user_early_adopter))
        .route("/payment/subscription/getSubscriptionForOrganization", get(get_subscription_for_organization))
        .route("/payment/paymentinfo/getPaymentLink", post(get_payment_link))
        .route("/payment/subscription/cancelPayment/{payment_id}", post(cancel_payment))
        .route("/api/user/getOrganizationSubscriptionForUser", get(get_organization_subscription_for_user))
        .route("/api/user/hasUserActiveOrganizationSubscription", get(has_user_active_organization_subscription))
}

// ---------------------------------------------------------------------------------------------
// Bodies

/// A tier with its prices without VAT (`priceExclVat...`, the same as the gross prices less VAT),
/// and why the caller cannot take it, if so.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TierBody {
    #[serde(flatten)]
    pub tier: Tier,
    pub price_excl_vat_per_user_month: Cents,
    pub price_excl_vat_per_user_year: Cents,
    /// Why the caller cannot take this tier (the trial once used: 'Gebruiker heeft al eens een
    /// proefabonnement geactiveerd'); none when it is on offer.
    #[schema(value_type = Option<String>)]
    pub unavailable: Option<&'static str>,
}

/// The billing dialog's details (spec §3), checked in the spec's order (§5). `pricePerUser` and
/// `isIndividual` may be sent but are not taken: the server prices the choice itself. The
/// document states the text fields' rules as the check applies them (a missing field is still
/// read as empty, so it gets the spec's message for that field).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BillingPaymentDetails {
    #[serde(default)]
    #[schema(required = true, schema_with = crate::fields::one_line_text)]
    pub contact_name: String,
    #[serde(default)]
    #[schema(schema_with = crate::fields::optional_line_text)]
    pub practice_name: Option<String>,
    #[serde(default)]
    #[schema(required = true, schema_with = crate::fields::email_address)]
    pub send_invoice_to_email: String,
    #[serde(default)]
    #[schema(required = true, schema_with = crate::fields::one_line_text)]
    pub phone_number: String,
    #[serde(default)]
    #[schema(required = true, schema_with = crate::fields::one_line_text)]
    pub street_address: String,
    #[serde(default)]
    #[schema(required = true, schema_with = crate::fields::one_line_text)]
    pub house_number: String,
    #[serde(default)]
    #[schema(schema_with = crate::fields::optional_line_text)]
    pub house_number_addition: Option<String>,
    #[serde(default)]
    #[schema(required = true, schema_with = crate::fields::postcode)]
    pub postcode: String,
    #[serde(default)]
    #[schema(required = true, schema_with = crate::fields::one_line_text)]
    pub city: String,
    #[serde(default)]
    #[schema(schema_with = crate::fields::optional_line_text)]
    pub kvk_number: Option<String>,
    /// `MONTHLY` or `ANUALLY` (spelled so); `intervalMonths` decides when both are given.
    #[serde(default)]
    pub subscription_type: Option<String>,
    #[serde(default, deserialize_with = "crate::fields::whole_number")]
    pub user_amount: Option<i32>,
    /// Not taken (the server prices the choice).
    #[serde(default)]
    #[allow(dead_code)]
    pub price_per_user: Option<f64>,
    #[schema(pattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")]
    pub tier_id: Uuid,
    /// Not taken (the tier decides).
    #[serde(default)]
    #[allow(dead_code)]
    pub is_individual: Option<bool>,
    /// Not taken (the server writes the description).
    #[serde(default)]
    #[allow(dead_code)]
    pub description: Option<String>,
    /// 1 or 12.
    #[serde(default, deserialize_with = "crate::fields::whole_number")]
    pub interval_months: Option<i32>,
    #[serde(default)]
    #[schema(pattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")]
    pub discount_id: Option<Uuid>,
}

impl BillingPaymentDetails {
    fn into_domain(self) -> BillingDetails {
        let interval_months = self.interval_months.unwrap_or(match self.subscription_type.as_deref() {
            Some("ANUALLY") => 12,
            _ => 1,
        });
        BillingDetails {
            address: Address {
                contact_name: self.contact_name,
                practice_name: self.practice_name.unwrap_or_default(),
                phone_number: self.phone_number,
                street_address: self.street_address,
                house_number: self.house_number,
                house_number_addition: self.house_number_addition.unwrap_or_default(),
                postcode: self.postcode,
                city: self.city,
                kvk_number: self.kvk_number.unwrap_or_default(),
            },
            send_invoice_to_email: self.send_invoice_to_email,
            tier_id: self.tier_id,
            user_amount: self.user_amount.unwrap_or(1),
            interval_months,
            discount_id: self.discount_id,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedSubscription {
    pub id: Uuid,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PaymentLink {
    /// Where the browser goes to pay.
    pub href: String,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct AddUserQuery {
    /// Lower-cased before it is stored. Read as empty when left out, which is refused with the
    /// spec's message.
    #[serde(default)]
    #[param(required = true, inline)]
    pub email_address: crate::fields::EmailAddress,
    pub subscription_id: Uuid,
    /// The owner agreed that an address without an account gets an invitation. Without it such
    /// an address is refused with 409 `invitation_needed` and nothing is linked or sent.
    #[serde(default)]
    pub invite: bool,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct DeleteUserQuery {
    pub linked_subscription_id: Uuid,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct OrganizationQuery {
    /// A level (practice) or main organisation the user belongs to.
    pub organization_id: Uuid,
}

// ---------------------------------------------------------------------------------------------
// Handlers

/// The tiers on offer, in page order, with prices incl. and excl. VAT.
#[utoipa::path(get, path = "/payment/subscription/getTiers", tag = "subscriptions", security(("bearer" = [])),
    responses((status = 200, body = Vec<TierBody>), (status = 401, body = ErrorBody)))]
pub async fn get_tiers(State(state): State<AppState>, user: CurrentUser) -> Result<Json<Vec<TierBody>>, ApiError> {
    let tiers = billing::catalogue::tiers(&state.db).await?;
    let trial_used = lifecycle::trial_used(&state.db, &user.id).await?;
    Ok(Json(
        tiers
            .into_iter()
            .map(|tier| TierBody {
                price_excl_vat_per_user_month: domain::billing::money::excl_vat(tier.price_per_user_month),
                price_excl_vat_per_user_year: domain::billing::money::excl_vat(tier.price_per_user_year),
                unavailable: (tier.is_trial && trial_used).then_some(billing::TRIAL_USED),
                tier,
            })
            .collect(),
    ))
}

/// Looks a discount code up (the body is the code as a JSON string). `null` means the code is
/// unknown: the page says 'Kortingscode onjuist'. Whether it fits the chosen tier and interval is
/// checked when paying.
#[utoipa::path(post, path = "/payment/subscription/applyDiscountCode", tag = "subscriptions", security(("bearer" = [])),
    request_body(content = String, content_type = "application/json", description = "The code, as a JSON string."),
    responses((status = 200, body = Option<Discount>), (status = 401, body = ErrorBody)))]
pub async fn apply_discount_code(
    State(state): State<AppState>,
    _user: CurrentUser,
    Json(code): Json<String>,
) -> Result<Json<Option<Discount>>, ApiError> {
    if code.chars().count() > 100 {
        return Ok(Json(None));
    }
    let found = billing::catalogue::discount_by_code(&state.db, &code).await?;
    Ok(Json(found))
}

/// Cancels the user's own active subscription: no more renewals, usable until `validUntil`.
#[utoipa::path(post, path = "/payment/subscription/cancelSubscription/{subscription_id}", tag = "subscriptions",
    security(("bearer" = [])), params(("subscription_id" = Uuid, Path)),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn cancel_subscription(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(subscription_id): Path<Uuid>,
) -> Result<StatusCode, ApiError> {
    let mut tx = state.db.begin().await?;
    lifecycle::cancel(&mut tx, Actor::Owner(&user.id), subscription_id, billing::today()).await.map_err(ApiError::subscription)?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Activates the trial tier, once per user ever ('Gebruiker heeft al eens een
/// proefabonnement geactiveerd', 409, also for concurrent calls).
#[utoipa::path(post, path = "/payment/subscription/createTrialSubscription", tag = "subscriptions", security(("bearer" = [])),
    request_body = BillingPaymentDetails,
    responses((status = 201, body = CreatedSubscription), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn create_trial_subscription(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(body): Json<BillingPaymentDetails>,
) -> Result<(StatusCode, Json<CreatedSubscription>), ApiError> {
    let id = billing::lifecycle::create_trial(&state.db, &user.id, &body.into_domain(), billing::today())
        .await
        .map_err(ApiError::subscription)?;
    Ok((StatusCode::CREATED, Json(CreatedSubscription { id })))
}

/// Adds a linked user by e-mail address to the user's own subscription; an address without an
/// account gets an invitation e-mail (a job), once the owner confirmed it (`invite=true`; without
/// it 409 `invitation_needed`, so a mistyped address is neither linked nor mailed). A
/// subscription takes at most the users paid for plus a fair-use margin (409 'Je kunt niet meer
/// dan N gebruikers aan dit abonnement koppelen.'); seats added and invitations sent are limited per subscription (429, limits
/// `SEATS` and `SEAT_INVITATIONS`), and a refused seat is neither linked nor invited.
#[utoipa::path(post, path = "/payment/subscription/addUser", tag = "subscriptions", security(("bearer" = [])),
    params(AddUserQuery),
    responses((status = 201, body = billing::seats::SeatAdded), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "`invitation_needed`: the address has no account and `invite` was not set; or the seat is refused"),
        (status = 429, body = ErrorBody, description = "too many seats or invitations for this subscription in the limit's period (`too_many_requests`; `Retry-After` says when to try again)")))]
pub async fn add_user(
    State(state): State<AppState>,
    user: CurrentUser,
    Query(query): Query<AddUserQuery>,
) -> Result<(StatusCode, Json<billing::seats::SeatAdded>), ApiError> {
    // counted per subscription under the caller's id: someone else's subscription id is refused
    // as unknown below and counts against the caller only
    let subject = Subject::Subscription { owner: user.id.clone(), id: query.subscription_id };
    limit::check(&state, LimitName::Seats, &subject).await?;
    if !query.email_address.0.trim().is_empty() && !billing::seats::has_account(&state.db, &query.email_address.0).await? {
        if !query.invite {
            return Err(ApiError::Refused {
                status: StatusCode::CONFLICT,
                code: "invitation_needed",
                message: INVITATION_NEEDED.to_owned(),
            });
        }
        limit::check(&state, LimitName::SeatInvitations, &subject).await?;
    }
    let seat = billing::seats::add_linked(&state.db, &user.id, query.subscription_id, &query.email_address.0, billing::today())
        .await
        .map_err(ApiError::subscription)?;
    if seat.user_id.is_none() {
        // an address without an account: an invitation to make one (ids only; the job reads the seat)
        state.jobs.enqueue_and_push(jobs::kinds::SendEmail::seat_invitation(seat.id).caused_by(&user.id), "seat invitation").await?;
    }
    Ok((StatusCode::CREATED, Json(seat)))
}

/// Removes a linked user from one of the user's own subscriptions.
#[utoipa::path(post, path = "/payment/subscription/deleteUser", tag = "subscriptions", security(("bearer" = [])),
    params(DeleteUserQuery),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn delete_user(
    State(state): State<AppState>,
    user: CurrentUser,
    Query(query): Query<DeleteUserQuery>,
) -> Result<StatusCode, ApiError> {
    billing::seats::remove_linked(&state.db, &user.id, query.linked_subscription_id).await.map_err(ApiError::subscription)?;
    Ok(StatusCode::NO_CONTENT)
}

/// Subscriptions of others on which the user holds a seat.
#[utoipa::path(get, path = "/payment/subscription/getLinkedSubscriptionForUser", tag = "subscriptions", security(("bearer" = [])),
    responses((status = 200, body = Vec<billing::read::OtherSubscription>), (status = 401, body = ErrorBody)))]
pub async fn get_linked_subscription_for_user(
    State(state): State<AppState>,
    user: CurrentUser,
) -> Result<Json<Vec<billing::read::OtherSubscription>>, ApiError> {
    Ok(Json(billing::read::linked_for_user(&state.db, &user.id, &user.email, billing::today()).await?))
}

/// The user's payments ('Betalingen'), newest first.
#[utoipa::path(get, path = "/payment/subscription/getPaymentsForUser", tag = "subscriptions", security(("bearer" = [])),
    responses((status = 200, body = Vec<billing::Payment>), (status = 401, body = ErrorBody)))]
pub async fn get_payments_for_user(State(state): State<AppState>, user: CurrentUser) -> Result<Json<Vec<billing::Payment>>, ApiError> {
    Ok(Json(billing::read::payments_for_user(&state.db, &user.id).await?))
}

/// The user's own subscriptions with their linked users, newest first.
#[utoipa::path(get, path = "/payment/subscription/getSubscriptionForUser", tag = "subscriptions", security(("bearer" = [])),
    responses((status = 200, body = Vec<billing::Subscription>), (status = 401, body = ErrorBody)))]
pub async fn get_subscription_for_user(
    State(state): State<AppState>,
    user: CurrentUser,
) -> Result<Json<Vec<billing::Subscription>>, ApiError> {
    Ok(Json(billing::read::for_user(&state.db, &user.id, billing::today()).await?))
}

/// Whether the user has an active subscription of their own or a seat on one.
#[utoipa::path(get, path = "/payment/subscription/hasUserActiveSubscription", tag = "subscriptions", security(("bearer" = [])),
    responses((status = 200, body = bool, content_type = "application/json"), (status = 401, body = ErrorBody)))]
pub async fn has_user_active_subscription(State(state): State<AppState>, user: CurrentUser) -> Result<Json<bool>, ApiError> {
    Ok(Json(billing::read::has_active(&state.db, &user.id, &user.email, billing::today()).await?))
}

/// Whether the user's account was made before `APP_EARLY_ADOPTER_BEFORE` (a date; unset: nobody).
#[utoipa::path(get, path = "/payment/subscription/isUserEarlyAdopter", tag = "subscriptions", security(("bearer" = [])),
    responses((status = 200, body = bool, content_type = "application/json"), (status = 401, body = ErrorBody)))]
pub async fn is_user_early_adopter(State(state): State<AppState>, user: CurrentUser) -> Result<Json<bool>, ApiError> {
    Ok(Json(billing::read::is_early_adopter(&state.db, &user.id, state.config.early_adopter_before).await?))
}

/// Organisation subscriptions of a level or main organisation the user belongs to (others: empty).
#[utoipa::path(get, path = "/payment/subscription/getSubscriptionForOrganization", tag = "subscriptions", security(("bearer" = [])),
    params(OrganizationQuery),
    responses((status = 200, body = Vec<billing::read::OrganisationSubscription>), (status = 401, body = ErrorBody)))]
pub async fn get_subscription_for_organization(
    State(state): State<AppState>,
    user: CurrentUser,
    Query(query): Query<OrganizationQuery>,
) -> Result<Json<Vec<billing::read::OrganisationSubscription>>, ApiError> {
    Ok(Json(billing::read::for_organisation(&state.db, &user.id, query.organization_id, billing::today()).await?))
}

/// The organisation subscriptions that reach the user (by account, e-mail address, practice or
/// main organisation).
#[utoipa::path(get, path = "/api/user/getOrganizationSubscriptionForUser", tag = "subscriptions", security(("bearer" = [])),
    responses((status = 200, body = Vec<billing::read::OrganisationSubscription>), (status = 401, body = ErrorBody)))]
pub async fn get_organization_subscription_for_user(
    State(state): State<AppState>,
    user: CurrentUser,
) -> Result<Json<Vec<billing::read::OrganisationSubscription>>, ApiError> {
    Ok(Json(billing::read::organisation_for_user(&state.db, &user.id, &user.email, billing::today()).await?))
}

/// Whether an active organisation subscription reaches the user.
#[utoipa::path(get, path = "/api/user/hasUserActiveOrganizationSubscription", tag = "subscriptions", security(("bearer" = [])),
    responses((status = 200, body = bool, content_type = "application/json"), (status = 401, body = ErrorBody)))]
pub async fn has_user_active_organization_subscription(State(state): State<AppState>, user: CurrentUser) -> Result<Json<bool>, ApiError> {
    Ok(Json(billing::read::has_active_organisation(&state.db, &user.id, &user.email, billing::today()).await?))
}

/// The refusal of a seat for an address without an account until the owner confirms the invitation.
pub const INVITATION_NEEDED: &str = "Er is nog geen account met dit e-mail adres. Bevestig dat we een uitnodiging mogen sturen.";

/// The Dutch message when the payment provider cannot cancel a payment it was asked to.
pub const CANCEL_FAILED: &str = "De betaling kon niet worden geannuleerd. Probeer het later opnieuw.";

/// The Dutch refusal of 'Annuleren' when the provider no longer lets the payment be canceled.
pub const NOT_CANCELABLE: &str = "Deze betaling kan niet meer worden geannuleerd.";

/// Cancels one of the user's OPEN payments ('Annuleren'): at the provider first (only while it
/// says the payment is cancelable; Mollie: `DELETE /v2/payments/{id}`), then ours through the
/// billing lifecycle's one status rule (CANCELED). A payment the provider no longer lets be
/// canceled is refused (409) and synced from the provider, so the page learns what became of it.
#[utoipa::path(post, path = "/payment/subscription/cancelPayment/{payment_id}", tag = "subscriptions", security(("bearer" = [])),
    params(("payment_id" = Uuid, Path)),
    responses((status = 204), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 502, body = ErrorBody)))]
pub async fn cancel_payment(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(payment_id): Path<Uuid>,
) -> Result<StatusCode, ApiError> {
    let open = lifecycle::open_payment_of(&state.db, &user.id, payment_id).await.map_err(ApiError::subscription)?;
    let provider = state.payments.clone();
    let unavailable = |e: integrations::payments::PaymentError| {
        tracing::warn!(error = %e, payment = %open.id, "the payment provider did not cancel the payment");
        ApiError::payment_failed(CANCEL_FAILED)
    };
    let theirs = provider.get_payment(&open.provider_payment_id).await.map_err(unavailable)?;
    let canceled = if theirs.is_cancelable {
        match provider.cancel_payment(&open.provider_payment_id).await {
            Ok(canceled) => Some(canceled),
            Err(integrations::payments::PaymentError::Refused { .. }) => None,
            Err(e) => return Err(unavailable(e)),
        }
    } else {
        None
    };
    let Some(canceled) =
        canceled.filter(|p| billing::status::PaymentStatus::parse(&p.status) == Some(billing::status::PaymentStatus::Canceled))
    else {
        // paid, expired or on its way at the provider: the sync applies what it became
        state.payment_news.hear(open.provider_payment_id.clone()).await?;
        return Err(ApiError::subscription(domain::refusal::Refusal::Conflict(NOT_CANCELABLE)));
    };
    lifecycle::apply_provider_status(&state.db, &canceled.id, billing::status::PaymentStatus::Canceled, None, billing::today()).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The Dutch message when the payment provider cannot make the payment.
pub const PROVIDER_FAILED: &str = "De betaling kon niet worden gestart. Probeer het later opnieuw.";

/// Validates the billing details, writes an inactive subscription with its OPEN first payment,
/// and has the payment provider make the payment (a `first` payment that sets up a mandate).
/// The answer's `href` is where the browser pays; it comes back to `/subscription`.
#[utoipa::path(post, path = "/payment/paymentinfo/getPaymentLink", tag = "subscriptions", security(("bearer" = [])),
    request_body = BillingPaymentDetails,
    responses((status = 200, body = PaymentLink), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 502, body = ErrorBody)))]
pub async fn get_payment_link(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(body): Json<BillingPaymentDetails>,
) -> Result<Json<PaymentLink>, ApiError> {
    let provider = state.payments.clone();
    let pending = billing::checkout::create_pending(&state.db, &user.id, &body.into_domain(), provider.name())
        .await
        .map_err(ApiError::subscription)?;
    let fail = |e: integrations::payments::PaymentError| {
        tracing::warn!(error = %e, payment = %pending.payment_id, "the payment provider did not make the payment");
        ApiError::payment_failed(PROVIDER_FAILED)
    };
    let customer = match billing::checkout::provider_customer(&state.db, &user.id, provider.name()).await? {
        Some(id) => id,
        None => {
            let new = NewCustomer { name: user.username.clone(), email: user.email.clone(), user_id: user.id.clone() };
            let made = match provider.create_customer(&new).await {
                Ok(id) => id,
                Err(e) => {
                    billing::checkout::fail_unsent_payment(&state.db, pending.payment_id).await?;
                    return Err(fail(e));
                }
            };
            billing::checkout::save_provider_customer(&state.db, &user.id, provider.name(), &made).await?
        }
    };
    let new = NewPayment {
        amount_cents: pending.quote.amount,
        description: pending.quote.description.clone(),
        customer_id: customer.clone(),
        sequence_type: SequenceType::First,
        redirect_url: Some(state.config.public_url.join("subscription").map(|u| u.to_string()).unwrap_or_default()),
        webhook_url: Some(state.config.payment_webhook_url.to_string()),
        payment_id: pending.payment_id.to_string(),
        idempotency_key: pending.idempotency_key.clone(),
        mandate_id: None,
    };
    let made = match provider.create_payment(&new).await {
        Ok(made) => made,
        Err(e) => {
            billing::checkout::fail_unsent_payment(&state.db, pending.payment_id).await?;
            return Err(fail(e));
        }
    };
    let Some(href) = made.checkout_url.clone() else {
        billing::checkout::fail_unsent_payment(&state.db, pending.payment_id).await?;
        return Err(ApiError::payment_failed(PROVIDER_FAILED));
    };
    billing::checkout::record_provider_payment(&state.db, pending.payment_id, &made.id, Some(&customer), Some(&href), made.expires_at)
        .await?;
    Ok(Json(PaymentLink { href }))
}
