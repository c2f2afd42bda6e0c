//! The live consult websocket: `/ws/speech/{service}/{sessionId}?model=multilingual|radiology`.
//!
//! The browser authenticates with the subprotocols `speech.v1` and `bearer.<access token>`
//! (browsers cannot set headers on a websocket; the server answers with `speech.v1`); other
//! clients may send an `Authorization: Bearer` header instead. A refused socket is accepted and
//! closed at once with a close code and a Dutch reason, so the browser can tell why:
//!
//! | code | when |
//! |---|---|
//! | 4400 | unknown `model` or malformed `service` |
//! | 4401 | no token, or a bad or expired one |
//! | 4403 | the user has not accepted the user agreement |
//! | 4404 | no such session, or another user's |
//! | 4409 | the session was opened on another socket |
//! | 4410 | the session has expired |
//! | 1009 | a message over 1 MiB |
//! | 1011 | the server failed |
//! | 1013 | busy: try again later; an `error` with code `busy` and `retryAfter` (seconds) comes first |
//!
//! Client → server: binary PCM16 little-endian 16 kHz mono frames, and JSON text messages
//! `{"type":"summarize","request":{...}}` and `{"type":"ping"}`. Server → client: `ready`,
//! `transcript`, `summarization`, `job`, `error` and `pong` (see [`Outgoing`]). Unreadable JSON or
//! an unknown type gets an `error` and the socket stays open.
//!
//! A socket first takes one of the process's places for live sockets (`APP_SPEECH_MAX_SESSIONS`);
//! when all are taken it is refused as busy (1013), so that it reconnects, perhaps on another
//! replica. It then joins its session before it is ready: the join is written in a batch with
//! the other sockets' joins and leaves ([`super::presence`]), and the socket waits for that batch.
//! When too many wait, or the batch is not written within its wait, or the database has no
//! connection for the user's vocabulary, or Redis does not answer in time for the socket's
//! announcement or the transcript so far, the socket is refused as busy (1013) with a retry delay,
//! which the page honours with jitter, rather than starting half. A finished sentence that Redis
//! does not take at once is tried again (see [`super::transcripts`]); the socket reads no more
//! audio meanwhile.
//!
//! Back-pressure: at most [`AUDIO_QUEUE`] frames wait for the engine; while they do, the socket
//! is not read, so a slow engine slows the sender (which keeps its audio) instead of growing
//! memory here. The transcript lives in Redis; when the socket goes, the engine finishes what it
//! heard and its sentences are still stored, and the session can be resumed within the grace.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::http::header::{AUTHORIZATION, SEC_WEBSOCKET_PROTOCOL};
use axum::response::Response;
use domain::consults::{self, Session};
use domain::jobs::JobState;
use domain::summary::{ConsultResult, Template};
use futures::stream::SplitSink;
use futures::{SinkExt, StreamExt};
use integrations::speech::{AudioFrame, AudioModel, SpeechEvent, StreamOptions};
use jobs::live::{self, LiveEvent};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use tracing::Instrument;
use utoipa::ToSchema;

use crate::auth::{CurrentUser, bearer_token};
use crate::consult::live::SessionSlot;
use crate::consult::presence::{Busy, Joined, Membership};
use crate::consult::summaries::{self, SummarizeRequest};
use crate::consult::transcripts::Line;
use crate::error::ApiError;
use crate::state::AppState;

pub const PROTOCOL: &str = "speech.v1";
const BEARER: &str = "bearer.";
/// The largest message a client may send: about 32 s of audio.
pub const MAX_MESSAGE: usize = 1 << 20;
/// The socket's read buffer: two browser frames.
const READ_BUFFER: usize = 32 * 1024;
/// Frames waiting for the engine (4 s of audio at one frame per 500 ms).
pub const AUDIO_QUEUE: usize = 8;
pub(super) const EVENT_QUEUE: usize = 64;
/// A client that does not take a message within this time is dropped.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);

