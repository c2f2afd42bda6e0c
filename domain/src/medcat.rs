//! Text analysis: medicines and problems found in a clinical text, and the medicines of a text
//! that are on the shortage list.
//!
//! The finding is a lexicon lookup, not a language model:
//! - medicines from `data/medcat/medications-nl.json` (generic names and well-known brands of the
//!   medicines Dutch GPs prescribe most, each with its ATC code and generic name);
//! - problems from the ICPC list the repository ships and its Dutch synonyms
//!   (`data/icpc/synonyms-nl.json`), each with its ICPC code.
//!
//! Matching ignores case and accents, takes whole words only (`paracetamolgebruik` is not
//! `paracetamol`), prefers the longest term (`amoxicilline met clavulaanzuur` over
//! `amoxicilline`), never overlaps, and lets the words of a term be separated by spaces, hyphens,
//! slashes or commas on one line. A problem's last word may carry a plural `-s` or `-en`
//! (`infecties`, `wonden`) when it is five letters or longer; other inflections are not
//! recognised. Negations are not detected: "geen koorts" yields koorts.
//!
//! Positions are in UTF-16 code units, as JavaScript strings count them, so the SPA can
//! `text.slice(start, end)`.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::LazyLock;

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use unicode_normalization::char::is_combining_mark;

use crate::icpc;
use crate::text::normalize;

/// The longest text analysed, in characters.
pub const MAX_TEXT_CHARS: usize = 20_000;

/// One medicine of the lexicon.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Medicine {
    /// ATC code: the substance (`N02BE01`), or a group where a name covers several (`A10A`).
    pub atc: String,
    /// The generic Dutch name.
    pub label: String,
    /// Every name the medicine is found by: the generic name and brands.
    pub names: Vec<String>,
}

static MEDICINES: LazyLock<Vec<Medicine>> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../data/medcat/medications-nl.json")).expect("the embedded medicine lexicon parses")
});

/// The medicines of the lexicon.
pub fn medicines() -> &'static [Medicine] {
    &MEDICINES
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Medication,
    Problem,
}

/// A term found in a text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Annotation {
    /// Where the term starts, in UTF-16 code units.
    pub start: usize,
    /// Where it ends (exclusive), in UTF-16 code units.
    pub end: usize,
    /// The text as written.
    pub text: String,
    pub kind: Kind,
    /// The ATC code of a medicine, the ICPC code of a problem (`K86`).
    pub code: String,
    /// The generic name of a medicine, the ICPC title of a problem.
    pub label: String,
}

struct Term {
    tokens: Vec<String>,
    kind: Kind,
    code: String,
    label: String,
}

impl Term {
    /// Whether the last word may carry a plural ending.
    fn inflects(&self) -> bool {
        self.kind == Kind::Problem && self.tokens.last().is_some_and(|t| t.chars().count() >= 5)
    }
}

struct Lexicon {
    terms: Vec<Term>,
    /// Terms by their first word, longest first.
    by_first: HashMap<String, Vec<usize>>,
}

/// Words too general to stand for a problem on their own.
const VAGUE_TITLE_WORDS: [&str; 8] = ["ander", "andere", "anders", "overig", "overige", "nao", "gespecificeerd", "klachten"];

