//! The summariser that asks any OpenAI-compatible chat-completions API for the note: OpenAI,
//! Azure OpenAI, Ollama, vLLM or the llama.cpp server.
//!
//! One request per summary, `POST {base_url}/chat/completions` (the base URL includes `/v1`, as
//! OpenAI clients expect: `http://localhost:11434/v1` for Ollama, `http://host:8000/v1` for vLLM,
//! `http://host:8080/v1` for llama.cpp), or on Azure OpenAI
//! `POST {endpoint}/openai/deployments/{deployment}/chat/completions?api-version=…` with an
//! `api-key` header instead of `Authorization: Bearer`.
//!
//! The answer's shape is asked for with `response_format`:
//! - [`ResponseFormat::JsonSchema`] (the default) sends the template's strict JSON schema
//!   (`{"type": "json_schema", "json_schema": {"name", "strict": true, "schema"}}`). OpenAI, Azure
//!   OpenAI (recent api-versions), vLLM (structured outputs) and Ollama from 0.5 constrain the
//!   answer to it.
//! - [`ResponseFormat::JsonObject`] sends `{"type": "json_object"}` and writes the schema into the
//!   system prompt instead, for servers that reject or ignore `json_schema` (older Ollama, some
//!   llama.cpp server builds).
//!
//! Either way the answer is checked: JSON that is malformed or cut off (`finish_reason: "length"`)
//! is first repaired locally (code fences and text around the object stripped, trailing commas
//! dropped, open strings, arrays and objects closed) and checked against the template's shape; if
//! it is still unusable the model is asked once more, with a message saying the answer was not
//! valid; after that the summary fails with a Dutch message. Connection failures, timeouts, 429
//! and 5xx are [`SummariseError::Unavailable`] (the job retries later); other 4xx and refusals are
//! [`SummariseError::Invalid`], but for two the engines give while nothing is wrong with the
//! request itself:
//! - Ollama answers 404 `model 'X' not found` (`server/routes.go`, `ChatHandler`) or `model "X"
//!   not found, try pulling it first` (`handleScheduleError`) until its pull of the model is
//!   done, wrapped by `openai/openai.go` `NewError` as `{"error": {"message", "type":
//!   "not_found_error"}}`: [`SummariseError::ModelNotReady`], which the job retries for a while.
//!   (OpenAI's and vLLM's 404 for an unknown model say "The model `X` does not exist": a wrong
//!   name, not a model on its way, so it stays [`SummariseError::Invalid`].)
//! - A prompt longer than the model's context: vLLM answers 400 "This model's maximum context
//!   length is N tokens. However, your request has M input tokens. …"
//!   (`vllm/entrypoints/openai/serving_engine.py`; newer versions "… the model's context length
//!   is only N tokens …", `vllm/renderers/params.py`), OpenAI 400 with code
//!   `context_length_exceeded`. The request is sent again with half the examples, then with
//!   none, before the summary fails.
//!
//! Before sending, the examples that do not fit the context window (`APP_LLM_CONTEXT_TOKENS`)
//! beside the transcript and the answer are dropped, the last first ([`super::budget`]): Ollama
//! would drop them itself, from the first, without a word.
//!
//! The request body is serialized from types whose fields keep their order, the schema's
//! properties included ([`schema::Schema`]): constrained decoding writes them in that order.
//!
//! Nothing of the consult is logged: no transcript, no prompt, no answer text; only sizes,
//! counts, status codes and durations.

use std::fmt;
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use url::Url;

use super::prompts::{self, Message, Role};
use super::{ModelSize, SummariseError, Summariser, Summary, SummaryRequest, budget, schema};

/// The message shown when the model gave no usable answer, even after one retry.
pub const UNUSABLE_MESSAGE: &str = "De samenvatting kon niet worden gemaakt: het taalmodel gaf geen bruikbaar antwoord.";

/// The message shown when the model refused to write the note.
pub const REFUSED_MESSAGE: &str = "De samenvatting kon niet worden gemaakt: het taalmodel weigerde het verzoek.";

/// The message shown when the transcript alone is longer than the model takes.
pub const TOO_LONG_MESSAGE: &str =
    "De samenvatting kon niet worden gemaakt: het transcript is te lang voor het taalmodel, ook zonder voorbeeldverslagen.";

