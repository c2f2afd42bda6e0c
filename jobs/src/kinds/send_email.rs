//! `email`: one message to one user, from a Dutch template, sent at most once per job.

use std::sync::Arc;
use std::time::Duration;

use lettre::Message;
use lettre::message::{Mailbox, MultiPart};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use uuid::Uuid;

use crate::kind::{Job, JobContext, JobError, Policy};
use crate::mail::templates::{Letter, Membership, Rendered, Template, UnpaidLine, html, render};
use crate::mail::{Mailer, SendError};
use crate::record::{Claimed, NewJob};
use crate::told::{Names, Wanted};

/// Ids only: the recipient and the letter's content are read when the job runs.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EmailPayload {
    pub template: Template,
    /// The recipient (welcome).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
    /// The seat whose address is invited (seat invitation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat_id: Option<Uuid>,
    /// The problems the unpaid check found (to staff).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problem_ids: Vec<Uuid>,
    /// The renewal payment that failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment_id: Option<Uuid>,
    /// The sub-organisation (organisation letters), with `user_id` or, for an address without an
    /// account, `address`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level_id: Option<Uuid>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
}

/// A letter as staff name it in the failed-work view.
fn template_label(template: Template) -> &'static str {
    match template {
        Template::Welcome => "welkomstmail",
        Template::SeatInvitation => "uitnodiging voor een gekoppeld abonnement",
        Template::UnpaidSubscriptions => "lijst van abonnementen zonder betaling",
        Template::RenewalFailed => "melding mislukte verlenging",
        Template::RenewalReminder => "herinnering aan de betaling",
        Template::OrganisationInvitation => "uitnodiging via een organisatie",
        Template::OrganisationAccess => "toegang via een organisatie",
        Template::OrganisationAdmin => "beheerdersrol in een organisatie",
    }
}

pub struct SendEmail {
    pub mailer: Arc<Mailer>,
}

impl SendEmail {
    /// The job that sends `template` to the user.
    pub fn job(template: Template, user_id: &str) -> NewJob {
        Self::of(EmailPayload { user_id: Some(user_id.to_owned()), ..EmailPayload::of(template) })
    }

    /// The invitation to an address that was given a seat on a subscription.
    pub fn seat_invitation(seat_id: Uuid) -> NewJob {
        Self::of(EmailPayload { seat_id: Some(seat_id), ..EmailPayload::of(Template::SeatInvitation) })
    }

    /// The user's e-mail about a renewal payment that failed.
    pub fn renewal_failed(payment_id: Uuid) -> NewJob {
        Self::of(EmailPayload { payment_id: Some(payment_id), ..EmailPayload::of(Template::RenewalFailed) })
    }

    /// The user's reminder, days later, about a renewal payment that is still unpaid.
    pub fn renewal_reminder(payment_id: Uuid) -> NewJob {
        Self::of(EmailPayload { payment_id: Some(payment_id), ..EmailPayload::of(Template::RenewalReminder) })
    }

    /// The staff e-mail listing the problems one run of the unpaid check found.
    pub fn unpaid_subscriptions(problem_ids: Vec<Uuid>) -> NewJob {
        Self::of(EmailPayload { problem_ids, ..EmailPayload::of(Template::UnpaidSubscriptions) })
    }

    /// The invitation of an address without an account that was added to a sub-organisation.
    pub fn organisation_invitation(level_id: Uuid, address: &str) -> NewJob {
        Self::of(EmailPayload {
            level_id: Some(level_id),
            address: Some(address.to_owned()),
            ..EmailPayload::of(Template::OrganisationInvitation)
        })
    }

    /// The notice to an account that was added to a sub-organisation.
    pub fn organisation_access(level_id: Uuid, user_id: &str) -> NewJob {
        Self::of(EmailPayload {
            level_id: Some(level_id),
            user_id: Some(user_id.to_owned()),
            ..EmailPayload::of(Template::OrganisationAccess)
        })
    }

    /// The letter about a user's admin flag of a sub-organisation (as it stands when it is sent).
    pub fn organisation_admin(level_id: Uuid, user_id: &str) -> NewJob {
        Self::of(EmailPayload {
            level_id: Some(level_id),
            user_id: Some(user_id.to_owned()),
            ..EmailPayload::of(Template::OrganisationAdmin)
        })
    }

    fn of(payload: EmailPayload) -> NewJob {
        NewJob::of::<SendEmail>(&payload)
    }
}

impl EmailPayload {
    /// The template with no ids yet.
    fn of(template: Template) -> Self {
        Self { template, user_id: None, seat_id: None, problem_ids: vec![], payment_id: None, level_id: None, address: None }
    }
}

