//! The billing rules against `domain/data/billing/cases.json`, the table the web app's copies are
//! tested with too (`web/src/features/subscription/billingCases.test.ts`): the VAT split, prices,
//! postcodes and the billing dialog's checks give the same answers on both sides.

use domain::billing::Address;
use domain::billing::BillingDetails;
use domain::billing::details::{Postcode, validate_billing};
use domain::billing::money::{self, Cents};
use serde_json::Value;

fn cases() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/billing/cases.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("the cases")).expect("json")
}

fn list<'a>(cases: &'a Value, name: &str) -> &'a Vec<Value> {
    cases[name].as_array().unwrap_or_else(|| panic!("{name} is a list"))
}

fn int(v: &Value) -> i64 {
    v.as_i64().unwrap_or_else(|| panic!("{v} is a whole number"))
}

fn cents(v: &Value) -> Cents {
    Cents(int(v))
}

#[test]
fn every_amount_splits_as_the_table_says() {
    let cases = cases();
    let vat = list(&cases, "vat");
    assert!(vat.len() > 100);
    for case in vat {
        let split = money::split(cents(&case["gross"]));
        assert_eq!((split.excl_vat, split.vat), (cents(&case["exclVat"]), cents(&case["vat"])), "{case}");
    }
}

#[test]
fn prices_per_user_and_totals_are_as_the_table_says() {
    let cases = cases();
    for case in list(&cases, "prices") {
        let interval = i32::try_from(int(&case["intervalMonths"])).unwrap();
        let per_user = money::price_per_user(cents(&case["month"]), cents(&case["year"]), interval, case["discount"].as_i64().map(Cents));
        assert_eq!(per_user, cents(&case["perUser"]), "{}", case["why"]);
        assert_eq!(money::total(per_user, int(&case["users"])), cents(&case["total"]), "{}", case["why"]);
    }
}

#[test]
fn postcodes_are_taken_and_refused_as_the_table_says() {
    let cases = cases();
    let postcodes = &cases["postcodes"];
    for pair in list(postcodes, "valid") {
        let parsed = Postcode::parse(pair[0].as_str().unwrap()).unwrap_or_else(|e| panic!("{pair}: {e}"));
        assert_eq!(parsed.as_str(), pair[1].as_str().unwrap());
    }
    for raw in list(postcodes, "missing") {
        assert_eq!(Postcode::parse(raw.as_str().unwrap()).unwrap_err().to_string(), "Geen postcode ingevuld", "{raw}");
    }
    for raw in list(postcodes, "invalid") {
        let refused = Postcode::parse(raw.as_str().unwrap()).unwrap_err().to_string();
        assert_eq!(refused, "Ongeldige postcode. Vul postcode in volgens bijv. '1234AB'", "{raw}");
    }
}

#[test]
fn billing_details_get_the_tables_message() {
    let cases = cases();
    let details = list(&cases, "details");
    assert!(details.iter().any(|c| c["message"].is_null()) && details.iter().any(|c| c["message"].is_string()));
    for case in details {
        let mut form = cases["complete"].clone();
        for (field, value) in case["change"].as_object().unwrap() {
            form[field] = value.clone();
        }
        let text = |field: &str| form[field].as_str().unwrap_or_else(|| panic!("{}: {field}", case["why"])).to_owned();
        let details = BillingDetails {
            address: Address {
                contact_name: text("contactName"),
                practice_name: text("practiceName"),
                phone_number: text("phoneNumber"),
                street_address: text("streetAddress"),
                house_number: text("houseNumber"),
                house_number_addition: text("houseNumberAddition"),
                postcode: text("postcode"),
                city: text("city"),
                kvk_number: text("kvkNumber"),
            },
            send_invoice_to_email: text("sendInvoiceToEmail"),
            ..BillingDetails::default()
        };
        let message = validate_billing(&details).err().map(|refused| refused.to_string());
        assert_eq!(message.as_deref(), case["message"].as_str(), "{}", case["why"]);
    }
}
