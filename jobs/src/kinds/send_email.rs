//! `email`: one message to one user, from a Dutch template, sent at most once per job.

use std::sync::Arc;
use std::time::Duration;

use lettre::Message;
use lettre::message::header::ContentType;
use lettre::message::{Mailbox, SinglePart};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::kind::{Job, JobContext, JobError, Policy};
use crate::mail::templates::{Recipient, Template, render};
use crate::mail::{Mailer, SendError};
use crate::record::{Claimed, NewJob};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EmailPayload {
    pub template: Template,
    pub user_id: String,
}

pub struct SendEmail {
    pub mailer: Arc<Mailer>,
}

impl SendEmail {
    /// The job that sends `template` to the user.
    pub fn job(template: Template, user_id: &str) -> NewJob {
        NewJob::of::<SendEmail>(&EmailPayload { template, user_id: user_id.to_owned() })
    }
}

impl Job for SendEmail {
    const KIND: &'static str = "email";
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
        }
    }

    async fn run(&self, ctx: &JobContext, job: &Claimed, payload: EmailPayload) -> Result<Value, JobError> {
        let user = domain::users::find(&ctx.db, &payload.user_id)
            .await?
            .ok_or_else(|| JobError::Permanent("De ontvanger bestaat niet meer.".to_owned()))?;
        let name = user.preferred_name.as_deref().unwrap_or(&user.preferred_username);
        let address = user.email.parse().map_err(|e| JobError::Permanent(format!("Ongeldig e-mailadres {:?}: {e}", user.email)))?;
        let to = Mailbox::new(Some(name.to_owned()), address);
        let config = self.mailer.config();
        let text = render(payload.template, &Recipient { name, email: &user.email }, &config.public_url);
        let message_id = format!("<{}@{}>", job.id, config.from.email.domain());
        let message = Message::builder()
            .from(config.from.clone())
            .to(to)
            .subject(text.subject)
            .message_id(Some(message_id.clone()))
            .singlepart(SinglePart::builder().header(ContentType::TEXT_PLAIN).body(text.body))
            .map_err(|e| JobError::Permanent(format!("Het bericht kon niet worden opgemaakt: {e}")))?;
        let done = || json!({ "recipient": user.email, "messageId": message_id });
        let name = job.id.to_string();

        // the delivery record makes a second attempt of this job find the first's delivery
        let first: Option<String> = sqlx::query_scalar(
            "insert into email_deliveries (job_id, state, recipient, message_id) values ($1, 'sending', $2, $3)
             on conflict (job_id) do nothing returning state",
        )
        .bind(job.id)
        .bind(&user.email)
        .bind(&message_id)
        .fetch_optional(&ctx.db)
        .await?;
        if first.is_none() {
            let state: String =
                sqlx::query_scalar("select state from email_deliveries where job_id = $1").bind(job.id).fetch_one(&ctx.db).await?;
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
                Ok(done())
            }
            Err(SendError::Uncertain(e)) => Err(JobError::Permanent(format!(
                "{e}. Of de e-mail is aangekomen is onbekend; niet opnieuw verzonden, om een dubbele e-mail te voorkomen."
            ))),
            Err(e) => {
                sqlx::query("delete from email_deliveries where job_id = $1 and state = 'sending'").bind(job.id).execute(&ctx.db).await?;
                Err(match e {
                    SendError::Refused(e) => JobError::Permanent(e),
                    other => JobError::Retryable(other.to_string()),
                })
            }
        }
    }
}

async fn mark_sent(ctx: &JobContext, job: &Claimed) -> sqlx::Result<()> {
    sqlx::query("update email_deliveries set state = 'sent', sent_at = coalesce(sent_at, now()) where job_id = $1")
        .bind(job.id)
        .execute(&ctx.db)
        .await?;
    Ok(())
}
