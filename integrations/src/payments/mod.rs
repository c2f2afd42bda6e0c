//! Payment providers: one trait, two implementations.
//!
//! - [`mollie::Mollie`]: Mollie's v2 API over HTTPS (customers, `first` and `recurring` payments
//!   with an `Idempotency-Key`, fetching a payment), with retries on 5xx and 429.
//! - [`local::LocalCheckout`]: the embedded default for a machine without a Mollie key. Its
//!   payments live in PostgreSQL (`local_checkout_payments`); the api serves a checkout page that
//!   lets the user choose the outcome and then calls our own webhook as Mollie would. Refused in
//!   production at config load.
//!
//! Nothing with health data is sent: descriptions name the tier, users and interval only, and the
//! metadata holds our payment's id.

pub mod local;
pub mod mollie;

use std::sync::Arc;

use domain::billing::Cents;
use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};

/// A customer to create (a user of ours).
#[derive(Debug, Clone)]
pub struct NewCustomer {
    pub name: String,
    pub email: String,
    /// Our user id, kept in the customer's metadata.
    pub user_id: String,
}

/// `first` sets up a mandate for later `recurring` payments, which are charged without the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SequenceType {
    First,
    Recurring,
}

impl SequenceType {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::First => "first",
            Self::Recurring => "recurring",
        }
    }
}

/// A payment to create.
#[derive(Debug, Clone)]
pub struct NewPayment {
    /// Gross, in cents (sent as `"12.10"`).
    pub amount_cents: Cents,
    pub description: String,
    pub customer_id: String,
    pub sequence_type: SequenceType,
    /// Where the user's browser returns (first payments).
    pub redirect_url: Option<String>,
    pub webhook_url: Option<String>,
    /// Our payment's id, sent as `metadata.paymentId`.
    pub payment_id: String,
    /// The same key on a retry yields the same payment.
    pub idempotency_key: String,
    /// Recurring payments: the mandate to charge.
    pub mandate_id: Option<String>,
}

/// A payment as the provider has it now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderPayment {
    pub id: String,
    /// The provider's status in its own spelling (`open`, `paid`, ...).
    pub status: String,
    pub amount_cents: Cents,
    pub customer_id: Option<String>,
    pub mandate_id: Option<String>,
    /// Our payment's id from the metadata.
    pub payment_id: Option<String>,
    /// Where the user pays (present while the payment can be paid).
    pub checkout_url: Option<String>,
    /// Refunded so far, in cents.
    pub amount_refunded_cents: Cents,
    /// Charged back so far (the payer's bank reversed it), in cents.
    pub amount_charged_back_cents: Cents,
    /// Whether the merchant may still cancel it (Mollie's `isCancelable`; omitted once final).
    pub is_cancelable: bool,
    /// When an open payment expires if nobody pays (Mollie's `expiresAt`; omitted once it
    /// cannot expire any more).
    pub expires_at: Option<chrono::DateTime<chrono::Utc>>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PaymentError {
    /// The provider refused the request (Mollie's 422 and other 4xx): not worth repeating.
    #[error("refused ({status}): {title}: {detail}")]
    Refused { status: u16, title: String, detail: String, field: Option<String> },
    /// No such payment or customer.
    #[error("not found")]
    NotFound,
    /// The provider refused our credentials (401, 403: a wrong, expired or rotated API key).
    /// Retried, never final: the key is fixed by configuration, and the payment is still there
    /// when it is.
    #[error("the provider refused the API key ({status}); check APP_MOLLIE_API_KEY")]
    Unauthorized { status: u16 },
    /// The provider could not be reached or failed (after the retries): try again later.
    #[error("unavailable: {0}")]
    Unavailable(String),
}

impl PaymentError {
    pub fn is_retryable(&self) -> bool {
        matches!(self, Self::Unavailable(_) | Self::Unauthorized { .. })
    }
}

