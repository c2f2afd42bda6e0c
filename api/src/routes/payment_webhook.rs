//! The payment provider's webhook (public; Mollie posts `id=tr_...`). It trusts nothing in its
//! body but the payment's id: for a payment of ours it queues a `sync_payment` job
//! ([`jobs::kinds::sync_payment::News`], in batches), which fetches the payment from the provider and moves
//! our status forward. A delivery that is lost or refused is made up for by reconciliation
//! (`reconcile_payments`), which asks the provider itself.

use axum::Router;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::routing::post;
use utoipa::ToSchema;

use crate::edge::client;
use crate::edge::limit::{self, LimitName, Subject};
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
/// for it is already waiting), in a batch with the deliveries that arrive meanwhile
/// ([`jobs::kinds::sync_payment::News`]), and the answer is 200 once it is committed; unknown
/// ids get the same 200. Only webhooks naming no payment of ours count against the client
/// address's limit (`APP_RATE_LIMIT_PAYMENT_WEBHOOK`), so no caller, however noisy, can hold off
/// the sync of a real payment.
#[utoipa::path(post, path = "/payment/webhook", tag = "subscriptions",
    request_body(content = WebhookForm, content_type = "application/x-www-form-urlencoded"),
    responses((status = 200), (status = 400, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn webhook(State(state): State<AppState>, request: Request) -> Result<StatusCode, ApiError> {
    let address = client::peer(request.extensions()).map(|peer| state.config.http.trusted_proxies.client(peer, request.headers()));
    let body = axum::body::to_bytes(request.into_body(), MAX_BODY).await.map_err(|_| no_payment())?;
    let id = url::form_urlencoded::parse(&body).find(|(k, _)| k == "id").map(|(_, v)| v.into_owned()).unwrap_or_default();
    let id = id.trim();
    if id.is_empty() || id.len() > 100 {
        return Err(no_payment());
    }
    let ours = state.payment_news.hear(id.to_owned()).await?;
    if !ours && let Some(address) = address {
        limit::check(&state, LimitName::PaymentWebhook, &Subject::Address(address)).await?;
    }
    Ok(StatusCode::OK)
}

/// A webhook body is a short form; anything longer names no payment.
const MAX_BODY: usize = 4096;

fn no_payment() -> ApiError {
    ApiError::BadRequest { code: "invalid_webhook", message: "Geen betaling genoemd.".to_owned() }
}
