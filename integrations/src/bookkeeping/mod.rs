//! Bookkeeping: contacts and invoices for paid payments. One trait, two implementations.
//!
//! - [`moneybird::Moneybird`]: Moneybird's API v2 (`APP_MONEYBIRD_*`). A contact is looked up by
//!   our own customer id before one is made; a sales invoice is looked up by our reference before
//!   one is made, then sent to the invoice address and the payment registered on it, so a retry
//!   after a crash finds what the first attempt made. 429 answers are waited out (`Retry-After`).
//! - [`local::LocalBookkeeping`]: the embedded default without a Moneybird token. Contacts and
//!   invoices live in PostgreSQL, numbered gaplessly per year (`2026-00001`), the PDF made with
//!   printpdf ([`domain::invoice_pdf`]); the download is a signed, expiring link to the api.
//!
//! The callers (the bookkeeping jobs) hold the line on our side: one contact per user and one
//! invoice per payment by unique constraints. The provider's own look-ups make a repeated call
//! after a crash harmless.

use std::sync::Arc;

use domain::invoices::{Buyer, InvoiceDraft};
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

    /// The invoice with `draft.reference` for the contact, found or made: numbered, sent to
    /// `draft.buyer.email`, and with `draft.paid` registered on it.
    fn ensure_invoice<'a>(&'a self, contact_id: &'a str, draft: &'a InvoiceDraft) -> BoxFuture<'a, Result<ProviderInvoice, BookkeepingError>>;

    /// A link the buyer's browser can download the invoice's PDF from now (it may expire soon).
    fn download_link<'a>(&'a self, invoice_id: &'a str) -> BoxFuture<'a, Result<String, BookkeepingError>>;
}

pub type SharedBookkeeping = Arc<dyn Bookkeeping>;
