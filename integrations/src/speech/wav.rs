//! WAV files of the engines' audio: 16 kHz, mono, 16-bit PCM.
//!
//! [`encode`] wraps samples in a RIFF/WAVE container for engines that take a file upload;
//! [`parse`] reads such a file back (only that exact format), for tests and fixtures.

use super::SAMPLE_RATE;

/// Bytes of the header [`encode`] writes before the samples.
pub const HEADER_LEN: usize = 44;

const CHANNELS: u16 = 1;
const BITS_PER_SAMPLE: u16 = 16;
const BLOCK_ALIGN: u16 = CHANNELS * BITS_PER_SAMPLE / 8;
const FORMAT_PCM: u16 = 1;

/// Encodes PCM16 samples (16 kHz, mono) as a WAV file.
///
/// Recordings longer than a WAV file can hold (about 37 hours at this rate) are cut at the limit.
pub fn encode(samples: &[i16]) -> Vec<u8> {
    let max_samples = (u32::MAX as usize - HEADER_LEN) / 2;
    let samples = &samples[..samples.len().min(max_samples)];
    // Both fit in u32 because of the cut above.
    let data_len = (samples.len() * 2) as u32;
    let byte_rate = SAMPLE_RATE * u32::from(BLOCK_ALIGN);

    let mut out = Vec::with_capacity(HEADER_LEN + samples.len() * 2);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVE");
    out.extend_from_slice(b"fmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&FORMAT_PCM.to_le_bytes());
    out.extend_from_slice(&CHANNELS.to_le_bytes());
    out.extend_from_slice(&SAMPLE_RATE.to_le_bytes());
    out.extend_from_slice(&byte_rate.to_le_bytes());
    out.extend_from_slice(&BLOCK_ALIGN.to_le_bytes());
    out.extend_from_slice(&BITS_PER_SAMPLE.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for sample in samples {
        out.extend_from_slice(&sample.to_le_bytes());
    }
    out
}

/// Why [`parse`] refused a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WavError {
    #[error("not a RIFF/WAVE file")]
    NotWave,
    #[error("the file ends inside its {0} chunk")]
    Truncated(&'static str),
    #[error("no fmt chunk before the data")]
    MissingFormat,
    #[error("no data chunk")]
    MissingData,
    #[error(
        "unsupported format {format} ({channels} channel(s), {rate} Hz, {bits} bit); \
         expected PCM, 1 channel, 16000 Hz, 16 bit"
    )]
    Unsupported { format: u16, channels: u16, rate: u32, bits: u16 },
    #[error("the RIFF size {declared} does not match the file length {actual}")]
    SizeMismatch { declared: u64, actual: u64 },
}

/// Reads a WAV file that is 16 kHz, mono, 16-bit PCM, and returns its samples.
///
/// Chunks other than `fmt ` and `data` (such as `LIST`) are skipped. Any other format is refused.
pub fn parse(bytes: &[u8]) -> Result<Vec<i16>, WavError> {
    if bytes.len() < 12 || &bytes[0..4] != b"RIFF" || &bytes[8..12] != b"WAVE" {
        return Err(WavError::NotWave);
    }
    let declared = u64::from(read_u32(bytes, 4));
    let actual = bytes.len() as u64 - 8;
    if declared != actual {
        return Err(WavError::SizeMismatch { declared, actual });
    }

    let mut pos = 12;
    let mut format_ok = false;
    while pos + 8 <= bytes.len() {
        let id = &bytes[pos..pos + 4];
        let len = read_u32(bytes, pos + 4) as usize;
        let body_start = pos + 8;
        let body_end = body_start.checked_add(len).filter(|end| *end <= bytes.len());
        match id {
            b"fmt " => {
                let end = body_end.ok_or(WavError::Truncated("fmt"))?;
                if len < 16 {
                    return Err(WavError::Truncated("fmt"));
                }
                let body = &bytes[body_start..end];
                let format = read_u16(body, 0);
                let channels = read_u16(body, 2);
                let rate = read_u32(body, 4);
                let bits = read_u16(body, 14);
                if format != FORMAT_PCM || channels != CHANNELS || rate != SAMPLE_RATE || bits != BITS_PER_SAMPLE {
                    return Err(WavError::Unsupported { format, channels, rate, bits });
                }
                format_ok = true;
            }
            b"data" => {
                if !format_ok {
                    return Err(WavError::MissingFormat);
                }
                let end = body_end.ok_or(WavError::Truncated("data"))?;
                if !len.is_multiple_of(2) {
                    return Err(WavError::Truncated("data"));
                }
                let samples = bytes[body_start..end].chunks_exact(2).map(|pair| i16::from_le_bytes([pair[0], pair[1]])).collect();
                return Ok(samples);
            }
            _ => {}
        }
        // Chunks are padded to an even length.
        pos = body_start.saturating_add(len).saturating_add(len % 2);
    }
    Err(WavError::MissingData)
}

