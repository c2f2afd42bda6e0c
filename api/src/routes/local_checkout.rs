//! The local checkout's page, the embedded payment provider of `make run` and the tests (no
//! `APP_MOLLIE_API_KEY`): an open payment's amount and four outcomes; the chosen one calls our
//! webhook as Mollie would. The address carries the payment's own key (`?key=`), which only the
//! buyer's browser was sent; without it, and without the local checkout, these addresses are 404.

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::header;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use integrations::payments::local;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use crate::error::{ApiError, ErrorBody};
use crate::extract::{Path, Query};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/payment/checkout/{id}", get(checkout_page).post(checkout_choose))
}

/// The payment's key, as its checkout address carries it.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CheckoutKey {
    /// The key made with the payment (its checkout address has it).
    #[param(max_length = 100)]
    key: Option<String>,
}

/// The payment `id` if `key` is its key; 'Betaling niet gevonden' otherwise (a wrong key reads as
/// an unknown payment).
async fn payment(state: &AppState, id: &str, key: &CheckoutKey) -> Result<local::CheckoutPayment, ApiError> {
    local_only(state)?;
    let key = key.key.as_deref().unwrap_or_default();
    if key.is_empty() || key.len() > 100 {
        return Err(ApiError::Missing(NOT_FOUND));
    }
    local::find(&state.db, id, key).await?.ok_or(ApiError::Missing(NOT_FOUND))
}

const NOT_FOUND: &str = "Betaling niet gevonden";

/// The outcome chosen on the local checkout's page.
#[derive(ToSchema)]
#[allow(dead_code)] // the handler reads the form itself; this is its shape in the document
pub struct CheckoutForm {
    outcome: CheckoutOutcome,
}

/// How a payment in the local checkout ends.
#[derive(ToSchema)]
#[allow(dead_code)] // the document's shape of `outcome`
#[schema(rename_all = "lowercase")]
pub enum CheckoutOutcome {
    Paid,
    Failed,
    Expired,
    Canceled,
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

fn checkout_html(title: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"nl\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n</head>\n<body>\n<main>\n<h1>{title}</h1>\n{body}\n</main>\n</body>\n</html>\n"
    )
}

/// Only with the local checkout (no `APP_MOLLIE_API_KEY`); otherwise 404.
fn local_only(state: &AppState) -> Result<(), ApiError> {
    if state.payments.name() == "local" { Ok(()) } else { Err(ApiError::NotFound) }
}

/// The local checkout's page (no Mollie key): the amount and description of an open payment and
/// four buttons, each posting `outcome` to this address. No script, no inline style.
#[utoipa::path(get, path = "/payment/checkout/{id}", tag = "subscriptions", params(("id" = String, Path), CheckoutKey),
    responses((status = 200, content_type = "text/html", body = String), (status = 404, body = ErrorBody)))]
pub async fn checkout_page(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(key): Query<CheckoutKey>,
) -> Result<Response, ApiError> {
    let payment = payment(&state, &id, &key).await?;
    let amount = payment.amount_cents.to_dutch_string();
    let body = if payment.status == "open" {
        let action = escape(&local::checkout_path(&payment.id, &payment.key));
        let button = |outcome: &str, label: &str| {
            format!(
                "<form method=\"post\" action=\"{action}\"><input type=\"hidden\" name=\"outcome\" value=\"{outcome}\"><button type=\"submit\">{label}</button></form>"
            )
        };
        format!(
            "<p>Dit is de lokale betaalpagina voor ontwikkeling en tests; er wordt niets afgeschreven.</p>\n\
             <p>{}</p>\n<p>Bedrag: &euro; {amount}</p>\n{}\n{}\n{}\n{}",
            escape(&payment.description),
            button("paid", "Betaald"),
            button("failed", "Mislukt"),
            button("expired", "Verlopen"),
            button("canceled", "Geannuleerd"),
        )
    } else {
        format!(
            "<p>Deze betaling is al afgerond ({}).</p>\n<p><a href=\"/subscription\">Terug naar abonnementen</a></p>",
            escape(&payment.status)
        )
    };
    Ok(([(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-store")], Html(checkout_html("Betalen", &body)))
        .into_response())
}

/// The outcome chosen on the local checkout's page: an open payment takes it, our webhook is
/// called as Mollie would (a form POST `id=<payment id>`), and the browser goes back to
/// `/subscription` (303).
#[utoipa::path(post, path = "/payment/checkout/{id}", tag = "subscriptions", params(("id" = String, Path), CheckoutKey),
    request_body(content = CheckoutForm, content_type = "application/x-www-form-urlencoded"),
    responses((status = 303), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 502, body = ErrorBody)))]
pub async fn checkout_choose(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(key): Query<CheckoutKey>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let payment = payment(&state, &id, &key).await?;
    let outcome = url::form_urlencoded::parse(&body).find(|(k, _)| k == "outcome").map(|(_, v)| v.into_owned()).unwrap_or_default();
    if !local::OUTCOMES.contains(&outcome.as_str()) {
        return Err(ApiError::BadRequest {
            code: "invalid_outcome",
            message: "Kies betaald, mislukt, verlopen of geannuleerd.".to_owned(),
        });
    }
    if let Some(webhook) = local::choose(&state.db, &payment.id, &outcome).await?.flatten() {
        let form = url::form_urlencoded::Serializer::new(String::new()).append_pair("id", &payment.id).finish();
        let answer =
            state.payments_http.post(&webhook).header(header::CONTENT_TYPE, "application/x-www-form-urlencoded").body(form).send().await;
        match answer {
            Ok(r) if r.status().is_success() => {}
            Ok(r) => tracing::warn!(status = %r.status(), "the local checkout's webhook call was refused"),
            Err(e) => tracing::warn!(error = %e, "the local checkout could not call the webhook"),
        }
    }
    let back = payment.redirect_url.unwrap_or_else(|| "/subscription".to_owned());
    Ok(Redirect::to(&back).into_response())
}