/// The `User-Agent` our provider clients send (both official clients send one).
pub const USER_AGENT: &str = concat!("Spreekkamer/", env!("CARGO_PKG_VERSION"));

pub trait PaymentProvider: Send + Sync + 'static {
    /// `mollie` or `local`: the `provider` column of payments and customers.
    fn name(&self) -> &'static str;
    fn create_customer<'a>(&'a self, customer: &'a NewCustomer) -> BoxFuture<'a, Result<String, PaymentError>>;
    fn create_payment<'a>(&'a self, payment: &'a NewPayment) -> BoxFuture<'a, Result<ProviderPayment, PaymentError>>;
    fn get_payment<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<ProviderPayment, PaymentError>>;
    /// Cancels an open payment that is still cancelable; answers it as canceled. A payment that
    /// can no longer be canceled is refused ([`PaymentError::Refused`]).
    fn cancel_payment<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<ProviderPayment, PaymentError>>;
}

pub type SharedProvider = Arc<dyn PaymentProvider>;

/// The settings of the payment provider (`APP_MOLLIE_*`).
#[derive(Clone)]
pub struct PaymentsConfig {
    /// Mollie's API key; without it the local checkout is used.
    pub mollie_api_key: Option<String>,
    /// `APP_MOLLIE_API_URL`, `https://api.mollie.com/v2/` by default (a test double's in tests).
    pub mollie_api_url: url::Url,
    /// `APP_MOLLIE_WEBHOOK_URL`: where the provider posts its webhook; unset, the api's own
    /// `/payment/webhook` under the public address ([`PaymentsConfig::webhook_url`]).
    pub webhook_url: Option<url::Url>,
}

impl std::fmt::Debug for PaymentsConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PaymentsConfig")
            .field("mollie_api_key", &self.mollie_api_key.as_ref().map(|_| "<set>"))
            .field("mollie_api_url", &self.mollie_api_url.as_str())
            .field("webhook_url", &self.webhook_url.as_ref().map(url::Url::as_str))
            .finish()
    }
}

impl PaymentsConfig {
    /// Reads `APP_MOLLIE_API_KEY` and `APP_MOLLIE_API_URL` through `lookup`.
    /// A refusal names the variable.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, (&'static str, String)> {
        let raw = lookup("APP_MOLLIE_API_URL").unwrap_or_else(|| mollie::DEFAULT_API_URL.to_owned());
        let mut url = url::Url::parse(&raw).map_err(|e| ("APP_MOLLIE_API_URL", format!("not a URL: {e}")))?;
        if !url.path().ends_with('/') {
            url.set_path(&format!("{}/", url.path()));
        }
        let webhook_url = match lookup("APP_MOLLIE_WEBHOOK_URL") {
            Some(raw) => Some(url::Url::parse(&raw).map_err(|e| ("APP_MOLLIE_WEBHOOK_URL", format!("not a URL: {e}")))?),
            None => None,
        };
        Ok(Self { mollie_api_key: lookup("APP_MOLLIE_API_KEY"), mollie_api_url: url, webhook_url })
    }

    /// The webhook address sent with each payment: `APP_MOLLIE_WEBHOOK_URL`, else
    /// `{public_url}/payment/webhook`.
    pub fn webhook_url(&self, public_url: &url::Url) -> url::Url {
        self.webhook_url.clone().unwrap_or_else(|| public_url.join("payment/webhook").expect("a path joins any http(s) URL"))
    }

    pub fn uses_local_checkout(&self) -> bool {
        self.mollie_api_key.is_none()
    }

    /// The configured provider: Mollie with a key, the local checkout on `db` without.
    pub fn provider(&self, db: sqlx::PgPool, checkout_base: &url::Url) -> SharedProvider {
        match &self.mollie_api_key {
            Some(key) => Arc::new(mollie::Mollie::new(self.mollie_api_url.clone(), key.clone())),
            None => Arc::new(local::LocalCheckout::new(db, checkout_base.clone())),
        }
    }
}