/// How the answer's JSON shape is asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ResponseFormat {
    /// `{"type": "json_schema", …}` with the template's strict schema.
    #[default]
    JsonSchema,
    /// `{"type": "json_object"}`, the schema written into the system prompt.
    JsonObject,
}

/// Everything the summariser needs to reach the model.
#[derive(Clone)]
pub struct LlmConfig {
    /// The API's base URL including `/v1` (`http://localhost:11434/v1`); in Azure mode the
    /// resource endpoint (`https://name.openai.azure.com`).
    pub base_url: Url,
    /// Sent as `Authorization: Bearer <key>` (Azure: `api-key: <key>`); none for servers without.
    pub api_key: Option<String>,
    /// The model for [`ModelSize::Medium`] and for a size without its own model.
    pub model: String,
    pub model_small: Option<String>,
    pub model_large: Option<String>,
    /// The limit for one request, answer included.
    pub timeout: Duration,
    pub temperature: f32,
    pub max_tokens: Option<u32>,
    pub response_format: ResponseFormat,
    /// Set: Azure OpenAI, this `api-version`, and the model names are deployment names.
    pub azure_api_version: Option<String>,
    /// The model's context window in tokens, prompt and answer together: examples that would
    /// not fit beside the transcript are dropped before the request is sent.
    pub context_tokens: u32,
}

impl LlmConfig {
    /// A configuration with the defaults: no key, one model, 120 s, temperature 0.2, json_schema,
    /// a context window of [`budget::DEFAULT_CONTEXT_TOKENS`].
    pub fn new(base_url: Url, model: impl Into<String>) -> Self {
        Self {
            base_url,
            api_key: None,
            model: model.into(),
            model_small: None,
            model_large: None,
            timeout: Duration::from_secs(120),
            temperature: 0.2,
            max_tokens: None,
            response_format: ResponseFormat::JsonSchema,
            azure_api_version: None,
            context_tokens: budget::DEFAULT_CONTEXT_TOKENS,
        }
    }

    /// The model (Azure: deployment) that answers requests of this size.
    pub fn model_for(&self, size: ModelSize) -> &str {
        let chosen = match size {
            ModelSize::Small => self.model_small.as_deref(),
            ModelSize::Medium => None,
            ModelSize::Large => self.model_large.as_deref(),
        };
        chosen.unwrap_or(&self.model)
    }

    /// The chat-completions URL for a model.
    pub fn endpoint(&self, model: &str) -> Result<Url, String> {
        let mut url = self.base_url.clone();
        {
            let mut segments = url.path_segments_mut().map_err(|()| format!("{} cannot be a base URL", self.base_url))?;
            segments.pop_if_empty();
            if self.azure_api_version.is_some() {
                segments.extend(["openai", "deployments", model]);
            }
            segments.extend(["chat", "completions"]);
        }
        if let Some(version) = &self.azure_api_version {
            url.query_pairs_mut().append_pair("api-version", version);
        }
        Ok(url)
    }
}

impl fmt::Debug for LlmConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LlmConfig")
            .field("base_url", &self.base_url.as_str())
            .field("api_key", &self.api_key.as_ref().map(|_| "<set>"))
            .field("model", &self.model)
            .field("model_small", &self.model_small)
            .field("model_large", &self.model_large)
            .field("timeout", &self.timeout)
            .field("temperature", &self.temperature)
            .field("max_tokens", &self.max_tokens)
            .field("response_format", &self.response_format)
            .field("azure_api_version", &self.azure_api_version)
            .field("context_tokens", &self.context_tokens)
            .finish()
    }
}

/// The summariser over an OpenAI-compatible chat API.
#[derive(Debug)]
pub struct LlmSummariser {
    http: reqwest::Client,
    config: LlmConfig,
}

/// What one chat completion gave.
enum Reply {
    /// The assistant's text and why it stopped.
    Content { content: String, finish_reason: Option<String> },
    /// The model refused, or a content filter stopped it.
    Refused,
    /// A 2xx without a chat completion in it.
    Unreadable,
    /// A 400 saying the prompt is longer than the model's context.
    TooLong,
}

/// The body of one chat completion. Serialized in the order written here, the schema's
/// properties included (see [`schema::Schema`]).
#[derive(Serialize)]
struct ChatRequest<'a> {
    model: &'a str,
    messages: &'a [Message],
    temperature: f32,
    response_format: &'a FormatRequest,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_tokens: Option<u32>,
}

