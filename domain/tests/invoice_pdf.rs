//! The invoice PDF read back with poppler's `pdftotext -layout` (Debian package poppler-utils),
//! as a reader or a bookkeeper's import would see it.

use domain::billing::Address;
use domain::billing::Cents;
use std::process::Command;

use chrono::NaiveDate;
use domain::billing::invoice_pdf::{line_excl_cents, pdf};
use domain::billing::invoices::{Buyer, Credits, InvoiceDocument, InvoiceDraft, InvoiceKind, InvoiceLine, Seller, Settlement, euros};

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, d).unwrap()
}

fn seller() -> Seller {
    Seller {
        name: "Spreekkamer B.V.".into(),
        address_lines: vec!["Keizersgracht 100".into(), "1015 AA  Amsterdam".into()],
        kvk_number: "87654321".into(),
        btw_number: "NL862345678B01".into(),
        email: "facturen@spreekkamer.nl".into(),
        iban: "NL91 ABNA 0417 1643 00".into(),
    }
}

fn buyer() -> Buyer {
    Buyer {
        customer_id: "u1".into(),
        address: Address {
            practice_name: "Huisartsenpraktijk De Linde".into(),
            contact_name: "Anne de Vries".into(),
            street_address: "Hoofdstraat".into(),
            house_number: "12".into(),
            house_number_addition: "a".into(),
            postcode: "1234AB".into(),
            city: "Utrecht".into(),
            phone_number: "0301234567".into(),
            kvk_number: "12345678".into(),
        },
        email: "administratie@delinde.nl".into(),
    }
}

fn invoice() -> InvoiceDocument {
    InvoiceDocument {
        number: "2026-00012".into(),
        seller: seller(),
        draft: InvoiceDraft {
            kind: InvoiceKind::Invoice,
            reference: "SPK-6f1c2d3e-4b5a-4c6d-8e7f-901234567890".into(),
            date: day(25),
            buyer: buyer(),
            lines: vec![
                InvoiceLine {
                    description: "Spreekkamer Praktijk, maandabonnement".into(),
                    quantity: 2,
                    gross_cents: Cents(12100),
                    period: Some((day(1), day(30))),
                },
                InvoiceLine {
                    description:
                        "Extra gebruikers toegevoegd halverwege de periode, naar rato berekend over de resterende dagen van november".into(),
                    quantity: 3,
                    gross_cents: Cents(6370),
                    period: Some((day(18), day(30))),
                },
            ],
            paid: Some(Settlement { date: day(25), gross_cents: Cents(18470), transaction_id: "tr_WDqYK6vllg".into() }),
            credits: None,
        },
    }
}

fn credit() -> InvoiceDocument {
    InvoiceDocument {
        number: "2026-00031".into(),
        seller: seller(),
        draft: InvoiceDraft {
            kind: InvoiceKind::Credit,
            reference: "SPK-6f1c2d3e-4b5a-4c6d-8e7f-901234567890-C4900".into(),
            date: day(28),
            buyer: buyer(),
            lines: vec![InvoiceLine {
                description: "Creditering Spreekkamer Praktijk, maandabonnement".into(),
                quantity: 1,
                gross_cents: Cents(-4900),
                period: Some((day(1), day(30))),
            }],
            paid: None,
            credits: Some(Credits { number: "2026-00012".into(), provider_invoice_id: "local-12".into(), date: day(25) }),
        },
    }
}

