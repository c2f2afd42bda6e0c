//! The JSON answer a language model gives per template: its strict JSON schema (sent as the
//! `response_format`), and the reading of a parsed answer into a [`ConsultResult`].
//!
//! The shapes:
//! - soap: `{"episodes": [{"subjective", "objective", "diagnosis", "plan"}]}`, one per problem,
//!   at least one;
//! - report: `{"subjective", "objective", "plan"}`, read as one episode without a diagnosis;
//! - dictation and radiology: `{"dictation", "summarizedDictation"}`;
//! - meeting: `{"meeting"}`;
//! - specialist: one property per section of [`specialist_sections`], named exactly so.
//!
//! Every value is a string. The schemas are strict (all properties required, no others), as
//! OpenAI's structured outputs demand. Reading is a little more forgiving than the schema, for
//! servers that only promise some JSON object: extra properties are ignored and `null` reads as
//! an empty text, but a missing property or a value of another type makes the answer unusable.
//!
//! **Property order.** Constrained decoding writes an object's properties in the order its schema
//! lists them (llama.cpp's JSON-schema grammar, which Ollama and the llama.cpp server use, and
//! xgrammar, vLLM's default): the model writes S, O, E and P in that order only when the schema
//! says so, and the findings before the conclusion. serde_json sorts the keys of its own maps
//! (the workspace does not turn on `preserve_order`, which would change the order of other JSON
//! such as the hash-chained audit log), so on the wire a `json!` schema put `diagnosis` first and
//! 'Reden van verwijzing' last. [`Schema`] and the answer types below serialize in the order they
//! are written instead. The schema uses `type`, `properties`, `required`,
//! `additionalProperties: false`, `items` and `minItems` only: all within what llama.cpp's and
//! xgrammar's converters accept.

use std::collections::BTreeMap;

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::{Map, Value};

use super::{ConsultResult, Episode, Flavour, Template, specialist_sections};

/// The properties of one SOEP episode in the answer, in the order they are written.
pub const EPISODE_KEYS: [&str; 4] = ["subjective", "objective", "diagnosis", "plan"];

/// The properties of a consult report.
pub const REPORT_KEYS: [&str; 3] = ["subjective", "objective", "plan"];

/// The properties of a (radiology) dictation.
pub const DICTATION_KEYS: [&str; 2] = ["dictation", "summarizedDictation"];

/// The property of meeting minutes.
pub const MEETING_KEY: &str = "meeting";

/// The `json_schema.name` sent with the schema of a template (letters, digits, `_` and `-`).
pub fn schema_name(template: Template) -> &'static str {
    match template {
        Template::Soap => "soep_verslag",
        Template::Report => "consultverslag",
        Template::Dictation => "dictaat",
        Template::Radiology => "radiologie_dictaat",
        Template::Specialist => "specialistenbrief",
        Template::Meeting => "notulen",
    }
}

/// The top-level property names the answer of a template must have, in order.
pub fn required_keys(template: Template, flavour: Flavour) -> Vec<&'static str> {
    match template {
        Template::Soap => vec!["episodes"],
        Template::Report => REPORT_KEYS.to_vec(),
        Template::Dictation | Template::Radiology => DICTATION_KEYS.to_vec(),
        Template::Meeting => vec![MEETING_KEY],
        Template::Specialist => specialist_sections(flavour).to_vec(),
    }
}

/// A JSON schema as it is sent, every key in the order written here (`type` first).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Schema {
    String,
    Array {
        #[serde(rename = "minItems")]
        min_items: u32,
        items: Box<Schema>,
    },
    Object {
        properties: Properties,
        required: Vec<&'static str>,
        #[serde(rename = "additionalProperties")]
        additional_properties: bool,
    },
}

/// An object's properties, written as a JSON object in this order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Properties(pub Vec<(&'static str, Schema)>);

impl Serialize for Properties {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, schema) in &self.0 {
            map.serialize_entry(name, schema)?;
        }
        map.end()
    }
}

