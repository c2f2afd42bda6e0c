//! The batch engine: cuts the stream into utterances on the server ([`super::vad`]) and has each
//! one transcribed by an OpenAI-compatible `POST {url}/v1/audio/transcriptions`.
//!
//! Works with OpenAI itself, with speaches (faster-whisper) and with whisper.cpp's server started
//! with `--inference-path /v1/audio/transcriptions`. Every request is a multipart form with the
//! utterance as `file` (`audio.wav`, `audio/wav`, 16 kHz mono PCM16), `model`, `language=nl`,
//! `prompt`, `response_format=json` and `temperature=0`; the answer is `{"text": "..."}`.
//!
//! While an utterance goes on, the audio so far is transcribed every [`EngineSettings::interim`]
//! of speech for [`SpeechEvent::Buffer`] (at most one such request at a time, none while finished
//! utterances wait for the engine, never retried). A finished utterance is transcribed, cleaned
//! ([`super::filter`]), split into sentences and reported as [`SpeechEvent::Completed`] in the
//! order spoken, followed by an empty `Buffer`. At most [`MAX_WAITING`] finished utterances wait
//! for the engine; while that many wait, no audio is read, so the caller's bounded channel fills
//! and the caller waits.

use std::sync::Arc;
use std::time::Duration;

use futures::future::{BoxFuture, Fuse, FusedFuture, FutureExt};
use futures::stream::{FuturesOrdered, StreamExt};
use reqwest::StatusCode;
use reqwest::multipart::{Form, Part};
use serde::Deserialize;
use tokio::sync::mpsc;

use super::EngineSettings;
use super::vad::{Vad, VadEvent};
use super::{AudioFrame, SAMPLE_RATE, SpeechEngine, SpeechError, SpeechEvent, StreamOptions, filter, wav};

/// Finished utterances that may wait for the engine before the stream stops reading audio.
pub const MAX_WAITING: usize = 3;
/// The language of every stream.
pub const LANGUAGE: &str = "nl";
/// Waits between the attempts of a request that failed in a way that may pass.
pub const DEFAULT_BACKOFF: [Duration; 3] = [Duration::from_millis(250), Duration::from_secs(1), Duration::from_secs(3)];

/// Shown when part of the recording could not be transcribed because the engine was unreachable.
pub const UNAVAILABLE_MESSAGE: &str = "Een deel van de opname kon niet worden omgezet in tekst: \
     de spraakherkenning was niet bereikbaar.";
/// Shown when the engine still downloads or loads its model (speaches answers 404 "is not
/// installed locally" until `POST /v1/models/...` has finished, `routers/utils.py:22-28`).
pub const LOADING_MESSAGE: &str = "Een deel van de opname kon niet worden omgezet in tekst: het \
     spraakmodel wordt nog geladen. Probeer het over enkele minuten opnieuw.";
/// Shown when the engine refused part of the recording.
pub const REJECTED_MESSAGE: &str = "Een deel van de opname kon niet worden omgezet in tekst: \
     de spraakherkenning weigerde het verzoek.";

/// The OpenAI-compatible batch transcription engine.
#[derive(Clone)]
pub struct OpenAiTranscription {
    inner: Arc<Inner>,
}

struct Inner {
    http: reqwest::Client,
    endpoint: String,
    settings: EngineSettings,
    backoff: Vec<Duration>,
}

#[derive(Deserialize)]
struct TranscriptionResponse {
    text: String,
}

/// Why one request failed.
enum Failure {
    /// Worth another try: no connection, a timeout, 429 or a 5xx.
    Transient(String),
    /// Another try will fail the same way: any other 4xx.
    Rejected(String),
    /// The model is not there yet: a 404 that says so. Tried again like a transient failure.
    Loading(String),
}