pub const NO_ENGINE: &str = "Er is geen spraakherkenning ingesteld. Typ of plak het gesprek in het tekstveld en druk op Samenvatten.";

/// Why a socket is closed at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refusal {
    pub code: u16,
    pub reason: &'static str,
    /// Busy: seconds after which to try again, told in an `error` message before the close.
    pub retry_after: Option<u64>,
}

impl Refusal {
    const fn new(code: u16, reason: &'static str) -> Self {
        Self { code, reason, retry_after: None }
    }
}

const BAD_REQUEST: Refusal = Refusal::new(4400, "Ongeldig verzoek.");
const UNAUTHENTICATED: Refusal = Refusal::new(4401, "Niet ingelogd of de inlog is verlopen.");
const AGREEMENT: Refusal = Refusal::new(4403, crate::auth::AGREEMENT_REQUIRED);
const NOT_FOUND: Refusal = Refusal::new(4404, "Deze sessie bestaat niet.");
const TAKEN_OVER: Refusal = Refusal::new(4409, "Deze sessie is op een andere plek geopend.");
pub(super) const EXPIRED: Refusal = Refusal::new(4410, "Deze sessie is verlopen. Start een nieuwe opname.");
const INTERNAL: Refusal = Refusal::new(1011, "Er ging iets mis aan onze kant.");
/// The close code of a socket refused because the server is busy (RFC 6455: Try Again Later).
pub const BUSY_CODE: u16 = 1013;

/// The server is busy: try again after `retry_after` seconds.
pub fn busy(retry_after: u64) -> Refusal {
    Refusal { code: BUSY_CODE, reason: "Het is even te druk. Probeer het zo opnieuw.", retry_after: Some(retry_after.max(1)) }
}

/// The `error` message before a busy refusal's close.
fn busy_message(retry_after: u64) -> String {
    let unit = if retry_after == 1 { "seconde" } else { "seconden" };
    format!("Het is even te druk op de server. Over {retry_after} {unit} wordt opnieuw verbonden.")
}

/// What the server sends, each a JSON text message tagged by `type` (in the document:
/// `SpeechServerMessage`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
#[schema(as = SpeechServerMessage)]
pub enum Outgoing<'a> {
    #[serde(rename_all = "camelCase")]
    Ready {
        session_id: &'a str,
        consult_id: &'a str,
        model: AudioModel,
        /// The engine's name; `null` when none is configured (type the transcript).
        #[schema(required = true)]
        engine: Option<&'static str>,
        /// True when the session already has sentences (a reconnect).
        resumed: bool,
    },
    Transcript {
        buffer: &'a str,
        completed: &'a [Line],
    },
    /// The note of a summary the socket asked for.
    #[serde(rename_all = "camelCase")]
    Summarization {
        template: Template,
        result: &'a ConsultResult,
        job_id: &'a str,
        summary_id: &'a str,
    },
    /// A summary's job: `queued` answers a `summarize` (in order), the others come as the worker
    /// commits them.
    Job {
        id: &'a str,
        state: JobState,
        /// Dutch, fit to show (retrying, failed, dead).
        #[serde(skip_serializing_if = "Option::is_none")]
        message: Option<&'a str>,
    },
    #[serde(rename_all = "camelCase")]
    Error {
        code: &'a str,
        message: &'a str,
        /// With code `busy`, before the socket is closed with 1013: seconds after which to
        /// connect again (the page adds up to as much again at random).
        #[serde(skip_serializing_if = "Option::is_none")]
        retry_after: Option<u64>,
    },
    Pong,
}

/// What the client sends as text, tagged by `type` (audio goes as binary frames: PCM16
/// little-endian, 16 kHz, mono). In the document: `SpeechClientMessage`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum SpeechClientMessage {
    /// Make a note of the transcript so far (or of the typed `request.transcript`).
    Summarize {
        #[serde(default)]
        #[schema(required = false)]
        request: SummarizeRequest,
    },
    /// Answered with `pong`: keeps the socket alive and tells the client it still hears.
    Ping,
}

