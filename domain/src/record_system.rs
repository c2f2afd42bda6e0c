//! The hand-off of a finished note to the record system (the GP's patient record): which return
//! addresses are allowed, and the note in the shape the record system takes.
//!
//! The record system sends the clinician to Spreekkamer and names a return address; the note goes
//! back to that address in a form field. Only addresses whose origin (scheme, host and port) is
//! on the configured allow-list are accepted, so the hand-off can never forward a note, or a
//! browser, anywhere else.

use serde::Serialize;
use serde_json::Value;
use url::Url;

/// The longest return address accepted.
pub const MAX_URL_LEN: usize = 2048;

/// Whether a URL's scheme and host may be used at all: https, or http on the machine itself.
fn scheme_allowed(url: &Url) -> bool {
    match url.scheme() {
        "https" => true,
        "http" => matches!(url.host_str(), Some("localhost") | Some("127.0.0.1")),
        _ => false,
    }
}

/// Reads an allow-list entry: an origin such as `https://his.example.nl` or
/// `http://localhost:3000` (https only, except on localhost and 127.0.0.1; no user, path, query
/// or fragment).
pub fn parse_origin(raw: &str) -> Result<Url, String> {
    let url = Url::parse(raw.trim()).map_err(|e| format!("{raw:?} is not a URL: {e}"))?;
    if !scheme_allowed(&url) {
        return Err(format!("{raw:?}: only https origins are allowed (http only on localhost and 127.0.0.1)"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(format!("{raw:?}: an origin carries no user or password"));
    }
    if url.path() != "/" || url.query().is_some() || url.fragment().is_some() {
        return Err(format!("{raw:?}: give the origin only (scheme, host and port), without a path"));
    }
    Ok(url)
}

fn same_origin(a: &Url, b: &Url) -> bool {
    a.scheme() == b.scheme() && a.host() == b.host() && a.port_or_known_default() == b.port_or_known_default()
}

/// The return address, if it is allowed: absolute, at most [`MAX_URL_LEN`] long, without user
/// or password, and of exactly one of the `allowed` origins.
pub fn allowed_redirect(raw: &str, allowed: &[Url]) -> Option<Url> {
    if raw.len() > MAX_URL_LEN || raw.trim() != raw {
        return None;
    }
    let url = Url::parse(raw).ok()?;
    if !scheme_allowed(&url) || !url.username().is_empty() || url.password().is_some() {
        return None;
    }
    allowed.iter().any(|origin| same_origin(origin, &url)).then_some(url)
}

/// One episode of a note, as the record system takes it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Episode {
    /// S
    pub subjective: String,
    /// O
    pub objective: String,
    /// E
    pub evaluation: String,
    /// P
    pub plan: String,
    /// The ICPC codes the clinician accepted (`R74`); left out when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub icpc: Vec<String>,
}

impl Episode {
    fn is_empty(&self) -> bool {
        [&self.subjective, &self.objective, &self.evaluation, &self.plan].iter().all(|p| p.trim().is_empty())
    }
}

fn part(value: &Value, keys: &[&str]) -> String {
    keys.iter().find_map(|k| value.get(*k).and_then(Value::as_str)).unwrap_or("").trim().to_owned()
}

fn episode_of(value: &Value) -> Episode {
    Episode {
        subjective: part(value, &["subjective"]),
        objective: part(value, &["objective"]),
        // the summariser calls E `diagnosis`; a corrected note may say `evaluation`
        evaluation: part(value, &["evaluation", "diagnosis"]),
        plan: part(value, &["plan"]),
        icpc: accepted_codes(value),
    }
}

/// The codes of an episode's `codes` (as [`crate::summary::EpisodeCode`] writes them) that the
/// clinician accepted, each once, in their order.
fn accepted_codes(value: &Value) -> Vec<String> {
    let mut accepted: Vec<String> = Vec::new();
    for code in value.get("codes").and_then(Value::as_array).into_iter().flatten() {
        if code.get("accepted").and_then(Value::as_bool) == Some(true)
            && let Some(id) = code.get("code").and_then(Value::as_str).map(str::trim).filter(|id| !id.is_empty())
            && !accepted.iter().any(|a| a == id)
        {
            accepted.push(id.to_owned());
        }
    }
    accepted
}

/// The episodes of a consult result: `{episodes: [{subjective, objective, diagnosis or
/// evaluation, plan}]}`, or a report's single `{subjective, objective, plan}`. Episodes with all
/// four parts empty are left out.
pub fn episodes_of(result: &Value) -> Vec<Episode> {
    let episodes: Vec<Episode> = match result.get("episodes").and_then(Value::as_array) {
        Some(list) => list.iter().map(episode_of).collect(),
        None if result.is_object() => vec![episode_of(result)],
        None => Vec::new(),
    };
    episodes.into_iter().filter(|e| !e.is_empty()).collect()
}

/// What the record system receives in its form field: the JSON text
/// `{"episodes":[{"subjective":"…","objective":"…","evaluation":"…","plan":"…","icpc":["R74"]}]}`
/// (`icpc` only when codes were accepted).
pub fn record_system_data(episodes: &[Episode]) -> String {
    #[derive(Serialize)]
    struct Data<'a> {
        episodes: &'a [Episode],
    }
    serde_json::to_string(&Data { episodes }).expect("episodes serialise")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn list() -> Vec<Url> {
        vec![parse_origin("https://his.example.nl").unwrap(), parse_origin("http://localhost:3000").unwrap()]
    }

    #[test]
    fn only_addresses_of_an_allowed_origin_pass() {
        let ok = allowed_redirect("https://his.example.nl/terug?x=1#a", &list()).unwrap();
        assert_eq!(ok.path(), "/terug");
        assert!(allowed_redirect("https://HIS.example.nl:443/terug", &list()).is_some());
        assert!(allowed_redirect("http://localhost:3000/terug", &list()).is_some());
        for refused in [
            "https://evil.example.nl/terug",
            "https://his.example.nl.evil.nl/terug",
            "http://his.example.nl/terug",
            "https://his.example.nl:8443/terug",
            "https://user:pw@his.example.nl/terug",
            "https://his.example.nl@evil.nl/terug",
            "javascript:alert(1)",
            "/terug",
            "//evil.nl/terug",
            "http://localhost:3001/terug",
            " https://his.example.nl/terug",
            "",
        ] {
            assert!(allowed_redirect(refused, &list()).is_none(), "{refused}");
        }
        assert!(allowed_redirect("https://his.example.nl/terug", &[]).is_none());
    }

    #[test]
    fn the_allow_list_takes_origins_only() {
        assert!(parse_origin("http://his.example.nl").is_err());
        assert!(parse_origin("https://his.example.nl/pad").is_err());
        assert!(parse_origin("https://u@his.example.nl").is_err());
        assert!(parse_origin("his.example.nl").is_err());
        assert!(parse_origin("http://127.0.0.1:8000/").is_ok());
    }

    #[test]
    fn episodes_come_from_a_soep_result_or_a_report() {
        let result = json!({"episodes": [
            {"subjective": " Hoest ", "objective": "", "diagnosis": "Bronchitis", "plan": "Afwachten"},
            {"subjective": "", "objective": "", "diagnosis": "", "plan": ""}
        ]});
        let episodes = episodes_of(&result);
        assert_eq!(
            episodes,
            vec![Episode {
                subjective: "Hoest".into(),
                objective: "".into(),
                evaluation: "Bronchitis".into(),
                plan: "Afwachten".into(),
                icpc: vec![]
            }]
        );
        assert_eq!(
            record_system_data(&episodes),
            r#"{"episodes":[{"subjective":"Hoest","objective":"","evaluation":"Bronchitis","plan":"Afwachten"}]}"#
        );
        assert_eq!(episodes_of(&json!({"subjective": "Knie", "plan": "Rust"})).len(), 1);
        // accepted codes go along, suggestions the clinician left alone do not
        let coded = episodes_of(&json!({"episodes": [{"diagnosis": "Keelontsteking", "codes": [
            {"code": "R74", "title": "Verkoudheid", "evidence": [], "accepted": true},
            {"code": "R21", "title": "Keelpijn", "evidence": []},
            {"code": "R74", "title": "Verkoudheid", "evidence": [], "accepted": true}
        ]}]}));
        assert_eq!(coded[0].icpc, ["R74"]);
        assert_eq!(
            record_system_data(&coded),
            r#"{"episodes":[{"subjective":"","objective":"","evaluation":"Keelontsteking","plan":"","icpc":["R74"]}]}"#
        );
        assert!(episodes_of(&json!("tekst")).is_empty());
    }
}
