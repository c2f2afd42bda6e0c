//! Decoding of uploaded recordings: wav, webm (Opus), ogg (Vorbis or Opus), mp3 and m4a (AAC)
//! become 16 kHz mono PCM16, the audio the speech engines take.
//!
//! The container is sniffed from the bytes, never from a file name. Symphonia demuxes every
//! container and decodes every codec except Opus, which `opus-pure` (pure Rust) decodes straight to 16 kHz.
//! Channels are averaged to mono; other sample rates are resampled with an FFT resampler.
//! Decoding is CPU-bound: call it from a blocking task.

use std::io::Cursor;
use std::panic::{AssertUnwindSafe, catch_unwind};

use rubato::{FftFixedIn, Resampler};
use symphonia::core::audio::SampleBuffer;
use symphonia::core::codecs::{CODEC_TYPE_NULL, CODEC_TYPE_OPUS, CodecParameters, DecoderOptions};
use symphonia::core::errors::Error as SymphoniaError;
use symphonia::core::formats::{FormatOptions, FormatReader};
use symphonia::core::io::{MediaSource, MediaSourceStream};
use symphonia::core::meta::MetadataOptions;
use symphonia::core::probe::Hint;

use super::{SAMPLE_RATE, SpeechError};

/// The longest recording accepted, in seconds.
pub const MAX_RECORDING_SECONDS: u32 = 2 * 60 * 60;

const NO_SOUND: &str = "De opname bevat geen geluid.";
const UNREADABLE: &str = "De opname kon niet worden gelezen. Gebruik een wav-, webm-, ogg-, mp3- of m4a-bestand.";
const TOO_LONG: &str = "De opname is langer dan twee uur.";

/// A recording whose loudest sample stays at or below this is silence (about -60 dBFS).
const SILENCE_PEAK: u16 = 32;

/// Frames per resampler call.
const RESAMPLE_CHUNK: usize = 1024;

/// The largest Opus frame: 120 ms, here at 16 kHz.
const MAX_OPUS_FRAME: usize = SAMPLE_RATE as usize * 120 / 1000;

/// Decodes an uploaded recording to 16 kHz mono PCM16.
///
/// Errors are [`SpeechError::Audio`] with a Dutch message fit to show: no sound (empty, no
/// samples, or silence), unreadable (unknown format or corrupt), or longer than
/// [`MAX_RECORDING_SECONDS`]. A file cut short decodes up to where it breaks off.
pub fn decode_recording(bytes: &[u8]) -> Result<Vec<i16>, SpeechError> {
    decode_source(Box::new(Cursor::new(bytes.to_vec())), bytes.len() as u64)
}

/// As [`decode_recording`], reading the recording from a file (an upload streamed to disk), so
/// that the encoded bytes are never all in memory; read from its current position.
pub fn decode_recording_file(file: std::fs::File) -> Result<Vec<i16>, SpeechError> {
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    decode_source(Box::new(file), len)
}

fn decode_source(source: Box<dyn MediaSource>, len: u64) -> Result<Vec<i16>, SpeechError> {
    if len == 0 {
        return Err(SpeechError::Audio(NO_SOUND.to_string()));
    }
    // The decoders are meant not to panic on hostile input; should one do so anyway, the upload
    // is unreadable rather than the process wounded.
    let decoded =
        catch_unwind(AssertUnwindSafe(|| decode(source))).unwrap_or_else(|_| Err(Failure::Unreadable("a decoder panicked".to_string())));
    match decoded {
        Ok(samples) => {
            let peak = samples.iter().map(|sample| sample.unsigned_abs()).max().unwrap_or(0);
            if peak <= SILENCE_PEAK {
                tracing::info!(samples = samples.len(), "uploaded recording holds no sound");
                return Err(SpeechError::Audio(NO_SOUND.to_string()));
            }
            tracing::debug!(samples = samples.len(), "uploaded recording decoded");
            Ok(samples)
        }
        Err(Failure::Unreadable(reason)) => {
            tracing::info!(bytes = len, %reason, "uploaded recording unreadable");
            Err(SpeechError::Audio(UNREADABLE.to_string()))
        }
        Err(Failure::TooLong) => Err(SpeechError::Audio(TOO_LONG.to_string())),
    }
}

