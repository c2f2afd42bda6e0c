//! Business rules and persistence shared by every process.
//!
//! Besides one module per area of the specs this crate holds the few pieces of plumbing that all
//! three processes need in the same shape: reading typed configuration from the environment,
//! telemetry, and the database pool with its migrations.

pub mod agreement;
pub mod audit;
pub mod billing;
pub mod cms;
pub mod consult_render;
pub mod consults;
pub mod db;
pub mod env;
pub mod feedback;
pub mod icpc;
pub mod jobs;
pub mod medcat;
pub mod organisations;
pub mod profiles;
pub mod record_system;
pub mod refusal;
pub mod soap_examples;
pub mod summary;
pub mod telemetry;
pub mod templates;
pub mod text;
pub mod users;

/// Resolves on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    tracing::info!("shutdown signal received");
}