pub(super) async fn upgrade(
    State(state): State<AppState>,
    Path((service, session_id)): Path<(String, String)>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    let admitted = admit(&state, &service, &session_id, query.get("model").map(String::as_str), token_of(&headers)).await;
    ws.protocols([PROTOCOL])
        // frames are 16 kB; the default 128 kB read buffer per socket would be most of its memory
        .read_buffer_size(READ_BUFFER)
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_failed_upgrade(|e| tracing::debug!(error = %e, "websocket upgrade failed"))
        .on_upgrade(move |socket| async move {
            match admitted {
                Ok(admitted) => {
                    // the socket's task and the engine and drain tasks it spawns log within it
                    let span = tracing::info_span!("live.socket", session.id = %admitted.session.id, user.id = %admitted.user.id);
                    Connection::run(socket, state, admitted).instrument(span).await
                }
                Err(refusal) => refuse(socket, refusal).await,
            }
        })
}

/// The `model` query parameter: multilingual (also `generic`, and the default) or radiology.
pub(super) fn audio_model(model: Option<&str>) -> Option<AudioModel> {
    match model {
        None | Some("multilingual" | "generic") => Some(AudioModel::Multilingual),
        Some("radiology") => Some(AudioModel::Radiology),
        Some(_) => None,
    }
}

