//! Voice-activity segmentation: cuts a stream of 16 kHz mono PCM16 audio into utterances.
//!
//! Energy based, pure and synchronous. The stream is analysed in windows of [`WINDOW_MS`]; a
//! window's level (RMS in dBFS) is compared with an adaptive noise floor. Speech starts when a
//! window is [`START_MARGIN_DB`] above the floor (and above [`ABSOLUTE_MIN_DB`], so digital
//! silence never starts anything), and ends after [`HANGOVER_MS`] without a window
//! [`CONTINUE_MARGIN_DB`] above it. An utterance carries [`PRE_ROLL_MS`] of audio from before the
//! start (the soft first consonant) and at most [`TAIL_MS`] after its last speech. Utterances
//! with less than [`MIN_SPEECH_MS`] of speech are discarded (coughs, clicks); utterances that
//! reach [`MAX_UTTERANCE_MS`] are split at the quietest window of their last
//! [`SPLIT_SEARCH_MS`].
//!
//! Memory is bounded: the utterance in progress (at most [`MAX_UTTERANCE_MS`] plus a window), the
//! pre-roll and one partial window.

use std::collections::VecDeque;

use super::SAMPLE_RATE;

/// Length of one analysis window.
pub const WINDOW_MS: usize = 20;
/// Audio kept from before the start of speech, so the first sound is not cut off.
pub const PRE_ROLL_MS: usize = 200;
/// Silence that ends an utterance: pauses between words and at commas are shorter.
pub const HANGOVER_MS: usize = 700;
/// Audio kept after the last speech window of an utterance (the rest of the hangover is dropped:
/// long silence at the end of a clip invites an engine to invent words).
pub const TAIL_MS: usize = 300;
/// Utterances with less speech than this are discarded.
pub const MIN_SPEECH_MS: usize = 250;
/// Utterances are split when they reach this length (Whisper works on 30 s at most).
pub const MAX_UTTERANCE_MS: usize = 20_000;
/// A long utterance is split at the quietest window within this much of its end.
pub const SPLIT_SEARCH_MS: usize = 3_000;
/// At the start of a stream, this much audio only measures the noise floor; no speech starts.
pub const CALIBRATION_MS: usize = 200;
/// A window this far above the noise floor starts speech.
pub const START_MARGIN_DB: f32 = 10.0;
/// Within an utterance, a window this far above the noise floor counts as speech.
pub const CONTINUE_MARGIN_DB: f32 = 6.0;
/// No window quieter than this (dBFS) is speech, whatever the floor. About 100 on the 16-bit
/// scale: far below a voice at a normal distance, far above digital silence.
pub const ABSOLUTE_MIN_DB: f32 = -50.0;
/// The level given to a window of digital silence, and the lowest the floor goes.
pub const SILENCE_DB: f32 = -100.0;
/// Fraction of the distance the floor moves per window towards a quieter window.
pub const FLOOR_FALL: f32 = 0.2;
/// Fraction of the distance the floor moves per window towards a louder window outside speech
/// (a time constant of about one second).
pub const FLOOR_RISE: f32 = 0.02;
/// Within speech the floor rises at most this much per window (1 dB per second), so that a noise
/// that started an utterance ends it in time, but speech does not raise the floor much.
pub const FLOOR_RISE_IN_SPEECH_DB: f32 = 0.02;

/// Samples in one analysis window.
pub const WINDOW: usize = ms_to_samples(WINDOW_MS);
const PRE_ROLL: usize = ms_to_samples(PRE_ROLL_MS);
const HANGOVER_WINDOWS: usize = HANGOVER_MS / WINDOW_MS;
const TAIL_WINDOWS: usize = TAIL_MS / WINDOW_MS;
const MIN_SPEECH_WINDOWS: usize = MIN_SPEECH_MS.div_ceil(WINDOW_MS);
/// Samples at which an utterance is split.
pub const MAX_UTTERANCE: usize = ms_to_samples(MAX_UTTERANCE_MS);
const SPLIT_SEARCH_WINDOWS: usize = SPLIT_SEARCH_MS / WINDOW_MS;
const CALIBRATION_WINDOWS: usize = CALIBRATION_MS / WINDOW_MS;

const fn ms_to_samples(ms: usize) -> usize {
    ms * SAMPLE_RATE as usize / 1000
}

/// What the segmenter found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VadEvent {
    /// Speech started; an utterance is in progress (see [`Vad::current`]).
    SpeechStarted,
    /// An utterance is finished: its audio, pre-roll included.
    Utterance(Vec<i16>),
    /// The utterance in progress turned out too short to be speech and was dropped.
    Discarded,
}

