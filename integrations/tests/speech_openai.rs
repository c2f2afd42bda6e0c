//! The batch engine against a test double of `POST /v1/audio/transcriptions` on loopback.
//!
//! The double speaks the real wire format (a multipart form in, `{"text": ...}` out) and answers
//! from the audio itself: it finds each uploaded clip in the recording the test streamed, and
//! answers with the line of the sentence the clip covers, the whole line when the clip reaches
//! the end of the sentence and the first words otherwise (as an engine would for an interim
//! transcription of a sentence in progress).

use std::collections::HashMap;
use std::ops::Range;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::{Multipart, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use integrations::speech::EngineSettings;
use integrations::speech::config::Engines;
use integrations::speech::openai::{MAX_WAITING, OpenAiTranscription};
use integrations::speech::{AudioModel, SharedEngine, SpeechEvent, StreamOptions, wav};
use serde_json::json;
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;

const FRAME: usize = 8_000; // 500 ms, as the browser sends
const RATE: usize = 16_000;

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/speech/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The consult as the browser would stream it: near silence, then each sentence followed by a
/// second of near silence.
struct Consult {
    samples: Vec<i16>,
    sentences: Vec<(Range<usize>, String)>,
}

fn consult() -> Consult {
    let lines: Vec<String> = String::from_utf8(fixture("sentences.txt")).unwrap().lines().map(str::to_string).collect();
    let room = wav::parse(&fixture("silence.wav")).expect("silence.wav is 16 kHz mono PCM16");
    let pause = &room[..RATE];
    let mut samples = pause.to_vec();
    let mut sentences = Vec::new();
    for (i, line) in lines.into_iter().enumerate() {
        let speech = wav::parse(&fixture(&format!("sentence-{:02}.wav", i + 1))).expect("a 16 kHz mono PCM16 WAV");
        let start = samples.len();
        samples.extend_from_slice(&speech);
        sentences.push((start..samples.len(), line));
        samples.extend_from_slice(pause);
    }
    assert!(sentences.len() >= 6);
    Consult { samples, sentences }
}

/// What the double was asked.
#[derive(Clone, Debug)]
struct Call {
    /// Requests before this one.
    n: usize,
    /// The sentence the clip covers, if it was found in the recording.
    sentence: Option<usize>,
    /// Where the clip starts in the recording.
    offset: usize,
    /// Whether the clip reaches the end of that sentence.
    full: bool,
    /// What an honest engine would answer.
    honest: String,
}

enum Reply {
    Text(String),
    Status(u16),
    Never,
}

type Behaviour = Arc<dyn Fn(&Call) -> Reply + Send + Sync>;

#[derive(Clone, Debug)]
struct Recorded {
    call: Call,
    /// Sentences the clip overlaps.
    overlaps: usize,
    fields: HashMap<String, String>,
    authorization: Option<String>,
}

#[derive(Clone)]
struct Double {
    stream: Arc<Vec<i16>>,
    sentences: Arc<Vec<(Range<usize>, String)>>,
    behaviour: Behaviour,
    recorded: Arc<Mutex<Vec<Recorded>>>,
    errors: Arc<Mutex<Vec<String>>>,
}

impl Double {
    fn recorded(&self) -> Vec<Recorded> {
        self.recorded.lock().unwrap().clone()
    }

    fn errors(&self) -> Vec<String> {
        self.errors.lock().unwrap().clone()
    }

    /// Where `clip` sits in the recording: found by its loudest window, then checked sample by
    /// sample.
    fn locate(&self, clip: &[i16]) -> Option<usize> {
        const PROBE: usize = 320;
        if clip.len() < PROBE {
            return None;
        }
        let loudest = (0..=clip.len() - PROBE)
            .step_by(PROBE / 2)
            .max_by_key(|&i| clip[i..i + PROBE].iter().map(|&s| i64::from(s).abs()).sum::<i64>())?;
        let probe = &clip[loudest..loudest + PROBE];
        (loudest..=self.stream.len().saturating_sub(clip.len() - loudest))
            .find(|&p| &self.stream[p..p + PROBE] == probe)
            .map(|p| p - loudest)
            .filter(|&offset| self.stream[offset..offset + clip.len()] == *clip)
    }

    fn call(&self, n: usize, clip: &[i16]) -> (Call, usize) {
        let Some(offset) = self.locate(clip) else {
            return (Call { n, sentence: None, offset: 0, full: false, honest: String::new() }, 0);
        };
        let end = offset + clip.len();
        let overlapping: Vec<usize> =
            self.sentences.iter().enumerate().filter(|(_, (range, _))| range.start < end && offset < range.end).map(|(i, _)| i).collect();
        let Some(&sentence) = overlapping.first() else {
            return (Call { n, sentence: None, offset: 0, full: false, honest: String::new() }, 0);
        };
        let (range, line) = &self.sentences[sentence];
        let full = end >= range.end;
        let honest = if full {
            line.clone()
        } else {
            let words: Vec<&str> = line.split_whitespace().collect();
            let heard = (end.max(range.start) - range.start) * words.len() / range.len();
            words[..heard].join(" ")
        };
        (Call { n, sentence: Some(sentence), offset, full, honest }, overlapping.len())
    }
}

async fn transcriptions(State(double): State<Double>, headers: HeaderMap, mut form: Multipart) -> Response {
    let mut fields = HashMap::new();
    let mut clip = None;
    let mut problems = Vec::new();
    loop {
        let field = match form.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => break,
            Err(e) => {
                problems.push(format!("unreadable multipart body: {e}"));
                break;
            }
        };
        let name = field.name().unwrap_or_default().to_string();
        if name == "file" {
            if field.file_name() != Some("audio.wav") {
                problems.push(format!("file name {:?}", field.file_name()));
            }
            if field.content_type() != Some("audio/wav") {
                problems.push(format!("content type {:?}", field.content_type()));
            }
            match field.bytes().await.map_err(|e| e.to_string()).and_then(|b| wav::parse(&b).map_err(|e| e.to_string())) {
                Ok(samples) => clip = Some(samples),
                Err(e) => problems.push(format!("file is no 16 kHz mono PCM16 WAV: {e}")),
            }
        } else {
            fields.insert(name, field.text().await.unwrap_or_default());
        }
    }
    for (name, expected) in [("language", "nl"), ("response_format", "json"), ("temperature", "0")] {
        if fields.get(name).map(String::as_str) != Some(expected) {
            problems.push(format!("{name} is {:?}, not {expected}", fields.get(name)));
        }
    }
    if !fields.contains_key("model") {
        problems.push("no model".to_string());
    }
    if clip.is_none() && problems.is_empty() {
        problems.push("no file".to_string());
    }
    let Some(clip) = clip.filter(|_| problems.is_empty()) else {
        double.errors.lock().unwrap().extend(problems);
        return (StatusCode::BAD_REQUEST, "bad request").into_response();
    };

    let reply = {
        let mut recorded = double.recorded.lock().unwrap();
        let (call, overlaps) = double.call(recorded.len(), &clip);
        let reply = (double.behaviour)(&call);
        let authorization = headers.get("authorization").and_then(|v| v.to_str().ok()).map(str::to_string);
        recorded.push(Recorded { call, overlaps, fields, authorization });
        reply
    };
    match reply {
        Reply::Text(text) => axum::Json(json!({ "text": text })).into_response(),
        Reply::Status(code) => (StatusCode::from_u16(code).unwrap(), axum::Json(json!({ "error": { "message": "test" } }))).into_response(),
        Reply::Never => std::future::pending().await,
    }
}

