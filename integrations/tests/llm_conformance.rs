//! The language-model summariser against doubles of the two engines the project names, Ollama
//! and vLLM, each written from the engine's source for what the product meets in practice: the
//! context window, the model that is not there yet, and the errors they answer with.
//!
//! **Ollama** (`ollama/ollama` at `fb30760`), `/v1/chat/completions` (`server/routes.go:1916`):
//! - The context window is `num_ctx`: 4096 tokens unless `OLLAMA_CONTEXT_LENGTH` says otherwise
//!   when the GPUs have under 23 GiB (`server/routes.go:2050-2057`; on CPU, as in the compose
//!   file, always), and the OpenAI-style endpoint cannot change it (`openai/openai.go`,
//!   `ChatCompletionRequest` has no options).
//! - A prompt over `num_ctx` is truncated as `chatPrompt` does (`server/prompt.go:24-73`): from
//!   the first message on, drop one message at a time, keeping every system message among the
//!   dropped ones, until the rendered prompt's tokens are at most `num_ctx`; the last message
//!   always stays. Nothing tells the client (a debug log line).
//! - A model that is not (yet) pulled: 404 `model 'X' not found` (`server/routes.go:2485`,
//!   `ChatHandler`), wrapped by `middleware/openai.go` `writeError` in `openai.NewError`
//!   (`openai/openai.go:225-237`): `{"error":{"message","type":"not_found_error","param":null,
//!   "code":null}}`.
//! - The answer: `openai.ToChatCompletion` (`openai/openai.go:269-300`): `system_fingerprint`
//!   `fp_ollama`, `finish_reason` `stop`, or `length` when the answer ran out of room.
//!
//! Tokens are counted as the double's own approximation of Qwen2.5's template and tokenizer: the
//! messages rendered as ChatML (`<|im_start|>role\n…<|im_end|>\n`, then
//! `<|im_start|>assistant\n`), each marker one token and the rest one token per 3 characters,
//! rounded up. Real tokenizers take about 3.5 to 4 characters of Dutch per token, so the double
//! is stricter than the engine. Not modelled: llama-server's context shift during generation (an
//! answer that does not fit in what the prompt leaves of `num_ctx` is cut there with
//! `finish_reason: length`), and a prompt still too long after truncation.
//!
//! **vLLM**, OpenAI server started with `--max-model-len`: a prompt of `max_model_len` tokens or
//! more, without `max_tokens`, is refused before it runs with 400 and `ErrorResponse`
//! (`vllm/entrypoints/openai/protocol.py`, `{"error": {"message", "type": "BadRequestError",
//! "param", "code": 400}}`), the message of `OpenAIServing._validate_input`
//! (`vllm/entrypoints/openai/serving_engine.py`, 0.6 to 0.10): "This model's maximum context
//! length is N tokens. However, your request has M input tokens. Please reduce the length of
//! the input messages."

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use integrations::summarise::llm::{LlmConfig, LlmSummariser, TOO_LONG_MESSAGE};
use integrations::summarise::prompts;
use integrations::summarise::{Flavour, ModelSize, SoapExample, SummariseError, Summariser, SummaryRequest, Template, TranscriptLine};
use serde_json::{Value, json};
use url::Url;

const MODEL: &str = "qwen2.5:7b-instruct";

/// Ollama's default `num_ctx` on a machine without a large GPU.
const OLLAMA_DEFAULT_NUM_CTX: usize = 4096;

#[derive(Clone)]
enum Engine {
    Ollama {
        num_ctx: usize,
        /// False until `ollama pull` is done.
        pulled: Arc<AtomicBool>,
    },
    Vllm {
        max_model_len: usize,
    },
}

/// One chat message as the double read it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Msg {
    role: String,
    content: String,
}

/// One request as the double received it, and what the engine made of it.
#[derive(Clone, Debug)]
struct Seen {
    sent: Vec<Msg>,
    /// The messages the engine kept (Ollama's truncation); all of them for vLLM.
    kept: Vec<Msg>,
    /// Tokens of the prompt the engine ran (or refused).
    prompt_tokens: usize,
    status: u16,
}

#[derive(Clone)]
struct DoubleState {
    engine: Engine,
    seen: Arc<Mutex<Vec<Seen>>>,
}

struct Double {
    addr: SocketAddr,
    state: DoubleState,
}

impl Double {
    async fn start(engine: Engine) -> Self {
        let state = DoubleState { engine, seen: Arc::default() };
        let app = Router::new().route("/v1/chat/completions", post(chat)).with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        tokio::spawn(async move {
            axum::serve(listener, app).await.expect("serve");
        });
        Self { addr, state }
    }