impl Job for SendEmail {
    const KIND: &'static str = "email";
    const LABEL: &'static str = "E-mail versturen";
    type Payload = EmailPayload;

    fn policy() -> Policy {
        Policy {
            max_attempts: 8,
            backoff: Duration::from_secs(30),
            backoff_max: Duration::from_secs(3600),
            // above the SMTP transport's own 20 s, so a slow server ends in an SMTP error first
            timeout: Duration::from_secs(60),
            concurrency: 4,
            poll_interval: None,
            yields: false,
        }
    }

    fn describe(p: &EmailPayload, _caused_by: Option<&str>, names: &Names) -> Option<String> {
        let to = names
            .user(p.user_id.as_deref())
            .map(str::to_owned)
            .or_else(|| p.payment_id.and_then(|id| names.our_payment(id)).map(|line| line.email.clone()))
            .or_else(|| p.address.clone());
        let letter = template_label(p.template);
        Some(match to {
            Some(to) => format!("E-mail ({letter}) aan {to}"),
            None => format!("E-mail ({letter})"),
        })
    }

    fn wants(p: &EmailPayload, wanted: &mut Wanted) {
        wanted.users.extend(p.user_id.clone());
        if let Some(id) = p.payment_id {
            wanted.our_payment(id);
        }
    }

    async fn run(&self, ctx: &JobContext, job: &Claimed, payload: EmailPayload) -> Result<Value, JobError> {
        let config = self.mailer.config();
        let Some((to, text)) = self.letter(ctx, &payload).await? else {
            return Ok(json!({ "skipped": "Er is niets meer te melden." }));
        };
        let recipient = to.email.to_string();
        let message_id = format!("<{}@{}>", job.id, config.from.email.domain());
        let html_body = html(&text);
        let message = Message::builder()
            .from(config.from.clone())
            .to(to)
            .subject(text.subject)
            .message_id(Some(message_id.clone()))
            .multipart(MultiPart::alternative_plain_html(text.body, html_body))
            .map_err(|e| JobError::Permanent(format!("Het bericht kon niet worden opgemaakt: {e}")))?;
        let done = || json!({ "recipient": recipient, "messageId": message_id });
        let name = job.id.to_string();

        // the delivery record makes a second attempt of this job find the first's delivery
        let first: Option<String> = sqlx::query_scalar!(
            "insert into email_deliveries (job_id, state, recipient, message_id) values ($1, 'sending', $2, $3)
             on conflict (job_id) do nothing returning state",
            job.id,
            &recipient,
            &message_id,
        )
        .fetch_optional(&ctx.db)
        .await?;
        if first.is_none() {
            let state: String =
                sqlx::query_scalar!("select state from email_deliveries where job_id = $1", job.id).fetch_one(&ctx.db).await?;
            if state == "sent" || self.mailer.in_outbox(&name) {
                mark_sent(ctx, job).await?;
                return Ok(done());
            }
            if !self.mailer.uses_outbox() {
                // an earlier attempt stopped while talking to the server
                return Err(JobError::Permanent(
                    "Een eerdere poging stopte tijdens het verzenden; of de e-mail is aangekomen is onbekend. \
                     Niet opnieuw verzonden, om een dubbele e-mail te voorkomen."
                        .to_owned(),
                ));
            }
        }
        match self.mailer.send(&name, message).await {
            Ok(()) => {
                mark_sent(ctx, job).await?;
                if payload.template == Template::UnpaidSubscriptions {
                    domain::billing::sweeps::mark_notified(&ctx.db, &payload.problem_ids).await?;
                }
                Ok(done())
            }
            Err(SendError::Uncertain(e)) => Err(JobError::Permanent(format!(
                "{e}. Of de e-mail is aangekomen is onbekend; niet opnieuw verzonden, om een dubbele e-mail te voorkomen."
            ))),
            Err(e) => {
                sqlx::query!("delete from email_deliveries where job_id = $1 and state = 'sending'", job.id).execute(&ctx.db).await?;
                Err(match e {
                    SendError::Refused(e) => JobError::Permanent(e),
                    other => JobError::Retryable(other.to_string()),
                })
            }
        }
    }
}

