//! The e-mail job: delivered over SMTP to a listener in the test and to the outbox folder, in
//! Dutch, at most once per job also when the job runs again after a crash.

mod common;

use std::time::Duration;

use common::smtp::{Mode, SmtpServer};
use common::{Harness, user};
use jobs::kinds::SendEmail;
use jobs::mail::templates::Template;
use jobs::{JobState, NewJob};
use sqlx::PgPool;
use uuid::Uuid;

fn welcome(sub: &str) -> NewJob {
    SendEmail::job(Template::Welcome, sub).caused_by(sub)
}

/// Makes the job look like its worker died after the delivery and before recording success: the
/// attempt's lease has run out, so the relay hands the job to a worker again.
async fn crash_after_delivery(h: &Harness, id: Uuid) {
    sqlx::query(
        "update jobs set state = 'running', finished_at = null, locked_by = 'vanished',
                         lease_until = now() - interval '1 second' where id = $1",
    )
    .bind(id)
    .execute(&h.db)
    .await
    .unwrap();
}

#[sqlx::test(migrations = "../migrations")]
async fn smtp_delivers_once_even_when_the_job_runs_again_after_a_crash(db: PgPool) {
    let h = Harness::new(db).await;
    let smtp = SmtpServer::start().await;
    user(&h.db, "u-1", "anna@example.nl").await;
    let worker = h.start_worker(&[("APP_SMTP_URL", &smtp.url()), ("APP_MAIL_FROM", "Spreekkamer <noreply@spreekkamer.nl>")]);

    let id = h.enqueue(welcome("u-1")).await;
    let job = h.wait_for_state(id, JobState::Succeeded, Duration::from_secs(20)).await;
    let received = smtp.received();
    assert_eq!(received.len(), 1);
    let message = &received[0];
    assert!(message.contains("Subject: Welkom bij Spreekkamer"), "{message}");
    assert!(message.contains("To: anna <anna@example.nl>"), "{message}");
    assert!(message.contains(&format!("Message-ID: <{id}@spreekkamer.nl>")), "{message}");
    assert!(message.contains("Beste anna,"), "{message}");
    assert_eq!(job.result.unwrap()["recipient"], "anna@example.nl");

    crash_after_delivery(&h, id).await;
    let again = h.wait_for(id, Duration::from_secs(20), |j| j.state() == JobState::Succeeded && j.attempts == 2).await;
    assert_eq!(again.attempts, 2, "the job did run again");
    assert_eq!(smtp.received().len(), 1, "but did not send again");
    worker.shutdown().await;
}

#[sqlx::test(migrations = "../migrations")]
async fn a_refusing_server_fails_the_job_at_once_and_a_busy_one_is_tried_again(db: PgPool) {
    let h = Harness::new(db).await;
    let smtp = SmtpServer::start().await;
    user(&h.db, "u-2", "bram@example.nl").await;
    let worker = h.start_worker(&[("APP_SMTP_URL", &smtp.url())]);

    smtp.set_mode(Mode::Refuse);
    let refused = h.enqueue(welcome("u-2")).await;
    let job = h.wait_for_state(refused, JobState::Failed, Duration::from_secs(20)).await;
    assert_eq!(job.attempts, 1);
    assert!(job.last_error.unwrap().contains("550"));

    smtp.set_mode(Mode::TryLater);
    let busy = h.enqueue(welcome("u-2")).await;
    let job = h.wait_for_state(busy, JobState::Retrying, Duration::from_secs(20)).await;
    assert!(job.last_error.unwrap().contains("451"));
    assert!(job.run_at > chrono::Utc::now() + chrono::Duration::seconds(20), "the next attempt waits");
    // the server is back; make the next attempt due now (its message, due later, then finds the
    // job done and does nothing)
    smtp.set_mode(Mode::Accept);
    sqlx::query("update jobs set run_at = now(), dispatched_at = null where id = $1").bind(busy).execute(&h.db).await.unwrap();
    let done = h.wait_for_state(busy, JobState::Succeeded, Duration::from_secs(30)).await;
    assert_eq!(done.attempts, 2);
    assert_eq!(smtp.received().len(), 1);
    worker.shutdown().await;
}

