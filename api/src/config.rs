//! The api's typed configuration, read from `APP_...` environment variables.

use std::net::SocketAddr;
use std::path::PathBuf;

use domain::db::DatabaseConfig;
use domain::env::{AppEnv, Env, EnvError};
use domain::telemetry::TelemetryConfig;
use jobs::RedisConfig;
use url::Url;

use crate::auth::config::AuthConfig;

#[derive(Debug, Clone)]
pub struct Config {
    pub env: AppEnv,
    pub http_addr: SocketAddr,
    /// The address browsers use, without a trailing slash.
    pub public_url: Url,
    pub database: DatabaseConfig,
    pub redis: RedisConfig,
    pub jobs: jobs::JobsConfig,
    pub telemetry: TelemetryConfig,
    pub auth: AuthConfig,
    /// Set when the embedded development issuer runs.
    pub dev_oidc: Option<DevOidcConfig>,
    pub web_dist: PathBuf,
    pub consults: domain::consults::ConsultConfig,
    /// Speech engines per audio model (`APP_SPEECH_*`); none by default.
    pub speech: integrations::speech::config::Engines,
    /// How long a summary call waits for its job before answering 202 (`APP_SUMMARY_WAIT`).
    pub summary_wait: std::time::Duration,
    /// The hand-off of notes to the record system.
    pub record_system: RecordSystemConfig,
    /// The address the SPA names for help (`APP_SUPPORT_EMAIL`).
    pub support_email: String,
    /// The environment that replaces this one, when this one is being retired.
    pub new_environment: Option<NewEnvironment>,
    /// Keycloak's admin API, for writing `accepted-agreement` (all four `APP_KEYCLOAK_*` set);
    /// the client keeps its service-account token.
    pub keycloak_admin: Option<integrations::keycloak::KeycloakAdmin>,
    /// Connection and body timeouts, trusted proxies (`APP_HTTP_*`, `APP_TRUSTED_PROXIES`).
    pub http: crate::edge::HttpConfig,
    /// Rate limits (`APP_RATE_LIMIT_<NAME>`).
    pub rate_limits: crate::edge::rates::RateLimits,
    /// The payment provider (`APP_MOLLIE_*`): Mollie with a key, the local checkout without.
    pub payments: integrations::payments::PaymentsConfig,
    /// Moneybird, or the local bookkeeping and its seller (`APP_MONEYBIRD_*`, `APP_INVOICE_*`).
    pub bookkeeping: integrations::bookkeeping::BookkeepingConfig,
    /// Where the payment provider posts its webhook: `APP_MOLLIE_WEBHOOK_URL`, else
    /// `<APP_PUBLIC_URL>/payment/webhook`.
    pub payment_webhook_url: Url,
    /// Accounts made before this day (Europe/Amsterdam) are early adopters (`APP_EARLY_ADOPTER_BEFORE`).
    pub early_adopter_before: Option<chrono::NaiveDate>,
    /// Who may read `/metrics` (`APP_METRICS_TOKEN`).
    pub metrics: crate::telemetry::MetricsAccess,
}

#[derive(Debug, Clone)]
pub struct RecordSystemConfig {
    /// The record system's name as users know it (`APP_RECORD_SYSTEM_NAME`).
    pub name: String,
    /// Origins the hand-off may send a note back to (`APP_RECORD_SYSTEM_REDIRECT_ORIGINS`);
    /// empty: the hand-off is off.
    pub redirect_origins: Vec<Url>,
}

/// Where users go once this environment stops (`APP_NEW_ENVIRONMENT_URL`,
/// `APP_NEW_ENVIRONMENT_DATE`).
#[derive(Debug, Clone)]
pub struct NewEnvironment {
    pub url: Url,
    /// The first day this environment no longer works.
    pub date: chrono::NaiveDate,
}

