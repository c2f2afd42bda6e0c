//! The language-model summariser against a test double of an OpenAI-compatible chat-completions
//! server (and of Azure OpenAI), over loopback HTTP: the requests it sends per template and
//! flavour, and what it makes of good, repairable, cut-off, useless and failed answers.

use std::collections::{BTreeMap, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use integrations::speech::Speaker;
use integrations::summarise::llm::{LlmConfig, LlmSummariser, REFUSED_MESSAGE, ResponseFormat, UNUSABLE_MESSAGE};
use integrations::summarise::rules::testset;
use integrations::summarise::{
    ConsultResult, Episode, Flavour, ModelSize, SoapExample, SummariseError, Summariser, SummaryRequest, Template, TranscriptLine,
};
use serde_json::{Value, json};
use url::Url;

const KEY: &str = "sk-test-key";

/// What the double answers to the next request.
#[derive(Clone)]
enum Canned {
    /// A chat completion with this assistant content and finish reason.
    Answer { content: String, finish_reason: &'static str },
    /// A chat completion whose message is a refusal.
    Refusal,
    /// An OpenAI-style error with this status.
    Error(u16),
    /// No answer at all, until the client gives up.
    Hang,
}

fn answer(content: impl Into<String>) -> Canned {
    Canned::Answer { content: content.into(), finish_reason: "stop" }
}

/// One request as the double received it.
#[derive(Clone, Debug)]
struct Recorded {
    method: Method,
    path: String,
    query: Option<String>,
    headers: HeaderMap,
    body: Value,
    /// The body's bytes as they came: the order of its keys is there, not in `body`.
    raw: Bytes,
}

impl Recorded {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    fn messages(&self) -> &Vec<Value> {
        self.body["messages"].as_array().expect("messages is an array")
    }

    fn roles(&self) -> Vec<&str> {
        self.messages().iter().map(|m| m["role"].as_str().expect("role is a string")).collect()
    }

    fn content(&self, index: usize) -> &str {
        self.messages()[index]["content"].as_str().expect("content is a string")
    }

    fn system(&self) -> &str {
        assert_eq!(self.messages()[0]["role"], "system");
        self.content(0)
    }

    fn last_user(&self) -> &str {
        let last = self.messages().last().expect("messages");
        assert_eq!(last["role"], "user");
        last["content"].as_str().expect("content")
    }
}

#[derive(Clone, Default)]
struct DoubleState {
    requests: Arc<Mutex<Vec<Recorded>>>,
    replies: Arc<Mutex<VecDeque<Canned>>>,
    /// Some: Azure mode, this key in `api-key`; None: OpenAI mode, `Authorization: Bearer KEY`.
    azure_key: Option<String>,
}

/// The chat-completions server double on 127.0.0.1.
struct Double {
    addr: SocketAddr,
    state: DoubleState,
}

impl Double {
    async fn start(azure_key: Option<&str>) -> Self {
        let state = DoubleState { azure_key: azure_key.map(str::to_owned), ..DoubleState::default() };
        let app = Router::new()
            .route("/v1/chat/completions", post(chat))
            .route("/openai/deployments/{deployment}/chat/completions", post(chat))
            .fallback(not_found)
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        tokio::spawn(async move {
            axum::serve(listener, app).await.expect("serve");
        });
        Self { addr, state }
    }

    fn reply(&self, canned: Canned) -> &Self {
        self.state.replies.lock().unwrap().push_back(canned);
        self
    }

    fn requests(&self) -> Vec<Recorded> {
        self.state.requests.lock().unwrap().clone()
    }

    fn take_requests(&self) -> Vec<Recorded> {
        std::mem::take(&mut *self.state.requests.lock().unwrap())
    }

    fn config(&self) -> LlmConfig {
        let mut config = LlmConfig::new(Url::parse(&format!("http://{}/v1", self.addr)).unwrap(), "model-medium");
        config.api_key = Some(KEY.to_owned());
        config.model_small = Some("model-small".to_owned());
        config.model_large = Some("model-large".to_owned());
        config.timeout = Duration::from_secs(60);
        config
    }

    fn summariser(&self) -> LlmSummariser {
        LlmSummariser::new(self.config()).expect("summariser")
    }
}

fn record(state: &DoubleState, method: Method, uri: &Uri, headers: HeaderMap, raw: &Bytes) {
    let body = serde_json::from_slice(raw).unwrap_or(Value::Null);
    state.requests.lock().unwrap().push(Recorded {
        method,
        path: uri.path().to_owned(),
        query: uri.query().map(str::to_owned),
        headers,
        body,
        raw: raw.clone(),
    });
}

fn error(status: u16, message: &str, code: &str) -> Response {
    let body = json!({"error": {"message": message, "type": "invalid_request_error", "param": null, "code": code}});
    (StatusCode::from_u16(status).unwrap(), axum::Json(body)).into_response()
}

async fn not_found(State(state): State<DoubleState>, method: Method, uri: Uri, headers: HeaderMap, body: Bytes) -> Response {
    record(&state, method, &uri, headers, &body);
    error(404, "Resource not found", "not_found")
}

async fn chat(State(state): State<DoubleState>, method: Method, uri: Uri, headers: HeaderMap, body: Bytes) -> Response {
    record(&state, method, &uri, headers.clone(), &body);
    let authorised = match &state.azure_key {
        Some(key) => headers.get("api-key").and_then(|v| v.to_str().ok()) == Some(key.as_str()),
        None => headers.get("authorization").and_then(|v| v.to_str().ok()) == Some(&format!("Bearer {KEY}")),
    };
    if !authorised {
        return error(401, "Incorrect API key provided.", "invalid_api_key");
    }
    let Ok(request) = serde_json::from_slice::<Value>(&body) else {
        return error(400, "We could not parse the JSON body of your request.", "invalid_json");
    };
    let model = request["model"].as_str().unwrap_or_default().to_owned();
    let canned = state.replies.lock().unwrap().pop_front();
    let (message, finish_reason) = match canned {
        Some(Canned::Answer { content, finish_reason }) => {
            (json!({"role": "assistant", "content": content, "refusal": null}), finish_reason)
        }
        Some(Canned::Refusal) => {
            (json!({"role": "assistant", "content": null, "refusal": "I'm sorry, I cannot help with that request."}), "stop")
        }
        Some(Canned::Error(429)) => {
            return error(429, "Rate limit reached.", "rate_limit_exceeded");
        }
        Some(Canned::Error(status)) => {
            return error(status, "The server had an error.", "server_error");
        }
        Some(Canned::Hang) => {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            return error(500, "too late", "server_error");
        }
        None => return error(500, "no answer queued in the test double", "server_error"),
    };
    let completion_tokens = message["content"].as_str().map_or(0, |c| c.len() / 4);
    axum::Json(json!({
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": model,
        "system_fingerprint": "fp_test",
        "choices": [{"index": 0, "message": message, "logprobs": null, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": 100, "completion_tokens": completion_tokens, "total_tokens": 100 + completion_tokens},
    }))
    .into_response()
}

fn line(sentence: &str) -> TranscriptLine {
    TranscriptLine { sentence: sentence.to_owned(), speaker: None }
}

fn request(template: Template, flavour: Flavour, model_size: ModelSize) -> SummaryRequest {
    SummaryRequest {
        template,
        flavour,
        model_size,
        episode_count: 1,
        transcript: vec![line("Ik hoest al twee weken"), line("Vooral 's nachts."), line("De longen klinken schoon")],
        examples: vec![
            SoapExample {
                subjective: "1. Hoest sinds 1 wk.".into(),
                objective: "Temp 37,8.".into(),
                evaluation: "Virale LWI.".into(),
                plan: "1. Uitleg. 2. Terug z.n.".into(),
            },
            SoapExample {
                subjective: "Rugpijn na tillen.".into(),
                objective: String::new(),
                evaluation: "Aspecifieke lage rugpijn.".into(),
                plan: "Blijven bewegen.".into(),
            },
        ],
        ..SummaryRequest::default()
    }
}

const JOINED: &str = "Ik hoest al twee weken. Vooral 's nachts. De longen klinken schoon";

const SOAP_ANSWER: &str = r#"{"episodes": [{"subjective": "Hoest 2 wk, vooral 's nachts.", "objective": "Longen: schoon.", "diagnosis": "Virale luchtweginfectie.", "plan": "Uitleg, terug z.n."}]}"#;

fn soap_episode() -> Episode {
    Episode {
        subjective: "Hoest 2 wk, vooral 's nachts.".into(),
        objective: "Longen: schoon.".into(),
        diagnosis: "Virale luchtweginfectie.".into(),
        plan: "Uitleg, terug z.n.".into(),
        ..Default::default()
    }
}

fn sections(flavour: Flavour) -> Vec<&'static str> {
    match flavour {
        Flavour::KinderartsAllergoloog => vec![
            "Reden van verwijzing",
            "Anamnese",
            "Allergologische anamnese",
            "Lichamelijk onderzoek",
            "Aanvullend onderzoek",
            "Conclusie",
            "Beleid",
        ],
        Flavour::KinderartsOrthopeed => {
            vec!["Reden van verwijzing", "Anamnese", "Lichamelijk onderzoek", "Beeldvorming", "Conclusie", "Beleid"]
        }
        Flavour::Normal | Flavour::PohGgz => {
            vec!["Reden van verwijzing", "Anamnese", "Lichamelijk onderzoek", "Conclusie", "Beleid"]
        }
    }
}

/// A good answer per template, and the consult result it must become.
fn good_answer(template: Template, flavour: Flavour) -> (String, ConsultResult) {
    match template {
        Template::Soap => (SOAP_ANSWER.to_owned(), ConsultResult { episodes: vec![soap_episode()], ..Default::default() }),
        Template::Report => (
            r#"{"subjective": "Hoest 2 wk.", "objective": "Longen schoon.", "plan": "Uitleg."}"#.to_owned(),
            ConsultResult {
                episodes: vec![Episode {
                    subjective: "Hoest 2 wk.".into(),
                    objective: "Longen schoon.".into(),
                    diagnosis: String::new(),
                    plan: "Uitleg.".into(),
                    ..Default::default()
                }],
                ..Default::default()
            },
        ),
        Template::Dictation | Template::Radiology => (
            r#"{"dictation": "Ik hoest al twee weken, vooral 's nachts.", "summarizedDictation": "Hoest."}"#.to_owned(),
            ConsultResult {
                dictation: Some("Ik hoest al twee weken, vooral 's nachts.".into()),
                summarized_dictation: Some("Hoest.".into()),
                ..Default::default()
            },
        ),
        Template::Meeting => (
            r#"{"meeting": "Besproken punten:\n- Hoest\nBesluiten:\n- Geen\nActies:\n- Bellen (Anna)"}"#.to_owned(),
            ConsultResult {
                meeting: Some("Besproken punten:\n- Hoest\nBesluiten:\n- Geen\nActies:\n- Bellen (Anna)".into()),
                ..Default::default()
            },
        ),
        Template::Specialist => {
            let letter: BTreeMap<String, String> = sections(flavour).into_iter().map(|s| (s.to_owned(), format!("{s}: tekst."))).collect();
            (serde_json::to_string(&letter).unwrap(), ConsultResult { specialist_summarization: Some(letter), ..Default::default() })
        }
    }
}

/// The schema's required keys as the test expects them, written out per template.
fn expected_keys(template: Template, flavour: Flavour) -> Vec<&'static str> {
    match template {
        Template::Soap => vec!["episodes"],
        Template::Report => vec!["subjective", "objective", "plan"],
        Template::Dictation | Template::Radiology => vec!["dictation", "summarizedDictation"],
        Template::Meeting => vec!["meeting"],
        Template::Specialist => sections(flavour),
    }
}

/// A phrase only the system prompt of this template and flavour has.
fn prompt_marker(template: Template, flavour: Flavour) -> &'static str {
    match (template, flavour) {
        (Template::Soap, Flavour::PohGgz) => "SOEP-verslag van een gesprek van de POH-GGZ",
        (Template::Soap, _) => "SOEP-verslag van een consult voor het huisartsendossier",
        (Template::Report, Flavour::PohGgz) => "consultverslag (S, O en P) van een gesprek van de POH-GGZ",
        (Template::Report, _) => "consultverslag met de onderdelen S, O en P",
        (Template::Dictation, _) => "gedicteerde tekst van een zorgverlener schoon",
        (Template::Radiology, _) => "gedicteerd radiologieverslag schoon",
        (Template::Meeting, _) => "notulen van een overleg",
        (Template::Specialist, Flavour::KinderartsAllergoloog) => "brief van een kinderarts-allergoloog",
        (Template::Specialist, Flavour::KinderartsOrthopeed) => "brief van een kinderarts-orthopeed",
        (Template::Specialist, _) => "brief van een medisch specialist",
    }
}

fn schema_name(template: Template) -> &'static str {
    match template {
        Template::Soap => "soep_verslag",
        Template::Report => "consultverslag",
        Template::Dictation => "dictaat",
        Template::Radiology => "radiologie_dictaat",
        Template::Specialist => "specialistenbrief",
        Template::Meeting => "notulen",
    }
}

