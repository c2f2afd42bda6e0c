//! The Mollie client against a test double speaking Mollie's wire format: bearer key, HAL JSON,
//! string amounts, `Idempotency-Key` on creates, retries on 5xx and 429, 422 problem bodies.

use domain::billing::Cents;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use integrations::payments::mollie::Mollie;
use integrations::payments::{NewCustomer, NewPayment, PaymentError, PaymentProvider, SequenceType};
use serde_json::{Value, json};

#[derive(Default)]
struct Seen {
    /// (authorization, idempotency key, body) per create
    creates: Vec<(String, Option<String>, Value)>,
    /// answers to give first, then 201
    script: Vec<u16>,
    /// the `User-Agent` of each create
    agents: Vec<String>,
}

type Shared = Arc<Mutex<Seen>>;

fn hal(status: u16, body: Value) -> axum::response::Response {
    (StatusCode::from_u16(status).unwrap(), [("content-type", "application/hal+json")], body.to_string()).into_response()
}

async fn create(State(seen): State<Shared>, headers: HeaderMap, body: String) -> axum::response::Response {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let body: Value = serde_json::from_str(&body).unwrap();
    let mut s = seen.lock().unwrap();
    s.agents.extend(header("user-agent"));
    s.creates.push((header("authorization").unwrap_or_default(), header("idempotency-key"), body.clone()));
    if !s.script.is_empty() {
        let status = s.script.remove(0);
        return match status {
            // mollie-api-node tests/unit/errors.test.ts (bddef14a): a wrong or revoked key
            401 => hal(
                401,
                json!({"status": 401, "title": "Unauthorized Request", "detail": "Missing authentication, or failed to authenticate", "_links": {"documentation": {"href": "https://docs.mollie.com/overview/authentication", "type": "text/html"}}}),
            ),
            422 => hal(
                422,
                json!({"status": 422, "title": "Unprocessable Entity", "detail": "The webhook URL is invalid because it is unreachable from Mollie's point of view", "field": "webhookUrl", "_links": {"documentation": {"href": "https://docs.mollie.com/overview/handling-errors", "type": "text/html"}}}),
            ),
            other => hal(other, json!({"status": other, "title": "Error", "detail": "later"})),
        };
    }
    hal(
        201,
        json!({
            "resource": "payment", "id": "tr_7UhSN1zuXS", "mode": "test", "status": "open",
            "amount": body["amount"], "description": body["description"], "sequenceType": body["sequenceType"],
            "customerId": body["customerId"], "metadata": body["metadata"],
            "_links": {"checkout": {"href": "https://www.mollie.com/checkout/select-method/7UhSN1zuXS", "type": "text/html"}}
        }),
    )
}

