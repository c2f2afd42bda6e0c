//! A double of speaches as it ships, for the product's speech tests: `/v1/realtime` and
//! `/v1/audio/transcriptions` on loopback, with Whisper stood in for by a function the test
//! gives.
//!
//! Each behaviour is written from speaches at `870e1e1` (2026-03-26, the source of its
//! `latest-cpu` image; files under `src/speaches/`), and named where it is built:
//!
//! - the session starts with turn detection on at threshold 0.9, 550 ms (`realtime/session.py:62-68`);
//! - `session.update`: a `turn_detection` without all four of its fields validates as "not
//!   given" and is dropped without a word (`types/realtime.py:74-78`, `:229-234`, `:313`); with
//!   `prefix_padding_ms` the server answers an `error` about that field and applies the rest
//!   (`realtime/session_event_router.py:50-68`); `null` is refused whole as an invalid event
//!   (`realtime/message_manager.py:116-123`); `input_audio_transcription` keeps only `model` and
//!   `language`, so a prompt is dropped (`types/realtime.py:237-240`);
//! - the server's turn detection runs on every append over the last 3 s
//!   (`realtime/input_audio_buffer_event_router.py:46-117`; silero is stood in for by the level
//!   of 32 ms windows); its `speech_stopped` makes a new buffer and commits the old one
//!   (`:153-162`);
//! - a commit under 100 ms is refused with an `invalid_request_error` (`:120-138`); a commit
//!   while the turn detection heard speech start and not stop trips `assert audio_end_ms is not
//!   None` (`realtime/input_audio_buffer.py:80-87`) and the session dies (speaches#567);
//! - a transcription that fails publishes `error` and then kills the session, because the task
//!   is awaited again after the `except` (`input_audio_buffer_event_router.py:178-188`); with
//!   `LOOPBACK_HOST_URL` unset every transcription fails this way (`dependencies.py:178-200`,
//!   speaches#559);
//! - no delta and no partial event is ever sent (`types/realtime.py` `SERVER_EVENT_TYPES`);
//! - every session ends 30 minutes after it was accepted (`realtime/session.py:9`,
//!   `routers/realtime_ws.py:103`); a test on a faster clock divides [`Double::limit`].

#![allow(dead_code)] // each test binary uses part of it

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use base64::Engine as _;
use integrations::speech::wav;
use serde_json::{Value, json};

/// speaches' session limit (`realtime/session.py:9`).
pub const SESSION_LIMIT: Duration = Duration::from_secs(30 * 60);

/// The model: the text a clip of 16 kHz audio holds, or none.
pub type Recognise = Arc<dyn Fn(&[i16]) -> Option<String> + Send + Sync>;

/// How the double is set up, and what it saw.
pub struct Double {
    /// Stands in for Whisper.
    pub recognise: Recognise,
    /// The session limit on the test's clock (speaches: 30 minutes).
    pub limit: Duration,
    /// The transcription of this text fails once, over the realtime socket.
    pub fail_text: Option<String>,
    /// Every realtime transcription fails (speaches without `LOOPBACK_HOST_URL`).
    pub loopback_broken: bool,
    pub failed_once: bool,
    pub sessions: usize,
    /// How sessions ended, by cause.
    pub ended: HashMap<&'static str, usize>,
    /// Texts transcribed over the socket and through the batch endpoint.
    pub realtime: Vec<String>,
    pub batch: Vec<String>,
    /// The prompt of each batch request.
    pub prompts: Vec<String>,
    /// Every event the double sent, by type.
    pub sent: HashMap<String, usize>,
    /// What the client sent that speaches would not take.
    pub violations: Vec<String>,
}

impl Double {
    pub fn new(recognise: Recognise) -> Self {
        Double {
            recognise,
            limit: SESSION_LIMIT,
            fail_text: None,
            loopback_broken: false,
            failed_once: false,
            sessions: 0,
            ended: HashMap::new(),
            realtime: Vec::new(),
            batch: Vec::new(),
            prompts: Vec::new(),
            sent: HashMap::new(),
            violations: Vec::new(),
        }
    }
}

pub type Shared = Arc<Mutex<Double>>;

