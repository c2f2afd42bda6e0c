//! A streaming speech engine that speaks the OpenAI realtime transcription protocol over a
//! websocket, as a speaches server serves it on `/v1/realtime?intent=transcription`, and falls
//! back to the same server's batch endpoint for every utterance the realtime session cannot give.
//!
//! The product cuts the stream into utterances itself ([`super::vad`]), as the batch engine
//! does. Each utterance is sent as `input_audio_buffer.append` events (PCM16 at 24 kHz, base64,
//! upsampled from our 16 kHz) followed by one explicit `input_audio_buffer.commit`; its
//! transcription comes back as `conversation.item.input_audio_transcription.completed` and is
//! reported as [`SpeechEvent::Completed`] sentences, in the order spoken.
//!
//! speaches as it ships (`870e1e1`, the source of its `latest-cpu` image) is worked around here:
//!
//! - **The server's own turn detection is switched off** (threshold 1.0), because a commit while
//!   its VAD has heard speech start but not stop trips an assertion that kills the session
//!   (`realtime/input_audio_buffer.py:80-87`, speaches#567), and audio sent faster than real time
//!   makes its VAD commit one item twice. speaches takes turn detection only with
//!   `prefix_padding_ms` in the same object (`types/realtime.py:229-234`; without it the object
//!   validates as "not given" and is dropped) and then answers an `error` event about that field
//!   while applying the rest (`realtime/session_event_router.py:50-68`): that one error is
//!   expected and ignored.
//! - **A dead session loses nothing.** A transcription error publishes `error` and then kills the
//!   whole session (`realtime/input_audio_buffer_event_router.py:178-188`); without
//!   `LOOPBACK_HOST_URL` every transcription fails that way (speaches#559); sessions are closed
//!   after 30 minutes (`realtime/session.py:9`, `routers/realtime_ws.py:103`). Every utterance
//!   keeps its audio until its text is in: when the connection ends, times out or reports an
//!   item as failed, the utterances it still owed go through the batch path
//!   ([`super::openai::OpenAiTranscription`]) in their place in the transcript, and the next
//!   utterance opens a new session. Reconnecting has no limit but a rate: after a session that
//!   gave no transcription, the next attempt waits [`RECONNECT_BACKOFF_FIRST`], doubling up to
//!   [`RECONNECT_BACKOFF_MAX`]; utterances meanwhile take the batch path.
//! - **Sessions are renewed before the server's limit**: a session older than
//!   [`DEFAULT_ROTATE_AFTER`] is closed between utterances and a new one opened.
//! - **The prompt and vocabulary** reach the engine only on the batch path: speaches' realtime
//!   transcription has no prompt (`types/realtime.py:237-240`, `realtime/input_audio_buffer.py:129-134`).
//! - **Live partial text** is shown where the engine sends it (OpenAI's
//!   `…input_audio_transcription.delta`); speaches sends none.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use futures::future::BoxFuture;
use futures::stream::{FuturesUnordered, SplitSink, SplitStream};
use futures::{FutureExt, SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::json;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use url::Url;

use super::openai::{OpenAiTranscription, trouble};
use super::vad::{Vad, VadEvent};
use super::{AudioFrame, SpeechEngine, SpeechError, SpeechEvent, StreamOptions};

/// Samples per second of the PCM16 audio the realtime protocol carries.
pub const WIRE_SAMPLE_RATE: u32 = 24_000;

/// The language every stream is transcribed in.
const LANGUAGE: &str = "nl";

/// speaches closes every session after 30 minutes; a session this old is renewed between
/// utterances.
pub const DEFAULT_ROTATE_AFTER: Duration = Duration::from_secs(25 * 60);

/// The first wait before reconnecting after a session that gave no transcription.
pub const RECONNECT_BACKOFF_FIRST: Duration = Duration::from_secs(1);

/// The longest wait between reconnection attempts.
pub const RECONNECT_BACKOFF_MAX: Duration = Duration::from_secs(60);

/// Utterances that may wait for their text before the stream stops reading audio.
pub const MAX_WAITING: usize = 6;

/// At most this many 24 kHz samples go in one `append` event (one second).
const APPEND_SAMPLES: usize = WIRE_SAMPLE_RATE as usize;

/// How to reach the realtime server.
#[derive(Clone, Debug)]
pub struct RealtimeSettings {
    /// The http(s) base URL of the server, e.g. `http://speaches:8000`; its batch endpoint
    /// `/v1/audio/transcriptions` is the fallback.
    pub url: String,
    /// The transcription model (the `model` query parameter, and the batch requests' model).
    pub model: String,
    /// Sent as `Authorization: Bearer <key>` when set.
    pub api_key: Option<String>,
    /// The prompt that leads a batch transcription; the stream's vocabulary is appended to it.
    pub prompt: String,
    /// Bounds the connection handshake and the wait for one utterance's transcription.
    pub timeout: Duration,
    /// A session this old is closed between utterances and a new one opened.
    pub rotate_after: Duration,
}

/// The realtime speech engine. Cheap to share; every stream opens its own websocket.
#[derive(Clone)]
pub struct Realtime {
    settings: Arc<Settings>,
    batch: OpenAiTranscription,
}

impl std::fmt::Debug for Realtime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Realtime").field("settings", &self.settings).finish_non_exhaustive()
    }
}

