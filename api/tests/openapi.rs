//! The committed `api/openapi.json` is the contract the SPA's types come from: it must match
//! what the handlers describe. Run with `UPDATE_OPENAPI=1` to accept an intended change.

mod common;

use common::TestApp;
use sqlx::PgPool;

const SNAPSHOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.json");

#[test]
fn the_committed_openapi_document_matches_the_handlers() {
    let generated = api::openapi::document();
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(SNAPSHOT, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(SNAPSHOT).unwrap_or_default();
    assert!(committed == generated, "api/openapi.json is out of date; if the change is intended run `make openapi` and commit it");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_document_is_served(pool: PgPool) {
    let app = TestApp::spawn(pool).await;
    let served: serde_json::Value = app.http.get(app.url("/api/openapi.json")).send().await.unwrap().json().await.unwrap();
    assert!(served["paths"]["/api/user/me"]["get"].is_object());
    assert_eq!(served["components"]["securitySchemes"]["bearer"]["scheme"], "bearer");
}

#[test]
fn every_operation_has_its_own_id() {
    // The SPA's generated client keys operations by id: two handlers with one name would give
    // one of them the other's parameters.
    let document: serde_json::Value = serde_json::from_str(&api::openapi::document()).unwrap();
    let mut seen = std::collections::BTreeMap::new();
    for (path, operations) in document["paths"].as_object().unwrap() {
        for (method, operation) in operations.as_object().unwrap() {
            if let Some(id) = operation.get("operationId").and_then(|v| v.as_str())
                && let Some(other) = seen.insert(id.to_owned(), format!("{method} {path}"))
            {
                panic!("operation id {id:?} is used by {other} and by {method} {path}");
            }
        }
    }
    assert!(seen.len() > 40);
}

/// Routes the document leaves out, each with its reason.
const UNDOCUMENTED: &[(&str, &str, &str)] = &[
    // OpenAPI has no operation for a websocket; its messages are the components
    // `SpeechClientMessage` and `SpeechServerMessage` (see the test below)
    ("GET", "/ws/speech/{service}/{session_id}", "the live consult websocket"),
    ("GET", "/api/openapi.json", "the document itself"),
    ("ANY", "/api/{*rest}", "the JSON 404 for unknown api paths"),
];

/// Every `.route(path, method(handler)...)` in the api's source, as (method, path, handler).
/// axum's router cannot list its routes, so they are read from the source, where each router
/// module declares them; a `.route(` this cannot read fails the test rather than be skipped. The
/// development sign-in issuer (`src/dev_oidc`, under `/oidc`) is not part of the product's api,
/// nor are the SPA's files.
fn routes_in_source() -> Vec<(String, String, Option<String>)> {
    fn files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.file_name().unwrap() != "dev_oidc" {
                    files(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut sources = Vec::new();
    files(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut sources);
    let method = regex_lite_method();
    let mut routes = Vec::new();
    for file in sources {
        let text = std::fs::read_to_string(&file).unwrap();
        for (at, _) in text.match_indices(".route(") {
            let rest = &text[at + ".route(".len()..];
            let where_ = || format!("{}:{}", file.display(), text[..at].lines().count());
            let rest = rest.trim_start();
            let path = rest
                .strip_prefix('"')
                .and_then(|r| r.split_once('"'))
                .map(|(path, _)| path.to_owned())
                .unwrap_or_else(|| panic!("{}: a route whose path is not a literal; write it as one", where_()));
            // the method router: up to the `)` that closes `.route(`
            let mut depth = 1;
            let body: String = rest
                .chars()
                .take_while(|c| {
                    match c {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    depth > 0
                })
                .collect();
            let found = method(&body);
            assert!(!found.is_empty(), "{}: no method router found in `.route(\"{path}\", ...)`", where_());
            for (m, handler) in found {
                routes.push((m, path.clone(), handler));
            }
        }
        for nest in [".nest(", ".nest_service(", ".route_service("] {
            for (at, _) in text.match_indices(nest) {
                let line = &text[at..text[at..].find('\n').map_or(text.len(), |n| at + n)];
                // the development issuer, and the SPA's hashed files
                let known = ["\"/oidc\"", "\"/assets\""].iter().any(|p| line.contains(p));
                assert!(known, "{}: `{line}` adds routes this test cannot see", file.display());
            }
        }
    }
    routes
}

/// `get(handler)`, `.post(handler)`, `any(...)` in a method router, with the handler's name when
/// it is a path (not a closure).
fn regex_lite_method() -> impl Fn(&str) -> Vec<(String, Option<String>)> {
    |body: &str| {
        let mut found = Vec::new();
        for name in ["get", "post", "put", "delete", "patch", "head", "options", "any"] {
            for (at, _) in body.match_indices(&format!("{name}(")) {
                let before = body[..at].chars().last();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let args = &body[at + name.len() + 1..];
                let handler: String = args.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
                let handler = (!handler.is_empty()).then(|| handler.rsplit("::").next().unwrap().to_owned());
                found.push((name.to_ascii_uppercase(), handler));
            }
        }
        found
    }
}

#[test]
fn every_route_of_the_api_is_in_the_document_and_every_documented_one_is_routed() {
    let document: serde_json::Value = serde_json::from_str(&api::openapi::document()).unwrap();
    let documented: std::collections::BTreeMap<(String, String), String> = document["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, operations)| {
            operations.as_object().unwrap().iter().map(move |(method, operation)| {
                ((method.to_ascii_uppercase(), path.clone()), operation["operationId"].as_str().unwrap_or_default().to_owned())
            })
        })
        .collect();
    let routes = routes_in_source();
    assert!(routes.len() > 40, "only {} routes found in the source", routes.len());
    let mut missing = Vec::new();
    for (method, path, handler) in &routes {
        if UNDOCUMENTED.iter().any(|(m, p, _)| m == method && p == path) {
            continue;
        }
        match documented.get(&(method.clone(), path.clone())) {
            None => missing.push(format!("{method} {path} is routed but not in the document")),
            Some(id) => {
                if let Some(handler) = handler {
                    assert_eq!(id, handler, "{method} {path} is routed to `{handler}` but documented by `{id}`");
                }
            }
        }
    }
    for (method, path) in documented.keys() {
        if !routes.iter().any(|(m, p, _)| m == method && p == path) {
            missing.push(format!("{method} {path} is in the document but not routed"));
        }
    }
    for (method, path, why) in UNDOCUMENTED {
        assert!(
            routes.iter().any(|(m, p, _)| m == method && p == path),
            "{method} {path} ({why}) is listed as undocumented but no longer routed"
        );
    }
    assert!(missing.is_empty(), "the document and the routers differ:\n{}", missing.join("\n"));
}

#[test]
fn every_reference_in_the_document_names_a_schema_it_has() {
    // the SPA's type generator refuses a document with a dangling `$ref`
    fn refs(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(map) => {
                if let Some(serde_json::Value::String(r)) = map.get("$ref") {
                    out.push(r.clone());
                }
                map.values().for_each(|v| refs(v, out));
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
            _ => {}
        }
    }
    let document: serde_json::Value = serde_json::from_str(&api::openapi::document()).unwrap();
    let mut found = Vec::new();
    refs(&document, &mut found);
    assert!(!found.is_empty());
    for r in found {
        let name = r.strip_prefix("#/components/schemas/").unwrap_or_else(|| panic!("unexpected reference {r}"));
        assert!(document["components"]["schemas"][name].is_object(), "{r} names no schema of the document");
    }
}

#[test]
fn the_not_blank_pattern_is_exactly_what_trim_leaves() {
    // the white space `str::trim` removes (Unicode White_Space), as ranges
    use api::fields::WHITE_SPACE as WHITE;
    for c in (0..=0x10ffff).filter_map(char::from_u32) {
        let listed = WHITE.iter().any(|(a, b)| (*a..=*b).contains(&(c as u32)));
        assert_eq!(c.is_whitespace(), listed, "U+{:04X}", c as u32);
    }
    let escape = |n: u32| match n {
        0x09 => "\\t".to_owned(),
        0x0d => "\\r".to_owned(),
        0x20 => " ".to_owned(),
        n => format!("\\u{n:04x}"),
    };
    let class: String = WHITE
        .iter()
        .map(|(a, b)| if b - a > 1 { format!("{}-{}", escape(*a), escape(*b)) } else { (*a..=*b).map(escape).collect() })
        .collect();
    assert_eq!(api::fields::NOT_BLANK, format!("[^{class}]"));
    // and the annotations, which must repeat it as a literal, do
    let document = api::openapi::document();
    let escaped = serde_json::to_string(api::fields::NOT_BLANK).unwrap();
    let near_copies = document.matches("\"[^\\\\t-\\\\r").count();
    assert!(near_copies >= 4, "only {near_copies} not-blank patterns in the document");
    assert_eq!(document.matches(&format!("\"pattern\": {escaped}")).count(), near_copies);
}

#[test]
fn a_whole_number_with_a_zero_fraction_counts_as_the_integer_the_document_promises() {
    #[derive(serde::Deserialize)]
    struct Body {
        #[serde(default, deserialize_with = "api::fields::whole_number")]
        n: Option<u8>,
    }
    let n = |json: &str| serde_json::from_str::<Body>(json).map(|b| b.n).map_err(|e| e.to_string());
    assert_eq!(n(r#"{"n": 8}"#), Ok(Some(8)));
    assert_eq!(n(r#"{"n": 8.0}"#), Ok(Some(8)));
    assert_eq!(n(r#"{"n": null}"#), Ok(None));
    assert_eq!(n(r#"{}"#), Ok(None));
    assert!(n(r#"{"n": 8.5}"#).is_err());
    assert!(n(r#"{"n": 300}"#).is_err());
    assert!(n(r#"{"n": -1}"#).is_err());
    assert!(n(r#"{"n": "8"}"#).is_err());
}

/// The `type`s of a tagged union in the document: each alternative's one-valued `type` enum.
fn tags(document: &serde_json::Value, schema: &str) -> Vec<String> {
    let alternatives =
        document["components"]["schemas"][schema]["oneOf"].as_array().unwrap_or_else(|| panic!("{schema} is not a oneOf in the document"));
    alternatives
        .iter()
        .map(|alternative| {
            let alternative = match alternative.get("allOf") {
                Some(parts) => parts.as_array().unwrap().iter().find(|p| p["properties"].get("type").is_some()).unwrap().clone(),
                None => alternative.clone(),
            };
            let tag = &alternative["properties"]["type"]["enum"];
            assert_eq!(tag.as_array().map(Vec::len), Some(1), "{schema}: {alternative}");
            assert!(alternative["required"].as_array().unwrap().iter().any(|r| r == "type"), "{schema}: {alternative}");
            tag[0].as_str().unwrap().to_owned()
        })
        .collect()
}

#[test]
fn the_socket_messages_are_in_the_document_as_the_socket_reads_and_writes_them() {
    let document: serde_json::Value = serde_json::from_str(&api::openapi::document()).unwrap();
    assert_eq!(tags(&document, "SpeechClientMessage"), ["summarize", "ping"]);
    assert_eq!(tags(&document, "SpeechServerMessage"), ["ready", "transcript", "summarization", "job", "error", "pong"]);
    // what the client sends reads as the documented type
    let summarize: api::consult::socket::SpeechClientMessage =
        serde_json::from_value(serde_json::json!({"type": "summarize", "request": {"template": "meeting", "transcript": "Punt één."}}))
            .unwrap();
    assert!(
        matches!(summarize, api::consult::socket::SpeechClientMessage::Summarize { request } if request.options.template == domain::summary::Template::Meeting)
    );
    let ping: api::consult::socket::SpeechClientMessage = serde_json::from_value(serde_json::json!({"type": "ping"})).unwrap();
    assert!(matches!(ping, api::consult::socket::SpeechClientMessage::Ping));
    // the note's and the job state's names are the domain's
    let states = document["components"]["schemas"]["JobState"]["enum"].clone();
    assert_eq!(states, serde_json::json!(domain::jobs::JobState::ALL.map(|s| s.as_str())));
    let sections = document["components"]["schemas"]["SpecialistSection"]["enum"].clone();
    assert_eq!(sections, serde_json::json!(domain::summary::all_specialist_sections()));
}

#[test]
fn the_form_text_patterns_accept_exactly_what_the_checks_take() {
    use api::fields::HIDDEN;
    use domain::billing::details::{Postcode, looks_like_email};
    use domain::text::has_hidden_characters;
    let listed = |ranges: &[(u32, u32)], c: char| ranges.iter().any(|(a, b)| (*a..=*b).contains(&(c as u32)));
    // WHITE_SPACE is held to `char::is_whitespace` by the not-blank test
    for c in (0..=0x10ffff).filter_map(char::from_u32) {
        assert_eq!(domain::text::is_hidden_character(c), listed(HIDDEN, c), "hidden U+{:04X}", c as u32);
    }
    let pattern = |schema: utoipa::openapi::Object| regex::Regex::new(schema.pattern.as_deref().unwrap()).unwrap();
    let (line, optional, email, postcode) = (
        pattern(api::fields::one_line_text()),
        pattern(api::fields::optional_line_text()),
        pattern(api::fields::email_address()),
        pattern(api::fields::postcode()),
    );
    let takes_line = |s: &str| !s.trim().is_empty() && !has_hidden_characters(s.trim());
    let takes_email = |s: &str| looks_like_email(s.trim()) && !has_hidden_characters(s.trim());
    // every text of up to four characters from a palette of the characters that decide
    let palette = ['a', '1', 'B', '@', ' ', '\t', '\n', '\u{a0}', '\u{2028}', '\u{200b}', '\u{202e}', 'é'];
    let mut level = vec![String::new()];
    let mut texts = level.clone();
    for _ in 0..4 {
        level = level.iter().flat_map(|t| palette.map(|c| format!("{t}{c}"))).collect();
        texts.extend(level.iter().cloned());
    }
    texts.extend(
        ["1234AB", " 1234 ab ", "1 2 3 4 A B", "123AB", "12345A", "1234ABC", "a.b@praktijk.nl", " Anne de Vries "].map(String::from),
    );
    for text in &texts {
        assert_eq!(line.is_match(text), takes_line(text), "one-line text {text:?}");
        assert_eq!(optional.is_match(text), text.trim().is_empty() || takes_line(text), "optional text {text:?}");
        assert_eq!(email.is_match(text), takes_email(text), "e-mail address {text:?}");
        assert_eq!(postcode.is_match(text), Postcode::parse(text).is_ok(), "postcode {text:?}");
    }
}
