//! The payment provider's webhook (public; Mollie posts `id=tr_...`). It trusts nothing in its
//! body but the payment's id: for a payment of ours it queues a `sync_payment` job
//! ([`jobs::kinds::sync_payment::queue_once`]), which fetches the payment from the provider and
//! moves our status forward.

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use utoipa::ToSchema;

use crate::error::{ApiError, ErrorBody};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/payment/webhook", post(webhook))
}

/// What the payment provider posts: its payment's id (Mollie: `tr_...`).
#[derive(ToSchema)]
#[allow(dead_code)] // the handler reads the form itself; this is its shape in the document
pub struct WebhookForm {
    #[schema(min_length = 1, max_length = 100)]
    id: String,
}

/// The payment provider's webhook (public; Mollie posts `id=tr_...` as a form). Nothing in the
/// body but the id is read. For a payment of ours a `sync_payment` job is queued (none when one
/// for it is already waiting) and the answer is 200 at once; unknown ids get the same 200.
#[utoipa::path(post, path = "/payment/webhook", tag = "subscriptions",
    request_body(content = WebhookForm, content_type = "application/x-www-form-urlencoded"),
    responses((status = 200), (status = 400, body = ErrorBody)))]
pub async fn webhook(State(state): State<AppState>, body: Bytes) -> Result<StatusCode, ApiError> {
    let id = url::form_urlencoded::parse(&body).find(|(k, _)| k == "id").map(|(_, v)| v.into_owned()).unwrap_or_default();
    let id = id.trim();
    if id.is_empty() || id.len() > 100 {
        return Err(ApiError::BadRequest { code: "invalid_webhook", message: "Geen betaling genoemd.".to_owned() });
    }
    let mut tx = state.db.begin().await?;
    if !domain::billing::checkout::is_provider_payment(&mut *tx, id).await? {
        return Ok(StatusCode::OK);
    }
    let job = jobs::kinds::sync_payment::queue_once(&mut tx, id).await?;
    tx.commit().await?;
    if let Some(job) = job {
        state.jobs.push_committed(&[job], "payment sync").await;
    }
    Ok(StatusCode::OK)
}
