//! The realtime speech engine against a double of speaches as it ships (`support/speaches.rs`,
//! every behaviour written from speaches' source with its file and line), and that double held to
//! what speaches does.
//!
//! The consult is a script of numbered sentences, each spoken as a tone whose pitch names the
//! sentence, so that both endpoints of the double answer from the audio alone, as Whisper would.
//! It runs on a faster clock: the double's session limit is 30 minutes divided by the test's
//! speed.

#[path = "support/speaches.rs"]
mod speaches;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::post;
use base64::Engine as _;
use futures::{SinkExt, StreamExt};
use integrations::speech::EngineSettings;
use integrations::speech::openai::OpenAiTranscription;
use integrations::speech::realtime::{DEFAULT_ROTATE_AFTER, Realtime, RealtimeSettings};
use integrations::speech::{AudioFrame, SpeechEngine, SpeechEvent, StreamOptions};
use serde_json::{Value, json};
use speaches::{Double, SESSION_LIMIT, start};
use tokio::sync::mpsc;
use tokio::time::Instant;

/// Generous: the machine is shared and slow; only a hang runs into it.
const WAIT: Duration = Duration::from_secs(60);
/// 16 kHz samples in one frame of 500 ms, as the browser sends.
const FRAME: usize = 8_000;
const RATE: usize = 16_000;

// --- the script --------------------------------------------------------------------------------

/// Sentence `n` is a tone of this pitch: 300 Hz and 4 Hz more for every sentence (at most about
/// 2.5 kHz for the 540 sentences of 90 minutes).
fn pitch(n: usize) -> f64 {
    300.0 + 4.0 * n as f64
}

fn line(n: usize) -> String {
    format!("Dit is zin {n} van het consult.")
}

/// The double's Whisper: the line of the sentence a clip's pitch names.
fn by_pitch() -> speaches::Recognise {
    Arc::new(|samples: &[i16]| sentence_in(samples, RATE).map(line))
}

fn double() -> Double {
    Double::new(by_pitch())
}

/// The sentence a clip speaks, from its pitch: zero crossings over the span between its first
/// and last loud sample.
fn sentence_in(samples: &[i16], rate: usize) -> Option<usize> {
    let loud: Vec<usize> = samples.iter().enumerate().filter(|(_, s)| s.unsigned_abs() > 2_000).map(|(i, _)| i).collect();
    let (first, last) = (*loud.first()?, *loud.last()?);
    let span = &samples[first..=last];
    let crossings = span.windows(2).filter(|pair| (pair[0] < 0) != (pair[1] < 0)).count();
    let seconds = span.len() as f64 / rate as f64;
    if seconds < 0.1 {
        return None;
    }
    let frequency = crossings as f64 / 2.0 / seconds;
    let n = ((frequency - 300.0) / 4.0).round();
    (n >= 0.0).then_some(n as usize)
}

/// A consult of `minutes`: every `every` seconds a sentence of `tone` seconds; the last one cut
/// off halfway (the clinician pressed stop mid-sentence).
struct Script {
    sentences: usize,
    every: f64,
    tone: f64,
}

impl Script {
    fn minutes(minutes: f64) -> Self {
        let every = 10.0;
        Script { sentences: (minutes * 60.0 / every) as usize, every, tone: 1.2 }
    }

    fn samples(&self) -> usize {
        let whole = (self.sentences - 1) as f64 * self.every + 1.0 + self.tone / 2.0;
        (whole * RATE as f64) as usize
    }

    fn sample(&self, i: usize) -> i16 {
        let t = i as f64 / RATE as f64;
        let n = ((t - 1.0) / self.every).floor();
        if n < 0.0 || n as usize >= self.sentences {
            return 0;
        }
        let within = t - 1.0 - n * self.every;
        if within >= self.tone {
            return 0;
        }
        (8_000.0 * (2.0 * std::f64::consts::PI * pitch(n as usize) * within).sin()) as i16
    }

    fn frame(&self, index: usize) -> AudioFrame {
        let start = index * FRAME;
        (start..(start + FRAME).min(self.samples())).map(|i| self.sample(i)).collect()
    }

    fn frames(&self) -> usize {
        self.samples().div_ceil(FRAME)
    }

    fn lines(&self) -> Vec<String> {
        (0..self.sentences).map(line).collect()
    }
}

// --- the product against it --------------------------------------------------------------------