/// The `response_format` of a request.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum FormatRequest {
    /// `{"type": "json_schema", "json_schema": {"name", "strict": true, "schema"}}`
    JsonSchema { json_schema: JsonSchemaRequest },
    /// `{"type": "json_object"}`
    JsonObject,
}

#[derive(Serialize)]
struct JsonSchemaRequest {
    name: &'static str,
    strict: bool,
    schema: schema::Schema,
}

/// An error answer as the OpenAI-compatible servers write it: `{"error": {"message", "type",
/// "code"}}` (OpenAI, vLLM's `ErrorResponse`, Ollama's `openai.NewError`), older vLLM's
/// `{"object": "error", "message", …}`, or Ollama's own `{"error": "…"}`.
#[derive(Debug, Default, PartialEq, Eq)]
struct EngineError {
    message: String,
    /// OpenAI's string code (`context_length_exceeded`); vLLM's code is the status, ignored.
    code: Option<String>,
}

impl EngineError {
    fn read(body: &[u8]) -> Self {
        let Ok(value) = serde_json::from_slice::<Value>(body) else { return Self::default() };
        let text = |v: &Value| v.as_str().map(str::to_owned);
        match value.get("error") {
            Some(Value::String(message)) => Self { message: message.clone(), code: None },
            Some(error @ Value::Object(_)) => {
                Self { message: error.get("message").and_then(text).unwrap_or_default(), code: error.get("code").and_then(text) }
            }
            _ => Self { message: value.get("message").and_then(text).unwrap_or_default(), code: None },
        }
    }

    /// Ollama's "model 'X' not found" / "model \"X\" not found, try pulling it first".
    fn model_not_pulled(&self) -> bool {
        let message = self.message.to_lowercase();
        message.starts_with("model ") && message.contains(" not found")
    }

    /// A prompt longer than the context: vLLM's "maximum context length" (older) or "context
    /// length is only" (newer) and "longer than the maximum model length" (its engine), OpenAI's
    /// code `context_length_exceeded`.
    fn context_exceeded(&self) -> bool {
        let message = self.message.to_lowercase();
        self.code.as_deref() == Some("context_length_exceeded")
            || ["maximum context length", "context length is only", "maximum model length"].iter().any(|m| message.contains(m))
    }
}

#[derive(Deserialize)]
struct Completion {
    #[serde(default)]
    choices: Vec<Choice>,
}

#[derive(Deserialize)]
struct Choice {
    #[serde(default)]
    message: Option<AssistantMessage>,
    #[serde(default)]
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct AssistantMessage {
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    refusal: Option<String>,
}

impl LlmSummariser {
    /// A summariser for `config`. Fails only when the HTTP client cannot be built.
    pub fn new(config: LlmConfig) -> Result<Self, String> {
        config.endpoint(&config.model)?;
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .connect_timeout(config.timeout.min(Duration::from_secs(10)))
            .user_agent("spreekkamer-summariser")
            .build()
            .map_err(|e| format!("cannot build the HTTP client for the language model: {e}"))?;
        Ok(Self { http, config })
    }

    /// The configuration in use.
    pub fn config(&self) -> &LlmConfig {
        &self.config
    }

    fn response_format(&self, request: &SummaryRequest) -> FormatRequest {
        match self.config.response_format {
            ResponseFormat::JsonSchema => FormatRequest::JsonSchema {
                json_schema: JsonSchemaRequest {
                    name: schema::schema_name(request.template),
                    strict: true,
                    schema: schema::answer_schema(request.template, request.flavour),
                },
            },
            ResponseFormat::JsonObject => FormatRequest::JsonObject,
        }
    }

    /// The messages of the first request for `request`: with the examples that fit the context
    /// window ([`budget::fit`]).
    pub fn fitted(&self, request: &SummaryRequest) -> budget::Fitted {
        let include_schema = self.config.response_format == ResponseFormat::JsonObject;
        budget::fit(request, include_schema, self.config.context_tokens, self.config.max_tokens)
    }

    /// The body of the chat completion for `request` with `messages`, exactly as it is sent.
    pub fn request_body(&self, request: &SummaryRequest, messages: &[Message]) -> Vec<u8> {
        let model = self.config.model_for(request.model_size);
        self.body(model, messages, &self.response_format(request))
    }

