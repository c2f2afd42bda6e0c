//! The live-consult benchmark (`bench/speech/run.sh`): a fast speech-engine double and a load
//! client for one api process.
//!
//! ```text
//! speech_bench double --addr 127.0.0.1:9300
//! speech_bench run --url http://127.0.0.1:8080 --api-pid PID [--double http://127.0.0.1:9300]
//!     [--double-pid PID] [--sessions 1000] [--seconds 120] [--ramp 10] [--summaries 100]
//!     [--summary-concurrency 4] [--summary-timeout 20] [--email huisarts@example.nl]
//!     [--results bench/speech/results.jsonl] [--label TEXT]
//! ```
//!
//! `double` answers `POST /v1/audio/transcriptions` (the OpenAI-compatible multipart form the
//! batch engine sends) at once with a Dutch sentence, and `GET /stats` with its counters. It never
//! looks at the audio beyond checking that the form carries a WAV file.
//!
//! `run` opens `--sessions` live sessions for one user, ramps their websockets up over `--ramp`
//! seconds, and has each send a 500 ms PCM16 frame every 500 ms for `--seconds` after the ramp
//! (2 s of syllable-shaped tones, then 1 s of near-silence, repeating, so the api's voice
//! detection cuts utterances), plus a `ping` every 10 s. A socket refused as busy (1013) tries
//! again after the server's retry delay plus up to as much again at random, as the page does, for
//! up to 60 s. Once the streams are steady it times `--summaries` summaries on distinct streaming
//! sessions, `--summary-concurrency` at a time, each given `--summary-timeout` seconds (past it
//! it counts as failed); after the streams are closed it times as many, one after the other, on
//! an otherwise idle api. The report is written whatever happens, with the sessions that never
//! became ready counted by reason. It reports the api's frame handling
//! (`speech_frame_seconds` from `/metrics`), the client's ping round trips, the api's resident
//! memory and CPU time, and the summaries' overhead (from the `summarize` message to the
//! `summarization` result, minus the summariser's own `engineMillis`). One JSON line per run is
//! appended to `--results`; a summary goes to stdout.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::{mpsc, watch};
use tokio::time::MissedTickBehavior;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::{self, Message};

const USAGE: &str = "usage: speech_bench double [--addr HOST:PORT]\n       speech_bench run --url URL --api-pid PID [--double URL] [--double-pid PID] [--sessions N] [--seconds S] [--ramp S] [--summaries N] [--summary-concurrency N] [--summary-timeout S] [--email E] [--results FILE] [--label TEXT]";

const SAMPLE_RATE: usize = 16_000;
/// One frame: 500 ms of 16 kHz mono PCM16 (16,000 bytes).
const FRAME_SAMPLES: usize = SAMPLE_RATE / 2;
const FRAME_EVERY: Duration = Duration::from_millis(500);
const PING_EVERY: Duration = Duration::from_secs(10);
/// The audio pattern: this many frames of speech-like sound, then this many of near-silence.
const SPEECH_FRAMES: usize = 4;
const QUIET_FRAMES: usize = 2;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_default();
    let opts = Opts::parse(args)?;
    match mode.as_str() {
        "double" => double(&opts).await,
        "run" => run(&opts).await,
        _ => bail!("{USAGE}"),
    }
}

/// `--key value` pairs.
struct Opts(HashMap<String, String>);

impl Opts {
    fn parse(args: impl Iterator<Item = String>) -> anyhow::Result<Self> {
        let mut map = HashMap::new();
        let mut args = args.peekable();
        while let Some(arg) = args.next() {
            let key = arg.strip_prefix("--").ok_or_else(|| anyhow!("unexpected {arg:?}\n{USAGE}"))?;
            let value = args.next().ok_or_else(|| anyhow!("--{key} needs a value\n{USAGE}"))?;
            map.insert(key.to_owned(), value);
        }
        Ok(Self(map))
    }

    fn string(&self, key: &str, default: &str) -> String {
        self.0.get(key).cloned().unwrap_or_else(|| default.to_owned())
    }

    fn number<T: std::str::FromStr>(&self, key: &str, default: T) -> anyhow::Result<T> {
        match self.0.get(key) {
            Some(v) => v.parse().map_err(|_| anyhow!("--{key}: not a number: {v:?}")),
            None => Ok(default),
        }
    }

    fn required(&self, key: &str) -> anyhow::Result<String> {
        self.0.get(key).cloned().ok_or_else(|| anyhow!("--{key} is required\n{USAGE}"))
    }
}

// ---------------------------------------------------------------------------------------------
// The engine double

/// What the double answers, in turn: sentences a GP consult might contain.
const SENTENCES: &[&str] = &[
    "Ik heb sinds drie dagen last van hoofdpijn.",
    "Heeft u ook koorts gehad?",
    "Ja, gisteravond was het achtendertig vijf.",
    "Ik ga even naar uw keel kijken.",
    "De pijn zit vooral aan de rechterkant.",
    "Gebruikt u op dit moment medicijnen?",
    "Alleen paracetamol, twee keer per dag.",
    "Uw bloeddruk is honderddertig over vijfentachtig.",
    "Ik slaap de laatste tijd erg slecht.",
    "We spreken af dat u over twee weken terugkomt.",
    "Als het erger wordt, belt u dan de praktijk.",
    "Het hoesten is vooral 's nachts.",
];

#[derive(Default)]
struct DoubleStats {
    requests: AtomicU64,
    bytes: AtomicU64,
    rejected: AtomicU64,
}

async fn double(opts: &Opts) -> anyhow::Result<()> {
    let addr: SocketAddr = opts.string("addr", "127.0.0.1:9300").parse().context("--addr")?;
    let stats = Arc::new(DoubleStats::default());
    let app = Router::new()
        .route("/v1/audio/transcriptions", post(transcribe))
        .route("/stats", get(double_stats))
        .layer(DefaultBodyLimit::max(8 << 20))
        .with_state(stats);
    let listener = tokio::net::TcpListener::bind(addr).await.with_context(|| format!("bind {addr}"))?;
    println!("speech double on http://{addr}");
    axum::serve(listener, app).await?;
    Ok(())
}