/// Why decoding stopped short. The reason is for the log only; it holds no audio.
#[derive(Debug)]
enum Failure {
    Unreadable(String),
    TooLong,
}

fn decode(source: Box<dyn MediaSource>) -> Result<Vec<i16>, Failure> {
    let source = MediaSourceStream::new(source, Default::default());
    let probed = symphonia::default::get_probe()
        .format(&Hint::new(), source, &FormatOptions { enable_gapless: true, ..FormatOptions::default() }, &MetadataOptions::default())
        .map_err(|err| Failure::Unreadable(format!("unknown container: {err}")))?;
    let mut format = probed.format;
    let track = format
        .tracks()
        .iter()
        .find(|track| track.codec_params.codec != CODEC_TYPE_NULL)
        .ok_or_else(|| Failure::Unreadable("no audio track".to_string()))?;
    let track_id = track.id;
    let params = track.codec_params.clone();
    if let (Some(frames), Some(rate)) = (params.n_frames, params.sample_rate)
        && rate > 0
        && frames / u64::from(rate) > u64::from(MAX_RECORDING_SECONDS)
    {
        return Err(Failure::TooLong);
    }
    if params.codec == CODEC_TYPE_OPUS {
        decode_opus(format.as_mut(), track_id, &params)
    } else {
        decode_symphonia(format.as_mut(), track_id, &params)
    }
}

/// Whether a demuxer error ends the stream (a clean end, or a file cut short) rather than
/// making it unreadable.
fn is_end(err: &SymphoniaError) -> bool {
    matches!(err, SymphoniaError::IoError(_) | SymphoniaError::ResetRequired)
}

/// Decodes every codec but Opus with symphonia.
fn decode_symphonia(format: &mut dyn FormatReader, track_id: u32, params: &CodecParameters) -> Result<Vec<i16>, Failure> {
    let mut decoder = symphonia::default::get_codecs()
        .make(params, &DecoderOptions::default())
        .map_err(|err| Failure::Unreadable(format!("unsupported codec: {err}")))?;
    let mut output: Option<Mono> = None;
    let mut failed_packets = 0usize;
    let mut buffer: Option<SampleBuffer<f32>> = None;
    loop {
        let packet = match format.next_packet() {
            Ok(packet) => packet,
            Err(err) if is_end(&err) => break,
            Err(err) => return Err(Failure::Unreadable(format!("demuxing: {err}"))),
        };
        if packet.track_id() != track_id {
            continue;
        }
        let decoded = match decoder.decode(&packet) {
            Ok(decoded) => decoded,
            Err(SymphoniaError::DecodeError(_)) => {
                failed_packets += 1;
                continue;
            }
            Err(err) if is_end(&err) => break,
            Err(err) => return Err(Failure::Unreadable(format!("decoding: {err}"))),
        };
        let spec = *decoded.spec();
        let channels = spec.channels.count();
        if channels == 0 || spec.rate == 0 {
            return Err(Failure::Unreadable("a packet without channels or rate".to_string()));
        }
        let mono = match &mut output {
            Some(mono) if mono.rate == spec.rate => mono,
            Some(_) => return Err(Failure::Unreadable("the sample rate changes".to_string())),
            None => output.insert(Mono::new(spec.rate)?),
        };
        let frames = decoded.frames();
        let needed = decoded.capacity() * channels;
        let samples = match &mut buffer {
            Some(samples) if samples.capacity() >= needed => samples,
            _ => buffer.insert(SampleBuffer::new(decoded.capacity() as u64, spec)),
        };
        samples.copy_interleaved_ref(decoded);
        let interleaved = samples.samples();
        let frames = frames.min(interleaved.len() / channels);
        mono.push_interleaved(&interleaved[..frames * channels], channels)?;
    }
    match output {
        Some(mono) => mono.finish(),
        None if failed_packets > 0 => Err(Failure::Unreadable(format!("{failed_packets} packets failed to decode"))),
        None => Ok(Vec::new()),
    }
}