    fn ollama(num_ctx: usize) -> Engine {
        Engine::Ollama { num_ctx, pulled: Arc::new(AtomicBool::new(true)) }
    }

    fn seen(&self) -> Vec<Seen> {
        self.state.seen.lock().unwrap().clone()
    }

    /// The product's settings, with `APP_LLM_CONTEXT_TOKENS` = `context_tokens`.
    fn summariser(&self, context_tokens: u32) -> LlmSummariser {
        let mut config = LlmConfig::new(Url::parse(&format!("http://{}/v1", self.addr)).unwrap(), MODEL);
        config.timeout = Duration::from_secs(30);
        config.context_tokens = context_tokens;
        LlmSummariser::new(config).expect("summariser")
    }
}

/// Tokens of a ChatML prompt: each marker one, the rest one per 3 characters (rounded up).
fn tokens(rendered: &str) -> usize {
    let markers = rendered.matches("<|im_start|>").count() + rendered.matches("<|im_end|>").count();
    let text = rendered.replace("<|im_start|>", "").replace("<|im_end|>", "");
    markers + text.chars().count().div_ceil(3)
}

/// The prompt Qwen2.5's template renders from these messages.
fn render(messages: &[Msg]) -> String {
    let mut out = String::new();
    for m in messages {
        out.push_str(&format!("<|im_start|>{}\n{}<|im_end|>\n", m.role, m.content));
    }
    out.push_str("<|im_start|>assistant\n");
    out
}

/// `chatPrompt`'s truncation (`server/prompt.go:35-73`): the messages it keeps.
fn ollama_truncate(msgs: &[Msg], num_ctx: usize) -> Vec<Msg> {
    let last = msgs.len() - 1;
    let mut system = Vec::new();
    let mut current = 0;
    for i in 0..=last {
        // the system messages of the part about to be skipped
        system = msgs[..i].iter().filter(|m| m.role == "system").cloned().collect::<Vec<_>>();
        let candidate: Vec<Msg> = system.iter().chain(&msgs[i..]).cloned().collect();
        if tokens(&render(&candidate)) <= num_ctx {
            current = i;
            break;
        }
        // must always include at least the last message
        if i == last {
            current = last;
            break;
        }
    }
    system.into_iter().chain(msgs[current..].iter().cloned()).collect()
}

/// A note in the shape the request's schema asks for, its properties in the schema's order (its
/// `required` lists them in order; a parsed map would not).
fn note_for(schema: &Value) -> String {
    match schema["type"].as_str() {
        Some("object") => {
            let fields: Vec<String> = schema["required"]
                .as_array()
                .expect("required")
                .iter()
                .map(|key| {
                    let key = key.as_str().expect("a property name");
                    format!("{}:{}", json!(key), note_for(&schema["properties"][key]))
                })
                .collect();
            format!("{{{}}}", fields.join(","))
        }
        Some("array") => format!("[{}]", note_for(&schema["items"])),
        _ => json!("Besproken zoals in het transcript.").to_string(),
    }
}

fn error(status: u16, body: Value) -> Response {
    (StatusCode::from_u16(status).unwrap(), axum::Json(body)).into_response()
}

