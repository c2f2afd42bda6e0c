//! Outgoing e-mail: SMTP in production, a folder of `.eml` files (the outbox) on the embedded
//! default. Templates are in [`templates`].

pub mod templates;

use std::path::{Path, PathBuf};
use std::time::Duration;

use domain::env::{Env, EnvError, redact_url};
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use secrecy::{ExposeSecret, SecretString};

pub const DEFAULT_OUTBOX: &str = "var/outbox";
/// Staff's address for alerts, unless `APP_STAFF_EMAIL` says otherwise.
const DEFAULT_STAFF: &str = "Spreekkamer administratie <support@spreekkamer.nl>";

pub const DEFAULT_FROM: &str = "Spreekkamer <noreply@spreekkamer.localhost>";

#[derive(Clone)]
pub struct MailConfig {
    /// `smtp://host:port` (plain), `smtp://...?tls=required` (STARTTLS) or `smtps://user:pass@host`.
    /// Unset: messages are written to `outbox`.
    pub smtp_url: Option<SecretString>,
    pub outbox: PathBuf,
    pub from: Mailbox,
    /// Links in messages point here.
    pub public_url: String,
    /// Where messages for staff go (the 5-day unpaid check): `APP_STAFF_EMAIL`.
    pub staff: Mailbox,
}

impl std::fmt::Debug for MailConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MailConfig")
            .field("smtp_url", &self.smtp_url.as_ref().map(redact_url))
            .field("outbox", &self.outbox)
            .field("from", &self.from.to_string())
            .finish()
    }
}

impl MailConfig {
    pub fn from_env(env: &Env) -> Result<Self, EnvError> {
        let smtp_url = match env.get("APP_SMTP_URL") {
            Some(_) => Some(env.secret_url("APP_SMTP_URL", "")?),
            None => None,
        };
        let from_raw = env.string("APP_MAIL_FROM", DEFAULT_FROM);
        let from = from_raw.parse().map_err(|e| EnvError::new("APP_MAIL_FROM", format!("not an address ({e}): {from_raw:?}")))?;
        Ok(Self {
            smtp_url,
            outbox: PathBuf::from(env.string("APP_MAIL_OUTBOX", DEFAULT_OUTBOX)),
            from,
            public_url: env.string("APP_PUBLIC_URL", "http://localhost:8080").trim_end_matches('/').to_owned(),
            staff: {
                let raw = env.string("APP_STAFF_EMAIL", DEFAULT_STAFF);
                raw.parse().map_err(|e| EnvError::new("APP_STAFF_EMAIL", format!("not an address ({e}): {raw:?}")))?
            },
        })
    }
}

/// Why a message was not delivered.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    /// The server refused it for good (a 5xx reply): trying again will not help.
    #[error("{0}")]
    Refused(String),
    /// Not delivered this time (server away, 4xx): try again later.
    #[error("{0}")]
    NotNow(String),
    /// The connection broke off after the message was handed over: it may have arrived.
    #[error("{0}")]
    Uncertain(String),
}

enum Transport {
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
    Outbox(PathBuf),
}

pub struct Mailer {
    transport: Transport,
    config: MailConfig,
}

impl Mailer {
    pub fn new(config: MailConfig) -> anyhow::Result<Self> {
        let transport = match &config.smtp_url {
            Some(url) => Transport::Smtp(
                AsyncSmtpTransport::<Tokio1Executor>::from_url(url.expose_secret())
                    .map_err(|e| anyhow::anyhow!("APP_SMTP_URL {}: {e}", redact_url(url)))?
                    .timeout(Some(Duration::from_secs(20)))
                    .build(),
            ),
            None => Transport::Outbox(config.outbox.clone()),
        };
        Ok(Self { transport, config })
    }

    pub fn config(&self) -> &MailConfig {
        &self.config
    }

    /// Where messages go, for the logs.
    pub fn describe(&self) -> String {
        match (&self.transport, &self.config.smtp_url) {
            (Transport::Smtp(_), Some(url)) => format!("SMTP {}", redact_url(url)),
            (_, _) => format!("outbox folder {}", self.config.outbox.display()),
        }
    }

    /// Whether a message with this file name is already in the outbox (always `false` for SMTP,
    /// which cannot be asked).
    pub fn in_outbox(&self, name: &str) -> bool {
        match &self.transport {
            Transport::Outbox(dir) => outbox_path(dir, name).exists(),
            Transport::Smtp(_) => false,
        }
    }

    pub fn uses_outbox(&self) -> bool {
        matches!(self.transport, Transport::Outbox(_))
    }

    /// Delivers `message`. `name` names the outbox file (the job id), so a second delivery of
    /// the same job finds the first.
    pub async fn send(&self, name: &str, message: Message) -> Result<(), SendError> {
        match &self.transport {
            Transport::Smtp(smtp) => smtp.send(message).await.map(|_| ()).map_err(|e| {
                let text = format!("SMTP: {e}");
                if e.is_permanent() {
                    SendError::Refused(text)
                } else if e.is_timeout() || e.is_transport_shutdown() {
                    SendError::Uncertain(text)
                } else {
                    SendError::NotNow(text)
                }
            }),
            Transport::Outbox(dir) => {
                write_outbox(dir, name, &message.formatted()).await.map_err(|e| SendError::NotNow(format!("outbox {}: {e}", dir.display())))
            }
        }
    }
}

fn outbox_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.eml"))
}

/// Writes the file under a temporary name and renames it, so the outbox never holds half a
/// message and the final name appears once.
async fn write_outbox(dir: &Path, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    tokio::fs::create_dir_all(dir).await?;
    let tmp = dir.join(format!(".{name}.eml.tmp"));
    tokio::fs::write(&tmp, bytes).await?;
    tokio::fs::rename(&tmp, outbox_path(dir, name)).await
}