fn read_u16(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

fn read_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_describes_16_khz_mono_pcm16() {
        let wav = encode(&[0, 1, -1, i16::MAX, i16::MIN]);
        assert_eq!(wav.len(), HEADER_LEN + 10);
        assert_eq!(&wav[0..4], b"RIFF");
        assert_eq!(read_u32(&wav, 4), (wav.len() - 8) as u32);
        assert_eq!(&wav[8..16], b"WAVEfmt ");
        assert_eq!(read_u32(&wav, 16), 16);
        assert_eq!(read_u16(&wav, 20), 1, "PCM");
        assert_eq!(read_u16(&wav, 22), 1, "mono");
        assert_eq!(read_u32(&wav, 24), 16_000);
        assert_eq!(read_u32(&wav, 28), 32_000, "byte rate");
        assert_eq!(read_u16(&wav, 32), 2, "block align");
        assert_eq!(read_u16(&wav, 34), 16);
        assert_eq!(&wav[36..40], b"data");
        assert_eq!(read_u32(&wav, 40), 10);
        assert_eq!(&wav[44..], &[0, 0, 1, 0, 0xff, 0xff, 0xff, 0x7f, 0x00, 0x80]);
    }

    #[test]
    fn samples_survive_a_round_trip() {
        let samples: Vec<i16> = (0..1000).map(|i| ((i * 97) % 65_536 - 32_768) as i16).collect();
        assert_eq!(parse(&encode(&samples)).unwrap(), samples);
        assert_eq!(parse(&encode(&[])).unwrap(), Vec::<i16>::new());
    }

    #[test]
    fn other_chunks_are_skipped() {
        let wav = encode(&[5, -5]);
        // Insert an odd-sized LIST chunk (padded) between fmt and data.
        let mut with_list = wav[..36].to_vec();
        with_list.extend_from_slice(b"LIST");
        with_list.extend_from_slice(&3u32.to_le_bytes());
        with_list.extend_from_slice(&[1, 2, 3, 0]);
        with_list.extend_from_slice(&wav[36..]);
        let riff = (with_list.len() - 8) as u32;
        with_list[4..8].copy_from_slice(&riff.to_le_bytes());
        assert_eq!(parse(&with_list).unwrap(), vec![5, -5]);
    }

    #[test]
    fn other_formats_and_broken_files_are_refused() {
        assert_eq!(parse(b"not a wav file at all"), Err(WavError::NotWave));

        let mut stereo = encode(&[1, 2]);
        stereo[22] = 2;
        assert!(matches!(parse(&stereo), Err(WavError::Unsupported { channels: 2, .. })));

        let mut rate = encode(&[1, 2]);
        rate[24..28].copy_from_slice(&44_100u32.to_le_bytes());
        assert!(matches!(parse(&rate), Err(WavError::Unsupported { rate: 44_100, .. })));

        let mut cut = encode(&[1, 2, 3]);
        cut.truncate(cut.len() - 2);
        assert!(matches!(parse(&cut), Err(WavError::SizeMismatch { .. })));
    }
}