#[tokio::test]
async fn every_template_and_flavour_sends_its_own_request_and_reads_its_answer() {
    let double = Double::start(None).await;
    let summariser = double.summariser();
    let cases = [
        (Template::Soap, Flavour::Normal, ModelSize::Medium, "model-medium"),
        (Template::Soap, Flavour::PohGgz, ModelSize::Small, "model-small"),
        (Template::Report, Flavour::Normal, ModelSize::Large, "model-large"),
        (Template::Report, Flavour::PohGgz, ModelSize::Medium, "model-medium"),
        (Template::Dictation, Flavour::Normal, ModelSize::Small, "model-small"),
        (Template::Radiology, Flavour::Normal, ModelSize::Large, "model-large"),
        (Template::Meeting, Flavour::Normal, ModelSize::Medium, "model-medium"),
        (Template::Specialist, Flavour::Normal, ModelSize::Medium, "model-medium"),
        (Template::Specialist, Flavour::KinderartsAllergoloog, ModelSize::Small, "model-small"),
        (Template::Specialist, Flavour::KinderartsOrthopeed, ModelSize::Large, "model-large"),
    ];
    for (template, flavour, size, model) in cases {
        let case = format!("{template:?}/{flavour:?}");
        let (content, expected) = good_answer(template, flavour);
        double.reply(answer(content));
        let summary = summariser.summarise(&request(template, flavour, size)).await.expect(&case);
        assert_eq!(summary.result, expected, "{case}");
        assert_eq!(summary.engine, format!("llm:{model}"), "{case}");
        assert!(!summary.extractive);

        let sent = double.take_requests();
        assert_eq!(sent.len(), 1, "{case}");
        let sent = &sent[0];
        assert_eq!(sent.method, Method::POST, "{case}");
        assert_eq!(sent.path, "/v1/chat/completions", "{case}");
        assert_eq!(sent.query, None, "{case}");
        assert_eq!(sent.header("authorization"), Some(format!("Bearer {KEY}").as_str()), "{case}");
        assert!(sent.header("content-type").is_some_and(|c| c.starts_with("application/json")), "{case}");
        assert_eq!(sent.body["model"], model, "{case}");
        assert_eq!(sent.body["temperature"].as_f64().map(|t| (t * 100.0).round()), Some(20.0), "{case}");
        assert!(sent.body.get("max_tokens").is_none(), "{case}");

        let format = &sent.body["response_format"];
        assert_eq!(format["type"], "json_schema", "{case}");
        assert_eq!(format["json_schema"]["name"], schema_name(template), "{case}");
        assert_eq!(format["json_schema"]["strict"], true, "{case}");
        let schema = &format["json_schema"]["schema"];
        assert_eq!(schema["type"], "object", "{case}");
        assert_eq!(schema["additionalProperties"], false, "{case}");
        assert_eq!(schema["required"], json!(expected_keys(template, flavour)), "{case}");
        if template == Template::Soap {
            let items = &schema["properties"]["episodes"]["items"];
            assert_eq!(items["required"], json!(["subjective", "objective", "diagnosis", "plan"]), "{case}");
            assert_eq!(items["additionalProperties"], false, "{case}");
        }

        assert!(sent.system().contains(prompt_marker(template, flavour)), "{case}: {}", sent.system());
        assert!(sent.last_user().ends_with(JOINED), "{case}: {}", sent.last_user());
        match template {
            Template::Soap | Template::Report => {
                assert_eq!(sent.roles(), ["system", "user", "assistant", "user", "assistant", "user"], "{case}");
                assert!(sent.system().contains("Volg hun stijl"), "{case}");
                assert!(sent.content(1).starts_with("Voorbeeld 1 van 2"), "{case}");
                let first: Value = serde_json::from_str(sent.content(2)).expect("example answer is JSON");
                let second: Value = serde_json::from_str(sent.content(4)).expect("example answer is JSON");
                if template == Template::Soap {
                    assert_eq!(
                        first,
                        json!({"episodes": [{"subjective": "1. Hoest sinds 1 wk.", "objective": "Temp 37,8.",
                            "diagnosis": "Virale LWI.", "plan": "1. Uitleg. 2. Terug z.n."}]}),
                        "{case}"
                    );
                    assert_eq!(second["episodes"][0]["objective"], "", "{case}");
                } else {
                    assert_eq!(
                        first,
                        json!({"subjective": "1. Hoest sinds 1 wk.", "objective": "Temp 37,8.", "plan": "1. Uitleg. 2. Terug z.n."}),
                        "{case}"
                    );
                }
            }
            _ => {
                assert_eq!(sent.roles(), ["system", "user"], "{case}");
                assert!(!sent.system().contains("Volg hun stijl"), "{case}");
            }
        }
    }
}

