//! Choosing the summariser from `APP_LLM_...` settings: the language-model summariser when
//! `APP_LLM_URL` is set, none (the caller's default) otherwise.
//!
//! | variable | default | meaning |
//! |---|---|---|
//! | `APP_LLM_URL` | unset | base URL of an OpenAI-compatible API including `/v1` (`http://localhost:11434/v1`); on Azure the resource endpoint. Unset: no language model |
//! | `APP_LLM_API_KEY` | none | key, sent as `Authorization: Bearer` (Azure: `api-key`); required on Azure |
//! | `APP_LLM_MODEL` | required with `APP_LLM_URL` | model for medium summaries and for sizes without their own (Azure: deployment) |
//! | `APP_LLM_MODEL_SMALL` | `APP_LLM_MODEL` | model for small summaries |
//! | `APP_LLM_MODEL_LARGE` | `APP_LLM_MODEL` | model for large summaries |
//! | `APP_LLM_TIMEOUT` | `120` | seconds one request may take, answer included |
//! | `APP_LLM_TEMPERATURE` | `0.2` | sampling temperature, 0 to 2 |
//! | `APP_LLM_MAX_TOKENS` | unset | `max_tokens` of each request |
//! | `APP_LLM_CONTEXT_TOKENS` | `32768` | the model's context window in tokens (prompt and answer); few-shot examples that would not fit beside the transcript and the answer are dropped, the last first. Set it to the engine's: Ollama's `OLLAMA_CONTEXT_LENGTH` (4096 on a CPU without it; the compose file sets 32768), vLLM's `--max-model-len` |
//! | `APP_LLM_RESPONSE_FORMAT` | `json_schema` | `json_schema`, or `json_object` for servers without structured outputs |
//! | `APP_LLM_AZURE_API_VERSION` | unset | set: Azure OpenAI with this `api-version` |

use std::sync::Arc;
use std::time::Duration;

use url::Url;

use super::llm::{LlmConfig, LlmSummariser, ResponseFormat};
use super::{RulesSummariser, SharedSummariser};

/// The language-model configuration the settings ask for; `None` when `APP_LLM_URL` is unset or
/// empty. Errors name the variable.
/// The configured summariser: the language model when `APP_LLM_URL` is set, otherwise the
/// embedded rule-based extractor.
pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<SharedSummariser, String> {
    Ok(match llm_from_lookup(lookup)? {
        Some(llm) => Arc::new(llm),
        None => Arc::new(RulesSummariser::new()),
    })
}