#[derive(Debug, Clone)]
pub struct DevOidcConfig {
    /// Origins the issuer may send a browser back to (`redirect_uri`, `post_logout_redirect_uri`).
    pub redirect_origins: Vec<Url>,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error(transparent)]
    Env(#[from] EnvError),
    #[error(
        "the development sign-in issuer (APP_DEV_OIDC) only runs with APP_ENV=development; \
         configure APP_AUTH_ISSUER for a real identity provider instead"
    )]
    DevIssuerOutsideDevelopment,
    #[error("APP_AUTH_ISSUER is required outside development (the identity provider's issuer URL)")]
    MissingIssuer,
    #[error("this build has no development sign-in issuer; set APP_AUTH_ISSUER")]
    DevIssuerNotBuilt,
    #[error("APP_NEW_ENVIRONMENT_URL and APP_NEW_ENVIRONMENT_DATE go together: set both (the retiring-environment banner) or neither")]
    NewEnvironmentHalfSet,
    #[error(
        "APP_KEYCLOAK_ADMIN_URL, APP_KEYCLOAK_REALM, APP_KEYCLOAK_ADMIN_CLIENT_ID and APP_KEYCLOAK_ADMIN_CLIENT_SECRET go \
         together: set all four (the agreement is then written to Keycloak) or none; missing: {0}"
    )]
    KeycloakHalfSet(String),
}

impl Config {
    pub fn from_env(env: &Env) -> Result<Self, ConfigError> {
        let app_env = env.parse("APP_ENV", AppEnv::Production)?;
        let public_url = env.url("APP_PUBLIC_URL", "http://localhost:8080")?;
        let external_issuer = env.get("APP_AUTH_ISSUER");
        let dev_oidc_on = env.flag("APP_DEV_OIDC", app_env == AppEnv::Development && external_issuer.is_none())?;
        if dev_oidc_on && app_env != AppEnv::Development {
            return Err(ConfigError::DevIssuerOutsideDevelopment);
        }
        if dev_oidc_on && !cfg!(feature = "dev-oidc") {
            return Err(ConfigError::DevIssuerNotBuilt);
        }
        let issuer = match (&external_issuer, dev_oidc_on) {
            (Some(_), _) => env.url("APP_AUTH_ISSUER", "")?,
            (None, true) => Url::parse(&format!("{}/oidc", public_url.as_str().trim_end_matches('/')))
                .map_err(|e| EnvError::new("APP_PUBLIC_URL", e.to_string()))?,
            (None, false) => return Err(ConfigError::MissingIssuer),
        };
        let dev_oidc = dev_oidc_on.then(|| {
            let mut origins = vec![origin_of(&public_url), Url::parse("http://localhost:5173").expect("static URL")];
            origins.extend(env.list("APP_DEV_OIDC_REDIRECT_ORIGINS").iter().filter_map(|o| Url::parse(o).ok()).map(|u| origin_of(&u)));
            DevOidcConfig { redirect_origins: origins }
        });
        let (payments, bookkeeping) = integrations::money_settings(env)?;
        let payment_webhook_url = payments.webhook_url(&public_url);
        let early_adopter_before = match env.get("APP_EARLY_ADOPTER_BEFORE") {
            Some(raw) => Some(
                chrono::NaiveDate::parse_from_str(&raw, "%Y-%m-%d")
                    .map_err(|e| EnvError::new("APP_EARLY_ADOPTER_BEFORE", format!("expected a date like 2026-01-01: {e}")))?,
            ),
            None => None,
        };
        let jwks_url = match env.get("APP_AUTH_JWKS_URL") {
            Some(_) => Some(env.url("APP_AUTH_JWKS_URL", "")?),
            None => None,
        };
        Ok(Self {
            env: app_env,
            http_addr: env.parse("APP_HTTP_ADDR", SocketAddr::from(([127, 0, 0, 1], 8080)))?,
            public_url,
            database: DatabaseConfig::from_env(env)?,
            redis: RedisConfig::from_env(env)?,
            jobs: jobs::JobsConfig::from_env(env)?,
            telemetry: TelemetryConfig::from_env(env)?,
            auth: AuthConfig {
                issuer,
                jwks_url,
                audience: env.string("APP_AUTH_AUDIENCE", "spreekkamer-api"),
                client_id: env.string("APP_AUTH_CLIENT_ID", "spreekkamer-web"),
                leeway_seconds: env.parse("APP_AUTH_LEEWAY_SECONDS", 30)?,
                staff_role: env.string("APP_AUTH_STAFF_ROLE", "spreekkamer-employees"),
            },
            dev_oidc,
            web_dist: PathBuf::from(env.string("APP_WEB_DIST", "web/dist")),
            consults: domain::consults::ConsultConfig::from_env(env)?,
            speech: integrations::speech::config::Engines::from_lookup(|name| env.get(name))
                .map_err(|e| EnvError::new("APP_SPEECH_URL", e))?,
            summary_wait: env.duration("APP_SUMMARY_WAIT", std::time::Duration::from_secs(30))?,
            record_system: RecordSystemConfig {
                name: env.string("APP_RECORD_SYSTEM_NAME", "Bricks"),
                redirect_origins: env
                    .list("APP_RECORD_SYSTEM_REDIRECT_ORIGINS")
                    .iter()
                    .map(|o| domain::record_system::parse_origin(o))
                    .collect::<Result<_, _>>()
                    .map_err(|e| EnvError::new("APP_RECORD_SYSTEM_REDIRECT_ORIGINS", e))?,
            },
            support_email: env.string("APP_SUPPORT_EMAIL", "support@spreekkamer.nl"),
            new_environment: new_environment(env)?,
            keycloak_admin: keycloak_admin(env)?,
            http: crate::edge::HttpConfig::from_env(env)?,
            rate_limits: crate::edge::rates::RateLimits::from_env(env)?,
            payments,
            payment_webhook_url,
            bookkeeping,
            early_adopter_before,
            metrics: crate::telemetry::MetricsAccess::from_env(env, app_env)?,
        })
    }

