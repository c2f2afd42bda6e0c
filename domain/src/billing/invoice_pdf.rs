//! An invoice as a PDF: one A4 page in Dutch (more when there are many lines) with the product's
//! name, the seller and the buyer, the invoice's number, date and reference, the lines, the
//! totals, how it was paid, and a footer with the seller's registrations.
//!
//! The lines show their amounts excl. VAT ([`line_excl_cents`]); they add up to the total's excl.
//! amount, which is the split of the gross total ([`InvoiceDraft::totals`]).

use printpdf::{
    Color, FontId, Line, LinePoint, Mm, Op, PaintMode, ParsedFont, PdfDocument, PdfPage, PdfSaveOptions, Point, Polygon, PolygonRing, Pt,
    Rgb, TextItem, WindingOrder,
};

use crate::billing::dutch_date;
use crate::billing::invoices::{InvoiceDocument, InvoiceDraft, InvoiceKind, InvoiceLine, euros};
use crate::billing::money::{self, Cents};

/// DejaVu Sans and DejaVu Sans Bold (free licence, `data/agreement/fonts/LICENSE`), embedded as
/// in [`crate::agreement`]: the built-in PDF fonts garble accented letters.
const REGULAR: &[u8] = include_bytes!("../../data/agreement/fonts/DejaVuSans.ttf");
const BOLD: &[u8] = include_bytes!("../../data/agreement/fonts/DejaVuSans-Bold.ttf");

const PAGE_W: f32 = 210.0;
const PAGE_H: f32 = 297.0;
const LEFT: f32 = 20.0;
const RIGHT: f32 = 190.0;
/// Where the second column starts: the seller, the totals' labels.
const COLUMN: f32 = 122.0;
/// Millimetres in a point.
const PT_MM: f32 = 25.4 / 72.0;

/// The table's columns: the description's left edge and width, then the right edges of the
/// quantity, the unit price, the VAT rate and the amount.
const DESC_X: f32 = LEFT;
const DESC_W: f32 = 75.0;
const QTY_R: f32 = 121.0;
const UNIT_R: f32 = 147.0;
const VAT_R: f32 = 159.0;
const AMOUNT_R: f32 = RIGHT;

/// How far down the lines may go before the next page; below it are the footer and its rule.
const CONTENT_BOTTOM: f32 = 268.0;
const FOOTER_RULE: f32 = 278.0;
const FOOTER_TEXT: f32 = 283.5;

const fn rgb(r: u8, g: u8, b: u8) -> Color {
    Color::Rgb(Rgb { r: r as f32 / 255.0, g: g as f32 / 255.0, b: b as f32 / 255.0, icc_profile: None })
}

/// A dark teal, the product's colour, for the wordmark and the total.
const ACCENT: Color = rgb(0x0f, 0x5e, 0x63);
const INK: Color = rgb(0x1d, 0x25, 0x2c);
const MUTED: Color = rgb(0x6b, 0x74, 0x7c);
const RULE: Color = rgb(0xd9, 0xdf, 0xe2);
const BAND: Color = rgb(0xf2, 0xf5, 0xf6);
const ACCENT_TINT: Color = rgb(0xe7, 0xf1, 0xf1);

/// The lines' amounts excl. VAT: each line's gross amount split with [`money::excl_vat`], and the
/// rounding difference with the total's excl. amount on the last line, so that they add up to
/// `draft.totals().excl_vat` to the cent.
pub fn line_excl_cents(draft: &InvoiceDraft) -> Vec<Cents> {
    let mut amounts: Vec<Cents> = draft.lines.iter().map(|l| money::excl_vat(l.gross_cents)).collect();
    let difference = draft.totals().excl_vat - amounts.iter().copied().sum::<Cents>();
    if let Some(last) = amounts.last_mut() {
        *last += difference;
    }
    amounts
}

/// Lays the invoice out as a PDF, titled `Factuur <number>` (`Creditfactuur <number>` for a
/// credit invoice).
pub fn pdf(doc: &InvoiceDocument) -> Vec<u8> {
    FONTS.with(|fonts| render(doc, fonts))
}