pub fn llm_config_from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Option<LlmConfig>, String> {
    let get = |name: &str| lookup(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());

    let Some(raw_url) = get("APP_LLM_URL") else {
        return Ok(None);
    };
    let base_url = Url::parse(&raw_url).map_err(|e| format!("APP_LLM_URL is not a URL ({e}): {raw_url}"))?;
    if !matches!(base_url.scheme(), "http" | "https") || base_url.cannot_be_a_base() {
        return Err(format!("APP_LLM_URL must be an http or https URL, not {raw_url}"));
    }
    let azure = get("APP_LLM_AZURE_API_VERSION");
    let model = get("APP_LLM_MODEL").ok_or_else(|| {
        if azure.is_some() {
            "APP_LLM_MODEL is required with APP_LLM_URL: the name of the Azure OpenAI deployment".to_owned()
        } else {
            "APP_LLM_MODEL is required with APP_LLM_URL: the name of the model to use".to_owned()
        }
    })?;
    let api_key = get("APP_LLM_API_KEY");
    if azure.is_some() && api_key.is_none() {
        return Err("APP_LLM_API_KEY is required with APP_LLM_AZURE_API_VERSION: Azure OpenAI needs a key".to_owned());
    }

    let mut config = LlmConfig::new(base_url, model);
    config.api_key = api_key;
    config.model_small = get("APP_LLM_MODEL_SMALL");
    config.model_large = get("APP_LLM_MODEL_LARGE");
    config.azure_api_version = azure;
    if let Some(raw) = get("APP_LLM_TIMEOUT") {
        let seconds: u64 = raw
            .parse()
            .ok()
            .filter(|s| *s > 0)
            .ok_or_else(|| format!("APP_LLM_TIMEOUT must be a whole number of seconds above 0, not {raw:?}"))?;
        config.timeout = Duration::from_secs(seconds);
    }
    if let Some(raw) = get("APP_LLM_TEMPERATURE") {
        config.temperature = raw
            .parse::<f32>()
            .ok()
            .filter(|t| (0.0..=2.0).contains(t))
            .ok_or_else(|| format!("APP_LLM_TEMPERATURE must be a number from 0 to 2, not {raw:?}"))?;
    }
    if let Some(raw) = get("APP_LLM_MAX_TOKENS") {
        let max: u32 =
            raw.parse().ok().filter(|m| *m > 0).ok_or_else(|| format!("APP_LLM_MAX_TOKENS must be a whole number above 0, not {raw:?}"))?;
        config.max_tokens = Some(max);
    }
    if let Some(raw) = get("APP_LLM_CONTEXT_TOKENS") {
        config.context_tokens = raw.parse::<u32>().ok().filter(|t| *t >= MIN_CONTEXT_TOKENS).ok_or_else(|| {
            format!("APP_LLM_CONTEXT_TOKENS must be a whole number of tokens, at least {MIN_CONTEXT_TOKENS}, not {raw:?}")
        })?;
    }
    if let Some(raw) = get("APP_LLM_RESPONSE_FORMAT") {
        config.response_format = match raw.to_ascii_lowercase().as_str() {
            "json_schema" => ResponseFormat::JsonSchema,
            "json_object" => ResponseFormat::JsonObject,
            _ => {
                return Err(format!("APP_LLM_RESPONSE_FORMAT must be json_schema or json_object, not {raw:?}"));
            }
        };
    }
    Ok(Some(config))
}

/// The smallest context window the settings take: a system prompt (about 1,100 tokens for a SOEP
/// note) does not fit in less.
const MIN_CONTEXT_TOKENS: u32 = 1_024;

/// The language-model summariser the settings ask for; `None` when `APP_LLM_URL` is unset, so
/// the caller uses its default summariser.
pub fn llm_from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Option<LlmSummariser>, String> {
    match llm_config_from_lookup(lookup)? {
        Some(config) => LlmSummariser::new(config).map(Some),
        None => Ok(None),
    }
}

