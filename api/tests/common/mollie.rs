//! A stand-in for Mollie's v2 API speaking its wire format, as its official clients recorded it
//! (mollie-api-node `bddef14a`: tests/unit/resources/payments.test.ts for the payment bodies,
//! tests/unit/errors.test.ts for the 401, 404 and 422 problem bodies): bearer key, HAL JSON,
//! string amounts, `Idempotency-Key` on creates, `amountRefunded` and `amountChargedBack` on a
//! payment. Cancelling follows mollie-api-node `06c44152` src/binders/payments/PaymentsBinder.ts
//! (`cancel`: `DELETE payments/{id}`, answering the payment) and `18b1e872`
//! src/data/payments/data.ts (`isCancelable`, omitted once final; `expiresAt`; `canceledAt`); a
//! payment no longer cancelable is refused with the 422 problem shape of errors.test.ts (the
//! detail is ours: no recorded body exists). It keeps payments in memory and can be told to fail: creates with 503, fetches with
//! 401 (a rotated key) or with any status for a while (an outage, a rate limit).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::{Path as AxPath, State as AxState};
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{delete, get, post};
use serde_json::{Value, json};

#[derive(Default)]
pub struct Double {
    pub payments: HashMap<String, Value>,
    pub created: Vec<(Value, Option<String>)>,
    pub gets: usize,
    /// `DELETE payments/{id}` calls (cancels) heard.
    pub cancels: usize,
    /// Answer the next create with 503 this many times.
    pub fail_creates: usize,
    /// Answer fetches with Mollie's 401 (a rotated or revoked key).
    pub refuse_key: bool,
    /// Answer fetches with this status until then (503: an outage, 429: a rate limit, 401).
    pub fault: Option<(u16, Instant)>,
}

pub type Shared = Arc<Mutex<Double>>;

pub fn hal(status: StatusCode, body: Value) -> axum::response::Response {
    (status, [("content-type", "application/hal+json")], body.to_string()).into_response()
}