static LEXICON: LazyLock<Lexicon> = LazyLock::new(|| {
    let mut terms: Vec<Term> = Vec::new();
    let mut seen: HashSet<Vec<String>> = HashSet::new();
    let mut add = |phrase: &str, kind: Kind, code: &str, label: &str| {
        let tokens = tokens_of(phrase);
        if tokens.is_empty() || !seen.insert(tokens.clone()) {
            return;
        }
        terms.push(Term { tokens, kind, code: code.to_owned(), label: label.to_owned() });
    };
    for m in medicines() {
        for name in &m.names {
            add(name, Kind::Medication, &m.atc, &m.label);
        }
    }
    let codes: HashMap<String, &icpc::Code> = icpc::embedded().iter().filter(|c| c.category != "-").map(|c| (c.id(), c)).collect();
    let synonyms: BTreeMap<String, Vec<String>> =
        serde_json::from_str(include_str!("../data/icpc/synonyms-nl.json")).expect("the embedded synonym list parses");
    for (id, phrases) in &synonyms {
        if let Some(code) = codes.get(id) {
            for phrase in phrases {
                add(phrase, Kind::Problem, id, &code.official_title);
            }
        }
    }
    for code in icpc::embedded().iter().filter(|c| c.category != "-") {
        for title in [&code.patient_title, &code.official_title] {
            let tokens = tokens_of(title);
            let plain = !title.contains(['/', '(', ';']) && tokens.len() <= 4;
            if plain && !tokens.iter().any(|t| VAGUE_TITLE_WORDS.contains(&t.as_str())) {
                add(title, Kind::Problem, &code.id(), &code.official_title);
            }
        }
    }
    let mut by_first: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, term) in terms.iter().enumerate() {
        by_first.entry(term.tokens[0].clone()).or_default().push(i);
    }
    for ids in by_first.values_mut() {
        ids.sort_by_key(|&i| std::cmp::Reverse(terms[i].tokens.len()));
    }
    Lexicon { terms, by_first }
});

/// A word of a text: its place in bytes and in UTF-16 units, and its normalised form.
struct Word {
    start: usize,
    end: usize,
    start16: usize,
    end16: usize,
    norm: String,
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c)
}

fn words_of(text: &str) -> Vec<Word> {
    let mut words = Vec::new();
    let mut current: Option<(usize, usize)> = None;
    let mut pos16 = 0;
    for (i, c) in text.char_indices() {
        if is_word_char(c) {
            current.get_or_insert((i, pos16));
        } else if let Some((start, start16)) = current.take() {
            words.push(Word { start, end: i, start16, end16: pos16, norm: normalize(&text[start..i]) });
        }
        pos16 += c.len_utf16();
    }
    if let Some((start, start16)) = current {
        words.push(Word { start, end: text.len(), start16, end16: pos16, norm: normalize(&text[start..]) });
    }
    words
}

fn tokens_of(phrase: &str) -> Vec<String> {
    words_of(phrase).into_iter().map(|w| w.norm).filter(|w| !w.is_empty()).collect()
}

/// Whether two neighbouring words of a text may belong to one term: only spaces, hyphens,
/// slashes and commas between them, on one line.
fn joinable(text: &str, a: &Word, b: &Word) -> bool {
    text[a.end..b.start]
        .chars()
        .all(|c| matches!(c, '-' | '/' | ',' | '\u{2010}' | '\u{2013}') || (c.is_whitespace() && c != '\n' && c != '\r'))
}

fn token_matches(token: &str, word: &str, inflect: bool) -> bool {
    token == word || (inflect && (word.strip_suffix('s') == Some(token) || word.strip_suffix("en") == Some(token)))
}

/// The term starting at word `i`, if any: the longest; a medicine before a problem.
fn match_at(lexicon: &Lexicon, text: &str, words: &[Word], i: usize) -> Option<(usize, usize)> {
    let word = &words[i].norm;
    let mut keys = vec![word.as_str()];
    keys.extend(word.strip_suffix('s'));
    keys.extend(word.strip_suffix("en"));
    let mut best: Option<(usize, usize)> = None;
    for key in keys {
        for &id in lexicon.by_first.get(key).into_iter().flatten() {
            let term = &lexicon.terms[id];
            let n = term.tokens.len();
            if i + n > words.len() {
                continue;
            }
            let fits = term.tokens.iter().enumerate().all(|(k, token)| {
                let inflect = k == n - 1 && term.inflects();
                token_matches(token, &words[i + k].norm, inflect) && (k == 0 || joinable(text, &words[i + k - 1], &words[i + k]))
            });
            if !fits {
                continue;
            }
            let better = match best {
                None => true,
                Some((best_id, best_n)) => {
                    n > best_n || (n == best_n && term.kind == Kind::Medication && lexicon.terms[best_id].kind == Kind::Problem)
                }
            };
            if better {
                best = Some((id, n));
            }
        }
    }
    best
}

