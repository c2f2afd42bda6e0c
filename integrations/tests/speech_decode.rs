//! Decoding uploaded recordings to 16 kHz mono PCM16, with the fixtures that
//! `tests/fixtures/decode/make.sh` makes: a Dutch phrase and a 1 kHz tone, two seconds each, in
//! every accepted format; an empty file; a silent wav; and hostile input.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use integrations::speech::SpeechError;
use integrations::speech::decode::decode_recording;

const FORMATS: [&str; 6] = ["wav", "webm", "vorbis.ogg", "opus.ogg", "mp3", "m4a"];

const NO_SOUND: &str = "De opname bevat geen geluid.";
const UNREADABLE: &str = "De opname kon niet worden gelezen. Gebruik een wav-, webm-, ogg-, mp3- of m4a-bestand.";

fn fixture(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/decode").join(name);
    std::fs::read(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// The fixture file of a recording in a format: `zin.wav`, `toon-opus.ogg`, ...
fn file(recording: &str, format: &str) -> String {
    if format.ends_with(".ogg") { format!("{recording}-{format}") } else { format!("{recording}.{format}") }
}

fn zero_crossings(samples: &[i16]) -> usize {
    samples.windows(2).filter(|pair| (pair[0] < 0) != (pair[1] < 0)).count()
}

fn rms(samples: &[i16]) -> f64 {
    (samples.iter().map(|&s| f64::from(s).powi(2)).sum::<f64>() / samples.len() as f64).sqrt()
}

/// Two seconds at 16 kHz, give or take what encoders pad at the ends.
fn assert_two_seconds(name: &str, samples: &[i16]) {
    assert!((31_900..=33_500).contains(&samples.len()), "{name}: {} samples", samples.len());
}

#[test]
fn the_phrase_decodes_in_every_format() {
    for format in FORMATS {
        let name = file("zin", format);
        let samples = decode_recording(&fixture(&name)).unwrap_or_else(|err| panic!("{name}: {err}"));
        assert_two_seconds(&name, &samples);
        let level = rms(&samples) / 32_768.0;
        assert!(level > 0.02, "{name}: level {level}");
    }
}

#[test]
fn the_tone_keeps_its_frequency_and_level_in_every_format() {
    for format in FORMATS {
        let name = file("toon", format);
        let samples = decode_recording(&fixture(&name)).unwrap_or_else(|err| panic!("{name}: {err}"));
        assert_two_seconds(&name, &samples);
        // The middle second and a half, away from encoder ramps: 1 kHz crosses zero 2000 times
        // a second.
        let middle = &samples[4_000..28_000];
        let crossings = zero_crossings(middle);
        assert!(crossings.abs_diff(3_000) <= 15, "{name}: {crossings} crossings in 1.5 s");
        // Half of full scale: an RMS of 0.354.
        let level = rms(middle) / 32_768.0;
        assert!((level - 0.354).abs() < 0.04, "{name}: level {level}");
    }
}

#[test]
fn empty_and_silent_recordings_have_no_sound() {
    for recording in [fixture("leeg.wav"), fixture("stil.wav"), Vec::new()] {
        assert_eq!(decode_recording(&recording), Err(SpeechError::Audio(NO_SOUND.into())));
    }
}

/// A small deterministic generator, so failures can be reproduced.
struct Noise(u64);

impl Noise {
    fn bytes(&mut self, count: usize) -> Vec<u8> {
        (0..count)
            .map(|_| {
                self.0 ^= self.0 << 13;
                self.0 ^= self.0 >> 7;
                self.0 ^= self.0 << 17;
                (self.0 >> 24) as u8
            })
            .collect()
    }
}

#[test]
fn garbage_cannot_be_read() {
    let mut noise = Noise(0x5eed);
    let garbage = [
        b"Dit is geen opname maar een stukje tekst.".to_vec(),
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec(),
        b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n".to_vec(),
        vec![0u8; 4_096],
        noise.bytes(1),
        noise.bytes(100),
        noise.bytes(50_000),
    ];
    for bytes in garbage {
        assert_eq!(decode_recording(&bytes), Err(SpeechError::Audio(UNREADABLE.into())), "{} bytes", bytes.len());
    }
}

/// Counts panics outside symphonia, including those a `catch_unwind` would hide, while the test
/// runs. Symphonia's demuxers do panic on some damaged files (its Matroska reader, for one);
/// `decode_recording` contains those and answers "unreadable", which `assert_handled` checks.
fn count_own_panics() -> Arc<AtomicUsize> {
    let panics = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&panics);
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let in_symphonia = info.location().is_some_and(|at| at.file().contains("symphonia-"));
        if !in_symphonia {
            counter.fetch_add(1, Ordering::SeqCst);
            previous(info);
        }
    }));
    panics
}

fn assert_handled(name: &str, result: Result<Vec<i16>, SpeechError>) {
    match result {
        Ok(samples) => assert!(samples.len() <= 34_000, "{name}: {} samples", samples.len()),
        Err(SpeechError::Audio(message)) => assert!([NO_SOUND, UNREADABLE].contains(&message.as_str()), "{name}: {message}"),
        Err(other) => panic!("{name}: {other:?}"),
    }
}

#[test]
fn cut_or_damaged_recordings_never_panic() {
    let panics = count_own_panics();
    let mut noise = Noise(0xdec0de);
    for recording in ["zin", "toon"] {
        for format in FORMATS {
            let name = file(recording, format);
            let bytes = fixture(&name);
            // Cut short: every length in the headers, then in steps through the file.
            let step = (bytes.len() / 60).max(1);
            let lengths = (1..64.min(bytes.len())).chain((64..bytes.len()).step_by(step));
            for length in lengths {
                assert_handled(&format!("{name} cut at {length}"), decode_recording(&bytes[..length]));
            }
            // Damaged: the header kept, random bytes written over part of the rest.
            for round in 0..20 {
                let mut damaged = bytes.clone();
                let start = 16 + (round * damaged.len() / 20).min(damaged.len() - 16);
                let end = (start + 200).min(damaged.len());
                damaged[start..end].copy_from_slice(&noise.bytes(end - start));
                assert_handled(&format!("{name} damaged at {start}"), decode_recording(&damaged));
            }
            // A real header followed by noise.
            let mut forged = bytes[..64.min(bytes.len())].to_vec();
            forged.extend(noise.bytes(20_000));
            assert_handled(&format!("{name} header and noise"), decode_recording(&forged));
        }
    }
    assert_eq!(panics.load(Ordering::SeqCst), 0, "a decoder panicked");
}
