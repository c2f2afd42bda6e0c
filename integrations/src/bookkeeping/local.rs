//! The local bookkeeping: contacts and invoices in our own database, for a machine without a
//! Moneybird token (and for a business that keeps its books here).
//!
//! - A contact is one row per customer id (`local_bookkeeping_contacts`), its details brought up
//!   to date on each call.
//! - An invoice gets the next number of its year (`2026-00001`) from the gapless counter
//!   ([`domain::billing::numbering`]) in the same transaction that stores it: the counter is
//!   locked first, so concurrent invoices queue for it. The reference is looked up under the same
//!   lock, so a repeated call returns the invoice it made before.
//! - What the invoice states is kept as it was made (`document`); its PDF is made right after
//!   and kept too (made again from the document should that step have been interrupted). The
//!   table refuses deleting or changing an invoice.
//! - The download is a link to the api (`/payment/invoice/{id}.pdf`) signed with HMAC-SHA256
//!   and valid for [`LINK_VALIDITY`]; the api gives it only to the payment's owner and staff.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use chrono::Datelike;
use domain::billing::invoices::{Buyer, InvoiceDocument, InvoiceDraft, Seller};
use domain::billing::numbering::{self, Next};
use futures::future::BoxFuture;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use sqlx::PgPool;

use super::{Bookkeeping, BookkeepingError, ProviderInvoice};

/// How long a download link works.
pub const LINK_VALIDITY: Duration = Duration::from_secs(300);

pub struct LocalBookkeeping {
    db: PgPool,
    seller: Seller,
    links: LinkSigner,
}

fn unavailable(e: sqlx::Error) -> BookkeepingError {
    BookkeepingError::Unavailable(format!("local bookkeeping: {e}"))
}

fn new_id(prefix: &str) -> String {
    format!("{prefix}_{}", ulid::Ulid::generate().to_string().to_lowercase())
}

impl LocalBookkeeping {
    pub fn new(db: PgPool, seller: Seller, links: LinkSigner) -> Self {
        Self { db, seller, links }
    }

    /// Numbers and stores the invoice, or finds the one with its reference. Answers the document
    /// when this call made it (its PDF is still to be made).
    async fn invoice(
        &self,
        contact_id: &str,
        draft: &InvoiceDraft,
    ) -> Result<(ProviderInvoice, Option<InvoiceDocument>), BookkeepingError> {
        let year = draft.date.year();
        let mut tx = self.db.begin().await.map_err(unavailable)?;
        let next = numbering::lock_next(&mut tx, year).await.map_err(unavailable)?;
        let found = sqlx::query!("select id, number from local_invoices where reference = $1", &draft.reference)
            .fetch_optional(&mut *tx)
            .await
            .map_err(unavailable)?;
        if let Some(row) = found {
            tx.commit().await.map_err(unavailable)?;
            return Ok((ProviderInvoice { id: row.id, number: row.number, url: None }, None));
        }
        let Next { sequence, number, .. } = next.clone();
        let id = new_id("li");
        let document = InvoiceDocument { number: number.clone(), seller: self.seller.clone(), draft: draft.clone() };
        sqlx::query!(
            "insert into local_invoices (id, reference, contact_id, year, sequence, number, document)
             values ($1, $2, $3, $4, $5, $6, $7)",
            &id,
            &draft.reference,
            contact_id,
            year,
            sequence,
            &number,
            sqlx::types::Json(&document) as _,
        )
        .execute(&mut *tx)
        .await
        .map_err(|e| match &e {
            sqlx::Error::Database(d) if d.is_foreign_key_violation() => {
                BookkeepingError::Refused { status: 404, message: format!("no local contact {contact_id}") }
            }
            _ => unavailable(e),
        })?;
        numbering::take(&mut tx, &next).await.map_err(unavailable)?;
        tx.commit().await.map_err(unavailable)?;
        Ok((ProviderInvoice { id, number, url: None }, Some(document)))
    }

    pub fn links(&self) -> &LinkSigner {
        &self.links
    }
}

/// A local invoice's PDF file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvoicePdf {
    /// The invoice's number (`2026-00001`), for the file's name.
    pub number: String,
    pub bytes: Vec<u8>,
}

/// The PDF of the local invoice `id`: the one kept, or made from the kept document (and then
/// kept). `None`: no such invoice.
pub async fn pdf(db: &PgPool, id: &str) -> Result<Option<InvoicePdf>, BookkeepingError> {
    // the document is read (and decoded) only when there is no PDF yet
    let Some(row) = sqlx::query!(
        r#"select number, pdf, case when pdf is null then document end as "document?: sqlx::types::Json<InvoiceDocument>"
             from local_invoices where id = $1"#,
        id,
    )
    .fetch_optional(db)
    .await
    .map_err(unavailable)?
    else {
        return Ok(None);
    };
    let bytes = match (row.pdf, row.document) {
        (Some(pdf), _) => pdf,
        (None, Some(sqlx::types::Json(document))) => store_pdf(db, id, &document).await?,
        // a row has a document (the column is not null)
        (None, None) => return Err(unavailable(sqlx::Error::RowNotFound)),
    };
    Ok(Some(InvoicePdf { number: row.number, bytes }))
}

async fn store_pdf(db: &PgPool, id: &str, document: &InvoiceDocument) -> Result<Vec<u8>, BookkeepingError> {
    let bytes = domain::billing::invoice_pdf::pdf(document);
    sqlx::query!("update local_invoices set pdf = $2 where id = $1 and pdf is null", id, &bytes).execute(db).await.map_err(unavailable)?;
    Ok(bytes)
}