    fn body(&self, model: &str, messages: &[Message], format: &FormatRequest) -> Vec<u8> {
        let body = ChatRequest {
            model,
            messages,
            temperature: self.config.temperature,
            response_format: format,
            max_tokens: self.config.max_tokens,
        };
        // strings, numbers and our own types: serializing cannot fail
        serde_json::to_vec(&body).unwrap_or_default()
    }

    /// One chat completion.
    async fn complete(&self, model: &str, messages: &[Message], format: &FormatRequest) -> Result<Reply, SummariseError> {
        let url = self.config.endpoint(model).map_err(SummariseError::Unavailable)?;
        let body = self.body(model, messages, format);
        let mut call = self.http.post(url).header(reqwest::header::CONTENT_TYPE, "application/json").body(body);
        if let Some(key) = &self.config.api_key {
            call = if self.config.azure_api_version.is_some() { call.header("api-key", key) } else { call.bearer_auth(key) };
        }
        let started = Instant::now();
        let response = call.send().await.map_err(|e| self.unreachable(&e))?;
        let status = response.status();
        tracing::debug!(status = status.as_u16(), elapsed_ms = started.elapsed().as_millis() as u64, "language model answered");
        if status.is_client_error() && status.as_u16() != 429 {
            // the error's text names the model or token counts, never the consult's content
            let error = EngineError::read(&response.bytes().await.unwrap_or_default());
            if status.as_u16() == 404 && error.model_not_pulled() {
                tracing::warn!(status = 404, model, "the language model is not there yet (still being pulled?)");
                return Err(SummariseError::ModelNotReady(format!("de server heeft het taalmodel {model} (nog) niet")));
            }
            if status.as_u16() == 400 && error.context_exceeded() {
                tracing::warn!(status = 400, model, "the prompt is longer than the language model's context");
                return Ok(Reply::TooLong);
            }
            tracing::warn!(status = status.as_u16(), model, "the language model refused the request");
            return Err(SummariseError::Invalid(format!(
                "De samenvatting kon niet worden gemaakt: het taalmodel weigerde het verzoek (HTTP-status {}).",
                status.as_u16()
            )));
        }
        if !status.is_success() {
            tracing::warn!(status = status.as_u16(), model, "the language model is not available");
            return Err(SummariseError::Unavailable(format!("het taalmodel antwoordde met HTTP-status {}", status.as_u16())));
        }
        let bytes = response.bytes().await.map_err(|e| self.unreachable(&e))?;
        let Ok(completion) = serde_json::from_slice::<Completion>(&bytes) else {
            tracing::warn!(bytes = bytes.len(), "the language model's answer is not a chat completion");
            return Ok(Reply::Unreadable);
        };
        let Some(choice) = completion.choices.into_iter().next() else {
            tracing::warn!("the language model's answer has no choices");
            return Ok(Reply::Unreadable);
        };
        let message = choice.message.unwrap_or(AssistantMessage { content: None, refusal: None });
        let refused =
            message.refusal.as_deref().is_some_and(|r| !r.trim().is_empty()) || choice.finish_reason.as_deref() == Some("content_filter");
        if refused {
            tracing::warn!(finish_reason = choice.finish_reason.as_deref(), "the language model refused to answer");
            return Ok(Reply::Refused);
        }
        Ok(Reply::Content { content: message.content.unwrap_or_default(), finish_reason: choice.finish_reason })
    }

    fn unreachable(&self, error: &reqwest::Error) -> SummariseError {
        tracing::warn!(%error, timeout = error.is_timeout(), connect = error.is_connect(), "cannot reach the language model");
        SummariseError::Unavailable(if error.is_timeout() {
            match self.config.timeout.as_secs() {
                1 => "het taalmodel gaf geen antwoord binnen 1 seconde".to_owned(),
                n => format!("het taalmodel gaf geen antwoord binnen {n} seconden"),
            }
        } else if error.is_connect() {
            "geen verbinding met het taalmodel".to_owned()
        } else {
            "het verzoek aan het taalmodel is mislukt".to_owned()
        })
    }