fn find(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Checks that the form carries a WAV `file` (first) and a `model` (after the audio), and
/// answers with the next sentence.
async fn transcribe(State(stats): State<Arc<DoubleStats>>, body: Bytes) -> Response {
    let head = &body[..body.len().min(512)];
    let tail = &body[body.len().saturating_sub(4096)..];
    if !(find(head, b"name=\"file\"") && find(head, b"RIFF") && find(tail, b"name=\"model\"")) {
        stats.rejected.fetch_add(1, Ordering::Relaxed);
        let error = json!({"error": {"message": "expected a multipart form with a WAV file and a model"}});
        return (StatusCode::BAD_REQUEST, axum::Json(error)).into_response();
    }
    let n = stats.requests.fetch_add(1, Ordering::Relaxed);
    stats.bytes.fetch_add(body.len() as u64, Ordering::Relaxed);
    axum::Json(json!({"text": SENTENCES[n as usize % SENTENCES.len()]})).into_response()
}

async fn double_stats(State(stats): State<Arc<DoubleStats>>) -> axum::Json<Value> {
    axum::Json(json!({
        "requests": stats.requests.load(Ordering::Relaxed),
        "bytes": stats.bytes.load(Ordering::Relaxed),
        "rejected": stats.rejected.load(Ordering::Relaxed),
    }))
}

// ---------------------------------------------------------------------------------------------
// The audio

/// A tiny deterministic generator for noise and offsets.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in [-1, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// The frames of one period of the pattern: 2 s of syllables (a voiced tone with harmonics and
/// some noise, under a raised-cosine envelope of 180 ms with 40 ms gaps; about −18 dBFS), then 1 s
/// of faint noise (about −70 dBFS), as little-endian PCM16.
fn audio_pattern() -> Vec<tungstenite::Bytes> {
    let mut rng = XorShift(0x5eed_cafe_f00d_1234);
    let speech = SPEECH_FRAMES * FRAME_SAMPLES;
    let total = (SPEECH_FRAMES + QUIET_FRAMES) * FRAME_SAMPLES;
    let syllable = SAMPLE_RATE * 220 / 1000;
    let voiced = SAMPLE_RATE * 180 / 1000;
    let mut samples = Vec::with_capacity(total);
    for n in 0..total {
        let t = n as f64 / SAMPLE_RATE as f64;
        let value = if n < speech {
            let k = n % syllable;
            let envelope = if k < voiced { (std::f64::consts::PI * k as f64 / voiced as f64).sin().powi(2) } else { 0.0 };
            // the pitch drifts a little from syllable to syllable
            let f0 = 120.0 + 25.0 * ((n / syllable) % 5) as f64;
            let tone: f64 = (1..=6).map(|h| (2.0 * std::f64::consts::PI * f0 * h as f64 * t).sin() / h as f64).sum();
            envelope * (5_000.0 * tone / 2.45 + 600.0 * rng.unit()) + 8.0 * rng.unit()
        } else {
            8.0 * rng.unit()
        };
        samples.push(value.round().clamp(-32_768.0, 32_767.0) as i16);
    }
    samples
        .chunks_exact(FRAME_SAMPLES)
        .map(|frame| tungstenite::Bytes::from(frame.iter().flat_map(|s| s.to_le_bytes()).collect::<Vec<u8>>()))
        .collect()
}

/// A typed GP consult of 25 sentences (fiction).
const CONSULT: &str = "Goedemorgen, gaat u zitten. Wat kan ik voor u doen? \
Ik heb nu ruim een week last van hoesten en ik voel me erg moe. \
Heeft u ook koorts gehad? \
De eerste dagen wel, tot achtendertig vijf, nu niet meer. \
Bent u kortademig bij traplopen of bij rust? \
Bij traplopen merk ik het wel, in rust eigenlijk niet. \
Hoest u slijm op, en zo ja, welke kleur heeft het? \
Het is geelgroen, vooral 's ochtends. \
Heeft u pijn op de borst bij het ademhalen? \
Nee, alleen een beetje spierpijn van het hoesten. \
Rookt u? \
Ik ben drie jaar geleden gestopt. \
Gebruikt u medicijnen of heeft u allergieën? \
Ik gebruik alleen paracetamol en ik ben niet allergisch. \
Ik ga even naar uw longen luisteren. \
Ik hoor rechtsonder wat crepitaties, links is het schoon. \
De saturatie is zesennegentig procent en de temperatuur is zevenendertig acht. \
De ademfrequentie is achttien per minuut en de pols is tachtig. \
Ik denk aan een luchtweginfectie, mogelijk een beginnende longontsteking rechtsonder. \
Ik schrijf u amoxicilline voor, drie keer per dag vijfhonderd milligram, zeven dagen lang. \
Neem de kuur helemaal af, ook als u zich eerder beter voelt. \
Drink voldoende en neem rust. \
Als u benauwder wordt of weer hoge koorts krijgt, belt u dan direct de praktijk. \
Ik zie u over een week terug voor controle. \
Dank u wel, dokter, tot volgende week.";

// ---------------------------------------------------------------------------------------------
// The load client

#[derive(Default)]
struct Counters {
    connected: AtomicU64,
    connect_failed: AtomicU64,
    /// Refusals as busy (1013) that the session waited out and tried again after.
    busy_refusals: AtomicU64,
    closed_early: AtomicU64,
    frames_sent: AtomicU64,
    /// Frame ticks that came more than 250 ms late (the sender was held up).
    frames_late: AtomicU64,
    transcripts: AtomicU64,
    sentences: AtomicU64,
    server_errors: AtomicU64,
    /// (seconds since the start of the run, round trip in ms)
    pings: Mutex<Vec<(f64, f64)>>,
    /// The first few reasons a session failed or closed early.
    failures: Mutex<Vec<String>>,
    /// Why sessions never became ready, counted by reason.
    never_ready: Mutex<HashMap<String, u64>>,
}

impl Counters {
    fn never_ready(&self, why: &str) {
        *self.never_ready.lock().unwrap_or_else(|e| e.into_inner()).entry(why.to_owned()).or_default() += 1;
    }

    fn failure(&self, why: String) {
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        if failures.len() < 10 {
            failures.push(why);
        }
    }
}

/// What a session's socket reader passes on: when it arrived, and the message.
type Event = (Instant, Value);

/// The handles of one streaming session, for the summary phase.
struct Handle {
    control: mpsc::UnboundedSender<String>,
    events: tokio::sync::Mutex<mpsc::UnboundedReceiver<Event>>,
    /// The server said ready (summaries are asked on such sessions only).
    ready: Arc<AtomicBool>,
}

struct Client {
    http: reqwest::Client,
    url: String,
    email: String,
    token: tokio::sync::RwLock<String>,
    counters: Counters,
    audio: Vec<tungstenite::Bytes>,
    epoch: Instant,
}

impl Client {
    async fn refresh_token(&self) -> anyhow::Result<String> {
        let response = self
            .http
            .post(format!("{}/oidc/token", self.url))
            .form(&[("grant_type", "password"), ("username", &self.email), ("password", "test"), ("client_id", "spreekkamer-web")])
            .send()
            .await?;
        if !response.status().is_success() {
            bail!("password grant answered {}", response.status());
        }
        let body: Value = response.json().await?;
        let token = body["access_token"].as_str().ok_or_else(|| anyhow!("no access_token"))?.to_owned();
        *self.token.write().await = token.clone();
        Ok(token)
    }

    async fn token(&self) -> String {
        self.token.read().await.clone()
    }

    async fn open_session(&self) -> anyhow::Result<String> {
        let response = self.http.post(format!("{}/api/consult/audio/session", self.url)).bearer_auth(self.token().await).send().await?;
        if response.status() != reqwest::StatusCode::CREATED {
            bail!("opening a session answered {}", response.status());
        }
        let body: Value = response.json().await?;
        Ok(body["sessionId"].as_str().ok_or_else(|| anyhow!("no sessionId"))?.to_owned())
    }

    async fn open_sessions(self: &Arc<Self>, n: usize) -> anyhow::Result<Vec<String>> {
        let ids = futures::stream::iter(0..n)
            .map(|_| {
                let client = self.clone();
                async move { client.open_session().await }
            })
            .buffered(16)
            .collect::<Vec<_>>()
            .await;
        ids.into_iter().collect()
    }

    async fn metrics(&self) -> anyhow::Result<String> {
        Ok(self.http.get(format!("{}/metrics", self.url)).send().await?.error_for_status()?.text().await?)
    }

    /// The summariser's own time and the job's wait from enqueue to start, once the job row has
    /// its outcome.
    async fn job_times(&self, job_id: &str) -> anyhow::Result<(f64, f64)> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let job: Value = self
                .http
                .get(format!("{}/api/jobs/{job_id}", self.url))
                .bearer_auth(self.token().await)
                .send()
                .await?
                .error_for_status()?
                .json()
                .await?;
            if let Some(engine) = job["result"]["engineMillis"].as_f64() {
                let at = |k: &str| job[k].as_str().and_then(|s| chrono::DateTime::parse_from_rfc3339(s).ok());
                let wait = match (at("createdAt"), at("startedAt")) {
                    (Some(created), Some(started)) => (started - created).num_microseconds().unwrap_or(0) as f64 / 1000.0,
                    _ => f64::NAN,
                };
                return Ok((engine, wait));
            }
            if Instant::now() > deadline {
                bail!("job {job_id} has no engineMillis: {}", job["state"]);
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Why a socket did not become ready.
enum NotReady {
    /// Refused as busy (1013): try again after this many seconds (plus jitter), as the page does.
    Busy(u64),
    Failed(anyhow::Error),
}

async fn connect(client: &Client, session_id: &str) -> Result<Socket, NotReady> {
    match handshake(client, session_id).await {
        Ok(Ok(socket)) => Ok(socket),
        Ok(Err(retry_after)) => Err(NotReady::Busy(retry_after)),
        Err(e) => Err(NotReady::Failed(e)),
    }
}

/// The socket once ready, or the retry delay of a busy refusal.
async fn handshake(client: &Client, session_id: &str) -> anyhow::Result<Result<Socket, u64>> {
    let url = format!("{}/ws/speech/consult/{session_id}?model=multilingual", client.url.replacen("http", "ws", 1));
    let mut request = url.into_client_request()?;
    let protocols = format!("speech.v1, bearer.{}", client.token().await);
    request.headers_mut().insert("sec-websocket-protocol", protocols.parse()?);
    // without Nagle's algorithm, as a browser's socket: with it, a small message written while
    // the last one is unacknowledged waits for the server's delayed ACK (up to 40 ms)
    let (mut socket, _) = tokio::time::timeout(Duration::from_secs(30), tokio_tungstenite::connect_async_with_config(request, None, true))
        .await
        .map_err(|_| anyhow!("handshake timed out"))??;
    let mut retry_after = None;
    loop {
        let message = tokio::time::timeout(Duration::from_secs(30), socket.next()).await.map_err(|_| anyhow!("no ready within 30 s"))?;
        match message {
            Some(Ok(Message::Text(text))) => {
                let value: Value = serde_json::from_str(&text)?;
                match value["type"].as_str() {
                    Some("ready") => return Ok(Ok(socket)),
                    Some("error") if value["code"] == "busy" => retry_after = value["retryAfter"].as_u64(),
                    _ => bail!("expected ready, got {}", value["type"]),
                }
            }
            Some(Ok(Message::Close(Some(frame)))) if u16::from(frame.code) == 1013 => return Ok(Err(retry_after.unwrap_or(2))),
            Some(Ok(Message::Close(frame))) => {
                bail!("closed before ready: {}", frame.map_or("no code".into(), |f| format!("{} {}", u16::from(f.code), f.reason)))
            }
            Some(Ok(_)) => continue,
            Some(Err(e)) => bail!("socket error before ready: {e}"),
            None => bail!("socket ended before ready"),
        }
    }
}

/// How long a session keeps trying while it is refused as busy.
const BUSY_FOR: Duration = Duration::from_secs(60);

/// Connects, trying again after a busy refusal as the page does (the server's delay plus up to
/// as much again at random) for up to [`BUSY_FOR`]; `None` when it never became ready (counted
/// with the reason) or the run stopped first.
async fn connect_until_ready(client: &Client, session_id: &str, rng: &mut XorShift, stop: &mut watch::Receiver<bool>) -> Option<Socket> {
    let counters = &client.counters;
    let since = Instant::now();
    loop {
        let attempt = tokio::select! {
            attempt = connect(client, session_id) => attempt,
            _ = stop.changed() => {
                counters.never_ready("the run ended while connecting");
                return None;
            }
        };
        match attempt {
            Ok(socket) => return Some(socket),
            Err(NotReady::Busy(seconds)) => {
                counters.busy_refusals.fetch_add(1, Ordering::Relaxed);
                if since.elapsed() > BUSY_FOR {
                    counters.never_ready("refused as busy for over 60 s");
                    return None;
                }
                let base = seconds.max(1) as f64;
                let wait = Duration::from_secs_f64(base + base * (rng.below(1_000) as f64 / 1_000.0));
                tokio::select! {
                    _ = tokio::time::sleep(wait) => {}
                    _ = stop.changed() => {
                        counters.never_ready("the run ended while waiting after a busy refusal");
                        return None;
                    }
                }
            }
            Err(NotReady::Failed(e)) => {
                let why = e.to_string();
                counters.never_ready(&why);
                counters.failure(format!("connect: {why}"));
                return None;
            }
        }
    }
}

/// When and how a session runs.
struct Plan {
    session_id: String,
    start_at: tokio::time::Instant,
    /// Send audio and pings (otherwise only what comes through `control`).
    stream: bool,
    seed: u64,
    /// Set once the server said ready.
    ready: Arc<AtomicBool>,
}

/// One session: connects at `start_at`, then (with `stream`) sends a frame every 500 ms and a
/// ping every 10 s until `stop`, and any text from `control` at once. Server messages other than
/// transcripts and pongs go to `events`.
async fn session(
    client: Arc<Client>,
    plan: Plan,
    mut stop: watch::Receiver<bool>,
    mut control: mpsc::UnboundedReceiver<String>,
    events: mpsc::UnboundedSender<Event>,
) {
    let Plan { session_id, start_at, stream, seed, ready } = plan;
    tokio::select! {
        _ = tokio::time::sleep_until(start_at) => {}
        _ = stop.changed() => return,
    }
    let counters = &client.counters;
    let mut rng = XorShift(seed | 1);
    let Some(socket) = connect_until_ready(&client, &session_id, &mut rng, &mut stop).await else {
        counters.connect_failed.fetch_add(1, Ordering::Relaxed);
        return;
    };
    counters.connected.fetch_add(1, Ordering::Relaxed);
    ready.store(true, Ordering::Relaxed);
    let (mut sink, mut source) = socket.split();
    let ping_sent: Arc<Mutex<Option<Instant>>> = Arc::default();
    let stopping = Arc::new(AtomicBool::new(false));

    let reader = {
        let client = client.clone();
        let ping_sent = ping_sent.clone();
        let stopping = stopping.clone();
        tokio::spawn(async move {
            let counters = &client.counters;
            while let Some(message) = source.next().await {
                let text = match message {
                    Ok(Message::Text(text)) => text,
                    Ok(Message::Close(frame)) => {
                        if !stopping.load(Ordering::Relaxed) {
                            counters.failure(format!("closed by the server: {frame:?}"));
                        }
                        break;
                    }
                    Ok(_) => continue,
                    Err(e) => {
                        if !stopping.load(Ordering::Relaxed) {
                            counters.failure(format!("socket error: {e}"));
                        }
                        break;
                    }
                };
                let arrived = Instant::now();
                let Ok(value) = serde_json::from_str::<Value>(&text) else { continue };
                match value["type"].as_str() {
                    Some("transcript") => {
                        counters.transcripts.fetch_add(1, Ordering::Relaxed);
                        let completed = value["completed"].as_array().map_or(0, Vec::len);
                        counters.sentences.fetch_add(completed as u64, Ordering::Relaxed);
                    }
                    Some("pong") => {
                        let sent = ping_sent.lock().unwrap_or_else(|e| e.into_inner()).take();
                        if let Some(sent) = sent {
                            let at = client.epoch.elapsed().as_secs_f64();
                            let rtt = arrived.duration_since(sent).as_secs_f64() * 1000.0;
                            counters.pings.lock().unwrap_or_else(|e| e.into_inner()).push((at, rtt));
                        }
                    }
                    Some(kind) => {
                        if kind == "error" {
                            counters.server_errors.fetch_add(1, Ordering::Relaxed);
                            counters.failure(format!("server error message: {}", value["code"]));
                        }
                        let _ = events.send((arrived, value));
                    }
                    None => {}
                }
            }
        })
    };
    let mut reader = reader;

    let now = tokio::time::Instant::now();
    let mut frames = tokio::time::interval_at(now, FRAME_EVERY);
    frames.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut pings = tokio::time::interval_at(now + Duration::from_millis(rng.below(10_000)), PING_EVERY);
    pings.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut next_frame = rng.below(client.audio.len() as u64) as usize;
    let mut ended_early = false;
    let mut control_open = true;

    loop {
        tokio::select! {
            biased;
            _ = stop.changed() => break,
            _ = &mut reader => { ended_early = true; break }
            text = control.recv(), if control_open => match text {
                Some(text) => if let Err(e) = sink.send(Message::Text(text.into())).await {
                    counters.failure(format!("send: {e}"));
                },
                None => control_open = false,
            },
            scheduled = frames.tick(), if stream => {
                if scheduled.elapsed() > Duration::from_millis(250) {
                    counters.frames_late.fetch_add(1, Ordering::Relaxed);
                }
                let frame = client.audio[next_frame % client.audio.len()].clone();
                next_frame += 1;
                if sink.send(Message::Binary(frame)).await.is_err() { ended_early = true; break }
                counters.frames_sent.fetch_add(1, Ordering::Relaxed);
            },
            _ = pings.tick(), if stream => {
                *ping_sent.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
                if sink.send(Message::Text(r#"{"type":"ping"}"#.into())).await.is_err() { ended_early = true; break }
            },
        }
    }
    stopping.store(true, Ordering::Relaxed);
    if ended_early {
        counters.closed_early.fetch_add(1, Ordering::Relaxed);
    }
    let _ = tokio::time::timeout(Duration::from_secs(10), sink.send(Message::Close(None))).await;
    if tokio::time::timeout(Duration::from_secs(10), &mut reader).await.is_err() {
        reader.abort();
    }
}

/// One summary's times, in ms.
#[derive(Clone, Copy)]
struct SummaryTiming {
    total: f64,
    engine: f64,
    overhead: f64,
    /// From the job row: enqueue to start (the worker's pickup), by the database's clock.
    queue_wait: f64,
}

async fn summarise_on(client: &Client, handle: &Handle) -> anyhow::Result<SummaryTiming> {
    let mut events = handle.events.lock().await;
    while events.try_recv().is_ok() {}
    let message = json!({"type": "summarize", "request": {"template": "soap", "transcript": CONSULT}}).to_string();
    let sent = Instant::now();
    handle.control.send(message).map_err(|_| anyhow!("the session is gone"))?;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    let (arrived, job_id) = loop {
        let (at, value) = tokio::time::timeout_at(deadline, events.recv())
            .await
            .map_err(|_| anyhow!("no summarization within 60 s"))?
            .ok_or_else(|| anyhow!("the session closed"))?;
        match value["type"].as_str() {
            Some("summarization") => {
                let job = value["jobId"].as_str().ok_or_else(|| anyhow!("summarization without jobId"))?;
                break (at, job.to_owned());
            }
            Some("job") if matches!(value["state"].as_str(), Some("failed" | "dead")) => {
                bail!("summary job failed: {}", value["message"]);
            }
            Some("error") => bail!("error instead of a summary: {}", value["code"]),
            _ => {}
        }
    };
    let total = arrived.duration_since(sent).as_secs_f64() * 1000.0;
    let (engine, queue_wait) = client.job_times(&job_id).await?;
    Ok(SummaryTiming { total, engine, overhead: total - engine, queue_wait })
}

/// Quantile of a sample by nearest rank.
fn quantile(values: &[f64], q: f64) -> f64 {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted.sort_by(f64::total_cmp);
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn summary_json(timings: &[SummaryTiming], failed: usize) -> Value {
    let of = |f: fn(&SummaryTiming) -> f64| -> Value {
        let v: Vec<f64> = timings.iter().map(f).collect();
        json!({"p50": round2(quantile(&v, 0.5)), "p95": round2(quantile(&v, 0.95)), "p99": round2(quantile(&v, 0.99)), "max": round2(quantile(&v, 1.0))})
    };
    json!({
        "count": timings.len(),
        "failed": failed,
        "total_ms": of(|t| t.total),
        "engine_ms": of(|t| t.engine),
        "overhead_ms": of(|t| t.overhead),
        "queue_wait_ms": of(|t| t.queue_wait),
    })
}

fn round2(v: f64) -> Value {
    if v.is_finite() { json!((v * 100.0).round() / 100.0) } else { Value::Null }
}

/// The cumulative buckets `(le, count)` of a Prometheus histogram, summed over label sets.
fn histogram(text: &str, name: &str) -> Vec<(f64, f64)> {
    let prefix = format!("{name}_bucket{{");
    let mut buckets: Vec<(f64, f64)> = Vec::new();
    for line in text.lines().filter(|l| l.starts_with(&prefix)) {
        let Some(le_at) = line.find("le=\"") else { continue };
        let rest = &line[le_at + 4..];
        let Some(end) = rest.find('"') else { continue };
        let le = if &rest[..end] == "+Inf" { f64::INFINITY } else { rest[..end].parse().unwrap_or(f64::NAN) };
        let count: f64 = line.rsplit(' ').next().and_then(|c| c.parse().ok()).unwrap_or(0.0);
        match buckets.iter_mut().find(|(b, _)| *b == le) {
            Some(bucket) => bucket.1 += count,
            None => buckets.push((le, count)),
        }
    }
    buckets.sort_by(|a, b| a.0.total_cmp(&b.0));
    buckets
}

/// The difference of two scrapes of one histogram.
fn histogram_delta(after: &[(f64, f64)], before: &[(f64, f64)]) -> Vec<(f64, f64)> {
    after.iter().map(|(le, n)| (*le, n - before.iter().find(|(b, _)| b == le).map_or(0.0, |(_, m)| *m))).collect()
}

/// Quantile `q` of a cumulative histogram: the upper bound of the bucket it falls in, and a
/// linear interpolation inside that bucket (from the previous bound, 0 for the first).
fn histogram_quantile(buckets: &[(f64, f64)], q: f64) -> (f64, f64) {
    let total = buckets.last().map_or(0.0, |b| b.1);
    if total <= 0.0 {
        return (f64::NAN, f64::NAN);
    }
    let rank = q * total;
    let mut lower = (0.0, 0.0);
    for &(le, count) in buckets {
        if count >= rank {
            if le.is_infinite() {
                return (le, lower.0);
            }
            let inside = if count > lower.1 { (rank - lower.1) / (count - lower.1) } else { 1.0 };
            return (le, lower.0 + (le - lower.0) * inside);
        }
        lower = (le, count);
    }
    (f64::INFINITY, f64::INFINITY)
}

/// The share of observations at or under `bound`.
fn histogram_share_under(buckets: &[(f64, f64)], bound: f64) -> f64 {
    let total = buckets.last().map_or(0.0, |b| b.1);
    let under = buckets.iter().find(|(le, _)| (*le - bound).abs() < 1e-12).map_or(f64::NAN, |b| b.1);
    under / total
}

fn rss_kib(pid: u32) -> anyhow::Result<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .ok_or_else(|| anyhow!("no VmRSS for {pid}"))
}

/// utime + stime of a process, in seconds.
fn cpu_seconds(pid: &str, ticks: f64) -> anyhow::Result<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
    let after = stat.rsplit_once(')').map(|(_, r)| r).ok_or_else(|| anyhow!("bad stat"))?;
    let fields: Vec<&str> = after.split_whitespace().collect();
    // after the command: state is field 3, utime 14, stime 15
    let utime: f64 = fields.get(11).and_then(|v| v.parse().ok()).ok_or_else(|| anyhow!("no utime"))?;
    let stime: f64 = fields.get(12).and_then(|v| v.parse().ok()).ok_or_else(|| anyhow!("no stime"))?;
    Ok((utime + stime) / ticks)
}

fn clock_ticks() -> f64 {
    std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100.0)
}

/// The machine's busy and total jiffies (all CPUs) from /proc/stat.
fn machine_jiffies() -> (f64, f64) {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let Some(line) = stat.lines().find(|l| l.starts_with("cpu ")) else { return (f64::NAN, f64::NAN) };
    let v: Vec<f64> = line.split_whitespace().skip(1).filter_map(|x| x.parse().ok()).collect();
    let total: f64 = v.iter().take(8).sum();
    // idle and iowait
    let idle = v.get(3).copied().unwrap_or(0.0) + v.get(4).copied().unwrap_or(0.0);
    (total - idle, total)
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg").unwrap_or_default().split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

fn median(values: &[f64]) -> f64 {
    quantile(values, 0.5)
}

async fn run(opts: &Opts) -> anyhow::Result<()> {
    let url = opts.required("url")?.trim_end_matches('/').to_owned();
    let api_pid: u32 = opts.required("api-pid")?.parse().context("--api-pid")?;
    let double_url = opts.0.get("double").map(|u| u.trim_end_matches('/').to_owned());
    let double_pid = opts.0.get("double-pid").cloned();
    let n: usize = opts.number("sessions", 1000)?;
    let seconds: u64 = opts.number("seconds", 120)?;
    let ramp: f64 = opts.number("ramp", 10.0)?;
    let summaries: usize = opts.number("summaries", 100)?;
    let concurrency: usize = opts.number("summary-concurrency", 4)?;
    let summary_timeout = Duration::from_secs_f64(opts.number("summary-timeout", 20.0)?);
    let results = opts.string("results", "bench/speech/results.jsonl");
    let label = opts.string("label", "");
    let ticks = clock_ticks();

    let http = reqwest::Client::builder().timeout(Duration::from_secs(60)).build()?;
    let client = Arc::new(Client {
        http,
        url: url.clone(),
        email: opts.string("email", "huisarts@example.nl"),
        token: tokio::sync::RwLock::new(String::new()),
        counters: Counters::default(),
        audio: audio_pattern(),
        epoch: Instant::now(),
    });
    client.refresh_token().await.context("getting a token")?;

    println!("opening {n} sessions");
    let ids = client.open_sessions(n).await?;
    // settle, then the idle figures
    tokio::time::sleep(Duration::from_secs(2)).await;
    let rss_idle = rss_kib(api_pid)?;
    let before = client.metrics().await?;
    // From here on the run reports whatever happens: a figure that cannot be read is left out.
    let metrics_or_empty = |what: &'static str, got: anyhow::Result<String>| match got {
        Ok(text) => text,
        Err(e) => {
            client.counters.failure(format!("{what}: {e}"));
            String::new()
        }
    };
    let cpu_or_nan = |pid: &str| cpu_seconds(pid, ticks).unwrap_or(f64::NAN);
    let double_before = double_stats_of(&client, double_url.as_deref()).await;

    // The streams: started over the ramp, stopped together.
    let (stop_tx, stop_rx) = watch::channel(false);
    let start = tokio::time::Instant::now();
    let mut tasks = Vec::with_capacity(n);
    let mut handles = Vec::with_capacity(n);
    let mut seeds = XorShift(0x1234_5678_9abc_def1);
    for (i, id) in ids.into_iter().enumerate() {
        let (control_tx, control_rx) = mpsc::unbounded_channel();
        let (events_tx, events_rx) = mpsc::unbounded_channel();
        let ready = Arc::new(AtomicBool::new(false));
        handles.push(Handle { control: control_tx, events: tokio::sync::Mutex::new(events_rx), ready: ready.clone() });
        let at = start + Duration::from_secs_f64(ramp * i as f64 / n as f64);
        tasks.push(tokio::spawn(session(
            client.clone(),
            Plan { session_id: id, start_at: at, stream: true, seed: seeds.next(), ready },
            stop_rx.clone(),
            control_rx,
            events_tx,
        )));
    }
    let ramp_end = start + Duration::from_secs_f64(ramp);
    tokio::time::sleep_until(ramp_end + Duration::from_secs(2)).await;
    println!(
        "{} sessions streaming, {} failed to connect, {} refusals as busy waited out",
        client.counters.connected.load(Ordering::Relaxed),
        client.counters.connect_failed.load(Ordering::Relaxed),
        client.counters.busy_refusals.load(Ordering::Relaxed)
    );
    // Steady state: from 5 s after the ramp to the end of the streams.
    tokio::time::sleep_until(ramp_end + Duration::from_secs(5)).await;
    let steady_from = Instant::now();
    let steady_metrics = metrics_or_empty("metrics at the steady state", client.metrics().await);
    let cpu_from = cpu_or_nan(&api_pid.to_string());
    let double_cpu_from = double_pid.as_deref().map(cpu_or_nan);
    let self_cpu_from = cpu_or_nan("self");
    let machine_from = machine_jiffies();
    let load_from = loadavg();
    let stream_end = ramp_end + Duration::from_secs(seconds);

    // RSS while streaming, every 5 s, beside the loaded summary phase.
    let rss_samples = Arc::new(Mutex::new(Vec::<f64>::new()));
    let sampler = {
        let rss_samples = rss_samples.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_secs(5));
            loop {
                every.tick().await;
                if tokio::time::Instant::now() >= stream_end {
                    break;
                }
                if let Ok(rss) = rss_kib(api_pid) {
                    rss_samples.lock().unwrap_or_else(|e| e.into_inner()).push(rss);
                }
            }
        })
    };

    if let Err(e) = client.refresh_token().await {
        client.counters.failure(format!("token before the summaries: {e}"));
    }
    // Summaries on distinct streaming sessions, `concurrency` at a time, each given
    // `summary_timeout` (a summary past it counts as failed).
    let ready: Vec<&Handle> = handles.iter().filter(|h| h.ready.load(Ordering::Relaxed)).collect();
    let picks = summaries.min(ready.len());
    let outcomes: Vec<anyhow::Result<SummaryTiming>> = futures::stream::iter(0..picks)
        .map(|k| {
            let (client, handle) = (&client, ready[k * ready.len() / picks.max(1)]);
            async move {
                tokio::time::timeout(summary_timeout, summarise_on(client, handle))
                    .await
                    .unwrap_or_else(|_| Err(anyhow!("no summary within {} s", summary_timeout.as_secs_f64())))
            }
        })
        .buffer_unordered(concurrency.max(1))
        .collect()
        .await;
    let mut loaded = Vec::new();
    let mut loaded_failed = summaries.min(n) - picks;
    if loaded_failed > 0 {
        client.counters.failure(format!("loaded summaries: only {picks} sessions were ready to ask on"));
    }
    for outcome in outcomes {
        match outcome {
            Ok(t) => loaded.push(t),
            Err(e) => {
                loaded_failed += 1;
                client.counters.failure(format!("loaded summary: {e}"));
            }
        }
    }
    let loaded_done = Instant::now();
    println!("loaded summaries done after {:.1} s of steady state", loaded_done.duration_since(steady_from).as_secs_f64());

    tokio::time::sleep_until(stream_end).await;
    let steady_secs = steady_from.elapsed().as_secs_f64();
    let cpu_to = cpu_or_nan(&api_pid.to_string());
    let double_cpu_to = double_pid.as_deref().map(cpu_or_nan);
    let self_cpu_to = cpu_or_nan("self");
    let machine_to = machine_jiffies();
    let load_to = loadavg();
    let after = metrics_or_empty("metrics at the end of the streams", client.metrics().await);
    let double_after = double_stats_of(&client, double_url.as_deref()).await;
    let _ = stop_tx.send(true);
    for task in tasks {
        let _ = task.await;
    }
    sampler.abort();
    drop(handles);
    let counters = &client.counters;

    // The figures of the streaming phase.
    let frame_all = histogram_delta(&histogram(&after, "speech_frame_seconds"), &histogram(&before, "speech_frame_seconds"));
    let frame_steady = histogram_delta(&histogram(&after, "speech_frame_seconds"), &histogram(&steady_metrics, "speech_frame_seconds"));
    let pings: Vec<(f64, f64)> = counters.pings.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let steady_at = steady_from.duration_since(client.epoch).as_secs_f64();
    let ping_all: Vec<f64> = pings.iter().map(|p| p.1).collect();
    let ping_steady: Vec<f64> = pings.iter().filter(|p| p.0 >= steady_at).map(|p| p.1).collect();
    let rss_loaded = median(&rss_samples.lock().unwrap_or_else(|e| e.into_inner()));
    let rss_max = quantile(&rss_samples.lock().unwrap_or_else(|e| e.into_inner()), 1.0);
    let connected = counters.connected.load(Ordering::Relaxed);
    let per_session_kib = (rss_loaded - rss_idle) / connected.max(1) as f64;
    let api_cpu = (cpu_to - cpu_from) / steady_secs;
    let double_cpu = match (double_cpu_from, double_cpu_to) {
        (Some(a), Some(b)) => Some((b - a) / steady_secs),
        _ => None,
    };
    let self_cpu = (self_cpu_to - self_cpu_from) / steady_secs;
    let double_requests = match (&double_before, &double_after) {
        (Some(b), Some(a)) => a["requests"].as_u64().unwrap_or(0).saturating_sub(b["requests"].as_u64().unwrap_or(0)),
        _ => 0,
    };
    let double_rejected = double_after.as_ref().and_then(|a| a["rejected"].as_u64()).unwrap_or(0);

    // The same summaries on an idle api, each on a session of its own with no audio.
    let never_ready = std::mem::take(&mut *counters.never_ready.lock().unwrap_or_else(|e| e.into_inner()));
    tokio::time::sleep(Duration::from_secs(3)).await;
    if let Err(e) = client.refresh_token().await {
        client.counters.failure(format!("token before the idle summaries: {e}"));
    }
    let mut idle = Vec::new();
    let mut idle_failed = 0;
    for _ in 0..summaries {
        let timed = tokio::time::timeout(summary_timeout + Duration::from_secs(30), idle_summary(&client)).await;
        match timed.unwrap_or_else(|_| Err(anyhow!("no idle summary within {} s", summary_timeout.as_secs_f64() + 30.0))) {
            Ok(t) => idle.push(t),
            Err(e) => {
                idle_failed += 1;
                client.counters.failure(format!("idle summary: {e}"));
            }
        }
    }

    let frame = |buckets: &[(f64, f64)]| -> Value {
        let (p50_le, p50_lin) = histogram_quantile(buckets, 0.5);
        let (p99_le, p99_lin) = histogram_quantile(buckets, 0.99);
        let ms = |s: f64| round2(s * 1000.0);
        json!({
            "count": buckets.last().map_or(0.0, |b| b.1),
            "p50_le_ms": ms(p50_le), "p50_interp_ms": ms(p50_lin),
            "p99_le_ms": ms(p99_le), "p99_interp_ms": ms(p99_lin),
            "share_under_20ms": round2(histogram_share_under(buckets, 0.02) * 100.0),
        })
    };
    let overhead_ratio = quantile(&loaded.iter().map(|t| t.overhead).collect::<Vec<_>>(), 0.99)
        / quantile(&idle.iter().map(|t| t.overhead).collect::<Vec<_>>(), 0.99);
    let report = json!({
        "at": chrono::Utc::now().to_rfc3339(),
        "label": label,
        "sessions": n,
        "seconds": seconds,
        "ramp_seconds": ramp,
        "connected": connected,
        "connect_failed": counters.connect_failed.load(Ordering::Relaxed),
        "never_ready": never_ready,
        "busy_refusals": counters.busy_refusals.load(Ordering::Relaxed),
        "summary_concurrency": concurrency,
        "summary_timeout_seconds": summary_timeout.as_secs_f64(),
        "closed_early": counters.closed_early.load(Ordering::Relaxed),
        "frames_sent": counters.frames_sent.load(Ordering::Relaxed),
        "frames_late": counters.frames_late.load(Ordering::Relaxed),
        "transcript_messages": counters.transcripts.load(Ordering::Relaxed),
        "sentences": counters.sentences.load(Ordering::Relaxed),
        "server_errors": counters.server_errors.load(Ordering::Relaxed),
        "double_requests": double_requests,
        "double_rejected": double_rejected,
        "frame_handling": {"whole_run": frame(&frame_all), "steady": frame(&frame_steady)},
        "ping_rtt_ms": {
            "whole_run": {"count": ping_all.len(), "p50": round2(quantile(&ping_all, 0.5)), "p99": round2(quantile(&ping_all, 0.99)), "max": round2(quantile(&ping_all, 1.0))},
            "steady": {"count": ping_steady.len(), "p50": round2(quantile(&ping_steady, 0.5)), "p99": round2(quantile(&ping_steady, 0.99)), "max": round2(quantile(&ping_steady, 1.0))},
        },
        "rss_kib": {"idle": rss_idle, "loaded_median": rss_loaded, "loaded_max": rss_max, "per_session": round2(per_session_kib)},
        "cpu_cores": {"api": round2(api_cpu), "double": double_cpu.map(round2), "client": round2(self_cpu), "steady_seconds": round2(steady_secs)},
        "machine": {
            "cpus": std::thread::available_parallelism().map_or(0, |n| n.get()),
            "busy_percent": round2(100.0 * (machine_to.0 - machine_from.0) / (machine_to.1 - machine_from.1)),
            "loadavg_steady_start": load_from,
            "loadavg_steady_end": load_to,
        },
        "summaries": {"loaded": summary_json(&loaded, loaded_failed), "idle": summary_json(&idle, idle_failed), "overhead_p99_loaded_over_idle": round2(overhead_ratio)},
        "failures": *counters.failures.lock().unwrap_or_else(|e| e.into_inner()),
    });
    if let Some(dir) = std::path::Path::new(&results).parent() {
        std::fs::create_dir_all(dir).ok();
    }
    {
        use std::io::Write;
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(&results).with_context(|| results.clone())?;
        writeln!(file, "{report}")?;
    }
    print_summary(&report);
    Ok(())
}

