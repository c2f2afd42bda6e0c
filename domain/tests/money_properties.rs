//! Properties of `domain::billing::money` over random inputs (proptest): the parts of every amount add up
//! to the cent, and prices and totals behave as the spec's constants say.

use domain::billing::money::{self, Cents, Split};
use proptest::prelude::*;

/// Every amount a payment can hold (`integer` cents).
const MAX_CENTS: i64 = i32::MAX as i64;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn net_plus_vat_is_gross_to_the_cent(gross in 0i64..=MAX_CENTS) {
        let Split { gross: g, excl_vat, vat } = money::split(Cents(gross));
        prop_assert_eq!(g, Cents(gross));
        prop_assert_eq!(excl_vat + vat, Cents(gross));
        prop_assert!(excl_vat >= Cents::ZERO && vat >= Cents::ZERO);
        let (excl_vat, vat) = (excl_vat.0, vat.0);
        // excl is gross / 1.21 to the nearest cent: |121·excl − 100·gross| ≤ 60.5
        prop_assert!((121 * excl_vat - 100 * gross).abs() <= 60);
        // and VAT is 21 % of excl to within a cent
        prop_assert!((100 * vat - 21 * excl_vat).abs() <= 100);
    }

    #[test]
    fn a_total_splits_like_its_parts_add(per_user in 0i64..=1_000_000, users in 1i64..=500, yearly in any::<bool>()) {
        let per_user = if yearly { money::yearly_from_monthly(Cents(per_user)) } else { Cents(per_user) };
        let total = money::total(per_user, users);
        prop_assert_eq!(total.0, per_user.0 * users);
        let s = money::split(total);
        prop_assert_eq!(s.excl_vat + s.vat, total);
    }

    #[test]
    fn yearly_is_never_more_than_twelve_months(monthly in 0i64..=10_000_000) {
        let yearly = money::yearly_from_monthly(Cents(monthly)).0;
        prop_assert!(yearly <= 12 * monthly);
        // 5 % off to within half a cent
        prop_assert!((100 * yearly - 1140 * monthly).abs() <= 50);
    }

    #[test]
    fn a_discount_applies_to_monthly_billing_only(month in 0i64..100_000, year in 0i64..1_000_000, discount in proptest::option::of(0i64..100_000)) {
        let (month, year, discount) = (Cents(month), Cents(year), discount.map(Cents));
        prop_assert_eq!(money::price_per_user(month, year, 12, discount), year);
        prop_assert_eq!(money::price_per_user(month, year, 1, discount), discount.unwrap_or(month));
    }

    #[test]
    fn decimal_strings_round_trip(cents in -MAX_CENTS..=MAX_CENTS) {
        let text = Cents(cents).to_decimal_string();
        prop_assert!(text.split_once('.').is_some_and(|(_, f)| f.len() == 2));
        prop_assert_eq!(Cents::from_decimal_string(&text), Some(Cents(cents)));
    }
}