    async fn run(&self, request: &SummaryRequest) -> Result<Summary, SummariseError> {
        let model = self.config.model_for(request.model_size).to_owned();
        let format = self.response_format(request);
        let include_schema = self.config.response_format == ResponseFormat::JsonObject;
        let fitted = self.fitted(request);
        if !fitted.fits(self.config.context_tokens) {
            tracing::warn!(
                estimated_tokens = fitted.total_tokens,
                context_tokens = self.config.context_tokens,
                "the transcript alone does not fit the language model's context (APP_LLM_CONTEXT_TOKENS); sending it anyway"
            );
        }
        tracing::info!(
            template = ?request.template,
            flavour = ?request.flavour,
            model = %model,
            sentences = request.transcript.len(),
            examples = fitted.examples,
            examples_dropped = fitted.examples_available - fitted.examples,
            prompt_chars = fitted.messages.iter().map(|m| m.content.chars().count()).sum::<usize>(),
            estimated_tokens = fitted.total_tokens,
            "asking the language model for a summary"
        );
        let mut examples = fitted.examples;
        let mut messages = fitted.messages;
        // after a refusal as too long: with half the examples, then with none
        let mut shortened = 0;
        let mut attempt = 1;
        while attempt <= 2 {
            let (content, truncated) = match self.complete(&model, &messages, &format).await? {
                Reply::TooLong => {
                    if examples == 0 {
                        return Err(SummariseError::Invalid(TOO_LONG_MESSAGE.to_owned()));
                    }
                    examples = if shortened == 0 { examples / 2 } else { 0 };
                    shortened += 1;
                    tracing::info!(examples, "asking again with fewer examples");
                    messages = prompts::messages_with(request, include_schema, examples);
                    attempt = 1;
                    continue;
                }
                Reply::Refused => return Err(SummariseError::Invalid(REFUSED_MESSAGE.to_owned())),
                Reply::Unreadable => (String::new(), false),
                Reply::Content { content, finish_reason } => {
                    let truncated = finish_reason.as_deref() == Some("length");
                    match read_answer(request, &content) {
                        Ok((result, repaired)) => {
                            tracing::info!(attempt, repaired, truncated, answer_chars = content.chars().count(), "summary made");
                            return Ok(Summary { result, engine: format!("llm:{model}"), extractive: false });
                        }
                        Err(why) => {
                            tracing::warn!(attempt, truncated, answer_chars = content.chars().count(), %why, "unusable answer");
                        }
                    }
                    (content, truncated)
                }
            };
            if attempt == 1 {
                if !content.trim().is_empty() {
                    messages.push(Message { role: Role::Assistant, content });
                }
                messages.push(prompts::retry_message(truncated));
            }
            attempt += 1;
        }
        Err(SummariseError::Invalid(UNUSABLE_MESSAGE.to_owned()))
    }
}

/// Why an answer was not usable. For logs: never holds answer text.
#[derive(Debug, thiserror::Error)]
enum AnswerError {
    #[error("no JSON object found, not even after repair")]
    NoJson,
    #[error("{0}")]
    Shape(#[from] schema::ShapeError),
}

/// The consult result in an answer, and whether the JSON had to be repaired. A speaker label the
/// model copied from the transcript ("Patiënt: …") is taken out of the note's fields: it is never
/// content, and a note with it is not fit for the record.
fn read_answer(request: &SummaryRequest, content: &str) -> Result<(super::ConsultResult, bool), AnswerError> {
    let (value, repaired) = repair::parse(content).ok_or(AnswerError::NoJson)?;
    let mut result = schema::to_result(request.template, request.flavour, &value)?;
    for e in &mut result.episodes {
        for field in [&mut e.subjective, &mut e.objective, &mut e.diagnosis, &mut e.plan] {
            *field = without_speaker_labels(field);
        }
    }
    Ok((result, repaired))
}

/// `text` without typed speaker labels at the start of its lines and sentences.
fn without_speaker_labels(text: &str) -> String {
    use super::rules::labels::strip_label;
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        // The line's leading whitespace and list marker stay ("- Patiënt: …" → "- …").
        let body = line.trim_start();
        let marker = body.len() - body.trim_start_matches(['-', '•', '*', ' ']).len();
        out.push_str(&line[..line.len() - body.len() + marker]);
        let mut rest = strip_label(&body[marker..]);
        // Sentences after the first: a label after ". ", "? " or "! ".
        while let Some((at, _)) = rest.char_indices().find(|&(i, c)| matches!(c, '.' | '?' | '!') && rest[i + 1..].starts_with(' ')) {
            let (head, tail) = rest.split_at(at + 2);
            out.push_str(head);
            rest = strip_label(tail);
        }
        out.push_str(rest);
    }
    out
}

impl Summariser for LlmSummariser {
    fn name(&self) -> &'static str {
        "llm"
    }

