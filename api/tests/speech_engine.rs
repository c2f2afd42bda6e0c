//! The live consult with a speech engine: real Dutch speech (espeak-ng fixtures) streamed over
//! the websocket to the OpenAI-compatible engine, whose server is a double speaking the real
//! wire format; sentences come back in order with their speakers, survive a dropped socket, and
//! an uploaded recording goes the same way.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::post;
use common::{Options, Socket, TestApp, next_of, open_session, socket};
use futures::{SinkExt, StreamExt};
use integrations::speech::wav;
use serde_json::{Value, json};
use sqlx::PgPool;
use tokio_tungstenite::tungstenite::Message;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/../integrations/tests/fixtures/speech/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn sentences() -> Vec<String> {
    String::from_utf8(fixture("sentences.txt")).unwrap().lines().map(str::to_owned).collect()
}

/// The consult's audio: a second of room noise, then each sentence followed by another.
fn consult_audio(count: usize) -> Vec<i16> {
    let room = wav::parse(&fixture("silence.wav")).unwrap();
    let pause = &room[..16_000];
    let mut samples = pause.to_vec();
    for i in 1..=count {
        samples.extend(wav::parse(&fixture(&format!("sentence-{i:02}.wav"))).unwrap());
        samples.extend_from_slice(pause);
    }
    samples
}

/// The transcription server. It cannot recognise speech, so it finds which fixture sentence the
/// uploaded clip holds by its samples (the middle of each sentence must be in the clip) and
/// answers with that sentence's text; a clip with none of them gets an empty text.
#[derive(Clone, Default)]
struct Engine {
    /// Requests wait here while a test holds it for writing.
    gate: Arc<tokio::sync::RwLock<()>>,
    requests: Arc<AtomicUsize>,
    /// Requests whose prompt carried the user's vocabulary (a template title of theirs).
    with_vocabulary: Arc<AtomicUsize>,
}

const VOCABULARY_WORD: &str = "Otoscopie links";

async fn transcribe(State(engine): State<Engine>, headers: HeaderMap, body: Bytes) -> axum::Json<Value> {
    let content_type = headers.get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default();
    assert!(content_type.starts_with("multipart/form-data"), "{content_type}");
    let riff = body.windows(4).position(|w| w == b"RIFF").expect("a WAV file part");
    let size = u32::from_le_bytes(body[riff + 4..riff + 8].try_into().unwrap()) as usize + 8;
    let clip = wav::parse(&body[riff..riff + size]).expect("a 16 kHz mono PCM16 WAV");
    engine.requests.fetch_add(1, Ordering::SeqCst);
    let _open = engine.gate.read().await;
    if String::from_utf8_lossy(&body).contains(VOCABULARY_WORD) {
        engine.with_vocabulary.fetch_add(1, Ordering::SeqCst);
    }
    let lines = sentences();
    let text = (1..=lines.len())
        .find(|i| {
            let speech = wav::parse(&fixture(&format!("sentence-{i:02}.wav"))).unwrap();
            let middle = &speech[speech.len() / 2 - 400..speech.len() / 2 + 400];
            clip.windows(middle.len()).any(|w| w == middle)
        })
        .map(|i| lines[i - 1].clone())
        .unwrap_or_default();
    axum::Json(json!({ "text": text }))
}

async fn engine_double() -> (String, Engine) {
    let engine = Engine::default();
    let app = axum::Router::new().route("/v1/audio/transcriptions", post(transcribe)).with_state(engine.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, engine)
}

async fn app_with_engine(pool: PgPool) -> (TestApp, Engine) {
    let (url, engine) = engine_double().await;
    let options = Options { env: vec![("APP_SPEECH_URL", url), ("APP_SPEECH_INTERIM", "0".into())], ..Default::default() };
    (TestApp::spawn_with(pool, options).await, engine)
}