/// The medicines and problems in a text, in order, without overlaps.
pub fn annotate(text: &str) -> Vec<Annotation> {
    let lexicon = &*LEXICON;
    let words = words_of(text);
    let mut annotations = Vec::new();
    let mut i = 0;
    while i < words.len() {
        match match_at(lexicon, text, &words, i) {
            Some((id, n)) => {
                let term = &lexicon.terms[id];
                let (first, last) = (&words[i], &words[i + n - 1]);
                annotations.push(Annotation {
                    start: first.start16,
                    end: last.end16,
                    text: text[first.start..last.end].to_owned(),
                    kind: term.kind,
                    code: term.code.clone(),
                    label: term.label.clone(),
                });
                i += n;
            }
            None => i += 1,
        }
    }
    annotations
}

/// An entry of the medicine shortage list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct Shortage {
    /// The name as the list gives it.
    pub name: String,
    pub atc: Option<String>,
    pub status: String,
    pub since: NaiveDate,
    pub advice: String,
}

/// A shortage-list entry whose medicine occurs in a text, and where (UTF-16 code units).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShortageHit<'a> {
    pub entry: &'a Shortage,
    pub start: usize,
    pub end: usize,
}

/// Whether an ATC code has the shape of one of its levels: `A`, `A10`, `A10B`, `A10BA`, `A10BA02`.
pub fn is_atc(code: &str) -> bool {
    let c: Vec<char> = code.chars().collect();
    let letter = |i: usize| c[i].is_ascii_uppercase();
    let digit = |i: usize| c[i].is_ascii_digit();
    match c.len() {
        1 => letter(0),
        3 => letter(0) && digit(1) && digit(2),
        4 => letter(0) && digit(1) && digit(2) && letter(3),
        5 => letter(0) && digit(1) && digit(2) && letter(3) && letter(4),
        7 => letter(0) && digit(1) && digit(2) && letter(3) && letter(4) && digit(5) && digit(6),
        _ => false,
    }
}

/// The words a shortage entry is found by in a text: its name up to the first word that starts
/// with a digit (`Paracetamol 500 mg tablet` is found as `paracetamol`).
fn name_tokens(name: &str) -> Vec<String> {
    tokens_of(name).into_iter().take_while(|t| !t.starts_with(|c: char| c.is_ascii_digit())).collect()
}

/// The entries of `list` whose medicine the text names: by ATC code, through the lexicon (an
/// entry's code equal to the medicine's, or the group it belongs to), and by the entry's own
/// name. In text order; an entry found twice at one place counts once.
pub fn find_shortages<'a>(text: &str, list: &'a [Shortage]) -> Vec<ShortageHit<'a>> {
    let mut hits: Vec<(usize, usize, usize)> = Vec::new();
    for a in annotate(text).iter().filter(|a| a.kind == Kind::Medication) {
        for (e, entry) in list.iter().enumerate() {
            if entry.atc.as_deref().is_some_and(|atc| a.code.starts_with(atc)) {
                hits.push((a.start, e, a.end));
            }
        }
    }
    let words = words_of(text);
    for (e, entry) in list.iter().enumerate() {
        let tokens = name_tokens(&entry.name);
        if tokens.is_empty() {
            continue;
        }
        for i in 0..words.len() {
            let n = tokens.len();
            let fits = i + n <= words.len()
                && tokens
                    .iter()
                    .enumerate()
                    .all(|(k, t)| words[i + k].norm == *t && (k == 0 || joinable(text, &words[i + k - 1], &words[i + k])));
            if fits {
                hits.push((words[i].start16, e, words[i + n - 1].end16));
            }
        }
    }
    hits.sort_unstable();
    hits.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
    hits.into_iter().map(|(start, e, end)| ShortageHit { entry: &list[e], start, end }).collect()
}

