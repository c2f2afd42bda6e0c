//! Which speech engine serves which model, from the environment.
//!
//! Without `APP_SPEECH_URL` (or `APP_SPEECH_RADIOLOGY_URL`) there is no engine: the embedded
//! default is "no speech recognition", and [`Engines::get`] says so with `None`.
//!
//! | Variable | Default | Meaning |
//! |---|---|---|
//! | `APP_SPEECH_URL` | unset: no engine | Base URL of the engine (without `/v1/...`) |
//! | `APP_SPEECH_MODE` | `transcription` | `transcription` (batch, per utterance) or `realtime` |
//! | `APP_SPEECH_MODEL` | [`DEFAULT_MODEL`] | Model name sent to the engine |
//! | `APP_SPEECH_API_KEY` | unset | Sent as `Authorization: Bearer <key>` |
//! | `APP_SPEECH_PROMPT` | [`DEFAULT_PROMPT`] | Prompt guiding the engine's style and words |
//! | `APP_SPEECH_INTERIM` | `2` | Seconds of speech between interim transcriptions; `0` off |
//! | `APP_SPEECH_TIMEOUT` | `30` | Seconds one request to the engine may take |
//! | `APP_SPEECH_RADIOLOGY_URL` | `APP_SPEECH_URL` | Base URL for the radiology model |
//! | `APP_SPEECH_RADIOLOGY_MODEL` | `APP_SPEECH_MODEL` | Model name for radiology |
//! | `APP_SPEECH_RADIOLOGY_PROMPT` | [`DEFAULT_RADIOLOGY_PROMPT`] | Prompt for radiology |

use std::sync::Arc;
use std::time::Duration;

use url::Url;

use super::openai::OpenAiTranscription;
use super::{AudioModel, EngineSettings, SharedEngine};

/// The model asked for when `APP_SPEECH_MODEL` is not set (its name in speaches).
pub const DEFAULT_MODEL: &str = "Systran/faster-whisper-large-v3";

/// The prompt for a GP consult when `APP_SPEECH_PROMPT` is not set: Dutch, with punctuation and
/// capitals, so the engine writes the same way.
pub const DEFAULT_PROMPT: &str = "Een consult bij de huisarts. De huisarts en de patiënt \
     bespreken de klachten, het lichamelijk onderzoek, de diagnose en het beleid, zoals \
     medicatie, een verwijzing of een controleafspraak.";

/// The prompt for radiology dictation when `APP_SPEECH_RADIOLOGY_PROMPT` is not set.
pub const DEFAULT_RADIOLOGY_PROMPT: &str = "Radiologieverslag. Indicatie, vergelijking met \
     eerder onderzoek, bevindingen en conclusie. Thoraxfoto, CT-thorax, CT-abdomen, \
     MRI-hersenen, echografie. Geen consolidaties, geen pleuravocht, geen pneumothorax. Cor niet \
     vergroot. Hypodense laesie, lymfadenopathie, status na cholecystectomie.";

/// How the engine is spoken to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One `POST /v1/audio/transcriptions` per utterance (OpenAI, speaches, whisper.cpp).
    Transcription,
    /// One realtime session per stream.
    Realtime,
}

/// The engines of this process, one per [`AudioModel`], or none; and the ones that take
/// recordings, which always go through the batch endpoint (a realtime session cannot take audio
/// faster than it is spoken: speaches' turn detection then commits one item twice).
#[derive(Clone, Default)]
pub struct Engines {
    mode: Option<Mode>,
    multilingual: Option<SharedEngine>,
    radiology: Option<SharedEngine>,
    uploads: Option<(Option<SharedEngine>, Option<SharedEngine>)>,
}

impl std::fmt::Debug for Engines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engines")
            .field("mode", &self.mode)
            .field("multilingual", &self.multilingual.as_ref().map(|e| e.name()))
            .field("radiology", &self.radiology.as_ref().map(|e| e.name()))
            .finish()
    }
}

impl Engines {
    /// No engine at all.
    pub fn none() -> Self {
        Self::default()
    }

    /// Engines given directly (for tests, or an engine made elsewhere).
    pub fn from_engines(multilingual: Option<SharedEngine>, radiology: Option<SharedEngine>) -> Self {
        Self { mode: None, multilingual, radiology, uploads: None }
    }

