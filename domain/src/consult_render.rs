//! A consult's note rewritten for the patient or for a carer: plain Dutch headings instead of
//! S, O, E and P, in the order a reader expects. The text of each part is the clinician's own
//! (or the summariser's); only the frame around it changes.

use serde_json::Value;

/// For whom the note is rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Perspective {
    Patient,
    Carer,
}

impl Perspective {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "PATIENT" => Some(Self::Patient),
            "CARER" => Some(Self::Carer),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Patient => "PATIENT",
            Self::Carer => "CARER",
        }
    }
}

struct Headings {
    title: &'static str,
    told: &'static str,
    found: &'static str,
    assessed: &'static str,
    agreed: &'static str,
}

const PATIENT: Headings = Headings {
    title: "Samenvatting van uw consult",
    told: "Wat u vertelde",
    found: "Wat bij het onderzoek werd gevonden",
    assessed: "Wat de zorgverlener ervan denkt",
    agreed: "Wat we hebben afgesproken",
};

const CARER: Headings = Headings {
    title: "Samenvatting van het consult van uw naaste",
    told: "Wat de patiënt vertelde",
    found: "Wat bij het onderzoek werd gevonden",
    assessed: "Wat de zorgverlener ervan denkt",
    agreed: "Wat er is afgesproken",
};

/// The rendering of a consult's content (`content.result`, the consult result), or `None` when
/// the consult has no note yet.
pub fn render(content: &Value, perspective: Perspective) -> Option<String> {
    let result = content.get("result")?;
    let h = match perspective {
        Perspective::Patient => &PATIENT,
        Perspective::Carer => &CARER,
    };
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::trim).unwrap_or("").to_owned();
    let mut parts: Vec<String> = Vec::new();
    let episodes = result.get("episodes").and_then(Value::as_array).cloned().unwrap_or_default();
    let filled: Vec<&Value> =
        episodes.iter().filter(|e| ["subjective", "objective", "diagnosis", "plan"].iter().any(|k| !text(e, k).is_empty())).collect();
    for (n, episode) in filled.iter().enumerate() {
        if filled.len() > 1 {
            parts.push(format!("Klacht {}", n + 1));
        }
        for (heading, key) in [(h.told, "subjective"), (h.found, "objective"), (h.assessed, "diagnosis"), (h.agreed, "plan")] {
            let body = text(episode, key);
            if !body.is_empty() {
                parts.push(format!("{heading}\n{body}"));
            }
        }
    }
    if let Some(sections) = result.get("specialistSummarization").and_then(Value::as_object) {
        for (name, body) in sections {
            let body = body.as_str().unwrap_or("").trim();
            if !body.is_empty() {
                parts.push(format!("{name}\n{body}"));
            }
        }
    }
    for (heading, key) in [("Verslag", "dictation"), ("Samenvatting", "summarizedDictation"), ("Verslag van het overleg", "meeting")] {
        let body = text(result, key);
        if !body.is_empty() {
            parts.push(format!("{heading}\n{body}"));
        }
    }
    if parts.is_empty() {
        return None;
    }
    Some(format!("{}\n\n{}", h.title, parts.join("\n\n")))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_soap_note_gets_plain_headings_per_reader() {
        let content = json!({"result": {"episodes": [{"subjective": "Drie dagen hoofdpijn.", "objective": "RR 135/85.", "diagnosis": "Spanningshoofdpijn.", "plan": "Paracetamol."}]}});
        let patient = render(&content, Perspective::Patient).unwrap();
        assert!(patient.starts_with("Samenvatting van uw consult\n\nWat u vertelde\nDrie dagen hoofdpijn."), "{patient}");
        assert!(patient.contains("Wat we hebben afgesproken\nParacetamol."));
        let carer = render(&content, Perspective::Carer).unwrap();
        assert!(carer.contains("Wat de patiënt vertelde\nDrie dagen hoofdpijn."), "{carer}");
        assert!(!carer.contains("Klacht 1"));
    }

    #[test]
    fn several_episodes_are_numbered_and_empty_parts_left_out() {
        let content = json!({"result": {"episodes": [
            {"subjective": "Hoest.", "objective": "", "diagnosis": "", "plan": "Afwachten."},
            {"subjective": "Knie.", "objective": "Zwelling.", "diagnosis": "", "plan": ""},
            {"subjective": "", "objective": "", "diagnosis": "", "plan": ""}]}});
        let text = render(&content, Perspective::Patient).unwrap();
        assert!(text.contains("Klacht 1\n\nWat u vertelde\nHoest.") && text.contains("Klacht 2"), "{text}");
        assert!(!text.contains("Klacht 3") && !text.contains("Wat de zorgverlener ervan denkt"));
    }

    #[test]
    fn no_note_no_rendering() {
        assert_eq!(render(&json!({}), Perspective::Patient), None);
        assert_eq!(render(&json!({"result": {"episodes": []}}), Perspective::Carer), None);
        assert_eq!(Perspective::parse("patient"), None);
    }
}