async fn serve(consult: &Consult, behaviour: Behaviour) -> (String, Double) {
    let double = Double {
        stream: Arc::new(consult.samples.clone()),
        sentences: Arc::new(consult.sentences.clone()),
        behaviour,
        recorded: Arc::default(),
        errors: Arc::default(),
    };
    let app = Router::new().route("/v1/audio/transcriptions", post(transcriptions)).with_state(double.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, double)
}

fn honest() -> Behaviour {
    Arc::new(|call: &Call| Reply::Text(call.honest.clone()))
}

fn settings(url: &str, interim_ms: u64) -> EngineSettings {
    EngineSettings {
        url: url.to_string(),
        model: "Systran/faster-whisper-large-v3".to_string(),
        api_key: None,
        prompt: "Een consult bij de huisarts.".to_string(),
        interim: Duration::from_millis(interim_ms),
        timeout: Duration::from_secs(20),
    }
}

/// Streams `samples` in 500 ms frames through a channel of capacity 4, waiting `pace` after each
/// frame, and returns what `run` returned and every event, in order.
async fn stream(
    engine: SharedEngine,
    options: StreamOptions,
    samples: &[i16],
    pace: Duration,
) -> (Result<(), integrations::speech::SpeechError>, Vec<SpeechEvent>) {
    let (audio_tx, audio_rx) = mpsc::channel(4);
    let (events_tx, mut events_rx) = mpsc::channel(16);
    let run = tokio::spawn(engine.run(options, audio_rx, events_tx));
    let frames: Vec<Vec<i16>> = samples.chunks(FRAME).map(<[i16]>::to_vec).collect();
    let feeder = tokio::spawn(async move {
        for frame in frames {
            audio_tx.send(frame).await.expect("the engine reads until the end");
            tokio::time::sleep(pace).await;
        }
    });
    let collect = async {
        let mut events = Vec::new();
        while let Some(event) = events_rx.recv().await {
            events.push(event);
        }
        events
    };
    let events = tokio::time::timeout(Duration::from_secs(180), collect).await.expect("the stream ends");
    feeder.await.unwrap();
    let result = run.await.unwrap();
    (result, events)
}