    /// Reads the `APP_SPEECH_*` variables of the process.
    pub fn from_env() -> Result<Self, String> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Reads the `APP_SPEECH_*` variables through `lookup`. An empty value counts as unset. The
    /// error names the variable that is wrong.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, String> {
        let (mode, multilingual, radiology) = read_settings(lookup)?;
        let batch = |settings: &Option<EngineSettings>| settings.as_ref().map(|s| build(Mode::Transcription, s)).transpose();
        let uploads = match mode {
            Mode::Transcription => None,
            Mode::Realtime => Some((batch(&multilingual)?, batch(&radiology)?)),
        };
        Ok(Self {
            mode: (multilingual.is_some() || radiology.is_some()).then_some(mode),
            multilingual: multilingual.map(|s| build(mode, &s)).transpose()?,
            radiology: radiology.map(|s| build(mode, &s)).transpose()?,
            uploads,
        })
    }

    /// The engine for `model`, or `None` when none is configured.
    pub fn get(&self, model: AudioModel) -> Option<SharedEngine> {
        match model {
            AudioModel::Multilingual => self.multilingual.clone(),
            AudioModel::Radiology => self.radiology.clone(),
        }
    }

    /// The engine that transcribes an uploaded recording for `model`: the batch engine, whatever
    /// the mode of the live streams.
    pub fn for_upload(&self, model: AudioModel) -> Option<SharedEngine> {
        match (&self.uploads, model) {
            (Some((multilingual, _)), AudioModel::Multilingual) => multilingual.clone(),
            (Some((_, radiology)), AudioModel::Radiology) => radiology.clone(),
            (None, model) => self.get(model),
        }
    }

    /// How the configured engines are spoken to, if any is configured from the environment.
    pub fn mode(&self) -> Option<Mode> {
        self.mode
    }
}

/// Makes the engine for one model.
fn build(mode: Mode, settings: &EngineSettings) -> Result<SharedEngine, String> {
    match mode {
        Mode::Transcription => Ok(Arc::new(OpenAiTranscription::new(settings.clone()))),
        Mode::Realtime => Ok(Arc::new(crate::speech::realtime::Realtime::from_settings(settings)?)),
    }
}

type Settings = (Mode, Option<EngineSettings>, Option<EngineSettings>);

/// Parses the variables into the settings of the general and the radiology engine.
pub fn read_settings(lookup: impl Fn(&str) -> Option<String>) -> Result<Settings, String> {
    let get = |name: &str| lookup(name).map(|v| v.trim().to_string()).filter(|v| !v.is_empty());

    let mode = match get("APP_SPEECH_MODE").as_deref() {
        None | Some("transcription") => Mode::Transcription,
        Some("realtime") => Mode::Realtime,
        Some(other) => {
            return Err(format!("APP_SPEECH_MODE must be \"transcription\" or \"realtime\", not {other:?}"));
        }
    };
    let url = get("APP_SPEECH_URL").map(|v| base_url("APP_SPEECH_URL", &v)).transpose()?;
    let radiology_url = get("APP_SPEECH_RADIOLOGY_URL").map(|v| base_url("APP_SPEECH_RADIOLOGY_URL", &v)).transpose()?.or(url.clone());
    let model = get("APP_SPEECH_MODEL").unwrap_or_else(|| DEFAULT_MODEL.to_string());
    let radiology_model = get("APP_SPEECH_RADIOLOGY_MODEL").unwrap_or_else(|| model.clone());
    let api_key = get("APP_SPEECH_API_KEY");
    let prompt = get("APP_SPEECH_PROMPT").unwrap_or_else(|| DEFAULT_PROMPT.to_string());
    let radiology_prompt = get("APP_SPEECH_RADIOLOGY_PROMPT").unwrap_or_else(|| DEFAULT_RADIOLOGY_PROMPT.to_string());
    let interim = seconds("APP_SPEECH_INTERIM", get("APP_SPEECH_INTERIM"), 2.0, true)?;
    let timeout = seconds("APP_SPEECH_TIMEOUT", get("APP_SPEECH_TIMEOUT"), 30.0, false)?;

    let general = url.map(|url| EngineSettings { url, model, api_key: api_key.clone(), prompt, interim, timeout });
    let radiology =
        radiology_url.map(|url| EngineSettings { url, model: radiology_model, api_key, prompt: radiology_prompt, interim, timeout });
    Ok((mode, general, radiology))
}