impl Schema {
    /// A strict object: these properties, all required, no others.
    fn strict_object(properties: Vec<(&'static str, Schema)>) -> Self {
        let required = properties.iter().map(|(name, _)| *name).collect();
        Schema::Object { properties: Properties(properties), required, additional_properties: false }
    }

    /// A strict object whose properties are all strings.
    fn strings(keys: &[&'static str]) -> Self {
        Self::strict_object(keys.iter().map(|k| (*k, Schema::String)).collect())
    }
}

/// The JSON schema of the answer for a template (and, for specialist letters, its flavour).
pub fn answer_schema(template: Template, flavour: Flavour) -> Schema {
    match template {
        Template::Soap => {
            Schema::strict_object(vec![("episodes", Schema::Array { min_items: 1, items: Box::new(Schema::strings(&EPISODE_KEYS)) })])
        }
        _ => Schema::strings(&required_keys(template, flavour)),
    }
}

/// One SOEP episode as the answer writes it (a few-shot example's answer), in the order of
/// [`EPISODE_KEYS`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EpisodeAnswer<'a> {
    pub subjective: &'a str,
    pub objective: &'a str,
    pub diagnosis: &'a str,
    pub plan: &'a str,
}

/// A SOEP note as the answer writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SoapAnswer<'a> {
    pub episodes: Vec<EpisodeAnswer<'a>>,
}

/// A consult report as the answer writes it, in the order of [`REPORT_KEYS`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReportAnswer<'a> {
    pub subjective: &'a str,
    pub objective: &'a str,
    pub plan: &'a str,
}

/// Why a parsed answer does not fit the template. For logs: names properties, never values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    #[error("the answer is not a JSON object")]
    NotAnObject,
    #[error("the answer lacks the property {0:?}")]
    Missing(String),
    #[error("the property {0:?} is not a string")]
    NotAString(String),
    #[error("\"episodes\" is not an array of objects")]
    EpisodesNotObjects,
    #[error("the answer has no episodes")]
    NoEpisodes,
}

/// The text of a string property; `null` reads as empty.
fn text(object: &Map<String, Value>, key: &str, path: &str) -> Result<String, ShapeError> {
    match object.get(key) {
        Some(Value::String(s)) => Ok(s.trim().to_owned()),
        Some(Value::Null) => Ok(String::new()),
        Some(_) => Err(ShapeError::NotAString(format!("{path}{key}"))),
        None => Err(ShapeError::Missing(format!("{path}{key}"))),
    }
}

