//! Payment states and the one rule for moving between them.
//!
//! A payment's status moves forward only: OPEN → PENDING/AUTHORIZED → PAID, or from any of the
//! first three → FAILED/CANCELED/EXPIRED. A final status never changes again, and a repeated or
//! older status (a late or replayed webhook) changes nothing.
//!
//! The status is stored as its name (`OPEN`) through the shared column codec, which refuses a
//! value it does not know instead of reading it as some status.

use serde::{Deserialize, Serialize};

/// The statuses of a payment (spec §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum PaymentStatus {
    Open,
    Pending,
    Authorized,
    Paid,
    Failed,
    Canceled,
    Expired,
}

crate::db::text_column!(PaymentStatus {
    Open => "OPEN",
    Pending => "PENDING",
    Authorized => "AUTHORIZED",
    Paid => "PAID",
    Failed => "FAILED",
    Canceled => "CANCELED",
    Expired => "EXPIRED",
});

impl PaymentStatus {
    /// Our spelling or Mollie's (`open`, `paid`, ...).
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|status| status.as_str().eq_ignore_ascii_case(s))
    }

    /// Paid, failed, canceled and expired end a payment.
    pub fn is_final(self) -> bool {
        matches!(self, Self::Paid | Self::Failed | Self::Canceled | Self::Expired)
    }

    /// Final without being paid: FAILED, CANCELED or EXPIRED.
    pub fn is_failure(self) -> bool {
        matches!(self, Self::Failed | Self::Canceled | Self::Expired)
    }

    fn rank(self) -> u8 {
        match self {
            Self::Open => 0,
            Self::Pending => 1,
            Self::Authorized => 2,
            Self::Paid | Self::Failed | Self::Canceled | Self::Expired => 3,
        }
    }
}

/// The status a payment in `from` takes on hearing `to`, or `None` when it stays as it is.
pub fn transition(from: PaymentStatus, to: PaymentStatus) -> Option<PaymentStatus> {
    (!from.is_final() && to.rank() > from.rank()).then_some(to)
}

#[cfg(test)]
mod tests {
    use super::PaymentStatus::*;
    use super::*;

    #[test]
    fn every_pair_of_statuses() {
        // (from, to, allowed)
        let allowed = [
            (Open, Pending),
            (Open, Authorized),
            (Open, Paid),
            (Open, Failed),
            (Open, Canceled),
            (Open, Expired),
            (Pending, Authorized),
            (Pending, Paid),
            (Pending, Failed),
            (Pending, Canceled),
            (Pending, Expired),
            (Authorized, Paid),
            (Authorized, Failed),
            (Authorized, Canceled),
            (Authorized, Expired),
        ];
        let mut checked = 0;
        for from in PaymentStatus::ALL {
            for to in PaymentStatus::ALL {
                let expected = allowed.contains(&(from, to)).then_some(to);
                assert_eq!(transition(from, to), expected, "{from:?} -> {to:?}");
                checked += 1;
            }
        }
        assert_eq!(checked, 49);
    }

    #[test]
    fn final_statuses_never_change_and_nothing_goes_back() {
        for from in [Paid, Failed, Canceled, Expired] {
            for to in PaymentStatus::ALL {
                assert_eq!(transition(from, to), None);
            }
        }
        assert_eq!(transition(Authorized, Pending), None);
        assert_eq!(transition(Pending, Open), None);
        assert_eq!(transition(Open, Open), None);
    }

    #[test]
    fn any_order_of_the_same_deliveries_ends_in_the_same_final_status() {
        // a payment that went open -> pending -> paid, heard in every order: paid wins once heard
        let heard = [Pending, Paid, Open, Pending];
        let mut transitions = 0;
        let mut status = Open;
        for to in heard {
            if let Some(next) = transition(status, to) {
                status = next;
                transitions += 1;
            }
        }
        assert_eq!(status, Paid);
        assert_eq!(transitions, 2);
    }

    #[test]
    fn parsing_takes_both_spellings() {
        for status in PaymentStatus::ALL {
            assert_eq!(PaymentStatus::parse(status.as_str()), Some(status));
            assert_eq!(PaymentStatus::parse(&status.as_str().to_ascii_lowercase()), Some(status));
        }
        assert_eq!(PaymentStatus::parse("refunded"), None);
    }
}
