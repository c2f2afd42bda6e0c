//! The outside world. Each concern is a client for the real service; the embedded defaults that
//! work on a fresh machine live beside them.

pub mod bookkeeping;
pub mod keycloak;
pub mod oidc;
pub mod payments;
pub mod speech;
pub mod summarise;

use bookkeeping::BookkeepingConfig;
use domain::env::{AppEnv, Env, EnvError};
use payments::PaymentsConfig;

/// The payment and bookkeeping settings every process reads (`APP_MOLLIE_*`, `APP_MONEYBIRD_*`,
/// `APP_INVOICE_*`), refused in production (`APP_ENV`, production unless set) where
/// [`check_production`] refuses them: the api, the worker and the scheduler start on the same
/// rule, so no process of a production deployment runs on a development default.
pub fn money_settings(env: &Env) -> Result<(PaymentsConfig, BookkeepingConfig), EnvError> {
    let payments = PaymentsConfig::from_lookup(|name| env.get(name)).map_err(|(name, e)| EnvError::new(name, e))?;
    let bookkeeping = BookkeepingConfig::from_lookup(|name| env.get(name)).map_err(|(name, e)| EnvError::new(name, e))?;
    if env.parse("APP_ENV", AppEnv::Production)? == AppEnv::Production {
        check_production(&payments, &bookkeeping).map_err(|r| EnvError::new(r.variable(), r.to_string()))?;
    }
    Ok((payments, bookkeeping))
}

/// What production refuses of the payment and bookkeeping settings: the embedded defaults that
/// move no money or make invoices in an example seller's name. The api, the worker and the
/// scheduler all check it at start, so no process of a production deployment runs on them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProductionRefusal {
    #[error(
        "APP_MOLLIE_API_KEY is required in production: the local checkout (the payment provider without a key) \
         takes no money and is for development and tests only"
    )]
    LocalCheckout,
    #[error(
        "the bookkeeping is not ready for production: set {} (the local bookkeeping, without APP_MONEYBIRD_API_TOKEN, makes \
         real invoices and needs the seller's own details and link key, not the example values; Moneybird needs the financial \
         account payments are booked on)", .0.join(", ")
    )]
    BookkeepingUnconfigured(Vec<&'static str>),
}

impl ProductionRefusal {
    /// The first variable to set.
    pub fn variable(&self) -> &'static str {
        match self {
            Self::LocalCheckout => "APP_MOLLIE_API_KEY",
            Self::BookkeepingUnconfigured(missing) => missing.first().copied().unwrap_or("APP_MONEYBIRD_API_TOKEN"),
        }
    }
}

/// Refuses, for production, the local checkout, a local bookkeeping without the seller's own
/// details and link key, and Moneybird without the financial account of the payments.
pub fn check_production(payments: &PaymentsConfig, bookkeeping: &BookkeepingConfig) -> Result<(), ProductionRefusal> {
    if payments.uses_local_checkout() {
        return Err(ProductionRefusal::LocalCheckout);
    }
    let missing = bookkeeping.missing_for_production();
    if !missing.is_empty() {
        return Err(ProductionRefusal::BookkeepingUnconfigured(missing));
    }
    Ok(())
}