/// Starts the stand-in: its API base (`.../v2/`) and its state.
pub async fn mollie_double() -> (String, Shared) {
    let state: Shared = Arc::default();
    let authorised = |headers: &HeaderMap| headers.get("authorization").and_then(|v| v.to_str().ok()) == Some("Bearer test_double_key");
    let app = axum::Router::new()
        .route(
            "/v2/customers",
            post(move |headers: HeaderMap, body: String| async move {
                if !authorised(&headers) {
                    return hal(
                        StatusCode::UNAUTHORIZED,
                        json!({"status": 401, "title": "Unauthorized Request", "detail": "Missing authentication"}),
                    );
                }
                let body: Value = serde_json::from_str(&body).unwrap();
                hal(
                    StatusCode::CREATED,
                    json!({"resource": "customer", "id": "cst_8wmqcHMN4U", "mode": "test", "name": body["name"], "email": body["email"]}),
                )
            }),
        )
        .route(
            "/v2/payments",
            post(move |AxState(state): AxState<Shared>, headers: HeaderMap, body: String| async move {
                if !authorised(&headers) {
                    return hal(
                        StatusCode::UNAUTHORIZED,
                        json!({"status": 401, "title": "Unauthorized Request", "detail": "Missing authentication"}),
                    );
                }
                let body: Value = serde_json::from_str(&body).unwrap();
                let key = headers.get("idempotency-key").and_then(|v| v.to_str().ok()).map(str::to_owned);
                let mut s = state.lock().unwrap();
                s.created.push((body.clone(), key));
                if s.fail_creates > 0 {
                    s.fail_creates -= 1;
                    return hal(
                        StatusCode::SERVICE_UNAVAILABLE,
                        json!({"status": 503, "title": "Service Unavailable", "detail": "try again"}),
                    );
                }
                if body["amount"]["value"].as_str().is_none_or(|v| !v.contains('.')) {
                    return hal(
                        StatusCode::UNPROCESSABLE_ENTITY,
                        json!({"status": 422, "title": "Unprocessable Entity", "detail": "The amount is invalid", "field": "amount.value"}),
                    );
                }
                let id = format!("tr_{}", s.payments.len() + 1);
                let payment = json!({
                    "resource": "payment", "id": id, "mode": "test", "status": "open", "isCancelable": true,
                    "createdAt": chrono::Utc::now().to_rfc3339(),
                    "expiresAt": (chrono::Utc::now() + chrono::Duration::minutes(15)).to_rfc3339(),
                    "amount": body["amount"], "description": body["description"], "sequenceType": body["sequenceType"],
                    "customerId": body["customerId"], "metadata": body["metadata"], "redirectUrl": body["redirectUrl"],
                    "webhookUrl": body["webhookUrl"],
                    "_links": {
                        "self": {"href": format!("https://api.mollie.com/v2/payments/{id}"), "type": "application/hal+json"},
                        "checkout": {"href": format!("https://www.mollie.com/checkout/select-method/{id}"), "type": "text/html"}
                    }
                });
                s.payments.insert(id, payment.clone());
                hal(StatusCode::CREATED, payment)
            }),
        )
        .route(
            "/v2/payments/{id}",
            get(move |AxState(state): AxState<Shared>, AxPath(id): AxPath<String>| async move {
                let mut s = state.lock().unwrap();
                s.gets += 1;
                if let Some((status, until)) = s.fault
                    && Instant::now() < until
                {
                    let status = StatusCode::from_u16(status).unwrap();
                    return match status.as_u16() {
                        401 => hal(
                            status,
                            json!({"status": 401, "title": "Unauthorized Request", "detail": "Missing authentication, or failed to authenticate"}),
                        ),
                        code => hal(status, json!({"status": code, "title": status.canonical_reason().unwrap_or("Error"), "detail": "try again later"})),
                    };
                }
                if s.refuse_key {
                    // mollie-api-node tests/unit/errors.test.ts (bddef14a)
                    return hal(
                        StatusCode::UNAUTHORIZED,
                        json!({"status": 401, "title": "Unauthorized Request", "detail": "Missing authentication, or failed to authenticate"}),
                    );
                }
                match s.payments.get(&id) {
                    Some(p) => hal(StatusCode::OK, p.clone()),
                    None => {
                        hal(StatusCode::NOT_FOUND, json!({"status": 404, "title": "Not Found", "detail": "No payment exists with token"}))
                    }
                }
            }),
        )
        .route(
            "/v2/payments/{id}",
            delete(move |AxState(state): AxState<Shared>, headers: HeaderMap, AxPath(id): AxPath<String>| async move {
                if !authorised(&headers) {
                    return hal(
                        StatusCode::UNAUTHORIZED,
                        json!({"status": 401, "title": "Unauthorized Request", "detail": "Missing authentication"}),
                    );
                }
                let mut s = state.lock().unwrap();
                s.cancels += 1;
                let Some(p) = s.payments.get_mut(&id) else {
                    return hal(StatusCode::NOT_FOUND, json!({"status": 404, "title": "Not Found", "detail": "No payment exists with token"}));
                };
                if p["isCancelable"] != json!(true) {
                    return hal(
                        StatusCode::UNPROCESSABLE_ENTITY,
                        json!({"status": 422, "title": "Unprocessable Entity", "detail": "The payment cannot be canceled"}),
                    );
                }
                let p = p.as_object_mut().unwrap();
                p.insert("status".into(), json!("canceled"));
                p.insert("canceledAt".into(), json!(chrono::Utc::now().to_rfc3339()));
                for gone in ["isCancelable", "expiresAt"] {
                    p.remove(gone);
                }
                if let Some(links) = p.get_mut("_links").and_then(Value::as_object_mut) {
                    links.remove("checkout");
                }
                hal(StatusCode::OK, Value::Object(p.clone()))
            }),
        )
        .with_state(state.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/v2/", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, state)
}

/// Sets the Mollie payment `id` in the double to `status` (with a mandate when paid).
pub fn mollie_status(double: &Shared, id: &str, status: &str) {
    let mut s = double.lock().unwrap();
    let p = s.payments.get_mut(id).unwrap();
    p["status"] = json!(status);
    if status != "open" {
        // omitted once the payment is final (mollie-api-node src/data/payments/data.ts)
        if let Some(p) = p.as_object_mut() {
            p.remove("isCancelable");
        }
    }
    if status == "paid" {
        p["mandateId"] = json!("mdt_pWUnw6pkBN");
    }
}

/// Sets what Mollie reports refunded and charged back on payment `id`, in cents.
pub fn mollie_refunds(double: &Shared, id: &str, refunded: i64, charged_back: i64) {
    let mut s = double.lock().unwrap();
    let p = s.payments.get_mut(id).unwrap();
    let value = |cents: i64| json!({"currency": "EUR", "value": format!("{}.{:02}", cents / 100, cents % 100)});
    p["amountRefunded"] = value(refunded);
    p["amountChargedBack"] = value(charged_back);
}