async fn chat(State(state): State<DoubleState>, body: Bytes) -> Response {
    let request: Value = serde_json::from_slice(&body).expect("a JSON body");
    let model = request["model"].as_str().unwrap_or_default().to_owned();
    let sent: Vec<Msg> = request["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| Msg { role: m["role"].as_str().unwrap().to_owned(), content: m["content"].as_str().unwrap().to_owned() })
        .collect();
    let record = |kept: Vec<Msg>, prompt_tokens: usize, status: u16| {
        state.seen.lock().unwrap().push(Seen { sent: sent.clone(), kept, prompt_tokens, status });
    };
    let (kept, room) = match &state.engine {
        Engine::Ollama { pulled, .. } if !pulled.load(Ordering::SeqCst) => {
            record(Vec::new(), 0, 404);
            let message = format!("model '{model}' not found");
            return error(404, json!({"error": {"message": message, "type": "not_found_error", "param": null, "code": null}}));
        }
        Engine::Ollama { num_ctx, .. } => {
            let kept = ollama_truncate(&sent, *num_ctx);
            let prompt = tokens(&render(&kept));
            (kept, num_ctx.saturating_sub(prompt))
        }
        Engine::Vllm { max_model_len } => {
            let prompt = tokens(&render(&sent));
            assert!(request.get("max_tokens").is_none(), "the double models requests without max_tokens");
            if prompt >= *max_model_len {
                record(sent.clone(), prompt, 400);
                let message = format!(
                    "This model's maximum context length is {max_model_len} tokens. However, your request has {prompt} input tokens. \
                     Please reduce the length of the input messages."
                );
                return error(400, json!({"error": {"message": message, "type": "BadRequestError", "param": null, "code": 400}}));
            }
            (sent.clone(), max_model_len - prompt)
        }
    };
    let prompt_tokens = tokens(&render(&kept));
    record(kept, prompt_tokens, 200);
    let note = note_for(&request["response_format"]["json_schema"]["schema"]);
    let (content, finish_reason) =
        if note.chars().count().div_ceil(3) <= room { (note, "stop") } else { (note.chars().take(room * 3).collect(), "length") };
    let completion_tokens = content.chars().count().div_ceil(3);
    let fingerprint = match state.engine {
        Engine::Ollama { .. } => "fp_ollama",
        Engine::Vllm { .. } => "fp_vllm",
    };
    axum::Json(json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": model,
        "system_fingerprint": fingerprint,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens, "total_tokens": prompt_tokens + completion_tokens},
    }))
    .into_response()
}

/// An example at its cap: the four parts together well over the 6,000 characters five examples
/// share, so each is trimmed to its 1,200.
fn long_example(n: usize) -> SoapExample {
    let words = |field: &str| format!("{field}{n}: ") + &"telegramstijl met afkortingen en opsommingen ".repeat(12);
    SoapExample { subjective: words("S"), objective: words("O"), evaluation: words("E"), plan: words("P") }
}

/// A consult transcript of about `chars` characters, the speakers labelled.
fn transcript(chars: usize) -> Vec<TranscriptLine> {
    use integrations::speech::Speaker;
    let turns = [
        (Speaker::Zorgverlener, "Goedemorgen, wat kan ik voor u doen vandaag"),
        (Speaker::Patient, "Ik heb al een week last van hoesten en 's nachts word ik er wakker van"),
        (Speaker::Zorgverlener, "Heeft u ook koorts gehad of bent u kortademig"),
        (Speaker::Patient, "Geen koorts, wel wat benauwd als ik de trap op loop"),
        (Speaker::Zorgverlener, "Ik ga even naar uw longen luisteren, die klinken schoon, de saturatie is 98 procent"),
    ];
    let mut lines = Vec::new();
    let mut total = 0;
    for (speaker, sentence) in turns.iter().cycle() {
        if total >= chars {
            break;
        }
        total += sentence.chars().count() + 2;
        lines.push(TranscriptLine { sentence: (*sentence).to_owned(), speaker: Some(*speaker) });
    }
    lines
}

fn soap(transcript_chars: usize, examples: usize) -> SummaryRequest {
    SummaryRequest {
        template: Template::Soap,
        flavour: Flavour::Normal,
        model_size: ModelSize::Medium,
        episode_count: 1,
        transcript: transcript(transcript_chars),
        examples: (1..=examples).map(long_example).collect(),
        ..SummaryRequest::default()
    }
}

/// How many few-shot pairs a list of messages holds (each has one assistant answer).
fn pairs(messages: &[Msg]) -> usize {
    messages.iter().filter(|m| m.role == "assistant").count()
}

/// With `APP_LLM_CONTEXT_TOKENS` set to Ollama's 4096, the product's longest kind of request (five
/// examples at their cap and a long transcript) reaches the engine with the examples that fit,
/// trimmed by the product, the last first: Ollama's truncation finds nothing to drop, and the
/// note comes back whole.
#[tokio::test]
async fn at_ollamas_4096_the_product_trims_the_examples_and_ollama_drops_nothing() {
    let double = Double::start(Double::ollama(OLLAMA_DEFAULT_NUM_CTX)).await;
    let request = soap(2_400, 5);
    let summary = double.summariser(4096).summarise(&request).await.expect("a note");
    assert_eq!(summary.result.episodes.len(), 1);
    assert_eq!(summary.result.episodes[0].subjective, "Besproken zoals in het transcript.");

    let seen = double.seen();
    assert_eq!(seen.len(), 1, "one request, no retry");
    let seen = &seen[0];
    let sent_pairs = pairs(&seen.sent);
    assert!((1..5).contains(&sent_pairs), "the product kept some of the five examples, not all: {sent_pairs}");
    assert_eq!(seen.kept, seen.sent, "Ollama dropped nothing");
    assert!(seen.prompt_tokens <= OLLAMA_DEFAULT_NUM_CTX - 1_000, "room is left for the answer: {}", seen.prompt_tokens);
    // the first examples stay, numbered among themselves; the transcript is whole
    assert_eq!(seen.sent[0].role, "system");
    assert!(seen.sent[1].content.starts_with(&format!("Voorbeeld 1 van {sent_pairs}")), "{}", seen.sent[1].content);
    assert!(seen.sent[2].content.contains("S1: telegramstijl"), "{}", seen.sent[2].content);
    let last = seen.sent.last().unwrap();
    assert_eq!(last.role, "user");
    assert!(last.content.ends_with(&prompts::transcript(&request)), "{}", last.content);
}

