//! A streaming speech engine that speaks the OpenAI realtime transcription protocol over a
//! websocket, as a speaches server serves it on `/v1/realtime?intent=transcription`.
//!
//! One websocket per stream. The engine configures the session (Dutch, the prompt with the
//! stream's vocabulary, server-side voice activity detection), sends the audio as
//! `input_audio_buffer.append` events (PCM16 at 24 kHz, base64, upsampled from our 16 kHz) and
//! turns the server's events into [`SpeechEvent`]s: partial text becomes a
//! [`SpeechEvent::Buffer`], a finished transcription becomes one [`SpeechEvent::Completed`] per
//! sentence, in the order the audio was committed, however the server orders its answers.
//!
//! When the audio channel closes, the audio not yet committed is committed and the engine waits
//! (bounded by the configured timeout) for the outstanding transcriptions before it closes the
//! socket. A connection that drops mid-stream is reopened once; what was lost is reported as
//! [`SpeechEvent::Trouble`].

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use base64::Engine as _;
use futures::future::BoxFuture;
use futures::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::json;
use tokio::net::TcpStream;
use tokio::sync::{Notify, mpsc};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use url::Url;

use super::{AudioFrame, SAMPLE_RATE, SpeechEngine, SpeechError, SpeechEvent, StreamOptions};

/// Samples per second of the PCM16 audio the realtime protocol carries.
pub const WIRE_SAMPLE_RATE: u32 = 24_000;

/// The language every stream is transcribed in.
const LANGUAGE: &str = "nl";

/// Uncommitted audio shorter than this (in 16 kHz samples) is not worth a final commit; the
/// server refuses commits under 100 ms.
const MIN_COMMIT_SAMPLES: usize = SAMPLE_RATE as usize / 10;

/// A sample above this magnitude means the uncommitted audio holds more than silence.
const AUDIBLE_PEAK: u16 = 300;

/// Audible audio this recent (in 16 kHz samples) when the stream closes is committed even if the
/// server seems to have committed it already: a commit too many is refused harmlessly, one too
/// few loses the last words.
const RECENT_AUDIO_SAMPLES: usize = SAMPLE_RATE as usize;

/// How often one stream may reopen a dropped connection.
const MAX_RECONNECTS: u32 = 3;

const MESSAGE_ENGINE_ERROR: &str = "De spraakherkenning meldde een fout; een deel van het gesprek is mogelijk niet uitgeschreven.";
const MESSAGE_FAILED: &str = "Een deel van het gesprek kon niet worden uitgeschreven.";
const MESSAGE_RECONNECTED: &str = "De verbinding met de spraakherkenning viel even weg; een deel \
                                   van het gesprek is mogelijk niet uitgeschreven.";
const MESSAGE_LOST: &str = "De verbinding met de spraakherkenning viel weg en kon niet worden \
                            hersteld; de rest van het gesprek wordt niet uitgeschreven.";
const MESSAGE_TIMEOUT: &str = "De spraakherkenning gaf de laatste tekst niet op tijd terug; het \
                               einde van het gesprek is mogelijk niet uitgeschreven.";

/// How to reach the realtime server.
#[derive(Clone, Debug)]
pub struct RealtimeSettings {
    /// The http(s) base URL of the server, e.g. `http://speaches:8000`.
    pub url: String,
    /// The transcription model (the `model` query parameter).
    pub model: String,
    /// Sent as `Authorization: Bearer <key>` when set.
    pub api_key: Option<String>,
    /// The prompt that leads the transcription; the stream's vocabulary is appended to it.
    pub prompt: String,
    /// Bounds the connection handshake and the wait for the last transcriptions at the end.
    pub timeout: Duration,
}

/// The realtime speech engine. Cheap to share; every stream opens its own websocket.
#[derive(Clone, Debug)]
pub struct Realtime {
    settings: Arc<Settings>,
}

/// Validated settings.
#[derive(Debug)]
struct Settings {
    endpoint: Url,
    model: String,
    api_key: Option<String>,
    prompt: String,
    timeout: Duration,
}

impl Realtime {
    /// The engine for the settings `APP_SPEECH_*` configure.
    pub fn from_settings(settings: &crate::speech::config::EngineSettings) -> Result<Realtime, String> {
        Realtime::new(RealtimeSettings {
            url: settings.url.clone(),
            model: settings.model.clone(),
            api_key: settings.api_key.clone(),
            prompt: settings.prompt.clone(),
            timeout: settings.timeout,
        })
    }

