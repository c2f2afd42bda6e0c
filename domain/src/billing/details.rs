//! Billing details (the practitioner's dialog) and invoice details (the staff's modal on
//! Betalingen), checked once in the spec's order (§5), with their Dutch messages.

use serde::Deserialize;
use uuid::Uuid;

use super::{Address, BillingDetails, MAX_FIELD};
use crate::refusal::Refusal;

/// The message of an empty postcode (§5).
pub const POSTCODE_MISSING: &str = "Geen postcode ingevuld";
/// The message of a postcode that is not four digits and two letters (§5).
pub const POSTCODE_INVALID: &str = "Ongeldige postcode. Vul postcode in volgens bijv. '1234AB'";

/// A Dutch postcode as four digits and two upper-case letters (`1234AB`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Postcode(String);

impl Postcode {
    /// Spaces anywhere are allowed and dropped, letters are made upper case; empty is
    /// [`POSTCODE_MISSING`], anything else that is not four digits and two letters
    /// [`POSTCODE_INVALID`].
    pub fn parse(raw: &str) -> Result<Self, Refusal> {
        let compact: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
        if compact.is_empty() {
            return Err(Refusal::Invalid(POSTCODE_MISSING));
        }
        let bytes = compact.as_bytes();
        let valid = bytes.len() == 6 && bytes[..4].iter().all(u8::is_ascii_digit) && bytes[4..].iter().all(u8::is_ascii_alphabetic);
        if !valid {
            return Err(Refusal::Invalid(POSTCODE_INVALID));
        }
        Ok(Self(compact.to_ascii_uppercase()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

/// Checks the billing details in the spec's order (§5) and returns them trimmed, the postcode as
/// `1234AB`. The first failure is the answer.
pub fn validate_billing(details: &BillingDetails) -> Result<BillingDetails, Refusal> {
    let mut d = details.clone();
    for field in d.address.fields_mut().into_iter().chain([&mut d.send_invoice_to_email]) {
        *field = field.trim().to_owned();
    }
    let required = [
        (d.address.contact_name.as_str(), "Geen naam ingevuld"),
        (d.address.phone_number.as_str(), "Geen telefoonnummer ingevuld"),
        (d.address.street_address.as_str(), "Geen straatnaaam ingevuld"),
        (d.address.house_number.as_str(), "Geen huisnummer ingevuld"),
    ];
    for (value, message) in required {
        if value.is_empty() {
            return Err(Refusal::Invalid(message));
        }
    }
    d.address.postcode = Postcode::parse(&d.address.postcode)?.into_string();
    if d.address.city.is_empty() {
        return Err(Refusal::Invalid("Geen plaatsnaam ingevuld"));
    }
    if d.send_invoice_to_email.is_empty() {
        return Err(Refusal::Invalid("Geen email ingevuld"));
    }
    if !looks_like_email(&d.send_invoice_to_email) {
        return Err(Refusal::Invalid("Ongeldig e-mailadres voor de factuur."));
    }
    if d.address.fields_mut().into_iter().chain([&mut d.send_invoice_to_email]).any(|v| crate::text::has_hidden_characters(v)) {
        return Err(Refusal::Invalid(crate::text::HIDDEN_CHARACTERS));
    }
    // the postcode is six characters by now
    if d.address.fields_mut().into_iter().chain([&mut d.send_invoice_to_email]).any(|v| v.chars().count() > MAX_FIELD) {
        return Err(Refusal::Invalid("Een van de factuurgegevens is te lang (hoogstens 200 tekens)."));
    }
    Ok(d)
}

/// One `@` with something on both sides and no white space.
pub fn looks_like_email(s: &str) -> bool {
    match s.split_once('@') {
        Some((local, domain)) => !local.is_empty() && !domain.is_empty() && !domain.contains('@') && !s.chars().any(char::is_whitespace),
        None => false,
    }
}

/// The invoice details of a payment that staff edit (spec §2.3, the modal on Betalingen).
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InvoiceDetails {
    pub id: Uuid,
    #[serde(flatten)]
    pub address: Address,
}

/// Checks the details in the spec's order (§5, "Invoice details modal"): the billing rules without
/// the invoice e-mail address, which this modal does not edit.
pub fn validate_invoice_details(d: &InvoiceDetails) -> Result<InvoiceDetails, Refusal> {
    let checked = validate_billing(&BillingDetails {
        address: d.address.clone(),
        // not edited here: any valid address passes the billing rule's e-mail step
        send_invoice_to_email: "x@x".to_owned(),
        ..BillingDetails::default()
    })?;
    Ok(InvoiceDetails { id: d.id, address: checked.address })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn details() -> BillingDetails {
        BillingDetails {
            address: Address {
                contact_name: "Anne de Vries".into(),
                phone_number: "0201234567".into(),
                street_address: "Dorpsstraat".into(),
                house_number: "1".into(),
                postcode: "1234 ab".into(),
                city: "Amsterdam".into(),
                ..Default::default()
            },
            send_invoice_to_email: "factuur@praktijk.nl".into(),
            ..Default::default()
        }
    }

    fn message(d: &BillingDetails) -> Option<&'static str> {
        match validate_billing(d) {
            Ok(_) => None,
            Err(Refusal::Invalid(m)) => Some(m),
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn billing_details_are_checked_in_the_spec_order() {
        let mut d = BillingDetails::default();
        /// The message a step's missing field gives, and how the step fills it in.
        type Step = (&'static str, fn(&mut BillingDetails));
        let steps: [Step; 8] = [
            ("Geen naam ingevuld", |d| d.address.contact_name = "Anne".into()),
            ("Geen telefoonnummer ingevuld", |d| d.address.phone_number = "0612345678".into()),
            ("Geen straatnaaam ingevuld", |d| d.address.street_address = "Dorpsstraat".into()),
            ("Geen huisnummer ingevuld", |d| d.address.house_number = "12".into()),
            ("Geen postcode ingevuld", |d| d.address.postcode = "12345".into()),
            ("Ongeldige postcode. Vul postcode in volgens bijv. '1234AB'", |d| d.address.postcode = "1234AB".into()),
            ("Geen plaatsnaam ingevuld", |d| d.address.city = "Utrecht".into()),
            ("Geen email ingevuld", |d| d.send_invoice_to_email = "a@b.nl".into()),
        ];
        for (expected, fix) in steps {
            assert_eq!(message(&d), Some(expected));
            fix(&mut d);
        }
        assert_eq!(message(&d), None);
        // white space alone is empty
        let mut blank = details();
        blank.address.city = "   ".into();
        assert_eq!(message(&blank), Some("Geen plaatsnaam ingevuld"));
    }

    #[test]
    fn postcodes_are_four_digits_and_two_letters_spaces_allowed() {
        assert_eq!(Postcode::parse("1234AB").unwrap().as_str(), "1234AB");
        assert_eq!(Postcode::parse("1234 ab").unwrap().as_str(), "1234AB");
        assert_eq!(Postcode::parse(" 12 34 a b ").unwrap().as_str(), "1234AB");
        for bad in ["1234A", "1234ABC", "123AB", "ABCD12", "1234-AB", "1234ÄB", "12345B"] {
            assert_eq!(Postcode::parse(bad).unwrap_err().to_string(), POSTCODE_INVALID, "{bad}");
        }
        assert_eq!(validate_billing(&details()).unwrap().address.postcode, "1234AB");
    }

    #[test]
    fn optional_fields_may_be_empty_and_long_ones_are_refused() {
        let d = details();
        assert!(d.address.practice_name.is_empty() && d.address.house_number_addition.is_empty());
        assert_eq!(message(&d), None);
        let mut long = details();
        long.address.practice_name = "x".repeat(201);
        assert_eq!(message(&long), Some("Een van de factuurgegevens is te lang (hoogstens 200 tekens)."));
        let mut bad = details();
        bad.send_invoice_to_email = "geen adres".into();
        assert_eq!(message(&bad), Some("Ongeldig e-mailadres voor de factuur."));
    }

    #[test]
    fn a_right_to_left_override_or_other_hidden_character_in_any_field_is_refused() {
        type Field = fn(&mut BillingDetails) -> &mut String;
        let fields: [Field; 6] = [
            |d| &mut d.address.contact_name,
            |d| &mut d.address.practice_name,
            |d| &mut d.address.street_address,
            |d| &mut d.address.city,
            |d| &mut d.address.kvk_number,
            |d| &mut d.send_invoice_to_email,
        ];
        for field in fields {
            for hidden in ['\u{202e}', '\u{200b}', '\u{1b}'] {
                let mut d = details();
                let at = 1.min(field(&mut d).len());
                field(&mut d).insert(at, hidden);
                assert_eq!(message(&d), Some(crate::text::HIDDEN_CHARACTERS), "{hidden:?} in {:?}", field(&mut d));
            }
        }
        let mut staff = InvoiceDetails { id: Uuid::nil(), address: details().address };
        staff.address.contact_name = "Anne\u{202e}seirV eD".into();
        assert_eq!(validate_invoice_details(&staff).unwrap_err().to_string(), crate::text::HIDDEN_CHARACTERS);
    }

    #[test]
    fn invoice_details_are_checked_in_the_spec_order() {
        let full = InvoiceDetails {
            id: Uuid::nil(),
            address: Address {
                contact_name: "Anne".into(),
                phone_number: "020".into(),
                street_address: "Lindelaan".into(),
                house_number: "1".into(),
                postcode: "1234 ab".into(),
                city: "Utrecht".into(),
                ..Default::default()
            },
        };
        assert_eq!(validate_invoice_details(&full).unwrap().address.postcode, "1234AB");
        let message = |f: fn(&mut InvoiceDetails)| {
            let mut d = full.clone();
            d.address.contact_name.clear();
            f(&mut d);
            validate_invoice_details(&d).unwrap_err().to_string()
        };
        assert_eq!(message(|_| {}), "Geen naam ingevuld");
        type Change = fn(&mut InvoiceDetails);
        let cases: [(Change, &str); 7] = [
            (|d| d.address.phone_number.clear(), "Geen telefoonnummer ingevuld"),
            (|d| d.address.street_address.clear(), "Geen straatnaaam ingevuld"),
            (|d| d.address.house_number.clear(), "Geen huisnummer ingevuld"),
            (|d| d.address.postcode.clear(), "Geen postcode ingevuld"),
            (|d| d.address.postcode = "123".into(), "Ongeldige postcode. Vul postcode in volgens bijv. '1234AB'"),
            (|d| d.address.city = "  ".into(), "Geen plaatsnaam ingevuld"),
            (|d| d.address.kvk_number.clear(), ""),
        ];
        for (change, expected) in cases {
            let mut d = full.clone();
            change(&mut d);
            match validate_invoice_details(&d) {
                Ok(_) => assert_eq!(expected, "", "optional field"),
                Err(e) => assert_eq!(e.to_string(), expected),
            }
        }
    }
}