    fn summarise<'a>(&'a self, request: &'a SummaryRequest) -> BoxFuture<'a, Result<Summary, SummariseError>> {
        Box::pin(self.run(request))
    }
}

/// Local repair of JSON a model got almost right.
pub mod repair {
    use serde_json::Value;

    /// The JSON object in `text`, repaired when needed: a reasoning block (`<think>…</think>`),
    /// code fences and other text around the object are dropped, trailing commas removed, raw
    /// control characters in strings escaped, and an object cut off mid-way closed: first as it
    /// stands (closing an open string), else back to the last complete value. The flag says
    /// whether anything had to be repaired.
    pub fn parse(text: &str) -> Option<(Value, bool)> {
        let text = text.trim();
        if let Ok(value @ Value::Object(_)) = serde_json::from_str(text) {
            return Some((value, false));
        }
        let text = match text.rfind("</think>") {
            Some(end) => &text[end + "</think>".len()..],
            None => text,
        };
        let start = text.find('{')?;
        scan(&text[start..]).map(|v| (v, true))
    }

    /// A point where the object can be cut and closed: the text so far and the open containers.
    struct Cut {
        len: usize,
        open: Vec<char>,
    }

    fn close(mut text: String, open: &[char]) -> String {
        strip_trailing_comma(&mut text);
        for closer in open.iter().rev() {
            text.push(*closer);
        }
        text
    }

    fn strip_trailing_comma(text: &mut String) {
        let trimmed = text.trim_end().len();
        text.truncate(trimmed);
        if text.ends_with(',') {
            text.pop();
        }
    }

    fn object(text: &str) -> Option<Value> {
        serde_json::from_str::<Value>(text).ok().filter(Value::is_object)
    }

    /// Scans from the first `{`, rewriting what needs it, up to the end of the object.
    fn scan(text: &str) -> Option<Value> {
        let mut out = String::with_capacity(text.len() + 8);
        let mut open: Vec<char> = Vec::new();
        let mut in_string = false;
        // Inside a string, an escape in progress: where its backslash is in `out`, and how many
        // characters it still needs (`None`: the one after the backslash).
        let mut escape: Option<(usize, Option<u8>)> = None;
        let mut last_cut: Option<Cut> = None;
        for c in text.chars() {
            if in_string {
                if let Some((at, needs)) = escape {
                    out.push(c);
                    escape = match needs {
                        None if c == 'u' => Some((at, Some(4))),
                        None | Some(1) => None,
                        Some(n) => Some((at, Some(n - 1))),
                    };
                    continue;
                }
                match c {
                    '\\' => {
                        escape = Some((out.len(), None));
                        out.push(c);
                    }
                    '"' => {
                        in_string = false;
                        out.push(c);
                    }
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                    c => out.push(c),
                }
                continue;
            }
            match c {
                '"' => {
                    in_string = true;
                    out.push(c);
                }
                '{' | '[' => {
                    open.push(if c == '{' { '}' } else { ']' });
                    out.push(c);
                    last_cut = Some(Cut { len: out.len(), open: open.clone() });
                }
                '}' | ']' => {
                    strip_trailing_comma(&mut out);
                    if open.pop() != Some(c) {
                        return None;
                    }
                    out.push(c);
                    if open.is_empty() {
                        return object(&out);
                    }
                    last_cut = Some(Cut { len: out.len(), open: open.clone() });
                }
                ',' => {
                    last_cut = Some(Cut { len: out.len(), open: open.clone() });
                    out.push(c);
                }
                c => out.push(c),
            }
        }
        // Cut off: close what is open, as it stands.
        let mut as_is = out.clone();
        if in_string {
            if let Some((at, _)) = escape {
                as_is.truncate(at);
            }
            as_is.push('"');
        }
        if let Some(value) = object(&close(as_is, &open)) {
            return Some(value);
        }
        // Else back to the last complete value.
        let cut = last_cut?;
        out.truncate(cut.len);
        object(&close(out, &cut.open))
    }

    #[cfg(test)]
    mod tests {
        use serde_json::json;

        use super::parse;

        #[test]
        fn valid_json_is_taken_as_it_is() {
            assert_eq!(parse(" {\"a\": \"b\"} "), Some((json!({"a": "b"}), false)));
        }