/// What is wrong with one line of an uploaded list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LineError {
    /// The line number in the file, from 1 (the header is line 1).
    pub line: usize,
    /// In Dutch.
    pub reason: String,
}

/// The columns of the shortage file, in any order.
pub const COLUMNS: [&str; 5] = ["naam", "atc", "status", "sinds", "advies"];

/// The most entries one file may hold.
pub const MAX_ENTRIES: usize = 20_000;

/// An uploaded file as text: UTF-8 (a byte-order mark is dropped), or else Windows-1252, which
/// spreadsheet programs write on Dutch systems.
pub fn decode_upload(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.trim_start_matches('\u{feff}').to_owned(),
        Err(_) => bytes.iter().map(|&b| windows_1252(b)).collect(),
    }
}

fn windows_1252(b: u8) -> char {
    const HIGH: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž', '\u{8f}', '\u{90}', '‘', '’', '“', '”', '•',
        '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}', 'ž', 'Ÿ',
    ];
    match b {
        0x80..=0x9f => HIGH[(b - 0x80) as usize],
        _ => b as char,
    }
}

/// Splits CSV text into records with the line each starts on; quoted fields may hold the
/// separator, doubled quotes and line breaks. Blank lines are skipped.
fn records(text: &str, separator: char) -> Vec<(usize, Vec<String>)> {
    let mut out = Vec::new();
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut line = 1;
    let mut start_line = 1;
    let mut chars = text.chars().peekable();
    let finish = |fields: &mut Vec<String>, start_line: usize, out: &mut Vec<(usize, Vec<String>)>| {
        let record = std::mem::replace(fields, vec![String::new()]);
        if !(record.len() == 1 && record[0].trim().is_empty()) {
            out.push((start_line, record));
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().expect("a field").push('"');
            }
            '"' => quoted = !quoted,
            '\n' | '\r' if !quoted => {
                if c == '\r' && chars.peek() == Some(&'\n') {
                    chars.next();
                }
                finish(&mut fields, start_line, &mut out);
                line += 1;
                start_line = line;
            }
            c if c == separator && !quoted => fields.push(String::new()),
            c => {
                if c == '\n' {
                    line += 1;
                }
                fields.last_mut().expect("a field").push(c);
            }
        }
    }
    finish(&mut fields, start_line, &mut out);
    out
}

fn parse_date(raw: &str) -> Option<NaiveDate> {
    let b = raw.as_bytes();
    if b.len() != 10 {
        return None;
    }
    if b[4] == b'-' && b[7] == b'-' {
        NaiveDate::parse_from_str(raw, "%Y-%m-%d").ok()
    } else if b[2] == b'-' && b[5] == b'-' {
        NaiveDate::parse_from_str(raw, "%d-%m-%Y").ok()
    } else {
        None
    }
}

