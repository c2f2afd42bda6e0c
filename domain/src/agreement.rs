//! The user agreement ('gebruikersovereenkomst'): its text, kept in the repository, and the PDF
//! made from it with its version and date on every page.

use printpdf::{FontId, Mm, Op, ParsedFont, PdfDocument, PdfPage, PdfSaveOptions, Point, Pt, TextItem};

use crate::users::AGREEMENT_VERSION;

/// The text of the version in force: `#` a title, `##` a heading, other lines paragraphs.
pub const TEXT: &str = include_str!("../data/agreement/overeenkomst_v1.txt");
/// The date of the version in force, as it is printed.
pub const DATE: &str = "21 november 2026";

const PAGE_W: f32 = 210.0;
const PAGE_H: f32 = 297.0;
const MARGIN: f32 = 22.0;
const BODY_PT: f32 = 10.5;
/// DejaVu Sans at 10.5 pt fits about this many characters in the 166 mm between the margins.
const LINE_CHARS: usize = 86;

/// The file name the SPA downloads (`/files/overeenkomst_v1.pdf`).
pub fn file_name() -> String {
    format!("overeenkomst_v{AGREEMENT_VERSION}.pdf")
}

enum Block<'a> {
    Title(&'a str),
    Heading(&'a str),
    Paragraph(&'a str),
}

fn blocks(text: &str) -> Vec<Block<'_>> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| {
            if let Some(t) = l.strip_prefix("## ") {
                Block::Heading(t)
            } else if let Some(t) = l.strip_prefix("# ") {
                Block::Title(t)
            } else {
                Block::Paragraph(l)
            }
        })
        .collect()
}

/// Breaks a paragraph into lines of at most `width` characters, at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// DejaVu Sans (free licence, `data/agreement/fonts/LICENSE`), embedded: the built-in PDF fonts
/// of printpdf 0.8 write accented letters (patiënt) as UTF-8 bytes, which readers show garbled.
const FONT: &[u8] = include_bytes!("../data/agreement/fonts/DejaVuSans.ttf");

/// Lays the text out on A4 pages: the title, then under it and in every page's footer the
/// version and date.
pub fn pdf() -> Vec<u8> {
    let stamp = format!("Versie {AGREEMENT_VERSION}, {DATE}");
    let mut doc = PdfDocument::new("Gebruikersovereenkomst Spreekkamer");
    let font = ParsedFont::from_bytes(FONT, 0, &mut Vec::new()).expect("the embedded font parses");
    let font = doc.add_font(&font);
    // (size, text, space before) per line
    let mut lines: Vec<(f32, String, f32)> = Vec::new();
    for block in blocks(TEXT) {
        match block {
            Block::Title(t) => {
                lines.push((18.0, t.to_owned(), 0.0));
                lines.push((10.0, stamp.clone(), 3.0));
            }
            Block::Heading(t) => lines.push((12.5, t.to_owned(), 6.0)),
            Block::Paragraph(t) => {
                for (i, l) in wrap(t, LINE_CHARS).into_iter().enumerate() {
                    lines.push((BODY_PT, l, if i == 0 { 2.5 } else { 0.0 }));
                }
            }
        }
    }
    let mut pages: Vec<Vec<Op>> = vec![Vec::new()];
    let mut y = PAGE_H - MARGIN;
    for (size, text, before) in lines {
        let height = size * 0.3528 * 1.45 + before;
        if y - height < MARGIN + 10.0 {
            pages.push(Vec::new());
            y = PAGE_H - MARGIN;
        }
        y -= height;
        write(pages.last_mut().expect("a page"), &font, size, MARGIN, y, text);
    }
    let total = pages.len();
    let pages: Vec<PdfPage> = pages
        .into_iter()
        .enumerate()
        .map(|(i, mut ops)| {
            let footer = format!("Gebruikersovereenkomst Spreekkamer, {stamp} - pagina {} van {total}", i + 1);
            write(&mut ops, &font, 8.0, MARGIN, MARGIN - 8.0, footer);
            PdfPage::new(Mm(PAGE_W), Mm(PAGE_H), ops)
        })
        .collect();
    doc.with_pages(pages).save(&PdfSaveOptions::default(), &mut Vec::new())
}

fn write(ops: &mut Vec<Op>, font: &FontId, size: f32, x: f32, y: f32, text: String) {
    ops.extend([
        Op::StartTextSection,
        Op::SetTextCursor { pos: Point::new(Mm(x), Mm(y)) },
        Op::SetFontSize { size: Pt(size), font: font.clone() },
        Op::WriteText { items: vec![TextItem::Text(text)], font: font.clone() },
        Op::EndTextSection,
    ]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_break_at_spaces_within_the_width() {
        let lines = wrap("een twee drie vier vijf", 9);
        assert_eq!(lines, vec!["een twee", "drie vier", "vijf"]);
        assert!(wrap("", 10).is_empty());
    }

    /// Read back with poppler's `pdftotext` (Debian package poppler-utils), as a PDF reader
    /// would.
    #[test]
    fn the_pdf_opens_and_holds_the_text_version_and_date() {
        let bytes = pdf();
        assert!(bytes.starts_with(b"%PDF"));
        let path = std::env::temp_dir().join(format!("overeenkomst-{}.pdf", std::process::id()));
        std::fs::write(&path, &bytes).unwrap();
        let out = std::process::Command::new("pdftotext")
            .arg(&path)
            .arg("-")
            .output()
            .expect("pdftotext (Debian package poppler-utils) must be installed");
        let _ = std::fs::remove_file(&path);
        assert!(out.status.success(), "pdftotext could not read the PDF");
        let text = String::from_utf8(out.stdout).unwrap();
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.starts_with("Gebruikersovereenkomst Spreekkamer"), "{flat}");
        assert!(flat.contains(&format!("Versie {AGREEMENT_VERSION}, {DATE}")));
        assert!(flat.contains("Jij blijft verantwoordelijk"));
        assert!(flat.contains("tussen jou en je patiënt om"), "accents survive");
        assert!(flat.contains("pagina 1 van"), "the footer");
        for heading in ["1. Wat Spreekkamer doet", "9. Recht en geschillen"] {
            assert!(flat.contains(heading), "{heading}");
        }
    }
}