    /// Checks the settings and builds the engine. Connects to nothing yet.
    pub fn new(settings: RealtimeSettings) -> Result<Realtime, String> {
        let endpoint = websocket_endpoint(&settings.url, &settings.model)?;
        if settings.timeout.is_zero() {
            return Err("the realtime speech timeout must be more than zero".to_string());
        }
        Ok(Realtime {
            settings: Arc::new(Settings {
                endpoint,
                model: settings.model,
                api_key: settings.api_key.filter(|key| !key.is_empty()),
                prompt: settings.prompt,
                timeout: settings.timeout,
            }),
        })
    }
}

impl SpeechEngine for Realtime {
    fn name(&self) -> &'static str {
        "realtime"
    }

    fn run(
        &self,
        options: StreamOptions,
        audio: mpsc::Receiver<AudioFrame>,
        events: mpsc::Sender<SpeechEvent>,
    ) -> BoxFuture<'static, Result<(), SpeechError>> {
        let settings = Arc::clone(&self.settings);
        Box::pin(run_stream(settings, options, audio, events))
    }
}

/// The websocket URL for a base URL: http becomes ws, https becomes wss, and the path gets
/// `/v1/realtime` with the model, the transcription intent and the language as query.
fn websocket_endpoint(base: &str, model: &str) -> Result<Url, String> {
    if model.trim().is_empty() {
        return Err("the realtime speech model is empty".to_string());
    }
    let mut url = Url::parse(base).map_err(|err| format!("realtime speech URL {base:?} is invalid: {err}"))?;
    let scheme = match url.scheme() {
        "http" | "ws" => "ws",
        "https" | "wss" => "wss",
        other => {
            return Err(format!("realtime speech URL has unsupported scheme {other:?}"));
        }
    };
    url.set_scheme(scheme).map_err(|()| format!("realtime speech URL {base:?} cannot use scheme {scheme}"))?;
    let path = format!("{}/v1/realtime", url.path().trim_end_matches('/'));
    url.set_path(&path);
    url.set_query(None);
    url.query_pairs_mut().append_pair("model", model).append_pair("intent", "transcription").append_pair("language", LANGUAGE);
    Ok(url)
}

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Opens the websocket. A server that is down or fails the handshake is `Unavailable`; one that
/// answers the upgrade with a 4xx (a wrong key, model or path) is `Rejected`.
async fn connect(settings: &Settings) -> Result<Socket, SpeechError> {
    let mut request =
        settings.endpoint.as_str().into_client_request().map_err(|err| SpeechError::Unavailable(format!("websocket request: {err}")))?;
    if let Some(key) = &settings.api_key {
        let value = HeaderValue::from_str(&format!("Bearer {key}"))
            .map_err(|_| SpeechError::Rejected("the API key is not a valid header".to_string()))?;
        request.headers_mut().insert("authorization", value);
    }
    request.headers_mut().insert("openai-beta", HeaderValue::from_static("realtime=v1"));
    let connecting = tokio_tungstenite::connect_async(request);
    match tokio::time::timeout(settings.timeout, connecting).await {
        Ok(Ok((socket, _response))) => Ok(socket),
        Ok(Err(tungstenite::Error::Http(response))) => {
            let status = response.status();
            if status.is_client_error() {
                Err(SpeechError::Rejected(format!("websocket upgrade answered {status}")))
            } else {
                Err(SpeechError::Unavailable(format!("websocket upgrade answered {status}")))
            }
        }
        Ok(Err(err)) => Err(SpeechError::Unavailable(format!("websocket connection: {err}"))),
        Err(_) => Err(SpeechError::Unavailable(format!("no websocket connection within {} s", settings.timeout.as_secs_f32()))),
    }
}

/// The `session.update` event that configures a transcription session.
fn session_update(settings: &Settings, prompt: &str) -> String {
    json!({
        "type": "session.update",
        "session": {
            "input_audio_transcription": {
                "model": settings.model,
                "language": LANGUAGE,
                "prompt": prompt,
            },
            "turn_detection": {
                "type": "server_vad",
                "threshold": 0.5,
                "silence_duration_ms": 500,
                "create_response": false,
            },
        },
    })
    .to_string()
}