impl OpenAiTranscription {
    /// An engine for `settings`, with the [`DEFAULT_BACKOFF`].
    pub fn new(settings: EngineSettings) -> Self {
        let http = reqwest::Client::builder()
            .connect_timeout(settings.timeout.min(Duration::from_secs(10)))
            .user_agent("spreekkamer")
            .build()
            .unwrap_or_default();
        let endpoint = format!("{}/v1/audio/transcriptions", settings.url.trim_end_matches('/'));
        Self { inner: Arc::new(Inner { http, endpoint, settings, backoff: DEFAULT_BACKOFF.to_vec() }) }
    }

    /// The same engine with other waits between attempts (one more attempt than waits).
    pub fn with_backoff(self, backoff: Vec<Duration>) -> Self {
        let inner = &self.inner;
        Self {
            inner: Arc::new(Inner {
                http: inner.http.clone(),
                endpoint: inner.endpoint.clone(),
                settings: inner.settings.clone(),
                backoff,
            }),
        }
    }

    /// The settings the engine was made with.
    pub fn settings(&self) -> &EngineSettings {
        &self.inner.settings
    }

    /// Transcribes one clip (16 kHz mono PCM16), retrying what may pass. The text as the engine
    /// gave it, not cleaned.
    pub async fn transcribe(&self, audio: &[i16], vocabulary: &[String]) -> Result<String, SpeechError> {
        let prompt = crate::speech::prompt_with(&self.inner.settings.prompt, vocabulary);
        self.inner.transcribe(wav::encode(audio), &prompt, true).await
    }
}

impl SpeechEngine for OpenAiTranscription {
    fn name(&self) -> &'static str {
        "openai-transcription"
    }

    fn run(
        &self,
        options: StreamOptions,
        audio: mpsc::Receiver<AudioFrame>,
        events: mpsc::Sender<SpeechEvent>,
    ) -> BoxFuture<'static, Result<(), SpeechError>> {
        let inner = self.inner.clone();
        async move { inner.stream(options, audio, events).await }.boxed()
    }
}

impl Inner {
    async fn stream(
        self: Arc<Self>,
        options: StreamOptions,
        mut audio: mpsc::Receiver<AudioFrame>,
        events: mpsc::Sender<SpeechEvent>,
    ) -> Result<(), SpeechError> {
        let prompt: Arc<str> = crate::speech::prompt_with(&self.settings.prompt, &options.vocabulary).into();
        let interim_every = (self.settings.interim.as_secs_f64() * f64::from(SAMPLE_RATE)) as usize;
        let started = std::time::Instant::now();
        let mut vad = Vad::new();
        let mut finals: FuturesOrdered<BoxFuture<'static, Result<String, SpeechError>>> = FuturesOrdered::new();
        let mut interim: Fuse<BoxFuture<'static, (u64, Result<String, SpeechError>)>> = Fuse::terminated();
        // Counts finished (or discarded) utterances: an interim answer for an older one is stale.
        let mut utterance: u64 = 0;
        let mut next_interim_at = interim_every;
        let mut buffer_shown = false;
        let mut open = true;
        let mut utterances = 0usize;

        loop {
            if !open && finals.is_empty() {
                break;
            }
            tokio::select! {
                biased;
                Some(result) = finals.next(), if !finals.is_empty() => {
                    if !emit_final(result, &events).await {
                        return Ok(());
                    }
                    buffer_shown = false;
                }
                (id, result) = &mut interim, if !interim.is_terminated() => {
                    if id != utterance || !vad.in_speech() {
                        continue;
                    }
                    match result {
                        Ok(text) => {
                            let text = filter::clean(&text).join(" ");
                            if text.is_empty() && !buffer_shown {
                                continue;
                            }
                            buffer_shown = !text.is_empty();
                            if events.send(SpeechEvent::Buffer(text)).await.is_err() {
                                return Ok(());
                            }
                        }
                        Err(error) => {
                            tracing::debug!(error = error_kind(&error), "interim transcription failed");
                        }
                    }
                }
                frame = audio.recv(), if open && finals.len() < MAX_WAITING => {
                    open = frame.is_some();
                    let found = vad.feed(frame.as_deref());
                    for event in found {
                        match event {
                            VadEvent::SpeechStarted => next_interim_at = interim_every,
                            VadEvent::Utterance(samples) => {
                                utterance += 1;
                                utterances += 1;
                                next_interim_at = interim_every;
                                interim = Fuse::terminated();
                                tracing::debug!(
                                    samples = samples.len(),
                                    waiting = finals.len(),
                                    "utterance to transcribe"
                                );
                                let inner = self.clone();
                                let prompt = prompt.clone();
                                let wav = wav::encode(&samples);
                                finals.push_back(
                                    async move { inner.transcribe(wav, &prompt, true).await }.boxed(),
                                );
                            }
                            VadEvent::Discarded => {
                                utterance += 1;
                                interim = Fuse::terminated();
                                if buffer_shown {
                                    buffer_shown = false;
                                    let clear = SpeechEvent::Buffer(String::new());
                                    if events.send(clear).await.is_err() {
                                        return Ok(());
                                    }
                                }
                            }
                        }
                    }
                    if !open {
                        interim = Fuse::terminated();
                        continue;
                    }
                    // An interim transcription of the utterance in progress, when it is due and
                    // the engine has nothing better to do; skipped otherwise.
                    if let Some(current) = vad.current().filter(|_| interim_every > 0)
                        && current.len() >= next_interim_at
                    {
                        next_interim_at = current.len() + interim_every;
                        if interim.is_terminated() && finals.is_empty() {
                            let inner = self.clone();
                            let prompt = prompt.clone();
                            let wav = wav::encode(current);
                            let id = utterance;
                            interim = async move { (id, inner.transcribe(wav, &prompt, false).await) }
                                .boxed()
                                .fuse();
                        }
                    }
                }
                else => break,
            }
        }
        tracing::debug!(utterances, seconds = started.elapsed().as_secs(), "speech stream finished");
        Ok(())
    }