/// Reads a shortage list: a header line `naam;atc;status;sinds;advies` (the columns in any
/// order, `;` or `,` between them, fields quoted where needed), then one medicine per line.
/// `sinds` is `YYYY-MM-DD` or `DD-MM-YYYY`; `atc` may be empty; `advies` may be empty.
/// Every bad line is reported, with its number and what is wrong.
pub fn parse_shortages(text: &str) -> Result<Vec<Shortage>, Vec<LineError>> {
    let first_line = text.lines().next().unwrap_or("");
    let separator = if first_line.contains(';') { ';' } else { ',' };
    let mut records = records(text, separator).into_iter();
    let header_problem = || LineError { line: 1, reason: format!("de eerste regel moet de kolomnamen geven: {}", COLUMNS.join(";")) };
    let Some((header_line, header)) = records.next() else {
        return Err(vec![LineError { line: 1, reason: "het bestand is leeg".to_owned() }]);
    };
    let names: Vec<String> = header.iter().map(|h| h.trim().to_lowercase()).collect();
    let mut index = [0usize; 5];
    for (k, column) in COLUMNS.iter().enumerate() {
        let found: Vec<usize> = names.iter().enumerate().filter(|(_, n)| n == column).map(|(i, _)| i).collect();
        if found.len() != 1 || names.len() != COLUMNS.len() {
            return Err(vec![LineError { line: header_line, ..header_problem() }]);
        }
        index[k] = found[0];
    }
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    for (line, fields) in records {
        if fields.len() != COLUMNS.len() {
            errors.push(LineError { line, reason: format!("{} velden gevonden, {} verwacht", fields.len(), COLUMNS.len()) });
            continue;
        }
        let field = |k: usize| fields[index[k]].trim();
        let mut reasons: Vec<String> = Vec::new();
        let name = field(0);
        if name.is_empty() {
            reasons.push("de naam ontbreekt".to_owned());
        } else if name.chars().count() > 200 {
            reasons.push("de naam is langer dan 200 tekens".to_owned());
        }
        let atc: String = field(1).chars().filter(|c| !c.is_whitespace()).collect::<String>().to_uppercase();
        if !atc.is_empty() && !is_atc(&atc) {
            reasons.push(format!("'{}' is geen ATC-code", field(1)));
        }
        let status = field(2);
        if status.is_empty() {
            reasons.push("de status ontbreekt".to_owned());
        } else if status.chars().count() > 100 {
            reasons.push("de status is langer dan 100 tekens".to_owned());
        }
        let since = parse_date(field(3));
        if since.is_none() {
            reasons.push(format!("'{}' is geen datum (JJJJ-MM-DD of DD-MM-JJJJ)", field(3)));
        }
        let advice = field(4);
        if advice.chars().count() > 2000 {
            reasons.push("het advies is langer dan 2000 tekens".to_owned());
        }
        match since {
            Some(since) if reasons.is_empty() => entries.push(Shortage {
                name: name.to_owned(),
                atc: (!atc.is_empty()).then_some(atc),
                status: status.to_owned(),
                since,
                advice: advice.to_owned(),
            }),
            _ => errors.push(LineError { line, reason: reasons.join("; ") }),
        }
    }
    if entries.len() > MAX_ENTRIES {
        errors.push(LineError { line: 1, reason: format!("meer dan {MAX_ENTRIES} regels") });
    }
    if errors.is_empty() { Ok(entries) } else { Err(errors) }
}

/// The list in force and when it was uploaded (none before the first upload).
pub async fn shortages(db: &PgPool) -> sqlx::Result<(Vec<Shortage>, Option<DateTime<Utc>>)> {
    let entries: Vec<Shortage> =
        sqlx::query_as!(Shortage, "select name, atc, status, since, advice from medicine_shortages order by position")
            .fetch_all(db)
            .await?;
    let uploaded_at: Option<DateTime<Utc>> = sqlx::query_scalar!("select max(uploaded_at) from medicine_shortages").fetch_one(db).await?;
    Ok((entries, uploaded_at))
}

