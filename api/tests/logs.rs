//! Nothing of a consult's content reaches the logs: a whole live consult with a summary, logged at
//! the most detailed level `APP_LOG` allows, and not one sentence of it in the output; what the
//! socket logs names its session.

mod common;

use std::io::Write;
use std::sync::{Arc, Mutex};

use common::TestApp;
use futures::SinkExt;
use serde_json::json;
use sqlx::PgPool;
use tokio_tungstenite::tungstenite::Message;

#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

const SECRET_COMPLAINT: &str = "Ik heb sinds gisteren een zeurende pijn in mijn linkerkuit.";
const SECRET_FINDING: &str = "De kuit is warm en gezwollen.";

#[sqlx::test(migrations = "../migrations")]
async fn a_consult_and_its_note_never_appear_in_the_logs(pool: PgPool) {
    let captured = Captured::default();
    let writer = captured.clone();
    // the product's own filter, asked for everything, even the websocket library's frames
    tracing_subscriber::fmt()
        .with_env_filter(domain::telemetry::filter("trace,tungstenite=trace"))
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .init();

    let app = TestApp::spawn(pool).await;
    let worker = app.start_worker(&[]);
    let token = app.access_token_for("anna@praktijk.nl").await;
    let (session, _) = common::open_session(&app, &token).await;
    let mut ws = common::socket(&app, &token, &session).await;
    let transcript =
        format!("{SECRET_COMPLAINT} {SECRET_FINDING} Waarschijnlijk een trombosebeen. Ik verwijs u vandaag naar de trombosedienst.");
    ws.send(Message::Text(json!({"type": "summarize", "request": {"template": "soap", "transcript": transcript}}).to_string().into()))
        .await
        .unwrap();
    common::next_of(&mut ws, "summarization").await;
    let response =
        app.http.post(app.url("/api/audio/consult/generative/v2")).bearer_auth(&token).body(transcript.clone()).send().await.unwrap();
    assert_eq!(response.status(), 200);
    worker.stop().await;

    let logs = String::from_utf8_lossy(&captured.0.lock().unwrap()).into_owned();
    assert!(logs.contains("summarise_consult") || logs.contains("job"), "the logs were captured: {} bytes", logs.len());
    // what the socket's task logs carries its session (the span `live.socket`)
    let socket_span = format!("live.socket{{session.id={session} user.id=");
    assert!(logs.contains(&socket_span), "no line in the socket's span {socket_span:?}");
    for secret in ["linkerkuit", "zeurende pijn", "warm en gezwollen", "trombosebeen", "trombosedienst"] {
        let line = logs.lines().find(|l| l.contains(secret)).unwrap_or_default();
        assert!(!logs.contains(secret), "{secret:?} leaked into the logs: {}", &line[..line.len().min(400)]);
    }
}