/// An http(s) URL without query or fragment, returned without its trailing `/`.
fn base_url(name: &str, value: &str) -> Result<String, String> {
    let parsed = Url::parse(value).map_err(|e| format!("{name} is not a URL ({e}): {value:?}"))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(format!("{name} must be an http or https URL, not {value:?}"));
    }
    if parsed.query().is_some() || parsed.fragment().is_some() {
        return Err(format!("{name} must be a base URL without query or fragment: {value:?}"));
    }
    Ok(parsed.as_str().trim_end_matches('/').to_string())
}

/// A number of seconds; zero only where `zero_ok`.
fn seconds(name: &str, value: Option<String>, default: f64, zero_ok: bool) -> Result<Duration, String> {
    let Some(value) = value else {
        return Ok(Duration::from_secs_f64(default));
    };
    let secs: f64 = value.parse().map_err(|_| format!("{name} must be a number of seconds, not {value:?}"))?;
    if !secs.is_finite() || secs < 0.0 || (secs == 0.0 && !zero_ok) || secs > 3600.0 {
        let range = if zero_ok { "0 to 3600" } else { "more than 0, at most 3600" };
        return Err(format!("{name} must be {range} seconds, not {value:?}"));
    }
    Ok(Duration::from_secs_f64(secs))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn lookup(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        move |name| map.get(name).cloned()
    }

    #[test]
    fn nothing_configured_is_no_engine() {
        let engines = Engines::from_lookup(lookup(&[])).unwrap();
        assert!(engines.get(AudioModel::Multilingual).is_none());
        assert!(engines.get(AudioModel::Radiology).is_none());
        assert_eq!(engines.mode(), None);
        // Blank values count as unset.
        let engines = Engines::from_lookup(lookup(&[("APP_SPEECH_URL", "  "), ("APP_SPEECH_MODEL", "")])).unwrap();
        assert!(engines.get(AudioModel::Multilingual).is_none());
    }

    #[test]
    fn defaults_fill_in_what_is_not_set() {
        let (mode, general, radiology) = read_settings(lookup(&[("APP_SPEECH_URL", "http://speaches:8000/")])).unwrap();
        assert_eq!(mode, Mode::Transcription);
        let general = general.unwrap();
        assert_eq!(general.url, "http://speaches:8000");
        assert_eq!(general.model, DEFAULT_MODEL);
        assert_eq!(general.api_key, None);
        assert_eq!(general.prompt, DEFAULT_PROMPT);
        assert_eq!(general.interim, Duration::from_secs(2));
        assert_eq!(general.timeout, Duration::from_secs(30));
        let radiology = radiology.unwrap();
        assert_eq!(radiology.url, "http://speaches:8000");
        assert_eq!(radiology.model, DEFAULT_MODEL);
        assert_eq!(radiology.prompt, DEFAULT_RADIOLOGY_PROMPT);

        let engines = Engines::from_lookup(lookup(&[("APP_SPEECH_URL", "http://speaches:8000")])).unwrap();
        assert_eq!(engines.get(AudioModel::Multilingual).unwrap().name(), "openai-transcription");
        assert_eq!(engines.get(AudioModel::Radiology).unwrap().name(), "openai-transcription");
        assert_eq!(engines.mode(), Some(Mode::Transcription));
    }

    #[test]
    fn every_variable_is_read() {
        let (_, general, radiology) = read_settings(lookup(&[
            ("APP_SPEECH_URL", "https://stt.example.nl/base"),
            ("APP_SPEECH_MODE", "transcription"),
            ("APP_SPEECH_MODEL", "whisper-1"),
            ("APP_SPEECH_API_KEY", "sk-test"),
            ("APP_SPEECH_PROMPT", "Huisartsconsult."),
            ("APP_SPEECH_INTERIM", "0"),
            ("APP_SPEECH_TIMEOUT", "12.5"),
            ("APP_SPEECH_RADIOLOGY_URL", "http://radiologie:9000"),
            ("APP_SPEECH_RADIOLOGY_MODEL", "radiologie-large"),
            ("APP_SPEECH_RADIOLOGY_PROMPT", "Thoraxfoto."),
        ]))
        .unwrap();
        let general = general.unwrap();
        assert_eq!(
            general,
            EngineSettings {
                url: "https://stt.example.nl/base".into(),
                model: "whisper-1".into(),
                api_key: Some("sk-test".into()),
                prompt: "Huisartsconsult.".into(),
                interim: Duration::ZERO,
                timeout: Duration::from_millis(12_500),
            }
        );
        let radiology = radiology.unwrap();
        assert_eq!(radiology.url, "http://radiologie:9000");
        assert_eq!(radiology.model, "radiologie-large");
        assert_eq!(radiology.prompt, "Thoraxfoto.");
        assert_eq!(radiology.api_key.as_deref(), Some("sk-test"));
    }

    #[test]
    fn the_realtime_mode_is_read() {
        let vars = [("APP_SPEECH_URL", "http://x"), ("APP_SPEECH_MODE", "realtime")];
        let (mode, general, _) = read_settings(lookup(&vars)).unwrap();
        assert_eq!(mode, Mode::Realtime);
        assert_eq!(general.unwrap().url, "http://x");
    }

    #[test]
    fn recordings_take_the_batch_engine_in_either_mode() {
        let realtime = Engines::from_lookup(lookup(&[("APP_SPEECH_URL", "http://x"), ("APP_SPEECH_MODE", "realtime")])).unwrap();
        assert_eq!(realtime.get(AudioModel::Multilingual).map(|e| e.name()), Some("realtime"));
        assert_eq!(realtime.for_upload(AudioModel::Multilingual).map(|e| e.name()), Some("openai-transcription"));
        assert_eq!(realtime.for_upload(AudioModel::Radiology).map(|e| e.name()), Some("openai-transcription"));
        let batch = Engines::from_lookup(lookup(&[("APP_SPEECH_URL", "http://x")])).unwrap();
        assert_eq!(batch.for_upload(AudioModel::Multilingual).map(|e| e.name()), Some("openai-transcription"));
        assert!(Engines::none().for_upload(AudioModel::Multilingual).is_none());
    }

    #[test]
    fn a_radiology_url_alone_configures_radiology_only() {
        let engines = Engines::from_lookup(lookup(&[("APP_SPEECH_RADIOLOGY_URL", "http://radiologie:9000")])).unwrap();
        assert!(engines.get(AudioModel::Multilingual).is_none());
        assert!(engines.get(AudioModel::Radiology).is_some());
    }

    #[test]
    fn errors_name_the_variable() {
        let cases: &[(&[(&str, &str)], &str)] = &[
            (&[("APP_SPEECH_URL", "speaches:8000")], "APP_SPEECH_URL"),
            (&[("APP_SPEECH_URL", "not a url")], "APP_SPEECH_URL"),
            (&[("APP_SPEECH_URL", "http://x/?a=b")], "APP_SPEECH_URL"),
            (&[("APP_SPEECH_URL", "http://x"), ("APP_SPEECH_RADIOLOGY_URL", "ftp://x")], "APP_SPEECH_RADIOLOGY_URL"),
            (&[("APP_SPEECH_URL", "http://x"), ("APP_SPEECH_MODE", "streaming")], "APP_SPEECH_MODE"),
            (&[("APP_SPEECH_URL", "http://x"), ("APP_SPEECH_INTERIM", "soms")], "APP_SPEECH_INTERIM"),
            (&[("APP_SPEECH_URL", "http://x"), ("APP_SPEECH_INTERIM", "-1")], "APP_SPEECH_INTERIM"),
            (&[("APP_SPEECH_URL", "http://x"), ("APP_SPEECH_TIMEOUT", "0")], "APP_SPEECH_TIMEOUT"),
            (&[("APP_SPEECH_URL", "http://x"), ("APP_SPEECH_TIMEOUT", "NaN")], "APP_SPEECH_TIMEOUT"),
        ];
        for (vars, name) in cases {
            let err = Engines::from_lookup(lookup(vars)).unwrap_err();
            assert!(err.starts_with(name), "{vars:?}: {err}");
        }
    }

    #[test]
    fn engines_can_be_given_directly() {
        let engine: SharedEngine = Arc::new(OpenAiTranscription::new(EngineSettings {
            url: "http://127.0.0.1:9".into(),
            model: "m".into(),
            api_key: None,
            prompt: String::new(),
            interim: Duration::ZERO,
            timeout: Duration::from_secs(1),
        }));
        let engines = Engines::from_engines(Some(engine), None);
        assert!(engines.get(AudioModel::Multilingual).is_some());
        assert!(engines.get(AudioModel::Radiology).is_none());
        assert!(format!("{engines:?}").contains("openai-transcription"));
    }
}