fn completed(events: &[SpeechEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            SpeechEvent::Completed { sentence, speaker } => {
                assert_eq!(*speaker, None);
                Some(sentence.clone())
            }
            _ => None,
        })
        .collect()
}

fn lines(consult: &Consult) -> Vec<String> {
    consult.sentences.iter().map(|(_, line)| line.clone()).collect()
}

#[tokio::test]
async fn a_consult_comes_out_sentence_by_sentence_in_order() {
    let consult = consult();
    let (url, double) = serve(&consult, honest()).await;
    let engine = OpenAiTranscription::new(EngineSettings { api_key: Some("sk-test".into()), ..settings(&url, 500) });
    let options = StreamOptions { model: AudioModel::Multilingual, vocabulary: vec!["paracetamol".into()] };
    let (result, events) = stream(Arc::new(engine), options, &consult.samples, Duration::from_millis(150)).await;
    result.unwrap();

    assert_eq!(double.errors(), Vec::<String>::new(), "every request was a valid form with a valid WAV");
    let recorded = double.recorded();
    for request in &recorded {
        assert!(request.call.sentence.is_some(), "request {} is audio of the recording, unaltered", request.call.n);
        assert_eq!(request.overlaps, 1, "request {} covers one sentence", request.call.n);
        assert_eq!(request.fields["model"], "Systran/faster-whisper-large-v3");
        assert_eq!(request.fields["prompt"], "Een consult bij de huisarts. paracetamol.");
        assert_eq!(request.authorization.as_deref(), Some("Bearer sk-test"));
    }
    // The segmenter found each sentence as one utterance: every clip of a sentence starts at the
    // same place (interims and the final of one utterance), and the longest reaches its end.
    for sentence in 0..consult.sentences.len() {
        let clips: Vec<&Call> = recorded.iter().map(|r| &r.call).filter(|c| c.sentence == Some(sentence)).collect();
        assert!(!clips.is_empty(), "sentence {sentence} was transcribed");
        assert!(clips.iter().all(|c| c.offset == clips[0].offset), "sentence {sentence} is one utterance");
        assert!(clips.iter().any(|c| c.full), "sentence {sentence} was transcribed to its end");
    }

    assert_eq!(completed(&events), lines(&consult));
    // Interim buffers of a sentence come before it is completed; each completed sentence is
    // followed by an empty buffer.
    let lines = lines(&consult);
    let mut next = 0;
    let mut interims = 0;
    for (i, event) in events.iter().enumerate() {
        match event {
            SpeechEvent::Buffer(text) if !text.is_empty() => {
                assert!(lines[next].starts_with(text.as_str()), "buffer {text:?} before {:?}", lines[next]);
                interims += 1;
            }
            SpeechEvent::Completed { sentence, .. } => {
                assert_eq!(sentence, &lines[next]);
                assert_eq!(events.get(i + 1), Some(&SpeechEvent::Buffer(String::new())));
                next += 1;
            }
            SpeechEvent::Buffer(_) => {}
            SpeechEvent::Trouble { .. } => panic!("{event:?}"),
        }
    }
    assert_eq!(next, lines.len());
    assert!(interims > 0, "interim transcriptions were shown");
    assert_eq!(events.last(), Some(&SpeechEvent::Buffer(String::new())));
}