/// Streams samples as the browser does, in 500 ms frames (faster than real time).
async fn stream(socket: &mut Socket, samples: &[i16]) {
    for frame in samples.chunks(8_000) {
        let bytes: Vec<u8> = frame.iter().flat_map(|s| s.to_le_bytes()).collect();
        socket.send(Message::Binary(bytes.into())).await.unwrap();
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

type Sender = futures::stream::SplitSink<Socket, Message>;
type Receiver = futures::stream::SplitStream<Socket>;

/// Streams the consult's first `count` sentences as the browser does (500 ms frames, faster than
/// real time) and reads the socket until `count` finished sentences came; an `error` fails the
/// test. The sender (once all audio is sent), the receiver and the finished lines.
async fn speak_the_consult(ws: Socket, count: usize) -> (tokio::task::JoinHandle<Sender>, Receiver, Vec<Value>) {
    let (mut sender, mut receiver) = ws.split();
    let audio = consult_audio(count);
    let streaming = tokio::spawn(async move {
        for frame in audio.chunks(8_000) {
            let bytes: Vec<u8> = frame.iter().flat_map(|s| s.to_le_bytes()).collect();
            sender.send(Message::Binary(bytes.into())).await.unwrap();
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        sender
    });
    let mut completed: Vec<Value> = Vec::new();
    while completed.len() < count {
        let message = tokio::time::timeout(Duration::from_secs(30), receiver.next()).await.expect("sentences in time").unwrap().unwrap();
        if let Message::Text(text) = message {
            let value: Value = serde_json::from_str(&text).unwrap();
            assert_ne!(value["type"], "error", "{value}");
            if value["type"] == "transcript" {
                completed.extend(value["completed"].as_array().unwrap().iter().cloned());
            }
        }
    }
    (streaming, receiver, completed)
}

#[sqlx::test(migrations = "../migrations")]
async fn spoken_dutch_comes_back_as_sentences_in_order_with_speakers_and_is_summarised(pool: PgPool) {
    let (app, engine) = app_with_engine(pool).await;
    let worker = app.start_worker(&[]);
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let (sid, _) = open_session(&app, &anna).await;
    let mut ws = socket(&app, &anna, &sid).await;
    let ready = next_of(&mut ws, "ready").await;
    assert_eq!(ready["engine"], "openai-transcription");

    let expected = sentences();
    let (streaming, receiver, completed) = speak_the_consult(ws, expected.len()).await;
    let said: Vec<&str> = completed.iter().map(|c| c["sentence"].as_str().unwrap()).collect();
    assert_eq!(said, expected.iter().map(String::as_str).collect::<Vec<_>>(), "one utterance per spoken sentence, in order");
    let numbers: Vec<u64> = completed.iter().map(|c| c["idx"].as_u64().unwrap()).collect();
    assert_eq!(numbers, (0..expected.len() as u64).collect::<Vec<_>>());
    assert_eq!(completed[0]["speaker"], "zorgverlener", "a question");
    assert_eq!(completed[1]["speaker"], "patient", "a complaint in the first person");
    assert_eq!(engine.requests.load(Ordering::SeqCst), expected.len());

    // the spoken transcript is what gets summarised
    let mut sender = streaming.await.unwrap();
    sender.send(Message::Text(json!({"type": "summarize", "request": {"template": "soap"}}).to_string().into())).await.unwrap();
    let mut ws = sender.reunite(receiver).unwrap();
    let summary = next_of(&mut ws, "summarization").await;
    let episode = &summary["result"]["episodes"][0];
    assert!(episode["subjective"].as_str().unwrap().contains("hoofdpijn"), "{episode}");
    assert!(episode["plan"].as_str().unwrap().to_lowercase().contains("paracetamol"), "{episode}");
    worker.stop().await;
}

#[sqlx::test(migrations = "../migrations")]
async fn what_was_said_before_the_socket_dropped_is_kept_and_resent_on_reconnect(pool: PgPool) {
    let (app, _engine) = app_with_engine(pool).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let (sid, _) = open_session(&app, &anna).await;
    let mut ws = socket(&app, &anna, &sid).await;
    next_of(&mut ws, "ready").await;
    // three sentences, and the socket goes before the engine answered the last
    let audio = consult_audio(3);
    stream(&mut ws, &audio).await;
    drop(ws);

    let mut conn = app.state.jobs.connection().await.unwrap();
    let mut kept = Vec::new();
    for _ in 0..300 {
        kept = app.state.consult.transcripts.all(&mut conn, &sid).await.unwrap();
        if kept.len() == 3 && app.state.consult.tasks.get() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(kept.iter().map(|l| l.sentence.as_str()).collect::<Vec<_>>(), sentences()[..3].to_vec());
    assert_eq!(app.state.consult.tasks.get(), 0, "the engine finished and nothing is left running");

    let mut again = socket(&app, &anna, &sid).await;
    assert_eq!(next_of(&mut again, "ready").await["resumed"], true);
    let transcript = next_of(&mut again, "transcript").await;
    assert_eq!(transcript["completed"].as_array().unwrap().len(), 3);
}

#[sqlx::test(migrations = "../migrations")]
async fn an_uploaded_recording_goes_through_the_same_engine_into_the_transcript(pool: PgPool) {
    let (app, engine) = app_with_engine(pool.clone()).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let anna_id = common::claims_of(&anna)["sub"].as_str().unwrap().to_owned();
    let (sid, _) = open_session(&app, &anna).await;
    sqlx::query("insert into template_entries (id, owner_id, title, soep_type, visibility) values (gen_random_uuid(), $1, $2, 'OBJECTIVE', 'PRIVATE')")
        .bind(&anna_id).bind(VOCABULARY_WORD).execute(&pool).await.unwrap();
    let upload = |app: &TestApp, sid: &str, body: Vec<u8>| {
        let request = app.http.post(app.url(&format!("/api/consult/audio/session/{sid}/recording"))).bearer_auth(&anna).body(body);
        async move {
            let response = request.send().await.unwrap();
            (response.status().as_u16(), response.json::<Value>().await.unwrap())
        }
    };
    let (status, body) = upload(&app, &sid, wav::encode(&consult_audio(4))).await;
    assert_eq!(status, 200, "{body}");
    let sentences_back: Vec<&str> = body["completed"].as_array().unwrap().iter().map(|c| c["sentence"].as_str().unwrap()).collect();
    assert_eq!(sentences_back, sentences()[..4].to_vec());
    assert_eq!(engine.requests.load(Ordering::SeqCst), 4);
    assert_eq!(engine.with_vocabulary.load(Ordering::SeqCst), 4, "the user's own words go along in the prompt");
    let mut conn = app.state.jobs.connection().await.unwrap();
    assert_eq!(app.state.consult.transcripts.all(&mut conn, &sid).await.unwrap().len(), 4);

    // undecodable or silent audio: a Dutch error, and the session stays usable
    let (status, body) = upload(&app, &sid, b"dit is geen geluid".to_vec()).await;
    assert_eq!((status, body["error"].as_str()), (400, Some("bad_recording")));
    assert!(body["message"].as_str().unwrap().starts_with("De opname kon niet worden gelezen"), "{body}");
    let (status, body) = upload(&app, &sid, wav::encode(&vec![0i16; 32_000])).await;
    assert_eq!((status, body["message"].as_str()), (400, Some("De opname bevat geen geluid.")));
    let mut ws = socket(&app, &anna, &sid).await;
    assert_eq!(next_of(&mut ws, "ready").await["resumed"], true);

    // no engine: said so
    let plain = TestApp::spawn(pool).await;
    let bram = plain.access_token_for("bram@praktijk.nl").await;
    let (theirs, _) = open_session(&plain, &bram).await;
    let response = plain
        .http
        .post(plain.url(&format!("/api/consult/audio/session/{theirs}/recording")))
        .bearer_auth(&bram)
        .body(wav::encode(&consult_audio(1)))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 409);
    // nor someone else's session
    let bram_here = app.access_token_for("bram@praktijk.nl").await;
    let response = app
        .http
        .post(app.url(&format!("/api/consult/audio/session/{sid}/recording")))
        .bearer_auth(&bram_here)
        .body(wav::encode(&consult_audio(1)))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
}

/// Posts only a request head announcing `length` bytes of body, and reads the answer: a server
/// that read the body first would wait for it forever.
async fn head_only(app: &TestApp, path: &str, token: &str, length: u64) -> (u16, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let host = app.base.trim_start_matches("http://").to_owned();
    let mut stream = tokio::net::TcpStream::connect(&host).await.unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/octet-stream\r\nContent-Length: {length}\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let read = async {
        let mut answer = Vec::new();
        let mut buffer = [0u8; 4096];
        loop {
            let n = stream.read(&mut buffer).await.unwrap();
            assert!(n > 0, "the server closed without a whole answer: {}", String::from_utf8_lossy(&answer));
            answer.extend_from_slice(&buffer[..n]);
            let text = String::from_utf8_lossy(&answer).into_owned();
            let Some(end) = text.find("\r\n\r\n") else { continue };
            let length: usize = text[..end]
                .lines()
                .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse().unwrap()))
                .expect("a content-length");
            if answer.len() >= end + 4 + length {
                let status = text[9..12].parse().unwrap();
                return (status, serde_json::from_slice(&answer[end + 4..end + 4 + length]).unwrap());
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(30), read).await.expect("an answer without the body")
}

#[sqlx::test(migrations = "../migrations")]
async fn a_recording_for_an_unknown_or_someone_elses_session_is_refused_before_its_body_is_read(pool: PgPool) {
    let (app, _) = app_with_engine(pool).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let bram = app.access_token_for("bram@praktijk.nl").await;
    let (sid, _) = open_session(&app, &anna).await;

    let (status, body) = head_only(&app, &format!("/api/consult/audio/session/{sid}/recording"), &bram, 50_000_000).await;
    assert_eq!((status, body["error"].as_str()), (404, Some("not_found")), "{body}");
    let (status, body) = head_only(&app, "/api/consult/audio/session/01JZZZZZZZZZZZZZZZZZZZZZZZ/recording", &anna, 50_000_000).await;
    assert_eq!((status, body["error"].as_str()), (404, Some("not_found")), "{body}");
    // the owner announcing more than the limit is refused before sending it
    let (status, body) = head_only(&app, &format!("/api/consult/audio/session/{sid}/recording"), &anna, 129 * 1024 * 1024).await;
    assert_eq!((status, body["error"].as_str()), (413, Some("recording_too_large")), "{body}");
    assert!(body["message"].as_str().unwrap().starts_with("De opname is te groot: hoogstens 128 MB."), "{body}");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_recording_past_the_limit_is_refused_as_soon_as_it_passes_it(pool: PgPool) {
    let (app, engine) = app_with_engine(pool).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let (sid, _) = open_session(&app, &anna).await;
    // no length announced (chunked), a mebibyte at a time for as long as the server reads
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let host = app.base.trim_start_matches("http://").to_owned();
    let stream = tokio::net::TcpStream::connect(&host).await.unwrap();
    let (mut reading, mut writing) = stream.into_split();
    let answer = tokio::spawn(async move {
        let mut answer = Vec::new();
        let _ = reading.read_to_end(&mut answer).await;
        String::from_utf8_lossy(&answer).into_owned()
    });
    let head = format!(
        "POST /api/consult/audio/session/{sid}/recording HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {anna}\r\n\
         Content-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
    );
    writing.write_all(head.as_bytes()).await.unwrap();
    let chunk = [format!("{:x}\r\n", 1 << 20).into_bytes(), vec![0x55u8; 1 << 20], b"\r\n".to_vec()].concat();
    let write = async {
        let mut sent = 0usize;
        while sent < 1024 && writing.write_all(&chunk).await.is_ok() {
            sent += 1;
        }
        sent
    };
    let sent = tokio::time::timeout(Duration::from_secs(120), write).await.expect("the server stops reading in time");
    // 128 MiB, and what the sockets' buffers hold beyond it
    assert!((128..160).contains(&sent), "{sent} MiB were taken");
    drop(writing);
    let answer = tokio::time::timeout(Duration::from_secs(30), answer).await.expect("closed in time").unwrap();
    // the answer may be lost when the server resets the connection it stopped reading
    if !answer.is_empty() {
        assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
        assert!(answer.contains("recording_too_large"), "{answer}");
    }
    assert_eq!(engine.requests.load(Ordering::SeqCst), 0);
    assert_eq!(app.state.consult.recordings.available(), api::consult::service::RECORDING_SLOTS);
}

#[sqlx::test(migrations = "../migrations")]
async fn uploads_are_transcribed_two_at_a_time_and_the_others_wait_their_turn(pool: PgPool) {
    let (app, engine) = app_with_engine(pool).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let hold = engine.gate.clone().write_owned().await;
    let mut uploads = Vec::new();
    for _ in 0..3 {
        let (sid, _) = open_session(&app, &anna).await;
        let request = app
            .http
            .post(app.url(&format!("/api/consult/audio/session/{sid}/recording")))
            .bearer_auth(&anna)
            .body(wav::encode(&consult_audio(1)));
        uploads.push(tokio::spawn(async move {
            let response = request.send().await.unwrap();
            (response.status().as_u16(), response.json::<Value>().await.unwrap())
        }));
    }
    // two reach the engine and hold both slots while it works; the third waits for one
    tokio::time::timeout(Duration::from_secs(60), async {
        while engine.requests.load(Ordering::SeqCst) < 2 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("two uploads at the engine");
    assert_eq!(app.state.consult.recordings.available(), 0);
    assert_eq!(engine.requests.load(Ordering::SeqCst), 2);

    drop(hold);
    for upload in uploads {
        let (status, body) = tokio::time::timeout(Duration::from_secs(60), upload).await.expect("done in time").unwrap();
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["completed"].as_array().unwrap().len(), 1);
    }
    assert_eq!(engine.requests.load(Ordering::SeqCst), 3);
    assert_eq!(app.state.consult.recordings.available(), api::consult::service::RECORDING_SLOTS);
}

#[path = "../../integrations/tests/support/speaches.rs"]
mod speaches;

/// Uploads a recording into a session.
async fn post_recording(app: &TestApp, token: &str, session: &str, body: Vec<u8>) -> reqwest::Response {
    let path = format!("/api/consult/audio/session/{session}/recording");
    app.http.post(app.url(&path)).bearer_auth(token).body(body).send().await.unwrap()
}

/// The level of each 20 ms of a clip, in dB.
fn envelope(samples: &[i16]) -> Vec<f64> {
    samples
        .chunks(320)
        .map(|chunk| {
            let power = chunk.iter().map(|&s| f64::from(s) * f64::from(s)).sum::<f64>() / chunk.len() as f64;
            (10.0 * (power + 1.0).log10()).max(0.0)
        })
        .collect()
}

/// The speaches double's Whisper for the fixture sentences: the sentence whose loud part's
/// envelope lies best within the clip (the realtime path resamples the audio to 24 kHz and back,
/// so its samples are no longer the fixture's own).
fn by_envelope() -> speaches::Recognise {
    let lines = sentences();
    let shapes: Vec<Vec<f64>> = (1..=lines.len())
        .map(|i| {
            let shape = envelope(&wav::parse(&fixture(&format!("sentence-{i:02}.wav"))).unwrap());
            let loud = |level: &f64| *level > 40.0;
            let first = shape.iter().position(loud).unwrap();
            let last = shape.iter().rposition(loud).unwrap();
            shape[first..=last].to_vec()
        })
        .collect();
    let middles: Vec<Vec<i16>> = (1..=lines.len())
        .map(|i| {
            let speech = wav::parse(&fixture(&format!("sentence-{i:02}.wav"))).unwrap();
            speech[speech.len() / 2 - 400..speech.len() / 2 + 400].to_vec()
        })
        .collect();
    Arc::new(move |clip: &[i16]| {
        // The batch path sends the samples themselves.
        if let Some(i) = middles.iter().position(|middle| clip.windows(middle.len()).any(|w| w == middle.as_slice())) {
            return Some(lines[i].clone());
        }
        let clip = envelope(clip);
        let mut best: Option<(f64, usize)> = None;
        for (i, shape) in shapes.iter().enumerate() {
            for offset in 0..=clip.len().saturating_sub(shape.len()) {
                let Some(window) = clip.get(offset..offset + shape.len()) else { continue };
                // Loud audio the sentence does not account for counts against it.
                let outside = clip[..offset].iter().chain(&clip[offset + shape.len()..]).filter(|level| **level > 40.0).count();
                let distance =
                    (window.iter().zip(shape).map(|(a, b)| (a - b).abs()).sum::<f64>() + 20.0 * outside as f64) / shape.len() as f64;
                if best.is_none_or(|(d, _)| distance < d) {
                    best = Some((distance, i));
                }
            }
        }
        best.filter(|(distance, _)| *distance < 6.0).map(|(_, i)| lines[i].clone())
    })
}

async fn app_with_speaches(pool: PgPool, double: speaches::Double) -> (TestApp, speaches::Shared) {
    let (url, double) = speaches::start(double).await;
    let env = vec![("APP_SPEECH_URL", url), ("APP_SPEECH_MODE", "realtime".into()), ("APP_SPEECH_INTERIM", "0".into())];
    (TestApp::spawn_with(pool, Options { env, ..Default::default() }).await, double)
}

#[sqlx::test(migrations = "../migrations")]
async fn in_realtime_mode_a_live_consult_gives_every_sentence_even_when_speaches_fails_one(pool: PgPool) {
    let expected = sentences();
    let double = speaches::Double { fail_text: Some(expected[2].clone()), ..speaches::Double::new(by_envelope()) };
    let (app, double) = app_with_speaches(pool, double).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let (sid, _) = open_session(&app, &anna).await;
    let mut ws = socket(&app, &anna, &sid).await;
    assert_eq!(next_of(&mut ws, "ready").await["engine"], "realtime");
    let (_streaming, _receiver, completed) = speak_the_consult(ws, expected.len()).await;
    let said: Vec<&str> = completed.iter().map(|c| c["sentence"].as_str().unwrap()).collect();
    assert_eq!(said, expected);
    let double = double.lock().unwrap();
    assert!(double.failed_once, "the injected failure never happened");
    assert!(double.batch.contains(&expected[2]), "the failed sentence came through the batch path: {:?}", double.batch);
    assert!(double.sessions >= 2, "a new session after the failure");
    assert!(double.violations.is_empty(), "{:?}", double.violations);
}

#[sqlx::test(migrations = "../migrations")]
async fn in_realtime_mode_a_recording_takes_the_batch_endpoint_and_gives_every_sentence(pool: PgPool) {
    let (app, double) = app_with_speaches(pool, speaches::Double::new(by_envelope())).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let (sid, _) = open_session(&app, &anna).await;
    let response = post_recording(&app, &anna, &sid, wav::encode(&consult_audio(sentences().len()))).await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    let back: Vec<&str> = body["completed"].as_array().unwrap().iter().map(|c| c["sentence"].as_str().unwrap()).collect();
    assert_eq!(back, sentences());
    let double = double.lock().unwrap();
    assert_eq!(double.sessions, 0, "no realtime session for a recording");
    // requests overlap, so they reach the double in any order
    let mut batch = double.batch.clone();
    batch.sort();
    let mut expected = sentences();
    expected.sort();
    assert_eq!(batch, expected);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_speech_model_still_downloading_is_said_once_per_recording(pool: PgPool) {
    // speaches answers 404 "is not installed locally" until the model is there (routers/utils.py:22-28).
    async fn not_installed() -> (axum::http::StatusCode, axum::Json<Value>) {
        let detail = "Model 'Systran/faster-whisper-large-v3' is not installed locally. You can download the model using `POST /v1/models`";
        (axum::http::StatusCode::NOT_FOUND, axum::Json(json!({ "detail": detail })))
    }
    let app = axum::Router::new().route("/v1/audio/transcriptions", post(not_installed));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let app = TestApp::spawn_with(pool, Options { env: vec![("APP_SPEECH_URL", url)], ..Default::default() }).await;
    let anna = app.access_token_for("anna@praktijk.nl").await;
    let (sid, _) = open_session(&app, &anna).await;
    let response = post_recording(&app, &anna, &sid, wav::encode(&consult_audio(3))).await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    let problems = body["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{body}");
    assert_eq!(problems[0]["code"], "engine_loading");
    assert!(problems[0]["message"].as_str().unwrap().contains("spraakmodel wordt nog geladen"), "{body}");
}
