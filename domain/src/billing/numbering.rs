//! The legal invoice numbering: each invoice the local bookkeeping makes gets the next number of
//! its year (`2026-00001`), gapless and never given twice.
//!
//! The year's counter row (`local_invoice_counters`) is locked first, in the transaction that
//! stores the invoice, so concurrent invoices queue for it; the number is taken in that same
//! transaction, so a rolled-back one gives its number back with it. A provider that numbers its
//! own invoices (Moneybird) does not use this.

use sqlx::PgConnection;

use super::invoices;

/// The number the next invoice of a year gets, while its year's counter is locked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Next {
    pub year: i32,
    pub sequence: i32,
    /// `2026-00001`
    pub number: String,
}

/// Locks the counter of `year` in `tx` (making it on first use) and answers the number the next
/// invoice of that year gets. The lock is held until `tx` ends; [`take`] records the number once
/// the invoice is stored.
pub async fn lock_next(tx: &mut PgConnection, year: i32) -> sqlx::Result<Next> {
    sqlx::query!("insert into local_invoice_counters (year, last) values ($1, 0) on conflict (year) do nothing", year)
        .execute(&mut *tx)
        .await?;
    let last = sqlx::query_scalar!("select last from local_invoice_counters where year = $1 for update", year).fetch_one(&mut *tx).await?;
    let sequence = last + 1;
    Ok(Next { year, sequence, number: invoices::number(year, i64::from(sequence)) })
}

/// Records that `next` was given, in the transaction that locked it and stored its invoice.
pub async fn take(tx: &mut PgConnection, next: &Next) -> sqlx::Result<()> {
    sqlx::query!("update local_invoice_counters set last = $2 where year = $1", next.year, next.sequence).execute(&mut *tx).await?;
    Ok(())
}