    /// Transcribes one WAV file; with `retry`, tries again after each wait of the backoff.
    async fn transcribe(&self, wav: Vec<u8>, prompt: &str, retry: bool) -> Result<String, SpeechError> {
        let attempts = if retry { self.backoff.len() + 1 } else { 1 };
        let mut last = Failure::Transient(String::new());
        for attempt in 0..attempts {
            if attempt > 0 {
                tokio::time::sleep(self.backoff[attempt - 1]).await;
            }
            match self.request(wav.clone(), prompt).await {
                Ok(text) => return Ok(text),
                Err(Failure::Rejected(message)) => {
                    tracing::warn!(%message, "speech engine rejected a transcription request");
                    return Err(SpeechError::Rejected(message));
                }
                Err(Failure::Transient(message)) => {
                    tracing::warn!(%message, attempt = attempt + 1, attempts, "speech engine request failed");
                    last = Failure::Transient(message);
                }
                Err(Failure::Loading(message)) => {
                    tracing::warn!(%message, attempt = attempt + 1, attempts, "speech engine is still loading its model");
                    last = Failure::Loading(message);
                }
            }
        }
        Err(match last {
            Failure::Loading(message) => SpeechError::Loading(message),
            Failure::Transient(message) | Failure::Rejected(message) => SpeechError::Unavailable(message),
        })
    }