/// What an Opus stream's identification header (`OpusHead`) says.
#[derive(Debug, PartialEq)]
struct OpusHead {
    channels: usize,
    /// Samples at 48 kHz to drop at the start.
    pre_skip: usize,
}

/// Parses `OpusHead` (RFC 7845 §5.1). Only mapping family 0 (mono or stereo) is supported.
fn opus_head(extra: &[u8]) -> Result<OpusHead, Failure> {
    if extra.len() < 19 || &extra[..8] != b"OpusHead" {
        return Err(Failure::Unreadable("no Opus identification header".to_string()));
    }
    let channels = usize::from(extra[9]);
    let pre_skip = usize::from(u16::from_le_bytes([extra[10], extra[11]]));
    let family = extra[18];
    if family != 0 || !(1..=2).contains(&channels) {
        return Err(Failure::Unreadable(format!("Opus with {channels} channels in mapping family {family}")));
    }
    Ok(OpusHead { channels, pre_skip })
}

/// Decodes Opus packets with the pure-Rust decoder (RFC 6716 and 8251), at 16 kHz.
fn decode_opus(format: &mut dyn FormatReader, track_id: u32, params: &CodecParameters) -> Result<Vec<i16>, Failure> {
    let head = match params.extra_data.as_deref() {
        Some(extra) => opus_head(extra)?,
        None => {
            let channels = params.channels.map_or(0, |channels| channels.count());
            if !(1..=2).contains(&channels) {
                return Err(Failure::Unreadable("Opus without a channel count".to_string()));
            }
            OpusHead { channels, pre_skip: 0 }
        }
    };
    let mut decoder = opus_pure::OpusDecoder::new(SAMPLE_RATE as i32, head.channels)
        .map_err(|err| Failure::Unreadable(format!("opus decoder: {err}")))?;
    let mut mono = Mono::new(SAMPLE_RATE)?;
    // The pre-skip counts 48 kHz samples; we decode at 16 kHz.
    let mut skip = head.pre_skip / 3;
    let mut pcm = vec![0i16; MAX_OPUS_FRAME * head.channels];
    let mut failed_packets = 0usize;
    let mut decoded_any = false;
    loop {
        let packet = match format.next_packet() {
            Ok(packet) => packet,
            Err(err) if is_end(&err) => break,
            Err(err) => return Err(Failure::Unreadable(format!("demuxing: {err}"))),
        };
        if packet.track_id() != track_id || packet.data.is_empty() {
            continue;
        }
        let frames = match decoder.decode_s16(&packet.data, MAX_OPUS_FRAME, &mut pcm) {
            Ok(frames) => frames.min(MAX_OPUS_FRAME),
            Err(_) => {
                failed_packets += 1;
                continue;
            }
        };
        if !decoded_any && packet.trim_start > 0 {
            // The demuxer trims the pre-skip itself (Ogg with gapless playback).
            skip = 0;
        }
        decoded_any = true;
        // Trims count 48 kHz frames, like the pre-skip.
        let dropped = skip.min(frames);
        skip -= dropped;
        let start = (dropped + packet.trim_start as usize / 3).min(frames);
        let end = frames.saturating_sub(packet.trim_end as usize / 3).max(start);
        let samples: Vec<f32> =
            pcm[start * head.channels..end * head.channels].iter().map(|&sample| f32::from(sample) / 32_768.0).collect();
        mono.push_interleaved(&samples, head.channels)?;
    }
    if !decoded_any && failed_packets > 0 {
        return Err(Failure::Unreadable(format!("{failed_packets} Opus packets failed to decode")));
    }
    mono.finish()
}

/// Collects mono audio at the source rate and delivers it as 16 kHz PCM16, resampling on the way.
struct Mono {
    rate: u32,
    resampler: Option<FftFixedIn<f32>>,
    /// Source samples waiting for a full resampler chunk.
    pending: Vec<f32>,
    /// Source frames taken in, for the duration limit and the output length.
    frames_in: u64,
    /// Output samples still to drop: the resampler's delay.
    delay: usize,
    output: Vec<i16>,
}