/// The two weights of DejaVu Sans, parsed once per thread: parsing takes far longer than laying
/// out a page, and printpdf's parsed fonts cannot be shared between threads.
struct Fonts {
    regular: ParsedFont,
    bold: ParsedFont,
}

thread_local! {
    static FONTS: Fonts = Fonts {
        regular: ParsedFont::from_bytes(REGULAR, 0, &mut Vec::new()).expect("the embedded font parses"),
        bold: ParsedFont::from_bytes(BOLD, 0, &mut Vec::new()).expect("the embedded font parses"),
    };
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Face {
    Regular,
    Bold,
}

impl Fonts {
    /// The width of `text` in millimetres, from the glyphs' advances.
    fn width(&self, face: Face, size: f32, text: &str) -> f32 {
        let font = match face {
            Face::Regular => &self.regular,
            Face::Bold => &self.bold,
        };
        let em = f32::from(font.font_metrics.units_per_em);
        let units: f32 = text
            .chars()
            .map(|c| {
                let advance = if c == ' ' {
                    font.get_space_width().unwrap_or(0) as f32
                } else {
                    font.lookup_glyph_index(c as u32).map_or(0.0, |g| f32::from(font.get_horizontal_advance(g)))
                };
                if advance > 0.0 { advance } else { em * 0.6 }
            })
            .sum();
        units / em * size * PT_MM
    }

    /// Breaks `text` into lines no wider than `max` millimetres, at spaces; a word wider than
    /// that on its own is broken where it must.
    fn wrap(&self, face: Face, size: f32, text: &str, max: f32) -> Vec<String> {
        let mut lines = Vec::new();
        let mut line = String::new();
        for word in text.split_whitespace() {
            let candidate = if line.is_empty() { word.to_owned() } else { format!("{line} {word}") };
            if self.width(face, size, &candidate) <= max {
                line = candidate;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            for c in word.chars() {
                line.push(c);
                if self.width(face, size, &line) > max && line.chars().count() > 1 {
                    line.pop();
                    lines.push(std::mem::replace(&mut line, c.to_string()));
                }
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
        lines
    }
}

/// The pages being drawn; positions are millimetres from the page's top-left corner.
struct Canvas<'a> {
    fonts: &'a Fonts,
    regular: FontId,
    bold: FontId,
    pages: Vec<Vec<Op>>,
    /// The page drawn on.
    current: usize,
}

impl Canvas<'_> {
    fn ops(&mut self) -> &mut Vec<Op> {
        &mut self.pages[self.current]
    }

    fn text(&mut self, x: f32, top: f32, face: Face, size: f32, color: &Color, text: &str) {
        if text.is_empty() {
            return;
        }
        let font = if face == Face::Bold { self.bold.clone() } else { self.regular.clone() };
        self.ops().extend([
            Op::SetFillColor { col: color.clone() },
            Op::StartTextSection,
            Op::SetTextCursor { pos: Point::new(Mm(x), Mm(PAGE_H - top)) },
            Op::SetFontSize { size: Pt(size), font: font.clone() },
            Op::WriteText { items: vec![TextItem::Text(text.to_owned())], font },
            Op::EndTextSection,
        ]);
    }

    /// Text ending at `right`.
    fn text_right(&mut self, right: f32, top: f32, face: Face, size: f32, color: &Color, text: &str) {
        let x = right - self.fonts.width(face, size, text);
        self.text(x, top, face, size, color, text);
    }

    fn rect(&mut self, x: f32, top: f32, w: f32, h: f32, color: &Color) {
        let corner = |x: f32, top: f32| LinePoint { p: Point::new(Mm(x), Mm(PAGE_H - top)), bezier: false };
        let points = vec![corner(x, top), corner(x + w, top), corner(x + w, top + h), corner(x, top + h)];
        self.ops().extend([
            Op::SetFillColor { col: color.clone() },
            Op::DrawPolygon {
                polygon: Polygon { rings: vec![PolygonRing { points }], mode: PaintMode::Fill, winding_order: WindingOrder::NonZero },
            },
        ]);
    }

    fn rule(&mut self, from: f32, to: f32, top: f32, thickness: f32, color: &Color) {
        let point = |x: f32| LinePoint { p: Point::new(Mm(x), Mm(PAGE_H - top)), bezier: false };
        self.ops().extend([
            Op::SetOutlineColor { col: color.clone() },
            Op::SetOutlineThickness { pt: Pt(thickness) },
            Op::DrawLine { line: Line { points: vec![point(from), point(to)], is_closed: false } },
        ]);
    }
}

/// The distance between baselines for text of `size` points, in millimetres.
fn leading(size: f32) -> f32 {
    size * PT_MM * 1.38
}

fn users(quantity: i64) -> String {
    if quantity.abs() == 1 { format!("{quantity} gebruiker") } else { format!("{quantity} gebruikers") }
}

fn render(doc: &InvoiceDocument, fonts: &Fonts) -> Vec<u8> {
    let draft = &doc.draft;
    let title = draft.kind.title();
    let mut pdf = PdfDocument::new(&format!("{title} {}", doc.number));
    let regular = pdf.add_font(&fonts.regular);
    let bold = pdf.add_font(&fonts.bold);
    let mut c = Canvas { fonts, regular, bold, pages: vec![Vec::new()], current: 0 };

    // The header: the wordmark and the title.
    c.rect(0.0, 0.0, PAGE_W, 2.5, &ACCENT);
    c.text(LEFT, 27.0, Face::Bold, 21.0, &ACCENT, "Spreekkamer");
    c.text_right(RIGHT, 27.0, Face::Bold, 21.0, &INK, title);

    // The buyer on the left, the seller on the right.
    let buyer = &draft.buyer;
    let mut to: Vec<(Face, String)> = vec![(Face::Bold, buyer.company_name().trim().to_owned())];
    if !buyer.address.practice_name.trim().is_empty() && !buyer.address.contact_name.trim().is_empty() {
        to.push((Face::Regular, format!("t.a.v. {}", buyer.address.contact_name.trim())));
    }
    to.push((Face::Regular, buyer.street_line()));
    to.push((Face::Regular, buyer.city_line()));
    if !buyer.address.kvk_number.trim().is_empty() {
        to.push((Face::Regular, format!("KvK {}", buyer.address.kvk_number.trim())));
    }
    to.push((Face::Regular, buyer.email.trim().to_owned()));

    let seller = &doc.seller;
    let mut from: Vec<(Face, String)> = vec![(Face::Bold, seller.name.trim().to_owned())];
    from.extend(seller.address_lines.iter().map(|l| (Face::Regular, l.trim().to_owned())));
    for (label, value) in [("KvK ", &seller.kvk_number), ("Btw-nummer ", &seller.btw_number), ("", &seller.email), ("IBAN ", &seller.iban)]
    {
        if !value.trim().is_empty() {
            from.push((Face::Regular, format!("{label}{}", value.trim())));
        }
    }

    let blocks_top = 45.0;
    let mut bottom: f32 = blocks_top;
    for (x, label, lines, width) in [(LEFT, "Factuur aan", &to, COLUMN - LEFT - 8.0), (COLUMN, "Van", &from, RIGHT - COLUMN)] {
        c.text(x, blocks_top, Face::Bold, 8.0, &MUTED, label);
        let mut y = blocks_top + 6.0;
        for (face, line) in lines.iter().filter(|(_, l)| !l.is_empty()) {
            for part in fonts.wrap(*face, 9.5, line, width) {
                c.text(x, y, *face, 9.5, &INK, &part);
                y += leading(9.5);
            }
        }
        bottom = bottom.max(y - leading(9.5));
    }

    // The invoice's number, date and reference on a band.
    let band_top = bottom + 9.0;
    c.rect(LEFT, band_top, RIGHT - LEFT, 15.0, &BAND);
    let reference_x = LEFT + 84.0;
    let reference_w = RIGHT - reference_x - 4.0;
    let reference_size = (9.5 * reference_w / fonts.width(Face::Regular, 9.5, &draft.reference)).min(9.5);
    for (x, label, value, face, size) in [
        (LEFT + 4.0, "Factuurnummer", doc.number.as_str(), Face::Bold, 9.5),
        (LEFT + 42.0, "Factuurdatum", &dutch_date(draft.date), Face::Regular, 9.5),
        (reference_x, "Referentie", draft.reference.as_str(), Face::Regular, reference_size),
    ] {
        c.text(x, band_top + 5.5, Face::Regular, 7.5, &MUTED, label);
        c.text(x, band_top + 11.0, face, size, &INK, value);
    }
    let mut y = band_top + 15.0;
    if let (Some(refers_to), Some(credits)) = (draft.kind.refers_to(), draft.credits.as_ref()) {
        y += 7.0;
        let text = format!("{refers_to} {} van {}", credits.number, dutch_date(credits.date));
        c.text(LEFT, y, Face::Regular, 9.5, &INK, &text);
        y += 1.0;
    }

    // The lines.
    y += 12.0;
    y = table_header(&mut c, y);
    let amounts = line_excl_cents(draft);
    for (line, excl) in draft.lines.iter().zip(amounts) {
        let (description, period) = describe(fonts, line);
        let height = 4.5 + leading(9.5) * (description.len() - 1) as f32 + (leading(8.0) + 0.2) * period.len() as f32 + 3.0;
        if y + height > CONTENT_BOTTOM {
            y = next_page(&mut c, doc);
        }
        let first = y + 4.5;
        let mut last = first;
        for (i, part) in description.iter().enumerate() {
            last = first + i as f32 * leading(9.5);
            c.text(DESC_X, last, Face::Regular, 9.5, &INK, part);
        }
        for part in &period {
            last += leading(8.0) + 0.2;
            c.text(DESC_X, last, Face::Regular, 8.0, &MUTED, part);
        }
        if line.quantity != 0 {
            c.text_right(QTY_R, first, Face::Regular, 9.5, &INK, &users(line.quantity));
            if let Some(unit) = excl.each_of(line.quantity) {
                c.text_right(UNIT_R, first, Face::Regular, 9.5, &INK, &euros(unit));
            }
        }
        c.text_right(VAT_R, first, Face::Regular, 9.5, &INK, &format!("{}%", money::VAT_PERCENT));
        c.text_right(AMOUNT_R, first, Face::Regular, 9.5, &INK, &euros(excl));
        y = last + 3.0;
        c.rule(LEFT, RIGHT, y, 0.4, &RULE);
    }

    // The totals and how it was paid, together on the last page.
    let mut notes: Vec<(&str, String)> = Vec::new();
    match (draft.kind, &draft.paid) {
        (InvoiceKind::Invoice, Some(paid)) => {
            notes.push(("Betaald", format!(" op {} (transactie {})", dutch_date(paid.date), paid.transaction_id)));
        }
        (InvoiceKind::Credit, paid) => {
            if let Some(paid) = paid {
                notes.push(("Terugbetaald", format!(" op {} (transactie {})", dutch_date(paid.date), paid.transaction_id)));
            }
            notes.push(("", "Het bedrag wordt verrekend met de oorspronkelijke betaling.".to_owned()));
        }
        (InvoiceKind::Reversal, _) => {
            notes.push(("", "De terugbetaling is ingetrokken: dit bedrag is voldaan met de oorspronkelijke betaling.".to_owned()));
        }
        (InvoiceKind::Invoice, None) => {}
    }
    let email = seller.email.trim();
    let closing = 24.0 + if notes.is_empty() { 0.0 } else { 17.0 + 5.2 * notes.len() as f32 } + if email.is_empty() { 0.0 } else { 8.0 };
    if y + closing > CONTENT_BOTTOM {
        y = next_page(&mut c, doc);
    }
    let totals = draft.totals();
    y += 8.0;
    c.text(COLUMN, y, Face::Regular, 9.5, &INK, "Totaal excl. btw");
    c.text_right(AMOUNT_R, y, Face::Regular, 9.5, &INK, &euros(totals.excl_vat));
    y += 6.0;
    c.text(COLUMN, y, Face::Regular, 9.5, &INK, &format!("Btw {}%", money::VAT_PERCENT));
    c.text_right(AMOUNT_R, y, Face::Regular, 9.5, &INK, &euros(totals.vat));
    y += 3.5;
    c.rule(COLUMN, RIGHT, y, 0.8, &INK);
    y += 6.5;
    c.text(COLUMN, y, Face::Bold, 11.0, &ACCENT, "Totaal incl. btw");
    c.text_right(AMOUNT_R, y, Face::Bold, 11.0, &ACCENT, &euros(totals.gross));

    if !notes.is_empty() {
        y += 12.0;
        let height = 5.0 + 5.2 * notes.len() as f32;
        c.rect(LEFT, y, RIGHT - LEFT, height, &ACCENT_TINT);
        c.rect(LEFT, y, 1.2, height, &ACCENT);
        let mut text_y = y + 6.2;
        for (strong, rest) in &notes {
            let x = LEFT + 5.0;
            c.text(x, text_y, Face::Bold, 9.5, &ACCENT, strong);
            c.text(x + fonts.width(Face::Bold, 9.5, strong), text_y, Face::Regular, 9.5, &INK, rest);
            text_y += 5.2;
        }
        y += height;
    }
    if !email.is_empty() {
        y += 8.0;
        c.text(LEFT, y, Face::Regular, 8.5, &MUTED, &format!("Vragen over deze factuur? Mail naar {email}."));
    }

    // The footer on every page.
    let mut footer: Vec<String> = vec![seller.name.trim().to_owned()];
    if !seller.kvk_number.trim().is_empty() {
        footer.push(format!("KvK {}", seller.kvk_number.trim()));
    }
    if !seller.btw_number.trim().is_empty() {
        footer.push(format!("Btw-nummer {}", seller.btw_number.trim()));
    }
    footer.push(email.to_owned());
    footer.retain(|s| !s.is_empty());
    let total = c.pages.len();
    for i in 0..total {
        let mut parts = footer.clone();
        if total > 1 {
            parts.push(format!("pagina {} van {total}", i + 1));
        }
        let text = parts.join("  ·  ");
        c.current = i;
        c.rule(LEFT, RIGHT, FOOTER_RULE, 0.4, &RULE);
        let x = (PAGE_W - fonts.width(Face::Regular, 7.5, &text)) / 2.0;
        c.text(x.max(LEFT), FOOTER_TEXT, Face::Regular, 7.5, &MUTED, &text);
    }
    let pages = c.pages.into_iter().map(|ops| PdfPage::new(Mm(PAGE_W), Mm(PAGE_H), ops)).collect();
    pdf.with_pages(pages).save(&PdfSaveOptions::default(), &mut Vec::new())
}

/// The description's lines and the period's, wrapped to the column.
fn describe(fonts: &Fonts, line: &InvoiceLine) -> (Vec<String>, Vec<String>) {
    let mut description = fonts.wrap(Face::Regular, 9.5, &line.description, DESC_W);
    if description.is_empty() {
        description.push(String::new());
    }
    let period = match line.period {
        Some((first, last)) => fonts.wrap(Face::Regular, 8.0, &format!("Periode: {} t/m {}", dutch_date(first), dutch_date(last)), DESC_W),
        None => Vec::new(),
    };
    (description, period)
}

/// The table's column heads with a rule under them, from `top`; returns where the rows start.
fn table_header(c: &mut Canvas<'_>, top: f32) -> f32 {
    c.text(DESC_X, top, Face::Bold, 8.0, &MUTED, "Omschrijving");
    for (right, label) in [(QTY_R, "Aantal"), (UNIT_R, "Prijs excl. btw"), (VAT_R, "Btw"), (AMOUNT_R, "Bedrag excl. btw")] {
        c.text_right(right, top, Face::Bold, 8.0, &MUTED, label);
    }
    c.rule(LEFT, RIGHT, top + 2.8, 0.8, &INK);
    top + 2.8 + 1.5
}

/// Starts a page that continues the table; returns where its rows start.
fn next_page(c: &mut Canvas<'_>, doc: &InvoiceDocument) -> f32 {
    c.pages.push(Vec::new());
    c.current = c.pages.len() - 1;
    c.rect(0.0, 0.0, PAGE_W, 2.5, &ACCENT);
    c.text(LEFT, 22.0, Face::Bold, 12.0, &ACCENT, "Spreekkamer");
    c.text_right(RIGHT, 22.0, Face::Regular, 9.5, &MUTED, &format!("{} {} (vervolg)", doc.draft.kind.title(), doc.number));
    table_header(c, 36.0)
}

#[cfg(test)]
mod tests {
    use chrono::NaiveDate;

    use super::*;
    use crate::billing::Address;
    use crate::billing::invoices::Buyer;

    fn draft(kind: InvoiceKind, grosses: &[i64]) -> InvoiceDraft {
        InvoiceDraft {
            kind,
            reference: "r".into(),
            date: NaiveDate::from_ymd_opt(2026, 11, 25).unwrap(),
            buyer: Buyer {
                customer_id: "u1".into(),
                address: Address {
                    practice_name: String::new(),
                    contact_name: "Anne de Vries".into(),
                    street_address: "Hoofdstraat".into(),
                    house_number: "12".into(),
                    house_number_addition: String::new(),
                    postcode: "1234AB".into(),
                    city: "Utrecht".into(),
                    phone_number: String::new(),
                    kvk_number: String::new(),
                },
                email: "a@example.nl".into(),
            },
            lines: grosses
                .iter()
                .map(|&gross| InvoiceLine { description: "x".into(), quantity: 1, gross_cents: Cents(gross), period: None })
                .collect(),
            paid: None,
            credits: None,
        }
    }

    #[test]
    fn invoice_lines_excl_amounts_add_up_to_the_total_excl() {
        for grosses in [
            vec![],
            vec![1],
            vec![1, 1, 1],
            vec![1; 7],
            // 1.82 each: 150.41 rounds down; 1.81 each: 149.59 rounds up
            vec![182, 182, 182],
            vec![181, 181, 181],
            vec![6051, 6051, 6051, 6051],
            vec![4900, 55860, 1],
            vec![-1, -1, -1],
            vec![-181, -181, -181],
            vec![9800, -4900],
        ] {
            for kind in [InvoiceKind::Invoice, InvoiceKind::Credit, InvoiceKind::Reversal] {
                let d = draft(kind, &grosses);
                let amounts = line_excl_cents(&d);
                assert_eq!(amounts.len(), grosses.len());
                assert_eq!(amounts.iter().copied().sum::<Cents>(), d.totals().excl_vat, "{grosses:?}");
                // only the last line differs from its own split, and by the rounding only
                for (i, (&gross, &excl)) in grosses.iter().zip(&amounts).enumerate() {
                    if i + 1 < grosses.len() {
                        assert_eq!(excl, money::excl_vat(Cents(gross)));
                    } else {
                        assert!((excl - money::excl_vat(Cents(gross))).0.abs() <= grosses.len() as i64, "{grosses:?}");
                    }
                }
            }
        }
        // three lines that each round up add up to one cent more than their total's split
        assert_eq!(line_excl_cents(&draft(InvoiceKind::Invoice, &[181, 181, 181])), [150, 150, 149].map(Cents));
        assert_eq!(line_excl_cents(&draft(InvoiceKind::Invoice, &[1, 1, 1])), [1, 1, 0].map(Cents));
    }

    #[test]
    fn invoice_text_wraps_within_the_width() {
        FONTS.with(|fonts| {
            let text = "Spreekkamer Praktijk, maandabonnement voor de hele praktijk met alle modules en ondersteuning";
            let lines = fonts.wrap(Face::Regular, 9.5, text, DESC_W);
            assert!(lines.len() > 1);
            assert_eq!(lines.join(" "), text);
            for l in &lines {
                assert!(fonts.width(Face::Regular, 9.5, l) <= DESC_W, "{l}");
            }
            let long = "x".repeat(200);
            assert!(fonts.wrap(Face::Regular, 9.5, &long, DESC_W).len() > 1);
            // digits are as wide as each other, so amounts line up on the right
            assert_eq!(fonts.width(Face::Regular, 9.5, "0"), fonts.width(Face::Regular, 9.5, "8"));
            assert!(fonts.width(Face::Bold, 10.0, "Factuur") > fonts.width(Face::Regular, 10.0, "Factuur"));
        });
    }
}