#[derive(Debug, Clone, Copy)]
struct Window {
    voiced: bool,
    level_db: f32,
}

#[derive(Debug)]
struct InProgress {
    samples: Vec<i16>,
    /// Samples of pre-roll before the first analysed window.
    head: usize,
    windows: Vec<Window>,
    /// Windows since the last speech window.
    silent_run: usize,
}

/// The segmenter of one stream.
#[derive(Debug)]
pub struct Vad {
    pending: Vec<i16>,
    floor_db: f32,
    windows_seen: usize,
    pre_roll: VecDeque<i16>,
    utterance: Option<InProgress>,
}

impl Default for Vad {
    fn default() -> Self {
        Self::new()
    }
}

impl Vad {
    /// A segmenter at the start of a stream.
    pub fn new() -> Self {
        Self {
            pending: Vec::with_capacity(WINDOW),
            floor_db: SILENCE_DB,
            windows_seen: 0,
            pre_roll: VecDeque::with_capacity(PRE_ROLL + WINDOW),
            utterance: None,
        }
    }

    /// Feeds audio of any length; returns what was found, in order.
    pub fn push(&mut self, samples: &[i16]) -> Vec<VadEvent> {
        let mut events = Vec::new();
        let mut rest = samples;
        if !self.pending.is_empty() {
            let take = (WINDOW - self.pending.len()).min(rest.len());
            self.pending.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if self.pending.len() < WINDOW {
                return events;
            }
            let window = std::mem::take(&mut self.pending);
            self.window(&window, &mut events);
            self.pending = window;
            self.pending.clear();
        }
        let mut chunks = rest.chunks_exact(WINDOW);
        for window in &mut chunks {
            self.window(window, &mut events);
        }
        self.pending.extend_from_slice(chunks.remainder());
        events
    }

    /// One read of a stream's audio: a frame is pushed; `None` (the audio closed) flushes.
    pub fn feed(&mut self, frame: Option<&[i16]>) -> Vec<VadEvent> {
        match frame {
            Some(frame) => self.push(frame),
            None => self.flush(),
        }
    }

    /// Ends the stream: finishes the utterance in progress, if any. The noise floor is kept.
    pub fn flush(&mut self) -> Vec<VadEvent> {
        let mut events = Vec::new();
        let pending = std::mem::take(&mut self.pending);
        if let Some(utterance) = self.utterance.as_mut() {
            utterance.samples.extend_from_slice(&pending);
            self.finish(&mut events);
        }
        self.pre_roll.clear();
        events
    }

    /// The audio of the utterance in progress so far (pre-roll included), if speech is going on.
    pub fn current(&self) -> Option<&[i16]> {
        self.utterance.as_ref().map(|u| u.samples.as_slice())
    }

    /// Whether an utterance is in progress.
    pub fn in_speech(&self) -> bool {
        self.utterance.is_some()
    }

    /// The current noise floor in dBFS.
    pub fn noise_floor_db(&self) -> f32 {
        self.floor_db
    }

    fn window(&mut self, window: &[i16], events: &mut Vec<VadEvent>) {
        let level = level_db(window);
        self.windows_seen += 1;

        if self.windows_seen <= CALIBRATION_WINDOWS {
            // The mean level of the first windows.
            self.floor_db += (level - self.floor_db) / self.windows_seen as f32;
            self.remember(window);
            return;
        }

        match self.utterance.as_mut() {
            None => {
                if level > (self.floor_db + START_MARGIN_DB).max(ABSOLUTE_MIN_DB) {
                    let mut samples = Vec::with_capacity(PRE_ROLL + 4 * WINDOW);
                    samples.extend(self.pre_roll.drain(..));
                    let head = samples.len();
                    samples.extend_from_slice(window);
                    self.utterance =
                        Some(InProgress { samples, head, windows: vec![Window { voiced: true, level_db: level }], silent_run: 0 });
                    events.push(VadEvent::SpeechStarted);
                } else {
                    let step = if level < self.floor_db { FLOOR_FALL } else { FLOOR_RISE };
                    self.floor_db += (level - self.floor_db) * step;
                    self.remember(window);
                }
            }
            Some(utterance) => {
                let voiced = level > (self.floor_db + CONTINUE_MARGIN_DB).max(ABSOLUTE_MIN_DB);
                if level < self.floor_db {
                    self.floor_db += (level - self.floor_db) * FLOOR_FALL;
                } else {
                    self.floor_db += ((level - self.floor_db) * FLOOR_RISE).min(FLOOR_RISE_IN_SPEECH_DB);
                }
                utterance.samples.extend_from_slice(window);
                utterance.windows.push(Window { voiced, level_db: level });
                utterance.silent_run = if voiced { 0 } else { utterance.silent_run + 1 };
                if utterance.silent_run >= HANGOVER_WINDOWS {
                    self.finish(events);
                } else if utterance.samples.len() >= MAX_UTTERANCE {
                    self.split(events);
                }
            }
        }
        self.floor_db = self.floor_db.max(SILENCE_DB);
    }