impl Mono {
    fn new(rate: u32) -> Result<Mono, Failure> {
        let resampler = if rate == SAMPLE_RATE {
            None
        } else {
            let resampler = FftFixedIn::new(rate as usize, SAMPLE_RATE as usize, RESAMPLE_CHUNK, 2, 1)
                .map_err(|err| Failure::Unreadable(format!("resampler for {rate} Hz: {err}")))?;
            Some(resampler)
        };
        let delay = resampler.as_ref().map_or(0, Resampler::output_delay);
        Ok(Mono { rate, resampler, pending: Vec::new(), frames_in: 0, delay, output: Vec::new() })
    }

    /// Takes interleaved frames, averages their channels and passes them on.
    fn push_interleaved(&mut self, interleaved: &[f32], channels: usize) -> Result<(), Failure> {
        let frames = interleaved.len() / channels;
        self.frames_in += frames as u64;
        if self.frames_in > u64::from(MAX_RECORDING_SECONDS) * u64::from(self.rate) {
            return Err(Failure::TooLong);
        }
        let scale = 1.0 / channels as f32;
        self.pending.extend(interleaved.chunks_exact(channels).map(|frame| frame.iter().sum::<f32>() * scale));
        self.drain(false)
    }

    /// Resamples every full chunk of pending samples (and, at the end, the rest).
    fn drain(&mut self, end: bool) -> Result<(), Failure> {
        let Some(resampler) = &mut self.resampler else {
            let pending = std::mem::take(&mut self.pending);
            self.output.extend(pending.into_iter().map(to_pcm16));
            return Ok(());
        };
        let mut start = 0;
        while self.pending.len() - start >= resampler.input_frames_next() {
            let needed = resampler.input_frames_next();
            let chunk = &self.pending[start..start + needed];
            let out = resampler.process(&[chunk], None).map_err(|err| Failure::Unreadable(format!("resampling: {err}")))?;
            start += needed;
            emit(&mut self.output, &mut self.delay, &out);
        }
        self.pending.drain(..start);
        if end {
            let wanted = (self.frames_in * u64::from(SAMPLE_RATE)).div_ceil(u64::from(self.rate));
            let wanted = usize::try_from(wanted).unwrap_or(usize::MAX);
            if !self.pending.is_empty() {
                let rest = std::mem::take(&mut self.pending);
                let out = resampler
                    .process_partial(Some(&[rest.as_slice()]), None)
                    .map_err(|err| Failure::Unreadable(format!("resampling: {err}")))?;
                emit(&mut self.output, &mut self.delay, &out);
            }
            // Push the delayed samples out of the resampler.
            while self.output.len() < wanted {
                let out =
                    resampler.process_partial(None::<&[&[f32]]>, None).map_err(|err| Failure::Unreadable(format!("resampling: {err}")))?;
                if out.first().is_none_or(Vec::is_empty) {
                    break;
                }
                emit(&mut self.output, &mut self.delay, &out);
            }
            self.output.truncate(wanted);
        }
        Ok(())
    }

    fn finish(mut self) -> Result<Vec<i16>, Failure> {
        self.drain(true)?;
        Ok(self.output)
    }
}

/// Appends resampler output, first dropping what remains of the delay.
fn emit(output: &mut Vec<i16>, delay: &mut usize, resampled: &[Vec<f32>]) {
    let Some(samples) = resampled.first() else {
        return;
    };
    let dropped = (*delay).min(samples.len());
    *delay -= dropped;
    output.extend(samples[dropped..].iter().copied().map(to_pcm16));
}

