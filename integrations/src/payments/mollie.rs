//! Mollie's v2 API: `POST customers`, `POST payments` (`sequenceType` `first` or `recurring`,
//! with an `Idempotency-Key`), `GET payments/{id}`, `DELETE payments/{id}` (cancel; only while the
//! payment's `isCancelable` is true, as mollie-api-node's `PaymentsBinder.cancel` documents). Answers are HAL JSON; amounts are objects
//! `{"currency": "EUR", "value": "12.10"}`; refusals are problem bodies
//! `{"status": 422, "title": ..., "detail": ..., "field": ...}`. 5xx, 429 and connection failures
//! are retried with back-off (0.5 s, 1 s, 2 s; a `Retry-After` up to 10 s is honoured); the same
//! idempotency key is sent each time, so a retry never makes a second payment. A 401 or 403 is
//! [`PaymentError::Unauthorized`]: the key is wrong, expired or rotated, which the jobs retry and
//! staff see, rather than a refusal of this one request.

use std::time::Duration;

use futures::future::BoxFuture;
use reqwest::{Method, StatusCode};
use serde::Deserialize;
use serde_json::{Value, json};

use domain::billing::Cents;

use super::{NewCustomer, NewPayment, PaymentError, PaymentProvider, ProviderPayment, SequenceType};

pub const DEFAULT_API_URL: &str = "https://api.mollie.com/v2/";

/// Attempts per request, the first included.
const ATTEMPTS: u32 = 4;

pub struct Mollie {
    base: url::Url,
    key: String,
    http: reqwest::Client,
    /// The first wait between attempts; doubles each time.
    backoff: Duration,
}

impl Mollie {
    pub fn new(base: url::Url, key: String) -> Self {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(15))
            .connect_timeout(Duration::from_secs(5))
            .user_agent(super::USER_AGENT)
            .build()
            .expect("reqwest client");
        Self { base, key, http, backoff: Duration::from_millis(500) }
    }

    /// Waits `backoff` (doubling) between attempts; tests make it short.
    pub fn with_backoff(mut self, backoff: Duration) -> Self {
        self.backoff = backoff;
        self
    }

    async fn send(&self, method: Method, path: &str, body: Option<&Value>, idempotency_key: Option<&str>) -> Result<Value, PaymentError> {
        let url = self.base.join(path).map_err(|e| PaymentError::Unavailable(format!("bad Mollie URL: {e}")))?;
        let mut wait = self.backoff;
        let mut last = String::new();
        for attempt in 1..=ATTEMPTS {
            let mut request =
                self.http.request(method.clone(), url.clone()).bearer_auth(&self.key).header("accept", "application/hal+json");
            if let Some(key) = idempotency_key {
                request = request.header("Idempotency-Key", key);
            }
            if let Some(body) = body {
                request = request.json(body);
            }
            match request.send().await {
                Ok(response) => {
                    let status = response.status();
                    let retry_after = response
                        .headers()
                        .get("retry-after")
                        .and_then(|v| v.to_str().ok())
                        .and_then(|v| v.trim().parse::<u64>().ok())
                        .map(|s| Duration::from_secs(s.min(10)));
                    let text = response.text().await.unwrap_or_default();
                    if status.is_success() {
                        return serde_json::from_str(&text)
                            .map_err(|e| PaymentError::Unavailable(format!("unreadable Mollie answer: {e}")));
                    }
                    if status == StatusCode::NOT_FOUND {
                        return Err(PaymentError::NotFound);
                    }
                    if status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN {
                        return Err(PaymentError::Unauthorized { status: status.as_u16() });
                    }
                    if status.is_server_error() || status == StatusCode::TOO_MANY_REQUESTS {
                        last = format!("Mollie answered {status}");
                        if attempt < ATTEMPTS {
                            tokio::time::sleep(retry_after.unwrap_or(wait).max(wait)).await;
                            wait *= 2;
                        }
                        continue;
                    }
                    return Err(problem(status, &text));
                }
                Err(e) => {
                    last = format!("Mollie unreachable: {e}");
                    if attempt < ATTEMPTS {
                        tokio::time::sleep(wait).await;
                        wait *= 2;
                    }
                }
            }
        }
        Err(PaymentError::Unavailable(last))
    }

    /// `GET` or `DELETE payments/{id}`, answered with the payment.
    async fn payment_call(&self, method: Method, id: &str) -> Result<ProviderPayment, PaymentError> {
        if !is_payment_id(id) {
            return Err(PaymentError::NotFound);
        }
        let v = self.send(method, &format!("payments/{id}"), None, None).await?;
        payment_of(&v)
    }
}