    /// Keeps the last [`PRE_ROLL`] samples outside speech.
    fn remember(&mut self, window: &[i16]) {
        self.pre_roll.extend(window.iter().copied());
        let excess = self.pre_roll.len().saturating_sub(PRE_ROLL);
        self.pre_roll.drain(..excess);
    }

    /// Ends the utterance in progress: trims the silence after its tail, reports it or drops it.
    fn finish(&mut self, events: &mut Vec<VadEvent>) {
        let Some(mut utterance) = self.utterance.take() else {
            return;
        };
        let last_voiced = utterance.windows.iter().rposition(|w| w.voiced);
        let keep = last_voiced.map_or(0, |i| (i + 1 + TAIL_WINDOWS).min(utterance.windows.len()));
        let cut = if keep == utterance.windows.len() {
            utterance.samples.len()
        } else {
            (utterance.head + keep * WINDOW).min(utterance.samples.len())
        };
        // The end of the dropped silence is the pre-roll of what comes next.
        let dropped = &utterance.samples[cut..];
        self.pre_roll.clear();
        self.pre_roll.extend(dropped[dropped.len().saturating_sub(PRE_ROLL)..].iter().copied());
        utterance.samples.truncate(cut);
        let speech = utterance.windows[..keep].iter().filter(|w| w.voiced).count();
        events.push(if speech >= MIN_SPEECH_WINDOWS { VadEvent::Utterance(utterance.samples) } else { VadEvent::Discarded });
    }

    /// Cuts a long utterance at the quietest window near its end; the rest stays in progress.
    fn split(&mut self, events: &mut Vec<VadEvent>) {
        let Some(utterance) = self.utterance.as_mut() else {
            return;
        };
        let from = utterance.windows.len().saturating_sub(SPLIT_SEARCH_WINDOWS);
        let quietest = utterance.windows[from..]
            .iter()
            .enumerate()
            .min_by(|a, b| a.1.level_db.total_cmp(&b.1.level_db))
            .map_or(utterance.windows.len() - 1, |(i, _)| from + i);
        let cut = utterance.head + (quietest + 1) * WINDOW;
        let rest_samples = utterance.samples.split_off(cut);
        let rest_windows = utterance.windows.split_off(quietest + 1);
        let first = std::mem::replace(&mut utterance.samples, rest_samples);
        let speech = utterance.windows.iter().filter(|w| w.voiced).count();
        utterance.silent_run = rest_windows.iter().rev().take_while(|w| !w.voiced).count();
        utterance.windows = rest_windows;
        utterance.head = 0;
        events.push(if speech >= MIN_SPEECH_WINDOWS { VadEvent::Utterance(first) } else { VadEvent::Discarded });
    }
}