impl SendEmail {
    /// The recipient and the text; `None` when there is nothing to send any more (a seat removed,
    /// problems gone).
    async fn letter(&self, ctx: &JobContext, payload: &EmailPayload) -> Result<Option<(Mailbox, Rendered)>, JobError> {
        let config = self.mailer.config();
        let mailbox = |name: Option<&str>, email: &str| -> Result<Mailbox, JobError> {
            let address = email.parse().map_err(|e| JobError::Permanent(format!("Ongeldig e-mailadres {email:?}: {e}")))?;
            Ok(Mailbox::new(name.map(str::to_owned), address))
        };
        match payload.template {
            Template::Welcome => {
                let id = payload.user_id.as_deref().ok_or_else(|| JobError::Permanent("Geen ontvanger genoemd.".to_owned()))?;
                let user = domain::users::find(&ctx.db, id)
                    .await?
                    .ok_or_else(|| JobError::Permanent("De ontvanger bestaat niet meer.".to_owned()))?;
                let name = user.preferred_name.as_deref().unwrap_or(&user.preferred_username);
                let text = render(&Letter::Welcome { name, email: &user.email }, &config.public_url);
                Ok(Some((mailbox(Some(name), &user.email)?, text)))
            }
            Template::SeatInvitation => {
                let seat = payload.seat_id.ok_or_else(|| JobError::Permanent("Geen plaats genoemd.".to_owned()))?;
                let Some(invite) = domain::billing::seats::seat_invitation(&ctx.db, seat).await? else { return Ok(None) };
                let letter = Letter::SeatInvitation {
                    email: &invite.email,
                    owner_name: &invite.owner_name,
                    owner_email: &invite.owner_email,
                    description: &invite.description,
                };
                Ok(Some((mailbox(None, &invite.email)?, render(&letter, &config.public_url))))
            }
            Template::RenewalFailed | Template::RenewalReminder => {
                let payment = payload.payment_id.ok_or_else(|| JobError::Permanent("Geen betaling genoemd.".to_owned()))?;
                let Some(failed) = domain::billing::sweeps::failed_renewal(&ctx.db, payment).await? else { return Ok(None) };
                if !failed.still_unpaid {
                    return Ok(None);
                }
                let user = domain::users::find(&ctx.db, &failed.user_id)
                    .await?
                    .ok_or_else(|| JobError::Permanent("De ontvanger bestaat niet meer.".to_owned()))?;
                let name = user.preferred_name.as_deref().unwrap_or(&user.preferred_username);
                let letter = Letter::RenewalFailed {
                    reminder: payload.template == Template::RenewalReminder,
                    name,
                    description: &failed.description,
                    amount: format!("€ {}", failed.amount_cents.to_dutch_string()),
                    valid_until: failed.valid_until.map(domain::billing::dutch_date),
                };
                Ok(Some((mailbox(Some(name), &user.email)?, render(&letter, &config.public_url))))
            }
            Template::OrganisationInvitation | Template::OrganisationAccess | Template::OrganisationAdmin => {
                let level = payload.level_id.ok_or_else(|| JobError::Permanent("Geen suborganisatie genoemd.".to_owned()))?;
                let Some(who) =
                    domain::organisations::letter_reader(&ctx.db, level, payload.user_id.as_deref(), payload.address.as_deref()).await?
                else {
                    // removed from the sub-organisation (or linked to an account) before the letter went
                    return Ok(None);
                };
                let at = Membership { organisation: &who.organisation, level: &who.level };
                let letter = match payload.template {
                    Template::OrganisationInvitation => Letter::OrganisationInvitation { email: &who.email, at },
                    Template::OrganisationAccess => Letter::OrganisationAccess { name: &who.name, email: &who.email, at },
                    _ => Letter::OrganisationAdmin { name: &who.name, admin: who.is_admin, at },
                };
                let name = (!who.name.is_empty() && payload.template != Template::OrganisationInvitation).then_some(who.name.as_str());
                Ok(Some((mailbox(name, &who.email)?, render(&letter, &config.public_url))))
            }
            Template::UnpaidSubscriptions => {
                let problems = domain::billing::sweeps::problems(&ctx.db, &payload.problem_ids).await?;
                if problems.is_empty() {
                    return Ok(None);
                }
                let day = |at: chrono::DateTime<chrono::Utc>| {
                    let d = at.with_timezone(&domain::billing::TIME_ZONE).date_naive();
                    domain::billing::dutch_date(d)
                };
                let lines = problems
                    .iter()
                    .map(|p| UnpaidLine { description: &p.description, email: &p.user_email, since: day(p.subscription_created_at) })
                    .collect();
                Ok(Some((config.staff.clone(), render(&Letter::UnpaidSubscriptions { lines }, &config.public_url))))
            }
        }
    }
}

async fn mark_sent(ctx: &JobContext, job: &Claimed) -> sqlx::Result<()> {
    sqlx::query!("update email_deliveries set state = 'sent', sent_at = coalesce(sent_at, now()) where job_id = $1", job.id)
        .execute(&ctx.db)
        .await?;
    Ok(())
}