#[tokio::test]
async fn invented_phrases_are_dropped_and_repetitions_collapsed() {
    let consult = consult();
    let behaviour: Behaviour = Arc::new(|call: &Call| {
        Reply::Text(match call.sentence {
            Some(0) => "Ondertiteld door de Amara.org gemeenschap".to_string(),
            Some(1) => "Ik heb al drie dagen hoofdpijn, hoofdpijn, hoofdpijn, hoofdpijn. \
                 Bedankt voor het kijken!"
                .to_string(),
            Some(2) => "Bent u ook misselijk? Ondertiteling: TV Gelderland 2021".to_string(),
            _ => call.honest.clone(),
        })
    });
    let (url, double) = serve(&consult, behaviour).await;
    let engine = OpenAiTranscription::new(settings(&url, 0));
    let (result, events) = stream(Arc::new(engine), StreamOptions::default(), &consult.samples, Duration::ZERO).await;
    result.unwrap();
    assert_eq!(double.errors(), Vec::<String>::new());
    assert_eq!(double.recorded().len(), consult.sentences.len(), "one request per sentence, no interims");
    let mut expected = lines(&consult)[1..].to_vec();
    expected[0] = "Ik heb al drie dagen hoofdpijn.".to_string();
    assert_eq!(completed(&events), expected);
    assert_eq!(events.last(), Some(&SpeechEvent::Buffer(String::new())));
}

#[tokio::test]
async fn a_busy_engine_is_asked_again_and_nothing_is_lost() {
    let consult = consult();
    let behaviour: Behaviour = Arc::new(|call: &Call| if call.n < 2 { Reply::Status(503) } else { Reply::Text(call.honest.clone()) });
    let (url, double) = serve(&consult, behaviour).await;
    let engine = OpenAiTranscription::new(settings(&url, 0));
    let (result, events) = stream(Arc::new(engine), StreamOptions::default(), &consult.samples, Duration::ZERO).await;
    result.unwrap();
    assert_eq!(completed(&events), lines(&consult));
    assert!(!events.iter().any(|e| matches!(e, SpeechEvent::Trouble { .. })));
    assert_eq!(double.recorded().len(), consult.sentences.len() + 2, "the two refusals were retried");
}

#[tokio::test]
async fn an_engine_that_stays_down_costs_one_part_and_the_stream_goes_on() {
    let consult = consult();
    let behaviour: Behaviour = Arc::new(|call: &Call| match call.sentence {
        Some(2) => Reply::Status(503),
        Some(4) => Reply::Status(400),
        _ => Reply::Text(call.honest.clone()),
    });
    let (url, double) = serve(&consult, behaviour).await;
    let engine = OpenAiTranscription::new(settings(&url, 0));
    let (result, events) = stream(Arc::new(engine), StreamOptions::default(), &consult.samples, Duration::ZERO).await;
    result.unwrap();

    let lines = lines(&consult);
    let shown: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            SpeechEvent::Completed { sentence, .. } => Some(sentence.clone()),
            SpeechEvent::Trouble { code, message } => {
                assert!(message.starts_with("Een deel van de opname kon niet worden omgezet in tekst"));
                Some(format!("<{code}>"))
            }
            SpeechEvent::Buffer(_) => None,
        })
        .collect();
    let mut expected = lines.clone();
    expected[2] = "<engine_unavailable>".to_string();
    expected[4] = "<engine_rejected>".to_string();
    assert_eq!(shown, expected);

    let attempts = |sentence| double.recorded().iter().filter(|r| r.call.sentence == Some(sentence)).count();
    assert_eq!(attempts(2), 4, "a 503 is tried four times");
    assert_eq!(attempts(4), 1, "a 400 is not retried");
    assert_eq!(attempts(3), 1);
}