async fn double(script: Vec<u16>) -> (Mollie, Shared) {
    let seen: Shared = Arc::new(Mutex::new(Seen { script, ..Default::default() }));
    let app = axum::Router::new()
        .route("/v2/payments", post(create))
        .route("/v2/customers", post(|| async { hal(201, json!({"resource": "customer", "id": "cst_8wmqcHMN4U"})) }))
        .route(
            "/v2/payments/{id}",
            get(|axum::extract::Path(id): axum::extract::Path<String>| async move {
                if id == "tr_paid" {
                    hal(
                        200,
                        json!({"resource": "payment", "id": id, "status": "paid", "amount": {"currency": "EUR", "value": "49.00"},
                        "customerId": "cst_8wmqcHMN4U", "mandateId": "mdt_h3gAaD5zP", "metadata": {"paymentId": "p1"}}),
                    )
                } else {
                    hal(404, json!({"status": 404, "title": "Not Found", "detail": "No payment exists with token"}))
                }
            }),
        )
        .with_state(seen.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = url::Url::parse(&format!("http://{}/v2/", listener.local_addr().unwrap())).unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (Mollie::new(base, "test_key".into()).with_backoff(Duration::from_millis(1)), seen)
}

fn payment() -> NewPayment {
    NewPayment {
        amount_cents: Cents(4900),
        description: "Spreekkamer Individueel (1 gebruiker, maandelijks)".into(),
        customer_id: "cst_8wmqcHMN4U".into(),
        sequence_type: SequenceType::First,
        redirect_url: Some("https://app.example.nl/subscription".into()),
        webhook_url: Some("https://app.example.nl/payment/webhook".into()),
        payment_id: "p1".into(),
        idempotency_key: "first:p1".into(),
        mandate_id: None,
    }
}

#[tokio::test]
async fn a_first_payment_is_created_with_a_string_amount_and_an_idempotency_key() {
    let (mollie, seen) = double(vec![]).await;
    let customer =
        mollie.create_customer(&NewCustomer { name: "Anne".into(), email: "anne@example.nl".into(), user_id: "u1".into() }).await.unwrap();
    assert_eq!(customer, "cst_8wmqcHMN4U");
    let made = mollie.create_payment(&payment()).await.unwrap();
    assert_eq!(made.id, "tr_7UhSN1zuXS");
    assert_eq!(made.status, "open");
    assert_eq!(made.amount_cents, Cents(4900));
    assert_eq!(made.payment_id.as_deref(), Some("p1"));
    assert_eq!(made.checkout_url.as_deref(), Some("https://www.mollie.com/checkout/select-method/7UhSN1zuXS"));
    let s = seen.lock().unwrap();
    let (auth, key, body) = &s.creates[0];
    assert_eq!(auth, "Bearer test_key");
    assert_eq!(key.as_deref(), Some("first:p1"));
    assert_eq!(body["amount"], json!({"currency": "EUR", "value": "49.00"}));
    assert_eq!(body["sequenceType"], "first");
    assert_eq!(body["metadata"], json!({"paymentId": "p1"}));
}

#[tokio::test]
async fn server_errors_and_429_are_retried_with_the_same_key() {
    let (mollie, seen) = double(vec![503, 429, 500]).await;
    let made = mollie.create_payment(&payment()).await.unwrap();
    assert_eq!(made.id, "tr_7UhSN1zuXS");
    let s = seen.lock().unwrap();
    assert_eq!(s.creates.len(), 4);
    assert!(s.creates.iter().all(|(_, key, _)| key.as_deref() == Some("first:p1")));
}

#[tokio::test]
async fn giving_up_after_the_last_attempt_is_retryable_later() {
    let (mollie, seen) = double(vec![503, 503, 503, 503]).await;
    let err = mollie.create_payment(&payment()).await.unwrap_err();
    assert!(err.is_retryable(), "{err:?}");
    assert_eq!(seen.lock().unwrap().creates.len(), 4);
}

#[tokio::test]
async fn a_refused_key_is_its_own_error_retried_later_not_a_refusal_of_the_payment() {
    let (mollie, seen) = double(vec![401]).await;
    let err = mollie.create_payment(&payment()).await.unwrap_err();
    assert_eq!(err, PaymentError::Unauthorized { status: 401 });
    assert!(err.is_retryable());
    // not repeated at once: the key does not change within a request's retries
    assert_eq!(seen.lock().unwrap().creates.len(), 1);
}

#[tokio::test]
async fn the_client_says_who_it_is() {
    let (mollie, seen) = double(vec![]).await;
    mollie.create_payment(&payment()).await.unwrap();
    let agents = seen.lock().unwrap().agents.clone();
    assert!(agents.len() == 1 && agents[0].starts_with("Spreekkamer/"), "{agents:?}");
}

#[tokio::test]
async fn a_422_is_a_typed_refusal_and_not_retried() {
    let (mollie, seen) = double(vec![422]).await;
    match mollie.create_payment(&payment()).await.unwrap_err() {
        PaymentError::Refused { status, title, field, detail } => {
            assert_eq!(status, 422);
            assert_eq!(title, "Unprocessable Entity");
            assert_eq!(field.as_deref(), Some("webhookUrl"));
            assert!(detail.contains("unreachable"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(seen.lock().unwrap().creates.len(), 1);
}

#[tokio::test]
async fn fetching_a_payment_reads_status_amount_and_mandate() {
    let (mollie, _) = double(vec![]).await;
    let paid = mollie.get_payment("tr_paid").await.unwrap();
    assert_eq!(paid.status, "paid");
    assert_eq!(paid.amount_cents, Cents(4900));
    assert_eq!(paid.mandate_id.as_deref(), Some("mdt_h3gAaD5zP"));
    assert_eq!(mollie.get_payment("tr_missing").await.unwrap_err(), PaymentError::NotFound);
    assert_eq!(mollie.get_payment("../customers").await.unwrap_err(), PaymentError::NotFound);
}
