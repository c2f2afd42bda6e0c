//! Bookkeeping: contacts and invoices for paid payments. One trait, two implementations.
//!
//! - [`moneybird::Moneybird`]: Moneybird's API v2 (`APP_MONEYBIRD_*`). A contact is looked up by
//!   our own customer id before one is made; a sales invoice is looked up by our reference before
//!   one is made, then sent to the invoice address and the payment registered on it, so a retry
//!   after a crash finds what the first attempt made. 429 answers are waited out (`Retry-After`).
//! - [`local::LocalBookkeeping`]: the embedded default without a Moneybird token. Contacts and
//!   invoices live in PostgreSQL, numbered gaplessly per year (`2026-00001`), the PDF made with
//!   printpdf ([`domain::billing::invoice_pdf`]); the download is a signed, expiring link to the api.
//!
//! The callers (the bookkeeping jobs) hold the line on our side: one contact per user and one
//! invoice per payment by unique constraints. The provider's own look-ups make a repeated call
//! after a crash harmless.

pub mod local;
pub mod moneybird;

use std::sync::Arc;

use domain::billing::invoices::{Buyer, InvoiceDraft, Seller};
use futures::future::BoxFuture;

/// An invoice as the provider has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderInvoice {
    /// The provider's id of the invoice.
    pub id: String,
    /// The invoice number the buyer sees (`2026-00001`).
    pub number: String,
    /// The provider's page of the invoice (Moneybird's public view), if it has one.
    pub url: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BookkeepingError {
    /// The provider refused the request (4xx other than 429): not worth repeating as it is.
    #[error("refused ({status}): {message}")]
    Refused { status: u16, message: String },
    /// No such contact or invoice.
    #[error("not found")]
    NotFound,
    /// The provider could not be reached, failed, or kept limiting us: try again later.
    #[error("unavailable: {0}")]
    Unavailable(String),
}

impl BookkeepingError {
    pub fn is_retryable(&self) -> bool {
        matches!(self, Self::Unavailable(_))
    }
}

pub trait Bookkeeping: Send + Sync + 'static {
    /// `moneybird` or `local`: the `provider` column of contacts and invoices.
    fn name(&self) -> &'static str;

    /// The provider's contact for `buyer`, found by `buyer.customer_id` or made: the contact's id.
    fn ensure_contact<'a>(&'a self, buyer: &'a Buyer) -> BoxFuture<'a, Result<String, BookkeepingError>>;

    /// The invoice with `draft.reference` for the contact, found or made, and numbered. Moneybird
    /// also sends it to `draft.buyer.email` and registers `draft.paid` on it; the local
    /// bookkeeping keeps it for the buyer to download.
    fn ensure_invoice<'a>(
        &'a self,
        contact_id: &'a str,
        draft: &'a InvoiceDraft,
    ) -> BoxFuture<'a, Result<ProviderInvoice, BookkeepingError>>;

    /// A link the buyer's browser can download the invoice's PDF from now (it may expire soon).
    fn download_link<'a>(&'a self, invoice_id: &'a str) -> BoxFuture<'a, Result<String, BookkeepingError>>;
}

pub type SharedBookkeeping = Arc<dyn Bookkeeping>;

/// The settings of the bookkeeping (`APP_MONEYBIRD_*`, `APP_INVOICE_*`).
#[derive(Clone)]
pub struct BookkeepingConfig {
    /// Moneybird's settings; without a token the local bookkeeping is used.
    pub moneybird: Option<moneybird::MoneybirdConfig>,
    /// Who sends the local invoices (`APP_INVOICE_SELLER_*`).
    pub seller: Seller,
    /// The seller's name, address, KvK and BTW number were all set (production needs that for
    /// local invoices).
    pub seller_configured: bool,
    /// The key of the local invoices' download links (`APP_INVOICE_LINK_SECRET`).
    link_secret: String,
    pub link_secret_configured: bool,
}

/// The development defaults of the seller: plainly an example, refused in production.
const DEV_SELLER_NAME: &str = "Spreekkamer B.V.";
const DEV_SELLER_ADDRESS: &str = "Oudegracht 100, 3511 AX Utrecht";
const DEV_SELLER_KVK: &str = "00000000";
const DEV_SELLER_BTW: &str = "NL000000000B00";
const DEV_SELLER_IBAN: &str = "NL00 TEST 0000 0000 00";
const DEV_LINK_SECRET: &str = "spreekkamer-development-invoice-links";