fn engine(url: &str, rotate_after: Duration) -> Realtime {
    Realtime::new(RealtimeSettings {
        url: url.to_string(),
        model: "Systran/faster-whisper-large-v3".into(),
        api_key: None,
        prompt: "Een consult bij de huisarts.".into(),
        timeout: Duration::from_secs(20),
        rotate_after,
    })
    .unwrap()
    .with_batch_backoff(vec![Duration::from_millis(50)])
}

/// What came out of one stream.
struct Outcome {
    sentences: Vec<String>,
    troubles: Vec<String>,
}

/// Streams the script into the engine at `speed` times real time, and collects what it reports.
async fn stream(engine: impl SpeechEngine, script: &Script, speed: f64, vocabulary: Vec<String>) -> Outcome {
    let (audio_tx, audio_rx) = mpsc::channel::<AudioFrame>(4);
    let (events_tx, mut events_rx) = mpsc::channel::<SpeechEvent>(64);
    let run = tokio::spawn(engine.run(StreamOptions { vocabulary, ..StreamOptions::default() }, audio_rx, events_tx));
    let frame_time = Duration::from_secs_f64(0.5 / speed);
    let frames = script.frames();
    let feed = async move {
        let started = Instant::now();
        for index in 0..frames {
            tokio::time::sleep_until(started + frame_time * index as u32).await;
            if audio_tx.send(script.frame(index)).await.is_err() {
                break;
            }
        }
    };
    let collect = async {
        let (mut sentences, mut troubles) = (Vec::new(), Vec::new());
        while let Some(event) = events_rx.recv().await {
            match event {
                SpeechEvent::Completed { sentence, .. } => sentences.push(sentence),
                SpeechEvent::Trouble { message, .. } => troubles.push(message),
                SpeechEvent::Buffer(_) => {}
            }
        }
        (sentences, troubles)
    };
    let ((), (sentences, troubles)) = tokio::join!(feed, collect);
    tokio::time::timeout(WAIT, run).await.expect("the stream ended").unwrap().unwrap();
    Outcome { sentences, troubles }
}

fn assert_every_sentence_once_in_order(outcome: &Outcome, script: &Script) {
    assert!(outcome.troubles.is_empty(), "troubles: {:?}", outcome.troubles);
    let expected = script.lines();
    if outcome.sentences != expected {
        let missing: Vec<&String> = expected.iter().filter(|l| !outcome.sentences.contains(l)).collect();
        let mut seen = std::collections::HashSet::new();
        let duplicated: Vec<&String> = outcome.sentences.iter().filter(|l| !seen.insert(*l)).collect();
        panic!(
            "{} sentences of {}; missing {:?}; duplicated {:?}; first out of order at {:?}",
            outcome.sentences.len(),
            expected.len(),
            missing,
            duplicated,
            outcome.sentences.iter().zip(&expected).position(|(a, b)| a != b)
        );
    }
}

