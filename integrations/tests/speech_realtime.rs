//! The realtime speech engine against a test double of a speaches `/v1/realtime` server on
//! loopback: the OpenAI realtime transcription protocol over a websocket, with base64 PCM16 at
//! 24 kHz, energy-based turn detection, explicit commits, deltas and completions (one pair of
//! them out of order), a dropped connection, and servers that refuse the connection.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use base64::Engine as _;
use integrations::speech::realtime::{Realtime, RealtimeSettings};
use integrations::speech::{AudioFrame, SpeechEngine, SpeechError, SpeechEvent, StreamOptions};
use serde_json::{Value, json};
use tokio::sync::mpsc;

/// Generous: the machine is shared and slow; only a hang runs into it.
const WAIT: Duration = Duration::from_secs(30);

/// Samples in one frame of 500 ms at 16 kHz.
const FRAME: usize = 8_000;

/// What the double tells the test as it happens.
#[derive(Debug, PartialEq)]
enum Seen {
    Connected,
    Configured,
    Appended,
}

/// How the double behaves and what it recorded.
#[derive(Default)]
struct Double {
    /// Items committed so far, over every connection; names the text of the next one.
    items: usize,
    /// Connections accepted.
    connections: usize,
    /// Drop the first connection right after completing this many items.
    drop_first_after: Option<usize>,
    /// Answer this item with an `error` and a `failed` event instead of a transcript.
    fail_item: Option<usize>,
    /// Whether the first item's completion is still to be held back until the second completes.
    hold_first: bool,
    /// Everything the double found wrong with what the client sent.
    violations: Vec<String>,
    /// The query and authorization header of each connection.
    queries: Vec<HashMap<String, String>>,
    authorizations: Vec<Option<String>>,
    /// The `session` of each `session.update`.
    sessions: Vec<Value>,
    /// Per connection, how many 24 kHz samples each append carried.
    append_sizes: Vec<Vec<usize>>,
}

type Shared = Arc<Mutex<Double>>;

struct AppState {
    double: Shared,
    seen: mpsc::UnboundedSender<Seen>,
}

async fn start(double: Double) -> (String, Shared, mpsc::UnboundedReceiver<Seen>) {
    let double = Arc::new(Mutex::new(double));
    let (seen, seen_rx) = mpsc::unbounded_channel();
    let state = Arc::new(AppState { double: Arc::clone(&double), seen });
    let app = Router::new().route("/v1/realtime", get(upgrade)).with_state(state);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{address}"), double, seen_rx)
}

async fn upgrade(
    State(state): State<Arc<AppState>>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    let connection = {
        let mut double = state.double.lock().unwrap();
        double.queries.push(query);
        double.authorizations.push(headers.get("authorization").and_then(|value| value.to_str().ok()).map(String::from));
        double.append_sizes.push(Vec::new());
        double.connections += 1;
        double.connections
    };
    ws.on_upgrade(move |socket| serve(socket, state, connection))
}

fn event(value: Value) -> Message {
    Message::Text(value.to_string().into())
}

fn pcm(audio: &str) -> Result<Vec<i16>, String> {
    let bytes = base64::engine::general_purpose::STANDARD.decode(audio).map_err(|err| format!("audio is not base64: {err}"))?;
    if bytes.len() % 2 != 0 {
        return Err("audio has an odd number of bytes: not PCM16".into());
    }
    Ok(bytes.chunks_exact(2).map(|pair| i16::from_le_bytes([pair[0], pair[1]])).collect())
}

fn rms(samples: &[i16]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    (samples.iter().map(|&s| f64::from(s) * f64::from(s)).sum::<f64>() / samples.len() as f64).sqrt()
}

fn zero_crossings(samples: &[i16]) -> usize {
    samples.windows(2).filter(|pair| (pair[0] < 0) != (pair[1] < 0)).count()
}

