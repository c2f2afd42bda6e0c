//! The PostgreSQL pool and the migrations in `migrations/`.

use std::time::Duration;

use secrecy::{ExposeSecret, SecretString};
use sqlx::migrate::{MigrateDatabase, Migrator};
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{PgPool, Postgres};

use crate::env::{Env, EnvError, redact_url};

/// Every migration of the product, embedded in the binaries.
pub static MIGRATOR: Migrator = sqlx::migrate!("../migrations");

pub const DEFAULT_DATABASE_URL: &str = "postgres://postgres@localhost:5432/spreekkamer";

#[derive(Clone)]
pub struct DatabaseConfig {
    pub url: SecretString,
    pub max_connections: u32,
}

impl std::fmt::Debug for DatabaseConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DatabaseConfig").field("url", &redact_url(&self.url)).field("max_connections", &self.max_connections).finish()
    }
}

impl DatabaseConfig {
    pub fn from_env(env: &Env) -> Result<Self, EnvError> {
        Ok(Self {
            url: env.secret_url("APP_DATABASE_URL", DEFAULT_DATABASE_URL)?,
            max_connections: env.parse("APP_DATABASE_MAX_CONNECTIONS", 10)?,
        })
    }

    fn options(&self) -> Result<PgConnectOptions, sqlx::Error> {
        self.url.expose_secret().parse()
    }
}

/// Opens the pool, failing with a message that names the (redacted) address.
pub async fn connect(config: &DatabaseConfig) -> anyhow::Result<PgPool> {
    pool(config, config.options()?, config.max_connections).await
}

/// A pool whose commits do not wait for the disk (`synchronous_commit = off`), for bookkeeping
/// that may be lost in a database crash without harm: job states, where the worst case is an
/// attempt that runs again. Business data never goes through it.
pub async fn connect_async_commit(config: &DatabaseConfig) -> anyhow::Result<PgPool> {
    let options = config.options()?.options([("synchronous_commit", "off")]);
    pool(config, options, config.max_connections).await
}

async fn pool(config: &DatabaseConfig, options: PgConnectOptions, max_connections: u32) -> anyhow::Result<PgPool> {
    PgPoolOptions::new()
        .max_connections(max_connections)
        .acquire_timeout(Duration::from_secs(5))
        .connect_with(options)
        .await
        .map_err(|e| anyhow::anyhow!("cannot connect to PostgreSQL at {}: {e}", redact_url(&config.url)))
}

/// Creates the database when it does not exist yet (used on development machines).
pub async fn create_if_missing(config: &DatabaseConfig) -> anyhow::Result<()> {
    let url = config.url.expose_secret();
    let exists =
        Postgres::database_exists(url).await.map_err(|e| anyhow::anyhow!("cannot reach PostgreSQL at {}: {e}", redact_url(&config.url)))?;
    if !exists {
        Postgres::create_database(url).await?;
        tracing::info!(database = %redact_url(&config.url), "created database");
    }
    Ok(())
}

pub async fn migrate(pool: &PgPool) -> anyhow::Result<()> {
    MIGRATOR.run(pool).await?;
    Ok(())
}

/// The URL of a pool's database on the server `DATABASE_URL` names (a local server by default):
/// for tests that give a database `sqlx::test` made to another part, such as a worker.
pub fn url_of(db: &PgPool) -> String {
    let base = std::env::var("DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let name = db.connect_options().get_database().unwrap_or("postgres").to_owned();
    let server = base.rsplit_once('/').map_or(base.as_str(), |(server, _)| server);
    format!("{server}/{name}")
}

/// Implements `ALL`, `as_str`, `from_stored` (the value exactly as stored) and the `text` column
/// codec for an enum the database keeps as a name (`SoepType`, `Visibility`, `JobState`).
macro_rules! text_column {
    ($ty:ident { $($variant:ident => $text:literal),+ $(,)? }) => {
        impl $ty {
            pub const ALL: [$ty; <[&str]>::len(&[$($text),+])] = [$($ty::$variant),+];

            /// The value as the api and the database write it.
            pub fn as_str(self) -> &'static str {
                match self { $($ty::$variant => $text),+ }
            }

            /// The value written exactly as [`Self::as_str`] gives it.
            pub fn from_stored(value: &str) -> Option<Self> {
                match value { $($text => Some($ty::$variant),)+ _ => None }
            }
        }

        impl sqlx::Type<sqlx::Postgres> for $ty {
            fn type_info() -> sqlx::postgres::PgTypeInfo {
                <&str as sqlx::Type<sqlx::Postgres>>::type_info()
            }
            fn compatible(ty: &sqlx::postgres::PgTypeInfo) -> bool {
                <&str as sqlx::Type<sqlx::Postgres>>::compatible(ty)
            }
        }

        impl sqlx::Encode<'_, sqlx::Postgres> for $ty {
            fn encode_by_ref(
                &self,
                buf: &mut sqlx::postgres::PgArgumentBuffer,
            ) -> Result<sqlx::encode::IsNull, sqlx::error::BoxDynError> {
                <&str as sqlx::Encode<sqlx::Postgres>>::encode(self.as_str(), buf)
            }
        }

        impl<'r> sqlx::Decode<'r, sqlx::Postgres> for $ty {
            fn decode(value: sqlx::postgres::PgValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
                let text = <&str as sqlx::Decode<sqlx::Postgres>>::decode(value)?;
                $ty::from_stored(text).ok_or_else(|| format!("{} {text:?} is not known", stringify!($ty)).into())
            }
        }
    };
}

pub(crate) use text_column;
