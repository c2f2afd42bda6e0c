//! Invoices: the user's download of a payment's invoice and the local invoices' signed PDF links.
//! The staff's bookkeeping buttons are in `routes::cms::invoices`.

use std::time::SystemTime;

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use domain::audit;
use domain::billing::status::PaymentStatus;
use integrations::bookkeeping::BookkeepingError;
use integrations::bookkeeping::local::{self, LinkError};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::UserOrStaff;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Json, Path, Query};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/payment/subscription/getInvoiceDownload", post(get_invoice_download))
        .route("/payment/invoice/{file}", get(download_pdf))
}

pub const INVOICE_PENDING: &str = "De factuur wordt nog gemaakt.";
pub const INVOICE_NOT_FOUND: &str = "Factuur niet gevonden";
pub const LINK_EXPIRED: &str = "Deze downloadlink is verlopen. Download de factuur opnieuw vanuit Abonnementen.";
pub const LINK_INVALID: &str = "Deze downloadlink is ongeldig.";
pub const UNAVAILABLE: &str = "De boekhouding is nu niet bereikbaar. Probeer het over een paar minuten opnieuw.";

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceDownload {
    /// Where the browser downloads the PDF; it works for a few minutes.
    pub download_link: String,
}

/// A link to one of the user's invoices (the body is the payment's id, or the invoice's own id or
/// the bookkeeping's id of it, as a JSON string). Staff may ask for anyone's; a link to someone
/// else's invoice (their name, address and KvK) is written to the audit log. A paid payment whose
/// invoice is still being made answers 409 'De factuur wordt nog gemaakt.'; an unpaid one, one of
/// someone else or an unknown id 404.
#[utoipa::path(post, path = "/payment/subscription/getInvoiceDownload", tag = "subscriptions", security(("bearer" = [])),
    request_body(content = String, content_type = "application/json", description = "The payment's id or its invoice's id, as a JSON string."),
    responses((status = 200, body = InvoiceDownload), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody), (status = 502, body = ErrorBody)))]
pub async fn get_invoice_download(
    State(state): State<AppState>,
    caller: UserOrStaff,
    Json(id): Json<String>,
) -> Result<Json<InvoiceDownload>, ApiError> {
    let user = &caller.user;
    let id = id.trim();
    let row = sqlx::query!(
        r#"select p.status, i.provider as "provider?", i.provider_invoice_id as "provider_invoice_id?", p.amount_cents::int8 as "amount!",
                  p.id, p.user_id, u.email as "email?"
           from payments p
           left join users u on u.id = p.user_id
           left join invoices i on i.payment_id = p.id
                and (i.id::text = $2 or i.provider_invoice_id = $2 or (p.id::text = $2 and i.kind = 'invoice'))
          where (p.user_id = $1 or $3)
            and (p.id::text = $2 or i.id is not null)
          order by i.created_at nulls last
          limit 1"#,
        &user.id,
        id,
        user.is_staff,
    )
    .fetch_optional(&state.db)
    .await?
    .map(|r| (r.status, r.provider, r.provider_invoice_id, r.amount, r.id, r.user_id, r.email));
    let Some((status, provider, provider_invoice_id, amount, payment_id, owner_id, owner_email)) = row else {
        return Err(ApiError::Missing(INVOICE_NOT_FOUND));
    };
    let (Some(provider), Some(provider_invoice_id)) = (provider, provider_invoice_id) else {
        return if status == PaymentStatus::Paid.as_str() && amount > 0 {
            Err(ApiError::Conflict { code: "invoice_pending", message: INVOICE_PENDING })
        } else {
            Err(ApiError::Missing(INVOICE_NOT_FOUND))
        };
    };
    if provider != state.bookkeeping.name() {
        // made by the bookkeeping used before this one
        return Err(ApiError::Conflict {
            code: "invoice_elsewhere",
            message: "Deze factuur staat in een andere boekhouding; vraag hem op bij support.",
        });
    }
    match state.bookkeeping.download_link(&provider_invoice_id).await {
        Ok(download_link) => {
            if let Some(actor) = caller.staff.as_ref().filter(|_| owner_id != user.id) {
                let mut tx = state.db.begin().await?;
                let entry = audit::Entry {
                    action: audit::Action::ReadUserInvoice,
                    subject_type: "payment",
                    subject_id: payment_id.to_string(),
                    concerns_user_id: Some(owner_id.clone()),
                    concerns_organisation_id: None,
                    changes: serde_json::json!({}),
                    about: format!("van {} (betaling {payment_id})", owner_email.as_deref().unwrap_or(&owner_id)),
                };
                audit::record(&mut tx, actor, &entry).await?;
                tx.commit().await?;
            }
            Ok(Json(InvoiceDownload { download_link }))
        }
        Err(BookkeepingError::NotFound) => Err(ApiError::Missing(INVOICE_NOT_FOUND)),
        Err(e) => {
            tracing::warn!(error = %e, "invoice download link");
            Err(ApiError::bookkeeping_unavailable(UNAVAILABLE))
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SignedLink {
    /// Unix seconds after which the link no longer works.
    #[param(minimum = 0)]
    pub expires: u64,
    /// HMAC-SHA256 of the invoice id and `expires`, base64url.
    #[param(max_length = 100)]
    pub signature: String,
}

/// A local invoice's PDF, by the signed link `getInvoiceDownload` gave (no sign-in: the link is
/// the permission, for a few minutes).
#[utoipa::path(get, path = "/payment/invoice/{file}", tag = "subscriptions",
    params(("file" = String, Path, description = "The invoice's id and `.pdf`", pattern = r"^li_[0-9a-z]{26}\.pdf$"), SignedLink),
    responses((status = 200, content_type = "application/pdf", body = Vec<u8>), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 410, body = ErrorBody)))]
pub async fn download_pdf(
    State(state): State<AppState>,
    Path(file): Path<String>,
    Query(link): Query<SignedLink>,
) -> Result<Response, ApiError> {
    let id = file.strip_suffix(".pdf").ok_or(ApiError::Missing(INVOICE_NOT_FOUND))?;
    match state.invoice_links.verify(id, link.expires, &link.signature, SystemTime::now()) {
        Ok(()) => {}
        Err(LinkError::Expired) => {
            return Err(ApiError::Refused { status: StatusCode::GONE, code: "link_expired", message: LINK_EXPIRED.to_owned() });
        }
        Err(LinkError::BadSignature) => {
            return Err(ApiError::Refused { status: StatusCode::FORBIDDEN, code: "link_invalid", message: LINK_INVALID.to_owned() });
        }
    }
    let pdf = match local::pdf(&state.db, id).await {
        Ok(Some(pdf)) => pdf,
        Ok(None) => return Err(ApiError::Missing(INVOICE_NOT_FOUND)),
        Err(e) => {
            tracing::warn!(error = %e, "local invoice pdf");
            return Err(ApiError::bookkeeping_unavailable(UNAVAILABLE));
        }
    };
    Ok((
        [
            (header::CONTENT_TYPE, "application/pdf".to_owned()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"factuur-{}.pdf\"", pdf.number)),
            (header::CACHE_CONTROL, "private, no-store".to_owned()),
        ],
        pdf.bytes,
    )
        .into_response())
}