/// The same request with the window left at the default (32768) against an Ollama still at its
/// own 4096: Ollama drops the leading messages, the examples, and says nothing (the reason the
/// compose file sets `OLLAMA_CONTEXT_LENGTH` and the product needs `APP_LLM_CONTEXT_TOKENS`).
#[tokio::test]
async fn an_ollama_at_4096_that_the_product_takes_for_larger_drops_the_examples_silently() {
    let double = Double::start(Double::ollama(OLLAMA_DEFAULT_NUM_CTX)).await;
    let summary = double.summariser(32_768).summarise(&soap(2_400, 5)).await.expect("a note all the same");
    assert_eq!(summary.result.episodes.len(), 1);
    let seen = &double.seen()[0];
    assert_eq!(pairs(&seen.sent), 5, "the product sent all five");
    assert!(pairs(&seen.kept) < 5, "Ollama kept fewer: {}", pairs(&seen.kept));
    assert_eq!(seen.kept[0], seen.sent[0], "the system prompt stays");
    assert_eq!(seen.kept.last(), seen.sent.last(), "the transcript stays");
    // dropped from the front, one message at a time: the first kept after the system prompt
    // is a later message of the same list
    let dropped = seen.sent.len() - seen.kept.len();
    assert_eq!(seen.kept[1..], seen.sent[1 + dropped..]);
    assert!(!seen.kept.iter().any(|m| m.content.starts_with("Voorbeeld 1 van 5")), "the first example went first");
}

/// The double's truncation is `chatPrompt`'s: one message at a time from the front, system
/// messages kept, the last message always, and nothing dropped while the prompt fits.
#[test]
fn the_ollama_doubles_truncation_follows_prompt_go() {
    let m = |role: &str, chars: usize| Msg { role: role.into(), content: "x".repeat(chars) };
    let msgs = vec![m("system", 300), m("user", 300), m("assistant", 300), m("user", 300), m("assistant", 300), m("user", 300)];
    let all = tokens(&render(&msgs));
    assert_eq!(ollama_truncate(&msgs, all), msgs, "it fits: nothing dropped");
    let one_less = ollama_truncate(&msgs, all - 1);
    assert_eq!(one_less.len(), 5, "one message dropped, not a pair");
    assert_eq!(one_less[0].role, "system");
    assert_eq!(one_less[1..], msgs[2..], "the first after the system prompt went");
    let tiny = ollama_truncate(&msgs, 10);
    assert_eq!(tiny, vec![msgs[0].clone(), msgs[5].clone()], "the system prompt and the last message always stay");
}

/// vLLM at `--max-model-len 4096` refuses a request the product (told 32768) sent with all five
/// examples: the product asks again with half of them, then with none, and gets its note.
#[tokio::test]
async fn a_vllm_refusal_as_too_long_is_asked_again_with_half_then_no_examples() {
    let double = Double::start(Engine::Vllm { max_model_len: 4096 }).await;
    // long enough that two examples do not fit beside it either, short enough to fit alone
    let request = soap(6_300, 5);
    let summary = double.summariser(32_768).summarise(&request).await.expect("a note in the end");
    assert_eq!(summary.result.episodes.len(), 1);
    let seen = double.seen();
    let asked: Vec<(usize, u16)> = seen.iter().map(|s| (pairs(&s.sent), s.status)).collect();
    assert_eq!(asked, [(5, 400), (2, 400), (0, 200)]);
    for s in &seen {
        assert_eq!(s.sent.last(), seen[0].sent.last(), "the transcript went whole every time");
    }
    assert!(seen[1].sent[1].content.starts_with("Voorbeeld 1 van 2"));
}