/// An `input_audio_buffer.append` event with PCM16 little-endian samples.
fn append_event(samples: &[i16]) -> String {
    let bytes: Vec<u8> = samples.iter().flat_map(|sample| sample.to_le_bytes()).collect();
    let audio = base64::engine::general_purpose::STANDARD.encode(bytes);
    json!({ "type": "input_audio_buffer.append", "audio": audio }).to_string()
}

fn commit_event() -> String {
    json!({ "type": "input_audio_buffer.commit" }).to_string()
}

/// Streaming linear-interpolation resampler from 16 kHz to 24 kHz (3 out for every 2 in).
///
/// Linear interpolation folds a little energy above 8 kHz; the server brings the audio back to
/// 16 kHz for recognition, which filters that band away again.
#[derive(Debug, Default)]
pub(crate) struct Upsampler {
    /// The last input sample of the previous frame, the start of the next interpolation.
    last: Option<i16>,
    /// Position of the next output sample, in thirds of an input sample from `last` (or from
    /// the first sample of the frame when there is no `last`).
    position: usize,
}

impl Upsampler {
    /// Resamples one frame; frames fed one after another give the same samples as one long frame.
    pub(crate) fn process(&mut self, input: &[i16]) -> Vec<i16> {
        let source: Vec<i16> = self.last.into_iter().chain(input.iter().copied()).collect();
        let Some(&tail) = source.last() else {
            return Vec::new();
        };
        let mut output = Vec::with_capacity(input.len() * 3 / 2 + 2);
        loop {
            let index = self.position / 3;
            let fraction = (self.position % 3) as i32;
            if fraction == 0 {
                let Some(&sample) = source.get(index) else {
                    break;
                };
                output.push(sample);
            } else {
                let (Some(&a), Some(&b)) = (source.get(index), source.get(index + 1)) else {
                    break;
                };
                let mixed = i32::from(a) * (3 - fraction) + i32::from(b) * fraction;
                // Round half away from zero; the result lies between a and b, so it fits.
                let rounded = if mixed >= 0 { (mixed + 1) / 3 } else { (mixed - 1) / 3 };
                output.push(i16::try_from(rounded).unwrap_or(if mixed >= 0 { i16::MAX } else { i16::MIN }));
            }
            self.position += 2;
        }
        self.position -= 3 * (source.len() - 1);
        self.last = Some(tail);
        output
    }
}

/// The server events the engine acts on.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(tag = "type")]
pub(crate) enum ServerEvent {
    #[serde(rename = "input_audio_buffer.committed")]
    Committed { item_id: String },
    #[serde(rename = "input_audio_buffer.speech_started")]
    SpeechStarted,
    #[serde(rename = "input_audio_buffer.speech_stopped")]
    SpeechStopped,
    /// OpenAI: a piece of text to add to the item's transcript.
    #[serde(rename = "conversation.item.input_audio_transcription.delta")]
    Delta { item_id: String, delta: String },
    /// speaches: the transcript so far of the audio being spoken.
    #[serde(rename = "input_audio_buffer.partial_transcription")]
    Partial { item_id: String, transcript: String },
    #[serde(rename = "conversation.item.input_audio_transcription.completed")]
    Completed { item_id: String, transcript: String },
    #[serde(rename = "conversation.item.input_audio_transcription.failed")]
    Failed { item_id: String },
    #[serde(rename = "error")]
    Error { error: ErrorBody },
    #[serde(other)]
    Other,
}

/// The body of an `error` event; only its kind and code are kept (the message may quote input).
#[derive(Debug, Deserialize, PartialEq)]
pub(crate) struct ErrorBody {
    #[serde(rename = "type", default)]
    pub(crate) kind: Option<String>,
    #[serde(default)]
    pub(crate) code: Option<String>,
}

/// Parses one text message of the server.
pub(crate) fn parse_event(text: &str) -> Result<ServerEvent, serde_json::Error> {
    serde_json::from_str(text)
}

/// The transcription of one committed piece of audio.
#[derive(Debug)]
struct Item {
    id: String,
    text: String,
    done: bool,
}

/// The items not yet reported as completed, in the order their audio was committed.
#[derive(Debug, Default)]
pub(crate) struct Transcript {
    items: VecDeque<Item>,
}

impl Transcript {
    fn item(&mut self, id: &str) -> &mut Item {
        let position = match self.items.iter().position(|item| item.id == id) {
            Some(position) => position,
            None => {
                // Text for audio not (yet) seen committed: it goes after what was committed.
                self.items.push_back(Item { id: id.to_string(), text: String::new(), done: false });
                self.items.len() - 1
            }
        };
        &mut self.items[position]
    }

