//! What every handler can reach.

use std::sync::Arc;

use metrics_exporter_prometheus::PrometheusHandle;
use sqlx::PgPool;

use crate::auth::{Authenticator, UserRegistry};
use crate::config::Config;
use crate::consult::service::ConsultService;

#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub db: PgPool,
    pub redis: redis::Client,
    /// Pushes jobs' messages after their rows are committed.
    pub jobs: jobs::Dispatcher,
    /// The payment provider's webhook deliveries, queued as syncs in batches.
    pub payment_news: jobs::kinds::sync_payment::News,
    pub auth: Arc<Authenticator>,
    pub users: UserRegistry,
    pub metrics: PrometheusHandle,
    /// The live consult: sessions, sockets, transcripts and summaries.
    pub consult: ConsultService,
    /// The payment provider: Mollie, or the local checkout.
    pub payments: integrations::payments::SharedProvider,
    /// The bookkeeping: Moneybird, or the local bookkeeping (invoice download links).
    pub bookkeeping: integrations::bookkeeping::SharedBookkeeping,
    /// Checks the local invoices' signed download links.
    pub invoice_links: integrations::bookkeeping::local::LinkSigner,
    /// For calls the api makes itself (the local checkout's webhook call).
    pub payments_http: reqwest::Client,
    #[cfg(feature = "dev-oidc")]
    pub dev_oidc: Option<Arc<crate::dev_oidc::DevIssuer>>,
}