/// [`llm_from_lookup`] over the process environment.
pub fn llm_from_env() -> Result<Option<LlmSummariser>, String> {
    llm_from_lookup(|name| std::env::var(name).ok())
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::summarise::ModelSize;

    fn lookup(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        move |name| map.get(name).cloned()
    }

    fn config(pairs: &[(&str, &str)]) -> Result<Option<LlmConfig>, String> {
        llm_config_from_lookup(lookup(pairs))
    }

    #[test]
    fn no_url_means_no_language_model() {
        assert!(config(&[]).unwrap().is_none());
        assert!(config(&[("APP_LLM_URL", "  "), ("APP_LLM_MODEL", "m")]).unwrap().is_none());
        assert!(llm_from_lookup(lookup(&[("APP_LLM_MODEL", "m")])).unwrap().is_none());
    }

    #[test]
    fn defaults_with_url_and_model() {
        let c = config(&[("APP_LLM_URL", "http://localhost:11434/v1"), ("APP_LLM_MODEL", "qwen2.5:14b")]).unwrap().unwrap();
        assert_eq!(c.base_url.as_str(), "http://localhost:11434/v1");
        assert_eq!(c.model, "qwen2.5:14b");
        assert_eq!(c.model_for(ModelSize::Small), "qwen2.5:14b");
        assert_eq!(c.model_for(ModelSize::Large), "qwen2.5:14b");
        assert_eq!(c.api_key, None);
        assert_eq!(c.timeout, Duration::from_secs(120));
        assert!((c.temperature - 0.2).abs() < f32::EPSILON);
        assert_eq!(c.max_tokens, None);
        assert_eq!(c.response_format, ResponseFormat::JsonSchema);
        assert_eq!(c.azure_api_version, None);
        assert_eq!(c.context_tokens, 32_768);
        let summariser = llm_from_lookup(lookup(&[("APP_LLM_URL", "http://localhost:11434/v1"), ("APP_LLM_MODEL", "m")])).unwrap().unwrap();
        assert_eq!(summariser.config().model, "m");
    }

    #[test]
    fn every_setting_is_read() {
        let c = config(&[
            ("APP_LLM_URL", "https://llm.praktijk.example/v1"),
            ("APP_LLM_API_KEY", "sk-test"),
            ("APP_LLM_MODEL", "medium"),
            ("APP_LLM_MODEL_SMALL", "small"),
            ("APP_LLM_MODEL_LARGE", "large"),
            ("APP_LLM_TIMEOUT", "300"),
            ("APP_LLM_TEMPERATURE", "0"),
            ("APP_LLM_MAX_TOKENS", "4096"),
            ("APP_LLM_RESPONSE_FORMAT", "JSON_OBJECT"),
            ("APP_LLM_CONTEXT_TOKENS", "4096"),
        ])
        .unwrap()
        .unwrap();
        assert_eq!(c.api_key.as_deref(), Some("sk-test"));
        assert_eq!(c.model_for(ModelSize::Small), "small");
        assert_eq!(c.model_for(ModelSize::Medium), "medium");
        assert_eq!(c.model_for(ModelSize::Large), "large");
        assert_eq!(c.timeout, Duration::from_secs(300));
        assert_eq!(c.temperature, 0.0);
        assert_eq!(c.max_tokens, Some(4096));
        assert_eq!(c.response_format, ResponseFormat::JsonObject);
        assert_eq!(c.context_tokens, 4096);
    }

    #[test]
    fn azure_mode_needs_a_key() {
        let c = config(&[
            ("APP_LLM_URL", "https://praktijk.openai.azure.com"),
            ("APP_LLM_MODEL", "gpt-4o-deployment"),
            ("APP_LLM_API_KEY", "azure-key"),
            ("APP_LLM_AZURE_API_VERSION", "2024-10-21"),
        ])
        .unwrap()
        .unwrap();
        assert_eq!(c.azure_api_version.as_deref(), Some("2024-10-21"));
        assert_eq!(
            c.endpoint(c.model_for(ModelSize::Medium)).unwrap().as_str(),
            "https://praktijk.openai.azure.com/openai/deployments/gpt-4o-deployment/chat/completions?api-version=2024-10-21"
        );
        let err = config(&[
            ("APP_LLM_URL", "https://praktijk.openai.azure.com"),
            ("APP_LLM_MODEL", "d"),
            ("APP_LLM_AZURE_API_VERSION", "2024-10-21"),
        ])
        .unwrap_err();
        assert!(err.contains("APP_LLM_API_KEY"), "{err}");
    }

    #[test]
    fn wrong_values_are_named() {
        let base = [("APP_LLM_URL", "http://localhost:8000/v1"), ("APP_LLM_MODEL", "m")];
        let err_with = |name: &'static str, value: &'static str| {
            let mut pairs = base.to_vec();
            pairs.push((name, value));
            config(&pairs).unwrap_err()
        };
        for (name, value) in [
            ("APP_LLM_TIMEOUT", "twee minuten"),
            ("APP_LLM_TIMEOUT", "0"),
            ("APP_LLM_TEMPERATURE", "3"),
            ("APP_LLM_TEMPERATURE", "warm"),
            ("APP_LLM_MAX_TOKENS", "-5"),
            ("APP_LLM_RESPONSE_FORMAT", "xml"),
            ("APP_LLM_CONTEXT_TOKENS", "4k"),
            ("APP_LLM_CONTEXT_TOKENS", "512"),
        ] {
            let err = err_with(name, value);
            assert!(err.starts_with(name) && err.contains(value), "{err}");
        }
        let err = config(&[("APP_LLM_URL", "localhost:11434"), ("APP_LLM_MODEL", "m")]).unwrap_err();
        assert!(err.starts_with("APP_LLM_URL"), "{err}");
        let err = config(&[("APP_LLM_URL", "niet een url")]).unwrap_err();
        assert!(err.starts_with("APP_LLM_URL"), "{err}");
        let err = config(&[("APP_LLM_URL", "http://localhost:11434/v1")]).unwrap_err();
        assert!(err.starts_with("APP_LLM_MODEL is required"), "{err}");
    }
}
