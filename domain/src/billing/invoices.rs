//! Invoices as a document: who sells, who buys, what for, and the amounts. The bookkeeping
//! providers (`integrations::bookkeeping`) make them; the local one numbers them itself and lays
//! them out as a PDF ([`crate::billing::invoice_pdf`]).
//!
//! Amounts are integer cents, gross (VAT included), as the payments are: the lines' gross amounts
//! add up to what was paid, and the excl./VAT split of the total is [`crate::billing::money::split`], so
//! the invoice's total is the payment's amount to the cent. A credit invoice has negative amounts
//! and names the invoice it credits.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use crate::billing::Address;
use crate::billing::money::{self, Cents, Split};

/// Who sends the invoice: the company behind the product (`APP_INVOICE_SELLER_*`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Seller {
    pub name: String,
    /// Street and number, then postcode and city: one line each.
    pub address_lines: Vec<String>,
    pub kvk_number: String,
    /// The VAT identification number (`NL123456789B01`).
    pub btw_number: String,
    pub email: String,
    /// Where payments go (shown, never used to collect).
    pub iban: String,
}

/// Who receives the invoice: the billing details of the payment (spec §3, the billing dialog).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Buyer {
    /// Our own id of the customer (the user's id): the bookkeeping contact is found by it.
    pub customer_id: String,
    /// The practice's name is empty when none was given; the postcode is `1234AB`.
    #[serde(flatten)]
    pub address: Address,
    /// Where invoices are sent.
    pub email: String,
}

impl Buyer {
    /// The name the contact goes by: the practice when given, else the contact person.
    pub fn company_name(&self) -> &str {
        if self.address.practice_name.trim().is_empty() { &self.address.contact_name } else { &self.address.practice_name }
    }

    /// `Hoofdstraat 12 a`
    pub fn street_line(&self) -> String {
        [self.address.street_address.trim(), self.address.house_number.trim(), self.address.house_number_addition.trim()]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// `1234 AB  Utrecht`, the postcode written with its space.
    pub fn city_line(&self) -> String {
        let p = self.address.postcode.trim();
        let postcode = if p.len() == 6 && p.is_ascii() { format!("{} {}", &p[..4], &p[4..]) } else { p.to_owned() };
        format!("{postcode}  {}", self.address.city.trim()).trim().to_owned()
    }
}

/// One line of an invoice. `gross_cents` is the line's whole amount incl. VAT (negative on a
/// credit invoice); `quantity` is the number of users it is for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceLine {
    pub description: String,
    pub quantity: i64,
    pub gross_cents: Cents,
    /// The days paid for, first and last (both included).
    pub period: Option<(NaiveDate, NaiveDate)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InvoiceKind {
    Invoice,
    /// Credits refunds and chargebacks of a paid invoice (negative).
    Credit,
    /// Undoes (part of) a credit invoice whose refund was cancelled or whose chargeback was
    /// reversed (positive).
    Reversal,
}

impl InvoiceKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Invoice => "invoice",
            Self::Credit => "credit",
            Self::Reversal => "reversal",
        }
    }

    /// The stored name read back (`invoice`, `credit`, `reversal`); an unknown one is an invoice.
    pub fn from_stored(s: &str) -> Self {
        match s {
            "credit" => Self::Credit,
            "reversal" => Self::Reversal,
            _ => Self::Invoice,
        }
    }

    /// `Factuur`, `Creditfactuur` or `Correctiefactuur`.
    pub fn title(self) -> &'static str {
        match self {
            Self::Invoice => "Factuur",
            Self::Credit => "Creditfactuur",
            Self::Reversal => "Correctiefactuur",
        }
    }

    /// What the document's heading says of the document it refers to (`credits`): 'Creditering
    /// van factuur …' or 'Terugdraaiing van creditfactuur …'; an invoice refers to none.
    pub fn refers_to(self) -> Option<&'static str> {
        match self {
            Self::Invoice => None,
            Self::Credit => Some("Creditering van factuur"),
            Self::Reversal => Some("Terugdraaiing van creditfactuur"),
        }
    }
}

/// How the invoice was paid (a paid payment): the date, the amount and the provider's id of the
/// transaction (`tr_...`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Settlement {
    pub date: NaiveDate,
    pub gross_cents: Cents,
    pub transaction_id: String,
}

/// The invoice a credit invoice credits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Credits {
    /// The credited invoice's number (`2026-00012`).
    pub number: String,
    /// The provider's id of the credited invoice.
    pub provider_invoice_id: String,
    pub date: NaiveDate,
}

/// Everything an invoice states, except its number (the provider gives that).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceDraft {
    pub kind: InvoiceKind,
    /// Our own reference, unique per invoice and stable across retries: a retry finds the invoice
    /// by it instead of making a second one ([`reference`]).
    pub reference: String,
    pub date: NaiveDate,
    pub buyer: Buyer,
    pub lines: Vec<InvoiceLine>,
    /// Paid with (an invoice of a paid payment; `None` on a credit invoice).
    pub paid: Option<Settlement>,
    /// The credited invoice (credit invoices only).
    pub credits: Option<Credits>,
}

impl InvoiceDraft {
    /// The lines' gross amounts added up.
    pub fn gross_cents(&self) -> Cents {
        self.lines.iter().map(|l| l.gross_cents).sum()
    }