async fn double_stats_of(client: &Client, url: Option<&str>) -> Option<Value> {
    let url = url?;
    client.http.get(format!("{url}/stats")).send().await.ok()?.json().await.ok()
}

/// One summary on a fresh session of its own, with no audio.
async fn idle_summary(client: &Arc<Client>) -> anyhow::Result<SummaryTiming> {
    let id = client.open_session().await?;
    let (stop_tx, stop_rx) = watch::channel(false);
    let (control_tx, control_rx) = mpsc::unbounded_channel();
    let (events_tx, events_rx) = mpsc::unbounded_channel();
    let ready = Arc::new(AtomicBool::new(false));
    let handle = Handle { control: control_tx, events: tokio::sync::Mutex::new(events_rx), ready: ready.clone() };
    let plan = Plan { session_id: id, start_at: tokio::time::Instant::now(), stream: false, seed: 1, ready: ready.clone() };
    let task = tokio::spawn(session(client.clone(), plan, stop_rx, control_rx, events_tx));
    // wait until the socket is open
    let deadline = Instant::now() + Duration::from_secs(30);
    while !ready.load(Ordering::Relaxed) {
        if task.is_finished() || Instant::now() > deadline {
            bail!("the idle session did not connect");
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // let the server finish its part of the opening
    tokio::time::sleep(Duration::from_millis(50)).await;
    let timing = summarise_on(client, &handle).await;
    let _ = stop_tx.send(true);
    let _ = task.await;
    timing
}

fn print_summary(r: &Value) {
    let f = &r["frame_handling"];
    println!();
    println!(
        "sessions {} (ready {}, never ready {}, closed early {}; {} refusals as busy waited out)",
        r["sessions"], r["connected"], r["connect_failed"], r["closed_early"], r["busy_refusals"]
    );
    if let Some(reasons) = r["never_ready"].as_object().filter(|m| !m.is_empty()) {
        println!("never ready, by reason:");
        for (why, count) in reasons {
            println!("  {count} × {why}");
        }
    }
    println!(
        "frames sent {} (late {}), transcript messages {} with {} sentences, double requests {}",
        r["frames_sent"], r["frames_late"], r["transcript_messages"], r["sentences"], r["double_requests"]
    );
    for phase in ["whole_run", "steady"] {
        let h = &f[phase];
        println!(
            "frame handling ({phase}, {} frames): p50 ≤ {} ms (interp. {} ms), p99 ≤ {} ms (interp. {} ms); {}% ≤ 20 ms",
            h["count"], h["p50_le_ms"], h["p50_interp_ms"], h["p99_le_ms"], h["p99_interp_ms"], h["share_under_20ms"]
        );
    }
    let p = &r["ping_rtt_ms"];
    println!(
        "ping round trip: p50 {} ms, p99 {} ms (steady: p50 {} ms, p99 {} ms, max {} ms)",
        p["whole_run"]["p50"], p["whole_run"]["p99"], p["steady"]["p50"], p["steady"]["p99"], p["steady"]["max"]
    );
    let m = &r["rss_kib"];
    println!(
        "api RSS: idle {} KiB, streaming {} KiB (max {}), {} KiB per session",
        m["idle"], m["loaded_median"], m["loaded_max"], m["per_session"]
    );
    let c = &r["cpu_cores"];
    let machine = &r["machine"];
    println!(
        "CPU (cores busy, steady): api {}, double {}, client {}; machine {}% busy of {} CPUs, load {} → {}",
        c["api"],
        c["double"],
        c["client"],
        machine["busy_percent"],
        machine["cpus"],
        machine["loadavg_steady_start"],
        machine["loadavg_steady_end"]
    );
    println!(
        "summaries under load: {} at a time, each given {} s (a summary past it counts as failed)",
        r["summary_concurrency"], r["summary_timeout_seconds"]
    );
    for phase in ["loaded", "idle"] {
        let s = &r["summaries"][phase];
        println!(
            "summaries {phase} ({} ok, {} failed): total p50 {} / p95 {} / p99 {} ms; overhead p50 {} / p95 {} / p99 {} ms; engine p50 {} ms; queue wait p50 {} / p99 {} ms",
            s["count"],
            s["failed"],
            s["total_ms"]["p50"],
            s["total_ms"]["p95"],
            s["total_ms"]["p99"],
            s["overhead_ms"]["p50"],
            s["overhead_ms"]["p95"],
            s["overhead_ms"]["p99"],
            s["engine_ms"]["p50"],
            s["queue_wait_ms"]["p50"],
            s["queue_wait_ms"]["p99"]
        );
    }
    println!("summary overhead p99 loaded / idle: {}", r["summaries"]["overhead_p99_loaded_over_idle"]);
    if let Some(failures) = r["failures"].as_array().filter(|f| !f.is_empty()) {
        println!("first failures:");
        for failure in failures {
            println!("  {failure}");
        }
    }
}