/// Where each of `needles` first occurs in `haystack` from `from` on.
fn positions(haystack: &str, from: usize, needles: &[String]) -> Vec<usize> {
    needles.iter().map(|n| from + haystack[from..].find(n.as_str()).unwrap_or_else(|| panic!("{n} not in the body"))).collect()
}

fn increasing(positions: &[usize]) -> bool {
    positions.windows(2).all(|w| w[0] < w[1])
}

/// Constrained decoding writes an object's properties in the order of its schema, so the
/// request the product sends must list them in the note's order: an episode's S, O, E, P, and a
/// letter's sections as the letter has them ('Reden van verwijzing' first). Read on the body's
/// bytes as they arrived (a parsed `Value` sorts its keys).
#[tokio::test]
async fn the_request_lists_the_notes_fields_in_the_templates_order() {
    let double = Double::start(None).await;
    let summariser = double.summariser();

    double.reply(answer(SOAP_ANSWER));
    summariser.summarise(&request(Template::Soap, Flavour::Normal, ModelSize::Medium)).await.unwrap();
    let sent = double.take_requests().remove(0);
    let raw = std::str::from_utf8(&sent.raw).expect("the body is UTF-8");
    let schema_at = raw.find(r#""response_format":"#).expect("response_format");
    let quoted = |keys: &[&str]| keys.iter().map(|k| format!("\"{k}\":")).collect::<Vec<_>>();
    let items_at = schema_at + raw[schema_at..].find(r#""items":"#).expect("the episodes' items");
    let episode = positions(raw, items_at, &quoted(&["subjective", "objective", "diagnosis", "plan"]));
    assert!(increasing(&episode), "{}", &raw[schema_at..]);
    assert!(
        raw[items_at..].starts_with(
            r#""items":{"type":"object","properties":{"subjective":{"type":"string"},"objective":{"type":"string"},"diagnosis":{"type":"string"},"plan":{"type":"string"}},"required":["subjective","objective","diagnosis","plan"],"additionalProperties":false}"#
        ),
        "{}",
        &raw[schema_at..]
    );
    assert!(raw[schema_at..items_at].contains(r#""type":"array","minItems":1,"#), "at least one episode: {}", &raw[schema_at..]);
    // the examples' answers show the same order (the model copies what it is shown)
    assert!(
        raw.contains(
            r#"{\"episodes\":[{\"subjective\":\"1. Hoest sinds 1 wk.\",\"objective\":\"Temp 37,8.\",\"diagnosis\":\"Virale LWI.\",\"plan\":\"1. Uitleg. 2. Terug z.n.\"}]}"#
        ),
        "{raw}"
    );

    for flavour in [Flavour::Normal, Flavour::KinderartsAllergoloog, Flavour::KinderartsOrthopeed] {
        let (content, _) = good_answer(Template::Specialist, flavour);
        double.reply(answer(content));
        summariser.summarise(&request(Template::Specialist, flavour, ModelSize::Medium)).await.unwrap();
        let sent = double.take_requests().remove(0);
        let raw = std::str::from_utf8(&sent.raw).expect("the body is UTF-8");
        let schema_at = raw.find(r#""response_format":"#).expect("response_format");
        let letter = sections(flavour);
        let at = positions(raw, schema_at, &quoted(&letter));
        assert!(increasing(&at), "{flavour:?}: {}", &raw[schema_at..]);
        assert!(raw[schema_at..].contains(r#""properties":{"Reden van verwijzing":{"type":"string"},"Anamnese":"#), "{flavour:?}");
        let required: Vec<String> = letter.iter().map(|s| format!("\"{s}\"")).collect();
        assert!(raw[schema_at..].contains(&format!(r#""required":[{}]"#, required.join(","))), "{flavour:?}: {}", &raw[schema_at..]);
    }
}

#[tokio::test]
async fn speakers_label_the_turns_and_options_reach_the_request() {
    let double = Double::start(None).await;
    let mut config = double.config();
    config.max_tokens = Some(2048);
    config.temperature = 0.0;
    let summariser = LlmSummariser::new(config).unwrap();
    let mut req = request(Template::Soap, Flavour::Normal, ModelSize::Medium);
    req.examples.clear();
    req.episode_count = 2;
    req.user_suggestion = Some("Noem de saturatie apart.".into());
    req.transcript = vec![
        TranscriptLine { sentence: "Wat kan ik voor u doen?".into(), speaker: Some(Speaker::Zorgverlener) },
        TranscriptLine { sentence: "Ik hoest al twee weken".into(), speaker: Some(Speaker::Patient) },
        TranscriptLine { sentence: "Vooral 's nachts".into(), speaker: Some(Speaker::Patient) },
        TranscriptLine { sentence: "De saturatie is 98 procent".into(), speaker: Some(Speaker::Zorgverlener) },
    ];
    double.reply(answer(SOAP_ANSWER));
    summariser.summarise(&req).await.unwrap();
    let sent = &double.requests()[0];
    assert_eq!(sent.roles(), ["system", "user"]);
    assert_eq!(sent.body["max_tokens"], 2048);
    assert_eq!(sent.body["temperature"], 0.0);
    assert!(sent.system().contains("verwacht 2 episodes"));
    assert!(sent.system().contains("Extra aanwijzing van de zorgverlener voor dit verslag"));
    assert!(sent.system().contains("Noem de saturatie apart."));
    assert!(sent.last_user().ends_with(
        "Zorgverlener: Wat kan ik voor u doen?\nPatiënt: Ik hoest al twee weken. Vooral 's nachts\n\
         Zorgverlener: De saturatie is 98 procent"
    ));
}

#[tokio::test]
async fn json_object_mode_writes_the_schema_into_the_prompt() {
    let double = Double::start(None).await;
    let mut config = double.config();
    config.response_format = ResponseFormat::JsonObject;
    let summariser = LlmSummariser::new(config).unwrap();
    let (content, expected) = good_answer(Template::Specialist, Flavour::KinderartsOrthopeed);
    double.reply(answer(content));
    let summary = summariser.summarise(&request(Template::Specialist, Flavour::KinderartsOrthopeed, ModelSize::Medium)).await.unwrap();
    assert_eq!(summary.result, expected);
    let sent = &double.requests()[0];
    assert_eq!(sent.body["response_format"], json!({"type": "json_object"}));
    assert!(sent.system().contains("Het JSON-schema van het antwoord:"));
    assert!(sent.system().contains("\"Beeldvorming\""));
}

#[tokio::test]
async fn two_episodes_map_in_order() {
    let double = Double::start(None).await;
    double.reply(answer(
        r#"{"episodes": [
            {"subjective": "Hoest.", "objective": "", "diagnosis": "Virale LWI.", "plan": "Uitleg."},
            {"subjective": "Rugpijn.", "objective": "Geen neurologische uitval.", "diagnosis": "Aspecifieke lage rugpijn.", "plan": "Paracetamol 1 g max 4 dd."}
        ]}"#,
    ));
    let summary = double.summariser().summarise(&request(Template::Soap, Flavour::Normal, ModelSize::Medium)).await.unwrap();
    let episodes = summary.result.episodes;
    assert_eq!(episodes.len(), 2);
    assert_eq!(episodes[0].objective, "");
    assert_eq!(episodes[1].diagnosis, "Aspecifieke lage rugpijn.");
    assert_eq!(episodes[1].plan, "Paracetamol 1 g max 4 dd.");
    assert_eq!(summary.result.dictation, None);
}

#[tokio::test]
async fn malformed_json_is_repaired_without_asking_again() {
    let double = Double::start(None).await;
    double.reply(answer(
        "Hier is het verslag:\n```json\n{\"episodes\": [{\"subjective\": \"Hoest 2 wk,\nvooral 's nachts.\", \
         \"objective\": \"Longen: schoon.\", \"diagnosis\": \"Virale luchtweginfectie.\", \"plan\": \"Uitleg, terug z.n.\",},]}\n```",
    ));
    let summary = double.summariser().summarise(&request(Template::Soap, Flavour::Normal, ModelSize::Medium)).await.unwrap();
    assert_eq!(summary.result.episodes.len(), 1);
    assert_eq!(summary.result.episodes[0].subjective, "Hoest 2 wk,\nvooral 's nachts.");
    assert_eq!(summary.result.episodes[0].plan, "Uitleg, terug z.n.");
    assert_eq!(double.requests().len(), 1);
}

#[tokio::test]
async fn an_answer_cut_off_in_the_last_text_is_closed_and_kept() {
    let double = Double::start(None).await;
    double.reply(Canned::Answer {
        content: r#"{"episodes": [{"subjective": "Hoest 2 wk.", "objective": "Longen schoon.", "diagnosis": "Virale LWI.", "plan": "Uitleg, terug als koorts"#
            .to_owned(),
        finish_reason: "length",
    });
    let summary = double.summariser().summarise(&request(Template::Soap, Flavour::Normal, ModelSize::Medium)).await.unwrap();
    assert_eq!(summary.result.episodes[0].plan, "Uitleg, terug als koorts");
    assert_eq!(summary.result.episodes[0].diagnosis, "Virale LWI.");
    assert_eq!(double.requests().len(), 1);
}

#[tokio::test]
async fn an_answer_cut_off_before_all_parts_is_asked_again() {
    let double = Double::start(None).await;
    let cut = r#"{"episodes": [{"subjective": "Hoest 2 wk.", "objective": "Longen schoon.", "diag"#;
    double.reply(Canned::Answer { content: cut.to_owned(), finish_reason: "length" }).reply(answer(SOAP_ANSWER));
    let summary = double.summariser().summarise(&request(Template::Soap, Flavour::Normal, ModelSize::Medium)).await.unwrap();
    assert_eq!(summary.result.episodes, vec![soap_episode()]);

    let sent = double.requests();
    assert_eq!(sent.len(), 2);
    let (first, second) = (&sent[0], &sent[1]);
    let n = first.messages().len();
    assert_eq!(second.messages()[..n], first.messages()[..]);
    assert_eq!(second.messages().len(), n + 2);
    assert_eq!(second.messages()[n], json!({"role": "assistant", "content": cut}));
    assert!(second.last_user().contains("geen geldig JSON-object"));
    assert!(second.last_user().contains("schrijf beknopter"));
    assert_eq!(second.body["response_format"], first.body["response_format"]);
    assert_eq!(second.body["model"], first.body["model"]);
}

#[tokio::test]
async fn garbage_twice_is_invalid_after_exactly_two_requests() {
    let double = Double::start(None).await;
    double.reply(answer("Het spijt me, ik kan hier geen verslag van maken.")).reply(answer(r#"{"subjective": "het verkeerde formaat"}"#));
    let error = double.summariser().summarise(&request(Template::Soap, Flavour::Normal, ModelSize::Medium)).await.unwrap_err();
    assert_eq!(
        error,
        SummariseError::Invalid("De samenvatting kon niet worden gemaakt: het taalmodel gaf geen bruikbaar antwoord.".to_owned())
    );
    assert_eq!(UNUSABLE_MESSAGE, "De samenvatting kon niet worden gemaakt: het taalmodel gaf geen bruikbaar antwoord.");
    let sent = double.requests();
    assert_eq!(sent.len(), 2);
    assert!(sent[1].last_user().contains("uitsluitend met het volledige, geldige JSON-object"));
    assert!(!sent[1].last_user().contains("beknopter"));
}

#[tokio::test]
async fn a_refusal_is_invalid_without_a_retry() {
    let double = Double::start(None).await;
    double.reply(Canned::Refusal);
    let error = double.summariser().summarise(&request(Template::Meeting, Flavour::Normal, ModelSize::Medium)).await.unwrap_err();
    assert_eq!(error, SummariseError::Invalid(REFUSED_MESSAGE.to_owned()));
    assert_eq!(double.requests().len(), 1);
}

#[tokio::test]
async fn server_errors_and_rate_limits_are_unavailable() {
    for status in [503, 500, 429] {
        let double = Double::start(None).await;
        double.reply(Canned::Error(status));
        let error = double.summariser().summarise(&request(Template::Soap, Flavour::Normal, ModelSize::Medium)).await.unwrap_err();
        match error {
            SummariseError::Unavailable(message) => {
                assert!(message.contains(&status.to_string()), "{message}")
            }
            other => panic!("{status}: expected Unavailable, got {other:?}"),
        }
        assert_eq!(double.requests().len(), 1, "{status}");
    }
}

#[tokio::test]
async fn a_wrong_key_is_invalid_naming_the_status() {
    let double = Double::start(None).await;
    let mut config = double.config();
    config.api_key = Some("sk-wrong".into());
    let error =
        LlmSummariser::new(config).unwrap().summarise(&request(Template::Soap, Flavour::Normal, ModelSize::Medium)).await.unwrap_err();
    assert_eq!(
        error,
        SummariseError::Invalid(
            "De samenvatting kon niet worden gemaakt: het taalmodel weigerde het verzoek (HTTP-status 401).".to_owned()
        )
    );
    let sent = double.requests();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].header("authorization"), Some("Bearer sk-wrong"));
}

#[tokio::test]
async fn no_server_is_unavailable() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let config = LlmConfig::new(Url::parse(&format!("http://{addr}/v1")).unwrap(), "m");
    let error =
        LlmSummariser::new(config).unwrap().summarise(&request(Template::Soap, Flavour::Normal, ModelSize::Medium)).await.unwrap_err();
    assert!(matches!(error, SummariseError::Unavailable(_)), "{error:?}");
}

#[tokio::test]
async fn a_server_that_does_not_answer_times_out_as_unavailable() {
    let double = Double::start(None).await;
    double.reply(Canned::Hang);
    let mut config = double.config();
    config.timeout = Duration::from_secs(1);
    let error =
        LlmSummariser::new(config).unwrap().summarise(&request(Template::Soap, Flavour::Normal, ModelSize::Medium)).await.unwrap_err();
    assert_eq!(error, SummariseError::Unavailable("het taalmodel gaf geen antwoord binnen 1 seconde".to_owned()));
}

#[tokio::test]
async fn azure_mode_uses_the_deployment_path_and_the_api_key_header() {
    let double = Double::start(Some("azure-key")).await;
    let mut config = double.config();
    config.base_url = Url::parse(&format!("http://{}", double.addr)).unwrap();
    config.api_key = Some("azure-key".into());
    config.azure_api_version = Some("2024-10-21".into());
    config.model = "gpt-4o-praktijk".into();
    config.model_small = None;
    let summariser = LlmSummariser::new(config).unwrap();
    let (content, expected) = good_answer(Template::Radiology, Flavour::Normal);
    double.reply(answer(content));
    let summary = summariser.summarise(&request(Template::Radiology, Flavour::Normal, ModelSize::Small)).await.unwrap();
    assert_eq!(summary.result, expected);
    assert_eq!(summary.engine, "llm:gpt-4o-praktijk");

    let sent = &double.requests()[0];
    assert_eq!(sent.method, Method::POST);
    assert_eq!(sent.path, "/openai/deployments/gpt-4o-praktijk/chat/completions");
    assert_eq!(sent.query.as_deref(), Some("api-version=2024-10-21"));
    assert_eq!(sent.header("api-key"), Some("azure-key"));
    assert_eq!(sent.header("authorization"), None);
    assert_eq!(sent.body["response_format"]["json_schema"]["name"], "radiologie_dictaat");
}

/// The language-model path keeps the note's register too: its prompt carries the rules the
/// embedded summariser keeps (telegram style, findings instead of questions, O only what was
/// examined today, E in the clinician's words, P and every fact per episode), and a speaker label
/// the model copies is taken out, so the test set's style check finds no label in what comes
/// back. The model's wording itself is not scored here: there is no model, only its double.
#[tokio::test]
async fn the_note_keeps_the_clinical_register_on_the_model_path() {
    let double = Double::start(None).await;
    double.reply(answer(
        r#"{"episodes": [
            {"subjective": "Patiënt: sinds 3 dagen keelpijn. Huisarts: geen koorts. Geen hoest.", "objective": "Keel rood, geen beslag.", "diagnosis": "Virale keelontsteking.", "plan": "Paracetamol zo nodig."},
            {"subjective": "Lage rugpijn na tillen, geen uitstraling.", "objective": "Lasègue negatief.", "diagnosis": "Aspecifieke lage rugpijn.", "plan": "- Pt: naproxen 500 mg 2 dd\n- Fysiotherapeut als het over 2 weken niet beter is"}
        ]}"#,
    ));
    let mut r = request(Template::Soap, Flavour::Normal, ModelSize::Medium);
    r.episode_count = 2;
    let summary = double.summariser().summarise(&r).await.unwrap();
    let [throat, back] = &summary.result.episodes[..] else { panic!("two episodes: {:?}", summary.result.episodes) };
    assert_eq!(throat.subjective, "sinds 3 dagen keelpijn. geen koorts. Geen hoest.");
    assert_eq!(back.plan, "- naproxen 500 mg 2 dd\n- Fysiotherapeut als het over 2 weken niet beter is");
    for e in &summary.result.episodes {
        for field in [&e.subjective, &e.objective, &e.diagnosis, &e.plan] {
            let v = testset::style_violations(field);
            assert_eq!((v.speaker_labels, v.questions, v.fillers, v.first_person), (0, 0, 0, 0), "{field}");
        }
    }
    assert!(!summary.extractive);

    let requests = double.requests();
    let system = requests[0].system();
    for rule in [
        "Telegramstijl in medische verslagtaal",
        "geen sprekerlabels",
        "geen vragen, geen stopwoorden",
        "'Hoest u ook? Nee, eigenlijk niet.' wordt 'Geen hoest.'",
        "O bevat alleen wat vandaag in dit consult is onderzocht of gemeten",
        "E is de beoordeling zoals de zorgverlener die uitspreekt",
        "P is per episode het beleid voor dat probleem",
        "Elk gegeven staat in de episode van het probleem",
    ] {
        assert!(system.contains(rule), "missing {rule:?} in:\n{system}");
    }
}
