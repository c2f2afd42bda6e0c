//! One telemetry set-up for every process: `tracing` with pretty or JSON output.
//!
//! Logs carry ids as fields (`user.id`, `request.id`, `job.id`), never tokens, e-mail addresses or
//! consult text.

use std::str::FromStr;

use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::format::FmtSpan;

use crate::env::{Env, EnvError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    Pretty,
    Json,
}

impl FromStr for LogFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "pretty" | "text" => Ok(Self::Pretty),
            "json" => Ok(Self::Json),
            other => Err(format!("expected pretty or json, got {other:?}")),
        }
    }
}

#[derive(Debug, Clone)]
pub struct TelemetryConfig {
    pub format: LogFormat,
    /// A `tracing` filter such as `info` or `info,api=debug`.
    pub filter: String,
}

impl TelemetryConfig {
    pub fn from_env(env: &Env) -> Result<Self, EnvError> {
        Ok(Self {
            format: env.parse("APP_LOG_FORMAT", LogFormat::Pretty)?,
            filter: env.string("APP_LOG", "info"),
        })
    }
}

/// Installs the global subscriber. Calling it twice is harmless (the second call does nothing).
pub fn init(config: &TelemetryConfig) {
    let filter = EnvFilter::try_new(&config.filter).unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let _ = match config.format {
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false)
            .with_span_events(FmtSpan::NONE)
            .try_init(),
        LogFormat::Pretty => builder.compact().try_init(),
    };
}