/// A Mollie problem body as a typed refusal.
fn problem(status: StatusCode, text: &str) -> PaymentError {
    #[derive(Deserialize)]
    struct Problem {
        title: Option<String>,
        detail: Option<String>,
        field: Option<String>,
    }
    let parsed: Option<Problem> = serde_json::from_str(text).ok();
    PaymentError::Refused {
        status: status.as_u16(),
        title: parsed.as_ref().and_then(|p| p.title.clone()).unwrap_or_else(|| status.to_string()),
        detail: parsed.as_ref().and_then(|p| p.detail.clone()).unwrap_or_default(),
        field: parsed.and_then(|p| p.field),
    }
}

/// A Mollie payment object as ours.
pub fn payment_of(v: &Value) -> Result<ProviderPayment, PaymentError> {
    let text = |p: &str| v.pointer(p).and_then(Value::as_str).map(str::to_owned);
    let id = text("/id").ok_or_else(|| PaymentError::Unavailable("Mollie payment without an id".into()))?;
    let status = text("/status").ok_or_else(|| PaymentError::Unavailable("Mollie payment without a status".into()))?;
    let amount_cents = text("/amount/value")
        .and_then(|v| Cents::from_decimal_string(&v))
        .ok_or_else(|| PaymentError::Unavailable("Mollie payment without a readable amount".into()))?;
    Ok(ProviderPayment {
        id,
        status,
        amount_cents,
        customer_id: text("/customerId"),
        mandate_id: text("/mandateId"),
        payment_id: text("/metadata/paymentId"),
        checkout_url: text("/_links/checkout/href"),
        // Mollie reports refunds and chargebacks on the payment (`amountRefunded`,
        // `amountChargedBack`), and calls the webhook when they change
        amount_refunded_cents: text("/amountRefunded/value")
            .and_then(|v| Cents::from_decimal_string(&v))
            .unwrap_or_default()
            .max(Cents::ZERO),
        amount_charged_back_cents: text("/amountChargedBack/value")
            .and_then(|v| Cents::from_decimal_string(&v))
            .unwrap_or_default()
            .max(Cents::ZERO),
        is_cancelable: v.pointer("/isCancelable").and_then(Value::as_bool).unwrap_or(false),
        expires_at: text("/expiresAt").and_then(|t| chrono::DateTime::parse_from_rfc3339(&t).ok()).map(|t| t.with_timezone(&chrono::Utc)),
    })
}