    /// The server committed a piece of audio: its transcription comes after the earlier ones.
    pub(crate) fn committed(&mut self, id: &str) {
        self.item(id);
    }

    /// Adds a piece of text to an item in progress.
    pub(crate) fn delta(&mut self, id: &str, delta: &str) {
        let item = self.item(id);
        if !item.done {
            item.text.push_str(delta);
        }
    }

    /// Replaces the text so far of an item in progress.
    pub(crate) fn partial(&mut self, id: &str, transcript: &str) {
        let item = self.item(id);
        if !item.done {
            item.text = transcript.to_string();
        }
    }

    /// An item's final text.
    pub(crate) fn completed(&mut self, id: &str, transcript: &str) {
        let item = self.item(id);
        item.text = transcript.to_string();
        item.done = true;
    }

    /// An item whose transcription failed: it holds up nothing, and adds nothing.
    pub(crate) fn failed(&mut self, id: &str) {
        let item = self.item(id);
        item.text.clear();
        item.done = true;
    }

    /// The final texts that are next in order, removed from the transcript.
    pub(crate) fn take_ready(&mut self) -> Vec<String> {
        let mut ready = Vec::new();
        while self.items.front().is_some_and(|item| item.done) {
            if let Some(item) = self.items.pop_front() {
                ready.push(item.text);
            }
        }
        ready
    }

    /// Takes every final text in order and drops the items still in progress; returns the texts
    /// and how many items were dropped.
    pub(crate) fn abandon(&mut self) -> (Vec<String>, usize) {
        let mut texts = Vec::new();
        let mut dropped = 0;
        for item in self.items.drain(..) {
            if item.done {
                texts.push(item.text);
            } else {
                dropped += 1;
            }
        }
        (texts, dropped)
    }

    /// The text not yet reported as completed, in order.
    pub(crate) fn buffer(&self) -> String {
        let parts: Vec<&str> = self.items.iter().map(|item| item.text.trim()).filter(|text| !text.is_empty()).collect();
        parts.join(" ")
    }

    /// Items whose transcription has not come in yet.
    pub(crate) fn outstanding(&self) -> usize {
        self.items.iter().filter(|item| !item.done).count()
    }
}

/// Sends events to the caller; remembers the last buffer so an unchanged one is not repeated.
struct Output {
    events: mpsc::Sender<SpeechEvent>,
    buffer: String,
    gone: bool,
}

impl Output {
    async fn send(&mut self, event: SpeechEvent) {
        if !self.gone && self.events.send(event).await.is_err() {
            self.gone = true;
        }
    }

    async fn buffer(&mut self, text: String) {
        if text != self.buffer {
            self.buffer.clone_from(&text);
            self.send(SpeechEvent::Buffer(text)).await;
        }
    }

    async fn completed(&mut self, texts: Vec<String>) {
        for text in texts {
            for sentence in crate::speech::filter::clean(&text) {
                self.send(SpeechEvent::Completed { sentence, speaker: None }).await;
            }
        }
    }

    async fn trouble(&mut self, code: &'static str, message: &str) {
        self.send(SpeechEvent::Trouble { code, message: message.to_string() }).await;
    }
}

/// What the writer knows of the audio the server holds uncommitted, and the closing handshake.
#[derive(Debug, Default)]
struct Progress {
    /// 16 kHz samples sent since the server last committed.
    uncommitted: usize,
    /// Whether any of those samples is audible.
    audible: bool,
    /// 16 kHz samples sent after the last audible one. Unlike `uncommitted` it ignores commits:
    /// the server's commit may cover audio sent after it, or not, and its answer comes late.
    since_audible: usize,
    /// The server heard speech start and not yet stop.
    speaking: bool,
    /// The audio channel closed; no more audio comes.
    closing: bool,
    /// The final commit was sent and the server has not answered it yet.
    final_commit_pending: bool,
}

fn lock(progress: &Mutex<Progress>) -> MutexGuard<'_, Progress> {
    progress.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// How one connection ended.
#[derive(Debug, PartialEq)]
enum Ended {
    /// The audio closed and the connection was closed cleanly; everything is reported.
    Finished,
    /// The connection dropped while audio still came.
    Dropped,
    /// The caller stopped listening to the events.
    CallerGone,
}

