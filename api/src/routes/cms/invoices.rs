//! Betalingen (spec §7.3): the payments, a user's payments, the invoice details modal, and the
//! bookkeeping buttons that queue a payment's contact and invoice ('Moneybird contact maken',
//! 'Factuur maken').

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use domain::audit;
use domain::billing::details::{self, InvoiceDetails};
use domain::billing::invoices::euros;
use domain::billing::read::{self, CmsPayment, PaymentFilter};
use domain::billing::status::PaymentStatus;
use domain::billing::{PAYMENT_NOT_FOUND, books};
use domain::cms::PAGE_SIZE;
use domain::cms::users::{self, USER_NOT_FOUND, email_of};
use jobs::kinds::{CreateContact, CreateInvoice};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use super::{audited, checked_page, checked_search, read_entry};
use crate::auth::Staff;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Json, Path, Query};
use crate::state::AppState;

pub const NOT_PAID: &str = "Deze betaling is (nog) niet betaald.";
pub const NO_AMOUNT: &str = "Een betaling zonder bedrag krijgt geen factuur.";
pub const HAS_INVOICE: &str = "Deze betaling heeft al een factuur.";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/payment/manage/getAllPayments", get(all_payments))
        .route("/payment/manage/getPaymentsForCMSUser/{user_id}", get(payments_of_user))
        .route("/payment/manage/editPayment", post(edit_payment))
        .route("/payment/manage/payment/contact/{id}", post(make_contact))
        .route("/payment/manage/payment/invoice/{id}", post(make_invoice))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PaymentsQuery {
    /// From 0.
    #[serde(default)]
    #[param(minimum = 0, maximum = 100000)]
    pub page: i64,
    /// `ALL` (or empty, or none), or one status.
    #[param(pattern = "^(|ALL|OPEN|CANCELED|PAID|EXPIRED|FAILED|PENDING|AUTHORIZED)$")]
    pub status: Option<String>,
    /// A part of the user's e-mail address or id.
    #[param(max_length = 200)]
    pub search: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentPage {
    /// Newest first.
    pub rows: Vec<CmsPayment>,
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
}

/// Staff: every payment (Betalingen) with its bookkeeping state, newest first, 50 a page.
#[utoipa::path(get, path = "/payment/manage/getAllPayments", tag = "cms", security(("bearer" = [])), params(PaymentsQuery),
    responses((status = 200, body = PaymentPage), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn all_payments(
    State(state): State<AppState>,
    _staff: Staff,
    Query(q): Query<PaymentsQuery>,
) -> Result<Json<PaymentPage>, ApiError> {
    let page = checked_page(q.page)?;
    let status = match q.status.as_deref().map(str::trim) {
        None | Some("") | Some("ALL") => None,
        Some(s) => Some(
            PaymentStatus::parse(s)
                .ok_or_else(|| ApiError::BadRequest { code: "invalid_status", message: "Onbekende betaalstatus.".to_owned() })?,
        ),
    };
    let filter = PaymentFilter { status, search: checked_search(q.search.as_deref())? };
    let (rows, total) = read::payment_page(&state.db, &filter, page, PAGE_SIZE).await?;
    Ok(Json(PaymentPage { rows, total, page, page_size: PAGE_SIZE }))
}

/// Staff: a user's payments, newest first (the info modal); the read is in the audit log.
#[utoipa::path(get, path = "/payment/manage/getPaymentsForCMSUser/{user_id}", tag = "cms", security(("bearer" = [])),
    params(("user_id" = String, Path, description = "The user's id")),
    responses((status = 200, body = Vec<CmsPayment>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)))]
pub async fn payments_of_user(
    State(state): State<AppState>,
    staff: Staff,
    Path(user_id): Path<String>,
) -> Result<Json<Vec<CmsPayment>>, ApiError> {
    let list = audited(&state, &staff, async |tx| {
        let email = users::email_of(&mut *tx, &user_id).await?.ok_or(ApiError::Missing(USER_NOT_FOUND))?;
        let list = read::payments_of_user(tx, &user_id).await?;
        Ok((list, read_entry(audit::Action::ReadUserPayments, "user", &user_id, &email)))
    })
    .await?;
    Ok(Json(list))
}

