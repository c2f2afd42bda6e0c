//! The staff CMS's reads and changes (spec §2.3): the users, the user subscriptions, the payments
//! and the statistics. Every list pages on the server ([`PAGE_SIZE`] rows), newest first. Changes
//! take the caller's transaction, so the api writes the audit entry in the same one, and answer
//! the fields before and after for it.

pub mod his;
pub mod organisations;
pub mod statistics;
pub mod users;

use chrono::NaiveDate;

use crate::refusal::Refusal;

/// The rows a CMS table shows per page.
pub const PAGE_SIZE: i64 = 50;

/// The highest page number asked for (a guard, not a limit anyone reaches).
pub const MAX_PAGE: i64 = 100_000;

/// The date-format message (spec §5).
pub const DATE_FORMAT: &str = "Datum format incorrect, gebruik yyyy-mm-dd, bijv. 2024-02-30";
/// A date that has the format but does not exist (2024-02-30), or none at all when one is needed
/// for a subscription (spec §8, "empty response").
pub const INVALID_DATE: &str = "Subscription kon niet worden geupdate. Ongeldige datum.";
/// The renew modal without a date (spec §5).
pub const NO_DATE: &str = "Geen datum ingevuld";

/// Whether `s` has the spec's date format: `yyyy-mm-dd` with a year 19xx or 20xx, month 01-12 and
/// day 01-31 (the format only: 2024-02-30 has it).
pub fn has_date_format(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    if !(digits(0..4) && digits(5..7) && digits(8..10)) {
        return false;
    }
    let number = |r: std::ops::Range<usize>| s[r].parse::<u32>().unwrap_or(0);
    matches!(&s[0..2], "19" | "20") && (1..=12).contains(&number(5..7)) && (1..=31).contains(&number(8..10))
}

/// A date as staff type it: trimmed, then the format ([`DATE_FORMAT`]), then a day that exists
/// ([`INVALID_DATE`]).
pub fn parse_date(raw: &str) -> Result<NaiveDate, Refusal> {
    let s = raw.trim();
    if !has_date_format(s) {
        return Err(Refusal::Invalid(DATE_FORMAT));
    }
    NaiveDate::parse_from_str(s, "%Y-%m-%d").map_err(|_| Refusal::Invalid(INVALID_DATE))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_date_format_of_the_spec() {
        for ok in ["2024-02-29", "1999-12-31", "2024-02-30", "2030-01-01"] {
            assert!(has_date_format(ok), "{ok}");
        }
        for bad in [
            "",
            "2024-2-29",
            "24-02-29",
            "2124-02-01",
            "1899-01-01",
            "2024-13-01",
            "2024-00-10",
            "2024-01-32",
            "2024-01-00",
            "2024/01/01",
            "2024-01-01 ",
        ] {
            assert!(!has_date_format(bad), "{bad}");
        }
    }

    #[test]
    fn a_date_must_exist() {
        assert_eq!(parse_date(" 2024-02-29 ").unwrap(), NaiveDate::from_ymd_opt(2024, 2, 29).unwrap());
        assert!(matches!(parse_date("2024-02-30"), Err(Refusal::Invalid(INVALID_DATE))));
        assert!(matches!(parse_date("29-02-2024"), Err(Refusal::Invalid(DATE_FORMAT))));
    }
}