#[tokio::test]
async fn silence_costs_no_request_at_all() {
    let consult = consult();
    let (url, double) = serve(&consult, honest()).await;
    let engine = OpenAiTranscription::new(settings(&url, 500));
    let room = wav::parse(&fixture("silence.wav")).unwrap();
    let mut samples: Vec<i16> = room.iter().copied().cycle().take(room.len() * 10).collect();
    samples.extend(std::iter::repeat_n(0, 5 * RATE));
    let (result, events) = stream(Arc::new(engine), StreamOptions::default(), &samples, Duration::ZERO).await;
    result.unwrap();
    assert_eq!(events, vec![]);
    assert_eq!(double.recorded().len(), 0);
}

#[tokio::test]
async fn radiology_streams_use_the_radiology_model_and_prompt() {
    let consult = consult();
    let (url, double) = serve(&consult, honest()).await;
    let vars: HashMap<&str, String> = HashMap::from([
        ("APP_SPEECH_URL", url.clone()),
        ("APP_SPEECH_RADIOLOGY_MODEL", "radiologie-large".to_string()),
        ("APP_SPEECH_RADIOLOGY_PROMPT", "Thoraxfoto.".to_string()),
        ("APP_SPEECH_INTERIM", "0".to_string()),
    ]);
    let engines = Engines::from_lookup(|name| vars.get(name).cloned()).unwrap();
    let engine = engines.get(AudioModel::Radiology).unwrap();
    let first = &consult.samples[..consult.sentences[1].0.start];
    let options = StreamOptions { model: AudioModel::Radiology, vocabulary: vec![] };
    let (result, events) = stream(engine, options, first, Duration::ZERO).await;
    result.unwrap();
    assert_eq!(completed(&events), lines(&consult)[..1]);
    let recorded = double.recorded();
    assert_eq!(recorded.len(), 1);
    assert_eq!(recorded[0].fields["model"], "radiologie-large");
    assert_eq!(recorded[0].fields["prompt"], "Thoraxfoto.");
    assert_eq!(recorded[0].authorization, None);
}

#[tokio::test]
async fn an_engine_that_does_not_answer_makes_the_caller_wait() {
    let consult = consult();
    let behaviour: Behaviour = Arc::new(|_: &Call| Reply::Never);
    let (url, double) = serve(&consult, behaviour).await;
    let engine = OpenAiTranscription::new(EngineSettings { timeout: Duration::from_secs(3), ..settings(&url, 0) })
        .with_backoff(vec![Duration::from_millis(50); 3]);
    let engine: SharedEngine = Arc::new(engine);

    let (audio_tx, audio_rx) = mpsc::channel(4);
    let (events_tx, mut events_rx) = mpsc::channel(64);
    let run = tokio::spawn(engine.run(StreamOptions::default(), audio_rx, events_tx));

    // Stream the consult three times over; the engine must stop reading long before the end.
    let frames: Vec<Vec<i16>> = consult.samples.repeat(3).chunks(FRAME).map(<[i16]>::to_vec).collect();
    let mut sent = 0;
    let mut blocked = false;
    for frame in &frames {
        match tokio::time::timeout(Duration::from_secs(1), audio_tx.send(frame.clone())).await {
            Ok(result) => {
                result.unwrap();
                sent += 1;
            }
            Err(_) => {
                blocked = true;
                break;
            }
        }
    }
    assert!(blocked, "the engine stopped reading audio");
    assert!(matches!(audio_tx.try_send(frames[sent].clone()), Err(TrySendError::Full(_))));
    assert!(sent * FRAME < consult.samples.len(), "at most {MAX_WAITING} utterances and a full channel were taken in ({sent} frames)");
    assert!(double.recorded().len() <= MAX_WAITING);

    // The caller hangs up: the stream still ends, once the requests gave up.
    drop(audio_tx);
    let result = tokio::time::timeout(Duration::from_secs(180), run).await.expect("run ends").unwrap();
    result.unwrap();
    let mut events = Vec::new();
    while let Ok(event) = events_rx.try_recv() {
        events.push(event);
    }
    assert!(completed(&events).is_empty());
    let troubles = events.iter().filter(|e| matches!(e, SpeechEvent::Trouble { code: "engine_unavailable", .. })).count();
    let utterances = double.recorded().len() / 4;
    assert!(troubles >= MAX_WAITING, "{troubles} parts reported lost");
    assert_eq!(troubles, utterances, "every utterance was tried four times and reported");
    assert_eq!(double.errors(), Vec::<String>::new());
}