/// Serves the double on a free loopback port; returns its base URL.
pub async fn start(double: Double) -> (String, Shared) {
    let double = Arc::new(Mutex::new(double));
    let app = Router::new()
        .route("/v1/realtime", get(upgrade))
        .route("/v1/audio/transcriptions", post(transcriptions))
        .with_state(Arc::clone(&double));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{address}"), double)
}

/// One field of a multipart form, read plainly (the product sends a WAV file and text fields).
fn form_field<'a>(body: &'a [u8], name: &str) -> Option<&'a [u8]> {
    let marker = format!("name=\"{name}\"");
    let at = body.windows(marker.len()).position(|w| w == marker.as_bytes())?;
    let start = at + body[at..].windows(4).position(|w| w == b"\r\n\r\n")? + 4;
    let end = start + body[start..].windows(4).position(|w| w == b"\r\n--")?;
    Some(&body[start..end])
}

/// `routers/stt.py:120-142`: a multipart form; the answer `{"text": ...}`.
pub async fn transcriptions(State(double): State<Shared>, body: Bytes) -> Response {
    let Some(audio) = form_field(&body, "file").and_then(|file| wav::parse(file).ok()) else {
        // `dependencies.py:85-102`: undecodable audio.
        return (StatusCode::UNSUPPORTED_MEDIA_TYPE, axum::Json(json!({"detail": "bad audio"}))).into_response();
    };
    let prompt = form_field(&body, "prompt").map(|p| String::from_utf8_lossy(p).into_owned()).unwrap_or_default();
    let mut double = double.lock().unwrap();
    let text = (double.recognise)(&audio).unwrap_or_default();
    double.prompts.push(prompt);
    if !text.is_empty() {
        double.batch.push(text.clone());
    }
    axum::Json(json!({"text": text, "logprobs": null, "usage": null})).into_response()
}

async fn upgrade(State(double): State<Shared>, Query(query): Query<HashMap<String, String>>, ws: WebSocketUpgrade) -> Response {
    {
        let mut double = double.lock().unwrap();
        double.sessions += 1;
        if query.get("intent").map(String::as_str) != Some("transcription") || query.get("language").map(String::as_str) != Some("nl") {
            double.violations.push(format!("query {query:?}"));
        }
    }
    ws.on_upgrade(move |socket| session(socket, double))
}

/// `types/realtime.py:229-234`.
#[derive(Clone, Debug)]
struct TurnDetection {
    threshold: f64,
    silence_ms: usize,
    padding_ms: usize,
}

/// One input buffer and its turn-detection state (`realtime/input_audio_buffer.py:41-87`).
struct Buffer {
    id: String,
    data: Vec<i16>,
    start_ms: Option<usize>,
    end_ms: Option<usize>,
}

impl Buffer {
    fn new(number: usize) -> Self {
        Buffer { id: format!("item_{number}"), data: Vec::new(), start_ms: None, end_ms: None }
    }

    fn duration_ms(&self) -> usize {
        self.data.len() / 16
    }
}