    /// The issuer as it appears in tokens (no trailing slash).
    pub fn issuer_str(&self) -> &str {
        self.auth.issuer.as_str().trim_end_matches('/')
    }
}

fn new_environment(env: &Env) -> Result<Option<NewEnvironment>, ConfigError> {
    match (env.get("APP_NEW_ENVIRONMENT_URL"), env.get("APP_NEW_ENVIRONMENT_DATE")) {
        (None, None) => Ok(None),
        (Some(_), Some(date)) => {
            let url = env.url("APP_NEW_ENVIRONMENT_URL", "")?;
            if !matches!(url.scheme(), "https" | "http") {
                return Err(EnvError::new("APP_NEW_ENVIRONMENT_URL", "must be an http(s) address").into());
            }
            let date = chrono::NaiveDate::parse_from_str(&date, "%Y-%m-%d")
                .map_err(|e| EnvError::new("APP_NEW_ENVIRONMENT_DATE", format!("expected YYYY-MM-DD, got {date:?}: {e}")))?;
            Ok(Some(NewEnvironment { url, date }))
        }
        _ => Err(ConfigError::NewEnvironmentHalfSet),
    }
}

fn keycloak_admin(env: &Env) -> Result<Option<integrations::keycloak::KeycloakAdmin>, ConfigError> {
    const NAMES: [&str; 4] =
        ["APP_KEYCLOAK_ADMIN_URL", "APP_KEYCLOAK_REALM", "APP_KEYCLOAK_ADMIN_CLIENT_ID", "APP_KEYCLOAK_ADMIN_CLIENT_SECRET"];
    let missing: Vec<&str> = NAMES.iter().copied().filter(|n| env.get(n).is_none()).collect();
    if missing.len() == NAMES.len() {
        return Ok(None);
    }
    if !missing.is_empty() {
        return Err(ConfigError::KeycloakHalfSet(missing.join(", ")));
    }
    let base_url = env.url("APP_KEYCLOAK_ADMIN_URL", "")?;
    if !matches!(base_url.scheme(), "https" | "http") {
        return Err(EnvError::new("APP_KEYCLOAK_ADMIN_URL", "must be an http(s) address, e.g. http://keycloak:8080").into());
    }
    Ok(Some(integrations::keycloak::KeycloakAdmin::new(integrations::keycloak::KeycloakAdminConfig {
        base_url,
        realm: env.string("APP_KEYCLOAK_REALM", ""),
        client_id: env.string("APP_KEYCLOAK_ADMIN_CLIENT_ID", ""),
        client_secret: env.string("APP_KEYCLOAK_ADMIN_CLIENT_SECRET", ""),
    })))
}