        #[test]
        fn fences_and_surrounding_text_are_dropped() {
            let text = "Hier is het verslag:\n```json\n{\"a\": \"x } y\", \"b\": [1, 2]}\n```\nSucces!";
            assert_eq!(parse(text), Some((json!({"a": "x } y", "b": [1, 2]}), true)));
            let think = "<think>Eerst {nadenken}.</think>\n{\"a\": \"b\"}";
            assert_eq!(parse(think), Some((json!({"a": "b"}), true)));
        }

        #[test]
        fn trailing_commas_and_raw_newlines_are_fixed() {
            let text = "{\"a\": \"regel 1\nregel 2\", \"b\": [1, 2,], }";
            assert_eq!(parse(text), Some((json!({"a": "regel 1\nregel 2", "b": [1, 2]}), true)));
        }

        #[test]
        fn a_value_cut_off_in_a_string_is_closed() {
            let text = "{\"episodes\": [{\"subjective\": \"Hoest\", \"plan\": \"Paracetamol 500 mg z.n";
            assert_eq!(parse(text), Some((json!({"episodes": [{"subjective": "Hoest", "plan": "Paracetamol 500 mg z.n"}]}), true)));
        }

        #[test]
        fn a_cut_off_escape_is_dropped() {
            assert_eq!(parse("{\"a\": \"x\\"), Some((json!({"a": "x"}), true)));
            assert_eq!(parse("{\"a\": \"x\\u00e"), Some((json!({"a": "x"}), true)));
            assert_eq!(parse("{\"a\": \"x\\u00e9"), Some((json!({"a": "xé"}), true)));
        }

        #[test]
        fn a_cut_off_key_falls_back_to_the_last_complete_value() {
            assert_eq!(parse("{\"a\": \"x\", \"objec"), Some((json!({"a": "x"}), true)));
            assert_eq!(parse("{\"a\": \"x\", \"b\":"), Some((json!({"a": "x"}), true)));
            assert_eq!(parse("{\"a\": [\"x\", tru"), Some((json!({"a": ["x"]}), true)));
            assert_eq!(parse("{\"a\": [{"), Some((json!({"a": [{}]}), true)));
        }