/// Staff: changes a payment's invoice details, checked in the spec's order (§5). An invoice made
/// already keeps what it says.
#[utoipa::path(post, path = "/payment/manage/editPayment", tag = "cms", security(("bearer" = [])), request_body = InvoiceDetails,
    responses((status = 200, body = CmsPayment), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn edit_payment(
    State(state): State<AppState>,
    staff: Staff,
    Json(details): Json<InvoiceDetails>,
) -> Result<Json<CmsPayment>, ApiError> {
    details::validate_invoice_details(&details)?;
    let payment = audited(&state, &staff, async |tx| {
        let edited = read::edit_invoice_details(tx, &details).await?;
        let p = &edited.payment;
        let entry = audit::Entry {
            action: audit::Action::EditPayment,
            subject_type: "payment",
            subject_id: p.id.to_string(),
            concerns_user_id: Some(p.user_id.clone()),
            concerns_organisation_id: None,
            about: format!("van de betaling van {} ({}, {})", p.user_email, p.description, euros(p.amount_cents)),
            changes: edited.changes,
        };
        Ok((edited.payment, entry))
    })
    .await?;
    Ok(Json(payment))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BookkeepingQueued {
    /// The job that makes it; its progress is `GET /api/jobs/{id}`.
    pub job_id: Uuid,
}

/// What staff may ask of a payment's bookkeeping, checked before a job is queued.
async fn billable(state: &AppState, id: Uuid) -> Result<books::BillablePayment, ApiError> {
    let payment = books::payment(&state.db, id).await?.ok_or(ApiError::Missing(PAYMENT_NOT_FOUND))?;
    if payment.status != PaymentStatus::Paid {
        return Err(ApiError::Conflict { code: "payment_not_paid", message: NOT_PAID });
    }
    Ok(payment)
}

/// Queues the job and writes the audit entry in one transaction, then pushes the job.
async fn queue(
    state: &AppState,
    staff: &Staff,
    action: audit::Action,
    payment: &books::BillablePayment,
    job: jobs::NewJob,
) -> Result<(StatusCode, Json<BookkeepingQueued>), ApiError> {
    let job_id = audited(state, staff, async |tx| {
        let email = email_of(&mut *tx, &payment.user_id).await?;
        let job_id = jobs::enqueue(tx, job.caused_by(staff.user.id.clone())).await?;
        let entry = audit::Entry {
            action,
            subject_type: "payment",
            subject_id: payment.id.to_string(),
            concerns_user_id: Some(payment.user_id.clone()),
            concerns_organisation_id: None,
            changes: serde_json::json!({ "job": job_id }),
            about: format!(
                "voor de betaling van {} ({}, {})",
                email.as_deref().unwrap_or(&payment.user_id),
                payment.description,
                domain::billing::invoices::euros(payment.amount_cents)
            ),
        };
        Ok((job_id, entry))
    })
    .await?;
    state.jobs.push_committed(&[job_id], "bookkeeping").await;
    Ok((StatusCode::ACCEPTED, Json(BookkeepingQueued { job_id })))
}

/// Staff: makes the bookkeeping contact of a paid payment's user ('Moneybird contact maken'):
/// queues `create_contact` and answers its job; the audit log records it with the job. A user who has a contact already keeps it; the
/// job then notes it on the payment.
#[utoipa::path(post, path = "/payment/manage/payment/contact/{id}", tag = "cms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The payment's id")),
    responses((status = 202, body = BookkeepingQueued), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn make_contact(State(state): State<AppState>, staff: Staff, Path(id): Path<Uuid>) -> Result<impl IntoResponse, ApiError> {
    let payment = billable(&state, id).await?;
    queue(&state, &staff, audit::Action::MakeBookkeepingContact, &payment, CreateContact::job(id)).await
}

/// Staff: makes the invoice of a paid payment ('Factuur maken'): queues `create_invoice` (which
/// makes the contact first when there is none) and answers its job.
#[utoipa::path(post, path = "/payment/manage/payment/invoice/{id}", tag = "cms", security(("bearer" = [])),
    params(("id" = Uuid, Path, description = "The payment's id")),
    responses((status = 202, body = BookkeepingQueued), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn make_invoice(State(state): State<AppState>, staff: Staff, Path(id): Path<Uuid>) -> Result<impl IntoResponse, ApiError> {
    let payment = billable(&state, id).await?;
    if !payment.needs_invoice() {
        return Err(ApiError::Conflict { code: "no_amount", message: NO_AMOUNT });
    }
    if books::invoice_of_payment(&state.db, id).await?.is_some() {
        return Err(ApiError::Conflict { code: "has_invoice", message: HAS_INVOICE });
    }
    queue(&state, &staff, audit::Action::MakeInvoice, &payment, CreateInvoice::job(id)).await
}