fn origin_of(url: &Url) -> Url {
    let mut origin = url.clone();
    origin.set_path("/");
    origin.set_query(None);
    origin.set_fragment(None);
    origin
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_machine_in_development_gets_the_embedded_issuer_on_localhost() {
        let config = Config::from_env(&Env::from_pairs([("APP_ENV", "development")])).unwrap();
        assert_eq!(config.issuer_str(), "http://localhost:8080/oidc");
        assert_eq!(config.http_addr.to_string(), "127.0.0.1:8080");
        assert!(config.dev_oidc.is_some());
        assert_eq!(config.auth.staff_role, "spreekkamer-employees");
        assert_eq!(config.auth.client_id, "spreekkamer-web");
    }

    #[test]
    fn the_dev_issuer_is_refused_outside_development() {
        let err = Config::from_env(&Env::from_pairs([("APP_ENV", "production"), ("APP_DEV_OIDC", "true")])).unwrap_err();
        assert!(matches!(err, ConfigError::DevIssuerOutsideDevelopment));
    }

    #[test]
    fn production_needs_an_issuer() {
        let err = Config::from_env(&Env::from_pairs([("APP_ENV", "production")])).unwrap_err();
        assert!(matches!(err, ConfigError::MissingIssuer));
        let ok = Config::from_env(&Env::from_pairs([
            ("APP_AUTH_ISSUER", "https://id.example.nl/realms/spreekkamer"),
            ("APP_MOLLIE_API_KEY", "test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM"),
            ("APP_MONEYBIRD_API_TOKEN", "token"),
            ("APP_MONEYBIRD_ADMINISTRATION_ID", "123456789"),
            ("APP_MONEYBIRD_FINANCIAL_ACCOUNT_ID", "987654321"),
        ]))
        .unwrap();
        assert!(ok.dev_oidc.is_none());
        assert_eq!(ok.issuer_str(), "https://id.example.nl/realms/spreekkamer");
    }

    #[test]
    fn debug_output_hides_passwords() {
        let config = Config::from_env(&Env::from_pairs([
            ("APP_ENV", "development"),
            ("APP_DATABASE_URL", "postgres://app:s3cret@db/spreekkamer"),
            ("APP_REDIS_URL", "redis://:r3dis@cache:6379"),
            ("APP_KEYCLOAK_ADMIN_URL", "http://keycloak:8080"),
            ("APP_KEYCLOAK_REALM", "spreekkamer"),
            ("APP_KEYCLOAK_ADMIN_CLIENT_ID", "spreekkamer-admin"),
            ("APP_KEYCLOAK_ADMIN_CLIENT_SECRET", "k3ycl0ak"),
        ]))
        .unwrap();
        let shown = format!("{config:?}");
        assert!(!shown.contains("s3cret") && !shown.contains("r3dis") && !shown.contains("k3ycl0ak"), "{shown}");
        assert!(config.keycloak_admin.is_some());
    }

    #[test]
    fn record_system_and_retirement_settings_default_to_off() {
        let config = Config::from_env(&Env::from_pairs([("APP_ENV", "development")])).unwrap();
        assert_eq!(config.record_system.name, "Bricks");
        assert!(config.record_system.redirect_origins.is_empty());
        assert_eq!(config.support_email, "support@spreekkamer.nl");
        assert!(config.new_environment.is_none() && config.keycloak_admin.is_none());
    }

    #[test]
    fn half_set_groups_and_bad_origins_are_config_errors() {
        let dev = |pairs: &[(&'static str, &'static str)]| {
            let mut all = vec![("APP_ENV", "development")];
            all.extend_from_slice(pairs);
            Config::from_env(&Env::from_pairs(all))
        };
        assert!(matches!(dev(&[("APP_NEW_ENVIRONMENT_URL", "https://nieuw.example.nl")]).unwrap_err(), ConfigError::NewEnvironmentHalfSet));
        assert!(matches!(dev(&[("APP_NEW_ENVIRONMENT_DATE", "2026-10-18")]).unwrap_err(), ConfigError::NewEnvironmentHalfSet));
        assert!(dev(&[("APP_NEW_ENVIRONMENT_URL", "https://nieuw.example.nl"), ("APP_NEW_ENVIRONMENT_DATE", "18-10-2026")]).is_err());
        let both = dev(&[("APP_NEW_ENVIRONMENT_URL", "https://nieuw.example.nl"), ("APP_NEW_ENVIRONMENT_DATE", "2026-10-18")]).unwrap();
        assert_eq!(both.new_environment.unwrap().date.to_string(), "2026-10-18");
        let err = dev(&[("APP_KEYCLOAK_ADMIN_URL", "http://keycloak:8080")]).unwrap_err();
        assert!(err.to_string().contains("APP_KEYCLOAK_ADMIN_CLIENT_SECRET"), "{err}");
        let err = dev(&[("APP_RECORD_SYSTEM_REDIRECT_ORIGINS", "https://his.example.nl, http://his.example.nl")]).unwrap_err();
        assert!(err.to_string().contains("APP_RECORD_SYSTEM_REDIRECT_ORIGINS"), "{err}");
    }

    #[test]
    fn production_refuses_the_local_checkout_and_development_uses_it() {
        let err = Config::from_env(&Env::from_pairs([("APP_AUTH_ISSUER", "https://id.example.nl/realms/spreekkamer")])).unwrap_err();
        assert_eq!(
            err.to_string(),
            ConfigError::Env(EnvError::new("APP_MOLLIE_API_KEY", integrations::ProductionRefusal::LocalCheckout.to_string())).to_string()
        );
        assert!(err.to_string().contains("APP_MOLLIE_API_KEY is required in production"));
        let dev = Config::from_env(&Env::from_pairs([("APP_ENV", "development")])).unwrap();
        assert!(dev.payments.uses_local_checkout());
        assert_eq!(dev.payment_webhook_url.as_str(), "http://localhost:8080/payment/webhook");
        assert_eq!(dev.early_adopter_before, None);
        let set = Config::from_env(&Env::from_pairs([
            ("APP_ENV", "development"),
            ("APP_MOLLIE_API_KEY", "test_x"),
            ("APP_MOLLIE_WEBHOOK_URL", "https://hooks.example.nl/payment/webhook"),
            ("APP_EARLY_ADOPTER_BEFORE", "2026-01-01"),
        ]))
        .unwrap();
        assert!(!set.payments.uses_local_checkout());
        assert_eq!(set.payment_webhook_url.as_str(), "https://hooks.example.nl/payment/webhook");
        assert_eq!(set.early_adopter_before, chrono::NaiveDate::from_ymd_opt(2026, 1, 1));
        let bad = Config::from_env(&Env::from_pairs([("APP_ENV", "development"), ("APP_EARLY_ADOPTER_BEFORE", "1-1-2026")]));
        assert!(bad.is_err());
    }

    #[test]
    fn production_needs_the_sellers_details_for_local_invoices() {
        let base = [("APP_AUTH_ISSUER", "https://id.example.nl/realms/spreekkamer"), ("APP_MOLLIE_API_KEY", "live_x")];
        let err = Config::from_env(&Env::from_pairs(base)).unwrap_err();
        assert!(err.to_string().contains("the bookkeeping is not ready for production"), "{err}");
        for name in ["APP_INVOICE_SELLER_NAME", "APP_INVOICE_SELLER_KVK", "APP_INVOICE_LINK_SECRET"] {
            assert!(err.to_string().contains(name), "{err}");
        }
        let seller = [
            ("APP_INVOICE_SELLER_NAME", "Spreekkamer B.V."),
            ("APP_INVOICE_SELLER_ADDRESS", "Domplein 1, 3512 JC Utrecht"),
            ("APP_INVOICE_SELLER_KVK", "12345678"),
            ("APP_INVOICE_SELLER_BTW", "NL123456789B01"),
            ("APP_INVOICE_LINK_SECRET", "0123456789abcdef0123456789abcdef"),
        ];
        let ok = Config::from_env(&Env::from_pairs(base.into_iter().chain(seller))).unwrap();
        assert!(ok.bookkeeping.uses_local_bookkeeping());
        assert_eq!(ok.bookkeeping.seller.address_lines, vec!["Domplein 1", "3512 JC Utrecht"]);
        // the example seller and link key, given explicitly (as compose once did), are still examples
        let examples = [
            ("APP_INVOICE_SELLER_NAME", "Spreekkamer B.V."),
            ("APP_INVOICE_SELLER_ADDRESS", "Oudegracht 100, 3511 AX Utrecht"),
            ("APP_INVOICE_SELLER_KVK", "00000000"),
            ("APP_INVOICE_SELLER_BTW", "NL000000000B00"),
            ("APP_INVOICE_LINK_SECRET", "CHANGE-ME-dev-only-spreekkamer-invoice-links"),
        ];
        let err = Config::from_env(&Env::from_pairs(base.into_iter().chain(examples))).unwrap_err();
        for name in ["APP_INVOICE_SELLER_KVK", "APP_INVOICE_LINK_SECRET"] {
            assert!(err.to_string().contains(name), "{err}");
        }
        let public_secret =
            seller.map(|(k, v)| if k == "APP_INVOICE_LINK_SECRET" { (k, "spreekkamer-development-invoice-links") } else { (k, v) });
        let err = Config::from_env(&Env::from_pairs(base.into_iter().chain(public_secret))).unwrap_err();
        assert!(err.to_string().contains("APP_INVOICE_LINK_SECRET") && !err.to_string().contains("APP_INVOICE_SELLER_KVK"), "{err}");
        // Moneybird books the payments on the provider's balance account: production names it
        let moneybird = [("APP_MONEYBIRD_API_TOKEN", "token"), ("APP_MONEYBIRD_ADMINISTRATION_ID", "123")];
        let err = Config::from_env(&Env::from_pairs(base.into_iter().chain(moneybird))).unwrap_err();
        assert!(err.to_string().contains("APP_MONEYBIRD_FINANCIAL_ACCOUNT_ID"), "{err}");
        let moneybird = [
            ("APP_MONEYBIRD_API_TOKEN", "token"),
            ("APP_MONEYBIRD_ADMINISTRATION_ID", "123"),
            ("APP_MONEYBIRD_FINANCIAL_ACCOUNT_ID", "456"),
        ];
        let ok = Config::from_env(&Env::from_pairs(base.into_iter().chain(moneybird))).unwrap();
        assert!(!ok.bookkeeping.uses_local_bookkeeping());
        let short = Config::from_env(&Env::from_pairs([("APP_ENV", "development"), ("APP_INVOICE_LINK_SECRET", "short")]));
        assert!(short.unwrap_err().to_string().contains("APP_INVOICE_LINK_SECRET"));
    }
}