/// How the reader stopped.
#[derive(Debug, PartialEq)]
enum ReaderEnd {
    /// Closing, and every transcription came in.
    Done,
    Dropped,
    CallerGone,
}

async fn run_stream(
    settings: Arc<Settings>,
    options: StreamOptions,
    mut audio: mpsc::Receiver<AudioFrame>,
    events: mpsc::Sender<SpeechEvent>,
) -> Result<(), SpeechError> {
    let prompt = crate::speech::prompt_with(&settings.prompt, &options.vocabulary);
    let mut socket = connect(&settings).await?;
    tracing::debug!(engine = "realtime", "speech stream connected");
    let mut output = Output { events, buffer: String::new(), gone: false };
    let mut transcript = Transcript::default();
    let mut upsampler = Upsampler::default();
    let mut reconnects = 0;
    loop {
        let ended = session(&settings, &prompt, socket, &mut audio, &mut output, &mut transcript, &mut upsampler).await;
        if ended != Ended::Dropped {
            tracing::debug!(engine = "realtime", ?ended, reconnects, "speech stream ended");
            return Ok(());
        }
        let (texts, dropped) = transcript.abandon();
        output.completed(texts).await;
        output.buffer(String::new()).await;
        tracing::warn!(engine = "realtime", dropped, reconnects, "speech connection dropped");
        if reconnects >= MAX_RECONNECTS {
            output.trouble("engine_unavailable", MESSAGE_LOST).await;
            return Ok(());
        }
        reconnects += 1;
        match connect(&settings).await {
            Ok(reopened) => {
                if dropped > 0 {
                    output.trouble("engine_unavailable", MESSAGE_RECONNECTED).await;
                }
                socket = reopened;
                upsampler = Upsampler::default();
            }
            Err(err) => {
                tracing::warn!(engine = "realtime", error = %err, "speech reconnection failed");
                output.trouble("engine_unavailable", MESSAGE_LOST).await;
                return Ok(());
            }
        }
    }
}

/// Runs one connection: configures it, streams the audio and reads the server's events until the
/// audio closes and the last transcription is in, or the connection drops.
async fn session(
    settings: &Settings,
    prompt: &str,
    socket: Socket,
    audio: &mut mpsc::Receiver<AudioFrame>,
    output: &mut Output,
    transcript: &mut Transcript,
    upsampler: &mut Upsampler,
) -> Ended {
    let (mut sink, mut stream) = socket.split();
    if sink.send(Message::text(session_update(settings, prompt))).await.is_err() {
        return Ended::Dropped;
    }
    let progress = Mutex::new(Progress { since_audible: usize::MAX, ..Progress::default() });
    let closed = Notify::new();

    let writer = async {
        while let Some(frame) = audio.recv().await {
            {
                let mut progress = lock(&progress);
                progress.uncommitted += frame.len();
                match frame.iter().rposition(|sample| sample.unsigned_abs() > AUDIBLE_PEAK) {
                    Some(last) => {
                        progress.audible = true;
                        progress.since_audible = frame.len() - 1 - last;
                    }
                    None => progress.since_audible = progress.since_audible.saturating_add(frame.len()),
                }
            }
            let samples = upsampler.process(&frame);
            if samples.is_empty() {
                continue;
            }
            // Awaiting the send is the back-pressure: the next frame is read once this one is
            // on its way.
            if sink.send(Message::text(append_event(&samples))).await.is_err() {
                return (sink, false);
            }
        }
        let commit = {
            let mut progress = lock(&progress);
            progress.closing = true;
            let commit = progress.speaking
                || (progress.uncommitted >= MIN_COMMIT_SAMPLES && progress.audible)
                || progress.since_audible < RECENT_AUDIO_SAMPLES;
            progress.final_commit_pending = commit;
            commit
        };
        if commit && sink.send(Message::text(commit_event())).await.is_err() {
            return (sink, false);
        }
        closed.notify_one();
        (sink, true)
    };
    let mut writer = Box::pin(writer);
    let mut reader = Box::pin(read_events(&mut stream, &progress, &closed, output, transcript));

    let mut sink = tokio::select! {
        (sink, delivered) = &mut writer => {
            if !delivered {
                return Ended::Dropped;
            }
            sink
        }
        end = &mut reader => {
            return match end {
                ReaderEnd::CallerGone => Ended::CallerGone,
                ReaderEnd::Done | ReaderEnd::Dropped => Ended::Dropped,
            };
        }
    };

    drop(writer);
    // The audio is closed: wait for what is outstanding, bounded by the timeout.
    let end = tokio::time::timeout(settings.timeout, &mut reader).await;
    drop(reader);
    match end {
        Ok(ReaderEnd::Done) => {}
        Ok(ReaderEnd::CallerGone) => return Ended::CallerGone,
        Ok(ReaderEnd::Dropped) => {
            // Nothing more comes: reconnecting cannot bring the lost transcriptions back.
            let (texts, dropped) = transcript.abandon();
            output.completed(texts).await;
            output.buffer(String::new()).await;
            if dropped > 0 {
                output.trouble("engine_unavailable", MESSAGE_RECONNECTED).await;
            }
            return Ended::Finished;
        }
        Err(_) => {
            let (texts, dropped) = transcript.abandon();
            tracing::warn!(engine = "realtime", dropped, "speech transcriptions timed out");
            output.completed(texts).await;
            output.buffer(String::new()).await;
            output.trouble("engine_timeout", MESSAGE_TIMEOUT).await;
        }
    }
    // Close cleanly: send our close frame and read until the server's answer ends the stream.
    let _ = sink.send(Message::Close(None)).await;
    let _ = tokio::time::timeout(settings.timeout, async { while let Some(Ok(_)) = stream.next().await {} }).await;
    Ended::Finished
}

