//! Speech engines: turn a live stream of 16 kHz mono PCM16 audio into Dutch transcript events.
//!
//! One trait, [`SpeechEngine`], with the real engines beside it. The live session (in the api)
//! owns the websocket, the transcript in Redis and the sentence numbering; an engine only turns
//! audio into [`SpeechEvent`]s.

pub mod config;
pub mod filter;
pub mod openai;
pub mod sentences;
pub mod vad;
pub mod wav;

use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

pub mod decode;
pub mod realtime;

/// Samples per second of every stream the engines receive.
pub const SAMPLE_RATE: u32 = 16_000;

/// One frame of audio: PCM16 samples, 16 kHz, mono. The browser sends one per 500 ms.
pub type AudioFrame = Vec<i16>;

pub use domain::summary::Speaker;

/// The `model` query parameter of the websocket: which engine and prompt serve the stream.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AudioModel {
    #[default]
    Multilingual,
    Radiology,
}

/// What a stream is for.
#[derive(Clone, Debug, Default)]
pub struct StreamOptions {
    pub model: AudioModel,
    /// Words the engine should expect (the user's vocabulary), given to it as a prompt.
    pub vocabulary: Vec<String>,
}

/// What an engine reports while it listens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpeechEvent {
    /// The words of the utterance in progress so far; replaces the previous buffer. Empty when
    /// nothing is in progress.
    Buffer(String),
    /// A finished sentence, in the order spoken. `speaker` is `None` when the engine cannot tell.
    Completed { sentence: String, speaker: Option<Speaker> },
    /// The engine failed on part of the stream and could not recover it after retrying; the
    /// stream goes on. `message` is Dutch and fit to show.
    Trouble { code: &'static str, message: String },
}

/// Why an engine could not do its work.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpeechError {
    /// The engine is down or answered with a server error.
    #[error("spraakherkenning niet bereikbaar: {0}")]
    Unavailable(String),
    /// The engine refused the request (a 4xx): configuration or input it will never accept.
    #[error("spraakherkenning weigerde het verzoek: {0}")]
    Rejected(String),
    /// The engine is still downloading or loading its model: worth trying again in a while.
    #[error("spraakmodel wordt nog geladen: {0}")]
    Loading(String),
    /// The audio is empty or cannot be decoded. The message is Dutch and fit to show.
    #[error("{0}")]
    Audio(String),
}

/// A speech engine. Cheap to share: one per process, used by every session.
pub trait SpeechEngine: Send + Sync + 'static {
    /// A short stable name for logs and metrics ("openai-transcription", "realtime").
    fn name(&self) -> &'static str;

    /// Runs one stream. Reads frames from `audio` until the sender is dropped, transcribes what
    /// was said, and sends the events to `events` in order. When `audio` closes, the utterance in
    /// progress is finished and transcribed before the future completes, so nothing said is lost.
    /// `audio` is bounded by the caller: an engine that falls behind makes the caller wait, never
    /// grows memory without bound. Errors on one part of the stream are retried and, failing
    /// that, reported as [`SpeechEvent::Trouble`]; `Err` is for a stream that cannot run at all.
    fn run(
        &self,
        options: StreamOptions,
        audio: mpsc::Receiver<AudioFrame>,
        events: mpsc::Sender<SpeechEvent>,
    ) -> BoxFuture<'static, Result<(), SpeechError>>;
}

/// A shared engine.
pub type SharedEngine = Arc<dyn SpeechEngine>;

/// The vocabulary added to the prompt is cut at this many characters (Whisper reads a prompt
/// of at most 224 tokens).
pub const MAX_VOCABULARY_CHARS: usize = 600;

/// The configured prompt with the stream's vocabulary after it (trimmed, without duplicates,
/// at most [`MAX_VOCABULARY_CHARS`]).
pub fn prompt_with(base: &str, vocabulary: &[String]) -> String {
    let mut words: Vec<&str> = Vec::new();
    let mut length = 0;
    for word in vocabulary.iter().map(|w| w.trim()).filter(|w| !w.is_empty()) {
        if words.contains(&word) {
            continue;
        }
        if length + word.len() + 2 > MAX_VOCABULARY_CHARS {
            break;
        }
        length += word.len() + 2;
        words.push(word);
    }
    let base = base.trim();
    match (base.is_empty(), words.is_empty()) {
        (_, true) => base.to_string(),
        (true, false) => format!("{}.", words.join(", ")),
        (false, false) => format!("{base} {}.", words.join(", ")),
    }
}

/// The settings of one engine, as read from the environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    /// Base URL, without a trailing `/` and without `/v1/...`.
    pub url: String,
    /// Model name sent to the engine.
    pub model: String,
    /// Bearer token, if the engine wants one.
    pub api_key: Option<String>,
    /// Prompt that guides the engine; the stream's vocabulary is added to it.
    pub prompt: String,
    /// Speech between interim transcriptions of the utterance in progress; zero is off.
    pub interim: Duration,
    /// How long one request may take.
    pub timeout: Duration,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vocabulary_follows_the_prompt() {
        let vocabulary = vec!["Paracetamol".to_string(), " ".to_string(), "Jansen".to_string(), "Paracetamol".to_string()];
        assert_eq!(prompt_with("Een consult.", &vocabulary), "Een consult. Paracetamol, Jansen.");
        assert_eq!(prompt_with("", &vocabulary), "Paracetamol, Jansen.");
        assert_eq!(prompt_with(" Een consult. ", &[]), "Een consult.");
    }

    #[test]
    fn a_long_vocabulary_is_cut() {
        let vocabulary: Vec<String> = (0..500).map(|i| format!("woord{i}")).collect();
        let prompt = prompt_with("P.", &vocabulary);
        assert!(prompt.len() <= MAX_VOCABULARY_CHARS + 4, "{}", prompt.len());
        assert!(prompt.starts_with("P. woord0, woord1,"));
    }
}
