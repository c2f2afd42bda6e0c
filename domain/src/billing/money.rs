//! Money: integer cents, gross (VAT included), as the spec's prices are.
//!
//! VAT is 21 %. The price excluding VAT is the gross price divided by 1.21, rounded half up to the
//! cent; the VAT is what remains, so excl + VAT is always the gross amount to the cent. The yearly
//! price per user is twelve months less 5 % ('(5% korting)'), rounded half up to the cent.

use std::iter::Sum;
use std::ops::{Add, AddAssign, Neg, Sub};

use serde::{Deserialize, Serialize};

/// VAT in percent.
pub const VAT_PERCENT: i64 = 21;

/// The discount of yearly billing in percent.
pub const YEARLY_DISCOUNT_PERCENT: i64 = 5;

/// An amount of money in euro cents: gross (VAT included) unless its name says otherwise. JSON
/// and the database hold it as a whole number; it is added, subtracted and multiplied by a count,
/// never by another amount.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, sqlx::Type, utoipa::ToSchema)]
#[serde(transparent)]
#[sqlx(transparent)]
pub struct Cents(pub i64);

impl Cents {
    pub const ZERO: Cents = Cents(0);

    /// This amount `count` times (a price per user times the users).
    pub fn times(self, count: i64) -> Cents {
        Cents(self.0 * count)
    }

    /// The amount of each of `count` equal parts, when it divides to the cent (a line's unit price).
    pub fn each_of(self, count: i64) -> Option<Cents> {
        (count > 0 && self.0 % count == 0).then(|| Cents(self.0 / count))
    }

    /// As the tables' `integer` money columns hold it (an amount beyond their range, which no
    /// price reaches, is held at the largest they take).
    pub fn to_column(self) -> i32 {
        i32::try_from(self.0).unwrap_or(if self.0 < 0 { i32::MIN } else { i32::MAX })
    }

    /// As Mollie and invoices write it: `"12.10"` (two decimals, a point).
    pub fn to_decimal_string(self) -> String {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        format!("{sign}{}.{:02}", abs / 100, abs % 100)
    }

    /// As a Dutch page writes it, without the euro sign: `"12,10"`.
    pub fn to_dutch_string(self) -> String {
        self.to_decimal_string().replace('.', ",")
    }

    /// `"12.10"`, `"12.1"` or `"12"`; `None` for anything else (more than two decimals too).
    pub fn from_decimal_string(value: &str) -> Option<Cents> {
        let (negative, value) = match value.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, value),
        };
        let (whole, fraction) = match value.split_once('.') {
            Some((_, "")) => return None,
            Some(parts) => parts,
            None => (value, ""),
        };
        if whole.is_empty()
            || !whole.bytes().all(|b| b.is_ascii_digit())
            || fraction.len() > 2
            || !fraction.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let whole: i64 = whole.parse().ok()?;
        let fraction: i64 = if fraction.is_empty() { 0 } else { format!("{fraction:0<2}").parse().ok()? };
        let cents = whole.checked_mul(100)?.checked_add(fraction)?;
        Some(Cents(if negative { -cents } else { cents }))
    }
}

impl Add for Cents {
    type Output = Cents;
    fn add(self, other: Cents) -> Cents {
        Cents(self.0 + other.0)
    }
}

impl AddAssign for Cents {
    fn add_assign(&mut self, other: Cents) {
        self.0 += other.0;
    }
}

impl Sub for Cents {
    type Output = Cents;
    fn sub(self, other: Cents) -> Cents {
        Cents(self.0 - other.0)
    }
}

impl Neg for Cents {
    type Output = Cents;
    fn neg(self) -> Cents {
        Cents(-self.0)
    }
}

impl Sum for Cents {
    fn sum<I: Iterator<Item = Cents>>(iter: I) -> Cents {
        Cents(iter.map(|c| c.0).sum())
    }
}

/// `numerator / denominator` rounded half up (away from zero for negatives).
fn div_round_half_up(numerator: i64, denominator: i64) -> i64 {
    debug_assert!(denominator > 0);
    if numerator >= 0 { (2 * numerator + denominator) / (2 * denominator) } else { -div_round_half_up(-numerator, denominator) }
}

/// The part of `gross` without VAT: gross / 1.21, rounded half up to the cent.
pub fn excl_vat(gross: Cents) -> Cents {
    Cents(div_round_half_up(gross.0 * 100, 100 + VAT_PERCENT))
}

/// The VAT in `gross`: the gross amount less [`excl_vat`].
pub fn vat(gross: Cents) -> Cents {
    gross - excl_vat(gross)
}

/// A gross amount split in its parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    pub gross: Cents,
    pub excl_vat: Cents,
    pub vat: Cents,
}

pub fn split(gross: Cents) -> Split {
    let excl = excl_vat(gross);
    Split { gross, excl_vat: excl, vat: gross - excl }
}

/// The yearly price per user from the monthly one: 12 months less 5 %, rounded half up.
pub fn yearly_from_monthly(monthly: Cents) -> Cents {
    Cents(div_round_half_up(monthly.0 * 12 * (100 - YEARLY_DISCOUNT_PERCENT), 100))
}

/// The total for `users` users at `per_user` each.
pub fn total(per_user: Cents, users: i64) -> Cents {
    per_user.times(users)
}