/// Validated settings.
#[derive(Debug)]
struct Settings {
    endpoint: Url,
    model: String,
    api_key: Option<String>,
    timeout: Duration,
    rotate_after: Duration,
}

impl Realtime {
    /// The engine for the settings `APP_SPEECH_*` configure.
    pub fn from_settings(settings: &crate::speech::EngineSettings) -> Result<Realtime, String> {
        Realtime::new(RealtimeSettings {
            url: settings.url.clone(),
            model: settings.model.clone(),
            api_key: settings.api_key.clone(),
            prompt: settings.prompt.clone(),
            timeout: settings.timeout,
            rotate_after: DEFAULT_ROTATE_AFTER,
        })
    }

    /// Checks the settings and builds the engine. Connects to nothing yet.
    pub fn new(settings: RealtimeSettings) -> Result<Realtime, String> {
        let endpoint = websocket_endpoint(&settings.url, &settings.model)?;
        if settings.timeout.is_zero() {
            return Err("the realtime speech timeout must be more than zero".to_string());
        }
        let api_key = settings.api_key.filter(|key| !key.is_empty());
        let batch = OpenAiTranscription::new(crate::speech::EngineSettings {
            url: settings.url.trim_end_matches('/').to_string(),
            model: settings.model.clone(),
            api_key: api_key.clone(),
            prompt: settings.prompt,
            interim: Duration::ZERO,
            timeout: settings.timeout,
        });
        Ok(Realtime {
            settings: Arc::new(Settings {
                endpoint,
                model: settings.model,
                api_key,
                timeout: settings.timeout,
                rotate_after: settings.rotate_after,
            }),
            batch,
        })
    }