    /// One request. Error messages hold no content: only the address, the status or the cause.
    async fn request(&self, wav: Vec<u8>, prompt: &str) -> Result<String, Failure> {
        let file = Part::bytes(wav)
            .file_name("audio.wav")
            .mime_str("audio/wav")
            .map_err(|e| Failure::Rejected(format!("cannot build the request: {e}")))?;
        let mut form = Form::new()
            .part("file", file)
            .text("model", self.settings.model.clone())
            .text("language", LANGUAGE)
            .text("response_format", "json")
            .text("temperature", "0");
        if !prompt.is_empty() {
            form = form.text("prompt", prompt.to_string());
        }
        let mut request = self.http.post(&self.endpoint).multipart(form).timeout(self.settings.timeout);
        if let Some(key) = &self.settings.api_key {
            request = request.bearer_auth(key);
        }
        let response = request.send().await.map_err(|e| Failure::Transient(describe(&self.endpoint, &e)))?;
        let status = response.status();
        if status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error() {
            return Err(Failure::Transient(format!("{} answered {status}", self.endpoint)));
        }
        if status == StatusCode::NOT_FOUND {
            let body = response.text().await.unwrap_or_default();
            if model_missing(&body) {
                return Err(Failure::Loading(format!("{} answered {status}: the model is not there yet", self.endpoint)));
            }
            return Err(Failure::Rejected(format!("{} answered {status}", self.endpoint)));
        }
        if !status.is_success() {
            return Err(Failure::Rejected(format!("{} answered {status}", self.endpoint)));
        }
        let body = response.bytes().await.map_err(|e| Failure::Transient(describe(&self.endpoint, &e)))?;
        let parsed: TranscriptionResponse = serde_json::from_slice(&body)
            .map_err(|e| Failure::Transient(format!("{} sent an answer without a text field: {}", self.endpoint, e.classify_name())))?;
        Ok(parsed.text)
    }
}

trait ClassifyName {
    fn classify_name(&self) -> &'static str;
}

impl ClassifyName for serde_json::Error {
    fn classify_name(&self) -> &'static str {
        match self.classify() {
            serde_json::error::Category::Io => "i/o error",
            serde_json::error::Category::Syntax => "not JSON",
            serde_json::error::Category::Data => "unexpected JSON",
            serde_json::error::Category::Eof => "truncated JSON",
        }
    }
}

/// Whether a 404's body says the model is missing (still being downloaded) rather than the path:
/// speaches' "Model '…' is not installed locally" (`routers/utils.py:25-28`), or an Ollama-style
/// "model … not found, try pulling it first".
fn model_missing(body: &str) -> bool {
    let body = body.to_lowercase();
    body.contains("model") && (body.contains("not installed") || body.contains("try pulling") || body.contains("not found"))
}

fn describe(endpoint: &str, error: &reqwest::Error) -> String {
    let cause = if error.is_timeout() {
        "timed out"
    } else if error.is_connect() {
        "cannot connect"
    } else {
        "request failed"
    };
    format!("{endpoint}: {cause}")
}

fn error_kind(error: &SpeechError) -> &'static str {
    match error {
        SpeechError::Unavailable(_) => "unavailable",
        SpeechError::Rejected(_) => "rejected",
        SpeechError::Loading(_) => "loading",
        SpeechError::Audio(_) => "audio",
    }
}

/// What an utterance that could not be transcribed is reported as.
pub fn trouble(error: &SpeechError) -> SpeechEvent {
    let (code, message) = match error {
        SpeechError::Rejected(_) => ("engine_rejected", REJECTED_MESSAGE),
        SpeechError::Loading(_) => ("engine_loading", LOADING_MESSAGE),
        SpeechError::Unavailable(_) | SpeechError::Audio(_) => ("engine_unavailable", UNAVAILABLE_MESSAGE),
    };
    SpeechEvent::Trouble { code, message: message.to_string() }
}

/// Sends the events of a finished utterance; `false` when nobody listens any more.
async fn emit_final(result: Result<String, SpeechError>, events: &mpsc::Sender<SpeechEvent>) -> bool {
    let mut out = Vec::new();
    match result {
        Ok(text) => {
            out.extend(filter::clean(&text).into_iter().map(|sentence| SpeechEvent::Completed { sentence, speaker: None }));
        }
        Err(error) => out.push(trouble(&error)),
    }
    out.push(SpeechEvent::Buffer(String::new()));
    for event in out {
        if events.send(event).await.is_err() {
            return false;
        }
    }
    true
}