/// A link key anyone can read: the development default, or a placeholder such as compose's
/// examples (`CHANGE-ME-...`). Production refuses it (anyone could sign a download link).
fn is_public_secret(secret: &str) -> bool {
    let lower = secret.to_ascii_lowercase();
    secret == DEV_LINK_SECRET || lower.contains("change-me") || lower.contains("changeme")
}

impl std::fmt::Debug for BookkeepingConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BookkeepingConfig")
            .field("moneybird", &self.moneybird)
            .field("seller", &self.seller)
            .field("link_secret", &"<hidden>")
            .finish()
    }
}

impl BookkeepingConfig {
    /// Reads the settings through `lookup` (empty counts as unset). A refusal names the variable.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, (&'static str, String)> {
        let get = |name: &str| lookup(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
        let moneybird = moneybird::MoneybirdConfig::from_lookup(get)?;
        let (name, address, kvk, btw) = (
            get("APP_INVOICE_SELLER_NAME"),
            get("APP_INVOICE_SELLER_ADDRESS"),
            get("APP_INVOICE_SELLER_KVK"),
            get("APP_INVOICE_SELLER_BTW"),
        );
        // the example's KvK and BTW numbers (all zeros) given explicitly, as an example .env or
        // compose file may, are still the example seller: no real company has them
        let own = |value: &Option<String>, example: &str| value.as_deref().is_some_and(|v| v != example);
        let seller_configured = name.is_some() && address.is_some() && own(&kvk, DEV_SELLER_KVK) && own(&btw, DEV_SELLER_BTW);
        let seller = Seller {
            name: name.unwrap_or_else(|| DEV_SELLER_NAME.to_owned()),
            address_lines: address
                .unwrap_or_else(|| DEV_SELLER_ADDRESS.to_owned())
                .split(',')
                .map(|l| l.trim().to_owned())
                .filter(|l| !l.is_empty())
                .collect(),
            kvk_number: kvk.unwrap_or_else(|| DEV_SELLER_KVK.to_owned()),
            btw_number: btw.unwrap_or_else(|| DEV_SELLER_BTW.to_owned()),
            email: get("APP_INVOICE_SELLER_EMAIL")
                .or_else(|| get("APP_SUPPORT_EMAIL"))
                .unwrap_or_else(|| "support@spreekkamer.nl".to_owned()),
            iban: get("APP_INVOICE_SELLER_IBAN")
                .unwrap_or_else(|| if seller_configured { String::new() } else { DEV_SELLER_IBAN.to_owned() }),
        };
        let link_secret = get("APP_INVOICE_LINK_SECRET");
        if link_secret.as_ref().is_some_and(|s| s.len() < 32) {
            return Err(("APP_INVOICE_LINK_SECRET", "at least 32 characters".to_owned()));
        }
        Ok(Self {
            moneybird,
            seller,
            seller_configured,
            link_secret_configured: link_secret.as_deref().is_some_and(|s| !is_public_secret(s)),
            link_secret: link_secret.unwrap_or_else(|| DEV_LINK_SECRET.to_owned()),
        })
    }

    pub fn uses_local_bookkeeping(&self) -> bool {
        self.moneybird.is_none()
    }

    /// What production lacks: the variables to set (empty: nothing).
    pub fn missing_for_production(&self) -> Vec<&'static str> {
        let mut missing = Vec::new();
        if self.moneybird.as_ref().is_some_and(|m| m.financial_account_id.is_none()) {
            missing.push(moneybird::FINANCIAL_ACCOUNT);
        }
        if self.uses_local_bookkeeping() {
            if !self.seller_configured {
                missing.extend([
                    "APP_INVOICE_SELLER_NAME",
                    "APP_INVOICE_SELLER_ADDRESS",
                    "APP_INVOICE_SELLER_KVK",
                    "APP_INVOICE_SELLER_BTW",
                ]);
            }
            if !self.link_secret_configured {
                missing.push("APP_INVOICE_LINK_SECRET");
            }
        }
        missing
    }

    /// Signs the local invoices' download links to the api at `public_url`.
    pub fn link_signer(&self, public_url: &url::Url) -> local::LinkSigner {
        local::LinkSigner::new(public_url.clone(), self.link_secret.as_bytes().to_vec())
    }

    /// The configured bookkeeping: Moneybird with a token, the local bookkeeping on `db` without.
    pub fn bookkeeping(&self, db: sqlx::PgPool, public_url: &url::Url) -> SharedBookkeeping {
        match &self.moneybird {
            Some(config) => Arc::new(moneybird::Moneybird::new(config.clone())),
            None => Arc::new(local::LocalBookkeeping::new(db, self.seller.clone(), self.link_signer(public_url))),
        }
    }
}
