//! One telemetry set-up for every process: `tracing` with pretty or JSON output.
//!
//! Logs carry ids as fields (`user.id`, `request.id`, `job.id`), never tokens, e-mail addresses or
//! consult text.

use std::str::FromStr;
use std::sync::OnceLock;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

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
        Ok(Self { format: env.parse("APP_LOG_FORMAT", LogFormat::Pretty)?, filter: env.string("APP_LOG", "info") })
    }
}

/// Libraries that log whole messages at debug or trace level (websocket frames, HTTP bodies):
/// capped at info whatever `APP_LOG` asks, so consult audio and text never reach the logs.
const PAYLOAD_LOGGERS: &[&str] = &["tungstenite", "tokio_tungstenite", "hyper", "hyper_util", "h2", "reqwest", "redis", "multer"];

/// The filter of `APP_LOG` (`info` when it does not parse), with [`PAYLOAD_LOGGERS`] capped.
pub fn filter(spec: &str) -> EnvFilter {
    let caps: Vec<String> = PAYLOAD_LOGGERS.iter().map(|c| format!("{c}=info")).collect();
    EnvFilter::try_new(format!("{spec},{}", caps.join(","))).unwrap_or_else(|_| EnvFilter::new(format!("info,{}", caps.join(","))))
}

/// Installs the global subscriber. Calling it twice is harmless (the second call does nothing).
pub fn init(config: &TelemetryConfig) {
    let filter = filter(&config.filter);
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr);
    let _ = match config.format {
        LogFormat::Json => {
            builder.json().flatten_event(true).with_current_span(true).with_span_list(false).with_span_events(FmtSpan::NONE).try_init()
        }
        LogFormat::Pretty => builder.compact().try_init(),
    };
}

/// The process-wide Prometheus recorder (installed once, shared by every part of the process:
/// the api, and in one-process mode the worker and the scheduler).
pub fn metrics_handle() -> PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let builder = PrometheusBuilder::new()
                // live audio frames: fine enough to tell a 20 ms p99 apart
                .set_buckets_for_metric(
                    Matcher::Full("speech_frame_seconds".to_owned()),
                    &[0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1.0],
                )
                .and_then(|b| {
                    b.set_buckets_for_metric(
                        Matcher::Suffix("_seconds".to_owned()),
                        &[0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0],
                    )
                })
                .unwrap_or_else(|_| PrometheusBuilder::new());
            match builder.install_recorder() {
                Ok(handle) => handle,
                // Another recorder is installed (only possible in tests): keep a private one.
                Err(_) => PrometheusBuilder::new().build_recorder().handle(),
            }
        })
        .clone()
}
