//! What the document says of a request's fields and how the handlers read them, in one place
//! that both the handlers and the document ([`crate::openapi`]) import: whole numbers, text that
//! is not blank, a form's one-line texts, e-mail addresses and postcodes, each pattern made from
//! the same character sets as the checks.

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, SchemaType, Type};

/// The document's pattern for text that must hold something besides white space: a character
/// that is not white space as `str::trim` counts it (`#[schema(pattern)]` takes only a literal,
/// so the annotations repeat it; a test checks that they do and that it is exact).
pub const NOT_BLANK: &str = "[^\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";

/// An optional integer that also takes a JSON number with a zero fraction (`8.0`): JSON Schema's
/// `integer`, which the document promises, admits it.
pub fn whole_number<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: TryFrom<i64>,
{
    use serde::Deserialize;
    use serde::de::Error;
    let Some(number) = Option::<serde_json::Number>::deserialize(deserializer)? else { return Ok(None) };
    let whole = match (number.as_i64(), number.as_f64()) {
        (Some(n), _) => Some(n),
        (None, Some(f)) if f.fract() == 0.0 && (i64::MIN as f64..=i64::MAX as f64).contains(&f) => Some(f as i64),
        _ => None,
    };
    let value = whole.and_then(|n| T::try_from(n).ok());
    value.map(Some).ok_or_else(|| D::Error::custom(format!("invalid value: {number}, expected a whole number in range")))
}

/// The white space `str::trim` removes (Unicode White_Space), as ranges of code points.
pub const WHITE_SPACE: &[(u32, u32)] = &[
    (0x09, 0x0d),
    (0x20, 0x20),
    (0x85, 0x85),
    (0xa0, 0xa0),
    (0x1680, 0x1680),
    (0x2000, 0x200a),
    (0x2028, 0x2029),
    (0x202f, 0x202f),
    (0x205f, 0x205f),
    (0x3000, 0x3000),
];

/// The characters `domain::text::is_hidden_character` refuses in a name or an address.
pub const HIDDEN: &[(u32, u32)] =
    &[(0x00, 0x1f), (0x7f, 0x9f), (0x61c, 0x61c), (0x200b, 0x200f), (0x2028, 0x202e), (0x2060, 0x2064), (0x2066, 0x2069), (0xfeff, 0xfeff)];

/// The inside of a pattern's character class holding `ranges` (`\uXXXX` escapes).
fn class(ranges: &[&[(u32, u32)]]) -> String {
    ranges
        .iter()
        .flat_map(|r| r.iter())
        .map(|&(a, b)| if a == b { format!("\\u{a:04x}") } else { format!("\\u{a:04x}-\\u{b:04x}") })
        .collect()
}

fn text_schema(pattern: String) -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::String).pattern(Some(pattern))
}

/// A required one-line text of a form (a name, a street, a phone number), as the handlers take
/// it: white space around it is trimmed, something must be left, and no hidden character
/// (`domain::text::HIDDEN_CHARACTERS`) may be in what is left.
pub fn one_line_text() -> utoipa::openapi::Object {
    let (white, hidden, either) = (class(&[WHITE_SPACE]), class(&[HIDDEN]), class(&[WHITE_SPACE, HIDDEN]));
    text_schema(format!("^[{white}]*[^{either}]([^{hidden}]*[^{either}])?[{white}]*$")).build()
}

/// An optional one-line text of a form: as [`one_line_text`], but it may be empty.
pub fn optional_line_text() -> utoipa::openapi::Object {
    let (white, hidden, either) = (class(&[WHITE_SPACE]), class(&[HIDDEN]), class(&[WHITE_SPACE, HIDDEN]));
    text_schema(format!("^[{white}]*([^{either}]([^{hidden}]*[^{either}])?)?[{white}]*$"))
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        .build()
}

/// An e-mail address as the handlers take it (`domain::billing::looks_like_email` after trimming):
/// one `@` with something on both sides, no white space and no hidden character.
pub fn email_address() -> utoipa::openapi::Object {
    let (white, either) = (class(&[WHITE_SPACE]), class(&[WHITE_SPACE, HIDDEN]));
    text_schema(format!("^[{white}]*[^@{either}]+@[^@{either}]+[{white}]*$")).build()
}

/// An e-mail address in a query, documented with [`email_address`]'s pattern (a parameter's
/// `schema_with` would drop its description and its `required`). Read as empty when left out.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(transparent)]
pub struct EmailAddress(pub String);

impl utoipa::PartialSchema for EmailAddress {
    fn schema() -> RefOr<Schema> {
        email_address().into()
    }
}

impl utoipa::ToSchema for EmailAddress {}

/// A Dutch postcode as `domain::billing::Postcode::parse` takes it: four digits and two letters,
/// white space anywhere.
pub fn postcode() -> utoipa::openapi::Object {
    let white = class(&[WHITE_SPACE]);
    text_schema(format!("^[{white}]*([0-9][{white}]*){{4}}([A-Za-z][{white}]*){{2}}$")).build()
}