/// The token from the `bearer.` subprotocol, or else the `Authorization` header.
fn token_of(headers: &HeaderMap) -> Option<String> {
    let from_protocol = headers
        .get_all(SEC_WEBSOCKET_PROTOCOL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .find_map(|p| p.strip_prefix(BEARER))
        .filter(|t| !t.is_empty());
    from_protocol.or_else(|| headers.get(AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(bearer_token)).map(str::to_owned)
}

pub struct Admitted {
    user: CurrentUser,
    session: Session,
    model: AudioModel,
    /// The words the engine is to expect.
    vocabulary: Vec<String>,
    /// The session's join, written; the socket leaves through it.
    membership: Membership,
    /// The socket's place in this process, held until it is gone.
    place: tokio::sync::OwnedSemaphorePermit,
}

async fn admit(state: &AppState, service: &str, session_id: &str, model: Option<&str>, token: Option<String>) -> Result<Admitted, Refusal> {
    let token = token.ok_or(UNAUTHENTICATED)?;
    let user = CurrentUser::from_token(state, &token).await.map_err(|e| match e {
        ApiError::Unauthorized(_) => UNAUTHENTICATED,
        ApiError::AgreementRequired => AGREEMENT,
        ApiError::Overloaded => busy(crate::error::OVERLOADED_RETRY_AFTER),
        _ => INTERNAL,
    })?;
    if service.is_empty() || service.len() > 40 || !service.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
        return Err(BAD_REQUEST);
    }
    let model = audio_model(model).ok_or(BAD_REQUEST)?;
    // A place in this process before anything is read or written for the socket.
    let place = state.consult.places.take().ok_or_else(|| {
        tracing::warn!("every live place of this process is taken: the socket is told to try again");
        busy(crate::consult::service::FULL_RETRY_AFTER)
    })?;
    // The words to expect, read once a minute per user; without them the socket does not start.
    let vocabulary = match state.consult.speech.get(model) {
        Some(_) => match state.consult.vocabularies.of(&user.id).await {
            Ok(words) => words.to_vec(),
            Err(e) => {
                tracing::warn!(error = %e, "the user's vocabulary could not be read; the socket is told to try again");
                return Err(busy(crate::error::OVERLOADED_RETRY_AFTER));
            }
        },
        None => Vec::new(),
    };
    match state.consult.presence.join(session_id, &user.id).await {
        Ok(Joined::Session(session, membership)) => Ok(Admitted { user, session, model, vocabulary, membership, place }),
        Ok(Joined::NotFound) => Err(NOT_FOUND),
        Ok(Joined::Expired) => Err(EXPIRED),
        Err(Busy { retry_after }) => Err(busy(retry_after)),
    }
}

/// Counts a refusal by its code.
fn counted(refusal: Refusal) -> Refusal {
    metrics::counter!("speech_refused_total", "code" => refusal.code.to_string()).increment(1);
    refusal
}

async fn refuse(socket: WebSocket, refusal: Refusal) {
    let refusal = counted(refusal);
    let (mut sink, _) = socket.split();
    say_goodbye(&mut sink, refusal).await;
}

/// Closes the socket with the refusal's code and reason; a busy refusal first sends its
/// `error` message with the retry delay.
async fn say_goodbye(sink: &mut Sink, refusal: Refusal) {
    if let Some(retry_after) = refusal.retry_after {
        let message = busy_message(retry_after);
        let _ = send_on(sink, &Outgoing::Error { code: "busy", message: &message, retry_after: Some(retry_after) }).await;
    }
    let _ = sink.send(close(refusal)).await;
}

fn close(refusal: Refusal) -> Message {
    Message::Close(Some(CloseFrame { code: refusal.code, reason: Utf8Bytes::from_static(refusal.reason) }))
}

type Sink = SplitSink<WebSocket, Message>;

/// Sends a message, giving up on a client that does not take it within [`SEND_TIMEOUT`].
async fn send_on(sink: &mut Sink, message: &Outgoing<'_>) -> Result<(), ()> {
    let text = serde_json::to_string(message).map_err(|_| ())?;
    match tokio::time::timeout(SEND_TIMEOUT, sink.send(Message::Text(text.into()))).await {
        Ok(Ok(())) => Ok(()),
        _ => Err(()),
    }
}

/// One open socket.
struct Connection {
    state: AppState,
    user: CurrentUser,
    session: Session,
    sink: Sink,
    conn: redis::aio::ConnectionManager,
    /// The words of the utterance in progress.
    buffer: String,
}

/// Why the loop ended.
enum End {
    /// The client closed or went away.
    Gone,
    Refused(Refusal),
}

impl Connection {
    async fn run(socket: WebSocket, state: AppState, admitted: Admitted) {
        let _task = state.consult.tasks.enter("socket");
        metrics::counter!("speech_sessions_total").increment(1);
        // the place is held until the socket is gone
        let Admitted { user, session, model, vocabulary, membership, place: _place } = admitted;
        let (mut sink, mut stream) = socket.split();
        let conn = match state.jobs.connection().await {
            Ok(conn) => conn,
            Err(e) => {
                // Redis away or too slow to connect: the page tries again after the delay
                tracing::warn!(error = %e, "no Redis for a live session: refused as busy");
                say_goodbye(&mut sink, counted(busy(crate::error::OVERLOADED_RETRY_AFTER))).await;
                membership.leave().await;
                return;
            }
        };
        let connection_id = consults::new_id();
        let mut slot = state.consult.live.join(&session.id, &connection_id);
        let mut this = Connection { state: state.clone(), user, session, sink, conn, buffer: String::new() };
        let end = this.serve(&mut stream, &mut slot, model, vocabulary, &connection_id).await;
        drop(slot);
        if let End::Refused(refusal) = end {
            say_goodbye(&mut this.sink, refusal).await;
        }
        let _ = this.sink.close().await;
        if matches!(end, End::Refused(TAKEN_OVER)) {
            // the session lives on in the socket that took it over, here or on another replica
            drop(membership);
            return;
        }
        // written in a batch, and again until it is
        membership.leave().await;
        let grace = this.state.consult.config.resume_grace;
        if let Err(e) = this.state.consult.transcripts.keep_for(&mut this.conn, &this.session.id, grace).await {
            tracing::warn!(error = %e, "cannot shorten the transcript's life");
        }
    }

    async fn serve(
        &mut self,
        stream: &mut futures::stream::SplitStream<WebSocket>,
        slot: &mut SessionSlot,
        model: AudioModel,
        vocabulary: Vec<String>,
        connection_id: &str,
    ) -> End {
        let state = self.state.clone();
        let takeover = LiveEvent::Takeover { session_id: self.session.id.clone(), connection: connection_id.to_owned() };
        // Another socket of the session, here or on another replica, is closed first: two
        // sockets would write one transcript. Then the transcript so far. Where Redis is slow or
        // away, nothing is started and the page tries again after the delay.
        let read = async {
            live::publish(&mut self.conn, &state.jobs.config().namespace, &takeover).await?;
            state.consult.transcripts.all(&mut self.conn, &self.session.id).await
        };
        let lines = match read.await {
            Ok(lines) => lines,
            Err(e) if crate::consult::transcripts::passing(&e) => {
                tracing::warn!(error = %e, "the socket could not be announced or its transcript read yet: refused as busy");
                return End::Refused(counted(busy(crate::error::OVERLOADED_RETRY_AFTER)));
            }
            Err(e) => {
                tracing::error!(error = %e, "cannot announce the socket or read its transcript");
                return End::Refused(INTERNAL);
            }
        };
        let engine = state.consult.speech.get(model);
        let ready = Outgoing::Ready {
            session_id: &self.session.id,
            consult_id: &self.session.consult_id,
            model,
            engine: engine.as_ref().map(|e| e.name()),
            resumed: !lines.is_empty(),
        };
        if send_on(&mut self.sink, &ready).await.is_err() {
            return End::Gone;
        }
        if !lines.is_empty() && self.send(&Outgoing::Transcript { buffer: "", completed: &lines }).await.is_err() {
            return End::Gone;
        }
        if engine.is_none() && self.send(&Outgoing::Error { code: "no_engine", message: NO_ENGINE, retry_after: None }).await.is_err() {
            return End::Gone;
        }

        // The engine's stream, fed through a bounded queue.
        let (event_tx, mut events) = mpsc::channel::<SpeechEvent>(EVENT_QUEUE);
        let (mut audio, mut engine_failed) = match &engine {
            Some(engine) => {
                let (audio_tx, audio_rx) = mpsc::channel::<AudioFrame>(AUDIO_QUEUE);
                let (failed_tx, failed_rx) = oneshot::channel();
                let guard = state.consult.tasks.enter("engine");
                let run = engine.run(StreamOptions { model, vocabulary }, audio_rx, event_tx);
                tokio::spawn(
                    async move {
                        let _guard = guard;
                        if let Err(e) = run.await {
                            let _ = failed_tx.send(e);
                        }
                    }
                    .in_current_span(),
                );
                (Some(audio_tx), failed_rx)
            }
            None => {
                drop(event_tx);
                (None, oneshot::channel().1)
            }
        };
        let mut watch_engine = engine.is_some();
        let mut pending: Option<(AudioFrame, Instant)> = None;
        let mut engine_open = engine.is_some();

        let end = loop {
            let feed = audio.clone();
            tokio::select! {
                biased;
                event = slot.events.recv() => {
                    let gone = match event {
                        Some(LiveEvent::Takeover { .. }) => break End::Refused(TAKEN_OVER),
                        Some(event) => self.summary_event(event).await.is_err(),
                        None => false,
                    };
                    if gone { break End::Gone }
                },
                failed = &mut engine_failed, if watch_engine => {
                    watch_engine = false;
                    if let Ok(e) = failed {
                        tracing::warn!(error = %e, "speech engine stream failed");
                        audio = None;
                        pending = None;
                        let message = "De spraakherkenning is niet bereikbaar. Typ of plak het gesprek en druk op Samenvatten.";
                        if self.send(&Outgoing::Error { code: "engine_unavailable", message, retry_after: None }).await.is_err() { break End::Gone }
                    }
                },
                event = events.recv(), if engine_open => {
                    let gone = match event {
                        Some(event) => self.engine_event(event, state.consult.config.session_ttl).await.is_err(),
                        None => {
                            engine_open = false;
                            false
                        }
                    };
                    if gone { break End::Gone }
                },
                permit = async { feed.as_ref().expect("guarded").reserve().await }, if pending.is_some() && feed.is_some() => {
                    let (frame, received) = pending.take().expect("guarded");
                    match permit {
                        Ok(permit) => {
                            permit.send(frame);
                            metrics::histogram!("speech_frame_seconds").record(received.elapsed().as_secs_f64());
                        }
                        Err(_) => audio = None,
                    }
                },
                message = stream.next(), if pending.is_none() => match message {
                    Some(Ok(Message::Binary(bytes))) => {
                        let received = Instant::now();
                        if audio.is_none() {
                            continue;
                        }
                        if bytes.len() % 2 != 0 {
                            let message = "Ongeldig geluidsfragment: verwacht 16-bit PCM.";
                            if self.send(&Outgoing::Error { code: "bad_audio", message, retry_after: None }).await.is_err() { break End::Gone }
                            continue;
                        }
                        let frame: AudioFrame = bytes.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
                        // 16 samples a millisecond
                        metrics::counter!("speech_audio_milliseconds_total").increment(frame.len() as u64 / 16);
                        pending = Some((frame, received));
                    }
                    Some(Ok(Message::Text(text))) => if self.client_message(text.as_str()).await.is_err() { break End::Gone },
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                    Some(Ok(Message::Close(_))) | None => break End::Gone,
                    Some(Err(e)) => {
                        // tungstenite's capacity error ("Space limit exceeded: Message too long")
                        let too_big = e.to_string().contains("Space limit exceeded");
                        break if too_big { End::Refused(Refusal::new(1009, "Bericht te groot.")) } else { End::Gone };
                    }
                },
            }
        };

        // The engine finishes what it heard, the frame still waiting for it included; its last
        // sentences are still kept.
        if let (Some((frame, _)), Some(audio)) = (pending.take(), &audio)
            && tokio::time::timeout(SEND_TIMEOUT, audio.send(frame)).await.is_err()
        {
            tracing::warn!("the engine did not take the socket's last frame");
        }
        drop(audio);
        if engine_open {
            let guard = state.consult.tasks.enter("drain");
            let transcripts = state.consult.transcripts.clone();
            let mut conn = self.conn.clone();
            let session_id = self.session.id.clone();
            let keep = state.consult.config.resume_grace;
            tokio::spawn(
                async move {
                    let _guard = guard;
                    while let Some(event) = events.recv().await {
                        if let SpeechEvent::Completed { sentence, speaker } = event
                            && let Err(e) = transcripts.append(&mut conn, &session_id, &sentence, speaker, keep).await
                        {
                            tracing::warn!(error = %e, "a last sentence could not be kept");
                        }
                    }
                }
                .in_current_span(),
            );
        }
        end
    }

    async fn send(&mut self, message: &Outgoing<'_>) -> Result<(), ()> {
        send_on(&mut self.sink, message).await
    }

    async fn engine_event(&mut self, event: SpeechEvent, ttl: Duration) -> Result<(), ()> {
        match event {
            SpeechEvent::Buffer(buffer) => {
                self.buffer = buffer;
                send_on(&mut self.sink, &Outgoing::Transcript { buffer: &self.buffer, completed: &[] }).await
            }
            SpeechEvent::Completed { sentence, speaker } => {
                let line = match self.state.consult.transcripts.append(&mut self.conn, &self.session.id, &sentence, speaker, ttl).await {
                    Ok(line) => line,
                    Err(e) => {
                        tracing::error!(error = %e, "a sentence could not be kept");
                        let message = "Een zin kon niet worden bewaard. Controleer het transcript.";
                        return self.send(&Outgoing::Error { code: "store_failed", message, retry_after: None }).await;
                    }
                };
                let message = Outgoing::Transcript { buffer: &self.buffer, completed: std::slice::from_ref(&line) };
                send_on(&mut self.sink, &message).await
            }
            SpeechEvent::Trouble { code, message } => self.send(&Outgoing::Error { code, message: &message, retry_after: None }).await,
        }
    }

    async fn summary_event(&mut self, event: LiveEvent) -> Result<(), ()> {
        let LiveEvent::Summary { summary_id, job_id, state, template, result, message, .. } = event else {
            return Ok(());
        };
        if let Some(result) = &result {
            let message = Outgoing::Summarization { template, result, job_id: &job_id, summary_id: &summary_id };
            self.send(&message).await?;
        }
        self.send(&Outgoing::Job { id: &job_id, state, message: message.as_deref() }).await
    }

    async fn client_message(&mut self, text: &str) -> Result<(), ()> {
        // The same refusal as the HTTP edge's: PostgreSQL's text and jsonb take no NUL.
        if crate::edge::json_contains_nul(text.as_bytes()) {
            let message = "Het bericht bevat een ongeldig teken (NUL).";
            return self.send(&Outgoing::Error { code: "invalid_character", message, retry_after: None }).await;
        }
        let Ok(value) = serde_json::from_str::<Value>(text) else {
            return self
                .send(&Outgoing::Error { code: "invalid_message", message: "Dit bericht is geen geldige JSON.", retry_after: None })
                .await;
        };
        let known = matches!(value.get("type").and_then(Value::as_str), Some("summarize" | "ping"));
        match serde_json::from_value::<SpeechClientMessage>(value) {
            Ok(SpeechClientMessage::Summarize { request }) => self.summarize(request).await,
            Ok(SpeechClientMessage::Ping) => self.send(&Outgoing::Pong).await,
            Err(e) if known => {
                tracing::debug!(error = %e, "unreadable summarize request");
                let message = "Het verzoek om samen te vatten is onleesbaar.";
                self.send(&Outgoing::Error { code: "invalid_message", message, retry_after: None }).await
            }
            Err(_) => self.send(&Outgoing::Error { code: "unknown_type", message: "Onbekend soort bericht.", retry_after: None }).await,
        }
    }

    async fn summarize(&mut self, request: SummarizeRequest) -> Result<(), ()> {
        // The summary calls' limit, counted together with the HTTP calls.
        let subject = crate::edge::limit::Subject::User(self.user.id.clone());
        if let Err(ApiError::TooManyRequests { retry_after, .. }) =
            crate::edge::limit::check(&self.state, crate::edge::limit::LimitName::Summary, &subject).await
        {
            let message = crate::error::too_many_requests_message(retry_after);
            return self.send(&Outgoing::Error { code: "too_many_requests", message: &message, retry_after: None }).await;
        }
        let transcript = match request.transcript.as_deref().filter(|t| !t.trim().is_empty()) {
            Some(typed) => summaries::typed_lines(typed),
            None => match self.state.consult.transcripts.all(&mut self.conn, &self.session.id).await {
                Ok(lines) => lines.into_iter().map(Line::told).collect(),
                Err(e) => {
                    tracing::error!(error = %e, "cannot read the transcript");
                    let message = "Het transcript kon niet worden gelezen. Probeer het opnieuw.";
                    return self.send(&Outgoing::Error { code: "internal", message, retry_after: None }).await;
                }
            },
        };
        let request = request.options.into_request(transcript);
        let started =
            summaries::start(&self.state.consult, &self.user.id, Some(&self.session.consult_id), Some(&self.session.id), "ws", &request)
                .await;
        match started {
            Ok(started) => {
                // The socket hears the outcome through its session's slot.
                drop(started.wait);
                self.send(&Outgoing::Job { id: &started.job_id.to_string(), state: JobState::Queued, message: None }).await
            }
            Err(ApiError::BadRequest { code, message }) => self.send(&Outgoing::Error { code, message: &message, retry_after: None }).await,
            Err(e) => {
                tracing::error!(error = %e, "cannot start a summary");
                let message = "De samenvatting kon niet worden gestart. Probeer het opnieuw.";
                self.send(&Outgoing::Error { code: "internal", message, retry_after: None }).await
            }
        }
    }
}