/// Reads the server's events and reports them, until the audio is closed and every transcription
/// is in, the connection drops, or the caller stops listening.
async fn read_events(
    stream: &mut futures::stream::SplitStream<Socket>,
    progress: &Mutex<Progress>,
    closed: &Notify,
    output: &mut Output,
    transcript: &mut Transcript,
) -> ReaderEnd {
    loop {
        {
            let progress = lock(progress);
            if progress.closing && !progress.final_commit_pending && transcript.outstanding() == 0 {
                return ReaderEnd::Done;
            }
        }
        let message = tokio::select! {
            message = stream.next() => message,
            () = closed.notified() => continue,
        };
        let text = match message {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return ReaderEnd::Dropped,
            Some(Ok(_)) => continue,
        };
        let event = match parse_event(text.as_str()) {
            Ok(event) => event,
            Err(err) => {
                tracing::warn!(engine = "realtime", error = %err, bytes = text.len(), "unreadable speech server event");
                continue;
            }
        };
        handle_event(event, progress, output, transcript).await;
        if output.gone {
            return ReaderEnd::CallerGone;
        }
    }
}

/// Applies one server event to the transcript and reports what changed.
async fn handle_event(event: ServerEvent, progress: &Mutex<Progress>, output: &mut Output, transcript: &mut Transcript) {
    match event {
        ServerEvent::SpeechStarted => lock(progress).speaking = true,
        ServerEvent::SpeechStopped => lock(progress).speaking = false,
        ServerEvent::Committed { item_id } => {
            {
                let mut progress = lock(progress);
                progress.uncommitted = 0;
                progress.audible = false;
                progress.speaking = false;
                if progress.closing {
                    progress.final_commit_pending = false;
                }
            }
            transcript.committed(&item_id);
        }
        ServerEvent::Delta { item_id, delta } => {
            transcript.delta(&item_id, &delta);
            output.buffer(transcript.buffer()).await;
        }
        ServerEvent::Partial { item_id, transcript: text } => {
            transcript.partial(&item_id, &text);
            output.buffer(transcript.buffer()).await;
        }
        ServerEvent::Completed { item_id, transcript: text } => {
            transcript.completed(&item_id, &text);
            let ready = transcript.take_ready();
            output.completed(ready).await;
            output.buffer(transcript.buffer()).await;
        }
        ServerEvent::Failed { item_id } => {
            tracing::warn!(engine = "realtime", "speech server failed to transcribe an item");
            transcript.failed(&item_id);
            output.trouble("engine_error", MESSAGE_FAILED).await;
            let ready = transcript.take_ready();
            output.completed(ready).await;
            output.buffer(transcript.buffer()).await;
        }
        ServerEvent::Error { error } => {
            let closing = {
                let mut progress = lock(progress);
                progress.final_commit_pending = false;
                progress.closing
            };
            tracing::warn!(
                engine = "realtime",
                kind = error.kind.as_deref().unwrap_or("-"),
                code = error.code.as_deref().unwrap_or("-"),
                "speech server reported an error"
            );
            // Once the audio is closed the only request left is the final commit; its refusal
            // (the buffer was empty or too short, the server had committed it already) loses
            // nothing.
            let refused_commit = closing && error.kind.as_deref() == Some("invalid_request_error");
            if !refused_commit {
                output.trouble("engine_error", MESSAGE_ENGINE_ERROR).await;
            }
        }
        ServerEvent::Other => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sine(frequency: f64, rate: f64, samples: usize) -> Vec<i16> {
        (0..samples).map(|n| (10_000.0 * (2.0 * std::f64::consts::PI * frequency * n as f64 / rate).sin()) as i16).collect()
    }

    fn zero_crossings(samples: &[i16]) -> usize {
        samples.windows(2).filter(|pair| (pair[0] < 0) != (pair[1] < 0)).count()
    }

    #[test]
    fn upsampling_gives_three_samples_for_two() {
        let output = Upsampler::default().process(&sine(440.0, 16_000.0, 16_000));
        assert!((23_997..=24_000).contains(&output.len()), "{} samples", output.len());
    }

    #[test]
    fn upsampling_keeps_the_frequency_and_level() {
        let output = Upsampler::default().process(&sine(440.0, 16_000.0, 16_000));
        // One second of 440 Hz crosses zero 880 times, whatever the rate.
        let crossings = zero_crossings(&output);
        assert!((878..=882).contains(&crossings), "{crossings} crossings");
        let peak = output.iter().map(|s| s.unsigned_abs()).max().unwrap_or(0);
        assert!((9_900..=10_000).contains(&peak), "peak {peak}");
    }

    #[test]
    fn upsampling_interpolates_between_samples() {
        let output = Upsampler::default().process(&[0, 300, 600, 900]);
        // Outputs sit at 0, 2/3, 4/3, 2, 8/3 input samples.
        assert_eq!(output, vec![0, 200, 400, 600, 800]);
    }

    #[test]
    fn upsampling_in_frames_equals_upsampling_at_once() {
        let input = sine(1_000.0, 16_000.0, 24_001);
        let whole = Upsampler::default().process(&input);
        let mut upsampler = Upsampler::default();
        let mut framed = Vec::new();
        for frame in input.chunks(7_999) {
            framed.extend(upsampler.process(frame));
        }
        assert_eq!(framed, whole);
        assert!(upsampler.process(&[]).is_empty());
    }

    #[test]
    fn upsampling_keeps_extremes() {
        let output = Upsampler::default().process(&[i16::MIN, i16::MAX, i16::MIN, i16::MAX]);
        assert!(output.iter().all(|s| (i16::MIN..=i16::MAX).contains(s)));
        assert_eq!(output[0], i16::MIN);
    }

    #[test]
    fn parses_the_transcription_events() {
        assert_eq!(
            parse_event(r#"{"type":"input_audio_buffer.committed","event_id":"e1","item_id":"item_1","previous_item_id":null}"#).ok(),
            Some(ServerEvent::Committed { item_id: "item_1".into() })
        );
        assert_eq!(
            parse_event(r#"{"type":"conversation.item.input_audio_transcription.delta","event_id":"e2","item_id":"item_1","content_index":0,"delta":"Goede"}"#).ok(),
            Some(ServerEvent::Delta { item_id: "item_1".into(), delta: "Goede".into() })
        );
        assert_eq!(
            parse_event(
                r#"{"type":"input_audio_buffer.partial_transcription","event_id":"e3","item_id":"item_1","transcript":"Goede mor"}"#
            )
            .ok(),
            Some(ServerEvent::Partial { item_id: "item_1".into(), transcript: "Goede mor".into() })
        );
        assert_eq!(
            parse_event(r#"{"type":"conversation.item.input_audio_transcription.completed","event_id":"e4","item_id":"item_1","content_index":0,"transcript":"Goedemorgen.","usage":{"type":"duration","seconds":1.2}}"#).ok(),
            Some(ServerEvent::Completed { item_id: "item_1".into(), transcript: "Goedemorgen.".into() })
        );
        assert_eq!(
            parse_event(r#"{"type":"conversation.item.input_audio_transcription.failed","event_id":"e5","item_id":"item_2","content_index":0,"error":{"message":"x"}}"#).ok(),
            Some(ServerEvent::Failed { item_id: "item_2".into() })
        );
        assert_eq!(
            parse_event(r#"{"type":"input_audio_buffer.speech_started","event_id":"e6","item_id":"item_3","audio_start_ms":100}"#).ok(),
            Some(ServerEvent::SpeechStarted)
        );
        assert_eq!(
            parse_event(r#"{"type":"input_audio_buffer.speech_stopped","event_id":"e7","item_id":"item_3","audio_end_ms":900}"#).ok(),
            Some(ServerEvent::SpeechStopped)
        );
        assert_eq!(
            parse_event(r#"{"type":"error","event_id":"e8","error":{"type":"invalid_request_error","code":null,"message":"buffer too small","param":null,"event_id":null}}"#).ok(),
            Some(ServerEvent::Error {
                error: ErrorBody { kind: Some("invalid_request_error".into()), code: None }
            })
        );
        assert_eq!(parse_event(r#"{"type":"session.updated","event_id":"e9","session":{"id":"s"}}"#).ok(), Some(ServerEvent::Other));
        assert!(parse_event(r#"{"type":"conversation.item.input_audio_transcription.completed"}"#).is_err());
        assert!(parse_event("not json").is_err());
    }

    #[test]
    fn transcript_keeps_the_committed_order() {
        let mut transcript = Transcript::default();
        transcript.committed("a");
        transcript.committed("b");
        transcript.delta("a", "Een ");
        transcript.delta("a", "zin");
        assert_eq!(transcript.buffer(), "Een zin");
        transcript.completed("b", "Twee.");
        assert!(transcript.take_ready().is_empty(), "b waits for a");
        assert_eq!(transcript.buffer(), "Een zin Twee.");
        transcript.completed("a", "Een zin.");
        assert_eq!(transcript.take_ready(), vec!["Een zin.".to_string(), "Twee.".to_string()]);
        assert_eq!(transcript.buffer(), "");
        assert_eq!(transcript.outstanding(), 0);
    }

    #[test]
    fn a_failed_item_holds_nothing_up() {
        let mut transcript = Transcript::default();
        transcript.committed("a");
        transcript.committed("b");
        transcript.completed("b", "Twee.");
        transcript.failed("a");
        assert_eq!(transcript.take_ready(), vec![String::new(), "Twee.".to_string()]);
    }

    #[test]
    fn abandon_keeps_final_texts_and_counts_the_rest() {
        let mut transcript = Transcript::default();
        transcript.committed("a");
        transcript.committed("b");
        transcript.completed("b", "Twee.");
        transcript.partial("a", "Ee");
        assert_eq!(transcript.abandon(), (vec!["Twee.".to_string()], 1));
        assert_eq!(transcript.buffer(), "");
    }

    #[test]
    fn builds_the_websocket_endpoint() {
        let url = websocket_endpoint("http://speaches:8000", "Systran/faster-whisper-large-v3").ok();
        assert_eq!(
            url.map(String::from).as_deref(),
            Some("ws://speaches:8000/v1/realtime?model=Systran%2Ffaster-whisper-large-v3&intent=transcription&language=nl")
        );
        let url = websocket_endpoint("https://spraak.example.nl/api/", "m").ok();
        assert_eq!(
            url.map(String::from).as_deref(),
            Some("wss://spraak.example.nl/api/v1/realtime?model=m&intent=transcription&language=nl")
        );
        assert!(websocket_endpoint("ftp://host", "m").is_err());
        assert!(websocket_endpoint("http://host", " ").is_err());
        assert!(websocket_endpoint("geen url", "m").is_err());
    }

    #[test]
    fn append_events_carry_little_endian_base64() {
        let event: serde_json::Value = serde_json::from_str(&append_event(&[1, -2])).unwrap();
        assert_eq!(event["type"], "input_audio_buffer.append");
        let bytes = base64::engine::general_purpose::STANDARD.decode(event["audio"].as_str().unwrap()).unwrap();
        assert_eq!(bytes, vec![1, 0, 0xfe, 0xff]);
    }

    #[test]
    fn rejects_bad_settings() {
        let settings = RealtimeSettings {
            url: "http://localhost:8000".into(),
            model: "m".into(),
            api_key: None,
            prompt: String::new(),
            timeout: Duration::ZERO,
        };
        assert!(Realtime::new(settings.clone()).is_err());
        assert!(Realtime::new(RealtimeSettings { timeout: Duration::from_secs(5), ..settings }).is_ok());
    }
}