        #[test]
        fn garbage_is_refused() {
            assert_eq!(parse("Sorry, dat kan ik niet."), None);
            assert_eq!(parse(""), None);
            assert_eq!(parse("{\"a\": ]"), None);
            assert_eq!(parse("[1, 2]"), None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speaker_labels_leave_the_note() {
        assert_eq!(
            without_speaker_labels("Patiënt: keelpijn sinds 3 dgn. Huisarts: geen koorts.\n- Pt: hoest"),
            "keelpijn sinds 3 dgn. geen koorts.\n- hoest"
        );
        assert_eq!(without_speaker_labels("Temp 37,8. RR 130/80. Arts: longen schoon."), "Temp 37,8. RR 130/80. longen schoon.");
        assert_eq!(without_speaker_labels("Temp: 37,8."), "Temp: 37,8.");
    }

    fn config() -> LlmConfig {
        LlmConfig::new(Url::parse("http://localhost:11434/v1").unwrap(), "medium-model")
    }

    #[test]
    fn models_follow_the_size_and_fall_back_to_the_medium_one() {
        let mut c = config();
        assert_eq!(c.model_for(ModelSize::Small), "medium-model");
        assert_eq!(c.model_for(ModelSize::Large), "medium-model");
        c.model_small = Some("small-model".into());
        c.model_large = Some("large-model".into());
        assert_eq!(c.model_for(ModelSize::Small), "small-model");
        assert_eq!(c.model_for(ModelSize::Medium), "medium-model");
        assert_eq!(c.model_for(ModelSize::Large), "large-model");
    }

    #[test]
    fn endpoints_for_openai_compatible_servers_and_azure() {
        let mut c = config();
        assert_eq!(c.endpoint("m").unwrap().as_str(), "http://localhost:11434/v1/chat/completions");
        c.base_url = Url::parse("http://localhost:8000/v1/").unwrap();
        assert_eq!(c.endpoint("m").unwrap().as_str(), "http://localhost:8000/v1/chat/completions");
        c.base_url = Url::parse("https://praktijk.openai.azure.com/").unwrap();
        c.azure_api_version = Some("2024-10-21".into());
        assert_eq!(
            c.endpoint("gpt 4o").unwrap().as_str(),
            "https://praktijk.openai.azure.com/openai/deployments/gpt%204o/chat/completions?api-version=2024-10-21"
        );
    }

    /// The error bodies as the engines write them (see the module's notes for their sources).
    #[test]
    fn engine_errors_are_read_and_told_apart() {
        let ollama_chat = EngineError::read(br#"{"error":{"message":"model 'qwen2.5:7b-instruct' not found","type":"not_found_error"}}"#);
        assert_eq!(ollama_chat.message, "model 'qwen2.5:7b-instruct' not found");
        assert!(ollama_chat.model_not_pulled() && !ollama_chat.context_exceeded());
        let ollama_schedule = EngineError::read(
            br#"{"error":{"message":"model \"qwen2.5:7b-instruct\" not found, try pulling it first","type":"not_found_error"}}"#,
        );
        assert!(ollama_schedule.model_not_pulled());
        assert!(EngineError::read(br#"{"error":"model 'm' not found"}"#).model_not_pulled(), "Ollama's own API");
        // OpenAI's and vLLM's unknown model is a wrong name, not a model on its way
        let openai = EngineError::read(
            br#"{"error":{"message":"The model `gpt-5-mini` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}"#,
        );
        assert!(!openai.model_not_pulled());
        let vllm_404 = EngineError::read(
            br#"{"error":{"message":"The model `qwen2.5:7b-instruct` does not exist.","type":"NotFoundError","param":"model","code":404}}"#,
        );
        assert!(!vllm_404.model_not_pulled() && vllm_404.code.is_none());

        let vllm = EngineError::read(
            br#"{"error":{"message":"This model's maximum context length is 4096 tokens. However, your request has 5211 input tokens. Please reduce the length of the input messages.","type":"BadRequestError","param":null,"code":400}}"#,
        );
        assert!(vllm.context_exceeded() && !vllm.model_not_pulled());
        let vllm_old = EngineError::read(
            br#"{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}"#,
        );
        assert!(vllm_old.context_exceeded());
        let vllm_new = EngineError::read(
            br#"{"error":{"message":"You passed 5211 input tokens and requested 0 output tokens. However, the model's context length is only 4096 tokens, resulting in a maximum input length of 4096 tokens. Please reduce the length of the input prompt.","type":"BadRequestError","param":"input_tokens","code":400}}"#,
        );
        assert!(vllm_new.context_exceeded());
        let openai_long = EngineError::read(
            br#"{"error":{"message":"Your input exceeds the context window of this model.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#,
        );
        assert!(openai_long.context_exceeded());
        let other = EngineError::read(
            br#"{"error":{"message":"'temperature' must be at most 2","type":"BadRequestError","param":null,"code":400}}"#,
        );
        assert!(!other.context_exceeded() && !other.model_not_pulled());
        assert_eq!(EngineError::read(b"<html>Bad Gateway</html>"), EngineError::default());
    }

    /// The body's keys come in the order written, the schema's too: serde_json's own maps would
    /// sort them.
    #[test]
    fn the_request_body_keeps_its_order() {
        let summariser = LlmSummariser::new(config()).unwrap();
        let request = SummaryRequest { template: super::super::Template::Report, ..SummaryRequest::default() };
        let messages = [Message { role: Role::User, content: "x".into() }];
        let body = String::from_utf8(summariser.request_body(&request, &messages)).unwrap();
        assert!(
            body.starts_with(
                r#"{"model":"medium-model","messages":[{"role":"user","content":"x"}],"temperature":0.2,"response_format":{"type":"json_schema","json_schema":{"name":"consultverslag","strict":true,"schema":{"type":"object","properties":{"subjective":{"type":"string"},"objective":{"type":"string"},"plan":{"type":"string"}},"required":["subjective","objective","plan"]"#
            ),
            "{body}"
        );
        assert!(!body.contains("max_tokens"));
        let mut c = config();
        c.response_format = ResponseFormat::JsonObject;
        c.max_tokens = Some(900);
        let body = String::from_utf8(LlmSummariser::new(c).unwrap().request_body(&request, &messages)).unwrap();
        assert!(body.ends_with(r#""response_format":{"type":"json_object"},"max_tokens":900}"#), "{body}");
    }

    #[test]
    fn debug_hides_the_key() {
        let mut c = config();
        c.api_key = Some("sk-secret".into());
        let shown = format!("{c:?}");
        assert!(!shown.contains("sk-secret") && shown.contains("<set>"));
    }
}