/// One connection: the speaches side of the protocol.
async fn serve(mut socket: WebSocket, state: Arc<AppState>, connection: usize) {
    let double = &state.double;
    let _ = state.seen.send(Seen::Connected);
    let created = json!({"type": "session.created", "event_id": "event_0", "session": {"id": "sess_1"}});
    if socket.send(event(created)).await.is_err() {
        return;
    }
    // Audio since the last commit, and whether it holds speech.
    let mut buffer: Vec<i16> = Vec::new();
    let mut speaking = false;
    let mut previous_item: Option<String> = None;
    let mut held: Option<(String, String)> = None;
    let mut completed_here = 0;
    while let Some(Ok(message)) = socket.recv().await {
        let Message::Text(text) = message else {
            continue;
        };
        let Ok(client) = serde_json::from_str::<Value>(text.as_str()) else {
            double.lock().unwrap().violations.push("a client event is not JSON".into());
            continue;
        };
        let mut commit = false;
        match client["type"].as_str() {
            Some("session.update") => {
                double.lock().unwrap().sessions.push(client["session"].clone());
                let updated = json!({"type": "session.updated", "event_id": "event_1", "session": client["session"]});
                let _ = socket.send(event(updated)).await;
                let _ = state.seen.send(Seen::Configured);
            }
            Some("input_audio_buffer.append") => {
                let samples = match pcm(client["audio"].as_str().unwrap_or_default()) {
                    Ok(samples) => samples,
                    Err(violation) => {
                        double.lock().unwrap().violations.push(violation);
                        continue;
                    }
                };
                let loud = rms(&samples) > 1_000.0;
                {
                    let mut double = double.lock().unwrap();
                    double.append_sizes[connection - 1].push(samples.len());
                    // Half a second at 24 kHz; a 1 kHz tone crosses zero 1000 times in it.
                    if samples.len().abs_diff(12_000) > 2 {
                        double.violations.push(format!("an append of {} samples, not 12000", samples.len()));
                    }
                    if loud && zero_crossings(&samples).abs_diff(1_000) > 4 {
                        double.violations.push(format!("the tone crosses zero {} times: not 1 kHz at 24 kHz", zero_crossings(&samples)));
                    }
                }
                buffer.extend_from_slice(&samples);
                if loud && !speaking {
                    speaking = true;
                    let started =
                        json!({"type": "input_audio_buffer.speech_started", "event_id": "e", "item_id": "pending", "audio_start_ms": 0});
                    let _ = socket.send(event(started)).await;
                } else if !loud && speaking {
                    speaking = false;
                    let stopped =
                        json!({"type": "input_audio_buffer.speech_stopped", "event_id": "e", "item_id": "pending", "audio_end_ms": 0});
                    let _ = socket.send(event(stopped)).await;
                    commit = true;
                }
                let _ = state.seen.send(Seen::Appended);
            }
            Some("input_audio_buffer.commit") => {
                if buffer.len() < 2_400 {
                    let error = json!({"type": "error", "event_id": "e", "error": {"type": "invalid_request_error", "code": null, "message": "Error committing input audio buffer: buffer too small.", "param": null, "event_id": null}});
                    let _ = socket.send(event(error)).await;
                } else {
                    commit = true;
                    speaking = false;
                }
            }
            other => {
                double.lock().unwrap().violations.push(format!("unexpected client event {other:?}"));
            }
        }
        if !commit {
            continue;
        }
        buffer.clear();
        let (number, hold, drop_after) = {
            let mut double = double.lock().unwrap();
            double.items += 1;
            let hold = double.hold_first && double.items == 1;
            let drop_after = if connection == 1 { double.drop_first_after } else { None };
            (double.items, hold, drop_after)
        };
        let item_id = format!("item_{number}");
        let committed =
            json!({"type": "input_audio_buffer.committed", "event_id": "e", "item_id": item_id, "previous_item_id": previous_item});
        let _ = socket.send(event(committed)).await;
        previous_item = Some(item_id.clone());
        for delta in ["Dit is ", format!("zin {number}").as_str()] {
            let delta = json!({"type": "conversation.item.input_audio_transcription.delta", "event_id": "e", "item_id": item_id, "content_index": 0, "delta": delta});
            let _ = socket.send(event(delta)).await;
        }
        if double.lock().unwrap().fail_item == Some(number) {
            let error = json!({"type": "error", "event_id": "e", "error": {"type": "server_error", "code": null, "message": "Transcription failed", "param": null, "event_id": null}});
            let failed = json!({"type": "conversation.item.input_audio_transcription.failed", "event_id": "e", "item_id": item_id, "content_index": 0, "error": {"type": "server_error", "message": "Transcription failed"}});
            let _ = socket.send(event(error)).await;
            let _ = socket.send(event(failed)).await;
            continue;
        }
        let transcript = format!("Dit is zin {number}. Einde {number}.");
        if hold {
            held = Some((item_id, transcript));
            continue;
        }
        let _ = socket.send(event(completed(&item_id, &transcript))).await;
        completed_here += 1;
        if let Some((held_id, held_transcript)) = held.take() {
            double.lock().unwrap().hold_first = false;
            let _ = socket.send(event(completed(&held_id, &held_transcript))).await;
            completed_here += 1;
        }
        if drop_after.is_some_and(|after| completed_here >= after) {
            // Drop the connection without a close frame, as a crashed server would.
            return;
        }
    }
}