/// Mollie's ids are its own (`tr_...`): anything else would change the path.
fn is_payment_id(id: &str) -> bool {
    !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The body of `POST /v2/payments`.
pub fn payment_body(p: &NewPayment) -> Value {
    let mut body = json!({
        "amount": {"currency": "EUR", "value": p.amount_cents.to_decimal_string()},
        "description": p.description,
        "customerId": p.customer_id,
        "sequenceType": p.sequence_type.as_str(),
        "metadata": {"paymentId": p.payment_id},
    });
    if let Some(url) = &p.redirect_url {
        body["redirectUrl"] = json!(url);
    }
    if let Some(url) = &p.webhook_url {
        body["webhookUrl"] = json!(url);
    }
    if p.sequence_type == SequenceType::Recurring
        && let Some(mandate) = &p.mandate_id
    {
        body["mandateId"] = json!(mandate);
    }
    body
}

impl PaymentProvider for Mollie {
    fn name(&self) -> &'static str {
        "mollie"
    }

    fn create_customer<'a>(&'a self, c: &'a NewCustomer) -> BoxFuture<'a, Result<String, PaymentError>> {
        Box::pin(async move {
            let body = json!({"name": c.name, "email": c.email, "metadata": {"userId": c.user_id}});
            let key = format!("customer:{}", c.user_id);
            let v = self.send(Method::POST, "customers", Some(&body), Some(&key)).await?;
            v.get("id")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| PaymentError::Unavailable("Mollie customer without an id".into()))
        })
    }

    fn create_payment<'a>(&'a self, p: &'a NewPayment) -> BoxFuture<'a, Result<ProviderPayment, PaymentError>> {
        Box::pin(async move {
            let v = self.send(Method::POST, "payments", Some(&payment_body(p)), Some(&p.idempotency_key)).await?;
            payment_of(&v)
        })
    }

    fn get_payment<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<ProviderPayment, PaymentError>> {
        Box::pin(self.payment_call(Method::GET, id))
    }

    /// Mollie answers the canceled payment (200); one that is no longer cancelable is a 422.
    fn cancel_payment<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<ProviderPayment, PaymentError>> {
        Box::pin(self.payment_call(Method::DELETE, id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_strings_with_two_decimals() {
        assert_eq!(Cents(1210).to_decimal_string(), "12.10");
        assert_eq!(Cents(1).to_decimal_string(), "0.01");
        assert_eq!(Cents(133380).to_decimal_string(), "1333.80");
        assert_eq!(Cents::from_decimal_string("12.10"), Some(Cents(1210)));
        assert_eq!(Cents::from_decimal_string("12"), Some(Cents(1200)));
        assert_eq!(Cents::from_decimal_string("0.5"), Some(Cents(50)));
        assert_eq!(Cents::from_decimal_string("1.234"), None);
        assert_eq!(Cents::from_decimal_string("1."), None);
        assert_eq!(Cents::from_decimal_string("abc"), None);
    }

    #[test]
    fn a_first_payment_body_as_mollie_takes_it() {
        let p = NewPayment {
            amount_cents: Cents(133380),
            description: "Spreekkamer Praktijk (3 gebruikers, jaarlijks)".into(),
            customer_id: "cst_8wmqcHMN4U".into(),
            sequence_type: SequenceType::First,
            redirect_url: Some("https://app.example/subscription".into()),
            webhook_url: Some("https://app.example/payment/webhook".into()),
            payment_id: "p1".into(),
            idempotency_key: "first:p1".into(),
            mandate_id: None,
        };
        assert_eq!(
            payment_body(&p),
            json!({
                "amount": {"currency": "EUR", "value": "1333.80"},
                "description": "Spreekkamer Praktijk (3 gebruikers, jaarlijks)",
                "customerId": "cst_8wmqcHMN4U",
                "sequenceType": "first",
                "metadata": {"paymentId": "p1"},
                "redirectUrl": "https://app.example/subscription",
                "webhookUrl": "https://app.example/payment/webhook",
            })
        );
    }

    #[test]
    fn refunds_and_chargebacks_are_read_from_the_payment() {
        let paid = json!({
            "resource": "payment", "id": "tr_WDqYK6vllg", "status": "paid",
            "amount": {"currency": "EUR", "value": "78.00"},
            "amountRefunded": {"currency": "EUR", "value": "20.00"},
            "amountRemaining": {"currency": "EUR", "value": "58.00"},
            "amountChargedBack": {"currency": "EUR", "value": "58.00"},
            "metadata": {"paymentId": "p1"},
        });
        let p = payment_of(&paid).unwrap();
        assert_eq!((p.amount_cents, p.amount_refunded_cents, p.amount_charged_back_cents), (Cents(7800), Cents(2000), Cents(5800)));
        let plain = json!({"id": "tr_1", "status": "open", "amount": {"currency": "EUR", "value": "78.00"}});
        let p = payment_of(&plain).unwrap();
        assert_eq!((p.amount_refunded_cents, p.amount_charged_back_cents), (Cents::ZERO, Cents::ZERO));
        assert!(!p.is_cancelable && p.expires_at.is_none());
    }

    #[test]
    fn an_open_payment_says_whether_it_can_be_canceled_and_when_it_expires() {
        // the fields as mollie-api-node documents them (src/data/payments/data.ts)
        let open = json!({
            "resource": "payment", "id": "tr_7UhSN1zuXS", "status": "open", "isCancelable": true,
            "expiresAt": "2018-03-20T13:28:37+00:00",
            "amount": {"currency": "EUR", "value": "10.00"},
        });
        let p = payment_of(&open).unwrap();
        assert!(p.is_cancelable);
        assert_eq!(p.expires_at.map(|t| t.to_rfc3339()), Some("2018-03-20T13:28:37+00:00".to_owned()));
    }
}
