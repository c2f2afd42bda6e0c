//! The rate limits' configuration: which limits there are, whom each counts, and the rates in
//! force (`APP_RATE_LIMITS`, `APP_RATE_LIMIT_<NAME>`). [`super::limit`] counts them.

use std::time::Duration;

use domain::env::{Env, EnvError};

/// Who a limit counts for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Per {
    /// The signed-in user (a request without a valid token is left to the handler's 401).
    User,
    /// The client's address (see [`super::client`]).
    Address,
    /// A subscription (the handler checks these itself).
    Subscription,
}

/// The limits, each configurable as `APP_RATE_LIMIT_<NAME>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LimitName {
    /// The development issuer's sign-in: `POST /oidc/token` and `POST /oidc/auth`.
    SignIn,
    /// `POST /api/feedback`.
    Feedback,
    /// The five summary calls and the live consult's `summarize`.
    Summary,
    /// `POST /api/consult/audio/session/{id}/recording`.
    Upload,
    /// The public hand-off page's `GET /api/integration/record-system/consult/{id}/redirect`.
    Handoff,
    /// The payment provider's webhook `POST /payment/webhook`, when it names no payment of ours
    /// (counted by the handler: a webhook about a real payment is always taken).
    PaymentWebhook,
    /// Seats added to one subscription (`POST /payment/subscription/addUser`).
    Seats,
    /// Invitation e-mails of one subscription's new seats.
    SeatInvitations,
}

impl LimitName {
    pub const ALL: [LimitName; 8] = [
        Self::SignIn,
        Self::Feedback,
        Self::Summary,
        Self::Upload,
        Self::Handoff,
        Self::PaymentWebhook,
        Self::Seats,
        Self::SeatInvitations,
    ];

    /// The name in `APP_RATE_LIMIT_<NAME>` and in keys and metrics (lower case).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::SignIn => "sign_in",
            Self::Feedback => "feedback",
            Self::Summary => "summary",
            Self::Upload => "upload",
            Self::Handoff => "handoff",
            Self::PaymentWebhook => "payment_webhook",
            Self::Seats => "seats",
            Self::SeatInvitations => "seat_invitations",
        }
    }

    pub fn per(self) -> Per {
        match self {
            Self::SignIn | Self::Handoff | Self::PaymentWebhook => Per::Address,
            Self::Feedback | Self::Summary | Self::Upload => Per::User,
            Self::Seats | Self::SeatInvitations => Per::Subscription,
        }
    }

    /// Defaults far above what a clinic does (a practice signs in from one address; a clinician
    /// summarises a few dozen consults a day; a practice links its colleagues once), and well
    /// below what a script does.
    pub fn default_rate(self) -> Rate {
        let (count, seconds) = match self {
            Self::SignIn => (120, 60),
            Self::Feedback => (30, 3600),
            Self::Summary => (120, 3600),
            Self::Upload => (60, 3600),
            Self::Handoff => (120, 60),
            Self::PaymentWebhook => (600, 60),
            Self::Seats => (60, 3600),
            Self::SeatInvitations => (20, 3600),
        };
        Rate { count, period: Duration::from_secs(seconds) }
    }
}

/// At most `count` requests per `period`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    pub count: u32,
    pub period: Duration,
}

impl Rate {
    /// `<count>/<period>` (`30/1h`, `5/10s`).
    pub fn parse(text: &str) -> Result<Self, String> {
        let (count, period) = text.split_once('/').ok_or_else(|| format!("expected <count>/<period> or off, got {text:?}"))?;
        let count: u32 =
            count.trim().parse().ok().filter(|c| *c > 0).ok_or_else(|| format!("{text:?}: the count must be a positive number"))?;
        let period = domain::env::parse_duration(period.trim())
            .filter(|p| p.as_millis() >= 1)
            .ok_or_else(|| format!("{text:?}: the period must be a duration such as 10s, 1m or 1h"))?;
        Ok(Self { count, period })
    }
}

/// The limits in force; `None`: off.
#[derive(Debug, Clone)]
pub struct RateLimits(Vec<(LimitName, Option<Rate>)>);

impl RateLimits {
    /// `APP_RATE_LIMITS=off` switches every limit off (a load test, the API fuzz run); otherwise
    /// each is its own `APP_RATE_LIMIT_<NAME>` or its default.
    pub fn from_env(env: &Env) -> Result<Self, EnvError> {
        if env.get("APP_RATE_LIMITS").is_some_and(|v| v.trim().eq_ignore_ascii_case("off")) {
            return Ok(Self(LimitName::ALL.iter().map(|&name| (name, None)).collect()));
        }
        let mut limits = Vec::new();
        for name in LimitName::ALL {
            let var = format!("APP_RATE_LIMIT_{}", name.as_str().to_ascii_uppercase());
            let rate = match env.get(&var) {
                None => Some(name.default_rate()),
                Some(v) if v.trim().eq_ignore_ascii_case("off") => None,
                Some(v) => Some(Rate::parse(&v).map_err(|e| EnvError::new(&var, e))?),
            };
            limits.push((name, rate));
        }
        Ok(Self(limits))
    }

    pub fn get(&self, name: LimitName) -> Option<Rate> {
        self.0.iter().find(|(n, _)| *n == name).and_then(|(_, r)| *r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_parse_and_off_turns_a_limit_off() {
        assert_eq!(Rate::parse("30/1h").unwrap(), Rate { count: 30, period: Duration::from_secs(3600) });
        assert_eq!(Rate::parse(" 5 / 10s ").unwrap(), Rate { count: 5, period: Duration::from_secs(10) });
        for bad in ["30", "0/1m", "x/1m", "5/soon", "5/0s"] {
            assert!(Rate::parse(bad).is_err(), "{bad}");
        }
        let env = Env::from_pairs([("APP_RATE_LIMIT_FEEDBACK", "off"), ("APP_RATE_LIMIT_SUMMARY", "3/1m")]);
        let limits = RateLimits::from_env(&env).unwrap();
        assert_eq!(limits.get(LimitName::Feedback), None);
        assert_eq!(limits.get(LimitName::Summary), Some(Rate { count: 3, period: Duration::from_secs(60) }));
        assert_eq!(limits.get(LimitName::Handoff), Some(LimitName::Handoff.default_rate()));
        let err = RateLimits::from_env(&Env::from_pairs([("APP_RATE_LIMIT_UPLOAD", "many")])).unwrap_err();
        assert!(err.to_string().contains("APP_RATE_LIMIT_UPLOAD"), "{err}");
        let all_off = RateLimits::from_env(&Env::from_pairs([("APP_RATE_LIMITS", "off"), ("APP_RATE_LIMIT_SUMMARY", "3/1m")])).unwrap();
        for name in LimitName::ALL {
            assert_eq!(all_off.get(name), None, "{name:?}");
        }
    }
}