/// Reads a parsed answer into the consult result of the template, checking its shape.
pub fn to_result(template: Template, flavour: Flavour, answer: &Value) -> Result<ConsultResult, ShapeError> {
    let object = answer.as_object().ok_or(ShapeError::NotAnObject)?;
    let mut result = ConsultResult::default();
    match template {
        Template::Soap => {
            let episodes = match object.get("episodes") {
                Some(Value::Array(items)) => items,
                Some(_) => return Err(ShapeError::EpisodesNotObjects),
                None => return Err(ShapeError::Missing("episodes".to_owned())),
            };
            if episodes.is_empty() {
                return Err(ShapeError::NoEpisodes);
            }
            for (i, item) in episodes.iter().enumerate() {
                let episode = item.as_object().ok_or(ShapeError::EpisodesNotObjects)?;
                let path = format!("episodes[{i}].");
                result.episodes.push(Episode {
                    subjective: text(episode, "subjective", &path)?,
                    objective: text(episode, "objective", &path)?,
                    diagnosis: text(episode, "diagnosis", &path)?,
                    plan: text(episode, "plan", &path)?,
                    ..Default::default()
                });
            }
        }
        Template::Report => {
            result.episodes.push(Episode {
                subjective: text(object, "subjective", "")?,
                objective: text(object, "objective", "")?,
                diagnosis: String::new(),
                plan: text(object, "plan", "")?,
                ..Default::default()
            });
        }
        Template::Dictation | Template::Radiology => {
            result.dictation = Some(text(object, "dictation", "")?);
            let summary = text(object, "summarizedDictation", "")?;
            result.summarized_dictation = (!summary.is_empty()).then_some(summary);
        }
        Template::Meeting => {
            result.meeting = Some(text(object, MEETING_KEY, "")?);
        }
        Template::Specialist => {
            let mut sections = BTreeMap::new();
            for section in specialist_sections(flavour) {
                sections.insert((*section).to_owned(), text(object, section, "")?);
            }
            result.specialist_summarization = Some(sections);
        }
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const TEMPLATES: [Template; 6] =
        [Template::Soap, Template::Report, Template::Dictation, Template::Radiology, Template::Specialist, Template::Meeting];
    const FLAVOURS: [Flavour; 4] = [Flavour::Normal, Flavour::PohGgz, Flavour::KinderartsAllergoloog, Flavour::KinderartsOrthopeed];

    /// The schema as JSON, to look into (its keys sorted: order is checked on the text).
    fn schema(template: Template, flavour: Flavour) -> Value {
        serde_json::to_value(answer_schema(template, flavour)).unwrap()
    }

    /// Every object in a schema is strict: no other properties, and all of its properties required.
    fn assert_strict(schema: &Value) {
        if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
            assert_eq!(schema["additionalProperties"], json!(false), "{schema}");
            let mut required: Vec<&str> = schema["required"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
            let mut names: Vec<&str> = properties.keys().map(String::as_str).collect();
            required.sort_unstable();
            names.sort_unstable();
            assert_eq!(required, names);
            for property in properties.values() {
                assert_strict(property);
            }
        }
        if let Some(items) = schema.get("items") {
            assert_strict(items);
        }
    }

    #[test]
    fn every_schema_is_strict() {
        for template in TEMPLATES {
            for flavour in FLAVOURS {
                assert_strict(&schema(template, flavour));
            }
        }
    }

    /// The keywords llama.cpp's `json_schema_to_grammar` and xgrammar both take; nothing else may
    /// appear (no `$ref`, `oneOf`, `pattern`, `format`, ...).
    #[test]
    fn schemas_use_only_keywords_every_grammar_converter_takes() {
        fn keywords(schema: &Value, into: &mut Vec<String>) {
            let object = schema.as_object().unwrap();
            for (key, value) in object {
                into.push(key.clone());
                match key.as_str() {
                    "properties" => value.as_object().unwrap().values().for_each(|p| keywords(p, into)),
                    "items" => keywords(value, into),
                    _ => {}
                }
            }
        }
        for template in TEMPLATES {
            for flavour in FLAVOURS {
                let mut used = Vec::new();
                keywords(&schema(template, flavour), &mut used);
                for keyword in used {
                    assert!(
                        ["type", "properties", "required", "additionalProperties", "items", "minItems"].contains(&keyword.as_str()),
                        "{template:?}/{flavour:?}: {keyword}"
                    );
                }
            }
        }
    }

    #[test]
    fn schema_names_are_valid_names() {
        for template in TEMPLATES {
            let name = schema_name(template);
            assert!(!name.is_empty() && name.len() <= 64);
            assert!(name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'), "{name}");
        }
    }

    #[test]
    fn soap_schema_is_a_non_empty_array_of_four_strings() {
        let schema = schema(Template::Soap, Flavour::PohGgz);
        assert_eq!(schema["required"], json!(["episodes"]));
        let items = &schema["properties"]["episodes"]["items"];
        assert_eq!(schema["properties"]["episodes"]["type"], "array");
        assert_eq!(schema["properties"]["episodes"]["minItems"], 1);
        assert_eq!(items["required"], json!(["subjective", "objective", "diagnosis", "plan"]));
        for key in EPISODE_KEYS {
            assert_eq!(items["properties"][key]["type"], "string");
        }
    }

    /// The schema's text lists every object's properties (and `required`) in the template's
    /// order, `type` first: S, O, E, P for an episode; the letter's sections as the flavour has
    /// them.
    #[test]
    fn the_schema_text_keeps_the_templates_order() {
        let soap = serde_json::to_string(&answer_schema(Template::Soap, Flavour::Normal)).unwrap();
        assert_eq!(
            soap,
            r#"{"type":"object","properties":{"episodes":{"type":"array","minItems":1,"items":{"type":"object","properties":{"subjective":{"type":"string"},"objective":{"type":"string"},"diagnosis":{"type":"string"},"plan":{"type":"string"}},"required":["subjective","objective","diagnosis","plan"],"additionalProperties":false}}},"required":["episodes"],"additionalProperties":false}"#
        );
        for flavour in FLAVOURS {
            let letter = serde_json::to_string(&answer_schema(Template::Specialist, flavour)).unwrap();
            let properties: Vec<String> = specialist_sections(flavour).iter().map(|s| format!(r#""{s}":{{"type":"string"}}"#)).collect();
            assert!(letter.contains(&format!(r#""properties":{{{}}}"#, properties.join(","))), "{letter}");
            assert!(letter.starts_with(r#"{"type":"object","properties":{"Reden van verwijzing":"#), "{letter}");
        }
        let report = serde_json::to_string(&answer_schema(Template::Report, Flavour::Normal)).unwrap();
        assert!(report.contains(r#""required":["subjective","objective","plan"]"#), "{report}");
    }

    #[test]
    fn answers_are_written_in_the_schemas_order() {
        let episode = EpisodeAnswer { subjective: "S", objective: "O", diagnosis: "E", plan: "P" };
        assert_eq!(
            serde_json::to_string(&SoapAnswer { episodes: vec![episode] }).unwrap(),
            r#"{"episodes":[{"subjective":"S","objective":"O","diagnosis":"E","plan":"P"}]}"#
        );
        let report = ReportAnswer { subjective: "S", objective: "O", plan: "P" };
        assert_eq!(serde_json::to_string(&report).unwrap(), r#"{"subjective":"S","objective":"O","plan":"P"}"#);
    }

    #[test]
    fn flat_schemas_have_the_template_keys() {
        let keys = |t, f| schema(t, f)["required"].clone();
        assert_eq!(keys(Template::Report, Flavour::Normal), json!(["subjective", "objective", "plan"]));
        assert_eq!(keys(Template::Dictation, Flavour::Normal), json!(["dictation", "summarizedDictation"]));
        assert_eq!(keys(Template::Radiology, Flavour::Normal), json!(["dictation", "summarizedDictation"]));
        assert_eq!(keys(Template::Meeting, Flavour::Normal), json!(["meeting"]));
    }

    #[test]
    fn specialist_schema_has_exactly_the_sections_of_the_flavour() {
        for flavour in FLAVOURS {
            let schema = schema(Template::Specialist, flavour);
            assert_eq!(schema["required"], json!(specialist_sections(flavour)));
            assert_eq!(schema["properties"].as_object().unwrap().len(), specialist_sections(flavour).len());
        }
        let allergy = schema(Template::Specialist, Flavour::KinderartsAllergoloog);
        assert!(allergy["properties"].get("Allergologische anamnese").is_some());
        let ortho = schema(Template::Specialist, Flavour::KinderartsOrthopeed);
        assert!(ortho["properties"].get("Beeldvorming").is_some());
        assert!(ortho["properties"].get("Allergologische anamnese").is_none());
    }

    #[test]
    fn soap_answer_becomes_episodes_in_order() {
        let answer = json!({"episodes": [
            {"subjective": " Hoest 2 wk. ", "objective": "Longen schoon.", "diagnosis": "Virale luchtweginfectie", "plan": "Uitleg."},
            {"subjective": "Rugpijn.", "objective": null, "diagnosis": "Aspecifieke lage rugpijn", "plan": "Paracetamol.", "extra": 1}
        ]});
        let result = to_result(Template::Soap, Flavour::Normal, &answer).unwrap();
        assert_eq!(result.episodes.len(), 2);
        assert_eq!(result.episodes[0].subjective, "Hoest 2 wk.");
        assert_eq!(result.episodes[0].diagnosis, "Virale luchtweginfectie");
        assert_eq!(result.episodes[1].objective, "");
        assert_eq!(result.episodes[1].plan, "Paracetamol.");
        assert!(result.dictation.is_none() && result.meeting.is_none());
    }

    #[test]
    fn report_answer_is_one_episode_without_diagnosis() {
        let answer = json!({"subjective": "S", "objective": "O", "plan": "P"});
        let result = to_result(Template::Report, Flavour::Normal, &answer).unwrap();
        assert_eq!(
            result.episodes,
            vec![Episode {
                subjective: "S".into(),
                objective: "O".into(),
                diagnosis: String::new(),
                plan: "P".into(),
                ..Default::default()
            }]
        );
    }

    #[test]
    fn dictation_answer_keeps_an_empty_summary_out() {
        let full = json!({"dictation": "Tekst.", "summarizedDictation": "Kort."});
        let result = to_result(Template::Radiology, Flavour::Normal, &full).unwrap();
        assert_eq!(result.dictation.as_deref(), Some("Tekst."));
        assert_eq!(result.summarized_dictation.as_deref(), Some("Kort."));
        let empty = json!({"dictation": "Tekst.", "summarizedDictation": ""});
        let result = to_result(Template::Dictation, Flavour::Normal, &empty).unwrap();
        assert_eq!(result.summarized_dictation, None);
        assert!(result.episodes.is_empty());
    }

    #[test]
    fn meeting_and_specialist_answers() {
        let result = to_result(Template::Meeting, Flavour::Normal, &json!({"meeting": "Besproken punten: …"})).unwrap();
        assert_eq!(result.meeting.as_deref(), Some("Besproken punten: …"));

        let sections = specialist_sections(Flavour::KinderartsOrthopeed);
        let answer: Map<String, Value> = sections.iter().map(|s| ((*s).to_owned(), json!(format!("{s} tekst")))).collect();
        let result = to_result(Template::Specialist, Flavour::KinderartsOrthopeed, &Value::Object(answer)).unwrap();
        let letter = result.specialist_summarization.unwrap();
        assert_eq!(letter.len(), sections.len());
        assert_eq!(letter["Beeldvorming"], "Beeldvorming tekst");
    }

    #[test]
    fn wrong_shapes_are_refused_naming_the_property() {
        assert_eq!(to_result(Template::Soap, Flavour::Normal, &json!([])), Err(ShapeError::NotAnObject));
        assert_eq!(to_result(Template::Soap, Flavour::Normal, &json!({"episodes": []})), Err(ShapeError::NoEpisodes));
        assert_eq!(to_result(Template::Soap, Flavour::Normal, &json!({"episodes": "S: hoest"})), Err(ShapeError::EpisodesNotObjects));
        let cut = json!({"episodes": [{"subjective": "a", "objective": "b", "diagnosis": "c"}]});
        assert_eq!(to_result(Template::Soap, Flavour::Normal, &cut), Err(ShapeError::Missing("episodes[0].plan".to_owned())));
        assert_eq!(
            to_result(Template::Report, Flavour::Normal, &json!({"subjective": "a", "objective": 3, "plan": "c"})),
            Err(ShapeError::NotAString("objective".to_owned()))
        );
        assert_eq!(
            to_result(Template::Specialist, Flavour::Normal, &json!({"Anamnese": "x"})),
            Err(ShapeError::Missing("Reden van verwijzing".to_owned()))
        );
        assert_eq!(
            to_result(Template::Dictation, Flavour::Normal, &json!({"dictation": "x"})),
            Err(ShapeError::Missing("summarizedDictation".to_owned()))
        );
    }
}
