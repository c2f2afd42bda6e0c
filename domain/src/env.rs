//! Typed configuration from the environment.
//!
//! Every process reads its own config struct from `APP_...` variables through [`Env`]. Tests build
//! an [`Env`] from pairs instead of touching the process environment.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use secrecy::{ExposeSecret, SecretString};
use url::Url;

/// A snapshot of environment variables.
#[derive(Clone, Default)]
pub struct Env {
    vars: HashMap<String, String>,
}

/// A variable that is present but cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{name}: {message}")]
pub struct EnvError {
    pub name: String,
    pub message: String,
}

impl EnvError {
    pub fn new(name: &str, message: impl Into<String>) -> Self {
        Self { name: name.to_owned(), message: message.into() }
    }
}

impl Env {
    /// The variables of this process.
    pub fn from_os() -> Self {
        Self { vars: std::env::vars().collect() }
    }

    pub fn from_pairs<K: Into<String>, V: Into<String>>(pairs: impl IntoIterator<Item = (K, V)>) -> Self {
        Self { vars: pairs.into_iter().map(|(k, v)| (k.into(), v.into())).collect() }
    }

    /// The value of `name`, treating an empty or blank value as unset.
    pub fn get(&self, name: &str) -> Option<String> {
        self.vars.get(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
    }

    pub fn string(&self, name: &str, default: &str) -> String {
        self.get(name).unwrap_or_else(|| default.to_owned())
    }

    pub fn parse<T>(&self, name: &str, default: T) -> Result<T, EnvError>
    where
        T: FromStr,
        T::Err: fmt::Display,
    {
        match self.get(name) {
            None => Ok(default),
            Some(raw) => raw.parse().map_err(|e: T::Err| EnvError::new(name, format!("cannot parse {raw:?}: {e}"))),
        }
    }

    pub fn flag(&self, name: &str, default: bool) -> Result<bool, EnvError> {
        match self.get(name).map(|v| v.to_ascii_lowercase()) {
            None => Ok(default),
            Some(v) if matches!(v.as_str(), "1" | "true" | "yes" | "on") => Ok(true),
            Some(v) if matches!(v.as_str(), "0" | "false" | "no" | "off") => Ok(false),
            Some(v) => Err(EnvError::new(name, format!("expected true or false, got {v:?}"))),
        }
    }

    pub fn url(&self, name: &str, default: &str) -> Result<Url, EnvError> {
        let raw = self.string(name, default);
        Url::parse(&raw).map_err(|e| EnvError::new(name, format!("not a URL: {e}")))
    }

    /// A URL that may carry a password; kept secret and validated.
    pub fn secret_url(&self, name: &str, default: &str) -> Result<SecretString, EnvError> {
        let raw = self.string(name, default);
        Url::parse(&raw).map_err(|e| EnvError::new(name, format!("not a URL: {e}")))?;
        Ok(SecretString::from(raw))
    }

    /// A duration written as a number and a unit: `250ms`, `5s`, `2m`, `1h` or `14d`.
    pub fn duration(&self, name: &str, default: Duration) -> Result<Duration, EnvError> {
        match self.get(name) {
            None => Ok(default),
            Some(raw) => parse_duration(&raw)
                .ok_or_else(|| EnvError::new(name, format!("cannot parse {raw:?}: expected a number with ms, s, m, h or d"))),
        }
    }

    /// A comma-separated list.
    pub fn list(&self, name: &str) -> Vec<String> {
        self.get(name).map(|v| v.split(',').map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()).collect()).unwrap_or_default()
    }
}

/// `250ms`, `5s`, `2m`, `1h`, `14d`.
pub fn parse_duration(raw: &str) -> Option<Duration> {
    let raw = raw.trim();
    let split = raw.find(|c: char| !c.is_ascii_digit())?;
    let (number, unit) = raw.split_at(split);
    let n: u64 = number.parse().ok()?;
    let secs = |factor: u64| n.checked_mul(factor).map(Duration::from_secs);
    match unit.trim() {
        "ms" => Some(Duration::from_millis(n)),
        "s" => secs(1),
        "m" => secs(60),
        "h" => secs(3600),
        "d" => secs(86_400),
        _ => None,
    }
}

/// Which environment a process runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AppEnv {
    Development,
    Production,
}

impl FromStr for AppEnv {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "development" | "dev" => Ok(Self::Development),
            "production" | "prod" => Ok(Self::Production),
            other => Err(format!("expected development or production, got {other:?}")),
        }
    }
}

/// A URL as it may be logged: the password replaced.
pub fn redact_url(secret: &SecretString) -> String {
    match Url::parse(secret.expose_secret()) {
        Ok(mut url) => {
            if url.password().is_some() {
                let _ = url.set_password(Some("***"));
            }
            url.to_string()
        }
        Err(_) => "***".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_values_count_as_unset() {
        let env = Env::from_pairs([("A", "  "), ("B", " x ")]);
        assert_eq!(env.get("A"), None);
        assert_eq!(env.string("A", "d"), "d");
        assert_eq!(env.get("B").as_deref(), Some("x"));
    }

    #[test]
    fn a_bad_number_names_the_variable() {
        let env = Env::from_pairs([("APP_N", "ten")]);
        let err = env.parse::<u32>("APP_N", 1).unwrap_err();
        assert!(err.to_string().starts_with("APP_N:"), "{err}");
    }

    #[test]
    fn flags_accept_the_usual_spellings_and_refuse_others() {
        let env = Env::from_pairs([("A", "Yes"), ("B", "off"), ("C", "maybe")]);
        assert!(env.flag("A", false).unwrap());
        assert!(!env.flag("B", true).unwrap());
        assert!(env.flag("C", true).is_err());
        assert!(env.flag("D", true).unwrap());
    }

    #[test]
    fn redacted_urls_hide_the_password_only() {
        let url = SecretString::from("postgres://app:hunter2@db:5432/spreekkamer".to_owned());
        assert_eq!(redact_url(&url), "postgres://app:***@db:5432/spreekkamer");
    }

    #[test]
    fn durations_take_a_unit() {
        let env = Env::from_pairs([("A", "250ms"), ("B", "14d"), ("C", "5"), ("D", "3 s")]);
        assert_eq!(env.duration("A", Duration::ZERO).unwrap(), Duration::from_millis(250));
        assert_eq!(env.duration("B", Duration::ZERO).unwrap(), Duration::from_secs(14 * 86_400));
        assert_eq!(env.duration("D", Duration::ZERO).unwrap(), Duration::from_secs(3));
        assert_eq!(env.duration("E", Duration::from_secs(7)).unwrap(), Duration::from_secs(7));
        assert!(env.duration("C", Duration::ZERO).unwrap_err().to_string().contains("C"));
    }

    #[test]
    fn lists_split_on_commas() {
        let env = Env::from_pairs([("L", "a, b,,c ")]);
        assert_eq!(env.list("L"), ["a", "b", "c"]);
    }
}
