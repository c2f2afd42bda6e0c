//! The Spreekkamer api as a library: `main.rs` reads the config and calls [`serve`]; tests build
//! the same [`app`] on their own database.

pub mod auth;
pub mod config;
pub mod consult;
#[cfg(feature = "dev-oidc")]
pub mod dev_oidc;
pub mod edge;
pub mod error;
pub mod extract;
pub mod fields;
pub mod openapi;
pub mod routes;
pub mod spa;
pub mod state;
pub mod telemetry;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::http::HeaderName;
use domain::env::AppEnv;
use sqlx::PgPool;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};

use crate::auth::{Authenticator, KeySource, UserRegistry};
use crate::config::Config;
use crate::consult::service::ConsultService;
use crate::state::AppState;

/// Builds the state on a migrated pool: the authenticator, and in development the embedded
/// sign-in issuer with its seeded users.
pub async fn state(config: Config, db: PgPool) -> anyhow::Result<AppState> {
    let redis = config.redis.client()?;
    domain::icpc::seed_if_empty(&db).await?;
    #[cfg(feature = "dev-oidc")]
    let dev_oidc = match &config.dev_oidc {
        Some(dev) => Some(Arc::new(dev_oidc::DevIssuer::start(&config, dev, db.clone()).await?)),
        None => None,
    };
    #[cfg(feature = "dev-oidc")]
    let source = match &dev_oidc {
        Some(issuer) => KeySource::Local(issuer.key_set()),
        None => remote_keys(&config),
    };
    #[cfg(not(feature = "dev-oidc"))]
    let source = remote_keys(&config);
    let jobs = jobs::Dispatcher::new(db.clone(), redis.clone(), config.jobs.clone());
    let consult =
        ConsultService::start(db.clone(), redis.clone(), jobs.clone(), config.consults, config.summary_wait, config.speech.clone());
    let payments = config.payments.provider(db.clone(), &config.public_url);
    tracing::info!(provider = payments.name(), "payments");
    let bookkeeping = config.bookkeeping.bookkeeping(db.clone(), &config.public_url);
    let invoice_links = config.bookkeeping.link_signer(&config.public_url);
    tracing::info!(bookkeeping = bookkeeping.name(), "invoices");
    let payment_news = jobs::kinds::sync_payment::News::start(db.clone(), jobs.clone());
    Ok(AppState {
        consult,
        payment_news,
        auth: Arc::new(Authenticator::new(&config.auth, source)),
        jobs,
        config: Arc::new(config),
        db,
        redis,
        users: UserRegistry::default(),
        payments,
        bookkeeping,
        invoice_links,
        payments_http: reqwest::Client::builder()
            .timeout(std::time::Duration::from_secs(15))
            .redirect(reqwest::redirect::Policy::none())
            .build()?,
        metrics: telemetry::metrics_handle(),
        #[cfg(feature = "dev-oidc")]
        dev_oidc,
    })
}

fn remote_keys(config: &Config) -> KeySource {
    KeySource::Remote(Box::new(integrations::oidc::JwksClient::new(config.auth.issuer.clone(), config.auth.jwks_url.clone())))
}

/// The whole HTTP surface.
pub fn app(state: AppState) -> Router {
    let request_id = HeaderName::from_static("x-request-id");
    #[cfg_attr(not(feature = "dev-oidc"), allow(unused_mut))]
    let mut router =
        Router::new().merge(routes::router(&state)).merge(consult::router(&state)).merge(openapi::router()).merge(spa::api_not_found());
    #[cfg(feature = "dev-oidc")]
    if let Some(issuer) = &state.dev_oidc {
        // the sign-in calls count against their limit per address
        let sign_in = |calls| edge::limit::Limited::limited(calls, &state, edge::limit::LimitName::SignIn);
        router = router.nest("/oidc", dev_oidc::router(issuer.clone(), state.auth.clone(), sign_in));
    }
    let policies = Arc::new(edge::headers::Policies::new(&state.config));
    router
        .merge(spa::router(&state.config.web_dist))
        .layer(axum::middleware::from_fn_with_state(state.clone(), edge::guard::guard))
        .layer(axum::middleware::from_fn(edge::reject::json_errors))
        .layer(axum::middleware::from_fn_with_state(policies, edge::headers::security_headers))
        .layer(axum::middleware::from_fn(telemetry::observe))
        .layer(PropagateRequestIdLayer::new(request_id.clone()))
        .layer(SetRequestIdLayer::new(request_id, MakeRequestUuid))
        .with_state(state)
}

/// Connects to PostgreSQL (creating the database in development) and applies the migrations.
pub async fn connect_and_migrate(config: &Config) -> anyhow::Result<PgPool> {
    if config.env == AppEnv::Development {
        domain::db::create_if_missing(&config.database).await?;
    }
    let pool = domain::db::connect(&config.database).await?;
    domain::db::migrate(&pool).await?;
    Ok(pool)
}

/// Runs the api, a worker and the scheduler in one process (`api all`, what `make run` starts)
/// until `shutdown` resolves. Production runs the three apart.
pub async fn serve_all(
    config: Config,
    worker: worker::Config,
    scheduler: scheduler::Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    // the worker and the scheduler need the tables: migrate before starting them
    connect_and_migrate(&config).await?.close().await;
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let stopped = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|s| *s).await;
    };
    tokio::spawn(async move {
        shutdown.await;
        let _ = stop_tx.send(true);
    });
    let worker = tokio::spawn(worker::run(worker, stopped(stop_rx.clone())));
    let scheduler = tokio::spawn(scheduler::run(scheduler, stopped(stop_rx.clone())));
    let api = serve(config, stopped(stop_rx));
    let (api, worker, scheduler) = tokio::join!(api, worker, scheduler);
    api?;
    worker??;
    scheduler??;
    Ok(())
}

/// Runs the api until `shutdown` resolves, then drains open requests.
pub async fn serve(config: Config, shutdown: impl Future<Output = ()> + Send + 'static) -> anyhow::Result<()> {
    let addr = config.http_addr;
    let pool = connect_and_migrate(&config).await?;
    let state = state(config, pool.clone()).await?;
    let public_url = state.config.public_url.clone();
    let listener = edge::conn::listen(addr).map_err(|e| anyhow::anyhow!("cannot listen on {addr} (APP_HTTP_ADDR): {e}"))?;
    tracing::info!(%addr, url = %public_url, "api listening");
    let http = state.config.http.clone();
    edge::conn::serve(listener, app(state), http, shutdown).await?;
    tokio::time::timeout(Duration::from_secs(5), pool.close()).await.ok();
    Ok(())
}