/// Half of the examples is enough when it fits: no third request.
#[tokio::test]
async fn a_vllm_refusal_stops_at_half_the_examples_when_that_fits() {
    let double = Double::start(Engine::Vllm { max_model_len: 4096 }).await;
    let summary = double.summariser(32_768).summarise(&soap(2_400, 5)).await.expect("a note");
    assert_eq!(summary.result.episodes.len(), 1);
    let asked: Vec<(usize, u16)> = double.seen().iter().map(|s| (pairs(&s.sent), s.status)).collect();
    assert_eq!(asked, [(5, 400), (2, 200)]);
}

/// A transcript that does not fit even alone fails with a Dutch message after the request without
/// examples, not sooner and not in a loop.
#[tokio::test]
async fn a_transcript_too_long_even_alone_fails_after_the_request_without_examples() {
    let double = Double::start(Engine::Vllm { max_model_len: 4096 }).await;
    let error = double.summariser(32_768).summarise(&soap(20_000, 5)).await.unwrap_err();
    assert_eq!(error, SummariseError::Invalid(TOO_LONG_MESSAGE.to_owned()));
    assert!(TOO_LONG_MESSAGE.starts_with("De samenvatting kon niet worden gemaakt: het transcript is te lang"));
    let asked: Vec<usize> = double.seen().iter().map(|s| pairs(&s.sent)).collect();
    assert_eq!(asked, [5, 2, 0]);
}

/// Before `ollama pull` is done, Ollama answers 404 "model not found": the summariser says the
/// model is not ready (which the job retries), not that the request was refused; once pulled,
/// the same request gets its note.
#[tokio::test]
async fn an_ollama_still_pulling_the_model_is_not_ready_rather_than_refusing() {
    let pulled = Arc::new(AtomicBool::new(false));
    let double = Double::start(Engine::Ollama { num_ctx: 32_768, pulled: pulled.clone() }).await;
    let summariser = double.summariser(32_768);
    let request = soap(1_000, 1);
    let error = summariser.summarise(&request).await.unwrap_err();
    match &error {
        SummariseError::ModelNotReady(why) => assert!(why.contains(MODEL), "{why}"),
        other => panic!("expected ModelNotReady, got {other:?}"),
    }
    assert_eq!(double.seen().len(), 1, "no retry inside the summariser: the job waits");
    pulled.store(true, Ordering::SeqCst);
    let summary = summariser.summarise(&request).await.expect("a note once the model is there");
    assert_eq!(summary.engine, format!("llm:{MODEL}"));
}

/// The longest request the product sends, a consult of 60 minutes with five examples at their
/// cap, the hint at its cap and high precision (`cargo run -p integrations --example
/// llm_request_size`), fits the default window with all of its examples and the answer's reserve;
/// and the compose file gives Ollama that same window.
#[test]
fn the_longest_request_fits_the_default_window_that_the_compose_file_gives_ollama() {
    use integrations::summarise::budget::DEFAULT_CONTEXT_TOKENS;
    use integrations::summarise::rules::testset;

    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let consults = testset::load(&root.join("data/soep-testset")).expect("the test set");
    let hour = testset::consult_of(&consults, 60);
    let words: usize = hour.transcript.iter().map(|l| l.sentence.split_whitespace().count()).sum();
    assert!((7_800..7_900).contains(&words), "{words}");
    let config = LlmConfig::new(Url::parse("http://localhost:11434/v1").unwrap(), MODEL);
    assert_eq!(config.context_tokens, DEFAULT_CONTEXT_TOKENS);
    let summariser = LlmSummariser::new(config).unwrap();
    for flavour in [Flavour::Normal, Flavour::PohGgz] {
        let request = SummaryRequest {
            flavour,
            precision: integrations::summarise::Precision::High,
            examples: testset::examples_at_cap(&consults),
            user_suggestion: Some("x".repeat(1_000)),
            ..hour.clone()
        };
        let fitted = summariser.fitted(&request);
        assert_eq!((fitted.examples, fitted.examples_available), (5, 5), "{flavour:?}");
        assert!(fitted.fits(DEFAULT_CONTEXT_TOKENS), "{flavour:?}: {} tokens", fitted.total_tokens);
        assert!(fitted.total_tokens > DEFAULT_CONTEXT_TOKENS as usize / 2, "no smaller power of two would do: {}", fitted.total_tokens);
    }

    let compose = std::fs::read_to_string(root.join("../docker-compose.yml")).expect("docker-compose.yml");
    assert!(compose.contains(&format!("OLLAMA_CONTEXT_LENGTH: \"{DEFAULT_CONTEXT_TOKENS}\"")), "the compose file's Ollama window");
}