/// Replaces the whole list in one transaction.
pub async fn replace_shortages(tx: &mut sqlx::PgConnection, entries: &[Shortage], uploaded_by: &str) -> sqlx::Result<()> {
    sqlx::query!("delete from medicine_shortages").execute(&mut *tx).await?;
    let positions: Vec<i32> = (1..=entries.len() as i32).collect();
    let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
    let atcs: Vec<Option<&str>> = entries.iter().map(|e| e.atc.as_deref()).collect();
    let statuses: Vec<&str> = entries.iter().map(|e| e.status.as_str()).collect();
    let since: Vec<NaiveDate> = entries.iter().map(|e| e.since).collect();
    let advice: Vec<&str> = entries.iter().map(|e| e.advice.as_str()).collect();
    sqlx::query!(
        "insert into medicine_shortages (position, name, atc, status, since, advice, uploaded_by)
         select p, n, a, s, d, v, $7 from unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::date[], $6::text[])
             as t(p, n, a, s, d, v)",
        &positions,
        &names as _,
        &atcs as _,
        &statuses as _,
        &since,
        &advice as _,
        uploaded_by,
    )
    .execute(&mut *tx)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(String, Kind, String)> {
        annotate(text).into_iter().map(|a| (a.text, a.kind, a.code)).collect()
    }

    #[test]
    fn the_lexicon_is_sound() {
        let mut names = HashSet::new();
        for m in medicines() {
            assert!(is_atc(&m.atc), "{}: {}", m.label, m.atc);
            assert!(!m.names.is_empty(), "{}", m.label);
            for name in &m.names {
                assert!(names.insert(tokens_of(name)), "{name} twice");
            }
        }
        assert!(medicines().len() >= 200);
        let code = |name: &str| medicines().iter().find(|m| m.names.iter().any(|n| n == name)).map(|m| m.atc.as_str());
        assert_eq!(code("paracetamol"), Some("N02BE01"));
        assert_eq!(code("ibuprofen"), Some("M01AE01"));
        assert_eq!(code("amoxicilline"), Some("J01CA04"));
        assert_eq!(code("metformine"), Some("A10BA02"));
        assert_eq!(code("augmentin"), Some("J01CR02"));
    }

    #[test]
    fn medicines_and_problems_are_found_whole_longest_and_without_overlap() {
        let text = "Pt gebruikt Amoxicilline met clavulaanzuur en paracetamolgebruik; nu koorts en HOOFDPIJN.";
        assert_eq!(
            found(text),
            vec![
                ("Amoxicilline met clavulaanzuur".to_owned(), Kind::Medication, "J01CR02".to_owned()),
                ("koorts".to_owned(), Kind::Problem, "A03".to_owned()),
                ("HOOFDPIJN".to_owned(), Kind::Problem, "N01".to_owned()),
            ]
        );
    }

    #[test]
    fn accents_and_brands_are_found() {
        let a = annotate("Start nitrofurantoine, eerder Nurofen en codeïne");
        let codes: Vec<&str> = a.iter().map(|a| a.code.as_str()).collect();
        assert_eq!(codes, ["J01XE01", "M01AE01", "R05DA04"]);
        assert_eq!(a[0].label, "nitrofurantoïne");
        assert_eq!(a[1].label, "ibuprofen");
    }

    #[test]
    fn offsets_are_utf16_code_units() {
        let text = "😀 Patiënt: paracetamol";
        let a = &annotate(text)[0];
        let units: Vec<u16> = text.encode_utf16().collect();
        assert_eq!(String::from_utf16(&units[a.start..a.end]).unwrap(), "paracetamol");
        assert_eq!((a.start, a.end), (12, 23));
        // a decomposed accent stays inside its word
        let decomposed = "e\u{301}e\u{301}n ibuprofen";
        let b = &annotate(decomposed)[0];
        assert_eq!((b.start, b.end, b.text.as_str()), (6, 15, "ibuprofen"));
    }

    #[test]
    fn a_plural_counts_for_a_problem_but_terms_stay_on_one_line() {
        assert_eq!(
            found("twee blaasontstekingen en migraines"),
            vec![
                ("blaasontstekingen".to_owned(), Kind::Problem, "U71".to_owned()),
                ("migraines".to_owned(), Kind::Problem, "N89".to_owned()),
            ]
        );
        // a medicine takes no plural ending
        assert!(found("paracetamols").is_empty());
        assert_eq!(found("paracetamol met codeïne")[0].2, "N02AJ06");
        let split = found("paracetamol met\ncodeïne");
        assert_eq!((split[0].0.as_str(), split[0].2.as_str()), ("paracetamol", "N02BE01"));
        assert_eq!(split[1].2, "R05DA04");
    }

    #[test]
    fn shortages_are_found_by_atc_and_by_name() {
        let list = vec![
            Shortage {
                name: "Paracetamol 500 mg tablet".into(),
                atc: Some("N02BE01".into()),
                status: "tekort".into(),
                since: NaiveDate::from_ymd_opt(2025, 1, 2).unwrap(),
                advice: "".into(),
            },
            Shortage {
                name: "Zeldzamol".into(),
                atc: None,
                status: "beperkt".into(),
                since: NaiveDate::from_ymd_opt(2025, 1, 3).unwrap(),
                advice: "overleg".into(),
            },
            Shortage {
                name: "Iets".into(),
                atc: Some("C10AA".into()),
                status: "tekort".into(),
                since: NaiveDate::from_ymd_opt(2025, 1, 3).unwrap(),
                advice: "".into(),
            },
        ];
        let hits = find_shortages("Panadol en zeldzamol, daarna simvastatine; ibuprofen", &list);
        let seen: Vec<(&str, usize, usize)> = hits.iter().map(|h| (h.entry.name.as_str(), h.start, h.end)).collect();
        assert_eq!(seen, [("Paracetamol 500 mg tablet", 0, 7), ("Zeldzamol", 11, 20), ("Iets", 29, 41)]);
        // found by ATC and by name at one place: once
        assert_eq!(find_shortages("paracetamol", &list).len(), 1);
    }

    #[test]
    fn a_good_file_is_read_with_either_separator_and_quotes() {
        let csv = "naam;atc;status;sinds;advies\r\nParacetamol 500 mg;n02be01;tekort;2025-03-01;\"Kies; een ander\"\n\nInsuline;;beperkt;01-02-2025;\"zeg \"\"nee\"\"\nof ja\"\n";
        let list = parse_shortages(csv).unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].atc.as_deref(), Some("N02BE01"));
        assert_eq!(list[0].advice, "Kies; een ander");
        assert_eq!(list[1].since, NaiveDate::from_ymd_opt(2025, 2, 1).unwrap());
        assert_eq!(list[1].atc, None);
        assert_eq!(list[1].advice, "zeg \"nee\"\nof ja");
        let commas = parse_shortages("advies,naam,atc,status,sinds\n\"a, b\",Ibuprofen,M01AE01,tekort,2025-01-01\n").unwrap();
        assert_eq!((commas[0].name.as_str(), commas[0].advice.as_str()), ("Ibuprofen", "a, b"));
    }

    #[test]
    fn every_bad_line_is_reported_with_its_number() {
        let csv = "naam;atc;status;sinds;advies\nGoed;N02BE01;tekort;2025-01-01;\n;XX;tekort;2025-13-01;\nTe kort;N02BE01\n\"open\nregel\";N02BE01;;1-1-2025;\n";
        let errors = parse_shortages(csv).unwrap_err();
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, [3, 4, 5]);
        assert!(
            errors[0].reason.contains("de naam ontbreekt")
                && errors[0].reason.contains("'XX' is geen ATC-code")
                && errors[0].reason.contains("2025-13-01"),
            "{:?}",
            errors[0]
        );
        assert!(errors[1].reason.contains("2 velden"), "{:?}", errors[1]);
        assert!(errors[2].reason.contains("status"), "{:?}", errors[2]);
        assert_eq!(parse_shortages("name;atc;status;since;advice\n").unwrap_err()[0].line, 1);
        assert!(parse_shortages("").is_err());
        assert_eq!(parse_shortages("naam;atc;status;sinds;advies\n").unwrap(), vec![]);
    }

    #[test]
    fn windows_1252_uploads_are_decoded() {
        assert_eq!(decode_upload(b"Pati\xebnt \x80"), "Patiënt €");
        assert_eq!(decode_upload("\u{feff}naam".as_bytes()), "naam");
    }
}