fn completed(item_id: &str, transcript: &str) -> Value {
    json!({"type": "conversation.item.input_audio_transcription.completed", "event_id": "e", "item_id": item_id, "content_index": 0, "transcript": transcript, "usage": {"type": "duration", "seconds": 1.0}})
}

fn engine(url: &str) -> Realtime {
    Realtime::new(RealtimeSettings {
        url: url.to_string(),
        model: "Systran/faster-whisper-large-v3".into(),
        api_key: Some("test-key".into()),
        prompt: "Een consult bij de huisarts.".into(),
        timeout: WAIT,
    })
    .unwrap()
}

fn tone() -> AudioFrame {
    (0..FRAME).map(|n| (8_000.0 * (2.0 * std::f64::consts::PI * 1_000.0 * n as f64 / 16_000.0).sin()) as i16).collect()
}

fn silence() -> AudioFrame {
    vec![0; FRAME]
}

async fn next_seen(seen: &mut mpsc::UnboundedReceiver<Seen>) -> Seen {
    tokio::time::timeout(WAIT, seen.recv()).await.expect("the double saw nothing").expect("double gone")
}

/// Sends a frame and waits until the double has it: frames must flow while the stream runs.
async fn stream_frame(audio: &mpsc::Sender<AudioFrame>, seen: &mut mpsc::UnboundedReceiver<Seen>, frame: AudioFrame) {
    audio.send(frame).await.unwrap();
    loop {
        if next_seen(seen).await == Seen::Appended {
            return;
        }
    }
}

async fn collect(mut events: mpsc::Receiver<SpeechEvent>) -> Vec<SpeechEvent> {
    let mut all = Vec::new();
    while let Some(event) = tokio::time::timeout(WAIT, events.recv()).await.expect("events stalled") {
        all.push(event);
    }
    all
}