fn to_pcm16(sample: f32) -> i16 {
    // `as` saturates, and turns NaN into 0.
    (sample * 32_768.0).round().clamp(-32_768.0, 32_767.0) as i16
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone(frequency: f32, rate: u32, seconds: f32, amplitude: f32) -> Vec<f32> {
        let count = (rate as f32 * seconds) as usize;
        (0..count).map(|n| amplitude * (2.0 * std::f32::consts::PI * frequency * n as f32 / rate as f32).sin()).collect()
    }

    fn zero_crossings(samples: &[i16]) -> usize {
        samples.windows(2).filter(|pair| (pair[0] < 0) != (pair[1] < 0)).count()
    }

    fn rms(samples: &[i16]) -> f64 {
        (samples.iter().map(|&s| f64::from(s).powi(2)).sum::<f64>() / samples.len() as f64).sqrt()
    }

    fn resample(rate: u32, input: &[f32], piece: usize) -> Vec<i16> {
        let mut mono = Mono::new(rate).unwrap();
        for chunk in input.chunks(piece) {
            mono.push_interleaved(chunk, 1).unwrap();
        }
        mono.finish().unwrap()
    }

    #[test]
    fn a_1_khz_tone_keeps_its_frequency_and_level() {
        for rate in [8_000, 22_050, 44_100, 48_000] {
            let output = resample(rate, &tone(1_000.0, rate, 2.0, 0.5), 3_000);
            assert_eq!(output.len(), 32_000, "{rate} Hz");
            // 1.9875 seconds of 1 kHz cross zero 3975 times.
            let crossings = zero_crossings(&output[100..31_900]);
            assert!(crossings.abs_diff(3_975) <= 2, "{rate} Hz: {crossings} crossings");
            // Half of full scale: an RMS of 0.5 / sqrt(2).
            let level = rms(&output[1_000..31_000]) / 32_768.0;
            assert!((level - 0.3536).abs() < 0.005, "{rate} Hz: level {level}");
        }
    }

    #[test]
    fn the_resampler_adds_no_delay() {
        // A click at 1 s stays at 1 s.
        let mut input = vec![0.0f32; 44_100 * 2];
        input[44_100] = 1.0;
        let output = resample(44_100, &input, 4_410);
        let peak = output.iter().enumerate().max_by_key(|(_, s)| s.unsigned_abs()).map(|(i, _)| i);
        assert!(peak.is_some_and(|at| at.abs_diff(16_000) <= 1), "{peak:?}");
    }

    #[test]
    fn sixteen_khz_passes_through() {
        let input = tone(440.0, 16_000, 0.5, 0.25);
        let output = resample(16_000, &input, 1_000);
        assert_eq!(output.len(), input.len());
        assert_eq!(output[4], to_pcm16(input[4]));
    }

    #[test]
    fn channels_are_averaged() {
        let mut mono = Mono::new(16_000).unwrap();
        mono.push_interleaved(&[0.5, 0.0, -0.25, -0.25], 2).unwrap();
        assert_eq!(mono.finish().unwrap(), vec![8_192, -8_192]);
    }

    #[test]
    fn the_duration_limit_holds_while_decoding() {
        let mut mono = Mono::new(48_000).unwrap();
        let limit = u64::from(MAX_RECORDING_SECONDS) * 48_000;
        mono.frames_in = limit - 10;
        assert!(mono.push_interleaved(&[0.0; 20], 2).is_ok());
        assert!(matches!(mono.push_interleaved(&[0.0; 2], 2), Err(Failure::TooLong)));
    }

    #[test]
    fn reads_the_opus_head() {
        let mut head = b"OpusHead".to_vec();
        head.extend([1, 2, 0x38, 0x01, 0x80, 0xbb, 0, 0, 0, 0, 0]);
        assert_eq!(opus_head(&head).ok(), Some(OpusHead { channels: 2, pre_skip: 312 }));
        head[18] = 1;
        assert!(opus_head(&head).is_err());
        assert!(opus_head(b"OpusHead").is_err());
        assert!(opus_head(b"OpusTags\x01\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00").is_err());
    }

    #[test]
    fn pcm16_conversion_saturates() {
        assert_eq!(to_pcm16(2.0), i16::MAX);
        assert_eq!(to_pcm16(-2.0), i16::MIN);
        assert_eq!(to_pcm16(f32::NAN), 0);
    }
}
