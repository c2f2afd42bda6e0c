//! Connections that send half a request, or nothing, or a body too slowly are closed; the live
//! consult's websocket outlives every bound.

mod common;

use std::time::Duration;

use common::{Options, TestApp};
use futures::{SinkExt, StreamExt};
use sqlx::PgPool;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// Bounds of one and two seconds; every wait below is a hang guard far beyond them.
async fn app(pool: PgPool) -> TestApp {
    app_idle(pool, "2s").await
}

async fn app_idle(pool: PgPool, idle: &str) -> TestApp {
    let env = vec![
        ("APP_HTTP_HEADER_TIMEOUT", "1s".to_owned()),
        ("APP_HTTP_IDLE_TIMEOUT", idle.to_owned()),
        ("APP_HTTP_BODY_TIMEOUT", "1s".to_owned()),
    ];
    TestApp::spawn_with(pool, Options { env, ..Default::default() }).await
}

const HANG_GUARD: Duration = Duration::from_secs(30);

async fn connect(app: &TestApp) -> TcpStream {
    TcpStream::connect(app.base.trim_start_matches("http://")).await.unwrap()
}

/// Everything the server sends until it closes the connection.
async fn read_until_closed(stream: &mut TcpStream) -> String {
    let mut received = Vec::new();
    let read = tokio::time::timeout(HANG_GUARD, async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => received.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    assert!(read.is_ok(), "the server kept the connection open; it sent {:?}", String::from_utf8_lossy(&received));
    String::from_utf8_lossy(&received).into_owned()
}

#[sqlx::test(migrations = "../migrations")]
async fn a_connection_that_sends_half_a_request_head_is_closed(pool: PgPool) {
    // the idle bound is far beyond the hang guard: the header bound closes it
    let app = app_idle(pool, "10m").await;
    let mut stream = connect(&app).await;
    stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ").await.unwrap();
    let answer = read_until_closed(&mut stream).await;
    assert!(!answer.contains("200 OK"), "{answer}");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_head_sent_one_byte_at_a_time_is_cut_off(pool: PgPool) {
    let app = app_idle(pool, "10m").await;
    let mut stream = connect(&app).await;
    let head =
        b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-A: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n";
    let dripped = tokio::time::timeout(HANG_GUARD, async {
        for byte in head {
            if stream.write_all(&[*byte]).await.is_err() {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        true
    })
    .await
    .expect("the drip ends");
    // the head takes 9 s to send; the server gives it one
    let answer = if dripped { read_until_closed(&mut stream).await } else { String::new() };
    assert!(!answer.contains("200 OK"), "{answer}");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_connection_that_sends_nothing_and_one_kept_alive_are_closed_when_idle(pool: PgPool) {
    let app = app(pool).await;
    let mut silent = connect(&app).await;
    assert_eq!(read_until_closed(&mut silent).await, "");
    let mut kept = connect(&app).await;
    kept.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n").await.unwrap();
    let answer = read_until_closed(&mut kept).await;
    assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
}

#[sqlx::test(migrations = "../migrations")]
async fn a_body_that_stops_halfway_gets_408_in_dutch(pool: PgPool) {
    let app = app(pool).await;
    let token = app.access_token_for("huisarts@example.nl").await;
    let mut stream = connect(&app).await;
    let head = format!(
        "POST /api/feedback HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"text\": \"half"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let answer = read_until_closed(&mut stream).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("De aanvraag kwam te langzaam binnen."), "{answer}");
    assert!(answer.to_ascii_lowercase().contains("connection: close"), "{answer}");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_live_consult_socket_outlives_the_connection_bounds(pool: PgPool) {
    let app = app(pool).await;
    let token = app.access_token_for("huisarts@example.nl").await;
    let (session, _) = common::open_session(&app, &token).await;
    let mut socket = common::socket(&app, &token, &session).await;
    common::next_of(&mut socket, "ready").await;
    // longer than the header, idle and body bounds together
    tokio::time::sleep(Duration::from_secs(5)).await;
    socket.send(Message::Text(r#"{"type":"ping"}"#.into())).await.unwrap();
    assert_eq!(common::next_of(&mut socket, "pong").await["type"], "pong");
    socket.close(None).await.unwrap();
    while tokio::time::timeout(HANG_GUARD, socket.next()).await.ok().flatten().is_some() {}
}