fn sentences(events: &[SpeechEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|event| match event {
            SpeechEvent::Completed { sentence, speaker } => {
                assert_eq!(*speaker, None);
                Some(sentence.clone())
            }
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn streams_audio_and_reports_sentences_in_committed_order() {
    let (url, double, mut seen) = start(Double { hold_first: true, ..Double::default() }).await;
    let engine = engine(&url);
    let (audio, audio_rx) = mpsc::channel(2);
    let (events_tx, events_rx) = mpsc::channel(64);
    let options = StreamOptions { vocabulary: vec!["metoprolol".into(), "HbA1c".into()], ..StreamOptions::default() };
    let run = tokio::spawn(engine.run(options, audio_rx, events_tx));
    let events = tokio::spawn(collect(events_rx));

    assert_eq!(next_seen(&mut seen).await, Seen::Connected);
    assert_eq!(next_seen(&mut seen).await, Seen::Configured);
    // Turn 1 and 2 end in silence (the server's turn detection commits them); turn 3 is still
    // being spoken when the audio closes, so the engine commits it.
    for frame in [tone(), tone(), silence(), tone(), silence(), tone()] {
        stream_frame(&audio, &mut seen, frame).await;
    }
    drop(audio);

    let result = tokio::time::timeout(WAIT, run).await.expect("run() did not end").unwrap();
    assert_eq!(result, Ok(()));
    let events = events.await.unwrap();

    assert_eq!(sentences(&events), ["Dit is zin 1.", "Einde 1.", "Dit is zin 2.", "Einde 2.", "Dit is zin 3.", "Einde 3."]);
    assert_eq!(events.last(), Some(&SpeechEvent::Buffer(String::new())));
    assert!(!events.iter().any(|event| matches!(event, SpeechEvent::Trouble { .. })), "{events:?}");
    // The deltas build up the buffer; while item 2 is done and item 1 is not, both show.
    assert!(events.contains(&SpeechEvent::Buffer("Dit is zin 1".into())), "{events:?}");
    assert!(events.contains(&SpeechEvent::Buffer("Dit is zin 1 Dit is zin 2. Einde 2.".into())), "{events:?}");
    let first_completed = events.iter().position(|e| matches!(e, SpeechEvent::Completed { .. }));
    let partial = events.iter().position(|e| e == &SpeechEvent::Buffer("Dit is zin 1".into()));
    assert!(partial < first_completed);

    let double = double.lock().unwrap();
    assert!(double.violations.is_empty(), "{:?}", double.violations);
    assert_eq!(double.connections, 1);
    assert_eq!(double.append_sizes[0].len(), 6, "every frame is sent as it comes");
    let query = &double.queries[0];
    assert_eq!(query.get("intent").map(String::as_str), Some("transcription"));
    assert_eq!(query.get("model").map(String::as_str), Some("Systran/faster-whisper-large-v3"));
    assert_eq!(query.get("language").map(String::as_str), Some("nl"));
    assert_eq!(double.authorizations[0].as_deref(), Some("Bearer test-key"));
    let session = &double.sessions[0];
    assert_eq!(session["input_audio_transcription"]["language"], "nl");
    assert_eq!(session["input_audio_transcription"]["model"], "Systran/faster-whisper-large-v3");
    assert_eq!(session["input_audio_transcription"]["prompt"], "Een consult bij de huisarts. metoprolol, HbA1c.");
    assert_eq!(session["turn_detection"]["type"], "server_vad");
}

#[tokio::test]
async fn closing_without_speech_ends_cleanly_without_a_commit() {
    let (url, double, mut seen) = start(Double::default()).await;
    let (audio, audio_rx) = mpsc::channel(2);
    let (events_tx, events_rx) = mpsc::channel(64);
    let run = tokio::spawn(engine(&url).run(StreamOptions::default(), audio_rx, events_tx));
    let events = tokio::spawn(collect(events_rx));
    stream_frame(&audio, &mut seen, silence()).await;
    drop(audio);
    let result = tokio::time::timeout(WAIT, run).await.expect("run() did not end").unwrap();
    assert_eq!(result, Ok(()));
    assert_eq!(events.await.unwrap(), Vec::<SpeechEvent>::new());
    let double = double.lock().unwrap();
    assert!(double.violations.is_empty(), "{:?}", double.violations);
    assert_eq!(double.items, 0);
}

#[tokio::test]
async fn a_dropped_connection_is_reopened_and_the_stream_goes_on() {
    let (url, double, mut seen) = start(Double { drop_first_after: Some(1), ..Double::default() }).await;
    let (audio, audio_rx) = mpsc::channel(2);
    let (events_tx, events_rx) = mpsc::channel(64);
    let run = tokio::spawn(engine(&url).run(StreamOptions::default(), audio_rx, events_tx));
    let events = tokio::spawn(collect(events_rx));

    stream_frame(&audio, &mut seen, tone()).await;
    // This silence ends turn 1; the double completes it and drops the connection.
    stream_frame(&audio, &mut seen, silence()).await;
    // Wait for the engine to reconnect before speaking on.
    loop {
        if next_seen(&mut seen).await == Seen::Configured {
            break;
        }
    }
    stream_frame(&audio, &mut seen, tone()).await;
    stream_frame(&audio, &mut seen, silence()).await;
    drop(audio);

    let result = tokio::time::timeout(WAIT, run).await.expect("run() did not end").unwrap();
    assert_eq!(result, Ok(()));
    let events = events.await.unwrap();
    assert_eq!(sentences(&events), ["Dit is zin 1.", "Einde 1.", "Dit is zin 2.", "Einde 2."]);
    assert!(!events.iter().any(|event| matches!(event, SpeechEvent::Trouble { .. })), "{events:?}");
    assert_eq!(events.last(), Some(&SpeechEvent::Buffer(String::new())));
    let double = double.lock().unwrap();
    assert!(double.violations.is_empty(), "{:?}", double.violations);
    assert_eq!(double.connections, 2);
}

#[tokio::test]
async fn a_refused_connection_is_unavailable() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    drop(listener);
    let (_audio, audio_rx) = mpsc::channel(2);
    let (events_tx, _events_rx) = mpsc::channel(8);
    let result = engine(&format!("http://{address}")).run(StreamOptions::default(), audio_rx, events_tx).await;
    assert!(matches!(result, Err(SpeechError::Unavailable(_))), "{result:?}");
}

async fn refusing_server(status: StatusCode) -> String {
    let app = Router::new().route("/v1/realtime", get(move || async move { status.into_response() }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    format!("http://{address}")
}

#[tokio::test]
async fn a_failed_handshake_is_unavailable_and_a_refused_key_is_rejected() {
    let (_audio, audio_rx) = mpsc::channel(2);
    let (events_tx, _events_rx) = mpsc::channel(8);
    let url = refusing_server(StatusCode::SERVICE_UNAVAILABLE).await;
    let result = engine(&url).run(StreamOptions::default(), audio_rx, events_tx).await;
    assert!(matches!(result, Err(SpeechError::Unavailable(_))), "{result:?}");

    let (_audio, audio_rx) = mpsc::channel(2);
    let (events_tx, _events_rx) = mpsc::channel(8);
    let url = refusing_server(StatusCode::UNAUTHORIZED).await;
    let result = engine(&url).run(StreamOptions::default(), audio_rx, events_tx).await;
    assert!(matches!(result, Err(SpeechError::Rejected(_))), "{result:?}");
}

#[tokio::test]
async fn server_errors_become_trouble_and_the_stream_goes_on() {
    let (url, double, mut seen) = start(Double { fail_item: Some(1), ..Double::default() }).await;
    let (audio, audio_rx) = mpsc::channel(2);
    let (events_tx, events_rx) = mpsc::channel(64);
    let run = tokio::spawn(engine(&url).run(StreamOptions::default(), audio_rx, events_tx));
    let events = tokio::spawn(collect(events_rx));
    for frame in [tone(), silence(), tone(), silence()] {
        stream_frame(&audio, &mut seen, frame).await;
    }
    drop(audio);
    let result = tokio::time::timeout(WAIT, run).await.expect("run() did not end").unwrap();
    assert_eq!(result, Ok(()));
    let events = events.await.unwrap();
    assert_eq!(sentences(&events), ["Dit is zin 2.", "Einde 2."]);
    let troubles: Vec<_> = events
        .iter()
        .filter_map(|event| match event {
            SpeechEvent::Trouble { code, message } => Some((*code, message.clone())),
            _ => None,
        })
        .collect();
    assert!(!troubles.is_empty());
    assert!(troubles.iter().all(|(code, _)| *code == "engine_error"), "{troubles:?}");
    assert!(troubles.iter().all(|(_, message)| message.contains("niet") && message.contains("uitgeschreven")));
    let first_trouble = events.iter().position(|e| matches!(e, SpeechEvent::Trouble { .. }));
    let first_sentence = events.iter().position(|e| matches!(e, SpeechEvent::Completed { .. }));
    assert!(first_trouble < first_sentence, "{events:?}");
    assert_eq!(events.last(), Some(&SpeechEvent::Buffer(String::new())));
    assert!(double.lock().unwrap().violations.is_empty());
}