/// 90 minutes at 300 times real time: 18 s.
const SPEED: f64 = 300.0;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ninety_minute_consult_loses_nothing_to_the_session_limit_an_error_or_a_stop_mid_sentence() {
    let script = Script::minutes(90.0);
    let limit = SESSION_LIMIT.div_f64(SPEED);
    let (url, double) = start(Double { limit, fail_text: Some(line(400)), ..double() }).await;
    // Renewal off: the server's limit ends every session, with work outstanding or not.
    let outcome = stream(engine(&url, Duration::from_secs(3_600)), &script, SPEED, vec!["Metoprolol".into()]).await;
    assert_every_sentence_once_in_order(&outcome, &script);
    let double = double.lock().unwrap();
    assert!(double.violations.is_empty(), "{:?}", double.violations);
    assert!(double.failed_once, "the injected error never happened");
    assert!(double.ended.get("limit").copied().unwrap_or(0) >= 2, "sessions ended: {:?}", double.ended);
    assert_eq!(double.ended.get("assertion"), None, "a commit mid-speech killed a session");
    // The failed sentence, and whatever the limit cut off, came through the batch path, with
    // the vocabulary in its prompt.
    assert!(double.batch.contains(&line(400)), "batch: {:?}", double.batch);
    assert!(double.prompts.iter().all(|p| p.contains("Metoprolol")), "{:?}", double.prompts);
    // The last sentence was cut off halfway and still arrived.
    let last = line(script.sentences - 1);
    assert!(double.realtime.contains(&last) || double.batch.contains(&last));
    // speaches sends no live text; the server's turn detection stayed off.
    assert_eq!(double.sent.get("conversation.item.input_audio_transcription.delta"), None);
    assert_eq!(double.sent.get("input_audio_buffer.speech_started"), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_consult_through_the_batch_path_gives_every_sentence() {
    let script = Script::minutes(90.0);
    let (url, double) = start(double()).await;
    let settings = EngineSettings {
        url,
        model: "Systran/faster-whisper-large-v3".into(),
        api_key: None,
        prompt: "Een consult bij de huisarts.".into(),
        interim: Duration::from_secs(2),
        timeout: Duration::from_secs(20),
    };
    let outcome = stream(OpenAiTranscription::new(settings), &script, SPEED, vec!["Metoprolol".into()]).await;
    assert_every_sentence_once_in_order(&outcome, &script);
    let double = double.lock().unwrap();
    // Requests overlap, so they reach the double in any order.
    let mut batch = double.batch.clone();
    batch.sort();
    let mut expected = script.lines();
    expected.sort();
    assert_eq!(batch, expected);
    assert!(double.prompts.iter().all(|p| p.contains("Metoprolol")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_are_renewed_before_the_servers_limit() {
    let script = Script::minutes(40.0);
    let speed = 100.0;
    let (url, double) = start(Double { limit: SESSION_LIMIT.div_f64(speed), ..double() }).await;
    let outcome = stream(engine(&url, DEFAULT_ROTATE_AFTER.div_f64(speed)), &script, speed, Vec::new()).await;
    assert_every_sentence_once_in_order(&outcome, &script);
    let double = double.lock().unwrap();
    assert_eq!(double.ended.get("limit"), None, "sessions ended: {:?}", double.ended);
    assert!(double.sessions >= 2, "{} sessions", double.sessions);
    assert!(double.batch.is_empty(), "batch: {:?}", double.batch);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn speaches_without_a_loopback_url_still_gives_every_sentence_through_the_batch_path() {
    let script = Script::minutes(3.0);
    let (url, double) = start(Double { loopback_broken: true, ..double() }).await;
    let outcome = stream(engine(&url, DEFAULT_ROTATE_AFTER), &script, 50.0, Vec::new()).await;
    assert_every_sentence_once_in_order(&outcome, &script);
    let double = double.lock().unwrap();
    assert!(double.realtime.is_empty());
    assert_eq!(double.batch.len(), script.sentences);
    // Reconnecting backs off: fewer sessions than sentences.
    assert!(double.sessions < script.sentences, "{} sessions for {} sentences", double.sessions, script.sentences);
}

#[tokio::test]
async fn a_server_that_is_down_leaves_the_batch_path_in_charge() {
    // Nothing listens on the realtime port's path: the upgrade answers 404; the batch endpoint works.
    let (url, double) = start(double()).await;
    let app = Router::new().route("/v1/audio/transcriptions", post(speaches::transcriptions)).with_state(Arc::clone(&double));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let batch_only = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    drop(url);
    let script = Script::minutes(0.5);
    let outcome = stream(engine(&batch_only, DEFAULT_ROTATE_AFTER), &script, 20.0, Vec::new()).await;
    assert_every_sentence_once_in_order(&outcome, &script);
    assert_eq!(double.lock().unwrap().batch.len(), script.sentences);
}

// --- the double held to speaches ---------------------------------------------------------------

type Client = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn client(url: &str) -> Client {
    let ws = url.replace("http://", "ws://") + "/v1/realtime?model=m&intent=transcription&language=nl";
    tokio_tungstenite::connect_async(ws).await.unwrap().0
}

async fn say(client: &mut Client, value: Value) {
    client.send(tokio_tungstenite::tungstenite::Message::text(value.to_string())).await.unwrap();
}

/// The events up to the socket's end or a quiet half second.
async fn hear(client: &mut Client) -> (Vec<Value>, bool) {
    let mut events = Vec::new();
    loop {
        match tokio::time::timeout(Duration::from_millis(500), client.next()).await {
            Err(_) => return (events, false),
            Ok(Some(Ok(tokio_tungstenite::tungstenite::Message::Text(text)))) => events.push(serde_json::from_str(text.as_str()).unwrap()),
            Ok(Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) => return (events, true),
            Ok(Some(Ok(_))) => {}
        }
    }
}

fn types(events: &[Value]) -> Vec<&str> {
    events.iter().filter_map(|e| e["type"].as_str()).collect()
}

/// One second of sentence 7 at 24 kHz, base64.
fn spoken(seconds: f64) -> String {
    let samples: Vec<u8> = (0..(seconds * 24_000.0) as usize)
        .map(|i| (8_000.0 * (2.0 * std::f64::consts::PI * pitch(7) * i as f64 / 24_000.0).sin()) as i16)
        .flat_map(i16::to_le_bytes)
        .collect();
    base64::engine::general_purpose::STANDARD.encode(samples)
}

#[tokio::test]
async fn the_double_drops_turn_detection_without_padding_and_refuses_the_padding_it_needs() {
    let (url, _double) = start(double()).await;
    let mut socket = client(&url).await;
    let without = json!({"type": "session.update", "session": {"turn_detection": {"type": "server_vad", "threshold": 0.5, "silence_duration_ms": 500, "create_response": false}, "input_audio_transcription": {"model": "m", "language": "nl", "prompt": "Metoprolol"}}});
    say(&mut socket, without).await;
    let (events, _) = hear(&mut socket).await;
    assert_eq!(types(&events), vec!["session.created", "session.updated"]);
    assert_eq!(events[1]["session"]["turn_detection"]["threshold"], 0.9);
    let with = json!({"type": "session.update", "session": {"turn_detection": {"type": "server_vad", "threshold": 0.5, "prefix_padding_ms": 0, "silence_duration_ms": 500, "create_response": false}}});
    say(&mut socket, with).await;
    let (events, _) = hear(&mut socket).await;
    assert_eq!(types(&events), vec!["error", "session.updated"]);
    assert_eq!(events[1]["session"]["turn_detection"]["threshold"], 0.5);
    say(&mut socket, json!({"type": "session.update", "session": {"turn_detection": null}})).await;
    assert_eq!(types(&hear(&mut socket).await.0), vec!["error"]);
}

#[tokio::test]
async fn the_double_dies_on_a_commit_mid_speech_and_on_a_transcription_error() {
    let (url, double) = start(double()).await;
    // The session's own turn detection hears speech start; a commit before it stops kills it.
    let mut socket = client(&url).await;
    say(&mut socket, json!({"type": "input_audio_buffer.append", "audio": spoken(1.0)})).await;
    say(&mut socket, json!({"type": "input_audio_buffer.commit"})).await;
    let (events, ended) = hear(&mut socket).await;
    assert_eq!(types(&events), vec!["session.created", "input_audio_buffer.speech_started", "input_audio_buffer.committed"]);
    assert!(ended, "the session lived on");
    // With the turn detection off, the same commit is transcribed, without any delta.
    let mut socket = client(&url).await;
    let off = json!({"type": "session.update", "session": {"turn_detection": {"type": "server_vad", "threshold": 1.0, "prefix_padding_ms": 0, "silence_duration_ms": 500, "create_response": false}}});
    say(&mut socket, off).await;
    say(&mut socket, json!({"type": "input_audio_buffer.append", "audio": spoken(1.0)})).await;
    say(&mut socket, json!({"type": "input_audio_buffer.commit"})).await;
    say(&mut socket, json!({"type": "input_audio_buffer.commit"})).await;
    let (events, ended) = hear(&mut socket).await;
    assert!(!ended);
    let completed: Vec<&Value> = events.iter().filter(|e| e["type"] == "conversation.item.input_audio_transcription.completed").collect();
    assert_eq!(completed.len(), 1);
    assert_eq!(completed[0]["transcript"], line(7));
    assert_eq!(events.last().unwrap()["error"]["type"], "invalid_request_error", "an empty commit is refused");
    // A transcription error: `error`, then the session is gone.
    double.lock().unwrap().fail_text = Some(line(7));
    say(&mut socket, json!({"type": "input_audio_buffer.append", "audio": spoken(1.0)})).await;
    say(&mut socket, json!({"type": "input_audio_buffer.commit"})).await;
    let (events, ended) = hear(&mut socket).await;
    assert_eq!(types(&events), vec!["input_audio_buffer.committed", "error"]);
    assert!(ended, "the session lived on after a transcription error");
}

#[tokio::test]
async fn the_double_closes_a_session_at_its_limit() {
    let (url, double) = start(Double { limit: Duration::from_millis(300), ..double() }).await;
    let mut socket = client(&url).await;
    let (_, ended) = hear(&mut socket).await;
    assert!(ended);
    assert_eq!(double.lock().unwrap().ended.get("limit"), Some(&1));
}