#[sqlx::test(migrations = "../migrations")]
async fn the_outbox_gets_one_eml_file_per_job(db: PgPool) {
    let h = Harness::new(db).await;
    user(&h.db, "u-3", "carla@example.nl").await;
    sqlx::query("update users set preferred_name = 'Carla' where id = 'u-3'").execute(&h.db).await.unwrap();
    let worker = h.start_worker(&[]);

    let id = h.enqueue(welcome("u-3")).await;
    h.wait_for_state(id, JobState::Succeeded, Duration::from_secs(20)).await;
    let outbox = h.dir.join("outbox");
    let file = std::fs::read_to_string(outbox.join(format!("{id}.eml"))).unwrap();
    assert!(file.contains("Subject: Welkom bij Spreekkamer"));
    assert!(file.contains("Beste Carla,"), "the preferred name is used");

    crash_after_delivery(&h, id).await;
    h.wait_for(id, Duration::from_secs(20), |j| j.state() == JobState::Succeeded && j.attempts == 2).await;
    assert_eq!(std::fs::read_dir(&outbox).unwrap().count(), 1, "one file, written once");

    let gone = h.enqueue(SendEmail::job(Template::Welcome, "no-such-user")).await;
    let job = h.wait_for_state(gone, JobState::Failed, Duration::from_secs(20)).await;
    assert_eq!(job.last_error.as_deref(), Some("De ontvanger bestaat niet meer."));
    worker.shutdown().await;
}

#[sqlx::test(migrations = "../migrations")]
async fn organisation_letters_reach_who_is_still_there(db: PgPool) {
    let h = Harness::new(db).await;
    user(&h.db, "u-org", "arts@zuid.nl").await;
    let organisation = domain::organisations::create(&h.db, "Zorggroep Zuid").await.unwrap();
    let level = domain::organisations::create_level(&h.db, organisation, "Praktijk De Linde").await.unwrap();
    domain::organisations::add_member(&h.db, level, "u-org", true).await.unwrap();
    for address in ["nieuw@zuid.nl", "weg@zuid.nl"] {
        sqlx::query("insert into organisation_level_emails (level_id, email) values ($1, $2)")
            .bind(level)
            .bind(address)
            .execute(&h.db)
            .await
            .unwrap();
    }
    let worker = h.start_worker(&[]);
    let outbox = h.dir.join("outbox");
    let sent = |id: Uuid| std::fs::read_to_string(outbox.join(format!("{id}.eml"))).unwrap();

    let invitation = h.enqueue(SendEmail::organisation_invitation(level, "nieuw@zuid.nl")).await;
    h.wait_for_state(invitation, JobState::Succeeded, Duration::from_secs(20)).await;
    let file = sent(invitation);
    assert!(file.contains("Subject: Uitnodiging voor Spreekkamer via Zorggroep Zuid"));
    assert!(file.contains("To: nieuw@zuid.nl"));

    let admin = h.enqueue(SendEmail::organisation_admin(level, "u-org")).await;
    h.wait_for_state(admin, JobState::Succeeded, Duration::from_secs(20)).await;
    assert!(sent(admin).contains("Subject: Je bent beheerder van Praktijk De Linde in Spreekkamer"));

    // an address removed before its letter went gets none
    sqlx::query("delete from organisation_level_emails where email = 'weg@zuid.nl'").execute(&h.db).await.unwrap();
    let gone = h.enqueue(SendEmail::organisation_invitation(level, "weg@zuid.nl")).await;
    let job = h.wait_for_state(gone, JobState::Succeeded, Duration::from_secs(20)).await;
    assert!(job.result.unwrap().get("skipped").is_some());
    assert!(!outbox.join(format!("{gone}.eml")).exists());
    worker.shutdown().await;
}