impl Bookkeeping for LocalBookkeeping {
    fn name(&self) -> &'static str {
        "local"
    }

    fn ensure_contact<'a>(&'a self, buyer: &'a Buyer) -> BoxFuture<'a, Result<String, BookkeepingError>> {
        Box::pin(async move {
            sqlx::query_scalar!(
                "insert into local_bookkeeping_contacts (id, customer_id, details) values ($1, $2, $3)
                 on conflict (customer_id) do update set details = excluded.details, updated_at = now()
                 returning id",
                new_id("lc"),
                &buyer.customer_id,
                sqlx::types::Json(buyer) as _,
            )
            .fetch_one(&self.db)
            .await
            .map_err(unavailable)
        })
    }

    fn ensure_invoice<'a>(
        &'a self,
        contact_id: &'a str,
        draft: &'a InvoiceDraft,
    ) -> BoxFuture<'a, Result<ProviderInvoice, BookkeepingError>> {
        Box::pin(async move {
            let (invoice, made) = self.invoice(contact_id, draft).await?;
            if let Some(document) = made {
                store_pdf(&self.db, &invoice.id, &document).await?;
            }
            Ok(invoice)
        })
    }

    fn download_link<'a>(&'a self, invoice_id: &'a str) -> BoxFuture<'a, Result<String, BookkeepingError>> {
        Box::pin(async move {
            let known: Option<bool> = sqlx::query_scalar!(r#"select true as "known!" from local_invoices where id = $1"#, invoice_id)
                .fetch_optional(&self.db)
                .await
                .map_err(unavailable)?;
            if known.is_none() {
                return Err(BookkeepingError::NotFound);
            }
            Ok(self.links.link(invoice_id, SystemTime::now() + LINK_VALIDITY))
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Signed links

/// Signs and checks the local invoices' download links: `{base}/payment/invoice/{id}.pdf?expires=
/// <unix seconds>&signature=<HMAC-SHA256 of "{id}.{expires}", base64url>`.
#[derive(Clone)]
pub struct LinkSigner {
    base: url::Url,
    secret: Vec<u8>,
}

impl std::fmt::Debug for LinkSigner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LinkSigner").field("base", &self.base.as_str()).field("secret", &"<set>").finish()
    }
}

/// Why a link is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkError {
    Expired,
    BadSignature,
}

/// The api's path of a local invoice's PDF.
pub fn download_path(id: &str) -> String {
    format!("/payment/invoice/{id}.pdf")
}

impl LinkSigner {
    pub fn new(base: url::Url, secret: impl Into<Vec<u8>>) -> Self {
        Self { base, secret: secret.into() }
    }

    fn mac(&self, id: &str, expires: u64) -> Hmac<Sha256> {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.secret).expect("HMAC takes a key of any length");
        mac.update(format!("{id}.{expires}").as_bytes());
        mac
    }

    /// A link to the invoice's PDF that works until `until`.
    pub fn link(&self, id: &str, until: SystemTime) -> String {
        let expires = until.duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
        let signature = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(self.mac(id, expires).finalize().into_bytes());
        let path = download_path(id);
        let mut url = self.base.join(path.trim_start_matches('/')).unwrap_or_else(|_| self.base.clone());
        url.query_pairs_mut().append_pair("expires", &expires.to_string()).append_pair("signature", &signature);
        url.to_string()
    }

    /// Checks a link's `expires` and `signature` for the invoice `id` at `now`.
    pub fn verify(&self, id: &str, expires: u64, signature: &str, now: SystemTime) -> Result<(), LinkError> {
        let raw = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(signature).map_err(|_| LinkError::BadSignature)?;
        self.mac(id, expires).verify_slice(&raw).map_err(|_| LinkError::BadSignature)?;
        let now = now.duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(u64::MAX);
        if now > expires {
            return Err(LinkError::Expired);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signer() -> LinkSigner {
        LinkSigner::new(url::Url::parse("http://localhost:8080/").unwrap(), b"secret".to_vec())
    }

    fn parts(link: &str) -> (u64, String) {
        let url = url::Url::parse(link).unwrap();
        let q: std::collections::HashMap<_, _> = url.query_pairs().into_owned().collect();
        (q["expires"].parse().unwrap(), q["signature"].clone())
    }

    #[test]
    fn a_link_works_until_it_expires() {
        let now = SystemTime::now();
        let link = signer().link("li_1", now + LINK_VALIDITY);
        assert!(link.starts_with("http://localhost:8080/payment/invoice/li_1.pdf?expires="));
        let (expires, signature) = parts(&link);
        assert_eq!(signer().verify("li_1", expires, &signature, now), Ok(()));
        assert_eq!(signer().verify("li_1", expires, &signature, now + LINK_VALIDITY + Duration::from_secs(2)), Err(LinkError::Expired));
    }

    #[test]
    fn a_link_is_for_one_invoice_one_expiry_and_one_secret() {
        let now = SystemTime::now();
        let (expires, signature) = parts(&signer().link("li_1", now + LINK_VALIDITY));
        assert_eq!(signer().verify("li_2", expires, &signature, now), Err(LinkError::BadSignature));
        assert_eq!(signer().verify("li_1", expires + 3600, &signature, now), Err(LinkError::BadSignature));
        let other = LinkSigner::new(url::Url::parse("http://localhost:8080/").unwrap(), b"other".to_vec());
        assert_eq!(other.verify("li_1", expires, &signature, now), Err(LinkError::BadSignature));
        assert_eq!(signer().verify("li_1", expires, "not base64!", now), Err(LinkError::BadSignature));
    }
}