/// Why a session ends.
enum End {
    Closed,
    Limit,
    /// An exception escaped the session's task group.
    Died(&'static str),
}

async fn session(mut socket: WebSocket, double: Shared) {
    let limit = double.lock().unwrap().limit;
    let end = tokio::time::timeout(limit, serve(&mut socket, &double)).await.unwrap_or(End::Limit);
    let cause = match end {
        End::Closed => "closed",
        End::Limit => "limit",
        End::Died(cause) => cause,
    };
    double.lock().unwrap().ended.entry(cause).and_modify(|n| *n += 1).or_insert(1);
    // uvicorn answers an exception, and the end of the handler, by closing the socket.
    let code = if matches!(cause, "closed" | "limit") { 1000 } else { 1011 };
    let _ = socket.send(Message::Close(Some(CloseFrame { code, reason: "".into() }))).await;
}

async fn send(socket: &mut WebSocket, double: &Shared, value: Value) -> bool {
    let kind = value["type"].as_str().unwrap_or("?").to_string();
    *double.lock().unwrap().sent.entry(kind).or_insert(0) += 1;
    socket.send(Message::Text(value.to_string().into())).await.is_ok()
}

fn error_event(kind: &str, message: &str) -> Value {
    json!({"type": "error", "event_id": "event_e", "error": {"type": kind, "code": null, "message": message, "param": null, "event_id": null}})
}

/// The level of the last 3 s in 32 ms windows, as silero's speech probabilities: a voice at a
/// normal level scores about 0.99, silence 0; nothing reaches 1.0.
fn speech_windows(window: &[i16], threshold: f64) -> Vec<bool> {
    window
        .chunks(512)
        .map(|chunk| {
            let rms = (chunk.iter().map(|&s| f64::from(s) * f64::from(s)).sum::<f64>() / chunk.len() as f64).sqrt();
            rms / (rms + 50.0) >= threshold
        })
        .collect()
}

/// `vad_detection_flow` (`input_audio_buffer_event_router.py:46-100`): the last speech segment
/// of the last 3 s decides. Returns the event to publish.
fn detect(buffer: &mut Buffer, turn: &TurnDetection) -> Option<Value> {
    let window_len = buffer.data.len().min(3_000 * 16);
    let window = &buffer.data[buffer.data.len() - window_len..];
    let flags = speech_windows(window, turn.threshold);
    // Segments of speech windows, joined over gaps shorter than the silence duration.
    let gap = turn.silence_ms / 32;
    let mut segments: Vec<(usize, usize)> = Vec::new();
    for (i, speech) in flags.iter().enumerate() {
        if !speech {
            continue;
        }
        match segments.last_mut() {
            Some((_, end)) if i - *end <= gap => *end = i + 1,
            _ => segments.push((i, i + 1)),
        }
    }
    let last = segments.last().map(|&(start, end)| (start * 32, (end * 32).min(window_len / 16)));
    let duration = buffer.duration_ms();
    match (buffer.start_ms, last) {
        (None, None) => None,
        (None, Some((start, _))) => {
            buffer.start_ms = Some(duration - window_len / 16 + start);
            Some(
                json!({"type": "input_audio_buffer.speech_started", "event_id": "event_s", "item_id": buffer.id, "audio_start_ms": buffer.start_ms}),
            )
        }
        (Some(_), last) if last.is_none() || last.is_some_and(|(_, end)| end < 3_000 && duration > 3_000) => {
            let end = duration.saturating_sub(turn.padding_ms);
            buffer.end_ms = Some(end);
            Some(json!({"type": "input_audio_buffer.speech_stopped", "event_id": "event_t", "item_id": buffer.id, "audio_end_ms": end}))
        }
        _ => None,
    }
}

/// `InputAudioBufferTranscriber._handler` (`realtime/input_audio_buffer.py:109-146`), with the
/// model stood in for by the double's `recognise`.
fn transcribe(buffer: &Buffer, double: &Shared) -> Result<String, End> {
    let data = match buffer.start_ms {
        None => &buffer.data[..],
        Some(start) => {
            // `assert self.vad_state.audio_end_ms is not None` (input_audio_buffer.py:84).
            let Some(end) = buffer.end_ms else {
                return Err(End::Died("assertion"));
            };
            &buffer.data[(start * 16).min(buffer.data.len())..(end * 16).min(buffer.data.len())]
        }
    };
    let mut double = double.lock().unwrap();
    let text = (double.recognise)(data).unwrap_or_default();
    if double.loopback_broken {
        return Err(End::Died("transcription error"));
    }
    if !text.is_empty() && double.fail_text.as_ref() == Some(&text) && !double.failed_once {
        double.failed_once = true;
        return Err(End::Died("transcription error"));
    }
    if !text.is_empty() {
        double.realtime.push(text.clone());
    }
    Ok(text)
}

async fn serve(socket: &mut WebSocket, double: &Shared) -> End {
    // `realtime/session.py:62-68`.
    let mut turn = Some(TurnDetection { threshold: 0.9, silence_ms: 550, padding_ms: 0 });
    let mut items = 0;
    let mut buffer = Buffer::new(items);
    let mut previous: Option<String> = None;
    if !send(socket, double, json!({"type": "session.created", "event_id": "event_0", "session": {"id": "sess_1"}})).await {
        return End::Closed;
    }
    while let Some(Ok(message)) = socket.recv().await {
        let Message::Text(text) = message else {
            continue;
        };
        let Ok(client) = serde_json::from_str::<Value>(text.as_str()) else {
            double.lock().unwrap().violations.push("a client event is not JSON".into());
            continue;
        };
        let mut commit = None;
        match client["type"].as_str() {
            Some("session.update") => {
                let detection = &client["session"]["turn_detection"];
                if detection.is_null() && client["session"].get("turn_detection").is_some() {
                    // Neither TurnDetection nor NotGiven takes null: the event is refused whole.
                    send(socket, double, error_event("invalid_request_error", "1 validation error for SessionUpdateEvent")).await;
                    continue;
                }
                let complete = ["create_response", "prefix_padding_ms", "silence_duration_ms", "threshold"]
                    .iter()
                    .all(|field| detection.get(*field).is_some_and(|v| !v.is_null()));
                if complete {
                    send(socket, double, error_event("invalid_request_error", "Specifying `session.turn_detection.prefix_padding_ms` is not supported. The server either does not support this field or it is not configurable.")).await;
                    let threshold = detection["threshold"].as_f64().unwrap_or(0.9);
                    let silence_ms = detection["silence_duration_ms"].as_u64().unwrap_or(550) as usize;
                    turn = Some(TurnDetection { threshold, silence_ms, padding_ms: 0 });
                }
                let applied =
                    json!({"threshold": turn.as_ref().map(|t| t.threshold), "silence_duration_ms": turn.as_ref().map(|t| t.silence_ms)});
                send(socket, double, json!({"type": "session.updated", "event_id": "event_1", "session": {"turn_detection": applied}}))
                    .await;
            }
            Some("input_audio_buffer.append") => {
                let Some(bytes) = client["audio"].as_str().and_then(|a| base64::engine::general_purpose::STANDARD.decode(a).ok()) else {
                    double.lock().unwrap().violations.push("audio is not base64".into());
                    continue;
                };
                // 24 kHz PCM16 brought to 16 kHz (`:106-113`): every third sample of two.
                let at_24k: Vec<i16> = bytes.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
                buffer.data.extend((0..at_24k.len() * 2 / 3).map(|i| at_24k[i * 3 / 2]));
                if let Some(turn) = &turn
                    && let Some(event) = detect(&mut buffer, turn)
                {
                    let stopped = event["type"] == "input_audio_buffer.speech_stopped";
                    send(socket, double, event).await;
                    if stopped {
                        // `:153-162`: a new buffer, and the old one committed.
                        items += 1;
                        commit = Some(std::mem::replace(&mut buffer, Buffer::new(items)));
                    }
                }
            }
            Some("input_audio_buffer.commit") => {
                if buffer.duration_ms() < 100 {
                    let message = format!(
                        "Error committing input audio buffer: buffer too small. Expected at least 100ms of audio, but buffer only has {}.00ms of audio.",
                        buffer.duration_ms()
                    );
                    send(socket, double, error_event("invalid_request_error", &message)).await;
                } else {
                    items += 1;
                    commit = Some(std::mem::replace(&mut buffer, Buffer::new(items)));
                }
            }
            Some("input_audio_buffer.clear") => {
                items += 1;
                buffer = Buffer::new(items);
                send(socket, double, json!({"type": "input_audio_buffer.cleared", "event_id": "event_c"})).await;
            }
            other => double.lock().unwrap().violations.push(format!("unexpected client event {other:?}")),
        }
        let Some(committed) = commit else {
            continue;
        };
        let event =
            json!({"type": "input_audio_buffer.committed", "event_id": "event_m", "item_id": committed.id, "previous_item_id": previous});
        previous = Some(committed.id.clone());
        send(socket, double, event).await;
        match transcribe(&committed, double) {
            Ok(transcript) => {
                let completed = json!({"type": "conversation.item.input_audio_transcription.completed", "event_id": "event_d", "item_id": committed.id, "content_index": 0, "transcript": transcript, "usage": {"type": "duration", "seconds": committed.duration_ms() as f64 / 1000.0}});
                send(socket, double, completed).await;
            }
            Err(End::Died(cause)) => {
                if cause == "transcription error" {
                    // `:180-187` publishes the error before the task is awaited again.
                    send(socket, double, error_event("server_error", "Internal Server Error")).await;
                }
                return End::Died(cause);
            }
            Err(end) => return end,
        }
    }
    End::Closed
}