/// Runs a poppler tool on the PDF (`tool <flags> <file> <after>`); fails with a clear message
/// when poppler-utils is missing.
fn poppler(tool: &str, flags: &[&str], after: &[&str], name: &str, bytes: &[u8]) -> String {
    assert!(bytes.starts_with(b"%PDF"), "not a PDF");
    let path = std::env::temp_dir().join(format!("invoice-{name}-{}.pdf", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    let out = Command::new(tool).args(flags).arg(&path).args(after).output();
    let _ = std::fs::remove_file(&path);
    let out = out.unwrap_or_else(|e| panic!("{tool} (Debian package poppler-utils) must be installed to read the PDF back: {e}"));
    assert!(out.status.success(), "{tool} could not read the PDF: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The text as `pdftotext -layout` lays it out, each line's runs of spaces made one.
fn text_of(name: &str, bytes: &[u8]) -> String {
    poppler("pdftotext", &["-layout"], &["-"], name, bytes)
        .split('\u{c}')
        .map(|page| page.lines().map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")).collect::<Vec<_>>().join("\n"))
        .collect::<Vec<_>>()
        .join("\u{c}")
}

fn line_with<'a>(text: &'a str, needle: &str) -> &'a str {
    text.lines().find(|l| l.contains(needle)).unwrap_or_else(|| panic!("no line with {needle:?} in:\n{text}"))
}

fn assert_has(text: &str, needles: &[&str]) {
    for needle in needles {
        assert!(text.contains(needle), "{needle:?} is missing from:\n{text}");
    }
}

#[test]
fn an_invoice_shows_every_field() {
    let doc = invoice();
    let text = text_of("invoice", &pdf(&doc));
    assert_has(
        &text,
        &[
            "Spreekkamer",
            "Factuur",
            // the seller
            "Spreekkamer B.V.",
            "Keizersgracht 100",
            "1015 AA Amsterdam",
            "KvK 87654321",
            "Btw-nummer NL862345678B01",
            "facturen@spreekkamer.nl",
            "IBAN NL91 ABNA 0417 1643 00",
            // the buyer
            "Factuur aan",
            "Huisartsenpraktijk De Linde",
            "t.a.v. Anne de Vries",
            "Hoofdstraat 12 a",
            "1234 AB Utrecht",
            "KvK 12345678",
            "administratie@delinde.nl",
            // the invoice
            "Factuurnummer",
            "2026-00012",
            "Factuurdatum",
            "25 november 2026",
            "Referentie",
            "SPK-6f1c2d3e-4b5a-4c6d-8e7f-901234567890",
            // the lines
            "Omschrijving",
            "Spreekkamer Praktijk, maandabonnement",
            "Periode: 1 november 2026 t/m 30 november 2026",
            "Extra gebruikers toegevoegd",
            "Periode: 18 november 2026 t/m 30 november 2026",
            "Betaald op 25 november 2026 (transactie tr_WDqYK6vllg)",
        ],
    );
    assert!(!text.contains("Creditering"), "{text}");

    // the lines' amounts excl. VAT: 121.00 / 1.21 for two users at 50.00, then 63.70 / 1.21 for
    // three users (52.64 is not a whole number of cents per user: no unit price)
    assert_eq!(line_excl_cents(&doc.draft), [10000, 5264].map(Cents));
    let first = line_with(&text, "Spreekkamer Praktijk, maandabonnement");
    assert_has(first, &["2 gebruikers", "€ 50,00", "21%", "€ 100,00"]);
    let second = line_with(&text, "Extra gebruikers toegevoegd");
    assert_has(second, &["3 gebruikers", "21%", "€ 52,64"]);
    assert_eq!(second.matches('€').count(), 1, "no unit price: {second}");

    // the totals: 184.70 paid, 152.64 excl. and 32.06 VAT
    let totals = doc.draft.totals();
    assert_eq!((totals.excl_vat, totals.vat, totals.gross), (Cents(15264), Cents(3206), Cents(18470)));
    assert!(line_with(&text, "Totaal excl. btw").ends_with(&euros(totals.excl_vat)));
    assert!(line_with(&text, "Btw 21%").ends_with("€ 32,06"));
    assert!(line_with(&text, "Totaal incl. btw").ends_with("€ 184,70"));

    // the footer
    assert_has(line_with(&text, "Btw-nummer NL862345678B01 ·"), &["Spreekkamer B.V.", "KvK 87654321", "facturen@spreekkamer.nl"]);

    let info = poppler("pdfinfo", &[], &[], "invoice-info", &pdf(&doc));
    assert!(line_with(&info, "Title:").ends_with("Factuur 2026-00012"), "{info}");
    assert!(line_with(&info, "Pages:").ends_with(" 1"), "one page: {info}");
}

#[test]
fn a_credit_invoice_names_the_invoice_it_credits() {
    let doc = credit();
    let text = text_of("credit", &pdf(&doc));
    assert_has(
        &text,
        &[
            "Creditfactuur",
            "Spreekkamer B.V.",
            "KvK 87654321",
            "Btw-nummer NL862345678B01",
            "Huisartsenpraktijk De Linde",
            "2026-00031",
            "28 november 2026",
            "SPK-6f1c2d3e-4b5a-4c6d-8e7f-901234567890-C4900",
            "Creditering van factuur 2026-00012 van 25 november 2026",
            "Periode: 1 november 2026 t/m 30 november 2026",
            "Het bedrag wordt verrekend met de oorspronkelijke betaling.",
        ],
    );
    assert!(!text.contains("Betaald op"), "{text}");
    assert_has(line_with(&text, "Creditering Spreekkamer Praktijk"), &["1 gebruiker", "-€ 40,50", "21%"]);
    assert!(line_with(&text, "Totaal excl. btw").ends_with("-€ 40,50"));
    assert!(line_with(&text, "Btw 21%").ends_with("-€ 8,50"));
    assert!(line_with(&text, "Totaal incl. btw").ends_with("-€ 49,00"));
    let info = poppler("pdfinfo", &[], &[], "credit-info", &pdf(&doc));
    assert!(line_with(&info, "Title:").ends_with("Creditfactuur 2026-00031"), "{info}");
}

#[test]
fn a_reversal_names_the_credit_invoice_it_undoes() {
    let mut doc = credit();
    doc.number = "2026-00032".into();
    doc.draft.kind = InvoiceKind::Reversal;
    doc.draft.reference = "SPK-6f1c2d3e-4b5a-4c6d-8e7f-901234567890-R0-1".into();
    doc.draft.date = day(30);
    doc.draft.lines[0].description = "Terugbetaling ingetrokken: Spreekkamer Praktijk, maandabonnement".into();
    doc.draft.lines[0].gross_cents = Cents(4900);
    doc.draft.credits = Some(Credits { number: "2026-00031".into(), provider_invoice_id: "local-31".into(), date: day(28) });
    let bytes = pdf(&doc);
    if let Some(dir) = std::env::var_os("INVOICE_PDF_DIR") {
        std::fs::write(std::path::Path::new(&dir).join("reversal.pdf"), &bytes).unwrap();
    }
    let text = text_of("reversal", &bytes);
    assert_has(
        &text,
        &[
            "Correctiefactuur",
            "2026-00032",
            "30 november 2026",
            "SPK-6f1c2d3e-4b5a-4c6d-8e7f-901234567890-R0-1",
            "Terugdraaiing van creditfactuur 2026-00031 van 28 november 2026",
            "De terugbetaling is ingetrokken: dit bedrag is voldaan met de oorspronkelijke betaling.",
        ],
    );
    assert!(!text.contains("Creditering van factuur"), "{text}");
    assert!(line_with(&text, "Totaal incl. btw").ends_with("€ 49,00") && !line_with(&text, "Totaal incl. btw").contains('-'));
    let info = poppler("pdfinfo", &[], &[], "reversal-info", &bytes);
    assert!(line_with(&info, "Title:").ends_with("Correctiefactuur 2026-00032"), "{info}");
}

#[test]
fn many_lines_continue_on_further_pages_with_the_totals_at_the_end() {
    let mut doc = invoice();
    doc.draft.lines = (1..=45)
        .map(|i| InvoiceLine {
            description: format!("Regel {i}: Spreekkamer Praktijk, maandabonnement voor een gebruiker van de praktijk"),
            quantity: 1,
            gross_cents: Cents(181),
            period: Some((day(1), day(30))),
        })
        .collect();
    let bytes = pdf(&doc);
    let text = text_of("many", &bytes);
    let pages: Vec<&str> = text.split('\u{c}').filter(|p| !p.trim().is_empty()).collect();
    assert!(pages.len() >= 2, "{} pages", pages.len());
    for (i, page) in pages.iter().enumerate() {
        assert!(page.contains(&format!("pagina {} van {}", i + 1, pages.len())), "page {}: {page}", i + 1);
        assert!(page.contains("Omschrijving"), "every page has the table's heads");
    }
    for i in 1..=45 {
        assert!(text.contains(&format!("Regel {i}: ")), "line {i}");
    }
    let last = pages.last().unwrap();
    // 45 x 1.81 = 81.45 gross: 67.31 excl.; the lines are 1.50 each but the last 1.31
    assert!(line_with(last, "Totaal excl. btw").ends_with("€ 67,31"));
    assert!(line_with(last, "Totaal incl. btw").ends_with("€ 81,45"));
    assert_eq!(line_excl_cents(&doc.draft).into_iter().sum::<Cents>(), Cents(6731));
    assert!(line_with(&text, "Regel 45: ").contains("€ 1,31"));
}