    /// The same engine with other waits between the batch path's attempts.
    pub fn with_batch_backoff(self, backoff: Vec<Duration>) -> Self {
        Self { batch: self.batch.with_backoff(backoff), ..self }
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
        let stream = Stream::new(Arc::clone(&self.settings), self.batch.clone(), options.vocabulary, events);
        Box::pin(stream.run(audio))
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

/// The `session.update` event that configures a transcription session: Dutch, and the server's
/// turn detection off (threshold 1.0: the product commits each utterance itself). speaches needs
/// `prefix_padding_ms` to take the object at all, and answers it with an error it then ignores.
/// No prompt: speaches' realtime transcription takes none.
fn session_update(settings: &Settings) -> String {
    json!({
        "type": "session.update",
        "session": {
            "input_audio_transcription": {
                "model": settings.model,
                "language": LANGUAGE,
            },
            "turn_detection": {
                "type": "server_vad",
                "threshold": 1.0,
                "prefix_padding_ms": 0,
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
    /// The server's turn detection heard speech stop; it commits the buffer itself next.
    #[serde(rename = "input_audio_buffer.speech_stopped")]
    SpeechStopped,
    /// OpenAI: a piece of text to add to the item's transcript (speaches sends none).
    #[serde(rename = "conversation.item.input_audio_transcription.delta")]
    Delta { item_id: String, delta: String },
    #[serde(rename = "conversation.item.input_audio_transcription.completed")]
    Completed { item_id: String, transcript: String },
    /// OpenAI: one item could not be transcribed; the session goes on.
    #[serde(rename = "conversation.item.input_audio_transcription.failed")]
    Failed { item_id: String },
    #[serde(rename = "error")]
    Error { error: ErrorBody },
    #[serde(other)]
    Other,
}

/// The body of an `error` event. Its message is read only to recognise the two errors speaches
/// sends in the normal course; it is never logged (it may quote input).
#[derive(Debug, Deserialize, PartialEq)]
pub(crate) struct ErrorBody {
    #[serde(rename = "type", default)]
    pub(crate) kind: Option<String>,
    #[serde(default)]
    pub(crate) code: Option<String>,
    #[serde(default)]
    pub(crate) message: Option<String>,
}

impl ErrorBody {
    /// speaches' answer to the `prefix_padding_ms` it needs (`session_event_router.py:50-55`).
    fn is_unsupported_padding(&self) -> bool {
        self.message.as_deref().is_some_and(|m| m.contains("prefix_padding_ms"))
    }

    /// A commit refused because the buffer was empty or under 100 ms
    /// (`input_audio_buffer_event_router.py:124-129`): the server's own commit took the audio.
    fn is_refused_commit(&self) -> bool {
        self.kind.as_deref() == Some("invalid_request_error")
            && self.message.as_deref().is_some_and(|m| m.contains("buffer too small") || m.contains("buffer is empty"))
    }
}

/// Parses one text message of the server.
pub(crate) fn parse_event(text: &str) -> Result<ServerEvent, serde_json::Error> {
    serde_json::from_str(text)
}

/// One item of a realtime session: a committed piece of an utterance.
#[derive(Debug)]
struct Item {
    id: String,
    delta: String,
    text: Option<String>,
}

/// Where an utterance's transcription stands.
#[derive(Debug)]
enum State {
    /// Sent on connection `connection`; `acknowledged` once the server answered its commit.
    Sent { connection: u64, items: Vec<Item>, acknowledged: bool, deadline: Instant },
    /// Being transcribed through the batch endpoint.
    Batch,
    /// The text to report, or why there is none.
    Done(Result<String, SpeechError>),
}

/// One utterance, from the moment the voice-activity detection finished it until its text is
/// reported.
#[derive(Debug)]
struct Utterance {
    audio: Arc<[i16]>,
    state: State,
}

impl Utterance {
    /// The text, once the commit is answered and every item of it is transcribed.
    fn finished_text(&self) -> Option<String> {
        let State::Sent { items, acknowledged: true, .. } = &self.state else {
            return None;
        };
        let texts: Option<Vec<&str>> = items.iter().map(|item| item.text.as_deref().map(str::trim)).collect();
        Some(texts?.into_iter().filter(|text| !text.is_empty()).collect::<Vec<_>>().join(" "))
    }
}

/// The open realtime session.
struct Connection {
    number: u64,
    sink: SplitSink<Socket, Message>,
    stream: SplitStream<Socket>,
    opened: Instant,
    /// The server's turn detection said speech stopped: its next commit is its own.
    server_commit_next: bool,
    /// The session gave at least one transcription.
    delivered: bool,
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

    async fn report(&mut self, result: Result<String, SpeechError>) {
        match result {
            Ok(text) => {
                for sentence in crate::speech::filter::clean(&text) {
                    self.send(SpeechEvent::Completed { sentence, speaker: None }).await;
                }
            }
            Err(error) => self.send(trouble(&error)).await,
        }
    }
}

type BatchResult = (u64, Result<String, SpeechError>);

/// One stream: the voice-activity detection, the utterances waiting for their text in spoken
/// order, the realtime session (when there is one) and the batch requests in flight.
struct Stream {
    settings: Arc<Settings>,
    batch: OpenAiTranscription,
    vocabulary: Arc<[String]>,
    output: Output,
    /// Waiting utterances; the front one has number `first`.
    waiting: VecDeque<Utterance>,
    first: u64,
    connection: Option<Connection>,
    connections: u64,
    /// No reconnection before this moment.
    reconnect_at: Instant,
    backoff: Duration,
    batches: FuturesUnordered<BoxFuture<'static, BatchResult>>,
}

impl Stream {
    fn new(settings: Arc<Settings>, batch: OpenAiTranscription, vocabulary: Vec<String>, events: mpsc::Sender<SpeechEvent>) -> Self {
        Stream {
            settings,
            batch,
            vocabulary: vocabulary.into(),
            output: Output { events, buffer: String::new(), gone: false },
            waiting: VecDeque::new(),
            first: 0,
            connection: None,
            connections: 0,
            reconnect_at: Instant::now(),
            backoff: RECONNECT_BACKOFF_FIRST,
            batches: FuturesUnordered::new(),
        }
    }

    async fn run(mut self, mut audio: mpsc::Receiver<AudioFrame>) -> Result<(), SpeechError> {
        let mut vad = Vad::new();
        let mut open = true;
        self.reconnect().await;
        loop {
            self.report_finished().await;
            if self.output.gone || (!open && self.waiting.is_empty()) {
                break;
            }
            let deadline = self.deadline();
            tokio::select! {
                biased;
                Some((number, result)) = self.batches.next(), if !self.batches.is_empty() => {
                    if let Some(utterance) = self.utterance(number) {
                        utterance.state = State::Done(result);
                    }
                }
                message = next_message(self.connection.as_mut()), if self.connection.is_some() => {
                    self.on_message(message).await;
                }
                () = tokio::time::sleep_until(deadline.unwrap_or_else(Instant::now)), if deadline.is_some() => {
                    tracing::warn!(engine = "realtime", "a realtime transcription did not come in time; the batch path takes over");
                    self.lost_connection().await;
                }
                frame = audio.recv(), if open && self.waiting.len() < MAX_WAITING => {
                    open = frame.is_some();
                    let found = vad.feed(frame.as_deref());
                    for event in found {
                        if let VadEvent::Utterance(samples) = event {
                            self.utterance_ended(samples.into()).await;
                        }
                    }
                }
            }
        }
        if let Some(mut connection) = self.connection.take() {
            close(&self.settings, &mut connection).await;
        }
        tracing::debug!(engine = "realtime", connections = self.connections, "speech stream ended");
        Ok(())
    }

    fn utterance(&mut self, number: u64) -> Option<&mut Utterance> {
        let index = usize::try_from(number.checked_sub(self.first)?).ok()?;
        self.waiting.get_mut(index)
    }

    /// The earliest moment by which a sent utterance's text is overdue.
    fn deadline(&self) -> Option<Instant> {
        self.waiting
            .iter()
            .filter_map(|utterance| match utterance.state {
                State::Sent { deadline, .. } => Some(deadline),
                _ => None,
            })
            .min()
    }

    /// Reports the finished utterances at the front, in order, and the partial text behind them.
    async fn report_finished(&mut self) {
        while let Some(front) = self.waiting.front_mut() {
            if let Some(text) = front.finished_text() {
                front.state = State::Done(Ok(text));
            }
            if !matches!(front.state, State::Done(_)) {
                break;
            }
            let Some(Utterance { state: State::Done(result), .. }) = self.waiting.pop_front() else {
                break;
            };
            self.first += 1;
            self.output.report(result).await;
        }
        let partial: Vec<&str> = self
            .waiting
            .iter()
            .flat_map(|utterance| match &utterance.state {
                State::Sent { items, .. } => items.iter().map(|item| item.text.as_deref().unwrap_or(&item.delta).trim()).collect(),
                _ => Vec::new(),
            })
            .filter(|text| !text.is_empty())
            .collect();
        let partial = partial.join(" ");
        self.output.buffer(partial).await;
    }

    /// A new utterance: through the realtime session when one is open (or can be opened),
    /// otherwise through the batch path.
    async fn utterance_ended(&mut self, audio: Arc<[i16]>) {
        let number = self.first + self.waiting.len() as u64;
        self.waiting.push_back(Utterance { audio: Arc::clone(&audio), state: State::Batch });
        self.renew_if_old().await;
        if self.connection.is_none() && Instant::now() >= self.reconnect_at {
            self.reconnect().await;
        }
        if let Some(connection) = self.connection.as_mut() {
            let number_of_connection = connection.number;
            if send_utterance(connection, &audio).await.is_ok() {
                let deadline = Instant::now() + self.settings.timeout;
                if let Some(utterance) = self.utterance(number) {
                    utterance.state = State::Sent { connection: number_of_connection, items: Vec::new(), acknowledged: false, deadline };
                }
                return;
            }
            // The utterance went nowhere: it takes the batch path with the others.
            self.lost_connection().await;
        }
        self.through_batch(number);
    }

    /// Closes a session past its age between utterances, so the server's limit never ends one
    /// with transcriptions outstanding.
    async fn renew_if_old(&mut self) {
        let Some(connection) = self.connection.as_ref() else {
            return;
        };
        let number = connection.number;
        let busy = self.waiting.iter().any(|u| matches!(u.state, State::Sent { connection, .. } if connection == number));
        if busy || connection.opened.elapsed() < self.settings.rotate_after {
            return;
        }
        if let Some(mut connection) = self.connection.take() {
            tracing::debug!(engine = "realtime", "renewing an old realtime session");
            close(&self.settings, &mut connection).await;
            self.reconnect_at = Instant::now();
        }
    }

    /// Opens a session; on failure the next attempt waits for the backoff.
    async fn reconnect(&mut self) {
        let opened = match connect(&self.settings).await {
            Ok(socket) => socket,
            Err(err) => {
                tracing::warn!(engine = "realtime", error = %err, "realtime speech connection failed; the batch path takes over");
                self.back_off();
                return;
            }
        };
        let (mut sink, stream) = opened.split();
        if sink.send(Message::text(session_update(&self.settings))).await.is_err() {
            self.back_off();
            return;
        }
        self.connections += 1;
        self.connection = Some(Connection {
            number: self.connections,
            sink,
            stream,
            opened: Instant::now(),
            server_commit_next: false,
            delivered: false,
        });
    }

    fn back_off(&mut self) {
        self.reconnect_at = Instant::now() + self.backoff;
        self.backoff = (self.backoff * 2).min(RECONNECT_BACKOFF_MAX);
    }

    /// The session ended, broke or fell silent: what it still owed takes the batch path.
    async fn lost_connection(&mut self) {
        let Some(mut connection) = self.connection.take() else {
            return;
        };
        let number = connection.number;
        let owed: Vec<u64> = (self.first..)
            .zip(self.waiting.iter())
            .filter(|(_, u)| matches!(u.state, State::Sent { connection, .. } if connection == number))
            .map(|(n, _)| n)
            .collect();
        tracing::warn!(engine = "realtime", owed = owed.len(), "realtime speech session ended");
        for number in owed {
            self.through_batch(number);
        }
        if connection.delivered {
            self.backoff = RECONNECT_BACKOFF_FIRST;
            self.reconnect_at = Instant::now();
        } else {
            self.back_off();
        }
        // Whatever state the socket is in, it is not used again.
        let _ = tokio::time::timeout(Duration::from_millis(100), connection.sink.close()).await;
    }

    /// Transcribes utterance `number` through the batch endpoint.
    fn through_batch(&mut self, number: u64) {
        let batch = self.batch.clone();
        let vocabulary = Arc::clone(&self.vocabulary);
        let Some(utterance) = self.utterance(number) else {
            return;
        };
        let audio = Arc::clone(&utterance.audio);
        utterance.state = State::Batch;
        self.batches.push(async move { (number, batch.transcribe(&audio, &vocabulary).await) }.boxed());
    }

    /// The utterance on the current connection that waits for its commit's answer.
    fn unacknowledged(&mut self) -> Option<&mut Utterance> {
        let number = self.connection.as_ref()?.number;
        self.waiting.iter_mut().find(|u| matches!(u.state, State::Sent { connection, acknowledged: false, .. } if connection == number))
    }

    fn item(&mut self, id: &str) -> Option<(u64, &mut Item)> {
        let first = self.first;
        self.waiting.iter_mut().zip(first..).find_map(|(utterance, number)| match &mut utterance.state {
            State::Sent { items, .. } => items.iter_mut().find(|item| item.id == id).map(|item| (number, item)),
            _ => None,
        })
    }

    async fn on_message(&mut self, message: Option<Result<Message, tungstenite::Error>>) {
        let text = match message {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Close(_))) | Some(Err(_)) | None => {
                self.lost_connection().await;
                return;
            }
            Some(Ok(_)) => return,
        };
        let event = match parse_event(text.as_str()) {
            Ok(event) => event,
            Err(err) => {
                tracing::warn!(engine = "realtime", error = %err, bytes = text.len(), "unreadable speech server event");
                return;
            }
        };
        match event {
            ServerEvent::SpeechStopped => {
                if let Some(connection) = self.connection.as_mut() {
                    connection.server_commit_next = true;
                }
            }
            ServerEvent::Committed { item_id } => {
                let server_commit = self.connection.as_mut().is_some_and(|c| std::mem::take(&mut c.server_commit_next));
                match self.unacknowledged() {
                    Some(Utterance { state: State::Sent { items, acknowledged, .. }, .. }) => {
                        items.push(Item { id: item_id, delta: String::new(), text: None });
                        // The server's own commit takes part of the utterance; ours the rest.
                        *acknowledged = !server_commit;
                    }
                    _ => tracing::debug!(engine = "realtime", "the server committed audio that no utterance waits for"),
                }
            }
            ServerEvent::Delta { item_id, delta } => {
                if let Some((_, item)) = self.item(&item_id) {
                    item.delta.push_str(&delta);
                }
            }
            ServerEvent::Completed { item_id, transcript } => {
                if let Some((_, item)) = self.item(&item_id) {
                    item.text = Some(transcript);
                    if let Some(connection) = self.connection.as_mut() {
                        connection.delivered = true;
                    }
                }
            }
            ServerEvent::Failed { item_id } => {
                tracing::warn!(engine = "realtime", "the speech server failed to transcribe an item; the batch path takes over");
                if let Some((number, _)) = self.item(&item_id) {
                    self.through_batch(number);
                }
            }
            ServerEvent::Error { error } => {
                if error.is_unsupported_padding() {
                    return;
                }
                if error.is_refused_commit()
                    && let Some(Utterance { state: State::Sent { acknowledged, .. }, .. }) = self.unacknowledged()
                {
                    *acknowledged = true;
                    return;
                }
                // speaches ends the session after this; OpenAI follows with `failed`. Either way
                // what is owed goes through the batch path.
                tracing::warn!(
                    engine = "realtime",
                    kind = error.kind.as_deref().unwrap_or("-"),
                    code = error.code.as_deref().unwrap_or("-"),
                    "speech server reported an error"
                );
            }
            ServerEvent::Other => {}
        }
    }
}

/// The next message of the session's socket.
async fn next_message(connection: Option<&mut Connection>) -> Option<Result<Message, tungstenite::Error>> {
    match connection {
        Some(connection) => connection.stream.next().await,
        None => std::future::pending().await,
    }
}

/// Sends one utterance: its audio at 24 kHz in appends of at most a second, then the commit.
async fn send_utterance(connection: &mut Connection, audio: &[i16]) -> Result<(), tungstenite::Error> {
    let samples = Upsampler::default().process(audio);
    for chunk in samples.chunks(APPEND_SAMPLES) {
        connection.sink.feed(Message::text(append_event(chunk))).await?;
    }
    connection.sink.send(Message::text(commit_event())).await
}

/// Closes a session cleanly: our close frame, then the server's answer, bounded by the timeout.
async fn close(settings: &Settings, connection: &mut Connection) {
    let _ = connection.sink.send(Message::Close(None)).await;
    let _ = tokio::time::timeout(settings.timeout, async { while let Some(Ok(_)) = connection.stream.next().await {} }).await;
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
        // speaches has no partial_transcription event: it is one the engine does not act on.
        assert_eq!(
            parse_event(
                r#"{"type":"input_audio_buffer.partial_transcription","event_id":"e3","item_id":"item_1","transcript":"Goede mor"}"#
            )
            .ok(),
            Some(ServerEvent::Other)
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
            Some(ServerEvent::Other)
        );
        assert_eq!(
            parse_event(r#"{"type":"input_audio_buffer.speech_stopped","event_id":"e7","item_id":"item_3","audio_end_ms":900}"#).ok(),
            Some(ServerEvent::SpeechStopped)
        );
        let refused = r#"{"type":"error","event_id":"e8","error":{"type":"invalid_request_error","code":null,"message":"Error committing input audio buffer: buffer too small. Expected at least 100ms of audio, but buffer only has 40.00ms of audio.","param":null,"event_id":null}}"#;
        let Ok(ServerEvent::Error { error }) = parse_event(refused) else { panic!("not an error event") };
        assert_eq!(error.kind.as_deref(), Some("invalid_request_error"));
        assert!(error.is_refused_commit() && !error.is_unsupported_padding());
        // speaches' answer to the turn detection it needs (session_event_router.py:35-41).
        let padding = r#"{"type":"error","event_id":"e9","error":{"type":"invalid_request_error","code":null,"message":"Specifying `session.turn_detection.prefix_padding_ms` is not supported. The server either does not support this field or it is not configurable.","param":null,"event_id":null}}"#;
        let Ok(ServerEvent::Error { error }) = parse_event(padding) else { panic!("not an error event") };
        assert!(error.is_unsupported_padding() && !error.is_refused_commit());
        let failed = r#"{"type":"error","event_id":"e10","error":{"type":"server_error","code":null,"message":"Internal Server Error","param":null,"event_id":null}}"#;
        let Ok(ServerEvent::Error { error }) = parse_event(failed) else { panic!("not an error event") };
        assert!(!error.is_unsupported_padding() && !error.is_refused_commit());
        assert_eq!(parse_event(r#"{"type":"session.updated","event_id":"e9","session":{"id":"s"}}"#).ok(), Some(ServerEvent::Other));
        assert!(parse_event(r#"{"type":"conversation.item.input_audio_transcription.completed"}"#).is_err());
        assert!(parse_event("not json").is_err());
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
            rotate_after: DEFAULT_ROTATE_AFTER,
        };
        assert!(Realtime::new(settings.clone()).is_err());
        assert!(Realtime::new(RealtimeSettings { timeout: Duration::from_secs(5), ..settings }).is_ok());
    }

    #[test]
    fn the_session_turns_the_servers_turn_detection_off_in_a_shape_speaches_takes() {
        let engine = Realtime::new(RealtimeSettings {
            url: "http://localhost:8000".into(),
            model: "m".into(),
            api_key: None,
            prompt: "Een consult.".into(),
            timeout: Duration::from_secs(5),
            rotate_after: DEFAULT_ROTATE_AFTER,
        })
        .unwrap();
        let update: serde_json::Value = serde_json::from_str(&session_update(&engine.settings)).unwrap();
        let detection = &update["session"]["turn_detection"];
        // speaches' TurnDetection requires all four (types/realtime.py:229-234).
        for field in ["create_response", "prefix_padding_ms", "silence_duration_ms", "threshold"] {
            assert!(!detection[field].is_null(), "{field} missing");
        }
        assert_eq!(detection["threshold"], 1.0);
        assert_eq!(update["session"]["input_audio_transcription"]["language"], "nl");
        assert!(update["session"]["input_audio_transcription"].get("prompt").is_none());
    }
}