/// RMS level of a window in dBFS; digital silence is [`SILENCE_DB`].
fn level_db(window: &[i16]) -> f32 {
    if window.is_empty() {
        return SILENCE_DB;
    }
    let sum: f64 = window.iter().map(|&s| f64::from(s) * f64::from(s)).sum();
    let rms = (sum / window.len() as f64).sqrt();
    if rms < 1e-3 {
        return SILENCE_DB;
    }
    ((20.0 * (rms / 32_768.0).log10()) as f32).max(SILENCE_DB)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RATE: usize = SAMPLE_RATE as usize;

    fn samples(ms: usize) -> usize {
        ms * RATE / 1000
    }

    fn silence(ms: usize) -> Vec<i16> {
        vec![0; samples(ms)]
    }

    /// A sine at `amplitude` (peak, 16-bit scale).
    fn tone(ms: usize, freq: f64, amplitude: f64) -> Vec<i16> {
        (0..samples(ms)).map(|i| (amplitude * (2.0 * std::f64::consts::PI * freq * i as f64 / RATE as f64).sin()) as i16).collect()
    }

    /// White noise, uniform in ±`amplitude`, from a fixed seed.
    fn noise(ms: usize, amplitude: f64, seed: &mut u64) -> Vec<i16> {
        (0..samples(ms))
            .map(|_| {
                *seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let unit = ((*seed >> 33) as f64 / (1u64 << 31) as f64) * 2.0 - 1.0;
                (unit * amplitude) as i16
            })
            .collect()
    }

    fn concat(parts: &[Vec<i16>]) -> Vec<i16> {
        parts.concat()
    }

    fn run(signal: &[i16], frame: usize) -> Vec<VadEvent> {
        let mut vad = Vad::new();
        let mut events: Vec<VadEvent> = signal.chunks(frame).flat_map(|f| vad.push(f)).collect();
        events.extend(vad.flush());
        events
    }

    fn utterances(events: &[VadEvent]) -> Vec<&Vec<i16>> {
        events
            .iter()
            .filter_map(|e| match e {
                VadEvent::Utterance(u) => Some(u),
                _ => None,
            })
            .collect()
    }

    fn ms_of(len: usize) -> usize {
        len * 1000 / RATE
    }

    #[test]
    fn bursts_separated_by_silence_are_separate_utterances() {
        let mut seed = 7;
        let signal = concat(&[silence(1000), tone(1000, 220.0, 8000.0), silence(1500), noise(600, 6000.0, &mut seed), silence(1500)]);
        let events = run(&signal, samples(500));
        assert!(matches!(events[0], VadEvent::SpeechStarted));
        assert!(matches!(events[1], VadEvent::Utterance(_)));
        assert!(matches!(events[2], VadEvent::SpeechStarted));
        assert!(matches!(events[3], VadEvent::Utterance(_)));
        assert_eq!(events.len(), 4);

        let found = utterances(&events);
        // Pre-roll + the burst + the tail kept after it.
        assert_eq!(ms_of(found[0].len()), PRE_ROLL_MS + 1000 + TAIL_MS);
        assert_eq!(ms_of(found[1].len()), PRE_ROLL_MS + 600 + TAIL_MS);
        // The utterance holds the burst itself, unaltered, after the pre-roll.
        let start = samples(PRE_ROLL_MS);
        assert_eq!(&found[0][start..start + samples(1000)], &signal[samples(1000)..samples(2000)]);
        assert!(found[0][..start].iter().all(|&s| s == 0));
    }

    #[test]
    fn the_frame_size_does_not_matter() {
        let mut seed = 3;
        let signal = concat(&[silence(700), tone(800, 300.0, 5000.0), silence(1000), noise(900, 4000.0, &mut seed), silence(400)]);
        let whole = run(&signal, signal.len());
        assert_eq!(utterances(&whole).len(), 2);
        for frame in [1, 123, WINDOW, 7919, samples(500)] {
            assert_eq!(run(&signal, frame), whole, "frames of {frame} samples");
        }
    }

    #[test]
    fn pauses_between_words_do_not_end_an_utterance() {
        let signal = concat(&[
            silence(500),
            tone(400, 200.0, 6000.0),
            silence(300),
            tone(500, 250.0, 6000.0),
            silence(HANGOVER_MS - 100),
            tone(400, 200.0, 6000.0),
            silence(1500),
        ]);
        let events = run(&signal, samples(500));
        let found = utterances(&events);
        assert_eq!(found.len(), 1);
        assert_eq!(ms_of(found[0].len()), PRE_ROLL_MS + 400 + 300 + 500 + HANGOVER_MS - 100 + 400 + TAIL_MS);
    }

    #[test]
    fn pure_silence_yields_nothing() {
        assert!(run(&silence(30_000), samples(500)).is_empty());
        // Nor does faint noise, nor a noise floor exactly at the absolute minimum.
        let mut seed = 11;
        assert!(run(&noise(30_000, 20.0, &mut seed), samples(500)).is_empty());
        assert!(run(&tone(10_000, 100.0, 140.0), samples(500)).is_empty());
    }

    #[test]
    fn short_clicks_are_discarded() {
        let signal = concat(&[silence(1000), tone(100, 1000.0, 10_000.0), silence(1500)]);
        assert_eq!(run(&signal, samples(500)), vec![VadEvent::SpeechStarted, VadEvent::Discarded]);
    }

    #[test]
    fn the_noise_floor_adapts_to_a_noisy_room() {
        let mut seed = 5;
        // Steady noise well above the absolute minimum (about -35 dBFS): not speech.
        let room = 1000.0;
        let signal = concat(&[
            noise(3000, room, &mut seed),
            tone(1000, 180.0, 10_000.0),
            noise(3000, room, &mut seed),
            tone(800, 180.0, 10_000.0),
            noise(2000, room, &mut seed),
        ]);
        let mut vad = Vad::new();
        let mut events = Vec::new();
        for frame in signal.chunks(samples(500)) {
            events.extend(vad.push(frame));
        }
        let floor = vad.noise_floor_db();
        assert!((-40.0..-30.0).contains(&floor), "floor {floor} dBFS follows the room noise");
        events.extend(vad.flush());
        let found = utterances(&events);
        assert_eq!(found.len(), 2, "{events:?}");
        assert_eq!(ms_of(found[0].len()), PRE_ROLL_MS + 1000 + TAIL_MS);
        assert_eq!(ms_of(found[1].len()), PRE_ROLL_MS + 800 + TAIL_MS);

        // A slowly rising noise never becomes speech.
        let rising: Vec<i16> = (0..40).flat_map(|step| noise(250, 30.0 * 1.09f64.powi(step), &mut seed)).collect();
        assert!(run(&rising, samples(500)).is_empty());
    }

    #[test]
    fn long_speech_is_split_at_its_quietest_moment() {
        // 45 s of "speech": a tone that dips to a quieter level for 100 ms every 2.5 s.
        let mut signal = silence(500);
        let mut dips = Vec::new();
        while signal.len() < samples(45_500) {
            signal.extend(tone(2400, 200.0, 8000.0));
            dips.push(signal.len());
            signal.extend(tone(100, 200.0, 2500.0));
        }
        signal.extend(silence(1500));
        let speech_start = samples(500) - samples(PRE_ROLL_MS);

        let mut vad = Vad::new();
        let mut events = Vec::new();
        let mut longest_in_progress = 0;
        for frame in signal.chunks(samples(500)) {
            events.extend(vad.push(frame));
            longest_in_progress = longest_in_progress.max(vad.current().map_or(0, <[i16]>::len));
        }
        events.extend(vad.flush());
        assert!(longest_in_progress <= MAX_UTTERANCE + WINDOW, "memory stays bounded");

        let found = utterances(&events);
        assert!(found.len() >= 3, "{} utterances", found.len());
        assert!(found.iter().all(|u| u.len() <= MAX_UTTERANCE));
        // Nothing is lost: the pieces put together are the speech, pre-roll to tail.
        let joined: Vec<i16> = found.iter().flat_map(|u| u.iter().copied()).collect();
        assert_eq!(&joined[..], &signal[speech_start..speech_start + joined.len()]);
        // Each split fell inside a dip (window aligned to the stream start).
        let mut at = speech_start;
        for piece in &found[..found.len() - 1] {
            at += piece.len();
            assert!(dips.iter().any(|&dip| at > dip && at <= dip + samples(100)), "split at {} ms is not in a dip", ms_of(at));
        }
    }

    #[test]
    fn the_utterance_in_progress_can_be_peeked_at_and_flushed() {
        let mut vad = Vad::new();
        assert!(vad.push(&silence(1000)).is_empty());
        assert_eq!(vad.current(), None);
        assert_eq!(vad.push(&tone(500, 200.0, 8000.0)), vec![VadEvent::SpeechStarted]);
        let first = vad.current().map(<[i16]>::len).unwrap();
        assert!(vad.in_speech());
        assert!(vad.push(&tone(503, 200.0, 8000.0)).is_empty());
        let second = vad.current().map(<[i16]>::len).unwrap();
        assert!(second > first);
        // The partial window is included when the stream ends in the middle of speech.
        let flushed = vad.flush();
        assert_eq!(flushed.len(), 1);
        let VadEvent::Utterance(audio) = &flushed[0] else { panic!("{flushed:?}") };
        assert_eq!(audio.len(), samples(PRE_ROLL_MS) + samples(1003));
        assert!(!vad.in_speech());
        assert!(vad.flush().is_empty());
    }

    #[test]
    fn levels_are_in_dbfs() {
        assert_eq!(level_db(&[0; WINDOW]), SILENCE_DB);
        let full = level_db(&tone(20, 1000.0, 32_767.0));
        assert!((full - -3.0).abs() < 0.2, "{full}");
        let quiet = level_db(&[100; WINDOW]);
        assert!((quiet - -50.3).abs() < 0.2, "{quiet}");
    }
}