    /// The total split in excl. VAT and 21 % VAT ([`money::split`]).
    pub fn totals(&self) -> Split {
        money::split(self.gross_cents())
    }
}

/// A numbered invoice as the PDF shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceDocument {
    pub number: String,
    pub seller: Seller,
    pub draft: InvoiceDraft,
}

/// The reference of a payment's invoice: `SPK-<payment id>`.
pub fn reference(payment_id: uuid::Uuid) -> String {
    format!("SPK-{payment_id}")
}

/// The reference of a credit or reversal that brings what a payment's books credit to `total`
/// after `reversals` earlier reversals: a credit `SPK-<payment id>-C<total>` (with `-<reversals>`
/// once there were any), a reversal `SPK-<payment id>-R<total>-<reversals + 1>`. Within one run
/// of credits the totals only grow and each reversal counts one up, so every document has its
/// own, and a retry (which counts the same under the payment's lock) finds its own.
pub fn credit_reference(payment_id: uuid::Uuid, kind: InvoiceKind, total: Cents, reversals: i64) -> String {
    match (kind, reversals) {
        (InvoiceKind::Reversal, n) => format!("SPK-{payment_id}-R{}-{}", total.0, n + 1),
        (_, 0) => format!("SPK-{payment_id}-C{}", total.0),
        (_, n) => format!("SPK-{payment_id}-C{}-{n}", total.0),
    }
}

/// An invoice number: the year and a sequence number of five digits, `2026-00001`.
pub fn number(year: i32, sequence: i64) -> String {
    format!("{year}-{sequence:05}")
}

/// `€ 1.234,56` (Dutch notation; a minus before the sign for negative amounts).
pub fn euros(cents: Cents) -> String {
    let sign = if cents.0 < 0 { "-" } else { "" };
    let abs = cents.0.unsigned_abs();
    let whole = (abs / 100).to_string();
    let mut grouped = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            grouped.push('.');
        }
        grouped.push(c);
    }
    format!("{sign}€ {grouped},{:02}", abs % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buyer() -> Buyer {
        Buyer {
            customer_id: "u1".into(),
            address: Address {
                practice_name: String::new(),
                contact_name: "Anne de Vries".into(),
                street_address: "Hoofdstraat".into(),
                house_number: "12".into(),
                house_number_addition: "a".into(),
                postcode: "1234AB".into(),
                city: "Utrecht".into(),
                phone_number: "0301234567".into(),
                kvk_number: String::new(),
            },
            email: "facturen@example.nl".into(),
        }
    }

    #[test]
    fn the_company_is_the_practice_when_given() {
        let mut b = buyer();
        assert_eq!(b.company_name(), "Anne de Vries");
        b.address.practice_name = "Huisartsenpraktijk De Linde".into();
        assert_eq!(b.company_name(), "Huisartsenpraktijk De Linde");
        assert_eq!(b.street_line(), "Hoofdstraat 12 a");
        assert_eq!(b.city_line(), "1234 AB  Utrecht");
    }

    #[test]
    fn euros_are_written_the_dutch_way() {
        assert_eq!(euros(Cents(0)), "€ 0,00");
        assert_eq!(euros(Cents(12100)), "€ 121,00");
        assert_eq!(euros(Cents(123456789)), "€ 1.234.567,89");
        assert_eq!(euros(Cents(-4050)), "-€ 40,50");
        assert_eq!(euros(Cents(100000)), "€ 1.000,00");
    }

    #[test]
    fn numbers_and_references() {
        assert_eq!(number(2026, 1), "2026-00001");
        assert_eq!(number(2026, 123456), "2026-123456");
        let id = uuid::Uuid::nil();
        assert_eq!(reference(id), "SPK-00000000-0000-0000-0000-000000000000");
        let credit = |kind, total, reversals| credit_reference(id, kind, Cents(total), reversals);
        // refunded 49,00, cancelled, refunded again: three documents, three references
        assert_eq!(credit(InvoiceKind::Credit, 4900, 0), "SPK-00000000-0000-0000-0000-000000000000-C4900");
        assert_eq!(credit(InvoiceKind::Reversal, 0, 0), "SPK-00000000-0000-0000-0000-000000000000-R0-1");
        assert_eq!(credit(InvoiceKind::Credit, 4900, 1), "SPK-00000000-0000-0000-0000-000000000000-C4900-1");
        assert_eq!(InvoiceKind::from_stored("reversal"), InvoiceKind::Reversal);
        assert_eq!(InvoiceKind::from_stored(InvoiceKind::Credit.as_str()), InvoiceKind::Credit);
    }

    #[test]
    fn totals_split_the_lines_sum() {
        let draft = InvoiceDraft {
            kind: InvoiceKind::Invoice,
            reference: "r".into(),
            date: NaiveDate::from_ymd_opt(2026, 11, 25).unwrap(),
            buyer: buyer(),
            lines: vec![InvoiceLine { description: "x".into(), quantity: 2, gross_cents: Cents(7800), period: None }],
            paid: None,
            credits: None,
        };
        assert_eq!(draft.totals(), Split { gross: Cents(7800), excl_vat: Cents(6446), vat: Cents(1354) });
    }
}