/// The price per user for an interval of 1 or 12 months: a discount's price replaces the monthly
/// price (discounts apply to monthly billing only; the caller checks that), the yearly price is
/// the tier's own.
pub fn price_per_user(month: Cents, year: Cents, interval_months: i32, discount_price: Option<Cents>) -> Cents {
    match (interval_months, discount_price) {
        (12, _) => year,
        (_, Some(discounted)) => discounted,
        _ => month,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn c(cents: i64) -> Cents {
        Cents(cents)
    }

    #[test]
    fn excl_vat_is_gross_over_1_21_rounded_half_up() {
        assert_eq!(excl_vat(c(0)), c(0));
        assert_eq!(excl_vat(c(121)), c(100));
        assert_eq!(excl_vat(c(12100)), c(10000));
        assert_eq!(excl_vat(c(4900)), c(4050)); // 40.4958 -> 40.50
        assert_eq!(vat(c(4900)), c(850));
        // 1 cent: 0.826 -> 1, VAT 0
        assert_eq!(excl_vat(c(1)), c(1));
        assert_eq!(vat(c(1)), c(0));
        // the edge below and above a half: 6050 / 121 = 50 exactly; 6049 -> 49.99 -> 49.99
        assert_eq!(excl_vat(c(6050)), c(5000));
        assert_eq!(excl_vat(c(6049)), c(4999)); // 49.9917 -> 49.99
        assert_eq!(excl_vat(c(6051)), c(5001)); // 50.0083 -> 50.01
        // gross 1.82: 150.41 -> 150; 1.81: 149.59 -> 150
        assert_eq!(excl_vat(c(182)), c(150));
        assert_eq!(excl_vat(c(181)), c(150));
    }

    #[test]
    fn a_half_cent_rounds_up() {
        // gross * 100 / 121 ends in exactly .5 when gross*200 = 121*(2k+1): gross = 60.5*(2k+1)
        // is never whole, so check the helper itself at the half
        assert_eq!(div_round_half_up(1, 2), 1);
        assert_eq!(div_round_half_up(3, 2), 2);
        assert_eq!(div_round_half_up(5, 10), 1);
        assert_eq!(div_round_half_up(4, 10), 0);
        assert_eq!(div_round_half_up(-5, 10), -1);
        assert_eq!(div_round_half_up(-4, 10), 0);
    }

    #[test]
    fn the_parts_add_up_for_the_seeded_prices() {
        for gross in [0, 1, 2, 99, 100, 3900, 4900, 44460, 55860, 133380] {
            let s = split(c(gross));
            assert_eq!(s.excl_vat + s.vat, c(gross));
        }
        assert_eq!(split(c(55860)), Split { gross: c(55860), excl_vat: c(46165), vat: c(9695) });
    }

    #[test]
    fn yearly_is_twelve_months_less_five_percent() {
        assert_eq!(yearly_from_monthly(c(4900)), c(55860));
        assert_eq!(yearly_from_monthly(c(3900)), c(44460));
        assert_eq!(yearly_from_monthly(c(0)), c(0));
        assert_eq!(yearly_from_monthly(c(1)), c(11)); // 11.4 -> 11
        assert_eq!(yearly_from_monthly(c(3)), c(34)); // 34.2 -> 34
        assert_eq!(yearly_from_monthly(c(5)), c(57)); // 57.0
        assert_eq!(yearly_from_monthly(c(25)), c(285));
        // 11.4 per cent of monthly price: 45 cents -> 513.0; 5 -> 57.0; 15 cents -> 171.0
        assert_eq!(yearly_from_monthly(c(15)), c(171));
    }

    #[test]
    fn totals_and_discounts() {
        assert_eq!(total(c(44460), 3), c(133380));
        assert_eq!(price_per_user(c(4900), c(55860), 1, None), c(4900));
        assert_eq!(price_per_user(c(4900), c(55860), 12, None), c(55860));
        assert_eq!(price_per_user(c(4900), c(55860), 1, Some(c(2500))), c(2500));
        // a discount never applies to yearly billing
        assert_eq!(price_per_user(c(4900), c(55860), 12, Some(c(2500))), c(55860));
    }

    #[test]
    fn decimal_strings_as_mollie_writes_them() {
        assert_eq!(c(1210).to_decimal_string(), "12.10");
        assert_eq!(c(5).to_decimal_string(), "0.05");
        assert_eq!(c(0).to_decimal_string(), "0.00");
        assert_eq!(c(-150).to_decimal_string(), "-1.50");
        assert_eq!(Cents::from_decimal_string("12.10"), Some(c(1210)));
        assert_eq!(Cents::from_decimal_string("12.1"), Some(c(1210)));
        assert_eq!(Cents::from_decimal_string("12"), Some(c(1200)));
        assert_eq!(Cents::from_decimal_string("0.05"), Some(c(5)));
        assert_eq!(Cents::from_decimal_string("-1.50"), Some(c(-150)));
        for bad in ["", ".5", "1.234", "1,50", "abc", "1.", "1.-5", "+1", "--1"] {
            assert_eq!(Cents::from_decimal_string(bad), None, "{bad}");
        }
    }

    #[test]
    fn excl_plus_vat_is_gross_for_every_amount_up_to_100_000_euros() {
        // every value, not a sample: 10 million cents
        for gross in 0i64..10_000_000 {
            let s = split(c(gross));
            assert_eq!(s.excl_vat + s.vat, c(gross));
            assert!(s.vat >= Cents::ZERO && s.excl_vat >= Cents::ZERO);
            // excl is the nearest cent to gross / 1.21 (ties up): |121 * excl - 100 * gross| <= 60.5
            let diff = 121 * s.excl_vat.0 - 100 * gross;
            assert!((-60..=60).contains(&diff), "{gross}: {:?}", s.excl_vat);
        }
    }

    #[test]
    fn decimal_strings_round_trip() {
        for cents in (-1_000_000i64..1_000_000).step_by(7) {
            assert_eq!(Cents::from_decimal_string(&c(cents).to_decimal_string()), Some(c(cents)));
        }
    }
}
